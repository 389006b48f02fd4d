/* SPDX-License-Identifier: MIT */
/* Quad sets (the tetrahedron and bending sets' layout, validator and
 * builders' common parts), relative damping and rigid coupling
 * (xpbd/softbody.h). The builders are their kinds' (kinds/tet_volume.c,
 * kinds/bend.c). */
#ifndef XPBD_SELF
#define XPBD_SELF "softbody.c"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

xpbd_field xpbd__rigid_field(const xpbd_rigid_f64 *b)
{
    if (b->shape != XPBD_RIGID_SPHERE && b->shape != XPBD_RIGID_BOX)
        return XPBD_FIELD_SHAPE;
    for (int k = 0; k < 3; ++k)
        if (!isfinite(b->centre[k]))
            return XPBD_FIELD_CENTRE;
    for (int k = 0; k < 9; ++k)
        if (!isfinite(b->rot[k]))
            return XPBD_FIELD_ROT;
    for (int k = 0; k < 3; ++k)
        if (!isfinite(b->half[k]) || !(b->half[k] > 0 || (b->shape == XPBD_RIGID_SPHERE && k > 0)))
            return XPBD_FIELD_HALF;
    if (!isfinite(b->inv_mass) || b->inv_mass < 0)
        return XPBD_FIELD_INV_MASS;
    for (int k = 0; k < 9; ++k)
        if (!isfinite(b->inv_inertia[k]))
            return XPBD_FIELD_INV_INERTIA;
    return XPBD_FIELD_NONE;
}

int xpbd__rigid_ok(const xpbd_rigid_f64 *b)
{
    return xpbd__rigid_field(b) == XPBD_FIELD_NONE;
}

#  include "each_precision.h"

/* The exported names, written out: each calls its template instance above. */

void xpbd_quad_set_free_f32(xpbd_quad_set_f32 *set)
{
    softbody_quad_set_free_f32(set);
}

void xpbd_quad_set_free_f64(xpbd_quad_set_f64 *set)
{
    softbody_quad_set_free_f64(set);
}

xpbd_status xpbd__quad_set_fields_f32(const xpbd_quad_set_f32 *c, const uint32_t *stamp)
{
    return softbody_quad_set_fields_f32(c, stamp);
}

xpbd_status xpbd__quad_set_fields_f64(const xpbd_quad_set_f64 *c, const uint32_t *stamp)
{
    return softbody_quad_set_fields_f64(c, stamp);
}

xpbd_status xpbd__quad_set_slots_f32(const xpbd_quad_set_f32 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index)
{
    return softbody_quad_set_slots_f32(c, n, s0, s1, bad_index);
}

xpbd_status xpbd__quad_set_slots_f64(const xpbd_quad_set_f64 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index)
{
    return softbody_quad_set_slots_f64(c, n, s0, s1, bad_index);
}

xpbd_status xpbd_quad_set_validate_f32(const xpbd_quad_set_f32 *c, size_t n, uint32_t *stamp,
                                       size_t *bad_index)
{
    return softbody_quad_set_validate_f32(c, n, stamp, bad_index);
}

xpbd_status xpbd_quad_set_validate_f64(const xpbd_quad_set_f64 *c, size_t n, uint32_t *stamp,
                                       size_t *bad_index)
{
    return softbody_quad_set_validate_f64(c, n, stamp, bad_index);
}

xpbd_status xpbd_damp_relative_f32(const xpbd_particles_f32 *p, size_t begin, size_t end, double k)
{
    return softbody_damp_relative_f32(p, begin, end, k);
}

xpbd_status xpbd_damp_relative_f64(const xpbd_particles_f64 *p, size_t begin, size_t end, double k)
{
    return softbody_damp_relative_f64(p, begin, end, k);
}

xpbd_status xpbd_couple_rigid_f32(float *q, const xpbd_particles_f32 *p, const float *radius,
                                  size_t begin, size_t end, const xpbd_rigid_f64 *body, double h,
                                  xpbd_rigid_impulse *out)
{
    return softbody_couple_rigid_f32(q, p, radius, begin, end, body, h, out);
}

xpbd_status xpbd_couple_rigid_f64(double *q, const xpbd_particles_f64 *p, const double *radius,
                                  size_t begin, size_t end, const xpbd_rigid_f64 *body, double h,
                                  xpbd_rigid_impulse *out)
{
    return softbody_couple_rigid_f64(q, p, radius, begin, end, body, h, out);
}

