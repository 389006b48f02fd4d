/* SPDX-License-Identifier: MIT */
/* Section filmstrips (S3, soft bodies): snapshots over time of the 3-D
 * scenes (drape, drop, tear, sleep), and an animated GIF each. */
#include "report.h"
#include "shared/s3_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Snapshots of the 3-D scenes over time, every frame as one data block of
 * projected segments (x0 y0 x1 y1 c; c: colour value) preceded by its own
 * header line (gnuplot reads each block's first line as its column names):
 * plots/filmstrips.gp draws five of them per scene in a row and, for the
 * PNG, writes an animated GIF per scene from all of them. */
#define FS_SHOTS_FULL 16 /* blocks per scene (5 under --quick: the strip's own) */
#define FS_SHOTS (xr_quick(ctx) ? 5 : FS_SHOTS_FULL)

/* A scene's table and the extent of everything written to it (the
 * figure's frame for that scene, the same in every shot). */
typedef struct fs_out {
    FILE *f;
    double xl, xh, yl, yh;
} fs_out;

static void fs_block_begin(fs_out *o, int first)
{
    if (!first) /* the first block's header is the table's own */
        fprintf(o->f, "\n\nx0\ty0\tx1\ty1\tc\n");
}

static void fs_seg(fs_out *o, double X0, double Y0, double X1, double Y1, double c)
{
    fprintf(o->f, "%.5g\t%.5g\t%.5g\t%.5g\t%.4g\n", X0, Y0, X1, Y1, c);
    o->xl = fmin(o->xl, fmin(X0, X1));
    o->xh = fmax(o->xh, fmax(X0, X1));
    o->yl = fmin(o->yl, fmin(Y0, Y1));
    o->yh = fmax(o->yh, fmax(Y0, Y1));
}

/* Surface edges of mesh m (closed, oriented: each edge once) of the
 * particles offset by `base`, projected, coloured c. */
static void fs_surface(fs_out *f, const xs_mesh *m, const xpbd_particles_f64 *p, size_t base,
                       double c)
{
    for (size_t t = 0; t < m->k.triangles; ++t)
        for (int k = 0; k < 3; ++k) {
            const size_t a = m->tris[3 * t + (size_t)k], b = m->tris[3 * t + (size_t)(k + 1) % 3];
            if (a > b)
                continue;
            double X0, Y0, X1, Y1;
            s3_project(p->x[base + a], p->y[base + a], p->z[base + a], &X0, &Y0);
            s3_project(p->x[base + b], p->y[base + b], p->z[base + b], &X1, &Y1);
            fs_seg(f, X0, Y0, X1, Y1, c);
        }
}

/* The draped curtain: rows and columns of the grid, coloured by strain. */
static int fs_cloth(xr_ctx *ctx, fs_out *f, int every)
{
    s3_drape d;
    int ok = s3_drape_make(&d, ctx, 24, 10, 1);
    const double rest = 1.2 / 23;
    for (int k = 0; k < FS_SHOTS && ok; ++k) {
        fs_block_begin(f, k == 0);
        const xpbd_particles_f64 *p = xpbd_engine_particles_f64(d.e);
        for (size_t j = 0; j < d.nx; ++j)
            for (size_t i = 0; i < d.nx; ++i) {
                const size_t a = j * d.nx + i;
                const size_t nb[2] = {i + 1 < d.nx ? a + 1 : a, j + 1 < d.nx ? a + d.nx : a};
                for (int q = 0; q < 2; ++q) {
                    if (nb[q] == a)
                        continue;
                    const size_t b = nb[q];
                    double X0, Y0, X1, Y1;
                    s3_project(p->x[a], p->y[a], p->z[a], &X0, &Y0);
                    s3_project(p->x[b], p->y[b], p->z[b], &X1, &Y1);
                    const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a],
                                 dz = p->z[b] - p->z[a];
                    fs_seg(f, X0, Y0, X1, Y1, sqrt(dx * dx + dy * dy + dz * dz) / rest - 1);
                }
            }
        ok = s3_drape_run(&d, every);
    }
    s3_drape_free(&d);
    return ok;
}

