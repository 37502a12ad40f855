/* The emulated session API (run/emu_session.h) on the frame-ABI
 * fixture images (tests/emulated/fixture), with the real QEMU and boot
 * program: many calls in one QEMU, the destination written back, a kernel
 * error that keeps the session, an exception and a time-out that cost a
 * new QEMU, eight per-core images, open's refusals, close leaving no
 * process nor file, q7_run_emulated's race check built on sessions, and
 * the engine's refusal of a call for another number of cores.
 * Under ASan/LSan with the other unit tests (scripts/test).
 * argv: q7boot.elf, fk.so, fk_mc.so. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "emu_session.h"
#include "engine.h"
#include "support.h"
#include "tempfile.h"

static const char *boot, *fk, *fk_mc;

/* A request for the fixture: op with an int32 tensor x (n elements) and
 * an integer k; dst (n int32) when dst is given. */
struct call {
	struct q7_call req;
	int32_t x[64];
	int32_t dst[64];
};

static void make_call(struct call *c, const char *op, unsigned n, int64_t k, bool dst)
{
	memset(c, 0, sizeof *c);
	for (unsigned i = 0; i < n; i++)
		c->x[i] = (int32_t)(i * 7) - 50;
	c->req.op = op;
	c->req.nargs = 2;
	struct q7_tensor_desc *t = &c->req.args[0].u.tensor;
	c->req.args[0].kind = Q7_ARG_TENSOR;
	t->dtype = Q7_DTYPE_INT32;
	t->ndim = 1;
	t->sizes[0] = n;
	t->strides[0] = 1;
	t->data = (uint64_t)(uintptr_t)c->x;
	c->req.args[1].kind = Q7_ARG_INT;
	c->req.args[1].u.i = k;
	if (dst) {
		c->req.dst = *t;
		c->req.dst.data = (uint64_t)(uintptr_t)c->dst;
	}
}

static struct q7_emu_session *open_ok(const char *lib, unsigned cores, double timeout)
{
	struct q7_emu_config cfg;
	q7_emu_config_init(&cfg, lib, cores);
	cfg.boot = boot;
	cfg.timeout_s = timeout;
	struct q7_emu_session *s = NULL;
	char why[Q7_MESSAGE_SIZE];
	int rc = q7_emu_open(&cfg, &s, &Q7_ERR_OF(why));
	ck_assert_msg(rc == 0, "open: %s", why);
	ck_assert_ptr_nonnull(s);
	return s;
}

static long qemu_pid(const struct q7_emu_session *s)
{
	struct q7_emu_stats st;
	q7_emu_get_stats(s, &st);
	return st.pid;
}

static unsigned boots(const struct q7_emu_session *s)
{
	struct q7_emu_stats st;
	q7_emu_get_stats(s, &st);
	return st.boots;
}

/* scale: out = x * k + cpu_id, in the heap (no dst) or dst. */
static void expect_scale(struct q7_emu_session *s, unsigned n, int64_t k, unsigned cores, bool dst)
{
	struct call c;
	struct q7_run_result r;
	make_call(&c, "scale", n, k, dst);
	int rc = q7_emu_call(s, &c.req, &r);
	ck_assert_msg(rc == 0, "scale: %s", r.message);
	ck_assert_int_eq(r.status, Q7_STATUS_OK);
	ck_assert_uint_eq(r.out.ndim, 1);
	ck_assert_uint_eq(r.out.sizes[0], n);
	ck_assert_uint_eq(r.out_bytes, n * 4);
	if (dst) { /* the result is the destination's bytes, not a copy of them */
		ck_assert_ptr_null(r.out_data);
		ck_assert(r.out.data == (uint64_t)(uintptr_t)c.dst);
	}
	const int32_t *o = (const int32_t *)(uintptr_t)r.out.data;
	for (unsigned i = 0; i < n; i++) {
		int32_t want = c.x[i] * (int32_t)k + (int32_t)(i % cores);
		ck_assert_int_eq(o[i], want);
		if (dst) /* written back, as the host target leaves it */
			ck_assert_int_eq(c.dst[i], want);
	}
	q7_run_result_free(&r);
}

/* c must fail with status, its message holding needle, and no output. */
static void expect_error(struct q7_emu_session *s, const struct call *c, int status,
                         const char *needle)
{
	struct q7_run_result r;
	ck_assert_int_eq(q7_emu_call(s, &c->req, &r), 1);
	ck_assert_int_eq(r.status, status);
	ck_assert_msg(strstr(r.message, needle), "%s", r.message);
	ck_assert_ptr_null(r.out_data);
}

