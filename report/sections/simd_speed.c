/* SPDX-License-Identifier: MIT */
/* Section simd_speed: measurements of xpbd-bench (xb_run), rendered as
 * throughput vs problem size per ISA and speed-up over scalar. */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_core.h"

static int sa_kernel_id(const char *name)
{
    for (int i = 0; i < 64; ++i) {
        const char *k = xb_kernel_name((size_t)i);
        if (!k)
            break;
        if (strcmp(k, name) == 0)
            return i;
    }
    return -1;
}

static int sa_row_order(const void *pa, const void *pb)
{
    const xb_row *a = pa, *b = pb;
    const int ka = sa_kernel_id(a->kernel), kb = sa_kernel_id(b->kernel);
    if (ka != kb)
        return ka < kb ? -1 : 1;
    const int p = strcmp(a->precision, b->precision);
    if (p)
        return p;
    if (a->isa != b->isa)
        return a->isa < b->isa ? -1 : 1;
    return a->n < b->n ? -1 : a->n > b->n;
}

/* Appends to *rows (n of them) the rows of more (m of them) at the
 * largest size measured for their kernel in that run; frees more. Returns
 * the new count, or (size_t)-1 without memory. */
static size_t sa_append_largest(xb_row **rows, size_t n, xb_row *more, size_t m)
{
    xb_row *all = realloc(*rows, (n + m + 1) * sizeof *all);
    if (!all) {
        free(more);
        return (size_t)-1;
    }
    for (size_t i = 0; i < m; ++i) {
        size_t largest = 0;
        for (size_t j = 0; j < m; ++j)
            if (strcmp(more[j].kernel, more[i].kernel) == 0 && more[j].n > largest)
                largest = more[j].n;
        if (more[i].n == largest)
            all[n++] = more[i];
    }
    free(more);
    *rows = all;
    return n;
}

/* The relative difference of two passes over the same measurements:
 * |a - b| / min(a, b) per (kernel, precision, path, size) in both; the
 * median and the largest. Returns the number of pairs. */
static size_t sa_noise(const xb_row *a, size_t na, const xb_row *b, size_t nb, double *median,
                       double *worst)
{
    double *d = malloc((na + 1) * sizeof *d);
    size_t k = 0;
    *median = *worst = NAN;
    if (!d)
        return 0;
    for (size_t i = 0; i < na; ++i)
        for (size_t j = 0; j < nb; ++j)
            if (a[i].isa == b[j].isa && a[i].n == b[j].n &&
                strcmp(a[i].kernel, b[j].kernel) == 0 &&
                strcmp(a[i].precision, b[j].precision) == 0) {
                const double x = a[i].ns_per_item, y = b[j].ns_per_item;
                d[k++] = fabs(x - y) / fmin(x, y);
                break;
            }
    if (k) {
        /* insertion sort: a few hundred values */
        for (size_t i = 1; i < k; ++i)
            for (size_t j = i; j > 0 && d[j - 1] > d[j]; --j) {
                const double s = d[j];
                d[j] = d[j - 1];
                d[j - 1] = s;
            }
        *median = d[k / 2];
        *worst = d[k - 1];
    }
    free(d);
    return k;
}

/* The measurements and what the table, the prose and the checks read off
 * them. */
typedef struct ss_state {
    xb_row *rows;
    size_t n;
    double noise_median, noise_worst;
    size_t noise_pairs;
    size_t bad, ratios, nmax, nsmall;
    double ratio_dev; /* max |ratio - recomputed| / recomputed, NaN if not finite */
    int missing, expected;
    char noise[256];
} ss_state;

/* The xb_run measurements (see simd_speed_run). Returns 0, or -1 with
 * nothing measured. */
