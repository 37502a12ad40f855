/* Encoding and decoding of the analysis server's messages (wire.h): JSON
 * documents built and read with json-c. Every read checks each member's
 * type and range: a short or damaged message is an error, never a crash,
 * and decoded tables are appended only when complete. */
#include "fdio.h"
#include "internal.h"
#include "opcodec.h"
#include "wire.h"

#include <errno.h>
#include <stddef.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ACK "{\"ack\":true}"

static const char *const vec_keys[Q7_WIRE_NVECS] = {"clang_args", "sys_includes", "predefines",
                                                    "kernel_names", "wanted_names"};

/* Adds v (NULL-terminated; NULL is JSON's null) to o as key. */
static void put_vec(struct json_object *o, const char *key, char *const *v)
{
	struct json_object *a = v ? q7_json_arr(o, key) : NULL;
	for (; v && *v; v++)
		q7_json_str(a, NULL, *v);
	if (!v)
		json_object_object_add(o, key, NULL);
}

static void put_json(struct q7_strbuf *b, struct json_object *o)
{
	size_t n;
	const char *s = json_object_to_json_string_length(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	q7_sb_addn(b, s, n);
	json_object_put(o);
}

/* The object that data[0..len) is in whole, or NULL. */
static struct json_object *get_json(const char *data, size_t len)
{
	if (len > Q7_WIRE_MAX)
		return NULL;
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o = json_tokener_parse_ex(tok, data, (int)len);
	if (o && (json_tokener_get_parse_end(tok) != len || !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* o's member key of type t, or NULL (and *bad set) when it is absent or
 * of another type; null is accepted (as NULL) when nullable. */
static struct json_object *member(struct json_object *o, const char *key, json_type t,
                                  bool nullable, bool *bad)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, key, &v) || (v ? !json_object_is_type(v, t) : !nullable))
		*bad = true;
	return *bad ? NULL : v;
}

/* A new copy of the string member key: "" when bad, NULL for null when
 * nullable. */
static char *get_str(struct json_object *o, const char *key, bool nullable, bool *bad)
{
	struct json_object *v = member(o, key, json_type_string, nullable, bad);
	return v ? q7_xstrdup(json_object_get_string(v)) : nullable && !*bad ? NULL : q7_xstrdup("");
}

/* The integer member key, within [0, max]. */
static unsigned get_num(struct json_object *o, const char *key, unsigned max, bool *bad)
{
	struct json_object *v = member(o, key, json_type_int, false, bad);
	int64_t n = v ? json_object_get_int64(v) : 0;
	if (n < 0 || n > max)
		*bad = true;
	return *bad ? 0 : (unsigned)n;
}

static bool get_bool(struct json_object *o, const char *key, bool *bad)
{
	struct json_object *v = member(o, key, json_type_boolean, false, bad);
	return v && json_object_get_boolean(v);
}

/* The array member key into v (which then holds its NULL terminator even
 * when empty); false for null. */
static bool get_vec(struct json_object *o, const char *key, struct q7_strvec *v, bool *bad)
{
	struct json_object *a = member(o, key, json_type_array, true, bad);
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		struct json_object *s = json_object_array_get_idx(a, i);
		*bad |= !json_object_is_type(s, json_type_string);
		q7_sv_add(v, json_object_get_string(s));
	}
	if (a && !v->v) {
		v->v = q7_xcalloc(2, sizeof *v->v);
		v->cap = 2;
	}
	return a != NULL;
}

void q7_wire_put_request(struct q7_strbuf *b, const struct q7_analysis_opts *o, const char *cwd,
                         char *const *env)
{
	struct json_object *j = json_object_new_object();
	q7_json_str(j, "cwd", cwd);
	put_vec(j, "env", env);
	q7_json_str(j, "source", o->source);
	json_object_object_add(j, "triple", o->triple ? json_object_new_string(o->triple) : NULL);
	json_object_object_add(j, "toolchain",
	                       o->toolchain ? json_object_new_string(o->toolchain) : NULL);
	q7_json_bool(j, "preprocessed", o->preprocessed);
	q7_json_bool(j, "multicore", o->multicore);
	char *const *vecs[Q7_WIRE_NVECS] = {o->clang_args, o->sys_includes, o->predefines,
	                                    o->kernel_names, o->wanted_names};
	for (int i = 0; i < Q7_WIRE_NVECS; i++)
		put_vec(j, vec_keys[i], vecs[i]);
	put_json(b, j);
}

