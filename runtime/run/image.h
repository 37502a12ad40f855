/* What q7-run's LIB names: one image, or the multicore manifest of
 * contracts.md ("q7cc-multicore 1", then one image name per line, relative
 * to the manifest's directory; core i runs image i). Shared by the host and
 * the emulated targets. */
#ifndef Q7_RUN_IMAGE_H
#define Q7_RUN_IMAGE_H

#include "support.h"

/* Appends the image path for each of cores (1..8) to paths. 0, or -1 with
 * *err set (caller frees). */
int q7_run_images(const char *lib, unsigned cores, struct q7_strvec *paths, char **err);

#endif
