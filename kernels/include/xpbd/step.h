/* SPDX-License-Identifier: MIT */
/* xpbd/step.h: the step driver.
 *
 * One call advances a particle set and its distance constraints by a frame
 * of length h, as substeps of length h_s = h / substeps:
 *
 *     for each substep:
 *         predict                    (v += g*h_s for w > 0; p = x; x += v*h_s)
 *         lambda = 0                 (XPBD_LAMBDA_PER_SUBSTEP, the correct rule)
 *         repeat iterations times:
 *             for each colour: solve its batches (SIMD)
 *             solve the overflow range serially
 *         update velocity            (v = (x - p)/h_s * (1 - damping))
 *
 * or, for XPBD_SOLVER_SPRINGS, accumulate spring forces over the colours and
 * integrate semi-implicit Euler (SPEC S1 4.1 baseline; iterations unused).
 *
 * The step is transactional: the inputs are validated first, the state at
 * step start is copied to the caller's scratch buffer, and if the step
 * produces a non-finite position, velocity or lambda the copy is put back
 * and XPBD_ERR_DIVERGED is returned. On any error the particle arrays and
 * lambda are bit-identical to what they were before the call.
 *
 * The step never allocates (xpbd_step_*, xpbd_world_step_*): the snapshot,
 * the spring forces, the broad phase's workspace and the validators'
 * stamps all live in the caller's scratch.
 */
#ifndef XPBD_STEP_H
#define XPBD_STEP_H

#include "xpbd/contacts.h"
#include "xpbd/executor.h"
#include "xpbd/softbody.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum xpbd_solver {
    XPBD_SOLVER_XPBD = 0,    /* XPBD distance with accumulated lambda */
    XPBD_SOLVER_PBD = 1,     /* classic PBD distance with stiffness k_s */
    XPBD_SOLVER_SPRINGS = 2  /* explicit springs, k = 1/compliance, semi-implicit Euler */
} xpbd_solver;

typedef enum xpbd_lambda_reset {
    XPBD_LAMBDA_PER_SUBSTEP = 0,  /* correct: lambda lives for a whole substep */
    XPBD_LAMBDA_PER_ITERATION = 1 /* the classic bug, kept for the S0 lesson */
} xpbd_lambda_reset;

typedef enum xpbd_contact_order {
    /* contacts projected with the constraints inside each iteration, the
     * velocity pass after the velocity update (the usual XPBD substep) */
    XPBD_CONTACTS_SUBSTEP = 0,
    /* SPEC S2 stepWorld, per substep: v += g*h; velocity pass (iterations
     * times); x += v*h; position pass (iterations times); no velocity update
     * from positions, no distance constraints */
    XPBD_CONTACTS_LESSON = 1
} xpbd_contact_order;

/* Step configuration: versioned defaults (protocol XPBD_PROTOCOL_VERSION).
 * Start from xpbd_step_config_default() and change fields. */
typedef struct xpbd_step_config {
    uint32_t version;               /* must equal XPBD_PROTOCOL_VERSION */
    uint32_t substeps;              /* >= 1; default 1 */
    uint32_t iterations;            /* >= 1 per substep; default 10 */
    double gravity[3];              /* m/s^2; default (0, -9.81, 0) */
    double damping;                 /* velocity fraction removed per substep, [0, 1), XPBD and
                                       PBD (springs: spring_damping); default 0 */
    double pbd_stiffness;           /* k_s in (0, 1] for XPBD_SOLVER_PBD; default 1 */
    double spring_damping;          /* N*s/m along each spring, >= 0; default 0 */
    xpbd_solver solver;             /* default XPBD_SOLVER_XPBD */
    xpbd_lambda_reset lambda_reset; /* default XPBD_LAMBDA_PER_SUBSTEP */
    xpbd_isa isa;                   /* default XPBD_ISA_AUTO */
    int measure_residual;           /* 1: max |C + at*lambda| at step end, 0: not; default 1
                                       (any other value: XPBD_ERR_CONFIG) */
    /* contacts (used when a world has radii or planes; see xpbd/contacts.h) */
    double contact_beta;            /* position correction fraction, (0, 1]; default 1 */
    double restitution;             /* e in [0, 1]; default 0 */
    double contact_slop;            /* velocity pass reaches pen >= -slop (m), >= 0; default 0.005 */
    double friction_static;         /* mu_s >= 0; default 0 */
    double friction_dynamic;        /* mu_k in [0, mu_s]; default 0 */
    double contact_skin;            /* broad-phase margin (m), >= 0; default 0.05 */
    int contact_weighted;           /* 1: split by inverse mass; 0: all to i1; default 1 */
    int contact_velocity_pass;      /* 1: restitution pass; default 1 */
    xpbd_contact_order contact_order; /* default XPBD_CONTACTS_SUBSTEP */
    double relative_damping;        /* fraction of velocity relative to each body's rigid
                                       motion removed per substep, [0, 1]; default 0 */
    /* threads (see xpbd/executor.h): the results, counters and statuses are bit-identical
     * for every value, every executor and every ISA */
    uint32_t threads;               /* workers: 1 = serial on the caller (default), 0 = all
                                       the executor offers, N = at most N */
    const xpbd_executor *executor;  /* NULL: xpbd_executor_default(), the library's own
                                       thread pool; one with a NULL callback or
                                       worker_count 0 (the default one's, when
                                       XPBD_NUM_THREADS is malformed): XPBD_ERR_CONFIG
                                       for any threads but 1 */
} xpbd_step_config;

