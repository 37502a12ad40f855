/* Does each linked image fit its core? GNU ld says "region `sram0_0_seg'
 * overflowed by N bytes"; this says which image, which core, which section
 * and how many bytes over, in the user's words (memmap/memory_map.h has
 * the layout; q7cc --q7-memory-map draws it). An ops' stack (STACK_SIZE,
 * Q7_KERNEL_STACK) that does not fit beside the image is no error:
 * switch_stack_or_call_wrapper then takes it from the heap arena
 * (docs/vendor-flow.md, "Stack switch"), as a 2 MiB stack on one of eight
 * cores always is. */
#ifndef Q7_FIT_H
#define Q7_FIT_H

#include "support.h"

struct q7_drv;
/* After a failed link of image (named name, for core 0..7 or -1 single):
 * runs cmd again with its messages captured (d's query: shown under -v),
 * and when the linker said the window overflowed, prints the one message
 * and returns 1; else 0. */
int q7_fit_explain_link(const struct q7_drv *d, char *const *cmd, const char *name, int core);

#endif
