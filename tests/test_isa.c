/* SPDX-License-Identifier: MIT */
/* The forced ISA is the one that runs: kernel tables, step counters and the
 * XPBD_ISA environment variable (no silent fallback). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include "fixture.h"

#include <stdlib.h>

/* The variable is process-wide: every test that touches it puts it back. */
typedef struct env_save {
    char *value;
    int had;
} env_save;

static env_save env_push(const char *value)
{
    env_save s = {NULL, 0};
    const char *old = getenv("XPBD_ISA");
    if (old) {
        s.value = strdup(old);
        s.had = 1;
    }
    if (value)
        setenv("XPBD_ISA", value, 1);
    else
        unsetenv("XPBD_ISA");
    return s;
}

static void env_pop(env_save *s)
{
    if (s->had)
        setenv("XPBD_ISA", s->value, 1);
    else
        unsetenv("XPBD_ISA");
    free(s->value);
    s->value = NULL;
}

/* An ISA value this build or CPU cannot run (on x86 neon, elsewhere sse4). */
static xpbd_isa unsupported_isa(void)
{
    for (int i = 0; i < XPBD_ISA_COUNT; ++i)
        if (!xpbd_isa_supported((xpbd_isa)i))
            return (xpbd_isa)i;
    return XPBD_ISA_COUNT;
}

