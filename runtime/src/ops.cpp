/* The tensor operations (q7rt_op, behind <q7/ops.h>): the dtype rules
 * (docs/runtime.md, "Tensor operations"), shape checks and the elementwise
 * loop, which walks all operands by index through their strides, computes
 * in int64, float or double (elem.h) and rounds once into the result. */
#include <string.h>

#include "elem.h"
#include "fpbits.h"
#include "math/q7math.h"
#include "rt.h"

using namespace q7elem;

namespace {

/* What an op takes and gives. */
enum kind { UNARY_FLOAT, UNARY_SAME, BITWISE_NOT, ARITH, DIV, POW, BITWISE, CLAMP };

struct op_info {
	const char *name;
	kind k;
};

const op_info ops[] = {
	{"abs", UNARY_SAME},       {"ceil", UNARY_SAME},      {"floor", UNARY_SAME},
	{"sin", UNARY_FLOAT},      {"cos", UNARY_FLOAT},      {"tan", UNARY_FLOAT},
	{"log", UNARY_FLOAT},      {"log2", UNARY_FLOAT},     {"log10", UNARY_FLOAT},
	{"exp", UNARY_FLOAT},      {"bitwise_not", BITWISE_NOT}, {"add", ARITH},
	{"sub", ARITH},            {"mul", ARITH},            {"div", DIV},
	{"pow", POW},              {"bitwise_and", BITWISE},  {"bitwise_or", BITWISE},
	{"clamp", CLAMP},
};

/* How the loop computes. */
enum calc { C_INT, C_F32, C_F64 };

struct num {
	int64_t i;
	float f;
	double d;
};

int category(int dt) { return dt == Q7_DTYPE_BOOL ? 0 : is_float(dt) ? 2 : 1; }

int promote(int a, int b)
{
	if (a == b)
		return a;
	if (a == Q7_DTYPE_BOOL || b == Q7_DTYPE_BOOL)
		return a == Q7_DTYPE_BOOL ? b : a;
	bool fa = is_float(a), fb = is_float(b);
	if (fa != fb)
		return fa ? a : b;
	if (fa) {
		if (a == Q7_DTYPE_FLOAT64 || b == Q7_DTYPE_FLOAT64)
			return Q7_DTYPE_FLOAT64;
		return Q7_DTYPE_FLOAT32; /* float16 with bfloat16, or either with float32 */
	}
	if (a == Q7_DTYPE_UINT8 || b == Q7_DTYPE_UINT8) {
		int other = a == Q7_DTYPE_UINT8 ? b : a;
		return other == Q7_DTYPE_INT8 ? Q7_DTYPE_INT16 : other;
	}
	return q7rt_dtype_size(a) > q7rt_dtype_size(b) ? a : b;
}

int scalar_category(const q7rt_scalar &s)
{
	return s.kind == Q7RT_SCALAR_FLOAT ? 2 : s.kind == Q7RT_SCALAR_INT ? 1 : 0;
}

/* The dtype a tensor and a number give. */
int with_scalar(int dt, const q7rt_scalar &s)
{
	int c = scalar_category(s);
	if (c <= category(dt))
		return dt;
	return c == 2 ? Q7_DTYPE_FLOAT32 : Q7_DTYPE_INT64;
}

const char *dname(int dt) { return q7rt_dtype_name(dt); }

/* "[2, 3]" into buf. */
const char *shape_text(const q7rt_tensor *t, char *buf, size_t size)
{
	size_t n = 0;
	buf[n++] = '[';
	for (int32_t i = 0; i < t->ndim && n + 24 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, i ? ", %lld" : "%lld", (long long)t->sizes[i]);
	snprintf(buf + n, size - n, "]");
	return buf;
}

bool same_shape(const q7rt_tensor *a, const q7rt_tensor *b)
{
	if (a->ndim != b->ndim)
		return false;
	for (int32_t i = 0; i < a->ndim; i++)
		if (a->sizes[i] != b->sizes[i])
			return false;
	return true;
}

/* torch's can_cast: no floating point into an integer or bool, no
 * integer into bool. */
bool can_cast(int from, int to)
{
	return (is_float(to) || !is_float(from)) && (to != Q7_DTYPE_BOOL || from == Q7_DTYPE_BOOL);
}

struct plan {
	int op;
	const char *name;   /* "add" or "add_out", for messages */
	int common;         /* the dtype the op computes in */
	calc how;
	const q7rt_tensor *shape; /* an operand tensor: the shape */
};

/* An operand's value at the current element. */
struct source {
	const char *base; /* tensor data, or nullptr for a number */
	int dtype;
	size_t esize;
	int64_t off; /* element offset */
	num value;   /* the number, converted once */
};

num convert_scalar(const q7rt_scalar &s, calc how)
{
	num v = {0, 0.0f, 0.0};
	double d = s.kind == Q7RT_SCALAR_FLOAT ? s.d : (double)s.i;
	switch (how) {
	case C_INT: v.i = s.kind == Q7RT_SCALAR_FLOAT ? to_i64(s.d) : s.i; break;
	case C_F32: v.f = s.kind == Q7RT_SCALAR_FLOAT ? (float)s.d : (float)s.i; break;
	case C_F64: v.d = d; break;
	}
	return v;
}

void init_source(source *src, const q7rt_operand *o, calc how)
{
	memset(src, 0, sizeof *src);
	if (o->t) {
		src->base = static_cast<const char *>(o->t->data);
		src->dtype = o->t->dtype;
		src->esize = q7rt_dtype_size(o->t->dtype);
	} else {
		src->value = convert_scalar(o->s, how);
	}
}

num load(const source &s, calc how)
{
	if (!s.base)
		return s.value;
	const void *p = s.base + s.off * (int64_t)s.esize;
	num v = {0, 0.0f, 0.0};
	switch (how) {
	case C_INT: v.i = load_i64(p, s.dtype); break;
	case C_F32: v.f = load_f32(p, s.dtype); break;
	case C_F64: v.d = load_f64(p, s.dtype); break;
	}
	return v;
}

/* x^y by squaring, wrapping; a negative y as torch's integer pow: 1 for
 * x = 1, ±1 for x = -1, else 0. */
int64_t powi(int64_t x, int64_t y)
{
	if (y < 0) {
		if (x == 1)
			return 1;
		if (x == -1)
			return (y & 1) ? -1 : 1;
		return 0;
	}
	uint64_t r = 1, b = (uint64_t)x;
	for (uint64_t e = (uint64_t)y; e; e >>= 1) {
		if (e & 1)
			r *= b;
		b *= b;
	}
	return (int64_t)r;
}

int64_t clamp_i(int64_t x, int64_t lo, int64_t hi)
{
	int64_t r = x < lo ? lo : x;
	return r > hi ? hi : r;
}

/* One element of the op; boolean: the op computes in bool. */
num compute(int op, calc how, bool boolean, num a, num b, num c, num d)
{
	num r = {0, 0.0f, 0.0};
	switch (how) {
	case C_INT: {
		uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;
		switch (op) {
		case Q7RT_OP_ABS: r.i = a.i < 0 ? (int64_t)(0 - x) : a.i; break;
		case Q7RT_OP_BITWISE_NOT: r.i = boolean ? !a.i : (int64_t)~x; break;
		case Q7RT_OP_ADD: r.i = (int64_t)(x + (uint64_t)c.i * y); break;
		case Q7RT_OP_SUB: r.i = (int64_t)(x - (uint64_t)c.i * y); break;
		case Q7RT_OP_MUL: r.i = (int64_t)(x * y); break;
		case Q7RT_OP_POW: r.i = powi(a.i, b.i); break;
		case Q7RT_OP_BITWISE_AND: r.i = (int64_t)(x & y); break;
		case Q7RT_OP_BITWISE_OR: r.i = (int64_t)(x | y); break;
		case Q7RT_OP_CLAMP: r.i = clamp_i(a.i, c.i, d.i); break;
		default: r.i = a.i; break; /* ceil, floor of an integer */
		}
		break;
	}
	case C_F32: {
		float x = a.f, y = b.f;
		switch (op) {
		case Q7RT_OP_ABS: r.f = fp_float32(fp_bits32(x) & 0x7fffffffu); break;
		case Q7RT_OP_CEIL: r.f = q7m_ceilf(x); break;
		case Q7RT_OP_FLOOR: r.f = q7m_floorf(x); break;
		case Q7RT_OP_SIN: r.f = q7m_sinf(x); break;
		case Q7RT_OP_COS: r.f = q7m_cosf(x); break;
		case Q7RT_OP_TAN: r.f = q7m_tanf(x); break;
		case Q7RT_OP_LOG: r.f = q7m_logf(x); break;
		case Q7RT_OP_LOG2: r.f = q7m_log2f(x); break;
		case Q7RT_OP_LOG10: r.f = q7m_log10f(x); break;
		case Q7RT_OP_EXP: r.f = q7m_expf(x); break;
		case Q7RT_OP_ADD: r.f = x + c.f * y; break;
		case Q7RT_OP_SUB: r.f = x - c.f * y; break;
		case Q7RT_OP_MUL: r.f = x * y; break;
		/* In binary64, then rounded: the same bits as a binary32 division
		 * (53 >= 2 * 24 + 2), on every target's arithmetic. */
		case Q7RT_OP_DIV: r.f = (float)((double)x / (double)y); break;
		case Q7RT_OP_POW: r.f = q7m_powf(x, y); break;
		case Q7RT_OP_CLAMP:
			r.f = x != x ? x : x < c.f ? c.f : x;
			r.f = r.f > d.f ? d.f : r.f;
			break;
		default: break;
		}
		break;
	}
	case C_F64: {
		double x = a.d, y = b.d;
		switch (op) {
		case Q7RT_OP_ABS: r.d = fp_float64(fp_bits64(x) & 0x7fffffffffffffffull); break;
		case Q7RT_OP_CEIL: r.d = q7m_ceil(x); break;
		case Q7RT_OP_FLOOR: r.d = q7m_floor(x); break;
		case Q7RT_OP_ADD: r.d = x + c.d * y; break;
		case Q7RT_OP_SUB: r.d = x - c.d * y; break;
		case Q7RT_OP_MUL: r.d = x * y; break;
		case Q7RT_OP_DIV: r.d = x / y; break;
		case Q7RT_OP_CLAMP:
			r.d = x != x ? x : x < c.d ? c.d : x;
			r.d = r.d > d.d ? d.d : r.d;
			break;
		default: break;
		}
		break;
	}
	}
	return r;
}

/* The result rounded into the dtype the op computes in, then stored into
 * the result's dtype. */
void put(void *p, int out_dtype, int common, calc how, num v)
{
	switch (how) {
	case C_INT: store_i64(p, out_dtype, wrap(v.i, common)); break;
	case C_F32:
		if (common == Q7_DTYPE_FLOAT16 && out_dtype != common)
			v.f = (float)c10::Half(v.f);
		else if (common == Q7_DTYPE_BFLOAT16 && out_dtype != common)
			v.f = (float)c10::BFloat16(v.f);
		store_f32(p, out_dtype, v.f);
		break;
	case C_F64: store_f64(p, out_dtype, v.d); break;
	}
}

/* The dtype rules of one call: the common dtype and how to compute. */
void plan_dtypes(plan *pl, const q7rt_operand *a, const q7rt_operand *b, const q7rt_scalar *alpha)
{
	const op_info &info = ops[pl->op];
	int da = a->t ? a->t->dtype : -1;
	int common;
	if (!b)
		common = da;
	else if (a->t && b->t)
		common = promote(da, b->t->dtype);
	else if (a->t)
		common = info.k == BITWISE ? da : with_scalar(da, b->s);
	else
		common = info.k == BITWISE ? b->t->dtype : with_scalar(b->t->dtype, a->s);
	if ((info.k == UNARY_FLOAT || info.k == POW) && common == Q7_DTYPE_FLOAT64)
		q7rt_fail("%s: float64 tensors are not supported (float32, float16, bfloat16 and the "
		          "integer dtypes are)",
		          pl->name);
	switch (info.k) {
	case UNARY_FLOAT:
	case DIV:
		if (!is_float(common))
			common = Q7_DTYPE_FLOAT32;
		break;
	case UNARY_SAME:
	case CLAMP:
		if (common == Q7_DTYPE_BOOL)
			q7rt_fail("%s: bool tensors are not supported", pl->name);
		break;
	case BITWISE_NOT:
	case BITWISE:
		if (is_float(common))
			q7rt_fail("%s: the operands must be integers or bool, not %s", pl->name,
			          dname(common));
		break;
	case POW:
		if (!is_float(common) && !b->t && b->s.kind != Q7RT_SCALAR_FLOAT && b->s.i < 0)
			q7rt_fail("%s: integers to negative integer powers are not allowed", pl->name);
		break;
	case ARITH:
		if (pl->op == Q7RT_OP_SUB && common == Q7_DTYPE_BOOL)
			q7rt_fail("%s: bool tensors cannot be subtracted (use bitwise ops)", pl->name);
		if (alpha && alpha->kind == Q7RT_SCALAR_BOOL && common != Q7_DTYPE_BOOL)
			q7rt_fail("%s: a bool alpha needs a bool result, not %s", pl->name, dname(common));
		if (alpha && alpha->kind == Q7RT_SCALAR_FLOAT && !is_float(common))
			q7rt_fail("%s: alpha must not be a floating-point number for %s operands", pl->name,
			          dname(common));
		break;
	}
	pl->common = common;
	pl->how = common == Q7_DTYPE_FLOAT64 ? C_F64 : is_float(common) ? C_F32 : C_INT;
}

/* Shapes: every tensor operand and the result have one shape. */
void check_shapes(plan *pl, const q7rt_operand *a, const q7rt_operand *b, const q7rt_tensor *out)
{
	char x[160], y[160];
	pl->shape = a->t ? a->t : b->t;
	if (a->t && b && b->t && !same_shape(a->t, b->t))
		q7rt_fail("%s: the operands' shapes differ: %s and %s (no broadcasting)", pl->name,
		          shape_text(a->t, x, sizeof x), shape_text(b->t, y, sizeof y));
	if (out && !same_shape(out, pl->shape))
		q7rt_fail("%s: the result has shape %s, the operands %s", pl->name,
		          shape_text(out, x, sizeof x), shape_text(pl->shape, y, sizeof y));
}

} // namespace

