/* What the relay adds to answers: see answers.h. */
#include "answers.h"
#include "fix.h"
#include "js.h"
#include "lint.h"
#include "support.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

size_t q7_doc_offset(const struct q7_doc *d, json_object *pos)
{
	return q7_text_offset(d->text, d->len, q7_js_uint(pos, "line"), q7_js_uint(pos, "character"));
}

/* The op the kernel registers: torch.ops.NS.NAME (NS the library's name
 * at the link when no NEURON_LIBRARY block names the kernel: that of the
 * CMake target's lib<target>.so when the compile command tells it). */
static char *op_name(const struct q7_doc *d, json_object *k)
{
	const char *ns = q7_js_str(k, "namespace", "");
	if (!*ns)
		ns = d->library ? d->library : "<library>";
	return q7_xasprintf("torch.ops.%s.%s", ns, q7_js_str(k, "name", ""));
}

/* The kernel whose name is at (line, character) of d (0-based), or NULL. */
static json_object *kernel_at(const struct q7_doc *d, unsigned line, unsigned character)
{
	for (size_t i = 0; d->kernels && i < json_object_array_length(d->kernels); i++) {
		json_object *k = json_object_array_get_idx(d->kernels, i);
		unsigned kl = q7_js_uint(k, "line"), kc = q7_js_uint(k, "column");
		if (kl != line + 1 || !kc)
			continue;
		unsigned start = q7_text_character(d->text, d->len, kl, kc);
		unsigned end = start + q7_text_token_width(d->text, d->len, kl, kc);
		if (character >= start && character <= end)
			return k;
	}
	return NULL;
}

bool q7_answer_hover(const struct q7_doc *d, json_object *params, json_object *answer)
{
	json_object *pos = q7_js_get(params, "position");
	json_object *k = kernel_at(d, q7_js_uint(pos, "line"), q7_js_uint(pos, "character"));
	if (!k || q7_js_get(answer, "error"))
		return false;
	json_object *result = q7_js_get(answer, "result"), *contents = q7_js_get(result, "contents");
	const char *kind = q7_js_str(contents, "kind", ""), *value = q7_js_str(contents, "value", "");
	bool markdown = !*kind || strcmp(kind, "markdown") == 0;
	char *op = op_name(d, k);
	char *ours = markdown ? q7_xasprintf("---\nq7cc kernel: op `%s`\n```\n%s\n```", op,
	                                     q7_js_str(k, "schema", ""))
	                      : q7_xasprintf("q7cc kernel: op %s\n%s", op, q7_js_str(k, "schema", ""));
	char *text = *value ? q7_xasprintf("%s\n\n%s", value, ours) : q7_xstrdup(ours);
	json_object *c = q7_js_object("kind", json_object_new_string(markdown ? "markdown" : "plaintext"),
	                              "value", json_object_new_string(text), NULL);
	if (!result || !json_object_is_type(result, json_type_object)) {
		result = json_object_new_object();
		json_object_object_add(answer, "result", result);
	}
	json_object_object_add(result, "contents", c);
	free(text);
	free(ours);
	free(op);
	return true;
}

json_object *q7_answer_lenses(const struct q7_doc *d)
{
	json_object *out = json_object_new_array();
	for (size_t i = 0; d->kernels && i < json_object_array_length(d->kernels); i++) {
		json_object *k = json_object_array_get_idx(d->kernels, i);
		unsigned line = q7_js_uint(k, "line"), col = q7_js_uint(k, "column");
		if (!line || !col)
			continue;
		char *op = op_name(d, k);
		char *title = q7_xasprintf("%s  (%s)", q7_js_str(k, "schema", ""), op);
		json_object *cmd = q7_js_object("title", json_object_new_string(title), "command",
		                                json_object_new_string(""), NULL);
		json_object_array_add(out, q7_js_object("range", q7_js_token_range(d->text, d->len, line, col),
		                                        "command", cmd, NULL));
		free(title);
		free(op);
	}
	return out;
}

/* The quick fix of finding diag (an LSP diagnostic of q7cc's), or NULL. */
static json_object *action_of(const struct q7_doc *d, json_object *diag)
{
	size_t at = q7_doc_offset(d, q7_js_get(q7_js_get(diag, "range"), "start"));
	struct q7_fix fix;
	if (!q7_fix_find(q7_js_str(diag, "code", ""), q7_js_str(diag, "message", ""), d->text, d->len,
	                 at, &fix))
		return NULL;
	unsigned l1, c1, l2, c2;
	q7_text_position(d->text, d->len, fix.from, &l1, &c1);
	q7_text_position(d->text, d->len, fix.to, &l2, &c2);
	json_object *edits = json_object_new_array(), *diags = json_object_new_array();
	json_object_array_add(edits, q7_js_object("range", q7_js_range(l1, c1, l2, c2), "newText",
	                                          json_object_new_string(fix.with), NULL));
	json_object_array_add(diags, json_object_get(diag));
	json_object *changes = q7_js_object(d->uri, edits, NULL);
	return q7_js_object("title", json_object_new_string(fix.title),
	                    "kind", json_object_new_string("quickfix"),
	                    "diagnostics", diags,
	                    "isPreferred", json_object_new_boolean(fix.preferred),
	                    "edit", q7_js_object("changes", changes, NULL), NULL);
}

void q7_answer_actions(const struct q7_doc *d, json_object *params, json_object *answer)
{
	if (!d->q7 || d->q7_version != d->version || q7_js_get(answer, "error"))
		return;
	json_object *range = q7_js_get(params, "range"), *result = q7_js_get(answer, "result");
	unsigned first = q7_js_uint(q7_js_get(range, "start"), "line");
	unsigned last = q7_js_uint(q7_js_get(range, "end"), "line");
	for (size_t i = 0; i < json_object_array_length(d->q7); i++) {
		json_object *diag = json_object_array_get_idx(d->q7, i);
		unsigned line = q7_js_uint(q7_js_get(q7_js_get(diag, "range"), "start"), "line");
		bool shown = !q7_lint_shadowed(diag, q7_js_get(d->clangd, "diagnostics"));
		json_object *a = shown && line >= first && line <= last ? action_of(d, diag) : NULL;
		if (!a)
			continue;
		if (!result || !json_object_is_type(result, json_type_array)) {
			result = json_object_new_array();
			json_object_object_add(answer, "result", result);
		}
		json_object_array_add(result, a);
	}
}
