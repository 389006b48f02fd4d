/* SPDX-License-Identifier: MIT */
/* The world step's two-way coupling with host rigid bodies: a cloud of
 * particles thrown at a free rigid box (and sphere) inside the iteration
 * loop. The impulse the step returns for the host to apply is exactly the
 * opposite of the particles' momentum change (to rounding), and it is the
 * same on every ISA path. */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WN 64

typedef struct wt_cloud {
    double a[10][WN];
    double r[WN];
    xpbd_particles_f64 p;
} wt_cloud;

static void wt_init(wt_cloud *c, uint64_t seed)
{
    xt_rng rng = {seed};
    memset(c, 0, sizeof *c);
    for (int i = 0; i < WN; ++i) {
        c->a[0][i] = xt_range(&rng, -0.3, 0.3);     /* x */
        c->a[1][i] = 0.55 + xt_range(&rng, 0, 0.3); /* y: above the box top at 0.5 */
        c->a[2][i] = xt_range(&rng, -0.3, 0.3);     /* z */
        c->a[7][i] = -3 + xt_range(&rng, -0.5, 0);  /* vy: falling onto it */
        c->a[6][i] = xt_range(&rng, -0.5, 0.5);
        c->a[9][i] = xt_range(&rng, 0.5, 2); /* w */
        c->r[i] = 0.04;
    }
    c->p = (xpbd_particles_f64){WN,       c->a[0], c->a[1], c->a[2], c->a[3], c->a[4],
                                c->a[5], c->a[6], c->a[7], c->a[8], c->a[9]};
}

static void wt_momentum(const wt_cloud *c, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < WN; ++i)
        for (int k = 0; k < 3; ++k)
            out[k] += c->a[6 + k][i] / c->a[9][i];
}

static xpbd_rigid_f64 wt_box(double inv_mass)
{
    xpbd_rigid_f64 b;
    memset(&b, 0, sizeof b);
    b.shape = XPBD_RIGID_BOX;
    b.rot[0] = b.rot[4] = b.rot[8] = 1;
    b.half[0] = 0.5, b.half[1] = 0.5, b.half[2] = 0.5;
    b.inv_mass = inv_mass;
    /* a solid cube of mass 1/inv_mass: I = m (2 a)^2 / 6 on the diagonal */
    const double m = inv_mass > 0 ? 1 / inv_mass : 0;
    const double I = m * 1.0 / 6.0;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = I > 0 ? 1 / I : 0;
    return b;
}

/* Momentum: over each step the particles' momentum change is exactly the
 * opposite of the impulse handed to the host (no gravity, no other force;
 * measured ~1e-15 relative). The host integrates its box with that impulse,
 * so particles + box conserve momentum over the whole collision. A light
 * box (1 kg against ~80 kg of particles) is swept along and the particles
 * keep falling; a heavy one (1000 kg) stops them. */
