/* q7boot: the boot program of the emulated core. It reads the host's boot
 * block, checks and places the prelinked image, calls its entry with the
 * frame the host prepared, and hands the frame, the dst tensor and the out
 * tensor back on the result descriptor (boot.h). Kernel output reaches the
 * host through frame->write_fn, a semihosting write.
 *
 * Runs on the bare core: no libc start-up, no heap, only memcpy/memset/
 * memmove from picolibc. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "boot.h"
#include "prelink.h"
#include "q7/frame.h"

#define SYS_EXIT 1
#define SYS_WRITE 4

#define STACK_PAINT 0xa5a5a5a5u
#define STACK_GUARD 64 /* bytes at the bottom that must stay painted */

extern char __q7boot_stack_bottom[], __q7boot_stack_top[];

void q7boot_main(void);
void q7boot_exception(uint32_t cause, uint32_t pc, uint32_t vaddr, uint32_t kind);

static struct q7_boot_result result;
static const struct q7_boot_block *block;
static struct q7_frame *frame;

static int simcall(int nr, int a, int b, int c)
{
	register int a2 __asm__("a2") = nr;
	register int a3 __asm__("a3") = a;
	register int a4 __asm__("a4") = b;
	register int a5 __asm__("a5") = c;
	__asm__ volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
	return a2;
}

static __attribute__((noreturn)) void sim_exit(int status)
{
	simcall(SYS_EXIT, status, 0, 0);
	for (;;)
		;
}

static int sim_write(int fd, const void *buf, uint32_t len)
{
	return simcall(SYS_WRITE, fd, (int)(uintptr_t)buf, (int)len);
}

/* frame->write_fn: how the kernel's printf reaches the host. Only stdout
 * and stderr, as on the host: QEMU's other descriptors (the result) are
 * not the kernel's to write. */
static int boot_write(int fd, const void *buf, uint32_t len)
{
	return sim_write(fd == 2 ? 2 : 1, buf, len);
}

