/* The lint rules: one table, each row with its check, which q7_lint_kernel
 * runs step by step over the facts a front gathered (struct q7_kfacts);
 * docs/lint-rules.md, "Adding a rule (for contributors)". */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct q7_lint {
	const struct q7_kfacts *k;
	struct q7_diags *ds;
	const struct q7_rule *rule; /* being checked */
	const struct q7_kparam *param; /* Q7_LINT_PARAM: the one being checked */
	bool error;                 /* an error was found */
	bool found;                 /* a finding in this step */
};

/* A finding of the rule being checked, at its severity. */
static Q7_PRINTF(3, 4) void q7_lint_add(struct q7_lint *l, struct q7_kplace at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_diags_vadd(l->ds, l->rule->severity, at.file, at.line, at.col, l->rule->name, fmt, ap);
	va_end(ap);
	l->error |= l->rule->severity == Q7_SEV_ERROR;
	l->found = true;
}

static Q7_PRINTF(3, 4) void q7_lint_note(struct q7_lint *l, struct q7_kplace at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_diags_vadd(l->ds, Q7_SEV_NOTE, at.file, at.line, at.col, "", fmt, ap);
	va_end(ap);
}

/* "kernel 'ns::f'", and " (defined in a.o)" from the symbol front. */
static char *kernel(const struct q7_kfacts *k)
{
	if (k->where)
		return q7_xasprintf("kernel '%s' (defined in %s)", k->qualname, k->where);
	return q7_xasprintf("kernel '%s'", k->qualname);
}

/* A finding "<kernel> <text>", the kernel named as kernel() names it. */
static void add_kernel(struct q7_lint *l, const char *text)
{
	char *who = kernel(l->k);
	q7_lint_add(l, l->k->at, "%s %s", who, text);
	free(who);
}

/* A linkage finding: "<who> is defined in <where> <by_symbol><why>" from
 * the symbol front, "kernel '<qualname>' <in_source><why>" from libclang's. */
static void add_linkage(struct q7_lint *l, const char *by_symbol, const char *in_source,
                        const char *why)
{
	const struct q7_kfacts *k = l->k;
	if (k->where)
		q7_lint_add(l, k->at, "%s is defined in %s %s%s", k->who, k->where, by_symbol, why);
	else
		q7_lint_add(l, k->at, "kernel '%s' %s%s", k->qualname, in_source, why);
}

static bool overloaded(const struct q7_kfacts *k)
{
	return k->defs[1].sig || k->other_decl.file;
}

/* ---- the checks, one per rule, by name ---- */

static void c_linkage(struct q7_lint *l)
{
	if (l->k->c_linkage && !l->k->is_inline)
		add_linkage(l, "with C linkage (extern \"C\")", "is declared extern \"C\"",
		            "; the generated wrapper declares kernels as C++ functions, so it would not "
		            "link");
}

static void duplicate(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	if (!k->same_name || overloaded(k))
		return; /* the overload is reported */
	if (k->linked)
		q7_lint_add(l, k->at,
		            "kernel '%s' (%s) is %s here and also at %s:%u (%s); kernel names must be "
		            "unique in a library",
		            k->name, k->qualname, k->declared ? "declared" : "defined",
		            k->same_name_at.file, k->same_name_at.line, k->same_name);
	else
		q7_lint_add(l, k->at,
		            "kernel '%s' has the same name as kernel '%s' at %s:%u; kernel names must "
		            "be unique in a library",
		            k->qualname, k->same_name, k->same_name_at.file, k->same_name_at.line);
	q7_lint_note(l, k->same_name_at, "the other '%s' is here", k->name);
}

static void inline_(struct q7_lint *l)
{
	if (l->k->is_inline)
		add_linkage(l, "only as an inline (weak) function", "is inline (or constexpr)",
		            ": only objects that call it define it, and the generated wrapper is not "
		            "one of them");
}

static void internal(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	if (k->internal && !k->member && !k->is_template)
		add_linkage(l, "with internal linkage", "has internal linkage",
		            " (static, or in an unnamed namespace); the generated wrapper cannot call "
		            "it");
}

static void invalid(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	const struct q7_kparam *p = l->param;
	if (p && p->invalid)
		q7_lint_add(l, p->at, "parameter %s of kernel '%s' has a type that could not be resolved",
		            p->label, k->qualname);
	else if (!p && k->invalid)
		q7_lint_add(l, k->at,
		            "the declaration of kernel '%s' is invalid (a type libclang could not "
		            "resolve would silently become int)",
		            k->qualname);
}

static void member(struct q7_lint *l)
{
	if (l->k->member)
		add_kernel(l, "is a member function; a kernel is a free function");
}