static void isa_tables(void)
{
    const xpbd_kernels_f32 *k32 = xpbd_kernels_get_f32(xt_isa);
    const xpbd_kernels_f64 *k64 = xpbd_kernels_get_f64(xt_isa);
    REQUIRE(k32 && k64);
    ENSURE_INT(k32->isa, xt_isa);
    ENSURE_INT(k64->isa, xt_isa);
    ENSURE_INT(k32->lanes, xpbd_isa_lanes(xt_isa, 0));
    ENSURE_INT(k64->lanes, xpbd_isa_lanes(xt_isa, 1));
    /* the runner's tables are the forced ones, not a fallback */
    ENSURE(xt_k32 == k32 && xt_k64 == k64);
    ENSURE_INT(xt_ref32->isa, XPBD_ISA_SCALAR);
    ENSURE_INT(xt_ref32->lanes, 1);
    ENSURE_INT(xt_ref64->lanes, 1);
    /* a SIMD path's table is its own: distinct from the reference */
    if (xt_isa != XPBD_ISA_SCALAR) {
        ENSURE(k32 != xt_ref32 && k64 != xt_ref64);
        ENSURE(k32->distance_xpbd != xt_ref32->distance_xpbd);
        ENSURE(k64->distance_xpbd != xt_ref64->distance_xpbd);
        ENSURE(k32->lanes > 1 && k64->lanes > 1);
    }

    static const unsigned lanes[XPBD_ISA_COUNT][2] = {{1, 1}, {4, 2}, {8, 4}, {16, 8}, {4, 2}};
    for (int i = 0; i < XPBD_ISA_COUNT; ++i) {
        const xpbd_isa isa = (xpbd_isa)i;
        const char *name = xpbd_isa_name(isa);
        REQUIRE(name != NULL);
        xpbd_isa back = XPBD_ISA_AUTO;
        ENSURE_STATUS(xpbd_isa_from_name(name, &back), XPBD_OK);
        ENSURE_INT(back, isa);
        ENSURE_INT(xpbd_isa_lanes(isa, 0), lanes[i][0]);
        ENSURE_INT(xpbd_isa_lanes(isa, 1), lanes[i][1]);
        const int sup = xpbd_isa_supported(isa);
        ENSURE(!sup || xpbd_isa_compiled(isa));
        ENSURE((xpbd_kernels_get_f32(isa) != NULL) == sup);
        ENSURE((xpbd_kernels_get_f64(isa) != NULL) == sup);
        if (sup) {
            ENSURE_INT(xpbd_kernels_get_f32(isa)->isa, isa);
            ENSURE_INT(xpbd_kernels_get_f64(isa)->isa, isa);
        }
        xpbd_isa out = XPBD_ISA_COUNT;
        ENSURE_STATUS(xpbd_isa_resolve(isa, &out), sup ? XPBD_OK : XPBD_ERR_ISA);
        ENSURE_INT(out, sup ? isa : XPBD_ISA_COUNT);
    }
    ENSURE(xpbd_isa_supported(XPBD_ISA_SCALAR));
    ENSURE(xpbd_isa_supported(xpbd_isa_best()));
    ENSURE(xpbd_isa_name(XPBD_ISA_COUNT) == NULL);
    ENSURE(xpbd_kernels_get_f32(XPBD_ISA_COUNT) == NULL);
    ENSURE(xpbd_kernels_get_f64((xpbd_isa)-7) == NULL);
    /* x86 paths and the NEON path never coexist, so one is always missing */
    ENSURE(unsupported_isa() != XPBD_ISA_COUNT);
    xpbd_isa keep = XPBD_ISA_SSE4;
    ENSURE_STATUS(xpbd_isa_from_name("AVX2", &keep), XPBD_ERR_ISA); /* case-sensitive */
    ENSURE_INT(keep, XPBD_ISA_SSE4);
    ENSURE_STATUS(xpbd_isa_from_name("", &keep), XPBD_ERR_ISA);
    ENSURE_INT(keep, XPBD_ISA_SSE4);
    /* no name, or nowhere to put it: an argument error, as base.h says */
    ENSURE_STATUS(xpbd_isa_from_name(NULL, &keep), XPBD_ERR_ARGUMENT);
    ENSURE_INT(keep, XPBD_ISA_SSE4);
    ENSURE_STATUS(xpbd_isa_from_name("scalar", NULL), XPBD_ERR_ARGUMENT);
    /* every table of every compiled path reports its own path and lanes */
    for (int i = 0; i < XPBD_ISA_COUNT; ++i) {
        const xpbd_isa isa = (xpbd_isa)i;
        if (!xpbd_isa_supported(isa))
            continue;
        ENSURE_INT(xpbd_kernels_get_f32(isa)->isa, isa);
        ENSURE_INT(xpbd_kernels_get_f64(isa)->isa, isa);
        ENSURE_INT(xpbd_contact_kernels_get_f32(isa)->isa, isa);
        ENSURE_INT(xpbd_contact_kernels_get_f64(isa)->isa, isa);
        ENSURE_INT(xpbd_softbody_kernels_get_f32(isa)->isa, isa);
        ENSURE_INT(xpbd_softbody_kernels_get_f64(isa)->isa, isa);
        ENSURE_INT(xpbd_kernels_get_f32(isa)->lanes, xpbd_isa_lanes(isa, 0));
        ENSURE_INT(xpbd_kernels_get_f64(isa)->lanes, xpbd_isa_lanes(isa, 1));
        ENSURE_INT(xpbd_contact_kernels_get_f32(isa)->lanes, xpbd_isa_lanes(isa, 0));
        ENSURE_INT(xpbd_softbody_kernels_get_f64(isa)->lanes, xpbd_isa_lanes(isa, 1));
    }
}

/* Step counters report the path that ran: cfg.isa forced, or AUTO resolved
 * through XPBD_ISA. */
