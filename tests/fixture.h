/* SPDX-License-Identifier: MIT */
/* fixture.h: random particle clouds and constraint graphs shared by the
 * cross-check, colouring and bad-input tests, in both precisions.
 *
 * A cloud owns one block holding the ten particle arrays and three force
 * arrays (fx, fy, fz) of n particles. A graph is a precision-free list of
 * constraints (i0, i1, rest, compliance) over n particles, with optional
 * dedicated extra pairs appended at the end:
 *   - coincident pairs: two dynamic particles at the same position with the
 *     same velocity, linked only to each other (they stay coincident through
 *     predict, so every solve skips them);
 *   - static pairs: two particles with w = 0 linked only to each other. */
#ifndef XPBD_TEST_FIXTURE_H
#define XPBD_TEST_FIXTURE_H

#include "test.h"

typedef struct xt_graph {
    size_t particles;   /* including the extra pairs */
    size_t count;       /* constraints */
    uint32_t *i0, *i1;
    double *rest, *compliance;
    size_t coincident;  /* extra coincident pairs (last constraints before the static ones) */
    size_t static_pairs;/* extra static pairs (the last constraints) */
} xt_graph;

typedef enum xt_graph_kind {
    XT_MATCHING, /* constraint k links 2k and 2k+1: one colour of exactly `count` */
    XT_RANDOM,   /* random pairs among about count/3 particles: a few colours */
    XT_STAR,     /* particle 0 linked to every other: one constraint per colour */
    XT_DENSE,    /* random pairs among very few particles: many colours, overflow */
    XT_GRID,     /* the first `count` edges of a square grid with both diagonals
                  * (i0 < i1), shuffled: with the runs option, colours of runs */
    XT_NEAR_RUNS /* one colour of 16-slot blocks in input order, each a run of
                  * the widest path (16 parallel edges, 4 groups of them, 16 or
                  * 4x4 pairs side by side, parallel edges with one end's last
                  * group apart) with at most one lane's i0 or i1 moved
                  * elsewhere: every kind of run, and every near miss */
} xt_graph_kind;

/* Compliance mix: 1/4 zero (rigid), 1/2 small [1e-7, 1e-3), 1/4 large [10, 1e4). */
void xt_graph_make(xt_graph *g, xt_rng *rng, xt_graph_kind kind, size_t count,
                   size_t coincident, size_t static_pairs);
void xt_graph_free(xt_graph *g);
/* Replaces zero compliances by `value` (springs need compliance > 0). */
void xt_graph_soften(xt_graph *g, double value);

typedef struct xt_cloud_f32 {
    xpbd_particles_f32 p;
    float *fx, *fy, *fz;
    float *block;
} xt_cloud_f32;

typedef struct xt_cloud_f64 {
    xpbd_particles_f64 p;
    double *fx, *fy, *fz;
    double *block;
} xt_cloud_f64;

/* Allocates n particles, all arrays zero. Returns 0 on allocation failure. */
int xt_cloud_alloc_f32(xt_cloud_f32 *c, size_t n);
int xt_cloud_alloc_f64(xt_cloud_f64 *c, size_t n);
void xt_cloud_free_f32(xt_cloud_f32 *c);
void xt_cloud_free_f64(xt_cloud_f64 *c);
/* dst (same n) becomes a bitwise copy of src. */
void xt_cloud_copy_f32(xt_cloud_f32 *dst, const xt_cloud_f32 *src);
void xt_cloud_copy_f64(xt_cloud_f64 *dst, const xt_cloud_f64 *src);
/* Random positions in [-1,1)^3, previous positions near them, velocities in
 * [-1,1)^3, forces in [-5,5), inverse masses in [0.1,3) with a fraction
 * static_fraction of w = 0. Then the graph's extra pairs are applied
 * (g may be NULL). */
void xt_cloud_random_f32(xt_cloud_f32 *c, xt_rng *rng, double static_fraction,
                         const xt_graph *g);
void xt_cloud_random_f64(xt_cloud_f64 *c, xt_rng *rng, double static_fraction,
                         const xt_graph *g);
/* memcmp of all 13 arrays; reports the first difference. Returns 1 if same. */
int xt_cloud_same_f32(const xt_cloud_f32 *a, const xt_cloud_f32 *b, const char *what,
                      const char *file, int line);
int xt_cloud_same_f64(const xt_cloud_f64 *a, const xt_cloud_f64 *b, const char *what,
                      const char *file, int line);
#define SAME_CLOUD_F32(a, b, what) xt_cloud_same_f32((a), (b), (what), __FILE__, __LINE__)
#define SAME_CLOUD_F64(a, b, what) xt_cloud_same_f64((a), (b), (what), __FILE__, __LINE__)

/* Builds a set from a graph (rest and compliance converted to the precision). */
xpbd_status xt_graph_build_f32(const xt_graph *g, const xpbd_colouring_options *opt,
                               xpbd_distance_set_f32 *out);
xpbd_status xt_graph_build_f64(const xt_graph *g, const xpbd_colouring_options *opt,
                               xpbd_distance_set_f64 *out);

/* Snapshot of a particle set's ten arrays and a set's lambda, to prove that
 * a rejected call wrote nothing. */
typedef struct xt_snap {
    unsigned char *bytes;
    size_t size;
} xt_snap;
void xt_snap_f32(xt_snap *s, const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c);
void xt_snap_f64(xt_snap *s, const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c);
/* 1 if p and c are bit-identical to the snapshot (reports otherwise). */
int xt_snap_same_f32(const xt_snap *s, const xpbd_particles_f32 *p,
                     const xpbd_distance_set_f32 *c, const char *what, const char *file,
                     int line);
int xt_snap_same_f64(const xt_snap *s, const xpbd_particles_f64 *p,
                     const xpbd_distance_set_f64 *c, const char *what, const char *file,
                     int line);
void xt_snap_free(xt_snap *s);
#define SAME_SNAP_F32(s, p, c, what) xt_snap_same_f32((s), (p), (c), (what), __FILE__, __LINE__)
#define SAME_SNAP_F64(s, p, c, what) xt_snap_same_f64((s), (p), (c), (what), __FILE__, __LINE__)

#endif /* XPBD_TEST_FIXTURE_H */
