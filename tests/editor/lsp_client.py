"""editor.lsp.*: q7cc-clangd driven by a JSON-RPC client (the standard
library only), for the protocol's details that a real editor hides.

    lsp_client.py SCENARIO STAGE WORKDIR

Each scenario makes WORKDIR afresh: a kernel file whose parameter is
`float *` and whose body uses an undeclared name, and a
compile_commands.json whose compiler is STAGE/bin/q7cc-gnu.
  protocol    --version is clangd's; merged diagnostics (code, source, severity, codeDescription,
              the range in UTF-16 units), a fixing change clears q7cc's,
              incremental changes in a burst, hover's schema, the code
              lens, the quick fix, shutdown/exit
  encoding    UTF-8 columns, agreed through clangd's offsetEncoding
  stuck       while an analysis runs (one that never ends), clangd's
              messages come through; it is ended at the limit
  no_clangd   a clangd that ends at once: five restarts, then errors to the
              editor's requests, q7cc's diagnostics all the same
  crash       clangd killed: started again, the documents opened again
  gone        the editor's pipes closed without exit: q7cc-clangd and
              clangd end
  not_cxx     a plain-text file and a C file: no analysis (their compiler
              never runs), no harm
  no_command  a C++ file no compile_commands.json names: clangd's own
              diagnostics, none of q7cc's
  paths       a project under folders named with "+", a space, "%" and
              non-ASCII, opened under a link too, its URIs spelled as
              Neovim and as VS Code spell them (clangd spells its own):
              q7cc's finding arrives beside clangd's and stays
  language_ids  the languageIds other clients send ("c++" of Emacs's eglot,
              none at all, a made-up one): C++ by the file's extension;
              a C file is never analysed, whatever it is called
  q7_flags    a compile command with q7cc's own --q7-multicore and
              --q7-kernel=: clangd does not see them (no "unsupported
              option"); a header of kernels and a file no database names
              find q7cc's headers; the user's own clangd configuration
              still applies
  typing      a half-written signature: clangd's error on its line and
              no q7cc finding beside it; the finished line gets its own
  fixes       each fix of editor/fix.c's table applied and linted again
              (no finding left on its line; a double's is not preferred);
              unsigned &, int8_t *, arrays, TensorOptions, std::array and
              a default argument get no fix
  library     hover and the lens name the op by the library of the
              compile command's CMake target (torch.ops.myops.scale)
  duplicate   two kernels of one name: the finding names the editor's
              file and points at the other with relatedInformation
  header_save a header saved: its open includer is analysed again (its
              finding, from the header's macro, goes); another file is not
  odd_shapes  a clangd and an editor whose JSON has the wrong shapes
              (diagnostics as an object, as numbers, as strings;
              contentChanges as an object, as a number): no abort, q7cc's
              finding still arrives, and only objects reach the editor;
              messages that are no JSON-RPC 2.0 (no "jsonrpc", neither
              method nor id, an array; clangd 14 ends on them, as the
              stand-in does) are not passed on, a request among them
              answered with an error, and clangd is never restarted; a
              negative Content-Length ends the server (status 1), saying so
  vendor      an m.def naming a compute function that no source of its
              CMake target defines: a finding at the m.def, gone once fixed
              or once another source of the target that defines it is saved
"""
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
from run_e2e import alive, descendants, fail  # noqa: E402

SCENARIO, STAGE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT = 30

KERNEL = """#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor scale(const torch::Tensor &x, /* \u00fc\U0001F600 */ float *by)
{
\tint unused = nope;
\treturn x;
}
"""


class Server:
    """q7cc-clangd on pipes; a thread reads its messages into a queue."""

    def __init__(self, cwd, args=(), env=None):
        self.log = open(os.path.join(WORK, "server.log"), "wb")
        self.proc = subprocess.Popen(
            [os.path.join(STAGE, "bin", "q7cc-clangd")] + list(args), cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.msgs = queue.Queue()
        self.lock = threading.Lock()  # the reader thread answers requests too
        self.asked = []  # the methods of the server's requests, in order
        self.published = []  # the params of every publishDiagnostics, in order
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.msgs.put(None)
                    return
                line = line.decode("ascii").rstrip("\r\n")
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            msg = json.loads(body.decode("utf-8"))
            if "method" in msg and "id" in msg:  # the server asks the editor
                self.asked.append(msg["method"])
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            if msg.get("method") == "textDocument/publishDiagnostics":
                self.published.append(msg["params"])
            self.msgs.put(msg)

    def send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        with self.lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m,
                         "the answer to " + method)

    def wait(self, pred, what, timeout=TIMEOUT):
        end = time.time() + timeout
        while time.time() < end:
            try:
                m = self.msgs.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if m is None:
                fail("q7cc-clangd ended (status %s) while waiting for %s"
                     % (self.proc.wait(), what))
            if pred(m):
                return m
        fail("no " + what + " within %d s" % timeout)

    def initialize(self, root, encodings=None):
        caps = {"textDocument": {"publishDiagnostics": {"codeDescriptionSupport": True},
                                 "hover": {"contentFormat": ["markdown", "plaintext"]}}}
        if encodings:  # clangd's extension, which Neovim offers
            caps["offsetEncoding"] = encodings
        caps["workspace"] = {"codeLens": {"refreshSupport": True}}
        r = self.request("initialize", {"processId": os.getpid(), "rootUri": uri(root),
                                        "capabilities": caps})
        got = r.get("result", {}).get("capabilities", {})
        if "hoverProvider" not in got or "codeLensProvider" not in got:
            fail("initialize: clangd's capabilities and the code lenses: %r" % r)
        self.notify("initialized", {})

    def open(self, path, text, lang="cpp", spell=None):
        doc = {"uri": (spell or uri)(path), "version": 1, "text": text}
        if lang is not None:
            doc["languageId"] = lang
        self.notify("textDocument/didOpen", {"textDocument": doc})

    def diagnostics(self, path, pred, what, timeout=TIMEOUT):
        u = uri(path)
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == u and pred(m["params"]["diagnostics"]),
                         what, timeout)["params"]["diagnostics"]


def uri(path):
    return "file://" + path


def uri_quoted(path):
    """path as VS Code spells it: every byte but the unreserved ones and
    "/" percent-encoded (Neovim, like uri() above, leaves more as is)."""
    return "file://" + urllib.parse.quote(path, safe="/")


def same_file(a, b):
    """Two file URIs name one file, as an editor compares them."""
    return urllib.parse.unquote(a) == urllib.parse.unquote(b)


def q7(diags):
    return [d for d in diags if d.get("source") == "q7cc"]


def undeclared(diags):
    return any("nope" in d["message"] and d.get("source") != "q7cc" for d in diags)


