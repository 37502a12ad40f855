/* The NPY reader and writer (see npy.h). The header is a Python dict
 * literal; only the three keys NumPy writes are understood, in any order,
 * and anything else is an error rather than a guess. */
#include "bytes.h"
#include "npy.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tempfile.h"

static const struct {
	const char *names[4];
	enum q7_dtype dtype;
	const char *descr; /* NumPy's, less the byte order; NULL: none */
} dtypes[] = {
	{{"uint8", "byte", "u1", NULL}, Q7_DTYPE_UINT8, "u1"},
	{{"int8", "char", "i1", NULL}, Q7_DTYPE_INT8, "i1"},
	{{"int16", "short", "i2", NULL}, Q7_DTYPE_INT16, "i2"},
	{{"int32", "int", "i4", NULL}, Q7_DTYPE_INT32, "i4"},
	{{"int64", "long", "i8", NULL}, Q7_DTYPE_INT64, "i8"},
	{{"float16", "half", "f2", NULL}, Q7_DTYPE_FLOAT16, "f2"},
	{{"float32", "float", "f4", NULL}, Q7_DTYPE_FLOAT32, "f4"},
	{{"float64", "double", "f8", NULL}, Q7_DTYPE_FLOAT64, "f8"},
	{{"bool", "b1", NULL, NULL}, Q7_DTYPE_BOOL, "b1"},
	{{"bfloat16", "bf16", NULL, NULL}, Q7_DTYPE_BFLOAT16, NULL},
};
#define NDTYPES (sizeof dtypes / sizeof dtypes[0])

int q7_dtype_from_name(const char *name)
{
	for (size_t i = 0; i < NDTYPES; i++)
		for (size_t k = 0; k < 4 && dtypes[i].names[k]; k++)
			if (strcmp(dtypes[i].names[k], name) == 0)
				return (int)dtypes[i].dtype;
	return -1;
}

const char *q7_dtype_to_name(enum q7_dtype t)
{
	for (size_t i = 0; i < NDTYPES; i++)
		if (dtypes[i].dtype == t)
			return dtypes[i].names[0];
	return "unknown";
}

void npy_free(struct npy_array *a)
{
	free(a->data);
	a->data = NULL;
}

/* A tiny reader for the header's dict literal, over its text (a
 * NUL-terminated copy): each function skips the blanks before what it
 * reads, and moves *p past it only when it was there. */
static bool eat(const char **p, const char *w)
{
	const char *s = *p + strspn(*p, " \t\n\r");
	size_t n = strlen(w);
	if (strncmp(s, w, n) != 0)
		return false;
	*p = s + n;
	return true;
}

/* A quoted string (no escapes: NumPy never writes any here). */
static bool read_str(const char **p, char *out, size_t size)
{
	const char *s = *p + strspn(*p, " \t\n\r");
	const char stop[] = {*s, '\\', 0};
	if (*s != '\'' && *s != '"')
		return false;
	size_t n = strcspn(s + 1, stop);
	if (s[1 + n] != *s || n >= size)
		return false;
	memcpy(out, s + 1, n);
	out[n] = 0;
	*p = s + n + 2;
	return true;
}

static bool read_shape(const char **p, struct npy_array *a, const char **why)
{
	*why = "the shape is not a tuple of integers";
	if (!eat(p, "(")) {
		*why = "the shape is not a tuple";
		return false;
	}
	for (a->ndim = 0; !eat(p, ")");) {
		const char *s = *p + strspn(*p, " \t\n\r");
		char *end;
		if (*s < '0' || *s > '9')
			return false;
		unsigned long long v = strtoull(s, &end, 10);
		if (a->ndim == Q7_MAX_DIMS) {
			*why = "the shape has more than 8 dimensions (q7's limit)";
			return false;
		}
		if (v > Q7_MAX_DIM_SIZE) {
			*why = "a dimension is over 2^31-1 (q7's limit: the call frame's strides are "
			       "32-bit)";
			return false;
		}
		a->sizes[a->ndim++] = (uint32_t)v;
		*p = end;
		if (!eat(p, ","))
			return eat(p, ")");
	}
	return true;
}

/* descr "<f4" -> dtype and byte order. */
static bool decode_descr(const char *d, enum q7_dtype *t, bool *swap, const char **why)
{
	char order = d[0];
	if (order != '<' && order != '>' && order != '|' && order != '=') {
		*why = "unsupported dtype (not a simple numeric type)";
		return false;
	}
	for (size_t i = 0; i < NDTYPES; i++) {
		if (dtypes[i].descr && strcmp(d + 1, dtypes[i].descr) == 0) {
			*t = dtypes[i].dtype;
			*swap = order == '>' && q7_dtype_size(dtypes[i].dtype) > 1;
			return true;
		}
	}
	*why = "unsupported dtype";
	return false;
}

