/* SPDX-License-Identifier: MIT */
/* Broad phase, template over R: a uniform grid hashed into a table, pairs
 * in particle order. The scans and the pair search run over chunks of
 * particles, inline or on the executor's workers; the pairs come out in the
 * same order either way (each chunk's pairs go after the chunks before it),
 * so the contact set does not depend on the worker count. */
#include "precision.h"
#include "exec.h"

#ifndef XPBD_BROADPHASE_CHUNKS
/* At most this many chunks of at least XPBD__BP_MIN_CHUNK particles. */
#  define XPBD_BROADPHASE_CHUNKS 1024u
#  define XPBD__BP_MIN_CHUNK 256u
#  ifndef XPBD__BP_MIN_CHUNKS
#    define XPBD__BP_MIN_CHUNKS 4u
#  endif
#endif

/* Cell coordinate, clamped so the integer conversion is always defined. */
static inline int64_t SFX(cell_coord)(R x, double inv_cell)
{
    double c = floor((double)x * inv_cell);
    if (c > 1e15)
        c = 1e15;
    if (c < -1e15)
        c = -1e15;
    return (int64_t)c;
}

static inline uint32_t SFX(cell_hash)(int64_t cx, int64_t cy, int64_t cz, size_t table)
{
    const uint64_t h = ((uint64_t)cx * 73856093u) ^ ((uint64_t)cy * 19349663u) ^
                       ((uint64_t)cz * 83492791u);
    return (uint32_t)((h ^ (h >> 29)) & (uint64_t)(table - 1));
}

/* One worker's scan result: the lowest bad particle and the largest radius. */
typedef struct SFX(bp_partial) {
    _Alignas(64) size_t bad;
    xpbd_status status;
    R rmax;
} SFX(bp_partial);

typedef struct SFX(bp_run) {
    const P *p;
    const R *radius;
    const uint8_t *still;
    size_t n;
    uint32_t chunk;  /* particles per chunk */
    uint32_t chunks;
    double inv_cell, skin;
    work_layout w;
    uint32_t max_contacts;
    int write;       /* pair search: 0 counts, 1 writes at count[chunk] */
    uint32_t count[XPBD_BROADPHASE_CHUNKS];
    SFX(bp_partial) part[XPBD__MAX_WORKERS];
} SFX(bp_run);

/* Particles [*i0, *i1) of chunks [b, e). */
static void SFX(bp_chunk_particles)(const SFX(bp_run) *r, uint32_t b, uint32_t e, size_t *i0,
                                    size_t *i1)
{
    *i0 = (size_t)b * r->chunk;
    *i1 = (size_t)e * r->chunk < r->n ? (size_t)e * r->chunk : r->n;
}

/* Positions finite, radii finite and >= 0, largest radius (chunks [b, e)). */
static void SFX(bp_scan_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(bp_run) *r = ctx;
    SFX(bp_partial) *pt = &r->part[worker];
    const P *p = r->p;
    size_t i0, i1;
    SFX(bp_chunk_particles)(r, b, e, &i0, &i1);
    R rmax = pt->rmax;
    for (size_t i = i0; i < i1 && i < pt->bad; ++i) {
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i])) {
            pt->bad = i;
            pt->status = XPBD_ERR_POSITION;
            break;
        }
        if (!isfinite(r->radius[i]) || r->radius[i] < 0) {
            pt->bad = i;
            pt->status = XPBD_ERR_RADIUS;
            break;
        }
        if (r->radius[i] > rmax)
            rmax = r->radius[i];
    }
    pt->rmax = rmax;
}

/* Each particle's bucket (chunks [b, e)). */
static void SFX(bp_key_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(bp_run) *r = ctx;
    const P *p = r->p;
    size_t i0, i1;
    SFX(bp_chunk_particles)(r, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i)
        r->w.key[i] = SFX(cell_hash)(SFX(cell_coord)(p->x[i], r->inv_cell),
                                     SFX(cell_coord)(p->y[i], r->inv_cell),
                                     SFX(cell_coord)(p->z[i], r->inv_cell), r->w.table);
}

/* The pairs (i, j > i) of particles [i0, i1) in particle order: counted,
 * and written from pair index `at` on while below max_contacts. */
