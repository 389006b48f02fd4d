/* SPDX-License-Identifier: MIT */
/* Section s1_convergence: how the distance solvers of the hanging chain and
 * cloth (S1) converge. One substep's Gauss-Seidel iterations watched one at
 * a time: max |C + alpha~ lambda| for XPBD with lambda kept (the correct
 * rule) and reset every iteration (the S0 bug), max |C| for PBD; then the
 * "iteration tiers": the settled stretch against the iteration count.
 *
 * It uses the public API as a host would: the step driver for whole
 * frames, and for the per-iteration view the kernel table of the same ISA
 * path on the same coloured set, called in the driver's order (predict,
 * lambda = 0, per iteration: colours then the serial overflow range). That
 * replica is checked bit for bit against the driver's own residual counter. */
#include "report.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CV_H (1.0 / 60.0)
#define CV_L0 0.1
#define CV_G 9.81

enum { CV_KEPT = 0, CV_RESET = 1, CV_PBD = 2 };

/* The S1 chain (N = 6) with its links in the serial top-down order the original
 * measurement used (0-1, 1-2, ...), so the one-pass numbers are comparable. */
static int cv_chain(xs_world_f64 *w, double alpha)
{
    if (xs_chain_f64(w, 6, CV_L0, alpha) != XPBD_OK)
        return -1;
    uint32_t i0[5], i1[5];
    double rest[5], comp[5];
    for (uint32_t k = 0; k < 5; ++k) {
        i0[k] = k;
        i1[k] = k + 1;
        rest[k] = CV_L0;
        comp[k] = alpha;
    }
    const xpbd_colouring_options serial = {.max_colours = 0, .serial = 1};
    xpbd_distance_set_free_f64(&w->set);
    if (xpbd_distance_set_build_f64(&w->set, 6, 5, i0, i1, rest, comp, &serial, NULL) != XPBD_OK ||
        w->scratch_bytes < xpbd_step_scratch_bytes_f64(6, w->set.slots)) {
        xs_world_free_f64(w);
        return -1;
    }
    return 0;
}

/* The S1 cloth: 8 x 6, spacing L0, m = 1 kg per particle, structural links
 * only (82), coloured by the builder, top corners pinned. */
static int cv_cloth(xs_world_f64 *w, double alpha)
{
    return xs_cloth_f64(w, 8, 6, CV_L0, alpha, 0, 0) == XPBD_OK ? 0 : -1;
}

static int cv_scene(xs_world_f64 *w, int cloth, double alpha)
{
    return cloth ? cv_cloth(w, alpha) : cv_chain(w, alpha);
}

/* C = |d| - rest of slot k (m). */
static double cv_c(const xs_world_f64 *w, uint32_t k)
{
    const xpbd_particles_f64 *p = &w->p;
    const xpbd_distance_set_f64 *c = &w->set;
    const uint32_t a = c->i0[k], b = c->i1[k];
    const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
    return sqrt((dx * dx + dy * dy) + dz * dz) - c->rest[k];
}

/* Sum over real constraints of (|d| - rest): the total stretch (m). */
static double cv_total_stretch(const xs_world_f64 *w)
{
    double s = 0;
    for (uint32_t k = 0; k < w->set.slots; ++k)
        if (w->set.source[k] != XPBD_PAD)
            s += cv_c(w, k);
    return s;
}

/* max |C| over real constraints (m). */
static double cv_max_c(const xs_world_f64 *w)
{
    double m = 0;
    for (uint32_t k = 0; k < w->set.slots; ++k)
        if (w->set.source[k] != XPBD_PAD)
            m = fmax(m, fabs(cv_c(w, k)));
    return m;
}

