/* SPDX-License-Identifier: MIT */
/* Section simd_agreement: every kernel of every supported SIMD path, in
 * float and double, against the scalar reference after a multi-step run on a
 * jittered cloth with random inverse masses and compliances. To isolate one
 * kernel, a step runs a small pipeline (the kernel's natural neighbours:
 * predict, constraint passes, velocity update, reductions) in which only the
 * kernel under test comes from the SIMD table and every other stage from the
 * scalar one; the reference world runs the same pipeline all scalar. The
 * whole step driver is compared too (xpbd_step with cfg.isa). Expected:
 * zero differing bits (DESIGN: "bitwise agreement").
 *
 * The float and double versions of the agreement code are one template:
 * this file includes itself (by name) twice with SA_TEMPLATE defined (R = float, then
 * R = double), so both precisions run literally the same source. */
#ifndef SA_TEMPLATE

#include "report.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SA_STEPS 30 /* steps per pipeline run */
#define SA_ITERS 3  /* constraint passes per step */
#define SA_NX 24    /* cloth size: 24 x 17 particles, shear links, ~1000 constraints */
#define SA_NY 17
#define SA_NRED 5 /* reductions per step: max residual, kinetic energy, momentum xyz */

/* The kernels compared, in table order; then the step driver per solver. */
enum {
    SA_PREDICT,
    SA_UPDATE_VELOCITY,
    SA_SPRING_INTEGRATE,
    SA_DISTANCE_PBD,
    SA_DISTANCE_XPBD,
    SA_SPRING_FORCES,
    SA_RESIDUAL,
    SA_KINETIC_ENERGY,
    SA_MOMENTUM,
    SA_PACK,
    SA_UNPACK,
    SA_DISTANCE_PBD_PACKED,
    SA_DISTANCE_XPBD_PACKED,
    SA_PREDICT_PACK,
    SA_UNPACK_VELOCITY,
    SA_NKERNELS,
    SA_STEP_XPBD = SA_NKERNELS,
    SA_STEP_PBD,
    SA_STEP_SPRINGS,
    SA_NROWS
};

static const char *const sa_names[SA_NROWS] = {
    [SA_PREDICT] = "predict",
    [SA_UPDATE_VELOCITY] = "update_velocity",
    [SA_SPRING_INTEGRATE] = "spring_integrate",
    [SA_DISTANCE_PBD] = "distance_pbd",
    [SA_DISTANCE_XPBD] = "distance_xpbd",
    [SA_SPRING_FORCES] = "spring_forces",
    [SA_RESIDUAL] = "residual",
    [SA_KINETIC_ENERGY] = "kinetic_energy",
    [SA_MOMENTUM] = "momentum",
    [SA_PACK] = "pack",
    [SA_UNPACK] = "unpack",
    [SA_DISTANCE_PBD_PACKED] = "distance_pbd_packed",
    [SA_DISTANCE_XPBD_PACKED] = "distance_xpbd_packed",
    [SA_PREDICT_PACK] = "predict_pack",
    [SA_UNPACK_VELOCITY] = "unpack_velocity",
    [SA_STEP_XPBD] = "step_xpbd",
    [SA_STEP_PBD] = "step_pbd",
    [SA_STEP_SPRINGS] = "step_springs"};

/* 1 for the kernels of the packed pipeline (the positions solved on the
 * packed copy q, as the step driver does). */
static int sa_packed(int k)
{
    return k == SA_PACK || k == SA_UNPACK || k == SA_DISTANCE_PBD_PACKED ||
           k == SA_DISTANCE_XPBD_PACKED || k == SA_PREDICT_PACK || k == SA_UNPACK_VELOCITY;
}

typedef struct sa_result {
    size_t compared, differing;
    double max_diff, max_abs;
    int returns_differ; /* skip counts or step statuses differ */
    int error;          /* setup or step failed */
} sa_result;

static uint64_t sa_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

