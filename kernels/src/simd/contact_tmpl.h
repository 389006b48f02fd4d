/* SIMD contact kernels (xpbd/contacts.h), written against wide.h; the same
 * operations in the same order as contact_elem_tmpl.h. Included by
 * kernels.c after kernels_tmpl.h's helpers for the same precision. */
#include "real_begin.h"
#include "contact_elem_tmpl.h"

#include "simd/lanes_begin.h"

static inline uint32_t SIMD(count_hits)(M ok, unsigned n)
{
    return (uint32_t)__builtin_popcount(O(bits)(ok) & ((1u << n) - 1u));
}

/* elem_friction on L lanes: the fraction f (0 where |t| == 0) and t. */
static inline __attribute__((always_inline)) V SIMD(friction)(V ex, V ey, V ez, V nx, V ny, V nz,
                                                              V corr, V vms, V vmk, V *tx, V *ty,
                                                              V *tz)
{
    const V zero = O(zero)(), one = O(set1)(1);
    const V en = O(add)(O(add)(O(mul)(ex, nx), O(mul)(ey, ny)), O(mul)(ez, nz));
    *tx = O(sub)(ex, O(mul)(en, nx));
    *ty = O(sub)(ey, O(mul)(en, ny));
    *tz = O(sub)(ez, O(mul)(en, nz));
    const V tl = O(sqrt)(O(add)(O(add)(O(mul)(*tx, *tx), O(mul)(*ty, *ty)), O(mul)(*tz, *tz)));
    V fk = O(div)(O(mul)(vmk, corr), tl);
    fk = O(select)(O(gt)(fk, one), one, fk);
    const V f = O(select)(O(gt)(O(mul)(vms, corr), tl), one, fk);
    return O(select)(O(gt)(tl, zero), f, zero);
}

static uint32_t SIMD(contact_position)(R *pk, const P *p, const R *radius,
                                       const xpbd_contact_set *cs, uint32_t colour, uint32_t b0,
                                       uint32_t b1, R beta, int weighted, R mu_s, R mu_k)
{
    const V zero = O(zero)(), one = O(set1)(1), vbeta = O(set1)(beta);
    const V vms = O(set1)(mu_s), vmk = O(set1)(mu_k);
    const int fric = mu_s > 0 || mu_k > 0;
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
        SIMD(pair) q;
        SIMD(load_packed_pair)(&q, pk, ia, ib);
        const V pen = O(sub)(O(add)(O(gather)(radius, ia), O(gather)(radius, ib)), q.len);
        const V wsum = O(add)(q.wa, q.wb);
        const M ok = O(mand)(O(mand)(O(gt)(pen, zero), O(gt)(q.len, zero)), O(gt)(wsum, zero));
        V s0 = zero, s1 = O(select)(O(gt)(q.wb, zero), one, zero);
        if (weighted) {
            s0 = O(div)(q.wa, wsum);
            s1 = O(div)(q.wb, wsum);
        }
        const V corr = O(mul)(vbeta, pen);
        const V nx = O(div)(q.dx, q.len), ny = O(div)(q.dy, q.len), nz = O(div)(q.dz, q.len);
        const V k0 = O(mul)(corr, s0), k1 = O(mul)(corr, s1);
        V xa = O(sub)(q.xa, O(mul)(k0, nx)), ya = O(sub)(q.ya, O(mul)(k0, ny));
        V za = O(sub)(q.za, O(mul)(k0, nz));
        V xb = O(add)(q.xb, O(mul)(k1, nx)), yb = O(add)(q.yb, O(mul)(k1, ny));
        V zb = O(add)(q.zb, O(mul)(k1, nz));
        if (fric) {
            V tx, ty, tz;
            const V f = SIMD(friction)(
                O(sub)(O(sub)(xb, O(gather)(p->px, ib)), O(sub)(xa, O(gather)(p->px, ia))),
                O(sub)(O(sub)(yb, O(gather)(p->py, ib)), O(sub)(ya, O(gather)(p->py, ia))),
                O(sub)(O(sub)(zb, O(gather)(p->pz, ib)), O(sub)(za, O(gather)(p->pz, ia))), nx, ny,
                nz, corr, vms, vmk, &tx, &ty, &tz);
            const V f0 = O(mul)(f, s0), f1 = O(mul)(f, s1);
            xa = O(add)(xa, O(mul)(f0, tx));
            ya = O(add)(ya, O(mul)(f0, ty));
            za = O(add)(za, O(mul)(f0, tz));
            xb = O(sub)(xb, O(mul)(f1, tx));
            yb = O(sub)(yb, O(mul)(f1, ty));
            zb = O(sub)(zb, O(mul)(f1, tz));
        }
        q.xa = O(select)(ok, xa, q.xa);
        q.ya = O(select)(ok, ya, q.ya);
        q.za = O(select)(ok, za, q.za);
        q.xb = O(select)(ok, xb, q.xb);
        q.yb = O(select)(ok, yb, q.yb);
        q.zb = O(select)(ok, zb, q.zb);
        SIMD(store_packed_pair)(&q, pk, ia, ib, n);
        hits += SIMD(count_hits)(ok, n);
    }
    return hits;
}

