/* SPDX-License-Identifier: MIT */
/* Newton's method on a spring net's static equilibrium (shared/newton.h). */
#include "shared/newton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The energy of the net at x, y (J). */
static double nw_energy(const nw_net *c, const double *x, const double *y)
{
    double e = 0;
    for (size_t j = 0; j < c->m; ++j) {
        const double dx = x[c->i1[j]] - x[c->i0[j]], dy = y[c->i1[j]] - y[c->i0[j]];
        const double cj = sqrt(dx * dx + dy * dy) - c->rest[j];
        e += cj * cj / (2 * c->alpha[j]);
    }
    for (size_t i = 0; i < c->n; ++i)
        if (c->w[i] > 0)
            e += c->g * y[i] / c->w[i];
    return e;
}

/* Gradient (grad[2 dof[i] + 0/1]) and, when H is not NULL, the dense
 * Hessian (nd x nd, row-major) over the free coordinates; dof[i] < 0 for a
 * pinned particle. */
static void nw_derivatives(const nw_net *c, const double *x, const double *y, const long *dof,
                           size_t nd, double *grad, double *H)
{
    memset(grad, 0, nd * sizeof *grad);
    if (H)
        memset(H, 0, nd * nd * sizeof *H);
    for (size_t i = 0; i < c->n; ++i)
        if (dof[i] >= 0)
            grad[2 * dof[i] + 1] += c->g / c->w[i];
    for (size_t j = 0; j < c->m; ++j) {
        const uint32_t a = c->i0[j], b = c->i1[j];
        const double dx = x[b] - x[a], dy = y[b] - y[a];
        const double len = sqrt(dx * dx + dy * dy);
        const double nx = dx / len, ny = dy / len, k = 1 / c->alpha[j];
        const double f = (len - c->rest[j]) * k; /* tension (N) */
        const long da = dof[a], db = dof[b];
        if (db >= 0) {
            grad[2 * db] += f * nx;
            grad[2 * db + 1] += f * ny;
        }
        if (da >= 0) {
            grad[2 * da] -= f * nx;
            grad[2 * da + 1] -= f * ny;
        }
        if (!H)
            continue;
        const double s = 1 - c->rest[j] / len;
        const double K[2][2] = {{k * (nx * nx + s * (1 - nx * nx)), k * (1 - s) * nx * ny},
                                {k * (1 - s) * nx * ny, k * (ny * ny + s * (1 - ny * ny))}};
        const long ends[2] = {da, db};
        for (int p = 0; p < 2; ++p)
            for (int q = 0; q < 2; ++q) {
                if (ends[p] < 0 || ends[q] < 0)
                    continue;
                const double sign = p == q ? 1.0 : -1.0;
                for (int r = 0; r < 2; ++r)
                    for (int t = 0; t < 2; ++t)
                        H[(size_t)(2 * ends[p] + r) * nd + (size_t)(2 * ends[q] + t)] +=
                            sign * K[r][t];
            }
    }
}

/* Solves A u = b (A nd x nd, destroyed; b overwritten by u) by Gaussian
 * elimination with partial pivoting. Returns 0, or -1 if singular. */
static int nw_solve(double *A, double *b, size_t nd)
{
    for (size_t col = 0; col < nd; ++col) {
        size_t piv = col;
        for (size_t r = col + 1; r < nd; ++r)
            if (fabs(A[r * nd + col]) > fabs(A[piv * nd + col]))
                piv = r;
        if (!(fabs(A[piv * nd + col]) > 0))
            return -1;
        if (piv != col) {
            for (size_t t = 0; t < nd; ++t) {
                const double tmp = A[col * nd + t];
                A[col * nd + t] = A[piv * nd + t];
                A[piv * nd + t] = tmp;
            }
            const double tb = b[col];
            b[col] = b[piv];
            b[piv] = tb;
        }
        for (size_t r = col + 1; r < nd; ++r) {
            const double f = A[r * nd + col] / A[col * nd + col];
            if (f == 0)
                continue;
            for (size_t t = col; t < nd; ++t)
                A[r * nd + t] -= f * A[col * nd + t];
            b[r] -= f * b[col];
        }
    }
    for (size_t r = nd; r-- > 0;) {
        double s = b[r];
        for (size_t t = r + 1; t < nd; ++t)
            s -= A[r * nd + t] * b[t];
        b[r] = s / A[r * nd + r];
    }
    return 0;
}

