/* What q7-run's LIB names: one image, or a multicore manifest (read by
 * model/manifest, the format's one codec; core i runs image i). Read once
 * per engine and handed to the targets, host and emulated alike. */
#ifndef Q7_RUN_IMAGE_H
#define Q7_RUN_IMAGE_H

#include "support.h"

/* Appends the image path of each of cores (1..8; 0: the library's, a
 * manifest's images or the one image) to paths. The number appended, or
 * -1 with err set (it quotes LIB: pass a growing carrier): LIB unreadable, a damaged manifest, or
 * fewer images than cores. */
int q7_run_images(const char *lib, unsigned cores, struct q7_strvec *paths, struct q7_err *err);

/* Refuses images built for another target (target.h): an image's ELF
 * machine names its row (a host library, any machine but Xtensa, for
 * --target=emulated; an Xtensa image for --target=host); the message
 * names the file and the target to use. Files that are not ELF are left
 * to the target to report. 0, or -1 with err set (it quotes the path: pass a growing
 * carrier). */
struct q7_target;
int q7_run_check_images(const struct q7_strvec *paths, const struct q7_target *t,
                        struct q7_err *err);

/* The facts that check reads, for a caller that words its own message
 * (q7cc.torch's load_library): path's ELF machine (e_machine) into
 * *machine: 1; 0 when it cannot be opened or read, or is not ELF; -1
 * with err set when reading it would block or never end
 * (a FIFO, a device). */
int q7_run_image_machine(const char *path, unsigned *machine, struct q7_err *err);
/* The row whose images have machine: the one that names it, else the one
 * that takes any machine (the host); NULL for none. */
const struct q7_target *q7_run_machine_target(unsigned machine);

#endif
