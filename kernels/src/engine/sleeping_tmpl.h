/* SPDX-License-Identifier: MIT */
/* Sleeping, template over R. */
#include "precision.h"

#define W SFX(xpbd_world)
#define E SFX(xpbd_engine)

static double SFX(body_energy)(const P *p, size_t begin, size_t end)
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

static uint64_t SFX(signature)(const P *p, size_t b0, size_t b1)
{
    uint64_t h = 0xcbf29ce484222325ull;
    if (b1 <= b0)
        return h;
    const R *const arrays[7] = {p->x, p->y, p->z, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 7; ++k)
        h = xpbd__fnv1a(h, arrays[k] + b0, (b1 - b0) * sizeof(R));
    return h;
}

static int SFX(sleep_usable)(const xpbd_sleep_state *s, const W *w)
{
    return s && w && w->particles && s->asleep && s->calm && s->signature &&
           s->body_count == w->body_count && w->body_begin && s->body_count > 0;
}

static uint32_t SFX(sleep_prepare)(xpbd_sleep_state *s, const W *w)
{
    if (!SFX(sleep_usable)(s, w))
        return 0;
    uint32_t woke = 0;
    for (uint32_t b = 0; b < s->body_count; ++b)
        if (s->asleep[b] &&
            SFX(signature)(w->particles, w->body_begin[b], w->body_begin[b + 1]) != s->signature[b]) {
            s->asleep[b] = 0;
            s->calm[b] = 0;
            ++woke;
        }
    return woke;
}

/* 1 if particle i is part of something moving: a body that was not calm
 * this step, or a free particle with 0.5 v^2 above the threshold. */
static int SFX(moving)(const xpbd_sleep_state *s, const W *w, size_t i, uint32_t b)
{
    if (b != UINT32_MAX)
        return !s->asleep[b] && s->calm[b] == 0;
    const P *p = w->particles;
    if (!(p->w[i] > 0))
        return 0;
    const double vx = p->vx[i], vy = p->vy[i], vz = p->vz[i];
    return 0.5 * (vx * vx + vy * vy + vz * vz) > s->energy;
}

/* A sleeping body touched (a pair of the contact set) by something moving
 * wakes, whole. Returns the number woken. */
static uint32_t SFX(sleep_touched)(xpbd_sleep_state *s, const W *w)
{
    const xpbd_contact_set *cs = w->radius ? w->contacts : NULL;
    uint32_t nw = 0;
    if (!cs)
        return 0;
    for (uint32_t col = 0; col <= cs->colours; ++col) {
        const uint32_t s0 = col < cs->colours ? cs->colour_begin[col] : cs->overflow_begin;
        const uint32_t s1 = col < cs->colours ? s0 + cs->colour_size[col] : cs->slots;
        for (uint32_t k = s0; k < s1; ++k) {
            const uint32_t i = cs->i0[k], j = cs->i1[k];
            const uint32_t bi = engine_body_of(w->body_begin, s->body_count, i);
            const uint32_t bj = engine_body_of(w->body_begin, s->body_count, j);
            if (bi == bj)
                continue;
            if (bi != UINT32_MAX && s->asleep[bi] && SFX(moving)(s, w, j, bj)) {
                s->asleep[bi] = 0;
                s->calm[bi] = 0;
                ++nw;
            }
            if (bj != UINT32_MAX && s->asleep[bj] && SFX(moving)(s, w, i, bi)) {
                s->asleep[bj] = 0;
                s->calm[bj] = 0;
                ++nw;
            }
        }
    }
    return nw;
}

static uint32_t SFX(sleep_update)(xpbd_sleep_state *s, const W *w, uint32_t *fell, uint32_t *woke)
{
    uint32_t nf = 0, nw = 0, asleep = 0;
    if (SFX(sleep_usable)(s, w)) {
        const P *p = w->particles;
        const uint32_t steps = s->steps ? s->steps : 1;
        /* calm steps of the awake bodies */
        for (uint32_t b = 0; b < s->body_count; ++b) {
            if (s->asleep[b])
                continue;
            const double e = SFX(body_energy)(p, w->body_begin[b], w->body_begin[b + 1]);
            s->calm[b] = e < s->energy ? (s->calm[b] < UINT32_MAX ? s->calm[b] + 1 : s->calm[b]) : 0;
        }
        nw = SFX(sleep_touched)(s, w);
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
                s->signature[b] = SFX(signature)(p, b0, b1);
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
xpbd_status SFX(xpbd__engine_activate)(E *e)
{
    uint8_t *flags = malloc(e->sleep.body_count + 1u);
    if (!flags)
        return XPBD_ERR_NOMEM;
    memcpy(flags, e->sleep.asleep, e->sleep.body_count);
    E t;
    memcpy(&t, e, sizeof t);
    t.active_ = flags;
    DS d;
    QS tq, bq;
    xpbd_status st = SFX(xpbd__engine_build)(&t, &d, &tq, &bq, NULL);
    if (st == XPBD_OK) { /* the scratch must fit the new sets */
        t.distance = d;
        t.tets = tq;
        t.bends = bq;
        st = SFX(xpbd__engine_scratch)(&t);
        if (st != XPBD_OK) {
            SFX(xpbd_distance_set_free)(&d);
            SFX(xpbd_quad_set_free)(&tq);
            SFX(xpbd_quad_set_free)(&bq);
        }
    }
    if (st != XPBD_OK) {
        free(flags);
        return st;
    }
    SFX(xpbd_distance_set_free)(&e->distance);
    SFX(xpbd_quad_set_free)(&e->tets);
    SFX(xpbd_quad_set_free)(&e->bends);
    e->distance = d;
    e->tets = tq;
    e->bends = bq;
    e->scratch = t.scratch;
    e->scratch_bytes = t.scratch_bytes;
    free(e->active_);
    e->active_ = flags;
    return XPBD_OK;
}

#undef W
#undef E
#define XPBD_PRECISION_END
#include "precision.h"