static void world_rigid_momentum(void)
{
    const double inv_masses[2] = {1.0, 1e-3};
    double mean_vy[2] = {0, 0};
    for (int m = 0; m < 2; ++m) {
        wt_cloud c;
        wt_init(&c, 0x5eed0000ull + (uint64_t)m);
        xpbd_rigid_f64 box = wt_box(inv_masses[m]);
        double box_v[3] = {0, 0, 0};
        xpbd_rigid_impulse imp;
        xpbd_world_f64 w;
        memset(&w, 0, sizeof w);
        w.particles = &c.p;
        w.radius = c.r;
        w.rigids = &box;
        w.rigid_count = 1;
        w.rigid_impulse = &imp;
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.gravity[1] = 0;
        cfg.substeps = 4;
        cfg.iterations = 2;
        cfg.isa = xt_isa;
        const size_t bytes = xpbd_world_scratch_bytes_f64(WN, 0, 0);
        void *scratch = malloc(bytes);
        REQUIRE(scratch != NULL);
        uint32_t touched = 0;
        double p0[3];
        wt_momentum(&c, p0);
        const double h = 1.0 / 60;
        for (int f = 0; f < 30; ++f) {
            double before[3], after[3];
            wt_momentum(&c, before);
            REQUIRE(xpbd_world_step_f64(&cfg, h, &w, scratch, bytes, NULL) == XPBD_OK);
            wt_momentum(&c, after);
            for (int k = 0; k < 3; ++k) {
                const double dp = after[k] - before[k];
                /* what the particles gained, the body got with the other sign */
                ENSURE(fabs(dp + imp.linear[k]) <= 1e-12 * (1 + fabs(dp)));
                box_v[k] += box.inv_mass * imp.linear[k]; /* the host applies it */
                box.centre[k] += box_v[k] * h;
            }
            touched += imp.contacts;
        }
        double p1[3];
        wt_momentum(&c, p1);
        for (int k = 0; k < 3; ++k) /* particles + box, over the whole run */
            ENSURE(fabs(p1[k] + box_v[k] / box.inv_mass - p0[k]) <= 1e-9 * (1 + fabs(p0[k])));
        /* the heavy box is hit by every particle (measured 342 contacts
         * over the iterations); the light one flies off after the first
         * hits (60) */
        ENSURE(touched > (m ? (uint32_t)WN : 0u));
        for (int i = 0; i < WN; ++i)
            mean_vy[m] += c.a[7][i] / WN;
        free(scratch);
    }
    ENSURE(mean_vy[0] < -1);    /* light box: swept along, still falling */
    ENSURE(mean_vy[1] > -0.05); /* heavy box: stopped */
}

/* A bad body is refused before anything moves, with its index. */
static void world_rigid_bad(void)
{
    wt_cloud c, c0;
    wt_init(&c, 7);
    c0 = c;
    xpbd_rigid_f64 bodies[2] = {wt_box(1), wt_box(1)};
    bodies[1].half[2] = -1;
    xpbd_rigid_impulse imp[2];
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = &c.p;
    w.radius = c.r;
    w.rigids = bodies;
    w.rigid_count = 2;
    w.rigid_impulse = imp;
    xpbd_step_config cfg = xpbd_step_config_default();
    unsigned char scratch[1 << 14];
    REQUIRE(xpbd_world_scratch_bytes_f64(WN, 0, 0) <= sizeof scratch);
    xpbd_step_counters k;
    ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60, &w, scratch, sizeof scratch, &k),
                  XPBD_ERR_CONFIG);
    ENSURE_INT(k.bad_index, 1);
    ENSURE(memcmp(c.a, c0.a, sizeof c.a) == 0);
}

/* Springs with a plane that touches nothing: the contact pass acts on no
 * particle, so the result equals the same springs without the plane over
 * several substeps (the packed positions of the contact pass must not leak
 * into the next substep's spring forces). */
