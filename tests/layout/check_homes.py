#!/usr/bin/env python3
"""unit.layout_homes: each fact that several sides share is written in one
place (README, "Layout"), and a second copy fails here, naming the file,
the line and the home it should use:

  schema     the schema grammar is model/schema.c's (q7_schema_parse): no
             other C or C++ function with "schema" in its name scans for
             '(' ',' ')' itself, and no Python function that handles a
             schema splits or searches one on those characters (the bridge
             hands Python torch's own parse);
  bytes      a tensor's byte count, checked against overflow, is
             model/tensor_bytes.c's and a dtype's size <q7/frame.h>'s (the
             device's boot program and runtime read it too): no other
             function is named for them (dtype_size, desc_bytes, ...);
  options    option spellings are model/options.c's table: no other array
             lists three or more of its options' names;
  writes     the loop that writes a whole buffer is support/fdio.c's
             q7_write_all: no other function calls write(), send() or
             pwrite() and goes again after EINTR, but those in WRITE_LOOPS,
             each for a reason;
  manifest   the multicore manifest's codec is model/manifest.c's: its
             first line is spelled nowhere else;
  limits     the call time-out and the cores' stacks are model/call_limits.h's.

NOT_COPIES lists the functions a rule names that are none, each with
its reason.

Production code is every C, C++ and Python file but tests/, bench/,
fuzz/ and examples/.

Usage: check_homes.py ROOT         check the tree
       check_homes.py --self-test  check that a second copy of each is caught"""
import os
import re

from tree import expect, main, made_tree, report

NOT_PRODUCTION = ("tests", "bench", "fuzz", "examples", "build", "docs", "cmake", "scripts")
C_SOURCES = (".c", ".h", ".cpp", ".hpp")
SCHEMA_HOME = "model/schema.c"
BYTES_HOME = "model/tensor_bytes.c"
OPTIONS_HOME = "model/options.c"
WRITE_HOME = "support/fdio.c"
MANIFEST_HOME = "model/manifest.h"
LIMITS_HOME = "model/call_limits.h"
DTYPE_HOME = "runtime/include/q7/frame.h"
# Functions that write in a loop of their own, each for a reason.
WRITE_LOOPS = {
    # a non-blocking queue: writes what the peer takes now and keeps the
    # rest for the next poll (q7_write_all would wait for all of it)
    ("editor/rpc.c", "q7_rpc_flush"),
}
# Functions a rule would name that are no second copy, each for a reason.
NOT_COPIES = {
    # the device runtime reads the schema the wrapper embeds, on the core:
    # runtime/src stands alone (runtime/include only), and takes the
    # types it marshals, not the grammar's errors
    ("runtime/src/entry.cpp", "parse_schema"),
    # the device runtime's C API for kernels (<q7/runtime.h>), which
    # returns <q7/frame.h>'s q7_dtype_size
    ("runtime/src/tensor.cpp", "q7rt_dtype_size"),
}
BYTES_NAMES = re.compile(r"(dtype_size|dtype_bytes|desc_bytes|tensor_bytes|arg_bytes|"
                         r"tensor_span|elem(ent)?_size)")
SCHEMA_SCAN = re.compile(r"'[(),]'")
PY_SCHEMA_SCAN = re.compile(r"\.(r?split|r?index|r?find|r?partition)\(\s*['\"][(),]['\"]")
WRITES = re.compile(r"(?<![\w.>])(write|send|pwrite)\s*\(")
LIMITS = re.compile(r"#\s*define\s+(\w*(?:CORE_STACK|ALT_STACK|DEFAULT_TIMEOUT)\w*)")
DEFINITION = re.compile(r"^[A-Za-z_][\w \*:&<>,]*?\b(\w+)\([^;]*$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
ARRAY = re.compile(r"(\w+)\s*\[\w*\]\s*=\s*\{(.*?)\};", re.S)


def production(root):
    """The production files, as paths relative to root."""
    for top in sorted(os.listdir(root)):
        if top in NOT_PRODUCTION or top.startswith((".", "build")) or not os.path.isdir(os.path.join(root, top)):
            continue
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(C_SOURCES + (".py", ".py.in")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def blank(pattern, text, keep=None):
    """text with pattern's matches blanked (lines kept); keep(m) may
    return another replacement."""
    return pattern.sub(lambda m: keep(m) if keep else re.sub(r"[^\n]", " ", m.group(0)), text)


def functions(text):
    """(line number, function name, line, whether a definition starts
    there) of a C file's lines, the name that of the last definition above
    (None at file scope). A definition is a name and '(' at the start of
    a line whose next '{' comes before any ';' (a prototype over several
    lines is none)."""
    function = None
    at = 0
    for no, line in enumerate(text.split("\n"), 1):
        m = DEFINITION.match(line)
        rest = text[at:]
        starts = bool(m) and rest.find("{") >= 0 and (rest.find(";") < 0 or
                                                       rest.find("{") < rest.find(";"))
        if starts:
            function = m.group(1)
        at += len(line) + 1
        yield no, function, line, starts


def option_names(root):
    """The driver table's option names (model/options.c's rows)."""
    path = os.path.join(root, OPTIONS_HOME)
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'^\s*\{"(-[^"]+)",', f.read(), re.M))


