/* wrapper/modes: what each kind of invocation does, given the parsed
 * command line and the toolchain. Shared by compile.c, link.c, schema.c and
 * driver.c; also the helpers that show (-### / -v) and run each step.
 *
 * Memory: a q7_drv lives for the whole run and owns what it holds. */
#ifndef Q7_MODES_H
#define Q7_MODES_H

#include <stdbool.h>
#include <sys/types.h>

#include "analysis.h"
#include "cmdline.h"
#include "proc.h"
#include "toolchain.h"
#include "sysinfo.h"
#include "tempfile.h" /* q7_output_*: what a step may remove */

struct q7_drv {
	struct q7_inv inv;
	struct q7_toolchain tc; /* the toolchain: xt, gnu or host (toolchain.h) */
	struct q7_warn_policy policy;
	bool dry;     /* -###: print, run nothing */
	bool verbose; /* -v: print and run */
	bool have_sysinfo;
	struct q7_sysinfo sys;
	struct q7_strvec unknown_no; /* -Wno-q7-NAME naming no rule: noted after
	                                diagnostics, as GCC does */
	bool noted_unknown;
};

/* docs/driver.md, "Showing and running a step".
 * q7_step_start returns the child's pid (o: q7_proc_spawn's options, NULL
 * for the defaults), 0 when -### only showed it, -1 when it could not
 * start (printed). */
pid_t q7_step_start(const struct q7_drv *d, char *const *argv, const struct q7_proc_opts *o);
/* Waits for what q7_step_start returned: the command's exit code; 0 for
 * one -### only showed; Q7_EXIT_TOOL for one that did not start. */
int q7_step_wait(pid_t pid);
/* Both: the command's exit code (0 under -###). */
int q7_step_run(const struct q7_drv *d, char *const *argv, const struct q7_proc_opts *o);
/* docs/driver.md, "Showing and running a step". Under -### 0 with *out
 * NULL: nothing learnt. Else as q7_proc_capture. */
int q7_step_query(const struct q7_drv *d, char *const *argv, int fd, char **out);
/* "# q7cc: <what>" for an in-process step, under -### and -v. For one
 * that writes or reads what -### must leave alone, q7_step_do also says
 * whether to do it (false under -###). */
bool q7_step_do(const struct q7_drv *d, const char *fmt, ...) Q7_PRINTF(2, 3);
#define q7_step_note(...) ((void)q7_step_do(__VA_ARGS__))
/* "# q7cc: <what> <the op's TorchScript schema>", under -### and -v. */
void q7_step_note_op(const struct q7_drv *d, const char *what, const struct q7_op *op);
/* A path in q7cc's temporary directory, removed at exit; under -### a
 * placeholder, since -### creates nothing. The caller frees it. */
char *q7_drv_temp_path(const struct q7_drv *d, const char *name);
/* For the modes that run no compiler (--q7-lint, --q7-print-schema): the
 * -fdiagnostics-format= value is one the toolchain's compiler takes (GCC 12:
 * text, json; clang 14: clang, msvc, vi), else its error and
 * Q7_EXIT_USAGE. */
int q7_drv_check_diag_format(const struct q7_drv *d);
/* Prints ds on stderr in the style of the toolchain's compiler (diagout.c). */
void q7_drv_print(const struct q7_drv *d, const struct q7_diags *ds);
/* The analysis options for one source; the vectors are the caller's. */
void q7_drv_analysis_opts(struct q7_drv *d, const char *src, struct q7_strvec *args,
                          struct q7_analysis_opts *o);
/* Applies the warning policy to ds and prints what is left (q7_drv_print,
 * on stderr), with the notes about unknown -Wno-q7-NAME flags when anything
 * was printed. Returns the number of errors. compiler_err (or NULL): the
 * compiler's stderr, captured under GCC's -fdiagnostics-format=json
 * (q7_drv_capture_err): its JSON arrays and q7cc's diagnostics (ds may be
 * NULL: none) become one array, after the compiler's other lines; stderr
 * stays one valid JSON array when the compiler printed nothing else. */
size_t q7_drv_report(struct q7_drv *d, struct q7_diags *ds, const char *compiler_err);
/* q7_drv_report without the policy: ds as it is (may be NULL). */
void q7_drv_show(struct q7_drv *d, struct q7_diags *ds, const char *compiler_err);
/* True when err (a captured stderr) holds nothing but empty JSON arrays. */
bool q7_diag_text_empty(const char *err);
/* True when the compiler's stderr must be captured for that merge: GCC's
 * style with -fdiagnostics-format=json, not under -###. */
bool q7_drv_capture_err(const struct q7_drv *d);
/* When stderr is captured (q7_drv_capture_err), the file a compiler's
 * stderr goes to, <temp>/name, created: its descriptor for
 * q7_proc_opts.err, with *path set (the caller frees it). 0 when stderr
 * is not captured; -1 after an error naming the file (*path NULL). */
int q7_drv_capture_open(const struct q7_drv *d, const char *name, char **path);
/* Those notes alone, once per run, after diagnostics printed otherwise. */
void q7_drv_note_unknown(struct q7_drv *d);

