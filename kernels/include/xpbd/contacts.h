/* SPDX-License-Identifier: MIT */
/* xpbd/contacts.h: particle contacts (SPEC S2).
 *
 * Particles are spheres: the host adds a radius array r[0..n) (m, >= 0) to
 * its particle set. Contacts are pairs of particles found by a uniform-grid
 * broad phase once per step, coloured and batched exactly like distance
 * constraints, and solved by two kernels:
 *
 *   position level   pen = (r0 + r1) - |d|, d = x1 - x0, n = d/|d|
 *                    (skip pen <= 0, |d| == 0, w0 + w1 == 0)
 *                    corr = beta*pen, split s0 = w0/(w0 + w1), s1 = w1/(w0 + w1)
 *                    (weighted) or s0 = 0, s1 = 1 (unweighted: everything to
 *                    i1, nothing if w1 == 0 -- the lesson's variant)
 *                    x0 -= (corr*s0)*n;  x1 += (corr*s1)*n
 *                    then Coulomb friction at position level (XPBD rigid-body
 *                    paper): t = tangential part of the relative displacement
 *                    since substep start, (x1 - p1) - (x0 - p0); static if
 *                    |t| < mu_s*corr (remove all of t), else kinetic (remove
 *                    min(mu_k*corr/|t|, 1) of it), split s0/s1 as above.
 *                    Both sides of the comparison are lengths: the friction
 *                    "force" is mu times the normal correction.
 *   velocity level   skip pen < -slop; rel = (v1 - v0).n; skip rel >= 0
 *                    j = -(1 + e)*rel/(w0 + w1)
 *                    v1 += (j*w1)*n;  v0 -= (j*w0)*n     (equal and opposite)
 *
 * and the same against planes (half-spaces {x : n.x >= d}, n unit length):
 *
 *   plane position   pen = r - (n.x - d); w > 0 and pen > 0: x += (beta*pen)*n,
 *                    then friction against the (static) plane as above
 *   plane velocity   pen >= -slop, w > 0 and vn = v.n < 0: v -= ((1 + e)*vn)*n;
 *                    the impulse on the plane, -(1 + e)*vn/w (N*s), is added
 *                    to impulse[i] when an impulse array is given
 *
 * The step's substep order (XPBD_CONTACTS_SUBSTEP) uses a second velocity
 * pass (Mueller et al. 2020), because there the position projection already
 * changed the velocities (v = (x - p)/h) and a restitution impulse on top of
 * them would not give v' = -e v:
 *
 *   restitution      rel0 = normal relative velocity before the solve (from
 *                    the predicted velocities v0); skip unless rel0 < 0;
 *                    e' = e if -rel0 > rest_speed else 0 (resting contacts do
 *                    not bounce; the step uses rest_speed = 2 |g| h);
 *                    j = (-(e'*rel0) - rel)/(w0 + w1) sets the normal
 *                    relative velocity to -e'*rel0
 *   plane restitution the same against a plane: dv = -(e'*vn0) - vn;
 *                    v += dv*n; impulse[i] += dv/w
 *
 * Position-level kernels work on the packed copy of positions the step
 * driver solves on (q[4*i .. 4*i+3] = x, y, z, w; see xpbd/kernels.h) and
 * read the substep-start positions p->px/py/pz for friction. Velocity-level
 * kernels work on the SoA arrays. Every path matches the scalar reference
 * bit for bit, in both precisions.
 */
#ifndef XPBD_CONTACTS_H
#define XPBD_CONTACTS_H

#include "xpbd/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A contact list: found by xpbd_contacts_find_*, laid out like a distance
 * set (colours of XPBD_BATCH-slot batches, then a serial overflow range).
 * The host owns i0/i1 (capacity slots each: use xpbd_contact_slots). */
typedef struct xpbd_contact_set {
    uint32_t capacity;       /* slots in i0 and i1 */
    uint32_t max_contacts;   /* real contacts kept at most (capacity - padding reserve) */
    uint32_t count;          /* real contacts in the set */
    uint32_t dropped;        /* pairs found beyond max_contacts (dropped, counted) */
    uint32_t slots;          /* used slots: padded colours + overflow */
    uint32_t colours;
    uint32_t overflow_begin;
    uint32_t colour_begin[XPBD_MAX_COLOURS + 1];
    uint32_t colour_size[XPBD_MAX_COLOURS];
    uint32_t *i0, *i1;
} xpbd_contact_set;

/* Slots a contact set needs to hold max_contacts contacts, padding
 * included. */
XPBD_API size_t xpbd_contact_slots(size_t max_contacts);

