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

#include <stdbool.h>

#include "insn_profile.h"

/* The SVG text (caller frees). Sums the profile. */
char *q7_flamegraph_svg(struct q7_prof *p, const char *title);

/* What a frame is: "kernel" (the kernel's own code: inside the frame its
 * wrapper calls, and not a runtime or C library function), "runtime",
 * "soft-float" (libgcc's helpers, __*, and the runtime's sf_*), "unit" (a
 * device view's operation, "f32 mul": device_view.h), "boot" or
 * "root" (a core or an op; depth counts from 1 at the root). The graph
 * draws what a soft-float routine calls as soft-float too. */
const char *q7_frame_kind(const char *name, unsigned depth, bool in_kernel);

#endif
