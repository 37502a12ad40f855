/* The fast path (docs/lint-rules.md, "When analysis runs"): a cheap
 * textual look at a TU and the user's own headers, to decide whether
 * libclang must load at all. A false "yes" costs one parse; a false "no"
 * loses kernels, so anything that could mark a kernel counts. Also the
 * look at preprocessed text that says whether another compiler's
 * preprocessor dropped the kernel marks. */
#include "analysis.h"
#include "internal.h"
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 2048 /* headers scanned per TU; beyond that, assume yes */

struct scan {
	const struct q7_analysis_opts *o;
	struct q7_strvec quote_dirs; /* -iquote then -I: for "x.h" */
	struct q7_strvec angle_dirs; /* -I: for <x.h> */
	struct q7_strvec forced;     /* -include / -imacros files */
	struct q7_strvec skip_dirs;  /* realpaths never scanned */
	struct q7_strvec seen;       /* realpaths scanned */
	char *own_dir;               /* <prefix>/include/q7cc, real */
	bool found;
	struct q7_err *refused;      /* why it stopped: a file it may not read */
	bool stop;
	const char *from;            /* the file that includes the one read */
	bool own;                    /* the TU needs q7cc's headers (own_header) */
};

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* One of names (--q7-kernel=ns::fn names fn as written in a declaration). */
static bool names_ident(char *const *names, const char *id, size_t n)
{
	for (char *const *k = names; k && *k; k++) {
		const char *name = strrchr(*k, ':');
		name = name ? name + 1 : *k;
		if (strlen(name) == n && memcmp(name, id, n) == 0)
			return true;
	}
	return false;
}

static bool ident_marks(const struct scan *s, const char *id, size_t n)
{
	if (n >= 9 && memcmp(id, "Q7_KERNEL", 9) == 0)
		return true;
	if (n == 14 && memcmp(id, "NEURON_LIBRARY", 14) == 0)
		return true;
	/* annotate, __annotate__, clang::annotate */
	for (size_t i = 0; i + 8 <= n; i++)
		if (memcmp(id + i, "annotate", 8) == 0)
			return true;
	return names_ident(s->o->kernel_names, id, n) || names_ident(s->o->wanted_names, id, n);
}

static void scan_file(struct scan *s, const char *path, bool is_source);

static bool in_skip_dir(const struct scan *s, const char *real)
{
	for (size_t i = 0; i < s->skip_dirs.n; i++) {
		size_t n = strlen(s->skip_dirs.v[i]);
		if (strncmp(real, s->skip_dirs.v[i], n) == 0 && (real[n] == '/' || real[n] == '\0'))
			return true;
	}
	return false;
}

/* A header of q7cc's own API (<prefix>/include/q7cc/q7, torchneuron,
 * neuron): a TU that names one uses q7cc even without kernels. */
static bool own_api(const char *hdr)
{
	static const char *const dirs[] = {"q7/", "torchneuron/", "neuron/"};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (strncmp(hdr, dirs[i], strlen(dirs[i])) == 0)
			return true;
	return false;
}

/* dir/hdr when it exists (dir NULL: no), else NULL. */
static char *find_in(const char *dir, const char *hdr)
{
	char *cand = dir ? q7_path_join(dir, hdr) : NULL;
	if (cand && q7_path_exists(cand))
		return cand;
	free(cand);
	return NULL;
}

static bool dir_has(const char *dir, const char *hdr)
{
	char *there = find_in(dir, hdr);
	bool has = there != NULL;
	free(there);
	return has;
}

/* A header in a folder of q7cc's (<torch/torch.h>: the vendor's sample
 * includes q7cc's stand-in, with no mark in the file) that none of the
 * line's folders, -isystem included, nor the system's has: only q7cc's
 * folder would give it to the compiler. The C++ library's stand-ins at the
 * top of q7cc's folder are the compiler's own elsewhere. */
static bool only_own(const struct scan *s, const char *hdr)
{
	if (!strchr(hdr, '/') || !dir_has(s->own_dir, hdr))
		return false;
	for (size_t i = 0; i < s->skip_dirs.n; i++)
		if (strcmp(s->skip_dirs.v[i], s->own_dir) != 0 && dir_has(s->skip_dirs.v[i], hdr))
			return false;
	return !dir_has("/usr/local/include", hdr) && !dir_has("/usr/include", hdr);
}

/* Finds name in the directories of an include and scans it. A header found
 * nowhere in the user's directories is a system header: not scanned. */
static void follow_include(struct scan *s, const char *from, const char *name, size_t n,
                           bool quoted)
{
	char *hdr = q7_xstrndup(name, n);
	char *found = NULL;
	const struct q7_strvec *dirs = quoted ? &s->quote_dirs : &s->angle_dirs;
	if (hdr[0] == '/') {
		found = q7_path_exists(hdr) ? q7_xstrdup(hdr) : NULL;
	} else if (quoted) {
		char *dir = q7_path_dirname(from);
		found = find_in(dir, hdr);
		free(dir);
	}
	for (size_t i = 0; !found && hdr[0] != '/' && i < dirs->n; i++)
		found = find_in(dirs->v[i], hdr);
	if (own_api(hdr) || (!found && !s->own && only_own(s, hdr)))
		s->own = true;
	s->from = from;
	if (found)
		scan_file(s, found, false);
	s->from = NULL;
	free(found);
	free(hdr);
}

