/* SPDX-License-Identifier: MIT */
/* Sleeping (xpbd/engine.h): per-body kinetic energy, the state signature
 * that wakes a body the host changed, the sleep and wake bookkeeping after
 * a step, and the engine's rebuild of its sets for the sleep flags. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/sleeping.c"
#include "engine/common.h"

void xpbd_sleep_wake(xpbd_sleep_state *s, uint32_t b)
{
    if (!s || b >= s->body_count || !s->asleep)
        return;
    s->asleep[b] = 0;
    if (s->calm)
        s->calm[b] = 0;
}

#  include "each_precision.h"

double xpbd_body_energy_f32(const xpbd_particles_f32 *p, size_t begin, size_t end)
{
    return engine_body_energy_f32(p, begin, end);
}

double xpbd_body_energy_f64(const xpbd_particles_f64 *p, size_t begin, size_t end)
{
    return engine_body_energy_f64(p, begin, end);
}

uint32_t xpbd_sleep_prepare_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w)
{
    return engine_sleep_prepare_f32(s, w);
}

uint32_t xpbd_sleep_prepare_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w)
{
    return engine_sleep_prepare_f64(s, w);
}

uint32_t xpbd_sleep_update_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w, uint32_t *fell,
                               uint32_t *woke)
{
    return engine_sleep_update_f32(s, w, fell, woke);
}

uint32_t xpbd_sleep_update_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w, uint32_t *fell,
                               uint32_t *woke)
{
    return engine_sleep_update_f64(s, w, fell, woke);
}

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* Sleeping, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_body_energy PREC(engine_body_energy_f32, engine_body_energy_f64)
#define engine_signature PREC(engine_signature_f32, engine_signature_f64)
#define engine_sleep_usable PREC(engine_sleep_usable_f32, engine_sleep_usable_f64)
#define engine_sleep_prepare PREC(engine_sleep_prepare_f32, engine_sleep_prepare_f64)
#define engine_moving PREC(engine_moving_f32, engine_moving_f64)
#define engine_sleep_pairs PREC(engine_sleep_pairs_f32, engine_sleep_pairs_f64)
#define engine_sleep_touched PREC(engine_sleep_touched_f32, engine_sleep_touched_f64)
#define engine_sleep_update PREC(engine_sleep_update_f32, engine_sleep_update_f64)
#define xpbd__engine_activate PREC(xpbd__engine_activate_f32, xpbd__engine_activate_f64)

#define W SFX(xpbd_world)
#define E SFX(xpbd_engine)

static double engine_body_energy(const P *p, size_t begin, size_t end)
{
    double mass = 0, e = 0;
    for (size_t i = begin; p && i < end && i < p->count; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double m = 1.0 / (double)p->w[i];
        const double vx = p->vx[i], vy = p->vy[i], vz = p->vz[i];
        mass += m;
        e += m * (vx * vx + vy * vy + vz * vz);
    }
    return mass > 0 ? 0.5 * e / mass : 0;
}

static uint64_t engine_signature(const P *p, size_t b0, size_t b1)
{
    uint64_t h = XPBD__FNV_BASIS;
    if (b1 <= b0)
        return h;
    const R *const arrays[7] = {p->x, p->y, p->z, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 7; ++k)
        h = xpbd__fnv1a(h, arrays[k] + b0, (b1 - b0) * sizeof(R));
    return h;
}

static int engine_sleep_usable(const xpbd_sleep_state *s, const W *w)
{
    return s && w && w->particles && s->asleep && s->calm && s->signature &&
           s->body_count == w->body_count && w->body_begin && s->body_count > 0;
}

static uint32_t engine_sleep_prepare(xpbd_sleep_state *s, const W *w)
{
    if (!engine_sleep_usable(s, w))
        return 0;
    uint32_t woke = 0;
    for (uint32_t b = 0; b < s->body_count; ++b)
        if (s->asleep[b] &&
            engine_signature(w->particles, w->body_begin[b], w->body_begin[b + 1]) != s->signature[b]) {
            s->asleep[b] = 0;
            s->calm[b] = 0;
            ++woke;
        }
    return woke;
}

/* 1 if particle i is part of something moving: a body that was not calm
 * this step, or a free particle with 0.5 v^2 above the threshold. */
static int engine_moving(const xpbd_sleep_state *s, const W *w, size_t i, uint32_t b)
{
    if (b != UINT32_MAX)
        return !s->asleep[b] && s->calm[b] == 0;
    const P *p = w->particles;
    if (!(p->w[i] > 0))
        return 0;
    const double vx = p->vx[i], vy = p->vy[i], vz = p->vz[i];
    return 0.5 * (vx * vx + vy * vy + vz * vz) > s->energy;
}

