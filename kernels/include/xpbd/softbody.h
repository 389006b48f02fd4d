/* SPDX-License-Identifier: MIT */
/* xpbd/softbody.h: volumetric soft bodies and cloth (SPEC S3).
 *
 * Four-particle XPBD constraints with an accumulated lambda, coloured and
 * batched like distance constraints (no two constraints of a colour share a
 * particle), solved on the packed position copy q (xpbd/kernels.h):
 *
 *   tetrahedral volume   e_k = x_k - x0 (k = 1..3)
 *                        g1 = e2 x e3,  g2 = e3 x e1,  g3 = e1 x e2,
 *                        g0 = -((g1 + g2) + g3)          (gradients of 6V)
 *                        C = e1.g1 - rest                (rest = 6 * rest volume)
 *                        S = ((w0|g0|^2 + w1|g1|^2) + w2|g2|^2) + w3|g3|^2
 *                        L2 = (|e1|^2 + |e2|^2) + |e3|^2
 *                        skip if S <= (1e-6 * (((w0 + w1) + w2) + w3)) * (L2*L2)
 *                        (collapsed onto a point or a line: the gradients
 *                        vanish but C does not; counted, never NaN or a
 *                        runaway step)
 *                        dl = (-C - at*lambda) / (S + at);  x_k += (w_k*dl)*g_k
 *   isometric bending    H = ((K0 x0 + K1 x1) + K2 x2) + K3 x3 over an edge
 *                        (x0, x1) and its opposite vertices (x2, x3), with
 *                        cotangent weights K and scale s from the flat rest
 *                        shape (Bergou et al. 2006): C = (s/2)|H|^2,
 *                        grad_k = (s K_k) H,
 *                        S = s^2 |H|^2 (((w0 K0^2 + w1 K1^2) + w2 K2^2) + w3 K3^2)
 *                        skip if S == 0 (flat: nothing to do)
 *                        dl = (-C - at*lambda) / (S + at);  x_k += ((w_k*s*K_k)*dl)*H
 *
 * with at = compliance * (1/(h*h)) as for distances. A compliance has the
 * units of C^2 per joule (the energy is C^2 / (2 * compliance)): a tet's C
 * is a volume (m^3), so its compliance is in m^5/N (metres to the fifth
 * per newton); a bending stencil's C is a pure number (s is 1/m^2, |H|^2
 * is m^2), so its compliance is in 1/(N m), per joule (a distance's: m/N).
 * Per-particle kernels:
 *
 *   tethers              long-range attachments: particle i may not move
 *                        further than length[i] from its static anchor
 *                        anchor[i] (w = 0); unilateral, full projection
 *   relative damping     removes a fraction k of every particle's velocity
 *                        relative to the body's rigid motion v_cm + w x r:
 *                        linear and angular momentum are preserved (to
 *                        rounding), so a thrown body keeps flying
 *   rigid coupling       particles against a host's rigid sphere or box:
 *                        pushed out along the contact normal, the correction
 *                        split between particle (w) and body (generalised
 *                        inverse mass at the contact point), and the impulse
 *                        j = dx / ((w + w_body) h) returned to the host as a
 *                        total linear and angular impulse on the body: the
 *                        two momentum changes are equal and opposite
 */
#ifndef XPBD_SOFTBODY_H
#define XPBD_SOFTBODY_H

#include "xpbd/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A coloured set of four-particle constraints (tetrahedra or bending
 * stencils); same layout rules as xpbd_distance_set_*. coef holds per slot
 * what the kind needs: tets use rest (6 * rest volume, signed); bending uses
 * k0..k3 and scale. */
typedef struct xpbd_quad_set_f32 {
    uint32_t count, slots, colours;
    uint32_t *colour_begin;  /* [colours + 1] */
    uint32_t *colour_size;   /* [colours] */
    uint32_t overflow_begin;
    uint32_t *i0, *i1, *i2, *i3;
    float *rest;             /* tets: 6 * rest volume (m^3) */
    float *k0, *k1, *k2, *k3, *scale; /* bending: cotangent weights and 3/(A0 + A1) (1/m^2) */
    float *compliance;       /* tets: m^5/N (C = 6V - rest, m^3); bending: 1/(N m) */
    float *lambda;
    uint32_t *source;        /* input index, XPBD_PAD for padding */
    void *block_;
} xpbd_quad_set_f32;