/* At a '#' that starts a line: follows #include / #include_next /
 * #import; returns where scanning continues. */
static const char *directive(struct scan *s, const char *path, const char *p)
{
	p++;
	p += strspn(p, " \t");
	const char *w = p;
	while (is_ident(*p))
		p++;
	size_t n = (size_t)(p - w);
	if (n == 6 && memcmp(w, "define", 6) == 0) {
		/* The name being defined is no use of it (the vendor's headers
		 * define NEURON_LIBRARY); the body is: "#define K Q7_KERNEL". */
		p += strspn(p, " \t");
		while (is_ident(*p))
			p++;
		return p;
	}
	if (!((n == 7 && memcmp(w, "include", 7) == 0) || (n == 12 && memcmp(w, "include_next", 12) == 0) ||
	      (n == 6 && memcmp(w, "import", 6) == 0))) {
		/* #ifdef NEURON_LIBRARY, #undef, #pragma, ...: not a use. */
		while (*p && *p != '\n') {
			if (*p == '\\' && p[1] == '\n')
				p++;
			else if (*p == '\\' && p[1] == '\r' && p[2] == '\n')
				p += 2;
			p++;
		}
		return p;
	}
	p += strspn(p, " \t");
	char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
	if (!close)
		return p; /* #include MACRO: cannot follow cheaply */
	const char *name = ++p;
	while (*p && *p != close && *p != '\n')
		p++;
	if (*p == close) {
		follow_include(s, path, name, (size_t)(p - name), close == '"');
		p++;
	}
	return p;
}

