/* SPDX-License-Identifier: MIT */
/* Sections s1_pbd_stiffness, s1_substeps and s1_xpbd_invariance: S1
 * chain (N = 6, L0 = 0.1 m, m = 1 kg, h = 1/60 s, particle 0 anchored) under
 * PBD with stiffness k_s and under XPBD with compliance alpha, over k_s,
 * substeps n_s and alpha, through the library's step driver.
 *
 * Order: the constraint set is built serially (xpbd_colouring_options
 * .serial = 1), links solved top-down 0-1, 1-2, ..., one Gauss-Seidel pass
 * per iteration: the order that reproduces the original measurements (the coloured
 * red-black order leaves larger one-pass floors, reported beside).
 *
 * Expected values. Besides the closed forms of the hanging chain and cloth (S1), every table carries
 * the steady state of the discrete map: with v = 0 at substep start,
 * predict moves every free particle by -g h_s^2 and the iterations pull the
 * chain back; a configuration the substep maps onto itself is where the
 * simulation settles. For the vertical chain that map is affine in the
 * link stretches, so its fixed point is one small linear solve. It is
 * computed here by a separate 1-D implementation of the scenarios' formulas, not
 * by the library, so the settled simulation checks the library against it.
 *
 * Settling. Velocity damping d = 0.05 per frame (1 - 0.95^(1/n_s) per
 * substep) for 10 s: damping scales only v, which is 0 at the fixed point,
 * so it changes how fast the chain gets there, never where it ends. The
 * undamped time average over frames 300..600 is reported beside it. */
#include "report.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S1_N 6
#define S1_L0 0.1
#define S1_H (1.0 / 60.0)
#define S1_MASS 1.0
#define S1_DAMP_FRAME 0.05   /* velocity fraction removed per frame while settling */
#define S1_SETTLE_FRAMES 600 /* 10 s */
#define S1_AVG_FROM 300      /* undamped average over frames [300, 600) */
/* Headings of the paragraphs explaining where ours differs from the original measurement. */
#define S1_DEV_SAG "Per-step sag: 1/n_s^2 per substep, not the summary's 1/n_s"
#define S1_DEV_A2 "The original n_s = 8 ratios are readings of a settling chain"

/* ------------------------------------------------------------ the chain --- */

typedef struct s1_cfg {
    xpbd_solver solver;
    double alpha; /* compliance (XPBD), m/N */
    double ks;    /* stiffness (PBD) */
    int substeps, iterations;
    double damp_frame; /* 0: undamped */
    int frames;
    int avg_from; /* average the stretch over frames [avg_from, frames) */
    int coloured; /* 1: the library's default colouring instead of serial */
} s1_cfg;

typedef struct s1_out {
    double final, avg, max,
        prev_second;  /* stretch (m): last frame, average, max, 1 s before the end */
    double max_speed; /* max |v| at the last frame */
} s1_out;

/* The S1 chain with its links rebuilt serially (top-down Gauss-Seidel). */
static xpbd_status s1_chain(xs_world_f64 *w, double alpha, int coloured)
{
    xpbd_status st = xs_chain_f64(w, S1_N, S1_L0, alpha);
    if (st != XPBD_OK || coloured)
        return st;
    uint32_t i0[S1_N], i1[S1_N];
    double rest[S1_N], comp[S1_N];
    for (int k = 0; k < S1_N - 1; ++k) {
        i0[k] = (uint32_t)k;
        i1[k] = (uint32_t)k + 1;
        rest[k] = S1_L0;
        comp[k] = alpha;
    }
    xpbd_distance_set_free_f64(&w->set);
    xpbd_colouring_options opt = {0};
    opt.serial = 1;
    st = xpbd_distance_set_build_f64(&w->set, S1_N, S1_N - 1, i0, i1, rest, comp, &opt, NULL);
    if (st != XPBD_OK) {
        xs_world_free_f64(w);
        return st;
    }
    free(w->scratch);
    w->scratch_bytes = xpbd_step_scratch_bytes_f64(S1_N, w->set.slots);
    w->scratch = malloc(w->scratch_bytes);
    if (!w->scratch) {
        xs_world_free_f64(w);
        return XPBD_ERR_NOMEM;
    }
    return XPBD_OK;
}

/* Runs the chain from rest at rest length. series (may be NULL) receives
 * the stretch after every frame. Returns 0, or -1 on a library error. */
static int s1_simulate(const xr_ctx *ctx, const s1_cfg *c, s1_out *o, double *series)
{
    xs_world_f64 w;
    if (s1_chain(&w, c->alpha, c->coloured) != XPBD_OK)
        return -1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = c->solver;
    cfg.pbd_stiffness = c->solver == XPBD_SOLVER_PBD ? c->ks : 1.0;
    cfg.substeps = (uint32_t)c->substeps;
    cfg.iterations = (uint32_t)c->iterations;
    cfg.damping = c->damp_frame > 0 ? 1.0 - pow(1.0 - c->damp_frame, 1.0 / c->substeps) : 0.0;
    cfg.isa = xr_isa(ctx);
    cfg.measure_residual = 0;
    memset(o, 0, sizeof *o);
    double sum = 0;
    int count = 0, rc = 0;
    for (int f = 0; f < c->frames; ++f) {
        if (xpbd_step_f64(&cfg, S1_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) != XPBD_OK) {
            rc = -1;
            break;
        }
        const double s = xs_chain_stretch_f64(&w, S1_L0);
        if (series)
            series[f] = s;
        if (f >= c->avg_from) {
            sum += s;
            ++count;
        }
        if (s > o->max)
            o->max = s;
        if (f == c->frames - 61)
            o->prev_second = s;
        o->final = s;
    }
    o->avg = count ? sum / count : o->final;
    for (int i = 0; i < S1_N; ++i) {
        const double v =
            sqrt(w.p.vx[i] * w.p.vx[i] + w.p.vy[i] * w.p.vy[i] + w.p.vz[i] * w.p.vz[i]);
        if (v > o->max_speed)
            o->max_speed = v;
    }
    xs_world_free_f64(&w);
    return rc;
}

