/* SPDX-License-Identifier: MIT */
/* contact.h: particle-particle contacts (xpbd/contacts.h), in the slots of
 * a coloured contact set; padding slots name one particle twice, so
 * |d| == 0 skips them.
 *
 *   position     on the packed copy: pen = (r0 + r1) - |d| > 0 is pushed
 *                out by beta*pen along n = d/|d|, split by w0/(w0+w1) and
 *                w1/(w0+w1) (weighted) or all on the second particle;
 *                then position-level friction against the displacement
 *                since substep start (static mu_s, kinetic mu_k)
 *   velocity     relative normal velocity rel < 0 and pen >= -slop: an
 *                impulse -(1+e)*rel/(w0+w1) along n
 *   restitution  the substep order's velocity pass (see below)
 *
 * Template over the precision and the backend (lanes.h). */

/* Position-level friction against a relative displacement e since
 * substep start: the fraction f of its tangential part t to remove (0 when
 * there is none: |t| == 0), and t. Static when mu_s*corr > |t| (f = 1),
 * else f = min(mu_k*corr/|t|, 1). */
LANE_FN V K(friction)(V ex, V ey, V ez, V nx, V ny, V nz, V corr, V mu_s, V mu_k, V *tx, V *ty,
                      V *tz)
{
    const V zero = O(zero)(), one = O(set1)(1);
    const V en = O(add)(O(add)(O(mul)(ex, nx), O(mul)(ey, ny)), O(mul)(ez, nz));
    *tx = O(sub)(ex, O(mul)(en, nx));
    *ty = O(sub)(ey, O(mul)(en, ny));
    *tz = O(sub)(ez, O(mul)(en, nz));
    const V tl = O(sqrt)(K(norm2)(*tx, *ty, *tz));
    V fk = O(div)(O(mul)(mu_k, corr), tl);
    fk = O(select)(O(gt)(fk, one), one, fk);
    const V f = O(select)(O(gt)(O(mul)(mu_s, corr), tl), one, fk);
    return O(select)(O(gt)(tl, zero), f, zero);
}

/* The position solve of the L slots from s (n real) on the packed copy;
 * the number of contacts that acted. */
