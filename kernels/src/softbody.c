/* SPDX-License-Identifier: MIT */
/* Soft-body builders, relative damping and rigid coupling
 * (xpbd/softbody.h). */
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

#define XPBD_REAL_F32
#include "softbody_tmpl.h"
#define XPBD_REAL_F64
#include "softbody_tmpl.h"

/* The exported names, written out: each calls its template instance above. */

void xpbd_quad_set_free_f32(xpbd_quad_set_f32 *set)
{
    quad_set_free_f32(set);
}

void xpbd_quad_set_free_f64(xpbd_quad_set_f64 *set)
{
    quad_set_free_f64(set);
}

xpbd_status xpbd__quad_set_fields_f32(const xpbd_quad_set_f32 *c, const uint32_t *stamp)
{
    return quad_set_fields_f32(c, stamp);
}

xpbd_status xpbd__quad_set_fields_f64(const xpbd_quad_set_f64 *c, const uint32_t *stamp)
{
    return quad_set_fields_f64(c, stamp);
}

xpbd_status xpbd__quad_set_slots_f32(const xpbd_quad_set_f32 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index)
{
    return quad_set_slots_f32(c, n, s0, s1, bad_index);
}

xpbd_status xpbd__quad_set_slots_f64(const xpbd_quad_set_f64 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index)
{
    return quad_set_slots_f64(c, n, s0, s1, bad_index);
}

xpbd_status xpbd_quad_set_validate_f32(const xpbd_quad_set_f32 *c, size_t n, uint32_t *stamp,
                                       size_t *bad_index)
{
    return quad_set_validate_f32(c, n, stamp, bad_index);
}

xpbd_status xpbd_quad_set_validate_f64(const xpbd_quad_set_f64 *c, size_t n, uint32_t *stamp,
                                       size_t *bad_index)
{
    return quad_set_validate_f64(c, n, stamp, bad_index);
}

xpbd_status xpbd_tet_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz, size_t count,
                                   const uint32_t *idx, const float *compliance,
                                   const xpbd_colouring_options *options, size_t *bad_index)
{
    return tet_set_build_f32(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_tet_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                   size_t count, const uint32_t *idx, const double *compliance,
                                   const xpbd_colouring_options *options, size_t *bad_index)
{
    return tet_set_build_f64(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_bend_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz,
                                    size_t count, const uint32_t *idx, const float *compliance,
                                    const xpbd_colouring_options *options, size_t *bad_index)
{
    return bend_set_build_f32(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_bend_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                    size_t count, const uint32_t *idx, const double *compliance,
                                    const xpbd_colouring_options *options, size_t *bad_index)
{
    return bend_set_build_f64(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_damp_relative_f32(const xpbd_particles_f32 *p, size_t begin, size_t end, double k)
{
    return damp_relative_f32(p, begin, end, k);
}

xpbd_status xpbd_damp_relative_f64(const xpbd_particles_f64 *p, size_t begin, size_t end, double k)
{
    return damp_relative_f64(p, begin, end, k);
}

xpbd_status xpbd_couple_rigid_f32(float *q, const xpbd_particles_f32 *p, const float *radius,
                                  size_t begin, size_t end, const xpbd_rigid_f64 *body, double h,
                                  xpbd_rigid_impulse *out)
{
    return couple_rigid_f32(q, p, radius, begin, end, body, h, out);
}

xpbd_status xpbd_couple_rigid_f64(double *q, const xpbd_particles_f64 *p, const double *radius,
                                  size_t begin, size_t end, const xpbd_rigid_f64 *body, double h,
                                  xpbd_rigid_impulse *out)
{
    return couple_rigid_f64(q, p, radius, begin, end, body, h, out);
}