int q7_wire_get_request(const char *data, size_t len, struct q7_wire_request *q)
{
	memset(q, 0, sizeof *q);
	struct json_object *j = get_json(data, len);
	bool bad = !j;
	if (j) {
		q->cwd = get_str(j, "cwd", false, &bad);
		get_vec(j, "env", &q->env, &bad);
		q->strs[0] = get_str(j, "source", false, &bad);
		q->strs[1] = get_str(j, "triple", true, &bad);
		q->strs[2] = get_str(j, "toolchain", true, &bad);
		q->opts.preprocessed = get_bool(j, "preprocessed", &bad);
		q->opts.multicore = get_bool(j, "multicore", &bad);
	}
	char **v[Q7_WIRE_NVECS] = {0};
	for (int i = 0; i < Q7_WIRE_NVECS && !bad; i++)
		v[i] = get_vec(j, vec_keys[i], &q->vecs[i], &bad) ? q->vecs[i].v : NULL;
	json_object_put(j);
	if (bad) {
		q7_wire_request_free(q);
		return -1;
	}
	q->opts.source = q->strs[0];
	q->opts.triple = q->strs[1];
	q->opts.toolchain = q->strs[2];
	q->opts.clang_args = v[0];
	q->opts.sys_includes = v[1];
	q->opts.predefines = v[2];
	q->opts.kernel_names = v[3];
	q->opts.wanted_names = v[4];
	return 0;
}

void q7_wire_request_free(struct q7_wire_request *q)
{
	free(q->cwd);
	q7_sv_free(&q->env);
	for (int i = 0; i < 3; i++)
		free(q->strs[i]);
	for (int i = 0; i < Q7_WIRE_NVECS; i++)
		q7_sv_free(&q->vecs[i]);
	memset(q, 0, sizeof *q);
}

/* The text and number members of a diagnostic and of an m.def: a string
 * (never null: NULL goes as "") or an unsigned at offset off. */
struct field {
	const char *key;
	bool num;
	size_t off;
};
#define TEXT(type, m) {#m, false, offsetof(type, m)}
#define NUM(type, m) {#m, true, offsetof(type, m)}
static const struct field diag_fields[] = {
	TEXT(struct q7_diag, file), NUM(struct q7_diag, line), NUM(struct q7_diag, col),
	TEXT(struct q7_diag, rule), TEXT(struct q7_diag, message), {NULL, false, 0},
};
static const struct field def_fields[] = {
	TEXT(struct q7_neuron_def, ns),         TEXT(struct q7_neuron_def, op),
	TEXT(struct q7_neuron_def, fn),         TEXT(struct q7_neuron_def, shape),
	TEXT(struct q7_neuron_def, file),       NUM(struct q7_neuron_def, line),
	NUM(struct q7_neuron_def, col),         TEXT(struct q7_neuron_def, shape_file),
	NUM(struct q7_neuron_def, shape_line), {NULL, false, 0},
};

static void put_fields(struct json_object *o, const void *s, const struct field *f)
{
	for (; f->key; f++) {
		const char *at = (const char *)s + f->off;
		if (f->num)
			q7_json_int(o, f->key, *(const unsigned *)at);
		else
			q7_json_str(o, f->key, *(char *const *)at);
	}
}

/* Fills s's members from o: new strings, which the caller frees. */
static void get_fields(struct json_object *o, void *s, const struct field *f, bool *bad)
{
	for (; f->key; f++) {
		char *at = (char *)s + f->off;
		if (f->num)
			*(unsigned *)at = get_num(o, f->key, UINT32_MAX, bad);
		else
			*(char **)at = get_str(o, f->key, false, bad);
	}
}

