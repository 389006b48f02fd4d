/* SPDX-License-Identifier: MIT */
/* kinds/table.c: the set-kind table. Each constraint set kind is one row
 * (step/step.h: step_kind) defined in its own file, kinds/<kind>.c; the
 * step, its validators and the reference side loop over these two lists
 * and never name a kind.
 *
 * A new kind touches four files here: its maths, lane function and
 * kernels in kernels/<concept>.h; one include and one table line in
 * kernels/all.h; its rows (the step's and, if the engine keeps it, the
 * engine's) and its set's builder in kinds/<kind>.c; its name in each list
 * below. Outside: its builder and world field in the public headers, its
 * tests and its report figure. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/table.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "engine/common.h"

/* The rows in the order an iteration solves them: the constraints (their
 * lambdas are counted across the sets in this order: distance, tetrahedra,
 * bending), the contacts, the coupling. Row K is xpbd__kind_K_f32 /
 * _f64, defined in kinds/K.c (contact_fixed and contact_found in
 * kinds/contact.c). */
#define KIND_SOLVE_ORDER(X)                                                                    \
    X(distance) X(tet_volume) X(bend) X(tether) X(contact_fixed) X(contact_found) X(plane)    \
    X(coupling)

/* The order the step checks them in (xpbd/step.h), with the rows of world
 * state between them (kinds/state.c: radius, bodies). */
#define KIND_CHECK_ORDER(X)                                                                    \
    X(distance) X(plane) X(radius) X(contact_fixed) X(contact_found) X(tet_volume) X(bend)    \
    X(tether) X(coupling) X(bodies)

/* The engine's order (engine/common.h: engine_kind): the order create
 * checks a scene in (xpbd/engine.h lists it), with the body ranges between
 * the kinds, and builds the sets in; a kind's engine row,
 * xpbd__engine_kind_K_f32 / _f64, lives beside its step row in
 * kinds/K.c. */
#define KIND_ENGINE_ORDER(X)                                                                   \
    X(distance) X(tet_volume) X(bend) X(tether) X(bodies) X(plane) X(contact_found)

#define KIND_DECLARE(k) extern const step_kind SFX(xpbd__kind_##k);
#define KIND_ENTRY(k) &SFX(xpbd__kind_##k),
#define KIND_ENGINE_DECLARE(k) extern const engine_kind SFX(xpbd__engine_kind_##k);
#define KIND_ENGINE_ENTRY(k) &SFX(xpbd__engine_kind_##k),
KIND_CHECK_ORDER(KIND_DECLARE)
KIND_ENGINE_ORDER(KIND_ENGINE_DECLARE)

const step_kind *const xpbd__kind_table[] = {KIND_SOLVE_ORDER(KIND_ENTRY) NULL};
const step_kind *const xpbd__kind_checks[] = {KIND_CHECK_ORDER(KIND_ENTRY) NULL};
const engine_kind *const xpbd__engine_kinds[] = {KIND_ENGINE_ORDER(KIND_ENGINE_ENTRY) NULL};

/* a step keeps the world's rows and lambdas in arrays of XPBD__ROWS_MAX */
_Static_assert(sizeof xpbd__kind_table / sizeof xpbd__kind_table[0] <= XPBD__ROWS_MAX + 1,
               "more rows than XPBD__ROWS_MAX");
_Static_assert(sizeof xpbd__engine_kinds / sizeof xpbd__engine_kinds[0] <= XPBD__ENGINE_ROWS + 1,
               "more engine rows than XPBD__ENGINE_ROWS");

#undef KIND_ENGINE_ENTRY
#undef KIND_ENGINE_DECLARE
#undef KIND_ENTRY
#undef KIND_DECLARE
#undef KIND_ENGINE_ORDER
#undef KIND_CHECK_ORDER
#undef KIND_SOLVE_ORDER

#endif /* XPBD_SELF */
