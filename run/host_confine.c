/* The memory an in-process host kernel runs on (host_confine.h).
 *
 * Two reservations of address space, inaccessible but where opened:
 *
 *   heap:  [gap][heap arena, read-write][gap]
 *   slots: [gap][input 0, read-only][gap][input 1][gap] ... [dst, read-write][gap]
 *
 * A slot starts on a page; the destination's is a page longer than its
 * bytes when fewer than Q7_RED_ZONE bytes would follow them, and the
 * rest of its last page (past the runtime's red zone, Q7_FRAME_DST_ROOM)
 * holds a pattern checked after the call. The slots are pages of a memfd
 * mapped into the reservation (read-only for the inputs) and once more,
 * writable, for the copies in: a call laid out as the last costs no
 * system call. The reservation is made again, larger, when a call does
 * not fit; a layout unlike the last closes the whole reservation before
 * mapping its slots, so no page a former call opened stays open.
 *
 * A forked child (a DataLoader worker, multiprocessing's fork) would share
 * its parent's memfd, and a sibling's: its first call makes slots of its
 * own (docs/torch.md), told by q7_fork_count. */
#include "call_layout.h"
#include "host_confine.h"
#include "result.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GAP ((size_t)1 << 30)
struct q7_confine {
	size_t page;
	unsigned char *heap_map; /* the heap's reservation, gaps included */
	size_t heap_size;
	unsigned char *map;      /* the slots' reservation: the kernel's view */
	size_t map_size;
	int fd;                  /* the slots' memory (a memfd), -1: none yet */
	unsigned forks;          /* q7_fork_count when fd was made */
	unsigned char *rw;       /* all of it, writable: where inputs are copied */
	/* Offsets from the slots' reservation's start; page-rounded. */
	struct q7_slot slots[Q7_MAX_SLOTS], last[Q7_MAX_SLOTS];
	unsigned nslots, nlast;
	const struct q7_slot *dst; /* the destination's slot in this call, or NULL */
	/* The destination slot's first prefilled bytes already hold the
	 * pattern byte prefill (-1: none): refilled right after the last
	 * call's copy-out, while its pages are warm. */
	size_t prefilled;
	int prefill;
};

