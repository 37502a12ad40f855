/* q7boot: the boot program of the emulated core, its side of boot.h
 * (docs/emulated.md, "The session protocol").
 * Kernel output reaches the host through frame->write_fn, a semihosting
 * write to QEMU's stdout or stderr.
 *
 * Runs on the bare core: no libc start-up, no heap, only memcpy/memset/
 * memmove from picolibc. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "q7/boot.h"
#include "q7/prelinked.h"
#include "q7/frame.h"
#include "simcall.h"

/* QEMU's Xtensa semihosting calls (simcall.h). */
#define SYS_EXIT 1
#define SYS_READ 3
#define SYS_WRITE 4
#define SYS_MEMSET 1004
#define SIM_EINTR 4
#define SIM_EAGAIN 11

/* At most this much per read or write: QEMU 7.2 serves each one through
 * a bounce buffer of its length (malloc, copy, free), so a chunk of this
 * size stays in its heap, warm, where one of 256 MiB was a fresh mapping
 * faulted in at every call. */
#define IO_CHUNK (1u << 20)

#define STACK_PAINT 0xa5a5a5a5u
#define STACK_GUARD 64 /* bytes at the bottom that must stay painted */

extern char __q7boot_stack_bottom[], __q7boot_stack_top[], __q7boot_exc_stack_top[];
/* Below the stack, down to the boot program's data: painted once, the
 * 16 KiB right below checked word by word, the rest one word in 16
 * (docs/emulated.md, "The session protocol"). */
#define BELOW_DENSE (16u << 10)

void q7boot_main(void);
void q7boot_exception(uint32_t cause, uint32_t pc, uint32_t vaddr, uint32_t kind, uint32_t ra);

static const struct q7_boot_block *block;
/* The boot block as the host wrote it, copied at start: the descriptors
 * are read from here, and the block in RAM is held against it after each
 * core (block_intact; docs/emulated.md, "The session protocol"). */
static struct q7_boot_block block_copy;
static struct q7_boot_call call;     /* the call being served */
static struct q7_boot_result result; /* the record being made */
static struct q7_frame *frame;       /* the core running, or NULL */
static uint32_t record_kind = Q7_RESULT_READY; /* what a failure reports as */
static uint32_t entries[Q7_NUM_CORES];


static __attribute__((noreturn)) void sim_exit(int status)
{
	q7_simcall(SYS_EXIT, status, 0, 0, NULL);
	for (;;)
		;
}

/* One host read or write; the bytes done (QEMU stops at the first short
 * read, page by page), 0 at end of file, or -1. EINTR and EAGAIN are
 * tried again. */
static int sim_io(int nr, int fd, const void *buf, uint32_t len)
{
	for (;;) {
		int err = 0;
		int n = q7_simcall(nr, fd, (int)(uintptr_t)buf, (int)len, &err);
		if (n >= 0 || (err != SIM_EINTR && err != SIM_EAGAIN))
			return n;
	}
}

/* frame->write_fn: how the kernel's printf reaches the host. Only stdout
 * and stderr, as on the host: QEMU's other descriptors (the session's) are
 * not the kernel's to use. */
static int boot_write(int fd, const void *buf, uint32_t len)
{
	return sim_io(SYS_WRITE, fd == 2 ? 2 : 1, buf, len);
}

/* len bytes through SYS_READ or SYS_WRITE (nr), a chunk at a time: 0, 1
 * at end of file before the first byte read, or -1 (an error, or end of
 * file inside). */
static int io_all(int nr, int fd, void *buf, uint32_t len)
{
	char *p = buf;
	for (uint32_t done = 0; done < len;) {
		uint32_t want = len - done;
		int n = sim_io(nr, fd, p + done, want < IO_CHUNK ? want : IO_CHUNK);
		if (n < 0 || (n == 0 && (done || nr == SYS_WRITE)))
			return -1;
		if (n == 0)
			return 1;
		done += (uint32_t)n;
	}
	return 0;
}

static uint32_t ccount(void)
{
	uint32_t c;
	__asm__ volatile("rsr.ccount %0" : "=r"(c));
	return c;
}

