/* SPDX-License-Identifier: MIT */
/* Per-precision half of bench_core.c, template over R (see the macro
 * block before each #include there): the particle arrays, the constraint
 * mesh, one pass of each kernel, and SFX(xb_measure_size). */

/* Particle arrays for the particle kernels: x y z px py pz vx vy vz w fx fy
 * fz and the packed copy q (4 per particle), each 64-byte aligned inside one
 * block and offset from the previous one by three extra cache lines.
 * Without the skew, arrays of 2^k elements sit at the same address modulo
 * 4 KiB, and the kernels' loads and stores to different arrays at the same
 * index would collide in L1 sets and in the store-to-load alias check, a
 * cost a host with other sizes would not pay. */
typedef struct SFX(xb_parts) {
    XB_P p;
    R *fx, *fy, *fz;
    R *q;
    void *block;
} SFX(xb_parts);

static void SFX(xb_particles_fill)(SFX(xb_parts) *s)
{
    const size_t n = s->p.count;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; ++i) {
        s->p.x[i] = (R)(xb_unit(&rng) * 10.0);
        s->p.y[i] = (R)(xb_unit(&rng) * 10.0);
        s->p.z[i] = (R)(xb_unit(&rng) * 10.0);
        s->p.px[i] = s->p.x[i];
        s->p.py[i] = s->p.y[i];
        s->p.pz[i] = s->p.z[i];
        s->p.vx[i] = (R)(xb_unit(&rng) - 0.5);
        s->p.vy[i] = (R)(xb_unit(&rng) - 0.5);
        s->p.vz[i] = (R)(xb_unit(&rng) - 0.5);
        /* about 1 in 64 static, so the w > 0 selects do real work */
        s->p.w[i] = (i % 64 == 7) ? 0 : (R)(0.5 + xb_unit(&rng));
        s->fx[i] = s->fy[i] = s->fz[i] = 0;
        s->q[4 * i] = s->p.x[i];
        s->q[4 * i + 1] = s->p.y[i];
        s->q[4 * i + 2] = s->p.z[i];
        s->q[4 * i + 3] = s->p.w[i];
    }
}

static int SFX(xb_particles_init)(SFX(xb_parts) *s, size_t n)
{
    memset(s, 0, sizeof *s);
    const size_t stride = (n * sizeof(R) + 63) / 64 * 64 + 3 * 64;
    /* 13 arrays of n plus q, 4n */
    s->block = aligned_alloc(64, 17 * stride);
    if (!s->block)
        return -1;
    R *const base = s->block;
    const size_t step = stride / sizeof(R); /* a multiple of 64 bytes */
    XB_BIND(&s->p, n, base, step);
    s->fx = base + 10 * step;
    s->fy = base + 11 * step;
    s->fz = base + 12 * step;
    s->q = base + 13 * step;
    SFX(xb_particles_fill)(s);
    return 0;
}

/* The constraint mesh: a flat side x side cloth with shear diagonals, its
 * particles jittered by up to +-2 cm so every edge is a little off its rest
 * length (the kernels do their full work, nothing converges to exact
 * zeros), random small velocities for the spring damping term, force
 * accumulators and the packed copy q the *_packed kernels solve on. */
typedef struct SFX(xb_mesh) {
    XB_W w;
    R *fx, *fy, *fz;
    R *q;
    R *start; /* x y z as filled, for xb_mesh_reset */
} SFX(xb_mesh);

/* Back to the filled state: each ISA solves the same jittered mesh rather
 * than one its predecessors have already relaxed. */
static void SFX(xb_mesh_reset)(SFX(xb_mesh) *m)
{
    const size_t n = m->w.p.count;
    memcpy(m->w.p.x, m->start, n * sizeof(R));
    memcpy(m->w.p.y, m->start + n, n * sizeof(R));
    memcpy(m->w.p.z, m->start + 2 * n, n * sizeof(R));
    for (size_t i = 0; i < n; ++i) {
        m->fx[i] = m->fy[i] = m->fz[i] = 0;
        m->q[4 * i] = m->w.p.x[i];
        m->q[4 * i + 1] = m->w.p.y[i];
        m->q[4 * i + 2] = m->w.p.z[i];
        m->q[4 * i + 3] = m->w.p.w[i];
    }
    memset(m->w.set.lambda, 0, m->w.set.slots * sizeof(R));
}

