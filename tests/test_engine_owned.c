/* SPDX-License-Identifier: MIT */
/* The engine's own world (xpbd/engine.h, internal.h: xpbd__step_how): a
 * step checks every element of the particles and the sets only after a
 * path that changed them (create, each host input, the rigid coupling,
 * set_config, a tear, a vertex split); the steps in between check the
 * configuration and arguments alone. Proven from outside: an element
 * corrupted behind the engine's back right after each such path is
 * refused by the next step with its status and place, the state left as
 * it was; the same corruption after a plain step is not looked at (the
 * world is read only to the host: that is the contract the skip rests
 * on). And the engine's steps give the low-level step's bits on the same
 * scene, whether a step checked everything or not, and the counters'
 * max stretch is xpbd_tear_flag's. */
#include "test.h"
#include "test_softbody.h"
#include "scenes.h"

#include <math.h>
#include <stdlib.h>

/* What a case does between its first step and the corrupted one. */
typedef enum eo_path {
    EO_CREATE,       /* nothing: the corruption comes before the first step */
    EO_STEP,         /* a plain step only: the corruption is not re-checked */
    EO_ADD_VELOCITY, /* each host input */
    EO_SET_VELOCITY,
    EO_TRANSLATE,
    EO_SET_INV_MASS,
    EO_WAKE,
    EO_COUPLE,       /* the rigid coupling moved particles */
    EO_SET_CONFIG,
    EO_TEAR,         /* the first step tore the bridge (keep_hinges: no split) */
    EO_SPLIT,        /* ... and split the hinge vertex */
    EO_PATHS
} eo_path;

static const char *const eo_names[EO_PATHS] = {
    "create", "step", "add_velocity", "set_velocity", "translate", "set_inv_mass",
    "wake", "couple", "set_config", "tear", "split"};

/* What the case writes behind the engine's back: a distance rest length
 * (-1: XPBD_ERR_REST), or an inverse mass (-0.5: XPBD_ERR_INVERSE_MASS).
 * Both keep a step that does not look finite (every w1 + w2 stays > 0):
 * the plain-step case must not diverge. */
typedef enum eo_corrupt { EO_REST, EO_MASS } eo_corrupt;

/* The first real slot of a set (the lowest bad slot the check names). */
static uint32_t eo_first_real(const xpbd_distance_set_f64 *c)
{
    for (uint32_t s = 0; s < c->slots; ++s)
        if (c->source[s] != XPBD_PAD)
            return s;
    return UINT32_MAX;
}

/* The path itself on e, after its first step; returns its status. */
static xpbd_status eo_take(xpbd_engine_f64 *e, eo_path path)
{
    const uint32_t kinds[EO_PATHS] = {
        [EO_ADD_VELOCITY] = XPBD_INPUT_ADD_VELOCITY, [EO_SET_VELOCITY] = XPBD_INPUT_SET_VELOCITY,
        [EO_TRANSLATE] = XPBD_INPUT_TRANSLATE, [EO_SET_INV_MASS] = XPBD_INPUT_SET_INV_MASS,
        [EO_WAKE] = XPBD_INPUT_WAKE};
    if (kinds[path]) {
        const xpbd_input in = {kinds[path], 1, path == EO_WAKE ? 0 : 3, {0.5, 0, 0}};
        return xpbd_engine_apply_f64(e, &in);
    }
    if (path == EO_SET_CONFIG) {
        xpbd_step_config cfg = *xpbd_engine_config_f64(e);
        cfg.iterations += 1;
        return xpbd_engine_set_config_f64(e, &cfg);
    }
    if (path == EO_COUPLE) {
        /* a kinematic sphere of radius 0.3 m centred on particle 2: it
         * pushes 2 (radius 0.1 m) out, so the coupling writes particles */
        const xpbd_particles_f64 *p = SB_P(e);
        xpbd_rigid_f64 ball;
        memset(&ball, 0, sizeof ball);
        ball.shape = XPBD_RIGID_SPHERE;
        ball.centre[0] = p->x[2] + 0.05;
        ball.centre[1] = p->y[2];
        ball.centre[2] = p->z[2];
        ball.half[0] = 0.3;
        ball.rot[0] = ball.rot[4] = ball.rot[8] = 1;
        xpbd_rigid_impulse out;
        const xpbd_status st = xpbd_engine_couple_rigid_f64(e, &ball, 1.0 / 60, &out);
        return st == XPBD_OK && out.contacts == 0 ? XPBD_ERR_ARGUMENT : st; /* must touch */
    }
    return XPBD_OK;
}

