/* analysis internals shared by the static library, the libclang plugin and
 * the analysis server: the rule table, what each toolchain's runtime can
 * marshal, JSON string output, the plugin's entry point, the server.
 *
 * Nothing here is part of q7cc's interface to other components. */
#ifndef Q7_ANALYSIS_INTERNAL_H
#define Q7_ANALYSIS_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"

/* Rule names exactly as printed in [-W...] and listed in docs/lint-rules.md. */
#define Q7_RULE_UNSUPPORTED_PARAM "q7-unsupported-param"
#define Q7_RULE_RETURN "q7-return"
#define Q7_RULE_NAME_LENGTH "q7-name-length"
#define Q7_RULE_INTERNAL "q7-internal-linkage"
#define Q7_RULE_C_LINKAGE "q7-c-linkage"
#define Q7_RULE_INLINE "q7-inline"
#define Q7_RULE_TEMPLATE "q7-template"
#define Q7_RULE_MEMBER "q7-member-function"
#define Q7_RULE_VARIADIC "q7-variadic"
#define Q7_RULE_OVERLOAD "q7-overload"
#define Q7_RULE_PROFILE_KIND "q7-profile-kind"
#define Q7_RULE_INVALID_DECL "q7-invalid-declaration"
#define Q7_RULE_STACK "q7-stack-size"
#define Q7_RULE_STACK_NEED "q7-stack"
#define Q7_RULE_IMAGE_SIZE "q7-image-size"
#define Q7_RULE_DUPLICATE "q7-duplicate-kernel"
#define Q7_RULE_TOO_MANY "q7-too-many-kernels"
#define Q7_RULE_UNDEFINED "q7-undefined-kernel"
#define Q7_RULE_MULTICORE_ACCESSOR "q7-multicore-accessor"
#define Q7_RULE_UNKNOWN_KERNEL "q7-unknown-kernel"
#define Q7_RULE_FOREIGN_PP "q7-foreign-preprocessed"
#define Q7_RULE_NO_KERNELS "q7-no-kernels"

/* A place in the user's source; file may be "". */
struct q7_kplace {
	const char *file;
	unsigned line, col;
};

/* One parameter of a kernel, as a front saw it. */
struct q7_kparam {
	const char *label;  /* as messages name it: "'x'", or "2" when unnamed */
	enum q7_kind kind;  /* Q7_KIND_INVALID: no kind can pass it */
	const char *ctype;  /* the type as written */
	const char *why;    /* kind INVALID: what it is ("a pointer", ...) */
	bool invalid;       /* a type the parser could not resolve */
	struct q7_kplace at;
};

/* A use of an accessor in a kernel's body (its text). */
struct q7_kuse {
	const char *what; /* "accessor", "read_stream_accessor", ... */
	struct q7_kplace at;
};

/* Another definition of a kernel's name in a link: its signature, its
 * symbol and the object that has it. */
struct q7_kdef {
	const char *sig, *sym, *in;
};

/* What a front knows of one kernel, for lint.c to judge (docs/lint-rules.md,
 * "Adding a rule (for contributors)"); the fronts word nothing. Strings
 * belong to the front. */
