/* SPDX-License-Identifier: MIT */
/* kinds/tet_volume.c: the tetrahedral volume constraints' row of the set-kind table (step/step.h:
 * step_kind). The set is the world's xpbd_quad_set `tets`; its maths is
 * kernels/volume.h. Here: the set's builder (xpbd_tet_set_build_*, on the
 * quad sets' common parts in softbody.c), its step hooks on the quad
 * rows' common parts (kinds/quad_rows.h: the checks, the colour passes,
 * the reference pass) with its set and kernels; and its row on the
 * engine's side (engine/common.h: engine_kind): the tetrahedra of a scene,
 * the cells a tear drops when it cuts one of their six pairs. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/tet_volume.c"
#  include "each_precision.h"
#include "internal.h"

xpbd_status xpbd_tet_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz, size_t count,
                                   const uint32_t *idx, const float *compliance,
                                   const xpbd_colouring_options *options, size_t *bad_index)
{
    return tet_volume_set_build_f32(out, n, xyz, count, idx, compliance, options, bad_index);
}

xpbd_status xpbd_tet_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                   size_t count, const uint32_t *idx, const double *compliance,
                                   const xpbd_colouring_options *options, size_t *bad_index)
{
    return tet_volume_set_build_f64(out, n, xyz, count, idx, compliance, options, bad_index);
}

#else
#include "step/step.h"
#include "engine/common.h"
#include "kinds/quad_rows.h"

#include <stddef.h>

#include <math.h>
#include <stdlib.h>

#define xpbd__kind_tet_volume PREC(xpbd__kind_tet_volume_f32, xpbd__kind_tet_volume_f64)
#define xpbd__engine_kind_tet_volume PREC(xpbd__engine_kind_tet_volume_f32, xpbd__engine_kind_tet_volume_f64)
#define tet_build PREC(tet_build_f32, tet_build_f64)
#define tet_point PREC(tet_point_f32, tet_point_f64)
#define tet_present PREC(tet_present_f32, tet_present_f64)
#define tet_lambda PREC(tet_lambda_f32, tet_lambda_f64)
#define tet_check PREC(tet_check_f32, tet_check_f64)
#define tet_pays PREC(tet_pays_f32, tet_pays_f64)
#define tet_task PREC(tet_task_f32, tet_task_f64)
#define tet_solve PREC(tet_solve_f32, tet_solve_f64)
#define tet_reference PREC(tet_reference_f32, tet_reference_f64)
#define tet_counters PREC(tet_counters_f32, tet_counters_f64)
#define tet_volume_set_build PREC(tet_volume_set_build_f32, tet_volume_set_build_f64)

static int tet_present(const SFX(xpbd_world) *w)
{
    return w->tets != NULL;
}

static R *tet_lambda(const SFX(xpbd_world) *w, uint32_t *slots)
{
    return quad_rows_lambda(w->tets, slots);
}

static xpbd_status tet_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    return quad_rows_check(s, s->w->tets, stamp, k, XPBD_PART_TET);
}

static int tet_pays(const SFX(xpbd_world) *w)
{
    return quad_rows_pays(w->tets);
}

static void tet_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    quad_rows_task(s, b0, b1, worker, s->skt->tet_volume);
}

static void tet_solve(step_run *s, xpbd_step_counters *k)
{
    quad_rows_solve(s, k, s->w->tets, tet_task, SFX(xpbd_serial_tet_volume));
}

static void tet_reference(step_run *s, xpbd_step_counters *k)
{
    quad_rows_reference(s, k, s->w->tets, SFX(xpbd_serial_tet_volume));
}

/* The engine's counters: the set's colours, the largest volume error and
 * the degenerate elements (flat or inverted: vol6 and rest of opposite
 * signs, or |vol6| below 1e-6 of |rest|), in double. */
static void tet_counters(const SFX(xpbd_world) *w, const double *max_stretch,
                         xpbd_engine_counters *out)
{
    (void)max_stretch;
    const P *p = w->particles;
    const QS *t = w->tets;
    out->colours_tets = t->colours;
    for (uint32_t s = 0; s < t->slots; ++s) {
        if (t->source[s] == XPBD_PAD)
            continue;
        const uint32_t v[4] = {t->i0[s], t->i1[s], t->i2[s], t->i3[s]};
        double e[3][3];
        for (int a = 0; a < 3; ++a) {
            e[a][0] = (double)p->x[v[a + 1]] - (double)p->x[v[0]];
            e[a][1] = (double)p->y[v[a + 1]] - (double)p->y[v[0]];
            e[a][2] = (double)p->z[v[a + 1]] - (double)p->z[v[0]];
        }
        const double vol6 = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) +
                            e[0][1] * (e[1][2] * e[2][0] - e[1][0] * e[2][2]) +
                            e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
        const double rest = t->rest[s];
        const double err = fabs(vol6 - rest) / fabs(rest);
        if (err > out->volume_error)
            out->volume_error = err;
        if (!(vol6 * rest > 0) || fabs(vol6) < 1e-6 * fabs(rest))
            out->degenerate++;
    }
}

