/* SPDX-License-Identifier: MIT */
/* wide.h: the closed vocabulary of wide operations the SIMD kernels use,
 * over SIMDe, keyed on XPBD_WIDE_BITS (128, 256 or 512).
 *
 *   wf_*  float vectors (4 / 8 / 16 lanes), masks wfm
 *   wd_*  double vectors (2 / 4 / 8 lanes), masks wdm
 *
 * Every operation is IEEE-exact and lane-wise, so a kernel written with them
 * computes what the scalar reference computes when it performs the same
 * operations in the same order: add/sub/mul/div/sqrt are correctly rounded,
 * neg flips the sign bit (not 0 - x, which differs on zero), comparisons are
 * ordered (NaN compares false, like C's >), select is a bit blend. No FMA,
 * no min/max (their NaN rules differ between ISAs), no approximate
 * reciprocals. Kernels never call simde_* directly. */
#ifndef XPBD_WIDE_H
#define XPBD_WIDE_H

#include <stdint.h>
#include <string.h>

#if !defined(XPBD_WIDE_BITS)
#  error "XPBD_WIDE_BITS must be 128, 256 or 512"
#endif

#define WIDE_INLINE static inline __attribute__((always_inline))

#if XPBD_WIDE_BITS == 128
/* ------------------------------------------------------------ 128-bit --- */
#include <simde/x86/sse4.2.h>

#define WF_LANES 4
#define WD_LANES 2
typedef simde__m128 wf;
typedef simde__m128 wfm;
typedef simde__m128d wd;
typedef simde__m128d wdm;

