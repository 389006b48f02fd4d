/* One translation unit per SIMD path: CMake compiles this file once per ISA
 * with the ISA's flags (SIMDe goes native only when the compiler predefines
 * __AVX2__ etc.) and defines:
 *   XPBD_SIMD_NAME  avx2 / sse4 / avx512 / neon   (symbol infix)
 *   XPBD_SIMD_ISA   the xpbd_isa value
 *   XPBD_WIDE_BITS  128 / 256 / 512
 * The table symbols are xpbd__<name>_f32 and xpbd__<name>_f64. */
#include "internal.h"
#include "simd/wide.h"

#if !defined(XPBD_SIMD_NAME) || !defined(XPBD_SIMD_ISA)
#  error "XPBD_SIMD_NAME and XPBD_SIMD_ISA must be defined"
#endif

#define XPBD_CAT3_(a, b, c) a##b##_##c
#define XPBD_CAT3(a, b, c) XPBD_CAT3_(a, b, c)
/* SFX(XPBD_SIMD_CAT(n)) -> xpbd__<name>_<n>_f32; the table is xpbd__<name>_table_f32,
 * aliased below to the names internal.h declares. */
#define XPBD_SIMD_CAT(n) XPBD_CAT3(xpbd__, XPBD_SIMD_NAME, n)

#define XPBD_REAL_F32
#include "simd/kernels_tmpl.h"
#define XPBD_REAL_F64
#include "simd/kernels_tmpl.h"

#define XPBD_REAL_F32
#include "simd/contact_tmpl.h"
#define XPBD_REAL_F64
#include "simd/contact_tmpl.h"

#define XPBD_REAL_F32
#include "simd/softbody_tmpl.h"
#define XPBD_REAL_F64
#include "simd/softbody_tmpl.h"
