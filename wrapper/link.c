/* Link mode (a shared-library output): records from every input, the
 * definitions of NEURON_LIBRARY-named kernels from their symbols, merge,
 * wrapper.cpp, its compile, one link or eight in parallel, then strip and
 * pack each image unless the user asked for -g. The outputs are one set
 * (outset.h; docs/driver.md, "Outputs"). */
#include "bytes.h"
#include "codegen.h"
#include "image.h"
#include "ldsplit.h"
#include "lsp.h"
#include "manifest.h"
#include "modes.h"
#include "objcache.h"
#include "outset.h"
#include "pack.h"
#include "record.h"
#include "schema.h"
#include "symbols.h"
#include "proc.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where this link writes an image and its twins: in the staging folder
 * (owned by the outset). name, stripped_name, packed_name: their own
 * paths, for messages. */
struct image {
	const char *so, *stripped, *packed;
	char *name, *stripped_name, *packed_name;
};

/* An object or archive of the link line: records and symbols are read
 * from it. */
struct link_input {
	char *path;       /* as ld gets it */
	char *src;        /* a source on the line, compiled to path first; else NULL */
	bool seen;        /* a regular file when the link began, */
	struct stat st;   /* which was this */
};

struct link {
	struct q7_drv *d;
	const char *out;
	char *base;
	struct link_input *in; /* the link line's files, in order */
	size_t nin, in_cap;
	struct q7_strvec words; /* its positional words (the files and -lNAME,
	                         * ...), in order: what ld gets */
	struct image img[Q7_NUM_CORES];
	int nimg;
	struct q7_outset set;
	const char *manifest; /* multicore: where -o is written */
	bool progress;        /* -v with multicore: a line a step */
	bool tty_line;        /* stderr a terminal: one line written over */
	bool shown;           /* that line is on the screen */
	double t0, after;     /* the link's start; the line once it took this */
	int step;             /* the step on the line: what, file */
	const char *what, *file;
	struct q7_strbuf dispatch_text; /* wrapper.cpp's, the cache's key */
	const char *dispatch_dep;       /* the dispatch wrapper compile's dependencies */
	char *dispatch_err;             /* its stderr, under GCC's json (or NULL) */
};

static bool regular(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

static void add_input(struct link *l, const char *path, const char *src)
{
	Q7_GROW(l->in, l->in_cap, l->nin + 1);
	l->in[l->nin++] = (struct link_input){.path = q7_xstrdup(path),
	                                      .src = src ? q7_xstrdup(src) : NULL};
	q7_sv_add(&l->words, path);
}

static int collect_inputs(struct link *l)
{
	const struct q7_inv *inv = &l->d->inv;
	unsigned nsrc = 0;
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		if (u->input == Q7_IN_LINK) {
			add_input(l, u->tok[0], NULL);
		} else if (u->input) {
			/* A source on the link line: compiled (and analysed) first. */
			char *name = q7_xasprintf("%u-%s.o", ++nsrc, q7_path_basename(u->tok[0]));
			char *obj = q7_drv_temp_path(l->d, name);
			free(name);
			int rc = q7_compile_one(l->d, u->tok[0], u->input, obj, true);
			if (rc == 0)
				add_input(l, obj, u->tok[0]);
			free(obj);
			if (rc)
				return rc;
		} else if (q7_unit_flags(u) & Q7_OPT_POSITIONAL) {
			if (q7_toolchain_keeps(&l->d->tc, u))
				for (int t = 0; t < u->ntok; t++)
					q7_sv_add(&l->words, u->tok[t]);
		}
	}
	for (size_t i = 0; i < l->nin; i++) /* for inputs_unchanged */
		l->in[i].seen = regular(l->in[i].path, &l->in[i].st);
	return 0;
}

/* docs/driver.md, "Inputs that change under the link". */
static int inputs_unchanged(const struct link *l)
{
	for (size_t i = 0; i < l->nin; i++) {
		const struct stat *was = &l->in[i].st;
		struct stat now;
		if (!l->in[i].seen)
			continue;
		if (!regular(l->in[i].path, &now) || now.st_dev != was->st_dev ||
		    now.st_ino != was->st_ino || now.st_size != was->st_size ||
		    now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
		    now.st_mtim.tv_nsec != was->st_mtim.tv_nsec) {
			q7_error("%s: changed while it was linked (another build writing it at the same "
			         "time?); no output was written: link again",
			         l->in[i].path);
			return Q7_EXIT_ERROR;
		}
	}
	return 0;
}

/* Kernels named (NEURON_LIBRARY) or declared without a record of their
 * definition: found in the inputs' symbol tables. Only such links read
 * symbols. */