extern "C" q7rt_tensor *q7rt_op(int op, q7rt_tensor *out, const q7rt_operand *a,
                                const q7rt_operand *b, const q7rt_scalar *c, const q7rt_scalar *d)
{
	if (op < 0 || op >= (int)(sizeof ops / sizeof ops[0]))
		q7rt_fail("tensor operation %d does not exist", op);
	plan pl;
	char name[32];
	snprintf(name, sizeof name, "%s%s", ops[op].name, out ? "_out" : "");
	pl.op = op;
	pl.name = name;
	if (!a->t && !(b && b->t))
		q7rt_fail("%s: no tensor operand", name);
	check_shapes(&pl, a, b, out);
	plan_dtypes(&pl, a, b, ops[op].k == ARITH ? c : nullptr);
	if (out && !can_cast(pl.common, out->dtype))
		q7rt_fail("%s: cannot write a %s result into a %s tensor", name, dname(pl.common),
		          dname(out->dtype));
	if (!out)
		out = q7rt_tensor_new(pl.shape->sizes, (size_t)pl.shape->ndim, pl.common, -1);

	source sa, sb;
	q7rt_operand none;
	memset(&none, 0, sizeof none);
	init_source(&sa, a, pl.how);
	init_source(&sb, b ? b : &none, pl.how);
	q7rt_scalar one = {Q7RT_SCALAR_INT, 0, 1, 0.0};
	num nc = convert_scalar(c ? *c : one, pl.how);
	num nd = convert_scalar(d ? *d : one, pl.how);
	char *obase = static_cast<char *>(out->data);
	size_t oesize = q7rt_dtype_size(out->dtype);
	int64_t ooff = 0;

	/* Walk the index space, all operands' offsets together. */
	int32_t nd_ = pl.shape->ndim;
	int64_t idx[Q7_MAX_DIMS] = {0};
	int64_t n = q7rt_numel(pl.shape);
	for (int64_t k = 0; k < n; k++) {
		num r = compute(op, pl.how, pl.common == Q7_DTYPE_BOOL, load(sa, pl.how), load(sb, pl.how),
		                nc, nd);
		put(obase + ooff * (int64_t)oesize, out->dtype, pl.common, pl.how, r);
		for (int32_t dim = nd_ - 1; dim >= 0; dim--) {
			int64_t sa_st = a->t ? a->t->strides[dim] : 0;
			int64_t sb_st = b && b->t ? b->t->strides[dim] : 0;
			if (++idx[dim] < pl.shape->sizes[dim]) {
				sa.off += sa_st;
				sb.off += sb_st;
				ooff += out->strides[dim];
				break;
			}
			idx[dim] = 0;
			sa.off -= sa_st * (pl.shape->sizes[dim] - 1);
			sb.off -= sb_st * (pl.shape->sizes[dim] - 1);
			ooff -= out->strides[dim] * (pl.shape->sizes[dim] - 1);
		}
	}
	return out;
}
