/* run/emu_session: a persistent emulated core (emu_session.h).
 *
 * Owns one qemu-system-xtensa -M sim -cpu lx106 running q7boot.elf, the
 * files it loads at start (the boot block and each core's prelinked
 * image, in a directory of q7cc's temporary directory), and the socket
 * that is its fd 3 (calls in) and fd 4 (records out). A call is sent as
 * one stream (header, frames, the tensors straight from the caller's
 * buffers) and read back record by record, all with the call's deadline;
 * the dst bytes land straight in the caller's destination buffer.
 *
 * Memory: the session owns everything it allocates; a call's result owns
 * its out_data (run.h). */
#include "bytes.h"
#include "emu_confine.h"
#include "emu_session.h"
#include "emu_session_int.h"
#include "emu_trace.h"
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "image.h"
#include "npy.h"
#include "prelink.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

#define DEFAULT_TIMEOUT 60.0 /* seconds, for all cores of a call together */
#define TENSOR_ALIGN 64u
#define HEAP_ALIGN 0x100000u
/* -icount: one instruction = 128 ns = 5.12 ticks of the 40 MHz CCOUNT, so
 * the ticks between two reads (each read whole ticks) round to the exact
 * number of instructions between them (at 32 ns, 1.28 ticks, they did
 * not). CCOUNT then wraps after 838 million instructions. */
#define ICOUNT_SHIFT 7
/* Between the boot program's two CCOUNT reads around the entry call
 * (runtime/boot/boot.c run_call) run, besides the entry: the store of
 * the first read, the callx0 and the second read itself. */
#define ENTRY_CALL_OVERHEAD 3
#define SLICE_S 0.25     /* longest sleep between looks at QEMU */
#define MAX_TENSORS (Q7_MAX_ARGS + 1)
#define MAX_IOV (2 + 2 * MAX_TENSORS)
#define SOCKET_BUF (4 << 20) /* asked; the system's net.core.wmem_max caps it */

/* Where a call's tensors go: each tensor argument, then dst, 64-byte
 * aligned from Q7_BOOT_DATA_AREA; the heap arena after them. */
struct layout {
	unsigned n;
	const unsigned char *host[MAX_TENSORS]; /* the caller's bytes */
	size_t bytes[MAX_TENSORS];
	uint32_t addr[MAX_TENSORS];
	size_t size; /* of the tensor data */
	uint32_t dst_addr;
	size_t dst_bytes;
	struct q7_arg args[Q7_MAX_ARGS]; /* with core addresses */
	struct q7_tensor_desc dst;
	uint32_t heap, heap_size;
};

/* The call in flight, between q7_emu_send and q7_emu_receive. */
struct call {
	bool busy;
	const struct q7_run_request *req;
	char op[Q7_MAX_OP_NAME];
	unsigned seq, first, n, done;
	double t0, deadline, timeout;
	struct layout L;
	uint32_t back_addr;
	size_t back_bytes;
	unsigned char *back; /* the caller's dst buffer, or region (whole) */
	bool whole;
	struct q7_frame frame; /* the last core's, as it came back */
	unsigned char *out;    /* the out tensor's bytes outside back (owned) */
	size_t out_bytes;
	/* One core and a destination: the runtime leaves a returned tensor
	 * where it is (Q7_FRAME_RESULT_ANYWHERE) and nothing is asked back
	 * but the out tensor, whose bytes land straight in the caller's
	 * destination when they are its bytes (out_at: where they landed). */
	bool anywhere;
	const unsigned char *out_at;
	unsigned char *region; /* the whole tensor data (whole; owned) */
};

struct q7_emu_session {
	char *lib, *qemu, *boot;
	char *trace_log;         /* a profile's QEMU log, or NULL */
	unsigned cores;
	double timeout;
	bool forward, stats, icount, host_files;
	const volatile sig_atomic_t *interrupted; /* q7_emu_config's */
	char *dir;               /* this session's files */
	struct q7_strvec files;  /* registered temporaries, removed at close */
	struct q7_pl_header hdr[Q7_NUM_CORES];
	char *image[Q7_NUM_CORES]; /* the (packed) image each core runs */
	struct q7_strvec argv;   /* QEMU's command line */
	pid_t pid;               /* 0: no QEMU */
	int fd;                  /* our end of its fd 3/4, -1: none */
	bool ready;              /* its READY record was read */
	double boot_t0;
	unsigned seq;
	FILE *trace;             /* Q7CC_SAVE_TEMPS: every call's bytes */
	struct q7_emu_stats st;
	struct call c;
};

const struct q7_pl_header *q7_emu_image_header(const struct q7_emu_session *s, unsigned core)
{
	return core < s->cores ? &s->hdr[core] : NULL;
}

const char *q7_emu_boot_path(const struct q7_emu_session *s) { return s->boot; }

static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

void q7_emu_config_init(struct q7_emu_config *cfg, const char *lib, unsigned cores)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->lib = lib;
	cfg->cores = cores;
	const char *q = getenv("Q7CC_QEMU");
	cfg->qemu = q && *q ? q : NULL;
	cfg->forward_signals = true;
	cfg->stats = env_on("Q7CC_EMU_STATS");
	cfg->icount = env_on("Q7CC_EMU_ICOUNT");
	cfg->semihosting_files = env_on("Q7CC_SEMIHOSTING_FILES");
}

/* ---- opening: images, boot files, QEMU's command line ------------------- */

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

/* A session file, registered as a temporary first so that a signal or
 * the exit removes it. 0, or the errno of the failure (a full disk, a file
 * size limit: the reason is kept across fclose). */
