/* SPDX-License-Identifier: MIT */
/* Section s1_stability_map: explicit springs on the hanging chain (S1), the
 * largest stable k measured (bisection) as a function of h and of N, against
 * m/h^2, 4m/h^2 and the closed-form limit of the linearised scheme
 * (shared/s1_springs.h); and the map of stable and unstable points in the
 * (k, h) plane with the lines m/h^2, 4m/h^2 and k*. */
#include "report.h"
#include "shared/s1_springs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One trial for the map: the chain starts in its exact static equilibrium
 * (link s stretched by (N-1-s) m g / k) with every free particle displaced by
 * +-eps alternately, v = 0, and runs up to `steps` steps. Unstable when any
 * particle strays more than 1e4 eps from equilibrium (or the state goes
 * non-finite). Starting at equilibrium isolates the scheme's linear
 * stability from the release transient, and the small amplitude keeps the
 * folding nonlinearity (and with it the limit cycles) out of the verdict.
 * Returns 1 stable, 0 unstable, -1 on error. */
#define SP_EPS 1e-6
static int sp_stable(const xr_ctx *ctx, int n_particles, double k, double h, double c,
                     long steps)
{
    xs_world_f64 w;
    if (xs_chain_f64(&w, n_particles, SP_L0, 1.0 / k) != XPBD_OK)
        return -1;
    double *yeq = malloc((size_t)n_particles * sizeof *yeq);
    if (!yeq) {
        xs_world_free_f64(&w);
        return -1;
    }
    yeq[0] = w.p.y[0];
    for (int i = 1; i < n_particles; ++i)
        yeq[i] = yeq[i - 1] - (SP_L0 + (double)(n_particles - i) * SP_M * XS_G / k);
    for (int i = 1; i < n_particles; ++i)
        w.p.y[i] = yeq[i] + ((i & 1) ? SP_EPS : -SP_EPS);
    const xpbd_step_config cfg = sp_config(ctx, c);
    int stable = 1;
    for (long s = 0; s < steps && stable == 1; ++s) {
        const xpbd_status st = xpbd_step_f64(&cfg, h, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL);
        if (st == XPBD_ERR_DIVERGED) {
            stable = 0;
            break;
        }
        if (st != XPBD_OK) {
            stable = -1;
            break;
        }
        for (int i = 1; i < n_particles; ++i)
            if (!(fabs(w.p.y[i] - yeq[i]) <= 1e4 * SP_EPS) || w.p.x[i] != 0 || w.p.z[i] != 0) {
                stable = 0;
                break;
            }
    }
    free(yeq);
    xs_world_free_f64(&w);
    return stable;
}

/* Largest stable k by bisection to a relative width of rel. The bracket
 * [1 - half, 1 + half] x the closed form is only a starting guess: both
 * ends are verified by simulation and widened until they hold, so the
 * measurement never assumes the answer (a narrower guess saves trials, not
 * resolution). Returns NAN on error. */
