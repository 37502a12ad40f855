/* The section scripts of an LSP package (ldscripts/elf32xtensa.*), made
 * from one row of the memory map. Only the header comment and the MEMORY
 * block depend on the row. The order, its reasons and the symbols are
 * docs/lsp.md, "Section order (elf32xtensa.x)"; the variants, docs/lsp.md,
 * "The five variants". */
#include "lsp.h"
#include "support.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

static const struct {
	const char *suffix, *purpose;
} variants[Q7_LSP_NVARIANTS] = {
	{"x", "the default: a normal link (what the gnu and xt links use)"},
	{"xbn", "ld -N (omagic): the same placement as .x"},
	{"xn", "ld -n (nmagic): the same placement as .x"},
	{"xr", "ld -r: relocatable output, sections at 0, nothing resolved"},
	{"xu", "ld -Ur: relocatable output that also gathers constructors"},
};

const char *q7_lsp_variant_suffix(enum q7_lsp_variant v)
{
	return (unsigned)v < Q7_LSP_NVARIANTS ? variants[v].suffix : NULL;
}

char *q7_lsp_ldscript(const struct q7_lsp *lsp, enum q7_lsp_variant v)
{
	char *dir = q7_lsp_dir(lsp);
	char *path = q7_xasprintf("%s/ldscripts/elf32xtensa.%s", dir, q7_lsp_variant_suffix(v));
	free(dir);
	return path;
}

/* Everything placed for a linked image (x, xn, xbn). Each output section is
 * followed by " >sram0_0_seg" (added by emit_placed). */
