/* SPDX-License-Identifier: MIT */
/* Section s3_soft_body_checks: the checks every soft body passes (S3) ("reconcile numbers
 * before looks"), each against its closed form or the original measurement's statement:
 *
 *   poke       a soft cube resting on the ground, one top particle kicked:
 *              it oscillates and the oscillation decays
 *   free fall  a free cube for 1 s: the centre of mass drops
 *              g h^2 N(N+1)/2 exactly (semi-implicit Euler), the scenario's
 *              4.9 m = g t^2/2 plus the integrator's g h t/2
 *   support    a cube resting on the ground: the planes' impulse per frame
 *              is m g h
 *   balls      two equal balls head-on, e = 1: they swap velocities
 *   degenerate a flat tet is refused at build time (bad_index names it); a
 *              tet collapsed onto a point at solve time is skipped and
 *              counted, no NaN
 *   platform   a kinematic platform accelerating upward under a resting
 *              soft cube: coupled two-way (the push-out gives the particles
 *              velocity dx/h) the cube rides it; one-way (positions pushed
 *              out, velocities left alone) the platform swallows it */
#include "report.h"

#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_H (1.0 / 60)
#define ST_FRAMES 120 /* 2 s of every time series */
#define ST_R 0.02     /* contact radius of the cube particles (m) */

typedef struct st_series {
    double poke[ST_FRAMES + 1];    /* dy of the kicked particle from its settled height */
    double fall[ST_FRAMES + 1];    /* centre-of-mass drop (m), first second */
    double support[ST_FRAMES + 1]; /* planes' impulse per frame / (M g h) */
    double v1[ST_FRAMES + 1], v2[ST_FRAMES + 1];
    double two_way[ST_FRAMES + 1], one_way[ST_FRAMES + 1]; /* lowest particle - platform top */
} st_series;

static xs_cube_desc st_cube(const xr_ctx *ctx)
{
    xs_cube_desc d = xs_cube_default();
    d.n = 2;
    d.alpha_e = 1e-3;
    d.cfg.isa = xr_isa(ctx);
    return d;
}

/* Poke: returns the largest |dy| over the first and the last half second
 * after the kick and the number of sign changes of dy. */
static int st_poke(const xr_ctx *ctx, st_series *s, double *first, double *last, int *swings)
{
    xs_cube_desc d = st_cube(ctx);
    d.ground = 1;
    d.radius = ST_R;
    d.origin[1] = ST_R;
    xs_cube c;
    int ok = xs_cube_make(&c, &d) && xs_run(c.e, 60);
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(c.e);
    size_t top = 0;
    for (size_t i = 0; ok && i < p->count; ++i) { /* the top face's centre */
        const double di = fabs(p->x[i] - 0.1) + fabs(p->z[i] - 0.1) - p->y[i];
        const double dt = fabs(p->x[top] - 0.1) + fabs(p->z[top] - 0.1) - p->y[top];
        if (di < dt)
            top = i;
    }
    const double y0 = ok ? p->y[top] : 0;
    const xpbd_input poke = {XPBD_INPUT_SET_VELOCITY, (uint32_t)top, (uint32_t)top + 1,
                             {ok ? p->vx[top] : 0, -2, ok ? p->vz[top] : 0}};
    ok = ok && xpbd_engine_apply_f64(c.e, &poke) == XPBD_OK;
    *first = *last = 0;
    *swings = 0;
    for (int fr = 0; fr <= ST_FRAMES && ok; ++fr) {
        s->poke[fr] = p->y[top] - y0;
        if (fr > 0 && (s->poke[fr] > 0) != (s->poke[fr - 1] > 0))
            ++*swings;
        if (fr <= 30)
            *first = fmax(*first, fabs(s->poke[fr]));
        if (fr >= ST_FRAMES - 30)
            *last = fmax(*last, fabs(s->poke[fr]));
        if (fr < ST_FRAMES)
            ok = xs_run(c.e, 1);
    }
    xs_cube_free(&c);
    return ok;
}

