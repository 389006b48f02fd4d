/* SPDX-License-Identifier: MIT */
/* Colouring: the builder's layout promises (xpbd/soa.h) on random graphs,
 * stars, the SPEC S1 cloth, and the options. */
#include "fixture.h"
#include <xpbd/reference.h>

#include <scenes.h>
#include <stdlib.h>

#define XPBD_REAL_F32
#include "colour_tmpl.h"
#define XPBD_REAL_F64
#include "colour_tmpl.h"

/* The S1 cloth: 8 x 6 grid, 7*6 + 8*5 = 82 links (SPEC S1); with shear
 * both diagonals of the 7*5 quads as well: 152. */
static void colour_cloth(void)
{
    for (int shear = 0; shear < 2; ++shear) {
        xs_world_f64 w;
        REQUIRE_STATUS(xs_cloth_f64(&w, 8, 6, 0.1, 1e-4, shear, 0), XPBD_OK);
        ENSURE_INT(w.set.count, shear ? 152 : 82);
        ENSURE_INT(w.p.count, 48);
        check_set_f64(&w.set, w.p.count, NULL, 0, 0, shear ? "cloth with shear" : "cloth");
        /* a grid's links have degree <= 4 at each end (8 with shear): greedy
         * first-fit needs at most 2*4-1 (2*8-1) colours, and never overflows */
        ENSURE(w.set.colours <= (shear ? 15u : 7u));
        ENSURE_INT(w.set.slots - w.set.overflow_begin, 0);
        printf("      cloth%s: %u constraints in %u colours, %u slots\n", shear ? " + shear" : "",
               (unsigned)w.set.count, (unsigned)w.set.colours, (unsigned)w.set.slots);

        /* solve it: padding lambda stays 0, real ones move */
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xt_isa;
        cfg.substeps = 2;
        for (int f = 0; f < 10; ++f)
            ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &w.p, &w.set, w.scratch, w.scratch_bytes,
                                        NULL),
                          XPBD_OK);
        int pad_lambda = 0, moved = 0;
        for (uint32_t s = 0; s < w.set.slots; ++s) {
            if (w.set.source[s] == XPBD_PAD)
                pad_lambda += w.set.lambda[s] != 0;
            else
                moved += w.set.lambda[s] != 0;
        }
        ENSURE_INT(pad_lambda, 0);
        ENSURE(moved > 0);
        check_set_f64(&w.set, w.p.count, NULL, 0, 0, "cloth after steps");
        xs_world_free_f64(&w);
    }
}