/* max |C + alpha~ lambda| through the kernel table, as the driver measures it. */
static double cv_residual(const xpbd_kernels_f64 *kt, const xs_world_f64 *w, double hs)
{
    const xpbd_distance_set_f64 *c = &w->set;
    double m = 0;
    for (uint32_t col = 0; col < c->colours; ++col) {
        const double r = kt->residual(&w->p, c, col, 0, xpbd_colour_batches(c->colour_begin, col),
                                      hs, NULL);
        if (r > m)
            m = r;
    }
    const double r = xpbd_serial_residual_f64(&w->p, c, c->overflow_begin, c->slots, hs, NULL);
    return r > m ? r : m;
}

typedef struct cv_iter {
    double residual;      /* kept: max|C + at lambda|; reset: with the summed lambda */
    double residual_last; /* reset: with the last iteration's lambda (what a counter sees) */
    double cmax;          /* max |C| */
} cv_iter;

/* One substep of length hs with K iterations in the driver's order, from
 * the current state; out[i] after iteration i + 1. lambda_sum: scratch of
 * set.slots doubles. */
static void cv_substep(const xpbd_kernels_f64 *kt, xs_world_f64 *w, double hs, int K, int mode,
                       double *lambda_sum, double *lambda_save, cv_iter *out)
{
    xpbd_particles_f64 *p = &w->p;
    xpbd_distance_set_f64 *c = &w->set;
    const size_t bytes = c->slots * sizeof(double);
    kt->predict(p, 0, p->count, hs, 0.0, -CV_G, 0.0);
    memset(c->lambda, 0, bytes);
    memset(lambda_sum, 0, bytes);
    for (int it = 0; it < K; ++it) {
        if (it > 0 && mode == CV_RESET)
            memset(c->lambda, 0, bytes);
        for (uint32_t col = 0; col < c->colours; ++col) {
            const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
            if (mode == CV_PBD)
                kt->distance_pbd(p, c, col, 0, nb, 1.0);
            else
                kt->distance_xpbd(p, c, col, 0, nb, hs);
        }
        if (mode == CV_PBD)
            xpbd_serial_distance_pbd_f64(p, c, c->overflow_begin, c->slots, 1.0);
        else
            xpbd_serial_distance_xpbd_f64(p, c, c->overflow_begin, c->slots, hs);
        cv_iter *o = &out[it];
        o->cmax = cv_max_c(w);
        o->residual = o->residual_last = NAN;
        if (mode == CV_KEPT) {
            o->residual = o->residual_last = cv_residual(kt, w, hs);
        } else if (mode == CV_RESET) {
            /* the positions carry every iteration's correction, so the
             * multiplier they answer to is the sum of the per-iteration ones */
            o->residual_last = cv_residual(kt, w, hs);
            memcpy(lambda_save, c->lambda, bytes);
            for (uint32_t s = 0; s < c->slots; ++s)
                lambda_sum[s] += lambda_save[s];
            memcpy(c->lambda, lambda_sum, bytes);
            o->residual = cv_residual(kt, w, hs);
            memcpy(c->lambda, lambda_save, bytes);
        }
    }
}

/* The tiers: time-averaged total stretch over the second half of a run of
 * `frames` frames (n_s = 1) with `iters` iterations. */
static int cv_tier_drift(const xr_ctx *ctx, int cloth, double alpha, int mode, int iters, int ns,
                         int frames, double *out, double *drift)
{
    xs_world_f64 w;
    if (cv_scene(&w, cloth, alpha) != 0)
        return -1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.substeps = (uint32_t)ns;
    cfg.iterations = (uint32_t)iters;
    cfg.solver = mode == CV_PBD ? XPBD_SOLVER_PBD : XPBD_SOLVER_XPBD;
    cfg.lambda_reset = mode == CV_RESET ? XPBD_LAMBDA_PER_ITERATION : XPBD_LAMBDA_PER_SUBSTEP;
    cfg.measure_residual = 0;
    double sum = 0, half[2] = {0, 0};
    int n = 0, rc = 0;
    for (int f = 0; f < frames; ++f) {
        if (xpbd_step_f64(&cfg, CV_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) != XPBD_OK) {
            rc = -1;
            break;
        }
        if (f >= frames / 2) {
            const double x = cv_total_stretch(&w);
            sum += x;
            half[f >= 3 * frames / 4] += x;
            n++;
        }
    }
    xs_world_free_f64(&w);
    *out = n ? sum / n : NAN;
    /* how far the average itself still moves: its two halves, relative */
    if (drift)
        *drift = n ? fabs(half[1] - half[0]) / (fabs(sum) / 2) : NAN;
    return rc;
}