/* --------------------------------------- steady state of the discrete map --- */

/* One substep of the vertical chain from rest (v = 0), in displacements u
 * from the rest configuration (u[0] = anchor = 0, positive up), evaluated
 * from the formulas of the hanging chain (S1): predict u -= g h_s^2 on free particles; then
 * `iterations` top-down passes; link s joins particles s and s+1, its
 * constraint C = u_s - u_{s+1} (stretch), the upper end has w = 0 for s = 0.
 * PBD: dl = -k_s C/(w_s + w_{s+1}); XPBD: dl = (-C - at lambda)/(w_s +
 * w_{s+1} + at) with lambda_s reset at substep start. The lower end moves
 * up by w dl... written with the signs of the 3-D kernel for a link
 * pointing down: u_s += w_s dl, u_{s+1} -= w_{s+1} dl. */
static void s1_map(int n, int pbd, double ks, double alpha, double hs, int iterations, int gravity,
                   double *u)
{
    double lambda[64] = {0};
    const double at = alpha / (hs * hs);
    if (gravity)
        for (int i = 1; i < n; ++i)
            u[i] -= XS_G * hs * hs;
    for (int it = 0; it < iterations; ++it)
        for (int s = 0; s + 1 < n; ++s) {
            const double wi = s == 0 ? 0.0 : 1.0, wj = 1.0;
            const double C = u[s] - u[s + 1];
            double dl;
            if (pbd) {
                dl = -(ks * C) / (wi + wj);
            } else {
                dl = (-C - at * lambda[s]) / (wi + wj + at);
                lambda[s] += dl;
            }
            u[s] += wi * dl;
            u[s + 1] -= wj * dl;
        }
}

/* Total stretch at the fixed point of the substep map, by solving
 * (I - A) u = b for the n - 1 free displacements (A, b read off the affine
 * map: b = map(0), A e_j = map(e_j) without gravity). Gaussian elimination
 * with partial pivoting. NaN if singular. */
static double s1_fixed_point(int n, int pbd, double ks, double alpha, int substeps, int iterations)
{
    enum { M = 63 };
    const int m = n - 1;
    if (m < 1 || m > M)
        return NAN;
    const double hs = S1_H / substeps;
    double A[M][M + 1], u[64];
    for (int j = 0; j < m; ++j) {
        memset(u, 0, sizeof u);
        u[j + 1] = 1.0;
        s1_map(n, pbd, ks, alpha, hs, iterations, 0, u);
        for (int i = 0; i < m; ++i)
            A[i][j] = (i == j ? 1.0 : 0.0) - u[i + 1];
    }
    memset(u, 0, sizeof u);
    s1_map(n, pbd, ks, alpha, hs, iterations, 1, u);
    for (int i = 0; i < m; ++i)
        A[i][m] = u[i + 1];
    for (int c = 0; c < m; ++c) {
        int p = c;
        for (int r = c + 1; r < m; ++r)
            if (fabs(A[r][c]) > fabs(A[p][c]))
                p = r;
        if (A[p][c] == 0)
            return NAN;
        if (p != c)
            for (int k = 0; k <= m; ++k) {
                const double t = A[c][k];
                A[c][k] = A[p][k];
                A[p][k] = t;
            }
        for (int r = c + 1; r < m; ++r) {
            const double f = A[r][c] / A[c][c];
            for (int k = c; k <= m; ++k)
                A[r][k] -= f * A[c][k];
        }
    }
    double x[M + 1];
    x[0] = 0;
    for (int i = m - 1; i >= 0; --i) {
        double s = A[i][m];
        for (int k = i + 1; k < m; ++k)
            s -= A[i][k] * x[k + 1];
        x[i + 1] = s / A[i][i];
    }
    /* total stretch = sum of (u_s - u_{s+1}) = u_0 - u_{n-1} */
    return x[0] - x[m];
}

/* ---------------------------------------------------- s1_pbd_stiffness --- */