/* The engine of a case: the bowtie with a second body (tethered chain)
 * and radii; tearing on for the tear and split paths only. */
static xpbd_status eo_engine(sb_bowtie *b, double *radius, eo_path path, xpbd_engine_f64 **e)
{
    sb_bowtie_make(b, 1, 0);
    for (size_t i = 0; i < b->s.particles; ++i)
        radius[i] = 0.1;
    b->s.radius = radius;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.gravity[1] = 0;
    cfg.iterations = 4;
    xpbd_engine_options opt;
    memset(&opt, 0, sizeof opt);
    if (path == EO_TEAR || path == EO_SPLIT) {
        opt.tear_stretch = 0.3; /* the bridge 3-4 (rest 0.5, length sqrt 2) tears at once */
        opt.keep_hinges = path == EO_TEAR;
    }
    return xpbd_engine_create_f64(e, &b->s, &cfg, &opt, NULL);
}

/* The particles' ten arrays and the distance lambdas, side by side. */
static double *eo_state(const xpbd_engine_f64 *e, size_t *len)
{
    const xpbd_particles_f64 *p = SB_P(e);
    const xpbd_distance_set_f64 *c = SB_W(e)->constraints;
    const size_t n = p->count;
    *len = 10 * n + c->slots;
    double *s = malloc(*len * sizeof *s);
    if (!s)
        return NULL;
    const double *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 10; ++k)
        memcpy(s + (size_t)k * n, a[k], n * sizeof *s);
    memcpy(s + 10 * n, c->lambda, c->slots * sizeof *s);
    return s;
}

/* One case: first step, the path, the corruption, the step that must
 * refuse it (or, after a plain step, must not look), then the repair and
 * a step that passes. */
static void eo_case(eo_path path, eo_corrupt what)
{
    sb_bowtie b;
    double radius[10];
    xpbd_engine_f64 *e = NULL;
    const double h = 1.0 / 60;
    REQUIRE_STATUS(eo_engine(&b, radius, path, &e), XPBD_OK);
    if (path != EO_CREATE)
        REQUIRE_STATUS(xpbd_engine_step_f64(e, h), XPBD_OK);
    if (path == EO_TEAR || path == EO_SPLIT) {
        ENSURE_INT(SB_C(e)->torn, 1);
        ENSURE_INT(SB_C(e)->split, path == EO_SPLIT);
    }
    REQUIRE_STATUS(eo_take(e, path), XPBD_OK);
    /* behind the engine's back: the world and particles are read only */
    xpbd_distance_set_f64 *c = SB_W(e)->constraints;
    double *wp = SB_P(e)->w;
    const uint32_t slot = eo_first_real(c);
    REQUIRE(slot != UINT32_MAX);
    const size_t at = what == EO_REST ? slot : 2;
    double *cell = what == EO_REST ? &c->rest[slot] : &wp[2];
    const double keep = *cell;
    *cell = what == EO_REST ? -1 : -0.5;
    size_t len;
    double *before = eo_state(e, &len);
    REQUIRE(before);
    const xpbd_status st = xpbd_engine_step_f64(e, h);
    if (path == EO_STEP) {
        /* a plain step changed nothing the engine did not check itself */
        if (st != XPBD_OK)
            fprintf(stderr, "    %s: the step re-checked (status %s)\n", eo_names[path],
                    xpbd_status_str(st));
        ENSURE_STATUS(st, XPBD_OK);
    } else {
        const xpbd_step_counters *k = &SB_C(e)->step;
        const int named = st == (what == EO_REST ? XPBD_ERR_REST : XPBD_ERR_INVERSE_MASS) &&
                          k->bad_part == (what == EO_REST ? XPBD_PART_DISTANCE
                                                          : XPBD_PART_PARTICLES) &&
                          k->bad_index == at;
        if (!named)
            fprintf(stderr, "    after %s, %s: status %s, part %s, index %zu (want %zu)\n",
                    eo_names[path], what == EO_REST ? "rest" : "inverse mass",
                    xpbd_status_str(st), xpbd_part_name(k->bad_part), k->bad_index, at);
        ENSURE(named);
        size_t len2;
        double *after = eo_state(e, &len2);
        ENSURE(after && len2 == len && SAME_F64(after, before, len, eo_names[path]));
        free(after);
    }
    free(before);
    *cell = keep;
    ENSURE_STATUS(xpbd_engine_step_f64(e, h), XPBD_OK);
    xpbd_engine_destroy_f64(e);
}

