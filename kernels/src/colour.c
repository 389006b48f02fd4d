/* Greedy first-fit colouring shared by every constraint set (distance,
 * four-particle, contact): one bit per colour per particle; a constraint
 * takes the lowest colour free at all its particles, or the serial overflow
 * range when none of max_colours is (Box2D v3's graph colouring, with a
 * 64-bit word per particle instead of a bitset per colour). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void xpbd__colour(size_t n, size_t m, unsigned k, const uint32_t *const idx[4], size_t stride,
                  uint32_t max_colours, const uint8_t *fresh, uint64_t *used, uint8_t *colour_of,
                  xpbd__layout *out)
{
    memset(used, 0, (n ? n : 1) * sizeof *used);
    memset(out, 0, sizeof *out);
    const uint64_t allowed = max_colours == 0    ? 0
                             : max_colours >= 64 ? ~0ull
                                                 : ((1ull << max_colours) - 1ull);
    uint64_t above = ~0ull; /* the preferred colours */
    for (size_t c = 0; c < m; ++c) {
        if (fresh && fresh[c])
            above = out->colours >= 64 ? 0 : ~0ull << out->colours;
        uint64_t busy = 0;
        for (unsigned j = 0; j < k; ++j)
            busy |= used[idx[j][c * stride]];
        const uint64_t free_bits = ~busy & allowed;
        uint32_t col = max_colours;
        if (free_bits) {
            col = (uint32_t)__builtin_ctzll(free_bits & above ? free_bits & above : free_bits);
            for (unsigned j = 0; j < k; ++j)
                used[idx[j][c * stride]] |= 1ull << col;
            if (col + 1 > out->colours)
                out->colours = col + 1;
        }
        colour_of[c] = (uint8_t)col;
        out->size[col]++;
    }
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

typedef struct runs_key {
    uint64_t key; /* offset + 2^31 in the high word, i0 in the low one */
    uint32_t k;
} runs_key;

static int runs_key_cmp(const void *pa, const void *pb)
{
    const runs_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

int xpbd__runs_order(size_t m, const uint32_t *i0, const uint32_t *i1, uint32_t *order)
{
    runs_key *keys = malloc((m ? m : 1) * sizeof *keys);
    if (!keys)
        return 0;
    for (size_t k = 0; k < m; ++k) {
        /* indices are below 2^31 (builders check), so the offset fits */
        const uint64_t off = (uint64_t)((int64_t)i1[k] - (int64_t)i0[k] + INT64_C(0x80000000));
        keys[k].key = off << 32 | i0[k];
        keys[k].k = (uint32_t)k;
    }
    qsort(keys, m, sizeof *keys, runs_key_cmp);
    for (size_t k = 0; k < m; ++k)
        order[k] = keys[k].k;
    free(keys);
    return 1;
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
