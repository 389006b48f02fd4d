/* SPDX-License-Identifier: MIT */
/* Greedy first-fit colouring shared by every constraint set (distance,
 * four-particle, contact): one bit per colour per particle; a constraint
 * takes the lowest colour free at all its particles, or the serial overflow
 * range when none of max_colours is (Box2D v3's graph colouring, with a
 * 64-bit word per particle instead of a bitset per colour). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The lowest colour of free_bits in prefer, else in above, else any. */
static uint32_t pick(uint64_t free_bits, uint64_t prefer, uint64_t above)
{
    const uint64_t f = free_bits & prefer ? free_bits & prefer
                       : free_bits & above ? free_bits & above
                                           : free_bits;
    return (uint32_t)__builtin_ctzll(f);
}

/* Slot offsets of a layout whose colour sizes are counted. */
static void layout_finish(uint32_t max_colours, xpbd__layout *out)
{
    uint32_t slots = 0;
    for (uint32_t c = 0; c < out->colours; ++c) {
        out->begin[c] = slots;
        slots += (out->size[c] + XPBD_BATCH - 1) / XPBD_BATCH * XPBD_BATCH;
    }
    out->begin[out->colours] = slots;
    out->overflow_begin = slots;
    out->overflow = out->size[max_colours];
    out->slots = slots + out->overflow;
    /* fill cursors: colours in order, then the overflow range */
    for (uint32_t c = 0; c < out->colours; ++c)
        out->fill[c] = out->begin[c];
    out->fill[max_colours] = out->overflow_begin;
}

static uint64_t allowed_colours(uint32_t max_colours)
{
    return max_colours == 0 ? 0 : max_colours >= 64 ? ~0ull : ((1ull << max_colours) - 1ull);
}

/* Puts constraint c, of particles at[0 .. k), in colour col (max_colours:
 * the overflow). */
static void place(uint32_t col, uint32_t max_colours, size_t c, const uint32_t *at, unsigned k,
                  uint64_t *used, uint8_t *colour_of, xpbd__layout *out)
{
    if (col < max_colours) {
        for (unsigned j = 0; j < k; ++j)
            used[at[j]] |= 1ull << col;
        if (col + 1 > out->colours)
            out->colours = col + 1;
    }
    colour_of[c] = (uint8_t)col;
    out->size[col]++;
}

void xpbd__colour(size_t n, size_t m, unsigned k, const uint32_t *const idx[4], size_t stride,
                  uint32_t max_colours, uint64_t *used, uint8_t *colour_of, xpbd__layout *out)
{
    memset(used, 0, (n ? n : 1) * sizeof *used);
    memset(out, 0, sizeof *out);
    const uint64_t allowed = allowed_colours(max_colours);
    for (size_t c = 0; c < m; ++c) {
        uint32_t at[4];
        uint64_t busy = 0;
        for (unsigned j = 0; j < k; ++j)
            busy |= used[at[j] = idx[j][c * stride]];
        const uint64_t free_bits = ~busy & allowed;
        place(free_bits ? pick(free_bits, 0, 0) : max_colours, max_colours, c, at, k, used,
              colour_of, out);
    }
    layout_finish(max_colours, out);
}

/* What i0 steps by along a run of offset d: 1, or 2 for pairs side by side
 * (offset 1). */
static uint32_t run_step(uint32_t d)
{
    return d == 1 ? 2 : 1;
}

