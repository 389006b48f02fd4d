/* SPDX-License-Identifier: MIT */
/* The engine's contract at its entry points: what create refuses (and that
 * a refused create holds nothing), that every scene create accepts can be
 * stepped, and that an input that would overflow the engine's precision is
 * refused with the state untouched. The cases the contract would otherwise
 * be silent on are decided here: a tether anchored to a dynamic particle
 * (inactive until the anchor is pinned), particles before the first body
 * (free particles), origin[] naming a particle past n (refused). */
#include "test.h"
#include "test_softbody.h"
#include "scenes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define ECN 16 /* particles of the test chain */

/* A chain of ECN particles 0.1 m apart along x, particle 0 pinned, radius
 * 0.04 m, with the ground plane y = -1. */
typedef struct ec_chain {
    double xyz[3 * ECN], w[ECN], radius[ECN];
    uint32_t edge[2 * (ECN - 1)];
    xpbd_plane plane;
    xpbd_scene_f64 s;
} ec_chain;

static void ec_chain_make(ec_chain *c)
{
    memset(c, 0, sizeof *c);
    for (uint32_t i = 0; i < ECN; ++i) {
        c->xyz[3 * i] = 0.1 * i;
        c->w[i] = i ? 1 : 0;
        c->radius[i] = 0.04;
        if (i + 1 < ECN) {
            c->edge[2 * i] = i;
            c->edge[2 * i + 1] = i + 1;
        }
    }
    c->plane.n[1] = 1;
    c->plane.d = -1;
    c->s.particles = ECN;
    c->s.xyz = c->xyz;
    c->s.inv_mass = c->w;
    c->s.radius = c->radius;
    c->s.edges = ECN - 1;
    c->s.edge = c->edge;
    c->s.planes = 1;
    c->s.plane = &c->plane;
}

/* A refused create: the status and element it names (with a part: each of
 * these errors has a place), and no engine (the handle set to NULL,
 * whatever it held before). */
static int ec_refused(const xpbd_scene_f64 *s, const xpbd_step_config *cfg,
                      const xpbd_engine_options *opt, xpbd_status want, size_t want_bad,
                      const char *what)
{
    xpbd_engine_f64 *e = (xpbd_engine_f64 *)(uintptr_t)0x5a5a5a5a; /* not a valid engine */
    xpbd_where where = {XPBD_PART_COUNT, 12345, XPBD_FIELD_COUNT};
    const xpbd_status st = xpbd_engine_create_f64(&e, s, cfg, opt, &where);
    const size_t bad = where.index;
    const int ok = st == want && bad == want_bad && e == NULL && where.part != XPBD_PART_NONE &&
                   where.part < XPBD_PART_COUNT;
    if (!ok)
        fprintf(stderr,
                "    %s: status %d (want %d), index %zu (want %zu), part %s, handle NULL %d\n",
                what, (int)st, (int)want, bad, want_bad, xpbd_part_name(where.part), e == NULL);
    if (st == XPBD_OK)
        xpbd_engine_destroy_f64(e);
    return ok;
}

/* create refuses bad configuration and options with no engine made */
void engine_create_zeroed(void)
{
    ec_chain c;
    ec_chain_make(&c);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.version = 7;
    ENSURE(ec_refused(&c.s, &cfg, NULL, XPBD_ERR_VERSION, SIZE_MAX, "version 7"));
    const xpbd_engine_options bad_opts[] = {
        {.tear_stretch = -1},        {.tear_stretch = INFINITY},
        {.sleep_energy = NAN},       {.keep_hinges = 2},
        {.max_particles = ECN - 1},  {.max_particles = 0x80000000u},
    };
    for (size_t k = 0; k < sizeof bad_opts / sizeof bad_opts[0]; ++k)
        ENSURE(ec_refused(&c.s, NULL, &bad_opts[k], XPBD_ERR_CONFIG, SIZE_MAX, "options"));
    c.s.edge_alpha = -1;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_COMPLIANCE, SIZE_MAX, "edge_alpha -1"));
}

