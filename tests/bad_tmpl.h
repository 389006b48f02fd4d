/* SPDX-License-Identifier: MIT */
/* Bad input through the SoA API, one precision; template over R /
 * SFX / R_F64. Every rejected call must return its documented status and
 * bad_index and leave the particle arrays and lambda bit-identical. */

#define DSET SFX(xpbd_distance_set)
#define PSET SFX(xpbd_particles)
#define CL SFX(xt_cloud)
#define FN(n) SFX(n)
#define SNAP SFX(xt_snap)
#define SAMESNAP(s, p, c, what) SFX(xt_snap_same)((s), (p), (c), (what), __FILE__, __LINE__)

static int FN(zeroed)(const DSET *c)
{
    DSET z;
    memset(&z, 0, sizeof z);
    return memcmp(c, &z, sizeof z) == 0;
}

static void FN(bad_builder)(void)
{
    const R inf = (R)INFINITY, nan = (R)NAN;
    enum { N = 10, M = 6, J = 3 };
    struct {
        const char *what;
        int field; /* 0 i0, 1 i1, 2 rest, 3 compliance */
        double value;
        xpbd_status want;
    } cases[] = {
        {"i1 out of range", 1, N, XPBD_ERR_INDEX},
        {"i0 out of range", 0, 4000000000.0, XPBD_ERR_INDEX},
        {"i0 == i1", 0, J + 1, XPBD_ERR_INDEX},
        {"rest 0", 2, 0, XPBD_ERR_REST},
        {"rest < 0", 2, -0.5, XPBD_ERR_REST},
        {"rest NaN", 2, (double)nan, XPBD_ERR_REST},
        {"rest inf", 2, (double)inf, XPBD_ERR_REST},
        {"compliance < 0", 3, -1e-4, XPBD_ERR_COMPLIANCE},
        {"compliance NaN", 3, (double)nan, XPBD_ERR_COMPLIANCE},
        {"compliance inf", 3, (double)inf, XPBD_ERR_COMPLIANCE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        uint32_t i0[M], i1[M];
        R rest[M], comp[M];
        for (uint32_t j = 0; j < M; ++j) {
            i0[j] = j;
            i1[j] = j + 1;
            rest[j] = (R)0.5;
            comp[j] = (R)1e-4;
        }
        switch (cases[k].field) {
        case 0: i0[J] = (uint32_t)cases[k].value; break;
        case 1: i1[J] = (uint32_t)cases[k].value; break;
        case 2: rest[J] = (R)cases[k].value; break;
        default: comp[J] = (R)cases[k].value; break;
        }
        DSET c;
        memset(&c, 0x5a, sizeof c);
        size_t bad = 12345;
        const xpbd_status st = SFX(xpbd_distance_set_build)(&c, N, M, i0, i1, rest, comp, NULL,
                                                               &bad);
        if (st != cases[k].want)
            fprintf(stderr, "      case '%s'\n", cases[k].what);
        ENSURE_STATUS(st, cases[k].want);
        ENSURE_INT(bad, J);
        ENSURE(FN(zeroed)(&c));
    }
    /* NULL inputs and the options limit: no index to name */
    uint32_t i0[2] = {0, 1}, i1[2] = {1, 2};
    R rest[2] = {1, 1}, comp[2] = {0, 0};
    DSET c;
    size_t bad = 7;
    ENSURE_STATUS(SFX(xpbd_distance_set_build)(NULL, 3, 2, i0, i1, rest, comp, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    memset(&c, 0x5a, sizeof c);
    ENSURE_STATUS(SFX(xpbd_distance_set_build)(&c, 3, 2, NULL, i1, rest, comp, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    ENSURE(FN(zeroed)(&c));
    ENSURE_INT(bad, SIZE_MAX);
    ENSURE_STATUS(SFX(xpbd_distance_set_build)(&c, 3, 2, i0, i1, rest, NULL, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    const xpbd_colouring_options opt = {.max_colours = 65, .serial = 0};
    ENSURE_STATUS(SFX(xpbd_distance_set_build)(&c, 3, 2, i0, i1, rest, comp, &opt, &bad),
                  XPBD_ERR_CONFIG);
    ENSURE(FN(zeroed)(&c));
    /* the same arrays are fine */
    ENSURE_STATUS(SFX(xpbd_distance_set_build)(&c, 3, 2, i0, i1, rest, comp, NULL, &bad),
                  XPBD_OK);
    ENSURE_INT(bad, SIZE_MAX);
    SFX(xpbd_distance_set_free)(&c);
}

static void FN(bad_validate)(void)
{
    const R inf = (R)INFINITY, nan = (R)NAN;
    CL a;
    REQUIRE(SFX(xt_cloud_alloc)(&a, 20));
    xt_rng rng = {0xbad1};
    size_t bad = 0;
    struct {
        int array; /* index into x y z px py pz vx vy vz w */
        R value;
        xpbd_status want;
    } cases[] = {
        {0, nan, XPBD_ERR_POSITION},      {1, -inf, XPBD_ERR_POSITION},
        {2, inf, XPBD_ERR_POSITION},      {6, nan, XPBD_ERR_VELOCITY},
        {7, inf, XPBD_ERR_VELOCITY},      {8, -inf, XPBD_ERR_VELOCITY},
        {9, -1, XPBD_ERR_INVERSE_MASS},   {9, nan, XPBD_ERR_INVERSE_MASS},
        {9, inf, XPBD_ERR_INVERSE_MASS},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        SFX(xt_cloud_random)(&a, &rng, 0.2, NULL);
        R *arrays[10] = {a.p.x,  a.p.y,  a.p.z,  a.p.px, a.p.py,
                            a.p.pz, a.p.vx, a.p.vy, a.p.vz, a.p.w};
        const size_t at = 3 + k;
        arrays[cases[k].array][at] = cases[k].value;
        ENSURE_STATUS(SFX(xpbd_particles_validate)(&a.p, &bad), cases[k].want);
        ENSURE_INT(bad, at);
    }
    SFX(xt_cloud_random)(&a, &rng, 0.2, NULL);
    ENSURE_STATUS(SFX(xpbd_particles_validate)(&a.p, &bad), XPBD_OK);
    ENSURE_INT(bad, SIZE_MAX);
    /* previous positions are not inputs of the step: not checked */
    a.p.px[0] = nan;
    ENSURE_STATUS(SFX(xpbd_particles_validate)(&a.p, &bad), XPBD_OK);
    a.p.w = NULL;
    ENSURE_STATUS(SFX(xpbd_particles_validate)(&a.p, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(SFX(xpbd_particles_validate)(NULL, &bad), XPBD_ERR_ARGUMENT);
    PSET empty;
    memset(&empty, 0, sizeof empty);
    ENSURE_STATUS(SFX(xpbd_particles_validate)(&empty, &bad), XPBD_OK);
    SFX(xt_cloud_free)(&a);

    /* sets edited in place between steps */
    xt_graph g;
    xt_graph_make(&g, &rng, XT_RANDOM, 50, 0, 0);
    DSET c;
    REQUIRE_STATUS(SFX(xt_graph_build)(&g, NULL, &c), XPBD_OK);
    uint32_t *stamp = malloc(g.particles * sizeof *stamp);
    REQUIRE(stamp != NULL);
    ENSURE_STATUS(SFX(xpbd_distance_set_validate)(&c, g.particles, stamp, &bad), XPBD_OK);
    ENSURE_INT(bad, SIZE_MAX);
    uint32_t s = 0, pad = UINT32_MAX;
    for (uint32_t k = 0; k < c.slots; ++k) {
        if (c.source[k] == 7)
            s = k;
        if (c.source[k] == XPBD_PAD && pad == UINT32_MAX)
            pad = k;
    }
    struct {
        int field; /* 0 i0, 1 i1, 2 rest, 3 compliance, 4 lambda */
        double value;
        xpbd_status want;
    } edits[] = {
        {1, (double)g.particles, XPBD_ERR_INDEX}, {0, -1.0, XPBD_ERR_INDEX},
        {0, -2.0, XPBD_ERR_INDEX},                {2, 0, XPBD_ERR_REST},
        {2, -1, XPBD_ERR_REST},                   {2, (double)nan, XPBD_ERR_REST},
        {3, -1e-6, XPBD_ERR_COMPLIANCE},          {3, (double)nan, XPBD_ERR_COMPLIANCE},
        {3, (double)inf, XPBD_ERR_COMPLIANCE},    {4, (double)nan, XPBD_ERR_LAMBDA},
        {4, (double)-inf, XPBD_ERR_LAMBDA},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; ++k) {
        const uint32_t i0 = c.i0[s], i1 = c.i1[s];
        const R r = c.rest[s], cm = c.compliance[s], l = c.lambda[s];
        switch (edits[k].field) {
        case 0: /* -1: out of range; -2: i0 == i1 */
            c.i0[s] = edits[k].value == -1.0 ? UINT32_MAX - 3 : c.i1[s];
            break;
        case 1: c.i1[s] = (uint32_t)edits[k].value; break;
        case 2: c.rest[s] = (R)edits[k].value; break;
        case 3: c.compliance[s] = (R)edits[k].value; break;
        default: c.lambda[s] = (R)edits[k].value; break;
        }
        ENSURE_STATUS(SFX(xpbd_distance_set_validate)(&c, g.particles, stamp, &bad), edits[k].want);
        ENSURE_INT(bad, s);
        c.i0[s] = i0;
        c.i1[s] = i1;
        c.rest[s] = r;
        c.compliance[s] = cm;
        c.lambda[s] = l;
    }
    ENSURE_STATUS(SFX(xpbd_distance_set_validate)(&c, g.particles, stamp, &bad), XPBD_OK);
    /* a particle count below an index in use */
    ENSURE_STATUS(SFX(xpbd_distance_set_validate)(&c, 1, stamp, &bad), XPBD_ERR_INDEX);
    ENSURE(bad < c.slots);
    /* a padding slot that would no longer be a no-op */
    if (pad != UINT32_MAX) {
        c.lambda[pad] = 1;
        ENSURE(SFX(xpbd_distance_set_validate)(&c, g.particles, stamp, &bad) != XPBD_OK);
        ENSURE_INT(bad, pad);
        c.lambda[pad] = 0;
        c.i1[pad] = c.i0[pad] + 1;
        ENSURE(SFX(xpbd_distance_set_validate)(&c, g.particles, stamp, &bad) != XPBD_OK);
        ENSURE_INT(bad, pad);
        c.i1[pad] = c.i0[pad];
    }
    ENSURE(pad != UINT32_MAX);
    ENSURE_STATUS(SFX(xpbd_distance_set_validate)(NULL, 3, stamp, &bad), XPBD_ERR_ARGUMENT);
    SFX(xpbd_distance_set_free)(&c);
    free(stamp);
    xt_graph_free(&g);
}

/* A small world that has already stepped (lambda and velocities non-zero). */
typedef struct FN(world) {
    xt_graph g;
    CL a;
    DSET c;
    void *scratch;
    size_t bytes;
} FN(world);

static int FN(world_init)(FN(world) *w, int springs)
{
    memset(w, 0, sizeof *w);
    xt_rng rng = {0x3a11};
    xt_graph_make(&w->g, &rng, XT_RANDOM, 40, 1, 1);
    if (springs) /* one zero compliance left in: slot of source 5 */
        for (size_t k = 0; k < w->g.count; ++k)
            w->g.compliance[k] = k == 5 ? 0 : 1e-2;
    if (SFX(xt_graph_build)(&w->g, NULL, &w->c) != XPBD_OK ||
        !SFX(xt_cloud_alloc)(&w->a, w->g.particles))
        return 0;
    SFX(xt_cloud_random)(&w->a, &rng, 0.1, &w->g);
    w->bytes = SFX(xpbd_step_scratch_bytes)(w->g.particles, w->c.slots);
    w->scratch = malloc(w->bytes);
    if (!w->scratch)
        return 0;
    if (!springs) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xt_isa;
        for (int f = 0; f < 2; ++f)
            if (SFX(xpbd_step)(&cfg, 1.0 / 60, &w->a.p, &w->c, w->scratch, w->bytes, NULL) !=
                XPBD_OK)
                return 0;
    }
    return 1;
}

static void FN(world_free)(FN(world) *w)
{
    free(w->scratch);
    SFX(xt_cloud_free)(&w->a);
    SFX(xpbd_distance_set_free)(&w->c);
    xt_graph_free(&w->g);
}

static uint32_t FN(slot_of)(const DSET *c, uint32_t source)
{
    for (uint32_t s = 0; s < c->slots; ++s)
        if (c->source[s] == source)
            return s;
    return UINT32_MAX;
}

enum {
    FN(B_POS_NAN), FN(B_POS_INF), FN(B_VEL_NAN), FN(B_VEL_INF), FN(B_W_NEG), FN(B_W_NAN),
    FN(B_COMP_NEG), FN(B_COMP_NAN), FN(B_REST_ZERO), FN(B_REST_NEG), FN(B_REST_NAN),
    FN(B_INDEX_RANGE), FN(B_INDEX_SAME), FN(B_LAMBDA_NAN), FN(B_DT_ZERO), FN(B_DT_NEG),
    FN(B_DT_NAN), FN(B_DT_INF), FN(B_SUBSTEPS), FN(B_ITERATIONS), FN(B_DAMPING_ONE),
    FN(B_DAMPING_NEG), FN(B_KS_ZERO), FN(B_KS_BIG), FN(B_GRAVITY_NAN), FN(B_SPRING_DAMPING),
    FN(B_SOLVER), FN(B_LAMBDA_MODE), FN(B_VERSION), FN(B_VERSION_ZERO), FN(B_SCRATCH_SMALL),
    FN(B_SCRATCH_NULL), FN(B_SPRINGS_COMP0), FN(B_ISA), FN(B_CFG_NULL), FN(B_P_NULL),
    FN(B_COUNT)
};

static void FN(bad_step)(void)
{
    static const char *const names[] = {
        "position NaN",  "position -inf",  "velocity NaN",   "velocity inf",   "w < 0",
        "w NaN",         "compliance < 0", "compliance NaN", "rest 0",         "rest < 0",
        "rest NaN",      "index >= n",     "i0 == i1",       "lambda NaN",     "h 0",
        "h < 0",         "h NaN",          "h inf",          "substeps 0",     "iterations 0",
        "damping 1",     "damping < 0",    "k_s 0",          "k_s 1.5",        "gravity NaN",
        "spring_damping < 0", "solver 7",  "lambda mode 5",  "version 2",      "version 0",
        "scratch too small", "scratch NULL", "springs with compliance 0", "unsupported isa",
        "cfg NULL",      "particles NULL",
    };
    const R nan = (R)NAN, inf = (R)INFINITY;
    for (int b = 0; b < FN(B_COUNT); ++b) {
        FN(world) w;
        const int springs = b == FN(B_SPRINGS_COMP0);
        if (!FN(world_init)(&w, springs)) {
            FN(world_free)(&w);
            ENSURE(!"world");
            continue;
        }
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xt_isa;
        cfg.substeps = 2;
        double h = 1.0 / 60;
        void *scratch = w.scratch;
        size_t bytes = w.bytes;
        const xpbd_step_config *pcfg = &cfg;
        PSET *pp = &w.a.p;
        const uint32_t s = FN(slot_of)(&w.c, 5);
        xpbd_status want = XPBD_OK;
        size_t want_index = SIZE_MAX;
        switch (b) {
        case FN(B_POS_NAN): w.a.p.x[7] = nan; want = XPBD_ERR_POSITION; want_index = 7; break;
        case FN(B_POS_INF): w.a.p.y[0] = -inf; want = XPBD_ERR_POSITION; want_index = 0; break;
        case FN(B_VEL_NAN): w.a.p.vz[12] = nan; want = XPBD_ERR_VELOCITY; want_index = 12; break;
        case FN(B_VEL_INF): w.a.p.vx[3] = inf; want = XPBD_ERR_VELOCITY; want_index = 3; break;
        case FN(B_W_NEG): w.a.p.w[4] = -1; want = XPBD_ERR_INVERSE_MASS; want_index = 4; break;
        case FN(B_W_NAN): w.a.p.w[9] = nan; want = XPBD_ERR_INVERSE_MASS; want_index = 9; break;
        case FN(B_COMP_NEG): w.c.compliance[s] = -1e-3f; want = XPBD_ERR_COMPLIANCE; want_index = s; break;
        case FN(B_COMP_NAN): w.c.compliance[s] = nan; want = XPBD_ERR_COMPLIANCE; want_index = s; break;
        case FN(B_REST_ZERO): w.c.rest[s] = 0; want = XPBD_ERR_REST; want_index = s; break;
        case FN(B_REST_NEG): w.c.rest[s] = -1; want = XPBD_ERR_REST; want_index = s; break;
        case FN(B_REST_NAN): w.c.rest[s] = nan; want = XPBD_ERR_REST; want_index = s; break;
        case FN(B_INDEX_RANGE): w.c.i1[s] = (uint32_t)w.a.p.count; want = XPBD_ERR_INDEX; want_index = s; break;
        case FN(B_INDEX_SAME): w.c.i1[s] = w.c.i0[s]; want = XPBD_ERR_INDEX; want_index = s; break;
        case FN(B_LAMBDA_NAN): w.c.lambda[s] = nan; want = XPBD_ERR_LAMBDA; want_index = s; break;
        case FN(B_DT_ZERO): h = 0; want = XPBD_ERR_TIMESTEP; break;
        case FN(B_DT_NEG): h = -1.0 / 60; want = XPBD_ERR_TIMESTEP; break;
        case FN(B_DT_NAN): h = NAN; want = XPBD_ERR_TIMESTEP; break;
        case FN(B_DT_INF): h = INFINITY; want = XPBD_ERR_TIMESTEP; break;
        case FN(B_SUBSTEPS): cfg.substeps = 0; want = XPBD_ERR_CONFIG; break;
        case FN(B_ITERATIONS): cfg.iterations = 0; want = XPBD_ERR_CONFIG; break;
        case FN(B_DAMPING_ONE): cfg.damping = 1; want = XPBD_ERR_CONFIG; break;
        case FN(B_DAMPING_NEG): cfg.damping = -0.1; want = XPBD_ERR_CONFIG; break;
        case FN(B_KS_ZERO): cfg.pbd_stiffness = 0; want = XPBD_ERR_CONFIG; break;
        case FN(B_KS_BIG): cfg.pbd_stiffness = 1.5; want = XPBD_ERR_CONFIG; break;
        case FN(B_GRAVITY_NAN): cfg.gravity[1] = NAN; want = XPBD_ERR_CONFIG; break;
        case FN(B_SPRING_DAMPING): cfg.spring_damping = -1; want = XPBD_ERR_CONFIG; break;
        case FN(B_SOLVER): cfg.solver = (xpbd_solver)7; want = XPBD_ERR_CONFIG; break;
        case FN(B_LAMBDA_MODE): cfg.lambda_reset = (xpbd_lambda_reset)5; want = XPBD_ERR_CONFIG; break;
        case FN(B_VERSION): cfg.version = XPBD_PROTOCOL_VERSION + 1; want = XPBD_ERR_VERSION; break;
        case FN(B_VERSION_ZERO): cfg.version = 0; want = XPBD_ERR_VERSION; break;
        case FN(B_SCRATCH_SMALL): bytes = w.bytes - 1; want = XPBD_ERR_CAPACITY; break;
        case FN(B_SCRATCH_NULL): scratch = NULL; want = XPBD_ERR_CAPACITY; break;
        case FN(B_SPRINGS_COMP0): cfg.solver = XPBD_SOLVER_SPRINGS; want = XPBD_ERR_COMPLIANCE; want_index = s; break;
        case FN(B_ISA): {
            cfg.isa = XPBD_ISA_COUNT;
            for (int i = 0; i < XPBD_ISA_COUNT; ++i)
                if (!xpbd_isa_supported((xpbd_isa)i))
                    cfg.isa = (xpbd_isa)i;
            want = XPBD_ERR_ISA;
            break;
        }
        case FN(B_CFG_NULL): pcfg = NULL; want = XPBD_ERR_ARGUMENT; break;
        case FN(B_P_NULL): pp = NULL; want = XPBD_ERR_ARGUMENT; break;
        }
        xt_snap snap;
        SFX(xt_snap)(&snap, &w.a.p, &w.c);
        xpbd_step_counters k;
        memset(&k, 0x77, sizeof k);
        const xpbd_status st = SFX(xpbd_step)(pcfg, h, pp, &w.c, scratch, bytes, &k);
        char what[96];
        snprintf(what, sizeof what, "%s step, %s", R_F64 ? "f64" : "f32", names[b]);
        if (st != want)
            fprintf(stderr, "      case '%s'\n", what);
        ENSURE_STATUS(st, want);
        ENSURE_STATUS(k.status, want);
        if (k.bad_index != want_index)
            fprintf(stderr, "      case '%s': bad_index %zu, want %zu\n", what, k.bad_index,
                    want_index);
        ENSURE(k.bad_index == want_index);
        ENSURE_INT(k.protocol, XPBD_PROTOCOL_VERSION);
        SAMESNAP(&snap, &w.a.p, &w.c, what);
        xt_snap_free(&snap);
        FN(world_free)(&w);
    }
    ENSURE_INT(sizeof names / sizeof names[0], FN(B_COUNT));
}

/* Static pairs and coincident endpoints inside a step: skipped and counted,
 * the static particles untouched, no NaN anywhere. */
static void FN(bad_degenerate)(void)
{
    /* 0-1 static pair, 2-3 a normal link, 4-5 coincident with the same velocity */
    const uint32_t i0[3] = {0, 2, 4}, i1[3] = {1, 3, 5};
    const R rest[3] = {1, 1, 1}, comp[3] = {0, (R)1e-4, 0};
    const xpbd_solver solvers[2] = {XPBD_SOLVER_XPBD, XPBD_SOLVER_PBD};
    for (int v = 0; v < 2; ++v) {
        DSET c;
        REQUIRE_STATUS(SFX(xpbd_distance_set_build)(&c, 6, 3, i0, i1, rest, comp, NULL, NULL),
                       XPBD_OK);
        CL a;
        REQUIRE(SFX(xt_cloud_alloc)(&a, 6));
        const R pos[6][3] = {{0, 0, 0}, {0, 2, 0}, {3, 0, 0}, {3, (R)-1.5, 0},
                                {5, 1, 1}, {5, 1, 1}};
        for (int i = 0; i < 6; ++i) {
            a.p.x[i] = pos[i][0];
            a.p.y[i] = pos[i][1];
            a.p.z[i] = pos[i][2];
            a.p.w[i] = i < 2 ? 0 : 1;
            a.p.vx[i] = i >= 4 ? (R)0.5 : 0;
        }
        const size_t bytes = SFX(xpbd_step_scratch_bytes)(6, c.slots);
        void *scratch = malloc(bytes);
        REQUIRE(scratch);
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.solver = solvers[v];
        cfg.substeps = 3;
        cfg.iterations = 4;
        cfg.isa = xt_isa;
        xpbd_step_counters k;
        ENSURE_STATUS(SFX(xpbd_step)(&cfg, 1.0 / 60, &a.p, &c, scratch, bytes, &k), XPBD_OK);
        /* 12 sweeps, two skipped constraints each, three solves each */
        ENSURE_INT(k.skipped, 2 * 12);
        ENSURE_INT(k.solves, 3 * 12);
        ENSURE_INT(k.iterations, 12);
        ENSURE_INT(k.substeps, 3);
        ENSURE_INT(k.bad_index, SIZE_MAX);
        for (int i = 0; i < 2; ++i) { /* static: untouched, at rest */
            ENSURE_BITS_F64((double)a.p.x[i], (double)pos[i][0]);
            ENSURE_BITS_F64((double)a.p.y[i], (double)pos[i][1]);
            ENSURE_BITS_F64((double)a.p.z[i], (double)pos[i][2]);
            ENSURE_BITS_F64((double)a.p.vy[i], 0.0);
        }
        /* coincident: still together, finite, falling and drifting */
        ENSURE_BITS_F64((double)a.p.x[4], (double)a.p.x[5]);
        ENSURE_BITS_F64((double)a.p.y[4], (double)a.p.y[5]);
        ENSURE(isfinite(a.p.x[4]) && isfinite(a.p.y[4]) && a.p.y[4] < 1 && a.p.x[4] > 5);
        /* the real link pulled 2-3 together (start 1.5, rest 1) */
        const double d = fabs((double)a.p.y[3] - (double)a.p.y[2]);
        ENSURE(d < 1.5);
        /* the residual skips them too (0), so the max is the real link's */
        ENSURE(k.max_residual >= 0 && isfinite(k.max_residual));
        free(scratch);
        SFX(xt_cloud_free)(&a);
        SFX(xpbd_distance_set_free)(&c);
    }
}

/* Springs far too stiff for the step overflow to inf: XPBD_ERR_DIVERGED and
 * the state before the step restored bit for bit. */
static void FN(bad_diverge)(void)
{
    const uint32_t i0[1] = {0}, i1[1] = {1};
    /* k = 1/compliance so large that the second substep overflows:
     * f = 0.5*k, x ~ f*h^2; then f ~ x*k = inf */
    const R rest[1] = {(R)0.5}, comp[1] = {(R)(R_F64 ? 1e-300 : 1e-30)};
    DSET c;
    REQUIRE_STATUS(SFX(xpbd_distance_set_build)(&c, 2, 1, i0, i1, rest, comp, NULL, NULL),
                   XPBD_OK);
    CL a;
    REQUIRE(SFX(xt_cloud_alloc)(&a, 2));
    xt_rng rng = {0xd1};
    SFX(xt_cloud_random)(&a, &rng, 0, NULL);
    a.p.w[0] = 0;
    a.p.x[1] = a.p.x[0] + 1;
    const size_t bytes = SFX(xpbd_step_scratch_bytes)(2, c.slots);
    void *scratch = malloc(bytes);
    REQUIRE(scratch);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = XPBD_SOLVER_SPRINGS;
    cfg.substeps = 4;
    cfg.isa = xt_isa;
    xt_snap snap;
    SFX(xt_snap)(&snap, &a.p, &c);
    xpbd_step_counters k;
    ENSURE_STATUS(SFX(xpbd_step)(&cfg, 1.0, &a.p, &c, scratch, bytes, &k), XPBD_ERR_DIVERGED);
    ENSURE_INT(k.status, XPBD_ERR_DIVERGED);
    ENSURE_INT(k.bad_index, 1); /* the free end went to inf; the static one never moves */
    ENSURE_INT(k.bad_part, XPBD_PART_PARTICLES);
    ENSURE_INT(k.bad_field, XPBD_FIELD_NONE);
    SAMESNAP(&snap, &a.p, &c, "diverged step restored");
    xt_snap_free(&snap);

    /* the same link in an engine: its counters name the particle too, and
     * the state is kept */
    {
        const R xyz[6] = {0, 0, 0, 1, 0, 0}, w[2] = {0, 1};
        const uint32_t edge[2] = {0, 1};
        SFX(xpbd_scene) sc;
        memset(&sc, 0, sizeof sc);
        sc.particles = 2;
        sc.xyz = xyz;
        sc.inv_mass = w;
        sc.edges = 1;
        sc.edge = edge;
        sc.edge_rest = rest;
        sc.edge_compliance = comp;
        SFX(xpbd_engine) *e = NULL;
        xpbd_where where;
        REQUIRE_STATUS(SFX(xpbd_engine_create)(&e, &sc, &cfg, NULL, &where), XPBD_OK);
        ENSURE_INT(where.part, XPBD_PART_NONE);
        ENSURE_INT(where.index, SIZE_MAX);
        ENSURE_STATUS(SFX(xpbd_engine_step)(e, 1.0), XPBD_ERR_DIVERGED);
        const xpbd_engine_counters *ec = SFX(xpbd_engine_counters)(e);
        ENSURE_INT(ec->step.status, XPBD_ERR_DIVERGED);
        ENSURE_INT(ec->step.bad_part, XPBD_PART_PARTICLES);
        ENSURE_INT(ec->step.bad_index, 1);
        ENSURE_INT(ec->step.bad_field, XPBD_FIELD_NONE);
        ENSURE(SFX(xpbd_engine_particles)(e)->x[1] == 1);
        SFX(xpbd_engine_destroy)(e);
    }

    /* XPBD on the same link does not diverge: the solve is unconditionally
     * stable in alpha (XPBD's point) */
    cfg.solver = XPBD_SOLVER_XPBD;
    ENSURE_STATUS(SFX(xpbd_step)(&cfg, 1.0, &a.p, &c, scratch, bytes, &k), XPBD_OK);
    ENSURE(isfinite(a.p.x[1]) && isfinite(a.p.y[1]));
    ENSURE_INT(k.bad_part, XPBD_PART_NONE);
    ENSURE_INT(k.bad_index, SIZE_MAX);
    ENSURE_INT(k.bad_field, XPBD_FIELD_NONE);
    free(scratch);
    SFX(xt_cloud_free)(&a);
    SFX(xpbd_distance_set_free)(&c);
}

#undef DSET
#undef PSET
#undef CL
#undef FN
#undef SNAP
#undef SAMESNAP
