/* Streaming accessors (TensorReadStreamAccessor, TensorWriteStreamAccessor
 * in <q7/tensor.h>) and the coherence policy: docs/runtime.md, "Accessors,
 * streams and the coherence policy". */
#include <string.h>

#include "rt.h"

namespace {

const uint32_t STREAM_BYTES = 4096;

const char *access_name(int access)
{
	switch (access) {
	case Q7RT_ACCESS_READ_STREAM: return "read stream accessor";
	case Q7RT_ACCESS_WRITE_STREAM: return "write stream accessor";
	default: return "standard accessor";
	}
}

/* The next chunk: count elements from next on (at most cap). */
void next_chunk(q7rt_stream *s)
{
	int64_t left = s->total - s->next;
	s->count = left < (int64_t)s->cap ? (uint32_t)left : s->cap;
	s->pos = 0;
}

} // namespace

extern "C" void q7rt_incoherent(const q7rt_tensor *t, int access, const char *what)
{
	int policy = t->coh.policy;
	if (policy == 2) /* INCOHERENT_QUIET */
		return;
	char why[160];
	if (access == Q7RT_ACCESS_WRITE_STREAM)
		snprintf(why, sizeof why,
		         "the tensor already has %d read stream(s), %d write stream(s) and %d standard "
		         "accessor(s) open",
		         (int)t->coh.n_read, (int)t->coh.n_write, (int)t->coh.n_standard);
	else
		snprintf(why, sizeof why, "a write stream accessor of the tensor is open");
	if (policy == 0) /* COHERENT */
		q7rt_fail("%s: incoherent access: a %s while %s (the coherence policy is COHERENT; "
		          "set_accessor_coherence_policy(INCOHERENT_VERBOSE or INCOHERENT_QUIET) allows "
		          "it)",
		          what, access_name(access), why);
	char line[320];
	int n = snprintf(line, sizeof line, "warning: %s: %s: incoherent access: a %s while %s\n",
	                 q7rt.op ? q7rt.op : "?", what, access_name(access), why);
	if (n > 0)
		q7rt_write(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

extern "C" void q7rt_stream_open(q7rt_stream *s, q7rt_tensor *t, int dtype, int write)
{
	memset(s, 0, sizeof *s);
	const char *what = write ? "write_stream_accessor" : "read_stream_accessor";
	if (!t)
		q7rt_fail("%s: use of an undefined tensor", what);
	if (t->dtype != dtype)
		q7rt_fail("%s<%s>: tensor is %s", what, q7rt_dtype_name(dtype), q7rt_dtype_name(t->dtype));
	if (write ? t->coh.n_read || t->coh.n_write || t->coh.n_standard : t->coh.n_write != 0)
		q7rt_incoherent(t, write ? Q7RT_ACCESS_WRITE_STREAM : Q7RT_ACCESS_READ_STREAM, what);
	size_t esize = q7rt_dtype_size(dtype);
	s->t = t;
	s->dtype = dtype;
	s->mode = write ? 2 : 1;
	s->total = q7rt_numel(t);
	s->buf = q7rt_tcm_malloc(STREAM_BYTES);
	s->pooled = s->buf != nullptr;
	if (s->pooled) {
		s->cap = (uint32_t)(STREAM_BYTES / esize);
	} else {
		s->buf = &s->one;
		s->cap = 1;
	}
	if (write) {
		t->coh.n_write++;
		next_chunk(s);
	} else {
		t->coh.n_read++; /* count 0: the first read fetches */
	}
}

extern "C" void q7rt_stream_refill(q7rt_stream *s)
{
	if (s->mode != 1)
		q7rt_fail("read_stream_accessor: read() on a closed stream");
	s->next += s->count;
	if (s->next >= s->total)
		q7rt_fail("read_stream_accessor: read() past the end of the tensor's %lld elements",
		          (long long)s->total);
	next_chunk(s);
	q7rt_copy_tcm(s->t, s->dtype, s->buf, (size_t)s->next, s->count, 1);
}

extern "C" void q7rt_stream_flush(q7rt_stream *s)
{
	if (s->mode != 2)
		q7rt_fail("write_stream_accessor: write() on a closed stream");
	if (s->pos)
		q7rt_copy_tcm(s->t, s->dtype, s->buf, (size_t)s->next, s->pos, 0);
	s->next += s->pos;
	next_chunk(s);
	if (s->count == 0)
		q7rt_fail("write_stream_accessor: write() past the end of the tensor's %lld elements",
		          (long long)s->total);
}

extern "C" int q7rt_stream_close(q7rt_stream *s)
{
	if (s->mode == 0)
		return -1;
	if (s->mode == 2) {
		if (s->pos)
			q7rt_copy_tcm(s->t, s->dtype, s->buf, (size_t)s->next, s->pos, 0);
		s->t->coh.n_write--;
	} else {
		s->t->coh.n_read--;
	}
	if (s->pooled)
		q7rt_tcm_free(s->buf);
	s->mode = 0;
	s->pooled = 0;
	s->buf = &s->one;
	s->pos = s->count = 0;
	return 0;
}
