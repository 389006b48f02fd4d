/* SPDX-License-Identifier: MIT */
/* common.h: lane functions every constraint kernel shares. Template over
 * the precision and the backend (lanes.h). */

/* alpha~ = compliance / h^2, computed as compliance * (1/h^2), clamped to
 * the largest finite value: a huge compliance means (almost) no
 * correction, and an infinite alpha~ would meet lambda == 0 as inf * 0 =
 * NaN. Below the clamp this is the plain product, bit for bit. */
LANE_FN V K(alpha_tilde)(V compliance, V ih2)
{
    const V at = O(mul)(compliance, ih2), top = O(set1)(R_MAX);
    return O(select)(O(gt)(at, top), top, at);
}

/* Real lanes [0, n) of a vector that were in ok: the hit count. One lane
 * is its own count (no popcount: the scalar path has no -mpopcnt). */
LANE_FN uint32_t K(count_hits)(M ok, unsigned n)
{
#if LANES_IS_ONE
    (void)n;
    return (uint32_t)O(bits)(ok);
#else
    return (uint32_t)__builtin_popcount(O(bits)(ok) & ((1u << n) - 1u));
#endif
}

/* Real lanes [0, n) of a vector that were not in ok: the skipped count. */
LANE_FN uint32_t K(count_skipped)(M ok, unsigned n)
{
    return n - K(count_hits)(ok, n);
}

/* (x*x + y*y) + z*z */
LANE_FN V K(norm2)(V x, V y, V z)
{
    return O(add)(O(add)(O(mul)(x, x), O(mul)(y, y)), O(mul)(z, z));
}

/* The four particles of L slots of a four-particle set (tetrahedral volume,
 * bending), from and back to the packed copy q. */
typedef struct K(quad) {
    V x[4], y[4], z[4], w[4];
} K(quad);

LANE_FN void K(load_quad)(K(quad) *t, const R *q, const QS *c, uint32_t s)
{
    O(load4t)(q, c->i0 + s, &t->x[0], &t->y[0], &t->z[0], &t->w[0]);
    O(load4t)(q, c->i1 + s, &t->x[1], &t->y[1], &t->z[1], &t->w[1]);
    O(load4t)(q, c->i2 + s, &t->x[2], &t->y[2], &t->z[2], &t->w[2]);
    O(load4t)(q, c->i3 + s, &t->x[3], &t->y[3], &t->z[3], &t->w[3]);
}

LANE_FN void K(store_quad)(const K(quad) *t, R *q, const QS *c, uint32_t s, unsigned n)
{
    O(store3t)(q, c->i0 + s, t->x[0], t->y[0], t->z[0], t->w[0], n);
    O(store3t)(q, c->i1 + s, t->x[1], t->y[1], t->z[1], t->w[1], n);
    O(store3t)(q, c->i2 + s, t->x[2], t->y[2], t->z[2], t->w[2], n);
    O(store3t)(q, c->i3 + s, t->x[3], t->y[3], t->z[3], t->w[3], n);
}
