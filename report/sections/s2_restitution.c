/* SPDX-License-Identifier: MIT */
/* Section s2_restitution (Table 2 of S2): a ball on the infinite plate of
 * the lesson's stack (shared/s2_stack.h), v' = -e v exactly; the energy with
 * the velocity pass on. */
#include "report.h"
#include "shared/s2_stack.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The heading of the paragraph explaining where ours differs from the original measurement. */
#define S2_DEV_E1 "Energy with the velocity pass: +19% at e = 1 by 3 s against the original measurement's +2.3%"

#define S2_T2_ES 5
#define S2_T2_FRAMES 180

static const double rs_es[S2_T2_ES] = {0, 0.25, 0.5, 0.75, 1};

/* What the prose and the checks read off the two runs, per e. */
typedef struct rs_result {
    const double *vw, *vp, *imp;   /* v' (world step, plane) and the plane's impulse */
    const double *emax1, *e1s, *e3s; /* E/E0: max over 1 s, at 1 s, at 3 s */
} rs_result;

/* The energy with the velocity pass on: its table, paragraphs and checks. */
static void rs_energy(xr_ctx *ctx, const rs_result *R)
{
    const double *es = rs_es, *emax1 = R->emax1, *e1s = R->e1s, *e3s = R->e3s;
    xr_md(ctx,
          "\nEnergy with the velocity pass on (the Table 1 drop from 1.42 m, beta = 1, 1 s): the "
          "position pass still lifts the ball out of the landing frame's sinking without "
          "touching v, a gain of at most m g |v| h = 5.1%% of E0 (|v| <= 4.37 m/s at impact); "
          "at e = 1 the frame after landing also reverses a velocity that already holds that "
          "frame's g h, so the ball leaves g h faster instead of g h slower, at most another "
          "2 m g |v| h. The original measurement: +2.3%% (against +1330%% without the velocity pass).\n\n"
          "| e | max E/E0 over 1 s | E/E0 at 1 s | bound (1 s) | E/E0 at 3 s |\n"
          "|---|---|---|---|---|\n");
    for (int k = 0; k < S2_T2_ES; ++k) {
        const double bound = es[k] < 1 ? 1.052 : 1.16;
        xr_md(ctx, "| %.2f | %.4f | %.4f | %.3f | %.4f |\n", es[k], emax1[k], e1s[k], bound,
              e3s[k]);
    }
    xr_md(ctx,
          "\nAt e = 1 every bounce repeats the gain, so in this frame order an elastic ball "
          "climbs: E/E0 = %.3f after 3 s (the middle panel of the figure). For e <= 0.75 a "
          "bounce loses (1 - e^2) of its kinetic energy, far more than the lift adds.\n\n",
          e3s[4]);
    xr_md(ctx,
          "### %s\n\n"
          "The original measurement reports +2.3%% for the velocity pass on, without saying which e or over how "
          "long. Ours stays within the lift bound above for every e over 1 s (+%.1f%% at e = "
          "0.5, +%.1f%% at e = 1). At e = 1 the gain repeats at every bounce, because in the "
          "lesson's frame order the velocity pass reverses a velocity that already holds the "
          "frame's g h: by 3 s the elastic ball has gained +%.0f%%. Bounces that lose (1 - e^2) "
          "of their kinetic energy (e <= 0.75) hide it. The original measurement's +2.3%% is consistent with "
          "one bounce at e < 1 (ours +%.1f%% at e = 0.5), not with an elastic ball over "
          "3 s.\n\n",
          S2_DEV_E1, 100 * (emax1[2] - 1), 100 * (emax1[4] - 1), 100 * (e3s[4] - 1),
          100 * (emax1[2] - 1));
    xr_tolerance_source(ctx, "physics: the position pass lifts at most m g |v| h in the landing "
                             "frame (5.2%); at e = 1 the reversal adds up to 2 m g |v| h more");
    for (int k = 0; k < S2_T2_ES; ++k) {
        char what[120];
        snprintf(what, sizeof what, "velocity pass on, e = %g: max E/E0 over 1 s", es[k]);
        xr_check(ctx, what, emax1[k], NAN, xr_at_most(es[k] < 1 ? 1.052 : 1.16), NULL);
    }
    xr_reference(ctx, "velocity pass on: energy growth (E/E0), ours e = 0.5, 1 s", 1.023,
                 emax1[2], NULL, S2_DEV_E1);
    xr_reference(ctx, "velocity pass on: energy growth (E/E0), ours e = 1, 3 s", 1.023,
                 e3s[4], NULL, S2_DEV_E1);
}