static void world_springs_idle_plane(void)
{
    enum { N = 40 };
    double a[2][10][N], r[N];
    for (int i = 0; i < N; ++i) {
        a[0][0][i] = 0.1 * i;        /* x: a chain along x, high above y = 0 */
        a[0][1][i] = 5 + 0.01 * (i % 3);
        a[0][2][i] = 0;
        for (int k = 3; k < 9; ++k)
            a[0][k][i] = 0;
        a[0][9][i] = i == 0 ? 0 : 1;
        r[i] = 0.01;
    }
    memcpy(a[1], a[0], sizeof a[0]);
    uint32_t i0[N - 1], i1[N - 1];
    double rest[N - 1], comp[N - 1];
    for (int e = 0; e < N - 1; ++e) {
        i0[e] = (uint32_t)e;
        i1[e] = (uint32_t)e + 1;
        rest[e] = 0.1;
        comp[e] = 1e-3;
    }
    xpbd_distance_set_f64 set[2];
    for (int v = 0; v < 2; ++v)
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&set[v], N, N - 1, i0, i1, rest, comp, NULL,
                                                   NULL),
                       XPBD_OK);
    xpbd_particles_f64 p[2];
    for (int v = 0; v < 2; ++v)
        p[v] = (xpbd_particles_f64){N,       a[v][0], a[v][1], a[v][2], a[v][3], a[v][4],
                                    a[v][5], a[v][6], a[v][7], a[v][8], a[v][9]};
    const xpbd_plane ground = {{0, 1, 0}, 0};
    xpbd_world_f64 w[2];
    memset(w, 0, sizeof w);
    for (int v = 0; v < 2; ++v) {
        w[v].particles = &p[v];
        w[v].constraints = &set[v];
    }
    w[1].radius = r;
    w[1].planes = &ground;
    w[1].plane_count = 1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = XPBD_SOLVER_SPRINGS;
    cfg.substeps = 4;
    static double scratch[1 << 12];
    REQUIRE(xpbd_world_scratch_bytes_f64(N, set[0].slots, 0) <= sizeof scratch);
    for (int f = 0; f < 5; ++f)
        for (int v = 0; v < 2; ++v)
            ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60, &w[v], scratch, sizeof scratch,
                                              NULL),
                          XPBD_OK);
    ENSURE(a[1][1][N - 1] < 5); /* it moved */
    /* the contact pass recomputes v = (x - p)/h from the positions, so the
     * two agree to rounding (1e-9 m, 1e-6 m/s), not bit for bit */
    for (int k = 0; k < 9; ++k)
        for (int i = 0; i < N; ++i)
            ENSURE_NEAR(a[1][k][i], a[0][k][i], k < 6 ? 1e-9 : 1e-6);
    xpbd_distance_set_free_f64(&set[0]);
    xpbd_distance_set_free_f64(&set[1]);
}


/* xpbd/executor.h: a threaded step makes ONE enqueue (the team) when some
 * stage may pay for a second worker, none for a smaller world. A host
 * executor that counts its enqueues and runs each task whole on the
 * caller steps a shear cloth of n x n particles at threads = 3: a 32 x 32
 * cloth makes none, a 96 x 96 cloth (a colour above the fork size but the
 * set too small for the team: stages once enqueued one by one) at most
 * one per step, a 140 x 140 cloth (19,600 particles, past the particle
 * passes' fork size) exactly one; each equals threads = 1 bit for bit. */
typedef struct wt_count_exec {
    unsigned enqueues;
} wt_count_exec;

static void *wt_count_enqueue(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                              uint32_t workers, void *task_ctx, void *user_ctx)
{
    (void)min_range;
    (void)workers;
    ((wt_count_exec *)user_ctx)->enqueues++;
    task(0, count, 0, task_ctx); /* the ranges one after another: the results stay the same */
    return NULL;
}

static void wt_count_finish(void *handle, void *user_ctx)
{
    (void)handle;
    (void)user_ctx;
}