/* The wakes of one set of touching pairs. */
static uint32_t engine_sleep_pairs(xpbd_sleep_state *s, const W *w, const xpbd_contact_set *cs)
{
    uint32_t nw = 0;
    for (uint32_t col = 0; col <= cs->colours; ++col) {
        const uint32_t s0 = col < cs->colours ? cs->colour_begin[col] : cs->overflow_begin;
        const uint32_t s1 = col < cs->colours ? s0 + cs->colour_size[col] : cs->slots;
        for (uint32_t k = s0; k < s1; ++k) {
            const uint32_t i = cs->i0[k], j = cs->i1[k];
            const uint32_t bi = engine_body_of(w->body_begin, s->body_count, i);
            const uint32_t bj = engine_body_of(w->body_begin, s->body_count, j);
            if (bi == bj)
                continue;
            if (bi != UINT32_MAX && s->asleep[bi] && engine_moving(s, w, j, bj)) {
                s->asleep[bi] = 0;
                s->calm[bi] = 0;
                ++nw;
            }
            if (bj != UINT32_MAX && s->asleep[bj] && engine_moving(s, w, i, bi)) {
                s->asleep[bj] = 0;
                s->calm[bj] = 0;
                ++nw;
            }
        }
    }
    return nw;
}

/* A sleeping body touched (a pair of a row's touching pairs: engine_kind
 * .touch) by something moving wakes, whole. Returns the number woken. */
static uint32_t engine_sleep_touched(xpbd_sleep_state *s, const W *w)
{
    uint32_t nw = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const xpbd_contact_set *cs =
            xpbd__engine_kinds[r]->touch ? xpbd__engine_kinds[r]->touch(w) : NULL;
        if (cs)
            nw += engine_sleep_pairs(s, w, cs);
    }
    return nw;
}

static uint32_t engine_sleep_update(xpbd_sleep_state *s, const W *w, uint32_t *fell, uint32_t *woke)
{
    uint32_t nf = 0, nw = 0, asleep = 0;
    if (engine_sleep_usable(s, w)) {
        const P *p = w->particles;
        const uint32_t steps = s->steps ? s->steps : 1;
        /* calm steps of the awake bodies */
        for (uint32_t b = 0; b < s->body_count; ++b) {
            if (s->asleep[b])
                continue;
            const double e = engine_body_energy(p, w->body_begin[b], w->body_begin[b + 1]);
            s->calm[b] = e < s->energy ? (s->calm[b] < UINT32_MAX ? s->calm[b] + 1 : s->calm[b]) : 0;
        }
        nw = engine_sleep_touched(s, w);
        /* calm long enough: the whole body falls asleep, at rest */
        for (uint32_t b = 0; b < s->body_count; ++b) {
            if (!s->asleep[b] && s->calm[b] >= steps) {
                const size_t b0 = w->body_begin[b], b1 = w->body_begin[b + 1];
                for (size_t i = b0; i < b1; ++i) {
                    p->vx[i] = p->vy[i] = p->vz[i] = 0;
                    p->px[i] = p->x[i];
                    p->py[i] = p->y[i];
                    p->pz[i] = p->z[i];
                }
                s->signature[b] = engine_signature(p, b0, b1);
                s->asleep[b] = 1;
                ++nf;
            }
            asleep += s->asleep[b] != 0;
        }
    }
    if (fell)
        *fell = nf;
    if (woke)
        *woke = nw;
    return asleep;
}

/* Rebuilds the engine's sets for the current sleep flags (all or nothing):
 * the constraints of sleeping bodies are left out. */
xpbd_status xpbd__engine_activate(E *e)
{
    uint8_t *flags = malloc(e->sleep.body_count + 1u);
    if (!flags)
        return XPBD_ERR_NOMEM;
    memcpy(flags, e->sleep.asleep, e->sleep.body_count);
    E t;
    memcpy(&t, e, sizeof t);
    t.active_ = flags;
    engine_set sets[XPBD__ENGINE_ROWS];
    xpbd_status st = SFX(xpbd__engine_build)(&t, sets, NULL);
    if (st == XPBD_OK) { /* the scratch must fit the new sets */
        for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
            if (xpbd__engine_kinds[r]->build)
                t.slot[r].set = sets[r];
        st = SFX(xpbd__engine_scratch)(&t);
        if (st != XPBD_OK)
            SFX(xpbd__engine_free_sets)(sets);
    }
    if (st != XPBD_OK) {
        free(flags);
        return st;
    }
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->build) {
            xpbd__engine_kinds[r]->free_set(&e->slot[r].set);
            e->slot[r].set = sets[r];
        }
    e->scratch = t.scratch;
    e->scratch_bytes = t.scratch_bytes;
    free(e->active_);
    e->active_ = flags;
    e->checked_ = 0;
    return XPBD_OK;
}

#undef W
#undef E

#endif /* XPBD_SELF */
