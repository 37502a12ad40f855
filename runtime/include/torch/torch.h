/* <torch/torch.h>: the kernel-author subset of the torch API that GPSIMD
 * custom-op kernels use (the public Neuron developer guide and samples),
 * implemented over q7cc's open runtime.
 *
 * Tensors are handles: a Tensor points at a descriptor that lives in the
 * call's heap arena, and everything a call allocates is released when the
 * loader's next call resets the arena, so copies are cheap and no
 * reference counting is needed. Misuse (wrong dtype or rank for an
 * accessor, out-of-range copies, an exhausted arena) stops the op with a
 * KERNEL_ERROR and a message instead of corrupting memory.
 *
 * Plain C++14 without the C++ standard library: the gnu profile's
 * xtensa-lx106-elf-g++ ships only picolibc's C headers. */
#ifndef Q7_TORCH_TORCH_H
#define Q7_TORCH_TORCH_H

#include <stddef.h>
#include <stdint.h>

#include <q7/frame.h>

/* GCC and clang build braced lists into std::initializer_list by its
 * two-member layout (pointer, length); provide it where the C++ library
 * does not. */
#if defined(__has_include)
#if __has_include(<initializer_list>)
#define Q7_HAVE_INITIALIZER_LIST 1
#endif
#endif
#if defined(Q7_HAVE_INITIALIZER_LIST)
#include <initializer_list>
#else
namespace std {
template <class E>
class initializer_list {
	const E *array_;
	size_t len_;
	constexpr initializer_list(const E *a, size_t l) : array_(a), len_(l) {}

public:
	typedef E value_type;
	typedef const E &reference;
	typedef const E &const_reference;
	typedef size_t size_type;
	typedef const E *iterator;
	typedef const E *const_iterator;
	constexpr initializer_list() : array_(0), len_(0) {}
	constexpr size_t size() const { return len_; }
	constexpr const E *begin() const { return array_; }
	constexpr const E *end() const { return array_ + len_; }
};
template <class E>
constexpr const E *begin(initializer_list<E> l) { return l.begin(); }
template <class E>
constexpr const E *end(initializer_list<E> l) { return l.end(); }
} // namespace std
#endif

/* The runtime's side (runtime/src), C linkage so that it is one ABI. */
extern "C" {
struct q7rt_tensor {
	int32_t dtype; /* enum q7_dtype, numbered as at::ScalarType */
	int32_t ndim;
	int64_t sizes[Q7_MAX_DIMS];
	int64_t strides[Q7_MAX_DIMS]; /* in elements */
	void *data;
};
/* fill: -1 leaves the data uninitialised, else every element is fill. */
struct q7rt_tensor *q7rt_tensor_new(const int64_t *sizes, size_t ndim, int dtype, int fill);
size_t q7rt_dtype_size(int dtype);    /* 0 for an unknown dtype */
const char *q7rt_dtype_name(int dtype);
/* Stops the running op with KERNEL_ERROR and this message. */
void q7rt_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void q7rt_copy_tcm(const struct q7rt_tensor *t, int dtype, void *tcm, size_t offset, size_t count,
                   int to_tcm);
struct q7rt_tensor *q7rt_dst_tensor(void);
uint32_t q7rt_cpu_id(void);
uint32_t q7rt_cpu_count(void);
void *q7rt_tcm_malloc(size_t bytes);
void q7rt_tcm_free(void *p);
}

