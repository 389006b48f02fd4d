/* SPDX-License-Identifier: MIT */
/* Fuzz target: every builder with fuzzed inputs (distance, tetrahedron,
 * bending and contact sets in both precisions; the cloth and box mesh
 * generators feeding the builders).
 *
 * Checked on every input: an error leaves *out zeroed and names a bad
 * element that really is bad; a built set passes its validator (colours
 * without a repeated particle, padding intact) and holds exactly the input
 * constraints, each once; a mesh the generator accepts builds. */
#include "fuzz.h"

#define FZ_MAX_N 300u
#define FZ_MAX_M 600u

/* Distance set in precision R: returns nothing, aborts on a broken promise. */
#define FZ_DISTANCE(R, SFX)                                                                   \
    static void fz_distance_##SFX(fz_in *in)                                                  \
    {                                                                                         \
        const uint32_t n = fz_below(in, FZ_MAX_N + 1), m = fz_below(in, FZ_MAX_M + 1);        \
        uint32_t i0[FZ_MAX_M], i1[FZ_MAX_M];                                                  \
        R rest[FZ_MAX_M], comp[FZ_MAX_M];                                                     \
        for (uint32_t k = 0; k < m; ++k) {                                                    \
            const uint8_t how = fz_u8(in);                                                    \
            i0[k] = how == 255 ? fz_u32(in) : fz_below(in, n + 1);                            \
            i1[k] = how == 254 ? i0[k] : fz_below(in, n + 1);                                 \
            rest[k] = (R)(how == 253 ? fz_real(in) : 0.25 + fz_nonneg(in));                   \
            comp[k] = (R)(how == 252 ? fz_real(in) : fz_nonneg(in) * 1e-4);                   \
        }                                                                                     \
        const uint32_t opt_colours = fz_below(in, 70);                                        \
        const uint8_t opt_flags = fz_u8(in);                                                  \
        xpbd_colouring_options opt = {.max_colours = opt_colours,                             \
                                      .serial = opt_flags > 240,                              \
                                      .runs = opt_flags & 1,                                  \
                                      .layout = (opt_flags >> 1) % 4 /* 3: not a layout */,   \
                                      .regions = (uint32_t)(opt_flags >> 3)};                 \
        const int bad_layout = opt.layout == 3 || (opt.runs && opt.layout == XPBD_LAYOUT_INPUT); \
        xpbd_distance_set_##SFX c;                                                            \
        memset(&c, 0xa5, sizeof c);                                                           \
        size_t bad = 0;                                                                       \
        const xpbd_status st =                                                                \
            xpbd_distance_set_build_##SFX(&c, n, m, i0, i1, rest, comp, &opt, &bad);         \
        if (st != XPBD_OK) {                                                                  \
            FZ_CHECK(xt_all_zero(&c, sizeof c), "distance build %d left *out written", st);      \
            if (st == XPBD_ERR_INDEX)                                                         \
                FZ_CHECK(bad < m && (i0[bad] >= n || i1[bad] >= n || i0[bad] == i1[bad]),     \
                         "INDEX names constraint %zu", bad);                                  \
            else if (st == XPBD_ERR_REST)                                                     \
                FZ_CHECK(bad < m && !(rest[bad] > 0 && isfinite(rest[bad])), "REST %zu", bad); \
            else if (st == XPBD_ERR_COMPLIANCE)                                               \
                FZ_CHECK(bad < m && !(comp[bad] >= 0 && isfinite(comp[bad])), "COMP %zu",     \
                         bad);                                                                \
            else                                                                              \
                FZ_CHECK(st == XPBD_ERR_CONFIG &&                                             \
                             (opt.max_colours > XPBD_MAX_COLOURS || bad_layout ||             \
                              opt.regions == 1 || opt.regions > XPBD_MAX_REGIONS),            \
                         "unexpected status %d", st);                                         \
            return;                                                                           \
        }                                                                                     \
        FZ_CHECK(!bad_layout, "layout %d with runs %d accepted", opt.layout, opt.runs);       \
        uint32_t stamp[FZ_MAX_N + 1];                                                         \
        FZ_CHECK(xpbd_distance_set_validate_##SFX(&c, n, stamp, &bad) == XPBD_OK,             \
                 "built set refused at slot %zu", bad);                                       \
        FZ_CHECK(c.count == m, "count %u of %u", c.count, m);                                 \
        unsigned char seen[FZ_MAX_M] = {0};                                                   \
        for (uint32_t s = 0; s < c.slots; ++s) {                                              \
            const uint32_t k = c.source[s];                                                   \
            if (k == XPBD_PAD)                                                                \
                continue;                                                                     \
            FZ_CHECK(k < m && !seen[k], "source %u", k);                                      \
            seen[k] = 1;                                                                      \
            FZ_CHECK(c.i0[s] == i0[k] && c.i1[s] == i1[k] &&                                  \
                         memcmp(&c.rest[s], &rest[k], sizeof(R)) == 0 &&                      \
                         memcmp(&c.compliance[s], &comp[k], sizeof(R)) == 0 && c.lambda[s] == 0, \
                     "slot %u differs from constraint %u", s, k);                             \
        }                                                                                     \
        xpbd_distance_set_free_##SFX(&c);                                                     \
        FZ_CHECK(xt_all_zero(&c, sizeof c), "free left the set written");                         \
    }

