/* SPDX-License-Identifier: MIT */
/* Section s1_order: the order of convergence of XPBD's trajectories. The
 * swinging chain and cloth of shared/s1_swing.h (inextensible, alpha = 0,
 * one iteration per substep, released from rest) are run to T = 0.25 s at
 * substeps n_s (h_s = h / n_s, h = 1/60 s), and their positions compared
 * with a run at a much smaller substep (the converged reference). The
 * error max_i |x_i - x_i,ref| against h_s on log-log is a line of slope p,
 * the scheme's order; a least-squares fit over the finest substeps is
 * checked against the order XPBD's positions have.
 *
 * Expected order. XPBD with small steps is symplectic Euler with the
 * constraint impulses of one projection: the position update is first
 * order (local error O(h_s^2), global O(h_s)), and one Gauss-Seidel pass
 * per substep leaves a constraint residual of order g h_s^2 per substep,
 * also first order over a fixed time. So p = 1.
 *
 * The bracket. Writing the error as C h_s (1 + beta h_s), the local slope
 * is 1 + beta h_s / (1 + beta h_s) < 1 + beta h_max over the fit; beta is
 * bounded by the fastest time scale of the motion, the chain's highest
 * transverse mode 2 sqrt(T / (m L0)) with the tension T at most 3 N m g
 * for a chain swinging from horizontal (N = 6): 84 rad/s, so beta h_max
 * <= 84 / 960 = 0.088 with the fit starting at n_s = 16. The reference's
 * own error, first order too, is n_fine / n_ref of the finest point's and
 * shifts the fitted slope by at most ln(1 + n_fine / n_ref) / ln(h_max /
 * h_min) (0.015 at worst here). Together 0.10: the fitted slope is checked
 * in [0.85, 1.15]; a second-order scheme (2) or an inconsistent one (0)
 * is far outside. */
#include "report.h"
#include "shared/s1_swing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OR_FRAMES 15 /* T = 0.25 s */
#define OR_MAX_NS 16
#define OR_SCENES 3

typedef struct or_state {
    const uint32_t *ns;
    int nns;
    uint32_t fit_from, ref_ns;
    double *ref[OR_SCENES]; /* reference positions, 3 x count per scene */
    size_t count[OR_SCENES];
    double err[OR_SCENES][OR_MAX_NS];
} or_state;

/* The scenes (OR_SCENES): the chain (alpha = 0), the cloth at alpha = 1e-3 m/N (the
 * checked one), and the inextensible cloth (alpha = 0), shown. */
static const int or_cloth[OR_SCENES] = {0, 1, 1};
static const double or_alpha[OR_SCENES] = {0.0, 1e-3, 0.0};

/* Runs scene `sc` at ns substeps; xyz receives 3 x count positions
 * (malloc'd). Returns the particle count, 0 on error. */
static size_t or_positions(const xr_ctx *ctx, int sc, uint32_t ns, double **xyz)
{
    xs_world_f64 w;
    if (sw_world(&w, or_cloth[sc], or_alpha[sc]) != 0)
        return 0;
    size_t n = w.p.count;
    *xyz = NULL;
    if (sw_run(ctx, &w, ns, OR_FRAMES, or_alpha[sc], NULL) == 0 && (*xyz = malloc(3 * n * sizeof **xyz))) {
        for (size_t i = 0; i < n; ++i) {
            (*xyz)[3 * i] = w.p.x[i];
            (*xyz)[3 * i + 1] = w.p.y[i];
            (*xyz)[3 * i + 2] = w.p.z[i];
        }
    } else {
        n = 0;
    }
    xs_world_free_f64(&w);
    return n;
}

/* Sweep point q: scene q / nns at substeps ns[q % nns], its error
 * against the reference. */