static unsigned char *reserve(size_t n)
{
	void *p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

struct q7_confine *q7_confine_new(size_t heap_size)
{
	struct q7_confine *cf = calloc(1, sizeof *cf);
	if (!cf)
		return NULL;
	cf->page = (size_t)sysconf(_SC_PAGESIZE);
	cf->fd = -1;
	cf->heap_size = (heap_size + cf->page - 1) & ~(cf->page - 1);
	cf->heap_map = reserve(cf->heap_size + 2 * GAP);
	if (!cf->heap_map ||
	    mprotect(cf->heap_map + GAP, cf->heap_size, PROT_READ | PROT_WRITE) != 0) {
		q7_confine_free(cf);
		return NULL;
	}
	return cf;
}

/* Unmaps the slots' views and closes their memory. */
static void free_map(struct q7_confine *cf)
{
	if (cf->map)
		munmap(cf->map, cf->map_size);
	if (cf->rw)
		munmap(cf->rw, cf->map_size);
	if (cf->fd >= 0)
		close(cf->fd);
	cf->map = cf->rw = NULL;
	cf->fd = -1;
	cf->map_size = 0;
}

void q7_confine_free(struct q7_confine *cf)
{
	if (!cf)
		return;
	if (cf->heap_map)
		munmap(cf->heap_map, cf->heap_size + 2 * GAP);
	free_map(cf);
	free(cf);
}

void *q7_confine_heap(const struct q7_confine *cf)
{
	return cf->heap_map + GAP;
}

bool q7_confine_owns(const struct q7_confine *cf, uint64_t addr)
{
	uint64_t h = (uint64_t)(uintptr_t)cf->heap_map, s = (uint64_t)(uintptr_t)cf->map;
	return (addr >= h && addr - h < cf->heap_size + 2 * GAP) ||
	       (cf->map && addr >= s && addr - s < cf->map_size);
}

/* ---- a call's layout ----------------------------------------------------- */

static bool overlaps_dst(const struct q7_call *c, const struct q7_slot *s)
{
	uint64_t a = q7_slot_desc(c, s)->data, d = c->dst.data, dn = q7_tensor_span(&c->dst);
	return s->arg >= 0 && d && a < d + dn && d < a + s->bytes;
}

static size_t pages(const struct q7_confine *cf, uint64_t n)
{
	size_t s = (size_t)((n + cf->page - 1) & ~(uint64_t)(cf->page - 1));
	return s ? s : cf->page;
}

/* The slots of c; the reservation's bytes they need. */
static size_t layout(struct q7_confine *cf, const struct q7_call *c)
{
	struct q7_slot all[Q7_MAX_SLOTS];
	unsigned n = q7_call_slots(c, all);
	size_t off = GAP;
	bool shared = false; /* the kernel's output is an input: left as it is */
	for (unsigned i = 0; i < n; i++)
		shared |= overlaps_dst(c, &all[i]);
	cf->nslots = 0;
	for (unsigned i = 0; i < n; i++) {
		if (all[i].arg < 0 ? shared : overlaps_dst(c, &all[i]))
			continue;
		struct q7_slot *s = &cf->slots[cf->nslots++];
		memcpy(s, &all[i], sizeof *s); /* its padding too: open_slots compares layouts */
		s->data = off;
		s->end = off + pages(cf, s->bytes + (s->arg < 0 ? Q7_RED_ZONE : 0));
		off = s->end + GAP;
	}
	return off;
}

/* The slots' memory, n bytes of a memfd (sparse: pages exist once
 * touched) seen twice: the kernel's view, inaccessible but where a slot
 * is mapped (read-only for an input), and one writable view. A layout
 * like the last costs no system call: no page changes its protection
 * from call to call. 0, or -1 (nothing changed). */
static int new_map(struct q7_confine *cf, size_t n)
{
	int fd = memfd_create("q7cc-slots", MFD_CLOEXEC);
	unsigned char *m = fd >= 0 && ftruncate(fd, (off_t)n) == 0 ? reserve(n) : NULL;
	void *rw = m ? mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0)
	             : MAP_FAILED;
	if (rw == MAP_FAILED) {
		if (m)
			munmap(m, n);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	free_map(cf);
	cf->map = m;
	cf->rw = rw;
	cf->fd = fd;
	cf->forks = q7_fork_count();
	cf->map_size = n;
	return 0;
}

/* The reservation ready for the slots: large enough, each slot mapped
 * (inputs read-only), and every page a former layout mapped inaccessible
 * again when this one differs. */
static int open_slots(struct q7_confine *cf, size_t need)
{
	bool same = cf->nslots == cf->nlast &&
	            memcmp(cf->slots, cf->last, cf->nslots * sizeof cf->slots[0]) == 0;
	if (need > cf->map_size) {
		size_t n = cf->map_size ? cf->map_size : 64 * GAP;
		while (n < need)
			n *= 2;
		if (new_map(cf, n) != 0)
			return -1;
		same = false;
	} else if (!same && mmap(cf->map, cf->map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
	                         MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
		return -1;
	}
	for (unsigned i = 0; i < cf->nslots && !same; i++) {
		const struct q7_slot *sl = &cf->slots[i];
		int prot = sl->arg >= 0 ? PROT_READ : PROT_READ | PROT_WRITE;
		if (mmap(cf->map + sl->data, sl->end - sl->data, prot, MAP_SHARED | MAP_FIXED, cf->fd,
		         (off_t)sl->data) == MAP_FAILED)
			return -1;
	}
	memcpy(cf->last, cf->slots, cf->nslots * sizeof cf->slots[0]);
	cf->nlast = cf->nslots;
	if (!same) /* the destination's slot elsewhere, or new pages */
		cf->prefilled = 0;
	return 0;
}

int q7_confine_enter(struct q7_confine *cf, const struct q7_call *c, struct q7_call *run)
{
	*run = *c;
	cf->dst = NULL;
	if (cf->map && cf->forks != q7_fork_count())
		free_map(cf); /* the parent's: let go of this process's views, make its own */
	if (open_slots(cf, layout(cf, c)) != 0) {
		cf->nlast = 0;
		return -1;
	}
	for (unsigned i = 0; i < cf->nslots; i++) {
		const struct q7_slot *s = &cf->slots[i];
		unsigned char *at = cf->map + s->data;
		if (s->arg >= 0) {
			if (s->bytes) /* through the writable view: the kernel's is read-only */
				memcpy(cf->rw + s->data, (const void *)(uintptr_t)q7_slot_desc(c, s)->data,
				       s->bytes);
			run->args[s->arg].u.tensor.data = (uint64_t)(uintptr_t)at;
			continue;
		}
		cf->dst = s;
		if (!c->dst_fresh)
			memcpy(at, (const void *)(uintptr_t)c->dst.data, s->bytes);
		else if (!(cf->prefill == q7_run_uninit_byte(c) && cf->prefilled >= s->bytes))
			q7_run_uninit_fill(at, s->bytes, c);
		cf->prefilled = 0;
		memset(at + s->bytes + Q7_RED_ZONE, Q7_PAD_BYTE,
		       s->end - s->data - s->bytes - Q7_RED_ZONE);
		run->dst.data = (uint64_t)(uintptr_t)at;
		run->dst_room = Q7_RED_ZONE;
	}
	return 0;
}

int q7_confine_leave(struct q7_confine *cf, const struct q7_call *c, const struct q7_call *run,
                     struct q7_run_result *r)
{
	const struct q7_slot *s = cf->dst;
	if (!s || r->status != Q7_STATUS_OK)
		return r->status != Q7_STATUS_OK;
	unsigned char *at = cf->map + s->data;
	if (q7_pad_check(r, c->op, at, s->bytes, (long long)(s->bytes + Q7_RED_ZONE),
	                 (long long)(s->end - s->data)))
		return 1;
	if (s->bytes)
		memcpy((void *)(uintptr_t)c->dst.data, at, s->bytes);
	if (r->out.data == run->dst.data)
		r->out.data = c->dst.data;
	if (c->dst_fresh) { /* the next call's fill, now */
		q7_run_uninit_fill((void *)at, s->bytes, c);
		cf->prefilled = s->bytes;
		cf->prefill = q7_run_uninit_byte(c);
	}
	return 0;
}

/* ---- a fault, named ------------------------------------------------------- */

void q7_confine_fault(const struct q7_confine *cf, const char *op, uint64_t addr, bool write,
                      struct q7_run_result *r)
{
	const char *did = write ? "wrote" : "read";
	uint64_t h = (uint64_t)(uintptr_t)cf->heap_map + GAP;
	if (addr + GAP >= h && addr < h + cf->heap_size + GAP) {
		q7_run_outside(r, op, did, Q7_RUN_HEAP, 0, (long long)(addr - h));
		return;
	}
	long long at = 0;
	const struct q7_slot *s = q7_slot_nearest(cf->slots, cf->nslots,
	                                          addr - (uint64_t)(uintptr_t)cf->map, &at);
	if (!s) {
		q7_run_fail(r, "%s: the kernel %s outside its memory, at address 0x%llx; a kernel writes "
		            "only into its output and its own allocations", op, did,
		            (unsigned long long)addr);
		r->status = Q7_STATUS_KERNEL_ERROR;
		return;
	}
	if (s->arg >= 0 && write && at >= 0) /* the engine words it again with the argument's name */
		q7_run_changed(r, op, (unsigned)s->arg, (uint64_t)at, (uint64_t)at >= s->bytes, s->bytes);
	else
		q7_run_outside(r, op, did, s->arg, s->bytes, at);
}
