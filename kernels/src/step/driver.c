/* SPDX-License-Identifier: MIT */
/* step/driver.c: the step (xpbd/step.h) from its entry points down: the
 * entry points, the team that runs a threaded step, a step's outline
 * (validate, broad phase, snapshot, substeps, finalize) and the substep
 * schemes. The stages are in stages.c, the checks in validate.c, the
 * snapshot and the end of a step in snapshot.c (see step.h). */
#ifndef XPBD_SELF
#  define XPBD_SELF "step/driver.c"
#include "step/step.h"

/* The step of each precision, instantiated from this file below. */
static xpbd_status step_world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                       void *scratch, size_t scratch_bytes,
                                       xpbd_step_counters *counters, const xpbd__step_how *how);
static xpbd_status step_world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                       void *scratch, size_t scratch_bytes,
                                       xpbd_step_counters *counters, const xpbd__step_how *how);
size_t xpbd__step_scratch_bytes_f32(size_t n, size_t slots, size_t max_contacts, int find);
size_t xpbd__step_scratch_bytes_f64(size_t n, size_t slots, size_t max_contacts, int find);

/* ---- the entry points ---------------------------------------------------- */

xpbd_status xpbd_step_f32(const xpbd_step_config *cfg, double h, xpbd_particles_f32 *p,
                          xpbd_distance_set_f32 *c, void *scratch, size_t scratch_bytes,
                          xpbd_step_counters *counters)
{
    xpbd_world_f32 w;
    memset(&w, 0, sizeof w);
    w.particles = p;
    w.constraints = c; /* kinds: public entry */
    return step_world_step_f32(cfg, h, &w, scratch, scratch_bytes, counters, NULL);
}

xpbd_status xpbd_step_f64(const xpbd_step_config *cfg, double h, xpbd_particles_f64 *p,
                          xpbd_distance_set_f64 *c, void *scratch, size_t scratch_bytes,
                          xpbd_step_counters *counters)
{
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = p;
    w.constraints = c; /* kinds: public entry */
    return step_world_step_f64(cfg, h, &w, scratch, scratch_bytes, counters, NULL);
}

xpbd_status xpbd_world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                void *scratch, size_t scratch_bytes, xpbd_step_counters *counters)
{
    return step_world_step_f32(cfg, h, w, scratch, scratch_bytes, counters, NULL);
}

xpbd_status xpbd_world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                void *scratch, size_t scratch_bytes, xpbd_step_counters *counters)
{
    return step_world_step_f64(cfg, h, w, scratch, scratch_bytes, counters, NULL);
}

/* The internal entry: the engine's steps of the sets it owns, the bench's
 * per-stage clock (internal.h: xpbd__step_how). */
xpbd_status xpbd__world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                 void *scratch, size_t scratch_bytes,
                                 xpbd_step_counters *counters, const xpbd__step_how *how)
{
    return step_world_step_f32(cfg, h, w, scratch, scratch_bytes, counters, how);
}

xpbd_status xpbd__world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                 void *scratch, size_t scratch_bytes,
                                 xpbd_step_counters *counters, const xpbd__step_how *how)
{
    return step_world_step_f64(cfg, h, w, scratch, scratch_bytes, counters, how);
}

const char *xpbd__stage_name(unsigned i)
{
    /* slot 0, then xpbd__stage's order (step/step.h) */
    static const char *const names[XPBD__STAGE_TIMES] = {
        "validate",        "prepare",          "snapshot",      "reset_lambda",
        "predict",         "solve",            "spring_forces", "contacts",
        "velocity_update", "velocity_predict", "velocity_pass", "relative_damping",
        "finalize"};
    _Static_assert(STAGE_FINALIZE + 2 == XPBD__STAGE_TIMES, "one clock slot per stage");
    return i < XPBD__STAGE_TIMES ? names[i] : NULL;
}

size_t xpbd_world_scratch_bytes_f32(size_t n, size_t slots, size_t max_contacts)
{
    return xpbd__step_scratch_bytes_f32(n, slots, max_contacts, max_contacts > 0);
}

size_t xpbd_world_scratch_bytes_f64(size_t n, size_t slots, size_t max_contacts)
{
    return xpbd__step_scratch_bytes_f64(n, slots, max_contacts, max_contacts > 0);
}

size_t xpbd_step_scratch_bytes_f32(size_t n, size_t slots)
{
    return xpbd__step_scratch_bytes_f32(n, slots, 0, 0);
}

size_t xpbd_step_scratch_bytes_f64(size_t n, size_t slots)
{
    return xpbd__step_scratch_bytes_f64(n, slots, 0, 0);
}

/* ---- the configuration: defaults and rules -------------------------------- */

