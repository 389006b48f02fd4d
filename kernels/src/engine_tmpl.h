/* xpbd/engine.h, template over R. */
#include "real_begin.h"

#define W SFX(xpbd_world)
#define E SFX(xpbd_engine)
#define SC SFX(xpbd_scene)

/* ----------------------------------------------------------- tearing --- */

uint32_t SFX(xpbd_tear_flag)(const P *p, const DS *c, double threshold, uint8_t *flags,
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

xpbd_status SFX(xpbd_tear_remove)(DS *c, size_t n, const uint8_t *remove,
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
        SFXM(xpbd_distance_set, build)(&nw, n, k, i0, i1, rest, comp, options, NULL);
    free(i0);
    free(rest);
    if (st != XPBD_OK)
        return st;
    SFXM(xpbd_distance_set, free)(c);
    *c = nw;
    if (kept)
        for (size_t t = 0, j = 0; t < m; ++t)
            kept[t] = remove[t] ? XPBD_PAD : (uint32_t)j++;
    return XPBD_OK;
}

/* ---------------------------------------------------------- sleeping --- */

double SFX(xpbd_body_energy)(const P *p, size_t begin, size_t end)
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
        h = engine_hash(h, arrays[k] + b0, (b1 - b0) * sizeof(R));
    return h;
}

static int SFX(sleep_usable)(const xpbd_sleep_state *s, const W *w)
{
    return s && w && w->particles && s->asleep && s->calm && s->signature &&
           s->body_count == w->body_count && w->body_begin && s->body_count > 0;
}

uint32_t SFX(xpbd_sleep_prepare)(xpbd_sleep_state *s, const W *w)
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