static int write_file(struct q7_emu_session *s, const char *name, const void *buf, size_t n,
                      char **path)
{
	*path = q7_path_join(s->dir, name);
	q7_temp_register(*path);
	q7_sv_add(&s->files, *path);
	FILE *f = fopen(*path, "wb");
	if (!f)
		return errno;
	int e = fwrite(buf, 1, n, f) == n ? 0 : (errno ? errno : EIO);
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	return e;
}

/* QEMU's option parser takes ",," for a comma inside a value. */
static void add_loader(struct q7_strvec *argv, const char *file, uint32_t addr)
{
	struct q7_strbuf b = {0};
	for (const char *p = file; *p; p++) {
		q7_sb_addc(&b, *p);
		if (*p == ',')
			q7_sb_addc(&b, ',');
	}
	q7_sv_add(argv, "-device");
	q7_sv_addf(argv, "loader,file=%s,addr=0x%08x,force-raw=on", b.s, addr);
	q7_sb_free(&b);
}

/* Q7CC_QEMU (a path: "qemu" means ./qemu, never one found on PATH), or
 * qemu-system-xtensa on PATH. */
static char *find_qemu(const char *given, struct q7_run_result *r)
{
	char *qemu = !given ? q7_path_search("qemu-system-xtensa", NULL)
	             : strchr(given, '/') ? q7_xstrdup(given)
	                                  : q7_xasprintf("./%s", given);
	if (!qemu || !q7_path_is_executable(qemu)) {
		q7_run_fail(r, "qemu-system-xtensa not found%s%s: --target=emulated needs it (Debian "
		            "package qemu-system-misc: apt-get install qemu-system-misc)",
		            given ? " at " : " on PATH", given ? given : "");
		free(qemu);
		return NULL;
	}
	return qemu;
}

/* Prelinks each core's image to its window and writes the files QEMU
 * loads at start, and its command line. 0, or -1 after q7_run_fail(). */
static int prepare(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct q7_boot_block b;
	memset(&b, 0, sizeof b);
	b.magic = Q7_BOOT_MAGIC;
	b.version = Q7_BOOT_VERSION;
	b.request_fd = Q7_BOOT_REQUEST_FD;
	b.result_fd = Q7_BOOT_RESULT_FD;
	b.ncores = s->cores;
	struct q7_strvec *argv = &s->argv;
	q7_sv_add(argv, s->qemu);
	static const char *const fixed[] = {"-M", "sim", "-cpu", "lx106", "-semihosting",
	                                    "-nodefaults", "-display", "none", "-monitor", "none",
	                                    "-serial", "none"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		q7_sv_add(argv, fixed[i]);
	q7_sv_add(argv, "-m"); /* sysram0 from the boot block up to RAM_END */
	q7_sv_addf(argv, "%uM", (Q7_BOOT_RAM_END - Q7_BOOT_BLOCK_ADDR) >> 20);
	if (s->icount) {
		q7_sv_add(argv, "-icount");
		q7_sv_addf(argv, "shift=%d", ICOUNT_SHIFT);
	}
	if (s->trace_log) {
		q7_sv_add(argv, "-d");
		q7_sv_add(argv, Q7_TRACE_QEMU_FLAGS);
		q7_sv_add(argv, "-D");
		q7_sv_add(argv, s->trace_log);
	}
	q7_sv_add(argv, "-kernel");
	q7_sv_add(argv, s->boot);
	uint32_t window = s->cores > 1 ? Q7_BOOT_CORE_WINDOW : Q7_BOOT_IMAGE_AREA_SIZE;
	for (unsigned i = 0; i < s->cores; i++) {
		struct q7_prelink_opts po = {.symbol = "lib_func", .core = s->cores > 1 ? (int)i : -1,
		                             .have_base = true,
		                             .base = Q7_BOOT_IMAGE_AREA + i * Q7_BOOT_CORE_WINDOW};
		struct q7_prelinked pl = {0};
		if (q7_prelink_file(&po, s->image[i], &pl, r->message, sizeof r->message) != 0) {
			r->status = -1;
			return -1;
		}
		s->hdr[i] = pl.hdr;
		if ((uint64_t)pl.hdr.load_size + pl.hdr.bss_size > window) {
			q7_run_fail(r, "%s: the image (%u bytes) does not fit its window on the emulated "
			            "core (%u bytes)", s->image[i], pl.hdr.load_size + pl.hdr.bss_size, window);
			q7_prelinked_free(&pl);
			return -1;
		}
		char *name = q7_xasprintf("image%u.bin", i), *path;
		int w = write_file(s, name, pl.bytes, pl.size, &path);
		b.core[i].image = pl.hdr.base - Q7_PL_HEADER_SIZE;
		b.core[i].image_size = (uint32_t)pl.size;
		add_loader(argv, path, b.core[i].image);
		if (w)
			q7_run_fail(r, "%s: cannot write: %s", path, strerror(w));
		free(name);
		free(path);
		q7_prelinked_free(&pl);
		if (w)
			return -1;
	}
	char *par;
	int w = write_file(s, "params.bin", &b, sizeof b, &par);
	add_loader(argv, par, Q7_BOOT_BLOCK_ADDR);
	if (w)
		q7_run_fail(r, "%s: cannot write: %s", par, strerror(w));
	free(par);
	if (w)
		return -1;
	if (q7_save_temps()) {
		char *t = q7_path_join(s->dir, "requests.bin");
		s->trace = fopen(t, "wb");
		free(t);
	}
	return 0;
}

/* ---- QEMU: start, look, stop ------------------------------------------- */

/* Starts QEMU with one end of a socket as its fd 3 and fd 4 and
 * /dev/null as stdin. 0, or -1 after q7_run_fail(). */
static int start_qemu(struct q7_emu_session *s, struct q7_run_result *r)
{
	_Static_assert(Q7_BOOT_REQUEST_FD == 3 && Q7_BOOT_RESULT_FD == 4,
	               "the process layer passes fds 3 and 4");
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		q7_run_fail(r, "cannot create a socket for the emulated core: %s", strerror(errno));
		return -1;
	}
	int buf = SOCKET_BUF;
	for (int i = 0; i < 2; i++)
		setsockopt(sv[i], SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fd3 = sv[1], .fd4 = sv[1], .quiet = true,
	                         .stop_signal = SIGKILL};
	fflush(NULL); /* our buffered output first, then the kernel's */
	char why[Q7_MESSAGE_SIZE] = "";
	pid_t pid;
	if (s->host_files) {
		pid = q7_proc_spawn(s->argv.v, &o);
	} else {
		char *real = realpath(s->qemu, NULL);
		char *qdir = q7_path_dirname(real ? real : s->qemu);
		char *bdir = q7_path_dirname(s->boot);
		const char *const readable[] = {"/usr", "/lib", "/lib64", "/lib32", "/bin",
		                                "/etc/ld.so.cache", qdir, bdir, s->dir, NULL};
		/* The profile's log is made here, so that the rule has a file to
		 * name; QEMU truncates and writes it. */
		const char *const writable[] = {s->trace_log, NULL};
		int lfd = s->trace_log ? open(s->trace_log, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) : -1;
		if (lfd >= 0)
			close(lfd);
		pid = q7_emu_spawn_confined(s->argv.v, &o, readable, s->trace_log ? writable : NULL,
		                            why, sizeof why);
		free(real);
		free(qdir);
		free(bdir);
	}
	int e = errno;
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		if (why[0])
			q7_run_fail(r, "%s", why);
		else
			q7_run_fail(r, "cannot start %s: %s", s->argv.v[0], strerror(e));
		return -1;
	}
	s->pid = pid;
	s->fd = sv[0];
	s->ready = false;
	s->boot_t0 = q7_now_s();
	s->st.boots++;
	return 0;
}