static double sa_uniform(uint64_t *s)
{
    return (double)sa_next(s) * (1.0 / 9007199254740992.0);
}

static void sa_compare(sa_result *r, const void *a, const void *b, size_t n, int f64)
{
    for (size_t i = 0; i < n; ++i) {
        double x, y;
        int same;
        if (f64) {
            x = ((const double *)a)[i];
            y = ((const double *)b)[i];
            same = memcmp(&x, &y, sizeof x) == 0;
        } else {
            const float xf = ((const float *)a)[i], yf = ((const float *)b)[i];
            same = memcmp(&xf, &yf, sizeof xf) == 0;
            x = xf;
            y = yf;
        }
        r->compared++;
        if (!same) {
            r->differing++;
            const double d = fabs(x - y);
            r->max_diff = isnan(d) ? INFINITY : fmax(r->max_diff, d);
        }
        if (isfinite(x))
            r->max_abs = fmax(r->max_abs, fabs(x));
    }
}

#define SA_TEMPLATE 1
#define XPBD_REAL_F32
#include "precision.h"
#include "simd_agreement.c"
#define XPBD_PRECISION_END
#include "precision.h"
#define XPBD_REAL_F64
#include "precision.h"
#include "simd_agreement.c"
#define XPBD_PRECISION_END
#include "precision.h"
#undef SA_TEMPLATE

