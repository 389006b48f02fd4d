/* SPDX-License-Identifier: MIT */
/* The engine's lifecycle (xpbd/engine.h): create and destroy. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/lifecycle.c"
#include "engine/common.h"

/* Options out of range for a scene of n particles: XPBD_ERR_CONFIG, the
 * first bad field (in the struct's order) in *field. */
static xpbd_status engine_check_options(const xpbd_engine_options *opt, size_t n,
                                        xpbd_field *field)
{
    *field = XPBD_FIELD_NONE;
    if (!opt)
        return XPBD_OK;
    if (!xpbd__finite_nonneg(opt->tear_stretch))
        *field = XPBD_FIELD_TEAR_STRETCH;
    else if (!xpbd__finite_nonneg(opt->sleep_energy))
        *field = XPBD_FIELD_SLEEP_ENERGY;
    else if (opt->keep_hinges > 1)
        *field = XPBD_FIELD_KEEP_HINGES;
    else if (opt->max_particles &&
             (opt->max_particles < n || opt->max_particles > (uint32_t)INT32_MAX))
        *field = XPBD_FIELD_MAX_PARTICLES;
    return *field == XPBD_FIELD_NONE ? XPBD_OK : XPBD_ERR_CONFIG;
}

#define engine_refuse xpbd__engine_refuse

/* The options' workers and executor, when given, in the configuration of
 * every step the engine runs. */
static void engine_fold_threads(xpbd_step_config *cfg, const xpbd_engine_options *opt)
{
    if (opt->threads)
        cfg->threads = opt->threads;
    if (opt->executor)
        cfg->executor = opt->executor;
}

#  include "each_precision.h"

xpbd_status xpbd_engine_create_f32(xpbd_engine_f32 **out, const xpbd_scene_f32 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   xpbd_where *where)
{
    return engine_create_f32(out, scene, cfg, options, where);
}

xpbd_status xpbd_engine_create_f64(xpbd_engine_f64 **out, const xpbd_scene_f64 *scene,
                                   const xpbd_step_config *cfg, const xpbd_engine_options *options,
                                   xpbd_where *where)
{
    return engine_create_f64(out, scene, cfg, options, where);
}

void xpbd_engine_destroy_f32(xpbd_engine_f32 *e) { engine_destroy_f32(e); }
void xpbd_engine_destroy_f64(xpbd_engine_f64 *e) { engine_destroy_f64(e); }

const xpbd_particles_f32 *xpbd_engine_particles_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->particles : NULL;
}

const xpbd_particles_f64 *xpbd_engine_particles_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->particles : NULL;
}

const xpbd_engine_counters *xpbd_engine_counters_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->counters : NULL;
}

const xpbd_engine_counters *xpbd_engine_counters_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->counters : NULL;
}

const xpbd_world_f32 *xpbd_engine_world_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->world : NULL;
}

const xpbd_world_f64 *xpbd_engine_world_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->world : NULL;
}

const xpbd_step_config *xpbd_engine_config_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->config : NULL;
}

const xpbd_step_config *xpbd_engine_config_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->config : NULL;
}

const xpbd_engine_options *xpbd_engine_options_f32(const xpbd_engine_f32 *e)
{
    return e ? &e->options : NULL;
}

const xpbd_engine_options *xpbd_engine_options_f64(const xpbd_engine_f64 *e)
{
    return e ? &e->options : NULL;
}

xpbd_status xpbd_engine_set_config_f32(xpbd_engine_f32 *e, const xpbd_step_config *cfg)
{
    return engine_set_config_f32(e, cfg);
}

xpbd_status xpbd_engine_set_config_f64(xpbd_engine_f64 *e, const xpbd_step_config *cfg)
{
    return engine_set_config_f64(e, cfg);
}

void xpbd_engine_scene_f32(const xpbd_engine_f32 *e, xpbd_scene_f32 *out)
{
    if (out)
        engine_scene_f32(e, out);
}

