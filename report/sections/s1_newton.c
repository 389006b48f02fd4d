/* SPDX-License-Identifier: MIT */
/* Section s1_newton: an independent reference for the S1 chain's and
 * cloth's static equilibrium. Newton's method on the spring net's energy
 * (shared/newton.c: the report's own code, not the library's) solves
 * grad E = 0 for the hanging chain (N = 6) and the hanging 8 x 6 cloth at
 * alpha = 1e-4 m/N; XPBD settles the same scenes from rest, strongly
 * damped, and its final state is compared with Newton's particle by
 * particle.
 *
 * Why they must agree. With v = 0 at a substep's start, predict moves
 * every free particle by g h^2 and a converged solve of
 * C(x) + alpha~ lambda = 0, x = x~ + M^-1 grad C lambda returns it; at a
 * fixed point M^-1 grad C lambda = -g h^2 and C = -alpha lambda / h^2, so
 * grad C C / alpha = M g: the force balance, grad E = 0. So a converged
 * XPBD fixed point is exactly the equilibrium, damping (which only scales
 * v, 0 there) does not move it, and the difference is the iteration's:
 * n Gauss-Seidel passes leave the fixed point off by e_n ~ A rho^n.
 *
 * That argument assumes x - x~ = M^-1 grad C(x) lambda at the solution; the
 * iterations accumulate grad C at each iterate instead, and where the
 * links rotate within a substep (the cloth: predict moves it by g h^2 =
 * 2.7 mm against 0.1-m links) the converged fixed point is off the force
 * balance by about that rotation times the tension. The chain's links do
 * not rotate (it hangs straight), so for it the argument is exact and the
 * comparison is checked; the cloth's offset is measured and shown, its
 * Newton solution checked by its global force balance instead.
 *
 * The tolerance, from the convergence of the iteration: XPBD is settled
 * at n/2, n and 2n iterations; d1 = max |x_n/2 - x_n|, d2 = max |x_n -
 * x_2n| measure the geometric decay, q = d2 / d1 ~ rho^(n/2), and the
 * 2n-iteration state is off the equilibrium by e_2n = rho^n/(1 - rho^n) d2
 * ~ q^2/(1 - q^2) d2 (which needs q < 0.7, rho^n < 1/2: checked). The
 * comparison allows twice that, plus the settled run's own motion over its
 * last second, plus 1e-12 m for rounding (the positions are resolved to
 * ~1e-16 m; the fixed point's conditioning, alpha~ against the links'
 * geometric stiffness, costs a few decades). The chain's Newton solution
 * is in turn checked against the closed form m g N(N-1)/2 alpha of its
 * total stretch. */
#include "report.h"
#include "shared/newton.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define NT_ALPHA 1e-4
#define NT_L0 0.1
#define NT_H (1.0 / 60.0)
#define NT_FRAMES 300     /* 5 s */
#define NT_DAMP_FRAME 0.3 /* velocity fraction removed per frame while settling */
#define NT_TOL_GRAD 1e-10 /* N: Newton's stopping test */
/* n of the n/2, n, 2n iteration ladder per scene */
#define NT_CHAIN_ITERS 8
#define NT_CLOTH_ITERS 40

static int nt_scene(xs_world_f64 *w, int cloth)
{
    return (cloth ? xs_cloth_f64(w, 8, 6, NT_L0, NT_ALPHA, 0, 0)
                  : xs_chain_f64(w, 6, NT_L0, NT_ALPHA)) == XPBD_OK
               ? 0
               : -1;
}

/* XPBD settled from rest at `iters` iterations (one substep per frame):
 * final x, y into x, y (count values) and the largest displacement over
 * the last second into *motion. Returns 0 or -1. */
static int nt_xpbd(const xr_ctx *ctx, int cloth, uint32_t iters, double *x, double *y,
                   double *motion)
{
    xs_world_f64 w;
    if (nt_scene(&w, cloth) != 0)
        return -1;
    const size_t n = w.p.count;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = XPBD_SOLVER_XPBD;
    cfg.substeps = 1;
    cfg.iterations = iters;
    cfg.damping = NT_DAMP_FRAME;
    cfg.isa = xr_isa(ctx);
    cfg.measure_residual = 0;
    int rc = 0;
    for (int f = 0; f < NT_FRAMES && rc == 0; ++f) {
        if (f == NT_FRAMES - 60)
            for (size_t i = 0; i < n; ++i) {
                x[i] = w.p.x[i];
                y[i] = w.p.y[i];
            }
        rc = xpbd_step_f64(&cfg, NT_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) == XPBD_OK
                 ? 0
                 : -1;
    }
    *motion = 0;
    for (size_t i = 0; i < n; ++i) {
        *motion = fmax(*motion, hypot(w.p.x[i] - x[i], w.p.y[i] - y[i]));
        x[i] = w.p.x[i];
        y[i] = w.p.y[i];
    }
    xs_world_free_f64(&w);
    return rc;
}

