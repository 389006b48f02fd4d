/* SPDX-License-Identifier: MIT */
/* kinds/distance.c: the distance constraints' row of the set-kind table
 * (step/step.h: step_kind). The set is the world's xpbd_distance_set; its
 * maths is kernels/distance.h (PBD, XPBD) and kernels/spring.h (the
 * springs' forces), its builder and validator soa.c. Here: its
 * checks over ranges, its pass on each solver with the lambda reset fused
 * into the first one, its reference pass and its residual; and its row on
 * the engine's side (engine/common.h: engine_kind): the edges of a scene,
 * the springs' rule, the stretch pass that flags edges to tear
 * (xpbd_tear_flag) and the rebuild without them (xpbd_tear_remove). */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/distance.c"
#  include "engine/common.h"
#  include "each_precision.h"

uint32_t xpbd_tear_flag_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return distance_stretch_f32(p, c, threshold, flags, max_stretch);
}

uint32_t xpbd_tear_flag_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return distance_stretch_f64(p, c, threshold, flags, max_stretch);
}

xpbd_status xpbd_tear_remove_f32(xpbd_distance_set_f32 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return distance_tear_remove_f32(c, particles, remove, options, kept);
}

xpbd_status xpbd_tear_remove_f64(xpbd_distance_set_f64 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return distance_tear_remove_f64(c, particles, remove, options, kept);
}

#else
#include "step/step.h"
#include "engine/common.h"

#include <stddef.h>

#define xpbd__kind_distance PREC(xpbd__kind_distance_f32, xpbd__kind_distance_f64)
#define distance_present PREC(distance_present_f32, distance_present_f64)
#define distance_lambda PREC(distance_lambda_f32, distance_lambda_f64)
#define distance_screen_task PREC(distance_screen_task_f32, distance_screen_task_f64)
#define distance_check_set PREC(distance_check_set_f32, distance_check_set_f64)
#define distance_check PREC(distance_check_f32, distance_check_f64)
#define distance_report PREC(distance_report_f32, distance_report_f64)
#define distance_pays PREC(distance_pays_f32, distance_pays_f64)
#define distance_xpbd_batches PREC(distance_xpbd_batches_f32, distance_xpbd_batches_f64)
#define distance_pbd_batches PREC(distance_pbd_batches_f32, distance_pbd_batches_f64)
#define distance_xpbd_task PREC(distance_xpbd_task_f32, distance_xpbd_task_f64)
#define distance_pbd_task PREC(distance_pbd_task_f32, distance_pbd_task_f64)
#define distance_region_task PREC(distance_region_task_f32, distance_region_task_f64)
#define distance_solve_regions PREC(distance_solve_regions_f32, distance_solve_regions_f64)
#define distance_spring_task PREC(distance_spring_task_f32, distance_spring_task_f64)
#define distance_residual_task PREC(distance_residual_task_f32, distance_residual_task_f64)
#define distance_solve PREC(distance_solve_f32, distance_solve_f64)
#define distance_forces PREC(distance_forces_f32, distance_forces_f64)
#define distance_reference PREC(distance_reference_f32, distance_reference_f64)
#define distance_residual PREC(distance_residual_f32, distance_residual_f64)
#define distance_counters PREC(distance_counters_f32, distance_counters_f64)
#define distance_stretch PREC(distance_stretch_f32, distance_stretch_f64)
#define distance_max_stretch PREC(distance_max_stretch_f32, distance_max_stretch_f64)
#define distance_tear_remove PREC(distance_tear_remove_f32, distance_tear_remove_f64)
#define xpbd__engine_kind_distance PREC(xpbd__engine_kind_distance_f32, xpbd__engine_kind_distance_f64)
#define distance_rest PREC(distance_rest_f32, distance_rest_f64)
#define distance_build PREC(distance_build_f32, distance_build_f64)
#define distance_free_set PREC(distance_free_set_f32, distance_free_set_f64)
#define distance_source PREC(distance_source_f32, distance_source_f64)
#define distance_springs PREC(distance_springs_f32, distance_springs_f64)
#define distance_point PREC(distance_point_f32, distance_point_f64)
#define distance_tear_flag PREC(distance_tear_flag_f32, distance_tear_flag_f64)
#define distance_torn PREC(distance_torn_f32, distance_torn_f64)