/* The limits and exact layouts of small hand-made graphs. */
static void colour_options(void)
{
    uint32_t i0[70], i1[70];
    float rest[70], comp[70];
    for (uint32_t k = 0; k < 70; ++k) { /* a star: hub 0, spokes 1..70 */
        i0[k] = 0;
        i1[k] = k + 1;
        rest[k] = 1;
        comp[k] = 0;
    }
    xpbd_distance_set_f32 c;
    size_t bad = 0;

    /* more colours than the bitset holds */
    xpbd_colouring_options opt = {.max_colours = XPBD_MAX_COLOURS + 1, .serial = 0};
    memset(&c, 0xab, sizeof c);
    ENSURE_STATUS(xpbd_distance_set_build_f32(&c, 71, 70, i0, i1, rest, comp, &opt, &bad),
                  XPBD_ERR_CONFIG);
    ENSURE(c.block_ == NULL && c.slots == 0 && c.count == 0); /* *out zeroed */
    opt.max_colours = 1000;
    ENSURE_STATUS(xpbd_distance_set_build_f32(&c, 71, 70, i0, i1, rest, comp, &opt, &bad),
                  XPBD_ERR_CONFIG);
    xpbd_distance_set_f64 c64;
    double r64[1] = {1}, k64[1] = {0};
    opt.max_colours = 65;
    ENSURE_STATUS(xpbd_distance_set_build_f64(&c64, 71, 1, i0, i1, r64, k64, &opt, &bad),
                  XPBD_ERR_CONFIG);

    /* 64 is allowed: 64 colours of one spoke each, 6 in the overflow */
    opt.max_colours = XPBD_MAX_COLOURS;
    REQUIRE_STATUS(xpbd_distance_set_build_f32(&c, 71, 70, i0, i1, rest, comp, &opt, &bad),
                   XPBD_OK);
    ENSURE_INT(c.colours, 64);
    ENSURE_INT(c.overflow_begin, 64 * XPBD_BATCH);
    ENSURE_INT(c.slots, 64 * XPBD_BATCH + 6);
    for (uint32_t k = 0; k < 64; ++k) {
        ENSURE_INT(c.colour_size[k], 1);
        ENSURE_INT(c.source[c.colour_begin[k]], k);
        ENSURE_INT(xpbd_colour_batches(c.colour_begin, k), 1);
    }
    check_set_f32(&c, 71, NULL, 64, 0, "star 70, max 64");
    xpbd_distance_set_free_f32(&c);

    /* the default (0) is 32 colours */
    REQUIRE_STATUS(xpbd_distance_set_build_f32(&c, 71, 70, i0, i1, rest, comp, NULL, &bad), XPBD_OK);
    ENSURE_INT(c.colours, 32);
    ENSURE_INT(c.slots - c.overflow_begin, 38);
    xpbd_distance_set_free_f32(&c);

    /* a triangle with max_colours 2: the third edge fits in no colour */
    const uint32_t t0[3] = {0, 1, 2}, t1[3] = {1, 2, 0};
    opt.max_colours = 2;
    REQUIRE_STATUS(xpbd_distance_set_build_f32(&c, 3, 3, t0, t1, rest, comp, &opt, &bad), XPBD_OK);
    ENSURE_INT(c.colours, 2);
    ENSURE_INT(c.slots, 2 * XPBD_BATCH + 1);
    ENSURE_INT(c.source[c.overflow_begin], 2);
    check_set_f32(&c, 3, NULL, 2, 0, "triangle, max 2");
    xpbd_distance_set_free_f32(&c);

    /* 40 disjoint pairs: one colour of 40, padded to 48 */
    uint32_t m0[40], m1[40];
    for (uint32_t k = 0; k < 40; ++k) {
        m0[k] = 2 * k + 1;
        m1[k] = 2 * k;
    }
    REQUIRE_STATUS(xpbd_distance_set_build_f32(&c, 80, 40, m0, m1, rest, comp, NULL, &bad), XPBD_OK);
    ENSURE_INT(c.colours, 1);
    ENSURE_INT(c.colour_size[0], 40);
    ENSURE_INT(c.colour_begin[1], 48);
    ENSURE_INT(c.slots, 48);
    ENSURE_INT(xpbd_colour_batches(c.colour_begin, 0), 3);
    for (uint32_t s = 40; s < 48; ++s) {
        ENSURE_INT(c.source[s], XPBD_PAD);
        ENSURE_INT(c.i0[s], c.i1[s]);
    }
    xpbd_distance_set_free_f32(&c);

    /* nothing at all */
    REQUIRE_STATUS(xpbd_distance_set_build_f32(&c, 5, 0, NULL, NULL, NULL, NULL, NULL, &bad),
                   XPBD_OK);
    ENSURE_INT(c.slots, 0);
    ENSURE_INT(c.colours, 0);
    ENSURE_STATUS(xpbd_distance_set_validate_f32(&c, 5, NULL, &bad), XPBD_OK);
    xpbd_distance_set_free_f32(&c);
    xpbd_distance_set_free_f32(NULL); /* allowed */
}

/* Full 16-slot vectors of one colour's slots that are runs of the widest
 * path: in each group of 4 slots, i0 and i1 each stepping by 1, or i0 by 2
 * with i1 = i0 + 1, one of the two in all four groups. */
