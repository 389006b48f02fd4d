/* SPDX-License-Identifier: MIT */
/* volume.h: the tetrahedral volume constraint (xpbd/softbody.h) on the
 * packed copy q, C = 6*volume - rest, solved by XPBD:
 *
 *   e_k = x_k - x_0;  g_1 = e_2 x e_3, g_2 = e_3 x e_1, g_3 = e_1 x e_2,
 *   g_0 = -((g_1 + g_2) + g_3);  vol6 = e_1 . g_1
 *   S = sum_k w_k |g_k|^2;  at = alpha~(compliance, 1/(h*h))
 *   dl = (-C - at*lambda) / (S + at);  x_k += (w_k*dl) g_k;  lambda += dl
 *
 * Collapsed onto a point or a line, the gradients vanish while C does not,
 * and dl = -C/S turns rounding noise into a huge step: the tet is skipped
 * when S falls below 1e-6 of its natural scale (sum of w) * (sum of
 * |e_k|^2)^2 (a regular tet sits at 1/12 of it); exactly 0 when collapsed.
 * Template over the precision and the backend (lanes.h). */

LANE_FN uint32_t K(tet_volume_at)(R *q, const QS *c, uint32_t s, unsigned n, V ih2)
{
    const V tiny = O(set1)((R)1e-6);
    K(quad) t;
    K(load_quad)(&t, q, c, s);
    const V e1x = O(sub)(t.x[1], t.x[0]), e1y = O(sub)(t.y[1], t.y[0]), e1z = O(sub)(t.z[1], t.z[0]);
    const V e2x = O(sub)(t.x[2], t.x[0]), e2y = O(sub)(t.y[2], t.y[0]), e2z = O(sub)(t.z[2], t.z[0]);
    const V e3x = O(sub)(t.x[3], t.x[0]), e3y = O(sub)(t.y[3], t.y[0]), e3z = O(sub)(t.z[3], t.z[0]);
    V gx[4], gy[4], gz[4];
    gx[1] = O(sub)(O(mul)(e2y, e3z), O(mul)(e2z, e3y));
    gy[1] = O(sub)(O(mul)(e2z, e3x), O(mul)(e2x, e3z));
    gz[1] = O(sub)(O(mul)(e2x, e3y), O(mul)(e2y, e3x));
    gx[2] = O(sub)(O(mul)(e3y, e1z), O(mul)(e3z, e1y));
    gy[2] = O(sub)(O(mul)(e3z, e1x), O(mul)(e3x, e1z));
    gz[2] = O(sub)(O(mul)(e3x, e1y), O(mul)(e3y, e1x));
    gx[3] = O(sub)(O(mul)(e1y, e2z), O(mul)(e1z, e2y));
    gy[3] = O(sub)(O(mul)(e1z, e2x), O(mul)(e1x, e2z));
    gz[3] = O(sub)(O(mul)(e1x, e2y), O(mul)(e1y, e2x));
    gx[0] = O(neg)(O(add)(O(add)(gx[1], gx[2]), gx[3]));
    gy[0] = O(neg)(O(add)(O(add)(gy[1], gy[2]), gy[3]));
    gz[0] = O(neg)(O(add)(O(add)(gz[1], gz[2]), gz[3]));
    const V vol6 = O(add)(O(add)(O(mul)(e1x, gx[1]), O(mul)(e1y, gy[1])), O(mul)(e1z, gz[1]));
    const V S = O(add)(O(add)(O(add)(O(mul)(t.w[0], K(norm2)(gx[0], gy[0], gz[0])),
                                     O(mul)(t.w[1], K(norm2)(gx[1], gy[1], gz[1]))),
                              O(mul)(t.w[2], K(norm2)(gx[2], gy[2], gz[2]))),
                       O(mul)(t.w[3], K(norm2)(gx[3], gy[3], gz[3])));
    const V L2 = O(add)(O(add)(K(norm2)(e1x, e1y, e1z), K(norm2)(e2x, e2y, e2z)),
                        K(norm2)(e3x, e3y, e3z));
    const V W = O(add)(O(add)(O(add)(t.w[0], t.w[1]), t.w[2]), t.w[3]);
    const M ok = O(gt)(S, O(mul)(O(mul)(tiny, W), O(mul)(L2, L2)));
    const V C = O(sub)(vol6, O(load)(c->rest + s));
    const V at = K(alpha_tilde)(O(load)(c->compliance + s), ih2);
    const V lam = O(load)(c->lambda + s);
    const V dl = O(div)(O(sub)(O(neg)(C), O(mul)(at, lam)), O(add)(S, at));
    for (int k = 0; k < 4; ++k) {
        const V a = O(mul)(t.w[k], dl);
        t.x[k] = O(select)(ok, O(add)(t.x[k], O(mul)(a, gx[k])), t.x[k]);
        t.y[k] = O(select)(ok, O(add)(t.y[k], O(mul)(a, gy[k])), t.y[k]);
        t.z[k] = O(select)(ok, O(add)(t.z[k], O(mul)(a, gz[k])), t.z[k]);
    }
    K(store_quad)(&t, q, c, s, n);
    O(store)(c->lambda + s, O(select)(ok, O(add)(lam, dl), lam));
    return K(count_skipped)(ok, n);
}

static inline uint32_t K(tet_volume)(R *q, const QS *c, uint32_t colour, uint32_t b0,
                                     uint32_t b1, R h)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(tet_volume_at)(q, c, s, LIVE_LANES, vih2);
    }
    return skipped;
}

#if LANES_IS_ONE
static inline uint32_t K(serial_tet_volume)(R *q, const QS *c, uint32_t s0, uint32_t s1, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(tet_volume_at)(q, c, s, 1, ih2);
    return skipped;
}
#endif
