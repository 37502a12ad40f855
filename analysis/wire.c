/* Encoding and decoding of the analysis server's messages (wire.h): JSON
 * documents built and read with json-c. Every read checks each member's
 * type and range: a short or damaged message is an error, never a crash,
 * and decoded tables are appended only when complete. */
#include "fdio.h"
#include "internal.h"
#include "opcodec.h"
#include "wire.h"

#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ACK "{\"ack\":true}"

/* The members of a request's options and a diagnostic, each under its C
 * name, and of an m.def, under --q7-format=json's (report.c): TEXT a string
 * (NULL goes as ""), NULLABLE a string or null, NUM an unsigned, FLAG a
 * bool, VEC a NULL-terminated vector or null. */
enum kind { TEXT, NULLABLE, NUM, FLAG, VEC };
struct field {
	const char *key;
	enum kind kind;
	size_t off;
};
#define OPT(m, kind) {#m, kind, offsetof(struct q7_analysis_opts, m)}
#define DIAG(m, kind) {#m, kind, offsetof(struct q7_diag, m)}
#define DEF(key, m, kind) {key, kind, offsetof(struct q7_neuron_def, m)}
static const struct field request_fields[] = {
	OPT(source, TEXT),       OPT(triple, NULLABLE),     OPT(toolchain, NULLABLE),
	OPT(preprocessed, FLAG), OPT(multicore, FLAG),      OPT(clang_args, VEC),
	OPT(sys_includes, VEC),  OPT(predefines, VEC),      OPT(kernel_names, VEC),
	OPT(wanted_names, VEC),  {NULL, TEXT, 0},
};
static const struct field diag_fields[] = {
	DIAG(file, TEXT),    DIAG(line, NUM),         DIAG(col, NUM),  DIAG(rule, TEXT),
	DIAG(message, TEXT), DIAG(promoted, FLAG), DIAG(source_read, FLAG), {NULL, TEXT, 0},
};
static const struct field def_fields[] = {
	DEF("namespace", ns, TEXT), DEF("op", op, TEXT),     DEF("compute", fn, TEXT),
	DEF("shape", shape, TEXT),  DEF("file", file, TEXT), DEF("line", line, NUM),
	DEF("column", col, NUM),    DEF("shape_file", shape_file, TEXT),
	DEF("shape_line", shape_line, NUM),                  {NULL, TEXT, 0},
};

/* The pointer member at p (a string or a vector, whatever its constness). */
static void *ptr_at(const char *p)
{
	void *v;
	memcpy(&v, p, sizeof v);
	return v;
}

static void set_ptr(char *p, void *v)
{
	memcpy(p, &v, sizeof v);
}

/* Adds v (NULL-terminated; NULL is JSON's null) to o as key. */
static void put_vec(struct json_object *o, const char *key, char *const *v)
{
	struct json_object *a = v ? q7_json_arr(o, key) : NULL;
	for (; v && *v; v++)
		q7_json_str(a, NULL, *v);
	if (!v)
		json_object_object_add(o, key, NULL);
}

static void put_fields(struct json_object *o, const void *s, const struct field *f)
{
	for (; f->key; f++) {
		const char *at = (const char *)s + f->off;
		if (f->kind == NUM)
			q7_json_int(o, f->key, *(const unsigned *)at);
		else if (f->kind == FLAG)
			q7_json_bool(o, f->key, *(const bool *)at);
		else if (f->kind == VEC)
			put_vec(o, f->key, ptr_at(at));
		else if (f->kind == NULLABLE && !ptr_at(at))
			json_object_object_add(o, f->key, NULL);
		else
			q7_json_str(o, f->key, ptr_at(at));
	}
}

void q7_json_put_def(struct json_object *o, const struct q7_neuron_def *d)
{
	put_fields(o, d, def_fields);
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

/* The array member key into v (which then holds its NULL terminator even
 * when empty); false for null. */
static bool get_vec(struct json_object *o, const char *key, struct q7_strvec *v, bool *bad)
{
	struct json_object *a = member(o, key, json_type_array, true, bad);
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		struct json_object *s = json_object_array_get_idx(a, i);
		if (json_object_is_type(s, json_type_string))
			q7_sv_add(v, json_object_get_string(s));
		else
			*bad = true;
	}
	if (a && !v->v) {
		v->v = q7_xcalloc(2, sizeof *v->v);
		v->cap = 2;
	}
	return a != NULL;
}