static uint32_t run_vectors(const uint32_t *i0, const uint32_t *i1, uint32_t n)
{
    uint32_t runs = 0;
    for (uint32_t s = 0; s + 16 <= n; s += 16) {
        int unit = 1, pairs = 1;
        for (uint32_t l = 0; l < 16; ++l) {
            const uint32_t g = s + l / 4 * 4, m = l % 4;
            unit &= i0[s + l] == i0[g] + m && i1[s + l] == i1[g] + m;
            pairs &= i0[s + l] == i0[g] + 2 * m && i1[s + l] == i0[s + l] + 1;
        }
        runs += (uint32_t)(unit || pairs);
    }
    return runs;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The runs option (xpbd/soa.h): constraints coloured and laid out by
 * offset i1 - i0, then i0, whatever the input order. */
static void colour_runs(void)
{
    /* a chain 0-1-2-...-63 given backwards: runs puts the even links in
     * colour 0 and the odd ones in colour 1, each in particle order (one
     * run of pairs side by side per colour); input order colours the
     * backwards chain from its far end */
    enum { N = 64, M = N - 1 };
    uint32_t i0[M], i1[M];
    double rest[M], comp[M];
    for (uint32_t k = 0; k < M; ++k) {
        i0[k] = M - 1 - k;
        i1[k] = M - k;
        rest[k] = 1;
        comp[k] = 0;
    }
    const xpbd_colouring_options runs = {.runs = 1};
    xpbd_distance_set_f64 c;
    size_t bad = 0;
    REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, N, M, i0, i1, rest, comp, &runs, &bad),
                   XPBD_OK);
    ENSURE_INT(c.colours, 2);
    ENSURE_INT(c.colour_size[0], 32);
    ENSURE_INT(c.colour_size[1], 31);
    for (uint32_t k = 0; k < 2; ++k)
        for (uint32_t j = 0; j < c.colour_size[k]; ++j) {
            const uint32_t s = c.colour_begin[k] + j, a = 2 * j + k;
            ENSURE_INT(c.i0[s], a);
            ENSURE_INT(c.i1[s], a + 1);
            ENSURE_INT(c.source[s], M - 1 - a);
        }
    check_set_f64(&c, N, NULL, 0, 0, "backwards chain, runs");
    xpbd_distance_set_free_f64(&c);
    const xpbd_colouring_options input = {.layout = XPBD_LAYOUT_INPUT};
    REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, N, M, i0, i1, rest, comp, &input, &bad),
                   XPBD_OK);
    ENSURE_INT(c.i0[0], M - 1);
    ENSURE_INT(c.i0[1], M - 3);
    xpbd_distance_set_free_f64(&c);

    /* two rows of 15 parallel edges (particles c -> c + 16 and 32 + c ->
     * 48 + c, c = 0..14), given backwards: one colour; each run's three
     * whole groups of 4 fill a vector with the first group of the next
     * run, what is left of the groups follows, then the last 3 slots of
     * each run */
    {
        enum { R = 30 };
        uint32_t a0[R], a1[R];
        double r1[R], c0[R];
        for (uint32_t k = 0; k < R; ++k) {
            const uint32_t c = R - 1 - k;
            a0[k] = c < 15 ? c : 32 + c - 15;
            a1[k] = a0[k] + 16;
            r1[k] = 1;
            c0[k] = 0;
        }
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, 64, R, a0, a1, r1, c0, &runs, &bad),
                       XPBD_OK);
        ENSURE_INT(c.colours, 1);
        ENSURE_INT(c.colour_size[0], R);
        const uint32_t want[R] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 32, 33, 34,
                                  35, 36, 37, 38, 39, 40, 41, 42, 43, 12, 13, 14, 44, 45, 46};
        for (uint32_t s = 0; s < R; ++s) {
            ENSURE_INT(c.i0[s], want[s]);
            ENSURE_INT(c.i1[s], want[s] + 16);
        }
        ENSURE_INT(run_vectors(c.i0, c.i1, c.colour_size[0]), 1);
        check_set_f64(&c, 64, NULL, 0, 0, "two rows of 15, runs");
        xpbd_distance_set_free_f64(&c);
    }

    /* a shuffled grid with both diagonals: every constraint once, and more
     * vectors that are runs than the same colours in (offset, i0) order
     * have; serial wins over runs */
    xt_rng rng = {0x5eedull};
    xt_graph g;
    xt_graph_make(&g, &rng, XT_GRID, 5000, 0, 0);
    REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, g.particles, g.count, g.i0, g.i1, g.rest,
                                               g.compliance, &runs, &bad),
                   XPBD_OK);
    check_set_f64(&c, g.particles, &g, 0, 0, "grid, runs");
    uint32_t packed = 0, sorted = 0;
    for (uint32_t k = 0; k < c.colours; ++k) {
        const uint32_t b = c.colour_begin[k], n = c.colour_size[k];
        packed += run_vectors(c.i0 + b, c.i1 + b, n);
        uint64_t *key = malloc((n ? n : 1) * sizeof *key);
        uint32_t *s0 = malloc((n ? n : 1) * sizeof *s0), *s1 = malloc((n ? n : 1) * sizeof *s1);
        REQUIRE(key && s0 && s1);
        for (uint32_t s = 0; s < n; ++s) /* offset (biased) high, slot low */
            key[s] = (uint64_t)(c.i1[b + s] - c.i0[b + s] + 0x80000000u) << 32 | c.i0[b + s];
        qsort(key, n, sizeof *key, cmp_u64);
        for (uint32_t s = 0; s < n; ++s) {
            s0[s] = (uint32_t)key[s];
            s1[s] = s0[s] + (uint32_t)(key[s] >> 32) - 0x80000000u;
        }
        sorted += run_vectors(s0, s1, n);
        free(key);
        free(s0);
        free(s1);
    }
    printf("      grid %zu edges, runs: %u vectors of runs (%u in (offset, i0) order)\n",
           g.count, (unsigned)packed, (unsigned)sorted);
    ENSURE(packed > sorted);
    xpbd_distance_set_free_f64(&c);
    const xpbd_colouring_options both = {.serial = 1, .runs = 1};
    REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, g.particles, g.count, g.i0, g.i1, g.rest,
                                               g.compliance, &both, &bad),
                   XPBD_OK);
    ENSURE_INT(c.colours, 0);
    for (uint32_t s = 0; s < c.slots; ++s)
        ENSURE_INT(c.source[s], s);
    xpbd_distance_set_free_f64(&c);
    xt_graph_free(&g);
}