FZ_DISTANCE(float, f32)
FZ_DISTANCE(double, f64)

/* Tetrahedra (bend = 0) or bending stencils (bend = 1) in precision R. */
#define FZ_QUAD(R, SFX)                                                                       \
    static void fz_quad_##SFX(fz_in *in, int bend)                                            \
    {                                                                                         \
        const uint32_t n = fz_below(in, 64 + 1), m = fz_below(in, 128 + 1);                  \
        R xyz[3 * 64];                                                                        \
        uint32_t idx[4 * 128];                                                                \
        R comp[128];                                                                          \
        for (uint32_t i = 0; i < 3 * n; ++i)                                                  \
            xyz[i] = (R)(fz_u8(in) == 255 ? fz_real(in) : (double)fz_below(in, 8));          \
        for (uint32_t k = 0; k < m; ++k) {                                                    \
            for (int j = 0; j < 4; ++j)                                                       \
                idx[4 * k + j] = fz_below(in, n + 1);                                         \
            comp[k] = (R)(fz_u8(in) == 255 ? fz_real(in) : fz_nonneg(in) * 1e-3);             \
        }                                                                                     \
        const uint32_t opt_colours = fz_below(in, 66);                                        \
        const uint8_t opt_flags = fz_u8(in);                                                  \
        const xpbd_colouring_options opt = {                                                  \
            .max_colours = opt_colours, .serial = opt_flags > 240, .runs = opt_flags & 1,     \
            .regions = (uint32_t)(opt_flags >> 1) & 0x1fu};                                   \
        xpbd_quad_set_##SFX q;                                                                \
        memset(&q, 0x5a, sizeof q);                                                           \
        size_t bad = 0;                                                                       \
        const xpbd_status st =                                                                \
            bend ? xpbd_bend_set_build_##SFX(&q, n, xyz, m, idx, comp, &opt, &bad)            \
                 : xpbd_tet_set_build_##SFX(&q, n, xyz, m, idx, comp, &opt, &bad);            \
        if (st != XPBD_OK) {                                                                  \
            FZ_CHECK(xt_all_zero(&q, sizeof q), "quad build %d left *out written", st);          \
            if (st == XPBD_ERR_INDEX || st == XPBD_ERR_COMPLIANCE || st == XPBD_ERR_DEGENERATE) \
                FZ_CHECK(bad < m, "status %d names %zu of %u", st, bad, m);                   \
            if (st == XPBD_ERR_POSITION)                                                      \
                FZ_CHECK(bad < n, "POSITION names %zu of %u", bad, n);                        \
            return;                                                                           \
        }                                                                                     \
        uint32_t stamp[64];                                                                   \
        FZ_CHECK(xpbd_quad_set_validate_##SFX(&q, n, stamp, &bad) == XPBD_OK,                 \
                 "built quad set refused at slot %zu", bad);                                  \
        FZ_CHECK(q.count == m, "count");                                                      \
        for (uint32_t s = 0; s < q.slots; ++s) {                                              \
            const uint32_t k = q.source[s];                                                   \
            if (k == XPBD_PAD)                                                                \
                continue;                                                                     \
            FZ_CHECK(k < m && q.i0[s] == idx[4 * k] && q.i1[s] == idx[4 * k + 1] &&           \
                         q.i2[s] == idx[4 * k + 2] && q.i3[s] == idx[4 * k + 3],              \
                     "slot %u", s);                                                           \
        }                                                                                     \
        xpbd_quad_set_free_##SFX(&q);                                                         \
    }

