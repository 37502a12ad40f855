/* flamegraph.h: the layout is computed here (boxes at fixed positions);
 * the script only hovers, searches and reports. */
#include "flamegraph.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_view.h"
#include "support.h"

#define WIDTH 1200.0
#define PAD 10.0
#define ROW 17.0   /* at least; up to ROW_MAX in a shallow graph */
#define ROW_MAX 24.0
#define ASPECT (900.0 / 1400.0) /* a laptop's window, which the picture fills */
#define FONT 12.0  /* a frame's name, down to FONT_MIN where it is short of room */
#define FONT_MIN 10.0
#define EM 0.61    /* a character's advance in ems (DejaVu Sans Mono: 0.602) */
#define TOP 60.0   /* title, legend and search above the graph */
#define BOTTOM 30.0 /* the details line */
#define MIN_WIDTH 0.1

/* Inside the kernel (below the frame the op's wrapper calls), names of
 * the runtime's and the C library's functions: what a kernel calls that
 * is not its own code. */
static const char *const runtime_prefixes[] = {
	"q7rt_", "customop_", "get_dst_tensor", "get_cpu_", "q7_", "at::", "torch::", "c10::",
	"operator new", "operator delete", "malloc", "free", "calloc", "realloc", "memcpy",
	"memset", "memmove", "memchr", "memcmp", "str", "abort", "printf", "snprintf", "vsnprintf",
};

/* What a frame is: "kernel" (the kernel's own code: inside the frame its
 * wrapper calls, and not a runtime or C library function), "runtime",
 * "soft-float" (libgcc's helpers, __*, and the runtime's sf_*), "unit" (a
 * device view's operation, "f32 mul": device_view.h), "boot" or
 * "root" (a core or an op; depth counts from 1 at the root). */
static const char *frame_kind(const char *name, unsigned depth, bool in_kernel)
{
	if (depth == 1 || (depth == 2 && strncmp(name, "core", 4) == 0 && isdigit((unsigned char)name[4])))
		return "root";
	if (strncmp(name, "q7boot", 6) == 0 || strncmp(name, "boot_", 5) == 0)
		return "boot";
	if (strncmp(name, "__", 2) == 0 || strncmp(name, "sf_", 3) == 0)
		return "soft-float";
	if (q7_devop_is_frame(name))
		return "unit";
	if (!in_kernel)
		return "runtime";
	for (size_t i = 0; i < sizeof runtime_prefixes / sizeof *runtime_prefixes; i++)
		if (strncmp(name, runtime_prefixes[i], strlen(runtime_prefixes[i])) == 0)
			return "runtime";
	return "kernel";
}

/* The kernel's own frame: the one its wrapper ("<name>_wrapper") calls. */
static bool is_kernel_frame(const struct q7_prof *p, unsigned n)
{
	const char *name = p->v[n].name, *parent = p->v[p->v[n].parent].name;
	size_t k = strlen(name);
	return strncmp(parent, name, k) == 0 && strcmp(parent + k, "_wrapper") == 0;
}

static const char *kind_colour(const char *kind, const char *name)
{
	/* A hue per kind, the shade by the name so neighbours differ. */
	unsigned h = 0;
	for (const char *c = name; *c; c++)
		h = h * 31 + (unsigned char)*c;
	static char buf[32];
	int v = (int)(h % 40);
	if (strcmp(kind, "kernel") == 0)
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 215 + v / 2, 90 + v * 2, 40 + v / 2);
	else if (strcmp(kind, "runtime") == 0)
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 90 + v, 140 + v, 215);
	else if (strcmp(kind, "soft-float") == 0)
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 80 + v, 185 + v / 2, 90 + v);
	else if (strcmp(kind, "boot") == 0)
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 170 + v, 140 + v, 200 + v / 2);
	else if (strcmp(kind, "unit") == 0)
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 40 + v, 170 + v, 190 + v / 2);
	else
		snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", 190 + v, 190 + v, 190 + v);
	return buf;
}

struct layout {
	struct q7_prof *p;
	struct q7_strbuf *b;
	double scale; /* pixels per instruction */
	double row;   /* a frame's height */
	uint64_t total;
	unsigned max_depth;
	double height;
	struct below *below; /* per depth, of the frame drawn last there */
	size_t below_cap;
};

