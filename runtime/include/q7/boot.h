/* The contract between the host side of the emulated target (a session,
 * run/emu_session.c) and the boot program of the emulated core
 * (q7boot.elf): where things sit in the core's memory, what the host
 * leaves there at start, the calls it sends, and what the boot program
 * hands back. The memory map: docs/emulated.md, "The emulated machine";
 * the session: docs/emulated.md, "The session protocol".
 *
 * Plain C with fixed-width fields: compiled by the host and by the cross
 * compiler. */
#ifndef Q7_BOOT_H
#define Q7_BOOT_H

#include <assert.h> /* static_assert, in C11 too */
#include <stdint.h>

#include "q7/xtensa.h" /* Q7_NUM_CORES */

#define Q7_BOOT_ROM 0x50000000u
#define Q7_BOOT_BLOCK_ADDR 0x60000000u
#define Q7_BOOT_FRAME_ADDR 0x60001000u
#define Q7_BOOT_IMAGE_AREA 0x60100000u
#define Q7_BOOT_IMAGE_AREA_SIZE 0x02000000u /* 32 MiB, as the single window */
#define Q7_BOOT_CORE_WINDOW 0x00200000u    /* 2 MiB per core, as on the device */
#define Q7_BOOT_DATA_AREA 0x62100000u
/* sysram0 from BLOCK_ADDR, sized by QEMU's -m (emu_session.c): 2 GiB,
 * about 1.9 GiB of it for a call's tensors and heap arena. QEMU maps guest
 * RAM lazily, so what no call touches costs the host nothing. */
#define Q7_BOOT_RAM_END 0xE0000000u
#define Q7_BOOT_STACK_TOP 0x40000000u      /* end of dataram0 */
#define Q7_BOOT_STACK_SIZE 0x00010000u     /* 64 KiB: the core's own stack */
#define Q7_BOOT_REQUEST_FD 3               /* QEMU's fd 3: calls from the host */
#define Q7_BOOT_RESULT_FD 4                /* QEMU's fd 4: records to the host */

#define Q7_BOOT_MAGIC 0x54423751u   /* "Q7BT" */
#define Q7_CALL_MAGIC 0x4c433751u   /* "Q7CL" */
#define Q7_RESULT_MAGIC 0x53523751u /* "Q7RS" */
#define Q7_BOOT_VERSION 7u
/* The host's answer to a Q7_RESULT_MOVE record, on request_fd (4 bytes). */
#define Q7_MOVE_DONE 0x45563751u /* "Q7VE" */

#define Q7_BOOT_CCOUNT_KHZ 40000u         /* the lx106's CCOUNT in QEMU */
#define Q7_BOOT_MAX_TIME_LIMIT_MS 100000u
#define Q7_BOOT_FRAME_STRIDE 0x1000u /* core i's frame: FRAME_ADDR + i * this */

/* At Q7_BOOT_BLOCK_ADDR, written by the host into a file QEMU loads. */
struct q7_boot_block {
	uint32_t magic;      /* Q7_BOOT_MAGIC */
	uint32_t version;    /* Q7_BOOT_VERSION */
	uint32_t request_fd; /* host descriptor the calls are read from */
	uint32_t result_fd;  /* host descriptor the records go to */
	uint32_t ncores;     /* images placed: 1..Q7_NUM_CORES */
	uint32_t reserved[3];
	struct {
		uint32_t image;      /* address of the prelinked image's header */
		uint32_t image_size; /* bytes of the prelinked file */
		uint32_t reserved[2];
	} core[Q7_NUM_CORES];
};

/* One call, on request_fd. Followed by ncores struct q7_frame (core
 * first + k's frame goes to FRAME_ADDR + (first + k) * FRAME_STRIDE). The
 * host wrote data_bytes at Q7_BOOT_DATA_AREA, and zero_bytes after them
 * are set to fill (a fresh destination and its red zone: nothing
 * the host has to send). */
