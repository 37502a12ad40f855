/* analysis/mangle: a demangler for the Itanium C++ ABI names of plain
 * functions, reduced to what a kernel's signature needs (mangle.h).
 *
 * The parser builds a small tree of type nodes in an array; the
 * substitution table (S_, S0_, ...) and template parameters (T_, ...) are
 * indices into it, so a substituted type classifies like the original.
 * Spellings follow q7cc's forward-declaration style ("const at::Tensor &")
 * so they match what analysis/clang/types.c derives from source. */
#include "mangle_int.h"
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct builtin builtins[] = {
	{"v", "void", "nothing"},
	{"w", "wchar_t", "a character type"},
	{"c", "char", "narrower than int"},
	{"a", "signed char", "narrower than int"},
	{"h", "unsigned char", "unsigned"},
	{"s", "short", "narrower than int"},
	{"t", "unsigned short", "unsigned"},
	{"j", "unsigned int", "unsigned"},
	{"l", "long", NULL},
	{"m", "unsigned long", "unsigned"},
	{"y", "unsigned long long", "unsigned"},
	{"n", "__int128", "a 128-bit integer"},
	{"o", "unsigned __int128", "unsigned"},
	{"e", "long double", "not a kind q7cc can pass"},
	{"g", "__float128", "not a kind q7cc can pass"},
	{"Dd", "decimal64", "not a kind q7cc can pass"},
	{"De", "decimal128", "not a kind q7cc can pass"},
	{"Df", "decimal32", "not a kind q7cc can pass"},
	{"Dh", "half", "not a kind q7cc can pass"},
	{"Di", "char32_t", "a character type"},
	{"Ds", "char16_t", "a character type"},
	{"Du", "char8_t", "a character type"},
	{"Dn", "std::nullptr_t", "a pointer"},
	{"Da", "auto", "not a kind q7cc can pass"},
	{"Dc", "decltype(auto)", "not a kind q7cc can pass"},
};

/* The standard abbreviations (never added to the substitution table). */
static const struct {
	char c;
	const char *spell;
} std_subs[] = {
	{'a', "std::allocator"},
	{'b', "std::basic_string"},
	{'s', "std::string"},
	{'i', "std::istream"},
	{'o', "std::ostream"},
	{'d', "std::iostream"},
};

static int fail(struct dm *d, const char *why)
{
	if (!d->why)
		d->why = why;
	return -1;
}

static int add_node(struct dm *d, enum nk k, char *spell, int inner)
{
	if (d->nn == d->ncap) {
		d->ncap = d->ncap ? d->ncap * 2 : 32;
		d->nodes = q7_xrealloc(d->nodes, d->ncap * sizeof *d->nodes);
	}
	struct node *n = &d->nodes[d->nn];
	memset(n, 0, sizeof *n);
	n->k = k;
	n->spell = spell;
	n->inner = inner;
	return (int)d->nn++;
}

static void add_sub(struct dm *d, int node)
{
	if (node < 0)
		return;
	if (d->ns == d->scap) {
		d->scap = d->scap ? d->scap * 2 : 16;
		d->subs = q7_xrealloc(d->subs, d->scap * sizeof *d->subs);
	}
	d->subs[d->ns++] = node;
}

static bool at(const struct dm *d, const char *s)
{
	return strncmp(d->p, s, strlen(s)) == 0;
}

/* <number>: decimal digits (a leading 'n' is handled by the callers). */
static bool number(struct dm *d, unsigned long *v)
{
	if (*d->p < '0' || *d->p > '9')
		return false;
	*v = 0;
	while (*d->p >= '0' && *d->p <= '9') {
		if (*v > 100000000ul)
			return false;
		*v = *v * 10 + (unsigned long)(*d->p++ - '0');
	}
	return true;
}

