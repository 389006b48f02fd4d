/* SPDX-License-Identifier: MIT */
/* The engine's lifecycle (xpbd/engine.h): create and destroy. */
#include "engine/common.h"

/* Options out of range for a scene of n particles: XPBD_ERR_CONFIG, the
 * first bad field (in the struct's order) in *field. */
static xpbd_status engine_check_options(const xpbd_engine_options *opt, size_t n,
                                        xpbd_field *field)
{
    *field = XPBD_FIELD_NONE;
    if (!opt)
        return XPBD_OK;
    if (!xpbd__finite_nonneg(opt->tear_stretch))
        *field = XPBD_FIELD_TEAR_STRETCH;
    else if (!xpbd__finite_nonneg(opt->sleep_energy))
        *field = XPBD_FIELD_SLEEP_ENERGY;
    else if (opt->keep_hinges > 1)
        *field = XPBD_FIELD_KEEP_HINGES;
    else if (opt->max_particles &&
             (opt->max_particles < n || opt->max_particles > (uint32_t)INT32_MAX))
        *field = XPBD_FIELD_MAX_PARTICLES;
    return *field == XPBD_FIELD_NONE ? XPBD_OK : XPBD_ERR_CONFIG;
}

/* The place of an error into *where (part, index, field). Returns st. */
static xpbd_status engine_refuse(xpbd_where *where, xpbd_status st, xpbd_part part, size_t index,
                                 xpbd_field field)
{
    where->part = part;
    where->index = index;
    where->field = field;
    return st;
}

/* The contact capacity the engine keeps: what the scene asks for, but never
 * more than the ordered pairs its particles can form (the particles it
 * starts with, or its capacity, or, tearing without a capacity, any count
 * up to INT32_MAX), so a capacity no run can use is never allocated. */
static size_t engine_contact_capacity(size_t asked, size_t n, const xpbd_engine_options *opt)
{
    uint64_t most = n;
    if (opt && opt->tear_stretch > 0)
        most = opt->max_particles ? opt->max_particles : (uint64_t)INT32_MAX;
    const uint64_t pairs = most * (most ? most - 1 : 0);
    return (uint64_t)asked < pairs ? asked : (size_t)pairs;
}

/* The options' workers and executor, when given, in the configuration of
 * every step the engine runs. */
static void engine_fold_threads(xpbd_step_config *cfg, const xpbd_engine_options *opt)
{
    if (opt->threads)
        cfg->threads = opt->threads;
    if (opt->executor)
        cfg->executor = opt->executor;
}

#define XPBD_REAL_F32
#include "engine/lifecycle_tmpl.h"
#define XPBD_REAL_F64
#include "engine/lifecycle_tmpl.h"

xpbd_status xpbd_engine_create_f32(xpbd_engine_f32 **out, const xpbd_scene_f32 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   xpbd_where *where)
{
    return engine_create_f32(out, scene, cfg, options, where);
}

xpbd_status xpbd_engine_create_f64(xpbd_engine_f64 **out, const xpbd_scene_f64 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   xpbd_where *where)
{
    return engine_create_f64(out, scene, cfg, options, where);
}

void xpbd_engine_destroy_f32(xpbd_engine_f32 *e) { engine_destroy_f32(e); }
void xpbd_engine_destroy_f64(xpbd_engine_f64 *e) { engine_destroy_f64(e); }

const xpbd_particles_f32 *xpbd_engine_particles_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->particles : NULL;
}

const xpbd_particles_f64 *xpbd_engine_particles_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->particles : NULL;
}

const xpbd_engine_counters *xpbd_engine_counters_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->counters : NULL;
}

const xpbd_engine_counters *xpbd_engine_counters_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->counters : NULL;
}

const xpbd_world_f32 *xpbd_engine_world_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->world : NULL;
}

const xpbd_world_f64 *xpbd_engine_world_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->world : NULL;
}

const xpbd_step_config *xpbd_engine_config_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->config : NULL;
}

const xpbd_step_config *xpbd_engine_config_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->config : NULL;
}

const xpbd_engine_options *xpbd_engine_options_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->options : NULL;
}

const xpbd_engine_options *xpbd_engine_options_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->options : NULL;
}

xpbd_status xpbd_engine_set_config_f32(xpbd_engine_f32 *e, const xpbd_step_config *cfg)
{
    return engine_set_config_f32(e, cfg);
}

xpbd_status xpbd_engine_set_config_f64(xpbd_engine_f64 *e, const xpbd_step_config *cfg)
{
    return engine_set_config_f64(e, cfg);
}

void xpbd_engine_scene_f32(const xpbd_engine_f32 *e, xpbd_scene_f32 *out)
{
    if (out)
        engine_scene_f32(e, out);
}

void xpbd_engine_scene_f64(const xpbd_engine_f64 *e, xpbd_scene_f64 *out)
{
    if (out)
        engine_scene_f64(e, out);
}
