/* SPDX-License-Identifier: MIT */
/* The set validators' promise that makes every ISA equal the scalar
 * reference: no particle appears twice within a colour, however the host
 * edits the per-slot arrays between steps (distance, tetrahedron, bending
 * and fixed contact sets); a fixed contact of one particle with itself; the
 * contact workspace sizing; previous positions that are not inputs.
 *
 * The contract_cross group runs once per ISA: on every path the edited set
 * is refused and the state is untouched, and the untouched set steps to the
 * scalar reference's bits. */
#include "fixture.h"

#include <math.h>
#include <stdlib.h>

/* A chain of 37 particles along x with skip edges: (i, i+1) then (i, i+2),
 * default colouring. Particle 0 is static; positions stretched by 5% so the
 * solve has work to do. */
#define CHAIN_N 37u

#define CHAIN(R, SFX)                                                                         \
    typedef struct chain_##SFX {                                                              \
        xpbd_particles_##SFX p;                                                              \
        R *block;                                                                             \
        xpbd_distance_set_##SFX c;                                                           \
        void *scratch;                                                                        \
        size_t scratch_bytes;                                                                 \
    } chain_##SFX;                                                                            \
                                                                                              \
    static int chain_make_##SFX(chain_##SFX *ch)                                              \
    {                                                                                         \
        memset(ch, 0, sizeof *ch);                                                            \
        uint32_t i0[2 * CHAIN_N], i1[2 * CHAIN_N];                                            \
        R rest[2 * CHAIN_N], comp[2 * CHAIN_N];                                               \
        size_t m = 0;                                                                         \
        for (uint32_t skip = 1; skip <= 2; ++skip)                                            \
            for (uint32_t i = 0; i + skip < CHAIN_N; ++i, ++m) {                              \
                i0[m] = i;                                                                    \
                i1[m] = i + skip;                                                             \
                rest[m] = (R)skip;                                                            \
                comp[m] = (R)(skip == 1 ? 0 : 1e-4);                                          \
            }                                                                                 \
        ch->block = calloc(10 * CHAIN_N, sizeof(R));                                          \
        if (!ch->block)                                                                       \
            return 0;                                                                         \
        xpbd_particles_bind_##SFX(&ch->p, CHAIN_N, ch->block, CHAIN_N);                      \
        for (uint32_t i = 0; i < CHAIN_N; ++i) {                                              \
            ch->p.x[i] = (R)(1.05 * i);                                                       \
            ch->p.y[i] = (R)(0.01 * (i % 3));                                                 \
            ch->p.vz[i] = (R)(0.1 * (i % 5));                                                 \
            ch->p.w[i] = i == 0 ? 0 : (R)(1 + 0.25 * (i % 4));                                \
        }                                                                                     \
        if (xpbd_distance_set_build_##SFX(&ch->c, CHAIN_N, m, i0, i1, rest, comp, NULL,      \
                                          NULL) != XPBD_OK)                                   \
            return 0;                                                                         \
        ch->scratch_bytes = xpbd_step_scratch_bytes_##SFX(CHAIN_N, ch->c.slots);             \
        ch->scratch = malloc(ch->scratch_bytes);                                              \
        return ch->scratch != NULL;                                                           \
    }                                                                                         \
                                                                                              \
    static void chain_free_##SFX(chain_##SFX *ch)                                             \
    {                                                                                         \
        xpbd_distance_set_free_##SFX(&ch->c);                                                \
        free(ch->block);                                                                      \
        free(ch->scratch);                                                                    \
    }                                                                                         \
                                                                                              \
    static xpbd_status chain_step_##SFX(chain_##SFX *ch, xpbd_isa isa, size_t *bad)           \
    {                                                                                         \
        xpbd_step_config cfg = xpbd_step_config_default();                                    \
        cfg.isa = isa;                                                                        \
        cfg.substeps = 2;                                                                     \
        xpbd_step_counters k;                                                                 \
        const xpbd_status st = xpbd_step_##SFX(&cfg, 1.0 / 60.0, &ch->p, &ch->c, ch->scratch,  \
                                               ch->scratch_bytes, &k);                        \
        *bad = k.bad_index;                                                                   \
        return st;                                                                            \
    }

