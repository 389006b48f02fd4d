/* SPDX-License-Identifier: MIT */
/* xpbd-alloc-tests: every allocating entry point xpbd/base.h lists, with
 * its k-th allocation failing, for every k up to the number it makes
 * (counted on a clean run, which must count at least one). Each failure
 * must return XPBD_ERR_NOMEM, leave the caller's state as the entry point
 * documents it (a builder's *out and an engine zeroed, a refused tear's
 * outputs those of XPBD_TEAR_KEEP_HINGES, xpbd_tear_remove_*'s set bit for
 * bit, xpbd_mesh_locality_order_*'s outputs unwritten, xpbd_mesh_edges' and
 * xpbd_mesh_bends' unwritten with a count of 0, xpbd_mesh_scene_build_*'s
 * scene zeroed but its place, a failed topology
 * rebuild's engine with its old sets and particles, a failed sleep rebuild's
 * engine as it was before the step, but for the wake of a body the host
 * moved, and stepping on as if the failure had not happened) and leak
 * nothing: the hooks count live blocks (alloc_fail.c), and under ASan
 * LeakSanitizer checks at exit as well.
 *
 * Linked against xpbd_allocfail, a test-only build of the library sources
 * with alloc_fail.h force-included (see there for why). */
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
    printf("%-33s %lu allocations, each failed once\n", c->name, count);
    return count;
}

/* ------------------------------------------------------------ builders --- */

typedef struct build_ctx {
    int kind; /* 0 distance f32, 1 distance f64, 2 tets f64, 3 bends f32, 4 tets f32,
                 5 bends f64 */
    xpbd_distance_set_f32 d32;
    xpbd_distance_set_f64 d64;
    xpbd_quad_set_f64 q64;
    xpbd_quad_set_f32 q32;
    size_t bad;
} build_ctx;

/* A 3 x 2 x 2 box (tets, edges) and a 5 x 4 cloth (bends), generated once. */
static double box_xyz[3 * 64], cloth_xyz64[3 * 64];
static float cloth_xyz32[3 * 64], box_xyz32[3 * 64];
static uint32_t box_edges[2 * 256], box_tets[4 * 96], cloth_bends[4 * 64], cloth_edges[2 * 64];
static uint32_t cloth_tris[3 * 64];
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
    for (size_t k = 0; k < 3 * box_k.particles; ++k)
        box_xyz32[k] = (float)box_xyz[k];
    const xpbd_cloth_desc cd = {5, 4, 0.25, {0, 2, 0}, {0, 0, 0}, {0, 0, 0}};
    memset(&out, 0, sizeof out);
    out.xyz64 = cloth_xyz64;
    out.xyz32 = cloth_xyz32;
    out.edges = cloth_edges;
    out.bends = cloth_bends;
    out.triangles = cloth_tris;
    out.capacity = (xpbd_mesh_counts){64, 64, 0, 64, 0, 64};
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
    case 4:
        return xpbd_tet_set_build_f32(&c->q32, box_k.particles, box_xyz32, box_k.tets, box_tets,
                                      a32, NULL, &c->bad);
    case 5:
        return xpbd_bend_set_build_f64(&c->q64, cloth_k.particles, cloth_xyz64, cloth_k.bends,
                                       cloth_bends, a64, NULL, &c->bad);
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
    case 2:
    case 5: return zero(&c->q64, sizeof c->q64) && c->bad == SIZE_MAX;
    default: return zero(&c->q32, sizeof c->q32) && c->bad == SIZE_MAX;
    }
}

static void build_release(void *p)
{
    build_ctx *c = p;
    switch (c->kind) {
    case 0: xpbd_distance_set_free_f32(&c->d32); break;
    case 1: xpbd_distance_set_free_f64(&c->d64); break;
    case 2:
    case 5: xpbd_quad_set_free_f64(&c->q64); break;
    default: xpbd_quad_set_free_f32(&c->q32); break;
    }
}

/* -------------------------------------------------------------- engine --- */

