/* Broad phase, template over R. */
#include "real_begin.h"

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

xpbd_status SFX(xpbd_contacts_find)(const P *p, const R *radius, const xpbd_broadphase *bp,
                                    void *work, size_t work_bytes, xpbd_contact_set *cs,
                                    size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!p || !bp || !set_usable(cs) || !work || (uintptr_t)work % 8 ||
        p->count > (size_t)INT32_MAX || (p->count && (!radius || !p->x || !p->y || !p->z)))
        return XPBD_ERR_ARGUMENT;
    empty(cs);
    const size_t n = p->count;
    if (work_bytes < xpbd_contacts_work_bytes(n, cs->max_contacts))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(bp->skin) || bp->skin < 0 || !isfinite(bp->cell) || bp->cell < 0 ||
        bp->max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    R rmax = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i])) {
            if (bad_index)
                *bad_index = i;
            return XPBD_ERR_POSITION;
        }
        if (!isfinite(radius[i]) || radius[i] < 0) {
            if (bad_index)
                *bad_index = i;
            return XPBD_ERR_RADIUS;
        }
        if (radius[i] > rmax)
            rmax = radius[i];
    }
    const double reach = 2.0 * (double)rmax + bp->skin;
    double cell = bp->cell > 0 ? bp->cell : reach;
    if (bp->cell > 0 && bp->cell < reach)
        return XPBD_ERR_CONFIG;
    if (!(cell > 0))
        cell = 1; /* every radius 0 and no skin: only coincident points touch */
    const double inv_cell = 1.0 / cell;
    work_layout w = layout(work, n, cs->max_contacts);

    /* counting sort of the particles by bucket, stable (index order):
     * start[k + 1] counts bucket k, the prefix sum turns start[k] into its
     * first slot, and placing advances start[k] to the end of bucket k, so
     * afterwards bucket k is [k ? start[k - 1] : 0, start[k]). */
    memset(w.start, 0, (w.table + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; ++i) {
        w.key[i] = SFX(cell_hash)(SFX(cell_coord)(p->x[i], inv_cell),
                                  SFX(cell_coord)(p->y[i], inv_cell),
                                  SFX(cell_coord)(p->z[i], inv_cell), w.table);
        w.start[w.key[i] + 1]++;
    }
    for (size_t t = 0; t < w.table; ++t)
        w.start[t + 1] += w.start[t];
    for (size_t i = 0; i < n; ++i)
        w.sorted[w.start[w.key[i]]++] = (uint32_t)i;

    const double skin = bp->skin;
    uint32_t found = 0, dropped = 0;
    const uint8_t *still = bp->still;
    for (size_t i = 0; i < n; ++i) {
        if (still && still[i])
            continue; /* its pairs with moving particles are found from them */
        const int64_t cx = SFX(cell_coord)(p->x[i], inv_cell);
        const int64_t cy = SFX(cell_coord)(p->y[i], inv_cell);
        const int64_t cz = SFX(cell_coord)(p->z[i], inv_cell);
        /* the 27 neighbour cells' buckets, each visited once even when two
         * cells hash alike */
        uint32_t buckets[27];
        int nb = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const uint32_t b = SFX(cell_hash)(cx + dx, cy + dy, cz + dz, w.table);
                    int seen = 0;
                    for (int k = 0; k < nb; ++k)
                        seen |= buckets[k] == b;
                    if (!seen)
                        buckets[nb++] = b;
                }
        for (int k = 0; k < nb; ++k) {
            const uint32_t b = buckets[k];
            const uint32_t e = w.start[b], s0 = b ? w.start[b - 1] : 0;
            for (uint32_t t = s0; t < e; ++t) {
                const uint32_t j = w.sorted[t];
                if (j == i || (j < i && !(still && still[j])))
                    continue;
                const double ddx = (double)p->x[j] - (double)p->x[i];
                const double ddy = (double)p->y[j] - (double)p->y[i];
                const double ddz = (double)p->z[j] - (double)p->z[i];
                const double rr = (double)radius[i] + (double)radius[j] + skin;
                if (ddx * ddx + ddy * ddy + ddz * ddz < rr * rr) {
                    if (found < cs->max_contacts) {
                        w.pi0[found] = j < i ? j : (uint32_t)i;
                        w.pi1[found] = j < i ? (uint32_t)i : j;
                        found++;
                    } else {
                        dropped++;
                    }
                }
            }
        }
    }
    const uint32_t max_colours = bp->max_colours ? bp->max_colours : 32u;
    colour_pairs(cs, n, found, w.pi0, w.pi1, max_colours, w.used, w.colour_of);
    cs->dropped = dropped;
    return dropped ? XPBD_OVERFLOW : XPBD_OK;
}

#include "real_end.h"