static void set_message(const char *s)
{
	size_t n = strlen(s);
	if (n >= sizeof result.message)
		n = sizeof result.message - 1;
	memcpy(result.message, s, n);
	result.message[n] = 0;
}

static int in_ram(uint64_t addr, uint64_t n)
{
	return addr >= Q7_BOOT_BLOCK_ADDR && addr <= Q7_BOOT_RAM_END &&
	       n <= Q7_BOOT_RAM_END - addr;
}

/* a * b without libgcc's __muldi3, which the lx106's libgcc lacks. */
static uint64_t mul_u32(uint32_t a, uint32_t b)
{
	uint64_t r = 0, x = a;
	for (; b; b >>= 1, x <<= 1)
		if (b & 1)
			r += x;
	return r;
}

/* Bytes from element 0 to the end of the last element, by the strides;
 * 0 for no tensor; -1 for one the host could not read back. */
static int64_t out_span(const struct q7_tensor_desc *t)
{
	if (t->ndim == 0 && t->data == 0)
		return 0;
	uint32_t es = q7_dtype_size(t->dtype);
	if (!es || t->ndim > Q7_MAX_DIMS)
		return -1;
	uint64_t last = 0;
	for (uint32_t i = 0; i < t->ndim; i++) {
		if (t->sizes[i] == 0)
			return 0;
		if (t->strides[i] < 0)
			return -1;
		last += mul_u32(t->sizes[i] - 1, (uint32_t)t->strides[i]);
	}
	if (last >= Q7_BOOT_RAM_END - Q7_BOOT_BLOCK_ADDR) /* could not be in RAM */
		return -1;
	return (int64_t)((uint32_t)(last + 1) * es);
}

/* Below this, the stack is still painted from the last measure. */
static uint32_t *painted_to = (uint32_t *)(void *)__q7boot_stack_bottom;

/* The stack below the caller is painted so that the high-water mark and
 * an overflow can be seen afterwards (only what the last core used: the
 * rest kept its paint). */
static void paint_stack(void)
{
	uint32_t *p = painted_to, *sp;
	__asm__ volatile("mov %0, a1" : "=r"(sp));
	sp -= 16; /* below this function's frame */
	while (p < sp)
		*p++ = STACK_PAINT;
}

static void paint_below(void)
{
	uint32_t *p = (uint32_t *)(void *)__q7boot_exc_stack_top;
	while (p < (uint32_t *)(void *)__q7boot_stack_bottom)
		*p++ = STACK_PAINT;
}

static bool below_intact(void)
{
	uintptr_t l = (uintptr_t)__q7boot_exc_stack_top, h = (uintptr_t)__q7boot_stack_bottom;
	const uint32_t *lo = (const uint32_t *)l, *hi = (const uint32_t *)h;
	const uint32_t *dense = (const uint32_t *)(h - l > BELOW_DENSE ? h - BELOW_DENSE : l);
	for (const uint32_t *p = dense; p < hi; p++)
		if (*p != STACK_PAINT)
			return false;
	for (const uint32_t *p = lo; p < dense; p += 16)
		if (*p != STACK_PAINT)
			return false;
	return true;
}

static void measure_stack(void)
{
	uint32_t *p = (uint32_t *)(void *)__q7boot_stack_bottom;
	const uint32_t *top = (const uint32_t *)(const void *)__q7boot_stack_top;
	while (p < top && *p == STACK_PAINT)
		p++;
	painted_to = p;
	result.stack_used = (uint32_t)((const char *)top - (const char *)p);
	if (((const char *)p < __q7boot_stack_bottom + STACK_GUARD || !below_intact()) &&
	    result.boot_status == Q7_BOOT_OK) {
		result.boot_status = Q7_BOOT_STACK_OVERFLOW;
		set_message("the kernel overflowed the core's 64 KiB stack");
	}
}

/* Whether the boot block in RAM is still the host's (block_copy). */
static bool block_intact(void)
{
	const uint32_t *ram = (const uint32_t *)(uintptr_t)Q7_BOOT_BLOCK_ADDR;
	const uint32_t *kept = (const uint32_t *)(const void *)&block_copy;
	for (size_t i = 0; i < sizeof block_copy / 4; i++)
		if (ram[i] != kept[i])
			return false;
	return true;
}