namespace c10 {

enum class ScalarType : int8_t {
	Byte = 0,
	Char = 1,
	Short = 2,
	Int = 3,
	Long = 4,
	Half = 5,
	Float = 6,
	Double = 7,
	Bool = 11,
	BFloat16 = 15,
	Undefined = 18,
};

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

inline size_t elementSize(ScalarType t) { return q7rt_dtype_size((int)t); }
inline const char *toString(ScalarType t) { return q7rt_dtype_name((int)t); }

/* 16-bit floats as storage types, converted through float. */
struct BFloat16 {
	uint16_t x;
	BFloat16() : x(0) {}
	BFloat16(float f)
	{
		union { float f; uint32_t u; } v;
		v.f = f;
		if ((v.u & 0x7fffffffu) > 0x7f800000u) {
			x = (uint16_t)((v.u >> 16) | 0x40u); /* quiet NaN */
		} else {
			uint32_t round = 0x7fffu + ((v.u >> 16) & 1u); /* to nearest even */
			x = (uint16_t)((v.u + round) >> 16);
		}
	}
	operator float() const
	{
		union { float f; uint32_t u; } v;
		v.u = (uint32_t)x << 16;
		return v.f;
	}
};

struct Half {
	uint16_t x;
	Half() : x(0) {}
	Half(float f)
	{
		union { float f; uint32_t u; } v;
		v.f = f;
		uint32_t sign = (v.u >> 16) & 0x8000u;
		uint32_t a = v.u & 0x7fffffffu;
		if (a > 0x7f800000u) {
			x = (uint16_t)(sign | 0x7e00u);
		} else if (a >= 0x477ff000u) { /* rounds to >= 65520: infinity */
			x = (uint16_t)(sign | 0x7c00u);
		} else if (a < 0x38800000u) { /* below 2^-14: subnormal or zero */
			uint32_t shift = 126u - (a >> 23);
			if (shift > 24u) {
				x = (uint16_t)sign;
			} else {
				uint32_t m = (a & 0x7fffffu) | 0x800000u;
				uint32_t h = m >> (shift);
				uint32_t rem = m & ((1u << shift) - 1u);
				uint32_t half = 1u << (shift - 1u);
				if (rem > half || (rem == half && (h & 1u)))
					h++;
				x = (uint16_t)(sign | h);
			}
		} else {
			uint32_t h = ((a - 0x38000000u) >> 13);
			uint32_t rem = a & 0x1fffu;
			if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
				h++;
			x = (uint16_t)(sign | h);
		}
	}
	operator float() const
	{
		union { float f; uint32_t u; } v;
		uint32_t sign = (uint32_t)(x & 0x8000u) << 16;
		uint32_t e = (x >> 10) & 0x1fu, m = x & 0x3ffu;
		if (e == 0x1fu) {
			v.u = sign | 0x7f800000u | (m << 13);
		} else if (e != 0) {
			v.u = sign | ((e + 112u) << 23) | (m << 13);
		} else if (m == 0) {
			v.u = sign;
		} else { /* subnormal half: normalise */
			e = 113u;
			while (!(m & 0x400u)) {
				m <<= 1;
				e--;
			}
			v.u = sign | (e << 23) | ((m & 0x3ffu) << 13);
		}
		return v.f;
	}
};

/* The ScalarType of a C++ element type, for typed access checks. */
template <class T>
struct CppTypeToScalarType;
#define Q7_DTYPE_OF(T, S) \
	template <>       \
	struct CppTypeToScalarType<T> { static constexpr ScalarType value = S; }
Q7_DTYPE_OF(unsigned char, ScalarType::Byte);
Q7_DTYPE_OF(signed char, ScalarType::Char);
Q7_DTYPE_OF(char, ScalarType::Char);
Q7_DTYPE_OF(short, ScalarType::Short);
Q7_DTYPE_OF(int, ScalarType::Int);
Q7_DTYPE_OF(long, sizeof(long) == 8 ? ScalarType::Long : ScalarType::Int);
Q7_DTYPE_OF(long long, ScalarType::Long);
Q7_DTYPE_OF(Half, ScalarType::Half);
Q7_DTYPE_OF(float, ScalarType::Float);
Q7_DTYPE_OF(double, ScalarType::Double);
Q7_DTYPE_OF(bool, ScalarType::Bool);
Q7_DTYPE_OF(BFloat16, ScalarType::BFloat16);
#undef Q7_DTYPE_OF

template <class T> struct q7_remove_const { typedef T type; };
template <class T> struct q7_remove_const<const T> { typedef T type; };

/* A view of sizes or strides, like c10::IntArrayRef. */
class IntArrayRef {
	const int64_t *data_;
	size_t len_;

public:
	typedef const int64_t *iterator;
	typedef const int64_t *const_iterator;
	constexpr IntArrayRef() : data_(0), len_(0) {}
	constexpr IntArrayRef(const int64_t *d, size_t n) : data_(d), len_(n) {}
/* Like c10's: the list must outlive the view (a call's argument does). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
	constexpr IntArrayRef(std::initializer_list<int64_t> l) : data_(l.begin()), len_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9
#pragma GCC diagnostic pop
#endif
	constexpr const int64_t *data() const { return data_; }
	constexpr size_t size() const { return len_; }
	constexpr bool empty() const { return len_ == 0; }
	constexpr const int64_t *begin() const { return data_; }
	constexpr const int64_t *end() const { return data_ + len_; }
	int64_t front() const { return (*this)[0]; }
	int64_t back() const { return (*this)[len_ - 1]; }
	int64_t operator[](size_t i) const
	{
		if (i >= len_)
			q7rt_fail("IntArrayRef: index %u out of range for %u dims", (unsigned)i,
			          (unsigned)len_);
		return data_[i];
	}
	bool equals(IntArrayRef o) const
	{
		if (o.len_ != len_)
			return false;
		for (size_t i = 0; i < len_; i++)
			if (o.data_[i] != data_[i])
				return false;
		return true;
	}
};
inline bool operator==(IntArrayRef a, IntArrayRef b) { return a.equals(b); }
inline bool operator!=(IntArrayRef a, IntArrayRef b) { return !a.equals(b); }

/* A number argument: integral, floating or boolean. */
class Scalar {
	enum Tag { kIntegral, kFloating, kBoolean } tag_;
	union {
		int64_t i;
		double d;
	} v_;

public:
	Scalar() : tag_(kIntegral) { v_.i = 0; }
	Scalar(bool b) : tag_(kBoolean) { v_.i = b; }
	Scalar(char x) : tag_(kIntegral) { v_.i = x; }
	Scalar(signed char x) : tag_(kIntegral) { v_.i = x; }
	Scalar(unsigned char x) : tag_(kIntegral) { v_.i = x; }
	Scalar(short x) : tag_(kIntegral) { v_.i = x; }
	Scalar(unsigned short x) : tag_(kIntegral) { v_.i = x; }
	Scalar(int x) : tag_(kIntegral) { v_.i = x; }
	Scalar(unsigned int x) : tag_(kIntegral) { v_.i = x; }
	Scalar(long x) : tag_(kIntegral) { v_.i = x; }
	Scalar(unsigned long x) : tag_(kIntegral) { v_.i = (int64_t)x; }
	Scalar(long long x) : tag_(kIntegral) { v_.i = x; }
	Scalar(unsigned long long x) : tag_(kIntegral) { v_.i = (int64_t)x; }
	Scalar(float x) : tag_(kFloating) { v_.d = x; }
	Scalar(double x) : tag_(kFloating) { v_.d = x; }