def write_project(folder, with_commands=True):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "k.cpp")
    with open(path, "w", encoding="utf-8") as f:
        f.write(KERNEL)
    if with_commands:
        cc = [{"directory": folder, "file": "k.cpp",
               "arguments": [os.path.join(STAGE, "bin", "q7cc-gnu"), "-O2", "-c", "k.cpp",
                             "-o", "k.o"]}]
        with open(os.path.join(folder, "compile_commands.json"), "w") as f:
            json.dump(cc, f)
    return path


def clangd_of(pid):
    for p in descendants(pid):
        try:
            with open("/proc/%d/comm" % p) as f:
                if f.read().startswith("clangd"):
                    return p
        except OSError:
            pass
    fail("no clangd under q7cc-clangd")


def check_q7_diag(diags, text, unit="utf-16-le", width=2):
    """The one q7cc finding, placed on `by` in UTF-16 units (or unit's,
    width bytes each)."""
    ours = q7(diags)
    if len(ours) != 1:
        fail("expected one q7cc diagnostic, got %r" % ours)
    d = ours[0]
    line = text.split("\n")[3]
    start = len(line[:line.index("*by") + 1].encode(unit)) // width
    want = {"code": "q7-unsupported-param", "severity": 1, "source": "q7cc"}
    for k, v in want.items():
        if d.get(k) != v:
            fail("%s: %r, expected %r" % (k, d.get(k), v))
    if d["range"]["start"] != {"line": 3, "character": start} or \
            d["range"]["end"] != {"line": 3, "character": start + 2}:
        fail("range %r, expected line 3 from character %d (%s)" % (d["range"], start, unit))
    href = d.get("codeDescription", {}).get("href", "")
    page = href[len("file://"):].split("#")[0]
    if not href.startswith("file://") or not os.path.isfile(page) or \
            "q7-unsupported-param" not in open(page).read():
        fail("codeDescription %r does not name the rules' page" % href)
    if "float *" not in d["message"]:
        fail("message %r" % d["message"])


def protocol():
    # clangd's modes that are no server pass through (VS Code asks --version).
    v = subprocess.run([os.path.join(STAGE, "bin", "q7cc-clangd"), "--version"],
                       capture_output=True, text=True)
    if v.returncode != 0 or "clangd version" not in v.stdout:
        fail("q7cc-clangd --version: %r" % v)
    path = write_project(WORK)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, KERNEL)
    diags = s.diagnostics(path, lambda d: q7(d) and undeclared(d),
                          "diagnostics with q7cc's finding beside clangd's error")
    check_q7_diag(diags, KERNEL)
    fixed = KERNEL.replace("float *by", "float by")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                        "contentChanges": [{"text": fixed}]})
    diags = s.diagnostics(path, lambda d: not q7(d), "q7cc's finding cleared")
    if not undeclared(diags):
        # clangd may publish its own a moment later: its error must stay.
        s.diagnostics(path, undeclared, "clangd's error after the fix")
    hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                             "position": {"line": 3, "character": 26}})
    value = (hover.get("result") or {}).get("contents", {}).get("value", "")
    if "scale(Tensor x, float by) -> Tensor" not in value or "torch.ops." not in value:
        fail("hover on the kernel: %r" % value)
    if "Tensor" not in value.split("q7cc kernel")[0]:
        fail("hover lost clangd's part: %r" % value)
    hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                             "position": {"line": 3, "character": 50}})
    if "q7cc kernel" in json.dumps(hover):
        fail("hover on a parameter shows the kernel: %r" % hover)
    # The schemas changed (the kernel now has one): the editor was told.
    if "workspace/codeLens/refresh" not in s.asked:
        fail("no workspace/codeLens/refresh: %r" % s.asked)
    lenses = s.request("textDocument/codeLens", {"textDocument": {"uri": uri(path)}})["result"]
    if len(lenses) != 1 or lenses[0]["range"]["start"] != {"line": 3, "character": 24} or \
            not lenses[0]["command"]["title"].startswith("scale(Tensor x, float by) -> Tensor"):
        fail("code lens: %r" % lenses)
    # A burst of incremental edits (debounced, each cancelling the last):
    # the pointer back, as three one-character insertions and a removal.
    line = fixed.split("\n")[3]
    col = len(line[:line.index("by)")].encode("utf-16-le")) // 2
    version = 2
    for text in ["x", "*", "y"]:
        version += 1
        s.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"range": {"start": {"line": 3, "character": col},
                                          "end": {"line": 3, "character": col}},
                                "text": text}]})
        col += 1
    version += 1
    s.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(path), "version": version},
        "contentChanges": [{"range": {"start": {"line": 3, "character": col - 3},
                                      "end": {"line": 3, "character": col - 2}},
                            "text": ""}, {"range": {"start": {"line": 3, "character": col - 2},
                                                    "end": {"line": 3, "character": col - 1}},
                                          "text": ""}]})
    diags = s.diagnostics(path, lambda d: q7(d), "q7cc's finding after incremental edits")
    check_q7_diag(diags, KERNEL)
    # The quick fix: clangd's actions and q7cc's, whose edit fixes it.
    r = s.request("textDocument/codeAction", {
        "textDocument": {"uri": uri(path)},
        "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
        "context": {"diagnostics": q7(diags)}})
    fixes = [a for a in r.get("result") or [] if a.get("title", "").startswith("q7cc:")]
    if len(fixes) != 1 or fixes[0]["kind"] != "quickfix":
        fail("code actions: %r" % r)
    (edit,) = fixes[0]["edit"]["changes"][uri(path)]
    lines = KERNEL.split("\n")
    line = lines[3]
    u16 = line.encode("utf-16-le")
    a, b = edit["range"]["start"]["character"] * 2, edit["range"]["end"]["character"] * 2
    lines[3] = (u16[:a] + edit["newText"].encode("utf-16-le") + u16[b:]).decode("utf-16-le")
    if lines[3] != KERNEL.split("\n")[3].replace("*by", "by"):
        fail("the quick fix gives %r" % lines[3])
    version += 1
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": version},
                                        "contentChanges": [{"text": "\n".join(lines)}]})
    s.diagnostics(path, lambda d: not q7(d), "q7cc's finding fixed by the quick fix")
    r = s.request("shutdown", None)
    if "error" in r:
        fail("shutdown: %r" % r)
    s.notify("exit", None)
    try:
        rc = s.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        fail("q7cc-clangd did not end after exit")
    if rc != 0:
        fail("exit status %d after shutdown and exit" % rc)


def encoding():
    """clangd agrees on UTF-8 with a client that offers it: columns in bytes."""
    path = write_project(WORK)
    s = Server(WORK)
    s.initialize(WORK, ["utf-8", "utf-16"])
    s.open(path, KERNEL)
    diags = s.diagnostics(path, lambda d: q7(d), "q7cc's finding")
    check_q7_diag(diags, KERNEL, "utf-8", 1)
    s.proc.kill()