static const char *skip_literal(const char *p)
{
	char q = *p++;
	while (*p && *p != q && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p == q ? p + 1 : p;
}

/* R"delim( ... )delim" */
static const char *skip_raw(const char *p)
{
	const char *d = ++p;
	while (*p && *p != '(' && p - d < 16)
		p++;
	if (*p != '(')
		return p;
	size_t dn = (size_t)(p - d);
	for (p++; *p; p++)
		if (*p == ')' && strncmp(p + 1, d, dn) == 0 && p[1 + dn] == '"')
			return p + dn + 2;
	return p;
}

/* After a mark is found, only the #include lines are followed on: a
 * header libclang would open must be a regular file (docs/robustness.md,
 * "Special files"). */
static void scan_text(struct scan *s, const char *path, const char *p)
{
	bool line_start = true;
	while (*p && !s->stop) {
		char c = *p;
		if (c == '\n') {
			line_start = true;
			p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p++;
		} else if (c == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else if (c == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (c == '#' && line_start) {
			line_start = false;
			p = directive(s, path, p);
		} else if (c == '"' || c == '\'') {
			line_start = false;
			p = skip_literal(p);
		} else if (is_ident_start(c)) {
			line_start = false;
			const char *id = p;
			while (is_ident(*p))
				p++;
			if (*p == '"' && p[-1] == 'R')
				p = skip_raw(p);
			else if (!s->found && ident_marks(s, id, (size_t)(p - id)))
				s->found = true;
		} else {
			line_start = false;
			p++;
		}
	}
}

static void scan_file(struct scan *s, const char *path, bool is_source)
{
	char *real = realpath(path, NULL);
	if (!real)
		return;
	/* The TU itself is read wherever it lives. */
	bool skip = !is_source && in_skip_dir(s, real);
	for (size_t i = 0; !skip && i < s->seen.n; i++)
		skip = strcmp(s->seen.v[i], real) == 0;
	if (skip) {
		free(real);
		return;
	}
	if (s->seen.n >= MAX_FILES) {
		s->found = true;
		free(real);
		return;
	}
	q7_sv_add(&s->seen, real);
	free(real);
	const char *why;
	char *text = q7_read_regular(path, Q7_READ_TEXT_MAX, NULL, &why);
	if (text)
		scan_text(s, path, text);
	else if (errno == EFBIG)
		s->found = true; /* libclang reads it as the compiler does */
	else if (errno == EINVAL && s->from) {
		q7_err_set(s->refused, s->from, "includes %s: %s", path, why);
		s->stop = true;
	} else if (errno == EINVAL) {
		q7_err_set(s->refused, path, "cannot read: %s", why);
		s->stop = true;
	}
	free(text);
}

static void add_skip_dir(struct scan *s, const char *dir)
{
	char *real = realpath(dir, NULL);
	if (real)
		q7_sv_add(&s->skip_dirs, real);
	free(real);
}

/* The include options of the command libclang gets, read by the driver's
 * option table (model/options.h): "-Idir", "-I dir" and
 * "--include-directory=dir" alike, and another option's value never
 * taken for one. */
static void read_args(struct scan *s)
{
	struct q7_strvec idirs = {0};
	char *const *a = s->o->clang_args;
	for (size_t i = 0; a && a[i]; i++) {
		const char *v = NULL;
		const struct q7_option *o = q7_option_find(a[i], &v);
		if (o && !v && (o->flags & Q7_OPT_SEP) && a[i + 1])
			v = a[++i];
		if (!o || !v)
			continue;
		if (strcmp(o->name, "-iquote") == 0)
			q7_sv_add(&s->quote_dirs, v);
		else if (strcmp(o->name, "-include") == 0 || strcmp(o->name, "-imacros") == 0)
			q7_sv_add(&s->forced, v);
		else if (strcmp(o->name, "-isystem") == 0 || strcmp(o->name, "-idirafter") == 0)
			add_skip_dir(s, v);
		else if (strcmp(o->name, "-I") == 0 || strcmp(o->name, "--include-directory") == 0)
			q7_sv_add(&idirs, v);
	}
	q7_sv_addv(&s->quote_dirs, &idirs);
	q7_sv_addv(&s->angle_dirs, &idirs);
	q7_sv_free(&idirs);
	for (char *const *d = s->o->sys_includes; d && *d; d++)
		add_skip_dir(s, *d);
	char *own = q7_prefix_path("include/q7cc");
	add_skip_dir(s, own);
	s->own_dir = realpath(own, NULL);
	free(own);
}

int q7_analysis_prescan(const struct q7_analysis_opts *o, bool *own_headers, struct q7_err *err)
{
	struct scan s = {.o = o, .refused = err};
	read_args(&s);
	for (size_t i = 0; i < s.forced.n && !s.stop; i++)
		scan_file(&s, s.forced.v[i], false);
	if (!s.stop)
		scan_file(&s, o->source, true);
	q7_sv_free(&s.quote_dirs);
	q7_sv_free(&s.angle_dirs);
	q7_sv_free(&s.forced);
	q7_sv_free(&s.skip_dirs);
	q7_sv_free(&s.seen);
	free(s.own_dir);
	if (own_headers)
		*own_headers = s.found || s.own;
	return s.stop ? -1 : s.found;
}

bool q7_prescan(const struct q7_analysis_opts *o, bool *own_headers)
{
	struct q7_err err = Q7_ERR_GROWING;
	int r = q7_analysis_prescan(o, own_headers, &err);
	q7_err_free(&err);
	return r != 0; /* a file it may not read: the analysis says why */
}

/* ---- preprocessed text ---------------------------------------------------- */

/* name (len n) is header, or ends in "/header". */
static bool names_header(const char *name, size_t n, const char *header)
{
	size_t h = strlen(header);
	return n >= h && memcmp(name + n - h, header, h) == 0 && (n == h || name[n - h - 1] == '/');
}

struct pp_scan {
	bool kernel_header;  /* <q7/kernel.h> was included */
	bool library_header; /* <torchneuron/register.h> was included */
	bool marks;          /* an annotate("q7. attribute survived */
};

/* A line marker: "# 12 \"path\" flags" (or "#line 12 \"path\""). */
static void line_marker(const char *p, struct pp_scan *out)
{
	p++;
	p += strspn(p, " \t");
	if (strncmp(p, "line", 4) == 0)
		p += 4;
	p += strspn(p, " \t");
	if (*p < '0' || *p > '9')
		return;
	while (*p >= '0' && *p <= '9')
		p++;
	p += strspn(p, " \t");
	if (*p != '"')
		return;
	const char *name = ++p;
	while (*p && *p != '"' && *p != '\n')
		p++;
	size_t n = (size_t)(p - name);
	out->kernel_header |= names_header(name, n, "q7/kernel.h");
	out->library_header |= names_header(name, n, "torchneuron/register.h");
}

bool q7_preprocessed_lost_marks(const char *path, const char *name, struct q7_diags *diags)
{
	size_t len;
	const char *why;
	char *text = q7_read_regular(path, Q7_READ_TEXT_MAX, &len, &why);
	if (!text)
		return false;
	struct pp_scan s = {0};
	static const char mark[] = "annotate(\"q7.";
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (*p == '#')
			line_marker(p, &s);
		else if (!s.marks && memmem(p, n, mark, sizeof mark - 1))
			s.marks = true;
		p += n + 1;
	}
	free(text);
	bool lost_marks = s.kernel_header && !s.marks;
	const char *what = lost_marks && s.library_header
	                           ? "Q7_KERNEL marks (with their Q7_KERNEL_STACK sizes) and "
	                             "NEURON_LIBRARY blocks"
	                   : lost_marks ? "Q7_KERNEL marks (with their Q7_KERNEL_STACK sizes)"
	                   : s.library_header ? "NEURON_LIBRARY blocks"
	                                      : NULL;
	if (!what)
		return false;
	q7_diags_add_rule(diags, Q7_RULE_FOREIGN_PP, name, 0, 0,
	                  "not preprocessed by q7cc -E: the preprocessor that made it dropped the %s, "
	                  "so kernels may be lost; preprocess with q7cc -E (the same profile), or "
	                  "compile the source",
	                  what);
	return true;
}
