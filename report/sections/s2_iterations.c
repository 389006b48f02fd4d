/* SPDX-License-Identifier: MIT */
/* Section s2_iterations (Table 4 of S2): the four-ball tower of the
 * lesson's stack (shared/s2_stack.h), max penetration, top sink and
 * sum |v| vs iterations. */
#include "report.h"
#include "shared/s2_stack.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The heading of the paragraph explaining where ours differs from the original measurement. */
#define S2_DEV_T4 "Table 4: our values lie 2-4x from the original measurements', the slop aside"

#define S2_T4_FRAMES 90

typedef struct s2_t4 {
    double pen, sink, sum_v;
    double moved;    /* sum over the balls of |y(last) - y(last - 1)| / h (m/s): the motion */
    double pen_span; /* max - min of the max penetration over the last 0.5 s (m) */
} s2_t4;

/* The tower run for 90 frames with `iterations` per frame and the
 * velocity pass's slop (m). The stored velocities (sum_v) and the motion
 * of the positions (moved) are both kept: a state at rest whose stored
 * velocity the position pass cancels every frame reads sum_v > 0 and
 * moved = 0. */
static int s2_tower(const xr_ctx *ctx, uint32_t iterations, double slop, FILE *series,
                    s2_t4 *out)
{
    double h[4];
    for (int k = 0; k < 4; ++k)
        h[k] = S2_REST0 + 0.36 * k - 0.01 * (k + 1); /* each pair 1 cm deep */
    s2_set s;
    if (s2_stack(&s, 4, h) != 0)
        return -1;
    xpbd_step_config cfg = s2_lesson_cfg(ctx, iterations, 1, 0.2, 1);
    cfg.contact_slop = slop;
    double pen_lo = INFINITY, pen_hi = -INFINITY, prev[5] = {0};
    for (int fr = 1; fr <= S2_T4_FRAMES; ++fr) {
        for (int k = 1; k <= 4; ++k)
            prev[k] = s.p.y[k];
        if (s2_stack_step(&s, &cfg) != XPBD_OK) {
            s2_set_free(&s);
            return -1;
        }
        double sv = 0, mv = 0;
        for (int k = 1; k <= 4; ++k) {
            sv += fabs(s.p.vy[k]);
            mv += fabs(s.p.y[k] - prev[k]) / S2_H;
        }
        if (series) {
            const double row[6] = {iterations, fr * S2_H, s2_max_pen(&s),
                                   S2_REST0 + 3 * 0.36 - s.p.y[4], sv, mv};
            xr_row(series, 6, row);
        }
        out->pen = s2_max_pen(&s);
        out->sink = S2_REST0 + 3 * 0.36 - s.p.y[4];
        out->sum_v = sv;
        out->moved = mv;
        if (fr > S2_T4_FRAMES - 30) {
            pen_lo = fmin(pen_lo, out->pen);
            pen_hi = fmax(pen_hi, out->pen);
        }
    }
    out->pen_span = pen_hi - pen_lo;
    s2_set_free(&s);
    return 0;
}

/* The tower's sensitivity to the velocity pass's slop, which the original
 * measurement does not give: the ratios of Table 4 at 0, half, once and
 * twice the default 5 mm, as a table on the page. zero[3]: the ratios
 * without slop; *spread: how far the ratios move over the nonzero slops. */
