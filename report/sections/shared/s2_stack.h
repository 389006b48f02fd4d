/* SPDX-License-Identifier: MIT */
/* Contacts (S2) -- who backs out of the overlap: the lesson's stack shared
 * by s2_position_only, s2_restitution, s2_mass_ratio, s2_iterations and
 * s2_particles (shared/s2_stack.c).
 *
 * The lesson's 1-D stack: a plate of infinite mass (w = 0) of radius 0.34
 * centred at y = 0, balls of radius 0.18 above it, frames of h = 1/60 s in
 * the lesson's order (the frame of S2: v += g h; velocity pass; y += v h;
 * raw penetration; position pass), run through the library: the world step
 * in XPBD_CONTACTS_LESSON order, or stage by stage through the contact
 * kernel table where the raw penetration (between the integration and the
 * position pass) is needed. Every ball sits exactly above the plate, so the
 * 3-D contact normal is (0, 1, 0) and the library's maths is the lesson's
 * 1-D maths.
 *
 * One difference is structural: the lesson's penetration (r_lo + r_hi) -
 * (y_hi - y_lo) is signed and keeps pushing up however deep a ball sinks,
 * while a sphere-sphere contact measures |d| and, once a ball's centre
 * passes below the plate's, pushes it down and out through the bottom.
 * With a small beta the lesson's ball sinks deeper than the plate radius
 * (beta = 0.2: 0.82 m), so Table 1 models the plate's top as the half-space
 * y >= 0.34 (a plane contact: pen = r - (y - 0.34), exactly the lesson's
 * formula with w_plate = 0) and shows the sphere plate beside it. */
#ifndef XPBD_REPORT_S2_STACK_H
#define XPBD_REPORT_S2_STACK_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

#define S2_H (1.0 / 60.0)
#define S2_G 9.81
#define S2_PLATE_R 0.34
#define S2_BALL_R 0.18
#define S2_REST0 (S2_PLATE_R + S2_BALL_R) /* resting centre of the lowest ball */

/* What a host holds for the world step's contacts: the index arrays of a
 * contact set, the broad phase's workspace (work, when asked for) and the
 * world-step scratch, each in its own caller-owned block. */
typedef struct s2_contacts {
    xpbd_contact_set cs;
    uint32_t *i0, *i1;
    void *work, *scratch;
    size_t work_bytes, scratch_bytes;
} s2_contacts;

void s2_contacts_free(s2_contacts *c);

/* Room for max_contacts contacts among n particles and scratch_bytes of
 * step scratch (xpbd_world_scratch_bytes_* of the precision); with work,
 * the workspace of xpbd_contact_set_assign too. Returns 0, or -1 with
 * nothing held. */
int s2_contacts_init(s2_contacts *c, size_t n, size_t max_contacts, size_t scratch_bytes,
                     int work);

/* Particles (double) with radii, the packed copy q and plane impulses in
 * one block (x y z px py pz vx vy vz w | r | imp | q, 4n), and their
 * contact storage. */
typedef struct s2_set {
    xpbd_particles_f64 p;
    double *r, *q, *imp;
    double *block;
    s2_contacts ct;
} s2_set;

void s2_set_free(s2_set *s);

int s2_set_init(s2_set *s, size_t n, size_t max_contacts);

/* The lesson's stack: particle 0 the plate (w = 0), balls 1..N of unit mass
 * at rest at the given heights, and the adjacent pairs bottom-up as a
 * serial contact set (the lesson's sweep order). */
int s2_stack(s2_set *s, int balls, const double *heights);

/* 1-D penetration of the lesson, max over the adjacent pairs. */
double s2_max_pen(const s2_set *s);

/* Energy of the balls: m g y + m v^2/2, potential from y = 0 (the contact scenario (S2)). */
double s2_energy(const s2_set *s);

xpbd_step_config s2_lesson_cfg(const xr_ctx *ctx, uint32_t iterations, double beta,
                               double e, int velocity_pass);

xpbd_status s2_stack_step(s2_set *s, const xpbd_step_config *cfg);

/* The tables of the ISA the report runs on. */
typedef struct s2_tables {
    const xpbd_kernels_f64 *k;
    const xpbd_contact_kernels_f64 *c;
} s2_tables;

int s2_get_tables(const xr_ctx *ctx, s2_tables *t);

#endif