void xpbd_engine_scene_f64(const xpbd_engine_f64 *e, xpbd_scene_f64 *out)
{
    if (out)
        engine_scene_f64(e, out);
}

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* The engine's lifecycle, once per precision: create (checks, copies the
 * scene, builds the sets), destroy, and the pieces the other features
 * share (the world's view, the particle block, the set builder, the step
 * scratch). Every kind's part is its row of the engine's order
 * (engine/common.h: engine_kind, kinds/<kind>.c): a row with a list is
 * described by data and copied, checked, built and given back here. */

/* The names of this file's functions, both precisions (precision.h). */
#define xpbd__engine_point PREC(xpbd__engine_point_f32, xpbd__engine_point_f64)
#define xpbd__engine_block PREC(xpbd__engine_block_f32, xpbd__engine_block_f64)
#define engine_destroy PREC(engine_destroy_f32, engine_destroy_f64)
#define engine_keep PREC(engine_keep_f32, engine_keep_f64)
#define engine_build_where PREC(engine_build_where_f32, engine_build_where_f64)
#define xpbd__engine_build PREC(xpbd__engine_build_f32, xpbd__engine_build_f64)
#define xpbd__engine_free_sets PREC(xpbd__engine_free_sets_f32, xpbd__engine_free_sets_f64)
#define xpbd__engine_scratch PREC(xpbd__engine_scratch_f32, xpbd__engine_scratch_f64)
#define engine_config_check PREC(engine_config_check_f32, engine_config_check_f64)
#define engine_rows_config PREC(engine_rows_config_f32, engine_rows_config_f64)
#define engine_rows_check PREC(engine_rows_check_f32, engine_rows_check_f64)
#define engine_constrained PREC(engine_constrained_f32, engine_constrained_f64)
#define engine_scene_check PREC(engine_scene_check_f32, engine_scene_check_f64)
#define engine_alloc PREC(engine_alloc_f32, engine_alloc_f64)
#define engine_copy_particles PREC(engine_copy_particles_f32, engine_copy_particles_f64)
#define engine_copy_list PREC(engine_copy_list_f32, engine_copy_list_f64)
#define engine_copy_topology PREC(engine_copy_topology_f32, engine_copy_topology_f64)
#define engine_create PREC(engine_create_f32, engine_create_f64)
#define engine_scene PREC(engine_scene_f32, engine_scene_f64)
#define engine_set_config PREC(engine_set_config_f32, engine_set_config_f64)
#include "world_rules_tmpl.h"

#define E SFX(xpbd_engine)
#define SC SFX(xpbd_scene)
#define W SFX(xpbd_world)

/* The world's view of the engine's arrays (re-pointed at every step, so
 * nothing goes stale when the sets are rebuilt): the particles and the
 * world state, then each row's part. */
void xpbd__engine_point(E *e)
{
    W *w = &e->world;
    memset(w, 0, sizeof *w);
    w->particles = &e->particles;
    w->radius = e->radius;
    w->body_begin = e->body_begin;
    w->body_count = e->sleep.body_count;
    w->body_asleep = e->sleep.body_count ? e->sleep.asleep : NULL;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->point)
            xpbd__engine_kinds[r]->point(e, &e->slot[r], w);
}

/* The engine's particle block for n particles with room for cap >= n
 * (zeroed), each array cap long: x y z px py pz vx vy vz w | rest_xyz
 * [3 cap] | radius with radii | the real of each row r whose bit is set in
 * reals, in row order. Binds e's particle arrays and pointers to it. */
R *xpbd__engine_block(E *e, size_t n, size_t cap, int radius, uint32_t reals)
{
    size_t extra = radius ? cap : 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        extra += reals >> r & 1u ? cap : 0;
    R *blk = calloc(13 * cap + extra + 1, sizeof *blk);
    if (!blk)
        return NULL;
    SFX(xpbd_particles_bind)(&e->particles, n, blk, cap);
    e->rest_xyz = blk + 10 * cap;
    R *tail = blk + 13 * cap;
    e->radius = radius ? tail : NULL;
    tail += radius ? cap : 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        e->slot[r].preal = reals >> r & 1u ? tail : NULL;
        tail += reals >> r & 1u ? cap : 0;
    }
    e->capacity = cap;
    return blk;
}

/* Frees the rows' sets (the rows that build one). */
void xpbd__engine_free_sets(engine_set *sets)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->free_set)
            xpbd__engine_kinds[r]->free_set(&sets[r]);
}