/* One scene's results. */
typedef struct nt_scene_out {
    size_t n;
    double *xn, *yn, *xs, *ys; /* Newton's and XPBD's (2n iterations) */
    double *xa, *ya, *xb, *yb; /* XPBD at n/2 and n iterations */
    nw_info info;
    double motion, d1, d2, q, bound, tol, diff, stretch_newton;
    double grad_xpbd, lift, weight; /* max net force at XPBD's state; pins' lift, weight held */
    uint32_t iters; /* n */
} nt_scene_out;

static double nt_max_dist(const double *xa, const double *ya, const double *xb,
                          const double *yb, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; ++i)
        d = fmax(d, hypot(xa[i] - xb[i], ya[i] - yb[i]));
    return d;
}

/* Newton on the scene's constraints (read off its built set, padding
 * dropped, so any layout the scene builder chooses is the one solved). */
static int nt_newton(int cloth, nt_scene_out *o)
{
    xs_world_f64 w;
    if (nt_scene(&w, cloth) != 0)
        return -1;
    const xpbd_distance_set_f64 *s = &w.set;
    uint32_t *i0 = malloc(s->slots * sizeof *i0), *i1 = malloc(s->slots * sizeof *i1);
    double *rest = malloc(s->slots * sizeof *rest), *alpha = malloc(s->slots * sizeof *alpha);
    int rc = -1;
    if (i0 && i1 && rest && alpha) {
        size_t m = 0;
        for (uint32_t k = 0; k < s->slots; ++k)
            if (s->source[k] != XPBD_PAD) {
                i0[m] = s->i0[k];
                i1[m] = s->i1[k];
                rest[m] = s->rest[k];
                alpha[m] = s->compliance[k];
                ++m;
            }
        for (size_t i = 0; i < o->n; ++i) {
            o->xn[i] = w.p.x[i];
            o->yn[i] = w.p.y[i];
        }
        const nw_net net = {o->n, w.p.w, m, i0, i1, rest, alpha, XS_G};
        rc = nw_static_2d(&net, o->xn, o->yn, NT_TOL_GRAD, 200, &o->info);
        o->grad_xpbd = nw_grad_inf(&net, o->xs, o->ys);
        o->lift = nw_pin_lift(&net, o->xn, o->yn);
        o->weight = 0;
        for (size_t i = 0; i < o->n; ++i)
            o->weight += w.p.w[i] > 0 ? XS_G / w.p.w[i] : 0;
        o->stretch_newton = 0;
        for (size_t j = 0; j < m; ++j)
            o->stretch_newton +=
                hypot(o->xn[i1[j]] - o->xn[i0[j]], o->yn[i1[j]] - o->yn[i0[j]]) - rest[j];
    }
    free(i0);
    free(i1);
    free(rest);
    free(alpha);
    xs_world_free_f64(&w);
    return rc;
}

/* Newton, XPBD at n/2, n, 2n iterations, and the tolerance. */
static int nt_solve(const xr_ctx *ctx, int cloth, uint32_t iters, nt_scene_out *o)
{
    xs_world_f64 w;
    if (nt_scene(&w, cloth) != 0)
        return -1;
    o->n = w.p.count;
    xs_world_free_f64(&w);
    o->iters = iters;
    double **v[8] = {&o->xn, &o->yn, &o->xs, &o->ys, &o->xa, &o->ya, &o->xb, &o->yb};
    for (int k = 0; k < 8; ++k)
        if (!(*v[k] = calloc(o->n, sizeof **v[k])))
            return -1;
    double ma, mb;
    if (nt_xpbd(ctx, cloth, iters / 2, o->xa, o->ya, &ma) != 0 ||
        nt_xpbd(ctx, cloth, iters, o->xb, o->yb, &mb) != 0 ||
        nt_xpbd(ctx, cloth, 2 * iters, o->xs, o->ys, &o->motion) != 0 || nt_newton(cloth, o) != 0)
        return -1;
    o->d1 = nt_max_dist(o->xa, o->ya, o->xb, o->yb, o->n);
    o->d2 = nt_max_dist(o->xb, o->yb, o->xs, o->ys, o->n);
    o->q = o->d2 / o->d1;
    o->bound = o->q * o->q / (1 - o->q * o->q) * o->d2;
    o->tol = 2 * o->bound + o->motion + 1e-12;
    o->diff = nt_max_dist(o->xn, o->yn, o->xs, o->ys, o->n);
    return 0;
}

