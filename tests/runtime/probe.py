"""e2e.runtime.host_probe: the host library check's probe (docs/runtime.md,
"The run engine"; run/host_elf.c). A library that the check's reads pass
but whose loading faults is refused naming the file, "damaged host
library: loading it in a child process failed ...", status 1 and no
output, in every mode (isolated, the default; --in-process, which would
otherwise die inside dlopen). Two such libraries: q7cc's ReLU with its
GNU hash table moved outside the image (the loader reads it unchecked),
and a library whose constructor faults. A library whose constructor
ends the process with status 0 is refused too ("..., before the load
returned"): the probe's child reports its dlopen through a pipe, not its
status (else --in-process exited 0 silently). That constructor first
starts a child that never ends, holding a pipe of this script's (fd 3):
the probe's process group ends with it, so the pipe reaches its end. The ReLU as built is the
control: it lists its op. Last, the probe in a multithreaded caller:
PROBE_THREADS checks the ReLU 100 times through q7_host_elf_check, the
prefix PREFIX (q7cc's stage), while three threads load and unload a
library in a loop; every check passes, as the probe runs in PREFIX's
q7-run (a fork of that caller hung in 11 of 300 loads and refused the
library after 10 s).

  probe.py Q7CC Q7RUN RELU.cpp WORK PROBE_THREADS PREFIX
"""
import os
import re
import select
import shutil
import struct
import subprocess
import sys

DT_GNU_HASH = 0x6ffffef5
PT_DYNAMIC = 2
THREADED_CHECKS = 100
BOOM_C = ("int q7_entry(void *frame) { return frame != 0; }\n"
          "__attribute__((constructor)) static void boom(void) { *(volatile int *)0 = 1; }\n")
QUIT_C = ("#include <stdlib.h>\n"
          "#include <unistd.h>\n"
          "int q7_entry(void *frame) { return frame != 0; }\n"
          "__attribute__((constructor)) static void quit(void) {\n"
          "  if (fork() == 0) for (;;) pause();\n"
          "  exit(0);\n"
          "}\n")


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def move_gnu_hash(src, dst):
    """src with its DT_GNU_HASH entry aimed far outside the image, as dst."""
    d = bytearray(open(src, "rb").read())
    phoff, = struct.unpack_from("<Q", d, 32)
    phentsize, phnum = struct.unpack_from("<HH", d, 54)
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", d, phoff + i * phentsize)
        for e in range(off, off + filesz, 16) if ptype == PT_DYNAMIC else ():
            if struct.unpack_from("<q", d, e)[0] == DT_GNU_HASH:
                struct.pack_into("<Q", d, e + 8, 0x7ff000000000)
                open(dst, "wb").write(d)
                return
    fail("no DT_GNU_HASH in " + src)


def main():
    q7cc, q7run, relu, work, threads, prefix = sys.argv[1:7]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    env = {k: v for k, v in os.environ.items()
           if k not in ("Q7_TOOLCHAIN", "Q7CC_REAL_CXX", "Q7CC_ACTIVE", "Q7CC_UNCHECKED")}
    r = subprocess.run([q7cc, "--q7-toolchain=host", "-shared", relu, "-o", "librelu.so"],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail("build librelu.so: " + r.stderr)
    move_gnu_hash("librelu.so", "libhash.so")
    open("boom.c", "w").write(BOOM_C)
    open("quit.c", "w").write(QUIT_C)
    for name in ("boom", "quit"):
        if run(["cc", "-shared", "-fPIC", "-o", "lib%s.so" % name, name + ".c"])[0] != 0:
            fail("cc %s.c" % name)
    for mode in ([], ["--in-process"]):
        rc, out, err = run([q7run] + mode + ["--list", "librelu.so"])
        if rc != 0 or "relu_forward" not in out:
            fail("%s control: status %d: %s%s" % (mode, rc, out, err))
        for lib in ("libhash.so", "libboom.so"):
            rc, out, err = run([q7run] + mode + ["--list", lib])
            want = (r"^q7-run: error: %s: damaged host library: loading it in a child process "
                    r"failed \(the loader, or a constructor\): .*SIG(SEGV|BUS)" % re.escape(lib))
            if rc != 1 or out or not re.search(want, err, re.M):
                fail("%s %s: status %d: %s%s" % (mode, lib, rc, out, err))
        rd, wr = os.pipe()
        r = subprocess.run([q7run] + mode + ["--list", "libquit.so"], capture_output=True,
                           text=True, pass_fds=(wr,))
        rc, out, err = r.returncode, r.stdout, r.stderr
        os.close(wr)
        # a guard against a hang, not a measure: the end comes at once
        if not select.select([rd], [], [], 60)[0] or os.read(rd, 1) != b"":
            fail("%s libquit.so: its constructor's child outlived q7-run" % mode)
        os.close(rd)
        want = (r"^q7-run: error: libquit.so: damaged host library: loading it in a child process "
                r"failed \(the loader, or a constructor\): exit status 0, before the load returned$")
        if rc != 1 or out or not re.search(want, err, re.M):
            fail("%s libquit.so: status %d: %s%s" % (mode, rc, out, err))
    # Three threads loading libidle.so in a loop while the ReLU is checked
    # (probe_threads.c): every check passes.
    open("idle.c", "w").write("int idle;\n")
    if run(["cc", "-shared", "-fPIC", "-o", "libidle.so", "idle.c"])[0] != 0:
        fail("cc idle.c")
    rc, out, err = run([threads, "./librelu.so", "./libidle.so", str(THREADED_CHECKS), prefix])
    if rc != 0:
        fail("checks beside three loading threads: status %d: %s%s" % (rc, out, err))
    print("ok: probe")


if __name__ == "__main__":
    main()
