/* run/emu_session: what q7_run_emulated (emulated.c) uses beyond
 * the public session API: a call in two halves, so that several sessions
 * run at once (the race check: one core per session, each from the same
 * tensor data, the whole data handed back to be merged).
 *
 * Memory: what q7_emu_last points at belongs to the session and lives
 * until its next call or its close. */
#ifndef Q7_EMU_SESSION_INT_H
#define Q7_EMU_SESSION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "emu_session.h"
#include "prelink.h"

/* What the last core of a call left. */
struct q7_emu_back {
	const struct q7_frame *frame; /* the last core's frame */
	const unsigned char *data;    /* the bytes handed back: dst, or the whole data */
	uint32_t data_addr;           /* their address on the core */
	size_t data_bytes;
	const unsigned char *out;     /* the out tensor when outside them */
	size_t out_bytes;
};

/* Sends req: to every core of the session (only_core < 0), or to core
 * only_core alone, then with the whole tensor data handed back. 0, or -1
 * after q7_run_fail(). */
int q7_emu_send(struct q7_emu_session *s, const struct q7_call *req, int only_core,
                struct q7_run_result *r);
/* Reads the sent call's records. 0, or -1 with r's status and message set
 * (the kernel's own failure included). */
int q7_emu_receive(struct q7_emu_session *s, struct q7_run_result *r);
/* Points b at what the received call left. */
void q7_emu_last(const struct q7_emu_session *s, struct q7_emu_back *b);
/* Copies the returned tensor of b into r (q7_run_take_output). */
int q7_emu_take_output(const struct q7_emu_back *b, struct q7_run_result *r);
/* A copy of the tensor data the sent call put on the core (caller frees). */
unsigned char *q7_emu_sent_data(const struct q7_emu_session *s, size_t *size);
/* Where core's image was placed (its prelinked header), and the boot
 * program the session runs: what a profile names frames with. */
const struct q7_pl_header *q7_emu_image_header(const struct q7_emu_session *s, unsigned core);
const char *q7_emu_boot_path(const struct q7_emu_session *s);
/* EXCCAUSE's name in the ISA ("LoadProhibited"), and what it means for a
 * kernel ("a load from memory that may not be read"). */
const char *q7_emu_exc_name(uint32_t cause);
const char *q7_emu_exc_meaning(uint32_t cause);

#endif
