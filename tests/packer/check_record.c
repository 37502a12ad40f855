/* tests/packer/check_record: the .q7.ops payload codec: round trip of
 * every field, and refusal (never a crash) of every truncation and every
 * single-byte change; version 1 and 2 records are still read, newer ones
 * refused. */
#include "op.h"
#include "record.h"
#include "schema.h"
#include "support.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fill(struct q7_op_table *t)
{
	struct q7_op *op = q7_ops_add(t);
	op->name = q7_xstrdup("relu");
	op->qualname = q7_xstrdup("ops::relu");
	op->ns = q7_xstrdup("my_ops"); /* version 3 */
	op->ret_ctype = q7_xstrdup("at::Tensor");
	op->ret = Q7_KIND_TENSOR;
	op->ret_name = q7_xstrdup("out");
	op->nparams = Q7_KIND_END - 1; /* one of every kind */
	op->params = q7_xcalloc(op->nparams, sizeof *op->params);
	for (int i = 0; i < (int)op->nparams; i++) {
		op->params[i].kind = (enum q7_kind)(i + 1);
		op->params[i].name = i == 3 ? q7_xstrdup("") : q7_xasprintf("p%d", i);
		op->params[i].ctype = q7_kind_param_ctype((enum q7_kind)(i + 1));
	}
	op->stack_size = 65536;
	op->defined = true;
	op->file = q7_xstrdup("/src/dir with space/k.cpp");
	op->line = 123456;
	op->col = 7;
	op = q7_ops_add(t);
	op->name = q7_xstrdup("noargs");
	op->qualname = q7_xstrdup("noargs");
	op->ns = q7_xstrdup("");
	op->ret_ctype = q7_xstrdup("");
	op->ret = Q7_KIND_INVALID;
	op->ret_name = q7_xstrdup("");
	op->file = q7_xstrdup("h.h");
	op->line = 1;
	op->col = 1;
	op->by_name_only = true; /* a NEURON_LIBRARY request (version 2) */
}

static void same_op(const struct q7_op *a, const struct q7_op *b)
{
	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->qualname, b->qualname);
	ck_assert_str_eq(a->ns, b->ns);
	ck_assert_str_eq(a->ret_ctype, b->ret_ctype);
	ck_assert_int_eq(a->ret, b->ret);
	ck_assert_str_eq(a->ret_name, b->ret_name);
	ck_assert_uint_eq(a->nparams, b->nparams);
	for (size_t i = 0; i < a->nparams; i++) {
		ck_assert_int_eq(a->params[i].kind, b->params[i].kind);
		ck_assert_str_eq(a->params[i].name, b->params[i].name);
		ck_assert_str_eq(a->params[i].ctype, b->params[i].ctype);
	}
	ck_assert_uint_eq(a->stack_size, b->stack_size);
	ck_assert_int_eq(a->defined, b->defined);
	ck_assert_str_eq(a->file, b->file);
	ck_assert_uint_eq(a->line, b->line);
	ck_assert_uint_eq(a->col, b->col);
	ck_assert_int_eq(a->by_name_only, b->by_name_only);
}

START_TEST(round_trip)
{
	struct q7_op_table in = {0}, out = {0};
	fill(&in);
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out, NULL), 0);
	ck_assert_uint_eq(out.n, 2);
	same_op(&in.ops[0], &out.ops[0]);
	same_op(&in.ops[1], &out.ops[1]);
	/* Decoding appends. */
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out, NULL), 0);
	ck_assert_uint_eq(out.n, 4);
	same_op(&in.ops[0], &out.ops[2]);
	/* Same table, same bytes. */
	size_t len2;
	char *buf2 = q7_record_encode(&in, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(buf, buf2, len);
	free(buf2);
	free(buf);
	q7_ops_free(&in);
	q7_ops_free(&out);
}
END_TEST

/* ld -r concatenates the sections of its inputs, maybe with padding. */
START_TEST(concatenated_records)
{
	struct q7_op_table in = {0}, out = {0};
	fill(&in);
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	char *two = q7_xcalloc(2 * len + 3, 1);
	memcpy(two, buf, len);
	memcpy(two + len + 3, buf, len);
	ck_assert_int_eq(q7_record_decode(two, 2 * len + 3, "t", &out, NULL), 0);
	ck_assert_uint_eq(out.n, 4);
	same_op(&in.ops[1], &out.ops[3]);
	/* A damaged second record fails the whole section, adding nothing. */
	two[2 * len] ^= 1;
	struct q7_op_table none = {0};
	ck_assert_int_eq(q7_record_decode(two, 2 * len + 3, "t", &none, NULL), -1);
	ck_assert_uint_eq(none.n, 0);
	free(two);
	free(buf);
	q7_ops_free(&in);
	q7_ops_free(&out);
}
END_TEST

