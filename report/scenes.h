/* SPDX-License-Identifier: MIT */
/* scenes.h: the reference scenes of S0-S1 and S3 as a small internal
 * library that xpbd-report, xpbd-bench and the tests link (target
 * xpbd_scenes), so a scene the report shows and the test that asserts on it
 * are built by the same code.
 *
 * A world owns its particle arrays, its built constraint set and the step
 * scratch, all in double (f64) or float (f32). The S3 scenes (generated
 * meshes, the tet cube, a host-integrated rigid box) run on the engine of
 * xpbd/engine.h in double. Units are SI. */
#ifndef XPBD_SCENES_H
#define XPBD_SCENES_H

#include <xpbd/xpbd.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XS_G 9.81

typedef struct xs_world_f64 {
    xpbd_particles_f64 p;
    xpbd_distance_set_f64 set;
    void *scratch;
    size_t scratch_bytes;
    double *block_;          /* particle arrays */
} xs_world_f64;

typedef struct xs_world_f32 {
    xpbd_particles_f32 p;
    xpbd_distance_set_f32 set;
    void *scratch;
    size_t scratch_bytes;
    float *block_;
} xs_world_f32;

/* Allocates n particles at rest at the origin, w = 1, then builds the set
 * from m constraints (rest/compliance per constraint). Returns the builder's
 * status. Positions are set by the caller (or a scene function) afterwards;
 * when rest is NULL the rest lengths are taken from the positions given in
 * xyz (3*n values, may be NULL only if rest is given). */

xpbd_status xs_world_init_f64(xs_world_f64 *w, size_t n, const double *xyz, size_t m,
                              const uint32_t *i0, const uint32_t *i1, const double *rest,
                              const double *compliance);
xpbd_status xs_world_init_f32(xs_world_f32 *w, size_t n, const float *xyz, size_t m,
                              const uint32_t *i0, const uint32_t *i1, const float *rest,
                              const float *compliance);
void xs_world_free_f64(xs_world_f64 *w);
void xs_world_free_f32(xs_world_f32 *w);

/* the hanging chain (S1): n particles hanging straight down along -y from particle 0
 * at the origin (w = 0), spacing L0 (initially at rest length), m = 1 kg each
 * (w = 1), n - 1 links of compliance alpha (m/N). */
xpbd_status xs_chain_f64(xs_world_f64 *w, int n, double L0, double alpha);
xpbd_status xs_chain_f32(xs_world_f32 *w, int n, float L0, float alpha);
/* Sum over links of (|x_{i+1} - x_i| - L0): the chain's total stretch (m). */
double xs_chain_stretch_f64(const xs_world_f64 *w, double L0);
double xs_chain_stretch_f32(const xs_world_f32 *w, float L0);
/* Closed-form static stretch m*g*N(N-1)/2*alpha (the hanging chain and cloth (S1)). */
double xs_chain_stretch_closed(int n, double mass, double alpha);

/* the cloth (S1): nx x ny grid in the x-y plane hanging from its top row's two
 * corners (w = 0), spacing d, structural links along rows and columns
 * (nx-1)*ny + nx*(ny-1) of them; with shear != 0 both diagonals of every quad
 * as well. flat != 0 lays the grid in the horizontal x-z plane instead
 * (the bench cloth). */
xpbd_status xs_cloth_f64(xs_world_f64 *w, int nx, int ny, double d, double alpha, int shear,
                         int flat);
xpbd_status xs_cloth_f32(xs_world_f32 *w, int nx, int ny, float d, float alpha, int shear,
                         int flat);
/* Rebuilds a world's set with the colouring options opt (its constraints in
 * their input order, lambda back to 0) and resizes the scratch to match. On
 * failure the world is unchanged. */
xpbd_status xs_world_recolour_f64(xs_world_f64 *w, const xpbd_colouring_options *opt);
xpbd_status xs_world_recolour_f32(xs_world_f32 *w, const xpbd_colouring_options *opt);

/* The scene of a world for the engine (xpbd/engine.h): its particles
 * (positions, previous positions, velocities, inverse masses) and its
 * constraints in the builder's input order (from source[]), with their
 * rest lengths and compliances, default colouring: the engine built from
 * it holds the same set as the world and steps it bit for bit alike.
 * out points into one block, *block (free() it). XPBD_ERR_NOMEM or OK. */
xpbd_status xs_world_scene_f64(const xs_world_f64 *w, xpbd_scene_f64 *out, void **block);
xpbd_status xs_world_scene_f32(const xs_world_f32 *w, xpbd_scene_f32 *out, void **block);

/* ------------------------------------------------------------ soft bodies (S3) --- */