/* The velocities after the impulse: their table and checks. */
static void rs_velocity(xr_ctx *ctx, const rs_result *R)
{
    const double *es = rs_es, *vw = R->vw, *vp = R->vp, *imp = R->imp;
    xr_md(ctx,
          "A ball (w = 1) touching the plate (w = 0), v = -6 m/s before the velocity pass "
          "(gravity 0 in this frame so that \"v before\" is -6 exactly), beta = 1, through the "
          "world step in the lesson order, and the same ball against the plate's top as a "
          "plane (impulse on the plane recorded). Closed form v' = -e v. Exact, not close: the "
          "centres differ along y only, so |d| = sqrt(0.52^2) = 0.52 and n = (0, 1, 0) "
          "exactly, w_plate + w_ball = 1, and 1 + e, (1 + e) 6 and -6 + 6(1 + e) = 6e are all "
          "representable.\n\n"
          "| e | v before | v' (world step) | closed -e v | difference | v' (plane) | "
          "impulse on the plane (N s) | closed (1+e) m 6 |\n|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < S2_T2_ES; ++k)
        xr_md(ctx, "| %.2f | -6 | %+.17g | %+.17g | %g | %+.17g | %.17g | %.17g |\n", es[k],
              vw[k], -es[k] * -6, vw[k] - (-es[k] * -6), vp[k], imp[k], (1 + es[k]) * 6);
    /* one check per path, the worst of the five e (every operand is
     * representable, so the difference is 0 exactly, not small) */
    double dw = 0, dp = 0, di = 0;
    for (int k = 0; k < S2_T2_ES; ++k) {
        dw = fmax(dw, fabs(vw[k] - -es[k] * -6));
        dp = fmax(dp, fabs(vp[k] - -es[k] * -6));
        di = fmax(di, fabs(imp[k] - (1 + es[k]) * 6));
    }
    xr_tolerance_source(ctx, "closed form: every operand representable, so exactly 0");
    xr_check_exact(ctx, "e = 0.5: v' (world step, lesson order) = -e v (m/s)", vw[2], 3.0, NULL);
    xr_check_exact(ctx, "e = 0..1: max |v' + e v|, world step (m/s)", dw, 0, NULL);
    xr_check_exact(ctx, "e = 0..1: max |v' + e v| against the plane (m/s)", dp, 0, NULL);
    xr_check_exact(ctx, "e = 0..1: max |impulse on the plane - (1 + e) m |v|| (N s)", di, 0,
                   NULL);
    xr_reference(ctx, "e = 0.5: v' (m/s)", 3.0, vw[2],
                 "e = 0.5: v' (world step, lesson order) = -e v (m/s)", NULL);
}

static int s2_restitution_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A ball arrives at the plate at v = -6 m/s with the velocity pass on: it takes the impulse j = -(1 + e) v/w and leaves at v' = -e v exactly (a difference of 0, not \"close\"; e = 0.5 gives +3.0 m/s). The impulses are equal and opposite, so momentum is conserved, and the pass only removes energy. With the velocity pass on, the energy growth of the position-only case falls to about 2.3%% in the original measurement; what is left is the position pass moving the ball without touching its velocity.\n\n");
    const double *es = rs_es;
    double vw[S2_T2_ES], vp[S2_T2_ES], imp[S2_T2_ES], emax1[S2_T2_ES], e1s[S2_T2_ES];
    double e3s[S2_T2_ES];
    int all_exact = 1;
    FILE *f = xr_table_open(ctx, "s2_restitution",
                            "e\tv_before\tv_after\tclosed\tdiff\tv_after_plane\timpulse_plane\t"
                            "impulse_closed");
    if (!f)
        return -1;
    for (int k = 0; k < S2_T2_ES; ++k) {
        /* world step, lesson order, plate sphere, gravity 0: v before = -6 */
        const double h0[1] = {S2_REST0};
        s2_set s;
        if (s2_stack(&s, 1, h0)) {
            xr_table_close(f);
            return -1;
        }
        s.p.vy[1] = -6;
        xpbd_step_config cfg = s2_lesson_cfg(ctx, 1, 1, es[k], 1);
        cfg.gravity[1] = 0;
        const xpbd_status st = s2_stack_step(&s, &cfg);
        vw[k] = st == XPBD_OK ? s.p.vy[1] : NAN;
        /* the same ball against the plate's top as a plane, with the impulse */
        s.p.count = 1;
        s.p.y[0] = S2_REST0;
        s.p.vy[0] = -6;
        s.p.w[0] = 1;
        s.r[0] = S2_BALL_R;
        const xpbd_plane top = {{0, 1, 0}, S2_PLATE_R};
        xpbd_world_f64 w;
        memset(&w, 0, sizeof w);
        w.particles = &s.p;
        w.radius = s.r;
        w.planes = &top;
        w.plane_count = 1;
        w.plane_impulse = s.imp;
        const xpbd_status st2 =
            xpbd_world_step_f64(&cfg, S2_H, &w, s.ct.scratch, s.ct.scratch_bytes, NULL);
        vp[k] = st2 == XPBD_OK ? s.p.vy[0] : NAN;
        imp[k] = st2 == XPBD_OK ? s.imp[0] : NAN;
        s2_set_free(&s);
        const double closed = -es[k] * -6;
        const double row[8] = {es[k], -6, vw[k], closed, vw[k] - closed, vp[k], imp[k],
                               (1 + es[k]) * 6};
        xr_row(f, 8, row);
        all_exact &= memcmp(&vw[k], &closed, sizeof closed) == 0 &&
                     memcmp(&vp[k], &closed, sizeof closed) == 0;
    }
    xr_table_close(f);

    /* energy with the velocity pass on: the Table 1 drop, beta = 1 */
    f = xr_table_open(ctx, "s2_restitution_energy", "e\tframe\tt\ty\tv\tenergy_ratio");
    if (!f)
        return -1;
    for (int k = 0; k < S2_T2_ES; ++k) {
        const double h0[1] = {1.42};
        s2_set s;
        if (s2_stack(&s, 1, h0)) {
            xr_table_close(f);
            return -1;
        }
        const double e0 = s2_energy(&s);
        const xpbd_step_config cfg = s2_lesson_cfg(ctx, 1, 1, es[k], 1);
        emax1[k] = 0;
        for (int fr = 1; fr <= S2_T2_FRAMES; ++fr) {
            if (s2_stack_step(&s, &cfg) != XPBD_OK)
                break;
            const double r = s2_energy(&s) / e0;
            if (fr <= 60 && r > emax1[k])
                emax1[k] = r;
            if (fr == 60)
                e1s[k] = r;
            e3s[k] = r;
            const double row[6] = {es[k], fr, fr * S2_H, s.p.y[1], s.p.vy[1], r};
            xr_row(f, 6, row);
        }
        s2_set_free(&s);
    }
    xr_table_close(f);

    const rs_result res = {vw, vp, imp, emax1, e1s, e3s};
    rs_velocity(ctx, &res);
    rs_energy(ctx, &res);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "A ball on the plate (S2) hitting it at v = -6 m/s. Left: v' vs e, "
             "points from the world step (lesson order) and against the plate's top as a plane, "
             "line the closed form v' = -e v = 6e: every point equal bit for bit (%s). Middle "
             "and right: the 1.42 m drop with the velocity pass on, height and E/E0 vs time; "
             "the energy gain is the position pass's lift in the landing frame (max %.1f%% for "
             "e <= 0.75, %.1f%% at e = 1; original +2.3%%).",
             all_exact ? "all 5 exact" : "NOT all exact", 100 * (emax1[3] - 1),
             100 * (emax1[4] - 1));
    xr_figure(ctx, "s2_restitution", cap);
    return 0;
}

const xr_section xr_section_s2_restitution = {
    .name = "s2_restitution",
    .title = "Ball on the infinite plate, v' = -e v exactly; energy with the velocity pass on",
    .scenario = "S2: contacts, a ball on the plate",
    .figures = XR_FIGURES("s2_restitution"),
    .tables = XR_TABLES({"s2_restitution", "a ball on the plate: v' per e"},
                        {"s2_restitution_energy", "E/E0 vs time with the velocity pass on"}),
    .run = s2_restitution_run};