static const char *const placed_sram[] = {
	/* GNU puts the PLT and its GOT here too; with -Bsymbolic and no
	 * undefined weak references there is none. */
	".text : ALIGN(4)\n"
	"  {\n"
	"    HIDDEN(_text_start = .);\n"
	"    *(.got.plt* .plt*)\n"
	"    KEEP (*(.init.literal))\n"
	"    KEEP (*(SORT_NONE(.init)))\n"
	"    *(.literal .text .stub .literal.* .text.* .gnu.linkonce.literal.*"
	" .gnu.linkonce.t.*.literal .gnu.linkonce.t.*)\n"
	"    *(.gnu.warning)\n"
	"    KEEP (*(.fini.literal))\n"
	"    KEEP (*(SORT_NONE(.fini)))\n"
	"    HIDDEN(_text_end = .);\n"
	"  }",
	".clib.rodata : ALIGN(4) { *(.clib.rodata .clib.rodata.*) }",
	".rtos.rodata : ALIGN(4) { *(.rtos.rodata .rtos.rodata.*) }",
	".clib.data : ALIGN(4) { *(.clib.data .clib.data.*) }",
	".eh_frame_hdr : { *(.eh_frame_hdr) }",
	".eh_frame : ALIGN(4) { KEEP (*(.eh_frame)) }",
	".ctors : ALIGN(4)\n"
	"  {\n"
	"    HIDDEN(_ctors_start = .);\n"
	"    KEEP (*crtbegin.o(.ctors))\n"
	"    KEEP (*crtbegin?.o(.ctors))\n"
	"    KEEP (*(EXCLUDE_FILE (*crtend.o *crtend?.o) .ctors))\n"
	"    KEEP (*(SORT(.ctors.*)))\n"
	"    KEEP (*(.ctors))\n"
	"    HIDDEN(_ctors_end = .);\n"
	"  }",
	".dtors : ALIGN(4)\n"
	"  {\n"
	"    HIDDEN(_dtors_start = .);\n"
	"    KEEP (*crtbegin.o(.dtors))\n"
	"    KEEP (*crtbegin?.o(.dtors))\n"
	"    KEEP (*(EXCLUDE_FILE (*crtend.o *crtend?.o) .dtors))\n"
	"    KEEP (*(SORT(.dtors.*)))\n"
	"    KEEP (*(.dtors))\n"
	"    HIDDEN(_dtors_end = .);\n"
	"  }",
	".rodata : ALIGN(4)\n"
	"  {\n"
	"    HIDDEN(_rodata_start = .);\n"
	"    *(.rodata .rodata.* .gnu.linkonce.r.*)\n"
	"    *(.rodata1)\n"
	"    . = ALIGN(4);\n"
	"    HIDDEN(__preinit_array_start = .);\n"
	"    KEEP (*(.preinit_array))\n"
	"    HIDDEN(__preinit_array_end = .);\n"
	"    HIDDEN(__init_array_start = .);\n"
	"    KEEP (*(SORT(.init_array.*)))\n"
	"    KEEP (*(.init_array))\n"
	"    HIDDEN(__init_array_end = .);\n"
	"    HIDDEN(__fini_array_start = .);\n"
	"    KEEP (*(SORT(.fini_array.*)))\n"
	"    KEEP (*(.fini_array))\n"
	"    HIDDEN(__fini_array_end = .);\n"
	"    HIDDEN(__XT_EXCEPTION_TABLE__ = .);\n"
	"    KEEP (*(.xt_except_table .xt_except_table.* .gnu.linkonce.e.*))\n"
	"    KEEP (*(.gcc_except_table .gcc_except_table.*))\n"
	"    . = ALIGN(4);\n"
	"    HIDDEN(__XT_EXCEPTION_DESCS__ = .);\n"
	"    *(.xt_except_desc .xt_except_desc.* .gnu.linkonce.h.*)\n"
	"    HIDDEN(__XT_EXCEPTION_DESCS_END__ = .);\n"
	"    *(.xt_except_desc_end)\n"
	"    . = ALIGN(4);\n"
	"    HIDDEN(_bss_table_start = .);\n"
	"    LONG(_bss_start)\n"
	"    LONG(_bss_end)\n"
	"    HIDDEN(_bss_table_end = .);\n"
	"    HIDDEN(_rodata_end = .);\n"
	"  }",
	".clib.text : ALIGN(4) { *(.clib.literal .clib.text .clib.literal.* .clib.text.*) }",
	".rtos.text : ALIGN(4) { *(.rtos.literal .rtos.text .rtos.literal.* .rtos.text.*) }",
	".clib.percpu.data : ALIGN(4) { *(.clib.percpu.data .clib.percpu.data.*) }",
	".rtos.percpu.data : ALIGN(4) { *(.rtos.percpu.data .rtos.percpu.data.*) }",
	".rtos.data : ALIGN(4) { *(.rtos.data .rtos.data.*) }",
	/* The dynamic-linking sections sit where the seed has .interp. The
	 * packer drops .hash/.dynsym/.dynstr/.rela.plt/.got/.got.loc later;
	 * .rela.dyn and .dynamic stay for the prelinker. */
	".interp : { *(.interp) }",
	".hash : ALIGN(4) { *(.hash) }",
	".gnu.hash : ALIGN(4) { *(.gnu.hash) }",
	".dynsym : ALIGN(4) { *(.dynsym) }",
	".dynstr : { *(.dynstr) }",
	".gnu.version : { *(.gnu.version) }",
	".gnu.version_d : { *(.gnu.version_d) }",
	".gnu.version_r : { *(.gnu.version_r) }",
	".rela.dyn : ALIGN(4)\n"
	"  {\n"
	"    *(.rela.init)\n"
	"    *(.rela.text .rela.text.* .rela.gnu.linkonce.t.*)\n"
	"    *(.rela.fini)\n"
	"    *(.rela.rodata .rela.rodata.* .rela.gnu.linkonce.r.*)\n"
	"    *(.rela.data.rel.ro .rela.data.rel.ro.* .rela.gnu.linkonce.d.rel.ro.*)\n"
	"    *(.rela.data .rela.data.* .rela.gnu.linkonce.d.*)\n"
	"    *(.rela.tdata .rela.tdata.* .rela.gnu.linkonce.td.*)\n"
	"    *(.rela.tbss .rela.tbss.* .rela.gnu.linkonce.tb.*)\n"
	"    *(.rela.ctors)\n"
	"    *(.rela.dtors)\n"
	"    *(.rela.got)\n"
	"    *(.rela.bss .rela.bss.* .rela.gnu.linkonce.b.*)\n"
	"  }",
	".rela.plt : ALIGN(4) { *(.rela.plt) }",
	".dynamic : ALIGN(4) { *(.dynamic) }",
	/* Xtensa's copy of the literal table for a dynamic loader. */
	".got.loc : ALIGN(4) { *(.got.loc) }",
	".got : ALIGN(4) { *(.got) }",
	".data : ALIGN(4)\n"
	"  {\n"
	"    HIDDEN(_data_start = .);\n"
	"    *(.data .data.* .gnu.linkonce.d.*)\n"
	"    *(.data.rel.ro.local* .gnu.linkonce.d.rel.ro.local.*)\n"
	"    *(.data.rel.ro .data.rel.ro.* .gnu.linkonce.d.rel.ro.*)\n"
	"    *(.data1)\n"
	"    *(.sdata .sdata.* .gnu.linkonce.s.*)\n"
	"    *(.lit4 .lit4.* .gnu.linkonce.lit4.*)\n"
	"    KEEP (*(.jcr))\n"
	"    HIDDEN(_data_end = .);\n"
	"  }",
	".note.gnu.build-id : ALIGN(4) { KEEP (*(.note.gnu.build-id)) }",
	".tdata : ALIGN(4) { *(.tdata .tdata.* .gnu.linkonce.td.*) }",
	".tbss : ALIGN(4) { *(.tbss .tbss.* .gnu.linkonce.tb.*) *(.tcommon) }",
	".bss : ALIGN(8)\n"
	"  {\n"
	"    HIDDEN(_bss_start = .);\n"
	"    *(.dynsbss)\n"
	"    *(.sbss .sbss.* .gnu.linkonce.sb.*)\n"
	"    *(.scommon)\n"
	"    *(.dynbss)\n"
	"    *(.bss .bss.* .gnu.linkonce.b.*)\n"
	"    *(COMMON)\n"
	"    . = ALIGN(8);\n"
	"    HIDDEN(_bss_end = .);\n"
	"  }",
	NULL,
};