#else /* one precision, read through each_precision.h */
/* Soft-body builders and per-body operations, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define softbody_quad_set_free PREC(softbody_quad_set_free_f32, softbody_quad_set_free_f64)
#define softbody_quad_set_fields PREC(softbody_quad_set_fields_f32, softbody_quad_set_fields_f64)
#define softbody_quad_set_slots PREC(softbody_quad_set_slots_f32, softbody_quad_set_slots_f64)
#define softbody_quad_set_validate PREC(softbody_quad_set_validate_f32, softbody_quad_set_validate_f64)
#define softbody_damp_relative PREC(softbody_damp_relative_f32, softbody_damp_relative_f64)
#define softbody_rigid_probe PREC(softbody_rigid_probe_f32, softbody_rigid_probe_f64)
#define softbody_couple_rigid PREC(softbody_couple_rigid_f32, softbody_couple_rigid_f64)

static void softbody_quad_set_free(QS *set)
{
    if (!set)
        return;
    free(set->block_);
    memset(set, 0, sizeof *set);
}

/* The set's own fields: pointers and layout (XPBD_OK for an empty set). */
static xpbd_status softbody_quad_set_fields(const QS *c, const uint32_t *stamp)
{
    if (!c)
        return XPBD_ERR_ARGUMENT;
    if (c->slots == 0)
        return c->count == 0 ? XPBD_OK : XPBD_ERR_ARGUMENT;
    if (!c->i0 || !c->i1 || !c->i2 || !c->i3 || !c->rest || !c->k0 || !c->k1 || !c->k2 ||
        !c->k3 || !c->scale || !c->compliance || !c->lambda || !c->source ||
        (c->colours && !stamp) ||
        !xpbd__layout_ok(c->count, c->slots, c->colours, c->colour_begin, c->colour_size,
                         c->overflow_begin))
        return XPBD_ERR_ARGUMENT;
    return XPBD_OK;
}

/* The per-slot checks on slots [s0, s1): the first bad slot and its status. */
static xpbd_status softbody_quad_set_slots(const QS *c, size_t n, uint32_t s0, uint32_t s1,
                                       size_t *bad_index)
{
    uint32_t k = 0;
    while (k < c->colours && s0 >= c->colour_begin[k + 1])
        ++k;
    for (uint32_t s = s0; s < s1; ++s) {
        while (k < c->colours && s >= c->colour_begin[k + 1])
            ++k;
        const int pad = k < c->colours && s >= c->colour_begin[k] + c->colour_size[k];
        const uint32_t v[4] = {c->i0[s], c->i1[s], c->i2[s], c->i3[s]};
        xpbd_status st = XPBD_OK;
        int bad = v[0] >= n || v[1] >= n || v[2] >= n || v[3] >= n;
        if (pad) {
            bad |= c->source[s] != XPBD_PAD || v[1] != v[0] || v[2] != v[0] || v[3] != v[0] ||
                   c->lambda[s] != 0;
            if (bad)
                st = XPBD_ERR_INDEX;
        } else {
            for (int a = 0; a < 4; ++a)
                for (int b = a + 1; b < 4; ++b)
                    bad |= v[a] == v[b];
            if (bad || c->source[s] == XPBD_PAD)
                st = XPBD_ERR_INDEX;
            else if (!isfinite(c->compliance[s]) || c->compliance[s] < 0)
                st = XPBD_ERR_COMPLIANCE;
            else if (!isfinite(c->lambda[s]))
                st = XPBD_ERR_LAMBDA;
            else if (!isfinite(c->rest[s]) || !isfinite(c->k0[s]) || !isfinite(c->k1[s]) ||
                     !isfinite(c->k2[s]) || !isfinite(c->k3[s]) || !isfinite(c->scale[s]))
                st = XPBD_ERR_REST;
        }
        if (st != XPBD_OK) {
            *bad_index = s;
            return st;
        }
    }
    return XPBD_OK;
}

static xpbd_status softbody_quad_set_validate(const QS *c, size_t n, uint32_t *stamp,
                                          size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    xpbd_status st = softbody_quad_set_fields(c, stamp);
    if (st != XPBD_OK || c->slots == 0)
        return st;
    if ((st = softbody_quad_set_slots(c, n, 0, c->slots, &bad)) == XPBD_OK) {
        const uint32_t *const idx[4] = {c->i0, c->i1, c->i2, c->i3};
        const uint32_t r = xpbd__colour_repeat(c->colours, c->colour_begin, c->colour_size,
                                               idx, 4, NULL, n, stamp);
        if (r != UINT32_MAX) {
            bad = r;
            st = XPBD_ERR_INDEX;
        }
    }
    if (bad_index)
        *bad_index = bad;
    return st;
}