/* elem_pair_normal / _rel / _impulse on L lanes: the gathered pair, its
 * unit normal, w0 + w1, the current velocities, and the lanes in reach. */
typedef struct SIMD(vpair) {
    SIMD(pair) q;
    V wsum, nx, ny, nz, vxa, vya, vza, vxb, vyb, vzb;
    M ok;
} SIMD(vpair);

static inline __attribute__((always_inline)) void SIMD(vpair_load)(SIMD(vpair) *v, const P *p,
                                                                   const R *radius,
                                                                   const uint32_t *ia,
                                                                   const uint32_t *ib,
                                                                   V neg_slop)
{
    const V zero = O(zero)();
    SIMD(gather_pair)(&v->q, p, ia, ib);
    const V pen = O(sub)(O(add)(O(gather)(radius, ia), O(gather)(radius, ib)), v->q.len);
    v->wsum = O(add)(v->q.wa, v->q.wb);
    v->ok = O(mand)(O(mand)(O(ge)(pen, neg_slop), O(gt)(v->q.len, zero)),
                    O(gt)(v->wsum, zero));
    v->nx = O(div)(v->q.dx, v->q.len);
    v->ny = O(div)(v->q.dy, v->q.len);
    v->nz = O(div)(v->q.dz, v->q.len);
    v->vxa = O(gather)(p->vx, ia);
    v->vya = O(gather)(p->vy, ia);
    v->vza = O(gather)(p->vz, ia);
    v->vxb = O(gather)(p->vx, ib);
    v->vyb = O(gather)(p->vy, ib);
    v->vzb = O(gather)(p->vz, ib);
}

/* normal component of v_b - v_a from the given (already gathered) lanes */
static inline __attribute__((always_inline)) V SIMD(vpair_rel)(const SIMD(vpair) *v, V xa, V ya,
                                                               V za, V xb, V yb, V zb)
{
    return O(add)(O(add)(O(mul)(O(sub)(xb, xa), v->nx), O(mul)(O(sub)(yb, ya), v->ny)),
                  O(mul)(O(sub)(zb, za), v->nz));
}

/* impulse j along n on the lanes in ok; scatter the first n lanes */
static inline __attribute__((always_inline)) void SIMD(vpair_impulse)(const SIMD(vpair) *v,
                                                                      const P *p,
                                                                      const uint32_t *ia,
                                                                      const uint32_t *ib, M ok,
                                                                      V j, unsigned n)
{
    const V ja = O(mul)(j, v->q.wa), jb = O(mul)(j, v->q.wb);
    O(scatter3)(p->vx, p->vy, p->vz, ia, O(select)(ok, O(sub)(v->vxa, O(mul)(ja, v->nx)), v->vxa),
                O(select)(ok, O(sub)(v->vya, O(mul)(ja, v->ny)), v->vya),
                O(select)(ok, O(sub)(v->vza, O(mul)(ja, v->nz)), v->vza), n);
    O(scatter3)(p->vx, p->vy, p->vz, ib, O(select)(ok, O(add)(v->vxb, O(mul)(jb, v->nx)), v->vxb),
                O(select)(ok, O(add)(v->vyb, O(mul)(jb, v->ny)), v->vyb),
                O(select)(ok, O(add)(v->vzb, O(mul)(jb, v->nz)), v->vzb), n);
}

