/* SPDX-License-Identifier: MIT */
/* step/stages.c: the stages of a step (step.h: xpbd__stage), each a loop
 * over ranges of its items on the step's executor, and the one place that
 * runs a colour op over a set's colours. xpbd__step_stage, first, lists
 * them. */
#ifndef XPBD_SELF
#  define XPBD_SELF "step/stages.c"
#  include "each_precision.h"
#else
#include "step/step.h"

#define step_colour_task PREC(step_colour_task_f32, step_colour_task_f64)
#define step_stage_broad_phase PREC(step_stage_broad_phase_f32, step_stage_broad_phase_f64)
#define step_freeze_sleepers PREC(step_freeze_sleepers_f32, step_freeze_sleepers_f64)
#define step_save_velocities PREC(step_save_velocities_f32, step_save_velocities_f64)
#define step_predict_task PREC(step_predict_task_f32, step_predict_task_f64)
#define step_zero_overflow PREC(step_zero_overflow_f32, step_zero_overflow_f64)
#define step_stage_constraint_colours PREC(step_stage_constraint_colours_f32, step_stage_constraint_colours_f64)
#define step_stage_soft_bodies PREC(step_stage_soft_bodies_f32, step_stage_soft_bodies_f64)
#define step_planes_position_task PREC(step_planes_position_task_f32, step_planes_position_task_f64)
#define step_stage_contacts PREC(step_stage_contacts_f32, step_stage_contacts_f64)
#define step_couple_accumulate PREC(step_couple_accumulate_f32, step_couple_accumulate_f64)
#define step_stage_coupling PREC(step_stage_coupling_f32, step_stage_coupling_f64)
#define step_velocity_update_task PREC(step_velocity_update_task_f32, step_velocity_update_task_f64)
#define step_velocity_predict_task PREC(step_velocity_predict_task_f32, step_velocity_predict_task_f64)
#define step_planes_velocity_task PREC(step_planes_velocity_task_f32, step_planes_velocity_task_f64)
#define step_stage_velocity_pass PREC(step_stage_velocity_pass_f32, step_stage_velocity_pass_f64)
#define step_damping_task PREC(step_damping_task_f32, step_damping_task_f64)

/* The stages, in the order of xpbd__stage (defined below). */
static xpbd_status step_stage_broad_phase(step_run *s, xpbd_step_counters *k);
static void step_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_stage_constraint_colours(step_run *s, xpbd_step_counters *k);
static void step_stage_soft_bodies(step_run *s, xpbd_step_counters *k);
static void step_stage_contacts(step_run *s);
static void step_stage_coupling(step_run *s);
static void step_velocity_update_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_velocity_predict_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);
static void step_stage_velocity_pass(step_run *s);
static void step_damping_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx);

/* Runs one stage (the serial parts on the caller, the rest on ranges); the
 * broad phase and the finalize stage leave their status in s->status. */
void xpbd__step_stage(step_run *s, xpbd__stage stage, xpbd_step_counters *k)
{
    switch (stage) {
    case STAGE_RESET_LAMBDA: xpbd__step_lambdas(s, COPY_ZERO); break;
    case STAGE_PREDICT: step_run_particles(s, step_predict_task); break;
    case STAGE_CONSTRAINT_COLOURS: step_stage_constraint_colours(s, k); break;
    case STAGE_SOFT_BODIES: step_stage_soft_bodies(s, k); break;
    case STAGE_CONTACTS: step_stage_contacts(s); break;
    case STAGE_COUPLING: step_stage_coupling(s); break;
    case STAGE_VELOCITY_UPDATE: step_run_particles(s, step_velocity_update_task); break;
    case STAGE_VELOCITY_PREDICT: step_run_particles(s, step_velocity_predict_task); break;
    case STAGE_VELOCITY_PASS: step_stage_velocity_pass(s); break;
    case STAGE_RELATIVE_DAMPING:
        xpbd__run(&s->ex, step_damping_task, s->w->body_count, XPBD__MIN_BODIES, s);
        break;
    case STAGE_BROAD_PHASE: s->status = step_stage_broad_phase(s, k); break;
    case STAGE_SNAPSHOT: xpbd__step_snapshot(s, COPY_SAVE); break;
    case STAGE_FINALIZE: s->status = xpbd__step_finalize(s, s->status, k); break;
    }
}

