/* SPDX-License-Identifier: MIT */
/* step/stages.c: the stages of a step (step.h: xpbd__stage), each a loop
 * over ranges of its items on the step's executor. The stages that work on
 * constraints run the world's rows of the set-kind table (kinds/) in table
 * order: a row's pass over a set's colours runs through
 * xpbd__step_run_colours, the one place that cuts a colour into ranges.
 * xpbd__step_stage, first, lists the stages. */
#ifndef XPBD_SELF
#  define XPBD_SELF "step/stages.c"
#  include "each_precision.h"
#else
#include "step/step.h"

#define step_stage_prepare PREC(step_stage_prepare_f32, step_stage_prepare_f64)
#define step_stage_rows PREC(step_stage_rows_f32, step_stage_rows_f64)
#define step_stage_spring_forces PREC(step_stage_spring_forces_f32, step_stage_spring_forces_f64)
#define step_stage_velocity_pass PREC(step_stage_velocity_pass_f32, step_stage_velocity_pass_f64)
#define step_predict_task PREC(step_predict_task_f32, step_predict_task_f64)
#define step_freeze_sleepers PREC(step_freeze_sleepers_f32, step_freeze_sleepers_f64)
#define step_save_velocities PREC(step_save_velocities_f32, step_save_velocities_f64)
#define step_velocity_update_task PREC(step_velocity_update_task_f32, step_velocity_update_task_f64)
#define step_velocity_predict_task PREC(step_velocity_predict_task_f32, step_velocity_predict_task_f64)
#define step_damping_task PREC(step_damping_task_f32, step_damping_task_f64)

/* The stages, in the order of xpbd__stage (defined below). */
static void step_stage_prepare(step_run *s, xpbd_step_counters *k);
static void step_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_stage_rows(step_run *s, xpbd__row_class only, xpbd_step_counters *k);
static void step_stage_spring_forces(step_run *s, xpbd_step_counters *k);
static void step_velocity_update_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_velocity_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_stage_velocity_pass(step_run *s);
static void step_damping_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);

/* Runs one stage (the serial parts on the caller, the rest on ranges); the
 * prepare and finalize stages leave their status in s->status. */
void xpbd__step_stage(step_run *s, xpbd__stage stage, xpbd_step_counters *k)
{
    const double t0 = s->clock ? xpbd__step_now() : 0;
    switch (stage) {
    case STAGE_PREPARE: step_stage_prepare(s, k); break;
    case STAGE_SNAPSHOT: xpbd__step_snapshot(s, COPY_SAVE); break;
    case STAGE_RESET_LAMBDA: xpbd__step_lambdas(s, COPY_ZERO); break;
    case STAGE_PREDICT: step_run_particles(s, step_predict_task); break;
    case STAGE_SOLVE: step_stage_rows(s, ROW_STATE, k); break;
    case STAGE_SPRING_FORCES: step_stage_spring_forces(s, k); break;
    case STAGE_CONTACTS: step_stage_rows(s, ROW_CONTACT, k); break;
    case STAGE_VELOCITY_UPDATE: step_run_particles(s, step_velocity_update_task); break;
    case STAGE_VELOCITY_PREDICT: step_run_particles(s, step_velocity_predict_task); break;
    case STAGE_VELOCITY_PASS: step_stage_velocity_pass(s); break;
    case STAGE_RELATIVE_DAMPING:
        xpbd__run(&s->ex, step_damping_task, s->w->body_count, XPBD__MIN_BODIES, s);
        break;
    case STAGE_FINALIZE: s->status = xpbd__step_finalize(s, s->status, k); break;
    }
    if (s->clock)
        s->clock[1 + (unsigned)stage] += xpbd__step_now() - t0;
}

/* ---- a row's pass over a set's colours ---------------------------------------- */

/* Runs task over every colour of a set, one colour after another. A
 * colour's last batch may hold padding that reads the colour's first
 * particle; it runs on the caller after the join, so no worker reads a
 * particle another one writes. */
void xpbd__step_run_colours(step_run *s, const void *set, xpbd_range_task *task,
                            uint32_t colours, const uint32_t *colour_begin)
{
    xpbd__step_run_colour_range(s, set, task, 0, colours, colour_begin);
}

/* xpbd__step_run_colours on colours [c0, c1) only. */
void xpbd__step_run_colour_range(step_run *s, const void *set, xpbd_range_task *task,
                                 uint32_t c0, uint32_t c1, const uint32_t *colour_begin)
{
    s->set = set;
    for (uint32_t col = c0; col < c1; ++col) {
        const uint32_t nb = xpbd_colour_batches(colour_begin, col);
        s->colour = col;
        if (nb < 2 * XPBD__MIN_BATCHES || s->ex.workers < 2) {
            task(0, nb, 0, s);
        } else {
            xpbd__run(&s->ex, task, nb - 1, XPBD__MIN_BATCHES, s);
            task(nb - 1, nb, 0, s);
        }
    }
}

/* The lambda reset of a set's first pass in an iteration, fused into it:
 * a slot's lambda is read by its own solve only, so zeroing it just
 * before the solve is the reset at the substep's start. */
void xpbd__step_zero_batches(const step_run *s, R *lambda, const uint32_t *colour_begin,
                             uint32_t b0, uint32_t b1)
{
    if (s->zero_lambda)
        memset(lambda + colour_begin[s->colour] + (size_t)b0 * XPBD_BATCH, 0,
               (size_t)(b1 - b0) * XPBD_BATCH * sizeof(R));
}

void xpbd__step_zero_overflow(const step_run *s, R *lambda, uint32_t begin, uint32_t end)
{
    if (s->zero_lambda && end > begin)
        memset(lambda + begin, 0, (size_t)(end - begin) * sizeof(R));
}

