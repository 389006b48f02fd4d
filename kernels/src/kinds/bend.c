/* SPDX-License-Identifier: MIT */
/* kinds/bend.c: the bending constraints' row of the set-kind table (step/step.h:
 * step_kind). The set is the world's xpbd_quad_set `bends`; its maths is
 * kernels/bend.h, its builder softbody.c. Here: its checks (the
 * quad set validator over ranges), its pass over the colours with the
 * lambda reset fused into the first one, and its reference pass; and
 * its row on the engine's side (engine/common.h: engine_kind): the bending stencils of a scene, the stencils a tear drops. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/bend.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "engine/common.h"

#include <stddef.h>

#define xpbd__kind_bend PREC(xpbd__kind_bend_f32, xpbd__kind_bend_f64)
#define xpbd__engine_kind_bend PREC(xpbd__engine_kind_bend_f32, xpbd__engine_kind_bend_f64)
#define bend_build PREC(bend_build_f32, bend_build_f64)
#define bend_point PREC(bend_point_f32, bend_point_f64)
#define bend_present PREC(bend_present_f32, bend_present_f64)
#define bend_lambda PREC(bend_lambda_f32, bend_lambda_f64)
#define bend_check PREC(bend_check_f32, bend_check_f64)
#define bend_pays PREC(bend_pays_f32, bend_pays_f64)
#define bend_task PREC(bend_task_f32, bend_task_f64)
#define bend_solve PREC(bend_solve_f32, bend_solve_f64)
#define bend_reference PREC(bend_reference_f32, bend_reference_f64)
#define bend_counters PREC(bend_counters_f32, bend_counters_f64)

static int bend_present(const SFX(xpbd_world) *w)
{
    return w->bends != NULL;
}

static R *bend_lambda(const SFX(xpbd_world) *w, uint32_t *slots)
{
    *slots = w->bends->slots;
    return w->bends->lambda;
}

static xpbd_status bend_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    return xpbd__refuse(k, xpbd__step_check_quad_set(s, s->w->bends, stamp, &k->bad_index),
                        XPBD_PART_BEND, XPBD_FIELD_NONE);
}

static int bend_pays(const SFX(xpbd_world) *w)
{
    const size_t colour = 2 * (size_t)XPBD__MIN_BATCHES * XPBD_BATCH;
    return w->bends->slots >= colour * (w->bends->colours + 1u);
}

/* Batches [b0, b1) of colour s->colour, the lambdas reset first in the
 * iteration's first pass. */
static void bend_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const QS *q = s->set;
    xpbd__step_zero_batches(s, q->lambda, q->colour_begin, b0, b1);
    s->part[worker].skipped += s->skt->bending(s->sc.q, q, s->colour, b0, b1, s->hs);
}

/* One iteration: the colours, then the serial overflow. */
static void bend_solve(step_run *s, xpbd_step_counters *k)
{
    const QS *q = s->w->bends;
    xpbd__step_run_colours(s, q, bend_task, q->colours, q->colour_begin);
    xpbd__step_zero_overflow(s, q->lambda, q->overflow_begin, q->slots);
    s->part[0].skipped +=
        SFX(xpbd_serial_bending)(s->sc.q, q, q->overflow_begin, q->slots, s->hs);
    k->solves += q->count;
}

static void bend_reference(step_run *s, xpbd_step_counters *k)
{
    const QS *q = s->w->bends;
    XPBD__EACH_COLOUR_RANGE(q, a, b)
        s->part[0].skipped += SFX(xpbd_serial_bending)(s->sc.q, q, a, b, s->hs);
    k->solves += q->count;
}

/* The engine's counters: the set's colours. */
static void bend_counters(const SFX(xpbd_world) *w, const double *max_stretch,
                          xpbd_engine_counters *out)
{
    (void)max_stretch;
    out->colours_bends = w->bends->colours;
}

const step_kind xpbd__kind_bend = {
    .name = "bend",
    .part = XPBD_PART_BEND,
    .class = ROW_CONSTRAINT,
    .present = bend_present,
    .lambda = bend_lambda,
    .check = bend_check,
    .pays = bend_pays,
    .solve = bend_solve,
    .reference = bend_reference,
    .counters = bend_counters,
};

/* ---- the engine's row (engine/common.h: engine_kind) ------------------- */

/* The set from m kept elements (4 indices each) on the rest shape. */
static xpbd_status bend_build(engine_set *set, size_t n, const R *rest_xyz, size_t m,
                             const uint32_t *idx, size_t stride, const R *rest, const R *comp,
                             const xpbd_colouring_options *options, size_t *at)
{
    (void)stride;
    (void)rest;
    return SFX(xpbd_bend_set_build)(&set->quads, n, rest_xyz, m, idx, comp, options, at);
}

static void bend_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    (void)e;
    w->bends = s->set.quads.count ? &s->set.quads : NULL;
}

const engine_kind xpbd__engine_kind_bend = {
    .name = "bend",
    .part = XPBD_PART_BEND,
    .constraint = 1,
    .arity = 4,
    .count_at = offsetof(SFX(xpbd_scene), bends),
    .idx_at = offsetof(SFX(xpbd_scene), bend),
    .comp_at = offsetof(SFX(xpbd_scene), bend_compliance),
    .alpha_at = offsetof(SFX(xpbd_scene), bend_alpha),
    .alpha_field = XPBD_FIELD_BEND_ALPHA,
    .tear = XPBD__TEAR_STENCILS,
    .build = bend_build,
    .free_set = engine_quads_free,
    .source = engine_quads_source,
    .point = bend_point,
};

#endif /* XPBD_SELF */
