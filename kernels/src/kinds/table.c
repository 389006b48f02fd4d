/* SPDX-License-Identifier: MIT */
/* kinds/table.c: the set-kind table. Each constraint set kind is one row
 * (step/step.h: step_kind) defined in its own file, kinds/<kind>.c; the
 * step, its validators and the reference side loop over these two lists
 * and never name a kind.
 *
 * A new kind: its maths and lane function in kernels/<concept>.h (and its
 * colour kernel in the kernel rows), its row in kinds/<kind>.c, one line
 * here in each list, its builder, its tests and its report figure. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/table.c"
#  include "each_precision.h"
#else
#include "step/step.h"

#define xpbd__kind_distance PREC(xpbd__kind_distance_f32, xpbd__kind_distance_f64)
#define xpbd__kind_tet_volume PREC(xpbd__kind_tet_volume_f32, xpbd__kind_tet_volume_f64)
#define xpbd__kind_bend PREC(xpbd__kind_bend_f32, xpbd__kind_bend_f64)
#define xpbd__kind_tether PREC(xpbd__kind_tether_f32, xpbd__kind_tether_f64)
#define xpbd__kind_contact_fixed PREC(xpbd__kind_contact_fixed_f32, xpbd__kind_contact_fixed_f64)
#define xpbd__kind_contact_found PREC(xpbd__kind_contact_found_f32, xpbd__kind_contact_found_f64)
#define xpbd__kind_plane PREC(xpbd__kind_plane_f32, xpbd__kind_plane_f64)
#define xpbd__kind_coupling PREC(xpbd__kind_coupling_f32, xpbd__kind_coupling_f64)
#define xpbd__kind_radius PREC(xpbd__kind_radius_f32, xpbd__kind_radius_f64)
#define xpbd__kind_bodies PREC(xpbd__kind_bodies_f32, xpbd__kind_bodies_f64)

extern const step_kind xpbd__kind_distance, xpbd__kind_tet_volume, xpbd__kind_bend,
    xpbd__kind_tether, xpbd__kind_contact_fixed, xpbd__kind_contact_found, xpbd__kind_plane,
    xpbd__kind_coupling, xpbd__kind_radius, xpbd__kind_bodies;

/* The order an iteration solves the rows in: the constraints (their
 * lambdas are counted across the sets in this order: distance, tetrahedra,
 * bending), the contacts, the coupling. */
const step_kind *const xpbd__kind_table[] = {
    &xpbd__kind_distance,
    &xpbd__kind_tet_volume,
    &xpbd__kind_bend,
    &xpbd__kind_tether,
    &xpbd__kind_contact_fixed,
    &xpbd__kind_contact_found,
    &xpbd__kind_plane,
    &xpbd__kind_coupling,
    NULL,
};

/* a step keeps the world's rows and lambdas in arrays of XPBD__ROWS_MAX */
_Static_assert(sizeof xpbd__kind_table / sizeof xpbd__kind_table[0] <= XPBD__ROWS_MAX + 1,
               "more rows than XPBD__ROWS_MAX");

/* The order the step checks them in (xpbd/step.h), the world state
 * between them. */
const step_kind *const xpbd__kind_checks[] = {
    &xpbd__kind_distance,
    &xpbd__kind_plane,
    &xpbd__kind_radius,
    &xpbd__kind_contact_fixed,
    &xpbd__kind_contact_found,
    &xpbd__kind_tet_volume,
    &xpbd__kind_bend,
    &xpbd__kind_tether,
    &xpbd__kind_coupling,
    &xpbd__kind_bodies,
    NULL,
};

#endif /* XPBD_SELF */
