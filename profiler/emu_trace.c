/* emu_trace.h: one pass over QEMU's log, line by line (logs of large
 * calls run to gigabytes, so nothing is kept but the blocks). */
#include "emu_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <search.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_view.h"
#include "support.h"

/* A block QEMU listed, in a tsearch tree by the host address it
 * translated it to. */
struct block {
	uint64_t host;
	uint32_t pc;              /* the first instruction's address */
	uint32_t ninsn;
	uint32_t call_ret;        /* ends in call0/callx0: its return address, else 0 */
	bool ends_in_return;      /* ret, ret.n, retw or jx (a longjmp) */
	const struct q7_sym *sym; /* resolved at its first execution */
	bool resolved;
};

static int host_order(const void *a, const void *b)
{
	uint64_t x = ((const struct block *)a)->host, y = ((const struct block *)b)->host;
	return (x > y) - (x < y);
}

struct frame {
	uint32_t ret;
	unsigned node;
	const struct q7_sym *sym;
};

struct tracer {
	const struct q7_trace_core *cores;
	unsigned ncores, core; /* the next core whose entry call is awaited */
	const struct q7_syms *boot;
	struct q7_prof *p;
	unsigned parent, root;
	struct frame *stack;
	size_t depth, cap;
	bool in_window;
};

static const char *frame_name(const struct q7_sym *sym)
{
	return sym ? sym->name : "[unknown]";
}

static const struct q7_sym *lookup(const struct tracer *t, uint32_t pc)
{
	if (t->core < t->ncores) {
		const struct q7_trace_core *c = &t->cores[t->core];
		if (pc >= c->lo && pc < c->hi)
			return q7_syms_find(&c->syms, pc);
	}
	return q7_syms_find(t->boot, pc);
}

static void push(struct tracer *t, uint32_t ret, unsigned parent, const struct q7_sym *sym)
{
	Q7_GROW(t->stack, t->cap, t->depth + 1);
	unsigned node = q7_prof_child(t->p, parent, frame_name(sym));
	t->p->v[node].calls++;
	t->stack[t->depth++] = (struct frame){ret, node, sym};
}

/* One execution of b, after the block before it (prev). */
static void step(struct tracer *t, struct block *b, const struct block *prev)
{
	if (!b->resolved) {
		b->sym = lookup(t, b->pc);
		b->resolved = true;
	}
	if (!t->in_window) {
		if (t->core < t->ncores && prev && prev->call_ret && b->pc == t->cores[t->core].entry) {
			char root[32];
			snprintf(root, sizeof root, "core%u", t->cores[t->core].index);
			t->root = q7_prof_child(t->p, t->parent, root);
			t->depth = 0;
			push(t, prev->call_ret, t->root, b->sym);
			t->in_window = true;
			t->p->v[t->stack[0].node].self += b->ninsn;
		}
		return;
	}
	if (prev && prev->ends_in_return) {
		for (size_t k = t->depth; k-- > 0;) {
			if (t->stack[k].ret != b->pc)
				continue;
			t->depth = k;
			if (k == 0) { /* the entry returned: the core's call is over */
				t->in_window = false;
				t->core++;
				return;
			}
			break;
		}
	}
	struct frame *top = &t->stack[t->depth - 1];
	if (prev && prev->call_ret) {
		push(t, prev->call_ret, top->node, b->sym);
	} else if (b->sym != top->sym) {
		/* A jump into another function: a tail call, renaming the
		 * frame. Not a helper's jump (into its general case, or a shared
		 * tail): that is the same operation, counted in the helper's
		 * frame, so that the device view (device_view.h) drops it with
		 * the helper's call. */
		if (!q7_devop_find(t->p->v[top->node].name)) {
			top->node = q7_prof_child(t->p, t->p->v[top->node].parent, frame_name(b->sym));
			t->p->v[top->node].calls++;
		}
		top->sym = b->sym;
	}
	t->p->v[t->stack[t->depth - 1].node].self += b->ninsn;
}

