/* The host library check (host_elf.h): the reads with libelf, bounded
 * by the file, then the probe (docs/runtime.md, "The run engine").
 * Memory: everything read is freed before the check returns. */
#include "host_elf.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "support.h"

#define PROBE_SECONDS 10 /* a loader and its constructors take milliseconds */

struct lib {
	const char *path;
	Elf *e;
	size_t n;
	Elf_Data *dyn; /* the dynamic section, which ends at a DT_NULL */
	uint64_t d[DT_NUM]; /* the standard tags' values */
	bool has[DT_NUM];
	const char *strtab;
	uint64_t strsz;
	struct q7_err *err; /* the caller's (a fixed or a growing carrier, or NULL) */
};

static int bad(struct lib *l, const char *fmt, ...) Q7_PRINTF(2, 3);
static int bad(struct lib *l, const char *fmt, ...)
{
	char why[256]; /* the longest reason is under 150 bytes */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	q7_err_set(l->err, l->path, "damaged host library: %s", why);
	return -1;
}

/* The PT_LOAD whose memory holds [a, a + len), into *p: false if none. */
static bool seg_of(const struct lib *l, uint64_t a, uint64_t len, GElf_Phdr *p)
{
	for (int i = 0; a + len >= a && gelf_getphdr(l->e, i, p); i++)
		if (p->p_type == PT_LOAD && a >= p->p_vaddr && a + len <= p->p_vaddr + p->p_memsz)
			return true;
	return false;
}

/* The file's bytes at link address [a, a + len), as libelf's type, when
 * they all lie in one segment's file part; else NULL. */
static Elf_Data *at(const struct lib *l, uint64_t a, uint64_t len, Elf_Type type)
{
	GElf_Phdr p;
	if (!seg_of(l, a, len, &p) || len == 0 || a + len > p.p_vaddr + p.p_filesz)
		return NULL;
	return elf_getdata_rawchunk(l->e, (int64_t)(p.p_offset + (a - p.p_vaddr)), len, type);
}