/* Kills QEMU (if it still runs) and reaps it; *status (if asked) gets how
 * it ended. */
static void stop_qemu(struct q7_emu_session *s, int *status)
{
	int st = 0;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->pid > 0) {
		q7_proc_kill(s->pid, SIGKILL);
		q7_proc_wait(s->pid, &st);
	}
	s->pid = 0;
	s->ready = false;
	if (status)
		*status = st;
}

/* Reaps QEMU if it has exited; true when it has. */
static bool qemu_gone(struct q7_emu_session *s, int *status)
{
	if (s->pid <= 0)
		return true;
	pid_t got;
	int st = 0;
	int code = q7_proc_wait_any(&s->pid, 1, 0, &got, &st);
	if (code == Q7_PROC_TIMEOUT)
		return false;
	if (code != Q7_PROC_NONE && status)
		*status = st;
	s->pid = 0;
	return true;
}

/* After end of file: waits for QEMU's end and says how it went. */
static void describe_end(struct q7_emu_session *s, char *how, size_t size)
{
	int st = 0;
	if (!qemu_gone(s, &st)) {
		/* It closed its end but lives on: give it a moment, then stop it. */
		pid_t got;
		if (q7_proc_wait_any(&s->pid, 1, 1.0, &got, &st) == Q7_PROC_TIMEOUT)
			stop_qemu(s, &st);
		s->pid = 0;
	}
	q7_proc_describe(st, how, size);
	stop_qemu(s, NULL);
}

enum { IO_OK = 0, IO_TIMEOUT = -1, IO_EOF = -2, IO_INTERRUPTED = -3 };

/* Sleeps until fd is ready for events or the deadline passes, looking at
 * QEMU every SLICE_S (a forwarded signal kills it, and reaping it then
 * ends this process). */
static int io_wait(struct q7_emu_session *s, short events, double deadline)
{
	for (;;) {
		if (s->interrupted && *s->interrupted)
			return IO_INTERRUPTED;
		double left = deadline - q7_now_s();
		if (left <= 0)
			return IO_TIMEOUT;
		double nap = left < SLICE_S ? left : SLICE_S;
		struct pollfd p = {.fd = s->fd, .events = events};
		int n = poll(&p, 1, (int)(nap * 1000.0) + 1);
		if (n > 0)
			return IO_OK; /* ready, or an error / hang-up the I/O will see */
		if (n < 0 && errno != EINTR)
			return IO_EOF;
		if (qemu_gone(s, NULL))
			return IO_EOF;
	}
}

/* Sends (out) or receives iov[0..n) whole, by the deadline. */
static int transfer(struct q7_emu_session *s, bool out, struct iovec *iov, int n, double deadline)
{
	if (out && s->trace)
		for (int i = 0; i < n; i++)
			fwrite(iov[i].iov_base, 1, iov[i].iov_len, s->trace);
	while (n > 0) {
		struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)n};
		ssize_t k = out ? sendmsg(s->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL)
		                : recvmsg(s->fd, &m, MSG_DONTWAIT);
		if (k == 0 && !out)
			return IO_EOF;
		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return IO_EOF;
			int w = io_wait(s, out ? POLLOUT : POLLIN, deadline);
			if (w != IO_OK)
				return w;
			continue;
		}
		size_t done = (size_t)k;
		while (n > 0 && done >= iov->iov_len) {
			done -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + done;
			iov->iov_len -= done;
		}
	}
	return IO_OK;
}

