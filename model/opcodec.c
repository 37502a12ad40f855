/* model/opcodec: the op record, encoded and decoded (opcodec.h). Its
 * layout (version 3; versions 1 and 2 are still read) is docs/packer.md's
 * "Payload, version 3", which also says how a version 1 reader refuses
 * version 2. The decoder trusts nothing (opcodec.h says what it checks). */
#include "bytes.h"
#include "opcodec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC "Q7OP"
#define REC_VERSION 3
#define REC_VERSION_MIN 1
#define REC_HEADER 20
#define REC_MAX_STR 65536u
#define REC_MAX_PARAMS 4096u

static void put_str(struct q7_strbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > REC_MAX_STR)
		n = REC_MAX_STR; /* a 64 KiB name is a bug upstream; keep the file sane */
	q7_sb_add_le32(b, (uint32_t)n);
	q7_sb_addn(b, s ? s : "", n);
}

static void encode_op(struct q7_strbuf *b, const struct q7_op *op)
{
	size_t start = b->len;
	q7_sb_add_le32(b, 0); /* length, patched below */
	put_str(b, op->name);
	put_str(b, op->qualname);
	put_str(b, op->ret_ctype);
	q7_sb_addc(b, (char)op->ret);
	put_str(b, op->ret_name);
	q7_sb_add_le32(b, op->stack_size);
	q7_sb_addc(b, op->defined ? 1 : 0);
	put_str(b, op->file);
	q7_sb_add_le32(b, op->line);
	q7_sb_add_le32(b, op->col);
	q7_sb_add_le32(b, (uint32_t)op->nparams);
	for (size_t i = 0; i < op->nparams; i++) {
		q7_sb_addc(b, (char)op->params[i].kind);
		put_str(b, op->params[i].name);
		put_str(b, op->params[i].ctype);
	}
	q7_sb_addc(b, op->by_name_only ? 1 : 0);
	put_str(b, op->ns);
	q7_put_le32(b->s + start, (uint32_t)(b->len - start - 4));
}

void q7_opcodec_put(struct q7_strbuf *b, const struct q7_op_table *ops)
{
	size_t start = b->len;
	q7_sb_add(b, REC_MAGIC);
	q7_sb_addc(b, REC_VERSION);
	q7_sb_addc(b, 0);
	q7_sb_addc(b, REC_HEADER);
	q7_sb_addc(b, 0);
	q7_sb_add_le32(b, (uint32_t)ops->n);
	q7_sb_add_le32(b, 0); /* body length and checksum, patched below */
	q7_sb_add_le32(b, 0);
	for (size_t i = 0; i < ops->n; i++)
		encode_op(b, &ops->ops[i]);
	size_t body = start + REC_HEADER, blen = b->len - body;
	q7_put_le32(b->s + start + 12, (uint32_t)blen);
	q7_put_le32(b->s + start + 16, q7_fnv1a32(b->s + body, blen));
}

/* A bounded reader: every get fails once anything is short. */
struct rd {
	const unsigned char *p, *end;
	const char *why;
};

static uint32_t get_u32(struct rd *r)
{
	if (r->why)
		return 0;
	if (r->end - r->p < 4) {
		r->why = "truncated";
		return 0;
	}
	uint32_t v = q7_le32(r->p);
	r->p += 4;
	return v;
}

static unsigned get_u8(struct rd *r)
{
	if (r->why)
		return 0;
	if (r->p == r->end) {
		r->why = "truncated";
		return 0;
	}
	return *r->p++;
}

static char *get_str(struct rd *r)
{
	uint32_t n = get_u32(r);
	if (r->why)
		return q7_xstrdup("");
	if (n > REC_MAX_STR || (size_t)(r->end - r->p) < n) {
		r->why = "string length out of range";
		return q7_xstrdup("");
	}
	if (memchr(r->p, 0, n)) {
		r->why = "NUL inside a string";
		return q7_xstrdup("");
	}
	char *s = q7_xstrndup((const char *)r->p, n);
	r->p += n;
	return s;
}

static enum q7_kind get_kind(struct rd *r)
{
	unsigned k = get_u8(r);
	if (k >= Q7_KIND_END && !r->why)
		r->why = "unknown parameter kind";
	return r->why ? Q7_KIND_INVALID : (enum q7_kind)k;
}

