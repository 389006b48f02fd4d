/* SPDX-License-Identifier: MIT */
/* kinds/contact.c: the particle contacts' two rows of the set-kind table
 * (step/step.h: step_kind), one per way a world holds its xpbd_contact_set:
 * fixed (the host's pairs, validated like any set) or found (filled by the
 * step's broad phase from the step-start positions). Their maths is
 * kernels/contact.h, the broad phase contacts.c. Both solve at
 * position level (friction), then in the velocity pass (restitution); the
 * lesson order has its own plain impulse pass (reference_step.c). The
 * found row's side in the engine (engine/common.h: engine_kind) keeps the
 * pairs' capacity and set; its pairs wake a sleeping body they touch. */
#ifndef XPBD_SELF
#  define XPBD_SELF "kinds/contact.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "engine/common.h"

#define xpbd__kind_contact_fixed PREC(xpbd__kind_contact_fixed_f32, xpbd__kind_contact_fixed_f64)
#define xpbd__kind_contact_found PREC(xpbd__kind_contact_found_f32, xpbd__kind_contact_found_f64)
#define xpbd__engine_kind_contact_found PREC(xpbd__engine_kind_contact_found_f32, xpbd__engine_kind_contact_found_f64)
#define contact_scene_check PREC(contact_scene_check_f32, contact_scene_check_f64)
#define contact_capacity PREC(contact_capacity_f32, contact_capacity_f64)
#define contact_copy PREC(contact_copy_f32, contact_copy_f64)
#define contact_point PREC(contact_point_f32, contact_point_f64)
#define contact_scene PREC(contact_scene_f32, contact_scene_f64)
#define contact_engine_pairs PREC(contact_engine_pairs_f32, contact_engine_pairs_f64)
#define contact_renumbered PREC(contact_renumbered_f32, contact_renumbered_f64)
#define contact_touch PREC(contact_touch_f32, contact_touch_f64)
#define contact_fixed_present PREC(contact_fixed_present_f32, contact_fixed_present_f64)
#define contact_found_present PREC(contact_found_present_f32, contact_found_present_f64)
#define contact_arguments PREC(contact_arguments_f32, contact_arguments_f64)
#define contact_fixed_check PREC(contact_fixed_check_f32, contact_fixed_check_f64)
#define contact_found_check PREC(contact_found_check_f32, contact_found_check_f64)
#define contact_found_pairs PREC(contact_found_pairs_f32, contact_found_pairs_f64)
#define contact_pays PREC(contact_pays_f32, contact_pays_f64)
#define contact_setup PREC(contact_setup_f32, contact_setup_f64)
#define contact_fixed_prepare PREC(contact_fixed_prepare_f32, contact_fixed_prepare_f64)
#define contact_broad_phase PREC(contact_broad_phase_f32, contact_broad_phase_f64)
#define contact_position_task PREC(contact_position_task_f32, contact_position_task_f64)
#define contact_restitution_task PREC(contact_restitution_task_f32, contact_restitution_task_f64)
#define contact_solve PREC(contact_solve_f32, contact_solve_f64)
#define contact_velocity_pass PREC(contact_velocity_pass_f32, contact_velocity_pass_f64)
#define contact_reference PREC(contact_reference_f32, contact_reference_f64)
#define contact_lesson_velocity PREC(contact_lesson_velocity_f32, contact_lesson_velocity_f64)

static int contact_fixed_present(const SFX(xpbd_world) *w)
{
    return w->contacts && w->contacts_fixed;
}

static int contact_found_present(const SFX(xpbd_world) *w)
{
    return w->contacts && !w->contacts_fixed;
}

/* ---- checks ---------------------------------------------------------------- */

static xpbd_status contact_arguments(const xpbd_contact_set *cs)
{
    return !cs->i0 || !cs->i1 || cs->slots > cs->capacity || cs->colours > XPBD_MAX_COLOURS
               ? XPBD_ERR_ARGUMENT
               : XPBD_OK;
}

static xpbd_status contact_fixed_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    const xpbd_contact_set *cs = s->w->contacts;
    xpbd_status st = contact_arguments(cs);
    if (st == XPBD_OK)
        st = xpbd_contact_set_validate(cs, s->n, stamp, &k->bad_index);
    return xpbd__refuse(k, st, XPBD_PART_CONTACT_FIXED, XPBD_FIELD_NONE);
}