	bool isFloatingPoint() const { return tag_ == kFloating; }
	bool isIntegral(bool includeBool) const
	{
		return tag_ == kIntegral || (includeBool && tag_ == kBoolean);
	}
	bool isBoolean() const { return tag_ == kBoolean; }
	ScalarType type() const
	{
		return tag_ == kFloating ? ScalarType::Double
		       : tag_ == kBoolean ? ScalarType::Bool
		                          : ScalarType::Long;
	}
	template <class T>
	T to() const
	{
		return tag_ == kFloating ? static_cast<T>(v_.d) : static_cast<T>(v_.i);
	}
	double toDouble() const { return to<double>(); }
	float toFloat() const { return to<float>(); }
	int64_t toLong() const { return to<int64_t>(); }
	int toInt() const { return to<int>(); }
	int16_t toShort() const { return to<int16_t>(); }
	int8_t toChar() const { return to<int8_t>(); }
	uint8_t toByte() const { return to<uint8_t>(); }
	bool toBool() const { return tag_ == kFloating ? v_.d != 0.0 : v_.i != 0; }
};

} // namespace c10

namespace at {

using c10::BFloat16;
using c10::Half;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using c10::kBFloat16;
using c10::kBool;
using c10::kByte;
using c10::kChar;
using c10::kDouble;
using c10::kFloat;
using c10::kHalf;
using c10::kInt;
using c10::kLong;
using c10::kShort;
using c10::elementSize;
using c10::toString;

/* acc[i][j]...: element access by indices, through the strides. */
template <class T, size_t N>
class TensorAccessor {
	T *data_;
	const int64_t *sizes_;
	const int64_t *strides_;

public:
	TensorAccessor(T *d, const int64_t *sz, const int64_t *st) : data_(d), sizes_(sz), strides_(st) {}
	TensorAccessor<T, N - 1> operator[](int64_t i) const
	{
		return TensorAccessor<T, N - 1>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
	}
	int64_t size(size_t d) const { return sizes_[d]; }
	int64_t stride(size_t d) const { return strides_[d]; }
	IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
	IntArrayRef strides() const { return IntArrayRef(strides_, N); }
	T *data() const { return data_; }
};

template <class T>
class TensorAccessor<T, 1> {
	T *data_;
	const int64_t *sizes_;
	const int64_t *strides_;

public:
	TensorAccessor(T *d, const int64_t *sz, const int64_t *st) : data_(d), sizes_(sz), strides_(st) {}
	T &operator[](int64_t i) const { return data_[strides_[0] * i]; }
	int64_t size(size_t d) const { return sizes_[d]; }
	int64_t stride(size_t d) const { return strides_[d]; }
	IntArrayRef sizes() const { return IntArrayRef(sizes_, 1); }
	IntArrayRef strides() const { return IntArrayRef(strides_, 1); }
	T *data() const { return data_; }
};

/* Chunked copies between a tensor (in HBM on the device) and a buffer in
 * the fast local memory (tcm_malloc). Offsets and counts are in elements
 * of the flattened tensor. */
class TcmAccessor {
	const q7rt_tensor *t_;

public:
	explicit TcmAccessor(const q7rt_tensor *t) : t_(t) {}
	template <class T>
	void tensor_to_tcm(T *tcm, size_t offset, size_t count) const
	{
		q7rt_copy_tcm(t_, (int)c10::CppTypeToScalarType<T>::value, tcm, offset, count, 1);
	}
	template <class T>
	void tcm_to_tensor(const T *tcm, size_t offset, size_t count) const
	{
		q7rt_copy_tcm(t_, (int)c10::CppTypeToScalarType<T>::value, (void *)tcm, offset, count, 0);
	}
};

class Tensor {
	q7rt_tensor *impl_;