static struct json_object *result_json(int rc, const struct q7_op_table *ops,
                                       const struct q7_diags *diags)
{
	struct json_object *j = json_object_new_object();
	q7_json_int(j, "rc", rc);
	/* The ops as one op record (model/opcodec.h), as an object carries
	 * them: q7cc -c reads q7cc -E's trailer as the link reads a record. */
	struct q7_strbuf rec = {0};
	q7_opcodec_put(&rec, ops);
	json_object_object_add(j, "ops", json_object_new_string_len(rec.s, (int)rec.len));
	q7_sb_free(&rec);
	struct json_object *a = q7_json_arr(j, "diags");
	for (size_t i = 0; i < diags->n; i++) {
		const struct q7_diag *d = &diags->d[i];
		struct json_object *o = q7_json_obj(a, NULL);
		q7_json_int(o, "severity", d->severity);
		put_fields(o, d, diag_fields);
		q7_json_bool(o, "promoted", d->promoted);
		q7_json_bool(o, "source_read", d->source_read);
	}
	a = q7_json_arr(j, "defs");
	for (size_t i = 0; i < ops->ndefs; i++)
		put_fields(q7_json_obj(a, NULL), &ops->defs[i], def_fields);
	return j;
}

void q7_wire_put_result(struct q7_strbuf *b, int rc, const struct q7_op_table *ops,
                        const struct q7_diags *diags)
{
	put_json(b, result_json(rc, ops, diags));
}

/* The array member key, each element an object; NULL (and *bad) else. */
static struct json_object *objects(struct json_object *j, const char *key, bool *bad)
{
	struct json_object *a = member(j, key, json_type_array, false, bad);
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		*bad |= !json_object_is_type(json_object_array_get_idx(a, i), json_type_object);
	return *bad ? NULL : a;
}

static void get_diag(struct json_object *o, struct q7_diags *ds, bool *bad)
{
	struct q7_diag d = {.severity = get_num(o, "severity", Q7_SEV_ERROR, bad),
	                    .promoted = get_bool(o, "promoted", bad),
	                    .source_read = get_bool(o, "source_read", bad)};
	get_fields(o, &d, diag_fields, bad);
	if (!*bad) {
		q7_diags_add(ds, d.severity, d.file, d.line, d.col, d.rule, "%s", d.message);
		ds->d[ds->n - 1].promoted = d.promoted;
		ds->d[ds->n - 1].source_read = d.source_read;
	}
	free(d.file);
	free(d.rule);
	free(d.message);
}

static void get_def(struct json_object *o, struct q7_op_table *t, bool *bad)
{
	struct q7_neuron_def d;
	get_fields(o, &d, def_fields, bad);
	if (!*bad)
		q7_ops_add_def(t, &d);
	q7_neuron_def_clear(&d);
}

/* A result (j, an object), its ops held to q7_op_check as a record's are;
 * why appended to when the op record is what is wrong. */
static int get_result(struct json_object *j, int *rc, struct q7_op_table *ops,
                      struct q7_diags *diags, struct q7_strbuf *why)
{
	struct q7_op_table t = {0};
	struct q7_diags ds = {0};
	bool bad = false;
	struct json_object *code = member(j, "rc", json_type_int, false, &bad);
	struct json_object *rec = member(j, "ops", json_type_string, false, &bad);
	bad |= code && json_object_get_int64(code) != json_object_get_int(code);
	if (!bad)
		bad = q7_opcodec_get(json_object_get_string(rec),
		                     (size_t)json_object_get_string_len(rec), &t, why) != 0;
	struct json_object *a = objects(j, "diags", &bad);
	for (size_t i = 0; a && i < json_object_array_length(a) && !bad; i++)
		get_diag(json_object_array_get_idx(a, i), &ds, &bad);
	a = objects(j, "defs", &bad);
	for (size_t i = 0; a && i < json_object_array_length(a) && !bad; i++)
		get_def(json_object_array_get_idx(a, i), &t, &bad);
	if (!bad) {
		for (size_t i = 0; i < t.n; i++)
			q7_ops_add_copy(ops, &t.ops[i]);
		for (size_t i = 0; i < t.ndefs; i++)
			q7_ops_add_def(ops, &t.defs[i]);
		for (size_t i = 0; i < ds.n; i++) {
			const struct q7_diag *d = &ds.d[i];
			q7_diags_add(diags, d->severity, d->file, d->line, d->col, d->rule, "%s", d->message);
			diags->d[diags->n - 1].promoted = d->promoted;
			diags->d[diags->n - 1].source_read = d->source_read;
		}
		*rc = json_object_get_int(code);
	}
	q7_ops_free(&t);
	q7_diags_free(&ds);
	return bad ? -1 : 0;
}