/* Points a contact set at caller arrays of `slots` entries each (slots >=
 * xpbd_contact_slots(max_contacts)) and empties it. */
XPBD_API xpbd_status xpbd_contact_set_init(xpbd_contact_set *cs, uint32_t *i0, uint32_t *i1,
                                           size_t slots, size_t max_contacts);

/* Broad phase options. */
typedef struct xpbd_broadphase {
    double cell;          /* grid cell edge (m); 0 = 2*max radius + skin */
    double skin;          /* pairs closer than r0 + r1 + skin are kept (m), >= 0 */
    uint32_t max_colours; /* 0 = 32 */
    const uint8_t *still; /* [n] or NULL: 1 marks a particle that does not move (a
                             sleeping body's): pairs of two still particles are not
                             reported and no search starts from one */
} xpbd_broadphase;

/* Workspace bytes for the broad phase (and xpbd_contact_set_assign) over n
 * particles and up to max_contacts contacts. */
XPBD_API size_t xpbd_contacts_work_bytes(size_t n, size_t max_contacts);

/* Finds every pair (i < j) with |x_i - x_j| < r_i + r_j + skin on a uniform
 * grid in world space (a hash of the cell coordinates into a table sized to
 * the particle count, counting sort, 27 neighbour cells), in a deterministic
 * order, and colours the result into cs. Never allocates; work must hold
 * xpbd_contacts_work_bytes(n, cs->max_contacts) bytes (8-byte aligned).
 * Returns XPBD_OK, or XPBD_OVERFLOW when more than cs->max_contacts pairs were
 * found: the set then holds the first max_contacts (a usable, degraded
 * result) and cs->dropped counts the rest. Errors (cs left empty):
 *   XPBD_ERR_ARGUMENT     NULL pointer, work too small or misaligned
 *   XPBD_ERR_POSITION     a position is not finite (bad_index = particle)
 *   XPBD_ERR_RADIUS       a radius is negative or not finite (bad_index)
 *   XPBD_ERR_CONFIG       skin < 0 or not finite, cell < 0, not finite, or
 *                         smaller than 2*max radius + skin, max_colours > 64 */
XPBD_API xpbd_status xpbd_contacts_find_f32(const xpbd_particles_f32 *p, const float *radius,
                                            const xpbd_broadphase *bp, void *work,
                                            size_t work_bytes, xpbd_contact_set *cs,
                                            size_t *bad_index);
XPBD_API xpbd_status xpbd_contacts_find_f64(const xpbd_particles_f64 *p, const double *radius,
                                            const xpbd_broadphase *bp, void *work,
                                            size_t work_bytes, xpbd_contact_set *cs,
                                            size_t *bad_index);

/* Colours pairs given by the caller (e.g. the 1-D stack of SPEC S2, or a
 * serial order with serial = 1) into cs. Pairs must be distinct particle
 * indices below n. Same overflow rule as the broad phase, and like it never
 * allocates (work as for xpbd_contacts_find_*). */
XPBD_API xpbd_status xpbd_contact_set_assign(xpbd_contact_set *cs, size_t n, size_t count,
                                             const uint32_t *i0, const uint32_t *i1,
                                             uint32_t max_colours, int serial, void *work,
                                             size_t work_bytes, size_t *bad_index);

/* Checks a contact set the host filled or edited itself (the step runs it
 * on a fixed set, xpbd_world.contacts_fixed, every step): layout consistent,
 * every index below n, each real contact a pair of two distinct particles
 * (a pair i0 == i1 has no normal: refused), each padding slot one particle
 * twice, and no particle in two contacts of one colour (the SIMD paths solve
 * a colour's contacts at once). stamp: caller scratch of n entries, contents
 * ignored and overwritten (NULL allowed for a set without colours).
 *   XPBD_ERR_ARGUMENT  cs, i0 or i1 NULL, slots > capacity, n > INT32_MAX,
 *                      stamp NULL with colours, or an inconsistent layout
 *   XPBD_ERR_INDEX     *bad_index names the slot (a repeat: the first slot
 *                      of the colour using a particle an earlier slot uses) */
XPBD_API xpbd_status xpbd_contact_set_validate(const xpbd_contact_set *cs, size_t n,
                                               uint32_t *stamp, size_t *bad_index);

/* A plane (half-space {x : nx*x + ny*y + nz*z >= d}), n of unit length. */
typedef struct xpbd_plane {
    double n[3];
    double d;
} xpbd_plane;

