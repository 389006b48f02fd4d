/* SPDX-License-Identifier: MIT */
/* bench_util.h: what the two measuring files of xpbd-bench (bench_core.c,
 * bench_contacts.c) share: the timer, the deterministic data source, the
 * plan an xb_options selects (kernels, ISAs, precisions, timing budget)
 * and the size sweep that fills an xb_row table.
 *
 * The timer and the data source are static inline, so each measuring file
 * compiles its timing loop around its own pass functions exactly as if it
 * had written them itself. Include after defining _POSIX_C_SOURCE
 * (clock_gettime under ISO C11). */
#ifndef XPBD_BENCH_UTIL_H
#define XPBD_BENCH_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "bench_core.h"

/* ------------------------------------------------------------- timing --- */

static inline double xb_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline double xb_time(void (*pass)(void *), void *ctx, size_t iters)
{
    const double t0 = xb_now();
    for (size_t i = 0; i < iters; ++i)
        pass(ctx);
    return xb_now() - t0;
}

/* Seconds per pass: one untimed pass (page faults, caches, predictors), one
 * timed pass to size the loop, then `repeats` timed loops of at least min_s
 * each; the best is kept: the minimum is the run least disturbed by the rest
 * of the machine. A pass longer than min_s is its own loop, and the sizing
 * pass then counts as the first. */
static inline double xb_measure(void (*pass)(void *), void *ctx, double min_s, int repeats)
{
    pass(ctx);
    const double t1 = xb_time(pass, ctx, 1);
    size_t iters = 1;
    double best = INFINITY;
    int r = 0;
    if (t1 < min_s) {
        /* a first pass under 100 ns says little: cap the jump, it only
         * lengthens the loop */
        const double f = t1 > 1e-7 ? 1.05 * min_s / t1 : 1.05 * min_s / 1e-7;
        iters = (size_t)ceil(f);
    } else {
        best = t1; /* already a full-length loop */
        r = 1;
    }
    for (; r < repeats; ++r) {
        const double t = xb_time(pass, ctx, iters) / (double)iters;
        if (t < best)
            best = t;
    }
    return best;
}

/* splitmix64 -> [0, 1): deterministic data, the same on every run */
static inline double xb_unit(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* ----------------------------------------------------------- the plan --- */

#define XB_PLAN_KERNELS 32 /* room for either file's kernel list */

typedef struct xb_plan {
    int kernel_on[XB_PLAN_KERNELS];
    xpbd_isa isa[XPBD_ISA_COUNT]; /* measured, scalar first */
    size_t isa_count;
    int isa_on[XPBD_ISA_COUNT];   /* reported */
    int prec_on[2];               /* f32, f64 */
    double min_seconds;
    int repeats;
    int progress;
} xb_plan;

/* The plan of opt over the kernels name(0), name(1), ... (NULL past the
 * end, at most XB_PLAN_KERNELS): opt->kernels selects by name (none given:
 * all); a name not in the list is an error when strict, else left to the
 * other file's list. An ISA this machine cannot run, or an unknown ISA or
 * precision name, is an error, never skipped quietly. Returns 0 or -1. */
int xb_plan_init(xb_plan *plan, const xb_options *opt, const char *(*name)(size_t), int strict);

/* Measures the selected kernels of one precision at 2^log2n items for every
 * ISA of the plan (scalar first), appending rows at rows[nrows]. Returns the
 * new row count, or (size_t)-1 on failure. */
typedef size_t (*xb_measure_fn)(const xb_plan *plan, int log2n, xb_row *rows, size_t nrows);

/* The size sweep: 2^10, 2^12, ... below 2^max, then 2^max (quick: only 2^10
 * and 2^12 below it); for each selected precision (f32 first) and size,
 * measure[precision]. *rows receives the malloc'd table, room for `kernels`
 * rows per ISA, precision and size. Returns the row count (0: nothing
 * measured, *rows NULL), or (size_t)-1 on failure. */
size_t xb_sweep(const xb_plan *plan, int max, int quick, size_t kernels,
                const xb_measure_fn measure[2], xb_row **rows);

/* Fills one row; the ratio is scalar_ns / ns (0 while either is unknown). */
void xb_row_set(xb_row *r, const char *kernel, const char *precision, xpbd_isa isa, size_t n,
                double ns, double scalar_ns);

#endif
