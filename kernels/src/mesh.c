/* SPDX-License-Identifier: MIT */
/* Mesh generators (xpbd/mesh.h): cloth grids and tetrahedral boxes into
 * caller-owned arrays. Topology is computed on integer lattice coordinates,
 * so orientation tests are exact whatever the spacing. */
#include "internal.h"
#include "xpbd/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest particle count: indices stay below INT32_MAX like every builder's. */
#define MESH_MAX_INDEX ((size_t)INT32_MAX)

static int mesh_finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Room check: every requested array must hold what the mesh needs. */
static int mesh_room(const xpbd_mesh_out *o, const xpbd_mesh_counts *k)
{
    const xpbd_mesh_counts *c = &o->capacity;
    return (!(o->xyz64 || o->xyz32) || c->particles >= k->particles) &&
           (!o->edges || c->edges >= k->edges) && (!o->shear || c->shear >= k->shear) &&
           (!o->bends || c->bends >= k->bends) && (!o->tets || c->tets >= k->tets) &&
           (!o->triangles || c->triangles >= k->triangles);
}

static void mesh_put_xyz(const xpbd_mesh_out *o, size_t i, const double x[3])
{
    for (int a = 0; a < 3; ++a) {
        if (o->xyz64)
            o->xyz64[3 * i + (size_t)a] = x[a];
        if (o->xyz32)
            o->xyz32[3 * i + (size_t)a] = (float)x[a];
    }
}

static void mesh_pair(uint32_t *dst, size_t *at, uint32_t a, uint32_t b)
{
    dst[2 * *at] = a;
    dst[2 * *at + 1] = b;
    ++*at;
}

/* ------------------------------------------------------------ cloth --- */

static xpbd_mesh_counts cloth_counts(size_t nx, size_t ny)
{
    xpbd_mesh_counts k;
    memset(&k, 0, sizeof k);
    k.particles = nx * ny;
    k.edges = (nx - 1) * ny + nx * (ny - 1);
    k.shear = 2 * (nx - 1) * (ny - 1);
    k.bends = (nx - 1) * (ny - 1) + (nx - 1) * (ny - 2) + (nx - 2) * (ny - 1);
    k.triangles = 2 * (nx - 1) * (ny - 1);
    return k;
}