typedef struct xpbd_contact_kernels_f32 {
    xpbd_isa isa;
    unsigned lanes;
    /* returns the number of contacts that were penetrating */
    uint32_t (*position)(float *q, const xpbd_particles_f32 *p, const float *radius,
                         const xpbd_contact_set *cs, uint32_t colour, uint32_t batch_begin,
                         uint32_t batch_end, float beta, int weighted, float mu_s, float mu_k);
    /* returns the number of impulses applied */
    uint32_t (*velocity)(const xpbd_particles_f32 *p, const float *radius,
                         const xpbd_contact_set *cs, uint32_t colour, uint32_t batch_begin,
                         uint32_t batch_end, float e, float slop);
    /* impulse (may be NULL) gets (beta*pen)/(w*h) per corrected particle: the
     * plane's support, as velocity the update v = (x - p)/h will give */
    uint32_t (*plane_position)(float *q, const xpbd_particles_f32 *p, const float *radius,
                               size_t begin, size_t end, const float plane[4], float beta,
                               float mu_s, float mu_k, float *impulse, float h);
    uint32_t (*plane_velocity)(const xpbd_particles_f32 *p, const float *radius, size_t begin,
                               size_t end, const float plane[4], float e, float slop,
                               float *impulse);
    /* the two halves of predict, for the S2 lesson's frame order:
     * gravity: w > 0: v += g*h;  integrate: p = x; x += v*h */
    void (*gravity)(const xpbd_particles_f32 *p, size_t begin, size_t end, float gxh, float gyh,
                    float gzh);
    void (*integrate)(const xpbd_particles_f32 *p, size_t begin, size_t end, float h);
    /* the substep order's velocity pass (see below): restitution against
     * the pre-solve velocities v0 */
    uint32_t (*restitution)(const xpbd_particles_f32 *p, const float *radius,
                            const xpbd_contact_set *cs, const float *v0x, const float *v0y,
                            const float *v0z, uint32_t colour, uint32_t batch_begin,
                            uint32_t batch_end, float e, float slop, float rest_speed);
    uint32_t (*plane_restitution)(const xpbd_particles_f32 *p, const float *radius, const float *v0x,
                                  const float *v0y, const float *v0z, size_t begin, size_t end,
                                  const float plane[4], float e, float slop, float rest_speed,
                                  float *impulse);
} xpbd_contact_kernels_f32;

typedef struct xpbd_contact_kernels_f64 {
    xpbd_isa isa;
    unsigned lanes;
    uint32_t (*position)(double *q, const xpbd_particles_f64 *p, const double *radius,
                         const xpbd_contact_set *cs, uint32_t colour, uint32_t batch_begin,
                         uint32_t batch_end, double beta, int weighted, double mu_s,
                         double mu_k);
    uint32_t (*velocity)(const xpbd_particles_f64 *p, const double *radius,
                         const xpbd_contact_set *cs, uint32_t colour, uint32_t batch_begin,
                         uint32_t batch_end, double e, double slop);
    uint32_t (*plane_position)(double *q, const xpbd_particles_f64 *p, const double *radius,
                               size_t begin, size_t end, const double plane[4], double beta,
                               double mu_s, double mu_k, double *impulse, double h);
    uint32_t (*plane_velocity)(const xpbd_particles_f64 *p, const double *radius, size_t begin,
                               size_t end, const double plane[4], double e, double slop,
                               double *impulse);
    void (*gravity)(const xpbd_particles_f64 *p, size_t begin, size_t end, double gxh,
                    double gyh, double gzh);
    void (*integrate)(const xpbd_particles_f64 *p, size_t begin, size_t end, double h);
    /* the substep order's velocity pass (see below): restitution against
     * the pre-solve velocities v0 */
    uint32_t (*restitution)(const xpbd_particles_f64 *p, const double *radius,
                            const xpbd_contact_set *cs, const double *v0x, const double *v0y,
                            const double *v0z, uint32_t colour, uint32_t batch_begin,
                            uint32_t batch_end, double e, double slop, double rest_speed);
    uint32_t (*plane_restitution)(const xpbd_particles_f64 *p, const double *radius, const double *v0x,
                                  const double *v0y, const double *v0z, size_t begin, size_t end,
                                  const double plane[4], double e, double slop, double rest_speed,
                                  double *impulse);
} xpbd_contact_kernels_f64;

XPBD_API const xpbd_contact_kernels_f32 *xpbd_contact_kernels_get_f32(xpbd_isa isa);
XPBD_API const xpbd_contact_kernels_f64 *xpbd_contact_kernels_get_f64(xpbd_isa isa);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_CONTACTS_H */
