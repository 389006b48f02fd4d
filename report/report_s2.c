/* SPDX-License-Identifier: MIT */
/* Sections s2_*: contacts (S2) -- who backs out of the overlap.
 *
 * The lesson's 1-D stack: a plate of infinite mass (w = 0) of radius 0.34
 * centred at y = 0, balls of radius 0.18 above it, frames of h = 1/60 s in
 * the lesson's order (the frame of S2: v += g h; velocity pass; y += v h;
 * raw penetration; position pass), run through the library: the world step
 * in XPBD_CONTACTS_LESSON order, or stage by stage through the contact
 * kernel table where the raw penetration (between the integration and the
 * position pass) is needed. Every ball sits exactly above the plate, so the
 * 3-D contact normal is (0, 1, 0) and the library's maths is the lesson's
 * 1-D maths.
 *
 * One difference is structural: the lesson's penetration (r_lo + r_hi) -
 * (y_hi - y_lo) is signed and keeps pushing up however deep a ball sinks,
 * while a sphere-sphere contact measures |d| and, once a ball's centre
 * passes below the plate's, pushes it down and out through the bottom.
 * With a small beta the lesson's ball sinks deeper than the plate radius
 * (beta = 0.2: 0.82 m), so Table 1 models the plate's top as the half-space
 * y >= 0.34 (a plane contact: pen = r - (y - 0.34), exactly the lesson's
 * formula with w_plate = 0) and shows the sphere plate beside it.
 *
 * s2_particles is a 3-D scene instead: a column of balls poured into a box
 * of five planes through the world step in the usual substep order, the
 * broad phase finding the contacts every frame. */
#include "report.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S2_H (1.0 / 60.0)
#define S2_G 9.81
#define S2_PLATE_R 0.34
#define S2_BALL_R 0.18
#define S2_REST0 (S2_PLATE_R + S2_BALL_R) /* resting centre of the lowest ball */

/* ------------------------------------------------------ a small world --- */

/* What a host holds for the world step's contacts: the index arrays of a
 * contact set, the broad phase's workspace (work, when asked for) and the
 * world-step scratch, each in its own caller-owned block. */
typedef struct s2_contacts {
    xpbd_contact_set cs;
    uint32_t *i0, *i1;
    void *work, *scratch;
    size_t work_bytes, scratch_bytes;
} s2_contacts;

static void s2_contacts_free(s2_contacts *c)
{
    free(c->i0);
    free(c->i1);
    free(c->work);
    free(c->scratch);
    memset(c, 0, sizeof *c);
}

/* Room for max_contacts contacts among n particles and scratch_bytes of
 * step scratch (xpbd_world_scratch_bytes_* of the precision); with work,
 * the workspace of xpbd_contact_set_assign too. Returns 0, or -1 with
 * nothing held. */
static int s2_contacts_init(s2_contacts *c, size_t n, size_t max_contacts, size_t scratch_bytes,
                            int work)
{
    memset(c, 0, sizeof *c);
    const size_t slots = xpbd_contact_slots(max_contacts);
    c->i0 = malloc(slots * sizeof *c->i0);
    c->i1 = malloc(slots * sizeof *c->i1);
    if (work) {
        c->work_bytes = xpbd_contacts_work_bytes(n, max_contacts);
        c->work = malloc(c->work_bytes);
    }
    c->scratch_bytes = scratch_bytes;
    c->scratch = aligned_alloc(64, (scratch_bytes + 63) / 64 * 64);
    if (!c->i0 || !c->i1 || (work && !c->work) || !c->scratch ||
        xpbd_contact_set_init(&c->cs, c->i0, c->i1, slots, max_contacts) != XPBD_OK) {
        s2_contacts_free(c);
        return -1;
    }
    return 0;
}

/* Particles (double) with radii, the packed copy q and plane impulses in
 * one block (x y z px py pz vx vy vz w | r | imp | q, 4n), and their
 * contact storage. */
typedef struct s2_set {
    xpbd_particles_f64 p;
    double *r, *q, *imp;
    double *block;
    s2_contacts ct;
} s2_set;

static void s2_set_free(s2_set *s)
{
    free(s->block);
    s2_contacts_free(&s->ct);
    memset(s, 0, sizeof *s);
}

static int s2_set_init(s2_set *s, size_t n, size_t max_contacts)
{
    memset(s, 0, sizeof *s);
    s->block = calloc(16 * n + 1, sizeof(double));
    if (!s->block ||
        s2_contacts_init(&s->ct, n, max_contacts, xpbd_world_scratch_bytes_f64(n, 0, max_contacts),
                         1) != 0) {
        s2_set_free(s);
        return -1;
    }
    double *b = s->block;
    xpbd_particles_bind_f64(&s->p, n, b, n);
    s->r = b + 10 * n;
    s->imp = b + 11 * n;
    s->q = b + 12 * n;
    return 0;
}

/* The lesson's stack: particle 0 the plate (w = 0), balls 1..N of unit mass
 * at rest at the given heights, and the adjacent pairs bottom-up as a
 * serial contact set (the lesson's sweep order). */
static int s2_stack(s2_set *s, int balls, const double *heights)
{
    const size_t n = (size_t)balls + 1;
    if (s2_set_init(s, n, (size_t)balls) != 0)
        return -1;
    s->r[0] = S2_PLATE_R;
    uint32_t i0[16], i1[16];
    for (int k = 0; k < balls; ++k) {
        s->r[k + 1] = S2_BALL_R;
        s->p.w[k + 1] = 1;
        s->p.y[k + 1] = heights[k];
        i0[k] = (uint32_t)k;
        i1[k] = (uint32_t)k + 1;
    }
    if (xpbd_contact_set_assign(&s->ct.cs, n, (size_t)balls, i0, i1, 0, 1, s->ct.work,
                                s->ct.work_bytes,
                                NULL) != XPBD_OK) {
        s2_set_free(s);
        return -1;
    }
    return 0;
}

