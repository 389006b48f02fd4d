/* SPDX-License-Identifier: MIT */
/* xpbd/mesh.h: meshes for soft bodies and cloth (SPEC S3): generators
 * (a cloth grid, a tetrahedral box), a particle numbering for locality,
 * xpbd_mesh_data (a mesh as a file holds it), and the topology of any mesh
 * given as positions + triangles and/or tets (see "topology" below):
 * unique edges (xpbd_mesh_edges), bending stencils (xpbd_mesh_bends) and
 * their rest dihedral angles (xpbd_mesh_dihedral_angles_*), tet
 * orientation and degenerate elements (xpbd_mesh_clean_tets_*,
 * xpbd_mesh_clean_triangles_*), masses from densities
 * (xpbd_mesh_masses_*, xpbd_mesh_inverse_masses_*), pins by label or by a
 * coordinate (xpbd_mesh_pin_label_*, xpbd_mesh_pin_where_*), and the
 * engine scene of a loaded mesh in one call (xpbd_mesh_scene_build_*).
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
#include "xpbd/engine.h" /* xpbd_scene_f32, xpbd_scene_f64 */

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

/* ---------------------------------------------------------- topology --- */

/* Topology from a mesh given as positions (xyz, 3 reals per particle) and
 * elements: triangles (3 vertex indices each) and tets (4 each), as
 * xpbd_mesh_data holds them or as a host's own arrays. Indices are checked
 * against the particle count (XPBD_ERR_INDEX names the element); counts up
 * to INT32_MAX particles and INT32_MAX / 8 elements (XPBD_ERR_ARGUMENT
 * above). bad_index (may be NULL) is SIZE_MAX on success and names, on an
 * error, the element (triangle, tet or stencil of the input) or, for
 * XPBD_ERR_POSITION, the particle (every position is checked, as the set
 * builders check them). A call refused writes none of its outputs but its
 * counts. corners is 3 (the elements are triangles) or 4 (tets).
 *
 * Degenerate elements: a vertex repeated (XPBD_ERR_INDEX), a tet with
 * |6V| <= 1e-12 (longest edge from vertex 0)^3, the tet builder's own
 * rule, or a triangle with |(x1 - x0) x (x2 - x0)| <= 1e-12 (longest
 * edge)^2 (XPBD_ERR_DEGENERATE); with XPBD_MESH_SKIP_DEGENERATE they are
 * skipped and counted instead. An index out of range is never skipped. */

/* Flags of the topology functions and of xpbd_mesh_scene_options.flags. */
#define XPBD_MESH_SKIP_DEGENERATE 1u  /* skip degenerate elements and count them, instead of
                                         refusing the first */
#define XPBD_MESH_SKIP_NONMANIFOLD 2u /* give an edge of three or more triangles no stencil and
                                         count it, instead of refusing it */

/* The unique edges of elements (every pair of an element's corners; each
 * undirected edge once), as pairs (lower index, higher index) sorted by
 * lower then higher index: what xpbd_distance_set_build_* takes as i0, i1
 * (pairs[2e], pairs[2e + 1]). *count (required) receives the number of
 * edges; pairs NULL asks for the count only; with pairs, capacity is its
 * room in pairs (3 per triangle or 6 per tet is always enough: one call).
 * Allocates a workspace of 8 bytes per corner pair (3 per triangle, 6 per
 * tet), freed before it returns. Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT   count NULL, elem NULL with elements > 0, corners
 *                       not 3 or 4, particles or elements too large
 *   XPBD_ERR_INDEX      an index >= particles or repeated within an element
 *   XPBD_ERR_CAPACITY   capacity below *count (pairs not written)
 *   XPBD_ERR_NOMEM      (nothing written, *count 0) */
XPBD_API xpbd_status xpbd_mesh_edges(size_t particles, const uint32_t *elem, size_t elements,
                                     uint32_t corners, uint32_t *pairs, size_t capacity,
                                     size_t *count, size_t *bad_index);

