/* model/manifest: the multicore manifest's one codec, the text file a
 * multicore link writes at -o (docs/driver.md, "The multicore manifest"),
 * so the link (wrapper/link.c) and its readers (run/run_image.c) agree on
 * the format and its checks. */
#ifndef Q7_MANIFEST_H
#define Q7_MANIFEST_H

#include <stddef.h>

#include "support.h"

#define Q7_MANIFEST_MAGIC "q7cc-multicore 1"

/* The manifest's text for images (their names as written: the link gives
 * base names, beside the manifest), into *text (caller frees). 0, or -1
 * with err set to "<path>: <why>" (it quotes the name: pass a growing
 * carrier) when a name cannot be a line of it (empty, or holding a line
 * break or a NUL). */
int q7_manifest_text(const char *path, const char *const *images, size_t n, char **text,
                     struct q7_err *err);

/* Reads path: 1 when it is a manifest, its images' paths appended to
 * images (resolved against the manifest's directory); 0 when it is not
 * one (an image: images untouched); -1 with err set to "<path>: <why>"
 * when it cannot be read, or is a damaged manifest (a NUL byte, no
 * image, more images than Q7_NUM_CORES). */
int q7_manifest_read(const char *path, struct q7_strvec *images, struct q7_err *err);

#endif