START_TEST(many_calls_one_qemu)
{
	struct q7_emu_session *s = open_ok(fk, 1, 0);
	long pid = qemu_pid(s);
	ck_assert_int_gt(pid, 0);
	for (unsigned i = 1; i <= 10; i++)
		expect_scale(s, 3 + i * 5, (int64_t)i - 4, 1, i % 2);
	struct q7_emu_stats st;
	q7_emu_get_stats(s, &st);
	ck_assert_uint_eq(st.boots, 1);
	ck_assert_uint_eq(st.calls, 10);
	ck_assert_int_eq(st.pid, pid);
	ck_assert(st.last_call_s > 0 && st.last_call_s < 60);
	q7_emu_close(s);
	ck_assert_int_eq(kill((pid_t)pid, 0), -1); /* stopped and reaped */
	ck_assert_int_eq(errno, ESRCH);
}
END_TEST

START_TEST(kernel_error_keeps_the_session)
{
	struct q7_emu_session *s = open_ok(fk, 1, 0);
	struct call c;
	make_call(&c, "fail", 4, 0, false);
	c.req.nargs = 0;
	expect_error(s, &c, Q7_STATUS_KERNEL_ERROR, "fail: asked to fail");
	make_call(&c, "nope", 4, 0, false);
	expect_error(s, &c, Q7_STATUS_NO_SUCH_OP, "");
	expect_scale(s, 9, 2, 1, false);
	ck_assert_uint_eq(boots(s), 1);
	q7_emu_close(s);
}
END_TEST

START_TEST(exception_and_timeout_cost_a_qemu)
{
	struct q7_emu_session *s = open_ok(fk, 1, 0);
	expect_scale(s, 5, 3, 1, false);
	long first = qemu_pid(s);
	struct call c;
	make_call(&c, "ill", 1, 0, false);
	c.req.nargs = 0;
	expect_error(s, &c, -1, "EXCCAUSE 0 (IllegalInstruction: ");
	ck_assert_int_eq(qemu_pid(s), 0);
	ck_assert_int_eq(kill((pid_t)first, 0), -1);
	expect_scale(s, 5, 4, 1, false);
	ck_assert_uint_eq(boots(s), 2);
	long second = qemu_pid(s);
	make_call(&c, "spin", 1, 0, false);
	c.req.nargs = 0;
	c.req.timeout_s = 0.5;
	expect_error(s, &c, -1, "spin: timed out after 0.5 s on the emulated core (QEMU stopped); "
	                        "a kernel that never returns? --timeout=SECONDS sets the limit "
	                        "(one that needs longer: --timeout=1 gives this call twice the "
	                        "time)");
	ck_assert_int_eq(kill((pid_t)second, 0), -1);
	expect_scale(s, 5, 5, 1, true);
	ck_assert_uint_eq(boots(s), 3);
	q7_emu_close(s);
}
END_TEST

START_TEST(eight_per_core_images)
{
	struct q7_emu_session *s = open_ok(fk_mc, 8, 0);
	for (unsigned i = 0; i < 4; i++)
		expect_scale(s, 20 + i, 3 + i, 8, true);
	struct call c;
	make_call(&c, "scale", 8, 1, false); /* eight cores, no dst */
	expect_error(s, &c, -1, "8 cores need a destination tensor");
	make_call(&c, "scale", 8, 1, true);
	c.req.cores = 3;
	expect_error(s, &c, -1, "runs 8 cores, the call asks for 3");
	make_call(&c, "spin", 8, 1, true);
	c.req.timeout_s = 0.5;
	expect_error(s, &c, -1, "on emulated core 0 of 8 (QEMU stopped)");
	expect_scale(s, 17, -3, 8, true);
	ck_assert_uint_eq(boots(s), 2);
	q7_emu_close(s);
}
END_TEST

