/* SPDX-License-Identifier: MIT */
/* bench_core.h: the measurements xpbd-bench makes, shared with the report's
 * simd_speed section so both print the same numbers.
 *
 * Method (bench_core.c): every kernel runs on caller-style SoA arrays; one
 * "pass" is one call over all n particles, or one sweep over every colour of
 * a constraint set (plus its serial overflow range, empty for the meshes
 * used here). A measurement times a loop of passes long enough to be well
 * above the clock's resolution (>= 20 ms, >= 1 ms under quick) with
 * clock_gettime(CLOCK_MONOTONIC); the reported time is the best (minimum)
 * of several measurements, divided by passes x items.
 *
 * Constraint kernels run on a cloth-like mesh, not a random graph: an N x N
 * grid with structural and both shear diagonals (xs_cloth, about 4 N^2
 * edges, particle degree <= 8), coloured by the library's builder. That is
 * the locality a real host has: endpoints of neighbouring slots are close
 * in memory, so gathers mostly hit lines already in cache.
 *
 * distance_xpbd/distance_pbd run on the caller's SoA arrays (gathers and
 * scatters); distance_xpbd_packed/distance_pbd_packed on the packed
 * (x, y, z, w) copy the step driver solves on; pack and unpack are the
 * conversions the driver pays once per substep. Each row's ratio is against
 * the scalar table's kernel of the same name. packed_walk is no kernel of the
 * library but their memory-access bound: the packed kernels' walk over the
 * slots with their loads and stores only (bench_core_tmpl.h), measured once
 * per size (its row is the scalar path's; it has no SIMD path). */
#ifndef XPBD_BENCH_CORE_H
#define XPBD_BENCH_CORE_H

#include <stddef.h>
#include <xpbd/xpbd.h>

#include "bench_load.h"

typedef struct xb_row {
    const char *kernel;     /* "predict", "update_velocity", "distance_xpbd", ...
                             * (xb_kernel_name lists them) */
    const char *precision;  /* "f32" or "f64" */
    xpbd_isa isa;
    size_t n;               /* items: particles or constraints */
    double ns_per_item;
    double ratio_vs_scalar; /* scalar ns_per_item / this row's ns_per_item (same run) */
} xb_row;

typedef struct xb_options {
    int quick;              /* small sizes and few repetitions */
    const char *kernels;    /* comma-separated subset, NULL = all */
    int max_log2_n;         /* largest size 2^k (0 = default: 23, quick 20) */
    /* Fields below may be left zero. */
    const char *isas;       /* comma-separated ISA names to report, NULL = every
                             * supported one; scalar is measured regardless,
                             * for the ratio */
    const char *precisions; /* "f32", "f64" or "f32,f64"; NULL = both */
    int progress;           /* 1: one progress line per measurement on stderr */
    const uint32_t *threads; /* cloth: the step's thread counts (>= 1), each run */
    size_t thread_count;     /* entries of threads; 0 = one thread only */
    const xb_load *loads;    /* cloth: what runs next to each row (bench_load.h), each
                              * run in turn */
    size_t load_count;       /* entries of loads; 0 = quiet only */
} xb_options;

/* Runs every kernel x supported ISA x precision x size. *rows receives a
 * malloc'd array (free() it); returns the row count, 0 on failure (unknown
 * kernel, ISA or precision name, allocation failure). Sizes: 2^10, 2^12, ...
 * up to 2^max_log2_n (the largest always included); quick: 2^10, 2^12 and
 * 2^20 (out of L2, not of L3).
 * For constraint kernels n is the edge count of the cloth mesh closest to
 * the size (e.g. 2^12 -> 32 x 32 grid, 3906 edges). */
size_t xb_run(const xb_options *opt, xb_row **rows);
/* Plain streaming triad a[i] = b[i] + s*c[i] over doubles, the three arrays
 * totalling `bytes` (0 = 384 MiB, beyond any cache of this class of
 * machine): bytes per second of the best of several passes, counted the
 * STREAM way (2 loads + 1 store of 8 bytes per element; the write-allocate
 * read of a[] is not counted). */
double xb_stream_bandwidth(size_t bytes);

/* Copy and triad together (same conventions), measured now; quick = fewer
 * repetitions. */
