/* SPDX-License-Identifier: MIT */
/* Replay files carry every field: an engine built with every field of its
 * scene, options and step configuration set to a value other than the
 * default is recorded with host inputs of every kind, loaded and replayed;
 * the loaded scene, options and configuration equal the recorded ones field
 * by field, and the replay continues bit for bit for 100 frames on every
 * compiled and supported ISA at 1 and 3 threads. And replay_check (what
 * `xpbd-replay --check` runs) finds no difference between the paths, and
 * names the frame, particle and field of one it is given: one bit flipped
 * in one path's state, or a second recording with one more input.
 *
 * The per-precision part is written once, over precision.h: this file
 * includes itself with XPBD_REAL_F32 defined, then with XPBD_REAL_F64. */
#if defined(XPBD_REAL_F32) || defined(XPBD_REAL_F64)
#include "precision.h"

#define ENG SFX(xpbd_engine)
#define SCENE SFX(xpbd_scene)

/* The scene, options and configuration with every field not the default
 * (variant 0: PBD, lambdas per iteration, runs and 12 colours, hinges kept;
 * variant 1: springs, every set serial, vertex splits), and the arrays it
 * points into. */
typedef struct SFX(rt_scene) {
    SCENE s;
    xpbd_step_config cfg;
    xpbd_engine_options opt;
    xs_mesh cube, cloth;
    size_t nb, n;
    R *xyz, *rest, *vel, *prev, *w, *radius, *erest, *ecomp, *tcomp, *bcomp, *tlen;
    uint32_t *edges, *bends, *anchor, *origin;
    size_t body[3];
    xpbd_plane plane[2];
    uint8_t asleep[2];
    uint32_t calm[2];
    uint64_t signature[2];
} SFX(rt_scene);

static void SFX(rt_scene_free)(SFX(rt_scene) *t)
{
    void *const p[] = {t->xyz,   t->rest,  t->vel,   t->prev,  t->w,     t->radius,
                       t->erest, t->ecomp, t->tcomp, t->bcomp, t->tlen,  t->edges,
                       t->bends, t->anchor, t->origin};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; ++k)
        free(p[k]);
    xs_mesh_free(&t->cube);
    xs_mesh_free(&t->cloth);
}

/* A tet cube above the ground and a cloth hanging from its top row (pinned,
 * each column tethered to its top particle), two bodies, two planes. */
