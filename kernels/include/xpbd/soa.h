/* SPDX-License-Identifier: MIT */
/* xpbd/soa.h: caller-owned structure-of-arrays particle sets and the
 * coloured, batched distance-constraint sets the kernels walk.
 *
 * Particles: the host owns every array; xpbd reads and writes them in place.
 *
 *     x[0..n)  y[0..n)  z[0..n)      position                      (m)
 *     px py pz                       position at substep start     (m)
 *     vx vy vz                       velocity                      (m/s)
 *     w                              inverse mass, 0 = static      (1/kg)
 *
 * Distance constraints are handed to a builder as plain arrays (i0, i1,
 * rest (m), compliance (m/N)). The builder colours them (no two constraints
 * of a colour share a particle), lays every colour out as whole batches of
 * XPBD_BATCH slots and puts what fits in no colour into a serial overflow
 * range:
 *
 *   slot:  0 ........ 16 ........ 32 ....... 48 ..... overflow_begin ... slots
 *          | colour 0 (real real .. pad pad) | colour 1 ... | overflow (serial)|
 *
 * A padding slot repeats a valid particle index, has rest 1, compliance 0 and
 * lambda 0; kernels never write through it. Because no two slots of a colour
 * share a particle, solving a colour's slots in any order, or as SIMD lanes,
 * gives the same result as a sequential pass: that is what makes every ISA
 * path bit-identical to the scalar reference.
 */
#ifndef XPBD_SOA_H
#define XPBD_SOA_H

#include "xpbd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every colour is padded to a multiple of this many slots: the widest SIMD
 * path (16 floats) so that one layout serves every ISA. */
#define XPBD_BATCH 16u
/* source[] value of a padding slot. */
#define XPBD_PAD UINT32_MAX
/* Most colours a builder may use (one bit per colour per particle). */
#define XPBD_MAX_COLOURS 64u
/* Most regions a distance set may have (xpbd_colouring_options.regions). */
#define XPBD_MAX_REGIONS 16u

typedef struct xpbd_particles_f32 {
    size_t count;
    float *x, *y, *z;
    float *px, *py, *pz;
    float *vx, *vy, *vz;
    float *w;
} xpbd_particles_f32;

typedef struct xpbd_particles_f64 {
    size_t count;
    double *x, *y, *z;
    double *px, *py, *pz;
    double *vx, *vy, *vz;
    double *w;
} xpbd_particles_f64;

/* A coloured, batched set of distance constraints (built by
 * xpbd_distance_set_build_*, released by xpbd_distance_set_free_*).
 * The per-slot arrays may be edited in place between steps (rest and
 * compliance are artist knobs; lambda is the solver's accumulator), the
 * layout fields may not. */
typedef struct xpbd_distance_set_f32 {
    uint32_t count;          /* real constraints */
    uint32_t slots;          /* total slots: padded colours + overflow */
    uint32_t colours;        /* number of colours */
    uint32_t *colour_begin;  /* [colours + 1] slot offsets, multiples of XPBD_BATCH */
    uint32_t *colour_size;   /* [colours] real constraints in each colour (the rest is padding) */
    uint32_t overflow_begin; /* == colour_begin[colours]; overflow is [overflow_begin, slots) */
    uint32_t *i0, *i1;       /* [slots] particle indices */
    float *rest;             /* [slots] rest length (m) */
    float *compliance;       /* [slots] compliance alpha = 1/k (m/N) */
    float *lambda;           /* [slots] accumulated multiplier */
    uint32_t *source;        /* [slots] index in the builder's input, XPBD_PAD for padding */
    /* Regions (xpbd_colouring_options.regions; 0: none): colours
     * [region_colour[r], region_colour[r + 1]) are region r's interior,
     * colours from region_colour[regions] on the boundary. No particle of
     * one region's interior is used by another region's interior. */
    uint32_t regions;
    uint32_t *region_colour; /* [regions + 1] colour offsets, NULL without regions */
    void *block_;            /* owned allocation */
} xpbd_distance_set_f32;

typedef struct xpbd_distance_set_f64 {
    uint32_t count;
    uint32_t slots;
    uint32_t colours;
    uint32_t *colour_begin;
    uint32_t *colour_size;
    uint32_t overflow_begin;
    uint32_t *i0, *i1;
    double *rest;
    double *compliance;
    double *lambda;
    uint32_t *source;
    uint32_t regions;
    uint32_t *region_colour;
    void *block_;
} xpbd_distance_set_f64;

/* How a distance set's builder orders and lays out its constraints
 * (xpbd_colouring_options.layout). */
