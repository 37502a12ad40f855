/* The customop_* marshalling the generated wrapper calls: arguments come
 * from the frame in order (already checked against the op's schema's types
 * by q7_entry; the width of an int here), the result goes back through
 * customop_return_tensor. */
#include <string.h>

#include "rt.h"

void customop_setup(bool reset)
{
	(void)reset;
	q7rt.next_arg = 0;
	q7rt.ret = nullptr;
	q7rt.returned = false;
}

static const q7_arg *next_arg(const char *want)
{
	q7_frame *f = q7rt.frame;
	if (!f || q7rt.next_arg >= f->nargs)
		q7rt_fail_status(Q7_STATUS_BAD_ARGS, "the wrapper asked for %s argument %u of %u", want,
		                 q7rt.next_arg + 1, f ? f->nargs : 0);
	return &f->args[q7rt.next_arg++];
}

static void wrong(const q7_arg *a, const char *want)
{
	q7rt_fail_status(Q7_STATUS_BAD_ARGS, "argument %u: the wrapper expected %s, the frame has kind %u",
	                 q7rt.next_arg, want, a->kind);
}

static double as_double(const q7_arg *a, const char *want)
{
	if (a->kind == Q7_ARG_FLOAT) {
		double d;
		memcpy(&d, &a->u.f_bits, sizeof d);
		return d;
	}
	if (a->kind == Q7_ARG_INT)
		return (double)a->u.i;
	wrong(a, want);
	return 0;
}

static int64_t as_int(const q7_arg *a, const char *want)
{
	if (a->kind != Q7_ARG_INT && a->kind != Q7_ARG_BOOL)
		wrong(a, want);
	return a->u.i;
}

at::Tensor customop_next_tensor()
{
	const q7_arg *a = next_arg("a tensor");
	if (a->kind != Q7_ARG_TENSOR)
		wrong(a, "a tensor");
	return at::Tensor(q7rt_wrap(&a->u.tensor));
}

at::Scalar customop_next_scalar()
{
	const q7_arg *a = next_arg("a Scalar");
	switch (a->kind) {
	case Q7_ARG_INT: return at::Scalar((long long)a->u.i);
	case Q7_ARG_BOOL: return at::Scalar(a->u.i != 0);
	case Q7_ARG_FLOAT: return at::Scalar(as_double(a, "a Scalar"));
	default: wrong(a, "a Scalar");
	}
	return at::Scalar();
}

/* The schema says "int" for int and long long alike: the range of an int
 * is checked here, where the wrapper says which it is. */
int customop_next_int()
{
	int64_t v = as_int(next_arg("an int"), "an int");
	if (v < INT32_MIN || v > INT32_MAX) {
		char what[64];
		q7rt_arg_label(q7rt.next_arg - 1, what, sizeof what);
		q7rt_fail_status(Q7_STATUS_BAD_ARGS, "%s: %lld does not fit in an int", what,
		                 (long long)v);
	}
	return (int)v;
}

long long customop_next_longlong() { return (long long)as_int(next_arg("a long long"), "a long long"); }

float customop_next_float() { return (float)as_double(next_arg("a float"), "a float"); }

double customop_next_double() { return as_double(next_arg("a double"), "a double"); }

bool customop_next_bool() { return as_int(next_arg("a bool"), "a bool") != 0; }

void customop_return_tensor(const at::Tensor &t)
{
	q7rt.ret = t.unsafeGetTensorImpl();
	q7rt.returned = true;
}

void customop_cleanup()
{
	q7rt.next_arg = 0;
}
