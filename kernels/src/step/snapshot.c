/* SPDX-License-Identifier: MIT */
/* step/snapshot.c: the state a failed step puts back (the particles' nine
 * arrays and every set's lambdas, saved before the first substep), and the
 * end of a step: sleepers back, the finite check that rolls a diverged
 * step back, the residual. */
#ifndef XPBD_SELF
#  define XPBD_SELF "step/snapshot.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "screen_tmpl.h"

#define step_collect_counters PREC(step_collect_counters_f32, step_collect_counters_f64)
#define step_lambda_task PREC(step_lambda_task_f32, step_lambda_task_f64)
#define step_snapshot_task PREC(step_snapshot_task_f32, step_snapshot_task_f64)
#define step_finite_task PREC(step_finite_task_f32, step_finite_task_f64)
#define step_lambda_finite_task PREC(step_lambda_finite_task_f32, step_lambda_finite_task_f64)
#define step_first_nonfinite PREC(step_first_nonfinite_f32, step_first_nonfinite_f64)
#define step_part_of PREC(step_part_of_f32, step_part_of_f64)
#define step_sleepers_back_task PREC(step_sleepers_back_task_f32, step_sleepers_back_task_f64)

/* Sums the workers' counters into k and clears them. */
static void step_collect_counters(step_run *s, xpbd_step_counters *k)
{
    for (uint32_t t = 0; t < s->ex.workers; ++t) {
        k->skipped += s->part[t].skipped;
        k->contact_hits += s->part[t].hits;
        s->part[t].skipped = s->part[t].hits = 0;
    }
}

/* Lambda slots [b, e) of all sets (counted across them in table order):
 * saved to, restored from the snapshot, or zeroed. */
static void step_lambda_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const size_t g0 = (size_t)b * XPBD__SBLOCK;
    const size_t g1 = (size_t)e * XPBD__SBLOCK < s->all_slots ? (size_t)e * XPBD__SBLOCK
                                                              : s->all_slots;
    size_t base = 0;
    R *save = s->sc.save + 9 * s->n;
    for (uint32_t k = 0; k < s->lam.count; ++k) {
        const size_t lo = g0 > base ? g0 - base : 0;
        const size_t hi = g1 - base < s->lam.slots[k] ? g1 - base : s->lam.slots[k];
        if (g1 > base && hi > lo) {
            R *l = s->lam.lambda[k] + lo, *v = save + base + lo;
            if (s->copy == COPY_SAVE)
                memcpy(v, l, (hi - lo) * sizeof(R));
            else if (s->copy == COPY_RESTORE)
                memcpy(l, v, (hi - lo) * sizeof(R));
            else
                memset(l, 0, (hi - lo) * sizeof(R));
        }
        base += s->lam.slots[k];
    }
}

void xpbd__step_lambdas(step_run *s, xpbd__copy copy)
{
    s->copy = copy;
    const uint32_t blocks = (uint32_t)((s->all_slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK);
    xpbd__run(&s->ex, step_lambda_task, blocks, XPBD__MIN_SBLOCKS, s);
}

/* Particles' nine arrays saved or restored; the plane impulses zeroed. */
static void step_snapshot_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    for (int k = 0; k < 9; ++k) {
        R *v = s->sc.save + (size_t)k * s->n + i0;
        if (s->copy == COPY_RESTORE)
            memcpy(arrays[k] + i0, v, (i1 - i0) * sizeof(R));
        else
            memcpy(v, arrays[k] + i0, (i1 - i0) * sizeof(R));
    }
    if (s->impulse)
        memset(s->impulse + i0, 0, (i1 - i0) * sizeof(R));
}

void xpbd__step_snapshot(step_run *s, xpbd__copy copy)
{
    s->copy = copy;
    step_run_particles(s, step_snapshot_task);
    xpbd__step_lambdas(s, copy);
    for (uint32_t r = 0; r < s->row_count; ++r)
        if (s->rows[r]->clear)
            s->rows[r]->clear(s);
}

/* Bodies [b, e): the sleeping ones put back to their step-start state. */
static void step_sleepers_back_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const SFX(xpbd_world) *w = s->w;
    const P *p = s->p;
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    for (uint32_t k = b; k < e; ++k) {
        const size_t b0 = w->body_begin[k], b1 = w->body_begin[k + 1];
        if (!w->body_asleep[k] || b1 <= b0)
            continue;
        for (int a = 0; a < 9; ++a)
            memcpy(arrays[a] + b0, s->sc.save + (size_t)a * s->n + b0, (b1 - b0) * sizeof(R));
    }
}

