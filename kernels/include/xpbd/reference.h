/* SPDX-License-Identifier: MIT */
/* xpbd/reference.h: the reference and teaching entry points.
 *
 * Not part of what an engine embeds (xpbd/xpbd.h does not include this
 * header): serial kernels that solve a slot range of a set one constraint
 * at a time in slot order, the statement every SIMD path matches bit for
 * bit, and a checked one-dimensional XPBD solve for studying the method on
 * two particles. The step driver itself runs the serial kernels on the
 * overflow range of a set (the constraints no colour could take).
 *
 * Serial kernels work on slots [slot_begin, slot_end) of a set, padding
 * slots ignored, and return what the table kernels of the same name return
 * (xpbd/kernels.h, xpbd/contacts.h, xpbd/softbody.h): the number of real
 * constraints skipped, contacts that acted, or the largest |residual|. */
#ifndef XPBD_REFERENCE_H
#define XPBD_REFERENCE_H

#include "xpbd/base.h"
#include "xpbd/soa.h"
#include "xpbd/kernels.h"
#include "xpbd/contacts.h"
#include "xpbd/softbody.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- distance --- */

/* On the caller's SoA arrays, and on the packed copy q[4*i .. 4*i+3] =
 * x, y, z, w. The residual writes out[s] (out may be NULL) for every slot
 * of the range, 0 for padding, and returns the largest |r|. */
XPBD_API uint32_t xpbd_serial_distance_xpbd_f32(const xpbd_particles_f32 *p,
                                                const xpbd_distance_set_f32 *c,
                                                uint32_t slot_begin, uint32_t slot_end, float h);
XPBD_API uint32_t xpbd_serial_distance_xpbd_f64(const xpbd_particles_f64 *p,
                                                const xpbd_distance_set_f64 *c,
                                                uint32_t slot_begin, uint32_t slot_end, double h);
XPBD_API uint32_t xpbd_serial_distance_pbd_f32(const xpbd_particles_f32 *p,
                                               const xpbd_distance_set_f32 *c,
                                               uint32_t slot_begin, uint32_t slot_end,
                                               float stiffness);
XPBD_API uint32_t xpbd_serial_distance_pbd_f64(const xpbd_particles_f64 *p,
                                               const xpbd_distance_set_f64 *c,
                                               uint32_t slot_begin, uint32_t slot_end,
                                               double stiffness);
XPBD_API uint32_t xpbd_serial_spring_forces_f32(const xpbd_particles_f32 *p,
                                                const xpbd_distance_set_f32 *c, float *fx,
                                                float *fy, float *fz, uint32_t slot_begin,
                                                uint32_t slot_end, float damping);
XPBD_API uint32_t xpbd_serial_spring_forces_f64(const xpbd_particles_f64 *p,
                                                const xpbd_distance_set_f64 *c, double *fx,
                                                double *fy, double *fz, uint32_t slot_begin,
                                                uint32_t slot_end, double damping);
XPBD_API uint32_t xpbd_serial_distance_xpbd_packed_f32(float *q, const xpbd_distance_set_f32 *c,
                                                       uint32_t slot_begin, uint32_t slot_end,
                                                       float h);
XPBD_API uint32_t xpbd_serial_distance_xpbd_packed_f64(double *q, const xpbd_distance_set_f64 *c,
                                                       uint32_t slot_begin, uint32_t slot_end,
                                                       double h);
XPBD_API uint32_t xpbd_serial_distance_pbd_packed_f32(float *q, const xpbd_distance_set_f32 *c,
                                                      uint32_t slot_begin, uint32_t slot_end,
                                                      float stiffness);
XPBD_API uint32_t xpbd_serial_distance_pbd_packed_f64(double *q, const xpbd_distance_set_f64 *c,
                                                      uint32_t slot_begin, uint32_t slot_end,
                                                      double stiffness);
XPBD_API float xpbd_serial_residual_f32(const xpbd_particles_f32 *p,
                                        const xpbd_distance_set_f32 *c, uint32_t slot_begin,
                                        uint32_t slot_end, float h, float *out);
XPBD_API double xpbd_serial_residual_f64(const xpbd_particles_f64 *p,
                                         const xpbd_distance_set_f64 *c, uint32_t slot_begin,
                                         uint32_t slot_end, double h, double *out);

/* ------------------------------------------------------- contacts --- */

/* Particle-particle contacts in slot order (padding slots name one
 * particle twice and act on nothing). */