typedef enum xpbd_layout {
    /* The default: the runs layout where it puts at least half of the
     * constraints (XPBD_LAYOUT_RUNS_SHARE) in runs, else input order as
     * XPBD_LAYOUT_INPUT has it. Decided by the constraints alone (their
     * particle indices, in input order): the same input builds the same
     * set. A constraint is "in a run" when its slot lies in a whole
     * XPBD_BATCH-slot vector of real slots whose four 4-slot groups all
     * step as the widest SIMD path's runs do (all with i0 and i1 stepping
     * by 1, or all with i0 stepping by 2 and i1 = i0 + 1): the vectors
     * that path loads as whole rows. On a regular mesh (grid cloth, chain, lattice) this is
     * the runs layout; on an irregular one (random links, a mesh numbered
     * without order) input order, the same set as XPBD_LAYOUT_INPUT.
     * Costs up to two colourings at build. */
    XPBD_LAYOUT_AUTO = 0,
    /* Input order: colours first-fit in input order, each colour in input
     * order (the default before protocol 2). */
    XPBD_LAYOUT_INPUT = 1,
    /* The runs layout (xpbd_colouring_options.runs = 1). */
    XPBD_LAYOUT_RUNS = 2
} xpbd_layout;

/* XPBD_LAYOUT_AUTO takes a layout when at least this share of the
 * constraints sits in runs (1/2: from there the run vectors' faster loads
 * are the larger part of the colour passes). */
#define XPBD_LAYOUT_RUNS_SHARE 0.5

/* Builder options. A zeroed struct means the defaults. */
typedef struct xpbd_colouring_options {
    /* Colours to try before a constraint goes to the serial overflow range:
     * 0 means 32; at most XPBD_MAX_COLOURS. */
    uint32_t max_colours;
    /* 1: no colours at all, every constraint in the serial overflow range in
     * input order (a plain Gauss-Seidel sweep; the reference order for
     * order-dependence studies). */
    int serial;
    /* 1: colour and lay out the constraints in order of their index offset
     * i1 - i0, then of i0, instead of input order; an offset shared by 64
     * or more constraints starts on colours above those used so far where
     * one is free; within a colour, runs (i0 stepping by 1 at one offset,
     * or by 2 for pairs side by side) are laid out in whole 16-slot pieces
     * where they can be, what is left of them in 16-slot vectors of whole
     * 4-slot pieces, the last few slots of each run in vectors of their
     * own. On a regular mesh (a grid
     * cloth, a chain, a lattice) a colour then holds parallel edges in
     * particle order, and the widest SIMD path loads whole runs of
     * consecutive particles instead of one particle at a time. Another
     * Gauss-Seidel order than input order: results differ from the
     * default build's (every ISA still equals the scalar reference on
     * the same set). Ignored with serial, and by the quad-set builders.
     * The same as layout = XPBD_LAYOUT_RUNS (kept for source
     * compatibility); with layout = XPBD_LAYOUT_INPUT it is a conflict
     * (XPBD_ERR_CONFIG). */
    int runs;
    /* xpbd_layout: XPBD_LAYOUT_AUTO (0, the default), _INPUT or _RUNS.
     * Ignored with serial, and by the quad-set builders (which colour in
     * input order). Another value: XPBD_ERR_CONFIG. */
    int layout;
    /* 0: no regions (the layout above). 2 .. XPBD_MAX_REGIONS: the
     * particles are cut into this many ranges of consecutive indices, each
     * holding about as many constraints (cut by the mesh alone, never by
     * the thread count); a constraint with both particles in range r is
     * region r's interior, one that joins two ranges is the boundary. Each
     * region's interior is coloured on its own (at most
     * min(max_colours, 48 / regions) colours; what fits in none joins the
     * boundary), then the boundary (at most the colours left of
     * XPBD_MAX_COLOURS; what fits in none goes to the overflow). The
     * colours are laid out region 0's first, then region 1's, ..., then
     * the boundary's (region_colour in the set). A step solves the
     * interiors as one stage whose items are whole regions (one worker
     * solves a region colour after colour with no barrier between its
     * colours), then the boundary colour by colour as ever. Since the
     * interiors share no particle, this is exactly the sequential
     * Gauss-Seidel pass in the set's colour order at any thread count.
     * Another order than the default build's: results differ from it
     * (every ISA and thread count still equals the scalar reference on
     * the same set). Works with runs (each part in the runs order);
     * ignored with serial; 1 or more than XPBD_MAX_REGIONS is refused
     * (XPBD_ERR_CONFIG). Mesh numbering matters: a mesh numbered in rows
     * (a grid cloth) gets strips with few boundary constraints. */
    uint32_t regions;
} xpbd_colouring_options;

/* Builds a coloured set from count constraints between particles
 * [0, particle_count). rest and compliance are copied; lambda starts at 0.
 * options may be NULL. Allocates the set's arrays as one block (block_),
 * freed by xpbd_distance_set_free_*, and a colouring workspace freed before
 * it returns. On error nothing is allocated, *out is zeroed and
 * *bad_index (if not NULL) names the offending constraint:
 *   XPBD_ERR_ARGUMENT    out or an input array is NULL (when count > 0), or
 *                        count/particle_count do not fit in 32 bits
 *   XPBD_ERR_INDEX       i0 or i1 >= particle_count, or i0 == i1
 *   XPBD_ERR_REST        rest <= 0 or not finite
 *   XPBD_ERR_COMPLIANCE  compliance < 0 or not finite
 *   XPBD_ERR_CONFIG      options->max_colours > XPBD_MAX_COLOURS, layout not
 *                        an xpbd_layout, runs = 1 with XPBD_LAYOUT_INPUT, or
 *                        options->regions 1 or > XPBD_MAX_REGIONS
 *   XPBD_ERR_NOMEM       allocation failed */