/* The relocatable variants keep the same order but only group input
 * sections of one name; addresses stay 0 so a later link places them. */
static const char *const relocatable[] = {
	".text 0 : { *(.literal .text .stub) *(.gnu.warning) }",
	".clib.rodata 0 : { *(.clib.rodata) }",
	".rtos.rodata 0 : { *(.rtos.rodata) }",
	".clib.data 0 : { *(.clib.data) }",
	".eh_frame 0 : { KEEP (*(.eh_frame)) }",
	".ctors 0 : { KEEP (*(.ctors)) }",
	".dtors 0 : { KEEP (*(.dtors)) }",
	".rodata 0 : { *(.rodata) *(.rodata1) }",
	".preinit_array 0 : { KEEP (*(.preinit_array)) }",
	".init_array 0 : { KEEP (*(.init_array)) }",
	".fini_array 0 : { KEEP (*(.fini_array)) }",
	".xt_except_table 0 : { KEEP (*(.xt_except_table)) }",
	".gcc_except_table 0 : { *(.gcc_except_table) }",
	".xt_except_desc 0 : { *(.xt_except_desc) *(.xt_except_desc_end) }",
	".clib.text 0 : { *(.clib.literal .clib.text) }",
	".rtos.text 0 : { *(.rtos.literal .rtos.text) }",
	".clib.percpu.data 0 : { *(.clib.percpu.data) }",
	".rtos.percpu.data 0 : { *(.rtos.percpu.data) }",
	".rtos.data 0 : { *(.rtos.data) }",
	".interp 0 : { *(.interp) }",
	".got.loc 0 : { *(.got.loc) }",
	".got 0 : { *(.got) }",
	NULL,
};