/* A generated mesh (xpbd/mesh.h, double positions) owning every array the
 * generators can fill. */
typedef struct xs_mesh {
    xpbd_mesh_counts k;
    double *xyz;
    uint32_t *edges, *shear, *bends, *tets, *tris;
} xs_mesh;

/* Allocates the arrays for the counts in m->k (one spare element each, so
 * an empty kind is still a valid pointer) and points *o at them, capacity
 * m->k, absent kinds NULL. Returns 1, or 0 if an allocation failed
 * (xs_mesh_free frees what was allocated). */
int xs_mesh_alloc(xs_mesh *m, xpbd_mesh_out *o);
void xs_mesh_free(xs_mesh *m);
/* n x n x n cubes of edge d, lowest corner at o, tets_per_cube 5 or 6
 * (xpbd_mesh_box). Returns 1 on success. */
int xs_mesh_box(xs_mesh *m, uint32_t n, double d, const double o[3], uint32_t tets_per_cube);
/* nx x ny cloth of spacing d, particle (0, 0) at o, rows along u and
 * columns along v (NULL: the generator's default axes). Returns 1 on
 * success. */
int xs_mesh_cloth(xs_mesh *m, uint32_t nx, uint32_t ny, double d, const double o[3],
                  const double *u, const double *v);
/* The structural edges followed by the shear edges, one malloc'd array of
 * 2 * (k.edges + k.shear) indices (NULL when out of memory): a cloth's
 * distance constraints as the engine takes them. */
uint32_t *xs_mesh_all_edges(const xs_mesh *m);

/* A cloth mesh as an engine scene: its particles with inverse masses w,
 * the distance constraints `edges` (2 * (k.edges + k.shear) indices, as
 * xs_mesh_all_edges gives them) of compliance edge_alpha, its bending
 * stencils of compliance bend_alpha; no radii, tethers, bodies or planes. */
xpbd_scene_f64 xs_cloth_scene(const xs_mesh *m, const double *w, const uint32_t *edges,
                              double edge_alpha, double bend_alpha);

/* a . (b x c) */
double xs_det3(const double a[3], const double b[3], const double c[3]);
double xs_norm3(const double v[3]);
/* Signed volume of nt tets (4 indices each) over a particle set. */
double xs_tets_volume(const xpbd_particles_f64 *p, const uint32_t *tets, size_t nt);
/* Lowest and highest y of particles [b0, b1). */
double xs_min_y(const xpbd_particles_f64 *p, size_t b0, size_t b1);
double xs_max_y(const xpbd_particles_f64 *p, size_t b0, size_t b1);
/* Mass-weighted centre (c) and momentum (mom) of the particles [b0, b1)
 * with w > 0, either may be NULL; returns their mass. */
double xs_com(const xpbd_particles_f64 *p, size_t b0, size_t b1, double c[3], double mom[3]);
/* Angular momentum of the particles [b0, b1) with w > 0 about their centre
 * of mass. */
void xs_angular(const xpbd_particles_f64 *p, size_t b0, size_t b1, double L[3]);

/* Steps frames of 1/60 s; 1 if every step succeeded (status >= 0). */
int xs_run(xpbd_engine_f64 *e, int frames);
/* Connected components of the engine's distance constraints over all its
 * particles (a particle with no edge is one); 0 if out of memory. */
size_t xs_components(const xpbd_engine_f64 *e);

/* Hinge vertices of the engine's topology: vertices whose neighbours
 * (through edges and tets), joined when an edge or a tet joins them, fall
 * into two or more groups of at least two (two pieces of material meeting
 * at one particle; a lone edge hanging off a vertex does not count).
 * flags (may be NULL, [particles]) gets 1 at each hinge vertex. SIZE_MAX if
 * out of memory. */
size_t xs_hinges(const xpbd_engine_f64 *e, uint8_t *flags);

/* A pile of soft bodies on the ground (the sleeping scenes): `bodies`
 * copies of the tet box m (its edges and tets), copy b moved by off[3b ..
 * 3b + 2] with inverse mass w[b] for each of its particles, every particle
 * a contact radius r, each copy one body, the plane y = 0, room for 4
 * contacts per particle. s is the engine scene; the pile owns its arrays
 * (do not copy it: s points into it). */
typedef struct xs_pile_f64 {
    double *xyz, *w, *r;
    uint32_t *edge, *tet;
    size_t *begin;
    xpbd_plane ground;
    xpbd_scene_f64 s;
} xs_pile_f64;

typedef struct xs_pile_f32 {
    float *xyz, *w, *r;
    uint32_t *edge, *tet;
    size_t *begin;
    xpbd_plane ground;
    xpbd_scene_f32 s;
} xs_pile_f32;

