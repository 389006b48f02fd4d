/* SPDX-License-Identifier: MIT */
/* bend.h: isometric bending (Bergou et al. 2006; xpbd/softbody.h) on the
 * packed copy q, the quadratic energy of a hinge's four particles with
 * the set's precomputed weights k_0..k_3 and scale sc:
 *
 *   hv = sum_j k_j x_j;  hh = |hv|^2;  C = (sc*hh)/2
 *   S = ((sc*sc)*hh) * sum_j w_j k_j^2        (skip S == 0: flat or static)
 *   dl = (-C - at*lambda) / (S + at);  x_j += (((w_j*sc)*k_j)*dl) hv
 *
 * Template over the precision and the backend (lanes.h); read after
 * common.h (quads). */

/* ((k0*a0 + k1*a1) + k2*a2) + k3*a3 */
LANE_FN V K(dot4)(const V k[4], const V a[4])
{
    return O(add)(O(add)(O(add)(O(mul)(k[0], a[0]), O(mul)(k[1], a[1])), O(mul)(k[2], a[2])),
                  O(mul)(k[3], a[3]));
}

LANE_FN uint32_t K(bending_at)(R *q, const QS *c, uint32_t s, unsigned n, V ih2)
{
    const V zero = O(zero)(), half = O(set1)((R)0.5);
    K(quad) t;
    K(load_quad)(&t, q, c, s);
    const V k[4] = {O(load)(c->k0 + s), O(load)(c->k1 + s), O(load)(c->k2 + s),
                    O(load)(c->k3 + s)};
    const V sc = O(load)(c->scale + s);
    const V hx = K(dot4)(k, t.x), hy = K(dot4)(k, t.y), hz = K(dot4)(k, t.z);
    const V hh = K(norm2)(hx, hy, hz);
    const V kk[4] = {O(mul)(k[0], k[0]), O(mul)(k[1], k[1]), O(mul)(k[2], k[2]),
                     O(mul)(k[3], k[3])};
    const V wk = K(dot4)(t.w, kk);
    const V S = O(mul)(O(mul)(O(mul)(sc, sc), hh), wk);
    const M ok = O(gt)(S, zero);
    const V C = O(mul)(O(mul)(sc, hh), half);
    const V at = K(alpha_tilde)(O(load)(c->compliance + s), ih2);
    const V lam = O(load)(c->lambda + s);
    const V dl = O(div)(O(sub)(O(neg)(C), O(mul)(at, lam)), O(add)(S, at));
    for (int j = 0; j < 4; ++j) {
        const V a = O(mul)(O(mul)(O(mul)(t.w[j], sc), k[j]), dl);
        t.x[j] = O(select)(ok, O(add)(t.x[j], O(mul)(a, hx)), t.x[j]);
        t.y[j] = O(select)(ok, O(add)(t.y[j], O(mul)(a, hy)), t.y[j]);
        t.z[j] = O(select)(ok, O(add)(t.z[j], O(mul)(a, hz)), t.z[j]);
    }
    K(store_quad)(&t, q, c, s, n);
    O(store)(c->lambda + s, O(select)(ok, O(add)(lam, dl), lam));
    return K(count_skipped)(ok, n);
}

static inline uint32_t K(bending)(R *q, const QS *c, uint32_t colour, uint32_t b0, uint32_t b1,
                                  R h)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(bending_at)(q, c, s, LIVE_LANES, vih2);
    }
    return skipped;
}

#if LANES_IS_ONE
static inline uint32_t K(serial_bending)(R *q, const QS *c, uint32_t s0, uint32_t s1, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(bending_at)(q, c, s, 1, ih2);
    return skipped;
}
#endif
