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

int q7_core_map_load(const char *image, int core, struct q7_core_map *m, char *err, size_t errsize)
{
	memset(m, 0, sizeof *m);
	elf_version(EV_CURRENT);
	const char *why = NULL;
	int fd = q7_open_regular(image, &why);
	if (fd < 0) {
		snprintf(err, errsize, "%s: cannot read: %s", image, why);
		return -1;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_XTENSA) {
		snprintf(err, errsize, "%s: not an Xtensa image (a gnu-profile link's output)", image);
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	size_t shstrndx = 0;
	elf_getshdrstrndx(elf, &shstrndx);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 16;
	m->sec = q7_xcalloc(cap, sizeof *m->sec);
	uint32_t lowest = UINT32_MAX;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (m->nsec == cap)
			m->sec = q7_xrealloc(m->sec, (cap *= 2) * sizeof *m->sec);
		m->sec[m->nsec++] = (struct q7_map_section){q7_xstrdup(name ? name : "?"),
		                                            (uint32_t)sh.sh_addr, (uint32_t)sh.sh_size};
		if (sh.sh_addr < lowest)
			lowest = (uint32_t)sh.sh_addr;
	}
	qsort(m->sec, m->nsec, sizeof *m->sec, by_addr);
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
			snprintf(err, errsize, "%s: section %s at 0x%08" PRIx32 " of %" PRIu32 " bytes "
			         "runs past the 32-bit address space: not an Xtensa image", image, s->name,
			         s->addr, s->size);
			elf_end(elf);
			close(fd);
			q7_core_map_free(m);
			return -1;
		}
		if (s->addr < m->base) {
			snprintf(err, errsize, "%s: section %s at 0x%08" PRIx32 " is below %s's SRAM "
			         "window (0x%08" PRIx32 "..0x%08" PRIx32 "): not that core's image", image,
			         s->name, s->addr, lsp->name, m->base, m->base + m->size);
			elf_end(elf);
			close(fd);
			q7_core_map_free(m);
			return -1;
		}
		if ((uint64_t)s->addr + s->size > m->image_end)
			m->image_end = (uint64_t)s->addr + s->size;
	}
	/* The largest stack any op's launcher asks for. */
	struct q7_syms syms;
	int got = q7_syms_load(image, 0, &syms, err, errsize);
	if (got == -1) { /* damaged (none: a stripped image, no ops) */
		elf_end(elf);
		close(fd);
		q7_core_map_free(m);
		return -1;
	}
	if (got == 0) {
		for (size_t i = 0; i < syms.n; i++) {
			const char *n = syms.v[i].name;
			size_t k = strlen(n), ks = strlen(LAUNCHER_SUFFIX);
			if (k <= ks || strcmp(n + k - ks, LAUNCHER_SUFFIX) != 0)
				continue;
			uint32_t st = launcher_stack(elf, syms.v[i].addr,
			                             syms.v[i].size < LAUNCHER_MAX ? syms.v[i].size
			                                                           : LAUNCHER_MAX);
			if (!m->stack_op || st > m->stack) {
				m->stack = st;
				free(m->stack_op);
				m->stack_op = q7_xstrndup(n, k - ks);
			}
		}
		q7_syms_free(&syms);
	}
	err[0] = 0;
	elf_end(elf);
	close(fd);
	return 0;
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

const char *q7_core_map_who(const struct q7_core_map *m, char *buf, size_t size)
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
		q7_sb_addf(&b, "%s%s: ", c ? "\n" : "", q7_core_map_who(m, who, sizeof who));
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

/* Labels of boxes too thin to hold them: stacked in the free space above
 * the image, each with a line to its box. */
struct callouts {
	double next_y; /* where the next one goes (upwards) */
};

/* One box of a column: [addr, addr + size) of the window, to scale (at
 * least half a pixel high, so a small section still shows and is named). */
static void box(struct q7_strbuf *b, double x, double w, double top, double scale,
                const struct q7_core_map *m, uint32_t addr, uint32_t size, const char *fill,
                const char *label, struct callouts *co)
{
	/* The part inside the window (an image that overflows it is drawn
	 * up to its top; the text says by how much). */
	double end = (double)m->base + m->size, hi = (double)addr + size;
	double y0 = top + (end - (hi < end ? hi : end)) * scale;
	double h = ((hi < end ? hi : end) - (addr > m->base ? (double)addr : m->base)) * scale;
	if (h < 0)
		h = 0;
	q7_sb_addf(b, "<g><title>");
	q7_sb_add_xml(b, label);
	q7_sb_addf(b, ": 0x%08" PRIx32 ", %" PRIu32 " bytes</title>", addr, size);
	q7_sb_addf(b, "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\" "
	           "stroke=\"#333\" stroke-width=\"0.5\"/>", x, y0, w, h < 0.5 ? 0.5 : h, fill);
	if (h >= 11) {
		q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.2f\">", x + 4, y0 + (h < 24 ? h / 2 + 4 : 14));
		q7_sb_add_xml(b, label);
		q7_sb_addf(b, " %" PRIu32 "</text>", size);
	} else if (co) {
		double ty = co->next_y;
		co->next_y -= 13;
		q7_sb_addf(b, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#888\" "
		           "stroke-width=\"0.5\"/>", x + w - 2, y0 + h / 2, x + w - 30, ty - 4);
		q7_sb_addf(b, "<text x=\"%.1f\" y=\"%.2f\">", x + 4, ty);
		q7_sb_add_xml(b, label);
		q7_sb_addf(b, " %" PRIu32 "</text>", size);
	}
	q7_sb_add(b, "</g>\n");
}

