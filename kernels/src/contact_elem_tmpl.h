/* Per-element contact maths (xpbd/contacts.h), shared by the scalar
 * reference and the SIMD tails; template over R. The SIMD kernels in
 * simd/contact_tmpl.h perform the same operations in the same order. */

/* Position-level friction against a relative displacement (ex, ey, ez)
 * since substep start: returns the fraction f of its tangential part t to
 * remove (0 when there is none) and writes t. */
static inline R SFX(elem_friction)(R ex, R ey, R ez, R nx, R ny, R nz, R corr, R mu_s, R mu_k,
                                   R *tx, R *ty, R *tz)
{
    const R en = (ex * nx + ey * ny) + ez * nz;
    *tx = ex - en * nx;
    *ty = ey - en * ny;
    *tz = ez - en * nz;
    const R tl = SQRT((*tx * *tx + *ty * *ty) + *tz * *tz);
    if (!(tl > 0))
        return 0;
    if (mu_s * corr > tl)
        return 1; /* static: stick */
    R f = (mu_k * corr) / tl;
    if (f > 1)
        f = 1;
    return f;
}

/* Particle-particle contact at position level on the packed copy q. */
static inline uint32_t SFX(elem_contact_position)(R *q, const P *p, const R *radius, uint32_t a,
                                                  uint32_t b, R beta, int weighted, R mu_s,
                                                  R mu_k)
{
    R *qa = q + 4 * (size_t)a, *qb = q + 4 * (size_t)b;
    const R dx = qb[0] - qa[0], dy = qb[1] - qa[1], dz = qb[2] - qa[2];
    const R dist = SQRT((dx * dx + dy * dy) + dz * dz);
    const R pen = (radius[a] + radius[b]) - dist;
    const R w0 = qa[3], w1 = qb[3];
    const R wsum = w0 + w1;
    if (!(pen > 0) || !(dist > 0) || !(wsum > 0))
        return 0;
    R s0 = 0, s1 = w1 > 0 ? (R)1 : (R)0;
    if (weighted) {
        s0 = w0 / wsum;
        s1 = w1 / wsum;
    }
    const R corr = beta * pen;
    const R nx = dx / dist, ny = dy / dist, nz = dz / dist;
    const R k0 = corr * s0, k1 = corr * s1;
    qa[0] = qa[0] - k0 * nx;
    qa[1] = qa[1] - k0 * ny;
    qa[2] = qa[2] - k0 * nz;
    qb[0] = qb[0] + k1 * nx;
    qb[1] = qb[1] + k1 * ny;
    qb[2] = qb[2] + k1 * nz;
    if (mu_s > 0 || mu_k > 0) {
        R tx, ty, tz;
        const R f = SFX(elem_friction)((qb[0] - p->px[b]) - (qa[0] - p->px[a]),
                                       (qb[1] - p->py[b]) - (qa[1] - p->py[a]),
                                       (qb[2] - p->pz[b]) - (qa[2] - p->pz[a]), nx, ny, nz, corr,
                                       mu_s, mu_k, &tx, &ty, &tz);
        const R f0 = f * s0, f1 = f * s1;
        qa[0] = qa[0] + f0 * tx;
        qa[1] = qa[1] + f0 * ty;
        qa[2] = qa[2] + f0 * tz;
        qb[0] = qb[0] - f1 * tx;
        qb[1] = qb[1] - f1 * ty;
        qb[2] = qb[2] - f1 * tz;
    }
    return 1;
}

/* The geometry both velocity passes share: the unit normal from a to b
 * (SoA positions) and w0 + w1; 0 when the pair is out of reach (pen <
 * -slop), coincident or static. */
static inline int SFX(elem_pair_normal)(const P *p, const R *radius, uint32_t a, uint32_t b,
                                        R neg_slop, R n[3], R *wsum)
{
    const R dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
    const R dist = SQRT((dx * dx + dy * dy) + dz * dz);
    const R pen = (radius[a] + radius[b]) - dist;
    *wsum = p->w[a] + p->w[b];
    if (!(pen >= neg_slop) || !(dist > 0) || !(*wsum > 0))
        return 0;
    n[0] = dx / dist;
    n[1] = dy / dist;
    n[2] = dz / dist;
    return 1;
}

