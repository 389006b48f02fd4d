/* SPDX-License-Identifier: MIT */
/* integrate.h: the per-particle passes that move particles through a
 * substep of length h, and the packed copy the constraint solves use.
 *
 *   predict          w > 0: v += g*h;  always: p = x;  x += v*h
 *   gravity          the first half of predict:  w > 0: v += g*h
 *   integrate        the second half:  p = x;  x += v*h
 *   update_velocity  v = ((x - p) * (1/h)) * keep        (keep = 1 - damping)
 *   spring_integrate w > 0: v += (f*w + g)*h;  p = x;  x += v*h;  then f = 0
 *   pack, unpack     q[4*i .. 4*i+3] = x, y, z, w and back (x, y, z only)
 *   predict_pack, unpack_velocity   the two fused in one pass each
 *   relaunch_packed  one substep's unpack_velocity and the next one's
 *                    predict_pack in one pass (the same arithmetic:
 *                    v = ((q - p) * (1/h)) * keep; w > 0: v += g*h;
 *                    p = q; x = q + v*h; q = x, w), writing p and q only
 *                    (x and v left as they were: a substep loop that reads
 *                    neither before its last update, which computes both
 *                    from q and p alone); the step's private row
 *
 * Template over the precision and the backend (lanes.h): each lane function
 * handles the L particles from i; the range kernels run it on whole
 * vectors, then its one-lane instantiation (TAIL) on the rest. */

/* w > 0: v + dv; otherwise v */
LANE_FN V K(kick)(M dyn, V v, V dv)
{
    return O(select)(dyn, O(add)(v, dv), v);
}

/* p = x; x += v*h for the velocities given; the new positions out. */
LANE_FN void K(drift_at)(const P *p, size_t i, V vx, V vy, V vz, V h, V *nx, V *ny, V *nz)
{
    const V x = O(load)(p->x + i), y = O(load)(p->y + i), z = O(load)(p->z + i);
    *nx = O(add)(x, O(mul)(vx, h));
    *ny = O(add)(y, O(mul)(vy, h));
    *nz = O(add)(z, O(mul)(vz, h));
    O(store)(p->px + i, x);
    O(store)(p->py + i, y);
    O(store)(p->pz + i, z);
    O(store)(p->x + i, *nx);
    O(store)(p->y + i, *ny);
    O(store)(p->z + i, *nz);
}

/* The one predict: gh = g*h per axis; the new positions and w out. */
LANE_FN void K(predict_at)(const P *p, size_t i, V h, V gxh, V gyh, V gzh, V *nx, V *ny, V *nz,
                           V *w)
{
    *w = O(load)(p->w + i);
    const M dyn = O(gt)(*w, O(zero)());
    const V vx = K(kick)(dyn, O(load)(p->vx + i), gxh);
    const V vy = K(kick)(dyn, O(load)(p->vy + i), gyh);
    const V vz = K(kick)(dyn, O(load)(p->vz + i), gzh);
    O(store)(p->vx + i, vx);
    O(store)(p->vy + i, vy);
    O(store)(p->vz + i, vz);
    K(drift_at)(p, i, vx, vy, vz, h, nx, ny, nz);
}

LANE_FN void K(gravity_at)(const P *p, size_t i, V gxh, V gyh, V gzh)
{
    const M dyn = O(gt)(O(load)(p->w + i), O(zero)());
    O(store)(p->vx + i, K(kick)(dyn, O(load)(p->vx + i), gxh));
    O(store)(p->vy + i, K(kick)(dyn, O(load)(p->vy + i), gyh));
    O(store)(p->vz + i, K(kick)(dyn, O(load)(p->vz + i), gzh));
}

LANE_FN void K(integrate_at)(const P *p, size_t i, V h)
{
    V nx, ny, nz;
    K(drift_at)(p, i, O(load)(p->vx + i), O(load)(p->vy + i), O(load)(p->vz + i), h, &nx, &ny,
                &nz);
}

/* v = ((x - p) * ih) * keep, for the positions x, y, z given */
LANE_FN void K(velocity_at)(const P *p, size_t i, V x, V y, V z, V ih, V keep)
{
    O(store)(p->vx + i, O(mul)(O(mul)(O(sub)(x, O(load)(p->px + i)), ih), keep));
    O(store)(p->vy + i, O(mul)(O(mul)(O(sub)(y, O(load)(p->py + i)), ih), keep));
    O(store)(p->vz + i, O(mul)(O(mul)(O(sub)(z, O(load)(p->pz + i)), ih), keep));
}

