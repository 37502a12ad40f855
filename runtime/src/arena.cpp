/* The arena allocator (see arena.h). */
#include "arena.h"

#include <string.h>

namespace {

const uint32_t MAGIC_USED = 0x7155a11cu;
const uint32_t MAGIC_FREE = 0x7155f4eeu;
const size_t HDR = 16;
const size_t MIN_BLOCK = 32; /* header + 16 bytes: smaller leftovers stay attached */
/* With red zones, the first bytes of every free block after its header
 * hold the red pattern too (docs/runtime.md, "What a kernel may write"):
 * a write that jumps a block's red zone into free memory is seen. */
const size_t WATCH = 8192;

} // namespace

struct q7rt_block {
	uint32_t size;  /* header included, a multiple of 16 */
	uint32_t magic;
	union {
		struct q7rt_block *next; /* next free block (free blocks only) */
		struct {                 /* blocks in use: */
			uint32_t bytes;  /* as asked */
			uint32_t tag;    /* q7rt_arena_tag's, 0 until then */
		};
	};
};
static_assert(sizeof(q7rt_block) <= HDR, "arena header fits 16 bytes");

static uintptr_t align_up(uintptr_t v, uintptr_t a) { return (v + a - 1) & ~(a - 1); }

static q7rt_block *at(uintptr_t p) { return reinterpret_cast<q7rt_block *>(p); }

/* b: the block at block (its bytes as asked; 0 for none) was written
 * past, at addr. */
static void breach_at(q7rt_breach *b, uintptr_t block, size_t bytes, uintptr_t addr)
{
	b->block = block;
	b->bytes = bytes;
	b->at = block ? addr - block : 0;
	b->addr = addr;
}

static size_t watch_bytes(const q7rt_block *b)
{
	return b->size - HDR < WATCH ? b->size - HDR : WATCH;
}

/* The watched bytes of free block b, filled (red zones only). */
static void watch_fill(const q7rt_arena *a, q7rt_block *b)
{
	if (a->red_zones)
		q7rt_red_zone_fill(reinterpret_cast<char *>(b) + HDR, watch_bytes(b));
}

void q7rt_arena_init(q7rt_arena *a, void *base, size_t size)
{
	uintptr_t b = align_up(reinterpret_cast<uintptr_t>(base), HDR);
	uintptr_t e = reinterpret_cast<uintptr_t>(base) + size;
	a->used = a->peak = 0;
	a->free_list = nullptr;
	a->red_zones = false;
	a->bad = q7rt_breach();
	if (e < b || e - b < MIN_BLOCK) {
		a->base = a->end = b;
		return;
	}
	e = b + ((e - b) & ~(uintptr_t)(HDR - 1));
	if (e - b > 0xfffffff0u) /* block sizes are 32-bit */
		e = b + 0xfffffff0u;
	a->base = b;
	a->end = e;
	q7rt_block *blk = at(b);
	blk->size = (uint32_t)(e - b);
	blk->magic = MAGIC_FREE;
	blk->next = nullptr;
	a->free_list = blk;
}

/* Whether header b, the free list's next being *fl (advanced past it),
 * (NULL: not held against the free list) is what the allocator wrote: a block in use as large as its bytes made
 * it (q7rt_arena_alloc), a free block the free list's next one, ending
 * before the one after it. A size field a write changed is the breach of
 * the block before, never a size to walk by. */
static bool header_sane(const q7rt_arena *a, uintptr_t p, const q7rt_block **fl)
{
	const q7rt_block *b = at(p);
	if ((b->magic != MAGIC_USED && b->magic != MAGIC_FREE) || b->size < HDR ||
	    (b->size & (HDR - 1)) != 0 || b->size > a->end - p)
		return false;
	if (b->magic == MAGIC_USED) {
		size_t need = align_up((b->bytes ? b->bytes : 1) + Q7_RED_ZONE, HDR);
		return b->size >= HDR + need && b->size < HDR + need + MIN_BLOCK;
	}
	/* a free block ends at the arena's end or at another header */
	uintptr_t nx = p + b->size;
	if (nx < a->end && at(nx)->magic != MAGIC_USED && at(nx)->magic != MAGIC_FREE)
		return false;
	if (!fl) /* no free list to hold it against */
		return true;
	if (b != *fl || (b->next && p + b->size > reinterpret_cast<uintptr_t>(b->next)))
		return false;
	*fl = b->next;
	return true;
}

/* Free block f's watched bytes, before it is carved: a write there is
 * the breach of the block in use before it (found by walking, only
 * then), recorded as the first one when none was. */
static void watch_check(q7rt_arena *a, uintptr_t f)
{
	size_t n = watch_bytes(at(f));
	size_t off = a->red_zones && !a->bad.block
	                 ? q7rt_red_zone_find(reinterpret_cast<const char *>(f + HDR), n) : n;
	if (off == n)
		return;
	uintptr_t block = f + HDR, q = a->base; /* none before it: named from its own start */
	size_t bytes = 0;
	while (q < f && at(q)->size >= HDR && at(q)->size <= f - q) {
		if (q + at(q)->size == f && at(q)->magic == MAGIC_USED) {
			block = q + HDR;
			bytes = at(q)->bytes;
		}
		q += at(q)->size;
	}
	breach_at(&a->bad, block, bytes, f + HDR + off);
}