static void byteswap(unsigned char *p, size_t n, size_t esize)
{
	for (size_t i = 0; i < n; i++, p += esize)
		for (size_t k = 0; k < esize / 2; k++) {
			unsigned char t = p[k];
			p[k] = p[esize - 1 - k];
			p[esize - 1 - k] = t;
		}
}

/* Fortran order -> C order: element k of C order, its index's first
 * dimension varying fastest in src. */
static void *to_c_order(const unsigned char *src, const struct npy_array *a, size_t esize)
{
	unsigned char *dst = q7_xmalloc(a->numel * esize + 1);
	for (size_t k = 0; k < a->numel; k++) {
		size_t off = 0, rest = k, step = a->numel;
		for (unsigned d = a->ndim; d-- > 0;) {
			step /= a->sizes[d]; /* the sizes before d */
			off += rest % a->sizes[d] * step;
			rest /= a->sizes[d];
		}
		memcpy(dst + k * esize, src + off * esize, esize);
	}
	return dst;
}

/* The preamble: magic, version, and where the header text lies. */
static int read_preamble(const unsigned char *buf, size_t len, const char *name, size_t *hstart,
                         size_t *hlen, struct q7_err *err)
{
	if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
		q7_err_set(err, name, "not a .npy file (bad magic)");
		return -1;
	}
	unsigned major = buf[6];
	if (major == 1) {
		*hlen = q7_le16(buf + 8);
		*hstart = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12) {
			q7_err_set(err, name, "damaged: truncated header");
			return -1;
		}
		*hlen = q7_le32(buf + 8);
		*hstart = 12;
	} else {
		q7_err_set(err, name, "unsupported .npy version %u.%u", major, buf[7]);
		return -1;
	}
	if (*hlen > len - *hstart) {
		q7_err_set(err, name, "damaged: the header runs past the end of the file");
		return -1;
	}
	return 0;
}

/* What the header dict says of the data. */
struct npy_header {
	enum q7_dtype dtype;
	bool fortran, swap;
};

/* One key of the header dict and its value: 1, 2 or 4 (which key), or 0
 * with err set. */
static unsigned read_entry(const char **p, const char *name, struct npy_array *a,
                           struct npy_header *h, struct q7_err *err)
{
	char key[32], val[32];
	const char *why;
	if (!read_str(p, key, sizeof key) || !eat(p, ":")) {
		q7_err_set(err, name, "damaged: cannot read the header");
	} else if (strcmp(key, "descr") == 0) {
		if (!read_str(p, val, sizeof val))
			q7_err_set(err, name, "unsupported dtype (not a simple numeric type)");
		else if (!decode_descr(val, &h->dtype, &h->swap, &why))
			q7_err_set(err, name,
			           "%s '%s' (q7 tensors are bool, uint8, int8/16/32/64, float16/32/64)",
			           why, val);
		else
			return 1;
	} else if (strcmp(key, "fortran_order") == 0) {
		h->fortran = eat(p, "True");
		if (h->fortran || eat(p, "False"))
			return 2;
		q7_err_set(err, name, "damaged: fortran_order is not True or False");
	} else if (strcmp(key, "shape") == 0) {
		if (read_shape(p, a, &why))
			return 4;
		q7_err_set(err, name, "%s", why);
	} else {
		q7_err_set(err, name, "damaged: unknown key in the header '%s'", key);
	}
	return 0;
}

/* The header dict: descr, fortran_order and shape, each once or more. */
static int read_header(const char *text, const char *name, struct npy_array *a,
                       struct npy_header *h, struct q7_err *err)
{
	const char *p = text;
	unsigned seen = 0;
	if (!eat(&p, "{")) {
		q7_err_set(err, name, "damaged: the header is not a dict");
		return -1;
	}
	while (!eat(&p, "}")) {
		unsigned one = read_entry(&p, name, a, h, err);
		if (!one)
			return -1;
		seen |= one;
		if (eat(&p, "}"))
			break;
		if (!eat(&p, ",")) {
			q7_err_set(err, name, "damaged: cannot read the header");
			return -1;
		}
	}
	if (seen != 7) {
		q7_err_set(err, name, "damaged: the header lacks descr, fortran_order or shape");
		return -1;
	}
	return 0;
}

