/* memory_map.h: the layout, read from the linked images' section headers
 * (what readelf -S shows) and their ops' launchers. */
#include "bytes.h"
#include "memory_map.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_syms.h"
#include "lsp.h"
#include "support.h"

#define LAUNCHER_SUFFIX "_stack_switch"
/* A launcher sets a3 within its first instructions (GCC's are under 40
 * bytes); decoding no further bounds the time a file of 200,000 such
 * symbols, each the size of .text, takes (it ran for minutes). */
#define LAUNCHER_MAX 256u

/* The bytes at addr in the file's allocated sections, or NULL. */
static const unsigned char *bytes_at(Elf *elf, uint32_t addr, uint32_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS)
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr + (uint64_t)len > sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + (uint64_t)len > d->d_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (addr - sh.sh_addr);
	}
	return NULL;
}

/* The stack a launcher asks for: the second argument (a3) of its call of
 * switch_stack_or_call_wrapper, as GCC sets it: an L32R from the literal
 * pool (op0 1), a MOVI (op0 2, r 0xA), or a MOVI.N (narrow op0 0xC) and
 * an SLLI (op0 0, op1 1) for a power of two. A small evaluator of those
 * four over the launcher's code; 0 when a3 is not known. */
static uint32_t launcher_stack(Elf *elf, uint32_t addr, uint32_t size)
{
	const unsigned char *p = bytes_at(elf, addr, size);
	uint32_t reg[16] = {0};
	bool known[16] = {false};
	for (uint32_t off = 0; p && off + 2 <= size;) {
		unsigned op0 = p[off] & 0xf, t = p[off] >> 4;
		if (op0 >= 8) { /* a narrow (density) instruction: 2 bytes */
			unsigned s = p[off + 1] & 0xf, r = p[off + 1] >> 4;
			if (op0 == 0xc && !(t & 8)) { /* MOVI.N as, imm7 (-32..95) */
				uint32_t imm = (uint32_t)(t & 7) << 4 | r;
				reg[s] = imm >= 96 ? imm - 128 : imm;
				known[s] = true;
			}
			off += 2;
			continue;
		}
		if (off + 3 > size)
			break;
		unsigned s = p[off + 1] & 0xf, r = p[off + 1] >> 4;
		unsigned op1 = p[off + 2] & 0xf, op2 = p[off + 2] >> 4;
		if (op0 == 1) { /* L32R at, label */
			uint32_t imm = p[off + 1] | (uint32_t)p[off + 2] << 8;
			uint32_t lit = ((addr + off + 3) & ~3u) + ((0xffff0000u | imm) << 2);
			const unsigned char *w = bytes_at(elf, lit, 4);
			known[t] = w != NULL;
			if (w)
				reg[t] = q7_le32(w);
		} else if (op0 == 2 && r == 0xa) { /* MOVI at, imm12 */
			uint32_t imm = (uint32_t)s << 8 | p[off + 2];
			reg[t] = imm & 0x800 ? imm | 0xfffff000u : imm;
			known[t] = true;
		} else if (op0 == 0 && op1 == 1 && op2 <= 1) { /* SLLI ar, as, 32 - {op2, t} */
			unsigned sa = 32 - ((op2 & 1) << 4 | t);
			known[r] = known[s] && sa < 32;
			reg[r] = known[r] ? reg[s] << sa : 0;
		}
		off += 3;
	}
	return known[3] ? reg[3] : 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct q7_map_section *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* core from "..._cpuN.so", else from the lowest address; -1: single. */
static int infer_core(const char *image, uint32_t lowest)
{
	const char *b = q7_path_basename(image);
	const char *c = strstr(b, "_cpu");
	if (c && c[4] >= '0' && c[4] <= '7' && (c[5] == '.' || c[5] == 0))
		return c[4] - '0';
	const struct q7_lsp *c0 = q7_lsp_get(0);
	if (lowest >= c0->sram_org + c0->sram_len) {
		uint32_t k = (lowest - c0->sram_org) / c0->sram_len;
		if (k < Q7_NUM_CORES)
			return (int)k;
	}
	return Q7_LSP_SINGLE;
}

/* The image's allocated sections, by address, into m->sec; returns the
 * lowest address (UINT32_MAX: none). */
static uint32_t read_sections(Elf *elf, struct q7_core_map *m)
{
	size_t shstrndx = 0, shnum = 0;
	elf_getshdrstrndx(elf, &shstrndx);
	elf_getshdrnum(elf, &shnum);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	m->sec = q7_xcalloc(shnum ? shnum : 1, sizeof *m->sec);
	uint32_t lowest = UINT32_MAX;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		m->sec[m->nsec++] = (struct q7_map_section){q7_xstrdup(name ? name : "?"),
		                                            (uint32_t)sh.sh_addr, (uint32_t)sh.sh_size};
		if (sh.sh_addr < lowest)
			lowest = (uint32_t)sh.sh_addr;
	}
	qsort(m->sec, m->nsec, sizeof *m->sec, by_addr);
	return lowest;
}