xpbd_status xpbd_mesh_cloth(const xpbd_cloth_desc *d, xpbd_mesh_counts *counts,
                            const xpbd_mesh_out *out)
{
    if (!d || d->nx < 2 || d->ny < 2 || !isfinite(d->spacing) || !(d->spacing > 0) ||
        !mesh_finite3(d->origin) || !mesh_finite3(d->u) || !mesh_finite3(d->v) ||
        (size_t)d->nx * d->ny > MESH_MAX_INDEX)
        return XPBD_ERR_ARGUMENT;
    const size_t nx = d->nx, ny = d->ny;
    const xpbd_mesh_counts k = cloth_counts(nx, ny);
    if (counts)
        *counts = k;
    if (!out)
        return XPBD_OK;
    if (!mesh_room(out, &k))
        return XPBD_ERR_CAPACITY;
    double u[3] = {d->u[0], d->u[1], d->u[2]}, v[3] = {d->v[0], d->v[1], d->v[2]};
    if (u[0] == 0 && u[1] == 0 && u[2] == 0)
        u[0] = 1;
    if (v[0] == 0 && v[1] == 0 && v[2] == 0)
        v[2] = 1;
#define ID(i, j) ((uint32_t)((size_t)(j) * nx + (size_t)(i)))
    for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i) {
            const double si = d->spacing * (double)i, sj = d->spacing * (double)j;
            const double x[3] = {d->origin[0] + (si * u[0] + sj * v[0]),
                                 d->origin[1] + (si * u[1] + sj * v[1]),
                                 d->origin[2] + (si * u[2] + sj * v[2])};
            mesh_put_xyz(out, ID(i, j), x);
        }
    if (out->edges) {
        size_t e = 0;
        for (size_t j = 0; j < ny; ++j)
            for (size_t i = 0; i + 1 < nx; ++i)
                mesh_pair(out->edges, &e, ID(i, j), ID(i + 1, j));
        for (size_t j = 0; j + 1 < ny; ++j)
            for (size_t i = 0; i < nx; ++i)
                mesh_pair(out->edges, &e, ID(i, j), ID(i, j + 1));
    }
    if (out->shear) {
        size_t e = 0;
        for (size_t j = 0; j + 1 < ny; ++j)
            for (size_t i = 0; i + 1 < nx; ++i) {
                mesh_pair(out->shear, &e, ID(i, j), ID(i + 1, j + 1));
                mesh_pair(out->shear, &e, ID(i + 1, j), ID(i, j + 1));
            }
    }
    if (out->triangles) {
        uint32_t *t = out->triangles;
        for (size_t j = 0; j + 1 < ny; ++j)
            for (size_t i = 0; i + 1 < nx; ++i) {
                const uint32_t a = ID(i, j), b = ID(i + 1, j), c = ID(i, j + 1),
                               dd = ID(i + 1, j + 1);
                const uint32_t tri[6] = {a, b, dd, a, dd, c};
                memcpy(t, tri, sizeof tri);
                t += 6;
            }
    }
    if (out->bends) {
        /* stencil: edge (e0, e1), then the opposite vertex of each of its two
         * triangles (see the picture in xpbd/mesh.h) */
        uint32_t *b = out->bends;
        for (size_t j = 0; j + 1 < ny; ++j) /* the diagonal a-d of each quad */
            for (size_t i = 0; i + 1 < nx; ++i) {
                const uint32_t s[4] = {ID(i, j), ID(i + 1, j + 1), ID(i + 1, j), ID(i, j + 1)};
                memcpy(b, s, sizeof s);
                b += 4;
            }
        for (size_t j = 1; j + 1 < ny; ++j) /* interior row edges */
            for (size_t i = 0; i + 1 < nx; ++i) {
                const uint32_t s[4] = {ID(i, j), ID(i + 1, j), ID(i + 1, j + 1), ID(i, j - 1)};
                memcpy(b, s, sizeof s);
                b += 4;
            }
        for (size_t j = 0; j + 1 < ny; ++j) /* interior column edges */
            for (size_t i = 1; i + 1 < nx; ++i) {
                const uint32_t s[4] = {ID(i, j), ID(i, j + 1), ID(i + 1, j + 1), ID(i - 1, j)};
                memcpy(b, s, sizeof s);
                b += 4;
            }
    }
#undef ID
    return XPBD_OK;
}

/* -------------------------------------------------------------- box --- */

typedef struct box_grid {
    size_t nx, ny, nz;
    int five;
} box_grid;

static uint32_t box_id(const box_grid *g, size_t i, size_t j, size_t k)
{
    return (uint32_t)((k * (g->ny + 1) + j) * (g->nx + 1) + i);
}

static void box_coords(const box_grid *g, uint32_t id, long c[3])
{
    const size_t px = g->nx + 1, py = g->ny + 1;
    c[0] = (long)(id % px);
    c[1] = (long)(id / px % py);
    c[2] = (long)(id / (px * py));
}

/* 6V of a tet in lattice units (exact). */
static long box_vol6(const box_grid *g, const uint32_t t[4])
{
    long p[4][3];
    for (int a = 0; a < 4; ++a)
        box_coords(g, t[a], p[a]);
    long e[3][3];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            e[a][b] = p[a + 1][b] - p[0][b];
    return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) +
           e[0][1] * (e[1][2] * e[2][0] - e[1][0] * e[2][2]) +
           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

static xpbd_mesh_counts box_counts(const box_grid *g)
{
    const size_t nx = g->nx, ny = g->ny, nz = g->nz, cells = nx * ny * nz;
    xpbd_mesh_counts k;
    memset(&k, 0, sizeof k);
    k.particles = (nx + 1) * (ny + 1) * (nz + 1);
    k.edges = nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz +
              (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1) +
              (g->five ? 0 : cells);
    k.tets = (g->five ? 5 : 6) * cells;
    k.triangles = 4 * (ny * nz + nx * nz + nx * ny);
    return k;
}

/* The four corners of the face of the cube at lattice point c (lowest
 * corner) spanned by axes s and t: f[0] = c, f[1] = c + e_s, f[2] = c + e_t,
 * f[3] = c + e_s + e_t. Returns 1 when the face's diagonal is f[0]-f[3], 0
 * when it is f[1]-f[2]. */
