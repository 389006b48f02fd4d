/* SPDX-License-Identifier: MIT */
/* Contact sets: colouring without allocation, and the uniform-grid broad
 * phase (xpbd/contacts.h). */
#ifndef XPBD_SELF
#define XPBD_SELF "contacts.c"
#include "internal.h"

#include <string.h>

size_t xpbd_contact_slots(size_t max_contacts)
{
    /* every colour may end in a partial batch */
    return max_contacts + (size_t)XPBD_MAX_COLOURS * (XPBD_BATCH - 1);
}

xpbd_status xpbd_contact_set_init(xpbd_contact_set *cs, uint32_t *i0, uint32_t *i1, size_t slots,
                                  size_t max_contacts)
{
    if (!cs || !i0 || !i1 || max_contacts > (size_t)INT32_MAX / 2 ||
        slots < xpbd_contact_slots(max_contacts) || slots > UINT32_MAX)
        return XPBD_ERR_ARGUMENT;
    memset(cs, 0, sizeof *cs);
    cs->capacity = (uint32_t)slots;
    cs->max_contacts = (uint32_t)max_contacts;
    cs->i0 = i0;
    cs->i1 = i1;
    return XPBD_OK;
}

/* Table size for the spatial hash: a power of two >= 2n. */
static size_t hash_table_size(size_t n)
{
    size_t t = 16;
    while (t < 2 * n)
        t *= 2;
    return t;
}

/* Workspace layout, as byte offsets from the start of the work buffer:
 *   used [n] u64 | start [T + 1] u32 | sorted [n] u32 | key [n] u32 |
 *   pi0 [max_contacts] u32 | pi1 [max_contacts] u32 | colour_of [max_contacts] u8
 * Offsets are computed without a base pointer, so sizing never does pointer
 * arithmetic (on NULL, that would be undefined behaviour). */
typedef struct work_offsets {
    size_t used, start, sorted, key, pi0, pi1, colour_of, bytes, table;
} work_offsets;

static work_offsets offsets(size_t n, size_t max_contacts)
{
    work_offsets o;
    o.table = hash_table_size(n);
    o.used = 0;
    o.start = o.used + n * sizeof(uint64_t);
    o.sorted = o.start + (o.table + 1) * sizeof(uint32_t);
    o.key = o.sorted + n * sizeof(uint32_t);
    o.pi0 = o.key + n * sizeof(uint32_t);
    o.pi1 = o.pi0 + max_contacts * sizeof(uint32_t);
    o.colour_of = o.pi1 + max_contacts * sizeof(uint32_t);
    o.bytes = o.colour_of + max_contacts;
    return o;
}

typedef struct work_layout {
    uint64_t *used;     /* [n] colour bits per particle */
    uint32_t *start;    /* [T + 1] bucket starts */
    uint32_t *sorted;   /* [n] particles by bucket */
    uint32_t *key;      /* [n] bucket of each particle */
    uint32_t *pi0;      /* [max_contacts] pairs before colouring */
    uint32_t *pi1;
    uint8_t *colour_of; /* [max_contacts] */
    size_t table;
} work_layout;

static work_layout layout(void *work, size_t n, size_t max_contacts)
{
    const work_offsets o = offsets(n, max_contacts);
    char *b = work;
    work_layout w;
    w.table = o.table;
    w.used = (uint64_t *)(void *)(b + o.used);
    w.start = (uint32_t *)(void *)(b + o.start);
    w.sorted = (uint32_t *)(void *)(b + o.sorted);
    w.key = (uint32_t *)(void *)(b + o.key);
    w.pi0 = (uint32_t *)(void *)(b + o.pi0);
    w.pi1 = (uint32_t *)(void *)(b + o.pi1);
    w.colour_of = (uint8_t *)(b + o.colour_of);
    return w;
}

size_t xpbd_contacts_work_bytes(size_t n, size_t max_contacts)
{
    if (n > (size_t)INT32_MAX || max_contacts > (size_t)INT32_MAX)
        return SIZE_MAX;
    return offsets(n, max_contacts).bytes + 8;
}