/* The op whose launcher (a symbol ending in LAUNCHER_SUFFIX) asks for the
 * largest stack, and that stack, into m->stack_op and m->stack. */
static void find_largest_stack(Elf *elf, const struct q7_syms *syms, struct q7_core_map *m)
{
	for (size_t i = 0; i < syms->n; i++) {
		const char *n = syms->v[i].name;
		size_t k = strlen(n), ks = strlen(LAUNCHER_SUFFIX);
		if (k <= ks || strcmp(n + k - ks, LAUNCHER_SUFFIX) != 0)
			continue;
		uint32_t st = launcher_stack(elf, syms->v[i].addr,
		                             syms->v[i].size < LAUNCHER_MAX ? syms->v[i].size
		                                                            : LAUNCHER_MAX);
		if (!m->stack_op || st > m->stack) {
			m->stack = st;
			free(m->stack_op);
			m->stack_op = q7_xstrndup(n, k - ks);
		}
	}
}

/* The loadable segments, by the check q7-pkg-loadlib and q7-prelink make
 * (lsp.h): 0, or -1 with err set. */
static int check_segments(Elf *elf, const char *image, struct q7_err *err)
{
	size_t n = 0;
	if (elf_getphdrnum(elf, &n) != 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr p;
		char why[160];
		if (!gelf_getphdr(elf, (int)i, &p) || p.p_type != PT_LOAD)
			continue;
		if (q7_lsp_segment_check((unsigned)i, p.p_vaddr, p.p_filesz, p.p_memsz, why,
		                         sizeof why) != 0) {
			q7_err_set(err, image, "%s: not an Xtensa image", why);
			return -1;
		}
	}
	return 0;
}

int q7_core_map_load(const char *image, int core, struct q7_core_map *m, struct q7_err *err)
{
	memset(m, 0, sizeof *m);
	elf_version(EV_CURRENT);
	const char *why = NULL;
	int fd = q7_open_regular(image, &why);
	if (fd < 0) {
		q7_err_set(err, image, "cannot read: %s", why);
		return -1;
	}
	int rc = -1;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_XTENSA) {
		q7_err_set(err, image, "not an Xtensa image (a gnu-profile link's output)");
		goto out;
	}
	if (check_segments(elf, image, err) != 0)
		goto out;
	uint32_t lowest = read_sections(elf, m);
	m->image = q7_xstrdup(image);
	m->core = core == -2 ? infer_core(image, lowest) : core;
	const struct q7_lsp *lsp = q7_lsp_get(m->core);
	m->base = lsp->sram_org;
	m->size = lsp->sram_len;
	m->image_end = m->base;
	for (size_t i = 0; i < m->nsec; i++) {
		const struct q7_map_section *s = &m->sec[i];
		/* Below the window, or past the 32-bit address space: not this
		 * core's image (past the window's end is an overflow, which
		 * the map shows). */
		if ((uint64_t)s->addr + s->size > UINT64_C(1) << 32) {
			q7_err_set(err, image, "section %s at 0x%08" PRIx32 " of %" PRIu32 " bytes "
			           "runs past the 32-bit address space: not an Xtensa image", s->name,
			           s->addr, s->size);
			goto out;
		}
		if (s->addr < m->base) {
			q7_err_set(err, image, "section %s at 0x%08" PRIx32 " is below %s's SRAM "
			           "window (0x%08" PRIx32 "..0x%08" PRIx32 "): not that core's image", s->name,
			           s->addr, lsp->name, m->base, m->base + m->size);
			goto out;
		}
		if ((uint64_t)s->addr + s->size > m->image_end)
			m->image_end = (uint64_t)s->addr + s->size;
	}
	struct q7_syms syms;
	int got = q7_syms_load(image, 0, &syms, err);
	if (got == -1) /* damaged (none: a stripped image, no ops) */
		goto out;
	if (got == 0) {
		find_largest_stack(elf, &syms, m);
		q7_syms_free(&syms);
	}
	q7_err_clear(err);
	rc = 0;