static int SFX(rt_scene_make)(SFX(rt_scene) *t, int variant)
{
    memset(t, 0, sizeof *t);
    if (!xs_mesh_box(&t->cube, 2, 0.1, (const double[3]){-0.1, 0.12, -0.1}, 5) ||
        !xs_mesh_cloth(&t->cloth, 8, 5, 0.1, (const double[3]){0.5, 1.0, 0},
                       (const double[3]){1, 0, 0}, (const double[3]){0, -1, 0}))
        return 0;
    const xs_mesh *cu = &t->cube, *cl = &t->cloth;
    const size_t nb = cu->k.particles, n = nb + cl->k.particles;
    const size_t ne = cu->k.edges + cl->k.edges + cl->k.shear, nt = cu->k.tets,
                 nbend = cl->k.bends;
    t->nb = nb;
    t->n = n;
    t->xyz = malloc(3 * n * sizeof(R));
    t->rest = malloc(3 * n * sizeof(R));
    t->vel = malloc(3 * n * sizeof(R));
    t->prev = malloc(3 * n * sizeof(R));
    t->w = malloc(n * sizeof(R));
    t->radius = malloc(n * sizeof(R));
    t->tlen = malloc(n * sizeof(R));
    t->erest = malloc(ne * sizeof(R));
    t->ecomp = malloc(ne * sizeof(R));
    t->tcomp = malloc((nt + 1) * sizeof(R));
    t->bcomp = malloc((nbend + 1) * sizeof(R));
    t->edges = malloc(2 * ne * sizeof(uint32_t));
    t->bends = malloc((4 * nbend + 1) * sizeof(uint32_t));
    t->anchor = malloc(n * sizeof(uint32_t));
    t->origin = malloc(n * sizeof(uint32_t));
    if (!t->xyz || !t->rest || !t->vel || !t->prev || !t->w || !t->radius || !t->tlen ||
        !t->erest || !t->ecomp || !t->tcomp || !t->bcomp || !t->edges || !t->bends ||
        !t->anchor || !t->origin)
        return 0;
    xt_rng rng = {0x5eed0000u + (uint64_t)variant};
    for (size_t i = 0; i < n; ++i) {
        const double *q = i < nb ? cu->xyz + 3 * i : cl->xyz + 3 * (i - nb);
        const int pinned = i >= nb && i < nb + 8;
        for (int k = 0; k < 3; ++k) {
            t->xyz[3 * i + (size_t)k] = (R)q[k];
            /* the cube's rest shape 1% taller: it starts compressed */
            t->rest[3 * i + (size_t)k] = (R)(i < nb && k == 1 ? q[k] * 1.01 : q[k]);
            t->vel[3 * i + (size_t)k] = pinned ? 0 : (R)xt_range(&rng, -0.05, 0.05);
            t->prev[3 * i + (size_t)k] = (R)(q[k] - t->vel[3 * i + (size_t)k] / 60.0);
        }
        t->w[i] = pinned ? 0 : 10;
        t->radius[i] = (R)0.02;
        /* each cloth particle below the top row tethered to its column's top */
        const size_t col = i >= nb ? (i - nb) % 8 : 0;
        t->anchor[i] = i >= nb + 8 ? (uint32_t)(nb + col) : (uint32_t)i;
        t->tlen[i] = 0;
        if (i >= nb + 8) {
            const double *a = cl->xyz + 3 * col;
            const double d[3] = {q[0] - a[0], q[1] - a[1], q[2] - a[2]};
            t->tlen[i] = (R)(1.5 * xs_norm3(d));
        }
        t->origin[i] = (uint32_t)i;
    }
    t->origin[n - 1] = (uint32_t)(n - 2); /* a descent the scene says it has */
    size_t e = 0;
    for (size_t k = 0; k < 2 * cu->k.edges; ++k)
        t->edges[e++] = cu->edges[k];
    for (size_t k = 0; k < 2 * cl->k.edges; ++k)
        t->edges[e++] = cl->edges[k] + (uint32_t)nb;
    for (size_t k = 0; k < 2 * cl->k.shear; ++k)
        t->edges[e++] = cl->shear[k] + (uint32_t)nb;
    for (size_t k = 0; k < ne; ++k) {
        const R *a = t->rest + 3 * t->edges[2 * k], *b = t->rest + 3 * t->edges[2 * k + 1];
        const double d[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        t->erest[k] = (R)(1.001 * xs_norm3(d));
        /* springs need a compliance their explicit step is stable with */
        t->ecomp[k] = (R)((variant ? 1e-2 : 1e-5) * (double)(1 + k % 3));
    }
    for (size_t k = 0; k < nt; ++k)
        t->tcomp[k] = (R)(1e-8 * (double)(1 + k % 2));
    for (size_t k = 0; k < 4 * nbend; ++k)
        t->bends[k] = cl->bends[k] + (uint32_t)nb;
    for (size_t k = 0; k < nbend; ++k)
        t->bcomp[k] = (R)(1e-2 * (double)(1 + k % 2));
    t->body[0] = 0;
    t->body[1] = nb;
    t->body[2] = n;
    t->plane[0] = (xpbd_plane){{0, 1, 0}, 0};
    t->plane[1] = (xpbd_plane){{1, 0, 0}, -0.6};
    t->asleep[0] = 1; /* its signature is not its state: it wakes at the first frame */
    t->asleep[1] = 0;
    t->calm[0] = 4;
    t->calm[1] = 2;
    t->signature[0] = 0x1234abcdull;
    t->signature[1] = 0x5678ull;
    SCENE *s = &t->s;
    s->particles = n;
    s->xyz = t->xyz;
    s->rest_xyz = t->rest;
    s->vel = t->vel;
    s->inv_mass = t->w;
    s->radius = t->radius;
    s->edges = ne;
    s->edge = t->edges;
    s->edge_rest = t->erest;
    s->edge_compliance = t->ecomp;
    s->edge_alpha = 1e-4; /* the arrays win: the engine folds the alphas away */
    s->tets = nt;
    s->tet = cu->tets;
    s->tet_compliance = t->tcomp;
    s->tet_alpha = 1e-7;
    s->bends = nbend;
    s->bend = t->bends;
    s->bend_compliance = t->bcomp;
    s->bend_alpha = 1e-3;
    s->tether_anchor = t->anchor;
    s->tether_length = t->tlen;
    s->origin = t->origin;
    s->bodies = 2;
    s->body_begin = t->body;
    s->planes = 2;
    s->plane = t->plane;
    s->max_contacts = 3000;
    s->colouring = variant ? (xpbd_colouring_options){.max_colours = 5, .serial = 1, .runs = 1,
                                                      .layout = XPBD_LAYOUT_RUNS}
                           : (xpbd_colouring_options){.max_colours = 12, .serial = 0, .runs = 1,
                                                      .layout = XPBD_LAYOUT_RUNS, .regions = 3};
    s->prev_xyz = t->prev;
    s->asleep = t->asleep;
    s->calm = t->calm;
    s->signature = t->signature;
    s->frame = 1000;
    xpbd_step_config *c = &t->cfg;
    *c = xpbd_step_config_default();
    c->substeps = 3;
    c->iterations = 4;
    c->gravity[0] = 0.3;
    c->gravity[1] = -9.5;
    c->gravity[2] = 0.1;
    c->damping = 0.01;
    c->pbd_stiffness = 0.9;
    c->spring_damping = 0.25;
    c->solver = variant ? XPBD_SOLVER_SPRINGS : XPBD_SOLVER_PBD;
    c->lambda_reset = XPBD_LAMBDA_PER_ITERATION;
    c->isa = XPBD_ISA_SCALAR;
    c->measure_residual = 0;
    c->contact_beta = 0.8;
    c->restitution = 0.3;
    c->contact_slop = 0.002;
    c->friction_static = 0.5;
    c->friction_dynamic = 0.3;
    c->contact_skin = 0.03;
    c->contact_weighted = 0;
    c->contact_velocity_pass = 0;
    c->contact_order = XPBD_CONTACTS_SUBSTEP; /* the lesson order refuses constraints */
    c->relative_damping = 0.05;
    c->threads = 2;
    c->executor = xpbd_executor_default();
    t->opt = (xpbd_engine_options){.tear_stretch = 0.4,
                                   .sleep_energy = 2e-3,
                                   .sleep_steps = 6,
                                   .keep_hinges = variant ? 0u : 1u,
                                   .max_particles = (uint32_t)n + 100,
                                   .threads = 3,
                                   .executor = xpbd_executor_default()};
    return 1;
}

/* Field by field (rt_same_*: the lists in the shared part). */
static void SFX(rt_same_scene)(const SCENE *a, const SCENE *b, const char *when)
{
    RT_SCENE_FIELDS(R, RT_CMP)
}

/* The views, options, configurations and particles of two engines; got
 * was replayed on `isa` at `threads` (0: as recorded). */
static void SFX(rt_same_engines)(const ENG *got, const ENG *want, xpbd_isa isa, uint32_t threads,
                                 const char *when)
{
    SCENE a, b;
    SFX(xpbd_engine_scene)(want, &a);
    SFX(xpbd_engine_scene)(got, &b);
    SFX(rt_same_scene)(&a, &b, when);
    xpbd_engine_options o = *SFX(xpbd_engine_options)(want);
    xpbd_step_config c = *SFX(xpbd_engine_config)(want);
    if (threads) {
        o.threads = c.threads = threads;
        c.isa = isa;
    }
    rt_same_options(&o, SFX(xpbd_engine_options)(got), when);
    rt_same_config(&c, SFX(xpbd_engine_config)(got), when);
    REQUIRE(SB_P(got)->count == SB_P(want)->count);
    SFX(sb_same_particles)(got, want, SB_P(want)->count, when);
}

/* Host inputs of every kind during the recording (f: its frame). */
static void SFX(rt_inputs)(xpbd_replay_file *rec, ENG *e, size_t nb, int f)
{
    const uint32_t c = (uint32_t)nb;
    if (f == 3) {
        const xpbd_input in = {XPBD_INPUT_ADD_VELOCITY, 0, 9, {0, -1, 0.5}};
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &in), XPBD_OK);
    }
    if (f == 8) {
        const xpbd_input in = {XPBD_INPUT_SET_VELOCITY, c + 10, c + 14, {0.1, 0, -0.1}};
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &in), XPBD_OK);
    }
    if (f >= 10 && f < 40) { /* drag the top row's halves apart: the cloth tears */
        const xpbd_input right = {XPBD_INPUT_TRANSLATE, c + 4, c + 8, {0.02, 0.004, 0}};
        const xpbd_input left = {XPBD_INPUT_TRANSLATE, c, c + 4, {-0.02, 0.004, 0}};
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &right), XPBD_OK);
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &left), XPBD_OK);
    }
    if (f == 42) { /* release a pinned corner: its column's tethers let go */
        const xpbd_input in = {XPBD_INPUT_SET_INV_MASS, c, c + 1, {10, 0, 0}};
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &in), XPBD_OK);
    }
    if (f == 45) {
        const xpbd_input in = {XPBD_INPUT_WAKE, 0, 0, {0, 0, 0}};
        ENSURE_STATUS(SFX(xpbd_replay_record_apply)(rec, e, &in), XPBD_OK);
    }
}