static int cv_tier(const xr_ctx *ctx, int cloth, double alpha, int mode, int iters, int ns,
                   int frames, double *out)
{
    return cv_tier_drift(ctx, cloth, alpha, mode, iters, ns, frames, out, NULL);
}

/* The tier rule's rho (fw/tiers.c): from the state `frames` frames of
 * the 10-iteration run with ns substeps have settled in, one substep of
 * h/ns solved with 1 and with 4 iterations; r1, r4 the driver's residual
 * max |C + alpha~ lambda| after each. */
static int cv_tier_residuals(const xr_ctx *ctx, int cloth, double alpha, int ns, int frames,
                             double *r1, double *r4)
{
    xs_world_f64 w;
    if (cv_scene(&w, cloth, alpha) != 0)
        return -1;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.substeps = (uint32_t)ns;
    cfg.measure_residual = 0;
    int rc = 0;
    for (int f = 0; f < frames && rc == 0; ++f)
        rc = xpbd_step_f64(&cfg, CV_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) == XPBD_OK
                 ? 0
                 : -1;
    const size_t bytes = 10 * w.p.count * sizeof(double);
    double *state = malloc(bytes);
    if (rc || !state) {
        free(state);
        xs_world_free_f64(&w);
        return -1;
    }
    memcpy(state, w.block_, bytes);
    cfg.substeps = 1;
    cfg.measure_residual = 1;
    for (int k = 0; k < 2 && rc == 0; ++k) {
        memcpy(w.block_, state, bytes);
        cfg.iterations = k ? 4 : 1;
        xpbd_step_counters cnt;
        rc = xpbd_step_f64(&cfg, CV_H / ns, &w.p, &w.set, w.scratch, w.scratch_bytes, &cnt) ==
                     XPBD_OK
                 ? 0
                 : -1;
        *(k ? r4 : r1) = cnt.max_residual;
    }
    free(state);
    xs_world_free_f64(&w);
    return rc;
}

#define CV_ALPHA_RES 1e-4 /* compliance of the per-iteration view (m/N) */
#define CV_KMAX 100       /* iterations watched */

/* The per-iteration view and the iteration tiers of both scenes, and what
 * the prose and the checks read off them. */
typedef struct cv_state {
    int kmax[2];
    cv_iter it[2][3][CV_KMAX];
    double exact_mine[2], exact_driver[2];
    uint32_t cloth_colours;
    const int *tiers;
    int ntiers, frames, t4, t10;
    double alphas[2];
    double tier[2][2][3][12]; /* [scene][alpha][mode][tier] */
    double res[2][3][2], sub4[2][2][2]; /* res[scene][alpha, or 2: alpha 1e-4 at 4 substeps] */
    double drift[2][3];                 /* the 10-iteration average's own drift */
} cv_state;

static const char *const cv_scene_name[2] = {"chain", "cloth 8x6"};

/* One substep watched iteration by iteration, per scene and mode, with the
 * driver's own residual counter beside the replica's; the s1_convergence
 * table. Returns 0 or -1. */