typedef struct engine_ctx {
    int capacity;  /* options.max_particles */
    int step;      /* 0: create under test; 1: the tearing step under test */
    int box;       /* the box (tets; its tear splits vertices), not the cloth */
    xpbd_engine_f64 *e;
    size_t count_before, edges_before;
    const double *x_before; /* the particle arrays */
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

static double box_w[64], box_r[64];

/* The box, soft enough that pulling two particles tears it with splits. */
static xpbd_scene_f64 box_scene(void)
{
    xpbd_scene_f64 sc;
    memset(&sc, 0, sizeof sc);
    sc.particles = box_k.particles;
    sc.xyz = box_xyz;
    for (size_t i = 0; i < box_k.particles; ++i) {
        box_w[i] = 1;
        box_r[i] = 0.05;
    }
    sc.inv_mass = box_w;
    sc.radius = box_r;
    sc.edges = box_k.edges;
    sc.edge = box_edges;
    sc.edge_alpha = 1e-4;
    sc.tets = box_k.tets;
    sc.tet = box_tets;
    sc.tet_alpha = 1e-4;
    static const xpbd_plane ground = {{0, 1, 0}, 0};
    sc.planes = 1;
    sc.plane = &ground;
    sc.max_contacts = 64;
    return sc;
}

static xpbd_status engine_create(engine_ctx *c)
{
    const xpbd_scene_f64 sc = c->box ? box_scene() : cloth_scene();
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
    if (c->box) {
        /* pull particles 1 and 15 apart: the next frame tears 8 edges and
         * splits 2 vertices */
        const xpbd_input pull1 = {XPBD_INPUT_TRANSLATE, 1, 2, {0.9, 0, 0}};
        const xpbd_input pull15 = {XPBD_INPUT_TRANSLATE, 15, 16, {0.9, 0, 0}};
        CHECK(xpbd_engine_apply_f64(c->e, &pull1) == XPBD_OK &&
                  xpbd_engine_apply_f64(c->e, &pull15) == XPBD_OK,
              "pull");
    } else {
        /* pull a free corner far away: the next frame tears its edges */
        const xpbd_input pull = {XPBD_INPUT_TRANSLATE, 19, 20, {0, 0, 3}};
        CHECK(xpbd_engine_apply_f64(c->e, &pull) == XPBD_OK, "pull");
    }
    c->count_before = xpbd_engine_particles_f64(c->e)->count;
    c->x_before = xpbd_engine_particles_f64(c->e)->x;
    c->edges_before = xpbd_engine_world_f64(c->e)->constraints->count;
}

static xpbd_status engine_call(void *p)
{
    engine_ctx *c = p;
    if (!c->step)
        return engine_create(c);
    const xpbd_status st = xpbd_engine_step_f64(c->e, 1.0 / 60);
    CHECK(st < 0 || xpbd_engine_counters_f64(c->e)->torn > 0, "the step under test tore nothing");
    CHECK(st < 0 || !c->box || xpbd_engine_counters_f64(c->e)->split > 0,
          "the step under test split nothing");
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
                     xpbd_engine_particles_f64(c->e)->x == c->x_before &&
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
    int box; /* 0: the cloth (edges, bends; no vertex splits), 1: the box (edges, tets) */
    uint8_t torn[128], tet_drop[96], bend_drop[64];
    uint32_t edge_out[256], tet_out[4 * 96], bend_out[256], split[256];
    size_t copies, clean_copies;
    uint8_t want_tet_drop[96], want_bend_drop[64];
    uint32_t want_edge_out[256], want_tet_out[4 * 96], want_bend_out[256];
} split_ctx;

static void split_setup(void *p)
{
    split_ctx *c = p;
    memset(c->torn, 0, sizeof c->torn);
    if (c->box) {
        /* edges 0-1 and 9-13 of the 3 x 1 x 1 box: particle 9's link
         * falls apart, one copy (a grid cloth's link never does: its
         * neighbours are not joined, so the cloth case splits nothing) */
        for (size_t e = 0; e < box_k.edges; ++e) {
            const uint32_t a = box_edges[2 * e], b = box_edges[2 * e + 1];
            c->torn[e] = (a == 0 && b == 1) || (a == 1 && b == 0) || (a == 9 && b == 13) ||
                         (a == 13 && b == 9);
        }
    } else {
        /* tear every edge at particle 7 (interior of the 5 x 4 cloth) */
        for (size_t e = 0; e < cloth_k.edges; ++e)
            c->torn[e] = cloth_edges[2 * e] == 7 || cloth_edges[2 * e + 1] == 7 ||
                         cloth_edges[2 * e] == 12 || cloth_edges[2 * e + 1] == 12;
    }
    memset(c->edge_out, 0xee, sizeof c->edge_out);
    memset(c->tet_out, 0xee, sizeof c->tet_out);
    memset(c->bend_out, 0xee, sizeof c->bend_out);
    memset(c->tet_drop, 0xee, sizeof c->tet_drop);
    memset(c->bend_drop, 0xee, sizeof c->bend_drop);
    c->copies = 12345;
}

static xpbd_status split_call_flags(split_ctx *c, unsigned flags, uint8_t *tet_drop,
                                    uint8_t *bend_drop, uint32_t *edge_out, uint32_t *tet_out,
                                    uint32_t *bend_out)
{
    if (c->box)
        return xpbd_tear_split(box_k.particles, box_edges, box_k.edges, c->torn, box_tets,
                               box_k.tets, NULL, 0, flags, tet_drop, NULL, edge_out, tet_out,
                               NULL, c->split, 256, &c->copies);
    return xpbd_tear_split(cloth_k.particles, cloth_edges, cloth_k.edges, c->torn, NULL, 0,
                           cloth_bends, cloth_k.bends, flags, c->tet_drop, bend_drop, edge_out,
                           NULL, bend_out, c->split, 256, &c->copies);
}

static xpbd_status split_call(void *p)
{
    split_ctx *c = p;
    const xpbd_status st = split_call_flags(c, 0, c->tet_drop, c->bend_drop, c->edge_out,
                                            c->tet_out, c->bend_out);
    if (st == XPBD_OK)
        c->clean_copies = c->copies;
    return st;
}

static int split_unchanged(void *p)
{
    split_ctx *c = p;
    /* outputs as for XPBD_TEAR_KEEP_HINGES, *copies 0 */
    size_t copies = c->copies;
    const size_t ne = 2 * (c->box ? box_k.edges : cloth_k.edges);
    const size_t nt = c->box ? box_k.tets : 0, nb = c->box ? 0 : cloth_k.bends;
    split_ctx *want = malloc(sizeof *want);
    if (!want)
        return 0;
    *want = *c;
    const xpbd_status st = split_call_flags(want, XPBD_TEAR_KEEP_HINGES, want->want_tet_drop,
                                            want->want_bend_drop, want->want_edge_out,
                                            want->want_tet_out, want->want_bend_out);
    const int same =
        st == XPBD_OK && copies == 0 &&
        memcmp(c->edge_out, want->want_edge_out, ne * sizeof(uint32_t)) == 0 &&
        memcmp(c->tet_out, want->want_tet_out, 4 * nt * sizeof(uint32_t)) == 0 &&
        memcmp(c->bend_out, want->want_bend_out, 4 * nb * sizeof(uint32_t)) == 0 &&
        (!c->box || memcmp(c->tet_drop, want->want_tet_drop, nt) == 0) &&
        memcmp(c->bend_drop, want->want_bend_drop, nb) == 0;
    free(want);
    return same;
}

static void split_release(void *p)
{
    (void)p;
}

/* --------------------------------------------------------- tear remove --- */

/* xpbd_tear_remove_* on a set built from the box's edges (lambda written,
 * as a caller's solve would leave it): on error the set is left as it was,
 * its struct and every array bit for bit. */
typedef struct remove_ctx {
    int f64;
    xpbd_distance_set_f32 d32, s32; /* the set, and its struct as setup left it */
    xpbd_distance_set_f64 d64, s64;
    uint8_t remove[128];
    uint32_t kept[128];
    unsigned char arrays[16384]; /* its arrays as setup left them */
    size_t bytes;
} remove_ctx;

/* The set's arrays, one after another, into buf (NULL: only the size). */
static size_t remove_arrays(const remove_ctx *c, unsigned char *buf)
{
    const uint32_t slots = c->f64 ? c->d64.slots : c->d32.slots;
    const uint32_t colours = c->f64 ? c->d64.colours : c->d32.colours;
    const size_t r = c->f64 ? sizeof(double) : sizeof(float);
    const void *a[] = {c->f64 ? (const void *)c->d64.colour_begin : c->d32.colour_begin,
                       c->f64 ? (const void *)c->d64.colour_size : c->d32.colour_size,
                       c->f64 ? (const void *)c->d64.i0 : c->d32.i0,
                       c->f64 ? (const void *)c->d64.i1 : c->d32.i1,
                       c->f64 ? (const void *)c->d64.source : c->d32.source,
                       c->f64 ? (const void *)c->d64.rest : c->d32.rest,
                       c->f64 ? (const void *)c->d64.compliance : c->d32.compliance,
                       c->f64 ? (const void *)c->d64.lambda : c->d32.lambda};
    const size_t n[] = {4 * (colours + 1u), 4 * (size_t)colours, 4 * (size_t)slots,
                        4 * (size_t)slots,  4 * (size_t)slots,  r * slots,
                        r * slots,          r * slots};
    size_t at = 0;
    for (size_t k = 0; k < sizeof n / sizeof n[0]; ++k) {
        if (buf)
            memcpy(buf + at, a[k], n[k]);
        at += n[k];
    }
    return at;
}

static void remove_setup(void *p)
{
    remove_ctx *c = p;
    uint32_t i0[128], i1[128];
    float r32[128], a32[128] = {0};
    double r64[128], a64[128] = {0};
    const size_t m = box_k.edges < 128 ? box_k.edges : 128;
    for (size_t e = 0; e < m; ++e) {
        i0[e] = box_edges[2 * e];
        i1[e] = box_edges[2 * e + 1];
        r32[e] = 0.5f;
        r64[e] = 0.5;
        c->remove[e] = e % 3 == 1;
    }
    xpbd_status st;
    if (c->f64) {
        st = xpbd_distance_set_build_f64(&c->d64, box_k.particles, m, i0, i1, r64, a64, NULL,
                                         NULL);
        for (uint32_t s = 0; st == XPBD_OK && s < c->d64.slots; ++s)
            c->d64.lambda[s] = 0.25 + s;
        c->s64 = c->d64;
    } else {
        st = xpbd_distance_set_build_f32(&c->d32, box_k.particles, m, i0, i1, r32, a32, NULL,
                                         NULL);
        for (uint32_t s = 0; st == XPBD_OK && s < c->d32.slots; ++s)
            c->d32.lambda[s] = 0.25f + (float)s;
        c->s32 = c->d32;
    }
    CHECK(st == XPBD_OK, "set for tear_remove");
    c->bytes = remove_arrays(c, NULL);
    CHECK(c->bytes <= sizeof c->arrays, "tear_remove snapshot: %zu bytes", c->bytes);
    if (c->bytes <= sizeof c->arrays)
        remove_arrays(c, c->arrays);
    memset(c->kept, 0xee, sizeof c->kept);
}

static xpbd_status remove_call(void *p)
{
    remove_ctx *c = p;
    const xpbd_status st =
        c->f64 ? xpbd_tear_remove_f64(&c->d64, box_k.particles, c->remove, NULL, c->kept)
               : xpbd_tear_remove_f32(&c->d32, box_k.particles, c->remove, NULL, c->kept);
    if (st == XPBD_OK) {
        size_t left = 0;
        for (size_t e = 0; e < box_k.edges; ++e)
            left += !c->remove[e];
        CHECK((c->f64 ? c->d64.count : c->d32.count) == left, "tear_remove kept %zu", left);
    }
    return st;
}

static int remove_unchanged(void *p)
{
    remove_ctx *c = p;
    static unsigned char now[sizeof c->arrays];
    const int same = c->f64 ? memcmp(&c->d64, &c->s64, sizeof c->d64) == 0
                            : memcmp(&c->d32, &c->s32, sizeof c->d32) == 0;
    return same && c->bytes <= sizeof now && remove_arrays(c, now) == c->bytes &&
           memcmp(now, c->arrays, c->bytes) == 0;
}

static void remove_release(void *p)
{
    remove_ctx *c = p;
    if (c->f64)
        xpbd_distance_set_free_f64(&c->d64);
    else
        xpbd_distance_set_free_f32(&c->d32);
}

/* ------------------------------------------------------ locality order --- */

/* xpbd_mesh_locality_order_* over the box (f64) and the cloth (f32):
 * XPBD_ERR_NOMEM writes nothing (order, where, *bad_index). */
typedef struct order_ctx {
    int f64;
    uint32_t order[64], where[64];
    size_t bad;
} order_ctx;

static void order_setup(void *p)
{
    order_ctx *c = p;
    memset(c->order, 0xee, sizeof c->order);
    memset(c->where, 0xee, sizeof c->where);
    c->bad = 12345;
}

static xpbd_status order_call(void *p)
{
    order_ctx *c = p;
    return c->f64 ? xpbd_mesh_locality_order_f64(box_xyz, box_k.particles, c->order, c->where,
                                                 &c->bad)
                  : xpbd_mesh_locality_order_f32(cloth_xyz32, cloth_k.particles, c->order,
                                                 c->where, &c->bad);
}

static int order_unchanged(void *p)
{
    order_ctx *c = p;
    order_ctx want;
    order_setup(&want);
    return memcmp(c->order, want.order, sizeof c->order) == 0 &&
           memcmp(c->where, want.where, sizeof c->where) == 0 && c->bad == want.bad;
}

static void order_release(void *p)
{
    (void)p;
}

/* ----------------------------------------------------- mesh topology --- */

/* xpbd_mesh_edges over the box's tets, xpbd_mesh_bends over the cloth's
 * triangles (XPBD_ERR_NOMEM: nothing written, *count 0), and
 * xpbd_mesh_scene_build_* of the box (f64: tets, edges, masses, a pin) and
 * of the cloth (f32: triangles, edges, bends and their angles): *out all
 * zero but its place (NONE, SIZE_MAX). */
typedef struct topo_ctx {
    int kind; /* 0 edges, 1 bends, 2 scene f64 (box), 3 scene f32 (cloth) */
    uint32_t out[4 * 256];
    size_t count, bad;
    xpbd_mesh_scene_f64 s64;
    xpbd_mesh_scene_f32 s32;
} topo_ctx;

static void topo_setup(void *p)
{
    topo_ctx *c = p;
    memset(c->out, 0xee, sizeof c->out);
    c->count = 12345;
    c->bad = 12345;
    memset(&c->s64, 0xa5, sizeof c->s64);
    memset(&c->s32, 0xa5, sizeof c->s32);
}

static xpbd_status topo_call(void *p)
{
    topo_ctx *c = p;
    const xpbd_mesh_select top = {1, XPBD_MESH_GREATER_EQUAL, 1, 1};
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.density = 1000;
    o.surface_density = 0.2;
    o.pin_wheres = 1;
    o.pin_where = &top;
    xpbd_mesh_data m;
    memset(&m, 0, sizeof m);
    switch (c->kind) {
    case 0:
        return xpbd_mesh_edges(box_k.particles, box_tets, box_k.tets, 4, c->out, 256, &c->count,
                               &c->bad);
    case 1:
        return xpbd_mesh_bends(cloth_k.particles, cloth_tris, cloth_k.triangles, 0, c->out, 256,
                               &c->count, NULL, &c->bad, NULL);
    case 2:
        m.particles = box_k.particles;
        m.xyz = box_xyz;
        m.tets = box_k.tets;
        m.tet = box_tets;
        return xpbd_mesh_scene_build_f64(&c->s64, &m, &o);
    default:
        m.particles = cloth_k.particles;
        m.xyz = cloth_xyz64;
        m.triangles = cloth_k.triangles;
        m.triangle = cloth_tris;
        return xpbd_mesh_scene_build_f32(&c->s32, &m, &o);
    }
}

static int topo_unchanged(void *p)
{
    topo_ctx *c = p;
    if (c->kind < 2) {
        int untouched = 1;
        for (size_t k = 0; k < sizeof c->out / sizeof c->out[0]; ++k)
            untouched &= c->out[k] == 0xeeeeeeeeu;
        return untouched && c->count == 0;
    }
    if (c->kind == 2) {
        xpbd_mesh_scene_f64 want;
        memset(&want, 0, sizeof want);
        want.bad_index = SIZE_MAX;
        return memcmp(&c->s64, &want, sizeof want) == 0;
    }
    xpbd_mesh_scene_f32 want;
    memset(&want, 0, sizeof want);
    want.bad_index = SIZE_MAX;
    return memcmp(&c->s32, &want, sizeof want) == 0;
}

static void topo_release(void *p)
{
    topo_ctx *c = p;
    if (c->kind == 2)
        xpbd_mesh_scene_free_f64(&c->s64);
    if (c->kind == 3)
        xpbd_mesh_scene_free_f32(&c->s32);
}

/* --------------------------------------------------------- order check --- */

/* xpbd_order_check_* on the cloth scene for 3 frames: the status is the
 * engine's (here XPBD_ERR_NOMEM), the scene's arrays are only read, and
 * *out is zeroed (the function clears it before anything else). */
typedef struct check_ctx {
    int f64;
    xpbd_order_report out;
} check_ctx;

static float cloth_w32[64], cloth_r32[64], cloth_tlen32[64];

static xpbd_scene_f32 cloth_scene32(void)
{
    const xpbd_scene_f64 s = cloth_scene();
    xpbd_scene_f32 sc;
    memset(&sc, 0, sizeof sc);
    for (size_t i = 0; i < cloth_k.particles; ++i) {
        cloth_w32[i] = (float)cloth_w[i];
        cloth_r32[i] = (float)cloth_r[i];
        cloth_tlen32[i] = (float)cloth_tlen[i];
    }
    sc.particles = s.particles;
    sc.xyz = cloth_xyz32;
    sc.inv_mass = cloth_w32;
    sc.radius = cloth_r32;
    sc.edges = s.edges;
    sc.edge = s.edge;
    sc.edge_alpha = s.edge_alpha;
    sc.bends = s.bends;
    sc.bend = s.bend;
    sc.bend_alpha = s.bend_alpha;
    sc.tether_anchor = s.tether_anchor;
    sc.tether_length = cloth_tlen32;
    sc.planes = s.planes;
    sc.plane = s.plane;
    sc.max_contacts = s.max_contacts;
    sc.bodies = s.bodies;
    sc.body_begin = s.body_begin;
    return sc;
}

/* The scene's input arrays, which order_check must only read. */
static uint64_t check_inputs(void)
{
    const void *a[] = {cloth_xyz64, cloth_xyz32, cloth_edges, cloth_bends, cloth_w, cloth_w32};
    const size_t n[] = {sizeof cloth_xyz64, sizeof cloth_xyz32, sizeof cloth_edges,
                        sizeof cloth_bends, sizeof cloth_w,     sizeof cloth_w32};
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < sizeof n / sizeof n[0]; ++k)
        for (size_t b = 0; b < n[k]; ++b)
            h = (h ^ ((const unsigned char *)a[k])[b]) * 0x100000001b3ull;
    return h;
}

