/* SPDX-License-Identifier: MIT */
/* Contacts (SPEC S2): the lesson's four tables, 3-D contact behaviour,
 * friction, the grid broad phase against a brute-force check, the SIMD
 * paths against the scalar reference, and bad input.
 *
 * Test names: "contacts." for tests that do not depend on the ISA under
 * test (they run on the scalar reference tables or on the step driver's
 * AUTO path) and "contacts_cross." for the forced ISA (--isa) against the
 * scalar reference, bit for bit.
 *
 * The per-precision part is written once: this file includes itself with
 * CT_BODY defined, once for float and once for double (the part between
 * "#ifdef CT_BODY" and its "#else"). */
#ifdef CT_BODY

/* ===================================================== per precision === */

#define CT FN(ct)
#define CK SFX(xpbd_contact_kernels)
#define CP SFX(xpbd_particles)
#define CW SFX(xpbd_world)
#define CGET(isa) SFX(xpbd_contact_kernels_get)(isa)
#define CSAME(a, b, n, what) CT_SAME((a), (b), (n), (what), __FILE__, __LINE__)
#define FN(n) SFX(n)
#define CPREC (R_F64 ? "f64" : "f32")

/* A particle set with radii, plane impulses and the packed copy q, all in
 * one block so a bitwise comparison of the whole state is one memcmp:
 *   x y z px py pz vx vy vz w | r | imp | q (4n) */
typedef struct CT {
    CP p;
    R *r, *imp, *q;
    R *block;
    size_t n;
} CT;

enum { FN(CT_STATE) = 11 }; /* reals per particle of the particle arrays + radius */

static int FN(ct_alloc)(CT *c, size_t n)
{
    memset(c, 0, sizeof *c);
    c->block = calloc(16 * n + 1, sizeof(R));
    if (!c->block)
        return 0;
    R *b = c->block;
    c->n = n;
    SFX(xpbd_particles_bind)(&c->p, n, b, n);
    c->r = b + 10 * n;
    c->imp = b + 11 * n;
    c->q = b + 12 * n;
    return 1;
}

static void FN(ct_free)(CT *c)
{
    free(c->block);
    memset(c, 0, sizeof *c);
}

static void FN(ct_copy)(CT *dst, const CT *src)
{
    memcpy(dst->block, src->block, (16 * src->n + 1) * sizeof(R));
}

/* Every array back to zero. */
static void FN(ct_clear)(CT *c)
{
    memset(c->block, 0, (16 * c->n + 1) * sizeof(R));
}

/* Two particles and their one contact (0, 1) in a set with room for 4: the
 * setting of SPEC S2 Tables 2 and 3. Returns the assignment's status
 * (XPBD_ERR_NOMEM if an allocation failed). */
static xpbd_status FN(ct_pair)(CT *c, ct_set *set)
{
    static const uint32_t a0[1] = {0}, a1[1] = {1};
    if (!ct_set_alloc(set, 2, 4) || !FN(ct_alloc)(c, 2))
        return XPBD_ERR_NOMEM;
    return xpbd_contact_set_assign(&set->cs, 2, 1, a0, a1, 0, 0, set->work, set->work_bytes,
                                   NULL);
}

/* memcmp of every array (names the first that differs). */
static int FN(ct_same)(const CT *a, const CT *b, const char *what)
{
    static const char *const names[13] = {"x",  "y",  "z",  "px", "py", "pz", "vx",
                                          "vy", "vz", "w",  "r",  "imp", "q"};
    char label[256];
    int ok = 1;
    for (int k = 0; k < 13; ++k) {
        const size_t len = k == 12 ? 4 * a->n : a->n;
        snprintf(label, sizeof label, "%s [%s, %s]", what, names[k], CPREC);
        ok &= CSAME(a->block + (size_t)k * a->n, b->block + (size_t)k * b->n, len, label);
    }
    return ok;
}

static void FN(ct_pack)(CT *c)
{
    for (size_t i = 0; i < c->n; ++i) {
        c->q[4 * i] = c->p.x[i];
        c->q[4 * i + 1] = c->p.y[i];
        c->q[4 * i + 2] = c->p.z[i];
        c->q[4 * i + 3] = c->p.w[i];
    }
}

static void FN(ct_unpack)(CT *c)
{
    for (size_t i = 0; i < c->n; ++i) {
        c->p.x[i] = c->q[4 * i];
        c->p.y[i] = c->q[4 * i + 1];
        c->p.z[i] = c->q[4 * i + 2];
    }
}

/* World-step scratch for n particles and max_contacts contacts. */
static void *FN(ct_scratch)(size_t n, size_t max_contacts, size_t *bytes)
{
    *bytes = SFX(xpbd_world_scratch_bytes)(n, 0, max_contacts);
    return aligned_alloc(64, (*bytes + 63) / 64 * 64);
}

static CW FN(ct_world)(CT *c, xpbd_contact_set *cs, const xpbd_plane *planes, uint32_t nplanes)
{
    CW w;
    memset(&w, 0, sizeof w);
    w.particles = &c->p;
    w.radius = c->r;
    w.contacts = cs;
    w.planes = planes;
    w.plane_count = nplanes;
    w.plane_impulse = c->imp;
    return w;
}

/* One sweep of the velocity kernel of table T over every colour of a set,
 * then the overflow range serially (as the step driver does). */
static uint32_t FN(sweep_velocity)(const CK *T, CT *c, const xpbd_contact_set *cs, R e,
                                   R slop)
{
    uint32_t hits = 0;
    for (uint32_t col = 0; col < cs->colours; ++col)
        hits += T->velocity(&c->p, c->r, cs, col, 0, xpbd_colour_batches(cs->colour_begin, col),
                            e, slop);
    hits += SFX(xpbd_serial_contact_velocity)(&c->p, c->r, cs, cs->overflow_begin, cs->slots,
                                                  e, slop);
    return hits;
}

/* ------------------------------------------------------------ Table 2 --- */

/* SPEC S2 Table 2: a ball (R = 0.18, w = 1) on the infinite plate (w = 0,
 * radius 0.34 at the origin), touching, v = -6 m/s, e in {0, .25, .5, .75,
 * 1}: v' = -e*v exactly. Why exact: the centres differ along y only, so
 * |d| = sqrt(fl(0.52^2)) = 0.52 (sqrt of a correctly rounded square gives
 * the number back in binary floating point) and n = (0, 1, 0) exactly; the
 * plate's w = 0 so w0 + w1 = 1; rel = -6; 1 + e, (1 + e)*6 and
 * -6 + 6(1 + e) = 6e are all representable. The same through the velocity
 * kernel, the world step in the lesson order (gravity 0, so "v before" is
 * -6 exactly), and the ball against the plane y >= 0.34 (the plate's top). */
static void FN(table2)(void)
{
    static const double es[5] = {0, 0.25, 0.5, 0.75, 1};
    const CK *S = CGET(XPBD_ISA_SCALAR);
    REQUIRE(S != NULL);
    ct_set set;
    CT c;
    REQUIRE_STATUS(FN(ct_pair)(&c, &set), XPBD_OK);
    size_t sb;
    void *scratch = FN(ct_scratch)(2, 4, &sb);
    REQUIRE(scratch != NULL);
    for (int k = 0; k < 5; ++k) {
        const R e = (R)es[k];
        const R want = -e * (R)-6; /* -e*v, v = -6 */
        for (int path = 0; path < 3; ++path) {
            FN(ct_clear)(&c);
            c.r[0] = (R)0.34;
            c.r[1] = (R)0.18;
            c.p.w[0] = 0;
            c.p.w[1] = 1;
            c.p.y[1] = (R)0.52;
            c.p.vy[1] = -6;
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.gravity[1] = 0;
            cfg.iterations = 1;
            cfg.restitution = (double)e;
            cfg.contact_order = XPBD_CONTACTS_LESSON;
            const xpbd_plane plate = {{0, 1, 0}, 0.34};
            if (path == 0) { /* the velocity kernel */
                ENSURE_INT(S->velocity(&c.p, c.r, &set.cs, 0, 0, 1, e, (R)0.005), 1);
            } else if (path == 1) { /* world step, lesson order, plate particle */
                xpbd_contact_set *cs = &set.cs;
                CW w = FN(ct_world)(&c, cs, NULL, 0);
                xpbd_step_counters kc;
                ENSURE_STATUS(SFX(xpbd_world_step)(&cfg, 1.0 / 60.0, &w, scratch, sb, &kc),
                              XPBD_OK);
                ENSURE_INT(kc.contacts, 1); /* the broad phase found the pair */
                /* the position pass had nothing to do: the ball left */
                ENSURE_BITS_F64((double)c.p.y[1],
                                (double)((R)0.52 + want * (R)(1.0 / 60.0)));
            } else { /* world step, lesson order, the plate's top as a plane */
                c.p.count = 1; /* the ball alone: index 1 -> 0 */
                c.p.y[0] = c.p.y[1];
                c.p.vy[0] = c.p.vy[1];
                c.p.w[0] = 1;
                c.r[0] = c.r[1];
                CW w = FN(ct_world)(&c, NULL, &plate, 1);
                ENSURE_STATUS(SFX(xpbd_world_step)(&cfg, 1.0 / 60.0, &w, scratch, sb, NULL),
                              XPBD_OK);
                /* the impulse on the plane: -(1 + e) v m, exact as well */
                ENSURE_BITS_F64((double)c.imp[0], (double)((1 + e) * (R)6));
                c.p.vy[1] = c.p.vy[0];
                c.p.vy[0] = 0;
                c.p.count = 2;
            }
            ENSURE_BITS_F64((double)c.p.vy[1], (double)want);
            ENSURE_BITS_F64((double)c.p.vx[1], 0.0);
            ENSURE_BITS_F64((double)c.p.vz[1], 0.0);
            ENSURE_BITS_F64((double)c.p.vy[0], 0.0); /* the plate never moves */
        }
    }
    free(scratch);
    FN(ct_free)(&c);
    ct_set_free(&set);
}

/* ------------------------------------------------------------ Table 3 --- */

/* SPEC S2 Table 3: upper ball m1 = 1 (w = 1), lower m2 = mu (w = 1/mu),
 * beta = 1, e = 0.5, v1 = -6, v2 = 0.
 *
 * Position kernel (weighted): the upper ball backs out mu/(mu + 1) of the
 * overlap, the lower 1/(mu + 1). The kernel's weight w1/(w0 + w1) is the
 * correctly rounded quotient of the same real as mu/(mu + 1) (w0 = 1/mu
 * and w0 + w1 are exact for these mu), so the two are equal bit for bit;
 * the share measured from positions, (y1' - y1)/pen, carries the rounding
 * of the position update: at most one ulp of y per ball, tolerance
 * ulp(y)/pen + 8 eps. With beta = 1 the overlap is gone to the same
 * rounding. Unweighted: the upper ball takes all of it and the lower one
 * does not move at all (bitwise).
 *
 * Velocity kernel: v1' = (1 - e*mu)/(1 + mu)*v1. The impulse j = 9/(1/mu +
 * 1) is exact for mu = 0.5, 1, 2 (j = 3, 4.5, 6) and v1' equals the closed
 * form exactly (-3, -1.5, 0); for mu = 0.25 and 4 (j = 1.8, 7.2) both sides
 * are within an ulp of the real value: tolerance 2 ulp(6). The sign flips at
 * mu = 1/e = 2 (v1' == 0) and mu = 4 sends the ball back up at +1.2. Momentum
 * v1' + mu*v2' = -6 to 4 ulp(6). */