/* Free fall of a free cube for 1 s (60 frames), no damping. */
static int st_fall(const xr_ctx *ctx, st_series *s, double *drop, uint32_t *substeps)
{
    xs_cube_desc d = st_cube(ctx);
    d.origin[1] = 10;
    d.cfg.damping = 0;
    xs_cube c;
    int ok = xs_cube_make(&c, &d);
    double c0[3] = {0, 0, 0}, cc[3];
    if (ok)
        xs_com(xpbd_engine_particles_f64(c.e), 0, xpbd_engine_particles_f64(c.e)->count, c0, NULL);
    for (int fr = 0; fr <= ST_FRAMES; ++fr) {
        s->fall[fr] = NAN;
        if (!ok || fr > 60)
            continue;
        xs_com(xpbd_engine_particles_f64(c.e), 0, xpbd_engine_particles_f64(c.e)->count, cc, NULL);
        s->fall[fr] = c0[1] - cc[1];
        if (fr < 60)
            ok = xs_run(c.e, 1);
    }
    *drop = s->fall[60];
    *substeps = d.cfg.substeps;
    xs_cube_free(&c);
    return ok;
}

/* Support: a cube resting on the ground; the planes' impulse per frame
 * over M g h, and its mean over the last second. */
static int st_support(const xr_ctx *ctx, st_series *s, double *mean_last, double *worst_last)
{
    xs_cube_desc d = st_cube(ctx);
    d.ground = 1;
    d.radius = ST_R;
    d.origin[1] = ST_R;
    xs_cube c;
    int ok = xs_cube_make(&c, &d);
    double mass = 0;
    for (size_t i = 0; ok && i < xpbd_engine_particles_f64(c.e)->count; ++i)
        mass += 1 / xpbd_engine_particles_f64(c.e)->w[i];
    *mean_last = 0;
    *worst_last = 0;
    for (int fr = 0; fr <= ST_FRAMES; ++fr) {
        s->support[fr] = NAN;
        if (!ok || fr == 0)
            continue;
        ok = xs_run(c.e, 1) && xpbd_engine_world_f64(c.e)->plane_impulse;
        if (!ok)
            break;
        double j = 0;
        for (size_t i = 0; i < xpbd_engine_particles_f64(c.e)->count; ++i)
            j += xpbd_engine_world_f64(c.e)->plane_impulse[i];
        s->support[fr] = fabs(j) / (mass * XS_G * ST_H);
        if (fr > ST_FRAMES - 60) {
            *mean_last += s->support[fr] / 60;
            *worst_last = fmax(*worst_last, fabs(s->support[fr] - 1));
        }
    }
    xs_cube_free(&c);
    return ok;
}

/* Two equal balls (1 kg, radius 0.1 m) at -+1 m/s along x, no gravity,
 * e = 1. Returns the final velocities. */
static int st_balls(const xr_ctx *ctx, st_series *s, double *v1, double *v2)
{
    const double xyz[6] = {-0.5, 1, 0, 0.5, 1, 0}, vel[6] = {1, 0, 0, -1, 0, 0};
    const double w[2] = {1, 1}, r[2] = {0.1, 0.1};
    const size_t begin[3] = {0, 1, 2};
    xpbd_scene_f64 sc;
    memset(&sc, 0, sizeof sc);
    sc.particles = 2;
    sc.xyz = xyz;
    sc.vel = vel;
    sc.inv_mass = w;
    sc.radius = r;
    sc.bodies = 2;
    sc.body_begin = begin;
    sc.max_contacts = 8;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.gravity[1] = 0;
    cfg.restitution = 1;
    xpbd_engine_f64 *e = NULL;
    int ok = xpbd_engine_create_f64(&e, &sc, &cfg, NULL, NULL) == XPBD_OK;
    for (int fr = 0; fr <= ST_FRAMES && ok; ++fr) {
        s->v1[fr] = xpbd_engine_particles_f64(e)->vx[0];
        s->v2[fr] = xpbd_engine_particles_f64(e)->vx[1];
        if (fr < ST_FRAMES)
            ok = xpbd_engine_step_f64(e, ST_H) >= 0;
    }
    *v1 = ok ? xpbd_engine_particles_f64(e)->vx[0] : NAN;
    *v2 = ok ? xpbd_engine_particles_f64(e)->vx[1] : NAN;
    xpbd_engine_destroy_f64(e);
    return ok;
}

/* A platform (kinematic box 1 m x 0.1 m x 1 m, top at y = 5) accelerating
 * upward at 12 m/s^2 under a soft cube resting on it; two_way: the
 * coupling's velocity dx/h kept, else the host restores the particles'
 * velocities after the push-out. Fills the lowest particle's height over
 * the platform's top per frame; returns the particles below the top at
 * the end. */
