/* SPDX-License-Identifier: MIT */
/* Stepping (xpbd/engine.h): one frame of the engine, and the coupling with
 * a host rigid body between frames. */
#include "engine/common.h"

#define XPBD_REAL_F32
#include "engine/step_tmpl.h"
#define XPBD_REAL_F64
#include "engine/step_tmpl.h"

xpbd_status xpbd_engine_step_f32(xpbd_engine_f32 *e, double h) { return engine_step_f32(e, h); }
xpbd_status xpbd_engine_step_f64(xpbd_engine_f64 *e, double h) { return engine_step_f64(e, h); }

xpbd_status xpbd_engine_couple_rigid_f32(xpbd_engine_f32 *e, const xpbd_rigid_f64 *body, double h,
                                         xpbd_rigid_impulse *out)
{
    return engine_couple_rigid_f32(e, body, h, out);
}

xpbd_status xpbd_engine_couple_rigid_f64(xpbd_engine_f64 *e, const xpbd_rigid_f64 *body, double h,
                                         xpbd_rigid_impulse *out)
{
    return engine_couple_rigid_f64(e, body, h, out);
}
