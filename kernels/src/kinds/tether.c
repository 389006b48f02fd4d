/* SPDX-License-Identifier: MIT */
/* kinds/tether.c: the tethers' row of the set-kind table (step/step.h:
 * step_kind). A tether is per-particle state of the world (an anchor and
 * the longest distance allowed to it: tether_anchor, tether_length); its
 * maths is kernels/tether.h. It keeps no lambda, and its pass runs in
 * particle order on the caller: a tether reads its anchor. Its row on the
 * engine's side (engine/common.h: engine_kind) keeps the anchor and the
 * length per particle; a split's copy keeps its vertex's tether. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/tether.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "world_rules_tmpl.h"
#include "engine/common.h"

#include <stddef.h>

#define xpbd__kind_tether PREC(xpbd__kind_tether_f32, xpbd__kind_tether_f64)
#define tether_present PREC(tether_present_f32, tether_present_f64)
#define tether_scan_task PREC(tether_scan_task_f32, tether_scan_task_f64)
#define tether_check PREC(tether_check_f32, tether_check_f64)
#define tether_solve PREC(tether_solve_f32, tether_solve_f64)
#define tether_reference PREC(tether_reference_f32, tether_reference_f64)
#define xpbd__engine_kind_tether PREC(xpbd__engine_kind_tether_f32, xpbd__engine_kind_tether_f64)
#define tether_particles PREC(tether_particles_f32, tether_particles_f64)
#define tether_scene_check PREC(tether_scene_check_f32, tether_scene_check_f64)
#define tether_point PREC(tether_point_f32, tether_point_f64)

static int tether_present(const SFX(xpbd_world) *w)
{
    return w->tether_anchor != NULL;
}

/* Tether anchors in range and lengths finite and >= 0 on blocks [b, e). */
static void tether_scan_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const SFX(xpbd_world) *w = s->w;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i) {
        const xpbd_status st =
            xpbd__check_tether(w->tether_anchor[i], w->tether_length[i], s->n);
        if (st != XPBD_OK) {
            step_note_bad(s, worker, i, st);
            return;
        }
    }
}

static xpbd_status tether_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    if (!s->w->tether_length)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_TETHER, XPBD_FIELD_NONE);
    return xpbd__refuse(k, xpbd__step_scan_particles(s, tether_scan_task, &k->bad_index),
                        XPBD_PART_TETHER, XPBD_FIELD_NONE);
}

static void tether_solve(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    const SFX(xpbd_world) *w = s->w;
    (void)s->skt->tethers(s->sc.q, w->tether_anchor, w->tether_length, 0, s->n);
}

static void tether_reference(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    const SFX(xpbd_world) *w = s->w;
    (void)SFX(xpbd_softbody_kernels_get)(XPBD_ISA_SCALAR)
        ->tethers(s->sc.q, w->tether_anchor, w->tether_length, 0, s->n);
}

const step_kind xpbd__kind_tether = {
    .name = "tether",
    .part = XPBD_PART_TETHER,
    .class = ROW_CONSTRAINT,
    .present = tether_present,
    .check = tether_check,
    .solve = tether_solve,
    .reference = tether_reference,
};

/* ---- the engine's row (engine/common.h: engine_kind) ------------------- */

static unsigned tether_particles(const SFX(xpbd_scene) *sc)
{
    return sc->tether_anchor ? XPBD__ENGINE_REAL | XPBD__ENGINE_INDEX : 0u;
}

/* Anchors with lengths; then each particle's anchor and length. */
static xpbd_status tether_scene_check(const SFX(xpbd_scene) *sc, xpbd__engine_check phase,
                                      xpbd_where *where)
{
    if (phase == XPBD__CHECK_ARGUMENTS && sc->tether_anchor && !sc->tether_length)
        return xpbd__engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_TETHER, SIZE_MAX,
                                   XPBD_FIELD_NONE);
    for (size_t i = 0; phase == XPBD__CHECK_PARTICLES && sc->tether_anchor && i < sc->particles;
         ++i) {
        const xpbd_status st = xpbd__check_tether(sc->tether_anchor[i], sc->tether_length[i],
                                                  sc->particles);
        if (st != XPBD_OK)
            return xpbd__engine_refuse(where, st, XPBD_PART_TETHER, i, XPBD_FIELD_NONE);
    }
    return XPBD_OK;
}

static void tether_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    (void)e;
    w->tether_anchor = s->pindex;
    w->tether_length = s->preal;
}

const engine_kind xpbd__engine_kind_tether = {
    .name = "tether",
    .part = XPBD_PART_TETHER,
    .constraint = 1,
    .particles = tether_particles,
    .real_at = offsetof(SFX(xpbd_scene), tether_length),
    .index_at = offsetof(SFX(xpbd_scene), tether_anchor),
    .check = tether_scene_check,
    .point = tether_point,
};

#endif /* XPBD_SELF */
