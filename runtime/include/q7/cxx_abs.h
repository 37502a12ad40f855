// std::abs for every arithmetic type, which <cstdlib> and <cmath> both
// declare. Internal to the C++ headers q7cc provides where the compiler has none.
#ifndef Q7_CXX_BITS_ABS_H
#define Q7_CXX_BITS_ABS_H

namespace std {
inline int abs(int x) { return x < 0 ? -x : x; }
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
inline float abs(float x) { return __builtin_fabsf(x); }
inline double abs(double x) { return __builtin_fabs(x); }
inline long double abs(long double x) { return __builtin_fabsl(x); }
} // namespace std

#endif
