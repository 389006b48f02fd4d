/* SPDX-License-Identifier: MIT */
/* replay_record: records the replay files the replay.check test runs
 * `xpbd-replay --check` on.
 *
 *     replay_record cloth|tet_box FILE
 *
 * cloth     f32: a 24 x 24 cloth (0.05 m spacing, stretch and shear links
 *           of 1e-6 m/N, bending 1e-3) hanging from its top corners,
 *           coloured in runs (xpbd_colouring_options.runs = 1: the row
 *           loads of the 512-bit float path), 4 substeps x 3 iterations at 3
 *           threads; pushed before frames 20 and 50; 90 frames.
 * tet_box   f64: a 3 x 3 x 3 tet box (edges and tets, radius 0.02 m) falling
 *           on the ground, two opposite corners pinned and dragged apart over
 *           frames 10..17 until their edges tear (tear_stretch 0.3), let go,
 *           then left to settle until it sleeps (sleep_energy 1e-3 J/kg, 10
 *           steps); 240 frames.
 * Recorded with the installed recorder (xpbd/replay.h) as a host would.
 * Exits 1 if the run does not exercise what it is there for (the tet box
 * tore and fell asleep) or the file cannot be written, 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xpbd/replay.h>

#include "scenes.h"

/* Saves the recording to path; 0 with a message when it cannot. */
static int replay_save(const char *path, const xpbd_replay_file *rec)
{
    xpbd_replay_error err;
    if (xpbd_replay_save(path, rec, &err) == XPBD_OK)
        return 1;
    fprintf(stderr, "replay_record: %s: %s\n", path, err.what);
    return 0;
}

static int record_cloth(const char *path)
{
    enum { N = 24 };
    xs_mesh m;
    if (!xs_mesh_cloth(&m, N, N, 0.05, (const double[3]){-0.6, 1.2, 0}, NULL, NULL))
        return 1;
    uint32_t *edges = xs_mesh_all_edges(&m);
    const size_t n = m.k.particles, ne = m.k.edges + m.k.shear;
    float *xyz = malloc(3 * n * sizeof *xyz), *w = malloc(n * sizeof *w);
    int ok = edges && xyz && w;
    for (size_t i = 0; ok && i < n; ++i) {
        for (int k = 0; k < 3; ++k)
            xyz[3 * i + (size_t)k] = (float)m.xyz[3 * i + (size_t)k];
        w[i] = i == 0 || i == N - 1 ? 0.0f : (float)(n / 0.5);
    }
    xpbd_scene_f32 s;
    memset(&s, 0, sizeof s);
    s.particles = n;
    s.xyz = xyz;
    s.inv_mass = w;
    s.edges = ne;
    s.edge = edges;
    s.edge_alpha = 1e-6;
    s.bends = m.k.bends;
    s.bend = m.bends;
    s.bend_alpha = 1e-3;
    s.colouring.runs = 1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    cfg.iterations = 3;
    cfg.damping = 0.002;
    cfg.threads = 3;
    xpbd_engine_f32 *e = NULL;
    xpbd_replay_file rec;
    memset(&rec, 0, sizeof rec);
    ok = ok && xpbd_engine_create_f32(&e, &s, &cfg, NULL, NULL) == XPBD_OK &&
         xpbd_replay_record_begin_f32(&rec, e, 1.0 / 60) == XPBD_OK;
    for (int f = 0; ok && f < 90; ++f) {
        if (f == 20 || f == 50) {
            const xpbd_input push = {XPBD_INPUT_ADD_VELOCITY, N, (uint32_t)(n / 2),
                                     {0, 0, f == 20 ? 1.0 : -0.5}};
            ok = xpbd_replay_record_apply_f32(&rec, e, &push) == XPBD_OK;
        }
        ok = ok && xpbd_engine_step_f32(e, 1.0 / 60) >= 0;
    }
    ok = e && xpbd_replay_record_end_f32(&rec, e) == XPBD_OK && ok;
    ok = ok && replay_save(path, &rec);
    xpbd_replay_free(&rec);
    xpbd_engine_destroy_f32(e);
    free(xyz);
    free(w);
    free(edges);
    xs_mesh_free(&m);
    return ok ? 0 : 1;
}

