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

/* The place of an error into *where (part, index, field). Returns st. */
static xpbd_status engine_refuse(xpbd_where *where, xpbd_status st, xpbd_part part, size_t index,
                                 xpbd_field field)
{
    where->part = part;
    where->index = index;
    where->field = field;
    return st;
}

/* The contact capacity the engine keeps: what the scene asks for, but never
 * more than the ordered pairs its particles can form (the particles it
 * starts with, or its capacity, or, tearing without a capacity, any count
 * up to INT32_MAX), so a capacity no run can use is never allocated. */
static size_t engine_contact_capacity(size_t asked, size_t n, const xpbd_engine_options *opt)
{
    uint64_t most = n;
    if (opt && opt->tear_stretch > 0)
        most = opt->max_particles ? opt->max_particles : (uint64_t)INT32_MAX;
    const uint64_t pairs = most * (most ? most - 1 : 0);
    return (uint64_t)asked < pairs ? asked : (size_t)pairs;
}

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
/* The engine's lifecycle, once per precision: create (checks, copies the
 * scene, builds the sets), destroy, and the pieces the other features
 * share (the world's view, the particle block, the set builder, the step
 * scratch). */

/* The names of this file's functions, both precisions (precision.h). */
#define xpbd__engine_point PREC(xpbd__engine_point_f32, xpbd__engine_point_f64)
#define xpbd__engine_block PREC(xpbd__engine_block_f32, xpbd__engine_block_f64)
#define engine_destroy PREC(engine_destroy_f32, engine_destroy_f64)
#define engine_keep_quads PREC(engine_keep_quads_f32, engine_keep_quads_f64)
#define xpbd__engine_build PREC(xpbd__engine_build_f32, xpbd__engine_build_f64)
#define xpbd__engine_scratch PREC(xpbd__engine_scratch_f32, xpbd__engine_scratch_f64)
#define engine_config_check PREC(engine_config_check_f32, engine_config_check_f64)
#define engine_springs_check PREC(engine_springs_check_f32, engine_springs_check_f64)
#define engine_scene_check PREC(engine_scene_check_f32, engine_scene_check_f64)
#define engine_alloc PREC(engine_alloc_f32, engine_alloc_f64)
#define engine_copy_particles PREC(engine_copy_particles_f32, engine_copy_particles_f64)
#define engine_copy_topology PREC(engine_copy_topology_f32, engine_copy_topology_f64)
#define engine_create PREC(engine_create_f32, engine_create_f64)
#define engine_scene PREC(engine_scene_f32, engine_scene_f64)
#define engine_set_config PREC(engine_set_config_f32, engine_set_config_f64)
#include "world_rules_tmpl.h"

#define E SFX(xpbd_engine)
#define SC SFX(xpbd_scene)
#define W SFX(xpbd_world)

/* The world's view of the engine's arrays (re-pointed at every step, so
 * nothing goes stale when the sets are rebuilt). */
void xpbd__engine_point(E *e)
{
    W *w = &e->world;
    memset(w, 0, sizeof *w);
    w->particles = &e->particles;
    w->constraints = e->distance.count ? &e->distance : NULL;
    w->tets = e->tets.count ? &e->tets : NULL;
    w->bends = e->bends.count ? &e->bends : NULL;
    w->radius = e->radius;
    w->contacts = e->radius && e->max_contacts ? &e->contacts : NULL;
    w->planes = e->plane_count ? e->planes : NULL;
    w->plane_count = e->radius ? e->plane_count : 0;
    w->plane_impulse = e->radius && e->plane_count ? e->plane_impulse : NULL;
    w->tether_anchor = e->tether_anchor;
    w->tether_length = e->tether_length;
    w->body_begin = e->body_begin;
    w->body_count = e->sleep.body_count;
    w->body_asleep = e->sleep.body_count ? e->sleep.asleep : NULL;
}

/* The engine's particle block for n particles with room for cap >= n
 * (zeroed), each array cap long: x y z px py pz vx vy vz w | rest_xyz
 * [3 cap] | radius, plane impulse with radii | tether length with tethers.
 * Binds e's particle arrays and pointers to it. */