def stuck():
    """An analysis that never ends is ended at the limit, and the next file's
    runs: a.cpp's compile is q7cc-host's, whose real compiler (c++, first
    on the server's PATH) sleeps when q7cc asks it for its folders."""
    path = write_project(WORK)
    slow = os.path.join(WORK, "slow")
    os.makedirs(slow)
    with open(os.path.join(slow, "c++"), "w") as f:
        f.write("#!/bin/sh\nexec sleep 120\n")
    os.chmod(os.path.join(slow, "c++"), 0o755)
    a = os.path.join(WORK, "a.cpp")
    atext = "#include <q7/kernel.h>\nQ7_KERNEL int scale_a(int x) { return x; }\nint b = nope;\n"
    with open(a, "w") as f:
        f.write(atext)
    with open(os.path.join(WORK, "compile_commands.json")) as f:
        cc = json.load(f)
    cc.append({"directory": WORK, "file": "a.cpp", "arguments": ["q7cc-host", "-c", "a.cpp"]})
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump(cc, f)
    env = dict(os.environ, PATH=slow + ":" + os.environ["PATH"])
    s = Server(WORK, ["--q7-analysis-limit=4000"], env=env)
    s.initialize(WORK)
    s.open(a, atext)
    # While the analysis runs, clangd's messages still come through.
    s.diagnostics(a, undeclared, "clangd's diagnostics of a.cpp")
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(a)}})
    if not any(x.get("name", "").startswith("scale") for x in r.get("result") or []):
        fail("documentSymbol of a.cpp: %r" % r)
    with open(os.path.join(WORK, "server.log"), errors="replace") as f:
        if "ended" in f.read():
            fail("the analysis was ended before clangd's answers came (they waited for it)")
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7(d), "k.cpp's analysis after a.cpp's was ended", timeout=20)
    s.proc.kill()
    s.proc.wait()
    with open(os.path.join(WORK, "server.log"), errors="replace") as f:
        if "a.cpp: q7cc's analysis took over 4000 ms: ended" not in f.read():
            fail("no word of the analysis ended in the server's log")


def no_clangd():
    """A clangd that ends at once (/bin/false): started again five times,
    then not; the initialize gets an error, and q7cc's diagnostics still
    come."""
    path = write_project(WORK)
    s = Server(WORK, ["--clangd=/bin/false"])
    r = s.request("initialize", {"processId": os.getpid(), "rootUri": uri(WORK),
                                 "capabilities": {}})
    if "error" not in r:
        fail("initialize without clangd: %r" % r)
    s.notify("initialized", {})
    s.open(path, KERNEL)
    diags = s.diagnostics(path, lambda d: q7(d), "q7cc's finding without clangd")
    check_q7_diag(diags, KERNEL)
    r = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                         "position": {"line": 3, "character": 26}})
    if "error" not in r:
        fail("hover without clangd: %r" % r)
    s.proc.kill()
    s.proc.wait()
    with open(os.path.join(WORK, "server.log"), errors="replace") as f:
        log = f.read()
    if log.count("clangd ended; starting it again") != 5 or "not starting it again" not in log:
        fail("the restarts: %s" % log)


def crash():
    path = write_project(WORK)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7(d) and undeclared(d), "the first diagnostics")
    old = clangd_of(s.proc.pid)
    os.kill(old, signal.SIGKILL)  # (LLVM survives a SIGSEGV sent by kill)
    s.diagnostics(path, lambda d: q7(d) and undeclared(d),
                  "clangd's diagnostics again from a new clangd")
    new = clangd_of(s.proc.pid)
    if new == old:
        fail("clangd was not started again")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                        "contentChanges": [{"text": KERNEL.replace("*by", "by")}]})
    s.diagnostics(path, lambda d: not q7(d), "q7cc's finding cleared after the restart")
    hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                             "position": {"line": 3, "character": 26}})
    if "scale(Tensor x, float" not in json.dumps(hover):
        fail("hover after the restart: %r" % hover)
    s.proc.kill()


def gone():
    path = write_project(WORK)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7(d), "the first diagnostics")
    clangd = clangd_of(s.proc.pid)
    s.proc.stdin.close()
    s.proc.stdout.close()
    try:
        s.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        fail("q7cc-clangd is still running 10 s after the editor went")
    end = time.time() + 10
    while alive(clangd) and time.time() < end:
        time.sleep(0.05)
    if alive(clangd):
        fail("clangd (pid %d) outlived q7cc-clangd" % clangd)


def logged_prefix():
    """A q7cc install whose bin/q7cc notes its runs in WORK/runs before it
    runs the staged q7cc: the server's environment (Q7CC_PREFIX) names
    it, as an installed tree would be found."""
    prefix, runs = os.path.join(WORK, "prefix"), os.path.join(WORK, "runs")
    os.makedirs(os.path.join(prefix, "bin"))
    os.symlink(os.path.join(STAGE, "share"), os.path.join(prefix, "share"))
    # clangd's headers too (clangd_config.c's -idirafter): else its errors
    # on the kernel's line would leave q7cc's finding out.
    os.symlink(os.path.join(STAGE, "include"), os.path.join(prefix, "include"))
    with open(os.path.join(prefix, "bin", "q7cc"), "w") as f:
        f.write('#!/bin/sh\necho "$@" >> %s\nQ7CC_PREFIX= exec %s "$@"\n'
                % (runs, os.path.join(STAGE, "bin", "q7cc")))
    os.chmod(os.path.join(prefix, "bin", "q7cc"), 0o755)
    return dict(os.environ, Q7CC_PREFIX=prefix), runs


def lint_runs(runs):
    """The lines of the analyses that ran (clangd asks the same q7cc for
    its folders, --query-driver, without --q7-lint)."""
    if not os.path.exists(runs):
        return []
    with open(runs) as f:
        return [x for x in f if "--q7-lint" in x or "--q7-print-schema" in x]


