/* SPDX-License-Identifier: MIT */
/* spring.h: the explicit spring force of a distance constraint (the
 * unstable baseline the stability sweeps need), k = 1/compliance, damped
 * along the spring:
 *
 *   n = d/len;  s = (len - rest)/compliance + damping*((v1 - v0) . n)
 *   f0 += s*n;  f1 -= s*n          (skip len == 0)
 *
 * The forces are integrated by spring_integrate (integrate.h). Template
 * over the precision and the backend (lanes.h). */

LANE_FN uint32_t K(spring_forces_at)(const P *p, const DS *c, R *fx, R *fy, R *fz, uint32_t s,
                                     unsigned n, V damping)
{
    const V zero = O(zero)();
    const uint32_t *ia = c->i0 + s, *ib = c->i1 + s;
    const V dx = O(sub)(O(gather)(p->x, ib), O(gather)(p->x, ia));
    const V dy = O(sub)(O(gather)(p->y, ib), O(gather)(p->y, ia));
    const V dz = O(sub)(O(gather)(p->z, ib), O(gather)(p->z, ia));
    const V len = O(sqrt)(K(norm2)(dx, dy, dz));
    const M ok = O(gt)(len, zero);
    const V nx = O(div)(dx, len), ny = O(div)(dy, len), nz = O(div)(dz, len);
    const V rvx = O(sub)(O(gather)(p->vx, ib), O(gather)(p->vx, ia));
    const V rvy = O(sub)(O(gather)(p->vy, ib), O(gather)(p->vy, ia));
    const V rvz = O(sub)(O(gather)(p->vz, ib), O(gather)(p->vz, ia));
    const V rv = O(add)(O(add)(O(mul)(rvx, nx), O(mul)(rvy, ny)), O(mul)(rvz, nz));
    const V sf = O(add)(O(div)(O(sub)(len, O(load)(c->rest + s)), O(load)(c->compliance + s)),
                        O(mul)(damping, rv));
    const V sx = O(mul)(sf, nx), sy = O(mul)(sf, ny), sz = O(mul)(sf, nz);
    const V fxa = O(gather)(fx, ia), fya = O(gather)(fy, ia), fza = O(gather)(fz, ia);
    const V fxb = O(gather)(fx, ib), fyb = O(gather)(fy, ib), fzb = O(gather)(fz, ib);
    O(scatter)(fx, ia, O(select)(ok, O(add)(fxa, sx), fxa), n);
    O(scatter)(fy, ia, O(select)(ok, O(add)(fya, sy), fya), n);
    O(scatter)(fz, ia, O(select)(ok, O(add)(fza, sz), fza), n);
    O(scatter)(fx, ib, O(select)(ok, O(sub)(fxb, sx), fxb), n);
    O(scatter)(fy, ib, O(select)(ok, O(sub)(fyb, sy), fyb), n);
    O(scatter)(fz, ib, O(select)(ok, O(sub)(fzb, sz), fzb), n);
    return K(count_skipped)(ok, n);
}

static inline uint32_t K(spring_forces)(const P *p, const DS *c, R *fx, R *fy, R *fz,
                                        uint32_t colour, uint32_t b0, uint32_t b1, R damping)
{
    const V vd = O(set1)(damping);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(spring_forces_at)(p, c, fx, fy, fz, s, LIVE_LANES, vd);
    }
    return skipped;
}

#if LANES_IS_ONE
static inline uint32_t K(serial_spring_forces)(const P *p, const DS *c, R *fx, R *fy, R *fz,
                                               uint32_t s0, uint32_t s1, R damping)
{
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(spring_forces_at)(p, c, fx, fy, fz, s, 1, damping);
    return skipped;
}
#endif
