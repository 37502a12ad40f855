/* Unit tests of the instruction profile's writers (profiler/insn_profile.h,
 * profiler/flamegraph.h) on profiles no kernel of the suite makes: a stack
 * 100,000 calls deep (the flame graph recursed once per frame and died
 * with SIGSEGV; folded lines lost their roots past 4,096 frames, and the
 * text was gigabytes), and frame names with control bytes, invalid UTF-8,
 * ';', newlines and markup (docs/robustness.md, "The pictures' readers").
 * The SVGs are checked with expat: well-formed, the names as they were
 * escaped. */
#include <check.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_view.h"
#include "flamegraph.h"
#include "insn_profile.h"
#include "memory_map.h"
#include "support.h"
#include "../analysis/run_suite.h"

#define DEEP 100000u

/* core0;op;f;f;...;f (DEEP frames of f), one instruction in each. */
static void deep_profile(struct q7_prof *p)
{
	q7_prof_init(p);
	unsigned n = q7_prof_child(p, Q7_PROF_ROOT, "core0");
	n = q7_prof_child(p, n, "op");
	for (unsigned i = 0; i < DEEP; i++) {
		n = q7_prof_child(p, n, "f");
		p->v[n].self = 1;
	}
}

/* Every attribute value and text of an SVG, as expat reads them. */
struct xml {
	struct q7_strbuf text;
};

static void XMLCALL on_start(void *u, const XML_Char *el, const XML_Char **attr)
{
	struct xml *x = u;
	(void)el;
	for (size_t i = 0; attr[i]; i += 2) {
		q7_sb_add(&x->text, attr[i + 1]);
		q7_sb_addc(&x->text, '\n');
	}
}

static void XMLCALL on_text(void *u, const XML_Char *s, int len)
{
	struct xml *x = u;
	q7_sb_addn(&x->text, s, (size_t)len);
}

/* The SVG parsed: well-formed, or the test fails with expat's reason. */
static char *parse_svg(const char *svg)
{
	struct xml x = {{0}};
	XML_Parser xp = XML_ParserCreate("UTF-8");
	XML_SetUserData(xp, &x);
	XML_SetStartElementHandler(xp, on_start);
	XML_SetCharacterDataHandler(xp, on_text);
	enum XML_Status st = XML_Parse(xp, svg, (int)strlen(svg), 1);
	ck_assert_msg(st == XML_STATUS_OK, "not well-formed XML: %s at line %lu",
	              XML_ErrorString(XML_GetErrorCode(xp)),
	              (unsigned long)XML_GetCurrentLineNumber(xp));
	XML_ParserFree(xp);
	return q7_sb_take(&x.text);
}

START_TEST(a_deep_stack_draws)
{
	struct q7_prof p;
	deep_profile(&p);
	char *svg = q7_flamegraph_svg(&p, "deep");
	ck_assert_ptr_nonnull(strstr(svg, "data-name=\"core0\""));
	ck_assert_ptr_nonnull(strstr(svg, "data-total=\"100000\""));
	free(svg);
	q7_prof_free(&p);
}
END_TEST

START_TEST(a_deep_stack_folds_with_its_roots)
{
	struct q7_prof p;
	deep_profile(&p);
	char *text = q7_prof_folded(&p);
	/* 510 lines up to Q7_PROF_FRAMES frames, then one cut line for the
	 * rest (all alike), each with its roots. */
	size_t lines = 0, frames_max = 0;
	unsigned long long sum = 0;
	for (char *l = text, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = 0;
		ck_assert_msg(strncmp(l, "core0;op;f", 10) == 0, "line %zu lost its roots", lines + 1);
		size_t frames = 1;
		for (char *c = l; *c; c++)
			frames += *c == ';';
		frames_max = frames > frames_max ? frames : frames_max;
		sum += strtoull(strrchr(l, ' ') + 1, NULL, 10);
		lines++;
	}
	ck_assert_uint_eq(sum, DEEP);
	ck_assert_uint_eq(frames_max, Q7_PROF_FRAMES);
	ck_assert_uint_eq(lines, Q7_PROF_FRAMES - 2 + 1);
	free(text);
	q7_prof_free(&p);
}
END_TEST