static int or_point(xr_ctx *ctx, int q, double *row, void *arg)
{
    or_state *S = arg;
    const int cloth = q / S->nns, j = q % S->nns;
    double *xyz;
    const size_t n = or_positions(ctx, cloth, S->ns[j], &xyz);
    if (n != S->count[cloth])
        return -1;
    double e = 0;
    for (size_t i = 0; i < n; ++i) {
        const double dx = xyz[3 * i] - S->ref[cloth][3 * i],
                     dy = xyz[3 * i + 1] - S->ref[cloth][3 * i + 1],
                     dz = xyz[3 * i + 2] - S->ref[cloth][3 * i + 2];
        e = fmax(e, sqrt(dx * dx + dy * dy + dz * dz));
    }
    free(xyz);
    S->err[cloth][j] = e;
    const double v[5] = {(double)cloth, (double)S->ns[j], SW_H / S->ns[j], e,
                         S->ns[j] >= S->fit_from ? 1.0 : 0.0};
    memcpy(row, v, sizeof v);
    return 0;
}

/* Least-squares slope and intercept of ln err against ln h_s over the
 * fitted points of one scene. */
static void or_fit(const or_state *S, int cloth, double *slope, double *icept)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int j = 0; j < S->nns; ++j) {
        if (S->ns[j] < S->fit_from)
            continue;
        const double x = log(SW_H / S->ns[j]), y = log(S->err[cloth][j]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        ++m;
    }
    *slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    *icept = (sy - *slope * sx) / m;
}