static uint64_t check_hash;

static void check_setup(void *p)
{
    check_ctx *c = p;
    memset(&c->out, 0x5a, sizeof c->out);
    check_hash = check_inputs();
}

static xpbd_status check_call(void *p)
{
    check_ctx *c = p;
    xpbd_status st;
    if (c->f64) {
        const xpbd_scene_f64 sc = cloth_scene();
        st = xpbd_order_check_f64(&sc, NULL, 1.0 / 60, 3, 7, &c->out);
    } else {
        const xpbd_scene_f32 sc = cloth_scene32();
        st = xpbd_order_check_f32(&sc, NULL, 1.0 / 60, 3, 7, &c->out);
    }
    if (st == XPBD_OK)
        CHECK(c->out.frames == 3 && c->out.extent > 0, "order_check report");
    return st;
}

static int check_unchanged(void *p)
{
    check_ctx *c = p;
    return zero(&c->out, sizeof c->out) && check_inputs() == check_hash;
}

static void check_release(void *p)
{
    (void)p;
}

/* --------------------------------------------------- engine create f32 --- */

/* xpbd_engine_create_f32 on the cloth scene (f64: engine_ctx above): on
 * error nothing stays allocated and *out is NULL. */
typedef struct create32_ctx {
    int capacity;
    xpbd_engine_f32 *e;
} create32_ctx;

