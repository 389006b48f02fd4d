/* SPDX-License-Identifier: MIT */
/* one.h: the one-lane backend of the wide-op vocabulary (see wide.h).
 *
 *   of_*  float, one lane (of = float, ofm = a 0/1 mask)
 *   od_*  double, one lane
 *
 * Every operation is the plain C operation on one element: a lane function
 * written over the vocabulary, compiled with this backend, is the scalar
 * reference, and the SIMD paths use it for the elements that do not fill a
 * vector. Masks are 0 or 1, so bits(m) is the one-lane movemask. */
#ifndef XPBD_ONE_H
#define XPBD_ONE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define ONE_INLINE static inline __attribute__((always_inline))

#define OF_LANES 1
#define OD_LANES 1

/* The vocabulary of one precision: prefix, real type, its sqrt and fabs.
 * Stores take the live-lane count n of the wide forms; one lane is always
 * live where a kernel stores (the slot walks stop at the real end).
 * store3t writes x, y, z only: the w given is the lane's own, unchanged. */
#define XPBD_ONE_OPS(pre, T, SQRTF, FABSF)                                                    \
    typedef T pre;                                                                            \
    typedef unsigned pre##m;                                                                  \
    ONE_INLINE T pre##_set1(T a) { return a; }                                                \
    ONE_INLINE T pre##_zero(void) { return 0; }                                               \
    ONE_INLINE T pre##_load(const T *p) { return *p; }                                        \
    ONE_INLINE void pre##_store(T *p, T a) { *p = a; }                                        \
    ONE_INLINE T pre##_add(T a, T b) { return a + b; }                                        \
    ONE_INLINE T pre##_sub(T a, T b) { return a - b; }                                        \
    ONE_INLINE T pre##_mul(T a, T b) { return a * b; }                                        \
    ONE_INLINE T pre##_div(T a, T b) { return a / b; }                                        \
    ONE_INLINE T pre##_sqrt(T a) { return SQRTF(a); }                                         \
    ONE_INLINE T pre##_neg(T a) { return -a; }                                                \
    ONE_INLINE T pre##_abs(T a) { return FABSF(a); }                                          \
    ONE_INLINE unsigned pre##_gt(T a, T b) { return a > b; }                                  \
    ONE_INLINE unsigned pre##_ge(T a, T b) { return a >= b; }                                 \
    ONE_INLINE unsigned pre##_mand(unsigned a, unsigned b) { return a & b; }                  \
    ONE_INLINE T pre##_select(unsigned m, T t, T f) { return m ? t : f; }                     \
    ONE_INLINE unsigned pre##_bits(unsigned m) { return m; }                                  \
    ONE_INLINE T pre##_gather(const T *base, const uint32_t *idx) { return base[idx[0]]; }    \
    ONE_INLINE void pre##_scatter(T *base, const uint32_t *idx, T v, unsigned n)              \
    {                                                                                         \
        (void)n;                                                                              \
        base[idx[0]] = v;                                                                     \
    }                                                                                         \
    ONE_INLINE void pre##_scatter3(T *bx, T *by, T *bz, const uint32_t *idx, T vx, T vy, T vz, \
                                   unsigned n)                                                \
    {                                                                                         \
        (void)n;                                                                              \
        bx[idx[0]] = vx;                                                                      \
        by[idx[0]] = vy;                                                                      \
        bz[idx[0]] = vz;                                                                      \
    }                                                                                         \
    ONE_INLINE void pre##_load4t(const T *q, const uint32_t *idx, T *x, T *y, T *z, T *w)     \
    {                                                                                         \
        const T *r = q + 4 * (size_t)idx[0];                                                  \
        *x = r[0];                                                                            \
        *y = r[1];                                                                            \
        *z = r[2];                                                                            \
        *w = r[3];                                                                            \
    }                                                                                         \
    ONE_INLINE void pre##_store3t(T *q, const uint32_t *idx, T x, T y, T z, T w, unsigned n)  \
    {                                                                                         \
        T *r = q + 4 * (size_t)idx[0];                                                        \
        (void)w;                                                                              \
        (void)n;                                                                              \
        r[0] = x;                                                                             \
        r[1] = y;                                                                             \
        r[2] = z;                                                                             \
    }                                                                                         \
    ONE_INLINE void pre##_store4t(T *q, const uint32_t *idx, T x, T y, T z, T w, unsigned n)  \
    {                                                                                         \
        T *r = q + 4 * (size_t)idx[0];                                                        \
        (void)n;                                                                              \
        r[0] = x;                                                                             \
        r[1] = y;                                                                             \
        r[2] = z;                                                                             \
        r[3] = w;                                                                             \
    }                                                                                         \
    ONE_INLINE void pre##_load4c(const T *q, size_t first, T *x, T *y, T *z, T *w)            \
    {                                                                                         \
        const uint32_t one = (uint32_t)first;                                                 \
        pre##_load4t(q, &one, x, y, z, w);                                                    \
    }                                                                                         \
    ONE_INLINE void pre##_store4c(T *q, size_t first, T x, T y, T z, T w)                     \
    {                                                                                         \
        const uint32_t one = (uint32_t)first;                                                 \
        pre##_store4t(q, &one, x, y, z, w, 1);                                                \
    }

XPBD_ONE_OPS(of, float, sqrtf, fabsf)
XPBD_ONE_OPS(od, double, sqrt, fabs)

#undef XPBD_ONE_OPS

#endif /* XPBD_ONE_H */
