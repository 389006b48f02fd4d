/* SPDX-License-Identifier: MIT */
/* xpbd/engine.h: what a host's frame loop needs around the step: tearing
 * at step end, sleeping, host inputs that a replay can log, counters
 * snapshotted at step end, and the two-serial-orders check.
 *
 * The pieces work on their own on a host's xpbd_world (tearing passes,
 * counters) and together in xpbd_engine_*, which owns a world built from a
 * scene description and runs one frame as
 *
 *     wake the sleeping bodies the host moved     (state signature changed)
 *     if a body fell asleep or woke: rebuild the sets without the constraints
 *         of sleeping bodies                      (a sleeping body costs no
 *                                                  solver time; allocates)
 *     xpbd_world_step                             (sleeping bodies static, restored whole)
 *     sleep / wake bookkeeping                    (kinetic energy per kg, contacts)
 *     stretch pass: flag distance constraints with |d|/rest - 1 > tear_stretch
 *     counters snapshot                           (no allocation, no formatting)
 *     topology: remove the flagged constraints and the tets and bending
 *               stencils across them, split every vertex the tear cut into
 *               separate fans (see "vertex split" below), rebuild the sets
 *               (allocates; never inside the solve)
 *
 * Nothing here runs inside the projection loop: the kernels and the step
 * driver never see a topology change or a callback mid-step.
 */
#ifndef XPBD_ENGINE_H
#define XPBD_ENGINE_H

#include "xpbd/executor.h"
#include "xpbd/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- tearing --- */

/* Stretch pass over a distance set, like the residual kernel but reading
 * positions only: stretch = |x1 - x0| / rest - 1 (double, slot order).
 * flags (may be NULL) is indexed by the constraint's input index (the set's
 * source[]) and gets 1 where stretch > threshold, 0 elsewhere; *max_stretch
 * (may be NULL) the largest stretch. Returns the number flagged. threshold
 * <= 0 or NaN flags nothing. Never allocates. */
XPBD_API uint32_t xpbd_tear_flag_f32(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                                     double threshold, uint8_t *flags, double *max_stretch);
XPBD_API uint32_t xpbd_tear_flag_f64(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                                     double threshold, uint8_t *flags, double *max_stretch);

/* Rebuilds a distance set without the constraints flagged in remove[]
 * (indexed by input index, [c->count]); the others keep their rest,
 * compliance and relative input order. kept (may be NULL, [old count])
 * receives each old input index's new one, or XPBD_PAD if removed. Call it
 * between steps only. Allocates the new set as xpbd_distance_set_build_*
 * does (freed by xpbd_distance_set_free_*; the old set's block is freed when
 * the new one replaces it) and a workspace freed before it returns. On error
 * (XPBD_ERR_NOMEM, or the builder's) the set is left as it was. */
XPBD_API xpbd_status xpbd_tear_remove_f32(xpbd_distance_set_f32 *c, size_t particles,
                                          const uint8_t *remove,
                                          const xpbd_colouring_options *options, uint32_t *kept);
XPBD_API xpbd_status xpbd_tear_remove_f64(xpbd_distance_set_f64 *c, size_t particles,
                                          const uint8_t *remove,
                                          const xpbd_colouring_options *options, uint32_t *kept);

/* Flags of xpbd_tear_split. */
#define XPBD_TEAR_KEEP_HINGES 1u /* remove only: split no vertex */

