/* device_view.h: the helper table and the device view of a profile. */
#include "device_view.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

/* What docs/profile.md ("The device view") grounds: the Xtensa
 * floating-point option executes binary32 add, sub, mul, div (DIV0.S and
 * its Newton steps are one operation here), compares and conversions;
 * the double-precision option the same for binary64; the 32-bit integer
 * divide option QUOS, QUOU, REMS, REMU. 64-bit integer helpers have no
 * unit and stay as counted. */
#define F32 "single-precision FPU"
#define F64 "double-precision FPU"
#define DIV "32-bit integer divider"
/* A binary32 helper and its binary64 twin: __<name>sf<tail> is "f32
 * <op>", __<name>df<tail> "f64 <op>". */
#define TWINS(name, tail, op) \
	{"__" name "sf" tail, "f32 " op, F32}, {"__" name "df" tail, "f64 " op, F64}

static const struct q7_devop table[] = {
	TWINS("add", "3", "add"),
	TWINS("sub", "3", "sub"),
	TWINS("mul", "3", "mul"),
	TWINS("div", "3", "div"),
	TWINS("neg", "2", "neg"),
	TWINS("eq", "2", "cmp"),
	TWINS("ne", "2", "cmp"),
	TWINS("lt", "2", "cmp"),
	TWINS("le", "2", "cmp"),
	TWINS("gt", "2", "cmp"),
	TWINS("ge", "2", "cmp"),
	TWINS("unord", "2", "cmp"),
	TWINS("fix", "si", "to i32"),
	TWINS("fixuns", "si", "to u32"),
	{"__floatsisf", "i32 to f32", F32},
	{"__floatunsisf", "u32 to f32", F32},
	{"__floatsidf", "i32 to f64", F64},
	{"__floatunsidf", "u32 to f64", F64},
	{"__extendsfdf2", "f32 to f64", F64},
	{"__truncdfsf2", "f64 to f32", F64},
	{"__divsi3", "i32 div", DIV},
	{"__udivsi3", "u32 div", DIV},
	{"__modsi3", "i32 mod", DIV},
	{"__umodsi3", "u32 mod", DIV},
};

#define NTABLE (sizeof table / sizeof *table)

const struct q7_devop *q7_devop_find(const char *sym)
{
	if (sym[0] != '_' || sym[1] != '_')
		return NULL;
	for (size_t i = 0; i < NTABLE; i++)
		if (strcmp(table[i].sym, sym) == 0)
			return &table[i];
	return NULL;
}

int q7_devop_is_frame(const char *name)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (strcmp(table[i].frame, name) == 0)
			return 1;
	return 0;
}

#define DROPPED ((unsigned)-1)

void q7_prof_device_view(const struct q7_prof *src, struct q7_prof *dst)
{
	/* Children are made after their parents (q7_prof_child): one
	 * forward pass maps every node, a helper's subtree to nothing. */
	unsigned *map = q7_xmalloc(src->n * sizeof *map);
	map[0] = Q7_PROF_ROOT;
	for (size_t i = 1; i < src->n; i++) {
		const struct q7_prof_node *nd = &src->v[i];
		unsigned up = map[nd->parent];
		map[i] = DROPPED;
		if (up == DROPPED)
			continue;
		const struct q7_devop *op = q7_devop_find(nd->name);
		if (!op) {
			map[i] = q7_prof_child(dst, up, nd->name);
			dst->v[map[i]].self += nd->self;
			dst->v[map[i]].calls += nd->calls;
		} else if (nd->calls) {
			unsigned k = q7_prof_child(dst, up, op->frame);
			dst->v[k].self += nd->calls;
			dst->v[k].calls += nd->calls;
		}
	}
	free(map);
}

int q7_prof_view_parse(const char *s, enum q7_prof_view *view)
{
	if (strcmp(s, "device") == 0)
		*view = Q7_PROF_VIEW_DEVICE;
	else if (strcmp(s, "raw") == 0)
		*view = Q7_PROF_VIEW_RAW;
	else
		return -1;
	return 0;
}