static void create32_setup(void *p)
{
    create32_ctx *c = p;
    c->e = (xpbd_engine_f32 *)(uintptr_t)0x3c3c3c3c; /* create must set it (NULL on error) */
}

static xpbd_status create32_call(void *p)
{
    create32_ctx *c = p;
    const xpbd_scene_f32 sc = cloth_scene32();
    const xpbd_engine_options o = {.tear_stretch = 0.05, .sleep_energy = 1e-3, .sleep_steps = 5,
                                   .max_particles = c->capacity ? 64u : 0u};
    return xpbd_engine_create_f32(&c->e, &sc, NULL, &o, NULL);
}

static int create32_unchanged(void *p)
{
    const create32_ctx *c = p;
    return c->e == NULL;
}

static void create32_release(void *p)
{
    create32_ctx *c = p;
    xpbd_engine_destroy_f32(c->e);
}

/* --------------------------------------------- the sleep rebuild step --- */

/* Two copies of the cloth side by side, each a body: A (the first
 * cloth_k.particles) pinned, so calm from its first frame, and B falling.
 * With sleep_steps 1, A falls asleep at the end of frame 1 and frame 2
 * rebuilds the sets without A's constraints; woken after frame 2 (by
 * XPBD_INPUT_WAKE, or by the host moving it), A's constraints come back in
 * frame 3's rebuild. The step under test is the one that rebuilds: on
 * XPBD_ERR_NOMEM before anything is stepped, old sets kept (engine.h). The
 * check: particles, counters, sets and sleep state bit for bit as setup
 * left them, and the next step (the rebuild tried again) gives what the
 * same engine gives without the failure. */
