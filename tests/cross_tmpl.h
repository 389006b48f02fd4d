/* SPDX-License-Identifier: MIT */
/* Cross-check of one precision: the ISA under test against the scalar
 * reference; a template over the precision (precision.h).
 *
 * Both paths get bitwise copies of the same cloud and of the same set (built
 * twice from the same input), walk the same colours in the same order, and
 * after every kernel call every particle array, force array, lambda, residual
 * array and return value is compared with memcmp. */

#include "precision.h"

#define CL SFX(xt_cloud)
#define DSET SFX(xpbd_distance_set)
#define KT SFX(xpbd_kernels)
#define SAMER(a, b, n, what) SFX(xt_same)((a), (b), (n), (what), __FILE__, __LINE__)
#define SAMECL(a, b, what) SFX(xt_cloud_same)((a), (b), (what), __FILE__, __LINE__)
#define FN(n) SFX(n)
#if R_F64
#  define XT_TAB xt_k64
#  define XT_REF xt_ref64
#else
#  define XT_TAB xt_k32
#  define XT_REF xt_ref32
#endif
/* the step's private rows (step_kernels.h) of the path under test and of
 * the reference */
#define XT_STEP SFX(xpbd__step_kernels_get)(xt_isa)
#define XT_STEP_REF SFX(xpbd__step_kernels_get)(XPBD_ISA_SCALAR)

/* ------------------------------------------------------------- cases --- */

typedef struct FN(xcase) {
    xt_graph_kind kind;
    size_t coincident, static_pairs;
    uint32_t max_colours;
    const char *name;
    int runs; /* xpbd_colouring_options.runs */
} FN(xcase);

static const FN(xcase) FN(xcases)[] = {
    {XT_MATCHING, 0, 0, 0, "matching", 0},
    {XT_MATCHING, 3, 2, 0, "matching+coincident+static", 0},
    {XT_RANDOM, 3, 2, 0, "random+coincident+static", 0},
    {XT_RANDOM, 0, 0, 2, "random, max_colours 2 (overflow)", 0},
    {XT_STAR, 0, 0, 64, "star, max_colours 64", 0},
    {XT_DENSE, 2, 1, 0, "dense+coincident+static", 0},
    {XT_DENSE, 0, 0, 2, "dense, max_colours 2 (overflow)", 0},
    {XT_GRID, 2, 1, 0, "grid+coincident+static", 0},
    {XT_GRID, 2, 1, 0, "grid+coincident+static, runs", 1},
    {XT_NEAR_RUNS, 0, 0, 0, "near runs", 0},
};
#define FN_NCASES (sizeof FN(xcases) / sizeof FN(xcases)[0])

/* Every case carries both sets (one per path), both clouds and a label. */
typedef struct FN(xrun) {
    xt_graph g;
    DSET ca, cb;
    CL a, b;
    char label[128];
} FN(xrun);

static int FN(xrun_init)(FN(xrun) *r, const FN(xcase) *c, size_t size, uint64_t seed,
                         double soften)
{
    memset(r, 0, sizeof *r);
    xt_rng rng = {seed};
    xt_graph_make(&r->g, &rng, c->kind, size, c->coincident, c->static_pairs);
    if (soften > 0)
        for (size_t k = 0; k < r->g.count; ++k)
            if (r->g.compliance[k] < soften)
                r->g.compliance[k] = soften;
    snprintf(r->label, sizeof r->label, "%s, size %zu, %s", R_F64 ? "f64" : "f32", size,
             c->name);
    const xpbd_colouring_options opt = {.max_colours = c->max_colours, .runs = c->runs};
    if (SFX(xt_graph_build)(&r->g, &opt, &r->ca) != XPBD_OK ||
        SFX(xt_graph_build)(&r->g, &opt, &r->cb) != XPBD_OK) {
        if (xt_fail_begin(__FILE__, __LINE__))
            fprintf(stderr, "%s: build failed\n", r->label);
        return 0;
    }
    if (!SFX(xt_cloud_alloc)(&r->a, r->g.particles) ||
        !SFX(xt_cloud_alloc)(&r->b, r->g.particles))
        return 0;
    SFX(xt_cloud_random)(&r->a, &rng, 0.15, &r->g);
    SFX(xt_cloud_copy)(&r->b, &r->a);
    /* the builder is deterministic: both layouts are the same */
    SAME_U32(r->ca.i0, r->cb.i0, r->ca.slots, r->label);
    SAME_U32(r->ca.source, r->cb.source, r->ca.slots, r->label);
    return 1;
}

static void FN(xrun_free)(FN(xrun) *r)
{
    SFX(xpbd_distance_set_free)(&r->ca);
    SFX(xpbd_distance_set_free)(&r->cb);
    SFX(xt_cloud_free)(&r->a);
    SFX(xt_cloud_free)(&r->b);
    xt_graph_free(&r->g);
}

/* Sizes: 0, 1, lanes-1, lanes, lanes+1 (the ISA's lanes in both
 * precisions), 16, 17 and a few thousand, without duplicates. */
static size_t FN(sizes)(size_t out[16])
{
    const size_t cand[] = {0,
                           1,
                           xt_k32->lanes - 1,
                           xt_k32->lanes,
                           xt_k32->lanes + 1,
                           xt_k64->lanes - 1,
                           xt_k64->lanes,
                           xt_k64->lanes + 1,
                           16,
                           17,
                           33,
                           3000};
    size_t n = 0;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; ++i) {
        int dup = 0;
        for (size_t j = 0; j < n; ++j)
            dup |= out[j] == cand[i];
        if (!dup)
            out[n++] = cand[i];
    }
    return n;
}

static int FN(same_set)(const DSET *a, const DSET *b, const char *what)
{
    int ok = SAMER(a->lambda, b->lambda, a->slots, what);
    ok &= SAMER(a->rest, b->rest, a->slots, what);
    return ok;
}

/* Fills a residual out array with a sentinel no kernel produces. */
static void FN(poison)(R *out, size_t n)
{
    for (size_t s = 0; s < n; ++s)
        out[s] = (R)12345.0;
}

/* ----------------------------------------------------- particle kernels --- */

/* predict, update_velocity, spring_integrate, kinetic_energy, momentum on
 * every size, whole ranges and an unaligned sub-range, plus a check of the
 * reductions against a plain double sum. */
static void FN(cross_particles)(void)
{
    const KT *T = XT_TAB, *S = XT_REF;
    size_t sizes[16];
    const size_t ns = FN(sizes)(sizes);
    const R h = (R)(1.0 / 240.0), gx = (R)0.5, gy = (R)-9.81, gz = (R)0.25;
    for (size_t si = 0; si < ns; ++si) {
        const size_t n = sizes[si];
        CL a, b;
        REQUIRE(SFX(xt_cloud_alloc)(&a, n) && SFX(xt_cloud_alloc)(&b, n));
        xt_rng rng = {0xc105ull + n};
        char what[96];
        /* each kernel starts from a fresh random cloud; begins 0 (aligned)
         * and, when there is room, 1 and 3 (unaligned) */
        for (size_t begin = 0; begin <= 3; begin += (begin == 0 ? 1 : 2)) {
            if (begin > n)
                break;
            const size_t end = n - (n > begin + 2 ? 1 : 0);
            for (int kernel = 0; kernel < 5; ++kernel) {
                SFX(xt_cloud_random)(&a, &rng, 0.2, NULL);
                if (n > 2) {
                    a.p.vx[1] = (R)-0.0; /* signed zeros pass through */
                    a.p.vy[2] = (R)0.0;
                    a.p.w[2] = 0;
                }
                SFX(xt_cloud_copy)(&b, &a);
                snprintf(what, sizeof what, "%s n=%zu [%zu,%zu) kernel %d", R_F64 ? "f64" : "f32",
                         n, begin, end, kernel);
                switch (kernel) {
                case 0:
                    T->predict(&a.p, begin, end, h, gx, gy, gz);
                    S->predict(&b.p, begin, end, h, gx, gy, gz);
                    break;
                case 1:
                    T->update_velocity(&a.p, begin, end, h, (R)0.98);
                    S->update_velocity(&b.p, begin, end, h, (R)0.98);
                    break;
                case 2:
                    T->spring_integrate(&a.p, a.fx, a.fy, a.fz, begin, end, h, gx, gy, gz);
                    S->spring_integrate(&b.p, b.fx, b.fy, b.fz, begin, end, h, gx, gy, gz);
                    break;
                case 3: {
                    const R ea = T->kinetic_energy(&a.p, begin, end);
                    const R eb = S->kinetic_energy(&b.p, begin, end);
                    SAMER(&ea, &eb, 1, what);
                    double want = 0;
                    for (size_t i = begin; i < end; ++i)
                        if (b.p.w[i] > 0)
                            want += ((double)b.p.vx[i] * b.p.vx[i] +
                                     (double)b.p.vy[i] * b.p.vy[i] +
                                     (double)b.p.vz[i] * b.p.vz[i]) /
                                    b.p.w[i];
                    want *= 0.5;
                    ENSURE_NEAR(eb, want, R_EPS * 256 * (want + 1));
                    break;
                }
                case 4: {
                    R ma[3], mb[3];
                    T->momentum(&a.p, begin, end, ma);
                    S->momentum(&b.p, begin, end, mb);
                    SAMER(ma, mb, 3, what);
                    double want[3] = {0, 0, 0}, scale = 1;
                    for (size_t i = begin; i < end; ++i)
                        if (b.p.w[i] > 0) {
                            want[0] += (double)b.p.vx[i] / b.p.w[i];
                            want[1] += (double)b.p.vy[i] / b.p.w[i];
                            want[2] += (double)b.p.vz[i] / b.p.w[i];
                            scale += 10.0 / b.p.w[i];
                        }
                    for (int d = 0; d < 3; ++d)
                        ENSURE_NEAR(mb[d], want[d], R_EPS * 32 * scale);
                    break;
                }
                }
                SAMECL(&a, &b, what);
            }
        }
        /* predict really moved things: x - px == v*h for a dynamic particle */
        if (n > 3) {
            SFX(xt_cloud_random)(&a, &rng, 0.0, NULL);
            const R v = a.p.vy[3] + gy * h, x = a.p.y[3];
            T->predict(&a.p, 0, n, h, gx, gy, gz);
            ENSURE_BITS_F64((double)a.p.vy[3], (double)v);
            ENSURE_BITS_F64((double)a.p.y[3], (double)(R)(x + v * h));
        }
        SFX(xt_cloud_free)(&a);
        SFX(xt_cloud_free)(&b);
    }
}

