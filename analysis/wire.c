/* Encoding and decoding of the analysis server's messages (wire.h). Every
 * read is bounds-checked: a short or damaged message is an error, never a
 * crash, and decoded tables are appended only when complete. */
#include "bytes.h"
#include "fdio.h"
#include "opcodec.h"
#include "wire.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NIL 0xffffffffu

static void put_u32(struct q7_strbuf *b, uint32_t v)
{
	q7_sb_add_le32(b, v);
}

static void put_str(struct q7_strbuf *b, const char *s)
{
	if (!s) {
		put_u32(b, NIL);
		return;
	}
	size_t n = strlen(s);
	put_u32(b, (uint32_t)n);
	q7_sb_addn(b, s, n);
}

static void put_vec(struct q7_strbuf *b, char *const *v)
{
	if (!v) {
		put_u32(b, NIL);
		return;
	}
	uint32_t n = 0;
	while (v[n])
		n++;
	put_u32(b, n);
	for (uint32_t i = 0; i < n; i++)
		put_str(b, v[i]);
}

struct reader {
	const unsigned char *p, *end;
	bool bad;
};

static uint32_t get_u32(struct reader *r)
{
	if (r->bad || r->end - r->p < 4) {
		r->bad = true;
		return 0;
	}
	uint32_t v = q7_le32(r->p);
	r->p += 4;
	return v;
}

/* A new string, or NULL for NIL (and on error, with r->bad set). */
static char *get_str(struct reader *r)
{
	uint32_t n = get_u32(r);
	if (r->bad || n == NIL)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	char *s = q7_xstrndup((const char *)r->p, n);
	r->p += n;
	return s;
}

/* Never NULL, so that the tables hold "" where the writer had NULL. */
static char *get_str0(struct reader *r)
{
	char *s = get_str(r);
	return s ? s : q7_xstrdup("");
}

static bool get_vec(struct reader *r, struct q7_strvec *v)
{
	uint32_t n = get_u32(r);
	if (r->bad || n == NIL)
		return false;
	if (n > (uint32_t)(r->end - r->p) / 4) {
		r->bad = true;
		return false;
	}
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		char *s = get_str0(r);
		q7_sv_add(v, s);
		free(s);
	}
	return true;
}

void q7_wire_put_request(struct q7_strbuf *b, const struct q7_analysis_opts *o, const char *cwd,
                         char *const *env)
{
	put_u32(b, Q7_WIRE_MAGIC);
	put_str(b, cwd);
	put_vec(b, env);
	put_str(b, o->source);
	put_str(b, o->triple);
	put_str(b, o->toolchain);
	put_u32(b, (o->preprocessed ? Q7_WIRE_PREPROCESSED : 0) | (o->multicore ? Q7_WIRE_MULTICORE : 0));
	put_vec(b, o->clang_args);
	put_vec(b, o->sys_includes);
	put_vec(b, o->predefines);
	put_vec(b, o->kernel_names);
	put_vec(b, o->wanted_names);
}

int q7_wire_get_request(const char *data, size_t len, struct q7_wire_request *q)
{
	struct reader r = {(const unsigned char *)data, (const unsigned char *)data + len, false};
	memset(q, 0, sizeof *q);
	if (get_u32(&r) != Q7_WIRE_MAGIC)
		return -1;
	q->cwd = get_str(&r);
	get_vec(&r, &q->env);
	for (int i = 0; i < 3; i++)
		q->strs[i] = get_str(&r);
	uint32_t flags = get_u32(&r);
	r.bad |= (flags & ~(Q7_WIRE_PREPROCESSED | Q7_WIRE_MULTICORE)) != 0;
	q->opts.preprocessed = (flags & Q7_WIRE_PREPROCESSED) != 0;
	q->opts.multicore = (flags & Q7_WIRE_MULTICORE) != 0;
	for (int i = 0; i < Q7_WIRE_NVECS; i++)
		q->has_vec[i] = get_vec(&r, &q->vecs[i]);
	if (r.bad || r.p != r.end || !q->cwd || !q->strs[0]) {
		q7_wire_request_free(q);
		return -1;
	}
	q->opts.source = q->strs[0];
	q->opts.triple = q->strs[1];
	q->opts.toolchain = q->strs[2];
	char **v[Q7_WIRE_NVECS];
	for (int i = 0; i < Q7_WIRE_NVECS; i++) {
		/* An empty vector still needs its NULL terminator. */
		if (q->has_vec[i] && !q->vecs[i].v) {
			q->vecs[i].v = q7_xcalloc(2, sizeof *q->vecs[i].v);
			q->vecs[i].cap = 2;
		}
		v[i] = q->has_vec[i] ? q->vecs[i].v : NULL;
	}
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
	for (int i = 0; i < 4; i++)
		free(q->strs[i]);
	for (int i = 0; i < Q7_WIRE_NVECS; i++)
		q7_sv_free(&q->vecs[i]);
	memset(q, 0, sizeof *q);
}

