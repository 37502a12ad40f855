/* prelink: q7-prelink. Takes a device image (inside a .packed.so, or a
 * plain linked/stripped image), checks it, places its PT_LOAD segments at a
 * base address (a core's SRAM window, or any address), applies its dynamic
 * relocations and emits a loadable image: a fixed header, then the bytes to
 * copy to the base. docs/emulated.md describes the format.
 *
 * Memory: a struct q7_prelinked owns its bytes; q7_prelinked_free frees
 * them. */
#ifndef Q7_PRELINK_H
#define Q7_PRELINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "q7/xtensa.h" /* Q7_NUM_CORES: a header's core is 0..7, or -1 */

/* The loadable image's header. All fields little-endian, 64 bytes. The
 * load bytes follow it in the file; the loader copies them to base and
 * zeroes bss_size bytes after them. */
#define Q7_PL_MAGIC 0x4c503751u /* "Q7PL" */
#define Q7_PL_VERSION 1u
#define Q7_PL_HEADER_SIZE 64u
#define Q7_PL_HEADER_CRC_SPAN 44u /* header_crc covers the bytes before it */
#define Q7_PL_BASE_ALIGN 16u /* a power of two; base - link_base: keeps literal, data and stack alignment */

/* flags */
#define Q7_PL_F_CORE 0x1u   /* placed at core `core`'s window (0..7) */
#define Q7_PL_F_SINGLE 0x2u /* placed at the single-core window */
#define Q7_PL_F_BASE 0x4u   /* placed at a base the caller chose */

struct q7_pl_header {
	uint32_t magic;       /* Q7_PL_MAGIC */
	uint16_t version;     /* Q7_PL_VERSION */
	uint16_t header_size; /* Q7_PL_HEADER_SIZE: where the load bytes start */
	uint32_t base;        /* address of the first load byte */
	uint32_t load_size;   /* bytes that follow the header */
	uint32_t bss_size;    /* zero bytes after them */
	uint32_t entry;       /* int entry(struct q7_frame *), relocated */
	uint32_t flags;       /* Q7_PL_F_* */
	uint32_t checksum;    /* CRC-32 (IEEE) of the load bytes */
	uint32_t link_base;   /* where the image was linked (lowest PT_LOAD) */
	uint32_t nrelocs;     /* relocations applied */
	int32_t core;         /* 0..7, or -1 */
	uint32_t header_crc;  /* CRC-32 of the 44 bytes before this field */
	uint32_t reserved[4]; /* zero */
};
_Static_assert(sizeof(struct q7_pl_header) == Q7_PL_HEADER_SIZE, "q7_pl_header layout");

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

/* Errors: the functions below return 0, or 1 after writing
 * "<file>: <reason>" to err (err_size bytes, always NUL-terminated); the
 * command line prints it, q7-run reports it. */
#define Q7_PL_ERR_SIZE 512

/* Prelinks the file at path (a .packed.so or a plain Xtensa image). */
int q7_prelink_file(const struct q7_prelink_opts *opts, const char *path,
                    struct q7_prelinked *out, char *err, size_t err_size);
/* The same on an input already in memory (tests, fuzzing); name is used
 * in messages. */
int q7_prelink_memory(const struct q7_prelink_opts *opts, const void *buf, size_t size,
                      const char *name, struct q7_prelinked *out, char *err, size_t err_size);
/* Writes pl->bytes to path, whole or not at all. */
int q7_prelinked_write(const struct q7_prelinked *pl, const char *path, char *err,
                       size_t err_size);
void q7_prelinked_free(struct q7_prelinked *pl);

/* Checks a prelinked file's header and both checksums and fills *hdr. 0,
 * or 1 with the reason in *why (a static string). Shared with the boot
 * program, so it uses nothing beyond memcpy. */
int q7_prelinked_check(const void *buf, size_t size, struct q7_pl_header *hdr,
                       const char **why);

/* After q7_prelinked_check, on the host: a header that says it was placed
 * at a window (core or single-core) must sit at that window and fit it
 * (lsp/'s table). 0, or 1 with the reason in *why. */
int q7_prelinked_check_window(const struct q7_pl_header *hdr, const char **why);

/* CRC-32 (IEEE 802.3, reflected), continued from crc (0 to start). */
uint32_t q7_crc32(uint32_t crc, const void *buf, size_t n);

/* The q7-prelink command line. */
int q7_prelink_main(int argc, char **argv);

#endif