START_TEST(every_truncation_refused)
{
	struct q7_op_table in = {0};
	fill(&in);
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	for (size_t n = 0; n < len; n++) {
		struct q7_op_table out = {0};
		char *cut = q7_xmalloc(n ? n : 1);
		memcpy(cut, buf, n);
		ck_assert_int_eq(q7_record_decode(cut, n, "t", &out, NULL), -1);
		ck_assert_uint_eq(out.n, 0);
		free(cut);
	}
	free(buf);
	q7_ops_free(&in);
}
END_TEST

START_TEST(every_byte_change_refused)
{
	struct q7_op_table in = {0};
	fill(&in);
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			struct q7_op_table out = {0};
			buf[i] ^= (char)(1 << bit);
			ck_assert_msg(q7_record_decode(buf, len, "t", &out, NULL) == -1, "flip at %zu.%d", i,
			              bit);
			ck_assert_uint_eq(out.n, 0);
			buf[i] ^= (char)(1 << bit);
		}
	}
	free(buf);
	q7_ops_free(&in);
}
END_TEST

START_TEST(other_version_refused)
{
	struct q7_op_table in = {0}, out = {0};
	fill(&in);
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	buf[4] = 4; /* newer than this reader */
	/* The refusal comes back in the carrier, "<what>: .q7.ops: <why>". */
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out, &err), -1);
	ck_assert_msg(strncmp(q7_err_text(&err), "t: .q7.ops: ", 12) == 0, "%s", q7_err_text(&err));
	ck_assert(strlen(q7_err_text(&err)) > 12);
	q7_err_free(&err);
	buf[4] = 0;
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out, NULL), -1);
	ck_assert_int_eq(q7_record_decode("", 0, "t", &out, NULL), -1);
	ck_assert_int_eq(q7_record_decode("ELF\0garbage garbage", 19, "t", &out, NULL), -1);
	ck_assert_uint_eq(out.n, 0);
	free(buf);
	q7_ops_free(&in);
}
END_TEST

static unsigned get32(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

static void set32(unsigned char *p, unsigned v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A record as an older q7cc wrote it: the version 3 bytes without each
 * op's namespace (version 2) and flags byte (version 1), re-summed. */
static unsigned char *older(const struct q7_op_table *in, unsigned version, size_t *wlen)
{
	size_t len;
	unsigned char *v3 = (unsigned char *)q7_record_encode(in, &len);
	unsigned char *v = q7_xmalloc(len);
	memcpy(v, v3, 20);
	size_t w = 20, i = 0;
	for (size_t r = 20; r < len; i++) {
		unsigned oplen = get32(v3 + r);
		unsigned cut = 4 + (unsigned)strlen(in->ops[i].ns) + (version == 1);
		ck_assert_uint_eq(get32(v3 + r + 4 + oplen - 4 - strlen(in->ops[i].ns)),
		                  strlen(in->ops[i].ns)); /* the namespace */
		set32(v + w, oplen - cut);
		memcpy(v + w + 4, v3 + r + 4, oplen - cut);
		w += 4 + oplen - cut;
		r += 4 + oplen;
	}
	v[4] = (unsigned char)version;
	set32(v + 12, (unsigned)(w - 20));
	unsigned h = 2166136261u;
	for (size_t k = 20; k < w; k++)
		h = (h ^ v[k]) * 16777619u;
	set32(v + 16, h);
	free(v3);
	*wlen = w;
	return v;
}

START_TEST(older_versions_read)
{
	for (unsigned version = 1; version <= 2; version++) {
		struct q7_op_table in = {0}, out = {0};
		fill(&in);
		if (version == 1) { /* no requests then: the second op is a kernel */
			in.ops[1].by_name_only = false;
			in.ops[1].ret = Q7_KIND_TENSOR;
			free(in.ops[1].ret_ctype);
			in.ops[1].ret_ctype = q7_xstrdup("at::Tensor");
		}
		size_t w;
		unsigned char *v = older(&in, version, &w);
		ck_assert_int_eq(q7_record_decode((char *)v, w, "t", &out, NULL), 0);
		ck_assert_uint_eq(out.n, 2);
		free(in.ops[0].ns);
		in.ops[0].ns = q7_xstrdup(""); /* nor namespaces */
		same_op(&in.ops[0], &out.ops[0]);
		same_op(&in.ops[1], &out.ops[1]);
		/* The same bytes as a newer version lack a field: refused. */
		struct q7_op_table bad = {0};
		v[4] = (unsigned char)(version + 1);
		ck_assert_int_eq(q7_record_decode((char *)v, w, "t", &bad, NULL), -1);
		ck_assert_uint_eq(bad.n, 0);
		free(v);
		q7_ops_free(&in);
		q7_ops_free(&out);
	}
}
END_TEST

START_TEST(empty_table)
{
	struct q7_op_table in = {0}, out = {0};
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	ck_assert_uint_eq(len, 20);
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out, NULL), 0);
	ck_assert_uint_eq(out.n, 0);
	/* Attaching nothing touches nothing, not even a missing file. */
	ck_assert_int_eq(q7_record_attach("/nonexistent/x.o", &in, NULL), 0);
	free(buf);
}
END_TEST

