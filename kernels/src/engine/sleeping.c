/* SPDX-License-Identifier: MIT */
/* Sleeping (xpbd/engine.h): per-body kinetic energy, the state signature
 * that wakes a body the host changed, the sleep and wake bookkeeping after
 * a step, and the engine's rebuild of its sets for the sleep flags. */
#include "engine/common.h"

void xpbd_sleep_wake(xpbd_sleep_state *s, uint32_t b)
{
    if (!s || b >= s->body_count || !s->asleep)
        return;
    s->asleep[b] = 0;
    if (s->calm)
        s->calm[b] = 0;
}

#define XPBD_REAL_F32
#include "engine/sleeping_tmpl.h"
#define XPBD_REAL_F64
#include "engine/sleeping_tmpl.h"

double xpbd_body_energy_f32(const xpbd_particles_f32 *p, size_t begin, size_t end)
{
    return body_energy_f32(p, begin, end);
}

double xpbd_body_energy_f64(const xpbd_particles_f64 *p, size_t begin, size_t end)
{
    return body_energy_f64(p, begin, end);
}

uint32_t xpbd_sleep_prepare_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w)
{
    return sleep_prepare_f32(s, w);
}

uint32_t xpbd_sleep_prepare_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w)
{
    return sleep_prepare_f64(s, w);
}

uint32_t xpbd_sleep_update_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w, uint32_t *fell,
                               uint32_t *woke)
{
    return sleep_update_f32(s, w, fell, woke);
}

uint32_t xpbd_sleep_update_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w, uint32_t *fell,
                               uint32_t *woke)
{
    return sleep_update_f64(s, w, fell, woke);
}