out:
	if (rc != 0)
		q7_core_map_free(m);
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

void q7_core_map_free(struct q7_core_map *m)
{
	for (size_t i = 0; i < m->nsec; i++)
		free(m->sec[i].name);
	free(m->sec);
	free(m->image);
	free(m->stack_op);
	memset(m, 0, sizeof *m);
}

int64_t q7_core_map_free_bytes(const struct q7_core_map *m)
{
	return (int64_t)m->base + m->size - m->stack - (int64_t)m->image_end;
}

/* "core 3" or "the single core". */
static const char *who_is(const struct q7_core_map *m, char *buf, size_t size)
{
	if (m->core < 0)
		snprintf(buf, size, "the single core");
	else
		snprintf(buf, size, "core %d", m->core);
	return buf;
}

static void human(struct q7_strbuf *b, uint64_t n)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		q7_sb_addf(b, "%" PRIu64 " MiB", n >> 20);
	else if (n >= (1u << 20))
		q7_sb_addf(b, "%.2f MiB", (double)n / (1u << 20));
	else if (n >= 10240)
		q7_sb_addf(b, "%.1f KiB", (double)n / 1024.0);
	else
		q7_sb_addf(b, "%" PRIu64 " B", n);
}

char *q7_memory_map_text(const struct q7_core_map *maps, size_t n)
{
	struct q7_strbuf b = {0};
	char who[32];
	for (size_t c = 0; c < n; c++) {
		const struct q7_core_map *m = &maps[c];
		q7_sb_addf(&b, "%s%s: ", c ? "\n" : "", who_is(m, who, sizeof who));
		q7_sb_add_shown(&b, m->image, false);
		q7_sb_addc(&b, '\n');
		q7_sb_addf(&b, "  %-22s 0x%08" PRIx32 "  %10" PRIu32 " bytes (", "SRAM window", m->base,
		           m->size);
		human(&b, m->size);
		q7_sb_add(&b, ")\n");
		for (size_t i = 0; i < m->nsec; i++) {
			struct q7_strbuf name = {0};
			q7_sb_add_shown(&name, m->sec[i].name, false);
			q7_sb_addf(&b, "  %-22s 0x%08" PRIx32 "  %10" PRIu32 " bytes\n", name.s ? name.s : "",
			           m->sec[i].addr, m->sec[i].size);
			q7_sb_free(&name);
		}
		q7_sb_addf(&b, "  %-22s 0x%08" PRIx32 "  %10" PRIu64 " bytes (the loaded sections, "
		           "from the window's base)\n", "image", m->base, m->image_end - m->base);
		int64_t fr = q7_core_map_free_bytes(m);
		q7_sb_addf(&b, "  %-22s 0x%08" PRIx32 "  %10" PRIu32 " bytes (", "stack",
		           m->base + m->size - m->stack, m->stack);
		if (m->stack_op) {
			q7_sb_add(&b, "STACK_SIZE of ");
			q7_sb_add_shown(&b, m->stack_op, false);
			q7_sb_add(&b, ", the largest; at the window's top)\n");
		}
		else
			q7_sb_add(&b, "no ops)\n");
		uint64_t past = m->image_end > (uint64_t)m->base + m->size
		                        ? m->image_end - m->base - m->size : 0;
		if (past) {
			q7_sb_addf(&b, "  %-22s %10s  %10" PRIu64 " bytes past the window's end: the image "
			           "does not fit the window\n", "free", "-", past);
		} else if (fr >= 0) {
			q7_sb_addf(&b, "  %-22s 0x%08" PRIx64 "  %10" PRId64 " bytes (", "free", m->image_end, fr);
			human(&b, (uint64_t)fr);
			q7_sb_addf(&b, ", %.1f%% of the window)\n", 100.0 * (double)fr / m->size);
		} else {
			q7_sb_addf(&b, "  %-22s %10s  %10" PRId64 " bytes short: the stack does not fit "
			           "beside the image, so the call switches to one from the heap arena\n",
			           "free", "-", -fr);
		}
		q7_sb_addf(&b, "  %-22s %10s  %10s (the call's, outside the window: the loader's; "
		           "q7-run --heap; by default what the call's tensors leave)\n", "heap arena", "-", "-");
		q7_sb_addf(&b, "  %-22s %10s  %10u bytes (tcm_malloc's pool, from the heap arena at "
		           "its first use)\n", "TCM", "-", Q7_MAP_TCM_BYTES);
	}
	return q7_sb_take(&b);
}


