/* SPDX-License-Identifier: MIT */
/* distance.h: the distance constraint C = |x1 - x0| - rest, solved by XPBD
 * (with its accumulated lambda) or classic PBD (stiffness k), on the
 * caller's SoA arrays or on the packed copy q, and its residual.
 *
 *   d = x1 - x0;  len = sqrt((dx*dx + dy*dy) + dz*dz)
 *   skip if len == 0 or w0 + w1 == 0
 *   XPBD: C = len - rest;  at = alpha~(compliance, 1/(h*h))   (common.h)
 *         s = (-C - at*lambda) / (((w0 + w1) + at) * len)     (= dl/len)
 *         x0 -= (w0*s)*d;  x1 += (w1*s)*d;  lambda += s*len
 *   PBD:  s = -(k*C) / ((w0 + w1)*len)
 *   residual: r = C + at*lambda (0 where skipped or padding)
 *
 * One division per constraint: the step along d is s = dl/len, so neither
 * endpoint needs the unit normal. Template over the precision and the
 * backend (lanes.h); constraint kernels return the number of real
 * constraints skipped. */

/* PAIR_RUNS: this backend has the runs of wide.h (the 512-bit float path) */
#if !LANES_IS_ONE && !R_F64 && defined(XPBD_WIDE_RUNS)
#  define PAIR_RUNS 1
#else
#  define PAIR_RUNS 0
#endif

/* Both endpoints of L slots: positions, inverse masses, then d and |d|.
 * Loaded either by gathers from the caller's SoA arrays or by transposed
 * loads from the packed copy; the maths is the same for both. */
typedef struct K(pair) {
    V xa, ya, za, wa, xb, yb, zb, wb, dx, dy, dz, len;
} K(pair);

LANE_FN void K(geometry)(K(pair) *q)
{
    q->dx = O(sub)(q->xb, q->xa);
    q->dy = O(sub)(q->yb, q->ya);
    q->dz = O(sub)(q->zb, q->za);
    q->len = O(sqrt)(K(norm2)(q->dx, q->dy, q->dz));
}

LANE_FN void K(gather_pair)(K(pair) *q, const P *p, const uint32_t *ia, const uint32_t *ib)
{
    q->xa = O(gather)(p->x, ia);
    q->ya = O(gather)(p->y, ia);
    q->za = O(gather)(p->z, ia);
    q->xb = O(gather)(p->x, ib);
    q->yb = O(gather)(p->y, ib);
    q->zb = O(gather)(p->z, ib);
    q->wa = O(gather)(p->w, ia);
    q->wb = O(gather)(p->w, ib);
    K(geometry)(q);
}

LANE_FN void K(load_packed_pair)(K(pair) *q, const R *pk, const uint32_t *ia,
                                 const uint32_t *ib)
{
    O(load4t)(pk, ia, &q->xa, &q->ya, &q->za, &q->wa);
    O(load4t)(pk, ib, &q->xb, &q->yb, &q->zb, &q->wb);
    K(geometry)(q);
}

LANE_FN void K(scatter_pair)(const K(pair) *q, const P *p, const uint32_t *ia,
                             const uint32_t *ib, unsigned n)
{
    O(scatter3)(p->x, p->y, p->z, ia, q->xa, q->ya, q->za, n);
    O(scatter3)(p->x, p->y, p->z, ib, q->xb, q->yb, q->zb, n);
}

LANE_FN void K(store_packed_pair)(const K(pair) *q, R *pk, const uint32_t *ia,
                                  const uint32_t *ib, unsigned n)
{
    O(store3t)(pk, ia, q->xa, q->ya, q->za, q->wa, n);
    O(store3t)(pk, ib, q->xb, q->yb, q->zb, q->wb, n);
}

/* x0 -= (w0*st)*d; x1 += (w1*st)*d on the lanes in ok (in place). */
LANE_FN void K(move_pair)(K(pair) *q, M ok, V st)
{
    const V c0 = O(mul)(q->wa, st), c1 = O(mul)(q->wb, st);
    q->xa = O(select)(ok, O(sub)(q->xa, O(mul)(c0, q->dx)), q->xa);
    q->ya = O(select)(ok, O(sub)(q->ya, O(mul)(c0, q->dy)), q->ya);
    q->za = O(select)(ok, O(sub)(q->za, O(mul)(c0, q->dz)), q->za);
    q->xb = O(select)(ok, O(add)(q->xb, O(mul)(c1, q->dx)), q->xb);
    q->yb = O(select)(ok, O(add)(q->yb, O(mul)(c1, q->dy)), q->yb);
    q->zb = O(select)(ok, O(add)(q->zb, O(mul)(c1, q->dz)), q->zb);
}