def not_cxx():
    """A plain-text file and a C file, each with a q7cc compile command:
    q7cc (the server's own, which notes its runs) never runs for them,
    and runs once for the C++ file opened after them. Documents are
    analysed when due, and these two would have been due before the C++
    file: once its findings are in, a run for them would be in the log."""
    path = write_project(WORK)
    env, runs = logged_prefix()
    txt, c = os.path.join(WORK, "notes.txt"), os.path.join(WORK, "plain.c")
    ttext, ctext = "Q7_KERNEL float *by\n", "int f(void) { return nope; }\n"
    for p, t in ((txt, ttext), (c, ctext)):
        with open(p, "w") as f:
            f.write(t)
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump([{"directory": WORK, "file": os.path.basename(p),
                    "arguments": ["q7cc-gnu", "-c", p]} for p in (path, txt, c)], f)
    s = Server(WORK, env=env)
    s.initialize(WORK)
    s.open(txt, ttext, lang="plaintext")
    s.open(c, ctext, lang="c")
    diags = s.diagnostics(c, undeclared, "clangd's error in the C file")
    if q7(diags):
        fail("q7cc analysed a C file: %r" % diags)
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7(d), "q7cc's finding in the C++ file afterwards")
    others = [x for x in lint_runs(runs) if "k.cpp" not in x]
    if others:
        fail("q7cc ran for a file that is not C++: %s" % others)
    # One analysis gives the findings and the kernels (hover, lenses).
    s.request("textDocument/codeLens", {"textDocument": {"uri": uri(path)}})
    ran = [x for x in lint_runs(runs) if "k.cpp" in x]
    if len(ran) != 1:
        fail("the C++ file's opening ran the server's own q7cc %d times: %r" % (len(ran), ran))
    if s.proc.poll() is not None:
        fail("q7cc-clangd ended")
    s.proc.kill()


def planted(folder, name, marker):
    """A program of the project's, which notes in marker that it ran."""
    p = os.path.join(folder, name)
    with open(p, "w") as f:
        f.write('#!/bin/sh\necho "$0 $*" >> %s\nexit 0\n' % marker)
    os.chmod(p, 0o755)
    return p


def plugin(marker):
    """A shared object that notes in marker that it was loaded."""
    src, so = os.path.join(WORK, "evil.c"), os.path.join(WORK, "evil.so")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\n__attribute__((constructor)) static void pwn(void)\n'
                '{ FILE *f = fopen("%s", "a"); if (f) { fputs("plugin\\n", f); fclose(f); } }\n'
                % marker)
    cc = shutil.which("cc")
    if not cc or subprocess.run([cc, "-shared", "-fPIC", "-o", so, src]).returncode != 0:
        fail("cannot build the plugin with cc (install gcc)")
    return so


def hostile():
    """A cloned project whose compile commands name programs of its own, in
    each form: a q7cc* name (command form, relative), a link named
    xt-clang++ to a script of its own named q7cc (arguments form), a
    profile's name at an absolute path; flags that load code or run a
    program (-fplugin=, -Xclang -load, -B, -wrapper, -specs=, a response
    file), or change q7cc's mode (-E, --version); a relative entry on the
    server's PATH with the real compiler's name in the project. Nothing of
    the project's runs, and the server's own q7cc analyses every file."""
    marker = os.path.join(WORK, "pwned")
    tools, bin_ = os.path.join(WORK, "tools"), os.path.join(WORK, "bin")
    os.makedirs(tools)
    os.makedirs(bin_)
    planted(WORK, "q7cc-pwn", marker)
    planted(tools, "q7cc", marker)
    os.symlink("q7cc", os.path.join(tools, "xt-clang++"))
    for name in ("q7cc-gnu", "cc1plus", "as", "ld", "collect2", "xtensa-lx106-elf-g++"):
        planted(bin_, name, marker)
    for name in ("wrap", "xtensa-lx106-elf-g++", "clangd", "c++"):
        planted(WORK, name, marker)
    so = plugin(marker)
    with open(os.path.join(WORK, "flags.rsp"), "w") as f:
        f.write("-fplugin=%s -B %s\n" % (so, bin_))
    staged = os.path.join(STAGE, "bin", "q7cc-gnu")
    commands = {
        "a.cpp": {"command": "./q7cc-pwn -O2 -c a.cpp -o a.o"},
        "b.cpp": {"arguments": ["tools/xt-clang++", "-c", "b.cpp"]},
        "c.cpp": {"arguments": [os.path.join(bin_, "q7cc-gnu"), "-c", "c.cpp"]},
        "d.cpp": {"arguments": [staged, "-fplugin=" + so, "-fpass-plugin=" + so, "-Xclang",
                                "-load", "-Xclang", so, "-B", bin_, "-B" + bin_, "-wrapper",
                                os.path.join(WORK, "wrap"), "-specs=" + so, "@flags.rsp",
                                "-c", "d.cpp"]},
        "e.cpp": {"command": "q7cc-gnu -B %s -E --version -v -c e.cpp" % bin_},
    }
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump([dict(c, directory=WORK, file=name) for name, c in commands.items()], f)
    env = dict(os.environ, PATH="::" + os.environ["PATH"])  # "": the current folder
    s = Server(WORK, env=env)
    s.initialize(WORK)
    for name in commands:
        path = os.path.join(WORK, name)
        with open(path, "w") as f:
            f.write(KERNEL)
        s.open(path, KERNEL)
        diags = s.diagnostics(path, lambda d: q7(d) or os.path.exists(marker),
                              "q7cc's finding in %s" % name)
        if os.path.exists(marker):
            fail("%s: a program of the project's ran: %s" % (name, open(marker).read()))
        if q7(diags)[0]["code"] != "q7-unsupported-param":
            fail("%s: %r" % (name, q7(diags)))
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})
    if os.path.exists(marker):
        fail("a program of the project's ran: %s" % open(marker).read())
    s.proc.kill()


FAKE_CLANGD = r"""import json, sys
def read():
    n = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            sys.exit(0)
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    return json.loads(sys.stdin.buffer.read(n))
def send(m):
    b = json.dumps(m).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    sys.stdout.buffer.flush()
SHAPES = [{}, [1, "x", None, {"range": 5, "severity": "1"}], "diagnostics", 7]
n = 0
while True:
    m = read()
    if not isinstance(m, dict) or m.get("jsonrpc") != "2.0" or not ("method" in m or "id" in m):
        sys.exit(1)  # as clangd 14: "Not a JSON-RPC 2.0 message", "No method and no response ID"
    if "id" in m and "method" in m:
        send({"jsonrpc": "2.0", "id": m["id"],
              "result": {"capabilities": {"hoverProvider": True}}
              if m["method"] == "initialize" else None})
    uri = m.get("params", {}).get("textDocument", {}).get("uri")
    if uri and m.get("method") in ("textDocument/didOpen", "textDocument/didChange"):
        for shape in SHAPES:
            send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                  "params": {"uri": uri, "version": n, "diagnostics": shape}})
        n += 1
"""