static uint32_t SIMD(contact_velocity)(const P *p, const R *radius, const xpbd_contact_set *cs,
                                       uint32_t colour, uint32_t b0, uint32_t b1, R e, R slop)
{
    const R ope_s = 1 + e, neg_slop_s = -slop;
    const V zero = O(zero)(), ope = O(set1)(ope_s), neg_slop = O(set1)(neg_slop_s);
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
        SIMD(vpair) v;
        SIMD(vpair_load)(&v, p, radius, ia, ib, neg_slop);
        const V rel = SIMD(vpair_rel)(&v, v.vxa, v.vya, v.vza, v.vxb, v.vyb, v.vzb);
        const M ok = O(mand)(v.ok, O(gt)(zero, rel));
        SIMD(vpair_impulse)(&v, p, ia, ib, ok, O(div)(O(neg)(O(mul)(ope, rel)), v.wsum), n);
        hits += SIMD(count_hits)(ok, n);
    }
    return hits;
}

static uint32_t SIMD(plane_position)(R *pk, const P *p, const R *radius, size_t begin,
                                     size_t end, const R pl[4], R beta, R mu_s, R mu_k,
                                     R *impulse, R h)
{
    const V zero = O(zero)(), vbeta = O(set1)(beta), vms = O(set1)(mu_s), vmk = O(set1)(mu_k);
    const V n0 = O(set1)(pl[0]), n1 = O(set1)(pl[1]), n2 = O(set1)(pl[2]), d = O(set1)(pl[3]);
    const int fric = mu_s > 0 || mu_k > 0;
    uint32_t hits = 0, idx[L];
    size_t i = begin;
    for (; i + L <= end; i += L) {
        for (int l = 0; l < L; ++l) idx[l] = (uint32_t)(i + (size_t)l);
        V x0, y0, z0, w;
        O(load4t)(pk, idx, &x0, &y0, &z0, &w);
        const V dist = O(sub)(O(add)(O(add)(O(mul)(n0, x0), O(mul)(n1, y0)), O(mul)(n2, z0)), d);
        const V pen = O(sub)(O(load)(radius + i), dist);
        const M ok = O(mand)(O(gt)(w, zero), O(gt)(pen, zero));
        const V corr = O(mul)(vbeta, pen);
        if (impulse) {
            const V imp = O(load)(impulse + i);
            O(store)(impulse + i,
                     O(select)(ok, O(add)(imp, O(div)(corr, O(mul)(w, O(set1)(h)))), imp));
        }
        V x = O(add)(x0, O(mul)(corr, n0)), y = O(add)(y0, O(mul)(corr, n1));
        V z = O(add)(z0, O(mul)(corr, n2));
        if (fric) {
            V tx, ty, tz;
            const V f = SIMD(friction)(O(sub)(x, O(load)(p->px + i)), O(sub)(y, O(load)(p->py + i)),
                                       O(sub)(z, O(load)(p->pz + i)), n0, n1, n2, corr, vms, vmk,
                                       &tx, &ty, &tz);
            x = O(sub)(x, O(mul)(f, tx));
            y = O(sub)(y, O(mul)(f, ty));
            z = O(sub)(z, O(mul)(f, tz));
        }
        O(store4t)(pk, idx, O(select)(ok, x, x0), O(select)(ok, y, y0), O(select)(ok, z, z0), w,
                   L);
        hits += SIMD(count_hits)(ok, L);
    }
    for (; i < end; ++i)
        hits += SFX(elem_plane_position)(pk, p, radius, i, pl, beta, mu_s, mu_k, impulse, h);
    return hits;
}