uint32_t SFX(xpbd_sleep_update)(xpbd_sleep_state *s, const W *w, uint32_t *fell, uint32_t *woke)
{
    uint32_t nf = 0, nw = 0, asleep = 0;
    if (SFX(sleep_usable)(s, w)) {
        const P *p = w->particles;
        const uint32_t steps = s->steps ? s->steps : 1;
        /* calm steps of the awake bodies */
        for (uint32_t b = 0; b < s->body_count; ++b) {
            if (s->asleep[b])
                continue;
            const double e = SFX(xpbd_body_energy)(p, w->body_begin[b], w->body_begin[b + 1]);
            s->calm[b] = e < s->energy ? (s->calm[b] < UINT32_MAX ? s->calm[b] + 1 : s->calm[b]) : 0;
        }
        /* a sleeping body touched by something moving wakes (whole) */
        const xpbd_contact_set *cs = w->radius ? w->contacts : NULL;
        if (cs) {
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
        }
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

/* ---------------------------------------------------------- counters --- */

/* The snapshot; max_stretch (may be NULL) is the distance set's when the
 * caller's stretch pass already measured it (the engine's tear pass). */
static void SFX(counters_fill)(const W *w, const xpbd_step_counters *k,
                               const double *max_stretch, xpbd_engine_counters *out)
{
    memset(out, 0, sizeof *out);
    if (k) {
        out->step = *k;
        out->skipped = k->skipped;
        out->solved = k->solves >= k->skipped ? k->solves - k->skipped : 0;
        out->max_residual = k->max_residual;
    } else {
        out->step.bad_index = SIZE_MAX;
    }
    if (!w || !w->particles)
        return;
    const P *p = w->particles;
    if (w->constraints) {
        out->colours_distance = w->constraints->colours;
        out->distance = w->constraints->count;
        if (max_stretch)
            out->max_stretch = *max_stretch;
        else
            (void)SFX(xpbd_tear_flag)(p, w->constraints, 0, NULL, &out->max_stretch);
    }
    if (w->bends)
        out->colours_bends = w->bends->colours;
    const QS *t = w->tets;
    if (t) {
        out->colours_tets = t->colours;
        for (uint32_t s = 0; s < t->slots; ++s) {
            if (t->source[s] == XPBD_PAD)
                continue;
            const uint32_t v[4] = {t->i0[s], t->i1[s], t->i2[s], t->i3[s]};
            double e[3][3];
            for (int a = 0; a < 3; ++a) {
                e[a][0] = (double)p->x[v[a + 1]] - (double)p->x[v[0]];
                e[a][1] = (double)p->y[v[a + 1]] - (double)p->y[v[0]];
                e[a][2] = (double)p->z[v[a + 1]] - (double)p->z[v[0]];
            }
            const double vol6 = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) +
                                e[0][1] * (e[1][2] * e[2][0] - e[1][0] * e[2][2]) +
                                e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
            const double rest = t->rest[s];
            const double err = fabs(vol6 - rest) / fabs(rest);
            if (err > out->volume_error)
                out->volume_error = err;
            if (!(vol6 * rest > 0) || fabs(vol6) < 1e-6 * fabs(rest))
                out->degenerate++;
        }
    }
    out->colours = out->colours_distance + out->colours_tets + out->colours_bends;
    out->bodies = w->body_count;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        out->sleeping += w->body_asleep[b] != 0;
}

void SFX(xpbd_counters_snapshot)(const W *w, const xpbd_step_counters *k,
                                 xpbd_engine_counters *out)
{
    if (out)
        SFX(counters_fill)(w, k, NULL, out);
}

/* ------------------------------------------------------------ engine --- */

/* The world's view of the engine's arrays (re-pointed at every step, so
 * nothing goes stale when the sets are rebuilt). */
static void SFX(engine_point)(E *e)
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
static R *SFX(engine_block)(E *e, size_t n, size_t cap, int radius, int tethers)
{
    const size_t extra = (radius ? 2 * cap : 0) + (tethers ? cap : 0);
    R *blk = calloc(13 * cap + extra + 1, sizeof *blk);
    if (!blk)
        return NULL;
    SFXM(xpbd_particles, bind)(&e->particles, n, blk, cap);
    e->rest_xyz = blk + 10 * cap;
    R *tail = blk + 13 * cap;
    e->radius = radius ? tail : NULL;
    e->plane_impulse = radius ? tail + cap : NULL;
    e->tether_length = tethers ? tail + (radius ? 2 * cap : 0) : NULL;
    e->capacity = cap;
    return blk;
}

void SFXM(xpbd_engine, destroy)(E *e)
{
    if (!e)
        return;
    SFXM(xpbd_distance_set, free)(&e->distance);
    SFXM(xpbd_quad_set, free)(&e->tets);
    SFXM(xpbd_quad_set, free)(&e->bends);
    void *const blocks[] = {e->edge,          e->edge_rest,   e->tether_anchor,
                            e->body_begin,    e->torn,        e->scratch,
                            e->owned_,        e->origin,      e->contact_i0_,
                            e->contact_i1_,   e->sleep.asleep, e->sleep.calm,
                            e->sleep.signature, e->active_};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
    memset(e, 0, sizeof *e);
}

/* Copies the 4-index elements (tets, bending stencils) that have a moving
 * particle (still NULL: all of them) with their compliance; map gets each
 * kept one's index. Returns how many were kept. */
static size_t SFX(engine_keep_quads)(const uint32_t *idx, const R *comp, size_t count,
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
 * engine's own element index (edge k of e->edge, ...). */
static xpbd_status SFX(engine_build)(const E *e, DS *d, QS *t, QS *b, size_t *bad)
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
    mt = SFX(engine_keep_quads)(e->tet, e->tet_compliance, nt, still, tv, tcomp, tmap);
    mb = SFX(engine_keep_quads)(e->bend, e->bend_compliance, nb, still, bv, bcomp, bmap);
    free(still);
    size_t where = SIZE_MAX, count = me;
    const uint32_t *map = emap;
    xpbd_status st = XPBD_OK;
    if (me)
        st = SFXM(xpbd_distance_set, build)(d, n, me, i0, i1, rest, ecomp, &e->colouring, &where);
    if (st == XPBD_OK && mt) {
        map = tmap;
        count = mt;
        st = SFXM(xpbd_tet_set, build)(t, n, e->rest_xyz, mt, tv, tcomp, &e->colouring, &where);
    }
    if (st == XPBD_OK && mb) {
        map = bmap;
        count = mb;
        st = SFXM(xpbd_bend_set, build)(b, n, e->rest_xyz, mb, bv, bcomp, &e->colouring, &where);
    }
    if (st == XPBD_OK) {
        for (uint32_t k = 0; k < d->slots; ++k)
            d->source[k] = d->source[k] == XPBD_PAD ? XPBD_PAD : emap[d->source[k]];
        for (uint32_t k = 0; k < t->slots; ++k)
            t->source[k] = t->source[k] == XPBD_PAD ? XPBD_PAD : tmap[t->source[k]];
        for (uint32_t k = 0; k < b->slots; ++k)
            b->source[k] = b->source[k] == XPBD_PAD ? XPBD_PAD : bmap[b->source[k]];
    } else {
        SFXM(xpbd_distance_set, free)(d);
        SFXM(xpbd_quad_set, free)(t);
        SFXM(xpbd_quad_set, free)(b);
    }
    if (bad) /* the builder names its input index: give the engine's */
        *bad = st != XPBD_OK && where < count ? map[where] : where;
    free(idx);
    free(val);
    return st;
}

/* (Re)sizes the step scratch for the current sets; keeps a big enough one. */
static xpbd_status SFX(engine_scratch)(E *e)
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

static int SFX(finite_nonneg)(double v)
{
    return isfinite(v) && v >= 0;
}

xpbd_status SFXM(xpbd_engine, create)(E *e, const SC *sc, const xpbd_step_config *cfg,
                                      const xpbd_engine_options *opt, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!e)
        return XPBD_ERR_ARGUMENT;
    memset(e, 0, sizeof *e);
    if (!sc)
        return XPBD_ERR_ARGUMENT;
    const size_t n = sc->particles;
    if (n > (size_t)INT32_MAX || (n && (!sc->xyz || !sc->inv_mass)) ||
        (sc->edges && !sc->edge) || (sc->tets && !sc->tet) || (sc->bends && !sc->bend) ||
        (sc->tether_anchor && !sc->tether_length) || (sc->bodies && !sc->body_begin) ||
        sc->planes > 8 || (sc->planes && !sc->plane))
        return XPBD_ERR_ARGUMENT;
    for (uint32_t b = 0; b < sc->bodies; ++b)
        if (sc->body_begin[b] > sc->body_begin[b + 1] || sc->body_begin[b + 1] > n)
            return XPBD_ERR_ARGUMENT;
    e->config = cfg ? *cfg : xpbd_step_config_default();
    if (e->config.version != XPBD_PROTOCOL_VERSION)
        return XPBD_ERR_VERSION;
    if (opt) {
        if (!SFX(finite_nonneg)(opt->tear_stretch) || !SFX(finite_nonneg)(opt->sleep_energy) ||
            opt->keep_hinges > 1)
            return XPBD_ERR_CONFIG;
        e->options = *opt;
    }
    if (!SFX(finite_nonneg)(sc->edge_alpha) || !SFX(finite_nonneg)(sc->tet_alpha) ||
        !SFX(finite_nonneg)(sc->bend_alpha))
        return XPBD_ERR_COMPLIANCE;
    e->colouring = sc->colouring;
    e->max_contacts = sc->radius ? sc->max_contacts : 0;

    xpbd_status st = XPBD_ERR_NOMEM;
    const size_t E_ = sc->edges, T_ = sc->tets, B_ = sc->bends;
    if (e->options.max_particles &&
        (e->options.max_particles < n || e->options.max_particles > (uint32_t)INT32_MAX))
        return XPBD_ERR_CONFIG;
    const size_t cap = e->options.max_particles ? e->options.max_particles : n;
    R *blk = SFX(engine_block)(e, n, cap, sc->radius != NULL, sc->tether_anchor != NULL);
    e->owned_ = blk;
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
    }
    if (!blk || !e->edge || !e->edge_rest || !e->torn || !e->origin ||
        (sc->tether_anchor && !e->tether_anchor) ||
        (sc->bodies && (!e->body_begin || !e->sleep.asleep || !e->sleep.calm ||
                        !e->sleep.signature || !e->active_)))
        goto fail;
    e->tet = e->edge + 2 * E_ + 1;
    e->bend = e->tet + 4 * T_ + 1;
    e->edge_compliance = e->edge_rest + E_;
    e->tet_compliance = e->edge_compliance + E_;
    e->bend_compliance = e->tet_compliance + T_;

    P *p = &e->particles;
    const R *rest_xyz = sc->rest_xyz ? sc->rest_xyz : sc->xyz;
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
    if (n)
        memcpy(e->rest_xyz, rest_xyz, 3 * n * sizeof(R));
    if (sc->radius)
        memcpy(e->radius, sc->radius, n * sizeof(R));
    if (sc->tether_anchor) {
        memcpy(e->tether_length, sc->tether_length, n * sizeof(R));
        memcpy(e->tether_anchor, sc->tether_anchor, n * sizeof *e->tether_anchor);
    }
    if (sc->bodies)
        memcpy(e->body_begin, sc->body_begin, (sc->bodies + 1) * sizeof *e->body_begin);
    e->sleep.body_count = sc->bodies;
    e->sleep.energy = e->options.sleep_energy;
    e->sleep.steps = e->options.sleep_steps ? e->options.sleep_steps : 30;
    e->plane_count = sc->planes;
    for (uint32_t k = 0; k < sc->planes; ++k)
        e->planes[k] = sc->plane[k];

    /* topology in input order */
    e->edge_count = E_;
    e->tet_count = T_;
    e->bend_count = B_;
    if (E_)
        memcpy(e->edge, sc->edge, 2 * E_ * sizeof *e->edge);
    for (size_t k = 0; k < E_; ++k) {
        if (e->edge[2 * k] >= n || e->edge[2 * k + 1] >= n) {
            if (bad_index)
                *bad_index = k;
            st = XPBD_ERR_INDEX;
            goto fail;
        }
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

    st = SFX(engine_build)(e, &e->distance, &e->tets, &e->bends, bad_index);
    if (st != XPBD_OK)
        goto fail;
    if (e->max_contacts) {
        const size_t slots = xpbd_contact_slots(e->max_contacts);
        e->contact_i0_ = malloc(slots * sizeof *e->contact_i0_ + 1);
        e->contact_i1_ = malloc(slots * sizeof *e->contact_i1_ + 1);
        st = XPBD_ERR_NOMEM;
        if (!e->contact_i0_ || !e->contact_i1_)
            goto fail;
        st = xpbd_contact_set_init(&e->contacts, e->contact_i0_, e->contact_i1_, slots,
                                   e->max_contacts);
        if (st != XPBD_OK)
            goto fail;
    }
    st = SFX(engine_scratch)(e);
    if (st != XPBD_OK)
        goto fail;
    st = SFXM(xpbd_particles, validate)(p, bad_index);
    if (st != XPBD_OK)
        goto fail;
    for (size_t i = 0; e->radius && i < n; ++i)
        if (!isfinite(e->radius[i]) || e->radius[i] < 0) {
            if (bad_index)
                *bad_index = i;
            st = XPBD_ERR_RADIUS;
            goto fail;
        }
    SFX(engine_point)(e);
    SFX(xpbd_counters_snapshot)(&e->world, NULL, &e->counters);
    return XPBD_OK;
fail:
    SFXM(xpbd_engine, destroy)(e);
    return st;
}