static double sp_bisect(const xr_ctx *ctx, int n_particles, double h, double c, long steps,
                        double rel, double half)
{
    const double guess = sp_k_limit(n_particles, h, c);
    double lo = (1 - half) * guess, hi = (1 + half) * guess;
    for (int i = 0; i < 40; ++i) {
        const int s = sp_stable(ctx, n_particles, lo, h, c, steps);
        if (s < 0)
            return NAN;
        if (s == 1)
            break;
        hi = lo;
        lo *= 0.5;
    }
    for (int i = 0; i < 40; ++i) {
        const int s = sp_stable(ctx, n_particles, hi, h, c, steps);
        if (s < 0)
            return NAN;
        if (s == 0)
            break;
        lo = hi;
        hi *= 2.0;
    }
    while ((hi - lo) > rel * lo) {
        const double mid = 0.5 * (lo + hi);
        const int s = sp_stable(ctx, n_particles, mid, h, c, steps);
        if (s < 0)
            return NAN;
        if (s == 1)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* One bisection of the map: panel 0 = vs h, panel 1 = vs N. */
typedef struct sp_job {
    int panel, np;
    double h, c;
} sp_job;

/* The jobs and what the prose and the checks read off their limits. */
typedef struct sm_state {
    const sp_job *jobs;
    const int *n_vs_h; /* the chains of panel 0 */
    long steps;
    double rel, half; /* bisection width; half-width of its starting bracket */
    double max_err, worst_k, worst_cf;
    double n2_err, n2_k, n2_cf, n2_h;
    double hs_min[3], hs_max[3];
    double prev, k_nmax, k6_h2m;
    int increases;
} sm_state;

/* Sweep point q: the largest stable k of job q, bisected, against its
 * closed form. */
static int sm_point(xr_ctx *ctx, int q, double *row, void *arg)
{
    sm_state *S = arg;
    const int *n_vs_h = S->n_vs_h;
    const sp_job *j = &S->jobs[q];
    const double k = sp_bisect(ctx, j->np, j->h, j->c, S->steps, S->rel, S->half);
    if (!isfinite(k))
        return -1;
    const double cf = sp_k_limit(j->np, j->h, j->c);
    const double err = fabs(k - cf) / cf;
    const double v[10] = {(double)j->panel, (double)j->np, j->h, j->c, k, cf,
                          SP_M / (j->h * j->h), 4.0 * SP_M / (j->h * j->h), (k - cf) / cf,
                          k * j->h * j->h / SP_M};
    memcpy(row, v, sizeof v);
    if (err > S->max_err) {
        S->max_err = err;
        S->worst_k = k;
        S->worst_cf = cf;
    }
    if (j->np == 2 && j->c == 0 && err >= S->n2_err) {
        S->n2_err = err;
        S->n2_k = k;
        S->n2_cf = cf;
        S->n2_h = j->h;
    }
    if (j->panel == 0 && j->c == 0)
        for (int a = 0; a < 3; ++a)
            if (j->np == n_vs_h[a]) {
                const double sc = k * j->h * j->h / SP_M;
                S->hs_min[a] = sc < S->hs_min[a] ? sc : S->hs_min[a];
                S->hs_max[a] = sc > S->hs_max[a] ? sc : S->hs_max[a];
            }
    if (j->panel == 1 && j->c == 0) {
        if (j->np == SP_N)
            S->k6_h2m = k * j->h * j->h / SP_M;
        if (k > S->prev)
            S->increases++;
        S->prev = k;
        S->k_nmax = k;
    }
    return 0;
}

/* The (k, h) map: every point of a log grid in k and h run once (the
 * trial of sp_stable, `steps` steps) and classified stable or unstable,
 * beside the closed-form limit k*(h). Near k* the highest mode grows (or
 * not) slowly: at k = (1 + eps) k*, undamped, the trace is -2 - 4 eps and
 * the larger root has |z| ~ 1 + 2 sqrt(eps), so the 1e4-fold growth the
 * trial needs (from a start whose projection on the highest mode is about
 * 1/4 of eps: ln 4e4 = 10.6) takes 5.3 / sqrt(eps) steps. Below k* the
 * roots stay on the unit circle and a stable trial never grows (the
 * vertical chain is linear while no link folds). So the classification
 * is exact away from the line: a point with eps > (5.3 / steps)^2 (2.8e-5
 * at 1000 steps, 7.8e-5 at 600) must be unstable and one with k < k* stable; points
 * within KH_MARGIN = 1e-3 of k* (relative) are drawn but not counted. */
#define KH_MARGIN 1e-3

typedef struct kh_state {
    int nh, nk;
    double h_lo, h_hi, k_lo, k_hi;
    long steps;
    int wrong[2], counted[2], unstable[2];
} kh_state;

static const int kh_n[2] = {2, SP_N};

/* Sweep point q of the map: panel q / (nh nk), then h, then k. */
static int kh_point(xr_ctx *ctx, int q, double *row, void *arg)
{
    kh_state *S = arg;
    const int panel = q / (S->nh * S->nk), r = q % (S->nh * S->nk);
    const int ih = r / S->nk, ik = r % S->nk;
    const double h = S->h_lo * pow(S->h_hi / S->h_lo, ih / (S->nh - 1.0));
    const double k = S->k_lo * pow(S->k_hi / S->k_lo, ik / (S->nk - 1.0));
    const int np = kh_n[panel];
    const int st = sp_stable(ctx, np, k, h, 0.0, S->steps);
    if (st < 0)
        return -1;
    const double ks = sp_k_limit(np, h, 0.0);
    const double eps = (k - ks) / ks;
    const int counted = fabs(eps) > KH_MARGIN;
    if (counted) {
        S->counted[panel]++;
        S->unstable[panel] += st == 0;
        S->wrong[panel] += (st == 1) != (eps < 0);
    }
    const double v[7] = {(double)np, h, k, (double)st, ks, eps, (double)counted};
    memcpy(row, v, sizeof v);
    return 0;
}

/* The 2-D map, its checks and its figure. Returns 0 or -1. */
static int sm_kh_map(xr_ctx *ctx)
{
    const int quick = xr_quick(ctx);
    kh_state S = {quick ? 8 : 28, quick ? 10 : 36, 1.0 / 300, 1.0 / 20, 100.0, 1e6,
                  quick ? 600 : 4000, {0, 0}, {0, 0}, {0, 0}};
    const xr_sweep sweep = {"s1_stability_kh", "N\th\tk\tstable\tk_closed\trel_to_closed\tcounted",
                            "stability map", 2 * S.nh * S.nk, 7, kh_point, &S};
    if (xr_sweep_table(ctx, &sweep) != 0)
        return -1;
    const double eps_min = pow(5.3 / (double)S.steps, 2);
    xr_md(ctx,
          "**The (k, h) plane.** The same trial at every point of a %d x %d logarithmic grid, "
          "h = 1/300 .. 1/20 s and k = 100 .. 1e6 N/m, undamped, for N = 2 and N = %d "
          "(%ld steps per trial). Near the limit the highest mode grows as "
          "|z| ~ 1 + 2 sqrt(eps) per step at k = (1 + eps) k*, so a trial of %ld steps sees "
          "every eps > %.2g; below k* the roots stay on the unit circle. A point is therefore "
          "classified by the closed form alone when |k/k* - 1| > %g; the %d + %d such points "
          "hold %d + %d unstable ones, and %d + %d points disagree with k*.\n\n",
          S.nh, S.nk, SP_N, S.steps, S.steps, eps_min, KH_MARGIN, S.counted[0], S.counted[1],
          S.unstable[0], S.unstable[1], S.wrong[0], S.wrong[1]);
    char from[400];
    snprintf(from, sizeof from,
             "closed form k* = 4m/(mu_max h^2); growth 1 + 2 sqrt(eps) per step shows past "
             "eps = (5.3/%ld)^2 = %.1e < %g, and below k* nothing grows: no point off the "
             "margin may disagree (counted exactly)",
             S.steps, eps_min, KH_MARGIN);
    xr_check(ctx, "(k, h) map, N = 2: points off the margin classified unlike k* = 4m/h^2",
             (double)S.wrong[0], 0, xr_exact(), from);
    xr_check(ctx, "(k, h) map, N = 6: points off the margin classified unlike k* = 1.086 m/h^2",
             (double)S.wrong[1], 0, xr_exact(), from);
    /* the grid straddles the line in both panels: a map that is all one
     * colour would pass the count above vacuously */
    xr_check(ctx, "(k, h) map, N = 2: unstable points (of those counted)", (double)S.unstable[0],
             0.5 * S.counted[0], xr_bracket(1, S.counted[0] - 1),
             "the grid spans k = 100 .. 1e6 N/m across k*(h) = 1600 .. 3.6e5 N/m: both sides "
             "occupied");
    xr_check(ctx, "(k, h) map, N = 6: unstable points (of those counted)", (double)S.unstable[1],
             0.5 * S.counted[1], xr_bracket(1, S.counted[1] - 1),
             "the grid spans k = 100 .. 1e6 N/m across k*(h) = 434 .. 9.8e4 N/m: both sides "
             "occupied");
    char cap[800];
    snprintf(cap, sizeof cap,
             "Explicit springs on the hanging chain: stability in the (k, h) plane, one trial "
             "of %ld steps per point (filled: unstable), for N = 2 (a) and N = %d (b), "
             "against m/h^2, 4m/h^2 and the closed form k* = 4m/(mu_max h^2). Every point "
             "farther than %g from k* agrees with it.",
             S.steps, SP_N, KH_MARGIN);
    xr_figure(ctx, "s1_stability_kh", cap);
    return 0;
}

static int s1_stability_map_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** The explicit-spring chain of the previous section, asked one question: the largest spring constant k at which semi-implicit Euler stays stable, as the frame length h and the chain length N vary. A single spring is stable below 4m/h^2; a chain's highest mode lowers the line towards m/h^2, and the exact threshold depends on N. The closed form drawn beside the measurement is that of the linearised scheme.\n\n");
    const int quick = xr_quick(ctx);
    static const double inv_h_full[] = {30, 45, 60, 90, 120, 180, 240};
    static const double inv_h_fast[] = {30, 60, 240};
    static const int n_full[] = {2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 18, 20};
    static const int n_fast[] = {2, 3, 4, 6, 10, 20};
    const double *inv_h = quick ? inv_h_fast : inv_h_full;
    const size_t nh = quick ? sizeof inv_h_fast / sizeof *inv_h_fast
                            : sizeof inv_h_full / sizeof *inv_h_full;
    const int *ns = quick ? n_fast : n_full;
    const size_t nn = quick ? sizeof n_fast / sizeof *n_fast : sizeof n_full / sizeof *n_full;
    static const double damp[2] = {0.0, SP_DAMP};
    const long steps = 4000;
    const double rel = 2e-5;
    /* the starting bracket: +-10% of the closed form (full), +-0.1% under
     * --quick, which needs 7 fewer trials of up to 4000 steps per point for
     * the same resolution rel (the checks hold the points to 2e-4, within
     * either bracket; a bracket the simulation refutes is widened) */
    const double half = quick ? 1e-3 : 0.1;
    /* the jobs: panel 0 = vs h for N = 2, 6, 20; panel 1 = vs N at h = 1/60 */
    static const int n_vs_h[3] = {2, SP_N, 20};
    sp_job jobs[2 * 3 * 8 + 2 * 16];
    size_t nj = 0;
    for (int a = 0; a < 3; ++a)
        for (int d = 0; d < 2; ++d)
            for (size_t i = 0; i < nh; ++i) {
                const sp_job j = {0, n_vs_h[a], 1.0 / inv_h[i], damp[d]};
                jobs[nj++] = j;
            }
    for (int d = 0; d < 2; ++d)
        for (size_t i = 0; i < nn; ++i) {
            const sp_job j = {1, ns[i], SP_H, damp[d]};
            jobs[nj++] = j;
        }

    sm_state S = {jobs, n_vs_h, steps, rel, half, 0, NAN, NAN, 0, NAN, NAN, NAN,
                  {INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY},
                  INFINITY, NAN, NAN, 0};
    const xr_sweep sweep = {"s1_stability_map",
                            "panel\tN\th\tc\tk_measured\tk_closed\tk_mh2\tk_4mh2\trel_error\t"
                            "k_measured_h2_over_m",
                            "bisections", (int)nj, 10, sm_point, &S};
    if (xr_sweep_table(ctx, &sweep) != 0)
        return -1;
    const double max_err = S.max_err, worst_k = S.worst_k, worst_cf = S.worst_cf;
    const double n2_k = S.n2_k, n2_cf = S.n2_cf, n2_h = S.n2_h;
    const double *hs_min = S.hs_min, *hs_max = S.hs_max, k_nmax = S.k_nmax, k6_h2m = S.k6_h2m;
    const int increases = S.increases;
    double hspread = 0;
    for (int a = 0; a < 3; ++a)
        hspread = hs_max[a] - hs_min[a] > hspread ? hs_max[a] - hs_min[a] : hspread;
    const int n_last = ns[nn - 1];

    xr_md(ctx,
          "Largest stable k of the explicit-spring chain, measured by bisection on k (relative "
          "width %g) per point. Each trial starts in the chain's exact static equilibrium with "
          "every free particle displaced by +-%g m alternately (the highest mode), v = 0, and "
          "runs %ld steps; it is unstable if any particle strays past %g m from equilibrium or "
          "the step returns `XPBD_ERR_DIVERGED`. Starting at equilibrium measures the scheme's "
          "own limit, free of the release transient and of the limit cycles (which need "
          "amplitudes of the order of L0). Two dampings: none, and the sweep's c = %g N s/m.\n\n",
          rel, SP_EPS, steps, 1e4 * SP_EPS, SP_DAMP);
    xr_md(ctx,
          "**Closed form** (derived in `report/report_s1_springs.c`): the chain's modes have "
          "omega^2 = k mu_j / m with mu_j = 4 sin^2((2j-1) pi / (2(2n+1))), n = N - 1, and "
          "semi-implicit Euler with damping c along the springs is stable iff "
          "h^2 omega^2 < 4 - 2 h c mu / m, so k* = (4m/mu_max - 2hc)/h^2. For one undamped "
          "spring (N = 2, mu = 1) that is exactly h omega < 2, k < 4m/h^2: the update "
          "(y, v) -> ((1 - h^2 omega^2) y + h v, v - h omega^2 y) has trace 2 - h^2 omega^2 "
          "and determinant 1, so its roots stay on the unit circle while h^2 omega^2 < 4 and "
          "leave it through -1 at h omega = 2 (a double root there: already unstable). "
          "As N grows, "
          "mu_max -> 4 and k* -> m/h^2 from above (N = 6: %.4f m/h^2; N = %d: %.4f m/h^2).\n\n",
          4.0 / sp_mu_max(6), n_last, 4.0 / sp_mu_max(n_last));
    xr_md(ctx,
          "**Measured** (%zu bisections): every point within %.2g (relative) of the closed "
          "form; N = 2 undamped k* h^2/m = %.6f at worst (h = 1/%.0f s; 4 exactly); k* "
          "decreases with N at every step and reaches %.4f m/h^2 at N = %d; undamped, "
          "k* h^2/m is the same for every h to %.2g (N = 6: %.6f): the limit scales as "
          "1/h^2.\n\n",
          nj, max_err, n2_k * n2_h * n2_h / SP_M, 1.0 / n2_h, k_nmax * SP_H * SP_H / SP_M,
          n_last, hspread, hs_min[1]);

    xr_tolerance_source(ctx, "closed form: the linearised scheme's limit; the bisection "
                             "resolves k to 1e-4 (2e-4 over every point)");
    xr_check_rel(ctx, "N = 2, undamped: largest stable k vs 4m/h^2 (worst of every h, N/m)",
                 n2_k, n2_cf, 1e-4, NULL);
    xr_check(ctx, "every point: max relative error vs (4m/mu_max - 2hc)/h^2", max_err, 0.0,
             xr_abs(2e-4), NULL);
    xr_check(ctx, "every point: worst measured limit and its closed form finite",
             isfinite(worst_k) && isfinite(worst_cf), 1, xr_exact(), NULL);
    xr_tolerance_source(ctx, "closed form: mu_max grows with N, so the limit falls (counted "
                             "exactly)");
    xr_check(ctx, "undamped limit decreases with N (number of increases)", (double)increases, 0,
             xr_exact(), NULL);
    /* The original's practical line: m/h^2, with the exact threshold for
     * its N = 6 chain "a little above it" */
    xr_tolerance_source(ctx, "original measurement: the N = 6 threshold lies above m/h^2 "
                             "(strictly)");
    xr_check(ctx, "N = 6, undamped, h = 1/60: k* h^2/m above the practical line m/h^2", k6_h2m,
             1.0, xr_above(1.0), NULL);
    xr_reference(ctx, "practical line m/h^2 (units of m/h^2); ours: the N = 6 threshold",
                 1.0, k6_h2m, "N = 6, undamped, h = 1/60: k* h^2/m above the practical line m/h^2",
                 NULL);
    xr_tolerance_source(ctx, "closed form: undamped, k* h^2/m does not depend on h; 1e-3 for "
                             "the bisection");
    xr_check(ctx, "undamped k* h^2/m spread over h, N = 2, 6, 20 (max - min)", hspread, 0.0,
             xr_abs(1e-3), NULL);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Explicit springs on the hanging chain (S1): the stability limit as a curve. Largest stable k (bisection, explicit "
             "springs, semi-implicit Euler) (a) in units of m/h^2 vs h for N = 2, 6, 20, (b) vs N "
             "at h = 1/60 s, "
             "undamped and with spring damping %g N s/m, against m/h^2, 4m/h^2 and the closed "
             "form (4m/mu_max - 2hc)/h^2 (max deviation %.1g). N = 2 sits on 4m/h^2 (h omega < 2); "
             "the limit falls toward m/h^2 as N grows (%.3f m/h^2 at N = %d).",
             SP_DAMP, max_err, k_nmax * SP_H * SP_H, n_last);
    xr_figure(ctx, "s1_stability_map", cap);
    return sm_kh_map(ctx);
}

const xr_section xr_section_s1_stability_map = {
    .name = "s1_stability_map",
    .title = "Measured largest stable k vs h and vs N against m/h^2 and 4m/h^2",
    .scenario = "S1: the hanging chain, explicit springs",
    .figures = XR_FIGURES("s1_stability_map", "s1_stability_kh"),
    .tables = XR_TABLES({"s1_stability_map", "measured stability limits"},
                        {"s1_stability_kh", "stable or not at every (k, h) of a grid"}),
    .run = s1_stability_map_run};
