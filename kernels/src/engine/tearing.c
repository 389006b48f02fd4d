/* SPDX-License-Identifier: MIT */
/* Tearing (xpbd/engine.h): the stretch pass that flags distance
 * constraints, the rebuild of a distance set without them, and the
 * engine's topology change at step end. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/tearing.c"
#include "engine/common.h"

#  include "each_precision.h"

uint32_t xpbd_tear_flag_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return engine_tear_flag_f32(p, c, threshold, flags, max_stretch);
}

uint32_t xpbd_tear_flag_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                            double threshold, uint8_t *flags, double *max_stretch)
{
    return engine_tear_flag_f64(p, c, threshold, flags, max_stretch);
}

xpbd_status xpbd_tear_remove_f32(xpbd_distance_set_f32 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return engine_tear_remove_f32(c, particles, remove, options, kept);
}

xpbd_status xpbd_tear_remove_f64(xpbd_distance_set_f64 *c, size_t particles, const uint8_t *remove,
                                 const xpbd_colouring_options *options, uint32_t *kept)
{
    return engine_tear_remove_f64(c, particles, remove, options, kept);
}

#else /* one precision, read through each_precision.h */
/* Tearing, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_tear_flag PREC(engine_tear_flag_f32, engine_tear_flag_f64)
#define engine_tear_remove PREC(engine_tear_remove_f32, engine_tear_remove_f64)
#define engine_tear_plan PREC(engine_tear_plan_f32, engine_tear_plan_f64)
#define engine_tear_grow PREC(engine_tear_grow_f32, engine_tear_grow_f64)
#define engine_tear_survivors PREC(engine_tear_survivors_f32, engine_tear_survivors_f64)
#define engine_tear_commit_particles PREC(engine_tear_commit_particles_f32, engine_tear_commit_particles_f64)
#define engine_tear_commit PREC(engine_tear_commit_f32, engine_tear_commit_f64)
#define engine_tear_clean PREC(engine_tear_clean_f32, engine_tear_clean_f64)
#define xpbd__engine_tear PREC(xpbd__engine_tear_f32, xpbd__engine_tear_f64)
#define engine_tear_work PREC(engine_tear_work_f32, engine_tear_work_f64)

#define E SFX(xpbd_engine)

static uint32_t engine_tear_flag(const P *p, const DS *c, double threshold, uint8_t *flags,
                               double *max_stretch)
{
    double m = 0;
    uint32_t flagged = 0;
    int any = 0;
    if (p && c)
        for (uint32_t s = 0; s < c->slots; ++s) {
            const uint32_t src = c->source[s];
            if (src == XPBD_PAD)
                continue;
            const uint32_t a = c->i0[s], b = c->i1[s];
            const double dx = (double)p->x[b] - (double)p->x[a];
            const double dy = (double)p->y[b] - (double)p->y[a];
            const double dz = (double)p->z[b] - (double)p->z[a];
            const double st = sqrt(dx * dx + dy * dy + dz * dz) / (double)c->rest[s] - 1;
            if (!any || st > m)
                m = st;
            any = 1;
            const int over = threshold > 0 && st > threshold;
            flagged += (uint32_t)over;
            if (flags)
                flags[src] = (uint8_t)over;
        }
    if (max_stretch)
        *max_stretch = m;
    return flagged;
}

static xpbd_status engine_tear_remove(DS *c, size_t n, const uint8_t *remove,
                                    const xpbd_colouring_options *options, uint32_t *kept)
{
    if (!c || (c->count && !remove))
        return XPBD_ERR_ARGUMENT;
    const size_t m = c->count;
    uint32_t *i0 = malloc((2 * m + 1) * sizeof *i0);
    R *rest = malloc((2 * m + 1) * sizeof *rest);
    if (!i0 || !rest) {
        free(i0);
        free(rest);
        return XPBD_ERR_NOMEM;
    }
    uint32_t *i1 = i0 + m;
    R *comp = rest + m;
    /* back to input order ... */
    for (uint32_t s = 0; s < c->slots; ++s) {
        const uint32_t src = c->source[s];
        if (src == XPBD_PAD)
            continue;
        i0[src] = c->i0[s];
        i1[src] = c->i1[s];
        rest[src] = c->rest[s];
        comp[src] = c->compliance[s];
    }
    /* ... then the survivors, in that order (k <= t: in place is safe) */
    size_t k = 0;
    for (size_t t = 0; t < m; ++t)
        if (!remove[t]) {
            i0[k] = i0[t];
            i1[k] = i1[t];
            rest[k] = rest[t];
            comp[k] = comp[t];
            ++k;
        }
    DS nw;
    const xpbd_status st =
        SFX(xpbd_distance_set_build)(&nw, n, k, i0, i1, rest, comp, options, NULL);
    free(i0);
    free(rest);
    if (st != XPBD_OK)
        return st;
    SFX(xpbd_distance_set_free)(c);
    *c = nw;
    if (kept)
        for (size_t t = 0, j = 0; t < m; ++t)
            kept[t] = remove[t] ? XPBD_PAD : (uint32_t)j++;
    return XPBD_OK;
}

