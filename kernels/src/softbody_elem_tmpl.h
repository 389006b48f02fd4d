/* Per-element soft-body maths (xpbd/softbody.h) on the packed copy q,
 * shared by the scalar reference and the SIMD tails; template over R. The
 * SIMD kernels in simd/softbody_tmpl.h perform the same operations in the
 * same order. */

/* Tetrahedral volume on slot s; ih2 = 1/(h*h). Returns 1 if skipped. */
static inline uint32_t SFX(elem_tet)(R *q, const QS *c, uint32_t s, R ih2)
{
    R *p0 = q + 4 * (size_t)c->i0[s], *p1 = q + 4 * (size_t)c->i1[s];
    R *p2 = q + 4 * (size_t)c->i2[s], *p3 = q + 4 * (size_t)c->i3[s];
    const R e1x = p1[0] - p0[0], e1y = p1[1] - p0[1], e1z = p1[2] - p0[2];
    const R e2x = p2[0] - p0[0], e2y = p2[1] - p0[1], e2z = p2[2] - p0[2];
    const R e3x = p3[0] - p0[0], e3y = p3[1] - p0[1], e3z = p3[2] - p0[2];
    const R g1x = e2y * e3z - e2z * e3y, g1y = e2z * e3x - e2x * e3z, g1z = e2x * e3y - e2y * e3x;
    const R g2x = e3y * e1z - e3z * e1y, g2y = e3z * e1x - e3x * e1z, g2z = e3x * e1y - e3y * e1x;
    const R g3x = e1y * e2z - e1z * e2y, g3y = e1z * e2x - e1x * e2z, g3z = e1x * e2y - e1y * e2x;
    const R g0x = -((g1x + g2x) + g3x), g0y = -((g1y + g2y) + g3y), g0z = -((g1z + g2z) + g3z);
    const R vol6 = (e1x * g1x + e1y * g1y) + e1z * g1z;
    const R w0 = p0[3], w1 = p1[3], w2 = p2[3], w3 = p3[3];
    const R S = ((w0 * ((g0x * g0x + g0y * g0y) + g0z * g0z) +
                  w1 * ((g1x * g1x + g1y * g1y) + g1z * g1z)) +
                 w2 * ((g2x * g2x + g2y * g2y) + g2z * g2z)) +
                w3 * ((g3x * g3x + g3y * g3y) + g3z * g3z);
    /* Collapsed onto a point or a line, the gradients vanish while C does
     * not, and dl = -C/S turns rounding noise into a huge step: skip when S
     * falls below 1e-6 of its natural scale (sum of w) * (sum of |e_k|^2)^2
     * (a regular tet sits at 1/12 of it); exactly 0 when collapsed. */
    const R L2 = (((e1x * e1x + e1y * e1y) + e1z * e1z) + ((e2x * e2x + e2y * e2y) + e2z * e2z)) +
                 ((e3x * e3x + e3y * e3y) + e3z * e3z);
    const R smin = ((R)1e-6 * (((w0 + w1) + w2) + w3)) * (L2 * L2);
    if (!(S > smin))
        return 1;
    const R C = vol6 - c->rest[s];
    const R at = c->compliance[s] * ih2;
    const R dl = (-C - at * c->lambda[s]) / (S + at);
    const R a0 = w0 * dl, a1 = w1 * dl, a2 = w2 * dl, a3 = w3 * dl;
    p0[0] = p0[0] + a0 * g0x;
    p0[1] = p0[1] + a0 * g0y;
    p0[2] = p0[2] + a0 * g0z;
    p1[0] = p1[0] + a1 * g1x;
    p1[1] = p1[1] + a1 * g1y;
    p1[2] = p1[2] + a1 * g1z;
    p2[0] = p2[0] + a2 * g2x;
    p2[1] = p2[1] + a2 * g2y;
    p2[2] = p2[2] + a2 * g2z;
    p3[0] = p3[0] + a3 * g3x;
    p3[1] = p3[1] + a3 * g3y;
    p3[2] = p3[2] + a3 * g3z;
    c->lambda[s] = c->lambda[s] + dl;
    return 0;
}

/* Isometric bending on slot s. Returns 1 if skipped (flat). */
static inline uint32_t SFX(elem_bend)(R *q, const QS *c, uint32_t s, R ih2)
{
    R *p0 = q + 4 * (size_t)c->i0[s], *p1 = q + 4 * (size_t)c->i1[s];
    R *p2 = q + 4 * (size_t)c->i2[s], *p3 = q + 4 * (size_t)c->i3[s];
    const R k0 = c->k0[s], k1 = c->k1[s], k2 = c->k2[s], k3 = c->k3[s], sc = c->scale[s];
    const R hx = ((k0 * p0[0] + k1 * p1[0]) + k2 * p2[0]) + k3 * p3[0];
    const R hy = ((k0 * p0[1] + k1 * p1[1]) + k2 * p2[1]) + k3 * p3[1];
    const R hz = ((k0 * p0[2] + k1 * p1[2]) + k2 * p2[2]) + k3 * p3[2];
    const R hh = (hx * hx + hy * hy) + hz * hz;
    const R w0 = p0[3], w1 = p1[3], w2 = p2[3], w3 = p3[3];
    const R wk = ((w0 * (k0 * k0) + w1 * (k1 * k1)) + w2 * (k2 * k2)) + w3 * (k3 * k3);
    const R S = ((sc * sc) * hh) * wk;
    if (!(S > 0))
        return 1;
    const R C = (sc * hh) * (R)0.5;
    const R at = c->compliance[s] * ih2;
    const R dl = (-C - at * c->lambda[s]) / (S + at);
    const R a0 = ((w0 * sc) * k0) * dl, a1 = ((w1 * sc) * k1) * dl;
    const R a2 = ((w2 * sc) * k2) * dl, a3 = ((w3 * sc) * k3) * dl;
    p0[0] = p0[0] + a0 * hx;
    p0[1] = p0[1] + a0 * hy;
    p0[2] = p0[2] + a0 * hz;
    p1[0] = p1[0] + a1 * hx;
    p1[1] = p1[1] + a1 * hy;
    p1[2] = p1[2] + a1 * hz;
    p2[0] = p2[0] + a2 * hx;
    p2[1] = p2[1] + a2 * hy;
    p2[2] = p2[2] + a2 * hz;
    p3[0] = p3[0] + a3 * hx;
    p3[1] = p3[1] + a3 * hy;
    p3[2] = p3[2] + a3 * hz;
    c->lambda[s] = c->lambda[s] + dl;
    return 0;
}

/* Tether of particle i to its static anchor. Returns 1 if it was taut. */
static inline uint32_t SFX(elem_tether)(R *q, const uint32_t *anchor, const R *length, size_t i)
{
    R *pi = q + 4 * i;
    const R *pa = q + 4 * (size_t)anchor[i];
    const R dx = pi[0] - pa[0], dy = pi[1] - pa[1], dz = pi[2] - pa[2];
    const R len = SQRT((dx * dx + dy * dy) + dz * dz);
    const R C = len - length[i];
    /* the anchor must be static: 0 >= w, written as the SIMD path tests it */
    if (!(pi[3] > 0) || !(0 >= pa[3]) || !(C > 0))
        return 0;
    const R f = C / len;
    pi[0] = pi[0] - f * dx;
    pi[1] = pi[1] - f * dy;
    pi[2] = pi[2] - f * dz;
    return 1;
}
