/* run/emu_launch: an emulated session's QEMU process, apart from the
 * call protocol (emu_session.c): the session's state, the files QEMU
 * loads (the boot block, each core's prelinked image), starting,
 * watching and stopping QEMU, and moving bytes over its socket by a
 * deadline. And what q7_run_emulated's race check (emulated.c) and a
 * profiled call (emu_profile.c) use beyond the public session API: a
 * call in two halves, so that several sessions run at once (one core per
 * session, each from the same tensor data, the whole data handed back to
 * be merged), and the session's state, read where it lies (what the last
 * call left lives until the session's next call or its close). */
#ifndef Q7_EMU_LAUNCH_H
#define Q7_EMU_LAUNCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "q7/boot.h"
#include "call_layout.h"
#include "call_limits.h"
#include "emu_session.h"
#include "prelink.h"
#include "support.h"

/* Q7_DEFAULT_TIMEOUT_S (model/call_limits.h) or the caller's time-out, and a
 * second more per BYTES_PER_S of the call's tensors: moving
 * them through the socket and QEMU, and a kernel that reads each, take
 * time in proportion (768 MiB took 84 s). */
#define BYTES_PER_S (4.0 * (1 << 20))
#define TENSOR_ALIGN 64u
#define HEAP_ALIGN 0x1000u
/* The free bytes between the destination's red zone and the heap arena,
 * filled and checked by the runtime (Q7_FRAME_DST_MOAT, docs/runtime.md),
 * after which the arena's first free block is watched as well. */
#define DST_MOAT 0x2000u
/* The red zone after each input on the core, handed back with it and
 * checked (q7_run_inputs_zones): 16 KiB, to the next tensor's boundary
 * (a write in its far half is named before the next tensor). */
#define INPUT_MOAT 0x4000u
/* -icount: one instruction = 128 ns = 5.12 ticks of the 40 MHz CCOUNT, so
 * the ticks between two reads (each read whole ticks) round to the exact
 * number of instructions between them (at 32 ns, 1.28 ticks, they did
 * not). CCOUNT then wraps after 838 million instructions. */
#define ICOUNT_SHIFT 7
/* Between the boot program's two CCOUNT reads around the entry call
 * (runtime/boot/boot.c run_call) run, besides the entry: the store of
 * the first read, the callx0 and the second read itself. */
#define ENTRY_CALL_OVERHEAD 3
#define SLICE_S 0.25     /* longest sleep between looks at QEMU */
#define MAX_TENSORS (Q7_MAX_ARGS + 1)
/* The host's buffer of what a call hands back (at most the core's RAM)
 * and an out tensor (as much), read out of the core's RAM. Address space
 * only: it holds the pages of the last call's bytes. */
#define DATA_MAP_BYTES (2 * (size_t)(Q7_BOOT_RAM_END - Q7_BOOT_BLOCK_ADDR))
/* A block move's pieces through the host (q7_emu_ram_move), a buffer that
 * stays warm from call to call (e2e.emulated.big_moves moves 3 MiB
 * across its pieces). */
#define MOVE_PIECE ((size_t)1 << 20)

/* Where a call's tensors go: each tensor argument, then dst, 64-byte
 * aligned from Q7_BOOT_DATA_AREA; the heap arena after them. */
struct layout {
	unsigned n;
	struct q7_slot slot[MAX_TENSORS]; /* core addresses; an input's end past its red zone */
	size_t size; /* of the tensor data */
	uint32_t dst_addr;
	size_t dst_bytes;
	struct q7_arg args[Q7_MAX_ARGS]; /* with core addresses */
	struct q7_tensor_desc dst;
	uint32_t heap, heap_size;
};

/* The call in flight, between q7_emu_send and q7_emu_receive. */
struct call {
	bool busy;
	const struct q7_call *req;
	char op[Q7_MAX_OP_NAME];
	unsigned seq, first, n, done;
	double t0, deadline, timeout; /* timeout: base_timeout and its bytes' share */
	double base_timeout;         /* the request's, else the session's */
	struct layout L;
	uint32_t back_addr; /* what comes back, read into the session's data */
	size_t back_bytes;
	bool whole;
	struct q7_frame frame; /* the last core's, as it came back */
	const unsigned char *out; /* the out tensor's bytes outside back (the buffer, or the destination) */
	size_t out_bytes;
	/* One core and a destination: the runtime leaves a returned tensor
	 * where it is (Q7_FRAME_RESULT_ANYWHERE) and nothing is asked back
	 * but the out tensor, whose bytes land straight in the caller's
	 * destination when they are its bytes. */
	bool anywhere;
	/* The destination was sent as zeros the core makes (zero_bytes), not
	 * as its bytes: a fresh output (q7_call.dst_fresh). */
	bool dst_zeroed;
	/* The result's bytes are in the caller's destination. */
	bool in_dst;
	/* The whole tensor data comes back, so that the inputs are compared
	 * with the caller's (the first rule of docs/runtime.md), and the
	 * destination is copied from it into the caller's. */
	bool inputs_back;
};

