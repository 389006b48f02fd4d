/* SPDX-License-Identifier: MIT */
/* One SIMD path: CMake compiles this file once per ISA with the ISA's
 * flags (SIMDe goes native only when the compiler predefines __AVX2__
 * etc.) and defines:
 *   XPBD_SIMD_NAME  sse4 / avx2 / avx512 / neon
 *   XPBD_SIMD_ISA   the xpbd_isa value
 *   XPBD_WIDE_BITS  128 / 256 / 512
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

#define XPBD_PATH_ROW_(name) xpbd__##name##_path
#define XPBD_PATH_ROW(name) XPBD_PATH_ROW_(name)

const xpbd__path XPBD_PATH_ROW(XPBD_SIMD_NAME) = {
    .kernels_f32 = &wide_kernels_f32,
    .kernels_f64 = &wide_kernels_f64,
    .contact_f32 = &wide_contact_kernels_f32,
    .contact_f64 = &wide_contact_kernels_f64,
    .softbody_f32 = &wide_softbody_kernels_f32,
    .softbody_f64 = &wide_softbody_kernels_f64,
    .step_f32 = &wide_step_kernels_f32,
    .step_f64 = &wide_step_kernels_f64,
};
