/* The LSP framing: see rpc.h. */
#include "rpc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

bool q7_rpc_fill(struct q7_rpc_in *in)
{
	char chunk[65536];
	for (;;) {
		ssize_t n = read(in->fd, chunk, sizeof chunk);
		if (n > 0) {
			q7_sb_addn(&in->buf, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		in->eof = true;
		return false;
	}
}

/* The body's length from the header block [h, end), or -1. Header names
 * are case-insensitive; Content-Type is allowed and ignored. */
static long long content_length(const char *h, const char *end)
{
	long long len = -1;
	while (h < end) {
		const char *eol = strstr(h, "\r\n");
		if (!eol || eol > end)
			eol = end;
		static const char name[] = "Content-Length:";
		if ((size_t)(eol - h) > sizeof name - 1 && strncasecmp(h, name, sizeof name - 1) == 0) {
			char *stop;
			errno = 0;
			long long v = strtoll(h + sizeof name - 1, &stop, 10);
			while (stop < eol && (*stop == ' ' || *stop == '\t'))
				stop++;
			if (errno || stop != eol || v < 0)
				return -1;
			len = v;
		}
		h = eol + 2;
	}
	return len;
}

char *q7_rpc_next(struct q7_rpc_in *in, size_t *len)
{
	if (in->off >= in->buf.len)
		return NULL;
	const char *start = in->buf.s + in->off;
	const char *sep = strstr(start, "\r\n\r\n");
	if (!sep) {
		if (in->buf.len - in->off > 8192) /* no header is this long */
			in->eof = true;
		return NULL;
	}
	long long n = content_length(start, sep);
	if (n < 0 || n > Q7_RPC_MAX) {
		in->eof = true;
		return NULL;
	}
	size_t body = (size_t)(sep + 4 - in->buf.s);
	if (in->buf.len - body < (size_t)n)
		return NULL;
	char *msg = q7_xstrndup(in->buf.s + body, (size_t)n);
	*len = (size_t)n;
	in->off = body + (size_t)n;
	if (in->off == in->buf.len) { /* all handed out: start again */
		in->buf.len = 0;
		in->buf.s[0] = '\0';
		in->off = 0;
	} else if (in->off > (1u << 20)) {
		memmove(in->buf.s, in->buf.s + in->off, in->buf.len - in->off + 1);
		in->buf.len -= in->off;
		in->off = 0;
	}
	return msg;
}

void q7_rpc_in_free(struct q7_rpc_in *in)
{
	q7_sb_free(&in->buf);
	in->off = 0;
}

void q7_rpc_send(struct q7_rpc_out *o, const char *body, size_t len)
{
	if (o->broken)
		return;
	q7_sb_addf(&o->q, "Content-Length: %zu\r\n\r\n", len);
	q7_sb_addn(&o->q, body, len);
	q7_rpc_flush(o);
}

bool q7_rpc_flush(struct q7_rpc_out *o)
{
	while (!o->broken && o->off < o->q.len) {
		ssize_t n = write(o->fd, o->q.s + o->off, o->q.len - o->off);
		if (n > 0)
			o->off += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		else
			o->broken = true;
	}
	if (o->off == o->q.len && o->q.len) {
		o->q.len = 0;
		o->q.s[0] = '\0';
		o->off = 0;
	}
	return !o->broken;
}

bool q7_rpc_pending(const struct q7_rpc_out *o)
{
	return !o->broken && o->off < o->q.len;
}

void q7_rpc_out_free(struct q7_rpc_out *o)
{
	q7_sb_free(&o->q);
	o->off = 0;
}