/* 1-D penetration of the lesson, max over the adjacent pairs. */
static double s2_max_pen(const s2_set *s)
{
    double m = 0;
    for (size_t k = 0; k + 1 < s->p.count; ++k) {
        const double pen = (s->r[k] + s->r[k + 1]) - (s->p.y[k + 1] - s->p.y[k]);
        if (pen > m)
            m = pen;
    }
    return m;
}

/* Energy of the balls: m g y + m v^2/2, potential from y = 0 (the contact scenario (S2)). */
static double s2_energy(const s2_set *s)
{
    double e = 0;
    for (size_t k = 1; k < s->p.count; ++k) {
        const double m = 1 / s->p.w[k];
        e += m * (S2_G * s->p.y[k] + 0.5 * s->p.vy[k] * s->p.vy[k]);
    }
    return e;
}

static xpbd_step_config s2_lesson_cfg(const xr_ctx *ctx, uint32_t iterations, double beta,
                                      double e, int velocity_pass)
{
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.iterations = iterations;
    cfg.contact_beta = beta;
    cfg.restitution = e;
    cfg.contact_velocity_pass = velocity_pass;
    cfg.contact_order = XPBD_CONTACTS_LESSON;
    return cfg;
}

static xpbd_status s2_stack_step(s2_set *s, const xpbd_step_config *cfg)
{
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = &s->p;
    w.radius = s->r;
    w.contacts = &s->ct.cs;
    w.contacts_fixed = 1;
    return xpbd_world_step_f64(cfg, S2_H, &w, s->ct.scratch, s->ct.scratch_bytes, NULL);
}

/* The tables of the ISA the report runs on. */
typedef struct s2_tables {
    const xpbd_kernels_f64 *k;
    const xpbd_contact_kernels_f64 *c;
} s2_tables;

static int s2_get_tables(const xr_ctx *ctx, s2_tables *t)
{
    xpbd_isa isa;
    if (xpbd_isa_resolve(xr_isa(ctx), &isa) != XPBD_OK)
        return -1;
    t->k = xpbd_kernels_get_f64(isa);
    t->c = xpbd_contact_kernels_get_f64(isa);
    return t->k && t->c ? 0 : -1;
}

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
/* Headings of the paragraphs explaining where ours differs from the original measurement. */
#define S2_DEV_1330 "Energy without the velocity pass: the original measurement's +1330% against its own 3.4-3.9x"
#define S2_DEV_E1 "Energy with the velocity pass: +19% at e = 1 by 3 s against the original measurement's +2.3%"
#define S2_DEV_T4 "Table 4: our absolute values lie 2-4x from the original measurements'"

static int s2_position_only_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A vertical stack in one dimension: a plate of infinite mass (radius 0.34 m, centred at y = 0) and balls of radius 0.18 m above it; a ball rests when its centre is at 0.52 m. Each frame applies gravity to the velocity, moves the balls, and then a position pass pushes overlapping pairs apart by beta times the overlap. Without the velocity pass the raw penetration is about |v| h/beta and what is left after the pass is (1 - beta)/beta |v| h: with beta = 1 and |v| = 9.81 m/s the raw penetration is 0.1635 m exactly. The original measurement read 0.763 m at beta = 0.2 against that formula's 0.818, and an energy that grew to 3.4-3.9 times its start for every beta, because nothing touches the velocity.\n\n");
    static const double betas[S2_T1_BETAS] = {0.2, 0.4, 0.6, 0.8, 1.0};
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
    xr_tolerance_source(ctx, "original measurement: 3.4-3.9x printed to 2 digits, +-0.05");
    xr_check(ctx, "every beta: E/E0 at 1 s, lowest over beta, in the original 3.4-3.9x", emin, 3.4,
             xr_bracket(3.35, 3.95), NULL);
    xr_check(ctx, "every beta: E/E0 at 1 s, highest over beta, in the original 3.4-3.9x", emax,
             3.9, xr_bracket(3.35, 3.95), NULL);
    xr_reference(ctx, "E/E0 at 1 s, lowest over beta", 3.4, emin,
                 "every beta: E/E0 at 1 s, lowest over beta, in the original 3.4-3.9x", NULL);
    xr_reference(ctx, "E/E0 at 1 s, highest over beta", 3.9, emax,
                 "every beta: E/E0 at 1 s, highest over beta, in the original 3.4-3.9x",
                 S2_DEV_1330);
    xr_reference(ctx, "energy growth without the velocity pass, as the scenario text once said (E/E0)", 14.3, emax,
                 NULL, S2_DEV_1330);
    xr_tolerance_source(ctx, "physics: the residual is a lagged average over ~1/beta frames of "
                             "an accelerating ball: below |v|h/beta, above 0.85 of it");
    for (int b = 0; b < S2_T1_BETAS; ++b) {
        if (!(betas[b] < 1))
            continue;
        char what[120];
        snprintf(what, sizeof what, "beta = %g: raw penetration / (|v| h / beta) (lag)", betas[b]);
        xr_check(ctx, what, raw[b] / (vfin[b] * S2_H / betas[b]), NAN,
                 xr_bracket(nextafter(0.85, 1), nextafter(1, 0)), NULL);
    }
    xr_tolerance_source(ctx, "original measurement: 0.763 printed to 3 digits, half a unit of "
                             "the last: 5e-4 m");
    xr_reference_check(ctx, "beta = 0.2: raw penetration (m)", 0.763, raw[0],
                       xr_abs(5e-4), NULL, NULL);
    xr_tolerance_source(ctx, "same arithmetic in the same order: bitwise");
    xr_check(ctx, "world step (lesson order) == kernel stages, bit for bit, sphere plate",
             same_as_world, 1, xr_exact(), NULL);

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

/* ============================================ s2_restitution (Table 2) === */

#define S2_T2_ES 5
#define S2_T2_FRAMES 180