void q7_wire_put_result(struct q7_strbuf *b, int rc, const struct q7_op_table *ops,
                        const struct q7_diags *diags)
{
	put_u32(b, Q7_WIRE_MAGIC);
	put_u32(b, (uint32_t)rc);
	/* The ops as one op record (model/opcodec.h), as an object carries
	 * them: q7cc -c reads q7cc -E's trailer as the link reads a record. */
	size_t at = b->len;
	put_u32(b, 0); /* its length, patched below */
	q7_opcodec_put(b, ops);
	q7_put_le32(b->s + at, (uint32_t)(b->len - at - 4));
	put_u32(b, (uint32_t)diags->n);
	for (size_t i = 0; i < diags->n; i++) {
		const struct q7_diag *d = &diags->d[i];
		put_u32(b, (uint32_t)d->severity);
		put_str(b, d->file);
		put_u32(b, d->line);
		put_u32(b, d->col);
		put_str(b, d->rule);
		put_str(b, d->message);
		put_u32(b, (d->promoted ? 1u : 0u) | (d->source_read ? 2u : 0u));
	}
	put_u32(b, (uint32_t)ops->ndefs);
	for (size_t i = 0; i < ops->ndefs; i++) {
		const struct q7_neuron_def *d = &ops->defs[i];
		put_str(b, d->ns);
		put_str(b, d->op);
		put_str(b, d->fn);
		put_str(b, d->shape);
		put_str(b, d->file);
		put_u32(b, d->line);
		put_u32(b, d->col);
		put_str(b, d->shape_file);
		put_u32(b, d->shape_line);
	}
}

/* A result, its ops held to q7_op_check as a record's are; why appended
 * to when the op record is what is wrong. */
static int get_result(const char *data, size_t len, int *rc, struct q7_op_table *ops,
                      struct q7_diags *diags, struct q7_strbuf *why)
{
	struct reader r = {(const unsigned char *)data, (const unsigned char *)data + len, false};
	struct q7_op_table t = {0};
	struct q7_diags ds = {0};
	if (get_u32(&r) != Q7_WIRE_MAGIC)
		return -1;
	int code = (int)get_u32(&r);
	uint32_t n = get_u32(&r);
	if (!r.bad && n > (size_t)(r.end - r.p))
		r.bad = true;
	if (!r.bad) {
		r.bad = q7_opcodec_get((const char *)r.p, n, &t, why) != 0;
		r.p += n;
	}
	n = get_u32(&r);
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		uint32_t sev = get_u32(&r);
		char *file = get_str0(&r);
		unsigned line = get_u32(&r), col = get_u32(&r);
		char *rule = get_str0(&r), *msg = get_str0(&r);
		uint32_t flags = get_u32(&r);
		r.bad |= sev > Q7_SEV_ERROR || flags > 3;
		if (!r.bad) {
			q7_diags_add(&ds, (enum q7_severity)sev, file, line, col, rule, "%s", msg);
			ds.d[ds.n - 1].promoted = flags & 1u;
			ds.d[ds.n - 1].source_read = flags & 2u;
		}
		free(file);
		free(rule);
		free(msg);
	}
	n = get_u32(&r);
	/* each at least 9 u32s */
	if (!r.bad && n > (size_t)(r.end - r.p) / 36)
		r.bad = true;
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		struct q7_neuron_def d;
		d.ns = get_str0(&r);
		d.op = get_str0(&r);
		d.fn = get_str0(&r);
		d.shape = get_str0(&r);
		d.file = get_str0(&r);
		d.line = get_u32(&r);
		d.col = get_u32(&r);
		d.shape_file = get_str0(&r);
		d.shape_line = get_u32(&r);
		if (!r.bad)
			q7_ops_add_def(&t, &d);
		q7_neuron_def_clear(&d);
	}
	if (r.bad || r.p != r.end) {
		q7_ops_free(&t);
		q7_diags_free(&ds);
		return -1;
	}
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
	q7_ops_free(&t);
	q7_diags_free(&ds);
	*rc = code;
	return 0;
}

