/* The argv model: response files, units, and the invocation's mode. */
#include "cmdline.h"

#include <errno.h>
#include <libiberty/libiberty.h>
#include <stdlib.h>
#include <string.h>

/* ---- @file response files ---------------------------------------------- */

/* Splits text as GCC's driver does, with libiberty's buildargv:
 * whitespace separates words; '...' and "..." quote; a backslash takes
 * the next character literally. Whitespace alone holds no word (as in
 * libiberty's expandargv). */
static void split_response(const char *text, struct q7_strvec *out)
{
	if (!text[strspn(text, " \t\n\r\f\v")])
		return;
	char **words = buildargv(text);
	for (size_t i = 0; words && words[i]; i++)
		q7_sv_add(out, words[i]);
	freeargv(words);
}

/* As libiberty's expandargv, which GCC's driver uses: a response file
 * naming itself (@r holding "@r @r") would expand without end, so after
 * this many files the command line is refused, as GCC refuses it (at any
 * depth: a chain of files nests as deep as it likes until then). */
#define MAX_RESPONSE_FILES 2000

static void expand(char *const *argv, size_t argc, struct q7_strvec *out, unsigned *files)
{
	for (size_t i = 0; i < argc; i++) {
		const char *a = argv[i];
		char *text = NULL;
		const char *why;
		/* A file that is missing or unreadable leaves the word, as in
		 * gcc; one that is there but special or too large is refused
		 * (docs/robustness.md, "Special files"). */
		if (a[0] == '@' && a[1] && !(text = q7_read_regular(a + 1, Q7_READ_ARGS_MAX, NULL, &why)) &&
		    (errno == EINVAL || errno == EFBIG))
			q7_fatal(Q7_EXIT_ERROR, "%s: cannot read the response file: %s", a + 1, why);
		if (text && ++*files > MAX_RESPONSE_FILES)
			q7_fatal(Q7_EXIT_ERROR, "%s: too many @-files encountered (does it name itself?)",
			         a + 1);
		if (!text) {
			/* Not a response file, or unreadable: gcc keeps the word. */
			q7_sv_add(out, a);
			continue;
		}
		struct q7_strvec words = {0};
		split_response(text, &words);
		free(text);
		expand(words.v, words.n, out, files);
		q7_sv_free(&words);
	}
}

void q7_expand_response_files(int argc, char **argv, struct q7_strvec *out)
{
	unsigned files = 0;
	expand(argv, (size_t)argc, out, &files);
}

/* ---- inputs ------------------------------------------------------------ */

/* The kind an input has under -x LANG ("none" or NULL: by extension;
 * another language: compiled, not analysed). */
static enum q7_input_kind kind_under(const char *lang, const char *path)
{
	if (!lang || strcmp(lang, "none") == 0)
		return strcmp(path, "-") == 0 ? Q7_IN_OTHER_SRC : q7_input_kind_of(path);
	return q7_input_kind_of_lang(lang, Q7_IN_OTHER_SRC);
}

/* ---- units ------------------------------------------------------------- */

/* A unit of one word, tok (taken over); o: its option, or NULL. */
static struct q7_unit *add_unit(struct q7_inv *inv, const struct q7_option *o, char *tok)
{
	Q7_GROW(inv->u, inv->cap, inv->n + 1);
	inv->u[inv->n] = (struct q7_unit){.opt = o, .tok = {tok}, .ntok = 1};
	return &inv->u[inv->n++];
}

void q7_unit_add(const struct q7_unit *u, struct q7_strvec *out)
{
	for (int i = 0; i < u->ntok; i++)
		q7_sv_add(out, u->tok[i]);
}

unsigned q7_unit_flags(const struct q7_unit *u)
{
	return u->opt ? u->opt->flags : 0;
}

enum q7_opt_id q7_unit_id(const struct q7_unit *u)
{
	return u->opt ? u->opt->id : Q7_ID_OTHER;
}

