/* SPDX-License-Identifier: MIT */
/* dispatch.h: the one list of instruction-set paths, and what each path's
 * translation unit defines.
 *
 * A path is one translation unit: kernels_scalar.c for the scalar
 * reference, kernels_simd.c compiled once per SIMD ISA (CMake defines
 * XPBD_HAVE_<ISA> in the library for each one it compiled). Each defines
 * one xpbd__path row holding its kernel tables; isa.c indexes the rows by
 * xpbd_isa. */
#ifndef XPBD_DISPATCH_H
#define XPBD_DISPATCH_H

#include "xpbd/xpbd.h"
#include "step_kernels.h"

/* X(ENUM, name, f32 lanes, f64 lanes) for every path this library knows;
 * the enum value is XPBD_ISA_<ENUM>, the name is xpbd_isa_name's. */
#define XPBD_ISA_LIST(X)                                                                      \
    X(SCALAR, scalar, 1, 1)                                                                   \
    X(SSE4, sse4, 4, 2)                                                                       \
    X(AVX2, avx2, 8, 4)                                                                       \
    X(AVX512, avx512, 16, 8)                                                                  \
    X(NEON, neon, 4, 2)

/* X(ENUM, name) for the SIMD paths this build compiled in. */
#ifdef XPBD_HAVE_SSE4
#  define XPBD_PATH_SSE4(X) X(SSE4, sse4)
#else
#  define XPBD_PATH_SSE4(X)
#endif
#ifdef XPBD_HAVE_AVX2
#  define XPBD_PATH_AVX2(X) X(AVX2, avx2)
#else
#  define XPBD_PATH_AVX2(X)
#endif
#ifdef XPBD_HAVE_AVX512
#  define XPBD_PATH_AVX512(X) X(AVX512, avx512)
#else
#  define XPBD_PATH_AVX512(X)
#endif
#ifdef XPBD_HAVE_NEON
#  define XPBD_PATH_NEON(X) X(NEON, neon)
#else
#  define XPBD_PATH_NEON(X)
#endif
#define XPBD_COMPILED_SIMD_PATHS(X)                                                           \
    XPBD_PATH_SSE4(X) XPBD_PATH_AVX2(X) XPBD_PATH_AVX512(X) XPBD_PATH_NEON(X)

/* The kernel tables of one path. */
typedef struct xpbd__path {
    const xpbd_kernels_f32 *kernels_f32;
    const xpbd_kernels_f64 *kernels_f64;
    const xpbd_contact_kernels_f32 *contact_f32;
    const xpbd_contact_kernels_f64 *contact_f64;
    const xpbd_softbody_kernels_f32 *softbody_f32;
    const xpbd_softbody_kernels_f64 *softbody_f64;
    const xpbd__step_kernels_f32 *step_f32; /* the step's private rows */
    const xpbd__step_kernels_f64 *step_f64;
} xpbd__path;

/* xpbd__scalar_path, xpbd__sse4_path, ... */
#define XPBD_DECLARE_PATH(ENUM, name) extern const xpbd__path xpbd__##name##_path;
XPBD_DECLARE_PATH(SCALAR, scalar)
XPBD_COMPILED_SIMD_PATHS(XPBD_DECLARE_PATH)
#undef XPBD_DECLARE_PATH

#endif /* XPBD_DISPATCH_H */
