/* SPDX-License-Identifier: MIT */
/* kinds/plane.c: the planes' row of the set-kind table (step/step.h:
 * step_kind). Up to 8 half-spaces of the world (xpbd_plane: a unit normal
 * and an offset) that every particle with a radius stays out of; their
 * maths is kernels/plane.h. A plane moves only the particle it holds, so
 * its passes run over particle ranges; each particle's impulse is reported
 * in the world's plane_impulse (s->impulse, zeroed by the snapshot). Its
 * row on the engine's side (engine/common.h: engine_kind) keeps the
 * scene's planes and, with radii, that impulse per particle (a split's
 * copy starts at 0). */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/plane.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "world_rules_tmpl.h"
#include "engine/common.h"

#define xpbd__kind_plane PREC(xpbd__kind_plane_f32, xpbd__kind_plane_f64)
#define plane_present PREC(plane_present_f32, plane_present_f64)
#define plane_check PREC(plane_check_f32, plane_check_f64)
#define plane_setup PREC(plane_setup_f32, plane_setup_f64)
#define plane_position_task PREC(plane_position_task_f32, plane_position_task_f64)
#define plane_restitution_task PREC(plane_restitution_task_f32, plane_restitution_task_f64)
#define plane_solve PREC(plane_solve_f32, plane_solve_f64)
#define plane_velocity_pass PREC(plane_velocity_pass_f32, plane_velocity_pass_f64)
#define plane_reference PREC(plane_reference_f32, plane_reference_f64)
#define plane_lesson_velocity PREC(plane_lesson_velocity_f32, plane_lesson_velocity_f64)
#define xpbd__engine_kind_plane PREC(xpbd__engine_kind_plane_f32, xpbd__engine_kind_plane_f64)
#define plane_particles PREC(plane_particles_f32, plane_particles_f64)
#define plane_scene_check PREC(plane_scene_check_f32, plane_scene_check_f64)
#define plane_copy PREC(plane_copy_f32, plane_copy_f64)
#define plane_point PREC(plane_point_f32, plane_point_f64)
#define plane_scene PREC(plane_scene_f32, plane_scene_f64)

static int plane_present(const SFX(xpbd_world) *w)
{
    return w->plane_count != 0;
}

/* At most 8 planes, given; each a unit normal and a finite offset. */
static xpbd_status plane_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    const SFX(xpbd_world) *w = s->w;
    if (w->plane_count > 8 || !w->planes)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_PLANE, XPBD_FIELD_NONE);
    return xpbd__refuse(k, xpbd__check_planes(w->planes, w->plane_count, &k->bad_index),
                        XPBD_PART_PLANE, XPBD_FIELD_NONE);
}

/* The planes in the step's precision. */
static void plane_setup(step_run *s)
{
    const SFX(xpbd_world) *w = s->w;
    step_contact_run *cr = &s->cr;
    cr->planes_n = w->plane_count;
    for (uint32_t i = 0; i < cr->planes_n; ++i) {
        for (int j = 0; j < 3; ++j)
            cr->planes[i][j] = (R)w->planes[i].n[j];
        cr->planes[i][3] = (R)w->planes[i].d;
    }
}

/* ---- the passes over particles [i0, i1) -------------------------------------- */

static void plane_position_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    for (uint32_t k = 0; k < r->planes_n; ++k)
        s->part[worker].hits += s->ckt->plane_position(s->sc.q, s->p, r->radius, i0, i1,
                                                       r->planes[k], r->beta, r->mu_s, r->mu_k,
                                                       s->impulse, s->hs);
}

static void plane_restitution_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    const R *v0 = s->sc.v0;
    const size_t n = s->n;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    uint64_t hits = 0;
    for (uint32_t k = 0; k < r->planes_n; ++k)
        hits += s->ckt->plane_restitution(s->p, r->radius, v0, v0 + n, v0 + 2 * n, i0, i1,
                                          r->planes[k], r->e, r->slop, s->rest_speed,
                                          s->impulse);
    s->part[worker].hits += hits;
}

/* ---- the row's stages ------------------------------------------------------- */

