/* SPDX-License-Identifier: MIT */
/* bench_peer.c: the bench's cloth handed to the peer engine (bench_peer.h).
 *
 * The peer steps the very cloth xpbd steps: xs_cloth_f32's particles
 * (positions at rest, w = 0 at the two pinned corners) and its constraints in
 * the builder's input order (padding slots dropped). Stiffness: an XPBD
 * distance constraint of compliance alpha between two unit masses moves each
 * end by C/2 x s per solve (lambda = 0), s = 2 / (2 + alpha/h^2) with h the
 * substep; Bullet's link solve moves each end by C/2 x kLST. So kLST = s of
 * the mode's substep: 0.357 for sub10 (h = 1/600 s), 0.982 for iter10
 * (h = 1/60 s), matching the first iteration exactly (XPBD's later
 * iterations, which accumulate lambda, differ). */
#define _POSIX_C_SOURCE 200112L /* clock_gettime under ISO C11 */

#include "bench_peer.h"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

int xb_peer_available(void)
{
#ifdef XPBD_BENCH_BULLET
    return 1;
#else
    return 0;
#endif
}

#ifdef XPBD_BENCH_BULLET
static double xb_mean(const float *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; ++i)
        s += v[i];
    return n ? s / (double)n : 0;
}

/* The cloth's constraints in input order; 0 or -1 (out of memory). */
static int xb_peer_links(const xpbd_distance_set_f32 *set, uint32_t **i0, uint32_t **i1)
{
    *i0 = malloc((set->count + 1) * sizeof **i0);
    *i1 = malloc((set->count + 1) * sizeof **i1);
    if (!*i0 || !*i1)
        return -1;
    for (uint32_t slot = 0; slot < set->slots; ++slot)
        if (set->source[slot] != XPBD_PAD && set->source[slot] < set->count) {
            (*i0)[set->source[slot]] = set->i0[slot];
            (*i1)[set->source[slot]] = set->i1[slot];
        }
    return 0;
}

/* Mean |C| / rest over the links i0/i1 (rest: the distances at the start
 * xs, ys, zs) of the positions x, y, z. */
static double xb_peer_strain(const float *xs, const float *ys, const float *zs, const float *x,
                             const float *y, const float *z, size_t links, const uint32_t *i0,
                             const uint32_t *i1)
{
    double s = 0;
    for (size_t k = 0; k < links; ++k) {
        const uint32_t a = i0[k], b = i1[k];
        const double r = sqrt(((double)xs[b] - xs[a]) * ((double)xs[b] - xs[a]) +
                              ((double)ys[b] - ys[a]) * ((double)ys[b] - ys[a]) +
                              ((double)zs[b] - zs[a]) * ((double)zs[b] - zs[a]));
        const double d = sqrt(((double)x[b] - x[a]) * ((double)x[b] - x[a]) +
                              ((double)y[b] - y[a]) * ((double)y[b] - y[a]) +
                              ((double)z[b] - z[a]) * ((double)z[b] - z[a]));
        s += fabs(d - r) / r;
    }
    return links ? s / (double)links : 0;
}

/* One xpbd run: mean height and strain after the frames, and the wall
 * time of the steps alone (as the peer's: not the building of the cloth). */
static int xb_peer_xpbd_one(int side, int shear, const xb_cloth_mode *mode, int frames,
                            double *mean_y, double *strain, double *seconds)
{
    xs_world_f32 w;
    if (xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, shear, 1) != XPBD_OK)
        return -1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = mode->substeps;
    cfg.iterations = mode->iterations;
    cfg.gravity[0] = 0;
    cfg.gravity[1] = -9.81;
    cfg.gravity[2] = 0;
    cfg.measure_residual = 0;
    int ok = 1;
    const double t0 = xb_now();
    for (int f = 0; f < frames && ok; ++f) {
        xpbd_step_counters k;
        ok = xpbd_step_f32(&cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes, &k) ==
             XPBD_OK;
    }
    *seconds = xb_now() - t0;
    *mean_y = xb_mean(w.p.y, w.p.count);
    *strain = 0;
    for (uint32_t slot = 0; slot < w.set.slots; ++slot) {
        if (w.set.source[slot] == XPBD_PAD)
            continue;
        const uint32_t a = w.set.i0[slot], b = w.set.i1[slot];
        const double dx = (double)w.p.x[b] - w.p.x[a], dy = (double)w.p.y[b] - w.p.y[a],
                     dz = (double)w.p.z[b] - w.p.z[a];
        *strain += fabs(sqrt(dx * dx + dy * dy + dz * dz) - w.set.rest[slot]) / w.set.rest[slot];
    }
    *strain = w.set.count ? *strain / (double)w.set.count : 0;
    xs_world_free_f32(&w);
    return ok ? 0 : -1;
}

/* xpbd's run of the same cloth, best ISA, one thread: mean height and
 * strain after the frames, and the best wall time of up to 5 runs while
 * they are short (as the peer's). */
