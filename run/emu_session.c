/* run/emu_session: a persistent emulated core (emu_session.h).
 *
 * Owns one qemu-system-xtensa -M sim -cpu lx106 running q7boot.elf, the
 * files it loads at start (the boot block and each core's prelinked
 * image, in a directory of q7cc's temporary directory), the socket that
 * is its fd 3 (calls in) and fd 4 (records out). How a call's bytes go
 * through the core's RAM (emu_ram.h): docs/emulated.md, "The emulated
 * machine"; its header, frames and records go on the socket, all with
 * the call's deadline.
 *
 * Memory: the session owns everything it allocates; a call's result owns
 * its out_data (engine.h). */
#include "bytes.h"
#include "emu_confine.h"
#include "emu_session.h"
#include "emu_launch.h"
#include "emu_ram.h"
#include "emu_trace.h"
#include "elf_lines.h"
#include "elf_syms.h"
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "q7/boot.h"
#include "run_image.h"
#include "npy.h"
#include "prelink.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

/* ---- a call ------------------------------------------------------------ */

/* The red zone after a slot's bytes: an input's, or 0. */
static size_t zone_of(const struct q7_slot *sl)
{
	return sl->end - sl->data - sl->bytes;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* linux/mman.h, Linux 5.14 */
#endif
#define POPULATE_MIN (1u << 20) /* below, the pages a memcpy faults in cost little */

/* red: the red zone's bytes after the destination (Q7_FRAME_DST_ROOM),
 * or 0; in_red: those after each input (filled and checked here:
 * q7_run_inputs_zones), or 0. */
static int make_layout(const struct q7_call *req, size_t red, size_t in_red, struct layout *L,
                       struct q7_run_result *r)
{
	memset(L, 0, sizeof *L);
	memcpy(L->args, req->args, sizeof L->args);
	L->dst = req->dst;
	size_t off = 0;
	L->n = q7_call_slots(req, L->slot);
	for (unsigned i = 0; i < L->n; i++) {
		struct q7_slot *sl = &L->slot[i];
		bool dst = sl->arg < 0;
		off = (off + TENSOR_ALIGN - 1) & ~(size_t)(TENSOR_ALIGN - 1);
		uint64_t numel, extent;
		if (!q7_tensor_bytes(q7_slot_desc(req, sl), &numel, &extent)) {
			char what[32] = "the destination";
			if (!dst)
				snprintf(what, sizeof what, "argument %d", sl->arg + 1);
			q7_run_fail(r, "%s: its dtype, sizes or strides describe no tensor", what);
			return -1;
		}
		size_t n = (size_t)sl->bytes;
		if (n > Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA || off + n > Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) {
			q7_run_fail(r, "the tensors (%zu bytes and more) do not fit the emulated core's "
			            "RAM (%u MiB)", off + n, (Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) >> 20);
			return -1;
		}
		uint32_t addr = Q7_BOOT_DATA_AREA + (uint32_t)off;
		sl->data = addr;
		if (dst) {
			L->dst.data = addr;
			L->dst_addr = addr;
			L->dst_bytes = n;
		} else {
			L->args[sl->arg].u.tensor.data = addr;
		}
		/* an input's zone reaches the next tensor's 64-byte boundary */
		size_t zone = in_red && !dst ? ((n + in_red + TENSOR_ALIGN - 1) &
		                                ~(size_t)(TENSOR_ALIGN - 1)) - n : 0;
		sl->end = addr + n + zone;
		off += n + (dst ? red : zone);
	}
	L->size = off;
	uint32_t heap = (Q7_BOOT_DATA_AREA + (uint32_t)off + DST_MOAT + HEAP_ALIGN - 1) &
	                ~(HEAP_ALIGN - 1);
	uint32_t room = heap < Q7_BOOT_RAM_END ? Q7_BOOT_RAM_END - heap : 0;
	/* By default all the RAM the tensors leave: the arena is as large as
	 * a kernel needs, and QEMU maps only the pages it touches. */
	size_t want = req->heap_size ? req->heap_size : room;
	if (want > room || room == 0) {
		q7_run_fail(r, "a heap arena of %zu bytes does not fit the emulated core's RAM beside "
		            "the tensors (%u bytes left)", want, room);
		return -1;
	}
	L->heap = heap;
	L->heap_size = (uint32_t)want;
	return 0;
}

/* "core N: " before a message of a multicore session, else nothing. */
static const char *who(const struct q7_emu_session *s, unsigned core, char *buf, size_t size)
{
	if (s->cores > 1)
		snprintf(buf, size, "core %u: ", core);
	else
		buf[0] = 0;
	return buf;
}

/* Ends the call after a failure that leaves QEMU unusable (fmt NULL:
 * r already says why). -1, r failed with fmt. */
static int Q7_PRINTF(3, 4) lost(struct q7_emu_session *s, struct q7_run_result *r,
                                const char *fmt, ...)
{
	q7_emu_stop_qemu(s, NULL);
	s->c.busy = false;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		q7_err_vset(&Q7_ERR_OF(r->message), NULL, fmt, ap);
		va_end(ap);
		r->status = -1;
	}
	return -1;
}

/* The time-out's message: the library, the op and the core that was
 * running. -1. */