/* <source-name> ::= <length> <identifier> */
static char *source_name(struct dm *d)
{
	unsigned long n;
	if (!number(d, &n) || n == 0) {
		fail(d, "a name without a length");
		return NULL;
	}
	if (strnlen(d->p, n) < n) {
		fail(d, "a name longer than the symbol");
		return NULL;
	}
	char *s = q7_xstrndup(d->p, n);
	d->p += n;
	if (strncmp(s, "_GLOBAL__N", 10) == 0) {
		free(s);
		s = q7_xstrdup("(anonymous namespace)");
	}
	return s;
}

/* <seq-id> of S<seq-id>_ / T<seq-id>_: base 36, upper case; "_" is 0. */
static bool seq_id(struct dm *d, size_t *v)
{
	if (*d->p == '_') {
		d->p++;
		*v = 0;
		return true;
	}
	size_t n = 0;
	while ((*d->p >= '0' && *d->p <= '9') || (*d->p >= 'A' && *d->p <= 'Z')) {
		if (n > 1000000)
			return false;
		n = n * 36 + (size_t)(*d->p >= 'A' ? *d->p - 'A' + 10 : *d->p - '0');
		d->p++;
	}
	if (*d->p != '_')
		return false;
	d->p++;
	*v = n + 1;
	return true;
}

static int parse_type(struct dm *d);

/* Spelling of "prefix<args>" from the arguments' spellings. */
static int template_args(struct dm *d, int tmpl);

/* <substitution>: S_, S<seq-id>_, St (returns -2: "std::" prefix, no node),
 * Sa Sb Ss Si So Sd. */
static int substitution(struct dm *d)
{
	d->p++; /* S */
	char c = *d->p;
	if (c == 't') {
		d->p++;
		return -2;
	}
	for (size_t i = 0; i < sizeof std_subs / sizeof std_subs[0]; i++)
		if (std_subs[i].c == c) {
			d->p++;
			return add_node(d, N_NAME, q7_xstrdup(std_subs[i].spell), -1);
		}
	size_t id;
	if (!seq_id(d, &id) || id >= d->ns)
		return fail(d, "a substitution out of range");
	return d->subs[id];
}

/* <template-param> ::= T_ | T <number> _ */
static int template_param(struct dm *d)
{
	d->p++;
	size_t id;
	if (!seq_id(d, &id))
		return fail(d, "a bad template parameter");
	/* A template is refused anyway: its parameters stay placeholders. */
	return add_node(d, N_PARM, q7_xasprintf("T%zu", id), -1);
}

struct uname {
	char *s;
	bool ctor_dtor, op, internal;
};

/* An <unqualified-name>: a source name, a constructor or destructor, or an
 * operator; ABI tags (B <source-name>) are skipped. */
static bool unqualified_name(struct dm *d, struct uname *u)
{
	memset(u, 0, sizeof *u);
	if (*d->p == 'L') { /* GCC: internal linkage */
		u->internal = true;
		d->p++;
	}
	char c = *d->p;
	if (c >= '0' && c <= '9') {
		u->s = source_name(d);
	} else if ((c == 'C' && d->p[1] >= '1' && d->p[1] <= '5') ||
	           (c == 'D' && d->p[1] >= '0' && d->p[1] <= '5')) {
		u->ctor_dtor = true;
		u->s = q7_xasprintf("%s", c == 'C' ? "(constructor)" : "(destructor)");
		d->p += 2;
	} else if (c == 'C' && d->p[1] == 'I') {
		u->ctor_dtor = true; /* inheriting constructor: CI1 <type> */
		return fail(d, "an inheriting constructor") == 0;
	} else if (c >= 'a' && c <= 'z') {
		u->op = true;
		if (at(d, "cv")) {
			d->p += 2;
			int t = parse_type(d);
			if (t < 0)
				return false;
			u->s = q7_xasprintf("operator %s", spell_of(d, t));
		} else if (at(d, "li")) {
			d->p += 2;
			char *n = source_name(d);
			if (!n)
				return false;
			u->s = q7_xasprintf("operator\"\" %s", n);
			free(n);
		} else if (d->p[1]) {
			u->s = q7_xasprintf("operator%.2s", d->p);
			d->p += 2;
		} else {
			return fail(d, "a cut-off operator name") == 0;
		}
	} else if (c == 'U' && (d->p[1] == 't' || d->p[1] == 'l')) {
		return fail(d, "an unnamed type or lambda") == 0;
	} else {
		return fail(d, "an unreadable name") == 0;
	}
	if (!u->s)
		return false;
	while (*d->p == 'B') { /* <abi-tag> */
		d->p++;
		char *tag = source_name(d);
		if (!tag)
			return false;
		free(tag);
	}
	return true;
}

