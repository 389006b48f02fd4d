/* SPDX-License-Identifier: MIT */
/* Mesh topology (xpbd/mesh.h): unique edges, bending stencils and their
 * rest angles, tet orientation, degenerate elements, masses, pins and the
 * engine scene of a mesh, against closed forms and the generators' own
 * lists (xpbd_mesh_box, xpbd_mesh_cloth). Names: "mesh_topology.". */
#include "test.h"

#include <math.h>
#include <stdlib.h>

#define MT_PI 3.14159265358979323846

/* A generated mesh with every array the generator writes. */
typedef struct mt_mesh {
    xpbd_mesh_counts k;
    double *xyz;
    uint32_t *edges, *shear, *bends, *tets, *tris;
} mt_mesh;

static void mt_free(mt_mesh *m)
{
    free(m->xyz);
    free(m->edges);
    free(m->shear);
    free(m->bends);
    free(m->tets);
    free(m->tris);
    memset(m, 0, sizeof *m);
}

static int mt_alloc(mt_mesh *m, xpbd_mesh_out *o)
{
    const xpbd_mesh_counts k = m->k;
    m->xyz = malloc((3 * k.particles + 1) * sizeof *m->xyz);
    m->edges = malloc((2 * k.edges + 1) * sizeof *m->edges);
    m->shear = malloc((2 * k.shear + 1) * sizeof *m->shear);
    m->bends = malloc((4 * k.bends + 1) * sizeof *m->bends);
    m->tets = malloc((4 * k.tets + 1) * sizeof *m->tets);
    m->tris = malloc((3 * k.triangles + 1) * sizeof *m->tris);
    memset(o, 0, sizeof *o);
    o->xyz64 = m->xyz;
    o->edges = m->edges;
    o->shear = m->shear;
    o->bends = m->bends;
    o->tets = m->tets;
    o->triangles = m->tris;
    o->capacity = k;
    return m->xyz && m->edges && m->shear && m->bends && m->tets && m->tris;
}

static int mt_box(mt_mesh *m, uint32_t nx, uint32_t ny, uint32_t nz, double spacing,
                  uint32_t tpc)
{
    const xpbd_box_desc d = {nx, ny, nz, spacing, {0.5, -1, 0.25}, tpc};
    memset(m, 0, sizeof *m);
    xpbd_mesh_out o;
    return xpbd_mesh_box(&d, &m->k, NULL) == XPBD_OK && mt_alloc(m, &o) &&
           xpbd_mesh_box(&d, NULL, &o) == XPBD_OK;
}

