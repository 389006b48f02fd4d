/* SPDX-License-Identifier: MIT */
/* Section s3_sleeping (S3, soft bodies): soft cubes that sleep and wake
 * whole; the solver's work per frame follows the awake bodies. */
#include "report.h"
#include "shared/s3_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int s3_sleeping_run(xr_ctx *ctx)
{
    /* nine 2 x 2 x 2-cell tet cubes (0.2 m, 2.7 kg) resting on the ground in
     * a 3 x 3 grid 0.4 m apart, and a tenth held 0.5 m above the middle one
     * (pinned) until frame `drop` */
    const int frames = 360, drop = 90;
    const uint32_t nbody = 10, centre = 4;
    double off[30], w[10];
    for (uint32_t b = 0; b < nbody; ++b) {
        off[3 * b] = b < 9 ? 0.4 * (b % 3) : 0.4;
        off[3 * b + 1] = b < 9 ? 0.03 : 0.73;
        off[3 * b + 2] = b < 9 ? 0.4 * (b / 3) : 0.4;
        w[b] = b < 9 ? 10 : 0;
    }
    xs_mesh m;
    if (!xs_mesh_box(&m, 2, 0.1, (const double[3]){0, 0, 0}, 6))
        return -1;
    const size_t nb = m.k.particles, n = nbody * nb;
    const size_t cube_edges = m.k.edges, cube_tets = m.k.tets;
    xs_pile_f64 pile;
    xpbd_engine_f64 *e = NULL;
    FILE *f = NULL;
    int ok = xs_pile_make_f64(&pile, &m, nbody, off, w, 0.03, 1e-4, 0);
    const size_t *begin = pile.begin;
    if (ok) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xr_isa(ctx);
        cfg.iterations = 8;
        cfg.friction_static = 0.6;
        cfg.friction_dynamic = 0.5;
        const xpbd_engine_options opt = {.sleep_energy = 1e-4, .sleep_steps = 20};
        ok = xpbd_engine_create_f64(&e, &pile.s, &cfg, &opt, NULL) == XPBD_OK;
    }
    f = ok ? xr_table_open(ctx, "s3_sleeping",
                           "frame\tasleep\tsolves\tcontacts\twoke\tmax_energy\tcentre_energy\t"
                           "threshold")
           : NULL;
    if (!f) {
        xpbd_engine_destroy_f64(e);
        xs_pile_free_f64(&pile);
        xs_mesh_free(&m);
        return -1;
    }
    const uint64_t per_cube = (uint64_t)8 * (cube_edges + cube_tets); /* one awake cube */
    int all_asleep = -1, again = -1, solo_ok = 1, solo_frames = 0, quiet_frames = 0;
    uint64_t quiet_solves = 0;
    uint8_t ever_woke[10] = {0};
    int centre_woke = -1;
    for (int fr = 1; fr <= frames && ok; ++fr) {
        if (fr == drop) { /* release the tenth cube: the host changed it, it wakes */
            const xpbd_input release = {XPBD_INPUT_SET_INV_MASS, (uint32_t)(9 * nb), (uint32_t)n,
                                        {10, 0, 0}};
            ok = xpbd_engine_apply_f64(e, &release) == XPBD_OK;
        }
        const uint8_t before[10] = {xpbd_engine_world_f64(e)->body_asleep[0], xpbd_engine_world_f64(e)->body_asleep[1], xpbd_engine_world_f64(e)->body_asleep[2],
                                    xpbd_engine_world_f64(e)->body_asleep[3], xpbd_engine_world_f64(e)->body_asleep[4], xpbd_engine_world_f64(e)->body_asleep[5],
                                    xpbd_engine_world_f64(e)->body_asleep[6], xpbd_engine_world_f64(e)->body_asleep[7], xpbd_engine_world_f64(e)->body_asleep[8],
                                    xpbd_engine_world_f64(e)->body_asleep[9]};
        ok = ok && xpbd_engine_step_f64(e, S3_H) >= 0;
        if (!ok)
            break;
        const xpbd_engine_counters *c = xpbd_engine_counters_f64(e);
        double most = 0;
        for (uint32_t b = 0; b < nbody; ++b) {
            most = fmax(most, xpbd_body_energy_f64(xpbd_engine_particles_f64(e), begin[b], begin[b + 1]));
            if (all_asleep > 0 && before[b] && !xpbd_engine_world_f64(e)->body_asleep[b])
                ever_woke[b] = 1;
        }
        if (all_asleep < 0 && c->sleeping == nbody)
            all_asleep = fr;
        if (centre_woke < 0 && fr > drop && !xpbd_engine_world_f64(e)->body_asleep[centre])
            centre_woke = fr;
        if (fr > drop && again < 0 && c->sleeping == nbody)
            again = fr;
        /* the step's work follows the awake bodies exactly */
        if (c->sleeping == nbody && before[0] && fr < drop) {
            quiet_frames++;
            quiet_solves += c->step.solves;
        }
        if (fr > drop && c->sleeping == nbody - 1 && !xpbd_engine_world_f64(e)->body_asleep[9]) {
            int sleeping_before = 1; /* the same nine slept through the step */
            for (uint32_t b = 0; b < 9; ++b)
                sleeping_before &= before[b];
            if (sleeping_before) {
                solo_frames++;
                solo_ok &= c->step.solves == per_cube;
            }
        }
        const double row[8] = {fr,
                               c->sleeping,
                               (double)c->step.solves,
                               c->step.contacts,
                               c->woke,
                               most,
                               xpbd_body_energy_f64(xpbd_engine_particles_f64(e), begin[centre], begin[centre + 1]),
                               1e-4};
        xr_row(f, 8, row);
    }
    xr_table_close(f);
    xpbd_engine_destroy_f64(e);
    xs_mesh_free(&m);
    xs_pile_free_f64(&pile);
    if (!ok || all_asleep < 0) {
        xr_md(ctx, "The sleeping scene failed (a step error, or the bodies never all slept).\n\n");
        return -1;
    }
    const int corners_slept = !ever_woke[0] && !ever_woke[2] && !ever_woke[6] && !ever_woke[8];
    xr_md(ctx,
          "Nine 2 x 2 x 2-cell tet cubes (27 particles, 2.7 kg, edge compliance 1e-4 m/N, "
          "volume constraints, contact radius 3 cm, friction 0.6/0.5) rest on the ground in a "
          "3 x 3 grid 0.4 m apart; a tenth is held 0.5 m above the middle one until frame %d. "
          "8 iterations, 1 substep, 1/60 s frames. A body sleeps after 20 frames with kinetic "
          "energy below 1e-4 J/kg (`xpbd_engine_options.sleep_energy`), whole: its constraints "
          "leave the solver's sets and its particles stop searching contacts among themselves; "
          "it wakes whole when the host changes it or a moving particle touches it.\n\n"
          "| event | frame |\n|---|---|\n| all ten asleep | %d |\n| tenth released | %d |\n"
          "| middle cube woken by the impact | %d |\n| all asleep again | %d |\n\n"
          "Constraint solves per frame: %llu over %d frames with every body asleep; %d frames "
          "with only the falling cube awake, each exactly %llu (8 iterations x its %zu edges "
          "and %zu tets) = %s.\n\n",
          drop, all_asleep, drop, centre_woke, again, (unsigned long long)quiet_solves,
          quiet_frames, solo_frames, (unsigned long long)per_cube, cube_edges, cube_tets,
          solo_ok ? "yes" : "no");
    xr_tolerance_source(ctx, "physics: bodies placed at rest on the ground need the 20 quiet "
                             "frames of the sleep counter plus at most 10 frames (1/6 s) to settle");
    xr_check(ctx, "every body asleep at frame (20-frame counter + settling)", all_asleep, 20,
             xr_bracket(20, 30), NULL);
    xr_tolerance_source(ctx, "exact: sleeping bodies leave the solver's sets");
    xr_check_exact(ctx, "all asleep: constraint solves per frame", (double)quiet_solves, 0, NULL);
    xr_check(ctx, "only the falling cube awake: frames whose solves != 8 x its constraints",
             !solo_ok, 0, xr_exact(), NULL);
    xr_check(ctx, "only the falling cube awake: frames", solo_frames, NAN, xr_at_least(1), NULL);
    xr_check(ctx, "the impact wakes the middle cube (frame)", centre_woke, drop, xr_above(drop),
             NULL);
    xr_check(ctx, "corner cubes woken by it", !corners_slept, 0, xr_exact(), NULL);
    xr_check(ctx, "everything asleep again (frame)", again, frames,
             xr_bracket(nextafter(drop, INFINITY), frames), NULL);
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Soft bodies (S3), sleeping: ten soft cubes, one dropped at frame %d onto the middle of nine "
             "sleeping ones. Left: bodies asleep; middle: constraint solves per frame (zero "
             "while all sleep, one cube's worth while only the falling cube moves); right: "
             "largest kinetic energy per kg of a body against the 1e-4 J/kg threshold. All "
             "asleep at frame %d, the middle cube woken at %d, all asleep again at %d.",
             drop, all_asleep, centre_woke, again);
    xr_figure(ctx, "s3_sleeping", cap);
    return 0;
}

const xr_section xr_section_s3_sleeping = {
    S3_SECTION(s3_sleeping),
    .title = "Ten soft cubes sleeping whole and waking whole; solver work follows the awake bodies",
    .tables = XR_TABLES({"s3_sleeping", "sleep state, solver work and energies per frame"})};
