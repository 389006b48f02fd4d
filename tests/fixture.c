/* SPDX-License-Identifier: MIT */
/* Random clouds, graphs and snapshots (see fixture.h). */
#include "fixture.h"

#include <stdlib.h>

#include "scenes.h"

static double compliance_mix(xt_rng *rng)
{
    const uint32_t k = xt_below(rng, 4);
    if (k == 0)
        return 0;
    if (k == 3)
        return xt_range(rng, 10, 1e4);
    return xt_range(rng, 1e-7, 1e-3);
}

/* The first count edges of the side x side grid in row order: at each
 * point, the edges to the right, down, down-right and down-left, those
 * that exist (the grid has at least count). */
static void xt_grid_edges(size_t side, size_t count, uint32_t *i0, uint32_t *i1)
{
    size_t e = 0;
    const uint32_t s = (uint32_t)side;
    for (size_t j = 0; j < side; ++j)
        for (size_t i = 0; i < side; ++i) {
            const uint32_t p = (uint32_t)(j * side + i);
            const int right = i + 1 < side, down = j + 1 < side;
            const uint32_t to[4] = {p + 1, p + s, p + s + 1, p + s - 1};
            const int has[4] = {right, down, right && down, i > 0 && down};
            for (int d = 0; d < 4; ++d)
                if (has[d] && e < count) {
                    i0[e] = p;
                    i1[e++] = to[d];
                }
        }
}

/* The count edges of XT_NEAR_RUNS: block j (slots 16j..16j+15) takes the
 * particles from 160j: a run of type j % 6 (parallel edges in one run or
 * in 4 groups apart; pairs side by side in one run or in 4 groups apart;
 * parallel edges whose i0, or whose i1, has its last group apart), its
 * lane (j / 6) % 17 (none for 16) moved to particle 160j + 144 + lane, in
 * i0 for even j / 102 and in i1 for odd. */
static void xt_near_runs(size_t count, uint32_t *i0, uint32_t *i1)
{
    for (size_t k = 0; k < count; ++k) {
        const size_t j = k / 16, l = k % 16, g = l / 4, m = l % 4;
        const uint32_t p = (uint32_t)(160 * j), apart = g == 3 ? 32 : 0;
        switch (j % 6) {
        case 0:
            i0[k] = p + (uint32_t)l;
            i1[k] = p + 16 + (uint32_t)l;
            break;
        case 1:
            i0[k] = p + (uint32_t)(8 * g + m);
            i1[k] = p + 64 + (uint32_t)(8 * g + m);
            break;
        case 2:
            i0[k] = p + (uint32_t)(2 * l);
            i1[k] = i0[k] + 1;
            break;
        case 3:
            i0[k] = p + (uint32_t)(16 * g + 2 * m);
            i1[k] = i0[k] + 1;
            break;
        case 4:
            i0[k] = p + (uint32_t)l + apart;
            i1[k] = p + 64 + (uint32_t)l;
            break;
        default:
            i0[k] = p + 64 + (uint32_t)l;
            i1[k] = p + (uint32_t)l + apart;
            break;
        }
        if (l == (j / 6) % 17)
            *((j / 102) % 2 ? &i1[k] : &i0[k]) = p + 144 + (uint32_t)l;
    }
}

void xt_graph_make(xt_graph *g, xt_rng *rng, xt_graph_kind kind, size_t count,
                   size_t coincident, size_t static_pairs)
{
    memset(g, 0, sizeof *g);
    size_t base = 0, grid = 0;
    switch (kind) {
    case XT_MATCHING: base = 2 * count; break;
    case XT_RANDOM: base = count / 3 + 2; break;
    case XT_STAR: base = count + 1; break;
    case XT_DENSE: base = count / 20 + 3; break;
    case XT_NEAR_RUNS: base = 160 * (count / 16 + 1); break;
    case XT_GRID:
        for (grid = 2;; grid += 2) /* even: a row's even links continue the last row's */
            if (4 * grid * grid >= count + 6 * grid) {
                base = grid * grid;
                break;
            }
        break;
    }
    const size_t total = count + coincident + static_pairs;
    g->particles = base + 2 * (coincident + static_pairs);
    g->count = total;
    g->coincident = coincident;
    g->static_pairs = static_pairs;
    g->i0 = malloc((total ? total : 1) * sizeof *g->i0);
    g->i1 = malloc((total ? total : 1) * sizeof *g->i1);
    g->rest = malloc((total ? total : 1) * sizeof *g->rest);
    g->compliance = malloc((total ? total : 1) * sizeof *g->compliance);
    if (!g->i0 || !g->i1 || !g->rest || !g->compliance) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (kind == XT_GRID)
        xt_grid_edges(grid, count, g->i0, g->i1);
    if (kind == XT_NEAR_RUNS)
        xt_near_runs(count, g->i0, g->i1);
    for (size_t k = 0; k < count; ++k) {
        uint32_t a = 0, b = 0;
        switch (kind) {
        case XT_MATCHING:
            a = (uint32_t)(2 * k);
            b = a + 1;
            break;
        case XT_STAR:
            a = 0;
            b = (uint32_t)k + 1;
            break;
        case XT_RANDOM:
        case XT_DENSE:
            a = xt_below(rng, (uint32_t)base);
            b = (a + 1 + xt_below(rng, (uint32_t)base - 1)) % (uint32_t)base;
            break;
        case XT_GRID:
        case XT_NEAR_RUNS:
            a = g->i0[k];
            b = g->i1[k];
            break;
        }
        if (kind != XT_GRID && kind != XT_NEAR_RUNS && xt_below(rng, 2)) { /* both orientations */
            const uint32_t t = a;
            a = b;
            b = t;
        }
        g->i0[k] = a;
        g->i1[k] = b;
        g->rest[k] = xt_range(rng, 0.1, 1.5);
        g->compliance[k] = compliance_mix(rng);
    }
    if (kind == XT_GRID) /* input order shuffled: the runs order does not depend on it */
        for (size_t k = count; k > 1; --k) {
            const size_t j = xt_below(rng, (uint32_t)k);
            const uint32_t t0 = g->i0[k - 1], t1 = g->i1[k - 1];
            g->i0[k - 1] = g->i0[j];
            g->i1[k - 1] = g->i1[j];
            g->i0[j] = t0;
            g->i1[j] = t1;
        }
    for (size_t e = 0; e < coincident + static_pairs; ++e) {
        const size_t k = count + e;
        g->i0[k] = (uint32_t)(base + 2 * e);
        g->i1[k] = (uint32_t)(base + 2 * e + 1);
        g->rest[k] = xt_range(rng, 0.1, 1.5);
        g->compliance[k] = compliance_mix(rng);
    }
}

void xt_graph_free(xt_graph *g)
{
    free(g->i0);
    free(g->i1);
    free(g->rest);
    free(g->compliance);
    memset(g, 0, sizeof *g);
}

void xt_graph_soften(xt_graph *g, double value)
{
    for (size_t k = 0; k < g->count; ++k)
        if (g->compliance[k] == 0)
            g->compliance[k] = value;
}

void xt_snap_free(xt_snap *s)
{
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

static const char *const xt_array_names[13] = {"x",  "y",  "z", "px", "py", "pz", "vx",
                                                      "vy", "vz", "w", "fx", "fy", "fz"};

#define XPBD_REAL_F32
#include "precision.h"
#define XT_SAME xt_same_f32
#include "fixture_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"
#undef XT_SAME

#define XPBD_REAL_F64
#include "precision.h"
#define XT_SAME xt_same_f64
#include "fixture_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"
