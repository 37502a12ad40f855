/* Writes the LSP packages to disk (lsp.h), each file by a temp file beside
 * it and a rename, so a build interrupted halfway never leaves a truncated
 * script for a later link to read. */
#include "lsp.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p for one path, 0755 before the umask. */
static int make_dirs(const char *path)
{
	char *p = q7_xstrdup(path);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			q7_error("%s: cannot create directory: %s", p, strerror(errno));
			rc = -1;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	const char *what;
	if (q7_outfile_write(path, text, strlen(text), 0644, &what) != 0) {
		q7_error("%s: %s: %s", path, what, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_package(const struct q7_lsp *lsp, const char *outdir)
{
	char *dir = q7_path_join(outdir, lsp->name);
	char *scripts = q7_path_join(dir, "ldscripts");
	char *specs = q7_path_join(dir, "specs");
	int rc = make_dirs(scripts);
	if (rc == 0)
		rc = write_text(specs, q7_lsp_specs_text());
	for (int v = 0; rc == 0 && v < Q7_LSP_NVARIANTS; v++) {
		char *path = q7_xasprintf("%s/elf32xtensa.%s", scripts, q7_lsp_variant_suffix(v));
		char *text = q7_lsp_script_text(lsp, v);
		rc = write_text(path, text);
		free(text);
		free(path);
	}
	free(specs);
	free(scripts);
	free(dir);
	return rc;
}

int q7_lsp_write_all(const char *outdir)
{
	int rc = 0;
	for (int core = 0; rc == 0 && core <= Q7_NUM_CORES; core++)
		rc = write_package(q7_lsp_get(core < Q7_NUM_CORES ? core : Q7_LSP_SINGLE), outdir);
	return rc;
}