/* The XPBD solve of L pairs with their rest lengths, compliances and
 * lambdas (updated in *lam); returns the lanes solved. */
LANE_FN M K(xpbd_solve)(K(pair) *q, V rest, V compliance, V *lam, V ih2)
{
    const V zero = O(zero)();
    const V wsum = O(add)(q->wa, q->wb);
    const M ok = O(mand)(O(gt)(q->len, zero), O(gt)(wsum, zero));
    const V C = O(sub)(q->len, rest);
    const V at = K(alpha_tilde)(compliance, ih2);
    const V den = O(add)(wsum, at);
    const V st = O(div)(O(sub)(O(neg)(C), O(mul)(at, *lam)), O(mul)(den, q->len));
    K(move_pair)(q, ok, st);
    *lam = O(select)(ok, O(add)(*lam, O(mul)(st, q->len)), *lam);
    return ok;
}

/* The PBD solve of L pairs with their rest lengths; returns the lanes
 * solved. */
LANE_FN M K(pbd_solve)(K(pair) *q, V rest, V k)
{
    const V zero = O(zero)();
    const V wsum = O(add)(q->wa, q->wb);
    const M ok = O(mand)(O(gt)(q->len, zero), O(gt)(wsum, zero));
    const V C = O(sub)(q->len, rest);
    const V st = O(div)(O(neg)(O(mul)(k, C)), O(mul)(wsum, q->len));
    K(move_pair)(q, ok, st);
    return ok;
}

/* The XPBD solve of the L slots from s; returns the lanes solved. first:
 * the lambdas are taken as 0, not read; keep = 0: not stored either. */
LANE_FN M K(xpbd_lanes)(K(pair) *q, const DS *c, uint32_t s, V ih2, int first, int keep)
{
    V lam = first ? O(zero)() : O(load)(c->lambda + s);
    const M ok =
        K(xpbd_solve)(q, O(load)(c->rest + s), O(load)(c->compliance + s), &lam, ih2);
    if (keep)
        O(store)(c->lambda + s, lam);
    return ok;
}

/* The PBD solve of the L slots from s; returns the lanes solved. */
LANE_FN M K(pbd_lanes)(K(pair) *q, const DS *c, uint32_t s, V k)
{
    return K(pbd_solve)(q, O(load)(c->rest + s), k);
}

/* C + at*lambda of the L slots from s on SoA positions, 0 where skipped. */
LANE_FN V K(residual_lanes)(const P *p, const DS *c, uint32_t s, V ih2)
{
    const V zero = O(zero)();
    K(pair) q;
    K(gather_pair)(&q, p, c->i0 + s, c->i1 + s);
    const V wsum = O(add)(q.wa, q.wb);
    const M ok = O(mand)(O(gt)(q.len, zero), O(gt)(wsum, zero));
    const V at = K(alpha_tilde)(O(load)(c->compliance + s), ih2);
    return O(select)(ok, O(add)(O(sub)(q.len, O(load)(c->rest + s)),
                                O(mul)(at, O(load)(c->lambda + s))),
                     zero);
}

/* One vector of slots, n of them real: load, solve, store; the skipped
 * count. The four solvers differ only in where positions live and which
 * solve runs. */
LANE_FN uint32_t K(distance_xpbd_at)(const P *p, const DS *c, uint32_t s, unsigned n, V ih2)
{
    K(pair) q;
    K(gather_pair)(&q, p, c->i0 + s, c->i1 + s);
    const M ok = K(xpbd_lanes)(&q, c, s, ih2, 0, 1);
    K(scatter_pair)(&q, p, c->i0 + s, c->i1 + s, n);
    return K(count_skipped)(ok, n);
}

#if PAIR_RUNS
/* The runs of wide.h: whole rows in, whole rows out (0: not a run); kinds
 * 1 and 3 in run order, 2 and 4 in slot order. */
LANE_FN unsigned K(load_run_pair)(K(pair) *q, const R *pk, const uint32_t *ia,
                                  const uint32_t *ib, unsigned n)
{
    const unsigned kind = n == (unsigned)L ? O(run_kind)(ia, ib) : 0;
    if (kind == 1 || kind == 3) {
        O(load_run)(pk, ia, kind, &q->xa, &q->ya, &q->za, &q->wa);
        O(load_run)(pk, ib, kind, &q->xb, &q->yb, &q->zb, &q->wb);
    } else if (kind) {
        V a[4], b[4];
        O(load_run2)(pk, ia, kind, a, b);
        q->xa = a[0], q->ya = a[1], q->za = a[2], q->wa = a[3];
        q->xb = b[0], q->yb = b[1], q->zb = b[2], q->wb = b[3];
    } else {
        return 0;
    }
    K(geometry)(q);
    return kind;
}