enum { SL_MAX = 128 };
static double sl_xyz64[3 * SL_MAX], sl_w64[SL_MAX], sl_r64[SL_MAX];
static float sl_xyz32[3 * SL_MAX], sl_w32[SL_MAX], sl_r32[SL_MAX];
static uint32_t sl_edge[4 * 64], sl_bend[8 * 64];
static size_t sl_body[3];

static void sleep_meshes(void)
{
    const size_t n = cloth_k.particles;
    for (size_t i = 0; i < 2 * n; ++i) {
        for (int k = 0; k < 3; ++k)
            sl_xyz64[3 * i + k] = cloth_xyz64[3 * (i % n) + k] + (k == 0 && i >= n ? 3.0 : 0.0);
        sl_w64[i] = i < n ? 0 : 1;
        sl_r64[i] = 0.05;
        sl_xyz32[3 * i] = (float)sl_xyz64[3 * i];
        sl_xyz32[3 * i + 1] = (float)sl_xyz64[3 * i + 1];
        sl_xyz32[3 * i + 2] = (float)sl_xyz64[3 * i + 2];
        sl_w32[i] = (float)sl_w64[i];
        sl_r32[i] = (float)sl_r64[i];
    }
    for (size_t k = 0; k < 2 * cloth_k.edges; ++k)
        sl_edge[k] = cloth_edges[k];
    for (size_t k = 0; k < 2 * cloth_k.edges; ++k)
        sl_edge[2 * cloth_k.edges + k] = cloth_edges[k] + (uint32_t)n;
    for (size_t k = 0; k < 4 * cloth_k.bends; ++k)
        sl_bend[k] = cloth_bends[k];
    for (size_t k = 0; k < 4 * cloth_k.bends; ++k)
        sl_bend[4 * cloth_k.bends + k] = cloth_bends[k] + (uint32_t)n;
    sl_body[0] = 0;
    sl_body[1] = n;
    sl_body[2] = 2 * n;
}

typedef struct sleep_ctx {
    int f64;
    int wake; /* 0: A falls asleep; 1: woken by XPBD_INPUT_WAKE; 2: by a host move */
    xpbd_engine_f32 *e32;
    xpbd_engine_f64 *e64;
    unsigned char before[32768]; /* sleep_state() as setup left it */
    size_t bytes;
    xpbd_engine_counters counters; /* and the counters' bytes */
    const void *sets[3];           /* the world's sets (pointers) */
    const char *name;
    char differs[256];             /* the parts found changed */
} sleep_ctx;

static const xpbd_engine_options sleep_options = {.sleep_energy = 1e-3, .sleep_steps = 1};

