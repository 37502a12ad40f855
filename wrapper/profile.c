/* Choosing the toolchain profile and finding the real compiler. */
#include "profile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define XT_CXX "xt-clang++"
#define GNU_CXX "xtensa-lx106-elf-g++"
#define HOST_CXX "c++"
#define VENDOR_BIN "/opt/aws/neuron/gpsimd/bin"
#define VENDOR_ROOT "/opt/aws/neuron/gpsimd/custom_op"
#define VENDOR_TOOLS "/opt/aws/neuron/gpsimd/tools"
#define VENDOR_LICENSE "/opt/aws/neuron/gpsimd/tools/licenses/amzn_vq7_us_582883.out"

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* True when path is the running q7cc (the same inode), so that q7cc
 * installed as xt-clang++ never runs itself. */
static bool is_self(const char *path)
{
	static struct stat self;
	static int have = -1;
	if (have < 0)
		have = stat("/proc/self/exe", &self) == 0;
	struct stat st;
	return have && stat(path, &st) == 0 && st.st_dev == self.st_dev && st.st_ino == self.st_ino;
}

static char *usable(char *cand)
{
	if (cand && q7_path_is_executable(cand) && !is_self(cand))
		return cand;
	free(cand);
	return NULL;
}

/* PATH search that skips q7cc itself. */
static char *search_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *dir = n ? q7_xstrndup(p, n) : q7_xstrdup(".");
		char *cand = usable(q7_path_join(dir, name));
		free(dir);
		if (cand)
			return cand;
		if (!end)
			return NULL;
		p = end + 1;
	}
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

static char *find_for(enum q7_profile_kind k)
{
	switch (k) {
	case Q7_PROFILE_XT: return find_xt();
	case Q7_PROFILE_GNU: return search_path(GNU_CXX);
	case Q7_PROFILE_HOST: return search_path(HOST_CXX);
	}
	return NULL;
}

static const char *const names[] = {"xt", "gnu", "host"};
static const char *const bare[] = {XT_CXX, GNU_CXX, HOST_CXX};

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

int q7_profile_select(struct q7_profile *p, const char *choice, const char *argv0)
{
	memset(p, 0, sizeof *p);
	if (!choice)
		choice = env("Q7_TOOLCHAIN");
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
		found = find_for((enum q7_profile_kind)kind);
	} else {
		(void)argv0; /* masquerading or not, detection is the same */
		if ((found = find_xt()))
			kind = Q7_PROFILE_XT;
		else if ((found = search_path(GNU_CXX)))
			kind = Q7_PROFILE_GNU;
		else if (env("Q7CC_REAL_CXX"))
			kind = Q7_PROFILE_GNU;
		else {
			q7_error("no Xtensa toolchain found: xt-clang++ is not in "
			         "$XTENSA_TOOLS/XtensaTools/bin, " VENDOR_BIN " or on PATH, and "
			         GNU_CXX " is not on PATH");
			q7_note("install the Debian packages gcc-xtensa-lx106 binutils-xtensa-lx106 "
			        "picolibc-xtensa-lx106-elf (apt-get install ...), or choose "
			        "--q7-toolchain=host to build for this machine");
			return Q7_EXIT_TOOL;
		}
	}
	p->kind = (enum q7_profile_kind)kind;
	p->name = names[kind];
	const char *over = env("Q7CC_REAL_CXX");
	if (over) {
		free(found);
		found = q7_path_search(over, NULL);
		p->cxx = found ? q7_xstrdup(found) : q7_xstrdup(over);
	} else {
		p->cxx = found ? q7_xstrdup(found) : q7_xstrdup(bare[kind]);
	}
	p->found = found != NULL;
	free(found);
	p->q7_include = q7_prefix_path("include/q7cc");
	p->triple = p->kind == Q7_PROFILE_HOST ? host_triple() : "i386-unknown-none";
	if (p->kind == Q7_PROFILE_XT) {
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

void q7_profile_free(struct q7_profile *p)
{
	free(p->cxx);
	free(p->neuron_root);
	free(p->core);
	free(p->system);
	free(p->q7_include);
	memset(p, 0, sizeof *p);
}

void q7_profile_export_env(const struct q7_profile *p)
{
	setenv("Q7CC_ACTIVE", p->cxx, 1);
	if (p->kind != Q7_PROFILE_XT)
		return;
	/* Seed §2: the vendor driver defaults the license and appends the
	 * tools directory to PATH; the FlexLM-gated compiler needs both. */
	setenv("LM_LICENSE_FILE", VENDOR_LICENSE, 0);
	char *bin = xtensa_bin();
	const char *path = getenv("PATH");
	char *newpath = path && *path ? q7_xasprintf("%s:%s", path, bin) : q7_xstrdup(bin);
	setenv("PATH", newpath, 1);
	free(newpath);
	free(bin);
}