static int simd_agreement_run(xr_ctx *ctx)
{
    FILE *f = xr_table_open(ctx, "simd_agreement",
                            "kernel_id\tkernel\tisa_id\tisa\tprecision\tcolumn\tlanes\tsteps\t"
                            "values_compared\tvalues_differing\tmax_abs_diff\tmax_abs_value");
    if (!f)
        return -1;
    int nisa = 0, column = 0;
    xr_md(ctx,
          "Every kernel on every SIMD path this machine supports, float and double, against "
          "the scalar reference: a %d x %d cloth with shear links (jittered positions, random "
          "velocities, inverse masses in [0.5, 2] with pinned particles, random compliances "
          "including 0), %d steps of a pipeline in which only the kernel under test runs on "
          "the SIMD path; every particle array, lambda, residual, force and reduction "
          "compared bit for bit after every step's end state. The step driver rows run "
          "`xpbd_step` on the path (2 substeps, %d iterations, 30 frames).%s\n\n"
          "| path | precision | lanes | values compared | values differing | max \\|diff\\| |\n"
          "|---|---|---|---|---|---|\n",
          SA_NX, SA_NY, SA_STEPS, SA_ITERS,
          xpbd_isa_emulated() ? " SIMD paths run on SIMDe's portable emulation in this build."
                              : "");
    /* Without any SIMD path (a scalar-only build), the scalar path is run
     * against a second scalar run instead: no path to cross-check, but the
     * same pipeline still proves the kernels deterministic (no hidden state,
     * no uninitialised reads). */
    int any_simd = 0;
    for (int isa = 1; isa < XPBD_ISA_COUNT; ++isa)
        any_simd |= xpbd_isa_supported((xpbd_isa)isa);
    xr_tolerance_source(ctx, "DESIGN: every SIMD path equals the scalar reference bit for bit");
    for (int isa = any_simd ? 1 : 0; isa < XPBD_ISA_COUNT; ++isa) {
        if (!xpbd_isa_supported((xpbd_isa)isa) || (isa == 0 && any_simd))
            continue;
        ++nisa;
        for (int f64 = 0; f64 < 2; ++f64) {
            sa_result tot = {0};
            int err = 0;
            for (int k = 0; k < SA_NROWS; ++k) {
                sa_result r = {0};
                if (f64)
                    sa_run_f64((xpbd_isa)isa, k, &r);
                else
                    sa_run_f32((xpbd_isa)isa, k, &r);
                err |= r.error;
                tot.compared += r.compared;
                tot.differing += r.differing;
                tot.max_diff = fmax(tot.max_diff, r.max_diff);
                tot.returns_differ |= r.returns_differ;
                fprintf(f, "%d\t%s\t%d\t%s\t%s\t%d\t%u\t%d\t%zu\t%zu\t%.17g\t%.17g\n", k,
                        sa_names[k], isa, xpbd_isa_name((xpbd_isa)isa), f64 ? "f64" : "f32", column,
                        xpbd_isa_lanes((xpbd_isa)isa, f64), SA_STEPS, r.compared,
                        r.differing + (size_t)(r.error || r.returns_differ), r.max_diff, r.max_abs);
            }
            ++column;
            xr_md(ctx, "| %s | %s | %u | %zu | %zu | %.3g |\n", xpbd_isa_name((xpbd_isa)isa),
                  f64 ? "f64" : "f32", xpbd_isa_lanes((xpbd_isa)isa, f64), tot.compared,
                  tot.differing, tot.max_diff);
            char what[128];
            snprintf(what, sizeof what,
                     isa ? "%s %s: values differing from scalar, %d kernels + 3 step drivers"
                         : "%s %s: values differing between two runs (no SIMD path in this "
                           "build), %d kernels + 3 step drivers",
                     xpbd_isa_name((xpbd_isa)isa), f64 ? "f64" : "f32", SA_NKERNELS);
            xr_check(ctx, what, (double)tot.differing, 0, xr_exact(), NULL);
            snprintf(what, sizeof what, "%s %s: kernel errors and return values differing",
                     xpbd_isa_name((xpbd_isa)isa), f64 ? "f64" : "f32");
            xr_check(ctx, what, (double)(err != 0) + (double)(tot.returns_differ != 0), 0,
                     xr_exact(), NULL);
            snprintf(what, sizeof what, "%s %s: values compared", xpbd_isa_name((xpbd_isa)isa),
                     f64 ? "f64" : "f32");
            xr_check(ctx, what, (double)tot.compared, NAN, xr_at_least(1), NULL);
            xr_progress(ctx, "paths", column, 2 * (XPBD_ISA_COUNT - 1));
        }
    }
    xr_table_close(f);
    if (!any_simd)
        xr_md(ctx, "\nNo SIMD path is compiled in or supported here: the scalar path is "
                   "compared with a second scalar run (determinism), not with another path.\n");
    if (nisa == 0)
        return -1;
    xr_md(ctx, "\nPer kernel: `data/simd_agreement.tsv`.\n\n");
    char cap[1600];
    snprintf(cap, sizeof cap,
             "DESIGN (bitwise agreement): number of values that differ from the scalar reference "
             "after %d steps, per kernel (and step driver) x SIMD path x precision, on a "
             "jittered %d x %d cloth. Every cell is expected to be exactly 0 (green); a red cell "
             "gives the count and the max |difference|.",
             SA_STEPS, SA_NX, SA_NY);
    xr_figure(ctx, "simd_agreement", cap);
    return 0;
}

const xr_section xr_section_simd_agreement = {
    .name = "simd_agreement",
    .title = "Every kernel x ISA x precision: max |difference| from the scalar reference (expected 0)",
    .scenario = "",
    .figures = XR_FIGURES("simd_agreement"),
    .tables = XR_TABLES({"simd_agreement", "max |difference| per kernel x ISA x precision"}),
    .run = simd_agreement_run};

#else /* SA_TEMPLATE: the agreement runs for R = float / double */

#define SA_W SFX(xs_world)
#define SA_P SFX(xpbd_particles)
#define SA_DS SFX(xpbd_distance_set)
#define SA_KT SFX(xpbd_kernels)

/* A cloth with every field randomised (same draws for both worlds).
 * springs != 0 keeps every compliance > 0 (springs divide by it). */
