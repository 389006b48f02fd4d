/* SPDX-License-Identifier: MIT */
/* kinds/quad_rows.h: the step-row parts the kinds over an xpbd_quad_set
 * (four particles a constraint, coloured) share: the checks (the quad set
 * validator over ranges), the test for a team, the colour task with the
 * lambda reset fused into the first pass, the iteration (the colours, then
 * the serial overflow) and the reference pass. Each takes the set the row
 * reads from the world and the kernels it calls (the path's colour kernel
 * of the softbody table, the serial reference); the kind's file keeps its
 * set, its kernels, its part and its builder.
 *
 * Read inside an open precision (precision.h), after step/step.h: a
 * template over R. */

#ifndef XPBD_QUAD_ROWS_NAMES
#define XPBD_QUAD_ROWS_NAMES
/* the name lines (precision.h): read once, they hold for both precisions */
#define quad_rows_lambda PREC(quad_rows_lambda_f32, quad_rows_lambda_f64)
#define quad_rows_check PREC(quad_rows_check_f32, quad_rows_check_f64)
#define quad_rows_pays PREC(quad_rows_pays_f32, quad_rows_pays_f64)
#define quad_rows_task PREC(quad_rows_task_f32, quad_rows_task_f64)
#define quad_rows_solve PREC(quad_rows_solve_f32, quad_rows_solve_f64)
#define quad_rows_reference PREC(quad_rows_reference_f32, quad_rows_reference_f64)
#endif

/* The set's multipliers and their slots. */
static inline R *quad_rows_lambda(const QS *q, uint32_t *slots)
{
    *slots = q->slots;
    return q->lambda;
}

/* The set's checks, refused with part. */
static inline xpbd_status quad_rows_check(step_run *s, const QS *q, uint32_t *stamp,
                                          xpbd_step_counters *k, xpbd_part part)
{
    return xpbd__refuse(k, xpbd__step_check_quad_set(s, q, stamp, &k->bad_index), part,
                        XPBD_FIELD_NONE);
}

/* 1 if the set's colours are big enough for a team. */
static inline int quad_rows_pays(const QS *q)
{
    const size_t colour = 2 * (size_t)XPBD__MIN_BATCHES * XPBD_BATCH;
    return q->slots >= colour * (q->colours + 1u);
}

/* Batches [b0, b1) of colour s->colour of the pass's set (s->set) through
 * the colour kernel, the lambdas reset first in the iteration's first
 * pass. */
static inline void quad_rows_task(step_run *s, uint32_t b0, uint32_t b1, uint32_t worker,
                                  uint32_t (*kernel)(R *, const QS *, uint32_t, uint32_t,
                                                     uint32_t, R))
{
    const QS *q = s->set;
    xpbd__step_zero_batches(s, q->lambda, q->colour_begin, b0, b1);
    s->part[worker].skipped += kernel(s->sc.q, q, s->colour, b0, b1, s->hs);
}

/* One iteration of set q: its colours (task), then the serial overflow. */
static inline void quad_rows_solve(step_run *s, xpbd_step_counters *k, const QS *q,
                                   xpbd_range_task *task,
                                   uint32_t (*serial)(R *, const QS *, uint32_t, uint32_t, R))
{
    xpbd__step_run_colours(s, q, task, q->colours, q->colour_begin);
    xpbd__step_zero_overflow(s, q->lambda, q->overflow_begin, q->slots);
    s->part[0].skipped += serial(s->sc.q, q, q->overflow_begin, q->slots, s->hs);
    k->solves += q->count;
}

/* The serial reference pass of set q, colour range by colour range. */
static inline void quad_rows_reference(step_run *s, xpbd_step_counters *k, const QS *q,
                                       uint32_t (*serial)(R *, const QS *, uint32_t, uint32_t,
                                                          R))
{
    XPBD__EACH_COLOUR_RANGE(q, a, b)
        s->part[0].skipped += serial(s->sc.q, q, a, b, s->hs);
    k->solves += q->count;
}