/* A cloth grid; vertical (u = x, v = y) or the default x-z sheet. */
static int mt_cloth(mt_mesh *m, uint32_t nx, uint32_t ny, double spacing, int vertical)
{
    xpbd_cloth_desc d = {nx, ny, spacing, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    if (vertical) {
        d.u[0] = 1;
        d.v[1] = 1;
    }
    memset(m, 0, sizeof *m);
    xpbd_mesh_out o;
    return xpbd_mesh_cloth(&d, &m->k, NULL) == XPBD_OK && mt_alloc(m, &o) &&
           xpbd_mesh_cloth(&d, NULL, &o) == XPBD_OK;
}

static uint64_t mt_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static int mt_u64_cmp(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* pairs as sorted keys (new array) */
static uint64_t *mt_keys(const uint32_t *pairs, size_t n)
{
    uint64_t *k = malloc((n + 1) * sizeof *k);
    if (!k)
        return NULL;
    for (size_t e = 0; e < n; ++e)
        k[e] = mt_key(pairs[2 * e], pairs[2 * e + 1]);
    qsort(k, n, sizeof *k, mt_u64_cmp);
    return k;
}

static double mt_vol6(const double *xyz, const uint32_t *t)
{
    double e[3][3];
    for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c)
            e[a][c] = xyz[3 * (size_t)t[a + 1] + (size_t)c] - xyz[3 * (size_t)t[0] + (size_t)c];
    return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) +
           e[0][1] * (e[1][2] * e[2][0] - e[1][0] * e[2][2]) +
           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

/* Edges of a valid output: each pair lower < higher, strictly increasing. */
static int mt_sorted_pairs(const uint32_t *p, size_t n)
{
    for (size_t e = 0; e < n; ++e) {
        if (!(p[2 * e] < p[2 * e + 1]))
            return 0;
        if (e && !(mt_key(p[2 * e - 2], p[2 * e - 1]) < mt_key(p[2 * e], p[2 * e + 1])))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ edges --- */

/* The unique edges of xpbd_mesh_box's tets are its own edge list (as a
 * set: count and content), both splits, several sizes. */
static void mesh_topology_edges_box(void)
{
    static const uint32_t dims[3][3] = {{1, 1, 1}, {3, 2, 4}, {2, 3, 1}};
    for (uint32_t tpc = 5; tpc <= 6; ++tpc)
        for (int s = 0; s < 3; ++s) {
            mt_mesh m;
            REQUIRE(mt_box(&m, dims[s][0], dims[s][1], dims[s][2], 0.3, tpc));
            size_t count = 12345, bad = 7;
            /* counts first */
            REQUIRE_STATUS(xpbd_mesh_edges(m.k.particles, m.tets, m.k.tets, 4, NULL, 0, &count,
                                           &bad),
                           XPBD_OK);
            ENSURE_INT(count, m.k.edges);
            ENSURE_INT(bad, SIZE_MAX);
            uint32_t *p = malloc((2 * count + 2) * sizeof *p);
            REQUIRE(p);
            p[2 * count - 2] = 0xdead;
            ENSURE_STATUS(xpbd_mesh_edges(m.k.particles, m.tets, m.k.tets, 4, p, count - 1,
                                          &count, &bad),
                          XPBD_ERR_CAPACITY);
            ENSURE_INT(count, m.k.edges);
            ENSURE_INT(p[2 * count - 2], 0xdead); /* not written */
            REQUIRE_STATUS(xpbd_mesh_edges(m.k.particles, m.tets, m.k.tets, 4, p, count, &count,
                                           &bad),
                           XPBD_OK);
            ENSURE(mt_sorted_pairs(p, count));
            uint64_t *got = mt_keys(p, count), *want = mt_keys(m.edges, m.k.edges);
            REQUIRE(got && want);
            ENSURE(memcmp(got, want, count * sizeof *got) == 0);
            free(got);
            free(want);
            free(p);
            mt_free(&m);
        }
}

/* A cloth's triangles (a, b, d), (a, d, c) give its rows and columns (the
 * stretch edges) and one diagonal a-d per quad: the first of each shear
 * pair. */
static void mesh_topology_edges_cloth(void)
{
    static const uint32_t dims[3][2] = {{2, 2}, {5, 4}, {7, 3}};
    for (int s = 0; s < 3; ++s) {
        const uint32_t nx = dims[s][0], ny = dims[s][1];
        mt_mesh m;
        REQUIRE(mt_cloth(&m, nx, ny, 0.25, 0));
        const size_t quads = (size_t)(nx - 1) * (ny - 1);
        size_t count = 0;
        REQUIRE_STATUS(xpbd_mesh_edges(m.k.particles, m.tris, m.k.triangles, 3, NULL, 0, &count,
                                       NULL),
                       XPBD_OK);
        ENSURE_INT(count, (size_t)(nx - 1) * ny + (size_t)nx * (ny - 1) + quads);
        ENSURE_INT(count, m.k.edges + quads);
        /* one call with the documented bound, 3 per triangle */
        uint32_t *p = malloc(2 * 3 * m.k.triangles * sizeof *p);
        uint32_t *want = malloc(2 * (m.k.edges + quads) * sizeof *want);
        REQUIRE(p && want);
        REQUIRE_STATUS(xpbd_mesh_edges(m.k.particles, m.tris, m.k.triangles, 3, p,
                                       3 * m.k.triangles, &count, NULL),
                       XPBD_OK);
        ENSURE(mt_sorted_pairs(p, count));
        memcpy(want, m.edges, 2 * m.k.edges * sizeof *want);
        for (size_t q = 0; q < quads; ++q) {
            want[2 * (m.k.edges + q)] = m.shear[4 * q];
            want[2 * (m.k.edges + q) + 1] = m.shear[4 * q + 1];
        }
        uint64_t *g = mt_keys(p, count), *w = mt_keys(want, m.k.edges + quads);
        REQUIRE(g && w);
        if (count == m.k.edges + quads)
            ENSURE(memcmp(g, w, count * sizeof *g) == 0);
        free(g);
        free(w);
        free(p);
        free(want);
        mt_free(&m);
    }
}

/* ------------------------------------------------------------ bends --- */

static int mt_u32x4_cmp(const void *pa, const void *pb)
{
    return memcmp(pa, pb, 4 * sizeof(uint32_t));
}

/* A stencil with its edge's ends and its opposites each in increasing
 * order: the same hinge whatever the order it was given in. */
static void mt_normal_stencils(uint32_t *s, size_t n)
{
    for (size_t b = 0; b < n; ++b)
        for (int h = 0; h < 2; ++h)
            if (s[4 * b + 2 * (size_t)h] > s[4 * b + 2 * (size_t)h + 1]) {
                const uint32_t t = s[4 * b + 2 * (size_t)h];
                s[4 * b + 2 * (size_t)h] = s[4 * b + 2 * (size_t)h + 1];
                s[4 * b + 2 * (size_t)h + 1] = t;
            }
    qsort(s, n, 4 * sizeof *s, mt_u32x4_cmp);
}

/* 1 when (a, b, c) is a rotation of triangle t. */
static int mt_rotation_of(const uint32_t *t, uint32_t a, uint32_t b, uint32_t c)
{
    for (int r = 0; r < 3; ++r)
        if (t[r] == a && t[(r + 1) % 3] == b && t[(r + 2) % 3] == c)
            return 1;
    return 0;
}

/* Stencils from a cloth's triangles: the generator's bends (count and, up
 * to the order within the edge and within the opposites, content); each
 * stencil's first three corners run as one of the mesh's triangles; the
 * bend builder takes them. */
static void mesh_topology_bends_cloth(void)
{
    static const uint32_t dims[3][2] = {{2, 2}, {5, 4}, {3, 6}};
    for (int s = 0; s < 3; ++s) {
        mt_mesh m;
        REQUIRE(mt_cloth(&m, dims[s][0], dims[s][1], 0.2, 0));
        size_t count = 0, skipped = 99, bad = 0;
        REQUIRE_STATUS(xpbd_mesh_bends(m.k.particles, m.tris, m.k.triangles, 0, NULL, 0, &count,
                                       &skipped, &bad, NULL),
                       XPBD_OK);
        ENSURE_INT(count, m.k.bends);
        ENSURE_INT(skipped, 0);
        ENSURE_INT(bad, SIZE_MAX);
        uint32_t *st = malloc((4 * count + 4) * sizeof *st);
        REQUIRE(st);
        if (count > 0)
            ENSURE_STATUS(xpbd_mesh_bends(m.k.particles, m.tris, m.k.triangles, 0, st, count - 1,
                                          &count, NULL, NULL, NULL),
                          XPBD_ERR_CAPACITY);
        REQUIRE_STATUS(xpbd_mesh_bends(m.k.particles, m.tris, m.k.triangles, 0, st, count,
                                       &count, NULL, NULL, NULL),
                       XPBD_OK);
        /* order: by edge, and each a triangle of the mesh, d the other's */
        for (size_t b = 0; b < count; ++b) {
            const uint32_t *v = st + 4 * b;
            if (b)
                ENSURE(mt_key(v[-4], v[-3]) < mt_key(v[0], v[1]));
            int first = 0, second = 0;
            for (size_t t = 0; t < m.k.triangles; ++t) {
                first += mt_rotation_of(m.tris + 3 * t, v[0], v[1], v[2]);
                second += mt_rotation_of(m.tris + 3 * t, v[1], v[0], v[3]);
            }
            ENSURE_INT(first, 1);
            ENSURE_INT(second, 1); /* the cloth is consistently wound */
        }
        xpbd_quad_set_f64 set;
        double *comp = calloc(count + 1, sizeof *comp);
        REQUIRE(comp);
        ENSURE_STATUS(xpbd_bend_set_build_f64(&set, m.k.particles, m.xyz, count, st, comp, NULL,
                                              NULL),
                      XPBD_OK);
        xpbd_quad_set_free_f64(&set);
        free(comp);
        mt_normal_stencils(st, count);
        mt_normal_stencils(m.bends, m.k.bends);
        if (count == m.k.bends)
            ENSURE(memcmp(st, m.bends, 4 * count * sizeof *st) == 0);
        free(st);
        mt_free(&m);
    }
}

/* Non-manifold edges: three triangles on edge 0-1 are refused with the
 * third and the edge, or skipped and counted; a triangle given twice too. */
static void mesh_topology_nonmanifold(void)
{
    /* fan of three triangles around 0-1, plus 1-2-5 on a manifold edge 1-2 */
    const uint32_t tri[4 * 3] = {0, 1, 2, 1, 0, 3, 0, 1, 4, 2, 1, 5};
    size_t count = 7, skipped = 7, bad = 7;
    uint32_t edge[2] = {9, 9}, st[4 * 8];
    ENSURE_STATUS(xpbd_mesh_bends(6, tri, 4, 0, st, 8, &count, &skipped, &bad, edge),
                  XPBD_ERR_TOPOLOGY);
    ENSURE_INT(bad, 2);
    ENSURE_INT(edge[0], 0);
    ENSURE_INT(edge[1], 1);
    ENSURE_INT(count, 0);
    ENSURE_INT(skipped, 0);
    REQUIRE_STATUS(xpbd_mesh_bends(6, tri, 4, XPBD_MESH_SKIP_NONMANIFOLD, st, 8, &count, &skipped,
                                   &bad, edge),
                   XPBD_OK);
    ENSURE_INT(skipped, 1);
    ENSURE_INT(count, 1); /* the hinge 1-2 of triangles 0 and 3 */
    const uint32_t want[4] = {1, 2, 0, 5};
    ENSURE(memcmp(st, want, sizeof want) == 0);
    ENSURE_INT(bad, SIZE_MAX);
    /* a triangle given twice (reversed): its three edges each have one
     * opposite vertex twice */
    const uint32_t twice[2 * 3] = {0, 1, 2, 2, 1, 0};
    ENSURE_STATUS(xpbd_mesh_bends(3, twice, 2, 0, st, 8, &count, NULL, &bad, edge),
                  XPBD_ERR_TOPOLOGY);
    ENSURE_INT(bad, 1);
    ENSURE_INT(edge[0], 0);
    ENSURE_INT(edge[1], 1);
    ENSURE_STATUS(xpbd_mesh_bends(3, twice, 2, XPBD_MESH_SKIP_NONMANIFOLD, st, 8, &count,
                                  &skipped, &bad, NULL),
                  XPBD_OK);
    ENSURE_INT(count, 0);
    ENSURE_INT(skipped, 3);
    ENSURE(strcmp(xpbd_status_str(XPBD_ERR_TOPOLOGY), "unknown status") != 0);
}

/* ------------------------------------------------------- rest angles --- */

/* A hinge a = 0, b = e_x, c = (0.5, 1, 0) in the x-y plane, d the third
 * point turned by theta about the edge out of the plane: d = (0.5,
 * -cos(theta), -sin(theta)) (theta = 0: flat, d opposite c). */
static void mt_hinge(double theta, double xyz[12])
{
    const double p[12] = {0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -cos(theta), -sin(theta)};
    memcpy(xyz, p, sizeof p);
}

static void mesh_topology_rest_angles(void)
{
    /* folded hinges: the angle back to 1e-12, through the stencils of the
     * two triangles (0, 1, 2) and (1, 0, 3) */
    const double thetas[] = {MT_PI / 3, 2 * MT_PI / 3, -MT_PI / 4, MT_PI - 1e-7, -(MT_PI - 1e-5),
                             1e-9, 0.5, -2.5};
    const uint32_t tri[6] = {0, 1, 2, 1, 0, 3};
    uint32_t st[4];
    size_t count = 0;
    REQUIRE_STATUS(xpbd_mesh_bends(4, tri, 2, 0, st, 1, &count, NULL, NULL, NULL), XPBD_OK);
    REQUIRE(count == 1);
    const uint32_t want_st[4] = {0, 1, 2, 3};
    ENSURE(memcmp(st, want_st, sizeof st) == 0);
    for (size_t k = 0; k < sizeof thetas / sizeof thetas[0]; ++k) {
        double xyz[12], a = 99;
        mt_hinge(thetas[k], xyz);
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f64(4, xyz, st, 1, &a, NULL), XPBD_OK);
        ENSURE_NEAR(a, thetas[k], 1e-12);
        /* the same hinge moved and turned rigidly (about an oblique axis) */
        const double c = cos(0.7), s = sin(0.7);
        const double rot[9] = {c, -s, 0, s * 0.6, c * 0.6, -0.8, s * 0.8, c * 0.8, 0.6};
        double moved[12];
        for (int v = 0; v < 4; ++v)
            for (int r = 0; r < 3; ++r) {
                const double *x = xyz + 3 * v, *q = rot + 3 * r;
                moved[3 * v + r] = 3.25 + q[0] * x[0] + q[1] * x[1] + q[2] * x[2];
            }
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f64(4, moved, st, 1, &a, NULL), XPBD_OK);
        ENSURE_NEAR(a, thetas[k], 1e-12);
        /* float positions: to float precision */
        float xyz32[12], a32 = 99;
        for (int i = 0; i < 12; ++i)
            xyz32[i] = (float)xyz[i];
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f32(4, xyz32, st, 1, &a32, NULL), XPBD_OK);
        ENSURE_NEAR(a32, thetas[k], 1e-6);
    }
    /* exactly pi: d on c (the hinge folded shut) is degenerate-free and
     * gives pi, never -pi */
    {
        const double xyz[12] = {0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, 1, 0};
        double a = 0;
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f64(4, xyz, st, 1, &a, NULL), XPBD_OK);
        ENSURE_BITS_F64(a, MT_PI);
        const double xyz2[12] = {0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, 1, -0.0};
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f64(4, xyz2, st, 1, &a, NULL), XPBD_OK);
        ENSURE_BITS_F64(a, MT_PI);
    }
    /* a flat sheet (the default x-z cloth, and a vertical one): exactly 0 */
    for (int vertical = 0; vertical < 2; ++vertical) {
        mt_mesh m;
        REQUIRE(mt_cloth(&m, 6, 5, 0.3, vertical));
        double *a = malloc(m.k.bends * sizeof *a);
        REQUIRE(a);
        REQUIRE_STATUS(
            xpbd_mesh_dihedral_angles_f64(m.k.particles, m.xyz, m.bends, m.k.bends, a, NULL),
            XPBD_OK);
        size_t nonzero = 0;
        for (size_t b = 0; b < m.k.bends; ++b)
            nonzero += a[b] != 0 || signbit(a[b]);
        ENSURE_INT(nonzero, 0);
        free(a);
        mt_free(&m);
    }
    /* a box's surface, counter-clockwise seen from outside: flat hinges
     * exactly 0 on the faces, +pi/2 (convex) along its 12 edges */
    {
        mt_mesh m;
        REQUIRE(mt_box(&m, 3, 2, 4, 0.5, 6));
        size_t count = 0;
        REQUIRE_STATUS(xpbd_mesh_bends(m.k.particles, m.tris, m.k.triangles, 0, NULL, 0, &count,
                                       NULL, NULL, NULL),
                       XPBD_OK);
        ENSURE_INT(count, 3 * m.k.triangles / 2); /* closed: every edge a hinge */
        uint32_t *s = malloc((4 * count + 4) * sizeof *s);
        double *a = malloc((count + 1) * sizeof *a);
        REQUIRE(s && a);
        REQUIRE_STATUS(xpbd_mesh_bends(m.k.particles, m.tris, m.k.triangles, 0, s, count, &count,
                                       NULL, NULL, NULL),
                       XPBD_OK);
        REQUIRE_STATUS(xpbd_mesh_dihedral_angles_f64(m.k.particles, m.xyz, s, count, a, NULL),
                       XPBD_OK);
        size_t flat = 0, right = 0;
        for (size_t b = 0; b < count; ++b) {
            flat += a[b] == 0;
            right += fabs(a[b] - MT_PI / 2) <= 1e-12;
        }
        ENSURE_INT(right, 4 * (3 + 2 + 4));
        ENSURE_INT(flat + right, count);
        free(s);
        free(a);
        mt_free(&m);
    }
}

