/* tests/mutate: the mutation harness of the tools that read files
 * (docs/robustness.md): q7-pkg-loadlib, q7-prelink, q7-prelink --check, q7cc
 * --q7-print-schema on objects and archives, q7-run's .npy reader,
 * q7-run on host kernel libraries (--list, and calls of their ops), and
 * the pictures' readers: q7cc --q7-memory-map (text and SVG), the
 * profile's symbol reader with its folded and flame-graph writers, and
 * the folded reader (the SVGs must be well-formed XML, read by expat).
 *
 *   mutate TOOL WORKDIR COUNT SEED...
 *
 * Each of COUNT mutants is a seed file with a few deterministic edits
 * (fixed seeds: a run repeats exactly), most of them where the format's
 * structure is (ELF headers, section headers, dynamic tables, the op
 * records, the image inside a packed object, the NPY and Q7PL headers).
 * The tool runs on it in a forked child, through its own main function,
 * as the command line would run it, with its own $TMPDIR. Asserted for
 * every mutant:
 *   - no crash (death by a signal) and no hang (a child past TIME_LIMIT
 *     seconds is killed);
 *   - exit 0, or exit 1 with a message "<prog>: error: <input>..." that
 *     names the input file (a call of an op may name the op instead:
 *     what a damaged library's runtime says of its op);
 *   - no leftover: after a refusal the output folder and $TMPDIR are
 *     empty; after a success they hold exactly the outputs, and what the
 *     tool wrote is sound (a prelinked image passes its check, a .npy
 *     reads back the same).
 * A failing mutant is kept under WORKDIR/failures/ with its number.
 * Table-driven: one row per tool (argv variants, outputs, hot spots,
 * repair of checksums). */
#include <dirent.h>
#include <dlfcn.h>
#include <expat.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"
#include "elf_syms.h"
#include "insn_profile.h"
#include "memory_map.h"
#include "memory_map_main.h"
#include "npy.h"
#include "pack.h"
#include "prelink.h"
#include "run.h"
#include "support.h"
#include "syms_profile.h"
#include "tempfile.h"

#define TIME_LIMIT 20 /* seconds per mutant: far past any honest run */
#define MAX_HOT 64

/* ---- the tools ---- */

/* Runs one mutant in the child; returns the exit status. in is the
 * mutant, variant picks the argv. */
typedef int (*run_fn)(const char *in, unsigned variant);

static int run_main(int (*fn)(int, char **), const char *prog, const char *const *args)
{
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)prog;
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	q7_set_progname(prog);
	return fn(argc, argv);
}

/* The argv of variant v (rows of a table, NULL-ended), then in. */
static int run_variant(int (*fn)(int, char **), const char *prog, const char *const (*rows)[8],
                       size_t nrows, const char *in, unsigned v)
{
	const char *args[10];
	int n = 0;
	for (const char *const *a = rows[v % nrows]; *a; a++)
		args[n++] = *a;
	args[n++] = in;
	args[n] = NULL;
	return run_main(fn, prog, args);
}

static int run_pack(const char *in, unsigned v)
{
	static const char *const rows[][8] = {
		{"-o", "out/p.so", "-s", "out/s.so", NULL},
		{"-l", "-o", "out/p.so", NULL},
		{"-p", "4096", "-s", "out/s.so", NULL},
	};
	return run_variant(q7_pkg_loadlib_main, "q7-pkg-loadlib", rows, 3, in, v);
}

static int run_prelink(const char *in, unsigned v)
{
	static const char *const rows[][8] = {
		{"-o", "out/o.q7pl", NULL},
		{"--core=5", "-o", "out/o.q7pl", NULL},
		{"--base=0x60100000", "-o", "out/o.q7pl", NULL},
	};
	return run_variant(q7_prelink_main, "q7-prelink", rows, 3, in, v);
}

static int run_check(const char *in, unsigned v)
{
	(void)v;
	const char *args[] = {"--check", in, NULL};
	return run_main(q7_prelink_main, "q7-prelink", args);
}

