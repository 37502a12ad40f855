/* analysis: C++ translation unit -> op table + diagnostics.
 *
 * Owns: the libclang front end (loaded with dlopen only when a TU needs
 * analysis), the cheap pre-scan that decides whether it does, the kernel
 * lint rules, diagnostics and their printing (text, JSON, SARIF), and the
 * link-time merge and resolution of op tables from many objects. The op
 * model itself (op.h, fsym.h, schema.h) is model/'s.
 *
 * Memory: diag lists and op tables own their strings; free them with
 * q7_diags_free and q7_ops_free. */
#ifndef Q7_ANALYSIS_H
#define Q7_ANALYSIS_H

#include <stdbool.h>
#include <stdio.h>

#include "fsym.h"
#include "op.h"
#include "support.h"

enum q7_severity { Q7_SEV_NOTE, Q7_SEV_WARNING, Q7_SEV_ERROR };

struct q7_diag {
	enum q7_severity severity;
	char *file; /* may be "" for a diagnostic with no place */
	unsigned line, col;
	char *rule; /* "q7-unsupported-param" (printed as [-Wq7-...]), or ""
	             * for libclang's own diagnostics (see q7_analyze) */
	char *message;
	bool promoted; /* a warning made an error by -Werror[=] */
	bool source_read; /* file is one this analysis itself read (libclang
	                   * opened it, not a line marker or #line naming it),
	                   * so its line may be shown; never so for findings
	                   * from a trailer or a record */
	bool demotable; /* an error by default that the policy may lower, like
	                 * GCC's default-error warnings: -Wno-error=RULE makes it
	                 * a warning, -Wno-RULE and -w drop it */
};

struct q7_diags {
	size_t n, cap;
	struct q7_diag *d;
};

void q7_diags_add(struct q7_diags *ds, enum q7_severity sev, const char *file, unsigned line,
                  unsigned col, const char *rule, const char *fmt, ...) Q7_PRINTF(7, 8);
void q7_diags_free(struct q7_diags *ds);

/* -Wq7-RULE, -Wno-q7-RULE, -Werror, -Werror=q7-RULE, -Wno-error=q7-RULE,
 * -w: what the user said about q7cc's own warnings. */
struct q7_warn_policy {
	bool werror;      /* -Werror */
	bool suppress_all; /* -w */
	struct q7_strvec disabled, as_error, not_error; /* rule names */
};
/* -W[no-][error=]RULE for one of q7cc's rules (no: the "no-" form; error:
 * the "error=" form); the last flag about a rule wins. Returns false when
 * no rule has that name (the flag is kept all the same). The driver takes
 * the spellings apart (model/options) and sets werror and suppress_all. */
bool q7_warn_policy_rule(struct q7_warn_policy *p, const char *rule, bool no, bool error);
/* Drops disabled diagnostics and promotes warnings per the policy (-w
 * drops every warning, whatever -Werror says, as in GCC). Returns the
 * number of errors left. */
size_t q7_diags_apply_policy(struct q7_diags *ds, const struct q7_warn_policy *p);
void q7_warn_policy_free(struct q7_warn_policy *p);

/* How the real compiler prints diagnostics, which q7cc's lint follows:
 * clang's (xt, a host toolchain whose compiler is clang) or GCC's (gnu, a
 * host toolchain whose compiler is GCC). docs/lint-rules.md ("How findings
 * look") shows both. */
enum q7_diag_style { Q7_DIAG_CLANG, Q7_DIAG_GCC };

/* GCC's colours, SGR parameters as GCC_COLORS gives them ("01;31"); an
 * empty one is no colour. */
struct q7_gcc_colors {
	char error[24], warning[24], note[24], locus[24];
};
/* GCC's defaults, then what gcc_colors (GCC_COLORS, or NULL) sets of
 * error, warning, note and locus; reading stops at a malformed entry, as
 * GCC's does. */
void q7_gcc_colors_init(struct q7_gcc_colors *c, const char *gcc_colors);

/* clang's -fdiagnostics-format: where a place is written, "file:3:6:",
 * "file(3,6):" (msvc) or "file +3:6:" (vi). */
enum q7_clang_format { Q7_CLANG_FORMAT_CLANG, Q7_CLANG_FORMAT_MSVC, Q7_CLANG_FORMAT_VI };

struct q7_diag_render {
	enum q7_diag_style style;
	enum q7_clang_format clang_format;
	bool color;      /* in the style's colours */
	bool json;       /* GCC's -fdiagnostics-format=json: a JSON array */
	bool werror_all; /* -Werror: GCC's closing line says "all warnings" */
	bool no_caret;   /* no source line nor caret (-fno-diagnostics-show-caret,
	                  * clang's -fno-caret-diagnostics) */
	bool no_line_numbers; /* GCC: a one-space margin, no " 12 | " gutter */
	bool no_column;  /* -fno-show-column: "file:line:" */
	bool byte_columns; /* GCC: -fdiagnostics-column-unit=byte */
	int column_shift;  /* GCC: -fdiagnostics-column-origin=N gives N - 1 */
	struct q7_gcc_colors gcc;
};