struct q7_kfacts {
	const char *name;       /* NULL: the front does not judge it */
	const char *qualname;
	struct q7_kplace at;    /* where its findings go */
	const char *toolchain;  /* "xt", "gnu" or "host" (NULL: xt) */
	/* The symbol front: who the messages name ("kernel 'ns::f'", or "'f'
	 * named by NEURON_LIBRARY at shape.cpp:12") and the object whose
	 * symbol the facts come from. NULL from the libclang front. */
	const char *who, *where;
	/* Its scope: another declaration of its qualified name (libclang:
	 * other_decl.file set), two definitions in the link (symbol: defs[1]
	 * set); another kernel of the TU with its unqualified name. */
	struct q7_kplace other_decl;
	struct q7_kdef defs[2];
	const char *same_name; /* that kernel's qualified name, or NULL */
	struct q7_kplace same_name_at;
	/* The link's view (merge.c): two records of one name, this one
	 * declared only or defined. */
	bool linked, declared;
	bool invalid;     /* the declaration is invalid (libclang) */
	bool member, is_template, internal, is_inline, c_linkage;
	/* The stack: its own Q7_KERNEL_STACK size, or the text of one that is
	 * not a size (and its place); -DSTACK_SIZE='s text when not a size. */
	unsigned stack;
	const char *stack_bad;
	struct q7_kplace stack_at;
	const char *stack_flag_bad;
	bool multicore; /* --q7-multicore: uses[] are the accessors of its body */
	size_t nuses;
	const struct q7_kuse *uses;
	/* The prototype, when known (not a template's, nor one a symbol of a
	 * member or template gives): variadic, return (ret_known), params. */
	bool proto;
	bool variadic;
	bool ret_known;
	enum q7_kind ret;
	const char *ret_ctype, *ret_why;
	size_t nparams;
	const struct q7_kparam *params;
};

/* When a rule is checked, in this order (docs/lint-rules.md, "Adding a
 * rule (for contributors)"); a rule of several steps is checked at each. */
enum q7_lint_step {
	Q7_LINT_SCOPE = 1 << 0,
	Q7_LINT_DECL = 1 << 1,
	Q7_LINT_KIND = 1 << 2,
	Q7_LINT_LINKAGE = 1 << 3,
	Q7_LINT_BODY = 1 << 4,
	Q7_LINT_VARIADIC = 1 << 5,
	Q7_LINT_RETURN = 1 << 6,
	Q7_LINT_PARAM = 1 << 7,
};

/* One lint run over one kernel's facts (lint.c): a check reads l->k (and
 * l->param at Q7_LINT_PARAM) and adds its findings with q7_lint_add. */
struct q7_lint;

struct q7_rule {
	const char *name;
	enum q7_severity severity; /* default severity */
	const char *summary;       /* one line, for SARIF and the docs */
	bool demotable;            /* an error -Wno-error=RULE makes a warning */
	/* A kernel's rule: when it is checked, and the check, which adds
	 * its findings with q7_lint_add. 0 and NULL: a rule of the library or
	 * the file, raised where that is seen (merge.c, prescan.c, ...). */
	unsigned steps;
	void (*check)(struct q7_lint *l);
};
/* The rule table (lint.c), sorted by name; NULL-terminated by name. */
extern const struct q7_rule q7_rules[];
const struct q7_rule *q7_rule_find(const char *name);
const char *q7_severity_name(enum q7_severity s);
void q7_diags_vadd(struct q7_diags *ds, enum q7_severity sev, const char *file, unsigned line,
                   unsigned col, const char *rule, const char *fmt, va_list ap);
/* A finding of a library's or file's rule (one of the table's), at its
 * row's severity. */
void q7_diags_add_rule(struct q7_diags *ds, const char *rule, const char *file, unsigned line,
                       unsigned col, const char *fmt, ...) Q7_PRINTF(6, 7);

/* Runs every kernel rule over k, appending findings to ds. Returns false
 * when one is an error (the kernel gets no op). */
bool q7_lint_kernel(const struct q7_kfacts *k, struct q7_diags *ds);

/* The vendor runtime's kernels per library (op.h has its other limits). */
#define Q7_MAX_KERNELS 10

/* The namespace of the first NEURON_LIBRARY request of t that names name
 * and has one, else "". */
const char *q7_request_ns(const struct q7_op_table *t, const char *name);

/* True when the toolchain's runtime can pass kind k ("xt": the vendor's
 * Tensor, Scalar, int, float, long long; "gnu"/"host": all kinds). */
bool q7_toolchain_marshals(const char *toolchain, enum q7_kind k);
/* The kinds the toolchain's runtime can pass, for messages: "Tensor, Scalar,
 * int, long long, float, double <conj> bool" (the caller frees it). */
