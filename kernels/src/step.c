/* SPDX-License-Identifier: MIT */
/* The step driver (see xpbd/step.h): the stages live in step_tmpl.h, once
 * per precision; the exported entry points are spelled out below. */
#include "internal.h"
#include "exec.h"

#include <string.h>

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
    if (xpbd__executor_check(cfg->executor, field) != XPBD_OK)
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

#define XPBD_REAL_F32
#include "step_tmpl.h"
#define XPBD_REAL_F64
#include "step_tmpl.h"

size_t xpbd_world_scratch_bytes_f32(size_t n, size_t slots, size_t max_contacts)
{
    return world_scratch_bytes_f32(n, slots, max_contacts, max_contacts > 0);
}

size_t xpbd_world_scratch_bytes_f64(size_t n, size_t slots, size_t max_contacts)
{
    return world_scratch_bytes_f64(n, slots, max_contacts, max_contacts > 0);
}

size_t xpbd_step_scratch_bytes_f32(size_t n, size_t slots)
{
    return world_scratch_bytes_f32(n, slots, 0, 0);
}

size_t xpbd_step_scratch_bytes_f64(size_t n, size_t slots)
{
    return world_scratch_bytes_f64(n, slots, 0, 0);
}

xpbd_status xpbd_world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                void *scratch, size_t scratch_bytes, xpbd_step_counters *counters)
{
    return world_step_f32(cfg, h, w, scratch, scratch_bytes, counters);
}

xpbd_status xpbd_world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                void *scratch, size_t scratch_bytes, xpbd_step_counters *counters)
{
    return world_step_f64(cfg, h, w, scratch, scratch_bytes, counters);
}

xpbd_status xpbd_step_f32(const xpbd_step_config *cfg, double h, xpbd_particles_f32 *p,
                          xpbd_distance_set_f32 *c, void *scratch, size_t scratch_bytes,
                          xpbd_step_counters *counters)
{
    return step_f32(cfg, h, p, c, scratch, scratch_bytes, counters);
}

xpbd_status xpbd_step_f64(const xpbd_step_config *cfg, double h, xpbd_particles_f64 *p,
                          xpbd_distance_set_f64 *c, void *scratch, size_t scratch_bytes,
                          xpbd_step_counters *counters)
{
    return step_f64(cfg, h, p, c, scratch, scratch_bytes, counters);
}

