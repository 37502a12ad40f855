/* A first-fit allocator over one caller-given memory range, used for the
 * frame's heap arena (tensors, switched stacks, operator new) and for the
 * 16 KiB tcm pool inside it.
 *
 * Blocks carry a 16-byte header (size, magic, next-free link); free blocks
 * are kept in address order and merged with their neighbours, so a free
 * followed by an allocation of the same size reuses the memory. Alignment
 * up to 4 KiB. Nothing is ever returned to the system: the range belongs
 * to the caller, who simply re-initialises it for the next call. */
#ifndef Q7_RT_ARENA_H
#define Q7_RT_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct q7rt_block;

struct q7rt_arena {
	uintptr_t base, end;
	struct q7rt_block *free_list;
	size_t used, peak; /* bytes in allocated blocks, headers included */
};

void q7rt_arena_init(struct q7rt_arena *a, void *base, size_t size);
/* NULL when no free block fits. */
void *q7rt_arena_alloc(struct q7rt_arena *a, size_t bytes, size_t align);
/* 0, or -1 when p is not a live block of a (nothing is changed then). */
int q7rt_arena_free(struct q7rt_arena *a, void *p);
bool q7rt_arena_owns(const struct q7rt_arena *a, const void *p);

#endif
