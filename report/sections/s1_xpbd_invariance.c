/* SPDX-License-Identifier: MIT */
/* Section s1_xpbd_invariance: the S1 chain (shared/s1_chain.h) under XPBD
 * with compliance alpha, over alpha and substeps n_s, against the closed
 * form and the steady state of the discrete map. */
#include "report.h"
#include "shared/s1_chain.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The heading of the paragraph explaining where ours differs from the original measurement. */
#define S1_DEV_A2 "The original n_s = 8 ratios beside the settled chain"

static const double xi_alphas[] = {1e-2, 1e-3, 1e-4, 1e-5};
/* the XPBD chain (S1) original numbers: ratio at n_s = 8, stretch at n_s = 1 */
static const double xi_original8[] = {0.990, 1.000, 1.004, 1.002};
static const double xi_original1[] = {NAN, NAN, 0.0176, 0.0069};

/* The alpha x n_s sweep and what the prose and the checks read off it. */
typedef struct xi_state {
    const int *ns_list;
    int nn, na, iters, j8, j1;
    double floor_ns[6];
    double ratio[4][6], ratio_u[4][6], fpr[4][6], stretch[4][6];
    double dev_fp, worst10;
    int checked10, ok10;
} xi_state;

/* Sweep point i: alpha a = i / nn at n_s = ns_list[i % nn], settled with
 * damping and undamped, against the closed form and the map's fixed point. */
static int xi_point(xr_ctx *ctx, int i, double *row, void *arg)
{
    xi_state *S = arg;
    const int a = i / S->nn, j = i % S->nn, iters = S->iters, *ns_list = S->ns_list;
    const double *alphas = xi_alphas, *original8 = xi_original8, *original1 = xi_original1;
    const double closed = xs_chain_stretch_closed(S1_N, S1_MASS, alphas[a]);
    int rc = 0;
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
    S->stretch[a][j] = o.final;
    S->ratio[a][j] = o.final / closed;
    S->ratio_u[a][j] = ou.avg / closed;
    S->fpr[a][j] = fp / closed;
    S->dev_fp = fmax(S->dev_fp, fabs(o.final - fp) / fp);
    if (closed >= 10 * S->floor_ns[j]) {
        ++S->checked10;
        const double d = fabs(S->ratio[a][j] - 1);
        S->worst10 = fmax(S->worst10, d);
        S->ok10 += d <= 0.01;
    }
    const double v[10] = {alphas[a],
                          n,
                          closed,
                          o.final,
                          S->ratio[a][j],
                          S->fpr[a][j],
                          S->ratio_u[a][j],
                          S->floor_ns[j],
                          n == 8 ? original8[a] : NAN,
                          n == 1 ? original1[a] : NAN};
    memcpy(row, v, sizeof v);
    return rc ? -1 : 0;
}

/* The floor, then the sweep into the s1_xpbd_invariance table. Returns 0 or
 * -1. */
static int xi_sweep(xr_ctx *ctx, xi_state *S)
{
    const int *ns_list = S->ns_list, nn = S->nn, iters = S->iters;
    double *floor_ns = S->floor_ns;
    /* the floor: the same solver with alpha = 0 (rigid links), same n_s and
     * iterations, settled the same way */
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
    const xr_sweep sweep = {"s1_xpbd_invariance",
                            "alpha\tn_s\tclosed\tstretch\tratio\tratio_fixed_point\t"
                            "ratio_undamped_avg\tfloor\toriginal_ratio\toriginal_stretch",
                            "alpha x n_s", S->na * nn, 10, xi_point, S};
    if (xr_sweep_table(ctx, &sweep) != 0)
        return -1;
    int j8 = -1, j1 = -1;
    for (int j = 0; j < nn; ++j) {
        if (ns_list[j] == 8)
            j8 = j;
        if (ns_list[j] == 1)
            j1 = j;
    }
    S->j8 = j8;
    S->j1 = j1;
    return 0;
}

/* The prose: the table of ratios and the floor. */
static void xi_write(xr_ctx *ctx, const xi_state *S)
{
    const int *ns_list = S->ns_list, nn = S->nn, na = S->na, iters = S->iters;
    const int j8 = S->j8, j1 = S->j1, checked10 = S->checked10;
    const double *alphas = xi_alphas, *original8 = xi_original8, *floor_ns = S->floor_ns;
    const double(*ratio)[6] = S->ratio, (*ratio_u)[6] = S->ratio_u, (*stretch)[6] = S->stretch;
    const double dev_fp = S->dev_fp, worst10 = S->worst10;
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
          "1e-2; how the original measurement settled its chain for its 0.990 the scenario does not say).\n\n"
          "| alpha (m/N) | closed (m) |",
          iters, 100 * S1_DAMP_FRAME, S1_SETTLE_FRAMES, S1_SETTLE_FRAMES * S1_H, dev_fp);
    for (int j = 0; j < nn; ++j)
        xr_md(ctx, " n_s = %d |", ns_list[j]);
    xr_md(ctx, " original n_s = 8 | undamped avg, n_s = 8 |\n|---|---|");
    for (int j = 0; j < nn + 2; ++j)
        xr_md(ctx, "---|");
    xr_md(ctx, "\n");
    for (int a = 0; a < na; ++a) {
        xr_md(ctx, "| %.0e | %.6g |", alphas[a], xs_chain_stretch_closed(S1_N, S1_MASS, alphas[a]));
        for (int j = 0; j < nn; ++j)
            xr_md(ctx, " %.4f |", ratio[a][j]);
        xr_md(ctx, " %.3f | %.4f |\n", original8[a], ratio_u[a][j8]);
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
}