/* Penetration r - (n . x - d) of the L particles from i into a plane (the
 * velocity passes' test, in the scalar reference's order). */
static inline V SIMD(plane_pen)(const P *p, const R *radius, size_t i, V n0, V n1, V n2, V d)
{
    const V dist = O(sub)(O(add)(O(add)(O(mul)(n0, O(load)(p->x + i)),
                                        O(mul)(n1, O(load)(p->y + i))),
                                 O(mul)(n2, O(load)(p->z + i))),
                          d);
    return O(sub)(O(load)(radius + i), dist);
}

static uint32_t SIMD(plane_velocity)(const P *p, const R *radius, size_t begin, size_t end,
                                     const R pl[4], R e, R slop, R *impulse)
{
    const R ope_s = 1 + e, neg_slop_s = -slop;
    const V zero = O(zero)(), ope = O(set1)(ope_s), neg_slop = O(set1)(neg_slop_s);
    const V n0 = O(set1)(pl[0]), n1 = O(set1)(pl[1]), n2 = O(set1)(pl[2]), d = O(set1)(pl[3]);
    uint32_t hits = 0;
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const V w = O(load)(p->w + i);
        const V pen = SIMD(plane_pen)(p, radius, i, n0, n1, n2, d);
        const V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
        const V vn = O(add)(O(add)(O(mul)(n0, vx), O(mul)(n1, vy)), O(mul)(n2, vz));
        const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(pen, neg_slop)), O(gt)(zero, vn));
        const V dv = O(mul)(ope, vn);
        O(store)(p->vx + i, O(select)(ok, O(sub)(vx, O(mul)(dv, n0)), vx));
        O(store)(p->vy + i, O(select)(ok, O(sub)(vy, O(mul)(dv, n1)), vy));
        O(store)(p->vz + i, O(select)(ok, O(sub)(vz, O(mul)(dv, n2)), vz));
        if (impulse) {
            const V imp = O(load)(impulse + i);
            O(store)(impulse + i, O(select)(ok, O(add)(imp, O(div)(O(neg)(dv), w)), imp));
        }
        hits += SIMD(count_hits)(ok, L);
    }
    for (; i < end; ++i)
        hits += SFX(elem_plane_velocity)(p, radius, i, pl, ope_s, neg_slop_s, impulse);
    return hits;
}

static void SIMD(gravity)(const P *p, size_t begin, size_t end, R gxh, R gyh, R gzh)
{
    const V vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh), zero = O(zero)();
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const M dyn = O(gt)(O(load)(p->w + i), zero);
        const V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
        O(store)(p->vx + i, O(select)(dyn, O(add)(vx, vgx), vx));
        O(store)(p->vy + i, O(select)(dyn, O(add)(vy, vgy), vy));
        O(store)(p->vz + i, O(select)(dyn, O(add)(vz, vgz), vz));
    }
    for (; i < end; ++i)
        SFX(elem_gravity)(p, i, gxh, gyh, gzh);
}

static void SIMD(integrate)(const P *p, size_t begin, size_t end, R h)
{
    const V vh = O(set1)(h);
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const V x = O(load)(p->x + i), y = O(load)(p->y + i), z = O(load)(p->z + i);
        O(store)(p->px + i, x);
        O(store)(p->py + i, y);
        O(store)(p->pz + i, z);
        O(store)(p->x + i, O(add)(x, O(mul)(O(load)(p->vx + i), vh)));
        O(store)(p->y + i, O(add)(y, O(mul)(O(load)(p->vy + i), vh)));
        O(store)(p->z + i, O(add)(z, O(mul)(O(load)(p->vz + i), vh)));
    }
    for (; i < end; ++i)
        SFX(elem_integrate)(p, i, h);
}