/* ------------------------------------------------------ orientation --- */

/* A box with every other tet's first two vertices swapped: all positive
 * again, flipped = the number swapped, labels travel with their tets. */
static void mesh_topology_orient(void)
{
    for (uint32_t tpc = 5; tpc <= 6; ++tpc) {
        mt_mesh m;
        REQUIRE(mt_box(&m, 2, 3, 2, 0.4, tpc));
        const size_t nt = m.k.tets;
        int32_t *label = malloc(nt * sizeof *label);
        REQUIRE(label);
        size_t swapped = 0;
        for (size_t t = 0; t < nt; ++t) {
            label[t] = (int32_t)(t * 3);
            if (t % 2) {
                const uint32_t s = m.tets[4 * t];
                m.tets[4 * t] = m.tets[4 * t + 1];
                m.tets[4 * t + 1] = s;
                ++swapped;
            }
        }
        size_t negative = 0;
        for (size_t t = 0; t < nt; ++t)
            negative += mt_vol6(m.xyz, m.tets + 4 * t) < 0;
        ENSURE_INT(negative, swapped);
        size_t flipped = 0, skipped = 9, bad = 0;
        REQUIRE_STATUS(xpbd_mesh_clean_tets_f64(m.k.particles, m.xyz, m.tets, nt, label, 0,
                                                &flipped, &skipped, &bad),
                       XPBD_OK);
        ENSURE_INT(flipped, swapped);
        ENSURE_INT(skipped, 0);
        ENSURE_INT(bad, SIZE_MAX);
        size_t positive = 0, labels = 0;
        for (size_t t = 0; t < nt; ++t) {
            positive += mt_vol6(m.xyz, m.tets + 4 * t) > 0;
            labels += label[t] == (int32_t)(t * 3);
        }
        ENSURE_INT(positive, nt);
        ENSURE_INT(labels, nt);
        /* again: nothing to flip; float positions agree */
        ENSURE_STATUS(xpbd_mesh_clean_tets_f64(m.k.particles, m.xyz, m.tets, nt, NULL, 0,
                                               &flipped, &skipped, NULL),
                      XPBD_OK);
        ENSURE_INT(flipped, 0);
        float *x32 = malloc(3 * m.k.particles * sizeof *x32);
        REQUIRE(x32);
        for (size_t i = 0; i < 3 * m.k.particles; ++i)
            x32[i] = (float)m.xyz[i];
        const uint32_t s0 = m.tets[0];
        m.tets[0] = m.tets[1];
        m.tets[1] = s0;
        ENSURE_STATUS(xpbd_mesh_clean_tets_f32(m.k.particles, x32, m.tets, nt, NULL, 0, &flipped,
                                               &skipped, NULL),
                      XPBD_OK);
        ENSURE_INT(flipped, 1);
        free(x32);
        free(label);
        mt_free(&m);
    }
}

/* Degenerate tets and triangles: refused with their index, or skipped,
 * counted and the rest moved up in order (labels alongside); an index out
 * of range is refused even when skipping. */
