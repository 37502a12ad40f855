/* wrapper/modes: what each kind of invocation does, given the parsed
 * command line and the profile. Shared by compile.c, link.c, schema.c and
 * driver.c; also the helpers that show (-### / -v) and run each step.
 *
 * Memory: a q7_drv lives for the whole run and owns what it holds. */
#ifndef Q7_MODES_H
#define Q7_MODES_H

#include <stdbool.h>

#include "analysis.h"
#include "args.h"
#include "profile.h"
#include "sysinfo.h"
#include "tempfile.h" /* q7_output_*: what a step may remove */

struct q7_drv {
	struct q7_inv inv;
	struct q7_profile prof;
	struct q7_warn_policy policy;
	bool dry;     /* -###: print, run nothing */
	bool verbose; /* -v: print and run */
	bool have_sysinfo;
	struct q7_sysinfo sys;
	struct q7_strvec unknown_no; /* -Wno-q7-NAME naming no rule: noted after
	                                diagnostics, as GCC does */
	bool noted_unknown;
};

/* Prints argv shell-quoted on one line (stderr) under -### and -v.
 * Returns true when the step should run (not -###). */
bool q7_step_show(const struct q7_drv *d, char *const *argv);
/* "# q7cc: <what>" for an in-process step, under -### and -v. */
void q7_step_note(const struct q7_drv *d, const char *fmt, ...) Q7_PRINTF(2, 3);
/* "# q7cc: <what> <the op's TorchScript schema>", under -### and -v. */
void q7_step_note_op(const struct q7_drv *d, const char *what, const struct q7_op *op);
/* Colour for q7cc's own diagnostics: -fdiagnostics-color, else a tty. */
bool q7_drv_color(const struct q7_drv *d);
/* The analysis options for one source; the vectors are the caller's. */
void q7_drv_analysis_opts(struct q7_drv *d, const char *src, struct q7_strvec *args,
                          struct q7_analysis_opts *o);

/* Whether src needs libclang: the pre-scan says so, or --q7-kernel names
 * were given (a name the file does not have is an error that lists the
 * functions it has). */
bool q7_drv_analysis_needed(const struct q7_drv *d, const struct q7_analysis_opts *o);
/* Applies the warning policy to ds and prints what is left (text, on
 * stderr), with the notes about unknown -Wno-q7-NAME flags when anything
 * was printed. Returns the number of errors. */
size_t q7_drv_report(struct q7_drv *d, struct q7_diags *ds);
/* Those notes alone, once per run, after diagnostics printed otherwise. */
void q7_drv_note_unknown(struct q7_drv *d);

/* Adds the real compiler's include directories and macros to o: asked
 * once per run (and cached across runs), only when a TU needs analysis. */
void q7_drv_sysinfo(struct q7_drv *d, struct q7_analysis_opts *o);

/* -c: compiles src into obj with analysis alongside. Returns an exit code. */
int q7_compile_one(struct q7_drv *d, const char *src, enum q7_input_kind kind, const char *obj);
int q7_mode_compile(struct q7_drv *d);
/* -fsyntax-only: the compiler checks the sources while q7cc lints them. */
int q7_mode_syntax(struct q7_drv *d);
int q7_mode_link(struct q7_drv *d);
int q7_mode_lint(struct q7_drv *d);
int q7_mode_schema(struct q7_drv *d);

#endif