static int cv_watch(xr_ctx *ctx, cv_state *S)
{
    const xpbd_kernels_f64 *kt = xpbd_kernels_get_f64(xr_isa(ctx));
    if (!kt)
        return -1;
    const int *kmax = S->kmax;
    cv_iter(*it)[3][CV_KMAX] = S->it;
    const int kx = 10; /* iterations of the bitwise cross-check */
    for (int sc = 0; sc < 2; ++sc) {
        xs_world_f64 w;
        if (cv_scene(&w, sc, CV_ALPHA_RES) != 0)
            return -1;
        /* the common start: 1 s of the reference run (XPBD, 10 iterations) */
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.isa = xr_isa(ctx);
        cfg.measure_residual = 0;
        int rc = 0;
        for (int f = 0; f < 60 && rc == 0; ++f)
            rc = xpbd_step_f64(&cfg, CV_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL);
        const size_t n = w.p.count, slots = w.set.slots;
        if (sc == 1)
            S->cloth_colours = w.set.colours;
        double *state = malloc(10 * n * sizeof *state);
        double *lsum = malloc(slots * sizeof *lsum), *lsave = malloc(slots * sizeof *lsave);
        if (rc != 0 || !state || !lsum || !lsave) {
            free(state);
            free(lsum);
            free(lsave);
            xs_world_free_f64(&w);
            return -1;
        }
        memcpy(state, w.block_, 10 * n * sizeof *state);
        for (int mode = 0; mode < 3; ++mode) {
            memcpy(w.block_, state, 10 * n * sizeof *state);
            cv_substep(kt, &w, CV_H, kmax[sc], mode, lsum, lsave, it[sc][mode]);
        }
        /* the same substep through the driver: its residual counter must be
         * the replica's, bit for bit */
        memcpy(w.block_, state, 10 * n * sizeof *state);
        cfg.iterations = (uint32_t)kx;
        cfg.measure_residual = 1;
        xpbd_step_counters cnt;
        if (xpbd_step_f64(&cfg, CV_H, &w.p, &w.set, w.scratch, w.scratch_bytes, &cnt) == XPBD_OK)
            S->exact_driver[sc] = cnt.max_residual;
        S->exact_mine[sc] = it[sc][CV_KEPT][kx - 1].residual;
        free(state);
        free(lsum);
        free(lsave);
        xs_world_free_f64(&w);
    }

    FILE *f = xr_table_open(ctx, "s1_convergence",
                            "scene\titeration\txpbd_kept_residual\txpbd_kept_max_c\t"
                            "xpbd_reset_residual\txpbd_reset_residual_last_lambda\t"
                            "xpbd_reset_max_c\tpbd_max_c");
    for (int sc = 0; sc < 2; ++sc)
        for (int i = 0; i < kmax[sc]; ++i) {
            const double row[8] = {(double)sc, (double)(i + 1), it[sc][CV_KEPT][i].residual,
                                   it[sc][CV_KEPT][i].cmax, it[sc][CV_RESET][i].residual,
                                   it[sc][CV_RESET][i].residual_last, it[sc][CV_RESET][i].cmax,
                                   it[sc][CV_PBD][i].cmax};
            xr_row(f, 8, row);
        }
    xr_table_close(f);
    return 0;
}

/* The iteration tiers: the settled stretch against the iteration count per
 * scene, compliance and mode, the tier rule's residuals and drifts, and the
 * s1_convergence_tiers table. Returns 0 or -1. */
