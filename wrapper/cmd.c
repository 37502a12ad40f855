/* The child command lines of each toolchain: flag bundles, user flags in
 * their slots, library orders. The xt lines follow the vendor's token for
 * token (docs/vendor-flow.md, "Compile flags" and "Link matrix"); gnu and
 * host translate them (docs/driver.md, "Profiles"). */
#include "ldsplit.h"
#include "lsp.h"
#include "toolchain.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__attribute__((sentinel)) static void add_words(struct q7_strvec *cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	for (const char *w; (w = va_arg(ap, const char *));)
		q7_sv_add(cmd, w);
	va_end(ap);
}

/* ---- which user units go where ----------------------------------------- */

bool q7_toolchain_keeps(const struct q7_toolchain *p, const struct q7_unit *u)
{
	if (u->input)
		return true;
	unsigned f = q7_unit_flags(u);
	if ((f & Q7_OPT_Q7) || u->q7_only)
		return false;
	if (q7_unit_id(u) == Q7_ID_DRYRUN)
		return false;
	if (p->kind != Q7_TOOLCHAIN_XT) {
		if (f & Q7_OPT_VENDOR)
			return false;
		/* -stdlib=libc++-e is the vendor's library; other -stdlib= values
		 * are the user's business. */
		if (q7_unit_id(u) == Q7_ID_STDLIB && strcmp(u->value, "libc++-e") == 0)
			return false;
	}
	if (p->kind == Q7_TOOLCHAIN_HOST && (f & Q7_OPT_XTENSA))
		return false;
	return true;
}

/* Which of the user's units a command takes. */
typedef bool unit_filter(const struct q7_toolchain *p, const struct q7_inv *inv,
                         const struct q7_unit *u);

/* Option units of a compile: everything but inputs, link-only options,
 * the output and the mode flag the command supplies itself. On a link
 * line (the dispatch wrapper's compile) dependency output and -x go too. */
static bool compile_unit(const struct q7_toolchain *p, const struct q7_inv *inv,
                         const struct q7_unit *u)
{
	if (u->input || !q7_toolchain_keeps(p, u))
		return false;
	unsigned f = q7_unit_flags(u);
	if (f & Q7_OPT_LINK)
		return false;
	switch (q7_unit_id(u)) {
	case Q7_ID_COMPILE: case Q7_ID_OUTPUT: case Q7_ID_PREPROCESS: case Q7_ID_ASSEMBLE:
	case Q7_ID_SYNTAX:
		return false;
	case Q7_ID_LANG:
		return inv->mode == Q7_MODE_COMPILE;
	default:
		break;
	}
	if (inv->mode != Q7_MODE_COMPILE && (f & Q7_OPT_DEP))
		return false;
	return true;
}

/* Option units of -E, -S, -fsyntax-only and -M: all but link-only ones. */
static bool forward_unit(const struct q7_toolchain *p, const struct q7_inv *inv,
                         const struct q7_unit *u)
{
	(void)inv;
	return !u->input && !(q7_unit_flags(u) & Q7_OPT_LINK) && q7_toolchain_keeps(p, u);
}

/* Appends the units keep takes that are include folders (includes) or
 * not. */
static void add_units(const struct q7_toolchain *p, const struct q7_inv *inv, unit_filter *keep,
                      bool includes, struct q7_strvec *cmd)
{
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		if (keep(p, inv, u) && ((q7_unit_flags(u) & Q7_OPT_INCLUDE) != 0) == includes)
			q7_unit_add(u, cmd);
	}
}

/* ---- bundles ------------------------------------------------------------ */

/* The flags of a bundle that say C++: a C compile leaves them out. */
static bool cxx_only_flag(const char *flag)
{
	return strcmp(flag, "-std=c++14") == 0 || strcmp(flag, "-stdlib=libc++-e") == 0;
}

