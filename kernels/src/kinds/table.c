/* SPDX-License-Identifier: MIT */
/* kinds/table.c: the set-kind table. Each constraint set kind is one row
 * (step/step.h: step_kind) defined in its own file, kinds/<kind>.c; the
 * step, its validators and the reference side loop over these two lists
 * and never name a kind.
 *
 * A new kind: its maths and lane function in kernels/<concept>.h (and its
 * colour kernel in the kernel rows), its rows in kinds/<kind>.c (the
 * step's and, if the engine keeps it, the engine's), one line here in each
 * list, its builder, its tests and its report figure. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/table.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "engine/common.h"

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
#define xpbd__engine_kind_distance PREC(xpbd__engine_kind_distance_f32, xpbd__engine_kind_distance_f64)
#define xpbd__engine_kind_tet_volume PREC(xpbd__engine_kind_tet_volume_f32, xpbd__engine_kind_tet_volume_f64)
#define xpbd__engine_kind_bend PREC(xpbd__engine_kind_bend_f32, xpbd__engine_kind_bend_f64)
#define xpbd__engine_kind_tether PREC(xpbd__engine_kind_tether_f32, xpbd__engine_kind_tether_f64)
#define xpbd__engine_kind_bodies PREC(xpbd__engine_kind_bodies_f32, xpbd__engine_kind_bodies_f64)
#define xpbd__engine_kind_plane PREC(xpbd__engine_kind_plane_f32, xpbd__engine_kind_plane_f64)
#define xpbd__engine_kind_contact_found PREC(xpbd__engine_kind_contact_found_f32, xpbd__engine_kind_contact_found_f64)

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

extern const engine_kind xpbd__engine_kind_distance, xpbd__engine_kind_tet_volume,
    xpbd__engine_kind_bend, xpbd__engine_kind_tether, xpbd__engine_kind_bodies,
    xpbd__engine_kind_plane, xpbd__engine_kind_contact_found;

/* The engine's order (engine/common.h: engine_kind): the order create
 * checks a scene in (xpbd/engine.h lists it), with the body ranges between
 * the kinds, and builds the sets in; a kind's engine row lives beside its
 * step row, in kinds/<kind>.c. */
const engine_kind *const xpbd__engine_kinds[] = {
    &xpbd__engine_kind_distance,
    &xpbd__engine_kind_tet_volume,
    &xpbd__engine_kind_bend,
    &xpbd__engine_kind_tether,
    &xpbd__engine_kind_bodies,
    &xpbd__engine_kind_plane,
    &xpbd__engine_kind_contact_found,
    NULL,
};
_Static_assert(sizeof xpbd__engine_kinds / sizeof xpbd__engine_kinds[0] <= XPBD__ENGINE_ROWS + 1,
               "more engine rows than XPBD__ENGINE_ROWS");

#endif /* XPBD_SELF */