static void decode_op(struct rd *r, unsigned version, struct q7_op *op)
{
	uint32_t len = get_u32(r);
	if (r->why)
		return;
	if ((size_t)(r->end - r->p) < len) {
		r->why = "op length past the end";
		return;
	}
	struct rd in = {r->p, r->p + len, NULL};
	op->name = get_str(&in);
	op->qualname = get_str(&in);
	op->ret_ctype = get_str(&in);
	op->ret = get_kind(&in);
	op->ret_name = get_str(&in);
	op->stack_size = get_u32(&in);
	unsigned def = get_u8(&in);
	if (def > 1 && !in.why)
		in.why = "bad 'defined' flag";
	op->defined = def == 1;
	op->file = get_str(&in);
	op->line = get_u32(&in);
	op->col = get_u32(&in);
	uint32_t np = get_u32(&in);
	/* Each parameter takes at least 9 bytes; refuse counts the op cannot
	 * hold before allocating for them. */
	if (!in.why && (np > REC_MAX_PARAMS || np > (size_t)(in.end - in.p) / 9))
		in.why = "parameter count out of range";
	if (!in.why) {
		op->params = q7_xcalloc(np, sizeof *op->params);
		op->nparams = np;
		for (uint32_t i = 0; i < np; i++) {
			op->params[i].kind = get_kind(&in);
			op->params[i].name = get_str(&in);
			op->params[i].ctype = get_str(&in);
		}
	}
	if (version >= 2) {
		unsigned flags = get_u8(&in);
		if (flags > 1 && !in.why)
			in.why = "unknown op flags";
		op->by_name_only = flags & 1;
	}
	op->ns = version >= 3 ? get_str(&in) : q7_xstrdup("");
	if (!in.why && in.p != in.end)
		in.why = "trailing bytes in an op";
	if (!in.why && op->name[0] == '\0')
		in.why = "op without a name";
	r->why = in.why;
	r->p = in.end;
}

/* One record at p (len bytes available), its ops appended to tmp; its
 * size in *used. 0, or -1 with why appended. */
static int decode_one(const unsigned char *p, size_t len, struct q7_op_table *tmp, size_t *used,
                      struct q7_strbuf *why)
{
	if (len < REC_HEADER || memcmp(p, REC_MAGIC, 4) != 0) {
		q7_sb_add(why, "not a q7cc op record (bad magic)");
		return -1;
	}
	unsigned version = q7_le16(p + 4);
	unsigned hsize = q7_le16(p + 6);
	if (version > REC_VERSION) {
		q7_sb_addf(why, "record version %u is newer than this q7cc reads (%d to %d): link "
		                "with the q7cc that compiled the object, or a newer one",
		           version, REC_VERSION_MIN, REC_VERSION);
		return -1;
	}
	if (version < REC_VERSION_MIN) {
		q7_sb_addf(why, "record version %u, this q7cc reads versions %d to %d: rebuild the "
		                "object",
		           version, REC_VERSION_MIN, REC_VERSION);
		return -1;
	}
	if (hsize != REC_HEADER) {
		q7_sb_addf(why, "bad header size %u", hsize);
		return -1;
	}
	uint32_t count = q7_le32(p + 8), blen = q7_le32(p + 12), sum = q7_le32(p + 16);
	if (blen > len - REC_HEADER) {
		q7_sb_add(why, "record longer than its section (truncated)");
		return -1;
	}
	if (sum != q7_fnv1a32(p + REC_HEADER, blen)) {
		q7_sb_add(why, "checksum mismatch (damaged record)");
		return -1;
	}
	/* An op takes at least 4 + 3*4 + 1 + 4 + 4 + 1 + 4 + 12 bytes (and
	 * the flags byte from version 2). */
	if (count > blen / (version >= 2 ? 43 : 42)) {
		q7_sb_addf(why, "op count %u out of range", (unsigned)count);
		return -1;
	}
	struct rd r = {p + REC_HEADER, p + REC_HEADER + blen, NULL};
	size_t first = tmp->n;
	for (uint32_t i = 0; i < count && !r.why; i++)
		decode_op(&r, version, q7_ops_add(tmp));
	if (!r.why && r.p != r.end)
		r.why = "trailing bytes after the last op";
	if (r.why) {
		q7_sb_addf(why, "damaged record: %s", r.why);
		return -1;
	}
	for (size_t i = first; i < tmp->n; i++) {
		struct q7_strbuf bad = {0};
		if (!q7_op_check(&tmp->ops[i], &bad)) {
			q7_sb_addf(why, "damaged record: op %zu: %s", i - first + 1, bad.s);
			q7_sb_free(&bad);
			return -1;
		}
	}
	*used = REC_HEADER + blen;
	return 0;
}

int q7_opcodec_get(const char *buf, size_t len, struct q7_op_table *ops, struct q7_strbuf *why)
{
	const unsigned char *p = (const unsigned char *)buf;
	struct q7_op_table tmp = {0};
	size_t at = 0;
	bool any = false;
	while (at < len) {
		if (any && p[at] == 0) { /* padding a linker put between inputs */
			at++;
			continue;
		}
		size_t used = 0;
		if (decode_one(p + at, len - at, &tmp, &used, why) != 0) {
			q7_ops_free(&tmp);
			return -1;
		}
		at += used;
		any = true;
	}
	if (!any) {
		q7_sb_add(why, "empty section");
		q7_ops_free(&tmp);
		return -1;
	}
	for (size_t i = 0; i < tmp.n; i++)
		*q7_ops_add(ops) = tmp.ops[i]; /* moves: tmp's strings now belong to ops */
	free(tmp.ops);
	return 0;
}