static int check_header(struct lib *l)
{
	GElf_Ehdr h;
	if (elf_kind(l->e) != ELF_K_ELF || !gelf_getehdr(l->e, &h)) {
		q7_err_set(l->err, l->path, "cannot load: not an ELF file (a host library is a "
		           "shared library q7cc linked with its host profile)");
		return -1;
	}
	if (h.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
		return bad(l, "ELF class %u, this host loads ELF%zu", h.e_ident[EI_CLASS],
		           8 * sizeof(void *));
	if (h.e_ident[EI_DATA] != ELFDATA2LSB)
		return bad(l, "byte order %u, not little-endian", h.e_ident[EI_DATA]);
	if (h.e_type != ET_DYN)
		return bad(l, "ELF type %u, not a shared library (%u)", h.e_type, ET_DYN);
	if (h.e_machine != Q7_HOST_MACHINE)
		return bad(l, "machine %u, not %s", h.e_machine, Q7_HOST_MACHINE_NAME);
	return 0;
}

/* Every segment's file part inside the file (the loader maps it: a page
 * past the end faults when read), and the dynamic section. */
static int check_segments(struct lib *l)
{
	size_t phnum;
	GElf_Phdr p;
	if (elf_getphdrnum(l->e, &phnum) != 0 || phnum == 0)
		return bad(l, "no program headers: %s", elf_errmsg(-1));
	for (size_t i = 0; i < phnum; i++) {
		if (!gelf_getphdr(l->e, (int)i, &p))
			return bad(l, "program header %zu: %s", i, elf_errmsg(-1));
		if (p.p_type == PT_NULL)
			continue;
		if (p.p_offset > l->n || p.p_filesz > l->n - p.p_offset)
			return bad(l, "program header %zu (type 0x%x): its %llu bytes at offset 0x%llx lie "
			           "past the end of the file (%zu bytes)",
			           i, (unsigned)p.p_type, (unsigned long long)p.p_filesz,
			           (unsigned long long)p.p_offset, l->n);
		/* Read where the loader reads it: at its address. */
		if (p.p_type == PT_DYNAMIC && !(l->dyn = at(l, p.p_vaddr, p.p_filesz, ELF_T_DYN)))
			return bad(l, "the dynamic section (program header %zu: %llu bytes at 0x%llx) is "
			           "not inside a loaded segment",
			           i, (unsigned long long)p.p_filesz, (unsigned long long)p.p_vaddr);
	}
	if (!l->dyn)
		return bad(l, "no dynamic section");
	return 0;
}

/* The loader files a tag it does not know by its low 32 bits (glibc's
 * DT_EXTRATAGIDX): DT_FILTER and DT_AUXILIARY, whose strings it loads,
 * are any tag that comes out as one of them. */
static bool filter_tag(int64_t t)
{
	int32_t low = (int32_t)((uint32_t)t << 1);
	uint32_t idx = (uint32_t)(-(int64_t)(low >> 1) - 1);
	return t == DT_FILTER || t == DT_AUXILIARY || idx == 0 || idx == 2;
}

/* The dynamic entries up to DT_NULL, and the string table they name. */
static int read_dynamic(struct lib *l)
{
	GElf_Dyn d = {.d_tag = DT_NEEDED};
	for (int i = 0; gelf_getdyn(l->dyn, i, &d) && d.d_tag != DT_NULL; i++) {
		/* A filter's library is loaded in its place: never a kernel
		 * library's, and "" makes the loader load itself for ever. */
		if (filter_tag(d.d_tag))
			return bad(l, "a filter library (DT_FILTER or DT_AUXILIARY), which a kernel "
			           "library is not");
		if (d.d_tag >= 0 && d.d_tag < DT_NUM) {
			l->d[d.d_tag] = d.d_un.d_val;
			l->has[d.d_tag] = true;
		}
	}
	if (d.d_tag != DT_NULL)
		return bad(l, "the dynamic section has no end (DT_NULL)");
	l->strsz = l->d[DT_STRSZ];
	Elf_Data *s = l->has[DT_STRTAB] ? at(l, l->d[DT_STRTAB], l->strsz, ELF_T_BYTE) : NULL;
	if (!s)
		return bad(l, "the string table (%llu bytes at 0x%llx) is not inside a loaded segment",
		           (unsigned long long)l->strsz, (unsigned long long)l->d[DT_STRTAB]);
	l->strtab = s->d_buf;
	if (l->strtab[l->strsz - 1] != 0)
		return bad(l, "the string table does not end with a NUL");
	return 0;
}

/* A relocation writing bytes at a: inside a writable segment (or any,
 * with text relocations). */
static bool writable(const struct lib *l, uint64_t a, unsigned bytes)
{
	bool textrel = l->has[DT_TEXTREL] || (l->d[DT_FLAGS] & DF_TEXTREL);
	GElf_Phdr p;
	return seg_of(l, a, bytes, &p) && ((p.p_flags & PF_W) || textrel);
}

static int check_relocs(struct lib *l, int addr_tag, int size_tag, const char *what)
{
	uint64_t size = l->has[addr_tag] ? l->d[size_tag] : 0;
	if (size == 0)
		return 0;
	Elf_Data *r = at(l, l->d[addr_tag], size, ELF_T_RELA);
	if (!r)
		return bad(l, "the %s relocations (%llu bytes at 0x%llx) are not inside a loaded segment",
		           what, (unsigned long long)size, (unsigned long long)l->d[addr_tag]);
	GElf_Rela rela;
	for (int i = 0; gelf_getrela(r, i, &rela); i++) {
		unsigned type = (unsigned)GELF_R_TYPE(rela.r_info);
		unsigned bytes = type == Q7_HOST_WIDE_RELOC ? 16 : 8;
		if (type != 0 && !writable(l, rela.r_offset, bytes))
			return bad(l, "%s relocation %d writes %u bytes at 0x%llx, outside the writable "
			           "segments",
			           what, i, bytes, (unsigned long long)rela.r_offset);
	}
	return 0;
}

/* A packed relocation's word at a: inside a writable segment. */
static int relr_word(struct lib *l, uint64_t a)
{
	if (!writable(l, a, 8))
		return bad(l, "a packed relocation writes at 0x%llx, outside the writable segments",
		           (unsigned long long)a);
	return 0;
}

/* RELR: packed relative relocations, an address (its low bit clear),
 * then bitmaps of the 63 words after the last one named. */
static int check_relr(struct lib *l)
{
	uint64_t size = l->has[DT_RELR] ? l->d[DT_RELRSZ] : 0;
	if (size == 0)
		return 0;
	Elf_Data *r = size % 8 == 0 ? at(l, l->d[DT_RELR], size, ELF_T_XWORD) : NULL;
	if (!r)
		return bad(l, "the packed relocations are not inside a loaded segment");
	const uint64_t *e = r->d_buf;
	uint64_t where = 0;
	for (uint64_t i = 0; i < size / 8; i++) {
		if (!(e[i] & 1)) {
			if (relr_word(l, e[i]) != 0)
				return -1;
			where = e[i] + 8;
			continue;
		}
		for (unsigned bit = 1; bit < 64; bit++)
			if ((e[i] >> bit) & 1 && relr_word(l, where + 8 * (bit - 1)) != 0)
				return -1;
		where += 8 * 63;
	}
	return 0;
}

/* "_Z8row_sumsRKN2at6TensorEf" -> "row_sums" into name: the symbol of a
 * function at namespace scope (_Z<len><name>, _ZN<len><ns>...<len><name>E)
 * taking a const at::Tensor & (RKN2at6TensorE), as a kernel does. */
static bool kernel_like(const char *sym, char *name, size_t size)
{
	if (strncmp(sym, "_Z", 2) != 0)
		return false;
	const char *p = sym + 2, *last = NULL;
	bool nested = *p == 'N';
	size_t len = 0;
	p += nested;
	do {
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		if (end == p || *p == '0' || n > strlen(end))
			return false;
		last = end;
		len = n;
		p = end + n;
	} while (nested && *p && *p != 'E');
	if (nested && *p++ != 'E')
		return false;
	if (!strstr(p, "RKN2at6TensorE"))
		return false;
	snprintf(name, size, "%.*s", (int)len, last);
	return true;
}

/* A kernel library defines q7_entry (the wrapper q7cc links in), among
 * its dynamic symbols (its SHT_DYNSYM section); one without it was linked
 * with no kernel marked, and the loader would only say which runtime
 * symbol it misses. Names the functions that look like kernels;
 * docs/driver.md, "Shared libraries without kernels". */
static int check_kernels(struct lib *l)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(l->e, scn)) &&
	       (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM))
		;
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d)
		return bad(l, "no dynamic symbol table (.dynsym) to read: %s", elf_errmsg(-1));
	struct q7_strbuf like = {0};
	unsigned n = 0;
	GElf_Sym s;
	for (int i = 0; gelf_getsym(d, i, &s); i++) {
		const char *sym = elf_strptr(l->e, sh.sh_link, s.st_name);
		char name[128];
		if (!sym || s.st_shndx == SHN_UNDEF || GELF_ST_BIND(s.st_info) != STB_GLOBAL)
			continue;
		if (strcmp(sym, "q7_entry") == 0) {
			q7_sb_free(&like);
			return 0;
		}
		if (GELF_ST_TYPE(s.st_info) == STT_FUNC && kernel_like(sym, name, sizeof name) && n < 8)
			q7_sb_addf(&like, "%s%s", n++ ? ", " : "", name);
	}
	char *doc = q7_doc_path("driver.md");
	q7_err_set(l->err, l->path,
	           "no kernels: not linked by q7cc with a kernel (it defines no q7_entry)%s%s%s; "
	           "mark each kernel with Q7_KERNEL from <q7/kernel.h> and build it again (%s, "
	           "\"Shared libraries without kernels\")",
	           n ? ", yet it defines functions that look like kernels (" : "",
	           n ? like.s : "", n ? ")" : "", doc);
	free(doc);
	q7_sb_free(&like);
	return -1;
}

