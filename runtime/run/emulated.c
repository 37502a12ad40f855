/* q7_run_emulated: runs an op of a gnu-profile device image on an emulated
 * Xtensa core: qemu-system-xtensa -M sim -cpu lx106 with q7boot.elf as its
 * firmware (runtime/boot/boot.h has the memory map and the protocol).
 *
 * Prelink each core's packed image to its RAM window, write the boot block
 * + frames, the images and the tensor data to files that QEMU's generic
 * loader puts in RAM, start QEMU with the result file as its fd 3, wait
 * (with a time-out), and read back each core's frame, tensor data and out
 * tensor. One QEMU run takes all the cores, one after another, each
 * starting from the tensor data the previous one left ("chained"), like
 * q7_run_host: SPMD cores do not synchronise, so any order is a valid
 * schedule. Q7CC_EMU_JOBS=N runs one QEMU per core instead, up to N at
 * once, all from the same data, and merges their changes, reporting two
 * cores that wrote one byte differently (a race).
 *
 * Memory: everything here is freed before return, except result->out_data
 * (the caller's, see run.h). Temporary files live in q7_temp_dir(). */
#include "result.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "image.h"
#include "npy.h"
#include "prelink.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

#define DEFAULT_TIMEOUT 60.0        /* seconds, for all cores together */
#define DEFAULT_HEAP (64u << 20)
#define TENSOR_ALIGN 64u
#define HEAP_ALIGN 0x100000u
#define ICOUNT_SHIFT 5              /* -icount: one instruction = 32 ns */
#define CORE_KHZ 40000u             /* the lx106's CCOUNT rate in QEMU */


/* The image a core runs: <base>.packed.so beside <base>.so when it is
 * there (what a release build leaves), else the image itself (-g builds
 * are not packed; the prelinker takes plain images too). */
static char *packed_path(const char *image)
{
	char *base = q7_path_strip_ext(image, ".so");
	if (strcmp(base, image) != 0) {
		const char *b = q7_path_basename(base);
		size_t n = strlen(b);
		bool already = n > 7 && strcmp(b + n - 7, ".packed") == 0;
		char *packed = q7_xasprintf("%s.packed.so", base);
		if (!already && q7_path_exists(packed)) {
			free(base);
			return packed;
		}
		free(packed);
	}
	free(base);
	return q7_xstrdup(image);
}

static size_t desc_bytes(const struct q7_tensor_desc *t)
{
	size_t n = 1;
	for (unsigned i = 0; i < t->ndim && i < Q7_MAX_DIMS; i++)
		n *= t->sizes[i];
	return n * q7_npy_dtype_size((enum q7_dtype)t->dtype);
}

/* The tensor data region as the core sees it: every tensor argument, then
 * dst, each 64-byte aligned from Q7_BOOT_DATA_AREA. */
struct layout {
	unsigned char *data; /* the region's bytes */
	size_t size;
	uint32_t dst_addr;   /* 0: no dst */
	uint32_t heap, heap_size;
	struct q7_arg args[Q7_MAX_ARGS];
	struct q7_tensor_desc dst;
};

static int make_layout(const struct q7_run_request *req, struct layout *L, struct q7_run_result *r)
{
	size_t off = 0;
	memset(L, 0, sizeof *L);
	memcpy(L->args, req->args, sizeof L->args);
	L->dst = req->dst;
	for (int pass = 0; pass < 2; pass++) {
		off = 0;
		for (unsigned i = 0; i <= req->nargs && i <= Q7_MAX_ARGS; i++) {
			const struct q7_tensor_desc *t;
			if (i == req->nargs || i == Q7_MAX_ARGS)
				t = req->dst.data ? &req->dst : NULL;
			else
				t = req->args[i].kind == Q7_ARG_TENSOR ? &req->args[i].u.tensor : NULL;
			if (!t)
				continue;
			size_t n = desc_bytes(t);
			off = (off + TENSOR_ALIGN - 1) & ~(size_t)(TENSOR_ALIGN - 1);
			if (pass == 1) {
				if (n)
					memcpy(L->data + off, (const void *)(uintptr_t)t->data, n);
				uint32_t addr = Q7_BOOT_DATA_AREA + (uint32_t)off;
				if (i == req->nargs || i == Q7_MAX_ARGS) {
					L->dst.data = addr;
					L->dst_addr = addr;
				} else {
					L->args[i].u.tensor.data = addr;
				}
			}
			off += n;
			if (off > Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) {
				q7_run_fail(r, "the tensors (%zu bytes and more) do not fit the emulated core's "
				     "RAM (%u MiB)", off, (Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) >> 20);
				return -1;
			}
		}
		if (pass == 0)
			L->data = q7_xcalloc(1, off ? off : 1);
	}
	L->size = off;
	uint32_t heap = (Q7_BOOT_DATA_AREA + (uint32_t)off + HEAP_ALIGN - 1) & ~(HEAP_ALIGN - 1);
	uint32_t room = Q7_BOOT_RAM_END - heap;
	size_t want = req->heap_size ? req->heap_size : DEFAULT_HEAP;
	if (!req->heap_size && want > room)
		want = room;
	if (want > room || heap >= Q7_BOOT_RAM_END) {
		q7_run_fail(r, "a heap arena of %zu bytes does not fit the emulated core's RAM beside the "
		     "tensors (%u bytes left)", want, heap < Q7_BOOT_RAM_END ? room : 0);
		return -1;
	}
	L->heap = heap;
	L->heap_size = (uint32_t)want;
	return 0;
}

