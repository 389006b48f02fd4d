/* SPDX-License-Identifier: MIT */
/* Internal declarations shared by the library's translation units. */
#ifndef XPBD_INTERNAL_H
#define XPBD_INTERNAL_H

#include "xpbd/xpbd.h"
#include "xpbd/contacts.h"
#include "xpbd/softbody.h"
#include "xpbd/reference.h" /* the serial kernels the step runs on overflow ranges */

#include <math.h>
#include <stdint.h>

/* The kernel tables of each path: dispatch.h. */

/* Colouring layout (colour.c): colours, real sizes, padded slot offsets,
 * and fill cursors indexed by the colour_of values (max_colours = overflow). */
typedef struct xpbd__layout {
    uint32_t colours;
    uint32_t size[XPBD_MAX_COLOURS + 1];
    uint32_t begin[XPBD_MAX_COLOURS + 1];
    uint32_t fill[XPBD_MAX_COLOURS + 1];
    uint32_t overflow_begin, overflow, slots;
} xpbd__layout;

void xpbd__colour(size_t n, size_t m, unsigned k, const uint32_t *const idx[4], size_t stride,
                  uint32_t max_colours, uint64_t *used, uint8_t *colour_of, xpbd__layout *out);

/* The colouring of xpbd_colouring_options.runs, of m pair constraints in the
 * runs order (xpbd__runs_order): an offset shared by at least
 * XPBD_RUNS_CLASS constraints prefers colours above those used before it;
 * a constraint prefers the colour of the one before it in its run (i0 - 1,
 * or i0 - 2 for offset 1), and one that starts a run prefers the colour
 * its neighbouring run will take; first free otherwise. */
#define XPBD_RUNS_CLASS (4 * XPBD_BATCH)
void xpbd__colour_runs(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                       uint32_t max_colours, uint64_t *used, uint8_t *colour_of,
                       xpbd__layout *out);

/* A sort key and the index it stands for; xpbd__sort_keyed orders an array
 * of them by key, equal keys by index (a stable order from qsort). */
typedef struct xpbd__keyed {
    uint64_t key;
    uint32_t index;
} xpbd__keyed;
void xpbd__sort_keyed(xpbd__keyed *a, size_t m);

/* The runs order of xpbd_colouring_options: order[j] = the input index of
 * the j-th constraint by offset i1 - i0, then i0, then input index.
 * Returns 0 when out of memory. */
int xpbd__runs_order(size_t m, const uint32_t *i0, const uint32_t *i1, uint32_t *order);

/* The runs layout of one colour's n slots (i0, i1 in the runs order): a
 * run is a stretch of one offset whose i0 steps by 1 (by 2 for offset 1,
 * pairs side by side); perm[t] = the slot that goes to place t: each run's
 * whole XPBD_BATCH-slot pieces in order, the whole XPBD_RUN_GROUP-slot
 * groups of what is left gathered into vectors of XPBD_BATCH between them
 * (one step per vector), the last few slots of each run into vectors of
 * their own, and what remains of these at the colour's end. Pieces start
 * at multiples of XPBD_BATCH, so each is one vector of the widest path,
 * whose runs are made of groups (simd/wide.h). */
#define XPBD_RUN_GROUP 4
void xpbd__runs_pack(uint32_t n, const uint32_t *i0, const uint32_t *i1, uint32_t *perm);

/* Regions of a distance set (xpbd_colouring_options.regions, colour.c).
 * xpbd__region_cut: each particle's region (region_of[n]): particles in
 * index order cut into regions ranges holding about m / regions
 * constraints each, counted by their lower particle. xpbd__colour_regions:
 * the regions colouring of m pair constraints: each region's interior on
 * its own (at most min(max_colours, 48 / regions) colours, input order or
 * the runs order), then the boundary with what fits in no interior colour
 * (input order merged, at most the colours left); out gets the layout
 * (overflow index XPBD_MAX_COLOURS), the sequence order[j] / colour_of[j]
 * (input index, colour) the set is filled in, region_colour[regions + 1]
 * the first colour of each region and of the boundary. Returns 0 when out
 * of memory. xpbd__regions_ok: the set's region fields consistent.
 * xpbd__region_overlap: the first interior slot using a particle an
 * earlier region's interior uses, or UINT32_MAX (stamp: n entries of
 * scratch). */
void xpbd__region_cut(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                      uint32_t regions, uint32_t *region_of);
int xpbd__colour_regions(size_t n, size_t m, const uint32_t *i0, const uint32_t *i1,
                         uint32_t regions, uint32_t max_colours, int runs, xpbd__layout *out,
                         uint8_t *colour_of, uint32_t *order, uint32_t *region_colour);
int xpbd__regions_ok(uint32_t regions, const uint32_t *region_colour, uint32_t colours);
uint32_t xpbd__region_overlap(uint32_t regions, const uint32_t *region_colour,
                              const uint32_t *colour_begin, const uint32_t *colour_size,
                              const uint32_t *i0, const uint32_t *i1, size_t n, uint32_t *stamp);
