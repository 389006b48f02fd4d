/* SPDX-License-Identifier: MIT */
/* Section s1_substeps: the S1 chain (shared/s1_chain.h) under PBD with
 * k_s = 0.5 and n_s substeps against the "equivalent" single pass, with XPBD
 * beside it. */
#include "report.h"
#include "shared/s1_chain.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
          "**The sag a substep adds.** The sag gravity adds in one substep is g h_s^2 with "
          "h_s = h/n_s: 1/n_s^2 of a frame's, 1/n_s per frame summed over its n_s substeps. "
          "The steady state of the PBD map is linear in that sag while k_s stays fixed, so the "
          "settled stretch is exactly stretch(1)/n_s^2, which the table shows to %.1g (the "
          "check below). The scenario's remark that substeps shrink the sag by 1/n_s counts "
          "it per frame; it states no number, and none is compared here.\n\n",
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

const xr_section xr_section_s1_substeps = {
    .name = "s1_substeps",
    .title = "PBD k_s = 0.5 vs substeps against the equivalent single pass, beside XPBD",
    .scenario = "S1: the hanging chain, PBD with substeps",
    .figures = XR_FIGURES("s1_substeps"),
    .tables = XR_TABLES({"s1_substeps", "PBD with substeps, with XPBD beside it"}),
    .run = s1_substeps_run};