/* ------------------------------------------ the engine's topology change --- */

/* One frame's tear: what it removes and adds, and the new engine state
 * built beside the old one (t: particles and body ranges are the old ones
 * unless vertices split, `grown`). */
typedef struct engine_tear_work {
    size_t n, ne, nt, nb, torn;
    uint8_t *drop_t, *drop_b;
    uint32_t *ev, *tv, *bv, *src; /* rewired topology (ids past n: new), copied vertices */
    uint32_t *map, *pieces;
    size_t *per_body;
    R *rest_tmp;
    size_t copies;
    uint32_t want_dropped; /* reported only if the tear is committed */
    E t;
    DS d;
    QS tq, bq;
    int built, grown;
} engine_tear_work;

/* The split plan of the frame (xpbd_tear_split); past the level's capacity
 * (or the index range) the frame tears without splitting. */
static xpbd_status engine_tear_plan(const E *e, engine_tear_work *w)
{
    const size_t most = 2 * w->ne + 4 * w->nt;
    w->drop_t = calloc(w->nt + 1, 1);
    w->drop_b = calloc(w->nb + 1, 1);
    w->ev = malloc((2 * w->ne + 4 * w->nt + 4 * w->nb + most + 1) * sizeof *w->ev);
    if (!w->drop_t || !w->drop_b || !w->ev)
        return XPBD_ERR_NOMEM;
    w->tv = w->ev + 2 * w->ne;
    w->bv = w->tv + 4 * w->nt;
    w->src = w->bv + 4 * w->nb;
    const unsigned flags = e->options.keep_hinges ? XPBD_TEAR_KEEP_HINGES : 0u;
    xpbd_status st = xpbd_tear_split(w->n, e->edge, w->ne, e->torn, e->tet, w->nt, e->bend, w->nb,
                                     flags, w->drop_t, w->drop_b, w->ev, w->tv, w->bv, w->src,
                                     most, &w->copies);
    if ((st == XPBD_OK && e->options.max_particles && w->n + w->copies > e->capacity) ||
        st == XPBD_ERR_CAPACITY) {
        w->want_dropped = st == XPBD_OK ? (uint32_t)w->copies : 1u;
        st = xpbd_tear_split(w->n, e->edge, w->ne, e->torn, e->tet, w->nt, e->bend, w->nb,
                             XPBD_TEAR_KEEP_HINGES, w->drop_t, w->drop_b, w->ev, w->tv, w->bv,
                             w->src, most, &w->copies);
    }
    return st;
}

/* The new places of the particles when vertices split; with a capacity the
 * particles move in place at the commit (the sets are built on a rest shape
 * in the new order), otherwise into a new block now. */