static int resolve_symbols(struct link *l, struct q7_op_table *all, struct q7_diags *diags)
{
	struct q7_strvec names = {0};
	q7_ops_unresolved(all, &names);
	int rc = 0;
	if (names.n) {
		struct q7_fsyms syms = {0};
		struct q7_err err = Q7_ERR_GROWING;
		for (size_t i = 0; i < l->nin && rc == 0; i++)
			if (q7_symbols_read(l->in[i].path, &names, &syms, &err) != 0)
				rc = Q7_EXIT_ERROR;
		q7_err_print(&err);
		if (rc == 0)
			q7_ops_resolve(all, &syms, l->d->tc.name, diags);
		q7_fsyms_free(&syms);
	}
	q7_sv_free(&names);
	return rc;
}

/* The ops without a NEURON_LIBRARY namespace take the library's name
 * ("libmy_ops.so": my_ops), as the vendor's custom_op.load(name) registers
 * them; -v shows each op's schema as the dispatch wrapper embeds it. */
static void name_ops(const struct link *l, struct q7_op_table *ops)
{
	char *ns = q7_library_namespace(l->out);
	for (size_t i = 0; i < ops->n; i++) {
		struct q7_op *op = &ops->ops[i];
		if (ns && !*op->ns) {
			free(op->ns);
			op->ns = q7_xstrdup(ns);
		}
		q7_step_note_op(l->d, "op", op);
	}
	free(ns);
}

/* A host library whose objects' data alone would overflow a device core's
 * window: the device link's error, as a warning (docs/driver.md, "Device
 * limits at the host build"). */
static int check_data(struct link *l, struct q7_diags *diags)
{
	uint64_t bytes = 0;
	struct q7_err err = Q7_ERR_GROWING;
	for (size_t i = 0; i < l->nin; i++)
		if (q7_symbols_data_bytes(l->in[i].path, &bytes, &err) != 0) {
			q7_err_print(&err);
			return Q7_EXIT_ERROR;
		}
	const struct q7_lsp *lsp = q7_lsp_get(l->d->inv.multicore ? 0 : Q7_LSP_SINGLE);
	if (bytes > lsp->sram_len)
		q7_diags_add(diags, Q7_SEV_WARNING, l->out, 0, 0, "q7-image-size",
		             "the library's objects hold %llu bytes of data (.data, .rodata, .bss), "
		             "more than a device core's window of %u bytes (%s): its device link "
		             "would fail",
		             (unsigned long long)bytes, (unsigned)lsp->sram_len, lsp->name);
	return 0;
}

/* The device's limits that the objects tell: the kernels' stacks against
 * the core's (docs/driver.md, "The kernel's stack at the build"), from the
 * figures the compiles kept in the objects, and on the host toolchain the
 * data against a core's window; a host library is told them as warnings. */
static int device_limits(struct link *l, const struct q7_op_table *ops, struct q7_diags *diags)
{
	struct q7_strvec texts = {0};
	struct q7_err err = Q7_ERR_GROWING;
	int rc = 0;
	bool host = l->d->tc.kind == Q7_TOOLCHAIN_HOST;
	for (size_t i = 0; i < l->nin && rc == 0; i++) {
		size_t before = texts.n;
		if (q7_section_read(l->in[i].path, Q7_STACK_SECTION, &texts, &err) != 0)
			rc = Q7_EXIT_ERROR;
		/* the figures are the objects' word: checked before trusted */
		for (size_t k = before; k < texts.n && rc == 0; k++)
			if (q7_stack_payload_check(texts.v[k], l->in[i].path, &err) != 0)
				rc = Q7_EXIT_ERROR;
	}
	q7_err_print(&err);
	if (rc == 0 && texts.n)
		q7_stack_check(ops, &texts, host, diags);
	q7_sv_free(&texts);
	if (rc == 0 && host)
		rc = check_data(l, diags);
	return rc;
}

/* Reads and merges the records; the merged table goes to ops. */
static int collect_records(struct link *l, struct q7_op_table *ops)
{
	struct q7_drv *d = l->d;
	q7_step_note(d, "collect records from %zu input%s", l->nin, l->nin == 1 ? "" : "s");
	if (!q7_step_do(d, "merge records"))
		return 0;
	struct q7_op_table all = {0};
	struct q7_err err = Q7_ERR_GROWING;
	int rc = 0;
	for (size_t i = 0; i < l->nin && rc == 0; i++) {
		size_t before = all.n;
		if (q7_record_read(l->in[i].path, &all, &err) != 0)
			rc = Q7_EXIT_ERROR;
		/* A source of this command line: its object is a temporary, and
		 * the diagnostic's place names the source; no "recorded in". */
		for (size_t k = before; l->in[i].src && k < all.n; k++) {
			free(all.ops[k].from);
			all.ops[k].from = NULL;
		}
	}
	q7_err_print(&err);
	if (rc == 0) {
		struct q7_diags diags = {0};
		rc = resolve_symbols(l, &all, &diags);
		if (rc == 0)
			q7_ops_merge(&all, d->tc.name, ops, &diags);
		if (rc == 0)
			rc = device_limits(l, ops, &diags);
		size_t errors = q7_diags_apply_policy(&diags, &d->policy);
		q7_drv_print(d, &diags);
		q7_diags_free(&diags);
		if (errors && rc == 0)
			rc = Q7_EXIT_ERROR;
	}
	if (rc == 0)
		name_ops(l, ops);
	q7_ops_free(&all);
	return rc;
}