/* A found set's pairs are the broad phase's: only its arrays are checked. */
static xpbd_status contact_found_check(step_run *s, uint32_t *stamp, xpbd_step_counters *k)
{
    (void)stamp;
    return xpbd__refuse(k, contact_arguments(s->w->contacts), XPBD_PART_CONTACT_FOUND,
                        XPBD_FIELD_NONE);
}

/* A found set of capacity 0 can keep nothing: no broad phase (nor its
 * workspace, which xpbd_world_scratch_bytes leaves out for 0). */
static size_t contact_found_pairs(const SFX(xpbd_world) *w)
{
    return w->radius ? w->contacts->max_contacts : 0;
}

static int contact_pays(const SFX(xpbd_world) *w)
{
    return w->contacts->capacity >= 2 * (size_t)XPBD__MIN_BATCHES * XPBD_BATCH;
}

static void contact_setup(step_run *s)
{
    s->cr.cs = s->w->contacts;
}

/* ---- before the snapshot ----------------------------------------------------- */

static xpbd_status contact_fixed_prepare(step_run *s, xpbd_step_counters *k)
{
    k->contacts = s->w->contacts->count;
    return XPBD_OK;
}

/* Contact pairs from the positions at step start (world space). Sleeping
 * bodies' particles are still: no pairs among them. */
static xpbd_status contact_broad_phase(step_run *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    if (!s->find) {
        k->contacts = w->contacts->count;
        return XPBD_OK;
    }
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
    const xpbd_status st =
        SFX(xpbd__contacts_find_run)(s->p, w->radius, &bp, s->sc.bp_work, s->sc.bp_bytes,
                                     w->contacts, &k->bad_index, &s->ex);
    if (st >= 0) {
        k->contacts_dropped = w->contacts->dropped;
        k->contacts = w->contacts->count;
    }
    /* a particle or radius the broad phase refuses was validated already:
     * what it can refuse here is the found set itself (its capacity) */
    return xpbd__refuse(k, st,
                        st == XPBD_ERR_POSITION ? XPBD_PART_PARTICLES
                        : st == XPBD_ERR_RADIUS ? XPBD_PART_RADIUS
                                                : XPBD_PART_CONTACT_FOUND,
                        XPBD_FIELD_NONE);
}

/* ---- the passes over a colour's batches [b0, b1) ------------------------- */

static void contact_position_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    s->part[worker].hits += s->ckt->position(s->sc.q, s->p, r->radius, r->cs, s->colour, b0, b1,
                                             r->beta, r->weighted, r->mu_s, r->mu_k);
}

static void contact_restitution_task(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const step_contact_run *r = &s->cr;
    const R *v0 = s->sc.v0;
    s->part[worker].hits +=
        s->ckt->restitution(s->p, r->radius, r->cs, v0, v0 + s->n, v0 + 2 * s->n, s->colour, b0,
                            b1, r->e, r->slop, s->rest_speed);
}

/* ---- the row's stages ------------------------------------------------------- */

static void contact_solve(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    const step_contact_run *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    xpbd__step_run_colours(s, cs, contact_position_task, cs->colours, cs->colour_begin);
    s->part[0].hits += SFX(xpbd_serial_contact_position)(s->sc.q, s->p, r->radius, cs,
                                                         cs->overflow_begin, cs->slots, r->beta,
                                                         r->weighted, r->mu_s, r->mu_k);
}

/* Restitution against the pre-solve velocities v0. */
static void contact_velocity_pass(step_run *s)
{
    const step_contact_run *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    const R *v0 = s->sc.v0;
    xpbd__step_run_colours(s, cs, contact_restitution_task, cs->colours, cs->colour_begin);
    s->part[0].hits += SFX(xpbd_serial_contact_restitution)(
        s->p, r->radius, cs, v0, v0 + s->n, v0 + 2 * s->n, cs->overflow_begin, cs->slots, r->e,
        r->slop, s->rest_speed);
}

static void contact_reference(step_run *s, xpbd_step_counters *k)
{
    (void)k;
    const step_contact_run *r = &s->cr;
    XPBD__EACH_COLOUR_RANGE(r->cs, a, b)
        s->part[0].hits += SFX(xpbd_serial_contact_position)(
            s->sc.q, s->p, r->radius, r->cs, a, b, r->beta, r->weighted, r->mu_s, r->mu_k);
}

/* The lesson's velocity pass: plain impulses, restitution e beyond the
 * slop. */
static void contact_lesson_velocity(step_run *s)
{
    const step_contact_run *r = &s->cr;
    XPBD__EACH_COLOUR_RANGE(r->cs, a, b)
        s->part[0].hits +=
            SFX(xpbd_serial_contact_velocity)(s->p, r->radius, r->cs, a, b, r->e, r->slop);
}