/* Colours the pairs pi0/pi1 into cs (colour.c), padding every colour to
 * whole batches with a no-op pair (one particle twice). */
static void colour_pairs(xpbd_contact_set *cs, size_t n, uint32_t count, const uint32_t *pi0,
                         const uint32_t *pi1, uint32_t max_colours, uint64_t *used,
                         uint8_t *colour_of)
{
    xpbd__layout lay;
    const uint32_t *const idx[4] = {pi0, pi1, pi0, pi1};
    xpbd__colour(n, count, 2, idx, 1, max_colours, used, colour_of, &lay);
    for (uint32_t k = 0; k < lay.colours; ++k) {
        cs->colour_begin[k] = lay.begin[k];
        cs->colour_size[k] = lay.size[k];
    }
    cs->colour_begin[lay.colours] = lay.overflow_begin;
    cs->overflow_begin = lay.overflow_begin;
    cs->colours = lay.colours;
    cs->slots = lay.slots;
    cs->count = count;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t s = lay.fill[colour_of[k]]++;
        cs->i0[s] = pi0[k];
        cs->i1[s] = pi1[k];
    }
    for (uint32_t k = 0; k < lay.colours; ++k)
        for (uint32_t s = lay.begin[k] + lay.size[k]; s < lay.begin[k + 1]; ++s)
            cs->i0[s] = cs->i1[s] = cs->i0[lay.begin[k]];
}

static void empty(xpbd_contact_set *cs)
{
    cs->count = cs->dropped = cs->slots = cs->colours = cs->overflow_begin = 0;
    cs->colour_begin[0] = 0;
}

static int set_usable(const xpbd_contact_set *cs)
{
    return cs && cs->i0 && cs->i1 && cs->capacity >= xpbd_contact_slots(cs->max_contacts);
}

xpbd_status xpbd_contact_set_assign(xpbd_contact_set *cs, size_t n, size_t count,
                                    const uint32_t *i0, const uint32_t *i1, uint32_t max_colours,
                                    int serial, void *work, size_t work_bytes, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!set_usable(cs) || (count && (!i0 || !i1)) || !work || (uintptr_t)work % 8 ||
        n > (size_t)INT32_MAX)
        return XPBD_ERR_ARGUMENT;
    empty(cs);
    if (max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    if (max_colours == 0)
        max_colours = 32;
    if (serial)
        max_colours = 0;
    const size_t kept = count < cs->max_contacts ? count : cs->max_contacts;
    if (work_bytes < xpbd_contacts_work_bytes(n, cs->max_contacts))
        return XPBD_ERR_ARGUMENT;
    for (size_t k = 0; k < count; ++k)
        if (i0[k] >= n || i1[k] >= n || i0[k] == i1[k]) {
            if (bad_index)
                *bad_index = k;
            return XPBD_ERR_INDEX;
        }
    work_layout w = layout(work, n, cs->max_contacts);
    colour_pairs(cs, n, (uint32_t)kept, i0, i1, max_colours, w.used, w.colour_of);
    cs->dropped = (uint32_t)(count - kept);
    return cs->dropped ? XPBD_OVERFLOW : XPBD_OK;
}

xpbd_status xpbd_contact_set_validate(const xpbd_contact_set *cs, size_t n, uint32_t *stamp,
                                      size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!cs || !cs->i0 || !cs->i1 || cs->slots > cs->capacity || n > (size_t)INT32_MAX ||
        cs->colours > XPBD_MAX_COLOURS || (cs->colours && !stamp) ||
        !xpbd__layout_ok(cs->count, cs->slots, cs->colours, cs->colour_begin, cs->colour_size,
                         cs->overflow_begin))
        return XPBD_ERR_ARGUMENT;
    /* every slot: indices in range; a real pair of two particles, a padding
     * pair of one particle twice (a no-op) */
    for (uint32_t k = 0, s = 0; s < cs->slots; ++s) {
        while (k < cs->colours && s >= cs->colour_begin[k + 1])
            ++k;
        const int pad = k < cs->colours && s >= cs->colour_begin[k] + cs->colour_size[k];
        if (cs->i0[s] >= n || cs->i1[s] >= n || (cs->i0[s] == cs->i1[s]) != pad) {
            if (bad_index)
                *bad_index = s;
            return XPBD_ERR_INDEX;
        }
    }
    /* no particle twice in a colour */
    const uint32_t *const idx[4] = {cs->i0, cs->i1, NULL, NULL};
    const uint32_t r = xpbd__colour_repeat(cs->colours, cs->colour_begin, cs->colour_size, idx, 2,
                                           NULL, n, stamp);
    if (r != UINT32_MAX) {
        if (bad_index)
            *bad_index = r;
        return XPBD_ERR_INDEX;
    }
    return XPBD_OK;
}

