/* q7cc's analysis of the editor's text: see lint.h. */
#include "lint.h"
#include "js.h"
#include "proc.h"
#include "rpc.h"
#include "tempfile.h"
#include "text.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool q7_lint_start(struct q7_lint_job *j, char *const *argv, const char *dir)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return false;
	/* argv[0] a path: q7cc's own (lintcmd.h). The lint's complaints (no
	 * libclang, say) go to the editor's log. */
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = p[1], .dir = dir, .quiet = true,
	                         .dies_with_us = true};
	pid_t pid = q7_proc_spawn(argv, &o);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return false;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	j->pid = pid;
	j->fd = p[0];
	return true;
}

/* Closes the child's output and reaps it. */
static void reap(struct q7_lint_job *j)
{
	close(j->fd);
	j->fd = -1;
	q7_proc_wait(j->pid, NULL);
	j->pid = 0;
}

bool q7_lint_read(struct q7_lint_job *j)
{
	struct q7_rpc_in in = {.fd = j->fd, .buf = j->out};
	bool more = q7_rpc_fill(&in); /* the bytes, unframed */
	j->out = in.buf;
	if (!more)
		reap(j);
	return more;
}

void q7_lint_clear(struct q7_lint_job *j)
{
	free(j->uri);
	j->uri = NULL;
	j->target = false;
	if (j->text) {
		unlink(j->text);
		q7_temp_forget(j->text);
		free(j->text);
		j->text = NULL;
	}
	j->out.len = 0;
	if (j->out.s)
		j->out.s[0] = '\0';
}

void q7_lint_cancel(struct q7_lint_job *j)
{
	if (j->pid > 0) {
		q7_proc_kill(j->pid, SIGKILL);
		reap(j);
	}
	q7_lint_clear(j);
}

/* The array under key of the JSON object text, or NULL; *root to free. */
static json_object *array_of(const char *json, const char *key, json_object **root)
{
	*root = json_tokener_parse(json);
	return q7_js_array(*root, key);
}

/* The rules' page: docs/lint-rules.md as installed, its table of rules. */
static const char *rules_page(void)
{
	static char *href;
	if (!href) {
		char *path = q7_prefix_path("share/q7cc/doc/lint-rules.md");
		href = q7_xasprintf("file://%s#rules", path);
		free(path);
	}
	return href;
}

/* The line of src's text where q7cc's place o (its file, line and
 * column) is, or 0: q7_text_physical_line. */
static unsigned text_line(const struct q7_lint_src *src, json_object *o, const char *want)
{
	return q7_text_physical_line(src->text, src->len, src->path, q7_js_str(o, "file", ""),
	                             q7_js_uint(o, "line"), q7_js_uint(o, "column"), want);
}

/* The lines of the text (1-based, bit i-1 of a growing set) on which
 * libclang reports an error of its own (no rule): a half-written line,
 * clangd's to report. *any: whether the text has one at all. */
static unsigned char *error_lines(json_object *in, const struct q7_lint_src *src, bool *any)
{
	size_t nlines = 1;
	for (size_t i = 0; i < src->len; i++)
		nlines += src->text[i] == '\n';
	unsigned char *set = q7_xcalloc(nlines + 1, 1);
	*any = false;
	for (size_t i = 0; in && i < json_object_array_length(in); i++) {
		json_object *d = json_object_array_get_idx(in, i);
		if (*q7_js_str(d, "rule", "") || strcmp(q7_js_str(d, "severity", ""), "error") != 0)
			continue;
		unsigned line = text_line(src, d, NULL);
		if (line && line <= nlines) {
			set[line] = 1;
			*any = true;
		}
	}
	return set;
}

/* Whether a finding of rule on line is a consequence of a parse error
 * (docs/editors.md, "What the editor gets"): one on a line libclang
 * reports an error on, or an invalid declaration anywhere in a text that
 * has one. */
static bool consequence(const char *rule, unsigned line, const unsigned char *errors, bool any)
{
	return errors[line] || (any && strcmp(rule, "q7-invalid-declaration") == 0);
}

/* msg with each mention of the analysed file (path, a temporary) as
 * the editor knows it (shown): a new string. */
static char *own_names(const char *msg, const char *path, const char *shown)
{
	struct q7_strbuf b = {0};
	size_t n = strlen(path);
	for (const char *p = msg; *p;) {
		if (n && strncmp(p, path, n) == 0) {
			q7_sb_add(&b, shown);
			p += n;
		} else {
			q7_sb_addc(&b, *p++);
		}
	}
	return b.s ? q7_sb_take(&b) : q7_xstrdup("");
}

/* Adds q7cc's note n (the other place of a finding, say) to the LSP
 * diagnostic o as relatedInformation: in the editor's text (uri) when it
 * is the analysed file's, else in the file it names. */
static void relate(json_object *o, json_object *n, const struct q7_lint_src *src)
{
	const char *file = q7_js_str(n, "file", "");
	unsigned line = q7_js_uint(n, "line"), col = q7_js_uint(n, "column");
	unsigned ch = col ? col - 1 : 0;
	struct q7_strbuf where = {0}; /* the file's URI, when it is another */
	if (strcmp(file, src->path) == 0) {
		line = text_line(src, n, NULL);
		ch = q7_text_character(src->text, src->len, line, col ? col : 1);
	} else if (line) {
		q7_sb_add(&where, "file://");
		q7_sb_add_uri_path(&where, file);
	}
	if (!line)
		return;
	json_object *loc = q7_js_object("uri", json_object_new_string(where.s ? where.s : src->uri),
	                                "range", q7_js_range(line - 1, ch, line - 1, ch), NULL);
	char *msg = own_names(q7_js_str(n, "message", ""), src->path, src->shown);
	json_object *ri = q7_js_object("location", loc, "message", json_object_new_string(msg), NULL);
	json_object *all = q7_js_get(o, "relatedInformation");
	if (!all) {
		all = json_object_new_array();
		json_object_object_add(o, "relatedInformation", all);
	}
	json_object_array_add(all, ri);
	free(msg);
	q7_sb_free(&where);
}

