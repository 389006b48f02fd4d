/* SPDX-License-Identifier: MIT */
/* Section s2_position_only (Table 1 of S2): the position-only correction
 * of the lesson's stack (shared/s2_stack.h), beta sweep: raw penetration
 * and E/E0 vs time per beta. */
#include "report.h"
#include "shared/s2_stack.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One frame of S2 through the kernel table, one ball on the
 * plate (particle 0): the plate as the plane y >= 0.34 (plane != 0) or as
 * the w = 0 sphere. Returns the raw penetration, measured after the
 * integration and before the position pass. */
static double s2_lesson_frame(const s2_tables *t, s2_set *s, int plane, double beta, double e,
                              int velocity_pass)
{
    static const double top[4] = {0, 1, 0, S2_PLATE_R};
    const size_t n = s->p.count;
    t->c->gravity(&s->p, 0, n, 0, -S2_G * S2_H, 0);
    if (velocity_pass) {
        if (plane)
            t->c->plane_velocity(&s->p, s->r, 0, n, top, e, 0.005, NULL);
        else
            xpbd_serial_contact_velocity_f64(&s->p, s->r, &s->ct.cs, 0, s->ct.cs.slots, e, 0.005);
    }
    t->c->integrate(&s->p, 0, n, S2_H);
    const double raw = s2_max_pen(s);
    t->k->pack(&s->p, s->q, 0, n);
    if (plane)
        t->c->plane_position(s->q, &s->p, s->r, 0, n, top, beta, 0, 0, NULL, 0);
    else
        xpbd_serial_contact_position_f64(s->q, &s->p, s->r, &s->ct.cs, 0, s->ct.cs.slots, beta, 1,
                                         0, 0);
    t->k->unpack(s->q, &s->p, 0, n);
    return raw;
}

/* ========================================== s2_position_only (Table 1) === */

#define S2_T1_FRAMES 60
#define S2_T1_BETAS 5
/* The heading of the paragraph explaining where ours differs from the original measurement. */
#define S2_DEV_1330 "Energy without the velocity pass: the original measurement's +1330% against its own 3.4-3.9x"

static const double po_betas[S2_T1_BETAS] = {0.2, 0.4, 0.6, 0.8, 1.0};

/* What the checks read off the beta sweep. */
typedef struct po_result {
    const double *raw, *resid, *eratio, *vfin; /* per beta */
    double emin, emax;                          /* E/E0 at 1 s over beta */
    int same_as_world;
} po_result;