/* The real slots of one colour of n slots (i0, i1 as laid out) that sit
 * in runs: in whole XPBD_BATCH-slot vectors whose XPBD_RUN_GROUP-slot
 * groups all step as a run of the widest path does (all i0 and i1 by 1,
 * or all i0 by 2 with i1 = i0 + 1; simd/wide.h: wf_run_kind != 0). The
 * measure of XPBD_LAYOUT_AUTO. */
uint32_t xpbd__runs_share(uint32_t n, const uint32_t *i0, const uint32_t *i1);

/* 1 if the layout fields of a coloured set are consistent: colour 0 starts
 * at slot 0, every colour is whole batches with fewer than XPBD_BATCH
 * padding slots, the overflow range follows the colours, and the real
 * constraints add up to count. */
int xpbd__layout_ok(uint32_t count, uint32_t slots, uint32_t colours, const uint32_t *colour_begin,
                    const uint32_t *colour_size, uint32_t overflow_begin);

/* The first real slot of a coloured set's colours that uses a particle an
 * earlier slot of its colour uses (or itself twice), or, with source given,
 * holds XPBD_PAD: UINT32_MAX if none. The kernels solve a colour's slots at
 * once (SIMD lanes, threads), so a repeat would make them differ from the
 * scalar reference. idx: the k (2 or 4) index arrays; stamp: n entries of
 * caller scratch, cleared here once, then tagged with each slot's colour
 * (one pass, no allocation). Indices must already be below n. */
uint32_t xpbd__colour_repeat(uint32_t colours, const uint32_t *colour_begin,
                             const uint32_t *colour_size, const uint32_t *const idx[4],
                             unsigned k, const uint32_t *source, size_t n, uint32_t *stamp);

/* The same check on colours [c0, c1) only, on a stamp that holds no tag of
 * those colours (filled with 0xff once, or tagged by other colours only):
 * colours checked on separate stamps give, taken together, what one pass
 * over all of them gives. */
uint32_t xpbd__colour_repeat_range(uint32_t c0, uint32_t c1, const uint32_t *colour_begin,
                                   const uint32_t *colour_size, const uint32_t *const idx[4],
                                   unsigned k, const uint32_t *source, uint32_t *stamp);

/* The distance set validator (xpbd_distance_set_validate_*) in its three
 * parts, for the step's validation over ranges: the set's fields (XPBD_OK
 * also for an empty set, which needs nothing more); the screen of slots
 * [s0, s1) (1: every per-slot check passes; the validator itself names the
 * first failing slot); then the colours' repeat check (xpbd__colour_repeat). */
xpbd_status xpbd__distance_set_fields_f32(const xpbd_distance_set_f32 *c, const uint32_t *stamp);
xpbd_status xpbd__distance_set_fields_f64(const xpbd_distance_set_f64 *c, const uint32_t *stamp);
int xpbd__distance_set_screen_f32(const xpbd_distance_set_f32 *c, size_t n, uint32_t s0,
                                  uint32_t s1);
int xpbd__distance_set_screen_f64(const xpbd_distance_set_f64 *c, size_t n, uint32_t s0,
                                  uint32_t s1);

/* The tetrahedron / bending set validator (xpbd_quad_set_validate_*) in its
 * parts likewise: the fields, the per-slot checks on slots [s0, s1) (the
 * first bad slot there and its status), then the repeat check. */
xpbd_status xpbd__quad_set_fields_f32(const xpbd_quad_set_f32 *c, const uint32_t *stamp);
xpbd_status xpbd__quad_set_fields_f64(const xpbd_quad_set_f64 *c, const uint32_t *stamp);
xpbd_status xpbd__quad_set_slots_f32(const xpbd_quad_set_f32 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index);
xpbd_status xpbd__quad_set_slots_f64(const xpbd_quad_set_f64 *c, size_t n, uint32_t s0,
                                     uint32_t s1, size_t *bad_index);

/* The builders' common parts (softbody.c), for the kinds' builders
 * (kinds/tet_volume.c, kinds/bend.c): the inputs' checks (clears *out and
 * *bad_index; sizes, rest positions, indices, compliances), the colouring
 * and layout of the index arrays (source[] then maps each slot to its
 * input, XPBD_PAD for padding), and an edge b - a of the rest positions. */
#define xpbd__quad_set_inputs PREC(xpbd__quad_set_inputs_f32, xpbd__quad_set_inputs_f64)
#define xpbd__quad_set_layout PREC(xpbd__quad_set_layout_f32, xpbd__quad_set_layout_f64)
#define xpbd__quad_set_edge PREC(xpbd__quad_set_edge_f32, xpbd__quad_set_edge_f64)
xpbd_status xpbd__quad_set_inputs_f32(xpbd_quad_set_f32 *out, size_t n, const float *xyz,
                                      size_t count, const uint32_t *idx, const float *compliance,
                                      size_t *bad_index);