/* The LSP diagnostic of q7cc's finding d on line (of the text). */
static json_object *finding(json_object *d, unsigned line, const struct q7_lint_src *src)
{
	char *msg = own_names(q7_js_str(d, "message", ""), src->path, src->shown);
	/* LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information. */
	const char *sev = q7_js_str(d, "severity", "");
	int severity = strcmp(sev, "error") == 0 ? 1 : strcmp(sev, "warning") == 0 ? 2 : 3;
	json_object *o = q7_js_object(
	    "range", q7_js_token_range(src->text, src->len, line, q7_js_uint(d, "column")),
	    "severity", json_object_new_int(severity),
	    "code", json_object_new_string(q7_js_str(d, "rule", "")),
	    "codeDescription", q7_js_object("href", json_object_new_string(rules_page()), NULL),
	    "source", json_object_new_string("q7cc"),
	    "message", json_object_new_string(msg), NULL);
	free(msg);
	return o;
}

json_object *q7_lint_diagnostics(const char *json, const struct q7_lint_src *src)
{
	json_object *root, *out = json_object_new_array(), *last = NULL;
	json_object *in = array_of(json, "diagnostics", &root);
	bool any;
	unsigned char *errors = error_lines(in, src, &any);
	for (size_t i = 0; in && i < json_object_array_length(in); i++) {
		json_object *d = json_object_array_get_idx(in, i);
		const char *rule = q7_js_str(d, "rule", "");
		if (!*rule && strcmp(q7_js_str(d, "severity", ""), "note") == 0) {
			if (last) /* the note of the finding before it */
				relate(last, d, src);
			continue;
		}
		/* libclang's own errors (no rule) are clangd's to report, and a
		 * header's findings belong to the header. The line is the text's
		 * own, whatever #line says. */
		const char *message = q7_js_str(d, "message", "");
		char want[128];
		bool named = q7_text_quoted(message, "parameter '", want, sizeof want) ||
		             q7_text_quoted(message, "kernel '", want, sizeof want);
		unsigned line = *rule ? text_line(src, d, named ? want : NULL) : 0;
		last = NULL;
		if (!line || consequence(rule, line, errors, any))
			continue;
		last = finding(d, line, src);
		json_object_array_add(out, last);
	}
	free(errors);
	json_object_put(root);
	return out;
}

json_object *q7_lint_unresolved(const char *json, const struct q7_lint_src *src,
                                const char *target)
{
	json_object *root, *out = json_object_new_array();
	json_object *in = array_of(json, "ops", &root);
	for (size_t i = 0; in && i < json_object_array_length(in); i++) {
		json_object *op = json_object_array_get_idx(in, i);
		const char *name = q7_js_str(op, "name", "");
		unsigned line = text_line(src, op, NULL);
		if (!json_object_get_boolean(q7_js_get(op, "by_name_only")) || !line)
			continue;
		char *msg = q7_xasprintf("m.def names the compute function '%s', which no source of "
		                         "target '%s' defines; the link reports it too",
		                         name, target);
		/* The column is the string literal's: the name is one on. */
		json_object *d = q7_js_object(
		    "rule", json_object_new_string("q7-undefined-kernel"),
		    "severity", json_object_new_string("error"),
		    "column", json_object_new_int((int)q7_js_uint(op, "column") + 1),
		    "message", json_object_new_string(msg), NULL);
		json_object_array_add(out, finding(d, line, src));
		json_object_put(d);
		free(msg);
	}
	json_object_put(root);
	return out;
}

bool q7_lint_has_requests(const char *json)
{
	json_object *root, *in = array_of(json, "neuron_library", &root);
	bool any = in && json_object_array_length(in) > 0;
	json_object_put(root);
	return any;
}

bool q7_lint_shadowed(json_object *finding, json_object *clangd)
{
	unsigned line = q7_js_uint(q7_js_get(q7_js_get(finding, "range"), "start"), "line");
	for (size_t i = 0; clangd && i < json_object_array_length(clangd); i++) {
		json_object *c = json_object_array_get_idx(clangd, i), *r = q7_js_get(c, "range");
		if (json_object_get_int(q7_js_get(c, "severity")) == 1 &&
		    line >= q7_js_uint(q7_js_get(r, "start"), "line") &&
		    line <= q7_js_uint(q7_js_get(r, "end"), "line"))
			return true;
	}
	return false;
}

json_object *q7_lint_kernels(const char *json, const char *path, const char *text, size_t len)
{
	json_object *root, *out = json_object_new_array();
	json_object *in = array_of(json, "ops", &root);
	struct q7_lint_src src = {.path = path, .text = text, .len = len};
	for (size_t i = 0; in && i < json_object_array_length(in); i++) {
		json_object *op = json_object_array_get_idx(in, i);
		unsigned line = text_line(&src, op, q7_js_str(op, "name", NULL));
		if (!line || json_object_get_boolean(q7_js_get(op, "by_name_only")))
			continue;
		json_object_array_add(out, q7_js_object(
		    "name", json_object_new_string(q7_js_str(op, "name", "")),
		    "namespace", json_object_new_string(q7_js_str(op, "namespace", "")),
		    "schema", json_object_new_string(q7_js_str(op, "schema", "")),
		    "line", json_object_new_int((int)line),
		    "column", json_object_new_int((int)q7_js_uint(op, "column")), NULL));
	}
	json_object_put(root);
	return out;
}