static void wt_enqueues_at(uint32_t n, unsigned want_lo, unsigned want_hi)
{
    const xpbd_cloth_desc desc = {.nx = n, .ny = n, .spacing = 0.02};
    xpbd_mesh_counts k;
    REQUIRE_STATUS(xpbd_mesh_cloth(&desc, &k, NULL), XPBD_OK);
    const size_t np = k.particles, m = k.edges + k.shear;
    float *xyz = malloc(3 * np * sizeof *xyz), *rest = malloc(m * sizeof *rest);
    float *comp = malloc(m * sizeof *comp), *a[2];
    uint32_t *pairs = malloc(2 * m * sizeof *pairs);
    REQUIRE(xyz && rest && comp && pairs);
    const xpbd_mesh_out out = {.xyz32 = xyz, .edges = pairs, .shear = pairs + 2 * k.edges,
                               .capacity = k};
    REQUIRE_STATUS(xpbd_mesh_cloth(&desc, NULL, &out), XPBD_OK);
    xpbd_mesh_rest_lengths_f32(xyz, m, pairs, rest);
    uint32_t *i0 = malloc(m * sizeof *i0), *i1 = malloc(m * sizeof *i1);
    REQUIRE(i0 && i1);
    for (size_t e = 0; e < m; ++e) {
        i0[e] = pairs[2 * e];
        i1[e] = pairs[2 * e + 1];
        comp[e] = 1e-6f;
    }
    xpbd_distance_set_f32 set[2];
    xpbd_particles_f32 p[2];
    for (int v = 0; v < 2; ++v) {
        REQUIRE_STATUS(xpbd_distance_set_build_f32(&set[v], np, m, i0, i1, rest, comp, NULL, NULL),
                       XPBD_OK);
        a[v] = calloc(10 * np, sizeof *a[v]);
        REQUIRE(a[v]);
        for (size_t i = 0; i < np; ++i) {
            a[v][i] = xyz[3 * i];
            a[v][np + i] = xyz[3 * i + 1];
            a[v][2 * np + i] = xyz[3 * i + 2];
            a[v][9 * np + i] = i == 0 || i == n - 1 ? 0.0f : 1.0f; /* two pinned corners */
        }
        p[v] = (xpbd_particles_f32){np,          a[v],          a[v] + np,     a[v] + 2 * np,
                                    a[v] + 3 * np, a[v] + 4 * np, a[v] + 5 * np, a[v] + 6 * np,
                                    a[v] + 7 * np, a[v] + 8 * np, a[v] + 9 * np};
    }
    wt_count_exec counter = {0};
    const xpbd_executor ex = {wt_count_enqueue, wt_count_finish, 3, &counter};
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    cfg.iterations = 1;
    const size_t bytes = xpbd_step_scratch_bytes_f32(np, set[0].slots);
    void *scratch = malloc(bytes);
    REQUIRE(scratch);
    enum { FRAMES = 3 };
    for (int f = 0; f < FRAMES; ++f) {
        cfg.threads = 1;
        cfg.executor = NULL;
        ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &p[0], &set[0], scratch, bytes, NULL), XPBD_OK);
        cfg.threads = 3;
        cfg.executor = &ex;
        const unsigned before = counter.enqueues;
        ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &p[1], &set[1], scratch, bytes, NULL), XPBD_OK);
        const unsigned made = counter.enqueues - before;
        if ((made < want_lo || made > want_hi) && xt_fail_begin(__FILE__, __LINE__))
            fprintf(stderr, "%ux%u cloth: %u enqueues in a step, want %u..%u\n", n, n, made,
                    want_lo, want_hi);
    }
    ENSURE(a[0][np + np / 2] < xyz[3 * (np / 2) + 1]); /* it moved */
    ENSURE(xt_same_f32(a[0], a[1], 10 * np, "particles, threads 3 vs 1", __FILE__, __LINE__));
    ENSURE(xt_same_f32(set[0].lambda, set[1].lambda, set[0].slots, "lambda, threads 3 vs 1",
                       __FILE__, __LINE__));
    for (int v = 0; v < 2; ++v) {
        xpbd_distance_set_free_f32(&set[v]);
        free(a[v]);
    }
    free(scratch);
    free(i0);
    free(i1);
    free(pairs);
    free(comp);
    free(rest);
    free(xyz);
}

static void world_enqueues(void)
{
    wt_enqueues_at(32, 0, 0);
    wt_enqueues_at(96, 0, 1);
    wt_enqueues_at(140, 1, 1);
}

const xt_test xt_tests_world[] = {
    {"world.enqueues", world_enqueues},
    {"world.springs_idle_plane", world_springs_idle_plane},
    {"world.rigid_momentum", world_rigid_momentum},
    {"world.rigid_bad", world_rigid_bad},
    {NULL, NULL},
};