/* What a tear does to a host's own topology (the engine's rule; see "Vertex
 * split" below), for hosts that keep their constraints themselves. In: the
 * frame's edges with torn[] flags (xpbd_tear_flag_*), tets and bending
 * stencils (4 indices each), all indices below `particles`. Out:
 *   tet_drop[k], bend_drop[k]   1 for the elements the tear removes: those
 *                               with a torn edge, and stencils whose vertices
 *                               end up on two pieces of a split vertex
 *   edge_out, tet_out, bend_out the elements (same order, same size as the
 *                               inputs) with each vertex that moves to a new
 *                               particle replaced by particles + j
 *   split[j], j < *copies       the particle the j-th new one copies
 *                               (ascending); share its mass among the pieces
 * The host then appends the copies, keeps the edges with !torn and the
 * elements with !drop, and rebuilds its sets. With nothing torn or with
 * XPBD_TEAR_KEEP_HINGES the outputs are the inputs and *copies is 0.
 * Allocates its workspace, freed before it returns (call between steps; the
 * outputs are the caller's arrays). Errors: XPBD_ERR_ARGUMENT
 * (NULL array, unknown flag), XPBD_ERR_INDEX (an index out of range or an
 * edge from a particle to itself), XPBD_ERR_NOMEM (outputs as for
 * KEEP_HINGES), XPBD_ERR_CAPACITY (more copies than max_copies: *copies says
 * how many, split[] is not written and the other outputs name copies it
 * would have listed; call again with room: 2 * edges + 4 * tets is always
 * enough; or, with *copies 0 and outputs as for KEEP_HINGES, the particles
 * would pass INT32_MAX). */
XPBD_API xpbd_status xpbd_tear_split(size_t particles, const uint32_t *edge, size_t edges,
                                     const uint8_t *torn, const uint32_t *tet, size_t tets,
                                     const uint32_t *bend, size_t bends, unsigned flags,
                                     uint8_t *tet_drop, uint8_t *bend_drop, uint32_t *edge_out,
                                     uint32_t *tet_out, uint32_t *bend_out, uint32_t *split,
                                     size_t max_copies, size_t *copies);

/* ---------------------------------------------------------- sleeping --- */

/* Per-body sleep state, host-owned arrays of body_count entries. Point
 * xpbd_world.body_asleep at asleep: the step then restores sleeping bodies
 * to their step-start state at step end, so a body sleeps and wakes whole.
 * The sleeping functions below never allocate. */
typedef struct xpbd_sleep_state {
    uint32_t body_count;
    uint8_t *asleep;          /* 1: sleeping */
    uint32_t *calm;           /* consecutive steps below the threshold */
    uint64_t *signature;      /* hash of the body's x, v, w when it fell asleep */
    double energy;            /* threshold: kinetic energy per kg, J/kg (= m^2/s^2) */
    uint32_t steps;           /* calm steps before a body sleeps, >= 1 */
} xpbd_sleep_state;

/* Before a step: wakes every sleeping body whose positions, velocities or
 * inverse masses differ from when it fell asleep (the host moved, pushed or
 * pinned it). Returns the number woken. */
XPBD_API uint32_t xpbd_sleep_prepare_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w);
XPBD_API uint32_t xpbd_sleep_prepare_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w);
/* After a successful step: wakes sleeping bodies touched (a pair of the
 * world's contact set) by a particle of a moving body (kinetic energy per
 * kg above the threshold) or by a moving free particle; counts calm steps of
 * awake bodies and puts a body to sleep after `steps` of them (velocities
 * zeroed, p = x, signature taken). *fell and *woke (may be NULL) receive the
 * counts. Returns the number of sleeping bodies. */
XPBD_API uint32_t xpbd_sleep_update_f32(xpbd_sleep_state *s, const xpbd_world_f32 *w,
                                        uint32_t *fell, uint32_t *woke);
XPBD_API uint32_t xpbd_sleep_update_f64(xpbd_sleep_state *s, const xpbd_world_f64 *w,
                                        uint32_t *fell, uint32_t *woke);
/* Wakes body b now (e.g. a host rigid body hit it). */
XPBD_API void xpbd_sleep_wake(xpbd_sleep_state *s, uint32_t b);
/* Kinetic energy per kg of particles [begin, end) (w > 0), in double, index
 * order; 0 for a body without mass. */
XPBD_API double xpbd_body_energy_f32(const xpbd_particles_f32 *p, size_t begin, size_t end);
XPBD_API double xpbd_body_energy_f64(const xpbd_particles_f64 *p, size_t begin, size_t end);

