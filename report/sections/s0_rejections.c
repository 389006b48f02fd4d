/* SPDX-License-Identifier: MIT */
/* Section s0_rejections: the input rules of the single distance constraint (S0) through the
 * public API. Every bad input the original measurement's validator rejects is fed to the
 * 1-D lab (xpbd_distance1d_solve) and, where the 3-D step has the same
 * input, to xpbd_step_f64 on a small chain: the status must name what is
 * wrong, bad_index where it is, and the positions, velocities and lambda
 * must be bit for bit what they were before the call (memcmp). */
#include "report.h"

#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RJ_N 4 /* chain particles of the step cases */

typedef struct rj_case1d {
    const char *what;
    double a, b, wa, wb, rest, compliance, dt;
    xpbd_status expect;
} rj_case1d;

typedef enum rj_field { RJ_X, RJ_VX, RJ_W, RJ_REST, RJ_COMPLIANCE, RJ_LAMBDA, RJ_H } rj_field;

typedef struct rj_case3d {
    const char *what;
    rj_field field;
    uint32_t index; /* particle, or constraint (its slot is looked up) */
    double value;
    xpbd_status expect;
} rj_case3d;

/* One row of the table: ours against the expected status; bad_index
 * (SIZE_MAX where the path has none); unchanged = bitwise. */
static void rj_row(xr_ctx *ctx, FILE *f, int idx, const char *path, const char *what,
                   xpbd_status expect, xpbd_status got, double bad_expect, double bad_got,
                   int unchanged)
{
    fprintf(f, "%d\t%d\t%d\t%.17g\t%.17g\t%d\t%s: %s\n", idx, (int)expect, (int)got, bad_expect,
            bad_got, unchanged, path, what);
    xr_md(ctx, "| %s | %s | `%s` | `%s` | %s | %s |\n", path, what, xpbd_status_str(expect),
          xpbd_status_str(got), isnan(bad_expect) ? "-" : (bad_got == bad_expect ? "yes" : "NO"),
          unchanged ? "yes" : "NO");
}