static char *join(const char *prefix, const char *name)
{
	return prefix ? q7_xasprintf("%s::%s", prefix, name) : q7_xstrdup(name);
}

struct name {
	int node; /* the whole name as an N_NAME node */
	char *last; /* its final unqualified name (owned) */
	bool member, tmpl, internal, op;
	bool no_return; /* constructor, destructor, conversion: no return type
	                 * in a template's symbol */
};

/* N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E.
 * Every prefix is a substitution candidate; the whole name is one too
 * unless it names the function being demangled (fn). */
static bool nested_name(struct dm *d, bool fn, struct name *out)
{
	d->p++; /* N */
	while (*d->p == 'r' || *d->p == 'V' || *d->p == 'K') {
		out->member = true;
		d->p++;
	}
	if (*d->p == 'R' || *d->p == 'O') {
		out->member = true;
		d->p++;
	}
	int cur = -1;     /* the name so far */
	bool pending = false; /* cur is not yet in the substitution table */
	bool std_prefix = false;
	while (*d->p != 'E') {
		if (d->why || !*d->p)
			return fail(d, "a nested name without its E") == 0;
		if (pending) {
			add_sub(d, cur);
			pending = false;
		}
		if (*d->p == 'S') {
			int s = substitution(d);
			if (s == -2)
				std_prefix = true;
			else if (s < 0)
				return false;
			else
				cur = s;
			continue;
		}
		if (*d->p == 'T') {
			cur = template_param(d);
			if (cur < 0)
				return false;
			pending = true;
			continue;
		}
		if (*d->p == 'I') {
			if (cur < 0)
				return fail(d, "template arguments without a template") == 0;
			cur = template_args(d, cur);
			if (cur < 0)
				return false;
			out->tmpl = true;
			pending = true;
			continue;
		}
		if (*d->p == 'D' && (d->p[1] == 't' || d->p[1] == 'T' || d->p[1] == 'C'))
			return fail(d, "a decltype or structured binding") == 0;
		struct uname u;
		if (!unqualified_name(d, &u))
			return false;
		const char *prefix = cur >= 0 ? spell_of(d, cur) : std_prefix ? "std" : NULL;
		char *full = join(prefix, u.s);
		std_prefix = false;
		out->no_return = u.ctor_dtor || (u.op && strncmp(u.s, "operator ", 9) == 0);
		out->member |= out->no_return;
		out->op |= u.op;
		out->internal |= u.internal || strcmp(u.s, "(anonymous namespace)") == 0;
		out->tmpl = false;
		free(out->last);
		out->last = u.s;
		cur = add_node(d, N_NAME, full, -1);
		pending = true;
	}
	d->p++; /* E */
	if (cur < 0)
		return fail(d, "an empty nested name") == 0;
	if (!out->last) /* a substitution with template arguments: NS4_IiEE */
		out->last = q7_xstrdup(spell_of(d, cur));
	if (pending && !fn)
		add_sub(d, cur);
	out->node = cur;
	return true;
}

/* <name>: nested, St-scoped, unscoped (with template arguments), or
 * substituted (a type only). */