static int s1_pbd_stiffness_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** The same hanging chain, now projected by PBD with a stiffness k_s in (0, 1]: each link moves its two ends back by k_s of its error, shared by inverse mass. There is no closed form for the stretch. With k_s = 1 and one Gauss-Seidel pass per frame the chain keeps about 2.7 cm of stretch (the one-pass floor: fixing link i disturbs link i - 1; the original measurement read 0.02725 m after 5 s), and as k_s goes to 0 the chain falls without bound.\n\n");
    const int quick = xr_quick(ctx);
    const int frames = 300; /* 5 s, the original measurement's protocol */
    const double gh2 = XS_G * S1_H * S1_H;
    /* one-pass floor for serial top-down PBD, k_s = 1: in steady state link
     * s keeps (N - 2 - s) g h^2 (solved by hand from the pass; the fixed
     * point solver below confirms it), total (N-1)(N-2)/2 g h^2 */
    const double floor_closed = (S1_N - 1) * (S1_N - 2) / 2.0 * gh2;
    /* small-k_s limit: one pass of stiffness k_s moves a pair like a spring
     * k = k_s m/(h^2 (w_i + w_j)) would in one step, so the anchored link is
     * k_s/h^2 and the others k_s/(2h^2); link s carries N-1-s particles:
     * total (N-1)^2 g h^2 / k_s */
    const double limit_coef = (double)(S1_N - 1) * (S1_N - 1) * gh2;

    const int nk = quick ? 13 : 41;
    FILE *f = xr_table_open(ctx, "s1_pbd_stiffness",
                            "k_s\tstretch_5s\tstretch_avg_4_5s\tstretch_max\tfixed_point\t"
                            "small_ks_limit\tstretch_4s\tstretch_settled");
    if (!f)
        return -1;
    double s_one = NAN, fp_one = NAN, fp_small = NAN, ks_small = NAN, s5_small = NAN,
           s4_small = NAN;
    int rc = 0;
    double maxdev = 0; /* settled (damped) runs vs fixed point, k_s >= 0.05 */
    for (int i = 0; i < nk; ++i) {
        /* log-spaced 1e-4 .. 1, last point exactly 1 */
        const double ks = i == nk - 1 ? 1.0 : pow(10.0, -4.0 + 4.0 * i / (nk - 1));
        s1_cfg c = {XPBD_SOLVER_PBD, 0, ks, 1, 1, 0, frames, frames - 60, 0};
        s1_out o;
        if (s1_simulate(ctx, &c, &o, NULL) != 0) {
            rc = -1;
            break;
        }
        s1_cfg cd = {XPBD_SOLVER_PBD, 0, ks, 1, 1, S1_DAMP_FRAME, S1_SETTLE_FRAMES, 0, 0};
        s1_out od;
        if (s1_simulate(ctx, &cd, &od, NULL) != 0) {
            rc = -1;
            break;
        }
        const double fp = s1_fixed_point(S1_N, 1, ks, 0, 1, 1);
        const double row[8] = {ks, o.final,         o.avg,         o.max,
                               fp, limit_coef / ks, o.prev_second, od.final};
        xr_row(f, 8, row);
        if (i == 0) {
            fp_small = fp;
            ks_small = ks;
            s5_small = o.final;
            s4_small = o.prev_second;
        }
        if (i == nk - 1) {
            s_one = o.final;
            fp_one = fp;
        }
        /* damped for 10 s, the chain reaches the fixed point wherever its
         * slowest mode is fast enough (k_s >= 0.05); below, it is still on
         * its way */
        if (ks >= 0.05)
            maxdev = fmax(maxdev, fabs(od.final - fp) / fp);
        xr_progress(ctx, "k_s sweep", i + 1, nk);
    }
    xr_table_close(f);
    if (rc)
        return rc;

    /* stretch vs time for a few k_s: small ones keep falling */
    static const double ks_t[] = {1e-4, 1e-3, 1e-2, 0.1, 1.0};
    enum { NT = sizeof ks_t / sizeof ks_t[0] };
    double *series = malloc(sizeof(double) * NT * (size_t)frames);
    if (!series)
        return -1;
    for (int k = 0; k < NT; ++k) {
        s1_cfg c = {XPBD_SOLVER_PBD, 0, ks_t[k], 1, 1, 0, frames, 0, 0};
        s1_out o;
        if (s1_simulate(ctx, &c, &o, series + (size_t)k * frames) != 0) {
            free(series);
            return -1;
        }
    }
    f = xr_table_open(ctx, "s1_pbd_stiffness_time", "t\tks_1e-4\tks_1e-3\tks_1e-2\tks_0.1\tks_1");
    if (!f) {
        free(series);
        return -1;
    }
    for (int t = 0; t < frames; ++t) {
        double row[1 + NT];
        row[0] = (t + 1) * S1_H;
        for (int k = 0; k < NT; ++k)
            row[1 + k] = series[(size_t)k * frames + t];
        xr_row(f, 1 + NT, row);
    }
    xr_table_close(f);
    free(series);

    /* the coloured (red-black) order for comparison */
    s1_cfg cc = {XPBD_SOLVER_PBD, 0, 1.0, 1, 1, 0, frames, frames - 60, 1};
    s1_out oc;
    if (s1_simulate(ctx, &cc, &oc, NULL) != 0)
        return -1;

    xr_md(ctx,
          "The hanging chain (S1) projected by PBD with a stiffness k_s (N = 6, L0 = 0.1 m, m = 1 kg, h = 1/60 s), one "
          "Gauss-Seidel pass per frame (n_s = 1, 1 iteration), links solved top-down, chain "
          "released at rest length, stretch read at t = 5 s (the original measurement's protocol). %d values of "
          "k_s from 1e-4 to 1.\n\n"
          "| quantity | ours | expected | original |\n|---|---|---|---|\n"
          "| stretch at k_s = 1, t = 5 s | %.6g m | %.6g m = (N-1)(N-2)/2 g h^2 (one-pass "
          "floor) | 2.7 cm (the scenario also cites 0.02725) |\n"
          "| steady state of the one-pass map, k_s = 1 | %.10g m | %.10g m | - |\n"
          "| k_s = 1, coloured (red-black) order instead | %.6g m | - | - |\n"
          "| steady state at k_s = %.0e | %.4g m | %.4g m = (N-1)^2 g h^2/k_s | chain falls "
          "without bound |\n"
          "| stretch at t = 4 s / 5 s, k_s = %.0e | %.4g / %.4g m | still growing | - |\n\n"
          "Why 10 g h^2: in steady state each frame's prediction moves every free particle by "
          "g h^2, which only the anchored link feels; the top-down pass hands half of each "
          "link's correction to the link above, and the fixed point leaves link s with "
          "(N-2-s) g h^2 = 4, 3, 2, 1, 0 times g h^2. As k_s -> 0 the steady stretch grows like "
          "1/k_s and the chain needs ever longer to get there: for k_s <= 1e-3 it is still "
          "falling at 5 s (figure, right).\n\n",
          nk, s_one, floor_closed, fp_one, floor_closed, oc.final, ks_small, fp_small,
          limit_coef / ks_small, ks_small, s4_small, s5_small);

    xr_tolerance_source(ctx, "original measurement: 2.7 cm printed to two digits, half a unit "
                             "of the last: 5e-4 m");
    xr_reference_check(ctx, "PBD, k_s = 1, one pass per frame: stretch at 5 s (m)", 0.027,
                       s_one, xr_abs(5e-4), NULL, NULL);
    xr_tolerance_source(ctx, "closed form: the one-pass floor (N-1)(N-2)/2 g h^2; 1e-4 after "
                             "5 s of settling, 1e-9 for the map's own fixed point, 1e-6 damped");
    xr_check_rel(ctx, "same, against the one-pass floor (N-1)(N-2)/2 g h^2 (m)", s_one,
                 floor_closed, 1e-4, NULL);
    xr_check_rel(ctx, "steady state of the one-pass map, k_s = 1, vs (N-1)(N-2)/2 g h^2", fp_one,
                 floor_closed, 1e-9, NULL);
    xr_check(ctx, "k_s >= 0.05, settled with damping vs steady state of the map, max rel. dev.",
             maxdev, 0, xr_abs(1e-6), NULL);
    xr_tolerance_source(ctx, "closed form: the small-k_s limit (N-1)^2 g h^2/k_s, first order "
                             "in k_s: 1%; still falling means > 5% over the last second");
    xr_check_rel(ctx, "k_s = 1e-4: steady state vs (N-1)^2 g h^2/k_s (m)", fp_small,
                 limit_coef / ks_small, 0.01, NULL);
    xr_check(ctx, "k_s = 1e-4: still falling, stretch(5 s) / stretch(4 s)", s5_small / s4_small, 1,
             xr_above(1.05), NULL);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "PBD with a stiffness k_s on the hanging chain (S1) (N = 6, h = 1/60 s, one top-down pass per frame). Left: "
             "total stretch vs stiffness k_s at t = 5 s, the average over 4-5 s, and the steady "
             "state of the one-pass map; it grows like (N-1)^2 g h^2/k_s as k_s -> 0, and at "
             "k_s = 1 it stops at the one-pass floor (N-1)(N-2)/2 g h^2 = %.5f m (ours %.5f m, "
             "original measurement 2.7 cm). Right: stretch vs time; for small k_s the chain is still falling "
             "after 5 s.",
             floor_closed, s_one);
    xr_figure(ctx, "s1_pbd_stiffness", cap);
    return 0;
}