/* One instruction of the block being listed, "0x50000530:  movi.n\ta2, 3":
 * the block's first pc, its count, and whether it ends in a call or a
 * return (the last instruction listed says). */
static void list_instruction(const char *line, struct block *pending)
{
	char *end;
	uint32_t pc = (uint32_t)strtoul(line, &end, 16);
	if (*end != ':')
		return;
	end++;
	while (*end == ' ')
		end++;
	if (pending->ninsn++ == 0)
		pending->pc = pc;
	bool call = strncmp(end, "call0", 5) == 0 || strncmp(end, "callx0", 6) == 0;
	pending->call_ret = call ? pc + 3 : 0;
	pending->ends_in_return = strncmp(end, "ret", 3) == 0 ||
	                          (strncmp(end, "jx", 2) == 0 && (end[2] == '\t' || end[2] == ' '));
}

int q7_trace_profile(const char *log, const struct q7_trace_core *cores, unsigned ncores,
                     const struct q7_syms *boot, struct q7_prof *p, unsigned parent,
                     struct q7_err *err)
{
	FILE *f = fopen(log, "r");
	if (!f) {
		q7_err_set(err, NULL, "%s: cannot read the core's trace: %s", log, strerror(errno));
		return -1;
	}
	struct tracer t = {.cores = cores, .ncores = ncores, .boot = boot, .p = p, .parent = parent};
	void *byhost = NULL;
	struct block pending, prev; /* prev: the block run before, as it was then */
	bool have_pending = false, have_prev = false, listing = false;
	char *line = NULL;
	size_t linecap = 0;
	int rc = 0;
	while (getline(&line, &linecap, f) > 0) {
		if (strncmp(line, "Trace ", 6) == 0) {
			uint64_t host;
			uint32_t pc;
			/* "Trace 0: 0x7f3250000100 [00000000/50000000/00018004/ff000200] sym":
			 * the block's host address and its core's pc. */
			if (sscanf(line, "Trace %*[^:]: %" SCNx64 " [%*[^/]/%" SCNx32, &host, &pc) != 2) {
				q7_err_set(err, NULL, "%s: a trace line QEMU did not write: %.60s", log, line);
				rc = -1;
				break;
			}
			listing = false;
			struct block key = {.host = host}, **b = q7_xtsearch(&key, &byhost, host_order);
			bool listed = *b != &key;
			if (!listed)
				*b = memcpy(q7_xmalloc(sizeof key), &key, sizeof key);
			if (have_pending && pending.pc == pc) {
				/* Just translated (a host address may be reused after
				 * QEMU flushes its code cache: the new listing wins). */
				pending.host = host;
				**b = pending;
				have_pending = false;
			} else if (!listed || (*b)->pc != pc) {
				q7_err_set(err, NULL, "%s: a block at 0x%08x ran that QEMU never listed (was the "
				           "log written with -d %s?)", log, pc, Q7_TRACE_QEMU_FLAGS);
				rc = -1;
				break;
			}
			step(&t, *b, have_prev ? &prev : NULL);
			prev = **b;
			have_prev = true;
		} else if (strncmp(line, "IN:", 3) == 0) {
			memset(&pending, 0, sizeof pending);
			have_pending = true;
			listing = true;
		} else if (listing && line[0] == '0' && line[1] == 'x') {
			list_instruction(line, &pending);
		} else if (line[0] == '\n') {
			listing = false;
		}
	}
	if (rc == 0 && ferror(f)) {
		q7_err_set(err, NULL, "%s: cannot read the core's trace: %s", log, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && t.core < ncores) {
		q7_err_set(err, NULL, "%s: the trace holds %u of the %u cores' entry calls%s", log,
		           t.core, ncores, t.in_window ? " (the last one did not return)" : "");
		rc = -1;
	}
	free(line);
	fclose(f);
	free(t.stack);
	tdestroy(byhost, free);
	return rc;
}