LANE_FN void K(spring_integrate_at)(const P *p, R *fx, R *fy, R *fz, size_t i, V h, V gx, V gy,
                                    V gz)
{
    const V w = O(load)(p->w + i);
    const M dyn = O(gt)(w, O(zero)());
    const V vx = K(kick)(dyn, O(load)(p->vx + i), O(mul)(O(add)(O(mul)(O(load)(fx + i), w), gx), h));
    const V vy = K(kick)(dyn, O(load)(p->vy + i), O(mul)(O(add)(O(mul)(O(load)(fy + i), w), gy), h));
    const V vz = K(kick)(dyn, O(load)(p->vz + i), O(mul)(O(add)(O(mul)(O(load)(fz + i), w), gz), h));
    V nx, ny, nz;
    O(store)(p->vx + i, vx);
    O(store)(p->vy + i, vy);
    O(store)(p->vz + i, vz);
    K(drift_at)(p, i, vx, vy, vz, h, &nx, &ny, &nz);
    O(store)(fx + i, O(zero)());
    O(store)(fy + i, O(zero)());
    O(store)(fz + i, O(zero)());
}

/* ------------------------------------------------------ range kernels --- */

static inline void K(predict)(const P *p, size_t begin, size_t end, R h, R gx, R gy, R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    const V vh = O(set1)(h), vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    V x, y, z, w;
    R x1, y1, z1, w1;
    size_t i = begin;
    for (; i + L <= end; i += L)
        K(predict_at)(p, i, vh, vgx, vgy, vgz, &x, &y, &z, &w);
    for (; i < end; ++i)
        TAIL(predict_at)(p, i, h, gxh, gyh, gzh, &x1, &y1, &z1, &w1);
}

static inline void K(predict_pack)(const P *p, R *q, size_t begin, size_t end, R h, R gx, R gy,
                                   R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    const V vh = O(set1)(h), vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    size_t i = begin;
    for (; i + L <= end; i += L) {
        V x, y, z, w;
        K(predict_at)(p, i, vh, vgx, vgy, vgz, &x, &y, &z, &w);
        O(store4c)(q, i, x, y, z, w);
    }
    for (; i < end; ++i) {
        R x, y, z, w;
        TAIL(predict_at)(p, i, h, gxh, gyh, gzh, &x, &y, &z, &w);
        O1(store4c)(q, i, x, y, z, w);
    }
}

static inline void K(gravity)(const P *p, size_t begin, size_t end, R gxh, R gyh, R gzh)
{
    const V vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    size_t i = begin;
    for (; i + L <= end; i += L)
        K(gravity_at)(p, i, vgx, vgy, vgz);
    for (; i < end; ++i)
        TAIL(gravity_at)(p, i, gxh, gyh, gzh);
}

static inline void K(integrate)(const P *p, size_t begin, size_t end, R h)
{
    const V vh = O(set1)(h);
    size_t i = begin;
    for (; i + L <= end; i += L)
        K(integrate_at)(p, i, vh);
    for (; i < end; ++i)
        TAIL(integrate_at)(p, i, h);
}

/* ih = 1/h, computed once per call: a multiply, not three divisions, per
 * particle (divisions bound this kernel at every SIMD width) */
static inline void K(update_velocity)(const P *p, size_t begin, size_t end, R h, R keep)
{
    const R ih = 1 / h;
    const V vih = O(set1)(ih), vk = O(set1)(keep);
    size_t i = begin;
    for (; i + L <= end; i += L)
        K(velocity_at)(p, i, O(load)(p->x + i), O(load)(p->y + i), O(load)(p->z + i), vih, vk);
    for (; i < end; ++i)
        TAIL(velocity_at)(p, i, p->x[i], p->y[i], p->z[i], ih, keep);
}

static inline void K(unpack_velocity)(const R *q, const P *p, size_t begin, size_t end, R h,
                                      R keep)
{
    const R ih = 1 / h;
    const V vih = O(set1)(ih), vk = O(set1)(keep);
    size_t i = begin;
    for (; i + L <= end; i += L) {
        V x, y, z, w;
        O(load4c)(q, i, &x, &y, &z, &w);
        O(store)(p->x + i, x);
        O(store)(p->y + i, y);
        O(store)(p->z + i, z);
        K(velocity_at)(p, i, x, y, z, vih, vk);
    }
    for (; i < end; ++i) {
        R x, y, z, w;
        O1(load4c)(q, i, &x, &y, &z, &w);
        p->x[i] = x;
        p->y[i] = y;
        p->z[i] = z;
        TAIL(velocity_at)(p, i, x, y, z, ih, keep);
    }
}

