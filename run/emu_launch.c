/* run/emu_launch: an emulated session's QEMU process (emu_launch.h):
 * its configuration, the files it loads, its start and end, the socket's
 * transfers, and opening and closing the session around it. */
#include "emu_launch.h"
#include "bytes.h"
#include "emu_confine.h"
#include "emu_ram.h"
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
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "q7/boot.h"
#include "run_image.h"
#include "prelink.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

void q7_emu_config_init(struct q7_emu_config *cfg, const char *lib, unsigned cores)
{
	const char *q = getenv("Q7CC_QEMU");
	*cfg = (struct q7_emu_config){.lib = lib, .cores = cores, .qemu = q && *q ? q : NULL,
	                              .forward_signals = true,
	                              .stats = env_on("Q7CC_EMU_STATS") ? stderr : NULL,
	                              .icount = env_on("Q7CC_EMU_ICOUNT"),
	                              .unchecked = q7_run_unchecked(0),
	                              .semihosting_files = env_on("Q7CC_SEMIHOSTING_FILES")};
}

/* ---- opening: images, boot files, QEMU's command line ------------------- */

/* The image a core runs: <base>.packed.so beside <base>.so when it is
 * there (what a release build leaves), else the image itself (-g builds
 * are not packed; the prelinker takes plain images too). */
static char *packed_path(const char *image)
{
	const char *b = q7_path_basename(image);
	size_t n = strlen(image), k = strlen(b);
	if (n > 3 && strcmp(image + n - 3, ".so") == 0 &&
	    !(k > 10 && strncmp(b + k - 10, ".packed", 7) == 0)) { /* one already */
		char *packed = q7_xasprintf("%.*s.packed.so", (int)(n - 3), image);
		if (q7_path_exists(packed))
			return packed;
		free(packed);
	}
	return q7_xstrdup(image);
}

/* A session file QEMU's loader puts at addr in the core's memory:
 * registered as a temporary first so that a signal or the exit removes
 * it, written, and named on QEMU's command line (",," for a comma inside
 * a value, as QEMU's option parser takes it). 0, or -1 after
 * q7_run_fail() (a full disk, a file size limit: the reason is kept
 * across fclose). */