/* The continuation's one input (f: its frame). */
static void SFX(rt_poke)(ENG *e, size_t nb, int f)
{
    if (f == 50) {
        const xpbd_input in = {XPBD_INPUT_ADD_VELOCITY, 0, (uint32_t)nb, {0.3, 0.5, 0}};
        ENSURE_STATUS(SFX(xpbd_engine_apply)(e, &in), XPBD_OK);
    }
}

static void SFX(rt_every_field)(int variant)
{
    SFX(rt_scene) t;
    REQUIRE(SFX(rt_scene_make)(&t, variant));
    ENG *a = NULL;
    xpbd_where where;
    REQUIRE_STATUS(SFX(xpbd_engine_create)(&a, &t.s, &t.cfg, &t.opt, &where), XPBD_OK);
    char path[96];
    xpbd_replay_error err;
    snprintf(path, sizeof path, "replay_fields_%s_%d_%u.xpbdr", R_NAME, variant,
             (unsigned)(xt_next(&(xt_rng){(uint64_t)(uintptr_t)a}) % 100000u));
    /* 1. a recording of no frame: the engine it builds is the recorded one,
     * and the file's configuration, options and colouring are its own */
    xpbd_replay_file rec;
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec, a, 1.0 / 60) == XPBD_OK);
    REQUIRE(SFX(xpbd_replay_record_end)(&rec, a) == XPBD_OK && sb_replay_save(&rec, path));
    xpbd_replay_file fl;
    REQUIRE_STATUS(xpbd_replay_load(path, &fl, &err), XPBD_OK);
    ENSURE_INT(fl.format, XPBD_REPLAY_FORMAT);
    rt_same_config(SFX(xpbd_engine_config)(a), &fl.config, "the file's configuration");
    rt_same_options(SFX(xpbd_engine_options)(a), &fl.options, "the file's options");
    rt_same_colouring(&t.s.colouring, &fl.colouring, "the file's colouring");
    ENG *b = NULL;
    REQUIRE_STATUS(SFX(xpbd_replay_run)(&fl, &b, &err), XPBD_OK);
    SFX(rt_same_engines)(b, a, XPBD_ISA_AUTO, 0, "the engine a recording of no frame builds");
    /* the values the scene set, as the engine holds them */
    ENSURE_INT(SFX(xpbd_engine_config)(b)->threads, 3); /* the options' threads */
    ENSURE_INT(SFX(xpbd_engine_config)(b)->solver, t.cfg.solver);
    ENSURE_INT(SB_V(b).colouring.runs, 1);
    ENSURE_INT(SB_V(b).colouring.layout, XPBD_LAYOUT_RUNS);
    ENSURE_INT(SB_V(b).frame, 1000);
    SFX(xpbd_engine_destroy)(b);
    xpbd_replay_free(&fl);
    /* 2. mid-run: a few frames, then N recorded with inputs of every kind */
    uint32_t torn = 0, split = 0, slept = 0;
    for (int f = 0; f < 5; ++f)
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec, a, 1.0 / 60) == XPBD_OK);
    for (int f = 0; f < RT_RECORDED; ++f) {
        SFX(rt_inputs)(&rec, a, t.nb, f);
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
        torn += SB_C(a)->torn;
        split += SB_C(a)->split;
        slept += SB_C(a)->fell_asleep;
    }
    REQUIRE(SFX(xpbd_replay_record_end)(&rec, a) == XPBD_OK && sb_replay_save(&rec, path));
    REQUIRE_STATUS(xpbd_replay_load(path, &fl, &err), XPBD_OK);
    remove(path);
    ENSURE_INT(fl.frames, RT_RECORDED);
    ENSURE_INT(fl.start_frame, 1005);
    ENSURE(fl.hash == SFX(xpbd_replay_state_hash)(a));
    REQUIRE_STATUS(SFX(xpbd_replay_run)(&fl, &b, &err), XPBD_OK);
    SFX(rt_same_engines)(b, a, XPBD_ISA_AUTO, 0, "the engine at the recording's end");
    SFX(xpbd_engine_destroy)(b);
    /* 3. the recorded engine goes on for 100 frames: every frame's hash */
    uint64_t want[RT_CONTINUED];
    for (int f = 0; f < RT_CONTINUED; ++f) {
        SFX(rt_poke)(a, t.nb, f);
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
        want[f] = SFX(replay_check_hash)(a);
        torn += SB_C(a)->torn;
        split += SB_C(a)->split;
        slept += SB_C(a)->fell_asleep;
    }
    SB_NOTE("round trip %s variant %d: %u torn, %u split, %u fell asleep\n", R_NAME, variant,
            torn, split, slept);
    ENSURE(torn > 0);
    ENSURE(variant ? split > 0 : split == 0); /* keep_hinges 1: no vertex splits */
    ENSURE(slept > 0);
    /* 4. the replay continues it bit for bit on every path */
    int paths = 0;
    for (int isa = XPBD_ISA_SCALAR; isa < XPBD_ISA_COUNT; ++isa) {
        if (!xpbd_isa_compiled((xpbd_isa)isa) || !xpbd_isa_supported((xpbd_isa)isa))
            continue;
        for (uint32_t threads = 1; threads <= 3; threads += 2) {
            xpbd_replay_file g = fl;
            g.config.isa = (xpbd_isa)isa;
            g.config.threads = g.options.threads = threads;
            b = NULL;
            const xpbd_status st = SFX(xpbd_replay_run)(&g, &b, &err);
            ENSURE(st >= 0);
            if (!b || st < 0) {
                SFX(xpbd_engine_destroy)(b);
                continue;
            }
            ++paths;
            ENSURE(SFX(xpbd_replay_state_hash)(b) == fl.hash);
            int first = -1;
            for (int f = 0; f < RT_CONTINUED; ++f) {
                SFX(rt_poke)(b, t.nb, f);
                if (SFX(xpbd_engine_step)(b, 1.0 / 60) < 0 ||
                    (SFX(replay_check_hash)(b) != want[f] && first < 0)) {
                    first = f;
                    if (xt_fail_begin(__FILE__, __LINE__))
                        fprintf(stderr, "%s %s threads %u: the continuation differs at frame %d\n",
                                R_NAME, xpbd_isa_name((xpbd_isa)isa), threads, f);
                    break;
                }
            }
            if (first < 0) {
                char what[96];
                snprintf(what, sizeof what, "continued %s on %s at %u threads", R_NAME,
                         xpbd_isa_name((xpbd_isa)isa), threads);
                SFX(rt_same_engines)(b, a, (xpbd_isa)isa, threads, what);
            }
            SFX(xpbd_engine_destroy)(b);
        }
    }
    ENSURE(paths >= 2);
    xpbd_replay_free(&fl);
    SFX(xpbd_engine_destroy)(a);
    SFX(rt_scene_free)(&t);
}