char *q7_memory_map_svg(const struct q7_core_map *maps, size_t n, const char *title)
{
	const double colw = 170, gap = 40, left = 90, top = 70, height = 640;
	double width = left + (double)n * (colw + gap) + 20;
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" "
	           "xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	           "viewBox=\"0 0 %.0f %.0f\">\n", width, top + height + 90, width, top + height + 90);
	q7_sb_add(&b, "<style>text { font-family: monospace; font-size: 11px; }</style>\n");
	q7_sb_addf(&b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n", width,
	           top + height + 90);
	q7_sb_addf(&b, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" style=\"font-size:14px\">",
	           width / 2);
	q7_sb_add_xml(&b, title);
	q7_sb_add(&b, "</text>\n<text x=\"10\" y=\"42\">Each column: one core's SRAM window to scale "
	          "(base at the bottom). The heap arena and its 16 KiB TCM pool are the call's, "
	          "outside the window.</text>\n");
	static const char *const fills[] = {"rgb(230,140,60)", "rgb(240,190,80)", "rgb(120,170,230)",
	                                    "rgb(160,210,140)", "rgb(200,160,220)"};
	char who[32];
	for (size_t c = 0; c < n; c++) {
		const struct q7_core_map *m = &maps[c];
		double x = left + (double)c * (colw + gap);
		double scale = height / (double)m->size;
		q7_sb_addf(&b, "<text x=\"%.1f\" y=\"%.0f\" style=\"font-size:13px\">%s</text>\n", x,
		           top - 8, q7_core_map_who(m, who, sizeof who));
		int64_t fr = q7_core_map_free_bytes(m);
		q7_sb_addf(&b, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"#fff\" "
		           "stroke=\"#333\"/>\n", x, top, colw, height);
		if (fr > 0)
			box(&b, x, colw, top, scale, m, (uint32_t)m->image_end, (uint32_t)fr, "#ffffff",
			    "free", NULL);
		double image_top = (double)m->base + m->size - (double)m->image_end;
		struct callouts co = {top + (image_top > 0 ? image_top : 0) * scale - 16};
		if (fr > 0 && co.next_y > top + (height - (double)fr * scale) + 200)
			co.next_y = top + height - (double)(m->image_end - m->base) * scale - 16;
		for (size_t i = 0; i < m->nsec; i++)
			box(&b, x, colw, top, scale, m, m->sec[i].addr, m->sec[i].size, fills[i % 5],
			    m->sec[i].name, &co);
		if (m->stack) {
			char *label = q7_xasprintf("stack (%s)", m->stack_op ? m->stack_op : "");
			box(&b, x, colw, top, scale, m, m->base + m->size - m->stack, m->stack,
			    "rgb(240,120,120)", label, &co);
			free(label);
		}
		struct q7_strbuf f = {0};
		if (fr >= 0)
			human(&f, (uint64_t)fr);
		q7_sb_addf(&b, "<text x=\"%.1f\" y=\"%.0f\">0x%08" PRIx32 "</text>\n", x, top + height + 14,
		           m->base);
		q7_sb_addf(&b, "<text x=\"%.1f\" y=\"%.0f\">image %" PRIu64 " B, %s %s</text>\n", x,
		           top + height + 30, m->image_end - m->base, fr >= 0 ? "free" : "OVER by",
		           fr >= 0 ? f.s : "");
		if (fr < 0)
			q7_sb_addf(&b, "<text x=\"%.1f\" y=\"%.0f\">%" PRId64 " bytes</text>\n", x,
			           top + height + 46, -fr);
		q7_sb_free(&f);
	}
	/* The address scale of the first column. */
	if (n) {
		const struct q7_core_map *m = &maps[0];
		for (int k = 0; k <= 4; k++) {
			uint32_t a = m->base + (uint32_t)((uint64_t)m->size * (uint64_t)k / 4);
			q7_sb_addf(&b, "<text x=\"8\" y=\"%.0f\">0x%08" PRIx32 "</text>\n",
			           top + height - height * k / 4 + 4, a);
		}
	}
	q7_sb_add(&b, "</svg>\n");
	return q7_sb_take(&b);
}