static int s2_restitution_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A ball arrives at the plate at v = -6 m/s with the velocity pass on: it takes the impulse j = -(1 + e) v/w and leaves at v' = -e v exactly (a difference of 0, not \"close\"; e = 0.5 gives +3.0 m/s). The impulses are equal and opposite, so momentum is conserved, and the pass only removes energy. With the velocity pass on, the energy growth of the position-only case falls to about 2.3%% in the original measurement; what is left is the position pass moving the ball without touching its velocity.\n\n");
    static const double es[S2_T2_ES] = {0, 0.25, 0.5, 0.75, 1};
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

/* ============================================= s2_mass_ratio (Table 3) === */

/* Two balls, lower m2 = mu (w = 1/mu), upper m1 = 1: one position solve
 * (2 cm of overlap, weighted, beta = 1) and one velocity solve (touching,
 * v1 = -6, v2 = 0, e = 0.5) through the kernel table. */
typedef struct s2_t3 {
    double up, down;  /* share of the overlap each ball backed out */
    double v1, v2;    /* velocities after the impulse */
    double left;      /* overlap after the solve */
} s2_t3;

static int s2_two_balls(const s2_tables *t, double mu, s2_t3 *out)
{
    s2_set s;
    if (s2_set_init(&s, 2, 1) != 0)
        return -1;
    const uint32_t a0[1] = {0}, a1[1] = {1};
    if (xpbd_contact_set_assign(&s.ct.cs, 2, 1, a0, a1, 0, 0, s.ct.work, s.ct.work_bytes, NULL) !=
        XPBD_OK) {
        s2_set_free(&s);
        return -1;
    }
    s.r[0] = s.r[1] = S2_BALL_R;
    s.p.w[0] = 1 / mu;
    s.p.w[1] = 1;
    s.p.y[0] = 1;
    s.p.y[1] = 1.34;
    s.p.py[0] = s.p.y[0];
    s.p.py[1] = s.p.y[1];
    const double pen = 0.36 - (s.p.y[1] - s.p.y[0]);
    t->k->pack(&s.p, s.q, 0, 2);
    t->c->position(s.q, &s.p, s.r, &s.ct.cs, 0, 0, 1, 1, 1, 0, 0);
    out->up = (s.q[5] - s.p.y[1]) / pen;
    out->down = (s.p.y[0] - s.q[1]) / pen;
    out->left = 0.36 - (s.q[5] - s.q[1]);
    s.p.y[1] = 1.36;
    s.p.vy[1] = -6;
    t->c->velocity(&s.p, s.r, &s.ct.cs, 0, 0, 1, 0.5, 0.005);
    out->v1 = s.p.vy[1];
    out->v2 = s.p.vy[0];
    s2_set_free(&s);
    return 0;
}