static void multicore(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	for (size_t i = 0; k->multicore && i < k->nuses; i++)
		q7_lint_add(l, k->uses[i].at,
		            "kernel '%s' uses %s<>() in a multicore build: every core runs the kernel, "
		            "and standard and streaming accessors race between them; use tcm_accessor() "
		            "on each core's part (get_cpu_id())",
		            k->qualname, k->uses[i].what);
}

static void name_length(struct q7_lint *l)
{
	size_t n = l->k->name ? strlen(l->k->name) : 0;
	if (n > Q7_OP_NAME_MAX)
		q7_lint_add(l, l->k->at, "kernel name '%s' has %zu characters; the runtime takes at most %d",
		            l->k->name, n, Q7_OP_NAME_MAX);
}

static void overload(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	const struct q7_kdef *d = k->defs;
	if (!overloaded(k))
		return;
	if (d[1].sig) {
		q7_lint_add(l, k->at,
		            "%s has two definitions in this link: %s ('%s' in %s) and %s ('%s' in %s); "
		            "the op name must name one function",
		            k->who, d[0].sig, d[0].sym, d[0].in, d[1].sig, d[1].sym, d[1].in);
	} else {
		q7_lint_add(l, k->at, "kernel '%s' is overloaded; the op name must name one function",
		            k->qualname);
		q7_lint_note(l, k->other_decl, "another '%s' is declared here", k->qualname);
	}
}

static void profile_kind(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	const struct q7_kparam *p = l->param;
	if (p->invalid || p->kind == Q7_KIND_INVALID || q7_toolchain_marshals(k->toolchain, p->kind))
		return;
	char *who = kernel(k), *kinds = q7_toolchain_kinds(k->toolchain, "and");
	q7_lint_add(l, p->at,
	            "parameter %s of %s is a %s, which the %s profile's runtime cannot pass (it has "
	            "%s)",
	            p->label, who, q7_kind_name(p->kind), k->toolchain, kinds);
	free(kinds);
	free(who);
}

static void return_(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	if (k->ret_known && k->ret != Q7_KIND_TENSOR)
		q7_lint_add(l, k->at,
		            "kernel '%s' returns '%s' (%s); a kernel returns exactly one at::Tensor by "
		            "value",
		            k->qualname, k->ret_ctype, k->ret_why ? k->ret_why : "not a Tensor");
}

static void stack(struct q7_lint *l)
{
	const struct q7_kfacts *k = l->k;
	if (k->stack_bad)
		q7_lint_add(l, k->stack_at,
		            "stack size '%s' of kernel '%s' is not a number of bytes from 1 to %u (4 MiB)",
		            k->stack_bad, k->qualname, Q7_OP_STACK_MAX);
	else if (!k->stack && k->stack_flag_bad)
		q7_lint_add(l, k->at,
		            "-DSTACK_SIZE=%s, the stack size of kernel '%s', is not a plain number of "
		            "bytes from 1 to %u (4 MiB); q7cc carries it to the wrapper it generates at "
		            "link time",
		            k->stack_flag_bad, k->qualname, Q7_OP_STACK_MAX);
}

static void template_(struct q7_lint *l)
{
	if (l->k->is_template && !l->k->member)
		add_kernel(l, "is a template; a kernel is one plain function");
}

static void unsupported(struct q7_lint *l)
{
	const struct q7_kparam *p = l->param;
	if (p->invalid || p->kind != Q7_KIND_INVALID)
		return;
	char *who = kernel(l->k), *kinds = q7_toolchain_kinds(NULL, "or");
	q7_lint_add(l, p->at,
	            "parameter %s of %s has type '%s' (%s), which a kernel cannot take; use %s "
	            "(Tensor and Scalar by value or const&)",
	            p->label, who, p->ctype, p->why, kinds);
	free(kinds);
	free(who);
}

static void variadic(struct q7_lint *l)
{
	if (l->k->variadic)
		add_kernel(l, "is variadic; a kernel has a fixed parameter list");
}

