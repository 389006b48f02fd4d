/* scenes.h: the reference scenes of SPEC S0-S1 as a small internal library
 * that xpbd-report, xpbd-bench and the tests link (target xpbd_scenes).
 *
 * A world owns its particle arrays, its built constraint set and the step
 * scratch, all in double (f64) or float (f32). Units are SI. */
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
xpbd_status xs_world_f64_init(xs_world_f64 *w, size_t n, const double *xyz, size_t m,
                              const uint32_t *i0, const uint32_t *i1, const double *rest,
                              const double *compliance);
xpbd_status xs_world_f32_init(xs_world_f32 *w, size_t n, const float *xyz, size_t m,
                              const uint32_t *i0, const uint32_t *i1, const float *rest,
                              const float *compliance);
void xs_world_f64_free(xs_world_f64 *w);
void xs_world_f32_free(xs_world_f32 *w);

/* SPEC S1 chain: n particles hanging straight down along -y from particle 0
 * at the origin (w = 0), spacing L0 (initially at rest length), m = 1 kg each
 * (w = 1), n - 1 links of compliance alpha (m/N). */
xpbd_status xs_chain_f64(xs_world_f64 *w, int n, double L0, double alpha);
xpbd_status xs_chain_f32(xs_world_f32 *w, int n, float L0, float alpha);
/* Sum over links of (|x_{i+1} - x_i| - L0): the chain's total stretch (m). */
double xs_chain_stretch_f64(const xs_world_f64 *w, double L0);
double xs_chain_stretch_f32(const xs_world_f32 *w, float L0);
/* Closed-form static stretch m*g*N(N-1)/2*alpha (SPEC S1). */
double xs_chain_stretch_closed(int n, double mass, double alpha);

/* SPEC S1 cloth: nx x ny grid in the x-y plane hanging from its top row's two
 * corners (w = 0), spacing d, structural links along rows and columns
 * (nx-1)*ny + nx*(ny-1) of them; with shear != 0 both diagonals of every quad
 * as well. flat != 0 lays the grid in the horizontal x-z plane instead
 * (the bench cloth). */
xpbd_status xs_cloth_f64(xs_world_f64 *w, int nx, int ny, double d, double alpha, int shear,
                         int flat);
xpbd_status xs_cloth_f32(xs_world_f32 *w, int nx, int ny, float d, float alpha, int shear,
                         int flat);

#ifdef __cplusplus
}
#endif

#endif