static int cv_tiers(xr_ctx *ctx, cv_state *S)
{
    static const int tiers_full[] = {1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50};
    static const int tiers_fast[] = {1, 2, 4, 10, 20};
    const int quick = xr_quick(ctx);
    const int *tiers = S->tiers = quick ? tiers_fast : tiers_full;
    const int ntiers = S->ntiers = quick ? (int)(sizeof tiers_fast / sizeof *tiers_fast)
                                         : (int)(sizeof tiers_full / sizeof *tiers_full);
    const double *alphas = S->alphas;
    const int frames = S->frames;
    double(*tier)[2][3][12] = S->tier;
    int done = 0, total = 2 * 2 * 3 * ntiers;
    for (int sc = 0; sc < 2; ++sc)
        for (int a = 0; a < 2; ++a)
            for (int mode = 0; mode < 3; ++mode)
                for (int t = 0; t < ntiers; ++t) {
                    if (cv_tier(ctx, sc, alphas[a], mode, tiers[t], 1, frames,
                                &tier[sc][a][mode][t]) != 0)
                        return -1;
                    xr_progress(ctx, "iteration tiers", ++done, total);
                }
    /* the tier rule's rho at each (scene, alpha) with one substep, and the
     * stiff alpha again at 4 substeps: what closes its gap */
    double(*res)[3][2] = S->res, (*sub4)[2][2] = S->sub4, (*drift)[3] = S->drift;
    for (int sc = 0; sc < 2; ++sc) {
        for (int a = 0; a < 3; ++a) {
            double x;
            if (cv_tier_residuals(ctx, sc, alphas[a < 2 ? a : 1], a < 2 ? 1 : 4, frames,
                                  &res[sc][a][0], &res[sc][a][1]) != 0 ||
                cv_tier_drift(ctx, sc, alphas[a < 2 ? a : 1], CV_KEPT, 10, a < 2 ? 1 : 4, frames,
                              &x, &drift[sc][a]) != 0)
                return -1;
        }
        for (int mode = 0; mode < 2; ++mode)
            for (int k = 0; k < 2; ++k)
                if (cv_tier(ctx, sc, alphas[1], mode, k ? 10 : 4, 4, frames, &sub4[sc][mode][k]) !=
                    0)
                    return -1;
    }
    FILE *f = xr_table_open(ctx, "s1_convergence_tiers",
                      "scene\talpha\titerations\txpbd_kept\txpbd_reset\tpbd\tclosed_form");
    for (int sc = 0; sc < 2; ++sc)
        for (int a = 0; a < 2; ++a)
            for (int t = 0; t < ntiers; ++t) {
                const double row[7] = {(double)sc, alphas[a], (double)tiers[t],
                                       tier[sc][a][CV_KEPT][t], tier[sc][a][CV_RESET][t],
                                       tier[sc][a][CV_PBD][t],
                                       sc ? NAN : xs_chain_stretch_closed(6, 1.0, alphas[a])};
                xr_row(f, 7, row);
            }
    xr_table_close(f);

    S->t4 = S->t10 = -1;
    for (int t = 0; t < ntiers; ++t) {
        S->t4 = tiers[t] == 4 ? t : S->t4;
        S->t10 = tiers[t] == 10 ? t : S->t10;
    }
    return 0;
}