/* After .data, which -Ur also gives the constructors (as GNU's .xu). */
static const char *const relocatable_tail[] = {
	".note.gnu.build-id 0 : { KEEP (*(.note.gnu.build-id)) }",
	".tdata 0 : { *(.tdata) }",
	".tbss 0 : { *(.tbss) }",
	".bss 0 : { *(.bss) *(COMMON) }",
	NULL,
};

/* Never loaded: addresses 0 in every variant. */
static const char *const unplaced[] = {
	".comment 0 : { *(.comment) }",
	".gnu.attributes 0 : { KEEP (*(.gnu.attributes)) }",
	".debug 0 : { *(.debug) }",
	".line 0 : { *(.line) }",
	".debug_srcinfo 0 : { *(.debug_srcinfo) }",
	".debug_sfnames 0 : { *(.debug_sfnames) }",
	".debug_aranges 0 : { *(.debug_aranges) }",
	".debug_pubnames 0 : { *(.debug_pubnames) }",
	".debug_info 0 : { *(.debug_info .gnu.linkonce.wi.*) }",
	".debug_abbrev 0 : { *(.debug_abbrev) }",
	".debug_line 0 : { *(.debug_line .debug_line.* .debug_line_end) }",
	".debug_frame 0 : { *(.debug_frame) }",
	".debug_str 0 : { *(.debug_str) }",
	".debug_loc 0 : { *(.debug_loc) }",
	".debug_macinfo 0 : { *(.debug_macinfo) }",
	".debug_weaknames 0 : { *(.debug_weaknames) }",
	".debug_funcnames 0 : { *(.debug_funcnames) }",
	".debug_typenames 0 : { *(.debug_typenames) }",
	".debug_varnames 0 : { *(.debug_varnames) }",
	".debug_pubtypes 0 : { *(.debug_pubtypes) }",
	".debug_ranges 0 : { *(.debug_ranges) }",
	".debug_addr 0 : { *(.debug_addr) }",
	".debug_line_str 0 : { *(.debug_line_str) }",
	".debug_loclists 0 : { *(.debug_loclists) }",
	".debug_macro 0 : { *(.debug_macro) }",
	".debug_names 0 : { *(.debug_names) }",
	".debug_rnglists 0 : { *(.debug_rnglists) }",
	".debug_str_offsets 0 : { *(.debug_str_offsets) }",
	".debug_sup 0 : { *(.debug_sup) }",
	".xt.lit 0 : { KEEP (*(.xt.lit .xt.lit.* .gnu.linkonce.p.*)) }",
	".xt.insn 0 : { KEEP (*(.xt.insn .gnu.linkonce.x.*)) }",
	".xt.prop 0 : { KEEP (*(.xt.prop .xt.prop.* .gnu.linkonce.prop.*)) }",
	NULL,
};

static void emit_list(struct q7_strbuf *b, const char *const *list, const char *after)
{
	for (; *list; list++)
		q7_sb_addf(b, "  %s%s\n", *list, after);
}

static void emit_memory(struct q7_strbuf *b, const struct q7_lsp *lsp, const char *lead)
{
	q7_sb_addf(b, "%sMEMORY\n%s{\n", lead, lead);
	q7_sb_addf(b, "%s  iram0_0_seg : org = 0x%08" PRIx32 ", len = 0x%" PRIx32 "\n", lead,
		   lsp->iram_org, lsp->iram_len);
	q7_sb_addf(b, "%s  sram0_0_seg : org = 0x%08" PRIx32 ", len = 0x%" PRIx32 "\n", lead,
		   lsp->sram_org, lsp->sram_len);
	q7_sb_addf(b, "%s}\n", lead);
}