/* Colours count four-particle constraints and lays out a set; fills the
 * index arrays and returns, through order[], the input index of each slot
 * (XPBD_PAD for padding) so the caller can fill its coefficients. */
xpbd_status xpbd__quad_set_layout(QS *out, size_t n, size_t count, const uint32_t *idx,
                                    const xpbd_colouring_options *options)
{
    uint32_t max_colours = options && options->max_colours ? options->max_colours : 32u;
    if (max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    if (options && options->serial)
        max_colours = 0;
    uint64_t *used = malloc((n ? n : 1) * sizeof *used);
    uint8_t *colour_of = malloc(count ? count : 1);
    if (!used || !colour_of) {
        free(used);
        free(colour_of);
        return XPBD_ERR_NOMEM;
    }
    xpbd__layout lay;
    const uint32_t *const ix[4] = {idx, idx + 1, idx + 2, idx + 3};
    xpbd__colour(n, count, 4, ix, 4, max_colours, used, colour_of, &lay);
    free(used);
    const size_t slots = lay.slots, nreal = 9 * slots;
    const size_t nu32 = 5 * slots + 2 * (size_t)lay.colours + 1;
    char *block = aligned_alloc(64, (nreal * sizeof(R) + nu32 * sizeof(uint32_t) + 63) / 64 * 64);
    if (!block) {
        free(colour_of);
        return XPBD_ERR_NOMEM;
    }
    memset(block, 0, nreal * sizeof(R));
    R *r = (R *)(void *)block;
    out->rest = r;
    out->k0 = r + slots;
    out->k1 = r + 2 * slots;
    out->k2 = r + 3 * slots;
    out->k3 = r + 4 * slots;
    out->scale = r + 5 * slots;
    out->compliance = r + 6 * slots;
    out->lambda = r + 7 * slots;
    /* r + 8 * slots: spare row keeps the index arrays 64-byte aligned in f32 */
    uint32_t *u = (uint32_t *)(void *)(block + nreal * sizeof(R));
    out->i0 = u;
    out->i1 = u + slots;
    out->i2 = u + 2 * slots;
    out->i3 = u + 3 * slots;
    out->source = u + 4 * slots;
    out->colour_begin = u + 5 * slots;
    out->colour_size = out->colour_begin + lay.colours + 1;
    out->block_ = block;
    out->count = (uint32_t)count;
    out->slots = (uint32_t)slots;
    out->colours = lay.colours;
    out->overflow_begin = lay.overflow_begin;
    for (uint32_t k = 0; k <= lay.colours; ++k)
        out->colour_begin[k] = lay.begin[k];
    for (uint32_t k = 0; k < lay.colours; ++k)
        out->colour_size[k] = lay.size[k];
    for (size_t t = 0; t < count; ++t) {
        const uint32_t s = lay.fill[colour_of[t]]++;
        out->i0[s] = idx[4 * t];
        out->i1[s] = idx[4 * t + 1];
        out->i2[s] = idx[4 * t + 2];
        out->i3[s] = idx[4 * t + 3];
        out->source[s] = (uint32_t)t;
    }
    free(colour_of);
    for (uint32_t k = 0; k < lay.colours; ++k)
        for (uint32_t s = lay.begin[k] + lay.size[k]; s < lay.begin[k + 1]; ++s) {
            out->i0[s] = out->i1[s] = out->i2[s] = out->i3[s] = out->i0[lay.begin[k]];
            out->source[s] = XPBD_PAD;
        }
    return XPBD_OK;
}

/* Common start of the two builders: clears *out and *bad_index, then
 * checks sizes, rest positions, indices and compliances. */
xpbd_status xpbd__quad_set_inputs(QS *out, size_t n, const R *xyz, size_t count,
                                    const uint32_t *idx, const R *compliance, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (n > (size_t)INT32_MAX || count > (size_t)INT32_MAX / 8 ||
        (count && (!idx || !compliance || !xyz)))
        return XPBD_ERR_ARGUMENT;
    for (size_t i = 0; i < 3 * n && xyz; ++i)
        if (!isfinite(xyz[i])) {
            if (bad_index)
                *bad_index = i / 3;
            return XPBD_ERR_POSITION;
        }
    for (size_t t = 0; t < count; ++t) {
        const uint32_t *v = idx + 4 * t;
        int bad = 0;
        for (int a = 0; a < 4; ++a) {
            bad |= v[a] >= n;
            for (int b = a + 1; b < 4; ++b)
                bad |= v[a] == v[b];
        }
        xpbd_status st = XPBD_OK;
        if (bad)
            st = XPBD_ERR_INDEX;
        else if (!isfinite(compliance[t]) || compliance[t] < 0)
            st = XPBD_ERR_COMPLIANCE;
        if (st != XPBD_OK) {
            if (bad_index)
                *bad_index = t;
            return st;
        }
    }
    return XPBD_OK;
}

/* b - a of the rest positions xyz, in double */
void xpbd__quad_set_edge(const R *xyz, uint32_t a, uint32_t b, double out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = (double)xyz[3 * (size_t)b + k] - (double)xyz[3 * (size_t)a + k];
}

static xpbd_status softbody_damp_relative(const P *p, size_t begin, size_t end, double k)
{
    if (!p || begin > end || end > p->count || (end > begin && (!p->x || !p->vx || !p->w)))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(k) || k < 0 || k > 1)
        return XPBD_ERR_CONFIG;
    /* centre of mass and its velocity */
    double M = 0, c[3] = {0, 0, 0}, vc[3] = {0, 0, 0};
    for (size_t i = begin; i < end; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double m = 1.0 / (double)p->w[i];
        M += m;
        c[0] += m * p->x[i];
        c[1] += m * p->y[i];
        c[2] += m * p->z[i];
        vc[0] += m * p->vx[i];
        vc[1] += m * p->vy[i];
        vc[2] += m * p->vz[i];
    }
    if (!(M > 0))
        return XPBD_SKIPPED;
    for (int a = 0; a < 3; ++a) {
        c[a] /= M;
        vc[a] /= M;
    }
    /* angular momentum and inertia about the centre of mass */
    double L[3] = {0, 0, 0}, I[9] = {0};
    for (size_t i = begin; i < end; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double m = 1.0 / (double)p->w[i];
        const double r[3] = {p->x[i] - c[0], p->y[i] - c[1], p->z[i] - c[2]};
        const double u[3] = {p->vx[i] - vc[0], p->vy[i] - vc[1], p->vz[i] - vc[2]};
        L[0] += m * (r[1] * u[2] - r[2] * u[1]);
        L[1] += m * (r[2] * u[0] - r[0] * u[2]);
        L[2] += m * (r[0] * u[1] - r[1] * u[0]);
        const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                I[3 * a + b] += m * ((a == b ? rr : 0.0) - r[a] * r[b]);
    }
    /* omega = I^-1 L by the adjugate; a singular inertia (a point or a
     * line) damps the linear part only */
    double om[3] = {0, 0, 0};
    const double A[9] = {I[4] * I[8] - I[5] * I[7], I[2] * I[7] - I[1] * I[8],
                         I[1] * I[5] - I[2] * I[4], I[5] * I[6] - I[3] * I[8],
                         I[0] * I[8] - I[2] * I[6], I[2] * I[3] - I[0] * I[5],
                         I[3] * I[7] - I[4] * I[6], I[1] * I[6] - I[0] * I[7],
                         I[0] * I[4] - I[1] * I[3]};
    const double det = I[0] * A[0] + I[1] * A[3] + I[2] * A[6];
    const double tr = (I[0] + I[4] + I[8]) / 3;
    if (isfinite(det) && fabs(det) > 1e-9 * tr * tr * tr && tr > 0)
        for (int a = 0; a < 3; ++a)
            om[a] = (A[3 * a] * L[0] + A[3 * a + 1] * L[1] + A[3 * a + 2] * L[2]) / det;
    for (size_t i = begin; i < end; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double r[3] = {p->x[i] - c[0], p->y[i] - c[1], p->z[i] - c[2]};
        const double vr[3] = {vc[0] + (om[1] * r[2] - om[2] * r[1]),
                              vc[1] + (om[2] * r[0] - om[0] * r[2]),
                              vc[2] + (om[0] * r[1] - om[1] * r[0])};
        p->vx[i] = (R)(p->vx[i] + k * (vr[0] - p->vx[i]));
        p->vy[i] = (R)(p->vy[i] + k * (vr[1] - p->vy[i]));
        p->vz[i] = (R)(p->vz[i] + k * (vr[2] - p->vz[i]));
    }
    return XPBD_OK;
}