static int load_file(struct q7_emu_session *s, const char *name, const void *buf, size_t n,
                     uint32_t addr, struct q7_run_result *r)
{
	char *path = q7_path_join(s->dir, name);
	q7_temp_register(path);
	q7_sv_add(&s->files, path);
	FILE *f = fopen(path, "wb");
	int e = !f ? errno : fwrite(buf, 1, n, f) == n ? 0 : (errno ? errno : EIO);
	if (f && fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	struct q7_strbuf b = {0};
	for (const char *p = path; *p; p++) {
		q7_sb_addc(&b, *p);
		if (*p == ',')
			q7_sb_addc(&b, ',');
	}
	q7_sv_add(&s->argv, "-device");
	q7_sv_addf(&s->argv, "loader,file=%s,addr=0x%08x,force-raw=on", b.s, addr);
	q7_sb_free(&b);
	if (e)
		q7_run_fail(r, "%s: cannot write: %s", path, strerror(e));
	free(path);
	return e ? -1 : 0;
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
 * loads at start, and its command line; reserves the buffer of what
 * calls hand back (address space, its pages made as a call needs them).
 * 0, or -1 after q7_run_fail(). */
static int prepare(struct q7_emu_session *s, struct q7_run_result *r)
{
	struct q7_boot_block b = {.magic = Q7_BOOT_MAGIC, .version = Q7_BOOT_VERSION,
	                          .request_fd = Q7_BOOT_REQUEST_FD, .result_fd = Q7_BOOT_RESULT_FD,
	                          .ncores = s->cores};
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
		if (q7_prelink_file(&po, s->image[i], &pl, &Q7_ERR_OF(r->message)) != 0) {
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
		char *name = q7_xasprintf("image%u.bin", i);
		b.core[i].image = pl.hdr.base - Q7_PL_HEADER_SIZE;
		b.core[i].image_size = (uint32_t)pl.size;
		int w = load_file(s, name, pl.bytes, pl.size, b.core[i].image, r);
		free(name);
		q7_prelinked_free(&pl);
		if (w != 0)
			return -1;
	}
	s->block = b;
	if (load_file(s, "params.bin", &b, sizeof b, Q7_BOOT_BLOCK_ADDR, r) != 0)
		return -1;
	if (q7_save_temps()) {
		char *t = q7_path_join(s->dir, "requests.bin");
		s->trace = fopen(t, "wb");
		free(t);
	}
	void *m = mmap(NULL, DATA_MAP_BYTES, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		q7_run_fail(r, "cannot reserve %zu bytes for the emulated core's results: %s",
		            DATA_MAP_BYTES, strerror(errno));
		return -1;
	}
	s->data = m;
	return 0;
}

/* ---- QEMU: start, look, stop ------------------------------------------- */

int q7_emu_start_qemu(struct q7_emu_session *s, struct q7_run_result *r)
{
	_Static_assert(Q7_BOOT_REQUEST_FD == 3 && Q7_BOOT_RESULT_FD == 4,
	               "the process layer passes its list of fds as 3 on");
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		q7_run_fail(r, "cannot create a socket for the emulated core: %s", strerror(errno));
		return -1;
	}
	/* dies_with_us: a process killed mid-call (kill -9 of Python) leaves
	 * no QEMU spinning on. */
	const int fds[] = {sv[1], sv[1]};
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fds = fds, .nfds = 2, .quiet = true,
	                         .stop_signal = SIGKILL, .dies_with_us = true};
	fflush(NULL); /* our buffered output first, then the kernel's */
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
	pid_t pid = q7_emu_spawn_confined(s->argv.v, &o, s->host_files ? NULL : readable,
	                                  s->trace_log ? writable : NULL, &Q7_ERR_OF(r->message));
	free(real);
	free(qdir);
	free(bdir);
	close(sv[1]);
	if (pid < 0) {
		r->status = -1;
		close(sv[0]);
		return -1;
	}
	s->pid = pid;
	s->fd = sv[0];
	s->ready = false;
	s->ram = 0;
	s->boot_t0 = q7_now_s();
	s->st.boots++;
	return 0;
}

/* QEMU is killed before its socket closes: a boot program that saw the
 * socket's end first (a read failing with ECONNRESET when a record it
 * wrote was never read, say the ready record of a session never called)
 * would report that on stderr ("q7boot: cannot write the result") before
 * the kill landed. */
void q7_emu_stop_qemu(struct q7_emu_session *s, int *status)
{
	int st = 0;
	if (s->pid > 0) {
		q7_proc_kill(s->pid, SIGKILL);
		q7_proc_wait(s->pid, &st);
	}
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->pid = 0;
	s->ready = false;
	s->ram = 0;
	if (status)
		*status = st;
}

bool q7_emu_qemu_gone(struct q7_emu_session *s, int *status)
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

void q7_emu_describe_end(struct q7_emu_session *s, char *how, size_t size)
{
	int st = 0;
	pid_t got;
	/* It closed its end but may live on: a moment, then it is stopped. */
	if (s->pid > 0 && q7_proc_wait_any(&s->pid, 1, 1.0, &got, &st) == Q7_PROC_TIMEOUT)
		q7_emu_stop_qemu(s, &st);
	s->pid = 0;
	q7_proc_describe(st, how, size);
	q7_emu_stop_qemu(s, NULL);
}

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
		if (q7_emu_qemu_gone(s, NULL))
			return IO_EOF;
	}
}

int q7_emu_transfer(struct q7_emu_session *s, bool out, struct iovec *iov, int n,
                    double deadline)
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
		q7_emu_iov_skip(&iov, &n, (size_t)k);
	}
	return IO_OK;
}

int q7_emu_recv_all(struct q7_emu_session *s, void *buf, size_t size, double deadline)
{
	struct iovec v = {buf, size};
	return q7_emu_transfer(s, false, &v, 1, deadline);
}

/* ---- open and close ---------------------------------------------------- */

/* Frees s; its files are removed unless they are another process's
 * (remove false: a forked child's copy of its parent's session). */