/* Characters of s's first len bytes as shown (its escapes included). */
static size_t shown_chars(const char *s, size_t len)
{
	struct q7_strbuf b = {0};
	char *t = q7_xstrndup(s, len);
	q7_sb_add_shown(&b, t, false);
	free(t);
	size_t n = 0;
	for (size_t i = 0; i < b.len; i++)
		n += ((unsigned char)b.s[i] & 0xc0) != 0x80;
	q7_sb_free(&b);
	return n;
}

/* name without its qualifiers: what follows the last "::" outside
 * brackets ("(anonymous namespace)::run_guarded": "run_guarded"). */
static const char *unqualified(const char *name)
{
	const char *last = name;
	int depth = 0;
	for (const char *c = name; *c; c++) {
		depth += (*c == '(' || *c == '<') - (*c == ')' || *c == '>');
		if (depth == 0 && c[0] == ':' && c[1] == ':')
			last = c + 2;
	}
	return *last ? last : name;
}

/* The text of a frame's name in room px, and its *font: the whole name
 * at the largest size that holds it, else the unqualified one, else the
 * name cut with "..". NULL: no room for three characters. Raw bytes: the
 * caller escapes them; a cut never splits a character. */
static char *fitted_name(const char *name, double room, double *font)
{
	const char *forms[] = {name, unqualified(name)};
	for (size_t f = 0; f < 2; f++) {
		size_t n = shown_chars(forms[f], strlen(forms[f]));
		for (double px = FONT; px >= FONT_MIN; px -= 1)
			if ((double)n * px * EM <= room) {
				*font = px;
				return q7_xstrdup(forms[f]);
			}
	}
	*font = FONT_MIN;
	size_t fit = (size_t)(room / (FONT_MIN * EM));
	if (fit < 3)
		return NULL;
	/* The longest start of the unqualified name whose shown form leaves
	 * room for "..". */
	const char *u = forms[1];
	size_t len = strlen(u), cut = 0;
	for (size_t i = 1; i <= len; i++) {
		if (i < len && ((unsigned char)u[i] & 0xc0) == 0x80)
			continue;
		if (shown_chars(u, i) + 2 > fit)
			break;
		cut = i;
	}
	return q7_xasprintf("%.*s..", (int)cut, u);
}

/* One frame's box and name. */
static void draw_box(struct layout *L, unsigned n, unsigned depth, double x, double w,
                     const char *kind)
{
	const struct q7_prof_node *nd = &L->p->v[n];
	double y = L->height - BOTTOM - depth * L->row;
	double font = FONT;
	double share = 100.0 * (double)nd->total / (double)(L->total ? L->total : 1);
	struct q7_strbuf *b = L->b;
	q7_sb_add(b, "<g class=\"f\" data-name=\"");
	q7_sb_add_xml(b, nd->name);
	q7_sb_addf(b, "\" data-count=\"%" PRIu64 "\" data-kind=\"%s\"><title>", nd->total, kind);
	q7_sb_add_xml(b, nd->name);
	q7_sb_addf(b, " (%" PRIu64 " instructions, %.2f%%; %s)</title>", nd->total, share, kind);
	q7_sb_addf(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
	           "rx=\"2\"/>", x, y, w, L->row - 1, kind_colour(kind, nd->name));
	/* The name as it fits: whole at 12 px, or smaller down to 10 px, or
	 * without its qualifiers (a::b::name), or cut with "..". */
	char *label = fitted_name(nd->name, w - 6, &font);
	if (label) {
		q7_sb_addf(b, "<text x=\"%.2f\" y=\"%.1f\"", x + 3, y + L->row / 2 + font * 0.36);
		if (font != FONT)
			q7_sb_addf(b, " style=\"font-size:%.0fpx\"", font);
		q7_sb_add(b, ">");
		q7_sb_add_xml(b, label);
		q7_sb_add(b, "</text>");
		free(label);
	}
	q7_sb_add(b, "</g>\n");
}

/* What a frame hands its callees: where the next one's box starts, and
 * whether they are inside a kernel or a soft-float routine. */
struct below {
	double x;
	bool in_kernel, in_soft_float;
};

/* One frame (q7_prof_walk's visit), callers before callees and siblings
 * by name: its box, then what its callees inherit, at depth in L->below. */
