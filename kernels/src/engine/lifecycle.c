/* The engine's lifecycle (xpbd/engine.h): create and destroy. */
#include "engine/common.h"

#define XPBD_REAL_F32
#include "engine/lifecycle_tmpl.h"
#define XPBD_REAL_F64
#include "engine/lifecycle_tmpl.h"

xpbd_status xpbd_engine_create_f32(xpbd_engine_f32 *e, const xpbd_scene_f32 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   size_t *bad_index)
{
    return engine_create_f32(e, scene, cfg, options, bad_index);
}

xpbd_status xpbd_engine_create_f64(xpbd_engine_f64 *e, const xpbd_scene_f64 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   size_t *bad_index)
{
    return engine_create_f64(e, scene, cfg, options, bad_index);
}

void xpbd_engine_destroy_f32(xpbd_engine_f32 *e) { engine_destroy_f32(e); }
void xpbd_engine_destroy_f64(xpbd_engine_f64 *e) { engine_destroy_f64(e); }