def odd_shapes():
    path = write_project(WORK)
    fake = os.path.join(WORK, "fake-clangd")
    with open(fake, "w") as f:
        f.write("#!" + sys.executable + "\n" + FAKE_CLANGD)
    os.chmod(fake, 0o755)
    s = Server(WORK, ["--clangd=" + fake])
    s.initialize(WORK)
    s.open(path, KERNEL)
    for changes in ({}, 5, [5, {"range": "x", "text": 3}]):
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                            "contentChanges": changes})
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 3},
                                        "contentChanges": [{"text": KERNEL}]})
    for m in ({"jsonrpc": "2.0"}, [1, 2], {"method": "initialize", "id": 99, "params": 3}):
        s.send(m)
    r = s.wait(lambda m: m.get("id") == 99, "the answer to an initialize without jsonrpc")
    if r.get("error", {}).get("code") != -32600:
        fail("an initialize without jsonrpc: %r" % r)
    diags = s.diagnostics(path, lambda d: q7(d), "q7cc's finding beside the odd shapes")
    check_q7_diag(diags, KERNEL)
    with open(os.path.join(WORK, "server.log"), errors="replace") as f:
        if "clangd ended" in f.read():
            fail("clangd ended on a message that is no JSON-RPC 2.0")
    if not all(isinstance(d, dict) for d in diags):
        fail("clangd's diagnostics that are no objects reached the editor: %r" % diags)
    if s.proc.poll() is not None:
        fail("q7cc-clangd ended (status %d) on the odd shapes" % s.proc.returncode)
    with s.lock:  # a framing that cannot be followed: the server ends, saying why
        s.proc.stdin.write(b"Content-Length: -5\r\n\r\n{}")
        s.proc.stdin.flush()
    if s.proc.wait(timeout=TIMEOUT) != 1:
        fail("a negative Content-Length: status %d" % s.proc.returncode)
    with open(os.path.join(WORK, "server.log"), errors="replace") as f:
        if "a header without a valid Content-Length" not in f.read():
            fail("a negative Content-Length: the server ended without saying why")


def foreign_db():
    """Another user's compile_commands.json above root's file in a shared,
    sticky folder (as /tmp): the file in the sticky folder, and root's file
    in that user's folder there. Neither is used (the server's log says
    why), nothing they name runs, and clangd still serves the files."""
    if os.geteuid() != 0:
        fail("run as root: the test makes another user's (uid 65534) files")
    marker = os.path.join(WORK, "pwned")
    shared = os.path.join(WORK, "tmp")
    os.makedirs(shared)
    os.chmod(shared, 0o1777)
    other = os.path.join(shared, "other")
    os.makedirs(os.path.join(shared, "proj"))
    os.makedirs(os.path.join(other, "mine"))
    os.chown(other, 65534, 65534)
    planted(shared, "q7cc-pwn", marker)
    os.chown(os.path.join(shared, "q7cc-pwn"), 65534, 65534)
    files = {os.path.join(shared, "proj", "k.cpp"): shared,
             os.path.join(other, "mine", "k.cpp"): other}
    for path, top in files.items():
        with open(path, "w") as f:
            f.write(KERNEL)
        db = os.path.join(top, "compile_commands.json")
        with open(db, "w") as f:
            json.dump([{"directory": top, "file": path, "command": "%s -c %s"
                        % (os.path.join(shared, "q7cc-pwn"), path)}], f)
        if top == shared:  # another user's file (in other, the folder is theirs)
            os.chown(db, 65534, 65534)
    s = Server(WORK)
    s.initialize(WORK)
    for path in files:
        s.open(path, KERNEL)
        diags = s.diagnostics(path, lambda d: len(d) > len(q7(d)),
                              "clangd's diagnostics of " + path)
        if q7(diags):
            fail("another user's compile command was used: %r" % diags)
    end = time.time() + TIMEOUT
    want = ["%s: not used for q7cc's analysis: it is another user's (uid 65534)"
            % os.path.join(shared, "compile_commands.json"),
            "%s: not used for q7cc's analysis: its folder is another user's (uid 65534)"
            % os.path.join(other, "compile_commands.json")]
    while time.time() < end:
        with open(os.path.join(WORK, "server.log"), errors="replace") as f:
            log = f.read()
        if all(w in log for w in want):
            break
        time.sleep(0.05)
    else:
        fail("the server's log does not say why the databases were not used: %s" % log)
    if os.path.exists(marker):
        fail("another user's program ran: %s" % open(marker).read())
    s.proc.kill()


def many_names():
    """620 files of distinct names, each opened, analysed and closed: each
    analysis's temporary is released (there are 512 slots), and the server
    still serves."""
    folder = os.path.join(WORK, "many")
    os.makedirs(folder)
    text = "#include <q7/kernel.h>\nQ7_KERNEL int f(float *by) { return 0; }\n"
    names = ["n%04d.cpp" % i for i in range(620)]
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump([{"directory": folder, "file": n, "arguments": [
            os.path.join(STAGE, "bin", "q7cc-gnu"), "-c", n]} for n in names], f)
    s = Server(folder)
    s.initialize(folder)
    for n in names:
        path = os.path.join(folder, n)
        with open(path, "w") as f:
            f.write(text)
        s.open(path, text)
        s.diagnostics(path, lambda d: q7(d), "q7cc's findings in " + n)
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})
    if s.proc.poll() is not None:
        fail("q7cc-clangd ended")
    s.proc.kill()


def limits():
    """A request that is not UTF-8 gets an error answer (clangd would drop
    it, and the editor would wait for ever); a request of 200 MB (its id
    after the bulk) gets one too, without the relay holding it (its peak
    memory stays under the limit of 64 MiB); the server serves on."""
    path = write_project(WORK)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7(d), "q7cc's finding")
    body = (b'{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":'
            b'{"uri":"file:///k\xff.cpp"},"position":{"line":0,"character":0}}}')
    with s.lock:
        s.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        s.proc.stdin.flush()
    r = s.wait(lambda m: m.get("id") == 7, "the answer to a request that is not UTF-8")
    if r.get("error", {}).get("code") != -32700:
        fail("a request that is not UTF-8: %r" % r)
    head = b'{"jsonrpc":"2.0","method":"textDocument/hover","params":{"pad":"'
    tail = b'"},"id":8}'
    chunk, n = b"x" * (1 << 20), 200
    with s.lock:
        s.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % (len(head) + n * len(chunk) + len(tail))
                           + head)
        for _ in range(n):
            s.proc.stdin.write(chunk)
        s.proc.stdin.write(tail)
        s.proc.stdin.flush()
    r = s.wait(lambda m: m.get("id") == 8, "the answer to a request of 200 MB")
    if r.get("error", {}).get("code") != -32600 or "over" not in r["error"]["message"]:
        fail("a request of 200 MB: %r" % r)
    with open("/proc/%d/status" % s.proc.pid) as f:
        peak = [int(x.split()[1]) for x in f if x.startswith("VmHWM:")][0] // 1024
    if peak >= 64:
        fail("q7cc-clangd's peak memory is %d MiB after a message of 200 MB" % peak)
    hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                             "position": {"line": 3, "character": 26}})
    if "scale" not in json.dumps(hover.get("result")):
        fail("hover after the refused messages: %r" % hover)
    s.proc.kill()