/* Fills s's members from o: new strings and vectors (free_fields). */
static void get_fields(struct json_object *o, void *s, const struct field *f, bool *bad)
{
	for (; f->key; f++) {
		char *at = (char *)s + f->off;
		struct json_object *v;
		struct q7_strvec vec = {0};
		if (f->kind == NUM) {
			*(unsigned *)at = get_num(o, f->key, UINT32_MAX, bad);
		} else if (f->kind == FLAG) {
			v = member(o, f->key, json_type_boolean, false, bad);
			*(bool *)at = v && json_object_get_boolean(v);
		} else if (f->kind == VEC) {
			get_vec(o, f->key, &vec, bad);
			set_ptr(at, vec.v);
		} else {
			set_ptr(at, get_str(o, f->key, f->kind == NULLABLE, bad));
		}
	}
}

static void free_fields(void *s, const struct field *f)
{
	for (; f->key; f++) {
		if (f->kind == NUM || f->kind == FLAG)
			continue; /* no pointer there: a flag is a bool's one byte */
		char **p = ptr_at((char *)s + f->off);
		for (size_t i = 0; f->kind == VEC && p && p[i]; i++)
			free(p[i]);
		free(p);
	}
}

void q7_wire_put_request(struct q7_strbuf *b, const struct q7_analysis_opts *o, const char *cwd,
                         char *const *env)
{
	struct json_object *j = json_object_new_object();
	q7_json_str(j, "cwd", cwd);
	put_vec(j, "env", env);
	put_fields(j, o, request_fields);
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
		get_fields(j, &q->opts, request_fields, &bad);
	}
	json_object_put(j);
	if (bad)
		q7_wire_request_free(q);
	return bad ? -1 : 0;
}

void q7_wire_request_free(struct q7_wire_request *q)
{
	free(q->cwd);
	q7_sv_free(&q->env);
	free_fields(&q->opts, request_fields);
	memset(q, 0, sizeof *q);
}

void q7_analysis_result_put(struct q7_strbuf *b, char *const *kernel_names, int rc,
                            const struct q7_op_table *ops, const struct q7_diags *diags)
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
		struct json_object *o = q7_json_obj(a, NULL);
		q7_json_int(o, "severity", diags->d[i].severity);
		put_fields(o, &diags->d[i], diag_fields);
	}
	a = q7_json_arr(j, "defs");
	for (size_t i = 0; i < ops->ndefs; i++)
		q7_json_put_def(q7_json_obj(a, NULL), &ops->defs[i]);
	put_vec(j, "kernel_names", kernel_names);
	put_json(b, j);
}

static void add_diag(struct q7_diags *ds, const struct q7_diag *d)
{
	q7_diags_add(ds, d->severity, d->file, d->line, d->col, d->rule, "%s", d->message);
	ds->d[ds->n - 1].promoted = d->promoted;
	ds->d[ds->n - 1].source_read = d->source_read;
}

static void get_diag(struct json_object *o, void *ds, bool *bad)
{
	struct q7_diag d = {.severity = get_num(o, "severity", Q7_SEV_ERROR, bad)};
	get_fields(o, &d, diag_fields, bad);
	if (!*bad)
		add_diag(ds, &d);
	free_fields(&d, diag_fields);
}

static void get_def(struct json_object *o, void *t, bool *bad)
{
	struct q7_neuron_def d = {0};
	get_fields(o, &d, def_fields, bad);
	if (!*bad)
		q7_ops_add_def(t, &d);
	free_fields(&d, def_fields);
}

/* Each element of the array member key of j, an object, through get
 * into to, while all is well. */
static void get_each(struct json_object *j, const char *key, void *to,
                     void (*get)(struct json_object *, void *, bool *), bool *bad)
{
	struct json_object *a = member(j, key, json_type_array, false, bad);
	for (size_t i = 0; a && i < json_object_array_length(a) && !*bad; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		if (json_object_is_type(o, json_type_object))
			get(o, to, bad);
		else
			*bad = true;
	}
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
	get_each(j, "diags", &ds, get_diag, &bad);
	get_each(j, "defs", &t, get_def, &bad);
	for (size_t i = 0; !bad && i < t.n; i++)
		q7_ops_add_copy(ops, &t.ops[i]);
	for (size_t i = 0; !bad && i < t.ndefs; i++)
		q7_ops_add_def(ops, &t.defs[i]);
	for (size_t i = 0; !bad && i < ds.n; i++)
		add_diag(diags, &ds.d[i]);
	if (!bad)
		*rc = json_object_get_int(code);
	q7_ops_free(&t);
	q7_diags_free(&ds);
	return bad ? -1 : 0;
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
	if (q7_write_all(fd, hdr, sizeof hdr, deadline) != 0)
		return -1;
	return q7_write_all(fd, b->s ? b->s : "", b->len, deadline);
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
	char *buf = q7_xmalloc(n);
	if (read_all(fd, buf, n, deadline) < 0) {
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}
