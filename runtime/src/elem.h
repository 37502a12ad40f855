/* Elements of any dtype read and written as one of three kinds of number,
 * the way the tensor operations and fill_ compute:
 *   int64_t for the integer dtypes and bool (0 or 1),
 *   float for float32, float16 and bfloat16 (torch computes the 16-bit
 *     floats in float32 and rounds once at the end),
 *   double for float64.
 * Conversions are C++'s (an int64 to float rounds once; a float to an
 * integer truncates), as torch's static_casts are. Stored NaNs are the
 * one quiet NaN of their format (docs/runtime.md, "Tensor operations").
 * Inline: the ops' inner loops use them. */
#ifndef Q7_RT_ELEM_H
#define Q7_RT_ELEM_H

#include <stdint.h>

#include <q7/frame.h>
#include <q7/types.h>

#include "fpbits.h"

namespace q7elem {

inline bool is_float(int dt)
{
	return dt == Q7_DTYPE_FLOAT32 || dt == Q7_DTYPE_FLOAT16 || dt == Q7_DTYPE_BFLOAT16 ||
	       dt == Q7_DTYPE_FLOAT64;
}

inline int64_t load_i64(const void *p, int dt)
{
	switch (dt) {
	case Q7_DTYPE_UINT8: return *static_cast<const uint8_t *>(p);
	case Q7_DTYPE_INT8: return *static_cast<const int8_t *>(p);
	case Q7_DTYPE_INT16: return *static_cast<const int16_t *>(p);
	case Q7_DTYPE_INT32: return *static_cast<const int32_t *>(p);
	case Q7_DTYPE_INT64: return *static_cast<const int64_t *>(p);
	case Q7_DTYPE_BOOL: return *static_cast<const uint8_t *>(p) != 0;
	default: return 0;
	}
}

inline float load_f32(const void *p, int dt)
{
	switch (dt) {
	case Q7_DTYPE_FLOAT32: return *static_cast<const float *>(p);
	case Q7_DTYPE_FLOAT16: return (float)*static_cast<const c10::Half *>(p);
	case Q7_DTYPE_BFLOAT16: return (float)*static_cast<const c10::BFloat16 *>(p);
	case Q7_DTYPE_FLOAT64: return (float)*static_cast<const double *>(p);
	default: return (float)load_i64(p, dt);
	}
}

inline double load_f64(const void *p, int dt)
{
	switch (dt) {
	case Q7_DTYPE_FLOAT64: return *static_cast<const double *>(p);
	case Q7_DTYPE_FLOAT32:
	case Q7_DTYPE_FLOAT16:
	case Q7_DTYPE_BFLOAT16: return (double)load_f32(p, dt);
	default: return (double)load_i64(p, dt);
	}
}

/* v as an integer dtype holds it: the low bits, sign-extended. */
inline int64_t wrap(int64_t v, int dt)
{
	switch (dt) {
	case Q7_DTYPE_UINT8: return (uint8_t)v;
	case Q7_DTYPE_INT8: return (int8_t)v;
	case Q7_DTYPE_INT16: return (int16_t)v;
	case Q7_DTYPE_INT32: return (int32_t)v;
	case Q7_DTYPE_BOOL: return v != 0;
	default: return v;
	}
}

/* Truncation toward zero, saturated (NaN gives 0), so that no conversion
 * is undefined behaviour. */
inline int64_t to_i64(double d)
{
	if (d != d)
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

/* Into an integer dtype or bool. */
inline void store_int(void *p, int dt, int64_t v)
{
	switch (dt) {
	case Q7_DTYPE_UINT8: *static_cast<uint8_t *>(p) = (uint8_t)v; break;
	case Q7_DTYPE_INT8: *static_cast<int8_t *>(p) = (int8_t)v; break;
	case Q7_DTYPE_INT16: *static_cast<int16_t *>(p) = (int16_t)v; break;
	case Q7_DTYPE_INT32: *static_cast<int32_t *>(p) = (int32_t)v; break;
	case Q7_DTYPE_BOOL: *static_cast<uint8_t *>(p) = v != 0; break;
	default: *static_cast<int64_t *>(p) = v; break;
	}
}

inline void store_f32(void *p, int dt, float v)
{
	bool nan = v != v;
	switch (dt) {
	case Q7_DTYPE_FLOAT32:
		*static_cast<float *>(p) = nan ? fp_float32(0x7fc00000u) : v;
		break;
	case Q7_DTYPE_FLOAT16:
		static_cast<c10::Half *>(p)->x = nan ? (uint16_t)0x7e00u : c10::Half(v).x;
		break;
	case Q7_DTYPE_BFLOAT16:
		static_cast<c10::BFloat16 *>(p)->x = nan ? (uint16_t)0x7fc0u : c10::BFloat16(v).x;
		break;
	case Q7_DTYPE_FLOAT64:
		*static_cast<double *>(p) = nan ? fp_float64(0x7ff8000000000000ull) : (double)v;
		break;
	case Q7_DTYPE_BOOL: store_int(p, dt, v != 0.0f); break;
	default: store_int(p, dt, to_i64((double)v)); break;
	}
}

inline void store_i64(void *p, int dt, int64_t v)
{
	if (dt == Q7_DTYPE_FLOAT64)
		*static_cast<double *>(p) = (double)v;
	else if (is_float(dt))
		store_f32(p, dt, (float)v);
	else
		store_int(p, dt, v);
}

inline void store_f64(void *p, int dt, double v)
{
	if (dt == Q7_DTYPE_FLOAT64) {
		*static_cast<double *>(p) = v != v ? fp_float64(0x7ff8000000000000ull) : v;
	} else if (is_float(dt) || dt == Q7_DTYPE_BOOL) {
		store_f32(p, dt, dt == Q7_DTYPE_BOOL ? (float)(v != 0.0) : (float)v);
	} else {
		store_i64(p, dt, to_i64(v));
	}
}

} // namespace q7elem

#endif
