/* support/bytes: the byte order of q7cc's own formats, their hash and the
 * clock their deadlines are measured by.
 *
 * Owns: little-endian loads and stores (the op record, the analysis wire,
 * the prelinked image are little-endian whatever the host), FNV-1a (the
 * record's checksum, the caches' keys, interned strings) and the
 * monotonic clock (timeouts, deadlines, waits). One copy of each. */
#ifndef Q7_BYTES_H
#define Q7_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct q7_strbuf;

/* The little-endian value at p (any alignment). */
uint16_t q7_le16(const void *p);
uint32_t q7_le32(const void *p);
/* Stores v at p, little-endian (any alignment). */
void q7_put_le16(void *p, uint16_t v);
void q7_put_le32(void *p, uint32_t v);
/* Appends v to b, little-endian. */
void q7_sb_add_le32(struct q7_strbuf *b, uint32_t v);

/* FNV-1a: 32 bits of n bytes from its standard basis; 64 bits continuing
 * from h (Q7_FNV64_BASIS to start), so that fields can be chained. */
#define Q7_FNV64_BASIS 14695981039346656037ull
uint32_t q7_fnv1a32(const void *p, size_t n);
uint64_t q7_fnv1a64(uint64_t h, const void *p, size_t n);

/* The monotonic clock (CLOCK_MONOTONIC): in seconds, and in whole
 * milliseconds. Only differences mean anything. */
double q7_now_s(void);
long long q7_now_ms(void);

#endif