#  include "each_precision.h"

#else /* one precision, read through each_precision.h */
/* Broad phase, once per precision: a uniform grid hashed into a table, pairs
 * in particle order. The scans and the pair search run over chunks of
 * particles, inline or on the executor's workers; the pairs come out in the
 * same order either way (each chunk's pairs go after the chunks before it),
 * so the contact set does not depend on the worker count. */

/* The names of this file's functions, both precisions (precision.h). */
#define contacts_cell_coord PREC(contacts_cell_coord_f32, contacts_cell_coord_f64)
#define contacts_cell_hash PREC(contacts_cell_hash_f32, contacts_cell_hash_f64)
#define contacts_bp_chunk_particles PREC(contacts_bp_chunk_particles_f32, contacts_bp_chunk_particles_f64)
#define contacts_bp_scan_task PREC(contacts_bp_scan_task_f32, contacts_bp_scan_task_f64)
#define contacts_bp_key_task PREC(contacts_bp_key_task_f32, contacts_bp_key_task_f64)
#define contacts_bp_search PREC(contacts_bp_search_f32, contacts_bp_search_f64)
#define contacts_bp_pairs_task PREC(contacts_bp_pairs_task_f32, contacts_bp_pairs_task_f64)
#define contacts_bp_sort PREC(contacts_bp_sort_f32, contacts_bp_sort_f64)
#define contacts_bp_pairs PREC(contacts_bp_pairs_f32, contacts_bp_pairs_f64)
#define contacts_bp_check PREC(contacts_bp_check_f32, contacts_bp_check_f64)
#define xpbd__contacts_find_run PREC(xpbd__contacts_find_run_f32, xpbd__contacts_find_run_f64)
#define contacts_bp_partial PREC(contacts_bp_partial_f32, contacts_bp_partial_f64)
#define contacts_bp_run PREC(contacts_bp_run_f32, contacts_bp_run_f64)
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
static inline int64_t contacts_cell_coord(R x, double inv_cell)
{
    double c = floor((double)x * inv_cell);
    if (c > 1e15)
        c = 1e15;
    if (c < -1e15)
        c = -1e15;
    return (int64_t)c;
}

static inline uint32_t contacts_cell_hash(int64_t cx, int64_t cy, int64_t cz, size_t table)
{
    const uint64_t h = ((uint64_t)cx * 73856093u) ^ ((uint64_t)cy * 19349663u) ^
                       ((uint64_t)cz * 83492791u);
    return (uint32_t)((h ^ (h >> 29)) & (uint64_t)(table - 1));
}

/* One worker's scan result: the lowest bad particle and the largest radius. */
typedef struct contacts_bp_partial {
    _Alignas(64) size_t bad;
    xpbd_status status;
    R rmax;
} contacts_bp_partial;

typedef struct contacts_bp_run {
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
    contacts_bp_partial part[XPBD__MAX_WORKERS];
} contacts_bp_run;

/* Particles [*i0, *i1) of chunks [b, e). */
static void contacts_bp_chunk_particles(const contacts_bp_run *r, uint32_t b, uint32_t e, size_t *i0,
                                    size_t *i1)
{
    *i0 = (size_t)b * r->chunk;
    *i1 = (size_t)e * r->chunk < r->n ? (size_t)e * r->chunk : r->n;
}