/* The defaults of protocol XPBD_PROTOCOL_VERSION. */
XPBD_API xpbd_step_config xpbd_step_config_default(void);

/* Counters, snapshotted at step end (also on error). */
typedef struct xpbd_step_counters {
    uint32_t protocol;        /* XPBD_PROTOCOL_VERSION */
    xpbd_isa isa;             /* the path that ran */
    uint32_t substeps;        /* substeps completed */
    uint32_t iterations;      /* constraint iterations run, over all substeps */
    uint32_t colours;         /* colours of the constraint set */
    uint32_t overflow;        /* constraints in the serial overflow range */
    uint64_t solves;          /* constraint projections (or spring evaluations) */
    uint64_t skipped;         /* of which skipped: static pair or coincident endpoints */
    double max_residual;      /* max |C + at*lambda| at step end (measure_residual), else 0 */
    xpbd_status status;       /* what the step returned */
    /* where an error is (see xpbd_step_* below for what each error names):
     * bad_part the set or array, bad_index its element (particle, slot,
     * plane, body; SIZE_MAX when none), bad_field the configuration or
     * element field at fault. On success (XPBD_OK, XPBD_OVERFLOW):
     * XPBD_PART_NONE, SIZE_MAX, XPBD_FIELD_NONE. The same at every thread
     * count, executor and ISA. */
    size_t bad_index;
    xpbd_part bad_part;
    xpbd_field bad_field;
    uint32_t contacts;        /* contacts in the set this step */
    uint32_t contacts_dropped;/* pairs beyond the contact set's capacity (XPBD_OVERFLOW) */
    uint64_t contact_hits;    /* contact projections and impulses that acted */
} xpbd_step_counters;

/* Bytes of scratch the step needs for n particles and a set with `slots`
 * slots (the state snapshot, plus spring forces). */
XPBD_API size_t xpbd_step_scratch_bytes_f32(size_t particles, size_t slots);
XPBD_API size_t xpbd_step_scratch_bytes_f64(size_t particles, size_t slots);

/* Advances by one frame of length h (s). constraints may be NULL (free
 * particles). counters may be NULL. Returns, with the place each error
 * names in counters (bad_part / bad_index / bad_field; "-" = NONE or
 * SIZE_MAX):
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT     cfg NULL (CONFIG/-/-) or p NULL (PARTICLES/-/-)
 *   XPBD_ERR_VERSION      cfg->version != XPBD_PROTOCOL_VERSION (CONFIG/-/version)
 *   XPBD_ERR_CONFIG       substeps or iterations 0, damping outside [0,1),
 *                         k_s outside (0,1], gravity or spring_damping bad,
 *                         unknown solver or lambda mode, measure_residual not
 *                         0 or 1, an executor with a NULL enqueue or finish or
 *                         a worker_count of 0 (with threads != 1 and no
 *                         executor: the default one, whose worker_count is 0
 *                         when XPBD_NUM_THREADS is malformed) (CONFIG/-/the
 *                         field; the first bad one in the struct's order, the
 *                         executor's last)
 *   XPBD_ERR_TIMESTEP     h not a positive finite number, or so small that the
 *                         substep h_s = h / substeps, rounded to the set's
 *                         precision, is 0 or 1/h_s^2 overflows (the step
 *                         divides by h_s^2): h_s below about 5.4e-20 s in f32,
 *                         7.5e-155 s in f64. Every positive finite h above
 *                         that is accepted, a denormal h never. (-/-/-)
 *   XPBD_ERR_ISA          cfg->isa unknown or unsupported, or XPBD_ISA invalid
 *                         (CONFIG/-/isa)
 *   XPBD_ERR_CAPACITY     scratch NULL or smaller than xpbd_step_scratch_bytes
 *                         (SCRATCH/-/-; misaligned: XPBD_ERR_ARGUMENT, the same)
 *   XPBD_ERR_POSITION, _VELOCITY, _INVERSE_MASS   (PARTICLES/particle/-)
 *   XPBD_ERR_INDEX, _REST, _COMPLIANCE, _LAMBDA   (DISTANCE/slot/-; a set whose
 *                         fields are inconsistent: XPBD_ERR_ARGUMENT, DISTANCE/-/-)
 *                         springs also need compliance > 0 (XPBD_ERR_COMPLIANCE)
 *   XPBD_ERR_DIVERGED     non-finite result; state restored (PARTICLES/particle/-,
 *                         or for a lambda DISTANCE, TET or BEND with bad_index
 *                         past particle_count: particle_count + the slot counted
 *                         across the sets in that order)
 * On every error the particles and lambda are exactly as before the call. */
