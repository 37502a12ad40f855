/* The memory a kernel call runs on, as the targets share it
 * (call_layout.h). */
#include "call_layout.h"
#include "result.h"

#include <pthread.h>
#include <string.h>

unsigned q7_call_slots(const struct q7_call *c, struct q7_slot *s)
{
	unsigned n = 0, nargs = c->nargs < Q7_MAX_ARGS ? c->nargs : Q7_MAX_ARGS;
	for (unsigned i = 0; i <= nargs; i++) {
		if (i == nargs ? !c->dst.data : c->args[i].kind != Q7_ARG_TENSOR)
			continue;
		memset(&s[n], 0, sizeof s[n]);
		s[n].arg = i == nargs ? Q7_RUN_DST : (int)i;
		s[n].bytes = q7_tensor_span(q7_slot_desc(c, &s[n]));
		n++;
	}
	return n;
}

const struct q7_tensor_desc *q7_slot_desc(const struct q7_call *c, const struct q7_slot *s)
{
	return s->arg < 0 ? &c->dst : &c->args[s->arg].u.tensor;
}

const struct q7_slot *q7_slot_nearest(const struct q7_slot *s, unsigned n, uint64_t off,
                                      long long *at)
{
	const struct q7_slot *best = NULL;
	uint64_t dist = UINT64_MAX;
	for (unsigned i = 0; i < n; i++) {
		uint64_t d = off < s[i].data ? s[i].data - off
		           : off - s[i].data < s[i].bytes ? 0 : off - s[i].data - s[i].bytes + 1;
		if (d < dist) {
			dist = d;
			best = &s[i];
		}
	}
	if (best)
		*at = (long long)(off - best->data);
	return best;
}

int q7_slots_inputs_compare(const struct q7_call *c, const struct q7_slot *s, unsigned n,
                            const unsigned char *base, uint64_t origin,
                            const unsigned char **after, struct q7_run_result *r)
{
	const unsigned char *before[Q7_MAX_ARGS] = {0}, *in[Q7_MAX_ARGS] = {0};
	for (unsigned i = 0; i < n; i++) {
		if (s[i].arg < 0)
			continue;
		before[s[i].arg] = (const unsigned char *)(uintptr_t)q7_slot_desc(c, &s[i])->data;
		in[s[i].arg] = base + (s[i].data - origin);
	}
	if (after)
		memcpy(after, in, sizeof in);
	return q7_run_inputs_compare(c, before, in, r);
}

int q7_pad_check(struct q7_run_result *r, const char *op, const unsigned char *data,
                 uint64_t bytes, long long from, long long to)
{
	const unsigned char *p = data + from;
	size_t n = (size_t)(to - from), at = 0;
	/* all of it one byte: a memcmp (the rest of a page, at every call) */
	if (n == 0 || (p[0] == Q7_PAD_BYTE && memcmp(p, p + 1, n - 1) == 0))
		return 0;
	while (p[at] == Q7_PAD_BYTE)
		at++;
	return q7_run_outside(r, op, "wrote", Q7_RUN_DST, bytes, from + (long long)at);
}

/* ---- the process that made them ------------------------------------------ */

static unsigned forks;
static pthread_once_t count_forks_once = PTHREAD_ONCE_INIT;

static void forked(void)
{
	forks++;
}

static void count_forks(void)
{
	pthread_atfork(NULL, NULL, forked);
}

unsigned q7_fork_count(void)
{
	pthread_once(&count_forks_once, count_forks);
	return forks;
}