/* One regions set's promises (xpbd/soa.h) on a row-numbered nx-wide
 * shear cloth of m constraints: the set's own checks (check_set: the
 * validator, every constraint exactly once, colours without repeats); the
 * interiors, tagged here by hand, share no particle and are ranges of
 * increasing particle indices; for regions whose interiors cannot run out
 * of colours (cap >= 16 > 15, greedy first-fit's bound for degree 8 at
 * each end: 2*(8-1)+1), the boundary and the balance bounds derived in
 * colour_regions. */
static void colour_regions_check(const xpbd_distance_set_f64 *c, size_t n, uint32_t nx, size_t m,
                                 uint32_t regions, const char *what)
{
    check_set_f64(c, n, NULL, XPBD_MAX_COLOURS, 0, what);
    REQUIRE(c->regions == regions);
    REQUIRE(c->region_colour != NULL);
    ENSURE_INT(c->region_colour[0], 0);
    uint32_t *owner = malloc(n * sizeof *owner);
    REQUIRE(owner != NULL);
    for (size_t p = 0; p < n; ++p)
        owner[p] = UINT32_MAX;
    size_t shared = 0, unordered = 0;
    uint32_t last_max = 0;
    int any = 0;
    for (uint32_t r = 0; r < regions; ++r) {
        ENSURE(c->region_colour[r + 1] >= c->region_colour[r]);
        uint32_t lo = UINT32_MAX, hi = 0, interior = 0;
        for (uint32_t k = c->region_colour[r]; k < c->region_colour[r + 1]; ++k)
            for (uint32_t s = c->colour_begin[k]; s < c->colour_begin[k] + c->colour_size[k];
                 ++s) {
                const uint32_t a = c->i0[s], b = c->i1[s];
                shared += (owner[a] != UINT32_MAX && owner[a] != r) +
                          (owner[b] != UINT32_MAX && owner[b] != r);
                owner[a] = owner[b] = r;
                lo = a < lo ? a : lo;
                lo = b < lo ? b : lo;
                hi = a > hi ? a : hi;
                hi = b > hi ? b : hi;
                ++interior;
            }
        if (interior) {
            unordered += any && lo <= last_max;
            last_max = hi;
            any = 1;
        }
        if (regions <= 3) /* each range's share of m, less what crosses up */
            ENSURE((double)interior > (double)m / regions - 4.0 - 4.0 * (nx + 1));
    }
    ENSURE(c->region_colour[regions] <= c->colours);
    ENSURE_INT(shared, 0);
    ENSURE_INT(unordered, 0);
    size_t boundary = c->slots - c->overflow_begin;
    for (uint32_t k = c->region_colour[regions]; k < c->colours; ++k)
        boundary += c->colour_size[k];
    if (regions <= 3)
        ENSURE(boundary <= (size_t)(regions - 1) * 4u * (nx + 1u));
    free(owner);
}