/* Writes the record of the current core (or of the boot) as record_kind;
 * false when it could not. The last record of a call that went well
 * names the bytes the call asked back and the out tensor's, which the
 * host reads out of the core's RAM. */
static bool write_record(void)
{
	uint32_t back = 0, out_bytes = 0;
	bool last = record_kind == Q7_RESULT_LAST;
	if (last && frame && result.boot_status == Q7_BOOT_OK && frame->status == Q7_STATUS_OK) {
		int64_t span = out_span(&frame->out);
		uint64_t at = frame->out.data;
		if (span < 0 || (span > 0 && !in_ram(at, (uint64_t)span))) {
			result.boot_status = Q7_BOOT_BAD_OUTPUT;
			set_message("the returned tensor is not in the core's RAM");
		} else {
			back = call.back_bytes;
			/* a tensor larger than the destination stays here: the
			 * host reports it from the frame's descriptor */
			if (span > 0 && !(at >= call.back_addr &&
			                  at + (uint64_t)span <= (uint64_t)call.back_addr + back) &&
			    !(call.out_max && (uint64_t)span > call.out_max))
				out_bytes = (uint32_t)span;
		}
	}
	result.magic = Q7_RESULT_MAGIC;
	result.version = Q7_BOOT_VERSION;
	result.kind = record_kind;
	result.frame_size = frame ? sizeof *frame : 0;
	result.back_bytes = back;
	result.out_bytes = out_bytes;
	int fd = block ? (int)block->result_fd : Q7_BOOT_RESULT_FD;
	if (io_all(SYS_WRITE, fd, &result, sizeof result) != 0 ||
	    (frame && io_all(SYS_WRITE, fd, frame, sizeof *frame) != 0)) {
		static const char msg[] = "q7boot: cannot write the result (is fd 4 open?)\n";
		sim_io(SYS_WRITE, 2, msg, sizeof msg - 1);
		return false;
	}
	return true;
}

/* Reports result.boot_status and ends the session. */
static __attribute__((noreturn)) void finish(void)
{
	int status = result.boot_status ? result.boot_status : Q7_BOOT_BAD_BLOCK;
	write_record();
	sim_exit(64 + status);
}

static __attribute__((noreturn)) void fail(int status, const char *why)
{
	result.boot_status = status;
	set_message(why);
	finish();
}

/* QEMU's memset of [addr, addr + n), IO_CHUNK bytes at a time. */
static void fill_ram(uint32_t addr, int c, uint32_t n)
{
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < IO_CHUNK ? n - done : IO_CHUNK;
		q7_simcall(SYS_MEMSET, (int)(addr + done), c, (int)k, NULL);
		done += k;
	}
}

/* frame->move_fn (docs/emulated.md, "Block moves"). 0, or -1 before any
 * byte moved when a range is not the core's RAM: the runtime then does it
 * itself, and faults where the core would. */
static int boot_move(void *dst, const void *src, uint32_t n, int fill)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (!in_ram(d, n) || (fill == Q7_MOVE_COPY && !in_ram(s, n)))
		return -1;
	if (fill != Q7_MOVE_COPY) {
		fill_ram((uint32_t)d, fill & 0xff, n);
		return 0;
	}
	struct q7_boot_result m;
	memset(&m, 0, sizeof m);
	m.magic = Q7_RESULT_MAGIC;
	m.version = Q7_BOOT_VERSION;
	m.kind = Q7_RESULT_MOVE;
	m.core = result.core;
	m.seq = call.seq;
	m.exc_pc = (uint32_t)d;
	m.exc_vaddr = (uint32_t)s;
	m.back_bytes = n;
	uint32_t done = 0;
	if (io_all(SYS_WRITE, (int)block->result_fd, &m, sizeof m) != 0 ||
	    io_all(SYS_READ, (int)block->request_fd, &done, sizeof done) != 0 || done != Q7_MOVE_DONE)
		fail(Q7_BOOT_BAD_CALL, "the host did not make a block move");
	return 0;
}

