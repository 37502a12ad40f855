/* packer/record: the .q7.ops payload, encoded and decoded (no ELF here).
 *
 * Version 3, all integers little-endian whatever the object's byte order
 * (the payload is q7cc's, not the target's):
 *
 *   record  header, body
 *   header  "Q7OP" u16 version=3 u16 header_size=20 u32 count
 *           u32 body_length u32 fnv1a(body)
 *   body    count x op
 *   op      u32 length of the rest of the op, then
 *           str name, str qualname, str ret_ctype, u8 ret kind, str ret_name,
 *           u32 stack_size, u8 defined, str file, u32 line, u32 col,
 *           u32 nparams, nparams x { u8 kind, str name, str ctype },
 *           u8 flags (bit 0 by_name_only, the others 0), str ns
 *   str     u32 length, bytes (no NUL, at most 64 KiB)
 *
 * Version 2 is version 3 without ns (the NEURON_LIBRARY namespace), and
 * version 1 is version 2 without the flags byte; both are still read. A
 * version 1 reader refuses version 2 ("record version 2, this q7cc reads
 * version 1"), so an older q7cc never misreads a NEURON_LIBRARY request
 * as a kernel.
 *
 * A section holds one record per object that went into it: `ld -r`
 * concatenates the .q7.ops of its inputs, so the decoder reads records
 * back to back (NUL padding between them is skipped). The decoder trusts
 * nothing: every length is checked against what is
 * left, the checksum catches bytes flipped in transit, and a version it
 * does not know is refused with a message rather than misread. Anyone
 * can write a record with a valid checksum, so every op must also say
 * only what analysis writes (op_ok): names and types from the allow-list
 * of model/cxx.h, the kinds they belong to, and the runtime's limits;
 * codegen pastes these into wrapper.cpp. */
#include "cxx.h"
#include "record.h"
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC "Q7OP"
#define REC_VERSION 3
#define REC_VERSION_MIN 1
#define REC_HEADER 20
#define REC_MAX_STR 65536u
#define REC_MAX_PARAMS 4096u

static void put_u32(struct q7_strbuf *b, uint32_t v)
{
	char c[4] = {(char)(v & 0xff), (char)(v >> 8 & 0xff), (char)(v >> 16 & 0xff),
	             (char)(v >> 24 & 0xff)};
	q7_sb_addn(b, c, 4);
}

static void put_str(struct q7_strbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > REC_MAX_STR)
		n = REC_MAX_STR; /* a 64 KiB name is a bug upstream; keep the file sane */
	put_u32(b, (uint32_t)n);
	q7_sb_addn(b, s ? s : "", n);
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

static void set_u32(char *at, uint32_t v)
{
	at[0] = (char)(v & 0xff);
	at[1] = (char)(v >> 8 & 0xff);
	at[2] = (char)(v >> 16 & 0xff);
	at[3] = (char)(v >> 24 & 0xff);
}

static void encode_op(struct q7_strbuf *b, const struct q7_op *op)
{
	size_t start = b->len;
	put_u32(b, 0); /* length, patched below */
	put_str(b, op->name);
	put_str(b, op->qualname);
	put_str(b, op->ret_ctype);
	q7_sb_addc(b, (char)op->ret);
	put_str(b, op->ret_name);
	put_u32(b, op->stack_size);
	q7_sb_addc(b, op->defined ? 1 : 0);
	put_str(b, op->file);
	put_u32(b, op->line);
	put_u32(b, op->col);
	put_u32(b, (uint32_t)op->nparams);
	for (size_t i = 0; i < op->nparams; i++) {
		q7_sb_addc(b, (char)op->params[i].kind);
		put_str(b, op->params[i].name);
		put_str(b, op->params[i].ctype);
	}
	q7_sb_addc(b, op->by_name_only ? 1 : 0);
	put_str(b, op->ns);
	set_u32(b->s + start, (uint32_t)(b->len - start - 4));
}