R *xpbd__engine_block(E *e, size_t n, size_t cap, int radius, int tethers)
{
    const size_t extra = (radius ? 2 * cap : 0) + (tethers ? cap : 0);
    R *blk = calloc(13 * cap + extra + 1, sizeof *blk);
    if (!blk)
        return NULL;
    SFX(xpbd_particles_bind)(&e->particles, n, blk, cap);
    e->rest_xyz = blk + 10 * cap;
    R *tail = blk + 13 * cap;
    e->radius = radius ? tail : NULL;
    e->plane_impulse = radius ? tail + cap : NULL;
    e->tether_length = tethers ? tail + (radius ? 2 * cap : 0) : NULL;
    e->capacity = cap;
    return blk;
}

static void engine_destroy(E *e)
{
    if (!e)
        return;
    SFX(xpbd_distance_set_free)(&e->distance);
    SFX(xpbd_quad_set_free)(&e->tets);
    SFX(xpbd_quad_set_free)(&e->bends);
    void *const blocks[] = {e->edge,          e->edge_rest,   e->tether_anchor,
                            e->body_begin,    e->torn,        e->scratch,
                            e->owned_,        e->origin,      e->contact_i0_,
                            e->contact_i1_,   e->sleep.asleep, e->sleep.calm,
                            e->sleep.signature, e->active_,     e->asleep_undo_,
                            e->calm_undo_};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
    free(e);
}

/* Copies the 4-index elements (tets, bending stencils) that have a moving
 * particle (still NULL: all of them) with their compliance; map gets each
 * kept one's index. Returns how many were kept. */
static size_t engine_keep_quads(const uint32_t *idx, const R *comp, size_t count,
                                     const uint8_t *still, uint32_t *out, R *out_comp,
                                     uint32_t *map)
{
    size_t m = 0;
    for (size_t k = 0; k < count; ++k) {
        const uint32_t *q = idx + 4 * k;
        if (still && still[q[0]] && still[q[1]] && still[q[2]] && still[q[3]])
            continue;
        memcpy(out + 4 * m, q, 4 * sizeof *out);
        out_comp[m] = comp[k];
        map[m++] = (uint32_t)k;
    }
    return m;
}

/* Builds the three sets from the engine's topology arrays into the given
 * sets (all or nothing). Constraints whose particles all belong to bodies
 * marked in e->active_ (the sleep flags the sets are for) are left out: a
 * sleeping body costs no solver time. The sets' source[] always names the
 * engine's own element index (edge k of e->edge, ...). On error *where (may
 * be NULL) names the set and the engine's element (a rest position the
 * tet or bend builder refuses: the scene's particle). */