/* ---------------------------------------------------------- counters --- */

/* Everything a frame's statistics overlay needs, snapshotted at step end. */
typedef struct xpbd_engine_counters {
    xpbd_step_counters step;  /* the step driver's own snapshot */
    uint64_t frame;           /* frames completed (engine) */
    uint64_t solved;          /* constraint projections that acted: step.solves - step.skipped */
    uint64_t skipped;         /* step.skipped: static, coincident, collapsed or flat */
    uint32_t degenerate;      /* tets collapsed or inverted at step end (6V of the wrong sign or
                                 below 1e-6 of the rest value) */
    double max_residual;      /* step.max_residual: max |C + at*lambda| of the distance set */
    uint32_t colours;         /* colours of the distance, tet and bend sets together */
    uint32_t colours_distance, colours_tets, colours_bends;
    uint32_t bodies;          /* bodies of the world */
    uint32_t sleeping;        /* of which asleep after the step */
    uint32_t fell_asleep;     /* bodies that fell asleep at this step's end */
    uint32_t woke;            /* bodies woken before or after this step */
    uint32_t torn;            /* distance constraints over the tear stretch, removed at step end */
    uint32_t split;           /* particles added by vertex splits at step end */
    uint32_t split_dropped;   /* copies this frame's split wanted when they would not fit
                                 options.max_particles (all dropped: the tear removed
                                 constraints only); 1 if the index range was exceeded */
    uint32_t distance;        /* distance constraints in the set for the next step (those
                                 of sleeping bodies are left out) */
    double max_stretch;       /* max |d|/rest - 1 over the distance set at step end */
    double volume_error;      /* max |6V - rest| / |rest| over the tets at step end */
} xpbd_engine_counters;

/* Fills the world-derived fields of *out (colours, degenerate, max_stretch,
 * volume_error, bodies, sleeping) and copies *k into out->step (k may be
 * NULL); the other fields are zeroed. Reads the world only: no allocation,
 * no formatting. */
XPBD_API void xpbd_counters_snapshot_f32(const xpbd_world_f32 *w, const xpbd_step_counters *k,
                                         xpbd_engine_counters *out);
XPBD_API void xpbd_counters_snapshot_f64(const xpbd_world_f64 *w, const xpbd_step_counters *k,
                                         xpbd_engine_counters *out);
/* One line of text for a log (outside the frame's hot path, e.g. on a
 * debug key): snprintf semantics, returns the length it needed. Writes
 * into buf only: never allocates. */
XPBD_API int xpbd_counters_format(const xpbd_engine_counters *c, char *buf, size_t size);

/* ------------------------------------------------------------- scene --- */

/* A scene description: caller-owned input arrays the engine copies. n is
 * the particle count; positions are interleaved (x, y, z) per particle, as
 * xpbd/mesh.h writes them. */
