/* The object of a compile appears only with its records (before: an
 * interrupted compile left an object without them, which make then
 * trusted, and the next link silently lacked the kernel). The compiler
 * writes the object into q7cc's temporary folder for its tools, under the object's own
 * name; q7cc attaches the records there and only then renames it to -o
 * (or copies it through a temporary beside -o when the folders are on
 * two file systems, and through a link to the file it names). A compile
 * stopped at any point, SIGKILL of q7cc's whole process group included,
 * leaves -o as it was: no compiler ever writes it.
 *
 * The compiler names some files after -o: the dependency file of -MD and
 * -MMD and its target, which q7cc then names itself (-MF, -MQ, as GCC's
 * driver spells them); and files that would be wrong under another name
 * (.gcno, .su, .dwo, dumps, the switches recorded in the object), for
 * which the compiler writes -o itself, as before. */
#include "modes.h"
#include "tempfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options whose outputs are named after -o's name, or that record it. */
static bool names_after_output(const char *w)
{
	static const char *const prefixes[] = {
		"-gsplit-dwarf", "--coverage", "-ftest-coverage", "-fprofile-", "-fstack-usage",
		"-save-temps", "-fdump-", "-fcallgraph-info", "-dumpbase", "-dumpdir", "-auxbase",
		"-frecord-gcc-switches", "-grecord-command-line", "-ftime-trace", "-fopt-info",
		"-fbranch-probabilities", "-fauto-profile", "-fsave-optimization-record",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(w, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

char *q7_obj_aux_name(const char *obj, const char *ext)
{
	const char *base = q7_path_basename(obj), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - obj) : strlen(obj);
	return q7_xasprintf("%.*s%s", (int)n, obj, ext);
}

char *q7_obj_temp(const struct q7_drv *d, const char *obj, struct q7_strvec *extra)
{
	if (d->dry)
		return NULL;
	enum q7_output_kind k = q7_output_kind(obj);
	if (k != Q7_OUTPUT_NEW && k != Q7_OUTPUT_FILE)
		return NULL; /* a device or a FIFO is the compiler's to write */
	bool md = false, mf = false, mt = false;
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		const char *w = u->tok[0];
		if (u->input)
			continue;
		if (names_after_output(w))
			return NULL;
		for (int t = 0; t < u->ntok; t++)
			if (strncmp(u->tok[t], "-Wp,", 4) == 0 || strncmp(u->tok[t], "-Wa,", 4) == 0)
				return NULL; /* options handed on unseen: leave the names alone */
		md |= strcmp(w, "-MD") == 0 || strcmp(w, "-MMD") == 0;
		mf |= strncmp(w, "-MF", 3) == 0;
		mt |= strncmp(w, "-MT", 3) == 0 || strncmp(w, "-MQ", 3) == 0;
	}
	/* The folder of the tools' own temporaries: swept whole at exit and
	 * on a signal, with what the record attach leaves if stopped. */
	char *tmp = q7_path_join(q7_temp_tool_dir(), q7_path_basename(obj));
	q7_temp_register(tmp);
	if (md && !mf) {
		char *dep = q7_obj_aux_name(obj, ".d"); /* GCC's driver's %.d */
		q7_sv_add(extra, "-MF");
		q7_sv_add(extra, dep);
		free(dep);
	}
	if (md && !mt) {
		q7_sv_add(extra, "-MQ");
		q7_sv_add(extra, obj);
	}
	return tmp;
}

int q7_obj_commit(const char *tmp, const char *obj)
{
	struct stat st;
	/* A plain name on the same file system: one rename. */
	if ((lstat(obj, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode)) && rename(tmp, obj) == 0) {
		q7_temp_forget(tmp);
		return 0;
	}
	size_t len;
	char *bytes = q7_read_file(tmp, &len);
	const char *what = "cannot read the compiled object";
	int rc = bytes && stat(tmp, &st) == 0
	                 ? q7_outfile_write(obj, bytes, len, st.st_mode & 0777, &what)
	                 : -1;
	if (rc != 0)
		q7_error("%s: %s: %s", obj, what, strerror(errno));
	free(bytes);
	return rc;
}