struct q7_boot_call {
	uint32_t magic;      /* Q7_CALL_MAGIC */
	uint32_t version;    /* Q7_BOOT_VERSION */
	uint32_t seq;        /* the host's number for the call, echoed back */
	uint32_t first;      /* the first core to run, an index of the boot block */
	uint32_t ncores;     /* cores first .. first + ncores - 1, in order */
	uint32_t data_bytes; /* tensor data the host wrote at Q7_BOOT_DATA_AREA */
	/* What the last record hands back: back_bytes from back_addr (the dst
	 * tensor, or the whole tensor data for a race check); 0: nothing. */
	uint32_t back_addr;
	uint32_t back_bytes;
	/* 0, or the call's limit: the CCOMPARE0 timer ends the session after
	 * this many ms of CCOUNT (40 MHz) from the first core's start, so a
	 * QEMU whose host is gone does not spin on. At most
	 * Q7_BOOT_MAX_TIME_LIMIT_MS (CCOUNT is 32 bits). */
	uint32_t time_limit_ms;
	uint32_t zero_bytes; /* set to fill after the data_bytes */
	uint32_t fill;       /* that byte: a fresh output's pattern (docs/runtime.md), or 0 */
	/* 0, or the most bytes of a returned tensor outside back_addr the
	 * last record names (a destination's: the host takes no more) */
	uint32_t out_max;
	uint32_t reserved[4];
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
	Q7_BOOT_TIME_LIMIT = 6,  /* the call passed time_limit_ms */
	Q7_BOOT_BAD_CALL = 7,    /* a damaged or truncated call */
	Q7_BOOT_BREAK = 8,       /* a debug exception (BREAK, __builtin_trap):
	                          * exc_cause is DEBUGCAUSE, exc_pc EPC2 */
	Q7_BOOT_BAD_WRITE = 9,   /* the kernel wrote into the boot block */
};

/* Which record. */
enum q7_result_kind {
	Q7_RESULT_READY = 1, /* the images are placed (or boot_status says why not) */
	Q7_RESULT_CORE = 2,  /* a core of the call ran; more follow */
	Q7_RESULT_LAST = 3,  /* the call's last record */
	/* a block move for the host to make in the core's RAM while the
	 * core waits: exc_pc the destination, exc_vaddr the source,
	 * back_bytes how many (answered with Q7_MOVE_DONE) */
	Q7_RESULT_MOVE = 4,
};

/* On result_fd: this header, then frame_size bytes of the core's frame.
 * The last record says what the host reads out of the core's RAM:
 * back_bytes from the call's back_addr, and out_bytes of the out tensor
 * (its span by its strides, from element 0) when it lies outside those. A call ends after a core whose boot_status
 * or frame status is not OK; a boot_status other than OK or BAD_OUTPUT
 * ends the session too (QEMU exits with 64 + boot_status). */
struct q7_boot_result {
	uint32_t magic;       /* Q7_RESULT_MAGIC */
	uint16_t version;     /* Q7_BOOT_VERSION */
	uint16_t core;        /* index in the boot block */
	int32_t boot_status;  /* enum q7_boot_status */
	uint32_t kind;        /* enum q7_result_kind */
	uint32_t seq;         /* the call's q7_boot_call.seq; 0 for READY */
	uint32_t frame_size;
	uint32_t back_bytes;
	uint32_t out_bytes;
	uint32_t ccount_start; /* CCOUNT around the entry call */
	uint32_t ccount_end;
	uint32_t exc_cause;   /* Q7_BOOT_EXCEPTION: EXCCAUSE, PC, EXCVADDR */
	uint32_t exc_pc;
	uint32_t exc_vaddr;
	uint32_t stack_used;  /* high-water mark of the core's own stack */
	uint32_t exc_ra;      /* a0 when it stopped: the return address of a
	                       * leaf function (call0 ABI), as libgcc's division */
	char message[68];     /* NUL-terminated, for boot_status != OK */
};

static_assert(sizeof(struct q7_boot_block) == 160, "q7_boot_block layout");
static_assert(sizeof(struct q7_boot_call) == 64, "q7_boot_call layout");
static_assert(sizeof(struct q7_boot_result) == 128, "q7_boot_result layout");

#endif