static void engine_destroy(E *e)
{
    if (!e)
        return;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        engine_slot *s = &e->slot[r];
        if (xpbd__engine_kinds[r]->free_set)
            xpbd__engine_kinds[r]->free_set(&s->set);
        free(s->idx);
        free(s->rest);
        free(s->pindex);
    }
    void *const blocks[] = {e->body_begin,   e->torn,        e->scratch,     e->owned_,
                            e->origin,       e->sleep.asleep, e->sleep.calm, e->sleep.signature,
                            e->active_,      e->asleep_undo_, e->calm_undo_};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
    free(e);
}

/* Copies the elements of row k's list s that have a moving particle
 * (still NULL: all of them) with their rest value (a row that keeps one)
 * and compliance; indices arity per element, or (k->columns) one column
 * per corner, s->count apart; map gets each kept one's index. Returns how
 * many were kept. */
static size_t engine_keep(const engine_kind *k, const engine_slot *s, const uint8_t *still,
                          uint32_t *out, R *out_rest, R *out_comp, uint32_t *map)
{
    const unsigned a = k->arity;
    size_t m = 0;
    for (size_t j = 0; j < s->count; ++j) {
        const uint32_t *q = s->idx + a * j;
        unsigned u = 0;
        while (still && u < a && still[q[u]])
            ++u;
        if (still && u == a)
            continue;
        for (u = 0; u < a; ++u)
            out[k->columns ? u * s->count + m : a * m + u] = q[u];
        if (k->rest)
            out_rest[m] = s->rest[j];
        out_comp[m] = s->comp[j];
        map[m++] = (uint32_t)j;
    }
    return m;
}

/* A failed build's place (the builder names its input index: give the
 * engine's): a rest position the builder refuses is the scene's particle. */
static void engine_build_where(xpbd_where *where, xpbd_status st, xpbd_part part, size_t at,
                               size_t count, const uint32_t *map)
{
    if (!where)
        return;
    where->part = st == XPBD_OK || st == XPBD_ERR_NOMEM ? XPBD_PART_NONE
                  : st == XPBD_ERR_POSITION           ? XPBD_PART_SCENE
                                                      : part;
    where->index = st == XPBD_OK || st == XPBD_ERR_NOMEM ? SIZE_MAX
                   : st != XPBD_ERR_POSITION && at < count ? map[at]
                                                           : at;
    where->field = st == XPBD_ERR_CONFIG ? XPBD_FIELD_MAX_COLOURS : XPBD_FIELD_NONE;
}

/* Builds the rows' sets from their lists into sets[] (by row; all or
 * nothing). Elements whose particles all belong to bodies marked in
 * e->active_ (the sleep flags the sets are for) are left out: a sleeping
 * body costs no solver time. The sets' source[] always names the engine's
 * own element index (element k of the row's list). On error *where (may
 * be NULL) names the row and the engine's element. */
