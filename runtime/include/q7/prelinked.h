/* The prelinked image: what q7-prelink (prelink/) writes and the boot
 * program of the emulated core (runtime/boot) and the emulated session
 * (run/emu_session.c) load, a fixed header and then the bytes to copy to
 * its base. A contract, in plain C with fixed-width fields, compiled by the
 * host and by the cross compiler; q7/prelinked_check.h, compiled into
 * both, is its one check. docs/emulated.md tells the format. */
#ifndef Q7_PRELINKED_H
#define Q7_PRELINKED_H

#include <assert.h> /* static_assert, in C11 too */
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
static_assert(sizeof(struct q7_pl_header) == Q7_PL_HEADER_SIZE, "q7_pl_header layout");

/* q7_prelinked_check (the header and both checksums) and q7_crc32, the
 * one check every side compiles (static inline). */
#include "q7/prelinked_check.h"

#endif
