/* SIMD soft-body kernels (xpbd/softbody.h) on the packed copy q; the same
 * operations in the same order as softbody_elem_tmpl.h. */
#include "real_begin.h"
#include "softbody_elem_tmpl.h"

#include "simd/lanes_begin.h"

typedef struct SIMD(quad) {
    V x[4], y[4], z[4], w[4];
} SIMD(quad);

static inline __attribute__((always_inline)) void SIMD(load_quad)(SIMD(quad) *t, const R *q,
                                                                  const QS *c, uint32_t s)
{
    O(load4t)(q, c->i0 + s, &t->x[0], &t->y[0], &t->z[0], &t->w[0]);
    O(load4t)(q, c->i1 + s, &t->x[1], &t->y[1], &t->z[1], &t->w[1]);
    O(load4t)(q, c->i2 + s, &t->x[2], &t->y[2], &t->z[2], &t->w[2]);
    O(load4t)(q, c->i3 + s, &t->x[3], &t->y[3], &t->z[3], &t->w[3]);
}

static inline __attribute__((always_inline)) void SIMD(store_quad)(const SIMD(quad) *t, R *q,
                                                                   const QS *c, uint32_t s,
                                                                   unsigned n)
{
    O(store4t)(q, c->i0 + s, t->x[0], t->y[0], t->z[0], t->w[0], n);
    O(store4t)(q, c->i1 + s, t->x[1], t->y[1], t->z[1], t->w[1], n);
    O(store4t)(q, c->i2 + s, t->x[2], t->y[2], t->z[2], t->w[2], n);
    O(store4t)(q, c->i3 + s, t->x[3], t->y[3], t->z[3], t->w[3], n);
}

static inline __attribute__((always_inline)) V SIMD(norm2)(V x, V y, V z)
{
    return O(add)(O(add)(O(mul)(x, x), O(mul)(y, y)), O(mul)(z, z));
}

static uint32_t SIMD(tet_volume)(R *q, const QS *c, uint32_t colour, uint32_t b0, uint32_t b1,
                                 R h)
{
    const V vih2 = O(set1)(1 / (h * h)), tiny = O(set1)((R)1e-6);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(quad) t;
        SIMD(load_quad)(&t, q, c, s);
        const V e1x = O(sub)(t.x[1], t.x[0]), e1y = O(sub)(t.y[1], t.y[0]), e1z = O(sub)(t.z[1], t.z[0]);
        const V e2x = O(sub)(t.x[2], t.x[0]), e2y = O(sub)(t.y[2], t.y[0]), e2z = O(sub)(t.z[2], t.z[0]);
        const V e3x = O(sub)(t.x[3], t.x[0]), e3y = O(sub)(t.y[3], t.y[0]), e3z = O(sub)(t.z[3], t.z[0]);
        V gx[4], gy[4], gz[4];
        gx[1] = O(sub)(O(mul)(e2y, e3z), O(mul)(e2z, e3y));
        gy[1] = O(sub)(O(mul)(e2z, e3x), O(mul)(e2x, e3z));
        gz[1] = O(sub)(O(mul)(e2x, e3y), O(mul)(e2y, e3x));
        gx[2] = O(sub)(O(mul)(e3y, e1z), O(mul)(e3z, e1y));
        gy[2] = O(sub)(O(mul)(e3z, e1x), O(mul)(e3x, e1z));
        gz[2] = O(sub)(O(mul)(e3x, e1y), O(mul)(e3y, e1x));
        gx[3] = O(sub)(O(mul)(e1y, e2z), O(mul)(e1z, e2y));
        gy[3] = O(sub)(O(mul)(e1z, e2x), O(mul)(e1x, e2z));
        gz[3] = O(sub)(O(mul)(e1x, e2y), O(mul)(e1y, e2x));
        gx[0] = O(neg)(O(add)(O(add)(gx[1], gx[2]), gx[3]));
        gy[0] = O(neg)(O(add)(O(add)(gy[1], gy[2]), gy[3]));
        gz[0] = O(neg)(O(add)(O(add)(gz[1], gz[2]), gz[3]));
        const V vol6 = O(add)(O(add)(O(mul)(e1x, gx[1]), O(mul)(e1y, gy[1])), O(mul)(e1z, gz[1]));
        const V S = O(add)(O(add)(O(add)(O(mul)(t.w[0], SIMD(norm2)(gx[0], gy[0], gz[0])),
                                         O(mul)(t.w[1], SIMD(norm2)(gx[1], gy[1], gz[1]))),
                                  O(mul)(t.w[2], SIMD(norm2)(gx[2], gy[2], gz[2]))),
                           O(mul)(t.w[3], SIMD(norm2)(gx[3], gy[3], gz[3])));
        const V L2 = O(add)(O(add)(SIMD(norm2)(e1x, e1y, e1z), SIMD(norm2)(e2x, e2y, e2z)),
                            SIMD(norm2)(e3x, e3y, e3z));
        const V W = O(add)(O(add)(O(add)(t.w[0], t.w[1]), t.w[2]), t.w[3]);
        const M ok = O(gt)(S, O(mul)(O(mul)(tiny, W), O(mul)(L2, L2)));
        const V C = O(sub)(vol6, O(load)(c->rest + s));
        const V at = O(mul)(O(load)(c->compliance + s), vih2);
        const V lam = O(load)(c->lambda + s);
        const V dl = O(div)(O(sub)(O(neg)(C), O(mul)(at, lam)), O(add)(S, at));
        for (int k = 0; k < 4; ++k) {
            const V a = O(mul)(t.w[k], dl);
            t.x[k] = O(select)(ok, O(add)(t.x[k], O(mul)(a, gx[k])), t.x[k]);
            t.y[k] = O(select)(ok, O(add)(t.y[k], O(mul)(a, gy[k])), t.y[k]);
            t.z[k] = O(select)(ok, O(add)(t.z[k], O(mul)(a, gz[k])), t.z[k]);
        }
        SIMD(store_quad)(&t, q, c, s, n);
        O(store)(c->lambda + s, O(select)(ok, O(add)(lam, dl), lam));
        skipped += n - (uint32_t)__builtin_popcount(O(bits)(ok) & ((1u << n) - 1u));
    }
    return skipped;
}

