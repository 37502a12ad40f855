/* wrapper/cachefile: q7cc's per-user cache folder and the files in it,
 * trusted only as far as ccache trusts its own (docs/robustness.md,
 * "Caches", has the rules).
 *
 * Owns: finding, checking and making the folder; reading, checking and
 * writing its entries. */
#ifndef Q7_CACHEFILE_H
#define Q7_CACHEFILE_H

#include <stddef.h>

/* The checked cache folder's subfolder sub ("" for the folder itself),
 * created 0700; NULL when there is no home, it cannot be made, or it is
 * not safe (then one note per process says why). */
char *q7_cache_dir(const char *sub);
/* The contents of entry path without its checksum (NUL-terminated), or
 * NULL for a miss: absent, a link, not a regular file of the user's,
 * larger than max, or a checksum that does not match. */
char *q7_cache_read(const char *path, size_t max, size_t *len);
/* Writes buf and its checksum to path (in a folder q7_cache_dir gave),
 * whole or not at all. 0, or -1 (a cache that cannot be written costs
 * only the next run's work). */
int q7_cache_write(const char *path, const void *buf, size_t len);
/* Two FNV-1a 64 of buf, as 32 hex digits: an entry's name, and the
 * checksum every entry ends with. */
void q7_cache_key(const void *buf, size_t len, char out[33]);

#endif