static void FN(table3)(void)
{
    static const double mus[5] = {0.25, 0.5, 1, 2, 4};
    const CK *S = CGET(XPBD_ISA_SCALAR);
    REQUIRE(S != NULL);
    ct_set set;
    CT c;
    REQUIRE_STATUS(FN(ct_pair)(&c, &set), XPBD_OK);
    const double eps = R_EPS;
    const double ulp6 = 4 * eps; /* ulp of 6 = 2^2 * eps */
    for (int k = 0; k < 5; ++k) {
        const double mu = mus[k];
        for (int weighted = 1; weighted >= 0; --weighted) {
            FN(ct_clear)(&c);
            c.r[0] = c.r[1] = (R)0.18;
            c.p.w[0] = (R)(1 / mu);
            c.p.w[1] = 1;
            c.p.y[0] = 1;
            c.p.y[1] = (R)1.34; /* about 2 cm of overlap */
            c.p.py[0] = c.p.y[0];
            c.p.py[1] = c.p.y[1];
            const double y0 = (double)c.p.y[0], y1 = (double)c.p.y[1];
            const double pen = 0.36 - (y1 - y0);
            FN(ct_pack)(&c);
            ENSURE_INT(S->position(c.q, &c.p, c.r, &set.cs, 0, 0, 1, 1, weighted, 0, 0), 1);
            const double up = ((double)c.q[5] - y1) / pen, down = (y0 - (double)c.q[1]) / pen;
            const double tol = 4 * eps * 2 / pen + 8 * eps; /* ulp(y) <= 2 eps * 2 */
            if (weighted) {
                const R share = (R)mu / (R)(mu + 1);
                ENSURE_BITS_F64((double)((R)1 / ((R)(1 / mu) + 1)), (double)share);
                ENSURE_NEAR(up, mu / (mu + 1), tol);
                ENSURE_NEAR(down, 1 / (mu + 1), tol);
            } else {
                ENSURE_NEAR(up, 1, tol);
                ENSURE_BITS_F64((double)c.q[1], y0);
            }
            /* the overlap is gone (beta = 1) */
            const double left = 0.36 - ((double)c.q[5] - (double)c.q[1]);
            ENSURE_NEAR(left, 0, 8 * eps);
            ENSURE_BITS_F64((double)c.q[0], 0.0); /* along y only */
            ENSURE_BITS_F64((double)c.q[4], 0.0);
        }
        /* velocity: touching, v1 = -6, v2 = 0, e = 0.5 */
        FN(ct_clear)(&c);
        c.r[0] = c.r[1] = (R)0.18;
        c.p.w[0] = (R)(1 / mu);
        c.p.w[1] = 1;
        c.p.y[0] = 1;
        c.p.y[1] = (R)1.36;
        c.p.vy[1] = -6;
        ENSURE_INT(S->velocity(&c.p, c.r, &set.cs, 0, 0, 1, (R)0.5, (R)0.005), 1);
        const double closed = (1 - 0.5 * mu) / (1 + mu) * -6;
        const double v1 = (double)c.p.vy[1], v2 = (double)c.p.vy[0];
        if (mu == 0.5 || mu == 1 || mu == 2)
            ENSURE(v1 == closed); /* == : mu = 2 gives +0 against the closed form's -0 */
        else
            ENSURE_NEAR(v1, closed, 2 * ulp6);
        ENSURE_NEAR(v1 + mu * v2, -6, 4 * ulp6);
        /* the lower ball moves down: v2' = (1 + e)/(1 + mu)*v1 */
        ENSURE_NEAR(v2, 1.5 / (1 + mu) * -6, 4 * ulp6);
        if (mu < 2)
            ENSURE(v1 < 0);
        if (mu == 2)
            ENSURE(v1 == 0);
        if (mu > 2)
            ENSURE(v1 > 0);
        if (mu == 4)
            ENSURE_NEAR(v1, 1.2, 2 * ulp6);
    }
    FN(ct_free)(&c);
    ct_set_free(&set);
}

/* ------------------------------------------------- momentum, 3-D pass --- */

/* A closed cloud of balls (no gravity, no planes), random velocities and
 * masses: the velocity pass applies equal and opposite impulses, so the
 * momentum sum m*v is conserved to rounding, and with e <= 1 it never adds
 * kinetic energy. Bound: each impulse changes the two momenta by j*n and
 * -j*n, each rounded to half an ulp of the velocities it lands on, so
 * |dP| <= 4 eps * (sum of m*|v| over the impulses) <= 4 eps * hits *
 * max m|v|; we check |dP| <= 8 eps * hits * max(m*|v|) and that the energy
 * does not grow by more than the same relative rounding (measured in
 * double: |dP| <= 3.2e-14 over 952 impulses, 2.4e-17 of sum m|v|). */
static void FN(momentum)(void)
{
    const CK *S = CGET(XPBD_ISA_SCALAR);
    REQUIRE(S != NULL);
    const size_t n = 600;
    CT c;
    REQUIRE(FN(ct_alloc)(&c, n));
    xt_rng rng = {0x3017ull + (uint64_t)R_F64};
    const double side = 0.9;
    for (size_t i = 0; i < n; ++i) {
        c.p.x[i] = (R)xt_range(&rng, 0, side);
        c.p.y[i] = (R)xt_range(&rng, 0, side);
        c.p.z[i] = (R)xt_range(&rng, 0, side);
        c.p.vx[i] = (R)xt_range(&rng, -2, 2);
        c.p.vy[i] = (R)xt_range(&rng, -2, 2);
        c.p.vz[i] = (R)xt_range(&rng, -2, 2);
        c.p.w[i] = (R)xt_range(&rng, 0.25, 4);
        c.r[i] = (R)xt_range(&rng, 0.03, 0.06);
    }
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, 8 * n));
    const xpbd_broadphase bp = {0, 0.01, 0, NULL};
    REQUIRE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes, &set.cs,
                                              NULL),
                   XPBD_OK);
    REQUIRE(set.cs.count > n / 2); /* a real crowd */
    double p0[3] = {0, 0, 0}, e0 = 0, maxmv = 0;
    for (size_t i = 0; i < n; ++i) {
        const double m = 1 / (double)c.p.w[i];
        p0[0] += m * c.p.vx[i];
        p0[1] += m * c.p.vy[i];
        p0[2] += m * c.p.vz[i];
        e0 += 0.5 * m * ((double)c.p.vx[i] * c.p.vx[i] + (double)c.p.vy[i] * c.p.vy[i] +
                         (double)c.p.vz[i] * c.p.vz[i]);
    }
    uint32_t hits = 0;
    for (int pass = 0; pass < 4; ++pass) {
        for (size_t i = 0; i < n; ++i) {
            const double m = 1 / (double)c.p.w[i];
            const double v = fabs((double)c.p.vx[i]) + fabs((double)c.p.vy[i]) +
                             fabs((double)c.p.vz[i]);
            if (m * v > maxmv)
                maxmv = m * v;
        }
        hits += FN(sweep_velocity)(S, &c, &set.cs, (R)0.3, (R)0.01);
    }
    ENSURE(hits > n / 4);
    double p1[3] = {0, 0, 0}, e1 = 0;
    for (size_t i = 0; i < n; ++i) {
        const double m = 1 / (double)c.p.w[i];
        p1[0] += m * c.p.vx[i];
        p1[1] += m * c.p.vy[i];
        p1[2] += m * c.p.vz[i];
        e1 += 0.5 * m * ((double)c.p.vx[i] * c.p.vx[i] + (double)c.p.vy[i] * c.p.vy[i] +
                         (double)c.p.vz[i] * c.p.vz[i]);
    }
    const double bound = 8 * R_EPS * hits * maxmv;
    for (int d = 0; d < 3; ++d)
        ENSURE_NEAR(p1[d], p0[d], bound);
    ENSURE_LE(e1, e0 * (1 + 8 * R_EPS * hits));
    ENSURE(e1 < 0.99 * e0); /* e = 0.3: the pass really dissipated */
    ct_set_free(&set);
    FN(ct_free)(&c);
}

/* ------------------------------------------------------- broad phase --- */

/* Every pair (i < j) with |x_i - x_j| < r_i + r_j + skin, by brute force.
 * The predicate is evaluated exactly as documented (xpbd/contacts.h) in
 * double: (d.d) < (r_i + r_j + skin)^2, with the same operation order, so a
 * pair right at the boundary is decided the same way. */
static size_t FN(brute_pairs)(const CP *p, const R *r, double skin, uint64_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < p->count; ++i)
        for (size_t j = i + 1; j < p->count; ++j) {
            const double dx = (double)p->x[j] - (double)p->x[i];
            const double dy = (double)p->y[j] - (double)p->y[i];
            const double dz = (double)p->z[j] - (double)p->z[i];
            const double rr = (double)r[i] + (double)r[j] + skin;
            if (dx * dx + dy * dy + dz * dz < rr * rr)
                out[k++] = ((uint64_t)i << 32) | (uint64_t)j;
        }
    return k;
}

enum { FN(BP_UNIFORM), FN(BP_CLUSTERED), FN(BP_ONE_CELL), FN(BP_FAR), FN(BP_MIXED) };

/* One random cloud of kind `kind`, checked against brute force with ample
 * capacity, then with a capacity of half the pairs (overflow). */