static bool draw_frame(void *ctx, const unsigned *path, size_t depth)
{
	struct layout *L = ctx;
	unsigned n = path[depth];
	const struct q7_prof_node *nd = &L->p->v[n];
	double w = (double)nd->total * L->scale;
	struct below up = {PAD, false, false};
	if (depth) { /* the next box of its caller's callees */
		up = L->below[depth - 1];
		L->below[depth - 1].x += w;
	}
	if (w < MIN_WIDTH)
		return false;
	Q7_GROW(L->below, L->below_cap, depth + 1);
	bool in_kernel = up.in_kernel || (n && is_kernel_frame(L->p, n));
	bool in_soft_float = up.in_soft_float;
	if (n) {
		const char *kind = frame_kind(nd->name, (unsigned)depth, in_kernel);
		/* A soft-float routine's helpers (sf_*, and the rest under
		 * it) are soft-float's, whatever called the routine. */
		if (in_soft_float && strcmp(kind, "boot") != 0)
			kind = "soft-float";
		in_soft_float = strcmp(kind, "soft-float") == 0;
		draw_box(L, n, (unsigned)depth, up.x, w, kind);
		/* What the runtime calls is the runtime's. */
		if (strcmp(kind, "runtime") == 0)
			in_kernel = false;
	}
	/* A node's own instructions take the left part of its box. */
	double self = n ? (double)nd->self * L->scale : 0;
	L->below[depth] = (struct below){up.x + self, in_kernel, in_soft_float};
	return true;
}

static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var details, matched, total;\n"
	"function init() {\n"
	"  details = document.getElementById('details');\n"
	"  matched = document.getElementById('matched');\n"
	"  total = parseInt(document.documentElement.getAttribute('data-total'));\n"
	"  var fs = document.getElementsByClassName('f');\n"
	"  for (var i = 0; i < fs.length; i++) {\n"
	"    fs[i].addEventListener('mouseover', function () { show(this); });\n"
	"    fs[i].addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"  }\n"
	"  document.getElementById('search').addEventListener('click', function () {\n"
	"    var t = prompt('Frames whose name holds:', ''); if (t !== null) search(t); });\n"
	"  document.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault();\n"
	"      var t = prompt('Frames whose name holds:', ''); if (t !== null) search(t); } });\n"
	"  var q = new URLSearchParams(window.location.search);\n"
	"  if (q.get('s')) search(q.get('s'));\n"
	"  if (q.get('hover')) {\n"
	"    for (var i = 0; i < fs.length; i++)\n"
	"      if (fs[i].getAttribute('data-name') === q.get('hover')) {\n"
	"        fs[i].dispatchEvent(new MouseEvent('mouseover')); break; }\n"
	"  }\n"
	"}\n"
	"function share(n) { return (100 * n / (total || 1)).toFixed(2) + '%'; }\n"
	"function show(g) {\n"
	"  var n = parseInt(g.getAttribute('data-count'));\n"
	"  details.textContent = g.getAttribute('data-name') + ': ' + n.toLocaleString('en') +\n"
	"    ' instructions, ' + share(n) + ' (' + g.getAttribute('data-kind') + ')';\n"
	"}\n"
	"function search(text) {\n"
	"  var fs = document.getElementsByClassName('f'), hit = [];\n"
	"  for (var i = 0; i < fs.length; i++) {\n"
	"    var r = fs[i].getElementsByTagName('rect')[0];\n"
	"    if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));\n"
	"    var on = text !== '' && fs[i].getAttribute('data-name').indexOf(text) >= 0;\n"
	"    r.setAttribute('fill', on ? 'rgb(230,0,230)' : r.getAttribute('data-fill'));\n"
	"    fs[i].setAttribute('data-match', on ? '1' : '0');\n"
	"    if (on) hit.push(fs[i]);\n"
	"  }\n"
	"  /* A frame inside a matched one is not counted twice: the boxes'\n"
	"     spans on the x axis are merged. */\n"
	"  var spans = hit.map(function (g) { var r = g.getElementsByTagName('rect')[0];\n"
	"    var x = parseFloat(r.getAttribute('x'));\n"
	"    return [x, x + parseFloat(r.getAttribute('width')), parseInt(g.getAttribute('data-count'))]; });\n"
	"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"  var n = 0, end = -1;\n"
	"  for (var i = 0; i < spans.length; i++)\n"
	"    if (spans[i][0] >= end - 1e-6) { n += spans[i][2]; end = spans[i][1]; }\n"
	"  matched.textContent = text === '' ? ' ' : 'Matched \"' + text + '\": ' +\n"
	"    n.toLocaleString('en') + ' instructions, ' + share(n);\n"
	"  matched.setAttribute('data-count', n);\n"
	"}\n"
	"]]></script>\n";