def line_directives():
    """A #line that gives the kernel the number of another function's line:
    the finding, its quick fix, the hover and the code lens are on the
    lines the editor shows, and the fix edits the kernel, not the function
    on the line #line names."""
    path = write_project(WORK)
    text = ("#include <torch/torch.h>\n#include <q7/kernel.h>\nvoid helper(float *by) {}\n"
            "#line 3\n"
            "Q7_KERNEL torch::Tensor scale(const torch::Tensor &x, float *by)\n{ return x; }\n"
            "Q7_KERNEL torch::Tensor twice(const torch::Tensor &x, float by)\n{ return x; }\n")
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, text)
    diags = q7(s.diagnostics(path, lambda d: q7(d), "q7cc's finding"))
    if len(diags) != 1 or diags[0]["range"]["start"]["line"] != 4:
        fail("the finding is not on the kernel's line (4): %r" % diags)
    r = s.request("textDocument/codeAction", {
        "textDocument": {"uri": uri(path)},
        "range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}},
        "context": {"diagnostics": diags}})
    fixes = [a for a in r.get("result") or [] if a.get("title", "").startswith("q7cc:")]
    edits = [e for f in fixes for e in f["edit"]["changes"][uri(path)]]
    if len(edits) != 1 or edits[0]["range"]["start"]["line"] != 4:
        fail("the quick fix does not edit the kernel's line: %r" % fixes)
    line = text.split("\n")[6]
    hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                             "position": {"line": 6,
                                                          "character": line.index("twice")}})
    if "twice(Tensor x, float by) -> Tensor" not in json.dumps(hover):
        fail("hover on the kernel after #line: %r" % hover)
    lenses = s.request("textDocument/codeLens", {"textDocument": {"uri": uri(path)}})["result"]
    if [x["range"]["start"]["line"] for x in lenses] != [6]:
        fail("code lenses after #line: %r" % lenses)
    s.proc.kill()


def no_command():
    folder = os.path.join(WORK, "loose")
    path = write_project(folder, with_commands=False)
    s = Server(folder)
    s.initialize(folder)
    s.open(path, KERNEL)
    diags = s.diagnostics(path, lambda d: len(d) > 0, "clangd's diagnostics")
    if q7(diags):
        fail("q7cc analysed a file without a compile command: %r" % diags)
    # Nothing of q7cc's comes later either: the hover still answers.
    s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                     "position": {"line": 3, "character": 26}})
    if s.proc.poll() is not None:
        fail("q7cc-clangd ended")
    s.proc.kill()


def paths():
    """Each folder name, each spelling: the last diagnostics the editor
    keeps for the file (publishes compared as paths, as editors do) hold
    q7cc's finding and clangd's error together."""
    for name, spell in (("c++ ops", uri), ("donn\u00e9es 100%", uri_quoted),
                        ("x+y", uri_quoted)):
        folder = os.path.join(WORK, name)
        path = write_project(folder)
        link = os.path.join(WORK, "link-" + str(len(os.listdir(WORK))))
        os.symlink(folder, link)
        for opened in (path, os.path.join(link, "k.cpp")):
            s = Server(folder)
            s.initialize(folder)
            s.open(opened, KERNEL, spell=spell)
            u = spell(opened)
            s.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and same_file(m["params"]["uri"], u) and q7(m["params"]["diagnostics"])
                   and undeclared(m["params"]["diagnostics"]),
                   "q7cc's finding beside clangd's for %s spelled %s" % (opened, u))
            # Whatever comes later for the file keeps q7cc's finding.
            s.request("textDocument/hover", {"textDocument": {"uri": u},
                                             "position": {"line": 3, "character": 26}})
            while True:
                try:
                    m = s.msgs.get(timeout=0.2)
                except queue.Empty:
                    break
                if m and m.get("method") == "textDocument/publishDiagnostics" and \
                        same_file(m["params"]["uri"], u) and not q7(m["params"]["diagnostics"]):
                    fail("a later publish for %s lost q7cc's finding: %r" % (u, m))
            s.proc.kill()
            s.proc.wait()


def language_ids():
    path = write_project(WORK)
    c = os.path.join(WORK, "plain.c")
    ctext = "int f(void) { return nope; }\n"
    with open(c, "w") as f:
        f.write(ctext)
    for lang in ("c++", None, "cplusplus-made-up"):
        s = Server(WORK)
        s.initialize(WORK)
        s.open(path, KERNEL, lang=lang)
        diags = s.diagnostics(path, lambda d: q7(d), "q7cc's finding, languageId %r" % lang)
        check_q7_diag(diags, KERNEL)
        s.proc.kill()
        s.proc.wait()
    s = Server(WORK)
    s.initialize(WORK)
    s.open(c, ctext, lang="cpp")
    s.open(path, KERNEL, lang="c++")
    # Both files' publishes, in whichever order they come.
    seen = {}

    def both(m):
        if m.get("method") == "textDocument/publishDiagnostics":
            d = m["params"]["diagnostics"]
            if m["params"]["uri"] == uri(c) and undeclared(d):
                seen["c"] = d
            if m["params"]["uri"] == uri(path) and q7(d):
                seen["cpp"] = d
        return len(seen) == 2
    s.wait(both, "clangd's error in the C file and q7cc's finding in the C++ file")
    if q7(seen["c"]):
        fail("q7cc analysed a C file sent as cpp: %r" % seen["c"])
    s.proc.kill()


def q7_flags():
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "k.cpp")
    text = KERNEL + "int helper(int ignored) { return 0; }\n"
    header = os.path.join(WORK, "k.h")
    htext = ("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
             "Q7_KERNEL torch::Tensor twice(const torch::Tensor &x, float by);\n")
    loose = os.path.join(WORK, "new.cpp")
    for p, t in ((path, text), (header, htext), (loose, htext)):
        with open(p, "w") as f:
            f.write(t)
    cc = [{"directory": WORK, "file": "k.cpp",
           "arguments": [os.path.join(STAGE, "bin", "q7cc-gnu"), "--q7-multicore",
                         "--q7-kernel=scale", "-c", "k.cpp", "-o", "k.o"]}]
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump(cc, f)
    config = os.path.join(WORK, "xdg", "clangd")
    os.makedirs(config)
    with open(os.path.join(config, "config.yaml"), "w") as f:
        f.write("CompileFlags:\n  Add: [-Wunused-parameter]\n")
    os.environ["XDG_CONFIG_HOME"] = os.path.dirname(config)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, text)
    # The user's -Wunused-parameter (off by default) warns of `ignored`.
    diags = s.diagnostics(path, lambda d: q7(d) and undeclared(d) and
                          any("ignored" in x["message"] for x in d),
                          "q7cc's finding beside clangd's error and the user's warning")
    theirs = [d["message"] for d in diags if d.get("source") != "q7cc"]
    if any("q7-" in m or "unsupported" in m.lower() for m in theirs):
        fail("clangd saw q7cc's options: %r" % theirs)
    for p, t in ((header, htext), (loose, htext)):
        s.open(p, t)
        diags = s.diagnostics(p, lambda d: True, "clangd's diagnostics of " + p)
        if diags:
            fail("%s: %r" % (p, diags))
    s.proc.kill()


