/* Sorting a gnu multicore link's user flags into the relocatable link and
 * the per-core image links (ldsplit.h). */
#include "ldsplit.h"

#include <stdlib.h>
#include <string.h>

/* The stage of a row's flag bits. */
static enum q7_ld_stage stage_of(unsigned f)
{
	bool r = f & Q7_OPT_LD_RESOLVE, i = f & Q7_OPT_LD_IMAGE;
	return r && i ? Q7_LD_BOTH : r ? Q7_LD_RESOLVE : i ? Q7_LD_IMAGE : Q7_LD_UNKNOWN;
}

enum q7_ld_stage q7_ldsplit_word_stage(const char *word, bool *takes_arg)
{
	const char *value;
	const struct q7_option *o = q7_ld_word_find(word, &value);
	*takes_arg = o && !value && (o->flags & Q7_OPT_SEP);
	return o ? stage_of(o->flags) : Q7_LD_UNKNOWN;
}

/* ---- the user's driver flags --------------------------------------------- */

/* One non-positional link flag of the user's: where it goes, or false when
 * the split cannot keep its meaning (docs/driver.md, "The split 8-core
 * link (gnu)"). The cross compiler has no multilibs, so compiler flags
 * (Q7_OPT_LD_IGNORES) stay out; one the compiler rejects is then reported
 * once, by the dispatch wrapper's compile. */
static bool sort_flag(const struct q7_unit *u, struct q7_ldsplit *s)
{
	if (q7_unit_id(u) == Q7_ID_RDYNAMIC) {
		q7_sv_add(&s->image_args, "--export-dynamic");
		return true;
	}
	unsigned f = q7_unit_flags(u);
	enum q7_ld_stage st = stage_of(f);
	if (st == Q7_LD_RESOLVE || st == Q7_LD_BOTH)
		q7_unit_add(u, &s->flags);
	if (st == Q7_LD_IMAGE || st == Q7_LD_BOTH)
		q7_unit_add(u, &s->image_args); /* -z now, -e sym, -u sym: ld's words too */
	return st != Q7_LD_UNKNOWN || (f & Q7_OPT_LD_IGNORES);
}

/* ---- the positional words -------------------------------------------------- */

/* Appends the linker words of one -Wl,a,b,c word. */
static void split_wl(const char *arg, struct q7_strvec *out)
{
	char *copy = q7_xstrdup(arg + strlen("-Wl,"));
	for (char *rest = copy, *w; (w = strsep(&rest, ","));)
		q7_sv_add(out, w);
	free(copy);
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

bool q7_ldsplit_plan(const struct q7_toolchain *p, const struct q7_inv *inv, char *const *objs,
                     struct q7_ldsplit *s)
{
	memset(s, 0, sizeof *s);
	if (p->kind != Q7_TOOLCHAIN_GNU || !inv->multicore) {
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
		if (q7_cmd_link_flag(p, inv, u) && !sort_flag(u, s)) {
			s->why_not = q7_xasprintf("link flag %s: not one the split link knows", u->tok[0]);
			return false;
		}
	}
	bool ok = true;
	for (size_t i = 0; objs[i] && ok;) {
		const char *w = objs[i];
		struct q7_strvec lw = {0};
		if (strncmp(w, "-Wl,", 4) == 0) {
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
	memset(s, 0, sizeof *s);
}