char *q7_flamegraph_svg(struct q7_prof *p, const char *title)
{
	struct q7_strbuf b = {0};
	struct layout L = {.p = p, .b = &b, .total = q7_prof_sum(p)};
	/* Depths in one pass: a node is made after its parent. */
	unsigned *depth = q7_xcalloc(p->n, sizeof *depth);
	for (size_t i = 1; i < p->n; i++) {
		depth[i] = depth[p->v[i].parent] + 1;
		if (p->v[i].total && depth[i] > L.max_depth)
			L.max_depth = depth[i];
	}
	free(depth);
	L.scale = L.total ? (WIDTH - 2 * PAD) / (double)L.total : 0;
	/* Rows as tall as fill a laptop's window, within ROW..ROW_MAX. */
	L.row = L.max_depth ? (WIDTH * ASPECT - TOP - BOTTOM) / L.max_depth : ROW;
	L.row = L.row < ROW ? ROW : L.row > ROW_MAX ? ROW_MAX : L.row;
	L.height = TOP + L.max_depth * L.row + BOTTOM;
	q7_sb_addf(&b, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	           "<svg version=\"1.1\" width=\"100%%\" viewBox=\"0 0 %.0f %.0f\" "
	           "preserveAspectRatio=\"xMidYMin meet\" xmlns=\"http://www.w3.org/2000/svg\" "
	           "data-total=\"%" PRIu64 "\" onload=\"init()\">\n", WIDTH, L.height, L.total);
	q7_sb_add(&b, "<style>text { font-family: 'DejaVu Sans Mono', monospace; font-size: 12px; fill: #000; }\n"
	          ".f:hover rect { stroke: #000; stroke-width: 0.5; } .f text { pointer-events: none; }\n"
	          "#search { cursor: pointer; }</style>\n");
	q7_sb_add(&b, script);
	q7_sb_addf(&b, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n",
	           WIDTH, L.height);
	q7_sb_addf(&b, "<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" style=\"font-size:15px\">",
	           WIDTH / 2);
	q7_sb_add_xml(&b, title ? title : "instructions on the emulated core");
	q7_sb_addf(&b, " (%" PRIu64 " instructions)</text>\n", L.total);
	/* The legend: what the colours say. */
	static const char *const kinds[] = {"kernel", "runtime", "soft-float", "unit", "boot",
	                                    "root"};
	static const char *const words[] = {"the kernel's code", ("q7 runtime (setup, arguments, "
	                                    "stack switch)"), "soft-float / libgcc helpers",
	                                    "a unit's instruction", "boot program", "core / op"};
	double lx = PAD;
	for (size_t i = 0; i < 6; i++) {
		q7_sb_addf(&b, "<rect x=\"%.0f\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		           "<text x=\"%.0f\" y=\"42\">%s</text>\n", lx, kind_colour(kinds[i], ""),
		           lx + 16, words[i]);
		lx += 16 + 7.2 * (double)strlen(words[i]) + 18;
	}
	q7_sb_addf(&b, "<text id=\"search\" x=\"%.0f\" y=\"20\" text-anchor=\"end\">Search</text>\n",
	           WIDTH - PAD);
	q7_sb_addf(&b, "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
	           WIDTH - PAD, L.height - 10);
	q7_sb_addf(&b, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", PAD, L.height - 10);
	/* Frames drawn with a stack of their own (q7_prof_walk): a kernel
	 * 100,000 calls deep is as deep a profile, and a recursion per frame
	 * overflowed the C stack (SIGSEGV in q7-run, and in Python at the end
	 * of q7cc.torch.profile()). */
	q7_prof_walk(p, strcmp, draw_frame, &L);
	free(L.below);
	q7_sb_add(&b, "</svg>\n");
	return q7_sb_take(&b);
}
