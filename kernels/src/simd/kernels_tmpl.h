/* SIMD kernels, written once against wide.h and instantiated for float (wf)
 * and double (wd). Each performs the operations of the scalar reference
 * (elem_tmpl.h) in the same order, lane-wise; lanes that the reference would
 * skip keep their old values through select. Whole vectors of padding are
 * not visited; within a vector, lanes past the colour's real end are never
 * stored (scatter of the first n lanes). */
#include "real_begin.h"
#include "elem_tmpl.h"

#include "simd/lanes_begin.h"

static void SIMD(predict)(const P *p, size_t begin, size_t end, R h, R gx, R gy, R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    const V vh = O(set1)(h), vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    const V zero = O(zero)();
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const M dyn = O(gt)(O(load)(p->w + i), zero);
        const V vx = O(select)(dyn, O(add)(O(load)(p->vx + i), vgx), O(load)(p->vx + i));
        const V vy = O(select)(dyn, O(add)(O(load)(p->vy + i), vgy), O(load)(p->vy + i));
        const V vz = O(select)(dyn, O(add)(O(load)(p->vz + i), vgz), O(load)(p->vz + i));
        const V x = O(load)(p->x + i), y = O(load)(p->y + i), z = O(load)(p->z + i);
        O(store)(p->vx + i, vx);
        O(store)(p->vy + i, vy);
        O(store)(p->vz + i, vz);
        O(store)(p->px + i, x);
        O(store)(p->py + i, y);
        O(store)(p->pz + i, z);
        O(store)(p->x + i, O(add)(x, O(mul)(vx, vh)));
        O(store)(p->y + i, O(add)(y, O(mul)(vy, vh)));
        O(store)(p->z + i, O(add)(z, O(mul)(vz, vh)));
    }
    for (; i < end; ++i)
        SFX(elem_predict)(p, i, h, gxh, gyh, gzh);
}

static void SIMD(velocity)(const P *p, size_t begin, size_t end, R h, R keep)
{
    const R ih = 1 / h;
    const V vih = O(set1)(ih), vk = O(set1)(keep);
    size_t i = begin;
    for (; i + L <= end; i += L) {
        O(store)(p->vx + i, O(mul)(O(mul)(O(sub)(O(load)(p->x + i), O(load)(p->px + i)), vih), vk));
        O(store)(p->vy + i, O(mul)(O(mul)(O(sub)(O(load)(p->y + i), O(load)(p->py + i)), vih), vk));
        O(store)(p->vz + i, O(mul)(O(mul)(O(sub)(O(load)(p->z + i), O(load)(p->pz + i)), vih), vk));
    }
    for (; i < end; ++i)
        SFX(elem_velocity)(p, i, ih, keep);
}

/* predict followed by pack, in one pass over the particles */
static void SIMD(predict_pack)(const P *p, R *pk, size_t begin, size_t end, R h, R gx, R gy, R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    const V vh = O(set1)(h), vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    const V zero = O(zero)();
    uint32_t idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const V w = O(load)(p->w + i);
        const M dyn = O(gt)(w, zero);
        const V vx = O(select)(dyn, O(add)(O(load)(p->vx + i), vgx), O(load)(p->vx + i));
        const V vy = O(select)(dyn, O(add)(O(load)(p->vy + i), vgy), O(load)(p->vy + i));
        const V vz = O(select)(dyn, O(add)(O(load)(p->vz + i), vgz), O(load)(p->vz + i));
        const V x = O(load)(p->x + i), y = O(load)(p->y + i), z = O(load)(p->z + i);
        const V nx = O(add)(x, O(mul)(vx, vh)), ny = O(add)(y, O(mul)(vy, vh));
        const V nz = O(add)(z, O(mul)(vz, vh));
        O(store)(p->vx + i, vx);
        O(store)(p->vy + i, vy);
        O(store)(p->vz + i, vz);
        O(store)(p->px + i, x);
        O(store)(p->py + i, y);
        O(store)(p->pz + i, z);
        O(store)(p->x + i, nx);
        O(store)(p->y + i, ny);
        O(store)(p->z + i, nz);
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        O(store4t)(pk, idx, nx, ny, nz, w, L);
    }
    for (; i < end; ++i) {
        SFX(elem_predict)(p, i, h, gxh, gyh, gzh);
        SFX(elem_pack)(p, pk, i);
    }
}

