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

static inline void SFX(elem_velocity)(const P *p, size_t i, R h, R keep)
{
    p->vx[i] = ((p->x[i] - p->px[i]) / h) * keep;
    p->vy[i] = ((p->y[i] - p->py[i]) / h) * keep;
    p->vz[i] = ((p->z[i] - p->pz[i]) / h) * keep;
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

/* XPBD distance on slot s; ih2 = 1/(h*h). Returns 1 if skipped.
 * One division per constraint: the step along d is s = dl/len, computed as
 * num/(den*len), so x0 -= (w0*s)*d and x1 += (w1*s)*d need no normal. */
static inline uint32_t SFX(elem_xpbd)(const P *p, const DS *c, uint32_t s, R ih2)
{
    const uint32_t a = c->i0[s], b = c->i1[s];
    const R dx = p->x[b] - p->x[a];
    const R dy = p->y[b] - p->y[a];
    const R dz = p->z[b] - p->z[a];
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R w0 = p->w[a], w1 = p->w[b];
    const R wsum = w0 + w1;
    if (!(len > 0) || !(wsum > 0))
        return 1;
    const R C = len - c->rest[s];
    const R at = c->compliance[s] * ih2;
    const R den = wsum + at;
    const R st = (-C - at * c->lambda[s]) / (den * len);
    const R c0 = w0 * st, c1 = w1 * st;
    p->x[a] = p->x[a] - c0 * dx;
    p->y[a] = p->y[a] - c0 * dy;
    p->z[a] = p->z[a] - c0 * dz;
    p->x[b] = p->x[b] + c1 * dx;
    p->y[b] = p->y[b] + c1 * dy;
    p->z[b] = p->z[b] + c1 * dz;
    c->lambda[s] = c->lambda[s] + st * len;
    return 0;
}

/* Classic PBD distance with stiffness k. Returns 1 if skipped. */
static inline uint32_t SFX(elem_pbd)(const P *p, const DS *c, uint32_t s, R k)
{
    const uint32_t a = c->i0[s], b = c->i1[s];
    const R dx = p->x[b] - p->x[a];
    const R dy = p->y[b] - p->y[a];
    const R dz = p->z[b] - p->z[a];
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R w0 = p->w[a], w1 = p->w[b];
    const R wsum = w0 + w1;
    if (!(len > 0) || !(wsum > 0))
        return 1;
    const R C = len - c->rest[s];
    const R st = -(k * C) / (wsum * len);
    const R c0 = w0 * st, c1 = w1 * st;
    p->x[a] = p->x[a] - c0 * dx;
    p->y[a] = p->y[a] - c0 * dy;
    p->z[a] = p->z[a] - c0 * dz;
    p->x[b] = p->x[b] + c1 * dx;
    p->y[b] = p->y[b] + c1 * dy;
    p->z[b] = p->z[b] + c1 * dz;
    return 0;
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
