/* run/result: loader failures, the call frame made from a call,
 * and the returned tensor, the same for the host and the emulated target. */
#include "result.h"
#include "callargs.h"
#include "schema.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void q7_run_fail(struct q7_run_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_err_vset(&Q7_ERR_OF(r->message), NULL, fmt, ap);
	va_end(ap);
	r->status = -1;
}

void q7_run_clean_message(char *m)
{
	for (; *m; m++)
		if ((unsigned char)*m < 0x20 || *m == 0x7f)
			*m = '?';
}

void q7_run_frame_fill(struct q7_frame *f, const char *op, unsigned nargs,
                       const struct q7_arg *args, const struct q7_tensor_desc *dst, unsigned core,
                       unsigned cores)
{
	/* Every field but the unused arguments and the message's tail: a
	 * loader that calls again and again pays for what it uses. */
	memset(f, 0, offsetof(struct q7_frame, args));
	memset(&f->dst, 0, offsetof(struct q7_frame, message) + 1 - offsetof(struct q7_frame, dst));
	f->magic = Q7_FRAME_MAGIC;
	f->version = Q7_FRAME_VERSION;
	f->size = sizeof *f;
	f->nargs = nargs;
	size_t n = strnlen(op, sizeof f->op - 1);
	memcpy(f->op, op, n);
	f->op[n] = 0;
	f->cpu_id = core;
	f->cpu_count = cores;
	if (nargs)
		memcpy(f->args, args, (nargs < Q7_MAX_ARGS ? nargs : Q7_MAX_ARGS) * sizeof *args);
	f->dst = *dst;
}

void q7_run_frame_init(struct q7_frame *f, const struct q7_call *req, unsigned core,
                       unsigned cores)
{
	memset(f, 0, sizeof *f);
	q7_run_frame_fill(f, req->op, req->nargs, req->args, &req->dst, core, cores);
}

/* C order (a dimension of size 1 may have any stride). */
static bool in_c_order(const struct q7_tensor_desc *t)
{
	uint64_t want = 1;
	for (unsigned d = t->ndim; d-- > 0;) {
		if (t->sizes[d] != 1 && (t->strides[d] < 0 || (uint64_t)t->strides[d] != want))
			return false;
		want *= t->sizes[d];
	}
	return true;
}

/* Gathers t's n elements of es bytes from span (by t's strides) into
 * out; false when one lies past span_bytes. */
static bool gather(const struct q7_tensor_desc *t, size_t n, size_t es, const unsigned char *span,
                   size_t span_bytes, unsigned char *out)
{
	if (in_c_order(t)) { /* the usual case: one copy */
		if (n * es > span_bytes)
			return false;
		memcpy(out, span, n * es);
		return true;
	}
	unsigned idx[Q7_MAX_DIMS] = {0};
	for (size_t k = 0; k < n; k++) {
		size_t off = 0;
		for (unsigned d = 0; d < t->ndim; d++)
			off += (size_t)idx[d] * (size_t)t->strides[d];
		if ((off + 1) * es > span_bytes)
			return false;
		memcpy(out + k * es, span + off * es, es);
		for (unsigned d = t->ndim; d-- > 0;)
			if (++idx[d] < t->sizes[d])
				break;
			else
				idx[d] = 0;
	}
	return true;
}

int q7_run_check_in_dst(const char *op, const struct q7_tensor_desc *out, uint64_t dst_data,
                        const struct q7_tensor_desc *dst, struct q7_run_result *r)
{
	uint64_t n = 0, bytes = 0, dn = 0, dbytes = 0; /* printed even when a desc is refused */
	size_t es = q7_dtype_size(out->dtype);
	if (out->data != dst_data) {
		q7_run_fail(r, "%s: the runtime left the result outside the destination", op);
		return 1;
	}
	if (!q7_tensor_bytes(out, &n, &bytes) || !q7_tensor_bytes(dst, &dn, &dbytes) ||
	    !in_c_order(out) || n * es > dbytes) {
		q7_run_fail(r,
		            "%s: the returned tensor does not fit the destination (%u dims, %llu "
		            "elements of %zu bytes%s, where the destination holds %llu bytes)",
		            op, out->ndim, (unsigned long long)(es && out->ndim <= Q7_MAX_DIMS ? n : 0), es,
		            in_c_order(out) ? "" : ", not contiguous", (unsigned long long)dbytes);
		return 1;
	}
	return 0;
}

/* Copies only once f->out's bytes are known to lie within span (a frame
 * a kernel rewrote may say anything). */
