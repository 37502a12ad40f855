/* A call on the emulated core with an instruction profile: one QEMU of
 * its own, started with its block log (emu_trace.h), the log read into
 * the profile after QEMU exits (QEMU's log is complete only then). The
 * call's result is the same as q7_run_emulated's; only slower.
 *
 * Memory: the log lives in the session's folder, removed with it before
 * return. */
#ifndef Q7_EMU_PROFILE_H
#define Q7_EMU_PROFILE_H

#include "emu_trace.h"
#include "insn_profile.h"
#include "engine.h"

/* Runs req on lib (images as in q7_emu_config; all its cores, one after
 * another) and adds each core's stacks under parent ("core0;..."). 0
 * when the op ran and returned OK; else 1 with r's status and message
 * set. */
int q7_prof_emulated(const char *lib, const char *const *images, const struct q7_call *req,
                     struct q7_prof *p, unsigned parent, struct q7_run_result *r);

#endif