/* Normal component of (v[b] - v[a]) for velocity arrays vx, vy, vz. */
static inline R SFX(elem_pair_rel)(const R *vx, const R *vy, const R *vz, uint32_t a, uint32_t b,
                                   const R n[3])
{
    return ((vx[b] - vx[a]) * n[0] + (vy[b] - vy[a]) * n[1]) + (vz[b] - vz[a]) * n[2];
}

/* Equal and opposite impulse j along n: v_a -= (j w_a) n, v_b += (j w_b) n. */
static inline void SFX(elem_pair_impulse)(const P *p, uint32_t a, uint32_t b, R j, const R n[3])
{
    const R ja = j * p->w[a], jb = j * p->w[b];
    p->vx[a] = p->vx[a] - ja * n[0];
    p->vy[a] = p->vy[a] - ja * n[1];
    p->vz[a] = p->vz[a] - ja * n[2];
    p->vx[b] = p->vx[b] + jb * n[0];
    p->vy[b] = p->vy[b] + jb * n[1];
    p->vz[b] = p->vz[b] + jb * n[2];
}

/* Particle-particle contact at velocity level (SoA); ope = 1 + e. */
static inline uint32_t SFX(elem_contact_velocity)(const P *p, const R *radius, uint32_t a,
                                                  uint32_t b, R ope, R neg_slop)
{
    R n[3], wsum;
    if (!SFX(elem_pair_normal)(p, radius, a, b, neg_slop, n, &wsum))
        return 0;
    const R rel = SFX(elem_pair_rel)(p->vx, p->vy, p->vz, a, b, n);
    if (!(rel < 0))
        return 0;
    SFX(elem_pair_impulse)(p, a, b, -(ope * rel) / wsum, n);
    return 1;
}

/* Particle against plane {x : n.x >= d} at position level, packed q. */
static inline uint32_t SFX(elem_plane_position)(R *q, const P *p, const R *radius, size_t i,
                                                const R pl[4], R beta, R mu_s, R mu_k,
                                                R *impulse, R h)
{
    R *qi = q + 4 * i;
    const R dist = ((pl[0] * qi[0] + pl[1] * qi[1]) + pl[2] * qi[2]) - pl[3];
    const R pen = radius[i] - dist;
    if (!(qi[3] > 0) || !(pen > 0))
        return 0;
    const R corr = beta * pen;
    if (impulse)
        impulse[i] = impulse[i] + corr / (qi[3] * h);
    qi[0] = qi[0] + corr * pl[0];
    qi[1] = qi[1] + corr * pl[1];
    qi[2] = qi[2] + corr * pl[2];
    if (mu_s > 0 || mu_k > 0) {
        R tx, ty, tz;
        const R f = SFX(elem_friction)(qi[0] - p->px[i], qi[1] - p->py[i], qi[2] - p->pz[i], pl[0],
                                       pl[1], pl[2], corr, mu_s, mu_k, &tx, &ty, &tz);
        qi[0] = qi[0] - f * tx;
        qi[1] = qi[1] - f * ty;
        qi[2] = qi[2] - f * tz;
    }
    return 1;
}

/* Particle against plane at velocity level (SoA); ope = 1 + e. */
static inline uint32_t SFX(elem_plane_velocity)(const P *p, const R *radius, size_t i,
                                                const R pl[4], R ope, R neg_slop, R *impulse)
{
    const R w = p->w[i];
    const R dist = ((pl[0] * p->x[i] + pl[1] * p->y[i]) + pl[2] * p->z[i]) - pl[3];
    const R pen = radius[i] - dist;
    if (!(w > 0) || !(pen >= neg_slop))
        return 0;
    const R vn = (pl[0] * p->vx[i] + pl[1] * p->vy[i]) + pl[2] * p->vz[i];
    if (!(vn < 0))
        return 0;
    const R dv = ope * vn;
    p->vx[i] = p->vx[i] - dv * pl[0];
    p->vy[i] = p->vy[i] - dv * pl[1];
    p->vz[i] = p->vz[i] - dv * pl[2];
    if (impulse)
        impulse[i] = impulse[i] + -dv / w;
    return 1;
}

