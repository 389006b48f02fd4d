/* SPDX-License-Identifier: MIT */
/* tiers.c: the S3 iteration-tier rule, checked by every section that
 * shows iteration tiers (s1_convergence, s3_tet_cube, s3_iteration_tiers,
 * s3_cloth), at every compliance they show. Its statement for the reader
 * is written once, in "How to read this" (matter.c); each section's first
 * call points there and heads its tier table.
 *
 * The error model. With lambda accumulated over a substep's iterations,
 * one Gauss-Seidel iteration leaves a fraction rho of the substep's
 * remaining correction: measured as the mean contraction of the residual
 * max |C + alpha~ lambda| over the first iterations of one substep from the
 * settled state, rho = (r4 / r1)^(1/3). A k-iteration solve leaves rho^k
 * of each substep's correction undone; in the steady state the positions
 * sag until the constraints, doing 1 - rho^k of their work, carry the
 * load, so the k-iteration tier is softer than the converged solve by at
 * most rho^k / (1 - rho^k) (a bound: it is reached when the load lies on
 * the slowest mode, as on the chain). The 10-iteration tier is itself soft
 * by rho^10 / (1 - rho^10), so 4 and 10 iterations agree to
 *     X = rho^4 / (1 - rho^4) + drift,
 * drift the measured quantity's own resolution: how much it still moves
 * (over the halves of its averaging window, or its last second). Without
 * it the rule failed where the residual bound is 1e-5: the cloth at 4
 * substeps, whose averaged stretch still drifts by 2e-5 between the halves
 * of its window, a motion that is not the solver's residual.
 * rho is small when the compliance is large against the substep
 * (alpha~ = alpha / h_s^2 large against 1/m): there X is far under 1 % and
 * the tiers give the same stiffness. Where alpha~ m is of order 1 or
 * smaller, rho approaches 1 and the low tier is softer by the unconverged
 * residual; substeps raise alpha~ by n_s^2 and close it, iterations only
 * pay rho^k. Lambda reset every iteration is not this: its low tier is
 * softer than any X allows (it stiffens with every iteration). Except in
 * the rigid limit, alpha~ m << 1 (the curtain of s3_cloth, 3e-7): the
 * alpha~ lambda term a reset drops weighs nothing there, kept and reset
 * are one solve (measured: the same tiers), and the contrast is checked
 * as their agreement instead. */
#include "report.h"

#include <math.h>
#include <stdio.h>

int xr_iteration_tiers(xr_ctx *ctx, const xr_tiers *t)
{
    const double rho = cbrt(t->r4 / t->r1);
    const double r4 = rho * rho * rho * rho;
    const double X = r4 / (1 - r4) + t->drift;
    const double d = t->x4 / t->x10 - 1;
    const int converged = r4 / (1 - r4) <= 0.01;
    const char *regime = converged ? "converged in a few iterations: the tiers agree"
                                   : "unconverged at 4 iterations: the low tier is softer by "
                                     "the residual, substeps close it";
    if (t->state_rule)
        xr_md(ctx,
              "**The iteration-tier rule (S3)**, stated in How to read this: with lambda "
              "kept, 4 and 10 iterations agree to X = rho^4/(1 - rho^4) plus the quantity's "
              "own drift, rho = (r4/r1)^(1/3) measured on the scene; lambda reset every "
              "iteration must miss it, except in the rigid limit, where kept and reset agree."
              "\n\n"
              "| scene | alpha (m/N) | substeps | rho | rho^4/(1 - rho^4) | drift | X | %s at 4 / at 10, lambda kept | "
              "lambda reset | regime |\n|---|---|---|---|---|---|---|---|---|---|\n",
              t->quantity);
    char reset[48] = "-";
    if (!isnan(t->reset4))
        snprintf(reset, sizeof reset, "%+.2f%%", 100 * (t->reset4 / t->reset10 - 1));
    xr_md(ctx, "| %s | %g | %u | %.3f | %.3g%% | %.2g%% | %.3g%% | %+.3f%% | %s | %s |\n",
          t->scene, t->alpha, t->substeps, rho, 100 * r4 / (1 - r4), 100 * t->drift, 100 * X,
          100 * d, reset, converged ? "converged" : "unconverged");
    char what[200], from[600];
    snprintf(what, sizeof what,
             "iteration tiers, %s, alpha = %g m/N, %u substep%s: %s at 4 / at 10 iterations, "
             "lambda kept",
             t->scene, t->alpha, t->substeps, t->substeps == 1 ? "" : "s", t->quantity);
    snprintf(from, sizeof from,
             "S3 iteration-tier rule: X = rho^4/(1 - rho^4) + drift, the 4-iteration tier's "
             "unconverged residual and the quantity's resolution; rho = (r4/r1)^(1/3) = %.4f "
             "measured (r1 = %.3g, r4 = %.3g: one substep from the settled state), drift %.2g "
             "(%s), X = %.3g%%: %s",
             rho, t->r1, t->r4, t->drift, t->drift_from, 100 * X, regime);
    int ok = xr_check(ctx, what, t->x4 / t->x10, 1, xr_rel(X), from);
    const double atm = t->alpha * t->substeps * t->substeps * 3600.0 * t->mass;
    if (!isnan(t->reset4) && atm < 0.01) {
        /* the rigid limit: alpha~ lambda is nothing against 1/m, so lambda
         * kept and reset are one solve and the rule cannot tell them apart */
        snprintf(what, sizeof what,
                 "iteration tiers, %s, alpha = %g m/N, %u substep%s: rigid limit, lambda reset "
                 "every iteration gives the kept solve's %s at 4 / at 10",
                 t->scene, t->alpha, t->substeps, t->substeps == 1 ? "" : "s", t->quantity);
        snprintf(from, sizeof from,
                 "S3 iteration-tier rule, rigid limit: alpha~ m = %.2g; each iteration's update "
                 "loses at most alpha~ m/(1 + alpha~ m) of itself to the dropped alpha~ lambda "
                 "term, and the state carries it over the %d frames, so the ratio of the 4- and "
                 "the 10-iteration tier moves by at most (4 + 10) x frames x alpha~ m (at least "
                 "1e-12, rounding); a single frame's (4 + 10) alpha~ m failed the full run, where "
                 "300 frames compound it",
                 atm, t->frames);
        ok &= xr_check(ctx, what, (t->reset4 / t->reset10) / (t->x4 / t->x10), 1,
                       xr_rel(fmax(14.0 * t->frames * atm / (1 + atm), 1e-12)), from);
    } else if (!isnan(t->reset4)) {
        snprintf(what, sizeof what,
                 "iteration tiers, %s, alpha = %g m/N, %u substep%s: lambda reset every "
                 "iteration, |%s at 4 / at 10 - 1| beyond the rule's X",
                 t->scene, t->alpha, t->substeps, t->substeps == 1 ? "" : "s", t->quantity);
        snprintf(from, sizeof from,
                 "S3 iteration-tier rule: lambda not accumulated stiffens with every iteration, "
                 "so its low tier is softer than the residual bound X = %.3g%% allows (rho = "
                 "%.4f of the kept solve)",
                 100 * X, rho);
        ok &= xr_check(ctx, what, fabs(t->reset4 / t->reset10 - 1), X, xr_above(X), from);
    }
    return ok;
}