	const q7rt_tensor &impl() const
	{
		if (!impl_)
			q7rt_fail("use of an undefined tensor");
		return *impl_;
	}
	int64_t wrap_dim(int64_t d) const
	{
		int64_t n = impl().ndim;
		int64_t w = d < 0 ? d + n : d;
		if (w < 0 || w >= n)
			q7rt_fail("dimension %d out of range for a %d-dim tensor", (int)d, (int)n);
		return w;
	}
	void check_dtype(ScalarType want, const char *what) const
	{
		if (impl().dtype != (int)want)
			q7rt_fail("%s: tensor is %s, not %s", what, q7rt_dtype_name(impl().dtype),
			          q7rt_dtype_name((int)want));
	}

public:
	Tensor() : impl_(0) {}
	explicit Tensor(q7rt_tensor *impl) : impl_(impl) {}
	q7rt_tensor *unsafeGetTensorImpl() const { return impl_; }

	bool defined() const { return impl_ != 0; }
	int64_t dim() const { return impl().ndim; }
	int64_t ndimension() const { return dim(); }
	IntArrayRef sizes() const { return IntArrayRef(impl().sizes, (size_t)impl().ndim); }
	IntArrayRef strides() const { return IntArrayRef(impl().strides, (size_t)impl().ndim); }
	int64_t size(int64_t d) const { return impl().sizes[wrap_dim(d)]; }
	int64_t stride(int64_t d) const { return impl().strides[wrap_dim(d)]; }
	int64_t numel() const
	{
		int64_t n = 1;
		for (int32_t i = 0; i < impl().ndim; i++)
			n *= impl().sizes[i];
		return n;
	}
	ScalarType scalar_type() const { return (ScalarType)impl().dtype; }
	ScalarType dtype() const { return scalar_type(); }
	size_t element_size() const { return q7rt_dtype_size(impl().dtype); }
	size_t itemsize() const { return element_size(); }
	size_t nbytes() const { return (size_t)numel() * element_size(); }
	bool is_contiguous() const
	{
		int64_t expect = 1;
		for (int32_t i = impl().ndim - 1; i >= 0; i--) {
			if (impl().sizes[i] != 1 && impl().strides[i] != expect)
				return false;
			expect *= impl().sizes[i];
		}
		return true;
	}

	void *data_ptr() const { return impl().data; }
	template <class T>
	T *data_ptr() const
	{
		check_dtype(c10::CppTypeToScalarType<typename c10::q7_remove_const<T>::type>::value,
		            "data_ptr");
		return static_cast<T *>(impl().data);
	}
	template <class T>
	T *mutable_data_ptr() const { return data_ptr<T>(); }
	template <class T>
	const T *const_data_ptr() const { return data_ptr<T>(); }

	template <class T, size_t N>
	TensorAccessor<T, N> accessor() const
	{
		check_dtype(c10::CppTypeToScalarType<typename c10::q7_remove_const<T>::type>::value,
		            "accessor");
		if (impl().ndim != (int32_t)N)
			q7rt_fail("accessor<%u>: tensor has %d dims", (unsigned)N, (int)impl().ndim);
		return TensorAccessor<T, N>(static_cast<T *>(impl().data), impl().sizes, impl().strides);
	}
	TcmAccessor tcm_accessor() const { return TcmAccessor(&impl()); }