static void FN(bp_case)(int kind, size_t n, double rmin, double rmax, double skin,
                        double cell_factor, uint64_t seed, double offset)
{
    CT c;
    REQUIRE(FN(ct_alloc)(&c, n));
    xt_rng rng = {seed};
    /* about a few neighbours per particle at radius ~0.04, scaled with the
     * radii (the float clouds far from the origin have metre radii) */
    const double scale = rmax > 0.06 ? rmax / 0.06 : 1;
    const double side =
        kind == FN(BP_ONE_CELL) ? rmin : (0.12 * cbrt((double)n + 1) + 0.1) * scale;
    double centres[8][3];
    for (int k = 0; k < 8; ++k)
        for (int d = 0; d < 3; ++d)
            centres[k][d] = xt_range(&rng, -side, side);
    for (size_t i = 0; i < n; ++i) {
        double x[3];
        for (int d = 0; d < 3; ++d) {
            switch (kind) {
            case FN(BP_CLUSTERED): /* eight tight clusters: deep buckets */
                x[d] = centres[i % 8][d] + xt_range(&rng, -0.05, 0.05);
                break;
            case FN(BP_ONE_CELL):
                x[d] = xt_range(&rng, 0, side);
                break;
            default:
                x[d] = xt_range(&rng, -side, side);
                break;
            }
        }
        /* far clouds: half near +offset, half near -offset on every axis */
        const double o = kind == FN(BP_FAR) ? (i % 2 ? offset : -offset) : 0;
        c.p.x[i] = (R)(x[0] + o);
        c.p.y[i] = (R)(x[1] - o);
        c.p.z[i] = (R)(x[2] + o);
        c.r[i] = kind == FN(BP_MIXED) && i % 3 == 0 ? 0 : (R)xt_range(&rng, rmin, rmax);
        c.p.w[i] = 1;
    }
    /* duplicates: coincident particles must pair as well */
    if (n > 10) {
        c.p.x[5] = c.p.x[4];
        c.p.y[5] = c.p.y[4];
        c.p.z[5] = c.p.z[4];
    }
    uint64_t *want = malloc((n * (n - (n > 0)) / 2 + 1) * sizeof *want);
    uint64_t *got = NULL;
    REQUIRE(want != NULL);
    const size_t nwant = FN(brute_pairs)(&c.p, c.r, skin, want);
    qsort(want, nwant, sizeof *want, ct_cmp_u64);
    char what[200];
    snprintf(what, sizeof what, "%s broad phase kind %d, n %zu, r [%g, %g], skin %g, cell x%g, "
             "offset %g: %zu pairs", CPREC, kind, n, rmin, rmax, skin, cell_factor, offset, nwant);
    double rmax_real = 0;
    for (size_t i = 0; i < n; ++i)
        if ((double)c.r[i] > rmax_real)
            rmax_real = (double)c.r[i];
    const xpbd_broadphase bp = {cell_factor * (2 * rmax_real + skin), skin, 0, NULL};

    /* ample capacity: exactly the brute-force set */
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, nwant + 7));
    size_t bad = 0;
    ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes, &set.cs,
                                             &bad),
                  XPBD_OK);
    ENSURE_INT(bad, SIZE_MAX);
    ENSURE_INT(set.cs.count, nwant);
    ENSURE_INT(set.cs.dropped, 0);
    got = malloc((set.cs.slots + 1) * sizeof *got);
    REQUIRE(got != NULL);
    const size_t ngot = ct_pairs(&set.cs, got);
    ENSURE_INT(ngot, nwant);
    if (ngot == nwant && nwant && memcmp(got, want, nwant * sizeof *got) != 0) {
        xt_fail_begin(__FILE__, __LINE__);
        fprintf(stderr, "%s: the pair sets differ\n", what);
    }
    ct_colouring_ok(&set.cs, n, what);
    ENSURE(ct_set_guards_ok(&set));
    /* deterministic: a second run gives the same slots */
    {
        ct_set again;
        REQUIRE(ct_set_alloc(&again, n, nwant + 7));
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, again.work, again.work_bytes,
                                                 &again.cs, NULL),
                      XPBD_OK);
        ENSURE_INT(again.cs.slots, set.cs.slots);
        if (again.cs.slots == set.cs.slots) {
            SAME_U32(again.cs.i0, set.cs.i0, set.cs.slots, what);
            SAME_U32(again.cs.i1, set.cs.i1, set.cs.slots, what);
        }
        ct_set_free(&again);
    }
    /* a still mask (every third particle): the same pairs less those
     * between two still particles, none lost between still and moving */
    {
        uint8_t *still = malloc(n + 1);
        uint64_t *keep = malloc((nwant + 1) * sizeof *keep);
        REQUIRE(still && keep);
        for (size_t i = 0; i < n; ++i)
            still[i] = i % 3 == 0;
        size_t nkeep = 0;
        for (size_t k = 0; k < nwant; ++k)
            if (!(still[want[k] >> 32] && still[want[k] & 0xffffffffu]))
                keep[nkeep++] = want[k];
        xpbd_broadphase bs = bp;
        bs.still = still;
        ct_set masked;
        REQUIRE(ct_set_alloc(&masked, n, nwant + 7));
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bs, masked.work, masked.work_bytes,
                                                 &masked.cs, NULL),
                      XPBD_OK);
        const size_t nm = ct_pairs(&masked.cs, got);
        ENSURE_INT(nm, nkeep);
        if (nm == nkeep && nm && memcmp(got, keep, nm * sizeof *got) != 0) {
            xt_fail_begin(__FILE__, __LINE__);
            fprintf(stderr, "%s: the pair sets with a still mask differ\n", what);
        }
        ct_colouring_ok(&masked.cs, n, what);
        ct_set_free(&masked);
        free(still);
        free(keep);
    }
    ct_set_free(&set);

    /* capacity for half the pairs: XPBD_OVERFLOW, the first half kept (a
     * subset of the true pairs), the rest counted, nothing written past
     * the buffers */
    if (nwant >= 2) {
        const size_t cap = nwant / 2;
        REQUIRE(ct_set_alloc(&set, n, cap));
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes,
                                                 &set.cs, NULL),
                      XPBD_OVERFLOW);
        ENSURE_INT(set.cs.count, cap);
        ENSURE_INT(set.cs.max_contacts, cap);
        ENSURE_INT(set.cs.dropped, nwant - cap);
        ENSURE(ct_set_guards_ok(&set));
        const size_t nk = ct_pairs(&set.cs, got);
        ENSURE_INT(nk, cap);
        for (size_t k = 0; k < nk; ++k)
            if (!bsearch(&got[k], want, nwant, sizeof *want, ct_cmp_u64)) {
                xt_fail_begin(__FILE__, __LINE__);
                fprintf(stderr, "%s: overflow kept a pair that is not a contact\n", what);
                break;
            }
        ct_colouring_ok(&set.cs, n, what);
        ct_set_free(&set);
    }
    free(got);
    free(want);
    FN(ct_free)(&c);
}

/* The boundary of the predicate: a cubic lattice of spacing 1/4 with radii
 * 1/8 (every number exact), so each pair of neighbours is exactly at
 * r_i + r_j + skin: "closer than" is strict, so there is no pair; radii
 * one ulp larger make every axis neighbour a pair and nothing else (the
 * face diagonals are sqrt(2)/4 away). With skin 1/16 and radii 3/32 the
 * same boundary is reached through the skin. */
static void FN(bp_lattice)(void)
{
    const int side = 9;
    const size_t n = (size_t)side * side * side;
    CT c;
    REQUIRE(FN(ct_alloc)(&c, n));
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, 4 * n));
    for (int variant = 0; variant < 3; ++variant) {
        const R r = variant == 0   ? (R)0.125
                       : variant == 1 ? SFX(ct_next_up)((R)0.125)
                                      : (R)0.09375;
        const double skin = variant == 2 ? 0.0625 : 0;
        for (size_t i = 0; i < n; ++i) {
            /* around -1 so the cells straddle zero */
            c.p.x[i] = (R)(0.25 * (double)(i % side) - 1);
            c.p.y[i] = (R)(0.25 * (double)(i / side % side) - 1);
            c.p.z[i] = (R)(0.25 * (double)(i / side / side) - 1);
            c.r[i] = r;
            c.p.w[i] = 1;
        }
        const xpbd_broadphase bp = {0, skin, 0, NULL};
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes,
                                                 &set.cs, NULL),
                      XPBD_OK);
        const size_t axis_pairs = 3 * (size_t)side * side * (side - 1);
        ENSURE_INT(set.cs.count, variant == 1 ? axis_pairs : 0);
        ENSURE(ct_set_guards_ok(&set));
        ct_colouring_ok(&set.cs, n, "lattice");
    }
    ct_set_free(&set);
    FN(ct_free)(&c);
}

static void FN(broadphase)(void)
{
    static const size_t sizes[] = {0, 1, 2, 17, 300, 3000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const size_t n = sizes[s];
        const uint64_t seed = 0xb9a5e000ull + n;
        FN(bp_case)(FN(BP_UNIFORM), n, 0.02, 0.06, 0, 1, seed, 0);
        FN(bp_case)(FN(BP_UNIFORM), n, 0.0, 0.0, 0.08, 1, seed + 1, 0); /* points, skin only */
        FN(bp_case)(FN(BP_UNIFORM), n, 0.01, 0.09, 0.05, 1, seed + 2, 0);
        FN(bp_case)(FN(BP_UNIFORM), n, 0.02, 0.06, 0.02, 3.5, seed + 3, 0); /* coarse cells */
        FN(bp_case)(FN(BP_CLUSTERED), n, 0.005, 0.02, 0.01, 1, seed + 4, 0);
        FN(bp_case)(FN(BP_MIXED), n, 0.0, 0.07, 0.01, 1, seed + 5, 0);
        if (n <= 300) /* every particle in one cell: n^2/2 pairs */
            FN(bp_case)(FN(BP_ONE_CELL), n, 0.05, 0.05, 0, 1, seed + 6, 0);
        /* far from the origin, both signs: cells at ~1e6 / cell size. In
         * float a coordinate near 1e6 has an ulp of 1/16 m, so the radii
         * are metres there, not centimetres. */
        FN(bp_case)(FN(BP_FAR), n, R_F64 ? 0.02 : 1.0, R_F64 ? 0.06 : 3.0, 0.01, 1, seed + 7,
                    R_F64 ? 1.0e6 : 2.0e6);
    }
    FN(bp_lattice)();
}

/* ---------------------------------------------------------- bad input --- */

/* Eight balls in a box of planes, stepped once to prove the world is good;
 * then every bad field in turn: the documented status, and the particle
 * arrays and radii bit-identical to what they were before the call. */
