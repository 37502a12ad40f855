/* helper.c's function, for C and C++ callers. */
#ifndef CPROJ_HELPER_H
#define CPROJ_HELPER_H
#ifdef __cplusplus
extern "C" {
#endif
float helper_affine(const float *x, int i);
#ifdef __cplusplus
}
#endif
#endif