/* Adds the real compiler's include directories and macros to o: asked
 * once per run (and cached across runs), only when a TU needs analysis. */
void q7_drv_sysinfo(struct q7_drv *d, struct q7_analysis_opts *o);

/* What q7cc -E leaves at the end of its output (wrapper/preprocess.c):
 * its analysis of the source, for the q7cc -c that compiles the text. */
struct q7_pp_trailer {
	char *toolchain; /* the toolchain q7cc -E ran with */
	bool analysed;  /* libclang read the source (else the pre-scan found
	                 * nothing that could mark a kernel) */
	int rc;         /* q7_analyze's result */
	struct q7_strvec kernel_names; /* the --q7-kernel names it was given */
	struct q7_op_table ops;
	struct q7_diags diags; /* before the warning policy */
};
/* Reads the trailer at the end of the file at path (name: for messages):
 * 1, 0 when it has none (text another preprocessor made), -1 when it is
 * damaged (printed). */
int q7_pp_trailer_read(const char *path, const char *name, struct q7_pp_trailer *t);
void q7_pp_trailer_free(struct q7_pp_trailer *t);
/* Appends the trailer of an analysis to out, as q7cc -E appends it to
 * the preprocessed text (which must end in a newline). */
void q7_pp_trailer_text(const char *toolchain, bool analysed, char *const *kernel_names, int rc,
                        const struct q7_op_table *ops, const struct q7_diags *diags,
                        struct q7_strbuf *out);
/* -E, -M, -MM: the compiler preprocesses; for -E of one C++ source q7cc
 * analyses it meanwhile and appends the trailer to the output. */
int q7_mode_preprocess(struct q7_drv *d);

/* One C++ input (wrapper/input.c). Memory: owns pp; file and name point
 * into arg, a static string or the process's copy of standard input. */
struct q7_input {
	const char *arg;         /* as given: a path, or "-" */
	enum q7_input_kind kind; /* Q7_IN_CXX or Q7_IN_CXX_PP (others: nothing to do) */
	const char *file;        /* what q7cc reads: arg, or the copy of stdin */
	const char *name;        /* how records and messages name it: arg, or "<stdin>" */
	bool from_stdin;
	bool from_q7cc;          /* preprocessed text with q7cc -E's trailer (pp) */
	bool scanned, marks;     /* q7_input_use ran the pre-scan: whether the
	                          * TU may have kernels (analysis_needed) */
	struct q7_pp_trailer pp;
};
/* Prepares an input before the compiler starts: "-" is read into a
 * temporary copy that becomes the standard input of the children;
 * preprocessed text is checked for q7cc -E's trailer, which must be of
 * this toolchain and carry every --q7-kernel name of this line. Under -###
 * standard input is not read and nothing is checked. 0, or an exit code
 * after printing why. */
int q7_input_open(struct q7_drv *d, const char *arg, enum q7_input_kind kind,
                  struct q7_input *in);
/* The input's kernels and findings: from q7cc -E's trailer, else (when
 * the pre-scan or --q7-kernel says so) from libclang, plus the
 * q7-foreign-preprocessed warning for text that lost its marks. wanted:
 * as q7_analysis_opts. *analysed: something was found out (under -###:
 * would be). Returns 0, or q7_analyze's negative result. */
int q7_input_analyse(struct q7_drv *d, struct q7_input *in, char *const *wanted,
                     struct q7_op_table *ops, struct q7_diags *diags, bool *analysed);
void q7_input_close(struct q7_input *in);
/* What the compile of an opened input takes from q7cc (toolchain.h,
 * enum q7_use): Q7_USE_Q7 when it has a trailer of q7cc -E, or the
 * pre-scan finds what could mark a kernel or a header of q7cc's API, or
 * --q7-kernel names were given; else Q7_USE_SHARED when shared (a source
 * of a shared-library link), else Q7_USE_NONE. */
enum q7_use q7_input_use(struct q7_drv *d, struct q7_input *in, bool shared);
/* The same for every C++ source of the line at once (-S, -M, -E of several
 * sources): Q7_USE_Q7 when any uses q7cc (standard input, unread, is
 * taken to), else Q7_USE_NONE. */
enum q7_use q7_drv_line_use(struct q7_drv *d);

/* -flto: the last of -flto, -flto=... and -fno-lto on the line decides,
 * as with GCC; NULL when off. Where it is refused: docs/driver.md (the
 * -flto paragraph). */
const char *q7_drv_lto(const struct q7_drv *d);
/* "q7cc: error: <what>: <lto>: link-time optimisation is not supported
 * ...": Q7_EXIT_USAGE. */
int q7_drv_refuse_lto(const char *what, const char *lto);

/* -c: compiles src into obj with analysis alongside; shared: for a
 * shared-library link (q7_input_use). Returns an exit code. */
int q7_compile_one(struct q7_drv *d, const char *src, enum q7_input_kind kind, const char *obj,
                   bool shared);
int q7_mode_compile(struct q7_drv *d);
int q7_mode_syntax(struct q7_drv *d);
int q7_mode_link(struct q7_drv *d);
int q7_mode_lint(struct q7_drv *d);
int q7_mode_schema(struct q7_drv *d);

#endif
