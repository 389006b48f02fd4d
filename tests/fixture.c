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
            a = g->i0[k];
            b = g->i1[k];
            break;
        }
        if (kind != XT_GRID && xt_below(rng, 2)) { /* both orientations */
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