/* ---------------------------------------------------------- s1_substeps --- */

/* Projects one link (static top at 0, free end at -2, rest 1: C0 = 1) n
 * times with PBD stiffness ks through the library's serial reference
 * kernel, and returns 1 - C_n/C0, the equivalent single-pass stiffness.
 * Every intermediate value is a short binary fraction, so for n <= 16 the
 * result is exact. NaN on error. */
static double s1_keq_kernel(double ks, int n)
{
    double x[2] = {0, 0}, y[2] = {0, -2}, z[2] = {0, 0}, zero[2] = {0, 0};
    double px[2], py[2], pz[2], w[2] = {0, 1};
    xpbd_particles_f64 p = {2, x, y, z, px, py, pz, zero, zero, zero, w};
    const uint32_t i0 = 0, i1 = 1;
    const double rest = 1, comp = 0;
    xpbd_colouring_options opt = {0};
    opt.serial = 1;
    xpbd_distance_set_f64 set;
    if (xpbd_distance_set_build_f64(&set, 2, 1, &i0, &i1, &rest, &comp, &opt, NULL) != XPBD_OK)
        return NAN;
    const double c0 = (y[0] - y[1]) - rest;
    for (int k = 0; k < n; ++k)
        xpbd_serial_distance_pbd_f64(&p, &set, set.overflow_begin, set.slots, ks);
    xpbd_distance_set_free_f64(&set);
    const double cn = (y[0] - y[1]) - rest;
    return 1 - cn / c0;
}