static void mesh_topology_degenerate(void)
{
    /* a unit cube's corners, and a ninth point on the 0-1-2-3 face's plane */
    double xyz[3 * 9];
    for (int v = 0; v < 8; ++v) {
        xyz[3 * v] = v & 1;
        xyz[3 * v + 1] = v >> 1 & 1;
        xyz[3 * v + 2] = v >> 2 & 1;
    }
    xyz[24] = 0.5, xyz[25] = 0.5, xyz[26] = 0;
    const uint32_t tets0[5 * 4] = {0, 1, 3, 7, /* good */
                                   0, 1, 1, 7, /* repeated vertex */
                                   0, 1, 3, 8, /* flat: all in z = 0 */
                                   0, 3, 2, 7, /* good */
                                   7, 1, 3, 0 /* good, negative */};
    const int32_t label0[5] = {10, 11, 12, 13, 14};
    uint32_t tets[5 * 4];
    int32_t label[5];
    memcpy(tets, tets0, sizeof tets);
    memcpy(label, label0, sizeof label);
    size_t flipped = 5, skipped = 5, bad = 5;
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, label, 0, &flipped, &skipped, &bad),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 1);
    ENSURE(memcmp(tets, tets0, sizeof tets) == 0 && memcmp(label, label0, sizeof label) == 0);
    ENSURE_INT(flipped, 0);
    ENSURE_INT(skipped, 0);
    tets[6] = 3; /* tet 1 now 0 1 3 7: only the flat one is left */
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, label, 0, &flipped, &skipped, &bad),
                  XPBD_ERR_DEGENERATE);
    ENSURE_INT(bad, 2);
    tets[6] = 1;
    REQUIRE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, label, XPBD_MESH_SKIP_DEGENERATE,
                                            &flipped, &skipped, &bad),
                   XPBD_OK);
    ENSURE_INT(skipped, 2);
    ENSURE_INT(flipped, 1);
    const uint32_t want[3 * 4] = {0, 1, 3, 7, 0, 3, 2, 7, 7, 1, 0, 3};
    ENSURE(memcmp(tets, want, sizeof want) == 0);
    ENSURE(label[0] == 10 && label[1] == 13 && label[2] == 14);
    /* out of range: refused, skipping or not */
    memcpy(tets, tets0, sizeof tets);
    tets[4 * 3 + 2] = 9;
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, NULL, XPBD_MESH_SKIP_DEGENERATE,
                                           &flipped, &skipped, &bad),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 3);
    ENSURE_INT(tets[4], 0); /* nothing moved */
    /* a position not finite names the particle */
    memcpy(tets, tets0, sizeof tets);
    xyz[3 * 5 + 1] = NAN;
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, NULL, XPBD_MESH_SKIP_DEGENERATE,
                                           &flipped, &skipped, &bad),
                  XPBD_ERR_POSITION);
    ENSURE_INT(bad, 5);
    xyz[3 * 5 + 1] = 0;
    /* never silent: the counts are required */
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, NULL, 0, NULL, &skipped, &bad),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, NULL, 0, &flipped, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(9, xyz, tets, 5, NULL, 4, &flipped, &skipped, &bad),
                  XPBD_ERR_ARGUMENT);

    /* triangles: zero area (collinear 0, 1 and a point between), repeated */
    double txyz[3 * 5] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0, 0, 1, 1, 0};
    const uint32_t tris0[4 * 3] = {0, 1, 2, 0, 3, 1, 2, 2, 4, 1, 4, 2};
    uint32_t tris[4 * 3];
    memcpy(tris, tris0, sizeof tris);
    ENSURE_STATUS(xpbd_mesh_clean_triangles_f64(5, txyz, tris, 4, NULL, 0, &skipped, &bad),
                  XPBD_ERR_DEGENERATE);
    ENSURE_INT(bad, 1);
    ENSURE(memcmp(tris, tris0, sizeof tris) == 0);
    tris[3] = 4; /* (4, 3, 1): fine; now triangle 2 repeats a vertex */
    ENSURE_STATUS(xpbd_mesh_clean_triangles_f64(5, txyz, tris, 4, NULL, 0, &skipped, &bad),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 2);
    memcpy(tris, tris0, sizeof tris);
    int32_t tl[4] = {1, 2, 3, 4};
    REQUIRE_STATUS(xpbd_mesh_clean_triangles_f64(5, txyz, tris, 4, tl, XPBD_MESH_SKIP_DEGENERATE,
                                                 &skipped, &bad),
                   XPBD_OK);
    ENSURE_INT(skipped, 2);
    const uint32_t twant[2 * 3] = {0, 1, 2, 1, 4, 2};
    ENSURE(memcmp(tris, twant, sizeof twant) == 0);
    ENSURE(tl[0] == 1 && tl[1] == 4);
    float t32[3 * 5];
    for (int i = 0; i < 15; ++i)
        t32[i] = (float)txyz[i];
    memcpy(tris, tris0, sizeof tris);
    ENSURE_STATUS(xpbd_mesh_clean_triangles_f32(5, t32, tris, 4, NULL, 0, &skipped, &bad),
                  XPBD_ERR_DEGENERATE);
    ENSURE_INT(bad, 1);
    /* the edge and bend functions refuse a repeated vertex as the
     * builders do */
    size_t count;
    ENSURE_STATUS(xpbd_mesh_edges(5, tris0, 4, 3, NULL, 0, &count, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad, 2);
    ENSURE_STATUS(xpbd_mesh_bends(5, tris0, 4, 0, NULL, 0, &count, NULL, &bad, NULL),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 2);
    /* a stencil with a zero-area triangle has no angle */
    const uint32_t st[4] = {0, 1, 3, 2};
    double a = 42;
    ENSURE_STATUS(xpbd_mesh_dihedral_angles_f64(5, txyz, st, 1, &a, &bad), XPBD_ERR_DEGENERATE);
    ENSURE_INT(bad, 0);
    ENSURE(a == 42);
}

/* ------------------------------------------------------------ masses --- */

static double mt_sum(const double *m, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; ++i)
        s += m[i];
    return s;
}

/* Unit cube boxes of density rho weigh rho; the single cube's per-particle
 * masses by hand (6 tets: corners 0 and 7 are in all six, rho/4 each, the
 * others in two, rho/12; 5 tets: an odd corner is in its corner tet only,
 * rho/24, an even one in three corner tets and the central one (volume
 * 1/3), 3 rho/24 + rho/12 = 5 rho/24). */