static int timed_out(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	char where[64];
	if (s->cores == 1)
		snprintf(where, sizeof where, "on the emulated core");
	else if (!s->ready) /* still booting */
		snprintf(where, sizeof where, "on the emulated cores");
	else
		snprintf(where, sizeof where, "on emulated core %u of %u", c->first + c->done, s->cores);
	/* The library is named as every other failure of a run names it: a
	 * damaged image may spin as well as fault. */
	char share[96] = "";
	if (c->timeout - c->base_timeout >= 0.01)
		snprintf(share, sizeof share, ": %g s and %.3g s for its %.3g MiB of tensors",
		         c->base_timeout, c->timeout - c->base_timeout,
		         (double)c->L.size / (1 << 20));
	/* The figure to set for a kernel that only needs longer (a float
	 * kernel on device-sized tensors: docs/emulated.md): the base that
	 * doubles this call's limit, its tensors' share kept. */
	double twice = c->timeout + c->base_timeout;
	return lost(s, r, "%s: %s: timed out after %.3g s%s %s (QEMU stopped); a kernel that never "
	                  "returns? --timeout=SECONDS sets the limit (one that needs longer: "
	                  "--timeout=%.*g gives this call twice the time)", s->lib, c->op, c->timeout,
	                  share, where, twice < 1000 ? 3 : 6, twice);
}

/* I/O failed with rc: a time-out, or QEMU ended. -1 after q7_run_fail(). */
static int io_failed(struct q7_emu_session *s, int rc, struct q7_run_result *r)
{
	if (rc == IO_TIMEOUT)
		return timed_out(s, r);
	if (rc == IO_INTERRUPTED)
		return lost(s, r, "%s: interrupted (QEMU stopped)", s->c.op);
	char how[96], w[32];
	q7_emu_describe_end(s, how, sizeof how);
	s->c.busy = false;
	q7_run_fail(r, "%s%s: the emulated core gave no result (qemu-system-xtensa %s)",
	            who(s, s->c.first + s->c.done, w, sizeof w), s->lib, how);
	return -1;
}

/* Starts the session's call c for req: checks it against the session,
 * lays its tensors out and says where its result comes back. 0, or -1
 * after q7_run_fail(). */
static int begin_call(struct q7_emu_session *s, const struct q7_call *req, int only_core,
                      struct q7_run_result *r)
{
	struct call *c = &s->c;
	if (c->busy) /* a call sent and never received: its records would come first */
		q7_emu_stop_qemu(s, NULL);
	memset(c, 0, sizeof *c);
	if (req->cores && req->cores != s->cores) {
		q7_run_fail(r, "the emulated session runs %u core%s, the call asks for %u", s->cores,
		            s->cores == 1 ? "" : "s", req->cores);
		return -1;
	}
	if (s->cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", s->cores);
		return -1;
	}
	if (only_core >= (int)s->cores) {
		q7_run_fail(r, "core %d of a session of %u", only_core, s->cores);
		return -1;
	}
	c->req = req;
	snprintf(c->op, sizeof c->op, "%s", req->op);
	c->t0 = q7_now_s();
	c->base_timeout = req->timeout_s > 0 ? req->timeout_s : s->timeout;
	c->whole = only_core >= 0;
	c->first = c->whole ? (unsigned)only_core : 0;
	c->n = c->whole ? 1 : s->cores;
	c->seq = ++s->seq;
	bool zones = !(s->unchecked & Q7_UNCHECKED_ZONES);
	bool in_zones = !c->whole && !(s->unchecked & Q7_UNCHECKED_INPUTS);
	if (make_layout(req, zones ? Q7_RED_ZONE : 0, in_zones ? INPUT_MOAT : 0, &c->L, r) != 0)
		return -1;
	c->inputs_back = !c->whole && !(s->unchecked & Q7_UNCHECKED_INPUTS) && c->L.n > (c->L.dst_bytes ? 1u : 0u);
	c->anywhere = !c->whole && c->L.dst_bytes && s->cores == 1;
	/* The whole data compared core by core (the race check) must be
	 * what was sent: there the destination's bytes go as they are. */
	c->dst_zeroed = !c->whole && c->L.dst_bytes && req->dst_fresh;
	c->timeout = c->base_timeout + (double)c->L.size / BYTES_PER_S;
	c->deadline = c->t0 + c->timeout;
	if (c->whole || c->inputs_back) {
		/* The whole data; with one core and a destination the inputs
		 * only (the destination, last, comes back as the out tensor). */
		c->back_addr = Q7_BOOT_DATA_AREA;
		c->back_bytes = c->anywhere ? c->L.dst_addr - Q7_BOOT_DATA_AREA : c->L.size;
	} else if (c->L.dst_bytes && !c->anywhere) {
		c->back_addr = c->L.dst_addr;
		c->back_bytes = c->L.dst_bytes;
	}
	return 0;
}

/* Faults in the pages of [p, p + n) for writing, in one call: a fresh
 * destination of 256 MiB took 0.70 s page by page under memcpy, 0.36 s
 * populated first (a kernel without MADV_POPULATE_WRITE, before 5.14,
 * leaves it to memcpy). The buffer's new pages too. */
