/* SPDX-License-Identifier: MIT */
/* Mesh topology (xpbd/mesh.h): unique edges, bending stencils and their
 * rest angles, tet orientation and degenerate elements, masses, pins, and
 * the engine scene of a loaded mesh. The index work is precision-free and
 * comes first; what reads positions or writes reals is written once below
 * for float and double (precision.h: a self-instantiating file). Geometry
 * is computed in double from the positions of the precision, so a float
 * mesh is judged on the positions a float engine will have. */
#ifndef XPBD_SELF
#define XPBD_SELF "mesh_topology.c"
#include "internal.h"
#include "xpbd/mesh.h"

#include <stdlib.h>
#include <string.h>

/* Largest particle and element counts: indices stay below INT32_MAX like
 * every builder's, and 6 corner pairs per element fit in size_t. */
#define TOPO_MAX_PARTICLES ((size_t)INT32_MAX)
#define TOPO_MAX_ELEMENTS ((size_t)INT32_MAX / 8)

/* 0: element v's corners are in range and distinct; 1: one is out of range
 * (checked over all corners first); 2: one is repeated. */
static int topo_fault(size_t particles, const uint32_t *v, uint32_t corners)
{
    int repeated = 0;
    for (uint32_t a = 0; a < corners; ++a) {
        if (v[a] >= particles)
            return 1;
        for (uint32_t b = a + 1; b < corners; ++b)
            repeated |= v[a] == v[b];
    }
    return repeated ? 2 : 0;
}

/* XPBD_OK or XPBD_ERR_INDEX (*bad = the first element with a corner out of
 * range or, with `repeated`, repeated). */
static xpbd_status topo_indices(size_t particles, const uint32_t *elem, size_t elements,
                                uint32_t corners, int repeated, size_t *bad)
{
    for (size_t t = 0; t < elements; ++t) {
        const int f = topo_fault(particles, elem + (size_t)corners * t, corners);
        if (f == 1 || (f == 2 && repeated)) {
            *bad = t;
            return XPBD_ERR_INDEX;
        }
    }
    return XPBD_OK;
}

static uint64_t topo_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static int topo_cmp_u64(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The corner pairs of a triangle and of a tet. */
static const uint8_t topo_pair3[3][2] = {{0, 1}, {1, 2}, {2, 0}};
static const uint8_t topo_pair4[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

/* The unique edges of tets and triangles together (checked indices) as
 * sorted keys (lower << 32 | higher) in a new array *keys (free it), *count
 * of them. Returns 0 when out of memory. */
static int topo_edge_keys(const uint32_t *tet, size_t tets, const uint32_t *tri, size_t tris,
                          uint64_t **keys, size_t *count)
{
    const size_t m = 6 * tets + 3 * tris;
    uint64_t *k = malloc((m ? m : 1) * sizeof *k);
    *keys = NULL;
    *count = 0;
    if (!k)
        return 0;
    size_t at = 0;
    for (size_t t = 0; t < tets; ++t)
        for (int p = 0; p < 6; ++p)
            k[at++] = topo_key(tet[4 * t + topo_pair4[p][0]], tet[4 * t + topo_pair4[p][1]]);
    for (size_t t = 0; t < tris; ++t)
        for (int p = 0; p < 3; ++p)
            k[at++] = topo_key(tri[3 * t + topo_pair3[p][0]], tri[3 * t + topo_pair3[p][1]]);
    qsort(k, m, sizeof *k, topo_cmp_u64);
    size_t n = 0;
    for (size_t e = 0; e < m; ++e)
        if (n == 0 || k[e] != k[n - 1])
            k[n++] = k[e];
    *keys = k;
    *count = n;
    return 1;
}

static void topo_keys_to_pairs(const uint64_t *k, size_t n, uint32_t *pairs)
{
    for (size_t e = 0; e < n; ++e) {
        pairs[2 * e] = (uint32_t)(k[e] >> 32);
        pairs[2 * e + 1] = (uint32_t)(k[e] & 0xFFFFFFFFu);
    }
}

xpbd_status xpbd_mesh_edges(size_t particles, const uint32_t *elem, size_t elements,
                            uint32_t corners, uint32_t *pairs, size_t capacity, size_t *count,
                            size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!count)
        return XPBD_ERR_ARGUMENT;
    *count = 0;
    if ((corners != 3 && corners != 4) || (elements && !elem) ||
        particles > TOPO_MAX_PARTICLES || elements > TOPO_MAX_ELEMENTS)
        return XPBD_ERR_ARGUMENT;
    xpbd_status st = topo_indices(particles, elem, elements, corners, 1, &bad);
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    uint64_t *k;
    size_t n;
    if (!topo_edge_keys(corners == 4 ? elem : NULL, corners == 4 ? elements : 0,
                        corners == 3 ? elem : NULL, corners == 3 ? elements : 0, &k, &n))
        return XPBD_ERR_NOMEM;
    *count = n;
    if (pairs && capacity < n)
        st = XPBD_ERR_CAPACITY;
    else if (pairs)
        topo_keys_to_pairs(k, n, pairs);
    free(k);
    return st;
}

/* ----------------------------------------------------------- hinges --- */

/* Bending stencils of tris triangles (checked: in range, no repeated
 * corner), into a new array *out (free it; 4 per stencil), *count of them,
 * *skipped non-manifold edges (skip) or XPBD_ERR_TOPOLOGY with *bad the
 * triangle and edge[] the edge. On error *out is NULL. */
static xpbd_status topo_hinges(const uint32_t *tri, size_t tris, int skip, uint32_t **out,
                               size_t *count, size_t *skipped, size_t *bad, uint32_t edge[2])
{
    *out = NULL;
    *count = 0;
    *skipped = 0;
    const size_t m = 3 * tris;
    xpbd__keyed *h = malloc((m ? m : 1) * sizeof *h);
    if (!h)
        return XPBD_ERR_NOMEM;
    /* half-edge 3t + k: corner k to corner k + 1 of triangle t, opposite
     * corner k + 2; sorted by edge, then triangle */
    for (size_t t = 0; t < tris; ++t)
        for (size_t k = 0; k < 3; ++k) {
            h[3 * t + k].key = topo_key(tri[3 * t + k], tri[3 * t + (k + 1) % 3]);
            h[3 * t + k].index = (uint32_t)(3 * t + k);
        }
    xpbd__sort_keyed(h, m);
#define OPP(i) tri[h[i].index - h[i].index % 3 + (h[i].index % 3 + 2) % 3]
    size_t n = 0, s = 0;
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && h[j].key == h[i].key; ++j)
            ;
        if (j - i == 1)
            continue;
        if (j - i == 2 && OPP(i) != OPP(i + 1)) {
            ++n;
            continue;
        }
        if (!skip) {
            /* the third triangle, or the second that repeats the first */
            *bad = h[j - i == 2 ? i + 1 : i + 2].index / 3;
            edge[0] = (uint32_t)(h[i].key >> 32);
            edge[1] = (uint32_t)(h[i].key & 0xFFFFFFFFu);
            free(h);
            return XPBD_ERR_TOPOLOGY;
        }
        ++s;
    }
    uint32_t *st = malloc((n ? n : 1) * 4 * sizeof *st);
    if (!st) {
        free(h);
        return XPBD_ERR_NOMEM;
    }
    size_t at = 0;
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && h[j].key == h[i].key; ++j)
            ;
        if (j - i != 2 || OPP(i) == OPP(i + 1))
            continue;
        const uint32_t e = h[i].index; /* the first triangle's half-edge */
        st[4 * at] = tri[e];
        st[4 * at + 1] = tri[e - e % 3 + (e % 3 + 1) % 3];
        st[4 * at + 2] = OPP(i);
        st[4 * at + 3] = OPP(i + 1);
        ++at;
    }
