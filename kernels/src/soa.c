/* SPDX-License-Identifier: MIT */
/* Particle and distance-set builders and validators. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define XPBD_REAL_F32
#include "soa_tmpl.h"
#define XPBD_REAL_F64
#include "soa_tmpl.h"

/* The exported names, written out: each calls its template instance above. */

void xpbd_particles_bind_f32(xpbd_particles_f32 *p, size_t n, float *base, size_t stride)
{
    particles_bind_f32(p, n, base, stride);
}

void xpbd_particles_bind_f64(xpbd_particles_f64 *p, size_t n, double *base, size_t stride)
{
    particles_bind_f64(p, n, base, stride);
}

xpbd_status xpbd_particles_validate_f32(const xpbd_particles_f32 *p, size_t *bad_index)
{
    return particles_validate_f32(p, bad_index);
}

xpbd_status xpbd_particles_validate_f64(const xpbd_particles_f64 *p, size_t *bad_index)
{
    return particles_validate_f64(p, bad_index);
}

xpbd_status xpbd_distance_set_validate_f32(const xpbd_distance_set_f32 *c, size_t particle_count,
                                           uint32_t *stamp, size_t *bad_index)
{
    return distance_set_validate_f32(c, particle_count, stamp, bad_index);
}

xpbd_status xpbd__distance_set_fields_f32(const xpbd_distance_set_f32 *c, const uint32_t *stamp)
{
    return distance_set_fields_f32(c, stamp);
}

xpbd_status xpbd__distance_set_fields_f64(const xpbd_distance_set_f64 *c, const uint32_t *stamp)
{
    return distance_set_fields_f64(c, stamp);
}

int xpbd__distance_set_screen_f32(const xpbd_distance_set_f32 *c, size_t n, uint32_t s0,
                                  uint32_t s1)
{
    return screen_set_f32(c, n, s0, s1);
}

int xpbd__distance_set_screen_f64(const xpbd_distance_set_f64 *c, size_t n, uint32_t s0,
                                  uint32_t s1)
{
    return screen_set_f64(c, n, s0, s1);
}

xpbd_status xpbd_distance_set_validate_f64(const xpbd_distance_set_f64 *c, size_t particle_count,
                                           uint32_t *stamp, size_t *bad_index)
{
    return distance_set_validate_f64(c, particle_count, stamp, bad_index);
}

void xpbd_distance_set_free_f32(xpbd_distance_set_f32 *set)
{
    distance_set_free_f32(set);
}

void xpbd_distance_set_free_f64(xpbd_distance_set_f64 *set)
{
    distance_set_free_f64(set);
}

xpbd_status xpbd_distance_set_build_f32(xpbd_distance_set_f32 *out, size_t particle_count,
                                        size_t count, const uint32_t *i0, const uint32_t *i1,
                                        const float *rest, const float *compliance,
                                        const xpbd_colouring_options *options, size_t *bad_index)
{
    return distance_set_build_f32(out, particle_count, count, i0, i1, rest, compliance, options,
                                  bad_index);
}

xpbd_status xpbd_distance_set_build_f64(xpbd_distance_set_f64 *out, size_t particle_count,
                                        size_t count, const uint32_t *i0, const uint32_t *i1,
                                        const double *rest, const double *compliance,
                                        const xpbd_colouring_options *options, size_t *bad_index)
{
    return distance_set_build_f64(out, particle_count, count, i0, i1, rest, compliance, options,
                                  bad_index);
}
