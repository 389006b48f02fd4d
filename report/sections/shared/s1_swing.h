/* SPDX-License-Identifier: MIT */
/* The swinging scenes of s1_order and s1_energy: the S1 chain (N = 6,
 * L0 = 0.1 m, 1 kg particles) laid out horizontally from its anchor along
 * +x, and the S1 cloth (8 x 6, spacing 0.1 m, 1 kg particles) laid flat in
 * the horizontal x-z plane hanging from two corners, both released from
 * rest at rest length under gravity (-y): they swing down. XPBD with
 * compliance alpha, one Gauss-Seidel iteration per substep (the small-steps
 * setting), no damping, through the library's step driver. */
#ifndef XPBD_REPORT_S1_SWING_H
#define XPBD_REPORT_S1_SWING_H

#include "report.h"

#include <stdint.h>

#define SW_N 6
#define SW_NX 8
#define SW_NY 6
#define SW_L0 0.1
#define SW_H (1.0 / 60.0)

/* Builds the scene (cloth 0: the chain) at rest. Returns 0 or -1. */
int sw_world(xs_world_f64 *w, int cloth, double alpha);

/* Total energy (J): kinetic + gravitational (y = 0 at the anchor) +
 * elastic sum C^2 / (2 alpha) over the constraints (alpha > 0; alpha = 0
 * adds nothing: an inextensible link stores none). */
double sw_energy(const xs_world_f64 *w, double alpha);

/* Steps w `frames` frames of 1/60 s at `substeps` substeps, one iteration
 * each; energy (may be NULL) receives sw_energy before the first frame and
 * after every frame (frames + 1 values). Returns 0, or -1 on a library
 * error. */
int sw_run(const xr_ctx *ctx, xs_world_f64 *w, uint32_t substeps, int frames, double alpha,
           double *energy);

#endif
