/* Per-element maths shared by the scalar reference and the SIMD tails.
 * Template over R (see real_begin.h). The SIMD kernels in simd/ perform the
 * same operations in the same order on whole vectors; any edit here must be
 * mirrored there (the cross-check tests fail otherwise). */

static inline void SFX(elem_predict)(const P *p, size_t i, R h, R gxh, R gyh, R gzh)
{
    if (p->w[i] > 0) {
        p->vx[i] = p->vx[i] + gxh;
        p->vy[i] = p->vy[i] + gyh;
        p->vz[i] = p->vz[i] + gzh;
    }
    p->px[i] = p->x[i];
    p->py[i] = p->y[i];
    p->pz[i] = p->z[i];
    p->x[i] = p->x[i] + p->vx[i] * h;
    p->y[i] = p->y[i] + p->vy[i] * h;
    p->z[i] = p->z[i] + p->vz[i] * h;
}

/* ih = 1/h, computed once per call: a multiply, not three divisions, per
 * particle (divisions bound this kernel at every SIMD width) */
static inline void SFX(elem_velocity)(const P *p, size_t i, R ih, R keep)
{
    p->vx[i] = ((p->x[i] - p->px[i]) * ih) * keep;
    p->vy[i] = ((p->y[i] - p->py[i]) * ih) * keep;
    p->vz[i] = ((p->z[i] - p->pz[i]) * ih) * keep;
}

static inline void SFX(elem_spring_integrate)(const P *p, R *fx, R *fy, R *fz, size_t i, R h,
                                              R gx, R gy, R gz)
{
    R w = p->w[i];
    if (w > 0) {
        p->vx[i] = p->vx[i] + (fx[i] * w + gx) * h;
        p->vy[i] = p->vy[i] + (fy[i] * w + gy) * h;
        p->vz[i] = p->vz[i] + (fz[i] * w + gz) * h;
    }
    p->px[i] = p->x[i];
    p->py[i] = p->y[i];
    p->pz[i] = p->z[i];
    p->x[i] = p->x[i] + p->vx[i] * h;
    p->y[i] = p->y[i] + p->vy[i] * h;
    p->z[i] = p->z[i] + p->vz[i] * h;
    fx[i] = 0;
    fy[i] = 0;
    fz[i] = 0;
}

/* The distance projections work on two endpoints given by pointers to
 * their coordinates, so the same maths serves the caller's SoA arrays and
 * the packed (x, y, z, w) copy the step driver solves on. */
typedef struct SFX(elem_end) {
    R *x, *y, *z;
    R w;
} SFX(elem_end);

static inline SFX(elem_end) SFX(elem_end_soa)(const P *p, uint32_t i)
{
    SFX(elem_end) e = {p->x + i, p->y + i, p->z + i, p->w[i]};
    return e;
}

static inline SFX(elem_end) SFX(elem_end_packed)(R *q, uint32_t i)
{
    R *b = q + 4 * (size_t)i;
    SFX(elem_end) e = {b, b + 1, b + 2, b[3]};
    return e;
}

/* XPBD distance; ih2 = 1/(h*h). Returns 1 if skipped.
 * One division per constraint: the step along d is s = dl/len, computed as
 * num/(den*len), so x0 -= (w0*s)*d and x1 += (w1*s)*d need no normal. */
static inline uint32_t SFX(elem_xpbd_core)(SFX(elem_end) a, SFX(elem_end) b, R rest, R compliance,
                                           R *lambda, R ih2)
{
    const R dx = *b.x - *a.x;
    const R dy = *b.y - *a.y;
    const R dz = *b.z - *a.z;
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R wsum = a.w + b.w;
    if (!(len > 0) || !(wsum > 0))
        return 1;
    const R C = len - rest;
    const R at = compliance * ih2;
    const R den = wsum + at;
    const R st = (-C - at * *lambda) / (den * len);
    const R c0 = a.w * st, c1 = b.w * st;
    *a.x = *a.x - c0 * dx;
    *a.y = *a.y - c0 * dy;
    *a.z = *a.z - c0 * dz;
    *b.x = *b.x + c1 * dx;
    *b.y = *b.y + c1 * dy;
    *b.z = *b.z + c1 * dz;
    *lambda = *lambda + st * len;
    return 0;
}

/* Classic PBD distance with stiffness k. Returns 1 if skipped. */
static inline uint32_t SFX(elem_pbd_core)(SFX(elem_end) a, SFX(elem_end) b, R rest, R k)
{
    const R dx = *b.x - *a.x;
    const R dy = *b.y - *a.y;
    const R dz = *b.z - *a.z;
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R wsum = a.w + b.w;
    if (!(len > 0) || !(wsum > 0))
        return 1;
    const R C = len - rest;
    const R st = -(k * C) / (wsum * len);
    const R c0 = a.w * st, c1 = b.w * st;
    *a.x = *a.x - c0 * dx;
    *a.y = *a.y - c0 * dy;
    *a.z = *a.z - c0 * dz;
    *b.x = *b.x + c1 * dx;
    *b.y = *b.y + c1 * dy;
    *b.z = *b.z + c1 * dz;
    return 0;
}