static void populate(void *p, size_t n)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
	if (n >= POPULATE_MIN && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

/* The session's buffer holds n bytes: its new pages made in one call, a
 * larger call's pages beyond given back. */
static void size_data(struct q7_emu_session *s, size_t n)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	n = (n + page - 1) & ~(page - 1);
	if (n > s->data_size)
		populate(s->data + s->data_size, n - s->data_size);
	else if (n < s->data_size)
		(void)madvise(s->data + n, s->data_size - n, MADV_DONTNEED);
	s->data_size = n;
}

/* n bytes from p as one more iovec of v (grown as needed). */
static void add_bytes(struct iovec **v, size_t *nv, size_t *cap, const void *p, size_t n)
{
	Q7_GROW(*v, *cap, *nv + 1);
	(*v)[(*nv)++] = (struct iovec){(void *)(uintptr_t)p, n};
}

/* n zeros as iovecs onto v. */
static void add_zeros(struct iovec **v, size_t *nv, size_t *cap, size_t n)
{
	static const unsigned char zeros[4096];
	for (size_t k; n; n -= k) {
		k = n < sizeof zeros ? n : sizeof zeros;
		add_bytes(v, nv, cap, zeros, k);
	}
}

/* Writes the call's tensors into the core's RAM from the caller's buffers
 * (zeros between them, a red zone after each input; a zeroed destination
 * and the red zone after it left to the core): the bytes written, how
 * many. 0, or -1 after q7_run_fail(). */
static int fill_data(struct q7_emu_session *s, size_t *bytes, struct q7_run_result *r)
{
	struct call *c = &s->c;
	size_t n = c->dst_zeroed ? c->L.dst_addr - Q7_BOOT_DATA_AREA : c->L.size;
	size_t most = 0; /* every zone the pattern from its start: one buffer for all */
	for (unsigned i = 0; i < c->L.n; i++)
		most = zone_of(&c->L.slot[i]) > most ? zone_of(&c->L.slot[i]) : most;
	unsigned char *red = q7_xmalloc(most ? most : 1);
	q7_run_red_zone_fill(red, most);
	struct iovec *v = NULL;
	size_t nv = 0, cap = 0, at = 0;
	for (unsigned i = 0; i < c->L.n && at < n; i++) {
		const struct q7_slot *sl = &c->L.slot[i];
		size_t off = sl->data - Q7_BOOT_DATA_AREA, z = zone_of(sl);
		if (off >= n)
			break;
		add_zeros(&v, &nv, &cap, off - at);
		if (sl->bytes)
			add_bytes(&v, &nv, &cap, (const void *)(uintptr_t)q7_slot_desc(c->req, sl)->data,
			          sl->bytes);
		at = off + sl->bytes;
		if (z && at + z <= n) { /* an input's red zone */
			add_bytes(&v, &nv, &cap, red, z);
			at += z;
		}
	}
	if (n > at) /* the destination's red zone: the runtime fills it */
		add_zeros(&v, &nv, &cap, n - at);
	int rc = nv ? q7_emu_ram_io(s->pid, s->ram, true, v, (int)nv, Q7_BOOT_DATA_AREA) : 0;
	int e = errno;
	free(v);
	free(red);
	if (rc != 0) {
		q7_run_fail(r, "%s: cannot write the call's %zu bytes into the emulated core's RAM: %s",
		            c->op, n, strerror(e));
		return -1;
	}
	*bytes = n;
	return 0;
}

/* Sends the call c, its data_bytes in the core's RAM: its header and one
 * frame per core on the socket. IO_OK or why not. */
static int send_call(struct q7_emu_session *s, const struct q7_call *req, size_t data_bytes)
{
	struct call *c = &s->c;
	struct q7_boot_call h;
	memset(&h, 0, sizeof h);
	h.magic = Q7_CALL_MAGIC;
	h.version = Q7_BOOT_VERSION;
	h.seq = c->seq;
	h.first = c->first;
	h.ncores = c->n;
	h.data_bytes = (uint32_t)data_bytes;
	h.zero_bytes = (uint32_t)(c->L.size - data_bytes);
	/* a fresh output starts as the pattern every target gives it */
	h.fill = c->dst_zeroed ? q7_run_uninit_byte(req) : 0;
	h.back_addr = c->back_addr;
	h.back_bytes = (uint32_t)c->back_bytes;
	h.out_max = (uint32_t)c->L.dst_bytes;
	/* Past our own deadline (which normally stops QEMU first), the boot
	 * program stops by itself: no core spins on if this process is gone.
	 * Under -icount CCOUNT counts instructions, not time: no limit then. */
	double limit_ms = c->timeout * 1000.0 + 2000.0;
	if (!s->icount && limit_ms <= Q7_BOOT_MAX_TIME_LIMIT_MS)
		h.time_limit_ms = (uint32_t)limit_ms;
	struct q7_frame *frames = q7_xcalloc(c->n, sizeof *frames);
	for (unsigned k = 0; k < c->n; k++) {
		struct q7_frame *f = &frames[k];
		q7_run_frame_init(f, req, c->first + k, s->cores);
		memcpy(f->args, c->L.args, sizeof f->args); /* core addresses */
		f->dst = c->L.dst;
		f->heap_base = c->L.heap;
		f->heap_size = c->L.heap_size;
		f->loader_flags = c->anywhere ? Q7_FRAME_RESULT_ANYWHERE : 0;
		f->loader_flags |= s->unchecked & Q7_UNCHECKED_ZONES ? Q7_FRAME_UNCHECKED
		                                                     : Q7_FRAME_DST_ROOM | Q7_FRAME_DST_MOAT;
	}
	struct iovec iov[2] = {{&h, sizeof h}, {frames, c->n * sizeof *frames}};
	c->busy = true;
	int rc = q7_emu_transfer(s, true, iov, 2, c->deadline);
	free(frames);
	return rc;
}