static uint32_t SFX(bp_search)(const SFX(bp_run) *r, size_t i0, size_t i1, uint32_t at,
                               int write)
{
    const P *p = r->p;
    const R *radius = r->radius;
    const uint8_t *still = r->still;
    const work_layout *w = &r->w;
    uint32_t found = 0;
    for (size_t i = i0; i < i1; ++i) {
        if (still && still[i])
            continue; /* its pairs with moving particles are found from them */
        const int64_t cx = SFX(cell_coord)(p->x[i], r->inv_cell);
        const int64_t cy = SFX(cell_coord)(p->y[i], r->inv_cell);
        const int64_t cz = SFX(cell_coord)(p->z[i], r->inv_cell);
        /* the 27 neighbour cells' buckets, each visited once even when two
         * cells hash alike */
        uint32_t buckets[27];
        int nb = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const uint32_t b = SFX(cell_hash)(cx + dx, cy + dy, cz + dz, w->table);
                    int seen = 0;
                    for (int k = 0; k < nb; ++k)
                        seen |= buckets[k] == b;
                    if (!seen)
                        buckets[nb++] = b;
                }
        for (int k = 0; k < nb; ++k) {
            const uint32_t b = buckets[k];
            const uint32_t e = w->start[b], s0 = b ? w->start[b - 1] : 0;
            for (uint32_t t = s0; t < e; ++t) {
                const uint32_t j = w->sorted[t];
                if (j == i || (j < i && !(still && still[j])))
                    continue;
                const double ddx = (double)p->x[j] - (double)p->x[i];
                const double ddy = (double)p->y[j] - (double)p->y[i];
                const double ddz = (double)p->z[j] - (double)p->z[i];
                const double rr = (double)radius[i] + (double)radius[j] + r->skin;
                if (ddx * ddx + ddy * ddy + ddz * ddz < rr * rr) {
                    const uint64_t slot = (uint64_t)at + found;
                    if (write && slot < r->max_contacts) {
                        w->pi0[slot] = j < i ? j : (uint32_t)i;
                        w->pi1[slot] = j < i ? (uint32_t)i : j;
                    }
                    found++;
                }
            }
        }
    }
    return found;
}

/* Pair search over chunks [b, e): count[c] = pairs of chunk c, or write
 * them from pair index count[c] (the prefix sum) on. */
static void SFX(bp_pairs_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(bp_run) *r = ctx;
    for (uint32_t c = b; c < e; ++c) {
        size_t i0, i1;
        SFX(bp_chunk_particles)(r, c, c + 1, &i0, &i1);
        if (r->write)
            (void)SFX(bp_search)(r, i0, i1, r->count[c], 1);
        else
            r->count[c] = SFX(bp_search)(r, i0, i1, 0, 0);
    }
}

/* Counting sort of the particles by bucket, stable (index order):
 * start[k + 1] counts bucket k, the prefix sum turns start[k] into its
 * first slot, and placing advances start[k] to the end of bucket k, so
 * afterwards bucket k is [k ? start[k - 1] : 0, start[k]). */