/* The jittered positions and the velocities, remembered as the start; then
 * the rest of the state as xb_mesh_reset leaves it. */
static void SFX(xb_mesh_fill)(SFX(xb_mesh) *m, int side)
{
    uint64_t rng = 0x2545f4914f6cdd1dull;
    const size_t n = m->w.p.count;
    for (size_t i = 0; i < n; ++i) {
        const size_t gi = i % (size_t)side, gj = i / (size_t)side;
        m->w.p.x[i] = (R)((double)gi * 0.25 + (xb_unit(&rng) - 0.5) * 0.04);
        m->w.p.y[i] = (R)((xb_unit(&rng) - 0.5) * 0.04);
        m->w.p.z[i] = (R)((double)gj * 0.25 + (xb_unit(&rng) - 0.5) * 0.04);
        m->w.p.vx[i] = (R)(xb_unit(&rng) - 0.5);
        m->w.p.vy[i] = (R)(xb_unit(&rng) - 0.5);
        m->w.p.vz[i] = (R)(xb_unit(&rng) - 0.5);
    }
    memcpy(m->start, m->w.p.x, n * sizeof(R));
    memcpy(m->start + n, m->w.p.y, n * sizeof(R));
    memcpy(m->start + 2 * n, m->w.p.z, n * sizeof(R));
    SFX(xb_mesh_reset)(m);
}

static int SFX(xb_mesh_init)(SFX(xb_mesh) *m, int side)
{
    memset(m, 0, sizeof *m);
    if (XB_CLOTH(&m->w, side, side, (R)0.25, (R)1e-5, 1, 1) != XPBD_OK)
        return -1;
    const size_t n = m->w.p.count;
    m->fx = malloc(3 * n * sizeof(R));
    m->start = malloc(3 * n * sizeof(R));
    m->q = aligned_alloc(64, (4 * n * sizeof(R) + 63) / 64 * 64);
    if (!m->fx || !m->q || !m->start) {
        free(m->fx);
        free(m->start);
        free(m->q);
        XB_WFREE(&m->w);
        return -1;
    }
    m->fy = m->fx + n;
    m->fz = m->fy + n;
    SFX(xb_mesh_fill)(m, side);
    return 0;
}

static void SFX(xb_mesh_free)(SFX(xb_mesh) *m)
{
    free(m->fx);
    free(m->start);
    free(m->q);
    XB_WFREE(&m->w);
    memset(m, 0, sizeof *m);
}

/* One pass of one kernel on one table. */
typedef struct SFX(xb_pass) {
    int kernel;
    const XB_K *k;
    const XB_P *p;
    const XB_DS *set;
    R *fx, *fy, *fz;
    R *q;
    volatile R sink;
    volatile XB_U zero; /* 0, unknown to the compiler (packed_walk) */
} SFX(xb_pass);

/* packed_walk, the memory-access bound of the packed constraint kernels: the
 * same walk over the slots (colour after colour, padding included as the
 * SIMD paths run whole batches, then the overflow range), with the same
 * loads and stores (each slot's i0, i1, rest, compliance and lambda; both
 * endpoints' packed (x, y, z, w), read and written back) and no arithmetic.
 * The values go back unchanged, xor-ed with a zero the compiler cannot see,
 * so no load or store can be dropped; memcpy moves the bits (no aliasing of
 * reals through integers). Blocks of XB_WALK slots: the slot streams move as
 * whole vectors, each endpoint as one 16- or 32-byte load and store, so the
 * walk is limited by the memory accesses, not by instructions. */
#ifndef XB_WALK
#define XB_WALK 16
#endif

static void SFX(xb_walk_endpoint)(R *q, uint32_t i, XB_U zero)
{
    XB_U v[4];
    memcpy(v, q + 4 * (size_t)i, sizeof v);
    for (int j = 0; j < 4; ++j)
        v[j] ^= zero;
    memcpy(q + 4 * (size_t)i, v, sizeof v);
}

