/* An instruction profile: a tree of call stacks (frames by name), each
 * with the instructions executed while it was the innermost, as the
 * emulated core's trace (emu_trace.h) finds them. Written as folded
 * stacks ("core0;relu_forward;__mulsf3 1234", one line per stack) or as a
 * flame graph (flamegraph.h); folded text from elsewhere can be added
 * (the PyTorch profile merges one call's stacks under its op's name).
 *
 * Memory: the profile owns its nodes and names; q7_prof_free. */
#ifndef Q7_INSN_PROFILE_H
#define Q7_INSN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define Q7_PROF_ROOT 0u /* the unnamed root every stack hangs from */

struct q7_err;

struct q7_prof_node {
	unsigned parent;
	const char *name;  /* owned by the profile */
	uint64_t self;     /* instructions with this frame innermost */
	uint64_t total;    /* self + the children's totals (q7_prof_sum) */
	uint64_t calls;    /* times the frame was entered, by a call or a tail call
	                    * (the trace's; 0 from folded text) */
	unsigned first_child, next_sibling; /* 0: none */
};

struct q7_prof {
	struct q7_prof_node *v; /* v[0]: the root */
	size_t n, cap;
	unsigned over;          /* the node past Q7_PROF_NODES, once made; 0: none */
	void *children;         /* a tsearch tree: (parent, name) -> node */
};

void q7_prof_init(struct q7_prof *p);
void q7_prof_free(struct q7_prof *p);
/* The bounds on stacks (Q7_PROF_OVER past them) and on folded text
 * (Q7_PROF_CUT past it): docs/profile.md, "Limits". */
#define Q7_PROF_NODES 262144u
#define Q7_PROF_OVER "[stacks past the profile's 262144: merged]"
#define Q7_PROF_FOLDED_MAX ((size_t)32 << 20)
#define Q7_PROF_CUT "[stacks past 32 MiB of folded text: merged]"
/* The child of parent called name (made when new; past Q7_PROF_NODES,
 * the Q7_PROF_OVER node). */
unsigned q7_prof_child(struct q7_prof *p, unsigned parent, const char *name);
/* Adds folded stacks ("a;b;c 12" lines) under parent. 0, or -1 with err
 * naming the line (what = the text's name, for the message). */
int q7_prof_add_folded(struct q7_prof *p, unsigned parent, const char *text,
                          const char *what, struct q7_err *err);
/* Fills every node's total; returns the root's. */
uint64_t q7_prof_sum(struct q7_prof *p);
/* A folded line holds at most Q7_PROF_FRAMES frames: the outermost
 * Q7_PROF_OUTER (the core, the op, its wrapper), "...", and the innermost. */
#define Q7_PROF_FRAMES 512
#define Q7_PROF_OUTER 64
/* The folded stacks, sorted, one line each (caller frees); names with
 * control bytes or ';' escaped (\xNN), so that none forges a frame or a
 * line (docs/profile.md, "FILE.folded": the cut lines). */
char *q7_prof_folded(const struct q7_prof *p);
/* Visits the root and every node below it depth first, each node's
 * children in the order cmp gives their names, with path[0..depth] the
 * nodes from the root to it (path[depth] is the node). visit returns
 * false to skip what is below the node. */
void q7_prof_walk(const struct q7_prof *p, int (*cmp)(const char *, const char *),
                  bool (*visit)(void *ctx, const unsigned *path, size_t depth), void *ctx);
/* Writes path: folded stacks when it ends in .folded, a flame graph when
 * it ends in .svg (title on top); whole or not at all. 0, or -1 with err
 * naming the file and the reason. */
int q7_prof_write(struct q7_prof *p, const char *path, const char *title, struct q7_err *err);
/* 1 when path names a profile this writes (.folded or .svg), else 0. */
int q7_prof_path_ok(const char *path);

#endif
