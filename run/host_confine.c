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
 * own (docs/torch.md). An atfork handler counts the forks, so a call
 * still costs no system call. */
#include "host_confine.h"
#include "result.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GAP ((size_t)1 << 30)
#define MAX_SLOTS (Q7_MAX_ARGS + 1)

struct slot {
	size_t off, span; /* from the slots' reservation's start; page-rounded */
	uint64_t bytes;
	int arg;          /* the argument's index; -1: the destination */
};

struct q7_confine {
	size_t page;
	unsigned char *heap_map; /* the heap's reservation, gaps included */
	size_t heap_size;
	unsigned char *map;      /* the slots' reservation: the kernel's view */
	size_t map_size;
	int fd;                  /* the slots' memory (a memfd), -1: none yet */
	unsigned forks;          /* the process's forks when fd was made */
	unsigned char *rw;       /* all of it, writable: where inputs are copied */
	struct slot slots[MAX_SLOTS], last[MAX_SLOTS];
	unsigned nslots, nlast;
	const struct slot *dst;  /* the destination's slot in this call, or NULL */
	/* The destination slot's first prefilled bytes already hold the
	 * pattern byte prefill (-1: none): refilled right after the last
	 * call's copy-out, while its pages are warm. */
	size_t prefilled;
	int prefill;
};

static unsigned forks; /* in this process's line of forks, counted in children */
static pthread_once_t count_forks_once = PTHREAD_ONCE_INIT;

static void forked(void)
{
	forks++;
}

static void count_forks(void)
{
	pthread_atfork(NULL, NULL, forked);
}

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
	pthread_once(&count_forks_once, count_forks);
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

static bool overlaps_dst(const struct q7_call *c, unsigned i)
{
	uint64_t a = c->args[i].u.tensor.data, an = q7_tensor_span(&c->args[i].u.tensor);
	uint64_t d = c->dst.data, dn = q7_tensor_span(&c->dst);
	return d && a < d + dn && d < a + an;
}

static size_t pages(const struct q7_confine *cf, uint64_t n)
{
	size_t s = (size_t)((n + cf->page - 1) & ~(uint64_t)(cf->page - 1));
	return s ? s : cf->page;
}

/* The slots of c; the reservation's bytes they need. dst: whether the
 * destination gets one. */