static void boot_failure(struct q7_emu_session *s, const struct q7_boot_result *br,
                         struct q7_run_result *r);

/* The boot of a new QEMU: its READY record, then its RAM found in its
 * memory, before the call's tensors are written there. 0, or -1 after
 * q7_run_fail(). */
static int await_ready(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct q7_boot_result br;
	int rc = q7_emu_recv_all(s, &br, sizeof br, s->c.deadline);
	if (rc != IO_OK)
		return io_failed(s, rc, r);
	br.message[sizeof br.message - 1] = 0;
	if (br.magic != Q7_RESULT_MAGIC || br.version != Q7_BOOT_VERSION ||
	    br.kind != Q7_RESULT_READY) {
		return lost(s, r, "%s: the boot program's first record is damaged (magic 0x%08x, version "
		                  "%u; q7boot.elf of another q7cc?)", s->lib, br.magic, br.version);
	}
	if (br.boot_status != Q7_BOOT_OK) {
		boot_failure(s, &br, r);
		return lost(s, r, NULL);
	}
	s->ready = true;
	if (s->stats)
		fprintf(s->stats, "%s: emulated session: QEMU booted in %.3f s\n", q7_progname(),
		        q7_now_s() - s->boot_t0);
	char why[Q7_MESSAGE_SIZE];
	s->ram = q7_emu_ram_find(s->pid, &s->block, sizeof s->block, &Q7_ERR_OF(why));
	if (!s->ram)
		return lost(s, r, "%s", why);
	return 0;
}

int q7_emu_send(struct q7_emu_session *s, const struct q7_call *req, int only_core,
                struct q7_run_result *r)
{
	if (begin_call(s, req, only_core, r) != 0)
		return -1;
	/* A QEMU that ended since (killed from outside) is replaced. */
	if (s->pid > 0 && q7_emu_qemu_gone(s, NULL))
		q7_emu_stop_qemu(s, NULL);
	if (s->pid <= 0 && q7_emu_start_qemu(s, r) != 0)
		return -1;
	fflush(stdout); /* our output first, then the kernel's */
	fflush(stderr);
	s->st.calls++;
	size_t data_bytes;
	if ((!s->ready && await_ready(s, r) != 0) || fill_data(s, &data_bytes, r) != 0)
		return -1;
	int rc = send_call(s, req, data_bytes);
	/* QEMU that stopped reading may have said why (a bad image): read on. */
	if (rc == IO_TIMEOUT || rc == IO_INTERRUPTED)
		return io_failed(s, rc, r);
	return 0;
}

/* libgcc's division routines BREAK on a zero divisor, and so do the
 * runtime's general cases of the 32-bit ones, q7sf_<name>_slow
 * (runtime/src/softfp/int32_div.c), which their fast paths jump to. */
static bool is_division(const char *nm)
{
	static const char *const div[] = {"divsi3", "udivsi3", "modsi3", "umodsi3",
	                                  "divdi3", "udivdi3", "moddi3", "umoddi3"};
	size_t len = strlen(nm);
	bool slow = strncmp(nm, "q7sf_", 5) == 0 && len > 10 && strcmp(nm + len - 5, "_slow") == 0;
	for (size_t i = 0; i < sizeof div / sizeof div[0]; i++)
		if (slow ? len - 10 == strlen(div[i]) && strncmp(nm + 5, div[i], len - 10) == 0
		         : strncmp(nm, "__", 2) == 0 && strcmp(nm + 2, div[i]) == 0)
			return true;
	return false;
}

/* Where core's image stopped at pc, from the image's symbols (placed as
 * the prelinker placed it) and, linked with -g, its line table:
 * " in <name>+0x<offset> at <file>:<line>", or "". In a division routine
 * (*divides), which has no line of the kernel's, the caller's: its
 * return address ra (a leaf's a0, call0 ABI) names the function and the
 * line of the division. */
