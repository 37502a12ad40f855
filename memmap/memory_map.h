/* Each core's memory as q7cc lays it out (docs/profile.md, "Each core's
 * memory"): the core's SRAM window (lsp/memmap.c), the image's loaded
 * sections in it from the bottom, the stack its ops ask for (STACK_SIZE or
 * Q7_KERNEL_STACK: the largest, read from the ops' stack-switch launchers)
 * at the top, and what is left free between; the heap arena and the TCM
 * pool (16 KiB taken from the arena) are the call's, given by the loader
 * outside the window.
 *
 * Memory: a q7_core_map owns its sections; q7_core_map_free. */
#ifndef Q7_MEMORY_MAP_H
#define Q7_MEMORY_MAP_H

#include <stddef.h>
#include <stdint.h>

#define Q7_MAP_TCM_BYTES 16384u /* the runtime's tcm_malloc pool (runtime/src/rt.h) */

struct q7_err;

struct q7_map_section {
	char *name;
	uint32_t addr, size;
};

struct q7_core_map {
	char *image;          /* the file */
	int core;             /* 0..7, or -1: the single-core window */
	uint32_t base, size;  /* the SRAM window */
	struct q7_map_section *sec; /* loaded sections in the window, by address */
	size_t nsec;
	uint64_t image_end;   /* the end of the highest loaded section (past the
	                       * window's end in an image that overflows it) */
	uint32_t stack;       /* bytes: the largest stack an op asks for */
	char *stack_op;       /* the op that asks for it, NULL: no ops */
};

/* The map of one image for core (0..7) or -1 (single window); core -2:
 * decided from the file's name (..._cpuN) and its addresses. 0, or -1 with
 * err naming the file and the reason. */
int q7_core_map_load(const char *image, int core, struct q7_core_map *m, struct q7_err *err);
void q7_core_map_free(struct q7_core_map *m);
/* Free bytes between the image and the stack; negative: over by that many. */
int64_t q7_core_map_free_bytes(const struct q7_core_map *m);

/* The map as text and as an SVG (caller frees). */
char *q7_memory_map_text(const struct q7_core_map *maps, size_t n);
char *q7_memory_map_svg(const struct q7_core_map *maps, size_t n, const char *title);

#endif