xpbd_status xpbd__engine_build(const E *e, engine_set *sets, xpbd_where *where)
{
    const size_t n = e->particles.count;
    size_t ni = 0, nv = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->build) {
            memset(&sets[r], 0, sizeof sets[r]);
            ni += (xpbd__engine_kinds[r]->arity + 1u) * e->slot[r].count;
            nv += 2 * e->slot[r].count;
        }
    int any = 0;
    for (uint32_t k = 0; e->active_ && k < e->sleep.body_count; ++k)
        any |= e->active_[k] != 0;
    /* per particle: asleep; then the kept elements of each row, compacted */
    uint8_t *still = any ? calloc(n + 1, 1) : NULL;
    uint32_t *idx = malloc((ni + 1) * sizeof *idx);
    R *val = malloc((nv + 1) * sizeof *val);
    if ((any && !still) || !idx || !val) {
        free(still);
        free(idx);
        free(val);
        return XPBD_ERR_NOMEM;
    }
    for (uint32_t k = 0; any && k < e->sleep.body_count; ++k)
        if (e->active_[k])
            memset(still + e->body_begin[k], 1, e->body_begin[k + 1] - e->body_begin[k]);
    uint32_t *out[XPBD__ENGINE_ROWS], *map[XPBD__ENGINE_ROWS];
    R *rest[XPBD__ENGINE_ROWS];
    size_t kept[XPBD__ENGINE_ROWS];
    size_t oi = 0, ov = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        if (!k->build)
            continue;
        const size_t c = e->slot[r].count;
        out[r] = idx + oi;
        map[r] = out[r] + k->arity * c;
        rest[r] = val + ov;
        oi += (k->arity + 1u) * c;
        ov += 2 * c;
        kept[r] = engine_keep(k, &e->slot[r], still, out[r], rest[r], rest[r] + c, map[r]);
    }
    free(still);
    size_t at = SIZE_MAX;
    int bad = -1;
    xpbd_status st = XPBD_OK;
    for (int r = 0; st == XPBD_OK && xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->build && kept[r]) {
            const size_t c = e->slot[r].count;
            bad = r;
            st = xpbd__engine_kinds[r]->build(&sets[r], n, e->rest_xyz, kept[r], out[r], c,
                                              rest[r], rest[r] + c, &e->colouring, &at);
        }
    for (unsigned r = 0; st == XPBD_OK && xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->build) {
            uint32_t slots;
            uint32_t *src = xpbd__engine_kinds[r]->source(&sets[r], &slots);
            for (uint32_t k = 0; k < slots; ++k)
                src[k] = src[k] == XPBD_PAD ? XPBD_PAD : map[r][src[k]];
        }
    if (st != XPBD_OK)
        xpbd__engine_free_sets(sets);
    engine_build_where(where, st, bad >= 0 ? xpbd__engine_kinds[bad]->part : XPBD_PART_NONE, at,
                       bad >= 0 ? kept[bad] : 0, bad >= 0 ? map[bad] : NULL);
    free(idx);
    free(val);
    return st;
}

/* (Re)sizes the step scratch for the current sets; keeps a big enough one. */
xpbd_status xpbd__engine_scratch(E *e)
{
    size_t slots = 0, find = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        uint32_t s = 0;
        if (k->source)
            (void)k->source(&e->slot[r].set, &s);
        slots += s;
        find += k->pairs ? k->pairs(e, &e->slot[r]) : 0;
    }
    const size_t need = SFX(xpbd_world_scratch_bytes)(e->capacity, slots, find);
    if (need == SIZE_MAX)
        return XPBD_ERR_NOMEM;
    if (e->scratch && e->scratch_bytes >= need)
        return XPBD_OK;
    void *s = aligned_alloc(64, (need + 63) / 64 * 64);
    if (!s)
        return XPBD_ERR_NOMEM;
    free(e->scratch);
    e->scratch = s;
    e->scratch_bytes = (need + 63) / 64 * 64;
    return XPBD_OK;
}

/* The configuration the engine steps with (run: the step configuration
 * with the options' threads and executor folded in), checked as every step
 * checks it before it looks at h: the configuration's own rules
 * (xpbd__config_check; the options' executor, when it is the one at fault,
 * named as the options' field), the lesson order's rule for a world with
 * constraints (a constraint row with elements), then the ISA resolved as
 * the step resolves it (XPBD_ISA included). */
static xpbd_status engine_config_check(const xpbd_step_config *run,
                                            const xpbd_engine_options *opt, int constrained,
                                            xpbd_where *where)
{
    xpbd_field field;
    const xpbd_status st = xpbd__config_check(run, &field);
    if (st != XPBD_OK) {
        const int options = opt && opt->executor && run->executor == opt->executor &&
                            (field == XPBD_FIELD_EXECUTOR_ENQUEUE ||
                             field == XPBD_FIELD_EXECUTOR_FINISH ||
                             field == XPBD_FIELD_EXECUTOR_WORKER_COUNT);
        return engine_refuse(where, st, options ? XPBD_PART_OPTIONS : XPBD_PART_CONFIG, SIZE_MAX,
                             field);
    }
    if (xpbd__lesson_refused(run, constrained))
        return engine_refuse(where, XPBD_ERR_CONFIG, XPBD_PART_CONFIG, SIZE_MAX,
                             XPBD_FIELD_CONTACT_ORDER);
    xpbd_isa isa;
    if (xpbd_isa_resolve(run->isa, &isa) != XPBD_OK || !SFX(xpbd_kernels_get)(isa) ||
        !SFX(xpbd_contact_kernels_get)(isa) || !SFX(xpbd_softbody_kernels_get)(isa))
        return engine_refuse(where, XPBD_ERR_ISA, XPBD_PART_CONFIG, SIZE_MAX, XPBD_FIELD_ISA);
    return XPBD_OK;
}