/* replay_check on recordings of the variant-0 scene: every path equals the
 * reference; a flipped bit, and a second recording with one more input, are
 * found where they are. */
static void SFX(rt_check)(void)
{
    SFX(rt_scene) t;
    REQUIRE(SFX(rt_scene_make)(&t, 0));
    t.cfg.isa = XPBD_ISA_AUTO;
    ENG *a = NULL, *a2 = NULL;
    REQUIRE_STATUS(SFX(xpbd_engine_create)(&a, &t.s, &t.cfg, &t.opt, NULL), XPBD_OK);
    REQUIRE_STATUS(SFX(xpbd_engine_create)(&a2, &t.s, &t.cfg, &t.opt, NULL), XPBD_OK);
    char path[96], path2[96], err[512];
    xpbd_replay_error le;
    const unsigned tag = (unsigned)(xt_next(&(xt_rng){(uint64_t)(uintptr_t)a}) % 100000u);
    snprintf(path, sizeof path, "replay_check_%s_%u.xpbdr", R_NAME, tag);
    snprintf(path2, sizeof path2, "replay_check_%s_%u_b.xpbdr", R_NAME, tag);
    xpbd_replay_file rec, rec2;
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec, a, 1.0 / 60) == XPBD_OK);
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec2, a2, 1.0 / 60) == XPBD_OK);
    for (int f = 0; f < 40; ++f) {
        SFX(rt_inputs)(&rec, a, t.nb, f);
        SFX(rt_inputs)(&rec2, a2, t.nb, f);
        if (f == 25) { /* the second recording's one more input */
            const xpbd_input in = {XPBD_INPUT_ADD_VELOCITY, 0, 1, {1, 0, 0}};
            ENSURE_STATUS(SFX(xpbd_replay_record_apply)(&rec2, a2, &in), XPBD_OK);
        }
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
        REQUIRE(SFX(xpbd_engine_step)(a2, 1.0 / 60) >= 0);
    }
    REQUIRE(SFX(xpbd_replay_record_end)(&rec, a) == XPBD_OK && sb_replay_save(&rec, path));
    REQUIRE(SFX(xpbd_replay_record_end)(&rec2, a2) == XPBD_OK && sb_replay_save(&rec2, path2));
    xpbd_replay_file fl, fl2;
    REQUIRE_STATUS(xpbd_replay_load(path, &fl, &le), XPBD_OK);
    REQUIRE_STATUS(xpbd_replay_load(path2, &fl2, &le), XPBD_OK);
    remove(path);
    remove(path2);
    replay_check_path p[2 * XPBD_ISA_COUNT], ref;
    const size_t np = replay_check_paths(p, sizeof p / sizeof p[0], 3);
    REQUIRE(np >= 2);
    ENSURE_INT(p[0].isa, XPBD_ISA_SCALAR);
    ENSURE_INT(p[0].threads, 1);
    ENSURE_INT(p[1].threads, 3);
    /* all equal, and the reference reproduces the recording */
    REQUIRE_STATUS(replay_check(&fl, &fl, p, np, NULL, &ref, err, sizeof err), XPBD_OK);
    ENSURE(ref.state_hash == fl.hash);
    ENSURE_INT(ref.status, XPBD_OK);
    for (size_t k = 0; k < np; ++k) {
        ENSURE_INT(p[k].differs, 0);
        ENSURE(p[k].hash == ref.hash);
        ENSURE(p[k].state_hash == fl.hash);
    }
    /* one bit of one particle of the last path's state, after one frame */
    const uint64_t s = fl.start_frame;
    static const struct {
        uint64_t after;
        uint32_t particle;
        int field;
        const char *name;
    } flip[] = {{17, 5, 7, "vy"}, {3, 30, 0, "x"}, {0, 12, 9, "w"}, {39, 50, 2, "z"},
                {40, 61, 8, "vz"}};
    for (size_t k = 0; k < sizeof flip / sizeof flip[0]; ++k) {
        const size_t victim = k % 2 ? 1 : np - 1;
        const replay_check_perturb pt = {victim, s + flip[k].after, flip[k].particle, flip[k].field};
        REQUIRE_STATUS(replay_check(&fl, &fl, p, np, &pt, &ref, err, sizeof err), XPBD_OK);
        for (size_t j = 0; j < np; ++j) {
            ENSURE_INT(p[j].differs, j == victim);
            if (j != victim)
                continue;
            ENSURE_INT(p[j].frame, s + flip[k].after);
            ENSURE_INT(p[j].index, flip[k].particle);
            ENSURE(strcmp(p[j].field, flip[k].name) == 0);
            /* (its final hash may equal the reference's: a later frame can
             * round the flipped bit away, the pinned particle 30's drags do) */
        }
    }
    /* no input sets px; a path that is not there */
    replay_check_perturb bad = {0, s + 2, 3, 4};
    ENSURE_STATUS(replay_check(&fl, &fl, p, np, &bad, &ref, err, sizeof err), XPBD_ERR_ARGUMENT);
    bad = (replay_check_perturb){np, s + 2, 3, 0};
    ENSURE_STATUS(replay_check(&fl, &fl, p, np, &bad, &ref, err, sizeof err), XPBD_ERR_ARGUMENT);
    bad = (replay_check_perturb){0, s + 2, (uint32_t)t.n + 500, 0};
    ENSURE_STATUS(replay_check(&fl, &fl, p, np, &bad, &ref, err, sizeof err), XPBD_ERR_ARGUMENT);
    /* the second recording: its poke of particle 0 before frame s + 26 */
    REQUIRE_STATUS(replay_check(&fl, &fl2, p, np, NULL, &ref, err, sizeof err), XPBD_OK);
    for (size_t j = 0; j < np; ++j) {
        ENSURE_INT(p[j].differs, 1);
        ENSURE_INT(p[j].frame, s + 26);
        ENSURE_INT(p[j].index, 0);
        ENSURE(strcmp(p[j].field, "x") == 0);
        ENSURE(p[j].state_hash == fl2.hash);
    }
    xpbd_replay_free(&fl);
    xpbd_replay_free(&fl2);
    SFX(xpbd_engine_destroy)(a);
    SFX(xpbd_engine_destroy)(a2);
    SFX(rt_scene_free)(&t);
}