void q7_analysis_result_put(struct q7_strbuf *b, char *const *kernel_names, int rc,
                            const struct q7_op_table *ops, const struct q7_diags *diags)
{
	struct q7_strbuf names = {0};
	put_vec(&names, kernel_names);
	put_u32(b, (uint32_t)names.len);
	q7_sb_addn(b, names.s, names.len);
	q7_wire_put_result(b, rc, ops, diags);
	q7_sb_free(&names);
}

int q7_wire_get_result(const char *data, size_t len, int *rc, struct q7_op_table *ops,
                       struct q7_diags *diags)
{
	struct q7_strbuf why = {0};
	int got = get_result(data, len, rc, ops, diags, &why);
	q7_sb_free(&why);
	return got;
}

int q7_analysis_result_read(const char *data, size_t len, struct q7_strvec *kernel_names,
                            int *rc, struct q7_op_table *ops, struct q7_diags *diags,
                            struct q7_strbuf *why)
{
	struct reader r = {(const unsigned char *)data, (const unsigned char *)data + len, false};
	uint32_t n = get_u32(&r);
	if (r.bad || n > (size_t)(r.end - r.p))
		return -1;
	struct reader nr = {r.p, r.p + n, false};
	struct q7_strvec names = {0};
	get_vec(&nr, &names);
	/* The result appends to ops and diags only when it is whole. */
	int got = !nr.bad && nr.p == nr.end &&
	                  get_result((const char *)r.p + n, (size_t)(r.end - r.p) - n, rc,
	                             ops, diags, why) == 0
	              ? 0
	              : -1;
	if (got == 0)
		q7_sv_addv(kernel_names, &names);
	q7_sv_free(&names);
	return got;
}

void q7_wire_put_ack(struct q7_strbuf *b)
{
	put_u32(b, Q7_WIRE_ACK);
}

bool q7_wire_is_ack(const char *data, size_t len)
{
	struct reader r = {(const unsigned char *)data, (const unsigned char *)data + len, false};
	return get_u32(&r) == Q7_WIRE_ACK && !r.bad && r.p == r.end;
}

long long q7_wire_deadline(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : q7_now_ms() + timeout_ms;
}

int q7_wire_send(int fd, const struct q7_strbuf *b, int timeout_ms)
{
	long long deadline = q7_wire_deadline(timeout_ms);
	struct q7_strbuf hdr = {0};
	put_u32(&hdr, (uint32_t)b->len);
	int rc = q7_write_all(fd, hdr.s, hdr.len, deadline) == 0 &&
	                 q7_write_all(fd, b->s ? b->s : "", b->len, deadline) == 0
	             ? 0
	             : -1;
	q7_sb_free(&hdr);
	return rc;
}

int q7_wire_read_all(int fd, char *p, size_t n, long long deadline)
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
	long long deadline = q7_wire_deadline(timeout_ms);
	unsigned char h[4];
	if (q7_wire_read_all(fd, (char *)h, 4, deadline) < 0)
		return -1;
	uint32_t n = q7_le32(h);
	if (n > Q7_WIRE_MAX)
		return -1;
	char *buf = q7_xmalloc(n ? n : 1);
	if (q7_wire_read_all(fd, buf, n, deadline) < 0) {
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}
