/* SPDX-License-Identifier: MIT */
/* xpbd-bench's sleeping measurement (bench_sleep.h). */
#define _POSIX_C_SOURCE 199309L
#include "bench_sleep.h"

#include "bench_util.h"
#include "scenes.h"

#include <stdlib.h>
#include <string.h>
#include <xpbd/xpbd.h>

enum { SIDE = 4, CELLS = 4 }; /* 4 x 4 cubes of 4 x 4 x 4 cells */

/* Best time per frame over `blocks` blocks of `frames` frames. */
static double frame_time(xpbd_engine_f32 *e, int blocks, int frames, int *failed)
{
    double best = INFINITY;
    for (int b = 0; b < blocks; ++b) {
        const double t0 = xb_now();
        for (int f = 0; f < frames; ++f)
            *failed |= xpbd_engine_step_f32(e, 1.0 / 60) < 0;
        const double t = (xb_now() - t0) / frames;
        best = t < best ? t : best;
    }
    return best;
}

int xb_sleep(int quick, xb_sleep_result *out)
{
    memset(out, 0, sizeof *out);
    const uint32_t nbody = SIDE * SIDE;
    double off[3 * SIDE * SIDE], w[SIDE * SIDE];
    for (uint32_t b = 0; b < nbody; ++b) {
        off[3 * b] = 0.35 * (b % SIDE);
        off[3 * b + 1] = 0.0005;
        off[3 * b + 2] = 0.35 * (b / SIDE);
        w[b] = 20;
    }
    xs_mesh m;
    xs_pile_f32 pile;
    memset(&pile, 0, sizeof pile);
    xpbd_engine_f32 *awake = NULL, *asleep = NULL;
    int rc = -1;
    if (!xs_mesh_box(&m, CELLS, 0.05, (const double[3]){0, 0, 0}, 5))
        return -1;
    if (!xs_pile_make_f32(&pile, &m, nbody, off, w, 0.01, 1e-5, 1e-6))
        goto done;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = 10;
    cfg.substeps = 2;
    cfg.friction_static = 0.6;
    cfg.friction_dynamic = 0.5;
    cfg.contact_skin = 0.005; /* a game's margin: what a body moves in a frame */
    const xpbd_engine_options never = {0}, sleepy = {.sleep_energy = 1e-4, .sleep_steps = 20};
    if (xpbd_engine_create_f32(&awake, &pile.s, &cfg, &never, NULL) != XPBD_OK ||
        xpbd_engine_create_f32(&asleep, &pile.s, &cfg, &sleepy, NULL) != XPBD_OK)
        goto done;
    out->bodies = nbody;
    out->particles = pile.s.particles;
    out->constraints = pile.s.edges + pile.s.tets;
    int failed = 0;
    uint32_t f = 0;
    for (; f < 600 && xpbd_engine_counters_f32(asleep)->sleeping < nbody; ++f)
        failed |= xpbd_engine_step_f32(asleep, 1.0 / 60) < 0;
    for (uint32_t g = 0; g < f; ++g) /* the same settling, awake */
        failed |= xpbd_engine_step_f32(awake, 1.0 / 60) < 0;
    if (failed || xpbd_engine_counters_f32(asleep)->sleeping < nbody)
        goto done;
    out->settle_frames = f;
    const int blocks = quick ? 2 : 5, frames = quick ? 5 : 20;
    out->awake_s = frame_time(awake, blocks, frames, &failed);
    out->asleep_s = frame_time(asleep, blocks, frames, &failed);
    for (uint32_t b = 0; b < nbody; ++b) {
        const xpbd_input wake = {XPBD_INPUT_WAKE, b, 0, {0, 0, 0}};
        failed |= xpbd_engine_apply_f32(asleep, &wake) != XPBD_OK;
    }
    const double t0 = xb_now();
    failed |= xpbd_engine_step_f32(asleep, 1.0 / 60) < 0;
    out->wake_s = xb_now() - t0;
    rc = failed ? -1 : 0;
done:
    xpbd_engine_destroy_f32(awake);
    xpbd_engine_destroy_f32(asleep);
    xs_pile_free_f32(&pile);
    xs_mesh_free(&m);
    return rc;
}