/* ---- the stages ----------------------------------------------------------------- */

/* Each row's preparation before the snapshot (the broad phase): the first
 * status < 0 ends the step; XPBD_OVERFLOW carries on. */
static void step_stage_prepare(step_run *s, xpbd_step_counters *k)
{
    for (uint32_t r = 0; r < s->row_count; ++r)
        if (s->rows[r]->prepare) {
            const xpbd_status st = s->rows[r]->prepare(s, k);
            if (st != XPBD_OK)
                s->status = st;
            if (st < 0)
                return;
        }
}

/* One iteration's position-level pass of every row (ROW_STATE: all of
 * them), or of the rows of one class, in table order. */
static void step_stage_rows(step_run *s, xpbd__row_class only, xpbd_step_counters *k)
{
    for (uint32_t r = 0; r < s->row_count; ++r) {
        const step_kind *row = s->rows[r];
        if (row->solve && (only == ROW_STATE || row->class == only))
            row->solve(s, k);
    }
}

/* The springs' forces: they start at 0 (spring_integrate leaves them 0 for
 * the next substep, unless the contact pass packed positions over them). */
static void step_stage_spring_forces(step_run *s, xpbd_step_counters *k)
{
    if (s->n && (s->sub == 0 || s->contacts))
        memset(s->sc.fx, 0, 3 * s->n * sizeof(R));
    for (uint32_t r = 0; r < s->row_count; ++r)
        if (s->rows[r]->forces)
            s->rows[r]->forces(s, k);
}

/* Puts the sleeping bodies' particles of [i0, i1) to their substep-start
 * positions with inverse mass 0 in the packed copy: in the solve they act
 * as static particles (what touches them gets the whole correction). */
static void step_freeze_sleepers(const step_run *s, size_t i0, size_t i1)
{
    const SFX(xpbd_world) *w = s->w;
    const P *p = s->p;
    R *q = s->sc.q;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b) {
        if (!w->body_asleep[b])
            continue;
        const size_t lo = w->body_begin[b] > i0 ? w->body_begin[b] : i0;
        const size_t hi = w->body_begin[b + 1] < i1 ? w->body_begin[b + 1] : i1;
        for (size_t i = lo; i < hi; ++i) {
            q[4 * i] = p->px[i];
            q[4 * i + 1] = p->py[i];
            q[4 * i + 2] = p->pz[i];
            q[4 * i + 3] = 0;
        }
    }
}

static void step_save_velocities(const step_run *s, size_t i0, size_t i1)
{
    const size_t n = s->n;
    memcpy(s->sc.v0 + i0, s->p->vx + i0, (i1 - i0) * sizeof(R));
    memcpy(s->sc.v0 + n + i0, s->p->vy + i0, (i1 - i0) * sizeof(R));
    memcpy(s->sc.v0 + 2 * n + i0, s->p->vz + i0, (i1 - i0) * sizeof(R));
}

/* The start of a substep on particles [i0, i1) for each scheme: XPBD / PBD
 * predict (and pack); springs integrate (and pack for the contacts). */
static void step_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    if (s->springs) {
        s->kt->spring_integrate(p, s->sc.fx, s->sc.fy, s->sc.fz, i0, i1, s->hs, s->gx, s->gy,
                                s->gz);
        if (!s->contacts)
            return;
        if (s->vpass)
            step_save_velocities(s, i0, i1);
        s->kt->pack(p, s->sc.q, i0, i1);
        return;
    }
    if (s->solve) {
        s->kt->predict_pack(p, s->sc.q, i0, i1, s->hs, s->gx, s->gy, s->gz);
        step_freeze_sleepers(s, i0, i1);
    } else {
        s->kt->predict(p, i0, i1, s->hs, s->gx, s->gy, s->gz);
    }
    if (s->vpass)
        step_save_velocities(s, i0, i1);
}

/* Velocities from positions on particles [i0, i1): XPBD / PBD unpack with
 * damping; springs with contacts unpack and update undamped. */
static void step_velocity_update_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    if (s->springs) {
        s->kt->unpack(s->sc.q, p, i0, i1);
        s->kt->update_velocity(p, i0, i1, s->hs, 1);
    } else if (s->solve) {
        s->kt->unpack_velocity(s->sc.q, p, i0, i1, s->hs, s->keep);
    } else {
        s->kt->update_velocity(p, i0, i1, s->hs, s->keep);
    }
}

/* A substep's velocity update and the next one's predict on particles
 * [i0, i1), in one pass (XPBD / PBD with nothing between the two). What
 * runs between two substeps on this path reads q and p only (the
 * constraints, soft bodies, coupling and position-level contacts: the
 * velocity pass and relative damping take the other path), and the step's
 * last velocity update computes x and v from q and p: the pass writes p
 * and q only. */
static void step_velocity_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    s->sk->relaunch_packed(s->sc.q, s->p, i0, i1, s->hs, s->keep, s->gx, s->gy, s->gz);
    step_freeze_sleepers(s, i0, i1);
}

/* The velocity pass of every row that has one (contact restitution
 * against the pre-solve velocities v0). */
static void step_stage_velocity_pass(step_run *s)
{
    for (uint32_t r = 0; r < s->row_count; ++r)
        if (s->rows[r]->velocity)
            s->rows[r]->velocity(s);
}

/* Bodies [b, e): relative damping of the awake ones. */
static void step_damping_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    step_run *s = ctx;
    const SFX(xpbd_world) *w = s->w;
    for (uint32_t k = b; k < e; ++k)
        if (!(w->body_asleep && w->body_asleep[k]))
            (void)SFX(xpbd_damp_relative)(s->p, w->body_begin[k], w->body_begin[k + 1],
                                          s->cfg->relative_damping);
}

#endif /* XPBD_SELF */
