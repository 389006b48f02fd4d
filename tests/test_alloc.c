/* SPDX-License-Identifier: MIT */
/* xpbd-alloc-tests: every allocating entry point with its k-th allocation
 * failing, for every k up to the number it makes (counted on a clean run).
 * Each failure must return XPBD_ERR_NOMEM, leave the caller's state as the
 * entry point documents it (a builder's *out and an engine zeroed, a
 * refused tear's outputs those of XPBD_TEAR_KEEP_HINGES, a failed topology
 * rebuild's engine with its old sets and particles) and leak nothing: the
 * hooks count live blocks (alloc_fail.c), and under ASan LeakSanitizer
 * checks at exit as well.
 *
 * Linked against xpbd_allocfail, a test-only build of the library sources
 * with alloc_fail.h force-included (see there for why). */
#include <replay.h>
#include <xpbd/xpbd.h>

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern unsigned long xt_af_count, xt_af_fail_at;
extern long xt_af_live;

static unsigned long failures, checks;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        ++checks;                                                                             \
        if (!(cond)) {                                                                        \
            ++failures;                                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
        }                                                                                     \
    } while (0)

static int zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; ++k)
        if (b[k])
            return 0;
    return 1;
}

/* One entry point under test: setup (allocations allowed), the call, the
 * check of the caller's state after a failed call, release. */
typedef struct af_case {
    const char *name;
    void (*setup)(void *ctx);
    xpbd_status (*call)(void *ctx);
    int (*unchanged)(void *ctx);
    void (*release)(void *ctx);
} af_case;

/* Runs c cleanly to count its allocations, then once per k with the k-th
 * failing. Returns the count. */
static unsigned long af_run(const af_case *c, void *ctx)
{
    const long live0 = xt_af_live;
    c->setup(ctx);
    xt_af_count = 0;
    xt_af_fail_at = 0;
    const xpbd_status clean = c->call(ctx);
    const unsigned long count = xt_af_count;
    CHECK(clean >= 0, "%s: clean run returned %d (%s)", c->name, clean, xpbd_status_str(clean));
    CHECK(count > 0, "%s: no allocation counted", c->name);
    c->release(ctx);
    CHECK(xt_af_live == live0, "%s: clean run leaked %ld blocks", c->name, xt_af_live - live0);
    for (unsigned long k = 1; k <= count; ++k) {
        c->setup(ctx);
        xt_af_count = 0;
        xt_af_fail_at = k;
        const xpbd_status st = c->call(ctx);
        xt_af_fail_at = 0;
        CHECK(st == XPBD_ERR_NOMEM, "%s: allocation %lu of %lu failing gave %d (%s)", c->name, k,
              count, st, xpbd_status_str(st));
        CHECK(c->unchanged(ctx), "%s: allocation %lu of %lu failing changed the caller's state",
              c->name, k, count);
        c->release(ctx);
        CHECK(xt_af_live == live0, "%s: allocation %lu of %lu failing leaked %ld blocks", c->name,
              k, count, xt_af_live - live0);
    }
    printf("%-28s %lu allocations, each failed once\n", c->name, count);
    return count;
}

/* ------------------------------------------------------------ builders --- */

typedef struct build_ctx {
    int kind; /* 0 distance f32, 1 distance f64, 2 tets f64, 3 bends f32 */
    xpbd_distance_set_f32 d32;
    xpbd_distance_set_f64 d64;
    xpbd_quad_set_f64 q64;
    xpbd_quad_set_f32 q32;
    size_t bad;
} build_ctx;

/* A 3 x 2 x 2 box (tets, edges) and a 5 x 4 cloth (bends), generated once. */
static double box_xyz[3 * 64], cloth_xyz64[3 * 64];
static float cloth_xyz32[3 * 64];
static uint32_t box_edges[2 * 256], box_tets[4 * 96], cloth_bends[4 * 64], cloth_edges[2 * 64];
static xpbd_mesh_counts box_k, cloth_k;