/* First non-finite particle of blocks [b, e) (position or velocity) into
 * the worker's slot. */
static void step_finite_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    const size_t m = i1 - i0;
    if (screen_finite(p->x + i0, m) && screen_finite(p->y + i0, m) &&
        screen_finite(p->z + i0, m) && screen_finite(p->vx + i0, m) &&
        screen_finite(p->vy + i0, m) && screen_finite(p->vz + i0, m))
        return;
    for (size_t i = i0; i < i1; ++i)
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i]) ||
            !isfinite(p->vx[i]) || !isfinite(p->vy[i]) || !isfinite(p->vz[i])) {
            if (i < s->part[worker].bad)
                s->part[worker].bad = i;
            return;
        }
}

/* First non-finite lambda of slot blocks [b, e) (slots counted across the
 * sets) into the worker's slot. */
static void step_lambda_finite_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const size_t g0 = (size_t)b * XPBD__SBLOCK;
    const size_t g1 = (size_t)e * XPBD__SBLOCK < s->all_slots ? (size_t)e * XPBD__SBLOCK
                                                              : s->all_slots;
    size_t base = 0;
    for (uint32_t k = 0; k < s->lam.count; ++k) {
        const size_t lo = g0 > base ? g0 - base : 0;
        const size_t hi = g1 - base < s->lam.slots[k] ? g1 - base : s->lam.slots[k];
        if (g1 > base && hi > lo && !screen_finite(s->lam.lambda[k] + lo, hi - lo))
            for (size_t i = lo; i < hi; ++i)
                if (!isfinite(s->lam.lambda[k][i])) {
                    if (base + i < s->part[worker].bad)
                        s->part[worker].bad = base + i;
                    return;
                }
        base += s->lam.slots[k];
    }
}

/* First non-finite element after a step: particle i, or n + slot (slots
 * counted across the sets in table order). */
static size_t step_first_nonfinite(step_run *s)
{
    step_clear_partials(s);
    step_run_particles(s, step_finite_task);
    size_t bad = SIZE_MAX;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < bad)
            bad = s->part[t].bad;
    if (bad != SIZE_MAX)
        return bad;
    step_clear_partials(s);
    const uint32_t blocks = (uint32_t)((s->all_slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK);
    xpbd__run(&s->ex, step_lambda_finite_task, blocks, XPBD__MIN_SBLOCKS, s);
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < bad)
            bad = s->part[t].bad;
    return bad == SIZE_MAX ? SIZE_MAX : s->n + bad;
}

/* What a first non-finite element belongs to: a particle, or the row
 * whose lambda it is (slots counted across the rows in table order). */
static xpbd_part step_part_of(const step_run *s, size_t bad)
{
    if (bad < s->n)
        return XPBD_PART_PARTICLES;
    size_t g = bad - s->n;
    uint32_t k = 0;
    while (k + 1 < s->lam.count && g >= s->lam.slots[k])
        g -= s->lam.slots[k++];
    return s->lam.part[k];
}

/* Sleeping bodies end the step as they began it; a non-finite result puts
 * the whole step back (XPBD_ERR_DIVERGED); else the residual. */
xpbd_status xpbd__step_finalize(step_run *s, xpbd_status result,
                                       xpbd_step_counters *k)
{
    step_collect_counters(s, k);
    if (s->w->body_asleep)
        xpbd__run(&s->ex, step_sleepers_back_task, s->w->body_count, XPBD__MIN_BODIES, s);
    const size_t bad = step_first_nonfinite(s);
    if (bad != SIZE_MAX) {
        xpbd__step_snapshot(s, COPY_RESTORE);
        k->bad_index = bad;
        return xpbd__refuse(k, XPBD_ERR_DIVERGED, step_part_of(s, bad), XPBD_FIELD_NONE);
    }
    /* the largest over the rows that measure one (counters start at 0) */
    for (uint32_t r = 0; s->cfg->measure_residual && r < s->row_count; ++r)
        if (s->rows[r]->residual) {
            const R m = s->rows[r]->residual(s);
            if (m > k->max_residual)
                k->max_residual = m;
        }
    return result;
}

#endif /* XPBD_SELF */