static void free_session(struct q7_emu_session *s, bool remove)
{
	if (s->trace && remove)
		fclose(s->trace);
	for (size_t i = 0; i < s->files.n && !q7_save_temps(); i++) {
		if (remove)
			unlink(s->files.v[i]);
		q7_temp_forget(s->files.v[i]);
	}
	if (s->dir && !q7_save_temps()) {
		if (remove)
			rmdir(s->dir);
		q7_temp_forget(s->dir);
	}
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		free(s->image[i]);
	q7_sv_free(&s->files);
	q7_sv_free(&s->linked);
	q7_sv_free(&s->argv);
	if (s->data)
		munmap(s->data, DATA_MAP_BYTES);
	free(s->move_buf);
	free(s->dir);
	free(s->lib);
	free(s->qemu);
	free(s->boot);
	free(s->trace_log);
	free(s);
}

int q7_emu_open(const struct q7_emu_config *cfg, struct q7_emu_session **out, struct q7_err *err)
{
	struct q7_run_result failed = {0}, *why = &failed; /* the helpers' carrier */
	*out = NULL;
	unsigned cores = cfg->cores ? cfg->cores : 1;
	if (cores > Q7_NUM_CORES) {
		q7_err_set(err, NULL, "%u cores asked, at most %u", cores, Q7_NUM_CORES);
		return -1;
	}
	struct q7_emu_session *s = q7_xmalloc(sizeof *s);
	*s = (struct q7_emu_session){
		.fd = -1, .cores = cores, .lib = q7_xstrdup(cfg->lib),
		.timeout = cfg->timeout_s > 0 ? cfg->timeout_s : Q7_DEFAULT_TIMEOUT_S,
		.forward = cfg->forward_signals, .interrupted = cfg->interrupted,
		.host_files = cfg->semihosting_files, .stats = cfg->stats, .icount = cfg->icount,
		.unchecked = cfg->unchecked};
	int rc = -1;
	if (s->forward)
		q7_proc_signals_install();
	s->qemu = find_qemu(cfg->qemu, why);
	if (!s->qemu)
		goto out;
	s->boot = cfg->boot ? q7_xstrdup(cfg->boot) : q7_prefix_path("lib/q7cc/xtensa/q7boot.elf");
	if (!q7_path_exists(s->boot)) {
		if (cfg->boot)
			q7_run_fail(why, "%s: the emulated core's boot program is missing", s->boot);
		else
			q7_run_fail(why, "%s: the emulated core's boot program is missing (q7cc's files "
			            "are looked for under %s: a program that opens sessions finds them "
			            "by the q7cc on PATH, else sets Q7CC_PREFIX or calls "
			            "q7_set_prefix() with q7cc's prefix; or q7cc was built without "
			            "xtensa-lx106-elf-gcc)",
			            s->boot, q7_prefix());
		goto out;
	}
	for (unsigned i = 0; cfg->images && i < cores; i++)
		q7_sv_add(&s->linked, cfg->images[i]);
	if (!cfg->images && q7_run_images(cfg->lib, cores, &s->linked, err) < 0)
		goto out_freed;
	for (unsigned i = 0; i < cores; i++)
		s->image[i] = packed_path(s->linked.v[i]);
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
	if (cfg->trace) {
		s->trace_log = q7_path_join(s->dir, "trace.log");
		q7_temp_register(s->trace_log);
		q7_sv_add(&s->files, s->trace_log);
	}
	if (prepare(s, why) != 0 || q7_emu_start_qemu(s, why) != 0)
		goto out;
	*out = s;
	rc = 0;
out:
	if (rc != 0)
		q7_err_set(err, NULL, "%s", why->message);
out_freed:
	if (rc != 0)
		free_session(s, true);
	if (cfg->forward_signals)
		q7_proc_signals_restore();
	return rc;
}

void q7_emu_close(struct q7_emu_session *s)
{
	if (!s)
		return;
	bool forward = s->forward;
	if (forward)
		q7_proc_signals_install();
	q7_emu_stop_qemu(s, NULL);
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