/* Penetration, normal (world, out of the body) and contact point of a
 * sphere of radius r at x against the body; 0 when apart. */
static int softbody_rigid_probe(const xpbd_rigid_f64 *b, const double x[3], double r, double *pen,
                            double n[3], double cp[3])
{
    const double d[3] = {x[0] - b->centre[0], x[1] - b->centre[1], x[2] - b->centre[2]};
    if (b->shape == XPBD_RIGID_SPHERE) {
        const double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        *pen = (b->half[0] + r) - dist;
        if (!(*pen > 0))
            return 0;
        if (dist > 0)
            for (int k = 0; k < 3; ++k)
                n[k] = d[k] / dist;
        else
            n[0] = 0, n[1] = 1, n[2] = 0;
        for (int k = 0; k < 3; ++k)
            cp[k] = b->centre[k] + b->half[0] * n[k];
        return 1;
    }
    const double *R3 = b->rot;
    double l[3], nl[3] = {0, 0, 0}, cl[3];
    for (int k = 0; k < 3; ++k) /* body frame: R^T d */
        l[k] = R3[k] * d[0] + R3[3 + k] * d[1] + R3[6 + k] * d[2];
    int inside = 1;
    for (int k = 0; k < 3; ++k) {
        cl[k] = l[k] < -b->half[k] ? -b->half[k] : l[k] > b->half[k] ? b->half[k] : l[k];
        inside &= cl[k] == l[k];
    }
    if (inside) {
        int axis = 0;
        double best = b->half[0] - fabs(l[0]);
        for (int k = 1; k < 3; ++k)
            if (b->half[k] - fabs(l[k]) < best) {
                best = b->half[k] - fabs(l[k]);
                axis = k;
            }
        *pen = best + r;
        nl[axis] = l[axis] < 0 ? -1 : 1;
        cl[axis] = nl[axis] * b->half[axis];
    } else {
        const double e[3] = {l[0] - cl[0], l[1] - cl[1], l[2] - cl[2]};
        const double dist = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        *pen = r - dist;
        if (!(*pen > 0))
            return 0;
        for (int k = 0; k < 3; ++k)
            nl[k] = e[k] / dist;
    }
    for (int k = 0; k < 3; ++k) {
        n[k] = R3[3 * k] * nl[0] + R3[3 * k + 1] * nl[1] + R3[3 * k + 2] * nl[2];
        cp[k] = b->centre[k] + R3[3 * k] * cl[0] + R3[3 * k + 1] * cl[1] + R3[3 * k + 2] * cl[2];
    }
    return 1;
}

