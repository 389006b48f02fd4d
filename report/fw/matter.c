/* SPDX-License-Identifier: MIT */
/* matter.c: the hand-out's text that is not a section's: the parts the
 * sections are grouped in (one per reference scenario, each introduced by
 * the scenario's setup; each section describes its own experiment, so the
 * report needs no other document),
 * "How to read this", the conclusions and limitations, the references and
 * the appendix's introduction. Written once as markdown in the sections'
 * ASCII notation; md.c prints it as it is, pdf.c converts it to -ms. */
#include "fw.h"

#include <stdint.h>
#include <string.h>

const xr_part xr_parts[XR_NPARTS] = {
    {"s0_", "One distance constraint (S0)",
     "Two points on a line joined by one XPBD distance constraint: the update every later "
     "scenario is built from, its multiplier lambda accumulated over a substep's iterations, "
     "its printed results reproduced bit for bit, and the inputs it must refuse.\n\n"},
    {"s1_", "The hanging chain and the cloth: springs, PBD and XPBD (S1)",
     "A chain of N = 6 particles of 1 kg hangs from a fixed particle on links of rest length "
     "0.1 m; at equilibrium its total stretch is m g N(N - 1)/(2k) = m g N(N - 1)/2 alpha "
     "(0.14715 m for k = 1000 N/m). The same chain is solved four ways: explicit springs, PBD "
     "with a stiffness k_s, PBD with substeps, and XPBD with compliance alpha = 1/k; then the "
     "same solver runs on cloth. Original measurements, made with an independent solver when "
     "the scenario was written down, stand beside ours.\n\n"},
    {"s2_", "Contacts: a stack of balls, and who backs out of an overlap (S2)",
     "A one-dimensional stack: a plate of infinite mass (radius 0.34 m) and balls of radius "
     "0.18 m above it. A frame applies gravity, a velocity pass (restitution e: |v_rel'| = e "
     "|v_rel| for closing pairs deeper than -slop), the integration and a position pass "
     "(beta of each overlap backed out, shared by inverse mass). Closed forms give the "
     "overlap left, the bounce and the shares; a tower measures what iterations buy; a few "
     "thousand balls carry the passes to 3-D.\n\n"},
    {"s3_", "Soft bodies and the rules an engine keeps (S3)",
     "3-D XPBD distance, tetrahedral volume and bending constraints, with the compliance as "
     "the artist's control and the iteration count as a quality tier; collisions with rigid "
     "shapes that give the impulse back; damping of the motion relative to a body's rigid "
     "motion only; topology changed at the end of a step; bodies sleeping and waking whole; "
     "and the checks every soft body passes (a poke decays, a 1 s free fall, the support "
     "impulse m g h, equal balls swapping velocities).\n\n"},
    {"", "Across the scenarios: snapshots, settings and the kernels",
     "The 3-D scenes as snapshots over time; substeps against iterations at equal cost; "
     "every SIMD path against the scalar reference, and their speed as ratios measured in "
     "the same run.\n\n"},
};

size_t xr_part_of(const xr_section *x)
{
    for (size_t p = 0; p + 1 < XR_NPARTS; ++p)
        if (strncmp(x->name, xr_parts[p].prefix, strlen(xr_parts[p].prefix)) == 0)
            return p;
    return XR_NPARTS - 1;
}

size_t xr_section_order(const xr_ctx *ctx, size_t *order)
{
    size_t n = 0;
    for (size_t p = 0; p < XR_NPARTS; ++p)
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            if (ctx->sec[s].ran && xr_part_of(xr_sections[s]) == p)
                order[n++] = s;
    return n;
}

size_t xr_section_number(const xr_ctx *ctx, size_t s)
{
    size_t order[XR_NSECTIONS + 1];
    const size_t n = xr_section_order(ctx, order);
    for (size_t k = 0; k < n; ++k)
        if (order[k] == s)
            return k + 1;
    return 0;
}