/* create runs the step's checks: a scene it accepts can be stepped */
void engine_create_steppable(void)
{
    ec_chain c;
    ec_chain_make(&c);
    c.plane.n[1] = 3; /* not unit length: every step would refuse it */
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_PLANE, 0, "plane normal (0, 3, 0)"));
    c.plane.n[1] = 1;
    c.plane.d = NAN;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_PLANE, 0, "plane d NaN"));
    c.plane.d = -1;
    uint32_t anchor[ECN];
    double length[ECN];
    for (uint32_t i = 0; i < ECN; ++i) {
        anchor[i] = i;
        length[i] = 0;
    }
    c.s.tether_anchor = anchor;
    c.s.tether_length = length;
    anchor[5] = 99;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_INDEX, 5, "tether_anchor[5] = 99"));
    anchor[5] = 0;
    length[7] = -1;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_REST, 7, "tether_length[7] = -1"));
    length[7] = 0;
    uint32_t origin[ECN];
    for (uint32_t i = 0; i < ECN; ++i)
        origin[i] = i;
    origin[3] = ECN; /* past n: no particle of any saved scene */
    c.s.origin = origin;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_INDEX, 3, "origin[3] = n"));
    origin[3] = 3;
    /* positions are checked before anything is derived from them */
    c.xyz[3 * 2 + 1] = NAN;
    ENSURE(ec_refused(&c.s, NULL, NULL, XPBD_ERR_POSITION, 2, "NaN position"));
    c.xyz[3 * 2 + 1] = 0;
    /* the repaired scene is accepted and steps */
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &c.s, NULL, NULL, NULL), XPBD_OK);
    ENSURE_STATUS(xpbd_engine_step_f64(e, 1.0 / 60), XPBD_OK);
    xpbd_engine_destroy_f64(e);
}

/* Decided: a tether whose anchor is dynamic does nothing (the kernel acts
 * for a static anchor only) until the anchor is pinned; then it holds. */
void engine_tether_dynamic_anchor(void)
{
    ec_chain c;
    ec_chain_make(&c);
    c.s.edges = 0;    /* free particles, no chain */
    c.s.planes = 0;
    c.w[0] = 1;       /* the anchor, particle 0, dynamic */
    uint32_t anchor[ECN];
    double length[ECN];
    for (uint32_t i = 0; i < ECN; ++i) {
        anchor[i] = i;
        length[i] = 0;
    }
    anchor[1] = 0;
    length[1] = 0.1; /* particle 1 at most 0.1 m from particle 0: taut now */
    c.s.tether_anchor = anchor;
    c.s.tether_length = length;
    double v[3 * ECN] = {0};
    v[3 * 1 + 0] = 3; /* particle 1 flies off along +x */
    c.s.vel = v;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.gravity[1] = 0;
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &c.s, &cfg, NULL, NULL), XPBD_OK);
    for (int f = 0; f < 6; ++f)
        REQUIRE_STATUS(xpbd_engine_step_f64(e, 0.05), XPBD_OK);
    /* untethered flight: x1 = 0.1 + 3 * 0.3 = 1.0 (to rounding), anchor still at 0 */
    ENSURE_NEAR(SB_P(e)->x[1], 1.0, 1e-12);
    ENSURE(SB_P(e)->x[0] == 0);
    const xpbd_input pin = {XPBD_INPUT_SET_INV_MASS, 0, 1, {0, 0, 0}};
    REQUIRE_STATUS(xpbd_engine_apply_f64(e, &pin), XPBD_OK);
    REQUIRE_STATUS(xpbd_engine_step_f64(e, 0.05), XPBD_OK);
    /* pinned: the tether pulls particle 1 back to 0.1 m from the anchor */
    ENSURE_NEAR(SB_P(e)->x[1], 0.1, 1e-12);
    xpbd_engine_destroy_f64(e);
}

/* Decided: particles before the first body (body_begin[0] = 3) are free
 * particles: they step, never sleep, and the body after them sleeps whole. */
