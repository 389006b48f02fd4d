/* SPDX-License-Identifier: MIT */
/* Tearing (xpbd/engine.h): the engine's topology change at step end. The
 * stretch pass that flags elements to tear is the tearing row's
 * (engine/common.h: engine_kind.tear_flag, in its kinds/<kind>.c with
 * xpbd_tear_flag and xpbd_tear_remove); here every row with a list is
 * torn, split and rebuilt by its tear role. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/tearing.c"
#include "engine/common.h"

#  include "each_precision.h"

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* Tearing, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_tear_plan PREC(engine_tear_plan_f32, engine_tear_plan_f64)
#define engine_tear_split PREC(engine_tear_split_f32, engine_tear_split_f64)
#define engine_tear_grow PREC(engine_tear_grow_f32, engine_tear_grow_f64)
#define engine_tear_survivors PREC(engine_tear_survivors_f32, engine_tear_survivors_f64)
#define engine_tear_commit_particles PREC(engine_tear_commit_particles_f32, engine_tear_commit_particles_f64)
#define engine_tear_commit PREC(engine_tear_commit_f32, engine_tear_commit_f64)
#define engine_tear_clean PREC(engine_tear_clean_f32, engine_tear_clean_f64)
#define xpbd__engine_tear PREC(xpbd__engine_tear_f32, xpbd__engine_tear_f64)
#define engine_tear_work PREC(engine_tear_work_f32, engine_tear_work_f64)

#define E SFX(xpbd_engine)
#define ROWS xpbd__engine_kinds

/* One frame's tear: what it removes and adds, and the new engine state
 * built beside the old one (t: particles and body ranges are the old ones
 * unless vertices split, `grown`). */
typedef struct engine_tear_work {
    size_t n, torn, ni, most;
    int role[XPBD__TEAR_ROLES];         /* the row of each role, or -1 */
    uint8_t *drop[XPBD__ENGINE_ROWS];   /* per row: its elements the tear drops */
    uint32_t *out[XPBD__ENGINE_ROWS];   /* per row: its rewired indices (ids past n: new) */
    uint8_t *drops;                     /* the blocks holding them, then the copied */
    uint32_t *ids, *src;                /* vertices */
    uint32_t *map, *pieces;
    size_t *per_body;
    R *rest_tmp;
    size_t copies;
    uint32_t want_dropped; /* reported only if the tear is committed */
    E t;
    engine_set sets[XPBD__ENGINE_ROWS];
    int built, grown;
} engine_tear_work;

/* xpbd_tear_split on the rows of the three roles (a role no row has: an
 * empty list). */
static xpbd_status engine_tear_split(const E *e, engine_tear_work *w, unsigned flags)
{
    const uint32_t *idx[XPBD__TEAR_ROLES] = {NULL};
    size_t count[XPBD__TEAR_ROLES] = {0};
    uint8_t *drop[XPBD__TEAR_ROLES] = {NULL};
    uint32_t *out[XPBD__TEAR_ROLES] = {NULL};
    for (int q = XPBD__TEAR_EDGES; q < XPBD__TEAR_ROLES; ++q)
        if (w->role[q] >= 0) {
            idx[q] = e->slot[w->role[q]].idx;
            count[q] = e->slot[w->role[q]].count;
            drop[q] = w->drop[w->role[q]];
            out[q] = w->out[w->role[q]];
        }
    enum { ED = XPBD__TEAR_EDGES, CE = XPBD__TEAR_CELLS, ST = XPBD__TEAR_STENCILS };
    return xpbd_tear_split(w->n, idx[ED], count[ED], e->torn, idx[CE], count[CE], idx[ST],
                           count[ST], flags, drop[CE], drop[ST], out[ED], out[CE], out[ST],
                           w->src, w->most, &w->copies);
}

/* The split plan of the frame (xpbd_tear_split); past the level's capacity
 * (or the index range) the frame tears without splitting. A row with a
 * list and no role keeps its elements. */