void *q7rt_arena_alloc(q7rt_arena *a, size_t bytes, size_t align)
{
	if (align < HDR)
		align = HDR;
	if ((align & (align - 1)) != 0 || align > 4096 || bytes > 0xffff0000u)
		return nullptr;
	size_t rz = a->red_zones ? Q7_RED_ZONE : 0;
	size_t need = align_up((bytes ? bytes : 1) + rz, HDR);
	q7rt_block **link = &a->free_list;
	for (q7rt_block *b = *link; b; link = &b->next, b = *link) {
		uintptr_t start = reinterpret_cast<uintptr_t>(b);
		if (a->red_zones && !header_sane(a, start, nullptr))
			continue; /* written over: never carved by a size a write made */
		uintptr_t end = start + b->size;
		uintptr_t payload = align_up(start + HDR, align);
		if (payload - HDR != start && payload - HDR - start < MIN_BLOCK)
			payload = align_up(start + HDR + MIN_BLOCK, align);
		if (payload + need > end)
			continue;
		uintptr_t watched_to = start + HDR + watch_bytes(b);
		watch_check(a, start);
		uintptr_t bstart = payload - HDR;
		if (bstart != start) { /* keep the leading gap as a free block */
			b->size = (uint32_t)(bstart - start);
			q7rt_block *nb = at(bstart);
			nb->size = (uint32_t)(end - bstart);
			nb->magic = MAGIC_FREE;
			nb->next = b->next;
			b->next = nb;
			link = &b->next;
			b = nb;
		}
		uintptr_t used_end = payload + need;
		if (end - used_end >= MIN_BLOCK) { /* split off the tail */
			q7rt_block *tail = at(used_end);
			tail->size = (uint32_t)(end - used_end);
			tail->magic = MAGIC_FREE;
			tail->next = b->next;
			b->next = tail;
			b->size = (uint32_t)(used_end - bstart);
			/* its watched bytes below watched_to are the old block's */
			uintptr_t from = used_end + HDR, to = from + watch_bytes(tail);
			if (a->red_zones && to > watched_to)
				q7rt_red_zone_fill(reinterpret_cast<void *>(from > watched_to ? from : watched_to),
				                   to - (from > watched_to ? from : watched_to));
		}
		*link = b->next;
		b->magic = MAGIC_USED;
		b->next = nullptr;
		b->bytes = (uint32_t)bytes;
		b->tag = 0;
		a->used += b->size;
		if (a->used > a->peak)
			a->peak = a->used;
		if (rz)
			q7rt_red_zone_fill(reinterpret_cast<void *>(payload + bytes), rz);
		return reinterpret_cast<void *>(payload);
	}
	return nullptr;
}

bool q7rt_arena_owns(const q7rt_arena *a, const void *p)
{
	uintptr_t v = reinterpret_cast<uintptr_t>(p);
	return v >= a->base + HDR && v < a->end;
}

/* The header of p when p is a block in use, else NULL. */
static q7rt_block *live(const q7rt_arena *a, const void *p)
{
	if (!p || !q7rt_arena_owns(a, p) || (reinterpret_cast<uintptr_t>(p) & (HDR - 1)))
		return nullptr;
	q7rt_block *b = at(reinterpret_cast<uintptr_t>(p) - HDR);
	return b->magic == MAGIC_USED ? b : nullptr;
}

void q7rt_arena_tag(q7rt_arena *a, void *p, uint32_t tag)
{
	q7rt_block *b = live(a, p);
	if (b)
		b->tag = tag;
}

int q7rt_arena_free_tagged(q7rt_arena *a, void *p, uint32_t tag)
{
	const q7rt_block *b = live(a, p);
	return b && b->tag == tag ? q7rt_arena_free(a, p) : -1;
}