/* The picture: per core, its SRAM window to scale on the left and, on
 * the right, the image and the stack enlarged (one scale for both, the
 * free space between them cut out), each section and the stack named in
 * a column beside them, the names pushed apart so that none overlaps
 * another; whether it fits and what is free as the heading. The cores
 * wrap to rows that fit a 1400-pixel screen. Widths are counted in
 * characters of the 11 px monospace font (DejaVu Sans Mono: 6.62 px). */
#define CH 6.7          /* px a character at 11 px */
#define CH_HEAD 8.0     /* at 13 px */
#define LINE 14.0       /* a name's height in the column */
#define SCREEN 1400.0
#define NAME_MAX 30u    /* characters of a name; its tooltip has it all */
#define WIN_W 72.0      /* the window's bar ("0x84000000" under it) */
#define ZOOM_GAP 36.0
#define ZOOM_W 56.0
#define NAME_GAP 18.0
#define CUT_H 22.0      /* the free space cut out of the enlarged bar */
#define HEAD_H 64.0     /* the core's name, what is free and used, the top address */
#define FOOT_H 32.0     /* the base address, the scale */
#define BAR_H 256.0     /* at least */

/* s as shown (control bytes as \xNN), cut to NAME_MAX characters, with
 * " size" after it; chars: its characters. */
static char *name_text(const char *s, uint32_t size, size_t *chars)
{
	struct q7_strbuf b = {0};
	q7_sb_add_shown(&b, s, false);
	size_t n = 0, cut = b.len;
	for (size_t i = 0; i < b.len; i++)
		if (((unsigned char)b.s[i] & 0xc0) != 0x80 && ++n == NAME_MAX - 2)
			cut = i;
	if (n > NAME_MAX) {
		b.len = cut;
		b.s[cut] = 0;
		q7_sb_add(&b, "..");
		n = NAME_MAX;
	}
	q7_sb_addf(&b, " %" PRIu32, size);
	n += (size_t)snprintf(NULL, 0, " %" PRIu32, size);
	*chars = n;
	return q7_sb_take(&b);
}

/* A section or the stack: its box in the enlarged bar and its name. */
struct part {
	const char *name;
	uint32_t addr, size;
	const char *fill;
	double y0, h; /* the box */
	double want, y; /* the name's baseline: by its box, then pushed */
};

/* Names at their boxes' middles, then pushed apart (LINE between
 * baselines) and into [lo, hi], in order from the top. n * LINE fits. */
static void spread(struct part *v, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++) {
		double y = v[i].want < lo ? lo : v[i].want;
		v[i].y = i && y < v[i - 1].y + LINE ? v[i - 1].y + LINE : y;
	}
	for (size_t i = n; i-- > 0;) {
		double cap = i + 1 < n ? v[i + 1].y - LINE : hi;
		if (v[i].y > cap)
			v[i].y = cap;
	}
}

static void box_title(struct q7_strbuf *b, const char *cls, const char *name, uint32_t addr,
                      uint64_t size)
{
	q7_sb_addf(b, "<g class=\"%s\"><title>", cls);
	q7_sb_add_xml(b, name);
	q7_sb_addf(b, ": 0x%08" PRIx32 ", %" PRIu64 " bytes</title>", addr, size);
}

static void rect(struct q7_strbuf *b, double x, double y, double w, double h, const char *fill)
{
	q7_sb_addf(b, "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\" "
	           "stroke=\"#333\" stroke-width=\"0.5\"/>", x, y, w, h < 0.5 ? 0.5 : h, fill);
}

static void dashed(struct q7_strbuf *b, double x1, double y1, double x2, double y2)
{
	q7_sb_addf(b, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#999\" "
	           "stroke-width=\"0.7\" stroke-dasharray=\"3,3\"/>\n", x1, y1, x2, y2);
}