static void mesh_topology_masses_box(void)
{
    const double rho = 1250;
    for (uint32_t tpc = 5; tpc <= 6; ++tpc) {
        mt_mesh m;
        REQUIRE(mt_box(&m, 1, 1, 1, 1, tpc));
        double mass[8] = {0};
        size_t bad = 0;
        REQUIRE_STATUS(xpbd_mesh_masses_f64(8, m.xyz, m.tets, m.k.tets, 4, rho, mass, &bad),
                       XPBD_OK);
        ENSURE_INT(bad, SIZE_MAX);
        for (int v = 0; v < 8; ++v) {
            const int bits = (v & 1) + (v >> 1 & 1) + (v >> 2 & 1);
            const double want = tpc == 6 ? (v == 0 || v == 7 ? rho / 4 : rho / 12)
                                         : (bits % 2 ? rho / 24 : 5 * rho / 24);
            ENSURE_NEAR(mass[v], want, 1e-13 * rho);
        }
        ENSURE_NEAR(mt_sum(mass, 8), rho, 1e-12 * rho);
        /* inverse masses: 1/m; a ninth particle in no element is static */
        double m9[9], w[9];
        memcpy(m9, mass, sizeof mass);
        m9[8] = 0;
        size_t massless = 0;
        REQUIRE_STATUS(xpbd_mesh_inverse_masses_f64(9, m9, w, &massless, &bad), XPBD_OK);
        ENSURE_INT(massless, 1);
        ENSURE(w[8] == 0);
        for (int v = 0; v < 8; ++v)
            ENSURE_BITS_F64(w[v], 1.0 / mass[v]);
        float w32[9];
        REQUIRE_STATUS(xpbd_mesh_inverse_masses_f32(9, m9, w32, &massless, &bad), XPBD_OK);
        ENSURE_BITS_F32(w32[3], (float)(1.0 / mass[3]));
        m9[4] = -1;
        ENSURE_STATUS(xpbd_mesh_inverse_masses_f64(9, m9, w, &massless, &bad),
                      XPBD_ERR_INVERSE_MASS);
        ENSURE_INT(bad, 4);
        m9[4] = 1e-300; /* 1/m overflows float */
        w32[4] = 7;
        ENSURE_STATUS(xpbd_mesh_inverse_masses_f32(9, m9, w32, &massless, &bad),
                      XPBD_ERR_INVERSE_MASS);
        ENSURE_INT(bad, 4);
        ENSURE(w32[4] == 7);
        mt_free(&m);
    }
    /* subdivided unit cubes */
    static const uint32_t sub[3][3] = {{2, 2, 2}, {3, 4, 5}, {7, 1, 3}};
    for (uint32_t tpc = 5; tpc <= 6; ++tpc)
        for (int s = 0; s < 3; ++s) {
            const xpbd_box_desc d = {sub[s][0], sub[s][0], sub[s][0], 1.0 / sub[s][0],
                                     {0.1, 0.2, 0.3}, tpc};
            mt_mesh m;
            memset(&m, 0, sizeof m);
            xpbd_mesh_out o;
            REQUIRE_STATUS(xpbd_mesh_box(&d, &m.k, NULL), XPBD_OK);
            REQUIRE(mt_alloc(&m, &o));
            REQUIRE_STATUS(xpbd_mesh_box(&d, NULL, &o), XPBD_OK);
            double *mass = calloc(m.k.particles, sizeof *mass);
            REQUIRE(mass);
            REQUIRE_STATUS(
                xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tets, m.k.tets, 4, rho, mass, NULL),
                XPBD_OK);
            ENSURE_NEAR(mt_sum(mass, m.k.particles), rho, 1e-12 * rho);
            /* float positions: the same to float precision */
            float *x32 = malloc(3 * m.k.particles * sizeof *x32);
            REQUIRE(x32);
            for (size_t i = 0; i < 3 * m.k.particles; ++i)
                x32[i] = (float)m.xyz[i];
            memset(mass, 0, m.k.particles * sizeof *mass);
            REQUIRE_STATUS(
                xpbd_mesh_masses_f32(m.k.particles, x32, m.tets, m.k.tets, 4, rho, mass, NULL),
                XPBD_OK);
            ENSURE_NEAR(mt_sum(mass, m.k.particles), rho, 1e-5 * rho);
            free(x32);
            free(mass);
            mt_free(&m);
        }
    /* a box's surface triangles with a surface density: sigma * area */
    mt_mesh m;
    REQUIRE(mt_box(&m, 3, 2, 4, 0.5, 6));
    double *mass = calloc(m.k.particles, sizeof *mass);
    REQUIRE(mass);
    REQUIRE_STATUS(
        xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tris, m.k.triangles, 3, 0.2, mass, NULL),
        XPBD_OK);
    ENSURE_NEAR(mt_sum(mass, m.k.particles), 0.2 * 2 * (1.5 * 1 + 1.5 * 2 + 1 * 2), 1e-13);
    free(mass);
    mt_free(&m);
}

/* A cloth of area A with a surface density sigma weighs sigma A. */
static void mesh_topology_masses_cloth(void)
{
    for (int vertical = 0; vertical < 2; ++vertical) {
        mt_mesh m;
        REQUIRE(mt_cloth(&m, 9, 5, 0.125, vertical));
        const double area = (8 * 0.125) * (4 * 0.125), sigma = 0.3;
        double *mass = calloc(m.k.particles, sizeof *mass);
        REQUIRE(mass);
        REQUIRE_STATUS(xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tris, m.k.triangles, 3, sigma,
                                            mass, NULL),
                       XPBD_OK);
        ENSURE_NEAR(mt_sum(mass, m.k.particles), sigma * area, 1e-15);
        /* an interior particle touches six triangles: sigma * (6 * h^2/2) / 3 */
        ENSURE_NEAR(mass[9 + 1], sigma * 0.125 * 0.125, 1e-17);
        ENSURE_STATUS(xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tris, m.k.triangles, 3, -1,
                                           mass, NULL),
                      XPBD_ERR_CONFIG);
        ENSURE_STATUS(xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tris, m.k.triangles, 5, 1,
                                           mass, NULL),
                      XPBD_ERR_ARGUMENT);
        free(mass);
        mt_free(&m);
    }
}

/* ------------------------------------------------------------- pins --- */

static void mesh_topology_pins(void)
{
    /* a vertical cloth, rows at y = 0, 0.25, ..., 1: y > 0.9 is the top row */
    mt_mesh m;
    REQUIRE(mt_cloth(&m, 4, 5, 0.25, 1));
    double w[20];
    for (int i = 0; i < 20; ++i)
        w[i] = 2;
    w[17] = 0; /* already static: not counted */
    size_t pinned = 0, bad = 0;
    const xpbd_mesh_select top = {1, XPBD_MESH_GREATER, 0, 0.9};
    REQUIRE_STATUS(xpbd_mesh_pin_where_f64(20, m.xyz, &top, w, &pinned, &bad), XPBD_OK);
    ENSURE_INT(pinned, 3);
    ENSURE_INT(bad, SIZE_MAX);
    for (int i = 0; i < 20; ++i)
        ENSURE(w[i] == (i >= 16 ? 0 : 2));
    /* relative: the lowest row, and x <= 25% of the width (the first column) */
    const xpbd_mesh_select bottom = {1, XPBD_MESH_LESS_EQUAL, 1, 0};
    const xpbd_mesh_select left = {0, XPBD_MESH_LESS, 1, 0.25};
    REQUIRE_STATUS(xpbd_mesh_pin_where_f64(20, m.xyz, &bottom, w, &pinned, NULL), XPBD_OK);
    ENSURE_INT(pinned, 4);
    REQUIRE_STATUS(xpbd_mesh_pin_where_f64(20, m.xyz, &left, w, &pinned, NULL), XPBD_OK);
    ENSURE_INT(pinned, 3); /* rows 1..3 of column 0 */
    /* nothing selected: skipped; a bad selection: refused, w unchanged */
    const xpbd_mesh_select none = {2, XPBD_MESH_GREATER, 0, 0.5};
    ENSURE_STATUS(xpbd_mesh_pin_where_f64(20, m.xyz, &none, w, &pinned, NULL), XPBD_SKIPPED);
    ENSURE_INT(pinned, 0);
    const xpbd_mesh_select bad_sel[4] = {{3, XPBD_MESH_LESS, 0, 0},
                                         {0, 0, 0, 0},
                                         {0, XPBD_MESH_LESS, 2, 0},
                                         {0, XPBD_MESH_LESS, 0, NAN}};
    for (int k = 0; k < 4; ++k)
        ENSURE_STATUS(xpbd_mesh_pin_where_f64(20, m.xyz, &bad_sel[k], w, &pinned, NULL),
                      XPBD_ERR_CONFIG);
    /* float */
    float x32[60], w32[20];
    for (int i = 0; i < 60; ++i)
        x32[i] = (float)m.xyz[i];
    for (int i = 0; i < 20; ++i)
        w32[i] = 1;
    REQUIRE_STATUS(xpbd_mesh_pin_where_f32(20, x32, &top, w32, &pinned, NULL), XPBD_OK);
    ENSURE_INT(pinned, 4);
    mt_free(&m);

    /* by label: a box whose tets in the top layer carry label 7 */
    REQUIRE(mt_box(&m, 2, 2, 2, 0.5, 6));
    int32_t *label = malloc(m.k.tets * sizeof *label);
    double *wb = malloc(m.k.particles * sizeof *wb);
    REQUIRE(label && wb);
    for (size_t t = 0; t < m.k.tets; ++t) {
        /* a tet of cube layer j = 1 has every vertex at y >= origin + 0.5 */
        double ymin = HUGE_VAL;
        for (int a = 0; a < 4; ++a)
            ymin = fmin(ymin, m.xyz[3 * (size_t)m.tets[4 * t + (size_t)a] + 1]);
        label[t] = ymin > -1 + 0.25 ? 7 : 3;
    }
    for (size_t i = 0; i < m.k.particles; ++i)
        wb[i] = 1;
    REQUIRE_STATUS(xpbd_mesh_pin_label_f64(m.k.particles, m.tets, m.k.tets, 4, label, 7, wb,
                                           &pinned, &bad),
                   XPBD_OK);
    ENSURE_INT(pinned, 2 * 9); /* the particle layers j = 1 and 2 */
    size_t statics = 0;
    for (size_t i = 0; i < m.k.particles; ++i)
        statics += wb[i] == 0 && m.xyz[3 * i + 1] > -0.75;
    ENSURE_INT(statics, 18);
    ENSURE_STATUS(xpbd_mesh_pin_label_f64(m.k.particles, m.tets, m.k.tets, 4, label, 99, wb,
                                          &pinned, &bad),
                  XPBD_SKIPPED);
    ENSURE_INT(pinned, 0);
    m.tets[4 * 5 + 3] = (uint32_t)m.k.particles;
    ENSURE_STATUS(xpbd_mesh_pin_label_f64(m.k.particles, m.tets, m.k.tets, 4, label, 3, wb,
                                          &pinned, &bad),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 5);
    ENSURE_STATUS(xpbd_mesh_pin_label_f64(m.k.particles, m.tets, m.k.tets, 4, NULL, 3, wb,
                                          &pinned, &bad),
                  XPBD_ERR_ARGUMENT);
    free(label);
    free(wb);
    mt_free(&m);
}

