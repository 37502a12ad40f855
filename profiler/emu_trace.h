/* The emulated core's instruction trace, made into a profile: QEMU's
 * block log read once, each execution counted under the call stack it
 * ran in (docs/profile.md, "How: QEMU's block log"). Frames are named
 * from the image's symbols (its unstripped file, moved to where the
 * prelinker placed it) and the boot program's; one root per core,
 * "core0", "core1", ... */
#ifndef Q7_EMU_TRACE_H
#define Q7_EMU_TRACE_H

#include <stdint.h>

#include "elf_syms.h"
#include "insn_profile.h"

#define Q7_TRACE_QEMU_FLAGS "in_asm,exec,nochain"

struct q7_trace_core {
	unsigned index;       /* the core's number: its root "core<index>" */
	uint32_t entry;       /* the entry's address on the core */
	uint32_t lo, hi;      /* the image's placed range [lo, hi) */
	struct q7_syms syms;  /* the image's functions, placed */
};

/* Reads log and adds every core's stacks under parent. cores: in the order
 * the boot program runs them. 0, or -1 with err naming the log and what is
 * wrong (a block executed that was never listed, fewer entry calls than
 * cores). */
int q7_trace_profile(const char *log, const struct q7_trace_core *cores, unsigned ncores,
                     const struct q7_syms *boot, struct q7_prof *p, unsigned parent,
                     struct q7_err *err);

#endif
