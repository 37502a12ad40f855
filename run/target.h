/* Run targets, one row each: where a library's kernels run (the host's
 * CPU, an emulated Xtensa core, ...), what its images are, how q7cc
 * builds them, what the target can do, and its open, call and close.
 * What the engine does for every row, and how a new target is added:
 * docs/runtime.md, "Targets are rows". */
#ifndef Q7_RUN_TARGET_H
#define Q7_RUN_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "support.h"

struct q7_prof;

/* q7_target.can: what a target does beyond calls. */
enum {
	/* Its kernels can run in a process of their own, or sanitized
	 * (enum q7_host_mode: isolate=True, sanitize=True, q7-run --sanitize). */
	Q7_TARGET_ISOLATE = 1u,
	Q7_TARGET_SANITIZE = 2u,
	/* An instruction profile of its calls (its profile function). */
	Q7_TARGET_PROFILE = 4u,
};

/* What a target's open is given, and what it sets. */
struct q7_target_open {
	const char *lib;                /* as given to q7_engine_open */
	const struct q7_strvec *images; /* one per core, checked against the row's machine */
	const struct q7_engine_opts *opts;
	void *state;                    /* set: the target's, handed to its other functions */
	bool apart;                     /* set: its kernels run in another process
	                                 * (so Ctrl-C can stop a call) */
	bool checks_uninit;             /* set: it runs opts->check_uninit's two
	                                 * calls itself (the engine then does not) */
};

struct q7_target {
	const char *name;    /* --target=, q7cc.torch's target= */
	unsigned machine;    /* the ELF machine (e_machine) of its images */
	/* Also owns images of any machine no row names (the host: an AArch64
	 * library is the host's on an AArch64 host); its messages then say
	 * which machine. */
	bool any_machine;
	const char *profile; /* q7cc --q7-toolchain= that builds its libraries */
	/* Its image in messages ("a host library"), and how to build one
	 * ("a host library (q7cc --q7-toolchain=host)"). */
	const char *image;
	const char *build;
	unsigned can;        /* Q7_TARGET_* */
	/* Opens o->images: 0 with o->state (and o->apart) set, or -1 with err
	 * set and nothing left open. */
	int (*open)(struct q7_target_open *o, struct q7_err *err);
	/* Runs c on cores cores (0: core 0 only, the op list's call), as
	 * q7_engine_call; called under the engine's lock, one at a time. */
	int (*call)(void *state, const struct q7_call *c, unsigned cores, struct q7_run_result *r);
	/* q7_engine_profile (NULL without Q7_TARGET_PROFILE). */
	void (*profile_into)(void *state, struct q7_prof *p, unsigned parent);
	/* Frees state; at_exit: q7_engine_close_at_exit's. */
	void (*close)(void *state, bool at_exit);
};

/* The row named name (NULL: the first, the default: host); NULL when no
 * row has that name. */
const struct q7_target *q7_target_find(const char *name);
/* Row i (0..), NULL past the last. */
const struct q7_target *q7_target_at(size_t i);
/* The rows' names for messages: "host or emulated" (sep "|": "host|emulated"). */
void q7_target_names(char *buf, size_t n, const char *sep);
/* Adds a row after the built-in ones (a test's fake target). Not
 * thread-safe: before any engine opens. 0, or -1 when the table is full
 * or the name is taken. */
int q7_target_register(const struct q7_target *t);

/* The rows of target_host.c and target_emulated.c. */
extern const struct q7_target q7_target_host;
extern const struct q7_target q7_target_emulated;

/* The one process-wide lock of every session and worker operation (of
 * every engine): support/proc's table of children and support/tempfile's
 * list are not thread-safe. */
void q7_target_proc_lock(void);
void q7_target_proc_unlock(void);

#endif