static int SFX(sa_scene)(SA_W *w, int springs)
{
    if (SFX(xs_cloth)(w, SA_NX, SA_NY, (R)0.1, (R)1e-4, 1, 0) != XPBD_OK)
        return -1;
    uint64_t s = 42;
    const size_t n = w->p.count;
    for (size_t i = 0; i < n; ++i) {
        w->p.x[i] += (R)(0.04 * (sa_uniform(&s) - 0.5));
        w->p.y[i] += (R)(0.04 * (sa_uniform(&s) - 0.5));
        w->p.z[i] += (R)(0.04 * (sa_uniform(&s) - 0.5));
        w->p.vx[i] = (R)(sa_uniform(&s) - 0.5);
        w->p.vy[i] = (R)(sa_uniform(&s) - 0.5);
        w->p.vz[i] = (R)(sa_uniform(&s) - 0.5);
        w->p.w[i] = (R)(0.5 + 1.5 * sa_uniform(&s));
        if (sa_next(&s) % 16 == 0)
            w->p.w[i] = 0;
    }
    w->p.w[0] = 0;
    w->p.w[SA_NX - 1] = 0;
    for (uint32_t k = 0; k < w->set.slots; ++k) {
        if (w->set.source[k] == XPBD_PAD)
            continue;
        const double u = sa_uniform(&s);
        w->set.compliance[k] = springs   ? (R)(1e-3 + 1e-2 * u)
                               : u < 0.2 ? (R)0
                                         : (R)(1e-6 * pow(10.0, 3.0 * u));
    }
    return 0;
}

/* One pipeline step of kernel k; t[] holds the table of every stage (the
 * SIMD one only at stage k). red receives the SA_NRED reductions. */