/* The data (avail bytes at data) into a->data, in C order, little-endian. */
static int read_data(const unsigned char *data, size_t avail, const char *name,
                     const struct npy_header *h, struct npy_array *a, struct q7_err *err)
{
	a->dtype = h->dtype;
	size_t esize = q7_dtype_size(h->dtype);
	a->numel = 1;
	for (unsigned d = 0; d < a->ndim; d++) {
		/* 8 dims of 65535 overflow 64 bits: stop at what the file holds */
		if (a->sizes[d] && a->numel > avail / esize / a->sizes[d]) {
			q7_err_set(err, name, "damaged: the data is shorter than the shape says");
			return -1;
		}
		a->numel *= a->sizes[d];
	}
	if (a->numel > SIZE_MAX / esize || avail < a->numel * esize) {
		q7_err_set(err, name,
		           "damaged: the data is shorter than the shape says (%zu bytes, %zu expected)",
		           avail, a->numel * esize);
		return -1;
	}
	if (h->fortran && a->ndim > 1) {
		a->data = to_c_order(data, a, esize);
	} else {
		a->data = q7_xmalloc(a->numel * esize + 1);
		memcpy(a->data, data, a->numel * esize);
	}
	if (h->swap)
		byteswap(a->data, a->numel, esize);
	if (h->dtype == Q7_DTYPE_BOOL) {
		unsigned char *b = a->data;
		for (size_t i = 0; i < a->numel; i++)
			if (b[i] > 1) {
				q7_err_set(err, name, "damaged: a bool element is neither 0 nor 1");
				npy_free(a);
				return -1;
			}
	}
	return 0;
}

int npy_read(const char *path, struct npy_array *a, struct q7_err *err)
{
	memset(a, 0, sizeof *a);
	size_t len = 0, hstart, hlen;
	const char *why;
	unsigned char *buf = (unsigned char *)q7_read_regular(path, Q7_READ_NPY_MAX, &len, &why);
	struct npy_header h = {.dtype = Q7_DTYPE_FLOAT32};
	if (!buf) {
		q7_err_set(err, path, "cannot read: %s", why);
		return -1;
	}
	int rc = read_preamble(buf, len, path, &hstart, &hlen, err);
	if (rc == 0) {
		char *text = q7_xstrndup((const char *)buf + hstart, hlen);
		rc = read_header(text, path, a, &h, err);
		free(text);
	}
	if (rc == 0)
		rc = read_data(buf + hstart + hlen, len - hstart - hlen, path, &h, a, err);
	free(buf);
	return rc;
}

int npy_write(const char *path, enum q7_dtype dtype, unsigned ndim, const uint32_t *sizes,
              const void *data, struct q7_err *err)
{
	size_t numel = 1;
	for (unsigned d = 0; d < ndim; d++)
		numel *= sizes[d];
	enum q7_dtype file_type = dtype == Q7_DTYPE_BFLOAT16 ? Q7_DTYPE_FLOAT32 : dtype;
	char descr[8] = "";
	for (size_t i = 0; i < NDTYPES; i++)
		if (dtypes[i].dtype == file_type)
			snprintf(descr, sizeof descr, "%c%s", q7_dtype_size(dtypes[i].dtype) == 1 ? '|' : '<',
			         dtypes[i].descr);
	if (!descr[0]) {
		q7_err_set(err, path, "cannot write dtype %u", (unsigned)dtype);
		return -1;
	}
	struct q7_strbuf h = {0};
	q7_sb_addf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	for (unsigned d = 0; d < ndim; d++)
		q7_sb_addf(&h, "%s%u", d ? ", " : "", sizes[d]);
	q7_sb_add(&h, ndim == 1 ? ",), }" : "), }");
	while ((10 + h.len + 1) % 64 != 0) /* NumPy aligns the data to 64 */
		q7_sb_addc(&h, ' ');
	q7_sb_addc(&h, '\n');

	struct q7_outfile o;
	if (q7_outfile_open(&o, path) != 0) {
		q7_err_set(err, path, "cannot create: %s", strerror(errno));
		q7_sb_free(&h);
		return -1;
	}
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
	                         (unsigned char)(h.len & 0xff), (unsigned char)(h.len >> 8)};
	bool ok = fwrite(pre, 1, sizeof pre, o.f) == sizeof pre && fwrite(h.s, 1, h.len, o.f) == h.len;
	if (dtype == Q7_DTYPE_BFLOAT16) {
		const uint16_t *src = data;
		for (size_t i = 0; ok && i < numel; i++) {
			uint32_t f32 = (uint32_t)src[i] << 16; /* bfloat16: a float32's high half */
			ok = fwrite(&f32, sizeof f32, 1, o.f) == 1;
		}
	} else if (ok && numel) {
		ok = fwrite(data, q7_dtype_size(dtype), numel, o.f) == numel;
	}
	q7_sb_free(&h);
	if (!ok || q7_outfile_commit(&o, 0644) != 0) {
		q7_err_set(err, path, "cannot write: %s", strerror(errno));
		q7_outfile_abort(&o);
		return -1;
	}
	return 0;
}