#undef OPP
    free(h);
    *out = st;
    *count = n;
    *skipped = s;
    return XPBD_OK;
}

xpbd_status xpbd_mesh_bends(size_t particles, const uint32_t *tri, size_t triangles,
                            unsigned flags, uint32_t *stencils, size_t capacity, size_t *count,
                            size_t *skipped, size_t *bad_index, uint32_t *bad_edge)
{
    size_t bad = SIZE_MAX, s = 0;
    uint32_t edge[2] = {0, 0};
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (skipped)
        *skipped = 0;
    if (!count)
        return XPBD_ERR_ARGUMENT;
    *count = 0;
    if ((flags & ~XPBD_MESH_SKIP_NONMANIFOLD) || (triangles && !tri) ||
        particles > TOPO_MAX_PARTICLES || triangles > TOPO_MAX_ELEMENTS)
        return XPBD_ERR_ARGUMENT;
    xpbd_status st = topo_indices(particles, tri, triangles, 3, 1, &bad);
    uint32_t *out = NULL;
    size_t n = 0;
    if (st == XPBD_OK)
        st = topo_hinges(tri, triangles, (flags & XPBD_MESH_SKIP_NONMANIFOLD) != 0, &out, &n, &s,
                         &bad, edge);
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        if (bad_edge && st == XPBD_ERR_TOPOLOGY) {
            bad_edge[0] = edge[0];
            bad_edge[1] = edge[1];
        }
        return st;
    }
    *count = n;
    if (skipped)
        *skipped = s;
    if (stencils && capacity < n)
        st = XPBD_ERR_CAPACITY;
    else if (stencils && n)
        memcpy(stencils, out, 4 * n * sizeof *out);
    free(out);
    return st;
}

/* ------------------------------------------------------------ atan2 --- */

#define TOPO_PI 0x1.921fb54442d18p+1
#define TOPO_PI_2 0x1.921fb54442d18p+0

/* atan(t) for t in [0, 1]: three halvings atan(t) = 2 atan(t / (1 +
 * sqrt(1 + t^2))) bring t below tan(pi/32) < 0.1, where the series
 * t - t^3/3 + t^5/5 - ... has converged to double precision after ten
 * terms. IEEE operations and sqrt only: the same bits everywhere. */
static double topo_atan01(double t)
{
    for (int i = 0; i < 3; ++i)
        t = t / (1 + sqrt(1 + t * t));
    const double t2 = t * t;
    double sum = 0;
    for (int k = 10; k >= 0; --k) /* Horner, smallest terms first */
        sum = (k % 2 ? -1.0 : 1.0) / (2 * k + 1) + t2 * sum;
    return 8 * (t * sum);
}

/* atan2(y, x) in (-pi, pi] for (x, y) != (0, 0); a -0 y counts as +0. */
static double topo_atan2(double y, double x)
{
    const double ax = fabs(x), ay = fabs(y);
    double a = ay <= ax ? topo_atan01(ay / ax) : TOPO_PI_2 - topo_atan01(ax / ay);
    if (x < 0)
        a = TOPO_PI - a;
    return y < 0 ? -a : a;
}

/* The hinge angle of a stencil from its corners' positions (see
 * xpbd_mesh_dihedral_angles_*); 0 (refused) when a normal is zero or the
 * result not finite. */
static int topo_hinge_angle(const double a[3], const double b[3], const double c[3],
                            const double d[3], double *angle)
{
    double e[3], u[3], w[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = b[k] - a[k];
        u[k] = c[k] - a[k];
        w[k] = d[k] - b[k];
    }
    const double n1[3] = {e[1] * u[2] - e[2] * u[1], e[2] * u[0] - e[0] * u[2],
                          e[0] * u[1] - e[1] * u[0]};
    const double n2[3] = {w[1] * e[2] - w[2] * e[1], w[2] * e[0] - w[0] * e[2],
                          w[0] * e[1] - w[1] * e[0]};
    const double c12[3] = {n1[1] * n2[2] - n1[2] * n2[1], n1[2] * n2[0] - n1[0] * n2[2],
                           n1[0] * n2[1] - n1[1] * n2[0]};
    const double le = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    const double q1 = n1[0] * n1[0] + n1[1] * n1[1] + n1[2] * n1[2];
    const double q2 = n2[0] * n2[0] + n2[1] * n2[1] + n2[2] * n2[2];
    const double y = (c12[0] * e[0] + c12[1] * e[1] + c12[2] * e[2]) / le;
    const double x = n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2];
    if (!(q1 > 0) || !(q2 > 0) || !isfinite(q1) || !isfinite(q2) || !isfinite(x) ||
        !isfinite(y) || (x == 0 && y == 0))
        return 0;
    *angle = topo_atan2(y, x);
    return 1;
}