static int distance_present(const SFX(xpbd_world) *w)
{
    return w->constraints != NULL;
}

static R *distance_lambda(const SFX(xpbd_world) *w, uint32_t *slots)
{
    *slots = w->constraints->slots;
    return w->constraints->lambda;
}

/* ---- checks ---------------------------------------------------------------- */

/* The set's per-slot screen on slot blocks [b, e): a failure is only
 * flagged (the validator names the slot). */
static void distance_screen_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const DS *c = s->w->constraints;
    const uint32_t s0 = b * XPBD__SBLOCK;
    const uint32_t s1 = (uint64_t)e * XPBD__SBLOCK < c->slots ? e * XPBD__SBLOCK : c->slots;
    if (!SFX(xpbd__distance_set_screen)(c, s->n, s0, s1))
        step_note_bad(s, worker, 0, XPBD_ERR_INDEX);
}

/* xpbd_distance_set_validate over ranges when the run has workers and the
 * scratch room for a stamp each: the set's fields, the screen over slot
 * blocks (a failure: the validator itself names the slot), the repeat
 * check over colours, with the status and index the validator gives. */
static xpbd_status distance_check_set(step_run *s, uint32_t *stamp, size_t *bad)
{
    const DS *c = s->w->constraints;
    if (!xpbd__step_checks_on_ranges(s))
        return SFX(xpbd_distance_set_validate)(c, s->n, stamp, bad);
    xpbd_status st = SFX(xpbd__distance_set_fields)(c, stamp);
    if (st != XPBD_OK || c->slots == 0)
        return st;
    step_clear_partials(s);
    xpbd__run(&s->ex, distance_screen_task, (c->slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK,
              XPBD__MIN_SBLOCKS, s);
    size_t first = SIZE_MAX;
    if (step_lowest_bad(s, &first) != XPBD_OK)
        return SFX(xpbd_distance_set_validate)(c, s->n, stamp, bad);
    const uint32_t *const idx[4] = {c->i0, c->i1, NULL, NULL};
    st = xpbd__step_check_repeats(s, idx, 2, c->source, c->colours, c->colour_begin,
                                  c->colour_size, bad);
    if (st != XPBD_OK || c->regions == 0)
        return st;
    const uint32_t r = xpbd__region_overlap(c->regions, c->region_colour, c->colour_begin,
                                            c->colour_size, c->i0, c->i1, s->n, stamp);
    if (r == UINT32_MAX)
        return XPBD_OK;
    *bad = r;
    return XPBD_ERR_INDEX;
}

/* The set, then the springs' rule (a spring needs a stiffness: compliance
 * > 0). */
static xpbd_status distance_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    const DS *c = s->w->constraints;
    const xpbd_status st = distance_check_set(s, stamp, &k->bad_index);
    if (st != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_DISTANCE, XPBD_FIELD_NONE);
    if (s->cfg->solver == XPBD_SOLVER_SPRINGS)
        for (uint32_t i = 0; i < c->slots; ++i)
            if (c->source[i] != XPBD_PAD && !(c->compliance[i] > 0)) {
                k->bad_index = i;
                return xpbd__refuse(k, XPBD_ERR_COMPLIANCE, XPBD_PART_DISTANCE,
                                    XPBD_FIELD_NONE);
            }
    return XPBD_OK;
}

/* The set's colours and overflow into the counters. */
static void distance_report(const step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->w->constraints;
    k->colours = c->colours;
    k->overflow = c->slots - c->overflow_begin;
}