static int s2_mass_ratio_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** Two balls, the upper of 1 kg, the lower of mu kg, meet with e = 0.5 and v1 = -6 m/s. The upper ball backs out of the overlap by mu/(mu + 1) of it and the lower by 1/(mu + 1) (0.8 and 0.2 for mu = 4); the upper ball leaves with v1' = (1 - e mu)/(1 + mu) v1 exactly: -4.2 m/s for mu = 0.25, -1.5 for mu = 1, +1.2 for mu = 4. The sign changes at mu = 1/e = 2, and an infinitely heavy lower ball gives back the plate's -e v1.\n\n");
    static const double mus[5] = {0.25, 0.5, 1, 2, 4};
    static const char *const seed_v[5] = {"-4.2", NULL, "-1.5", "0 (sign flip)", "+1.2"};
    s2_tables t;
    if (s2_get_tables(ctx, &t) != 0)
        return -1;
    FILE *f = xr_table_open(ctx, "s2_mass_ratio",
                            "mu\ttable\tshare_up\tshare_up_closed\tshare_down\tshare_down_closed\t"
                            "v1\tv1_closed\tv2\tv2_closed\toverlap_left");
    if (!f)
        return -1;
    /* the figure's sweep, 0.1 .. 10 on a log scale, then the five rows */
    const int sweep = xr_quick(ctx) ? 25 : 81;
    for (int i = 0; i < sweep; ++i) {
        const double mu = pow(10.0, -1.0 + 2.0 * i / (sweep - 1));
        s2_t3 r;
        if (s2_two_balls(&t, mu, &r) != 0) {
            xr_table_close(f);
            return -1;
        }
        const double row[11] = {mu,   0, r.up, mu / (mu + 1), r.down, 1 / (mu + 1),
                                r.v1, (1 - 0.5 * mu) / (1 + mu) * -6, r.v2,
                                1.5 / (1 + mu) * -6, r.left};
        xr_row(f, 11, row);
    }
    s2_t3 rows[5];
    for (int k = 0; k < 5; ++k) {
        const double mu = mus[k];
        if (s2_two_balls(&t, mu, &rows[k]) != 0) {
            xr_table_close(f);
            return -1;
        }
        const s2_t3 *r = &rows[k];
        const double row[11] = {mu,    1, r->up, mu / (mu + 1), r->down, 1 / (mu + 1),
                                r->v1, (1 - 0.5 * mu) / (1 + mu) * -6, r->v2,
                                1.5 / (1 + mu) * -6, r->left};
        xr_row(f, 11, row);
    }
    xr_table_close(f);

    xr_md(ctx,
          "Two balls (R = 0.18 m): upper m1 = 1 kg (w = 1), lower m2 = mu (w = 1/mu), beta = 1, "
          "e = 0.5, through the contact kernels of the report's ISA: one position solve "
          "(weighted, 2 cm of overlap) and one velocity solve (touching, v1 = -6, v2 = 0). "
          "Closed forms: the upper ball backs out w1/(w1 + w2) = mu/(mu + 1) of the overlap, "
          "the lower 1/(mu + 1); v1' = (1 - e mu)/(1 + mu) v1, v2' = (1 + e)/(1 + mu) v1.\n\n"
          "| mu | upper backs out | mu/(mu+1) | lower | 1/(mu+1) | v1' (m/s) | closed | "
          "difference | original v1' |\n|---|---|---|---|---|---|---|---|---|\n");
    double worst_share = 0, worst_v = 0;
    for (int k = 0; k < 5; ++k) {
        const double mu = mus[k];
        const double cv = (1 - 0.5 * mu) / (1 + mu) * -6;
        const s2_t3 *r = &rows[k];
        xr_md(ctx, "| %g | %.15f | %.15f | %.15f | %.15f | %+.17g | %+.17g | %.3g | %s |\n", mu,
              r->up, mu / (mu + 1), r->down, 1 / (mu + 1), r->v1, cv, r->v1 - cv,
              seed_v[k] ? seed_v[k] : "");
        worst_share = fmax(worst_share, fmax(fabs(r->up - mu / (mu + 1)),
                                             fabs(r->down - 1 / (mu + 1))));
        worst_v = fmax(worst_v, fabs(r->v1 - cv));
    }
    xr_md(ctx,
          "\nPrecision. The kernel's weight w1/(w1 + w2) is the correctly rounded quotient of the "
          "same real number as mu/(mu + 1) (1/mu and 1/mu + 1 are exact here), so the split "
          "itself is exact; the share measured from positions, (y1' - y1)/pen, carries one "
          "rounding of a position near 1.3 m against a 2 cm overlap, ~1e-14. The impulse "
          "9/(1/mu + 1) is exact for mu = 0.5, 1, 2 and v1' equals the closed form exactly "
          "(-3, -1.5, 0); for mu = 0.25 and 4 both sides are within an ulp of -4.2 and +1.2. "
          "The sign flips at mu = 1/e = 2: the upper ball bounces back only when it is more "
          "than twice lighter; as mu -> infinity v1' -> -e v1 = +3, Table 2.\n\n");
    xr_tolerance_source(ctx, "closed form: the share carries one rounding of a 1.3 m position "
                             "against a 2 cm overlap (1e-13); v1' exact or within 2 ulp of 6");
    xr_reference(ctx, "mu = 4: upper ball's share", 0.8, rows[4].up,
                 "shares: max |share - mu/(mu+1)|, |share - 1/(mu+1)| over mu = 0.25..4", NULL);
    xr_reference(ctx, "mu = 0.25: v1' (m/s)", -4.2, rows[0].v1,
                 "v1' at mu = 0.25, 4: max difference (m/s)", NULL);
    xr_reference(ctx, "mu = 1: v1' (m/s)", -1.5, rows[2].v1,
                 "v1' = (1 - e mu)/(1 + mu) v1 at mu = 0.5, 1, 2: max difference (m/s)", NULL);
    xr_reference(ctx, "mu = 4: v1' (m/s)", 1.2, rows[4].v1,
                 "v1' at mu = 0.25, 4: max difference (m/s)", NULL);
    /* one check per closed form over the five mu (worst row), not a row each:
     * v1' is exact where 1/mu + 1 makes the impulse representable (mu = 0.5,
     * 1, 2), within 2 ulp of 6 otherwise */
    double v_exact = 0, v_ulp = 0;
    for (int k = 0; k < 5; ++k) {
        const double mu = mus[k];
        const double cv = (1 - 0.5 * mu) / (1 + mu) * -6;
        if (mu == 0.5 || mu == 1 || mu == 2)
            v_exact = fmax(v_exact, fabs(rows[k].v1 - cv));
        else
            v_ulp = fmax(v_ulp, fabs(rows[k].v1 - cv));
    }
    xr_check(ctx, "shares: max |share - mu/(mu+1)|, |share - 1/(mu+1)| over mu = 0.25..4",
             worst_share, 0, xr_abs(1e-13), NULL);
    xr_check_exact(ctx, "v1' = (1 - e mu)/(1 + mu) v1 at mu = 0.5, 1, 2: max difference (m/s)",
                   v_exact, 0, NULL);
    xr_check(ctx, "v1' at mu = 0.25, 4: max difference (m/s)", v_ulp, 0,
             xr_abs(2 * 8.881784197001252e-16), NULL);
    xr_check(ctx, "sign flip at mu = 1/e = 2: v1' == 0 there (m/s)", rows[3].v1, 0, xr_exact(),
             NULL);
    xr_check(ctx, "sign flip: v1' below mu = 2, largest (m/s)",
             fmax(rows[0].v1, fmax(rows[1].v1, rows[2].v1)), 0, xr_below(0), NULL);
    xr_check(ctx, "sign flip: v1' above mu = 2 (mu = 4, m/s)", rows[4].v1, 0, xr_above(0), NULL);
    xr_check(ctx, "beta = 1: overlap left after the weighted solve (m, max over mu)",
             fmax(fabs(rows[0].left), fabs(rows[4].left)), 0, xr_abs(1e-15), NULL);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Two balls (S2), upper 1 kg, lower mu kg. Left: share of the overlap "
             "each ball backs out vs mu (points: the library's position kernel; lines: "
             "mu/(mu+1) and 1/(mu+1); mu = 4 -> 0.8/0.2). Right: velocities after one impulse "
             "(e = 0.5, v1 = -6 m/s) vs mu against (1 - e mu)/(1 + mu) v1; the upper ball "
             "turns back above mu = 2 and tends to Table 2's -e v1 = +3 m/s. Largest difference "
             "from the closed forms over the five rows: shares %.1e, v1' %.1e m/s.",
             worst_share, worst_v);
    xr_figure(ctx, "s2_mass_ratio", cap);
    return 0;
}

/* ============================================ s2_iterations (Table 4) === */

#define S2_T4_FRAMES 90

typedef struct s2_t4 {
    double pen, sink, sum_v;
} s2_t4;