/* -fdiagnostics-color=WHEN, else the spelling: -f[no-]... */
static int color_of(const char *name, const char *value)
{
	if (value)
		return strcmp(value, "always") == 0 ? 1 : strcmp(value, "never") == 0 ? 0 : -1;
	return strncmp(name, "-fno-", 5) == 0 ? 0 : 1;
}

/* What a diagnostic shows, GCC's and clang's spellings; the last flag wins.
 * A value the compiler refuses is its to refuse (q7cc keeps its default). */
static void take_diag_show(struct q7_inv *inv, const char *name, const char *value)
{
	bool no = strncmp(name, "-fno-", 5) == 0;
	if (strstr(name, "caret")) {
		inv->no_caret = no;
	} else if (strstr(name, "line-numbers")) {
		inv->no_line_numbers = no;
	} else if (strstr(name, "show-column")) {
		inv->no_column = no;
	} else if (strstr(name, "column-unit")) {
		inv->byte_columns = strcmp(value, "byte") == 0;
	} else if (strstr(name, "column-origin")) {
		char *end;
		long n = strtol(value, &end, 10);
		if (*value && !*end && n >= 0 && n < 1000)
			inv->column_shift = (int)n - 1;
	} else if (strstr(name, "plain-output")) {
		/* GCC: no caret, no line numbers, no colour. */
		inv->no_caret = inv->no_line_numbers = true;
		inv->color = 0;
	}
}