/* Each row's rule on the configuration run, on its built set. */
static xpbd_status engine_rows_config(const E *e, const xpbd_step_config *run,
                                      xpbd_where *where)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->config) {
            const xpbd_status st = xpbd__engine_kinds[r]->config(&e->slot[r].set, run, where);
            if (st != XPBD_OK)
                return st;
        }
    return XPBD_OK;
}

/* The rows' checks of one phase, in the engine's order: a list's array
 * given when it has elements, its default compliance finite and >= 0;
 * then the row's own. */
static xpbd_status engine_rows_check(const SC *sc, xpbd__engine_check phase, xpbd_where *where)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        if (k->arity && phase == XPBD__CHECK_ARGUMENTS && engine_scene_count(sc, k->count_at) &&
            !engine_scene_index(sc, k->idx_at))
            return engine_refuse(where, XPBD_ERR_ARGUMENT, k->part, SIZE_MAX, XPBD_FIELD_NONE);
        if (k->arity && phase == XPBD__CHECK_COMPLIANCE &&
            !xpbd__finite_nonneg(engine_scene_double(sc, k->alpha_at)))
            return engine_refuse(where, XPBD_ERR_COMPLIANCE, k->part, SIZE_MAX, k->alpha_field);
        const xpbd_status st = k->check ? k->check(sc, phase, where) : XPBD_OK;
        if (st != XPBD_OK)
            return st;
    }
    return XPBD_OK;
}

/* 1 if the scene (sc) or the engine (e, when sc is NULL) has constraints:
 * a constraint row with elements or per-particle arrays. */
static int engine_constrained(const SC *sc, const E *e)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        if (!k->constraint)
            continue;
        if (sc ? (k->arity ? engine_scene_count(sc, k->count_at) != 0
                           : k->particles && k->particles(sc) != 0)
               : (k->arity ? e->slot[r].count != 0
                           : e->slot[r].pindex || e->slot[r].preal))
            return 1;
    }
    return 0;
}

/* Everything create can check before it allocates, in the order the
 * statuses are documented (xpbd/engine.h); *where names the place. run is
 * the configuration the engine steps with (see engine_config_check). */
static xpbd_status engine_scene_check(const SC *sc, const xpbd_step_config *run,
                                      const xpbd_engine_options *opt, xpbd_where *where)
{
    const size_t n = sc->particles;
    if (n > (size_t)INT32_MAX || (n && (!sc->xyz || !sc->inv_mass)))
        return engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_PARTICLES, SIZE_MAX,
                             XPBD_FIELD_NONE);
    xpbd_status st;
    if ((st = engine_rows_check(sc, XPBD__CHECK_ARGUMENTS, where)) != XPBD_OK ||
        (st = engine_rows_check(sc, XPBD__CHECK_RANGES, where)) != XPBD_OK ||
        (st = engine_config_check(run, opt, engine_constrained(sc, NULL), where)) != XPBD_OK)
        return st;
    xpbd_field field;
    if ((st = engine_check_options(opt, n, &field)) != XPBD_OK)
        return engine_refuse(where, st, XPBD_PART_OPTIONS, SIZE_MAX, field);
    if ((st = engine_rows_check(sc, XPBD__CHECK_COMPLIANCE, where)) != XPBD_OK ||
        (st = engine_rows_check(sc, XPBD__CHECK_ELEMENTS, where)) != XPBD_OK)
        return st;
    for (size_t i = 0; sc->origin && i < n; ++i)
        if (sc->origin[i] >= n)
            return engine_refuse(where, XPBD_ERR_INDEX, XPBD_PART_SCENE, i, XPBD_FIELD_NONE);
    return engine_rows_check(sc, XPBD__CHECK_PARTICLES, where);
}