WIDE_INLINE wf wf_set1(float a) { return simde_mm_set1_ps(a); }
WIDE_INLINE wf wf_zero(void) { return simde_mm_setzero_ps(); }
WIDE_INLINE wf wf_load(const float *p) { return simde_mm_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf a) { simde_mm_storeu_ps(p, a); }
WIDE_INLINE wf wf_add(wf a, wf b) { return simde_mm_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return simde_mm_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return simde_mm_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return simde_mm_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return simde_mm_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f)); }
WIDE_INLINE wf wf_abs(wf a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
WIDE_INLINE wfm wf_gt(wf a, wf b) { return simde_mm_cmpgt_ps(a, b); }
WIDE_INLINE wfm wf_ge(wf a, wf b) { return simde_mm_cmpge_ps(a, b); }
WIDE_INLINE wfm wf_mand(wfm a, wfm b) { return simde_mm_and_ps(a, b); }
WIDE_INLINE wf wf_select(wfm m, wf t, wf f) { return simde_mm_blendv_ps(f, t, m); }
WIDE_INLINE unsigned wf_bits(wfm m) { return (unsigned)simde_mm_movemask_ps(m); }

WIDE_INLINE wd wd_set1(double a) { return simde_mm_set1_pd(a); }
WIDE_INLINE wd wd_zero(void) { return simde_mm_setzero_pd(); }
WIDE_INLINE wd wd_load(const double *p) { return simde_mm_loadu_pd(p); }
WIDE_INLINE void wd_store(double *p, wd a) { simde_mm_storeu_pd(p, a); }
WIDE_INLINE wd wd_add(wd a, wd b) { return simde_mm_add_pd(a, b); }
WIDE_INLINE wd wd_sub(wd a, wd b) { return simde_mm_sub_pd(a, b); }
WIDE_INLINE wd wd_mul(wd a, wd b) { return simde_mm_mul_pd(a, b); }
WIDE_INLINE wd wd_div(wd a, wd b) { return simde_mm_div_pd(a, b); }
WIDE_INLINE wd wd_sqrt(wd a) { return simde_mm_sqrt_pd(a); }
WIDE_INLINE wd wd_neg(wd a) { return simde_mm_xor_pd(a, simde_mm_set1_pd(-0.0)); }
WIDE_INLINE wd wd_abs(wd a) { return simde_mm_andnot_pd(simde_mm_set1_pd(-0.0), a); }
WIDE_INLINE wdm wd_gt(wd a, wd b) { return simde_mm_cmpgt_pd(a, b); }
WIDE_INLINE wdm wd_ge(wd a, wd b) { return simde_mm_cmpge_pd(a, b); }
WIDE_INLINE wdm wd_mand(wdm a, wdm b) { return simde_mm_and_pd(a, b); }
WIDE_INLINE wd wd_select(wdm m, wd t, wd f) { return simde_mm_blendv_pd(f, t, m); }
WIDE_INLINE unsigned wd_bits(wdm m) { return (unsigned)simde_mm_movemask_pd(m); }

#define XPBD_GATHER_LANE_LOOP 1

#elif XPBD_WIDE_BITS == 256
/* ------------------------------------------------------------ 256-bit --- */
#include <simde/x86/avx2.h>

#define WF_LANES 8
#define WD_LANES 4
typedef simde__m256 wf;
typedef simde__m256 wfm;
typedef simde__m256d wd;
typedef simde__m256d wdm;

WIDE_INLINE wf wf_set1(float a) { return simde_mm256_set1_ps(a); }
WIDE_INLINE wf wf_zero(void) { return simde_mm256_setzero_ps(); }
WIDE_INLINE wf wf_load(const float *p) { return simde_mm256_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf a) { simde_mm256_storeu_ps(p, a); }
WIDE_INLINE wf wf_add(wf a, wf b) { return simde_mm256_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return simde_mm256_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return simde_mm256_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return simde_mm256_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return simde_mm256_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return simde_mm256_xor_ps(a, simde_mm256_set1_ps(-0.0f)); }
WIDE_INLINE wf wf_abs(wf a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
WIDE_INLINE wfm wf_gt(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
WIDE_INLINE wfm wf_ge(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
WIDE_INLINE wfm wf_mand(wfm a, wfm b) { return simde_mm256_and_ps(a, b); }
WIDE_INLINE wf wf_select(wfm m, wf t, wf f) { return simde_mm256_blendv_ps(f, t, m); }
WIDE_INLINE unsigned wf_bits(wfm m) { return (unsigned)simde_mm256_movemask_ps(m); }
WIDE_INLINE wf wf_gather(const float *base, const uint32_t *idx)
{
    const simde__m256i i = simde_mm256_loadu_si256((const void *)idx);
    return simde_mm256_i32gather_ps(base, i, 4);
}

WIDE_INLINE wd wd_set1(double a) { return simde_mm256_set1_pd(a); }
WIDE_INLINE wd wd_zero(void) { return simde_mm256_setzero_pd(); }
WIDE_INLINE wd wd_load(const double *p) { return simde_mm256_loadu_pd(p); }
WIDE_INLINE void wd_store(double *p, wd a) { simde_mm256_storeu_pd(p, a); }
WIDE_INLINE wd wd_add(wd a, wd b) { return simde_mm256_add_pd(a, b); }
WIDE_INLINE wd wd_sub(wd a, wd b) { return simde_mm256_sub_pd(a, b); }
WIDE_INLINE wd wd_mul(wd a, wd b) { return simde_mm256_mul_pd(a, b); }
WIDE_INLINE wd wd_div(wd a, wd b) { return simde_mm256_div_pd(a, b); }
WIDE_INLINE wd wd_sqrt(wd a) { return simde_mm256_sqrt_pd(a); }
WIDE_INLINE wd wd_neg(wd a) { return simde_mm256_xor_pd(a, simde_mm256_set1_pd(-0.0)); }
WIDE_INLINE wd wd_abs(wd a) { return simde_mm256_andnot_pd(simde_mm256_set1_pd(-0.0), a); }
WIDE_INLINE wdm wd_gt(wd a, wd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_GT_OQ); }
WIDE_INLINE wdm wd_ge(wd a, wd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_GE_OQ); }
WIDE_INLINE wdm wd_mand(wdm a, wdm b) { return simde_mm256_and_pd(a, b); }
WIDE_INLINE wd wd_select(wdm m, wd t, wd f) { return simde_mm256_blendv_pd(f, t, m); }
WIDE_INLINE unsigned wd_bits(wdm m) { return (unsigned)simde_mm256_movemask_pd(m); }
WIDE_INLINE wd wd_gather(const double *base, const uint32_t *idx)
{
    const simde__m128i i = simde_mm_loadu_si128((const void *)idx);
    return simde_mm256_i32gather_pd(base, i, 8);
}

#elif XPBD_WIDE_BITS == 512
/* ------------------------------------------------------------ 512-bit --- */
#include <simde/x86/avx512.h>
#if defined(SIMDE_X86_AVX512F_NATIVE)
#  include <immintrin.h>
#endif

#define WF_LANES 16
#define WD_LANES 8
typedef simde__m512 wf;
typedef simde__mmask16 wfm;
typedef simde__m512d wd;
typedef simde__mmask8 wdm;

WIDE_INLINE wf wf_set1(float a) { return simde_mm512_set1_ps(a); }
WIDE_INLINE wf wf_zero(void) { return simde_mm512_setzero_ps(); }
WIDE_INLINE wf wf_load(const float *p) { return simde_mm512_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf a) { simde_mm512_storeu_ps(p, a); }
WIDE_INLINE wf wf_add(wf a, wf b) { return simde_mm512_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return simde_mm512_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return simde_mm512_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return simde_mm512_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return simde_mm512_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return simde_mm512_xor_ps(a, simde_mm512_set1_ps(-0.0f)); }
WIDE_INLINE wf wf_abs(wf a) { return simde_mm512_andnot_ps(simde_mm512_set1_ps(-0.0f), a); }
WIDE_INLINE wfm wf_gt(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
WIDE_INLINE wfm wf_ge(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
WIDE_INLINE wfm wf_mand(wfm a, wfm b) { return (wfm)(a & b); }
WIDE_INLINE wf wf_select(wfm m, wf t, wf f) { return simde_mm512_mask_blend_ps(m, f, t); }
WIDE_INLINE unsigned wf_bits(wfm m) { return (unsigned)m; }

WIDE_INLINE wd wd_set1(double a) { return simde_mm512_set1_pd(a); }
WIDE_INLINE wd wd_zero(void) { return simde_mm512_setzero_pd(); }
WIDE_INLINE wd wd_load(const double *p) { return simde_mm512_loadu_pd(p); }
WIDE_INLINE void wd_store(double *p, wd a) { simde_mm512_storeu_pd(p, a); }
WIDE_INLINE wd wd_add(wd a, wd b) { return simde_mm512_add_pd(a, b); }
WIDE_INLINE wd wd_sub(wd a, wd b) { return simde_mm512_sub_pd(a, b); }
WIDE_INLINE wd wd_mul(wd a, wd b) { return simde_mm512_mul_pd(a, b); }
WIDE_INLINE wd wd_div(wd a, wd b) { return simde_mm512_div_pd(a, b); }
WIDE_INLINE wd wd_sqrt(wd a) { return simde_mm512_sqrt_pd(a); }
WIDE_INLINE wd wd_neg(wd a) { return simde_mm512_xor_pd(a, simde_mm512_set1_pd(-0.0)); }
WIDE_INLINE wd wd_abs(wd a) { return simde_mm512_andnot_pd(simde_mm512_set1_pd(-0.0), a); }
WIDE_INLINE wdm wd_gt(wd a, wd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_GT_OQ); }
WIDE_INLINE wdm wd_ge(wd a, wd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_GE_OQ); }
WIDE_INLINE wdm wd_mand(wdm a, wdm b) { return (wdm)(a & b); }
WIDE_INLINE wd wd_select(wdm m, wd t, wd f) { return simde_mm512_mask_blend_pd(m, f, t); }
WIDE_INLINE unsigned wd_bits(wdm m) { return (unsigned)m; }

#if defined(SIMDE_X86_AVX512F_NATIVE)
/* Debian's SIMDe 0.7.4 has no AVX-512 gather/scatter: native intrinsics
 * here, the portable lane loop below otherwise. */
WIDE_INLINE wf wf_gather(const float *base, const uint32_t *idx)
{
    return _mm512_i32gather_ps(_mm512_loadu_si512((const void *)idx), base, 4);
}
WIDE_INLINE wd wd_gather(const double *base, const uint32_t *idx)
{
    return _mm512_i32gather_pd(_mm256_loadu_si256((const void *)idx), base, 8);
}
#define XPBD_HAVE_SCATTER 1
WIDE_INLINE void wf_scatter(float *base, const uint32_t *idx, wf v, unsigned n)
{
    _mm512_mask_i32scatter_ps(base, (__mmask16)((1u << n) - 1u),
                              _mm512_loadu_si512((const void *)idx), v, 4);
}
WIDE_INLINE void wd_scatter(double *base, const uint32_t *idx, wd v, unsigned n)
{
    _mm512_mask_i32scatter_pd(base, (__mmask8)((1u << n) - 1u),
                              _mm256_loadu_si256((const void *)idx), v, 8);
}
#else
#define XPBD_GATHER_LANE_LOOP 1
#endif

#else
#  error "XPBD_WIDE_BITS must be 128, 256 or 512"
#endif

/* Portable gathers: one scalar load per lane through a small array. */
#if defined(XPBD_GATHER_LANE_LOOP)
WIDE_INLINE wf wf_gather(const float *base, const uint32_t *idx)
{
    float t[WF_LANES];
    for (int l = 0; l < WF_LANES; ++l) t[l] = base[idx[l]];
    return wf_load(t);
}
WIDE_INLINE wd wd_gather(const double *base, const uint32_t *idx)
{
    double t[WD_LANES];
    for (int l = 0; l < WD_LANES; ++l) t[l] = base[idx[l]];
    return wd_load(t);
}
#endif

/* Scatter of the first n lanes; lanes of one colour never share an index.
 * The vector goes to memory once and each lane is reloaded as a scalar: a
 * per-lane extract would put one shuffle per element on a single port, and
 * that, not arithmetic, bounds a distance kernel. The empty asm keeps the
 * compiler from turning the round trip back into extracts. A full vector
 * takes a constant-count loop (straight-line stores, no per-lane branch). */
#if !defined(XPBD_HAVE_SCATTER)
WIDE_INLINE void wf_scatter(float *base, const uint32_t *idx, wf v, unsigned n)
{
    float t[WF_LANES];
    wf_store(t, v);
    __asm__ volatile("" : : "r"(t) : "memory");
    if (n == WF_LANES) {
        for (unsigned l = 0; l < WF_LANES; ++l) base[idx[l]] = t[l];
    } else {
        for (unsigned l = 0; l < n; ++l) base[idx[l]] = t[l];
    }
}
WIDE_INLINE void wd_scatter(double *base, const uint32_t *idx, wd v, unsigned n)
{
    double t[WD_LANES];
    wd_store(t, v);
    __asm__ volatile("" : : "r"(t) : "memory");
    if (n == WD_LANES) {
        for (unsigned l = 0; l < WD_LANES; ++l) base[idx[l]] = t[l];
    } else {
        for (unsigned l = 0; l < n; ++l) base[idx[l]] = t[l];
    }
}
#endif

/* Scatter of the first n lanes of three vectors (x, y, z of the same
 * particles): one index load per lane serves all three arrays. */
WIDE_INLINE void wf_scatter3(float *bx, float *by, float *bz, const uint32_t *idx, wf vx, wf vy,
                             wf vz, unsigned n)
{
#if defined(XPBD_HAVE_SCATTER) && !defined(XPBD_SCATTER_VIA_MEMORY)
    wf_scatter(bx, idx, vx, n);
    wf_scatter(by, idx, vy, n);
    wf_scatter(bz, idx, vz, n);
#else
    float tx[WF_LANES], ty[WF_LANES], tz[WF_LANES];
    wf_store(tx, vx);
    wf_store(ty, vy);
    wf_store(tz, vz);
    __asm__ volatile("" : : "r"(tx), "r"(ty), "r"(tz) : "memory");
    if (n == WF_LANES) {
        for (unsigned l = 0; l < WF_LANES; ++l) {
            const uint32_t i = idx[l];
            bx[i] = tx[l];
            by[i] = ty[l];
            bz[i] = tz[l];
        }
    } else {
        for (unsigned l = 0; l < n; ++l) {
            const uint32_t i = idx[l];
            bx[i] = tx[l];
            by[i] = ty[l];
            bz[i] = tz[l];
        }
    }
#endif
}
WIDE_INLINE void wd_scatter3(double *bx, double *by, double *bz, const uint32_t *idx, wd vx, wd vy,
                             wd vz, unsigned n)
{
#if defined(XPBD_HAVE_SCATTER) && !defined(XPBD_SCATTER_VIA_MEMORY)
    wd_scatter(bx, idx, vx, n);
    wd_scatter(by, idx, vy, n);
    wd_scatter(bz, idx, vz, n);
#else
    double tx[WD_LANES], ty[WD_LANES], tz[WD_LANES];
    wd_store(tx, vx);
    wd_store(ty, vy);
    wd_store(tz, vz);
    __asm__ volatile("" : : "r"(tx), "r"(ty), "r"(tz) : "memory");
    if (n == WD_LANES) {
        for (unsigned l = 0; l < WD_LANES; ++l) {
            const uint32_t i = idx[l];
            bx[i] = tx[l];
            by[i] = ty[l];
            bz[i] = tz[l];
        }
    } else {
        for (unsigned l = 0; l < n; ++l) {
            const uint32_t i = idx[l];
            bx[i] = tx[l];
            by[i] = ty[l];
            bz[i] = tz[l];
        }
    }
#endif
}

/* ------------------------------------------------- packed (x, y, z, w) --- */
/* The step driver solves on a packed copy of the particles: x, y, z, w of
 * particle i at q[4*i .. 4*i + 3]. One 16-byte (float) or 32-byte (double)
 * load per endpoint and a 4x4 transpose replace four gathers, and one store
 * per endpoint replaces three scattered scalar stores: stores to distinct
 * cache lines commit at about one per cycle, so they bound the SoA kernel.
 *
 *   wX_load4t   lanes l of x, y, z, w  <-  q + 4*idx[l]
 *   wX_store4t  q + 4*idx[l]  <-  x, y, z, w of lane l, for l < n
 *
 * Lanes of one colour never share an index, so the stores never overlap. */

#if XPBD_WIDE_BITS == 128
WIDE_INLINE void wf_t4(wf *a, wf *b, wf *c, wf *d)
{
    const wf t0 = simde_mm_unpacklo_ps(*a, *b), t1 = simde_mm_unpackhi_ps(*a, *b);
    const wf t2 = simde_mm_unpacklo_ps(*c, *d), t3 = simde_mm_unpackhi_ps(*c, *d);
    *a = simde_mm_movelh_ps(t0, t2);
    *b = simde_mm_movehl_ps(t2, t0);
    *c = simde_mm_movelh_ps(t1, t3);
    *d = simde_mm_movehl_ps(t3, t1);
}
WIDE_INLINE void wf_load4t(const float *q, const uint32_t *idx, wf *x, wf *y, wf *z, wf *w)
{
    *x = simde_mm_loadu_ps(q + 4 * (size_t)idx[0]);
    *y = simde_mm_loadu_ps(q + 4 * (size_t)idx[1]);
    *z = simde_mm_loadu_ps(q + 4 * (size_t)idx[2]);
    *w = simde_mm_loadu_ps(q + 4 * (size_t)idx[3]);
    wf_t4(x, y, z, w);
}
WIDE_INLINE void wf_store4t(float *q, const uint32_t *idx, wf x, wf y, wf z, wf w, unsigned n)
{
    wf_t4(&x, &y, &z, &w);
    const wf r[4] = {x, y, z, w};
    for (unsigned l = 0; l < n; ++l) simde_mm_storeu_ps(q + 4 * (size_t)idx[l], r[l]);
}
WIDE_INLINE void wd_load4t(const double *q, const uint32_t *idx, wd *x, wd *y, wd *z, wd *w)
{
    const double *a = q + 4 * (size_t)idx[0], *b = q + 4 * (size_t)idx[1];
    const wd a01 = simde_mm_loadu_pd(a), a23 = simde_mm_loadu_pd(a + 2);
    const wd b01 = simde_mm_loadu_pd(b), b23 = simde_mm_loadu_pd(b + 2);
    *x = simde_mm_unpacklo_pd(a01, b01);
    *y = simde_mm_unpackhi_pd(a01, b01);
    *z = simde_mm_unpacklo_pd(a23, b23);
    *w = simde_mm_unpackhi_pd(a23, b23);
}
WIDE_INLINE void wd_store4t(double *q, const uint32_t *idx, wd x, wd y, wd z, wd w, unsigned n)
{
    double *a = q + 4 * (size_t)idx[0];
    simde_mm_storeu_pd(a, simde_mm_unpacklo_pd(x, y));
    simde_mm_storeu_pd(a + 2, simde_mm_unpacklo_pd(z, w));
    if (n > 1) {
        double *b = q + 4 * (size_t)idx[1];
        simde_mm_storeu_pd(b, simde_mm_unpackhi_pd(x, y));
        simde_mm_storeu_pd(b + 2, simde_mm_unpackhi_pd(z, w));
    }
}

#elif XPBD_WIDE_BITS == 256
/* rows k hold particle k in the low half and particle k + 4 in the high half;
 * the in-lane 4x4 transpose then yields lanes in order 0..7 */
WIDE_INLINE void wf_t4(wf *a, wf *b, wf *c, wf *d)
{
    const wf t0 = simde_mm256_unpacklo_ps(*a, *b), t1 = simde_mm256_unpackhi_ps(*a, *b);
    const wf t2 = simde_mm256_unpacklo_ps(*c, *d), t3 = simde_mm256_unpackhi_ps(*c, *d);
    *a = simde_mm256_shuffle_ps(t0, t2, 0x44);
    *b = simde_mm256_shuffle_ps(t0, t2, 0xEE);
    *c = simde_mm256_shuffle_ps(t1, t3, 0x44);
    *d = simde_mm256_shuffle_ps(t1, t3, 0xEE);
}
WIDE_INLINE void wf_load4t(const float *q, const uint32_t *idx, wf *x, wf *y, wf *z, wf *w)
{
    *x = simde_mm256_loadu2_m128(q + 4 * (size_t)idx[4], q + 4 * (size_t)idx[0]);
    *y = simde_mm256_loadu2_m128(q + 4 * (size_t)idx[5], q + 4 * (size_t)idx[1]);
    *z = simde_mm256_loadu2_m128(q + 4 * (size_t)idx[6], q + 4 * (size_t)idx[2]);
    *w = simde_mm256_loadu2_m128(q + 4 * (size_t)idx[7], q + 4 * (size_t)idx[3]);
    wf_t4(x, y, z, w);
}
WIDE_INLINE void wf_store4t(float *q, const uint32_t *idx, wf x, wf y, wf z, wf w, unsigned n)
{
    wf_t4(&x, &y, &z, &w);
    const wf r[4] = {x, y, z, w};
    if (n == 8) {
        for (unsigned k = 0; k < 4; ++k) {
            simde_mm_storeu_ps(q + 4 * (size_t)idx[k], simde_mm256_castps256_ps128(r[k]));
            simde_mm_storeu_ps(q + 4 * (size_t)idx[k + 4], simde_mm256_extractf128_ps(r[k], 1));
        }
        return;
    }
    for (unsigned k = 0; k < 4 && k < n; ++k)
        simde_mm_storeu_ps(q + 4 * (size_t)idx[k], simde_mm256_castps256_ps128(r[k]));
    for (unsigned k = 4; k < n; ++k)
        simde_mm_storeu_ps(q + 4 * (size_t)idx[k], simde_mm256_extractf128_ps(r[k - 4], 1));
}
WIDE_INLINE void wd_load4t(const double *q, const uint32_t *idx, wd *x, wd *y, wd *z, wd *w)
{
    const wd r0 = simde_mm256_loadu_pd(q + 4 * (size_t)idx[0]);
    const wd r1 = simde_mm256_loadu_pd(q + 4 * (size_t)idx[1]);
    const wd r2 = simde_mm256_loadu_pd(q + 4 * (size_t)idx[2]);
    const wd r3 = simde_mm256_loadu_pd(q + 4 * (size_t)idx[3]);
    const wd t0 = simde_mm256_unpacklo_pd(r0, r1), t1 = simde_mm256_unpackhi_pd(r0, r1);
    const wd t2 = simde_mm256_unpacklo_pd(r2, r3), t3 = simde_mm256_unpackhi_pd(r2, r3);
    *x = simde_mm256_permute2f128_pd(t0, t2, 0x20);
    *z = simde_mm256_permute2f128_pd(t0, t2, 0x31);
    *y = simde_mm256_permute2f128_pd(t1, t3, 0x20);
    *w = simde_mm256_permute2f128_pd(t1, t3, 0x31);
}
WIDE_INLINE void wd_store4t(double *q, const uint32_t *idx, wd x, wd y, wd z, wd w, unsigned n)
{
    const wd t0 = simde_mm256_permute2f128_pd(x, z, 0x20), t2 = simde_mm256_permute2f128_pd(x, z, 0x31);
    const wd t1 = simde_mm256_permute2f128_pd(y, w, 0x20), t3 = simde_mm256_permute2f128_pd(y, w, 0x31);
    const wd r[4] = {simde_mm256_unpacklo_pd(t0, t1), simde_mm256_unpackhi_pd(t0, t1),
                     simde_mm256_unpacklo_pd(t2, t3), simde_mm256_unpackhi_pd(t2, t3)};
    for (unsigned l = 0; l < n; ++l) simde_mm256_storeu_pd(q + 4 * (size_t)idx[l], r[l]);
}

#elif XPBD_WIDE_BITS == 512
/* rows k hold particles k, k + 4, k + 8, k + 12 in their four 128-bit lanes */
WIDE_INLINE void wf_t4(wf *a, wf *b, wf *c, wf *d)
{
    const wf t0 = simde_mm512_unpacklo_ps(*a, *b), t1 = simde_mm512_unpackhi_ps(*a, *b);
    const wf t2 = simde_mm512_unpacklo_ps(*c, *d), t3 = simde_mm512_unpackhi_ps(*c, *d);
    *a = simde_mm512_shuffle_ps(t0, t2, 0x44);
    *b = simde_mm512_shuffle_ps(t0, t2, 0xEE);
    *c = simde_mm512_shuffle_ps(t1, t3, 0x44);
    *d = simde_mm512_shuffle_ps(t1, t3, 0xEE);
}
WIDE_INLINE wf wf_row4(const float *q, const uint32_t *idx, unsigned k)
{
    wf r = simde_mm512_castps128_ps512(simde_mm_loadu_ps(q + 4 * (size_t)idx[k]));
    r = simde_mm512_insertf32x4(r, simde_mm_loadu_ps(q + 4 * (size_t)idx[k + 4]), 1);
    r = simde_mm512_insertf32x4(r, simde_mm_loadu_ps(q + 4 * (size_t)idx[k + 8]), 2);
    r = simde_mm512_insertf32x4(r, simde_mm_loadu_ps(q + 4 * (size_t)idx[k + 12]), 3);
    return r;
}
WIDE_INLINE void wf_load4t(const float *q, const uint32_t *idx, wf *x, wf *y, wf *z, wf *w)
{
    *x = wf_row4(q, idx, 0);
    *y = wf_row4(q, idx, 1);
    *z = wf_row4(q, idx, 2);
    *w = wf_row4(q, idx, 3);
    wf_t4(x, y, z, w);
}
WIDE_INLINE void wf_store_row4(float *q, const uint32_t *idx, wf row, unsigned k, unsigned n)
{
    /* lane j of row k is particle k + 4j */
    if (k < n) simde_mm_storeu_ps(q + 4 * (size_t)idx[k], simde_mm512_extractf32x4_ps(row, 0));
    if (k + 4 < n) simde_mm_storeu_ps(q + 4 * (size_t)idx[k + 4], simde_mm512_extractf32x4_ps(row, 1));
    if (k + 8 < n) simde_mm_storeu_ps(q + 4 * (size_t)idx[k + 8], simde_mm512_extractf32x4_ps(row, 2));
    if (k + 12 < n) simde_mm_storeu_ps(q + 4 * (size_t)idx[k + 12], simde_mm512_extractf32x4_ps(row, 3));
}
WIDE_INLINE void wf_store4t(float *q, const uint32_t *idx, wf x, wf y, wf z, wf w, unsigned n)
{
    wf_t4(&x, &y, &z, &w);
    wf_store_row4(q, idx, x, 0, n);
    wf_store_row4(q, idx, y, 1, n);
    wf_store_row4(q, idx, z, 2, n);
    wf_store_row4(q, idx, w, 3, n);
}
/* rows hold particles [0 | 2], [1 | 3], [4 | 6], [5 | 7] in their 256-bit
 * halves; the in-lane unpack then the 128-bit lane shuffles yield x..w in
 * lane order 0..7 */
WIDE_INLINE wd wd_row2(const double *q, const uint32_t *idx, unsigned lo, unsigned hi)
{
    return simde_mm512_insertf64x4(simde_mm512_castpd256_pd512(simde_mm256_loadu_pd(q + 4 * (size_t)idx[lo])),
                                   simde_mm256_loadu_pd(q + 4 * (size_t)idx[hi]), 1);
}
WIDE_INLINE void wd_load4t(const double *q, const uint32_t *idx, wd *x, wd *y, wd *z, wd *w)
{
    const wd r0 = wd_row2(q, idx, 0, 2), r1 = wd_row2(q, idx, 1, 3);
    const wd r2 = wd_row2(q, idx, 4, 6), r3 = wd_row2(q, idx, 5, 7);
    const wd t0 = simde_mm512_unpacklo_pd(r0, r1), t1 = simde_mm512_unpackhi_pd(r0, r1);
    const wd t2 = simde_mm512_unpacklo_pd(r2, r3), t3 = simde_mm512_unpackhi_pd(r2, r3);
    *x = simde_mm512_shuffle_f64x2(t0, t2, 0x88);
    *z = simde_mm512_shuffle_f64x2(t0, t2, 0xDD);
    *y = simde_mm512_shuffle_f64x2(t1, t3, 0x88);
    *w = simde_mm512_shuffle_f64x2(t1, t3, 0xDD);
}
WIDE_INLINE void wd_store4t(double *q, const uint32_t *idx, wd x, wd y, wd z, wd w, unsigned n)
{
    const wd u0 = simde_mm512_shuffle_f64x2(x, z, 0x44), u2 = simde_mm512_shuffle_f64x2(x, z, 0xEE);
    const wd u1 = simde_mm512_shuffle_f64x2(y, w, 0x44), u3 = simde_mm512_shuffle_f64x2(y, w, 0xEE);
    const wd t0 = simde_mm512_shuffle_f64x2(u0, u0, 0xD8), t2 = simde_mm512_shuffle_f64x2(u2, u2, 0xD8);
    const wd t1 = simde_mm512_shuffle_f64x2(u1, u1, 0xD8), t3 = simde_mm512_shuffle_f64x2(u3, u3, 0xD8);
    const wd r[4] = {simde_mm512_unpacklo_pd(t0, t1), simde_mm512_unpackhi_pd(t0, t1),
                     simde_mm512_unpacklo_pd(t2, t3), simde_mm512_unpackhi_pd(t2, t3)};
    /* particle j sits in row rowof[j], half halfof[j] */
    static const unsigned char rowof[8] = {0, 1, 0, 1, 2, 3, 2, 3};
    static const unsigned char halfof[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    if (n == 8) {
        for (unsigned j = 0; j < 8; ++j)
            simde_mm256_storeu_pd(q + 4 * (size_t)idx[j],
                                  halfof[j] ? simde_mm512_extractf64x4_pd(r[rowof[j]], 1)
                                            : simde_mm512_extractf64x4_pd(r[rowof[j]], 0));
        return;
    }
    for (unsigned j = 0; j < n; ++j)
        simde_mm256_storeu_pd(q + 4 * (size_t)idx[j],
                              halfof[j] ? simde_mm512_extractf64x4_pd(r[rowof[j]], 1)
                                        : simde_mm512_extractf64x4_pd(r[rowof[j]], 0));
}
#endif

/* ------------------------------------------------------------- runs --- */
/* A vector of pair slots whose particles come in runs of the packed copy
 * loads and stores whole 64-byte rows (4 particles each) instead of one
 * 16-byte row per particle. The slots' four groups of 4 lanes (0-3, 4-7,
 * 8-11, 12-15) each start anywhere; within every group:
 *
 *   wf_run_kind(ia, ib)  1, 3  ia[4g + m] = ia[4g] + m and ib[4g + m] = ib[4g] + m
 *                              (4 parallel edges: each endpoint one row)
 *                        2, 4  ia[4g + m] = ia[4g] + 2m and ib[4g + m] = ia[4g + m] + 1
 *                              (4 pairs side by side: 8 particles, two rows)
 *                        0     otherwise (the row-per-particle path)
 *                        1 or 2 where the groups also follow each other (a
 *                        run of 16 slots, its rows addressed from ia[0]
 *                        alone), 3 or 4 where they do not (each group's
 *                        rows from its own first index)
 *   wf_load_run / wf_store_run   kind 1 or 3, one endpoint, in run order:
 *                                lane j holds the particle of slot
 *                                wf_run_order's j (the rows transposed, no
 *                                lane moved)
 *   wf_run_order(v)              a vector of slot order in run order, and
 *                                back (the order is its own inverse)
 *   wf_load_run2 / wf_store_run2 kind 2 or 4, both endpoints, in slot order
 *
 * A layout that keeps a run's groups whole (the runs colouring option)
 * makes runs of a mesh's rows of any length. The maths is lane-wise, so
 * solving in run order with the slots' own data moved to run order (a
 * kernel moves rest, compliance and lambda: 4 permutes, not 16) is the
 * same lane for lane as the row path; no two slots of a colour share a
 * particle, so the rows never overlap. Only the 512-bit float path has
 * runs (XPBD_WIDE_RUNS); the others always take the row path. */
#if XPBD_WIDE_BITS == 512 && defined(SIMDE_X86_AVX512F_NATIVE)
#define XPBD_WIDE_RUNS 1
/* Each lane's index against the next lane's (next[l] = idx[l + 1] for l <
 * 15, read with a masked load: no shuffle, nothing past idx[15]): the
 * lanes l < 15 whose successor is idx[l] + d. */
WIDE_INLINE __mmask16 wf_steps(__m512i v, __m512i next, int d)
{
    return _mm512_mask_cmpeq_epi32_mask(0x7FFF, next, _mm512_add_epi32(v, _mm512_set1_epi32(d)));
}
WIDE_INLINE unsigned wf_run_kind(const uint32_t *ia, const uint32_t *ib)
{
    /* within the groups: lanes 0-2, 4-6, 8-10, 12-14; across them too: all */
    const __mmask16 in = 0x7777, all = 0x7FFF;
    const __m512i a = _mm512_loadu_si512((const void *)ia);
    const __m512i an = _mm512_maskz_loadu_epi32(all, ia + 1);
    const __mmask16 a1 = wf_steps(a, an, 1);
    if ((a1 & in) == in) {
        const __m512i b = _mm512_loadu_si512((const void *)ib);
        const __mmask16 b1 = wf_steps(b, _mm512_maskz_loadu_epi32(all, ib + 1), 1);
        if ((b1 & in) != in)
            return 0;
        return a1 == all && b1 == all ? 1 : 3;
    }
    const __mmask16 a2 = wf_steps(a, an, 2);
    if ((a2 & in) == in &&
        _mm512_cmpeq_epi32_mask(_mm512_loadu_si512((const void *)ib),
                                _mm512_add_epi32(a, _mm512_set1_epi32(1))) == 0xFFFF)
        return a2 == all ? 2 : 4;
    return 0;
}
/* Four rows of 4 particles each (row k: particles 4k .. 4k + 3) through
 * wf_t4 leave particle 4k + m in lane 4m + k; tpos is that lane for
 * particle p of a 16-particle block, and its own inverse. */
WIDE_INLINE __m512i wf_tpos(void)
{
    return _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
}
/* the rows of particles r[0] .. r[0] + 3, ..., r[3] .. r[3] + 3 */
WIDE_INLINE void wf_rows4(const float *q, const size_t r[4], wf *x, wf *y, wf *z, wf *w)
{
    *x = _mm512_loadu_ps(q + 4 * r[0]);
    *y = _mm512_loadu_ps(q + 4 * r[1]);
    *z = _mm512_loadu_ps(q + 4 * r[2]);
    *w = _mm512_loadu_ps(q + 4 * r[3]);
    wf_t4(x, y, z, w);
}
WIDE_INLINE void wf_store_rows4(float *q, const size_t r[4], wf x, wf y, wf z, wf w)
{
    wf_t4(&x, &y, &z, &w);
    _mm512_storeu_ps(q + 4 * r[0], x);
    _mm512_storeu_ps(q + 4 * r[1], y);
    _mm512_storeu_ps(q + 4 * r[2], z);
    _mm512_storeu_ps(q + 4 * r[3], w);
}
/* the rows of kind 3 (one per group) and of 16 consecutive particles */
WIDE_INLINE void wf_group_rows(const uint32_t *ia, size_t r[4])
{
    for (unsigned g = 0; g < 4; ++g)
        r[g] = ia[4 * g];
}
WIDE_INLINE void wf_consecutive_rows(size_t first, size_t r[4])
{
    for (unsigned g = 0; g < 4; ++g)
        r[g] = first + 4 * g;
}
WIDE_INLINE wf wf_run_order(wf v)
{
    return _mm512_permutexvar_ps(wf_tpos(), v);
}
/* each kind with a call of its own: a run of 16 addresses its rows from
 * ia[0] alone, with nothing of the groups' addressing on its path (one
 * call on rows chosen per kind costs more kernel time with runs: compare
 * the shear rows of `xpbd-bench --cloth-only` on avx512) */
WIDE_INLINE void wf_load_run(const float *q, const uint32_t *ia, unsigned kind, wf *x, wf *y,
                             wf *z, wf *w)
{
    size_t r[4];
    if (kind == 1) {
        wf_consecutive_rows(ia[0], r);
        wf_rows4(q, r, x, y, z, w);
    } else {
        wf_group_rows(ia, r);
        wf_rows4(q, r, x, y, z, w);
    }
}
WIDE_INLINE void wf_store_run(float *q, const uint32_t *ia, unsigned kind, wf x, wf y, wf z,
                              wf w)
{
    size_t r[4];
    if (kind == 1) {
        wf_consecutive_rows(ia[0], r);
        wf_store_rows4(q, r, x, y, z, w);
    } else {
        wf_group_rows(ia, r);
        wf_store_rows4(q, r, x, y, z, w);
    }
}
/* Kind 2: groups 0 and 1 give the 16 particles of lo (rows ia[0],
 * ia[0] + 4, ia[4], ia[4] + 4), groups 2 and 3 those of hi; particle p of
 * [lo | hi] (p = 0..31, 8 per group) sits at tpos in its block; slot l
 * takes particle 2l (a) and 2l + 1 (b). pick2: lane l is where particle
 * 2l (0) or 2l + 1 (1) sits in [lo | hi]; put2(j): lane 4m + k of block j
 * (particle p = 16j + 4k + m) comes from a's lane p >> 1 if p is even,
 * else from b's (index + 16). */
WIDE_INLINE __m512i wf_pick2(int odd)
{
    return odd ? _mm512_set_epi32(31, 23, 30, 22, 29, 21, 28, 20, 15, 7, 14, 6, 13, 5, 12, 4)
               : _mm512_set_epi32(27, 19, 26, 18, 25, 17, 24, 16, 11, 3, 10, 2, 9, 1, 8, 0);
}
WIDE_INLINE __m512i wf_put2(unsigned block)
{
    return block ? _mm512_set_epi32(31, 29, 27, 25, 15, 13, 11, 9, 30, 28, 26, 24, 14, 12, 10, 8)
                 : _mm512_set_epi32(23, 21, 19, 17, 7, 5, 3, 1, 22, 20, 18, 16, 6, 4, 2, 0);
}
WIDE_INLINE void wf_run2_rows(const uint32_t *ia, unsigned kind, unsigned block, size_t r[4])
{
    const size_t g0 = kind == 2 ? ia[0] + 16 * (size_t)block : ia[8 * block];
    const size_t g1 = kind == 2 ? g0 + 8 : ia[8 * block + 4];
    r[0] = g0;
    r[1] = g0 + 4;
    r[2] = g1;
    r[3] = g1 + 4;
}
WIDE_INLINE void wf_load_run2(const float *q, const uint32_t *ia, unsigned kind, wf a[4],
                              wf b[4])
{
    wf lo[4], hi[4];
    size_t r[4];
    wf_run2_rows(ia, kind, 0, r);
    wf_rows4(q, r, &lo[0], &lo[1], &lo[2], &lo[3]);
    wf_run2_rows(ia, kind, 1, r);
    wf_rows4(q, r, &hi[0], &hi[1], &hi[2], &hi[3]);
    const __m512i pa = wf_pick2(0), pb = wf_pick2(1);
    for (unsigned k = 0; k < 4; ++k) {
        a[k] = _mm512_permutex2var_ps(lo[k], pa, hi[k]);
        b[k] = _mm512_permutex2var_ps(lo[k], pb, hi[k]);
    }
}
WIDE_INLINE void wf_store_run2(float *q, const uint32_t *ia, unsigned kind, const wf a[4],
                               const wf b[4])
{
    const __m512i p0 = wf_put2(0), p1 = wf_put2(1);
    wf lo[4], hi[4];
    for (unsigned k = 0; k < 4; ++k) {
        lo[k] = _mm512_permutex2var_ps(a[k], p0, b[k]);
        hi[k] = _mm512_permutex2var_ps(a[k], p1, b[k]);
    }
    size_t r[4];
    wf_run2_rows(ia, kind, 0, r);
    wf_store_rows4(q, r, lo[0], lo[1], lo[2], lo[3]);
    wf_run2_rows(ia, kind, 1, r);
    wf_store_rows4(q, r, hi[0], hi[1], hi[2], hi[3]);
}
#endif

/* store3t: the store of a kernel that moved particles but not their
 * inverse masses: x, y, z of lane l to q + 4*idx[l], w being the lane's
 * own (unchanged) w. A vector backend stores whole rows, w included; the
 * one-lane backend (one.h) stores the three coordinates only. */
WIDE_INLINE void wf_store3t(float *q, const uint32_t *idx, wf x, wf y, wf z, wf w, unsigned n)
{
    wf_store4t(q, idx, x, y, z, w, n);
}
WIDE_INLINE void wd_store3t(double *q, const uint32_t *idx, wd x, wd y, wd z, wd w, unsigned n)
{
    wd_store4t(q, idx, x, y, z, w, n);
}

/* load4c / store4c: load4t / store4t of the whole vector of consecutive
 * particles first, first + 1, ... (the particle passes); the 512-bit float
 * path moves them as whole rows (as a run of kind 1, in slot order). */
WIDE_INLINE void wide_consecutive(uint32_t *idx, size_t first, unsigned lanes)
{
    for (unsigned l = 0; l < lanes; ++l)
        idx[l] = (uint32_t)(first + l);
}
WIDE_INLINE void wf_load4c(const float *q, size_t first, wf *x, wf *y, wf *z, wf *w)
{
#if defined(XPBD_WIDE_RUNS)
    size_t r[4];
    wf_consecutive_rows(first, r);
    wf_rows4(q, r, x, y, z, w);
    *x = wf_run_order(*x);
    *y = wf_run_order(*y);
    *z = wf_run_order(*z);
    *w = wf_run_order(*w);
#else
    uint32_t idx[WF_LANES];
    wide_consecutive(idx, first, WF_LANES);
    wf_load4t(q, idx, x, y, z, w);
#endif
}
WIDE_INLINE void wf_store4c(float *q, size_t first, wf x, wf y, wf z, wf w)
{
#if defined(XPBD_WIDE_RUNS)
    size_t r[4];
    wf_consecutive_rows(first, r);
    wf_store_rows4(q, r, wf_run_order(x), wf_run_order(y), wf_run_order(z), wf_run_order(w));
#else
    uint32_t idx[WF_LANES];
    wide_consecutive(idx, first, WF_LANES);
    wf_store4t(q, idx, x, y, z, w, WF_LANES);
#endif
}
WIDE_INLINE void wd_load4c(const double *q, size_t first, wd *x, wd *y, wd *z, wd *w)
{
    uint32_t idx[WD_LANES];
    wide_consecutive(idx, first, WD_LANES);
    wd_load4t(q, idx, x, y, z, w);
}
WIDE_INLINE void wd_store4c(double *q, size_t first, wd x, wd y, wd z, wd w)
{
    uint32_t idx[WD_LANES];
    wide_consecutive(idx, first, WD_LANES);
    wd_store4t(q, idx, x, y, z, w, WD_LANES);
}

#endif /* XPBD_WIDE_H */