/* ---------------------------------------------------- constraint kernels --- */

enum { FN(XPBD), FN(PBD), FN(SPRINGS) };

/* One colour sweep of kernel `which` on both paths, then the overflow range
 * with the serial reference (as the step driver does). Returns skipped. */
static uint32_t FN(sweep)(FN(xrun) *r, int which, R h, R k, const char *what)
{
    const KT *T = XT_TAB, *S = XT_REF;
    uint32_t total = 0;
    char label[200];
    for (uint32_t col = 0; col < r->ca.colours; ++col) {
        const uint32_t nb = xpbd_colour_batches(r->ca.colour_begin, col);
        uint32_t sa = 0, sb = 0;
        switch (which) {
        case FN(XPBD):
            sa = T->distance_xpbd(&r->a.p, &r->ca, col, 0, nb, h);
            sb = S->distance_xpbd(&r->b.p, &r->cb, col, 0, nb, h);
            break;
        case FN(PBD):
            sa = T->distance_pbd(&r->a.p, &r->ca, col, 0, nb, k);
            sb = S->distance_pbd(&r->b.p, &r->cb, col, 0, nb, k);
            break;
        default:
            sa = T->spring_forces(&r->a.p, &r->ca, r->a.fx, r->a.fy, r->a.fz, col, 0, nb, k);
            sb = S->spring_forces(&r->b.p, &r->cb, r->b.fx, r->b.fy, r->b.fz, col, 0, nb, k);
            break;
        }
        snprintf(label, sizeof label, "%s: %s colour %u", r->label, what, (unsigned)col);
        ENSURE_INT(sa, sb);
        SAMECL(&r->a, &r->b, label);
        FN(same_set)(&r->ca, &r->cb, label);
        total += sb;
    }
    const uint32_t o0 = r->ca.overflow_begin, o1 = r->ca.slots;
    uint32_t sa = 0, sb = 0;
    switch (which) {
    case FN(XPBD):
        sa = SFX(xpbd_serial_distance_xpbd)(&r->a.p, &r->ca, o0, o1, h);
        sb = SFX(xpbd_serial_distance_xpbd)(&r->b.p, &r->cb, o0, o1, h);
        break;
    case FN(PBD):
        sa = SFX(xpbd_serial_distance_pbd)(&r->a.p, &r->ca, o0, o1, k);
        sb = SFX(xpbd_serial_distance_pbd)(&r->b.p, &r->cb, o0, o1, k);
        break;
    default:
        sa = SFX(xpbd_serial_spring_forces)(&r->a.p, &r->ca, r->a.fx, r->a.fy, r->a.fz, o0, o1,
                                               k);
        sb = SFX(xpbd_serial_spring_forces)(&r->b.p, &r->cb, r->b.fx, r->b.fy, r->b.fz, o0, o1,
                                               k);
        break;
    }
    snprintf(label, sizeof label, "%s: %s overflow", r->label, what);
    ENSURE_INT(sa, sb);
    SAMECL(&r->a, &r->b, label);
    FN(same_set)(&r->ca, &r->cb, label);
    return total + sb;
}

/* The residual kernel with its out[] array over every colour, then the
 * overflow; the maxima and the arrays must agree bitwise, every slot must be
 * written, and padding slots and skipped constraints must read 0. */
static void FN(residuals)(FN(xrun) *r, R h)
{
    const KT *T = XT_TAB, *S = XT_REF;
    const size_t slots = r->ca.slots;
    R *oa = malloc((slots + 1) * sizeof *oa), *ob = malloc((slots + 1) * sizeof *ob);
    if (!oa || !ob) {
        free(oa);
        free(ob);
        ENSURE(!"out of memory");
        return;
    }
    FN(poison)(oa, slots);
    FN(poison)(ob, slots);
    char label[200];
    for (uint32_t col = 0; col < r->ca.colours; ++col) {
        const uint32_t nb = xpbd_colour_batches(r->ca.colour_begin, col);
        const R ra = T->residual(&r->a.p, &r->ca, col, 0, nb, h, oa);
        const R rb = S->residual(&r->b.p, &r->cb, col, 0, nb, h, ob);
        snprintf(label, sizeof label, "%s: residual max, colour %u", r->label, (unsigned)col);
        SAMER(&ra, &rb, 1, label);
        /* the maximum is the maximum of what the array holds */
        R m = 0;
        for (uint32_t s = r->ca.colour_begin[col]; s < r->ca.colour_begin[col + 1]; ++s) {
            const R v = ob[s] < 0 ? -ob[s] : ob[s];
            m = v > m ? v : m;
        }
        SAMER(&rb, &m, 1, label);
        /* and the NULL-out form returns the same maximum */
        const R rn = T->residual(&r->a.p, &r->ca, col, 0, nb, h, NULL);
        SAMER(&rn, &ra, 1, label);
    }
    const R ra = SFX(xpbd_serial_residual)(&r->a.p, &r->ca, r->ca.overflow_begin,
                                                 (uint32_t)slots, h, oa);
    const R rb = SFX(xpbd_serial_residual)(&r->b.p, &r->cb, r->cb.overflow_begin,
                                                 (uint32_t)slots, h, ob);
    snprintf(label, sizeof label, "%s: residual arrays", r->label);
    SAMER(&ra, &rb, 1, label);
    SAMER(oa, ob, slots, label);
    for (size_t s = 0; s < slots; ++s) {
        if (ob[s] == (R)12345.0) {
            ENSURE(!"a residual slot was not written");
            break;
        }
        if (r->cb.source[s] == XPBD_PAD && ob[s] != 0) {
            ENSURE(!"a padding slot has a non-zero residual");
            break;
        }
    }
    /* the dedicated coincident and static pairs report exactly 0 */
    const size_t first = r->g.count - r->g.coincident - r->g.static_pairs;
    for (size_t s = 0; s < slots; ++s)
        if (r->cb.source[s] != XPBD_PAD && r->cb.source[s] >= first)
            ENSURE_BITS_F64((double)ob[s], 0.0);
    free(oa);
    free(ob);
}

static void FN(compare_sums)(FN(xrun) *r, const char *what)
{
    const KT *T = XT_TAB, *S = XT_REF;
    const size_t n = r->a.p.count;
    const R ea = T->kinetic_energy(&r->a.p, 0, n), eb = S->kinetic_energy(&r->b.p, 0, n);
    R ma[3], mb[3];
    T->momentum(&r->a.p, 0, n, ma);
    S->momentum(&r->b.p, 0, n, mb);
    char label[200];
    snprintf(label, sizeof label, "%s: %s kinetic energy / momentum", r->label, what);
    SAMER(&ea, &eb, 1, label);
    SAMER(ma, mb, 3, label);
}

/* Several substeps of: predict, `iterations` sweeps of `which`, residuals,
 * velocity update (or for springs: forces, then integrate). */