/* Sorted by name. Keep docs/lint-rules.md in step (a test checks). */
const struct q7_rule q7_rules[] = {
	{Q7_RULE_C_LINKAGE, Q7_SEV_ERROR, "a kernel has C language linkage (extern \"C\")", false,
	 Q7_LINT_LINKAGE, c_linkage},
	{Q7_RULE_DUPLICATE, Q7_SEV_ERROR, "two kernels of one library have the same name", false,
	 Q7_LINT_SCOPE, duplicate},
	{Q7_RULE_FOREIGN_PP, Q7_SEV_WARNING, "preprocessed input that q7cc -E did not make has lost its kernel marks", false, 0, NULL},
	/* The link's (wrapper/link.c): a host library's data against a device
	 * core's window. */
	{Q7_RULE_IMAGE_SIZE, Q7_SEV_WARNING, "a host library's objects hold more data than a device core's window", false, 0, NULL},
	{Q7_RULE_INLINE, Q7_SEV_ERROR, "a kernel is inline (or constexpr), so no object need define it", false,
	 Q7_LINT_LINKAGE, inline_},
	{Q7_RULE_INTERNAL, Q7_SEV_ERROR, "a kernel has internal linkage (static or in an unnamed namespace)", false,
	 Q7_LINT_KIND, internal},
	{Q7_RULE_INVALID_DECL, Q7_SEV_ERROR, "the kernel's declaration is invalid (a type could not be resolved)", false,
	 Q7_LINT_DECL | Q7_LINT_PARAM, invalid},
	{Q7_RULE_MEMBER, Q7_SEV_ERROR, "a kernel is a member function", false, Q7_LINT_KIND, member},
	{Q7_RULE_MULTICORE_ACCESSOR, Q7_SEV_WARNING, "a multicore kernel uses a standard or streaming accessor, which race between cores", false,
	 Q7_LINT_BODY, multicore},
	{Q7_RULE_NAME_LENGTH, Q7_SEV_ERROR, "a kernel's name has 32 characters or more", false,
	 Q7_LINT_DECL, name_length},
	/* The link's (wrapper/link.c): a -shared link without kernel records. */
	{Q7_RULE_NO_KERNELS, Q7_SEV_WARNING, "a device profile's shared-library link has no kernels: the compiler's own link, no image", false, 0, NULL},
	{Q7_RULE_OVERLOAD, Q7_SEV_ERROR, "a kernel's name is overloaded", false, Q7_LINT_SCOPE, overload},
	{Q7_RULE_PROFILE_KIND, Q7_SEV_WARNING, "the profile's runtime cannot pass a parameter of this kind", false,
	 Q7_LINT_PARAM, profile_kind},
	{Q7_RULE_RETURN, Q7_SEV_ERROR, "a kernel does not return exactly one Tensor", false,
	 Q7_LINT_RETURN, return_},
	/* The link's (stack.c): GCC's figures from the kernel down. */
	{Q7_RULE_STACK_NEED, Q7_SEV_ERROR, "a kernel's stack can exceed the core's or its declared size, or has no bound", false, 0, NULL},
	{Q7_RULE_STACK, Q7_SEV_ERROR, "a Q7_KERNEL_STACK or -DSTACK_SIZE= size is not a number of bytes up to 4 MiB", false,
	 Q7_LINT_BODY, stack},
	{Q7_RULE_TEMPLATE, Q7_SEV_ERROR, "a kernel is a template", false, Q7_LINT_KIND, template_},
	/* The library's (merge.c): its size depends on the toolchain. */
	{Q7_RULE_TOO_MANY, Q7_SEV_ERROR, "a library has more than 10 kernels", false, 0, NULL},
	/* The link's (merge.c, resolve.c): no object defines it. */
	{Q7_RULE_UNDEFINED, Q7_SEV_ERROR, "a kernel is declared but defined in no object of the link", false, 0, NULL},
	/* The file's (clang/kernels.c). Demotable: a target that gives every
	 * file the same --q7-kernel= names may let the files without them
	 * pass. */
	{Q7_RULE_UNKNOWN_KERNEL, Q7_SEV_ERROR, "a --q7-kernel name is no function of the file", true, 0, NULL},
	{Q7_RULE_UNSUPPORTED_PARAM, Q7_SEV_ERROR, "a parameter's type cannot be passed to a kernel", false,
	 Q7_LINT_PARAM, unsupported},
	{Q7_RULE_VARIADIC, Q7_SEV_ERROR, "a kernel is variadic", false, Q7_LINT_VARIADIC, variadic},
	{NULL, Q7_SEV_NOTE, NULL, false, 0, NULL},
};

static void run_step(struct q7_lint *l, unsigned step)
{
	for (const struct q7_rule *r = q7_rules; r->name; r++) {
		if (!(r->steps & step))
			continue;
		l->rule = r;
		r->check(l);
	}
}

bool q7_lint_kernel(const struct q7_kfacts *k, struct q7_diags *ds)
{
	struct q7_lint l = {.k = k, .ds = ds};
	for (unsigned step = Q7_LINT_SCOPE; step <= Q7_LINT_PARAM; step <<= 1) {
		if ((step == Q7_LINT_LINKAGE && l.error) ||
		    (step >= Q7_LINT_VARIADIC && !k->proto))
			continue;
		l.found = false;
		if (step != Q7_LINT_PARAM)
			run_step(&l, step);
		for (size_t i = 0; step == Q7_LINT_PARAM && i < k->nparams; i++) {
			l.param = &k->params[i];
			run_step(&l, step);
		}
		l.param = NULL;
		if (step == Q7_LINT_SCOPE && l.found)
			return false;
	}
	return !l.error;
}