/* The paragraph on the energy and the checks. */
static void po_check(xr_ctx *ctx, const po_result *R)
{
    const double *betas = po_betas, *raw = R->raw, *resid = R->resid, *eratio = R->eratio;
    const double *vfin = R->vfin, emin = R->emin, emax = R->emax;
    const int same_as_world = R->same_as_world;
    const int last = S2_T1_BETAS - 1;
    xr_md(ctx,
          "### %s\n\n"
          "The original measurement's lesson text says energy climbs \"1330%%\" without the velocity pass, while "
          "its own Table 1 prints 3.4-3.9x, i.e. +240%% to +290%%. The two cannot both be the "
          "same run; the closed form for beta = 1 is E/E0 = (0.52 + 9.81/2)/1.42 = 3.820 "
          "(+282%%), which ours matches to 1e-12, so the report compares with the table's "
          "3.4-3.9x and treats +1330%% as a slip of the original measurement's prose. The top of that range, "
          "3.9x, lies above the beta = 1 closed form 3.820 that bounds every beta here (a "
          "beta < 1 ball sits deeper, with less potential, at the same speed); the scenario does not "
          "say which beta or which energy reference gave 3.9, so ours (%.3f) stays 2%% under "
          "it.\n\n",
          S2_DEV_1330, emax);
    xr_tolerance_source(ctx, "closed form: |v| h and (0.52 + |v|^2/2g)/1.42 in f64, 1e-12");
    xr_check_rel(ctx, "beta = 1: raw penetration = |v| h (m)", raw[last], 0.1635, 1e-12, NULL);
    xr_check(ctx, "beta = 1: residual after the pass (m)", resid[last], 0, xr_abs(1e-15), NULL);
    xr_check_rel(ctx, "beta = 1: E/E0 = (0.52 + 9.81/2)/1.42", eratio[last],
                 (0.52 + 9.81 / 2) / 1.42, 1e-12, NULL);
    xr_reference(ctx, "beta = 1: raw penetration (m)", 0.1635, raw[last],
                 "beta = 1: raw penetration = |v| h (m)", NULL);
    /* The position pass's closed form for beta < 1. The velocity is never
     * touched, so |v_k| = g h k at frame k (from release); in contact the
     * raw penetration follows raw_k = (1 - beta) raw_{k-1} + g h^2 k, whose
     * solution is raw_k = (g h^2/beta)(k - (1 - beta)/beta) + C (1 -
     * beta)^k: relative to |v_N| h/beta the steady part is 1 - (1 -
     * beta)/(beta N), and the start (first contact at frame k0, when the
     * free fall g h^2 k(k+1)/2 passes 0.9 m) leaves at most (k0/N)(1 -
     * beta)^(N - k0) of it. The energy follows: y_N = 0.52 - (1 - beta)
     * raw_N, E/E0 = (g y_N + |v_N|^2/2)/(g 1.42). */
    int k0 = 1;
    while (S2_G * S2_H * S2_H * k0 * (k0 + 1) / 2 <= 0.9)
        ++k0;
    const int N = S2_T1_FRAMES;
    for (int b = 0; b < S2_T1_BETAS; ++b) {
        const double be = betas[b];
        if (!(be < 1))
            continue;
        const double q = 1 - (1 - be) / (be * N);
        const double tq = (double)k0 / N * pow(1 - be, N - k0) + 1e-12;
        const double vN = S2_G * S2_H * N, scale = vN * S2_H / be;
        const double e_cf = (S2_G * (S2_REST0 - (1 - be) * q * scale) + vN * vN / 2) / (S2_G * 1.42);
        char what[120], from[320];
        snprintf(from, sizeof from,
                 "closed form: raw_N / (|v_N| h/beta) = 1 - (1 - beta)/(beta N), N = %d frames; "
                 "the start's transient (k0/N)(1 - beta)^(N - k0) = %.2g, first contact k0 = %d",
                 N, tq, k0);
        snprintf(what, sizeof what, "beta = %g: raw penetration / (|v| h / beta) (lag)", be);
        xr_check(ctx, what, raw[b] / (vfin[b] * S2_H / be), q, xr_abs(tq), from);
        snprintf(from, sizeof from,
                 "closed form: E/E0 = (g (0.52 - (1 - beta) raw_N) + |v_N|^2/2)/(g 1.42) with "
                 "raw_N's closed form; its transient carried over: (1 - beta) x %.2g x |v_N| h/beta "
                 "/ 1.42",
                 tq);
        snprintf(what, sizeof what, "beta = %g: E/E0 at 1 s", be);
        xr_check(ctx, what, eratio[b], e_cf, xr_abs((1 - be) * tq * scale / 1.42 + 1e-12), from);
    }
    /* the original's 3.4-3.9x: its ends beside ours, each beta checked
     * against its closed form above instead */
    xr_reference(ctx, "E/E0 at 1 s, lowest over beta", 3.4, emin, NULL, NULL);
    xr_reference(ctx, "E/E0 at 1 s, highest over beta", 3.9, emax, NULL, S2_DEV_1330);
    xr_reference(ctx, "energy growth without the velocity pass, as the scenario text once said (E/E0)", 14.3, emax,
                 NULL, S2_DEV_1330);
    xr_tolerance_source(ctx, "original measurement: 0.763 printed to 3 digits, half a unit of "
                             "the last: 5e-4 m");
    xr_reference_check(ctx, "beta = 0.2: raw penetration (m)", 0.763, raw[0],
                       xr_abs(5e-4), NULL, NULL);
    xr_tolerance_source(ctx, "same arithmetic in the same order: bitwise");
    xr_check(ctx, "world step (lesson order) == kernel stages, bit for bit, sphere plate",
             same_as_world, 1, xr_exact(), NULL);
}

