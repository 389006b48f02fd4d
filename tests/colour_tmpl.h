/* SPDX-License-Identifier: MIT */
/* Colouring checks of one precision; a template over the precision
 * (precision.h). */
#include "precision.h"

#define DSET SFX(xpbd_distance_set)
#define CL SFX(xt_cloud)
#define FN(n) SFX(n)
#if R_F64
#  define XT_TAB xt_k64
#else
#  define XT_TAB xt_k32
#endif
#define SAMER(a, b, n, what) SFX(xt_same)((a), (b), (n), (what), __FILE__, __LINE__)
#define SAMECL(a, b, what) SFX(xt_cloud_same)((a), (b), (what), __FILE__, __LINE__)

/* Every structural promise of xpbd/soa.h on a built set. g (may be NULL)
 * is the input: then every slot's data must be its source constraint's.
 * max_colours is the builder's limit (0 = the default 32); serial the
 * builder's serial option. */
static void FN(check_set)(const DSET *c, size_t n, const xt_graph *g, uint32_t max_colours,
                          int serial, const char *what)
{
    const uint32_t limit = max_colours ? max_colours : 32;
    size_t bad = 0;
    uint32_t *scratch = malloc((n ? n : 1) * sizeof *scratch);
    REQUIRE(scratch != NULL);
    ENSURE_STATUS(SFX(xpbd_distance_set_validate)(c, n, scratch, &bad), XPBD_OK);
    free(scratch);
    if (g)
        ENSURE_INT(c->count, g->count);
    ENSURE(c->colours <= limit);
    if (c->slots == 0) {
        ENSURE_INT(c->count, 0);
        return;
    }
    ENSURE_INT(c->colour_begin[0], 0);
    ENSURE_INT(c->overflow_begin, c->colour_begin[c->colours]);
    ENSURE(c->overflow_begin <= c->slots);
    uint32_t real = c->slots - c->overflow_begin;
    /* stamp[p] = 1 + the colour that last used particle p */
    uint32_t *stamp = calloc(n + 1, sizeof *stamp);
    unsigned char *seen = calloc(c->count + 1, 1);
    /* endpoint_in[p] = bitset of colours touching particle p */
    uint64_t *touch = calloc(n + 1, sizeof *touch);
    if (!stamp || !seen || !touch) {
        free(stamp);
        free(seen);
        free(touch);
        ENSURE(!"out of memory");
        return;
    }
    int shared = 0, misplaced = 0, bad_pad = 0, bad_data = 0, dup = 0;
    for (uint32_t k = 0; k < c->colours; ++k) {
        const uint32_t b0 = c->colour_begin[k], b1 = c->colour_begin[k + 1];
        if (b0 % XPBD_BATCH != 0 || b1 % XPBD_BATCH != 0 || b1 <= b0) {
            fprintf(stderr, "%s: colour %u spans [%u, %u)\n", what, (unsigned)k, (unsigned)b0,
                    (unsigned)b1);
            misplaced++;
            continue;
        }
        /* a colour exists because something is in it, and pads less than a batch */
        if (c->colour_size[k] == 0 || c->colour_size[k] > b1 - b0 ||
            b1 - b0 - c->colour_size[k] >= XPBD_BATCH)
            misplaced++;
        real += c->colour_size[k];
        for (uint32_t s = b0; s < b1; ++s) {
            const int pad = s >= b0 + c->colour_size[k];
            if (pad) {
                if (c->source[s] != XPBD_PAD || c->i0[s] != c->i1[s] || c->i0[s] >= n ||
                    c->lambda[s] != 0 || c->rest[s] != 1 || c->compliance[s] != 0)
                    bad_pad++;
                continue;
            }
            if (c->source[s] == XPBD_PAD) {
                bad_pad++;
                continue;
            }
            const uint32_t a = c->i0[s], b = c->i1[s];
            if (a >= n || b >= n || a == b) {
                bad_data++;
                continue;
            }
            if (stamp[a] == k + 1 || stamp[b] == k + 1)
                shared++;
            stamp[a] = stamp[b] = k + 1;
            touch[a] |= 1ull << k;
            touch[b] |= 1ull << k;
        }
    }
    for (uint32_t s = c->overflow_begin; s < c->slots; ++s)
        if (c->source[s] == XPBD_PAD)
            bad_pad++;
    /* every input constraint exactly once, with its own data */
    for (uint32_t s = 0; s < c->slots; ++s) {
        const uint32_t src = c->source[s];
        if (src == XPBD_PAD)
            continue;
        if (src >= c->count) {
            bad_data++;
            continue;
        }
        if (seen[src]++)
            dup++;
        if (g && (c->i0[s] != g->i0[src] || c->i1[s] != g->i1[src] ||
                  c->rest[s] != (R)g->rest[src] ||
                  c->compliance[s] != (R)g->compliance[src]))
            bad_data++;
    }
    size_t missing = 0;
    for (uint32_t k = 0; k < c->count; ++k)
        missing += !seen[k];
    /* overflow only holds what fits in no colour: both endpoints together
     * touch every one of the `limit` colours */
    int fits = 0;
    if (serial) {
        ENSURE_INT(c->colours, 0);
    } else if (c->slots > c->overflow_begin) {
        ENSURE_INT(c->colours, limit);
        const uint64_t all = limit == 64 ? ~0ull : (1ull << limit) - 1ull;
        for (uint32_t s = c->overflow_begin; s < c->slots; ++s)
            if (c->i0[s] < n && c->i1[s] < n && (touch[c->i0[s]] | touch[c->i1[s]]) != all)
                fits++;
    }
    if (shared || misplaced || bad_pad || bad_data || dup || missing || fits ||
        real != c->count)
        fprintf(stderr,
                "%s: shared %d, misplaced %d, bad padding %d, bad data %d, duplicated %d, "
                "missing %zu, overflow that fits %d, real %u of %u\n",
                what, shared, misplaced, bad_pad, bad_data, dup, missing, fits, (unsigned)real,
                (unsigned)c->count);
    ENSURE_INT(shared, 0);
    ENSURE_INT(misplaced, 0);
    ENSURE_INT(bad_pad, 0);
    ENSURE_INT(bad_data, 0);
    ENSURE_INT(dup, 0);
    ENSURE_INT(missing, 0);
    ENSURE_INT(fits, 0);
    ENSURE_INT(real, c->count);
    free(stamp);
    free(seen);
    free(touch);
}