static void nt_free(nt_scene_out *o)
{
    double *v[8] = {o->xn, o->yn, o->xs, o->ys, o->xa, o->ya, o->xb, o->yb};
    for (int k = 0; k < 8; ++k)
        free(v[k]);
}

/* Table row q: particle q of the chain, then of the cloth. */
typedef struct nt_rows {
    const nt_scene_out *o;
} nt_rows;

static int nt_row(xr_ctx *ctx, int q, double *row, void *arg)
{
    const nt_scene_out *o = ((const nt_rows *)arg)->o;
    (void)ctx;
    const int c = (size_t)q < o[0].n ? 0 : 1;
    const size_t i = c ? (size_t)q - o[0].n : (size_t)q;
    const nt_scene_out *s = &o[c];
    const double v[8] = {(double)c, (double)i, s->xn[i], s->yn[i], s->xs[i], s->ys[i],
                         hypot(s->xn[i] - s->xs[i], s->yn[i] - s->ys[i]), s->tol};
    memcpy(row, v, sizeof v);
    return 0;
}

/* The prose, the checks and the figure. */
static void nt_write(xr_ctx *ctx, const nt_scene_out *o)
{
    static const char *const scene[2] = {"chain N = 6", "cloth 8 x 6"};
    xr_md(ctx,
          "**The scenario.** The hanging chain (N = 6) and the hanging 8 x 6 cloth (two top "
          "corners pinned), L0 = %g m, 1 kg particles, alpha = %g m/N. **The question:** "
          "does XPBD's settled state sit at the true static equilibrium? The reference is "
          "computed by the report itself, not the library: Newton's method on the net's "
          "energy E = sum C^2/(2 alpha) + sum m g y (exact Hessian, Levenberg-Marquardt damped "
          "from the unstretched net, stopped at max |grad E| <= %g N). XPBD settles from rest "
          "(one substep per frame, %.0f%% of the velocity removed per frame, %d frames).\n\n"
          "**Why they must agree, and how closely.** At a fixed point of the substep, predict "
          "moves every particle by g h^2 and a converged solve brings it back: M^-1 grad C "
          "lambda = -g h^2 with C = -alpha lambda/h^2, i.e. grad C C/alpha = M g, the force "
          "balance. Damping scales only v, which is 0 there. What remains is the iteration's: "
          "n Gauss-Seidel passes leave the fixed point off by e_n ~ A rho^n. XPBD is settled at "
          "n/2, n and 2n iterations; d1 = max |x_n/2 - x_n| and d2 = max |x_n - x_2n| give "
          "q = d2/d1 ~ rho^(n/2), and the 2n-iteration state is off by rho^n/(1 - rho^n) d2 ~ "
          "q^2/(1 - q^2) d2 (valid for q < 0.7). The check allows twice that, plus the run's "
          "motion over its last second, plus 1e-12 m of rounding.\n\n"
          "| scene | Newton steps | max grad E (N) | n | d1 (m) | d2 (m) | q | bound (m) | "
          "tolerance (m) | max |XPBD - Newton| (m) | max net force at XPBD's state (N) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|\n",
          NT_L0, NT_ALPHA, NT_TOL_GRAD, 100 * NT_DAMP_FRAME, NT_FRAMES);
    for (int c = 0; c < 2; ++c)
        xr_md(ctx, "| %s | %d | %.2g | %u | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n",
              scene[c], o[c].info.iterations, o[c].info.grad_inf, o[c].iters, o[c].d1, o[c].d2,
              o[c].q, o[c].bound, o[c].tol, o[c].diff, o[c].grad_xpbd);
    const double closed = xs_chain_stretch_closed(6, 1.0, NT_ALPHA);
    xr_md(ctx, "\nThe chain's Newton solution stretches %.15g m in all; the closed form "
               "m g N(N-1)/2 alpha gives %.15g m.\n\n",
          o[0].stretch_newton, closed);
    xr_check(ctx, "chain: Newton's total stretch vs m g N(N-1)/2 alpha (m)", o[0].stretch_newton,
             closed, xr_abs(2e-13),
             "Newton stops at |grad E| <= 1e-10 N: stretch off by <= alpha N(N-1)/2 x 1e-10 = "
             "1.5e-13 m; rounding 5 links x 2 ulp(0.5 m) = 6e-16 m");
    xr_md(ctx,
          "**The chain** agrees with Newton to %.2g m, the iteration's own bound (%.2g m "
          "predicted from the ladder). **The cloth does not:** its iteration has converged "
          "(q = %.2g, d2 = %.2g m) and yet its settled state is %.2g m from the equilibrium, "
          "with a net force of up to %.2g N left on a particle (of its %.2f N weight). The "
          "fixed-point argument above assumes that the position change of a substep is "
          "M^-1 grad C(x) lambda at the solution; the iterations add up grad C at each "
          "iterate instead, and the cloth's links rotate within a substep (predict moves it "
          "by g h^2 = %.2g m against %.1f-m links), so its fixed point is off the force balance "
          "by about that rotation times the tension. The chain hangs straight and its links "
          "never rotate. The cloth's difference is therefore shown, not checked; its Newton "
          "solution is checked instead by its global force balance: the pins hold the net "
          "with %.12g N, which carries the %.12g N the free particles weigh.\n\n",
          o[0].diff, o[0].bound, o[1].q, o[1].d2, o[1].diff, o[1].grad_xpbd, XS_G,
          XS_G * NT_H * NT_H, NT_L0, o[1].lift, o[1].weight);
    {
        char from[300];
        snprintf(from, sizeof from,
                 "iteration convergence: 2 q^2/(1 - q^2) d2 = %.2g m (q = %.3g, d2 = %.2g m) + "
                 "last-second motion %.2g m + 1e-12 m rounding",
                 2 * o[0].bound, o[0].q, o[0].d2, o[0].motion);
        xr_check(ctx, "chain: XPBD at 16 iterations, q = d2/d1 (geometric decay)", o[0].q, 0,
                 xr_at_most(0.7), "the bound q^2/(1 - q^2) d2 needs rho^n = q^2 < 1/2");
        xr_check(ctx, "chain: max |XPBD settled (16 iterations) - Newton| (m)", o[0].diff, 0,
                 xr_abs(o[0].tol), from);
        xr_check(ctx, "cloth: the pins' hold on Newton's net vs the free particles' weight (N)",
                 o[1].lift, o[1].weight, xr_abs(1e-8),
                 "Newton stops at |grad E| <= 1e-10 N per coordinate: 46 free particles, "
                 "4.6e-9 N; rounding of ~100 tensions of <= 100 N, 1e-12 N");
    }
    char cap[600];
    snprintf(cap, sizeof cap,
             "Static equilibrium, an independent reference: (a) the hanging 8 x 6 cloth "
             "(alpha = %g m/N), Newton's equilibrium (circles) and XPBD's settled state at %u "
             "iterations (crosses); (b) per particle |XPBD - Newton| for the chain (checked "
             "against the iteration's convergence bound, dashed) and the cloth (shown: its "
             "links rotate within a substep, so its fixed point is not the force balance; "
             "max %.2g m chain, %.2g m cloth).",
             NT_ALPHA, 2 * o[1].iters, o[0].diff, o[1].diff);
    xr_figure(ctx, "s1_newton", cap);
}