static const char *const fills[] = {"rgb(230,140,60)", "rgb(240,190,80)", "rgb(120,170,230)",
                                    "rgb(160,210,140)", "rgb(200,160,220)"};
#define STACK_FILL "rgb(240,120,120)"

/* The parts of m drawn enlarged, from the top: the stack, then the
 * sections from the highest. */
static struct part *parts_of(const struct q7_core_map *m, size_t *n)
{
	struct part *v = q7_xcalloc(m->nsec + 1, sizeof *v);
	size_t k = 0;
	if (m->stack)
		v[k++] = (struct part){.name = "stack", .addr = m->base + m->size - m->stack,
		                       .size = m->stack, .fill = STACK_FILL};
	for (size_t i = m->nsec; i-- > 0;)
		v[k++] = (struct part){.name = m->sec[i].name, .addr = m->sec[i].addr,
		                       .size = m->sec[i].size, .fill = fills[i % 5]};
	*n = k;
	return v;
}

/* The widest name of m, in characters. */
static size_t name_chars(const struct q7_core_map *m)
{
	size_t n, best = 0;
	struct part *v = parts_of(m, &n);
	for (size_t i = 0; i < n; i++) {
		size_t k;
		char *t = name_text(i == 0 && m->stack && m->stack_op ? m->stack_op : v[i].name,
		                    v[i].size, &k);
		free(t);
		k += i == 0 && m->stack ? strlen("stack ()") : 0;
		best = k > best ? k : best;
	}
	free(v);
	return best;
}

/* A core's heading at (x, y): who it is, its free bytes (fr; negative:
 * over by that much), its image's (used) and stack's bytes. */
static void core_heading(struct q7_strbuf *b, const struct q7_core_map *m, double x, double y,
                         int64_t fr, uint64_t used)
{
	char who[32];
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\" style=\"font-size:13px;font-weight:bold\">%s</text>\n",
	           x, y + 14, who_is(m, who, sizeof who));
	struct q7_strbuf t = {0};
	if (fr >= 0) {
		q7_sb_add(&t, "free ");
		human(&t, (uint64_t)fr);
		q7_sb_addf(&t, " (%.1f%%)", 100.0 * (double)fr / m->size);
	} else {
		q7_sb_addf(&t, "OVER by %" PRId64 " B", -fr);
	}
	q7_sb_addf(b, "<text class=\"free\" x=\"%.1f\" y=\"%.1f\" style=\"font-size:13px\">%s</text>\n",
	           x, y + 31, t.s);
	q7_sb_free(&t);
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">image %" PRIu64 " B, stack %" PRIu32 " B</text>\n",
	           x, y + 46, used, m->stack);
}

/* The free space of the window to scale: h high from y0, named with its
 * size (fr bytes) when there is room. */
static void free_box(struct q7_strbuf *b, const struct q7_core_map *m, double x, double y0,
                     double h, int64_t fr)
{
	box_title(b, "win", "free", (uint32_t)m->image_end, (uint64_t)fr);
	rect(b, x, y0, WIN_W, h, "#ffffff");
	if (h >= 36) {
		struct q7_strbuf f = {0};
		human(&f, (uint64_t)fr);
		q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">free</text>"
		           "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
		           x + WIN_W / 2, y0 + h / 2 - 2, x + WIN_W / 2, y0 + h / 2 + 12, f.s);
		q7_sb_free(&f);
	}
	q7_sb_add(b, "</g>\n");
}

/* One enlarged part at zx (the stack when stack), a line to its name at
 * nx, and the name with its size. */
static void enlarged_part(struct q7_strbuf *b, const struct q7_core_map *m, const struct part *p,
                          bool stack, double zx, double nx)
{
	char *label = stack && m->stack_op
	                      ? q7_xasprintf("stack (%s)", m->stack_op) : q7_xstrdup(p->name);
	box_title(b, "zoom", label, p->addr, p->size);
	rect(b, zx, p->y0, ZOOM_W, p->h, p->fill);
	q7_sb_addf(b, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#777\" "
	           "stroke-width=\"0.6\"/>", zx + ZOOM_W, p->y0 + p->h / 2, nx - 3,
	           p->y - 4);
	size_t k;
	char *shown = stack ? NULL : name_text(p->name, p->size, &k);
	if (stack) {
		char *op = name_text(m->stack_op ? m->stack_op : "", p->size, &k);
		char *sp = strrchr(op, ' ');
		*sp = 0;
		shown = q7_xasprintf("stack (%s) %s", op, sp + 1);
		free(op);
	}
	q7_sb_addf(b, "<text class=\"name\" x=\"%.1f\" y=\"%.2f\">", nx, p->y);
	q7_sb_add_xml(b, shown);
	q7_sb_add(b, "</text></g>\n");
	free(shown);
	free(label);
}