/* Bending stencils of triangles: one per edge shared by exactly two
 * triangles, in the order of the edges (sorted by lower then higher index,
 * as xpbd_mesh_edges lists them), each as xpbd_bend_set_build_* takes it:
 *   stencil[4s + 0], [4s + 1]   the edge's ends a, b, in the order the
 *                               first triangle (the lower triangle index)
 *                               runs them: that triangle is (a, b, c)
 *                               up to rotation
 *   stencil[4s + 2]             c, the first triangle's opposite vertex
 *   stencil[4s + 3]             d, the second triangle's opposite vertex
 * Boundary edges (one triangle) get none. An edge of three or more
 * triangles, or of two with the same opposite vertex (a triangle given
 * twice), is non-manifold: refused with XPBD_ERR_TOPOLOGY (bad_index = the
 * first triangle that made it so, in input order; bad_edge[0], [1], may be
 * NULL, = the edge, lower index first), or with XPBD_MESH_SKIP_NONMANIFOLD
 * given no stencil and counted in *skipped (may be NULL; 0 without the
 * flag). *count (required), stencils and capacity (in stencils; 3/2 per
 * triangle is always enough) as for xpbd_mesh_edges. Allocates workspaces
 * (16 bytes per triangle corner and per stencil), freed before it returns.
 * Returns XPBD_OK; XPBD_ERR_ARGUMENT (count NULL, tri NULL with triangles
 * > 0, an unknown flag: only XPBD_MESH_SKIP_NONMANIFOLD is taken, sizes);
 * XPBD_ERR_INDEX; XPBD_ERR_TOPOLOGY; XPBD_ERR_CAPACITY (*count and
 * *skipped set, stencils not written); XPBD_ERR_NOMEM. */
XPBD_API xpbd_status xpbd_mesh_bends(size_t particles, const uint32_t *tri, size_t triangles,
                                     unsigned flags, uint32_t *stencils, size_t capacity,
                                     size_t *count, size_t *skipped, size_t *bad_index,
                                     uint32_t *bad_edge);

/* The rest dihedral angle of each bending stencil (a, b, c, d) from the
 * positions xyz: angle[s] = atan2(((n1 x n2) . e) / |e|, n1 . n2) in
 * (-pi, pi] (radians), e = b - a, n1 = e x (c - a) the normal of (a, b, c)
 * and n2 = (d - b) x e that of (b, a, d). 0 for a flat hinge (c and d on
 * either side of the edge, in one plane; exactly 0 when that plane is one
 * of constant x, y or z), pi for one folded shut; positive when the
 * surface bends away from the side n1 points to (convex seen from there:
 * every edge of a closed convex surface whose triangles run
 * counter-clockwise seen from outside, xpbd_mesh_box's, is positive),
 * negative when it bends towards it. The angle is the stencil's own: it
 * does not depend on how the second triangle is wound in the mesh. Computed
 * in double with IEEE operations and sqrt only (no libm atan2), so every
 * library and CPU gives the same bits. Never allocates. Returns XPBD_OK;
 * XPBD_ERR_ARGUMENT (NULL with count > 0, sizes); XPBD_ERR_POSITION
 * (bad_index = particle); XPBD_ERR_INDEX (an index out of range or repeated:
 * bad_index = stencil); XPBD_ERR_DEGENERATE (a triangle of the stencil with
 * a zero normal, or an angle not finite: bad_index = stencil). Nothing is
 * written on error. */