/* Where every particle goes when copies are added (xpbd/engine.h: at the
 * end of their body's range, or of the array): map[n + copies] (old
 * particles, then the copies) and the new body ranges begin[bodies + 1];
 * pieces[v] counts the copies of v. */
static void SFX(engine_layout)(const E *e, const uint32_t *src, size_t copies, uint32_t *map,
                               size_t *begin, uint32_t *pieces, size_t *per_body)
{
    const size_t n = e->particles.count;
    const uint32_t nb = e->sleep.body_count;
    memset(pieces, 0, n * sizeof *pieces);
    memset(per_body, 0, ((size_t)nb + 1) * sizeof *per_body); /* [nb]: free copies */
    for (size_t j = 0; j < copies; ++j) {
        const uint32_t b = engine_body_of(e->body_begin, nb, src[j]);
        per_body[b == UINT32_MAX ? nb : b]++;
        pieces[src[j]]++;
    }
    size_t shift = 0; /* copies inserted before the current body's end */
    for (uint32_t b = 0; b < nb; ++b) {
        begin[b] = e->body_begin[b] + shift;
        shift += per_body[b];
    }
    if (nb)
        begin[nb] = e->body_begin[nb] + shift;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t b = engine_body_of(e->body_begin, nb, i);
        map[i] = (uint32_t)(i + (b != UINT32_MAX ? begin[b] - e->body_begin[b]
                                                 : (nb && i >= e->body_begin[nb] ? shift : 0)));
    }
    memset(per_body, 0, ((size_t)nb + 1) * sizeof *per_body); /* now: copies placed so far */
    for (size_t j = 0; j < copies; ++j) {
        const uint32_t b = engine_body_of(e->body_begin, nb, src[j]);
        if (b == UINT32_MAX)
            map[n + j] = (uint32_t)(n + shift + per_body[nb]++);
        else
            map[n + j] =
                (uint32_t)(e->body_begin[b + 1] + (begin[b] - e->body_begin[b]) + per_body[b]++);
    }
}