static void plane_solve(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    step_run_particles(s, plane_position_task);
}

static void plane_velocity_pass(step_run *s)
{
    step_run_particles(s, plane_restitution_task);
}

/* Every plane on every particle. The lesson order passes no impulse: its
 * position pass moves particles without touching their velocity. */
static void plane_reference(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    const step_contact_run *r = &s->cr;
    const SFX(xpbd_contact_kernels) *ck = SFX(xpbd_contact_kernels_get)(XPBD_ISA_SCALAR);
    R *impulse = s->lesson ? NULL : s->impulse;
    for (uint32_t p = 0; p < r->planes_n; ++p)
        s->part[0].hits += ck->plane_position(s->sc.q, s->p, r->radius, 0, s->n, r->planes[p],
                                              r->beta, r->mu_s, r->mu_k, impulse, s->hs);
}

/* The lesson's velocity pass: plain impulses, restitution e beyond the
 * slop. */
static void plane_lesson_velocity(step_run *s)
{
    const step_contact_run *r = &s->cr;
    const SFX(xpbd_contact_kernels) *ck = SFX(xpbd_contact_kernels_get)(XPBD_ISA_SCALAR);
    for (uint32_t p = 0; p < r->planes_n; ++p)
        s->part[0].hits += ck->plane_velocity(s->p, r->radius, 0, s->n, r->planes[p], r->e,
                                              r->slop, s->impulse);
}

const step_kind xpbd__kind_plane = {
    .name = "plane",
    .part = XPBD_PART_PLANE,
    .class = ROW_CONTACT,
    .needs_radius = 1,
    .present = plane_present,
    .check = plane_check,
    .setup = plane_setup,
    .solve = plane_solve,
    .velocity = plane_velocity_pass,
    .reference = plane_reference,
    .lesson_velocity = plane_lesson_velocity,
};

/* ---- the engine's row (engine/common.h: engine_kind) ------------------- */

/* With radii: each particle's impulse on the planes (a copy starts at 0). */
static unsigned plane_particles(const SFX(xpbd_scene) *sc)
{
    return sc->radius ? XPBD__ENGINE_REAL : 0u;
}

/* At most 8 planes, given; then each a unit normal and a finite offset. */
static xpbd_status plane_scene_check(const SFX(xpbd_scene) *sc, xpbd__engine_check phase,
                                     xpbd_where *where)
{
    if (phase == XPBD__CHECK_ARGUMENTS && (sc->planes > 8 || (sc->planes && !sc->plane)))
        return xpbd__engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_PLANE, SIZE_MAX,
                                   XPBD_FIELD_NONE);
    if (phase != XPBD__CHECK_ELEMENTS)
        return XPBD_OK;
    const xpbd_status st = xpbd__check_planes(sc->plane, sc->planes, &where->index);
    if (st != XPBD_OK)
        return xpbd__engine_refuse(where, st, XPBD_PART_PLANE, where->index, XPBD_FIELD_NONE);
    return XPBD_OK;
}

static xpbd_status plane_copy(const SFX(xpbd_engine) *e, engine_slot *s,
                              const SFX(xpbd_scene) *sc)
{
    (void)e;
    s->count = sc->planes;
    for (uint32_t k = 0; k < sc->planes; ++k)
        s->set.plane[k] = sc->plane[k];
    return XPBD_OK;
}

static void plane_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    w->planes = s->count ? s->set.plane : NULL;
    w->plane_count = e->radius ? (uint32_t)s->count : 0;
    w->plane_impulse = e->radius && s->count ? s->preal : NULL;
}

static void plane_scene(const engine_slot *s, SFX(xpbd_scene) *out)
{
    out->planes = (uint32_t)s->count;
    out->plane = s->count ? s->set.plane : NULL;
}

const engine_kind xpbd__engine_kind_plane = {
    .name = "plane",
    .part = XPBD_PART_PLANE,
    .particles = plane_particles,
    .fresh = 1,
    .check = plane_scene_check,
    .copy = plane_copy,
    .point = plane_point,
    .scene = plane_scene,
};

#endif /* XPBD_SELF */