def check_c(name, text, options):
    bad = []
    code = blank(COMMENT, text)
    bare = blank(STRING, code, lambda m: '"' + " " * (len(m.group(0)) - 2) + '"')
    for no, fn, line, starts in functions(bare):
        if (name, fn) in NOT_COPIES:
            continue
        if fn and "schema" in fn.lower() and name != SCHEMA_HOME and SCHEMA_SCAN.search(line):
            bad.append(f"{name}:{no}: {fn} scans a schema's text: parse it with "
                       f"q7_schema_parse ({SCHEMA_HOME})")
        if starts and BYTES_NAMES.search(fn) and name not in (BYTES_HOME, DTYPE_HOME):
            bad.append(f"{name}:{no}: {fn} counts a tensor's bytes: use {BYTES_HOME} "
                       f"(q7_tensor_bytes, q7_dtype_size)")
        if WRITES.search(line) and name != WRITE_HOME and (name, fn) not in WRITE_LOOPS:
            if "EINTR" in function_text(bare, fn):
                bad.append(f"{name}:{no}: {fn} writes in a loop of its own: use q7_write_all "
                           f"({WRITE_HOME})")
        m = LIMITS.search(line)
        if m and name != LIMITS_HOME:
            bad.append(f"{name}:{no}: {m.group(1)}: the call limits are {LIMITS_HOME}'s")
    if name != WRITE_HOME:
        bad += write_loops_by_helper(name, bare)
    if name != OPTIONS_HOME:
        for m in ARRAY.finditer(code):
            spelled = set(re.findall(r'"(-[^"]*)"', m.group(2))) & options
            # a table is matched against (an argv the driver builds is
            # added, not compared)
            compared = re.search(r"\b\w*(?:cmp|has)\w*\s*\([^;]*\b%s\b" % m.group(1), code)
            if len(spelled) >= 3 and compared:
                no = code.count("\n", 0, m.start()) + 1
                bad.append(f"{name}:{no}: an array of option spellings "
                           f"({', '.join(sorted(spelled)[:3])}, ...): read them from "
                           f"{OPTIONS_HOME}'s table (q7_option_find)")
    if name not in (MANIFEST_HOME, MANIFEST_HOME[:-1] + "c") and "q7cc-multicore" in code:
        no = code.count("\n", 0, code.index("q7cc-multicore")) + 1
        bad.append(f"{name}:{no}: the manifest's first line: use {MANIFEST_HOME} "
                   f"(Q7_MANIFEST_MAGIC, q7_manifest_read)")
    return bad


def write_loops_by_helper(name, text):
    """Functions that go again after EINTR around a helper of the file
    that writes (a send() or write() wrapped in a function of its own)."""
    bodies = {}
    for no, fn, line, _ in functions(text):
        if fn:
            bodies.setdefault(fn, []).append((no, line))
    writers = {fn for fn, lines in bodies.items() if any(WRITES.search(l) for _, l in lines)}
    bad = []
    for fn, lines in bodies.items():
        if fn in writers or (name, fn) in WRITE_LOOPS or "EINTR" not in "\n".join(l for _, l in lines):
            continue
        for k, (no, line) in enumerate(lines):
            called = [w for w in writers if w != fn and re.search(r"\b%s\s*\(" % w, line)]
            # again after EINTR: said within the lines that follow the call
            if called and any("EINTR" in l for _, l in lines[k:k + 3]):
                bad.append(f"{name}:{no}: {fn} writes in a loop of its own (by {called[0]}): "
                           f"use q7_write_all ({WRITE_HOME})")
    return bad


def function_text(text, fn):
    """The lines of text that belong to function fn (by functions())."""
    return "\n".join(line for _, f, line, _ in functions(text) if f == fn)


def check_py(name, text):
    bad = []
    function, body = None, []
    lines = text.split("\n") + ["def _end():"]
    for no, line in enumerate(lines, 1):
        m = re.match(r"\s*def (\w+)", line)
        if m:
            if function and "schema" in "\n".join(body):
                for at, l in body_lines:
                    if PY_SCHEMA_SCAN.search(l):
                        bad.append(f"{name}:{at}: {function} splits a schema's text: ask q7cc "
                                   f"or the bridge for its parts ({SCHEMA_HOME} is the grammar)")
            function, body, body_lines = m.group(1), [], []
        if function:
            body.append(line)
            body_lines.append((no, line))
        if "q7cc-multicore" in line:
            bad.append(f"{name}:{no}: the manifest's first line: use {MANIFEST_HOME}")
    return bad