/* One core at (x, y): the heading, the window to scale, the enlarged
 * image and stack, their names. */
static void core_column(struct q7_strbuf *b, const struct q7_core_map *m, double x, double y,
                        double bar_h)
{
	int64_t fr = q7_core_map_free_bytes(m);
	uint64_t used = m->image_end - m->base;
	core_heading(b, m, x, y, fr, used);
	double top = y + HEAD_H, bottom = top + bar_h;
	/* The window, to scale: the image from the base, the stack at the top. */
	double s = bar_h / (double)m->size, end = (double)m->base + m->size;
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">0x%08" PRIx32 "</text>\n", x, top - 4,
	           (uint32_t)(m->base + (uint64_t)m->size));
	q7_sb_addf(b, "<rect class=\"window\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	           "fill=\"#fff\" stroke=\"#333\"/>\n", x, top, WIN_W, bar_h);
	double img_hi = (double)m->image_end < end ? (double)m->image_end : end;
	double img_top = bottom - (img_hi - m->base) * s;
	box_title(b, "win", "image", m->base, used);
	rect(b, x, img_top, WIN_W, (img_hi - m->base) * s, fills[0]);
	q7_sb_add(b, "</g>\n");
	double st_bottom = top + m->stack * s;
	if (m->stack) {
		box_title(b, "win", "stack", m->base + m->size - m->stack, m->stack);
		rect(b, x, top, WIN_W, m->stack * s, STACK_FILL);
		q7_sb_add(b, "</g>\n");
	}
	if (fr > 0)
		free_box(b, m, x, st_bottom, (double)fr * s, fr);
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">0x%08" PRIx32 "</text>\n", x, bottom + 14, m->base);
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">to scale</text>\n", x, bottom + 28);
	/* Enlarged: the image at the bottom and the stack at the top, at one
	 * scale, the free space between them cut out. */
	double zx = x + WIN_W + ZOOM_GAP, z_used = (double)used + m->stack;
	double z = z_used > 0 ? (bar_h - (m->stack ? CUT_H : 0)) / z_used : 0;
	if (z < s)
		z = s;
	size_t n;
	struct part *v = parts_of(m, &n);
	double zimg_top = bottom - (double)used * z, zst_bottom = top + m->stack * z;
	for (size_t i = 0; i < n; i++) {
		if (m->stack && i == 0) {
			v[i].y0 = top;
		} else {
			double hi = (double)v[i].addr + v[i].size - m->base;
			v[i].y0 = bottom - hi * z;
		}
		v[i].h = v[i].size * z;
		v[i].want = v[i].y0 + v[i].h / 2 + 4;
	}
	/* The cut, and lines from the window's parts to their enlargements. */
	dashed(b, x + WIN_W, img_top, zx, zimg_top);
	dashed(b, x + WIN_W, bottom, zx, bottom);
	if (m->stack) {
		dashed(b, x + WIN_W, top, zx, top);
		dashed(b, x + WIN_W, st_bottom, zx, zst_bottom);
		double cy = (zst_bottom + zimg_top) / 2;
		q7_sb_addf(b, "<path d=\"M%.1f %.1f l7 -4 l7 8 l7 -8 l7 8 l7 -8 l7 8 l7 -8 l7 4\" "
		           "fill=\"none\" stroke=\"#333\" stroke-width=\"0.7\"/>\n", zx, cy);
	}
	double nx = zx + ZOOM_W + NAME_GAP;
	spread(v, n, top + 10, bottom);
	for (size_t i = 0; i < n; i++)
		enlarged_part(b, m, &v[i], m->stack && i == 0, zx, nx);
	free(v);
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">0x%08" PRIx32 "</text>\n", zx, bottom + 14, m->base);
	q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\">enlarged %.0fx</text>\n", zx, bottom + 28, z / s);
}