static int s2_tower(const xr_ctx *ctx, uint32_t iterations, FILE *series, s2_t4 *out)
{
    double h[4];
    for (int k = 0; k < 4; ++k)
        h[k] = S2_REST0 + 0.36 * k - 0.01 * (k + 1); /* each pair 1 cm deep */
    s2_set s;
    if (s2_stack(&s, 4, h) != 0)
        return -1;
    const xpbd_step_config cfg = s2_lesson_cfg(ctx, iterations, 1, 0.2, 1);
    for (int fr = 1; fr <= S2_T4_FRAMES; ++fr) {
        if (s2_stack_step(&s, &cfg) != XPBD_OK) {
            s2_set_free(&s);
            return -1;
        }
        double sv = 0;
        for (int k = 1; k <= 4; ++k)
            sv += fabs(s.p.vy[k]);
        if (series) {
            const double row[5] = {iterations, fr * S2_H, s2_max_pen(&s),
                                   S2_REST0 + 3 * 0.36 - s.p.y[4], sv};
            xr_row(series, 5, row);
        }
        out->pen = s2_max_pen(&s);
        out->sink = S2_REST0 + 3 * 0.36 - s.p.y[4];
        out->sum_v = sv;
    }
    s2_set_free(&s);
    return 0;
}

static int s2_iterations_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** A tower of four balls on the plate (beta = 1, e = 0.2), each pair starting 1 cm into overlap, run for 1.5 s with 1, 2, 4 and 8 iterations. There is no closed form; the original measurement saw each doubling of the iterations bring the largest penetration down (by 0.175, 0.120 and 0.047 of itself), the top ball 2 cm low and still jittering with 1 iteration and 0.02 mm low with 8, and the top ball sinking about 1.8 times the largest penetration. The exact constants depend on the slop and on bookkeeping, so the trend is what is compared: convergence is continuous, and the iteration count is chosen by budget, not by a threshold.\n\n");
    static const uint32_t iters[6] = {1, 2, 4, 8, 16, 32};
    static const double original_ratio[4] = {NAN, 0.175, 0.120, 0.047};
    s2_t4 r[6];
    FILE *ts = xr_table_open(ctx, "s2_iterations_time", "iterations\tt\tmax_pen\tsink\tsum_v");
    if (!ts)
        return -1;
    for (int k = 0; k < 6; ++k)
        if (s2_tower(ctx, iters[k], k < 4 ? ts : NULL, &r[k]) != 0) {
            xr_table_close(ts);
            return -1;
        }
    xr_table_close(ts);
    FILE *f = xr_table_open(ctx, "s2_iterations",
                            "iterations\tmax_pen\tsink\tsum_v\tratio\tsink_over_pen\toriginal_ratio\t"
                            "original_pen\toriginal_sink\toriginal_sum_v");
    if (!f)
        return -1;
    xr_md(ctx,
          "Four balls on the plate (N = 4, beta = 1, e = 0.2, SLOP = 0.005 m, weighted), each "
          "pair starting 1 cm deep, 1.5 s (90 frames) through the world step in the lesson "
          "order; the final state after the last frame's position pass. Max penetration over "
          "the four contacts, top-ball sink below its ideal resting height 1.60 m, and sum of "
          "|v| (is the tower at rest?). Rows 16 and 32 continue the sweep beyond the original measurement's "
          "table.\n\n"
          "| iterations | max penetration (m) | ratio to previous | original ratio | top sink (m) | "
          "sink / max pen | sum \\|v\\| (m/s) | original |\n|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 6; ++k) {
        const double ratio = k ? r[k].pen / r[k - 1].pen : NAN;
        const double sr = k < 4 ? original_ratio[k] : NAN;
        const double original_pen = k == 3 ? 2e-5 : NAN, original_sink = k == 0 ? 0.02 : NAN;
        const double seed_v = k == 0 ? 1.03 : k == 3 ? 0.023 : NAN;
        const double row[10] = {iters[k], r[k].pen, r[k].sink, r[k].sum_v, ratio,
                                r[k].sink / r[k].pen, sr, original_pen, original_sink, seed_v};
        xr_row(f, 10, row);
        char rs[32] = "", ss[32] = "";
        if (k)
            snprintf(rs, sizeof rs, "%.3f", ratio);
        if (k && k < 4)
            snprintf(ss, sizeof ss, "%.3f", sr);
        const char *orig_text = k == 0   ? "top 2 cm low, sum |v| 1.03, jittering"
                           : k == 3 ? "0.02 mm, sum |v| 0.023"
                                    : "";
        xr_md(ctx, "| %u | %.4g | %s | %s | %.4g | %.2f | %.4g | %s |\n", (unsigned)iters[k],
              r[k].pen, rs, ss, r[k].sink, r[k].sink / r[k].pen, r[k].sum_v, orig_text);
    }
    xr_table_close(f);
    xr_md(ctx,
          "\nOur ratios %.3f / %.3f / %.3f against the original measurement's 0.175 / 0.120 / 0.047 (a re-run "
          "of the original measurement's loop with SLOP = 0.005 gave 0.199 / 0.156 / 0.093, what we get): the "
          "original measurement's exact SLOP and bookkeeping differ, so the constants do, not the trend, and "
          "nothing here is tuned to them. The sink is about %.1fx the max penetration (original measurement "
          "~1.8x): the four overlaps add up under the top ball. Convergence is continuous: "
          "every doubling of the iterations shrinks the overlap again, with no threshold past "
          "which it stops mattering, so iterations are chosen by budget.\n\n",
          r[1].pen / r[0].pen, r[2].pen / r[1].pen, r[3].pen / r[2].pen, r[3].sink / r[3].pen);
    xr_md(ctx,
          "### %s\n\n"
          "Ours: max penetration %.3g m at 1 iteration, top sink %.3g m, sum |v| %.3g m/s; at 8 "
          "iterations %.3g m and %.3g m/s. The original measurement: the top 2 cm low and sum |v| 1.03 m/s at "
          "1 iteration, 0.02 mm and 0.023 m/s at 8. S2 records that the original measurement's SLOP and "
          "bookkeeping (when the raw penetration is read, which contacts the velocity pass "
          "skips) are not given and that a re-run of its loop with SLOP = 0.005 already gave "
          "other constants (0.199 / 0.156 / 0.093); the absolute values of a jittering tower "
          "after 1.5 s depend on exactly those details and on the phase of the jitter at the "
          "last frame. What carries over is the trend: every doubling shrinks the overlap and "
          "the residual motion, the sink is about twice the max penetration. The checks "
          "test the trend; the original measurement's absolute values stand beside ours in the summary.\n\n",
          S2_DEV_T4, r[0].pen, r[0].sink, r[0].sum_v, r[3].pen, r[3].sum_v);
    static const double t4_seed[3] = {0.175, 0.120, 0.047};
    for (int k = 1; k < 4; ++k) {
        char item[96];
        snprintf(item, sizeof item, "max penetration ratio, %u -> %u iterations",
                 (unsigned)iters[k - 1], (unsigned)iters[k]);
        /* the absolute constants depend on details the original does not
         * give (see the paragraph): the trend is checked, these rows are
         * not */
        xr_reference(ctx, item, t4_seed[k - 1], r[k].pen / r[k - 1].pen, NULL, S2_DEV_T4);
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
             "one pass per frame leaves the tower jittering %.1f cm deep.",
             r[1].pen / r[0].pen, r[2].pen / r[1].pen, r[3].pen / r[2].pen, 100 * r[0].pen);
    xr_figure(ctx, "s2_iterations", cap);
    return 0;
}