static int st_platform(const xr_ctx *ctx, int two_way, double *rel, size_t *below)
{
    xs_cube_desc d = st_cube(ctx);
    d.ground = 1; /* far below: only there so the particles have radii */
    d.radius = ST_R;
    d.origin[0] = -0.1;
    d.origin[1] = 5 + ST_R;
    d.origin[2] = -0.1;
    xs_cube c;
    int ok = xs_cube_make(&c, &d);
    xpbd_rigid_f64 plat;
    memset(&plat, 0, sizeof plat);
    plat.shape = XPBD_RIGID_BOX;
    plat.rot[0] = plat.rot[4] = plat.rot[8] = 1;
    plat.half[0] = plat.half[2] = 0.5;
    plat.half[1] = 0.05;
    plat.centre[1] = 5 - 0.05;
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(c.e);
    double *vsave = ok ? malloc(3 * p->count * sizeof *vsave) : NULL;
    ok = ok && vsave;
    double v = 0;
    for (int fr = 0; fr <= ST_FRAMES && ok; ++fr) {
        rel[fr] = xs_min_y(p, 0, p->count) - (plat.centre[1] + plat.half[1]);
        if (fr == ST_FRAMES)
            break;
        v += 12 * ST_H;
        plat.centre[1] += v * ST_H;
        ok = xs_run(c.e, 1);
        for (size_t i = 0; ok && i < p->count; ++i) {
            vsave[3 * i] = p->vx[i];
            vsave[3 * i + 1] = p->vy[i];
            vsave[3 * i + 2] = p->vz[i];
        }
        xpbd_rigid_impulse j;
        ok = ok && xpbd_engine_couple_rigid_f64(c.e, &plat, ST_H, &j) == XPBD_OK;
        for (size_t i = 0; ok && !two_way && i < p->count; ++i) {
            const xpbd_input back = {XPBD_INPUT_SET_VELOCITY, (uint32_t)i, (uint32_t)i + 1,
                                     {vsave[3 * i], vsave[3 * i + 1], vsave[3 * i + 2]}};
            ok = xpbd_engine_apply_f64(c.e, &back) == XPBD_OK;
        }
    }
    *below = 0;
    for (size_t i = 0; ok && i < p->count; ++i)
        *below += p->y[i] < plat.centre[1] + plat.half[1];
    free(vsave);
    xs_cube_free(&c);
    return ok;
}

/* Degenerate tets: a flat tet refused at build time; a tet collapsed onto
 * one point skipped at solve time. */
static int st_degenerate(xr_ctx *ctx, xpbd_status *build, size_t *bad, uint32_t *skipped,
                         int *finite)
{
    /* tet 0 regular, tet 1 flat (particle 4 in the plane of 0, 1, 2) */
    const double xyz[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.3, 0.3, 0};
    const uint32_t idx[8] = {0, 1, 2, 3, 0, 1, 2, 4};
    const double comp[2] = {0, 0};
    xpbd_quad_set_f64 set;
    *bad = SIZE_MAX;
    *build = xpbd_tet_set_build_f64(&set, 5, xyz, 2, idx, comp, NULL, bad);
    if (*build == XPBD_OK)
        xpbd_quad_set_free_f64(&set);
    /* one regular tet, then every corner moved onto the same point */
    xpbd_colouring_options opt = {0};
    opt.serial = 1;
    if (xpbd_tet_set_build_f64(&set, 5, xyz, 1, idx, comp, &opt, NULL) != XPBD_OK)
        return 0;
    double q[20];
    for (int i = 0; i < 5; ++i) {
        q[4 * i] = q[4 * i + 1] = q[4 * i + 2] = 0.25;
        q[4 * i + 3] = 1;
    }
    (void)ctx;
    *skipped = xpbd_serial_tet_volume_f64(q, &set, set.overflow_begin, set.slots, ST_H);
    *finite = 1;
    for (int i = 0; i < 20; ++i)
        *finite &= isfinite(q[i]);
    *finite &= isfinite(set.lambda[set.overflow_begin]);
    xpbd_quad_set_free_f64(&set);
    return 1;
}