/* The DT_NEEDED names with "asan" or "ubsan" into *runtimes, in order;
 * how many of them this process has not loaded. */
static int needed_runtimes(struct lib *l, struct q7_strvec *runtimes)
{
	GElf_Dyn d;
	int missing = 0;
	for (size_t i = 0; gelf_getdyn(l->dyn, (int)i, &d) && d.d_tag != DT_NULL; i++) {
		if (d.d_tag != DT_NEEDED)
			continue;
		if (d.d_un.d_val >= l->strsz)
			return bad(l, "a needed library's name (offset %llu) is past the string table's "
			           "%llu bytes",
			           (unsigned long long)d.d_un.d_val, (unsigned long long)l->strsz);
		const char *name = l->strtab + d.d_un.d_val;
		if (!strstr(name, "asan") && !strstr(name, "ubsan"))
			continue;
		void *h = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
		missing += !h;
		if (h)
			dlclose(h);
		if (runtimes)
			q7_sv_add(runtimes, name);
	}
	return missing;
}

/* The probe's process (a fork of the caller, or q7-run --q7-probe):
 * dlopen as the caller would, faults by default, no output, no core
 * file; writes whether dlopen returned a handle to fd, so that a
 * constructor ending the process (any status) is told from a load. */
void q7_host_elf_probe(const char *p, int fd)
{
	static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		signal(faults[i], SIG_DFL);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
	char loaded = dlopen(p, RTLD_NOW | RTLD_LOCAL) ? 'y' : 'n';
	_exit(write(fd, &loaded, 1) == 1 ? 0 : 1);
}