/* xpbd_tet_set_build_*: the tetrahedra's rest volumes (six times, signed) from
 * xyz; a tetrahedron with (almost) no volume is refused as degenerate. */
static xpbd_status tet_volume_set_build(QS *out, size_t n, const R *xyz, size_t count,
                                      const uint32_t *idx, const R *compliance,
                                      const xpbd_colouring_options *options, size_t *bad_index)
{
    xpbd_status st = xpbd__quad_set_inputs(out, n, xyz, count, idx, compliance, bad_index);
    if (st != XPBD_OK)
        return st;
    double *vol6 = malloc((count ? count : 1) * sizeof *vol6);
    if (!vol6)
        return XPBD_ERR_NOMEM;
    for (size_t t = 0; t < count; ++t) {
        const uint32_t *v = idx + 4 * t;
        double e1[3], e2[3], e3[3];
        xpbd__quad_set_edge(xyz, v[0], v[1], e1);
        xpbd__quad_set_edge(xyz, v[0], v[2], e2);
        xpbd__quad_set_edge(xyz, v[0], v[3], e3);
        const double g[3] = {e2[1] * e3[2] - e2[2] * e3[1], e2[2] * e3[0] - e2[0] * e3[2],
                             e2[0] * e3[1] - e2[1] * e3[0]};
        vol6[t] = e1[0] * g[0] + e1[1] * g[1] + e1[2] * g[2];
        double lmax = 0;
        const double *es[3] = {e1, e2, e3};
        for (int k = 0; k < 3; ++k) {
            const double l = sqrt(es[k][0] * es[k][0] + es[k][1] * es[k][1] + es[k][2] * es[k][2]);
            if (l > lmax)
                lmax = l;
        }
        if (!(fabs(vol6[t]) > 1e-12 * lmax * lmax * lmax) || !isfinite(vol6[t]) ||
            !isfinite((double)(R)vol6[t]) || (R)vol6[t] == 0) {
            free(vol6);
            if (bad_index)
                *bad_index = t;
            return XPBD_ERR_DEGENERATE;
        }
    }
    st = xpbd__quad_set_layout(out, n, count, idx, options);
    if (st == XPBD_OK)
        for (uint32_t s = 0; s < out->slots; ++s)
            if (out->source[s] != XPBD_PAD) {
                out->rest[s] = (R)vol6[out->source[s]];
                out->compliance[s] = compliance[out->source[s]];
            }
    free(vol6);
    return st;
}

const step_kind xpbd__kind_tet_volume = {
    .name = "tet volume",
    .part = XPBD_PART_TET,
    .class = ROW_CONSTRAINT,
    .present = tet_present,
    .lambda = tet_lambda,
    .check = tet_check,
    .pays = tet_pays,
    .solve = tet_solve,
    .reference = tet_reference,
    .counters = tet_counters,
};

/* ---- the engine's row (engine/common.h: engine_kind) ------------------- */

/* The set from m kept elements (4 indices each) on the rest shape. */
static xpbd_status tet_build(engine_set *set, size_t n, const R *rest_xyz, size_t m,
                             const uint32_t *idx, size_t stride, const R *rest, const R *comp,
                             const xpbd_colouring_options *options, size_t *at)
{
    (void)stride;
    (void)rest;
    return SFX(xpbd_tet_set_build)(&set->quads, n, rest_xyz, m, idx, comp, options, at);
}

static void tet_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    (void)e;
    w->tets = s->set.quads.count ? &s->set.quads : NULL;
}

const engine_kind xpbd__engine_kind_tet_volume = {
    .name = "tet volume",
    .part = XPBD_PART_TET,
    .constraint = 1,
    .arity = 4,
    .count_at = offsetof(SFX(xpbd_scene), tets),
    .idx_at = offsetof(SFX(xpbd_scene), tet),
    .comp_at = offsetof(SFX(xpbd_scene), tet_compliance),
    .alpha_at = offsetof(SFX(xpbd_scene), tet_alpha),
    .alpha_field = XPBD_FIELD_TET_ALPHA,
    .tear = XPBD__TEAR_CELLS,
    .build = tet_build,
    .free_set = engine_quads_free,
    .source = engine_quads_source,
    .point = tet_point,
};

#endif /* XPBD_SELF */
