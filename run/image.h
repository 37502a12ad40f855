/* What q7-run's LIB names: one image, or the multicore manifest of
 * contracts.md ("q7cc-multicore 1", then one image name per line, relative
 * to the manifest's directory; core i runs image i). Shared by the host and
 * the emulated targets. */
#ifndef Q7_RUN_IMAGE_H
#define Q7_RUN_IMAGE_H

#include <stdbool.h>

#include "support.h"

/* Appends the image path for each of cores (1..8) to paths. 0, or -1 with
 * *err set (caller frees). */
int q7_run_images(const char *lib, unsigned cores, struct q7_strvec *paths, char **err);
/* How many images lib has: a manifest's count, else 1. -1 with *err set
 * (caller frees). */
int q7_run_image_count(const char *lib, char **err);

/* Refuses LIB's images when they are built for the other target: a host
 * library (any machine but Xtensa) for --target=emulated, an Xtensa image
 * for --target=host; the message names the file and the target to use.
 * Files that are not ELF are left to the target to report. 0, or -1 with
 * *err set (caller frees). */
int q7_run_check_target(const char *lib, unsigned cores, bool emulated, char **err);

#endif