/* ---- a colour op over a set ----------------------------------------------- */

/* One pass (s->op) over batches [b0, b1) of colour s->colour. */
static void step_colour_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    const uint32_t col = s->colour;
    const size_t n = s->n;
    const R *v0 = s->sc.v0;
    step_partial *pt = &s->part[worker];
    if (s->zero_lambda && s->op == OP_DISTANCE_XPBD) {
        /* the reset of the lambdas, in the first pass over them; lambdas
         * that the next pass resets again are not written at all */
        pt->skipped +=
            s->lambda_dead
                ? s->kt->distance_xpbd_packed_once(s->sc.q, s->dset, col, b0, b1, s->hs)
                : s->kt->distance_xpbd_packed_first(s->sc.q, s->dset, col, b0, b1, s->hs);
        return;
    }
    if (s->zero_lambda && s->op <= OP_BENDING && s->op != OP_SPRING_FORCES) {
        /* the other sets' reset of the lambdas, fused into the first pass
         * over them (XPBD distance returned above) */
        const int dist = s->op == OP_DISTANCE_PBD;
        R *l = dist ? s->dset->lambda : s->qset->lambda;
        const uint32_t first = (dist ? s->dset->colour_begin : s->qset->colour_begin)[col];
        memset(l + first + (size_t)b0 * XPBD_BATCH, 0, (size_t)(b1 - b0) * XPBD_BATCH * sizeof(R));
    }
    switch (s->op) {
    case OP_DISTANCE_XPBD:
        pt->skipped += s->kt->distance_xpbd_packed(s->sc.q, s->dset, col, b0, b1, s->hs);
        break;
    case OP_DISTANCE_PBD:
        pt->skipped += s->kt->distance_pbd_packed(s->sc.q, s->dset, col, b0, b1, s->ks);
        break;
    case OP_SPRING_FORCES:
        pt->skipped += s->kt->spring_forces(s->p, s->dset, s->sc.fx, s->sc.fy, s->sc.fz, col, b0,
                                            b1, s->sd);
        break;
    case OP_TET_VOLUME:
        pt->skipped += s->skt->tet_volume(s->sc.q, s->qset, col, b0, b1, s->hs);
        break;
    case OP_BENDING:
        pt->skipped += s->skt->bending(s->sc.q, s->qset, col, b0, b1, s->hs);
        break;
    case OP_CONTACT_POSITION:
        pt->hits += s->ckt->position(s->sc.q, s->p, r->radius, r->cs, col, b0, b1, r->beta,
                                     r->weighted, r->mu_s, r->mu_k);
        break;
    case OP_CONTACT_RESTITUTION:
        pt->hits += s->ckt->restitution(s->p, r->radius, r->cs, v0, v0 + n, v0 + 2 * n, col, b0,
                                        b1, r->e, r->slop, s->rest_speed);
        break;
    case OP_RESIDUAL: {
        const R m = s->kt->residual(s->p, s->dset, col, b0, b1, s->hs, NULL);
        if (m > pt->max)
            pt->max = m;
        break;
    }
    }
}

/* Runs op over every colour of a set, one colour after another. A colour's
 * last batch may hold padding that reads the colour's first particle; it
 * runs on the caller after the join, so no worker reads a particle another
 * one writes. */
void xpbd__step_run_colours(step_run *s, xpbd__colour_op op, uint32_t colours,
                             const uint32_t *colour_begin)
{
    s->op = op;
    for (uint32_t col = 0; col < colours; ++col) {
        const uint32_t nb = xpbd_colour_batches(colour_begin, col);
        s->colour = col;
        if (nb < 2 * XPBD__MIN_BATCHES || s->ex.workers < 2) {
            step_colour_task(0, nb, 0, s);
        } else {
            xpbd__run(&s->ex, step_colour_task, nb - 1, XPBD__MIN_BATCHES, s);
            step_colour_task(nb - 1, nb, 0, s);
        }
    }
}