typedef struct xpbd_quad_set_f64 {
    uint32_t count, slots, colours;
    uint32_t *colour_begin;
    uint32_t *colour_size;
    uint32_t overflow_begin;
    uint32_t *i0, *i1, *i2, *i3;
    double *rest;
    double *k0, *k1, *k2, *k3, *scale;
    double *compliance;
    double *lambda;
    uint32_t *source;
    void *block_;
} xpbd_quad_set_f64;

/* Builds a tetrahedron set from count tets (4 indices each, idx[4*t + k],
 * compliance[t] in m^5/N) and the rest positions xyz (3 per particle).
 * Allocates the set's arrays as one block, freed by xpbd_quad_set_free_*,
 * and a workspace freed before it returns; on error nothing is allocated
 * and *out is zeroed. Rest volumes are computed here; a tet with
 * |6V| <= 1e-12 * (longest edge)^3 is rejected:
 *   XPBD_ERR_DEGENERATE   zero rest volume (bad_index = tet)
 *   XPBD_ERR_INDEX        index out of range or repeated within a tet
 *   XPBD_ERR_COMPLIANCE   compliance < 0 or not finite
 *   XPBD_ERR_POSITION     a rest position is not finite
 *   XPBD_ERR_ARGUMENT, XPBD_ERR_CONFIG, XPBD_ERR_NOMEM as for distance sets */
XPBD_API xpbd_status xpbd_tet_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz,
                                            size_t count, const uint32_t *idx,
                                            const float *compliance,
                                            const xpbd_colouring_options *options,
                                            size_t *bad_index);
XPBD_API xpbd_status xpbd_tet_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                            size_t count, const uint32_t *idx,
                                            const double *compliance,
                                            const xpbd_colouring_options *options,
                                            size_t *bad_index);
/* Builds a bending set from count stencils idx[4*b + 0..3] = edge end 0, edge
 * end 1, opposite vertex of the first triangle, opposite vertex of the
 * second (compliance[b] in 1/(N m)), with weights from the rest positions
 * (which should be flat). Allocates as xpbd_tet_set_build_* does.
 * XPBD_ERR_DEGENERATE for a stencil with a zero-area triangle. */
XPBD_API xpbd_status xpbd_bend_set_build_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz,
                                             size_t count, const uint32_t *idx,
                                             const float *compliance,
                                             const xpbd_colouring_options *options,
                                             size_t *bad_index);
XPBD_API xpbd_status xpbd_bend_set_build_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                             size_t count, const uint32_t *idx,
                                             const double *compliance,
                                             const xpbd_colouring_options *options,
                                             size_t *bad_index);
/* Checks a set against a particle count (as the step does every step):
 * layout consistent, indices in range and distinct, compliance >= 0 finite,
 * lambda finite, coefficients finite, padding slots intact, and no particle
 * used by two slots of one colour. stamp: caller scratch of n entries,
 * contents ignored and overwritten (NULL allowed for a set without colours;
 * see xpbd_distance_set_validate_f32). *bad_index names the slot:
 *   XPBD_ERR_ARGUMENT     c or an array NULL, stamp NULL with colours, or an
 *                         inconsistent layout (bad_index unset)
 *   XPBD_ERR_INDEX        index >= n or repeated within the slot, padding
 *                         changed, or a particle repeated within a colour
 *                         (the first slot using a particle an earlier
 *                         slot of its colour uses; checked last)
 *   XPBD_ERR_COMPLIANCE   compliance < 0 or not finite
 *   XPBD_ERR_LAMBDA       lambda not finite
 *   XPBD_ERR_REST         rest, k0..k3 or scale not finite */
XPBD_API xpbd_status xpbd_quad_set_validate_f32(const xpbd_quad_set_f32 *c, size_t n,
                                                uint32_t *stamp, size_t *bad_index);
XPBD_API xpbd_status xpbd_quad_set_validate_f64(const xpbd_quad_set_f64 *c, size_t n,
                                                uint32_t *stamp, size_t *bad_index);
/* Frees what a builder allocated for a set and zeroes it. NULL and zeroed
 * sets are fine. */
XPBD_API void xpbd_quad_set_free_f32(xpbd_quad_set_f32 *set);
XPBD_API void xpbd_quad_set_free_f64(xpbd_quad_set_f64 *set);