static int xb_peer_xpbd_run(int side, int shear, const xb_cloth_mode *mode, int frames,
                            int quick, xb_peer_row *row)
{
    double best = INFINITY, total = 0;
    int rc = 0;
    for (int rep = 0; rc == 0 && rep < 5 && total <= (quick ? 0.02 : 0.5); ++rep) {
        double mean_y = 0, strain = 0, t = 0;
        rc = xb_peer_xpbd_one(side, shear, mode, frames, &mean_y, &strain, &t);
        total += t;
        best = t < best ? t : best;
        row->mean_y_xpbd = mean_y;
        row->strain_xpbd = strain;
    }
    row->seconds_xpbd = best;
    return rc;
}

/* One peer row: the best of a few runs while they are short. */
static int xb_peer_one(int side, int shear, const xb_cloth_mode *mode, int frames, int quick,
                       xb_peer_row *row)
{
    xs_world_f32 w;
    if (xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, shear, 1) != XPBD_OK)
        return -1;
    uint32_t *i0 = NULL, *i1 = NULL;
    int rc = xb_peer_links(&w.set, &i0, &i1);
    const double h = 1.0 / 60.0 / mode->substeps;
    const double alpha_tilde = 1e-5 / (h * h);
    xb_peer_cloth c;
    c.particles = w.p.count;
    c.x = w.p.x;
    c.y = w.p.y;
    c.z = w.p.z;
    c.w = w.p.w;
    c.links = w.set.count;
    c.i0 = i0;
    c.i1 = i1;
    c.stiffness = (float)(2.0 / (2.0 + alpha_tilde));
    c.gravity_y = -9.81f;
    c.substeps = (int)mode->substeps;
    c.iterations = (int)mode->iterations;
    c.frames = frames;
    double best = INFINITY, total = 0, mean_y = 0;
    uint64_t solves = 0;
    for (int rep = 0; rc == 0 && rep < 5; ++rep) {
        xb_peer_result r = {0, 0, NULL, NULL, NULL};
        rc = xb_peer_bullet_cloth(&c, &r);
        if (rc == 0) {
            if (rep == 0) {
                mean_y = r.y ? xb_mean(r.y, c.particles) : 0;
                row->strain_peer = r.x && r.y && r.z
                                       ? xb_peer_strain(c.x, c.y, c.z, r.x, r.y, r.z, c.links,
                                                        i0, i1)
                                       : NAN;
            }
            solves = r.link_solves;
            total += r.seconds;
            if (r.seconds < best)
                best = r.seconds;
        }
        free(r.x);
        free(r.y);
        free(r.z);
        if (total > (quick ? 0.02 : 0.5))
            break;
    }
    row->edges = w.set.count;
    row->stiffness = c.stiffness;
    row->seconds = best;
    row->edge_solves_per_s = rc == 0 ? (double)solves / best : 0;
    row->mean_y_peer = mean_y;
    row->link_solves = solves;
    free(i0);
    free(i1);
    xs_world_free_f32(&w);
    if (rc == 0)
        rc = xb_peer_xpbd_run(side, shear, mode, frames, quick, row);
    return rc;
}
#endif

int xb_peer_cloth_row(int side, int shear, int mode, int frames, int quick, xb_peer_row *row)
{
    if (mode < 0 || mode >= XB_CLOTH_MODES || side < 2 || frames < 1)
        return -1;
    memset(row, 0, sizeof *row);
    row->variant = shear ? "shear" : "structural";
    row->n = side;
    row->mode = xb_cloth_modes[mode].name;
    row->frames = frames;
#ifdef XPBD_BENCH_BULLET
    return xb_peer_one(side, shear != 0, &xb_cloth_modes[mode], frames, quick, row);
#else
    (void)quick;
    return -1;
#endif
}

size_t xb_peer_cloth_rows(const xb_options *opt, xb_peer_row **rows)
{
    *rows = NULL;
#ifdef XPBD_BENCH_BULLET
    static const char *const variants[2] = {"structural", "shear"};
    static const int full_sides[] = {32, 64, 128, 256}, quick_sides[] = {32, 64};
    const int *sides = opt->quick ? quick_sides : full_sides;
    const int nsides = opt->quick ? 2 : 4;
    const int frames = opt->quick ? 60 : 300;
    xb_peer_row *r = calloc(2 * (size_t)nsides * XB_CLOTH_MODES, sizeof *r);
    if (!r)
        return 0;
    size_t n = 0;
    for (int v = 0; v < 2; ++v)
        for (int s = 0; s < nsides; ++s)
            for (int m = 0; m < XB_CLOTH_MODES; ++m) {
                xb_peer_row *row = &r[n];
                if (opt->progress)
                    fprintf(stderr, "\rxpbd-bench: peer bullet %-10s %3dx%-3d %-6s          ",
                            variants[v], sides[s], sides[s], xb_cloth_modes[m].name);
                if (xb_peer_cloth_row(sides[s], v, m, frames, opt->quick, row) != 0) {
                    free(r);
                    return 0;
                }
                ++n;
            }
    if (opt->progress)
        fprintf(stderr, "\r%70s\r", "");
    *rows = r;
    return n;
#else
    (void)opt;
    return 0;
#endif
}