static void function_at(const struct q7_emu_session *s, unsigned core, uint32_t pc, uint32_t ra,
                        char *fn, size_t size, bool *divides)
{
	fn[0] = 0;
	*divides = false;
	const struct q7_pl_header *h = core < s->cores ? &s->hdr[core] : NULL;
	struct q7_syms syms = {0};
	char err[Q7_MESSAGE_SIZE];
	/* the linked (unstripped) image, as the profiler reads it */
	int rc = h ? q7_syms_load(s->linked.v[core], h->base - h->link_base, &syms,
	                          &Q7_ERR_OF(err)) : -1;
	const struct q7_sym *y = rc == 0 ? q7_syms_find(&syms, pc) : NULL;
	if (y) {
		size_t k = (size_t)snprintf(fn, size, " in %s+0x%x", y->name, pc - y->addr);
		*divides = is_division(y->name);
		uint32_t at = pc;
		const struct q7_sym *caller = *divides && ra ? q7_syms_find(&syms, ra - 1) : NULL;
		if (caller && k < size) {
			at = ra - 1; /* inside the call instruction */
			k += (size_t)snprintf(fn + k, size - k, ", called from %s+0x%x", caller->name,
			                      ra - caller->addr);
		}
		char line[256];
		if (k < size && at - h->base < h->load_size &&
		    q7_lines_find(s->linked.v[core], at - h->base + h->link_base, line, sizeof line) == 0)
			snprintf(fn + k, size - k, " at %s", line);
	}
	q7_syms_free(&syms);
}

/* The Xtensa ISA's exception causes (EXCCAUSE), named as the ISA names
 * them, with what each means for a kernel. */
static const struct exc_cause {
	uint32_t cause;
	const char *name, *meaning;
} exc_causes[] = {
	{0, "IllegalInstruction", "an instruction the core does not have"},
	{1, "Syscall", "a SYSCALL instruction"},
	{2, "InstructionFetchError", "an error fetching an instruction"},
	{3, "LoadStoreError", "an error on a load or store"},
	{4, "Level1Interrupt", "a level-1 interrupt"},
	{5, "Alloca", "a MOVSP the window could not take"},
	{6, "IntegerDivideByZero", "an integer division by zero"},
	{8, "Privileged", "a privileged instruction"},
	{9, "LoadStoreAlignment", "a misaligned load or store"},
	{12, "InstrPIFDataError", "a bus error fetching an instruction"},
	{13, "LoadStorePIFDataError", "a bus error on a load or store"},
	{14, "InstrPIFAddrError", "an instruction fetch from an address with no memory"},
	{15, "LoadStorePIFAddrError", "a load or store at an address with no memory"},
	{16, "InstTLBMiss", "an instruction fetch the TLB does not map"},
	{17, "InstTLBMultiHit", "an instruction fetch the TLB maps twice"},
	{18, "InstFetchPrivilege", "an instruction fetch from privileged memory"},
	{20, "InstFetchProhibited", "an instruction fetch from memory that may not be executed"},
	{24, "LoadStoreTLBMiss", "a load or store the TLB does not map"},
	{25, "LoadStoreTLBMultiHit", "a load or store the TLB maps twice"},
	{26, "LoadStorePrivilege", "a load or store to privileged memory"},
	{28, "LoadProhibited", "a load from memory that may not be read"},
	{29, "StoreProhibited", "a store to memory that may not be written"},
};

/* The row of cause: the coprocessor causes (32-39) and the reserved ones
 * share one each. */
static const struct exc_cause *exc_row(uint32_t cause)
{
	static const struct exc_cause coprocessor = {
		32, "CoprocessorDisabled", "a coprocessor instruction while the coprocessor is off"};
	static const struct exc_cause reserved = {
		0, "a cause the ISA reserves", "an exception this core should not raise"};
	for (size_t i = 0; i < sizeof exc_causes / sizeof exc_causes[0]; i++)
		if (exc_causes[i].cause == cause)
			return &exc_causes[i];
	return cause >= 32 && cause <= 39 ? &coprocessor : &reserved;
}

/* An exception cause as the host words its signal. */
static const char *host_words(uint32_t cause)
{
	switch (cause) {
	case 0: return "illegal instruction";
	case 6: return "integer division by zero";
	case 9: return "unaligned access";
	case 3: case 13: case 15: case 28: case 29: return "invalid memory access";
	default: return exc_row(cause)->meaning;
	}
}

/* What a boot status other than OK says. */
static void boot_failure(struct q7_emu_session *s, const struct q7_boot_result *br,
                         struct q7_run_result *r)
{
	char w[32];
	const char *pre = who(s, br->core, w, sizeof w);
	/* The image the core ran: a damaged one is named. */
	const char *image = br->core < s->cores && s->image[br->core] ? s->image[br->core] : s->lib;
	/* Where in the linked image, for addr2line on the .so. */
	const struct q7_pl_header *h = br->core < s->cores ? &s->hdr[br->core] : NULL;
	char where[64] = "";
	if (h && br->exc_pc >= h->base && br->exc_pc - h->base < h->load_size)
		snprintf(where, sizeof where, " (0x%08x in the linked image)",
		         br->exc_pc - h->base + h->link_base);
	char fn[384];
	bool divides;
	function_at(s, br->core, br->exc_pc, br->exc_ra, fn, sizeof fn, &divides);
	if (br->boot_status == Q7_BOOT_EXCEPTION) {
		q7_run_fail(r, "%s%s: the kernel crashed: %s%s, at pc 0x%08x%s, address 0x%08x (the core "
		            "took an %s: EXCCAUSE %u (%s: %s))", pre, image, host_words(br->exc_cause),
		            fn, br->exc_pc, where, br->exc_vaddr, br->message, br->exc_cause,
		            exc_row(br->exc_cause)->name, exc_row(br->exc_cause)->meaning);
	} else if (br->boot_status == Q7_BOOT_BREAK) {
		/* DEBUGCAUSE bits 3 and 4: BREAK and BREAK.N. */
		q7_run_fail(r, "%s%s: the kernel crashed: %s%s, at pc 0x%08x%s (the core stopped at a %s "
		            "(DEBUGCAUSE 0x%x))", pre, image,
		            divides ? "integer division by zero" : "__builtin_trap or a breakpoint", fn,
		            br->exc_pc, where,
		            br->exc_cause & 0x18 ? "BREAK instruction (__builtin_trap, or a breakpoint)"
		                                 : "debug exception",
		            br->exc_cause);
	} else {
		q7_run_fail(r, "%s%s: the boot program stopped: %s", pre, image, br->message);
	}
}

