/* Choosing the toolchain and finding the real compiler. */
#include "toolchain.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define XT_CXX "xt-clang++"
#define GNU_CXX "xtensa-lx106-elf-g++"
#define HOST_CXX "c++"
#define XT_CC "xt-clang"
#define GNU_CC "xtensa-lx106-elf-gcc"
#define HOST_CC "cc"
#define VENDOR_BIN "/opt/aws/neuron/gpsimd/bin"
#define VENDOR_ROOT "/opt/aws/neuron/gpsimd/custom_op"
#define VENDOR_TOOLS "/opt/aws/neuron/gpsimd/tools"
#define VENDOR_LICENSE "/opt/aws/neuron/gpsimd/tools/licenses/amzn_vq7_us_582883.out"

/* ---- telling a q7cc executable from a real compiler ------------------------
 * docs/driver.md, "The q7cc driver": it never runs any q7cc. */

#define NOTE_SECTION ".note.q7cc"

/* The mark: an ELF note in a section of its own, which a strip keeps
 * (dh_strip removes .comment and .note, not .note.<name>). */
struct q7_mark {
	Elf64_Word namesz, descsz, type;
	char name[8];
	char desc[8];
};
__attribute__((used, section(NOTE_SECTION), aligned(4)))
static const struct q7_mark mark = {5, 8, 1, "q7cc", "driver"};

/* True when the ELF file open on fd has a section named NOTE_SECTION: the
 * header, the section headers and their name table only. */
static bool has_mark(int fd)
{
	Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t names;
	bool found = false;
	if (e && elf_kind(e) == ELF_K_ELF && elf_getshdrstrndx(e, &names) == 0)
		for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(e, scn));) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, names, sh.sh_name) : NULL;
			found = name && strcmp(name, NOTE_SECTION) == 0;
		}
	elf_end(e);
	return found;
}

/* True when path is an executable of q7cc (this one or any other). */
static bool is_q7cc(const char *path)
{
	static struct stat self;
	static int have = -1;
	if (have < 0)
		have = stat("/proc/self/exe", &self) == 0;
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (have && st.st_dev == self.st_dev && st.st_ino == self.st_ino)
		return true;
	const char *why;
	int fd = q7_open_regular(path, &why);
	if (fd < 0)
		return false;
	bool q7 = has_mark(fd);
	close(fd);
	(void)mark;
	return q7;
}

/* ---- finding the compiler ---------------------------------------------------- */

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static char *usable(char *cand)
{
	if (cand && q7_path_is_executable(cand) && !is_q7cc(cand))
		return cand;
	free(cand);
	return NULL;
}

/* PATH search that skips every q7cc: q7_path_search, a folder at a time. */
static char *search_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs = q7_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	char *found = NULL;
	for (char *rest = dirs, *dir; !found && (dir = strsep(&rest, ":"));)
		found = usable(q7_path_search(name, dir));
	free(dirs);
	return found;
}

static char *xtensa_bin(void)
{
	const char *tools = env("XTENSA_TOOLS");
	return tools ? q7_xasprintf("%s/XtensaTools/bin", tools) : q7_xstrdup(VENDOR_BIN);
}

/* The vendor compiler: the vendor paths first, then PATH (not q7cc). */
static char *find_xt(void)
{
	char *bin = xtensa_bin();
	char *cand = usable(q7_path_join(bin, XT_CXX));
	free(bin);
	if (!cand && env("XTENSA_TOOLS"))
		cand = usable(q7_xstrdup(VENDOR_BIN "/" XT_CXX));
	return cand ? cand : search_path(XT_CXX);
}

static const char *const names[] = {"xt", "gnu", "host"};
static const char *const bare[] = {XT_CXX, GNU_CXX, HOST_CXX};
static const char *const bare_cc[] = {XT_CC, GNU_CC, HOST_CC};

/* The C driver's name for a C++ driver's: "xt-clang++" -> "xt-clang",
 * "xtensa-lx106-elf-g++" -> "xtensa-lx106-elf-gcc", "g++-12" -> "gcc-12",
 * "c++" -> "cc"; NULL for a name without one of them. */
static char *c_driver_name(const char *cxx)
{
	const char *base = q7_path_basename(cxx);
	const char *pp = NULL;
	for (const char *q = strstr(base, "++"); q; q = strstr(q + 1, "++"))
		pp = q;
	if (!pp || pp == base)
		return NULL;
	size_t head = (size_t)(pp - base);
	const char *tail = pp + 2;
	if (head >= 5 && strncmp(pp - 5, "clang", 5) == 0)
		return q7_xasprintf("%.*s%s", (int)head, base, tail);
	if (pp[-1] == 'g')
		return q7_xasprintf("%.*sgcc%s", (int)head - 1, base, tail);
	if (pp[-1] == 'c')
		return q7_xasprintf("%.*scc%s", (int)head - 1, base, tail);
	return NULL;
}