/* Checks core i's image and puts its load bytes at their base. */
static uint32_t place_image(unsigned i)
{
	struct q7_pl_header h;
	const char *why;
	uint32_t at = block->core[i].image, size = block->core[i].image_size;
	const unsigned char *file = (const unsigned char *)(uintptr_t)at;
	if (!in_ram(at, size))
		fail(Q7_BOOT_BAD_IMAGE, "the image is not in the core's RAM");
	if (q7_prelinked_check(file, size, &h, &why))
		fail(Q7_BOOT_BAD_IMAGE, why);
	if (!in_ram(h.base, (uint64_t)h.load_size + h.bss_size) ||
	    h.base < Q7_BOOT_IMAGE_AREA ||
	    (uint64_t)h.base + h.load_size + h.bss_size > Q7_BOOT_DATA_AREA)
		fail(Q7_BOOT_BAD_IMAGE, "the image's base is not in the image windows");
	unsigned char *base = (unsigned char *)(uintptr_t)h.base;
	if (base != file + h.header_size)
		memmove(base, file + h.header_size, h.load_size);
	memset(base + h.load_size, 0, h.bss_size);
	return h.entry;
}

/* The safety net of boot.h's time_limit_ms: CCOMPARE0 raises interrupt 6
 * (level 1), which lands in the exception vector and ends the session.
 * Writing CCOMPARE0 also clears an interrupt left pending. */
static void arm_time_limit(uint32_t ms)
{
	if (ms == 0 || ms > Q7_BOOT_MAX_TIME_LIMIT_MS)
		return;
	uint32_t when = ccount() + ms * Q7_BOOT_CCOUNT_KHZ;
	__asm__ volatile("wsr.ccompare0 %0\n"
	                 "movi a8, 0x40\n"
	                 "wsr.intenable a8\n"
	                 "movi a8, 0x20\n" /* PS: user vector mode, INTLEVEL 0 */
	                 "wsr.ps a8\n"
	                 "rsync"
	                 :
	                 : "r"(when)
	                 : "a8", "memory");
}

/* Between calls no limit runs: the host may take its time. */
static void disarm_time_limit(void)
{
	__asm__ volatile("movi a8, 0\n"
	                 "wsr.intenable a8\n"
	                 "rsync"
	                 :
	                 :
	                 : "a8", "memory");
}

/* Reads the next call: its header and its frames into the cores' slots,
 * and sets the bytes after the tensor data the host wrote. Returns false
 * at end of file (the host closed the session); a damaged call ends the
 * session. */
static bool read_call(void)
{
	int fd = (int)block->request_fd;
	int got = io_all(SYS_READ, fd, &call, sizeof call);
	if (got == 1)
		return false;
	record_kind = Q7_RESULT_LAST;
	memset(&result, 0, sizeof result);
	frame = NULL;
	if (got != 0)
		fail(Q7_BOOT_BAD_CALL, "the call is truncated");
	result.seq = call.seq;
	result.core = (uint16_t)call.first;
	if (call.magic != Q7_CALL_MAGIC || call.version != Q7_BOOT_VERSION)
		fail(Q7_BOOT_BAD_CALL, "the call's magic or version is wrong");
	if (call.ncores == 0 || call.first >= block->ncores || call.ncores > block->ncores - call.first)
		fail(Q7_BOOT_BAD_CALL, "the call's cores are not the boot block's");
	if (!in_ram(Q7_BOOT_DATA_AREA, (uint64_t)call.data_bytes + call.zero_bytes) ||
	    (call.back_bytes && !in_ram(call.back_addr, call.back_bytes)))
		fail(Q7_BOOT_BAD_CALL, "the call's data is outside the core's RAM");
	for (uint32_t k = 0; k < call.ncores; k++) {
		void *slot = (void *)(uintptr_t)(Q7_BOOT_FRAME_ADDR + (call.first + k) * Q7_BOOT_FRAME_STRIDE);
		if (io_all(SYS_READ, fd, slot, sizeof(struct q7_frame)) != 0)
			fail(Q7_BOOT_BAD_CALL, "the call's frames are truncated");
	}
	/* At the host's speed: QEMU's memset, not the core's stores. */
	fill_ram(Q7_BOOT_DATA_AREA + call.data_bytes, (int)(call.fill & 0xff), call.zero_bytes);
	return true;
}

