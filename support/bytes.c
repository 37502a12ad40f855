/* support/bytes: byte order, FNV-1a and the monotonic clock (bytes.h). */
#include "bytes.h"
#include "support.h"

#include <time.h>

uint16_t q7_le16(const void *p)
{
	const unsigned char *b = p;
	return (uint16_t)(b[0] | b[1] << 8);
}

uint32_t q7_le32(const void *p)
{
	const unsigned char *b = p;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void q7_put_le16(void *p, uint16_t v)
{
	unsigned char *b = p;
	b[0] = (unsigned char)(v & 0xff);
	b[1] = (unsigned char)(v >> 8);
}

void q7_put_le32(void *p, uint32_t v)
{
	unsigned char *b = p;
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i) & 0xff);
}

void q7_sb_add_le32(struct q7_strbuf *b, uint32_t v)
{
	char c[4];
	q7_put_le32(c, v);
	q7_sb_addn(b, c, 4);
}

uint32_t q7_fnv1a32(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	return h;
}

uint64_t q7_fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

double q7_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long long q7_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