#undef ENG
#undef SCENE
#define XPBD_PRECISION_END
#include "precision.h"

#else /* no precision open: the shared part */

#include "test.h"
#include "test_softbody.h"
#include "replay_tool.h"
#include "scenes.h"

#include <stddef.h>
#include <stdlib.h>

/* Every field of the structs a replay carries, and how the round trip
 * compares it (RT_CMP):
 *   VAL   the value, bit for bit
 *   ARR   an array of n elements by content (both NULL or neither)
 *   PART  NULL in the engine's view: its values live in the particle
 *         arrays, compared there (sb_same_particles)
 *   ZERO  folded by the engine into the per-element arrays: 0 in its view
 *   HOST  a host pointer, not in the file (report/replay.h)
 * Each list is checked against its struct (RT_MIRROR): the same size and
 * every field at the same offset, so a field added to one of them fails to
 * compile here until it is listed; add it to the replay file
 * (report/replay.c) and give it a value other than its default in
 * rt_scene_make. (A field fitted into a padding hole keeps the size and the
 * offsets: list it here all the same.) */
#define RT_SCENE_FIELDS(R, X)                                   \
    X(size_t, particles, , VAL, 1)                              \
    X(const R *, xyz, , PART, 0)                                \
    X(const R *, rest_xyz, , ARR, 3 * a->particles)             \
    X(const R *, vel, , PART, 0)                                \
    X(const R *, inv_mass, , PART, 0)                           \
    X(const R *, radius, , ARR, a->particles)                   \
    X(size_t, edges, , VAL, 1)                                  \
    X(const uint32_t *, edge, , ARR, 2 * a->edges)              \
    X(const R *, edge_rest, , ARR, a->edges)                    \
    X(const R *, edge_compliance, , ARR, a->edges)              \
    X(double, edge_alpha, , ZERO, 0)                            \
    X(size_t, tets, , VAL, 1)                                   \
    X(const uint32_t *, tet, , ARR, 4 * a->tets)                \
    X(const R *, tet_compliance, , ARR, a->tets)                \
    X(double, tet_alpha, , ZERO, 0)                             \
    X(size_t, bends, , VAL, 1)                                  \
    X(const uint32_t *, bend, , ARR, 4 * a->bends)              \
    X(const R *, bend_compliance, , ARR, a->bends)              \
    X(double, bend_alpha, , ZERO, 0)                            \
    X(const uint32_t *, tether_anchor, , ARR, a->particles)     \
    X(const R *, tether_length, , ARR, a->particles)            \
    X(const uint32_t *, origin, , ARR, a->particles)            \
    X(uint32_t, bodies, , VAL, 1)                               \
    X(const size_t *, body_begin, , ARR, a->bodies + 1u)        \
    X(uint32_t, planes, , VAL, 1)                               \
    X(const xpbd_plane *, plane, , ARR, a->planes)              \
    X(size_t, max_contacts, , VAL, 1)                           \
    X(xpbd_colouring_options, colouring, , VAL, 1)              \
    X(const R *, prev_xyz, , PART, 0)                           \
    X(const uint8_t *, asleep, , ARR, a->bodies)                \
    X(const uint32_t *, calm, , ARR, a->bodies)                 \
    X(const uint64_t *, signature, , ARR, a->bodies)            \
    X(uint64_t, frame, , VAL, 1)