static void FN(bad)(void)
{
    const size_t n = 8;
    CT c;
    REQUIRE(FN(ct_alloc)(&c, n));
    for (size_t i = 0; i < n; ++i) {
        c.p.x[i] = (R)(0.3 * (double)i);
        c.p.y[i] = (R)(0.1 + 0.05 * (double)(i % 3));
        c.p.vx[i] = (R)0.5;
        c.p.w[i] = 1;
        c.r[i] = (R)0.16;
    }
    xpbd_plane planes[2] = {{{0, 1, 0}, 0}, {{1, 0, 0}, -0.2}};
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, 32));
    size_t sb;
    void *scratch = FN(ct_scratch)(n, 32, &sb);
    REQUIRE(scratch != NULL);
    CW w = FN(ct_world)(&c, &set.cs, planes, 2);
    const xpbd_step_config good = xpbd_step_config_default();
    REQUIRE_STATUS(SFX(xpbd_world_step)(&good, 1.0 / 60.0, &w, scratch, sb, NULL), XPBD_OK);
    REQUIRE(set.cs.count > 0);

    const double nan = NAN;
    struct {
        const char *what;
        int field;
        double value;
        xpbd_status want;
    } cfgs[] = {
        {"restitution -0.1", 0, -0.1, XPBD_ERR_RESTITUTION},
        {"restitution 1.5", 0, 1.5, XPBD_ERR_RESTITUTION},
        {"restitution NaN", 0, nan, XPBD_ERR_RESTITUTION},
        {"beta 0", 1, 0, XPBD_ERR_BETA},
        {"beta -0.5", 1, -0.5, XPBD_ERR_BETA},
        {"beta 1.01", 1, 1.01, XPBD_ERR_BETA},
        {"beta NaN", 1, nan, XPBD_ERR_BETA},
        {"slop -1e-3", 2, -1e-3, XPBD_ERR_SLOP},
        {"slop inf", 2, INFINITY, XPBD_ERR_SLOP},
        {"mu_s -0.1", 3, -0.1, XPBD_ERR_FRICTION},
        {"mu_s NaN", 3, nan, XPBD_ERR_FRICTION},
        {"mu_k -0.1", 4, -0.1, XPBD_ERR_FRICTION},
        {"mu_k > mu_s", 4, 0.5, XPBD_ERR_FRICTION},
        {"skin -0.01", 5, -0.01, XPBD_ERR_CONFIG},
        {"contact order 7", 6, 7, XPBD_ERR_CONFIG},
    };
    const size_t state = FN(CT_STATE) * n * sizeof(R);
    unsigned char *before = malloc(state);
    REQUIRE(before != NULL);
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; ++k) {
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.friction_static = 0.2;
        cfg.friction_dynamic = 0.1;
        switch (cfgs[k].field) {
        case 0: cfg.restitution = cfgs[k].value; break;
        case 1: cfg.contact_beta = cfgs[k].value; break;
        case 2: cfg.contact_slop = cfgs[k].value; break;
        case 3: cfg.friction_static = cfgs[k].value; break;
        case 4: cfg.friction_dynamic = cfgs[k].value; break;
        case 5: cfg.contact_skin = cfgs[k].value; break;
        default: cfg.contact_order = (xpbd_contact_order)(int)cfgs[k].value; break;
        }
        memcpy(before, c.block, state);
        xpbd_step_counters kc;
        const xpbd_status st = SFX(xpbd_world_step)(&cfg, 1.0 / 60.0, &w, scratch, sb, &kc);
        if (st != cfgs[k].want) {
            xt_fail_begin(__FILE__, __LINE__);
            fprintf(stderr, "%s %s: got %s, want %s\n", CPREC, cfgs[k].what,
                    xpbd_status_str(st), xpbd_status_str(cfgs[k].want));
        }
        ENSURE_INT(kc.status, cfgs[k].want);
        SAME_BYTES(c.block, before, state, cfgs[k].what);
    }
    /* bad particles, radii and planes: the offending index is named */
    for (int k = 0; k < 7; ++k) {
        xpbd_plane pl[2] = {planes[0], planes[1]};
        R *slot = NULL, old = 0;
        xpbd_status want = XPBD_OK;
        size_t want_index = 3;
        const char *what = "";
        switch (k) {
        case 0: slot = &c.r[3]; what = "radius -0.1"; want = XPBD_ERR_RADIUS; old = -0.1f; break;
        case 1: slot = &c.r[3]; what = "radius NaN"; want = XPBD_ERR_RADIUS; old = (R)nan; break;
        case 2: slot = &c.p.y[3]; what = "position NaN"; want = XPBD_ERR_POSITION; old = (R)nan; break;
        case 3: slot = &c.p.vx[3]; what = "velocity inf"; want = XPBD_ERR_VELOCITY; old = (R)INFINITY; break;
        case 4: pl[1].n[0] = 2; what = "plane normal length 2"; want = XPBD_ERR_PLANE; want_index = 1; break;
        case 5: pl[0].n[0] = 1; what = "plane normal (1, 1, 0)"; want = XPBD_ERR_PLANE; want_index = 0; break;
        default: pl[1].d = nan; what = "plane d NaN"; want = XPBD_ERR_PLANE; want_index = 1; break;
        }
        R saved = 0;
        if (slot) {
            saved = *slot;
            *slot = old;
        }
        CW wb = FN(ct_world)(&c, &set.cs, pl, 2);
        memcpy(before, c.block, state);
        xpbd_step_counters kc;
        ENSURE_STATUS(SFX(xpbd_world_step)(&good, 1.0 / 60.0, &wb, scratch, sb, &kc), want);
        ENSURE_INT(kc.bad_index, want_index);
        SAME_BYTES(c.block, before, state, what);
        if (slot)
            *slot = saved;
    }
    /* a fixed contact set naming a particle out of range */
    {
        ct_set fixed;
        REQUIRE(ct_set_alloc(&fixed, 2 * n, 4));
        const uint32_t a0[2] = {0, 2}, a1[2] = {1, 2 * (uint32_t)n - 1};
        REQUIRE_STATUS(xpbd_contact_set_assign(&fixed.cs, 2 * n, 2, a0, a1, 0, 1, fixed.work,
                                               fixed.work_bytes, NULL),
                       XPBD_OK);
        CW wf = FN(ct_world)(&c, &fixed.cs, planes, 2);
        wf.contacts_fixed = 1;
        memcpy(before, c.block, state);
        xpbd_step_counters kc;
        ENSURE_STATUS(SFX(xpbd_world_step)(&good, 1.0 / 60.0, &wf, scratch, sb, &kc),
                      XPBD_ERR_INDEX);
        ENSURE_INT(kc.bad_index, 1);
        SAME_BYTES(c.block, before, state, "fixed contact out of range");
        ct_set_free(&fixed);
    }
    /* the broad phase directly: errors leave the set empty */
    {
        size_t bad = 0;
        const xpbd_broadphase bp = {0, 0.01, 0, NULL};
        c.r[6] = -1;
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes,
                                                 &set.cs, &bad),
                      XPBD_ERR_RADIUS);
        ENSURE_INT(bad, 6);
        ENSURE_INT(set.cs.count, 0);
        ENSURE_INT(set.cs.slots, 0);
        c.r[6] = (R)0.16;
        c.p.z[2] = (R)INFINITY;
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes,
                                                 &set.cs, &bad),
                      XPBD_ERR_POSITION);
        ENSURE_INT(bad, 2);
        c.p.z[2] = 0;
        const xpbd_broadphase neg = {0, -0.01, 0, NULL}, tiny = {0.1, 0.0, 0, NULL}, many = {0, 0, 65, NULL};
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &neg, set.work, set.work_bytes,
                                                 &set.cs, NULL),
                      XPBD_ERR_CONFIG);
        /* a cell smaller than 2*max radius would miss pairs */
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &tiny, set.work, set.work_bytes,
                                                 &set.cs, NULL),
                      XPBD_ERR_CONFIG);
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &many, set.work, set.work_bytes,
                                                 &set.cs, NULL),
                      XPBD_ERR_CONFIG);
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, set.work, set.work_bytes - 8,
                                                 &set.cs, NULL),
                      XPBD_ERR_ARGUMENT);
        ENSURE_STATUS(SFX(xpbd_contacts_find)(&c.p, c.r, &bp, (char *)set.work + 4,
                                                 set.work_bytes, &set.cs, NULL),
                      XPBD_ERR_ARGUMENT);
        ENSURE_INT(set.cs.count, 0);
    }
    free(before);
    free(scratch);
    ct_set_free(&set);
    FN(ct_free)(&c);
}

/* ------------------------------------------------- SIMD vs reference --- */

/* A random cloud for the cross-checks: balls in a box whose floor (y = 0)
 * some of them cross, about three neighbours each, 15% static, previous
 * positions a random step away (so friction sees tangential motion), one
 * coincident pair (skipped by every kernel). */
static void FN(cross_cloud)(CT *c, xt_rng *rng)
{
    const size_t n = c->n;
    const double side = 0.11 * cbrt((double)n + 1) + 0.05;
    for (size_t i = 0; i < n; ++i) {
        c->p.x[i] = (R)xt_range(rng, 0, side);
        c->p.y[i] = (R)xt_range(rng, -0.05, side);
        c->p.z[i] = (R)xt_range(rng, 0, side);
        c->p.px[i] = c->p.x[i] - (R)xt_range(rng, -0.02, 0.02);
        c->p.py[i] = c->p.y[i] - (R)xt_range(rng, -0.02, 0.02);
        c->p.pz[i] = c->p.z[i] - (R)xt_range(rng, -0.02, 0.02);
        c->p.vx[i] = (R)xt_range(rng, -1, 1);
        c->p.vy[i] = (R)xt_range(rng, -1, 1);
        c->p.vz[i] = (R)xt_range(rng, -1, 1);
        c->p.w[i] = xt_unit(rng) < 0.15 ? 0 : (R)xt_range(rng, 0.2, 3);
        c->r[i] = (R)xt_range(rng, 0.02, 0.06);
        c->imp[i] = (R)xt_range(rng, 0, 1);
    }
    if (n > 3) {
        c->p.x[3] = c->p.x[2];
        c->p.y[3] = c->p.y[2];
        c->p.z[3] = c->p.z[2];
    }
    FN(ct_pack)(c);
}

/* Every contact kernel of the ISA under test against the scalar table on
 * the same data: after every colour (or particle range) all arrays, the
 * packed copy and the return value must agree bit for bit. */