static void isa_step(void)
{
    xt_graph g;
    xt_rng rng = {0x15a};
    xt_graph_make(&g, &rng, XT_RANDOM, 60, 1, 1);
    xt_cloud_f32 a;
    xt_cloud_f64 b;
    xpbd_distance_set_f32 c32;
    xpbd_distance_set_f64 c64;
    REQUIRE(xt_cloud_alloc_f32(&a, g.particles) && xt_cloud_alloc_f64(&b, g.particles));
    xt_cloud_random_f32(&a, &rng, 0.1, &g);
    xt_cloud_random_f64(&b, &rng, 0.1, &g);
    REQUIRE_STATUS(xt_graph_build_f32(&g, NULL, &c32), XPBD_OK);
    REQUIRE_STATUS(xt_graph_build_f64(&g, NULL, &c64), XPBD_OK);
    const size_t b32 = xpbd_step_scratch_bytes_f32(g.particles, c32.slots);
    const size_t b64 = xpbd_step_scratch_bytes_f64(g.particles, c64.slots);
    void *s32 = malloc(b32), *s64 = malloc(b64);
    REQUIRE(s32 && s64);

    xpbd_step_config cfg = xpbd_step_config_default();
    xpbd_step_counters k;
    cfg.isa = xt_isa;
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &a.p, &c32, s32, b32, &k), XPBD_OK);
    ENSURE_INT(k.isa, xt_isa);
    ENSURE_INT(k.protocol, XPBD_PROTOCOL_VERSION);
    ENSURE_INT(k.status, XPBD_OK);
    ENSURE_INT(k.substeps, 1);
    ENSURE_INT(k.iterations, 10);
    ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &b.p, &c64, s64, b64, &k), XPBD_OK);
    ENSURE_INT(k.isa, xt_isa);

    /* AUTO with XPBD_ISA naming the path under test */
    env_save e = env_push(xpbd_isa_name(xt_isa));
    cfg.isa = XPBD_ISA_AUTO;
    k.isa = XPBD_ISA_COUNT;
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &a.p, &c32, s32, b32, &k), XPBD_OK);
    ENSURE_INT(k.isa, xt_isa);
    k.isa = XPBD_ISA_COUNT;
    ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &b.p, &c64, s64, b64, &k), XPBD_OK);
    ENSURE_INT(k.isa, xt_isa);
    ENSURE(xpbd_kernels_get_f32(XPBD_ISA_AUTO) == xpbd_kernels_get_f32(xt_isa));
    ENSURE(xpbd_kernels_get_f64(XPBD_ISA_AUTO) == xpbd_kernels_get_f64(xt_isa));

    /* AUTO with an unknown name: refused, nothing moves */
    env_pop(&e);
    e = env_push("avx9000");
    xt_snap snap;
    xt_snap_f32(&snap, &a.p, &c32);
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &a.p, &c32, s32, b32, &k), XPBD_ERR_ISA);
    ENSURE_INT(k.status, XPBD_ERR_ISA);
    ENSURE_INT(k.bad_part, XPBD_PART_CONFIG);
    ENSURE_INT(k.bad_field, XPBD_FIELD_ISA);
    SAME_SNAP_F32(&snap, &a.p, &c32, "step refused for XPBD_ISA=avx9000");
    xt_snap_free(&snap);
    ENSURE(xpbd_kernels_get_f64(XPBD_ISA_AUTO) == NULL);
    /* the engine resolves the ISA as its steps would: refused at create
     * (the default configuration: AUTO), and by set_config, which then
     * keeps the configuration it had */
    const double sxyz[6] = {0, 0, 0, 1, 0, 0}, sw[2] = {0, 1};
    const uint32_t sedge[2] = {0, 1};
    const xpbd_scene_f64 sc = {.particles = 2, .xyz = sxyz, .inv_mass = sw, .edges = 1,
                               .edge = sedge};
    xpbd_engine_f64 *eng = (xpbd_engine_f64 *)(uintptr_t)0x5a5a5a5a;
    xpbd_where where;
    ENSURE_STATUS(xpbd_engine_create_f64(&eng, &sc, NULL, NULL, &where), XPBD_ERR_ISA);
    ENSURE(eng == NULL);
    ENSURE_INT(where.part, XPBD_PART_CONFIG);
    ENSURE_INT(where.field, XPBD_FIELD_ISA);
    ENSURE_INT(where.index, SIZE_MAX);
    env_pop(&e);
    REQUIRE_STATUS(xpbd_engine_create_f64(&eng, &sc, &cfg, NULL, &where), XPBD_OK);
    ENSURE_INT(where.part, XPBD_PART_NONE);
    e = env_push("avx9000");
    xpbd_step_config other = cfg;
    other.iterations = 3;
    ENSURE_STATUS(xpbd_engine_set_config_f64(eng, &other), XPBD_ERR_ISA);
    ENSURE_INT(xpbd_engine_config_f64(eng)->iterations, cfg.iterations);
    env_pop(&e);
    ENSURE_STATUS(xpbd_engine_set_config_f64(eng, &other), XPBD_OK);
    ENSURE_INT(xpbd_engine_config_f64(eng)->iterations, 3);
    xpbd_engine_destroy_f64(eng);

    /* a concrete unsupported path in cfg.isa: refused, nothing moves */
    cfg.isa = unsupported_isa();
    xt_snap_f64(&snap, &b.p, &c64);
    ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &b.p, &c64, s64, b64, &k), XPBD_ERR_ISA);
    SAME_SNAP_F64(&snap, &b.p, &c64, "step refused for an unsupported cfg.isa");
    xt_snap_free(&snap);
    cfg.isa = (xpbd_isa)42;
    ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &b.p, &c64, s64, b64, &k), XPBD_ERR_ISA);

    free(s32);
    free(s64);
    xpbd_distance_set_free_f32(&c32);
    xpbd_distance_set_free_f64(&c64);
    xt_cloud_free_f32(&a);
    xt_cloud_free_f64(&b);
    xt_graph_free(&g);
}