/* Regions (xpbd_colouring_options.regions) on a 40 x 30 shear cloth
 * numbered in rows (index j*40 + i): m = 39*30 + 40*29 + 2*39*29 = 4592
 * constraints, at most 4 with a given lower particle (right, down, both
 * diagonals of the quad below-right), none spanning more than nx + 1 = 41
 * indices. A range of particles holds m/regions constraints by their lower
 * particle to within 4 (one particle's worth at its first cut), and at
 * most 4 * 41 of those cross its upper cut: an interior holds more than
 * m/regions - 4 - 164; the boundary, at most 4 * 41 per cut. Then the
 * options' rules, the validator's region rules and the step's refusal. */
static void colour_regions(void)
{
    enum { NX = 40, NY = 30 };
    xs_world_f64 w;
    REQUIRE_STATUS(xs_cloth_f64(&w, NX, NY, 0.02, 1e-6, 1, 1), XPBD_OK);
    const size_t n = w.p.count, m = w.set.count;
    ENSURE_INT(m, 4592);
    const uint32_t counts[] = {2, 3, 4, 7, 16};
    for (int runs = 0; runs < 2; ++runs)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            const xpbd_colouring_options opt = {.runs = runs, .regions = counts[k]};
            REQUIRE_STATUS(xs_world_recolour_f64(&w, &opt), XPBD_OK);
            char what[80];
            snprintf(what, sizeof what, "cloth, %u regions%s", (unsigned)counts[k],
                     runs ? ", runs" : "");
            colour_regions_check(&w.set, n, NX, m, counts[k], what);
            if (k == 1 && !runs)
                printf("      %s: %u colours (%u interior), %u boundary slots\n", what,
                       (unsigned)w.set.colours, (unsigned)w.set.region_colour[counts[k]],
                       (unsigned)(w.set.overflow_begin -
                                  w.set.colour_begin[w.set.region_colour[counts[k]]]));
        }
    /* the options: 1 and more than XPBD_MAX_REGIONS refused, *out zeroed;
     * with serial ignored */
    uint32_t i0[3] = {0, 1, 2}, i1[3] = {1, 2, 3};
    double rest[3] = {1, 1, 1}, comp[3] = {0, 0, 0};
    const uint32_t bad_counts[] = {1, XPBD_MAX_REGIONS + 1, UINT32_MAX};
    for (size_t k = 0; k < 3; ++k) {
        xpbd_distance_set_f64 c;
        memset(&c, 0x5a, sizeof c);
        const xpbd_colouring_options opt = {.regions = bad_counts[k]};
        ENSURE_STATUS(xpbd_distance_set_build_f64(&c, 4, 3, i0, i1, rest, comp, &opt, NULL),
                      XPBD_ERR_CONFIG);
        ENSURE(c.block_ == NULL && c.regions == 0 && c.region_colour == NULL && c.slots == 0);
    }
    {
        xpbd_distance_set_f64 c;
        const xpbd_colouring_options serial = {.serial = 1, .regions = 2};
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, 4, 3, i0, i1, rest, comp, &serial, NULL),
                       XPBD_OK);
        ENSURE_INT(c.regions, 0);
        ENSURE(c.region_colour == NULL);
        ENSURE_INT(c.overflow_begin, 0);
        xpbd_distance_set_free_f64(&c);
        /* the chain 0-1-2-3 in two regions of two particles: {0,1} and
         * {2,3} hold one link each, the link 1-2 is the boundary */
        const xpbd_colouring_options two = {.regions = 2};
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&c, 4, 3, i0, i1, rest, comp, &two, NULL),
                       XPBD_OK);
        ENSURE_INT(c.regions, 2);
        ENSURE_INT(c.colours, 3);
        ENSURE_INT(c.region_colour[0], 0);
        ENSURE_INT(c.region_colour[1], 1);
        ENSURE_INT(c.region_colour[2], 2);
        ENSURE_INT(c.source[c.colour_begin[0]], 0);
        ENSURE_INT(c.source[c.colour_begin[1]], 2);
        ENSURE_INT(c.source[c.colour_begin[2]], 1);
        xpbd_distance_set_free_f64(&c);
    }
    /* the validator: region fields out of order, and two interiors sharing
     * a particle (region 1's first slot moved onto a particle of region
     * 0's interior: no repeat within its colour, so only the region rule
     * sees it); the step refuses it naming that slot, on 1 and 2 threads,
     * and writes nothing */
    const xpbd_colouring_options four = {.regions = 4};
    REQUIRE_STATUS(xs_world_recolour_f64(&w, &four), XPBD_OK);
    xpbd_distance_set_f64 *c = &w.set;
    uint32_t *stamp = malloc(n * sizeof *stamp);
    REQUIRE(stamp != NULL);
    size_t bad = 0;
    const uint32_t keep = c->region_colour[2];
    c->region_colour[2] = c->region_colour[1] - 1;
    ENSURE_STATUS(xpbd_distance_set_validate_f64(c, n, stamp, &bad), XPBD_ERR_ARGUMENT);
    c->region_colour[2] = keep;
    c->regions = XPBD_MAX_REGIONS + 1;
    ENSURE_STATUS(xpbd_distance_set_validate_f64(c, n, stamp, &bad), XPBD_ERR_ARGUMENT);
    c->regions = 4;
    uint32_t *const keep_rc = c->region_colour;
    c->region_colour = NULL;
    ENSURE_STATUS(xpbd_distance_set_validate_f64(c, n, stamp, &bad), XPBD_ERR_ARGUMENT);
    c->region_colour = keep_rc;
    ENSURE_STATUS(xpbd_distance_set_validate_f64(c, n, stamp, &bad), XPBD_OK);
    const uint32_t s1 = c->colour_begin[c->region_colour[1]];
    const uint32_t theirs = c->i0[c->colour_begin[0]]; /* region 0's */
    const uint32_t was = c->i1[s1];
    REQUIRE(theirs != c->i0[s1]);
    c->i1[s1] = theirs;
    ENSURE_STATUS(xpbd_distance_set_validate_f64(c, n, stamp, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad, s1);
    double *before = malloc(10 * n * sizeof *before);
    REQUIRE(before != NULL);
    memcpy(before, w.p.x, n * sizeof *before);
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.threads = threads;
        xpbd_step_counters k;
        ENSURE_STATUS(xpbd_step_f64(&cfg, 1.0 / 60, &w.p, c, w.scratch, w.scratch_bytes, &k),
                      XPBD_ERR_INDEX);
        ENSURE_INT(k.bad_index, s1);
        ENSURE_INT(k.bad_part, XPBD_PART_DISTANCE);
        SAME_BYTES(w.p.x, before, n * sizeof *before, "positions after a refused step");
    }
    c->i1[s1] = was;
    free(before);
    free(stamp);
    xs_world_free_f64(&w);
}

