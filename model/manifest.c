/* The multicore manifest's codec (manifest.h). */
#include "manifest.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "q7/xtensa.h" /* Q7_NUM_CORES */

/* Eight names of PATH_MAX and the magic line fit many times over: a
 * longer file is no manifest q7cc wrote, and is not read on. */
#define MANIFEST_MAX 65536u

/* A name a manifest's line can hold. */
static bool name_ok(const char *s)
{
	return *s && !strpbrk(s, "\r\n");
}

int q7_manifest_text(const char *path, const char *const *images, size_t n, char **text,
                     struct q7_err *err)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, Q7_MANIFEST_MAGIC "\n");
	for (size_t i = 0; i < n; i++) {
		if (!name_ok(images[i])) {
			q7_err_set(err, path, "image name '%s' cannot be a line of the multicore "
			           "manifest (empty, or a line break in it)", images[i]);
			q7_sb_free(&b);
			return -1;
		}
		q7_sb_addf(&b, "%s\n", images[i]);
	}
	*text = b.s;
	return 0;
}

int q7_manifest_read(const char *path, struct q7_strvec *images, struct q7_err *err)
{
	size_t len = 0;
	bool more = false;
	const char *why = NULL;
	int fd = q7_open_regular(path, &why);
	char *text = fd >= 0 ? q7_read_upto(fd, MANIFEST_MAX, &len, &more) : NULL;
	if (fd >= 0) {
		why = text ? NULL : strerror(errno);
		close(fd);
	}
	if (!text) {
		q7_err_set(err, path, "cannot read: %s", why);
		return -1;
	}
	size_t mlen = strlen(Q7_MANIFEST_MAGIC);
	if (len < mlen + 1 || memcmp(text, Q7_MANIFEST_MAGIC, mlen) != 0 ||
	    (text[mlen] != '\n' && text[mlen] != '\r')) {
		free(text);
		return 0; /* an image: read no further (it may be large) */
	}
	if (more) {
		q7_err_set(err, path, "damaged multicore manifest (over %u bytes)", MANIFEST_MAX);
		free(text);
		return -1;
	}
	if (memchr(text, 0, len)) {
		q7_err_set(err, path, "damaged multicore manifest (a NUL byte)");
		free(text);
		return -1;
	}
	struct q7_strvec names = {0};
	char *save = NULL;
	for (char *line = strtok_r(text + mlen, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
		if (*line)
			q7_sv_add(&names, line);
	free(text);
	int rc = 1;
	if (names.n == 0) {
		q7_err_set(err, path, "the multicore manifest names no image");
		rc = -1;
	} else if (names.n > Q7_NUM_CORES) {
		q7_err_set(err, path, "damaged multicore manifest (%zu images, at most %d)", names.n,
		           Q7_NUM_CORES);
		rc = -1;
	}
	char *dir = q7_path_dirname(path);
	for (size_t i = 0; rc == 1 && i < names.n; i++) {
		char *p = names.v[i][0] == '/' ? q7_xstrdup(names.v[i]) : q7_path_join(dir, names.v[i]);
		q7_sv_add(images, p);
		free(p);
	}
	free(dir);
	q7_sv_free(&names);
	return rc;
}