static int run_schema(const char *in, unsigned v)
{
	const char *args[] = {"--q7-print-schema", in, v % 2 ? "--q7-format=json" : NULL, NULL};
	return run_main(q7_driver_main, "q7cc", args);
}

/* q7-run's reader; what it accepts is written back and read again. */
static int run_npy(const char *in, unsigned v)
{
	(void)v;
	q7_set_progname("q7-run");
	struct npy_array a, b;
	struct q7_err err = Q7_ERR_GROWING;
	int rc = npy_read(in, &a, &err);
	q7_err_print(&err);
	if (rc != 0)
		return 1;
	rc = npy_write("out/y.npy", a.dtype, a.ndim, a.sizes, a.data, &err) != 0 ? 74 : 0;
	q7_err_print(&err);
	if (rc == 0 && a.dtype != Q7_DTYPE_BFLOAT16) {
		int again = npy_read("out/y.npy", &b, &err);
		q7_err_print(&err);
		if (again != 0)
			return 98;
		size_t bytes = a.numel * q7_dtype_size(a.dtype);
		if (b.dtype != a.dtype || b.ndim != a.ndim || b.numel != a.numel ||
		    memcmp(b.sizes, a.sizes, sizeof a.sizes) != 0 ||
		    (bytes && memcmp(a.data, b.data, bytes) != 0)) {
			fprintf(stderr, "mutate: the .npy written back reads differently\n");
			rc = 99;
		}
		npy_free(&b);
	}
	npy_free(&a);
	return rc;
}

/* q7-run on a host library: its op list, or a call of one of the seeds'
 * ops, in its own process (the default) with a time limit. */
static const char *const host_rows[][8] = {
	{"--timeout=5", "--list", NULL},
	{"--timeout=5", "-o", "out/y.npy", "--", NULL},
	{"--timeout=5", "-o", "out/y.npy", "--", NULL},
};
static const char *const host_ops[][8] = {
	{NULL},
	{"relu_forward", "x.npy", NULL},
	{"affine", "x.npy", "3", "0.5", "1.5", "-2", NULL},
};

static int run_host(const char *in, unsigned v)
{
	const char *args[16];
	int n = 0;
	for (const char *const *a = host_rows[v % 3]; *a; a++)
		args[n++] = *a;
	args[n++] = in;
	for (const char *const *a = host_ops[v % 3]; *a; a++)
		args[n++] = *a;
	args[n] = NULL;
	return run_main(q7_run_main, "q7-run", args);
}

/* The op a call variant names: a refusal may name it instead of the
 * library. */
static const char *host_op(unsigned v)
{
	return host_ops[v % 3][0];
}

/* The calls' input. */
static void host_setup(void)
{
	static const float x[6] = {-1.5f, 0.0f, 2.0f, -0.25f, 7.0f, 1e-3f};
	static const uint32_t sizes[2] = {2, 3};
	if (npy_write("x.npy", Q7_DTYPE_FLOAT32, 2, sizes, x, NULL) != 0)
		exit(2);
	/* Loaded once here, so that no mutant loads it again (and every
	 * mutant's library finds it). */
	dlopen("libstdc++.so.6", RTLD_NOW | RTLD_GLOBAL);
}

/* q7cc --q7-memory-map: the report, and the picture. */
static int run_memmap(const char *in, unsigned v)
{
	const char *args[] = {in, v % 2 ? "-o" : NULL, "out/map.svg", NULL};
	return run_main(q7_memory_map_main, "q7cc", args);
}

/* The profile's reader and writers as q7-run --profile runs them after a
 * call: the image's symbols (q7_syms_load), a profile of the frames they
 * name (fuzz/syms_profile.h), written as a flame graph or folded stacks. */
static int run_profile(const char *in, unsigned v)
{
	q7_set_progname("q7-run");
	struct q7_syms syms;
	char err[512];
	if (q7_syms_load(in, 0, &syms, &Q7_ERR_OF(err)) != 0) {
		q7_error("%s", err);
		return 1;
	}
	struct q7_prof p;
	syms_profile(&p, &syms);
	int rc = q7_prof_write(&p, v % 2 ? "out/p.svg" : "out/p.folded", "mutant", &Q7_ERR_OF(err));
	if (rc != 0)
		q7_error("%s", err);
	q7_prof_free(&p);
	q7_syms_free(&syms);
	return rc ? 74 : 0;
}

