/* SPDX-License-Identifier: MIT */
/* Soft bodies (S3): the views, scenes and tier runs the S3 sections share
 * (shared/s3_bodies.h). */
#include "shared/s3_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double s3_min_y(const xpbd_particles_f64 *p)
{
    return xs_min_y(p, 0, p->count);
}

xs_cube_desc s3_cube_default(const xr_ctx *ctx)
{
    xs_cube_desc d = xs_cube_default();
    d.cfg.isa = xr_isa(ctx);
    return d;
}

void s3_project(double x, double y, double z, double *X, double *Y)
{
    const double deg = 3.14159265358979323846 / 180;
    const double ca = cos(35 * deg), sa = sin(35 * deg), ce = cos(20 * deg), se = sin(20 * deg);
    *X = x * ca - z * sa;
    *Y = y * ce - (x * sa + z * ca) * se;
}

int s3_tier_residuals(xpbd_engine_f64 *a, xpbd_engine_f64 *b, uint32_t ns, double *r1,
                      double *r4)
{
    xpbd_engine_f64 *e[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        xpbd_step_config cfg = *xpbd_engine_config_f64(e[k]);
        cfg.substeps = 1;
        cfg.iterations = k ? 4 : 1;
        cfg.measure_residual = 1;
        if (xpbd_engine_set_config_f64(e[k], &cfg) != XPBD_OK ||
            xpbd_engine_step_f64(e[k], S3_H / ns) < 0)
            return 0;
        *(k ? r4 : r1) = xpbd_engine_counters_f64(e[k])->max_residual;
    }
    return 1;
}

int s3_cube_tiers(const xr_ctx *ctx, double alpha_e, uint32_t ns, int frames, double x[2],
                  double reset[2], double *r1, double *r4, double *drift)
{
    xs_cube_desc d = s3_cube_default(ctx);
    d.alpha_e = alpha_e;
    d.pin_top = 1;
    d.cfg.damping = 0.01;
    d.cfg.substeps = ns;
    int ok = 1;
    for (int mode = 0; mode < 2 && ok; ++mode)
        for (int k = 0; k < 2 && ok; ++k) {
            xs_cube c;
            d.cfg.iterations = k ? 10 : 4;
            d.cfg.lambda_reset = mode ? XPBD_LAMBDA_PER_ITERATION : XPBD_LAMBDA_PER_SUBSTEP;
            ok = xs_cube_make(&c, &d) && xs_run(c.e, frames - 60);
            const double before = ok ? -s3_min_y(xpbd_engine_particles_f64(c.e)) : NAN;
            ok = ok && xs_run(c.e, 60);
            const double sag = ok ? -s3_min_y(xpbd_engine_particles_f64(c.e)) : NAN;
            (mode ? reset : x)[k] = sag;
            if (!mode && k)
                *drift = fabs(sag - before) / sag;
            xs_cube_free(&c);
        }
    d.cfg.iterations = 10;
    d.cfg.lambda_reset = XPBD_LAMBDA_PER_SUBSTEP;
    xs_cube a, b;
    const int made = xs_cube_make(&a, &d) && xs_cube_make(&b, &d);
    ok = ok && made && xs_run(a.e, frames) && xs_run(b.e, frames) &&
         s3_tier_residuals(a.e, b.e, ns, r1, r4);
    xs_cube_free(&a);
    xs_cube_free(&b);
    return ok;
}

int s3_drape_make(s3_drape *d, const xr_ctx *ctx, uint32_t nx, uint32_t iterations,
                  int tethers)
{
    memset(d, 0, sizeof *d);
    d->nx = nx;
    const double spacing = 1.2 / (nx - 1);
    if (!xs_mesh_cloth(&d->m, nx, nx, spacing, (const double[3]){-0.6, 0.9, -0.25}, NULL, NULL))
        return 0;
    const size_t n = d->m.k.particles;
    double *w = malloc(n * sizeof *w), *r = malloc(n * sizeof *r), *len = malloc(n * sizeof *len);
    uint32_t *anchor = malloc(n * sizeof *anchor);
    uint32_t *edges = xs_mesh_all_edges(&d->m);
    int ok = w && r && len && anchor && edges;
    for (size_t i = 0; ok && i < n; ++i) {
        const size_t col = i % nx;
        w[i] = i < nx ? 0 : (double)n / 0.5;
        r[i] = 0.01;
        anchor[i] = i < nx ? (uint32_t)i : (uint32_t)col;
        len[i] = i < nx ? 0 : spacing * (double)(i / nx);
    }
    xpbd_scene_f64 s = xs_cloth_scene(&d->m, w, edges, 1e-7, 1e-3);
    s.radius = r;
    s.tether_anchor = tethers ? anchor : NULL;
    s.tether_length = tethers ? len : NULL;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = iterations;
    cfg.damping = 0.005;
    cfg.isa = xr_isa(ctx);
    ok = ok && xpbd_engine_create_f64(&d->e, &s, &cfg, NULL, NULL) == XPBD_OK;
    free(w);
    free(r);
    free(len);
    free(anchor);
    free(edges);
    d->sphere.shape = XPBD_RIGID_SPHERE;
    d->sphere.centre[1] = 0.45;
    d->sphere.half[0] = 0.35;
    d->sphere.rot[0] = d->sphere.rot[4] = d->sphere.rot[8] = 1;
    return ok;
}

void s3_drape_free(s3_drape *d)
{
    xpbd_engine_destroy_f64(d->e);
    xs_mesh_free(&d->m);
}

int s3_drape_run(s3_drape *d, int frames)
{
    for (int fr = 0; fr < frames; ++fr) {
        xpbd_rigid_impulse j;
        if (!xs_run(d->e, 1) ||
            xpbd_engine_couple_rigid_f64(d->e, &d->sphere, S3_H, &j) != XPBD_OK)
            return 0;
    }
    return 1;
}

