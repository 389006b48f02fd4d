/* SPDX-License-Identifier: MIT */
/* reference_step.c: the step's teaching modes, beside the serial
 * references they run on (kernels_scalar.c, xpbd/reference.h):
 *
 *   XPBD_CONTACTS_LESSON       the lesson contact order: v += g h, the
 *                              velocity pass, x += v h, the position pass,
 *                              no velocity from positions
 *   XPBD_LAMBDA_PER_ITERATION  the lambdas reset before every iteration
 *                              (the classic mistake S0 shows)
 *
 * The step configuration keeps both fields, so sweeps, replays and the
 * protocol are as they were; the step's driver hands a substep in either
 * mode to xpbd__reference_substep. Every constraint pass here is the
 * reference statement: the serial kernel over each colour's slots, one
 * slot at a time, colours in order, then the overflow; the particle passes
 * are the reference path's kernels over all particles. Each gives the bits
 * the step's colour kernels give on every path (the ISA contract), so a
 * step in these modes is what it was; it runs on the caller only. */
#ifndef XPBD_SELF
#  define XPBD_SELF "reference_step.c"
#  include "each_precision.h"
#else
#include "step/step.h"

#define reference_lesson_substep PREC(reference_lesson_substep_f32, reference_lesson_substep_f64)
#define reference_iteration_substep PREC(reference_iteration_substep_f32, reference_iteration_substep_f64)
#define reference_rows PREC(reference_rows_f32, reference_rows_f64)

static void reference_lesson_substep(step_run *s, xpbd_step_counters *k);
static void reference_iteration_substep(step_run *s, xpbd_step_counters *k);

void xpbd__reference_substep(step_run *s, xpbd_step_counters *k)
{
    if (s->cfg->contact_order == XPBD_CONTACTS_LESSON)
        reference_lesson_substep(s, k);
    else
        reference_iteration_substep(s, k);
}

/* The reference pass of the world's rows (ROW_STATE: all of them) or of
 * those of one class, in table order. */
static void reference_rows(step_run *s, xpbd__row_class only, xpbd_step_counters *k)
{
    for (uint32_t r = 0; r < s->row_count; ++r) {
        const step_kind *row = s->rows[r];
        if (row->reference && (only == ROW_STATE || row->class == only))
            row->reference(s, k);
    }
}

/* The lesson order (contacts only: xpbd__lesson_refused): v += g h; the
 * velocity pass (iterations times); x += v h; the position pass
 * (iterations times); positions unpacked, no velocity from them. */
static void reference_lesson_substep(step_run *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    const SFX(xpbd_kernels) *kt = SFX(xpbd_kernels_get)(XPBD_ISA_SCALAR);
    const SFX(xpbd_contact_kernels) *ck = SFX(xpbd_contact_kernels_get)(XPBD_ISA_SCALAR);
    xpbd__step_lambdas(s, COPY_ZERO);
    ck->gravity(s->p, 0, s->n, s->gx * s->hs, s->gy * s->hs, s->gz * s->hs);
    for (uint32_t it = 0; cfg->contact_velocity_pass && it < cfg->iterations; ++it)
        for (uint32_t r = 0; r < s->row_count; ++r)
            if (s->rows[r]->lesson_velocity)
                s->rows[r]->lesson_velocity(s);
    ck->integrate(s->p, 0, s->n, s->hs);
    kt->pack(s->p, s->sc.q, 0, s->n);
    s->lesson = 1; /* the planes' position pass reports no impulse */
    for (uint32_t it = 0; it < cfg->iterations; ++it) {
        reference_rows(s, ROW_CONTACT, k);
        k->iterations++;
    }
    kt->unpack(s->sc.q, s->p, 0, s->n);
}

/* An XPBD / PBD substep whose lambdas start at 0 in every iteration: the
 * step's own substep but for the reset, the passes the references'. */
static void reference_iteration_substep(step_run *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    xpbd__step_stage(s, STAGE_PREDICT, k);
    for (uint32_t it = 0; s->solve && it < cfg->iterations; ++it) {
        xpbd__step_lambdas(s, COPY_ZERO);
        reference_rows(s, ROW_STATE, k);
        k->iterations++;
    }
    xpbd__step_stage(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        xpbd__step_stage(s, STAGE_VELOCITY_PASS, k);
    if (cfg->relative_damping > 0)
        xpbd__step_stage(s, STAGE_RELATIVE_DAMPING, k);
}

#endif /* XPBD_SELF */
