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

/* The engine (opaque in xpbd/engine.h): a world built from a scene, its
 * sleep state, counters and the current topology in input order. world
 * points into the struct (re-pointed at every step), so a copy is only a
 * scratch view (the tear and the sleep rebuild build beside the original). */
struct xpbd_engine_f32 {
    xpbd_world_f32 world;
    xpbd_particles_f32 particles;
    xpbd_distance_set_f32 distance;
    xpbd_quad_set_f32 tets, bends;
    xpbd_contact_set contacts;
    xpbd_step_config config;
    xpbd_engine_options options;
    xpbd_sleep_state sleep;
    xpbd_engine_counters counters;  /* the last frame's snapshot */
    uint64_t frame;                 /* frames completed */
    xpbd_colouring_options colouring;
    size_t max_contacts;
    /* topology in input order; the sets are built from these */
    size_t edge_count, tet_count, bend_count;
    uint32_t *edge, *tet, *bend;
    float *edge_rest, *edge_compliance, *tet_compliance, *bend_compliance;
    float *rest_xyz;                /* [3n] */
    float *radius;                  /* [n] or NULL */
    uint32_t *tether_anchor;        /* [n] or NULL */
    float *tether_length;
    size_t *body_begin;             /* [bodies + 1] or NULL */
    xpbd_plane planes[8];
    uint32_t plane_count;
    uint8_t *torn;                  /* [edge_count] flags of the last stretch pass */
    float *plane_impulse;           /* [n] with radius: impulse each particle gave the
                                       planes during the last frame (N*s), else NULL */
    void *scratch;
    size_t scratch_bytes;
    size_t capacity;                /* particles the arrays have room for */
    void *owned_;                   /* particle block */
    uint32_t *contact_i0_, *contact_i1_;
    uint32_t *origin;               /* [n] scene particle each particle descends from */
    uint8_t *active_;               /* [bodies] sleep flags the sets were built for */
    uint8_t *asleep_undo_;          /* [bodies] sleep flags and calm counts at frame start, */
    uint32_t *calm_undo_;           /* put back when the frame fails (state unchanged) */
};

struct xpbd_engine_f64 {
    xpbd_world_f64 world;
    xpbd_particles_f64 particles;
    xpbd_distance_set_f64 distance;
    xpbd_quad_set_f64 tets, bends;
    xpbd_contact_set contacts;
    xpbd_step_config config;
    xpbd_engine_options options;
    xpbd_sleep_state sleep;
    xpbd_engine_counters counters;
    uint64_t frame;
    xpbd_colouring_options colouring;
    size_t max_contacts;
    size_t edge_count, tet_count, bend_count;
    uint32_t *edge, *tet, *bend;
    double *edge_rest, *edge_compliance, *tet_compliance, *bend_compliance;
    double *rest_xyz;
    double *radius;
    uint32_t *tether_anchor;
    double *tether_length;
    size_t *body_begin;
    xpbd_plane planes[8];
    uint32_t plane_count;
    uint8_t *torn;
    double *plane_impulse;
    void *scratch;
    size_t scratch_bytes;
    size_t capacity;
    void *owned_;
    uint32_t *contact_i0_, *contact_i1_;
    uint32_t *origin;
    uint8_t *active_;
    uint8_t *asleep_undo_;
    uint32_t *calm_undo_;
};

/* ---- per precision, defined by one feature and used by another ------- */

/* lifecycle.c: point the world at the engine's arrays; allocate the
 * particle block; build the sets from the topology; size the scratch */
void xpbd__engine_point_f32(xpbd_engine_f32 *e);
void xpbd__engine_point_f64(xpbd_engine_f64 *e);
float *xpbd__engine_block_f32(xpbd_engine_f32 *e, size_t n, size_t cap, int radius, int tethers);
double *xpbd__engine_block_f64(xpbd_engine_f64 *e, size_t n, size_t cap, int radius, int tethers);
xpbd_status xpbd__engine_build_f32(const xpbd_engine_f32 *e, xpbd_distance_set_f32 *d,
                                   xpbd_quad_set_f32 *t, xpbd_quad_set_f32 *b, xpbd_where *where);
xpbd_status xpbd__engine_build_f64(const xpbd_engine_f64 *e, xpbd_distance_set_f64 *d,
                                   xpbd_quad_set_f64 *t, xpbd_quad_set_f64 *b, xpbd_where *where);
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

/* split.c: where particles go when a split adds copies, and the move */
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