static int ss_measure(xr_ctx *ctx, ss_state *S)
{
    static const char *const swept = "distance_xpbd,predict";
    xb_options opt;
    memset(&opt, 0, sizeof opt);
    opt.quick = 1;
    opt.max_log2_n = xr_quick(ctx) ? 10 : 12;
    xr_progress(ctx, "xb_run (xpbd-bench measurements)", 0, 4);
    xb_row *rows = NULL, *again = NULL;
    size_t n = xb_run(&opt, &rows);
    size_t n2 = 0;
    S->noise_median = S->noise_worst = NAN;
    S->noise_pairs = 0;
    if (n > 0 && !xr_quick(ctx)) {
        xr_progress(ctx, "xb_run (xpbd-bench measurements)", 1, 4);
        n2 = xb_run(&opt, &again);
        S->noise_pairs = sa_noise(rows, n, again, n2, &S->noise_median, &S->noise_worst);
        free(again);
    }
    static const int full_sizes[] = {14, 16, 18, 20}, quick_sizes[] = {16};
    const int *sizes = xr_quick(ctx) ? quick_sizes : full_sizes;
    const int nsizes = xr_quick(ctx) ? 1 : 4;
    for (int s = 0; s < nsizes && n > 0 && n != (size_t)-1; ++s) {
        xr_progress(ctx, "xb_run (xpbd-bench measurements)", 2, 4);
        xb_options o2 = opt;
        o2.kernels = swept;
        o2.max_log2_n = sizes[s];
        xb_row *more = NULL;
        const size_t m = xb_run(&o2, &more);
        /* the rows of the run's largest size: its smaller ones are above */
        n = m ? sa_append_largest(&rows, n, more, m) : (size_t)-1;
    }
    if (n == 0 || n == (size_t)-1 || !rows) {
        free(rows);
        xr_md(ctx, "xb_run returned no measurements.\n\n");
        return -1;
    }
    S->rows = rows;
    S->n = n;
    return 0;
}

/* The simd_speed table, one series (kernel x precision x path) per block
 * of rows, by size, and which paths and precisions were measured. */
static int ss_table(xr_ctx *ctx, ss_state *S)
{
    xb_row *rows = S->rows;
    const size_t n = S->n;
    /* one series (kernel x precision x path) per block of rows, by size:
     * gnuplot joins consecutive points of a series into a line */
    qsort(rows, n, sizeof *rows, sa_row_order);
    FILE *f = xr_table_open(ctx, "simd_speed",
                            "kernel_id\tkernel\tprecision\tisa_id\tisa\tn\tns_per_item\t"
                            "items_per_s\tratio_vs_scalar\tconstraint\tsize_index");
    if (!f)
        return -1;
    size_t bad = 0, ratios = 0;
    double ratio_dev = 0; /* max |ratio - recomputed| / recomputed, NaN if not finite */
    size_t nmax = 0, nsmall = 0;
    for (size_t i = 0; i < n; ++i) {
        const xb_row *r = &rows[i];
        /* size_index: rank of n among this kernel x precision's sizes */
        int rank = 0;
        for (size_t j = 0; j < n; ++j)
            if (rows[j].isa == r->isa && rows[j].n < r->n &&
                strcmp(rows[j].kernel, r->kernel) == 0 &&
                strcmp(rows[j].precision, r->precision) == 0)
                ++rank;
        fprintf(f, "%d\t%s\t%s\t%d\t%s\t%zu\t%.17g\t%.17g\t%.17g\t%d\t%d\n",
                sa_kernel_id(r->kernel), r->kernel, r->precision, (int)r->isa,
                xpbd_isa_name(r->isa), r->n, r->ns_per_item, 1e9 / r->ns_per_item,
                r->ratio_vs_scalar, xb_kernel_is_constraint(r->kernel), rank);
        if (!(r->ns_per_item > 0) || !isfinite(r->ns_per_item) || !(r->ratio_vs_scalar > 0))
            ++bad;
        /* the ratio recomputed from the scalar row of the same kernel,
         * precision and size */
        if (r->isa != XPBD_ISA_SCALAR) {
            double scalar_ns = NAN;
            for (size_t j = 0; j < n; ++j)
                if (rows[j].isa == XPBD_ISA_SCALAR && rows[j].n == r->n &&
                    strcmp(rows[j].kernel, r->kernel) == 0 &&
                    strcmp(rows[j].precision, r->precision) == 0)
                    scalar_ns = rows[j].ns_per_item;
            const double want = scalar_ns / r->ns_per_item;
            ++ratios;
            const double dev = fabs(r->ratio_vs_scalar - want) / want;
            ratio_dev = isnan(dev) ? dev : fmax(ratio_dev, dev);
        }
        if (r->n > nmax)
            nmax = r->n;
        if (nsmall == 0 || r->n < nsmall)
            nsmall = r->n;
    }
    xr_table_close(f);

    /* which ISA x precision were measured */
    int seen[XPBD_ISA_COUNT][2] = {{0}};
    for (size_t i = 0; i < n; ++i)
        if ((int)rows[i].isa >= 0 && (int)rows[i].isa < XPBD_ISA_COUNT)
            seen[rows[i].isa][strcmp(rows[i].precision, "f64") == 0] = 1;
    int missing = 0, expected = 0;
    for (int isa = 0; isa < XPBD_ISA_COUNT; ++isa)
        if (xpbd_isa_supported((xpbd_isa)isa))
            for (int p = 0; p < 2; ++p) {
                ++expected;
                missing += !seen[isa][p];
            }
    S->bad = bad;
    S->ratios = ratios;
    S->ratio_dev = ratio_dev;
    S->nmax = nmax;
    S->nsmall = nsmall;
    S->missing = missing;
    S->expected = expected;
    return 0;
}