struct q7_emu_session {
	char *lib, *qemu, *boot;
	char *trace_log;         /* a profile's QEMU log, or NULL */
	unsigned cores;
	double timeout;
	bool forward, icount, host_files;
	FILE *stats;             /* q7_emu_config's */
	unsigned unchecked;      /* safety checks off (Q7_UNCHECKED_*) */
	const volatile sig_atomic_t *interrupted; /* q7_emu_config's */
	char *dir;               /* this session's files */
	struct q7_strvec files;  /* registered temporaries, removed at close */
	struct q7_pl_header hdr[Q7_NUM_CORES]; /* where each image was placed */
	char *image[Q7_NUM_CORES]; /* the (packed) image each core runs */
	struct q7_strvec linked;   /* the linked (unstripped) images: their symbols */
	struct q7_strvec argv;   /* QEMU's command line */
	pid_t pid;               /* 0: no QEMU */
	int fd;                  /* our end of its fd 3/4, -1: none */
	struct q7_boot_block block; /* what QEMU's loader puts at Q7_BOOT_BLOCK_ADDR */
	uintptr_t ram;           /* the core's RAM in QEMU's memory, 0: not found yet */
	unsigned char *data;     /* what the last call handed back, DATA_MAP_BYTES, or NULL */
	size_t data_size;        /* its bytes as the last call left them */
	unsigned char *move_buf; /* MOVE_PIECE bytes, or NULL */
	bool ready;              /* its READY record was read */
	double boot_t0;
	unsigned seq;
	FILE *trace;             /* Q7CC_SAVE_TEMPS: every call's bytes */
	struct q7_emu_stats st;
	struct call c;
};

/* Starts QEMU with one end of a socket as its fd 3 and fd 4 and
 * /dev/null as stdin. 0, or -1 after q7_run_fail(). */
int q7_emu_start_qemu(struct q7_emu_session *s, struct q7_run_result *r);
/* Kills QEMU (if it still runs) and reaps it; *status (if asked) gets how
 * it ended. */
void q7_emu_stop_qemu(struct q7_emu_session *s, int *status);
/* Reaps QEMU if it has exited; true when it has. */
bool q7_emu_qemu_gone(struct q7_emu_session *s, int *status);
/* After end of file: waits for QEMU's end and says how it went. */
void q7_emu_describe_end(struct q7_emu_session *s, char *how, size_t size);
/* What a transfer ends with. */
enum { IO_OK = 0, IO_TIMEOUT = -1, IO_EOF = -2, IO_INTERRUPTED = -3 };
/* Sends (out) or receives iov[0..n) whole, by the deadline: IO_OK or why not. */
int q7_emu_transfer(struct q7_emu_session *s, bool out, struct iovec *iov, int n,
                    double deadline);
int q7_emu_recv_all(struct q7_emu_session *s, void *buf, size_t size, double deadline);

/* Sends req: to every core of the session (only_core < 0), or to core
 * only_core alone, then with the whole tensor data handed back. 0, or -1
 * after q7_run_fail(). */
int q7_emu_send(struct q7_emu_session *s, const struct q7_call *req, int only_core,
                struct q7_run_result *r);
/* Reads the sent call's records. 0, or -1 with r's status and message set
 * (the kernel's own failure included). */
int q7_emu_receive(struct q7_emu_session *s, struct q7_run_result *r);
/* Copies the tensor the received call returned into r
 * (q7_run_take_output), reading what came back from data (the session's
 * own, or the race check's merged copy of it). 0, or -1 after
 * q7_run_fail(). */
int q7_emu_take_output(const struct q7_emu_session *s, const unsigned char *data,
                       struct q7_run_result *r);
/* A copy of the tensor data the sent call put on the core (caller frees). */
unsigned char *q7_emu_sent_data(const struct q7_emu_session *s, size_t *size);

#endif