static void SFX(bp_sort)(SFX(bp_run) *r)
{
    const work_layout *w = &r->w;
    memset(w->start, 0, (w->table + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < r->n; ++i)
        w->start[w->key[i] + 1]++;
    for (size_t t = 0; t < w->table; ++t)
        w->start[t + 1] += w->start[t];
    for (size_t i = 0; i < r->n; ++i)
        w->sorted[w->start[w->key[i]]++] = (uint32_t)i;
}

/* All pairs: inline in one pass, or counted per chunk on the workers, then
 * written per chunk after the pairs of the chunks before it. Returns the
 * pairs found (kept or not). */
static uint64_t SFX(bp_pairs)(SFX(bp_run) *r, const xpbd__exec *x)
{
    if (!x->ex || x->workers < 2 || r->chunks < 2 * XPBD__BP_MIN_CHUNKS)
        return SFX(bp_search)(r, 0, r->n, 0, 1);
    r->write = 0;
    xpbd__run(x, SFX(bp_pairs_task), r->chunks, XPBD__BP_MIN_CHUNKS, r);
    uint64_t total = 0;
    for (uint32_t c = 0; c < r->chunks; ++c) {
        const uint32_t k = r->count[c];
        r->count[c] = total < r->max_contacts ? (uint32_t)total : r->max_contacts;
        total += k;
    }
    r->write = 1;
    xpbd__run(x, SFX(bp_pairs_task), r->chunks, XPBD__BP_MIN_CHUNKS, r);
    return total;
}

static xpbd_status SFX(bp_check)(const P *p, const R *radius, const xpbd_broadphase *bp,
                                 void *work, size_t work_bytes, xpbd_contact_set *cs)
{
    if (!p || !bp || !set_usable(cs) || !work || (uintptr_t)work % 8 ||
        p->count > (size_t)INT32_MAX || (p->count && (!radius || !p->x || !p->y || !p->z)))
        return XPBD_ERR_ARGUMENT;
    empty(cs);
    if (work_bytes < xpbd_contacts_work_bytes(p->count, cs->max_contacts))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(bp->skin) || bp->skin < 0 || !isfinite(bp->cell) || bp->cell < 0 ||
        bp->max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    return XPBD_OK;
}

xpbd_status SFX(xpbd__contacts_find_run)(const P *p, const R *radius, const xpbd_broadphase *bp,
                                         void *work, size_t work_bytes, xpbd_contact_set *cs,
                                         size_t *bad_index, const xpbd__exec *x)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    xpbd_status st = SFX(bp_check)(p, radius, bp, work, work_bytes, cs);
    if (st != XPBD_OK)
        return st;
    SFX(bp_run) r;
    r.p = p;
    r.radius = radius;
    r.still = bp->still;
    r.n = p->count;
    r.chunk = (uint32_t)((r.n + XPBD_BROADPHASE_CHUNKS - 1) / XPBD_BROADPHASE_CHUNKS);
    if (r.chunk < XPBD__BP_MIN_CHUNK)
        r.chunk = XPBD__BP_MIN_CHUNK;
    r.chunks = (uint32_t)((r.n + r.chunk - 1) / r.chunk);
    r.max_contacts = cs->max_contacts;
    for (uint32_t t = 0; t < x->workers; ++t) {
        r.part[t].bad = SIZE_MAX;
        r.part[t].status = XPBD_OK;
        r.part[t].rmax = 0;
    }
    xpbd__run(x, SFX(bp_scan_task), r.chunks, XPBD__BP_MIN_CHUNKS, &r);
    R rmax = 0;
    size_t bad = SIZE_MAX;
    for (uint32_t t = 0; t < x->workers; ++t) {
        if (r.part[t].bad < bad) {
            bad = r.part[t].bad;
            st = r.part[t].status;
        }
        if (r.part[t].rmax > rmax)
            rmax = r.part[t].rmax;
    }
    if (bad != SIZE_MAX) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    const double reach = 2.0 * (double)rmax + bp->skin;
    double cell = bp->cell > 0 ? bp->cell : reach;
    if (bp->cell > 0 && bp->cell < reach)
        return XPBD_ERR_CONFIG;
    if (!(cell > 0))
        cell = 1; /* every radius 0 and no skin: only coincident points touch */
    r.inv_cell = 1.0 / cell;
    r.skin = bp->skin;
    r.w = layout(work, r.n, cs->max_contacts);
    xpbd__run(x, SFX(bp_key_task), r.chunks, XPBD__BP_MIN_CHUNKS, &r);
    SFX(bp_sort)(&r);
    const uint64_t total = SFX(bp_pairs)(&r, x);
    const uint32_t found = total < r.max_contacts ? (uint32_t)total : r.max_contacts;
    const uint32_t max_colours = bp->max_colours ? bp->max_colours : 32u;
    colour_pairs(cs, r.n, found, r.w.pi0, r.w.pi1, max_colours, r.w.used, r.w.colour_of);
    cs->dropped = (uint32_t)(total - found);
    return cs->dropped ? XPBD_OVERFLOW : XPBD_OK;
}

/* The public broad phase: the same, inline on the caller. */
#ifdef XPBD_REAL_F32
xpbd_status xpbd_contacts_find_f32(const xpbd_particles_f32 *p, const float *radius,
                                   const xpbd_broadphase *bp, void *work, size_t work_bytes,
                                   xpbd_contact_set *cs, size_t *bad_index)
#else
xpbd_status xpbd_contacts_find_f64(const xpbd_particles_f64 *p, const double *radius,
                                   const xpbd_broadphase *bp, void *work, size_t work_bytes,
                                   xpbd_contact_set *cs, size_t *bad_index)
#endif
{
    const xpbd__exec serial = xpbd__exec_serial();
    return SFX(xpbd__contacts_find_run)(p, radius, bp, work, work_bytes, cs, bad_index, &serial);
}

#define XPBD_PRECISION_END
#include "precision.h"
