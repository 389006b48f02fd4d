/* SPDX-License-Identifier: MIT */
/* Mesh topology (xpbd/mesh.h): unique edges, bending stencils and their
 * rest angles, tet orientation and degenerate elements, masses, pins, and
 * the engine scene of a loaded mesh. The index work is precision-free and
 * lives here; what reads positions is written once in mesh_topology_tmpl.h
 * for float and double. */
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

/* ----------------------------------------------------- per precision --- */

#define XPBD_REAL_F32
#include "mesh_topology_tmpl.h"
#define XPBD_REAL_F64
#include "mesh_topology_tmpl.h"

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
