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

#endif /* XPBD_WIDE_H */
