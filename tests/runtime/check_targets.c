/* Run targets as rows (run/target.h): a fake third target, registered by
 * this test as any new target would add its row, opened, listed, called,
 * profiled and closed through the engine with no line of the engine's
 * about it; the target list in messages and q7t_targets' order; the image
 * check telling each row's images apart by their ELF machine.
 * Under ASan/LSan with the other unit tests (scripts/test). */
#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "result.h"
#include "run_image.h"
#include "support.h"
#include "target.h"

#define FAKE_MACHINE EM_RISCV

static char dir[] = "/tmp/q7-check-targets-XXXXXX";
static char fake_lib[64], host_lib[64];

/* What the fake target saw. */
static struct {
	int opens, calls, closes, at_exit;
	unsigned cores;
	struct q7_prof *profile;
	unsigned images;
	bool damaged; /* the op list's line without its tab */
} seen;

static int fake_open(struct q7_target_open *o, struct q7_err *err)
{
	(void)err;
	seen.opens++;
	seen.images = (unsigned)o->images->n;
	o->state = &seen;
	o->apart = true;
	return 0;
}

static const char LIST[] = "twice\tfake::twice(Tensor src, int k) -> Tensor\n";

static int fake_call(void *state, const struct q7_call *c, unsigned cores,
                     struct q7_run_result *r)
{
	ck_assert_ptr_eq(state, &seen);
	memset(r, 0, sizeof *r);
	seen.calls++;
	seen.cores = cores;
	unsigned char *dst = (unsigned char *)(uintptr_t)c->dst.data;
	if (!*c->op) { /* the op list */
		memcpy(dst, LIST, sizeof LIST - 1);
		if (seen.damaged)
			memset(dst, '-', sizeof LIST - 2);
		r->out = c->dst;
		r->out.sizes[0] = sizeof LIST - 1;
		return 0;
	}
	if (strcmp(c->op, "twice") != 0) {
		r->status = Q7_STATUS_NO_SUCH_OP;
		snprintf(r->message, sizeof r->message, "%s: no such op\nhere", c->op);
		return 1;
	}
	if (c->args[1].u.i < 0) { /* a kernel that wrote into its input */
		r->status = Q7_STATUS_KERNEL_ERROR;
		r->changed_arg = 1;
		r->changed_at = 3;
		return 1;
	}
	const unsigned char *src = (const unsigned char *)(uintptr_t)c->args[0].u.tensor.data;
	for (unsigned i = 0; i < c->dst.sizes[0]; i++)
		dst[i] = (unsigned char)(src[i] * c->args[1].u.i);
	r->out = c->dst;
	return 0;
}

static void fake_profile(void *state, struct q7_prof *p, unsigned parent)
{
	(void)state;
	(void)parent;
	seen.profile = p;
}

static void fake_close(void *state, bool at_exit)
{
	ck_assert_ptr_eq(state, &seen);
	seen.closes++;
	seen.at_exit += at_exit;
}

static const struct q7_target fake = {
	.name = "fake",
	.machine = FAKE_MACHINE,
	.profile = "fakeprofile",
	.image = "a fake image",
	.build = "a fake image (q7cc --q7-toolchain=fakeprofile)",
	.can = Q7_TARGET_PROFILE,
	.open = fake_open,
	.call = fake_call,
	.profile_into = fake_profile,
	.close = fake_close,
};

/* An ELF header (64-bit, little-endian) for machine, at path. 0 or -1. */
static int write_elf(const char *path, unsigned machine)
{
	unsigned char h[64] = {0};
	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	h[16] = ET_DYN;
	h[18] = (unsigned char)machine;
	h[19] = (unsigned char)(machine >> 8);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = fwrite(h, 1, sizeof h, f);
	return fclose(f) == 0 && n == sizeof h ? 0 : -1;
}