/* docs/driver.md, "Debug builds and the packed image". */
static bool unpacked(const struct q7_drv *d)
{
	return d->inv.debug && !d->inv.pack;
}

/* The set: each image (-o itself on a single core) with its stripped
 * and packed twins, then the manifest. A -g link writes no twins, and
 * removes those of an earlier build, which would not match its image.
 * own: the compiler's own link, whose set is -o alone (own_link): it
 * names the images to remove what a kernel link of -o wrote before. */
static void name_images(struct link *l, bool own)
{
	bool multi = l->d->inv.multicore;
	int n = multi ? Q7_NUM_CORES : 1;
	for (int i = 0; i < n; i++) {
		struct image *m = &l->img[i];
		char *stem = multi ? q7_xasprintf("%s_cpu%d", l->base, i) : q7_xstrdup(l->base);
		char *stripped = q7_xasprintf("%s.stripped.so", stem);
		char *packed = q7_xasprintf("%s.packed.so", stem);
		char *name = multi ? q7_xasprintf("%s.so", stem) : q7_xstrdup(l->set.head);
		if (!own) {
			m->so = q7_outset_add(&l->set, name);
		} else if (multi) {
			q7_outset_drop(&l->set, name);
		}
		if (own || unpacked(l->d)) {
			q7_outset_drop(&l->set, stripped);
			q7_outset_drop(&l->set, packed);
		} else {
			m->stripped = q7_outset_add(&l->set, stripped);
			m->packed = q7_outset_add(&l->set, packed);
		}
		/* The names in messages: a full disk names libk.stripped.so,
		 * not the staging folder. */
		m->name = name;
		m->stripped_name = stripped;
		m->packed_name = packed;
		free(stem);
	}
	if (multi && !own)
		l->manifest = q7_outset_add(&l->set, l->set.head);
	l->nimg = own ? 0 : n;
}

/* The one -Wq7-no-kernels message: "no kernels in this shared-library
 * link" and what; an error (demotable) or a warning. The errors it made. */
static size_t no_kernels(struct q7_drv *d, const char *out, bool error, const char *what)
{
	struct q7_diags diags = {0};
	q7_diags_add(&diags, error ? Q7_SEV_ERROR : Q7_SEV_WARNING, out, 0, 0, "q7-no-kernels",
	             "no kernels in this shared-library link%s %s", error ? "," : ":", what);
	diags.d[diags.n - 1].demotable = error;
	size_t errors = q7_drv_report(d, &diags, NULL);
	q7_diags_free(&diags);
	return errors;
}

/* Whether an input calls real libtorch: an undefined at::, c10:: or
 * torch:: symbol (docs/driver.md, "Shared libraries without kernels"). */
static bool calls_libtorch(const struct link *l)
{
	static const char *const ns[] = {"_ZN2at", "_ZNK2at", "_ZN3c10", "_ZNK3c10", "_ZN5torch",
	                                 "_ZNK5torch"};
	bool calls = false;
	for (size_t i = 0; i < l->nin && !calls; i++) {
		struct q7_strvec undefined = {0};
		struct q7_err err = Q7_ERR_GROWING;
		bool read = q7_symbols_globals(l->in[i].path, &undefined, NULL, &err) == 0;
		q7_err_print(&err);
		if (read)
			for (size_t k = 0; k < undefined.n && !calls; k++)
				for (size_t j = 0; j < sizeof ns / sizeof *ns && !calls; j++)
					calls = strncmp(undefined.v[k], ns[j], strlen(ns[j])) == 0;
		q7_sv_free(&undefined);
	}
	return calls;
}

/* A link without kernels whose objects define functions that look like
 * kernels (docs/driver.md, "Shared libraries without kernels"): before
 * any link, as the device's own link of torch code fails with a page of
 * relocation errors and the host's loads as nothing. -1: stop. */
