/* The real compiler's include directories and target macros, cached. */
#include "sysinfo.h"
#include "cachefile.h"
#include "modes.h" /* q7_step_query */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CACHE_MAGIC "q7cc-sysinfo 1"
/* A larger entry is a miss (a compiler's probe is ~20 KiB). */
#define MAX_ENTRY_BYTES (4u << 20)

void q7_sysinfo_parse_includes(const char *text, struct q7_strvec *out)
{
	bool in = false;
	char *copy = q7_xstrdup(text);
	for (char *rest = copy, *line; (line = strsep(&rest, "\n"));) {
		if (strncmp(line, "#include <...> search starts here:", 34) == 0) {
			in = true;
		} else if (strncmp(line, "End of search list.", 19) == 0) {
			in = false;
		} else if (in && line[0] == ' ') {
			char *dir = line + 1;
			char *fw = strstr(dir, " (framework directory)");
			if (fw)
				*fw = '\0';
			q7_sv_add(out, dir);
		}
	}
	free(copy);
}

/* Macros that follow the language standard, not the target: libclang sets
 * them from the -std the compile uses. */
static bool language_macro(const char *name)
{
	return strncmp(name, "__cplusplus", 11) == 0 || strncmp(name, "__cpp_", 6) == 0 ||
	       strncmp(name, "__STDCPP_", 9) == 0 || strncmp(name, "__STDC_VERSION__", 16) == 0 ||
	       strncmp(name, "__GXX_EXPERIMENTAL_CXX0X__", 26) == 0 ||
	       strcmp(name, "__STDC__") == 0;
}

void q7_sysinfo_parse_macros(const char *text, struct q7_strvec *out)
{
	char *copy = q7_xstrdup(text);
	for (char *rest = copy, *line; (line = strsep(&rest, "\n"));) {
		if (strncmp(line, "#define ", 8) != 0)
			continue;
		char *name = line + 8;
		/* The name ends at the first space outside a parameter list. */
		char *q = name;
		int depth = 0;
		for (; *q && (depth > 0 || *q != ' '); q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
		}
		char *value = *q ? q + 1 : q;
		*q = '\0';
		if (!*name || language_macro(name))
			continue;
		q7_sv_addf(out, "%s=%s", name, value);
	}
	free(copy);
}

/* ---- probing -------------------------------------------------------------- */

static void probe_flags(const struct q7_toolchain *p, struct q7_strvec *cmd)
{
	if (p->kind == Q7_TOOLCHAIN_XT) {
		q7_sv_add(cmd, "-stdlib=libc++-e");
		q7_sv_addf(cmd, "--xtensa-core=%s", p->core);
		q7_sv_addf(cmd, "--xtensa-system=%s", p->system);
	}
}

/* Asks the compiler for its include folders (-E -v, on stderr) and its
 * macros (-dM -E, on stdout). */
static int probe(const struct q7_drv *d, const struct q7_toolchain *p, struct q7_sysinfo *si)
{
	static const char *const modes[2][5] = {{"-E", "-v", "-x", "c++", "/dev/null"},
	                                        {"-dM", "-E", "-x", "c++", "/dev/null"}};
	static const int fds[2] = {2, 1};
	void (*const parse[2])(const char *, struct q7_strvec *) = {q7_sysinfo_parse_includes,
	                                                             q7_sysinfo_parse_macros};
	struct q7_strvec *into[2] = {&si->includes, &si->predefines};
	int rc = 0;
	for (int i = 0; i < 2 && rc == 0; i++) {
		struct q7_strvec cmd = {0};
		q7_sv_add(&cmd, p->cxx);
		probe_flags(p, &cmd);
		for (size_t k = 0; k < 5; k++)
			q7_sv_add(&cmd, modes[i][k]);
		char *out = NULL;
		rc = q7_step_query(d, cmd.v, fds[i], &out) != 0 ? -1 : 0;
		if (rc == 0 && out) /* NULL under -###, which never asks */
			parse[i](out, into[i]);
		free(out);
		q7_sv_free(&cmd);
	}
	if (rc != 0)
		q7_warning("%s: could not ask it for its include directories and macros",
		           p->cxx);
	return rc;
}

/* ---- the cache ------------------------------------------------------------ */

static char *cache_path(const struct q7_toolchain *p)
{
	char *path = q7_path_search(p->cxx, NULL);
	char *dir = path ? q7_cache_dir("") : NULL;
	struct stat st;
	if (!dir || stat(path, &st) != 0) {
		free(path);
		free(dir);
		return NULL;
	}
	struct q7_strvec flags = {0};
	probe_flags(p, &flags);
	struct q7_strbuf k = {0};
	q7_sb_addf(&k, "%s\n%s\n%lld.%ld:%lld\n", p->name, path, (long long)st.st_mtim.tv_sec,
	           (long)st.st_mtim.tv_nsec, (long long)st.st_size);
	for (size_t i = 0; i < flags.n; i++)
		q7_sb_addf(&k, "%s\n", flags.v[i]);
	char key[33];
	q7_cache_key(k.s, k.len, key);
	char *file = q7_xasprintf("%s/sysinfo-%s", dir, key);
	q7_sb_free(&k);
	q7_sv_free(&flags);
	free(dir);
	free(path);
	return file;
}

static int cache_load(const char *file, struct q7_sysinfo *si)
{
	char *text = q7_cache_read(file, MAX_ENTRY_BYTES, NULL);
	if (!text)
		return -1;
	char *rest = text, *line = strsep(&rest, "\n");
	int rc = strcmp(line, CACHE_MAGIC) == 0 ? 0 : -1;
	while (rc == 0 && (line = strsep(&rest, "\n"))) {
		if (strncmp(line, "I ", 2) == 0)
			q7_sv_add(&si->includes, line + 2);
		else if (strncmp(line, "D ", 2) == 0)
			q7_sv_add(&si->predefines, line + 2);
	}
	free(text);
	return rc;
}

static void cache_store(const char *file, const struct q7_sysinfo *si)
{
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s\n", CACHE_MAGIC);
	for (size_t i = 0; i < si->includes.n; i++)
		q7_sb_addf(&b, "I %s\n", si->includes.v[i]);
	for (size_t i = 0; i < si->predefines.n; i++)
		q7_sb_addf(&b, "D %s\n", si->predefines.v[i]);
	q7_cache_write(file, b.s, b.len); /* unwritable: the next run probes again */
	q7_sb_free(&b);
}

int q7_sysinfo_get(const struct q7_drv *d, const struct q7_toolchain *p, struct q7_sysinfo *si)
{
	memset(si, 0, sizeof *si);
	char *file = cache_path(p);
	if (file && cache_load(file, si) == 0) {
		free(file);
		return 0;
	}
	q7_sysinfo_free(si);
	int rc = probe(d, p, si);
	if (rc == 0 && file)
		cache_store(file, si);
	free(file);
	return rc;
}

void q7_sysinfo_free(struct q7_sysinfo *si)
{
	q7_sv_free(&si->includes);
	q7_sv_free(&si->predefines);
}