/* The prose: the per-iteration table, the tiers' table and the tier rule. */
static void cv_write(xr_ctx *ctx, const cv_state *S)
{
    const int *kmax = S->kmax, *tiers = S->tiers, ntiers = S->ntiers, frames = S->frames;
    const int t4 = S->t4, t10 = S->t10;
    const double *alphas = S->alphas;
    const cv_iter(*it)[3][CV_KMAX] = S->it;
    const double(*tier)[2][3][12] = S->tier, (*res)[3][2] = S->res, (*sub4)[2][2] = S->sub4;
    const double(*drift)[3] = S->drift;
    const uint32_t cloth_colours = S->cloth_colours;
    const char *const *scene_name = cv_scene_name;
    const cv_iter *ck = it[0][CV_KEPT], *cr = it[0][CV_RESET], *lk = it[1][CV_KEPT];
    const double fall_chain = ck[0].residual / ck[kmax[0] - 1].residual;
    const double fall_cloth = lk[0].residual / lk[kmax[1] - 1].residual;
    xr_md(ctx,
          "**Per iteration.** From a common state (1 s of the reference run: XPBD, 10 "
          "iterations, h = 1/60 s, alpha = %g m/N, m = 1 kg per particle), one substep of "
          "h = 1/60 s is solved iteration by iteration with the kernel table of the active path, "
          "in the driver's order; the chain's 5 links run serially top-down (the original measurement's order), "
          "the 8x6 cloth's 82 links in the builder's %u colours. XPBD with lambda kept: "
          "max |C + alpha~ lambda|. Lambda reset every iteration: the same residual with the "
          "multiplier the positions actually answer to (the sum of every iteration's lambda), "
          "and beside it what a residual counter sees (the last iteration's lambda only). PBD "
          "(k_s = 1): max |C|.\n\n",
          CV_ALPHA_RES, cloth_colours);
    xr_md(ctx,
          "| scene | iterations | XPBD kept: max abs(C + a~l) | kept: max abs(C) | reset: "
          "true residual | reset: last-lambda residual | reset: max abs(C) | PBD: max abs(C) |\n"
          "|---|---|---|---|---|---|---|---|\n");
    for (int sc = 0; sc < 2; ++sc) {
        const int show[] = {1, 2, 4, 10, 20, 40, 100};
        for (size_t i = 0; i < sizeof show / sizeof *show; ++i) {
            if (show[i] > kmax[sc])
                continue;
            const int j = show[i] - 1;
            xr_md(ctx, "| %s | %d | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n", scene_name[sc],
                  show[i], it[sc][CV_KEPT][j].residual, it[sc][CV_KEPT][j].cmax,
                  it[sc][CV_RESET][j].residual, it[sc][CV_RESET][j].residual_last,
                  it[sc][CV_RESET][j].cmax, it[sc][CV_PBD][j].cmax);
        }
    }
    xr_md(ctx,
          "\nWith lambda kept the residual falls by %.3g over %d iterations on the chain and by "
          "%.3g over %d on the cloth, while max |C| settles on the stretch the compliance allows "
          "(%.4g m on the chain's top link; alpha m g (N-1) = %.4g m): that stretch is the "
          "answer, not an unconverged residual. With lambda reset the true residual grows "
          "(chain %.3g -> %.3g) while the last-lambda residual a counter would show shrinks "
          "(%.3g): the solve converges, to the rigid answer instead of the compliant one.\n\n",
          fall_chain, kmax[0], fall_cloth, kmax[1], ck[kmax[0] - 1].cmax,
          CV_ALPHA_RES * 1.0 * CV_G * 5, cr[0].residual, cr[kmax[0] - 1].residual,
          cr[kmax[0] - 1].residual_last);

    xr_md(ctx,
          "**Iteration tiers.** Total stretch averaged over frames %d..%d of a %d-frame run "
          "(h = 1/60 s, one substep) against the iteration count, for alpha = 1e-3 and 1e-4 "
          "m/N.\n\n"
          "| scene | alpha (m/N) | iterations | XPBD kept (m) | XPBD reset (m) | PBD k_s = 1 (m) "
          "| closed form (m) |\n|---|---|---|---|---|---|---|\n",
          frames / 2, frames, frames);
    for (int sc = 0; sc < 2; ++sc)
        for (int a = 0; a < 2; ++a)
            for (int t = 0; t < ntiers; ++t) {
                if (tiers[t] != 1 && tiers[t] != 4 && tiers[t] != 10 && tiers[t] != 20)
                    continue;
                char cf[32] = "-";
                if (!sc)
                    snprintf(cf, sizeof cf, "%.5g", xs_chain_stretch_closed(6, 1.0, alphas[a]));
                xr_md(ctx, "| %s | %g | %d | %.5g | %.5g | %.5g | %s |\n", scene_name[sc],
                      alphas[a], tiers[t], tier[sc][a][CV_KEPT][t], tier[sc][a][CV_RESET][t],
                      tier[sc][a][CV_PBD][t], cf);
            }
    const double x4 = tier[0][0][CV_KEPT][t4], x10 = tier[0][0][CV_KEPT][t10];
    const double p4 = tier[0][0][CV_PBD][t4], p10 = tier[0][0][CV_PBD][t10];
    const double q4 = tier[1][0][CV_PBD][t4], q10 = tier[1][0][CV_PBD][t10];
    const double r4 = tier[0][0][CV_RESET][t4], r10 = tier[0][0][CV_RESET][t10];
    xr_md(ctx,
          "\nAt alpha = 1e-3 the chain reads %.5g m at 4 iterations and %.5g m at 10 (closed "
          "form %.5g). At alpha = 1e-4 with one substep the 4-iteration tier is softer (chain "
          "%.5g m against %.5g): alpha~ m = %.2g, the solve has not converged in 4 iterations. "
          "At 4 substeps the same compliance reads %.5g m at 4 iterations and %.5g m at 10. PBD "
          "is softer the fewer iterations it gets (chain %.3g m at 4 vs %.3g at 10; cloth %.3g "
          "vs %.3g), and lambda reset is stiffer the more it gets (chain %.3g -> %.3g m).\n\n",
          x4, x10, xs_chain_stretch_closed(6, 1.0, 1e-3), tier[0][1][CV_KEPT][t4],
          tier[0][1][CV_KEPT][t10], 1e-4 / (CV_H * CV_H), sub4[0][CV_KEPT][0],
          sub4[0][CV_KEPT][1], p4, p10, q4, q10, r4, r10);
    for (int sc = 0; sc < 2; ++sc)
        for (int a = 0; a < 3; ++a) {
            const int ai = a < 2 ? a : 1;
            const xr_tiers tr = {
                .scene = scene_name[sc], .quantity = "total stretch", .alpha = alphas[ai], .mass = 1.0,
                .substeps = a < 2 ? 1 : 4, .r1 = res[sc][a][0], .r4 = res[sc][a][1],
                .x4 = a < 2 ? tier[sc][a][CV_KEPT][t4] : sub4[sc][CV_KEPT][0],
                .x10 = a < 2 ? tier[sc][a][CV_KEPT][t10] : sub4[sc][CV_KEPT][1],
                .reset4 = a < 2 ? tier[sc][a][CV_RESET][t4] : sub4[sc][CV_RESET][0],
                .reset10 = a < 2 ? tier[sc][a][CV_RESET][t10] : sub4[sc][CV_RESET][1],
                .drift = drift[sc][a], .drift_from = "the halves of its averaging window",
                .state_rule = sc == 0 && a == 0};
            xr_iteration_tiers(ctx, &tr);
        }
    xr_md(ctx, "\n");
}