static void FN(colour_random)(void)
{
    const xt_graph_kind kinds[] = {XT_MATCHING, XT_RANDOM, XT_STAR, XT_DENSE};
    const size_t sizes[] = {0, 1, 5, 16, 17, 100, 3000};
    const uint32_t limits[] = {0, 2, 7, 64};
    char what[128];
    for (size_t ki = 0; ki < 4; ++ki)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
            for (size_t li = 0; li < 4; ++li) {
                xt_graph g;
                xt_rng rng = {0xc0100ull + ki * 1000 + si * 10 + li};
                xt_graph_make(&g, &rng, kinds[ki], sizes[si], si % 2, si % 3 == 0);
                xpbd_colouring_options opt = {.max_colours = limits[li], .serial = 0};
                DSET c;
                snprintf(what, sizeof what, "%s kind %d size %zu max_colours %u",
                         R_F64 ? "f64" : "f32", (int)kinds[ki], sizes[si], (unsigned)limits[li]);
                ENSURE_STATUS(SFX(xt_graph_build)(&g, &opt, &c), XPBD_OK);
                FN(check_set)(&c, g.particles, &g, limits[li], 0, what);
                /* kind-specific shapes */
                if (kinds[ki] == XT_MATCHING && g.count > 0) {
                    /* disjoint pairs (plus dedicated pairs): one colour */
                    ENSURE_INT(c.colours, 1);
                    ENSURE_INT(c.colour_size[0], g.count);
                }
                if (kinds[ki] == XT_STAR) {
                    /* every spoke shares the hub: one spoke per colour */
                    const uint32_t lim = limits[li] ? limits[li] : 32;
                    const uint32_t spokes = (uint32_t)sizes[si];
                    const uint32_t coloured = spokes < lim ? spokes : lim;
                    if (g.count == spokes) {
                        ENSURE_INT(c.colours, coloured);
                        ENSURE_INT(c.slots - c.overflow_begin, spokes - coloured);
                        ENSURE_INT(c.slots, coloured * XPBD_BATCH + (spokes - coloured));
                    }
                }
                SFX(xpbd_distance_set_free)(&c);
                ENSURE(c.block_ == NULL && c.slots == 0);
                xt_graph_free(&g);
            }
}