def homes(root):
    options = option_names(root)
    bad = []
    for name in production(root):
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if name.endswith(C_SOURCES):
            bad += check_c(name, text, options)
        else:
            bad += check_py(name, text)
    return bad


def check(root):
    return report(homes(root), "second copies of a shared fact")


def self_test():
    """One second copy of each fact must be caught; the homes, a
    declaration, a comment naming one, a one-shot write and the allowed
    loop must not."""
    files = {
        OPTIONS_HOME: 'static const struct q7_option driver[] = {\n\t{"-MF", 0, 0},\n'
                      '\t{"-MJ", 0, 0},\n\t{"-o", 0, 0},\n\t{"-x", 0, 0},\n};\n',
        "editor/lintcmd.c": 'static const char *const dropped[] = {\n\t"-MF", "-o",\n\t"-x",\n};\n'
                            'static const char *const two[] = {"-MF", "-o"};\n'
                            'static bool f(const char *a, size_t d)\n{\n'
                            '\treturn strcmp(a, dropped[d]) == 0 || strcmp(a, two[d]) == 0;\n}\n',
        "wrapper/sysinfo.c": 'static const char *const inc[] = {"-MF", "-o", "-x"};\n'
                             'static void g(void)\n{\n\tq7_sv_add(&a, inc[0]);\n}\n',
        "run/result.c": "/* q7_run_schema_arg splits on ',' no more */\n"
                        "void q7_run_schema_arg(const char *s)\n{\n\tmemchr(s, ',', 9);\n}\n",
        SCHEMA_HOME: "static void next(struct parser *ps)\n{\n\tif (*p == ',')\n\t\treturn;\n}\n",
        "run/emu_session.c": "size_t q7_emu_desc_bytes(const struct q7_tensor_desc *t)\n{\n"
                            "\treturn 0;\n}\n",
        "run/result.h": "bool q7_tensor_bytes(const struct q7_tensor_desc *t);\n"
                        "size_t q7_tensor_span(const struct q7_tensor_desc *t,\n"
                        "                      int more);\nstruct s {\n\tint a;\n};\n",
        BYTES_HOME: "bool q7_tensor_bytes(const struct q7_tensor_desc *t)\n{\n\treturn 0;\n}\n",
        DTYPE_HOME: "static inline uint32_t q7_dtype_size(uint32_t d)\n{\n\treturn 0;\n}\n",
        "runtime/boot/boot.c": "static uint32_t dtype_size(uint32_t d)\n{\n\treturn 0;\n}\n",
        "runtime/src/entry.cpp": "int parse_schema(const char *s)\n{\n\treturn *s == ',';\n}\n",
        "wrapper/outset.c": "static bool write_all(int fd)\n{\n\twhile (n) {\n"
                            "\t\tssize_t w = write(fd, b, n);\n\t\tif (errno == EINTR)\n"
                            "\t\t\tcontinue;\n\t}\n}\n",
        "run/host.c": "static void say(void)\n{\n\twrite(2, line, n);\n}\n"
                      "#define CORE_STACK (256u << 10)\n",
        "analysis/wire.c": "static ssize_t put_some(int fd)\n{\n\treturn send(fd, p, n, 0);\n}\n\n"
                           "int q7_wire_write_all(int fd)\n{\n\twhile (n) {\n"
                           "\t\tssize_t w = put_some(fd);\n\t\tif (errno == EINTR)\n"
                           "\t\t\tcontinue;\n\t}\n}\n",
        "editor/rpc.c": "bool q7_rpc_flush(struct o *o)\n{\n\twrite(o->fd, p, n);\n"
                        "\tif (errno == EINTR)\n\t\treturn 0;\n}\n",
        WRITE_HOME: "int q7_write_all(int fd)\n{\n\twrite(fd, p, n);\n\tif (errno == EINTR)\n"
                    "\t\treturn 0;\n}\n",
        LIMITS_HOME: "#define Q7_CORE_STACK (256u << 10)\n",
        MANIFEST_HOME: '#define Q7_MANIFEST_MAGIC "q7cc-multicore 1"\n',
        "run/run_image.c": 'static const char magic[] = "q7cc-multicore 1";\n',
        "python/q7cc/torch/_build.py": 'def _arg_types(schema):\n'
                                       '    return schema[schema.index("(") + 1:].split(",")\n\n\n'
                                       'def other(text):\n    return text.split(",")\n',
        "tests/run/check.c": "void q7_run_schema_arg(const char *s)\n{\n\tmemchr(s, ',', 9);\n}\n",
    }
    with made_tree(files) as root:
        bad = homes(root)
    got = sorted(b.split(": ", 1)[0] for b in bad)
    want = ["analysis/wire.c:9", "editor/lintcmd.c:1", "python/q7cc/torch/_build.py:2", "run/emu_session.c:1",
            "run/host.c:5", "run/result.c:4", "run/run_image.c:1", "runtime/boot/boot.c:1",
            "wrapper/outset.c:4"]
    return expect(got, want)


if __name__ == "__main__":
    main(check, self_test)
