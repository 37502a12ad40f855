/* <q7/types.h>: the value types of the kernel-author torch API: dtypes
 * (c10::ScalarType), the 16-bit float storage types, c10::IntArrayRef,
 * c10::Scalar and c10::TensorOptions, in namespace c10 and, through
 * using-declarations, in at and torch. Part of <torch/torch.h>.
 *
 * Plain C++14 without the C++ standard library, so that it compiles with
 * any C++ compiler the profiles use, with or without the device's C++
 * headers on the include path. */
#ifndef Q7_TYPES_H
#define Q7_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <q7/runtime.h>

/* std::initializer_list: the C++ library's, or q7cc's own where the
 * compiler has none (<prefix>/include/q7cc/initializer_list). */
#include <initializer_list>

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

/* A float's bits and back, through a union (which GCC and clang define). */
inline uint32_t q7_float_bits(float f)
{
	union { float f; uint32_t u; } v = {f};
	return v.u;
}
inline float q7_bits_float(uint32_t u)
{
	union { uint32_t u; float f; } v = {u};
	return v.f;
}

/* 16-bit floats as storage types, converted through float. */
struct BFloat16 {
	uint16_t x;
	BFloat16() : x(0) {}
	BFloat16(float f)
	{
		uint32_t u = q7_float_bits(f);
		if ((u & 0x7fffffffu) > 0x7f800000u) {
			x = (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
		} else {
			uint32_t round = 0x7fffu + ((u >> 16) & 1u); /* to nearest even */
			x = (uint16_t)((u + round) >> 16);
		}
	}
	operator float() const { return q7_bits_float((uint32_t)x << 16); }
};

struct Half {
	uint16_t x;
	Half() : x(0) {}
	Half(float f)
	{
		uint32_t sign = (q7_float_bits(f) >> 16) & 0x8000u;
		uint32_t a = q7_float_bits(f) & 0x7fffffffu;
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
		uint32_t sign = (uint32_t)(x & 0x8000u) << 16;
		uint32_t e = (x >> 10) & 0x1fu, m = x & 0x3ffu;
		if (e == 0x1fu)
			return q7_bits_float(sign | 0x7f800000u | (m << 13));
		if (e != 0)
			return q7_bits_float(sign | ((e + 112u) << 23) | (m << 13));
		if (m == 0)
			return q7_bits_float(sign);
		e = 113u; /* subnormal half: normalise */
		while (!(m & 0x400u)) {
			m <<= 1;
			e--;
		}
		return q7_bits_float(sign | (e << 23) | ((m & 0x3ffu) << 13));
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

/* Options of the factory functions. Only the dtype has an effect, and it
 * must be given: TensorOptions() without one makes the factory fail. */
struct TensorOptions {
	ScalarType dtype_;
	constexpr TensorOptions() : dtype_(ScalarType::Undefined) {}
	constexpr TensorOptions(ScalarType t) : dtype_(t) {}
	constexpr TensorOptions dtype(ScalarType t) const { return TensorOptions(t); }
	constexpr bool has_dtype() const { return dtype_ != ScalarType::Undefined; }
	constexpr ScalarType scalar_type() const { return dtype_; }
};
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }

} // namespace c10

namespace at {

using c10::BFloat16;
using c10::Half;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;
using c10::dtype;
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

} // namespace at

#endif
