/* SPDX-License-Identifier: MIT */
/* The scalar reference path: every kernel concept (kernels/) compiled
 * with the one-lane backend of the wide-op vocabulary, in both precisions;
 * its tables (xpbd__scalar_path), and the serial slot-range entry points
 * of xpbd/reference.h, each a one-line wrapper under its full name. */
#include "internal.h"
#include "dispatch.h"

#define XPBD_TABLE_ISA XPBD_ISA_SCALAR

#define XPBD_REAL_F32
#include "kernels/instantiate.h"
#define XPBD_REAL_F64
#include "kernels/instantiate.h"

const xpbd__path xpbd__scalar_path = {
    .kernels_f32 = &kernels_scalar_f32,
    .kernels_f64 = &kernels_scalar_f64,
    .contact_f32 = &contact_kernels_scalar_f32,
    .contact_f64 = &contact_kernels_scalar_f64,
    .softbody_f32 = &softbody_kernels_scalar_f32,
    .softbody_f64 = &softbody_kernels_scalar_f64,
    .step_f32 = &step_kernels_scalar_f32,
    .step_f64 = &step_kernels_scalar_f64,
};

/* ----------------------------------------------- serial slot ranges --- */

uint32_t xpbd_serial_distance_xpbd_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                                       uint32_t slot_begin, uint32_t slot_end, float h)
{
    return serial_distance_xpbd_scalar_f32(p, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_distance_xpbd_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                                       uint32_t slot_begin, uint32_t slot_end, double h)
{
    return serial_distance_xpbd_scalar_f64(p, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_distance_pbd_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                                      uint32_t slot_begin, uint32_t slot_end, float stiffness)
{
    return serial_distance_pbd_scalar_f32(p, c, slot_begin, slot_end, stiffness);
}

uint32_t xpbd_serial_distance_pbd_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                                      uint32_t slot_begin, uint32_t slot_end, double stiffness)
{
    return serial_distance_pbd_scalar_f64(p, c, slot_begin, slot_end, stiffness);
}

uint32_t xpbd_serial_distance_xpbd_packed_f32(float *q, const xpbd_distance_set_f32 *c,
                                              uint32_t slot_begin, uint32_t slot_end, float h)
{
    return serial_distance_xpbd_packed_scalar_f32(q, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_distance_xpbd_packed_f64(double *q, const xpbd_distance_set_f64 *c,
                                              uint32_t slot_begin, uint32_t slot_end, double h)
{
    return serial_distance_xpbd_packed_scalar_f64(q, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_distance_pbd_packed_f32(float *q, const xpbd_distance_set_f32 *c,
                                             uint32_t slot_begin, uint32_t slot_end,
                                             float stiffness)
{
    return serial_distance_pbd_packed_scalar_f32(q, c, slot_begin, slot_end, stiffness);
}

uint32_t xpbd_serial_distance_pbd_packed_f64(double *q, const xpbd_distance_set_f64 *c,
                                             uint32_t slot_begin, uint32_t slot_end,
                                             double stiffness)
{
    return serial_distance_pbd_packed_scalar_f64(q, c, slot_begin, slot_end, stiffness);
}

uint32_t xpbd_serial_spring_forces_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                                       float *fx, float *fy, float *fz, uint32_t slot_begin,
                                       uint32_t slot_end, float damping)
{
    return serial_spring_forces_scalar_f32(p, c, fx, fy, fz, slot_begin, slot_end, damping);
}

uint32_t xpbd_serial_spring_forces_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                                       double *fx, double *fy, double *fz, uint32_t slot_begin,
                                       uint32_t slot_end, double damping)
{
    return serial_spring_forces_scalar_f64(p, c, fx, fy, fz, slot_begin, slot_end, damping);
}

float xpbd_serial_residual_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                               uint32_t slot_begin, uint32_t slot_end, float h, float *out)
{
    return serial_residual_scalar_f32(p, c, slot_begin, slot_end, h, out);
}

double xpbd_serial_residual_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                                uint32_t slot_begin, uint32_t slot_end, double h, double *out)
{
    return serial_residual_scalar_f64(p, c, slot_begin, slot_end, h, out);
}

uint32_t xpbd_serial_contact_position_f32(float *q, const xpbd_particles_f32 *p,
                                          const float *radius, const xpbd_contact_set *cs,
                                          uint32_t slot_begin, uint32_t slot_end, float beta,
                                          int weighted, float mu_s, float mu_k)
{
    return serial_contact_position_scalar_f32(q, p, radius, cs, slot_begin, slot_end, beta, weighted, mu_s, mu_k);
}

uint32_t xpbd_serial_contact_position_f64(double *q, const xpbd_particles_f64 *p,
                                          const double *radius, const xpbd_contact_set *cs,
                                          uint32_t slot_begin, uint32_t slot_end, double beta,
                                          int weighted, double mu_s, double mu_k)
{
    return serial_contact_position_scalar_f64(q, p, radius, cs, slot_begin, slot_end, beta, weighted, mu_s, mu_k);
}

uint32_t xpbd_serial_contact_velocity_f32(const xpbd_particles_f32 *p, const float *radius,
                                          const xpbd_contact_set *cs, uint32_t slot_begin,
                                          uint32_t slot_end, float e, float slop)
{
    return serial_contact_velocity_scalar_f32(p, radius, cs, slot_begin, slot_end, e, slop);
}

uint32_t xpbd_serial_contact_velocity_f64(const xpbd_particles_f64 *p, const double *radius,
                                          const xpbd_contact_set *cs, uint32_t slot_begin,
                                          uint32_t slot_end, double e, double slop)
{
    return serial_contact_velocity_scalar_f64(p, radius, cs, slot_begin, slot_end, e, slop);
}

uint32_t xpbd_serial_contact_restitution_f32(const xpbd_particles_f32 *p, const float *radius,
                                             const xpbd_contact_set *cs, const float *v0x,
                                             const float *v0y, const float *v0z,
                                             uint32_t slot_begin, uint32_t slot_end, float e,
                                             float slop, float rest_speed)
{
    return serial_contact_restitution_scalar_f32(p, radius, cs, v0x, v0y, v0z, slot_begin, slot_end, e, slop, rest_speed);
}

uint32_t xpbd_serial_contact_restitution_f64(const xpbd_particles_f64 *p, const double *radius,
                                             const xpbd_contact_set *cs, const double *v0x,
                                             const double *v0y, const double *v0z,
                                             uint32_t slot_begin, uint32_t slot_end, double e,
                                             double slop, double rest_speed)
{
    return serial_contact_restitution_scalar_f64(p, radius, cs, v0x, v0y, v0z, slot_begin, slot_end, e, slop, rest_speed);
}

uint32_t xpbd_serial_tet_volume_f32(float *q, const xpbd_quad_set_f32 *c, uint32_t slot_begin,
                                    uint32_t slot_end, float h)
{
    return serial_tet_volume_scalar_f32(q, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_tet_volume_f64(double *q, const xpbd_quad_set_f64 *c, uint32_t slot_begin,
                                    uint32_t slot_end, double h)
{
    return serial_tet_volume_scalar_f64(q, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_bending_f32(float *q, const xpbd_quad_set_f32 *c, uint32_t slot_begin,
                                 uint32_t slot_end, float h)
{
    return serial_bending_scalar_f32(q, c, slot_begin, slot_end, h);
}

uint32_t xpbd_serial_bending_f64(double *q, const xpbd_quad_set_f64 *c, uint32_t slot_begin,
                                 uint32_t slot_end, double h)
{
    return serial_bending_scalar_f64(q, c, slot_begin, slot_end, h);
}
