/* The device view of an instruction profile, each soft-float or libgcc
 * helper's call counted as the one instruction of the unit that has it
 * (docs/profile.md, "The device view"); the raw view is the profile as
 * counted.
 *
 * The one table: helper symbol -> frame name -> the unit that has it. */
#ifndef Q7_DEVICE_VIEW_H
#define Q7_DEVICE_VIEW_H

#include "insn_profile.h"

struct q7_devop {
	const char *sym;   /* the helper, as the image's symbol table names it */
	const char *frame; /* its frame in the device view */
	const char *unit;  /* what executes it in one instruction on the device */
};

enum q7_prof_view { Q7_PROF_VIEW_DEVICE, Q7_PROF_VIEW_RAW };

/* The table's row for a helper symbol, or NULL. */
const struct q7_devop *q7_devop_find(const char *sym);
/* 1 when name is a frame the device view makes ("f32 mul"), else 0. */
int q7_devop_is_frame(const char *name);

/* dst (initialised, empty) becomes src's device view: a helper frame
 * entered N times (its calls) is a frame of N instructions named after
 * its operation; frames under it are dropped. */
void q7_prof_device_view(const struct q7_prof *src, struct q7_prof *dst);

/* "device" or "raw" -> *view. 0, or -1 when neither. */
int q7_prof_view_parse(const char *s, enum q7_prof_view *view);

#endif