/* Prints the diagnostics as r says (docs/lint-rules.md, "How findings
 * look"); with json, nothing for no diagnostics. The source line is shown
 * when the diagnostic's file is one the analysis read (source_read) and
 * still a regular file of at most 16 MiB. Names, messages and lines are
 * shown as q7_sb_add_shown shows them. */
void q7_diags_print(const struct q7_diags *ds, FILE *out, const struct q7_diag_render *r);
struct json_object;
/* GCC's JSON objects for ds, appended to the json-c array a, where the
 * compiler's objects are merged with them. */
void q7_diags_add_gcc_json(const struct q7_diags *ds, struct json_object *a,
                           const struct q7_diag_render *r);
/* o as one line of JSON in GCC's layout, then a newline (json.c). */
void q7_json_print(struct json_object *o, FILE *out);
/* SARIF 2.1.0, for CI (--q7-format=sarif). */
void q7_diags_write_sarif(const struct q7_diags *ds, FILE *out);

struct q7_analysis_opts {
	const char *source;        /* the translation unit (C++, whatever its
	                            * name says) */
	char *const *clang_args;   /* NULL-terminated: the compile's flags that
	                            * shape the parse (docs/driver.md, "The
	                            * option tables"), as libclang takes them */
	const char *triple;        /* parse target: i386-unknown-none for the
	                            * device toolchains (clang/front.c says
	                            * why), the host's for host */
	char *const *sys_includes; /* NULL-terminated: the real compiler's own
	                            * include directories (its -E -v); given,
	                            * they replace libclang's (-nostdinc) */
	char *const *predefines;   /* NULL-terminated "NAME=VALUE" of the real
	                            * compiler's target macros (may be NULL) */
	const char *toolchain;     /* "xt", "gnu" or "host": for the lint */
	char *const *kernel_names; /* NULL-terminated --q7-kernel=NAME (or NULL) */
	char *const *wanted_names; /* NULL-terminated (or NULL): names that
	                            * NEURON_LIBRARY blocks of other files ask
	                            * for; kernels where the TU has them, no
	                            * error where it has not */
	bool multicore;            /* --q7-multicore on the compile line: the
	                            * lint warns of accessors that race */
	bool preprocessed;         /* source is preprocessed text (a .ii): read
	                            * as c++-cpp-output; places come from its
	                            * line markers */
};

/* The pre-scan (docs/lint-rules.md, "When analysis runs"; prescan.c says
 * which names count): 0 when the TU certainly has no kernels, so libclang
 * need not load, else 1. Every file it reads (the source, the -include
 * files and the user's headers, followed on after a mark is found) must be
 * a regular file, which libclang will open too: -1 with err set ("<file>:
 * cannot read: not a regular file ...") for one that is not (a FIFO would
 * hang libclang; docs/robustness.md, "Special files"). A file over
 * Q7_READ_TEXT_MAX counts as needed. Also tells (own_headers, unless NULL)
 * whether the TU needs q7cc's own headers: it may have kernels, or it names
 * a header of q7cc's API (<q7/...>, <torchneuron/...>, <neuron/...>), or
 * one in a subfolder of q7cc's folder (<torch/torch.h>) that no folder of
 * the line's, -isystem included, nor the system's (sys_includes,
 * /usr/include, /usr/local/include) has. */
int q7_analysis_prescan(const struct q7_analysis_opts *o, bool *own_headers, struct q7_err *err);
/* q7_analysis_prescan's answer as a yes or no (whether libclang is
 * needed): a file it may not read counts as needed (the analysis then
 * says why). */
bool q7_prescan(const struct q7_analysis_opts *o, bool *own_headers);

/* For preprocessed text that q7cc -E did not make (path, named name in
 * messages): adds the q7-foreign-preprocessed warning (docs/lint-rules.md,
 * "Rules") to diags when the text's line markers show <q7/kernel.h> or
 * <torchneuron/register.h> and no q7 annotate attribute survived. Returns
 * whether it did. */
bool q7_preprocessed_lost_marks(const char *path, const char *name, struct q7_diags *diags);

/* Parses the TU (function bodies skipped) and appends its kernels to ops
 * and its findings (lint included, in source order) to diags, through the
 * resident analysis server (docs/lint-rules.md, "When analysis runs"), else
 * in-process (loading libclang: ~0.13 s of CPU). Call it from one thread.
 * Returns:
 *   0   analysed; diags hold the lint findings (apply the policy, print).
 *   Q7_ANALYZE_PARSE_ERROR (-1): libclang found errors in the TU, or could
 *       not read it. Nothing was printed and ops got nothing; diags hold
 *       libclang's own errors with rule "" (and q7-invalid-declaration for
 *       kernels the errors broke). The real compiler reports the user's
 *       errors itself, so print these only if the real compiler SUCCEEDED
 *       (then it is libclang that could not follow, and the user must know
 *       why the kernels were not analysed); either way fail the compile.
 *   Q7_ANALYZE_UNAVAILABLE (-2): the plugin or libclang could not be
 *       loaded; err names the missing Debian package (libclang1-14 at run
 *       time), on the first call only (later calls return the same,
 *       err untouched): the caller prints it.
 * A declaration libclang marked invalid (a type it could not resolve
 * silently becomes int) is a q7-invalid-declaration error, never a schema. */