static int s0_rejections_run(xr_ctx *ctx)
{
    /* the original measurement's fixed case with one input made bad at a time */
    static const rj_case1d c1[] = {
        {"a not finite (NaN)", NAN, 2, 1, 1, 1, 0.01, 0.1, XPBD_ERR_POSITION},
        {"b not finite (+inf)", 0, INFINITY, 1, 1, 1, 0.01, 0.1, XPBD_ERR_POSITION},
        {"wa negative", 0, 2, -1, 1, 1, 0.01, 0.1, XPBD_ERR_INVERSE_MASS},
        {"wb not finite", 0, 2, 1, NAN, 1, 0.01, 0.1, XPBD_ERR_INVERSE_MASS},
        {"rest zero", 0, 2, 1, 1, 0, 0.01, 0.1, XPBD_ERR_REST},
        {"rest negative", 0, 2, 1, 1, -1, 0.01, 0.1, XPBD_ERR_REST},
        {"compliance negative", 0, 2, 1, 1, 1, -0.01, 0.1, XPBD_ERR_COMPLIANCE},
        {"compliance not finite", 0, 2, 1, 1, 1, INFINITY, 0.1, XPBD_ERR_COMPLIANCE},
        {"dt zero", 0, 2, 1, 1, 1, 0.01, 0, XPBD_ERR_TIMESTEP},
        {"dt not finite", 0, 2, 1, 1, 1, 0.01, NAN, XPBD_ERR_TIMESTEP},
        {"b <= a", 2, 1, 1, 1, 1, 0.01, 0.1, XPBD_ERR_ORDER},
        {"alpha~ unrepresentable (1e300 / 1e-10^2)", 0, 2, 1, 1, 1, 1e300, 1e-10, XPBD_ERR_SCALE},
    };
    static const rj_case3d c3[] = {
        {"position not finite, particle 2", RJ_X, 2, NAN, XPBD_ERR_POSITION},
        {"velocity not finite, particle 1", RJ_VX, 1, INFINITY, XPBD_ERR_VELOCITY},
        {"inverse mass negative, particle 3", RJ_W, 3, -1, XPBD_ERR_INVERSE_MASS},
        {"rest zero, constraint 1", RJ_REST, 1, 0, XPBD_ERR_REST},
        {"compliance negative, constraint 2", RJ_COMPLIANCE, 2, -1e-3, XPBD_ERR_COMPLIANCE},
        {"lambda not finite, constraint 0", RJ_LAMBDA, 0, NAN, XPBD_ERR_LAMBDA},
        {"frame h zero", RJ_H, 0, 0, XPBD_ERR_TIMESTEP},
        {"frame h not finite", RJ_H, 0, NAN, XPBD_ERR_TIMESTEP},
    };
    const int n1 = (int)(sizeof c1 / sizeof c1[0]), n3 = (int)(sizeof c3 / sizeof c3[0]);
    FILE *f = xr_table_open(ctx, "s0_rejections",
                            "case\texpected\tstatus\tbad_index_expected\tbad_index\tunchanged\twhat");
    if (!f)
        return -1;
    xr_md(ctx,
          "The input rules of the single distance constraint (S0), one bad input at a time. The 1-D lab "
          "(`xpbd_distance1d_solve`) starts from the fixed case with lambda = -0.25 already "
          "accumulated; the 3-D step (`xpbd_step_f64`, a %d-particle chain, 4 substeps, "
          "lambda preset to 0.125 in every constraint slot, velocities 0.5 m/s) gets the same kinds of "
          "input through its particle and constraint arrays. Unchanged: a, b and lambda (1-D), "
          "every particle array and every lambda (3-D) compared with memcmp against a copy "
          "taken before the call.\n\n"
          "| path | bad input | expected | returned | bad_index right | state unchanged |\n"
          "|---|---|---|---|---|---|\n",
          RJ_N);
    int status_ok = 0, same_ok = 0, index_ok = 0, index_cases = 0, row = 0;
    for (int k = 0; k < n1; ++k) {
        double a = c1[k].a, b = c1[k].b, lambda = -0.25;
        const double a0 = a, b0 = b, l0 = lambda;
        const xpbd_status st = xpbd_distance1d_solve(&a, &b, c1[k].wa, c1[k].wb, c1[k].rest,
                                                     c1[k].compliance, c1[k].dt, &lambda);
        const int same = !memcmp(&a, &a0, sizeof a) && !memcmp(&b, &b0, sizeof b) &&
                         !memcmp(&lambda, &l0, sizeof lambda);
        status_ok += st == c1[k].expect;
        same_ok += same;
        rj_row(ctx, f, row++, "1-D lab", c1[k].what, c1[k].expect, st, NAN, NAN, same);
    }
    int built = 1;
    for (int k = 0; k < n3 && built; ++k) {
        xs_world_f64 w;
        if (xs_chain_f64(&w, RJ_N, 0.1, 1e-3) != XPBD_OK) {
            built = 0;
            break;
        }
        const size_t n = w.p.count;
        for (size_t i = 0; i < n; ++i)
            w.p.vx[i] = 0.5;
        for (uint32_t s = 0; s < w.set.slots; ++s) /* padding slots keep lambda 0 */
            if (w.set.source[s] != XPBD_PAD)
                w.set.lambda[s] = 0.125;
        uint32_t slot = 0;
        for (uint32_t s = 0; s < w.set.slots; ++s)
            if (w.set.source[s] == c3[k].index)
                slot = s;
        double h = 1.0 / 60;
        double expect_index = (double)c3[k].index;
        switch (c3[k].field) {
        case RJ_X: w.p.x[c3[k].index] = c3[k].value; break;
        case RJ_VX: w.p.vx[c3[k].index] = c3[k].value; break;
        case RJ_W: w.p.w[c3[k].index] = c3[k].value; break;
        case RJ_REST: w.set.rest[slot] = c3[k].value; expect_index = slot; break;
        case RJ_COMPLIANCE: w.set.compliance[slot] = c3[k].value; expect_index = slot; break;
        case RJ_LAMBDA: w.set.lambda[slot] = c3[k].value; expect_index = slot; break;
        case RJ_H: h = c3[k].value; expect_index = NAN; break;
        }
        /* the particle block and the lambdas before the call */
        const size_t pbytes = 10 * n * sizeof(double), lbytes = w.set.slots * sizeof(double);
        double *copy = malloc(pbytes + lbytes);
        if (!copy) {
            xs_world_free_f64(&w);
            built = 0;
            break;
        }
        memcpy(copy, w.block_, pbytes);
        memcpy(copy + 10 * n, w.set.lambda, lbytes);
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xr_isa(ctx);
        cfg.substeps = 4;
        xpbd_step_counters cnt;
        memset(&cnt, 0, sizeof cnt);
        const xpbd_status st =
            xpbd_step_f64(&cfg, h, &w.p, &w.set, w.scratch, w.scratch_bytes, &cnt);
        const int same = !memcmp(copy, w.block_, pbytes) &&
                         !memcmp(copy + 10 * n, w.set.lambda, lbytes);
        free(copy);
        xs_world_free_f64(&w);
        status_ok += st == c3[k].expect;
        same_ok += same;
        if (!isnan(expect_index)) {
            index_cases++;
            index_ok += (double)cnt.bad_index == expect_index;
        }
        rj_row(ctx, f, row++, "3-D step", c3[k].what, c3[k].expect, st, expect_index,
               isnan(expect_index) ? NAN : (double)cnt.bad_index, same);
    }
    xr_table_close(f);
    if (!built) {
        xr_md(ctx, "\nThe chain of the step cases could not be built.\n\n");
        return -1;
    }
    const int total = n1 + n3;
    xr_md(ctx, "\n");
    xr_tolerance_source(ctx, "S0's input rules (one XPBD distance constraint): statuses, indices and bits compared "
                             "exactly (counts of cases)");
    xr_check(ctx, "bad inputs rejected with the status naming them (cases)", status_ok, total,
             xr_exact(), NULL);
    xr_check(ctx, "bad_index names the offending particle or slot (step cases)", index_ok,
             index_cases, xr_exact(), NULL);
    xr_check(ctx, "step cases that name a bad_index", index_cases, NAN, xr_at_least(1), NULL);
    xr_check(ctx, "positions, velocities and lambda unchanged bit for bit (cases)", same_ok,
             total, xr_exact(), NULL);
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Input rules of the single distance constraint (S0): %d bad inputs, one at a time, through the 1-D lab and the 3-D "
             "step. Open circles: the status the rule calls for; filled: the status returned "
             "(%d of %d equal); crosses on the right: state not bit-identical after the "
             "rejected call (%d of %d unchanged).",
             total, status_ok, total, same_ok, total);
    xr_figure(ctx, "s0_rejections", cap);
    return 0;
}

const xr_section xr_section_s0_rejections = {
    .name = "s0_rejections",
    .title = "Bad inputs refused through the public API: status, bad_index, state kept",
    .scenario = "S0: one distance constraint, input rules",
    .figures = XR_FIGURES("s0_rejections"),
    .tables = XR_TABLES({"s0_rejections", "per bad input: expected and returned status, "
                                          "bad_index, state unchanged"}),
    .run = s0_rejections_run};