/* Two sets built from the same input hold the same slots. */
static int same_set(const xpbd_distance_set_f64 *a, const xpbd_distance_set_f64 *b)
{
    if (a->slots != b->slots || a->colours != b->colours || a->count != b->count)
        return 0;
    for (uint32_t k = 0; k <= a->colours; ++k)
        if (a->colour_begin[k] != b->colour_begin[k])
            return 0;
    for (uint32_t s = 0; s < a->slots; ++s)
        if (a->i0[s] != b->i0[s] || a->i1[s] != b->i1[s] || a->source[s] != b->source[s])
            return 0;
    return 1;
}

/* Real slots in run vectors over a set's colours (run_vectors). */
static uint32_t set_run_slots(const xpbd_distance_set_f64 *c)
{
    uint32_t v = 0;
    for (uint32_t k = 0; k < c->colours; ++k)
        v += run_vectors(c->i0 + c->colour_begin[k], c->i1 + c->colour_begin[k],
                         c->colour_size[k]);
    return 16 * v;
}

/* The default layout (XPBD_LAYOUT_AUTO, xpbd/soa.h): the runs layout on a
 * regular mesh (a grid, with or without its diagonals, in any input
 * order), where it puts at least half of the constraints in run vectors;
 * on an irregular graph, where the runs layout does not, input order as
 * XPBD_LAYOUT_INPUT builds it; the same input always builds the same set;
 * the bad options refused. */
