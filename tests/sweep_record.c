/* SPDX-License-Identifier: MIT */
/* sweep_record: records the replay file the sweep tests vary.
 *
 *     sweep_record FILE
 *
 * A chain of 5 particles (0.1 m links of 1e-4 m/N, particle 0 pinned, 1 kg
 * each) on the f64 engine, 20 iterations, 60 frames of 1/60 s, with a host
 * input before frame 30 (particles 2..4 pushed sideways at 1 m/s). Prints
 * the final state's largest strain | |x1 - x0| / rest - 1 | over the links
 * (%.17g): what `xpbd-report sweep --scene replay:FILE` must find at the
 * recorded settings, and differs from without the input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <xpbd/replay.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sweep_record FILE\n");
        return 2;
    }
    enum { N = 5 };
    double xyz[3 * N], w[N];
    uint32_t edge[2 * (N - 1)];
    for (int i = 0; i < N; ++i) {
        xyz[3 * i] = xyz[3 * i + 2] = 0;
        xyz[3 * i + 1] = -0.1 * i;
        w[i] = i == 0 ? 0 : 1;
    }
    for (int i = 0; i + 1 < N; ++i) {
        edge[2 * i] = (uint32_t)i;
        edge[2 * i + 1] = (uint32_t)i + 1;
    }
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = N;
    s.xyz = xyz;
    s.inv_mass = w;
    s.edges = N - 1;
    s.edge = edge;
    s.edge_alpha = 1e-4;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = 20;
    xpbd_engine_f64 *e = NULL;
    if (xpbd_engine_create_f64(&e, &s, &cfg, NULL, NULL) != XPBD_OK)
        return 1;
    xpbd_replay_file rec;
    if (xpbd_replay_record_begin_f64(&rec, e, 1.0 / 60) != XPBD_OK) {
        fprintf(stderr, "sweep_record: out of memory\n");
        return 1;
    }
    int ok = 1;
    for (int f = 0; f < 60 && ok; ++f) {
        if (f == 30) {
            const xpbd_input push = {XPBD_INPUT_ADD_VELOCITY, 2, N, {1, 0, 0}};
            ok = xpbd_replay_record_apply_f64(&rec, e, &push) == XPBD_OK;
        }
        ok = ok && xpbd_engine_step_f64(e, 1.0 / 60) >= 0;
    }
    xpbd_replay_error err;
    ok = xpbd_replay_record_end_f64(&rec, e) == XPBD_OK && ok;
    if (ok && xpbd_replay_save(argv[1], &rec, &err) != XPBD_OK) {
        fprintf(stderr, "sweep_record: %s: %s\n", argv[1], err.what);
        ok = 0;
    }
    xpbd_replay_free(&rec);
    double mx = 0;
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(e);
    xpbd_scene_f64 v;
    xpbd_engine_scene_f64(e, &v);
    for (size_t k = 0; k < v.edges; ++k) {
        const uint32_t a = v.edge[2 * k], b = v.edge[2 * k + 1];
        const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
        mx = fmax(mx, fabs(sqrt(dx * dx + dy * dy + dz * dz) / v.edge_rest[k] - 1));
    }
    printf("%.17g\n", mx);
    xpbd_engine_destroy_f64(e);
    return ok ? 0 : 1;
}