static void FN(cross_constraints)(int which)
{
    const KT *T = XT_TAB, *S = XT_REF;
    size_t sizes[16];
    const size_t ns = FN(sizes)(sizes);
    const R h = (R)(which == FN(SPRINGS) ? 1e-3 : 1.0 / 240.0);
    const R gx = 0, gy = (R)-9.81, gz = 0;
    size_t cases = 0;
    for (size_t ci = 0; ci < FN_NCASES; ++ci)
        for (size_t si = 0; si < ns; ++si) {
            FN(xrun) r;
            /* springs need compliance > 0; keep them in [1e-3, ...) so the
             * random tangle stays finite over the substeps */
            if (!FN(xrun_init)(&r, &FN(xcases)[ci], sizes[si], 0xabc000ull + ci * 131 + si,
                               which == FN(SPRINGS) ? 1e-3 : 0)) {
                FN(xrun_free)(&r);
                continue;
            }
            cases++;
            const uint32_t dedicated = (uint32_t)(r.g.coincident + r.g.static_pairs);
            if (which == FN(SPRINGS))
                for (size_t i = 0; i < r.a.p.count; ++i) /* forces start at 0 */
                    r.a.fx[i] = r.a.fy[i] = r.a.fz[i] = r.b.fx[i] = r.b.fy[i] = r.b.fz[i] = 0;
            for (int sub = 0; sub < 3; ++sub) {
                const size_t n = r.a.p.count;
                if (which == FN(SPRINGS)) {
                    /* static pairs keep a spring; coincident pairs skip */
                    const uint32_t sk = FN(sweep)(&r, which, h, (R)0.2, "spring_forces");
                    ENSURE(sk >= (uint32_t)r.g.coincident);
                    T->spring_integrate(&r.a.p, r.a.fx, r.a.fy, r.a.fz, 0, n, h, gx, gy, gz);
                    S->spring_integrate(&r.b.p, r.b.fx, r.b.fy, r.b.fz, 0, n, h, gx, gy, gz);
                    SAMECL(&r.a, &r.b, "spring_integrate");
                } else {
                    T->predict(&r.a.p, 0, n, h, gx, gy, gz);
                    S->predict(&r.b.p, 0, n, h, gx, gy, gz);
                    SAMECL(&r.a, &r.b, "predict");
                    if (r.ca.slots) {
                        memset(r.ca.lambda, 0, r.ca.slots * sizeof(R));
                        memset(r.cb.lambda, 0, r.cb.slots * sizeof(R));
                    }
                    for (int it = 0; it < 4; ++it) {
                        /* PBD alternates k_s = 1 and a fractional stiffness */
                        const R k = (R)(it % 2 ? 0.37 : 1.0);
                        const uint32_t sk = FN(sweep)(&r, which, h, k,
                                                      which == FN(XPBD) ? "distance_xpbd"
                                                                        : "distance_pbd");
                        /* every dedicated pair is skipped in every sweep */
                        ENSURE(sk >= dedicated);
                    }
                    if (which == FN(XPBD))
                        FN(residuals)(&r, h);
                    T->update_velocity(&r.a.p, 0, n, h, (R)0.99);
                    S->update_velocity(&r.b.p, 0, n, h, (R)0.99);
                    SAMECL(&r.a, &r.b, "update_velocity");
                }
                FN(compare_sums)(&r, "substep end");
            }
            if (which != FN(SPRINGS)) {
                /* padding never gets a lambda, and XPBD moved real ones */
                int moved = 0;
                for (uint32_t s = 0; s < r.ca.slots; ++s) {
                    if (r.ca.source[s] == XPBD_PAD)
                        ENSURE_BITS_F64((double)r.ca.lambda[s], 0.0);
                    else if (r.ca.lambda[s] != 0)
                        moved = 1;
                }
                if (which == FN(XPBD) && r.g.count > dedicated)
                    ENSURE(moved);
            }
            FN(xrun_free)(&r);
        }
    ENSURE(cases == FN_NCASES * ns);
}

static void FN(cross_xpbd)(void)
{
    FN(cross_constraints)(FN(XPBD));
}

static void FN(cross_pbd)(void)
{
    FN(cross_constraints)(FN(PBD));
}

static void FN(cross_springs)(void)
{
    FN(cross_constraints)(FN(SPRINGS));
}

/* ------------------------------------------------------ packed kernels --- */

/* pack, distance_xpbd_packed / distance_pbd_packed, unpack: the forced path
 * against the reference on the packed copy (q and lambda after every
 * colour), and the unpacked result against the SoA kernels of the
 * reference ("compute exactly what distance_* do"). */
static void FN(cross_packed)(int pbd)
{
    const KT *T = XT_TAB, *S = XT_REF;
    size_t sizes[16];
    const size_t ns = FN(sizes)(sizes);
    const R h = (R)(1.0 / 240.0);
    size_t cases = 0;
    for (size_t ci = 0; ci < FN_NCASES; ++ci)
        for (size_t si = 0; si < ns; ++si) {
            FN(xrun) r, u; /* r.a forced packed, r.b reference packed, u.b reference SoA */
            const uint64_t seed = 0xfacc00ull + ci * 131 + si;
            if (!FN(xrun_init)(&r, &FN(xcases)[ci], sizes[si], seed, 0) ||
                !FN(xrun_init)(&u, &FN(xcases)[ci], sizes[si], seed, 0)) {
                FN(xrun_free)(&r);
                continue;
            }
            cases++;
            const size_t n = r.a.p.count;
            R *qa = malloc((4 * n + 1) * sizeof *qa), *qb = malloc((4 * n + 1) * sizeof *qb);
            R *held = malloc((r.ca.slots + 1) * sizeof *held);
            REQUIRE(qa && qb && held);
            const uint32_t dedicated = (uint32_t)(r.g.coincident + r.g.static_pairs);
            char label[200];
            for (int sub = 0; sub < 3; ++sub) {
                if (sub % 2 == 1) {
                    T->predict_pack(&r.a.p, qa, 0, n, h, 0, (R)-9.81, 0);
                    S->predict_pack(&r.b.p, qb, 0, n, h, 0, (R)-9.81, 0);
                } else {
                    T->predict(&r.a.p, 0, n, h, 0, (R)-9.81, 0);
                    S->predict(&r.b.p, 0, n, h, 0, (R)-9.81, 0);
                }
                S->predict(&u.b.p, 0, n, h, 0, (R)-9.81, 0);
                if (r.ca.slots) {
                    memset(r.ca.lambda, 0, r.ca.slots * sizeof(R));
                    memset(r.cb.lambda, 0, r.cb.slots * sizeof(R));
                    memset(u.cb.lambda, 0, u.cb.slots * sizeof(R));
                }
                /* odd substeps: the fused predict_pack / unpack_velocity on both
                 * packed runs, against the separate kernels on the SoA run */
                const int fused = sub % 2 == 1;
                if (!fused) {
                    T->pack(&r.a.p, qa, 0, n);
                    S->pack(&r.b.p, qb, 0, n);
                }
                snprintf(label, sizeof label, "%s: pack", r.label);
                SAMER(qa, qb, 4 * n, label);
                for (int it = 0; it < 4; ++it) {
                    const R k = (R)(it % 2 ? 0.37 : 1.0);
                    uint32_t ska = 0, skb = 0, sku = 0;
                    for (uint32_t col = 0; col < r.ca.colours; ++col) {
                        const uint32_t nb = xpbd_colour_batches(r.ca.colour_begin, col);
                        /* the forced path's first XPBD pass takes the colour's
                         * lambdas as 0 (distance_xpbd_packed_first): NaN there
                         * must not matter, and padding left at -0 (a valid
                         * 0) ends +0 as the reset leaves it */
                        if (!pbd && it == 0)
                            for (uint32_t s = r.ca.colour_begin[col];
                                 s < r.ca.colour_begin[col + 1]; ++s)
                                r.ca.lambda[s] =
                                    s < r.ca.colour_begin[col] + r.ca.colour_size[col] ? (R)NAN
                                                                                      : (R)-0.0;
                        /* in the third substep, distance_xpbd_packed_once: the
                         * positions of the first pass, the lambdas untouched
                         * (then the reference's copied in for what follows) */
                        const int once = !pbd && it == 0 && sub == 2;
                        const uint32_t c0 = r.ca.colour_begin[col], c1 = r.ca.colour_begin[col + 1];
                        if (once)
                            memcpy(held + c0, r.ca.lambda + c0, (c1 - c0) * sizeof *held);
                        const uint32_t sa =
                            pbd    ? T->distance_pbd_packed(qa, &r.ca, col, 0, nb, k)
                            : once ? XT_STEP->distance_xpbd_packed_once(qa, &r.ca, col, 0, nb, h)
                            : it == 0 ? XT_STEP->distance_xpbd_packed_first(qa, &r.ca, col, 0, nb, h)
                                      : T->distance_xpbd_packed(qa, &r.ca, col, 0, nb, h);
                        const uint32_t sb = pbd ? S->distance_pbd_packed(qb, &r.cb, col, 0, nb, k)
                                                : S->distance_xpbd_packed(qb, &r.cb, col, 0, nb, h);
                        const uint32_t su = pbd ? S->distance_pbd(&u.b.p, &u.cb, col, 0, nb, k)
                                                : S->distance_xpbd(&u.b.p, &u.cb, col, 0, nb, h);
                        snprintf(label, sizeof label, "%s: %s colour %u", r.label,
                                 pbd ? "distance_pbd_packed" : "distance_xpbd_packed",
                                 (unsigned)col);
                        ENSURE_INT(sa, sb);
                        ENSURE_INT(sa, su);
                        SAMER(qa, qb, 4 * n, label);
                        if (once) {
                            snprintf(label, sizeof label,
                                     "%s: colour %u distance_xpbd_packed_once keeps lambdas",
                                     r.label, (unsigned)col);
                            SAMER(r.ca.lambda + c0, held + c0, c1 - c0, label);
                            memcpy(r.ca.lambda + c0, r.cb.lambda + c0,
                                   (c1 - c0) * sizeof *held);
                        }
                        SAMER(r.ca.lambda, r.cb.lambda, r.ca.slots, label);
                        SAMER(r.ca.lambda, u.cb.lambda, r.ca.slots, label);
                        ska += sa;
                        skb += sb;
                        sku += su;
                    }
                    const uint32_t o0 = r.ca.overflow_begin, o1 = r.ca.slots;
                    ska += pbd ? SFX(xpbd_serial_distance_pbd_packed)(qa, &r.ca, o0, o1, k)
                               : SFX(xpbd_serial_distance_xpbd_packed)(qa, &r.ca, o0, o1, h);
                    skb += pbd ? SFX(xpbd_serial_distance_pbd_packed)(qb, &r.cb, o0, o1, k)
                               : SFX(xpbd_serial_distance_xpbd_packed)(qb, &r.cb, o0, o1, h);
                    sku += pbd ? SFX(xpbd_serial_distance_pbd)(&u.b.p, &u.cb, o0, o1, k)
                               : SFX(xpbd_serial_distance_xpbd)(&u.b.p, &u.cb, o0, o1, h);
                    ENSURE_INT(ska, skb);
                    ENSURE_INT(ska, sku);
                    ENSURE(ska >= dedicated);
                    snprintf(label, sizeof label, "%s: packed overflow", r.label);
                    SAMER(qa, qb, 4 * n, label);
                    SAMER(r.ca.lambda, u.cb.lambda, r.ca.slots, label);
                }
                if (fused) {
                    T->unpack_velocity(qa, &r.a.p, 0, n, h, (R)0.75);
                    S->unpack_velocity(qb, &r.b.p, 0, n, h, (R)0.75);
                    S->update_velocity(&u.b.p, 0, n, h, (R)0.75);
                } else {
                    T->unpack(qa, &r.a.p, 0, n);
                    S->unpack(qb, &r.b.p, 0, n);
                }
                snprintf(label, sizeof label, "%s: unpack%s", r.label,
                         fused ? "_velocity" : "");
                SAMECL(&r.a, &r.b, label);
                snprintf(label, sizeof label, "%s: packed vs SoA", r.label);
                SAMECL(&r.a, &u.b, label);
                if (!fused) {
                    T->update_velocity(&r.a.p, 0, n, h, 1);
                    S->update_velocity(&r.b.p, 0, n, h, 1);
                    S->update_velocity(&u.b.p, 0, n, h, 1);
                }
            }
            free(qa);
            free(qb);
            free(held);
            FN(xrun_free)(&r);
            FN(xrun_free)(&u);
        }
    ENSURE(cases == FN_NCASES * ns);
}

