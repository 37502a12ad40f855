/* Frames for the tests that drive the host runtime through q7_entry. */
#ifndef Q7_TEST_FRAMES_H
#define Q7_TEST_FRAMES_H

#include <stdint.h>
#include <string.h>

#include <q7/frame.h>

extern "C" int q7_entry(struct q7_frame *f);

/* A valid frame for op with no arguments, its heap arena in heap. */
static inline void q7t_frame_init(q7_frame *f, const char *op, void *heap, size_t size)
{
	memset(f, 0, sizeof *f);
	f->magic = Q7_FRAME_MAGIC;
	f->version = Q7_FRAME_VERSION;
	f->size = sizeof *f;
	strncpy(f->op, op, sizeof f->op - 1);
	f->cpu_count = 1;
	f->heap_base = (uint64_t)(uintptr_t)heap;
	f->heap_size = size;
}

#endif