static xpbd_status engine_tear_plan(const E *e, engine_tear_work *w)
{
    size_t nd = 0;
    for (int q = 0; q < XPBD__TEAR_ROLES; ++q)
        w->role[q] = q ? engine_tear_row((xpbd__tear_role)q) : -1;
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            w->ni += ROWS[r]->arity * e->slot[r].count;
            nd += ROWS[r]->tear == XPBD__TEAR_EDGES ? 0 : e->slot[r].count + 1;
            if (ROWS[r]->tear == XPBD__TEAR_EDGES || ROWS[r]->tear == XPBD__TEAR_CELLS)
                w->most += ROWS[r]->arity * e->slot[r].count;
        }
    w->drops = calloc(nd + 1, 1);
    w->ids = malloc((w->ni + w->most + 1) * sizeof *w->ids);
    if (!w->drops || !w->ids)
        return XPBD_ERR_NOMEM;
    size_t oi = 0, od = 0;
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            const size_t c = e->slot[r].count;
            w->out[r] = w->ids + oi;
            w->drop[r] = ROWS[r]->tear == XPBD__TEAR_EDGES ? e->torn : w->drops + od;
            oi += ROWS[r]->arity * c;
            od += ROWS[r]->tear == XPBD__TEAR_EDGES ? 0 : c + 1;
            if (!ROWS[r]->tear && c)
                memcpy(w->out[r], e->slot[r].idx, ROWS[r]->arity * c * sizeof *w->out[r]);
        }
    w->src = w->ids + w->ni;
    const unsigned flags = e->options.keep_hinges ? XPBD_TEAR_KEEP_HINGES : 0u;
    xpbd_status st = engine_tear_split(e, w, flags);
    if ((st == XPBD_OK && e->options.max_particles && w->n + w->copies > e->capacity) ||
        st == XPBD_ERR_CAPACITY) {
        w->want_dropped = st == XPBD_OK ? (uint32_t)w->copies : 1u;
        st = engine_tear_split(e, w, XPBD_TEAR_KEEP_HINGES);
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
        uint32_t reals = 0;
        int bad = 0;
        for (unsigned r = 0; ROWS[r]; ++r) {
            reals |= e->slot[r].preal ? 1u << r : 0u;
            t->slot[r].pindex =
                e->slot[r].pindex ? malloc((n + copies + 1) * sizeof *t->slot[r].pindex) : NULL;
            bad |= e->slot[r].pindex && !t->slot[r].pindex;
        }
        t->owned_ =
            SFX(xpbd__engine_block)(t, n + copies, n + copies, e->radius != NULL, reals);
        t->origin = malloc((n + copies + 1) * sizeof *t->origin);
        if (bad || !t->owned_ || !t->origin) {
            free(t->owned_); /* not grown: the clean-up frees none of these */
            free(t->origin);
            for (unsigned r = 0; ROWS[r]; ++r)
                free(t->slot[r].pindex);
            free(t->body_begin);
            return XPBD_ERR_NOMEM;
        }
        SFX(xpbd__engine_move)(e, t, n, w->src, copies, w->map, w->pieces);
    }
    w->grown = 1;
    for (size_t k = 0; k < w->ni; ++k)
        w->ids[k] = w->map[w->ids[k]];
    return XPBD_OK;
}

/* The surviving elements of each row with a list, in order, into t's
 * lists. */