static int s1_substeps_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** PBD with substeps: k_s is held at 0.5 and each frame is cut into n_s substeps. A constraint projected n times keeps (1 - k_s)^n of its error, which suggests one equivalent pass of stiffness 1 - (1 - k_s)^n (0.75 for n = 2, 0.9375 for n = 4). The original measurement found the two disagree, by up to 18 times, because substeps also shrink each step's sag while k_s stays: k_s has no physical meaning.\n\n");
    static const int ns_list[] = {1, 2, 4, 8, 16, 32};
    const int nn = 6;
    const double ks = 0.5, alpha = 1e-3;
    const double closed = xs_chain_stretch_closed(S1_N, S1_MASS, alpha);

    FILE *f = xr_table_open(ctx, "s1_substeps",
                            "n_s\tpbd_stretch\tk_eq\tk_eq_kernel\tsingle_pass_stretch\tratio\t"
                            "pbd_fixed_point\tsingle_fixed_point\txpbd1_stretch\txpbd1_ratio\t"
                            "xpbd4_stretch\txpbd4_ratio\txpbd_closed\tpbd_undamped_avg");
    if (!f)
        return -1;
    double pbd[6], keq[6], keqk[6], single[6], x1[6], x4[6];
    double dev_fp = 0, dev_scaling = 0;
    xr_md(ctx,
          "PBD with substeps on the hanging chain (S1): k_s frozen at 0.5, n_s substeps of h/n_s with one projection "
          "each, against the single pass (n_s = 1) with the \"equivalent\" stiffness "
          "k_eq = 1 - (1 - k_s)^n_s that n projections would have on one isolated link. Beside "
          "it, XPBD with alpha = 1e-3 m/N (closed form %.5f m) at the same cost (1 iteration "
          "per substep) and at 4. Settled with damping (see s1_xpbd_invariance); \"fixed "
          "point\" is the steady state of the discrete map solved directly.\n\n"
          "| n_s | PBD stretch (m) | k_eq | k_eq through the kernel | single pass at k_eq (m) | "
          "ratio | XPBD 1 it / closed | XPBD 4 it / closed |\n"
          "|---|---|---|---|---|---|---|---|\n",
          closed);
    int rc = 0;
    for (int i = 0; i < nn && !rc; ++i) {
        const int n = ns_list[i];
        keq[i] = 1 - pow(1 - ks, n);
        keqk[i] = s1_keq_kernel(ks, n);
        s1_cfg c = {XPBD_SOLVER_PBD, 0, ks, n, 1, S1_DAMP_FRAME, S1_SETTLE_FRAMES, 0, 0};
        s1_out o, os, o1, o4, ou;
        rc |= s1_simulate(ctx, &c, &o, NULL);
        s1_cfg cs = {XPBD_SOLVER_PBD, 0, keq[i], 1, 1, S1_DAMP_FRAME, S1_SETTLE_FRAMES, 0, 0};
        rc |= s1_simulate(ctx, &cs, &os, NULL);
        s1_cfg c1 = {XPBD_SOLVER_XPBD, alpha, 1, n, 1, S1_DAMP_FRAME, S1_SETTLE_FRAMES, 0, 0};
        rc |= s1_simulate(ctx, &c1, &o1, NULL);
        s1_cfg c4 = c1;
        c4.iterations = 4;
        rc |= s1_simulate(ctx, &c4, &o4, NULL);
        s1_cfg cu = c;
        cu.damp_frame = 0;
        cu.avg_from = S1_AVG_FROM;
        rc |= s1_simulate(ctx, &cu, &ou, NULL);
        const double fp = s1_fixed_point(S1_N, 1, ks, 0, n, 1);
        const double fps = s1_fixed_point(S1_N, 1, keq[i], 0, 1, 1);
        pbd[i] = o.final;
        single[i] = os.final;
        x1[i] = o1.final;
        x4[i] = o4.final;
        dev_fp = fmax(dev_fp, fmax(fabs(o.final - fp) / fp, fabs(os.final - fps) / fps));
        /* the steady state is linear in the per-substep sag g h_s^2, and
         * k_s does not change with n_s: stretch(n_s) = stretch(1)/n_s^2 */
        dev_scaling = fmax(dev_scaling, fabs(pbd[i] * n * n / pbd[0] - 1));
        const double row[14] = {
            n,      o.final, keq[i],   keqk[i],           os.final, o.final / os.final,
            fp,     fps,     o1.final, o1.final / closed, o4.final, o4.final / closed,
            closed, ou.avg};
        xr_row(f, 14, row);
        char note[64] = "";
        if (n == 8)
            snprintf(note, sizeof note, " (1/%.1f; original measurement: off by up to 18x)", os.final / o.final);
        xr_md(ctx, "| %d | %.6g | %.10g | %.10g | %.6g | %.4g%s | %.5f | %.5f |\n", n, o.final,
              keq[i], keqk[i], os.final, o.final / os.final, note, o1.final / closed,
              o4.final / closed);
        xr_progress(ctx, "substeps", i + 1, nn);
    }
    xr_table_close(f);
    if (rc)
        return -1;

    double pmin = pbd[0], pmax = pbd[0], x1min = x1[0], x1max = x1[0], x4min = x4[0], x4max = x4[0];
    const int nchk = 5; /* n_s = 1..16, the original measurement's range and then some */
    for (int i = 1; i < nchk; ++i) {
        pmin = fmin(pmin, pbd[i]);
        pmax = fmax(pmax, pbd[i]);
        x1min = fmin(x1min, x1[i]);
        x1max = fmax(x1max, x1[i]);
        x4min = fmin(x4min, x4[i]);
        x4max = fmax(x4max, x4[i]);
    }
    const double pbd_var = pmax / pmin;
    const double x1_var = (x1max - x1min) / closed, x4_var = (x4max - x4min) / closed;
    xr_md(ctx,
          "\nOver n_s = 1..16 the PBD stretch changes by a factor %.0f (it is exactly "
          "stretch(1)/n_s^2: the steady state is linear in the per-substep sag g h_s^2 and k_s "
          "does not follow n_s), while XPBD moves by %.1f%% of its closed form at 1 iteration "
          "per substep) and %.3f%% at 4. The equivalent single pass does not reproduce the "
          "substepped stretch: substeps also shrink the sag per step, and k_s does not follow "
          "n_s, so k_s has no physical meaning (PBD with substeps (S1)).\n\n"
          "### " S1_DEV_SAG "\n\n"
          "The scenario says substeps shrink the per-step sag by 1/n_s. The sag a substep adds "
          "is g h_s^2 with h_s = h/n_s, i.e. 1/n_s^2 per substep (1/n_s per frame, summed over "
          "its n_s substeps); the steady state of the PBD map is linear in the per-substep sag "
          "and k_s stays fixed, so the settled stretch is exactly stretch(1)/n_s^2, which the "
          "table shows to %.1g. The original measurement's sentence counts per frame; the scaling of the "
          "stretch is 1/n_s^2.\n\n",
          pbd_var, 100 * x1_var, 100 * x4_var, dev_scaling);

    xr_tolerance_source(ctx, "original measurement: 'off by up to 18x' at n_s = 8, read to 10%");
    xr_reference_check(ctx, "PBD: single pass at k_eq / substepped, n_s = 8", 18,
                       1 / (pbd[3] / single[3]), xr_rel(0.10), NULL, NULL);
    xr_tolerance_source(ctx, "closed form: steady state of the discrete map; 1e-6 for the "
                             "damped settling of 600 frames");
    xr_check(ctx, "PBD settled stretch vs fixed point of the map, max rel. dev.", dev_fp, 0,
             xr_abs(1e-6), NULL);
    xr_check(ctx, "PBD stretch(n_s) n_s^2 / stretch(1) - 1, max over n_s = 1..32", dev_scaling, 0,
             xr_abs(1e-6), NULL);
    xr_tolerance_source(ctx, "physics: one Gauss-Seidel pass adds at most the one-pass floor "
                             "(N-1)(N-2)/2 g h^2 = 0.02725 m (PBD stiffness (S1)) to the compliant stretch");
    const double floor_rel = (S1_N - 1) * (S1_N - 2) / 2.0 * XS_G * S1_H * S1_H / closed;
    xr_check(ctx, "XPBD, alpha = 1e-3, 1 it: (max-min)/closed over n_s = 1..16", x1_var, floor_rel,
             xr_at_most(floor_rel), NULL);
    xr_tolerance_source(ctx, "original measurement: XPBD substep-invariant to 0.4% (XPBD chain (S1))");
    xr_check(ctx, "XPBD, alpha = 1e-3, 4 it: (max-min)/closed over n_s = 1..16", x4_var, 0,
             xr_abs(0.004), NULL);
    /* the original's 1/n_s counts the sag per frame; the stretch scales
     * as 1/n_s^2, which the scaling check above holds to its tolerance */
    xr_reference(ctx, "per-step sag factor at n_s = 2 (the scenario says 1/n_s)", 0.5,
                 pbd[1] / pbd[0], NULL, S1_DEV_SAG);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "PBD with substeps on the hanging chain (S1): k_s = 0.5 and n_s substeps (one projection each) against "
             "one pass at the equivalent stiffness 1 - (1 - k_s)^n_s, and XPBD (alpha = 1e-3, "
             "closed form %.4f m) beside it. Left: settled stretch vs n_s; PBD falls as "
             "1/n_s^2 (a factor %.0f over n_s = 1..16), XPBD stays on its closed form. Right: "
             "PBD substepped / equivalent single pass, 1/%.1f at n_s = 8 (original measurement: off by up to "
             "18x).",
             closed, pbd_var, single[3] / pbd[3]);
    xr_figure(ctx, "s1_substeps", cap);
    return 0;
}

