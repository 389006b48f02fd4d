/* SPDX-License-Identifier: MIT */
/* xpbd/mesh.h: mesh generators for soft bodies and cloth (SPEC S3).
 *
 * Generators fill caller-owned arrays and never allocate: ask for the sizes
 * first (out = NULL), allocate, then call again with the buffers:
 *
 *     xpbd_mesh_counts k;
 *     xpbd_mesh_box(&desc, &k, NULL);                    // sizes only
 *     xpbd_mesh_out o = {0};
 *     o.xyz32 = malloc(3 * k.particles * sizeof(float));
 *     o.edges = malloc(2 * k.edges * sizeof(uint32_t));
 *     o.tets  = malloc(4 * k.tets * sizeof(uint32_t));
 *     o.capacity = k;
 *     xpbd_mesh_box(&desc, &k, &o);                      // fills what is not NULL
 *
 * Every output array is optional (NULL: not wanted). Index arrays are flat:
 * pairs (2 per edge), stencils and tets (4 each), triangles (3 each).
 *
 * Cloth grid, nx x ny particles, particle (i, j) = j*nx + i at
 * origin + spacing*(i*u + j*v):
 *
 *     j+1  c ---- d      quad (i, j): triangles (a, b, d) and (a, d, c)
 *          |   /  |      edges: rows a-b, then columns a-c (stretch)
 *          |  /   |      shear: both diagonals a-d and b-c
 *     j    a ---- b      bends: one stencil per interior triangle edge
 *          i    i+1
 *
 * Tetrahedral box, (nx+1) x (ny+1) x (nz+1) particles, particle (i, j, k) =
 * (k*(ny+1) + j)*(nx+1) + i at origin + spacing*(i, j, k); each of the
 * nx*ny*nz cubes is cut into
 *   6 tets: the Kuhn (Freudenthal) split around the cube's diagonal from its
 *           lowest to its highest corner; every face diagonal joins the
 *           face's lowest and highest corners, so neighbours conform;
 *   5 tets: four corner tets and a central one on the four corners whose
 *           integer coordinates have an even sum; the split alternates from
 *           cube to cube, so neighbours conform.
 * Every tet is positively oriented (6V = (x1-x0).((x2-x0) x (x3-x0)) > 0).
 * edges: each unique edge of the tets once (axis edges, then face
 * diagonals, then (6 tets) the cube diagonals); triangles: the boundary
 * faces of the tets, counter-clockwise seen from outside.
 */
#ifndef XPBD_MESH_H
#define XPBD_MESH_H

#include "xpbd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element counts of a mesh (what a generator writes, or room for it). */
typedef struct xpbd_mesh_counts {
    size_t particles;  /* vertices: xyz holds 3 reals each */
    size_t edges;      /* distance pairs: cloth stretch edges; box: unique tet edges */
    size_t shear;      /* cloth: diagonal pairs (box: 0) */
    size_t bends;      /* cloth: bending stencils (box: 0) */
    size_t tets;       /* box: tetrahedra (cloth: 0) */
    size_t triangles;  /* cloth: all triangles; box: surface triangles */
} xpbd_mesh_counts;

/* A mesh as a file holds it: what the loaders of xpbd/io.h (OBJ, TetGen,
 * Gmsh) return and the topology helpers read. Every array is allocated by
 * the function that filled the struct and freed by xpbd_mesh_data_free;
 * an array with a zero count may be NULL. Labels are the file's own
 * numbers (Gmsh physical groups, TetGen region attributes and boundary
 * markers); a named group (Gmsh $PhysicalNames) also has its name. */
typedef struct xpbd_mesh_data {
    size_t particles;
    double *xyz;              /* [3 * particles] */
    size_t triangles;
    uint32_t *triangle;       /* [3 * triangles] vertex indices, in the file's order */
    int32_t *triangle_label;  /* [triangles] or NULL: no labels */
    size_t tets;
    uint32_t *tet;            /* [4 * tets] vertex indices, in the file's order */
    int32_t *tet_label;       /* [tets] or NULL: no labels */
    size_t labels;
    int32_t *label_id;        /* [labels] the named groups' numbers */
    char **label_name;        /* [labels] their names, NUL-terminated */
} xpbd_mesh_data;

/* Frees every array of *m (and each label name) and zeroes *m; NULL, or a
 * zeroed struct, is fine. Never allocates. */
XPBD_API void xpbd_mesh_data_free(xpbd_mesh_data *m);