	template <class T>
	T item() const
	{
		if (numel() != 1)
			q7rt_fail("item(): tensor has %d elements, not 1", (int)numel());
		switch (scalar_type()) {
		case ScalarType::Byte: return static_cast<T>(*static_cast<uint8_t *>(impl().data));
		case ScalarType::Char: return static_cast<T>(*static_cast<int8_t *>(impl().data));
		case ScalarType::Short: return static_cast<T>(*static_cast<int16_t *>(impl().data));
		case ScalarType::Int: return static_cast<T>(*static_cast<int32_t *>(impl().data));
		case ScalarType::Long: return static_cast<T>(*static_cast<int64_t *>(impl().data));
		case ScalarType::Half: return static_cast<T>((float)*static_cast<Half *>(impl().data));
		case ScalarType::Float: return static_cast<T>(*static_cast<float *>(impl().data));
		case ScalarType::Double: return static_cast<T>(*static_cast<double *>(impl().data));
		case ScalarType::Bool: return static_cast<T>(*static_cast<bool *>(impl().data));
		case ScalarType::BFloat16:
			return static_cast<T>((float)*static_cast<BFloat16 *>(impl().data));
		default: break;
		}
		q7rt_fail("item(): unsupported dtype");
	}
};

/* Factories: the dtype is required, as with the vendor runtime. */
struct TensorOptions {
	ScalarType dtype_;
	constexpr TensorOptions(ScalarType t = ScalarType::Float) : dtype_(t) {}
	constexpr TensorOptions dtype(ScalarType t) const { return TensorOptions(t); }
	constexpr ScalarType scalar_type() const { return dtype_; }
};
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }

inline Tensor empty(IntArrayRef sizes, TensorOptions o)
{
	return Tensor(q7rt_tensor_new(sizes.data(), sizes.size(), (int)o.dtype_, -1));
}
inline Tensor zeros(IntArrayRef sizes, TensorOptions o)
{
	return Tensor(q7rt_tensor_new(sizes.data(), sizes.size(), (int)o.dtype_, 0));
}
inline Tensor ones(IntArrayRef sizes, TensorOptions o)
{
	return Tensor(q7rt_tensor_new(sizes.data(), sizes.size(), (int)o.dtype_, 1));
}
inline Tensor empty(std::initializer_list<int64_t> s, TensorOptions o) { return empty(IntArrayRef(s), o); }
inline Tensor zeros(std::initializer_list<int64_t> s, TensorOptions o) { return zeros(IntArrayRef(s), o); }
inline Tensor ones(std::initializer_list<int64_t> s, TensorOptions o) { return ones(IntArrayRef(s), o); }
inline Tensor empty(IntArrayRef s, ScalarType t) { return empty(s, TensorOptions(t)); }
inline Tensor zeros(IntArrayRef s, ScalarType t) { return zeros(s, TensorOptions(t)); }
inline Tensor ones(IntArrayRef s, ScalarType t) { return ones(s, TensorOptions(t)); }
inline Tensor empty(std::initializer_list<int64_t> s, ScalarType t) { return empty(IntArrayRef(s), TensorOptions(t)); }
inline Tensor zeros(std::initializer_list<int64_t> s, ScalarType t) { return zeros(IntArrayRef(s), TensorOptions(t)); }
inline Tensor ones(std::initializer_list<int64_t> s, ScalarType t) { return ones(IntArrayRef(s), TensorOptions(t)); }
inline Tensor empty_like(const Tensor &t) { return empty(t.sizes(), t.scalar_type()); }
inline Tensor zeros_like(const Tensor &t) { return zeros(t.sizes(), t.scalar_type()); }
inline Tensor ones_like(const Tensor &t) { return ones(t.sizes(), t.scalar_type()); }

} // namespace at

/* TORCH_CHECK(cond, ...): stops the op with a KERNEL_ERROR naming the
 * condition when it does not hold (the message arguments are not kept). */
#define TORCH_CHECK(cond, ...)                                        \
	do {                                                              \
		if (!(cond))                                                  \
			q7rt_fail("%s:%d: expected %s", __FILE__, __LINE__, #cond); \
	} while (0)

namespace torch {
using at::BFloat16;
using at::Half;
using at::IntArrayRef;
using at::Scalar;
using at::ScalarType;
using at::Tensor;
using at::TensorAccessor;
using at::TensorOptions;
using at::dtype;
using at::empty;
using at::empty_like;
using at::kBFloat16;
using at::kBool;
using at::kByte;
using at::kChar;
using at::kDouble;
using at::kFloat;
using at::kHalf;
using at::kInt;
using at::kLong;
using at::kShort;
using at::ones;
using at::ones_like;
using at::zeros;
using at::zeros_like;
} // namespace torch

#endif