/* Allocates every block the engine holds for scene sc (capacity cap): the
 * particle block, each row's list and per-particle indices, the tear
 * flags of the tearing row's elements, the sleep state. */
static xpbd_status engine_alloc(E *e, const SC *sc, size_t cap)
{
    uint32_t reals = 0;
    int bad = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        const unsigned keeps = k->particles ? k->particles(sc) : 0u;
        reals |= keeps & XPBD__ENGINE_REAL ? 1u << r : 0u;
        if (keeps & XPBD__ENGINE_INDEX) {
            e->slot[r].pindex = malloc(cap * sizeof *e->slot[r].pindex + 1);
            bad |= !e->slot[r].pindex;
        }
        if (!k->arity)
            continue;
        const size_t c = engine_scene_count(sc, k->count_at);
        e->slot[r].idx = malloc((k->arity * c + 1) * sizeof *e->slot[r].idx);
        e->slot[r].rest = malloc((2 * c + 1) * sizeof *e->slot[r].rest);
        bad |= !e->slot[r].idx || !e->slot[r].rest;
        if (k->tear == XPBD__TEAR_EDGES) {
            e->torn = calloc(c + 1, 1);
            bad |= !e->torn;
        }
    }
    e->owned_ = xpbd__engine_block(e, sc->particles, cap, sc->radius != NULL, reals);
    e->origin = malloc((cap + 1) * sizeof *e->origin);
    if (sc->bodies) {
        e->body_begin = malloc((sc->bodies + 1) * sizeof *e->body_begin);
        e->sleep.asleep = calloc(sc->bodies, 1);
        e->sleep.calm = calloc(sc->bodies, sizeof *e->sleep.calm);
        e->sleep.signature = calloc(sc->bodies, sizeof *e->sleep.signature);
        e->active_ = calloc(sc->bodies, 1);
        e->asleep_undo_ = calloc(sc->bodies, 1);
        e->calm_undo_ = calloc(sc->bodies, sizeof *e->calm_undo_);
    }
    if (bad || !e->owned_ || !e->origin ||
        (sc->bodies && (!e->body_begin || !e->sleep.asleep || !e->sleep.calm ||
                        !e->sleep.signature || !e->active_ || !e->asleep_undo_ ||
                        !e->calm_undo_)))
        return XPBD_ERR_NOMEM;
    if (engine_tear_row(XPBD__TEAR_EDGES) < 0) { /* no row tears: flags of none */
        e->torn = calloc(1, 1);
        if (!e->torn)
            return XPBD_ERR_NOMEM;
    }
    return XPBD_OK;
}

/* The scene's particles, per-particle arrays (the rows' by their scene
 * fields) and bodies into e;
 * then the particles are validated (before anything is derived from
 * them: positions, velocities, inverse masses, radii). */