static void FN(cross_kernels)(void)
{
    const CK *T = CGET(xt_isa), *S = CGET(XPBD_ISA_SCALAR);
    REQUIRE(T != NULL && S != NULL);
    const unsigned lanes = T->lanes;
    const size_t sizes[] = {0, 1, lanes - 1, lanes, lanes + 1, 16, 17, 33, 500, 3000};
    uint64_t total_hits = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
        const size_t n = sizes[si];
        CT a, b;
        REQUIRE(FN(ct_alloc)(&a, n) && FN(ct_alloc)(&b, n));
        xt_rng rng = {0xc0de0000ull + n};
        ct_set set;
        REQUIRE(ct_set_alloc(&set, n, 8 * n + 8));
        for (int variant = 0; variant < 2; ++variant) {
            FN(cross_cloud)(&a, &rng);
            /* variant 1: max_colours 2, so the overflow range is exercised */
            const xpbd_broadphase bp = {0, 0.01, variant ? 2u : 0u, NULL};
            REQUIRE(SFX(xpbd_contacts_find)(&a.p, a.r, &bp, set.work, set.work_bytes,
                                               &set.cs, NULL) == XPBD_OK);
            const xpbd_contact_set *cs = &set.cs;
            for (int kernel = 0; kernel < 11; ++kernel) {
                FN(ct_copy)(&b, &a);
                char what[160];
                snprintf(what, sizeof what, "%s n=%zu variant %d kernel %d (%u contacts)", CPREC,
                         n, variant, kernel, (unsigned)cs->count);
                const R mu_s = kernel == 1 || kernel == 2 ? (R)0.6 : 0;
                const R mu_k = kernel == 1 || kernel == 2 ? (R)0.35 : 0;
                const R floor_[4] = {0, 1, 0, 0};
                const R tilt[4] = {(R)0.6, (R)0.8, 0, (R)0.05};
                const size_t b0 = n > 5 ? 1 : 0, b1 = n > 5 ? n - 2 : n;
                uint32_t ha = 0, hb = 0;
                switch (kernel) {
                case 0: /* position, weighted */
                case 1: /* position, weighted, friction */
                case 2: /* position, unweighted (all to i1), friction */
                case 3: /* velocity */
                    for (uint32_t col = 0; col < cs->colours; ++col) {
                        const uint32_t nb = xpbd_colour_batches(cs->colour_begin, col);
                        uint32_t x, y;
                        if (kernel == 3) {
                            x = T->velocity(&a.p, a.r, cs, col, 0, nb, (R)0.3, (R)0.01);
                            y = S->velocity(&b.p, b.r, cs, col, 0, nb, (R)0.3, (R)0.01);
                        } else {
                            const int wt = kernel != 2;
                            x = T->position(a.q, &a.p, a.r, cs, col, 0, nb, (R)0.8, wt, mu_s,
                                            mu_k);
                            y = S->position(b.q, &b.p, b.r, cs, col, 0, nb, (R)0.8, wt, mu_s,
                                            mu_k);
                        }
                        ENSURE_INT(x, y);
                        ha += x;
                        hb += y;
                        FN(ct_same)(&a, &b, what);
                    }
                    break;
                case 4: /* plane position, floor, friction, unaligned range */
                    ha = T->plane_position(a.q, &a.p, a.r, b0, b1, floor_, (R)0.9, (R)0.5,
                                           (R)0.3, a.imp, (R)(1.0 / 240.0));
                    hb = S->plane_position(b.q, &b.p, b.r, b0, b1, floor_, (R)0.9, (R)0.5,
                                           (R)0.3, b.imp, (R)(1.0 / 240.0));
                    break;
                case 5: /* plane position, tilted, no friction */
                    ha = T->plane_position(a.q, &a.p, a.r, 0, n, tilt, 1, 0, 0, NULL, 0);
                    hb = S->plane_position(b.q, &b.p, b.r, 0, n, tilt, 1, 0, 0, NULL, 0);
                    break;
                case 6: /* plane velocity with and without the impulse array */
                    ha = T->plane_velocity(&a.p, a.r, b0, b1, floor_, (R)0.4, (R)0.01,
                                           a.imp);
                    hb = S->plane_velocity(&b.p, b.r, b0, b1, floor_, (R)0.4, (R)0.01,
                                           b.imp);
                    ha += T->plane_velocity(&a.p, a.r, 0, n, tilt, (R)0.1, (R)0.02, NULL);
                    hb += S->plane_velocity(&b.p, b.r, 0, n, tilt, (R)0.1, (R)0.02, NULL);
                    break;
                case 7: /* gravity */
                    T->gravity(&a.p, b0, b1, (R)0.01, (R)-0.1635, (R)-0.02);
                    S->gravity(&b.p, b0, b1, (R)0.01, (R)-0.1635, (R)-0.02);
                    break;
                case 8: /* integrate */
                    T->integrate(&a.p, b0, b1, (R)(1.0 / 60.0));
                    S->integrate(&b.p, b0, b1, (R)(1.0 / 60.0));
                    break;
                case 9: /* restitution against pre-solve velocities (px.. stand in) */
                    for (uint32_t col = 0; col < cs->colours; ++col) {
                        const uint32_t nb = xpbd_colour_batches(cs->colour_begin, col);
                        const uint32_t x = T->restitution(&a.p, a.r, cs, a.p.px, a.p.py, a.p.pz,
                                                          col, 0, nb, (R)0.6, (R)0.01,
                                                          (R)0.05);
                        const uint32_t y = S->restitution(&b.p, b.r, cs, b.p.px, b.p.py, b.p.pz,
                                                          col, 0, nb, (R)0.6, (R)0.01,
                                                          (R)0.05);
                        ENSURE_INT(x, y);
                        ha += x;
                        hb += y;
                        FN(ct_same)(&a, &b, what);
                    }
                    ha += SFX(xpbd_serial_contact_restitution)(
                        &a.p, a.r, cs, a.p.px, a.p.py, a.p.pz, cs->overflow_begin, cs->slots,
                        (R)0.6, (R)0.01, (R)0.05);
                    hb += SFX(xpbd_serial_contact_restitution)(
                        &b.p, b.r, cs, b.p.px, b.p.py, b.p.pz, cs->overflow_begin, cs->slots,
                        (R)0.6, (R)0.01, (R)0.05);
                    break;
                default: /* plane restitution, with and without the impulse array */
                    ha = T->plane_restitution(&a.p, a.r, a.p.px, a.p.py, a.p.pz, b0, b1, floor_,
                                              (R)0.7, (R)0.01, (R)0.05, a.imp);
                    hb = S->plane_restitution(&b.p, b.r, b.p.px, b.p.py, b.p.pz, b0, b1, floor_,
                                              (R)0.7, (R)0.01, (R)0.05, b.imp);
                    ha += T->plane_restitution(&a.p, a.r, a.p.px, a.p.py, a.p.pz, 0, n, tilt,
                                               (R)0.2, (R)0.02, 0, NULL);
                    hb += S->plane_restitution(&b.p, b.r, b.p.px, b.p.py, b.p.pz, 0, n, tilt,
                                               (R)0.2, (R)0.02, 0, NULL);
                    break;
                }
                if (kernel <= 3) { /* the overflow range, serially on both */
                    if (kernel == 3) {
                        ha += SFX(xpbd_serial_contact_velocity)(&a.p, a.r, cs,
                                                                   cs->overflow_begin, cs->slots,
                                                                   (R)0.3, (R)0.01);
                        hb += SFX(xpbd_serial_contact_velocity)(&b.p, b.r, cs,
                                                                   cs->overflow_begin, cs->slots,
                                                                   (R)0.3, (R)0.01);
                    } else {
                        ha += SFX(xpbd_serial_contact_position)(
                            a.q, &a.p, a.r, cs, cs->overflow_begin, cs->slots, (R)0.8,
                            kernel != 2, mu_s, mu_k);
                        hb += SFX(xpbd_serial_contact_position)(
                            b.q, &b.p, b.r, cs, cs->overflow_begin, cs->slots, (R)0.8,
                            kernel != 2, mu_s, mu_k);
                    }
                }
                ENSURE_INT(ha, hb);
                FN(ct_same)(&a, &b, what);
                total_hits += ha;
                /* keep the moved state: the next kernel starts from it */
                FN(ct_unpack)(&a);
                FN(ct_pack)(&a);
            }
            /* a colour's batch range split in two gives the whole call */
            if (cs->colours > 0 && xpbd_colour_batches(cs->colour_begin, 0) >= 2) {
                const uint32_t nb = xpbd_colour_batches(cs->colour_begin, 0);
                FN(ct_copy)(&b, &a);
                const uint32_t x = T->position(a.q, &a.p, a.r, cs, 0, 0, nb, 1, 1, (R)0.5,
                                               (R)0.2);
                uint32_t y = T->position(b.q, &b.p, b.r, cs, 0, 0, 1, 1, 1, (R)0.5, (R)0.2);
                y += T->position(b.q, &b.p, b.r, cs, 0, 1, nb, 1, 1, (R)0.5, (R)0.2);
                ENSURE_INT(x, y);
                FN(ct_same)(&a, &b, "position, batch range split");
                const uint32_t u = T->velocity(&a.p, a.r, cs, 0, 0, nb, (R)0.7, 0);
                uint32_t v = T->velocity(&b.p, b.r, cs, 0, 0, 1, (R)0.7, 0);
                v += T->velocity(&b.p, b.r, cs, 0, 1, nb, (R)0.7, 0);
                ENSURE_INT(u, v);
                FN(ct_same)(&a, &b, "velocity, batch range split");
            }
        }
        ct_set_free(&set);
        FN(ct_free)(&a);
        FN(ct_free)(&b);
    }
    ENSURE(total_hits > 1000); /* the kernels did real work */
}

/* Full world steps, the forced ISA against the scalar path: a box of five
 * planes, balls dropped into it with the broad phase each step, friction,
 * restitution, in both contact orders (and with a few distance constraints
 * in the substep order); every array, the plane impulses and the contact
 * set compared bit for bit after every frame. */
static void FN(cross_world)(void)
{
    const size_t n = 700;
    const xpbd_plane box[5] = {{{0, 1, 0}, 0},   {{1, 0, 0}, 0},   {{-1, 0, 0}, -0.8},
                               {{0, 0, 1}, 0},   {{0, 0, -1}, -0.8}};
    for (int order = 0; order < 2; ++order) {
        CT a, b;
        REQUIRE(FN(ct_alloc)(&a, n) && FN(ct_alloc)(&b, n));
        xt_rng rng = {0x5eed0000ull + (uint64_t)order};
        for (size_t i = 0; i < n; ++i) {
            a.p.x[i] = (R)xt_range(&rng, 0.05, 0.75);
            a.p.y[i] = (R)xt_range(&rng, 0.0, 1.2);
            a.p.z[i] = (R)xt_range(&rng, 0.05, 0.75);
            a.p.vx[i] = (R)xt_range(&rng, -1, 1);
            a.p.vy[i] = (R)xt_range(&rng, -1, 1);
            a.p.vz[i] = (R)xt_range(&rng, -1, 1);
            a.p.w[i] = i % 50 == 0 ? 0 : (R)xt_range(&rng, 0.5, 2);
            a.r[i] = (R)xt_range(&rng, 0.02, 0.04);
        }
        FN(ct_copy)(&b, &a);
        ct_set sa, sbs;
        REQUIRE(ct_set_alloc(&sa, n, 24 * n) && ct_set_alloc(&sbs, n, 24 * n));
        /* a few distance links in the substep order */
        SFX(xpbd_distance_set) da, db;
        memset(&da, 0, sizeof da);
        memset(&db, 0, sizeof db);
        uint32_t l0[20], l1[20];
        R rest[20], comp[20];
        for (uint32_t k = 0; k < 20; ++k) {
            l0[k] = 10 * k + 1;
            l1[k] = 10 * k + 2;
            rest[k] = (R)0.1;
            comp[k] = (R)1e-4;
        }
        if (order == XPBD_CONTACTS_SUBSTEP) {
            REQUIRE(SFX(xpbd_distance_set_build)(&da, n, 20, l0, l1, rest, comp, NULL,
                                                      NULL) == XPBD_OK);
            REQUIRE(SFX(xpbd_distance_set_build)(&db, n, 20, l0, l1, rest, comp, NULL,
                                                      NULL) == XPBD_OK);
        }
        const size_t bytes = SFX(xpbd_world_scratch_bytes)(n, da.slots, 24 * n);
        void *scra = aligned_alloc(64, (bytes + 63) / 64 * 64);
        void *scrb = aligned_alloc(64, (bytes + 63) / 64 * 64);
        REQUIRE(scra && scrb);
        CW wa = FN(ct_world)(&a, &sa.cs, box, 5), wb = FN(ct_world)(&b, &sbs.cs, box, 5);
        if (order == XPBD_CONTACTS_SUBSTEP) {
            wa.constraints = &da;
            wb.constraints = &db;
        }
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.contact_order = (xpbd_contact_order)order;
        cfg.substeps = order ? 1 : 2;
        cfg.iterations = 3;
        cfg.restitution = 0.3;
        cfg.friction_static = 0.5;
        cfg.friction_dynamic = 0.3;
        cfg.contact_beta = order ? 0.8 : 1.0;
        uint64_t hits = 0;
        for (int frame = 0; frame < 30; ++frame) {
            xpbd_step_counters ka, kb;
            cfg.isa = xt_isa;
            const xpbd_status st_a = SFX(xpbd_world_step)(&cfg, 1.0 / 60.0, &wa, scra, bytes,
                                                             &ka);
            cfg.isa = XPBD_ISA_SCALAR;
            const xpbd_status st_b = SFX(xpbd_world_step)(&cfg, 1.0 / 60.0, &wb, scrb, bytes,
                                                             &kb);
            ENSURE_STATUS(st_a, XPBD_OK);
            ENSURE_STATUS(st_b, XPBD_OK);
            ENSURE_INT(ka.isa, xt_isa);
            ENSURE_INT(ka.contact_hits, kb.contact_hits);
            ENSURE_INT(sa.cs.slots, sbs.cs.slots);
            char what[96];
            snprintf(what, sizeof what, "%s world step, order %d, frame %d", CPREC, order, frame);
            if (!FN(ct_same)(&a, &b, what))
                break;
            SAME_U32(sa.cs.i0, sbs.cs.i0, sa.cs.slots, what);
            SAME_U32(sa.cs.i1, sbs.cs.i1, sa.cs.slots, what);
            if (da.slots)
                CSAME(da.lambda, db.lambda, da.slots, what);
            hits += ka.contact_hits;
        }
        ENSURE(hits > 1000);
        free(scra);
        free(scrb);
        SFX(xpbd_distance_set_free)(&da);
        SFX(xpbd_distance_set_free)(&db);
        ct_set_free(&sa);
        ct_set_free(&sbs);
        FN(ct_free)(&a);
        FN(ct_free)(&b);
    }
}

#undef CT
#undef CK
#undef CP
#undef CW
#undef CGET
#undef CSAME
#undef FN
#undef CPREC

#else /* !CT_BODY */

/* ========================================================== shared === */

#include "fixture.h"
#include <xpbd/reference.h>
#include "scenes.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

extern const xt_test xt_tests_contacts[];

static int ct_cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A contact set with guard words after both index arrays and after the
 * broad-phase workspace: a kernel or the broad phase writing one element
 * too far changes a guard. */
#define CT_GUARD 16
#define CT_GUARD_WORD 0xdeadbeefu
#define CT_GUARD_BYTE 0xa5

typedef struct ct_set {
    xpbd_contact_set cs;
    uint32_t *i0, *i1;
    unsigned char *work;
    size_t slots, work_bytes;
} ct_set;

static int ct_set_alloc(ct_set *s, size_t n, size_t max_contacts)
{
    memset(s, 0, sizeof *s);
    s->slots = xpbd_contact_slots(max_contacts);
    s->work_bytes = xpbd_contacts_work_bytes(n, max_contacts);
    s->i0 = malloc((s->slots + CT_GUARD) * sizeof *s->i0);
    s->i1 = malloc((s->slots + CT_GUARD) * sizeof *s->i1);
    s->work = malloc(s->work_bytes + CT_GUARD); /* malloc: aligned for any type */
    if (!s->i0 || !s->i1 || !s->work) {
        free(s->i0);
        free(s->i1);
        free(s->work);
        return 0;
    }
    for (size_t k = 0; k < CT_GUARD; ++k) {
        s->i0[s->slots + k] = s->i1[s->slots + k] = CT_GUARD_WORD;
        s->work[s->work_bytes + k] = CT_GUARD_BYTE;
    }
    return xpbd_contact_set_init(&s->cs, s->i0, s->i1, s->slots, max_contacts) == XPBD_OK;
}