/* Copies the particles of `from` (n of them) to their places map[] in
 * `to`, then each copy from its vertex's new place, the vertex's mass
 * shared equally among its pieces. `to` may be `from` itself (arrays with
 * room for the copies): map only moves particles up, so walking down reads
 * every particle before anything overwrites it. */
static void SFX(engine_move)(const E *from, E *to, size_t n, const uint32_t *src, size_t copies,
                             const uint32_t *map, const uint32_t *pieces)
{
    const P *op = &from->particles;
    P *np = &to->particles;
    R *const oa[10] = {op->x, op->y, op->z, op->px, op->py, op->pz, op->vx, op->vy, op->vz, op->w};
    R *const na[10] = {np->x, np->y, np->z, np->px, np->py, np->pz, np->vx, np->vy, np->vz, np->w};
    for (size_t i = n; i-- > 0;) {
        const size_t j = map[i];
        for (int k = 0; k < 10; ++k)
            na[k][j] = oa[k][i];
        memmove(to->rest_xyz + 3 * j, from->rest_xyz + 3 * i, 3 * sizeof(R));
        if (from->radius) {
            to->radius[j] = from->radius[i];
            to->plane_impulse[j] = from->plane_impulse[i];
        }
        if (from->tether_anchor) {
            const uint32_t a = from->tether_anchor[i];
            to->tether_anchor[j] = a == i ? (uint32_t)j : map[a]; /* itself: none */
            to->tether_length[j] = from->tether_length[i];
        }
        to->origin[j] = from->origin[i];
    }
    for (size_t j = 0; j < copies; ++j) /* the split vertices' mass, shared (src ascends) */
        if (j == 0 || src[j] != src[j - 1])
            np->w[map[src[j]]] = np->w[map[src[j]]] * (R)(pieces[src[j]] + 1);
    for (size_t j = 0; j < copies; ++j) {
        const size_t i = map[src[j]], c = map[n + j];
        for (int k = 0; k < 10; ++k)
            na[k][c] = na[k][i];
        memcpy(to->rest_xyz + 3 * c, to->rest_xyz + 3 * i, 3 * sizeof(R));
        if (from->radius) {
            to->radius[c] = to->radius[i];
            to->plane_impulse[c] = 0;
        }
        if (from->tether_anchor) {
            to->tether_anchor[c] = to->tether_anchor[i] == i ? (uint32_t)c : to->tether_anchor[i];
            to->tether_length[c] = to->tether_length[i];
        }
        to->origin[c] = to->origin[i];
    }
    np->count = n + copies;
}

/* Removes the torn edges, and the tets and bending stencils that contain
 * one of them, splits the vertices the tear cut into separate fans
 * (engine_split_plan) and rebuilds the sets: all or nothing. *split gets
 * the number of particles added. */