/* The data-kind of the first frame named name in svg ("" if none). */
static const char *kind_of(const char *svg, const char *name, char *buf, size_t size)
{
	char *key = q7_xasprintf("data-name=\"%s\" data-count=", name);
	const char *at = strstr(svg, key), *k = at ? strstr(at, "data-kind=\"") : NULL;
	free(key);
	buf[0] = 0;
	if (k) {
		k += strlen("data-kind=\"");
		snprintf(buf, size, "%.*s", (int)strcspn(k, "\""), k);
	}
	return buf;
}

/* A frame is drawn as what it is: the soft-float routines' own helpers
 * (sf_*, and what they call) as soft-float whether the kernel or the
 * runtime called the routine (sf_mul32x32 under __muldi3 was runtime). */
/* A two-way recursion depth levels deep under node: each call of a or
 * b one instruction. */
static void two_way(struct q7_prof *p, unsigned node, unsigned depth, const char *a,
                    const char *b)
{
	p->v[node].self++;
	if (!depth)
		return;
	two_way(p, q7_prof_child(p, node, a), depth - 1, a, b);
	two_way(p, q7_prof_child(p, node, b), depth - 1, a, b);
}

/* The counts of folded text's lines, summed; *over: a line starts so. */
static uint64_t folded_sum(const char *text, const char *start, bool *over)
{
	uint64_t sum = 0;
	*over = false;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		const char *sp = nl;
		while (sp > l && sp[-1] != ' ')
			sp--;
		sum += strtoull(sp, NULL, 10);
		*over |= strncmp(l, start, strlen(start)) == 0;
		l = nl + 1;
	}
	return sum;
}

START_TEST(a_two_way_recursion_stays_bounded)
{
	/* 20 deep: two million stacks, 373 MB of folded text before */
	struct q7_prof p;
	q7_prof_init(&p);
	two_way(&p, q7_prof_child(&p, Q7_PROF_ROOT, "core0"), 20, "f", "g");
	ck_assert_uint_le(p.n, Q7_PROF_NODES + 1);
	char *text = q7_prof_folded(&p);
	bool over;
	ck_assert_uint_le(strlen(text), 16u << 20);
	ck_assert_uint_eq(folded_sum(text, Q7_PROF_OVER " ", &over), (2u << 20) - 1 + 0u);
	ck_assert(over);
	free(text);
	q7_prof_free(&p);
	/* Long names, 14 deep: 32,767 stacks, but lines of kilobytes */
	char a[301], b[301];
	memset(a, 'a', 300);
	memset(b, 'b', 300);
	a[300] = b[300] = 0;
	q7_prof_init(&p);
	two_way(&p, q7_prof_child(&p, Q7_PROF_ROOT, "core0"), 14, a, b);
	text = q7_prof_folded(&p);
	ck_assert_uint_le(strlen(text), Q7_PROF_FOLDED_MAX + 100);
	ck_assert_uint_eq(folded_sum(text, Q7_PROF_CUT " ", &over), (1u << 15) - 1);
	ck_assert(over);
	free(text);
	q7_prof_free(&p);
}
END_TEST