int q7_run_take_output(const struct q7_frame *f, const unsigned char *span, size_t span_bytes,
                       struct q7_run_result *r)
{
	/* Read once: a thread of the kernel's may rewrite f meanwhile. */
	struct q7_tensor_desc out;
	memcpy(&out, (const void *)&f->out, sizeof out);
	char op[sizeof f->op];
	memcpy(op, f->op, sizeof op);
	op[sizeof op - 1] = 0;
	size_t es = q7_dtype_size(out.dtype);
	uint64_t n = 0, extent = 0;
	if (!q7_tensor_bytes(&out, &n, &extent)) {
		q7_run_fail(r, "%s: the runtime described an invalid result", op);
		return 1;
	}
	if (extent > span_bytes || n * es > span_bytes) {
		q7_run_fail(r,
		            "%s: the returned tensor's bytes are incomplete (%llu elements of %zu bytes "
		            "over %llu bytes, where %zu may be read)",
		            op, (unsigned long long)n, es, (unsigned long long)extent, span_bytes);
		return 1;
	}
	r->out = out;
	r->out_bytes = n * es;
	r->out_data = q7_xmalloc(r->out_bytes ? r->out_bytes : 1);
	if (!gather(&out, n, es, span, span_bytes, r->out_data)) {
		q7_run_fail(r, "%s: the returned tensor's bytes are incomplete", op);
		return 1;
	}
	q7_run_set_contiguous(&r->out);
	r->out.data = (uint64_t)(uintptr_t)r->out_data;
	return 0;
}

void q7_run_result_free(struct q7_run_result *result)
{
	free(result->out_data);
	result->out_data = NULL;
}

/* The first byte at which a and b differ (n when none): compared a page
 * at a time, then byte by byte in the page that differs. */
static size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t at = 0;
	while (at < n) {
		size_t k = n - at < 4096 ? n - at : 4096;
		if (memcmp(a + at, b + at, k) != 0)
			break;
		at += k;
	}
	while (at < n && a[at] == b[at])
		at++;
	return at;
}

void q7_run_word_changed(struct q7_run_result *r, const char *op, const char *arg)
{
	if (r->changed_past_end)
		snprintf(r->message, sizeof r->message,
		         "%s: the kernel wrote past the end of its input %s, at byte offset %llu (it has "
		         "%llu bytes); a kernel writes only into its output and its own allocations (the "
		         "caller's tensor is as it was)",
		         op, arg, (unsigned long long)r->changed_at, (unsigned long long)r->changed_bytes);
	else
		snprintf(r->message, sizeof r->message,
		         "%s: the kernel wrote into its input %s, at byte offset %llu; a kernel never "
		         "changes its inputs (the caller's tensor is as it was)",
		         op, arg, (unsigned long long)r->changed_at);
}

int q7_run_changed(struct q7_run_result *r, const char *op, unsigned i, uint64_t at,
                   bool past_end, uint64_t n)
{
	char arg[32];
	snprintf(arg, sizeof arg, "argument %u", i + 1);
	r->status = Q7_STATUS_KERNEL_ERROR;
	r->changed_arg = i + 1;
	r->changed_at = at;
	r->changed_past_end = past_end;
	r->changed_bytes = n;
	q7_run_word_changed(r, op, arg);
	return 1;
}

int q7_run_outside(struct q7_run_result *r, const char *op, const char *did, int what,
                   uint64_t bytes, long long at)
{
	char name[96] = "the heap arena";
	if (what == Q7_RUN_DST)
		snprintf(name, sizeof name, "the destination (get_dst_tensor(): %llu bytes)",
		         (unsigned long long)bytes);
	else if (what >= 0)
		snprintf(name, sizeof name, "its input argument %d (%llu bytes)", what + 1,
		         (unsigned long long)bytes);
	q7_run_fail(r, "%s: the kernel %s %s %s, at byte offset %lld; a kernel writes only into its "
	            "output and its own allocations", op, did,
	            at < 0 ? "before the start of" : "past the end of", name, at);
	r->status = Q7_STATUS_KERNEL_ERROR;
	return 1;
}

int q7_run_inputs_compare(const struct q7_call *c, const unsigned char *const *before,
                          const unsigned char *const *after, struct q7_run_result *r)
{
	for (unsigned i = 0; i < c->nargs && i < Q7_MAX_ARGS; i++) {
		if (c->args[i].kind != Q7_ARG_TENSOR || !before[i] || !after[i])
			continue;
		size_t n = q7_tensor_span(&c->args[i].u.tensor);
		size_t at = first_difference(before[i], after[i], n);
		if (at == n)
			continue;
		return q7_run_changed(r, c->op, i, at, false, n);
	}
	return 0;
}