typedef struct xpbd_scene_f32 {
    size_t particles;
    const float *xyz;               /* [3n] positions (m) */
    const float *rest_xyz;          /* [3n] rest shape of tets and bends; NULL = xyz */
    const float *vel;               /* [3n] velocities (m/s); NULL = at rest */
    const float *inv_mass;          /* [n] 1/kg, 0 = static */
    const float *radius;            /* [n] contact radius (m); NULL = no contacts, no planes */
    size_t edges;                   /* distance constraints */
    const uint32_t *edge;           /* [2 * edges] */
    const float *edge_rest;         /* [edges] (m); NULL = from rest_xyz */
    const float *edge_compliance;   /* [edges] (m/N); NULL = edge_alpha for all */
    double edge_alpha;              /* m/N */
    size_t tets;
    const uint32_t *tet;            /* [4 * tets] */
    const float *tet_compliance;    /* [tets] (m^5/N: C = 6V - rest is m^3, see
                                       xpbd/softbody.h); NULL = tet_alpha for all */
    double tet_alpha;               /* m^5/N */
    size_t bends;
    const uint32_t *bend;           /* [4 * bends] stencils (xpbd_bend_set_build_*) */
    const float *bend_compliance;   /* [bends] (1/(N m): C is a pure number); NULL =
                                       bend_alpha for all */
    double bend_alpha;              /* 1/(N m) */
    const uint32_t *tether_anchor;  /* [n] or NULL (xpbd_world) */
    const float *tether_length;     /* [n] */
    const uint32_t *origin;         /* [n] the particle each one descends from by vertex
                                       splits (< n); NULL = i */
    uint32_t bodies;
    const size_t *body_begin;       /* [bodies + 1] particle ranges */
    uint32_t planes;
    const xpbd_plane *plane;        /* [planes], at most 8 */
    size_t max_contacts;            /* > 0 with radius: particle pairs found every step, at
                                       most INT32_MAX / 2; the engine keeps no more than
                                       the ordered pairs its particles can ever form */
    xpbd_colouring_options colouring; /* for every set; serial = 1 keeps the input order */
    /* the state of a saved engine (xpbd_engine_scene_*), to resume it exactly */
    const float *prev_xyz;          /* [3n] substep-start positions; NULL = xyz */
    const uint8_t *asleep;          /* [bodies] 1: the body sleeps; NULL = all awake */
    const uint32_t *calm;           /* [bodies] calm steps so far; NULL = 0 */
    const uint64_t *signature;      /* [bodies] state hash taken when it fell asleep */
    uint64_t frame;                 /* frames completed */
} xpbd_scene_f32;

typedef struct xpbd_scene_f64 {
    size_t particles;
    const double *xyz;
    const double *rest_xyz;
    const double *vel;
    const double *inv_mass;
    const double *radius;
    size_t edges;
    const uint32_t *edge;
    const double *edge_rest;
    const double *edge_compliance;
    double edge_alpha;
    size_t tets;
    const uint32_t *tet;
    const double *tet_compliance;
    double tet_alpha;
    size_t bends;
    const uint32_t *bend;
    const double *bend_compliance;
    double bend_alpha;
    const uint32_t *tether_anchor;
    const double *tether_length;
    const uint32_t *origin;
    uint32_t bodies;
    const size_t *body_begin;
    uint32_t planes;
    const xpbd_plane *plane;
    size_t max_contacts;
    xpbd_colouring_options colouring;
    const double *prev_xyz;
    const uint8_t *asleep;
    const uint32_t *calm;
    const uint64_t *signature;
    uint64_t frame;
} xpbd_scene_f64;

/* ------------------------------------------------------------ engine --- */

typedef struct xpbd_engine_options {
    double tear_stretch;      /* > 0: tear distance constraints stretched beyond it
                                 (|d|/rest - 1) at step end; 0 = never */
    double sleep_energy;      /* > 0: sleep threshold, kinetic energy per kg (J/kg); 0 = never */
    uint32_t sleep_steps;     /* calm steps before sleeping; 0 = 30 */
    uint32_t keep_hinges;     /* 1: a tear removes constraints only and never splits a
                                 vertex (the pieces may stay joined at one vertex);
                                 0 or 1 (XPBD_ERR_CONFIG otherwise) */
    uint32_t max_particles;   /* 0: the particle arrays grow (are reallocated) at step end
                                 when a split adds particles. > 0: the level's capacity,
                                 allocated at create (from the scene's particles to
                                 INT32_MAX, else XPBD_ERR_CONFIG); a split never
                                 reallocates them, and a
                                 frame whose splits would pass the capacity tears without
                                 splitting (counters.split_dropped) */
    uint32_t threads;         /* workers for every step the engine runs, as
                                 xpbd_step_config.threads; 0 = the configuration's */
    const xpbd_executor *executor; /* the executor of those steps, as
                                 xpbd_step_config.executor; NULL = the configuration's */
} xpbd_engine_options;