/* Starts the probe in a group of its own (what a constructor starts
 * there ends with it), fd its pipe's write end: q7cc's own q7-run
 * --q7-probe, a fresh process, when it is found, since a fork of a
 * multithreaded caller may find the loader's lock held by another
 * thread for good (docs/runtime.md, "The run engine"); else a fork. */
static pid_t start_probe(const char *p, int fd)
{
	char *run = q7_prefix_path("bin/q7-run");
	pid_t pid;
	if (access(run, X_OK) == 0) {
		char *opt = q7_xasprintf("--q7-probe=%s", p);
		char *argv[] = {run, opt, NULL};
		struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = Q7_PROC_NULL, .err = Q7_PROC_NULL,
		                         .fds = &fd, .nfds = 1, .pristine = true, .quiet = true,
		                         .dies_with_us = true};
		pid = q7_proc_spawn(argv, &o);
		free(opt);
	} else if ((pid = q7_proc_fork_group()) == 0) {
		q7_host_elf_probe(p, fd);
	}
	int saved = errno;
	free(run);
	errno = saved;
	return pid;
}

/* Loads the library in a child: 0 when it loaded there (or its dlopen
 * failed, which the caller's own dlopen reports), else -1 with err set. */
static int probe(struct lib *l)
{
	int fds[2]; /* not blocking: a constructor's own child may hold the write end */
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
		q7_err_set(l->err, l->path, "cannot check: pipe: %s", strerror(errno));
		return -1;
	}
	/* dlopen needs a slash to take a path as a path. */
	char *p = strchr(l->path, '/') ? q7_xstrdup(l->path) : q7_xasprintf("./%s", l->path);
	pid_t pid = start_probe(p, fds[1]);
	int fork_errno = errno;
	free(p);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		q7_err_set(l->err, l->path, "cannot check: fork: %s", strerror(fork_errno));
		return -1;
	}
	pid_t got;
	int st = 0;
	if (q7_proc_wait_any(&pid, 1, PROBE_SECONDS, &got, &st) == Q7_PROC_TIMEOUT) {
		q7_proc_kill(pid, SIGKILL);
		q7_proc_wait(pid, &st);
		close(fds[0]);
		return bad(l, "loading it in a child process did not end within %d s", PROBE_SECONDS);
	}
	char loaded = 0;
	bool told = read(fds[0], &loaded, 1) == 1;
	close(fds[0]);
	if (told && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	char how[128];
	q7_proc_describe(st, how, sizeof how);
	return bad(l, "loading it in a child process failed (the loader, or a constructor): %s%s", how,
	           told || !WIFEXITED(st) ? "" : ", before the load returned");
}

/* The reads, then (unless a sanitizer's runtime it needs is not in this
 * process, which only q7-run --sanitize starts with them) the probe. */
static int check_file(const char *path, bool kernels, struct q7_strvec *runtimes,
                      struct q7_err *err)
{
	struct lib l = {.path = path, .err = err};
	const char *why;
	char *bytes = q7_read_regular(path, Q7_READ_HOSTLIB_MAX, &l.n, &why);
	if (!bytes) {
		q7_err_set(l.err, path, "cannot read: %s", why);
		return -1;
	}
	elf_version(EV_CURRENT);
	l.e = elf_memory(bytes, l.n);
	int missing = -1;
	int rc = !l.e || check_header(&l) != 0 || check_segments(&l) != 0 ||
	                 read_dynamic(&l) != 0 || check_relocs(&l, DT_RELA, DT_RELASZ, "dynamic") != 0 ||
	                 check_relocs(&l, DT_JMPREL, DT_PLTRELSZ, "PLT") != 0 || check_relr(&l) != 0 ||
	                 (kernels && check_kernels(&l) != 0) ||
	                 (missing = needed_runtimes(&l, runtimes)) < 0 || (missing == 0 && probe(&l) != 0)
	             ? -1
	             : 0;
	if (!l.e)
		q7_err_set(l.err, path, "cannot load: %s", elf_errmsg(-1));
	elf_end(l.e);
	free(bytes);
	return rc;
}

int q7_host_elf_check(const char *path, struct q7_err *err)
{
	return check_file(path, false, NULL, err);
}

int q7_host_elf_check_kernels(const char *path, struct q7_err *err)
{
	return check_file(path, true, NULL, err);
}

int q7_host_elf_sanitizers(const char *path, struct q7_strvec *runtimes, struct q7_err *err)
{
	return check_file(path, true, runtimes, err);
}