/* ------------------------------------------------------------ scene --- */

/* A xpbd_mesh_data over a generated mesh's arrays (not to be freed with
 * xpbd_mesh_data_free: the mesh owns them). */
static xpbd_mesh_data mt_data(const mt_mesh *m, int with_tets, int with_tris)
{
    xpbd_mesh_data d;
    memset(&d, 0, sizeof d);
    d.particles = m->k.particles;
    d.xyz = m->xyz;
    if (with_tets) {
        d.tets = m->k.tets;
        d.tet = m->tets;
    }
    if (with_tris) {
        d.triangles = m->k.triangles;
        d.triangle = m->tris;
    }
    return d;
}

static int mt_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* A box mesh (tets and its surface) to an engine: a jelly of 1000 kg/m^3
 * pinned along its top, 60 frames under gravity: finite,
 * the top in place, the rest sagged. Both precisions. */
static void mesh_topology_scene_box(void)
{
    mt_mesh m;
    REQUIRE(mt_box(&m, 3, 2, 2, 0.25, 6));
    const xpbd_mesh_data d = mt_data(&m, 1, 1);
    const xpbd_mesh_select top = {1, XPBD_MESH_GREATER_EQUAL, 1, 1};
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.density = 1000;
    o.edge_alpha = 1e-5;
    o.tet_alpha = 1e-7;
    o.pin_wheres = 1;
    o.pin_where = &top;
    xpbd_mesh_scene_f64 s;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_OK);
    ENSURE_INT(s.scene.particles, m.k.particles);
    ENSURE_INT(s.scene.edges, m.k.edges);
    ENSURE_INT(s.scene.tets, m.k.tets);
    ENSURE_INT(s.scene.bends, 0);
    ENSURE_INT(s.flipped, 0);
    ENSURE_INT(s.massless, 0);
    ENSURE_INT(s.pinned, 4 * 3); /* the top layer: 4 x 3 particles */
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_NONE);
    ENSURE_INT(s.bad_index, SIZE_MAX);
    double total = 0;
    for (size_t i = 0; i < m.k.particles; ++i)
        total += s.inv_mass[i] > 0 ? 1 / s.inv_mass[i] : 0;
    /* the unpinned particles weigh the box but the top layer's share */
    ENSURE(total > 0 && total < 1000 * 0.75 * 0.5 * 0.5);
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &s.scene, NULL, NULL, NULL), XPBD_OK);
    const size_t n = m.k.particles;
    double *w0 = malloc(n * sizeof *w0);
    REQUIRE(w0);
    memcpy(w0, s.inv_mass, n * sizeof *w0);
    xpbd_mesh_scene_free_f64(&s); /* the engine has its own copy */
    ENSURE(s.xyz == NULL && s.scene.particles == 0);
    xpbd_status st = XPBD_OK;
    for (int f = 0; f < 60 && st >= 0; ++f)
        st = xpbd_engine_step_f64(e, 1.0 / 60);
    ENSURE(st >= 0);
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(e);
    ENSURE(mt_finite(p->x, n) && mt_finite(p->y, n) && mt_finite(p->z, n));
    double moved_pinned = 0, lowest = HUGE_VAL;
    for (size_t i = 0; i < n; ++i) {
        if (w0[i] == 0)
            moved_pinned = fmax(moved_pinned, fabs(p->y[i] - m.xyz[3 * i + 1]));
        lowest = fmin(lowest, p->y[i]);
    }
    ENSURE(moved_pinned == 0);
    if (!(lowest < -1 - 1e-4))
        fprintf(stderr, "      lowest %.17g\n", lowest);
    ENSURE(lowest < -1 - 1e-4); /* sagged below the rest bottom y = -1 */
    ENSURE(lowest > -1 - 0.25); /* ... but it hangs */
    xpbd_engine_destroy_f64(e);
    free(w0);

    /* float, the same mesh as one body */
    o.one_body = 1;
    xpbd_mesh_scene_f32 s32;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f32(&s32, &d, &o), XPBD_OK);
    ENSURE_INT(s32.scene.bodies, 1);
    ENSURE_INT(s32.scene.body_begin[1], n);
    xpbd_engine_f32 *e32 = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f32(&e32, &s32.scene, NULL, NULL, NULL), XPBD_OK);
    for (int f = 0; f < 60 && st >= 0; ++f)
        st = xpbd_engine_step_f32(e32, 1.0 / 60);
    ENSURE(st >= 0);
    const xpbd_particles_f32 *q = xpbd_engine_particles_f32(e32);
    size_t finite = 0;
    for (size_t i = 0; i < n; ++i)
        finite += isfinite(q->x[i]) && isfinite(q->y[i]) && isfinite(q->z[i]);
    ENSURE_INT(finite, n);
    xpbd_engine_destroy_f32(e32);
    xpbd_mesh_scene_free_f32(&s32);
    mt_free(&m);
}

/* A cloth mesh (triangles only) to a scene: edges = stretch + one diagonal
 * per quad, the generator's bends, flat rest angles, mass sigma * A, two
 * corners pinned by label; a hanging cloth steps. */