/* --q7-kernel=a,b: one name or a comma list. */
static int take_kernels(struct q7_inv *inv, const char *value)
{
	for (const char *p = value;;) {
		size_t n = strcspn(p, ",");
		if (n == 0) {
			q7_error("--q7-kernel=%s: %s", value,
			         *value ? "an empty name in the list" : "needs a function name");
			return Q7_EXIT_USAGE;
		}
		q7_sv_addf(&inv->kernels, "%.*s", (int)n, p);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

struct seen {
	bool c, e, s, syntax, shared, info, schema, lint, help, verbose;
};

static int take_option(struct q7_inv *inv, struct q7_unit *u, struct seen *seen,
                       const char **lang)
{
	switch (u->opt->id) {
	case Q7_ID_COMPILE: seen->c = true; break;
	case Q7_ID_PREPROCESS: seen->e = true; break;
	case Q7_ID_ASSEMBLE: seen->s = true; break;
	case Q7_ID_SYNTAX: seen->syntax = true; break;
	case Q7_ID_SHARED: seen->shared = true; break;
	case Q7_ID_INFO: case Q7_ID_VERSION: case Q7_ID_HELP: seen->info = true; break;
	case Q7_ID_VERBOSE: seen->verbose = true; break;
	case Q7_ID_DRYRUN: inv->dry_run = true; break;
	case Q7_ID_OUTPUT: inv->output = u->value; break;
	case Q7_ID_LANG: *lang = u->value; break;
	case Q7_ID_DEBUG: inv->debug = !u->value || strcmp(u->value, "0") != 0; break;
	case Q7_ID_COLOR: inv->color = color_of(u->opt->name, u->value); break;
	case Q7_ID_DIAG_FORMAT: inv->diag_format = u->value; break;
	case Q7_ID_DIAG_SHOW: take_diag_show(inv, u->opt->name, u->value); break;
	case Q7_ID_Q7_TOOLCHAIN: inv->toolchain = u->value; break;
	case Q7_ID_Q7_KERNEL: return take_kernels(inv, u->value);
	case Q7_ID_Q7_SCHEMA: seen->schema = true; break;
	case Q7_ID_Q7_LINT: seen->lint = true; break;
	case Q7_ID_Q7_HELP: seen->help = true; break;
	case Q7_ID_Q7_MULTICORE: inv->multicore = true; break;
	case Q7_ID_Q7_PACK: inv->pack = true; break;
	case Q7_ID_Q7_EMIT:
		if (!*u->value) {
			q7_error("--q7-emit-wrapper= needs a file name");
			return Q7_EXIT_USAGE;
		}
		inv->emit_wrapper = u->value;
		break;
	case Q7_ID_Q7_FORMAT:
		if (strcmp(u->value, "text") != 0 && strcmp(u->value, "json") != 0 &&
		    strcmp(u->value, "sarif") != 0) {
			q7_error("--q7-format=%s: unknown format: use text, json or sarif", u->value);
			return Q7_EXIT_USAGE;
		}
		inv->format = u->value;
		break;
	default: break;
	}
	return 0;
}

static enum q7_mode classify(const struct q7_inv *inv, const struct seen *s)
{
	if (s->help)
		return Q7_MODE_HELP;
	if (s->schema)
		return Q7_MODE_SCHEMA;
	if (s->lint)
		return Q7_MODE_LINT;
	if (s->info)
		return Q7_MODE_INFO;
	if (s->e)
		return Q7_MODE_PREPROCESS;
	if (s->syntax)
		return Q7_MODE_SYNTAX;
	if (s->s)
		return Q7_MODE_ASSEMBLE;
	if (s->c)
		return Q7_MODE_COMPILE;
	if (inv->ninputs == 0)
		return Q7_MODE_INFO; /* a bare -v, or nothing at all */
	return s->shared ? Q7_MODE_LINK_SHARED : Q7_MODE_LINK_EXE;
}

int q7_inv_parse(struct q7_inv *inv, char **args, size_t nargs)
{
	*inv = (struct q7_inv){.color = -1};
	struct seen seen = {0};
	const char *lang = NULL;
	bool only_inputs = false;
	for (size_t i = 0; i < nargs; i++) {
		const char *a = args[i];
		if (!only_inputs && strcmp(a, "--") == 0) {
			only_inputs = true;
			continue;
		}
		if (only_inputs || a[0] != '-' || a[1] == '\0') {
			/* A file named like an option must not read as one. */
			char *tok = a[0] == '-' && a[1] ? q7_xasprintf("./%s", a) : q7_xstrdup(a);
			struct q7_unit *u = add_unit(inv, NULL, tok);
			u->input = kind_under(lang, a);
			inv->ninputs++;
			if (u->input != Q7_IN_LINK)
				inv->nsources++;
			continue;
		}
		const char *value;
		const struct q7_option *o = q7_option_find(a, &value);
		struct q7_unit *u = add_unit(inv, o, q7_xstrdup(a));
		if (!o)
			continue; /* unknown: forwarded untouched */
		if (value) {
			u->value = u->tok[0] + (value - a);
		} else if (o->flags & Q7_OPT_SEP) {
			if (i + 1 >= nargs) {
				q7_error("missing argument to '%s'", a);
				return Q7_EXIT_USAGE;
			}
			u->tok[1] = q7_xstrdup(args[++i]);
			u->ntok = 2;
			u->value = u->tok[1];
		}
		int rc = take_option(inv, u, &seen, &lang);
		if (rc)
			return rc;
	}
	/* -fpreprocessed: whatever its name, the C++ input is preprocessed
	 * text (icecream's remote compile: -x c++ -fpreprocessed -). */
	for (size_t i = 0; i < inv->n; i++)
		if (!inv->u[i].input && strcmp(inv->u[i].tok[0], "-fpreprocessed") == 0)
			for (size_t k = 0; k < inv->n; k++)
				if (inv->u[k].input == Q7_IN_CXX)
					inv->u[k].input = Q7_IN_CXX_PP;
	inv->mode = classify(inv, &seen);
	inv->verbose = seen.verbose && inv->mode != Q7_MODE_INFO;
	return 0;
}

void q7_inv_free(struct q7_inv *inv)
{
	for (size_t i = 0; i < inv->n; i++) {
		free(inv->u[i].tok[0]);
		free(inv->u[i].tok[1]);
	}
	free(inv->u);
	q7_sv_free(&inv->kernels);
	memset(inv, 0, sizeof *inv);
}
