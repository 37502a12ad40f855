/* Sorting a gnu multicore link's user flags into the relocatable link and
 * the per-core image links (ldsplit.h). */
#include "ldsplit.h"

#include <stdlib.h>
#include <string.h>

/* GNU ld's options by stage. arg: how the option takes its argument:
 * NONE; SEP: the next word (or "--name=value"); SHORT: joined to a
 * one-letter option ("-lfoo") or the next word. */
enum ld_arg { NONE, SEP, SHORT };

struct ld_word {
	const char *name;
	enum ld_arg arg;
	enum q7_ld_stage stage;
};

#define R Q7_LD_RESOLVE
#define I Q7_LD_IMAGE
#define B Q7_LD_BOTH

static const struct ld_word words[] = {
	/* Which archive members and libraries come in: the relocatable link,
	 * in place among the inputs. */
	{"--start-group", NONE, R}, {"-(", NONE, R}, {"--end-group", NONE, R}, {"-)", NONE, R},
	{"--whole-archive", NONE, R}, {"--no-whole-archive", NONE, R},
	{"-Bstatic", NONE, R}, {"-Bdynamic", NONE, R}, {"-static", NONE, R}, {"-dn", NONE, R},
	{"-dy", NONE, R}, {"-non_shared", NONE, R}, {"-call_shared", NONE, R},
	{"--as-needed", NONE, R}, {"--no-as-needed", NONE, R},
	{"--push-state", NONE, R}, {"--pop-state", NONE, R},
	{"-L", SHORT, R}, {"--library-path", SEP, R}, {"-l", SHORT, R}, {"--library", SEP, R},
	/* A symbol that must come in, and stay: both. */
	{"-u", SHORT, B}, {"--undefined", SEP, B}, {"--require-defined", SEP, B},
	/* The image itself: layout, exports, output, reports. */
	{"-soname", SEP, I}, {"--soname", SEP, I}, {"-h", SHORT, I},
	{"-Map", SEP, I}, {"--Map", SEP, I}, {"-M", NONE, I}, {"--print-map", NONE, I},
	{"--gc-sections", NONE, I}, {"--no-gc-sections", NONE, I},
	{"--print-gc-sections", NONE, I}, {"--no-print-gc-sections", NONE, I},
	{"-z", SHORT, I}, {"--build-id", NONE, I}, {"--hash-style", SEP, I},
	{"-O", SHORT, I}, {"--sort-common", NONE, I}, {"--sort-section", SEP, I},
	{"--no-undefined", NONE, I}, {"--allow-shlib-undefined", NONE, I},
	{"--no-allow-shlib-undefined", NONE, I},
	{"--fatal-warnings", NONE, I}, {"--no-fatal-warnings", NONE, I},
	{"--warn-common", NONE, I}, {"--cref", NONE, I}, {"--stats", NONE, I},
	{"-Bsymbolic", NONE, I}, {"-Bsymbolic-functions", NONE, I},
	{"--version-script", SEP, I}, {"--export-dynamic", NONE, I}, {"-E", NONE, I},
	{"--no-export-dynamic", NONE, I},
	{"--warn-rwx-segments", NONE, I}, {"--no-warn-rwx-segments", NONE, I},
	{"--warn-execstack", NONE, I}, {"--no-warn-execstack", NONE, I},
	{"--relax", NONE, I}, {"--no-relax", NONE, I},
	{"-e", SHORT, I}, {"--entry", SEP, I}, {"--defsym", SEP, I},
	{"-rpath", SEP, I}, {"-rpath-link", SEP, I},
	{"--enable-new-dtags", NONE, I}, {"--disable-new-dtags", NONE, I},
	{"--eh-frame-hdr", NONE, I}, {"--no-eh-frame-hdr", NONE, I},
	{"-x", NONE, I}, {"--discard-all", NONE, I}, {"-X", NONE, I}, {"--discard-locals", NONE, I},
	{"-S", NONE, I}, {"--strip-debug", NONE, I}, {"-s", NONE, I}, {"--strip-all", NONE, I},
	{"-t", NONE, I}, {"--trace", NONE, I}, {"--no-demangle", NONE, I}, {"--demangle", NONE, I},
};