/* The C compiler that goes with the C++ driver cxx: Q7CC_REAL_CC (a
 * path or a name on PATH), else the C driver in cxx's folder (the
 * vendor's xt-clang beside its xt-clang++), else that name on PATH; never
 * a q7cc. *name: what to call it when it is not found (caller frees). */
static char *find_cc(enum q7_toolchain_kind k, const char *cxx, char **name)
{
	const char *over = env("Q7CC_REAL_CC");
	if (over) {
		*name = q7_xstrdup(over);
		return q7_path_search(over, NULL);
	}
	*name = c_driver_name(cxx);
	if (!*name)
		*name = q7_xstrdup(bare_cc[k]);
	char *found = NULL;
	if (strchr(cxx, '/')) {
		char *dir = q7_xstrndup(cxx, (size_t)(q7_path_basename(cxx) - cxx));
		found = usable(q7_path_join(dir, *name));
		free(dir);
	}
	return found ? found : search_path(*name);
}

static const char *host_triple(void)
{
#if defined(__x86_64__)
	return "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
	return "aarch64-unknown-linux-gnu";
#elif defined(__i386__)
	return "i386-pc-linux-gnu";
#else
	return "unknown-unknown-linux-gnu";
#endif
}

/* "q7cc-host" -> "host": a driver named for its toolchain (docs/driver.md,
 * "Profiles"). */
static const char *toolchain_of_name(const char *argv0)
{
	const char *base = argv0 ? q7_path_basename(argv0) : "";
	if (strncmp(base, "q7cc-", 5) != 0)
		return NULL;
	/* q7cc-gnu-g++, q7cc-host-g++ (and -gcc, the C driver names):
	 * icecream distributes a compile only when its compiler's name holds
	 * "g++" or "gcc" (or clang's), takes a "gcc" for a C compiler, and
	 * runs GCC's name on the remote host (docs/driver.md, "icecream"). */
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(names[i]);
		const char *tail = base + 5 + n;
		if (strncmp(base + 5, names[i], n) == 0 &&
		    (!*tail || (i != Q7_TOOLCHAIN_XT &&
		                (strcmp(tail, "-g++") == 0 || strcmp(tail, "-gcc") == 0))))
			return names[i];
	}
	return NULL;
}

/* q7cc-gnu-gcc, q7cc-host-gcc: the C driver names. */
static bool called_as_c(const char *argv0)
{
	const char *base = argv0 ? q7_path_basename(argv0) : "";
	size_t n = strlen(base);
	return toolchain_of_name(argv0) && n > 4 && strcmp(base + n - 4, "-gcc") == 0;
}

/* True when q7cc's parent is a compiler cache. */
static bool under_compiler_cache(void)
{
	static const char *const caches[] = {"ccache", "sccache", "buildcache"};
	char link[64], exe[4096];
	snprintf(link, sizeof link, "/proc/%ld/exe", (long)getppid());
	ssize_t n = readlink(link, exe, sizeof exe - 1);
	if (n <= 0)
		return false;
	exe[n] = 0;
	for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++)
		if (strcmp(q7_path_basename(exe), caches[i]) == 0)
			return true;
	return false;
}

/* Detection: xt when the vendor compiler is there, else gnu. -1 when
 * neither is. *found: the compiler (caller frees), or NULL. */
static int detect(char **found)
{
	if ((*found = find_xt()))
		return Q7_TOOLCHAIN_XT;
	if ((*found = search_path(GNU_CXX)) || env("Q7CC_REAL_CXX"))
		return Q7_TOOLCHAIN_GNU;
	return -1;
}

/* Under a compiler cache, a Q7_TOOLCHAIN other than detection's is refused
 * (docs/driver.md, "Profiles", says why). */
static int check_env_choice(int kind)
{
	if (!under_compiler_cache())
		return 0;
	char *found = NULL;
	int detected = detect(&found);
	free(found);
	if (detected == kind)
		return 0;
	q7_error("Q7_TOOLCHAIN=%s picks the profile, but a compiler cache runs q7cc and does not "
	         "see the environment: it could serve a %s object to a %s compile; call q7cc-%s "
	         "(or pass --q7-toolchain=%s) instead",
	         names[kind], detected < 0 ? "gnu" : names[detected], names[kind], names[kind],
	         names[kind]);
	return Q7_EXIT_USAGE;
}

