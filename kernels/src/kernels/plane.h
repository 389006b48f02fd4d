/* SPDX-License-Identifier: MIT */
/* plane.h: particles against planes {x : n.x >= d} (pl = n0, n1, n2, d;
 * |n| = 1), per particle (xpbd/contacts.h).
 *
 *   position     on the packed copy: pen = r - (n.x - d) > 0 and w > 0:
 *                x += beta*pen*n, then position-level friction
 *                (contact.h); impulse[i] += beta*pen / (w*h) if given
 *   velocity     pen >= -slop, w > 0 and vn = n.v < 0:  v -= (1+e)*vn*n;
 *                impulse[i] += -(1+e)*vn / w if given
 *   restitution  the substep order's velocity pass against a plane
 *                (see contact.h): dv = -(e'*vn0) - vn, v += dv*n
 *
 * Template over the precision and the backend (lanes.h); read after
 * contact.h (friction). */

/* A plane broadcast to the lanes. */
typedef struct K(plane) {
    V n0, n1, n2, d;
} K(plane);

LANE_FN K(plane) K(plane_set)(const R pl[4])
{
    K(plane) v = {O(set1)(pl[0]), O(set1)(pl[1]), O(set1)(pl[2]), O(set1)(pl[3])};
    return v;
}

/* n . (x, y, z) */
LANE_FN V K(plane_dot)(const K(plane) *pl, V x, V y, V z)
{
    return O(add)(O(add)(O(mul)(pl->n0, x), O(mul)(pl->n1, y)), O(mul)(pl->n2, z));
}

/* Penetration r - (n . x - d) of the L particles from i (SoA positions). */
LANE_FN V K(plane_pen)(const P *p, const R *radius, size_t i, const K(plane) *pl)
{
    const V dist = O(sub)(K(plane_dot)(pl, O(load)(p->x + i), O(load)(p->y + i),
                                       O(load)(p->z + i)),
                          pl->d);
    return O(sub)(O(load)(radius + i), dist);
}

LANE_FN uint32_t K(plane_position_at)(R *pk, const P *p, const R *radius, size_t i,
                                      const K(plane) *pl, V beta, int fric, V mu_s, V mu_k,
                                      R *impulse, V h)
{
    const V zero = O(zero)();
    uint32_t idx[L];
    LANE_INDEX(idx, i);
    V x0, y0, z0, w;
    O(load4t)(pk, idx, &x0, &y0, &z0, &w);
    const V dist = O(sub)(K(plane_dot)(pl, x0, y0, z0), pl->d);
    const V pen = O(sub)(O(load)(radius + i), dist);
    const M ok = O(mand)(O(gt)(w, zero), O(gt)(pen, zero));
    const V corr = O(mul)(beta, pen);
    if (impulse) {
        const V imp = O(load)(impulse + i);
        O(store)(impulse + i, O(select)(ok, O(add)(imp, O(div)(corr, O(mul)(w, h))), imp));
    }
    V x = O(add)(x0, O(mul)(corr, pl->n0)), y = O(add)(y0, O(mul)(corr, pl->n1));
    V z = O(add)(z0, O(mul)(corr, pl->n2));
    if (fric) {
        V tx, ty, tz;
        const V f = K(friction)(O(sub)(x, O(load)(p->px + i)), O(sub)(y, O(load)(p->py + i)),
                                O(sub)(z, O(load)(p->pz + i)), pl->n0, pl->n1, pl->n2, corr,
                                mu_s, mu_k, &tx, &ty, &tz);
        x = O(sub)(x, O(mul)(f, tx));
        y = O(sub)(y, O(mul)(f, ty));
        z = O(sub)(z, O(mul)(f, tz));
    }
    O(store3t)(pk, idx, O(select)(ok, x, x0), O(select)(ok, y, y0), O(select)(ok, z, z0), w, L);
    return K(count_hits)(ok, L);
}

/* velocity level, ope = 1 + e */
LANE_FN uint32_t K(plane_velocity_at)(const P *p, const R *radius, size_t i, const K(plane) *pl,
                                      V ope, V neg_slop, R *impulse)
{
    const V zero = O(zero)();
    const V w = O(load)(p->w + i);
    const V pen = K(plane_pen)(p, radius, i, pl);
    const V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
    const V vn = K(plane_dot)(pl, vx, vy, vz);
    const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(pen, neg_slop)), O(gt)(zero, vn));
    const V dv = O(mul)(ope, vn);
    O(store)(p->vx + i, O(select)(ok, O(sub)(vx, O(mul)(dv, pl->n0)), vx));
    O(store)(p->vy + i, O(select)(ok, O(sub)(vy, O(mul)(dv, pl->n1)), vy));
    O(store)(p->vz + i, O(select)(ok, O(sub)(vz, O(mul)(dv, pl->n2)), vz));
    if (impulse) {
        const V imp = O(load)(impulse + i);
        O(store)(impulse + i, O(select)(ok, O(add)(imp, O(div)(O(neg)(dv), w)), imp));
    }
    return K(count_hits)(ok, L);
}