/* Every path that changes the engine's world, each corruption. */
void engine_owned_recheck(void)
{
    for (int p = 0; p < EO_PATHS; ++p) {
        eo_case((eo_path)p, EO_REST);
        eo_case((eo_path)p, EO_MASS);
    }
}

/* The engine against xpbd_step_* on the same cloth, f64: same set, then
 * every frame the same particles and lambdas bit for bit, with a host
 * input on both sides at frame 10 (the engine's next step checks all),
 * at 1 and 2 threads. */
static void eo_same_bits(uint32_t threads)
{
    xs_world_f64 w;
    REQUIRE_STATUS(xs_cloth_f64(&w, 24, 24, 0.25, 1e-5, 1, 1), XPBD_OK);
    xpbd_scene_f64 sc;
    void *block = NULL;
    xpbd_engine_f64 *e = NULL;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    cfg.iterations = 2;
    cfg.measure_residual = 0;
    cfg.threads = threads;
    cfg.isa = xt_isa;
    xpbd_status st = xs_world_scene_f64(&w, &sc, &block);
    if (st == XPBD_OK)
        st = xpbd_engine_create_f64(&e, &sc, &cfg, NULL, NULL);
    free(block);
    if (st != XPBD_OK)
        xs_world_free_f64(&w);
    REQUIRE_STATUS(st, XPBD_OK);
    const xpbd_distance_set_f64 *c = SB_W(e)->constraints;
    const size_t n = w.p.count;
    int same = c->slots == w.set.slots && c->colours == w.set.colours &&
               SAME_U32(c->colour_begin, w.set.colour_begin, c->colours + 1, "colour_begin") &&
               SAME_U32(c->i0, w.set.i0, c->slots, "i0") &&
               SAME_U32(c->i1, w.set.i1, c->slots, "i1") &&
               SAME_F64(c->rest, w.set.rest, c->slots, "rest");
    ENSURE(same);
    for (int f = 0; same && f < 40; ++f) {
        if (f == 10) { /* the same poke on both sides: v += 0.5 on particles [5, 40) */
            const xpbd_input in = {XPBD_INPUT_ADD_VELOCITY, 5, 40, {0, 0.5, 0}};
            ENSURE_STATUS(xpbd_engine_apply_f64(e, &in), XPBD_OK);
            for (size_t i = 5; i < 40; ++i)
                w.p.vy[i] = w.p.vy[i] + 0.5;
        }
        ENSURE_STATUS(xpbd_engine_step_f64(e, 1.0 / 60), XPBD_OK);
        ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &w.p, &w.set, w.scratch, w.scratch_bytes,
                                    NULL),
                      XPBD_OK);
        const xpbd_particles_f64 *p = SB_P(e);
        same = SAME_F64(p->x, w.p.x, n, "x") && SAME_F64(p->y, w.p.y, n, "y") &&
               SAME_F64(p->z, w.p.z, n, "z") && SAME_F64(p->px, w.p.px, n, "px") &&
               SAME_F64(p->vx, w.p.vx, n, "vx") && SAME_F64(p->vy, w.p.vy, n, "vy") &&
               SAME_F64(p->vz, w.p.vz, n, "vz") &&
               SAME_F64(c->lambda, w.set.lambda, c->slots, "lambda");
        /* the counters' max stretch (its own pass, kinds/distance.c) is
         * xpbd_tear_flag's on the same state, bit for bit */
        double ms = -1;
        (void)xpbd_tear_flag_f64(p, c, 0, NULL, &ms);
        ENSURE_BITS_F64(SB_C(e)->max_stretch, ms);
        if (!same)
            fprintf(stderr, "    %u threads: frame %d differs\n", (unsigned)threads, f);
    }
    xpbd_engine_destroy_f64(e);
    xs_world_free_f64(&w);
}

void engine_owned_same_bits(void)
{
    eo_same_bits(1);
    eo_same_bits(2);
}