static uint32_t SIMD(contact_restitution)(const P *p, const R *radius, const xpbd_contact_set *cs,
                                          const R *v0x, const R *v0y, const R *v0z,
                                          uint32_t colour, uint32_t b0, uint32_t b1, R e, R slop,
                                          R rest_speed)
{
    const R neg_slop_s = -slop;
    const V zero = O(zero)(), ve = O(set1)(e), neg_slop = O(set1)(neg_slop_s);
    const V vrest = O(set1)(rest_speed);
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
        SIMD(vpair) v;
        SIMD(vpair_load)(&v, p, radius, ia, ib, neg_slop);
        const V rel0 = SIMD(vpair_rel)(&v, O(gather)(v0x, ia), O(gather)(v0y, ia),
                                       O(gather)(v0z, ia), O(gather)(v0x, ib),
                                       O(gather)(v0y, ib), O(gather)(v0z, ib));
        const M ok = O(mand)(v.ok, O(gt)(zero, rel0));
        const V rel = SIMD(vpair_rel)(&v, v.vxa, v.vya, v.vza, v.vxb, v.vyb, v.vzb);
        const V ee = O(select)(O(gt)(O(neg)(rel0), vrest), ve, zero);
        SIMD(vpair_impulse)(&v, p, ia, ib, ok,
                            O(div)(O(sub)(O(neg)(O(mul)(ee, rel0)), rel), v.wsum), n);
        hits += SIMD(count_hits)(ok, n);
    }
    return hits;
}

static uint32_t SIMD(plane_restitution)(const P *p, const R *radius, const R *v0x, const R *v0y,
                                        const R *v0z, size_t begin, size_t end, const R pl[4],
                                        R e, R slop, R rest_speed, R *impulse)
{
    const R neg_slop_s = -slop;
    const V zero = O(zero)(), ve = O(set1)(e), neg_slop = O(set1)(neg_slop_s);
    const V vrest = O(set1)(rest_speed);
    const V n0 = O(set1)(pl[0]), n1 = O(set1)(pl[1]), n2 = O(set1)(pl[2]), d = O(set1)(pl[3]);
    uint32_t hits = 0;
    size_t i = begin;
    for (; i + L <= end; i += L) {
        const V w = O(load)(p->w + i);
        const V pen = SIMD(plane_pen)(p, radius, i, n0, n1, n2, d);
        const V vn0 = O(add)(O(add)(O(mul)(n0, O(load)(v0x + i)), O(mul)(n1, O(load)(v0y + i))),
                             O(mul)(n2, O(load)(v0z + i)));
        const V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
        const V vn = O(add)(O(add)(O(mul)(n0, vx), O(mul)(n1, vy)), O(mul)(n2, vz));
        const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(pen, neg_slop)), O(gt)(zero, vn0));
        const V ee = O(select)(O(gt)(O(neg)(vn0), vrest), ve, zero);
        const V dv = O(sub)(O(neg)(O(mul)(ee, vn0)), vn);
        O(store)(p->vx + i, O(select)(ok, O(add)(vx, O(mul)(dv, n0)), vx));
        O(store)(p->vy + i, O(select)(ok, O(add)(vy, O(mul)(dv, n1)), vy));
        O(store)(p->vz + i, O(select)(ok, O(add)(vz, O(mul)(dv, n2)), vz));
        if (impulse) {
            const V imp = O(load)(impulse + i);
            O(store)(impulse + i, O(select)(ok, O(add)(imp, O(div)(dv, w)), imp));
        }
        hits += SIMD(count_hits)(ok, L);
    }
    for (; i < end; ++i)
        hits += SFX(elem_plane_restitution)(p, radius, v0x, v0y, v0z, i, pl, e, neg_slop_s,
                                            rest_speed, impulse);
    return hits;
}

const SFX(xpbd_contact_kernels) SIMD(contact_table) = {
    XPBD_SIMD_ISA,
    L,
    SIMD(contact_position),
    SIMD(contact_velocity),
    SIMD(plane_position),
    SIMD(plane_velocity),
    SIMD(gravity),
    SIMD(integrate),
    SIMD(contact_restitution),
    SIMD(plane_restitution),
};

#include "simd/lanes_end.h"
#include "real_end.h"