/* Runs the call's cores one after another on the same memory, each with
 * its own image and frame, and writes a record for each. */
static void run_call(void)
{
	arm_time_limit(call.time_limit_ms);
	for (uint32_t k = 0; k < call.ncores; k++) {
		uint32_t i = call.first + k;
		memset(&result, 0, sizeof result);
		result.core = (uint16_t)i;
		result.seq = call.seq;
		frame = (struct q7_frame *)(uintptr_t)(Q7_BOOT_FRAME_ADDR + i * Q7_BOOT_FRAME_STRIDE);
		frame->write_fn = (uint64_t)(uintptr_t)boot_write;
		frame->move_fn = (uint32_t)(uintptr_t)boot_move;
		frame->stack_limit = (uint64_t)(uintptr_t)(__q7boot_stack_bottom + STACK_GUARD);
		paint_stack();
		int (*fn)(struct q7_frame *) = (int (*)(struct q7_frame *))(uintptr_t)entries[i];
		result.ccount_start = ccount();
		fn(frame);
		result.ccount_end = ccount();
		measure_stack();
		if (result.boot_status == Q7_BOOT_OK && !block_intact()) {
			result.boot_status = Q7_BOOT_BAD_WRITE;
			set_message("the kernel wrote into the boot block at 0x60000000");
		}
		bool last = k + 1 == call.ncores || result.boot_status != Q7_BOOT_OK ||
		            frame->status != Q7_STATUS_OK;
		if (last)
			disarm_time_limit();
		record_kind = last ? Q7_RESULT_LAST : Q7_RESULT_CORE;
		if (result.boot_status != Q7_BOOT_OK)
			finish(); /* the core's memory may be damaged: the session ends */
		if (!write_record())
			sim_exit(64 + Q7_BOOT_BAD_BLOCK);
		if (last)
			break;
	}
	frame = NULL;
}

void q7boot_main(void)
{
	const struct q7_boot_block *b = (const struct q7_boot_block *)Q7_BOOT_BLOCK_ADDR;
	if (b->magic != Q7_BOOT_MAGIC || b->version != Q7_BOOT_VERSION)
		fail(Q7_BOOT_BAD_BLOCK, "no boot block at 0x60000000");
	block_copy = *b;
	block = &block_copy;
	paint_below();
	if (b->ncores == 0 || b->ncores > Q7_NUM_CORES)
		fail(Q7_BOOT_BAD_BLOCK, "the boot block's cores are wrong");
	/* Every image once, for the whole session: the runtime's state in
	 * each (its constructors ran, its op table) lives on, as on a device. */
	for (unsigned i = 0; i < b->ncores; i++) {
		result.core = (uint16_t)i;
		entries[i] = place_image(i);
	}
	result.core = (uint16_t)b->ncores;
	if (!write_record())
		sim_exit(64 + Q7_BOOT_BAD_BLOCK);
	while (read_call())
		run_call();
	sim_exit(0);
}

void q7boot_exception(uint32_t cause, uint32_t pc, uint32_t vaddr, uint32_t kind, uint32_t ra)
{
	static const char *const kinds[] = {
		"", "exception", "kernel exception", "double exception", "debug exception",
		"NMI",
	};
	static int in_exception;
	if (in_exception++) /* the report itself faulted: give up quietly */
		sim_exit(64 + Q7_BOOT_EXCEPTION);
	disarm_time_limit();
	result.ccount_end = ccount();
	if (cause == 4 /* Level1Interrupt: only CCOMPARE0 is enabled */ && kind == 1) {
		result.boot_status = Q7_BOOT_TIME_LIMIT;
		set_message("the call passed its time limit on the core");
		finish();
	}
	result.boot_status = kind == 4 ? Q7_BOOT_BREAK : Q7_BOOT_EXCEPTION;
	result.exc_cause = cause;
	result.exc_pc = pc;
	result.exc_vaddr = vaddr;
	result.exc_ra = ra;
	set_message(kind < sizeof kinds / sizeof kinds[0] ? kinds[kind] : "exception");
	finish();
}
