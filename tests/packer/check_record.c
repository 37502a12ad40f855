/* tests/packer/check_record: the .q7.ops payload codec: round trip of
 * every field, and refusal (never a crash) of every truncation and every
 * single-byte change; version 1 and 2 records are still read, newer ones
 * refused. */
#include "op.h"
#include "record.h"
#include "support.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

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
		op->params[i].ctype = q7_xasprintf("type %d", i);
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
	op->ret_ctype = q7_xstrdup("void");
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
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out), 0);
	ck_assert_uint_eq(out.n, 2);
	same_op(&in.ops[0], &out.ops[0]);
	same_op(&in.ops[1], &out.ops[1]);
	/* Decoding appends. */
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out), 0);
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
	ck_assert_int_eq(q7_record_decode(two, 2 * len + 3, "t", &out), 0);
	ck_assert_uint_eq(out.n, 4);
	same_op(&in.ops[1], &out.ops[3]);
	/* A damaged second record fails the whole section, adding nothing. */
	two[2 * len] ^= 1;
	struct q7_op_table none = {0};
	ck_assert_int_eq(q7_record_decode(two, 2 * len + 3, "t", &none), -1);
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
		ck_assert_int_eq(q7_record_decode(cut, n, "t", &out), -1);
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
			ck_assert_msg(q7_record_decode(buf, len, "t", &out) == -1, "flip at %zu.%d", i, bit);
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
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out), -1);
	buf[4] = 0;
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out), -1);
	ck_assert_int_eq(q7_record_decode("", 0, "t", &out), -1);
	ck_assert_int_eq(q7_record_decode("ELF\0garbage garbage", 19, "t", &out), -1);
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
		size_t w;
		unsigned char *v = older(&in, version, &w);
		ck_assert_int_eq(q7_record_decode((char *)v, w, "t", &out), 0);
		ck_assert_uint_eq(out.n, 2);
		if (version == 1)
			in.ops[1].by_name_only = false; /* version 1 has no requests */
		free(in.ops[0].ns);
		in.ops[0].ns = q7_xstrdup(""); /* nor namespaces */
		same_op(&in.ops[0], &out.ops[0]);
		same_op(&in.ops[1], &out.ops[1]);
		/* The same bytes as a newer version lack a field: refused. */
		struct q7_op_table bad = {0};
		v[4] = (unsigned char)(version + 1);
		ck_assert_int_eq(q7_record_decode((char *)v, w, "t", &bad), -1);
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
	ck_assert_int_eq(q7_record_decode(buf, len, "t", &out), 0);
	ck_assert_uint_eq(out.n, 0);
	/* Attaching nothing touches nothing, not even a missing file. */
	ck_assert_int_eq(q7_record_attach("/nonexistent/x.o", &in), 0);
	free(buf);
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
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