static void mesh_topology_scene_cloth(void)
{
    mt_mesh m;
    REQUIRE(mt_cloth(&m, 6, 5, 0.2, 0));
    xpbd_mesh_data d = mt_data(&m, 0, 1);
    int32_t *label = malloc(m.k.triangles * sizeof *label);
    REQUIRE(label);
    for (size_t t = 0; t < m.k.triangles; ++t)
        label[t] = 1;
    /* the top row's first and last quads: their triangles (a, d, c) hold
     * the top corners */
    const size_t last_row = 2 * 5 * 3;
    label[last_row + 1] = 2;
    label[last_row + 2 * 4 + 1] = 2;
    d.triangle_label = label;
    const int32_t pin = 2;
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.surface_density = 0.25;
    o.edge_alpha = 1e-8;
    o.bend_alpha = 1e-2;
    o.pin_labels = 1;
    o.pin_label = &pin;
    xpbd_mesh_scene_f64 s;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_OK);
    ENSURE_INT(s.scene.edges, m.k.edges + 5 * 4);
    ENSURE_INT(s.scene.bends, m.k.bends);
    ENSURE_INT(s.scene.tets, 0);
    ENSURE(s.max_rest_angle == 0);
    /* the pinned triangles' corners: (4,3), (5,4), (4,4) and (0,3), (1,4),
     * (0,4): six particles */
    ENSURE_INT(s.pinned, 6);
    double total = 0;
    size_t statics = 0;
    double *mass = calloc(m.k.particles, sizeof *mass);
    REQUIRE(mass);
    REQUIRE_STATUS(xpbd_mesh_masses_f64(m.k.particles, m.xyz, m.tris, m.k.triangles, 3, 0.25,
                                        mass, NULL),
                   XPBD_OK);
    for (size_t i = 0; i < m.k.particles; ++i) {
        statics += s.inv_mass[i] == 0;
        total += mass[i];
        if (s.inv_mass[i] != 0)
            ENSURE_BITS_F64(s.inv_mass[i], 1 / mass[i]);
    }
    ENSURE_INT(statics, 6);
    ENSURE_NEAR(total, 0.25 * (5 * 0.2) * (4 * 0.2), 1e-15);
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &s.scene, NULL, NULL, NULL), XPBD_OK);
    xpbd_status st = XPBD_OK;
    for (int f = 0; f < 60 && st >= 0; ++f)
        st = xpbd_engine_step_f64(e, 1.0 / 60);
    ENSURE(st >= 0);
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(e);
    ENSURE(mt_finite(p->x, m.k.particles) && mt_finite(p->y, m.k.particles));
    ENSURE(p->y[0] < -0.05); /* a free corner fell */
    ENSURE(p->y[29] == m.xyz[3 * 29 + 1]); /* a pinned one did not */
    xpbd_engine_destroy_f64(e);
    xpbd_mesh_scene_free_f64(&s);
    /* a label no element has */
    const int32_t missing[2] = {2, 5};
    o.pin_labels = 2;
    o.pin_label = missing;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_CONFIG);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_PIN_LABEL);
    ENSURE_INT(s.bad_index, 1);
    ENSURE(s.xyz == NULL && s.inv_mass == NULL && s.edge == NULL && s.bend == NULL);
    xpbd_mesh_scene_free_f64(&s);
    free(mass);
    free(label);
    mt_free(&m);
}

/* A folded mesh keeps its rest angles; the scene reports the largest. */
static void mesh_topology_scene_folded(void)
{
    double xyz[12];
    mt_hinge(MT_PI / 3, xyz);
    uint32_t tri[6] = {0, 1, 2, 1, 0, 3};
    xpbd_mesh_data d;
    memset(&d, 0, sizeof d);
    d.particles = 4;
    d.xyz = xyz;
    d.triangles = 2;
    d.triangle = tri;
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.surface_density = 1;
    xpbd_mesh_scene_f64 s;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_OK);
    ENSURE_INT(s.scene.bends, 1);
    ENSURE_INT(s.scene.edges, 5);
    ENSURE_NEAR(s.rest_angle[0], MT_PI / 3, 1e-12);
    ENSURE_NEAR(s.max_rest_angle, MT_PI / 3, 1e-12);
    xpbd_mesh_scene_free_f64(&s);
}

/* The scene's refusals: the place named, nothing left allocated; skipping
 * degenerate elements when asked, counted. */
static void mesh_topology_scene_errors(void)
{
    mt_mesh m;
    REQUIRE(mt_box(&m, 2, 1, 1, 0.5, 6));
    xpbd_mesh_data d = mt_data(&m, 1, 1);
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.density = 10;
    xpbd_mesh_scene_f64 s;
    /* a degenerate tet: its corner 3 moved onto corner 0 (repeated) */
    const uint32_t keep = m.tets[4 * 7 + 3];
    m.tets[4 * 7 + 3] = m.tets[4 * 7];
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_INDEX);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TET);
    ENSURE_INT(s.bad_index, 7);
    ENSURE(s.xyz == NULL && s.tet == NULL && s.inv_mass == NULL);
    o.flags = XPBD_MESH_SKIP_DEGENERATE;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_OK);
    ENSURE_INT(s.skipped_tets, 1);
    ENSURE_INT(s.scene.tets, m.k.tets - 1);
    ENSURE_INT(s.massless, 0);
    xpbd_engine_f64 *e = NULL;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s.scene, NULL, NULL, NULL), XPBD_OK);
    xpbd_engine_destroy_f64(e);
    xpbd_mesh_scene_free_f64(&s);
    m.tets[4 * 7 + 3] = keep;
    /* a flat tet: refused (DEGENERATE) or skipped */
    double *x = m.xyz;
    const uint32_t *t9 = m.tets + 4 * 9;
    double saved[3];
    memcpy(saved, x + 3 * (size_t)t9[3], sizeof saved);
    for (int c = 0; c < 3; ++c) /* corner 3 onto the middle of corners 0 and 1 */
        x[3 * (size_t)t9[3] + (size_t)c] =
            0.5 * (x[3 * (size_t)t9[0] + (size_t)c] + x[3 * (size_t)t9[1] + (size_t)c]);
    o.flags = 0;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_DEGENERATE);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TET);
    ENSURE(s.bad_index < m.k.tets); /* the first tet the move flattened */
    memcpy(x + 3 * (size_t)t9[3], saved, sizeof saved);
    /* out of range: refused even when skipping */
    o.flags = XPBD_MESH_SKIP_DEGENERATE;
    const uint32_t keep3 = m.tets[4 * 3 + 1];
    m.tets[4 * 3 + 1] = (uint32_t)m.k.particles;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_INDEX);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TET);
    ENSURE_INT(s.bad_index, 3);
    m.tets[4 * 3 + 1] = keep3;
    m.tris[3 * 5 + 2] = 100;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_INDEX);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TRIANGLE);
    ENSURE_INT(s.bad_index, 5);
    mt_free(&m);
    REQUIRE(mt_box(&m, 2, 1, 1, 0.5, 6));
    d = mt_data(&m, 1, 1);
    /* a position */
    m.xyz[3 * 4 + 2] = INFINITY;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_POSITION);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_PARTICLE);
    ENSURE_INT(s.bad_index, 4);
    m.xyz[3 * 4 + 2] = 1e39; /* finite in double (its tets then flat), not in float */
    o.flags = 0;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_DEGENERATE);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TET);
    o.flags = XPBD_MESH_SKIP_DEGENERATE;
    xpbd_mesh_scene_f32 s32;
    ENSURE_STATUS(xpbd_mesh_scene_build_f32(&s32, &d, &o), XPBD_ERR_POSITION);
    ENSURE_INT(s32.bad_part, XPBD_MESH_PART_PARTICLE);
    ENSURE_INT(s32.bad_index, 4);
    mt_free(&m);
    REQUIRE(mt_box(&m, 2, 1, 1, 0.5, 6));
    d = mt_data(&m, 1, 1);
    /* options */
    xpbd_mesh_scene_options bad = o;
    bad.density = 0;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_CONFIG);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_OPTIONS);
    bad = o;
    bad.build = 16;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_CONFIG);
    bad = o;
    bad.tet_alpha = -1;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_COMPLIANCE);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_OPTIONS);
    const xpbd_mesh_select sel[2] = {{1, XPBD_MESH_GREATER, 0, 0}, {1, 9, 0, 0}};
    bad = o;
    bad.pin_wheres = 2;
    bad.pin_where = sel;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_CONFIG);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_PIN_WHERE);
    ENSURE_INT(s.bad_index, 1);
    bad.pin_where = NULL;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, NULL, &o), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(NULL, &d, &o), XPBD_ERR_ARGUMENT);
    d.tet = NULL;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &o), XPBD_ERR_ARGUMENT);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_NONE);
    xpbd_mesh_scene_free_f64(&s);
    xpbd_mesh_scene_free_f64(NULL);
    /* the surface's edges and bends on request: a closed surface, every
     * edge a hinge; non-manifold when a triangle is given twice */
    d = mt_data(&m, 1, 1);
    bad = o;
    bad.build = XPBD_MESH_EDGES_FROM_TRIANGLES | XPBD_MESH_BENDING;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_OK);
    ENSURE_INT(s.scene.bends, 3 * m.k.triangles / 2);
    ENSURE_INT(s.scene.edges, 3 * m.k.triangles / 2);
    ENSURE_INT(s.scene.tets, 0);
    ENSURE_NEAR(s.max_rest_angle, MT_PI / 2, 1e-12);
    ENSURE_INT(s.massless, 0); /* masses from the tets still */
    xpbd_mesh_scene_free_f64(&s);
    uint32_t *tris = malloc((3 * m.k.triangles + 3) * sizeof *tris);
    REQUIRE(tris);
    memcpy(tris, m.tris, 3 * m.k.triangles * sizeof *tris);
    memcpy(tris + 3 * m.k.triangles, m.tris + 3 * 4, 3 * sizeof *tris);
    d.triangle = tris;
    d.triangles = m.k.triangles + 1;
    ENSURE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_ERR_TOPOLOGY);
    ENSURE_INT(s.bad_part, XPBD_MESH_PART_TRIANGLE);
    ENSURE_INT(s.bad_index, m.k.triangles);
    const uint32_t *t4 = m.tris + 3 * 4;
    ENSURE(s.bad_edge[0] < s.bad_edge[1]);
    ENSURE((s.bad_edge[0] == t4[0] || s.bad_edge[0] == t4[1] || s.bad_edge[0] == t4[2]) &&
           (s.bad_edge[1] == t4[0] || s.bad_edge[1] == t4[1] || s.bad_edge[1] == t4[2]));
    bad.flags |= XPBD_MESH_SKIP_NONMANIFOLD;
    REQUIRE_STATUS(xpbd_mesh_scene_build_f64(&s, &d, &bad), XPBD_OK);
    ENSURE_INT(s.skipped_hinges, 3);
    ENSURE_INT(s.scene.bends, 3 * m.k.triangles / 2 - 3);
    xpbd_mesh_scene_free_f64(&s);
    free(tris);
    mt_free(&m);
}