static int forgot_marks(struct link *l)
{
	struct q7_drv *d = l->d;
	if (d->tc.kind == Q7_TOOLCHAIN_HOST && calls_libtorch(l))
		return 0;
	struct q7_fsyms syms = {0};
	struct q7_err err = Q7_ERR_GROWING;
	int rc = 0;
	for (size_t i = 0; i < l->nin && rc == 0; i++) {
		size_t from = syms.n;
		rc = q7_symbols_read(l->in[i].path, NULL, &syms, &err);
		for (size_t k = from; k < syms.n && l->in[i].src; k++) {
			free(syms.v[k].where); /* a temporary object: named by its source */
			syms.v[k].where = q7_xstrdup(l->in[i].src);
		}
	}
	q7_err_print(&err);
	struct q7_strvec like = {0};
	if (rc == 0)
		q7_kernel_lookalikes(&syms, &like);
	q7_fsyms_free(&syms);
	if (rc != 0 || like.n == 0) {
		q7_sv_free(&like);
		return rc;
	}
	struct q7_strbuf list = {0};
	for (size_t i = 0; i < like.n; i++)
		q7_sb_addf(&list, "%s%s", i ? "; " : "", like.v[i]);
	char *doc = q7_doc_path("driver.md"), count[48];
	snprintf(count, sizeof count, like.n == 1 ? "%zu function looks like a kernel"
	                                          : "%zu functions look like kernels", like.n);
	char *what = q7_xasprintf(
		"yet %s: %s; mark each kernel with Q7_KERNEL from <q7/kernel.h>, name it with "
		"--q7-kernel=NAME when compiling, or link the shape file whose NEURON_LIBRARY block "
		"names it (%s, \"Shared libraries without kernels\")",
		count, list.s, doc);
	size_t errors = no_kernels(d, l->out, true, what);
	free(what);
	free(doc);
	q7_sb_free(&list);
	q7_sv_free(&like);
	return errors ? -1 : 0;
}

/* docs/driver.md, "Shared libraries without kernels": the compiler's own
 * link of the user's line, into the set's head. */
static int own_link(struct link *l)
{
	struct q7_drv *d = l->d;
	if (forgot_marks(l) != 0)
		return Q7_EXIT_ERROR;
	q7_step_note(d, "no kernels: the compiler's own link");
	const char *so = q7_outset_add(&l->set, l->set.head);
	name_images(l, true);
	if (d->tc.kind != Q7_TOOLCHAIN_HOST) {
		char *what = q7_xasprintf(
			"linked as %s links it, no device image (mark kernel functions with Q7_KERNEL "
			"from <q7/kernel.h>, name them with --q7-kernel=NAME when compiling, or link the "
			"shape file whose NEURON_LIBRARY block names them)",
			q7_path_basename(d->tc.cxx));
		size_t errors = no_kernels(d, l->out, false, what);
		free(what);
		if (errors)
			return Q7_EXIT_ERROR;
	}
	struct q7_strvec objs = {0}, cmd = {0};
	for (size_t i = 0; i < l->nin; i++)
		if (l->in[i].src)
			q7_sv_add(&objs, l->in[i].path);
	q7_cmd_passthrough(&d->tc, &d->inv, so, objs.v, &cmd);
	int rc = q7_step_run(d, cmd.v, NULL);
	q7_sv_free(&objs);
	q7_sv_free(&cmd);
	return rc;
}

/* Writes text to path; messages name it as name (a staged file by the
 * name the user gave it). A device (--q7-emit-wrapper=/dev/stdout) is
 * written into, never replaced (q7_outfile). */
static int write_file(const char *path, const char *name, const char *text, size_t len)
{
	const char *what;
	if (q7_outfile_write(path, text, len, 0644, &what) != 0) {
		q7_error("%s: %s: %s", name, what, strerror(errno));
		return -1;
	}
	return 0;
}

static int make_dispatch(struct link *l, const struct q7_op_table *ops, const char *cpp)
{
	struct q7_drv *d = l->d;
	bool go = q7_step_do(d, "codegen %s", cpp);
	if (d->inv.emit_wrapper)
		q7_step_note(d, "write %s", d->inv.emit_wrapper);
	if (!go)
		return 0;
	struct q7_strbuf *text = &l->dispatch_text; /* kept: the cache's key */
	if (q7_codegen_dispatch(ops, text) != 0)
		return Q7_EXIT_ERROR;
	if (!text->s)
		q7_sb_add(text, "");
	if (write_file(cpp, cpp, text->s, text->len) != 0)
		return Q7_EXIT_IO;
	if (d->inv.emit_wrapper &&
	    write_file(d->inv.emit_wrapper, d->inv.emit_wrapper, text->s, text->len) != 0)
		return Q7_EXIT_IO;
	return 0;
}