LANE_FN uint32_t K(contact_position_at)(R *pk, const P *p, const R *radius,
                                        const xpbd_contact_set *cs, uint32_t s, unsigned n,
                                        V beta, int weighted, int fric, V mu_s, V mu_k)
{
    const V zero = O(zero)(), one = O(set1)(1);
    const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
    K(pair) q;
    K(load_packed_pair)(&q, pk, ia, ib);
    const V pen = O(sub)(O(add)(O(gather)(radius, ia), O(gather)(radius, ib)), q.len);
    const V wsum = O(add)(q.wa, q.wb);
    const M ok = O(mand)(O(mand)(O(gt)(pen, zero), O(gt)(q.len, zero)), O(gt)(wsum, zero));
    V s0 = zero, s1 = O(select)(O(gt)(q.wb, zero), one, zero);
    if (weighted) {
        s0 = O(div)(q.wa, wsum);
        s1 = O(div)(q.wb, wsum);
    }
    const V corr = O(mul)(beta, pen);
    const V nx = O(div)(q.dx, q.len), ny = O(div)(q.dy, q.len), nz = O(div)(q.dz, q.len);
    const V k0 = O(mul)(corr, s0), k1 = O(mul)(corr, s1);
    V xa = O(sub)(q.xa, O(mul)(k0, nx)), ya = O(sub)(q.ya, O(mul)(k0, ny));
    V za = O(sub)(q.za, O(mul)(k0, nz));
    V xb = O(add)(q.xb, O(mul)(k1, nx)), yb = O(add)(q.yb, O(mul)(k1, ny));
    V zb = O(add)(q.zb, O(mul)(k1, nz));
    if (fric) {
        V tx, ty, tz;
        const V f = K(friction)(
            O(sub)(O(sub)(xb, O(gather)(p->px, ib)), O(sub)(xa, O(gather)(p->px, ia))),
            O(sub)(O(sub)(yb, O(gather)(p->py, ib)), O(sub)(ya, O(gather)(p->py, ia))),
            O(sub)(O(sub)(zb, O(gather)(p->pz, ib)), O(sub)(za, O(gather)(p->pz, ia))), nx, ny,
            nz, corr, mu_s, mu_k, &tx, &ty, &tz);
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
    K(store_packed_pair)(&q, pk, ia, ib, n);
    return K(count_hits)(ok, n);
}

/* The velocity passes' view of a pair (SoA): the gathered pair, its unit
 * normal n from a to b, w0 + w1, the current velocities, and the lanes in
 * reach (pen >= -slop, |d| > 0, w0 + w1 > 0). */
typedef struct K(vpair) {
    K(pair) q;
    V wsum, nx, ny, nz, vxa, vya, vza, vxb, vyb, vzb;
    M ok;
} K(vpair);

LANE_FN void K(vpair_load)(K(vpair) *v, const P *p, const R *radius, const uint32_t *ia,
                           const uint32_t *ib, V neg_slop)
{
    const V zero = O(zero)();
    K(gather_pair)(&v->q, p, ia, ib);
    const V pen = O(sub)(O(add)(O(gather)(radius, ia), O(gather)(radius, ib)), v->q.len);
    v->wsum = O(add)(v->q.wa, v->q.wb);
    v->ok = O(mand)(O(mand)(O(ge)(pen, neg_slop), O(gt)(v->q.len, zero)), O(gt)(v->wsum, zero));
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

/* normal component of v_b - v_a for the given velocities */
LANE_FN V K(vpair_rel)(const K(vpair) *v, V xa, V ya, V za, V xb, V yb, V zb)
{
    return O(add)(O(add)(O(mul)(O(sub)(xb, xa), v->nx), O(mul)(O(sub)(yb, ya), v->ny)),
                  O(mul)(O(sub)(zb, za), v->nz));
}

/* equal and opposite impulse j along n on the lanes in ok:
 * v_a -= (j w_a) n, v_b += (j w_b) n; the first n lanes stored */
LANE_FN void K(vpair_impulse)(const K(vpair) *v, const P *p, const uint32_t *ia,
                              const uint32_t *ib, M ok, V j, unsigned n)
{
    const V ja = O(mul)(j, v->q.wa), jb = O(mul)(j, v->q.wb);
    O(scatter3)(p->vx, p->vy, p->vz, ia, O(select)(ok, O(sub)(v->vxa, O(mul)(ja, v->nx)), v->vxa),
                O(select)(ok, O(sub)(v->vya, O(mul)(ja, v->ny)), v->vya),
                O(select)(ok, O(sub)(v->vza, O(mul)(ja, v->nz)), v->vza), n);
    O(scatter3)(p->vx, p->vy, p->vz, ib, O(select)(ok, O(add)(v->vxb, O(mul)(jb, v->nx)), v->vxb),
                O(select)(ok, O(add)(v->vyb, O(mul)(jb, v->ny)), v->vyb),
                O(select)(ok, O(add)(v->vzb, O(mul)(jb, v->nz)), v->vzb), n);
}

/* velocity level, ope = 1 + e */
LANE_FN uint32_t K(contact_velocity_at)(const P *p, const R *radius, const xpbd_contact_set *cs,
                                        uint32_t s, unsigned n, V ope, V neg_slop)
{
    const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
    K(vpair) v;
    K(vpair_load)(&v, p, radius, ia, ib, neg_slop);
    const V rel = K(vpair_rel)(&v, v.vxa, v.vya, v.vza, v.vxb, v.vyb, v.vzb);
    const M ok = O(mand)(v.ok, O(gt)(O(zero)(), rel));
    K(vpair_impulse)(&v, p, ia, ib, ok, O(div)(O(neg)(O(mul)(ope, rel)), v.wsum), n);
    return K(count_hits)(ok, n);
}

/* Velocity pass of the substep order (Mueller et al. 2020, "Detailed rigid
 * body simulation with extended position based dynamics"): restitution acts
 * on the normal relative velocity rel0 from before the position solve
 * (v0 = the predicted velocities), so the position projection's own push
 * does not feed the bounce. If rel0 < 0 (approaching), the normal relative
 * velocity is set to -e*rel0, with e = 0 when -rel0 <= rest_speed (resting
 * contacts do not bounce). May pull a pair together again when the
 * position pass separated it faster than that. */
LANE_FN uint32_t K(contact_restitution_at)(const P *p, const R *radius,
                                           const xpbd_contact_set *cs, const R *v0x,
                                           const R *v0y, const R *v0z, uint32_t s, unsigned n,
                                           V e, V neg_slop, V rest_speed)
{
    const V zero = O(zero)();
    const uint32_t *ia = cs->i0 + s, *ib = cs->i1 + s;
    K(vpair) v;
    K(vpair_load)(&v, p, radius, ia, ib, neg_slop);
    const V rel0 = K(vpair_rel)(&v, O(gather)(v0x, ia), O(gather)(v0y, ia), O(gather)(v0z, ia),
                                O(gather)(v0x, ib), O(gather)(v0y, ib), O(gather)(v0z, ib));
    const M ok = O(mand)(v.ok, O(gt)(zero, rel0));
    const V rel = K(vpair_rel)(&v, v.vxa, v.vya, v.vza, v.vxb, v.vyb, v.vzb);
    const V ee = O(select)(O(gt)(O(neg)(rel0), rest_speed), e, zero);
    K(vpair_impulse)(&v, p, ia, ib, ok, O(div)(O(sub)(O(neg)(O(mul)(ee, rel0)), rel), v.wsum), n);
    return K(count_hits)(ok, n);
}

/* ----------------------------------------------- colour batch kernels --- */

static inline uint32_t K(contact_position)(R *pk, const P *p, const R *radius,
                                           const xpbd_contact_set *cs, uint32_t colour,
                                           uint32_t b0, uint32_t b1, R beta, int weighted,
                                           R mu_s, R mu_k)
{
    const V vbeta = O(set1)(beta), vms = O(set1)(mu_s), vmk = O(set1)(mu_k);
    const int fric = mu_s > 0 || mu_k > 0;
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1) {
        hits += K(contact_position_at)(pk, p, radius, cs, s, LIVE_LANES, vbeta, weighted, fric,
                                       vms, vmk);
    }
    return hits;
}

static inline uint32_t K(contact_velocity)(const P *p, const R *radius,
                                           const xpbd_contact_set *cs, uint32_t colour,
                                           uint32_t b0, uint32_t b1, R e, R slop)
{
    const V ope = O(set1)(1 + e), neg_slop = O(set1)(-slop);
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1) {
        hits += K(contact_velocity_at)(p, radius, cs, s, LIVE_LANES, ope, neg_slop);
    }
    return hits;
}

