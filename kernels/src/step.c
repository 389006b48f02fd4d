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

