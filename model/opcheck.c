/* model/opcheck: what an op read from bytes may say (opcodec.h), and why
 * (docs/packer.md, "What a record may say"). */
#include "cxx.h"
#include "opcodec.h"

#include <stdlib.h>
#include <string.h>

static bool ident_or_empty(const char *s)
{
	return !*s || q7_cxx_ident(s, strlen(s));
}

/* Text that is printed in messages, never pasted into code: no control
 * characters, C0, DEL or C1 (U+0080-U+009F in UTF-8: terminals act on
 * them too). A source file may have other bytes (a non-ASCII path); the
 * function a request names is ASCII, as every kernel's is. */
static bool printable(const char *s, bool ascii)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (ascii && *p > 0x7f) ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return false;
	return true;
}

/* What a request's name is to its qualified name: the text after the
 * last ':' (as analysis splits an m.def's "ns::fn"). */
static const char *last_word(const char *q)
{
	const char *colon = strrchr(q, ':');
	return colon ? colon + 1 : q;
}

/* Why field of op is not what analysis writes, appended to why. */
static void bad_field(struct q7_strbuf *why, const char *field, const char *text, const char *rule)
{
	char *q = q7_cxx_quote(text);
	q7_sb_addf(why, "%s '%s' %s", field, q, rule);
	free(q);
}

bool q7_op_check(const struct q7_op *op, struct q7_strbuf *why)
{
	const char *ident = "is not a C++ identifier";
	if (op->by_name_only) {
		if (!*op->name || !printable(op->name, true))
			bad_field(why, "requested name", op->name, "is not printable ASCII");
		else if (!printable(op->qualname, true) ||
		         (*op->qualname && strcmp(op->name, last_word(op->qualname)) != 0))
			bad_field(why, "requested qualified name", op->qualname,
			          "is not printable ASCII ending in the requested name");
		else if (op->ret != Q7_KIND_INVALID || *op->ret_ctype || *op->ret_name || op->defined)
			q7_sb_addf(why, "request '%s' has a result or a definition", op->name);
	} else {
		if (!q7_cxx_ident(op->name, strlen(op->name)) || strlen(op->name) > Q7_OP_NAME_MAX)
			bad_field(why, "kernel name", op->name, "is not a C++ identifier of at most 31 characters");
		else if (*op->qualname && (!q7_cxx_qualname(op->qualname) ||
		                           strcmp(q7_cxx_unqualified(op->qualname), op->name) != 0))
			bad_field(why, "qualified name", op->qualname, "is not a C++ name ending in the kernel's");
		else if (op->ret != Q7_KIND_TENSOR || !q7_cxx_result_type(op->ret_ctype))
			bad_field(why, "result type", op->ret_ctype, "is not a Tensor");
		else if (!ident_or_empty(op->ret_name))
			bad_field(why, "result name", op->ret_name, ident);
	}
	if (!why->len && !printable(op->file, false))
		bad_field(why, "source file", op->file, "holds control characters");
	if (why->len)
		return false;
	if (!ident_or_empty(op->ns)) {
		bad_field(why, "namespace", op->ns, ident);
		return false;
	}
	if (op->stack_size > Q7_OP_STACK_MAX) {
		q7_sb_addf(why, "stack size %u is over %u", op->stack_size, Q7_OP_STACK_MAX);
		return false;
	}
	for (size_t i = 0; i < op->nparams && !why->len; i++) {
		const struct q7_param *p = &op->params[i];
		bool named = ident_or_empty(p->name);
		char *field = q7_xasprintf("parameter %zu %s", i + 1, named ? "type" : "name");
		char *rule = q7_xasprintf("is not a type q7cc records for kind '%s'", q7_kind_name(p->kind));
		if (!named)
			bad_field(why, field, p->name, ident);
		else if (op->by_name_only && (p->kind != Q7_KIND_INVALID || *p->ctype))
			q7_sb_addf(why, "request '%s' has a parameter type", op->name);
		else if (!op->by_name_only && !q7_cxx_param_type(p->kind, p->ctype, 0))
			bad_field(why, field, p->ctype, rule);
		free(field);
		free(rule);
	}
	return !why->len;
}

