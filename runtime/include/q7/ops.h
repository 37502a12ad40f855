/* <q7/ops.h>: the tensor factories and the tensor operations of the
 * reference guide, in namespace at (and torch). Part of <torch/torch.h>.
 * Each operation as op(...) (a new tensor) and op_out(result, ...); their
 * rules: docs/runtime.md, "Tensor operations". */
#ifndef Q7_OPS_H
#define Q7_OPS_H

#include <q7/tensor.h>

namespace at {

namespace q7detail {

inline q7rt_operand operand(const Tensor &t)
{
	q7rt_operand o;
	o.t = t.unsafeGetTensorImpl();
	if (!o.t)
		q7rt_fail("use of an undefined tensor");
	o.s = scalar(Scalar());
	return o;
}

inline q7rt_operand operand(const Scalar &v)
{
	q7rt_operand o;
	o.t = nullptr;
	o.s = scalar(v);
	return o;
}

/* The result tensor of an _out form. */
inline q7rt_tensor *out(Tensor &result)
{
	if (!result.defined())
		q7rt_fail("the result tensor of an _out operation is undefined");
	return result.unsafeGetTensorImpl();
}

/* The operation on a (and b), with the numbers c and d (add's and sub's
 * alpha, clamp's bounds), into result (an _out form) or a new tensor. */
template <class A>
inline q7rt_tensor *call(int op, Tensor *result, const A &a, const Scalar *c = nullptr,
                         const Scalar *d = nullptr)
{
	q7rt_operand x = operand(a);
	q7rt_scalar lo = scalar(c ? *c : Scalar()), hi = scalar(d ? *d : Scalar());
	return q7rt_op(op, result ? out(*result) : nullptr, &x, nullptr, c ? &lo : nullptr,
	               d ? &hi : nullptr);
}

template <class A, class B>
inline q7rt_tensor *call(int op, Tensor *result, const A &a, const B &b, const Scalar *c = nullptr)
{
	q7rt_operand x = operand(a), y = operand(b);
	q7rt_scalar z = scalar(c ? *c : Scalar());
	return q7rt_op(op, result ? out(*result) : nullptr, &x, &y, c ? &z : nullptr, nullptr);
}

template <class... A>
inline Tensor apply(int op, const A &...a)
{
	return Tensor(call(op, nullptr, a...));
}

template <class... A>
inline Tensor &apply_out(int op, Tensor &result, const A &...a)
{
	call(op, &result, a...);
	return result;
}

inline int factory_dtype(TensorOptions o, const char *what)
{
	if (!o.has_dtype())
		q7rt_fail("%s: the options give no dtype (a factory needs one, e.g. torch::kFloat)",
		          what);
	return (int)o.scalar_type();
}

/* A braced list of sizes of another integer type, copied to int64_t. */
template <class I>
struct Sizes {
	int64_t v[Q7_MAX_DIMS + 1];
	size_t n;
	Sizes(std::initializer_list<I> l) : n(l.size())
	{
		if (n > Q7_MAX_DIMS)
			q7rt_fail("a tensor of %u dims (at most %d)", (unsigned)n, Q7_MAX_DIMS);
		size_t k = 0;
		for (const I *p = l.begin(); p != l.end(); p++)
			v[k++] = (int64_t)*p;
	}
	IntArrayRef ref() const { return IntArrayRef(v, n); }
};

} // namespace q7detail

/* ---- factories ---- */

/* name(sizes, options) from an IntArrayRef or a braced list, and
 * name_like(t); fill: the elements' value (-1: left uninitialised). */
#define Q7_FACTORY(name, fill)                                                          \
	inline Tensor name(IntArrayRef size, TensorOptions options)                         \
	{                                                                                   \
		int dt = q7detail::factory_dtype(options, #name);                               \
		return Tensor(q7rt_tensor_new(size.data(), size.size(), dt, fill));             \
	}                                                                                   \
	template <class I>                                                                  \
	inline Tensor name(std::initializer_list<I> size, TensorOptions options)            \
	{                                                                                   \
		return name(q7detail::Sizes<I>(size).ref(), options);                           \
	}                                                                                   \
	inline Tensor name##_like(const Tensor &t) { return name(t.sizes(), t.scalar_type()); }
Q7_FACTORY(empty, -1)
Q7_FACTORY(zeros, 0)
Q7_FACTORY(ones, 1)
#undef Q7_FACTORY
inline Tensor full(IntArrayRef size, const Scalar &fill_value, TensorOptions options)
{
	Tensor t(q7rt_tensor_new(size.data(), size.size(), q7detail::factory_dtype(options, "full"),
	                         -1));
	t.fill_(fill_value);
	return t;
}
template <class I>
inline Tensor full(std::initializer_list<I> size, const Scalar &fill_value, TensorOptions options)
{
	return full(q7detail::Sizes<I>(size).ref(), fill_value, options);
}
inline Tensor eye(int64_t n, int64_t m, TensorOptions options)
{
	return Tensor(q7rt_eye(n, m, q7detail::factory_dtype(options, "eye")));
}
inline Tensor eye(int64_t n, TensorOptions options) { return eye(n, n, options); }

/* ---- operations ---- */

#define Q7_UNARY_OP(name, op)                                                   \
	inline Tensor name(const Tensor &self) { return q7detail::apply(op, self); } \
	inline Tensor &name##_out(Tensor &result, const Tensor &self)               \
	{                                                                           \
		return q7detail::apply_out(op, result, self);                           \
	}
Q7_UNARY_OP(abs, Q7RT_OP_ABS)
Q7_UNARY_OP(ceil, Q7RT_OP_CEIL)
Q7_UNARY_OP(floor, Q7RT_OP_FLOOR)
Q7_UNARY_OP(sin, Q7RT_OP_SIN)
Q7_UNARY_OP(cos, Q7RT_OP_COS)
Q7_UNARY_OP(tan, Q7RT_OP_TAN)
Q7_UNARY_OP(log, Q7RT_OP_LOG)
Q7_UNARY_OP(log2, Q7RT_OP_LOG2)
Q7_UNARY_OP(log10, Q7RT_OP_LOG10)
Q7_UNARY_OP(exp, Q7RT_OP_EXP)
Q7_UNARY_OP(bitwise_not, Q7RT_OP_BITWISE_NOT)
#undef Q7_UNARY_OP
/* The guide also lists bitwise_not(result, self): as bitwise_not_out. */
inline Tensor bitwise_not(Tensor &result, const Tensor &self)
{
	return bitwise_not_out(result, self);
}

/* op(tensor, tensor) and op(tensor, scalar), and their _out forms. */
#define Q7_BINARY_OP(name, op)                                                          \
	inline Tensor name(const Tensor &self, const Tensor &other)                         \
	{                                                                                   \
		return q7detail::apply(op, self, other);                                        \
	}                                                                                   \
	inline Tensor name(const Tensor &self, const Scalar &other)                         \
	{                                                                                   \
		return q7detail::apply(op, self, other);                                        \
	}                                                                                   \
	inline Tensor &name##_out(Tensor &result, const Tensor &self, const Tensor &other)  \
	{                                                                                   \
		return q7detail::apply_out(op, result, self, other);                            \
	}                                                                                   \
	inline Tensor &name##_out(Tensor &result, const Tensor &self, const Scalar &other)  \
	{                                                                                   \
		return q7detail::apply_out(op, result, self, other);                            \
	}
/* ... and op(scalar, tensor) with its _out form. */
#define Q7_SCALAR_FIRST_OP(name, op)                                                    \
	inline Tensor name(const Scalar &self, const Tensor &other)                         \
	{                                                                                   \
		return q7detail::apply(op, self, other);                                        \
	}                                                                                   \
	inline Tensor &name##_out(Tensor &result, const Scalar &self, const Tensor &other)  \
	{                                                                                   \
		return q7detail::apply_out(op, result, self, other);                            \
	}
Q7_BINARY_OP(mul, Q7RT_OP_MUL)
Q7_BINARY_OP(div, Q7RT_OP_DIV)
Q7_BINARY_OP(pow, Q7RT_OP_POW)
Q7_SCALAR_FIRST_OP(pow, Q7RT_OP_POW)
Q7_BINARY_OP(bitwise_and, Q7RT_OP_BITWISE_AND)
Q7_SCALAR_FIRST_OP(bitwise_and, Q7RT_OP_BITWISE_AND)
Q7_BINARY_OP(bitwise_or, Q7RT_OP_BITWISE_OR)
Q7_SCALAR_FIRST_OP(bitwise_or, Q7RT_OP_BITWISE_OR)
#undef Q7_BINARY_OP
#undef Q7_SCALAR_FIRST_OP

/* self + alpha * other and self - alpha * other. */
#define Q7_ALPHA_OP(name, op)                                                           \
	inline Tensor name(const Tensor &self, const Tensor &other, const Scalar &alpha = 1) \
	{                                                                                   \
		return q7detail::apply(op, self, other, &alpha);                                \
	}                                                                                   \
	inline Tensor name(const Tensor &self, const Scalar &other, const Scalar &alpha = 1) \
	{                                                                                   \
		return q7detail::apply(op, self, other, &alpha);                                \
	}                                                                                   \
	inline Tensor &name##_out(Tensor &result, const Tensor &self, const Tensor &other,  \
	                          const Scalar &alpha = 1)                                  \
	{                                                                                   \
		return q7detail::apply_out(op, result, self, other, &alpha);                    \
	}                                                                                   \
	inline Tensor &name##_out(Tensor &result, const Tensor &self, const Scalar &other,  \
	                          const Scalar &alpha = 1)                                  \
	{                                                                                   \
		return q7detail::apply_out(op, result, self, other, &alpha);                    \
	}
Q7_ALPHA_OP(add, Q7RT_OP_ADD)
Q7_ALPHA_OP(sub, Q7RT_OP_SUB)
#undef Q7_ALPHA_OP

/* Every element into [minval, maxval] (maxval where minval > maxval). */
inline Tensor &clamp_out(Tensor &result, const Tensor &self, const Scalar &minval,
                         const Scalar &maxval)
{
	return q7detail::apply_out(Q7RT_OP_CLAMP, result, self, &minval, &maxval);
}
inline Tensor clamp(const Tensor &self, const Scalar &minval, const Scalar &maxval)
{
	return q7detail::apply(Q7RT_OP_CLAMP, self, &minval, &maxval);
}

} // namespace at

#endif