void engine_first_body_later(void)
{
    ec_chain c;
    ec_chain_make(&c);
    c.s.planes = 0;
    c.w[0] = 0;
    const size_t begin[2] = {3, ECN};
    c.s.bodies = 1;
    c.s.body_begin = begin;
    for (uint32_t i = 0; i < ECN; ++i)
        c.w[i] = 0; /* everything pinned: the body is calm from the start */
    const xpbd_engine_options opt = {.sleep_energy = 1e-6, .sleep_steps = 2};
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &c.s, NULL, &opt, NULL), XPBD_OK);
    for (int f = 0; f < 3; ++f)
        REQUIRE_STATUS(xpbd_engine_step_f64(e, 1.0 / 60), XPBD_OK);
    ENSURE_INT(SB_C(e)->bodies, 1);
    ENSURE_INT(SB_C(e)->sleeping, 1);
    xpbd_engine_destroy_f64(e);
}

/* The particle state as bytes, to prove a refused input changed nothing. */
#define EC_STATE(e)                                                                           \
    const void *const a_[10] = {SB_P(e)->x,  SB_P(e)->y,  SB_P(e)->z,  SB_P(e)->px,          \
                                SB_P(e)->py, SB_P(e)->pz, SB_P(e)->vx, SB_P(e)->vy,          \
                                SB_P(e)->vz, SB_P(e)->w};                                     \
    const size_t bytes_ = SB_P(e)->count * sizeof SB_P(e)->x[0]

#define EC_STATE_SAVE(e)                                                                      \
    do {                                                                                      \
        EC_STATE(e);                                                                          \
        for (int k_ = 0; k_ < 10; ++k_)                                                       \
            memcpy(saved[k_], a_[k_], bytes_);                                                \
    } while (0)

#define EC_STATE_SAME(e)                                                                      \
    do {                                                                                      \
        EC_STATE(e);                                                                          \
        for (int k_ = 0; k_ < 10; ++k_)                                                       \
            ENSURE(memcmp(a_[k_], saved[k_], bytes_) == 0);                                   \
    } while (0)