/* Caller buffers; NULL entries are skipped. capacity gives the room of each
 * array in elements (particles, pairs, stencils, tets, triangles). */
typedef struct xpbd_mesh_out {
    double *xyz64;         /* [3 * particles] */
    float *xyz32;          /* [3 * particles] (the double positions, rounded) */
    uint32_t *edges;       /* [2 * edges] */
    uint32_t *shear;       /* [2 * shear] */
    uint32_t *bends;       /* [4 * bends] edge end, edge end, opposite, opposite */
    uint32_t *tets;        /* [4 * tets] */
    uint32_t *triangles;   /* [3 * triangles] */
    xpbd_mesh_counts capacity;
} xpbd_mesh_out;

/* Cloth grid. Zeroed u and v mean (1, 0, 0) and (0, 0, 1): a horizontal
 * sheet in the x-z plane. */
typedef struct xpbd_cloth_desc {
    uint32_t nx, ny;       /* particles per row and per column, >= 2 */
    double spacing;        /* grid step (m), > 0 */
    double origin[3];      /* position of particle (0, 0) */
    double u[3], v[3];     /* directions of i and j (need not be unit) */
} xpbd_cloth_desc;

/* Tetrahedral box of nx x ny x nz cubes. */
typedef struct xpbd_box_desc {
    uint32_t nx, ny, nz;   /* cubes per axis, >= 1 */
    double spacing;        /* cube edge (m), > 0 */
    double origin[3];      /* position of particle (0, 0, 0), the lowest corner */
    uint32_t tets_per_cube; /* 5 or 6; 0 means 6 */
} xpbd_box_desc;

/* Fills *counts (if not NULL) with the mesh's sizes and, if out is not NULL,
 * writes every non-NULL array of out. Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT   desc NULL, a count below the minimum, a spacing not
 *                       finite and > 0, an origin or axis not finite, or a
 *                       mesh whose indices do not fit in 32 bits
 *   XPBD_ERR_CONFIG     tets_per_cube not 0, 5 or 6
 *   XPBD_ERR_CAPACITY   a non-NULL array with less room than needed (nothing
 *                       written) */
XPBD_API xpbd_status xpbd_mesh_cloth(const xpbd_cloth_desc *desc, xpbd_mesh_counts *counts,
                                     const xpbd_mesh_out *out);
XPBD_API xpbd_status xpbd_mesh_box(const xpbd_box_desc *desc, xpbd_mesh_counts *counts,
                                   const xpbd_mesh_out *out);

/* rest[e] = |x[pair[2e+1]] - x[pair[2e]]| from positions xyz (3 per
 * particle), computed in double. Indices are trusted (generator output). */
XPBD_API void xpbd_mesh_rest_lengths_f32(const float *xyz, size_t count, const uint32_t *pairs,
                                         float *rest);
XPBD_API void xpbd_mesh_rest_lengths_f64(const double *xyz, size_t count, const uint32_t *pairs,
                                         double *rest);

/* A numbering of count particles for locality: along a Morton (Z-order)
 * curve through their bounding box (21 bits per axis), so that particles
 * near in space are near in memory and a colour's batches touch few cache
 * lines. order[k] is the old index of the particle numbered k; where[i] the
 * new number of old particle i (the map back); either may be NULL. Ties
 * keep the old order, so the result depends on the positions only.
 *
 * To use it, move particle order[k] to slot k of every particle array and
 * give each constraint the endpoints where[i0], where[i1], listed by their
 * lower new endpoint, before building the sets. A mesh already numbered
 * along rows (xpbd_mesh_cloth) is as good as renumbered: this is for
 * meshes in an arbitrary order (xpbd-bench --cloth-only: a shuffled
 * 512 x 512 cloth and the same cloth renumbered).
 *
 * xyz: 3 per particle. Unlike the generators it allocates: a sort
 * workspace of 16 bytes per particle, freed before it returns. Returns
 * XPBD_OK; XPBD_ERR_ARGUMENT (xyz NULL with count > 0, or count >
 * INT32_MAX); XPBD_ERR_POSITION (a coordinate not finite: *bad_index = the
 * particle, nothing written); XPBD_ERR_NOMEM (nothing written). */
XPBD_API xpbd_status xpbd_mesh_locality_order_f32(const float *xyz, size_t count, uint32_t *order,
                                                  uint32_t *where, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_locality_order_f64(const double *xyz, size_t count,
                                                  uint32_t *order, uint32_t *where,
                                                  size_t *bad_index);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_MESH_H */
