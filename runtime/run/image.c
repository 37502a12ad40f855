/* LIB -> the image each core runs (see image.h). */
#include "image.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_MAGIC "q7cc-multicore 1"

int q7_run_images(const char *lib, unsigned cores, struct q7_strvec *paths, char **err)
{
	size_t len = 0;
	char *text = q7_read_file(lib, &len);
	if (!text) {
		*err = q7_xasprintf("%s: cannot read: %s", lib, strerror(errno));
		return -1;
	}
	size_t mlen = strlen(MANIFEST_MAGIC);
	if (len < mlen || memcmp(text, MANIFEST_MAGIC, mlen) != 0 ||
	    (text[mlen] != '\n' && text[mlen] != '\r')) {
		free(text);
		for (unsigned i = 0; i < cores; i++)
			q7_sv_add(paths, lib);
		return 0;
	}
	if (memchr(text, 0, len)) {
		*err = q7_xasprintf("%s: damaged multicore manifest (a NUL byte)", lib);
		free(text);
		return -1;
	}
	char *dir = q7_path_dirname(lib);
	struct q7_strvec images = {0};
	char *save = NULL;
	for (char *line = strtok_r(text + mlen, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
		if (*line)
			q7_sv_add(&images, line);
	int rc = 0;
	if (images.n < cores) {
		*err = q7_xasprintf("%s: the manifest names %zu image%s, %u cores asked", lib, images.n,
		                    images.n == 1 ? "" : "s", cores);
		rc = -1;
	}
	for (unsigned i = 0; rc == 0 && i < cores; i++) {
		char *p = images.v[i][0] == '/' ? q7_xstrdup(images.v[i]) : q7_path_join(dir, images.v[i]);
		q7_sv_add(paths, p);
		free(p);
	}
	q7_sv_free(&images);
	free(dir);
	free(text);
	return rc;
}