XPBD_API xpbd_status xpbd_mesh_dihedral_angles_f32(size_t particles, const float *xyz,
                                                   const uint32_t *stencil, size_t count,
                                                   float *angle, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_dihedral_angles_f64(size_t particles, const double *xyz,
                                                   const uint32_t *stencil, size_t count,
                                                   double *angle, size_t *bad_index);

/* Tets in place: each tet with negative signed volume (6V = (x1 - x0) .
 * ((x2 - x0) x (x3 - x0)) < 0) gets its last two vertices swapped, so that
 * every tet is positively oriented as the generators make them, and the
 * flips are counted in *flipped (required: a flip is never silent).
 * Degenerate tets (see above) are refused, the first in input order named
 * (XPBD_ERR_DEGENERATE, or XPBD_ERR_INDEX for a repeated vertex), or with
 * XPBD_MESH_SKIP_DEGENERATE removed: the tets that remain move up to keep
 * their order (the first tets - *skipped entries of tet[] and label[]
 * hold them), with label (may be NULL: no labels, [tets]) moved alongside,
 * and *skipped (required) counts the removed ones. Everything is checked
 * before anything is written: a refused call leaves tet[] and label[] as
 * they were, *flipped and *skipped 0. Never allocates. Returns XPBD_OK;
 * XPBD_ERR_ARGUMENT (NULL, unknown flag, sizes); XPBD_ERR_POSITION;
 * XPBD_ERR_INDEX; XPBD_ERR_DEGENERATE. */
XPBD_API xpbd_status xpbd_mesh_clean_tets_f32(size_t particles, const float *xyz, uint32_t *tet,
                                              size_t tets, int32_t *label, unsigned flags,
                                              size_t *flipped, size_t *skipped,
                                              size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_clean_tets_f64(size_t particles, const double *xyz, uint32_t *tet,
                                              size_t tets, int32_t *label, unsigned flags,
                                              size_t *flipped, size_t *skipped,
                                              size_t *bad_index);
/* The same for triangles (zero area or a repeated vertex), without any
 * reorientation: a triangle's winding is the file's. */
XPBD_API xpbd_status xpbd_mesh_clean_triangles_f32(size_t particles, const float *xyz,
                                                   uint32_t *tri, size_t triangles,
                                                   int32_t *label, unsigned flags,
                                                   size_t *skipped, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_clean_triangles_f64(size_t particles, const double *xyz,
                                                   uint32_t *tri, size_t triangles,
                                                   int32_t *label, unsigned flags,
                                                   size_t *skipped, size_t *bad_index);

/* Adds to mass[i] (kg, [particles], in double; zero it first) the mass of
 * every element i is a corner of: density * |V| for a tet (density in
 * kg/m^3) or density * area for a triangle (a surface density, kg/m^2),
 * split equally over its corners (a quarter or a third to each), in
 * element order. A degenerate element adds (next to) nothing. Never
 * allocates. Returns XPBD_OK; XPBD_ERR_ARGUMENT (NULL, corners not 3 or 4,
 * sizes); XPBD_ERR_CONFIG (density negative or not finite);
 * XPBD_ERR_POSITION; XPBD_ERR_INDEX (an index out of range; repeated ones
 * are fine). Nothing is added on error. */
XPBD_API xpbd_status xpbd_mesh_masses_f32(size_t particles, const float *xyz, const uint32_t *elem,
                                          size_t elements, uint32_t corners, double density,
                                          double *mass, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_masses_f64(size_t particles, const double *xyz,
                                          const uint32_t *elem, size_t elements,
                                          uint32_t corners, double density, double *mass,
                                          size_t *bad_index);
/* inv_mass[i] = 1 / mass[i], rounded to the precision; a particle of mass
 * 0 (in no element) gets inv_mass 0: static, it stays where the mesh put
 * it, and is counted in *massless (may be NULL). Never allocates. Returns
 * XPBD_OK; XPBD_ERR_ARGUMENT (NULL with particles > 0);
 * XPBD_ERR_INVERSE_MASS (a mass negative or not finite, or one whose
 * inverse is not a positive finite real of the precision: bad_index =
 * particle, nothing written). */
XPBD_API xpbd_status xpbd_mesh_inverse_masses_f32(size_t particles, const double *mass,
                                                  float *inv_mass, size_t *massless,
                                                  size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_inverse_masses_f64(size_t particles, const double *mass,
                                                  double *inv_mass, size_t *massless,
                                                  size_t *bad_index);

/* Comparisons of xpbd_mesh_select (1-based: a zeroed select is refused). */
typedef enum xpbd_mesh_compare {
    XPBD_MESH_LESS = 1,          /* coordinate <  value */
    XPBD_MESH_LESS_EQUAL = 2,    /* coordinate <= value */
    XPBD_MESH_GREATER = 3,       /* coordinate >  value */
    XPBD_MESH_GREATER_EQUAL = 4  /* coordinate >= value */
} xpbd_mesh_compare;

/* A selection of particles by one coordinate, e.g. y > 0.9:
 * {1, XPBD_MESH_GREATER, 0, 0.9}. With relative = 1, value is a fraction
 * of the particles' extent along the axis: the threshold is
 * (1 - value) * lowest + value * highest coordinate, exactly the highest
 * for 1 and the lowest for 0 ({1, XPBD_MESH_GREATER_EQUAL, 1, 1}: the top
 * layer, whatever the mesh's size). */
typedef struct xpbd_mesh_select {
    uint32_t axis;     /* 0 x, 1 y, 2 z */
    uint32_t compare;  /* xpbd_mesh_compare */
    uint32_t relative; /* 0: value in m; 1: a fraction of the extent */
    double value;
} xpbd_mesh_select;

/* Pinning: inv_mass[i] = 0 for every particle the selection takes (by its
 * position, compared in double), or for every corner of the elements whose
 * label is `which` (label: [elements], the file's numbers). *pinned (may be
 * NULL) counts the particles whose inverse mass this call changed to 0.
 * Never allocates. Each returns XPBD_OK; XPBD_SKIPPED when nothing was
 * selected (no particle matches, no element has the label: check it, a
 * misspelt group pins nothing); XPBD_ERR_ARGUMENT (NULL, corners not 3 or 4, sizes);
 * XPBD_ERR_CONFIG (select: an axis above 2, an unknown comparison, relative
 * not 0 or 1, value not finite); XPBD_ERR_POSITION (a position not finite:
 * bad_index = particle); XPBD_ERR_INDEX (an element's index out of range:
 * bad_index = element). Nothing is written on error. */
XPBD_API xpbd_status xpbd_mesh_pin_where_f32(size_t particles, const float *xyz,
                                             const xpbd_mesh_select *select, float *inv_mass,
                                             size_t *pinned, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_pin_where_f64(size_t particles, const double *xyz,
                                             const xpbd_mesh_select *select, double *inv_mass,
                                             size_t *pinned, size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_pin_label_f32(size_t particles, const uint32_t *elem,
                                             size_t elements, uint32_t corners,
                                             const int32_t *label, int32_t which,
                                             float *inv_mass, size_t *pinned,
                                             size_t *bad_index);
XPBD_API xpbd_status xpbd_mesh_pin_label_f64(size_t particles, const uint32_t *elem,
                                             size_t elements, uint32_t corners,
                                             const int32_t *label, int32_t which,
                                             double *inv_mass, size_t *pinned,
                                             size_t *bad_index);

/* ------------------------------------------------------ mesh to scene --- */

/* What xpbd_mesh_scene_build_* builds (xpbd_mesh_scene_options.build). */
#define XPBD_MESH_EDGES_FROM_TETS 1u      /* distance constraints on the tets' edges */
#define XPBD_MESH_EDGES_FROM_TRIANGLES 2u /* ... on the triangles' (with the above: the union) */
#define XPBD_MESH_VOLUME 4u               /* volume constraints on the tets */
#define XPBD_MESH_BENDING 8u              /* bending stencils on the triangles' inner edges */

typedef struct xpbd_mesh_scene_options {
    uint32_t build;          /* the bits above; 0: a mesh with tets gives
                                EDGES_FROM_TETS | VOLUME, one without gives
                                EDGES_FROM_TRIANGLES | BENDING */
    unsigned flags;          /* XPBD_MESH_SKIP_DEGENERATE, XPBD_MESH_SKIP_NONMANIFOLD */
    double density;          /* kg/m^3, > 0: the masses of a mesh with tets, from its tets */
    double surface_density;  /* kg/m^2, > 0: the masses of a mesh without tets, from its
                                triangles */
    double edge_alpha, tet_alpha, bend_alpha; /* compliances for the scene (xpbd_scene_f32) */
    uint32_t one_body;       /* 1: the scene is one body (it may sleep); 0: free particles */
    size_t pin_labels;
    const int32_t *pin_label; /* [pin_labels]: every corner of a tet or triangle with one of
                                 these labels is pinned (each must be found) */
    size_t pin_wheres;
    const xpbd_mesh_select *pin_where; /* [pin_wheres]: and every particle these select */
} xpbd_mesh_scene_options;

/* The place of an xpbd_mesh_scene_build_* error (bad_part; bad_index is
 * the element, particle or option entry, SIZE_MAX for none). */
typedef enum xpbd_mesh_part {
    XPBD_MESH_PART_NONE = 0,      /* the arguments or the mesh's sizes */
    XPBD_MESH_PART_PARTICLE = 1,  /* a position (not finite, or not in float for _f32) */
    XPBD_MESH_PART_TRIANGLE = 2,  /* a triangle of the mesh (bad_edge: a non-manifold edge) */
    XPBD_MESH_PART_TET = 3,       /* a tet of the mesh */
    XPBD_MESH_PART_OPTIONS = 4,   /* a field of the options */
    XPBD_MESH_PART_PIN_LABEL = 5, /* pin_label[bad_index]: no element has it */
    XPBD_MESH_PART_PIN_WHERE = 6  /* pin_where[bad_index] */
} xpbd_mesh_part;

/* An engine scene built from a mesh, with the arrays it points to: the
 * struct owns them (freed by xpbd_mesh_scene_free_*), the engine copies
 * them at create. The host may set further fields of `scene` (radius,
 * planes, tethers, colouring, ...) before creating the engine. */
typedef struct xpbd_mesh_scene_f32 {
    xpbd_scene_f32 scene;     /* for xpbd_engine_create_f32 */
    float *xyz;               /* [3 * particles] the mesh's positions */
    float *inv_mass;          /* [particles] from the densities, pins applied */
    uint32_t *edge;           /* [2 * scene.edges] xpbd_mesh_edges' order */
    uint32_t *tet;            /* [4 * scene.tets] positively oriented, the mesh's order */
    uint32_t *bend;           /* [4 * scene.bends] xpbd_mesh_bends' stencils */
    float *rest_angle;        /* [scene.bends] their rest dihedral angles (rad) */
    size_t body_begin[2];     /* one_body: 0, particles */
    /* what the build did */
    size_t flipped;           /* tets reoriented */
    size_t skipped_tets, skipped_triangles; /* degenerate, skipped (SKIP_DEGENERATE) */
    size_t skipped_hinges;    /* non-manifold edges without a stencil (SKIP_NONMANIFOLD) */
    size_t massless;          /* particles in no element that has mass: static (w = 0) */
    size_t pinned;            /* particles the pins made static */
    double max_rest_angle;    /* max |rest_angle|: the isometric bending model
                                 (xpbd/softbody.h) takes the rest shape as flat */
    /* where it failed */
    xpbd_mesh_part bad_part;
    size_t bad_index;
    uint32_t bad_edge[2];     /* a non-manifold edge (XPBD_ERR_TOPOLOGY) */
} xpbd_mesh_scene_f32;

typedef struct xpbd_mesh_scene_f64 {
    xpbd_scene_f64 scene;
    double *xyz;
    double *inv_mass;
    uint32_t *edge;
    uint32_t *tet;
    uint32_t *bend;
    double *rest_angle;
    size_t body_begin[2];
    size_t flipped;
    size_t skipped_tets, skipped_triangles;
    size_t skipped_hinges;
    size_t massless;
    size_t pinned;
    double max_rest_angle;
    xpbd_mesh_part bad_part;
    size_t bad_index;
    uint32_t bad_edge[2];
} xpbd_mesh_scene_f64;

/* The engine scene of a loaded mesh in one call:
 *
 *     const xpbd_mesh_select top = {1, XPBD_MESH_GREATER_EQUAL, 1, 1};
 *     xpbd_mesh_scene_options o = {0};
 *     o.density = 1000;                         // kg/m^3
 *     o.edge_alpha = 1e-6;                      // m/N
 *     o.pin_wheres = 1, o.pin_where = &top;     // hang it by its top layer
 *     xpbd_mesh_scene_f32 s;
 *     if (xpbd_mesh_scene_build_f32(&s, &mesh, &o) != XPBD_OK)
 *         return 1;                             // s.bad_part, s.bad_index say where
 *     st = xpbd_engine_create_f32(&eng, &s.scene, &cfg, NULL, &where);
 *     xpbd_mesh_scene_free_f32(&s);             // the engine has its copy
 *
 * It runs, in this order:
 *   1. positions copied (for _f32 rounded to float)
 *   2. tets oriented (xpbd_mesh_clean_tets_*) and, when the build or the
 *      masses use them, triangles cleaned (xpbd_mesh_clean_triangles_*),
 *      with options.flags' XPBD_MESH_SKIP_DEGENERATE
 *   3. edges (xpbd_mesh_edges) of the tets and/or triangles, tets
 *      (XPBD_MESH_VOLUME), bending stencils of the triangles and their rest
 *      angles (xpbd_mesh_bends, with XPBD_MESH_SKIP_NONMANIFOLD;
 *      xpbd_mesh_dihedral_angles_*), as options.build says
 *   4. inverse masses from the tets with options.density when the mesh
 *      has tets, else from the triangles with options.surface_density
 *      (xpbd_mesh_masses_*, xpbd_mesh_inverse_masses_*: a particle in no
 *      such element is static), then the pins (xpbd_mesh_pin_label_* over
 *      the tets and the triangles, xpbd_mesh_pin_where_*)
 *   5. out->scene: particles, xyz, inv_mass, edges, tets, bends, the three
 *      compliances, one body or none; everything else zero (no radii, no
 *      planes, rest shape = xyz, rest lengths from it)
 * The triangles of a mesh with tets (its surface, with the file's labels)
 * are used for pins only unless the build asks for their edges or bends.
 * Allocates out's arrays (freed by xpbd_mesh_scene_free_*) and workspaces
 * freed before it returns. *out is zeroed first; on error every array is
 * freed and out holds the place only (bad_part, bad_index, bad_edge), the
 * statuses those of the steps above:
 *   XPBD_ERR_ARGUMENT     out, m or o NULL, a NULL array with a count, no
 *                         particles, sizes (NONE), pin_label or pin_where
 *                         NULL with a count (OPTIONS)
 *   XPBD_ERR_CONFIG       build or flags with an unknown bit, one_body not
 *                         0 or 1, the density needed not finite and > 0
 *                         (OPTIONS); pin_where[k] (PIN_WHERE/k); no tet or
 *                         triangle has pin_label[k] (PIN_LABEL/k)
 *   XPBD_ERR_COMPLIANCE   an alpha negative or not finite (OPTIONS)
 *   XPBD_ERR_POSITION     (PARTICLE/particle)
 *   XPBD_ERR_INDEX, XPBD_ERR_DEGENERATE   (TET/tet or TRIANGLE/triangle: the
 *                         mesh's own index)
 *   XPBD_ERR_TOPOLOGY     (TRIANGLE/triangle, bad_edge)
 *   XPBD_ERR_INVERSE_MASS (PARTICLE/particle: a mass beyond the precision)
 *   XPBD_ERR_NOMEM */
XPBD_API xpbd_status xpbd_mesh_scene_build_f32(xpbd_mesh_scene_f32 *out, const xpbd_mesh_data *m,
                                               const xpbd_mesh_scene_options *o);
XPBD_API xpbd_status xpbd_mesh_scene_build_f64(xpbd_mesh_scene_f64 *out, const xpbd_mesh_data *m,
                                               const xpbd_mesh_scene_options *o);
/* Frees every array of *s and zeroes it; NULL or a zeroed struct is fine. */
XPBD_API void xpbd_mesh_scene_free_f32(xpbd_mesh_scene_f32 *s);
XPBD_API void xpbd_mesh_scene_free_f64(xpbd_mesh_scene_f64 *s);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_MESH_H */