START_TEST(fake_through_engine)
{
	memset(&seen, 0, sizeof seen);
	struct q7_engine_opts o = {.target = "fake", .cores = 2};
	struct q7_engine *e = NULL;
	char err[Q7_MESSAGE_SIZE] = "";
	ck_assert_msg(q7_engine_open(fake_lib, &o, &e, &Q7_ERR_OF(err)) == 0, "%s", err);
	ck_assert_int_eq(seen.opens, 1);
	ck_assert_uint_eq(seen.images, 2);
	ck_assert_str_eq(q7_engine_target_row(e)->name, "fake");
	ck_assert_ptr_eq(q7_engine_target_row(e), &fake);
	ck_assert(q7_engine_apart(e));
	ck_assert_uint_eq(q7_engine_cores(e), 2);

	/* the op list, through the row's call */
	ck_assert_int_eq(q7_engine_list(e, &Q7_ERR_OF(err)), 1);
	ck_assert_str_eq(q7_engine_op_name(e, 0), "twice");
	ck_assert_str_eq(q7_engine_op_schema(e, 0), "fake::twice(Tensor src, int k) -> Tensor");

	/* a call, on the engine's cores */
	unsigned char src[4] = {1, 2, 3, 4}, dst[4] = {0};
	struct q7_call c = {.op = "twice", .nargs = 2};
	c.args[0].kind = Q7_ARG_TENSOR;
	c.args[0].u.tensor.dtype = Q7_DTYPE_UINT8;
	c.args[0].u.tensor.ndim = 1;
	c.args[0].u.tensor.sizes[0] = 4;
	c.args[0].u.tensor.data = (uint64_t)(uintptr_t)src;
	c.args[1].kind = Q7_ARG_INT;
	c.args[1].u.i = 2;
	c.dst = c.args[0].u.tensor;
	c.dst.data = (uint64_t)(uintptr_t)dst;
	struct q7_run_result r;
	ck_assert_msg(q7_engine_call(e, &c, &r) == 0, "%s", r.message);
	ck_assert_uint_eq(seen.cores, 2);
	ck_assert_uint_eq(dst[3], 8);

	/* the engine's share of a failure: one line, a changed input named */
	c.op = "thrice";
	ck_assert_int_eq(q7_engine_call(e, &c, &r), 1);
	ck_assert_str_eq(r.message, "thrice: no such op?here");
	c.op = "twice";
	c.args[1].u.i = -1;
	ck_assert_int_eq(q7_engine_call(e, &c, &r), 1);
	ck_assert_str_eq(r.message, "twice: the kernel wrote into its input argument 1 (src), at "
	                            "byte offset 3; a kernel never changes its inputs (the caller's "
	                            "tensor is as it was)");
	c.cores = 3;
	ck_assert_int_eq(q7_engine_call(e, &c, &r), 1);
	ck_assert_int_eq(seen.calls, 4); /* refused by the engine, not the row */

	/* what it can do */
	q7_engine_profile(e, (struct q7_prof *)&seen, 0);
	ck_assert_ptr_eq(seen.profile, (void *)&seen);

	q7_engine_close_at_exit(e);
	ck_assert_int_eq(seen.closes, 1);
	ck_assert_int_eq(seen.at_exit, 1);
}
END_TEST

/* A damaged op list, then a good one read again by the same engine: the
 * first parse's tables go (a leak here fails the unit tests under
 * scripts/test-sanitize --unit). */
START_TEST(list_again_after_damaged)
{
	memset(&seen, 0, sizeof seen);
	seen.damaged = true;
	struct q7_engine_opts o = {.target = "fake", .cores = 1};
	struct q7_engine *e = NULL;
	char err[Q7_MESSAGE_SIZE] = "";
	ck_assert_msg(q7_engine_open(fake_lib, &o, &e, &Q7_ERR_OF(err)) == 0, "%s", err);
	ck_assert_int_eq(q7_engine_list(e, &Q7_ERR_OF(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "the runtime's op list is damaged"));
	ck_assert_ptr_null(q7_engine_op_name(e, 0));
	seen.damaged = false;
	ck_assert_int_eq(q7_engine_list(e, &Q7_ERR_OF(err)), 1);
	ck_assert_str_eq(q7_engine_op_name(e, 0), "twice");
	ck_assert_int_eq(seen.calls, 2);
	q7_engine_close(e);
	ck_assert_int_eq(seen.closes, 1);
}
END_TEST

/* An argument's name in a message comes from the schema as model/schema
 * parses it (one grammar): named, unnamed, past the last, a schema the
 * grammar refuses, and a line cut short of its end (the op list's). */
START_TEST(schema_arg_names)
{
	static const struct {
		const char *schema;
		unsigned i;
		const char *want;
	} rows[] = {
		{"ns::k(Tensor x, long long n, bool in_) -> Tensor", 0, "argument 1 (x)"},
		{"ns::k(Tensor x, long long n, bool in_) -> Tensor", 1, "argument 2 (n)"},
		{"ns::k(Tensor x, long long n, bool in_) -> Tensor", 2, "argument 3 (in_)"},
		{"ns::k(Tensor x, long long n, bool in_) -> Tensor", 3, "argument 4"},
		{"k(Tensor  a ,int b) -> (Tensor y)", 0, "argument 1 (a)"},
		{"k(Tensor, int b) -> Tensor", 0, "argument 1"},
		{"k(Tensor x, Dict(str, int) d) -> Tensor", 0, "argument 1"},
	};
	char buf[64];
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
		q7_run_schema_arg(rows[k].schema, strlen(rows[k].schema), rows[k].i, buf, sizeof buf);
		ck_assert_msg(strcmp(buf, rows[k].want) == 0, "%s [%u]: %s", rows[k].schema, rows[k].i,
		              buf);
	}
	const char *list = "k(Tensor x, int n) -> Tensor\nj(Tensor y) -> Tensor\n";
	q7_run_schema_arg(list, (size_t)(strchr(list, '\n') - list), 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "argument 2 (n)");
}
END_TEST