static int distance_pays(const SFX(xpbd_world) *w)
{
    const size_t colour = 2 * (size_t)XPBD__MIN_BATCHES * XPBD_BATCH;
    const DS *c = w->constraints;
    /* regions: one stage for the interiors, the boundary mostly inline */
    if (c->regions > 1 && c->region_colour)
        return c->slots >= colour * 2u;
    return c->slots >= colour * (c->colours + 1u);
}

/* ---- the passes over a colour's batches [b0, b1) ------------------------- */

/* XPBD on colour col's batches [b0, b1). The reset of the lambdas rides
 * on the first pass over them; lambdas that the next pass resets again are
 * not written at all. */
static void distance_xpbd_batches(step_run *s, const DS *c, uint32_t col, uint32_t b0,
                                  uint32_t b1, uint32_t worker)
{
    step_partial *pt = &s->part[worker];
    if (!s->zero_lambda)
        pt->skipped += s->kt->distance_xpbd_packed(s->sc.q, c, col, b0, b1, s->hs);
    else if (s->lambda_dead)
        pt->skipped += s->sk->distance_xpbd_packed_once(s->sc.q, c, col, b0, b1, s->hs);
    else
        pt->skipped += s->sk->distance_xpbd_packed_first(s->sc.q, c, col, b0, b1, s->hs);
}

/* PBD on colour col's batches [b0, b1), its lambdas reset first. */
static void distance_pbd_batches(step_run *s, const DS *c, uint32_t col, uint32_t b0,
                                 uint32_t b1, uint32_t worker)
{
    if (s->zero_lambda)
        memset(c->lambda + c->colour_begin[col] + (size_t)b0 * XPBD_BATCH, 0,
               (size_t)(b1 - b0) * XPBD_BATCH * sizeof(R));
    s->part[worker].skipped += s->kt->distance_pbd_packed(s->sc.q, c, col, b0, b1, s->ks);
}

static void distance_xpbd_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    distance_xpbd_batches(s, s->set, s->colour, b0, b1, worker);
}

static void distance_pbd_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    distance_pbd_batches(s, s->set, s->colour, b0, b1, worker);
}

/* Regions [r0, r1) of the set's interiors, each whole, colour after colour
 * (xpbd_colouring_options.regions): no particle of one region's interior
 * is another's, so regions run at once and in any order, and a region's
 * colour padding reads only its own particles. */
static void distance_region_task(uint32_t r0, uint32_t r1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const DS *c = s->set;
    const int xpbd = s->cfg->solver == XPBD_SOLVER_XPBD;
    for (uint32_t r = r0; r < r1; ++r)
        for (uint32_t col = c->region_colour[r]; col < c->region_colour[r + 1]; ++col) {
            const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
            if (xpbd)
                distance_xpbd_batches(s, c, col, 0, nb, worker);
            else
                distance_pbd_batches(s, c, col, 0, nb, worker);
        }
}

/* A set with regions: the interiors as one stage of regions, then the
 * boundary colours. */
static void distance_solve_regions(step_run *s, const DS *c, xpbd_range_task *task)
{
    s->set = c;
    xpbd__run(&s->ex, distance_region_task, c->regions, 1, s);
    xpbd__step_run_colour_range(s, c, task, c->region_colour[c->regions], c->colours,
                                c->colour_begin);
}

static void distance_spring_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    s->part[worker].skipped += s->kt->spring_forces(s->p, s->set, s->sc.fx, s->sc.fy, s->sc.fz,
                                                    s->colour, b0, b1, s->sd);
}

static void distance_residual_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const R m = s->kt->residual(s->p, s->set, s->colour, b0, b1, s->hs, NULL);
    if (m > s->part[worker].max)
        s->part[worker].max = m;
}

/* ---- the row's stages ------------------------------------------------------- */