static uint64_t SFX(sa_step)(int k, const SA_KT *const t[SA_NKERNELS], SA_P *p, SA_DS *c, R *fx,
                             R *fy, R *fz, R *resid, R *red, R *q)
{
    const R h = (R)(1.0 / 120.0), g = (R)-9.81;
    uint64_t ret = 0;
    const size_t n = p->count;
    const uint32_t slots = c->slots;
    if (k == SA_SPRING_FORCES || k == SA_SPRING_INTEGRATE) {
        memset(fx, 0, n * sizeof *fx);
        memset(fy, 0, n * sizeof *fy);
        memset(fz, 0, n * sizeof *fz);
        for (uint32_t col = 0; col < c->colours; ++col)
            ret += t[SA_SPRING_FORCES]->spring_forces(
                p, c, fx, fy, fz, col, 0, xpbd_colour_batches(c->colour_begin, col), (R)0.3);
        ret += SFX(xpbd_serial_spring_forces)(p, c, fx, fy, fz, c->overflow_begin, slots, (R)0.3);
        /* keep the forces for comparison: integrate consumes them */
        memcpy(resid, fx, n * sizeof *fx);
        memcpy(resid + n, fy, n * sizeof *fy);
        memcpy(resid + 2 * n, fz, n * sizeof *fz);
        t[SA_SPRING_INTEGRATE]->spring_integrate(p, fx, fy, fz, 0, n, h, 0, g, 0);
        return ret;
    }
    if (sa_packed(k)) {
        /* the step driver's order: predict and pack, solve on q, unpack
         * and update the velocities; residual and reductions as below */
        if (k == SA_PREDICT_PACK) {
            t[SA_PREDICT_PACK]->predict_pack(p, q, 0, n, h, 0, g, 0);
        } else {
            t[SA_PREDICT]->predict(p, 0, n, h, 0, g, 0);
            t[SA_PACK]->pack(p, q, 0, n);
        }
        memset(c->lambda, 0, slots * sizeof *c->lambda);
        const int pbd = k == SA_DISTANCE_PBD_PACKED;
        for (int it = 0; it < SA_ITERS; ++it) {
            for (uint32_t col = 0; col < c->colours; ++col) {
                const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
                ret += pbd ? t[SA_DISTANCE_PBD_PACKED]->distance_pbd_packed(q, c, col, 0, nb, (R)0.7)
                           : t[SA_DISTANCE_XPBD_PACKED]->distance_xpbd_packed(q, c, col, 0, nb, h);
            }
            ret += pbd ? SFX(xpbd_serial_distance_pbd_packed)(q, c, c->overflow_begin, slots, (R)0.7)
                       : SFX(xpbd_serial_distance_xpbd_packed)(q, c, c->overflow_begin, slots, h);
        }
        if (k == SA_UNPACK_VELOCITY) {
            t[SA_UNPACK_VELOCITY]->unpack_velocity(q, p, 0, n, h, (R)0.98);
        } else {
            t[SA_UNPACK]->unpack(q, p, 0, n);
            t[SA_UPDATE_VELOCITY]->update_velocity(p, 0, n, h, (R)0.98);
        }
        R m = 0;
        for (uint32_t col = 0; col < c->colours; ++col) {
            const R r = t[SA_RESIDUAL]->residual(
                p, c, col, 0, xpbd_colour_batches(c->colour_begin, col), h, resid);
            m = r > m ? r : m;
        }
        red[0] = m;
        red[1] = t[SA_KINETIC_ENERGY]->kinetic_energy(p, 0, n);
        t[SA_MOMENTUM]->momentum(p, 0, n, red + 2);
        return ret;
    }
    t[SA_PREDICT]->predict(p, 0, n, h, 0, g, 0);
    memset(c->lambda, 0, slots * sizeof *c->lambda);
    for (int it = 0; it < SA_ITERS; ++it) {
        for (uint32_t col = 0; col < c->colours; ++col) {
            const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
            ret += k == SA_DISTANCE_PBD ? t[SA_DISTANCE_PBD]->distance_pbd(p, c, col, 0, nb, (R)0.7)
                                        : t[SA_DISTANCE_XPBD]->distance_xpbd(p, c, col, 0, nb, h);
        }
        ret += k == SA_DISTANCE_PBD
                   ? SFX(xpbd_serial_distance_pbd)(p, c, c->overflow_begin, slots, (R)0.7)
                   : SFX(xpbd_serial_distance_xpbd)(p, c, c->overflow_begin, slots, h);
    }
    R m = 0;
    for (uint32_t col = 0; col < c->colours; ++col) {
        const R r = t[SA_RESIDUAL]->residual(p, c, col, 0,
                                             xpbd_colour_batches(c->colour_begin, col), h, resid);
        m = r > m ? r : m;
    }
    red[0] = m;
    t[SA_UPDATE_VELOCITY]->update_velocity(p, 0, n, h, (R)0.98);
    red[1] = t[SA_KINETIC_ENERGY]->kinetic_energy(p, 0, n);
    t[SA_MOMENTUM]->momentum(p, 0, n, red + 2);
    return ret;
}