static void FN(cross_xpbd_packed)(void)
{
    FN(cross_packed)(0);
}

static void FN(cross_pbd_packed)(void)
{
    FN(cross_packed)(1);
}

/* relaunch_packed (the step's private row: a substep's end and the next
 * one's start in one pass) on the path under test against unpack_velocity
 * then predict_pack of the reference, on the whole cloud and on a range
 * with unaligned ends: the same packed copy and px, py, pz bit for bit,
 * with x, y, z and the velocities left as they were. */
static void FN(cross_relaunch)(void)
{
    const KT *S = XT_REF;
    size_t sizes[16];
    const size_t ns = FN(sizes)(sizes);
    const R h = (R)(1.0 / 600.0), keep = (R)0.98;
    for (size_t si = 0; si < ns; ++si) {
        FN(xrun) r;
        if (!FN(xrun_init)(&r, &FN(xcases)[0], sizes[si], 0x2e1au + si, 0))
            continue;
        const size_t n = r.a.p.count;
        R *qa = malloc((4 * n + 1) * sizeof *qa), *qb = malloc((4 * n + 1) * sizeof *qb);
        R *qc = malloc((4 * n + 1) * sizeof *qc), *was = malloc((9 * n + 1) * sizeof *was);
        R *lean = malloc((3 * n + 1) * sizeof *lean);
        REQUIRE(qa && qb && qc && was && lean);
        for (int round = 0; round < 2; ++round) {
            /* a substep's start, then a move of the packed positions as a
             * solve would make */
            const size_t b = round ? (n > 5 ? 3 : 0) : 0, e = round ? n - n / 7 : n;
            S->predict_pack(&r.a.p, qa, 0, n, h, 0, (R)-9.81, (R)0.5);
            S->predict_pack(&r.b.p, qb, 0, n, h, 0, (R)-9.81, (R)0.5);
            for (size_t i = 0; i < 4 * n; i += 4) {
                const R d = (R)(1e-3 * (double)((i * 2654435761u) % 1000) - 0.5);
                qa[i] += d * h;
                qb[i] += d * h;
                qa[i + 2] -= d * h;
                qb[i + 2] -= d * h;
            }
            /* relaunch_packed first, on a copy of qa; then px, py, pz back */
            R *const kept[9] = {r.a.p.x, r.a.p.y, r.a.p.z, r.a.p.vx, r.a.p.vy,
                                r.a.p.vz, r.a.p.px, r.a.p.py, r.a.p.pz};
            memcpy(qc, qa, 4 * n * sizeof *qa);
            for (int k = 0; k < 9; ++k)
                memcpy(was + k * n, kept[k], n * sizeof *was);
            XT_STEP->relaunch_packed(qc, &r.a.p, b, e, h, keep, (R)0.25, (R)-9.81, 0);
            for (int k = 0; k < 3; ++k) {
                memcpy(lean + k * n, kept[6 + k], n * sizeof *lean);
                memcpy(kept[6 + k], was + (6 + k) * n, n * sizeof *was);
            }
            char label[200];
            snprintf(label, sizeof label, "%s n %zu [%zu, %zu): relaunch_packed keeps x, v",
                     r.label, n, b, e);
            for (int k = 0; k < 6; ++k)
                SAMER(kept[k], was + k * n, n, label);
            /* both runs on to the next round by the separate kernels */
            S->unpack_velocity(qa, &r.a.p, b, e, h, keep);
            S->predict_pack(&r.a.p, qa, b, e, h, (R)0.25, (R)-9.81, 0);
            S->unpack_velocity(qb, &r.b.p, b, e, h, keep);
            S->predict_pack(&r.b.p, qb, b, e, h, (R)0.25, (R)-9.81, 0);
            snprintf(label, sizeof label, "%s n %zu [%zu, %zu): relaunch_packed", r.label, n, b,
                     e);
            SAMER(qc, qb, 4 * n, label);
            SAMER(lean, r.b.p.px, n, label);
            SAMER(lean + n, r.b.p.py, n, label);
            SAMER(lean + 2 * n, r.b.p.pz, n, label);
        }
        free(qa);
        free(qb);
        free(qc);
        free(was);
        free(lean);
        FN(xrun_free)(&r);
    }
}

/* ------------------------------------------------------------ ranges --- */

/* Sub-ranges give what a whole call gives: particle ranges split at
 * unaligned points, batch ranges of a colour split in two. */
