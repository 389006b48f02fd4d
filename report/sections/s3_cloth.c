/* SPDX-License-Identifier: MIT */
/* Section s3_cloth (S3, soft bodies): a curtain with bending and tethers
 * draped over a sphere: its shape, and the max stretch vs iterations with
 * and without tethers. */
#include "report.h"
#include "shared/s3_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (x, y, z, strain) per particle, row after row of the grid (the plot
 * script rebuilds the rows for splot); strain = the largest stretch of the
 * particle's row and column edges. */
static void s3_drape_shape(FILE *f, const s3_drape *d)
{
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(d->e);
    const size_t nx = d->nx;
    for (size_t j = 0; j < nx; ++j) {
        for (size_t i = 0; i < nx; ++i) {
            const size_t a = j * nx + i;
            double s = 0;
            const size_t nb[4][2] = {{i + 1, j}, {i - 1, j}, {i, j + 1}, {i, j - 1}};
            for (int k = 0; k < 4; ++k) {
                if (nb[k][0] >= nx || nb[k][1] >= nx)
                    continue;
                const size_t b = nb[k][1] * nx + nb[k][0];
                const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
                s = fmax(s, sqrt(dx * dx + dy * dy + dz * dz) / (1.2 / (double)(nx - 1)) - 1);
            }
            const double row[4] = {p->x[a], p->y[a], p->z[a], s};
            xr_row(f, 4, row);
        }
        fputc('\n', f); /* a blank line after each grid row: gnuplot's pm3d grid */
    }
}

/* Largest strain |d|/rest - 1 over the grid's row and column edges, from
 * the final positions (the solver's counter reads the stretch inside the
 * last iteration, before later constraints moved the particles again). */
static double s3_drape_max_strain(const s3_drape *d)
{
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(d->e);
    const size_t nx = d->nx;
    const double rest = 1.2 / (double)(nx - 1);
    double s = 0;
    for (size_t j = 0; j < nx; ++j)
        for (size_t i = 0; i < nx; ++i) {
            const size_t a = j * nx + i;
            const size_t nb[2] = {i + 1 < nx ? a + 1 : a, j + 1 < nx ? a + nx : a};
            for (int k = 0; k < 2; ++k) {
                if (nb[k] == a)
                    continue;
                const double dx = p->x[nb[k]] - p->x[a], dy = p->y[nb[k]] - p->y[a],
                             dz = p->z[nb[k]] - p->z[a];
                s = fmax(s, sqrt(dx * dx + dy * dy + dz * dz) / rest - 1);
            }
        }
    return s;
}

/* One tier of the sweep: the curtain draped with (t = 0) and without
 * tethers at `it` iterations: max stretch st[t] and lowest point low[t];
 * the deepest particle inside the sphere into *worst_pen; at the tier
 * shown, the final edges (s3_cloth_tethers, s3_cloth_free). Returns 1, or 0
 * if a run failed. */
static int cl_tier(xr_ctx *ctx, uint32_t it, uint32_t nx, uint32_t shown, int frames, double st[2],
                   double low[2], double *worst_pen)
{
    int ok = 1;
    for (int t = 0; t < 2 && ok; ++t) {
        s3_drape d;
        ok = s3_drape_make(&d, ctx, nx, it, t == 0) && s3_drape_run(&d, frames);
        if (ok) {
            st[t] = s3_drape_max_strain(&d);
            low[t] = s3_min_y(xpbd_engine_particles_f64(d.e));
            const xpbd_particles_f64 *p = xpbd_engine_particles_f64(d.e);
            for (size_t i = 0; i < p->count; ++i) {
                const double dy = p->y[i] - 0.45;
                const double r = sqrt(p->x[i] * p->x[i] + dy * dy + p->z[i] * p->z[i]);
                *worst_pen = fmax(*worst_pen, 0.36 - r);
            }
            if (it == shown) {
                FILE *g = xr_table_open(ctx, t == 0 ? "s3_cloth_tethers" : "s3_cloth_free",
                                        "x\ty\tz\tstrain");
                if (g) {
                    s3_drape_shape(g, &d);
                    xr_table_close(g);
                }
            }
        }
        s3_drape_free(&d);
    }
    return ok;
}