/* Host inputs between frames: what a replay log records. value is in SI
 * units, converted to the engine's precision when applied. */
typedef enum xpbd_input_kind {
    XPBD_INPUT_ADD_VELOCITY = 1, /* v += value on particles [begin, end) (a poke, a throw) */
    XPBD_INPUT_SET_VELOCITY = 2, /* v = value */
    XPBD_INPUT_TRANSLATE = 3,    /* x += value (the host moves them) */
    XPBD_INPUT_SET_INV_MASS = 4, /* w = value[0] (0 pins, > 0 releases) */
    XPBD_INPUT_WAKE = 5          /* wake body `begin` */
} xpbd_input_kind;

typedef struct xpbd_input {
    uint32_t kind;               /* xpbd_input_kind */
    uint32_t begin, end;         /* particle range, or the body (WAKE) */
    double value[3];
} xpbd_input;

/* Vertex split: at step end, a vertex a tear has cut through gets a new
 * particle for each piece that the tear separated (mass and momentum
 * kept; new particles at the end of their body's range); how the engine
 * decides, and what keeps its index: docs/vertex-split.md. */

/* An engine: a world built from a scene, its sleep state, counters and the
 * current topology in input order (what a replay file or a rebuild needs).
 * Opaque: read it through the accessors below, change it through
 * xpbd_engine_apply_* between frames. */
typedef struct xpbd_engine_f32 xpbd_engine_f32;
typedef struct xpbd_engine_f64 xpbd_engine_f64;

/* Builds an engine from a scene (copied: the scene's arrays may be freed
 * afterwards), a step configuration (NULL: defaults) and options (NULL:
 * zeroed). Allocates the engine and sets *out to it (freed by
 * xpbd_engine_destroy_*): its particle arrays (room for
 * options.max_particles when set), topology, sets, contact arrays and step
 * scratch. The configuration the engine will step with (cfg with the
 * options' threads and executor in it) is checked as every step checks
 * it, the ISA resolved as the step resolves it (XPBD_ISA included): a
 * configuration a step would refuse is refused here, with the step's
 * status. The scene is checked as listed below (particles, radii, planes
 * and tethers as the step checks them, the sets by their builders), so of
 * a step's checks only the frame length h (XPBD_ERR_TIMESTEP) is left to
 * the first step. On error nothing stays allocated and *out is NULL.
 * *where (may be NULL) is filled on every return: the place of the error
 * as part / index / field ("-" below: NONE or SIZE_MAX; indices are the
 * scene's own: edge, tet, stencil, particle, plane, body), XPBD_PART_NONE /
 * SIZE_MAX / XPBD_FIELD_NONE on success.
 * Checked in this order, before anything is derived from the inputs:
 *   XPBD_ERR_ARGUMENT     out NULL (-/-/-), scene NULL (SCENE/-/-), a NULL
 *                         array: xyz or inv_mass (PARTICLES/-/-), edge,
 *                         tet, bend, tether_length, body_begin (DISTANCE,
 *                         TET, BEND, TETHER, BODY/-/-), more than 8 planes
 *                         or plane NULL (PLANE/-/-), max_contacts above
 *                         INT32_MAX / 2 with radii (CONTACT_FOUND/-/
 *                         max_contacts)
 *   XPBD_ERR_CONFIG       body ranges not increasing within [0, n], as the
 *                         world step refuses them (BODY/body/body_begin)
 *   the step configuration, as every step checks it before it looks at h
 *                         (xpbd/step.h), with the options' threads and
 *                         executor in it: XPBD_ERR_VERSION, XPBD_ERR_CONFIG
 *                         (substeps, iterations, ..., an executor with a NULL
 *                         enqueue or finish or no worker), XPBD_ERR_BETA,
 *                         _RESTITUTION, _SLOP, _FRICTION, XPBD_ERR_CONFIG
 *                         (contact_skin, relative_damping; the lesson order
 *                         with edges, tets, bends or tethers or another
 *                         solver: contact_order), XPBD_ERR_ISA (isa, or the
 *                         XPBD_ISA variable it resolves through) (CONFIG/-/
 *                         the field; the options' executor: OPTIONS/-/the field)
 *   XPBD_ERR_CONFIG       options out of range: negative, not finite
 *                         (OPTIONS/-/the field)
 *   XPBD_ERR_COMPLIANCE   edge_alpha, tet_alpha or bend_alpha negative or
 *                         not finite (DISTANCE, TET, BEND/-/the field)
 *   XPBD_ERR_PLANE        a plane normal not of unit length, or d not finite
 *                         (PLANE/plane/-)
 *   XPBD_ERR_INDEX        origin[i] >= n (SCENE/i/-), or tether_anchor[i] >= n
 *                         (TETHER/i/-)
 *   XPBD_ERR_REST         tether_length[i] negative or not finite (TETHER/i/-)
 *   XPBD_ERR_POSITION, XPBD_ERR_VELOCITY, XPBD_ERR_INVERSE_MASS
 *                         particle i's values (xpbd_particles_validate_*:
 *                         PARTICLES/i/-)
 *   XPBD_ERR_RADIUS       radius[i] (RADIUS/i/-)
 *   XPBD_ERR_INDEX        an edge index out of range (DISTANCE/edge/-)
 *   the builders' codes   (index, rest, compliance, degenerate), naming the
 *                         scene's element (DISTANCE, TET or BEND/element/-;
 *                         a non-finite rest position: XPBD_ERR_POSITION,
 *                         SCENE/particle/-; colouring.max_colours too large:
 *                         XPBD_ERR_CONFIG, the set/-/colouring.max_colours)
 *   XPBD_ERR_COMPLIANCE   XPBD_SOLVER_SPRINGS and an edge of compliance 0
 *                         (DISTANCE/the lowest such edge/-)
 *   XPBD_ERR_NOMEM        allocation failed (-/-/-)
 * Particles before the first body or after the last are free particles
 * (they never sleep). A tether acts only while its anchor is static (w = 0):
 * anchored to a dynamic particle it does nothing until the anchor is
 * pinned. */
