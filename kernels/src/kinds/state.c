/* SPDX-License-Identifier: MIT */
/* kinds/state.c: two rows of world state that the step checks between the
 * kinds (xpbd/step.h gives the order) but solves nothing with: the
 * particles' radii, which every row with needs_radius reads, and the body
 * ranges, which relative damping and sleeping treat as wholes. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/state.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "engine/common.h"

#define xpbd__kind_radius PREC(xpbd__kind_radius_f32, xpbd__kind_radius_f64)
#define xpbd__kind_bodies PREC(xpbd__kind_bodies_f32, xpbd__kind_bodies_f64)
#define radius_present PREC(radius_present_f32, radius_present_f64)
#define radius_scan_task PREC(radius_scan_task_f32, radius_scan_task_f64)
#define radius_check PREC(radius_check_f32, radius_check_f64)
#define bodies_present PREC(bodies_present_f32, bodies_present_f64)
#define bodies_check PREC(bodies_check_f32, bodies_check_f64)
#define xpbd__engine_kind_bodies PREC(xpbd__engine_kind_bodies_f32, xpbd__engine_kind_bodies_f64)
#define bodies_scene_check PREC(bodies_scene_check_f32, bodies_scene_check_f64)

/* Radii given, or needed by a row the world has. */
static int radius_present(const SFX(xpbd_world) *w)
{
    if (w->radius)
        return 1;
    for (const step_kind *const *r = xpbd__kind_table; *r; ++r)
        if ((*r)->needs_radius && (*r)->present(w))
            return 1;
    return 0;
}

/* Radii finite and >= 0 on blocks [b, e). */
static void radius_scan_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const R *radius = s->w->radius;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i)
        if (!isfinite(radius[i]) || radius[i] < 0) {
            step_note_bad(s, worker, i, XPBD_ERR_RADIUS);
            return;
        }
}

static xpbd_status radius_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    if (!s->w->radius)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RADIUS, XPBD_FIELD_NONE);
    return xpbd__refuse(k, xpbd__step_scan_particles(s, radius_scan_task, &k->bad_index),
                        XPBD_PART_RADIUS, XPBD_FIELD_NONE);
}

static int bodies_present(const SFX(xpbd_world) *w)
{
    return w->body_count != 0;
}

/* Each body a range of particles, in order: the first bad body names its
 * index. */
static xpbd_status bodies_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    const SFX(xpbd_world) *w = s->w;
    if (!w->body_begin)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_BODY, XPBD_FIELD_NONE);
    for (uint32_t b = 0; b < w->body_count; ++b)
        if (w->body_begin[b] > w->body_begin[b + 1] || w->body_begin[b + 1] > s->n) {
            k->bad_index = b;
            return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_BODY, XPBD_FIELD_BODY_BEGIN);
        }
    return XPBD_OK;
}

const step_kind xpbd__kind_radius = {
    .name = "radius",
    .part = XPBD_PART_RADIUS,
    .class = ROW_STATE,
    .present = radius_present,
    .check = radius_check,
};

const step_kind xpbd__kind_bodies = {
    .name = "body range",
    .part = XPBD_PART_BODY,
    .class = ROW_STATE,
    .present = bodies_present,
    .check = bodies_check,
};

/* The body ranges on the engine's side (engine/common.h: engine_kind):
 * only checked there (the sleep state is the engine's own). Ranges given;
 * then each a range of the scene's particles, in order, as the step
 * checks them. */
static xpbd_status bodies_scene_check(const SFX(xpbd_scene) *sc, xpbd__engine_check phase,
                                      xpbd_where *where)
{
    if (phase == XPBD__CHECK_ARGUMENTS && sc->bodies && !sc->body_begin)
        return xpbd__engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_BODY, SIZE_MAX,
                                   XPBD_FIELD_NONE);
    for (uint32_t b = 0; phase == XPBD__CHECK_RANGES && b < sc->bodies; ++b)
        if (sc->body_begin[b] > sc->body_begin[b + 1] || sc->body_begin[b + 1] > sc->particles)
            return xpbd__engine_refuse(where, XPBD_ERR_CONFIG, XPBD_PART_BODY, b,
                                       XPBD_FIELD_BODY_BEGIN);
    return XPBD_OK;
}

const engine_kind xpbd__engine_kind_bodies = {
    .name = "body range",
    .part = XPBD_PART_BODY,
    .check = bodies_scene_check,
};

#endif /* XPBD_SELF */