const step_kind xpbd__kind_contact_fixed = {
    .name = "fixed contact",
    .part = XPBD_PART_CONTACT_FIXED,
    .class = ROW_CONTACT,
    .needs_radius = 1,
    .present = contact_fixed_present,
    .check = contact_fixed_check,
    .pays = contact_pays,
    .setup = contact_setup,
    .prepare = contact_fixed_prepare,
    .solve = contact_solve,
    .velocity = contact_velocity_pass,
    .reference = contact_reference,
    .lesson_velocity = contact_lesson_velocity,
};

const step_kind xpbd__kind_contact_found = {
    .name = "found contact",
    .part = XPBD_PART_CONTACT_FOUND,
    .class = ROW_CONTACT,
    .needs_radius = 1,
    .present = contact_found_present,
    .check = contact_found_check,
    .found_pairs = contact_found_pairs,
    .pays = contact_pays,
    .setup = contact_setup,
    .prepare = contact_broad_phase,
    .solve = contact_solve,
    .velocity = contact_velocity_pass,
    .reference = contact_reference,
    .lesson_velocity = contact_lesson_velocity,
};

/* ---- the found row on the engine's side (engine/common.h) ---------------- */

/* A pair capacity with radii at most INT32_MAX / 2. */
static xpbd_status contact_scene_check(const SFX(xpbd_scene) *sc, xpbd__engine_check phase,
                                       xpbd_where *where)
{
    if (phase == XPBD__CHECK_ARGUMENTS && sc->radius && sc->max_contacts > (size_t)INT32_MAX / 2)
        return xpbd__engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_CONTACT_FOUND, SIZE_MAX,
                                   XPBD_FIELD_MAX_CONTACTS);
    return XPBD_OK;
}

/* The capacity the engine keeps: what the scene asks for, but never more
 * than the ordered pairs its particles can form (the particles it starts
 * with, or its capacity, or, tearing without a capacity, any count up to
 * INT32_MAX), so a capacity no run can use is never allocated. */
static size_t contact_capacity(size_t asked, size_t n, const xpbd_engine_options *opt)
{
    uint64_t most = n;
    if (opt->tear_stretch > 0)
        most = opt->max_particles ? opt->max_particles : (uint64_t)INT32_MAX;
    const uint64_t pairs = most * (most ? most - 1 : 0);
    return (uint64_t)asked < pairs ? asked : (size_t)pairs;
}

/* With radii: the capacity (s->count) and its pairs' arrays (s->idx). */
static xpbd_status contact_copy(const SFX(xpbd_engine) *e, engine_slot *s,
                                const SFX(xpbd_scene) *sc)
{
    s->count = sc->radius ? contact_capacity(sc->max_contacts, sc->particles, &e->options) : 0;
    if (!s->count)
        return XPBD_OK;
    const size_t slots = xpbd_contact_slots(s->count);
    s->idx = malloc(2 * slots * sizeof *s->idx + 1);
    if (!s->idx)
        return XPBD_ERR_NOMEM;
    return xpbd_contact_set_init(&s->set.found, s->idx, s->idx + slots, slots, s->count);
}

static void contact_point(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w)
{
    w->contacts = e->radius && s->count ? &s->set.found : NULL;
}

static void contact_scene(const engine_slot *s, SFX(xpbd_scene) *out)
{
    out->max_contacts = s->count;
}

static size_t contact_engine_pairs(const SFX(xpbd_engine) *e, const engine_slot *s)
{
    return e->radius && s->count ? s->count : 0;
}

/* Its pairs name the old particle indices: emptied. */
static void contact_renumbered(engine_slot *s)
{
    if (s->count)
        (void)xpbd_contact_set_init(&s->set.found, s->idx, s->idx + s->set.found.capacity,
                                    s->set.found.capacity, s->count);
}

static const xpbd_contact_set *contact_touch(const SFX(xpbd_world) *w)
{
    return w->radius ? w->contacts : NULL;
}

const engine_kind xpbd__engine_kind_contact_found = {
    .name = "found contact",
    .part = XPBD_PART_CONTACT_FOUND,
    .check = contact_scene_check,
    .copy = contact_copy,
    .point = contact_point,
    .scene = contact_scene,
    .pairs = contact_engine_pairs,
    .renumbered = contact_renumbered,
    .touch = contact_touch,
};

#endif /* XPBD_SELF */
