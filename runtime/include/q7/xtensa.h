/* <q7/xtensa.h>: the Xtensa ABI as q7cc's tools use it, said once.
 *
 * The packer (binding a device image's relocations at pack time, without
 * -l) and the prelinker (applying them at a base address) read the same
 * relocations with the same rule for their symbols, and the boot program,
 * the link, the linker support packages and q7-run place the same number
 * of cores. docs/vendor-flow.md describes the vendor's side of each.
 *
 * Plain C with <elf.h> (the host's glibc, and the Xtensa toolchain's
 * newlib, which the boot program is built with, both have it). */
#ifndef Q7_XTENSA_H
#define Q7_XTENSA_H

#include <elf.h>
#include <stdint.h>

/* The cores of one GPSIMD engine: a multicore library has one image per
 * core, 0..Q7_NUM_CORES-1, each with its own linker support package, and
 * q7-run, the boot program and the prelinked image's header count them
 * by it. */
#define Q7_NUM_CORES 8

/* Xtensa relocation numbers (the Xtensa ELF ABI; glibc's <elf.h> lacks
 * them): the dynamic ones a device image's .rela.dyn holds. */
enum {
	R_XTENSA_NONE = 0, R_XTENSA_32 = 1, R_XTENSA_RTLD = 2,
	R_XTENSA_GLOB_DAT = 3, R_XTENSA_JMP_SLOT = 4, R_XTENSA_RELATIVE = 5,
};

/* A relocation type's name for messages: "R_XTENSA_GLOB_DAT", a family
 * ("R_XTENSA_SLOTn_OP", "an R_XTENSA_TLS relocation"), or "an unknown
 * relocation". */
static inline const char *q7_xt_reloc_name(uint32_t type)
{
	static const char *const names[] = {
		"R_XTENSA_NONE", "R_XTENSA_32", "R_XTENSA_RTLD", "R_XTENSA_GLOB_DAT",
		"R_XTENSA_JMP_SLOT", "R_XTENSA_RELATIVE", "R_XTENSA_PLT", 0,
		"R_XTENSA_OP0", "R_XTENSA_OP1", "R_XTENSA_OP2", "R_XTENSA_ASM_EXPAND",
		"R_XTENSA_ASM_SIMPLIFY", 0, "R_XTENSA_32_PCREL", "R_XTENSA_GNU_VTINHERIT",
		"R_XTENSA_GNU_VTENTRY", "R_XTENSA_DIFF8", "R_XTENSA_DIFF16", "R_XTENSA_DIFF32",
	};
	if (type < sizeof names / sizeof names[0] && names[type])
		return names[type];
	if (type >= 20 && type <= 34)
		return "R_XTENSA_SLOTn_OP";
	if (type >= 35 && type <= 49)
		return "R_XTENSA_SLOTn_ALT";
	if (type >= 50 && type <= 56)
		return "an R_XTENSA_TLS relocation";
	return "an unknown relocation";
}

/* What a symbol a dynamic relocation names stands for in a device image.
 * The image is all there is on its core: no other module can define a
 * symbol, and nothing runs a resolver. */
enum q7_xt_sym {
	Q7_XT_SYM_ZERO,      /* undefined weak: 0, what a dynamic linker gives one
	                      * that nothing defines */
	Q7_XT_SYM_UNDEFINED, /* undefined: an error (define it, or declare it weak) */
	Q7_XT_SYM_TLS,       /* thread-local: an error */
	Q7_XT_SYM_IFUNC,     /* an indirect function: an error */
	Q7_XT_SYM_ABSOLUTE,  /* SHN_ABS: its value, which does not move */
	Q7_XT_SYM_RESERVED,  /* another special section index: an error */
	Q7_XT_SYM_IMAGE,     /* defined by the image: its value, which moves with
	                      * the image (and must lie inside it) */
};

/* The rule, from the symbol's section index, binding and type. */
static inline enum q7_xt_sym q7_xt_sym_rule(unsigned shndx, unsigned bind, unsigned type)
{
	if (shndx == SHN_UNDEF)
		return bind == STB_WEAK ? Q7_XT_SYM_ZERO : Q7_XT_SYM_UNDEFINED;
	if (type == STT_TLS)
		return Q7_XT_SYM_TLS;
	if (type == STT_GNU_IFUNC)
		return Q7_XT_SYM_IFUNC;
	if (shndx == SHN_ABS)
		return Q7_XT_SYM_ABSOLUTE;
	return shndx >= SHN_LORESERVE ? Q7_XT_SYM_RESERVED : Q7_XT_SYM_IMAGE;
}

#endif