static xpbd_status SFX(engine_tear)(E *e, uint32_t *split, uint32_t *woke, uint32_t *dropped)
{
    *split = 0;
    *woke = 0;
    *dropped = 0;
    uint32_t want_dropped = 0; /* reported only if the tear is committed */
    size_t torn = 0;
    for (size_t k = 0; k < e->edge_count; ++k)
        torn += e->torn[k] != 0;
    if (!torn)
        return XPBD_OK;
    const size_t n = e->particles.count, ne = e->edge_count, nt = e->tet_count,
                 nb = e->bend_count;
    uint8_t *drop_t = calloc(nt + 1, 1), *drop_b = calloc(nb + 1, 1);
    /* the rewired topology, in the frame's order (vertex ids past n: new),
     * and the vertices the new particles copy */
    const size_t most = 2 * ne + 4 * nt;
    uint32_t *ev = malloc((2 * ne + 4 * nt + 4 * nb + most + 1) * sizeof *ev);
    uint32_t *tv = ev ? ev + 2 * ne : NULL, *bv = tv ? tv + 4 * nt : NULL;
    uint32_t *src = bv ? bv + 4 * nb : NULL, *map = NULL, *pieces = NULL;
    size_t *per_body = NULL;
    R *rest_tmp = NULL;
    size_t copies = 0;
    /* the new engine state, built beside the old: particles and body
     * ranges are the old ones unless vertices split (grown) */
    E t;
    memcpy(&t, e, sizeof t);
    t.edge = t.tet = t.bend = NULL;
    t.edge_rest = t.edge_compliance = t.tet_compliance = t.bend_compliance = NULL;
    DS d;
    QS tq, bq;
    int built = 0, grown = 0;
    xpbd_status st = XPBD_ERR_NOMEM;
    if (!drop_t || !drop_b || !ev)
        goto done;
    const unsigned flags = e->options.keep_hinges ? XPBD_TEAR_KEEP_HINGES : 0u;
    st = xpbd_tear_split(n, e->edge, ne, e->torn, e->tet, nt, e->bend, nb, flags, drop_t, drop_b,
                         ev, tv, bv, src, most, &copies);
    if ((st == XPBD_OK && e->options.max_particles && n + copies > e->capacity) ||
        st == XPBD_ERR_CAPACITY) {
        /* past the level's capacity (or the index range): this frame tears
         * without splitting */
        want_dropped = st == XPBD_OK ? (uint32_t)copies : 1u;
        st = xpbd_tear_split(n, e->edge, ne, e->torn, e->tet, nt, e->bend, nb,
                             XPBD_TEAR_KEEP_HINGES, drop_t, drop_b, ev, tv, bv, src, most,
                             &copies);
    }
    if (st != XPBD_OK)
        goto done;
    st = XPBD_ERR_NOMEM;
    const uint32_t nbodies = e->sleep.body_count;
    if (copies) {
        /* the new places; with a capacity the particles move in place at the
         * commit (the sets are built on a rest shape in the new order),
         * otherwise into a new block now */
        const int in_place = e->options.max_particles != 0;
        map = malloc((n + copies) * sizeof *map);
        pieces = malloc((n + 1) * sizeof *pieces);
        per_body = malloc(((size_t)nbodies + 1) * sizeof *per_body);
        t.body_begin = nbodies ? malloc(((size_t)nbodies + 1) * sizeof *t.body_begin) : NULL;
        if (!map || !pieces || !per_body || (nbodies && !t.body_begin)) {
            free(t.body_begin);
            goto done;
        }
        SFX(engine_layout)(e, src, copies, map, t.body_begin, pieces, per_body);
        if (in_place) {
            rest_tmp = malloc((3 * (n + copies) + 1) * sizeof *rest_tmp);
            if (!rest_tmp) {
                free(t.body_begin);
                goto done;
            }
            for (size_t k = 0; k < n + copies; ++k)
                memcpy(rest_tmp + 3 * (size_t)map[k], e->rest_xyz + 3 * (k < n ? k : src[k - n]),
                       3 * sizeof(R));
            t.rest_xyz = rest_tmp;
            t.particles.count = n + copies;
        } else {
            t.owned_ = SFX(engine_block)(&t, n + copies, n + copies, e->radius != NULL,
                                         e->tether_anchor != NULL);
            t.origin = malloc((n + copies + 1) * sizeof *t.origin);
            t.tether_anchor =
                e->tether_anchor ? malloc((n + copies + 1) * sizeof *t.tether_anchor) : NULL;
            if (!t.owned_ || !t.origin || (e->tether_anchor && !t.tether_anchor)) {
                free(t.owned_); /* not grown: done frees none of these */
                free(t.origin);
                free(t.tether_anchor);
                free(t.body_begin);
                goto done;
            }
            SFX(engine_move)(e, &t, n, src, copies, map, pieces);
        }
        grown = 1;
        for (size_t k = 0; k < 2 * ne + 4 * nt + 4 * nb; ++k)
            ev[k] = map[ev[k]];
    }
    /* the survivors, in order */
    size_t keep_t = 0, keep_b = 0;
    for (size_t k = 0; k < nt; ++k)
        keep_t += !drop_t[k];
    for (size_t k = 0; k < nb; ++k)
        keep_b += !drop_b[k];
    t.edge_count = ne - torn;
    t.tet_count = keep_t;
    t.bend_count = keep_b;
    t.edge = malloc((2 * t.edge_count + 4 * keep_t + 4 * keep_b + 3) * sizeof *t.edge);
    t.edge_rest = malloc((2 * t.edge_count + keep_t + keep_b + 1) * sizeof(R));
    if (!t.edge || !t.edge_rest)
        goto done;
    t.tet = t.edge + 2 * t.edge_count + 1;
    t.bend = t.tet + 4 * keep_t + 1;
    t.edge_compliance = t.edge_rest + t.edge_count;
    t.tet_compliance = t.edge_compliance + t.edge_count;
    t.bend_compliance = t.tet_compliance + keep_t;
    for (size_t k = 0, j = 0; k < ne; ++k)
        if (!e->torn[k]) {
            t.edge[2 * j] = ev[2 * k];
            t.edge[2 * j + 1] = ev[2 * k + 1];
            t.edge_rest[j] = e->edge_rest[k];
            t.edge_compliance[j] = e->edge_compliance[k];
            ++j;
        }
    for (size_t k = 0, j = 0; k < nt; ++k)
        if (!drop_t[k]) {
            memcpy(t.tet + 4 * j, tv + 4 * k, 4 * sizeof *t.tet);
            t.tet_compliance[j++] = e->tet_compliance[k];
        }
    for (size_t k = 0, j = 0; k < nb; ++k)
        if (!drop_b[k]) {
            memcpy(t.bend + 4 * j, bv + 4 * k, 4 * sizeof *t.bend);
            t.bend_compliance[j++] = e->bend_compliance[k];
        }
    if ((st = SFX(engine_build)(&t, &d, &tq, &bq, NULL)) != XPBD_OK)
        goto done;
    built = 1;
    t.distance = d;
    t.tets = tq;
    t.bends = bq;
    if ((st = SFX(engine_scratch)(&t)) != XPBD_OK)
        goto done;
    /* commit: nothing below can fail */
    SFXM(xpbd_distance_set, free)(&e->distance);
    SFXM(xpbd_quad_set, free)(&e->tets);
    SFXM(xpbd_quad_set, free)(&e->bends);
    free(e->edge);
    free(e->edge_rest);
    if (grown) {
        /* a sleeping body that grew wakes (its state changed) */
        for (uint32_t b = 0; b < e->sleep.body_count; ++b)
            if (e->sleep.asleep[b] && t.body_begin[b + 1] - t.body_begin[b] !=
                                          e->body_begin[b + 1] - e->body_begin[b]) {
                xpbd_sleep_wake(&e->sleep, b);
                ++*woke;
            }
        if (e->options.max_particles) { /* in place, within the capacity */
            SFX(engine_move)(e, e, n, src, copies, map, pieces);
            free(e->body_begin);
            e->body_begin = t.body_begin;
        } else {
            free(e->owned_);
            free(e->origin);
            free(e->tether_anchor);
            free(e->body_begin);
            e->owned_ = t.owned_;
            e->particles = t.particles;
            e->rest_xyz = t.rest_xyz;
            e->radius = t.radius;
            e->plane_impulse = t.plane_impulse;
            e->tether_anchor = t.tether_anchor;
            e->tether_length = t.tether_length;
            e->origin = t.origin;
            e->body_begin = t.body_begin;
            e->capacity = t.capacity;
        }
    }
    e->scratch = t.scratch;
    e->scratch_bytes = t.scratch_bytes;
    e->distance = d;
    e->tets = tq;
    e->bends = bq;
    e->edge_count = t.edge_count;
    e->tet_count = t.tet_count;
    e->bend_count = t.bend_count;
    e->edge = t.edge;
    e->edge_rest = t.edge_rest;
    e->tet = t.tet;
    e->bend = t.bend;
    e->edge_compliance = t.edge_compliance;
    e->tet_compliance = t.tet_compliance;
    e->bend_compliance = t.bend_compliance;
    memset(e->torn, 0, e->edge_count + 1);
    *split = (uint32_t)copies;
    *dropped = want_dropped;
    t.edge = NULL;
    t.edge_rest = NULL;
    built = grown = 0;
done:
    if (built) {
        SFXM(xpbd_distance_set, free)(&d);
        SFXM(xpbd_quad_set, free)(&tq);
        SFXM(xpbd_quad_set, free)(&bq);
    }
    free(t.edge);
    free(t.edge_rest);
    if (grown) {
        free(t.body_begin);
        if (!e->options.max_particles) {
            free(t.owned_);
            free(t.origin);
            free(t.tether_anchor);
        }
    }
    free(drop_t);
    free(drop_b);
    free(ev);
    free(map);
    free(pieces);
    free(per_body);
    free(rest_tmp);
    return st;
}

