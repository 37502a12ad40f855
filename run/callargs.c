/* run/callargs (callargs.h): q7-run's words for a call's arguments. */
#include "callargs.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "support.h"

int q7_run_parse_shape(const char *s, struct q7_tensor_desc *d, struct q7_err *err)
{
	d->ndim = 0;
	const char *p = s;
	while (*p == '(' || *p == '[' || *p == ' ')
		p++;
	while (*p && *p != ')' && *p != ']') {
		char *end;
		errno = 0;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long v = strtoul(p, &end, 10);
		if (errno || end == p)
			goto bad;
		if (d->ndim == Q7_MAX_DIMS) {
			q7_err_set(err, NULL, "--out-shape=%s: more than %d dimensions", s, Q7_MAX_DIMS);
			return -1;
		}
		if (v > Q7_MAX_DIM_SIZE) {
			q7_err_set(err, NULL, "--out-shape=%s: %lu is over %u", s, v, Q7_MAX_DIM_SIZE);
			return -1;
		}
		d->sizes[d->ndim++] = (uint32_t)v;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',' || *p == 'x')
			p++;
		while (*p == ' ')
			p++;
	}
	return 0;
bad:
	q7_err_set(err, NULL, "--out-shape=%s: expected sizes like 2,3", s);
	return -1;
}

void q7_run_set_contiguous(struct q7_tensor_desc *d)
{
	/* unsigned 64: the product runs past int32 (and 8 dims of 65535 past
	 * 64 bits) before q7_run_main rejects more than 2^31-1 elements */
	uint64_t s = 1;
	for (unsigned i = d->ndim; i-- > 0;) {
		d->strides[i] = (int32_t)s;
		s *= d->sizes[i];
	}
}

bool q7_run_parse_literal(const char *s, struct q7_arg *a)
{
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
		a->kind = Q7_ARG_BOOL;
		a->u.i = s[0] == 't';
		return true;
	}
	char *end;
	errno = 0;
	long long i = strtoll(s, &end, 0);
	if (*s && !*end) {
		if (errno) /* out of 64 bits: not a literal q7 can pass */
			return false;
		a->kind = Q7_ARG_INT;
		a->u.i = i;
		return true;
	}
	errno = 0;
	double d = strtod(s, &end);
	if (*s && !*end && (s[0] != '0' || s[1] != 'x') && strpbrk(s, "(") == NULL &&
	    (!isnan(d) || strcmp(s, "nan") == 0)) {
		a->kind = Q7_ARG_FLOAT;
		memcpy(&a->u.f_bits, &d, sizeof d);
		return true;
	}
	return false;
}

void q7_run_tensor_arg(struct q7_arg *a, const struct npy_array *t)
{
	a->kind = Q7_ARG_TENSOR;
	a->u.tensor.dtype = t->dtype;
	a->u.tensor.ndim = t->ndim;
	memcpy(a->u.tensor.sizes, t->sizes, sizeof t->sizes);
	q7_run_set_contiguous(&a->u.tensor);
	a->u.tensor.data = (uint64_t)(uintptr_t)t->data;
}