static bool parse_name(struct dm *d, bool fn, struct name *out)
{
	memset(out, 0, sizeof *out);
	out->node = -1;
	if (*d->p == 'N')
		return nested_name(d, fn, out);
	if (*d->p == 'Z')
		return fail(d, "a local entity (Z..E)") == 0;
	bool std_prefix = false;
	if (*d->p == 'S') {
		int s = substitution(d);
		if (s == -2) {
			std_prefix = true;
		} else if (s < 0) {
			return false;
		} else {
			out->node = s;
			out->last = q7_xstrdup(spell_of(d, s));
			if (*d->p == 'I') {
				out->node = template_args(d, s);
				out->tmpl = true;
				if (out->node < 0)
					return false;
				if (!fn)
					add_sub(d, out->node);
			}
			return true;
		}
	}
	struct uname u;
	if (!unqualified_name(d, &u))
		return false;
	out->last = u.s;
	out->op = u.op;
	out->member = u.ctor_dtor;
	out->internal = u.internal;
	out->node = add_node(d, N_NAME, join(std_prefix ? "std" : NULL, u.s), -1);
	if (*d->p == 'I') {
		add_sub(d, out->node); /* <unscoped-template-name> */
		out->node = template_args(d, out->node);
		if (out->node < 0)
			return false;
		out->tmpl = true;
	}
	if (!fn)
		add_sub(d, out->node);
	return true;
}

/* L <type> <value> E, L_Z <encoding> E, LDnE: a template argument value. */
static char *literal(struct dm *d)
{
	d->p++; /* L */
	if (*d->p == '_' && d->p[1] == 'Z') {
		fail(d, "a template argument naming an entity");
		return NULL;
	}
	int t = parse_type(d);
	if (t < 0)
		return NULL;
	const char *v = d->p;
	while (*d->p && *d->p != 'E')
		d->p++;
	if (*d->p != 'E') {
		fail(d, "a literal without its E");
		return NULL;
	}
	size_t n = (size_t)(d->p - v);
	d->p++;
	const char *ts = spell_of(d, t);
	if (strcmp(ts, "bool") == 0 && n == 1)
		return q7_xstrdup(*v == '1' ? "true" : "false");
	bool neg = n > 0 && *v == 'n';
	if (neg) {
		v++;
		n--;
	}
	if (strcmp(ts, "int") == 0)
		return q7_xasprintf("%s%.*s", neg ? "-" : "", (int)n, v);
	if (strcmp(ts, "unsigned int") == 0)
		return q7_xasprintf("%.*su", (int)n, v);
	return q7_xasprintf("(%s)%s%.*s", ts, neg ? "-" : "", (int)n, v);
}

/* One <template-arg>: a type, a literal, or a pack J ... E. */
static char *template_arg(struct dm *d, int *node)
{
	*node = -1;
	if (*d->p == 'L')
		return literal(d);
	if (*d->p == 'X') {
		fail(d, "an expression as a template argument");
		return NULL;
	}
	if (*d->p == 'J') {
		d->p++;
		struct q7_strbuf b = {0};
		while (*d->p != 'E') {
			int n;
			char *s = *d->p ? template_arg(d, &n) : NULL;
			if (!s) {
				fail(d, "a pack without its E");
				q7_sb_free(&b);
				return NULL;
			}
			q7_sb_addf(&b, "%s%s", b.len ? ", " : "", s);
			free(s);
		}
		d->p++;
		return b.s ? q7_sb_take(&b) : q7_xstrdup("");
	}
	*node = parse_type(d);
	return *node < 0 ? NULL : q7_xstrdup(spell_of(d, *node));
}