/* The two-cloth scene of either precision (P: 32 or 64). */
#define SL_SCENE(sc, P)                                                                       \
    do {                                                                                      \
        memset(&(sc), 0, sizeof(sc));                                                         \
        (sc).particles = 2 * cloth_k.particles;                                               \
        (sc).xyz = sl_xyz##P;                                                                 \
        (sc).inv_mass = sl_w##P;                                                              \
        (sc).radius = sl_r##P;                                                                \
        (sc).edges = 2 * cloth_k.edges;                                                       \
        (sc).edge = sl_edge;                                                                  \
        (sc).edge_alpha = 1e-7;                                                               \
        (sc).bends = 2 * cloth_k.bends;                                                       \
        (sc).bend = sl_bend;                                                                  \
        (sc).bend_alpha = 1e-2;                                                               \
        (sc).max_contacts = 64;                                                               \
        (sc).bodies = 2;                                                                      \
        (sc).body_begin = sl_body;                                                            \
    } while (0)

static xpbd_status sleep_create(sleep_ctx *c)
{
    if (c->f64) {
        xpbd_scene_f64 sc;
        SL_SCENE(sc, 64);
        return xpbd_engine_create_f64(&c->e64, &sc, NULL, &sleep_options, NULL);
    }
    xpbd_scene_f32 sc;
    SL_SCENE(sc, 32);
    return xpbd_engine_create_f32(&c->e32, &sc, NULL, &sleep_options, NULL);
}
#undef SL_SCENE

static xpbd_status sleep_step(sleep_ctx *c)
{
    return c->f64 ? xpbd_engine_step_f64(c->e64, 1.0 / 60) : xpbd_engine_step_f32(c->e32, 1.0 / 60);
}

static const xpbd_engine_counters *sleep_counters(const sleep_ctx *c)
{
    return c->f64 ? xpbd_engine_counters_f64(c->e64) : xpbd_engine_counters_f32(c->e32);
}

static uint32_t sleep_distance(const sleep_ctx *c)
{
    if (c->f64) {
        const xpbd_world_f64 *w = xpbd_engine_world_f64(c->e64);
        return w->constraints ? w->constraints->count : 0;
    }
    const xpbd_world_f32 *w = xpbd_engine_world_f32(c->e32);
    return w->constraints ? w->constraints->count : 0;
}

/* Appends n bytes at p to buf at *at (NULL p: n zero bytes). */
static void sleep_put(unsigned char *buf, size_t *at, size_t cap, const void *p, size_t n)
{
    if (*at + n <= cap) {
        if (p)
            memcpy(buf + *at, p, n);
        else
            memset(buf + *at, 0, n);
    }
    *at += n;
}

#define SL_PUT(x) sleep_put(buf, &at, cap, &(x), sizeof(x))
#define SL_ARR(p, n) sleep_put(buf, &at, cap, (p), (size_t)(n) * sizeof *(p))
#define SL_U32(v)                                                                             \
    do {                                                                                      \
        const uint32_t u_ = (v);                                                              \
        SL_PUT(u_);                                                                           \
    } while (0)
/* a distance set d and a bending set q (either precision; may be NULL) */
#define SL_SETS(d, q)                                                                         \
    do {                                                                                      \
        SL_U32((d) ? (d)->count : 0);                                                         \
        SL_U32((d) ? (d)->slots : 0);                                                         \
        SL_U32((d) ? (d)->colours : 0);                                                       \
        if (d) {                                                                              \
            SL_ARR((d)->i0, (d)->slots);                                                      \
            SL_ARR((d)->i1, (d)->slots);                                                      \
            SL_ARR((d)->source, (d)->slots);                                                  \
            SL_ARR((d)->rest, (d)->slots);                                                    \
            SL_ARR((d)->compliance, (d)->slots);                                              \
            SL_ARR((d)->lambda, (d)->slots);                                                  \
        }                                                                                     \
        SL_U32((q) ? (q)->count : 0);                                                         \
        SL_U32((q) ? (q)->slots : 0);                                                         \
        if (q) {                                                                              \
            SL_ARR((q)->i0, (q)->slots);                                                      \
            SL_ARR((q)->source, (q)->slots);                                                  \
            SL_ARR((q)->lambda, (q)->slots);                                                  \
        }                                                                                     \
    } while (0)

/* The engine's state in one buffer, without its pointers (comparable
 * across engines): parts[] get where its parts (SL_PARTS) start. */
enum { SL_PARTICLES, SL_COUNTERS, SL_WOKE, SL_SETS, SL_SLEEP, SL_PARTS };