CHAIN(float, f32)
CHAIN(double, f64)

/* The chain is stepped on the ISA under test and on the scalar path (bits
 * equal); then slot 3 of colour 0 is made to share slot 4's first particle
 * (indices still distinct and in range): the validator and the step refuse
 * it, naming slot 4 (the later of the two), and the particles and lambda
 * keep their bits. */
#define REPEAT_TEST(SFX, SNAP, SAME)                                                          \
    static void contract_repeat_distance_##SFX(void)                                          \
    {                                                                                         \
        chain_##SFX a, b;                                                                     \
        REQUIRE(chain_make_##SFX(&a) && chain_make_##SFX(&b));                                \
        REQUIRE(a.c.colours >= 1 && a.c.colour_size[0] >= 5);                                 \
        size_t bad = 0;                                                                       \
        ENSURE_STATUS(chain_step_##SFX(&a, xt_isa, &bad), XPBD_OK);                           \
        ENSURE_STATUS(chain_step_##SFX(&b, XPBD_ISA_SCALAR, &bad), XPBD_OK);                  \
        ENSURE(xt_same_bytes(a.block, b.block, 10 * CHAIN_N * sizeof *a.block, "particles",   \
                             __FILE__, __LINE__));                                            \
        ENSURE(xt_same_bytes(a.c.lambda, b.c.lambda, a.c.slots * sizeof *a.c.lambda,         \
                             "lambda", __FILE__, __LINE__));                                  \
        /* the edit: distinct, in range, both slots real and in colour 0 */                   \
        const uint32_t to = a.c.i0[4];                                                        \
        REQUIRE(to != a.c.i1[3] && to < CHAIN_N && a.c.source[3] != XPBD_PAD &&              \
                a.c.source[4] != XPBD_PAD);                                                   \
        a.c.i0[3] = to;                                                                       \
        uint32_t stamp[CHAIN_N];                                                              \
        ENSURE_STATUS(xpbd_distance_set_validate_##SFX(&a.c, CHAIN_N, stamp, &bad),           \
                      XPBD_ERR_INDEX);                                                        \
        ENSURE_INT(bad, 4);                                                                   \
        xt_snap s;                                                                            \
        SNAP(&s, &a.p, &a.c);                                                                 \
        ENSURE_STATUS(chain_step_##SFX(&a, xt_isa, &bad), XPBD_ERR_INDEX);                    \
        ENSURE_INT(bad, 4);                                                                   \
        ENSURE(SAME(&s, &a.p, &a.c, "after the refused step"));                               \
        xt_snap_free(&s);                                                                     \
        /* the stamp scratch is optional only without colours */                            \
        ENSURE_STATUS(xpbd_distance_set_validate_##SFX(&a.c, CHAIN_N, NULL, &bad),            \
                      XPBD_ERR_ARGUMENT);                                                     \
        chain_free_##SFX(&a);                                                                 \
        chain_free_##SFX(&b);                                                                 \
    }

REPEAT_TEST(f32, xt_snap_f32, SAME_SNAP_F32)
REPEAT_TEST(f64, xt_snap_f64, SAME_SNAP_F64)

/* Every pair of slots of every colour made to share a particle, in a set
 * built from a random graph: the validator names the later of the two (the
 * first slot of the colour using a particle an earlier slot uses). */
static void contract_repeat_exhaustive(void)
{
    xt_rng rng = {0x5eed};
    xt_graph g;
    xt_graph_make(&g, &rng, XT_RANDOM, 120, 0, 0);
    xpbd_distance_set_f32 c;
    REQUIRE_STATUS(xt_graph_build_f32(&g, NULL, &c), XPBD_OK);
    uint32_t *stamp = malloc(g.particles * sizeof *stamp);
    REQUIRE(stamp != NULL);
    size_t bad = 0, cases = 0;
    for (uint32_t k = 0; k < c.colours; ++k) {
        const uint32_t b = c.colour_begin[k], e = b + c.colour_size[k];
        for (uint32_t s = b; s < e; ++s)
            for (uint32_t t = b; t < e; ++t) {
                if (s == t || c.i1[s] == c.i0[t])
                    continue;
                const uint32_t keep = c.i0[s];
                c.i0[s] = c.i0[t];
                ENSURE_STATUS(xpbd_distance_set_validate_f32(&c, g.particles, stamp, &bad),
                              XPBD_ERR_INDEX);
                ENSURE_INT(bad, s > t ? s : t);
                c.i0[s] = keep;
                ++cases;
            }
    }
    ENSURE(cases > 100);
    /* the overflow range is serial: a repeat there is allowed */
    ENSURE_STATUS(xpbd_distance_set_validate_f32(&c, g.particles, stamp, &bad), XPBD_OK);
    xpbd_distance_set_free_f32(&c);
    const xpbd_colouring_options serial = {.max_colours = 0, .serial = 1};
    REQUIRE_STATUS(xt_graph_build_f32(&g, &serial, &c), XPBD_OK);
    REQUIRE(c.colours == 0 && c.slots >= 2);
    c.i0[0] = c.i0[1] == c.i1[0] ? c.i1[1] : c.i0[1];
    ENSURE_STATUS(xpbd_distance_set_validate_f32(&c, g.particles, NULL, &bad), XPBD_OK);
    xpbd_distance_set_free_f32(&c);
    free(stamp);
    xt_graph_free(&g);
}

/* A 2 x 1 x 1 row of cubes split into tets (six per cube) and a strip of
 * bending stencils: the edited slot repeats a particle of another slot of
 * its colour; validator and world step refuse it on every ISA. */
static void contract_repeat_quad(void)
{
    enum { NX = 4, NP = NX * 4 };
    float xyz[3 * NP], block[10 * NP];
    memset(block, 0, sizeof block);
    for (int i = 0; i < NX; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 2; ++k) {
                const int v = (i * 2 + j) * 2 + k;
                xyz[3 * v] = (float)i;
                xyz[3 * v + 1] = (float)j;
                xyz[3 * v + 2] = (float)k;
            }
    /* tets: each cube's corner tet (0,1,2,4) style, disjoint in many cubes */
    uint32_t tets[4 * (NX - 1) * 2];
    float comp[(NX - 1) * 2];
    size_t nt = 0;
    for (int i = 0; i + 1 < NX; ++i) {
        const uint32_t a = (uint32_t)(i * 4);
        const uint32_t t0[4] = {a, a + 4, a + 2, a + 1};
        const uint32_t t1[4] = {a + 7, a + 3, a + 5, a + 6};
        memcpy(tets + 4 * nt, t0, sizeof t0);
        comp[nt++] = 0;
        memcpy(tets + 4 * nt, t1, sizeof t1);
        comp[nt++] = 1e-6f;
    }
    xpbd_quad_set_f32 q;
    size_t bad = 0;
    REQUIRE_STATUS(xpbd_tet_set_build_f32(&q, NP, xyz, nt, tets, comp, NULL, &bad), XPBD_OK);
    uint32_t stamp[NP];
    ENSURE_STATUS(xpbd_quad_set_validate_f32(&q, NP, stamp, &bad), XPBD_OK);
    REQUIRE(q.colours >= 1 && q.colour_size[0] >= 2);
    /* slot 1 of colour 0 takes a particle of slot 0 in place of one of its
     * own that slot 0 does not use (still four distinct indices) */
    uint32_t *idx[4] = {q.i0, q.i1, q.i2, q.i3};
    int done = 0;
    for (int a = 0; a < 4 && !done; ++a) {
        const uint32_t v = idx[a][0];
        int clash = 0;
        for (int b = 0; b < 4; ++b)
            clash |= idx[b][1] == v;
        if (!clash) {
            const uint32_t keep = q.i3[1];
            q.i3[1] = v;
            ENSURE_STATUS(xpbd_quad_set_validate_f32(&q, NP, stamp, &bad), XPBD_ERR_INDEX);
            ENSURE_INT(bad, 1);
            /* the world step refuses it with the state untouched */
            xpbd_particles_f32 p;
            xpbd_particles_bind_f32(&p, NP, block, NP);
            for (int i = 0; i < NP; ++i) {
                p.x[i] = xyz[3 * i];
                p.y[i] = xyz[3 * i + 1];
                p.z[i] = xyz[3 * i + 2];
                p.w[i] = 1;
            }
            xpbd_world_f32 w;
            memset(&w, 0, sizeof w);
            w.particles = &p;
            w.tets = &q;
            const size_t sb = xpbd_world_scratch_bytes_f32(NP, q.slots, 0);
            void *scratch = malloc(sb);
            REQUIRE(scratch != NULL);
            float before[10 * NP];
            memcpy(before, block, sizeof block);
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.isa = xt_isa;
            xpbd_step_counters k;
            ENSURE_STATUS(xpbd_world_step_f32(&cfg, 1.0 / 60.0, &w, scratch, sb, &k),
                          XPBD_ERR_INDEX);
            ENSURE_INT(k.bad_index, 1);
            ENSURE(xt_same_bytes(block, before, sizeof block, "particles", __FILE__, __LINE__));
            q.i3[1] = keep;
            ENSURE_STATUS(xpbd_world_step_f32(&cfg, 1.0 / 60.0, &w, scratch, sb, &k), XPBD_OK);
            free(scratch);
            done = 1;
        }
    }
    ENSURE(done);
    ENSURE_STATUS(xpbd_quad_set_validate_f32(&q, NP, NULL, &bad), XPBD_ERR_ARGUMENT);
    xpbd_quad_set_free_f32(&q);

    /* bending stencils along the row: (edge a-b, opposite c, d) */
    uint32_t st[4 * 3];
    float bc[3] = {0, 0, 0};
    for (uint32_t i = 0; i < 3; ++i) {
        const uint32_t a = 4 * i;
        const uint32_t s4[4] = {a + 1, a + 4, a, a + 5};
        memcpy(st + 4 * i, s4, sizeof s4);
    }
    float flat[3 * NP];
    for (int i = 0; i < NP; ++i) {
        flat[3 * i] = xyz[3 * i];
        flat[3 * i + 1] = xyz[3 * i + 2];
        flat[3 * i + 2] = 0;
    }
    REQUIRE_STATUS(xpbd_bend_set_build_f32(&q, NP, flat, 3, st, bc, NULL, &bad), XPBD_OK);
    ENSURE_STATUS(xpbd_quad_set_validate_f32(&q, NP, stamp, &bad), XPBD_OK);
    /* stencils 0 and 2 share no particle: one colour holds both */
    uint32_t s0 = UINT32_MAX, s2 = UINT32_MAX;
    for (uint32_t s = 0; s < q.slots; ++s) {
        if (q.source[s] == 0)
            s0 = s;
        if (q.source[s] == 2)
            s2 = s;
    }
    REQUIRE(s0 != UINT32_MAX && s2 != UINT32_MAX);
    if (s0 < q.colour_begin[1] && s2 < q.colour_begin[1]) {
        const uint32_t keep = q.i2[s2];
        q.i2[s2] = q.i0[s0];
        ENSURE_STATUS(xpbd_quad_set_validate_f32(&q, NP, stamp, &bad), XPBD_ERR_INDEX);
        ENSURE_INT(bad, s0 > s2 ? s0 : s2);
        q.i2[s2] = keep;
    } else {
        ENSURE(!"stencils 0 and 2 in one colour");
    }
    xpbd_quad_set_free_f32(&q);
}

/* Fixed contact sets (xpbd_world.contacts_fixed): a host-edited pair
 * repeating a particle within a colour, a pair of one particle with itself,
 * a padding slot made real: refused by xpbd_contact_set_validate and by the
 * world step, on every ISA, state untouched. */
static void contract_fixed_contacts(void)
{
    enum { N = 8, MAXC = 4 };
    const size_t slots = xpbd_contact_slots(MAXC);
    const size_t wb = xpbd_contacts_work_bytes(N, MAXC);
    uint32_t *i0 = malloc(slots * sizeof *i0), *i1 = malloc(slots * sizeof *i1);
    uint64_t *work = malloc(wb + 8);
    REQUIRE(i0 && i1 && work);
    xpbd_contact_set cs;
    REQUIRE_STATUS(xpbd_contact_set_init(&cs, i0, i1, slots, MAXC), XPBD_OK);
    const uint32_t a0[4] = {0, 2, 4, 6}, a1[4] = {1, 3, 5, 7};
    size_t bad = 0;
    REQUIRE_STATUS(xpbd_contact_set_assign(&cs, N, 4, a0, a1, 0, 0, work, wb, &bad), XPBD_OK);
    REQUIRE(cs.colours == 1 && cs.colour_size[0] == 4);
    uint32_t stamp[N];
    ENSURE_STATUS(xpbd_contact_set_validate(&cs, N, stamp, &bad), XPBD_OK);
    ENSURE_INT(bad, SIZE_MAX);

    double block[10 * N], radius[N];
    memset(block, 0, sizeof block);
    xpbd_particles_f64 p;
    xpbd_particles_bind_f64(&p, N, block, N);
    for (int i = 0; i < N; ++i) {
        p.x[i] = 0.15 * i; /* neighbours overlap: radius 0.1 */
        p.w[i] = 1;
        radius[i] = 0.1;
    }
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = &p;
    w.radius = radius;
    w.contacts = &cs;
    w.contacts_fixed = 1;
    const size_t sb = xpbd_world_scratch_bytes_f64(N, 0, 0);
    void *scratch = malloc(sb);
    REQUIRE(scratch != NULL);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xt_isa;
    xpbd_step_counters k;

    struct {
        uint32_t slot, *arr, value, want_bad;
        const char *what;
    } edits[] = {
        {2, i0, 1, 2, "slot 2 repeats particle 1 of slot 0"},
        {3, i1, 4, 3, "slot 3 repeats particle 4 of slot 2"},
        {1, i1, 2, 1, "a pair of particle 2 with itself"},
        {5, i1, 3, 5, "a padding slot made a real pair"},
        {0, i0, N, 0, "an index out of range"},
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; ++e) {
        uint32_t *arr = edits[e].arr;
        const uint32_t keep = arr[edits[e].slot];
        arr[edits[e].slot] = edits[e].value;
        ENSURE_STATUS(xpbd_contact_set_validate(&cs, N, stamp, &bad), XPBD_ERR_INDEX);
        ENSURE_INT(bad, edits[e].want_bad);
        double before[10 * N];
        memcpy(before, block, sizeof block);
        ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60.0, &w, scratch, sb, &k),
                      XPBD_ERR_INDEX);
        ENSURE_INT(k.bad_index, edits[e].want_bad);
        if (!xt_same_bytes(block, before, sizeof block, "particles", __FILE__, __LINE__))
            fprintf(stderr, "      edit: %s\n", edits[e].what);
        arr[edits[e].slot] = keep;
    }
    ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60.0, &w, scratch, sb, &k), XPBD_OK);
    ENSURE_STATUS(xpbd_contact_set_validate(&cs, N, NULL, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_contact_set_validate(NULL, N, stamp, &bad), XPBD_ERR_ARGUMENT);
    cs.slots = cs.capacity + 1;
    ENSURE_STATUS(xpbd_contact_set_validate(&cs, N, stamp, &bad), XPBD_ERR_ARGUMENT);
    free(scratch);
    free(work);
    free(i0);
    free(i1);
}

/* The workspace size from the layout's closed form: used [n] u64, hash table
 * starts [T + 1] u32 (T the power of two >= 2n, at least 16), sorted and key
 * [n] u32 each, pairs [m] u32 twice, colour_of [m] u8, plus 8 for alignment.
 * (Sizing used to offset a NULL pointer: clang's UBSan aborts on that.) */
static void contract_work_bytes(void)
{
    const size_t cases[][2] = {{0, 0}, {1, 1}, {7, 3}, {8, 100}, {9, 0}, {1000, 4096}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const size_t n = cases[c][0], m = cases[c][1];
        size_t t = 16;
        while (t < 2 * n)
            t *= 2;
        ENSURE_INT(xpbd_contacts_work_bytes(n, m), 8 * n + 4 * (t + 1) + 8 * n + 9 * m + 8);
    }
    ENSURE_INT(xpbd_contacts_work_bytes((size_t)INT32_MAX + 1, 0), SIZE_MAX);
    ENSURE_INT(xpbd_contacts_work_bytes(0, (size_t)INT32_MAX + 1), SIZE_MAX);
}

/* Previous positions are not an input of the step (predict overwrites them
 * before anything reads them): a NaN there is accepted by the validator and
 * the step's result has the bits of the same step from zeroed ones. */
static void contract_nan_previous(void)
{
    chain_f64 a, b;
    REQUIRE(chain_make_f64(&a) && chain_make_f64(&b));
    for (uint32_t i = 0; i < CHAIN_N; ++i)
        a.p.px[i] = a.p.py[i] = a.p.pz[i] = NAN;
    size_t bad = 0;
    ENSURE_STATUS(xpbd_particles_validate_f64(&a.p, &bad), XPBD_OK);
    ENSURE_STATUS(chain_step_f64(&a, xt_isa, &bad), XPBD_OK);
    ENSURE_STATUS(chain_step_f64(&b, xt_isa, &bad), XPBD_OK);
    ENSURE(xt_same_bytes(a.block, b.block, 10 * CHAIN_N * sizeof *a.block, "particles",
                         __FILE__, __LINE__));
    chain_free_f64(&a);
    chain_free_f64(&b);
}

/* A contact set of capacity 0 found by the step (not fixed): the scratch
 * xpbd_world_scratch_bytes sizes for max_contacts 0 has no broad-phase
 * workspace, and the step must not write one past its end (it did: a
 * fuzzing finding). Guard bytes after the scratch stay intact. */
static void contract_zero_capacity_contacts(void)
{
    enum { N = 6, GUARD = 256 };
    double block[10 * N], radius[N];
    memset(block, 0, sizeof block);
    xpbd_particles_f64 p;
    xpbd_particles_bind_f64(&p, N, block, N);
    for (int i = 0; i < N; ++i) {
        p.x[i] = 0.1 * i; /* every neighbour overlaps */
        p.w[i] = 1;
        radius[i] = 0.2;
    }
    const size_t slots = xpbd_contact_slots(0);
    uint32_t *i0 = malloc(slots * sizeof *i0), *i1 = malloc(slots * sizeof *i1);
    const size_t sb = xpbd_world_scratch_bytes_f64(N, 0, 0);
    unsigned char *scratch = malloc(sb + GUARD);
    REQUIRE(i0 && i1 && scratch);
    memset(scratch + sb, 0x6b, GUARD);
    xpbd_contact_set cs;
    REQUIRE_STATUS(xpbd_contact_set_init(&cs, i0, i1, slots, 0), XPBD_OK);
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = &p;
    w.radius = radius;
    w.contacts = &cs;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xt_isa;
    ENSURE_STATUS(xpbd_world_step_f64(&cfg, 1.0 / 60, &w, scratch, sb, NULL), XPBD_OK);
    ENSURE_INT(cs.count, 0);
    size_t touched = 0;
    for (size_t k = 0; k < GUARD; ++k)
        touched += scratch[sb + k] != 0x6b;
    ENSURE_INT(touched, 0);
    free(scratch);
    free(i0);
    free(i1);
}

const xt_test xt_tests_contract[] = {
    {"contract.repeat_exhaustive", contract_repeat_exhaustive},
    {"contract.work_bytes", contract_work_bytes},
    {"contract_cross.repeat_distance_f32", contract_repeat_distance_f32},
    {"contract_cross.repeat_distance_f64", contract_repeat_distance_f64},
    {"contract_cross.repeat_quad", contract_repeat_quad},
    {"contract_cross.fixed_contacts", contract_fixed_contacts},
    {"contract_cross.nan_previous", contract_nan_previous},
    {"contract_cross.zero_capacity_contacts", contract_zero_capacity_contacts},
    {NULL, NULL},
};
