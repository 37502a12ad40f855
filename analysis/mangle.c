/* analysis/mangle: what a kernel needs from the Itanium C++ ABI name of a
 * plain function (mangle.h). libiberty's demangler (the one c++filt and
 * GDB use) parses the symbol into its tree of components, substitutions
 * and template parameters resolved to shared nodes; this file walks that
 * tree: it spells each parameter type in q7cc's forward-declaration style
 * ("const at::Tensor &", as analysis/clang/types.c derives from source),
 * reads its kind, and refuses what a kernel's symbol cannot be. */
#include "mangle.h"
#include "support.h"

/* libiberty.h, which demangle.h includes, declares basename unless told
 * that the C library does. */
#define HAVE_DECL_BASENAME 1
#include <libiberty/demangle.h>

#include <stdlib.h>
#include <string.h>

typedef struct demangle_component comp;

struct dm {
	bool lp64;
	const char *why; /* set on the first failure; every walk then stops */
	int depth;
};

/* Q_REF: a member function's ref-qualifier, which is no part of a
 * spelling. */
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_REF = 8 };

static char *spell(struct dm *d, comp *c);

static char *fail(struct dm *d, const char *why)
{
	if (!d->why)
		d->why = why;
	return NULL;
}

static comp *left(const comp *c)
{
	return c->u.s_binary.left;
}

static comp *right(const comp *c)
{
	return c->u.s_binary.right;
}

/* A leaf as libiberty prints it: a builtin type ("long long"), an
 * operator's name ("operator+"). */
static char *printed(comp *c)
{
	size_t size;
	char *s = cplus_demangle_print(DMGL_PARAMS | DMGL_ANSI, c, 32, &size);
	return s ? s : q7_xstrdup("");
}

/* The builtin types that are no kind (<q7/kinds.h> has the others), by
 * libiberty's spelling, and what each is. */
static const struct {
	const char *spell, *why;
} builtins[] = {
	{"void", "nothing"},
	{"wchar_t", "a character type"},
	{"char", "narrower than int"},
	{"signed char", "narrower than int"},
	{"unsigned char", "unsigned"},
	{"short", "narrower than int"},
	{"unsigned short", "unsigned"},
	{"unsigned int", "unsigned"},
	{"unsigned long", "unsigned"},
	{"unsigned long long", "unsigned"},
	{"__int128", "a 128-bit integer"},
	{"unsigned __int128", "unsigned"},
	{"char8_t", "a character type"},
	{"char16_t", "a character type"},
	{"char32_t", "a character type"},
	{"std::nullptr_t", "a pointer"},
};

static const char *builtin_why(const char *spell)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(builtins[i].spell, spell) == 0)
			return builtins[i].why;
	return "not a kind q7cc can pass";
}

static char *builtin(comp *c)
{
	char *s = printed(c);
	if (strcmp(s, "decltype(nullptr)") == 0) {
		free(s);
		s = q7_xstrdup("std::nullptr_t");
	}
	return s;
}

/* The qualifier that a component of type t is, or 0. */
static unsigned qual_of(enum demangle_component_type t)
{
	switch (t) {
	case DEMANGLE_COMPONENT_CONST:
	case DEMANGLE_COMPONENT_CONST_THIS: return Q_CONST;
	case DEMANGLE_COMPONENT_VOLATILE:
	case DEMANGLE_COMPONENT_VOLATILE_THIS: return Q_VOLATILE;
	case DEMANGLE_COMPONENT_RESTRICT:
	case DEMANGLE_COMPONENT_RESTRICT_THIS: return Q_RESTRICT;
	case DEMANGLE_COMPONENT_REFERENCE_THIS:
	case DEMANGLE_COMPONENT_RVALUE_REFERENCE_THIS: return Q_REF;
	default: return 0;
	}
}

static bool is_qual(enum demangle_component_type t)
{
	return qual_of(t) != 0;
}

/* The type under a chain of qualifiers, the cv-qualifiers in *q. */
static comp *unqualified(comp *c, unsigned *q)
{
	*q = 0;
	for (; c && is_qual(c->type); c = left(c))
		*q |= qual_of(c->type) & ~(unsigned)Q_REF;
	return c;
}

static bool is_declarator(const comp *c)
{
	return c->type == DEMANGLE_COMPONENT_POINTER || c->type == DEMANGLE_COMPONENT_REFERENCE ||
	       c->type == DEMANGLE_COMPONENT_RVALUE_REFERENCE ||
	       c->type == DEMANGLE_COMPONENT_PTRMEM_TYPE;
}