static int s2_slop_table(xr_ctx *ctx, double zero[3], double *spread)
{
    static const double slops[4] = {0, 0.0025, 0.005, 0.01};
    static const uint32_t iters[4] = {1, 2, 4, 8};
    xr_md(ctx,
          "**How much the slop matters.** The original measurement does not give its slop (how "
          "deep a contact must be before the velocity pass leaves it alone). The same tower at "
          "four slops, the ratios of the max penetration per doubling:\n\n"
          "| slop (m) | 1 -> 2 | 2 -> 4 | 4 -> 8 | max penetration at 1 iteration (m) | at 8 (m) "
          "|\n|---|---|---|---|---|---|\n");
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int a = 0; a < 4; ++a) {
        s2_t4 r[4];
        for (int k = 0; k < 4; ++k)
            if (s2_tower(ctx, iters[k], slops[a], NULL, &r[k]) != 0)
                return -1;
        xr_md(ctx, "| %g | %.3f | %.3f | %.3f | %.4g | %.3g |\n", slops[a], r[1].pen / r[0].pen,
              r[2].pen / r[1].pen, r[3].pen / r[2].pen, r[0].pen, r[3].pen);
        for (int k = 1; k < 4; ++k) {
            const double q = r[k].pen / r[k - 1].pen;
            if (a == 0) {
                zero[k - 1] = q;
                continue;
            }
            lo[k - 1] = fmin(lo[k - 1], q);
            hi[k - 1] = fmax(hi[k - 1], q);
        }
    }
    *spread = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    xr_md(ctx, "\n");
    return 0;
}

