/* A profile whose stacks are the frames an image's symbols name at
 * addresses across it, each nested in the one before: how the fuzzer and
 * the mutation harness (tests/mutate) bring names of any bytes to the
 * profile's writers, as q7-run --profile would after a call. */
#ifndef Q7_FUZZ_SYMS_PROFILE_H
#define Q7_FUZZ_SYMS_PROFILE_H

#include "elf_syms.h"
#include "insn_profile.h"

static inline void syms_profile(struct q7_prof *p, const struct q7_syms *syms)
{
	q7_prof_init(p);
	unsigned node = q7_prof_child(p, Q7_PROF_ROOT, "core0");
	for (size_t i = 0; i < syms->n && i < 4096; i++) {
		const struct q7_sym *y = q7_syms_find(syms, syms->v[i].addr + syms->v[i].size / 2);
		if (y) {
			node = q7_prof_child(p, node, y->name);
			p->v[node].self += 1 + i % 7;
		}
	}
}

#endif