LANE_FN void K(store_run_pair)(const K(pair) *q, R *pk, const uint32_t *ia, const uint32_t *ib,
                               unsigned kind)
{
    if (kind == 1 || kind == 3) {
        O(store_run)(pk, ia, kind, q->xa, q->ya, q->za, q->wa);
        O(store_run)(pk, ib, kind, q->xb, q->yb, q->zb, q->wb);
    } else {
        const V a[4] = {q->xa, q->ya, q->za, q->wa}, b[4] = {q->xb, q->yb, q->zb, q->wb};
        O(store_run2)(pk, ia, kind, a, b);
    }
}

/* A per-slot vector in the lane order of a run of this kind, and back. */
LANE_FN V K(run_lanes)(V v, unsigned kind)
{
    return kind == 1 || kind == 3 ? O(run_order)(v) : v;
}
#endif

LANE_FN uint32_t K(distance_xpbd_packed_at)(R *pk, const DS *c, uint32_t s, unsigned n, V ih2,
                                            int first, int keep)
{
    K(pair) q;
#if PAIR_RUNS
    const unsigned kind = K(load_run_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
    if (kind) {
        V lam = first ? O(zero)() : K(run_lanes)(O(load)(c->lambda + s), kind);
        const M ok = K(xpbd_solve)(&q, K(run_lanes)(O(load)(c->rest + s), kind),
                                   K(run_lanes)(O(load)(c->compliance + s), kind), &lam, ih2);
        if (keep)
            O(store)(c->lambda + s, K(run_lanes)(lam, kind));
        K(store_run_pair)(&q, pk, c->i0 + s, c->i1 + s, kind);
        return K(count_skipped)(ok, n);
    }
#endif
    K(load_packed_pair)(&q, pk, c->i0 + s, c->i1 + s);
    const M ok = K(xpbd_lanes)(&q, c, s, ih2, first, keep);
    K(store_packed_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
    return K(count_skipped)(ok, n);
}

LANE_FN uint32_t K(distance_pbd_at)(const P *p, const DS *c, uint32_t s, unsigned n, V k)
{
    K(pair) q;
    K(gather_pair)(&q, p, c->i0 + s, c->i1 + s);
    const M ok = K(pbd_lanes)(&q, c, s, k);
    K(scatter_pair)(&q, p, c->i0 + s, c->i1 + s, n);
    return K(count_skipped)(ok, n);
}

LANE_FN uint32_t K(distance_pbd_packed_at)(R *pk, const DS *c, uint32_t s, unsigned n, V k)
{
    K(pair) q;
#if PAIR_RUNS
    const unsigned kind = K(load_run_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
    if (kind) {
        const M ok = K(pbd_solve)(&q, K(run_lanes)(O(load)(c->rest + s), kind), k);
        K(store_run_pair)(&q, pk, c->i0 + s, c->i1 + s, kind);
        return K(count_skipped)(ok, n);
    }
#endif
    K(load_packed_pair)(&q, pk, c->i0 + s, c->i1 + s);
    const M ok = K(pbd_lanes)(&q, c, s, k);
    K(store_packed_pair)(&q, pk, c->i0 + s, c->i1 + s, n);
    return K(count_skipped)(ok, n);
}

/* ----------------------------------------------- colour batch kernels --- */

static inline uint32_t K(distance_xpbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                        uint32_t b1, R h)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(distance_xpbd_at)(p, c, s, LIVE_LANES, vih2);
    }
    return skipped;
}

/* first: the lambdas taken as 0 (distance_xpbd_packed_first); the range's
 * padding slots, which the walk does not visit, get their reset here, so
 * every slot of the range ends as a reset and a pass would leave it.
 * keep = 0 (distance_xpbd_packed_once, with first): no lambda written. */
LANE_FN uint32_t K(distance_xpbd_packed_walk)(R *pk, const DS *c, uint32_t colour, uint32_t b0,
                                              uint32_t b1, R h, int first, int keep)
{
    const V vih2 = O(set1)(1 / (h * h));
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(distance_xpbd_packed_at)(pk, c, s, LIVE_LANES, vih2, first, keep);
    }
    if (first && keep) {
        const uint32_t base = c->colour_begin[colour], real = base + c->colour_size[colour];
        const uint32_t from = base + b0 * XPBD_BATCH > real ? base + b0 * XPBD_BATCH : real;
        for (uint32_t s = from; s < base + b1 * XPBD_BATCH; ++s)
            c->lambda[s] = 0;
    }
    return skipped;
}