/* A coloured, padded set solved with the kernel table colour by colour
 * (overflow serially) equals the same constraints solved one by one with
 * the serial functions in slot order, and equals a padding-free serial set
 * holding the constraints in that order: padding changes nothing, and
 * padding lambda stays 0. */
static void FN(colour_padding)(void)
{
    const R h = (R)(1.0 / 240.0);
    const xt_graph_kind kinds[] = {XT_RANDOM, XT_STAR, XT_DENSE, XT_MATCHING};
    const size_t sizes[] = {500, 40, 300, 21};
    for (size_t ki = 0; ki < 4; ++ki)
        for (int pbd = 0; pbd < 2; ++pbd) {
            xt_graph g, gs;
            xt_rng rng = {0x9add00ull + ki};
            xt_graph_make(&g, &rng, kinds[ki], sizes[ki], 2, 1);
            xpbd_colouring_options opt = {.max_colours = kinds[ki] == XT_STAR ? 64 : 0, .serial = 0};
            DSET c, d, s;
            REQUIRE_STATUS(SFX(xt_graph_build)(&g, &opt, &c), XPBD_OK);
            REQUIRE_STATUS(SFX(xt_graph_build)(&g, &opt, &d), XPBD_OK);
            /* the input in slot order, padding dropped, built serially */
            gs = g;
            gs.i0 = malloc((g.count + 1) * sizeof *gs.i0);
            gs.i1 = malloc((g.count + 1) * sizeof *gs.i1);
            gs.rest = malloc((g.count + 1) * sizeof *gs.rest);
            gs.compliance = malloc((g.count + 1) * sizeof *gs.compliance);
            uint32_t *rank = malloc((c.slots + 1) * sizeof *rank);
            REQUIRE(gs.i0 && gs.i1 && gs.rest && gs.compliance && rank);
            size_t m = 0;
            for (uint32_t k = 0; k < c.slots; ++k) {
                rank[k] = UINT32_MAX;
                if (c.source[k] == XPBD_PAD)
                    continue;
                gs.i0[m] = g.i0[c.source[k]];
                gs.i1[m] = g.i1[c.source[k]];
                gs.rest[m] = g.rest[c.source[k]];
                gs.compliance[m] = g.compliance[c.source[k]];
                rank[k] = (uint32_t)m++;
            }
            ENSURE_INT(m, g.count);
            xpbd_colouring_options serial = {.max_colours = 0, .serial = 1};
            REQUIRE_STATUS(SFX(xt_graph_build)(&gs, &serial, &s), XPBD_OK);
            ENSURE_INT(s.colours, 0);
            ENSURE_INT(s.slots, g.count);

            CL a, b, e;
            REQUIRE(SFX(xt_cloud_alloc)(&a, g.particles) &&
                    SFX(xt_cloud_alloc)(&b, g.particles) &&
                    SFX(xt_cloud_alloc)(&e, g.particles));
            SFX(xt_cloud_random)(&a, &rng, 0.1, &g);
            SFX(xt_cloud_copy)(&b, &a);
            SFX(xt_cloud_copy)(&e, &a);
            uint32_t *pad_i0 = malloc((c.slots + 1) * sizeof *pad_i0);
            REQUIRE(pad_i0);
            memcpy(pad_i0, c.i0, c.slots * sizeof *pad_i0);
            for (int it = 0; it < 5; ++it) {
                uint32_t sa = 0, sb = 0, se = 0;
                for (uint32_t col = 0; col < c.colours; ++col) {
                    const uint32_t nb = xpbd_colour_batches(c.colour_begin, col);
                    sa += pbd ? XT_TAB->distance_pbd(&a.p, &c, col, 0, nb, (R)0.9)
                              : XT_TAB->distance_xpbd(&a.p, &c, col, 0, nb, h);
                }
                sa += pbd ? SFX(xpbd_serial_distance_pbd)(&a.p, &c, c.overflow_begin, c.slots,
                                                             (R)0.9)
                          : SFX(xpbd_serial_distance_xpbd)(&a.p, &c, c.overflow_begin,
                                                              c.slots, h);
                sb = pbd ? SFX(xpbd_serial_distance_pbd)(&b.p, &d, 0, d.slots, (R)0.9)
                         : SFX(xpbd_serial_distance_xpbd)(&b.p, &d, 0, d.slots, h);
                se = pbd ? SFX(xpbd_serial_distance_pbd)(&e.p, &s, 0, s.slots, (R)0.9)
                         : SFX(xpbd_serial_distance_xpbd)(&e.p, &s, 0, s.slots, h);
                ENSURE_INT(sa, sb);
                ENSURE_INT(sa, se);
                ENSURE(sa >= 3); /* the two coincident and one static pair */
                SAMECL(&a, &b, "coloured table solve vs serial slot order");
                SAMECL(&a, &e, "coloured table solve vs padding-free serial set");
                SAMER(c.lambda, d.lambda, c.slots, "lambda: table vs serial slot order");
            }
            int pad_lambda = 0, lambda_map = 0, nonzero = 0;
            for (uint32_t k = 0; k < c.slots; ++k) {
                if (c.source[k] == XPBD_PAD) {
                    pad_lambda += c.lambda[k] != 0;
                    continue;
                }
                nonzero += c.lambda[k] != 0;
                lambda_map += memcmp(&c.lambda[k], &s.lambda[rank[k]], sizeof(R)) != 0;
            }
            ENSURE_INT(pad_lambda, 0);
            ENSURE_INT(lambda_map, 0);
            ENSURE(pbd ? nonzero == 0 : nonzero > 0);
            SAME_U32(c.i0, pad_i0, c.slots, "slot indices after solves");
            FN(check_set)(&c, g.particles, &g, opt.max_colours, 0, "after solves");
            free(pad_i0);
            free(rank);
            free(gs.i0);
            free(gs.i1);
            free(gs.rest);
            free(gs.compliance);
            SFX(xt_cloud_free)(&a);
            SFX(xt_cloud_free)(&b);
            SFX(xt_cloud_free)(&e);
            SFX(xpbd_distance_set_free)(&c);
            SFX(xpbd_distance_set_free)(&d);
            SFX(xpbd_distance_set_free)(&s);
            xt_graph_free(&g);
        }
}