static int jobs(void)
{
	const char *s = getenv("Q7CC_JOBS");
	long n = s && *s ? strtol(s, NULL, 10) : 0;
	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* What the link is doing (docs/driver.md, "Options and environment",
 * -v). The cursor stays at the line's start: a message that comes while
 * it shows (a linker's error) is written over it. */
static void progress_draw(struct link *l)
{
	if (!l->tty_line || !l->what || q7_now_s() - l->t0 < l->after)
		return;
	fprintf(stderr, "\rq7cc: linking %s: [%d/%d] %s %s (%.0f s)\x1b[K\r", q7_path_basename(l->out),
	        l->step + 1, l->nimg, l->what, l->file, q7_now_s() - l->t0);
	fflush(stderr);
	l->shown = true;
}

static void progress(struct link *l, int i, const char *what, const char *file)
{
	if (l->progress) {
		fprintf(stderr, "[%d/%d] %s %s\n", i + 1, l->nimg, what, q7_path_basename(file));
		return;
	}
	l->step = i;
	l->what = what;
	l->file = q7_path_basename(file);
	progress_draw(l);
}

static void progress_start(struct link *l)
{
	struct q7_drv *d = l->d;
	const char *term = getenv("TERM"), *after = getenv("Q7CC_PROGRESS_AFTER");
	l->progress = d->inv.multicore && !d->dry && d->verbose;
	l->tty_line = !d->dry && !d->verbose && isatty(2) && !(term && strcmp(term, "dumb") == 0);
	l->t0 = q7_now_s();
	l->after = after && *after ? strtod(after, NULL) : 2.0;
}

static void progress_end(struct link *l)
{
	if (l->shown)
		fputs("\r\x1b[K", stderr);
	l->shown = false;
}

/* Writes what the link said, unless it was stopped because another one
 * failed (then it only says it was stopped). Closes fd. */
static void link_err_flush(struct link *l, int fd, bool show)
{
	if (fd < 0)
		return;
	char buf[8192];
	ssize_t n;
	if (show && lseek(fd, 0, SEEK_SET) == 0) {
		progress_end(l);
		while ((n = read(fd, buf, sizeof buf)) > 0)
			if (fwrite(buf, 1, (size_t)n, stderr) != (size_t)n)
				break;
		fflush(stderr);
	}
	close(fd);
}

/* Runs cmds[0..nimg), up to max at a time; a failure stops the rest
 * (docs/driver.md, "Exit status and signals"). */
static int run_parallel(struct link *l, struct q7_strvec *cmds, int max)
{
	struct q7_drv *d = l->d;
	int failed = 0, running = 0, next = 0;
	pid_t pids[Q7_NUM_CORES];
	int errs[Q7_NUM_CORES];
	bool alone = max <= 1 || l->nimg <= 1;
	for (;;) {
		while (!failed && running < max && next < l->nimg) {
			progress(l, next, "link", l->img[next].so);
			/* Kept, written whole at its end (docs/driver.md, "What each
			 * invocation does"); -1: our stderr (alone, or no memory). */
			errs[next] = alone ? -1 : memfd_create("q7cc-link-stderr", MFD_CLOEXEC);
			struct q7_proc_opts o = {.name = q7_path_basename(l->img[next].so),
			                         .tmpdir = q7_temp_tool_dir(),
			                         .err = errs[next] >= 0 ? errs[next] : Q7_PROC_INHERIT};
			pid_t pid = pids[next] = q7_step_start(d, cmds[next].v, &o);
			if (pid < 0)
				failed = Q7_EXIT_TOOL;
			else if (pid > 0)
				running++;
			if (pid <= 0) /* not started, or -### */
				link_err_flush(l, errs[next], false);
			next++;
			if (failed)
				q7_proc_kill_all(SIGTERM);
		}
		if (running == 0)
			break;
		pid_t pid;
		/* On a terminal the line's seconds count up while links run. */
		int rc = q7_proc_wait_any(NULL, 0, l->tty_line ? 0.5 : -1, &pid, NULL);
		if (rc == Q7_PROC_TIMEOUT) {
			progress_draw(l);
			continue;
		}
		if (rc == Q7_PROC_NONE)
			break;
		running--;
		for (int i = 0; i < next; i++)
			if (pids[i] == pid) {
				link_err_flush(l, errs[i], !failed);
				pids[i] = 0;
			}
		if (rc != 0 && !failed) {
			failed = rc;
			q7_proc_kill_all(SIGTERM);
		}
	}
	for (int i = 0; i < next; i++)
		if (pids[i] > 0)
			link_err_flush(l, errs[i], false);
	return failed;
}

/* GNU ld's "region `sram0_0_seg' overflowed by N bytes" in the user's
 * words (docs/driver.md, "What each invocation does", --q7-memory-map; a
 * stack that does not fit is no error: docs/vendor-flow.md, "Stack
 * switch"). After a failed link of image (name; core 0..7 or -1 single):
 * runs cmd again with its messages captured (d's query: shown under -v),
 * and when the linker said the window overflowed, prints the one message
 * and returns 1; else 0. */
static int explain_fit(const struct q7_drv *d, char *const *cmd, const char *name, int core)
{
	char *out = NULL;
	if (q7_step_query(d, cmd, 2, &out) == 0 || !out) {
		free(out);
		return 0;
	}
	/* "... section `.bss' will not fit in region `sram0_0_seg'" and
	 * "... region `sram0_0_seg' overflowed by 123 bytes" */
	const char *over = strstr(out, "region `sram0_0_seg' overflowed by ");
	if (over) {
		unsigned long long bytes = strtoull(over + strlen("region `sram0_0_seg' overflowed by "),
		                                    NULL, 10);
		char section[128] = "the image";
		const char *s = strstr(out, "section `");
		if (s && strstr(s, "' will not fit in region `sram0_0_seg'")) {
			s += strlen("section `");
			const char *e = strchr(s, '\'');
			snprintf(section, sizeof section, "section %.*s", (int)(e - s), s);
		}
		const struct q7_lsp *w = q7_lsp_get(core);
		char who[32] = "the single core's";
		if (core >= 0)
			snprintf(who, sizeof who, "core %d's", core);
		q7_error("%s: the image does not fit %s %" PRIu32 " MiB SRAM window (0x%08" PRIx32
		         "..0x%08" PRIx32 "): %s is %llu bytes over (everything past it too; q7cc "
		         "--q7-memory-map on a smaller build shows the window's use; a multicore link's "
		         "other cores alike)", name, who, w->sram_len >> 20, w->sram_org,
		         w->sram_org + w->sram_len, section, bytes);
	}
	free(out);
	return over != NULL;
}

enum plan {
	PLAN_SPLIT,      /* the image commands are ready */
	PLAN_FULL,       /* the full links, in parallel */
	PLAN_FULL_ONE,   /* the full links, one at a time: they are to fail */
};

/* The first strong symbol that a leaves undefined and b (NULL: none)
 * does not define, or b leaves undefined and a does not: into *missing
 * (the caller frees; NULL when an image link of the two needs nothing
 * else). -1 after a message when one cannot be read. */
static int first_missing(const char *a, const char *b, char **missing)
{
	struct q7_strvec undef[2] = {{0}}, def[2] = {{0}};
	const char *f[2] = {a, b};
	struct q7_err err = Q7_ERR_GROWING;
	int rc = 0;
	for (int i = 0; i < 2 && rc == 0; i++)
		if (f[i] && q7_symbols_globals(f[i], &undef[i], &def[i], &err) != 0)
			rc = -1;
	q7_err_print(&err);
	*missing = NULL;
	for (int i = 0; i < 2 && rc == 0; i++)
		for (size_t k = 0; k < undef[i].n && !*missing; k++)
			if (!q7_sv_has(&def[1 - i], undef[i].v[k]))
				*missing = q7_xstrdup(undef[i].v[k]);
	for (int i = 0; i < 2; i++) {
		q7_sv_free(&undef[i]);
		q7_sv_free(&def[i]);
	}
	return rc;
}

/* The dispatch wrapper's compile, started; a cached wrapper.o (oc) starts
 * nothing. 0 (and *pid: the compile, or 0), or an exit code. */
static int start_dispatch_compile(struct link *l, char *const *cc, struct q7_objcache *oc,
                                 pid_t *pid)
{
	struct q7_drv *d = l->d;
	*pid = 0;
	if (!d->dry && q7_objcache_fetch(oc)) {
		q7_step_note(d, "wrapper.o from the cache: %s", oc->entry);
		return 0;
	}
	struct q7_proc_opts o = {.tmpdir = q7_temp_tool_dir()};
	/* Under GCC's json its stderr is kept apart: its empty array would
	 * follow the link's own diagnostics as a second one. */
	if (!l->dispatch_err) {
		o.err = q7_drv_capture_open(d, "wrapper.err", &l->dispatch_err);
		if (o.err < 0)
			return Q7_EXIT_IO;
	}
	q7_objcache_env(oc);
	*pid = q7_step_start(d, cc, &o);
	q7_objcache_env_done();
	if (o.err > 0)
		close(o.err);
	return *pid < 0 ? Q7_EXIT_TOOL : 0;
}

/* Waits for the compile start_dispatch_compile started, and caches its
 * object. What it printed under GCC's json is shown, less its empty
 * array (GCC's own link runs no compiler and prints none). */
static int wait_dispatch_compile(struct link *l, pid_t pid, struct q7_objcache *oc)
{
	int rc = q7_step_wait(pid);
	if (rc == 0 && pid > 0)
		q7_objcache_store(oc);
	char *err = l->dispatch_err ? q7_read_file(l->dispatch_err, NULL) : NULL;
	if (err && !q7_diag_text_empty(err))
		q7_drv_show(l->d, NULL, err);
	free(err);
	return rc;
}

/* The relocatable link (ldsplit.h) into resolved: of the objects alone,
 * asking for the runtime symbols the dispatch wrapper calls, while its
 * compile (pc, started) runs beside; or (pc < 0) of everything, wrapper.o
 * included. *missing: a symbol that resolved (with wrapper.o, when apart)
 * leaves undefined (first_missing). 0, or an exit code. */
static int resolve(struct link *l, const struct q7_ldsplit *s, const struct q7_op_table *ops,
                   pid_t pc, struct q7_objcache *oc, const char *dispatch_obj,
                   const char *resolved, char **missing)
{
	struct q7_drv *d = l->d;
	struct q7_strvec refs = {0}, cmd = {0};
	bool beside = pc >= 0;
	if (beside)
		q7_codegen_runtime_refs(ops, &refs);
	q7_cmd_link_resolve(&d->tc, s, beside ? NULL : dispatch_obj, refs.v, resolved, &cmd);
	struct q7_proc_opts o = {.tmpdir = q7_temp_tool_dir()};
	pid_t pr = q7_step_start(d, cmd.v, &o);
	/* Either may be stopped while the other fails. */
	int rc_c = beside ? wait_dispatch_compile(l, pc, oc) : 0;
	if (rc_c != 0 && pr > 0) /* its object would go unused */
		q7_proc_kill(pr, SIGTERM);
	int rc = q7_step_wait(pr);
	rc = rc_c ? rc_c : rc;
	*missing = NULL;
	if (rc == 0 && pr > 0 && first_missing(resolved, beside ? dispatch_obj : NULL, missing) != 0)
		rc = Q7_EXIT_ERROR;
	q7_sv_free(&refs);
	q7_sv_free(&cmd);
	return rc;
}

/* The dispatch wrapper's compile and the links, up to Q7CC_JOBS at a time. The
 * gnu 8-core link splits (ldsplit.h) when the user's flags allow. */
static int run_links(struct link *l, const struct q7_op_table *ops, const char *cpp,
                     const char *dispatch_obj)
{
	struct q7_drv *d = l->d;
	struct q7_strvec cmds[Q7_NUM_CORES] = {{0}}, cc = {0};
	q7_cmd_compile(&d->tc, &d->inv, cpp, Q7_IN_CXX, Q7_USE_Q7, dispatch_obj, &cc);
	struct q7_objcache oc;
	q7_objcache_init(&oc, l->dispatch_text.s, l->dispatch_text.len, cc.v, cpp, dispatch_obj,
	                 l->dispatch_dep);
	struct q7_ldsplit s;
	bool split = q7_ldsplit_plan(&d->tc, &d->inv, l->words.v, &s);
	if (!split && d->tc.kind == Q7_TOOLCHAIN_GNU && d->inv.multicore)
		q7_step_note(d, "eight full links: %s", s.why_not);
	char *resolved = split ? q7_drv_temp_path(d, "resolved.o") : NULL;
	const char *image_dispatch = NULL; /* wrapper.o beside resolved.o */
	enum plan plan = PLAN_FULL;
	char *missing = NULL;
	pid_t pc;
	int rc = start_dispatch_compile(l, cc.v, &oc, &pc);
	if (rc == 0 && split && s.early) {
		rc = resolve(l, &s, ops, pc, &oc, dispatch_obj, resolved, &missing);
		if (rc == 0 && !missing) {
			plan = PLAN_SPLIT;
			image_dispatch = dispatch_obj;
		} else if (rc == 0) {
			q7_step_note(d, "the relocatable link again, with wrapper.o: with it "
			             "beside, a symbol stays undefined");
		}
		free(missing);
	} else if (rc == 0) {
		rc = wait_dispatch_compile(l, pc, &oc);
	}
	/* docs/driver.md, "The split 8-core link (gnu)". */
	if (rc == 0 && split && plan != PLAN_SPLIT) {
		rc = resolve(l, &s, ops, -1, &oc, dispatch_obj, resolved, &missing);
		plan = missing ? PLAN_FULL_ONE : PLAN_SPLIT;
		if (missing)
			q7_step_note(d, "eight full links: %s is undefined", missing);
		free(missing);
	}
	if (rc == 0) {
		for (int i = 0; i < l->nimg; i++) {
			if (plan == PLAN_SPLIT)
				q7_cmd_link_image(&s, resolved, image_dispatch, l->img[i].so, i, &cmds[i]);
			else
				q7_cmd_link(&d->tc, &d->inv, l->img[i].so, l->words.v, dispatch_obj,
				            d->inv.multicore ? i : Q7_LSP_SINGLE, &cmds[i]);
		}
		rc = run_parallel(l, cmds, plan == PLAN_FULL_ONE ? 1 : jobs());
		if (rc != 0 && rc != Q7_EXIT_TOOL && d->tc.kind != Q7_TOOLCHAIN_HOST) /* not -### */
			for (int i = 0; i < l->nimg; i++) /* the first says it for all */
				if (explain_fit(d, cmds[i].v, l->img[i].name, l->nimg > 1 ? i : -1))
					break;
	}
	for (int i = 0; i < l->nimg; i++)
		q7_sv_free(&cmds[i]);
	q7_sv_free(&cc);
	q7_objcache_free(&oc);
	q7_ldsplit_free(&s);
	free(resolved);
	return rc;
}

static int pack_images(struct link *l)
{
	struct q7_drv *d = l->d;
	/* Host images are packed too, so every toolchain gives the same
	 * outputs; q7-run loads the .so itself. */
	if (unpacked(d))
		return 0;
	for (int i = 0; i < l->nimg; i++) {
		struct image *m = &l->img[i];
		progress(l, i, "pack", m->packed);
		struct q7_image im;
		struct q7_err err = Q7_ERR_GROWING;
		int rc = 0;
		if (!q7_step_do(d, "pack %s -> %s %s", m->name, m->stripped_name, m->packed_name)) {
			/* -###: shown only */
		} else if (q7_image_open(&im, m->so, &err) != 0) {
			rc = Q7_EXIT_ERROR;
		} else {
			im.path = m->name;
			struct q7_strvec notes = {0};
			struct q7_pack_opts o = {
				.input = m->so, .output = m->packed, .stripped = m->stripped,
				.symbol = "lib_func", .notes = d->verbose ? &notes : NULL,
				.output_name = m->packed_name, .stripped_name = m->stripped_name,
			};
			rc = q7_pack_image(&im, &o, &err) ? Q7_EXIT_ERROR : 0;
			for (size_t k = 0; k < notes.n; k++)
				q7_note("%s", notes.v[k]);
			q7_sv_free(&notes);
			q7_image_close(&im);
		}
		q7_err_print(&err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* A -g link says what to load: a build that goes on to install or load
 * <name>.packed.so otherwise fails later, far from the cause. */
static void note_debug_images(const struct link *l)
{
	if (!unpacked(l->d) || l->d->dry)
		return;
	if (l->d->inv.multicore)
		q7_note("%s: -g: the images to load are %s_cpu0.so ... %s_cpu7.so, as the manifest "
		        "names them (not stripped); no packed images were written (add --q7-pack "
		        "to the link's flags, or link without -g, for them)", l->out, l->base,
		        l->base);
	else
		q7_note("%s: -g: this is the image to load (not stripped); no packed image was "
		        "written (%s.packed.so: add --q7-pack to the link's flags, or link without "
		        "-g, for it)", l->out, l->base);
}

/* Multicore: -o names a text manifest of the eight images (CMake checks
 * that the file it asked for exists), in model/manifest's format. */
static int write_manifest(struct link *l)
{
	struct q7_drv *d = l->d;
	if (!d->inv.multicore)
		return 0;
	if (!q7_step_do(d, "write manifest %s", l->out))
		return 0;
	const char *names[Q7_NUM_CORES];
	for (int i = 0; i < l->nimg; i++)
		names[i] = q7_path_basename(l->img[i].so);
	char *text = NULL;
	struct q7_err err = Q7_ERR_GROWING;
	if (q7_manifest_text(l->out, names, (size_t)l->nimg, &text, &err) != 0) {
		q7_err_print(&err);
		return Q7_EXIT_ERROR;
	}
	int rc = write_file(l->manifest, l->out, text, strlen(text)) == 0 ? 0 : Q7_EXIT_IO;
	free(text);
	return rc;
}

int q7_mode_link(struct q7_drv *d)
{
	struct link l = {.d = d};
	l.out = d->inv.output ? d->inv.output : "a.out";
	progress_start(&l);
	struct q7_op_table ops = {0};
	char *cpp = q7_drv_temp_path(d, "wrapper.cpp");
	char *obj = q7_drv_temp_path(d, "wrapper.o");
	char *dep = q7_drv_temp_path(d, "wrapper.d"); /* xt's -MMD writes it */
	l.dispatch_dep = dep;
	/* The lock first (docs/driver.md, "Two links of one output"). */
	int rc = q7_outset_open(&l.set, d, l.out);
	if (!rc) {
		/* -o's target's name (docs/driver.md, "Links"). */
		l.base = q7_path_strip_ext(l.set.head, ".so");
		rc = collect_inputs(&l);
	}
	if (!rc)
		rc = collect_records(&l, &ops);
	bool own = !rc && ops.n == 0 && !d->dry;
	const char *lto = q7_drv_lto(d);
	/* The set is named once the records say which it is; a link that
	 * failed before still names it, so that the failure removes the
	 * previous build's. */
	if (own)
		rc = own_link(&l);
	else if (l.base)
		name_images(&l, false);
	if (!rc && !own && lto)
		rc = q7_drv_refuse_lto(l.out, lto);
	if (!rc && !own)
		rc = make_dispatch(&l, &ops, cpp);
	if (!rc && !own)
		rc = run_links(&l, &ops, cpp, obj);
	if (!rc && !own)
		rc = pack_images(&l);
	if (!rc && !own)
		rc = write_manifest(&l);
	if (!rc && !d->dry)
		rc = inputs_unchanged(&l);
	if (!rc)
		rc = q7_outset_commit(&l.set);
	if (!rc && !own)
		note_debug_images(&l);
	progress_end(&l);
	q7_outset_close(&l.set);
	for (int i = 0; i < Q7_NUM_CORES; i++) {
		free(l.img[i].name);
		free(l.img[i].stripped_name);
		free(l.img[i].packed_name);
	}
	for (size_t i = 0; i < l.nin; i++) {
		free(l.in[i].path);
		free(l.in[i].src);
	}
	free(l.in);
	q7_sv_free(&l.words);
	q7_ops_free(&ops);
	q7_sb_free(&l.dispatch_text);
	free(l.dispatch_err);
	free(l.base);
	free(cpp);
	free(obj);
	free(dep);
	return rc;
}