/* unpack followed by the velocity update, in one pass */
static void SIMD(unpack_velocity)(const R *pk, const P *p, size_t begin, size_t end, R h, R keep)
{
    const R ih = 1 / h;
    const V vih = O(set1)(ih), vk = O(set1)(keep);
    uint32_t idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        V x, y, z, w;
        O(load4t)(pk, idx, &x, &y, &z, &w);
        O(store)(p->x + i, x);
        O(store)(p->y + i, y);
        O(store)(p->z + i, z);
        O(store)(p->vx + i, O(mul)(O(mul)(O(sub)(x, O(load)(p->px + i)), vih), vk));
        O(store)(p->vy + i, O(mul)(O(mul)(O(sub)(y, O(load)(p->py + i)), vih), vk));
        O(store)(p->vz + i, O(mul)(O(mul)(O(sub)(z, O(load)(p->pz + i)), vih), vk));
    }
    for (; i < end; ++i) {
        SFX(elem_unpack)(pk, p, i);
        SFX(elem_velocity)(p, i, ih, keep);
    }
}

static void SIMD(spring_integrate)(const P *p, R *fx, R *fy, R *fz, size_t begin, size_t end,
                                   R h, R gx, R gy, R gz)
{
    const V vh = O(set1)(h), vgx = O(set1)(gx), vgy = O(set1)(gy), vgz = O(set1)(gz);
    const V zero = O(zero)();
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const V w = O(load)(p->w + i);
        const M dyn = O(gt)(w, zero);
        V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
        vx = O(select)(dyn, O(add)(vx, O(mul)(O(add)(O(mul)(O(load)(fx + i), w), vgx), vh)), vx);
        vy = O(select)(dyn, O(add)(vy, O(mul)(O(add)(O(mul)(O(load)(fy + i), w), vgy), vh)), vy);
        vz = O(select)(dyn, O(add)(vz, O(mul)(O(add)(O(mul)(O(load)(fz + i), w), vgz), vh)), vz);
        const V x = O(load)(p->x + i), y = O(load)(p->y + i), z = O(load)(p->z + i);
        O(store)(p->vx + i, vx);
        O(store)(p->vy + i, vy);
        O(store)(p->vz + i, vz);
        O(store)(p->px + i, x);
        O(store)(p->py + i, y);
        O(store)(p->pz + i, z);
        O(store)(p->x + i, O(add)(x, O(mul)(vx, vh)));
        O(store)(p->y + i, O(add)(y, O(mul)(vy, vh)));
        O(store)(p->z + i, O(add)(z, O(mul)(vz, vh)));
        O(store)(fx + i, zero);
        O(store)(fy + i, zero);
        O(store)(fz + i, zero);
    }
    for (; i < end; ++i)
        SFX(elem_spring_integrate)(p, fx, fy, fz, i, h, gx, gy, gz);
}

/* Lanes [0, n) of a vector are real constraints. */
static inline uint32_t SIMD(count_skipped)(M ok, unsigned n)
{
    const unsigned live = O(bits)(ok) & ((1u << n) - 1u);
    return n - (uint32_t)__builtin_popcount(live);
}

/* Both endpoints of L slots: positions, inverse masses, then d and |d|.
 * Loaded either by gathers from the caller's SoA arrays or by transposed
 * loads from the packed copy; the maths below is the same for both. */
typedef struct SIMD(pair) {
    V xa, ya, za, wa, xb, yb, zb, wb, dx, dy, dz, len;
} SIMD(pair);