static inline uint32_t K(contact_restitution)(const P *p, const R *radius,
                                              const xpbd_contact_set *cs, const R *v0x,
                                              const R *v0y, const R *v0z, uint32_t colour,
                                              uint32_t b0, uint32_t b1, R e, R slop,
                                              R rest_speed)
{
    const V ve = O(set1)(e), neg_slop = O(set1)(-slop), vrest = O(set1)(rest_speed);
    uint32_t hits = 0;
    FOR_SLOTS(cs, colour, b0, b1) {
        hits += K(contact_restitution_at)(p, radius, cs, v0x, v0y, v0z, s, LIVE_LANES, ve,
                                          neg_slop, vrest);
    }
    return hits;
}

#if LANES_IS_ONE
/* ------------------------------------- serial slot ranges (one lane) --- */

static inline uint32_t K(serial_contact_position)(R *q, const P *p, const R *radius,
                                                  const xpbd_contact_set *cs, uint32_t s0,
                                                  uint32_t s1, R beta, int weighted, R mu_s,
                                                  R mu_k)
{
    const int fric = mu_s > 0 || mu_k > 0;
    uint32_t hits = 0;
    for (uint32_t s = s0; s < s1; ++s)
        hits += K(contact_position_at)(q, p, radius, cs, s, 1, beta, weighted, fric, mu_s, mu_k);
    return hits;
}

static inline uint32_t K(serial_contact_velocity)(const P *p, const R *radius,
                                                  const xpbd_contact_set *cs, uint32_t s0,
                                                  uint32_t s1, R e, R slop)
{
    const R ope = 1 + e, neg_slop = -slop;
    uint32_t hits = 0;
    for (uint32_t s = s0; s < s1; ++s)
        hits += K(contact_velocity_at)(p, radius, cs, s, 1, ope, neg_slop);
    return hits;
}

static inline uint32_t K(serial_contact_restitution)(const P *p, const R *radius,
                                                     const xpbd_contact_set *cs, const R *v0x,
                                                     const R *v0y, const R *v0z, uint32_t s0,
                                                     uint32_t s1, R e, R slop, R rest_speed)
{
    const R neg_slop = -slop;
    uint32_t hits = 0;
    for (uint32_t s = s0; s < s1; ++s)
        hits += K(contact_restitution_at)(p, radius, cs, v0x, v0y, v0z, s, 1, e, neg_slop,
                                          rest_speed);
    return hits;
}
#endif
