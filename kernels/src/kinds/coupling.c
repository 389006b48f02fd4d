/* SPDX-License-Identifier: MIT */
/* kinds/coupling.c: the two-way coupling with host rigid bodies, a row of
 * the set-kind table (step/step.h: step_kind). The world's rigids (spheres
 * and boxes, xpbd_rigid_f64) push the particles with radii out of them;
 * the impulse the particles give each body is summed in rigid_impulse for
 * the host (softbody.c: xpbd_couple_rigid). The sums run in particle order
 * on the caller, so they do not depend on the worker count. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/coupling.c"
#  include "each_precision.h"
#else
#include "step/step.h"

#define xpbd__kind_coupling PREC(xpbd__kind_coupling_f32, xpbd__kind_coupling_f64)
#define coupling_present PREC(coupling_present_f32, coupling_present_f64)
#define coupling_check PREC(coupling_check_f32, coupling_check_f64)
#define coupling_clear PREC(coupling_clear_f32, coupling_clear_f64)
#define coupling_accumulate PREC(coupling_accumulate_f32, coupling_accumulate_f64)
#define coupling_solve PREC(coupling_solve_f32, coupling_solve_f64)

static int coupling_present(const SFX(xpbd_world) *w)
{
    return w->rigid_count != 0;
}

/* The arrays, the radii the coupling reads, then each body: the first bad
 * body names its index and its first bad field. */
static xpbd_status coupling_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    const SFX(xpbd_world) *w = s->w;
    if (!w->rigids || !w->rigid_impulse)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RIGID, XPBD_FIELD_NONE);
    if (!w->radius)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RADIUS, XPBD_FIELD_NONE);
    for (uint32_t b = 0; b < w->rigid_count; ++b) {
        const xpbd_field f = xpbd__rigid_field(&w->rigids[b]);
        if (f != XPBD_FIELD_NONE) {
            k->bad_index = b;
            return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_RIGID, f);
        }
    }
    return XPBD_OK;
}

static void coupling_clear(step_run *s)
{
    memset(s->w->rigid_impulse, 0, s->w->rigid_count * sizeof *s->w->rigid_impulse);
}

/* Couples the particles with rigid body b on q for one iteration and adds
 * the impulse to the world's rigid_impulse[b]. Returns the contacts. */
static uint32_t coupling_accumulate(const step_run *s, uint32_t b)
{
    const SFX(xpbd_world) *w = s->w;
    xpbd_rigid_impulse j;
    if (SFX(xpbd_couple_rigid)(s->sc.q, s->p, w->radius, 0, s->n, &w->rigids[b], (double)s->hs,
                               &j) != XPBD_OK)
        return 0; /* validated at step start: cannot happen */
    xpbd_rigid_impulse *acc = &w->rigid_impulse[b];
    for (int a = 0; a < 3; ++a) {
        acc->linear[a] += j.linear[a];
        acc->angular[a] += j.angular[a];
    }
    acc->contacts += j.contacts;
    return j.contacts;
}

static void coupling_solve(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    for (uint32_t b = 0; b < s->w->rigid_count; ++b)
        s->part[0].hits += coupling_accumulate(s, b);
}

const step_kind xpbd__kind_coupling = {
    .name = "body coupling",
    .part = XPBD_PART_RIGID,
    .class = ROW_COUPLING,
    .present = coupling_present,
    .check = coupling_check,
    .clear = coupling_clear,
    .solve = coupling_solve,
    .reference = coupling_solve,
};

#endif /* XPBD_SELF */