xpbd_status xpbd__quad_set_inputs_f64(xpbd_quad_set_f64 *out, size_t n, const double *xyz,
                                      size_t count, const uint32_t *idx, const double *compliance,
                                      size_t *bad_index);
xpbd_status xpbd__quad_set_layout_f32(xpbd_quad_set_f32 *out, size_t n, size_t count,
                                      const uint32_t *idx, const xpbd_colouring_options *options);
xpbd_status xpbd__quad_set_layout_f64(xpbd_quad_set_f64 *out, size_t n, size_t count,
                                      const uint32_t *idx, const xpbd_colouring_options *options);
void xpbd__quad_set_edge_f32(const float *xyz, uint32_t a, uint32_t b, double out[3]);
void xpbd__quad_set_edge_f64(const double *xyz, uint32_t a, uint32_t b, double out[3]);

/* 1 if a host rigid body is usable for coupling: known shape, positive
 * finite size, finite non-negative inverse mass, finite rotation and
 * inverse inertia (softbody.c). */
int xpbd__rigid_ok(const xpbd_rigid_f64 *b);
/* The first field of b, in xpbd_rigid_f64's order, that makes it unusable
 * (XPBD_FIELD_SHAPE ... XPBD_FIELD_INV_INERTIA), or XPBD_FIELD_NONE:
 * XPBD_FIELD_NONE exactly when xpbd__rigid_ok(b). */
xpbd_field xpbd__rigid_field(const xpbd_rigid_f64 *b);

/* The step configuration's own rules, the first the step checks (step/driver.c):
 * the version (XPBD_ERR_VERSION), then the fields in xpbd_step_config's
 * order (XPBD_ERR_CONFIG), the executor, the contact fields (XPBD_ERR_BETA,
 * _RESTITUTION, _SLOP, _FRICTION), contact_skin and relative_damping
 * (XPBD_ERR_CONFIG). *field gets the field at fault (XPBD_FIELD_NONE on
 * success). Checked the same way by the step and by the engine's create
 * and set_config, so all three refuse a configuration alike. */
xpbd_status xpbd__config_check(const xpbd_step_config *cfg, xpbd_field *field);

/* 1 if v is finite and >= 0: the rule of the non-negative configuration
 * and option fields. */
static inline int xpbd__finite_nonneg(double v)
{
    return isfinite(v) && v >= 0;
}

/* 1 if cfg asks for the contact lesson order where it does not apply: a
 * world with constraints (distance, tet, bend sets or tethers) or a solver
 * other than XPBD (XPBD_ERR_CONFIG, contact_order). The step and the
 * engine's create both refuse it by this rule. */
static inline int xpbd__lesson_refused(const xpbd_step_config *cfg, int constrained)
{
    return cfg->contact_order == XPBD_CONTACTS_LESSON &&
           (constrained || cfg->solver != XPBD_SOLVER_XPBD);
}

/* ---- the step's internal entry (step/driver.c) ---------------------------- */

/* The per-stage clock's slots: the validation first, then the driver's
 * stages (slot 1 + stage, step/step.h: xpbd__stage, in its order). */
#define XPBD__STAGE_TIMES 13u

/* How an internal caller runs a step (xpbd__world_step_*); zeroed: as the
 * public step. */
typedef struct xpbd__step_how {
    /* 1: the caller built every array of the world and nothing but a step
     * that passed its checks has changed them since the last step that ran
     * every check (the engine's sets and particles between its topology
     * changes and host inputs): the per-element checks of the particles
     * and the sets are skipped. The configuration, the time step, the
     * scratch and the arrays' presence are still checked every call. */
    int owned;
    /* [XPBD__STAGE_TIMES] seconds added to each stage's slot (on the
     * caller's clock, the team's waits included), or NULL: no clock is
     * read. For the bench's per-stage split; the step prints nothing. */
    double *stage_seconds;
} xpbd__step_how;

/* The step of xpbd_world_step_* run as how says (NULL: as the public step). */
xpbd_status xpbd__world_step_f32(const xpbd_step_config *cfg, double h, xpbd_world_f32 *w,
                                 void *scratch, size_t scratch_bytes,
                                 xpbd_step_counters *counters, const xpbd__step_how *how);
xpbd_status xpbd__world_step_f64(const xpbd_step_config *cfg, double h, xpbd_world_f64 *w,
                                 void *scratch, size_t scratch_bytes,
                                 xpbd_step_counters *counters, const xpbd__step_how *how);
/* The name of clock slot i (< XPBD__STAGE_TIMES): "validate", "prepare",
 * "snapshot", ... as xpbd__stage names the stages; NULL past the end. */
const char *xpbd__stage_name(unsigned i);

#endif