/* "const int", "float * const", "const volatile at::Tensor". */
static char *qualified(struct dm *d, comp *c)
{
	unsigned q;
	comp *in = unqualified(c, &q);
	char *s = in ? spell(d, in) : fail(d, "a qualifier of nothing");
	if (!s || !q)
		return s;
	const char *qs = (q & Q_CONST) && (q & Q_VOLATILE) ? "const volatile"
	                 : (q & Q_CONST)                   ? "const"
	                 : (q & Q_VOLATILE)                ? "volatile"
	                                                   : "__restrict";
	char *r = is_declarator(in) ? q7_xasprintf("%s %s", s, qs) : q7_xasprintf("%s %s", qs, s);
	free(s);
	return r;
}

/* A pointer or reference to inner: "float *", "at::Tensor &". */
static char *declarator(struct dm *d, comp *c, const char *op)
{
	char *s = spell(d, left(c));
	if (!s)
		return NULL;
	size_t n = strlen(s);
	bool tight = n && (s[n - 1] == '*' || s[n - 1] == '&');
	char *r = q7_xasprintf("%s%s%s", s, tight ? "" : " ", op);
	free(s);
	return r;
}

/* Appends the spellings of a list's elements to b, ", " between them;
 * in a template's arguments, a list inside the list is a pack (J..E). */
static bool add_list(struct dm *d, comp *l, struct q7_strbuf *b, bool *first)
{
	for (; l; l = right(l)) {
		comp *a = left(l);
		if (!a)
			continue; /* f(void), an empty pack */
		if (a->type == DEMANGLE_COMPONENT_TEMPLATE_ARGLIST) {
			if (!add_list(d, a, b, first))
				return false;
			continue;
		}
		char *s = spell(d, a);
		if (!s)
			return false;
		q7_sb_addf(b, "%s%s", *first ? "" : ", ", s);
		*first = false;
		free(s);
	}
	return true;
}

/* A template, "name<args>", or a function type, "ret (params)" ("(params)"
 * without a return type): left(c)'s spelling, then right(c)'s list. */