static int recv_all(struct q7_emu_session *s, void *buf, size_t size, double deadline)
{
	struct iovec v = {buf, size};
	return transfer(s, false, &v, 1, deadline);
}

/* ---- open and close ---------------------------------------------------- */

/* Frees s; its files are removed unless they are another process's
 * (remove false: a forked child's copy of its parent's session). */
static void free_session(struct q7_emu_session *s, bool remove)
{
	if (s->trace && remove)
		fclose(s->trace);
	for (size_t i = 0; i < s->files.n; i++) {
		if (!q7_save_temps()) {
			if (remove)
				unlink(s->files.v[i]);
			q7_temp_forget(s->files.v[i]);
		}
	}
	if (s->dir && !q7_save_temps()) {
		if (remove)
			rmdir(s->dir);
		q7_temp_forget(s->dir);
	}
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		free(s->image[i]);
	q7_sv_free(&s->files);
	q7_sv_free(&s->argv);
	free(s->c.out);
	free(s->c.region);
	free(s->dir);
	free(s->lib);
	free(s->qemu);
	free(s->boot);
	free(s->trace_log);
	free(s);
}

int q7_emu_open(const struct q7_emu_config *cfg, struct q7_emu_session **out,
                struct q7_run_result *why)
{
	memset(why, 0, sizeof *why);
	*out = NULL;
	unsigned cores = cfg->cores ? cfg->cores : 1;
	if (cores > Q7_NUM_CORES) {
		q7_run_fail(why, "%u cores asked, at most %u", cores, Q7_NUM_CORES);
		return 1;
	}
	struct q7_emu_session *s = q7_xcalloc(1, sizeof *s);
	s->fd = -1;
	s->cores = cores;
	s->lib = q7_xstrdup(cfg->lib);
	s->timeout = cfg->timeout_s > 0 ? cfg->timeout_s : DEFAULT_TIMEOUT;
	s->forward = cfg->forward_signals;
	s->interrupted = cfg->interrupted;
	s->host_files = cfg->semihosting_files;
	s->stats = cfg->stats;
	s->icount = cfg->icount;
	s->trace_log = cfg->trace_log ? q7_xstrdup(cfg->trace_log) : NULL;
	struct q7_strvec paths = {0};
	char *err = NULL;
	int rc = 1;
	if (s->forward)
		q7_proc_signals_install();
	s->qemu = find_qemu(cfg->qemu, why);
	if (!s->qemu)
		goto out;
	s->boot = cfg->boot ? q7_xstrdup(cfg->boot) : q7_prefix_path("lib/q7cc/xtensa/q7boot.elf");
	if (!q7_path_exists(s->boot)) {
		q7_run_fail(why, "%s: the emulated core's boot program is missing (q7cc was built "
		            "without xtensa-lx106-elf-gcc?)", s->boot);
		goto out;
	}
	if (q7_run_images(cfg->lib, cores, &paths, &err) != 0) {
		q7_run_fail(why, "%s", err);
		free(err);
		goto out;
	}
	for (unsigned i = 0; i < cores; i++)
		s->image[i] = packed_path(paths.v[i]);
	const char *tmp = q7_temp_dir();
	if (!tmp) {
		q7_run_fail(why, "cannot create a temporary directory: %s", strerror(errno));
		goto out;
	}
	char *templ = q7_xasprintf("%s/emu-XXXXXX", tmp);
	if (!mkdtemp(templ)) {
		q7_run_fail(why, "%s: cannot create: %s", templ, strerror(errno));
		free(templ);
		goto out;
	}
	s->dir = templ;
	q7_temp_register(s->dir);
	if (prepare(s, why) != 0 || start_qemu(s, why) != 0)
		goto out;
	*out = s;
	rc = 0;
out:
	if (rc != 0)
		free_session(s, true);
	if (cfg->forward_signals)
		q7_proc_signals_restore();
	q7_sv_free(&paths);
	return rc;
}

void q7_emu_close(struct q7_emu_session *s)
{
	if (!s)
		return;
	bool forward = s->forward;
	if (forward)
		q7_proc_signals_install();
	stop_qemu(s, NULL);
	free_session(s, true);
	if (forward)
		q7_proc_signals_restore();
}

void q7_emu_disown(struct q7_emu_session *s)
{
	if (!s)
		return;
	/* Our copy of the socket only: the parent's end keeps QEMU's open. */
	if (s->fd >= 0)
		close(s->fd);
	if (s->pid > 0)
		q7_proc_forget(s->pid);
	free_session(s, false);
}

void q7_emu_get_stats(const struct q7_emu_session *s, struct q7_emu_stats *st)
{
	*st = s->st;
	st->pid = s->pid > 0 ? (long)s->pid : 0;
}

/* ---- a call ------------------------------------------------------------ */

size_t q7_emu_desc_bytes(const struct q7_tensor_desc *t)
{
	size_t n = 1;
	for (unsigned i = 0; i < t->ndim && i < Q7_MAX_DIMS; i++)
		n *= t->sizes[i];
	return n * q7_npy_dtype_size((enum q7_dtype)t->dtype);
}