static int ct_set_guards_ok(const ct_set *s)
{
    for (size_t k = 0; k < CT_GUARD; ++k)
        if (s->i0[s->slots + k] != CT_GUARD_WORD || s->i1[s->slots + k] != CT_GUARD_WORD ||
            s->work[s->work_bytes + k] != CT_GUARD_BYTE)
            return 0;
    return 1;
}

static void ct_set_free(ct_set *s)
{
    free(s->i0);
    free(s->i1);
    free(s->work);
    memset(s, 0, sizeof *s);
}

/* The real pairs of a set (colours' real slots and the overflow range) as
 * sorted keys (min << 32 | max). */
static size_t ct_pairs(const xpbd_contact_set *cs, uint64_t *out)
{
    size_t k = 0;
    for (uint32_t c = 0; c < cs->colours; ++c)
        for (uint32_t s = cs->colour_begin[c]; s < cs->colour_begin[c] + cs->colour_size[c]; ++s) {
            const uint64_t a = cs->i0[s] < cs->i1[s] ? cs->i0[s] : cs->i1[s];
            const uint64_t b = cs->i0[s] < cs->i1[s] ? cs->i1[s] : cs->i0[s];
            out[k++] = (a << 32) | b;
        }
    for (uint32_t s = cs->overflow_begin; s < cs->slots; ++s) {
        const uint64_t a = cs->i0[s] < cs->i1[s] ? cs->i0[s] : cs->i1[s];
        const uint64_t b = cs->i0[s] < cs->i1[s] ? cs->i1[s] : cs->i0[s];
        out[k++] = (a << 32) | b;
    }
    qsort(out, k, sizeof *out, ct_cmp_u64);
    return k;
}

/* The layout rules of a contact set: colours of whole batches, the real
 * slots of a colour first and no particle twice among them, padding slots
 * naming one valid particle twice, counts consistent, every real pair two
 * distinct particles below n. Reports the first broken rule. */
static int ct_colouring_ok(const xpbd_contact_set *cs, size_t n, const char *what)
{
    unsigned char *seen = calloc(n + 1, 1);
    int ok = seen != NULL;
    uint32_t real = 0;
    const char *why = ok ? NULL : "out of memory";
    if (cs->colour_begin[0] != 0)
        why = "colour 0 does not start at slot 0";
    for (uint32_t c = 0; ok && !why && c < cs->colours; ++c) {
        const uint32_t b = cs->colour_begin[c], e = cs->colour_begin[c + 1];
        if (b % XPBD_BATCH || e < b ||
            e - b != (cs->colour_size[c] + XPBD_BATCH - 1) / XPBD_BATCH * XPBD_BATCH ||
            cs->colour_size[c] == 0) {
            why = "colour not laid out in whole batches";
            break;
        }
        memset(seen, 0, n + 1);
        for (uint32_t s = b; s < e; ++s) {
            const uint32_t i = cs->i0[s], j = cs->i1[s];
            if (s < b + cs->colour_size[c]) {
                if (i >= n || j >= n || i == j) {
                    why = "a real pair names a bad particle";
                    break;
                }
                if (seen[i] || seen[j]) {
                    why = "a colour holds two pairs sharing a particle";
                    break;
                }
                seen[i] = seen[j] = 1;
            } else if (i != j || i >= n) {
                why = "a padding slot is not one valid particle twice";
                break;
            }
        }
        real += cs->colour_size[c];
    }
    if (!why) {
        if (cs->overflow_begin != cs->colour_begin[cs->colours] ||
            cs->slots < cs->overflow_begin || cs->slots > cs->capacity)
            why = "overflow range or slot count inconsistent";
        for (uint32_t s = cs->overflow_begin; !why && s < cs->slots; ++s)
            if (cs->i0[s] >= n || cs->i1[s] >= n || cs->i0[s] == cs->i1[s])
                why = "an overflow pair names a bad particle";
        if (!why && real + (cs->slots - cs->overflow_begin) != cs->count)
            why = "count differs from the pairs laid out";
    }
    free(seen);
    if (why) {
        xt_fail_begin(__FILE__, __LINE__);
        fprintf(stderr, "%s: %s\n", what, why);
        return 0;
    }
    return 1;
}

/* The next representable number above x > 0. */
static float ct_next_up_f32(float x)
{
    return nextafterf(x, INFINITY);
}

static double ct_next_up_f64(double x)
{
    return nextafter(x, INFINITY);
}

#define CT_BODY
#define XPBD_REAL_F32
#include "precision.h"
#define CT_SAME xt_same_f32
#include "test_contacts.c"
#define XPBD_PRECISION_END
#include "precision.h"
#undef CT_SAME

#define XPBD_REAL_F64
#include "precision.h"
#define CT_SAME xt_same_f64
#include "test_contacts.c"
#define XPBD_PRECISION_END
#include "precision.h"
#undef CT_BODY

/* =================================================== double scenes === */

/* The lesson's 1-D stack in double: particle 0 is the plate (w = 0, radius
 * 0.34 at y = 0), balls 1..N of radius 0.18 above it, and a serial contact
 * set of the adjacent pairs bottom-up (plate-ball 1, ball 1-ball 2, ...),
 * the lesson's sweep order. */
typedef struct ct_stack {
    ct_f64 c;
    ct_set set;
    void *scratch;
    size_t scratch_bytes;
    int balls;
} ct_stack;

static int ct_stack_init(ct_stack *s, int balls)
{
    memset(s, 0, sizeof *s);
    s->balls = balls;
    const size_t n = (size_t)balls + 1;
    if (!ct_alloc_f64(&s->c, n) || !ct_set_alloc(&s->set, n, (size_t)balls))
        return 0;
    s->c.r[0] = 0.34;
    s->c.p.w[0] = 0;
    uint32_t i0[16], i1[16];
    for (int k = 0; k < balls; ++k) {
        s->c.r[k + 1] = 0.18;
        s->c.p.w[k + 1] = 1;
        i0[k] = (uint32_t)k;
        i1[k] = (uint32_t)k + 1;
    }
    if (xpbd_contact_set_assign(&s->set.cs, n, (size_t)balls, i0, i1, 0, 1, s->set.work,
                                s->set.work_bytes, NULL) != XPBD_OK)
        return 0;
    s->scratch = ct_scratch_f64(n, 0, &s->scratch_bytes);
    return s->scratch != NULL;
}

static void ct_stack_free(ct_stack *s)
{
    free(s->scratch);
    ct_set_free(&s->set);
    ct_free_f64(&s->c);
}

static xpbd_status ct_stack_step(ct_stack *s, const xpbd_step_config *cfg)
{
    xpbd_world_f64 w = ct_world_f64(&s->c, &s->set.cs, NULL, 0);
    w.contacts_fixed = 1;
    w.plane_impulse = NULL;
    return xpbd_world_step_f64(cfg, 1.0 / 60.0, &w, s->scratch, s->scratch_bytes, NULL);
}

/* Energy with the potential measured from y = 0, unit masses. */
static double ct_stack_energy(const ct_stack *s)
{
    double e = 0;
    for (int k = 1; k <= s->balls; ++k)
        e += 9.81 * s->c.p.y[k] + 0.5 * s->c.p.vy[k] * s->c.p.vy[k];
    return e;
}

static double ct_stack_max_pen(const ct_stack *s)
{
    double m = 0;
    for (int k = 0; k < s->balls; ++k) {
        const double pen = (s->c.r[k] + s->c.r[k + 1]) - (s->c.p.y[k + 1] - s->c.p.y[k]);
        if (pen > m)
            m = pen;
    }
    return m;
}

/* SPEC S2 Table 1, position only, beta = 1: one ball dropped from y = 1.42
 * at rest, 60 frames of h = 1/60 s. Driven stage by stage through the
 * scalar contact table (gravity, integrate, measure, pack, position pass,
 * unpack: the lesson's stepWorld with the velocity pass off) so the raw
 * penetration between integrate and the position pass can be read.
 *   - Once the ball rests on the plate, each frame it sinks |v|*h and is
 *     lifted back exactly: raw penetration = |v|*h to a few ulps of 0.52
 *     (the sum y + v*h and the difference back from it each round once):
 *     tolerance 8 ulp(1) = 1.8e-15 m.
 *   - Nothing touches v: after 60 frames v = -60*(9.81/60) = -9.81 to the
 *     rounding of 60 additions (60 ulp(9.81)), and the last raw penetration
 *     is 0.1635 m (SPEC: exact).
 *   - Energy (m g y + m v^2/2, potential from y = 0): at 1 s the ball sits at
 *     y = 0.52 with |v| = 9.81, E/E0 = (0.52 + 9.81/2)/1.42 = 3.8204
 *     (seed: 3.4-3.9x for every beta).
 * The world step in XPBD_CONTACTS_LESSON order with the velocity pass off
 * gives the same state bit for bit.
 * With the velocity pass on, the position pass still lifts the ball out of
 * the landing frame's sinking without touching v: a gain of at most
 * m g |v| h, |v| <= sqrt(2 g 0.9) + g h = 4.37 m/s, i.e. 5.1% of E0 =
 * m g 1.42 (measured: +1.5% for e = 0 ... 0.75; seed: +2.3%). At e = 1 the
 * frame after landing also reverses a velocity that already holds that
 * frame's g h, so the rebound leaves g h faster instead of g h slower:
 * another 2 m g |v| h at most, 15.4% in all (measured: +11.7% at the bounce,
 * +8.6% at 1 s). Bounds checked at every frame: 1.052 for e <= 0.75 (one
 * bounce within the second, and it loses (1 - e^2) of its kinetic energy),
 * 1.16 for e = 1. */
static void contacts_table1(void)
{
    const xpbd_contact_kernels_f64 *S = xpbd_contact_kernels_get_f64(XPBD_ISA_SCALAR);
    const double h = 1.0 / 60.0, g = 9.81;
    ct_stack s, t;
    REQUIRE(ct_stack_init(&s, 1) && ct_stack_init(&t, 1));
    s.c.p.y[1] = t.c.p.y[1] = 1.42;
    const double e0 = ct_stack_energy(&s);
    double raw = 0, max_raw_err = 0;
    int contact_frames = 0;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = 1;
    cfg.contact_order = XPBD_CONTACTS_LESSON;
    cfg.contact_velocity_pass = 0;
    for (int f = 0; f < 60; ++f) {
        /* resting on the plate at frame start (lifted there last frame) */
        const int touching = s.c.p.y[1] <= 0.52 + 1e-12;
        S->gravity(&s.c.p, 0, 2, 0, -g * h, 0);
        S->integrate(&s.c.p, 0, 2, h);
        raw = 0.52 - (s.c.p.y[1] - s.c.p.y[0]);
        ct_pack_f64(&s.c);
        xpbd_serial_contact_position_f64(s.c.q, &s.c.p, s.c.r, &s.set.cs, 0, s.set.cs.slots, 1,
                                         1, 0, 0);
        ct_unpack_f64(&s.c);
        if (touching) { /* started the frame resting on the plate */
            contact_frames++;
            const double err = fabs(raw - fabs(s.c.p.vy[1]) * h);
            if (err > max_raw_err)
                max_raw_err = err;
        }
        REQUIRE_STATUS(ct_stack_step(&t, &cfg), XPBD_OK);
    }
    ENSURE(contact_frames >= 30); /* lands after ~0.43 s */
    ENSURE_LE(max_raw_err, 8 * DBL_EPSILON);
    ENSURE_NEAR(s.c.p.vy[1], -9.81, 60 * 2 * DBL_EPSILON * 9.81);
    ENSURE_NEAR(raw, 0.1635, 8 * DBL_EPSILON);
    ENSURE_NEAR(s.c.p.y[1], 0.52, 4 * DBL_EPSILON);
    const double ratio = ct_stack_energy(&s) / e0;
    ENSURE_NEAR(ratio, (0.52 + 9.81 / 2) / 1.42, 1e-12);
    ENSURE(ratio >= 3);
    SAME_F64(s.c.block, t.c.block, CT_STATE_f64 * s.c.n, "kernels vs world step (lesson)");

    /* the velocity pass on: a few percent at most, for every e */
    static const double es[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int k = 0; k < 5; ++k) {
        ct_stack u;
        REQUIRE(ct_stack_init(&u, 1));
        u.c.p.y[1] = 1.42;
        cfg.contact_velocity_pass = 1;
        cfg.restitution = es[k];
        double worst = 0;
        for (int f = 0; f < 60; ++f) {
            REQUIRE_STATUS(ct_stack_step(&u, &cfg), XPBD_OK);
            const double r = ct_stack_energy(&u) / e0;
            if (r > worst)
                worst = r;
        }
        ENSURE_LE(worst, es[k] < 1 ? 1.052 : 1.16);
        ENSURE(worst > 1.005); /* the landing frame's lift is there */
        ct_stack_free(&u);
    }
    ct_stack_free(&s);
    ct_stack_free(&t);
}