START_TEST(frames_coloured_by_their_own_class)
{
	struct q7_prof p;
	q7_prof_init(&p);
	unsigned core = q7_prof_child(&p, Q7_PROF_ROOT, "core0");
	unsigned entry = q7_prof_child(&p, core, "q7_entry");
	unsigned wrap = q7_prof_child(&p, entry, "op_wrapper");
	unsigned op = q7_prof_child(&p, wrap, "op");
	unsigned mul = q7_prof_child(&p, q7_prof_child(&p, entry, "q7rt_setup"), "__muldi3");
	p.v[q7_prof_child(&p, mul, "sf_mul32x32")].self = 50;
	p.v[q7_prof_child(&p, q7_prof_child(&p, op, "__divdi3"), "abs64")].self = 50;
	p.v[q7_prof_child(&p, op, "helper")].self = 50;
	char *svg = q7_flamegraph_svg(&p, "kinds");
	char k[32];
	ck_assert_str_eq(kind_of(svg, "sf_mul32x32", k, sizeof k), "soft-float");
	ck_assert_str_eq(kind_of(svg, "abs64", k, sizeof k), "soft-float");
	ck_assert_str_eq(kind_of(svg, "__muldi3", k, sizeof k), "soft-float");
	ck_assert_str_eq(kind_of(svg, "q7rt_setup", k, sizeof k), "runtime");
	ck_assert_str_eq(kind_of(svg, "helper", k, sizeof k), "kernel");
	ck_assert_str_eq(kind_of(svg, "op", k, sizeof k), "kernel");
	free(svg);
	q7_prof_free(&p);
}
END_TEST

/* The device view: a helper entered N times is a frame of N instructions
 * named after its operation, what ran under it is dropped (a helper's own
 * helpers too), two helpers of one operation (__lesf2, __gtsf2) are one
 * frame, a 64-bit divide (no unit) stays as counted (its 32-bit divides
 * one instruction each), and the rest keeps its instructions. */
START_TEST(device_view_counts_a_helper_call_as_one_instruction)
{
	struct q7_prof p, d;
	q7_prof_init(&p);
	q7_prof_init(&d);
	unsigned core = q7_prof_child(&p, Q7_PROF_ROOT, "core0");
	unsigned op = q7_prof_child(&p, core, "op");
	p.v[op].self = 100;
	p.v[op].calls = 1;
	unsigned mul = q7_prof_child(&p, op, "__mulsf3");
	p.v[mul].self = 87 * 5;
	p.v[mul].calls = 5;
	p.v[q7_prof_child(&p, mul, "sf_round")].self = 40;
	unsigned le = q7_prof_child(&p, op, "__lesf2"), gt = q7_prof_child(&p, op, "__gtsf2");
	p.v[le].self = 30;
	p.v[le].calls = 2;
	p.v[gt].self = 45;
	p.v[gt].calls = 3;
	unsigned div = q7_prof_child(&p, op, "__divdi3");
	p.v[div].self = 1000;
	p.v[div].calls = 1;
	unsigned udiv = q7_prof_child(&p, div, "__udivsi3"); /* one instruction, inside */
	p.v[udiv].self = 7;
	p.v[udiv].calls = 1;
	ck_assert_uint_eq(q7_prof_sum(&p), 100 + 435 + 40 + 75 + 1007);
	q7_prof_device_view(&p, &d);
	ck_assert_uint_eq(q7_prof_sum(&d), 100 + 5 + 5 + 1000 + 1);
	char *f = q7_prof_folded(&d);
	ck_assert_str_eq(f, "core0;op 100\n"
	                    "core0;op;__divdi3 1000\n"
	                    "core0;op;__divdi3;u32 div 1\n"
	                    "core0;op;f32 cmp 5\n"
	                    "core0;op;f32 mul 5\n");
	free(f);
	ck_assert_ptr_eq(q7_devop_find("sf_round"), NULL);
	ck_assert_str_eq(q7_devop_find("__divsi3")->frame, "i32 div");
	ck_assert(q7_devop_is_frame("f32 mul") && !q7_devop_is_frame("__mulsf3"));
	enum q7_prof_view v;
	ck_assert_int_eq(q7_prof_view_parse("raw", &v), 0);
	ck_assert_int_eq(v, Q7_PROF_VIEW_RAW);
	ck_assert_int_eq(q7_prof_view_parse("cycles", &v), -1);
	q7_prof_free(&p);
	q7_prof_free(&d);
}
END_TEST