xpbd_status xpbd__engine_build(const E *e, DS *d, QS *t, QS *b, xpbd_where *where)
{
    const size_t n = e->particles.count, ne = e->edge_count, nt = e->tet_count,
                 nb = e->bend_count;
    memset(d, 0, sizeof *d);
    memset(t, 0, sizeof *t);
    memset(b, 0, sizeof *b);
    int any = 0;
    for (uint32_t k = 0; e->active_ && k < e->sleep.body_count; ++k)
        any |= e->active_[k] != 0;
    /* per particle: asleep; then the kept elements, compacted */
    uint8_t *still = any ? calloc(n + 1, 1) : NULL;
    uint32_t *idx = malloc((4 * ne + 5 * nt + 5 * nb + 1) * sizeof *idx);
    R *val = malloc((2 * ne + nt + nb + 1) * sizeof *val);
    if ((any && !still) || !idx || !val) {
        free(still);
        free(idx);
        free(val);
        return XPBD_ERR_NOMEM;
    }
    for (uint32_t k = 0; any && k < e->sleep.body_count; ++k)
        if (e->active_[k])
            memset(still + e->body_begin[k], 1, e->body_begin[k + 1] - e->body_begin[k]);
    uint32_t *i0 = idx, *i1 = idx + ne, *emap = idx + 2 * ne, *tv = emap + ne, *tmap = tv + 4 * nt;
    uint32_t *bv = tmap + nt, *bmap = bv + 4 * nb;
    R *rest = val, *ecomp = val + ne, *tcomp = ecomp + ne, *bcomp = tcomp + nt;
    size_t me = 0, mt = 0, mb = 0;
    for (size_t k = 0; k < ne; ++k) {
        const uint32_t u = e->edge[2 * k], v = e->edge[2 * k + 1];
        if (still && still[u] && still[v])
            continue;
        i0[me] = u;
        i1[me] = v;
        rest[me] = e->edge_rest[k];
        ecomp[me] = e->edge_compliance[k];
        emap[me++] = (uint32_t)k;
    }
    mt = engine_keep_quads(e->tet, e->tet_compliance, nt, still, tv, tcomp, tmap);
    mb = engine_keep_quads(e->bend, e->bend_compliance, nb, still, bv, bcomp, bmap);
    free(still);
    size_t at = SIZE_MAX, count = me;
    const uint32_t *map = emap;
    xpbd_part part = XPBD_PART_DISTANCE;
    xpbd_status st = XPBD_OK;
    if (me)
        st = SFX(xpbd_distance_set_build)(d, n, me, i0, i1, rest, ecomp, &e->colouring, &at);
    if (st == XPBD_OK && mt) {
        map = tmap;
        count = mt;
        part = XPBD_PART_TET;
        st = SFX(xpbd_tet_set_build)(t, n, e->rest_xyz, mt, tv, tcomp, &e->colouring, &at);
    }
    if (st == XPBD_OK && mb) {
        map = bmap;
        count = mb;
        part = XPBD_PART_BEND;
        st = SFX(xpbd_bend_set_build)(b, n, e->rest_xyz, mb, bv, bcomp, &e->colouring, &at);
    }
    if (st == XPBD_OK) {
        for (uint32_t k = 0; k < d->slots; ++k)
            d->source[k] = d->source[k] == XPBD_PAD ? XPBD_PAD : emap[d->source[k]];
        for (uint32_t k = 0; k < t->slots; ++k)
            t->source[k] = t->source[k] == XPBD_PAD ? XPBD_PAD : tmap[t->source[k]];
        for (uint32_t k = 0; k < b->slots; ++k)
            b->source[k] = b->source[k] == XPBD_PAD ? XPBD_PAD : bmap[b->source[k]];
    } else {
        SFX(xpbd_distance_set_free)(d);
        SFX(xpbd_quad_set_free)(t);
        SFX(xpbd_quad_set_free)(b);
    }
    if (where) { /* the builder names its input index: give the engine's */
        where->part = st == XPBD_OK || st == XPBD_ERR_NOMEM ? XPBD_PART_NONE
                      : st == XPBD_ERR_POSITION           ? XPBD_PART_SCENE
                                                          : part;
        where->index = st == XPBD_OK || st == XPBD_ERR_NOMEM ? SIZE_MAX
                       : st != XPBD_ERR_POSITION && at < count ? map[at]
                                                               : at;
        where->field = st == XPBD_ERR_CONFIG ? XPBD_FIELD_MAX_COLOURS : XPBD_FIELD_NONE;
    }
    free(idx);
    free(val);
    return st;
}

