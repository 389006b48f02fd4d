/* SPDX-License-Identifier: MIT */
/* Host inputs between frames (xpbd/engine.h): what a replay log records. */
#include "engine/common.h"

#define XPBD_REAL_F32
#include "engine/input_tmpl.h"
#define XPBD_REAL_F64
#include "engine/input_tmpl.h"

xpbd_status xpbd_engine_apply_f32(xpbd_engine_f32 *e, const xpbd_input *in)
{
    return engine_apply_f32(e, in);
}

xpbd_status xpbd_engine_apply_f64(xpbd_engine_f64 *e, const xpbd_input *in)
{
    return engine_apply_f64(e, in);
}