/* Runs kernel (or step driver) k on path isa and on scalar, compares. */
static void SFX(sa_run)(xpbd_isa isa, int k, sa_result *r)
{
    const SA_KT *simd = SFX(xpbd_kernels_get)(isa);
    const SA_KT *ref = SFX(xpbd_kernels_get)(XPBD_ISA_SCALAR);
    if (!simd || !ref) {
        r->error = 1;
        return;
    }
    const int springs = k == SA_SPRING_FORCES || k == SA_SPRING_INTEGRATE || k == SA_STEP_SPRINGS;
    SA_W a, b;
    if (SFX(sa_scene)(&a, springs) != 0) {
        r->error = 1;
        return;
    }
    if (SFX(sa_scene)(&b, springs) != 0) {
        SFX(xs_world_free)(&a);
        r->error = 1;
        return;
    }
    const size_t n = a.p.count;
    /* residual per slot, or the three force arrays of the spring pipeline */
    const size_t nres = a.set.slots > 3 * n ? a.set.slots : 3 * n;
    R *buf = calloc(2 * (3 * n + nres + SA_NRED * SA_STEPS + 4 * n), sizeof(R));
    if (!buf) {
        SFX(xs_world_free)(&a);
        SFX(xs_world_free)(&b);
        r->error = 1;
        return;
    }
    R *fa = buf, *ra = fa + 3 * n, *reda = ra + nres;
    R *fb = reda + SA_NRED * SA_STEPS, *rb = fb + 3 * n, *redb = rb + nres;
    R *qa = redb + SA_NRED * SA_STEPS, *qb = qa + 4 * n; /* packed copies */

    if (k >= SA_NKERNELS) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.substeps = 2;
        cfg.iterations = SA_ITERS;
        cfg.damping = 0.01;
        cfg.solver = k == SA_STEP_XPBD  ? XPBD_SOLVER_XPBD
                     : k == SA_STEP_PBD ? XPBD_SOLVER_PBD
                                        : XPBD_SOLVER_SPRINGS;
        cfg.pbd_stiffness = 0.7;
        cfg.spring_damping = 0.3;
        xpbd_step_config ci = cfg;
        ci.isa = isa;
        cfg.isa = XPBD_ISA_SCALAR;
        xpbd_step_counters ca, cb;
        for (int s = 0; s < SA_STEPS; ++s) {
            const xpbd_status sa =
                SFX(xpbd_step)(&ci, 1.0 / 60.0, &a.p, &a.set, a.scratch, a.scratch_bytes, &ca);
            const xpbd_status sb =
                SFX(xpbd_step)(&cfg, 1.0 / 60.0, &b.p, &b.set, b.scratch, b.scratch_bytes, &cb);
            if (sa != sb || ca.skipped != cb.skipped)
                r->returns_differ = 1;
            /* the residual is a reduction: compare it as a value */
            reda[s] = (R)ca.max_residual;
            redb[s] = (R)cb.max_residual;
            if (sa != XPBD_OK && sa != XPBD_ERR_DIVERGED)
                r->error = 1;
        }
        sa_compare(r, reda, redb, SA_STEPS, R_F64);
    } else {
        const SA_KT *ta[SA_NKERNELS], *tb[SA_NKERNELS];
        for (int i = 0; i < SA_NKERNELS; ++i) {
            ta[i] = i == k ? simd : ref;
            tb[i] = ref;
        }
        for (int s = 0; s < SA_STEPS; ++s) {
            const uint64_t xa =
                SFX(sa_step)(k, ta, &a.p, &a.set, fa, fa + n, fa + 2 * n, ra, reda + SA_NRED * s, qa);
            const uint64_t xb =
                SFX(sa_step)(k, tb, &b.p, &b.set, fb, fb + n, fb + 2 * n, rb, redb + SA_NRED * s, qb);
            if (xa != xb)
                r->returns_differ = 1;
        }
        sa_compare(r, ra, rb, nres, R_F64);
        sa_compare(r, reda, redb, SA_NRED * SA_STEPS, R_F64);
        if (sa_packed(k))
            sa_compare(r, qa, qb, 4 * n, R_F64);
    }
    R *const arr_a[9] = {a.p.x, a.p.y, a.p.z, a.p.px, a.p.py, a.p.pz, a.p.vx, a.p.vy, a.p.vz};
    R *const arr_b[9] = {b.p.x, b.p.y, b.p.z, b.p.px, b.p.py, b.p.pz, b.p.vx, b.p.vy, b.p.vz};
    for (int i = 0; i < 9; ++i)
        sa_compare(r, arr_a[i], arr_b[i], n, R_F64);
    sa_compare(r, a.set.lambda, b.set.lambda, a.set.slots, R_F64);
    free(buf);
    SFX(xs_world_free)(&a);
    SFX(xs_world_free)(&b);
}

#undef SA_W
#undef SA_P
#undef SA_DS
#undef SA_KT

#endif /* SA_TEMPLATE */