static void SFX(xb_packed_walk)(R *q, const XB_DS *s, XB_U zero)
{
    uint32_t slot = 0;
    for (; slot + XB_WALK <= s->slots; slot += XB_WALK) {
        uint32_t a[XB_WALK], b[XB_WALK];
        XB_U rest[XB_WALK], comp[XB_WALK], lambda[XB_WALK];
        memcpy(a, s->i0 + slot, sizeof a);
        memcpy(b, s->i1 + slot, sizeof b);
        memcpy(rest, s->rest + slot, sizeof rest);
        memcpy(comp, s->compliance + slot, sizeof comp);
        memcpy(lambda, s->lambda + slot, sizeof lambda);
        for (int j = 0; j < XB_WALK; ++j)
            lambda[j] ^= (rest[j] ^ comp[j]) & zero;
        for (int j = 0; j < XB_WALK; ++j) {
            SFX(xb_walk_endpoint)(q, a[j], zero);
            SFX(xb_walk_endpoint)(q, b[j], zero);
        }
        memcpy(s->lambda + slot, lambda, sizeof lambda);
    }
    for (; slot < s->slots; ++slot) {
        XB_U rest, comp, lambda;
        memcpy(&rest, s->rest + slot, sizeof rest);
        memcpy(&comp, s->compliance + slot, sizeof comp);
        memcpy(&lambda, s->lambda + slot, sizeof lambda);
        lambda ^= (rest ^ comp) & zero;
        SFX(xb_walk_endpoint)(q, s->i0[slot], zero);
        SFX(xb_walk_endpoint)(q, s->i1[slot], zero);
        memcpy(s->lambda + slot, &lambda, sizeof lambda);
    }
}

static void SFX(xb_pass_run)(void *arg)
{
    SFX(xb_pass) *c = arg;
    const XB_K *k = c->k;
    const XB_P *p = c->p;
    const size_t n = p->count;
    const R h = (R)(1.0 / 60.0), g = (R)-9.81;
    const XB_DS *s = c->set;
    switch (c->kernel) {
    case XB_PREDICT:
        k->predict(p, 0, n, h, 0, g, 0);
        break;
    case XB_VELOCITY:
        k->update_velocity(p, 0, n, h, 1);
        break;
    case XB_SPRING_INTEGRATE:
        k->spring_integrate(p, c->fx, c->fy, c->fz, 0, n, h, 0, g, 0);
        break;
    case XB_PACK:
        k->pack(p, c->q, 0, n);
        break;
    case XB_UNPACK:
        k->unpack(c->q, p, 0, n);
        break;
    case XB_DISTANCE_XPBD_PACKED:
        for (uint32_t col = 0; col < s->colours; ++col)
            k->distance_xpbd_packed(c->q, s, col, 0, xpbd_colour_batches(s->colour_begin, col), h);
        XB_SER_XPBD_PK(c->q, s, s->overflow_begin, s->slots, h);
        break;
    case XB_DISTANCE_PBD_PACKED:
        for (uint32_t col = 0; col < s->colours; ++col)
            k->distance_pbd_packed(c->q, s, col, 0, xpbd_colour_batches(s->colour_begin, col),
                                   (R)0.5);
        XB_SER_PBD_PK(c->q, s, s->overflow_begin, s->slots, (R)0.5);
        break;
    case XB_PACKED_WALK:
        SFX(xb_packed_walk)(c->q, s, c->zero);
        break;
    case XB_DISTANCE_XPBD:
        for (uint32_t col = 0; col < s->colours; ++col)
            k->distance_xpbd(p, s, col, 0, xpbd_colour_batches(s->colour_begin, col), h);
        XB_SER_XPBD(p, s, s->overflow_begin, s->slots, h);
        break;
    case XB_DISTANCE_PBD:
        for (uint32_t col = 0; col < s->colours; ++col)
            k->distance_pbd(p, s, col, 0, xpbd_colour_batches(s->colour_begin, col), (R)0.5);
        XB_SER_PBD(p, s, s->overflow_begin, s->slots, (R)0.5);
        break;
    case XB_SPRING_FORCES:
        for (uint32_t col = 0; col < s->colours; ++col)
            k->spring_forces(p, s, c->fx, c->fy, c->fz, col, 0,
                             xpbd_colour_batches(s->colour_begin, col), (R)0.1);
        XB_SER_SPRING(p, s, c->fx, c->fy, c->fz, s->overflow_begin, s->slots, (R)0.1);
        break;
    case XB_RESIDUAL: {
        R m = 0;
        for (uint32_t col = 0; col < s->colours; ++col) {
            const R r = k->residual(p, s, col, 0, xpbd_colour_batches(s->colour_begin, col), h,
                                       NULL);
            if (r > m)
                m = r;
        }
        const R r = XB_SER_RESIDUAL(p, s, s->overflow_begin, s->slots, h, NULL);
        c->sink = r > m ? r : m;
        break;
    }
    case XB_KINETIC:
        c->sink = k->kinetic_energy(p, 0, n);
        break;
    case XB_MOMENTUM: {
        R out[3];
        k->momentum(p, 0, n, out);
        c->sink = out[0] + out[1] + out[2];
        break;
    }
    default:
        break;
    }
}

