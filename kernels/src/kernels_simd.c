/* SPDX-License-Identifier: MIT */
/* One SIMD path: CMake compiles this file once per ISA with the ISA's
 * flags (SIMDe goes native only when the compiler predefines __AVX2__
 * etc.) and defines:
 *   XPBD_SIMD_NAME  sse4 / avx2 / avx512 / neon
 *   XPBD_SIMD_ISA   the xpbd_isa value
 *   XPBD_WIDE_BITS  128 / 256 / 512
 * Its kernels carry the ISA in their names (distance_xpbd_packed_avx2_f32,
 * lanes.h: K).
 * Every kernel is instantiated with the wide backend (and the one-lane one
 * for the remainders); the path's row is xpbd__<name>_path (dispatch.h). */
#include "internal.h"
#include "dispatch.h"

#if !defined(XPBD_SIMD_NAME) || !defined(XPBD_SIMD_ISA)
#  error "XPBD_SIMD_NAME and XPBD_SIMD_ISA must be defined"
#endif

#define XPBD_TABLE_ISA XPBD_SIMD_ISA
#define XPBD_PATH_WIDE

#define XPBD_REAL_F32
#include "kernels/instantiate.h"
#define XPBD_REAL_F64
#include "kernels/instantiate.h"

/* A table of this path: kernels_avx2_f32, ... (lanes.h: K) */
#define XPBD_PATH_TABLE__(n, path, prec) n##_##path##_##prec
#define XPBD_PATH_TABLE_(n, path, prec) XPBD_PATH_TABLE__(n, path, prec)
#define XPBD_PATH_TABLE(n, prec) XPBD_PATH_TABLE_(n, XPBD_SIMD_NAME, prec)
#define XPBD_PATH_ROW_(name) xpbd__##name##_path
#define XPBD_PATH_ROW(name) XPBD_PATH_ROW_(name)

const xpbd__path XPBD_PATH_ROW(XPBD_SIMD_NAME) = {
    .kernels_f32 = &XPBD_PATH_TABLE(kernels, f32),
    .kernels_f64 = &XPBD_PATH_TABLE(kernels, f64),
    .contact_f32 = &XPBD_PATH_TABLE(contact_kernels, f32),
    .contact_f64 = &XPBD_PATH_TABLE(contact_kernels, f64),
    .softbody_f32 = &XPBD_PATH_TABLE(softbody_kernels, f32),
    .softbody_f64 = &XPBD_PATH_TABLE(softbody_kernels, f64),
    .step_f32 = &XPBD_PATH_TABLE(step_kernels, f32),
    .step_f64 = &XPBD_PATH_TABLE(step_kernels, f64),
};