def q7_lines(diags):
    return sorted(d["range"]["start"]["line"] for d in q7(diags))


def typing():
    """A half-written signature: clangd's error on the line, and none of
    q7cc's beside it (one mistake, one finding); finishing the line brings
    the line's own back."""
    os.makedirs(WORK, exist_ok=True)
    path = write_project(WORK)
    half = KERNEL.replace("float *by)", "float *by, unsigne n)")
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, KERNEL)
    s.diagnostics(path, lambda d: q7_lines(d) == [3], "q7cc's finding on the kernel's line")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                        "contentChanges": [{"text": half}]})
    s.diagnostics(path, lambda d: any(x.get("source") != "q7cc" and x["severity"] == 1 and
                                      x["range"]["start"]["line"] == 3 for x in d),
                  "clangd's error on the half-written line")
    # The half-written text's analysis is done once its kernel (now none)
    # has left the lenses; its publish came before that answer.
    end = time.time() + TIMEOUT
    while s.request("textDocument/codeLens", {"textDocument": {"uri": uri(path)}})["result"]:
        if time.time() > end:
            fail("the half-written text's analysis never ended")
    last = [p for p in s.published if p["uri"] == uri(path)][-1]["diagnostics"]
    if q7(last) or not any(x["range"]["start"]["line"] == 3 for x in last):
        fail("beside clangd's error on the line, q7cc's: %r" % last)
    if any("''" in x["message"] for p in s.published for x in p["diagnostics"]):
        fail("a message with an empty name: %r" % s.published)
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 3},
                                        "contentChanges": [{"text": KERNEL}]})
    s.diagnostics(path, lambda d: q7_lines(d) == [3], "the finished line's own finding")
    s.proc.kill()


# Each fix of editor/fix.c's table on a line of its own, and the types
# that get none (or a fix that is not preferred): the fix applied, the
# result linted again, no q7cc finding left on its line.
FIXES = [("float *a,", "float a,", True), ("int &n,", "int n,", True),
         ("torch::Tensor &t,", "const torch::Tensor &t,", True),
         ("at::Scalar *s,", "at::Scalar s,", True), ("int64_t *w,", "int64_t w,", True),
         ("const float *c,", "const float c,", True), ("long long &l,", "long long l,", True),
         ("double *d)", "double d)", False)]
NO_FIX = ["unsigned &u,", "int8_t *p,", "float arr[4],", "const at::TensorOptions &o,",
          "std::array<float, 4> &arr2,", "float *by = nullptr)"]


def fixes():
    os.makedirs(WORK, exist_ok=True)
    path = write_project(WORK)
    head = ["#include <array>", "#include <cstdint>", "#include <torch/torch.h>",
            "#include <q7/kernel.h>", "Q7_KERNEL torch::Tensor good(const torch::Tensor &x,"]
    body = ["{", "\treturn x;", "}"]
    lines = head + [f[0] for f in FIXES] + body + ["Q7_KERNEL torch::Tensor bad("
                                                   "const torch::Tensor &x,"] + NO_FIX + body
    text = "\n".join(lines) + "\n"
    good = list(range(len(head), len(head) + len(FIXES)))
    bad = [lines.index(x) for x in NO_FIX]
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, text)
    diags = s.diagnostics(path, lambda d: q7(d), "q7cc's findings")
    if q7_lines(diags) != good + bad:
        fail("q7cc's findings on lines %r, expected %r: %r" % (q7_lines(diags), good + bad,
                                                               q7(diags)))
    for n in good + bad:
        r = s.request("textDocument/codeAction", {
            "textDocument": {"uri": uri(path)},
            "range": {"start": {"line": n, "character": 0}, "end": {"line": n, "character": 0}},
            "context": {"diagnostics": [d for d in q7(diags)
                                        if d["range"]["start"]["line"] == n]}})
        acts = [a for a in r.get("result") or [] if a.get("title", "").startswith("q7cc:")]
        if n in bad:
            if any(a.get("isPreferred") for a in acts) or acts:
                fail("line %d (%s): a fix offered: %r" % (n, lines[n], acts))
            continue
        want, preferred = FIXES[n - len(head)][1:]
        if len(acts) != 1 or acts[0].get("isPreferred", False) != preferred:
            fail("line %d (%s): %r" % (n, lines[n], acts))
        (edit,) = acts[0]["edit"]["changes"][uri(path)]
        rg = edit["range"]
        if rg["start"]["line"] != n or rg["end"]["line"] != n:
            fail("line %d: an edit of another line: %r" % (n, edit))
        line = lines[n]
        fixed = line[:rg["start"]["character"]] + edit["newText"] + line[rg["end"]["character"]:]
        if fixed != want:
            fail("line %d: the fix gives %r, expected %r" % (n, fixed, want))
        lines[n] = fixed
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                        "contentChanges": [{"text": "\n".join(lines) + "\n"}]})
    seen = []
    s.diagnostics(path, lambda d: seen.append(q7(d)) or q7_lines(d) == bad,
                  "after the fixes, q7cc's findings on the lines without a fix only")
    s.proc.kill()


def library():
    """A compile command of a CMake target (-o CMakeFiles/myops.dir/...):
    hover and the lens name the op torch.ops.myops.scale; without one,
    torch.ops.<library>.scale."""
    path = write_project(WORK)
    fixed = KERNEL.replace("*by", "by")
    for out, ns in (("CMakeFiles/myops.dir/k.cpp.o", "myops"), ("k.o", "<library>")):
        with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
            json.dump([{"directory": WORK, "file": "k.cpp",
                        "arguments": [os.path.join(STAGE, "bin", "q7cc-gnu"), "-c", "k.cpp",
                                      "-o", out]}], f)
        s = Server(WORK)
        s.initialize(WORK)
        s.open(path, fixed)
        want = "torch.ops.%s.scale" % ns
        hover = s.request("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                                 "position": {"line": 3, "character": 26}})
        if want not in json.dumps(hover):
            fail("hover does not name %s: %r" % (want, hover))
        lenses = s.request("textDocument/codeLens", {"textDocument": {"uri": uri(path)}})
        if want not in json.dumps(lenses):
            fail("the lens does not name %s: %r" % (want, lenses))
        s.proc.kill()
        s.proc.wait()


def duplicate():
    """Two kernels of one name: the finding names the file the editor
    has (not q7cc's temporary copy) and points at the other one with
    relatedInformation."""
    path = write_project(WORK)
    text = ("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
            "namespace a { Q7_KERNEL torch::Tensor scale(const torch::Tensor &x) { return x; } }\n"
            "namespace b { Q7_KERNEL torch::Tensor scale(const torch::Tensor &x) { return x; } }\n")
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, text)
    diags = s.diagnostics(path, lambda d: q7(d), "the duplicate kernel's finding")
    (d,) = q7(diags)
    if d["code"] != "q7-duplicate-kernel" or d["range"]["start"]["line"] != 3:
        fail("the finding: %r" % d)
    if path + ":3" not in d["message"] or "/tmp" in d["message"].replace(WORK, ""):
        fail("the message names another file than %s: %r" % (path, d["message"]))
    rel = d.get("relatedInformation") or []
    if len(rel) != 1 or rel[0]["location"]["uri"] != uri(path) or \
            rel[0]["location"]["range"]["start"] != {"line": 2, "character": 38}:
        fail("relatedInformation: %r" % rel)
    s.proc.kill()