/* Measures the selected kernels at one size for every ISA of the plan
 * (scalar first), appending rows. Returns the new row count, or (size_t)-1 on
 * allocation failure. */
static size_t SFX(xb_measure_size)(const xb_plan *plan, int log2n, xb_row *rows, size_t nrows)
{
    const size_t want = (size_t)1 << log2n;
    SFX(xb_parts) parts;
    SFX(xb_mesh) mesh;
    int have_parts = 0, have_mesh = 0;
    size_t out = nrows;
    for (int kern = 0; kern < XB_KERNELS; ++kern) {
        if (!plan->kernel_on[kern])
            continue;
        const int constraint = xb_kernel_table[kern].constraint;
        /* hold one of the two data sets at a time, so the largest size
         * never needs both */
        if (!constraint && !have_parts) {
            if (have_mesh) {
                SFX(xb_mesh_free)(&mesh);
                have_mesh = 0;
            }
            if (SFX(xb_particles_init)(&parts, want) != 0)
                goto fail;
            have_parts = 1;
        }
        if (constraint && !have_mesh) {
            if (have_parts) {
                free(parts.block);
                have_parts = 0;
            }
            if (SFX(xb_mesh_init)(&mesh, xb_mesh_side(want)) != 0)
                goto fail;
            have_mesh = 1;
        }
        const size_t items = constraint ? mesh.w.set.count : want;
        double scalar_ns = 0;
        for (size_t t = 0; t < plan->isa_count; ++t) {
            const xpbd_isa isa = plan->isa[t];
            SFX(xb_pass) pass;
            memset(&pass, 0, sizeof pass);
            pass.kernel = kern;
            pass.k = XB_GET(isa);
            if (!pass.k)
                continue;
            /* Constraint kernels: every ISA starts from the same mesh. The
             * particle kernels' timing does not depend on the values (no
             * data-dependent branch but the w > 0 select, whose pattern
             * does not change), so they run on the state their
             * predecessors left, all finite: refilling 2^23 particles for
             * every measurement would cost more than measuring them. */
            if (constraint) {
                SFX(xb_mesh_reset)(&mesh);
                pass.p = &mesh.w.p;
                pass.set = &mesh.w.set;
                pass.fx = mesh.fx;
                pass.fy = mesh.fy;
                pass.fz = mesh.fz;
                pass.q = mesh.q;
            } else {
                pass.p = &parts.p;
                pass.fx = parts.fx;
                pass.fy = parts.fy;
                pass.fz = parts.fz;
                pass.q = parts.q;
            }
            if (plan->progress)
                fprintf(stderr, "\rxpbd-bench: %-20s %s %-6s n = %-9zu", xb_kernel_table[kern].name,
                        R_NAME, xpbd_isa_name(isa), items);
            /* the bound is the same code on every path: measured once, with
             * the scalar table, and reported whatever the ISA filter */
            const int bound = kern == XB_PACKED_WALK;
            if (bound && isa != XPBD_ISA_SCALAR)
                continue;
            const double s = xb_measure(SFX(xb_pass_run), &pass, plan->min_seconds,
                                        plan->repeats);
            const double ns = s * 1e9 / (double)items;
            if (isa == XPBD_ISA_SCALAR)
                scalar_ns = ns;
            if (!plan->isa_on[isa] && !bound)
                continue;
            xb_row_set(&rows[out++], xb_kernel_table[kern].name, R_NAME, isa, items, ns,
                       scalar_ns);
        }
    }
    if (have_parts)
        free(parts.block);
    if (have_mesh)
        SFX(xb_mesh_free)(&mesh);
    return out;
fail:
    if (have_parts)
        free(parts.block);
    if (have_mesh)
        SFX(xb_mesh_free)(&mesh);
    return (size_t)-1;
}