/* The tet cube dropped from 0.5 m onto the ground (s3_tet_cube's scene). */
static int fs_cube(xr_ctx *ctx, fs_out *f, int every)
{
    xs_cube_desc d = s3_cube_default(ctx);
    d.origin[0] = -0.15;
    d.origin[1] = 0.5;
    d.origin[2] = -0.15;
    d.ground = 1;
    xs_cube c;
    int ok = xs_cube_make(&c, &d);
    for (int k = 0; k < FS_SHOTS && ok; ++k) {
        fs_block_begin(f, k == 0);
        fs_surface(f, &c.m, xpbd_engine_particles_f64(c.e), 0, 0);
        ok = xs_run(c.e, every);
    }
    xs_cube_free(&c);
    return ok;
}

/* The curtain torn into pieces (s3_tearing's scene, vertex splits). */
static int fs_curtain(const xr_ctx *ctx, fs_out *f, int every, size_t *pieces)
{
    xs_curtain c;
    memset(&c, 0, sizeof c);
    int ok = xs_curtain_make(&c, 0);
    for (int k = 0; k < FS_SHOTS && ok; ++k) {
        fs_block_begin(f, k == 0);
        const xpbd_particles_f64 *p = xpbd_engine_particles_f64(c.e);
        xpbd_scene_f64 v;
        xpbd_engine_scene_f64(c.e, &v);
        for (size_t q = 0; q < v.edges; ++q) {
            const uint32_t a = v.edge[2 * q], b = v.edge[2 * q + 1];
            const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
            fs_seg(f, p->x[a], p->y[a], p->x[b], p->y[b],
                   sqrt(dx * dx + dy * dy + dz * dz) / v.edge_rest[q] - 1);
        }
        *pieces = xs_components(c.e);
        for (int s = 0; s < every && ok && k + 1 < FS_SHOTS; ++s)
            ok = xs_curtain_frame(&c) >= 0;
    }
    xs_curtain_free(&c);
    return ok;
}

/* Ten soft cubes dropped in a 3 x 3 grid and one on top, coming to rest and
 * falling asleep body by body (c = 1 asleep). */
static int fs_pile(xr_ctx *ctx, fs_out *f, int every, uint32_t *asleep)
{
    double off[30], w[10];
    for (uint32_t b = 0; b < 10; ++b) {
        off[3 * b] = b < 9 ? 0.4 * (b % 3) : 0.4;
        off[3 * b + 1] = b < 9 ? 0.1 + 0.05 * (b % 4) : 0.6;
        off[3 * b + 2] = b < 9 ? 0.4 * (b / 3) : 0.4;
        w[b] = 10;
    }
    xs_mesh m;
    if (!xs_mesh_box(&m, 2, 0.1, (const double[3]){0, 0, 0}, 6))
        return 0;
    xs_pile_f64 pile;
    xpbd_engine_f64 *e = NULL;
    int ok = xs_pile_make_f64(&pile, &m, 10, off, w, 0.03, 1e-4, 0);
    if (ok) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xr_isa(ctx);
        cfg.iterations = 8;
        cfg.friction_static = 0.6;
        cfg.friction_dynamic = 0.5;
        const xpbd_engine_options opt = {.sleep_energy = 1e-4, .sleep_steps = 20};
        ok = xpbd_engine_create_f64(&e, &pile.s, &cfg, &opt, NULL) == XPBD_OK;
    }
    for (int k = 0; k < FS_SHOTS && ok; ++k) {
        fs_block_begin(f, k == 0);
        *asleep = 0;
        for (uint32_t b = 0; b < 10; ++b) {
            fs_surface(f, &m, xpbd_engine_particles_f64(e), pile.begin[b], xpbd_engine_world_f64(e)->body_asleep[b]);
            *asleep += xpbd_engine_world_f64(e)->body_asleep[b] != 0;
        }
        for (int s = 0; s < every && ok && k + 1 < FS_SHOTS; ++s)
            ok = xpbd_engine_step_f64(e, S3_H) >= 0;
    }
    xpbd_engine_destroy_f64(e);
    xs_pile_free_f64(&pile);
    xs_mesh_free(&m);
    return ok;
}