FZ_QUAD(float, f32)
FZ_QUAD(double, f64)

/* Host pairs coloured into a contact set. */
static void fz_contacts(fz_in *in)
{
    const uint32_t n = fz_below(in, 200 + 1), m = fz_below(in, 400 + 1);
    const uint32_t max = fz_below(in, 400 + 1);
    uint32_t i0[400], i1[400];
    for (uint32_t k = 0; k < m; ++k) {
        i0[k] = fz_below(in, n + 1);
        i1[k] = fz_u8(in) == 255 ? i0[k] : fz_below(in, n + 1);
    }
    const size_t slots = xpbd_contact_slots(max), wb = xpbd_contacts_work_bytes(n, max);
    uint32_t *a = malloc(slots * sizeof *a), *b = malloc(slots * sizeof *b);
    uint64_t *work = malloc(wb);
    uint32_t *stamp = malloc((n + 1) * sizeof *stamp);
    FZ_CHECK(a && b && work && stamp, "out of memory");
    xpbd_contact_set cs;
    FZ_CHECK(xpbd_contact_set_init(&cs, a, b, slots, max) == XPBD_OK, "init");
    size_t bad = 0;
    const uint32_t colours = fz_below(in, 66);
    const xpbd_status st =
        xpbd_contact_set_assign(&cs, n, m, i0, i1, colours, fz_u8(in) > 240, work, wb, &bad);
    if (st == XPBD_OK || st == XPBD_OVERFLOW) {
        FZ_CHECK(xpbd_contact_set_validate(&cs, n, stamp, &bad) == XPBD_OK,
                 "assigned set refused at slot %zu", bad);
        FZ_CHECK(cs.count == (m < max ? m : max) && cs.dropped == m - cs.count,
                 "count %u dropped %u", cs.count, cs.dropped);
        FZ_CHECK((st == XPBD_OVERFLOW) == (m > max), "overflow status");
    } else if (st == XPBD_ERR_INDEX) {
        FZ_CHECK(bad < m && (i0[bad] >= n || i1[bad] >= n || i0[bad] == i1[bad]), "INDEX %zu",
                 bad);
        FZ_CHECK(cs.count == 0 && cs.slots == 0, "refused assign left pairs");
    } else {
        FZ_CHECK(st == XPBD_ERR_CONFIG && colours > XPBD_MAX_COLOURS, "status %d", st);
    }
    free(a);
    free(b);
    free(work);
    free(stamp);
}

/* A cloth or a box from a fuzzed description; what the generator accepts
 * must build (rest lengths from the generated positions). */