/* ------------------------------------------------------- bad inputs --- */

static void mesh_topology_bad_input(void)
{
    const uint32_t tri[3] = {0, 1, 2}, tet[4] = {0, 1, 2, 3};
    const double xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    size_t count = 5, bad = 5;
    uint32_t out[32];
    ENSURE_STATUS(xpbd_mesh_edges(4, tri, 1, 3, out, 8, NULL, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_edges(4, NULL, 1, 3, out, 8, &count, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_edges(4, tri, 1, 2, out, 8, &count, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_edges((size_t)INT32_MAX + 1, tri, 1, 3, out, 8, &count, &bad),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_edges(3, tet, 1, 4, out, 8, &count, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad, 0);
    ENSURE_INT(count, 0);
    ENSURE_STATUS(xpbd_mesh_edges(0, NULL, 0, 4, NULL, 0, &count, &bad), XPBD_OK);
    ENSURE_INT(count, 0);
    ENSURE_STATUS(xpbd_mesh_bends(4, tri, 1, 0, out, 8, NULL, NULL, &bad, NULL),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_bends(4, tri, 1, XPBD_MESH_SKIP_DEGENERATE, out, 8, &count, NULL,
                                  &bad, NULL),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_bends(2, tri, 1, 0, out, 8, &count, NULL, &bad, NULL),
                  XPBD_ERR_INDEX);
    ENSURE_INT(bad, 0);
    double a[2];
    ENSURE_STATUS(xpbd_mesh_dihedral_angles_f64(4, NULL, tet, 1, a, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_dihedral_angles_f64(3, xyz, tet, 1, a, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad, 0);
    size_t f, s;
    uint32_t t4[4] = {0, 1, 2, 4};
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(4, xyz, t4, 1, NULL, 0, &f, &s, &bad), XPBD_ERR_INDEX);
    ENSURE_INT(bad, 0);
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(4, NULL, t4, 1, NULL, 0, &f, &s, &bad),
                  XPBD_ERR_ARGUMENT);
    uint32_t t3[3] = {0, 1, 7};
    ENSURE_STATUS(xpbd_mesh_clean_triangles_f64(4, xyz, t3, 1, NULL, 0, &s, &bad),
                  XPBD_ERR_INDEX);
    ENSURE_STATUS(xpbd_mesh_clean_triangles_f64(4, xyz, t3, 1, NULL, 0, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    double mass[4] = {0};
    ENSURE_STATUS(xpbd_mesh_masses_f64(4, xyz, t4, 1, 4, 1, mass, &bad), XPBD_ERR_INDEX);
    ENSURE(mass[0] == 0 && mass[1] == 0);
    ENSURE_STATUS(xpbd_mesh_masses_f64(4, xyz, tet, 1, 4, NAN, mass, &bad), XPBD_ERR_CONFIG);
    ENSURE_STATUS(xpbd_mesh_masses_f64(4, xyz, tet, 1, 4, 1, NULL, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_inverse_masses_f64(4, NULL, a, NULL, &bad), XPBD_ERR_ARGUMENT);
    double w[4] = {1, 1, 1, 1};
    ENSURE_STATUS(xpbd_mesh_pin_where_f64(4, xyz, NULL, w, NULL, &bad), XPBD_ERR_ARGUMENT);
    const xpbd_mesh_select sel = {0, XPBD_MESH_GREATER, 0, 0.5};
    ENSURE_STATUS(xpbd_mesh_pin_where_f64(4, NULL, &sel, w, NULL, &bad), XPBD_ERR_ARGUMENT);
    const double nan_xyz[12] = {0, 0, 0, 1, 0, 0, 0, NAN, 0, 0, 0, 1};
    ENSURE_STATUS(xpbd_mesh_pin_where_f64(4, nan_xyz, &sel, w, NULL, &bad), XPBD_ERR_POSITION);
    ENSURE_INT(bad, 2);
    ENSURE(w[1] == 1);
    const int32_t lab[1] = {3};
    ENSURE_STATUS(xpbd_mesh_pin_label_f64(4, tet, 1, 5, lab, 3, w, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_mesh_pin_label_f64(4, tet, 1, 4, lab, 3, NULL, NULL, &bad),
                  XPBD_ERR_ARGUMENT);
}

const xt_test xt_tests_mesh_topology[] = {
    {"mesh_topology.edges_box", mesh_topology_edges_box},
    {"mesh_topology.edges_cloth", mesh_topology_edges_cloth},
    {"mesh_topology.bends_cloth", mesh_topology_bends_cloth},
    {"mesh_topology.nonmanifold", mesh_topology_nonmanifold},
    {"mesh_topology.rest_angles", mesh_topology_rest_angles},
    {"mesh_topology.orient", mesh_topology_orient},
    {"mesh_topology.degenerate", mesh_topology_degenerate},
    {"mesh_topology.masses_box", mesh_topology_masses_box},
    {"mesh_topology.masses_cloth", mesh_topology_masses_cloth},
    {"mesh_topology.pins", mesh_topology_pins},
    {"mesh_topology.scene_box", mesh_topology_scene_box},
    {"mesh_topology.scene_cloth", mesh_topology_scene_cloth},
    {"mesh_topology.scene_folded", mesh_topology_scene_folded},
    {"mesh_topology.scene_errors", mesh_topology_scene_errors},
    {"mesh_topology.bad_input", mesh_topology_bad_input},
    {NULL, NULL},
};
