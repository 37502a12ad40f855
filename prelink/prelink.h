/* prelink: q7-prelink. Takes a device image (inside a .packed.so, or a
 * plain linked/stripped image), checks it, places its PT_LOAD segments at a
 * base address (a core's SRAM window, or any address), applies its dynamic
 * relocations and emits a loadable image: a fixed header, then the bytes to
 * copy to the base. The format is a contract with the boot program
 * (runtime/include/q7/prelinked.h); docs/emulated.md describes it.
 *
 * Memory: a struct q7_prelinked owns its bytes; q7_prelinked_free frees
 * them. */
#ifndef Q7_PRELINK_H
#define Q7_PRELINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "q7/prelinked.h" /* the format: header, magic, flags, the check */

struct q7_prelink_opts {
	const char *symbol; /* -e: the image's symbol in a packed object */
	int core;           /* 0..7 or -1 (single): window and flags */
	bool have_base;     /* --base: place at base instead of the window */
	uint32_t base;
};

struct q7_prelinked {
	struct q7_pl_header hdr;
	unsigned char *bytes; /* header + load bytes, as written to a file */
	size_t size;
};

/* Errors: the functions below return 0, or 1 after setting err's message
 * to "<file>: <reason>" (support.h's carrier; a buffer of Q7_PL_ERR_SIZE
 * holds any); the command line prints it, q7-run reports it. */
#define Q7_PL_ERR_SIZE 512
struct q7_err;

/* Prelinks the file at path (a .packed.so or a plain Xtensa image). */
int q7_prelink_file(const struct q7_prelink_opts *opts, const char *path,
                    struct q7_prelinked *out, struct q7_err *err);
/* The same on an input already in memory (tests, fuzzing); name is used
 * in messages. */
int q7_prelink_memory(const struct q7_prelink_opts *opts, const void *buf, size_t size,
                      const char *name, struct q7_prelinked *out, struct q7_err *err);
void q7_prelinked_free(struct q7_prelinked *pl);

/* After q7_prelinked_check, on the host: a header that says it was placed
 * at a window (core or single-core) must sit at that window and fit it
 * (lsp/'s table). 0, or 1 with the reason in *why. */
int q7_prelinked_check_window(const struct q7_pl_header *hdr, const char **why);

/* The q7-prelink command line. */
int q7_prelink_main(int argc, char **argv);

#endif