/* One iteration: the colours, then the serial overflow. */
static void distance_solve(step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->w->constraints;
    step_partial *pt = &s->part[0];
    if (c->regions) {
        distance_solve_regions(s, c,
                               s->cfg->solver == XPBD_SOLVER_XPBD ? distance_xpbd_task
                                                                  : distance_pbd_task);
        xpbd__step_zero_overflow(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += s->cfg->solver == XPBD_SOLVER_XPBD
                           ? SFX(xpbd_serial_distance_xpbd_packed)(s->sc.q, c, c->overflow_begin,
                                                                   c->slots, s->hs)
                           : SFX(xpbd_serial_distance_pbd_packed)(s->sc.q, c, c->overflow_begin,
                                                                  c->slots, s->ks);
    } else if (s->cfg->solver == XPBD_SOLVER_XPBD) {
        xpbd__step_run_colours(s, c, distance_xpbd_task, c->colours, c->colour_begin);
        xpbd__step_zero_overflow(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_xpbd_packed)(s->sc.q, c, c->overflow_begin,
                                                             c->slots, s->hs);
    } else {
        xpbd__step_run_colours(s, c, distance_pbd_task, c->colours, c->colour_begin);
        xpbd__step_zero_overflow(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_pbd_packed)(s->sc.q, c, c->overflow_begin,
                                                            c->slots, s->ks);
    }
    k->solves += c->count;
}

/* The springs' forces on the colours, then the overflow. */
static void distance_forces(step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->w->constraints;
    xpbd__step_run_colours(s, c, distance_spring_task, c->colours, c->colour_begin);
    s->part[0].skipped += SFX(xpbd_serial_spring_forces)(s->p, c, s->sc.fx, s->sc.fy, s->sc.fz,
                                                         c->overflow_begin, c->slots, s->sd);
    k->solves += c->count;
}

static void distance_reference(step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->w->constraints;
    const int xpbd = s->cfg->solver == XPBD_SOLVER_XPBD;
    XPBD__EACH_COLOUR_RANGE(c, a, b)
        s->part[0].skipped +=
            xpbd ? SFX(xpbd_serial_distance_xpbd_packed)(s->sc.q, c, a, b, s->hs)
                 : SFX(xpbd_serial_distance_pbd_packed)(s->sc.q, c, a, b, s->ks);
    k->solves += c->count;
}

/* Max |C + at*lambda| over the set at step end. */
static R distance_residual(step_run *s)
{
    const DS *c = s->w->constraints;
    step_clear_partials(s);
    xpbd__step_run_colours(s, c, distance_residual_task, c->colours, c->colour_begin);
    R m = 0;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].max > m)
            m = s->part[t].max;
    const R r = SFX(xpbd_serial_residual)(s->p, c, c->overflow_begin, c->slots, s->hs, NULL);
    return r > m ? r : m;
}

/* The engine's counters: the set's colours and constraints, its largest
 * stretch. */
static double distance_max_stretch(const P *p, const DS *c);

static void distance_counters(const SFX(xpbd_world) *w, const double *max_stretch,
                              xpbd_engine_counters *out)
{
    out->colours_distance = w->constraints->colours;
    out->distance = w->constraints->count;
    out->max_stretch = max_stretch ? *max_stretch
                                   : distance_max_stretch(w->particles, w->constraints);
}

/* The max stretch xpbd_tear_flag gives (|d| / rest - 1 in double over the
 * real slots), in a pass with nothing else to do: over each colour's real
 * slots and the overflow (the slots in their order, padding skipped by
 * the layout), the largest |d| / rest, then - 1. x - 1 rounds monotonically
 * in x, so the largest of the differences is the difference of the
 * largest; the first real slot starts the maximum as there (a NaN there
 * stays, later ones are passed over): the same value, bit for bit. */
