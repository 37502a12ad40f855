/* A first-fit allocator over one caller-given memory range, used for the
 * frame's heap arena (tensors, switched stacks, operator new) and for the
 * 16 KiB tcm pool inside it (docs/runtime.md, "Memory"). Blocks carry a
 * 16-byte header (size, magic, next-free link; the bytes asked while in use).
 *
 * Red zones: an arena made with red zones puts Q7_RED_ZONE bytes of a
 * known pattern right after every block's bytes as asked. A write past a
 * block lands there first; q7rt_arena_check (after the kernel) and
 * q7rt_arena_free find it and say which block, at which offset. Nothing is ever returned to the system: the range belongs
 * to the caller, who simply re-initialises it for the next call. */
#ifndef Q7_RT_ARENA_H
#define Q7_RT_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <q7/frame.h> /* Q7_RED_ZONE */

struct q7rt_block;

/* What q7rt_arena_check found: the block written past (its first byte),
 * its bytes as asked, and the offset from there of the first byte that
 * changed. */
struct q7rt_breach {
	uintptr_t block; /* 0: free memory before any block in use */
	size_t bytes, at;
	uintptr_t addr;  /* the byte that changed */
};

struct q7rt_arena {
	uintptr_t base, end;
	struct q7rt_block *free_list;
	size_t used, peak; /* bytes in allocated blocks, headers included */
	bool red_zones;
	/* The first breach q7rt_arena_free found (the block freed since):
	 * bad.block 0 when none. */
	struct q7rt_breach bad;
};

void q7rt_arena_init(struct q7rt_arena *a, void *base, size_t size);
/* Red zones after every block allocated from now on. */
void q7rt_arena_red_zones(struct q7rt_arena *a, bool on);
/* Every live block's red zone, and the headers between them: true and *b
 * filled when a block was written past (or one was before it was freed). */
bool q7rt_arena_check(const struct q7rt_arena *a, struct q7rt_breach *b);
/* Fills / checks n red-zone bytes at p: the offset of the first byte that
 * changed, or n. */
void q7rt_red_zone_fill(void *p, size_t n);
size_t q7rt_red_zone_find(const void *p, size_t n);
/* NULL when no free block fits. */
void *q7rt_arena_alloc(struct q7rt_arena *a, size_t bytes, size_t align);
/* 0, or -1 when p is not a live block of a (nothing is changed then). */
int q7rt_arena_free(struct q7rt_arena *a, void *p);
/* A live block's tag (its allocator's: operator new marks its blocks, so
 * that a delete of a block it did not make, a tensor's data or the
 * destination, is refused); q7rt_arena_free_tagged frees p only when it
 * is a live block of a with that tag, else -1. */
void q7rt_arena_tag(struct q7rt_arena *a, void *p, uint32_t tag);
int q7rt_arena_free_tagged(struct q7rt_arena *a, void *p, uint32_t tag);
bool q7rt_arena_owns(const struct q7rt_arena *a, const void *p);

#endif
