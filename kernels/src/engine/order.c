/* SPDX-License-Identifier: MIT */
/* The two-serial-orders check (xpbd/engine.h): the same scene run with
 * its constraints in two orders, final positions compared. */
#include "engine/common.h"

/* splitmix64, for the shuffles */
static uint64_t order_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* seed 0: reversed; otherwise a Fisher-Yates shuffle drawn from seed */
static void order_permutation(uint32_t *perm, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)(seed ? i : n - 1 - i);
    if (!seed)
        return;
    uint64_t s = seed;
    for (size_t i = n; i > 1; --i) {
        const size_t j = (size_t)(order_mix(&s) % i);
        const uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

#define XPBD_REAL_F32
#include "engine/order_tmpl.h"
#define XPBD_REAL_F64
#include "engine/order_tmpl.h"

xpbd_status xpbd_order_check_f32(const xpbd_scene_f32 *scene, const xpbd_step_config *cfg,
                                 double h, uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    return order_check_f32(scene, cfg, h, frames, seed, out);
}

xpbd_status xpbd_order_check_f64(const xpbd_scene_f64 *scene, const xpbd_step_config *cfg,
                                 double h, uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    return order_check_f64(scene, cfg, h, frames, seed, out);
}