/* Rebuilds the sets for the current sleep flags (all or nothing). */
static xpbd_status SFX(engine_activate)(E *e)
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
    xpbd_status st = SFX(engine_build)(&t, &d, &tq, &bq, NULL);
    if (st == XPBD_OK) { /* the scratch must fit the new sets */
        t.distance = d;
        t.tets = tq;
        t.bends = bq;
        st = SFX(engine_scratch)(&t);
        if (st != XPBD_OK) {
            SFXM(xpbd_distance_set, free)(&d);
            SFXM(xpbd_quad_set, free)(&tq);
            SFXM(xpbd_quad_set, free)(&bq);
        }
    }
    if (st != XPBD_OK) {
        free(flags);
        return st;
    }
    SFXM(xpbd_distance_set, free)(&e->distance);
    SFXM(xpbd_quad_set, free)(&e->tets);
    SFXM(xpbd_quad_set, free)(&e->bends);
    e->distance = d;
    e->tets = tq;
    e->bends = bq;
    e->scratch = t.scratch;
    e->scratch_bytes = t.scratch_bytes;
    free(e->active_);
    e->active_ = flags;
    return XPBD_OK;
}

xpbd_status SFXM(xpbd_engine, step)(E *e, double h)
{
    if (!e || !e->particles.w)
        return XPBD_ERR_ARGUMENT;
    SFX(engine_point)(e);
    const int sleeping = e->options.sleep_energy > 0 && e->sleep.body_count > 0;
    uint32_t woke = 0, fell = 0, woke2 = 0;
    if (sleeping)
        woke = SFX(xpbd_sleep_prepare)(&e->sleep, &e->world);
    /* the sets follow the sleep flags: rebuilt (between frames) when a body
     * fell asleep or woke since they were built */
    if (e->sleep.body_count &&
        memcmp(e->active_, e->sleep.asleep, e->sleep.body_count) != 0) {
        const xpbd_status as = SFX(engine_activate)(e);
        SFX(engine_point)(e);
        if (as != XPBD_OK)
            return as;
    }
    xpbd_step_counters k;
    const xpbd_status st =
        SFX(xpbd_world_step)(&e->config, h, &e->world, e->scratch, e->scratch_bytes, &k);
    if (st < 0) {
        SFX(xpbd_counters_snapshot)(&e->world, &k, &e->counters);
        e->counters.frame = e->frame;
        e->counters.woke = woke;
        return st;
    }
    if (sleeping)
        (void)SFX(xpbd_sleep_update)(&e->sleep, &e->world, &fell, &woke2);
    e->frame++;
    uint32_t torn = 0;
    double stretch = 0;
    const int tearing = e->options.tear_stretch > 0 && e->world.constraints;
    if (tearing) { /* one stretch pass: the flags and the counters' max stretch */
        memset(e->torn, 0, e->edge_count); /* edges of sleeping bodies are not in the set */
        torn = SFX(xpbd_tear_flag)(&e->particles, &e->distance, e->options.tear_stretch, e->torn,
                                   &stretch);
    }
    SFX(counters_fill)(&e->world, &k, tearing ? &stretch : NULL, &e->counters);
    e->counters.frame = e->frame;
    e->counters.fell_asleep = fell;
    e->counters.woke = woke + woke2;
    e->counters.torn = torn;
    if (torn) {
        uint32_t split = 0, woke3 = 0, dropped = 0;
        const xpbd_status ts = SFX(engine_tear)(e, &split, &woke3, &dropped);
        e->counters.split_dropped = dropped;
        if (woke3) { /* a body that grew woke: the snapshot's count is recounted */
            e->counters.sleeping = 0;
            for (uint32_t b = 0; b < e->sleep.body_count; ++b)
                e->counters.sleeping += e->sleep.asleep[b] != 0;
        }
        if (split && e->max_contacts) /* its pairs name the old particle indices */
            (void)xpbd_contact_set_init(&e->contacts, e->contact_i0_, e->contact_i1_,
                                        e->contacts.capacity, e->max_contacts);
        SFX(engine_point)(e);
        e->counters.distance = e->distance.count;
        e->counters.split = split;
        e->counters.woke += woke3;
        if (ts != XPBD_OK)
            return ts;
    }
    return st;
}