static int record_tet_box(const char *path)
{
    const double drag = 0.1;
    xs_mesh m;
    if (!xs_mesh_box(&m, 3, 0.1, (const double[3]){-0.15, 0.05, -0.15}, 5))
        return 1;
    const size_t n = m.k.particles;
    double *w = malloc(n * sizeof *w), *r = malloc(n * sizeof *r);
    int ok = w && r;
    for (size_t i = 0; ok && i < n; ++i) {
        w[i] = 20;
        r[i] = 0.02;
    }
    const size_t body[2] = {0, n};
    const xpbd_plane ground = {{0, 1, 0}, 0};
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = n;
    s.xyz = m.xyz;
    s.inv_mass = w;
    s.radius = r;
    s.edges = m.k.edges;
    s.edge = m.edges;
    s.edge_alpha = 1e-5;
    s.tets = m.k.tets;
    s.tet = m.tets;
    s.tet_alpha = 1e-7;
    s.bodies = 1;
    s.body_begin = body;
    s.planes = 1;
    s.plane = &ground;
    s.max_contacts = 4096;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 2;
    cfg.iterations = 6;
    cfg.friction_static = 0.6;
    cfg.friction_dynamic = 0.4;
    cfg.relative_damping = 0.02;
    const xpbd_engine_options opt = {.tear_stretch = 0.3, .sleep_energy = 1e-3, .sleep_steps = 10};
    xpbd_engine_f64 *e = NULL;
    xpbd_replay_file rec;
    memset(&rec, 0, sizeof rec);
    ok = ok && xpbd_engine_create_f64(&e, &s, &cfg, &opt, NULL) == XPBD_OK &&
         xpbd_replay_record_begin_f64(&rec, e, 1.0 / 60) == XPBD_OK;
    uint32_t torn = 0, split = 0, slept = 0;
    for (int f = 0; ok && f < 240; ++f) {
        const uint32_t last = (uint32_t)n - 1;
        if (f == 5 || f == 18) { /* pin two opposite corners, later let them go */
            const xpbd_input a = {XPBD_INPUT_SET_INV_MASS, 0, 1, {f == 5 ? 0 : 20, 0, 0}};
            const xpbd_input b = {XPBD_INPUT_SET_INV_MASS, last, last + 1, {a.value[0], 0, 0}};
            ok = xpbd_replay_record_apply_f64(&rec, e, &a) == XPBD_OK &&
                 xpbd_replay_record_apply_f64(&rec, e, &b) == XPBD_OK;
        }
        if (f >= 10 && f < 18) { /* and drag them apart: their edges tear */
            const xpbd_input a = {XPBD_INPUT_TRANSLATE, 0, 1, {-drag, 0, -drag}};
            const xpbd_input b = {XPBD_INPUT_TRANSLATE, last, last + 1, {drag, 0, drag}};
            ok = ok && xpbd_replay_record_apply_f64(&rec, e, &a) == XPBD_OK &&
                 xpbd_replay_record_apply_f64(&rec, e, &b) == XPBD_OK;
        }
        ok = ok && xpbd_engine_step_f64(e, 1.0 / 60) >= 0;
        const xpbd_engine_counters *c = xpbd_engine_counters_f64(e);
        torn += c->torn;
        split += c->split;
        slept += c->fell_asleep;
    }
    ok = e && xpbd_replay_record_end_f64(&rec, e) == XPBD_OK && ok;
    ok = ok && replay_save(path, &rec);
    xpbd_replay_free(&rec);
    xpbd_engine_destroy_f64(e);
    free(w);
    free(r);
    xs_mesh_free(&m);
    printf("tet_box: %u torn, %u split, %u fell asleep\n", torn, split, slept);
    if (ok && (torn == 0 || slept == 0)) {
        fprintf(stderr, "replay_record: the tet box no longer tears and sleeps\n");
        return 1;
    }
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "cloth") == 0)
        return record_cloth(argv[2]);
    if (argc == 3 && strcmp(argv[1], "tet_box") == 0)
        return record_tet_box(argv[2]);
    fprintf(stderr, "usage: replay_record cloth|tet_box FILE\n");
    return 2;
}
