/* SPDX-License-Identifier: MIT */
/* The S1 chain of s1_pbd_stiffness, s1_substeps and s1_xpbd_invariance
 * (N = 6, L0 = 0.1 m, m = 1 kg, h = 1/60 s, particle 0 anchored) under PBD
 * with stiffness k_s and under XPBD with compliance alpha, through the
 * library's step driver, and the steady state of its discrete map
 * (shared/s1_chain.c).
 *
 * Order: the constraint set is built serially (xpbd_colouring_options
 * .serial = 1), links solved top-down 0-1, 1-2, ..., one Gauss-Seidel pass
 * per iteration: the order that reproduces the original measurements (the coloured
 * red-black order leaves larger one-pass floors, reported beside).
 *
 * Expected values. Besides the closed forms of the hanging chain and cloth (S1), every table carries
 * the steady state of the discrete map: with v = 0 at substep start,
 * predict moves every free particle by -g h_s^2 and the iterations pull the
 * chain back; a configuration the substep maps onto itself is where the
 * simulation settles. For the vertical chain that map is affine in the
 * link stretches, so its fixed point is one small linear solve. It is
 * computed here by a separate 1-D implementation of the scenarios' formulas, not
 * by the library, so the settled simulation checks the library against it.
 *
 * Settling. Velocity damping d = 0.05 per frame (1 - 0.95^(1/n_s) per
 * substep) for 10 s: damping scales only v, which is 0 at the fixed point,
 * so it changes how fast the chain gets there, never where it ends. The
 * undamped time average over frames 300..600 is reported beside it. */
#ifndef XPBD_REPORT_S1_CHAIN_H
#define XPBD_REPORT_S1_CHAIN_H

#include "report.h"

#define S1_N 6
#define S1_L0 0.1
#define S1_H (1.0 / 60.0)
#define S1_MASS 1.0
#define S1_DAMP_FRAME 0.05   /* velocity fraction removed per frame while settling */
#define S1_SETTLE_FRAMES 600 /* 10 s */
#define S1_AVG_FROM 300      /* undamped average over frames [300, 600) */

typedef struct s1_cfg {
    xpbd_solver solver;
    double alpha; /* compliance (XPBD), m/N */
    double ks;    /* stiffness (PBD) */
    int substeps, iterations;
    double damp_frame; /* 0: undamped */
    int frames;
    int avg_from; /* average the stretch over frames [avg_from, frames) */
    int coloured; /* 1: the library's default colouring instead of serial */
} s1_cfg;

typedef struct s1_out {
    double final, avg, max,
        prev_second;  /* stretch (m): last frame, average, max, 1 s before the end */
    double max_speed; /* max |v| at the last frame */
} s1_out;

/* Runs the chain from rest at rest length. series (may be NULL) receives
 * the stretch after every frame. Returns 0, or -1 on a library error. */
int s1_simulate(const xr_ctx *ctx, const s1_cfg *c, s1_out *o, double *series);

/* Total stretch at the fixed point of the substep map, by solving
 * (I - A) u = b for the n - 1 free displacements (A, b read off the affine
 * map: b = map(0), A e_j = map(e_j) without gravity). Gaussian elimination
 * with partial pivoting. NaN if singular. */
double s1_fixed_point(int n, int pbd, double ks, double alpha, int substeps, int iterations);

#endif