static int make_layout(const struct q7_run_request *req, struct layout *L, struct q7_run_result *r)
{
	memset(L, 0, sizeof *L);
	memcpy(L->args, req->args, sizeof L->args);
	L->dst = req->dst;
	size_t off = 0;
	unsigned nargs = req->nargs < Q7_MAX_ARGS ? req->nargs : Q7_MAX_ARGS;
	for (unsigned i = 0; i <= nargs; i++) {
		const struct q7_tensor_desc *t;
		if (i == nargs)
			t = req->dst.data ? &req->dst : NULL;
		else
			t = req->args[i].kind == Q7_ARG_TENSOR ? &req->args[i].u.tensor : NULL;
		if (!t)
			continue;
		off = (off + TENSOR_ALIGN - 1) & ~(size_t)(TENSOR_ALIGN - 1);
		size_t n = q7_emu_desc_bytes(t);
		if (n > Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA || off + n > Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) {
			q7_run_fail(r, "the tensors (%zu bytes and more) do not fit the emulated core's "
			            "RAM (%u MiB)", off + n, (Q7_BOOT_RAM_END - Q7_BOOT_DATA_AREA) >> 20);
			return -1;
		}
		uint32_t addr = Q7_BOOT_DATA_AREA + (uint32_t)off;
		L->host[L->n] = (const unsigned char *)(uintptr_t)t->data;
		L->bytes[L->n] = n;
		L->addr[L->n] = addr;
		L->n++;
		if (i == nargs) {
			L->dst.data = addr;
			L->dst_addr = addr;
			L->dst_bytes = n;
		} else {
			L->args[i].u.tensor.data = addr;
		}
		off += n;
	}
	L->size = off;
	uint32_t heap = (Q7_BOOT_DATA_AREA + (uint32_t)off + HEAP_ALIGN - 1) & ~(HEAP_ALIGN - 1);
	uint32_t room = heap < Q7_BOOT_RAM_END ? Q7_BOOT_RAM_END - heap : 0;
	/* By default all the RAM the tensors leave: the arena is as large as
	 * a kernel needs, and QEMU maps only the pages it touches. */
	size_t want = req->heap_size ? req->heap_size : room;
	if (want > room || room == 0) {
		q7_run_fail(r, "a heap arena of %zu bytes does not fit the emulated core's RAM beside "
		            "the tensors (%u bytes left)", want, room);
		return -1;
	}
	L->heap = heap;
	L->heap_size = (uint32_t)want;
	return 0;
}

/* "core N: " before a message of a multicore session, else nothing. */
static const char *who(const struct q7_emu_session *s, unsigned core, char *buf, size_t size)
{
	if (s->cores > 1)
		snprintf(buf, size, "core %u: ", core);
	else
		buf[0] = 0;
	return buf;
}

/* Ends the call after a failure that leaves QEMU unusable. */
static void call_lost(struct q7_emu_session *s)
{
	stop_qemu(s, NULL);
	s->c.busy = false;
}

/* The time-out's message: the library, the op and the core that was running. */
static void timed_out(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	char where[64];
	if (s->cores == 1)
		snprintf(where, sizeof where, "on the emulated core");
	else if (!s->ready) /* still booting */
		snprintf(where, sizeof where, "on the emulated cores");
	else
		snprintf(where, sizeof where, "on emulated core %u of %u", c->first + c->done, s->cores);
	stop_qemu(s, NULL);
	c->busy = false;
	/* The library is named as every other failure of a run names it: a
	 * damaged image may spin as well as fault. */
	q7_run_fail(r, "%s: %s: timed out after %g s %s (QEMU stopped); a kernel that never "
	            "returns? --timeout=SECONDS sets the limit", s->lib, c->op, c->timeout, where);
}

/* I/O failed with rc: a time-out, or QEMU ended. -1 after q7_run_fail(). */
static int io_failed(struct q7_emu_session *s, int rc, struct q7_run_result *r)
{
	if (rc == IO_TIMEOUT) {
		timed_out(s, r);
		return -1;
	}
	if (rc == IO_INTERRUPTED) {
		stop_qemu(s, NULL);
		s->c.busy = false;
		q7_run_fail(r, "%s: interrupted (QEMU stopped)", s->c.op);
		return -1;
	}
	char how[96], w[32];
	describe_end(s, how, sizeof how);
	s->c.busy = false;
	q7_run_fail(r, "%s%s: the emulated core gave no result (qemu-system-xtensa %s)",
	            who(s, s->c.first + s->c.done, w, sizeof w), s->lib, how);
	return -1;
}

