/* run/host_elf: a host kernel library checked before dlopen, by the host
 * target and by anyone else who loads one (the bridge's shape library).
 * The dynamic loader trusts what it maps: a segment past the file's end,
 * a dynamic entry pointing outside the image, a hash table with no
 * buckets or a relocation aimed outside the image makes it fault (or
 * fail one of its assertions) inside dlopen, which no caller can turn
 * into a message. */
#ifndef Q7_RUN_HOST_ELF_H
#define Q7_RUN_HOST_ELF_H

#include <elf.h>

/* The host's machine, the one whose libraries the check reads (and the
 * host target's, target_host.c), and its one relocation that writes 16
 * bytes. */
#if defined(__x86_64__)
#define Q7_HOST_MACHINE EM_X86_64
#define Q7_HOST_MACHINE_NAME "x86-64"
#define Q7_HOST_WIDE_RELOC R_X86_64_TLSDESC
#elif defined(__aarch64__)
#define Q7_HOST_MACHINE EM_AARCH64
#define Q7_HOST_MACHINE_NAME "AArch64"
#define Q7_HOST_WIDE_RELOC R_AARCH64_TLSDESC
#else
#error "the host library check knows x86-64 and AArch64"
#endif

struct q7_err;
struct q7_strvec;

/* Reads path with libelf, then a child dlopens it (q7-run --q7-probe,
 * else a fork): what each refuses, docs/runtime.md, "The run engine". 0,
 * or -1 with "<path>: damaged host library: <what>" (or "cannot read")
 * in err. */
int q7_host_elf_check(const char *path, struct q7_err *err);
/* The same check of a kernel library, which also defines q7_entry: one
 * without it was linked with no kernel marked, and err says so, naming
 * the functions that look like kernels (docs/driver.md, "Shared
 * libraries without kernels"). */
int q7_host_elf_check_kernels(const char *path, struct q7_err *err);
/* The same check; then the sanitizer runtimes path needs (DT_NEEDED
 * names with "asan" or "ubsan": libasan.so.8, libubsan.so.1,
 * libclang_rt.asan-x86_64.so, ...), in the order it needs them (the
 * compilers name the address sanitizer's first), added to *runtimes. 0,
 * or -1 with err set as q7_host_elf_check's. */
int q7_host_elf_sanitizers(const char *path, struct q7_strvec *runtimes, struct q7_err *err);

/* The probe's child: dlopens p (a path with a slash), writes to fd
 * whether that returned a handle, and exits. Never returns. */
__attribute__((noreturn)) void q7_host_elf_probe(const char *p, int fd);

#endif