static void colour_layout(void)
{
    const xpbd_colouring_options automatic = {0}, runs = {.runs = 1},
                                 runs2 = {.layout = XPBD_LAYOUT_RUNS},
                                 input = {.layout = XPBD_LAYOUT_INPUT};
    xpbd_distance_set_f64 a, b;
    size_t bad = 0;
    xt_rng rng = {0x1a7ull};
    for (int kind = 0; kind < 3; ++kind) {
        xt_graph g;
        xt_graph_make(&g, &rng, kind == 2 ? XT_RANDOM : XT_GRID, 3000, 0, 0);
        if (kind == 0) { /* a chain 0-1-...-3000, its links in a shuffled order */
            g.particles = g.count + 1;
            for (size_t k = 0; k < g.count; ++k) {
                const size_t j = (k * 1237 + 11) % g.count; /* 1237 is prime to 3000 */
                g.i0[k] = (uint32_t)j;
                g.i1[k] = (uint32_t)j + 1;
            }
        }
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&a, g.particles, g.count, g.i0, g.i1, g.rest,
                                                   g.compliance, &automatic, &bad),
                       XPBD_OK);
        check_set_f64(&a, g.particles, &g, 0, 0, "auto layout");
        const xpbd_colouring_options *want = kind < 2 ? &runs : &input;
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&b, g.particles, g.count, g.i0, g.i1, g.rest,
                                                   g.compliance, want, &bad),
                       XPBD_OK);
        const uint32_t in = set_run_slots(&b);
        printf("      %s, %zu edges: %u in run vectors with the %s layout\n",
               kind == 0 ? "shuffled chain" : kind == 1 ? "grid" : "random graph", g.count,
               (unsigned)in, kind < 2 ? "runs" : "input");
        if (kind < 2) {
            /* regular: the runs layout, slot for slot */
            ENSURE(2 * (size_t)in >= g.count);
            ENSURE(same_set(&a, &b));
            xpbd_distance_set_free_f64(&b);
            REQUIRE_STATUS(xpbd_distance_set_build_f64(&b, g.particles, g.count, g.i0, g.i1,
                                                       g.rest, g.compliance, &runs2, &bad),
                           XPBD_OK);
            ENSURE(same_set(&a, &b));
        } else {
            /* irregular: fewer than half in runs, input order slot for slot */
            ENSURE(2 * (size_t)in < g.count);
            ENSURE(same_set(&a, &b));
            xpbd_distance_set_free_f64(&b);
            REQUIRE_STATUS(xpbd_distance_set_build_f64(&b, g.particles, g.count, g.i0, g.i1,
                                                       g.rest, g.compliance, &runs, &bad),
                           XPBD_OK);
            ENSURE(2 * (size_t)set_run_slots(&b) < g.count);
        }
        xpbd_distance_set_free_f64(&b);
        /* the same input, the same set */
        REQUIRE_STATUS(xpbd_distance_set_build_f64(&b, g.particles, g.count, g.i0, g.i1, g.rest,
                                                   g.compliance, NULL, &bad),
                       XPBD_OK);
        ENSURE(same_set(&a, &b));
        xpbd_distance_set_free_f64(&a);
        xpbd_distance_set_free_f64(&b);
        xt_graph_free(&g);
    }
    /* bad options: not a layout, runs against input order */
    const uint32_t i0[1] = {0}, i1[1] = {1};
    const double r[1] = {1}, k0[1] = {0};
    const xpbd_colouring_options bad3 = {.layout = 3}, badm = {.layout = -1},
                                 clash = {.runs = 1, .layout = XPBD_LAYOUT_INPUT};
    ENSURE_STATUS(xpbd_distance_set_build_f64(&a, 2, 1, i0, i1, r, k0, &bad3, &bad),
                  XPBD_ERR_CONFIG);
    ENSURE(a.block_ == NULL && a.count == 0);
    ENSURE_STATUS(xpbd_distance_set_build_f64(&a, 2, 1, i0, i1, r, k0, &badm, &bad),
                  XPBD_ERR_CONFIG);
    ENSURE_STATUS(xpbd_distance_set_build_f64(&a, 2, 1, i0, i1, r, k0, &clash, &bad),
                  XPBD_ERR_CONFIG);
}

const xt_test xt_tests_colour[] = {
    {"colour.random_f32", colour_random_f32},
    {"colour.random_f64", colour_random_f64},
    {"colour.padding_f32", colour_padding_f32},
    {"colour.padding_f64", colour_padding_f64},
    {"colour.serial_f32", colour_serial_f32},
    {"colour.serial_f64", colour_serial_f64},
    {"colour.cloth", colour_cloth},
    {"colour.options", colour_options},
    {"colour.runs", colour_runs},
    {"colour.regions", colour_regions},
    {"colour.layout", colour_layout},
    {NULL, NULL},
};