static int s3_soft_body_checks_run(xr_ctx *ctx)
{
    xr_md(ctx, "**The scenario.** Reconcile the numbers before the looks: a poke oscillates and decays; a free fall of 1 s drops about g/2 = 4.9 m; a resting body's support impulse is about m g h per step; a head-on elastic collision of equal balls swaps their velocities; a degenerate tetrahedron is skipped and counted, never turned into NaN; and a moving platform with one-way contact swallows the soft body, which two-way contact prevents.\n\n");
    static st_series s;
    double first, last, drop, mean_sup, worst_sup, v1, v2;
    int swings, fin = 0;
    uint32_t subs = 1, skipped = 0;
    size_t below2 = 0, below1 = 0, bad = 0;
    xpbd_status build = XPBD_OK;
    if (!st_poke(ctx, &s, &first, &last, &swings) || !st_fall(ctx, &s, &drop, &subs) ||
        !st_support(ctx, &s, &mean_sup, &worst_sup) || !st_balls(ctx, &s, &v1, &v2) ||
        !st_platform(ctx, 1, s.two_way, &below2) || !st_platform(ctx, 0, s.one_way, &below1) ||
        !st_degenerate(ctx, &build, &bad, &skipped, &fin)) {
        xr_md(ctx, "A scene of the S3 original tests could not be built or stepped.\n\n");
        return -1;
    }
    FILE *f = xr_table_open(ctx, "s3_soft_body_checks",
                            "frame\tt\tpoke_dy\tfall_drop\tfall_closed\tfall_ideal\tsupport_ratio\t"
                            "v1\tv2\tplatform_two_way\tplatform_one_way");
    if (!f)
        return -1;
    const double hs = ST_H / subs;
    for (int fr = 0; fr <= ST_FRAMES; ++fr) {
        const double t = fr * ST_H, ns = (double)fr * subs;
        const double row[11] = {fr,
                                t,
                                s.poke[fr],
                                s.fall[fr],
                                fr <= 60 ? XS_G * hs * hs * ns * (ns + 1) / 2 : NAN,
                                fr <= 60 ? XS_G * t * t / 2 : NAN,
                                s.support[fr],
                                s.v1[fr],
                                s.v2[fr],
                                s.two_way[fr],
                                s.one_way[fr]};
        xr_row(f, 11, row);
    }
    xr_table_close(f);
    const double n = 60.0 * subs;
    const double closed = XS_G * hs * hs * n * (n + 1) / 2;
    xr_md(ctx,
          "The checks every soft body passes (S3), on 2 x 2 x 2-cell tet cubes (27 particles of 0.1 kg, "
          "edge compliance 1e-3 m/N, rigid tets, 10 iterations, %u substep%s, h = 1/60 s).\n\n"
          "| test | ours | closed form / original |\n|---|---|---|\n"
          "| poke: largest \\|dy\\| in the first / last 0.5 s (m) | %.4g / %.3g | decays |\n"
          "| poke: sign changes of dy in 2 s | %d | oscillates |\n"
          "| free fall, 1 s: centre of mass drop (m) | %.10f | g h_s^2 N(N+1)/2 = %.10f; original "
          "4.9 |\n"
          "| support: planes' impulse per frame / (M g h), mean of the last second | %.9f | 1 "
          "|\n"
          "| equal balls, e = 1: velocities after (m/s) | %+.15g, %+.15g | swapped: -1, +1 |\n"
          "| flat tet at build: status, bad_index | `%s`, %zu | degenerate, tet 1 |\n"
          "| tet collapsed onto a point: skipped, state finite | %u, %s | 1, yes |\n"
          "| platform two-way: particles below its top at 2 s | %zu of 27 | 0 |\n"
          "| platform one-way: particles below its top at 2 s | %zu of 27 | swallowed |\n\n",
          subs, subs == 1 ? "" : "s", first, last, swings, drop, closed, mean_sup, v1, v2,
          xpbd_status_str(build), bad, skipped, fin ? "yes" : "NO", below2, below1);
    xr_md(ctx,
          "**What damps the poke.** No damping is configured (damping %g, relative damping "
          "%g), yet the poke's amplitude falls by a factor %.2g in 2 s. That decay is the "
          "step's own: a position-based step removes energy through its projections, the "
          "ground contact the cube rests on among them (the "
          "thrown cube's spin in the damping section shows the closed form of one such loss). "
          "This report does not model it for the poke, so the checks ask only that the poke "
          "oscillates and decays, not at what rate.\n\n",
          st_cube(ctx).cfg.damping, st_cube(ctx).cfg.relative_damping, first / last);
    xr_md(ctx,
          "### %s\n\n"
          "The original measurement's 4.9 m is g t^2/2 = %.4f m, the continuous fall. The step integrates "
          "semi-implicit Euler (v += g h_s, then x += v h_s), which after N = %.0f steps has "
          "fallen g h_s^2 N(N+1)/2 = g t^2/2 (1 + 1/N): %.3f m more, the integrator's own "
          "first-order error g h_s t/2. Ours matches that closed form to %.1g m; it approaches "
          "4.905 m as h_s -> 0 (4 substeps: %.4f m).\n\n",
          "Free fall: 4.9 m is g t^2/2, the integrator falls g h t/2 further",
          XS_G / 2, n, closed - XS_G / 2, fabs(drop - closed),
          XS_G * (hs / 4) * (hs / 4) * (4 * n) * (4 * n + 1) / 2);

    xr_tolerance_source(ctx, "original measurement: a poke 'oscillates and decays': at least one "
                             "swing, the last 0.5 s under a tenth of the first");
    xr_check(ctx, "poke: last / first amplitude", last / first, 0.1, xr_below(0.1), NULL);
    xr_check(ctx, "poke: swings", swings, 2, xr_at_least(2), NULL);
    xr_tolerance_source(ctx, "closed form: semi-implicit Euler; constraints keep the centre of "
                             "mass; f64 rounding of 60 steps, 1e-12 relative");
    xr_check_rel(ctx, "free fall 1 s: drop vs g h_s^2 N(N+1)/2 (m)", drop, closed, 1e-12, NULL);
    /* the original's 4.9 m is g t^2/2, not the integrator's closed form */
    xr_reference(ctx, "S3 free fall for 1 s (m)", 4.9, drop, NULL,
                 "Free fall: 4.9 m is g t^2/2, the integrator falls g h t/2 further");
    xr_tolerance_source(ctx, "closed form: at rest the ground carries M g h per frame; 1e-6 "
                             "for the settling of the first second");
    xr_check(ctx, "support impulse per frame / (M g h), worst of the last second", worst_sup, 0,
             xr_abs(1e-6), NULL);
    xr_reference(ctx, "S3 support impulse per step / (m g h)", 1, mean_sup,
                 "support impulse per frame / (M g h), worst of the last second", NULL);
    xr_tolerance_source(ctx, "closed form: equal masses, e = 1 exchange velocities; f64 "
                             "rounding of +-1 m/s, 1e-12");
    xr_check(ctx, "equal balls: max |v' - swapped| (m/s)", fmax(fabs(v1 + 1), fabs(v2 - 1)), 0,
             xr_abs(1e-12), NULL);
    xr_reference(ctx, "S3 equal balls: v1 after (m/s)", -1, v1,
                 "equal balls: max |v' - swapped| (m/s)", NULL);
    xr_tolerance_source(ctx, "original measurement: a degenerate tet is reported, never NaN "
                             "(statuses and counts, exact)");
    xr_check(ctx, "flat tet refused at build time: status (XPBD_ERR_DEGENERATE)", build,
             XPBD_ERR_DEGENERATE, xr_exact(), NULL);
    xr_check(ctx, "flat tet refused at build time: bad_index", (double)bad, 1, xr_exact(), NULL);
    xr_check(ctx, "collapsed tet skipped and counted", skipped, 1, xr_exact(), NULL);
    xr_check(ctx, "collapsed tet: values not finite", !fin, 0, xr_exact(), NULL);
    xr_tolerance_source(ctx, "original measurement: one-way contact lets a moving platform "
                             "swallow the body; two-way keeps it on top (counts, exact)");
    xr_check(ctx, "platform, two-way: particles below its top at 2 s", (double)below2, 0,
             xr_exact(), NULL);
    xr_check(ctx, "platform, one-way: particles below its top at 2 s (swallowed: > half of 27)",
             (double)below1, 27, xr_at_least(14), NULL);

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Checks every soft body passes (S3). (a) a poke: the kicked particle's height oscillates and "
             "decays (%.3g m -> %.2g m). (b) free fall for 1 s: %.4f m against g h^2 N(N+1)/2 "
             "(exact) and the original measurement's 4.9 = g t^2/2. (c) support impulse per frame / (M g h) -> "
             "1. (d) equal balls at +-1 m/s, e = 1: velocities swap. (e) a platform "
             "accelerating upward under a soft cube: two-way coupling carries it; one-way "
             "(positions pushed out, velocities left) the platform swallows it (%zu of 27 "
             "particles below its top).",
             first, last, drop, below1);
    xr_figure(ctx, "s3_soft_body_checks", cap);
    return 0;
}

const xr_section xr_section_s3_soft_body_checks = {
    .name = "s3_soft_body_checks",
    .title = "The S3 checks every soft body passes: poke, free fall, support impulse, equal balls, degenerate tet, "
             "one-way platform",
    .scenario = "S3: soft bodies, the checks every soft body passes",
    .figures = XR_FIGURES("s3_soft_body_checks"),
    .tables = XR_TABLES({"s3_soft_body_checks", "per frame: poke, fall, support, balls, platform"}),
    .run = s3_soft_body_checks_run};