static int filmstrips_run(xr_ctx *ctx)
{
    /* frames between shots: the cloth drapes in 4 s, the cube lands and
     * settles in 2 s, the curtain parts in 1 s, the pile sleeps in 4 s */
    static const char *const name[4] = {"filmstrips_cloth", "filmstrips_cube",
                                        "filmstrips_curtain", "filmstrips_pile"};
    /* --quick: 5 shots 3.75 times as far apart (the same span) */
    static const int every_full[4] = {16, 8, 4, 16}, every_quick[4] = {60, 30, 15, 60};
    const int *every = xr_quick(ctx) ? every_quick : every_full;
    int ok = 1;
    size_t pieces = 0;
    uint32_t asleep = 0;
    fs_out o[4];
    for (int s = 0; s < 4 && ok; ++s) {
        o[s] = (fs_out){.f = xr_table_open(ctx, name[s], "x0\ty0\tx1\ty1\tc"),
                        .xl = INFINITY, .xh = -INFINITY, .yl = INFINITY, .yh = -INFINITY};
        if (!o[s].f)
            return -1;
        ok = s == 0   ? fs_cloth(ctx, &o[s], every[s])
             : s == 1 ? fs_cube(ctx, &o[s], every[s])
             : s == 2 ? fs_curtain(ctx, &o[s], every[s], &pieces)
                      : fs_pile(ctx, &o[s], every[s], &asleep);
        xr_table_close(o[s].f);
    }
    /* the figure's own table: per scene its shots, the frames between
     * them and its extent (so the script need not read every shot twice) */
    FILE *f = ok ? xr_table_open(ctx, "filmstrips", "scene\tshots\tevery\txmin\txmax\tymin\tymax")
                 : NULL;
    for (int s = 0; s < 4 && f; ++s)
        fprintf(f, "%d\t%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g\n", s + 1, FS_SHOTS, every[s], o[s].xl,
                o[s].xh, o[s].yl, o[s].yh);
    if (f)
        xr_table_close(f);
    else
        ok = 0;
    if (!ok) {
        xr_md(ctx, "A filmstrip scene could not be built or stepped.\n\n");
        return -1;
    }
    xr_md(ctx,
          "Snapshots of the 3-D scenes over time, %d per scene (every %d, %d, %d and %d frames of "
          "1/60 s), orthographic view (azimuth 35, elevation 20 degrees; the curtain face on). "
          "The figure shows five of them per scene; `fig/filmstrip_cloth.gif`, "
          "`fig/filmstrip_cube.gif`, `fig/filmstrip_curtain.gif` and `fig/filmstrip_pile.gif` "
          "animate all of them (gnuplot's GIF terminal). Cloth and curtain edges are coloured "
          "by strain, the pile's cubes by sleep state.\n\n"
          "![cloth](fig/filmstrip_cloth.gif) ![cube](fig/filmstrip_cube.gif) "
          "![curtain](fig/filmstrip_curtain.gif) ![pile](fig/filmstrip_pile.gif)\n\n",
          FS_SHOTS, every[0], every[1], every[2], every[3]);
    xr_tolerance_source(ctx, "original measurement: tearing ends in pieces of material; a "
                             "resting body sleeps whole (counts, exact)");
    /* 3: two pieces and a two-particle sliver in the default layout's
     * Gauss-Seidel order (s3_tearing) */
    xr_check(ctx, "curtain: pieces in the last shot", (double)pieces, 3, xr_exact(), NULL);
    xr_check(ctx, "pile: bodies asleep in the last shot (all dropped at once)", asleep, 10,
             xr_exact(), NULL);
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Filmstrips (soft bodies, S3), time left to right: the 24x24 curtain with tethers "
             "draping over the sphere (0 to %.1f s); the tet cube dropped from 0.5 m, squashing "
             "and recovering (0 to %.1f s); the 12x8 curtain pulled apart into pieces by "
             "vertex splits (0 to %.1f s); ten soft cubes settling and falling asleep (red: "
             "asleep; 0 to %.1f s). Animated GIFs of all %d snapshots in fig/.",
             (FS_SHOTS - 1) * every[0] * S3_H, (FS_SHOTS - 1) * every[1] * S3_H,
             (FS_SHOTS - 1) * every[2] * S3_H, (FS_SHOTS - 1) * every[3] * S3_H, FS_SHOTS);
    xr_figure(ctx, "filmstrips", cap);
    return 0;
}

const xr_section xr_section_filmstrips = {
    S3_SECTION(filmstrips),
    .title = "Snapshots over time of the 3-D scenes: drape, drop, tear, sleep; an animated GIF each",
    .tables = XR_TABLES({"filmstrips", "per scene: shots, frames between them, extent"},
                        {"filmstrips_cloth", "projected edges per snapshot, one block each"},
                        {"filmstrips_cube", "projected surface edges per snapshot"},
                        {"filmstrips_curtain", "curtain edges per snapshot, by strain"},
                        {"filmstrips_pile", "projected surface edges per snapshot, by sleep"})};