XPBD_API uint32_t xpbd_serial_contact_position_f32(float *q, const xpbd_particles_f32 *p,
                                                   const float *radius,
                                                   const xpbd_contact_set *cs,
                                                   uint32_t slot_begin, uint32_t slot_end,
                                                   float beta, int weighted, float mu_s,
                                                   float mu_k);
XPBD_API uint32_t xpbd_serial_contact_position_f64(double *q, const xpbd_particles_f64 *p,
                                                   const double *radius,
                                                   const xpbd_contact_set *cs,
                                                   uint32_t slot_begin, uint32_t slot_end,
                                                   double beta, int weighted, double mu_s,
                                                   double mu_k);
XPBD_API uint32_t xpbd_serial_contact_velocity_f32(const xpbd_particles_f32 *p,
                                                   const float *radius,
                                                   const xpbd_contact_set *cs,
                                                   uint32_t slot_begin, uint32_t slot_end,
                                                   float e, float slop);
XPBD_API uint32_t xpbd_serial_contact_velocity_f64(const xpbd_particles_f64 *p,
                                                   const double *radius,
                                                   const xpbd_contact_set *cs,
                                                   uint32_t slot_begin, uint32_t slot_end,
                                                   double e, double slop);

XPBD_API uint32_t xpbd_serial_contact_restitution_f32(const xpbd_particles_f32 *p,
                                                      const float *radius,
                                                      const xpbd_contact_set *cs,
                                                      const float *v0x, const float *v0y,
                                                      const float *v0z, uint32_t slot_begin,
                                                      uint32_t slot_end, float e, float slop,
                                                      float rest_speed);
XPBD_API uint32_t xpbd_serial_contact_restitution_f64(const xpbd_particles_f64 *p,
                                                      const double *radius,
                                                      const xpbd_contact_set *cs,
                                                      const double *v0x, const double *v0y,
                                                      const double *v0z, uint32_t slot_begin,
                                                      uint32_t slot_end, double e, double slop,
                                                      double rest_speed);

/* ----------------------------------------- volume and bending --- */

XPBD_API uint32_t xpbd_serial_tet_volume_f32(float *q, const xpbd_quad_set_f32 *c,
                                             uint32_t slot_begin, uint32_t slot_end, float h);
XPBD_API uint32_t xpbd_serial_tet_volume_f64(double *q, const xpbd_quad_set_f64 *c,
                                             uint32_t slot_begin, uint32_t slot_end, double h);
XPBD_API uint32_t xpbd_serial_bending_f32(float *q, const xpbd_quad_set_f32 *c,
                                          uint32_t slot_begin, uint32_t slot_end, float h);
XPBD_API uint32_t xpbd_serial_bending_f64(double *q, const xpbd_quad_set_f64 *c,
                                          uint32_t slot_begin, uint32_t slot_end, double h);

/* ----------------------------------------- one-dimensional solve --- */

/* One XPBD solve of the 1-D distance constraint C = b - a - rest between
 * two particles on a line:
 *
 *     alpha~ = compliance / (dt*dt)
 *     dl     = (-C - alpha~*lambda) / (wa + wb + alpha~)
 *     a -= wa*dl;  b += wb*dl;  lambda += dl
 *
 * evaluated in exactly this order in IEEE double (a, b, rest in m,
 * compliance in m/N, dt in s). dt is the real substep length. *lambda is
 * the constraint's accumulated multiplier: reset it to 0 at substep start
 * only.
 *
 * Returns XPBD_OK; XPBD_SKIPPED if wa == wb == 0 (nothing written); or an
 * error, in which case a, b and lambda are left exactly as they were:
 *   XPBD_ERR_ARGUMENT      a, b or lambda is NULL, or *lambda is not finite
 *   XPBD_ERR_POSITION      a or b not finite
 *   XPBD_ERR_INVERSE_MASS  wa or wb negative or not finite
 *   XPBD_ERR_REST          rest <= 0 or not finite
 *   XPBD_ERR_COMPLIANCE    compliance < 0 or not finite
 *   XPBD_ERR_TIMESTEP      dt <= 0 or not finite
 *   XPBD_ERR_ORDER         b <= a
 *   XPBD_ERR_SCALE         alpha~ not finite, or wa + wb + alpha~ not finite and > 0
 *   XPBD_ERR_RESULT        a candidate a, b, lambda not finite, or b' <= a' */
XPBD_API xpbd_status xpbd_distance1d_solve(double *a, double *b, double wa, double wb,
                                           double rest, double compliance, double dt,
                                           double *lambda);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_REFERENCE_H */