static int box_face(const box_grid *g, const size_t c[3], int s, int t, uint32_t f[4])
{
    size_t q[4][3];
    for (int a = 0; a < 4; ++a)
        memcpy(q[a], c, sizeof q[a]);
    q[1][s]++;
    q[2][t]++;
    q[3][s]++;
    q[3][t]++;
    for (int a = 0; a < 4; ++a)
        f[a] = box_id(g, q[a][0], q[a][1], q[a][2]);
    /* six tets: lowest to highest corner; five: the corners with an even
     * coordinate sum (f[0] and f[3] have the same parity) */
    return g->five ? (c[0] + c[1] + c[2]) % 2 == 0 : 1;
}

static void box_tets(const box_grid *g, uint32_t *out)
{
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    size_t at = 0;
    for (size_t k = 0; k < g->nz; ++k)
        for (size_t j = 0; j < g->ny; ++j)
            for (size_t i = 0; i < g->nx; ++i) {
                const size_t c[3] = {i, j, k};
                uint32_t corner[8]; /* local bits: 1 = +x, 2 = +y, 4 = +z */
                for (int b = 0; b < 8; ++b)
                    corner[b] = box_id(g, i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
                uint32_t tet[6][4];
                int count = 0;
                if (!g->five) {
                    for (int p = 0; p < 6; ++p) {
                        const int a = 1 << perm[p][0], b = a | 1 << perm[p][1];
                        const uint32_t t[4] = {corner[0], corner[a], corner[b], corner[7]};
                        memcpy(tet[count++], t, sizeof t);
                    }
                } else {
                    /* even corners (global coordinate sum even) form the
                     * central tet; each odd corner with its three
                     * neighbours forms a corner tet */
                    const int odd_cell = (int)((c[0] + c[1] + c[2]) % 2);
                    uint32_t even[4];
                    int ne = 0;
                    for (int b = 0; b < 8; ++b) {
                        const int parity = (odd_cell + (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1)) % 2;
                        if (parity == 0)
                            even[ne++] = corner[b];
                        else {
                            const uint32_t t[4] = {corner[b], corner[b ^ 1], corner[b ^ 2],
                                                   corner[b ^ 4]};
                            memcpy(tet[count++], t, sizeof t);
                        }
                    }
                    memcpy(tet[count++], even, sizeof even);
                }
                for (int t = 0; t < count; ++t) {
                    if (box_vol6(g, tet[t]) < 0) {
                        const uint32_t s = tet[t][2];
                        tet[t][2] = tet[t][3];
                        tet[t][3] = s;
                    }
                    memcpy(out + 4 * at, tet[t], sizeof tet[t]);
                    ++at;
                }
            }
}

static void box_edges(const box_grid *g, uint32_t *out)
{
    size_t e = 0;
    const size_t lim[3] = {g->nx, g->ny, g->nz};
    /* axis edges, x then y then z */
    for (int a = 0; a < 3; ++a)
        for (size_t k = 0; k <= g->nz; ++k)
            for (size_t j = 0; j <= g->ny; ++j)
                for (size_t i = 0; i <= g->nx; ++i) {
                    size_t c[3] = {i, j, k};
                    if (c[a] == lim[a])
                        continue;
                    const uint32_t p0 = box_id(g, c[0], c[1], c[2]);
                    c[a]++;
                    mesh_pair(out, &e, p0, box_id(g, c[0], c[1], c[2]));
                }
    /* face diagonals: faces normal to x, then y, then z */
    static const int span[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    for (int a = 0; a < 3; ++a)
        for (size_t k = 0; k <= g->nz; ++k)
            for (size_t j = 0; j <= g->ny; ++j)
                for (size_t i = 0; i <= g->nx; ++i) {
                    const size_t c[3] = {i, j, k};
                    if (c[span[a][0]] == lim[span[a][0]] || c[span[a][1]] == lim[span[a][1]])
                        continue;
                    uint32_t f[4];
                    if (box_face(g, c, span[a][0], span[a][1], f))
                        mesh_pair(out, &e, f[0], f[3]);
                    else
                        mesh_pair(out, &e, f[1], f[2]);
                }
    if (!g->five)
        for (size_t k = 0; k < g->nz; ++k)
            for (size_t j = 0; j < g->ny; ++j)
                for (size_t i = 0; i < g->nx; ++i)
                    mesh_pair(out, &e, box_id(g, i, j, k), box_id(g, i + 1, j + 1, k + 1));
}

/* Outward-facing triangle (a, b, c): flips b and c if the lattice normal
 * points against dir. */
static void box_tri(const box_grid *g, uint32_t a, uint32_t b, uint32_t c, const long dir[3],
                    uint32_t *out)
{
    long p[3][3];
    box_coords(g, a, p[0]);
    box_coords(g, b, p[1]);
    box_coords(g, c, p[2]);
    const long u[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    const long v[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    const long n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                       u[0] * v[1] - u[1] * v[0]};
    const long dot = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2];
    out[0] = a;
    out[1] = dot >= 0 ? b : c;
    out[2] = dot >= 0 ? c : b;
}

static void box_surface(const box_grid *g, uint32_t *out)
{
    static const int span[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    const size_t lim[3] = {g->nx, g->ny, g->nz};
    size_t at = 0;
    for (int a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side) {
            const int s = span[a][0], t = span[a][1];
            long dir[3] = {0, 0, 0};
            dir[a] = side ? 1 : -1;
            for (size_t v = 0; v < lim[t]; ++v)
                for (size_t u = 0; u < lim[s]; ++u) {
                    size_t c[3];
                    c[a] = side ? lim[a] : 0;
                    c[s] = u;
                    c[t] = v;
                    uint32_t f[4];
                    if (box_face(g, c, s, t, f)) {
                        box_tri(g, f[0], f[1], f[3], dir, out + 3 * at++);
                        box_tri(g, f[0], f[3], f[2], dir, out + 3 * at++);
                    } else {
                        box_tri(g, f[0], f[1], f[2], dir, out + 3 * at++);
                        box_tri(g, f[1], f[3], f[2], dir, out + 3 * at++);
                    }
                }
        }
}

xpbd_status xpbd_mesh_box(const xpbd_box_desc *d, xpbd_mesh_counts *counts,
                          const xpbd_mesh_out *out)
{
    if (!d || d->nx < 1 || d->ny < 1 || d->nz < 1 || !isfinite(d->spacing) ||
        !(d->spacing > 0) || !mesh_finite3(d->origin))
        return XPBD_ERR_ARGUMENT;
    if (d->tets_per_cube != 0 && d->tets_per_cube != 5 && d->tets_per_cube != 6)
        return XPBD_ERR_CONFIG;
    const size_t px = (size_t)d->nx + 1, py = (size_t)d->ny + 1, pz = (size_t)d->nz + 1;
    if (px * py > MESH_MAX_INDEX || px * py * pz > MESH_MAX_INDEX / 8)
        return XPBD_ERR_ARGUMENT;
    box_grid g = {d->nx, d->ny, d->nz, d->tets_per_cube == 5};
    const xpbd_mesh_counts k = box_counts(&g);
    if (counts)
        *counts = k;
    if (!out)
        return XPBD_OK;
    if (!mesh_room(out, &k))
        return XPBD_ERR_CAPACITY;
    if (out->xyz64 || out->xyz32)
        for (size_t kk = 0; kk < pz; ++kk)
            for (size_t j = 0; j < py; ++j)
                for (size_t i = 0; i < px; ++i) {
                    const double x[3] = {d->origin[0] + d->spacing * (double)i,
                                         d->origin[1] + d->spacing * (double)j,
                                         d->origin[2] + d->spacing * (double)kk};
                    mesh_put_xyz(out, box_id(&g, i, j, kk), x);
                }
    if (out->tets)
        box_tets(&g, out->tets);
    if (out->edges)
        box_edges(&g, out->edges);
    if (out->triangles)
        box_surface(&g, out->triangles);
    return XPBD_OK;
}

/* ------------------------------------------------------ rest lengths --- */

#define MESH_REST(R, name)                                                                    \
    void name(const R *xyz, size_t count, const uint32_t *pairs, R *rest)                     \
    {                                                                                         \
        for (size_t e = 0; e < count; ++e) {                                                  \
            const R *a = xyz + 3 * (size_t)pairs[2 * e], *b = xyz + 3 * (size_t)pairs[2 * e + 1]; \
            const double dx = (double)b[0] - (double)a[0], dy = (double)b[1] - (double)a[1];  \
            const double dz = (double)b[2] - (double)a[2];                                    \
            rest[e] = (R)sqrt(dx * dx + dy * dy + dz * dz);                                   \
        }                                                                                     \
    }
MESH_REST(float, xpbd_mesh_rest_lengths_f32)
MESH_REST(double, xpbd_mesh_rest_lengths_f64)
#undef MESH_REST

/* ---------------------------------------------------- locality order --- */

/* b's 21 low bits spread to every third bit of 63 */
static uint64_t mesh_spread3(uint32_t b)
{
    uint64_t x = b & 0x1FFFFFu;
    x = (x | x << 32) & 0x001F00000000FFFFull;
    x = (x | x << 16) & 0x001F0000FF0000FFull;
    x = (x | x << 8) & 0x100F00F00F00F00Full;
    x = (x | x << 4) & 0x10C30C30C30C30C3ull;
    x = (x | x << 2) & 0x1249249249249249ull;
    return x;
}

/* The locality order of count particles whose coordinate c of particle i
 * is at(xyz, 3 * i + c), in double. */
static xpbd_status mesh_locality_order(const void *xyz, double (*at)(const void *, size_t),
                                       size_t count, uint32_t *order, uint32_t *where,
                                       size_t *bad_index)
{
    if (count == 0)
        return XPBD_OK;
    if (!xyz || count > MESH_MAX_INDEX)
        return XPBD_ERR_ARGUMENT;
    double lo[3], hi[3];
    for (size_t i = 0; i < count; ++i)
        for (int c = 0; c < 3; ++c) {
            const double v = at(xyz, 3 * i + (size_t)c);
            if (!isfinite(v)) {
                if (bad_index)
                    *bad_index = i;
                return XPBD_ERR_POSITION;
            }
            lo[c] = i == 0 || v < lo[c] ? v : lo[c];
            hi[c] = i == 0 || v > hi[c] ? v : hi[c];
        }
    xpbd__keyed *k = malloc(count * sizeof *k);
    if (!k)
        return XPBD_ERR_NOMEM;
    const double cells = (double)0x1FFFFF; /* 2^21 - 1 */
    for (size_t i = 0; i < count; ++i) {
        uint64_t key = 0;
        for (int c = 0; c < 3; ++c) {
            /* in halves, so that the extent of any finite values is finite */
            const double half = hi[c] * 0.5 - lo[c] * 0.5;
            const double u =
                half > 0 ? (at(xyz, 3 * i + (size_t)c) * 0.5 - lo[c] * 0.5) / half : 0;
            const double q = u * cells;
            key |= mesh_spread3(q <= 0 ? 0u : q >= cells ? 0x1FFFFFu : (uint32_t)q) << c;
        }
        k[i].key = key;
        k[i].index = (uint32_t)i;
    }
    xpbd__sort_keyed(k, count);
    for (size_t n = 0; n < count; ++n) {
        if (order)
            order[n] = k[n].index;
        if (where)
            where[k[n].index] = (uint32_t)n;
    }
    free(k);
    return XPBD_OK;
}

static double mesh_at_f32(const void *xyz, size_t i)
{
    return (double)((const float *)xyz)[i];
}

static double mesh_at_f64(const void *xyz, size_t i)
{
    return ((const double *)xyz)[i];
}

xpbd_status xpbd_mesh_locality_order_f32(const float *xyz, size_t count, uint32_t *order,
                                         uint32_t *where, size_t *bad_index)
{
    return mesh_locality_order(xyz, mesh_at_f32, count, order, where, bad_index);
}

xpbd_status xpbd_mesh_locality_order_f64(const double *xyz, size_t count, uint32_t *order,
                                         uint32_t *where, size_t *bad_index)
{
    return mesh_locality_order(xyz, mesh_at_f64, count, order, where, bad_index);
}

void xpbd_mesh_data_free(xpbd_mesh_data *m)
{
    if (!m)
        return;
    for (size_t k = 0; m->label_name && k < m->labels; ++k)
        free(m->label_name[k]);
    free(m->label_name);
    free(m->label_id);
    free(m->tet_label);
    free(m->tet);
    free(m->triangle_label);
    free(m->triangle);
    free(m->xyz);
    memset(m, 0, sizeof *m);
}