/* The vendor's compile bundle, in its order (docs/vendor-flow.md,
 * "Compile flags"). object: with -c -MMD -MP; pic: with -fpic. Without
 * both it is the link's bundle, "the compile bundle less -c, -fpic, -MMD
 * -MP" ("Link matrix"), so -mlongcalls stays; -E/-S/-fsyntax-only take
 * it without what makes an object. c: for xt-clang, without the C++
 * flags (the vendor's flow has no C; the rest applies as it is). */
static void xt_cc_opt(const struct q7_toolchain *p, bool object, bool pic, bool c,
                      struct q7_strvec *cmd)
{
	static const char *const head[] = {"-g", "-std=c++14", "-stdlib=libc++-e",
	                                   "-fno-jump-tables", "-Os", "-Wall", "-Werror",
	                                   "-Wno-c99-designator", "-mcoproc"};
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		if (!c || !cxx_only_flag(head[i]))
			q7_sv_add(cmd, head[i]);
	if (object)
		add_words(cmd, "-MMD", "-MP", NULL);
	if (pic)
		q7_sv_add(cmd, "-fpic");
	q7_sv_add(cmd, "-mlongcalls");
	if (object)
		q7_sv_add(cmd, "-c");
	q7_sv_addf(cmd, "--xtensa-core=%s", p->core);
	q7_sv_addf(cmd, "--xtensa-system=%s", p->system);
}

/* The vendor's include folders (docs/vendor-flow.md, "Compile flags"). */
static void xt_inc(const struct q7_toolchain *p, struct q7_strvec *cmd)
{
	q7_sv_addf(cmd, "-I%s", p->neuron_root);
	q7_sv_addf(cmd, "-I%s/torch/include", p->neuron_root);
	q7_sv_addf(cmd, "-I%s/c10/include", p->neuron_root);
}

/* The compile bundle before the user's flags (without -c for xt when the
 * caller is not compiling); c: for the C compiler, without -std=c++14.
 * The host toolchain's is empty for a TU of use Q7_USE_NONE (the real
 * compiler's command, unchanged: docs/driver.md, "Pass-through"), -fPIC
 * for one compiled for a shared kernel library, and adds -std=c++14 (the
 * device's language) for one that uses q7cc. */
static void bundle(const struct q7_toolchain *p, bool compile, bool c, enum q7_use use,
                   struct q7_strvec *cmd)
{
	switch (p->kind) {
	case Q7_TOOLCHAIN_XT:
		xt_cc_opt(p, compile, true, c, cmd);
		break;
	case Q7_TOOLCHAIN_GNU:
		if (!c)
			q7_sv_add(cmd, "-std=c++14");
		add_words(cmd, "-Os", "-fpic", "-mlongcalls", "-fno-jump-tables", "-Wall", NULL);
		break;
	case Q7_TOOLCHAIN_HOST:
		if (use == Q7_USE_Q7 && !c)
			q7_sv_add(cmd, "-std=c++14");
		if (use != Q7_USE_NONE)
			q7_sv_add(cmd, "-fPIC");
		break;
	}
}

/* q7cc's own headers. The host toolchain's come after every folder of the
 * user's, -isystem included (-idirafter), so that the project's headers
 * (libtorch's <torch/torch.h>) win, and only for a TU that uses q7cc.
 * The device toolchains' come before the compiler's (-I, after the user's
 * -I): their stand-ins for the C++ library headers pass on to the
 * compiler's own with #include_next, which GCC refuses from the last
 * folder; and xt's is the vendor's flow (docs/vendor-flow.md). */
static void own_includes(const struct q7_toolchain *p, enum q7_use use, struct q7_strvec *cmd)
{
	if (p->kind != Q7_TOOLCHAIN_HOST) {
		q7_sv_addf(cmd, "-I%s", p->q7_include);
	} else if (use == Q7_USE_Q7) {
		add_words(cmd, "-idirafter", p->q7_include, NULL);
	}
}