XPBD_API xpbd_status xpbd_step_f32(const xpbd_step_config *cfg, double h, xpbd_particles_f32 *p,
                                   xpbd_distance_set_f32 *constraints, void *scratch,
                                   size_t scratch_bytes, xpbd_step_counters *counters);
XPBD_API xpbd_status xpbd_step_f64(const xpbd_step_config *cfg, double h, xpbd_particles_f64 *p,
                                   xpbd_distance_set_f64 *constraints, void *scratch,
                                   size_t scratch_bytes, xpbd_step_counters *counters);

/* A world: particles, optional distance constraints, optional contacts.
 * With radius set, the broad phase fills `contacts` at step start from the
 * positions then (pairs closer than r0 + r1 + contact_skin), unless
 * contacts_fixed = 1, in which case `contacts` is used as given (e.g. built
 * with xpbd_contact_set_assign). Planes act on every particle with a
 * radius. plane_impulse (optional, [n]) receives the impulse each particle
 * gave the planes during the step (N*s); it is zeroed at step start and is
 * meaningful only when the step succeeds. */
typedef struct xpbd_world_f32 {
    xpbd_particles_f32 *particles;
    xpbd_distance_set_f32 *constraints;
    const float *radius;
    xpbd_contact_set *contacts;
    int contacts_fixed;
    const xpbd_plane *planes;
    uint32_t plane_count;
    float *plane_impulse;
    xpbd_quad_set_f32 *tets;        /* tetrahedral volume constraints, may be NULL */
    xpbd_quad_set_f32 *bends;       /* bending constraints, may be NULL */
    const uint32_t *tether_anchor; /* [n] static anchor per particle (itself: none), may be NULL */
    const float *tether_length;       /* [n] longest allowed distance to the anchor (m) */
    const size_t *body_begin;      /* [body_count + 1] particle ranges of the bodies that
                                      relative damping treats as wholes */
    uint32_t body_count;
    const uint8_t *body_asleep;    /* [body_count] 1: body b sleeps (may be NULL): its
                                      particles end the step exactly as they began it,
                                      are not damped, find no contact pairs among
                                      themselves and, with the PBD and XPBD solvers, act
                                      as static ones in the solve (what touches them
                                      gets the whole correction; see xpbd/engine.h) */
    const xpbd_rigid_f64 *rigids;  /* [rigid_count] host rigid bodies for two-way
                                      coupling (particles with a radius), may be NULL */
    uint32_t rigid_count;
    xpbd_rigid_impulse *rigid_impulse; /* [rigid_count] out: impulse the particles gave
                                      each body during the step, for the host to apply;
                                      zeroed at step start, valid when the step succeeds */
} xpbd_world_f32;

typedef struct xpbd_world_f64 {
    xpbd_particles_f64 *particles;
    xpbd_distance_set_f64 *constraints;
    const double *radius;
    xpbd_contact_set *contacts;
    int contacts_fixed;
    const xpbd_plane *planes;
    uint32_t plane_count;
    double *plane_impulse;
    xpbd_quad_set_f64 *tets;        /* tetrahedral volume constraints, may be NULL */
    xpbd_quad_set_f64 *bends;       /* bending constraints, may be NULL */
    const uint32_t *tether_anchor; /* [n] static anchor per particle (itself: none), may be NULL */
    const double *tether_length;       /* [n] longest allowed distance to the anchor (m) */
    const size_t *body_begin;      /* [body_count + 1] particle ranges of the bodies that
                                      relative damping treats as wholes */
    uint32_t body_count;
    const uint8_t *body_asleep;    /* [body_count] 1: body b sleeps (may be NULL): its
                                      particles end the step exactly as they began it,
                                      are not damped, find no contact pairs among
                                      themselves and, with the PBD and XPBD solvers, act
                                      as static ones in the solve (what touches them
                                      gets the whole correction; see xpbd/engine.h) */
    const xpbd_rigid_f64 *rigids;  /* [rigid_count] host rigid bodies for two-way
                                      coupling (particles with a radius), may be NULL */
    uint32_t rigid_count;
    xpbd_rigid_impulse *rigid_impulse; /* [rigid_count] out: impulse the particles gave
                                      each body during the step, for the host to apply;
                                      zeroed at step start, valid when the step succeeds */
} xpbd_world_f64;