/* serial = 1: no colours, everything in the overflow range in input order. */
static void FN(colour_serial)(void)
{
    const size_t sizes[] = {0, 1, 17, 400};
    for (size_t si = 0; si < 4; ++si)
        for (uint32_t lim = 0; lim <= 5; lim += 5) {
            xt_graph g;
            xt_rng rng = {0x5e41ull + si};
            xt_graph_make(&g, &rng, XT_RANDOM, sizes[si], 1, 1);
            xpbd_colouring_options opt = {.max_colours = lim, .serial = 1};
            DSET c;
            REQUIRE_STATUS(SFX(xt_graph_build)(&g, &opt, &c), XPBD_OK);
            ENSURE_INT(c.colours, 0);
            ENSURE_INT(c.overflow_begin, 0);
            ENSURE_INT(c.slots, g.count);
            ENSURE_INT(c.count, g.count);
            int order = 0;
            for (uint32_t s = 0; s < c.slots; ++s)
                order += c.source[s] != s || c.i0[s] != g.i0[s] || c.i1[s] != g.i1[s] ||
                         c.rest[s] != (R)g.rest[s] || c.lambda[s] != 0;
            ENSURE_INT(order, 0);
            FN(check_set)(&c, g.particles, &g, 0, 1, "serial");
            SFX(xpbd_distance_set_free)(&c);
            xt_graph_free(&g);
        }
}

#undef DSET
#undef CL
#undef FN
#undef SAMER
#undef SAMECL
#undef XT_TAB
#define XPBD_PRECISION_END
#include "precision.h"