static size_t layout(struct q7_confine *cf, const struct q7_call *c, bool *dst)
{
	size_t off = GAP;
	cf->nslots = 0;
	*dst = c->dst.data != 0;
	for (unsigned i = 0; i < c->nargs; i++)
		if (c->args[i].kind == Q7_ARG_TENSOR && overlaps_dst(c, i))
			*dst = false; /* the kernel's output is then that input: left as it is */
	for (int i = 0; i <= (int)c->nargs; i++) {
		bool is_dst = i == (int)c->nargs;
		if (is_dst ? !*dst : c->args[i].kind != Q7_ARG_TENSOR || overlaps_dst(c, (unsigned)i))
			continue;
		struct slot *s = &cf->slots[cf->nslots++];
		s->arg = is_dst ? -1 : i;
		s->bytes = q7_tensor_span(is_dst ? &c->dst : &c->args[i].u.tensor);
		s->span = pages(cf, s->bytes + (is_dst ? Q7_RED_ZONE : 0));
		s->off = off;
		off += s->span + GAP;
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
	cf->forks = forks;
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
		const struct slot *sl = &cf->slots[i];
		int prot = sl->arg >= 0 ? PROT_READ : PROT_READ | PROT_WRITE;
		if (mmap(cf->map + sl->off, sl->span, prot, MAP_SHARED | MAP_FIXED, cf->fd,
		         (off_t)sl->off) == MAP_FAILED)
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
	bool dst;
	*run = *c;
	cf->dst = NULL;
	if (cf->map && cf->forks != forks)
		free_map(cf); /* the parent's: let go of this process's views, make its own */
	if (open_slots(cf, layout(cf, c, &dst)) != 0) {
		cf->nlast = 0;
		return -1;
	}
	for (unsigned i = 0; i < cf->nslots; i++) {
		const struct slot *s = &cf->slots[i];
		unsigned char *at = cf->map + s->off;
		if (s->arg >= 0) {
			if (s->bytes) /* through the writable view: the kernel's is read-only */
				memcpy(cf->rw + s->off, (const void *)(uintptr_t)c->args[s->arg].u.tensor.data,
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
		memset(at + s->bytes + Q7_RED_ZONE, 0xa5, s->span - s->bytes - Q7_RED_ZONE);
		run->dst.data = (uint64_t)(uintptr_t)at;
		run->dst_room = Q7_RED_ZONE;
	}
	return 0;
}

/* The first byte of p[0..n) that is not 0xa5 (n when none): a memcmp a
 * 256-byte chunk, then bytes. */
static size_t tail_changed(const unsigned char *p, size_t n)
{
	static unsigned char a5[256];
	if (a5[0] != 0xa5)
		memset(a5, 0xa5, sizeof a5);
	size_t at = 0;
	while (at < n && memcmp(p + at, a5, n - at < sizeof a5 ? n - at : sizeof a5) == 0)
		at += n - at < sizeof a5 ? n - at : sizeof a5;
	while (at < n && p[at] == 0xa5)
		at++;
	return at;
}

int q7_confine_leave(struct q7_confine *cf, const struct q7_call *c, const struct q7_call *run,
                     struct q7_run_result *r)
{
	const struct slot *s = cf->dst;
	if (!s || r->status != Q7_STATUS_OK)
		return r->status != Q7_STATUS_OK;
	unsigned char *at = cf->map + s->off;
	size_t tail = s->span - s->bytes - Q7_RED_ZONE;
	size_t k = tail_changed(at + s->bytes + Q7_RED_ZONE, tail);
	if (k < tail)
		return q7_run_outside(r, c->op, "wrote", Q7_RUN_DST, s->bytes,
		                      (long long)(s->bytes + Q7_RED_ZONE + k));
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

/* The slot off lies in, or else the nearest one (*before: off lies before
 * its start); NULL with no slot. */
static const struct slot *nearest(const struct q7_confine *cf, uint64_t off, bool *before)
{
	const struct slot *best = NULL;
	uint64_t dist = UINT64_MAX;
	for (unsigned i = 0; i < cf->nslots; i++) {
		const struct slot *s = &cf->slots[i];
		bool b = off < s->off;
		uint64_t d = b ? s->off - off : off < s->off + s->span ? 0 : off - s->off - s->span;
		if (d < dist) {
			dist = d;
			best = s;
			*before = b;
		}
	}
	return best;
}

void q7_confine_fault(const struct q7_confine *cf, const char *op, uint64_t addr, bool write,
                      struct q7_run_result *r)
{
	const char *did = write ? "wrote" : "read";
	uint64_t h = (uint64_t)(uintptr_t)cf->heap_map + GAP;
	if (addr + GAP >= h && addr < h + cf->heap_size + GAP) {
		q7_run_outside(r, op, did, Q7_RUN_HEAP, 0, (long long)(addr - h));
		return;
	}
	uint64_t off = addr - (uint64_t)(uintptr_t)cf->map;
	bool before = false;
	const struct slot *s = nearest(cf, off, &before);
	if (!s) {
		q7_run_fail(r, "%s: the kernel %s outside its memory, at address 0x%llx; a kernel writes "
		            "only into its output and its own allocations", op, did,
		            (unsigned long long)addr);
		r->status = Q7_STATUS_KERNEL_ERROR;
		return;
	}
	long long at = (long long)(off - s->off);
	if (s->arg >= 0 && write && !before) /* the engine words it again with the argument's name */
		q7_run_changed(r, op, (unsigned)s->arg, (uint64_t)at, (uint64_t)at >= s->bytes, s->bytes);
	else
		q7_run_outside(r, op, did, s->arg, s->bytes, at);
}
