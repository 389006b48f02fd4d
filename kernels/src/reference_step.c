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
#define reference_iteration_substep                                                           \
    PREC(reference_iteration_substep_f32, reference_iteration_substep_f64)
#define reference_distance PREC(reference_distance_f32, reference_distance_f64)
#define reference_soft_bodies PREC(reference_soft_bodies_f32, reference_soft_bodies_f64)
#define reference_contacts PREC(reference_contacts_f32, reference_contacts_f64)
#define reference_contact_velocity                                                            \
    PREC(reference_contact_velocity_f32, reference_contact_velocity_f64)
#define serial_tet_volume PREC(xpbd_serial_tet_volume_f32, xpbd_serial_tet_volume_f64)
#define serial_bending PREC(xpbd_serial_bending_f32, xpbd_serial_bending_f64)
#define serial_xpbd PREC(xpbd_serial_distance_xpbd_packed_f32, xpbd_serial_distance_xpbd_packed_f64)
#define serial_pbd PREC(xpbd_serial_distance_pbd_packed_f32, xpbd_serial_distance_pbd_packed_f64)
#define serial_contact_position                                                               \
    PREC(xpbd_serial_contact_position_f32, xpbd_serial_contact_position_f64)
#define serial_contact_velocity                                                               \
    PREC(xpbd_serial_contact_velocity_f32, xpbd_serial_contact_velocity_f64)

static void reference_lesson_substep(step_run *s, xpbd_step_counters *k);
static void reference_iteration_substep(step_run *s, xpbd_step_counters *k);

void xpbd__reference_substep(step_run *s, xpbd_step_counters *k)
{
    if (s->cfg->contact_order == XPBD_CONTACTS_LESSON)
        reference_lesson_substep(s, k);
    else
        reference_iteration_substep(s, k);
}

/* The slots a colour walk visits: each colour's real slots, in order. */
#define REFERENCE_COLOURS(set, s0, s1)                                                        \
    for (uint32_t col_ = 0, s0 = 0, s1 = 0; col_ <= (set)->colours; ++col_)                   \
        if ((col_ < (set)->colours                                                            \
                 ? (s0 = (set)->colour_begin[col_], s1 = s0 + (set)->colour_size[col_])       \
                 : (s0 = (set)->overflow_begin, s1 = (set)->slots)),                          \
            s1 > s0)

/* The contacts at position level: the set's slots, then every plane on
 * every particle (a plane moves only the particle it holds). impulse: the
 * planes' impulses, NULL in the lesson order (its position pass moves
 * particles without touching their velocity). */
static void reference_contacts(step_run *s, R *impulse)
{
    const step_contact_run *r = &s->cr;
    const SFX(xpbd_contact_kernels) *ck = SFX(xpbd_contact_kernels_get)(XPBD_ISA_SCALAR);
    if (r->cs)
        REFERENCE_COLOURS(r->cs, a, b)
            s->part[0].hits += serial_contact_position(s->sc.q, s->p, r->radius, r->cs, a, b,
                                                       r->beta, r->weighted, r->mu_s, r->mu_k);
    for (uint32_t k = 0; k < r->planes_n; ++k)
        s->part[0].hits += ck->plane_position(s->sc.q, s->p, r->radius, 0, s->n, r->planes[k],
                                              r->beta, r->mu_s, r->mu_k, impulse, s->hs);
}

/* The lesson's velocity pass: the plain impulse pass on the set's slots,
 * then every plane (restitution e beyond the slop). */
static void reference_contact_velocity(step_run *s)
{
    const step_contact_run *r = &s->cr;
    const SFX(xpbd_contact_kernels) *ck = SFX(xpbd_contact_kernels_get)(XPBD_ISA_SCALAR);
    if (r->cs)
        REFERENCE_COLOURS(r->cs, a, b)
            s->part[0].hits +=
                serial_contact_velocity(s->p, r->radius, r->cs, a, b, r->e, r->slop);
    for (uint32_t k = 0; k < r->planes_n; ++k)
        s->part[0].hits += ck->plane_velocity(s->p, r->radius, 0, s->n, r->planes[k], r->e,
                                              r->slop, s->impulse);
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
        reference_contact_velocity(s);
    ck->integrate(s->p, 0, s->n, s->hs);
    kt->pack(s->p, s->sc.q, 0, s->n);
    for (uint32_t it = 0; it < cfg->iterations; ++it) {
        reference_contacts(s, NULL);
        k->iterations++;
    }
    kt->unpack(s->sc.q, s->p, 0, s->n);
}

/* The distance set's pass, XPBD or PBD. */
static void reference_distance(step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->c;
    const int xpbd = s->cfg->solver == XPBD_SOLVER_XPBD;
    REFERENCE_COLOURS(c, a, b)
        s->part[0].skipped +=
            xpbd ? serial_xpbd(s->sc.q, c, a, b, s->hs) : serial_pbd(s->sc.q, c, a, b, s->ks);
    k->solves += c->count;
}

/* Tetrahedra, bending, then the tethers in particle order. */
static void reference_soft_bodies(step_run *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    const QS *t = w->tets, *bend = w->bends;
    if (t) {
        REFERENCE_COLOURS(t, a, b)
            s->part[0].skipped += serial_tet_volume(s->sc.q, t, a, b, s->hs);
        k->solves += t->count;
    }
    if (bend) {
        REFERENCE_COLOURS(bend, a, b)
            s->part[0].skipped += serial_bending(s->sc.q, bend, a, b, s->hs);
        k->solves += bend->count;
    }
    if (w->tether_anchor)
        (void)SFX(xpbd_softbody_kernels_get)(XPBD_ISA_SCALAR)
            ->tethers(s->sc.q, w->tether_anchor, w->tether_length, 0, s->n);
}

/* An XPBD / PBD substep whose lambdas start at 0 in every iteration: the
 * step's own substep but for the reset, the passes the references'. */
static void reference_iteration_substep(step_run *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    xpbd__step_stage(s, STAGE_PREDICT, k);
    for (uint32_t it = 0; s->solve && it < cfg->iterations; ++it) {
        xpbd__step_lambdas(s, COPY_ZERO);
        if (s->c)
            reference_distance(s, k);
        if (s->soft)
            reference_soft_bodies(s, k);
        if (s->contacts)
            reference_contacts(s, s->impulse);
        xpbd__step_stage(s, STAGE_COUPLING, k);
        k->iterations++;
    }
    xpbd__step_stage(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        xpbd__step_stage(s, STAGE_VELOCITY_PASS, k);
    if (cfg->relative_damping > 0)
        xpbd__step_stage(s, STAGE_RELATIVE_DAMPING, k);
}

#undef REFERENCE_COLOURS

#endif /* XPBD_SELF */