/* (Re)sizes the step scratch for the current sets; keeps a big enough one. */
xpbd_status xpbd__engine_scratch(E *e)
{
    const size_t slots = (size_t)e->distance.slots + e->tets.slots + e->bends.slots;
    const size_t find = e->radius && e->max_contacts ? e->max_contacts : 0;
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
 * constraints (edges, tets, bends or tethers), then the ISA resolved as
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

/* The springs' rule on the built distance set d (run's solver): every
 * constraint needs compliance > 0; the lowest edge that has none. */
static xpbd_status engine_springs_check(const DS *d, const xpbd_step_config *run,
                                             xpbd_where *where)
{
    if (run->solver != XPBD_SOLVER_SPRINGS)
        return XPBD_OK;
    size_t bad = SIZE_MAX;
    for (uint32_t k = 0; k < d->slots; ++k)
        if (d->source[k] != XPBD_PAD && !(d->compliance[k] > 0) && d->source[k] < bad)
            bad = d->source[k];
    if (bad == SIZE_MAX)
        return XPBD_OK;
    return engine_refuse(where, XPBD_ERR_COMPLIANCE, XPBD_PART_DISTANCE, bad, XPBD_FIELD_NONE);
}

/* Everything create can check before it allocates, in the order the
 * statuses are documented (xpbd/engine.h); *where names the place. run is
 * the configuration the engine steps with (see engine_config_check). */
static xpbd_status engine_scene_check(const SC *sc, const xpbd_step_config *run,
                                    const xpbd_engine_options *opt, xpbd_where *where)
{
    const size_t n = sc->particles;
    const xpbd_status arg = XPBD_ERR_ARGUMENT;
    if (n > (size_t)INT32_MAX || (n && (!sc->xyz || !sc->inv_mass)))
        return engine_refuse(where, arg, XPBD_PART_PARTICLES, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->edges && !sc->edge)
        return engine_refuse(where, arg, XPBD_PART_DISTANCE, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->tets && !sc->tet)
        return engine_refuse(where, arg, XPBD_PART_TET, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->bends && !sc->bend)
        return engine_refuse(where, arg, XPBD_PART_BEND, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->tether_anchor && !sc->tether_length)
        return engine_refuse(where, arg, XPBD_PART_TETHER, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->bodies && !sc->body_begin)
        return engine_refuse(where, arg, XPBD_PART_BODY, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->planes > 8 || (sc->planes && !sc->plane))
        return engine_refuse(where, arg, XPBD_PART_PLANE, SIZE_MAX, XPBD_FIELD_NONE);
    if (sc->radius && sc->max_contacts > (size_t)INT32_MAX / 2)
        return engine_refuse(where, arg, XPBD_PART_CONTACT_FOUND, SIZE_MAX,
                             XPBD_FIELD_MAX_CONTACTS);
    for (uint32_t b = 0; b < sc->bodies; ++b)
        if (sc->body_begin[b] > sc->body_begin[b + 1] || sc->body_begin[b + 1] > n)
            return engine_refuse(where, XPBD_ERR_CONFIG, XPBD_PART_BODY, b,
                                 XPBD_FIELD_BODY_BEGIN); /* as the world step */
    const int constrained = sc->edges || sc->tets || sc->bends || sc->tether_anchor;
    xpbd_status st = engine_config_check(run, opt, constrained, where);
    if (st != XPBD_OK)
        return st;
    xpbd_field field;
    if ((st = engine_check_options(opt, n, &field)) != XPBD_OK)
        return engine_refuse(where, st, XPBD_PART_OPTIONS, SIZE_MAX, field);
    if (!xpbd__finite_nonneg(sc->edge_alpha))
        return engine_refuse(where, XPBD_ERR_COMPLIANCE, XPBD_PART_DISTANCE, SIZE_MAX,
                             XPBD_FIELD_EDGE_ALPHA);
    if (!xpbd__finite_nonneg(sc->tet_alpha))
        return engine_refuse(where, XPBD_ERR_COMPLIANCE, XPBD_PART_TET, SIZE_MAX,
                             XPBD_FIELD_TET_ALPHA);
    if (!xpbd__finite_nonneg(sc->bend_alpha))
        return engine_refuse(where, XPBD_ERR_COMPLIANCE, XPBD_PART_BEND, SIZE_MAX,
                             XPBD_FIELD_BEND_ALPHA);
    if ((st = xpbd__check_planes(sc->plane, sc->planes, &where->index)) != XPBD_OK)
        return engine_refuse(where, st, XPBD_PART_PLANE, where->index, XPBD_FIELD_NONE);
    for (size_t i = 0; sc->origin && i < n; ++i)
        if (sc->origin[i] >= n)
            return engine_refuse(where, XPBD_ERR_INDEX, XPBD_PART_SCENE, i, XPBD_FIELD_NONE);
    for (size_t i = 0; sc->tether_anchor && i < n; ++i) {
        st = xpbd__check_tether(sc->tether_anchor[i], sc->tether_length[i], n);
        if (st != XPBD_OK)
            return engine_refuse(where, st, XPBD_PART_TETHER, i, XPBD_FIELD_NONE);
    }
    return XPBD_OK;
}

/* Allocates every block the engine holds for scene sc (capacity cap). */
static xpbd_status engine_alloc(E *e, const SC *sc, size_t cap)
{
    const size_t n = sc->particles, E_ = sc->edges, T_ = sc->tets, B_ = sc->bends;
    e->owned_ = xpbd__engine_block(e, n, cap, sc->radius != NULL, sc->tether_anchor != NULL);
    /* topology: edges | tets | bends in one block, their reals in another */
    e->edge = malloc((2 * E_ + 4 * T_ + 4 * B_ + 3) * sizeof *e->edge);
    e->edge_rest = malloc((2 * E_ + T_ + B_ + 1) * sizeof *e->edge_rest);
    e->torn = calloc(E_ + 1, 1);
    e->origin = malloc((cap + 1) * sizeof *e->origin);
    if (sc->tether_anchor)
        e->tether_anchor = malloc(cap * sizeof *e->tether_anchor + 1);
    if (sc->bodies) {
        e->body_begin = malloc((sc->bodies + 1) * sizeof *e->body_begin);
        e->sleep.asleep = calloc(sc->bodies, 1);
        e->sleep.calm = calloc(sc->bodies, sizeof *e->sleep.calm);
        e->sleep.signature = calloc(sc->bodies, sizeof *e->sleep.signature);
        e->active_ = calloc(sc->bodies, 1);
        e->asleep_undo_ = calloc(sc->bodies, 1);
        e->calm_undo_ = calloc(sc->bodies, sizeof *e->calm_undo_);
    }
    if (!e->owned_ || !e->edge || !e->edge_rest || !e->torn || !e->origin ||
        (sc->tether_anchor && !e->tether_anchor) ||
        (sc->bodies && (!e->body_begin || !e->sleep.asleep || !e->sleep.calm ||
                        !e->sleep.signature || !e->active_ || !e->asleep_undo_ ||
                        !e->calm_undo_)))
        return XPBD_ERR_NOMEM;
    e->tet = e->edge + 2 * E_ + 1;
    e->bend = e->tet + 4 * T_ + 1;
    e->edge_compliance = e->edge_rest + E_;
    e->tet_compliance = e->edge_compliance + E_;
    e->bend_compliance = e->tet_compliance + T_;
    return XPBD_OK;
}

/* The scene's particles, per-particle arrays, bodies and planes into e;
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
    if (sc->tether_anchor) {
        memcpy(e->tether_length, sc->tether_length, n * sizeof(R));
        memcpy(e->tether_anchor, sc->tether_anchor, n * sizeof *e->tether_anchor);
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
    e->plane_count = sc->planes;
    for (uint32_t k = 0; k < sc->planes; ++k)
        e->planes[k] = sc->plane[k];
    size_t bad;
    xpbd_status st = SFX(xpbd_particles_validate)(p, &bad);
    if (st != XPBD_OK)
        return engine_refuse(where, st, XPBD_PART_PARTICLES, bad, XPBD_FIELD_NONE);
    for (size_t i = 0; e->radius && i < n; ++i)
        if (!isfinite(e->radius[i]) || e->radius[i] < 0)
            return engine_refuse(where, XPBD_ERR_RADIUS, XPBD_PART_RADIUS, i, XPBD_FIELD_NONE);
    return XPBD_OK;
}

/* The scene's topology in input order (rest lengths from the rest shape
 * where not given), then the sets and the contact set. */
static xpbd_status engine_copy_topology(E *e, const SC *sc, xpbd_where *where)
{
    const size_t n = sc->particles, E_ = sc->edges, T_ = sc->tets, B_ = sc->bends;
    const R *rest_xyz = e->rest_xyz;
    e->edge_count = E_;
    e->tet_count = T_;
    e->bend_count = B_;
    if (E_)
        memcpy(e->edge, sc->edge, 2 * E_ * sizeof *e->edge);
    for (size_t k = 0; k < E_; ++k) {
        if (e->edge[2 * k] >= n || e->edge[2 * k + 1] >= n)
            return engine_refuse(where, XPBD_ERR_INDEX, XPBD_PART_DISTANCE, k, XPBD_FIELD_NONE);
        if (sc->edge_rest) {
            e->edge_rest[k] = sc->edge_rest[k];
        } else {
            const R *a = rest_xyz + 3 * (size_t)e->edge[2 * k];
            const R *b = rest_xyz + 3 * (size_t)e->edge[2 * k + 1];
            const double dx = (double)b[0] - (double)a[0], dy = (double)b[1] - (double)a[1];
            const double dz = (double)b[2] - (double)a[2];
            e->edge_rest[k] = (R)sqrt(dx * dx + dy * dy + dz * dz);
        }
        e->edge_compliance[k] = sc->edge_compliance ? sc->edge_compliance[k] : (R)sc->edge_alpha;
    }
    if (T_)
        memcpy(e->tet, sc->tet, 4 * T_ * sizeof *e->tet);
    for (size_t k = 0; k < T_; ++k)
        e->tet_compliance[k] = sc->tet_compliance ? sc->tet_compliance[k] : (R)sc->tet_alpha;
    if (B_)
        memcpy(e->bend, sc->bend, 4 * B_ * sizeof *e->bend);
    for (size_t k = 0; k < B_; ++k)
        e->bend_compliance[k] = sc->bend_compliance ? sc->bend_compliance[k] : (R)sc->bend_alpha;
    xpbd_status st = xpbd__engine_build(e, &e->distance, &e->tets, &e->bends, where);
    if (st == XPBD_OK)
        st = engine_springs_check(&e->distance, &e->config, where);
    if (st != XPBD_OK || !e->max_contacts)
        return st;
    const size_t slots = xpbd_contact_slots(e->max_contacts);
    e->contact_i0_ = malloc(slots * sizeof *e->contact_i0_ + 1);
    e->contact_i1_ = malloc(slots * sizeof *e->contact_i1_ + 1);
    if (!e->contact_i0_ || !e->contact_i1_)
        return XPBD_ERR_NOMEM;
    return xpbd_contact_set_init(&e->contacts, e->contact_i0_, e->contact_i1_, slots,
                                 e->max_contacts);
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
    e->max_contacts =
        sc->radius ? engine_contact_capacity(sc->max_contacts, sc->particles, opt) : 0;
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

static void engine_scene(const E *e, SC *out)
{
    memset(out, 0, sizeof *out);
    if (!e)
        return;
    out->particles = e->particles.count;
    out->rest_xyz = e->rest_xyz;
    out->radius = e->radius;
    out->edges = e->edge_count;
    out->edge = e->edge;
    out->edge_rest = e->edge_rest;
    out->edge_compliance = e->edge_compliance;
    out->tets = e->tet_count;
    out->tet = e->tet;
    out->tet_compliance = e->tet_compliance;
    out->bends = e->bend_count;
    out->bend = e->bend;
    out->bend_compliance = e->bend_compliance;
    out->tether_anchor = e->tether_anchor;
    out->tether_length = e->tether_length;
    out->origin = e->origin;
    out->bodies = e->sleep.body_count;
    out->body_begin = e->body_begin;
    out->planes = e->plane_count;
    out->plane = e->plane_count ? e->planes : NULL;
    out->max_contacts = e->max_contacts;
    out->colouring = e->colouring;
    out->asleep = e->sleep.body_count ? e->sleep.asleep : NULL;
    out->calm = e->sleep.body_count ? e->sleep.calm : NULL;
    out->signature = e->sleep.body_count ? e->sleep.signature : NULL;
    out->frame = e->frame;
}

static xpbd_status engine_set_config(E *e, const xpbd_step_config *cfg)
{
    if (!e || !cfg)
        return XPBD_ERR_ARGUMENT;
    xpbd_step_config run = *cfg;
    engine_fold_threads(&run, &e->options);
    xpbd_where where;
    const int constrained = e->edge_count || e->tet_count || e->bend_count || e->tether_anchor;
    xpbd_status st = engine_config_check(&run, &e->options, constrained, &where);
    if (st == XPBD_OK)
        st = engine_springs_check(&e->distance, &run, &where);
    if (st != XPBD_OK)
        return st;
    e->config = run;
    return XPBD_OK;
}

#undef E
#undef SC
#undef W

#endif /* XPBD_SELF */