/* The checks. */
static void cv_check(xr_ctx *ctx, const cv_state *S)
{
    const int *kmax = S->kmax, t4 = S->t4, t10 = S->t10;
    const double *exact_mine = S->exact_mine, *exact_driver = S->exact_driver;
    const double(*tier)[2][3][12] = S->tier;
    const cv_iter *ck = S->it[0][CV_KEPT], *cr = S->it[0][CV_RESET], *lk = S->it[1][CV_KEPT];
    const double fall_chain = ck[0].residual / ck[kmax[0] - 1].residual;
    const double fall_cloth = lk[0].residual / lk[kmax[1] - 1].residual;
    const double x10 = tier[0][0][CV_KEPT][t10];
    const double p4 = tier[0][0][CV_PBD][t4], p10 = tier[0][0][CV_PBD][t10];
    const double q4 = tier[1][0][CV_PBD][t4], q10 = tier[1][0][CV_PBD][t10];
    const double r4 = tier[0][0][CV_RESET][t4], r10 = tier[0][0][CV_RESET][t10];
    xr_tolerance_source(ctx, "same arithmetic in the same order: bitwise");
    xr_check_exact(ctx, "chain: replica's max |C + a~l| after 10 iterations == driver counter",
                   exact_mine[0], exact_driver[0], NULL);
    xr_check_exact(ctx, "cloth 8x6: replica's max |C + a~l| after 10 iterations == driver counter",
                   exact_mine[1], exact_driver[1], NULL);
    xr_tolerance_source(ctx, "engineering: converged means 6 orders under the first iteration "
                             "(chain, 40 iterations), 10 (cloth, 100); S0: reset is over 3 "
                             "orders stiffer");
    xr_check(ctx, "chain, lambda kept: residual(1) / residual(40)", fall_chain, 1e6,
             xr_at_least(1e6), NULL);
    xr_check(ctx, "cloth 8x6, lambda kept: residual(1) / residual(100)", fall_cloth, 1e10,
             xr_at_least(1e10), NULL);
    {
        const double ratio = cr[kmax[0] - 1].residual / ck[kmax[0] - 1].residual;
        xr_check(ctx, "chain, 40 iterations: true residual, lambda reset / lambda kept", ratio, 1e3,
                 xr_at_least(1e3), NULL);
    }
    xr_tolerance_source(ctx, "original measurement: S1's 8-substep ratios to the formula lie "
                             "within 1% (0.990 .. 1.004); PBD's low tier 'visibly softer' "
                             "(1.5x); S0: reset stiffens with iterations (at least 2x from 4 "
                             "to 10)");
    xr_check_rel(ctx, "tiers, chain alpha = 1e-3: XPBD stretch at 10 iterations vs closed form (m)",
                 x10, xs_chain_stretch_closed(6, 1.0, 1e-3), 0.01, NULL);
    xr_check(ctx, "tiers, chain: PBD stretch at 4 / at 10 iterations", p4 / p10, 1.5,
             xr_at_least(1.5), NULL);
    xr_check(ctx, "tiers, cloth: PBD stretch at 4 / at 10 iterations", q4 / q10, 1.5,
             xr_at_least(1.5), NULL);
    xr_check(ctx, "tiers, chain alpha = 1e-3: lambda reset, stretch at 10 / at 4 iterations",
             r10 / r4, 0.5, xr_at_most(0.5), NULL);
}

