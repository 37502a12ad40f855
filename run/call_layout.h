/* run/call_layout: what the targets share about the memory a kernel
 * call runs on (docs/runtime.md, "What a kernel may write"): a slot per
 * tensor argument and one for the destination, last; the slot a faulting
 * address is nearest; the inputs compared after the call; the pads
 * around an output. Where the slots lie, and what guards them, is each
 * target's own (host_confine.c, host_iso.c, emu_session.c). */
#ifndef Q7_RUN_CALL_LAYOUT_H
#define Q7_RUN_CALL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define Q7_MAX_SLOTS (Q7_MAX_ARGS + 1)
/* The byte the pads around an output are filled with, and checked for. */
#define Q7_PAD_BYTE 0xa5

struct q7_slot {
	uint64_t data, bytes; /* the tensor's first byte (a target's offset or address), size */
	uint64_t end;         /* the end of its room: where the gap, guard or next slot begins */
	int arg;              /* the argument's index; Q7_RUN_DST (result.h): the destination */
};

/* A slot for each tensor argument of c, then one for its destination
 * (when it has one), with arg and bytes (what the tensor spans) set:
 * how many. */
unsigned q7_call_slots(const struct q7_call *c, struct q7_slot *s);
/* The tensor slot s of c holds. */
const struct q7_tensor_desc *q7_slot_desc(const struct q7_call *c, const struct q7_slot *s);
/* The slot of s[0..n) whose bytes off lies in, or else the nearest
 * (the earlier on a tie), *at its offset there (negative: before its
 * data); NULL when n is 0. */
const struct q7_slot *q7_slot_nearest(const struct q7_slot *s, unsigned n, uint64_t off,
                                      long long *at);
/* The first rule of docs/runtime.md: each input slot of s[0..n), its
 * bytes at base + (data - origin), against the caller's tensor it was
 * copied from (q7_run_inputs_compare). after (NULL: not asked) gets
 * where each argument's slot is. 0, or 1 with r set. */
int q7_slots_inputs_compare(const struct q7_call *c, const struct q7_slot *s, unsigned n,
                            const unsigned char *base, uint64_t origin,
                            const unsigned char **after, struct q7_run_result *r);
/* After the call, the pad data[from..to) of the destination (bytes
 * bytes at data; from, to: offsets from there), filled with Q7_PAD_BYTE
 * before it: 0, or 1 with r failed as op's write outside the
 * destination, at its first changed byte. */
int q7_pad_check(struct q7_run_result *r, const char *op, const unsigned char *data,
                 uint64_t bytes, long long from, long long to);

/* The process's forks in its line (pthread_atfork counts them in each
 * child): what a process made (slots, a worker, a QEMU session) records
 * this, and a forked child, whose count differs, knows it for its
 * parent's and makes its own (docs/torch.md), at no system call. */
unsigned q7_fork_count(void);

#endif