static void meshes(void)
{
    const xpbd_box_desc bd = {3, 1, 1, 0.5, {0, 1, 0}, 6};
    xpbd_mesh_out out;
    memset(&out, 0, sizeof out);
    out.xyz64 = box_xyz;
    out.edges = box_edges;
    out.tets = box_tets;
    out.capacity = (xpbd_mesh_counts){64, 256, 0, 0, 96, 0};
    CHECK(xpbd_mesh_box(&bd, &box_k, &out) == XPBD_OK, "box mesh");
    const xpbd_cloth_desc cd = {5, 4, 0.25, {0, 2, 0}, {0, 0, 0}, {0, 0, 0}};
    memset(&out, 0, sizeof out);
    out.xyz64 = cloth_xyz64;
    out.xyz32 = cloth_xyz32;
    out.edges = cloth_edges;
    out.bends = cloth_bends;
    out.capacity = (xpbd_mesh_counts){64, 64, 0, 64, 0, 0};
    CHECK(xpbd_mesh_cloth(&cd, &cloth_k, &out) == XPBD_OK, "cloth mesh");
}

static void build_setup(void *p)
{
    build_ctx *c = p;
    memset(&c->d32, 0xa5, sizeof c->d32);
    memset(&c->d64, 0xa5, sizeof c->d64);
    memset(&c->q64, 0xa5, sizeof c->q64);
    memset(&c->q32, 0xa5, sizeof c->q32);
}

static xpbd_status build_call(void *p)
{
    build_ctx *c = p;
    uint32_t i0[128], i1[128];
    float r32[128], a32[128] = {0};
    double r64[128], a64[128] = {0};
    const size_t m = box_k.edges < 128 ? box_k.edges : 128;
    for (size_t e = 0; e < m; ++e) {
        i0[e] = box_edges[2 * e];
        i1[e] = box_edges[2 * e + 1];
        r32[e] = 0.5f;
        r64[e] = 0.5;
    }
    switch (c->kind) {
    case 0:
        return xpbd_distance_set_build_f32(&c->d32, box_k.particles, m, i0, i1, r32, a32, NULL,
                                           &c->bad);
    case 1:
        return xpbd_distance_set_build_f64(&c->d64, box_k.particles, m, i0, i1, r64, a64, NULL,
                                           &c->bad);
    case 2:
        return xpbd_tet_set_build_f64(&c->q64, box_k.particles, box_xyz, box_k.tets, box_tets,
                                      a64, NULL, &c->bad);
    default:
        return xpbd_bend_set_build_f32(&c->q32, cloth_k.particles, cloth_xyz32, cloth_k.bends,
                                       cloth_bends, a32, NULL, &c->bad);
    }
}

static int build_unchanged(void *p)
{
    build_ctx *c = p;
    switch (c->kind) {
    case 0: return zero(&c->d32, sizeof c->d32) && c->bad == SIZE_MAX;
    case 1: return zero(&c->d64, sizeof c->d64) && c->bad == SIZE_MAX;
    case 2: return zero(&c->q64, sizeof c->q64) && c->bad == SIZE_MAX;
    default: return zero(&c->q32, sizeof c->q32) && c->bad == SIZE_MAX;
    }
}

static void build_release(void *p)
{
    build_ctx *c = p;
    switch (c->kind) {
    case 0: xpbd_distance_set_free_f32(&c->d32); break;
    case 1: xpbd_distance_set_free_f64(&c->d64); break;
    case 2: xpbd_quad_set_free_f64(&c->q64); break;
    default: xpbd_quad_set_free_f32(&c->q32); break;
    }
}

/* -------------------------------------------------------------- engine --- */

typedef struct engine_ctx {
    int capacity;  /* options.max_particles */
    int step;      /* 0: create under test; 1: the tearing step under test */
    xpbd_engine_f64 *e;
    size_t count_before, edges_before;
} engine_ctx;

static double cloth_w[64], cloth_r[64];
static uint32_t cloth_anchor[64];
static double cloth_tlen[64];

static xpbd_scene_f64 cloth_scene(void)
{
    xpbd_scene_f64 sc;
    memset(&sc, 0, sizeof sc);
    sc.particles = cloth_k.particles;
    sc.xyz = cloth_xyz64;
    for (size_t i = 0; i < cloth_k.particles; ++i) {
        cloth_w[i] = i < 2 ? 0 : 1;
        cloth_r[i] = 0.05;
        cloth_anchor[i] = (uint32_t)i;
        cloth_tlen[i] = 10;
    }
    sc.inv_mass = cloth_w;
    sc.radius = cloth_r;
    sc.edges = cloth_k.edges;
    sc.edge = cloth_edges;
    sc.edge_alpha = 1e-7;
    sc.bends = cloth_k.bends;
    sc.bend = cloth_bends;
    sc.bend_alpha = 1e-2;
    sc.tether_anchor = cloth_anchor;
    sc.tether_length = cloth_tlen;
    static const xpbd_plane ground = {{0, 1, 0}, 0};
    sc.planes = 1;
    sc.plane = &ground;
    sc.max_contacts = 64;
    static const size_t bodies[2] = {0, 20};
    sc.bodies = 1;
    sc.body_begin = bodies;
    return sc;
}