static int s2_position_only_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A vertical stack in one dimension: a plate of infinite mass (radius 0.34 m, centred at y = 0) and balls of radius 0.18 m above it; a ball rests when its centre is at 0.52 m. Each frame applies gravity to the velocity, moves the balls, and then a position pass pushes overlapping pairs apart by beta times the overlap. Without the velocity pass the raw penetration is about |v| h/beta and what is left after the pass is (1 - beta)/beta |v| h: with beta = 1 and |v| = 9.81 m/s the raw penetration is 0.1635 m exactly. The original measurement read 0.763 m at beta = 0.2 against that formula's 0.818, and an energy that grew to 3.4-3.9 times its start for every beta, because nothing touches the velocity.\n\n");
    const double *betas = po_betas;
    s2_tables t;
    if (s2_get_tables(ctx, &t) != 0) {
        xr_md(ctx, "No contact kernel table for the requested ISA.\n\n");
        return -1;
    }
    FILE *f = xr_table_open(ctx, "s2_position_only",
                            "beta\tframe\tt\ty\tv\traw\tresidual\tenergy_ratio\tsphere_y\t"
                            "sphere_raw\tsphere_energy_ratio");
    if (!f)
        return -1;
    double vfin[S2_T1_BETAS], raw[S2_T1_BETAS], resid[S2_T1_BETAS], eratio[S2_T1_BETAS];
    double sraw[S2_T1_BETAS], sy[S2_T1_BETAS], emin = INFINITY, emax = 0;
    int same_as_world = 1;
    const double h0[1] = {1.42};
    for (int b = 0; b < S2_T1_BETAS; ++b) {
        s2_set pl, sp, wd;
        memset(&sp, 0, sizeof sp);
        memset(&wd, 0, sizeof wd);
        if (s2_stack(&pl, 1, h0) || s2_stack(&sp, 1, h0) || s2_stack(&wd, 1, h0)) {
            s2_set_free(&pl); /* freeing a zeroed or freed set is a no-op */
            s2_set_free(&sp);
            s2_set_free(&wd);
            xr_table_close(f);
            return -1;
        }
        const double e0 = s2_energy(&pl);
        const xpbd_step_config cfg = s2_lesson_cfg(ctx, 1, betas[b], 0, 0);
        for (int fr = 1; fr <= S2_T1_FRAMES; ++fr) {
            raw[b] = s2_lesson_frame(&t, &pl, 1, betas[b], 0, 0);
            sraw[b] = s2_lesson_frame(&t, &sp, 0, betas[b], 0, 0);
            if (s2_stack_step(&wd, &cfg) != XPBD_OK)
                same_as_world = 0;
            const double row[11] = {betas[b],
                                    fr,
                                    fr * S2_H,
                                    pl.p.y[1],
                                    pl.p.vy[1],
                                    raw[b],
                                    s2_max_pen(&pl),
                                    s2_energy(&pl) / e0,
                                    sp.p.y[1],
                                    sraw[b],
                                    s2_energy(&sp) / e0};
            xr_row(f, 11, row);
        }
        vfin[b] = fabs(pl.p.vy[1]);
        resid[b] = s2_max_pen(&pl);
        eratio[b] = s2_energy(&pl) / e0;
        sy[b] = sp.p.y[1];
        emin = fmin(emin, eratio[b]);
        emax = fmax(emax, eratio[b]);
        /* the world step in the lesson order is the same frame, bit for bit */
        if (memcmp(wd.block, sp.block, 11 * wd.p.count * sizeof(double)) != 0)
            same_as_world = 0;
        s2_set_free(&pl);
        s2_set_free(&sp);
        s2_set_free(&wd);
    }
    xr_table_close(f);

    f = xr_table_open(ctx, "s2_position_only_table",
                      "beta\tv_final\traw\tresidual\traw_formula\tresidual_formula\tenergy_ratio\t"
                      "sphere_final_y\toriginal_raw\toriginal_energy_lo\toriginal_energy_hi");
    if (!f)
        return -1;
    xr_md(ctx,
          "One ball (R = 0.18 m, m = 1 kg) dropped from y = 1.42 m (0.9 m above its resting "
          "height) onto the plate (w = 0), h = 1/60 s, 1.0 s, only the position pass (the "
          "velocity pass off): each frame the ball sinks, and the pass moves it back up by "
          "beta x pen without touching v. Run stage by stage through the contact kernels "
          "(`gravity`, `integrate`, then the raw penetration, then `plane_position`) so the raw "
          "penetration before the pass is seen. The plate's top is the half-space y >= 0.34: "
          "the lesson's signed 1-D penetration (see the section notes); the last column is "
          "the same run with the plate as a w = 0 sphere, where a ball that sinks past the "
          "plate's centre is pushed out through the bottom.\n\n"
          "Closed forms: raw penetration |v| h / beta, residual after the pass "
          "(1 - beta)/beta |v| h (steady state of r' = (1 - beta)(r + |v| h)); with nothing "
          "acting on v, |v| = g t = 9.81 m/s at 1 s and beta = 1 leaves the ball exactly at "
          "y = 0.52: E/E0 = (0.52 + 9.81/2)/1.42 = %.4f.\n\n"
          "| beta | \\|v\\| at 1 s (m/s) | raw pen (m) | residual (m) | \\|v\\|h/beta | "
          "(1-beta)/beta \\|v\\|h | E/E0 | original | plate as a sphere: final y (m) |\n"
          "|---|---|---|---|---|---|---|---|---|\n",
          (0.52 + 9.81 / 2) / 1.42);
    for (int b = 0; b < S2_T1_BETAS; ++b) {
        const double vh = vfin[b] * S2_H;
        const double rf = vh / betas[b], resf = (1 - betas[b]) / betas[b] * vh;
        const double original_raw = betas[b] == 1.0 ? 0.1635 : betas[b] == 0.2 ? 0.763 : NAN;
        const double row[11] = {betas[b], vfin[b], raw[b], resid[b], rf, resf, eratio[b],
                                sy[b],    original_raw, 3.4,  3.9};
        xr_row(f, 11, row);
        char orig_text[96];
        if (betas[b] == 1.0)
            snprintf(orig_text, sizeof orig_text, "raw 0.1635, residual 0, E 3.4-3.9x");
        else if (betas[b] == 0.2)
            snprintf(orig_text, sizeof orig_text, "raw 0.763 (formula 0.818), E 3.4-3.9x");
        else
            snprintf(orig_text, sizeof orig_text, "E 3.4-3.9x");
        char sphere[64];
        if (sy[b] < 0)
            snprintf(sphere, sizeof sphere, "%.3f (fell through)", sy[b]);
        else
            snprintf(sphere, sizeof sphere, "%.4f", sy[b]);
        xr_md(ctx, "| %.1f | %.6f | %.6f | %.6f | %.6f | %.6f | %.4f | %s | %s |\n", betas[b],
              vfin[b], raw[b], resid[b], rf, resf, eratio[b], orig_text, sphere);
    }
    xr_table_close(f);
    xr_md(ctx,
          "\nFor beta < 1 the raw penetration stays below |v| h/beta: the residual is a lagged "
          "average of the last ~1/beta frames while the ball still accelerates (the original measurement: 0.763 "
          "against 0.818 at beta = 0.2; ours %.3f against %.3f). Energy grows %.2f-%.2fx for "
          "every beta (the original measurement: 3.4-3.9x): nothing in this loop touches the velocity.\n\n",
          raw[0], vfin[0] * S2_H / 0.2, emin, emax);

    po_check(ctx, &(const po_result){raw, resid, eratio, vfin, emin, emax, same_as_world});
    const int last = S2_T1_BETAS - 1;

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Position-only correction (S2): one ball dropped from 1.42 m onto the "
             "plate, h = 1/60 s, velocity pass off. Left: E/E0 (potential from y = 0) vs time for "
             "beta = 0.2..1; it grows to %.2f-%.2fx (original measurement 3.4-3.9x) because nothing acts on v. "
             "Right: raw penetration (before the pass) vs time; dashed: |v|h/beta. beta = 1: "
             "raw %.4f m at 1 s (|v|h = 0.1635 exactly), residual 0.",
             emin, emax, raw[last]);
    xr_figure(ctx, "s2_position_only", cap);
    return 0;
}

const xr_section xr_section_s2_position_only = {
    .name = "s2_position_only",
    .title = "Position-only correction, beta sweep; raw penetration and E/E0 vs time per beta",
    .scenario = "S2: contacts, position-only correction",
    .figures = XR_FIGURES("s2_position_only"),
    .tables = XR_TABLES({"s2_position_only", "energy and penetration vs time per beta"},
                        {"s2_position_only_table", "position-only correction at 1 s per beta"}),
    .run = s2_position_only_run};
