/* The step driver (see xpbd/step.h). */
#include "internal.h"

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
    return c;
}

#define XPBD_REAL_F32
#include "step_tmpl.h"
#define XPBD_REAL_F64
#include "step_tmpl.h"