bool q7_cmd_c_only(const struct q7_toolchain *p, const struct q7_inv *inv)
{
	bool any = false;
	for (size_t i = 0; i < inv->n; i++) {
		enum q7_input_kind k = inv->u[i].input;
		if (k == Q7_IN_C)
			any = true;
		else if (k == Q7_IN_CXX || k == Q7_IN_CXX_PP || (k && k != Q7_IN_LINK && !p->c_name))
			return false;
	}
	return any || p->c_name;
}

/* The user's flags (those keep takes), the vendor includes, the user's
 * includes, then q7cc's own headers last so that vendor and user headers
 * win. */
static void flags_and_includes(const struct q7_toolchain *p, const struct q7_inv *inv,
                               unit_filter *keep, enum q7_use use, struct q7_strvec *cmd)
{
	add_units(p, inv, keep, false, cmd);
	if (p->kind == Q7_TOOLCHAIN_XT)
		xt_inc(p, cmd);
	add_units(p, inv, keep, true, cmd);
	own_includes(p, use, cmd);
}

void q7_cmd_compile(const struct q7_toolchain *p, const struct q7_inv *inv, const char *src,
                    enum q7_input_kind kind, enum q7_use use, const char *obj,
                    struct q7_strvec *cmd)
{
	bool c = kind == Q7_IN_C;
	q7_sv_add(cmd, c ? p->cc : p->cxx);
	bundle(p, true, c, use, cmd);
	flags_and_includes(p, inv, compile_unit, use, cmd);
	if (p->kind != Q7_TOOLCHAIN_XT)
		q7_sv_add(cmd, "-c");
	add_words(cmd, "-o", obj, src, NULL);
}

void q7_cmd_forward(const struct q7_toolchain *p, const struct q7_inv *inv, enum q7_use use,
                    struct q7_strvec *cmd)
{
	bool c = q7_cmd_c_only(p, inv);
	q7_sv_add(cmd, c ? p->cc : p->cxx);
	bundle(p, false, c, use, cmd);
	flags_and_includes(p, inv, forward_unit, use, cmd);
	for (size_t i = 0; i < inv->n; i++)
		if (inv->u[i].input)
			q7_unit_add(&inv->u[i], cmd);
}

static void add_lsp_script(struct q7_strvec *cmd, const char *dir)
{
	q7_sv_addf(cmd, "-Wl,-T,%s/ldscripts/elf32xtensa.x", dir);
}

/* The device libraries as one group, ending in the soft-float helpers and
 * libgcc: libgcc's complex and powi helpers call the soft-float helpers
 * back, and the runtime and picolibc call each other (stdout hooks,
 * memcpy). rt, when given, comes first. An executable link (CMake's probes)
 * leaves the soft-float archive out when q7cc was built without the cross
 * compiler; an image link names it always, so a missing one is named. */
static void add_device_libs(const char *const *libs, const char *rt, bool softfp_optional,
                            struct q7_strvec *cmd)
{
	q7_sv_add(cmd, "-Wl,--start-group");
	if (rt)
		q7_sv_add(cmd, rt);
	for (size_t i = 0; libs[i]; i++)
		q7_sv_add(cmd, libs[i]);
	char *softfp = q7_prefix_path("lib/q7cc/xtensa/libq7softfp.a");
	if (!softfp_optional || q7_path_exists(softfp))
		q7_sv_add(cmd, softfp);
	free(softfp);
	add_words(cmd, "-lgcc", "-Wl,--end-group", NULL);
}