static int template_args(struct dm *d, int tmpl)
{
	d->p++; /* I */
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s<", spell_of(d, tmpl));
	bool first = true;
	while (*d->p != 'E') {
		int n;
		char *s = *d->p ? template_arg(d, &n) : NULL;
		if (!s) {
			q7_sb_free(&b);
			return fail(d, "template arguments without their E");
		}
		q7_sb_addf(&b, "%s%s", first ? "" : ", ", s);
		free(s);
		first = false;
	}
	d->p++;
	q7_sb_addc(&b, '>');
	return add_node(d, N_NAME, q7_sb_take(&b), -1);
}

/* Spelling of a pointer/reference to inner: "float *", "at::Tensor &". */
static char *declarator(const struct dm *d, int inner, const char *op)
{
	const char *s = spell_of(d, inner);
	size_t n = strlen(s);
	bool tight = n && (s[n - 1] == '*' || s[n - 1] == '&');
	return q7_xasprintf("%s%s%s", s, tight ? "" : " ", op);
}

/* F [Y] <return type> <parameter types> [R | O] E */
static int function_type(struct dm *d)
{
	d->p++;
	if (*d->p == 'Y')
		d->p++;
	int ret = parse_type(d);
	if (ret < 0)
		return -1;
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s (", spell_of(d, ret));
	bool first = true;
	while (*d->p != 'E') {
		if ((*d->p == 'R' || *d->p == 'O') && d->p[1] == 'E') {
			d->p++;
			continue;
		}
		int t = *d->p ? parse_type(d) : fail(d, "a function type without its E");
		if (t < 0) {
			q7_sb_free(&b);
			return -1;
		}
		if (!(first && d->nodes[t].k == N_BUILTIN && strcmp(spell_of(d, t), "void") == 0 &&
		      *d->p == 'E'))
			q7_sb_addf(&b, "%s%s", first ? "" : ", ", spell_of(d, t));
		first = false;
	}
	d->p++;
	q7_sb_addc(&b, ')');
	return add_node(d, N_FUNC, q7_sb_take(&b), -1);
}

/* A builtin type: a kind's (by the table's letters), or another. */
static int builtin(struct dm *d)
{
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++) {
		const struct q7_kind_info *r = q7_kind_info((enum q7_kind)k);
		if (*r->mangled && at(d, r->mangled)) {
			d->p += strlen(r->mangled);
			return add_node(d, N_BUILTIN, q7_xstrndup(r->cxx, strcspn(r->cxx, "|")), -1);
		}
	}
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		const struct builtin *b = &builtins[i];
		if (at(d, b->code)) {
			d->p += strlen(b->code);
			int n = add_node(d, N_BUILTIN, q7_xstrdup(b->spell), -1);
			d->nodes[n].b = b;
			return n;
		}
	}
	return -1;
}

/* <CV-qualifiers> <type>: r, V, K, in that order. */
static int qualified_type(struct dm *d)
{
	unsigned q = 0;
	for (;; d->p++) {
		if (*d->p == 'r')
			q |= Q_RESTRICT;
		else if (*d->p == 'V')
			q |= Q_VOLATILE;
		else if (*d->p == 'K')
			q |= Q_CONST;
		else
			break;
	}
	int t = parse_type(d);
	if (t < 0)
		return -1;
	const char *s = spell_of(d, t);
	enum nk tk = d->nodes[t].k;
	bool post = tk == N_PTR || tk == N_LREF || tk == N_RREF || tk == N_MEMPTR;
	const char *qs = (q & Q_CONST) && (q & Q_VOLATILE) ? "const volatile"
	                 : (q & Q_CONST)                   ? "const"
	                 : (q & Q_VOLATILE)                ? "volatile"
	                                                   : "__restrict";
	int n = add_node(d, N_QUAL, post ? q7_xasprintf("%s %s", s, qs) : q7_xasprintf("%s %s", qs, s),
	                 t);
	d->nodes[n].quals = q;
	add_sub(d, n);
	return n;
}