/* Positions finite, radii finite and >= 0, largest radius (chunks [b, e)). */
static void contacts_bp_scan_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    contacts_bp_run *r = ctx;
    contacts_bp_partial *pt = &r->part[worker];
    const P *p = r->p;
    size_t i0, i1;
    contacts_bp_chunk_particles(r, b, e, &i0, &i1);
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
static void contacts_bp_key_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    contacts_bp_run *r = ctx;
    const P *p = r->p;
    size_t i0, i1;
    contacts_bp_chunk_particles(r, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i)
        r->w.key[i] = contacts_cell_hash(contacts_cell_coord(p->x[i], r->inv_cell),
                                     contacts_cell_coord(p->y[i], r->inv_cell),
                                     contacts_cell_coord(p->z[i], r->inv_cell), r->w.table);
}

/* The pairs (i, j > i) of particles [i0, i1) in particle order: counted,
 * and written from pair index `at` on while below max_contacts. */
static uint32_t contacts_bp_search(const contacts_bp_run *r, size_t i0, size_t i1, uint32_t at,
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
        const int64_t cx = contacts_cell_coord(p->x[i], r->inv_cell);
        const int64_t cy = contacts_cell_coord(p->y[i], r->inv_cell);
        const int64_t cz = contacts_cell_coord(p->z[i], r->inv_cell);
        /* the 27 neighbour cells' buckets, each visited once even when two
         * cells hash alike */
        uint32_t buckets[27];
        int nb = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const uint32_t b = contacts_cell_hash(cx + dx, cy + dy, cz + dz, w->table);
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
static void contacts_bp_pairs_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    contacts_bp_run *r = ctx;
    for (uint32_t c = b; c < e; ++c) {
        size_t i0, i1;
        contacts_bp_chunk_particles(r, c, c + 1, &i0, &i1);
        if (r->write)
            (void)contacts_bp_search(r, i0, i1, r->count[c], 1);
        else
            r->count[c] = contacts_bp_search(r, i0, i1, 0, 0);
    }
}

/* Counting sort of the particles by bucket, stable (index order):
 * start[k + 1] counts bucket k, the prefix sum turns start[k] into its
 * first slot, and placing advances start[k] to the end of bucket k, so
 * afterwards bucket k is [k ? start[k - 1] : 0, start[k]). */
static void contacts_bp_sort(contacts_bp_run *r)
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
static uint64_t contacts_bp_pairs(contacts_bp_run *r, const xpbd__exec *x)
{
    if (!x->ex || x->workers < 2 || r->chunks < 2 * XPBD__BP_MIN_CHUNKS)
        return contacts_bp_search(r, 0, r->n, 0, 1);
    r->write = 0;
    xpbd__run(x, contacts_bp_pairs_task, r->chunks, XPBD__BP_MIN_CHUNKS, r);
    uint64_t total = 0;
    for (uint32_t c = 0; c < r->chunks; ++c) {
        const uint32_t k = r->count[c];
        r->count[c] = total < r->max_contacts ? (uint32_t)total : r->max_contacts;
        total += k;
    }
    r->write = 1;
    xpbd__run(x, contacts_bp_pairs_task, r->chunks, XPBD__BP_MIN_CHUNKS, r);
    return total;
}

static xpbd_status contacts_bp_check(const P *p, const R *radius, const xpbd_broadphase *bp,
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

xpbd_status xpbd__contacts_find_run(const P *p, const R *radius, const xpbd_broadphase *bp,
                                         void *work, size_t work_bytes, xpbd_contact_set *cs,
                                         size_t *bad_index, const xpbd__exec *x)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    xpbd_status st = contacts_bp_check(p, radius, bp, work, work_bytes, cs);
    if (st != XPBD_OK)
        return st;
    contacts_bp_run r;
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
    xpbd__run(x, contacts_bp_scan_task, r.chunks, XPBD__BP_MIN_CHUNKS, &r);
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
    xpbd__run(x, contacts_bp_key_task, r.chunks, XPBD__BP_MIN_CHUNKS, &r);
    contacts_bp_sort(&r);
    const uint64_t total = contacts_bp_pairs(&r, x);
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
    return xpbd__contacts_find_run(p, radius, bp, work, work_bytes, cs, bad_index, &serial);
}

#endif /* XPBD_SELF */