static inline __attribute__((always_inline)) void SIMD(geometry)(SIMD(pair) *q)
{
    q->dx = O(sub)(q->xb, q->xa);
    q->dy = O(sub)(q->yb, q->ya);
    q->dz = O(sub)(q->zb, q->za);
    q->len = O(sqrt)(O(add)(O(add)(O(mul)(q->dx, q->dx), O(mul)(q->dy, q->dy)),
                            O(mul)(q->dz, q->dz)));
}

static inline __attribute__((always_inline)) void SIMD(gather_pair)(SIMD(pair) *q, const P *p,
                                                                    const uint32_t *ia,
                                                                    const uint32_t *ib)
{
    q->xa = O(gather)(p->x, ia);
    q->ya = O(gather)(p->y, ia);
    q->za = O(gather)(p->z, ia);
    q->xb = O(gather)(p->x, ib);
    q->yb = O(gather)(p->y, ib);
    q->zb = O(gather)(p->z, ib);
    q->wa = O(gather)(p->w, ia);
    q->wb = O(gather)(p->w, ib);
    SIMD(geometry)(q);
}

static inline __attribute__((always_inline)) void SIMD(load_packed_pair)(SIMD(pair) *q,
                                                                         const R *pk,
                                                                         const uint32_t *ia,
                                                                         const uint32_t *ib)
{
    O(load4t)(pk, ia, &q->xa, &q->ya, &q->za, &q->wa);
    O(load4t)(pk, ib, &q->xb, &q->yb, &q->zb, &q->wb);
    SIMD(geometry)(q);
}

/* x0 -= (w0*st)*d; x1 += (w1*st)*d on the lanes in ok (in place). */
static inline __attribute__((always_inline)) void SIMD(move_pair)(SIMD(pair) *q, M ok, V st)
{
    const V c0 = O(mul)(q->wa, st), c1 = O(mul)(q->wb, st);
    q->xa = O(select)(ok, O(sub)(q->xa, O(mul)(c0, q->dx)), q->xa);
    q->ya = O(select)(ok, O(sub)(q->ya, O(mul)(c0, q->dy)), q->ya);
    q->za = O(select)(ok, O(sub)(q->za, O(mul)(c0, q->dz)), q->za);
    q->xb = O(select)(ok, O(add)(q->xb, O(mul)(c1, q->dx)), q->xb);
    q->yb = O(select)(ok, O(add)(q->yb, O(mul)(c1, q->dy)), q->yb);
    q->zb = O(select)(ok, O(add)(q->zb, O(mul)(c1, q->dz)), q->zb);
}

/* XPBD step of elem_xpbd_core on L slots starting at s; returns the mask of
 * lanes that were solved. */
static inline __attribute__((always_inline)) M SIMD(xpbd_lanes)(SIMD(pair) *q, const DS *c,
                                                                uint32_t s, V vih2)
{
    const V zero = O(zero)();
    const V wsum = O(add)(q->wa, q->wb);
    const M ok = O(mand)(O(gt)(q->len, zero), O(gt)(wsum, zero));
    const V C = O(sub)(q->len, O(load)(c->rest + s));
    const V at = O(mul)(O(load)(c->compliance + s), vih2);
    const V den = O(add)(wsum, at);
    const V lam = O(load)(c->lambda + s);
    const V st = O(div)(O(sub)(O(neg)(C), O(mul)(at, lam)), O(mul)(den, q->len));
    SIMD(move_pair)(q, ok, st);
    O(store)(c->lambda + s, O(select)(ok, O(add)(lam, O(mul)(st, q->len)), lam));
    return ok;
}

/* PBD step of elem_pbd_core on L slots starting at s. */
static inline __attribute__((always_inline)) M SIMD(pbd_lanes)(SIMD(pair) *q, const DS *c,
                                                               uint32_t s, V vk)
{
    const V zero = O(zero)();
    const V wsum = O(add)(q->wa, q->wb);
    const M ok = O(mand)(O(gt)(q->len, zero), O(gt)(wsum, zero));
    const V C = O(sub)(q->len, O(load)(c->rest + s));
    const V st = O(div)(O(neg)(O(mul)(vk, C)), O(mul)(wsum, q->len));
    SIMD(move_pair)(q, ok, st);
    return ok;
}