static void FN(cross_ranges)(void)
{
    const KT *T = XT_TAB, *S = XT_REF;
    const R h = (R)(1.0 / 240.0);
    /* particles */
    const size_t counts[] = {37, 3001};
    for (size_t ci = 0; ci < 2; ++ci) {
        const size_t n = counts[ci];
        CL a, b;
        REQUIRE(SFX(xt_cloud_alloc)(&a, n) && SFX(xt_cloud_alloc)(&b, n));
        xt_rng rng = {0x4a4eull + n};
        const size_t cuts[] = {1, 3, 5, 17, n / 2 + 1, n - 2};
        for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; ++k) {
            const size_t cut = cuts[k];
            for (int kernel = 0; kernel < 5; ++kernel) {
                SFX(xt_cloud_random)(&a, &rng, 0.2, NULL);
                SFX(xt_cloud_copy)(&b, &a);
                switch (kernel) {
                case 0:
                    T->predict(&a.p, 0, n, h, 0, (R)-9.81, 0);
                    T->predict(&b.p, 0, cut, h, 0, (R)-9.81, 0);
                    T->predict(&b.p, cut, n, h, 0, (R)-9.81, 0);
                    break;
                case 1:
                    T->update_velocity(&a.p, 0, n, h, 1);
                    T->update_velocity(&b.p, 0, cut, h, 1);
                    T->update_velocity(&b.p, cut, n, h, 1);
                    break;
                case 2:
                    T->spring_integrate(&a.p, a.fx, a.fy, a.fz, 0, n, h, 0, (R)-9.81, 0);
                    T->spring_integrate(&b.p, b.fx, b.fy, b.fz, 0, cut, h, 0, (R)-9.81, 0);
                    T->spring_integrate(&b.p, b.fx, b.fy, b.fz, cut, n, h, 0, (R)-9.81, 0);
                    break;
                default: {
                    /* pack (3) or unpack (4): split vs whole, and the forced
                     * path vs the reference on an unaligned range */
                    R *qa = malloc(4 * n * sizeof *qa), *qb = malloc(4 * n * sizeof *qb),
                         *qr = malloc(4 * n * sizeof *qr);
                    REQUIRE(qa && qb && qr);
                    for (size_t i = 0; i < 4 * n; ++i)
                        qa[i] = qb[i] = qr[i] = (R)xt_range(&rng, -2, 2);
                    if (kernel == 3) {
                        T->pack(&a.p, qa, 0, n);
                        T->pack(&a.p, qb, 0, cut);
                        T->pack(&a.p, qb, cut, n);
                        S->pack(&a.p, qr, 0, n);
                        SAMER(qa, qb, 4 * n, "pack split vs whole");
                        SAMER(qa, qr, 4 * n, "pack vs reference");
                        int wrong = 0;
                        for (size_t i = 0; i < n; ++i)
                            wrong += memcmp(&qa[4 * i], &a.p.x[i], sizeof(R)) != 0 ||
                                     memcmp(&qa[4 * i + 1], &a.p.y[i], sizeof(R)) != 0 ||
                                     memcmp(&qa[4 * i + 2], &a.p.z[i], sizeof(R)) != 0 ||
                                     memcmp(&qa[4 * i + 3], &a.p.w[i], sizeof(R)) != 0;
                        ENSURE_INT(wrong, 0);
                        T->pack(&a.p, qa, cut, n - 1);
                        S->pack(&a.p, qr, cut, n - 1);
                        SAMER(qa, qr, 4 * n, "pack on an unaligned range");
                    } else {
                        T->unpack(qa, &a.p, 0, n);
                        T->unpack(qa, &b.p, 0, cut);
                        T->unpack(qa, &b.p, cut, n);
                        int wrong = 0;
                        for (size_t i = 0; i < n; ++i)
                            wrong += memcmp(&qa[4 * i], &a.p.x[i], sizeof(R)) != 0 ||
                                     memcmp(&qa[4 * i + 1], &a.p.y[i], sizeof(R)) != 0 ||
                                     memcmp(&qa[4 * i + 2], &a.p.z[i], sizeof(R)) != 0;
                        ENSURE_INT(wrong, 0);
                    }
                    free(qa);
                    free(qb);
                    free(qr);
                    break;
                }
                }
                SAMECL(&a, &b, "particle range split vs whole");
            }
            /* reductions over an unaligned range match the reference on it */
            const R ea = T->kinetic_energy(&a.p, cut, n - 1);
            const R eb = S->kinetic_energy(&a.p, cut, n - 1);
            SAMER(&ea, &eb, 1, "kinetic_energy on an unaligned range");
            R ma[3], mb[3];
            T->momentum(&a.p, cut, n - 1, ma);
            S->momentum(&a.p, cut, n - 1, mb);
            SAMER(ma, mb, 3, "momentum on an unaligned range");
        }
        /* an empty range does nothing */
        SFX(xt_cloud_copy)(&b, &a);
        T->predict(&a.p, 5, 5, h, 0, (R)-9.81, 0);
        T->update_velocity(&a.p, 7, 7, h, 1);
        const R e0 = T->kinetic_energy(&a.p, 9, 9);
        ENSURE_BITS_F64((double)e0, 0.0);
        SAMECL(&a, &b, "empty ranges");
        SFX(xt_cloud_free)(&a);
        SFX(xt_cloud_free)(&b);
    }

    /* batch ranges: every colour with at least two batches, split at 1,
     * the middle and nb-1; the split call on the forced path equals the
     * whole call on the forced path and on the reference */
    const FN(xcase) cases[] = {{XT_MATCHING, 0, 0, 0, "matching", 0},
                               {XT_RANDOM, 3, 2, 0, "random+coincident+static", 0}};
    const size_t csizes[] = {100, 3000};
    for (size_t ci = 0; ci < 2; ++ci)
        for (int which = 0; which < 6; ++which) {
            FN(xrun) r, w;
            if (!FN(xrun_init)(&r, &cases[ci], csizes[ci], 0x5b17ull + ci, 1e-3) ||
                !FN(xrun_init)(&w, &cases[ci], csizes[ci], 0x5b17ull + ci, 1e-3)) {
                FN(xrun_free)(&r);
                continue;
            }
            /* r.a: forced, split; r.b: reference, whole; w.a: forced, whole */
            int split_colours = 0;
            const size_t slots = r.ca.slots;
            R *oa = calloc(slots + 1, sizeof *oa), *ob = calloc(slots + 1, sizeof *ob),
                 *ow = calloc(slots + 1, sizeof *ow);
            /* packed copies for which 4 (distance_xpbd_packed), 5 (pbd) */
            const size_t np = r.a.p.count;
            R *qa = calloc(4 * np + 1, sizeof *qa), *qb = calloc(4 * np + 1, sizeof *qb),
                 *qw = calloc(4 * np + 1, sizeof *qw);
            REQUIRE(qa && qb && qw);
            T->pack(&r.a.p, qa, 0, np);
            S->pack(&r.b.p, qb, 0, np);
            T->pack(&w.a.p, qw, 0, np);
            for (uint32_t col = 0; oa && ob && ow && col < r.ca.colours; ++col) {
                const uint32_t nb = xpbd_colour_batches(r.ca.colour_begin, col);
                if (nb < 2)
                    continue;
                split_colours++;
                const uint32_t cut = col % 3 == 0 ? 1 : col % 3 == 1 ? nb / 2 : nb - 1;
                uint32_t s1 = 0, s2 = 0, s3 = 0;
                R m1 = 0, m2 = 0, m3 = 0;
                switch (which) {
                case 0:
                    s1 = T->distance_xpbd(&r.a.p, &r.ca, col, 0, cut, h) +
                         T->distance_xpbd(&r.a.p, &r.ca, col, cut, nb, h);
                    s2 = S->distance_xpbd(&r.b.p, &r.cb, col, 0, nb, h);
                    s3 = T->distance_xpbd(&w.a.p, &w.ca, col, 0, nb, h);
                    break;
                case 1:
                    s1 = T->distance_pbd(&r.a.p, &r.ca, col, 0, cut, (R)0.5) +
                         T->distance_pbd(&r.a.p, &r.ca, col, cut, nb, (R)0.5);
                    s2 = S->distance_pbd(&r.b.p, &r.cb, col, 0, nb, (R)0.5);
                    s3 = T->distance_pbd(&w.a.p, &w.ca, col, 0, nb, (R)0.5);
                    break;
                case 2:
                    s1 = T->spring_forces(&r.a.p, &r.ca, r.a.fx, r.a.fy, r.a.fz, col, 0, cut, 1) +
                         T->spring_forces(&r.a.p, &r.ca, r.a.fx, r.a.fy, r.a.fz, col, cut, nb, 1);
                    s2 = S->spring_forces(&r.b.p, &r.cb, r.b.fx, r.b.fy, r.b.fz, col, 0, nb, 1);
                    s3 = T->spring_forces(&w.a.p, &w.ca, w.a.fx, w.a.fy, w.a.fz, col, 0, nb, 1);
                    break;
                default: {
                    /* give lambda something to report first */
                    T->distance_xpbd(&r.a.p, &r.ca, col, 0, nb, h);
                    S->distance_xpbd(&r.b.p, &r.cb, col, 0, nb, h);
                    T->distance_xpbd(&w.a.p, &w.ca, col, 0, nb, h);
                    const R x1 = T->residual(&r.a.p, &r.ca, col, 0, cut, h, oa);
                    const R x2 = T->residual(&r.a.p, &r.ca, col, cut, nb, h, oa);
                    m1 = x1 > x2 ? x1 : x2;
                    m2 = S->residual(&r.b.p, &r.cb, col, 0, nb, h, ob);
                    m3 = T->residual(&w.a.p, &w.ca, col, 0, nb, h, ow);
                    break;
                }
                case 4:
                    s1 = T->distance_xpbd_packed(qa, &r.ca, col, 0, cut, h) +
                         T->distance_xpbd_packed(qa, &r.ca, col, cut, nb, h);
                    s2 = S->distance_xpbd_packed(qb, &r.cb, col, 0, nb, h);
                    s3 = T->distance_xpbd_packed(qw, &w.ca, col, 0, nb, h);
                    break;
                case 5:
                    s1 = T->distance_pbd_packed(qa, &r.ca, col, 0, cut, (R)0.5) +
                         T->distance_pbd_packed(qa, &r.ca, col, cut, nb, (R)0.5);
                    s2 = S->distance_pbd_packed(qb, &r.cb, col, 0, nb, (R)0.5);
                    s3 = T->distance_pbd_packed(qw, &w.ca, col, 0, nb, (R)0.5);
                    break;
                }
                if (which >= 4) {
                    SAMER(qa, qb, 4 * np, "packed, split vs reference whole");
                    SAMER(qa, qw, 4 * np, "packed, split vs forced whole");
                    ENSURE_INT(T->distance_xpbd_packed(qa, &r.ca, col, cut, cut, h), 0);
                    T->unpack(qa, &r.a.p, 0, np);
                    T->unpack(qb, &r.b.p, 0, np);
                    T->unpack(qw, &w.a.p, 0, np);
                }
                ENSURE_INT(s1, s2);
                ENSURE_INT(s1, s3);
                SAMER(&m1, &m2, 1, "residual max, split vs whole");
                SAMER(&m1, &m3, 1, "residual max, split vs whole");
                SAMECL(&r.a, &r.b, "batch split vs reference whole");
                SAMECL(&r.a, &w.a, "batch split vs forced whole");
                SAMER(r.ca.lambda, r.cb.lambda, slots, "lambda, split vs reference whole");
                SAMER(r.ca.lambda, w.ca.lambda, slots, "lambda, split vs forced whole");
                /* an empty batch range does nothing and skips nothing */
                ENSURE_INT(T->distance_xpbd(&r.a.p, &r.ca, col, cut, cut, h), 0);
                SAMECL(&r.a, &w.a, "empty batch range");
            }
            SAMER(oa, ob, slots, "residual out, split vs reference whole");
            SAMER(oa, ow, slots, "residual out, split vs forced whole");
            ENSURE(oa && ob && ow);
            ENSURE(split_colours > 0);
            free(oa);
            free(ob);
            free(ow);
            free(qa);
            free(qb);
            free(qw);
            FN(xrun_free)(&r);
            FN(xrun_free)(&w);
        }
}