static xpbd_status engine_create(engine_ctx *c)
{
    const xpbd_scene_f64 sc = cloth_scene();
    const xpbd_engine_options o = {.tear_stretch = 0.05, .sleep_energy = 1e-3, .sleep_steps = 5,
                                   .max_particles = c->capacity ? 64u : 0u};
    return xpbd_engine_create_f64(&c->e, &sc, NULL, &o, NULL);
}

static void engine_setup(void *p)
{
    engine_ctx *c = p;
    c->e = (xpbd_engine_f64 *)(uintptr_t)0x3c3c3c3c; /* create must set it (NULL on error) */
    if (!c->step)
        return;
    CHECK(engine_create(c) == XPBD_OK, "engine for the tearing step");
    /* pull a free corner far away: the next frame tears its edges */
    const xpbd_input pull = {XPBD_INPUT_TRANSLATE, 19, 20, {0, 0, 3}};
    CHECK(xpbd_engine_apply_f64(c->e, &pull) == XPBD_OK, "pull");
    c->count_before = xpbd_engine_particles_f64(c->e)->count;
    c->edges_before = xpbd_engine_world_f64(c->e)->constraints->count;
}

static xpbd_status engine_call(void *p)
{
    engine_ctx *c = p;
    if (!c->step)
        return engine_create(c);
    const xpbd_status st = xpbd_engine_step_f64(c->e, 1.0 / 60);
    CHECK(st < 0 || xpbd_engine_counters_f64(c->e)->torn > 0, "the step under test tore nothing");
    return st;
}

static int engine_unchanged(void *p)
{
    engine_ctx *c = p;
    if (!c->step)
        return c->e == NULL;
    /* the step is done without the topology change: old sets and particles
     * kept, and the engine steps on */
    const int kept = xpbd_engine_particles_f64(c->e)->count == c->count_before &&
                     xpbd_engine_world_f64(c->e)->constraints->count == c->edges_before;
    return kept && xpbd_engine_step_f64(c->e, 1.0 / 60) >= 0;
}

static void engine_release(void *p)
{
    engine_ctx *c = p;
    xpbd_engine_destroy_f64(c->e);
}

/* ---------------------------------------------------------- tear split --- */

typedef struct split_ctx {
    uint8_t torn[64], tet_drop[4], bend_drop[64];
    uint32_t edge_out[128], bend_out[256], split[256];
    size_t copies;
    uint8_t want_bend_drop[64];
    uint32_t want_edge_out[128], want_bend_out[256];
} split_ctx;

static void split_setup(void *p)
{
    split_ctx *c = p;
    memset(c->torn, 0, sizeof c->torn);
    /* tear every edge at particle 7 (interior of the 5 x 4 cloth) */
    for (size_t e = 0; e < cloth_k.edges; ++e)
        c->torn[e] = cloth_edges[2 * e] == 7 || cloth_edges[2 * e + 1] == 7 ||
                     cloth_edges[2 * e] == 12 || cloth_edges[2 * e + 1] == 12;
    memset(c->edge_out, 0xee, sizeof c->edge_out);
    memset(c->bend_out, 0xee, sizeof c->bend_out);
    memset(c->bend_drop, 0xee, sizeof c->bend_drop);
    c->copies = 12345;
}

static xpbd_status split_call_flags(split_ctx *c, unsigned flags, uint8_t *bend_drop,
                                    uint32_t *edge_out, uint32_t *bend_out)
{
    return xpbd_tear_split(cloth_k.particles, cloth_edges, cloth_k.edges, c->torn, NULL, 0,
                           cloth_bends, cloth_k.bends, flags, c->tet_drop, bend_drop, edge_out,
                           NULL, bend_out, c->split, 256, &c->copies);
}

static xpbd_status split_call(void *p)
{
    split_ctx *c = p;
    return split_call_flags(c, 0, c->bend_drop, c->edge_out, c->bend_out);
}