/* The folded reader (q7_prof_add_folded), bounded as a reader of a file
 * is, and what it read written back. */
static int run_folded(const char *in, unsigned v)
{
	q7_set_progname("q7-run");
	const char *why = NULL;
	int fd = q7_open_regular(in, &why);
	size_t n = 0;
	bool more = false;
	char *text = fd >= 0 ? q7_read_upto(fd, 1u << 20, &n, &more) : NULL;
	if (fd >= 0)
		close(fd);
	if (!text || more || memchr(text, 0, n)) {
		q7_error("%s: %s", in, !text ? why : more ? "over 1 MiB" : "a NUL byte");
		free(text);
		return 1;
	}
	struct q7_prof p;
	q7_prof_init(&p);
	char err[512];
	int rc = 0;
	if (q7_prof_add_folded(&p, Q7_PROF_ROOT, text, in, &Q7_ERR_OF(err)) != 0) {
		q7_error("%s", err);
		rc = 1;
	} else if (q7_prof_write(&p, v % 2 ? "out/p.svg" : "out/p.folded", in, &Q7_ERR_OF(err)) != 0) {
		q7_error("%s", err);
		rc = 74;
	}
	q7_prof_free(&p);
	free(text);
	return rc;
}

/* After a success: the outputs, sorted, and a check of what they hold
 * (0 or a reason). */
static const char *pack_outputs(unsigned v)
{
	static const char *const o[] = {"p.so s.so", "p.so", "s.so"};
	return o[v % 3];
}
static const char *one_q7pl(unsigned v)
{
	(void)v;
	return "o.q7pl";
}
static const char *none(unsigned v)
{
	(void)v;
	return "";
}
static const char *one_npy(unsigned v)
{
	(void)v;
	return "y.npy";
}
static const char *host_outputs(unsigned v)
{
	return v % 3 ? "y.npy" : "";
}

static const char *map_outputs(unsigned v)
{
	return v % 2 ? "map.svg" : "";
}
static const char *profile_outputs(unsigned v)
{
	return v % 2 ? "p.svg" : "p.folded";
}

/* An SVG written is well-formed XML (expat), whatever names it holds. */
static const char *svg_sound(const char *path)
{
	size_t n;
	char *text = q7_read_file(path, &n);
	if (!text)
		return "cannot read it";
	XML_Parser xp = XML_ParserCreate("UTF-8");
	bool ok = XML_Parse(xp, text, (int)n, 1) == XML_STATUS_OK;
	static char why[160];
	if (!ok)
		snprintf(why, sizeof why, "not well-formed XML: %s at line %lu",
		         XML_ErrorString(XML_GetErrorCode(xp)), (unsigned long)XML_GetCurrentLineNumber(xp));
	XML_ParserFree(xp);
	free(text);
	return ok ? NULL : why;
}

/* Folded text written: each line "frame;...;frame COUNT", no control
 * byte, and it reads back to the same total. */
static const char *folded_sound(const char *path)
{
	char *text = q7_read_file(path, NULL);
	if (!text)
		return "cannot read it";
	const char *why = NULL;
	for (const unsigned char *c = (const unsigned char *)text; *c && !why; c++)
		if ((*c < 0x20 && *c != '\n') || *c == 0x7f)
			why = "a control byte in a line";
	struct q7_prof p;
	q7_prof_init(&p);
	char err[256];
	if (!why && q7_prof_add_folded(&p, Q7_PROF_ROOT, text, path, &Q7_ERR_OF(err)) != 0)
		why = "it does not read back";
	q7_prof_free(&p);
	free(text);
	return why;
}