static double distance_max_stretch(const P *p, const DS *c)
{
    if (!p || !c || c->count == 0)
        return 0;
    const R *x = p->x, *y = p->y, *z = p->z, *rest = c->rest;
    const uint32_t *i0 = c->i0, *i1 = c->i1;
    double top = 0;
    int any = 0;
    XPBD__EACH_COLOUR_RANGE(c, s0, s1)
    {
        for (uint32_t s = s0; s < s1; ++s) {
            const uint32_t a = i0[s], b = i1[s];
            const double dx = (double)x[b] - (double)x[a];
            const double dy = (double)y[b] - (double)y[a];
            const double dz = (double)z[b] - (double)z[a];
            const double r = sqrt(dx * dx + dy * dy + dz * dz) / (double)rest[s];
            top = !any || r > top ? r : top;
            any = 1;
        }
    }
    return top - 1;
}

const step_kind xpbd__kind_distance = {
    .name = "distance",
    .part = XPBD_PART_DISTANCE,
    .class = ROW_CONSTRAINT,
    .present = distance_present,
    .lambda = distance_lambda,
    .check = distance_check,
    .report = distance_report,
    .pays = distance_pays,
    .solve = distance_solve,
    .forces = distance_forces,
    .reference = distance_reference,
    .residual = distance_residual,
    .counters = distance_counters,
};

/* ---- tearing (xpbd/engine.h) ------------------------------------------- */

static uint32_t distance_stretch(const P *p, const DS *c, double threshold, uint8_t *flags,
                                 double *max_stretch)
{
    double m = 0;
    uint32_t flagged = 0;
    int any = 0;
    if (p && c)
        for (uint32_t s = 0; s < c->slots; ++s) {
            const uint32_t src = c->source[s];
            if (src == XPBD_PAD)
                continue;
            const uint32_t a = c->i0[s], b = c->i1[s];
            const double dx = (double)p->x[b] - (double)p->x[a];
            const double dy = (double)p->y[b] - (double)p->y[a];
            const double dz = (double)p->z[b] - (double)p->z[a];
            const double st = sqrt(dx * dx + dy * dy + dz * dz) / (double)c->rest[s] - 1;
            if (!any || st > m)
                m = st;
            any = 1;
            const int over = threshold > 0 && st > threshold;
            flagged += (uint32_t)over;
            if (flags)
                flags[src] = (uint8_t)over;
        }
    if (max_stretch)
        *max_stretch = m;
    return flagged;
}

static xpbd_status distance_tear_remove(DS *c, size_t n, const uint8_t *remove,
                                        const xpbd_colouring_options *options, uint32_t *kept)
{
    if (!c || (c->count && !remove))
        return XPBD_ERR_ARGUMENT;
    const size_t m = c->count;
    uint32_t *i0 = malloc((2 * m + 1) * sizeof *i0);
    R *rest = malloc((2 * m + 1) * sizeof *rest);
    if (!i0 || !rest) {
        free(i0);
        free(rest);
        return XPBD_ERR_NOMEM;
    }
    uint32_t *i1 = i0 + m;
    R *comp = rest + m;
    /* back to input order ... */
    for (uint32_t s = 0; s < c->slots; ++s) {
        const uint32_t src = c->source[s];
        if (src == XPBD_PAD)
            continue;
        i0[src] = c->i0[s];
        i1[src] = c->i1[s];
        rest[src] = c->rest[s];
        comp[src] = c->compliance[s];
    }
    /* ... then the survivors, in that order (k <= t: in place is safe) */
    size_t k = 0;
    for (size_t t = 0; t < m; ++t)
        if (!remove[t]) {
            i0[k] = i0[t];
            i1[k] = i1[t];
            rest[k] = rest[t];
            comp[k] = comp[t];
            ++k;
        }
    DS nw;
    const xpbd_status st =
        SFX(xpbd_distance_set_build)(&nw, n, k, i0, i1, rest, comp, options, NULL);
    free(i0);
    free(rest);
    if (st != XPBD_OK)
        return st;
    SFX(xpbd_distance_set_free)(c);
    *c = nw;
    if (kept)
        for (size_t t = 0, j = 0; t < m; ++t)
            kept[t] = remove[t] ? XPBD_PAD : (uint32_t)j++;
    return XPBD_OK;
}