char *q7_toolchain_kinds(const char *toolchain, const char *conj);

/* Sorts ds->d[from..] by file, line and column, stably, each note staying
 * after the diagnostic it belongs to. */
void q7_diags_sort(struct q7_diags *ds, size_t from);

/* Files read for the lines diagnostics show, kept for one print call
 * (diag_source.c). */
struct q7_src_cache {
	size_t n;
	struct {
		char *path;
		char *text; /* NULL when unreadable */
	} f[16];
};
/* The line of d (without its newline) and its length, when d's file is one
 * the analysis read (source_read), a regular file of at most 16 MiB, and
 * has that line; else NULL. */
const char *q7_src_line(struct q7_src_cache *c, const struct q7_diag *d, size_t *len);
void q7_src_cache_free(struct q7_src_cache *c);
/* s as q7_sb_add_shown shows it (tabs escaped). */
void q7_fputs_shown(const char *s, FILE *out);

/* GCC's style as text (diag_gcc.c). */
void q7_diags_print_gcc(const struct q7_diags *ds, FILE *out, const struct q7_diag_render *r);

/* JSON trees (json.c): a new object or array, put under key in the object
 * parent, or appended to the array parent when key is NULL, or a root
 * when parent is NULL; and a string (NULL as ""), integer or boolean put
 * the same way. The parent owns what is put in it (json_object_put). */
struct json_object *q7_json_obj(struct json_object *parent, const char *key);
struct json_object *q7_json_arr(struct json_object *parent, const char *key);
void q7_json_str(struct json_object *o, const char *key, const char *s);
void q7_json_int(struct json_object *o, const char *key, long long v);
void q7_json_bool(struct json_object *o, const char *key, bool v);
/* An m.def's members, as --q7-format=json and the analysis wire put them
 * (wire.c). */
void q7_json_put_def(struct json_object *o, const struct q7_neuron_def *d);

/* The plugin's one exported function. The ABI version guards against a
 * plugin from another build; bump it when q7_op, q7_diag or the options
 * change. Returns as q7_analyze does. */
#define Q7_PLUGIN_ABI 5
#define Q7_PLUGIN_ENTRY "q7_clang_analyze"
typedef int (*q7_plugin_entry_fn)(int abi, const struct q7_analysis_opts *o,
                                  struct q7_op_table *ops, struct q7_diags *diags);

/* Loads the plugin at path (dlopen) and returns its entry, or NULL with a
 * message printed. */
q7_plugin_entry_fn q7_plugin_load(const char *path, struct q7_err *err);

/* The resident analysis server (server.c). */
bool q7_server_enabled(void);
char *q7_server_socket(const char *plugin, const char *server);
/* What q7_server_analyze gives besides 0 (the server answered, and *rc is
 * q7_analyze's result); then ops and diags are untouched. */
enum {
	Q7_SERVER_ABSENT = -1, /* nothing listens there: start one */
	Q7_SERVER_FAILED = -2, /* one listens, but did not start on the request
	                        * in time, or went away: analyse in-process */
	Q7_SERVER_TIMED_OUT = -3, /* it worked on the request for its whole time
	                           * limit and stopped: the TU is too slow for
	                           * libclang, and in-process would be as slow */
};
/* An analysis's time limit in the server, in seconds: 300, or
 * Q7CC_ANALYSIS_TIME_LIMIT (for the tests, which cannot wait 300 s). */
unsigned q7_server_parse_limit_s(void);
int q7_server_analyze(const char *sock, const struct q7_analysis_opts *o,
                      struct q7_op_table *ops, struct q7_diags *diags, int *rc, int ack_ms);
/* Starts a server and returns once its socket is bound (or it failed). */
void q7_server_start(const char *server, const char *sock, const char *plugin);
/* q7analysis-server's main (serve.c): "--detach SOCK PLUGIN" starts
 * "--serve SOCK PLUGIN" in its own session; "--serve" is the server. */
int q7_analysis_server_main(int argc, char **argv);

#endif