static size_t sleep_state(const sleep_ctx *c, unsigned char *buf, size_t cap,
                          size_t parts[SL_PARTS])
{
    size_t at = 0;
    parts[SL_PARTICLES] = at;
    if (c->f64) {
        const xpbd_particles_f64 *p = xpbd_engine_particles_f64(c->e64);
        const double *a[] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
        SL_PUT(p->count);
        for (int k = 0; k < 10; ++k)
            SL_ARR(a[k], p->count);
    } else {
        const xpbd_particles_f32 *p = xpbd_engine_particles_f32(c->e32);
        const float *a[] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
        SL_PUT(p->count);
        for (int k = 0; k < 10; ++k)
            SL_ARR(a[k], p->count);
    }
    parts[SL_COUNTERS] = at;
    const xpbd_engine_counters *k = sleep_counters(c);
    SL_PUT(k->frame);
    SL_PUT(k->solved);
    SL_PUT(k->skipped);
    SL_PUT(k->degenerate);
    SL_PUT(k->max_residual);
    SL_PUT(k->colours);
    SL_PUT(k->colours_distance);
    SL_PUT(k->colours_tets);
    SL_PUT(k->colours_bends);
    SL_PUT(k->bodies);
    SL_PUT(k->sleeping);
    SL_PUT(k->fell_asleep);
    SL_PUT(k->torn);
    SL_PUT(k->split);
    SL_PUT(k->split_dropped);
    SL_PUT(k->distance);
    SL_PUT(k->max_stretch);
    SL_PUT(k->volume_error);
    SL_PUT(k->step.substeps);
    SL_PUT(k->step.iterations);
    SL_PUT(k->step.solves);
    SL_PUT(k->step.contacts);
    SL_PUT(k->step.status);
    parts[SL_WOKE] = at;
    SL_PUT(k->woke);
    parts[SL_SETS] = at;
    if (c->f64) {
        const xpbd_world_f64 *w = xpbd_engine_world_f64(c->e64);
        SL_SETS(w->constraints, w->bends);
    } else {
        const xpbd_world_f32 *w = xpbd_engine_world_f32(c->e32);
        SL_SETS(w->constraints, w->bends);
    }
    parts[SL_SLEEP] = at;
    if (c->f64) {
        xpbd_scene_f64 s;
        xpbd_engine_scene_f64(c->e64, &s);
        SL_PUT(s.frame);
        SL_PUT(s.bodies);
        SL_ARR(s.asleep, s.bodies);
        SL_ARR(s.calm, s.bodies);
        SL_ARR(s.signature, s.bodies);
    } else {
        xpbd_scene_f32 s;
        xpbd_engine_scene_f32(c->e32, &s);
        SL_PUT(s.frame);
        SL_PUT(s.bodies);
        SL_ARR(s.asleep, s.bodies);
        SL_ARR(s.calm, s.bodies);
        SL_ARR(s.signature, s.bodies);
    }
    return at;
}

#undef SL_PUT
#undef SL_ARR
#undef SL_U32
#undef SL_SETS

/* The world's set pointers (the old sets kept: the same blocks). */
static void sleep_sets(const sleep_ctx *c, const void *sets[3])
{
    if (c->f64) {
        const xpbd_world_f64 *w = xpbd_engine_world_f64(c->e64);
        sets[0] = w->constraints ? w->constraints->block_ : NULL;
        sets[1] = w->tets ? w->tets->block_ : NULL;
        sets[2] = w->bends ? w->bends->block_ : NULL;
    } else {
        const xpbd_world_f32 *w = xpbd_engine_world_f32(c->e32);
        sets[0] = w->constraints ? w->constraints->block_ : NULL;
        sets[1] = w->tets ? w->tets->block_ : NULL;
        sets[2] = w->bends ? w->bends->block_ : NULL;
    }
}

/* Frames up to the one that rebuilds (engine c, failures off). */
static int sleep_ready(sleep_ctx *c)
{
    c->e32 = NULL;
    c->e64 = NULL;
    if (sleep_create(c) != XPBD_OK || sleep_step(c) < 0)
        return 0;
    const uint32_t all = 2 * (uint32_t)cloth_k.edges;
    if (sleep_distance(c) != all || sleep_counters(c)->fell_asleep != 1)
        return 0; /* A fell asleep at the end of frame 1; its sets not rebuilt yet */
    if (!c->wake)
        return 1;
    if (sleep_step(c) < 0 || sleep_distance(c) != all / 2)
        return 0;
    const xpbd_input in = c->wake == 1
                              ? (xpbd_input){XPBD_INPUT_WAKE, 0, 0, {0, 0, 0}}
                              : (xpbd_input){XPBD_INPUT_TRANSLATE, 0,
                                             (uint32_t)cloth_k.particles, {0, 0.1, 0}};
    return (c->f64 ? xpbd_engine_apply_f64(c->e64, &in) : xpbd_engine_apply_f32(c->e32, &in)) ==
           XPBD_OK;
}

static void sleep_setup(void *p)
{
    sleep_ctx *c = p;
    CHECK(sleep_ready(c), "engine before the sleep rebuild (%s, wake %d)", c->f64 ? "f64" : "f32",
          c->wake);
    size_t parts[SL_PARTS];
    c->bytes = sleep_state(c, c->before, sizeof c->before, parts);
    CHECK(c->bytes <= sizeof c->before, "sleep snapshot: %zu bytes", c->bytes);
    c->counters = *sleep_counters(c);
    sleep_sets(c, c->sets);
}

static xpbd_status sleep_call(void *p)
{
    sleep_ctx *c = p;
    const xpbd_status st = sleep_step(c);
    const uint32_t want = c->wake ? 2 * (uint32_t)cloth_k.edges : (uint32_t)cloth_k.edges;
    if (st >= 0)
        CHECK(sleep_distance(c) == want, "the step under test rebuilt nothing: %u constraints",
              sleep_distance(c));
    return st;
}

/* Appends what to c->differs (the list of the parts found changed). */
static void sleep_differs(sleep_ctx *c, const char *what)
{
    const size_t at = strlen(c->differs);
    snprintf(c->differs + at, sizeof c->differs - at, "%s%s", at ? ", " : "", what);
}

/* Compares the states a and b of n bytes part by part, but those in skip
 * (a mask of 1 << part). */
static void sleep_compare(sleep_ctx *c, const unsigned char *a, const unsigned char *b,
                          size_t n, const size_t parts[SL_PARTS], unsigned skip,
                          const char *prefix)
{
    static const char *const names[SL_PARTS] = {"particles", "counters", "counters.woke",
                                                "sets", "sleep state"};
    char what[64];
    for (int k = 0; k < SL_PARTS; ++k) {
        const size_t end = k + 1 < SL_PARTS ? parts[k + 1] : n;
        if (!(skip >> k & 1) && memcmp(a + parts[k], b + parts[k], end - parts[k])) {
            snprintf(what, sizeof what, "%s%s", prefix, names[k]);
            sleep_differs(c, what);
        }
    }
}