static xpbd_status softbody_couple_rigid(R *q, const P *p, const R *radius, size_t begin, size_t end,
                                   const xpbd_rigid_f64 *b, double h, xpbd_rigid_impulse *out)
{
    if (!q || !p || !radius || !b || !out || begin > end || end > p->count)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!isfinite(h) || !(h > 0))
        return XPBD_ERR_TIMESTEP;
    if (!xpbd__rigid_ok(b))
        return XPBD_ERR_CONFIG;
    for (size_t i = begin; i < end; ++i) {
        R *qi = q + 4 * i;
        const double w = qi[3];
        if (!(w > 0))
            continue;
        const double x[3] = {qi[0], qi[1], qi[2]};
        double pen, n[3], cp[3];
        if (!softbody_rigid_probe(b, x, radius[i], &pen, n, cp))
            continue;
        /* generalised inverse mass of the body at the contact point */
        const double rb[3] = {cp[0] - b->centre[0], cp[1] - b->centre[1], cp[2] - b->centre[2]};
        const double rn[3] = {rb[1] * n[2] - rb[2] * n[1], rb[2] * n[0] - rb[0] * n[2],
                              rb[0] * n[1] - rb[1] * n[0]};
        double wb = b->inv_mass;
        for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c)
                wb += rn[a] * b->inv_inertia[3 * a + c] * rn[c];
        const double share = w / (w + wb);
        for (int k = 0; k < 3; ++k)
            qi[k] = (R)(x[k] + share * pen * n[k]);
        const double j = pen / ((w + wb) * h); /* impulse on the particle along n */
        for (int k = 0; k < 3; ++k)
            out->linear[k] -= j * n[k];
        out->angular[0] -= j * rn[0];
        out->angular[1] -= j * rn[1];
        out->angular[2] -= j * rn[2];
        out->contacts++;
    }
    return XPBD_OK;
}

#endif /* XPBD_SELF */