/* P, R, O <type>: a pointer, an lvalue or an rvalue reference to it. */
static int pointer_type(struct dm *d, char c)
{
	d->p++;
	int t = parse_type(d);
	if (t < 0)
		return -1;
	int n = add_node(d, c == 'P' ? N_PTR : c == 'R' ? N_LREF : N_RREF,
	                 declarator(d, t, c == 'P' ? "*" : c == 'R' ? "&" : "&&"), t);
	add_sub(d, n);
	return n;
}

/* A [<number>] _ <type>: an array, of a known bound or none. */
static int array_type(struct dm *d)
{
	d->p++;
	unsigned long len = 0;
	bool sized = number(d, &len);
	if (*d->p != '_')
		return fail(d, "an array bound that is an expression");
	d->p++;
	int t = parse_type(d);
	if (t < 0)
		return -1;
	int n = add_node(d, N_ARRAY,
	                 sized ? q7_xasprintf("%s[%lu]", spell_of(d, t), len)
	                       : q7_xasprintf("%s[]", spell_of(d, t)),
	                 t);
	add_sub(d, n);
	return n;
}

/* M <class type> <member type>: a pointer to member. */
static int member_pointer_type(struct dm *d)
{
	d->p++;
	int cls = parse_type(d), t;
	if (cls < 0 || (t = parse_type(d)) < 0)
		return -1;
	int n = add_node(d, N_MEMPTR, q7_xasprintf("%s %s::*", spell_of(d, t), spell_of(d, cls)), t);
	add_sub(d, n);
	return n;
}

/* T_, T<n>_: a template parameter, maybe a template template
 * parameter's specialisation. */
static int template_param_type(struct dm *d)
{
	int t = template_param(d);
	if (t < 0)
		return -1;
	add_sub(d, t);
	if (*d->p == 'I') { /* a template template parameter's specialisation */
		t = template_args(d, t);
		add_sub(d, t);
	}
	return t;
}

/* S_, S<seq-id>_: a substitution (St..., Sa...: names, not here). */
static int substitution_type(struct dm *d)
{
	int t = substitution(d);
	if (t < 0)
		return t == -2 ? fail(d, "a misplaced St") : -1;
	if (*d->p == 'I') {
		t = template_args(d, t);
		add_sub(d, t);
	}
	return t;
}

/* D...: a builtin (Dn, Df32, ...) or what the demangler leaves alone. */
static int d_type(struct dm *d)
{
	int n = builtin(d);
	if (n >= 0)
		return n;
	if (d->p[1] == 'p')
		return fail(d, "a pack expansion");
	if (d->p[1] == 't' || d->p[1] == 'T')
		return fail(d, "a decltype");
	return fail(d, "an unknown D type");
}

/* A class or enum type: a <name>. */
static int named_type(struct dm *d)
{
	struct name nm;
	bool ok = parse_name(d, false, &nm);
	free(nm.last);
	return ok ? nm.node : -1;
}

static int parse_type_inner(struct dm *d)
{
	char c = *d->p;
	int n;
	switch (c) {
	case '\0': return fail(d, "a type cut off");
	case 'r':
	case 'V':
	case 'K': return qualified_type(d);
	case 'P':
	case 'R':
	case 'O': return pointer_type(d, c);
	case 'F':
		if ((n = function_type(d)) >= 0)
			add_sub(d, n);
		return n;
	case 'A': return array_type(d);
	case 'M': return member_pointer_type(d);
	case 'T': return template_param_type(d);
	case 'S':
		if (d->p[1] != 't' && !(d->p[1] >= 'a' && d->p[1] <= 'z'))
			return substitution_type(d);
		break; /* St..., Sa...: a name */
	case 'D': return d_type(d);
	case 'u':
	case 'U': return fail(d, "a vendor extended type or qualifier");
	default:
		if ((n = builtin(d)) >= 0)
			return n;
		break;
	}
	if (c == 'N' || c == 'Z' || c == 'S' || (c >= '0' && c <= '9'))
		return named_type(d);
	return fail(d, "an unknown type");
}