static const char *map_sound(void)
{
	return q7_path_exists("out/map.svg") ? svg_sound("out/map.svg") : NULL;
}
static const char *profile_sound(void)
{
	return q7_path_exists("out/p.svg") ? svg_sound("out/p.svg") : folded_sound("out/p.folded");
}

static const char *prelinked_sound(void)
{
	size_t n;
	char *buf = q7_read_file("out/o.q7pl", &n);
	struct q7_pl_header h;
	const char *why = "cannot read it";
	int rc = buf ? q7_prelinked_check(buf, n, &h, &why) : 1;
	free(buf);
	return rc ? why : NULL;
}

/* Q7PL: both checksums repaired, so the field checks are what decides. */
static void fix_q7pl(unsigned char *p, size_t n)
{
	if (n < Q7_PL_HEADER_SIZE)
		return;
	uint32_t load;
	memcpy(&load, p + 12, 4);
	if (load <= n - Q7_PL_HEADER_SIZE) {
		uint32_t crc = q7_crc32(0, p + Q7_PL_HEADER_SIZE, load);
		memcpy(p + 28, &crc, 4);
	}
	uint32_t hcrc = q7_crc32(0, p, Q7_PL_HEADER_CRC_SPAN);
	memcpy(p + 44, &hcrc, 4);
}

static const struct tool {
	const char *name, *prog, *ext;
	run_fn run;
	const char *(*outputs)(unsigned variant);
	const char *(*sound)(void);      /* NULL: nothing more to check */
	void (*fix)(unsigned char *, size_t); /* applied to 3 mutants in 4 */
	size_t header;                   /* hot bytes at the start */
	const char *(*op)(unsigned variant); /* NULL: a refusal names the input only */
	void (*setup)(void);             /* NULL, or run once in WORKDIR */
} tools[] = {
	{"pack", "q7-pkg-loadlib", ".so", run_pack, pack_outputs, NULL, NULL, 512, NULL, NULL},
	{"prelink", "q7-prelink", ".so", run_prelink, one_q7pl, prelinked_sound, NULL, 512, NULL, NULL},
	{"check", "q7-prelink", ".q7pl", run_check, none, NULL, fix_q7pl, Q7_PL_HEADER_SIZE, NULL,
	 NULL},
	{"schema", "q7cc", ".o", run_schema, none, NULL, NULL, 512, NULL, NULL},
	{"npy", "q7-run", ".npy", run_npy, one_npy, NULL, NULL, 128, NULL, NULL},
	{"host", "q7-run", ".so", run_host, host_outputs, NULL, NULL, 512, host_op, host_setup},
	{"memmap", "q7cc", ".so", run_memmap, map_outputs, map_sound, NULL, 512, NULL, NULL},
	{"profile", "q7-run", ".so", run_profile, profile_outputs, profile_sound, NULL, 512, NULL,
	 NULL},
	{"folded", "q7-run", ".folded", run_folded, profile_outputs, profile_sound, NULL, 4096, NULL,
	 NULL},
};

/* ---- seeds and their hot spots ---- */

struct range {
	size_t off, len;
};

struct seed {
	char *path;
	unsigned char *bytes;
	size_t size;
	struct range hot[MAX_HOT];
	unsigned nhot;
};

static void add_hot(struct seed *s, size_t off, size_t len)
{
	if (s->nhot < MAX_HOT && off < s->size && len) {
		if (len > s->size - off)
			len = s->size - off;
		s->hot[s->nhot++] = (struct range){off, len};
	}
}