/* What a record may say (model/cxx.h): each row sets one field of a good
 * kernel (relu in ops, params Tensor x and int k) or request, re-encodes
 * it with a valid checksum, as a crafted object would, and expects the
 * decoder to take it or refuse it. */
enum field { NAME, QUALNAME, NS, RET_CTYPE, RET_NAME, P_NAME, P_TENSOR, P_INT, P_KIND, STACK,
             FILE_, REQ_NAME, REQ_QUAL, REQ_CTYPE, REQ_RET };
static const struct {
	enum field field;
	const char *value;
	bool ok;
} rules[] = {
	{NAME, "relu", true},
	{NAME, "_r2", true},
	{NAME, "a_kernel_name_of_31_characters_", true},
	{NAME, "a_kernel_name_of_32_characters__", false},
	{NAME, "", false},
	{NAME, "1relu", false},
	{NAME, "re lu", false},
	{NAME, "relu\r", false},
	{QUALNAME, "ops::relu", true},
	{QUALNAME, "ops::v1::relu", true},
	{QUALNAME, "relu", true},
	{QUALNAME, "", true},
	{QUALNAME, "::ops::relu", false},
	{QUALNAME, "ops::prelu", false},
	{QUALNAME, "ops:: relu", false},
	{QUALNAME, "ops\r::relu", false},
	{QUALNAME, "ops::relu\n", false},
	{QUALNAME, "(anonymous namespace)::relu", false},
	{NS, "", true},
	{NS, "my_ops", true},
	{NS, "my ops", false},
	{NS, "my_ops\n", false},
	{RET_CTYPE, "at::Tensor", true},
	{RET_CTYPE, "torch::Tensor", true},
	{RET_CTYPE, "const at::Tensor &", false},
	{RET_CTYPE, "at::Tensor\r", false},
	{RET_CTYPE, "void", false},
	{RET_CTYPE, "", false},
	{RET_NAME, "", true},
	{RET_NAME, "out", true},
	{RET_NAME, "o\rut", false},
	{P_NAME, "x", true},
	{P_NAME, "", true},
	{P_NAME, "x\r", false},
	{P_NAME, "x y", false},
	{P_TENSOR, "const at::Tensor &", true},
	{P_TENSOR, "at::Tensor", true},
	{P_TENSOR, "const torch::Tensor &", true},
	{P_TENSOR, "const at::Tensor&", false},
	{P_TENSOR, "at::Scalar", false},
	{P_TENSOR, "at::Tensor\r#include </etc/hostname>", false},
	{P_TENSOR, "%:include </etc/hostname>", false},
	{P_INT, "int", true},
	{P_INT, "const int &", true},
	{P_INT, "long", true}, /* an ELF32 object's long; record_elf checks the width */
	{P_INT, "long long", false},
	{P_INT, "float", false},
	{P_INT, "int\r#include </etc/hostname>", false},
	{P_INT, "int %:include </etc/hostname>", false},
	{P_INT, "int /**/", false},
	{P_KIND, "0", false}, /* INVALID on a kernel */
	{P_KIND, "7", false}, /* bool with an int's type */
	{STACK, "4194304", true},
	{STACK, "4194305", false},
	{FILE_, "/src/dir with space/k.cpp", true},
	{FILE_, "k.cpp\x1b]0;owned\x07", false},
	{FILE_, "k.cpp\r", false},
	{FILE_, "/home/jos\xc3\xa9/k.cpp", true},
	{FILE_, "k.cpp\xc2\x9b" "2J", false},
	{REQ_NAME, "scale", true},
	{REQ_NAME, "ops::scale", true}, /* as m.def wrote it */
	{REQ_NAME, "", false},
	{REQ_NAME, "scale\x1b[2J", false},
	{REQ_NAME, "sc\xc3\xa1le", false},
	{REQ_QUAL, "my::relu", true},
	{REQ_QUAL, "ops::scale", false}, /* the name is relu */
	{REQ_QUAL, "ops::relu\x7f", false},
	{REQ_CTYPE, "int", false},
	{REQ_RET, "at::Tensor", false},
};