enum { Q7_ANALYZE_PARSE_ERROR = -1, Q7_ANALYZE_UNAVAILABLE = -2 };
int q7_analyze(const struct q7_analysis_opts *o, struct q7_op_table *ops,
               struct q7_diags *diags, struct q7_err *err);

/* Gives each kernel without a namespace (op.h: ns) the one of the first
 * NEURON_LIBRARY request in t that names it. q7_ops_resolve and
 * q7_ops_merge do it; --q7-print-schema, which merges nothing, too. */
void q7_ops_adopt_namespaces(struct q7_op_table *t);
/* A finished analysis as bytes, in the analysis server's encoding, with
 * the --q7-kernel names it was asked for: q7cc -E hands it to the q7cc -c
 * that compiles its output. read appends to names, ops and diags only when
 * the whole of data is well formed; 0, or -1 (damaged). The bytes come
 * from outside (q7cc -E's trailer): the ops are read exactly as an
 * object's .q7.ops record is (model/opcodec.h: checksum, every field,
 * q7_op_check), and why is appended to when they are not what analysis
 * writes. */
void q7_analysis_result_put(struct q7_strbuf *b, char *const *kernel_names, int rc,
                            const struct q7_op_table *ops, const struct q7_diags *diags);
int q7_analysis_result_read(const char *data, size_t len, struct q7_strvec *kernel_names,
                            int *rc, struct q7_op_table *ops, struct q7_diags *diags,
                            struct q7_strbuf *why);

/* Link-time: merges the records of all objects (a declaration plus its
 * definition is one kernel; the same name from two places is an error
 * naming both; a kernel declared but defined nowhere is an error),
 * applies q7-too-many-kernels, and appends the result to out by name. */
void q7_ops_merge(const struct q7_op_table *in, const char *toolchain, struct q7_op_table *out,
                  struct q7_diags *diags);

/* The kernel's stack at the build (docs/driver.md): GCC's call graph file
 * of one compile (-fcallgraph-info=su) as the text q7cc keeps in the
 * object (stack.c says its lines). The result is the caller's; "" when
 * the file measured nothing. */
char *q7_stack_from_callgraph(const char *ci, size_t *len);
/* Link-time: joins the objects' texts (payloads) into one call graph and
 * holds each kernel of ops against its stack, adding the q7-stack findings
 * docs/driver.md ("The kernel's stack at the build") describes. */
void q7_stack_check(const struct q7_op_table *ops, const struct q7_strvec *payloads, bool host,
                    struct q7_diags *diags);
/* One object's text, before q7_stack_check trusts it (a prebuilt object
 * may carry any): 0, or -1 with err set for what ("x.o: .q7.stack: line
 * 3: ...") at the first F or C line that q7cc would not have written
 * (docs/packer.md, "The stack figures"). */
int q7_stack_payload_check(const char *text, const char *what, struct q7_err *err);

/* Link-time, before q7_ops_merge. The unqualified names whose definition
 * no record of the link carries: NEURON_LIBRARY requests (op.h,
 * by_name_only) and declared kernels. Empty: nothing to resolve. */
void q7_ops_unresolved(const struct q7_op_table *all, struct q7_strvec *names);
/* Replaces each request by the op derived from the one function that the
 * link's objects define under that name (its symbol read by q7_demangle),
 * and adds the definition of a declared kernel found the same way; errors
 * (docs/lint-rules.md, "Kernels named in another file") go to diags.
 * Requests found nowhere stay for q7_ops_merge to report. */
void q7_ops_resolve(struct q7_op_table *all, const struct q7_fsyms *syms, const char *toolchain,
                    struct q7_diags *diags);

/* The functions of syms that look like kernels a mark was forgotten on:
 * strong free functions with a Tensor parameter (a kernel's const
 * at::Tensor &), each into out as "row_sums(const at::Tensor &, float)
 * in rowsum.o"; docs/driver.md, "Shared libraries without kernels". */
void q7_kernel_lookalikes(const struct q7_fsyms *syms, struct q7_strvec *out);

/* Ops as JSON (for --q7-print-schema --q7-format=json). */
void q7_ops_write_json(const struct q7_op_table *ops, FILE *out);
/* --q7-lint --q7-format=json: {"diagnostics": ..., "ops": ...,
 * "neuron_library": ...}, the ops as the writer above writes them, so one analysis gives an editor both its findings and its kernels. */
void q7_lint_write_json(const struct q7_diags *ds, const struct q7_op_table *ops, FILE *out);

#endif