static int sleep_unchanged(void *p)
{
    sleep_ctx *c = p;
    static unsigned char now[sizeof c->before], ref[sizeof c->before];
    size_t parts[SL_PARTS], rparts[SL_PARTS];
    c->differs[0] = 0;
    const size_t n = sleep_state(c, now, sizeof now, parts);
    /* a body the host moved is woken before the rebuild is tried; the
     * failed step puts its sleep flag and calm count back (engine.h: the
     * state unchanged) */
    if (n != c->bytes)
        sleep_differs(c, "state size");
    else
        sleep_compare(c, now, c->before, n, parts, 0u, "");
    const void *sets[3];
    sleep_sets(c, sets);
    if (memcmp(sets, c->sets, sizeof sets))
        sleep_differs(c, "set blocks");
    if (memcmp(sleep_counters(c), &c->counters, sizeof c->counters))
        sleep_differs(c, "counters' bytes");
    /* the rebuild tried again: as the same engine's step without the
     * failure, a moved body's wake counted by it */
    sleep_ctx *r = malloc(sizeof *r);
    if (!r)
        return 0;
    memcpy(r, c, sizeof *r);
    const int retried = sleep_step(c) >= 0;
    const int ready = sleep_ready(r) && sleep_step(r) >= 0;
    if (!(retried && ready)) {
        sleep_differs(c, "the next step failed");
    } else {
        const size_t m = sleep_state(c, now, sizeof now, parts);
        if (m != sleep_state(r, ref, sizeof ref, rparts) || m > sizeof now ||
            memcmp(parts, rparts, sizeof parts))
            sleep_differs(c, "the next step: state size");
        else
            sleep_compare(c, now, ref, m, parts, 0u,
                          "the next step: ");
    }
    xpbd_engine_destroy_f32(r->e32);
    xpbd_engine_destroy_f64(r->e64);
    free(r);
    if (c->differs[0])
        fprintf(stderr, "  %s: changed: %s\n", c->name, c->differs);
    return c->differs[0] == 0;
}

static void sleep_release(void *p)
{
    sleep_ctx *c = p;
    xpbd_engine_destroy_f32(c->e32);
    xpbd_engine_destroy_f64(c->e64);
    c->e32 = NULL;
    c->e64 = NULL;
}

int main(void)
{
    meshes();
    sleep_meshes();
    const long live0 = xt_af_live;
    static const char *build_names[6] = {"distance_set_build_f32", "distance_set_build_f64",
                                         "tet_set_build_f64",      "bend_set_build_f32",
                                         "tet_set_build_f32",      "bend_set_build_f64"};
    for (int kind = 0; kind < 6; ++kind) {
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
    for (int cap = 0; cap < 2; ++cap) {
        engine_ctx c;
        memset(&c, 0, sizeof c);
        c.capacity = cap;
        c.box = 1;
        c.step = 1;
        const af_case step = {cap ? "engine_step_f64 split (capacity)" : "engine_step_f64 split",
                              engine_setup, engine_call, engine_unchanged, engine_release};
        af_run(&step, &c);
    }
    for (int box = 0; box < 2; ++box) {
        split_ctx c;
        memset(&c, 0, sizeof c);
        c.box = box;
        const af_case ac = {box ? "tear_split (tets, a split)" : "tear_split", split_setup,
                            split_call, split_unchanged, split_release};
        af_run(&ac, &c);
        CHECK(box ? c.clean_copies > 0 : c.clean_copies == 0, "tear_split: %zu copies",
              c.clean_copies);
    }
    for (int cap = 0; cap < 2; ++cap) {
        create32_ctx c;
        memset(&c, 0, sizeof c);
        c.capacity = cap;
        const af_case ac = {cap ? "engine_create_f32 (capacity)" : "engine_create_f32",
                            create32_setup, create32_call, create32_unchanged, create32_release};
        af_run(&ac, &c);
    }
    for (int f64 = 0; f64 < 2; ++f64) {
        remove_ctx c;
        memset(&c, 0, sizeof c);
        c.f64 = f64;
        const af_case ac = {f64 ? "tear_remove_f64" : "tear_remove_f32", remove_setup,
                            remove_call, remove_unchanged, remove_release};
        af_run(&ac, &c);
    }
    for (int f64 = 0; f64 < 2; ++f64) {
        order_ctx c;
        memset(&c, 0, sizeof c);
        c.f64 = f64;
        const af_case ac = {f64 ? "mesh_locality_order_f64" : "mesh_locality_order_f32",
                            order_setup, order_call, order_unchanged, order_release};
        af_run(&ac, &c);
    }
    for (int kind = 0; kind < 4; ++kind) {
        static topo_ctx c;
        memset(&c, 0, sizeof c);
        c.kind = kind;
        static const char *const names[4] = {"mesh_edges", "mesh_bends",
                                             "mesh_scene_build_f64 (box)",
                                             "mesh_scene_build_f32 (cloth)"};
        const af_case ac = {names[kind], topo_setup, topo_call, topo_unchanged, topo_release};
        af_run(&ac, &c);
    }
    for (int f64 = 0; f64 < 2; ++f64) {
        check_ctx c;
        memset(&c, 0, sizeof c);
        c.f64 = f64;
        const af_case ac = {f64 ? "order_check_f64" : "order_check_f32", check_setup, check_call,
                            check_unchanged, check_release};
        af_run(&ac, &c);
    }
    for (int f64 = 0; f64 < 2; ++f64)
        for (int wake = 0; wake < 3; ++wake) {
            static sleep_ctx c;
            memset(&c, 0, sizeof c);
            c.f64 = f64;
            c.wake = wake;
            static const char *const names[2][3] = {
                {"engine_step_f32 sleep", "engine_step_f32 wake", "engine_step_f32 moved"},
                {"engine_step_f64 sleep", "engine_step_f64 wake", "engine_step_f64 moved"}};
            c.name = names[f64][wake];
            const af_case ac = {names[f64][wake], sleep_setup, sleep_call, sleep_unchanged,
                                sleep_release};
            af_run(&ac, &c);
        }
    CHECK(xt_af_live == live0, "%ld blocks live at the end", xt_af_live - live0);
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