static void print_stats(const struct q7_emu_session *s, const struct q7_boot_result *br,
                        const struct q7_frame *f)
{
	uint32_t cycles = br->ccount_end - br->ccount_start;
	fprintf(s->stats, "%s: emulated core %u: %u cycles", q7_progname(), br->core, cycles);
	if (s->icount) {
		/* The entry's instructions: the same count as a profile's. */
		unsigned long long ns_per = 1ull << ICOUNT_SHIFT;
		unsigned long long ns = (unsigned long long)cycles * 1000000ull / Q7_BOOT_CCOUNT_KHZ;
		unsigned long long n = (ns + ns_per / 2) / ns_per;
		fprintf(s->stats, ", %llu instructions", n > ENTRY_CALL_OVERHEAD ? n - ENTRY_CALL_OVERHEAD : 0);
	}
	fprintf(s->stats, ", stack %u bytes%s\n", br->stack_used,
	        f->switched_stack ? ", switched stack" : "");
}

/* The caller's destination from what came back (not for a race check's
 * call, whose whole data is merged by the caller): the destination
 * itself; on one core, a returned tensor the runtime left where it lies
 * (Q7_FRAME_RESULT_ANYWHERE), either an input handed back or the out
 * tensor after them, when it is the destination's (it starts there: the
 * kernel wrote get_dst_tensor(), or the op list) or as many bytes (the
 * runtime would have copied it there). */
static void deliver_dst(struct q7_emu_session *s)
{
	struct call *c = &s->c;
	if (!c->L.dst_bytes || c->whole)
		return;
	uint64_t out = c->frame.out.data;
	const unsigned char *from = NULL;
	size_t n = c->L.dst_bytes;
	unsigned char *to = (unsigned char *)(uintptr_t)c->req->dst.data;
	if (!c->anywhere) {
		from = s->data + (c->L.dst_addr - c->back_addr);
	} else if (c->out_bytes) { /* read_last read it into the destination, or not */
		from = c->out == to ? to : NULL;
		n = c->out_bytes;
	} else if (out >= c->back_addr && out + n <= (uint64_t)c->back_addr + c->back_bytes) {
		from = s->data + (out - c->back_addr);
	}
	if (from && from != to) {
		populate(to, n);
		memcpy(to, from, n);
	}
	c->in_dst = from != NULL;
}

/* The first rule of docs/runtime.md: each input as the core left it
 * against the caller's bytes it was sent from. 0, or 1 with r set. */
static int inputs_changed(const struct q7_emu_session *s, struct q7_run_result *r)
{
	const struct call *c = &s->c;
	const unsigned char *after[Q7_MAX_ARGS];
	size_t zone[Q7_MAX_ARGS] = {0};
	const struct q7_call *req = c->req;
	for (unsigned i = 0; i < c->L.n; i++)
		if (c->L.slot[i].arg >= 0)
			zone[c->L.slot[i].arg] = zone_of(&c->L.slot[i]);
	/* Each input's red zone came back with it: the layout puts one after
	 * every input when the inputs are checked. */
	if (q7_slots_inputs_compare(req, c->L.slot, c->L.n, s->data, c->back_addr, after, r))
		return 1;
	if (!q7_run_inputs_zones(req, after, zone, r))
		return 0;
	/* In the far half of the last input's zone, the destination right
	 * after it: a write before its start. */
	unsigned i = r->changed_arg - 1;
	uint64_t n = r->changed_bytes, end = after[i] - s->data + c->back_addr + n + zone[i];
	if (c->L.dst_bytes && end == c->L.dst_addr && r->changed_at >= n + zone[i] / 2) {
		r->changed_arg = 0;
		q7_run_outside(r, req->op, "wrote", Q7_RUN_DST, c->L.dst_bytes,
		               (long long)r->changed_at - (long long)(n + zone[i]));
	}
	return 1;
}

/* The call's failed op: r gets its status and "<who><message>". -1. */
static int op_failed(struct q7_emu_session *s, unsigned core, struct q7_run_result *r)
{
	struct call *c = &s->c;
	char w[32];
	if (c->frame.message[0])
		q7_run_fail(r, "%s%s", who(s, core, w, sizeof w), c->frame.message);
	else /* the runtime always says why: its image is not what q7cc built */
		q7_run_fail(r, "%s%s: the op ended with status %d and no message (a damaged image?)",
		            who(s, core, w, sizeof w), s->lib, (int)c->frame.status);
	r->status = c->frame.status;
	return -1;
}

