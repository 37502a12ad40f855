/* A flame graph of an instruction profile (insn_profile.h) as one SVG file a
 * browser shows on its own: each frame a box as wide as its share of the
 * instructions, callers below callees; its name, count and share in a
 * tooltip and in the line under the graph on hover; a search box (or
 * "?s=TEXT" in the file's URL) that marks the frames whose name holds the
 * text and gives their share; frames coloured by what they are (the
 * kernel's code, the q7 runtime, soft-float and libgcc helpers, the boot
 * program), with a legend. "?hover=NAME" hovers the first frame so named
 * once loaded (what a headless browser's test uses). */
#ifndef Q7_FLAMEGRAPH_H
#define Q7_FLAMEGRAPH_H

#include "insn_profile.h"

/* The SVG text (caller frees). Sums the profile. */
char *q7_flamegraph_svg(struct q7_prof *p, const char *title);

#endif