static void emit_header(struct q7_strbuf *b, const struct q7_lsp *lsp, enum q7_lsp_variant v)
{
	q7_sb_addf(b, "/* %s/ldscripts/elf32xtensa.%s: %s.\n", lsp->name, variants[v].suffix,
		   variants[v].purpose);
	if (lsp->core == Q7_LSP_SINGLE)
		q7_sb_add(b, "   One core owning the whole SRAM window.\n");
	else
		q7_sb_addf(b, "   Core %d of %d: its own SRAM window.\n", lsp->core, Q7_NUM_CORES);
	q7_sb_add(b, "   Generated by q7-lspgen from the memory map in lsp/memmap.c;\n"
		     "   do not edit (docs/lsp.md). */\n");
}

static void emit_linked(struct q7_strbuf *b, const struct q7_lsp *lsp)
{
	q7_sb_add(b, "OUTPUT_FORMAT(\"elf32-xtensa-le\")\n"
		     "OUTPUT_ARCH(xtensa)\n"
		     "ENTRY(_start)\n\n");
	emit_memory(b, lsp, "");
	q7_sb_add(b, "\nSECTIONS\n{\n");
	/* Exception and reset vectors only: named .<Kind>Vector.text. */
	q7_sb_add(b, "  .iram0.text : ALIGN(4)\n"
		     "  {\n"
		     "    KEEP (*(.*Vector.literal .*Vector.text))\n"
		     "  } >iram0_0_seg\n\n");
	emit_list(b, placed_sram, " >sram0_0_seg");
	q7_sb_add(b, "  HIDDEN(_end = .);\n\n");
	emit_list(b, unplaced, "");
	q7_sb_add(b, "  /DISCARD/ : { *(.note.GNU-stack) *(.gnu_debuglink) *(.gnu.lto_*) }\n"
		     "}\n");
}

static void emit_relocatable(struct q7_strbuf *b, const struct q7_lsp *lsp, enum q7_lsp_variant v)
{
	/* The map stays as a comment: a relocatable object has no addresses
	 * yet, and a MEMORY block would make ld place sections in it. */
	q7_sb_add(b, "OUTPUT_FORMAT(\"elf32-xtensa-le\")\n"
		     "OUTPUT_ARCH(xtensa)\n\n"
		     "/* The final link places these sections in:\n");
	emit_memory(b, lsp, "   ");
	q7_sb_add(b, " */\n\nSECTIONS\n{\n");
	emit_list(b, relocatable, "");
	q7_sb_addf(b, "  .data 0 : { *(.data) *(.data1) *(.lit4)%s }\n",
		   v == Q7_LSP_XU ? " SORT(CONSTRUCTORS)" : "");
	emit_list(b, relocatable_tail, "");
	emit_list(b, unplaced, "");
	q7_sb_add(b, "}\n");
}

char *q7_lsp_script_text(const struct q7_lsp *lsp, enum q7_lsp_variant v)
{
	struct q7_strbuf b = {0};
	if (!lsp || !q7_lsp_variant_suffix(v))
		return NULL;
	emit_header(&b, lsp, v);
	if (v == Q7_LSP_XR || v == Q7_LSP_XU)
		emit_relocatable(&b, lsp, v);
	else
		emit_linked(&b, lsp);
	return q7_sb_take(&b);
}

/* docs/lsp.md, "specs". */
const char *q7_lsp_specs_text(void)
{
	return "# q7cc linker support package: the same in all nine packages.\n"
	       "# Generated by q7-lspgen; see docs/lsp.md.\n"
	       "*startfile:\n"
	       "crti%O%s crtbegin%O%s\n"
	       "\n"
	       "*endfile:\n"
	       "crtend%O%s crtn%O%s\n"
	       "\n"
	       "*lib:\n"
	       "\n"
	       "\n";
}