static const char *const hostile[] = {
	"esc\x1b[2Jx", "bel\a", "new\nline 99", "semi;colon", "c1\xc2\x85", "bad\xff\xfe",
	"sur\xed\xa0\x80", "nonchar\xef\xbf\xbe", "<script>alert(1)</script>", "a\"b'c&d]]>",
};

START_TEST(hostile_names_stay_names)
{
	struct q7_prof p;
	q7_prof_init(&p);
	unsigned core = q7_prof_child(&p, Q7_PROF_ROOT, "core0");
	size_t n = sizeof hostile / sizeof *hostile;
	for (size_t i = 0; i < n; i++)
		p.v[q7_prof_child(&p, core, hostile[i])].self = 10;
	char *text = q7_prof_folded(&p);
	/* One line a name, two frames each, every count 10. */
	size_t lines = 0;
	for (char *l = text, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		*nl = 0;
		ck_assert_msg(strncmp(l, "core0;", 6) == 0 && !strchr(l + 6, ';'), "%s", l);
		ck_assert_str_eq(strrchr(l, ' '), " 10");
		for (const unsigned char *c = (const unsigned char *)l; *c; c++)
			ck_assert_msg(*c >= 0x20 && *c != 0x7f, "a control byte in %s", l);
		lines++;
	}
	ck_assert_uint_eq(lines, n);
	free(text);
	char *svg = q7_flamegraph_svg(&p, "t\x01itle");
	char *seen = parse_svg(svg);
	ck_assert_ptr_nonnull(strstr(seen, "esc\\x1b[2Jx"));
	ck_assert_ptr_nonnull(strstr(seen, "<script>alert(1)</script>"));
	ck_assert_ptr_nonnull(strstr(seen, "a\"b'c&d]]>"));
	ck_assert_ptr_nonnull(strstr(seen, "bad\\xff\\xfe"));
	ck_assert_ptr_nonnull(strstr(seen, "sur\\xed\\xa0\\x80"));
	free(seen);
	free(svg);
	q7_prof_free(&p);
}
END_TEST

START_TEST(hostile_section_names_stay_names)
{
	struct q7_map_section sec[sizeof hostile / sizeof *hostile];
	size_t n = sizeof hostile / sizeof *hostile;
	for (size_t i = 0; i < n; i++)
		sec[i] = (struct q7_map_section){(char *)hostile[i], 0x84000000u + 64 * (uint32_t)i, 64};
	struct q7_core_map m = {.image = (char *)"img\x1b]0;x\a.so", .core = -1, .base = 0x84000000u,
	                        .size = 32u << 20, .sec = sec, .nsec = n,
	                        .image_end = 0x84000000u + 64 * n, .stack = 4196,
	                        .stack_op = (char *)"op\x1b[1m"};
	char *svg = q7_memory_map_svg(&m, 1, "map of img\x1b.so");
	char *seen = parse_svg(svg);
	ck_assert_ptr_nonnull(strstr(seen, "<script>alert(1)</script>"));
	free(seen);
	free(svg);
	char *text = q7_memory_map_text(&m, 1);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		ck_assert_msg(*c >= 0x20 || *c == '\n', "a control byte in the map: %s", text);
	ck_assert_ptr_nonnull(strstr(text, "img\\x1b]0;x\\x07.so"));
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("writers");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_deep_stack_draws);
	tcase_add_test(tc, a_deep_stack_folds_with_its_roots);
	tcase_add_test(tc, hostile_names_stay_names);
	tcase_add_test(tc, a_two_way_recursion_stays_bounded);
	tcase_add_test(tc, frames_coloured_by_their_own_class);
	tcase_add_test(tc, device_view_counts_a_helper_call_as_one_instruction);
	tcase_add_test(tc, hostile_section_names_stay_names);
	suite_add_tcase(s, tc);
	return run_suite(s, true); /* forked: a crash is a failure, not the end */
}