/* The prose: the speed-up table per kernel x precision, per ISA, at the
 * smallest (in-cache) size measured for the kernel and at the largest. */
static void ss_write(xr_ctx *ctx, ss_state *S)
{
    const xb_row *rows = S->rows;
    const size_t n = S->n;
    const double noise_median = S->noise_median, noise_worst = S->noise_worst;
    const size_t noise_pairs = S->noise_pairs;
    char *noise = S->noise;
    if (noise_pairs)
        snprintf(noise, sizeof S->noise,
                 "Noise: the in-cache measurements were made twice; the two passes differ by "
                 "%.1f%% in the median and %.0f%% at most (%zu pairs), so differences smaller "
                 "than that say nothing.",
                 100 * noise_median, 100 * noise_worst, noise_pairs);
    else
        snprintf(noise, sizeof S->noise,
                 "Noise: not estimated under --quick (one pass); the full report measures the "
                 "in-cache sizes twice and states the difference.");
    xr_md(ctx,
          "The measurements of `xpbd-bench` (same code, `xb_run`, its quick timing: the best "
          "of 3 loops of at least 1 ms): each kernel x path x precision x size, ns per item "
          "(particle or constraint) and the ratio to the scalar reference measured in the "
          "same run. Every kernel is measured at %s items (in cache); "
          "distance_xpbd and predict also at %s items (out of cache) for the figure's size "
          "axis; run `xpbd-bench` for every kernel at every size. %s Timings are reported, "
          "never checked. Speed-up over scalar at the smallest size (in cache) / the "
          "largest:\n\n| kernel | precision |",
          xr_quick(ctx) ? "2^10" : "2^10 and 2^12", xr_quick(ctx) ? "2^16" : "2^14, 2^16, 2^18 and 2^20",
          noise);
    for (int isa = 1; isa < XPBD_ISA_COUNT; ++isa)
        if (xpbd_isa_supported((xpbd_isa)isa))
            xr_md(ctx, " %s |", xpbd_isa_name((xpbd_isa)isa));
    xr_md(ctx, " scalar ns/item |\n|---|---|");
    for (int isa = 1; isa < XPBD_ISA_COUNT; ++isa)
        if (xpbd_isa_supported((xpbd_isa)isa))
            xr_md(ctx, "---|");
    xr_md(ctx, "---|\n");
    for (int k = 0; xb_kernel_name((size_t)k); ++k) {
        const char *kn = xb_kernel_name((size_t)k);
        for (int p = 0; p < 2; ++p) {
            const char *prec = p ? "f64" : "f32";
            size_t lo = SIZE_MAX, hi = 0;
            for (size_t i = 0; i < n; ++i)
                if (strcmp(rows[i].kernel, kn) == 0 && strcmp(rows[i].precision, prec) == 0) {
                    lo = rows[i].n < lo ? rows[i].n : lo;
                    hi = rows[i].n > hi ? rows[i].n : hi;
                }
            if (hi == 0)
                continue;
            xr_md(ctx, "| %s | %s |", kn, prec);
            double scalar_ns = NAN;
            for (int isa = 0; isa < XPBD_ISA_COUNT; ++isa) {
                if (!xpbd_isa_supported((xpbd_isa)isa))
                    continue;
                double rlo = NAN, rhi = NAN;
                for (size_t i = 0; i < n; ++i)
                    if ((int)rows[i].isa == isa && strcmp(rows[i].kernel, kn) == 0 &&
                        strcmp(rows[i].precision, prec) == 0) {
                        if (rows[i].n == lo)
                            rlo = rows[i].ratio_vs_scalar;
                        if (rows[i].n == hi)
                            rhi = rows[i].ratio_vs_scalar;
                        if (isa == 0 && rows[i].n == lo)
                            scalar_ns = rows[i].ns_per_item;
                    }
                if (isa > 0)
                    xr_md(ctx, " %.2fx / %.2fx |", rlo, rhi);
            }
            xr_md(ctx, " %.3g |\n", scalar_ns);
        }
    }
    xr_md(ctx, "\nAll rows: `data/simd_speed.tsv`.\n\n");
}