static int s1_convergence_run(xr_ctx *ctx)
{
    cv_state S = {.kmax = {40, CV_KMAX},
                  .exact_mine = {NAN, NAN},
                  .exact_driver = {NAN, NAN},
                  .frames = 600,
                  .alphas = {1e-3, 1e-4}};
    if (cv_watch(ctx, &S) != 0 || cv_tiers(ctx, &S) != 0)
        return -1;
    cv_write(ctx, &S);
    cv_check(ctx, &S);

    const int *kmax = S.kmax;
    const cv_iter *ck = S.it[0][CV_KEPT], *lk = S.it[1][CV_KEPT];
    const double fall_chain = ck[0].residual / ck[kmax[0] - 1].residual;
    const double fall_cloth = lk[0].residual / lk[kmax[1] - 1].residual;
    const double x4 = S.tier[0][0][CV_KEPT][S.t4], x10 = S.tier[0][0][CV_KEPT][S.t10];
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Convergence on the hanging chain and the cloth (S1), with the lambda lesson of S0 and the iteration tiers of S3. (a, b) One substep of "
             "h = 1/60 s, iteration by iteration, alpha = %g m/N: XPBD max |C + alpha~ lambda| "
             "with lambda kept falls by %.2g (chain, %d iterations) and %.2g (8x6 cloth, %d); "
             "with lambda reset the true residual stays large while the last-lambda residual "
             "shrinks; PBD max |C| for comparison. (c, d) Settled total stretch vs iterations: "
             "XPBD at alpha = 1e-3 is the same at 4 and 10 iterations (%.5g vs %.5g m, closed "
             "form 0.14715), PBD is softer at low iterations, lambda reset stiffer at high.",
             CV_ALPHA_RES, fall_chain, kmax[0], fall_cloth, kmax[1], x4, x10);
    xr_figure(ctx, "s1_convergence", cap);
    return 0;
}

const xr_section xr_section_s1_convergence = {
    .name = "s1_convergence",
    .title = "Max |C + alpha~ lambda| vs iterations, chain and cloth, lambda kept vs reset; iteration tiers",
    .scenario = "S1: the hanging chain and the cloth, convergence",
    .figures = XR_FIGURES("s1_convergence"),
    .tables = XR_TABLES({"s1_convergence", "residual per iteration"},
                        {"s1_convergence_tiers", "iteration tiers: XPBD and PBD stretch at 4 vs 10 iterations"}),
    .run = s1_convergence_run};