static inline __attribute__((always_inline)) void SIMD(scatter_pair)(const SIMD(pair) *q,
                                                                     const P *p,
                                                                     const uint32_t *ia,
                                                                     const uint32_t *ib,
                                                                     unsigned n)
{
    O(scatter3)(p->x, p->y, p->z, ia, q->xa, q->ya, q->za, n);
    O(scatter3)(p->x, p->y, p->z, ib, q->xb, q->yb, q->zb, n);
}

static inline __attribute__((always_inline)) void SIMD(store_packed_pair)(const SIMD(pair) *q,
                                                                          R *pk,
                                                                          const uint32_t *ia,
                                                                          const uint32_t *ib,
                                                                          unsigned n)
{
    O(store4t)(pk, ia, q->xa, q->ya, q->za, q->wa, n);
    O(store4t)(pk, ib, q->xb, q->yb, q->zb, q->wb, n);
}


static uint32_t SIMD(distance_xpbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                    uint32_t b1, R h)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(pair) q;
        SIMD(gather_pair)(&q, p, c->i0 + s, c->i1 + s);
        const M ok = SIMD(xpbd_lanes)(&q, c, s, vih2);
        SIMD(scatter_pair)(&q, p, c->i0 + s, c->i1 + s, n);
        skipped += SIMD(count_skipped)(ok, n);
    }
    return skipped;
}

static uint32_t SIMD(distance_xpbd_packed)(R *pk, const DS *c, uint32_t colour, uint32_t b0,
                                           uint32_t b1, R h)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(pair) q;
        SIMD(load_packed_pair)(&q, pk, c->i0 + s, c->i1 + s);
        const M ok = SIMD(xpbd_lanes)(&q, c, s, vih2);
        SIMD(store_packed_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
        skipped += SIMD(count_skipped)(ok, n);
    }
    return skipped;
}

static uint32_t SIMD(distance_pbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                   uint32_t b1, R k)
{
    const V vk = O(set1)(k);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(pair) q;
        SIMD(gather_pair)(&q, p, c->i0 + s, c->i1 + s);
        const M ok = SIMD(pbd_lanes)(&q, c, s, vk);
        SIMD(scatter_pair)(&q, p, c->i0 + s, c->i1 + s, n);
        skipped += SIMD(count_skipped)(ok, n);
    }
    return skipped;
}

static uint32_t SIMD(distance_pbd_packed)(R *pk, const DS *c, uint32_t colour, uint32_t b0,
                                          uint32_t b1, R k)
{
    const V vk = O(set1)(k);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(pair) q;
        SIMD(load_packed_pair)(&q, pk, c->i0 + s, c->i1 + s);
        const M ok = SIMD(pbd_lanes)(&q, c, s, vk);
        SIMD(store_packed_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
        skipped += SIMD(count_skipped)(ok, n);
    }
    return skipped;
}

/* SoA -> packed and back: transposes through the same load4t/store4t on
 * consecutive indices. */
static void SIMD(pack)(const P *p, R *pk, size_t begin, size_t end)
{
    uint32_t idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        O(store4t)(pk, idx, O(load)(p->x + i), O(load)(p->y + i), O(load)(p->z + i),
                   O(load)(p->w + i), L);
    }
    for (; i < end; ++i)
        SFX(elem_pack)(p, pk, i);
}

static void SIMD(unpack)(const R *pk, const P *p, size_t begin, size_t end)
{
    uint32_t idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        V x, y, z, w;
        O(load4t)(pk, idx, &x, &y, &z, &w);
        O(store)(p->x + i, x);
        O(store)(p->y + i, y);
        O(store)(p->z + i, z);
    }
    for (; i < end; ++i)
        SFX(elem_unpack)(pk, p, i);
}

