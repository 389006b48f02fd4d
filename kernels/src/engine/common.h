/* SPDX-License-Identifier: MIT */
/* Declarations shared by the engine's files (kernels/src/engine/): the
 * small helpers several features use, and the per-precision functions one
 * feature calls in another. Nothing here is exported. */
#ifndef XPBD_ENGINE_COMMON_H
#define XPBD_ENGINE_COMMON_H

#include "internal.h"
#include "xpbd/engine.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"


/* The body holding particle i (body_begin sorted), or UINT32_MAX. */
static inline uint32_t engine_body_of(const size_t *begin, uint32_t bodies, size_t i)
{
    if (!bodies || i < begin[0] || i >= begin[bodies])
        return UINT32_MAX;
    uint32_t lo = 0, hi = bodies; /* begin[lo] <= i < begin[hi] */
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (begin[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The place of an error into *where (part, index, field). Returns st. */
static inline xpbd_status xpbd__engine_refuse(xpbd_where *where, xpbd_status st, xpbd_part part,
                                              size_t index, xpbd_field field)
{
    where->part = part;
    where->index = index;
    where->field = field;
    return st;
}

/* An unordered particle pair as one sortable key (min, max). */
static inline uint64_t engine_pair_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

/* qsort order of 64-bit keys. */
static inline int engine_pair_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- the rows' storage ------------------------------------------------ */

/* Rows the engine's order holds at most (kinds/table.c: xpbd__engine_kinds). */
#define XPBD__ENGINE_ROWS 8u

/* What a row keeps per particle (engine_kind.particles): a real (in the
 * particle block), a particle index (its own block; a particle naming
 * itself names none). */
enum { XPBD__ENGINE_REAL = 1u, XPBD__ENGINE_INDEX = 2u };

/* The three lists a tear hands to xpbd_tear_split (engine_kind.tear): the
 * edges it tears, the cells that hold a torn pair among their six, the
 * stencils that a torn side or a split across two fans removes. */
typedef enum xpbd__tear_role {
    XPBD__TEAR_NONE,
    XPBD__TEAR_EDGES,
    XPBD__TEAR_CELLS,
    XPBD__TEAR_STENCILS,
    XPBD__TEAR_ROLES
} xpbd__tear_role;

/* The order of the scene checks at create (engine_kind.check): the
 * scene's arrays a row needs, the ranges of the world state, the default
 * compliances, a row's own elements, then (after the scene's origin) its
 * per-particle values. */
typedef enum xpbd__engine_check {
    XPBD__CHECK_ARGUMENTS,
    XPBD__CHECK_RANGES,
    XPBD__CHECK_COMPLIANCE,
    XPBD__CHECK_ELEMENTS,
    XPBD__CHECK_PARTICLES
} xpbd__engine_check;

/* What a row's slot holds besides its list: the set built from it (a
 * coloured set of 2-index or 4-index elements), or its own state (the
 * found pairs' set, the planes). */
typedef union xpbd__engine_set_f32 {
    xpbd_distance_set_f32 pairs;
    xpbd_quad_set_f32 quads;
    xpbd_contact_set found;
    xpbd_plane plane[8];
} xpbd__engine_set_f32;

typedef union xpbd__engine_set_f64 {
    xpbd_distance_set_f64 pairs;
    xpbd_quad_set_f64 quads;
    xpbd_contact_set found;
    xpbd_plane plane[8];
} xpbd__engine_set_f64;

/* One row's part of the engine (engine_kind in kinds/<kind>.c says what
 * it means): its elements in input order (count of them: arity indices,
 * a rest value and a compliance each; a row without a list may count
 * what it holds), the set built from them, its per-particle arrays. */
typedef struct xpbd__engine_slot_f32 {
    size_t count;
    uint32_t *idx;              /* [arity * count] */
    float *rest, *comp;         /* [count] each, one block from rest */
    xpbd__engine_set_f32 set;
    float *preal;               /* [capacity] in the particle block, or NULL */
    uint32_t *pindex;           /* [capacity] or NULL */
} xpbd__engine_slot_f32;

typedef struct xpbd__engine_slot_f64 {
    size_t count;
    uint32_t *idx;
    double *rest, *comp;
    xpbd__engine_set_f64 set;
    double *preal;
    uint32_t *pindex;
} xpbd__engine_slot_f64;

/* The engine (opaque in xpbd/engine.h): a world built from a scene, its
 * sleep state, counters and, per row of the engine's order, its topology
 * in input order and the set built from it. world points into the struct
 * (re-pointed at every step), so a copy is only a scratch view (the tear
 * and the sleep rebuild build beside the original). */
struct xpbd_engine_f32 {
    xpbd_world_f32 world;
    xpbd_particles_f32 particles;
    xpbd__engine_slot_f32 slot[XPBD__ENGINE_ROWS]; /* by row of xpbd__engine_kinds */
    xpbd_step_config config;
    xpbd_engine_options options;
    xpbd_sleep_state sleep;
    xpbd_engine_counters counters;  /* the last frame's snapshot */
    uint64_t frame;                 /* frames completed */
    xpbd_colouring_options colouring;
    float *rest_xyz;                /* [3n] */
    float *radius;                  /* [n] or NULL */
    size_t *body_begin;             /* [bodies + 1] or NULL */
    uint8_t *torn;                  /* [edges + 1] flags of the last stretch pass (the
                                       tearing row's elements) */
    void *scratch;
    size_t scratch_bytes;
    size_t capacity;                /* particles the arrays have room for */
    void *owned_;                   /* particle block */
    uint32_t *origin;               /* [n] scene particle each particle descends from */
    uint8_t *active_;               /* [bodies] sleep flags the sets were built for */
    uint8_t *asleep_undo_;          /* [bodies] sleep flags and calm counts at frame start, */
    uint32_t *calm_undo_;           /* put back when the frame fails (state unchanged) */
    int checked_;                   /* 1: a step checked the world's every element and only
                                       steps changed it since; cleared by every other path
                                       that writes the particles, the sets or the sleep
                                       flags (create, apply, couple, set_config, the sleep
                                       rebuild, a tear or split): the next step checks all */
};

struct xpbd_engine_f64 {
    xpbd_world_f64 world;
    xpbd_particles_f64 particles;
    xpbd__engine_slot_f64 slot[XPBD__ENGINE_ROWS];
    xpbd_step_config config;
    xpbd_engine_options options;
    xpbd_sleep_state sleep;
    xpbd_engine_counters counters;
    uint64_t frame;
    xpbd_colouring_options colouring;
    double *rest_xyz;
    double *radius;
    size_t *body_begin;
    uint8_t *torn;
    void *scratch;
    size_t scratch_bytes;
    size_t capacity;
    void *owned_;
    uint32_t *origin;
    uint8_t *active_;
    uint8_t *asleep_undo_;
    uint32_t *calm_undo_;
    int checked_;
};

/* ---- per precision, defined by one feature and used by another ------- */

/* lifecycle.c: point the world at the engine's arrays; allocate the
 * particle block (reals: bit r set when row r keeps a real per particle);
 * build the rows' sets from their lists into sets[] (by row); free them;
 * size the scratch */
void xpbd__engine_point_f32(xpbd_engine_f32 *e);
void xpbd__engine_point_f64(xpbd_engine_f64 *e);
float *xpbd__engine_block_f32(xpbd_engine_f32 *e, size_t n, size_t cap, int radius,
                              uint32_t reals);
double *xpbd__engine_block_f64(xpbd_engine_f64 *e, size_t n, size_t cap, int radius,
                               uint32_t reals);
xpbd_status xpbd__engine_build_f32(const xpbd_engine_f32 *e, xpbd__engine_set_f32 *sets,
                                   xpbd_where *where);
xpbd_status xpbd__engine_build_f64(const xpbd_engine_f64 *e, xpbd__engine_set_f64 *sets,
                                   xpbd_where *where);
void xpbd__engine_free_sets_f32(xpbd__engine_set_f32 *sets);
void xpbd__engine_free_sets_f64(xpbd__engine_set_f64 *sets);
xpbd_status xpbd__engine_scratch_f32(xpbd_engine_f32 *e);
xpbd_status xpbd__engine_scratch_f64(xpbd_engine_f64 *e);

/* counters.c: the snapshot, with the stretch pass's maximum if known */
void xpbd__counters_fill_f32(const xpbd_world_f32 *w, const xpbd_step_counters *k,
                             const double *max_stretch, xpbd_engine_counters *out);
void xpbd__counters_fill_f64(const xpbd_world_f64 *w, const xpbd_step_counters *k,
                             const double *max_stretch, xpbd_engine_counters *out);

/* sleeping.c: rebuild the sets for the current sleep flags */
xpbd_status xpbd__engine_activate_f32(xpbd_engine_f32 *e);
xpbd_status xpbd__engine_activate_f64(xpbd_engine_f64 *e);

/* tearing.c: the topology change at step end */
xpbd_status xpbd__engine_tear_f32(xpbd_engine_f32 *e, uint32_t *split, uint32_t *woke,
                                  uint32_t *dropped);
xpbd_status xpbd__engine_tear_f64(xpbd_engine_f64 *e, uint32_t *split, uint32_t *woke,
                                  uint32_t *dropped);

/* split_move.c: where particles go when a split adds copies, and the move */
void xpbd__engine_layout_f32(const xpbd_engine_f32 *e, const uint32_t *src, size_t copies,
                             uint32_t *map, size_t *begin, uint32_t *pieces, size_t *per_body);
void xpbd__engine_layout_f64(const xpbd_engine_f64 *e, const uint32_t *src, size_t copies,
                             uint32_t *map, size_t *begin, uint32_t *pieces, size_t *per_body);
void xpbd__engine_move_f32(const xpbd_engine_f32 *from, xpbd_engine_f32 *to, size_t n,
                           const uint32_t *src, size_t copies, const uint32_t *map,
                           const uint32_t *pieces);
void xpbd__engine_move_f64(const xpbd_engine_f64 *from, xpbd_engine_f64 *to, size_t n,
                           const uint32_t *src, size_t copies, const uint32_t *map,
                           const uint32_t *pieces);

#endif /* XPBD_ENGINE_COMMON_H */

/* ---- per precision: the engine's row of a kind ---------------------- */

#if !defined(R)
/* outside a precision: the shared part only */
#elif R_F64 && !defined(XPBD_ENGINE_COMMON_H_F64)
#  define XPBD_ENGINE_COMMON_H_F64
#  define XPBD_ENGINE_COMMON_H_OPEN
#elif !R_F64 && !defined(XPBD_ENGINE_COMMON_H_F32)
#  define XPBD_ENGINE_COMMON_H_F32
#  define XPBD_ENGINE_COMMON_H_OPEN
#endif

#ifdef XPBD_ENGINE_COMMON_H_OPEN
#undef XPBD_ENGINE_COMMON_H_OPEN

/* The names of this part's types and table, both precisions. */
#define engine_kind PREC(engine_kind_f32, engine_kind_f64)
#define engine_slot PREC(xpbd__engine_slot_f32, xpbd__engine_slot_f64)
#define engine_set PREC(xpbd__engine_set_f32, xpbd__engine_set_f64)
#define xpbd__engine_kinds PREC(xpbd__engine_kinds_f32, xpbd__engine_kinds_f64)
#define engine_scene_count PREC(engine_scene_count_f32, engine_scene_count_f64)
#define engine_scene_index PREC(engine_scene_index_f32, engine_scene_index_f64)
#define engine_scene_reals PREC(engine_scene_reals_f32, engine_scene_reals_f64)
#define engine_scene_double PREC(engine_scene_double_f32, engine_scene_double_f64)
#define engine_scene_give PREC(engine_scene_give_f32, engine_scene_give_f64)
#define engine_scene_give_count PREC(engine_scene_give_count_f32, engine_scene_give_count_f64)
#define engine_tear_row PREC(engine_tear_row_f32, engine_tear_row_f64)
#define engine_quads_free PREC(engine_quads_free_f32, engine_quads_free_f64)
#define engine_quads_source PREC(engine_quads_source_f32, engine_quads_source_f64)

/* No such scene field (engine_kind's offsets: the scene's first field,
 * its particle count, is never one a row names). */
#define XPBD__NO_FIELD 0u

/* A kind's row on the engine's side (the step's row is step_kind,
 * step/step.h): everything the engine's create, scene, rebuilds, tear,
 * split and order check need of it, in its kind's file, kinds/<kind>.c.
 * A kind with a list of elements describes it with data (arity, the
 * scene's fields as offsets into xpbd_scene) and the engine's generic
 * code copies, checks, rebuilds, tears, remaps and permutes it; a NULL
 * hook: the kind takes no part in that. */
typedef struct engine_kind {
    const char *name;
    xpbd_part part;             /* what its refusals name */
    int constraint;             /* a constraint kind (the lesson order refuses one) */
    /* its list: arity indices per element (0: no list), the scene's
     * count, indices, rest values (or XPBD__NO_FIELD), compliances and
     * default compliance, as offsets into SFX(xpbd_scene) */
    unsigned arity;
    int columns;                /* its builder takes one index array per corner */
    size_t count_at, idx_at, rest_at, comp_at, alpha_at;
    xpbd_field alpha_field;     /* what a bad default compliance names */
    xpbd__tear_role tear;       /* its list's role in a tear */
    /* per particle: what it keeps for a scene (XPBD__ENGINE_REAL, INDEX)
     * and the scene's fields of those (or XPBD__NO_FIELD); fresh: a
     * split's copy starts the real at 0 (else it takes its vertex's) */
    unsigned (*particles)(const SFX(xpbd_scene) *sc);
    size_t real_at, index_at;
    int fresh;
    /* its checks of the scene at create, in phase (a refusal fills where) */
    xpbd_status (*check)(const SFX(xpbd_scene) *sc, xpbd__engine_check phase,
                         xpbd_where *where);
    /* an element's rest value from the rest shape, when the scene gives none */
    R (*rest)(const R *rest_xyz, const uint32_t *idx);
    /* its set from m kept elements (indices: arity per element, or one
     * column of stride per corner), as its builder does (at: the element) */
    xpbd_status (*build)(engine_set *set, size_t n, const R *rest_xyz, size_t m,
                         const uint32_t *idx, size_t stride, const R *rest, const R *comp,
                         const xpbd_colouring_options *options, size_t *at);
    void (*free_set)(engine_set *set);
    /* its set's source[] and slots */
    uint32_t *(*source)(engine_set *set, uint32_t *slots);
    /* its rule on the configuration the engine steps with */
    xpbd_status (*config)(const engine_set *set, const xpbd_step_config *run,
                          xpbd_where *where);
    /* its own state from the scene, after the sets */
    xpbd_status (*copy)(const SFX(xpbd_engine) *e, engine_slot *s, const SFX(xpbd_scene) *sc);
    /* the world's view of it */
    void (*point)(const SFX(xpbd_engine) *e, engine_slot *s, SFX(xpbd_world) *w);
    /* the scene's fields of its own state (the list and the per-particle
     * arrays are given back from the offsets) */
    void (*scene)(const engine_slot *s, SFX(xpbd_scene) *out);
    /* the pairs its broad phase may keep (the scratch's room) */
    size_t (*pairs)(const SFX(xpbd_engine) *e, const engine_slot *s);
    /* the particles were renumbered (a split): drop what names old ones */
    void (*renumbered)(engine_slot *s);
    /* the stretch pass: flags of its elements past threshold, the largest
     * stretch; the counters' figure of its set after a tear */
    uint32_t (*tear_flag)(const P *p, const engine_set *set, double threshold, uint8_t *flags,
                          double *max_stretch);
    void (*torn)(const engine_set *set, xpbd_engine_counters *out);
    /* the pairs that wake a sleeping body touched by something moving */
    const xpbd_contact_set *(*touch)(const SFX(xpbd_world) *w);
} engine_kind;

/* The engine's order (kinds/table.c): the order create checks the scene
 * in and builds the sets in, NULL-terminated; slot r is row r's. */
extern const engine_kind *const xpbd__engine_kinds[];

/* A scene field a row names by offset (XPBD__NO_FIELD: none): a count,
 * an index array, reals, a double; and the same given back into out. */
static inline size_t engine_scene_count(const SFX(xpbd_scene) *sc, size_t at)
{
    size_t v = 0;
    if (at != XPBD__NO_FIELD)
        memcpy(&v, (const char *)sc + at, sizeof v);
    return v;
}

static inline const uint32_t *engine_scene_index(const SFX(xpbd_scene) *sc, size_t at)
{
    const uint32_t *v = NULL;
    if (at != XPBD__NO_FIELD)
        memcpy(&v, (const char *)sc + at, sizeof v);
    return v;
}

static inline const R *engine_scene_reals(const SFX(xpbd_scene) *sc, size_t at)
{
    const R *v = NULL;
    if (at != XPBD__NO_FIELD)
        memcpy(&v, (const char *)sc + at, sizeof v);
    return v;
}

static inline double engine_scene_double(const SFX(xpbd_scene) *sc, size_t at)
{
    double v;
    memcpy(&v, (const char *)sc + at, sizeof v);
    return v;
}

static inline void engine_scene_give(SFX(xpbd_scene) *out, size_t at, const void *p)
{
    if (at != XPBD__NO_FIELD)
        memcpy((char *)out + at, &p, sizeof p);
}

static inline void engine_scene_give_count(SFX(xpbd_scene) *out, size_t at, size_t n)
{
    if (at != XPBD__NO_FIELD)
        memcpy((char *)out + at, &n, sizeof n);
}

/* The row with a tear role, or -1. */
static inline int engine_tear_row(xpbd__tear_role role)
{
    for (int r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->tear == role)
            return r;
    return -1;
}

/* The hooks of a row whose set is a quad set (4 indices per element). */
static inline void engine_quads_free(engine_set *set)
{
    SFX(xpbd_quad_set_free)(&set->quads);
}

static inline uint32_t *engine_quads_source(engine_set *set, uint32_t *slots)
{
    *slots = set->quads.slots;
    return set->quads.source;
}

#endif /* XPBD_ENGINE_COMMON_H_OPEN */