xpbd_step_config xpbd_step_config_default(void)
{
    xpbd_step_config c;
    memset(&c, 0, sizeof c);
    c.version = XPBD_PROTOCOL_VERSION;
    c.substeps = 1;
    c.iterations = 10;
    c.gravity[0] = 0;
    c.gravity[1] = -9.81;
    c.gravity[2] = 0;
    c.damping = 0;
    c.pbd_stiffness = 1;
    c.spring_damping = 0;
    c.solver = XPBD_SOLVER_XPBD;
    c.lambda_reset = XPBD_LAMBDA_PER_SUBSTEP;
    c.isa = XPBD_ISA_AUTO;
    c.measure_residual = 1;
    c.contact_beta = 1;
    c.restitution = 0;
    c.contact_slop = 0.005;
    c.friction_static = 0;
    c.friction_dynamic = 0;
    c.contact_skin = 0.05;
    c.contact_weighted = 1;
    c.contact_velocity_pass = 1;
    c.contact_order = XPBD_CONTACTS_SUBSTEP;
    c.relative_damping = 0;
    c.threads = 1;
    c.executor = NULL;
    return c;
}

xpbd_status xpbd__executor_check(const xpbd_executor *ex, xpbd_field *field)
{
    *field = XPBD_FIELD_NONE;
    if (ex && !ex->enqueue)
        *field = XPBD_FIELD_EXECUTOR_ENQUEUE;
    else if (ex && !ex->finish)
        *field = XPBD_FIELD_EXECUTOR_FINISH;
    else if (ex && ex->worker_count == 0)
        *field = XPBD_FIELD_EXECUTOR_WORKER_COUNT;
    return *field == XPBD_FIELD_NONE ? XPBD_OK : XPBD_ERR_CONFIG;
}

xpbd_status xpbd__config_check(const xpbd_step_config *cfg, xpbd_field *field)
{
    /* the first field each rule refuses, with the status it gives */
    struct rule {
        int bad;
        xpbd_status status;
        xpbd_field field;
    };
    const struct rule rules[] = {
        {cfg->version != XPBD_PROTOCOL_VERSION, XPBD_ERR_VERSION, XPBD_FIELD_VERSION},
        {cfg->substeps == 0, XPBD_ERR_CONFIG, XPBD_FIELD_SUBSTEPS},
        {cfg->iterations == 0, XPBD_ERR_CONFIG, XPBD_FIELD_ITERATIONS},
        {!isfinite(cfg->gravity[0]) || !isfinite(cfg->gravity[1]) || !isfinite(cfg->gravity[2]),
         XPBD_ERR_CONFIG, XPBD_FIELD_GRAVITY},
        {!xpbd__finite_nonneg(cfg->damping) || cfg->damping >= 1, XPBD_ERR_CONFIG, XPBD_FIELD_DAMPING},
        {!isfinite(cfg->pbd_stiffness) || !(cfg->pbd_stiffness > 0) || cfg->pbd_stiffness > 1,
         XPBD_ERR_CONFIG, XPBD_FIELD_PBD_STIFFNESS},
        {!xpbd__finite_nonneg(cfg->spring_damping), XPBD_ERR_CONFIG, XPBD_FIELD_SPRING_DAMPING},
        {cfg->solver != XPBD_SOLVER_XPBD && cfg->solver != XPBD_SOLVER_PBD &&
             cfg->solver != XPBD_SOLVER_SPRINGS,
         XPBD_ERR_CONFIG, XPBD_FIELD_SOLVER},
        {cfg->lambda_reset != XPBD_LAMBDA_PER_SUBSTEP &&
             cfg->lambda_reset != XPBD_LAMBDA_PER_ITERATION,
         XPBD_ERR_CONFIG, XPBD_FIELD_LAMBDA_RESET},
        {cfg->measure_residual != 0 && cfg->measure_residual != 1, XPBD_ERR_CONFIG,
         XPBD_FIELD_MEASURE_RESIDUAL},
        {cfg->contact_order != XPBD_CONTACTS_SUBSTEP && cfg->contact_order != XPBD_CONTACTS_LESSON,
         XPBD_ERR_CONFIG, XPBD_FIELD_CONTACT_ORDER},
    };
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; ++r)
        if (rules[r].bad) {
            *field = rules[r].field;
            return rules[r].status;
        }
    /* the host's executor, or the default one a threaded step would use
     * (worker_count 0 there: XPBD_NUM_THREADS is malformed) */
    const xpbd_executor *ex = cfg->executor;
    if (!ex && cfg->threads != 1)
        ex = xpbd_executor_default();
    if (xpbd__executor_check(ex, field) != XPBD_OK)
        return XPBD_ERR_CONFIG;
    const struct rule contact[] = {
        {!isfinite(cfg->contact_beta) || !(cfg->contact_beta > 0) || cfg->contact_beta > 1,
         XPBD_ERR_BETA, XPBD_FIELD_CONTACT_BETA},
        {!xpbd__finite_nonneg(cfg->restitution) || cfg->restitution > 1, XPBD_ERR_RESTITUTION,
         XPBD_FIELD_RESTITUTION},
        {!xpbd__finite_nonneg(cfg->contact_slop), XPBD_ERR_SLOP, XPBD_FIELD_CONTACT_SLOP},
        {!xpbd__finite_nonneg(cfg->friction_static), XPBD_ERR_FRICTION, XPBD_FIELD_FRICTION_STATIC},
        {!xpbd__finite_nonneg(cfg->friction_dynamic) || cfg->friction_dynamic > cfg->friction_static,
         XPBD_ERR_FRICTION, XPBD_FIELD_FRICTION_DYNAMIC},
        {!xpbd__finite_nonneg(cfg->contact_skin), XPBD_ERR_CONFIG, XPBD_FIELD_CONTACT_SKIN},
        {!xpbd__finite_nonneg(cfg->relative_damping) || cfg->relative_damping > 1, XPBD_ERR_CONFIG,
         XPBD_FIELD_RELATIVE_DAMPING},
    };
    for (size_t r = 0; r < sizeof contact / sizeof contact[0]; ++r)
        if (contact[r].bad) {
            *field = contact[r].field;
            return contact[r].status;
        }
    *field = XPBD_FIELD_NONE;
    return XPBD_OK;
}