static uint32_t SIMD(spring_forces)(const P *p, const DS *c, R *fx, R *fy, R *fz,
                                    uint32_t colour, uint32_t b0, uint32_t b1, R damping)
{
    const V vd = O(set1)(damping), zero = O(zero)();
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const uint32_t *ia = c->i0 + s, *ib = c->i1 + s;
        const V dx = O(sub)(O(gather)(p->x, ib), O(gather)(p->x, ia));
        const V dy = O(sub)(O(gather)(p->y, ib), O(gather)(p->y, ia));
        const V dz = O(sub)(O(gather)(p->z, ib), O(gather)(p->z, ia));
        const V len = O(sqrt)(O(add)(O(add)(O(mul)(dx, dx), O(mul)(dy, dy)), O(mul)(dz, dz)));
        const M ok = O(gt)(len, zero);
        const V nx = O(div)(dx, len), ny = O(div)(dy, len), nz = O(div)(dz, len);
        const V rvx = O(sub)(O(gather)(p->vx, ib), O(gather)(p->vx, ia));
        const V rvy = O(sub)(O(gather)(p->vy, ib), O(gather)(p->vy, ia));
        const V rvz = O(sub)(O(gather)(p->vz, ib), O(gather)(p->vz, ia));
        const V rv = O(add)(O(add)(O(mul)(rvx, nx), O(mul)(rvy, ny)), O(mul)(rvz, nz));
        const V sf = O(add)(O(div)(O(sub)(len, O(load)(c->rest + s)), O(load)(c->compliance + s)),
                            O(mul)(vd, rv));
        const V sx = O(mul)(sf, nx), sy = O(mul)(sf, ny), sz = O(mul)(sf, nz);
        const V fxa = O(gather)(fx, ia), fya = O(gather)(fy, ia), fza = O(gather)(fz, ia);
        const V fxb = O(gather)(fx, ib), fyb = O(gather)(fy, ib), fzb = O(gather)(fz, ib);
        O(scatter)(fx, ia, O(select)(ok, O(add)(fxa, sx), fxa), n);
        O(scatter)(fy, ia, O(select)(ok, O(add)(fya, sy), fya), n);
        O(scatter)(fz, ia, O(select)(ok, O(add)(fza, sz), fza), n);
        O(scatter)(fx, ib, O(select)(ok, O(sub)(fxb, sx), fxb), n);
        O(scatter)(fy, ib, O(select)(ok, O(sub)(fyb, sy), fyb), n);
        O(scatter)(fz, ib, O(select)(ok, O(sub)(fzb, sz), fzb), n);
        skipped += SIMD(count_skipped)(ok, n);
    }
    return skipped;
}

static R SIMD(residual)(const P *p, const DS *c, uint32_t colour, uint32_t b0, uint32_t b1, R h,
                        R *out)
{
    const R ih2 = 1 / (h * h);
    const V vih2 = O(set1)(ih2), zero = O(zero)();
    V vmax = zero;
    if (out) /* padding slots report 0, like the reference */
        for (uint32_t s = c->colour_begin[colour] + b0 * XPBD_BATCH;
             s < c->colour_begin[colour] + b1 * XPBD_BATCH; ++s)
            out[s] = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const uint32_t *ia = c->i0 + s, *ib = c->i1 + s;
        const V dx = O(sub)(O(gather)(p->x, ib), O(gather)(p->x, ia));
        const V dy = O(sub)(O(gather)(p->y, ib), O(gather)(p->y, ia));
        const V dz = O(sub)(O(gather)(p->z, ib), O(gather)(p->z, ia));
        const V len = O(sqrt)(O(add)(O(add)(O(mul)(dx, dx), O(mul)(dy, dy)), O(mul)(dz, dz)));
        const V wsum = O(add)(O(gather)(p->w, ia), O(gather)(p->w, ib));
        const M ok = O(mand)(O(gt)(len, zero), O(gt)(wsum, zero));
        const V at = O(mul)(O(load)(c->compliance + s), vih2);
        const V r = O(select)(ok, O(add)(O(sub)(len, O(load)(c->rest + s)),
                                         O(mul)(at, O(load)(c->lambda + s))), zero);
        if (out) {
            R t[L];
            O(store)(t, r);
            for (unsigned l = 0; l < n; ++l) out[s + l] = t[l];
        }
        const V a = O(abs)(r);
        /* lanes past n are padding: |r| = 0 there (len == 0) */
        vmax = O(select)(O(gt)(a, vmax), a, vmax);
    }
    R t[L];
    O(store)(t, vmax);
    R m = 0;
    for (int l = 0; l < L; ++l)
        if (t[l] > m)
            m = t[l];
    return m;
}

