/* The LSP framing: see rpc.h. */
#include "rpc.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Drops the first *off bytes of b (handed out, or written): an emptied
 * buffer starts again (freed when a long message made it large); one that
 * is not is moved down once they are over 1 MiB and half of it, so that
 * it holds only what is still to come, however far behind its reader. */
static void consume(struct q7_strbuf *b, size_t *off)
{
	if (*off == b->len && b->cap > (4u << 20)) {
		q7_sb_free(b);
		*off = 0;
	} else if (*off == b->len) {
		b->len = *off = 0;
		if (b->s)
			b->s[0] = '\0';
	} else if (*off > (1u << 20) && *off >= b->len / 2) {
		memmove(b->s, b->s + *off, b->len - *off + 1);
		b->len -= *off;
		*off = 0;
	}
}

/* ---- a message too long to hold: passed over ---- */

/* Adds c to the JSON text of the member's key or value: counted always,
 * kept while it fits. */
static void scan_keep(struct q7_rpc_scan *s, char c)
{
	char *to = s->in_value ? s->val : s->key;
	size_t *n = s->in_value ? &s->nval : &s->nkey;
	if (*n + 1 < (s->in_value ? sizeof s->val : sizeof s->key))
		to[*n] = c;
	(*n)++;
}

/* The end of a member of the top-level object: its value's text kept
 * when it is the "id" or the "method", whole. */
static void scan_member_end(struct q7_rpc_scan *s)
{
	s->key[s->nkey < sizeof s->key ? s->nkey : sizeof s->key - 1] = '\0';
	s->val[s->nval < sizeof s->val ? s->nval : sizeof s->val - 1] = '\0';
	const char *k = s->key + strspn(s->key, " \t\r\n");
	size_t n = strcspn(k, " \t\r\n");
	char *to = n == 4 && strncmp(k, "\"id\"", 4) == 0       ? s->id
	           : n == 8 && strncmp(k, "\"method\"", 8) == 0 ? s->method
	                                                       : NULL;
	if (to && s->nval < sizeof s->val)
		memcpy(to, s->val, s->nval + 1);
	s->nkey = s->nval = 0;
	s->in_value = false;
}

/* Follows the JSON of a message byte by byte, in constant memory: the
 * members of the top-level object, the text of each kept while short. */
static void scan_byte(struct q7_rpc_scan *s, char c)
{
	if (s->in_str) {
		if (s->esc)
			s->esc = false;
		else if (c == '\\')
			s->esc = true;
		else if (c == '"')
			s->in_str = false;
	} else if (c == '"') {
		s->in_str = true;
	} else if (c == '{' || c == '[') {
		if (s->depth++ == 0)
			return; /* the message's own */
	} else if (c == '}' || c == ']') {
		if (--s->depth == 0) {
			scan_member_end(s);
			return;
		}
	} else if (s->depth == 1 && (c == ':' || c == ',')) {
		if (c == ':')
			s->in_value = true;
		else
			scan_member_end(s);
		return;
	}
	if (s->depth > 0)
		scan_keep(s, c);
}

/* Passes over what buf holds of the message being skipped. */
static void skip_buffered(struct q7_rpc_in *in)
{
	size_t n = in->buf.len - in->off;
	if (n > in->skip)
		n = in->skip;
	const char *b = in->buf.s + in->off;
	for (size_t i = 0; i < n; i++) {
		/* Inside a string below the top, only a quote or a backslash
		 * matters: the bulk of a long message. */
		if (in->scan.in_str && !in->scan.esc && in->scan.depth != 1)
			while (i < n && b[i] != '"' && b[i] != '\\')
				i++;
		if (i < n)
			scan_byte(&in->scan, b[i]);
	}
	in->off += n;
	in->skip -= n;
	consume(&in->buf, &in->off);
}

/* The stand-in of a message passed over: {"id":..,"method":".."}, each
 * when it had one (an id of a number or a string). */
static char *stand_in(struct q7_rpc_in *in, size_t *len)
{
	json_object *id = json_tokener_parse(in->scan.id), *m = json_tokener_parse(in->scan.method);
	bool id_ok = json_object_is_type(id, json_type_int) || json_object_is_type(id, json_type_string);
	json_object *o = json_object_new_object();
	if (id_ok)
		json_object_object_add(o, "id", json_object_get(id));
	if (json_object_is_type(m, json_type_string))
		json_object_object_add(o, "method", json_object_get(m));
	char *text = q7_xstrdup(json_object_to_json_string_length(
	    o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, len));
	json_object_put(o);
	json_object_put(m);
	json_object_put(id);
	return text;
}

/* ---- reading ---- */

bool q7_rpc_fill(struct q7_rpc_in *in)
{
	char chunk[65536];
	for (size_t got = 0; got < (4u << 20);) {
		ssize_t n = read(in->fd, chunk, sizeof chunk);
		if (n > 0) {
			q7_sb_addn(&in->buf, chunk, (size_t)n);
			got += (size_t)n;
			if (in->skip)
				skip_buffered(in);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		in->eof = true;
		return false;
	}
	return true;
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
	in->too_big = 0;
	if (in->skipping) {
		skip_buffered(in);
		if (in->skip)
			return NULL;
		in->too_big = in->skipping;
		in->skipping = 0;
		return stand_in(in, len);
	}
	if (in->off >= in->buf.len)
		return NULL;
	const char *start = in->buf.s + in->off;
	const char *sep = strstr(start, "\r\n\r\n");
	if (!sep) {
		if (in->buf.len - in->off > 8192) /* no header is this long */
			in->eof = in->damaged = true;
		return NULL;
	}
	long long n = content_length(start, sep);
	if (n < 0) {
		in->eof = in->damaged = true;
		return NULL;
	}
	size_t body = (size_t)(sep + 4 - in->buf.s);
	if (n > Q7_RPC_MAX) {
		in->off = body;
		in->skip = in->skipping = (size_t)n;
		memset(&in->scan, 0, sizeof in->scan);
		return q7_rpc_next(in, len);
	}
	if (in->buf.len - body < (size_t)n)
		return NULL;
	char *msg = q7_xstrndup(in->buf.s + body, (size_t)n);
	*len = (size_t)n;
	in->off = body + (size_t)n;
	consume(&in->buf, &in->off);
	return msg;
}

bool q7_rpc_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = p[i] < 0x80 ? 1 : q7_utf8_len(p + i);
		if (!k || i + k > n)
			return false;
		i += k;
	}
	return true;
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
	if (o->q.len - o->off + len + 64 > (o->max ? o->max : Q7_RPC_QUEUE_MAX)) {
		/* A peer that does not read: the queue would grow without end. */
		o->broken = o->full = true;
		q7_sb_free(&o->q);
		o->off = 0;
		return;
	}
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
			break;
		else
			o->broken = true;
	}
	consume(&o->q, &o->off);
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
