/* The prelinked image's checksums and header check (the contract:
 * q7/prelinked.h, which includes this). Defined here, static inline, so
 * that every side compiles the same text: q7-prelink and the emulated
 * session on the host, the boot program of the emulated core under the
 * cross compiler, with no source of one component built into another.
 * Uses only memcpy. */
#ifndef Q7_PRELINKED_CHECK_H
#define Q7_PRELINKED_CHECK_H

#include <string.h>

#include "q7/prelinked.h"

/* CRC-32 (IEEE 802.3, reflected), continued from crc (0 to start). */
static inline uint32_t q7_crc32(uint32_t crc, const void *buf, size_t n)
{
	/* Nibble-wise: a 16-entry table is small enough to keep as a constant
	 * in the boot program and fast enough for images of a few MiB. */
	static const uint32_t nibble[16] = {
		0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
		0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
		0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
	};
	const unsigned char *p = (const unsigned char *)buf;
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return ~crc;
}

/* q7_prelinked_check's refusal: *why, and 1. */
static inline int q7_pl_bad(const char **why, const char *reason)
{
	*why = reason;
	return 1;
}

/* Checks a prelinked file's header and both checksums and fills *hdr. 0,
 * or 1 with the reason in *why (a static string). */
static inline int q7_prelinked_check(const void *buf, size_t size, struct q7_pl_header *hdr,
                                     const char **why)
{
	const unsigned char *p = (const unsigned char *)buf;
	if (size < Q7_PL_HEADER_SIZE)
		return q7_pl_bad(why, "shorter than the prelinked image header");
	/* The format is little-endian; so are the hosts and the core. */
	memcpy(hdr, p, sizeof *hdr);
	if (hdr->magic != Q7_PL_MAGIC)
		return q7_pl_bad(why, "not a prelinked image (bad magic)");
	if (hdr->version != Q7_PL_VERSION)
		return q7_pl_bad(why, "prelinked image of an unsupported version");
	if (hdr->header_size != Q7_PL_HEADER_SIZE)
		return q7_pl_bad(why, "prelinked image header has the wrong size");
	if (q7_crc32(0, p, Q7_PL_HEADER_CRC_SPAN) != hdr->header_crc)
		return q7_pl_bad(why, "prelinked image header checksum mismatch");
	/* A header whose checksum matches may still be made up: every field
	 * must be one q7-prelink writes. */
	for (int i = 0; i < 4; i++)
		if (hdr->reserved[i])
			return q7_pl_bad(why, "prelinked image header has non-zero reserved bytes");
	if (hdr->flags != Q7_PL_F_CORE && hdr->flags != Q7_PL_F_SINGLE && hdr->flags != Q7_PL_F_BASE)
		return q7_pl_bad(why, "prelinked image flags are not one of 1 (core window), 2 "
		                      "(single-core window), 4 (chosen base)");
	if (hdr->core < -1 || hdr->core >= Q7_NUM_CORES ||
	    (hdr->flags == Q7_PL_F_CORE && hdr->core < 0) ||
	    (hdr->flags == Q7_PL_F_SINGLE && hdr->core != -1))
		return q7_pl_bad(why, "prelinked image core field does not match its flags (0..7 for a "
		                      "core window, -1 for the single-core window)");
	if ((hdr->base - hdr->link_base) & (Q7_PL_BASE_ALIGN - 1))
		return q7_pl_bad(why, "prelinked image base is not a multiple of 16 bytes away from its "
		                      "link base");
	if ((uint64_t)hdr->link_base + hdr->load_size + hdr->bss_size > 0x100000000ull)
		return q7_pl_bad(why, "prelinked image link base range does not fit the address space");
	/* Each relocation applied was a 12-byte Elf32_Rela among the load
	 * bytes. nrelocs * 12 by shifts: the boot program has no divide
	 * helper. */
	if (hdr->nrelocs > 0xffffffffu / 16 ||
	    (hdr->nrelocs << 3) + (hdr->nrelocs << 2) > hdr->load_size)
		return q7_pl_bad(why, "prelinked image counts more relocations than its load bytes can "
		                      "hold");
	if (hdr->load_size > size - Q7_PL_HEADER_SIZE)
		return q7_pl_bad(why, "prelinked image is truncated");
	if ((uint64_t)hdr->base + hdr->load_size + hdr->bss_size > 0x100000000ull)
		return q7_pl_bad(why, "prelinked image does not fit the address space");
	if (hdr->entry < hdr->base || hdr->entry - hdr->base >= hdr->load_size)
		return q7_pl_bad(why, "prelinked image entry is outside its load bytes");
	if (q7_crc32(0, p + Q7_PL_HEADER_SIZE, hdr->load_size) != hdr->checksum)
		return q7_pl_bad(why, "prelinked image checksum mismatch");
	return 0;
}

#endif