/* ========================================================= s2_particles === */

/* A column of balls (float, as hosts run) poured into an open box of five
 * planes through the world step: substep order, the broad phase every
 * frame, restitution and friction. */
typedef struct s2_pour {
    xpbd_particles_f32 p;
    float *r, *block;
    s2_contacts ct;
} s2_pour;

#define S2_BOX 0.8 /* box side (m) */

static void s2_pour_free(s2_pour *s)
{
    free(s->block);
    s2_contacts_free(&s->ct);
    memset(s, 0, sizeof *s);
}

static int s2_pour_init(s2_pour *s, size_t n, size_t max_contacts)
{
    memset(s, 0, sizeof *s);
    s->block = calloc(11 * n + 1, sizeof(float));
    if (!s->block ||
        s2_contacts_init(&s->ct, n, max_contacts, xpbd_world_scratch_bytes_f32(n, 0, max_contacts),
                         0) != 0) {
        s2_pour_free(s);
        return -1;
    }
    float *b = s->block;
    xpbd_particles_bind_f32(&s->p, n, b, n);
    s->r = b + 10 * n;
    /* a jittered lattice column over the middle of the box, radii 2-3 cm */
    uint64_t rng = 0x5eedf00dull;
    const int across = 11;
    const double pitch = 0.062, x0 = S2_BOX / 2 - pitch * (across - 1) / 2.0;
    for (size_t i = 0; i < n; ++i) {
        const size_t layer = i / (size_t)(across * across), cell = i % (size_t)(across * across);
        double u[4];
        for (int k = 0; k < 4; ++k) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            u[k] = (double)(rng >> 11) * (1.0 / 9007199254740992.0);
        }
        s->p.x[i] = (float)(x0 + pitch * (double)(cell % across) + 0.01 * (u[0] - 0.5));
        s->p.z[i] = (float)(x0 + pitch * (double)(cell / across) + 0.01 * (u[1] - 0.5));
        s->p.y[i] = (float)(0.25 + pitch * (double)layer + 0.01 * u[2]);
        s->r[i] = (float)(0.02 + 0.01 * u[3]);
        s->p.w[i] = (float)(1.0 / (1000.0 * 4.18879 * s->r[i] * s->r[i] * s->r[i])); /* 1 t/m^3 */
        s->p.vy[i] = 0;
    }
    return 0;
}

/* The deepest pair penetration of contact slots [t0, t1), at least pp. */
static double s2_pour_pair_pen(const s2_pour *s, uint32_t t0, uint32_t t1, double pp)
{
    const xpbd_particles_f32 *p = &s->p;
    for (uint32_t t = t0; t < t1; ++t) {
        const uint32_t a = s->ct.cs.i0[t], b = s->ct.cs.i1[t];
        const double dx = (double)p->x[b] - p->x[a], dy = (double)p->y[b] - p->y[a];
        const double dz = (double)p->z[b] - p->z[a];
        pp = fmax(pp, (double)s->r[a] + s->r[b] - sqrt(dx * dx + dy * dy + dz * dz));
    }
    return pp;
}

/* Energy (J, potential from the floor), max pair and plane penetration. */
static void s2_pour_measure(const s2_pour *s, double *energy, double *kinetic, double *pair_pen,
                            double *plane_pen)
{
    double e = 0, k = 0, pp = 0, wp = 0;
    const xpbd_particles_f32 *p = &s->p;
    for (size_t i = 0; i < p->count; ++i) {
        const double m = 1.0 / p->w[i];
        const double v2 = (double)p->vx[i] * p->vx[i] + (double)p->vy[i] * p->vy[i] +
                          (double)p->vz[i] * p->vz[i];
        k += 0.5 * m * v2;
        e += m * S2_G * p->y[i];
        const double walls[5] = {p->y[i], p->x[i], S2_BOX - p->x[i], p->z[i], S2_BOX - p->z[i]};
        for (int w = 0; w < 5; ++w)
            wp = fmax(wp, s->r[i] - walls[w]);
    }
    const xpbd_contact_set *cs = &s->ct.cs;
    for (uint32_t c = 0; c < cs->colours; ++c)
        pp = s2_pour_pair_pen(s, cs->colour_begin[c], cs->colour_begin[c] + cs->colour_size[c], pp);
    pp = s2_pour_pair_pen(s, cs->overflow_begin, cs->slots, pp);
    *energy = e + k;
    *kinetic = k;
    *pair_pen = pp;
    *plane_pen = wp;
}