/* Scratch bytes for a world of n particles, constraint sets of `slots`
 * slots in all (distance + tetrahedra + bending) and a contact set of
 * max_contacts contacts (0 without contacts or with a fixed set). */
XPBD_API size_t xpbd_world_scratch_bytes_f32(size_t particles, size_t slots, size_t max_contacts);
XPBD_API size_t xpbd_world_scratch_bytes_f64(size_t particles, size_t slots, size_t max_contacts);

/* Advances a world by one frame; xpbd_step_* is this with particles and
 * constraints only (w NULL or without particles: XPBD_ERR_ARGUMENT,
 * PARTICLES/-/-). Returns what xpbd_step_* returns, and also (the place in
 * counters as there):
 *   XPBD_OVERFLOW         step done, but the broad phase found more pairs
 *                         than the contact set holds (counters.contacts_dropped;
 *                         a success: -/-/-)
 *   XPBD_ERR_RADIUS       a radius negative or not finite (RADIUS/particle/-)
 *   XPBD_ERR_BETA, XPBD_ERR_RESTITUTION, XPBD_ERR_SLOP, XPBD_ERR_FRICTION
 *                         contact configuration out of range (CONFIG/-/the
 *                         field: contact_beta, restitution, contact_slop,
 *                         friction_static or friction_dynamic)
 *   XPBD_ERR_PLANE        a plane normal not unit length (1e-6) or d not finite
 *                         (PLANE/plane/-)
 *   XPBD_ERR_INDEX        a fixed contact set refused by xpbd_contact_set_validate
 *                         (CONTACT_FIXED/slot/-), or a particle repeated within a
 *                         colour of a constraint set (xpbd_distance_set_validate_*:
 *                         DISTANCE/slot/-; xpbd_quad_set_validate_*: TET or BEND/slot/-)
 *   XPBD_ERR_INDEX, _REST, _COMPLIANCE, _LAMBDA, _ARGUMENT   of the tet and
 *                         bend sets as of the distance set (TET or BEND/slot/-)
 *   XPBD_ERR_INDEX, XPBD_ERR_REST   a tether anchor out of range or a length
 *                         negative or not finite (TETHER/particle/-)
 *   XPBD_ERR_ARGUMENT     more than 8 planes or planes NULL (PLANE/-/-), planes
 *                         or contacts without radii (RADIUS/-/-), a contact set
 *                         without arrays or with more slots than its capacity
 *                         (CONTACT_FIXED or CONTACT_FOUND/-/-), tethers without
 *                         lengths (TETHER/-/-), rigid bodies without their
 *                         arrays (RIGID/-/-) or radii (RADIUS/-/-), bodies
 *                         without body_begin (BODY/-/-)
 *   XPBD_ERR_CONFIG       XPBD_CONTACTS_LESSON with constraints or another
 *                         solver, an unknown contact order (CONFIG/-/contact_order),
 *                         contact_skin negative or relative_damping outside [0, 1]
 *                         (CONFIG/-/the field), body ranges not increasing within
 *                         [0, n] (BODY/body/body_begin)
 *   XPBD_ERR_CONFIG       also: a rigid body with a bad shape, size, mass or
 *                         inertia (RIGID/body/its first bad field in
 *                         xpbd_rigid_f64's order)
 * The checks run in this order: configuration, time step, the lesson
 * order's rule, ISA, scratch, particles, distance set, planes, radii,
 * contact set, tets, bends, tethers, rigid bodies, body ranges; the first
 * error found is returned (the lowest index within one check).
 * Each substep solves, per iteration: distance colours, tetrahedra, bending,
 * tethers, then contacts and planes, then the coupling with each rigid body
 * (xpbd_couple_rigid_*, impulses summed over iterations and substeps into
 * rigid_impulse); after the velocity update, the contact
 * velocity pass and relative damping of each awake body. At step end the
 * particles of every sleeping body (body_asleep) are put back to their
 * step-start state, so a body sleeps and wakes whole.
 * On every error the particles and lambda are exactly as before the call. */
XPBD_API xpbd_status xpbd_world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                         void *scratch, size_t scratch_bytes,
                                         xpbd_step_counters *counters);
XPBD_API xpbd_status xpbd_world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                         void *scratch, size_t scratch_bytes,
                                         xpbd_step_counters *counters);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_STEP_H */