/* Files of a run are registered as temporaries first, so that q7-run
 * stopped by a signal removes them (and its directory) too. */
static int write_file(const char *path, const void *a, size_t an, const void *b, size_t bn)
{
	q7_temp_register(path);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(a, 1, an, f) == an && (!bn || fwrite(b, 1, bn, f) == bn);
	int e = errno; /* a full disk, a file size limit: the reason stays in errno */
	if (fclose(f) != 0 || !ok) {
		errno = ok ? errno : e;
		return -1;
	}
	return 0;
}

/* QEMU's option parser takes ",," for a comma inside a value. */
static char *qemu_escape(const char *s)
{
	struct q7_strbuf b = {0};
	for (; *s; s++) {
		q7_sb_addc(&b, *s);
		if (*s == ',')
			q7_sb_addc(&b, ',');
	}
	return q7_sb_take(&b);
}

static void add_loader(struct q7_strvec *argv, const char *file, uint32_t addr)
{
	char *f = qemu_escape(file);
	q7_sv_add(argv, "-device");
	q7_sv_addf(argv, "loader,file=%s,addr=0x%08x,force-raw=on", f, addr);
	free(f);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts argv with result_fd as its fd 3 and /dev/null as stdin. A signal
 * q7-run gets while it runs kills it (support/proc.h forwards it as
 * SIGKILL), and q7-run dies once it is gone. The pid, or -1 after
 * q7_run_fail(). */
static pid_t spawn_qemu(char *const *argv, int result_fd, struct q7_run_result *r)
{
	_Static_assert(Q7_BOOT_RESULT_FD == 3, "the process layer passes fd 3");
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fd3 = result_fd, .quiet = true,
	                         .stop_signal = SIGKILL};
	fflush(NULL); /* our buffered output first, then the kernel's */
	pid_t pid = q7_proc_spawn(argv, &o);
	if (pid < 0)
		q7_run_fail(r, "cannot start %s: %s", argv[0], strerror(errno));
	return pid;
}

static const char *exc_name(uint32_t cause)
{
	switch (cause) {
	case 0: return "IllegalInstruction";
	case 1: return "Syscall";
	case 2: return "InstructionFetchError";
	case 3: return "LoadStoreError";
	case 4: return "Level1Interrupt";
	case 6: return "IntegerDivideByZero";
	case 9: return "LoadStoreAlignment";
	case 20: return "InstFetchProhibited";
	case 28: return "LoadProhibited";
	case 29: return "StoreProhibited";
	default: return "exception";
	}
}


struct emu {
	const struct q7_run_request *req;
	struct q7_run_result *r;
	struct layout L;
	const char *qemu, *boot;
	char *dir;
	unsigned cores, jobs;
	double budget;
	bool stats, icount;
};

/* One core: its image and, after the run, what it left. */
struct core_run {
	unsigned core;
	char *image; /* the (packed) image it runs */
	struct q7_pl_header hdr;
	/* From the result: the frame, the tensor data the core left, and the
	 * out tensor's bytes (owned). */
	bool done;
	struct q7_frame frame;
	unsigned char *data, *out;
	size_t out_bytes;
};