/* apply checks each result in the engine's precision: nothing overflows */
void engine_apply_overflow(void)
{
    ec_chain c;
    ec_chain_make(&c);
    float xyz[3 * ECN], w[ECN];
    for (size_t i = 0; i < 3 * ECN; ++i)
        xyz[i] = (float)c.xyz[i];
    for (size_t i = 0; i < ECN; ++i)
        w[i] = (float)c.w[i];
    xpbd_scene_f32 s;
    memset(&s, 0, sizeof s);
    s.particles = ECN;
    s.xyz = xyz;
    s.inv_mass = w;
    xpbd_engine_f32 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f32(&e, &s, NULL, NULL, NULL), XPBD_OK);
    double saved[10][ECN];
    EC_STATE_SAVE(e);
    const xpbd_input huge_x = {XPBD_INPUT_TRANSLATE, 0, ECN, {1e300, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f32(e, &huge_x), XPBD_ERR_POSITION);
    const xpbd_input huge_v = {XPBD_INPUT_ADD_VELOCITY, 0, ECN, {0, 1e39, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f32(e, &huge_v), XPBD_ERR_VELOCITY);
    const xpbd_input set_v = {XPBD_INPUT_SET_VELOCITY, 0, ECN, {0, 0, -1e39}};
    ENSURE_STATUS(xpbd_engine_apply_f32(e, &set_v), XPBD_ERR_VELOCITY);
    const xpbd_input huge_w = {XPBD_INPUT_SET_INV_MASS, 0, ECN, {1e300, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f32(e, &huge_w), XPBD_ERR_INVERSE_MASS);
    EC_STATE_SAME(e);
    /* a sum that overflows for the last particles only: nothing written */
    const xpbd_input big = {XPBD_INPUT_TRANSLATE, ECN / 2, ECN, {3e38, 0, 0}};
    REQUIRE_STATUS(xpbd_engine_apply_f32(e, &big), XPBD_OK);
    EC_STATE_SAVE(e);
    const xpbd_input more = {XPBD_INPUT_TRANSLATE, 0, ECN, {5e37, 0, 0}}; /* > FLT_MAX past ECN/2 */
    ENSURE_STATUS(xpbd_engine_apply_f32(e, &more), XPBD_ERR_POSITION);
    EC_STATE_SAME(e);
    xpbd_engine_destroy_f32(e);

    c.s.planes = 0;
    xpbd_engine_f64 *d = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&d, &c.s, NULL, NULL, NULL), XPBD_OK);
    const xpbd_input x17 = {XPBD_INPUT_TRANSLATE, 0, ECN, {1.7e308, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(d, &x17), XPBD_OK);
    EC_STATE_SAVE(d);
    ENSURE_STATUS(xpbd_engine_apply_f64(d, &x17), XPBD_ERR_POSITION);
    EC_STATE_SAME(d);
    ENSURE(isfinite(SB_P(d)->x[ECN - 1]));
    xpbd_engine_destroy_f64(d);
}

/* Bad input at the engine's doors: nothing allocated, the index named. */
void softbody_bad_input(void)
{
    xs_mesh m;
    REQUIRE(xs_mesh_box(&m, 1, 0.1, (const double[3]){0, 0, 0}, 6));
    double w[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = 8;
    s.xyz = m.xyz;
    s.inv_mass = w;
    s.edges = m.k.edges;
    s.edge = m.edges;
    s.tets = m.k.tets;
    s.tet = m.tets;
    xpbd_engine_f64 *e = NULL;
    xpbd_where bad;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, NULL, NULL, NULL, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_engine_create_f64(NULL, &s, NULL, NULL, NULL), XPBD_ERR_ARGUMENT);
    s.edge_alpha = -1;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_COMPLIANCE);
    s.edge_alpha = 0;
    const xpbd_engine_options neg = {.tear_stretch = -1}, hinges2 = {.keep_hinges = 2},
                              too_few = {.max_particles = 7}, too_many = {.max_particles = 0x80000000u};
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, &neg, &bad), XPBD_ERR_CONFIG);
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, &hinges2, &bad), XPBD_ERR_CONFIG);
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, &too_few, &bad), XPBD_ERR_CONFIG);
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, &too_many, &bad), XPBD_ERR_CONFIG);
    m.edges[5] = 8; /* out of range */
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad.index, 2);
    ENSURE_INT(bad.part, XPBD_PART_DISTANCE);
    m.edges[5] = 3;
    m.tets[4 * 3 + 2] = m.tets[4 * 3]; /* repeated index in tet 3 */
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad.index, 3);
    ENSURE_INT(bad.part, XPBD_PART_TET);
    ENSURE(e == NULL); /* no engine, nothing held */
    m.tets[4 * 3 + 2] = m.tets[4 * 3 + 1] == 7 ? 6 : 7;
    w[5] = -1;
    s.tets = 0;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_INVERSE_MASS);
    ENSURE_INT(bad.index, 5);
    ENSURE_INT(bad.part, XPBD_PART_PARTICLES);
    w[5] = 1;
    const size_t body[2] = {0, 9};
    s.bodies = 1;
    s.body_begin = body;
    /* a range past n: refused as the world step refuses it */
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_CONFIG);
    ENSURE_INT(bad.part, XPBD_PART_BODY);
    ENSURE_INT(bad.index, 0);
    ENSURE_INT(bad.field, XPBD_FIELD_BODY_BEGIN);
    s.bodies = 0;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_OK);
    const xpbd_input bad_range = {XPBD_INPUT_ADD_VELOCITY, 3, 9, {1, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(e, &bad_range), XPBD_ERR_ARGUMENT);
    const xpbd_input nan_v = {XPBD_INPUT_SET_VELOCITY, 0, 2, {NAN, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(e, &nan_v), XPBD_ERR_VELOCITY);
    const xpbd_input neg_w = {XPBD_INPUT_SET_INV_MASS, 0, 2, {-2, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(e, &neg_w), XPBD_ERR_INVERSE_MASS);
    const xpbd_input kind = {99, 0, 1, {0, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(e, &kind), XPBD_ERR_ARGUMENT);
    const xpbd_input wake = {XPBD_INPUT_WAKE, 0, 0, {0, 0, 0}};
    ENSURE_STATUS(xpbd_engine_apply_f64(e, &wake), XPBD_ERR_ARGUMENT); /* no bodies */
    xpbd_rigid_impulse j;
    xpbd_rigid_f64 sphere;
    memset(&sphere, 0, sizeof sphere);
    ENSURE_STATUS(xpbd_engine_couple_rigid_f64(e, &sphere, 0.01, &j), XPBD_ERR_ARGUMENT);
    ENSURE(SB_P(e)->vx[0] == 0);
    xpbd_engine_destroy_f64(e);
    xpbd_engine_destroy_f64(NULL); /* NULL is fine */
    xs_mesh_free(&m);
}

/* The options' threads and executor reach every step the engine runs (the
 * configuration it reports), survive a new configuration, and change no
 * bit of the result: the torn curtain on 4 workers equals it on 1. */
void engine_threads(void)
{
    xs_curtain a, b;
    REQUIRE(xs_curtain_make(&a, 0));
    REQUIRE(xs_curtain_make(&b, 0));
    xpbd_step_config cfg = *xpbd_engine_config_f64(b.e);
    cfg.threads = 4;
    REQUIRE_STATUS(xpbd_engine_set_config_f64(b.e, &cfg), XPBD_OK);
    ENSURE_INT(xpbd_engine_config_f64(b.e)->threads, 4);
    for (int f = 0; f < 30; ++f) {
        REQUIRE_STATUS(xs_curtain_frame(&a), XPBD_OK);
        REQUIRE_STATUS(xs_curtain_frame(&b), XPBD_OK);
    }
    REQUIRE(SB_P(a.e)->count == SB_P(b.e)->count);
    sb_same_particles_f64(b.e, a.e, SB_P(a.e)->count, "threads 4 against 1");
    xs_curtain_free(&a);
    xs_curtain_free(&b);

    ec_chain c;
    ec_chain_make(&c);
    const xpbd_engine_options opt = {.threads = 3, .executor = xpbd_executor_default()};
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &c.s, NULL, &opt, NULL), XPBD_OK);
    ENSURE_INT(xpbd_engine_config_f64(e)->threads, 3);
    ENSURE(xpbd_engine_config_f64(e)->executor == xpbd_executor_default());
    cfg = xpbd_step_config_default(); /* threads 1: the options still decide */
    REQUIRE_STATUS(xpbd_engine_set_config_f64(e, &cfg), XPBD_OK);
    ENSURE_INT(xpbd_engine_config_f64(e)->threads, 3);
    ENSURE_STATUS(xpbd_engine_step_f64(e, 1.0 / 60), XPBD_OK);
    /* a new configuration is checked as create checks one (against the
     * chain's edges, of compliance 0): refused, the old one stays */
    xpbd_step_config bad = cfg;
    bad.substeps = 0;
    ENSURE_STATUS(xpbd_engine_set_config_f64(e, &bad), XPBD_ERR_CONFIG);
    bad = cfg;
    bad.contact_order = XPBD_CONTACTS_LESSON;
    ENSURE_STATUS(xpbd_engine_set_config_f64(e, &bad), XPBD_ERR_CONFIG);
    bad = cfg;
    bad.solver = XPBD_SOLVER_SPRINGS;
    bad.iterations = 2;
    ENSURE_STATUS(xpbd_engine_set_config_f64(e, &bad), XPBD_ERR_COMPLIANCE);
    bad.solver = XPBD_SOLVER_PBD;
    ENSURE_STATUS(xpbd_engine_set_config_f64(e, &bad), XPBD_OK);
    ENSURE_INT(xpbd_engine_config_f64(e)->iterations, 2);
    ENSURE_INT(xpbd_engine_config_f64(e)->solver, XPBD_SOLVER_PBD);
    ENSURE_INT(xpbd_engine_config_f64(e)->substeps, cfg.substeps);
    ENSURE_STATUS(xpbd_engine_step_f64(e, 1.0 / 60), XPBD_OK);
    xpbd_engine_destroy_f64(e);
}
