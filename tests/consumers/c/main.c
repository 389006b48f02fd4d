/* SPDX-License-Identifier: MIT */
/* Consumer of an installed xpbd: one S0 solve, checked against the SPEC's
 * first number (0.3333333333333335, bit for bit), and one task on the
 * default executor (so a static library links its OpenMP runtime in);
 * with XPBD_CONSUMER_IO (the CMake consumer, linking xpbd::io) one OBJ
 * triangle loaded from memory and a missing file refused, and a small
 * engine of its own recorded for a few frames with the installed replay
 * recorder (xpbd/replay.h), saved beside the program, loaded and replayed
 * bit for bit. Prints the library version and exits 0 on success. */
#include <xpbd/xpbd.h>
#include <xpbd/reference.h>
#ifdef XPBD_CONSUMER_IO
#include <xpbd/io.h>
#include <xpbd/replay.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void square(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    uint32_t *out = ctx;
    for (uint32_t i = begin; i < end; ++i)
        out[i] = i * i;
}

#ifdef XPBD_CONSUMER_IO
/* A pendulum of three particles (the first pinned) on the f32 engine,
 * recorded for 10 frames with a push before the 4th, saved to path, loaded
 * and replayed: 0 when the replay ends in the recorded state bit for bit. */
static int replay_own_engine(const char *path)
{
    const float xyz[9] = {0, 1, 0, 0.1f, 1, 0, 0.2f, 1, 0}, w[3] = {0, 1, 1};
    const uint32_t edge[4] = {0, 1, 1, 2};
    xpbd_scene_f32 scene;
    memset(&scene, 0, sizeof scene);
    scene.particles = 3;
    scene.xyz = xyz;
    scene.inv_mass = w;
    scene.edges = 2;
    scene.edge = edge;
    scene.edge_alpha = 1e-6;
    xpbd_engine_f32 *eng = NULL, *again = NULL;
    xpbd_replay_file rec, back;
    xpbd_replay_error err;
    memset(&back, 0, sizeof back);
    if (xpbd_engine_create_f32(&eng, &scene, NULL, NULL, NULL) != XPBD_OK ||
        xpbd_replay_record_begin_f32(&rec, eng, 1.0 / 60) != XPBD_OK) {
        fprintf(stderr, "xpbd-consumer: no engine to record\n");
        xpbd_engine_destroy_f32(eng);
        return 1;
    }
    const xpbd_input push = {XPBD_INPUT_ADD_VELOCITY, 1, 3, {0.5, 0, 0}};
    int ok = 1;
    for (int f = 0; ok && f < 10; ++f)
        ok = (f != 3 || xpbd_replay_record_apply_f32(&rec, eng, &push) == XPBD_OK) &&
             xpbd_engine_step_f32(eng, 1.0 / 60) == XPBD_OK;
    ok = ok && xpbd_replay_record_end_f32(&rec, eng) == XPBD_OK;
    if (!ok || xpbd_replay_save(path, &rec, &err) != XPBD_OK ||
        xpbd_replay_load(path, &back, &err) != XPBD_OK ||
        xpbd_replay_run_f32(&back, &again, &err) != XPBD_OK) {
        fprintf(stderr, "xpbd-consumer: replay of its own engine: %s\n", ok ? err.what : "");
        ok = 0;
    }
    if (ok) {
        const xpbd_particles_f32 *a = xpbd_engine_particles_f32(eng);
        const xpbd_particles_f32 *b = xpbd_engine_particles_f32(again);
        ok = back.frames == 10 && back.inputs == 1 && a->count == b->count &&
             memcmp(a->x, b->x, a->count * sizeof *a->x) == 0 &&
             memcmp(a->y, b->y, a->count * sizeof *a->y) == 0 &&
             memcmp(a->vx, b->vx, a->count * sizeof *a->vx) == 0 &&
             xpbd_replay_state_hash_f32(again) == back.hash &&
             back.hash == xpbd_replay_state_hash_f32(eng);
        if (!ok)
            fprintf(stderr, "xpbd-consumer: the replay of %s is not the recorded run\n", path);
    }
    xpbd_replay_free(&rec);
    xpbd_replay_free(&back);
    xpbd_engine_destroy_f32(eng);
    xpbd_engine_destroy_f32(again);
    remove(path);
    return ok ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    double a = 0, b = 2, lambda = 0;
    const xpbd_status st = xpbd_distance1d_solve(&a, &b, 1, 1, 1, 0.01, 0.1, &lambda);
    const double stretch = b - a - 1;
    const double want = strtod("0.3333333333333335", NULL);
    if (st != XPBD_OK || memcmp(&stretch, &want, sizeof want) != 0) {
        fprintf(stderr, "xpbd-consumer: status %s, stretch %.17g (%a), want %.17g\n",
                xpbd_status_str(st), stretch, stretch, want);
        return 1;
    }
    if (xpbd_version() != XPBD_VERSION_MAJOR * 10000u + XPBD_VERSION_MINOR * 100u +
                              XPBD_VERSION_PATCH) {
        fprintf(stderr, "xpbd-consumer: header and library versions differ\n");
        return 1;
    }
    const xpbd_executor *ex = xpbd_executor_default();
    if (ex) {
        static uint32_t out[1000];
        void *h = ex->enqueue(square, 1000, 10, ex->worker_count, out, ex->user_ctx);
        if (h)
            ex->finish(h, ex->user_ctx);
        for (uint32_t i = 0; i < 1000; ++i)
            if (out[i] != i * i) {
                fprintf(stderr, "xpbd-consumer: executor missed item %u\n", (unsigned)i);
                return 1;
            }
    }
#ifdef XPBD_CONSUMER_IO
    static const char obj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    xpbd_mesh_data mesh, none;
    xpbd_io_error err;
    if (xpbd_io_load_obj_mem(obj, sizeof obj - 1, NULL, &mesh, &err) != XPBD_OK) {
        fprintf(stderr, "xpbd-consumer: xpbd::io: %s\n", err.what);
        return 1;
    }
    const int loaded = mesh.particles == 3 && mesh.triangles == 1 && mesh.triangle[2] == 2;
    xpbd_mesh_data_free(&mesh);
    if (!loaded || xpbd_io_load_obj("no-such-file.obj", NULL, &none, &err) != XPBD_ERR_FILE) {
        fprintf(stderr, "xpbd-consumer: xpbd::io: a wrong triangle or no refusal (%s)\n", err.what);
        return 1;
    }
    printf("xpbd-consumer: xpbd::io loaded an OBJ triangle\n");
    char replay_path[4096];
    snprintf(replay_path, sizeof replay_path, "%s.xrp", argv[0]);
    if (replay_own_engine(replay_path) != 0)
        return 1;
    printf("xpbd-consumer: xpbd::io recorded, saved, loaded and replayed its own engine\n");
#endif
    printf("xpbd-consumer: xpbd %u, S0 stretch %.17g ok, default executor %s\n", xpbd_version(),
           stretch, ex ? "ran 1000 items" : "absent (built without OpenMP)");
    return 0;
}
