/* The prelinked image's checksums and header check. Compiled twice: into
 * the host library and into the boot program of the emulated core, so the
 * two sides agree on the format by construction. Uses only memcpy. */
#include "prelink.h"

#include <string.h>

uint32_t q7_crc32(uint32_t crc, const void *buf, size_t n)
{
	/* Nibble-wise: a 16-entry table is small enough to keep as a constant
	 * in the boot program and fast enough for images of a few MiB. */
	static const uint32_t nibble[16] = {
		0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
		0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
		0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
	};
	const unsigned char *p = buf;
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return ~crc;
}

int q7_prelinked_check(const void *buf, size_t size, struct q7_pl_header *hdr,
                       const char **why)
{
	const unsigned char *p = buf;
	if (size < Q7_PL_HEADER_SIZE) {
		*why = "shorter than the prelinked image header";
		return 1;
	}
	/* The format is little-endian; so are the hosts and the core. */
	memcpy(hdr, p, sizeof *hdr);
	if (hdr->magic != Q7_PL_MAGIC) {
		*why = "not a prelinked image (bad magic)";
		return 1;
	}
	if (hdr->version != Q7_PL_VERSION) {
		*why = "prelinked image of an unsupported version";
		return 1;
	}
	if (hdr->header_size != Q7_PL_HEADER_SIZE) {
		*why = "prelinked image header has the wrong size";
		return 1;
	}
	if (q7_crc32(0, p, Q7_PL_HEADER_CRC_SPAN) != hdr->header_crc) {
		*why = "prelinked image header checksum mismatch";
		return 1;
	}
	if (hdr->load_size > size - Q7_PL_HEADER_SIZE) {
		*why = "prelinked image is truncated";
		return 1;
	}
	if ((uint64_t)hdr->base + hdr->load_size + hdr->bss_size > 0x100000000ull) {
		*why = "prelinked image does not fit the address space";
		return 1;
	}
	if (hdr->entry < hdr->base || hdr->entry - hdr->base >= hdr->load_size) {
		*why = "prelinked image entry is outside its load bytes";
		return 1;
	}
	if (q7_crc32(0, p + Q7_PL_HEADER_SIZE, hdr->load_size) != hdr->checksum) {
		*why = "prelinked image checksum mismatch";
		return 1;
	}
	return 0;
}
