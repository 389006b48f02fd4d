/* Internal declarations shared by the library's translation units. */
#ifndef XPBD_INTERNAL_H
#define XPBD_INTERNAL_H

#include "xpbd/xpbd.h"
#include "xpbd/contacts.h"

#include <math.h>
#include <stdint.h>

/* Kernel tables, one per compiled path; defined in scalar/reference.c and in
 * simd/kernels.c (compiled once per ISA with XPBD_SIMD_NAME set). */
extern const xpbd_kernels_f32 xpbd__scalar_f32;
extern const xpbd_kernels_f64 xpbd__scalar_f64;
extern const xpbd_kernels_f32 xpbd__sse4_table_f32;
extern const xpbd_kernels_f64 xpbd__sse4_table_f64;
extern const xpbd_kernels_f32 xpbd__avx2_table_f32;
extern const xpbd_kernels_f64 xpbd__avx2_table_f64;
extern const xpbd_kernels_f32 xpbd__avx512_table_f32;
extern const xpbd_kernels_f64 xpbd__avx512_table_f64;
extern const xpbd_kernels_f32 xpbd__neon_table_f32;
extern const xpbd_kernels_f64 xpbd__neon_table_f64;


extern const xpbd_contact_kernels_f32 xpbd__scalar_contact_f32;
extern const xpbd_contact_kernels_f64 xpbd__scalar_contact_f64;
extern const xpbd_contact_kernels_f32 xpbd__sse4_contact_table_f32;
extern const xpbd_contact_kernels_f64 xpbd__sse4_contact_table_f64;
extern const xpbd_contact_kernels_f32 xpbd__avx2_contact_table_f32;
extern const xpbd_contact_kernels_f64 xpbd__avx2_contact_table_f64;
extern const xpbd_contact_kernels_f32 xpbd__avx512_contact_table_f32;
extern const xpbd_contact_kernels_f64 xpbd__avx512_contact_table_f64;
extern const xpbd_contact_kernels_f32 xpbd__neon_contact_table_f32;
extern const xpbd_contact_kernels_f64 xpbd__neon_contact_table_f64;

#endif