int q7_toolchain_select(struct q7_toolchain *p, const char *choice, const char *argv0)
{
	memset(p, 0, sizeof *p);
	bool from_env = false;
	if (!choice)
		choice = toolchain_of_name(argv0);
	p->c_name = called_as_c(argv0);
	if (!choice && (choice = env("Q7_TOOLCHAIN")))
		from_env = true;
	char *found = NULL;
	int kind = -1;
	if (choice) {
		for (int i = 0; i < 3; i++)
			if (strcmp(choice, names[i]) == 0)
				kind = i;
		if (kind < 0) {
			q7_error("unknown toolchain '%s': use xt, gnu or host", choice);
			return Q7_EXIT_USAGE;
		}
		int rc = from_env ? check_env_choice(kind) : 0;
		if (rc)
			return rc;
		found = kind == Q7_TOOLCHAIN_XT ? find_xt() : search_path(bare[kind]);
	} else {
		kind = detect(&found);
		if (kind < 0) {
			q7_error("no Xtensa toolchain found: xt-clang++ is not in "
			         "$XTENSA_TOOLS/XtensaTools/bin, " VENDOR_BIN " or on PATH, and "
			         GNU_CXX " is not on PATH");
			q7_note("install the Debian packages gcc-xtensa-lx106 binutils-xtensa-lx106 "
			        "picolibc-xtensa-lx106-elf (apt-get install ...), or choose "
			        "--q7-toolchain=host to build for this machine");
			return Q7_EXIT_TOOL;
		}
	}
	p->kind = (enum q7_toolchain_kind)kind;
	p->name = names[kind];
	const char *over = env("Q7CC_REAL_CXX");
	if (over) {
		free(found);
		found = q7_path_search(over, NULL);
	}
	p->found = found != NULL;
	p->cxx = found ? found : q7_xstrdup(over ? over : bare[kind]);
	char *cc_name;
	found = find_cc(p->kind, p->cxx, &cc_name);
	p->cc_found = found != NULL;
	p->cc = found ? found : q7_xstrdup(cc_name);
	free(cc_name);
	p->q7_include = q7_prefix_path("include/q7cc");
	p->triple = p->kind == Q7_TOOLCHAIN_HOST ? host_triple() : "i386-unknown-none";
	/* Why arm-none-eabi: docs/driver.md, "clangd and clang-tidy". */
	p->editor_triple = p->kind == Q7_TOOLCHAIN_HOST ? host_triple() : "arm-none-eabi";
	if (p->kind == Q7_TOOLCHAIN_XT) {
		const char *root = env("NEURON_CUSTOM_OP");
		const char *core = env("Q7_CORE");
		const char *tools = env("Q7_TOOLS");
		p->neuron_root = q7_xstrdup(root ? root : VENDOR_ROOT);
		p->core = q7_xstrdup(core ? core : "ncore2gp");
		p->system = tools ? q7_xstrdup(tools)
		                  : q7_xasprintf(VENDOR_TOOLS "/%s/config", p->core);
	}
	return 0;
}

bool q7_toolchain_clang_style(const struct q7_toolchain *p)
{
	if (p->kind != Q7_TOOLCHAIN_HOST) /* xt's is clang, gnu's GCC */
		return p->kind == Q7_TOOLCHAIN_XT;
	char *found = strchr(p->cxx, '/') ? q7_xstrdup(p->cxx) : q7_path_search(p->cxx, NULL);
	char *real = found ? realpath(found, NULL) : NULL;
	bool clang = strstr(q7_path_basename(real ? real : p->cxx), "clang") != NULL;
	free(real);
	free(found);
	return clang;
}

void q7_toolchain_free(struct q7_toolchain *p)
{
	free(p->cxx);
	free(p->cc);
	free(p->neuron_root);
	free(p->core);
	free(p->system);
	free(p->q7_include);
	memset(p, 0, sizeof *p);
}

void q7_toolchain_export_env(const struct q7_toolchain *p)
{
	setenv("Q7CC_ACTIVE", p->cxx, 1);
	if (p->kind != Q7_TOOLCHAIN_XT)
		return;
	/* The vendor driver defaults the license and appends the tools
	 * directory to PATH; the FlexLM-gated compiler needs both
	 * (docs/vendor-flow.md, "Compile flags"). */
	setenv("LM_LICENSE_FILE", VENDOR_LICENSE, 0);
	char *bin = xtensa_bin();
	const char *path = getenv("PATH");
	char *newpath = path && *path ? q7_xasprintf("%s:%s", path, bin) : q7_xstrdup(bin);
	setenv("PATH", newpath, 1);
	free(newpath);
	free(bin);
}