static inline uint32_t SFX(elem_xpbd)(const P *p, const DS *c, uint32_t s, R ih2)
{
    return SFX(elem_xpbd_core)(SFX(elem_end_soa)(p, c->i0[s]), SFX(elem_end_soa)(p, c->i1[s]),
                               c->rest[s], c->compliance[s], c->lambda + s, ih2);
}

static inline uint32_t SFX(elem_xpbd_packed)(R *q, const DS *c, uint32_t s, R ih2)
{
    return SFX(elem_xpbd_core)(SFX(elem_end_packed)(q, c->i0[s]),
                               SFX(elem_end_packed)(q, c->i1[s]), c->rest[s], c->compliance[s],
                               c->lambda + s, ih2);
}

static inline uint32_t SFX(elem_pbd)(const P *p, const DS *c, uint32_t s, R k)
{
    return SFX(elem_pbd_core)(SFX(elem_end_soa)(p, c->i0[s]), SFX(elem_end_soa)(p, c->i1[s]),
                              c->rest[s], k);
}

static inline uint32_t SFX(elem_pbd_packed)(R *q, const DS *c, uint32_t s, R k)
{
    return SFX(elem_pbd_core)(SFX(elem_end_packed)(q, c->i0[s]),
                              SFX(elem_end_packed)(q, c->i1[s]), c->rest[s], k);
}

static inline void SFX(elem_pack)(const P *p, R *q, size_t i)
{
    q[4 * i] = p->x[i];
    q[4 * i + 1] = p->y[i];
    q[4 * i + 2] = p->z[i];
    q[4 * i + 3] = p->w[i];
}

static inline void SFX(elem_unpack)(const R *q, const P *p, size_t i)
{
    p->x[i] = q[4 * i];
    p->y[i] = q[4 * i + 1];
    p->z[i] = q[4 * i + 2];
}

/* Explicit spring force, k = 1/compliance, damping along the spring. */
static inline uint32_t SFX(elem_spring)(const P *p, const DS *c, R *fx, R *fy, R *fz, uint32_t s,
                                        R damping)
{
    const uint32_t a = c->i0[s], b = c->i1[s];
    const R dx = p->x[b] - p->x[a];
    const R dy = p->y[b] - p->y[a];
    const R dz = p->z[b] - p->z[a];
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    if (!(len > 0))
        return 1;
    const R nx = dx / len, ny = dy / len, nz = dz / len;
    const R rv = ((p->vx[b] - p->vx[a]) * nx + (p->vy[b] - p->vy[a]) * ny) +
                 (p->vz[b] - p->vz[a]) * nz;
    const R sf = (len - c->rest[s]) / c->compliance[s] + damping * rv;
    const R sx = sf * nx, sy = sf * ny, sz = sf * nz;
    fx[a] = fx[a] + sx;
    fy[a] = fy[a] + sy;
    fz[a] = fz[a] + sz;
    fx[b] = fx[b] - sx;
    fy[b] = fy[b] - sy;
    fz[b] = fz[b] - sz;
    return 0;
}

/* C + at*lambda on slot s, 0 where the constraint is skipped. */
static inline R SFX(elem_residual)(const P *p, const DS *c, uint32_t s, R ih2)
{
    const uint32_t a = c->i0[s], b = c->i1[s];
    const R dx = p->x[b] - p->x[a];
    const R dy = p->y[b] - p->y[a];
    const R dz = p->z[b] - p->z[a];
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R wsum = p->w[a] + p->w[b];
    if (!(len > 0) || !(wsum > 0))
        return 0;
    const R at = c->compliance[s] * ih2;
    return (len - c->rest[s]) + at * c->lambda[s];
}

/* Canonical 16-accumulator tree (see xpbd/kernels.h). */
static inline R SFX(elem_tree16)(R acc[16])
{
    for (int j = 0; j < 8; ++j) acc[j] = acc[j] + acc[j + 8];
    for (int j = 0; j < 4; ++j) acc[j] = acc[j] + acc[j + 4];
    for (int j = 0; j < 2; ++j) acc[j] = acc[j] + acc[j + 2];
    return acc[0] + acc[1];
}

static inline R SFX(elem_kinetic)(const P *p, size_t i)
{
    const R w = p->w[i];
    if (!(w > 0))
        return 0;
    return ((p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i]) + p->vz[i] * p->vz[i]) / w;
}