#  include "each_precision.h"
#else
/* ---- one precision: the team, a step's outline, the schemes --------------- */
#include "step/step.h"

#define step_world_step PREC(step_world_step_f32, step_world_step_f64)
#define step_team_pays PREC(step_team_pays_f32, step_team_pays_f64)
#define step_call PREC(step_call_f32, step_call_f64)
#define step_drive PREC(step_drive_f32, step_drive_f64)
#define step_world_checked PREC(step_world_checked_f32, step_world_checked_f64)
#define step_substep_solve PREC(step_substep_solve_f32, step_substep_solve_f64)
#define step_substep_springs PREC(step_substep_springs_f32, step_substep_springs_f64)

static int step_team_pays(const SFX(xpbd_world) *w);
static void step_drive(void *ctx);
static xpbd_status step_world_checked(step_run *s, const xpbd_step_config *cfg, double h,
                                      SFX(xpbd_world) *w, void *scratch, size_t scratch_bytes,
                                      xpbd_step_counters *k);
static void step_substep_solve(step_run *s, xpbd_step_counters *k);
static void step_substep_springs(step_run *s, xpbd_step_counters *k);

/* A step's arguments, for the team's driver. */
typedef struct step_call {
    step_run *s;
    const xpbd_step_config *cfg;
    double h;
    SFX(xpbd_world) *w;
    void *scratch;
    size_t scratch_bytes;
    xpbd_step_counters *k;
    xpbd_status status;
} step_call;

/* The step: on the team when some stage pays for one (a teaching mode runs
 * on the caller: its reference passes are serial), else on the caller. */
static xpbd_status step_world_step(const xpbd_step_config *cfg, double h, SFX(xpbd_world) *w,
                                   void *scratch, size_t scratch_bytes,
                                   xpbd_step_counters *counters, const xpbd__step_how *how)
{
    xpbd_step_counters k;
    memset(&k, 0, sizeof k);
    k.protocol = XPBD_PROTOCOL_VERSION;
    k.isa = XPBD_ISA_AUTO;
    k.bad_index = SIZE_MAX;
    k.bad_part = XPBD_PART_NONE;
    k.bad_field = XPBD_FIELD_NONE;
    step_run s;
    memset(&s, 0, sizeof s);
    s.owned = how && how->owned;
    s.clock = how ? how->stage_seconds : NULL;
    step_call call = {&s, cfg, h, w, scratch, scratch_bytes, &k, XPBD_OK};
    /* an unusable executor leaves the run serial; xpbd__config_check names it */
    s.ex = xpbd__exec_serial();
    if (cfg && cfg->version == XPBD_PROTOCOL_VERSION &&
        !xpbd__exec_resolve(cfg->executor, cfg->threads, &s.ex))
        s.ex = xpbd__exec_serial();
    if (s.ex.workers > 1 && !xpbd__step_teaching(cfg) && w && w->particles &&
        step_team_pays(w)) {
        xpbd__team_go(&s.ex, step_drive, &call);
    } else {
        /* no team: every stage on the caller, no enqueue (xpbd/executor.h) */
        s.ex = xpbd__exec_serial();
        step_drive(&call);
    }
    const xpbd_status st = call.status;
    k.status = st;
    if (counters)
        *counters = k;
    return st;
}