/* --------------------------------------------------- s1_xpbd_invariance --- */

static int s1_xpbd_invariance_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** The hanging chain under XPBD: each link has compliance alpha = 1/k, scaled per substep as alpha~ = alpha/h_s^2, and the closed form is the spring chain's stretch m g N(N-1)/2 alpha (1.4715, 0.14715, 0.014715 and 0.0014715 m for alpha = 1e-2 to 1e-5). The original measurement found the 8-substep result within 0.4%% of the closed form for every compliance (ratios 0.990, 1.000, 1.004, 1.002), where PBD differed 18 times; with one substep the two stiffest rows read 0.0176 and 0.0069 m, because the one-pass floor hides the compliance. The compliance sets the target; substeps decide how close the solver gets.\n\n");
    const int quick = xr_quick(ctx);
    static const double alphas[] = {1e-2, 1e-3, 1e-4, 1e-5};
    static const int ns_full[] = {1, 2, 4, 8, 16, 32};
    static const int ns_quick[] = {1, 4, 8, 32};
    const int *ns_list = quick ? ns_quick : ns_full;
    const int nn = quick ? 4 : 6, na = 4, iters = 4;
    /* the XPBD chain (S1) original numbers: ratio at n_s = 8, stretch at n_s = 1 */
    static const double seed8[] = {0.990, 1.000, 1.004, 1.002};
    static const double seed1[] = {NAN, NAN, 0.0176, 0.0069};

    /* the floor: the same solver with alpha = 0 (rigid links), same n_s and
     * iterations, settled the same way */
    double floor_ns[6];
    int rc = 0;
    for (int j = 0; j < nn; ++j) {
        s1_cfg c = {XPBD_SOLVER_XPBD, 0, 1, ns_list[j], iters, S1_DAMP_FRAME,
                    S1_SETTLE_FRAMES, 0, 0};
        s1_out o;
        rc |= s1_simulate(ctx, &c, &o, NULL);
        floor_ns[j] = o.final;
    }
    if (rc)
        return -1;

    FILE *f = xr_table_open(ctx, "s1_xpbd_invariance",
                            "alpha\tn_s\tclosed\tstretch\tratio\tratio_fixed_point\t"
                            "ratio_undamped_avg\tfloor\toriginal_ratio\toriginal_stretch");
    if (!f)
        return -1;
    double ratio[4][6], ratio_u[4][6], fpr[4][6], stretch[4][6];
    double dev_fp = 0;
    int checked10 = 0, ok10 = 0;
    double worst10 = 0;
    for (int a = 0; a < na && !rc; ++a) {
        const double closed = xs_chain_stretch_closed(S1_N, S1_MASS, alphas[a]);
        for (int j = 0; j < nn; ++j) {
            const int n = ns_list[j];
            s1_cfg c = {XPBD_SOLVER_XPBD, alphas[a],        1, n, iters,
                        S1_DAMP_FRAME,    S1_SETTLE_FRAMES, 0, 0};
            s1_out o, ou;
            rc |= s1_simulate(ctx, &c, &o, NULL);
            s1_cfg cu = c;
            cu.damp_frame = 0;
            cu.avg_from = S1_AVG_FROM;
            rc |= s1_simulate(ctx, &cu, &ou, NULL);
            const double fp = s1_fixed_point(S1_N, 0, 1, alphas[a], n, iters);
            stretch[a][j] = o.final;
            ratio[a][j] = o.final / closed;
            ratio_u[a][j] = ou.avg / closed;
            fpr[a][j] = fp / closed;
            dev_fp = fmax(dev_fp, fabs(o.final - fp) / fp);
            if (closed >= 10 * floor_ns[j]) {
                ++checked10;
                const double d = fabs(ratio[a][j] - 1);
                worst10 = fmax(worst10, d);
                ok10 += d <= 0.01;
            }
            const double row[10] = {alphas[a],
                                    n,
                                    closed,
                                    o.final,
                                    ratio[a][j],
                                    fpr[a][j],
                                    ratio_u[a][j],
                                    floor_ns[j],
                                    n == 8 ? seed8[a] : NAN,
                                    n == 1 ? seed1[a] : NAN};
            xr_row(f, 10, row);
            xr_progress(ctx, "alpha x n_s", a * nn + j + 1, na * nn);
        }
    }
    xr_table_close(f);
    if (rc)
        return -1;

    xr_md(ctx,
          "The XPBD chain (S1) (N = 6): compliance alpha per link, %d iterations per "
          "substep, n_s substeps of h/n_s, links top-down. Stretch / closed form "
          "m g N(N-1)/2 alpha.\n\n"
          "Settling (the method): velocity damping of %.0f%% per frame (1 - 0.95^(1/n_s) per "
          "substep) for %d frames = %.0f s, stretch read at the last frame. Damping scales "
          "only v, and v = 0 at the steady state, so it decides how fast the chain gets "
          "there, not where; the settled values agree with the fixed point of the discrete "
          "map (solved directly) to %.1e. Without damping alpha = 1e-2 swings widely: the "
          "undamped average over frames 300..600 is shown for comparison (1.08 for alpha = "
          "1e-2; the original measurement's 0.990 came from its own settling, which the scenario does not give).\n\n"
          "| alpha (m/N) | closed (m) |",
          iters, 100 * S1_DAMP_FRAME, S1_SETTLE_FRAMES, S1_SETTLE_FRAMES * S1_H, dev_fp);
    for (int j = 0; j < nn; ++j)
        xr_md(ctx, " n_s = %d |", ns_list[j]);
    xr_md(ctx, " original n_s = 8 | undamped avg, n_s = 8 |\n|---|---|");
    for (int j = 0; j < nn + 2; ++j)
        xr_md(ctx, "---|");
    xr_md(ctx, "\n");
    int j8 = -1, j1 = -1;
    for (int j = 0; j < nn; ++j) {
        if (ns_list[j] == 8)
            j8 = j;
        if (ns_list[j] == 1)
            j1 = j;
    }
    for (int a = 0; a < na; ++a) {
        xr_md(ctx, "| %.0e | %.6g |", alphas[a], xs_chain_stretch_closed(S1_N, S1_MASS, alphas[a]));
        for (int j = 0; j < nn; ++j)
            xr_md(ctx, " %.4f |", ratio[a][j]);
        xr_md(ctx, " %.3f | %.4f |\n", seed8[a], ratio_u[a][j8]);
    }
    xr_md(ctx, "| floor (alpha = 0), m | - |");
    for (int j = 0; j < nn; ++j)
        xr_md(ctx, " %.3g |", floor_ns[j]);
    xr_md(ctx, " - | - |\n\n");
    xr_md(ctx,
          "At n_s = 1 the two stiffest rows read %.4f m and %.4f m (original measurement 0.0176 and 0.0069, "
          "closed form 0.0147 / 0.0015): the one-pass floor, %.4f m here with %d iterations, "
          "hides the compliance. From n_s = 4 on they sit on the closed form.\n\n"
          "Which rows are checked: the floor at n_s is the stretch the same solver leaves "
          "with alpha = 0 (rigid links), same n_s and iterations, settled the same way; it is "
          "what the iterations cannot remove and it falls like 1/n_s^2. S1's check is "
          "made at n_s = 8 for every row whose closed form exceeds the floor at n_s = 8 "
          "(%.2g m): all four rows. Across the whole table, every entry whose closed form is "
          "at least 10 times its floor is within 1%% (%d entries; worst %.3f%%).\n\n",
          stretch[2][j1], stretch[3][j1], floor_ns[j1], iters, floor_ns[j8], checked10,
          100 * worst10);

    xr_tolerance_source(ctx, "original measurement: n_s = 8 ratios within 0.4% of 1 (XPBD chain (S1)), read to 1%; "
                             "n_s = 1 stretches printed to 3 digits, 1%");
    xr_md(ctx,
          "### " S1_DEV_A2 "\n\n"
          "The softest row stretches %.3f m and, undamped, swings about its equilibrium for "
          "seconds (our undamped average over frames 300..600 reads %.4f of the closed form). "
          "Settled, ours reads %.6f; the original measurement's 0.990 is 1%% below the closed form, the size "
          "of that swing, and the scenario does not say how the original measurement settled its chain. The closed "
          "form, which both approach, is the reference of the check. The other original "
          "ratios at n_s = 8 (1.000, 1.004, 1.002) scatter the same way within the 0.4%% the "
          "original states; ours sit at the discrete map's fixed point, %.2g, %.2g and %.2g "
          "from the closed form, and each row's check holds ours to that fixed point's "
          "iteration error plus the settling tolerance. Only the stiffest row's 1.002 is the "
          "iteration floor, which ours shows too.\n\n",
          xs_chain_stretch_closed(S1_N, S1_MASS, 1e-2), ratio_u[0][j8], ratio[0][j8],
          ratio[1][j8] - 1, ratio[2][j8] - 1, ratio[3][j8] - 1);
    /* n_s = 8 against the closed form: the settled run differs from the
     * discrete map's own fixed point by its settling (1e-6, checked below
     * over every entry), and that fixed point differs from the closed form
     * by what 4 iterations per substep leave unconverged, which the map
     * itself gives (solved directly, no time stepping): 5e-13 .. 2e-3 over
     * the four rows, the stiffest row the one-pass floor's share */
    for (int a = 0; a < na; ++a) {
        const double closed = xs_chain_stretch_closed(S1_N, S1_MASS, alphas[a]);
        char what[96], from[240];
        snprintf(what, sizeof what, "alpha = %.0e, n_s = 8: stretch / closed form", alphas[a]);
        const double iter_err = fabs(fpr[a][j8] - 1);
        snprintf(from, sizeof from,
                 "settling 1e-6 (settled vs the map's fixed point) + the fixed point's own "
                 "iteration error %.2g (the map solved directly, 4 iterations per substep)",
                 iter_err);
        if (closed > floor_ns[j8])
            xr_check(ctx, what, ratio[a][j8], 1.0, xr_rel(1e-6 + iter_err), from);
        char item[96];
        snprintf(item, sizeof item, "XPBD, alpha = %.0e: stretch / closed form, n_s = 8",
                 alphas[a]);
        xr_reference(ctx, item, seed8[a], ratio[a][j8], closed > floor_ns[j8] ? what : NULL,
                     S1_DEV_A2);
    }
    xr_tolerance_source(ctx, "original measurement: printed to 3 digits (0.0176) and 2 (0.0069), "
                             "half a unit of the last: 5e-5 m");
    xr_reference_check(ctx, "XPBD, alpha = 1e-4, n_s = 1: stretch (m)", 0.0176,
                       stretch[2][j1], xr_abs(5e-5), NULL, NULL);
    xr_reference_check(ctx, "XPBD, alpha = 1e-5, n_s = 1: stretch (m)", 0.0069,
                       stretch[3][j1], xr_abs(5e-5), NULL, NULL);
    xr_tolerance_source(ctx, "closed form; 1% where the closed form is 10x the one-pass floor "
                             "(the floor's share, <= 10%, is itself compliant)");
    xr_check(ctx, "entries with closed form >= 10x floor within 1% (entries)", ok10, checked10,
             xr_exact(), NULL);
    xr_check(ctx, "entries with closed form >= 10x floor", checked10, NAN, xr_at_least(1), NULL);
    xr_tolerance_source(ctx, "closed form: steady state of the discrete map; 1e-6 for the "
                             "damped settling of 600 frames");
    xr_check(ctx, "settled stretch vs fixed point of the map, max rel. dev.", dev_fp, 0,
             xr_abs(1e-6), NULL);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "The XPBD chain (S1) (N = 6, %d iterations per substep), settled with "
             "damping. Left: stretch vs substeps n_s for alpha = 1e-2 ... 1e-5 m/N, closed forms "
             "m g N(N-1)/2 alpha dashed, and the floor (alpha = 0) that falls as 1/n_s^2. Right: "
             "|stretch / closed form - 1|, log scale; at n_s = 8 the ratios are %.4f, %.4f, %.4f, %.4f (original measurement "
             "0.990, 1.000, 1.004, 1.002), within 1%% everywhere the closed form is 10x the "
             "floor. At n_s = 1 the floor hides the two stiffest rows (%.4f and %.4f m; original "
             "0.0176 and 0.0069).",
             iters, ratio[0][j8], ratio[1][j8], ratio[2][j8], ratio[3][j8], stretch[2][j1],
             stretch[3][j1]);
    xr_figure(ctx, "s1_xpbd_invariance", cap);
    return 0;
}