static int s2_iterations_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A tower of four balls on the plate (beta = 1, e = 0.2), each pair starting 1 cm into overlap, run for 1.5 s with 1, 2, 4 and 8 iterations. There is no closed form. The original measurement saw each doubling of the iterations bring the largest penetration down (by 0.175, 0.120 and 0.047 of itself), the top ball 2 cm low and still jittering with 1 iteration and 0.02 mm low with 8, and the top ball sinking about 1.8 times the largest penetration. The scenario says the exact constants depend on the slop and on bookkeeping (the slop table below tests the first), so the trend is what is compared: convergence is continuous, and the iteration count is chosen by budget, not by a threshold.\n\n");
    static const uint32_t iters[6] = {1, 2, 4, 8, 16, 32};
    static const double original_ratio[4] = {NAN, 0.175, 0.120, 0.047};
    s2_t4 r[6];
    FILE *ts = xr_table_open(ctx, "s2_iterations_time", "iterations\tt\tmax_pen\tsink\tsum_v\tmoved");
    if (!ts)
        return -1;
    for (int k = 0; k < 6; ++k)
        if (s2_tower(ctx, iters[k], xpbd_step_config_default().contact_slop, k < 4 ? ts : NULL, &r[k]) != 0) {
            xr_table_close(ts);
            return -1;
        }
    xr_table_close(ts);
    FILE *f = xr_table_open(ctx, "s2_iterations",
                            "iterations\tmax_pen\tsink\tsum_v\tratio\tsink_over_pen\toriginal_ratio\t"
                            "original_pen\toriginal_sink\toriginal_sum_v");
    if (!f)
        return -1;
    const double slop0 = xpbd_step_config_default().contact_slop;
    xr_md(ctx,
          "Four balls on the plate (N = 4, beta = 1, e = 0.2, slop %g m, weighted), each "
          "pair starting 1 cm deep, 1.5 s (90 frames) through the world step in the lesson "
          "order; the final state after the last frame's position pass. Max penetration over "
          "the four contacts, top-ball sink below its ideal resting height 1.60 m, the stored "
          "velocities sum |v|, and the motion of the positions over the last frame, "
          "sum |y - y_prev|/h (both m/s). Rows 16 and 32 continue the sweep beyond the original "
          "measurement's table.\n\n"
          "| iterations | max penetration (m) | ratio to previous | original ratio | top sink (m) | "
          "sink / max pen | sum \\|v\\| (m/s) | sum \\|dy\\|/h (m/s) | original |\n"
          "|---|---|---|---|---|---|---|---|---|\n",
          slop0);
    for (int k = 0; k < 6; ++k) {
        const double ratio = k ? r[k].pen / r[k - 1].pen : NAN;
        const double sr = k < 4 ? original_ratio[k] : NAN;
        const double original_pen = k == 3 ? 2e-5 : NAN, original_sink = k == 0 ? 0.02 : NAN;
        const double original_v = k == 0 ? 1.03 : k == 3 ? 0.023 : NAN;
        const double row[10] = {iters[k], r[k].pen, r[k].sink, r[k].sum_v, ratio,
                                r[k].sink / r[k].pen, sr, original_pen, original_sink, original_v};
        xr_row(f, 10, row);
        char rs[32] = "", ss[32] = "";
        if (k)
            snprintf(rs, sizeof rs, "%.3f", ratio);
        if (k && k < 4)
            snprintf(ss, sizeof ss, "%.3f", sr);
        const char *orig_text = k == 0   ? "top 2 cm low, sum |v| 1.03, jittering"
                           : k == 3 ? "0.02 mm, sum |v| 0.023"
                                    : "";
        xr_md(ctx, "| %u | %.4g | %s | %s | %.4g | %.2f | %.4g | %.2g | %s |\n", (unsigned)iters[k],
              r[k].pen, rs, ss, r[k].sink, r[k].sink / r[k].pen, r[k].sum_v, r[k].moved,
              orig_text);
    }
    xr_table_close(f);
    xr_md(ctx,
          "\nOur ratios %.3f / %.3f / %.3f against the original measurement's 0.175 / 0.120 / "
          "0.047 (a re-run of the original measurement's loop with slop 0.005 gave 0.199 / 0.156 "
          "/ 0.093, what we get). The sink is about %.1fx the max penetration (original "
          "measurement ~1.8x): the four overlaps add up under the top ball. Every doubling of "
          "the iterations shrinks the overlap again, with no threshold past which it stops "
          "mattering, so iterations are chosen by budget.\n\n"
          "**Is the tower at rest?** With 1 iteration it ends %.2g cm deep; over the last "
          "0.5 s its max penetration moves by %.2g m, and over the last frame the balls' "
          "positions by sum |dy|/h = %.2g m/s, while the stored velocities read sum |v| = "
          "%.4g m/s. %s\n\n",
          r[1].pen / r[0].pen, r[2].pen / r[1].pen, r[3].pen / r[2].pen, r[3].sink / r[3].pen,
          100 * r[0].pen, r[0].pen_span, r[0].moved, r[0].sum_v,
          r[0].moved < 1e-3 * r[0].sum_v
              ? "The tower stands still and does not jitter: the stored velocity is stale. The "
                "position pass pushes each ball back by what its velocity moved it, so the "
                "positions stay and the velocity is never corrected; sum |v| measures that "
                "leftover, not motion."
              : "The positions still move: the tower has not come to rest.");
    double zero[3], spread;
    if (s2_slop_table(ctx, zero, &spread) != 0)
        return -1;
    xr_md(ctx,
          "### %s\n\n"
          "Ours: max penetration %.3g m at 1 iteration, top sink %.3g m, sum |v| %.3g m/s; at 8 "
          "iterations %.3g m and %.3g m/s. The original measurement: the top 2 cm low and "
          "sum |v| 1.03 m/s at 1 iteration, 0.02 mm and 0.023 m/s at 8. The slop does not "
          "account for it: between 2.5 mm and 1 cm the ratios per doubling move by at most "
          "%.2g, and without any slop they become %.3f / %.3f / %.3f, further from the "
          "original's 0.175 / 0.120 / 0.047. Our 4 -> 8 ratio, %.3f, stays twice the "
          "original's. The original's other bookkeeping (when the raw penetration is read, "
          "which contacts the velocity pass skips) is not given, so the difference is left "
          "unexplained here. What carries over is the trend: every doubling shrinks the "
          "overlap, the sink is about twice the max penetration. The checks test the trend; "
          "the original measurement's absolute values stand beside ours in appendix B, not "
          "checked.\n\n",
          S2_DEV_T4, r[0].pen, r[0].sink, r[0].sum_v, r[3].pen, r[3].sum_v, spread, zero[0],
          zero[1], zero[2], r[3].pen / r[2].pen);
    static const double t4_original[3] = {0.175, 0.120, 0.047};
    for (int k = 1; k < 4; ++k) {
        char item[96];
        snprintf(item, sizeof item, "max penetration ratio, %u -> %u iterations",
                 (unsigned)iters[k - 1], (unsigned)iters[k]);
        /* the absolute constants depend on details the original does not
         * give (see the paragraph): the trend is checked, these rows are
         * not */
        xr_reference(ctx, item, t4_original[k - 1], r[k].pen / r[k - 1].pen, NULL, S2_DEV_T4);
    }
    xr_reference(ctx, "top sink at 1 iteration (m)", 0.02, r[0].sink, NULL,
                 S2_DEV_T4);
    xr_reference(ctx, "sum |v| at 1 iteration (m/s)", 1.03, r[0].sum_v, NULL,
                 S2_DEV_T4);
    xr_reference(ctx, "max penetration at 8 iterations (m)", 2e-5, r[3].pen, NULL,
                 S2_DEV_T4);
    xr_reference(ctx, "sum |v| at 8 iterations (m/s)", 0.023, r[3].sum_v, NULL,
                 S2_DEV_T4);
    xr_tolerance_source(ctx, "original measurement: the trend (each doubling shrinks the overlap "
                             "by 0.047-0.175, at least 4x, strictly; sink ~1.8x, read as "
                             "1.5-2.5x)");
    for (int k = 1; k < 4; ++k) {
        char what[120];
        snprintf(what, sizeof what, "max penetration, %u -> %u iterations: ratio",
                 (unsigned)iters[k - 1], (unsigned)iters[k]);
        xr_check(ctx, what, r[k].pen / r[k - 1].pen, NAN, xr_at_most(0.25), NULL);
        snprintf(what, sizeof what, "sum |v|, %u -> %u iterations: ratio (strictly decreasing)",
                 (unsigned)iters[k - 1], (unsigned)iters[k]);
        xr_check(ctx, what, r[k].sum_v / r[k - 1].sum_v, NAN, xr_below(1), NULL);
    }
    for (int k = 0; k < 4; ++k) {
        char what[120];
        snprintf(what, sizeof what, "top sink / max penetration, %u iterations",
                 (unsigned)iters[k]);
        xr_check(ctx, what, r[k].sink / r[k].pen, 1.8, xr_bracket(1.5, 2.5), NULL);
    }
    xr_reference(ctx, "top sink / max penetration, 8 iterations", 1.8,
                 r[3].sink / r[3].pen, "top sink / max penetration, 8 iterations", S2_DEV_T4);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "The ball stack (S2): a four-ball tower (beta = 1, e = 0.2) after 1.5 s vs iterations "
             "per frame. Left: max penetration, top-ball sink and sum |v| (log scales), original "
             "points beside. Each doubling shrinks the overlap by %.2f / %.2f / %.2f (original measurement 0.175 "
             "/ 0.120 / 0.047). Right: max penetration vs time for 1, 2, 4, 8 iterations: "
             "one pass per frame leaves the tower %.1f cm deep (from 1 s on the penetration "
             "moves by %.1g m; the stored velocities read sum |v| = %.3g m/s while the "
             "positions move by %.1g m/s).",
             r[1].pen / r[0].pen, r[2].pen / r[1].pen, r[3].pen / r[2].pen, 100 * r[0].pen,
             r[0].pen_span, r[0].sum_v, r[0].moved);
    xr_figure(ctx, "s2_iterations", cap);
    return 0;
}

const xr_section xr_section_s2_iterations = {
    .name = "s2_iterations",
    .title = "Four-ball tower, max penetration, top sink and sum |v| vs iterations",
    .scenario = "S2: contacts, iterations on a stack",
    .figures = XR_FIGURES("s2_iterations"),
    .tables = XR_TABLES({"s2_iterations", "the ball stack per iteration count, with ratios and the original measurements"},
                        {"s2_iterations_time", "tower state vs time per iteration count"}),
    .run = s2_iterations_run};