/* unpack_velocity then predict_pack on the L particles from i, whose
 * packed positions are x, y, z: the velocity from them, the kick, the
 * drift and the new packed copy, without the round trip through p->x and
 * p->v in between; full = 0: x and v not written (relaunch_packed). */
LANE_FN void K(relaunch_at)(const P *p, R *q, size_t i, V x, V y, V z, V ih, V keep, V h, V gxh,
                            V gyh, V gzh, int full)
{
    const V w = O(load)(p->w + i);
    const M dyn = O(gt)(w, O(zero)());
    const V vx = K(kick)(dyn, O(mul)(O(mul)(O(sub)(x, O(load)(p->px + i)), ih), keep), gxh);
    const V vy = K(kick)(dyn, O(mul)(O(mul)(O(sub)(y, O(load)(p->py + i)), ih), keep), gyh);
    const V vz = K(kick)(dyn, O(mul)(O(mul)(O(sub)(z, O(load)(p->pz + i)), ih), keep), gzh);
    const V nx = O(add)(x, O(mul)(vx, h)), ny = O(add)(y, O(mul)(vy, h)),
            nz = O(add)(z, O(mul)(vz, h));
    if (full) {
        O(store)(p->vx + i, vx);
        O(store)(p->vy + i, vy);
        O(store)(p->vz + i, vz);
    }
    O(store)(p->px + i, x);
    O(store)(p->py + i, y);
    O(store)(p->pz + i, z);
    if (full) {
        O(store)(p->x + i, nx);
        O(store)(p->y + i, ny);
        O(store)(p->z + i, nz);
    }
    O(store4c)(q, i, nx, ny, nz, w);
}

/* always inlined: full is a constant in each kernel */
LANE_FN void K(relaunch_range)(R *q, const P *p, size_t begin, size_t end, R h, R keep, R gx,
                               R gy, R gz, int full)
{
    const R ih = 1 / h, gxh = gx * h, gyh = gy * h, gzh = gz * h;
    const V vih = O(set1)(ih), vk = O(set1)(keep), vh = O(set1)(h);
    const V vgx = O(set1)(gxh), vgy = O(set1)(gyh), vgz = O(set1)(gzh);
    size_t i = begin;
    for (; i + L <= end; i += L) {
        V x, y, z, w;
        O(load4c)(q, i, &x, &y, &z, &w);
        K(relaunch_at)(p, q, i, x, y, z, vih, vk, vh, vgx, vgy, vgz, full);
    }
    for (; i < end; ++i) {
        R x, y, z, w;
        O1(load4c)(q, i, &x, &y, &z, &w);
        TAIL(relaunch_at)(p, q, i, x, y, z, ih, keep, h, gxh, gyh, gzh, full);
    }
}

static inline void K(relaunch_packed)(R *q, const P *p, size_t begin, size_t end, R h, R keep,
                                      R gx, R gy, R gz)
{
    K(relaunch_range)(q, p, begin, end, h, keep, gx, gy, gz, 0);
}

static inline void K(spring_integrate)(const P *p, R *fx, R *fy, R *fz, size_t begin, size_t end,
                                       R h, R gx, R gy, R gz)
{
    const V vh = O(set1)(h), vgx = O(set1)(gx), vgy = O(set1)(gy), vgz = O(set1)(gz);
    size_t i = begin;
    for (; i + L <= end; i += L)
        K(spring_integrate_at)(p, fx, fy, fz, i, vh, vgx, vgy, vgz);
    for (; i < end; ++i)
        TAIL(spring_integrate_at)(p, fx, fy, fz, i, h, gx, gy, gz);
}

static inline void K(pack)(const P *p, R *q, size_t begin, size_t end)
{
    size_t i = begin;
    for (; i + L <= end; i += L)
        O(store4c)(q, i, O(load)(p->x + i), O(load)(p->y + i), O(load)(p->z + i),
                   O(load)(p->w + i));
    for (; i < end; ++i)
        O1(store4c)(q, i, p->x[i], p->y[i], p->z[i], p->w[i]);
}

static inline void K(unpack)(const R *q, const P *p, size_t begin, size_t end)
{
    size_t i = begin;
    for (; i + L <= end; i += L) {
        V x, y, z, w;
        O(load4c)(q, i, &x, &y, &z, &w);
        O(store)(p->x + i, x);
        O(store)(p->y + i, y);
        O(store)(p->z + i, z);
    }
    for (; i < end; ++i) {
        p->x[i] = q[4 * i];
        p->y[i] = q[4 * i + 1];
        p->z[i] = q[4 * i + 2];
    }
}