START_TEST(open_refuses)
{
	struct q7_emu_config cfg;
	struct q7_emu_session *s = (struct q7_emu_session *)&cfg;
	char why[Q7_MESSAGE_SIZE];
	q7_emu_config_init(&cfg, fk, 9);
	cfg.boot = boot;
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), -1);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(why, "9 cores asked, at most 8"), "%s", why);
	q7_emu_config_init(&cfg, fk, 1);
	cfg.boot = boot;
	cfg.qemu = "/nonexistent/qemu-system-xtensa";
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), -1);
	ck_assert_msg(strstr(why, "qemu-system-misc"), "%s", why);
	q7_emu_config_init(&cfg, fk, 1);
	cfg.boot = "/nonexistent/q7boot.elf";
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), -1);
	ck_assert_msg(strstr(why, "boot program is missing"), "%s", why);
	/* found from the prefix: the message says how a program sets it */
	q7_emu_config_init(&cfg, fk, 1);
	char *was = q7_xstrdup(q7_prefix());
	q7_set_prefix("/nonexistent");
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), -1);
	q7_set_prefix(was);
	free(was);
	ck_assert_msg(strstr(why, "boot program is missing (q7cc's files are looked for "
	                                  "under /nonexistent") &&
	                  strstr(why, "Q7CC_PREFIX or calls q7_set_prefix()"),
	              "%s", why);
	char *bad = q7_path_join(q7_temp_dir(), "bad.so");
	FILE *f = fopen(bad, "w");
	fputs("not an image", f);
	fclose(f);
	q7_emu_config_init(&cfg, bad, 1);
	cfg.boot = boot;
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), -1);
	ck_assert_msg(strstr(why, "bad.so"), "%s", why);
	q7_emu_config_init(&cfg, fk, 8); /* a single image at eight windows is fine */
	cfg.boot = boot;
	ck_assert_int_eq(q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)), 0);
	q7_emu_close(s);
	unlink(bad);
	free(bad);
	/* Nothing of the refused sessions nor of the closed one is left. */
	DIR *d = opendir(q7_temp_dir());
	struct dirent *e;
	while ((e = readdir(d)))
		ck_assert_msg(e->d_name[0] == '.', "left in the temporary directory: %s", e->d_name);
	closedir(d);
}
END_TEST

START_TEST(race_check_on_sessions)
{
	setenv("Q7CC_EMU_JOBS", "3", 1);
	struct call c;
	struct q7_run_result r;
	make_call(&c, "scale", 30, 2, true);
	c.req.cores = 8;
	ck_assert_int_eq(q7_run_emulated(fk_mc, NULL, &c.req, &r), 0);
	const int32_t *o = (const int32_t *)(uintptr_t)r.out.data;
	for (unsigned i = 0; i < 30; i++) {
		ck_assert_int_eq(o[i], c.x[i] * 2 + (int32_t)(i % 8));
		ck_assert_int_eq(c.dst[i], o[i]);
	}
	q7_run_result_free(&r);
	make_call(&c, "race", 2, 0, true);
	c.req.nargs = 0;
	c.req.cores = 8;
	ck_assert_int_eq(q7_run_emulated(fk_mc, NULL, &c.req, &r), 1);
	ck_assert_msg(strstr(r.message, "cores 1 and 2 both wrote byte 0"), "%s", r.message);
	unsetenv("Q7CC_EMU_JOBS");
}
END_TEST

/* The engine runs the cores it opened: a call that asks for another
 * count is refused before any core runs. (The race check's engine opens
 * no session: nothing boots here.) */
START_TEST(engine_refuses_another_core_count)
{
	setenv("Q7CC_EMU_JOBS", "3", 1);
	struct q7_engine_opts eo = {.target = "emulated", .cores = 8};
	struct q7_engine *e = NULL;
	char err[Q7_MESSAGE_SIZE];
	ck_assert_msg(q7_engine_open(fk_mc, &eo, &e, &Q7_ERR_OF(err)) == 0, "%s", err);
	ck_assert_uint_eq(q7_engine_cores(e), 8);
	struct call c;
	struct q7_run_result r;
	make_call(&c, "scale", 8, 1, true);
	c.req.cores = 3;
	ck_assert_int_eq(q7_engine_call(e, &c.req, &r), 1);
	ck_assert_int_eq(r.status, -1);
	ck_assert_msg(strstr(r.message, "fk_mc.so: the library runs 8 cores, the call asks for 3"),
	              "%s", r.message);
	ck_assert_ptr_null(r.out_data);
	q7_engine_close(e);
	unsetenv("Q7CC_EMU_JOBS");
}
END_TEST

static Suite *session_suite(void)
{
	Suite *s = suite_create("emu_session");
	TCase *tc = tcase_create("session");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, many_calls_one_qemu);
	tcase_add_test(tc, kernel_error_keeps_the_session);
	tcase_add_test(tc, exception_and_timeout_cost_a_qemu);
	tcase_add_test(tc, eight_per_core_images);
	tcase_add_test(tc, open_refuses);
	tcase_add_test(tc, race_check_on_sessions);
	tcase_add_test(tc, engine_refuses_another_core_count);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: check_emu_session Q7BOOT.ELF FK.SO FK_MC.SO\n");
		return 2;
	}
	boot = argv[1];
	fk = argv[2];
	fk_mc = argv[3];
	SRunner *sr = srunner_create(session_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	q7_temp_cleanup();
	return failed ? 1 : 0;
}