static int write_all(int fd, const void *buf, uint32_t len)
{
	const char *p = buf;
	while (len) {
		int n = sim_write(fd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= (uint32_t)n;
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

static uint32_t dtype_size(uint32_t dtype)
{
	switch (dtype) {
	case Q7_DTYPE_UINT8: case Q7_DTYPE_INT8: case Q7_DTYPE_BOOL: return 1;
	case Q7_DTYPE_INT16: case Q7_DTYPE_FLOAT16: case Q7_DTYPE_BFLOAT16: return 2;
	case Q7_DTYPE_INT32: case Q7_DTYPE_FLOAT32: return 4;
	case Q7_DTYPE_INT64: case Q7_DTYPE_FLOAT64: return 8;
	default: return 0;
	}
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
	uint32_t es = dtype_size(t->dtype);
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

/* The stack below the caller is painted so that the high-water mark and
 * an overflow can be seen afterwards. */
static void paint_stack(void)
{
	uint32_t *p = (uint32_t *)(void *)__q7boot_stack_bottom, *sp;
	__asm__ volatile("mov %0, a1" : "=r"(sp));
	sp -= 16; /* below this function's frame */
	while (p < sp)
		*p++ = STACK_PAINT;
}

static void measure_stack(void)
{
	const uint32_t *p = (const uint32_t *)(const void *)__q7boot_stack_bottom;
	const uint32_t *top = (const uint32_t *)(const void *)__q7boot_stack_top;
	while (p < top && *p == STACK_PAINT)
		p++;
	result.stack_used = (uint32_t)((const char *)top - (const char *)p);
	if ((const char *)p < __q7boot_stack_bottom + STACK_GUARD && result.boot_status == Q7_BOOT_OK) {
		result.boot_status = Q7_BOOT_STACK_OVERFLOW;
		set_message("the kernel overflowed the core's 64 KiB stack");
	}
}

/* Writes the current core's result; false when it could not. */
static bool write_result(void)
{
	uint32_t out_bytes = 0;
	const void *out = NULL;
	if (frame && result.boot_status == Q7_BOOT_OK && frame->status == Q7_STATUS_OK) {
		int64_t span = out_span(&frame->out);
		if (span < 0 || (span > 0 && !in_ram(frame->out.data, (uint64_t)span))) {
			result.boot_status = Q7_BOOT_BAD_OUTPUT;
			set_message("the returned tensor is not in the core's RAM");
		} else {
			out_bytes = (uint32_t)span;
			out = (const void *)(uintptr_t)frame->out.data;
		}
	}
	uint32_t dst_bytes = frame && block ? block->dst_bytes : 0;
	result.magic = Q7_RESULT_MAGIC;
	result.version = Q7_BOOT_VERSION;
	result.frame_size = frame ? sizeof *frame : 0;
	result.dst_bytes = dst_bytes;
	result.out_bytes = out_bytes;
	int fd = block ? (int)block->result_fd : Q7_BOOT_RESULT_FD;
	if (write_all(fd, &result, sizeof result) != 0 ||
	    (frame && write_all(fd, frame, sizeof *frame) != 0) ||
	    (dst_bytes && write_all(fd, (const void *)(uintptr_t)block->dst_data, dst_bytes) != 0) ||
	    (out_bytes && write_all(fd, out, out_bytes) != 0)) {
		static const char msg[] = "q7boot: cannot write the result (is fd 3 open?)\n";
		sim_write(2, msg, sizeof msg - 1);
		return false;
	}
	return true;
}

static __attribute__((noreturn)) void finish(void)
{
	if (!write_result())
		sim_exit(64 + (result.boot_status ? result.boot_status : Q7_BOOT_BAD_BLOCK));
	sim_exit(result.boot_status == Q7_BOOT_OK ? 0 : 64 + result.boot_status);
}

static __attribute__((noreturn)) void fail(int status, const char *why)
{
	result.boot_status = status;
	set_message(why);
	finish();
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
	if (!in_ram(h.base, (uint64_t)h.load_size + h.bss_size))
		fail(Q7_BOOT_BAD_IMAGE, "the image's base is not in the core's RAM");
	unsigned char *base = (unsigned char *)(uintptr_t)h.base;
	if (base != file + h.header_size)
		memmove(base, file + h.header_size, h.load_size);
	memset(base + h.load_size, 0, h.bss_size);
	return h.entry;
}

/* The safety net of boot.h's time_limit_ms: CCOMPARE0 raises interrupt 6
 * (level 1), which lands in the exception vector and ends the run. */
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

void q7boot_main(void)
{
	const struct q7_boot_block *b = (const struct q7_boot_block *)Q7_BOOT_BLOCK_ADDR;
	if (b->magic != Q7_BOOT_MAGIC || b->version != Q7_BOOT_VERSION)
		fail(Q7_BOOT_BAD_BLOCK, "no boot block at 0x60000000");
	block = b;
	if (b->ncores == 0 || b->ncores > Q7_BOOT_MAX_CORES ||
	    (b->dst_bytes && !in_ram(b->dst_data, b->dst_bytes)))
		fail(Q7_BOOT_BAD_BLOCK, "the boot block's cores or data are wrong");
	/* Every image first: a later core's image must not land on data an
	 * earlier core wrote. */
	uint32_t entries[Q7_BOOT_MAX_CORES];
	for (unsigned i = 0; i < b->ncores; i++) {
		result.core = (uint16_t)i;
		if (!in_ram(b->core[i].frame, sizeof *frame))
			fail(Q7_BOOT_BAD_BLOCK, "a frame is outside the core's RAM");
		entries[i] = place_image(i);
	}
	arm_time_limit(b->time_limit_ms);
	for (unsigned i = 0; i < b->ncores; i++) {
		memset(&result, 0, sizeof result);
		result.core = (uint16_t)i;
		frame = (struct q7_frame *)(uintptr_t)b->core[i].frame;
		frame->write_fn = (uint64_t)(uintptr_t)boot_write;
		frame->stack_limit = (uint64_t)(uintptr_t)(__q7boot_stack_bottom + STACK_GUARD);
		paint_stack();
		int (*fn)(struct q7_frame *) = (int (*)(struct q7_frame *))(uintptr_t)entries[i];
		result.ccount_start = ccount();
		fn(frame);
		result.ccount_end = ccount();
		measure_stack();
		if (result.boot_status != Q7_BOOT_OK || frame->status != Q7_STATUS_OK)
			finish();
		if (!write_result())
			sim_exit(64 + Q7_BOOT_BAD_BLOCK);
	}
	sim_exit(0);
}

void q7boot_exception(uint32_t cause, uint32_t pc, uint32_t vaddr, uint32_t kind)
{
	static const char *const kinds[] = {
		"", "exception", "kernel exception", "double exception", "level-2 interrupt",
		"NMI",
	};
	static int in_exception;
	if (in_exception++) /* the report itself faulted: give up quietly */
		sim_exit(64 + Q7_BOOT_EXCEPTION);
	if (cause == 4 /* Level1Interrupt: only CCOMPARE0 is enabled */ && kind == 1) {
		result.boot_status = Q7_BOOT_TIME_LIMIT;
		set_message("the run passed its time limit on the core");
		finish();
	}
	result.boot_status = Q7_BOOT_EXCEPTION;
	result.exc_cause = cause;
	result.exc_pc = pc;
	result.exc_vaddr = vaddr;
	set_message(kind < sizeof kinds / sizeof kinds[0] ? kinds[kind] : "exception");
	result.ccount_end = ccount();
	finish();
}