/* SPEC S2 Table 4: N = 4, beta = 1, e = 0.2, each pair starting 0.01 m
 * deep, 90 frames (1.5 s), lesson order, iterations 1, 2, 4, 8. Measured
 * (final state after the frame's position pass): max penetration 0.0282,
 * 0.00561, 0.000877, 8.14e-5 m (ratios 0.199 / 0.156 / 0.093; seed 0.175 /
 * 0.120 / 0.047); sum |v| 2.07, 0.906, 0.343, 0.092 m/s (seed 1.03 ... 0.023);
 * top-ball sink / max penetration 2.00-2.06 (seed ~1.8). Checked: both
 * strictly decrease with every doubling, each doubling shrinks the max
 * penetration at least 4x, and the sink stays within 1.5x-2.5x the max
 * penetration (the stack's four overlaps add up, the top one largest). */
static void contacts_table4(void)
{
    double prev_pen = INFINITY, prev_v = INFINITY;
    for (uint32_t it = 1; it <= 8; it *= 2) {
        ct_stack s;
        REQUIRE(ct_stack_init(&s, 4));
        for (int k = 0; k < 4; ++k)
            s.c.p.y[k + 1] = 0.52 + 0.36 * k - 0.01 * (k + 1);
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.iterations = it;
        cfg.restitution = 0.2;
        cfg.contact_order = XPBD_CONTACTS_LESSON;
        for (int f = 0; f < 90; ++f)
            REQUIRE_STATUS(ct_stack_step(&s, &cfg), XPBD_OK);
        const double pen = ct_stack_max_pen(&s);
        double sv = 0;
        for (int k = 1; k <= 4; ++k)
            sv += fabs(s.c.p.vy[k]);
        const double sink = 1.60 - s.c.p.y[4];
        ENSURE(pen > 0);
        ENSURE(pen < prev_pen);
        ENSURE(sv < prev_v);
        if (it > 1)
            ENSURE_LE(pen / prev_pen, 0.25);
        ENSURE_NEAR(sink / pen, 2.0, 0.5);
        prev_pen = pen;
        prev_v = sv;
        ct_stack_free(&s);
    }
    ENSURE_LE(prev_pen, 1e-4); /* 8 iterations: a tenth of a millimetre */
}

/* Equal balls head-on with e = 1 swap their velocities. Along x the normal
 * is (1, 0, 0) exactly and the velocities are dyadic, so the swap is exact
 * and the tangential parts stay bit for bit; along a random direction the
 * normal components swap to a few ulps. The world step in the lesson order
 * (gravity 0) does the same at the frame the balls touch. */
static void contacts_head_on(void)
{
    const xpbd_contact_kernels_f64 *S = xpbd_contact_kernels_get_f64(XPBD_ISA_SCALAR);
    ct_set set;
    REQUIRE(ct_set_alloc(&set, 2, 4));
    const uint32_t a0[1] = {0}, a1[1] = {1};
    REQUIRE(xpbd_contact_set_assign(&set.cs, 2, 1, a0, a1, 0, 0, set.work, set.work_bytes,
                                    NULL) == XPBD_OK);
    ct_f64 c;
    REQUIRE(ct_alloc_f64(&c, 2));
    c.r[0] = c.r[1] = 0.25;
    c.p.w[0] = c.p.w[1] = 2;
    c.p.x[1] = 0.5;
    c.p.vx[0] = 3;
    c.p.vy[0] = 0.5;
    c.p.vx[1] = -1.25;
    c.p.vz[1] = 0.75;
    ENSURE_INT(S->velocity(&c.p, c.r, &set.cs, 0, 0, 1, 1, 0), 1);
    ENSURE_BITS_F64(c.p.vx[0], -1.25);
    ENSURE_BITS_F64(c.p.vx[1], 3);
    ENSURE_BITS_F64(c.p.vy[0], 0.5);
    ENSURE_BITS_F64(c.p.vz[1], 0.75);
    ENSURE_BITS_F64(c.p.vy[1], 0);
    /* random directions */
    xt_rng rng = {0x4ead0ull};
    double worst = 0;
    for (int t = 0; t < 200; ++t) {
        double n[3], len = 0;
        for (int d = 0; d < 3; ++d) {
            n[d] = xt_range(&rng, -1, 1);
            len += n[d] * n[d];
        }
        len = sqrt(len);
        for (int d = 0; d < 3; ++d)
            n[d] /= len;
        double v0[3], v1[3];
        for (int d = 0; d < 3; ++d) {
            v0[d] = xt_range(&rng, -2, 2) + 3 * n[d];
            v1[d] = xt_range(&rng, -2, 2) - 3 * n[d];
        }
        c.p.x[0] = c.p.y[0] = c.p.z[0] = 0;
        c.p.x[1] = 0.45 * n[0];
        c.p.y[1] = 0.45 * n[1];
        c.p.z[1] = 0.45 * n[2];
        c.p.vx[0] = v0[0];
        c.p.vy[0] = v0[1];
        c.p.vz[0] = v0[2];
        c.p.vx[1] = v1[0];
        c.p.vy[1] = v1[1];
        c.p.vz[1] = v1[2];
        const double rel = (v1[0] - v0[0]) * n[0] + (v1[1] - v0[1]) * n[1] + (v1[2] - v0[2]) * n[2];
        const uint32_t hit = S->velocity(&c.p, c.r, &set.cs, 0, 0, 1, 1, 0);
        ENSURE_INT(hit, rel < 0);
        if (rel >= 0)
            continue;
        /* after: v0' = v0 + rel n, v1' = v1 - rel n (the normal parts swap) */
        const double got[6] = {c.p.vx[0], c.p.vy[0], c.p.vz[0], c.p.vx[1], c.p.vy[1], c.p.vz[1]};
        for (int d = 0; d < 3; ++d) {
            const double e0 = fabs(got[d] - (v0[d] + rel * n[d]));
            const double e1 = fabs(got[3 + d] - (v1[d] - rel * n[d]));
            worst = fmax(worst, fmax(e0, e1));
        }
        const double n0 = got[0] * n[0] + got[1] * n[1] + got[2] * n[2];
        const double n1 = got[3] * n[0] + got[4] * n[1] + got[5] * n[2];
        const double m0 = v0[0] * n[0] + v0[1] * n[1] + v0[2] * n[2];
        const double m1 = v1[0] * n[0] + v1[1] * n[1] + v1[2] * n[2];
        ENSURE_NEAR(n0, m1, 64 * DBL_EPSILON);
        ENSURE_NEAR(n1, m0, 64 * DBL_EPSILON);
    }
    ENSURE_LE(worst, 64 * DBL_EPSILON); /* velocities ~5 m/s: ~2 ulp */
    /* the world step, lesson order, no gravity: touching and approaching */
    ct_clear_f64(&c);
    c.r[0] = c.r[1] = 0.25;
    c.p.w[0] = c.p.w[1] = 2;
    c.p.x[1] = 0.5;
    c.p.vx[0] = 3;
    c.p.vx[1] = -1.25;
    size_t sb;
    void *scratch = ct_scratch_f64(2, 4, &sb);
    REQUIRE(scratch != NULL);
    xpbd_world_f64 w = ct_world_f64(&c, &set.cs, NULL, 0);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.gravity[1] = 0;
    cfg.restitution = 1;
    cfg.iterations = 2;
    cfg.contact_order = XPBD_CONTACTS_LESSON;
    ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60.0, &w, scratch, sb, NULL), XPBD_OK);
    ENSURE_BITS_F64(c.p.vx[0], -1.25);
    ENSURE_BITS_F64(c.p.vx[1], 3);
    free(scratch);
    ct_free_f64(&c);
    ct_set_free(&set);
}

/* A ball resting on the ground plane: per frame the plane gives it the
 * support impulse m g h. In the substep order the support is the position
 * pass lifting the ball by the g h_s^2 it sank (turned into velocity by the
 * velocity update), recorded as (beta pen)/(w h_s) per substep; in the
 * lesson order it is the velocity pass's (1 + e) m g h with e = 0. Both
 * give m g h to the rounding of a few operations on numbers ~ g h: relative
 * tolerance 1e-12 (the sum over n_s substeps of m g h_s); the ball stays at
 * y = r with v = 0 (to 1e-12 m, 1e-12 m/s) for 2 s. */
static void contacts_resting_impulse(void)
{
    ct_f64 c;
    REQUIRE(ct_alloc_f64(&c, 2));
    const xpbd_plane ground = {{0, 1, 0}, 0};
    size_t sb;
    void *scratch = ct_scratch_f64(2, 0, &sb);
    REQUIRE(scratch != NULL);
    for (int order = 0; order < 2; ++order)
        for (uint32_t sub = 1; sub <= 8; sub *= 2) {
            ct_clear_f64(&c);
            c.r[0] = 0.18;
            c.r[1] = 0.1;
            c.p.w[0] = 1;   /* m = 1 */
            c.p.w[1] = 0.5; /* m = 2, beside it */
            c.p.x[1] = 1;
            c.p.y[0] = 0.18;
            c.p.y[1] = 0.1;
            xpbd_world_f64 w = ct_world_f64(&c, NULL, &ground, 1);
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.contact_order = (xpbd_contact_order)order;
            cfg.substeps = order ? 1 : sub;
            cfg.iterations = 4;
            const double h = 1.0 / 60.0, mgh = 9.81 * h;
            for (int f = 0; f < 120; ++f) {
                REQUIRE_STATUS(xpbd_world_step_f64(&cfg, h, &w, scratch, sb, NULL), XPBD_OK);
                ENSURE_NEAR(c.imp[0], mgh, 1e-12 * mgh);
                ENSURE_NEAR(c.imp[1], 2 * mgh, 2e-12 * mgh);
            }
            ENSURE_NEAR(c.p.y[0], 0.18, 1e-12);
            ENSURE_NEAR(c.p.y[1], 0.1, 1e-12);
            ENSURE_NEAR(c.p.vy[0], 0, 1e-12);
            ENSURE_NEAR(c.p.vx[0], 0, 1e-12);
            if (order)
                break;
        }
    free(scratch);
    ct_free_f64(&c);
}