XPBD_API xpbd_status xpbd_engine_create_f32(xpbd_engine_f32 **out, const xpbd_scene_f32 *scene,
                                            const xpbd_step_config *cfg,
                                            const xpbd_engine_options *options,
                                            xpbd_where *where);
XPBD_API xpbd_status xpbd_engine_create_f64(xpbd_engine_f64 **out, const xpbd_scene_f64 *scene,
                                            const xpbd_step_config *cfg,
                                            const xpbd_engine_options *options,
                                            xpbd_where *where);
/* Frees the engine and everything it allocated (NULL is fine). */
XPBD_API void xpbd_engine_destroy_f32(xpbd_engine_f32 *e);
XPBD_API void xpbd_engine_destroy_f64(xpbd_engine_f64 *e);

/* One frame of length h (s), as in the picture at the top. Returns the
 * world step's status (XPBD_OK, XPBD_OVERFLOW, or an error with the state
 * unchanged and counters.step naming its place: bad_part, bad_index,
 * bad_field, as xpbd_world_step_* names it), or XPBD_ERR_NOMEM if the topology
 * rebuild failed (the step is done and the old sets and particles are
 * kept; the next frame's stretch pass flags again). After a tear that split
 * vertices (counters.split > 0) particles.count is larger and, without a
 * capacity (options.max_particles), the particle arrays have moved: re-read
 * them from the engine.
 * Allocates only to change the sets, always owned by the engine (freed by
 * the next rebuild or by xpbd_engine_destroy_*): before the world step when
 * a body fell asleep or woke since the sets were built (new sets without
 * the sleeping bodies' constraints, a larger scratch if they need one; on
 * failure XPBD_ERR_NOMEM before anything is stepped, the old sets and the
 * sleep state kept, a body the host moved still asleep until the next step
 * wakes it and tries the rebuild again), and after it when constraints
 * tore (new topology and sets, new particle arrays when vertices split
 * without a capacity). A frame without either never allocates.
 * The world is the engine's own: every element of its particles and sets
 * is checked (as xpbd_world_step_* checks them) by the first step after
 * create and after each call that changes them (xpbd_engine_apply_*,
 * xpbd_engine_couple_rigid_*, xpbd_engine_set_config_*), a sleep rebuild,
 * a tear or a split; the steps in between check the configuration and the
 * time step only. What xpbd_engine_world_* and xpbd_engine_particles_*
 * hand out is read only: an element written through them behind the
 * engine's back is not looked at by those steps. */