static inline void SFX(elem_gravity)(const P *p, size_t i, R gxh, R gyh, R gzh)
{
    if (p->w[i] > 0) {
        p->vx[i] = p->vx[i] + gxh;
        p->vy[i] = p->vy[i] + gyh;
        p->vz[i] = p->vz[i] + gzh;
    }
}

static inline void SFX(elem_integrate)(const P *p, size_t i, R h)
{
    p->px[i] = p->x[i];
    p->py[i] = p->y[i];
    p->pz[i] = p->z[i];
    p->x[i] = p->x[i] + p->vx[i] * h;
    p->y[i] = p->y[i] + p->vy[i] * h;
    p->z[i] = p->z[i] + p->vz[i] * h;
}

/* Velocity pass of the substep order (Mueller et al. 2020, "Detailed rigid
 * body simulation with extended position based dynamics"): restitution acts
 * on the normal relative velocity rel0 from before the position solve
 * (v0 = the predicted velocities), so the position projection's own push
 * does not feed the bounce. If rel0 < 0 (approaching), the normal relative
 * velocity is set to -e*rel0, with e = 0 when -rel0 <= rest_speed (resting
 * contacts do not bounce). May pull a pair together again when the
 * position pass separated it faster than that. */
static inline uint32_t SFX(elem_contact_restitution)(const P *p, const R *radius, const R *v0x,
                                                     const R *v0y, const R *v0z, uint32_t a,
                                                     uint32_t b, R e, R neg_slop, R rest_speed)
{
    R n[3], wsum;
    if (!SFX(elem_pair_normal)(p, radius, a, b, neg_slop, n, &wsum))
        return 0;
    const R rel0 = SFX(elem_pair_rel)(v0x, v0y, v0z, a, b, n);
    if (!(rel0 < 0))
        return 0;
    const R rel = SFX(elem_pair_rel)(p->vx, p->vy, p->vz, a, b, n);
    const R ee = -rel0 > rest_speed ? e : 0;
    SFX(elem_pair_impulse)(p, a, b, (-(ee * rel0) - rel) / wsum, n);
    return 1;
}

/* The same against a plane; the impulse given to the particle, m*dv, is
 * added to impulse[i] when an array is given. */
static inline uint32_t SFX(elem_plane_restitution)(const P *p, const R *radius, const R *v0x,
                                                   const R *v0y, const R *v0z, size_t i,
                                                   const R pl[4], R e, R neg_slop, R rest_speed,
                                                   R *impulse)
{
    const R w = p->w[i];
    const R dist = ((pl[0] * p->x[i] + pl[1] * p->y[i]) + pl[2] * p->z[i]) - pl[3];
    const R pen = radius[i] - dist;
    if (!(w > 0) || !(pen >= neg_slop))
        return 0;
    const R vn0 = (pl[0] * v0x[i] + pl[1] * v0y[i]) + pl[2] * v0z[i];
    if (!(vn0 < 0))
        return 0;
    const R vn = (pl[0] * p->vx[i] + pl[1] * p->vy[i]) + pl[2] * p->vz[i];
    const R ee = -vn0 > rest_speed ? e : 0;
    const R dv = -(ee * vn0) - vn;
    p->vx[i] = p->vx[i] + dv * pl[0];
    p->vy[i] = p->vy[i] + dv * pl[1];
    p->vz[i] = p->vz[i] + dv * pl[2];
    if (impulse)
        impulse[i] = impulse[i] + dv / w;
    return 1;
}