static double nw_max_abs(const double *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; ++i)
        m = fmax(m, fabs(v[i]));
    return m;
}

int nw_static_2d(const nw_net *net, double *x, double *y, double tol, int max_it,
                 nw_info *info)
{
    long *dof = malloc(net->n * sizeof *dof);
    size_t nf = 0;
    for (size_t i = 0; dof && i < net->n; ++i)
        dof[i] = net->w[i] > 0 ? (long)nf++ : -1;
    const size_t nd = 2 * nf;
    double *grad = malloc(nd * sizeof *grad), *H = malloc(nd * nd * sizeof *H);
    double *dx = malloc(nd * sizeof *dx), *tx = malloc(net->n * sizeof *tx),
           *ty = malloc(net->n * sizeof *ty);
    int rc = -1;
    memset(info, 0, sizeof *info);
    if (dof && grad && H && dx && tx && ty) {
        double mu = 1.0, e = nw_energy(net, x, y);
        for (int it = 0; it < max_it; ++it) {
            nw_derivatives(net, x, y, dof, nd, grad, H);
            info->grad_inf = nw_max_abs(grad, nd);
            if (info->grad_inf <= tol) {
                rc = 0;
                break;
            }
            info->iterations = it + 1;
            for (size_t r = 0; r < nd; ++r) {
                H[r * nd + r] += mu;
                dx[r] = -grad[r];
            }
            memcpy(tx, x, net->n * sizeof *tx);
            memcpy(ty, y, net->n * sizeof *ty);
            const int solved = nw_solve(H, dx, nd) == 0;
            for (size_t i = 0; solved && i < net->n; ++i)
                if (dof[i] >= 0) {
                    tx[i] += dx[2 * dof[i]];
                    ty[i] += dx[2 * dof[i] + 1];
                }
            /* a singular system counts as a rejected step: mu grows */
            const double e1 = solved ? nw_energy(net, tx, ty) : INFINITY;
            /* near the minimum E stops resolving the step (its rounding,
             * ~1e-16 |E|, exceeds the decrease): accept a step that does
             * not raise E beyond that */
            if (e1 <= e + 4e-16 * fabs(e)) {
                memcpy(x, tx, net->n * sizeof *x);
                memcpy(y, ty, net->n * sizeof *y);
                info->last_step = nw_max_abs(dx, nd);
                e = e1;
                mu = fmax(mu / 10, 1e-300);
            } else {
                mu *= 10;
            }
        }
    }
    free(dof);
    free(grad);
    free(H);
    free(dx);
    free(tx);
    free(ty);
    return rc;
}

double nw_grad_inf(const nw_net *net, const double *x, const double *y)
{
    long *dof = malloc(net->n * sizeof *dof);
    size_t nf = 0;
    for (size_t i = 0; dof && i < net->n; ++i)
        dof[i] = net->w[i] > 0 ? (long)nf++ : -1;
    double *grad = malloc(2 * nf * sizeof *grad), g = NAN;
    if (dof && grad) {
        nw_derivatives(net, x, y, dof, 2 * nf, grad, NULL);
        g = nw_max_abs(grad, 2 * nf);
    }
    free(dof);
    free(grad);
    return g;
}

double nw_pin_lift(const nw_net *net, const double *x, const double *y)
{
    double f = 0;
    for (size_t j = 0; j < net->m; ++j) {
        const uint32_t a = net->i0[j], b = net->i1[j];
        const double dx = x[b] - x[a], dy = y[b] - y[a], len = sqrt(dx * dx + dy * dy);
        const double t = (len - net->rest[j]) / net->alpha[j]; /* tension (N) */
        /* a spring pulls a toward b and b toward a; a pin holds the net
         * with the opposite of the pull it feels */
        if (net->w[a] == 0)
            f -= t * dy / len;
        if (net->w[b] == 0)
            f += t * dy / len;
    }
    return f;
}