static xpbd_status engine_tear_survivors(const E *e, engine_tear_work *w)
{
    E *t = &w->t;
    for (unsigned r = 0; ROWS[r]; ++r) {
        if (!ROWS[r]->arity)
            continue;
        const unsigned a = ROWS[r]->arity;
        const engine_slot *s = &e->slot[r];
        engine_slot *ts = &t->slot[r];
        size_t keep = 0;
        for (size_t k = 0; k < s->count; ++k)
            keep += !w->drop[r][k];
        ts->count = keep;
        ts->idx = malloc((a * keep + 1) * sizeof *ts->idx);
        ts->rest = malloc((2 * keep + 1) * sizeof *ts->rest);
        if (!ts->idx || !ts->rest)
            return XPBD_ERR_NOMEM;
        ts->comp = ts->rest + keep;
        for (size_t k = 0, j = 0; k < s->count; ++k)
            if (!w->drop[r][k]) {
                memcpy(ts->idx + a * j, w->out[r] + a * k, a * sizeof *ts->idx);
                if (ROWS[r]->rest)
                    ts->rest[j] = s->rest[k];
                ts->comp[j++] = s->comp[k];
            }
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
    free(e->body_begin);
    for (unsigned r = 0; ROWS[r]; ++r) {
        free(e->slot[r].pindex);
        e->slot[r].pindex = t->slot[r].pindex;
        e->slot[r].preal = t->slot[r].preal;
    }
    e->owned_ = t->owned_;
    e->particles = t->particles;
    e->rest_xyz = t->rest_xyz;
    e->radius = t->radius;
    e->origin = t->origin;
    e->body_begin = t->body_begin;
    e->capacity = t->capacity;
}

/* Replaces e's sets, scratch and lists with t's. Cannot fail. */
static void engine_tear_commit(E *e, engine_tear_work *w, uint32_t *woke)
{
    E *t = &w->t;
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            if (ROWS[r]->free_set)
                ROWS[r]->free_set(&e->slot[r].set);
            free(e->slot[r].idx);
            free(e->slot[r].rest);
        }
    if (w->grown)
        engine_tear_commit_particles(e, w, woke);
    e->scratch = t->scratch;
    e->scratch_bytes = t->scratch_bytes;
    size_t edges = 0;
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            engine_slot *s = &e->slot[r], *ts = &t->slot[r];
            if (ROWS[r]->build)
                s->set = w->sets[r];
            s->count = ts->count;
            s->idx = ts->idx;
            s->rest = ts->rest;
            s->comp = ts->comp;
            ts->idx = NULL;
            ts->rest = NULL;
            edges = ROWS[r]->tear == XPBD__TEAR_EDGES ? s->count : edges;
        }
    memset(e->torn, 0, edges + 1);
    w->built = w->grown = 0;
    e->checked_ = 0; /* new sets (and particles after a split): the next step checks them */
}

/* Frees what the tear built and did not commit. */
static void engine_tear_clean(const E *e, engine_tear_work *w)
{
    E *t = &w->t;
    if (w->built)
        SFX(xpbd__engine_free_sets)(w->sets);
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            free(t->slot[r].idx);
            free(t->slot[r].rest);
        }
    if (w->grown) {
        free(t->body_begin);
        if (!e->options.max_particles) {
            free(t->owned_);
            free(t->origin);
            for (unsigned r = 0; ROWS[r]; ++r)
                free(t->slot[r].pindex);
        }
    }
    void *const blocks[] = {w->drops, w->ids, w->map, w->pieces, w->per_body, w->rest_tmp};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
}

/* Removes the torn elements of the tearing row, and the elements of the
 * other rows the tear removes with them, splits the vertices the tear cut
 * into separate fans (xpbd_tear_split) and rebuilds the sets: all or
 * nothing. *split gets the number of particles added. */
xpbd_status xpbd__engine_tear(E *e, uint32_t *split, uint32_t *woke, uint32_t *dropped)
{
    *split = 0;
    *woke = 0;
    *dropped = 0;
    const int tr = engine_tear_row(XPBD__TEAR_EDGES);
    size_t torn = 0;
    for (size_t k = 0; tr >= 0 && k < e->slot[tr].count; ++k)
        torn += e->torn[k] != 0;
    if (!torn)
        return XPBD_OK;
    engine_tear_work w;
    memset(&w, 0, sizeof w);
    w.n = e->particles.count;
    w.torn = torn;
    memcpy(&w.t, e, sizeof w.t);
    for (unsigned r = 0; ROWS[r]; ++r)
        if (ROWS[r]->arity) {
            w.t.slot[r].idx = NULL;
            w.t.slot[r].rest = w.t.slot[r].comp = NULL;
        }
    xpbd_status st = engine_tear_plan(e, &w);
    if (st == XPBD_OK && w.copies)
        st = engine_tear_grow(e, &w);
    if (st == XPBD_OK)
        st = engine_tear_survivors(e, &w);
    if (st == XPBD_OK)
        st = SFX(xpbd__engine_build)(&w.t, w.sets, NULL);
    if (st == XPBD_OK) {
        w.built = 1;
        for (unsigned r = 0; ROWS[r]; ++r)
            if (ROWS[r]->build)
                w.t.slot[r].set = w.sets[r];
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

#undef ROWS
#undef E

#endif /* XPBD_SELF */