#define RT_CONFIG_FIELDS(X)                                     \
    X(uint32_t, version, , VAL, 1)                              \
    X(uint32_t, substeps, , VAL, 1)                             \
    X(uint32_t, iterations, , VAL, 1)                           \
    X(double, gravity, [3], VAL, 1)                             \
    X(double, damping, , VAL, 1)                                \
    X(double, pbd_stiffness, , VAL, 1)                          \
    X(double, spring_damping, , VAL, 1)                         \
    X(xpbd_solver, solver, , VAL, 1)                            \
    X(xpbd_lambda_reset, lambda_reset, , VAL, 1)                \
    X(xpbd_isa, isa, , VAL, 1)                                  \
    X(int, measure_residual, , VAL, 1)                          \
    X(double, contact_beta, , VAL, 1)                           \
    X(double, restitution, , VAL, 1)                            \
    X(double, contact_slop, , VAL, 1)                           \
    X(double, friction_static, , VAL, 1)                        \
    X(double, friction_dynamic, , VAL, 1)                       \
    X(double, contact_skin, , VAL, 1)                           \
    X(int, contact_weighted, , VAL, 1)                          \
    X(int, contact_velocity_pass, , VAL, 1)                     \
    X(xpbd_contact_order, contact_order, , VAL, 1)              \
    X(double, relative_damping, , VAL, 1)                       \
    X(uint32_t, threads, , VAL, 1)                              \
    X(const xpbd_executor *, executor, , HOST, 0)

#define RT_OPTIONS_FIELDS(X)                                    \
    X(double, tear_stretch, , VAL, 1)                           \
    X(double, sleep_energy, , VAL, 1)                           \
    X(uint32_t, sleep_steps, , VAL, 1)                          \
    X(uint32_t, keep_hinges, , VAL, 1)                          \
    X(uint32_t, max_particles, , VAL, 1)                        \
    X(uint32_t, threads, , VAL, 1)                              \
    X(const xpbd_executor *, executor, , HOST, 0)

#define RT_COLOURING_FIELDS(X)                                  \
    X(uint32_t, max_colours, , VAL, 1)                          \
    X(int, serial, , VAL, 1)                                    \
    X(int, runs, , VAL, 1)                                      \
    X(int, layout, , VAL, 1)                                    \
    X(uint32_t, regions, , VAL, 1)

