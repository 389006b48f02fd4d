/* bench_core.h: the measurements xpbd-bench makes, shared with the report's
 * simd_speed section so both print the same numbers. */
#ifndef XPBD_BENCH_CORE_H
#define XPBD_BENCH_CORE_H

#include <stddef.h>
#include <xpbd/xpbd.h>

typedef struct xb_row {
    const char *kernel;     /* "predict", "update_velocity", "distance_xpbd", ... */
    const char *precision;  /* "f32" or "f64" */
    xpbd_isa isa;
    size_t n;               /* items: particles or constraints */
    double ns_per_item;
    double ratio_vs_scalar; /* scalar ns_per_item / this row's ns_per_item (same run) */
} xb_row;

typedef struct xb_options {
    int quick;              /* small sizes and few repetitions */
    const char *kernels;    /* comma-separated subset, NULL = all */
    int max_log2_n;         /* largest size 2^k (0 = default) */
} xb_options;

/* Runs every kernel x supported ISA x precision x size. *rows receives a
 * malloc'd array (free() it); returns the row count, 0 on failure. */
size_t xb_run(const xb_options *opt, xb_row **rows);
/* Plain streaming copy/triad bandwidth of this machine, bytes per second,
 * measured now (for the out-of-cache comparison). */
double xb_stream_bandwidth(size_t bytes);

#endif