static inline uint32_t K(distance_xpbd_packed)(R *pk, const DS *c, uint32_t colour, uint32_t b0,
                                               uint32_t b1, R h)
{
    return K(distance_xpbd_packed_walk)(pk, c, colour, b0, b1, h, 0, 1);
}

static inline uint32_t K(distance_xpbd_packed_first)(R *pk, const DS *c, uint32_t colour,
                                                     uint32_t b0, uint32_t b1, R h)
{
    return K(distance_xpbd_packed_walk)(pk, c, colour, b0, b1, h, 1, 1);
}

static inline uint32_t K(distance_xpbd_packed_once)(R *pk, const DS *c, uint32_t colour,
                                                    uint32_t b0, uint32_t b1, R h)
{
    return K(distance_xpbd_packed_walk)(pk, c, colour, b0, b1, h, 1, 0);
}

static inline uint32_t K(distance_pbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                       uint32_t b1, R k)
{
    const V vk = O(set1)(k);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(distance_pbd_at)(p, c, s, LIVE_LANES, vk);
    }
    return skipped;
}

static inline uint32_t K(distance_pbd_packed)(R *pk, const DS *c, uint32_t colour, uint32_t b0,
                                              uint32_t b1, R k)
{
    const V vk = O(set1)(k);
    uint32_t skipped = 0;
    FOR_SLOTS(c, colour, b0, b1) {
        skipped += K(distance_pbd_packed_at)(pk, c, s, LIVE_LANES, vk);
    }
    return skipped;
}

/* out (may be NULL) gets r per slot of the batch range, 0 for padding. */
static inline R K(residual)(const P *p, const DS *c, uint32_t colour, uint32_t b0, uint32_t b1,
                            R h, R *out)
{
    const V vih2 = O(set1)(1 / (h * h)), zero = O(zero)();
    V vmax = zero;
    if (out)
        for (uint32_t s = c->colour_begin[colour] + b0 * XPBD_BATCH;
             s < c->colour_begin[colour] + b1 * XPBD_BATCH; ++s)
            out[s] = 0;
    FOR_SLOTS(c, colour, b0, b1)
    {
        const unsigned n = LIVE_LANES;
        const V r = K(residual_lanes)(p, c, s, vih2);
        if (out) {
            R t[L];
            O(store)(t, r);
            for (unsigned l = 0; l < n; ++l) out[s + l] = t[l];
        }
        const V a = O(abs)(r);
        /* lanes past n are padding: |r| = 0 there (len == 0) */
        vmax = O(select)(O(gt)(a, vmax), a, vmax);
    }
    R t[L];
    O(store)(t, vmax);
    R m = 0;
    for (int l = 0; l < L; ++l)
        if (t[l] > m)
            m = t[l];
    return m;
}

#if LANES_IS_ONE
/* ------------------------------------- serial slot ranges (one lane) --- */
/* Slot ranges [s0, s1) of any part of a set (the overflow range
 * included), one constraint at a time, padding slots ignored. */

static inline uint32_t K(serial_distance_xpbd)(const P *p, const DS *c, uint32_t s0, uint32_t s1,
                                               R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(distance_xpbd_at)(p, c, s, 1, ih2);
    return skipped;
}

static inline uint32_t K(serial_distance_xpbd_packed)(R *q, const DS *c, uint32_t s0,
                                                      uint32_t s1, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(distance_xpbd_packed_at)(q, c, s, 1, ih2, 0, 1);
    return skipped;
}

static inline uint32_t K(serial_distance_pbd)(const P *p, const DS *c, uint32_t s0, uint32_t s1,
                                              R k)
{
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(distance_pbd_at)(p, c, s, 1, k);
    return skipped;
}

static inline uint32_t K(serial_distance_pbd_packed)(R *q, const DS *c, uint32_t s0, uint32_t s1,
                                                     R k)
{
    uint32_t skipped = 0;
    for (uint32_t s = s0; s < s1; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += K(distance_pbd_packed_at)(q, c, s, 1, k);
    return skipped;
}

static inline R K(serial_residual)(const P *p, const DS *c, uint32_t s0, uint32_t s1, R h,
                                   R *out)
{
    const R ih2 = 1 / (h * h);
    R max = 0;
    for (uint32_t s = s0; s < s1; ++s) {
        const R r = c->source[s] != XPBD_PAD ? K(residual_lanes)(p, c, s, ih2) : 0;
        if (out)
            out[s] = r;
        const R a = FABS(r);
        if (a > max)
            max = a;
    }
    return max;
}
#endif
#undef PAIR_RUNS