/* ---- the engine's row (engine/common.h: engine_kind) ------------------- */

/* An edge's rest length from the rest shape. */
static R distance_rest(const R *rest_xyz, const uint32_t *idx)
{
    const R *a = rest_xyz + 3 * (size_t)idx[0];
    const R *b = rest_xyz + 3 * (size_t)idx[1];
    const double dx = (double)b[0] - (double)a[0], dy = (double)b[1] - (double)a[1];
    const double dz = (double)b[2] - (double)a[2];
    return (R)sqrt(dx * dx + dy * dy + dz * dz);
}

/* The set from m kept edges: both ends' columns, stride apart. */
static xpbd_status distance_build(engine_set *set, size_t n, const R *rest_xyz, size_t m,
                                  const uint32_t *idx, size_t stride, const R *rest,
                                  const R *comp, const xpbd_colouring_options *options,
                                  size_t *at)
{
    (void)rest_xyz;
    return SFX(xpbd_distance_set_build)(&set->pairs, n, m, idx, idx + stride, rest, comp,
                                        options, at);
}

static void distance_free_set(engine_set *set)
{
    SFX(xpbd_distance_set_free)(&set->pairs);
}

static uint32_t *distance_source(engine_set *set, uint32_t *slots)
{
    *slots = set->pairs.slots;
    return set->pairs.source;
}

/* The springs' rule on the built set (run's solver): every constraint
 * needs compliance > 0; the lowest edge that has none. */
static xpbd_status distance_springs(const engine_set *set, const xpbd_step_config *run,
                                    xpbd_where *where)
{
    if (run->solver != XPBD_SOLVER_SPRINGS)
        return XPBD_OK;
    const DS *d = &set->pairs;
    size_t bad = SIZE_MAX;
    for (uint32_t k = 0; k < d->slots; ++k)
        if (d->source[k] != XPBD_PAD && !(d->compliance[k] > 0) && d->source[k] < bad)
            bad = d->source[k];
    if (bad == SIZE_MAX)
        return XPBD_OK;
    return xpbd__engine_refuse(where, XPBD_ERR_COMPLIANCE, XPBD_PART_DISTANCE, bad,
                               XPBD_FIELD_NONE);
}

static void distance_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    (void)e;
    w->constraints = s->set.pairs.count ? &s->set.pairs : NULL;
}

static uint32_t distance_tear_flag(const P *p, const engine_set *set, double threshold,
                                   uint8_t *flags, double *max_stretch)
{
    return distance_stretch(p, &set->pairs, threshold, flags, max_stretch);
}

static void distance_torn(const engine_set *set, xpbd_engine_counters *out)
{
    out->distance = set->pairs.count;
}

const engine_kind xpbd__engine_kind_distance = {
    .name = "distance",
    .part = XPBD_PART_DISTANCE,
    .constraint = 1,
    .arity = 2,
    .columns = 1,
    .count_at = offsetof(SFX(xpbd_scene), edges),
    .idx_at = offsetof(SFX(xpbd_scene), edge),
    .rest_at = offsetof(SFX(xpbd_scene), edge_rest),
    .comp_at = offsetof(SFX(xpbd_scene), edge_compliance),
    .alpha_at = offsetof(SFX(xpbd_scene), edge_alpha),
    .alpha_field = XPBD_FIELD_EDGE_ALPHA,
    .tear = XPBD__TEAR_EDGES,
    .rest = distance_rest,
    .build = distance_build,
    .free_set = distance_free_set,
    .source = distance_source,
    .config = distance_springs,
    .point = distance_point,
    .tear_flag = distance_tear_flag,
    .torn = distance_torn,
};

#endif /* XPBD_SELF */