/* A host's rigid body, as the coupling kernel sees it during one substep. */
typedef struct xpbd_rigid_f64 {
    int shape;                 /* XPBD_RIGID_SPHERE or XPBD_RIGID_BOX */
    double centre[3];          /* m */
    double rot[9];             /* row-major world-from-body rotation (box) */
    double half[3];            /* box half extents; sphere: half[0] = radius (m) */
    double inv_mass;           /* 1/kg; 0 = kinematic (infinite mass) */
    double inv_inertia[9];     /* world-space inverse inertia tensor, row-major */
} xpbd_rigid_f64;

#define XPBD_RIGID_SPHERE 0
#define XPBD_RIGID_BOX 1

/* What the coupling returns for the host to apply to its body. */
typedef struct xpbd_rigid_impulse {
    double linear[3];          /* N*s, on the body */
    double angular[3];         /* N*m*s about the body's centre */
    uint32_t contacts;         /* particles that touched */
} xpbd_rigid_impulse;

typedef struct xpbd_softbody_kernels_f32 {
    xpbd_isa isa;
    unsigned lanes;
    /* return the number of real constraints skipped (S == 0) */
    uint32_t (*tet_volume)(float *q, const xpbd_quad_set_f32 *c, uint32_t colour,
                           uint32_t batch_begin, uint32_t batch_end, float h);
    uint32_t (*bending)(float *q, const xpbd_quad_set_f32 *c, uint32_t colour,
                        uint32_t batch_begin, uint32_t batch_end, float h);
    /* returns the number of tethers that were taut */
    uint32_t (*tethers)(float *q, const uint32_t *anchor, const float *length, size_t begin,
                        size_t end);
} xpbd_softbody_kernels_f32;

typedef struct xpbd_softbody_kernels_f64 {
    xpbd_isa isa;
    unsigned lanes;
    uint32_t (*tet_volume)(double *q, const xpbd_quad_set_f64 *c, uint32_t colour,
                           uint32_t batch_begin, uint32_t batch_end, double h);
    uint32_t (*bending)(double *q, const xpbd_quad_set_f64 *c, uint32_t colour,
                        uint32_t batch_begin, uint32_t batch_end, double h);
    uint32_t (*tethers)(double *q, const uint32_t *anchor, const double *length, size_t begin,
                        size_t end);
} xpbd_softbody_kernels_f64;

XPBD_API const xpbd_softbody_kernels_f32 *xpbd_softbody_kernels_get_f32(xpbd_isa isa);
XPBD_API const xpbd_softbody_kernels_f64 *xpbd_softbody_kernels_get_f64(xpbd_isa isa);

/* Relative-motion damping of the body made of particles [begin, end):
 * v_i += k * ((v_cm + omega x r_i) - v_i), k in [0, 1], with omega from the
 * body's angular momentum and inertia about its centre of mass (a singular
 * inertia, e.g. a single particle or a line, damps the linear part only).
 * Sums run in double in index order: the result does not depend on the ISA.
 * XPBD_ERR_CONFIG for k outside [0, 1]; XPBD_SKIPPED for a body without
 * mass. */
XPBD_API xpbd_status xpbd_damp_relative_f32(const xpbd_particles_f32 *p, size_t begin, size_t end,
                                            double k);
XPBD_API xpbd_status xpbd_damp_relative_f64(const xpbd_particles_f64 *p, size_t begin, size_t end,
                                            double k);

/* Two-way coupling of particles [begin, end) (radius per particle) with a
 * host rigid body, on the packed positions q after a substep's projection;
 * h is the substep length. Each touching particle is moved out by its share
 * w/(w + w_body) of the penetration and the opposite impulse is accumulated
 * into *out (zeroed first) for the host to apply to the body. Sums in double
 * in index order. */
XPBD_API xpbd_status xpbd_couple_rigid_f32(float *q, const xpbd_particles_f32 *p,
                                           const float *radius, size_t begin, size_t end,
                                           const xpbd_rigid_f64 *body, double h,
                                           xpbd_rigid_impulse *out);
XPBD_API xpbd_status xpbd_couple_rigid_f64(double *q, const xpbd_particles_f64 *p,
                                           const double *radius, size_t begin, size_t end,
                                           const xpbd_rigid_f64 *body, double h,
                                           xpbd_rigid_impulse *out);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_SOFTBODY_H */