/* -------------------------------------------------------- step driver --- */

static void FN(cross_step)(void)
{
    const xpbd_solver solvers[] = {XPBD_SOLVER_XPBD, XPBD_SOLVER_XPBD, XPBD_SOLVER_PBD,
                                   XPBD_SOLVER_SPRINGS};
    const FN(xcase) cases[] = {{XT_RANDOM, 3, 2, 0, "random+coincident+static", 0},
                               {XT_DENSE, 0, 0, 4, "dense, max_colours 4", 0},
                               {XT_MATCHING, 0, 0, 0, "matching", 0},
                               {XT_GRID, 2, 1, 0, "grid+coincident+static, runs", 1}};
    const size_t sizes[] = {500, 120, 17, 3000};
    for (size_t ci = 0; ci < 4; ++ci)
        for (size_t v = 0; v < sizeof solvers / sizeof solvers[0]; ++v) {
            FN(xrun) r;
            const int springs = solvers[v] == XPBD_SOLVER_SPRINGS;
            if (!FN(xrun_init)(&r, &cases[ci], sizes[ci], 0x57e9ull + ci, springs ? 1e-2 : 0)) {
                FN(xrun_free)(&r);
                continue;
            }
            xpbd_step_config ca = xpbd_step_config_default(), cb;
            ca.substeps = 4;
            ca.iterations = 5;
            ca.damping = 0.01;
            ca.gravity[0] = 0.3;
            ca.solver = solvers[v];
            ca.pbd_stiffness = 0.8;
            ca.spring_damping = springs ? 0.05 : 0;
            ca.lambda_reset = v == 1 ? XPBD_LAMBDA_PER_ITERATION : XPBD_LAMBDA_PER_SUBSTEP;
            cb = ca;
            ca.isa = xt_isa;
            cb.isa = XPBD_ISA_SCALAR;
            const size_t bytes = SFX(xpbd_step_scratch_bytes)(r.a.p.count, r.ca.slots);
            void *sa = malloc(bytes + 1), *sb = malloc(bytes + 1);
            if (springs) /* velocities the springs can take at this h */
                for (size_t i = 0; i < r.a.p.count; ++i) {
                    r.a.p.w[i] = r.b.p.w[i] = r.a.p.w[i] > 0 ? (R)0.5 : 0;
                }
            for (int frame = 0; sa && sb && frame < 5; ++frame) {
                xpbd_step_counters ka, kb;
                const xpbd_status st_a =
                    SFX(xpbd_step)(&ca, 1.0 / 60.0, &r.a.p, &r.ca, sa, bytes, &ka);
                const xpbd_status st_b =
                    SFX(xpbd_step)(&cb, 1.0 / 60.0, &r.b.p, &r.cb, sb, bytes, &kb);
                ENSURE_STATUS(st_a, XPBD_OK);
                ENSURE_STATUS(st_b, XPBD_OK);
                char label[200];
                snprintf(label, sizeof label, "%s: step solver %d variant %zu frame %d", r.label,
                         (int)solvers[v], v, frame);
                SAMECL(&r.a, &r.b, label);
                SAMER(r.ca.lambda, r.cb.lambda, r.ca.slots, label);
                ENSURE_INT(ka.isa, xt_isa);
                ENSURE_INT(kb.isa, XPBD_ISA_SCALAR);
                ENSURE_INT(ka.substeps, kb.substeps);
                ENSURE_INT(ka.iterations, kb.iterations);
                ENSURE_INT(ka.colours, kb.colours);
                ENSURE_INT(ka.overflow, kb.overflow);
                ENSURE_INT(ka.solves, kb.solves);
                ENSURE_INT(ka.skipped, kb.skipped);
                ENSURE_BITS_F64(ka.max_residual, kb.max_residual);
                /* the dedicated pairs are skipped in every sweep */
                const uint64_t sweeps = springs ? 4 : 4 * 5;
                const uint64_t dedicated =
                    springs ? r.g.coincident : r.g.coincident + r.g.static_pairs;
                ENSURE(kb.skipped >= sweeps * dedicated);
                ENSURE_INT(kb.solves, sweeps * r.g.count);
            }
            free(sa);
            free(sb);
            FN(xrun_free)(&r);
        }
}

/* The XPBD step without contacts is the documented sequence of kernels:
 * per substep predict_pack; per iteration each colour's pass
 * (distance_xpbd_packed_first in a pass that resets the lambdas,
 * distance_xpbd_packed otherwise), the overflow's lambdas zeroed in a
 * resetting pass, then its serial kernel; unpack_velocity. Driven here by
 * hand on the reference table, against xpbd_step on the path under test:
 * the particles and the lambdas the step leaves, bit for bit, whatever it
 * fuses or leaves unwritten inside. */
static void FN(cross_step_kernels)(void)
{
    const FN(xcase) cases[] = {{XT_GRID, 2, 1, 0, "grid+coincident+static, runs", 1},
                               {XT_RANDOM, 0, 0, 2, "random, max_colours 2 (overflow)", 0}};
    const KT *S = XT_REF;
    for (size_t ci = 0; ci < 2; ++ci)
        for (int v = 0; v < 3; ++v) {
            FN(xrun) r;
            if (!FN(xrun_init)(&r, &cases[ci], 3000, 0x5d71ull + ci, 0)) {
                FN(xrun_free)(&r);
                continue;
            }
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.substeps = 4;
            cfg.iterations = v == 2 ? 3 : 1;
            cfg.lambda_reset = v == 1 ? XPBD_LAMBDA_PER_ITERATION : XPBD_LAMBDA_PER_SUBSTEP;
            cfg.damping = 0.01;
            cfg.gravity[0] = 0.3;
            cfg.isa = xt_isa;
            const size_t n = r.a.p.count;
            const size_t bytes = SFX(xpbd_step_scratch_bytes)(n, r.ca.slots);
            void *sa = malloc(bytes + 1);
            R *q = malloc((4 * n + 1) * sizeof *q);
            REQUIRE(sa && q);
            const double frame = 1.0 / 60.0;
            const R hs = (R)(frame / cfg.substeps), keep = (R)(1.0 - cfg.damping);
            const R gx = (R)cfg.gravity[0], gy = (R)cfg.gravity[1], gz = (R)cfg.gravity[2];
            DSET *c = &r.cb;
            for (int f = 0; f < 3; ++f) {
                ENSURE_STATUS(SFX(xpbd_step)(&cfg, frame, &r.a.p, &r.ca, sa, bytes, NULL),
                              XPBD_OK);
                for (uint32_t sub = 0; sub < cfg.substeps; ++sub) {
                    S->predict_pack(&r.b.p, q, 0, n, hs, gx, gy, gz);
                    for (uint32_t it = 0; it < cfg.iterations; ++it) {
                        const int reset =
                            it == 0 || cfg.lambda_reset == XPBD_LAMBDA_PER_ITERATION;
                        for (uint32_t col = 0; col < c->colours; ++col) {
                            const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
                            (void)(reset ? XT_STEP_REF->distance_xpbd_packed_first(q, c, col, 0, nb, hs)
                                         : S->distance_xpbd_packed(q, c, col, 0, nb, hs));
                        }
                        if (reset)
                            for (uint32_t k = c->overflow_begin; k < c->slots; ++k)
                                c->lambda[k] = 0;
                        (void)SFX(xpbd_serial_distance_xpbd_packed)(q, c, c->overflow_begin,
                                                                    c->slots, hs);
                    }
                    S->unpack_velocity(q, &r.b.p, 0, n, hs, keep);
                }
                char label[200];
                snprintf(label, sizeof label, "%s: step vs kernels, variant %d frame %d",
                         r.label, v, f);
                SAMECL(&r.a, &r.b, label);
                SAMER(r.ca.lambda, r.cb.lambda, r.ca.slots, label);
            }
            free(sa);
            free(q);
            FN(xrun_free)(&r);
        }
}