START_TEST(names_and_rows)
{
	char names[256];
	q7_target_names(names, sizeof names, NULL);
	ck_assert_str_eq(names, "host, emulated or fake");
	q7_target_names(names, sizeof names, "|");
	ck_assert_str_eq(names, "host|emulated|fake");
	ck_assert_ptr_eq(q7_target_find(NULL), &q7_target_host);
	ck_assert_ptr_eq(q7_target_find("fake"), &fake);
	ck_assert_ptr_null(q7_target_find("gpu"));
	ck_assert_int_eq(q7_target_register(&fake), -1); /* the name is taken */

	struct q7_engine_opts o = {.target = "gpu"};
	struct q7_engine *e = NULL;
	char err[256];
	ck_assert_int_eq(q7_engine_open(fake_lib, &o, &e, &Q7_ERR_OF(err)), -1);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(err, "target 'gpu': expected host, emulated or fake");
}
END_TEST

/* Each row's images by their machine: the fake's RISC-V image is refused
 * on the host, and an x86-64 library (the host's, which takes any machine
 * no row names) on the fake. */
START_TEST(images_by_machine)
{
	struct q7_strvec paths = {0};
	struct q7_err why = Q7_ERR_GROWING;
	q7_sv_add(&paths, fake_lib);
	ck_assert_int_eq(q7_run_check_images(&paths, &fake, &why), 0);
	ck_assert_int_eq(q7_run_check_images(&paths, &q7_target_host, &why), -1);
	char want[512];
	snprintf(want, sizeof want, "%s: a fake image, not a host library: run it with "
	         "--target=fake, or build a host library (q7cc --q7-toolchain=host) for "
	         "--target=host", fake_lib);
	ck_assert_str_eq(why.msg, want);
	q7_err_free(&why);
	q7_sv_free(&paths);
	q7_sv_add(&paths, host_lib);
	ck_assert_int_eq(q7_run_check_images(&paths, &fake, &why), -1);
	snprintf(want, sizeof want, "%s: a host library (x86-64, ELF64), not a fake image: run it "
	         "with --target=host, or build a fake image (q7cc --q7-toolchain=fakeprofile) for "
	         "--target=fake", host_lib);
	ck_assert_str_eq(why.msg, want);
	q7_err_free(&why);
	q7_sv_free(&paths);
}
END_TEST

/* The facts the check reads, for a caller that words its own message
 * (q7cc.torch): each image's machine and the row that owns it; a file
 * that is not ELF has none, and a FIFO is refused, not waited on. */
START_TEST(image_machines_and_rows)
{
	unsigned machine = 0;
	struct q7_err why = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_run_image_machine(fake_lib, &machine, &why), 1);
	ck_assert_uint_eq(machine, FAKE_MACHINE);
	ck_assert_ptr_eq(q7_run_machine_target(machine), &fake);
	ck_assert_int_eq(q7_run_image_machine(host_lib, &machine, &why), 1);
	ck_assert_uint_eq(machine, EM_X86_64);
	ck_assert_ptr_eq(q7_run_machine_target(EM_X86_64), &q7_target_host);
	ck_assert_ptr_eq(q7_run_machine_target(EM_XTENSA), &q7_target_emulated);
	ck_assert_ptr_eq(q7_run_machine_target(EM_AARCH64), &q7_target_host); /* any machine */
	char path[300];
	snprintf(path, sizeof path, "%s/text", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("q7cc-multicore 1\nlibfake.so\n", f);
	fclose(f);
	machine = 7;
	ck_assert_int_eq(q7_run_image_machine(path, &machine, &why), 0);
	ck_assert_uint_eq(machine, 7);
	unlink(path);
	ck_assert_int_eq(q7_run_image_machine(path, &machine, &why), 0); /* missing */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(q7_run_image_machine(path, &machine, &why), -1);
	ck_assert_ptr_nonnull(strstr(why.msg, "cannot read"));
	q7_err_free(&why);
	unlink(path);
}
END_TEST

int main(void)
{
	if (!mkdtemp(dir))
		return 2;
	snprintf(fake_lib, sizeof fake_lib, "%s/libfake.so", dir);
	snprintf(host_lib, sizeof host_lib, "%s/libhost.so", dir);
	/* the new target's row, added as target.c's table would list it */
	int rc = write_elf(fake_lib, FAKE_MACHINE) | write_elf(host_lib, EM_X86_64) |
	         q7_target_register(&fake);
	Suite *s = suite_create("targets");
	TCase *tc = tcase_create("rows");
	tcase_add_test(tc, fake_through_engine);
	tcase_add_test(tc, list_again_after_damaged);
	tcase_add_test(tc, names_and_rows);
	tcase_add_test(tc, schema_arg_names);
	tcase_add_test(tc, images_by_machine);
	tcase_add_test(tc, image_machines_and_rows);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = rc ? 1 : srunner_ntests_failed(sr);
	srunner_free(sr);
	unlink(fake_lib);
	unlink(host_lib);
	rmdir(dir);
	return failed ? 1 : 0;
}