/* The sections whose bytes the tools interpret. */
static bool interpreted(const char *name)
{
	static const char *const names[] = {".q7.ops", ".dynamic", ".rela.dyn", ".rela.plt",
	                                    ".dynsym", ".dynstr", ".hash", ".symtab", ".strtab",
	                                    ".shstrtab"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* ELF: the headers, the section header table, the interpreted sections;
 * in a packed object, the same again for the image inside .rodata; in an
 * archive, each member. */
static void elf_hot(struct seed *s, size_t base, size_t len, int depth)
{
	Elf *e = elf_memory((char *)s->bytes + base, len);
	if (!e)
		return;
	if (elf_kind(e) == ELF_K_AR) {
		Elf_Cmd cmd = ELF_C_READ;
		Elf *m;
		while ((m = elf_begin(-1, cmd, e)) != NULL) {
			size_t mlen;
			char *raw = elf_rawfile(m, &mlen);
			if (raw && elf_kind(m) == ELF_K_ELF)
				elf_hot(s, (size_t)((unsigned char *)raw - s->bytes), mlen, depth + 1);
			cmd = elf_next(m);
			elf_end(m);
		}
		elf_end(e);
		return;
	}
	GElf_Ehdr eh;
	size_t shstrndx;
	if (elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh)) {
		add_hot(s, base, 512 < len ? 512 : len);
		add_hot(s, base + eh.e_shoff, (size_t)eh.e_shnum * eh.e_shentsize);
		if (elf_getshdrstrndx(e, &shstrndx) == 0) {
			for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
				GElf_Shdr sh;
				const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
				if (!name || sh.sh_type == SHT_NOBITS || sh.sh_offset > len)
					continue;
				if (interpreted(name))
					add_hot(s, base + sh.sh_offset, sh.sh_size);
				if (strcmp(name, ".rodata") == 0 && depth == 0 && sh.sh_size > 4 &&
				    sh.sh_size <= len - sh.sh_offset &&
				    memcmp(s->bytes + base + sh.sh_offset, ELFMAG, SELFMAG) == 0)
					elf_hot(s, base + sh.sh_offset, sh.sh_size, depth + 1);
			}
		}
	}
	elf_end(e);
}

static void load_seed(struct seed *s, const char *path, const struct tool *t)
{
	memset(s, 0, sizeof *s);
	s->path = q7_xstrdup(path);
	s->bytes = (unsigned char *)q7_read_file(path, &s->size);
	if (!s->bytes || s->size < 16) {
		fprintf(stderr, "mutate: %s: cannot read the seed\n", path);
		exit(2);
	}
	add_hot(s, 0, t->header);
	elf_hot(s, 0, s->size, 0);
}

/* ---- mutations (xorshift64: fixed seeds, runs repeat) ---- */

static uint64_t state;

static uint32_t rnd(uint32_t n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return n ? (uint32_t)(state % n) : 0;
}

/* A position: most in a hot spot, the rest anywhere. */
static size_t pick(const struct seed *s, size_t n)
{
	if (s->nhot && rnd(10) < 7) {
		const struct range *r = &s->hot[rnd(s->nhot)];
		size_t at = r->off + rnd((uint32_t)r->len);
		return at < n ? at : rnd((uint32_t)n);
	}
	return rnd((uint32_t)n);
}