void q7_cmd_passthrough(const struct q7_toolchain *p, const struct q7_inv *inv, const char *out,
                        char *const *objs, struct q7_strvec *cmd)
{
	q7_sv_add(cmd, q7_cmd_c_only(p, inv) ? p->cc : p->cxx);
	bool gnu = p->kind == Q7_TOOLCHAIN_GNU;
	bool script = false;
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		if (gnu && q7_unit_id(u) == Q7_ID_LSP) {
			/* -mlsp=DIR means that package's linker script. */
			add_lsp_script(cmd, u->value);
			script = true;
			continue;
		}
		if (out && q7_unit_id(u) == Q7_ID_OUTPUT) {
			add_words(cmd, "-o", out, NULL);
		} else if (objs && u->input && u->input != Q7_IN_LINK) {
			q7_sv_add(cmd, *objs++);
		} else if (q7_toolchain_keeps(p, u)) {
			q7_unit_add(u, cmd);
		}
	}
	if (out && !inv->output) /* a.out, as the compiler's default */
		add_words(cmd, "-o", out, NULL);
	if (gnu && (inv->mode == Q7_MODE_LINK_EXE || inv->mode == Q7_MODE_LINK_SHARED)) {
		/* The cross gcc has no libstdc++ and picolibc's crt0 wants
		 * picolibc's memory layout; a device executable is never run, so
		 * it links bare against picolibc (what CMake's probes need), and
		 * so does a shared library without kernels. */
		bool exe = inv->mode == Q7_MODE_LINK_EXE;
		add_words(cmd, "-nostartfiles", "-nodefaultlibs", NULL);
		if (exe && !script)
			q7_sv_add(cmd, "-Wl,--entry=main");
		/* -ldummyhost: picolibc's stdin/stdout/stderr, for an executable. */
		static const char *const libs[] = {"-lc", "-lm", "-ldummyhost", NULL};
		static const char *const shlibs[] = {"-lc", "-lm", NULL};
		add_device_libs(exe ? libs : shlibs, NULL, true, cmd);
	}
}

/* ---- link -------------------------------------------------------------- */

bool q7_cmd_link_flag(const struct q7_toolchain *p, const struct q7_inv *inv,
                      const struct q7_unit *u)
{
	(void)inv;
	if (u->input || !q7_toolchain_keeps(p, u))
		return false;
	unsigned f = q7_unit_flags(u);
	if (f & (Q7_OPT_POSITIONAL | Q7_OPT_DEP | Q7_OPT_COMPILE))
		return false;
	if ((f & Q7_OPT_INCLUDE) && p->kind != Q7_TOOLCHAIN_XT)
		return false;
	switch (q7_unit_id(u)) {
	case Q7_ID_SHARED: case Q7_ID_OUTPUT: case Q7_ID_LSP: case Q7_ID_LANG:
		return false;
	default:
		return true;
	}
}

static bool library_input(const char *word)
{
	size_t n = strlen(word);
	return strncmp(word, "-l", 2) == 0 || (n > 2 && strcmp(word + n - 2, ".a") == 0);
}

static const char *user_lsp(const struct q7_inv *inv)
{
	const char *dir = NULL;
	for (size_t i = 0; i < inv->n; i++)
		if (q7_unit_id(&inv->u[i]) == Q7_ID_LSP)
			dir = inv->u[i].value;
	return dir;
}

static char *lsp_dir(const struct q7_toolchain *p, const struct q7_inv *inv, int core)
{
	const char *mine = core == Q7_LSP_SINGLE ? user_lsp(inv) : NULL;
	if (mine)
		return q7_xstrdup(mine);
	const struct q7_lsp *l = q7_lsp_get(core);
	if (p->kind == Q7_TOOLCHAIN_XT)
		return q7_xasprintf("%s/lsp_fll_load_cpus/%s", p->neuron_root, l->name);
	return q7_lsp_dir(l);
}

/* The gnu image links' fixed ld words, for both the full link (through
 * the driver, as -Wl,) and the split one (to ld itself). The image is one
 * window of core SRAM, code and data together: ld's RWX-segment warning
 * would only be noise on every link. */
static const char *const gnu_image_ld[] = {"-Bsymbolic", "--no-undefined",
                                           "--no-warn-rwx-segments"};

/* picolibc and libgcc copies whose .rodata is writable, ahead of the
 * user's -L: their absolute pointers in .rodata (printf's tables,
 * strerror, the unwinder) then become R_XTENSA_RELATIVE instead of failing
 * the -shared link (docs/lsp.md). */
