/* SPDX-License-Identifier: MIT */
/* The static equilibrium of a net of distance springs under gravity, by
 * Newton's method on its energy: the report's own reference for XPBD's
 * settled state (s1_newton), written here and not in the library, sharing
 * none of its code.
 *
 * The net: n particles in the x-y plane, inverse masses w (0: pinned),
 * m springs between i0[j] and i1[j] of rest length rest[j] and compliance
 * alpha[j] > 0 (stiffness 1/alpha), gravity g along -y. Its energy is
 *
 *     E(x) = sum_j C_j^2 / (2 alpha_j) + sum_i m_i g y_i,   C_j = |d_j| - rest_j,
 *
 * with d_j = x_b - x_a; a spring's force on b is -(C_j / alpha_j) n_j,
 * n_j = d_j / |d_j|, and its Hessian block
 *
 *     K_j = (n n^T + (1 - rest_j / |d_j|) (I - n n^T)) / alpha_j
 *
 * (+K on the aa and bb blocks, -K on ab and ba). The free coordinates'
 * dense Hessian H is solved by Gaussian elimination with partial pivoting;
 * steps are Levenberg-Marquardt damped, (H + mu I) dx = -grad E, mu shrunk
 * by 10 after a step that lowers E and grown by 10 after one that does
 * not, so the solve starts from an unstretched net (where H is singular:
 * a grid of structural links is a mechanism) and ends with mu -> 0 in
 * Newton's quadratic convergence. */
#ifndef XPBD_REPORT_NEWTON_H
#define XPBD_REPORT_NEWTON_H

#include <stddef.h>
#include <stdint.h>

typedef struct nw_net {
    size_t n;
    const double *w; /* [n] inverse masses, 0: pinned */
    size_t m;
    const uint32_t *i0, *i1;
    const double *rest, *alpha; /* [m] m, m/N (> 0) */
    double g;                   /* m/s^2 along -y */
} nw_net;

typedef struct nw_info {
    int iterations;   /* Levenberg-Marquardt steps taken (accepted or not) */
    double grad_inf;  /* max |dE/dx| at the end (N) */
    double last_step; /* max |dx| of the last accepted step (m) */
} nw_info;

/* Solves grad E = 0 for the free particles' x, y (in place, starting from
 * the values given) until max |grad E| <= tol (N) or max_it steps.
 * Returns 0 when converged, -1 otherwise (out of memory, not converged). */
int nw_static_2d(const nw_net *net, double *x, double *y, double tol, int max_it,
                 nw_info *info);

/* max |dE/dx| over the free coordinates at x, y (N): the largest net
 * force on a free particle. NAN when out of memory. */
double nw_grad_inf(const nw_net *net, const double *x, const double *y);

/* The vertical force the pinned particles exert on the net through its
 * springs, summed (N, + up: minus the springs' pull on the pins): at an
 * equilibrium it carries the free particles' weight. */
double nw_pin_lift(const nw_net *net, const double *x, const double *y);

#endif
