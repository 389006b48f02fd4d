/* SPDX-License-Identifier: MIT */
/* The S1 chain run through the step driver, and the steady state of its
 * discrete map (shared/s1_chain.h). */
#include "shared/s1_chain.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The S1 chain with its links rebuilt serially (top-down Gauss-Seidel). */
static xpbd_status s1_chain(xs_world_f64 *w, double alpha, int coloured)
{
    xpbd_status st = xs_chain_f64(w, S1_N, S1_L0, alpha);
    if (st != XPBD_OK || coloured)
        return st;
    uint32_t i0[S1_N], i1[S1_N];
    double rest[S1_N], comp[S1_N];
    for (int k = 0; k < S1_N - 1; ++k) {
        i0[k] = (uint32_t)k;
        i1[k] = (uint32_t)k + 1;
        rest[k] = S1_L0;
        comp[k] = alpha;
    }
    xpbd_distance_set_free_f64(&w->set);
    xpbd_colouring_options opt = {0};
    opt.serial = 1;
    st = xpbd_distance_set_build_f64(&w->set, S1_N, S1_N - 1, i0, i1, rest, comp, &opt, NULL);
    if (st != XPBD_OK) {
        xs_world_free_f64(w);
        return st;
    }
    free(w->scratch);
    w->scratch_bytes = xpbd_step_scratch_bytes_f64(S1_N, w->set.slots);
    w->scratch = malloc(w->scratch_bytes);
    if (!w->scratch) {
        xs_world_free_f64(w);
        return XPBD_ERR_NOMEM;
    }
    return XPBD_OK;
}

/* Runs the chain from rest at rest length. series (may be NULL) receives
 * the stretch after every frame. Returns 0, or -1 on a library error. */
int s1_simulate(const xr_ctx *ctx, const s1_cfg *c, s1_out *o, double *series)
{
    xs_world_f64 w;
    if (s1_chain(&w, c->alpha, c->coloured) != XPBD_OK)
        return -1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = c->solver;
    cfg.pbd_stiffness = c->solver == XPBD_SOLVER_PBD ? c->ks : 1.0;
    cfg.substeps = (uint32_t)c->substeps;
    cfg.iterations = (uint32_t)c->iterations;
    cfg.damping = c->damp_frame > 0 ? 1.0 - pow(1.0 - c->damp_frame, 1.0 / c->substeps) : 0.0;
    cfg.isa = xr_isa(ctx);
    cfg.measure_residual = 0;
    memset(o, 0, sizeof *o);
    double sum = 0;
    int count = 0, rc = 0;
    for (int f = 0; f < c->frames; ++f) {
        if (xpbd_step_f64(&cfg, S1_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) != XPBD_OK) {
            rc = -1;
            break;
        }
        const double s = xs_chain_stretch_f64(&w, S1_L0);
        if (series)
            series[f] = s;
        if (f >= c->avg_from) {
            sum += s;
            ++count;
        }
        if (s > o->max)
            o->max = s;
        if (f == c->frames - 61)
            o->prev_second = s;
        o->final = s;
    }
    o->avg = count ? sum / count : o->final;
    for (int i = 0; i < S1_N; ++i) {
        const double v =
            sqrt(w.p.vx[i] * w.p.vx[i] + w.p.vy[i] * w.p.vy[i] + w.p.vz[i] * w.p.vz[i]);
        if (v > o->max_speed)
            o->max_speed = v;
    }
    xs_world_free_f64(&w);
    return rc;
}

/* --------------------------------------- steady state of the discrete map --- */

/* One substep of the vertical chain from rest (v = 0), in displacements u
 * from the rest configuration (u[0] = anchor = 0, positive up), evaluated
 * from the formulas of the hanging chain (S1): predict u -= g h_s^2 on free particles; then
 * `iterations` top-down passes; link s joins particles s and s+1, its
 * constraint C = u_s - u_{s+1} (stretch), the upper end has w = 0 for s = 0.
 * PBD: dl = -k_s C/(w_s + w_{s+1}); XPBD: dl = (-C - at lambda)/(w_s +
 * w_{s+1} + at) with lambda_s reset at substep start. The lower end moves
 * up by w dl... written with the signs of the 3-D kernel for a link
 * pointing down: u_s += w_s dl, u_{s+1} -= w_{s+1} dl. */
static void s1_map(int n, int pbd, double ks, double alpha, double hs, int iterations, int gravity,
                   double *u)
{
    double lambda[64] = {0};
    const double at = alpha / (hs * hs);
    if (gravity)
        for (int i = 1; i < n; ++i)
            u[i] -= XS_G * hs * hs;
    for (int it = 0; it < iterations; ++it)
        for (int s = 0; s + 1 < n; ++s) {
            const double wi = s == 0 ? 0.0 : 1.0, wj = 1.0;
            const double C = u[s] - u[s + 1];
            double dl;
            if (pbd) {
                dl = -(ks * C) / (wi + wj);
            } else {
                dl = (-C - at * lambda[s]) / (wi + wj + at);
                lambda[s] += dl;
            }
            u[s] += wi * dl;
            u[s + 1] -= wj * dl;
        }
}

/* Total stretch at the fixed point of the substep map, by solving
 * (I - A) u = b for the n - 1 free displacements (A, b read off the affine
 * map: b = map(0), A e_j = map(e_j) without gravity). Gaussian elimination
 * with partial pivoting. NaN if singular. */
double s1_fixed_point(int n, int pbd, double ks, double alpha, int substeps, int iterations)
{
    enum { M = 63 };
    const int m = n - 1;
    if (m < 1 || m > M)
        return NAN;
    const double hs = S1_H / substeps;
    double A[M][M + 1], u[64];
    for (int j = 0; j < m; ++j) {
        memset(u, 0, sizeof u);
        u[j + 1] = 1.0;
        s1_map(n, pbd, ks, alpha, hs, iterations, 0, u);
        for (int i = 0; i < m; ++i)
            A[i][j] = (i == j ? 1.0 : 0.0) - u[i + 1];
    }
    memset(u, 0, sizeof u);
    s1_map(n, pbd, ks, alpha, hs, iterations, 1, u);
    for (int i = 0; i < m; ++i)
        A[i][m] = u[i + 1];
    for (int c = 0; c < m; ++c) {
        int p = c;
        for (int r = c + 1; r < m; ++r)
            if (fabs(A[r][c]) > fabs(A[p][c]))
                p = r;
        if (A[p][c] == 0)
            return NAN;
        if (p != c)
            for (int k = 0; k <= m; ++k) {
                const double t = A[c][k];
                A[c][k] = A[p][k];
                A[p][k] = t;
            }
        for (int r = c + 1; r < m; ++r) {
            const double f = A[r][c] / A[c][c];
            for (int k = c; k <= m; ++k)
                A[r][k] -= f * A[c][k];
        }
    }
    double x[M + 1];
    x[0] = 0;
    for (int i = m - 1; i >= 0; --i) {
        double s = A[i][m];
        for (int k = i + 1; k < m; ++k)
            s -= A[i][k] * x[k + 1];
        x[i + 1] = s / A[i][i];
    }
    /* total stretch = sum of (u_s - u_{s+1}) = u_0 - u_{n-1} */
    return x[0] - x[m];
}

