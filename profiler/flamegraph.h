/* A flame graph of an instruction profile (insn_profile.h) as one SVG file a
 * browser shows on its own (docs/profile.md, "FILE.svg"). "?hover=NAME"
 * hovers the first frame so named once loaded (what a headless browser's
 * test uses). */
#ifndef Q7_FLAMEGRAPH_H
#define Q7_FLAMEGRAPH_H

#include "insn_profile.h"

/* The SVG text (caller frees). Sums the profile. */
char *q7_flamegraph_svg(struct q7_prof *p, const char *title);

#endif