static struct q7_op *good(struct q7_op_table *t, bool request)
{
	struct q7_err err = Q7_ERR_GROWING;
	struct q7_op *op = q7_ops_add(t);
	ck_assert_int_eq(q7_schema_parse("ops::relu(Tensor x, int k) -> Tensor", op, &err, NULL), 0);
	free(op->ns);
	op->ns = q7_xstrdup("");
	op->file = op->file ? op->file : q7_xstrdup("k.cpp");
	op->defined = true;
	if (request) {
		op->by_name_only = true;
		op->defined = false;
		op->ret = Q7_KIND_INVALID;
		free(op->ret_ctype);
		op->ret_ctype = q7_xstrdup("");
		for (size_t i = 0; i < op->nparams; i++) {
			op->params[i].kind = Q7_KIND_INVALID;
			free(op->params[i].ctype);
			op->params[i].ctype = q7_xstrdup("");
		}
	}
	return op;
}

static void set(char **field, const char *value)
{
	free(*field);
	*field = q7_xstrdup(value);
}

START_TEST(what_a_record_may_say)
{
	const char *v = rules[_i].value;
	struct q7_op_table in = {0}, out = {0};
	enum field f = rules[_i].field;
	struct q7_op *op = good(&in, f >= REQ_NAME);
	switch (f) {
	case NAME:
		set(&op->name, v);
		free(op->qualname);
		op->qualname = q7_xasprintf("ops::%s", v);
		break;
	case QUALNAME: set(&op->qualname, v); break;
	case NS: set(&op->ns, v); break;
	case RET_CTYPE: set(&op->ret_ctype, v); break;
	case RET_NAME: set(&op->ret_name, v); break;
	case P_NAME: set(&op->params[0].name, v); break;
	case P_TENSOR: set(&op->params[0].ctype, v); break;
	case P_INT: set(&op->params[1].ctype, v); break;
	case P_KIND: op->params[1].kind = (enum q7_kind)atoi(v); break;
	case STACK: op->stack_size = (unsigned)atol(v); break;
	case FILE_: set(&op->file, v); break;
	case REQ_NAME: set(&op->name, v); set(&op->qualname, ""); break;
	case REQ_QUAL: set(&op->qualname, v); break;
	case REQ_CTYPE: op->params[1].kind = Q7_KIND_INT; set(&op->params[1].ctype, v); break;
	case REQ_RET: op->ret = Q7_KIND_TENSOR; set(&op->ret_ctype, v); break;
	}
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	int rc = q7_record_decode(buf, len, "crafted.o", &out, NULL);
	ck_assert_msg(rc == (rules[_i].ok ? 0 : -1), "row %d: '%s' %s", _i, v,
	              rules[_i].ok ? "refused" : "taken");
	ck_assert_uint_eq(out.n, rules[_i].ok ? 1 : 0);
	free(buf);
	q7_ops_free(&in);
	q7_ops_free(&out);
}
END_TEST

/* The refusal names the file and, printed at the tool's top, shows the
 * text escaped: the message carries no control character to the
 * terminal. */
START_TEST(refusal_message)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_op *op = good(&in, false);
	set(&op->params[1].ctype, "int\r%:include </etc/hostname>\x1b[2J");
	size_t len;
	char *buf = q7_record_encode(&in, &len);
	struct q7_err carrier = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_record_decode(buf, len, "crafted.o", &out, &carrier), -1);
	ck_assert_msg(strncmp(q7_err_text(&carrier), "crafted.o: .q7.ops: ", 20) == 0 &&
	                  !strpbrk(q7_err_text(&carrier), "\r\x1b"),
	              "%s", q7_err_text(&carrier));
	FILE *err = tmpfile();
	ck_assert_ptr_nonnull(err);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(err), 2);
	q7_err_print(&carrier);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char msg[512] = "";
	rewind(err);
	size_t n = fread(msg, 1, sizeof msg - 1, err);
	fclose(err);
	msg[n] = '\0';
	ck_assert_str_eq(msg, "q7cc: error: crafted.o: .q7.ops: damaged record: op 1: parameter 2 "
	                      "type 'int\\x0d%:include </etc/hostname>\\x1b[2J' is not a type q7cc "
	                      "records for kind 'int'\n");
	free(buf);
	q7_ops_free(&in);
}
END_TEST

int main(void)
{
	q7_set_progname("q7cc");
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("codec");
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, concatenated_records);
	tcase_add_test(tc, every_truncation_refused);
	tcase_add_test(tc, every_byte_change_refused);
	tcase_add_test(tc, other_version_refused);
	tcase_add_test(tc, older_versions_read);
	tcase_add_test(tc, empty_table);
	tcase_add_loop_test(tc, what_a_record_may_say, 0, (int)(sizeof rules / sizeof rules[0]));
	tcase_add_test(tc, refusal_message);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
