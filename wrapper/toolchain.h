/* wrapper/toolchain: the toolchains xt, gnu and host, and the exact
 * child command lines each one runs.
 *
 * Owns: choosing the toolchain (--q7-toolchain=, Q7_TOOLCHAIN, detection),
 * finding the real compiler (never q7cc itself), the vendor environment
 * knobs, the flag bundles and library orders, and translating user flags
 * for compilers that do not know the vendor's. Building a command never
 * runs anything.
 *
 * Memory: a toolchain owns its strings (q7_toolchain_free); commands are
 * appended to a caller-owned q7_strvec. */
#ifndef Q7_TOOLCHAIN_H
#define Q7_TOOLCHAIN_H

#include <stdbool.h>

#include "cmdline.h"
#include "support.h"

enum q7_toolchain_kind { Q7_TOOLCHAIN_XT, Q7_TOOLCHAIN_GNU, Q7_TOOLCHAIN_HOST };

struct q7_toolchain {
	enum q7_toolchain_kind kind;
	const char *name;   /* "xt", "gnu", "host" */
	char *cxx;          /* the real compiler: a path, or the bare name */
	bool found;         /* cxx exists (else only -### can go on) */
	char *cc;           /* its C compiler, for C sources (xt-clang,
	                     * xtensa-lx106-elf-gcc, cc): a path, or the bare name */
	bool cc_found;      /* cc exists */
	bool c_name;        /* called by a C driver's name (q7cc-gnu-gcc,
	                     * q7cc-host-gcc): what is not C++ goes to cc, as
	                     * gcc would take it, --version included */
	char *neuron_root;  /* xt: $NEURON_CUSTOM_OP or the vendor default */
	char *core;         /* xt: $Q7_CORE or ncore2gp */
	char *system;       /* xt: $Q7_TOOLS or the vendor default */
	char *q7_include;   /* <prefix>/include/q7cc */
	const char *triple; /* the analysis parse target */
	const char *editor_triple; /* the target q7cc names to editors (-E -v) */
};

/* Chooses (docs/driver.md, "Profiles") and fills the toolchain; choice:
 * the --q7-toolchain= value, or NULL. Returns 0, or an exit code after
 * printing why (or what to install). */
int q7_toolchain_select(struct q7_toolchain *p, const char *choice, const char *argv0);
void q7_toolchain_free(struct q7_toolchain *p);

/* Sets what the children need in q7cc's own environment: the recursion
 * guard, and for xt the license default and the tools directory on PATH. */
void q7_toolchain_export_env(const struct q7_toolchain *p);

/* True when the real compiler prints clang's diagnostics (so q7cc's lint
 * does too), false for GCC's: xt clang, gnu GCC; host is whatever its
 * compiler is (c++ may be either: its name, symlinks followed, says). */
bool q7_toolchain_clang_style(const struct q7_toolchain *p);

/* True when the toolchain forwards this unit to the real compiler. */
bool q7_toolchain_keeps(const struct q7_toolchain *p, const struct q7_unit *u);

/* What a compile's TU takes from q7cc (docs/driver.md, "Pass-through"):
 * nothing (no kernels, none of q7cc's headers: the host toolchain runs the
 * real compiler's command unchanged), position-independent code (a source
 * compiled for a shared kernel library), or q7cc's language and headers
 * too (kernels, or q7cc's headers). The gnu and xt toolchains make device
 * code of every TU alike. */
enum q7_use { Q7_USE_NONE, Q7_USE_SHARED, Q7_USE_Q7 };

/* Commands. Each appends one child argv to cmd. */
/* Compiles src (of kind: C goes to the C compiler) to obj, with the flags
 * of inv (a compile line, or the compile flags found on a link line for
 * the dispatch wrapper). */
void q7_cmd_compile(const struct q7_toolchain *p, const struct q7_inv *inv, const char *src,
                    enum q7_input_kind kind, enum q7_use use, const char *obj,
                    struct q7_strvec *cmd);
/* True when inv's sources are all C (and there is one), or, under a C
 * driver's name (p->c_name), when none is C++: -E, -S, -fsyntax-only,
 * --version and the like, and an executable link then run the C
 * compiler. */
bool q7_cmd_c_only(const struct q7_toolchain *p, const struct q7_inv *inv);
/* -E, -S, -fsyntax-only, -M: the user's line with the toolchain's flags
 * for use (the C compiler's for C sources only). */
void q7_cmd_forward(const struct q7_toolchain *p, const struct q7_inv *inv, enum q7_use use,
                    struct q7_strvec *cmd);
/* --version, -print-*, a plain executable link: the user's line,
 * translated, to the C compiler when its sources are all C (CMake's C
 * compiler checks); a gnu executable link gets what makes it link. With
 * out, a shared-library link with no kernels: the compiler's own link of
 * the user's line, writing out, each source on the line replaced by its
 * object in objs (in order); else both NULL. */
void q7_cmd_passthrough(const struct q7_toolchain *p, const struct q7_inv *inv, const char *out,
                        char *const *objs, struct q7_strvec *cmd);
/* One device image: objects from inv (user objects in order, with link
 * flags), then dispatch_obj, then the libraries; core 0..7 or -1 (single). */
void q7_cmd_link(const struct q7_toolchain *p, const struct q7_inv *inv, const char *out,
                 char *const *objs, const char *dispatch_obj, int core, struct q7_strvec *cmd);

/* True for a user unit of inv that goes on a link line as a link flag
 * (neither an input nor a compile-only flag nor one the link supplies
 * itself). */
bool q7_cmd_link_flag(const struct q7_toolchain *p, const struct q7_inv *inv,
                      const struct q7_unit *u);

/* The split gnu 8-core link (ldsplit.h): the one relocatable link of the
 * user's inputs, dispatch_obj (unless NULL) and every library into out,
 * asking (-u) for the symbols refs names (NULL: none); then one image of
 * that object (and dispatch_obj, unless NULL) for a core, with ld itself. */
struct q7_ldsplit;
void q7_cmd_link_resolve(const struct q7_toolchain *p, const struct q7_ldsplit *s,
                         const char *dispatch_obj, char *const *refs, const char *out,
                         struct q7_strvec *cmd);
void q7_cmd_link_image(const struct q7_ldsplit *s, const char *resolved,
                       const char *dispatch_obj, const char *out, int core,
                       struct q7_strvec *cmd);

/* The flags libclang parses with: the compile's -I/-D/-U/-std/-include
 * and the toolchain's, in the compile's order. */
void q7_cmd_analysis_args(const struct q7_toolchain *p, const struct q7_inv *inv,
                          struct q7_strvec *args);

#endif