/* Friction at position level. A ball sliding on the ground with mu_s =
 * mu_k = mu: each substep the position pass removes mu*(g h^2) of the
 * tangential displacement v h (the kinetic branch, since v h > mu g h^2),
 * so v drops by mu g h per substep: deceleration mu g, to rounding while
 * it slides (relative tolerance 1e-9 on the measured deceleration), then
 * it stops in the static branch and stays put (measured: 7e-13, 6e-14,
 * 1e-14 relative for mu = 0.1, 0.4, 0.8). A ball at rest on a slope below
 * atan(mu_s) stays put (moves < 1e-12 m in 2 s, measured <= 3e-17 m: each
 * substep the static branch takes back the whole tangential
 * displacement); above it, it slides with a = g (sin - mu_k cos) (1e-10
 * relative, measured 4e-14). */
static void contacts_friction(void)
{
    ct_f64 c;
    REQUIRE(ct_alloc_f64(&c, 1));
    size_t sb;
    void *scratch = ct_scratch_f64(1, 0, &sb);
    REQUIRE(scratch != NULL);
    const double g = 9.81, h = 1.0 / 60.0;
    static const double mus[3] = {0.1, 0.4, 0.8};
    for (int k = 0; k < 3; ++k)
        for (uint32_t sub = 1; sub <= 4; sub *= 4) {
            const double mu = mus[k];
            ct_clear_f64(&c);
            c.r[0] = 0.1;
            c.p.w[0] = 1;
            c.p.y[0] = 0.1;
            c.p.vx[0] = 5;
            c.p.vz[0] = 2; /* not along an axis */
            const xpbd_plane ground = {{0, 1, 0}, 0};
            xpbd_world_f64 w = ct_world_f64(&c, NULL, &ground, 1);
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.friction_static = cfg.friction_dynamic = mu;
            cfg.substeps = sub;
            cfg.iterations = 2;
            const double v0 = sqrt(29.0);
            const int frames = (int)floor(v0 / (mu * g) / h) - 2; /* while it slides */
            for (int f = 0; f < frames; ++f)
                REQUIRE_STATUS(xpbd_world_step_f64(&cfg, h, &w, scratch, sb, NULL), XPBD_OK);
            const double v = hypot(c.p.vx[0], c.p.vz[0]);
            const double decel = (v0 - v) / (frames * h);
            ENSURE_NEAR(decel, mu * g, 1e-9 * mu * g);
            ENSURE_NEAR(c.p.vx[0] / c.p.vz[0], 2.5, 1e-9); /* straight line */
            for (int f = 0; f < 60; ++f)
                REQUIRE_STATUS(xpbd_world_step_f64(&cfg, h, &w, scratch, sb, NULL), XPBD_OK);
            ENSURE_NEAR(hypot(c.p.vx[0], c.p.vz[0]), 0, 1e-12);
            ENSURE_NEAR(c.p.y[0], 0.1, 1e-12);
        }
    /* slopes: mu_s = 0.5 (atan = 26.57 deg), mu_k = 0.4 */
    static const double degs[4] = {10, 20, 26, 35};
    for (int k = 0; k < 4; ++k) {
        const double th = degs[k] * 3.14159265358979323846 / 180;
        const double n[3] = {-sin(th), cos(th), 0};
        const xpbd_plane slope = {{n[0], n[1], n[2]}, 0};
        ct_clear_f64(&c);
        c.r[0] = 0.1;
        c.p.w[0] = 1;
        c.p.x[0] = 0.1 * n[0];
        c.p.y[0] = 0.1 * n[1];
        xpbd_world_f64 w = ct_world_f64(&c, NULL, &slope, 1);
        xpbd_step_config cfg = xpbd_step_config_default();
        cfg.friction_static = 0.5;
        cfg.friction_dynamic = 0.4;
        cfg.substeps = 2;
        cfg.iterations = 2;
        for (int f = 0; f < 120; ++f)
            REQUIRE_STATUS(xpbd_world_step_f64(&cfg, h, &w, scratch, sb, NULL), XPBD_OK);
        const double moved = hypot(c.p.x[0] - 0.1 * n[0], c.p.y[0] - 0.1 * n[1]);
        if (tan(th) < 0.5) {
            ENSURE_LE(moved, 1e-12);
        } else {
            /* down the slope (-x up the incline is +x here): s = a t^2/2 with
             * the discrete sum over 240 substeps of h_s */
            const double a = g * (sin(th) - 0.4 * cos(th));
            const double hs = h / 2, steps = 240;
            const double want = a * hs * hs * steps * (steps + 1) / 2;
            ENSURE_NEAR(moved, want, 1e-10 * want);
        }
    }
    free(scratch);
    ct_free_f64(&c);
}

/* xpbd_contact_set_assign: a star (every pair shares particle 0) gets one
 * pair per colour, past max_colours the overflow range; serial puts all of
 * them there in input order. */
static void contacts_assign(void)
{
    const size_t n = 40;
    uint32_t i0[39], i1[39];
    for (uint32_t k = 0; k < 39; ++k) {
        i0[k] = k % 2 ? 0 : k + 1;
        i1[k] = k % 2 ? k + 1 : 0;
    }
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, 64));
    ENSURE_STATUS(xpbd_contact_set_assign(&set.cs, n, 39, i0, i1, 8, 0, set.work, set.work_bytes,
                                          NULL),
                  XPBD_OK);
    ENSURE_INT(set.cs.colours, 8);
    ENSURE_INT(set.cs.slots - set.cs.overflow_begin, 31);
    ct_colouring_ok(&set.cs, n, "star, max_colours 8");
    ENSURE_STATUS(xpbd_contact_set_assign(&set.cs, n, 39, i0, i1, 0, 1, set.work, set.work_bytes,
                                          NULL),
                  XPBD_OK);
    ENSURE_INT(set.cs.colours, 0);
    ENSURE_INT(set.cs.overflow_begin, 0);
    ENSURE_INT(set.cs.slots, 39);
    SAME_U32(set.cs.i0, i0, 39, "serial keeps the input order");
    SAME_U32(set.cs.i1, i1, 39, "serial keeps the input order");
    /* capacity: 39 pairs into room for 10 */
    ct_set small;
    REQUIRE(ct_set_alloc(&small, n, 10));
    ENSURE_STATUS(xpbd_contact_set_assign(&small.cs, n, 39, i0, i1, 0, 0, small.work,
                                          small.work_bytes, NULL),
                  XPBD_OVERFLOW);
    ENSURE_INT(small.cs.count, 10);
    ENSURE_INT(small.cs.dropped, 29);
    ENSURE(ct_set_guards_ok(&small));
    ct_colouring_ok(&small.cs, n, "star into 10");
    ct_set_free(&small);
    ct_set_free(&set);
}

/* A box of planes and the broad phase under the world step: a contact set
 * too small for the pairs gives XPBD_OVERFLOW with the step done and the
 * excess counted. */
static void contacts_world_overflow(void)
{
    const size_t n = 200;
    ct_f64 c;
    REQUIRE(ct_alloc_f64(&c, n));
    xt_rng rng = {0x0f10ull};
    for (size_t i = 0; i < n; ++i) {
        c.p.x[i] = xt_range(&rng, 0, 0.5);
        c.p.y[i] = xt_range(&rng, 0, 0.5);
        c.p.z[i] = xt_range(&rng, 0, 0.5);
        c.p.w[i] = 1;
        c.r[i] = 0.05;
    }
    ct_set set;
    REQUIRE(ct_set_alloc(&set, n, 20));
    size_t sb;
    void *scratch = ct_scratch_f64(n, 20, &sb);
    REQUIRE(scratch != NULL);
    xpbd_world_f64 w = ct_world_f64(&c, &set.cs, NULL, 0);
    const xpbd_step_config cfg = xpbd_step_config_default();
    xpbd_step_counters kc;
    ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60.0, &w, scratch, sb, &kc), XPBD_OVERFLOW);
    ENSURE_INT(kc.contacts, 20);
    ENSURE(kc.contacts_dropped > 0);
    ENSURE_INT(kc.substeps, 1);
    ENSURE(ct_set_guards_ok(&set));
    free(scratch);
    ct_set_free(&set);
    ct_free_f64(&c);
}

/* Restitution in the substep order acts on the pre-solve normal velocity:
 * a ball (r = 0.1 m) dropped from 1 m onto a plane with e = 1 rebounds to
 * nearly the same height, and never higher (the velocity pass must not
 * create energy). Measured apex: 0.9565 m (1 substep), 0.9841 (4), 0.9954
 * (16): the deficit is the time discretisation of the impact, O(h). With
 * e = 0 the ball stays on the plane (resting contacts do not bounce). */
static void contacts_bounce_substeps(void)
{
    const uint32_t subs[3] = {1, 4, 16};
    const double floor_apex[3] = {0.95, 0.98, 0.99};
    for (int si = 0; si < 3; ++si)
        for (int e = 0; e <= 1; ++e) {
            double x = 0, y = 1.1, z = 0, px, py, pz, vx = 0, vy = 0, vz = 0, w = 1, r = 0.1;
            xpbd_particles_f64 p = {1, &x, &y, &z, &px, &py, &pz, &vx, &vy, &vz, &w};
            const xpbd_plane pl = {{0, 1, 0}, 0};
            xpbd_world_f64 world;
            memset(&world, 0, sizeof world);
            world.particles = &p;
            world.radius = &r;
            world.planes = &pl;
            world.plane_count = 1;
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.substeps = subs[si];
            cfg.iterations = 1;
            cfg.restitution = e;
            cfg.isa = xt_isa;
            unsigned char scratch[4096];
            REQUIRE(xpbd_world_scratch_bytes_f64(1, 0, 0) <= sizeof scratch);
            double apex = 0;
            int bounced = 0;
            for (int f = 0; f < 150; ++f) {
                REQUIRE(xpbd_world_step_f64(&cfg, 1.0 / 60, &world, scratch, sizeof scratch, NULL) ==
                        XPBD_OK);
                bounced |= vy > 0;
                if (bounced && y - r > apex)
                    apex = y - r;
            }
            if (e == 1) {
                ENSURE(apex >= floor_apex[si]);
                ENSURE(apex <= 1.0);
            } else {
                /* settled on the plane after the first contact */
                ENSURE(y - r < 1e-3 && y - r > -1e-3);
                ENSURE(fabs(vy) < 1e-9);
            }
        }
}

const xt_test xt_tests_contacts[] = {
    {"contacts.bounce_substeps", contacts_bounce_substeps},
    {"contacts.table1", contacts_table1},
    {"contacts.table2_f32", table2_f32},
    {"contacts.table2_f64", table2_f64},
    {"contacts.table3_f32", table3_f32},
    {"contacts.table3_f64", table3_f64},
    {"contacts.table4", contacts_table4},
    {"contacts.head_on", contacts_head_on},
    {"contacts.resting_impulse", contacts_resting_impulse},
    {"contacts.momentum_f32", momentum_f32},
    {"contacts.momentum_f64", momentum_f64},
    {"contacts.friction", contacts_friction},
    {"contacts.broadphase_f32", broadphase_f32},
    {"contacts.broadphase_f64", broadphase_f64},
    {"contacts.assign", contacts_assign},
    {"contacts.world_overflow", contacts_world_overflow},
    {"contacts.bad_f32", bad_f32},
    {"contacts.bad_f64", bad_f64},
    {"contacts_cross.kernels_f32", cross_kernels_f32},
    {"contacts_cross.kernels_f64", cross_kernels_f64},
    {"contacts_cross.world_f32", cross_world_f32},
    {"contacts_cross.world_f64", cross_world_f64},
    {NULL, NULL},
};

#endif /* CT_BODY */