/* One QEMU run: cores first..first+n-1, one after another. */
struct qemu_run {
	unsigned first, n;
	char *dir; /* its files: params.bin imageN.bin data.bin result.bin */
	struct q7_strvec argv;
	int fd;    /* the result file, QEMU's fd 3 */
	pid_t pid; /* 0: not started; -1: finished */
	int wst;
	double t0, secs;
};

static char *run_file(const struct qemu_run *q, const char *name)
{
	return q7_path_join(q->dir, name);
}

/* Prelinks the run's images to their windows and writes the files QEMU
 * loads, with data as the tensor data. 0, or -1 after q7_run_fail(). */
static int prepare_qemu(struct emu *E, struct qemu_run *q, struct core_run *cores,
                        const unsigned char *data)
{
	struct q7_run_result *r = E->r;
	const struct q7_run_request *req = E->req;
	char err[Q7_PL_ERR_SIZE];
	char *par = run_file(q, "params.bin"), *dat = run_file(q, "data.bin");
	char *res = run_file(q, "result.bin");
	size_t psize = (Q7_BOOT_FRAME_ADDR - Q7_BOOT_BLOCK_ADDR) + Q7_BOOT_MAX_CORES * Q7_BOOT_FRAME_STRIDE;
	unsigned char *params = q7_xcalloc(1, psize);
	struct q7_boot_block *b = (struct q7_boot_block *)params;
	struct q7_strvec *argv = &q->argv;
	int rc = -1;
	q7_temp_register(q->dir);
	if (mkdir(q->dir, 0700) != 0 && errno != EEXIST) {
		q7_run_fail(r, "%s: cannot create: %s", q->dir, strerror(errno));
		goto out;
	}
	q7_sv_add(argv, E->qemu);
	const char *fixed[] = {"-M", "sim", "-cpu", "lx106", "-semihosting", "-nodefaults",
	                       "-display", "none", "-monitor", "none", "-serial", "none"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		q7_sv_add(argv, fixed[i]);
	if (E->icount) {
		q7_sv_add(argv, "-icount");
		q7_sv_addf(argv, "shift=%d", ICOUNT_SHIFT);
	}
	q7_sv_add(argv, "-kernel");
	q7_sv_add(argv, E->boot);
	add_loader(argv, par, Q7_BOOT_BLOCK_ADDR);
	b->magic = Q7_BOOT_MAGIC;
	b->version = Q7_BOOT_VERSION;
	b->result_fd = Q7_BOOT_RESULT_FD;
	b->ncores = q->n;
	b->dst_data = Q7_BOOT_DATA_AREA;
	b->dst_bytes = (uint32_t)E->L.size;
	/* Past q7-run's own time-out (which normally stops QEMU first), the
	 * boot program stops by itself: no core spins on if q7-run is killed.
	 * Under -icount CCOUNT counts instructions, not time: no limit then. */
	double limit_ms = E->budget * 1000.0 + 2000.0;
	if (!E->icount && limit_ms <= Q7_BOOT_MAX_TIME_LIMIT_MS)
		b->time_limit_ms = (uint32_t)limit_ms;
	uint32_t window = E->cores > 1 ? Q7_BOOT_CORE_WINDOW : Q7_BOOT_IMAGE_AREA_SIZE;
	for (unsigned k = 0; k < q->n; k++) {
		struct core_run *c = &cores[q->first + k];
		struct q7_prelink_opts po = {
			.symbol = "lib_func", .core = E->cores > 1 ? (int)c->core : -1,
			.have_base = true, .base = Q7_BOOT_IMAGE_AREA + c->core * Q7_BOOT_CORE_WINDOW};
		struct q7_prelinked pl = {0};
		if (q7_prelink_file(&po, c->image, &pl, err, sizeof err) != 0) {
			q7_run_fail(r, "%s", err);
			goto out;
		}
		c->hdr = pl.hdr;
		if ((uint64_t)pl.hdr.load_size + pl.hdr.bss_size > window) {
			q7_run_fail(r, "%s: the image (%u bytes) does not fit its window on the emulated core "
			     "(%u bytes)", c->image, pl.hdr.load_size + pl.hdr.bss_size, window);
			q7_prelinked_free(&pl);
			goto out;
		}
		char *name = q7_xasprintf("image%u.bin", c->core);
		char *img = run_file(q, name);
		int w = write_file(img, pl.bytes, pl.size, NULL, 0) ? errno : 0;
		b->core[k].image = pl.hdr.base - Q7_PL_HEADER_SIZE;
		b->core[k].image_size = (uint32_t)pl.size;
		b->core[k].frame = Q7_BOOT_FRAME_ADDR + k * Q7_BOOT_FRAME_STRIDE;
		add_loader(argv, img, b->core[k].image);
		free(img);
		free(name);
		q7_prelinked_free(&pl);
		if (w) {
			q7_run_fail(r, "%s/image%u.bin: cannot write: %s", q->dir, c->core, strerror(w));
			goto out;
		}
		struct q7_frame *f = (struct q7_frame *)(params + (b->core[k].frame - Q7_BOOT_BLOCK_ADDR));
		f->magic = Q7_FRAME_MAGIC;
		f->version = Q7_FRAME_VERSION;
		f->size = sizeof *f;
		f->nargs = req->nargs;
		snprintf(f->op, sizeof f->op, "%s", req->op);
		f->cpu_id = c->core;
		f->cpu_count = E->cores;
		memcpy(f->args, E->L.args, sizeof f->args);
		f->dst = E->L.dst;
		f->heap_base = E->L.heap;
		f->heap_size = E->L.heap_size;
	}
	size_t used = (Q7_BOOT_FRAME_ADDR - Q7_BOOT_BLOCK_ADDR) + q->n * Q7_BOOT_FRAME_STRIDE;
	const char *unwritten = write_file(par, params, used, NULL, 0)         ? par
	                        : write_file(dat, data, E->L.size, NULL, 0) ? dat
	                                                                    : NULL;
	if (unwritten) {
		q7_run_fail(r, "%s: cannot write: %s", unwritten, strerror(errno));
		goto out;
	}
	if (E->L.size)
		add_loader(argv, dat, Q7_BOOT_DATA_AREA);
	q7_temp_register(res);
	q->fd = open(res, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (q->fd < 0) {
		q7_run_fail(r, "%s: cannot create: %s", res, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(params);
	free(par);
	free(dat);
	free(res);
	return rc;
}

/* Kills every QEMU still running and waits for it. */
static void stop_qemus(struct qemu_run *runs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (runs[i].pid > 0)
			q7_proc_kill(runs[i].pid, SIGKILL);
	for (unsigned i = 0; i < n; i++) {
		if (runs[i].pid > 0)
			q7_proc_wait(runs[i].pid, &runs[i].wst);
		runs[i].pid = -1;
	}
}

/* Starts the QEMU runs, at most E->jobs at a time, and waits for them all
 * within the time budget (which it decreases). 0, or -1 after q7_run_fail(); on
 * a time-out every QEMU still running is killed. */
static int run_qemus(struct emu *E, struct qemu_run *runs, unsigned n)
{
	double start = now_s();
	unsigned next = 0, running = 0;
	pid_t pids[Q7_BOOT_MAX_CORES];
	int rc = 0;
	for (;;) {
		while (rc == 0 && next < n && running < E->jobs) {
			struct qemu_run *q = &runs[next++];
			q->t0 = now_s();
			q->pid = spawn_qemu(q->argv.v, q->fd, E->r);
			if (q->pid < 0) {
				q->pid = -1;
				rc = -1;
				continue;
			}
			running++;
		}
		if (running == 0)
			break;
		size_t np = 0;
		for (unsigned i = 0; i < n; i++)
			if (runs[i].pid > 0)
				pids[np++] = runs[i].pid;
		double left = E->budget - (now_s() - start);
		pid_t pid;
		int wst = 0;
		int got = left > 0 ? q7_proc_wait_any(pids, np, left, &pid, &wst) : Q7_PROC_TIMEOUT;
		if (got == Q7_PROC_TIMEOUT) {
			const struct qemu_run *late = NULL;
			for (unsigned i = 0; i < n && !late; i++)
				if (runs[i].pid > 0)
					late = &runs[i];
			bool several = late && late->n > 1;
			stop_qemus(runs, n);
			q7_run_fail(E->r, "%s: timed out after %g s on the emulated core%s (QEMU stopped); a "
			     "kernel that never returns? --timeout=SECONDS sets the limit", E->req->op,
			     E->req->timeout_s > 0 ? E->req->timeout_s : DEFAULT_TIMEOUT,
			     several ? "s" : "");
			return -1;
		}
		if (got == Q7_PROC_NONE)
			break;
		for (unsigned i = 0; i < n; i++) {
			struct qemu_run *q = &runs[i];
			if (q->pid != pid)
				continue;
			q->wst = wst;
			q->secs = now_s() - q->t0;
			q->pid = -1;
			running--;
		}
	}
	E->budget -= now_s() - start;
	return rc;
}

/* Reads one core's record at *pos of a run's results into c. 0, or -1
 * after q7_run_fail(); a failed op is reported as the frame's status. */
static int read_record(struct emu *E, const struct qemu_run *q, const char *buf, size_t len,
                       size_t *pos, struct core_run *c)
{
	struct q7_run_result *r = E->r;
	struct q7_boot_result br;
	const struct q7_pl_header *h = &c->hdr;
	int rc = -1;
	char *who = E->cores > 1 ? q7_xasprintf("core %u: ", c->core) : q7_xstrdup("");
	if (len - *pos < sizeof br) {
		char how[96];
		q7_proc_describe(q->wst, how, sizeof how);
		q7_run_fail(r, "%sthe emulated core gave no result (qemu-system-xtensa %s)", who, how);
		goto out;
	}
	memcpy(&br, buf + *pos, sizeof br);
	br.message[sizeof br.message - 1] = 0;
	if (br.magic != Q7_RESULT_MAGIC || br.version != Q7_BOOT_VERSION ||
	    br.core != c->core - q->first) {
		q7_run_fail(r, "%sthe boot program's result is damaged", who);
		goto out;
	}
	if (br.boot_status == Q7_BOOT_EXCEPTION) {
		/* Where in the linked image, for addr2line on the .so. */
		char where[64] = "";
		if (br.exc_pc >= h->base && br.exc_pc - h->base < h->load_size)
			snprintf(where, sizeof where, " (0x%08x in the linked image)",
			         br.exc_pc - h->base + h->link_base);
		q7_run_fail(r, "%sthe core took an %s: EXCCAUSE %u (%s) at pc 0x%08x%s, address 0x%08x", who,
		     br.message, br.exc_cause, exc_name(br.exc_cause), br.exc_pc, where, br.exc_vaddr);
		goto out;
	}
	if (br.boot_status != Q7_BOOT_OK) {
		q7_run_fail(r, "%sthe boot program stopped: %s", who, br.message);
		goto out;
	}
	size_t need = sizeof br + (size_t)br.frame_size + br.dst_bytes + br.out_bytes;
	if (br.frame_size != sizeof(struct q7_frame) || len - *pos < need ||
	    br.dst_bytes != E->L.size) {
		q7_run_fail(r, "%sthe boot program's result is truncated", who);
		goto out;
	}
	const unsigned char *p = (const unsigned char *)buf + *pos + sizeof br;
	*pos += need;
	memcpy(&c->frame, p, sizeof c->frame);
	c->frame.message[sizeof c->frame.message - 1] = 0;
	p += sizeof c->frame;
	c->data = q7_xmalloc(br.dst_bytes ? br.dst_bytes : 1);
	memcpy(c->data, p, br.dst_bytes);
	c->out_bytes = br.out_bytes;
	c->out = q7_xmalloc(br.out_bytes ? br.out_bytes : 1);
	memcpy(c->out, p + br.dst_bytes, br.out_bytes);
	c->done = true;
	if (c->frame.switched_stack)
		r->switched_stack = 1;
	if (E->stats) {
		uint32_t cycles = br.ccount_end - br.ccount_start;
		fprintf(stderr, "q7-run: emulated core %u: %u cycles", c->core, cycles);
		if (E->icount)
			fprintf(stderr, ", %llu instructions",
			        (unsigned long long)cycles * 1000000ull / CORE_KHZ >> ICOUNT_SHIFT);
		fprintf(stderr, ", stack %u bytes%s\n", br.stack_used,
		        c->frame.switched_stack ? ", switched stack" : "");
	}
	if (c->frame.status != Q7_STATUS_OK) {
		r->status = c->frame.status;
		snprintf(r->message, sizeof r->message, "%s%s", who, c->frame.message);
		goto out;
	}
	rc = 0;
out:
	free(who);
	return rc;
}

/* Reads every core's record of a finished run. */
static int read_results(struct emu *E, const struct qemu_run *q, struct core_run *cores)
{
	size_t len = 0, pos = 0;
	char *path = run_file(q, "result.bin");
	char *buf = q7_read_file(path, &len);
	int rc = 0;
	if (E->stats)
		fprintf(stderr, "q7-run: emulated run of core%s %u..%u: %.3f s\n", q->n > 1 ? "s" : "",
		        q->first, q->first + q->n - 1, q->secs);
	for (unsigned k = 0; k < q->n && rc == 0; k++)
		rc = read_record(E, q, buf ? buf : "", buf ? len : 0, &pos, &cores[q->first + k]);
	free(buf);
	free(path);
	return rc;
}

/* Parallel runs all start from the same tensor data; each core's changes
 * are merged. Two cores changing one byte to different values is a race
 * (SPMD cores do not synchronise), reported rather than resolved. */
static int merge_data(struct emu *E, struct core_run *runs, unsigned n)
{
	size_t size = E->L.size;
	unsigned char *merged = q7_xmalloc(size ? size : 1);
	unsigned char *owner = q7_xmalloc(size ? size : 1);
	memcpy(merged, E->L.data, size);
	memset(owner, 0xff, size);
	int rc = 0;
	for (unsigned i = 0; i < n && rc == 0; i++) {
		const unsigned char *d = runs[i].data;
		for (size_t k = 0; k < size; k++) {
			if (d[k] == E->L.data[k])
				continue;
			if (owner[k] != 0xff && merged[k] != d[k]) {
				q7_run_fail(E->r, "cores %u and %u both wrote byte %zu of the tensor data, "
				     "differently: a race between SPMD cores (Q7CC_EMU_JOBS=1 runs them "
				     "one after another)", owner[k], runs[i].core, k);
				rc = -1;
				break;
			}
			merged[k] = d[k];
			owner[k] = (unsigned char)runs[i].core;
		}
	}
	free(owner);
	if (rc == 0)
		memcpy(E->L.data, merged, size);
	free(merged);
	return rc;
}

/* The result: the last core's out tensor; when it lies in the tensor data
 * (dst), from the data all cores left. */
static int final_output(struct emu *E, const struct core_run *last)
{
	const struct q7_frame *f = &last->frame;
	uint64_t lo = Q7_BOOT_DATA_AREA, hi = lo + E->L.size;
	if (f->out.data >= lo && f->out.data < hi)
		return q7_run_take_output(f, E->L.data + (f->out.data - lo), (size_t)(hi - f->out.data), E->r);
	return q7_run_take_output(f, last->out, last->out_bytes, E->r);
}

/* A run's file, removed now (Q7CC_SAVE_TEMPS: at exit, kept). */
static void drop_file(const struct qemu_run *q, const char *name)
{
	char *p = run_file(q, name);
	if (!q7_save_temps()) {
		unlink(p);
		q7_temp_forget(p);
	}
	free(p);
}

static void free_qemu(struct qemu_run *q, const struct core_run *cores)
{
	if (q->fd >= 0)
		close(q->fd);
	if (q->dir) {
		drop_file(q, "params.bin");
		drop_file(q, "data.bin");
		drop_file(q, "result.bin");
		for (unsigned k = 0; k < q->n; k++) {
			char *name = q7_xasprintf("image%u.bin", cores[q->first + k].core);
			drop_file(q, name);
			free(name);
		}
		if (!q7_save_temps()) {
			rmdir(q->dir);
			q7_temp_forget(q->dir);
		}
	}
	q7_sv_free(&q->argv);
	free(q->dir);
}

/* Chained (Q7CC_EMU_JOBS unset or 1): one QEMU runs the cores one after
 * another, each from the data the one before left. Parallel: one QEMU per
 * core, all from the same data, then the changes are merged. */
static int run_all(struct emu *E, struct core_run *cores, struct qemu_run *qs, unsigned *nq)
{
	bool chained = E->jobs <= 1 || E->cores == 1;
	*nq = chained ? 1 : E->cores;
	for (unsigned i = 0; i < *nq; i++) {
		qs[i].first = chained ? 0 : i;
		qs[i].n = chained ? E->cores : 1;
		qs[i].dir = q7_xasprintf("%s/run%u", E->dir, i);
		if (prepare_qemu(E, &qs[i], cores, E->L.data))
			return -1;
	}
	q7_proc_signals_install();
	int ran = run_qemus(E, qs, *nq);
	q7_proc_signals_restore();
	if (ran)
		return -1;
	for (unsigned i = 0; i < *nq; i++)
		if (read_results(E, &qs[i], cores))
			return -1;
	if (chained)
		memcpy(E->L.data, cores[E->cores - 1].data, E->L.size);
	else if (merge_data(E, cores, E->cores))
		return -1;
	return final_output(E, &cores[E->cores - 1]);
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

int q7_run_emulated(const struct q7_run_request *req, struct q7_run_result *r)
{
	memset(r, 0, sizeof *r);
	struct emu E = {.req = req, .r = r};
	E.cores = req->cores ? req->cores : 1;
	E.budget = req->timeout_s > 0 ? req->timeout_s : DEFAULT_TIMEOUT;
	E.stats = env_on("Q7CC_EMU_STATS");
	E.icount = env_on("Q7CC_EMU_ICOUNT");
	const char *jobs = getenv("Q7CC_EMU_JOBS");
	E.jobs = jobs && *jobs ? (unsigned)strtoul(jobs, NULL, 10) : 1;
	if (E.jobs == 0)
		E.jobs = 1;
	if (E.cores > Q7_BOOT_MAX_CORES) {
		q7_run_fail(r, "%u cores asked, at most %u", E.cores, Q7_BOOT_MAX_CORES);
		return 1;
	}
	if (E.cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", E.cores);
		return 1;
	}
	const char *env_qemu = getenv("Q7CC_QEMU");
	/* Q7CC_QEMU is a path: "qemu" means ./qemu, never one found on PATH. */
	char *qemu = !(env_qemu && *env_qemu) ? q7_path_search("qemu-system-xtensa", NULL)
	             : strchr(env_qemu, '/') ? q7_xstrdup(env_qemu)
	                                     : q7_xasprintf("./%s", env_qemu);
	if (!qemu || !q7_path_is_executable(qemu)) {
		q7_run_fail(r, "qemu-system-xtensa not found%s%s: --target=emulated needs it (Debian "
		     "package qemu-system-misc: apt-get install qemu-system-misc)",
		     env_qemu && *env_qemu ? " at " : " on PATH", env_qemu && *env_qemu ? env_qemu : "");
		free(qemu);
		return 1;
	}
	char *boot = q7_prefix_path("lib/q7cc/xtensa/q7boot.elf");
	struct q7_strvec paths = {0};
	struct core_run cores[Q7_BOOT_MAX_CORES];
	struct qemu_run qs[Q7_BOOT_MAX_CORES];
	unsigned nq;
	memset(cores, 0, sizeof cores);
	memset(qs, 0, sizeof qs);
	for (unsigned i = 0; i < Q7_BOOT_MAX_CORES; i++)
		qs[i].fd = -1;
	char *err = NULL;
	int rc = 1;
	if (!q7_path_exists(boot)) {
		q7_run_fail(r, "%s: the emulated core's boot program is missing (q7cc was built without "
		     "xtensa-lx106-elf-gcc?)", boot);
		goto out;
	}
	if (q7_run_images(req->lib, E.cores, &paths, &err) != 0) {
		q7_run_fail(r, "%s", err);
		free(err);
		goto out;
	}
	const char *tmp = q7_temp_dir();
	if (!tmp) {
		q7_run_fail(r, "cannot create a temporary directory: %s", strerror(errno));
		goto out;
	}
	E.dir = q7_xasprintf("%s/emu", tmp);
	if (mkdir(E.dir, 0700) != 0 && errno != EEXIST) {
		q7_run_fail(r, "%s: cannot create: %s", E.dir, strerror(errno));
		goto out;
	}
	q7_temp_register(E.dir);
	E.qemu = qemu;
	E.boot = boot;
	if (make_layout(req, &E.L, r) != 0)
		goto out;
	for (unsigned i = 0; i < E.cores; i++) {
		cores[i].core = i;
		cores[i].image = packed_path(paths.v[i]);
	}
	if (run_all(&E, cores, qs, &nq) != 0)
		goto out;
	r->status = Q7_STATUS_OK;
	rc = 0;
out:
	for (unsigned i = 0; i < Q7_BOOT_MAX_CORES; i++) {
		free_qemu(&qs[i], cores);
		free(cores[i].image);
		free(cores[i].data);
		free(cores[i].out);
	}
	free(E.L.data);
	free(E.dir);
	q7_sv_free(&paths);
	free(boot);
	free(qemu);
	return rc;
}