typedef struct xb_stream {
    double copy;            /* a[i] = b[i], 16 bytes per element */
    double triad;           /* a[i] = b[i] + s*c[i], 24 bytes per element */
    size_t bytes;           /* working set of the three arrays */
} xb_stream;
xb_stream xb_stream_measure(size_t bytes, int quick);

/* The kernel names xb_run knows, in run order; NULL past the end. */
const char *xb_kernel_name(size_t i);
/* 1 for constraint kernels (items = constraints), 0 for particle kernels
 * (items = particles), -1 for an unknown name. */
int xb_kernel_is_constraint(const char *kernel);
/* Bytes a particle kernel moves per item, counted like STREAM (every array
 * element read once plus every element written once; no write-allocate
 * traffic), for precision "f32" or "f64"; 0 for constraint kernels and
 * unknown names. predict: 7 read + 9 written arrays; update_velocity: 6 + 3;
 * spring_integrate: 10 + 12; pack: 4 + 4 (the packed copy q counts as four
 * arrays); unpack: 4 + 3; kinetic_energy and momentum: 4 + 0. */
double xb_bytes_per_item(const char *kernel, const char *precision);
/* Bytes a particle kernel's arrays occupy per item (its working set),
 * e.g. predict touches 10 arrays; 0 for constraint kernels. */
double xb_footprint_per_item(const char *kernel, const char *precision);

/* The cloth scene of xpbd-bench: an N x N grid lying flat in the horizontal
 * plane, spacing 0.25 m, w = 1 except two pinned corners of one side,
 * compliance 1e-5, gravity -9.81, 1/60 s frames, f32 through xpbd_step_f32
 * with measure_residual = 0. Variants: "structural" (rows and columns),
 * "shear" (plus both diagonals of every quad), both in the default layout
 * (the runs layout on these grids), "shear_input" and "structural_input"
 * (the same sets built with XPBD_LAYOUT_INPUT) and "shear_regions" (the
 * shear set cut into 4 regions).
 * Modes (xb_cloth_modes):
 * "sub10" (10 substeps x 1 iteration, what engines that substep call "10
 * iterations": the like-for-like mode) and "iter10" (1 substep x 10
 * iterations). Grids 32, 64, 128, 256 and 300 frames (quick: 32, 64 and 60
 * frames). Each ISA runs at each of opt->threads (cfg.threads), under each
 * of opt->loads (the busy threads run only while the row is measured). */
typedef struct xb_cloth_mode {
    const char *name;
    uint32_t substeps, iterations;
} xb_cloth_mode;
#define XB_CLOTH_MODES 2
extern const xb_cloth_mode xb_cloth_modes[XB_CLOTH_MODES];

typedef struct xb_cloth_row {
    const char *variant;       /* "structural", "shear", "shear_input", "structural_input",
                                  "shear_regions" */
    int n;                     /* grid side N */
    size_t edges;              /* constraints */
    xpbd_isa isa;
    uint32_t threads;          /* cfg.threads of the run */
    xb_load load;              /* the busy threads next to the run */
    const char *mode;          /* "sub10" or "iter10" */
    int frames;
    double seconds;            /* best wall time for all frames */
    double edge_solves_per_s;  /* edges x iterations per frame x frames / seconds */
    double ratio_vs_scalar;    /* this row's rate / the quiet scalar one-thread rate (same
                                * run) */
    double speedup_vs_1thread; /* this row's rate / the same ISA's one-thread rate under the
                                * same load (0 when one thread was not run) */
    int bitwise_equal;         /* final positions identical to the quiet scalar one-thread
                                * run's */
} xb_cloth_row;

/* Runs the cloth scene for every variant x N x mode x load x ISA x thread
 * count (opt->isas filters the ISAs reported; opt->threads; opt->loads;
 * opt->quick); the quiet scalar one-thread run is always made, as the
 * reference. *rows receives a
 * malloc'd array; returns the row count, 0 on failure (a step error, a
 * thread count of 0, busy threads that could not be started, out of
 * memory). */
size_t xb_cloth(const xb_options *opt, xb_cloth_row **rows);

/* The shear cloth of side n (sub10, one thread, best path, `frames`
 * frames after as many to warm up) numbered three ways: by rows as generated, shuffled (a mesh in
 * an arbitrary order), and shuffled then renumbered by
 * xpbd_mesh_locality_order_f32 with the edges listed by their lower new
 * endpoint. rate[k]: M edge solves/s of each. Returns 0 or -1. */
int xb_locality(int n, int frames, double rate[3]);

#endif