#undef R
#undef I
#undef B

enum q7_ld_stage q7_ldsplit_word_stage(const char *word, bool *takes_arg)
{
	*takes_arg = false;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		const struct ld_word *w = &words[i];
		size_t n = strlen(w->name);
		if (strcmp(word, w->name) == 0) {
			*takes_arg = w->arg != NONE;
			return w->stage;
		}
		if (strncmp(word, w->name, n) != 0)
			continue;
		if (w->arg == SHORT && n == 2)
			return w->stage; /* -lfoo, -usym, -O1 */
		/* --name=value; ld reads -name=value the same way. --build-id and
		 * --sort-common take an optional one. */
		if (word[n] == '=' && (w->arg == SEP || strcmp(w->name, "--build-id") == 0 ||
		                       strcmp(w->name, "--sort-common") == 0))
			return w->stage;
	}
	return Q7_LD_UNKNOWN;
}

/* ---- the user's driver flags --------------------------------------------- */

static bool prefixed(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One non-positional link flag of the user's: where it goes, or false when
 * the split cannot keep its meaning. */
static bool sort_flag(const struct q7_unit *u, struct q7_ldsplit *s)
{
	const char *w = u->tok[0];
	if (prefixed(w, "-L") || strcmp(w, "-nostdlib") == 0 || strcmp(w, "-nodefaultlibs") == 0 ||
	    strcmp(w, "-nostartfiles") == 0 || strcmp(w, "-static") == 0) {
		q7_unit_add(u, &s->flags);
		return true;
	}
	if (prefixed(w, "-u")) { /* -u SYM, -uSYM */
		q7_unit_add(u, &s->flags);
		q7_unit_add(u, &s->image_args);
		return true;
	}
	if (strcmp(w, "-z") == 0 || strcmp(w, "-e") == 0) {
		q7_unit_add(u, &s->image_args);
		return true;
	}
	if (strcmp(w, "-rdynamic") == 0) {
		q7_sv_add(&s->image_args, "--export-dynamic");
		return true;
	}
	if (strcmp(w, "-v") == 0) {
		q7_unit_add(u, &s->flags);
		return true;
	}
	/* Compiler flags seen at link time change nothing in a link without
	 * LTO (the cross compiler has no multilibs), so the relocatable link
	 * goes without them: one the compiler rejects is then reported once,
	 * by the wrapper's compile. LTO and another linker would each change
	 * what the split does. */
	if (prefixed(w, "-flto") || prefixed(w, "-fuse-ld") || prefixed(w, "-fwhole-program"))
		return false;
	return prefixed(w, "-f") || prefixed(w, "-O") || prefixed(w, "-g") || prefixed(w, "-m") ||
	       prefixed(w, "-std=") || prefixed(w, "-W") || prefixed(w, "-D") ||
	       prefixed(w, "-U") || strcmp(w, "-pthread") == 0 || strcmp(w, "-pipe") == 0;
}

/* ---- the positional words -------------------------------------------------- */

/* Appends the linker words of one -Wl,a,b,c word. */
static void split_wl(const char *arg, struct q7_strvec *out)
{
	const char *p = arg + strlen("-Wl,");
	for (;;) {
		const char *c = strchr(p, ',');
		if (!c) {
			q7_sv_add(out, p);
			return;
		}
		q7_sv_addf(out, "%.*s", (int)(c - p), p);
		p = c + 1;
	}
}

/* Sorts a run of linker words (one -Wl, or consecutive -Xlinker). The
 * resolve-stage words go to the relocatable link as -Xlinker pairs, which
 * keep commas in paths intact. False on a word of unknown stage. */
static bool sort_words(const struct q7_strvec *lw, struct q7_ldsplit *s)
{
	for (size_t i = 0; i < lw->n; i++) {
		bool arg;
		enum q7_ld_stage st = q7_ldsplit_word_stage(lw->v[i], &arg);
		if (st == Q7_LD_UNKNOWN) {
			s->why_not = q7_xasprintf("linker option %s: not one the split link knows",
			                          lw->v[i]);
			return false;
		}
		size_t n = arg && i + 1 < lw->n ? 2 : 1;
		if (arg && n == 1) {
			s->why_not = q7_xasprintf("linker option %s: its argument is apart", lw->v[i]);
			return false;
		}
		for (size_t k = i; k < i + n; k++) {
			if (st == Q7_LD_RESOLVE || st == Q7_LD_BOTH) {
				q7_sv_add(&s->inputs, "-Xlinker");
				q7_sv_add(&s->inputs, lw->v[k]);
			}
			if (st == Q7_LD_IMAGE || st == Q7_LD_BOTH)
				q7_sv_add(&s->image_args, lw->v[k]);
		}
		i += n - 1;
	}
	return true;
}

bool q7_ldsplit_plan(const struct q7_profile *p, const struct q7_inv *inv, char *const *objs,
                     struct q7_ldsplit *s)
{
	memset(s, 0, sizeof *s);
	if (p->kind != Q7_PROFILE_GNU || !inv->multicore) {
		s->why_not = q7_xstrdup("not a gnu multicore link");
		return false;
	}
	const char *on = getenv("Q7CC_LINK_SPLIT");
	if (on && strcmp(on, "0") == 0) {
		s->why_not = q7_xstrdup("Q7CC_LINK_SPLIT=0");
		return false;
	}
	/* The cross toolchain's ld sits beside its g++. */
	size_t n = strlen(p->cxx);
	if (n < 3 || strcmp(p->cxx + n - 3, "g++") != 0) {
		s->why_not = q7_xstrdup("no linker beside the compiler");
		return false;
	}
	s->ld = q7_xasprintf("%.*sld", (int)(n - 3), p->cxx);
	if (strchr(s->ld, '/') && !q7_path_is_executable(s->ld)) {
		s->why_not = q7_xasprintf("%s: no such linker", s->ld);
		return false;
	}
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		/* Positional ones (-Wl, -Xlinker, -l) are among objs. */
		if (q7_cmd_link_flag(p, u) && !sort_flag(u, s)) {
			s->why_not = q7_xasprintf("link flag %s: not one the split link knows", u->tok[0]);
			return false;
		}
	}
	bool ok = true;
	for (size_t i = 0; objs[i] && ok;) {
		const char *w = objs[i];
		struct q7_strvec lw = {0};
		if (prefixed(w, "-Wl,")) {
			split_wl(w, &lw);
			i++;
		} else if (strcmp(w, "-Xlinker") == 0 && objs[i + 1]) {
			/* Consecutive -Xlinker words: an option and its argument. */
			while (objs[i] && objs[i + 1] && strcmp(objs[i], "-Xlinker") == 0) {
				q7_sv_add(&lw, objs[i + 1]);
				i += 2;
			}
		} else {
			q7_sv_add(&s->inputs, w); /* an object, a library, -l NAME */
			i++;
			continue;
		}
		ok = sort_words(&lw, s);
		q7_sv_free(&lw);
	}
	s->early = ok;
	for (size_t i = 0; i < s->inputs.n && s->early; i++) {
		const char *w = s->inputs.v[i];
		size_t len = strlen(w);
		if (w[0] == '-' || (len > 2 && strcmp(w + len - 2, ".a") == 0) ||
		    (len > 3 && strcmp(w + len - 3, ".so") == 0))
			s->early = false;
	}
	return ok;
}

void q7_ldsplit_free(struct q7_ldsplit *s)
{
	free(s->ld);
	free(s->why_not);
	q7_sv_free(&s->flags);
	q7_sv_free(&s->inputs);
	q7_sv_free(&s->image_args);
	s->ld = NULL;
	s->why_not = NULL;
}