char *q7_record_encode(const struct q7_op_table *ops, size_t *len)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, REC_MAGIC);
	q7_sb_addc(&b, REC_VERSION);
	q7_sb_addc(&b, 0);
	q7_sb_addc(&b, REC_HEADER);
	q7_sb_addc(&b, 0);
	put_u32(&b, (uint32_t)ops->n);
	put_u32(&b, 0); /* body length and checksum, patched below */
	put_u32(&b, 0);
	for (size_t i = 0; i < ops->n; i++)
		encode_op(&b, &ops->ops[i]);
	set_u32(b.s + 12, (uint32_t)(b.len - REC_HEADER));
	set_u32(b.s + 16, fnv1a((const unsigned char *)b.s + REC_HEADER, b.len - REC_HEADER));
	*len = b.len;
	return q7_sb_take(&b);
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
	uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
	             (uint32_t)r->p[3] << 24;
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
		op->params = q7_xcalloc(np ? np : 1, sizeof *op->params);
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

static bool ident_or_empty(const char *s)
{
	return !*s || q7_cxx_ident(s, strlen(s));
}

/* Text that is printed in messages, never pasted into code: no control
 * characters, C0, DEL or C1 (U+0080-U+009F in UTF-8: terminals act on
 * them too). A source file may have other bytes (a non-ASCII path); the
 * function a request names is ASCII, as every kernel's is. */
static bool printable(const char *s, bool ascii)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (ascii && *p > 0x7f) ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return false;
	return true;
}

/* What a request's name is to its qualified name: the text after the
 * last ':' (as analysis splits an m.def's "ns::fn"). */
static const char *last_word(const char *q)
{
	const char *colon = strrchr(q, ':');
	return colon ? colon + 1 : q;
}

/* Why field of op is not what analysis writes, appended to why. */
static void bad_field(struct q7_strbuf *why, const char *field, const char *text, const char *rule)
{
	char *q = q7_cxx_quote(text);
	q7_sb_addf(why, "%s '%s' %s", field, q, rule);
	free(q);
}

/* Whether a decoded op says only what analysis writes; else why. */
bool q7_record_op_ok(const struct q7_op *op, struct q7_strbuf *why)
{
	const char *ident = "is not a C++ identifier";
	if (op->by_name_only) {
		if (!*op->name || !printable(op->name, true))
			bad_field(why, "requested name", op->name, "is not printable ASCII");
		else if (!printable(op->qualname, true) ||
		         (*op->qualname && strcmp(op->name, last_word(op->qualname)) != 0))
			bad_field(why, "requested qualified name", op->qualname,
			          "is not printable ASCII ending in the requested name");
		else if (op->ret != Q7_KIND_INVALID || *op->ret_ctype || *op->ret_name || op->defined)
			q7_sb_addf(why, "request '%s' has a result or a definition", op->name);
	} else {
		if (!q7_cxx_ident(op->name, strlen(op->name)) || strlen(op->name) > Q7_OP_NAME_MAX)
			bad_field(why, "kernel name", op->name, "is not a C++ identifier of at most 31 characters");
		else if (*op->qualname && (!q7_cxx_qualname(op->qualname) ||
		                           strcmp(q7_cxx_unqualified(op->qualname), op->name) != 0))
			bad_field(why, "qualified name", op->qualname, "is not a C++ name ending in the kernel's");
		else if (op->ret != Q7_KIND_TENSOR || !q7_cxx_result_type(op->ret_ctype))
			bad_field(why, "result type", op->ret_ctype, "is not a Tensor");
		else if (!ident_or_empty(op->ret_name))
			bad_field(why, "result name", op->ret_name, ident);
	}
	if (!why->len && !printable(op->file, false))
		bad_field(why, "source file", op->file, "holds control characters");
	if (why->len)
		return false;
	if (!ident_or_empty(op->ns)) {
		bad_field(why, "namespace", op->ns, ident);
		return false;
	}
	if (op->stack_size > Q7_OP_STACK_MAX) {
		q7_sb_addf(why, "stack size %u is over %u", op->stack_size, Q7_OP_STACK_MAX);
		return false;
	}
	for (size_t i = 0; i < op->nparams; i++) {
		const struct q7_param *p = &op->params[i];
		char *name = q7_xasprintf("parameter %zu name", i + 1);
		char *type = q7_xasprintf("parameter %zu type", i + 1);
		char *rule = q7_xasprintf("is not a type q7cc records for kind '%s'", q7_kind_name(p->kind));
		if (!ident_or_empty(p->name))
			bad_field(why, name, p->name, ident);
		else if (op->by_name_only && (p->kind != Q7_KIND_INVALID || *p->ctype))
			q7_sb_addf(why, "request '%s' has a parameter type", op->name);
		else if (!op->by_name_only && !q7_cxx_param_type(p->kind, p->ctype, 0))
			bad_field(why, type, p->ctype, rule);
		free(name);
		free(type);
		free(rule);
		if (why->len)
			return false;
	}
	return true;
}