/* Contact pairs from the positions at step start (world space). Sleeping
 * bodies' particles are still: no pairs among them. */
static xpbd_status step_stage_broad_phase(step_run *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    uint8_t *still = NULL;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        if (w->body_asleep[b]) {
            if (!still) {
                still = s->sc.still;
                memset(still, 0, s->n);
            }
            memset(still + w->body_begin[b], 1, w->body_begin[b + 1] - w->body_begin[b]);
        }
    const xpbd_broadphase bp = {0, s->cfg->contact_skin, 0, still};
    const xpbd_status st = SFX(xpbd__contacts_find_run)(s->p, w->radius, &bp, s->sc.bp_work,
                                                  s->sc.bp_bytes, w->contacts, &k->bad_index,
                                                  &s->ex);
    if (st >= 0)
        k->contacts_dropped = w->contacts->dropped;
    /* a particle or radius the broad phase refuses was validated already:
     * what it can refuse here is the found set itself (its capacity) */
    return xpbd__refuse(k, st,
                        st == XPBD_ERR_POSITION ? XPBD_PART_PARTICLES
                        : st == XPBD_ERR_RADIUS ? XPBD_PART_RADIUS
                                                : XPBD_PART_CONTACT_FOUND,
                        XPBD_FIELD_NONE);
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

/* The fused lambda reset of a set's serial overflow [begin, end). */
static void step_zero_overflow(const step_run *s, R *lambda, uint32_t begin, uint32_t end)
{
    if (s->zero_lambda && end > begin)
        memset(lambda + begin, 0, (size_t)(end - begin) * sizeof(R));
}

/* The distance set's colours, then its serial overflow; the springs'
 * forces (zeroed at the first substep) the same way. */
static void step_stage_constraint_colours(step_run *s, xpbd_step_counters *k)
{
    const DS *c = s->c;
    /* the forces start at 0 (spring_integrate leaves them 0 for the next
     * substep, unless the contact pass packed positions over them) */
    if (s->springs && s->n && (s->sub == 0 || s->contacts))
        memset(s->sc.fx, 0, 3 * s->n * sizeof(R));
    if (!c)
        return;
    s->dset = c;
    step_partial *pt = &s->part[0];
    if (s->springs) {
        xpbd__step_run_colours(s, OP_SPRING_FORCES, c->colours, c->colour_begin);
        pt->skipped += SFX(xpbd_serial_spring_forces)(s->p, c, s->sc.fx, s->sc.fy, s->sc.fz,
                                                      c->overflow_begin, c->slots, s->sd);
    } else if (s->cfg->solver == XPBD_SOLVER_XPBD) {
        xpbd__step_run_colours(s, OP_DISTANCE_XPBD, c->colours, c->colour_begin);
        step_zero_overflow(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_xpbd_packed)(s->sc.q, c, c->overflow_begin,
                                                               c->slots, s->hs);
    } else {
        xpbd__step_run_colours(s, OP_DISTANCE_PBD, c->colours, c->colour_begin);
        step_zero_overflow(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_pbd_packed)(s->sc.q, c, c->overflow_begin,
                                                              c->slots, s->ks);
    }
    k->solves += c->count;
}

/* Tetrahedra, bending (colours, then the serial overflow), tethers (in
 * particle order on the caller: a tether reads its anchor). */
static void step_stage_soft_bodies(step_run *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    step_partial *pt = &s->part[0];
    const QS *t = w->tets, *b = w->bends;
    if (t) {
        s->qset = t;
        xpbd__step_run_colours(s, OP_TET_VOLUME, t->colours, t->colour_begin);
        step_zero_overflow(s, t->lambda, t->overflow_begin, t->slots);
        pt->skipped += SFX(xpbd_serial_tet_volume)(s->sc.q, t, t->overflow_begin, t->slots, s->hs);
        k->solves += t->count;
    }
    if (b) {
        s->qset = b;
        xpbd__step_run_colours(s, OP_BENDING, b->colours, b->colour_begin);
        step_zero_overflow(s, b->lambda, b->overflow_begin, b->slots);
        pt->skipped += SFX(xpbd_serial_bending)(s->sc.q, b, b->overflow_begin, b->slots, s->hs);
        k->solves += b->count;
    }
    if (w->tether_anchor)
        (void)s->skt->tethers(s->sc.q, w->tether_anchor, w->tether_length, 0, s->n);
}

/* Every plane on particles [i0, i1) at position level (a plane moves only
 * the particle it holds). */
static void step_planes_position_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    for (uint32_t k = 0; k < r->planes_n; ++k)
        s->part[worker].hits += s->ckt->plane_position(s->sc.q, s->p, r->radius, i0, i1,
                                                       r->planes[k], r->beta, r->mu_s, r->mu_k,
                                                       s->impulse, s->hs);
}