static int s3_cloth_run(xr_ctx *ctx)
{
    static const uint32_t full_its[] = {2, 3, 4, 5, 6, 8, 10, 12, 15, 20};
    static const uint32_t quick_its[] = {2, 4, 10, 20};
    const int quick = xr_quick(ctx);
    const uint32_t *its = quick ? quick_its : full_its;
    const int nits = quick ? 4 : (int)(sizeof full_its / sizeof full_its[0]);
    const int frames = quick ? 240 : 300;
    const uint32_t nx = 24, shown = 4;
    FILE *f = xr_table_open(ctx, "s3_cloth",
                            "iterations\tstretch_tethers\tstretch_free\tlowest_tethers\tlowest_free");
    if (!f)
        return -1;
    double s2[2] = {NAN, NAN}, s4[2] = {NAN, NAN}, s10[2] = {NAN, NAN}, s20[2] = {NAN, NAN};
    double worst_pen = 0;
    double worst_tether = 0; /* max over tiers of stretch with / without tethers */
    int ok = 1;
    xr_md(ctx,
          "A %u x %u curtain (1.2 m square, 0.5 kg; stretch and shear edges of compliance 1e-7 "
          "m/N, isometric bending 1e-3) pinned along its first row 0.9 m up, just behind the "
          "top of a sphere of radius 0.35 m (a kinematic rigid body, coupled through "
          "`xpbd_engine_couple_rigid_f64`), falls and drapes over it; %d frames of 1/60 s, "
          "1 substep, 0.5%% damping per frame. Tethers: every particle may be at most its rest "
          "distance from the pin of its column. Max stretch = max over the row and column edges "
          "of |d|/rest - 1, measured from the final positions (the solver's own counter reads "
          "it inside the last iteration and under-reads).\n\n| iterations | max stretch, tethers | max stretch, none | "
          "lowest point, tethers (m) | lowest point, none (m) |\n|---|---|---|---|---|\n",
          nx, nx, frames);
    for (int k = 0; k < nits && ok; ++k) {
        double st[2], low[2];
        ok = cl_tier(ctx, its[k], nx, shown, frames, st, low, &worst_pen);
        if (!ok)
            break;
        const double row[5] = {its[k], st[0], st[1], low[0], low[1]};
        xr_row(f, 5, row);
        xr_md(ctx, "| %u | %.4f | %.4f | %.3f | %.3f |\n", its[k], st[0], st[1], low[0], low[1]);
        worst_tether = isnan(st[0] / st[1]) ? NAN : fmax(worst_tether, st[0] / st[1]);
        if (its[k] == 2) {
            s2[0] = st[0];
            s2[1] = st[1];
        }
        if (its[k] == 4) {
            s4[0] = st[0];
            s4[1] = st[1];
        }
        if (its[k] == 10) {
            s10[0] = st[0];
            s10[1] = st[1];
        }
        if (its[k] == 20) {
            s20[0] = st[0];
            s20[1] = st[1];
        }
        xr_progress(ctx, "s3_cloth", k + 1, nits);
    }
    xr_table_close(f);
    if (!ok) {
        xr_md(ctx, "A cloth run failed.\n\n");
        return -1;
    }
    xr_md(ctx, "\nDeepest particle inside the sphere (radius + particle radius 0.36 m): %.2g m.\n\n",
          worst_pen);
    xr_tolerance_source(ctx, "engineering: a tether must buy at least a fifth of the stretch "
                             "at the cheapest tier to be worth its cost");
    xr_check(ctx, "2 iterations: tethers cut the max stretch by >= 20%", s2[0] / s2[1], 0.8,
             xr_at_most(0.8), NULL);
    /* tethers do not always lower the stretch: once the iterations have
     * converged to the level the sphere's coupling sets (below), the
     * tethered drape can stretch a little more; said with its number, not
     * checked against a slack */
    if (worst_tether > 1)
        xr_md(ctx,
              "Tethers do not lower the stretch at every tier: at its worst tier the tethered "
              "curtain stretches %.2f%% more than the free one (at 20 iterations %.4f against "
              "%.4f). They buy stiffness where the iterations are few; once the solve has "
              "converged the stretch is the level the sphere's coupling leaves, which tethers do "
              "not lower.\n\n",
              100 * (worst_tether - 1), s20[0], s20[1]);
    xr_md(ctx,
          "The stretch measured from the final positions levels off near %.2f, not 0: the "
          "sphere is coupled after each step (`xpbd_engine_couple_rigid_f64` pushes the "
          "particles out along its normal), so the edges draped over it are stretched after the "
          "solve, by an amount the iterations of the next frame take back only partly. More "
          "iterations converge to that level; they do not remove it.\n\n",
          s20[0]);
    {
        /* the tier rule on the tethered curtain: 4 and 10 iterations of the
         * sweep; rho and the drift from two settled 10-iteration drapes, the
         * lambda-reset tiers from two more */
        double x[2] = {NAN, NAN}, rs[2] = {NAN, NAN}, r1 = NAN, r4 = NAN, drift = NAN;
        for (int k = 0; k < nits; ++k) {
            x[0] = its[k] == 4 ? s4[0] : x[0];
            x[1] = its[k] == 10 ? s10[0] : x[1];
        }
        s3_drape a, b;
        int made = s3_drape_make(&a, ctx, nx, 10, 1) && s3_drape_make(&b, ctx, nx, 10, 1);
        ok = made && s3_drape_run(&a, frames - 60) && s3_drape_run(&b, frames);
        const double before = ok ? s3_drape_max_strain(&a) : NAN;
        ok = ok && s3_drape_run(&a, 60);
        if (ok)
            drift = fabs(s3_drape_max_strain(&a) - before) / s3_drape_max_strain(&a);
        ok = ok && s3_tier_residuals(a.e, b.e, 1, &r1, &r4);
        s3_drape_free(&a);
        s3_drape_free(&b);
        for (int k = 0; k < 2 && ok; ++k) {
            s3_drape r;
            ok = s3_drape_make(&r, ctx, nx, k ? 10 : 4, 1);
            xpbd_step_config cfg = ok ? *xpbd_engine_config_f64(r.e) : xpbd_step_config_default();
            cfg.lambda_reset = XPBD_LAMBDA_PER_ITERATION;
            ok = ok && xpbd_engine_set_config_f64(r.e, &cfg) == XPBD_OK && s3_drape_run(&r, frames);
            if (ok)
                rs[k] = s3_drape_max_strain(&r);
            s3_drape_free(&r);
        }
        if (!ok) {
            xr_md(ctx, "A cloth run failed.\n\n");
            return -1;
        }
        const xr_tiers tr = {.scene = "curtain with tethers", .quantity = "max stretch",
                             .alpha = 1e-7, .mass = 0.5 / (nx * nx), .substeps = 1, .r1 = r1, .r4 = r4, .x4 = x[0],
                             .x10 = x[1], .reset4 = rs[0], .reset10 = rs[1], .drift = drift,
                             .drift_from = "the max stretch's change over the last second",
                             .frames = frames, .state_rule = 1};
        xr_iteration_tiers(ctx, &tr);
        xr_md(ctx, "\n");
    }
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Soft bodies (S3), cloth: a 24x24 curtain with isometric bending draped over a sphere "
             "(kinematic rigid body, two-way coupling kernel), %u iterations, with tethers "
             "(left) and without (middle), particles coloured by the stretch of their edges. "
             "Right: max stretch (from the final positions) vs iterations: at 2 iterations %.2f "
             "with tethers against %.2f without, at 10 iterations %.3f against %.3f; the level "
             "near %.2f that stays is the sphere's push-out after each step.",
             shown, s2[0], s2[1], s10[0], s10[1], s20[0]);
    xr_figure(ctx, "s3_cloth", cap);
    return 0;
}

const xr_section xr_section_s3_cloth = {
    S3_SECTION(s3_cloth),
    .title = "Curtain with bending and tethers draped over a sphere; max stretch vs iterations",
    .tables = XR_TABLES({"s3_cloth", "max stretch vs iterations with/without tethers"},
                        {"s3_cloth_free", "final cloth edges without tethers"},
                        {"s3_cloth_tethers", "final cloth edges with tethers"})};