XPBD_API xpbd_status xpbd_engine_step_f32(xpbd_engine_f32 *e, double h);
XPBD_API xpbd_status xpbd_engine_step_f64(xpbd_engine_f64 *e, double h);

/* Two-way coupling with a host rigid body between frames: after a frame of
 * length h, every particle with a radius that penetrates the body is moved
 * out by its share w/(w + w_body) of the penetration (xpbd_couple_rigid_*,
 * run on a packed copy in the engine's scratch), and its velocity gets the
 * displacement / h that the step's velocity update would have given it. The
 * particles' momentum change is then exactly minus *out (to rounding): the
 * host applies out->linear and out->angular to its body. A sleeping body
 * the rigid body pushed wakes at the next frame (its state changed).
 * XPBD_ERR_ARGUMENT without radii; otherwise what the kernel returns.
 * Never allocates. */
XPBD_API xpbd_status xpbd_engine_couple_rigid_f32(xpbd_engine_f32 *e, const xpbd_rigid_f64 *body,
                                                  double h, xpbd_rigid_impulse *out);
XPBD_API xpbd_status xpbd_engine_couple_rigid_f64(xpbd_engine_f64 *e, const xpbd_rigid_f64 *body,
                                                  double h, xpbd_rigid_impulse *out);

/* Applies a host input now (between frames); never allocates. Every result
 * is checked in the engine's precision before anything is written: an
 * input refused leaves the state untouched.
 *   XPBD_ERR_ARGUMENT   unknown kind, range outside the particles, or body
 *                       out of range (WAKE)
 *   XPBD_ERR_VELOCITY, XPBD_ERR_POSITION, XPBD_ERR_INVERSE_MASS   a value
 *                       that is not finite in the engine's precision, a
 *                       sum (ADD_VELOCITY, TRANSLATE) that would not be, or
 *                       a negative inverse mass */
XPBD_API xpbd_status xpbd_engine_apply_f32(xpbd_engine_f32 *e, const xpbd_input *in);
XPBD_API xpbd_status xpbd_engine_apply_f64(xpbd_engine_f64 *e, const xpbd_input *in);

/* -------------------------------------------------------- accessors --- */

/* The engine's particles (valid until the next step, apply or destroy:
 * a vertex split may move the arrays). Change them through
 * xpbd_engine_apply_* only. */
XPBD_API const xpbd_particles_f32 *xpbd_engine_particles_f32(const xpbd_engine_f32 *e);
XPBD_API const xpbd_particles_f64 *xpbd_engine_particles_f64(const xpbd_engine_f64 *e);
/* The last frame's counters (after create: the snapshot of the scene). */
XPBD_API const xpbd_engine_counters *xpbd_engine_counters_f32(const xpbd_engine_f32 *e);
XPBD_API const xpbd_engine_counters *xpbd_engine_counters_f64(const xpbd_engine_f64 *e);
/* The world the engine steps: its constraint sets (without those of
 * sleeping bodies; their source[] names the engine's own element index),
 * contact set, planes, tethers, body ranges and sleep flags (body_asleep).
 * Read only: the sets belong to the engine, which rebuilds them whenever
 * its topology or sleep flags change; valid until the next step or
 * destroy. */