xpbd_status SFXM(xpbd_engine, couple_rigid)(E *e, const xpbd_rigid_f64 *body, double h,
                                            xpbd_rigid_impulse *out)
{
    if (!e || !body || !out || !e->radius || !e->scratch)
        return XPBD_ERR_ARGUMENT;
    P *p = &e->particles;
    const size_t n = p->count;
    /* the step's scratch holds at least 13n reals: room for q (4n) */
    R *q = e->scratch;
    for (size_t i = 0; i < n; ++i) {
        q[4 * i] = p->x[i];
        q[4 * i + 1] = p->y[i];
        q[4 * i + 2] = p->z[i];
        q[4 * i + 3] = p->w[i];
    }
    const xpbd_status st = SFX(xpbd_couple_rigid)(q, p, e->radius, 0, n, body, h, out);
    if (st != XPBD_OK || out->contacts == 0)
        return st;
    const R ih = (R)(1.0 / h);
    for (size_t i = 0; i < n; ++i) {
        const R dx = q[4 * i] - p->x[i], dy = q[4 * i + 1] - p->y[i], dz = q[4 * i + 2] - p->z[i];
        if (dx == 0 && dy == 0 && dz == 0)
            continue;
        p->x[i] = q[4 * i];
        p->y[i] = q[4 * i + 1];
        p->z[i] = q[4 * i + 2];
        p->vx[i] = p->vx[i] + dx * ih;
        p->vy[i] = p->vy[i] + dy * ih;
        p->vz[i] = p->vz[i] + dz * ih;
    }
    return XPBD_OK;
}

xpbd_status SFXM(xpbd_engine, apply)(E *e, const xpbd_input *in)
{
    if (!e || !in)
        return XPBD_ERR_ARGUMENT;
    P *p = &e->particles;
    if (in->kind == XPBD_INPUT_WAKE) {
        if (in->begin >= e->sleep.body_count)
            return XPBD_ERR_ARGUMENT;
        xpbd_sleep_wake(&e->sleep, in->begin);
        return XPBD_OK;
    }
    if (in->begin > in->end || in->end > p->count)
        return XPBD_ERR_ARGUMENT;
    const double *v = in->value;
    const int finite = isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
    const R a = (R)v[0], b = (R)v[1], c = (R)v[2];
    switch (in->kind) {
    case XPBD_INPUT_ADD_VELOCITY:
    case XPBD_INPUT_SET_VELOCITY:
        if (!finite)
            return XPBD_ERR_VELOCITY;
        for (size_t i = in->begin; i < in->end; ++i) {
            const int add = in->kind == XPBD_INPUT_ADD_VELOCITY;
            p->vx[i] = add ? p->vx[i] + a : a;
            p->vy[i] = add ? p->vy[i] + b : b;
            p->vz[i] = add ? p->vz[i] + c : c;
        }
        return XPBD_OK;
    case XPBD_INPUT_TRANSLATE:
        if (!finite)
            return XPBD_ERR_POSITION;
        for (size_t i = in->begin; i < in->end; ++i) {
            p->x[i] = p->x[i] + a;
            p->y[i] = p->y[i] + b;
            p->z[i] = p->z[i] + c;
        }
        return XPBD_OK;
    case XPBD_INPUT_SET_INV_MASS:
        if (!isfinite(v[0]) || v[0] < 0)
            return XPBD_ERR_INVERSE_MASS;
        for (size_t i = in->begin; i < in->end; ++i)
            p->w[i] = a;
        return XPBD_OK;
    default:
        return XPBD_ERR_ARGUMENT;
    }
}