static int parse_type(struct dm *d)
{
	if (d->why)
		return -1;
	if (++d->depth > 64) {
		d->depth--;
		return fail(d, "types nested too deeply");
	}
	int t = parse_type_inner(d);
	d->depth--;
	return t;
}


static void dm_free(struct dm *d)
{
	for (size_t i = 0; i < d->nn; i++)
		free(d->nodes[i].spell);
	free(d->nodes);
	free(d->subs);
}

/* A template's qualified name and last name (*last, replaced) without
 * its own (last) template arguments. */
static void drop_template_args(char *qualname, char **last)
{
	size_t n = strlen(qualname);
	int depth = 0;
	while (n > 0) {
		char ch = qualname[--n];
		depth += ch == '>' ? 1 : ch == '<' ? -1 : 0;
		if (depth == 0)
			break;
	}
	qualname[n] = '\0';
	char *l = *last;
	*last = q7_xstrndup(l, strcspn(l, "<"));
	free(l);
}

int q7_demangle(const char *sym, bool lp64, struct q7_mfunc *f, const char **why)
{
	memset(f, 0, sizeof *f);
	*why = NULL;
	if (strncmp(sym, "_Z", 2) != 0) {
		*why = "not a C++ name";
		return -1;
	}
	struct dm d = {.p = sym + 2, .lp64 = lp64};
	if (*d.p == 'T' || *d.p == 'G') {
		*why = "a special name (vtable, guard variable or thunk)";
		return -1;
	}
	struct name nm;
	bool ok = parse_name(&d, true, &nm);
	if (ok && nm.tmpl && !nm.no_return) {
		/* A template's symbol has its return type first. */
		ok = parse_type(&d) >= 0;
	}
	size_t cap = 4;
	int *params = q7_xmalloc(cap * sizeof *params);
	size_t np = 0;
	while (ok && *d.p) {
		if (*d.p == '.' || *d.p == '$') {
			fail(&d, "a compiler-made clone (a suffix after the name)");
			break;
		}
		if (*d.p == 'z') {
			f->variadic = true;
			d.p++;
			continue;
		}
		int t = parse_type(&d);
		if (t < 0)
			break;
		if (np == cap)
			params = q7_xrealloc(params, (cap *= 2) * sizeof *params);
		params[np++] = t;
	}
	if (ok && !d.why && np == 0 && !f->variadic)
		fail(&d, "no parameter types (a variable, not a function)");
	if (!ok || d.why) {
		*why = d.why ? d.why : "an unreadable name";
		free(params);
		free(nm.last);
		dm_free(&d);
		memset(f, 0, sizeof *f);
		return -1;
	}
	if (np == 1 && d.nodes[params[0]].k == N_BUILTIN && d.nodes[params[0]].b &&
	    strcmp(d.nodes[params[0]].b->code, "v") == 0)
		np = 0;
	f->qualname = q7_xstrdup(spell_of(&d, nm.node));
	if (nm.tmpl)
		drop_template_args(f->qualname, &nm.last);
	f->name = nm.last;
	f->what = nm.op         ? Q7_MF_OPERATOR
	          : nm.member   ? Q7_MF_MEMBER
	          : nm.tmpl     ? Q7_MF_TEMPLATE
	          : nm.internal ? Q7_MF_INTERNAL
	                        : Q7_MF_FREE;
	f->nparams = np;
	f->params = q7_xcalloc(np ? np : 1, sizeof *f->params);
	for (size_t i = 0; i < np; i++)
		q7_mangle_classify(&d, params[i], &f->params[i]);
	free(params);
	dm_free(&d);
	return 0;
}

void q7_mfunc_free(struct q7_mfunc *f)
{
	free(f->qualname);
	free(f->name);
	for (size_t i = 0; i < f->nparams; i++)
		free(f->params[i].ctype);
	free(f->params);
	memset(f, 0, sizeof *f);
}