const char *const xr_how_to_read[] = {
    "This report reproduces four reference scenarios with the xpbd kernels and checks every "
    "SIMD path against the scalar reference. **S0** is one XPBD distance constraint between "
    "two points, **S1** a hanging chain and a cloth solved from explicit springs through PBD "
    "to XPBD, **S2** contacts in a stack of balls, **S3** soft bodies and the rules an engine "
    "keeps. Each part below starts with its scenario's description; the sections in it each "
    "show one experiment as text and figures. The parts name their scenario by these labels "
    "only.\n\n",
    "**Notation.** SI units throughout, g = 9.81 m/s^2. A frame is h = 1/60 s; a frame of n_s "
    "substeps has substeps of h_s = h/n_s, each solved with a number of Gauss-Seidel "
    "iterations. alpha is a constraint's compliance (m/N, the inverse of a stiffness k), "
    "alpha~ = alpha/h_s^2 the compliance per substep, lambda the constraint's accumulated "
    "multiplier, C its violation. PBD's stiffness k_s in (0, 1] is the fraction of the error "
    "one projection removes. In contacts beta is the share of an overlap the position pass "
    "removes, e the restitution, mu a mass ratio. m/h^2 and 4m/h^2 are the explicit spring "
    "chain's stability lines.\n\n",
    "**What a check is.** A check compares one measured number with a reference: a closed "
    "form, an exact result that must be reproduced, or a bound that physics gives. Its "
    "tolerance has a kind: *exact* (bit for bit), *ulps* (units in the last place of the "
    "reference), *relative*, *absolute*, or a *bracket* [lo, hi] (one-sided when an end is "
    "infinite). The report computes every verdict itself from those numbers; no section "
    "states a pass. `xpbd-report --self-test` moves every measured value just past its "
    "tolerance (both sides where two-sided) and requires each check to fail then, so a "
    "check that cannot fail is caught. The check tables, with ours, the reference, the "
    "tolerance and where it comes from, are in the appendix; each section says how many "
    "checks it has and where they are.\n\n",
    "**What the tolerances mean.** A tolerance is derived before the run from the "
    "quantity's own error model, written beside it in the \"tolerance from\" column: "
    "rounding (a few ulps times the operations done), discretisation (the scheme's order "
    "times h), settling (how much a quantity still moves, measured on a run that has "
    "converged), a solver's unconverged residual (the iteration-tier rule of S3: rho^4/(1 - "
    "rho^4) for 4 iterations, rho the measured contraction per iteration), or the digits a "
    "printed number carries (half a unit of its last digit). A tolerance is never widened to "
    "make a check pass; a check that fails is reported as failed.\n\n",
    "**The iteration-tier rule (S3).** Iterations are a quality tier: with lambda "
    "accumulated over a substep's iterations, 4 and 10 iterations give the same stiffness up "
    "to the solve's unconverged residual. Each Gauss-Seidel iteration leaves a fraction rho "
    "of the substep's remaining correction, measured on the scene itself: rho = "
    "(r4/r1)^(1/3), r_k = max |C + alpha~ lambda| after k iterations of one substep from the "
    "settled state. In the steady state a k-iteration tier is softer than the converged "
    "solve by at most rho^k/(1 - rho^k), so 4 and 10 iterations agree to X = rho^4/(1 - "
    "rho^4) plus the quantity's own resolution (how much it still moves while measured). "
    "Where the compliance is large against the substep (alpha~ = alpha/h_s^2 several times "
    "1/m) rho is small and X is well under 1%: the tiers agree, as the scenario says. Where "
    "alpha~ m is of order 1 or less, rho nears 1 and the scenario's \"about the same "
    "stiffness\" does not hold: the low tier is softer by the residual, and more substeps "
    "(alpha~ grows as n_s^2), not more iterations, close it; the rule is stated with that "
    "bound for this reason. A low tier softer than X, as with lambda reset every iteration, "
    "means lambda does not accumulate. In the rigid limit (alpha~ m far under 1) the alpha~ "
    "lambda term a reset drops weighs nothing: lambda kept and reset are one solve there, and "
    "the rule checks that they agree instead. Every section that shows iteration tiers "
    "checks the rule at every compliance it shows, with this one tolerance.\n\n",
    "**The original measurements.** Where a scenario has no closed form it carries numbers "
    "measured with an independent solver when it was first written down. They stand beside "
    "ours in the summary, with the deviation; a row takes the verdict of the check named "
    "beside it, or says \"not checked\" when the original gives no tolerance to test. They "
    "are a trend to compare with, never tuned to; where ours differs, a paragraph of the "
    "section says what the data show.\n\n",
    NULL};