static R SIMD(kinetic_energy)(const P *p, size_t begin, size_t end)
{
    V acc[16 / L];
    for (int k = 0; k < 16 / L; ++k) acc[k] = O(zero)();
    const V zero = O(zero)();
    size_t i = begin;
    for (; i + 16 <= end; i += 16)
        for (int k = 0; k < 16 / L; ++k) {
            const size_t j = i + (size_t)k * L;
            const V w = O(load)(p->w + j);
            const V vx = O(load)(p->vx + j), vy = O(load)(p->vy + j), vz = O(load)(p->vz + j);
            const V e = O(div)(O(add)(O(add)(O(mul)(vx, vx), O(mul)(vy, vy)), O(mul)(vz, vz)), w);
            acc[k] = O(add)(acc[k], O(select)(O(gt)(w, zero), e, zero));
        }
    R a[16];
    for (int k = 0; k < 16 / L; ++k) O(store)(a + k * L, acc[k]);
    for (; i < end; ++i) {
        const size_t j = (i - begin) % 16;
        a[j] = a[j] + SFX(elem_kinetic)(p, i);
    }
    return SFX(elem_tree16)(a) * (R)0.5;
}

static void SIMD(momentum)(const P *p, size_t begin, size_t end, R out[3])
{
    V ax[16 / L], ay[16 / L], az[16 / L];
    for (int k = 0; k < 16 / L; ++k) ax[k] = ay[k] = az[k] = O(zero)();
    const V zero = O(zero)();
    size_t i = begin;
    for (; i + 16 <= end; i += 16)
        for (int k = 0; k < 16 / L; ++k) {
            const size_t j = i + (size_t)k * L;
            const V w = O(load)(p->w + j);
            const M dyn = O(gt)(w, zero);
            ax[k] = O(add)(ax[k], O(select)(dyn, O(div)(O(load)(p->vx + j), w), zero));
            ay[k] = O(add)(ay[k], O(select)(dyn, O(div)(O(load)(p->vy + j), w), zero));
            az[k] = O(add)(az[k], O(select)(dyn, O(div)(O(load)(p->vz + j), w), zero));
        }
    R sx[16], sy[16], sz[16];
    for (int k = 0; k < 16 / L; ++k) {
        O(store)(sx + k * L, ax[k]);
        O(store)(sy + k * L, ay[k]);
        O(store)(sz + k * L, az[k]);
    }
    for (; i < end; ++i) {
        const size_t j = (i - begin) % 16;
        const R w = p->w[i];
        if (w > 0) {
            sx[j] = sx[j] + p->vx[i] / w;
            sy[j] = sy[j] + p->vy[i] / w;
            sz[j] = sz[j] + p->vz[i] / w;
        }
    }
    out[0] = SFX(elem_tree16)(sx);
    out[1] = SFX(elem_tree16)(sy);
    out[2] = SFX(elem_tree16)(sz);
}

const SFX(xpbd_kernels) SIMD(table) = {
    XPBD_SIMD_ISA,
    L,
    SIMD(predict),
    SIMD(velocity),
    SIMD(spring_integrate),
    SIMD(distance_pbd),
    SIMD(distance_xpbd),
    SIMD(spring_forces),
    SIMD(residual),
    SIMD(kinetic_energy),
    SIMD(momentum),
    SIMD(pack),
    SIMD(unpack),
    SIMD(distance_pbd_packed),
    SIMD(distance_xpbd_packed),
    SIMD(predict_pack),
    SIMD(unpack_velocity),
};

#include "simd/lanes_end.h"
#include "real_end.h"