static xpbd_status engine_copy_particles(E *e, const SC *sc, xpbd_where *where)
{
    const size_t n = sc->particles;
    P *p = &e->particles;
    for (size_t i = 0; i < n; ++i) {
        p->x[i] = p->px[i] = sc->xyz[3 * i];
        p->y[i] = p->py[i] = sc->xyz[3 * i + 1];
        p->z[i] = p->pz[i] = sc->xyz[3 * i + 2];
        if (sc->vel) {
            p->vx[i] = sc->vel[3 * i];
            p->vy[i] = sc->vel[3 * i + 1];
            p->vz[i] = sc->vel[3 * i + 2];
        }
        p->w[i] = sc->inv_mass[i];
        e->origin[i] = sc->origin ? sc->origin[i] : (uint32_t)i;
    }
    for (size_t i = 0; sc->prev_xyz && i < n; ++i) {
        p->px[i] = sc->prev_xyz[3 * i];
        p->py[i] = sc->prev_xyz[3 * i + 1];
        p->pz[i] = sc->prev_xyz[3 * i + 2];
    }
    if (n)
        memcpy(e->rest_xyz, sc->rest_xyz ? sc->rest_xyz : sc->xyz, 3 * n * sizeof(R));
    if (sc->radius)
        memcpy(e->radius, sc->radius, n * sizeof(R));
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        const R *real = k->particles ? engine_scene_reals(sc, k->real_at) : NULL;
        const uint32_t *index = k->particles ? engine_scene_index(sc, k->index_at) : NULL;
        if (real && e->slot[r].preal && n)
            memcpy(e->slot[r].preal, real, n * sizeof(R));
        if (index && e->slot[r].pindex && n)
            memcpy(e->slot[r].pindex, index, n * sizeof *index);
    }
    if (sc->bodies)
        memcpy(e->body_begin, sc->body_begin, (sc->bodies + 1) * sizeof *e->body_begin);
    for (uint32_t b = 0; b < sc->bodies; ++b) {
        e->sleep.asleep[b] = sc->asleep ? sc->asleep[b] != 0 : 0;
        e->sleep.calm[b] = sc->calm ? sc->calm[b] : 0;
        e->sleep.signature[b] = sc->signature ? sc->signature[b] : 0;
    }
    e->sleep.body_count = sc->bodies;
    e->sleep.energy = e->options.sleep_energy;
    e->sleep.steps = e->options.sleep_steps ? e->options.sleep_steps : 30;
    size_t bad;
    xpbd_status st = SFX(xpbd_particles_validate)(p, &bad);
    if (st != XPBD_OK)
        return engine_refuse(where, st, XPBD_PART_PARTICLES, bad, XPBD_FIELD_NONE);
    for (size_t i = 0; e->radius && i < n; ++i)
        if (!isfinite(e->radius[i]) || e->radius[i] < 0)
            return engine_refuse(where, XPBD_ERR_RADIUS, XPBD_PART_RADIUS, i, XPBD_FIELD_NONE);
    return XPBD_OK;
}

/* Row k's list from the scene into s, in input order: the indices (a
 * row that keeps a rest value reads the rest shape, so its indices are
 * checked first), the rest values (from the rest shape where not given),
 * the compliances (the default where not given). */
static xpbd_status engine_copy_list(const E *e, const engine_kind *k, engine_slot *s,
                                    const SC *sc, xpbd_where *where)
{
    const size_t n = sc->particles, c = engine_scene_count(sc, k->count_at);
    const uint32_t *idx = engine_scene_index(sc, k->idx_at);
    const R *rest = k->rest ? engine_scene_reals(sc, k->rest_at) : NULL;
    const R *comp = engine_scene_reals(sc, k->comp_at);
    const R alpha = (R)engine_scene_double(sc, k->alpha_at);
    s->count = c;
    s->comp = s->rest + c;
    if (c)
        memcpy(s->idx, idx, k->arity * c * sizeof *s->idx);
    for (size_t j = 0; j < c; ++j) {
        const uint32_t *q = s->idx + k->arity * j;
        for (unsigned u = 0; k->rest && u < k->arity; ++u)
            if (q[u] >= n)
                return engine_refuse(where, XPBD_ERR_INDEX, k->part, j, XPBD_FIELD_NONE);
        if (k->rest)
            s->rest[j] = rest ? rest[j] : k->rest(e->rest_xyz, q);
        s->comp[j] = comp ? comp[j] : alpha;
    }
    return XPBD_OK;
}

/* The scene's topology in input order, then the sets, the rows' rules on
 * the configuration and the rows' own state. */
static xpbd_status engine_copy_topology(E *e, const SC *sc, xpbd_where *where)
{
    xpbd_status st = XPBD_OK;
    for (unsigned r = 0; st == XPBD_OK && xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->arity)
            st = engine_copy_list(e, xpbd__engine_kinds[r], &e->slot[r], sc, where);
    if (st != XPBD_OK)
        return st;
    engine_set sets[XPBD__ENGINE_ROWS];
    if ((st = xpbd__engine_build(e, sets, where)) != XPBD_OK)
        return st;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->build)
            e->slot[r].set = sets[r];
    if ((st = engine_rows_config(e, &e->config, where)) != XPBD_OK)
        return st;
    for (unsigned r = 0; st == XPBD_OK && xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->copy)
            st = xpbd__engine_kinds[r]->copy(e, &e->slot[r], sc);
    return st;
}