/* XPBD_ISA=<name> makes AUTO resolve to that path; unknown and unsupported
 * names are XPBD_ERR_ISA, never a fallback; the variable is restored. */
static void isa_env(void)
{
    const char *before = getenv("XPBD_ISA");
    char *before_copy = before ? strdup(before) : NULL;

    env_save e = env_push(xpbd_isa_name(xt_isa));
    xpbd_isa out = XPBD_ISA_COUNT;
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_OK);
    ENSURE_INT(out, xt_isa);
    /* a concrete request ignores the variable */
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_SCALAR, &out), XPBD_OK);
    ENSURE_INT(out, XPBD_ISA_SCALAR);
    env_pop(&e);

    e = env_push("scalar");
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_OK);
    ENSURE_INT(out, XPBD_ISA_SCALAR);
    ENSURE_INT(xpbd_kernels_get_f32(XPBD_ISA_AUTO)->isa, XPBD_ISA_SCALAR);
    env_pop(&e);

    e = env_push("auto");
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_OK);
    ENSURE_INT(out, xpbd_isa_best());
    env_pop(&e);

    /* unset means the best path */
    e = env_push(NULL);
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_OK);
    ENSURE_INT(out, xpbd_isa_best());
    env_pop(&e);

    /* set but empty names no path: an error like any unknown name */
    const char *bad[] = {"", "avx9000", "AVX2", "sse4 ", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        e = env_push(bad[i]);
        out = XPBD_ISA_NEON;
        ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_ERR_ISA);
        ENSURE_INT(out, XPBD_ISA_NEON); /* untouched */
        ENSURE(xpbd_kernels_get_f32(XPBD_ISA_AUTO) == NULL);
        env_pop(&e);
    }
    const xpbd_isa un = unsupported_isa();
    e = env_push(xpbd_isa_name(un));
    out = XPBD_ISA_COUNT;
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, &out), XPBD_ERR_ISA);
    ENSURE_INT(out, XPBD_ISA_COUNT);
    ENSURE(xpbd_kernels_get_f64(XPBD_ISA_AUTO) == NULL);
    env_pop(&e);
    ENSURE_STATUS(xpbd_isa_resolve(XPBD_ISA_AUTO, NULL), XPBD_ERR_ARGUMENT);

    /* restored exactly */
    const char *after = getenv("XPBD_ISA");
    ENSURE((before_copy == NULL) == (after == NULL));
    if (before_copy && after)
        ENSURE(strcmp(before_copy, after) == 0);
    free(before_copy);
}

const xt_test xt_tests_isa[] = {
    {"isa.tables", isa_tables},
    {"isa.step", isa_step},
    {"isa.env", isa_env},
    {NULL, NULL},
};