static void put32(unsigned char *p, size_t n, size_t at, uint32_t v)
{
	for (int i = 0; i < 4 && at + (size_t)i < n; i++)
		p[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Edits buf (a copy of the seed, n bytes); returns the new length. */
static size_t mutate(const struct seed *s, unsigned char *buf, size_t n)
{
	unsigned edits = 1 + rnd(3);
	for (unsigned e = 0; e < edits && n; e++) {
		switch (rnd(8)) {
		case 0: case 1: case 2: { /* bytes */
			unsigned k = 1 + rnd(4);
			for (unsigned i = 0; i < k; i++) {
				static const unsigned char special[] = {0x00, 0xff, 0x7f, 0x80, 0x01};
				buf[pick(s, n)] = rnd(3) ? (unsigned char)rnd(256) : special[rnd(5)];
			}
			break;
		}
		case 3: case 4: { /* a word set to a value that tests bounds */
			uint32_t vals[] = {0,          1,          0x7fffffff, 0x80000000, 0xffffffff,
			                   0xfffffff0, (uint32_t)n, (uint32_t)n + 1, (uint32_t)n - 1,
			                   0x10000,    0x8000,     0xfffffff8};
			size_t at = pick(s, n) & ~(size_t)3;
			put32(buf, n, at, vals[rnd(sizeof vals / sizeof vals[0])]);
			break;
		}
		case 5: /* cut */
			n = rnd((uint32_t)n);
			break;
		case 6: { /* zeros */
			size_t at = pick(s, n), len = 1 + rnd(256);
			memset(buf + at, 0, len < n - at ? len : n - at);
			break;
		}
		default: { /* a piece of the file copied over another */
			size_t from = rnd((uint32_t)n), to = pick(s, n), len = 1 + rnd(64);
			if (len > n - from)
				len = n - from;
			if (len > n - to)
				len = n - to;
			memmove(buf + to, buf + from, len);
			break;
		}
		}
	}
	return n;
}

/* ---- running and judging ---- */

static int not_dot(const struct dirent *d)
{
	return strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0;
}

/* The names in dir, sorted, joined by spaces. */
static char *listing(const char *dir)
{
	struct dirent **names;
	struct q7_strbuf b = {0};
	int n = scandir(dir, &names, not_dot, alphasort);
	for (int i = 0; i < n; i++) {
		q7_sb_addf(&b, "%s%s", b.len ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	else
		q7_sb_add(&b, "(unreadable)");
	return q7_sb_take(&b);
}

static void empty_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, not_dot, alphasort);
	for (int i = 0; i < n; i++) {
		char *p = q7_path_join(dir, names[i]->d_name);
		if (unlink(p) != 0) { /* a q7cc.XXXXXX left in tmp/ */
			empty_dir(p);
			rmdir(p);
		}
		free(p);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* Under ASan, LeakSanitizer's check at exit takes about a second in a
 * forked child: every LEAK_EVERY-th child exits with it, the others end
 * as exit() would without it (the temporaries removed, stdio flushed). */
#if defined(__SANITIZE_ADDRESS__)
#define LEAK_EVERY 50
#else
#define LEAK_EVERY 1
#endif

/* Runs the tool on in/ in a child; fills *status (wait status). */
static void run_child(const struct tool *t, const char *in, unsigned variant, bool leak_check,
                      int *status)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("mutate: fork");
		exit(2);
	}
	if (pid == 0) {
		int fd = open("err", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd < 0 || null < 0 || dup2(fd, 2) < 0 || dup2(null, 1) < 0 || dup2(null, 0) < 0)
			_exit(97);
		alarm(TIME_LIMIT);
		int rc = t->run(in, variant);
		if (leak_check)
			exit(rc);
		q7_temp_cleanup();
		fflush(NULL);
		_exit(rc);
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* The judgement of one run: NULL, or what is wrong. */
static char *judge(const struct tool *t, const char *in, unsigned variant, int st)
{
	char *why = NULL, *out = listing("out"), *tmp = listing("tmp");
	size_t n = 0;
	char *err = q7_read_file("err", &n);
	if (!err)
		err = q7_xstrdup("");
	char *needle = q7_xasprintf("%s: error: %s", t->prog, in);
	const char *op = t->op ? t->op(variant) : NULL;
	char *op_needle = op ? q7_xasprintf("%s: error: %s", t->prog, op) : NULL;
	bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	const char *unsound = ok && t->sound && strcmp(out, t->outputs(variant)) == 0 ? t->sound() : NULL;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		why = q7_xasprintf("hang: still running after %d s", TIME_LIMIT);
	else if (WIFSIGNALED(st))
		why = q7_xasprintf("crash: %s", strsignal(WTERMSIG(st)));
	else if (ok && strcmp(out, t->outputs(variant)) != 0)
		why = q7_xasprintf("accepted, but the outputs are '%s', not '%s'", out, t->outputs(variant));
	else if (unsound)
		why = q7_xasprintf("accepted, but its output is unsound: %s", unsound);
	else if (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 1)
		why = q7_xasprintf("exit %d (a refusal is 1)", WEXITSTATUS(st));
	else if (WEXITSTATUS(st) == 1 && !strstr(err, needle) && !(op_needle && strstr(err, op_needle)))
		why = q7_xasprintf("refused without naming the input ('%s...')", needle);
	else if (WEXITSTATUS(st) == 1 && out[0])
		why = q7_xasprintf("refused, but left '%s'", out);
	else if (tmp[0])
		why = q7_xasprintf("left '%s' in $TMPDIR", tmp);
	if (why && err[0]) {
		char *w = q7_xasprintf("%s\n    stderr: %.400s", why, err);
		free(why);
		why = w;
	}
	free(needle);
	free(op_needle);
	free(err);
	free(out);
	free(tmp);
	return why;
}

/* Globals, so that a child's leak check finds them reachable. */
static struct seed *seeds;
static char *in;

static const struct tool *find_tool(const char *name)
{
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
		if (strcmp(tools[i].name, name) == 0)
			return &tools[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct tool *t = argc >= 5 ? find_tool(argv[1]) : NULL;
	if (!t) {
		fprintf(stderr, "usage: mutate pack|prelink|check|schema|npy|host|memmap|profile|folded "
		                "WORKDIR COUNT SEED...\n");
		return 2;
	}
	const char *work = argv[2];
	unsigned count = (unsigned)strtoul(argv[3], NULL, 10);
	unsigned nseeds = (unsigned)(argc - 4);
	elf_version(EV_CURRENT);
	seeds = q7_xcalloc(nseeds, sizeof *seeds);
	for (unsigned i = 0; i < nseeds; i++)
		load_seed(&seeds[i], argv[4 + i], t);
	/* The children find their files relative to WORKDIR. */
	mkdir(work, 0755);
	if (chdir(work) != 0) {
		fprintf(stderr, "mutate: %s: %s\n", work, strerror(errno));
		return 2;
	}
	mkdir("in", 0755);
	mkdir("out", 0755);
	mkdir("tmp", 0755);
	mkdir("failures", 0755);
	empty_dir("in");
	empty_dir("out");
	empty_dir("tmp");
	empty_dir("failures");
	char *tmp = realpath("tmp", NULL);
	setenv("TMPDIR", tmp, 1);
	free(tmp);
	setenv("Q7CC_ANALYSIS_SERVER", "0", 1);
	unsetenv("Q7CC_SAVE_TEMPS");
	if (t->setup)
		t->setup();

	in = q7_xasprintf("in/mutant%s", t->ext);
	state = 0x9e3779b97f4a7c15ull ^ (uint64_t)t->name[0] << 32 ^ (uint64_t)t->name[1] << 40;
	unsigned accepted = 0, refused = 0, bad = 0;
	for (unsigned k = 0; k < count; k++) {
		const struct seed *s = &seeds[k % nseeds];
		unsigned char *buf = q7_xmalloc(s->size);
		memcpy(buf, s->bytes, s->size);
		size_t n = mutate(s, buf, s->size);
		if (t->fix && rnd(4))
			t->fix(buf, n);
		unsigned variant = rnd(6);
		FILE *f = fopen(in, "wb");
		if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
			fprintf(stderr, "mutate: cannot write %s\n", in);
			return 2;
		}
		free(buf); /* nothing of the parent's to leak in the child */
		int st;
		run_child(t, in, variant, k % LEAK_EVERY == 0, &st);
		char *why = judge(t, in, variant, st);
		if (why) {
			char *keep = q7_xasprintf("failures/%s-%u%s", t->name, k, t->ext);
			rename(in, keep);
			fprintf(stderr, "%s mutant %u (of %s, variant %u, kept as %s/%s): %s\n", t->name, k,
			        s->path, variant, work, keep, why);
			free(keep);
			free(why);
			bad++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			accepted++;
		} else {
			refused++;
		}
		empty_dir("out");
		empty_dir("tmp");
		unlink(in);
	}
	printf("%s: %u mutants of %u seed%s: %u accepted, %u refused cleanly, %u wrong\n", t->name,
	       count, nseeds, nseeds == 1 ? "" : "s", accepted, refused, bad);
	for (unsigned i = 0; i < nseeds; i++) {
		free(seeds[i].path);
		free(seeds[i].bytes);
	}
	free(seeds);
	free(in);
	return bad ? 1 : 0;
}