static void add_gnu_libdir(struct q7_strvec *cmd)
{
	char *libdir = q7_prefix_path("lib/q7cc/xtensa/lsp");
	q7_sv_addf(cmd, "-L%s", libdir);
	free(libdir);
}

static void add_gnu_image_libs(struct q7_strvec *cmd)
{
	static const char *const libs[] = {"-lm", "-lc", NULL};
	char *rt = q7_prefix_path("lib/q7cc/xtensa/libq7rt.a");
	add_device_libs(libs, rt, false, cmd);
	free(rt);
}

/* The libraries a gnu image links itself, after the runtime
 * (add_gnu_image_libs). libtool's links name them too, from the `-shared
 * -v` probe (-nostdlib ... -lc -lm -lgcc): ahead of the runtime they
 * would give picolibc's printf before the runtime's, twice defined
 * (docs/driver.md, "autotools and libtool"). */
static bool gnu_image_lib(const char *word)
{
	return strcmp(word, "-lc") == 0 || strcmp(word, "-lm") == 0 || strcmp(word, "-lgcc") == 0;
}

/* The objects, then wrapper.o (docs/vendor-flow.md, "Link matrix"). It goes before the first archive
 * or -l, since it is what pulls the kernels out of them. gnu: without the
 * libraries the image links itself. */
static void add_objects(char *const *objs, const char *dispatch_obj, bool gnu,
                        struct q7_strvec *cmd)
{
	bool placed = dispatch_obj == NULL;
	for (size_t i = 0; objs[i]; i++) {
		if (gnu && gnu_image_lib(objs[i]))
			continue;
		if (!placed && library_input(objs[i])) {
			q7_sv_add(cmd, dispatch_obj);
			placed = true;
		}
		q7_sv_add(cmd, objs[i]);
	}
	if (!placed)
		q7_sv_add(cmd, dispatch_obj);
}

static bool no_default_libs(const struct q7_inv *inv)
{
	for (size_t i = 0; i < inv->n; i++) {
		const char *t = inv->u[i].input ? NULL : inv->u[i].tok[0];
		if (t && (strcmp(t, "-nostdlib") == 0 || strcmp(t, "-nodefaultlibs") == 0))
			return true;
	}
	return false;
}

void q7_cmd_link(const struct q7_toolchain *p, const struct q7_inv *inv, const char *out,
                 char *const *objs, const char *dispatch_obj, int core, struct q7_strvec *cmd)
{
	char *lsp = lsp_dir(p, inv, core);
	q7_sv_add(cmd, p->cxx);
	switch (p->kind) {
	case Q7_TOOLCHAIN_XT:
		/* The link bundle, the include folders, -o lib, the objects, the
		 * libraries (docs/vendor-flow.md, "Link matrix"; user flags in the
		 * cflags slot, user includes after the bundle's, as in the
		 * compile). */
		xt_cc_opt(p, false, false, false, cmd);
		add_units(p, inv, q7_cmd_link_flag, false, cmd);
		xt_inc(p, cmd);
		add_units(p, inv, q7_cmd_link_flag, true, cmd);
		break;
	case Q7_TOOLCHAIN_GNU:
		add_words(cmd, "-shared", "-nostdlib", NULL);
		for (size_t i = 0; i < sizeof gnu_image_ld / sizeof gnu_image_ld[0]; i++)
			q7_sv_addf(cmd, "-Wl,%s", gnu_image_ld[i]);
		add_lsp_script(cmd, lsp);
		add_gnu_libdir(cmd);
		add_units(p, inv, q7_cmd_link_flag, false, cmd);
		break;
	case Q7_TOOLCHAIN_HOST:
		/* --no-undefined: a kernel missing from the inputs fails here,
		 * not when q7-run loads the library. */
		add_words(cmd, "-shared", "-Wl,--no-undefined", NULL);
		add_units(p, inv, q7_cmd_link_flag, false, cmd);
		break;
	}
	add_words(cmd, "-o", out, NULL);
	add_objects(objs, dispatch_obj, p->kind == Q7_TOOLCHAIN_GNU, cmd);
	switch (p->kind) {
	case Q7_TOOLCHAIN_XT: {
		const char *r = p->neuron_root;
		q7_sv_addf(cmd, "%s/neuron/libneuroncustomop.a", r);
		q7_sv_addf(cmd, "%s/c10/lib/libc10.a", r);
		q7_sv_add(cmd, "-lloader");
		q7_sv_addf(cmd, "-mlsp=%s", lsp);
		add_words(cmd, "-lxmem", "-lhal", "-lc++-e", "-lm", "-lgcc", NULL);
		q7_sv_addf(cmd, "%s/neuron/libcweak.a", r);
		break;
	}
	case Q7_TOOLCHAIN_GNU:
		add_gnu_image_libs(cmd);
		break;
	case Q7_TOOLCHAIN_HOST: {
		char *rt = q7_prefix_path("lib/q7cc/host/libq7rt.a");
		q7_sv_add(cmd, rt);
		free(rt);
		/* Under -nostdlib (libtool's C++ links, which name the
		 * compiler's libraries themselves, before the runtime) the
		 * runtime needs them after it, as the compiler would put them. */
		if (no_default_libs(inv))
			add_words(cmd, "-lstdc++", "-lm", "-lc", NULL);
		break;
	}
	}
	free(lsp);
}