/* Regions (xpbd_colouring_options.regions): the step on the path under
 * test, with three threads, is the sequence of the reference kernels over
 * the set's colours in order (every region's interior colours, then the
 * boundary's) and the overflow, as cross_step_kernels drives it: bit for
 * bit, so every slot is solved exactly once per iteration in that order,
 * whichever worker runs which region. Then PBD and springs on the path
 * under test against the scalar step, bit for bit. */
static void FN(cross_regions)(void)
{
    const FN(xcase) cases[] = {{XT_GRID, 2, 1, 0, "grid+coincident+static", 0},
                               {XT_GRID, 2, 1, 0, "grid+coincident+static, runs", 1},
                               {XT_RANDOM, 3, 2, 0, "random+coincident+static", 0}};
    const uint32_t regions[] = {2, 5, 16};
    const size_t sizes[] = {3000, 3000, 500};
    const KT *S = XT_REF;
    for (size_t ci = 0; ci < 3; ++ci)
        for (size_t ri = 0; ri < 3; ++ri)
            for (int v = 0; v < 4; ++v) {
                FN(xrun) r;
                const xpbd_colouring_options opt = {.runs = cases[ci].runs,
                                                    .regions = regions[ri]};
                int ok = FN(xrun_init)(&r, &cases[ci], sizes[ci], 0x6e61ull + ci, 1e-3);
                if (ok) {
                    SFX(xpbd_distance_set_free)(&r.ca);
                    SFX(xpbd_distance_set_free)(&r.cb);
                    ok = SFX(xt_graph_build)(&r.g, &opt, &r.ca) == XPBD_OK &&
                         SFX(xt_graph_build)(&r.g, &opt, &r.cb) == XPBD_OK;
                    ENSURE(ok);
                }
                if (!ok) {
                    FN(xrun_free)(&r);
                    continue;
                }
                ENSURE_INT(r.ca.regions, regions[ri]);
                xpbd_step_config cfg = xpbd_step_config_default(), cs;
                cfg.substeps = 4;
                cfg.iterations = v == 1 ? 3 : 1;
                cfg.damping = 0.01;
                cfg.gravity[0] = 0.3;
                cfg.solver = v < 2 ? XPBD_SOLVER_XPBD : v == 2 ? XPBD_SOLVER_PBD
                                                              : XPBD_SOLVER_SPRINGS;
                cfg.pbd_stiffness = 0.8;
                cfg.spring_damping = v == 3 ? 0.05 : 0;
                cfg.threads = 3;
                cs = cfg;
                cfg.isa = xt_isa;
                cs.isa = XPBD_ISA_SCALAR;
                cs.threads = 1;
                if (v == 3)
                    for (size_t i = 0; i < r.a.p.count; ++i)
                        r.a.p.w[i] = r.b.p.w[i] = r.a.p.w[i] > 0 ? (R)0.5 : 0;
                const size_t n = r.a.p.count;
                const size_t bytes = SFX(xpbd_step_scratch_bytes)(n, r.ca.slots);
                void *sa = malloc(bytes + 1), *sb = malloc(bytes + 1);
                R *q = malloc((4 * n + 1) * sizeof *q);
                REQUIRE(sa && sb && q);
                const double frame = 1.0 / 60.0;
                const R hs = (R)(frame / cfg.substeps), keep = (R)(1.0 - cfg.damping);
                const R gx = (R)cfg.gravity[0], gy = (R)cfg.gravity[1], gz = (R)cfg.gravity[2];
                DSET *c = &r.cb;
                for (int f = 0; f < 3; ++f) {
                    ENSURE_STATUS(SFX(xpbd_step)(&cfg, frame, &r.a.p, &r.ca, sa, bytes, NULL),
                                  XPBD_OK);
                    if (v >= 2) {
                        ENSURE_STATUS(SFX(xpbd_step)(&cs, frame, &r.b.p, &r.cb, sb, bytes, NULL),
                                      XPBD_OK);
                    } else {
                        for (uint32_t sub = 0; sub < cfg.substeps; ++sub) {
                            S->predict_pack(&r.b.p, q, 0, n, hs, gx, gy, gz);
                            for (uint32_t it = 0; it < cfg.iterations; ++it) {
                                for (uint32_t col = 0; col < c->colours; ++col) {
                                    const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
                                    (void)(it == 0
                                               ? XT_STEP_REF->distance_xpbd_packed_first(q, c, col,
                                                                                         0, nb, hs)
                                               : S->distance_xpbd_packed(q, c, col, 0, nb, hs));
                                }
                                if (it == 0)
                                    for (uint32_t k = c->overflow_begin; k < c->slots; ++k)
                                        c->lambda[k] = 0;
                                (void)SFX(xpbd_serial_distance_xpbd_packed)(
                                    q, c, c->overflow_begin, c->slots, hs);
                            }
                            S->unpack_velocity(q, &r.b.p, 0, n, hs, keep);
                        }
                    }
                    char label[200];
                    snprintf(label, sizeof label, "%s: %u regions, variant %d frame %d", r.label,
                             (unsigned)regions[ri], v, f);
                    SAMECL(&r.a, &r.b, label);
                    SAMER(r.ca.lambda, r.cb.lambda, r.ca.slots, label);
                }
                free(sa);
                free(sb);
                free(q);
                FN(xrun_free)(&r);
            }
}

/* A finite compliance the validators accept must step: 3e38 (float) or
 * 1e308 (double) makes compliance/h^2 overflow, and an infinite alpha~
 * meeting lambda == 0 would give inf*0 = NaN. alpha~ is clamped to the
 * largest finite value, so such a constraint makes (almost) no correction:
 * the chain falls as if free, y_k = y_0 - g*hs^2*k(k+1)/2 after k substeps
 * of symplectic Euler, on every path, bit for bit with the scalar one. The
 * bound: v = (x - p)/hs carries up to one rounding of x (|x| < 1: eps) per
 * substep, so after k substeps y is off by at most eps*k(k+1)/2. The
 * tetrahedral volume kernel stays finite and (almost) still too. */