const xr_section xr_section_s1_pbd_stiffness = {
    .name = "s1_pbd_stiffness",
    .title = "PBD total stretch vs k_s at one pass per frame; k_s = 1 -> 0.027 m",
    .spec = "S1: the hanging chain, PBD with a stiffness k_s",
    .figures = XR_FIGURES("s1_pbd_stiffness"),
    .tables = XR_TABLES({"s1_pbd_stiffness", "PBD k_s sweep at one pass per frame"},
                        {"s1_pbd_stiffness_time", "stretch vs time for a few k_s"}),
    .run = s1_pbd_stiffness_run};

const xr_section xr_section_s1_substeps = {
    .name = "s1_substeps",
    .title = "PBD k_s = 0.5 vs substeps against the equivalent single pass, beside XPBD",
    .spec = "S1: the hanging chain, PBD with substeps",
    .figures = XR_FIGURES("s1_substeps"),
    .tables = XR_TABLES({"s1_substeps", "PBD with substeps, with XPBD beside it"}),
    .run = s1_substeps_run};

const xr_section xr_section_s1_xpbd_invariance = {
    .name = "s1_xpbd_invariance",
    .title = "XPBD stretch / closed form for alpha 1e-2..1e-5 and n_s = 1, 4, 8, ...",
    .spec = "S1: the hanging chain, XPBD with compliance",
    .figures = XR_FIGURES("s1_xpbd_invariance"),
    .tables = XR_TABLES({"s1_xpbd_invariance", "XPBD stretch / closed form per compliance and substep count"}),
    .run = s1_xpbd_invariance_run};