typedef struct s2_depth {
    float z;
    size_t i;
} s2_depth;

static int s2_depth_cmp(const void *a, const void *b)
{
    const s2_depth *x = a, *y = b;
    return x->z > y->z ? -1 : x->z < y->z ? 1 : (x->i > y->i) - (x->i < y->i);
}

static int s2_particles_run(xr_ctx *ctx)
{
    const size_t n = xr_quick(ctx) ? 1089 : 1936; /* 9 / 16 layers of 11 x 11 */
    const int frames = xr_quick(ctx) ? 90 : 240;
    const size_t max_contacts = 40 * n;
    s2_pour s;
    if (s2_pour_init(&s, n, max_contacts) != 0)
        return -1;
    const xpbd_plane box[5] = {{{0, 1, 0}, 0},
                               {{1, 0, 0}, 0},
                               {{-1, 0, 0}, -S2_BOX},
                               {{0, 0, 1}, 0},
                               {{0, 0, -1}, -S2_BOX}};
    xpbd_world_f32 w;
    memset(&w, 0, sizeof w);
    w.particles = &s.p;
    w.radius = s.r;
    w.contacts = &s.ct.cs;
    w.planes = box;
    w.plane_count = 5;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.substeps = 16; /* substeps settle a deep pile better than iterations */
    cfg.iterations = 1;
    cfg.restitution = 0.1;
    cfg.friction_static = 0.4;
    cfg.friction_dynamic = 0.3;
    cfg.contact_skin = 0.05; /* about the relative motion of a frame at the pour's speeds */
    FILE *f = xr_table_open(ctx, "s2_particles_time",
                            "frame\tt\tenergy\tkinetic\tenergy_ratio\tmax_pair_pen\t"
                            "max_plane_pen\tcontacts\tdropped\thits");
    if (!f) {
        s2_pour_free(&s);
        return -1;
    }
    double e0, k0, pp0, wp0;
    s2_pour_measure(&s, &e0, &k0, &pp0, &wp0);
    double pp_run = pp0, emax = e0, pp_end = 0, wp_end = 0, k_end = 0, e_end = 0, pp_late = 0, wp_late = 0;
    uint32_t max_contacts_seen = 0, dropped = 0;
    int ok = 1;
    for (int fr = 1; fr <= frames && ok; ++fr) {
        xpbd_step_counters kc;
        const xpbd_status st = xpbd_world_step_f32(&cfg, S2_H, &w, s.ct.scratch, s.ct.scratch_bytes,
                                                   &kc);
        if (st != XPBD_OK) {
            ok = 0;
            dropped = kc.contacts_dropped;
        }
        double e, k, pp, wp;
        s2_pour_measure(&s, &e, &k, &pp, &wp);
        emax = fmax(emax, e);
        pp_run = fmax(pp_run, pp);
        if (fr > frames / 2) {
            pp_late = fmax(pp_late, pp);
            wp_late = fmax(wp_late, wp);
        }
        pp_end = pp;
        wp_end = wp;
        k_end = k;
        e_end = e;
        if (kc.contacts > max_contacts_seen)
            max_contacts_seen = kc.contacts;
        const double row[10] = {fr, fr * S2_H, e, k, e / e0, pp, wp, kc.contacts,
                                kc.contacts_dropped, (double)kc.contact_hits};
        xr_row(f, 10, row);
        xr_progress(ctx, "s2_particles", fr, frames);
    }
    xr_table_close(f);
    f = xr_table_open(ctx, "s2_particles", "x\ty\tz\tr\tspeed");
    if (!f) {
        s2_pour_free(&s);
        return -1;
    }
    float rmin = 1, ymax = 0;
    double outside = 0;
    /* far balls (large z) first, so the side view from -z draws the near
     * ones over them */
    s2_depth *order = malloc(n * sizeof *order);
    if (!order) {
        xr_table_close(f);
        s2_pour_free(&s);
        return -1;
    }
    for (size_t i = 0; i < n; ++i) {
        order[i].z = s.p.z[i];
        order[i].i = i;
    }
    qsort(order, n, sizeof *order, s2_depth_cmp);
    for (size_t k = 0; k < n; ++k) {
        const size_t i = order[k].i;
        const double v = sqrt((double)s.p.vx[i] * s.p.vx[i] + (double)s.p.vy[i] * s.p.vy[i] +
                              (double)s.p.vz[i] * s.p.vz[i]);
        const double row[5] = {s.p.x[i], s.p.y[i], s.p.z[i], s.r[i], v};
        xr_row(f, 5, row);
        rmin = s.r[i] < rmin ? s.r[i] : rmin;
        ymax = s.p.y[i] > ymax ? s.p.y[i] : ymax;
        const double lo = fmin(fmin(s.p.x[i], s.p.z[i]), fmin(S2_BOX - s.p.x[i],
                                                              S2_BOX - s.p.z[i]));
        outside = fmax(outside, -fmin(lo, (double)s.p.y[i]));
    }
    xr_table_close(f);
    free(order);
    double mass = 0;
    for (size_t i = 0; i < n; ++i)
        mass += s.p.w[i] > 0 ? 1.0 / (double)s.p.w[i] : 0;
    s2_pour_free(&s);

    xr_md(ctx,
          "%zu balls (radius 2-3 cm, density 1000 kg/m^3, float) start as a jittered 11 x 11 "
          "column above an open box of five planes (%.1f m square) and fall into it: the world "
          "step in the substep order (%u substeps x %u iteration%s per 1/60 s frame), the grid "
          "broad phase every frame (skin %.2f m), e = %.1f, mu_s = %.1f, mu_k = %.1f, %d frames "
          "(%.1f s).\n\n"
          "| quantity | value |\n|---|---|\n"
          "| contacts per frame (max) | %u |\n"
          "| energy at the start (J, potential from the floor) | %.3f |\n"
          "| max energy over the run / start | %.4f |\n"
          "| energy at the end / start | %.4f |\n"
          "| kinetic energy at the end (J) | %.3g |\n"
          "| max pair penetration, last half of the run (m) | %.3g (%.1f%% of the smallest "
          "radius) |\n"
          "| max plane penetration, last half of the run (m) | %.3g |\n"
          "| pile height (highest centre, m) | %.3f |\n\n",
          n, S2_BOX, (unsigned)cfg.substeps, (unsigned)cfg.iterations,
          cfg.iterations == 1 ? "" : "s", cfg.contact_skin,
          cfg.restitution, cfg.friction_static, cfg.friction_dynamic, frames, frames * S2_H,
          (unsigned)max_contacts_seen, e0, emax / e0, e_end / e0, k_end, pp_late,
          100 * pp_late / rmin, wp_late, (double)ymax);
    xr_tolerance_source(ctx, "exact: the contact set holds 40 contacts per ball");
    xr_check(ctx, "steps not XPBD_OK (a contact overflow stops the run)", !ok, 0, xr_exact(),
             NULL);
    xr_check(ctx, "contacts dropped", (double)dropped, 0, xr_exact(), NULL);
    if (!ok)
        xr_md(ctx, "A step failed; contacts dropped: %u.\n\n", (unsigned)dropped);
    /* The contact position pass moves balls without touching v, so it may
     * add potential energy: lifting every ball by the deepest overlap of the
     * run bounds the gain by M g pp_run, i.e. pp_run / y_c0 of E0 (E0 is all
     * potential at the start: E0 = M g y_c0). */
    const double lift = mass * XS_G * pp_run / e0;
    xr_tolerance_source(ctx, "physics: the position pass lifts no ball by more than the "
                             "deepest overlap of the run: gain <= M g max_pen / E0");
    xr_check(ctx, "energy gain over the start bounded by the pass's lift (max E/E0 - 1)",
             emax / e0 - 1, lift, xr_at_most(lift), NULL);
    xr_tolerance_source(ctx, "physics: e = 0.1 and friction dissipate; 1% of E0 left moving");
    xr_check(ctx, "the pile comes to rest: kinetic energy at the end / E0", k_end / e0, 0,
             xr_abs(0.01), NULL);
    xr_tolerance_source(ctx, "engineering: an overlap under a quarter radius is not visible "
                             "(16 substeps of one iteration on a 16-layer pile)");
    xr_check(ctx, "max pair penetration in the last half / smallest radius", pp_late / rmin, 0,
             xr_abs(0.25), NULL);
    xr_tolerance_source(ctx, "physics: planes are projected last in every iteration, so only "
                             "float rounding of the coordinates is left: 1e-6 m (~16 ulp of 1 m)");
    xr_check(ctx, "max plane penetration in the last half (m)", wp_late, 0, xr_abs(1e-6), NULL);
    xr_check(ctx, "no centre outside the box: largest distance outside (m)", outside, 0,
             xr_at_most(0), NULL);
    (void)pp_end;
    (void)wp_end;

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Contacts in 3-D (S2): %zu balls poured into a %.1f m box of five planes through the "
             "world step (substep order, %u x %u, broad phase every frame, float). Left: final "
             "positions seen from the side, coloured by depth. Middle: energy / start (potential "
             "from the floor) and kinetic energy. Right: max pair and plane penetration vs time "
             "(last half: %.2g m and %.2g m, radii >= 2 cm).",
             n, S2_BOX, (unsigned)cfg.substeps, (unsigned)cfg.iterations, pp_late, wp_late);
    xr_figure(ctx, "s2_particles", cap);
    return 0;
}

