/* wrapper/ldsplit: the gnu 8-core link in two stages (docs/driver.md,
 * "The split 8-core link (gnu)").
 *
 * Owns: deciding whether the user's link flags allow the split, and
 * sorting them into the two stages. Every linker word must be one whose
 * stage is known; anything else keeps the eight full links, which are
 * always correct. The commands are built in cmd.c, the early relocatable
 * link's choice in link.c.
 *
 * Memory: the plan owns its vectors (q7_ldsplit_free). */
#ifndef Q7_LDSPLIT_H
#define Q7_LDSPLIT_H

#include <stdbool.h>

#include "toolchain.h"

struct q7_ldsplit {
	char *ld;                    /* the linker the image links run */
	struct q7_strvec flags;      /* user driver flags for the relocatable link */
	struct q7_strvec inputs;     /* user objects and libraries for it, in order,
	                                with their archive-selection flags */
	struct q7_strvec image_args; /* user linker words for every image link */
	char *why_not;               /* when the plan says no: the reason, for -v */
	bool early;                  /* objects only: the relocatable link need not
	                                wait for wrapper.o (see below) */
};

/* Plans the split link of a gnu --q7-multicore link whose positional words
 * (objects, libraries, -Wl, -Xlinker, -l) are objs. True when the split
 * applies; false, with s->why_not set, when the eight full links must run. */
bool q7_ldsplit_plan(const struct q7_toolchain *p, const struct q7_inv *inv, char *const *objs,
                     struct q7_ldsplit *s);
void q7_ldsplit_free(struct q7_ldsplit *s);

/* The stage of one linker word (the words of -Wl, and -Xlinker), for the
 * plan and its tests. takes_arg: the next word is its argument. */
enum q7_ld_stage { Q7_LD_UNKNOWN, Q7_LD_RESOLVE, Q7_LD_IMAGE, Q7_LD_BOTH };
enum q7_ld_stage q7_ldsplit_word_stage(const char *word, bool *takes_arg);

#endif