/* The input red zone's pattern, made once: filling and checking it are
 * then a memcpy and a memcmp (a loop over the bytes cost 0.2 us a call). */
static unsigned char red_pattern[Q7_RED_ZONE];
static pthread_once_t red_once = PTHREAD_ONCE_INIT;

static void red_make(void)
{
	for (size_t k = 0; k < Q7_RED_ZONE; k++)
		red_pattern[k] = (unsigned char)(0xa5 ^ (k * 29));
}

void q7_run_red_zone_fill(unsigned char *zone, size_t n)
{
	pthread_once(&red_once, red_make);
	for (size_t at = 0; at < n; at += Q7_RED_ZONE)
		memcpy(zone + at, red_pattern, n - at < Q7_RED_ZONE ? n - at : Q7_RED_ZONE);
}

/* The first byte of zone[0..n) unlike the pattern (n when none). */
static size_t zone_changed(const unsigned char *zone, size_t n)
{
	for (size_t at = 0; at < n; at += Q7_RED_ZONE) {
		size_t k = n - at < Q7_RED_ZONE ? n - at : Q7_RED_ZONE;
		if (memcmp(zone + at, red_pattern, k) != 0)
			return at + first_difference(zone + at, red_pattern, k);
	}
	return n;
}

int q7_run_inputs_zones(const struct q7_call *c, const unsigned char *const *after,
                        const size_t *zone, struct q7_run_result *r)
{
	pthread_once(&red_once, red_make);
	for (unsigned i = 0; i < c->nargs && i < Q7_MAX_ARGS; i++) {
		if (c->args[i].kind != Q7_ARG_TENSOR || !after[i])
			continue;
		size_t n = q7_tensor_span(&c->args[i].u.tensor);
		size_t at = zone_changed(after[i] + n, zone[i]);
		if (at < zone[i])
			return q7_run_changed(r, c->op, i, n + at, true, n);
	}
	return 0;
}

void q7_run_schema_arg(const char *schema, size_t len, unsigned i, char *buf, size_t size)
{
	char *text = q7_xstrndup(schema, len);
	struct q7_op op;
	if (q7_schema_parse(text, &op, NULL, NULL) == 0) {
		const char *name = i < op.nparams ? op.params[i].name : "";
		snprintf(buf, size, *name ? "argument %u (%s)" : "argument %u%s", i + 1, name);
		q7_op_clear(&op);
	} else {
		snprintf(buf, size, "argument %u", i + 1);
	}
	free(text);
}

void q7_run_list_arg(const char *list, const char *op, unsigned i, char *buf, size_t size)
{
	size_t oplen = strlen(op);
	snprintf(buf, size, "argument %u", i + 1);
	for (const char *p = list ? list : ""; *p;) {
		const char *eol = strchrnul(p, '\n');
		const char *tab = memchr(p, '\t', (size_t)(eol - p));
		if (!tab)
			return;
		const char *schema = tab + 1;
		if (((size_t)(tab - p) == oplen && strncmp(p, op, oplen) == 0) ||
		    (strncmp(schema, op, oplen) == 0 && schema[oplen] == '(')) {
			q7_run_schema_arg(schema, (size_t)(eol - schema), i, buf, size);
			return;
		}
		p = *eol ? eol + 1 : eol;
	}
}

unsigned q7_run_unchecked(unsigned asked)
{
	const char *v = getenv("Q7CC_UNCHECKED");
	if (!v || !*v || strcmp(v, "0") == 0)
		return asked;
	if (strcmp(v, "inputs") == 0)
		return asked | Q7_UNCHECKED_INPUTS;
	if (strcmp(v, "zones") == 0)
		return asked | Q7_UNCHECKED_ZONES;
	return Q7_UNCHECKED_INPUTS | Q7_UNCHECKED_ZONES;
}

unsigned char q7_run_uninit_byte(const struct q7_call *c)
{
	unsigned char flip = c->fill_second ? 0xff : 0;
	switch (c->dst.dtype) {
	case Q7_DTYPE_FLOAT16:
	case Q7_DTYPE_FLOAT32:
	case Q7_DTYPE_FLOAT64:
	case Q7_DTYPE_BFLOAT16:
		return 0xff ^ flip; /* a quiet NaN in every float type */
	default:
		return 0xa5 ^ flip;
	}
}

void q7_run_uninit_fill(void *p, size_t n, const struct q7_call *c)
{
	memset(p, q7_run_uninit_byte(c), n);
}