/* One record at p (len bytes available); its size in *used. */
static int decode_one(const unsigned char *p, size_t len, const char *what,
                      struct q7_op_table *tmp, size_t *used)
{
	if (len < REC_HEADER || memcmp(p, REC_MAGIC, 4) != 0) {
		q7_error("%s: %s: not a q7cc op record (bad magic)", what, Q7_RECORD_SECTION);
		return -1;
	}
	unsigned version = p[4] | (unsigned)p[5] << 8;
	unsigned hsize = p[6] | (unsigned)p[7] << 8;
	if (version > REC_VERSION) {
		q7_error("%s: %s: record version %u is newer than this q7cc reads (%d to %d): link "
		         "with the q7cc that compiled the object, or a newer one",
		         what, Q7_RECORD_SECTION, version, REC_VERSION_MIN, REC_VERSION);
		return -1;
	}
	if (version < REC_VERSION_MIN) {
		q7_error("%s: %s: record version %u, this q7cc reads versions %d to %d: rebuild the "
		         "object", what, Q7_RECORD_SECTION, version, REC_VERSION_MIN, REC_VERSION);
		return -1;
	}
	if (hsize != REC_HEADER) {
		q7_error("%s: %s: bad header size %u", what, Q7_RECORD_SECTION, hsize);
		return -1;
	}
	struct rd h = {p + 8, p + REC_HEADER, NULL};
	uint32_t count = get_u32(&h), blen = get_u32(&h), sum = get_u32(&h);
	if (blen > len - REC_HEADER) {
		q7_error("%s: %s: record longer than its section (truncated)", what, Q7_RECORD_SECTION);
		return -1;
	}
	if (sum != fnv1a(p + REC_HEADER, blen)) {
		q7_error("%s: %s: checksum mismatch (damaged record)", what, Q7_RECORD_SECTION);
		return -1;
	}
	/* An op takes at least 4 + 3*4 + 1 + 4 + 4 + 1 + 4 + 12 bytes (and
	 * the flags byte from version 2). */
	if (count > blen / (version >= 2 ? 43 : 42)) {
		q7_error("%s: %s: op count %u out of range", what, Q7_RECORD_SECTION, (unsigned)count);
		return -1;
	}
	struct rd r = {p + REC_HEADER, p + REC_HEADER + blen, NULL};
	size_t first = tmp->n;
	for (uint32_t i = 0; i < count && !r.why; i++)
		decode_op(&r, version, q7_ops_add(tmp));
	if (!r.why && r.p != r.end)
		r.why = "trailing bytes after the last op";
	if (r.why) {
		q7_error("%s: %s: damaged record: %s", what, Q7_RECORD_SECTION, r.why);
		return -1;
	}
	for (size_t i = first; i < tmp->n; i++) {
		struct q7_strbuf why = {0};
		if (!q7_record_op_ok(&tmp->ops[i], &why)) {
			q7_error("%s: %s: damaged record: op %zu: %s", what, Q7_RECORD_SECTION,
			         i - first + 1, why.s);
			q7_sb_free(&why);
			return -1;
		}
	}
	*used = REC_HEADER + blen;
	return 0;
}

int q7_record_decode(const char *buf, size_t len, const char *what, struct q7_op_table *ops)
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
		if (decode_one(p + at, len - at, what, &tmp, &used) != 0) {
			q7_ops_free(&tmp);
			return -1;
		}
		at += used;
		any = true;
	}
	if (!any) {
		q7_error("%s: %s: empty section", what, Q7_RECORD_SECTION);
		return -1;
	}
	for (size_t i = 0; i < tmp.n; i++)
		*q7_ops_add(ops) = tmp.ops[i]; /* moves: tmp's strings now belong to ops */
	free(tmp.ops);
	return 0;
}