int q7_wire_get_result(const char *data, size_t len, int *rc, struct q7_op_table *ops,
                       struct q7_diags *diags)
{
	struct json_object *j = get_json(data, len);
	struct q7_strbuf why = {0};
	int got = j ? get_result(j, rc, ops, diags, &why) : -1;
	q7_sb_free(&why);
	json_object_put(j);
	return got;
}

void q7_analysis_result_put(struct q7_strbuf *b, char *const *kernel_names, int rc,
                            const struct q7_op_table *ops, const struct q7_diags *diags)
{
	struct json_object *j = result_json(rc, ops, diags);
	put_vec(j, "kernel_names", kernel_names);
	put_json(b, j);
}

int q7_analysis_result_read(const char *data, size_t len, struct q7_strvec *kernel_names,
                            int *rc, struct q7_op_table *ops, struct q7_diags *diags,
                            struct q7_strbuf *why)
{
	struct json_object *j = get_json(data, len);
	struct q7_strvec names = {0};
	bool bad = !j;
	if (j)
		get_vec(j, "kernel_names", &names, &bad);
	/* The result appends to ops and diags only when it is whole. */
	int got = !bad && get_result(j, rc, ops, diags, why) == 0 ? 0 : -1;
	if (got == 0)
		q7_sv_addv(kernel_names, &names);
	q7_sv_free(&names);
	json_object_put(j);
	return got;
}

void q7_wire_put_ack(struct q7_strbuf *b)
{
	q7_sb_add(b, ACK);
}

bool q7_wire_is_ack(const char *data, size_t len)
{
	return len == strlen(ACK) && memcmp(data, ACK, len) == 0;
}

/* A deadline timeout_ms from now on q7_now_ms()'s clock (< 0: none,
 * which stays -1). */
static long long deadline_in(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : q7_now_ms() + timeout_ms;
}

int q7_wire_send(int fd, const struct q7_strbuf *b, int timeout_ms)
{
	long long deadline = deadline_in(timeout_ms);
	unsigned char hdr[4];
	q7_put_le32(hdr, (uint32_t)b->len);
	int rc = q7_write_all(fd, hdr, sizeof hdr, deadline) == 0 &&
	                 q7_write_all(fd, b->s ? b->s : "", b->len, deadline) == 0
	             ? 0
	             : -1;
	return rc;
}

/* Bytes from fd into p[0..n) within the deadline (< 0: none). 0 or -1. */
static int read_all(int fd, char *p, size_t n, long long deadline)
{
	while (n) {
		/* Poll first: a blocking fd must not outlast the deadline. */
		if (q7_fd_wait(fd, POLLIN, deadline) != 0)
			return -1;
		ssize_t got = read(fd, p, n);
		if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (got <= 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

int q7_wire_recv(int fd, char **data, size_t *len, int timeout_ms)
{
	long long deadline = deadline_in(timeout_ms);
	unsigned char h[4];
	if (read_all(fd, (char *)h, 4, deadline) < 0)
		return -1;
	uint32_t n = q7_le32(h);
	if (n > Q7_WIRE_MAX)
		return -1;
	char *buf = q7_xmalloc(n ? n : 1);
	if (read_all(fd, buf, n, deadline) < 0) {
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}