XPBD_API const xpbd_world_f32 *xpbd_engine_world_f32(const xpbd_engine_f32 *e);
XPBD_API const xpbd_world_f64 *xpbd_engine_world_f64(const xpbd_engine_f64 *e);
/* The step configuration and options the engine runs with. */
XPBD_API const xpbd_step_config *xpbd_engine_config_f32(const xpbd_engine_f32 *e);
XPBD_API const xpbd_step_config *xpbd_engine_config_f64(const xpbd_engine_f64 *e);
XPBD_API const xpbd_engine_options *xpbd_engine_options_f32(const xpbd_engine_f32 *e);
XPBD_API const xpbd_engine_options *xpbd_engine_options_f64(const xpbd_engine_f64 *e);
/* Replaces the step configuration for the next frames (e.g. the ISA or
 * the iteration count; the options' threads and executor, when set, still
 * override it). Checked as create checks the configuration, against the
 * engine's current topology (the step configuration's codes, then
 * XPBD_ERR_COMPLIANCE for springs on an edge of compliance 0); refused,
 * the engine keeps its configuration. XPBD_ERR_ARGUMENT for NULL. Never
 * allocates. */
XPBD_API xpbd_status xpbd_engine_set_config_f32(xpbd_engine_f32 *e, const xpbd_step_config *cfg);
XPBD_API xpbd_status xpbd_engine_set_config_f64(xpbd_engine_f64 *e, const xpbd_step_config *cfg);
/* The engine as a scene: its current topology in input order (edges with
 * their rest lengths and compliances, tets, bending stencils), rest shape,
 * radii, tethers, origin map, body ranges, sleep state, planes, contact
 * capacity, colouring and frame count, pointing into the engine (valid
 * until the next step or destroy). Positions, velocities and inverse
 * masses live in the particle arrays (xpbd_engine_particles_*): xyz,
 * prev_xyz, vel and inv_mass are NULL, the alphas 0. With those filled in
 * from the particles, create builds an engine that continues this one bit
 * for bit (what a replay file holds). */
XPBD_API void xpbd_engine_scene_f32(const xpbd_engine_f32 *e, xpbd_scene_f32 *out);
XPBD_API void xpbd_engine_scene_f64(const xpbd_engine_f64 *e, xpbd_scene_f64 *out);

/* -------------------------------------------------------- order check --- */

/* How far two serial constraint orders drift apart: Gauss-Seidel results
 * depend on the order, so compare two serial orders before trusting that a
 * colouring (any order within a colour) gives the shape you expect. */
typedef struct xpbd_order_report {
    double max_diff;    /* max over particles of |x_A - x_B| (m) */
    double rms_diff;    /* sqrt(mean |x_A - x_B|^2) (m) */
    double extent;      /* largest edge of run A's bounding box (m) */
    double relative;    /* max_diff / extent */
    uint32_t frames;
} xpbd_order_report;

/* Runs the scene twice for `frames` frames of length h with every set built
 * serial (xpbd_colouring_options.serial = 1): A in the scene's input order,
 * B with the edges, tets and bends permuted (seed 0: each list reversed;
 * otherwise a shuffle drawn from seed), and compares the final positions.
 * Allocates the permuted copies of the scene's topology and the two
 * engines, all freed before it returns. Returns the engine's status if
 * either run fails; *out is zeroed first, so on any error it holds zeros. */
XPBD_API xpbd_status xpbd_order_check_f32(const xpbd_scene_f32 *scene, const xpbd_step_config *cfg,
                                          double h, uint32_t frames, uint64_t seed,
                                          xpbd_order_report *out);
XPBD_API xpbd_status xpbd_order_check_f64(const xpbd_scene_f64 *scene, const xpbd_step_config *cfg,
                                          double h, uint32_t frames, uint64_t seed,
                                          xpbd_order_report *out);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_ENGINE_H */