const xr_section xr_section_s2_position_only = {
    .name = "s2_position_only",
    .title = "Position-only correction, beta sweep; raw penetration and E/E0 vs time per beta",
    .spec = "S2: contacts, position-only correction",
    .figures = XR_FIGURES("s2_position_only"),
    .tables = XR_TABLES({"s2_position_only", "energy and penetration vs time per beta"},
                        {"s2_position_only_table", "position-only correction at 1 s per beta"}),
    .run = s2_position_only_run};

const xr_section xr_section_s2_restitution = {
    .name = "s2_restitution",
    .title = "Ball on the infinite plate, v' = -e v exactly; energy with the velocity pass on",
    .spec = "S2: contacts, a ball on the plate",
    .figures = XR_FIGURES("s2_restitution"),
    .tables = XR_TABLES({"s2_restitution", "a ball on the plate: v' per e"},
                        {"s2_restitution_energy", "E/E0 vs time with the velocity pass on"}),
    .run = s2_restitution_run};

const xr_section xr_section_s2_mass_ratio = {
    .name = "s2_mass_ratio",
    .title = "Two balls, share backed out mu/(mu+1) and v1' vs mu against the closed forms",
    .spec = "S2: contacts, two balls",
    .figures = XR_FIGURES("s2_mass_ratio"),
    .tables = XR_TABLES({"s2_mass_ratio", "two balls: shares and v1' per mass ratio"}),
    .run = s2_mass_ratio_run};

const xr_section xr_section_s2_iterations = {
    .name = "s2_iterations",
    .title = "Four-ball tower, max penetration, top sink and sum |v| vs iterations",
    .spec = "S2: contacts, iterations on a stack",
    .figures = XR_FIGURES("s2_iterations"),
    .tables = XR_TABLES({"s2_iterations", "the ball stack per iteration count, with ratios and the original measurements"},
                        {"s2_iterations_time", "tower state vs time per iteration count"}),
    .run = s2_iterations_run};

const xr_section xr_section_s2_particles = {
    .name = "s2_particles",
    .title = "A few thousand balls poured into a box of planes; energy and penetration vs time",
    .spec = "S2: contacts in 3-D",
    .figures = XR_FIGURES("s2_particles"),
    .tables = XR_TABLES({"s2_particles", "final ball positions"},
                        {"s2_particles_time", "energy and max penetration vs time"}),
    .run = s2_particles_run};