/* The last core's record br: the bytes handed back and the out tensor,
 * read out of the core's RAM, and the call's end (ok: its frame's status
 * is OK). 0, or -1 with r set. */
static int read_last(struct q7_emu_session *s, const struct q7_boot_result *br, bool ok,
                     struct q7_run_result *r)
{
	struct call *c = &s->c;
	if (br->back_bytes != (ok ? c->back_bytes : 0) ||
	    (br->out_bytes && !q7_emu_ram_holds(c->frame.out.data, br->out_bytes))) {
		return lost(s, r, "%s: the boot program's record is truncated or damaged", s->lib);
	}
	/* Out of the core's RAM: the bytes asked back, then the out tensor,
	 * straight into the caller's destination when it is its result
	 * (deliver_dst's rule). */
	unsigned char *dst = (unsigned char *)(uintptr_t)c->req->dst.data;
	bool direct = c->anywhere && br->out_bytes && br->out_bytes <= c->L.dst_bytes &&
	              (c->frame.out.data == c->L.dst_addr || br->out_bytes == c->L.dst_bytes);
	size_data(s, (size_t)br->back_bytes + (direct ? 0 : br->out_bytes));
	unsigned char *out_to = direct ? dst : s->data + br->back_bytes;
	if (direct)
		populate(dst, br->out_bytes);
	struct iovec back = {s->data, br->back_bytes}, out = {out_to, br->out_bytes};
	if ((br->back_bytes && q7_emu_ram_io(s->pid, s->ram, false, &back, 1, c->back_addr) != 0) ||
	    (br->out_bytes &&
	     q7_emu_ram_io(s->pid, s->ram, false, &out, 1, (uint32_t)c->frame.out.data) != 0)) {
		int e = errno;
		return lost(s, r, "%s: cannot read the call's result out of the emulated core's RAM: %s",
		                  s->lib, strerror(e));
	}
	c->out = out_to;
	c->out_bytes = br->out_bytes;
	c->busy = false;
	if (!ok)
		return op_failed(s, br->core, r);
	deliver_dst(s);
	if (c->inputs_back && inputs_changed(s, r) != 0)
		return -1;
	return 0;
}

/* A kernel's block move (boot.h's Q7_RESULT_MOVE, record br), made in
 * the core's RAM while the core waits for the answer: two copies a byte
 * through a buffer of the session's, where the boot program's trip
 * through a file took four (docs/emulated.md, "Block moves"). 0, or -1
 * after q7_run_fail(). */
static int block_move(struct q7_emu_session *s, const struct q7_boot_result *br,
                      struct q7_run_result *r)
{
	struct call *c = &s->c;
	uint32_t dst = br->exc_pc, src = br->exc_vaddr, n = br->back_bytes;
	if (br->seq != c->seq || !q7_emu_ram_holds(dst, n) || !q7_emu_ram_holds(src, n)) {
		return lost(s, r, "%s: the boot program's block move is out of order or outside the core's "
		                  "RAM", s->lib);
	}
	if (!s->move_buf)
		s->move_buf = q7_xmalloc(MOVE_PIECE);
	if (q7_emu_ram_move(s->pid, s->ram, dst, src, n, s->move_buf, MOVE_PIECE) != 0) {
		int e = errno;
		return lost(s, r, "%s: cannot move %u bytes in the emulated core's RAM: %s", s->lib, n,
		                  strerror(e));
	}
	uint32_t done = Q7_MOVE_DONE;
	struct iovec v = {&done, sizeof done};
	int rc = q7_emu_transfer(s, true, &v, 1, c->deadline);
	return rc == IO_OK ? 0 : io_failed(s, rc, r);
}

/* Reads records until the call's last one. 0, or -1 after q7_run_fail()
 * (the frame's own failure included). */
static int read_records(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	for (;;) {
		struct q7_boot_result br;
		int rc = q7_emu_recv_all(s, &br, sizeof br, c->deadline);
		if (rc != IO_OK)
			return io_failed(s, rc, r);
		br.message[sizeof br.message - 1] = 0;
		bool fatal = br.boot_status != Q7_BOOT_OK && br.boot_status != Q7_BOOT_BAD_OUTPUT;
		if (br.magic != Q7_RESULT_MAGIC || br.version != Q7_BOOT_VERSION) {
			return lost(s, r, "%s: the boot program's record is damaged (magic 0x%08x, version %u; "
			                  "q7boot.elf of another q7cc, or an image that wrote over it?)", s->lib,
			                  br.magic, br.version);
		}
		if (br.kind == Q7_RESULT_MOVE) {
			if (block_move(s, &br, r) != 0)
				return -1;
			continue;
		}
		bool last = br.kind == Q7_RESULT_LAST;
		/* Every core's record carries its frame; only a damaged call's
		 * (which ends the session) has none. */
		if (!s->ready || (!last && br.kind != Q7_RESULT_CORE) || br.seq != c->seq ||
		    br.core != c->first + c->done ||
		    (br.frame_size != 0 && br.frame_size != sizeof c->frame) ||
		    (br.frame_size == 0 && !fatal)) {
			return lost(s, r, "%s: the boot program's record is out of order or damaged", s->lib);
		}
		if (br.frame_size && (rc = q7_emu_recv_all(s, &c->frame, sizeof c->frame, c->deadline)) != IO_OK)
			return io_failed(s, rc, r);
		c->frame.message[sizeof c->frame.message - 1] = 0;
		c->done++;
		if (br.frame_size && s->stats)
			print_stats(s, &br, &c->frame);
		if (br.frame_size && c->frame.switched_stack)
			r->switched_stack = 1;
		/* The runtime's warning (status OK and a message): the first
		 * core's, as every core gives the same one. */
		if (br.frame_size && c->frame.status == Q7_STATUS_OK && c->frame.message[0] &&
		    !r->message[0])
			snprintf(r->message, sizeof r->message, "%s", c->frame.message);
		if (br.boot_status != Q7_BOOT_OK) {
			boot_failure(s, &br, r);
			if (fatal)
				return lost(s, r, NULL);
			c->busy = false;
			return -1;
		}
		bool ok = c->frame.status == Q7_STATUS_OK;
		if (!last && !ok)
			return lost(s, r, "%s: the boot program went on after a failed core", s->lib);
		if (!last)
			continue;
		return read_last(s, &br, ok, r);
	}
}