static char *with_list(struct dm *d, comp *c, bool function)
{
	char *head = left(c) || !function ? spell(d, left(c)) : q7_xstrdup("");
	if (!head)
		return NULL;
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s%s", head, !function ? "<" : *head ? " (" : "(");
	free(head);
	bool first = true;
	if (!add_list(d, right(c), &b, &first)) {
		q7_sb_free(&b);
		return NULL;
	}
	q7_sb_addc(&b, function ? ')' : '>');
	return q7_sb_take(&b);
}

/* L <type> <value> E: a template argument's value ("true", "-1", "3u",
 * "(unsigned long)3"). */
static char *literal(struct dm *d, comp *c)
{
	comp *v = right(c);
	if (!v || v->type != DEMANGLE_COMPONENT_NAME)
		return fail(d, "a template argument naming an entity");
	char *t = spell(d, left(c));
	if (!t)
		return NULL;
	const char *neg = c->type == DEMANGLE_COMPONENT_LITERAL_NEG ? "-" : "";
	int n = v->u.s_name.len;
	const char *s = v->u.s_name.s;
	char *r = strcmp(t, "bool") == 0 && n == 1 ? q7_xstrdup(*s == '1' ? "true" : "false")
	          : strcmp(t, "int") == 0          ? q7_xasprintf("%s%.*s", neg, n, s)
	          : strcmp(t, "unsigned int") == 0 ? q7_xasprintf("%.*su", n, s)
	                                           : q7_xasprintf("(%s)%s%.*s", t, neg, n, s);
	free(t);
	return r;
}

/* "a<sep>b<tail>" of two types' spellings: "ns::name", "int Foo::*". */
static char *pair(struct dm *d, comp *a, const char *sep, comp *b, const char *tail)
{
	char *sa = spell(d, a), *sb = sa ? spell(d, b) : NULL;
	char *r = sb ? q7_xasprintf("%s%s%s%s", sa, sep, sb, tail) : NULL;
	free(sa);
	free(sb);
	return r;
}

static char *array_type(struct dm *d, comp *c)
{
	comp *bound = left(c);
	if (bound && bound->type != DEMANGLE_COMPONENT_NAME)
		return fail(d, "an array bound that is an expression");
	char *t = spell(d, right(c));
	char *r = !t ? NULL
	          : bound ? q7_xasprintf("%s[%.*s]", t, bound->u.s_name.len, bound->u.s_name.s)
	                  : q7_xasprintf("%s[]", t);
	free(t);
	return r;
}

/* Names and what a kernel's signature never holds. */
static char *spell_name(struct dm *d, comp *c)
{
	switch (c->type) {
	case DEMANGLE_COMPONENT_NAME: return q7_xstrndup(c->u.s_name.s, (size_t)c->u.s_name.len);
	case DEMANGLE_COMPONENT_SUB_STD:
		return q7_xstrndup(c->u.s_string.string, (size_t)c->u.s_string.len);
	case DEMANGLE_COMPONENT_QUAL_NAME: return pair(d, left(c), "::", right(c), "");
	case DEMANGLE_COMPONENT_TEMPLATE: return with_list(d, c, false);
	case DEMANGLE_COMPONENT_TAGGED_NAME: return spell(d, left(c)); /* [abi:cxx11] */
	case DEMANGLE_COMPONENT_CTOR: return q7_xstrdup("(constructor)");
	case DEMANGLE_COMPONENT_DTOR: return q7_xstrdup("(destructor)");
	case DEMANGLE_COMPONENT_OPERATOR: return printed(c);
	case DEMANGLE_COMPONENT_LOCAL_NAME: return fail(d, "a local entity (Z..E)");
	case DEMANGLE_COMPONENT_UNNAMED_TYPE:
	case DEMANGLE_COMPONENT_LAMBDA: return fail(d, "an unnamed type or lambda");
	case DEMANGLE_COMPONENT_PACK_EXPANSION: return fail(d, "a pack expansion");
	case DEMANGLE_COMPONENT_DECLTYPE: return fail(d, "a decltype");
	case DEMANGLE_COMPONENT_STRUCTURED_BINDING: return fail(d, "a structured binding");
	case DEMANGLE_COMPONENT_VENDOR_TYPE:
	case DEMANGLE_COMPONENT_VENDOR_TYPE_QUAL: return fail(d, "a vendor extended type or qualifier");
	case DEMANGLE_COMPONENT_CONVERSION: {
		char *t = spell(d, left(c));
		char *r = t ? q7_xasprintf("operator %s", t) : NULL;
		free(t);
		return r;
	}
	case DEMANGLE_COMPONENT_UNARY:
	case DEMANGLE_COMPONENT_BINARY:
	case DEMANGLE_COMPONENT_TRINARY:
	case DEMANGLE_COMPONENT_NULLARY:
	case DEMANGLE_COMPONENT_FUNCTION_PARAM:
	case DEMANGLE_COMPONENT_TYPED_NAME: return fail(d, "an expression as a template argument");
	default: return fail(d, "a type q7cc does not read");
	}
}

static char *spell_type(struct dm *d, comp *c)
{
	if (is_qual(c->type))
		return qualified(d, c);
	switch (c->type) {
	case DEMANGLE_COMPONENT_BUILTIN_TYPE: return builtin(c);
	case DEMANGLE_COMPONENT_TEMPLATE_PARAM: return q7_xasprintf("T%ld", c->u.s_number.number);
	case DEMANGLE_COMPONENT_POINTER: return declarator(d, c, "*");
	case DEMANGLE_COMPONENT_REFERENCE: return declarator(d, c, "&");
	case DEMANGLE_COMPONENT_RVALUE_REFERENCE: return declarator(d, c, "&&");
	case DEMANGLE_COMPONENT_ARRAY_TYPE: return array_type(d, c);
	case DEMANGLE_COMPONENT_PTRMEM_TYPE: return pair(d, right(c), " ", left(c), "::*");
	case DEMANGLE_COMPONENT_FUNCTION_TYPE: return with_list(d, c, true);
	case DEMANGLE_COMPONENT_LITERAL:
	case DEMANGLE_COMPONENT_LITERAL_NEG: return literal(d, c);
	default: return spell_name(d, c);
	}
}

/* c in q7cc's spelling, or NULL with d->why set. */
static char *spell(struct dm *d, comp *c)
{
	if (d->why)
		return NULL;
	if (!c)
		return fail(d, "an unreadable name");
	if (++d->depth > 64) {
		d->depth--;
		return fail(d, "types nested too deeply");
	}
	char *s = spell_type(d, c);
	d->depth--;
	return s;
}

static bool is_name(enum demangle_component_type t)
{
	return t == DEMANGLE_COMPONENT_NAME || t == DEMANGLE_COMPONENT_QUAL_NAME ||
	       t == DEMANGLE_COMPONENT_TEMPLATE || t == DEMANGLE_COMPONENT_SUB_STD ||
	       t == DEMANGLE_COMPONENT_TAGGED_NAME;
}

enum q7_kind q7_class_kind(const char *qual, const char **why)
{
	static const char *const tuples[] = {"std::tuple", "std::pair", "std::array", NULL};
	static const char *const containers[] = {"std::vector", "std::list", "std::map",
	                                         "std::basic_string", "std::string",
	                                         "std::initializer_list", "c10::ArrayRef",
	                                         "c10::optional", "std::optional", NULL};
	/* The template's name, without arguments or the library's inline
	 * namespace (std::__cxx11::basic_string, std::__1::vector). */
	char *base = q7_xstrndup(qual, strcspn(qual, "<"));
	for (const char *ns = "std::__cxx11::"; ns; ns = strcmp(ns, "std::__1::") ? "std::__1::" : NULL)
		if (strncmp(base, ns, strlen(ns)) == 0)
			memmove(base + 5, base + strlen(ns), strlen(base + strlen(ns)) + 1);
	enum q7_kind k = q7_kind_of_class(base);
	const char *w = "a class other than Tensor and Scalar";
	for (const char *const *l = tuples; *l; l++)
		if (strcmp(base, *l) == 0)
			w = "a tuple";
	for (const char *const *l = containers; *l; l++)
		if (strcmp(base, *l) == 0)
			w = "a container";
	free(base);
	if (why)
		*why = k == Q7_KIND_INVALID ? w : NULL;
	return k;
}

/* What a type a kernel cannot take is ("a pointer", ...). */
static const char *what_is(struct dm *d, comp *c)
{
	unsigned q;
	switch (c->type) {
	case DEMANGLE_COMPONENT_POINTER:
	case DEMANGLE_COMPONENT_PTRMEM_TYPE: return "a pointer";
	case DEMANGLE_COMPONENT_REFERENCE: return "a reference to non-const";
	case DEMANGLE_COMPONENT_RVALUE_REFERENCE: return "an rvalue reference";
	case DEMANGLE_COMPONENT_ARRAY_TYPE: return "an array";
	case DEMANGLE_COMPONENT_FUNCTION_TYPE: return "a function";
	case DEMANGLE_COMPONENT_TEMPLATE_PARAM: return "a template parameter";
	default: break;
	}
	if (is_qual(c->type)) {
		comp *in = unqualified(c, &q);
		return q & Q_VOLATILE ? "volatile" : what_is(d, in);
	}
	char *s = spell(d, c);
	const char *why = NULL;
	if (c->type == DEMANGLE_COMPONENT_BUILTIN_TYPE)
		why = builtin_why(s);
	else if (is_name(c->type))
		q7_class_kind(s, &why);
	free(s);
	return why ? why : "a class by reference";
}

/* A value type (a name or a builtin) -> its kind and spelling (*spell,
 * owned), or INVALID. */
static enum q7_kind value_kind(struct dm *d, comp *c, char **s)
{
	*s = spell(d, c);
	if (c->type == DEMANGLE_COMPONENT_BUILTIN_TYPE)
		return q7_kind_of_builtin(*s, d->lp64 ? 64 : 32);
	return is_name(c->type) ? q7_class_kind(*s, NULL) : Q7_KIND_INVALID;
}

/* The parameter of type c: its kind and forward-declaration spelling, or
 * INVALID with the type's spelling and what it is. */
static void classify(struct dm *d, comp *c, struct q7_mparam *p)
{
	memset(p, 0, sizeof *p);
	unsigned q = 0;
	comp *in = c->type == DEMANGLE_COMPONENT_REFERENCE ? unqualified(left(c), &q) : NULL;
	if (in && (q & Q_CONST) && !(q & Q_VOLATILE)) {
		char *s;
		if ((p->kind = value_kind(d, in, &s)) != Q7_KIND_INVALID) {
			p->ctype = q7_xasprintf("const %s &", s);
			free(s);
			return;
		}
		free(s);
		p->why = what_is(d, in);
	} else if (in) {
		p->why = !(q & Q_CONST) ? "a reference to non-const" : "volatile";
	} else if (is_qual(c->type)) {
		comp *under = unqualified(c, &q);
		if (!(q & Q_VOLATILE)) {
			classify(d, under, p); /* top-level const is not part of the type */
			return;
		}
		p->why = "volatile";
	} else if ((p->kind = value_kind(d, c, &p->ctype)) != Q7_KIND_INVALID) {
		return;
	} else {
		free(p->ctype);
		p->why = what_is(d, c);
	}
	p->kind = Q7_KIND_INVALID;
	p->ctype = spell(d, c);
}

static bool anonymous(const comp *c)
{
	if (c->type == DEMANGLE_COMPONENT_QUAL_NAME)
		return anonymous(left(c)) || anonymous(right(c));
	static const char anon[] = "(anonymous namespace)";
	return c->type == DEMANGLE_COMPONENT_NAME && c->u.s_name.len == sizeof anon - 1 &&
	       memcmp(c->u.s_name.s, anon, sizeof anon - 1) == 0;
}

/* The function's names and what it is, from its name's component. */
static void read_name(struct dm *d, comp *n, bool member, bool internal, struct q7_mfunc *f)
{
	char *whole = spell(d, n); /* its own template arguments read too */
	if (!whole)
		return;
	free(whole);
	bool tmpl = n->type == DEMANGLE_COMPONENT_TEMPLATE;
	if (tmpl)
		n = left(n);
	comp *last = n->type == DEMANGLE_COMPONENT_QUAL_NAME ? right(n) : n;
	while (last->type == DEMANGLE_COMPONENT_TAGGED_NAME)
		last = left(last);
	f->qualname = spell(d, n);
	f->name = spell(d, last);
	enum demangle_component_type t = last->type;
	bool op = t == DEMANGLE_COMPONENT_OPERATOR || t == DEMANGLE_COMPONENT_CONVERSION;
	member = member || t == DEMANGLE_COMPONENT_CTOR || t == DEMANGLE_COMPONENT_DTOR ||
	         t == DEMANGLE_COMPONENT_CONVERSION;
	f->what = op                            ? Q7_MF_OPERATOR
	          : member                      ? Q7_MF_MEMBER
	          : tmpl                        ? Q7_MF_TEMPLATE
	          : internal || anonymous(n)    ? Q7_MF_INTERNAL
	                                        : Q7_MF_FREE;
}

static void read_params(struct dm *d, comp *l, struct q7_mfunc *f)
{
	size_t cap = 0;
	for (; l && !d->why; l = right(l)) {
		comp *t = left(l);
		if (!t)
			continue; /* (void) */
		char *s = spell(d, t);
		if (!s)
			return;
		if (strcmp(s, "...") == 0 && t->type == DEMANGLE_COMPONENT_BUILTIN_TYPE) {
			f->variadic = true;
			free(s);
			continue;
		}
		free(s);
		Q7_GROW(f->params, cap, f->nparams + 1);
		classify(d, t, &f->params[f->nparams++]);
	}
}

static void read_function(struct dm *d, comp *top, bool internal, struct q7_mfunc *f)
{
	if (top->type == DEMANGLE_COMPONENT_LOCAL_NAME) {
		fail(d, "a local entity (Z..E)");
		return;
	}
	if (top->type != DEMANGLE_COMPONENT_TYPED_NAME) {
		fail(d, "no parameter types (a variable, not a function)");
		return;
	}
	unsigned q;
	comp *name = left(top), *type = right(top);
	bool member = name && type && (is_qual(name->type) || is_qual(type->type));
	type = unqualified(type, &q);
	name = unqualified(name, &q);
	if (!name || !type || type->type != DEMANGLE_COMPONENT_FUNCTION_TYPE) {
		fail(d, "an unreadable name");
		return;
	}
	read_name(d, name, member, internal, f);
	read_params(d, right(type), f);
}

/* What the symbol is before it is parsed, when not a function's name. */
static const char *refused(const char *sym)
{
	if (strncmp(sym, "_Z", 2) != 0)
		return "not a C++ name";
	if (sym[2] == 'T' || sym[2] == 'G')
		return "a special name (vtable, guard variable or thunk)";
	if (strpbrk(sym, ".$"))
		return "a compiler-made clone (a suffix after the name)";
	return NULL;
}

int q7_demangle(const char *sym, bool lp64, struct q7_mfunc *f, const char **why)
{
	memset(f, 0, sizeof *f);
	if ((*why = refused(sym)))
		return -1;
	struct dm d = {.lp64 = lp64};
	void *mem = NULL;
	comp *top = cplus_demangle_v3_components(sym, DMGL_PARAMS | DMGL_ANSI, &mem);
	if (top)
		read_function(&d, top, strncmp(sym, "_ZL", 3) == 0, f);
	else
		fail(&d, "an unreadable name (not in the C++ ABI's grammar)");
	free(mem);
	if (d.why) {
		q7_mfunc_free(f);
		*why = d.why;
		return -1;
	}
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