void xr_conclusions(xr_buf *b, const xr_ctx *ctx)
{
    size_t passed, failed, nv, nt, np, nm;
    xr_count_checks(ctx, SIZE_MAX, &passed, &failed);
    xr_count_references(ctx, &nv, &nt, &np, &nm);
    xr_buf_printf(b,
                  "This run made %zu checks: %zu passed and %zu failed. Of %zu numbers of the "
                  "original measurements, %zu are tested by a check (%zu passed) and %zu are "
                  "shown beside ours without one; %zu reference items are not reproduced "
                  "(each listed, with the reason, at the end of the summary).\n\n",
                  passed + failed, passed, failed, nv, nt, np, nv - nt, nm);
    xr_buf_printf(
        b,
        "**What holds.** Where a scenario has a closed form, the library reaches it to the "
        "tolerance its error model gives: S0's printed results bit for bit, the chain's "
        "static stretch at the scheme's fixed point, the explicit chain's stability boundary "
        "against the linearised limit, the contact passes' v' = -e v and mass-ratio shares "
        "exactly, a free fall to the integrator's closed form. Every SIMD path equals the "
        "scalar reference bit for bit. XPBD's stretch is set by the compliance, not by the "
        "substep count, once the solve converges; PBD's stiffness k_s means something "
        "different at every substep and iteration count.\n\n"
        "**Where the solver's convergence decides.** Iterations are a quality tier only where "
        "a substep's solve converges in a few of them (alpha~ large against 1/m): there 4 and "
        "10 iterations give the same stiffness. Where alpha~ m is of order 1 or smaller, the "
        "4-iteration tier is softer by its unconverged residual, and substeps (alpha~ grows as "
        "n_s^2), not iterations, close the gap. The iteration-tier rule is stated once, with "
        "one tolerance derived from the measured contraction, and checked at every compliance "
        "the report shows.\n\n"
        "**Limitations.** The original measurements are compared as a trend: where their "
        "settings (damping, slop, bookkeeping, when a value was read) are not given, ours are "
        "shown beside them and not checked, and a difference is described, not explained "
        "away. PBD and XPBD damp numerically (a position-based step removes energy a "
        "symplectic integrator would keep); no section measures that damping on its own, so "
        "the decay of an oscillation is shown, not predicted. Showcases that do not converge "
        "at their settings say so. Speeds are ratios measured in the same run on one "
        "machine (see the provenance), shared with other work; absolute times are not "
        "claimed. Only the instruction-set paths this CPU supports ran.\n\n");
}

const char *const xr_references =
    "1. M. Macklin, M. Müller, N. Chentanez. *XPBD: Position-Based Simulation of Compliant "
    "Constrained Dynamics.* Proceedings of Motion in Games (MIG '16), ACM, 2016, pp. 49-54. "
    "doi:10.1145/2994258.2994272\n"
    "2. M. Macklin, K. Storey, M. Lu, P. Terdiman, N. Chentanez, S. Jeschke, M. Müller. "
    "*Small Steps in Physics Simulation.* Proceedings of the ACM SIGGRAPH/Eurographics "
    "Symposium on Computer Animation (SCA '19), ACM, 2019. doi:10.1145/3309486.3340247\n"
    "3. M. Müller, B. Heidelberger, M. Hennix, J. Ratcliff. *Position Based Dynamics.* "
    "Journal of Visual Communication and Image Representation 18(2), 2007, pp. 109-118. "
    "doi:10.1016/j.jvcir.2007.01.005\n"
    "4. J. Bender, M. Müller, M. A. Otaduy, M. Teschner, M. Macklin. *A Survey on "
    "Position-Based Simulation Methods in Computer Graphics.* Computer Graphics Forum 33(6), "
    "2014, pp. 228-251. doi:10.1111/cgf.12346\n\n";

const char *const xr_appendix_intro =
    "Every check of the report, section by section. *ours* is the measured value, "
    "*reference* the closed form, exact result or bound it is compared with, *tolerance* "
    "the kind and size of the comparison, *tolerance from* the error model the tolerance "
    "was derived from (see How to read this), and *verdict* the comparison's result, "
    "computed by the report. The same rows are in `data/checks.tsv`.\n\n";