/* Returns 1, or 0 if out of memory (xs_pile_*_free still frees what was
 * made). Edge and tet compliance as given. */
int xs_pile_make_f64(xs_pile_f64 *p, const xs_mesh *m, uint32_t bodies, const double *off,
                     const double *w, double r, double edge_alpha, double tet_alpha);
int xs_pile_make_f32(xs_pile_f32 *p, const xs_mesh *m, uint32_t bodies, const double *off,
                     const double *w, double r, double edge_alpha, double tet_alpha);
void xs_pile_free_f64(xs_pile_f64 *p);
void xs_pile_free_f32(xs_pile_f32 *p);

/* The tearing curtain (soft bodies (S3) topology memo): a 12 x 8 cloth of 5 cm
 * spacing hanging in the x-y plane from its top row (pinned; 20 g per other
 * particle), stretch and shear edges of compliance 1e-5 m/N, bending 1e-3,
 * 8 iterations, torn beyond 30% stretch. Each xs_curtain_frame drags the top
 * row's left half 1 cm left and its right half 1 cm right, then steps 1/60
 * s. keep_hinges as in xpbd_engine_options (0: tears split vertices). */
typedef struct xs_curtain {
    xs_mesh m;
    double *w;
    uint32_t *edges;
    xpbd_engine_f64 *e;
} xs_curtain;

enum { XS_CURTAIN_NX = 12, XS_CURTAIN_NY = 8 };

/* Returns 1, or 0 on failure (xs_curtain_free still frees what was made). */
int xs_curtain_make(xs_curtain *c, int keep_hinges);
/* The pulls and one step: the step's status (or XPBD_ERR_ARGUMENT if a pull
 * was refused). */
xpbd_status xs_curtain_frame(xs_curtain *c);
void xs_curtain_free(xs_curtain *c);

/* The S3 tet cube: n^3 cells of 0.1 m (6 tets each), 0.1 kg per particle
 * (w = 10), edges of compliance alpha_e (m/N), tets (if volume) of
 * compliance alpha_t. pin_top pins the top layer (w = 0); ground gives
 * every particle the contact radius `radius` and adds the plane y = 0.
 * One body. */
typedef struct xs_cube_desc {
    uint32_t n;
    double origin[3];        /* lowest corner */
    double alpha_e, alpha_t;
    int volume, pin_top;
    double radius;
    int ground;
    xpbd_step_config cfg;
    xpbd_engine_options opt;
} xs_cube_desc;

typedef struct xs_cube {
    xs_mesh m;
    xpbd_engine_f64 *e;
    double *w, *r;           /* the inverse masses and radii it was made with */
    double V0;               /* rest volume of its tets */
} xs_cube;

/* n = 3, alpha_e = 1e-2, alpha_t = 0, volume on, the default step
 * configuration; nothing pinned, no ground. */
xs_cube_desc xs_cube_default(void);
/* Returns 1, or 0 on failure (xs_cube_free still frees what was made). */
int xs_cube_make(xs_cube *c, const xs_cube_desc *d);
void xs_cube_free(xs_cube *c);
/* The cube's particles (its w), edges of compliance edge_alpha and, if
 * volume, its tets of compliance tet_alpha, as an engine scene: no radii,
 * bodies or planes. */
xpbd_scene_f64 xs_cube_scene(const xs_cube *c, double edge_alpha, int volume, double tet_alpha);
/* Sag of the cube of *base hung from its top layer (solver, k_s,
 * iterations; 1% damping per frame to settle) after `frames` frames: how
 * far its lowest particle fell (m); NAN if it could not be built or a step
 * failed. volume_ratio (may be NULL) receives V/V0 at the end. */
double xs_cube_hanging_sag(const xs_cube_desc *base, xpbd_solver solver, double ks,
                           uint32_t iterations, int frames, double *volume_ratio);

/* A free rigid box for the coupling scenes, integrated by the host
 * (symplectic Euler, no gravity): the body, its velocity and angular
 * velocity, its mass. */
typedef struct xs_box_body {
    xpbd_rigid_f64 rb;
    double v[3], w[3], mass;
} xs_box_body;

/* A solid cube of the given mass and half extent at centre, at rest. */
void xs_box_body_init(xs_box_body *b, double mass, const double centre[3], double half);
/* One frame of 1/60 s: the soft body's step, the two-way coupling with the
 * box, the box's response (the host's integrator). Adds the impulse to
 * *sum (may be NULL) and returns the coupling's contacts, UINT32_MAX if the
 * step or the coupling failed. */
uint32_t xs_couple_frame(xpbd_engine_f64 *e, xs_box_body *b, xpbd_rigid_impulse *sum);

#ifdef __cplusplus
}
#endif

#endif