int q7_emu_send(struct q7_emu_session *s, const struct q7_run_request *req, int only_core,
                struct q7_run_result *r)
{
	struct call *c = &s->c;
	if (c->busy) /* a call sent and never received: its records would come first */
		stop_qemu(s, NULL);
	free(c->out);
	free(c->region);
	memset(c, 0, sizeof *c);
	if (req->cores && req->cores != s->cores) {
		q7_run_fail(r, "the emulated session runs %u core%s, the call asks for %u", s->cores,
		            s->cores == 1 ? "" : "s", req->cores);
		return -1;
	}
	if (s->cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", s->cores);
		return -1;
	}
	if (only_core >= (int)s->cores) {
		q7_run_fail(r, "core %d of a session of %u", only_core, s->cores);
		return -1;
	}
	c->req = req;
	snprintf(c->op, sizeof c->op, "%s", req->op);
	c->t0 = q7_now_s();
	c->timeout = req->timeout_s > 0 ? req->timeout_s : s->timeout;
	c->deadline = c->t0 + c->timeout;
	c->whole = only_core >= 0;
	c->first = c->whole ? (unsigned)only_core : 0;
	c->n = c->whole ? 1 : s->cores;
	c->seq = ++s->seq;
	if (make_layout(req, &c->L, r) != 0)
		return -1;
	if (c->whole) {
		c->back_addr = Q7_BOOT_DATA_AREA;
		c->back_bytes = c->L.size;
		c->region = q7_xmalloc(c->L.size ? c->L.size : 1);
		c->back = c->region;
	} else if (c->L.dst_bytes && s->cores == 1) {
		c->anywhere = true;
	} else if (c->L.dst_bytes) {
		c->back_addr = c->L.dst_addr;
		c->back_bytes = c->L.dst_bytes;
		c->back = (unsigned char *)(uintptr_t)req->dst.data;
	}
	/* A QEMU that ended since (killed from outside) is replaced. */
	if (s->pid > 0 && qemu_gone(s, NULL))
		stop_qemu(s, NULL);
	if (s->pid <= 0 && start_qemu(s, r) != 0)
		return -1;
	fflush(stdout); /* our output first, then the kernel's */
	fflush(stderr);
	s->st.calls++;
	struct q7_boot_call h;
	memset(&h, 0, sizeof h);
	h.magic = Q7_CALL_MAGIC;
	h.version = Q7_BOOT_VERSION;
	h.seq = c->seq;
	h.first = c->first;
	h.ncores = c->n;
	h.data_bytes = (uint32_t)c->L.size;
	h.back_addr = c->back_addr;
	h.back_bytes = (uint32_t)c->back_bytes;
	/* Past our own deadline (which normally stops QEMU first), the boot
	 * program stops by itself: no core spins on if this process is gone.
	 * Under -icount CCOUNT counts instructions, not time: no limit then. */
	double limit_ms = c->timeout * 1000.0 + 2000.0;
	if (!s->icount && limit_ms <= Q7_BOOT_MAX_TIME_LIMIT_MS)
		h.time_limit_ms = (uint32_t)limit_ms;
	struct q7_frame *frames = q7_xcalloc(c->n, sizeof *frames);
	for (unsigned k = 0; k < c->n; k++) {
		struct q7_frame *f = &frames[k];
		q7_run_frame_init(f, req, c->first + k, s->cores);
		memcpy(f->args, c->L.args, sizeof f->args); /* core addresses */
		f->dst = c->L.dst;
		f->heap_base = c->L.heap;
		f->heap_size = c->L.heap_size;
		f->loader_flags = c->anywhere ? Q7_FRAME_RESULT_ANYWHERE : 0;
	}
	static const unsigned char zeros[TENSOR_ALIGN];
	struct iovec iov[MAX_IOV];
	int n = 0;
	iov[n++] = (struct iovec){&h, sizeof h};
	iov[n++] = (struct iovec){frames, c->n * sizeof *frames};
	size_t at = 0;
	for (unsigned i = 0; i < c->L.n; i++) {
		size_t pad = c->L.addr[i] - Q7_BOOT_DATA_AREA - at;
		if (pad)
			iov[n++] = (struct iovec){(void *)zeros, pad};
		if (c->L.bytes[i])
			iov[n++] = (struct iovec){(void *)c->L.host[i], c->L.bytes[i]};
		at += pad + c->L.bytes[i];
	}
	c->busy = true;
	int rc = transfer(s, true, iov, n, c->deadline);
	free(frames);
	/* QEMU that stopped reading may have said why (a bad image): read on. */
	if (rc == IO_TIMEOUT || rc == IO_INTERRUPTED)
		return io_failed(s, rc, r);
	return 0;
}

/* What a boot status other than OK says. */
static void boot_failure(struct q7_emu_session *s, const struct q7_boot_result *br,
                         struct q7_run_result *r)
{
	char w[32];
	const char *pre = who(s, br->core, w, sizeof w);
	/* The image the core ran: a damaged one is named. */
	const char *image = br->core < s->cores && s->image[br->core] ? s->image[br->core] : s->lib;
	/* Where in the linked image, for addr2line on the .so. */
	const struct q7_pl_header *h = br->core < s->cores ? &s->hdr[br->core] : NULL;
	char where[64] = "";
	if (h && br->exc_pc >= h->base && br->exc_pc - h->base < h->load_size)
		snprintf(where, sizeof where, " (0x%08x in the linked image)",
		         br->exc_pc - h->base + h->link_base);
	if (br->boot_status == Q7_BOOT_EXCEPTION) {
		q7_run_fail(r, "%s%s: the core took an %s: EXCCAUSE %u (%s: %s) at pc 0x%08x%s, "
		            "address 0x%08x", pre, image, br->message, br->exc_cause,
		            q7_emu_exc_name(br->exc_cause), q7_emu_exc_meaning(br->exc_cause),
		            br->exc_pc, where, br->exc_vaddr);
	} else if (br->boot_status == Q7_BOOT_BREAK) {
		/* DEBUGCAUSE bits 3 and 4: BREAK and BREAK.N. */
		q7_run_fail(r, "%s%s: the core stopped at a %s (DEBUGCAUSE 0x%x) at pc 0x%08x%s", pre,
		            image,
		            br->exc_cause & 0x18 ? "BREAK instruction (__builtin_trap, or a breakpoint)"
		                                 : "debug exception",
		            br->exc_cause, br->exc_pc, where);
	} else {
		q7_run_fail(r, "%s%s: the boot program stopped: %s", pre, image, br->message);
	}
}

static void print_stats(const struct q7_emu_session *s, const struct q7_boot_result *br,
                        const struct q7_frame *f)
{
	uint32_t cycles = br->ccount_end - br->ccount_start;
	fprintf(stderr, "%s: emulated core %u: %u cycles", q7_progname(), br->core, cycles);
	if (s->icount) {
		/* The entry's instructions: the same count as a profile's. */
		unsigned long long ns_per = 1ull << ICOUNT_SHIFT;
		unsigned long long ns = (unsigned long long)cycles * 1000000ull / Q7_BOOT_CCOUNT_KHZ;
		unsigned long long n = (ns + ns_per / 2) / ns_per;
		fprintf(stderr, ", %llu instructions", n > ENTRY_CALL_OVERHEAD ? n - ENTRY_CALL_OVERHEAD : 0);
	}
	fprintf(stderr, ", stack %u bytes%s\n", br->stack_used,
	        f->switched_stack ? ", switched stack" : "");
}

