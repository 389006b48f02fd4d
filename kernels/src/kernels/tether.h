/* SPDX-License-Identifier: MIT */
/* tether.h: a long-range tether of particle i to its static anchor
 * (xpbd/softbody.h), a one-sided distance limit on the packed copy q:
 *
 *   d = x_i - x_anchor;  len = |d|;  C = len - length[i]
 *   only if w_i > 0, the anchor is static (0 >= w_anchor) and C > 0:
 *   x_i -= (C/len) d
 *
 * Kernels return the number of tethers that were taut. Template over the
 * precision and the backend (lanes.h). */

LANE_FN uint32_t K(tether_at)(R *q, const uint32_t *anchor, const R *length, size_t i)
{
    const V zero = O(zero)();
    uint32_t idx[L];
    LANE_INDEX(idx, i);
    V x, y, z, w, ax, ay, az, aw;
    O(load4t)(q, idx, &x, &y, &z, &w);
    O(load4t)(q, anchor + i, &ax, &ay, &az, &aw);
    const V dx = O(sub)(x, ax), dy = O(sub)(y, ay), dz = O(sub)(z, az);
    const V len = O(sqrt)(K(norm2)(dx, dy, dz));
    const V C = O(sub)(len, O(load)(length + i));
    /* the anchor is static: 0 >= aw (w is finite and >= 0 here) */
    const M ok = O(mand)(O(mand)(O(gt)(w, zero), O(ge)(zero, aw)), O(gt)(C, zero));
    const V f = O(div)(C, len);
    O(store3t)(q, idx, O(select)(ok, O(sub)(x, O(mul)(f, dx)), x),
               O(select)(ok, O(sub)(y, O(mul)(f, dy)), y),
               O(select)(ok, O(sub)(z, O(mul)(f, dz)), z), w, L);
    return K(count_hits)(ok, L);
}

static inline uint32_t K(tethers)(R *q, const uint32_t *anchor, const R *length, size_t begin,
                                  size_t end)
{
    uint32_t taut = 0;
    size_t i = begin;
    for (; i + L <= end; i += L)
        taut += K(tether_at)(q, anchor, length, i);
    for (; i < end; ++i)
        taut += TAIL(tether_at)(q, anchor, length, i);
    return taut;
}