def header_save():
    """A header saved (didSave) re-checks the open file that includes it:
    the kernel's parameter type comes from the header, and the finding
    goes once the saved header makes it a float; a file that does not
    include it is not analysed again."""
    path = write_project(WORK)
    header = os.path.join(WORK, "by.h")
    with open(header, "w") as f:
        f.write("#define BY_TYPE float *\n")
    text = KERNEL.replace('#include <q7/kernel.h>\n', '#include <q7/kernel.h>\n#include "by.h"\n')
    text = text.replace("float *by", "BY_TYPE by")
    other = os.path.join(WORK, "other.cpp")
    with open(os.path.join(WORK, "compile_commands.json")) as f:
        cc = json.load(f)
    cc.append(dict(cc[0], file="other.cpp", arguments=cc[0]["arguments"][:-3] + ["other.cpp"]))
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump(cc, f)
    env, runs = logged_prefix()
    s = Server(WORK, env=env)
    s.initialize(WORK)
    s.open(path, text)
    s.open(header, "#define BY_TYPE float *\n")
    s.diagnostics(path, lambda d: q7_lines(d) == [4], "the finding of the header's type")
    s.open(other, KERNEL)
    s.diagnostics(other, lambda d: q7(d), "other.cpp's finding")
    before = len([x for x in lint_runs(runs) if "other.cpp" in x])
    with open(header, "w") as f:
        f.write("#define BY_TYPE float\n")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(header), "version": 2},
                                        "contentChanges": [{"text": "#define BY_TYPE float\n"}]})
    s.notify("textDocument/didSave", {"textDocument": {"uri": uri(header)}})
    s.diagnostics(path, lambda d: not q7(d), "the includer's finding gone after the save")
    s.request("textDocument/hover", {"textDocument": {"uri": uri(other)},
                                     "position": {"line": 3, "character": 26}})
    if len([x for x in lint_runs(runs) if "other.cpp" in x]) != before:
        fail("a file that does not include the header was analysed again")
    s.proc.kill()


def vendor():
    """The vendor flow (docs/editors.md, "What is checked live"): shape.cpp's
    NEURON_LIBRARY m.def names a compute function; relu.cpp, of the same
    CMake target in the compile database, defines relu_forward. A typo in
    the name is a q7-undefined-kernel finding at the m.def while typing;
    the right name none; a source of another target does not count."""
    os.makedirs(WORK, exist_ok=True)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    shutil.copy(os.path.join(root, "examples", "neuron_sample", "relu.cpp"), WORK)
    shutil.copy(os.path.join(root, "examples", "neuron_sample", "relu.cpp"),
                os.path.join(WORK, "elsewhere.cpp"))
    with open(os.path.join(WORK, "elsewhere.cpp"), "a") as f:
        f.write("torch::Tensor other_forward(const torch::Tensor &t) { return t; }\n")
    text = ('#include <torch/torch.h>\n#include "torchneuron/register.h"\n'
            "torch::Tensor shape_fn(torch::Tensor x) { return x; }\n"
            "NEURON_LIBRARY(my_ops, m)\n{\n"
            '    m.def("relu", &shape_fn, "relu_forwrd");\n'
            '    m.def("other", &shape_fn, "other_forward");\n}\n')
    path = os.path.join(WORK, "shape.cpp")
    with open(path, "w") as f:
        f.write(text)
    gnu = os.path.join(STAGE, "bin", "q7cc-gnu")
    cc = [{"directory": WORK, "file": f, "arguments": [gnu, "-c", f, "-o", "CMakeFiles/%s.dir/%s.o"
                                                        % (t, f)]}
          for f, t in (("relu.cpp", "my_ops"), ("shape.cpp", "my_ops"),
                       ("elsewhere.cpp", "other_ops"))]
    with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
        json.dump(cc, f)
    s = Server(WORK)
    s.initialize(WORK)
    s.open(path, text)
    diags = s.diagnostics(path, lambda d: len(q7(d)) == 2, "the two m.defs' findings")
    for d, line, name in zip(sorted(q7(diags), key=lambda d: d["range"]["start"]["line"]),
                             (5, 6), ("relu_forwrd", "other_forward")):
        src = text.split("\n")[line]
        at = src.index(name)
        if d["code"] != "q7-undefined-kernel" or d["range"]["start"]["line"] != line or \
                name not in d["message"] or "my_ops" not in d["message"] or \
                (d["range"]["start"]["character"], d["range"]["end"]["character"]) != \
                (at, at + len(name)):
            fail("the m.def's finding: %r" % d)
    fixed = text.replace("relu_forwrd", "relu_forward")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2},
                                        "contentChanges": [{"text": fixed}]})
    s.diagnostics(path, lambda d: q7_lines(d) == [6], "the fixed m.def's finding gone")
    # other_forward now defined in relu.cpp, saved: the last finding goes.
    with open(os.path.join(WORK, "relu.cpp"), "a") as f:
        f.write("torch::Tensor other_forward(const torch::Tensor &t) { return t; }\n")
    s.notify("textDocument/didSave", {"textDocument": {"uri": uri(os.path.join(WORK, "relu.cpp"))}})
    s.diagnostics(path, lambda d: not q7(d), "no finding once relu.cpp defines other_forward")
    s.proc.kill()


if __name__ == "__main__":
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    os.environ["XDG_CACHE_HOME"] = os.path.join(WORK, "cache")
    {"protocol": protocol, "encoding": encoding, "stuck": stuck, "no_clangd": no_clangd,
     "crash": crash, "gone": gone, "not_cxx": not_cxx,
     "no_command": no_command, "hostile": hostile, "foreign_db": foreign_db,
     "many_names": many_names, "limits": limits,
     "line_directives": line_directives, "paths": paths, "language_ids": language_ids,
     "q7_flags": q7_flags, "typing": typing, "fixes": fixes,
     "library": library, "duplicate": duplicate, "header_save": header_save,
     "odd_shapes": odd_shapes, "vendor": vendor}[SCENARIO]()
    print("ok: " + SCENARIO)