int q7_emu_receive(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	if (!c->busy) {
		if (r->status == 0)
			q7_run_fail(r, "no call to receive");
		return -1;
	}
	int rc = read_records(s, r);
	s->st.last_call_s = q7_now_s() - c->t0;
	if (s->stats)
		fprintf(s->stats, "%s: emulated run of core%s %u..%u: %.3f s\n", q7_progname(),
		        c->n > 1 ? "s" : "", c->first, c->first + c->n - 1, s->st.last_call_s);
	return rc;
}

unsigned char *q7_emu_sent_data(const struct q7_emu_session *s, size_t *size)
{
	const struct call *c = &s->c;
	const struct layout *L = &c->L;
	unsigned char *d = q7_xcalloc(1, L->size ? L->size : 1);
	for (unsigned i = 0; i < L->n; i++)
		if (L->slot[i].bytes && !(c->dst_zeroed && L->slot[i].arg < 0))
			memcpy(d + (L->slot[i].data - Q7_BOOT_DATA_AREA),
			       (const void *)(uintptr_t)q7_slot_desc(c->req, &L->slot[i])->data,
			       L->slot[i].bytes);
	*size = L->size;
	return d;
}

int q7_emu_take_output(const struct q7_emu_session *s, const unsigned char *data,
                       struct q7_run_result *r)
{
	const struct call *c = &s->c;
	const struct q7_frame *f = &c->frame;
	uint64_t lo = c->back_addr, hi = lo + c->back_bytes;
	if (c->back_bytes && f->out.data >= lo && f->out.data < hi)
		return q7_run_take_output(f, data + (f->out.data - lo), (size_t)(hi - f->out.data), r);
	return q7_run_take_output(f, c->out, c->out_bytes, r);
}

/* The result of a call with a destination its bytes were delivered to:
 * described there, no copy made. 0, or -1 with r failed. */
static int result_in_dst(const struct q7_emu_session *s, const struct q7_call *req,
                         struct q7_run_result *r)
{
	const struct call *c = &s->c;
	struct q7_tensor_desc out = c->frame.out;
	out.data = c->L.dst_addr; /* where its bytes are now, on the core's side */
	if (q7_run_check_in_dst(req->op, &out, c->L.dst_addr, &req->dst, r) != 0)
		return -1;
	r->out = out;
	r->out.data = req->dst.data;
	r->out_bytes = q7_tensor_span(&out);
	return 0;
}

/* A returned tensor the boot program kept on the core, larger than the
 * destination it was to fit (q7_boot_call's out_max): 0, or -1 with r
 * failed. */
static int kept_on_core(const struct q7_emu_session *s, struct q7_run_result *r)
{
	const struct call *c = &s->c;
	uint64_t n = 0, extent = 0;
	struct q7_tensor_desc out = c->frame.out;
	if (c->in_dst || !c->L.dst_bytes || c->out_bytes || !q7_tensor_bytes(&out, &n, &extent) ||
	    !n || (out.data >= c->back_addr && out.data + extent <= (uint64_t)c->back_addr + c->back_bytes))
		return 0;
	q7_run_fail(r, "%s: the result does not fit the destination (%zu bytes)", c->op,
	            c->L.dst_bytes);
	return -1;
}

int q7_emu_call(struct q7_emu_session *s, const struct q7_call *req,
                struct q7_run_result *res)
{
	memset(res, 0, sizeof *res);
	if (s->forward)
		q7_proc_signals_install();
	int rc = 1;
	if (q7_emu_send(s, req, -1, res) == 0 && q7_emu_receive(s, res) == 0) {
		if (s->c.in_dst ? result_in_dst(s, req, res) == 0
		                : kept_on_core(s, res) == 0 && q7_emu_take_output(s, s->data, res) == 0) {
			res->status = Q7_STATUS_OK;
			rc = 0;
		}
	}
	if (s->forward)
		q7_proc_signals_restore();
	return rc;
}
