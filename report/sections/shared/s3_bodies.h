/* SPDX-License-Identifier: MIT */
/* Soft bodies (S3): what the s3_* sections and filmstrips share (the
 * engine of xpbd/engine.h, scenes from xpbd/mesh.h and scenes.h, double
 * precision, the ISA of --isa): the tet cube and its iteration tiers, the
 * view the shapes are drawn in, the draped curtain (shared/s3_bodies.c). */
#ifndef XPBD_REPORT_S3_BODIES_H
#define XPBD_REPORT_S3_BODIES_H

#include "report.h"

#include <stdint.h>

#define S3_H (1.0 / 60)

/* The S3 scenes come from scenes.h (xs_mesh, xs_cube, xs_box_body), the
 * same builders the S3 tests assert on; these are the report's views. */
double s3_min_y(const xpbd_particles_f64 *p);

/* The S3 tet cube (xs_cube_desc) on the ISA of --isa. */
xs_cube_desc s3_cube_default(const xr_ctx *ctx);

/* Orthographic view of the shapes: azimuth 35 degrees about y, elevation
 * 20 degrees; X right, Y up on the page. */
void s3_project(double x, double y, double z, double *X, double *Y);

/* The residuals of the tier rule (fw/tiers.c) on engine e, settled:
 * two engines in the same state (made and run alike), one substep of h/ns
 * solved with 1 iteration on a and with 4 on b; r1, r4 their max
 * |C + alpha~ lambda|. Returns 1, or 0 if a step failed. */
int s3_tier_residuals(xpbd_engine_f64 *a, xpbd_engine_f64 *b, uint32_t ns, double *r1,
                      double *r4);

/* The hanging cube of edge compliance alpha_e for the tier rule, `frames`
 * frames of ns substeps: sag at 4 and 10 iterations with lambda kept (x)
 * and reset every iteration (reset), the residuals r1, r4 from the settled
 * 10-iteration state, and drift = the 10-iteration sag's change over the
 * last second, relative. Returns 1, or 0 on failure. */
int s3_cube_tiers(const xr_ctx *ctx, double alpha_e, uint32_t ns, int frames, double x[2],
                  double reset[2], double *r1, double *r4, double *drift);

/* A curtain of nx x nx particles (1.2 m, 0.5 kg), its first row pinned
 * along x at height 0.9 m just behind the top of a sphere of radius 0.35 m
 * (centre (0, 0.45, 0)); stretch and shear edges of compliance 1e-7 m/N,
 * isometric bending 1e-3; tethers (optional) from every particle to the
 * pin of its column, at the rest distance. Falls, drapes over the sphere
 * (a kinematic rigid body through xpbd_engine_couple_rigid_f64). */
typedef struct s3_drape {
    xs_mesh m;
    xpbd_engine_f64 *e;
    xpbd_rigid_f64 sphere;
    uint32_t nx;
} s3_drape;

int s3_drape_make(s3_drape *d, const xr_ctx *ctx, uint32_t nx, uint32_t iterations,
                  int tethers);

void s3_drape_free(s3_drape *d);

int s3_drape_run(s3_drape *d, int frames);

/* What every S3 section's descriptor shares: its name, the scenario, its one
 * figure (named as the section) and its run function (NAME_run, defined
 * in the section's file under that full name). */
#define S3_SECTION(NAME) .name = #NAME, .scenario = "S3: soft bodies", .figures = XR_FIGURES(#NAME), .run = NAME##_run

#endif