/* The constraint of [lo, hi) (i0 increasing) whose i0 is v, or SIZE_MAX. */
static size_t find_i0(const uint32_t *i0, size_t lo, size_t hi, int64_t v)
{
    const size_t end = hi;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((int64_t)i0[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && (int64_t)i0[lo] == v ? lo : SIZE_MAX;
}

void xpbd__colour_runs(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                       uint32_t max_colours, uint64_t *used, uint8_t *colour_of,
                       xpbd__layout *out)
{
    memset(used, 0, (n ? n : 1) * sizeof *used);
    memset(out, 0, sizeof *out);
    const uint64_t allowed = allowed_colours(max_colours);
    for (size_t c0 = 0, c1; c0 < m; c0 = c1) {
        /* one offset d: [c0, c1), i0 increasing */
        const uint32_t d = i1[c0] - i0[c0];
        for (c1 = c0 + 1; c1 < m && i1[c1] - i0[c1] == d; ++c1) {
        }
        const uint64_t above = c1 - c0 >= XPBD_RUNS_CLASS && out->colours < 64
                                   ? ~0ull << out->colours
                                   : ~0ull;
        const uint32_t s = run_step(d);
        for (size_t c = c0; c < c1; ++c) {
            const uint32_t at[2] = {i0[c], i1[c]};
            const uint64_t free_bits = ~(used[i0[c]] | used[i1[c]]) & allowed;
            if (!free_bits) {
                place(max_colours, max_colours, c, at, 2, used, colour_of, out);
                continue;
            }
            /* the run's last constraint's colour; or, where this one starts
             * a run, not the colour of the constraint that the next one in
             * the run will follow (so neighbouring runs take one colour) */
            uint64_t prefer = 0;
            const size_t back = find_i0(i0, c0, c, (int64_t)i0[c] - s);
            if (back != SIZE_MAX && colour_of[back] < max_colours) {
                prefer = 1ull << colour_of[back];
            } else if (d > s) {
                const size_t q = find_i0(i0, c0, c, (int64_t)i0[c] + s - d);
                if (q != SIZE_MAX && colour_of[q] < max_colours)
                    prefer = above & ~(1ull << colour_of[q]);
            }
            place(pick(free_bits, prefer, above), max_colours, c, at, 2, used, colour_of, out);
        }
    }
    layout_finish(max_colours, out);
}

static int keyed_cmp(const void *pa, const void *pb)
{
    const xpbd__keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

void xpbd__sort_keyed(xpbd__keyed *a, size_t m)
{
    qsort(a, m, sizeof *a, keyed_cmp);
}

int xpbd__runs_order(size_t m, const uint32_t *i0, const uint32_t *i1, uint32_t *order)
{
    xpbd__keyed *keys = malloc((m ? m : 1) * sizeof *keys);
    if (!keys)
        return 0;
    for (size_t k = 0; k < m; ++k) {
        /* offset + 2^31 in the high word, i0 in the low one: indices are
         * below 2^31 (builders check), so the offset fits */
        const uint64_t off = (uint64_t)((int64_t)i1[k] - (int64_t)i0[k] + INT64_C(0x80000000));
        keys[k].key = off << 32 | i0[k];
        keys[k].index = (uint32_t)k;
    }
    xpbd__sort_keyed(keys, m);
    for (size_t k = 0; k < m; ++k)
        order[k] = keys[k].index;
    free(keys);
    return 1;
}

/* the end of the run that starts at slot s */
static uint32_t run_end(uint32_t n, const uint32_t *i0, const uint32_t *i1, uint32_t s)
{
    const uint32_t d = i1[s] - i0[s], step = run_step(d);
    uint32_t e = s + 1;
    while (e < n && i1[e] - i0[e] == d && i0[e] == i0[e - 1] + step)
        ++e;
    return e;
}

/* A queue of fewer than XPBD_BATCH slots; full, it goes out as one vector. */
typedef struct runs_queue {
    uint32_t slot[XPBD_BATCH], n;
} runs_queue;

static void runs_queue_push(runs_queue *q, uint32_t slot, uint32_t *perm, uint32_t *t)
{
    q->slot[q->n++] = slot;
    if (q->n == XPBD_BATCH) {
        memcpy(perm + *t, q->slot, sizeof q->slot);
        *t += XPBD_BATCH;
        q->n = 0;
    }
}

void xpbd__runs_pack(uint32_t n, const uint32_t *i0, const uint32_t *i1, uint32_t *perm)
{
    /* queue[0]: rests; queue[1], queue[2]: whole groups of runs stepping
     * by 1 and by 2 (a vector of groups is a run for the widest path when
     * all its groups step alike). A full queue goes out between two runs,
     * so everything stays near its neighbours in the colour (a thread's
     * share of a colour stays one region of the mesh) and every piece
     * starts at a multiple of XPBD_BATCH. */
    runs_queue queue[3] = {{.n = 0}, {.n = 0}, {.n = 0}};
    uint32_t t = 0;
    for (uint32_t s = 0, e; s < n; s = e) {
        e = run_end(n, i0, i1, s);
        const uint32_t whole = (e - s) / XPBD_BATCH * XPBD_BATCH;
        const uint32_t groups = (e - s) / XPBD_RUN_GROUP * XPBD_RUN_GROUP;
        runs_queue *gq = &queue[run_step(i1[s] - i0[s])];
        for (uint32_t k = 0; k < whole; ++k)
            perm[t++] = s + k;
        for (uint32_t k = whole; k < groups; ++k)
            runs_queue_push(gq, s + k, perm, &t);
        for (uint32_t k = groups; k < e - s; ++k)
            runs_queue_push(&queue[0], s + k, perm, &t);
    }
    for (unsigned q = 3; q-- > 0;) {
        memcpy(perm + t, queue[q].slot, queue[q].n * sizeof *perm);
        t += queue[q].n;
    }
}

uint32_t xpbd__runs_share(uint32_t n, const uint32_t *i0, const uint32_t *i1)
{
    uint32_t in = 0;
    for (uint32_t v = 0; v + XPBD_BATCH <= n; v += XPBD_BATCH) {
        /* every group stepping by 1 at both ends, or every group of pairs */
        int by1 = 1, pairs = 1;
        for (uint32_t s = v; s < v + XPBD_BATCH; ++s) {
            const uint32_t g = s - (s - v) % XPBD_RUN_GROUP, m = s - g;
            by1 &= i0[s] == i0[g] + m && i1[s] == i1[g] + m;
            pairs &= i0[s] == i0[g] + 2 * m && i1[s] == i0[s] + 1;
        }
        in += by1 || pairs ? XPBD_BATCH : 0;
    }
    return in;
}

int xpbd__layout_ok(uint32_t count, uint32_t slots, uint32_t colours, const uint32_t *colour_begin,
                    const uint32_t *colour_size, uint32_t overflow_begin)
{
    if (!colour_begin || (colours && !colour_size) || colours > XPBD_MAX_COLOURS ||
        colour_begin[0] != 0 || overflow_begin != colour_begin[colours] || overflow_begin > slots)
        return 0;
    uint32_t real = slots - overflow_begin;
    for (uint32_t k = 0; k < colours; ++k) {
        const uint32_t b0 = colour_begin[k], b1 = colour_begin[k + 1];
        if (b1 < b0 || (b1 - b0) % XPBD_BATCH != 0 || colour_size[k] > b1 - b0 ||
            b1 - b0 - colour_size[k] >= XPBD_BATCH)
            return 0;
        real += colour_size[k];
    }
    return real == count;
}

/* One pass of xpbd__colour_repeat, specialised by its callers for k and
 * for the presence of source (constant arguments of an inlined body): the
 * loop is the step's validation cost, a few instructions per slot. */
static inline __attribute__((always_inline)) uint32_t
colour_repeat_pass(uint32_t c0, uint32_t c1, const uint32_t *colour_begin, const uint32_t *colour_size,
                   const uint32_t *const idx[4], const unsigned k, const uint32_t *source,
                   uint32_t *stamp)
{
    const uint32_t *i0 = idx[0], *i1 = idx[1], *i2 = idx[2], *i3 = idx[3];
    for (uint32_t c = c0; c < c1; ++c) {
        const uint32_t e = colour_begin[c] + colour_size[c];
        for (uint32_t s = colour_begin[c]; s < e; ++s) {
            /* test-and-tag one particle at a time: a slot repeating its own
             * particle (i0 == i1) is caught as well */
            const uint32_t a0 = i0[s], a1 = i1[s];
            if (stamp[a0] == c || (source && source[s] == XPBD_PAD))
                return s;
            stamp[a0] = c;
            if (stamp[a1] == c)
                return s;
            stamp[a1] = c;
            if (k == 4) {
                const uint32_t a2 = i2[s], a3 = i3[s];
                if (stamp[a2] == c)
                    return s;
                stamp[a2] = c;
                if (stamp[a3] == c)
                    return s;
                stamp[a3] = c;
            }
        }
    }
    return UINT32_MAX;
}

uint32_t xpbd__colour_repeat_range(uint32_t c0, uint32_t c1, const uint32_t *colour_begin,
                                   const uint32_t *colour_size, const uint32_t *const idx[4],
                                   unsigned k, const uint32_t *source, uint32_t *stamp)
{
    if (k == 4)
        return colour_repeat_pass(c0, c1, colour_begin, colour_size, idx, 4, NULL, stamp);
    if (source)
        return colour_repeat_pass(c0, c1, colour_begin, colour_size, idx, 2, source, stamp);
    return colour_repeat_pass(c0, c1, colour_begin, colour_size, idx, 2, NULL, stamp);
}

uint32_t xpbd__colour_repeat(uint32_t colours, const uint32_t *colour_begin,
                             const uint32_t *colour_size, const uint32_t *const idx[4],
                             unsigned k, const uint32_t *source, size_t n, uint32_t *stamp)
{
    if (colours == 0)
        return UINT32_MAX;
    memset(stamp, 0xff, n * sizeof *stamp);
    return xpbd__colour_repeat_range(0, colours, colour_begin, colour_size, idx, k, source,
                                     stamp);
}

/* ---- regions (xpbd_colouring_options.regions) ------------------------------ */

/* Colours each region's interior may use: the boundary keeps at least
 * XPBD_MAX_COLOURS - XPBD__REGION_COLOURS of them. */
#define XPBD__REGION_COLOURS 48u

void xpbd__region_cut(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                      uint32_t regions, uint32_t *region_of)
{
    /* constraints by their lower particle, then cut where the running
     * count crosses each of regions equal shares of m */
    memset(region_of, 0, (n ? n : 1) * sizeof *region_of);
    for (size_t k = 0; k < m; ++k)
        region_of[i0[k] < i1[k] ? i0[k] : i1[k]]++;
    uint64_t before = 0;
    for (size_t p = 0; p < n; ++p) {
        const uint32_t here = region_of[p];
        const uint64_t r = m ? before * regions / m : 0;
        region_of[p] = (uint32_t)(r < regions ? r : regions - 1);
        before += here;
    }
}

/* One part of a regions colouring: the constraints list[0 .. *count) (input
 * indices, increasing), in the runs order with runs, coloured with at most
 * cap colours from colour base on: what is coloured goes to the sequence
 * (order, colour_of at *seq), what is not stays in list (its new *count).
 * The part's colour sizes go to out; returns its colours, or UINT32_MAX
 * when out of memory. */
static uint32_t region_part(size_t n, const uint32_t *i0, const uint32_t *i1, uint32_t *list,
                            size_t *count, uint32_t cap, uint32_t base, int runs,
                            uint32_t *work, uint64_t *used, uint8_t *sub_colour,
                            xpbd__layout *sub, uint32_t *order, uint8_t *colour_of, size_t *seq,
                            xpbd__layout *out)
{
    const size_t m = *count;
    uint32_t *a = work, *b = work + m;
    if (runs && m > 0) {
        uint32_t *perm = work + 2 * m;
        for (size_t j = 0; j < m; ++j) {
            a[j] = i0[list[j]];
            b[j] = i1[list[j]];
        }
        if (!xpbd__runs_order(m, a, b, perm))
            return UINT32_MAX;
        for (size_t j = 0; j < m; ++j)
            perm[j] = list[perm[j]];
        memcpy(list, perm, m * sizeof *list);
    }
    for (size_t j = 0; j < m; ++j) {
        a[j] = i0[list[j]];
        b[j] = i1[list[j]];
    }
    if (runs) {
        xpbd__colour_runs(n, m, a, b, cap, used, sub_colour, sub);
    } else {
        const uint32_t *const idx[4] = {a, b, a, b};
        xpbd__colour(n, m, 2, idx, 1, cap, used, sub_colour, sub);
    }
    size_t left = 0;
    for (size_t j = 0; j < m; ++j)
        if (sub_colour[j] < cap) {
            order[*seq] = list[j];
            colour_of[(*seq)++] = (uint8_t)(base + sub_colour[j]);
        } else {
            list[left++] = list[j];
        }
    for (uint32_t c = 0; c < sub->colours; ++c)
        out->size[base + c] = sub->size[c];
    *count = left;
    return sub->colours;
}

int xpbd__colour_regions(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                         uint32_t regions, uint32_t max_colours, int runs, xpbd__layout *out,
                         uint8_t *colour_of, uint32_t *order, uint32_t *region_colour)
{
    uint32_t *region_of = malloc((n ? n : 1) * sizeof *region_of);
    uint32_t *list = malloc((2 * m + 1) * sizeof *list);
    uint32_t *work = malloc((3 * m + 1) * sizeof *work);
    uint64_t *used = malloc((n ? n : 1) * sizeof *used);
    uint8_t *sub_colour = malloc(m ? m : 1);
    xpbd__layout *sub = malloc(sizeof *sub);
    int ok = region_of && list && work && used && sub_colour && sub;
    memset(out, 0, sizeof *out);
    if (ok) {
        xpbd__region_cut(n, m, i0, i1, regions, region_of);
        const uint32_t cap = max_colours < XPBD__REGION_COLOURS / regions
                                 ? max_colours
                                 : XPBD__REGION_COLOURS / regions;
        /* list: the part being coloured; after it (from m on), in input
         * order, the boundary and what no region's colours took */
        uint32_t *rest = list + m;
        size_t seq = 0, nrest = 0;
        uint32_t base = 0;
        uint8_t *is_left = sub_colour; /* marks, before the boundary uses it */
        for (uint32_t r = 0; ok && r <= regions; ++r) {
            size_t count = 0;
            if (r < regions) {
                for (size_t k = 0; k < m; ++k)
                    if (region_of[i0[k]] == r && region_of[i1[k]] == r)
                        list[count++] = (uint32_t)k;
            } else {
                /* the boundary and the leftovers, merged in input order */
                memset(is_left, 0, m ? m : 1);
                for (size_t j = 0; j < nrest; ++j)
                    is_left[rest[j]] = 1;
                for (size_t k = 0; k < m; ++k)
                    if (is_left[k] || region_of[i0[k]] != region_of[i1[k]])
                        list[count++] = (uint32_t)k;
            }
            region_colour[r] = base;
            const uint32_t c = r < regions ? cap
                               : max_colours < XPBD_MAX_COLOURS - base
                                   ? max_colours
                                   : XPBD_MAX_COLOURS - base;
            const uint32_t got = region_part(n, i0, i1, list, &count, c, base, runs, work, used,
                                             sub_colour, sub, order, colour_of, &seq, out);
            if (got == UINT32_MAX) {
                ok = 0;
                break;
            }
            base += got;
            if (r < regions) {
                memcpy(rest + nrest, list, count * sizeof *list);
                nrest += count;
            } else {
                /* the overflow, in the boundary's order */
                for (size_t j = 0; j < count; ++j) {
                    order[seq] = list[j];
                    colour_of[seq++] = (uint8_t)XPBD_MAX_COLOURS;
                }
                out->size[XPBD_MAX_COLOURS] = (uint32_t)count;
            }
        }
        out->colours = base;
        if (ok)
            layout_finish(XPBD_MAX_COLOURS, out);
    }
    free(region_of);
    free(list);
    free(work);
    free(used);
    free(sub_colour);
    free(sub);
    return ok;
}

int xpbd__regions_ok(uint32_t regions, const uint32_t *region_colour, uint32_t colours)
{
    if (regions == 0)
        return 1;
    if (regions > XPBD_MAX_REGIONS || !region_colour || region_colour[0] != 0)
        return 0;
    for (uint32_t r = 0; r < regions; ++r)
        if (region_colour[r + 1] < region_colour[r])
            return 0;
    return region_colour[regions] <= colours;
}

uint32_t xpbd__region_overlap(uint32_t regions, const uint32_t *region_colour,
                              const uint32_t *colour_begin, const uint32_t *colour_size,
                              const uint32_t *i0, const uint32_t *i1, size_t n, uint32_t *stamp)
{
    /* stamp: the last region whose interior used the particle; the regions
     * go in order, so a stamp below r is an earlier region's */
    if (regions == 0)
        return UINT32_MAX;
    memset(stamp, 0xff, n * sizeof *stamp);
    for (uint32_t r = 0; r < regions; ++r)
        for (uint32_t c = region_colour[r]; c < region_colour[r + 1]; ++c) {
            const uint32_t e = colour_begin[c] + colour_size[c];
            for (uint32_t s = colour_begin[c]; s < e; ++s) {
                const uint32_t a = i0[s], b = i1[s];
                if (stamp[a] < r || stamp[b] < r)
                    return s;
                stamp[a] = stamp[b] = r;
            }
        }
    return UINT32_MAX;
}