static void FN(cross_huge_compliance)(void)
{
    const R huge = R_F64 ? (R)1e308 : (R)3e38;
    SFX(xs_world) a, b;
    REQUIRE_STATUS(SFX(xs_chain)(&a, 6, (R)0.1, huge), XPBD_OK);
    REQUIRE_STATUS(SFX(xs_chain)(&b, 6, (R)0.1, huge), XPBD_OK);
    uint32_t stamp[6];
    REQUIRE_STATUS(SFX(xpbd_distance_set_validate)(&a.set, a.p.count, stamp, NULL), XPBD_OK);
    R y0[6];
    for (int i = 0; i < 6; ++i) y0[i] = a.p.y[i];
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    cfg.iterations = 4;
    const double frame = 1.0 / 60;
    const int frames = 10;
    for (int f = 0; f < frames; ++f) {
        cfg.isa = xt_isa;
        ENSURE_STATUS(SFX(xpbd_step)(&cfg, frame, &a.p, &a.set, a.scratch, a.scratch_bytes, NULL),
                      XPBD_OK);
        cfg.isa = XPBD_ISA_SCALAR;
        ENSURE_STATUS(SFX(xpbd_step)(&cfg, frame, &b.p, &b.set, b.scratch, b.scratch_bytes, NULL),
                      XPBD_OK);
    }
    SAMER(a.p.x, b.p.x, 6, "huge compliance: x");
    SAMER(a.p.y, b.p.y, 6, "huge compliance: y");
    SAMER(a.p.vy, b.p.vy, 6, "huge compliance: vy");
    SAMER(a.set.lambda, b.set.lambda, a.set.slots, "huge compliance: lambda");
    const double hs = frame / cfg.substeps, k = (double)frames * cfg.substeps;
    const double fall = 9.81 * hs * hs * k * (k + 1) / 2;
    const double tol = R_EPS * k * (k + 1) / 2;
    for (int i = 0; i < 6; ++i) {
        ENSURE(isfinite(a.p.y[i]) && isfinite(a.p.vy[i]));
        ENSURE_NEAR(a.p.y[i], a.p.w[i] > 0 ? y0[i] - fall : y0[i], tol);
    }
    for (uint32_t s = 0; s < a.set.slots; ++s) ENSURE(isfinite(a.set.lambda[s]));
    SFX(xs_world_free)(&a);
    SFX(xs_world_free)(&b);

    /* one stretched tet, straight through the kernels */
    const R xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const uint32_t idx[4] = {0, 1, 2, 3};
    SFX(xpbd_quad_set) ta, tb;
    REQUIRE_STATUS(SFX(xpbd_tet_set_build)(&ta, 4, xyz, 1, idx, &huge, NULL, NULL), XPBD_OK);
    REQUIRE_STATUS(SFX(xpbd_tet_set_build)(&tb, 4, xyz, 1, idx, &huge, NULL, NULL), XPBD_OK);
    R qa[16], qb[16];
    for (int i = 0; i < 4; ++i) {
        for (int d = 0; d < 3; ++d) qa[4 * i + d] = xyz[3 * i + d] * (R)1.5;
        qa[4 * i + 3] = 1;
    }
    memcpy(qb, qa, sizeof qa);
    const SFX(xpbd_softbody_kernels) *T = SFX(xpbd_softbody_kernels_get)(xt_isa);
    const SFX(xpbd_softbody_kernels) *S = SFX(xpbd_softbody_kernels_get)(XPBD_ISA_SCALAR);
    REQUIRE(T && S);
    for (int it = 0; it < 3; ++it) {
        ENSURE_INT(T->tet_volume(qa, &ta, 0, 0, 1, (R)(1.0 / 240)), 0);
        ENSURE_INT(S->tet_volume(qb, &tb, 0, 0, 1, (R)(1.0 / 240)), 0);
    }
    SAMER(qa, qb, 16, "huge compliance: tet positions");
    SAMER(ta.lambda, tb.lambda, ta.slots, "huge compliance: tet lambda");
    ENSURE(isfinite(ta.lambda[0]));
    for (int i = 0; i < 16; ++i) ENSURE(isfinite(qa[i]));
    ENSURE_NEAR(qa[4], xyz[3] * (R)1.5, R_EPS); /* (almost) no correction */
    SFX(xpbd_quad_set_free)(&ta);
    SFX(xpbd_quad_set_free)(&tb);
}

/* ------------------------------------------- independent plain C ------- */
/* The scalar reference and the SIMD paths share one statement of the maths
 * (kernels/), so comparing them cannot catch a mistake in that statement.
 * These are the maths of xpbd/kernels.h written again, plainly, one element
 * at a time, and every path must equal them bit for bit. */

static void FN(plain_predict)(const SFX(xpbd_particles) *p, size_t begin, size_t end, R h, R gx,
                              R gy, R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    for (size_t i = begin; i < end; ++i) {
        if (p->w[i] > 0) {
            p->vx[i] += gxh;
            p->vy[i] += gyh;
            p->vz[i] += gzh;
        }
        p->px[i] = p->x[i];
        p->py[i] = p->y[i];
        p->pz[i] = p->z[i];
        p->x[i] += p->vx[i] * h;
        p->y[i] += p->vy[i] * h;
        p->z[i] += p->vz[i] * h;
    }
}

static void FN(plain_velocity)(const SFX(xpbd_particles) *p, size_t begin, size_t end, R h,
                               R keep)
{
    const R ih = 1 / h;
    for (size_t i = begin; i < end; ++i) {
        p->vx[i] = (p->x[i] - p->px[i]) * ih * keep;
        p->vy[i] = (p->y[i] - p->py[i]) * ih * keep;
        p->vz[i] = (p->z[i] - p->pz[i]) * ih * keep;
    }
}

/* XPBD distance on slot s; returns 1 if skipped */
static uint32_t FN(plain_xpbd)(const SFX(xpbd_particles) *p, const DSET *c, uint32_t s, R h)
{
    const uint32_t a = c->i0[s], b = c->i1[s];
    const R d[3] = {p->x[b] - p->x[a], p->y[b] - p->y[a], p->z[b] - p->z[a]};
    const R len = SQRT(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const R wsum = p->w[a] + p->w[b];
    if (len == 0 || wsum == 0)
        return 1;
    const R at = c->compliance[s] * (1 / (h * h));
    const R step = (-(len - c->rest[s]) - at * c->lambda[s]) / ((wsum + at) * len);
    R *xa[3] = {p->x + a, p->y + a, p->z + a}, *xb[3] = {p->x + b, p->y + b, p->z + b};
    for (int k = 0; k < 3; ++k) {
        *xa[k] -= p->w[a] * step * d[k];
        *xb[k] += p->w[b] * step * d[k];
    }
    c->lambda[s] += step * len;
    return 0;
}

static void FN(cross_plain)(void)
{
    const KT *T = XT_TAB;
    size_t sizes[16];
    const size_t ns = FN(sizes)(sizes);
    const R h = (R)(1.0 / 240.0), gx = (R)0.5, gy = (R)-9.81, gz = (R)0.25;
    char what[160];
    for (size_t si = 0; si < ns; ++si) {
        const size_t n = sizes[si];
        CL a, b;
        REQUIRE(SFX(xt_cloud_alloc)(&a, n) && SFX(xt_cloud_alloc)(&b, n));
        xt_rng rng = {0x91a1ull + n};
        const size_t begin = n > 3 ? 1 : 0;
        SFX(xt_cloud_random)(&a, &rng, 0.2, NULL);
        SFX(xt_cloud_copy)(&b, &a);
        T->predict(&a.p, begin, n, h, gx, gy, gz);
        FN(plain_predict)(&b.p, begin, n, h, gx, gy, gz);
        snprintf(what, sizeof what, "%s predict n=%zu", R_NAME, n);
        SAMECL(&a, &b, what);
        T->update_velocity(&a.p, begin, n, h, (R)0.98);
        FN(plain_velocity)(&b.p, begin, n, h, (R)0.98);
        snprintf(what, sizeof what, "%s update_velocity n=%zu", R_NAME, n);
        SAMECL(&a, &b, what);
        SFX(xt_cloud_free)(&a);
        SFX(xt_cloud_free)(&b);
    }
    /* the distance solve over every colour, SoA and packed, on graphs with
     * coincident endpoints and static pairs */
    for (size_t ci = 0; ci < FN_NCASES; ++ci)
        for (size_t si = 0; si < ns; ++si) {
            FN(xrun) r;
            if (!FN(xrun_init)(&r, &FN(xcases)[ci], sizes[si], 0x5eedull + si, 0))
                continue;
            R *q = malloc(4 * (r.a.p.count + 1) * sizeof *q);
            REQUIRE(q);
            for (int packed = 0; packed < 2; ++packed) {
                uint32_t got = 0, want = 0;
                if (packed)
                    T->pack(&r.a.p, q, 0, r.a.p.count);
                for (uint32_t col = 0; col < r.ca.colours; ++col) {
                    const uint32_t nb = xpbd_colour_batches(r.ca.colour_begin, col);
                    got += packed ? T->distance_xpbd_packed(q, &r.ca, col, 0, nb, h)
                                  : T->distance_xpbd(&r.a.p, &r.ca, col, 0, nb, h);
                    for (uint32_t s = r.cb.colour_begin[col]; s < r.cb.colour_begin[col + 1]; ++s)
                        if (r.cb.source[s] != XPBD_PAD)
                            want += FN(plain_xpbd)(&r.b.p, &r.cb, s, h);
                }
                if (packed)
                    T->unpack(q, &r.a.p, 0, r.a.p.count);
                snprintf(what, sizeof what, "%s plain xpbd%s, %s", R_NAME, packed ? " packed" : "",
                         r.label);
                ENSURE_INT(got, want);
                SAMECL(&r.a, &r.b, what);
                FN(same_set)(&r.ca, &r.cb, what);
            }
            free(q);
            FN(xrun_free)(&r);
        }
}

#undef CL
#undef DSET
#undef KT
#undef SAMER
#undef SAMECL
#undef FN
#undef FN_NCASES
#undef XT_TAB
#undef XT_REF
#undef XT_STEP
#undef XT_STEP_REF
#define XPBD_PRECISION_END
#include "precision.h"