static xpbd_status engine_create(E **out, const SC *sc, const xpbd_step_config *cfg,
                                      const xpbd_engine_options *opt, xpbd_where *where_out)
{
    xpbd_where local;
    xpbd_where *where = where_out ? where_out : &local;
    *where = (xpbd_where){XPBD_PART_NONE, SIZE_MAX, XPBD_FIELD_NONE};
    if (!out)
        return XPBD_ERR_ARGUMENT;
    *out = NULL;
    if (!sc)
        return engine_refuse(where, XPBD_ERR_ARGUMENT, XPBD_PART_SCENE, SIZE_MAX,
                             XPBD_FIELD_NONE);
    /* the configuration every step of the engine runs with */
    xpbd_engine_options options;
    memset(&options, 0, sizeof options);
    if (opt)
        options = *opt;
    xpbd_step_config run = cfg ? *cfg : xpbd_step_config_default();
    engine_fold_threads(&run, &options);
    xpbd_status st = engine_scene_check(sc, &run, opt, where);
    if (st != XPBD_OK)
        return st;
    E *e = calloc(1, sizeof *e);
    if (!e)
        return XPBD_ERR_NOMEM;
    e->config = run;
    e->options = options;
    e->colouring = sc->colouring;
    const size_t cap = e->options.max_particles ? e->options.max_particles : sc->particles;
    if ((st = engine_alloc(e, sc, cap)) != XPBD_OK ||
        (st = engine_copy_particles(e, sc, where)) != XPBD_OK ||
        (st = engine_copy_topology(e, sc, where)) != XPBD_OK ||
        (st = xpbd__engine_scratch(e)) != XPBD_OK) {
        engine_destroy(e);
        if (st == XPBD_ERR_NOMEM) /* the status says it all */
            *where = (xpbd_where){XPBD_PART_NONE, SIZE_MAX, XPBD_FIELD_NONE};
        return st;
    }
    *out = e;
    e->frame = sc->frame;
    xpbd__engine_point(e);
    SFX(xpbd__counters_fill)(&e->world, NULL, NULL, &e->counters);
    e->counters.frame = e->frame;
    return XPBD_OK;
}

/* ------------------------------------------------------------ accessors --- */

/* The scene of the engine's current state: the particles and the world
 * state, then each row's list and per-particle arrays (by their scene
 * fields) and its own fields. */
static void engine_scene(const E *e, SC *out)
{
    memset(out, 0, sizeof *out);
    if (!e)
        return;
    out->particles = e->particles.count;
    out->rest_xyz = e->rest_xyz;
    out->radius = e->radius;
    out->origin = e->origin;
    out->bodies = e->sleep.body_count;
    out->body_begin = e->body_begin;
    out->colouring = e->colouring;
    out->asleep = e->sleep.body_count ? e->sleep.asleep : NULL;
    out->calm = e->sleep.body_count ? e->sleep.calm : NULL;
    out->signature = e->sleep.body_count ? e->sleep.signature : NULL;
    out->frame = e->frame;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        const engine_slot *s = &e->slot[r];
        if (k->arity) {
            engine_scene_give_count(out, k->count_at, s->count);
            engine_scene_give(out, k->idx_at, s->idx);
            if (k->rest)
                engine_scene_give(out, k->rest_at, s->rest);
            engine_scene_give(out, k->comp_at, s->comp);
        }
        if (k->particles) {
            engine_scene_give(out, k->real_at, s->preal);
            engine_scene_give(out, k->index_at, s->pindex);
        }
        if (k->scene)
            k->scene(s, out);
    }
}

static xpbd_status engine_set_config(E *e, const xpbd_step_config *cfg)
{
    if (!e || !cfg)
        return XPBD_ERR_ARGUMENT;
    xpbd_step_config run = *cfg;
    engine_fold_threads(&run, &e->options);
    xpbd_where where;
    xpbd_status st = engine_config_check(&run, &e->options, engine_constrained(NULL, e), &where);
    if (st == XPBD_OK)
        st = engine_rows_config(e, &run, &where);
    if (st != XPBD_OK)
        return st;
    e->config = run;
    e->checked_ = 0;
    return XPBD_OK;
}

#undef E
#undef SC
#undef W

#endif /* XPBD_SELF */
