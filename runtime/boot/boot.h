/* The contract between q7-run's emulated target (runtime/run/emulated.c)
 * and the boot program of the emulated core (q7boot.elf): where things sit
 * in the core's memory, what the host leaves there, and what the boot
 * program hands back. docs/emulated.md tells the whole story.
 *
 * Memory of qemu-system-xtensa -M sim -cpu lx106:
 *   0x50000000 sysrom0   q7boot.elf: reset vector + exception vectors
 *                        (VECBASE), code, read-only data
 *   0x3ffc0000 dataram0  q7boot's data; the core's stack at its top
 *   0x60000000 sysram0   128 MiB:
 *     0x60000000           struct q7_boot_block (the host's orders)
 *     0x60001000           struct q7_frame of each core, 4 KiB apart
 *     0x60100000           image windows: the single-core image, or core
 *                          i's at + i * 2 MiB; the prelinked file's header
 *                          sits just below its base
 *     0x62100000 .. end    tensor data, the dst tensor, then the heap arena
 *
 * Plain C with fixed-width fields: compiled by the host and by the cross
 * compiler. */
#ifndef Q7_BOOT_H
#define Q7_BOOT_H

#include <stdint.h>

#define Q7_BOOT_ROM 0x50000000u
#define Q7_BOOT_BLOCK_ADDR 0x60000000u
#define Q7_BOOT_FRAME_ADDR 0x60001000u
#define Q7_BOOT_IMAGE_AREA 0x60100000u
#define Q7_BOOT_IMAGE_AREA_SIZE 0x02000000u /* 32 MiB, as the single window */
#define Q7_BOOT_CORE_WINDOW 0x00200000u    /* 2 MiB per core, as on the device */
#define Q7_BOOT_DATA_AREA 0x62100000u
#define Q7_BOOT_RAM_END 0x68000000u
#define Q7_BOOT_STACK_TOP 0x40000000u      /* end of dataram0 */
#define Q7_BOOT_STACK_SIZE 0x00010000u     /* 64 KiB: the core's own stack */
#define Q7_BOOT_RESULT_FD 3                /* QEMU's fd 3 (the host opens it) */

#define Q7_BOOT_MAGIC 0x54423751u   /* "Q7BT" */
#define Q7_RESULT_MAGIC 0x53523751u /* "Q7RS" */
#define Q7_BOOT_VERSION 2u

#define Q7_BOOT_MAX_CORES 8
#define Q7_BOOT_CCOUNT_KHZ 40000u         /* the lx106's CCOUNT in QEMU */
#define Q7_BOOT_MAX_TIME_LIMIT_MS 100000u
#define Q7_BOOT_FRAME_STRIDE 0x1000u /* core i's frame: FRAME_ADDR + i * this */

/* At Q7_BOOT_BLOCK_ADDR, written by the host. The boot program runs the
 * ncores entries one after another on the same memory, so each core
 * starts from the tensor data the one before left. */
struct q7_boot_block {
	uint32_t magic;     /* Q7_BOOT_MAGIC */
	uint32_t version;   /* Q7_BOOT_VERSION */
	uint32_t result_fd; /* host file descriptor for the results */
	uint32_t ncores;    /* 1..Q7_BOOT_MAX_CORES */
	uint32_t dst_data;  /* tensor data to hand back after each core */
	uint32_t dst_bytes;
	/* 0, or the run's limit: the CCOMPARE0 timer ends the run after this
	 * many ms of CCOUNT (40 MHz), so a QEMU whose q7-run is gone does not
	 * spin on. At most Q7_BOOT_MAX_TIME_LIMIT_MS (CCOUNT is 32 bits). */
	uint32_t time_limit_ms;
	uint32_t reserved;
	struct {
		uint32_t image;      /* address of the prelinked image's header */
		uint32_t image_size; /* bytes of the prelinked file */
		uint32_t frame;      /* address of its struct q7_frame */
		uint32_t reserved;
	} core[Q7_BOOT_MAX_CORES];
};

/* What the boot program did; Q7_BOOT_OK means the entry returned and the
 * frame tells the rest. */
enum q7_boot_status {
	Q7_BOOT_OK = 0,
	Q7_BOOT_BAD_BLOCK = 1,   /* no or wrong boot block */
	Q7_BOOT_BAD_IMAGE = 2,   /* the prelinked image failed its checks */
	Q7_BOOT_EXCEPTION = 3,   /* the core took an exception */
	Q7_BOOT_STACK_OVERFLOW = 4, /* the core's own stack overflowed */
	Q7_BOOT_BAD_OUTPUT = 5,  /* frame->out is outside the core's RAM */
	Q7_BOOT_TIME_LIMIT = 6,  /* the run passed time_limit_ms */
};

/* Written to result_fd for each core that ran, in order: this header, the
 * frame (frame_size bytes), the tensor data (dst_bytes), then the out
 * tensor's bytes (its span by its strides). The run stops after a core
 * whose boot_status or frame status is not OK. QEMU's exit status is 0
 * when the results were written, else 64 + boot_status. */
struct q7_boot_result {
	uint32_t magic;       /* Q7_RESULT_MAGIC */
	uint16_t version;     /* Q7_BOOT_VERSION */
	uint16_t core;        /* index in the boot block */
	int32_t boot_status;  /* enum q7_boot_status */
	uint32_t frame_size;
	uint32_t dst_bytes;
	uint32_t out_bytes;
	uint32_t ccount_start; /* CCOUNT around the entry call */
	uint32_t ccount_end;
	uint32_t exc_cause;   /* Q7_BOOT_EXCEPTION: EXCCAUSE, PC, EXCVADDR */
	uint32_t exc_pc;
	uint32_t exc_vaddr;
	uint32_t stack_used;  /* high-water mark of the core's own stack */
	char message[80];     /* NUL-terminated, for boot_status != OK */
};

#if defined(__cplusplus)
static_assert(sizeof(struct q7_boot_block) == 160, "q7_boot_block layout");
static_assert(sizeof(struct q7_boot_result) == 128, "q7_boot_result layout");
#else
_Static_assert(sizeof(struct q7_boot_block) == 160, "q7_boot_block layout");
_Static_assert(sizeof(struct q7_boot_result) == 128, "q7_boot_result layout");
#endif

#endif