static xpbd_status engine_tear_grow(const E *e, engine_tear_work *w)
{
    const size_t n = w->n, copies = w->copies;
    const uint32_t nbodies = e->sleep.body_count;
    E *t = &w->t;
    w->map = malloc((n + copies) * sizeof *w->map);
    w->pieces = malloc((n + 1) * sizeof *w->pieces);
    w->per_body = malloc(((size_t)nbodies + 1) * sizeof *w->per_body);
    t->body_begin = nbodies ? malloc(((size_t)nbodies + 1) * sizeof *t->body_begin) : NULL;
    if (!w->map || !w->pieces || !w->per_body || (nbodies && !t->body_begin)) {
        free(t->body_begin);
        return XPBD_ERR_NOMEM;
    }
    SFX(xpbd__engine_layout)(e, w->src, copies, w->map, t->body_begin, w->pieces, w->per_body);
    if (e->options.max_particles) {
        w->rest_tmp = malloc((3 * (n + copies) + 1) * sizeof *w->rest_tmp);
        if (!w->rest_tmp) {
            free(t->body_begin);
            return XPBD_ERR_NOMEM;
        }
        for (size_t k = 0; k < n + copies; ++k)
            memcpy(w->rest_tmp + 3 * (size_t)w->map[k],
                   e->rest_xyz + 3 * (k < n ? k : w->src[k - n]), 3 * sizeof(R));
        t->rest_xyz = w->rest_tmp;
        t->particles.count = n + copies;
    } else {
        t->owned_ = SFX(xpbd__engine_block)(t, n + copies, n + copies, e->radius != NULL,
                                            e->tether_anchor != NULL);
        t->origin = malloc((n + copies + 1) * sizeof *t->origin);
        t->tether_anchor =
            e->tether_anchor ? malloc((n + copies + 1) * sizeof *t->tether_anchor) : NULL;
        if (!t->owned_ || !t->origin || (e->tether_anchor && !t->tether_anchor)) {
            free(t->owned_); /* not grown: the clean-up frees none of these */
            free(t->origin);
            free(t->tether_anchor);
            free(t->body_begin);
            return XPBD_ERR_NOMEM;
        }
        SFX(xpbd__engine_move)(e, t, n, w->src, copies, w->map, w->pieces);
    }
    w->grown = 1;
    for (size_t k = 0; k < 2 * w->ne + 4 * w->nt + 4 * w->nb; ++k)
        w->ev[k] = w->map[w->ev[k]];
    return XPBD_OK;
}

/* The surviving edges, tets and stencils, in order, into t's topology. */
static xpbd_status engine_tear_survivors(const E *e, engine_tear_work *w)
{
    E *t = &w->t;
    size_t keep_t = 0, keep_b = 0;
    for (size_t k = 0; k < w->nt; ++k)
        keep_t += !w->drop_t[k];
    for (size_t k = 0; k < w->nb; ++k)
        keep_b += !w->drop_b[k];
    t->edge_count = w->ne - w->torn;
    t->tet_count = keep_t;
    t->bend_count = keep_b;
    t->edge = malloc((2 * t->edge_count + 4 * keep_t + 4 * keep_b + 3) * sizeof *t->edge);
    t->edge_rest = malloc((2 * t->edge_count + keep_t + keep_b + 1) * sizeof(R));
    if (!t->edge || !t->edge_rest)
        return XPBD_ERR_NOMEM;
    t->tet = t->edge + 2 * t->edge_count + 1;
    t->bend = t->tet + 4 * keep_t + 1;
    t->edge_compliance = t->edge_rest + t->edge_count;
    t->tet_compliance = t->edge_compliance + t->edge_count;
    t->bend_compliance = t->tet_compliance + keep_t;
    for (size_t k = 0, j = 0; k < w->ne; ++k)
        if (!e->torn[k]) {
            t->edge[2 * j] = w->ev[2 * k];
            t->edge[2 * j + 1] = w->ev[2 * k + 1];
            t->edge_rest[j] = e->edge_rest[k];
            t->edge_compliance[j] = e->edge_compliance[k];
            ++j;
        }
    for (size_t k = 0, j = 0; k < w->nt; ++k)
        if (!w->drop_t[k]) {
            memcpy(t->tet + 4 * j, w->tv + 4 * k, 4 * sizeof *t->tet);
            t->tet_compliance[j++] = e->tet_compliance[k];
        }
    for (size_t k = 0, j = 0; k < w->nb; ++k)
        if (!w->drop_b[k]) {
            memcpy(t->bend + 4 * j, w->bv + 4 * k, 4 * sizeof *t->bend);
            t->bend_compliance[j++] = e->bend_compliance[k];
        }
    return XPBD_OK;
}

/* Moves the grown particles into e (in place within the capacity, or by
 * taking t's new block); a sleeping body that grew wakes (its state
 * changed). Cannot fail. */
static void engine_tear_commit_particles(E *e, engine_tear_work *w, uint32_t *woke)
{
    E *t = &w->t;
    for (uint32_t b = 0; b < e->sleep.body_count; ++b)
        if (e->sleep.asleep[b] &&
            t->body_begin[b + 1] - t->body_begin[b] != e->body_begin[b + 1] - e->body_begin[b]) {
            xpbd_sleep_wake(&e->sleep, b);
            ++*woke;
        }
    if (e->options.max_particles) { /* in place, within the capacity */
        SFX(xpbd__engine_move)(e, e, w->n, w->src, w->copies, w->map, w->pieces);
        free(e->body_begin);
        e->body_begin = t->body_begin;
        return;
    }
    free(e->owned_);
    free(e->origin);
    free(e->tether_anchor);
    free(e->body_begin);
    e->owned_ = t->owned_;
    e->particles = t->particles;
    e->rest_xyz = t->rest_xyz;
    e->radius = t->radius;
    e->plane_impulse = t->plane_impulse;
    e->tether_anchor = t->tether_anchor;
    e->tether_length = t->tether_length;
    e->origin = t->origin;
    e->body_begin = t->body_begin;
    e->capacity = t->capacity;
}