/* Where an anywhere call's out tensor of n bytes lands: the caller's
 * destination when it starts at the destination on the core (the kernel
 * wrote get_dst_tensor(), or the op list) or when it is the returned
 * tensor the runtime would have copied there (as many bytes); else NULL
 * (a buffer of the call's own). */
static unsigned char *result_into_dst(const struct call *c, size_t n)
{
	if (!c->anywhere || n > c->L.dst_bytes)
		return NULL;
	if (c->frame.out.data != c->L.dst_addr && n != c->L.dst_bytes)
		return NULL;
	return (unsigned char *)(uintptr_t)c->req->dst.data;
}

/* Reads records until the call's last one. 0, or -1 after q7_run_fail()
 * (the frame's own failure included). */
static int read_records(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	for (;;) {
		struct q7_boot_result br;
		int rc = recv_all(s, &br, sizeof br, c->deadline);
		if (rc != IO_OK)
			return io_failed(s, rc, r);
		br.message[sizeof br.message - 1] = 0;
		bool fatal = br.boot_status != Q7_BOOT_OK && br.boot_status != Q7_BOOT_BAD_OUTPUT;
		if (br.magic != Q7_RESULT_MAGIC || br.version != Q7_BOOT_VERSION) {
			call_lost(s);
			q7_run_fail(r, "%s: the boot program's record is damaged (magic 0x%08x, version %u; "
			            "q7boot.elf of another q7cc, or an image that wrote over it?)", s->lib,
			            br.magic, br.version);
			return -1;
		}
		if (br.kind == Q7_RESULT_READY && !s->ready) {
			if (br.boot_status != Q7_BOOT_OK) {
				boot_failure(s, &br, r);
				call_lost(s);
				return -1;
			}
			s->ready = true;
			if (s->stats)
				fprintf(stderr, "%s: emulated session: QEMU booted in %.3f s\n", q7_progname(),
				        q7_now_s() - s->boot_t0);
			continue;
		}
		bool last = br.kind == Q7_RESULT_LAST;
		/* Every core's record carries its frame; only a damaged call's
		 * (which ends the session) has none. */
		if (!s->ready || (!last && br.kind != Q7_RESULT_CORE) || br.seq != c->seq ||
		    br.core != c->first + c->done ||
		    (br.frame_size != 0 && br.frame_size != sizeof c->frame) ||
		    (br.frame_size == 0 && !fatal)) {
			call_lost(s);
			q7_run_fail(r, "%s: the boot program's record is out of order or damaged", s->lib);
			return -1;
		}
		if (br.frame_size && (rc = recv_all(s, &c->frame, sizeof c->frame, c->deadline)) != IO_OK)
			return io_failed(s, rc, r);
		c->frame.message[sizeof c->frame.message - 1] = 0;
		c->done++;
		if (br.frame_size && s->stats)
			print_stats(s, &br, &c->frame);
		if (br.frame_size && c->frame.switched_stack)
			r->switched_stack = 1;
		/* The runtime's warning (status OK and a message): the first
		 * core's, as every core gives the same one. */
		if (br.frame_size && c->frame.status == Q7_STATUS_OK && c->frame.message[0] &&
		    !r->message[0])
			snprintf(r->message, sizeof r->message, "%s", c->frame.message);
		if (br.boot_status != Q7_BOOT_OK) {
			boot_failure(s, &br, r);
			if (fatal)
				call_lost(s);
			else
				c->busy = false;
			return -1;
		}
		bool ok = c->frame.status == Q7_STATUS_OK;
		if (!last && !ok) {
			call_lost(s);
			q7_run_fail(r, "%s: the boot program went on after a failed core", s->lib);
			return -1;
		}
		if (!last)
			continue;
		if (br.back_bytes != (ok ? c->back_bytes : 0) ||
		    br.out_bytes > Q7_BOOT_RAM_END - Q7_BOOT_BLOCK_ADDR) {
			call_lost(s);
			q7_run_fail(r, "%s: the boot program's record is truncated or damaged", s->lib);
			return -1;
		}
		if (br.back_bytes && (rc = recv_all(s, c->back, br.back_bytes, c->deadline)) != IO_OK)
			return io_failed(s, rc, r);
		c->out_bytes = br.out_bytes;
		unsigned char *into = result_into_dst(c, br.out_bytes);
		if (!into)
			into = c->out = q7_xmalloc(br.out_bytes ? br.out_bytes : 1);
		c->out_at = into;
		if (br.out_bytes && (rc = recv_all(s, into, br.out_bytes, c->deadline)) != IO_OK)
			return io_failed(s, rc, r);
		c->busy = false;
		if (!ok) {
			r->status = c->frame.status;
			char w[32];
			if (c->frame.message[0]) {
				/* "<who><message>", the message cut to fit: copied, not
				 * printed (GCC at -Os warns of the cut a "%s%s" makes). */
				snprintf(r->message, sizeof r->message, "%s", who(s, br.core, w, sizeof w));
				size_t at = strlen(r->message);
				size_t n = strnlen(c->frame.message, sizeof c->frame.message);
				if (n > sizeof r->message - 1 - at)
					n = sizeof r->message - 1 - at;
				memcpy(r->message + at, c->frame.message, n);
				r->message[at + n] = '\0';
			} else /* the runtime always says why: its image is not what q7cc built */
				snprintf(r->message, sizeof r->message,
				         "%s%s: the op ended with status %d and no message (a damaged image?)",
				         who(s, br.core, w, sizeof w), s->lib, (int)c->frame.status);
			return -1;
		}
		return 0;
	}
}