int q7rt_arena_free(q7rt_arena *a, void *p)
{
	q7rt_block *b = live(a, p);
	if (!b)
		return -1;
	const uint32_t bytes = b->bytes; /* the free list's link takes its place */
	if (a->red_zones && !header_sane(a, reinterpret_cast<uintptr_t>(b), nullptr))
		return 0; /* its size written over: left for q7rt_arena_check to name */
	uintptr_t block = reinterpret_cast<uintptr_t>(p);
	size_t off;
	if (a->red_zones && !a->bad.block &&
	    (off = q7rt_red_zone_find(static_cast<char *>(p) + bytes, Q7_RED_ZONE)) < Q7_RED_ZONE)
		breach_at(&a->bad, block, bytes, block + bytes + off);
	uintptr_t after = reinterpret_cast<uintptr_t>(b) + b->size;
	bool after_bad = a->red_zones && after < a->end && !header_sane(a, after, nullptr);
	if (after_bad && !a->bad.block) /* the header after it written over: this block's breach */
		breach_at(&a->bad, block, bytes, after);
	a->used -= b->size;
	b->magic = MAGIC_FREE;
	q7rt_block *prev = nullptr;
	q7rt_block *cur = a->free_list;
	while (cur && cur < b) {
		prev = cur;
		cur = cur->next;
	}
	b->next = cur;
	if (prev)
		prev->next = b;
	else
		a->free_list = b;
	uintptr_t cur_at = reinterpret_cast<uintptr_t>(cur);
	if (after_bad) /* never merged by a size a write changed */
		cur = nullptr;
	if (cur && reinterpret_cast<uintptr_t>(b) + b->size == cur_at) {
		b->size += cur->size;
		b->next = cur->next;
	}
	if (prev && reinterpret_cast<uintptr_t>(prev) + prev->size == reinterpret_cast<uintptr_t>(b)) {
		prev->size += b->size;
		prev->next = b->next;
		b = prev;
	}
	watch_fill(a, b);
	return 0;
}

/* ---- red zones ---------------------------------------------------------- */

static const unsigned char RED = 0xfb; /* rarely what a kernel writes */

#if defined(__XTENSA__)
static const uint32_t RED4 = 0xfbfbfbfbu;
/* A word read from a byte buffer. */
typedef uint32_t __attribute__((may_alias)) word;

/* Word by word where aligned: the emulated core runs about one
 * instruction per 13 ns, and every call checks a few zones. */
size_t q7rt_red_zone_find(const void *p, size_t n)
{
	const unsigned char *c = static_cast<const unsigned char *>(p);
	size_t i = 0;
	for (; i < n && (reinterpret_cast<uintptr_t>(c + i) & 3); i++)
		if (c[i] != RED)
			return i;
	for (; i + 4 <= n && *reinterpret_cast<const word *>(c + i) == RED4; i += 4)
		;
	for (; i < n; i++)
		if (c[i] != RED)
			return i;
	return n;
}
#else
/* On the host, memcmp against a chunk of the byte finds a change at the
 * C library's speed (the watched free memory is 8 KiB a block; the word
 * loop cost several microseconds a call). */
static const unsigned char red_chunk[256] = {
#define R8 RED, RED, RED, RED, RED, RED, RED, RED
#define R64 R8, R8, R8, R8, R8, R8, R8, R8
	R64, R64, R64, R64,
#undef R64
#undef R8
};

size_t q7rt_red_zone_find(const void *p, size_t n)
{
	const unsigned char *c = static_cast<const unsigned char *>(p);
	size_t i = 0;
	while (i < n) {
		size_t k = n - i < sizeof red_chunk ? n - i : sizeof red_chunk;
		if (memcmp(c + i, red_chunk, k) != 0)
			break;
		i += k;
	}
	for (; i < n; i++)
		if (c[i] != RED)
			return i;
	return n;
}
#endif

/* memset: on the device picolibc's assembly, or the loader's mover for a
 * large block (device_memmove.c). */
void q7rt_red_zone_fill(void *p, size_t n)
{
	memset(p, RED, n);
}

void q7rt_arena_red_zones(q7rt_arena *a, bool on)
{
	a->red_zones = on;
	for (q7rt_block *b = a->free_list; b; b = b->next)
		watch_fill(a, b);
}

bool q7rt_arena_check(const q7rt_arena *a, q7rt_breach *out)
{
	if (!a->red_zones)
		return false;
	if (a->bad.block) { /* the first breach seen, while freeing or carving */
		*out = a->bad;
		return true;
	}
	uintptr_t prev = 0; /* the last block in use before p (its header) */
	const q7rt_block *fl = a->free_list;
	for (uintptr_t p = a->base; p < a->end;) {
		const q7rt_block *b = at(p);
		if (!header_sane(a, p, &fl)) {
			/* Written over past a red zone: the block before it, at
			 * least this far from its start. */
			if (!prev)
				break;
			breach_at(out, prev + HDR, at(prev)->bytes, p);
			return true;
		}
		size_t watched = b->magic == MAGIC_FREE ? watch_bytes(b) : 0;
		size_t woff = watched ? q7rt_red_zone_find(reinterpret_cast<const char *>(p + HDR), watched)
		                      : 0;
		if (woff < watched) {
			/* Free memory written: past the block in use before it. */
			breach_at(out, prev ? prev + HDR : 0, prev ? at(prev)->bytes : 0, p + HDR + woff);
			return true;
		}
		if (b->magic == MAGIC_USED) {
			size_t off = q7rt_red_zone_find(reinterpret_cast<const char *>(p + HDR) + b->bytes,
			                                Q7_RED_ZONE);
			if (off < Q7_RED_ZONE) {
				breach_at(out, p + HDR, b->bytes, p + HDR + b->bytes + off);
				return true;
			}
			prev = p;
		}
		p += b->size;
	}
	return false;
}