static void fz_mesh(fz_in *in)
{
    const int box = fz_u8(in) & 1;
    xpbd_mesh_counts k;
    xpbd_status st;
    xpbd_cloth_desc cd;
    xpbd_box_desc bd;
    memset(&cd, 0, sizeof cd);
    memset(&bd, 0, sizeof bd);
    if (box) {
        bd.nx = fz_u8(in) == 255 ? fz_u32(in) : fz_below(in, 6);
        bd.ny = fz_below(in, 6);
        bd.nz = fz_below(in, 6);
        bd.spacing = fz_u8(in) == 255 ? fz_real(in) : 0.05 + fz_nonneg(in);
        for (int j = 0; j < 3; ++j)
            bd.origin[j] = fz_real(in);
        bd.tets_per_cube = fz_below(in, 8);
        st = xpbd_mesh_box(&bd, &k, NULL);
    } else {
        cd.nx = fz_u8(in) == 255 ? fz_u32(in) : fz_below(in, 20);
        cd.ny = fz_below(in, 20);
        cd.spacing = fz_u8(in) == 255 ? fz_real(in) : 0.05 + fz_nonneg(in);
        for (int j = 0; j < 3; ++j) {
            cd.origin[j] = fz_real(in);
            cd.u[j] = fz_u8(in) > 200 ? fz_real(in) : 0;
            cd.v[j] = fz_u8(in) > 200 ? fz_real(in) : 0;
        }
        st = xpbd_mesh_cloth(&cd, &k, NULL);
    }
    if (st != XPBD_OK || k.particles > 20000)
        return;
    xpbd_mesh_out out;
    memset(&out, 0, sizeof out);
    out.capacity = k;
    out.xyz64 = malloc((3 * k.particles + 1) * sizeof *out.xyz64);
    out.edges = malloc((2 * k.edges + 1) * sizeof *out.edges);
    out.tets = malloc((4 * k.tets + 1) * sizeof *out.tets);
    out.bends = malloc((4 * k.bends + 1) * sizeof *out.bends);
    double *rest = malloc((k.edges + 1) * sizeof *rest), *comp = calloc(k.edges + k.tets + k.bends + 1, sizeof *comp);
    FZ_CHECK(out.xyz64 && out.edges && out.tets && out.bends && rest && comp, "out of memory");
    st = box ? xpbd_mesh_box(&bd, NULL, &out) : xpbd_mesh_cloth(&cd, NULL, &out);
    FZ_CHECK(st == XPBD_OK, "sized mesh refused: %d", st);
    xpbd_mesh_rest_lengths_f64(out.xyz64, k.edges, out.edges, rest);
    xpbd_distance_set_f64 c;
    size_t bad = 0;
    uint32_t *i0 = malloc((k.edges + 1) * sizeof *i0), *i1 = malloc((k.edges + 1) * sizeof *i1);
    FZ_CHECK(i0 && i1, "out of memory");
    for (size_t e = 0; e < k.edges; ++e) {
        i0[e] = out.edges[2 * e];
        i1[e] = out.edges[2 * e + 1];
    }
    st = xpbd_distance_set_build_f64(&c, k.particles, k.edges, i0, i1, rest, comp, NULL, &bad);
    /* a spacing so small or an origin so large that edges round to zero
     * length is the only reason to refuse */
    FZ_CHECK(st == XPBD_OK || (st == XPBD_ERR_REST && bad < k.edges && !(rest[bad] > 0)) ||
                 (st == XPBD_ERR_REST && !isfinite(rest[bad])),
             "generated edges refused: %d at %zu", st, bad);
    xpbd_distance_set_free_f64(&c);
    if (box) {
        xpbd_quad_set_f64 q;
        st = xpbd_tet_set_build_f64(&q, k.particles, out.xyz64, k.tets, out.tets, comp, NULL,
                                    &bad);
        FZ_CHECK(st == XPBD_OK || st == XPBD_ERR_DEGENERATE || st == XPBD_ERR_POSITION,
                 "generated tets refused: %d at %zu", st, bad);
        xpbd_quad_set_free_f64(&q);
    }
    free(i0);
    free(i1);
    free(out.xyz64);
    free(out.edges);
    free(out.tets);
    free(out.bends);
    free(rest);
    free(comp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    switch (fz_u8(&in) % 8) {
    case 0: fz_distance_f32(&in); break;
    case 1: fz_distance_f64(&in); break;
    case 2: fz_quad_f32(&in, 0); break;
    case 3: fz_quad_f64(&in, 0); break;
    case 4: fz_quad_f32(&in, 1); break;
    case 5: fz_quad_f64(&in, 1); break;
    case 6: fz_contacts(&in); break;
    default: fz_mesh(&in); break;
    }
    return 0;
}
