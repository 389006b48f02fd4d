/* SPDX-License-Identifier: MIT */
/* engine_tet_body: a soft tetrahedral box thrown onto the ground, run by the
 * engine (xpbd/engine.h) with tearing and sleeping on, until it sleeps.
 *
 * The engine copies the scene at create and owns the world from then on:
 * the host feeds it inputs between frames (what a replay logs), steps it
 * once per frame and reads its particles and counters back. Here a kick
 * lifts one side of the box, it lands on the plane y = 0, settles and falls
 * asleep: a sleeping body costs no solver time and its state no longer
 * changes. Exits 1 if the box never sleeps, sinks into the ground or a
 * frame fails. */
#include <xpbd/xpbd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_FRAMES = 600 };

static int simulate(size_t n, const float *xyz, const float *w, const float *radius, size_t m,
                    const uint32_t *pairs, size_t tets, const uint32_t *tet)
{
    xpbd_status st = XPBD_OK;
    xpbd_scene_f32 scene = {.particles = n, .xyz = xyz, .inv_mass = w,   /* copied at create */
                            .edges = m, .edge = pairs, .edge_alpha = 1e-7};
    scene.tets = tets;                      /* volume constraints: the box keeps its shape */
    scene.tet = tet;
    scene.radius = radius;                  /* radii: contacts and planes act */
    const xpbd_plane ground = {{0, 1, 0}, 0};  /* n . x + d >= 0: above y = 0 */
    scene.planes = 1;
    scene.plane = &ground;
    scene.max_contacts = 4 * n;             /* particle pairs the broad phase may find */
    const size_t body[2] = {0, n};          /* one body: it sleeps and wakes whole */
    scene.bodies = 1;
    scene.body_begin = body;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 2;
    cfg.friction_static = 0.5;              /* without friction it would slide forever */
    cfg.friction_dynamic = 0.4;

    const xpbd_engine_options opt = {.tear_stretch = 0.3, .sleep_energy = 1e-4};
    xpbd_engine_f32 *eng;                   /* opaque; NULL after a refused create */
    xpbd_where where;                       /* part, index, field: "distance", 7, none */
    if (xpbd_engine_create_f32(&eng, &scene, &cfg, &opt, &where) != XPBD_OK)
        return 1;                           /* refused as a step would refuse it */
    const xpbd_input poke = {XPBD_INPUT_ADD_VELOCITY, 0, 10, {0, 2, 0}};
    xpbd_engine_apply_f32(eng, &poke);      /* between frames: checked, what a replay logs */

    const xpbd_engine_counters *c = xpbd_engine_counters_f32(eng);
    int frame = 0, landed = -1;
    while (st >= 0 && frame < MAX_FRAMES && !c->sleeping) {
        st = xpbd_engine_step_f32(eng, 1.0 / 60);   /* a frame; refused: nothing changed */
        c = xpbd_engine_counters_f32(eng);  /* re-read after every step */
        if (landed < 0 && c->step.contact_hits > 0)
            landed = frame;
        ++frame;
    }
    if (st < 0)
        fprintf(stderr, "engine_tet_body: frame %d: %s\n", frame, xpbd_status_str(st));

    const xpbd_particles_f32 *view = xpbd_engine_particles_f32(eng); /* re-read after a step */
    printf("%u torn, x0 %g\n", xpbd_engine_counters_f32(eng)->torn, view->x[0]);
    double lowest = INFINITY;               /* the lowest particle's gap to the ground */
    for (size_t i = 0; i < view->count; ++i)
        if (view->y[i] - radius[i] < lowest)
            lowest = view->y[i] - radius[i];
    char line[512];
    xpbd_counters_format(c, line, sizeof line);  /* one line for a log or an overlay */
    printf("engine_tet_body: first contact at frame %d, asleep at frame %d\n", landed, frame);
    printf("engine_tet_body: %s\n", line);
    printf("engine_tet_body: lowest particle %.2g m from the ground\n", lowest);
    const int ok = st >= 0 && c->sleeping == 1 && landed > 0 && lowest > -0.01 && lowest < 0.01;
    xpbd_engine_destroy_f32(eng);
    return ok ? 0 : 1;
}

int main(void)
{
    /* 3 x 3 x 3 cubes of 10 cm, 6 tets each, the lowest corner 0.4 m up */
    const xpbd_box_desc desc = {.nx = 3, .ny = 3, .nz = 3, .spacing = 0.1, .origin = {0, 0.4, 0}};
    xpbd_mesh_counts k;
    if (xpbd_mesh_box(&desc, &k, NULL) != XPBD_OK)
        return 1;
    const size_t n = k.particles, m = k.edges;
    xpbd_mesh_out out = {.capacity = k};
    out.xyz32 = malloc(3 * n * sizeof *out.xyz32);
    out.edges = malloc(2 * m * sizeof *out.edges);
    out.tets = malloc(4 * k.tets * sizeof *out.tets);
    float *w = malloc(2 * n * sizeof *w), *radius = w ? w + n : NULL;
    int rc = 1;
    if (out.xyz32 && out.edges && out.tets && w &&
        xpbd_mesh_box(&desc, NULL, &out) == XPBD_OK) {
        for (size_t i = 0; i < n; ++i) {
            w[i] = 1 / 0.05f;  /* 50 g per particle */
            radius[i] = 0.03f; /* contact radius: below half the spacing */
        }
        float *xyz = out.xyz32;
        uint32_t *pairs = out.edges;
        rc = simulate(n, xyz, w, radius, m, pairs, k.tets, out.tets);
    }
    free(w);
    free(out.tets);
    free(out.edges);
    free(out.xyz32);
    return rc;
}