/* Whether some stage of a step on w may run on several workers (a guess
 * from the counts alone, before validation: no array is read): the team is
 * started only then, so a world too small for any stage to fork pays no
 * enqueue. */
static int step_team_pays(const SFX(xpbd_world) *w)
{
    if (w->particles->count >= 2 * (size_t)XPBD__MIN_PBLOCKS * XPBD__PBLOCK)
        return 1;
    for (const step_kind *const *r = xpbd__kind_table; *r; ++r)
        if ((*r)->pays && (*r)->present(w) && (*r)->pays(w))
            return 1;
    return 0;
}

static void step_drive(void *ctx)
{
    step_call *c = ctx;
    c->status = step_world_checked(c->s, c->cfg, c->h, c->w, c->scratch, c->scratch_bytes, c->k);
}

/* A step's outline: validate, broad phase, snapshot, the substeps of the
 * scheme the configuration asks for, finalize. */
static xpbd_status step_world_checked(step_run *s, const xpbd_step_config *cfg, double h,
                                      SFX(xpbd_world) *w, void *scratch, size_t scratch_bytes,
                                      xpbd_step_counters *k)
{
    const double t0 = s->clock ? xpbd__step_now() : 0;
    xpbd_status st = xpbd__step_validate(s, cfg, h, w, scratch, scratch_bytes, k);
    if (s->clock)
        s->clock[0] += xpbd__step_now() - t0;
    if (st != XPBD_OK)
        return st;
    s->status = XPBD_OK;
    xpbd__step_stage(s, STAGE_PREPARE, k); /* XPBD_OVERFLOW carries on */
    if (s->status < 0)
        return s->status;
    memset(s->part, 0, sizeof s->part);
    xpbd__step_stage(s, STAGE_SNAPSHOT, k);
    const int teaching = xpbd__step_teaching(cfg) && !s->springs;
    for (s->sub = 0; s->sub < cfg->substeps; ++s->sub) {
        if (teaching)
            xpbd__reference_substep(s, k);
        else if (s->springs)
            step_substep_springs(s, k);
        else
            step_substep_solve(s, k);
        k->substeps++;
    }
    xpbd__step_stage(s, STAGE_FINALIZE, k);
    return s->status;
}

/* XPBD and PBD: the usual XPBD substep, each iteration every row's pass in
 * table order. The lambdas are reset by the first pass over each set in
 * the substep: a slot's lambda is read by its own solve only, so that is
 * the reset at the substep's start without a pass of its own. */
static void step_substep_solve(step_run *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    if (!s->predicted)
        xpbd__step_stage(s, STAGE_PREDICT, k);
    s->predicted = 0;
    for (uint32_t it = 0; s->solve && it < cfg->iterations; ++it) {
        s->zero_lambda = it == 0;
        /* the step leaves the lambdas of its last pass; before that, the
         * lambdas of a substep's only pass are read by nobody: the next
         * substep's first pass resets them */
        s->lambda_dead = it == 0 && cfg->iterations == 1 && s->sub + 1 < cfg->substeps;
        xpbd__step_stage(s, STAGE_SOLVE, k);
        s->zero_lambda = 0;
        s->lambda_dead = 0;
        k->iterations++;
    }
    /* nothing between this update and the next predict: one pass */
    if (s->solve && !s->vpass && !(cfg->relative_damping > 0) && s->sub + 1 < cfg->substeps) {
        xpbd__step_stage(s, STAGE_VELOCITY_PREDICT, k);
        s->predicted = 1;
        return;
    }
    xpbd__step_stage(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        xpbd__step_stage(s, STAGE_VELOCITY_PASS, k);
    if (cfg->relative_damping > 0)
        xpbd__step_stage(s, STAGE_RELATIVE_DAMPING, k);
}

/* Springs: forces over the colours, semi-implicit Euler, then the contacts
 * once at position level and the velocity pass. */
static void step_substep_springs(step_run *s, xpbd_step_counters *k)
{
    xpbd__step_stage(s, STAGE_RESET_LAMBDA, k);
    xpbd__step_stage(s, STAGE_SPRING_FORCES, k);
    xpbd__step_stage(s, STAGE_PREDICT, k); /* integrate, save velocities, pack */
    if (!s->contacts)
        return;
    xpbd__step_stage(s, STAGE_CONTACTS, k);
    xpbd__step_stage(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        xpbd__step_stage(s, STAGE_VELOCITY_PASS, k);
}

#endif /* XPBD_SELF */