static int s1_newton_run(xr_ctx *ctx)
{
    static const uint32_t iters[2] = {NT_CHAIN_ITERS, NT_CLOTH_ITERS};
    nt_scene_out o[2];
    memset(o, 0, sizeof o);
    int rc = 0;
    for (int c = 0; c < 2 && rc == 0; ++c)
        rc = nt_solve(ctx, c, iters[c], &o[c]);
    nt_rows R = {o};
    const xr_sweep sweep = {"s1_newton",
                            "scene\tparticle\tx_newton\ty_newton\tx_xpbd\ty_xpbd\tdistance\t"
                            "tolerance",
                            NULL, (int)(o[0].n + o[1].n), 8, nt_row, &R};
    if (rc == 0)
        rc = xr_sweep_table(ctx, &sweep);
    if (rc == 0)
        nt_write(ctx, o);
    nt_free(&o[0]);
    nt_free(&o[1]);
    return rc;
}

const xr_section xr_section_s1_newton = {
    .name = "s1_newton",
    .title = "Static equilibrium: Newton's solution beside XPBD's settled state",
    .scenario = "S1: the hanging chain and cloth",
    .figures = XR_FIGURES("s1_newton"),
    .tables = XR_TABLES({"s1_newton", "per particle: Newton's and XPBD's equilibrium"}),
    .run = s1_newton_run};