static int s1_order_run(xr_ctx *ctx)
{
    const int quick = xr_quick(ctx);
    static const uint32_t ns_full[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    static const uint32_t ns_quick[] = {1, 4, 16, 32, 64};
    or_state S;
    memset(&S, 0, sizeof S);
    S.ns = quick ? ns_quick : ns_full;
    S.nns = quick ? 5 : 11;
    S.fit_from = 16;
    S.ref_ns = quick ? 2048 : 65536;
    int rc = 0;
    for (int c = 0; c < OR_SCENES && rc == 0; ++c)
        if (!(S.count[c] = or_positions(ctx, c, S.ref_ns, &S.ref[c])))
            rc = -1;
    const xr_sweep sweep = {"s1_order", "scene\tsubsteps\th_s\terror\tfitted", "order",
                            OR_SCENES * S.nns, 5, or_point, &S};
    if (rc == 0)
        rc = xr_sweep_table(ctx, &sweep);
    for (int c = 0; c < OR_SCENES; ++c)
        free(S.ref[c]);
    if (rc != 0)
        return -1;
    const uint32_t fine = S.ns[S.nns - 1];
    const double h_max = SW_H / S.fit_from, h_min = SW_H / fine;
    const double bias = log(1.0 + (double)fine / S.ref_ns) / log(h_max / h_min);
    /* beta: the chain's fastest transverse mode under the largest tension;
     * the compliant cloth's fastest stretching mode sqrt(k mu_max / m),
     * mu_max <= 8 on a square grid, k = 1/alpha */
    const double beta[2] = {2 * sqrt(3.0 * SW_N * XS_G / SW_L0), sqrt(8.0 / or_alpha[1])};
    double slope[OR_SCENES], icept[OR_SCENES], half[2];
    for (int c = 0; c < OR_SCENES; ++c)
        or_fit(&S, c, &slope[c], &icept[c]);
    for (int c = 0; c < 2; ++c)
        half[c] = 1.5 * (beta[c] * h_max + bias);
    FILE *f = xr_table_open(ctx, "s1_order_fit", "scene\tslope\tintercept\th_lo\th_hi");
    if (!f)
        return -1;
    for (int c = 0; c < OR_SCENES; ++c)
        xr_row(f, 5, (const double[5]){(double)c, slope[c], icept[c], h_min, h_max});
    xr_table_close(f);

    xr_md(ctx,
          "**The scenario.** The hanging chain (N = %d, L0 = %g m, 1 kg particles) laid out "
          "horizontally from its anchor, inextensible (alpha = 0), and the %d x %d cloth laid "
          "flat, hanging from two corners, at alpha = %g m/N and inextensible, released from "
          "rest and run for %.2f s with one iteration per substep. **The question:** how fast "
          "do the trajectories converge as the substep h_s = h/n_s shrinks? The error is "
          "max_i |x_i - x_i,ref| at T against a run at n_s = %u (h_s = %.2g s), fitted as "
          "C h_s^p over n_s = %u..%u.\n\n",
          SW_N, SW_L0, SW_NX, SW_NY, or_alpha[1], OR_FRAMES * SW_H, S.ref_ns, SW_H / S.ref_ns,
          S.fit_from, fine);
    xr_md(ctx,
          "**Expected order 1.** XPBD with small steps is symplectic Euler plus one projection "
          "per substep: local error O(h_s^2), global O(h_s). The fitted slope's bracket is "
          "1 +- 1.5 (beta h_max + b): beta h_max is the second-order term's share at the "
          "largest fitted substep, h_max = 1/%.0f s, with beta the motion's fastest rate "
          "(chain: its highest transverse mode under the largest tension, 3 N m g when "
          "swinging from horizontal, 2 sqrt(3 N g / L0) = %.0f rad/s; cloth: its stiffest "
          "stretching mode sqrt(8 / (m alpha)) = %.0f rad/s), and b = %.3f the most the "
          "reference's own first-order error moves the slope, ln(1 + n_fine/n_ref) / "
          "ln(h_max/h_min). Brackets: chain 1 +- %.3f, cloth 1 +- %.3f.\n\n"
          "**Measured:** slope %.3f (chain), %.3f (cloth, alpha = %g). The inextensible cloth "
          "converges more slowly, slope %.3f over the same substeps: a square grid of "
          "structural links at alpha = 0 is a mechanism (no shear stiffness) whose motion is "
          "not smooth, so the first-order estimate does not apply; it is shown, not checked.\n\n",
          1.0 / h_max, beta[0], beta[1], bias, half[0], half[1], slope[0], slope[1], or_alpha[1],
          slope[2]);
    static const char *const what[2] = {
        "chain, alpha = 0: fitted order of the trajectory error (log-log slope)",
        "cloth, alpha = 1e-3: fitted order of the trajectory error (log-log slope)"};
    for (int c = 0; c < 2; ++c) {
        char from[400];
        snprintf(from, sizeof from,
                 "order 1 (symplectic Euler + projection); 1 +- 1.5 (beta h_max + b): beta = "
                 "%.0f rad/s (%s), h_max = 1/%.0f s, reference bias b = %.3f",
                 beta[c], c ? "sqrt(8/(m alpha))" : "2 sqrt(3Ng/L0)", 1.0 / h_max, bias);
        xr_check(ctx, what[c], slope[c], 1.0, xr_bracket(1 - half[c], 1 + half[c]), from);
    }
    char cap[700];
    snprintf(cap, sizeof cap,
             "Order of convergence: trajectory error at T = %.2f s of the swinging chain "
             "(alpha = 0) and cloth (alpha = %g m/N and 0), XPBD with one iteration per "
             "substep, against n_s = %u, vs the substep h_s on log-log; lines: least-squares "
             "fits over n_s >= %u, slopes %.3f, %.3f and %.3f (expected 1; the inextensible "
             "cloth is not smooth).",
             OR_FRAMES * SW_H, or_alpha[1], S.ref_ns, S.fit_from, slope[0], slope[1], slope[2]);
    xr_figure(ctx, "s1_order", cap);
    return 0;
}

const xr_section xr_section_s1_order = {
    .name = "s1_order",
    .title = "Order of convergence: trajectory error against the substep",
    .scenario = "S1: the hanging chain and cloth, swinging",
    .figures = XR_FIGURES("s1_order"),
    .tables = XR_TABLES({"s1_order", "trajectory error per substep count"},
                        {"s1_order_fit", "fitted slope and intercept per scene"}),
    .run = s1_order_run};