/* The checks, with the paragraph on the original n_s = 8 ratios. */
static void xi_check(xr_ctx *ctx, const xi_state *S)
{
    const int na = S->na, j8 = S->j8, j1 = S->j1, checked10 = S->checked10, ok10 = S->ok10;
    const double *alphas = xi_alphas, *original8 = xi_original8, *floor_ns = S->floor_ns;
    const double(*ratio)[6] = S->ratio, (*ratio_u)[6] = S->ratio_u, (*stretch)[6] = S->stretch;
    const double(*fpr)[6] = S->fpr, dev_fp = S->dev_fp;
    xr_tolerance_source(ctx, "original measurement: n_s = 8 ratios within 0.4% of 1 (XPBD chain (S1)), read to 1%; "
                             "n_s = 1 stretches printed to 3 digits, 1%");
    xr_md(ctx,
          "### " S1_DEV_A2 "\n\n"
          "The softest row stretches %.3f m. Undamped, it still swings after 10 s: our "
          "average over frames 300..600 reads %.4f of the closed form (%+.1f%%, where the "
          "original reads -1%%). Settled (damped to the discrete map's fixed point) ours reads %.6f. The "
          "original measurement's 0.990 is neither, and the scenario does not say how its "
          "chain was damped or when it was read, so this report does not explain that row: "
          "the check holds ours to the closed form, and the original's 0.990 stands beside it "
          "unexplained. The other original ratios at n_s = 8 (1.000, 1.004, 1.002) lie within "
          "the 0.4%% the original states; ours sit at the discrete map's fixed point, %.2g, "
          "%.2g and %.2g "
          "from the closed form, and each row's check holds ours to that fixed point's "
          "iteration error plus the settling tolerance. Only the stiffest row's 1.002 is the "
          "iteration floor, which ours shows too.\n\n",
          xs_chain_stretch_closed(S1_N, S1_MASS, 1e-2), ratio_u[0][j8], 100 * (ratio_u[0][j8] - 1),
          ratio[0][j8],
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
        xr_reference(ctx, item, original8[a], ratio[a][j8], closed > floor_ns[j8] ? what : NULL,
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
}

static int s1_xpbd_invariance_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** The hanging chain under XPBD: each link has compliance alpha = 1/k, scaled per substep as alpha~ = alpha/h_s^2, and the closed form is the spring chain's stretch m g N(N-1)/2 alpha (1.4715, 0.14715, 0.014715 and 0.0014715 m for alpha = 1e-2 to 1e-5). The original measurement found the 8-substep result within 0.4%% of the closed form for every compliance (ratios 0.990, 1.000, 1.004, 1.002), where PBD differed 18 times; with one substep the two stiffest rows read 0.0176 and 0.0069 m, because the one-pass floor hides the compliance. The compliance sets the target; substeps decide how close the solver gets.\n\n");
    const int quick = xr_quick(ctx);
    static const int ns_full[] = {1, 2, 4, 8, 16, 32};
    static const int ns_quick[] = {1, 4, 8, 32};
    const int *ns_list = quick ? ns_quick : ns_full;
    xi_state S = {.ns_list = ns_list, .nn = quick ? 4 : 6, .na = 4, .iters = 4};
    if (xi_sweep(ctx, &S) != 0)
        return -1;
    xi_write(ctx, &S);
    xi_check(ctx, &S);
    const xi_state *T = &S;
    const int iters = T->iters, j8 = T->j8, j1 = T->j1;
    const double(*ratio)[6] = T->ratio, (*stretch)[6] = T->stretch;
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

const xr_section xr_section_s1_xpbd_invariance = {
    .name = "s1_xpbd_invariance",
    .title = "XPBD stretch / closed form for alpha 1e-2..1e-5 and n_s = 1, 4, 8, ...",
    .scenario = "S1: the hanging chain, XPBD with compliance",
    .figures = XR_FIGURES("s1_xpbd_invariance"),
    .tables = XR_TABLES({"s1_xpbd_invariance", "XPBD stretch / closed form per compliance and substep count"}),
    .run = s1_xpbd_invariance_run};