char *q7_memory_map_svg(const struct q7_core_map *maps, size_t n, const char *title)
{
	/* One size for every column: the widest names, the most parts. */
	size_t chars = 0, parts = 0;
	for (size_t c = 0; c < n; c++) {
		size_t k = name_chars(&maps[c]);
		chars = k > chars ? k : chars;
		parts = maps[c].nsec + 1 > parts ? maps[c].nsec + 1 : parts;
	}
	double colw = WIN_W + ZOOM_GAP + ZOOM_W + NAME_GAP + (double)chars * CH + 16;
	if (colw < 30 * CH)
		colw = 30 * CH; /* the heading's lines */
	double bar_h = (double)parts * LINE + 20 > BAR_H ? (double)parts * LINE + 20 : BAR_H;
	size_t per_row = (size_t)((SCREEN - 20) / colw);
	per_row = per_row < 1 ? 1 : per_row > n ? (n ? n : 1) : per_row;
	size_t rows = n ? (n + per_row - 1) / per_row : 0;
	/* The heading: does every core fit, and the least that is free. */
	struct q7_strbuf head = {0};
	size_t worst = 0;
	for (size_t c = 1; c < n; c++)
		if (q7_core_map_free_bytes(&maps[c]) < q7_core_map_free_bytes(&maps[worst]))
			worst = c;
	char who[32];
	if (n) {
		const struct q7_core_map *m = &maps[worst];
		int64_t fr = q7_core_map_free_bytes(m);
		who_is(m, who, sizeof who);
		if (fr >= 0) {
			q7_sb_addf(&head, "Fits: %s%s uses %" PRIu64 " B of ", n > 1 ? "the fullest, " : "",
			           who, m->image_end - m->base + m->stack);
			human(&head, m->size);
			q7_sb_add(&head, "; ");
			human(&head, (uint64_t)fr);
			q7_sb_addf(&head, " free (%.1f%%)", 100.0 * (double)fr / m->size);
		} else {
			q7_sb_addf(&head, "Does not fit: %s is over by %" PRId64 " B", who, -fr);
		}
	}
	static const char *const caption[] = {
		"Each core: its SRAM window to scale (base at the bottom),",
		"then the image and the stack enlarged, every section named.",
		"The heap arena and its 16 KiB TCM pool are the call's, outside the window.",
	};
	size_t ncap = sizeof caption / sizeof *caption;
	double width = 20 + (double)per_row * colw;
	double text_w = 20 + (double)strlen(caption[ncap - 1]) * CH;
	struct q7_strbuf shown_title = {0};
	q7_sb_add_shown(&shown_title, title, false);
	double tw = 20 + (double)(shown_title.len < 200 ? shown_title.len : 200) * CH_HEAD * 1.1;
	double hw = 20 + (double)(head.len) * CH_HEAD;
	q7_sb_free(&shown_title);
	width = width < text_w ? text_w : width;
	width = width < tw ? tw : width;
	width = width < hw ? hw : width;
	double body = 76 + LINE * (double)ncap;
	double rowh = HEAD_H + bar_h + FOOT_H + 10;
	double height = body + (double)rows * rowh;
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" "
	           "xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	           "viewBox=\"0 0 %.0f %.0f\">\n", width, height, width, height);
	q7_sb_add(&b, "<style>text { font-family: 'DejaVu Sans Mono', monospace; font-size: 11px; }"
	          "</style>\n");
	q7_sb_addf(&b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n", width, height);
	q7_sb_add(&b, "<text x=\"10\" y=\"22\" style=\"font-size:14px\">");
	q7_sb_add_xml(&b, title);
	q7_sb_add(&b, "</text>\n<text id=\"verdict\" x=\"10\" y=\"44\" style=\"font-size:13px;"
	          "font-weight:bold\">");
	q7_sb_add_xml(&b, head.s ? head.s : "");
	q7_sb_add(&b, "</text>\n");
	q7_sb_free(&head);
	for (size_t i = 0; i < ncap; i++)
		q7_sb_addf(&b, "<text x=\"10\" y=\"%.0f\">%s</text>\n", 64 + LINE * (double)i, caption[i]);
	for (size_t c = 0; c < n; c++)
		core_column(&b, &maps[c], 10 + (double)(c % per_row) * colw,
		            body + (double)(c / per_row) * rowh, bar_h);
	q7_sb_add(&b, "</svg>\n");
	return q7_sb_take(&b);
}