/* Replaces e's sets, scratch and topology with t's. Cannot fail. */
static void engine_tear_commit(E *e, engine_tear_work *w, uint32_t *woke)
{
    E *t = &w->t;
    SFX(xpbd_distance_set_free)(&e->distance);
    SFX(xpbd_quad_set_free)(&e->tets);
    SFX(xpbd_quad_set_free)(&e->bends);
    free(e->edge);
    free(e->edge_rest);
    if (w->grown)
        engine_tear_commit_particles(e, w, woke);
    e->scratch = t->scratch;
    e->scratch_bytes = t->scratch_bytes;
    e->distance = w->d;
    e->tets = w->tq;
    e->bends = w->bq;
    e->edge_count = t->edge_count;
    e->tet_count = t->tet_count;
    e->bend_count = t->bend_count;
    e->edge = t->edge;
    e->edge_rest = t->edge_rest;
    e->tet = t->tet;
    e->bend = t->bend;
    e->edge_compliance = t->edge_compliance;
    e->tet_compliance = t->tet_compliance;
    e->bend_compliance = t->bend_compliance;
    memset(e->torn, 0, e->edge_count + 1);
    t->edge = NULL;
    t->edge_rest = NULL;
    w->built = w->grown = 0;
}

/* Frees what the tear built and did not commit. */
static void engine_tear_clean(const E *e, engine_tear_work *w)
{
    E *t = &w->t;
    if (w->built) {
        SFX(xpbd_distance_set_free)(&w->d);
        SFX(xpbd_quad_set_free)(&w->tq);
        SFX(xpbd_quad_set_free)(&w->bq);
    }
    free(t->edge);
    free(t->edge_rest);
    if (w->grown) {
        free(t->body_begin);
        if (!e->options.max_particles) {
            free(t->owned_);
            free(t->origin);
            free(t->tether_anchor);
        }
    }
    void *const blocks[] = {w->drop_t, w->drop_b, w->ev, w->map, w->pieces, w->per_body,
                            w->rest_tmp};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
}

/* Removes the torn edges, and the tets and bending stencils that contain
 * one of them, splits the vertices the tear cut into separate fans
 * (xpbd_tear_split) and rebuilds the sets: all or nothing. *split gets the
 * number of particles added. */
xpbd_status xpbd__engine_tear(E *e, uint32_t *split, uint32_t *woke, uint32_t *dropped)
{
    *split = 0;
    *woke = 0;
    *dropped = 0;
    size_t torn = 0;
    for (size_t k = 0; k < e->edge_count; ++k)
        torn += e->torn[k] != 0;
    if (!torn)
        return XPBD_OK;
    engine_tear_work w;
    memset(&w, 0, sizeof w);
    w.n = e->particles.count;
    w.ne = e->edge_count;
    w.nt = e->tet_count;
    w.nb = e->bend_count;
    w.torn = torn;
    memcpy(&w.t, e, sizeof w.t);
    w.t.edge = w.t.tet = w.t.bend = NULL;
    w.t.edge_rest = w.t.edge_compliance = w.t.tet_compliance = w.t.bend_compliance = NULL;
    xpbd_status st = engine_tear_plan(e, &w);
    if (st == XPBD_OK && w.copies)
        st = engine_tear_grow(e, &w);
    if (st == XPBD_OK)
        st = engine_tear_survivors(e, &w);
    if (st == XPBD_OK)
        st = SFX(xpbd__engine_build)(&w.t, &w.d, &w.tq, &w.bq, NULL);
    if (st == XPBD_OK) {
        w.built = 1;
        w.t.distance = w.d;
        w.t.tets = w.tq;
        w.t.bends = w.bq;
        st = SFX(xpbd__engine_scratch)(&w.t);
    }
    if (st == XPBD_OK) { /* commit: nothing below can fail */
        engine_tear_commit(e, &w, woke);
        *split = (uint32_t)w.copies;
        *dropped = w.want_dropped;
    }
    engine_tear_clean(e, &w);
    return st;
}

#undef E

#endif /* XPBD_SELF */