LANE_FN uint32_t K(plane_restitution_at)(const P *p, const R *radius, const R *v0x, const R *v0y,
                                         const R *v0z, size_t i, const K(plane) *pl, V e,
                                         V neg_slop, V rest_speed, R *impulse)
{
    const V zero = O(zero)();
    const V w = O(load)(p->w + i);
    const V pen = K(plane_pen)(p, radius, i, pl);
    const V vn0 = K(plane_dot)(pl, O(load)(v0x + i), O(load)(v0y + i), O(load)(v0z + i));
    const V vx = O(load)(p->vx + i), vy = O(load)(p->vy + i), vz = O(load)(p->vz + i);
    const V vn = K(plane_dot)(pl, vx, vy, vz);
    const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(pen, neg_slop)), O(gt)(zero, vn0));
    const V ee = O(select)(O(gt)(O(neg)(vn0), rest_speed), e, zero);
    const V dv = O(sub)(O(neg)(O(mul)(ee, vn0)), vn);
    O(store)(p->vx + i, O(select)(ok, O(add)(vx, O(mul)(dv, pl->n0)), vx));
    O(store)(p->vy + i, O(select)(ok, O(add)(vy, O(mul)(dv, pl->n1)), vy));
    O(store)(p->vz + i, O(select)(ok, O(add)(vz, O(mul)(dv, pl->n2)), vz));
    if (impulse) {
        const V imp = O(load)(impulse + i);
        O(store)(impulse + i, O(select)(ok, O(add)(imp, O(div)(dv, w)), imp));
    }
    return K(count_hits)(ok, L);
}

/* ------------------------------------------------------ range kernels --- */

static inline uint32_t K(plane_position)(R *pk, const P *p, const R *radius, size_t begin,
                                         size_t end, const R pl[4], R beta, R mu_s, R mu_k,
                                         R *impulse, R h)
{
    const K(plane) vpl = K(plane_set)(pl);
    const TAIL(plane) spl = TAIL(plane_set)(pl);
    const V vbeta = O(set1)(beta), vms = O(set1)(mu_s), vmk = O(set1)(mu_k), vh = O(set1)(h);
    const int fric = mu_s > 0 || mu_k > 0;
    uint32_t hits = 0;
    size_t i = begin;
    for (; i + L <= end; i += L)
        hits += K(plane_position_at)(pk, p, radius, i, &vpl, vbeta, fric, vms, vmk, impulse, vh);
    for (; i < end; ++i)
        hits += TAIL(plane_position_at)(pk, p, radius, i, &spl, beta, fric, mu_s, mu_k, impulse,
                                        h);
    return hits;
}

static inline uint32_t K(plane_velocity)(const P *p, const R *radius, size_t begin, size_t end,
                                         const R pl[4], R e, R slop, R *impulse)
{
    const R ope = 1 + e, neg_slop = -slop;
    const K(plane) vpl = K(plane_set)(pl);
    const TAIL(plane) spl = TAIL(plane_set)(pl);
    const V vope = O(set1)(ope), vneg = O(set1)(neg_slop);
    uint32_t hits = 0;
    size_t i = begin;
    for (; i + L <= end; i += L)
        hits += K(plane_velocity_at)(p, radius, i, &vpl, vope, vneg, impulse);
    for (; i < end; ++i)
        hits += TAIL(plane_velocity_at)(p, radius, i, &spl, ope, neg_slop, impulse);
    return hits;
}

static inline uint32_t K(plane_restitution)(const P *p, const R *radius, const R *v0x,
                                            const R *v0y, const R *v0z, size_t begin, size_t end,
                                            const R pl[4], R e, R slop, R rest_speed, R *impulse)
{
    const R neg_slop = -slop;
    const K(plane) vpl = K(plane_set)(pl);
    const TAIL(plane) spl = TAIL(plane_set)(pl);
    const V ve = O(set1)(e), vneg = O(set1)(neg_slop), vrest = O(set1)(rest_speed);
    uint32_t hits = 0;
    size_t i = begin;
    for (; i + L <= end; i += L)
        hits += K(plane_restitution_at)(p, radius, v0x, v0y, v0z, i, &vpl, ve, vneg, vrest,
                                        impulse);
    for (; i < end; ++i)
        hits += TAIL(plane_restitution_at)(p, radius, v0x, v0y, v0z, i, &spl, e, neg_slop,
                                           rest_speed, impulse);
    return hits;
}