int q7_emu_receive(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct call *c = &s->c;
	if (!c->busy) {
		if (r->status == 0)
			q7_run_fail(r, "no call to receive");
		return -1;
	}
	int rc = read_records(s, r);
	s->st.last_call_s = q7_now_s() - c->t0;
	if (s->stats)
		fprintf(stderr, "%s: emulated run of core%s %u..%u: %.3f s\n", q7_progname(),
		        c->n > 1 ? "s" : "", c->first, c->first + c->n - 1, s->st.last_call_s);
	return rc;
}

unsigned char *q7_emu_sent_data(const struct q7_emu_session *s, size_t *size)
{
	const struct layout *L = &s->c.L;
	unsigned char *d = q7_xcalloc(1, L->size ? L->size : 1);
	for (unsigned i = 0; i < L->n; i++)
		if (L->bytes[i])
			memcpy(d + (L->addr[i] - Q7_BOOT_DATA_AREA), L->host[i], L->bytes[i]);
	*size = L->size;
	return d;
}

void q7_emu_last(const struct q7_emu_session *s, struct q7_emu_back *b)
{
	const struct call *c = &s->c;
	b->frame = &c->frame;
	b->data = c->back;
	b->data_addr = c->back_addr;
	b->data_bytes = c->back_bytes;
	b->out = c->out_at;
	b->out_bytes = c->out_bytes;
}

int q7_emu_take_output(const struct q7_emu_back *b, struct q7_run_result *r)
{
	const struct q7_frame *f = b->frame;
	uint64_t lo = b->data_addr, hi = lo + b->data_bytes;
	if (b->data_bytes && f->out.data >= lo && f->out.data < hi)
		return q7_run_take_output(f, b->data + (f->out.data - lo), (size_t)(hi - f->out.data), r);
	return q7_run_take_output(f, b->out, b->out_bytes, r);
}

int q7_emu_call(struct q7_emu_session *s, const struct q7_run_request *req,
                struct q7_run_result *res)
{
	memset(res, 0, sizeof *res);
	if (s->forward)
		q7_proc_signals_install();
	int rc = 1;
	if (q7_emu_send(s, req, -1, res) == 0 && q7_emu_receive(s, res) == 0) {
		struct q7_emu_back b;
		q7_emu_last(s, &b);
		if (q7_emu_take_output(&b, res) == 0) {
			res->status = Q7_STATUS_OK;
			rc = 0;
		}
	}
	if (s->forward)
		q7_proc_signals_restore();
	return rc;
}

/* The Xtensa ISA's exception causes (EXCCAUSE), named as the ISA names
 * them, with what each means for a kernel. */
static const struct exc_cause {
	uint32_t cause;
	const char *name, *meaning;
} exc_causes[] = {
	{0, "IllegalInstruction", "an instruction the core does not have"},
	{1, "Syscall", "a SYSCALL instruction"},
	{2, "InstructionFetchError", "an error fetching an instruction"},
	{3, "LoadStoreError", "an error on a load or store"},
	{4, "Level1Interrupt", "a level-1 interrupt"},
	{5, "Alloca", "a MOVSP the window could not take"},
	{6, "IntegerDivideByZero", "an integer division by zero"},
	{8, "Privileged", "a privileged instruction"},
	{9, "LoadStoreAlignment", "a misaligned load or store"},
	{12, "InstrPIFDataError", "a bus error fetching an instruction"},
	{13, "LoadStorePIFDataError", "a bus error on a load or store"},
	{14, "InstrPIFAddrError", "an instruction fetch from an address with no memory"},
	{15, "LoadStorePIFAddrError", "a load or store at an address with no memory"},
	{16, "InstTLBMiss", "an instruction fetch the TLB does not map"},
	{17, "InstTLBMultiHit", "an instruction fetch the TLB maps twice"},
	{18, "InstFetchPrivilege", "an instruction fetch from privileged memory"},
	{20, "InstFetchProhibited", "an instruction fetch from memory that may not be executed"},
	{24, "LoadStoreTLBMiss", "a load or store the TLB does not map"},
	{25, "LoadStoreTLBMultiHit", "a load or store the TLB maps twice"},
	{26, "LoadStorePrivilege", "a load or store to privileged memory"},
	{28, "LoadProhibited", "a load from memory that may not be read"},
	{29, "StoreProhibited", "a store to memory that may not be written"},
};

/* The row of cause, or NULL: coprocessor causes (32-39) and reserved ones
 * have none. */
static const struct exc_cause *exc_row(uint32_t cause)
{
	for (size_t i = 0; i < sizeof exc_causes / sizeof exc_causes[0]; i++)
		if (exc_causes[i].cause == cause)
			return &exc_causes[i];
	return NULL;
}

const char *q7_emu_exc_name(uint32_t cause)
{
	const struct exc_cause *e = exc_row(cause);
	return e ? e->name : cause >= 32 && cause <= 39 ? "CoprocessorDisabled"
	                                                  : "a cause the ISA reserves";
}

const char *q7_emu_exc_meaning(uint32_t cause)
{
	const struct exc_cause *e = exc_row(cause);
	return e ? e->meaning
	         : cause >= 32 && cause <= 39 ? "a coprocessor instruction while the coprocessor is off"
	                                      : "an exception this core should not raise";
}