/* The checks. */
static void ss_check(xr_ctx *ctx, const ss_state *S)
{
    const size_t bad = S->bad, ratios = S->ratios;
    const double ratio_dev = S->ratio_dev;
    const int missing = S->missing, expected = S->expected;
    xr_tolerance_source(ctx, "physics of a clock: a time is positive and finite");
    xr_check(ctx, "measurements: rows without ns/item > 0 and a finite ratio", (double)bad, 0,
             xr_exact(), NULL);
    int any_simd = 0;
    for (int isa = 1; isa < XPBD_ISA_COUNT; ++isa)
        any_simd |= xpbd_isa_supported((xpbd_isa)isa) != 0;
    if (any_simd) {
        xr_tolerance_source(ctx, "arithmetic: the same division of the same doubles, done twice, "
                                 "rounds the same: bitwise");
        xr_check(ctx, "SIMD rows: ratio_vs_scalar vs scalar ns/item / ns/item of the same kernel, "
                      "precision and size (max relative difference)",
                 ratio_dev, 0, xr_exact(), NULL);
        xr_check(ctx, "SIMD rows: ratios compared", (double)ratios, NAN, xr_at_least(1), NULL);
    } else {
        xr_md(ctx, "This build has no SIMD path: there are no ratios to check.\n\n");
    }
    xr_tolerance_source(ctx, "the plan: every path this machine supports, both precisions");
    xr_check(ctx, "every supported path x precision measured (missing)", (double)missing, 0,
             xr_exact(), NULL);
    xr_check(ctx, "paths x precisions planned", (double)expected, NAN, xr_at_least(1), NULL);
}

static int simd_speed_run(xr_ctx *ctx)
{
    /* What the figure and the table need, and no more:
     * - every kernel at 2^10 and 2^12 items (in cache; 2^10 only under
     *   --quick, whose time this section spends alone), both precisions,
     *   for the speed-up bars and the table: one xb_run in xpbd-bench's
     *   quick timing (best of 3 loops of >= 1 ms each), made twice; the
     *   difference between the two passes is the noise stated with the
     *   figure;
     * - the two kernels the figure sweeps over size (distance_xpbd,
     *   predict) at 2^14 .. 2^20 items (2^16 under --quick), out of cache:
     *   one xb_run per size, keeping that size's rows.
     * The whole sweep of every kernel is xpbd-bench's job. */
    ss_state S;
    memset(&S, 0, sizeof S);
    if (ss_measure(ctx, &S) != 0)
        return -1;
    if (ss_table(ctx, &S) != 0) {
        free(S.rows);
        return -1;
    }
    ss_write(ctx, &S);
    free(S.rows);
    ss_check(ctx, &S);
    const size_t nsmall = S.nsmall, nmax = S.nmax;
    const char *noise = S.noise;
    char cap[1600];
    snprintf(cap, sizeof cap,
             "DESIGN (benchmarks): throughput (items per second) vs problem size per SIMD path, "
             "float solid and double dashed, for the XPBD distance kernel (left) and predict "
             "(middle), sizes %zu to %zu; right: speed-up over the scalar reference at the "
             "smallest size for every kernel (float). Measured by xb_run, the code behind "
             "xpbd-bench; timings are never checked. %s",
             nsmall, nmax, noise);
    xr_figure(ctx, "simd_speed", cap);
    return 0;
}

const xr_section xr_section_simd_speed = {
    .name = "simd_speed",
    .title = "Throughput vs problem size per ISA and speed-up over scalar (xpbd-bench measurements)",
    .scenario = "",
    .figures = XR_FIGURES("simd_speed"),
    .tables = XR_TABLES({"simd_speed", "xpbd-bench measurements (xb_run)"}),
    .timed = 1,
    .run = simd_speed_run};