static uint32_t SIMD(bending)(R *q, const QS *c, uint32_t colour, uint32_t b0, uint32_t b1, R h)
{
    const V vih2 = O(set1)(1 / (h * h)), zero = O(zero)(), half = O(set1)((R)0.5);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        SIMD(quad) t;
        SIMD(load_quad)(&t, q, c, s);
        const V k[4] = {O(load)(c->k0 + s), O(load)(c->k1 + s), O(load)(c->k2 + s),
                        O(load)(c->k3 + s)};
        const V sc = O(load)(c->scale + s);
        const V hx = O(add)(O(add)(O(add)(O(mul)(k[0], t.x[0]), O(mul)(k[1], t.x[1])),
                                   O(mul)(k[2], t.x[2])),
                            O(mul)(k[3], t.x[3]));
        const V hy = O(add)(O(add)(O(add)(O(mul)(k[0], t.y[0]), O(mul)(k[1], t.y[1])),
                                   O(mul)(k[2], t.y[2])),
                            O(mul)(k[3], t.y[3]));
        const V hz = O(add)(O(add)(O(add)(O(mul)(k[0], t.z[0]), O(mul)(k[1], t.z[1])),
                                   O(mul)(k[2], t.z[2])),
                            O(mul)(k[3], t.z[3]));
        const V hh = SIMD(norm2)(hx, hy, hz);
        const V wk = O(add)(O(add)(O(add)(O(mul)(t.w[0], O(mul)(k[0], k[0])),
                                          O(mul)(t.w[1], O(mul)(k[1], k[1]))),
                                   O(mul)(t.w[2], O(mul)(k[2], k[2]))),
                            O(mul)(t.w[3], O(mul)(k[3], k[3])));
        const V S = O(mul)(O(mul)(O(mul)(sc, sc), hh), wk);
        const M ok = O(gt)(S, zero);
        const V C = O(mul)(O(mul)(sc, hh), half);
        const V at = O(mul)(O(load)(c->compliance + s), vih2);
        const V lam = O(load)(c->lambda + s);
        const V dl = O(div)(O(sub)(O(neg)(C), O(mul)(at, lam)), O(add)(S, at));
        for (int j = 0; j < 4; ++j) {
            const V a = O(mul)(O(mul)(O(mul)(t.w[j], sc), k[j]), dl);
            t.x[j] = O(select)(ok, O(add)(t.x[j], O(mul)(a, hx)), t.x[j]);
            t.y[j] = O(select)(ok, O(add)(t.y[j], O(mul)(a, hy)), t.y[j]);
            t.z[j] = O(select)(ok, O(add)(t.z[j], O(mul)(a, hz)), t.z[j]);
        }
        SIMD(store_quad)(&t, q, c, s, n);
        O(store)(c->lambda + s, O(select)(ok, O(add)(lam, dl), lam));
        skipped += n - (uint32_t)__builtin_popcount(O(bits)(ok) & ((1u << n) - 1u));
    }
    return skipped;
}

static uint32_t SIMD(tethers)(R *q, const uint32_t *anchor, const R *length, size_t begin,
                              size_t end)
{
    const V zero = O(zero)();
    uint32_t taut = 0, idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        V x, y, z, w, ax, ay, az, aw;
        O(load4t)(q, idx, &x, &y, &z, &w);
        O(load4t)(q, anchor + i, &ax, &ay, &az, &aw);
        const V dx = O(sub)(x, ax), dy = O(sub)(y, ay), dz = O(sub)(z, az);
        const V len = SIMD(norm2)(dx, dy, dz);
        const V len1 = O(sqrt)(len);
        const V C = O(sub)(len1, O(load)(length + i));
        /* aw == 0 as !(aw > 0) & !(0 > aw): w is finite and >= 0 here */
        const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(zero, aw)), O(gt)(C, zero));
        const V f = O(div)(C, len1);
        O(store4t)(q, idx, O(select)(ok, O(sub)(x, O(mul)(f, dx)), x),
                   O(select)(ok, O(sub)(y, O(mul)(f, dy)), y),
                   O(select)(ok, O(sub)(z, O(mul)(f, dz)), z), w, L);
        taut += (uint32_t)__builtin_popcount(O(bits)(ok));
    }
    for (; i < end; ++i)
        taut += SFX(elem_tether)(q, anchor, length, i);
    return taut;
}

const SFX(xpbd_softbody_kernels) SIMD(softbody_table) = {
    XPBD_SIMD_ISA, L, SIMD(tet_volume), SIMD(bending), SIMD(tethers),
};

#include "simd/lanes_end.h"
#include "real_end.h"