/* -------------------------------------------------------- order check --- */

/* out[k] = idx[perm[k]] (4 indices each), with their compliance if given;
 * returns out_comp, or NULL without compliance. */
static const R *SFX(engine_permute_quads)(const uint32_t *perm, size_t count,
                                          const uint32_t *idx, const R *comp, uint32_t *out,
                                          R *out_comp)
{
    for (size_t k = 0; k < count; ++k) {
        memcpy(out + 4 * k, idx + 4 * (size_t)perm[k], 4 * sizeof *out);
        if (comp)
            out_comp[k] = comp[perm[k]];
    }
    return comp ? out_comp : NULL;
}

xpbd_status SFX(xpbd_order_check)(const SC *scene, const xpbd_step_config *cfg, double h,
                                  uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    if (!scene || !out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    SC a = *scene, b = *scene;
    a.colouring.serial = 1;
    b.colouring.serial = 1;
    const size_t ne = scene->edges, nt = scene->tets, nb = scene->bends;
    const size_t most = ne > nt ? (ne > nb ? ne : nb) : (nt > nb ? nt : nb);
    uint32_t *perm = malloc((most + 1) * sizeof *perm);
    uint32_t *edge = malloc((2 * ne + 1) * sizeof *edge);
    uint32_t *tet = malloc((4 * nt + 1) * sizeof *tet);
    uint32_t *bend = malloc((4 * nb + 1) * sizeof *bend);
    R *vals = malloc((2 * ne + nt + nb + 1) * sizeof *vals);
    xpbd_status st = XPBD_ERR_NOMEM;
    E ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    if (!perm || !edge || !tet || !bend || !vals)
        goto done;
    if ((ne && !scene->edge) || (nt && !scene->tet) || (nb && !scene->bend)) {
        st = XPBD_ERR_ARGUMENT;
        goto done;
    }
    /* B: each list permuted, its per-element arrays with it */
    engine_permutation(perm, ne, seed);
    R *erest = vals, *ecomp = vals + ne, *tcomp = vals + 2 * ne, *bcomp = tcomp + nt;
    for (size_t k = 0; k < ne; ++k) {
        edge[2 * k] = scene->edge[2 * (size_t)perm[k]];
        edge[2 * k + 1] = scene->edge[2 * (size_t)perm[k] + 1];
        if (scene->edge_rest)
            erest[k] = scene->edge_rest[perm[k]];
        if (scene->edge_compliance)
            ecomp[k] = scene->edge_compliance[perm[k]];
    }
    b.edge = edge;
    b.edge_rest = scene->edge_rest ? erest : NULL;
    b.edge_compliance = scene->edge_compliance ? ecomp : NULL;
    engine_permutation(perm, nt, seed ? seed + 1 : 0);
    b.tet = tet;
    b.tet_compliance = SFX(engine_permute_quads)(perm, nt, scene->tet, scene->tet_compliance, tet,
                                                 tcomp);
    engine_permutation(perm, nb, seed ? seed + 2 : 0);
    b.bend = bend;
    b.bend_compliance = SFX(engine_permute_quads)(perm, nb, scene->bend, scene->bend_compliance,
                                                  bend, bcomp);

    if ((st = SFXM(xpbd_engine, create)(&ea, &a, cfg, NULL, NULL)) != XPBD_OK ||
        (st = SFXM(xpbd_engine, create)(&eb, &b, cfg, NULL, NULL)) != XPBD_OK)
        goto done;
    for (uint32_t f = 0; f < frames; ++f) {
        st = SFXM(xpbd_engine, step)(&ea, h);
        if (st < 0)
            goto done;
        st = SFXM(xpbd_engine, step)(&eb, h);
        if (st < 0)
            goto done;
    }
    st = XPBD_OK;
    {
        const P *pa = &ea.particles, *pb = &eb.particles;
        double sum = 0, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (size_t i = 0; i < pa->count; ++i) {
            const double d[3] = {(double)pa->x[i] - (double)pb->x[i],
                                 (double)pa->y[i] - (double)pb->y[i],
                                 (double)pa->z[i] - (double)pb->z[i]};
            const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            sum += d2;
            if (sqrt(d2) > out->max_diff)
                out->max_diff = sqrt(d2);
            const double x[3] = {pa->x[i], pa->y[i], pa->z[i]};
            for (int k = 0; k < 3; ++k) {
                if (i == 0 || x[k] < lo[k])
                    lo[k] = x[k];
                if (i == 0 || x[k] > hi[k])
                    hi[k] = x[k];
            }
        }
        out->rms_diff = pa->count ? sqrt(sum / (double)pa->count) : 0;
        for (int k = 0; k < 3; ++k)
            if (hi[k] - lo[k] > out->extent)
                out->extent = hi[k] - lo[k];
        out->relative = out->extent > 0 ? out->max_diff / out->extent : 0;
        out->frames = frames;
    }
done:
    SFXM(xpbd_engine, destroy)(&ea);
    SFXM(xpbd_engine, destroy)(&eb);
    free(perm);
    free(edge);
    free(tet);
    free(bend);
    free(vals);
    return st;
}

#undef W
#undef E
#undef SC
#include "real_end.h"