/* A selection xpbd_mesh_pin_where_* takes. */
static int topo_select_ok(const xpbd_mesh_select *s)
{
    return s->axis <= 2 && s->compare >= XPBD_MESH_LESS &&
           s->compare <= XPBD_MESH_GREATER_EQUAL && s->relative <= 1 && isfinite(s->value);
}

/* 1 when triangle v has corner a. */
static int topo_has(const uint32_t *v, uint32_t a)
{
    return v[0] == a || v[1] == a || v[2] == a;
}

static double topo_len(const double e[3])
{
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

/* the larger of a and b (no libm fmax: libm_check.sh) */
static double topo_max(double a, double b)
{
    return b > a ? b : a;
}

/* 1 when a particle with coordinate x is selected with threshold t. */
static int topo_selected(const xpbd_mesh_select *s, double x, double t)
{
    switch (s->compare) {
    case XPBD_MESH_LESS: return x < t;
    case XPBD_MESH_LESS_EQUAL: return x <= t;
    case XPBD_MESH_GREATER: return x > t;
    default: return x >= t;
    }
}

/* ------------------------------------------------------------ scene --- */

/* A copy of n entries of size sz into a new array (at least one entry). */
static void *topo_copy(const void *src, size_t n, size_t sz)
{
    void *p = malloc((n ? n : 1) * sz);
    if (p && n)
        memcpy(p, src, n * sz);
    return p;
}

/* One xpbd_mesh_scene_build_*: its settings, the arrays it holds besides
 * the scene's own, and where it failed. */
typedef struct topo_build {
    size_t n;                 /* particles */
    uint32_t build;           /* the options' build bits, or their default */
    int has_tets;
    int tri_used;             /* the triangles give edges, stencils or the masses */
    unsigned skip_degenerate; /* the flags' XPBD_MESH_SKIP_DEGENERATE */
    size_t tets, tris;        /* elements kept */
    uint32_t *tri;            /* [3 * tris] the triangles kept */
    uint32_t *tri_orig;       /* [tris] each kept triangle's input index (tri_used) */
    int32_t *tri_label, *tet_label;
    double *mass;
    uint64_t *keys;
    xpbd_mesh_part part;      /* where it failed */
    size_t index;
    uint32_t edge[2];         /* the non-manifold edge (XPBD_ERR_TOPOLOGY) */
} topo_build;

/* st, with its place recorded in wk. */
static xpbd_status topo_fail(topo_build *wk, xpbd_status st, xpbd_mesh_part part, size_t index)
{
    wk->part = part;
    wk->index = index;
    return st;
}

/* The mesh's sizes and the options, checked before anything is allocated;
 * wk receives the settings they give. */
static xpbd_status topo_scene_check(topo_build *wk, const xpbd_mesh_data *m,
                                    const xpbd_mesh_scene_options *o)
{
    if (!m || !o)
        return topo_fail(wk, XPBD_ERR_ARGUMENT, XPBD_MESH_PART_NONE, SIZE_MAX);
    const size_t n = m->particles;
    if (n == 0 || n > TOPO_MAX_PARTICLES || !m->xyz || m->triangles > TOPO_MAX_ELEMENTS ||
        m->tets > TOPO_MAX_ELEMENTS || (m->triangles && !m->triangle) || (m->tets && !m->tet))
        return topo_fail(wk, XPBD_ERR_ARGUMENT, XPBD_MESH_PART_NONE, SIZE_MAX);
    if ((o->pin_labels && !o->pin_label) || (o->pin_wheres && !o->pin_where))
        return topo_fail(wk, XPBD_ERR_ARGUMENT, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    const uint32_t known = XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_EDGES_FROM_TRIANGLES |
                           XPBD_MESH_VOLUME | XPBD_MESH_BENDING;
    const int has_tets = m->tets > 0;
    if ((o->build & ~known) ||
        (o->flags & ~(XPBD_MESH_SKIP_DEGENERATE | XPBD_MESH_SKIP_NONMANIFOLD)) ||
        o->one_body > 1 || (has_tets && !(isfinite(o->density) && o->density > 0)) ||
        (!has_tets && m->triangles &&
         !(isfinite(o->surface_density) && o->surface_density > 0)))
        return topo_fail(wk, XPBD_ERR_CONFIG, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    if (!isfinite(o->edge_alpha) || o->edge_alpha < 0 || !isfinite(o->tet_alpha) ||
        o->tet_alpha < 0 || !isfinite(o->bend_alpha) || o->bend_alpha < 0)
        return topo_fail(wk, XPBD_ERR_COMPLIANCE, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    for (size_t k = 0; k < o->pin_wheres; ++k)
        if (!topo_select_ok(&o->pin_where[k]))
            return topo_fail(wk, XPBD_ERR_CONFIG, XPBD_MESH_PART_PIN_WHERE, k);
    const uint32_t build = o->build ? o->build
                           : has_tets ? XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_VOLUME
                                      : XPBD_MESH_EDGES_FROM_TRIANGLES | XPBD_MESH_BENDING;
    wk->n = n;
    wk->build = build;
    wk->has_tets = has_tets;
    wk->tri_used = (build & (XPBD_MESH_EDGES_FROM_TRIANGLES | XPBD_MESH_BENDING)) || !has_tets;
    wk->skip_degenerate = o->flags & XPBD_MESH_SKIP_DEGENERATE;
    wk->tets = m->tets;
    wk->tris = m->triangles;
    return XPBD_OK;
}

/* The first of tris triangles with the stencil's corners 0, 1 and 2 (the
 * last triangle when none has them). */
static size_t topo_stencil_triangle(const uint32_t *tri, size_t tris, const uint32_t *stencil)
{
    size_t t = 0;
    while (t + 1 < tris && !(topo_has(tri + 3 * t, stencil[0]) &&
                             topo_has(tri + 3 * t, stencil[1]) &&
                             topo_has(tri + 3 * t, stencil[2])))
        ++t;
    return t;
}

/* The arrays the build held besides the scene's own. */
static void topo_build_free(topo_build *wk)
{
    free(wk->keys);
    free(wk->tri);
    free(wk->tri_orig);
    free(wk->tri_label);
    free(wk->tet_label);
    free(wk->mass);
}

/* ----------------------------------------------------- per precision --- */

#  include "each_precision.h"

/* The exported names, written out: each calls its template instance above. */

xpbd_status xpbd_mesh_dihedral_angles_f32(size_t particles, const float *xyz,
                                          const uint32_t *stencil, size_t count, float *angle,
                                          size_t *bad_index)
{
    return topo_dihedral_f32(particles, xyz, stencil, count, angle, bad_index);
}

xpbd_status xpbd_mesh_dihedral_angles_f64(size_t particles, const double *xyz,
                                          const uint32_t *stencil, size_t count, double *angle,
                                          size_t *bad_index)
{
    return topo_dihedral_f64(particles, xyz, stencil, count, angle, bad_index);
}

xpbd_status xpbd_mesh_clean_tets_f32(size_t particles, const float *xyz, uint32_t *tet,
                                     size_t tets, int32_t *label, unsigned flags,
                                     size_t *flipped, size_t *skipped, size_t *bad_index)
{
    return topo_clean_f32(particles, xyz, tet, tets, 4, label, flags, flipped, skipped, NULL,
                          bad_index);
}

xpbd_status xpbd_mesh_clean_tets_f64(size_t particles, const double *xyz, uint32_t *tet,
                                     size_t tets, int32_t *label, unsigned flags,
                                     size_t *flipped, size_t *skipped, size_t *bad_index)
{
    return topo_clean_f64(particles, xyz, tet, tets, 4, label, flags, flipped, skipped, NULL,
                          bad_index);
}

xpbd_status xpbd_mesh_clean_triangles_f32(size_t particles, const float *xyz, uint32_t *tri,
                                          size_t triangles, int32_t *label, unsigned flags,
                                          size_t *skipped, size_t *bad_index)
{
    return topo_clean_f32(particles, xyz, tri, triangles, 3, label, flags, NULL, skipped, NULL,
                          bad_index);
}

xpbd_status xpbd_mesh_clean_triangles_f64(size_t particles, const double *xyz, uint32_t *tri,
                                          size_t triangles, int32_t *label, unsigned flags,
                                          size_t *skipped, size_t *bad_index)
{
    return topo_clean_f64(particles, xyz, tri, triangles, 3, label, flags, NULL, skipped, NULL,
                          bad_index);
}

xpbd_status xpbd_mesh_masses_f32(size_t particles, const float *xyz, const uint32_t *elem,
                                 size_t elements, uint32_t corners, double density, double *mass,
                                 size_t *bad_index)
{
    return topo_masses_f32(particles, xyz, elem, elements, corners, density, mass, bad_index);
}

xpbd_status xpbd_mesh_masses_f64(size_t particles, const double *xyz, const uint32_t *elem,
                                 size_t elements, uint32_t corners, double density, double *mass,
                                 size_t *bad_index)
{
    return topo_masses_f64(particles, xyz, elem, elements, corners, density, mass, bad_index);
}

xpbd_status xpbd_mesh_inverse_masses_f32(size_t particles, const double *mass, float *inv_mass,
                                         size_t *massless, size_t *bad_index)
{
    return topo_inverse_f32(particles, mass, inv_mass, massless, bad_index);
}

xpbd_status xpbd_mesh_inverse_masses_f64(size_t particles, const double *mass, double *inv_mass,
                                         size_t *massless, size_t *bad_index)
{
    return topo_inverse_f64(particles, mass, inv_mass, massless, bad_index);
}

xpbd_status xpbd_mesh_pin_where_f32(size_t particles, const float *xyz,
                                    const xpbd_mesh_select *select, float *inv_mass,
                                    size_t *pinned, size_t *bad_index)
{
    return topo_pin_where_f32(particles, xyz, select, inv_mass, pinned, bad_index);
}

xpbd_status xpbd_mesh_pin_where_f64(size_t particles, const double *xyz,
                                    const xpbd_mesh_select *select, double *inv_mass,
                                    size_t *pinned, size_t *bad_index)
{
    return topo_pin_where_f64(particles, xyz, select, inv_mass, pinned, bad_index);
}

xpbd_status xpbd_mesh_pin_label_f32(size_t particles, const uint32_t *elem, size_t elements,
                                    uint32_t corners, const int32_t *label, int32_t which,
                                    float *inv_mass, size_t *pinned, size_t *bad_index)
{
    return topo_pin_label_f32(particles, elem, elements, corners, label, which, inv_mass, pinned,
                              bad_index);
}

xpbd_status xpbd_mesh_pin_label_f64(size_t particles, const uint32_t *elem, size_t elements,
                                    uint32_t corners, const int32_t *label, int32_t which,
                                    double *inv_mass, size_t *pinned, size_t *bad_index)
{
    return topo_pin_label_f64(particles, elem, elements, corners, label, which, inv_mass, pinned,
                              bad_index);
}

xpbd_status xpbd_mesh_scene_build_f32(xpbd_mesh_scene_f32 *out, const xpbd_mesh_data *m,
                                      const xpbd_mesh_scene_options *o)
{
    return topo_scene_build_f32(out, m, o);
}

xpbd_status xpbd_mesh_scene_build_f64(xpbd_mesh_scene_f64 *out, const xpbd_mesh_data *m,
                                      const xpbd_mesh_scene_options *o)
{
    return topo_scene_build_f64(out, m, o);
}

void xpbd_mesh_scene_free_f32(xpbd_mesh_scene_f32 *s)
{
    topo_scene_free_f32(s);
}

void xpbd_mesh_scene_free_f64(xpbd_mesh_scene_f64 *s)
{
    topo_scene_free_f64(s);
}

#else /* one precision, read through each_precision.h */
/* What reads positions or writes reals, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define topo_positions PREC(topo_positions_f32, topo_positions_f64)
#define topo_sub PREC(topo_sub_f32, topo_sub_f64)
#define topo_measure PREC(topo_measure_f32, topo_measure_f64)
#define topo_clean PREC(topo_clean_f32, topo_clean_f64)
#define topo_corners PREC(topo_corners_f32, topo_corners_f64)
#define topo_dihedral PREC(topo_dihedral_f32, topo_dihedral_f64)
#define topo_masses PREC(topo_masses_f32, topo_masses_f64)
#define topo_inverse PREC(topo_inverse_f32, topo_inverse_f64)
#define topo_pin_where PREC(topo_pin_where_f32, topo_pin_where_f64)
#define topo_pin_label PREC(topo_pin_label_f32, topo_pin_label_f64)
#define topo_scene_free PREC(topo_scene_free_f32, topo_scene_free_f64)
#define topo_scene_positions PREC(topo_scene_positions_f32, topo_scene_positions_f64)
#define topo_scene_tets PREC(topo_scene_tets_f32, topo_scene_tets_f64)
#define topo_scene_triangles PREC(topo_scene_triangles_f32, topo_scene_triangles_f64)
#define topo_scene_edges PREC(topo_scene_edges_f32, topo_scene_edges_f64)
#define topo_scene_bends PREC(topo_scene_bends_f32, topo_scene_bends_f64)
#define topo_scene_masses PREC(topo_scene_masses_f32, topo_scene_masses_f64)
#define topo_scene_pins PREC(topo_scene_pins_f32, topo_scene_pins_f64)
#define topo_scene_fill PREC(topo_scene_fill_f32, topo_scene_fill_f64)
#define topo_scene_build PREC(topo_scene_build_f32, topo_scene_build_f64)

#define MS SFX(xpbd_mesh_scene)

/* XPBD_OK, or XPBD_ERR_POSITION with *bad the first particle with a
 * coordinate that is not finite. */
static xpbd_status topo_positions(const R *xyz, size_t particles, size_t *bad)
{
    for (size_t i = 0; xyz && i < 3 * particles; ++i)
        if (!isfinite(xyz[i])) {
            *bad = i / 3;
            return XPBD_ERR_POSITION;
        }
    return XPBD_OK;
}

static void topo_sub(const R *xyz, uint32_t a, uint32_t b, double out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = (double)xyz[3 * (size_t)b + (size_t)k] - (double)xyz[3 * (size_t)a + (size_t)k];
}

/* The element's measure and whether it is not degenerate: a tet's 6V
 * (signed), with the tet builder's own rule (|6V| > 1e-12 (longest edge
 * from vertex 0)^3, finite and not 0 in R); a triangle's |(x1 - x0) x
 * (x2 - x0)| (twice its area), > 1e-12 (longest edge)^2 and finite. */
static int topo_measure(const R *xyz, const uint32_t *v, uint32_t corners, double *measure)
{
    double e1[3], e2[3], e3[3];
    topo_sub(xyz, v[0], v[1], e1);
    topo_sub(xyz, v[0], v[2], e2);
    if (corners == 4) {
        topo_sub(xyz, v[0], v[3], e3);
        const double g[3] = {e2[1] * e3[2] - e2[2] * e3[1], e2[2] * e3[0] - e2[0] * e3[2],
                             e2[0] * e3[1] - e2[1] * e3[0]};
        const double vol6 = e1[0] * g[0] + e1[1] * g[1] + e1[2] * g[2];
        double lmax = topo_len(e1);
        lmax = topo_max(lmax, topo_len(e2));
        lmax = topo_max(lmax, topo_len(e3));
        *measure = vol6;
        return fabs(vol6) > 1e-12 * lmax * lmax * lmax && isfinite(vol6) &&
               isfinite((double)(R)vol6) && (R)vol6 != 0;
    }
    topo_sub(xyz, v[1], v[2], e3);
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
    const double a2 = topo_len(n);
    double lmax = topo_len(e1);
    lmax = topo_max(lmax, topo_len(e2));
    lmax = topo_max(lmax, topo_len(e3));
    *measure = a2;
    return isfinite(a2) && a2 > 1e-12 * lmax * lmax;
}

/* xpbd_mesh_clean_tets_* (corners 4: flipped required) and
 * xpbd_mesh_clean_triangles_* (corners 3: flipped NULL); orig (may be
 * NULL, [n]) receives each kept element's input index. */
static xpbd_status topo_clean(size_t particles, const R *xyz, uint32_t *elem, size_t n,
                              uint32_t corners, int32_t *label, unsigned flags,
                              size_t *flipped, size_t *skipped, uint32_t *orig,
                              size_t *bad_index)
{
    const int tets = corners == 4;
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (flipped)
        *flipped = 0;
    if (skipped)
        *skipped = 0;
    if ((tets && !flipped) || !skipped || (flags & ~XPBD_MESH_SKIP_DEGENERATE) ||
        particles > TOPO_MAX_PARTICLES || n > TOPO_MAX_ELEMENTS || (particles && !xyz) ||
        (n && !elem))
        return XPBD_ERR_ARGUMENT;
    const int skip = (flags & XPBD_MESH_SKIP_DEGENERATE) != 0;
    xpbd_status st = topo_positions(xyz, particles, &bad);
    for (size_t t = 0; st == XPBD_OK && t < n; ++t) {
        const uint32_t *v = elem + (size_t)corners * t;
        const int f = topo_fault(particles, v, corners);
        double q;
        if (f == 1 || (f == 2 && !skip))
            st = XPBD_ERR_INDEX;
        else if (f == 0 && !skip && !topo_measure(xyz, v, corners, &q))
            st = XPBD_ERR_DEGENERATE;
        if (st != XPBD_OK)
            bad = t;
    }
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    size_t kept = 0, flips = 0;
    for (size_t t = 0; t < n; ++t) {
        uint32_t v[4];
        memcpy(v, elem + (size_t)corners * t, corners * sizeof *v);
        double q = 0;
        if (topo_fault(particles, v, corners) != 0 || !topo_measure(xyz, v, corners, &q))
            continue; /* degenerate (skip: checked above) */
        if (tets && q < 0) {
            const uint32_t s = v[2];
            v[2] = v[3];
            v[3] = s;
            ++flips;
        }
        memcpy(elem + (size_t)corners * kept, v, corners * sizeof *v);
        if (label)
            label[kept] = label[t];
        if (orig)
            orig[kept] = (uint32_t)t;
        ++kept;
    }
    if (flipped)
        *flipped = flips;
    *skipped = n - kept;
    return XPBD_OK;
}

/* The four corners of stencil s in double. */
static void topo_corners(const R *xyz, const uint32_t *v, double p[4][3])
{
    for (int a = 0; a < 4; ++a)
        for (int k = 0; k < 3; ++k)
            p[a][k] = (double)xyz[3 * (size_t)v[a] + (size_t)k];
}

static xpbd_status topo_dihedral(size_t particles, const R *xyz, const uint32_t *st,
                                 size_t count, R *angle, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (particles > TOPO_MAX_PARTICLES || count > TOPO_MAX_ELEMENTS ||
        (count && (!xyz || !st || !angle)))
        return XPBD_ERR_ARGUMENT;
    xpbd_status s = topo_positions(xyz, particles, &bad);
    for (size_t b = 0; s == XPBD_OK && b < count; ++b) {
        double p[4][3], a;
        if (topo_fault(particles, st + 4 * b, 4) != 0)
            s = XPBD_ERR_INDEX;
        else {
            topo_corners(xyz, st + 4 * b, p);
            if (!topo_hinge_angle(p[0], p[1], p[2], p[3], &a))
                s = XPBD_ERR_DEGENERATE;
        }
        if (s != XPBD_OK)
            bad = b;
    }
    if (s != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return s;
    }
    for (size_t b = 0; b < count; ++b) {
        double p[4][3], a = 0;
        topo_corners(xyz, st + 4 * b, p);
        (void)topo_hinge_angle(p[0], p[1], p[2], p[3], &a);
        angle[b] = (R)a;
    }
    return XPBD_OK;
}

static xpbd_status topo_masses(size_t particles, const R *xyz, const uint32_t *elem,
                               size_t n, uint32_t corners, double density, double *mass,
                               size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if ((corners != 3 && corners != 4) || particles > TOPO_MAX_PARTICLES ||
        n > TOPO_MAX_ELEMENTS || (n && (!elem || !xyz || !mass)))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(density) || density < 0)
        return XPBD_ERR_CONFIG;
    xpbd_status st = topo_positions(xyz, particles, &bad);
    if (st == XPBD_OK)
        st = topo_indices(particles, elem, n, corners, 0, &bad);
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    for (size_t t = 0; t < n; ++t) {
        const uint32_t *v = elem + (size_t)corners * t;
        double q;
        (void)topo_measure(xyz, v, corners, &q);
        const double share = density * (fabs(q) / (corners == 4 ? 6 : 2)) / corners;
        for (uint32_t a = 0; a < corners; ++a)
            mass[v[a]] += share;
    }
    return XPBD_OK;
}

static xpbd_status topo_inverse(size_t particles, const double *mass, R *w,
                                size_t *massless, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (massless)
        *massless = 0;
    if (particles && (!mass || !w))
        return XPBD_ERR_ARGUMENT;
    for (size_t i = 0; i < particles; ++i) {
        const double m = mass[i];
        const R v = m > 0 ? (R)(1.0 / m) : 0;
        if (!isfinite(m) || m < 0 || (m > 0 && !(isfinite(v) && v > 0))) {
            if (bad_index)
                *bad_index = i;
            return XPBD_ERR_INVERSE_MASS;
        }
    }
    size_t none = 0;
    for (size_t i = 0; i < particles; ++i) {
        w[i] = mass[i] > 0 ? (R)(1.0 / mass[i]) : 0;
        none += mass[i] == 0;
    }
    if (massless)
        *massless = none;
    return XPBD_OK;
}

static xpbd_status topo_pin_where(size_t particles, const R *xyz, const xpbd_mesh_select *s,
                                  R *w, size_t *pinned, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (pinned)
        *pinned = 0;
    if (!s || particles > TOPO_MAX_PARTICLES || (particles && (!xyz || !w)))
        return XPBD_ERR_ARGUMENT;
    if (!topo_select_ok(s))
        return XPBD_ERR_CONFIG;
    if (topo_positions(xyz, particles, &bad) != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return XPBD_ERR_POSITION;
    }
    double t = s->value;
    if (s->relative && particles) {
        double lo = (double)xyz[s->axis], hi = lo;
        for (size_t i = 1; i < particles; ++i) {
            const double x = (double)xyz[3 * i + s->axis];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        t = (1 - s->value) * lo + s->value * hi;
    }
    size_t matched = 0, changed = 0;
    for (size_t i = 0; i < particles; ++i)
        if (topo_selected(s, (double)xyz[3 * i + s->axis], t)) {
            ++matched;
            changed += w[i] != 0;
            w[i] = 0;
        }
    if (pinned)
        *pinned = changed;
    return matched ? XPBD_OK : XPBD_SKIPPED;
}

static xpbd_status topo_pin_label(size_t particles, const uint32_t *elem, size_t n,
                                  uint32_t corners, const int32_t *label, int32_t which,
                                  R *w, size_t *pinned, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (pinned)
        *pinned = 0;
    if ((corners != 3 && corners != 4) || particles > TOPO_MAX_PARTICLES ||
        n > TOPO_MAX_ELEMENTS || (n && (!elem || !label || !w)))
        return XPBD_ERR_ARGUMENT;
    if (topo_indices(particles, elem, n, corners, 0, &bad) != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return XPBD_ERR_INDEX;
    }
    size_t matched = 0, changed = 0;
    for (size_t t = 0; t < n; ++t) {
        if (label[t] != which)
            continue;
        ++matched;
        for (uint32_t a = 0; a < corners; ++a) {
            const uint32_t v = elem[(size_t)corners * t + a];
            changed += w[v] != 0;
            w[v] = 0;
        }
    }
    if (pinned)
        *pinned = changed;
    return matched ? XPBD_OK : XPBD_SKIPPED;
}

/* ------------------------------------------------------------ scene --- */

static void topo_scene_free(MS *s)
{
    if (!s)
        return;
    free(s->xyz);
    free(s->inv_mass);
    free(s->edge);
    free(s->tet);
    free(s->bend);
    free(s->rest_angle);
    memset(s, 0, sizeof *s);
}

/* 1. positions, in R */
static xpbd_status topo_scene_positions(MS *out, const xpbd_mesh_data *m, topo_build *wk)
{
    const size_t n = wk->n;
    for (size_t i = 0; i < 3 * n; ++i)
        if (!isfinite(m->xyz[i]) || !isfinite((double)(R)m->xyz[i]))
            return topo_fail(wk, XPBD_ERR_POSITION, XPBD_MESH_PART_PARTICLE, i / 3);
    out->xyz = malloc(3 * n * sizeof *out->xyz);
    if (!out->xyz)
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    for (size_t i = 0; i < 3 * n; ++i)
        out->xyz[i] = (R)m->xyz[i];
    return XPBD_OK;
}

/* 2a. the tets copied and oriented (degenerate ones skipped or refused) */
static xpbd_status topo_scene_tets(MS *out, const xpbd_mesh_data *m, topo_build *wk)
{
    const size_t tets = m->tets;
    size_t b = SIZE_MAX;
    out->tet = topo_copy(m->tet, 4 * tets, sizeof *out->tet);
    if (!out->tet || (m->tet_label &&
                      !(wk->tet_label = topo_copy(m->tet_label, tets, sizeof *wk->tet_label))))
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    const xpbd_status st = topo_clean(wk->n, out->xyz, out->tet, tets, 4, wk->tet_label,
                                      wk->skip_degenerate, &out->flipped, &out->skipped_tets,
                                      NULL, &b);
    if (st != XPBD_OK)
        return topo_fail(wk, st, XPBD_MESH_PART_TET, b);
    wk->tets -= out->skipped_tets;
    return XPBD_OK;
}

/* 2b. the triangles copied and cleaned when used, else their indices
 * checked */
static xpbd_status topo_scene_triangles(MS *out, const xpbd_mesh_data *m, topo_build *wk)
{
    const size_t tris = m->triangles;
    size_t b = SIZE_MAX;
    xpbd_status st;
    wk->tri = topo_copy(m->triangle, 3 * tris, sizeof *wk->tri);
    if (!wk->tri || (m->triangle_label && !(wk->tri_label = topo_copy(m->triangle_label, tris,
                                                                      sizeof *wk->tri_label))))
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    if (!wk->tri_used) {
        if ((st = topo_indices(wk->n, wk->tri, tris, 3, 0, &b)) != XPBD_OK)
            return topo_fail(wk, st, XPBD_MESH_PART_TRIANGLE, b);
        return XPBD_OK;
    }
    wk->tri_orig = malloc(tris * sizeof *wk->tri_orig);
    if (!wk->tri_orig)
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    st = topo_clean(wk->n, out->xyz, wk->tri, tris, 3, wk->tri_label, wk->skip_degenerate, NULL,
                    &out->skipped_triangles, wk->tri_orig, &b);
    if (st != XPBD_OK)
        return topo_fail(wk, st, XPBD_MESH_PART_TRIANGLE, b);
    wk->tris -= out->skipped_triangles;
    return XPBD_OK;
}

/* 3a. the unique edges of the elements the build names */
static xpbd_status topo_scene_edges(MS *out, topo_build *wk)
{
    const int ft = (wk->build & XPBD_MESH_EDGES_FROM_TETS) != 0;
    const int fr = (wk->build & XPBD_MESH_EDGES_FROM_TRIANGLES) != 0;
    size_t ne;
    if (!topo_edge_keys(ft ? out->tet : NULL, ft ? wk->tets : 0, fr ? wk->tri : NULL,
                        fr ? wk->tris : 0, &wk->keys, &ne))
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    out->edge = malloc((ne ? ne : 1) * 2 * sizeof *out->edge);
    if (!out->edge)
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    topo_keys_to_pairs(wk->keys, ne, out->edge);
    out->scene.edges = ne;
    return XPBD_OK;
}

/* 3b. the bending stencils of the kept triangles and their rest angles */
static xpbd_status topo_scene_bends(MS *out, const xpbd_mesh_scene_options *o, topo_build *wk)
{
    size_t nb, skipped, b = SIZE_MAX;
    xpbd_status st = topo_hinges(wk->tri, wk->tris, (o->flags & XPBD_MESH_SKIP_NONMANIFOLD) != 0,
                                 &out->bend, &nb, &skipped, &b, wk->edge);
    if (st == XPBD_ERR_TOPOLOGY)
        return topo_fail(wk, st, XPBD_MESH_PART_TRIANGLE, wk->tri_orig[b]);
    if (st != XPBD_OK)
        return topo_fail(wk, st, XPBD_MESH_PART_NONE, SIZE_MAX);
    out->skipped_hinges = skipped;
    out->rest_angle = malloc((nb ? nb : 1) * sizeof *out->rest_angle);
    if (!out->rest_angle)
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    for (size_t s = 0; s < nb; ++s) {
        double p[4][3], a;
        topo_corners(out->xyz, out->bend + 4 * s, p);
        if (!topo_hinge_angle(p[0], p[1], p[2], p[3], &a))
            /* coordinates beyond what a normal's square holds: name the
             * stencil's first triangle */
            return topo_fail(
                wk, XPBD_ERR_DEGENERATE, XPBD_MESH_PART_TRIANGLE,
                wk->tri_orig[topo_stencil_triangle(wk->tri, wk->tris, out->bend + 4 * s)]);
        out->rest_angle[s] = (R)a;
        out->max_rest_angle = topo_max(out->max_rest_angle, fabs(a));
    }
    out->scene.bends = nb;
    return XPBD_OK;
}

/* 4a. masses from the tets (or the triangles without tets), inverse
 * masses */
static xpbd_status topo_scene_masses(MS *out, const xpbd_mesh_scene_options *o, topo_build *wk)
{
    const size_t n = wk->n;
    size_t b = SIZE_MAX;
    xpbd_status st;
    wk->mass = calloc(n, sizeof *wk->mass);
    out->inv_mass = malloc(n * sizeof *out->inv_mass);
    if (!wk->mass || !out->inv_mass)
        return topo_fail(wk, XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    if (wk->has_tets)
        st = topo_masses(n, out->xyz, out->tet, wk->tets, 4, o->density, wk->mass, &b);
    else
        st = topo_masses(n, out->xyz, wk->tri, wk->tris, 3, o->surface_density, wk->mass, &b);
    if (st == XPBD_OK)
        st = topo_inverse(n, wk->mass, out->inv_mass, &out->massless, &b);
    if (st != XPBD_OK)
        return topo_fail(wk, st, XPBD_MESH_PART_PARTICLE, b);
    return XPBD_OK;
}

/* 4b. the pins: by label (each must be found), then by position */
static xpbd_status topo_scene_pins(MS *out, const xpbd_mesh_scene_options *o, topo_build *wk)
{
    const size_t n = wk->n;
    for (size_t k = 0; k < o->pin_labels; ++k) {
        size_t p = 0;
        int found = 0;
        if (wk->tet_label) {
            found |= topo_pin_label(n, out->tet, wk->tets, 4, wk->tet_label, o->pin_label[k],
                                    out->inv_mass, &p, NULL) == XPBD_OK;
            out->pinned += p;
        }
        if (wk->tri_label) {
            found |= topo_pin_label(n, wk->tri, wk->tris, 3, wk->tri_label, o->pin_label[k],
                                    out->inv_mass, &p, NULL) == XPBD_OK;
            out->pinned += p;
        }
        if (!found)
            return topo_fail(wk, XPBD_ERR_CONFIG, XPBD_MESH_PART_PIN_LABEL, k);
    }
    for (size_t k = 0; k < o->pin_wheres; ++k) {
        size_t p = 0;
        (void)topo_pin_where(n, out->xyz, &o->pin_where[k], out->inv_mass, &p, NULL);
        out->pinned += p;
    }
    return XPBD_OK;
}

/* 5. the scene, pointing at the struct's arrays */
static void topo_scene_fill(MS *out, const xpbd_mesh_scene_options *o, topo_build *wk)
{
    if (!(wk->build & XPBD_MESH_VOLUME)) {
        free(out->tet);
        out->tet = NULL;
        wk->tets = 0;
    }
    SFX(xpbd_scene) *sc = &out->scene;
    sc->particles = wk->n;
    sc->xyz = out->xyz;
    sc->inv_mass = out->inv_mass;
    sc->edge = out->edge;
    sc->edge_alpha = o->edge_alpha;
    sc->tets = wk->tets;
    sc->tet = out->tet;
    sc->tet_alpha = o->tet_alpha;
    sc->bend = out->bend;
    sc->bend_alpha = o->bend_alpha;
    if (o->one_body) {
        out->body_begin[0] = 0;
        out->body_begin[1] = wk->n;
        sc->bodies = 1;
        sc->body_begin = out->body_begin;
    }
}

static xpbd_status topo_scene_build(MS *out, const xpbd_mesh_data *m,
                                    const xpbd_mesh_scene_options *o)
{
    if (!out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    topo_build wk = {.part = XPBD_MESH_PART_NONE, .index = SIZE_MAX};
    xpbd_status st = topo_scene_check(&wk, m, o);
    if (st == XPBD_OK)
        st = topo_scene_positions(out, m, &wk);
    if (st == XPBD_OK && wk.has_tets)
        st = topo_scene_tets(out, m, &wk);
    if (st == XPBD_OK && wk.tris)
        st = topo_scene_triangles(out, m, &wk);
    if (st == XPBD_OK && (wk.build & (XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_EDGES_FROM_TRIANGLES)))
        st = topo_scene_edges(out, &wk);
    if (st == XPBD_OK && (wk.build & XPBD_MESH_BENDING) && wk.tris)
        st = topo_scene_bends(out, o, &wk);
    if (st == XPBD_OK)
        st = topo_scene_masses(out, o, &wk);
    if (st == XPBD_OK)
        st = topo_scene_pins(out, o, &wk);
    if (st == XPBD_OK)
        topo_scene_fill(out, o, &wk);
    topo_build_free(&wk);
    if (st != XPBD_OK)
        topo_scene_free(out);
    out->bad_part = wk.part;
    out->bad_index = wk.index;
    if (st == XPBD_ERR_TOPOLOGY) {
        out->bad_edge[0] = wk.edge[0];
        out->bad_edge[1] = wk.edge[1];
    }
    return st;
}

#undef MS
#endif /* XPBD_SELF */
