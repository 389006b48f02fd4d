/* SPDX-License-Identifier: MIT */
/* kinds/bend.c: the bending constraints' row of the set-kind table (step/step.h:
 * step_kind). The set is the world's xpbd_quad_set `bends`; its maths is
 * kernels/bend.h. Here: the set's builder (xpbd_bend_set_build_*, on the
 * quad sets' common parts in softbody.c), its step hooks on the quad
 * rows' common parts (kinds/quad_rows.h: the checks, the colour passes,
 * the reference pass) with its set and kernels; and its row on the
 * engine's side (engine/common.h: engine_kind): the bending stencils of a
 * scene, the stencils a tear drops. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/bend.c"
#  include "each_precision.h"
#include "internal.h"

xpbd_status xpbd_bend_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz,
                                    size_t count, const uint32_t *idx, const float *compliance,
                                    const xpbd_colouring_options *options, size_t *bad_index)
{
    return bend_set_build_f32(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_bend_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                    size_t count, const uint32_t *idx, const double *compliance,
                                    const xpbd_colouring_options *options, size_t *bad_index)
{
    return bend_set_build_f64(out, n, xyz, count, idx, compliance, options, bad_index);
}

#else
#include "step/step.h"
#include "engine/common.h"
#include "kinds/quad_rows.h"

#include <stddef.h>

#include <math.h>
#include <stdlib.h>

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
#define bend_cot PREC(bend_cot_f32, bend_cot_f64)
#define bend_set_build PREC(bend_set_build_f32, bend_set_build_f64)

static int bend_present(const SFX(xpbd_world) *w)
{
    return w->bends != NULL;
}

static R *bend_lambda(const SFX(xpbd_world) *w, uint32_t *slots)
{
    return quad_rows_lambda(w->bends, slots);
}

static xpbd_status bend_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    return quad_rows_check(s, s->w->bends, stamp, k, XPBD_PART_BEND);
}

static int bend_pays(const SFX(xpbd_world) *w)
{
    return quad_rows_pays(w->bends);
}

static void bend_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    quad_rows_task(s, b0, b1, worker, s->skt->bending);
}

static void bend_solve(step_run *s, xpbd_step_counters *k)
{
    quad_rows_solve(s, k, s->w->bends, bend_task, SFX(xpbd_serial_bending));
}

static void bend_reference(step_run *s, xpbd_step_counters *k)
{
    quad_rows_reference(s, k, s->w->bends, SFX(xpbd_serial_bending));
}

/* The engine's counters: the set's colours. */
static void bend_counters(const SFX(xpbd_world) *w, const double *max_stretch,
                          xpbd_engine_counters *out)
{
    (void)max_stretch;
    out->colours_bends = w->bends->colours;
}

/* cot of the angle between u and v */
static double bend_cot(const double u[3], const double v[3])
{
    const double c = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    const double x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                         u[0] * v[1] - u[1] * v[0]};
    return c / sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

/* xpbd_bend_set_build_*: the isometric bending coefficients of each hinge
 * from its rest shape (Bergou et al. 2006). */
static xpbd_status bend_set_build(QS *out, size_t n, const R *xyz, size_t count,
                                       const uint32_t *idx, const R *compliance,
                                       const xpbd_colouring_options *options, size_t *bad_index)
{
    xpbd_status st = xpbd__quad_set_inputs(out, n, xyz, count, idx, compliance, bad_index);
    if (st != XPBD_OK)
        return st;
    double *coef = malloc((count ? count : 1) * 5 * sizeof *coef);
    if (!coef)
        return XPBD_ERR_NOMEM;
    for (size_t t = 0; t < count; ++t) {
        /* Bergou et al. 2006: edge (x0, x1), opposite vertices x2, x3 */
        const uint32_t *v = idx + 4 * t;
        double e0[3], e1[3], e2[3], e3[3], e4[3], me0[3];
        xpbd__quad_set_edge(xyz, v[0], v[1], e0);
        xpbd__quad_set_edge(xyz, v[0], v[2], e1);
        xpbd__quad_set_edge(xyz, v[0], v[3], e2);
        xpbd__quad_set_edge(xyz, v[1], v[2], e3);
        xpbd__quad_set_edge(xyz, v[1], v[3], e4);
        for (int k = 0; k < 3; ++k)
            me0[k] = -e0[k];
        const double a0x[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                               e0[0] * e1[1] - e0[1] * e1[0]};
        const double a1x[3] = {e0[1] * e2[2] - e0[2] * e2[1], e0[2] * e2[0] - e0[0] * e2[2],
                               e0[0] * e2[1] - e0[1] * e2[0]};
        const double A0 = 0.5 * sqrt(a0x[0] * a0x[0] + a0x[1] * a0x[1] + a0x[2] * a0x[2]);
        const double A1 = 0.5 * sqrt(a1x[0] * a1x[0] + a1x[1] * a1x[1] + a1x[2] * a1x[2]);
        const double c01 = bend_cot(e0, e1), c02 = bend_cot(e0, e2);
        const double c03 = bend_cot(me0, e3), c04 = bend_cot(me0, e4);
        double *k = coef + 5 * t;
        k[0] = c03 + c04;
        k[1] = c01 + c02;
        k[2] = -c01 - c03;
        k[3] = -c02 - c04;
        k[4] = 3.0 / (A0 + A1);
        int ok = A0 > 0 && A1 > 0;
        for (int j = 0; j < 5; ++j)
            ok &= isfinite(k[j]) && isfinite((double)(R)k[j]);
        if (!ok) {
            free(coef);
            if (bad_index)
                *bad_index = t;
            return XPBD_ERR_DEGENERATE;
        }
    }
    st = xpbd__quad_set_layout(out, n, count, idx, options);
    if (st == XPBD_OK)
        for (uint32_t s = 0; s < out->slots; ++s)
            if (out->source[s] != XPBD_PAD) {
                const double *k = coef + 5 * (size_t)out->source[s];
                out->k0[s] = (R)k[0];
                out->k1[s] = (R)k[1];
                out->k2[s] = (R)k[2];
                out->k3[s] = (R)k[3];
                out->scale[s] = (R)k[4];
                out->compliance[s] = compliance[out->source[s]];
            }
    free(coef);
    return st;
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