/* The mirrors: a struct of the listed fields, checked against the real one. */
#define RT_MEMBER(type, name, dims, kind, n) type name dims;
#define RT_OFFSET(type, name, dims, kind, n)                                                   \
    _Static_assert(offsetof(RT_MIRROR, name) == offsetof(RT_REAL, name),                      \
                   "replay round trip: a field before " #name " is not listed");
#define RT_CHECK_MIRROR(list)                                                                  \
    _Static_assert(sizeof(RT_MIRROR) == sizeof(RT_REAL),                                      \
                   "replay round trip: a field is not listed (update the lists above)");       \
    list

typedef struct { RT_SCENE_FIELDS(float, RT_MEMBER) } rt_mirror_scene_f32;
typedef struct { RT_SCENE_FIELDS(double, RT_MEMBER) } rt_mirror_scene_f64;
typedef struct { RT_CONFIG_FIELDS(RT_MEMBER) } rt_mirror_config;
typedef struct { RT_OPTIONS_FIELDS(RT_MEMBER) } rt_mirror_options;
typedef struct { RT_COLOURING_FIELDS(RT_MEMBER) } rt_mirror_colouring;

#define RT_MIRROR rt_mirror_scene_f32
#define RT_REAL xpbd_scene_f32
RT_CHECK_MIRROR(RT_SCENE_FIELDS(float, RT_OFFSET))
#undef RT_MIRROR
#undef RT_REAL
#define RT_MIRROR rt_mirror_scene_f64
#define RT_REAL xpbd_scene_f64
RT_CHECK_MIRROR(RT_SCENE_FIELDS(double, RT_OFFSET))
#undef RT_MIRROR
#undef RT_REAL
#define RT_MIRROR rt_mirror_config
#define RT_REAL xpbd_step_config
RT_CHECK_MIRROR(RT_CONFIG_FIELDS(RT_OFFSET))
#undef RT_MIRROR
#undef RT_REAL
#define RT_MIRROR rt_mirror_options
#define RT_REAL xpbd_engine_options
RT_CHECK_MIRROR(RT_OPTIONS_FIELDS(RT_OFFSET))
#undef RT_MIRROR
#undef RT_REAL
#define RT_MIRROR rt_mirror_colouring
#define RT_REAL xpbd_colouring_options
RT_CHECK_MIRROR(RT_COLOURING_FIELDS(RT_OFFSET))
#undef RT_MIRROR
#undef RT_REAL

/* Frames recorded, and continued after the recording. */
enum { RT_RECORDED = 60, RT_CONTINUED = 100 };

/* Both NULL, or both set with the same bytes. */
static int rt_same_array(const void *a, const void *b, size_t bytes)
{
    if (!a || !b)
        return a == b;
    return bytes == 0 || memcmp(a, b, bytes) == 0;
}

static void rt_differs(const char *file, int line, const char *when, const char *field)
{
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s: field %s differs from the recorded one\n", when, field);
}

#define RT_ENSURE(cond, name)                                                                  \
    do {                                                                                       \
        if (!(cond))                                                                           \
            rt_differs(__FILE__, __LINE__, when, name);                                        \
    } while (0)
#define RT_CMP(type, name, dims, kind, n) RT_CMP_##kind(name, n);
#define RT_CMP_VAL(name, n) RT_ENSURE(memcmp(&a->name, &b->name, sizeof a->name) == 0, #name)
#define RT_CMP_ARR(name, n)                                                                    \
    RT_ENSURE(rt_same_array(a->name, b->name, (size_t)(n) * sizeof *a->name), #name)
#define RT_CMP_PART(name, n) RT_ENSURE(a->name == NULL && b->name == NULL, #name)
#define RT_CMP_ZERO(name, n) RT_ENSURE(a->name == 0 && b->name == 0, #name)
#define RT_CMP_HOST(name, n) ((void)0)

static void rt_same_config(const xpbd_step_config *a, const xpbd_step_config *b,
                           const char *when)
{
    RT_CONFIG_FIELDS(RT_CMP)
}

static void rt_same_options(const xpbd_engine_options *a, const xpbd_engine_options *b,
                            const char *when)
{
    RT_OPTIONS_FIELDS(RT_CMP)
}

static void rt_same_colouring(const xpbd_colouring_options *a, const xpbd_colouring_options *b,
                              const char *when)
{
    RT_COLOURING_FIELDS(RT_CMP)
}

#define XPBD_REAL_F32
#include "test_engine_replay_fields.c"
#define XPBD_REAL_F64
#include "test_engine_replay_fields.c"

void softbody_replay_fields(void)
{
    rt_every_field_f32(0);
    rt_every_field_f32(1);
    rt_every_field_f64(0);
    rt_every_field_f64(1);
}

void softbody_replay_check(void)
{
    rt_check_f32();
    rt_check_f64();
}

/* Rewrites a format-5 file as the format-3 writer wrote it: header 3, no
 * threads in the config and options lines, the colouring line without runs
 * and layout (or, runs >= 0, with that value written by hand as its third
 * number). */
static int rt_as_format3(const char *from, const char *to, int runs)
{
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    int ok = f && g;
    char line[8192];
    while (ok && fgets(line, sizeof line, f)) {
        if (strcmp(line, "xpbd-replay 5\n") == 0) {
            strcpy(line, "xpbd-replay 3\n");
        } else if (strncmp(line, "colouring ", 10) == 0) {
            *strrchr(line, ' ') = '\0'; /* no regions */
            *strrchr(line, ' ') = '\0'; /* no layout */
        }
        if (strncmp(line, "config ", 7) == 0 || strncmp(line, "options ", 8) == 0) {
            char *t = strstr(line, " threads ");
            ok = t != NULL && strchr(t + 9, ' ') == NULL; /* the last field */
            if (ok)
                strcpy(t, "\n");
        } else if (strncmp(line, "colouring ", 10) == 0) {
            char *t = strrchr(line, ' ');
            if (runs >= 0)
                snprintf(t, sizeof line - (size_t)(t - line), " %d\n", runs);
            else
                strcpy(t, "\n");
        }
        ok = ok && fputs(line, g) >= 0;
    }
    if (f)
        fclose(f);
    if (g && fclose(g) != 0)
        ok = 0;
    return ok;
}

/* Rewrites a format-5 file as the format-4 writer wrote it (the colouring
 * line without its layout and regions), at protocol p (header and configuration). */
static int rt_as_format4(const char *from, const char *to, unsigned p)
{
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    int ok = f && g;
    char line[8192], was[40];
    snprintf(was, sizeof was, "config version %u ", (unsigned)XPBD_PROTOCOL_VERSION);
    while (ok && fgets(line, sizeof line, f)) {
        if (strcmp(line, "xpbd-replay 5\n") == 0)
            strcpy(line, "xpbd-replay 4\n");
        else if (strncmp(line, "protocol ", 9) == 0)
            snprintf(line, sizeof line, "protocol %u\n", p);
        else if (strncmp(line, "colouring ", 10) == 0) {
            *strrchr(line, ' ') = '\0'; /* no regions */
            strcpy(strrchr(line, ' '), "\n"); /* no layout */
        }
        if (strncmp(line, was, strlen(was)) == 0)
            ok = ok && fprintf(g, "config version %u ", p) > 0 &&
                 fputs(line + strlen(was), g) >= 0;
        else
            ok = ok && fputs(line, g) >= 0;
    }
    if (f)
        fclose(f);
    if (g && fclose(g) != 0)
        ok = 0;
    return ok;
}

/* A chain of 6 particles (and, edges = 0, the same particles unlinked)
 * recorded with the given colouring; the file's path in path. */
static int rt_record_chain(const char *path, const xpbd_colouring_options *col, int edges)
{
    enum { N = 6 };
    double xyz[3 * N], w[N];
    uint32_t edge[2 * (N - 1)];
    for (int i = 0; i < N; ++i) {
        xyz[3 * i] = 0.02 * i * i;
        xyz[3 * i + 1] = -0.1 * i;
        xyz[3 * i + 2] = 0;
        w[i] = i == 0 ? 0 : 1;
    }
    for (int i = 0; i + 1 < N; ++i) {
        edge[2 * i] = (uint32_t)(i % 2 ? N - 1 - i / 2 : i / 2);
        edge[2 * i + 1] = (uint32_t)(i % 2 ? N - 2 - i / 2 : i / 2 + 1);
    }
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = N;
    s.xyz = xyz;
    s.inv_mass = w;
    s.edges = edges ? N - 1 : 0;
    s.edge = edge;
    s.edge_alpha = 1e-6;
    s.colouring = *col;
    xpbd_engine_f64 *e = NULL;
    xpbd_replay_file rec;
    int ok = xpbd_engine_create_f64(&e, &s, NULL, NULL, NULL) == XPBD_OK &&
             xpbd_replay_record_begin_f64(&rec, e, 1.0 / 60) == XPBD_OK;
    ok = ok && xs_run(e, 20);
    ok = e && xpbd_replay_record_end_f64(&rec, e) == XPBD_OK && sb_replay_save(&rec, path) && ok;
    xpbd_engine_destroy_f64(e);
    return ok;
}

/* 1 if the file loads, replays and reproduces its hash; the loaded
 * colouring and threads in *out. */
static int rt_reproduces(const char *path, xpbd_replay_file *out)
{
    xpbd_replay_error err;
    if (xpbd_replay_load(path, out, &err) != XPBD_OK)
        return 0;
    xpbd_engine_f64 *e = NULL;
    const int ok = xpbd_replay_run_f64(out, &e, &err) == XPBD_OK &&
                   xpbd_replay_state_hash_f64(e) == out->hash;
    xpbd_engine_destroy_f64(e);
    return ok;
}

/* Format 3 (no runs, no threads) still loads where it reads unambiguously
 * with the old defaults, and is refused where runs would order the edges. */
void softbody_replay_format3(void)
{
    const char *p4 = "replay_format3_new.xpbdr", *p3 = "replay_format3_old.xpbdr";
    xpbd_replay_error err;
    xpbd_replay_file f;
    const xpbd_colouring_options plain = {.layout = XPBD_LAYOUT_INPUT}, runs = {.runs = 1},
                                 serial = {.serial = 1};
    /* edges coloured without serial: which runs the engine had is unknown */
    REQUIRE(rt_record_chain(p4, &runs, 1));
    REQUIRE(rt_reproduces(p4, &f));
    ENSURE_INT(f.colouring.runs, 1);
    xpbd_replay_free(&f);
    REQUIRE(rt_as_format3(p4, p3, -1));
    ENSURE_STATUS(xpbd_replay_load(p3, &f, &err), XPBD_ERR_VERSION);
    ENSURE(strstr(err.what, "format 3") && strstr(err.what, "colouring.runs") &&
           strstr(err.what, "refused"));
    ENSURE_INT(err.line, 8); /* the colouring line */
    ENSURE(f.particle == NULL);
    /* given by hand, the recording's value replays it, the other does not */
    REQUIRE(rt_as_format3(p4, p3, 1));
    ENSURE(rt_reproduces(p3, &f));
    ENSURE_INT(f.format, 3);
    ENSURE_INT(f.colouring.runs, 1);
    ENSURE_INT(f.config.threads, 0); /* as the format-3 reader left it */
    ENSURE_INT(f.options.threads, 0);
    xpbd_replay_free(&f);
    REQUIRE(rt_as_format3(p4, p3, 0));
    ENSURE(!rt_reproduces(p3, &f));
    xpbd_replay_free(&f);
    /* runs 0 recorded, 0 given */
    REQUIRE(rt_record_chain(p4, &plain, 1));
    REQUIRE(rt_as_format3(p4, p3, 0));
    ENSURE(rt_reproduces(p3, &f));
    xpbd_replay_free(&f);
    /* serial, or no edges: runs orders nothing, the file loads as it is */
    REQUIRE(rt_record_chain(p4, &serial, 1));
    REQUIRE(rt_as_format3(p4, p3, -1));
    ENSURE(rt_reproduces(p3, &f));
    ENSURE_INT(f.colouring.runs, 0);
    ENSURE_INT(f.colouring.serial, 1);
    xpbd_replay_free(&f);
    REQUIRE(rt_record_chain(p4, &runs, 0));
    REQUIRE(rt_as_format3(p4, p3, -1));
    ENSURE(rt_reproduces(p3, &f));
    ENSURE_INT(f.edges, 0);
    xpbd_replay_free(&f);
    /* a format-4 file without threads is malformed, not format 3 */
    REQUIRE(rt_record_chain(p4, &plain, 1));
    REQUIRE(rt_as_format3(p4, p3, 0));
    FILE *g = fopen(p3, "r+b");
    REQUIRE(g != NULL);
    ENSURE(fputs("xpbd-replay 4\n", g) >= 0); /* same length as the format-3 header */
    fclose(g);
    ENSURE_STATUS(xpbd_replay_load(p3, &f, &err), XPBD_ERR_FILE);
    remove(p3);
    remove(p4);
}

/* Format 4 (protocol 1: no layout) is refused for its protocol, with a
 * message naming both; hand-set to this protocol, its layout is what its
 * recorder did: runs with runs = 1, input order without. */
void softbody_replay_format4(void)
{
    const char *p5 = "replay_format4_new.xpbdr", *p4 = "replay_format4_old.xpbdr";
    xpbd_replay_error err;
    xpbd_replay_file f;
    const xpbd_colouring_options input = {.layout = XPBD_LAYOUT_INPUT}, runs = {.runs = 1};
    REQUIRE(rt_record_chain(p5, &input, 1));
    REQUIRE(rt_as_format4(p5, p4, 1));
    ENSURE_STATUS(xpbd_replay_load(p4, &f, &err), XPBD_ERR_VERSION);
    ENSURE(strstr(err.what, "step protocol 1") && strstr(err.what, "protocol 2") &&
           strstr(err.what, "refused"));
    ENSURE_INT(err.line, 2);
    ENSURE(f.particle == NULL);
    REQUIRE(rt_as_format4(p5, p4, XPBD_PROTOCOL_VERSION));
    ENSURE(rt_reproduces(p4, &f));
    ENSURE_INT(f.format, 4);
    ENSURE_INT(f.colouring.layout, XPBD_LAYOUT_INPUT);
    xpbd_replay_free(&f);
    REQUIRE(rt_record_chain(p5, &runs, 1));
    REQUIRE(rt_as_format4(p5, p4, XPBD_PROTOCOL_VERSION));
    ENSURE(rt_reproduces(p4, &f));
    ENSURE_INT(f.colouring.runs, 1);
    ENSURE_INT(f.colouring.layout, XPBD_LAYOUT_RUNS);
    xpbd_replay_free(&f);
    /* format 5 needs the layout */
    REQUIRE(rt_as_format4(p5, p4, XPBD_PROTOCOL_VERSION));
    FILE *g = fopen(p4, "r+b");
    REQUIRE(g != NULL);
    ENSURE(fputs("xpbd-replay 5\n", g) >= 0);
    fclose(g);
    ENSURE_STATUS(xpbd_replay_load(p4, &f, &err), XPBD_ERR_FILE);
    ENSURE(strstr(err.what, "<layout>") != NULL);
    remove(p4);
    remove(p5);
}

#endif /* XPBD_REAL_F32 or XPBD_REAL_F64 */
