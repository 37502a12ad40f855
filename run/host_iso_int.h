/* run/host_iso's internal interface between the parent's side
 * (host_iso.c: the region, the calls) and the worker (host_iso_worker.c:
 * the process that loads the images and runs the cores). host_iso.c's
 * header describes the region and the protocol. */
#ifndef Q7_RUN_HOST_ISO_INT_H
#define Q7_RUN_HOST_ISO_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "call_layout.h"
#include "host_fault.h"
#include "call_limits.h"
#include "host_iso.h"
#include "engine.h"

#define RESERVE (16ull << 30) /* address space; memory only where touched */
/* The inaccessible bytes after the heap arena and after each tensor: a
 * write that far past one faults in the worker (docs/runtime.md). */
#define GUARD_GAP ((uint64_t)64 << 20)
#define LIST_ROOM 16384

/* What the worker was doing when it died while starting. */
enum state { ST_STARTING, ST_LOADING, ST_LISTING };
enum end { END_NONE, END_FAULT, END_EXIT, END_LOST };

/* The control block, at the region's start. */
struct ctl {
	uint32_t seq;
	uint64_t used;          /* the layout's end: the worker guards the rest */
	uint64_t heap, heap_size;
	/* The call's slots: the worker makes a GUARD_GAP inaccessible after
	 * the heap arena and after each, and an input's pages read-only. */
	uint32_t nslots;
	struct q7_slot slots[Q7_MAX_SLOTS];
	uint32_t ncores;
	double time_limit;      /* the worker's own alarm: a parent gone while it spins */
	/* the worker's side */
	volatile uint32_t state;
	volatile uint32_t core; /* the core loading or running */
	volatile uint32_t end;  /* enum end */
	int32_t exit_status;
	struct q7_fault fault;
	char load_error[Q7_MESSAGE_SIZE];
	char list[LIST_ROOM];   /* the op list ("name<TAB>schema" lines), for names */
	struct q7_frame frames[Q7_NUM_CORES];
};

struct q7_iso {
	char *const *paths;
	unsigned cores;
	size_t heap_size;
	double timeout;
	enum q7_guard guard;
	bool forward;
	unsigned unchecked;     /* safety checks off (Q7_UNCHECKED_*, engine.h) */
	const volatile sig_atomic_t *interrupted; /* the caller's Ctrl-C (engine.h) */
	size_t page;
	/* the region */
	unsigned char *base;
	size_t reserve;         /* its bytes */
	struct ctl *ctl;
	size_t ctl_bytes;
	/* the worker */
	pid_t pid;              /* 0: none */
	int fd;                 /* our end of its socket */
	unsigned forks;         /* q7_fork_count in the process that made all this */
	double started;         /* when the worker was forked */
	bool fresh;             /* no call since it started: the first includes the start */
	/* the last call's layout: offsets from the region's start, each
	 * slot's end its guard */
	struct q7_slot slots[Q7_MAX_SLOTS];
	unsigned nslots;
	struct q7_frame answer; /* the frame a call ended with, copied out of the region */
};

/* The worker's life after the fork, on its end fd of the socket: never
 * returns (host_iso_worker.c). */
void q7_iso_worker_main(struct q7_iso *s, int fd) __attribute__((noreturn));

#endif
