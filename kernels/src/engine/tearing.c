/* SPDX-License-Identifier: MIT */
/* Tearing (xpbd/engine.h): the stretch pass that flags distance
 * constraints, the rebuild of a distance set without them, and the
 * engine's topology change at step end. */
#include "engine/common.h"

#define XPBD_REAL_F32
#include "engine/tearing_tmpl.h"
#define XPBD_REAL_F64
#include "engine/tearing_tmpl.h"

uint32_t xpbd_tear_flag_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return tear_flag_f32(p, c, threshold, flags, max_stretch);
}

uint32_t xpbd_tear_flag_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return tear_flag_f64(p, c, threshold, flags, max_stretch);
}

xpbd_status xpbd_tear_remove_f32(xpbd_distance_set_f32 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return tear_remove_f32(c, particles, remove, options, kept);
}

xpbd_status xpbd_tear_remove_f64(xpbd_distance_set_f64 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return tear_remove_f64(c, particles, remove, options, kept);
}