static void step_stage_contacts(step_run *s)
{
    const step_contact_run *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    if (cs) {
        xpbd__step_run_colours(s, OP_CONTACT_POSITION, cs->colours, cs->colour_begin);
        s->part[0].hits += SFX(xpbd_serial_contact_position)(
            s->sc.q, s->p, r->radius, cs, cs->overflow_begin, cs->slots, r->beta, r->weighted,
            r->mu_s, r->mu_k);
    }
    if (r->planes_n)
        step_run_particles(s, step_planes_position_task);
}

/* Couples the particles with rigid body b on q for one iteration and adds
 * the impulse to the world's rigid_impulse[b]. Returns the contacts. */
static uint32_t step_couple_accumulate(const step_run *s, uint32_t b)
{
    const SFX(xpbd_world) *w = s->w;
    xpbd_rigid_impulse j;
    if (SFX(xpbd_couple_rigid)(s->sc.q, s->p, w->radius, 0, s->n, &w->rigids[b], (double)s->hs,
                               &j) != XPBD_OK)
        return 0; /* validated at step start: cannot happen */
    xpbd_rigid_impulse *acc = &w->rigid_impulse[b];
    for (int a = 0; a < 3; ++a) {
        acc->linear[a] += j.linear[a];
        acc->angular[a] += j.angular[a];
    }
    acc->contacts += j.contacts;
    return j.contacts;
}

/* The coupling sums each body's impulse over the particles in order: it
 * runs on the caller, so the sums do not depend on the worker count. */
static void step_stage_coupling(step_run *s)
{
    for (uint32_t b = 0; b < s->w->rigid_count; ++b)
        s->part[0].hits += step_couple_accumulate(s, b);
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
    s->kt->relaunch_packed(s->sc.q, s->p, i0, i1, s->hs, s->keep, s->gx, s->gy, s->gz);
    step_freeze_sleepers(s, i0, i1);
}

/* Every plane's velocity pass on particles [i0, i1). */
static void step_planes_velocity_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    const R *v0 = s->sc.v0;
    const size_t n = s->n;
    size_t i0, i1;
    step_block_particles(s, b, e, &i0, &i1);
    uint64_t hits = 0;
    for (uint32_t k = 0; k < r->planes_n; ++k)
        hits += s->ckt->plane_restitution(s->p, r->radius, v0, v0 + n, v0 + 2 * n, i0, i1,
                                          r->planes[k], r->e, r->slop, s->rest_speed,
                                          s->impulse);
    s->part[worker].hits += hits;
}

/* The velocity pass: restitution against the pre-solve velocities v0. */
static void step_stage_velocity_pass(step_run *s)
{
    const step_contact_run *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    const R *v0 = s->sc.v0;
    const size_t n = s->n;
    if (cs) {
        xpbd__step_run_colours(s, OP_CONTACT_RESTITUTION, cs->colours, cs->colour_begin);
        s->part[0].hits += SFX(xpbd_serial_contact_restitution)(
            s->p, r->radius, cs, v0, v0 + n, v0 + 2 * n, cs->overflow_begin, cs->slots, r->e,
            r->slop, s->rest_speed);
    }
    if (r->planes_n)
        step_run_particles(s, step_planes_velocity_task);
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