XPBD_API xpbd_status xpbd_distance_set_build_f32(xpbd_distance_set_f32 *out, size_t particle_count,
                                                 size_t count, const uint32_t *i0,
                                                 const uint32_t *i1, const float *rest,
                                                 const float *compliance,
                                                 const xpbd_colouring_options *options,
                                                 size_t *bad_index);
XPBD_API xpbd_status xpbd_distance_set_build_f64(xpbd_distance_set_f64 *out, size_t particle_count,
                                                 size_t count, const uint32_t *i0,
                                                 const uint32_t *i1, const double *rest,
                                                 const double *compliance,
                                                 const xpbd_colouring_options *options,
                                                 size_t *bad_index);
/* Frees what the builder allocated for a set and zeroes it. NULL and
 * zeroed sets are fine. */
XPBD_API void xpbd_distance_set_free_f32(xpbd_distance_set_f32 *set);
XPBD_API void xpbd_distance_set_free_f64(xpbd_distance_set_f64 *set);

/* Number of XPBD_BATCH-slot batches in colour c. */
static inline uint32_t xpbd_colour_batches(const uint32_t *colour_begin, uint32_t c)
{
    return (colour_begin[c + 1] - colour_begin[c]) / XPBD_BATCH;
}

/* Points the ten arrays of p at one block: x at base, y at base + stride,
 * ... w at base + 9*stride (so a block of 10*n reals with stride n holds
 * n particles). count = n. Never allocates: the block is the caller's. */
XPBD_API void xpbd_particles_bind_f32(xpbd_particles_f32 *p, size_t n, float *base,
                                      size_t stride);
XPBD_API void xpbd_particles_bind_f64(xpbd_particles_f64 *p, size_t n, double *base,
                                      size_t stride);

/* Checks a particle set: every position and velocity finite, every inverse
 * mass finite and >= 0, no NULL array when count > 0, count <= INT32_MAX.
 * On error *bad_index names the particle (XPBD_ERR_POSITION, _VELOCITY,
 * _INVERSE_MASS; XPBD_ERR_ARGUMENT leaves it SIZE_MAX). The previous
 * positions px/py/pz are not checked: they are not an input of the step,
 * whose predict overwrites them before anything reads them (a NaN there is
 * harmless and the step's result does not depend on it). */
XPBD_API xpbd_status xpbd_particles_validate_f32(const xpbd_particles_f32 *p, size_t *bad_index);
XPBD_API xpbd_status xpbd_particles_validate_f64(const xpbd_particles_f64 *p, size_t *bad_index);

/* Checks a distance set against a particle count: layout consistent,
 * indices in range and distinct, rest > 0 finite, compliance >= 0 finite,
 * lambda finite, padding slots intact (XPBD_PAD source, one particle twice,
 * lambda 0), and no particle used by two slots of one colour (the SIMD paths
 * and threads solve a colour's slots at once: a repeat would make them
 * differ from the scalar reference), and with regions no particle used by
 * the interiors of two regions (threads solve regions at once). Run by the
 * step driver every step, so a
 * host may edit the per-slot arrays between steps safely.
 *
 * stamp: caller scratch of particle_count entries, contents ignored and
 * overwritten (may be NULL for a set without colours). It makes the repeat
 * check one clear of the scratch and one pass over the slots, tagging each
 * slot's particles with its colour; no allocation.
 *
 * Returns XPBD_OK or, with *bad_index (if not NULL) naming the slot:
 *   XPBD_ERR_ARGUMENT    c or an array is NULL, stamp NULL with colours, or
 *                        the layout fields are inconsistent (bad_index unset;
 *                        regions: more than XPBD_MAX_REGIONS, region_colour
 *                        NULL, not starting at 0, decreasing or past colours)
 *   XPBD_ERR_INDEX       an index >= particle_count, i0 == i1, a padding slot
 *                        changed, or a particle repeated within a colour (the
 *                        first slot of the colour using a particle an earlier
 *                        slot uses; checked after every other slot rule), or
 *                        last a region's interior slot using a particle that
 *                        an earlier region's interior uses (the first such)
 *   XPBD_ERR_REST        rest <= 0 or not finite
 *   XPBD_ERR_COMPLIANCE  compliance < 0 or not finite
 *   XPBD_ERR_LAMBDA      lambda not finite */
XPBD_API xpbd_status xpbd_distance_set_validate_f32(const xpbd_distance_set_f32 *c,
                                                    size_t particle_count, uint32_t *stamp,
                                                    size_t *bad_index);
XPBD_API xpbd_status xpbd_distance_set_validate_f64(const xpbd_distance_set_f64 *c,
                                                    size_t particle_count, uint32_t *stamp,
                                                    size_t *bad_index);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_SOA_H */