/* ---- the split 8-core link (ldsplit.h) ----------------------------------- */

void q7_cmd_link_resolve(const struct q7_toolchain *p, const struct q7_ldsplit *s,
                         const char *dispatch_obj, char *const *refs, const char *out,
                         struct q7_strvec *cmd)
{
	add_words(cmd, p->cxx, "-r", "-nostdlib", NULL);
	/* The entry every image's script names, from the runtime. */
	q7_sv_add(cmd, "-Wl,-u,_start");
	for (size_t i = 0; refs && refs[i]; i++)
		q7_sv_addf(cmd, "-Wl,-u,%s", refs[i]);
	add_gnu_libdir(cmd);
	q7_sv_addv(cmd, &s->flags);
	add_words(cmd, "-o", out, NULL);
	add_objects(s->inputs.v, dispatch_obj, true, cmd);
	add_gnu_image_libs(cmd);
}

void q7_cmd_link_image(const struct q7_ldsplit *s, const char *resolved,
                       const char *dispatch_obj, const char *out, int core,
                       struct q7_strvec *cmd)
{
	add_words(cmd, s->ld, "-shared", NULL);
	for (size_t i = 0; i < sizeof gnu_image_ld / sizeof gnu_image_ld[0]; i++)
		q7_sv_add(cmd, gnu_image_ld[i]);
	char *script = q7_lsp_ldscript(q7_lsp_get(core), Q7_LSP_X);
	add_words(cmd, "-T", script, NULL);
	free(script);
	q7_sv_addv(cmd, &s->image_args);
	add_words(cmd, "-o", out, resolved, NULL);
	if (dispatch_obj)
		q7_sv_add(cmd, dispatch_obj);
}

/* ---- analysis ---------------------------------------------------------- */

/* The units that shape the parse (Q7_OPT_PARSE): libclang takes them as
 * the compiler does. Everything else stays out: libclang would print
 * "unknown argument" for GCC-only flags (-mlongcalls), and -MD/-MF would
 * have it write the compile's .d file. The language is the plugin's to
 * say (q7cc analyses C++ only), so -x stays out too. */
static bool analysis_unit(const struct q7_toolchain *p, const struct q7_inv *inv,
                          const struct q7_unit *u)
{
	(void)inv;
	return !u->input && q7_toolchain_keeps(p, u) && (q7_unit_flags(u) & Q7_OPT_PARSE);
}

void q7_cmd_analysis_args(const struct q7_toolchain *p, const struct q7_inv *inv,
                          struct q7_strvec *args)
{
	q7_sv_add(args, "-std=c++14");
	flags_and_includes(p, inv, analysis_unit, Q7_USE_Q7, args);
}