static int split_unchanged(void *p)
{
    split_ctx *c = p;
    /* outputs as for XPBD_TEAR_KEEP_HINGES, *copies 0 */
    size_t copies = c->copies;
    const size_t ne = 2 * cloth_k.edges, nb = 4 * cloth_k.bends;
    split_ctx want = *c;
    const xpbd_status st =
        split_call_flags(&want, XPBD_TEAR_KEEP_HINGES, want.want_bend_drop, want.want_edge_out,
                         want.want_bend_out);
    return st == XPBD_OK && copies == 0 &&
           memcmp(c->edge_out, want.want_edge_out, ne * sizeof(uint32_t)) == 0 &&
           memcmp(c->bend_out, want.want_bend_out, nb * sizeof(uint32_t)) == 0 &&
           memcmp(c->bend_drop, want.want_bend_drop, cloth_k.bends) == 0;
}

static void split_release(void *p)
{
    (void)p;
}

/* -------------------------------------------------------------- replay --- */

typedef struct replay_ctx {
    char path[64];
    xrp_file f;
    char err[256];
} replay_ctx;

static void replay_setup(void *p)
{
    replay_ctx *c = p;
    memset(&c->f, 0x5a, sizeof c->f);
}

static xpbd_status replay_call(void *p)
{
    replay_ctx *c = p;
    return xrp_load(c->path, &c->f, c->err, sizeof c->err);
}

static int replay_unchanged(void *p)
{
    replay_ctx *c = p;
    return c->f.n == 0 && c->f.particle == NULL && c->f.edge == NULL && c->f.input == NULL &&
           c->err[0] != 0;
}

static void replay_release(void *p)
{
    replay_ctx *c = p;
    xrp_free(&c->f);
}

/* Records a short run of the cloth engine (tearing, one input) to path. */
static int replay_record(const char *path)
{
    engine_ctx ec;
    memset(&ec, 0, sizeof ec);
    if (engine_create(&ec) != XPBD_OK)
        return 0;
    xrp_recorder rec;
    char err[256];
    int ok = xrp_record_begin_f64(&rec, path, ec.e, 1.0 / 60, err, sizeof err) == 0;
    const xpbd_input poke = {XPBD_INPUT_ADD_VELOCITY, 5, 9, {0, 1, 0}};
    ok = ok && xrp_record_apply_f64(&rec, ec.e, &poke) == XPBD_OK;
    for (int f = 0; ok && f < 3; ++f)
        ok = xpbd_engine_step_f64(ec.e, 1.0 / 60) >= 0;
    ok = xrp_record_end_f64(&rec, ec.e) == 0 && ok;
    xpbd_engine_destroy_f64(ec.e);
    return ok;
}

int main(void)
{
    meshes();
    const long live0 = xt_af_live;
    static const char *build_names[4] = {"distance_set_build_f32", "distance_set_build_f64",
                                         "tet_set_build_f64", "bend_set_build_f32"};
    for (int kind = 0; kind < 4; ++kind) {
        build_ctx c;
        memset(&c, 0, sizeof c);
        c.kind = kind;
        const af_case ac = {build_names[kind], build_setup, build_call, build_unchanged,
                            build_release};
        af_run(&ac, &c);
    }
    for (int cap = 0; cap < 2; ++cap) {
        engine_ctx c;
        memset(&c, 0, sizeof c);
        c.capacity = cap;
        const af_case create = {cap ? "engine_create_f64 (capacity)" : "engine_create_f64",
                                engine_setup, engine_call, engine_unchanged, engine_release};
        af_run(&create, &c);
        c.step = 1;
        const af_case step = {cap ? "engine_step_f64 tear (capacity)" : "engine_step_f64 tear",
                              engine_setup, engine_call, engine_unchanged, engine_release};
        af_run(&step, &c);
    }
    {
        split_ctx c;
        memset(&c, 0, sizeof c);
        const af_case ac = {"tear_split", split_setup, split_call, split_unchanged,
                            split_release};
        af_run(&ac, &c);
        CHECK(c.copies == 0 || c.copies < 256, "copies");
    }
    {
        replay_ctx c;
        memset(&c, 0, sizeof c);
        snprintf(c.path, sizeof c.path, "alloc_replay_%ld.xpbdr", (long)(size_t)&c % 100000);
        CHECK(replay_record(c.path), "recording %s", c.path);
        const af_case ac = {"xrp_load", replay_setup, replay_call, replay_unchanged,
                            replay_release};
        af_run(&ac, &c);
        remove(c.path);
    }
    CHECK(xt_af_live == live0, "%ld blocks live at the end", xt_af_live - live0);
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
