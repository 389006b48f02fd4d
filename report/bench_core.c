/* SPDX-License-Identifier: MIT */
/* bench_core.c: the measurements of xpbd-bench and the report's simd_speed
 * section (see bench_core.h for the method). */
#define _POSIX_C_SOURCE 200112L /* clock_gettime under ISO C11 */

#include "bench_core.h"
#include <xpbd/reference.h>
#include "bench_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenes.h"

/* ------------------------------------------------------------ kernels --- */

enum {
    XB_PREDICT,
    XB_VELOCITY,
    XB_SPRING_INTEGRATE,
    XB_PACK,
    XB_UNPACK,
    XB_DISTANCE_XPBD,
    XB_DISTANCE_XPBD_PACKED,
    XB_DISTANCE_PBD,
    XB_DISTANCE_PBD_PACKED,
    XB_PACKED_WALK,
    XB_SPRING_FORCES,
    XB_RESIDUAL,
    XB_KINETIC,
    XB_MOMENTUM,
    XB_KERNELS
};

/* Stream shape of the particle kernels, in arrays of n elements: ro read
 * only, rw read and written in place, wo written only (the packed copy q
 * counts as 4 arrays). STREAM counting: read = ro + rw, written = rw + wo. */
static const struct {
    const char *name;
    int constraint;
    int ro, rw, wo;
} xb_kernel_table[XB_KERNELS] = {
    {"predict", 0, 1, 6, 3},          /* w; x3 v3; p3 */
    {"update_velocity", 0, 6, 0, 3},  /* x3 p3; -; v3 */
    {"spring_integrate", 0, 1, 9, 3}, /* w; x3 v3 f3; p3 */
    {"pack", 0, 4, 0, 4},             /* x3 w; -; q */
    {"unpack", 0, 4, 0, 3},           /* q; -; x3 */
    {"distance_xpbd", 1, 0, 0, 0},
    {"distance_xpbd_packed", 1, 0, 0, 0},
    {"distance_pbd", 1, 0, 0, 0},
    {"distance_pbd_packed", 1, 0, 0, 0},
    {"packed_walk", 1, 0, 0, 0},      /* the bound: packed loads and stores only */
    {"spring_forces", 1, 0, 0, 0},
    {"residual", 1, 0, 0, 0},
    {"kinetic_energy", 0, 4, 0, 0},   /* w v3 */
    {"momentum", 0, 4, 0, 0},         /* w v3 */
};

static int xb_kernel_index(const char *name, size_t len)
{
    for (int k = 0; k < XB_KERNELS; ++k)
        if (strlen(xb_kernel_table[k].name) == len &&
            strncmp(xb_kernel_table[k].name, name, len) == 0)
            return k;
    return -1;
}

const char *xb_kernel_name(size_t i)
{
    return i < XB_KERNELS ? xb_kernel_table[i].name : NULL;
}

int xb_kernel_is_constraint(const char *kernel)
{
    const int k = kernel ? xb_kernel_index(kernel, strlen(kernel)) : -1;
    return k < 0 ? -1 : xb_kernel_table[k].constraint;
}

static double xb_real_bytes(const char *precision)
{
    if (precision && strcmp(precision, "f32") == 0)
        return 4;
    if (precision && strcmp(precision, "f64") == 0)
        return 8;
    return 0;
}

double xb_bytes_per_item(const char *kernel, const char *precision)
{
    const int k = kernel ? xb_kernel_index(kernel, strlen(kernel)) : -1;
    if (k < 0)
        return 0;
    return (xb_kernel_table[k].ro + 2 * xb_kernel_table[k].rw + xb_kernel_table[k].wo) *
           xb_real_bytes(precision);
}

double xb_footprint_per_item(const char *kernel, const char *precision)
{
    const int k = kernel ? xb_kernel_index(kernel, strlen(kernel)) : -1;
    if (k < 0)
        return 0;
    return (xb_kernel_table[k].ro + xb_kernel_table[k].rw + xb_kernel_table[k].wo) *
           xb_real_bytes(precision);
}

/* ------------------------------------------------------------ meshes --- */

/* Grid side whose sheared cloth (2N(N-1) + 2(N-1)^2 edges) is closest to
 * `edges`. */
static int xb_mesh_side(size_t edges)
{
    int side = (int)floor(sqrt((double)edges / 4.0));
    if (side < 2)
        side = 2;
    const double e0 = 4.0 * side * side - 6.0 * side + 2.0;
    const double e1 = 4.0 * (side + 1) * (side + 1) - 6.0 * (side + 1) + 2.0;
    return fabs(e1 - (double)edges) < fabs(e0 - (double)edges) ? side + 1 : side;
}

/* ---------------------------------------------------- per precision --- */

#define XPBD_REAL_F32
#include "precision.h"
#define XB_U uint32_t
#define XB_P xpbd_particles_f32
#define XB_DS xpbd_distance_set_f32
#define XB_K xpbd_kernels_f32
#define XB_W xs_world_f32
#define XB_GET xpbd_kernels_get_f32
#define XB_CLOTH xs_cloth_f32
#define XB_WFREE xs_world_free_f32
#define XB_BIND xpbd_particles_bind_f32
#define XB_SER_XPBD xpbd_serial_distance_xpbd_f32
#define XB_SER_XPBD_PK xpbd_serial_distance_xpbd_packed_f32
#define XB_SER_PBD_PK xpbd_serial_distance_pbd_packed_f32
#define XB_SER_PBD xpbd_serial_distance_pbd_f32
#define XB_SER_SPRING xpbd_serial_spring_forces_f32
#define XB_SER_RESIDUAL xpbd_serial_residual_f32
#include "bench_core_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"
#undef XB_U
#undef XB_P
#undef XB_DS
#undef XB_K
#undef XB_W
#undef XB_GET
#undef XB_CLOTH
#undef XB_WFREE
#undef XB_BIND
#undef XB_SER_XPBD
#undef XB_SER_XPBD_PK
#undef XB_SER_PBD_PK
#undef XB_SER_PBD
#undef XB_SER_SPRING
#undef XB_SER_RESIDUAL

#define XPBD_REAL_F64
#include "precision.h"
#define XB_U uint64_t
#define XB_P xpbd_particles_f64
#define XB_DS xpbd_distance_set_f64
#define XB_K xpbd_kernels_f64
#define XB_W xs_world_f64
#define XB_GET xpbd_kernels_get_f64
#define XB_CLOTH xs_cloth_f64
#define XB_WFREE xs_world_free_f64
#define XB_BIND xpbd_particles_bind_f64
#define XB_SER_XPBD xpbd_serial_distance_xpbd_f64
#define XB_SER_XPBD_PK xpbd_serial_distance_xpbd_packed_f64
#define XB_SER_PBD_PK xpbd_serial_distance_pbd_packed_f64
#define XB_SER_PBD xpbd_serial_distance_pbd_f64
#define XB_SER_SPRING xpbd_serial_spring_forces_f64
#define XB_SER_RESIDUAL xpbd_serial_residual_f64
#include "bench_core_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"

/* ------------------------------------------------------------- xb_run --- */

size_t xb_run(const xb_options *opt, xb_row **rows)
{
    if (!opt || !rows)
        return 0;
    *rows = NULL;
    xb_plan plan;
    if (xb_plan_init(&plan, opt, xb_kernel_name, 1) != 0)
        return 0;
    int max = opt->max_log2_n ? opt->max_log2_n : opt->quick ? 20 : 23;
    if (max < 4 || max > 28)
        return 0;
    static const xb_measure_fn measure[2] = {xb_measure_size_f32, xb_measure_size_f64};
    const size_t n = xb_sweep(&plan, max, opt->quick, XB_KERNELS, measure, rows);
    if (n == (size_t)-1)
        return 0;
    if (plan.progress)
        fprintf(stderr, "\r%70s\r", "");
    return n;
}

/* ------------------------------------------------------------ stream --- */

typedef struct xb_stream_ctx {
    double *a, *b, *c;
    size_t n;
} xb_stream_ctx;

/* Blocks of 8 with a constant trip count: the inner loop is unrolled and
 * vectorised at -O2 without runtime checks (n is a multiple of 8). */
static void xb_triad_pass(void *arg)
{
    const xb_stream_ctx *s = arg;
    double *restrict a = s->a;
    const double *restrict b = s->b;
    const double *restrict c = s->c;
    for (size_t i = 0; i < s->n; i += 8)
        for (size_t j = 0; j < 8; ++j)
            a[i + j] = b[i + j] + 0.5 * c[i + j];
}

static void xb_copy_pass(void *arg)
{
    const xb_stream_ctx *s = arg;
    double *restrict a = s->a;
    const double *restrict b = s->b;
    for (size_t i = 0; i < s->n; i += 8)
        for (size_t j = 0; j < 8; ++j)
            a[i + j] = b[i + j];
}

xb_stream xb_stream_measure(size_t bytes, int quick)
{
    xb_stream r = {0, 0, 0};
    if (bytes == 0)
        bytes = (size_t)384 << 20;
    xb_stream_ctx s;
    s.n = bytes / 24 / 8 * 8;
    if (s.n < 8)
        s.n = 8;
    const size_t size = (s.n * sizeof(double) + 63) / 64 * 64;
    /* skewed by a few lines, like the particle arrays (bench_core_tmpl.h) */
    char *block = aligned_alloc(64, 3 * (size + 192));
    if (!block)
        return r;
    s.a = (double *)(void *)block;
    s.b = (double *)(void *)(block + size + 192);
    s.c = (double *)(void *)(block + 2 * (size + 192));
    for (size_t i = 0; i < s.n; ++i) {
        s.a[i] = 0;
        s.b[i] = (double)(i & 1023);
        s.c[i] = 1.0;
    }
    const double min_s = quick ? 0.001 : 0.020;
    const int reps = quick ? 3 : 5;
    const double tc = xb_measure(xb_copy_pass, &s, min_s, reps);
    const double tt = xb_measure(xb_triad_pass, &s, min_s, reps);
    r.copy = 16.0 * (double)s.n / tc;
    r.triad = 24.0 * (double)s.n / tt;
    r.bytes = 3 * s.n * sizeof(double);
    free(block);
    return r;
}

double xb_stream_bandwidth(size_t bytes)
{
    return xb_stream_measure(bytes, 0).triad;
}

/* ------------------------------------------------------------- cloth --- */

/* The cloth variants: v = XB_STRUCTURAL, XB_SHEAR (the sets as the
 * default layout builds them: the runs layout on a grid), XB_SHEAR_INPUT,
 * XB_STRUCTURAL_INPUT (the same sets built with XPBD_LAYOUT_INPUT, the
 * default of protocol 1), XB_SHEAR_REGIONS (the shear set cut into
 * XB_REGIONS regions, default layout). */
enum {
    XB_STRUCTURAL,
    XB_SHEAR,
    XB_SHEAR_INPUT,
    XB_STRUCTURAL_INPUT,
    XB_SHEAR_REGIONS,
    XB_VARIANTS
};
#define XB_REGIONS 4u

static int xb_cloth_run(int side, int v, xpbd_isa isa, uint32_t threads, uint32_t substeps,
                        uint32_t iterations, int frames, double *seconds, uint64_t *solves,
                        float **final_xyz)
{
    xs_world_f32 w;
    const int shear = v == XB_SHEAR || v == XB_SHEAR_INPUT || v == XB_SHEAR_REGIONS;
    if (xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, shear, 1) != XPBD_OK)
        return -1;
    const xpbd_colouring_options input = {.layout = XPBD_LAYOUT_INPUT},
                                 regions = {.regions = XB_REGIONS};
    if ((v == XB_SHEAR_INPUT || v == XB_STRUCTURAL_INPUT || v == XB_SHEAR_REGIONS) &&
        xs_world_recolour_f32(&w, v == XB_SHEAR_REGIONS ? &regions : &input) != XPBD_OK) {
        xs_world_free_f32(&w);
        return -1;
    }
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = substeps;
    cfg.iterations = iterations;
    cfg.gravity[0] = 0;
    cfg.gravity[1] = -9.81;
    cfg.gravity[2] = 0;
    cfg.isa = isa;
    cfg.measure_residual = 0;
    cfg.threads = threads; /* on the default executor, the library's thread pool */
    uint64_t count = 0;
    int ok = 1;
    const double t0 = xb_now();
    for (int f = 0; f < frames; ++f) {
        xpbd_step_counters k;
        if (xpbd_step_f32(&cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes, &k) !=
            XPBD_OK) {
            ok = 0;
            break;
        }
        count += k.solves;
    }
    *seconds = xb_now() - t0;
    *solves = count;
    if (ok && final_xyz) {
        const size_t n = w.p.count;
        float *xyz = malloc(3 * n * sizeof *xyz);
        if (xyz) {
            memcpy(xyz, w.p.x, n * sizeof *xyz);
            memcpy(xyz + n, w.p.y, n * sizeof *xyz);
            memcpy(xyz + 2 * n, w.p.z, n * sizeof *xyz);
        }
        *final_xyz = xyz;
    }
    xs_world_free_f32(&w);
    return ok ? 0 : -1;
}

/* Best wall time of a few runs while they are short (a 300-frame run of a
 * large grid takes seconds and needs no repeat); the final positions of the
 * first run in *xyz when xyz is not NULL. Returns 0 or -1. */
static int xb_cloth_best(int side, int v, xpbd_isa isa, uint32_t threads,
                         const xb_cloth_mode *mode, int frames, int quick, double *best,
                         uint64_t *solves, float **xyz)
{
    double total = 0;
    *best = INFINITY;
    for (int rep = 0; rep < 5; ++rep) {
        double sec;
        if (xb_cloth_run(side, v, isa, threads, mode->substeps, mode->iterations, frames,
                         &sec, solves, rep == 0 ? xyz : NULL) != 0)
            return -1;
        total += sec;
        if (sec < *best)
            *best = sec;
        if (total > (quick ? 0.02 : 0.5))
            break;
    }
    return 0;
}

const xb_cloth_mode xb_cloth_modes[XB_CLOTH_MODES] = {{"sub10", 10, 1}, {"iter10", 1, 10}};

/* One row: the busy threads of `load` run while the row is measured.
 * Returns 0 or -1. */
static int xb_cloth_loaded(xb_load load, int side, int v, xpbd_isa isa, uint32_t threads,
                           const xb_cloth_mode *mode, int frames, int quick, double *best,
                           uint64_t *solves, float **xyz)
{
    int failed;
    xb_load_state *busy = xb_load_start(load, &failed);
    if (failed)
        return -1;
    const int rc = xb_cloth_best(side, v, isa, threads, mode, frames, quick, best, solves, xyz);
    xb_load_stop(busy);
    return rc;
}

/* One configuration (variant, side, mode): the quiet scalar one-thread run
 * first, the reference of every row's rate ratio and bitwise check, then
 * every load x ISA x thread count. Appends the reported rows at r[*n].
 * Returns 0 or -1. */
static int xb_cloth_config(const xb_plan *plan, const xb_options *opt, const uint32_t *threads,
                           size_t nthreads, const xb_load *loads, size_t nloads, int v, int side,
                           const xb_cloth_mode *mode, int frames, xb_cloth_row *r, size_t *n)
{
    static const char *const variants[XB_VARIANTS] = {"structural", "shear", "shear_input",
                                                      "structural_input", "shear_regions"};
    const int shear = v == XB_SHEAR || v == XB_SHEAR_INPUT || v == XB_SHEAR_REGIONS;
    const size_t edges = (size_t)2 * side * (side - 1) +
                         (shear ? (size_t)2 * (side - 1) * (side - 1) : 0);
    const size_t bytes = (size_t)side * side * 3 * sizeof(float);
    double ref_sec = 0;
    uint64_t ref_solves = 0;
    float *ref = NULL;
    if (plan->progress)
        fprintf(stderr, "\rxpbd-bench: cloth %-10s %3dx%-3d %-6s scalar 1 thread        ",
                variants[v], side, side, mode->name);
    if (xb_cloth_best(side, v, XPBD_ISA_SCALAR, 1, mode, frames, opt->quick, &ref_sec,
                      &ref_solves, &ref) != 0 || !ref) {
        free(ref);
        return -1;
    }
    const double ref_rate = (double)ref_solves / ref_sec;
    for (size_t l = 0; l < nloads; ++l)
        for (size_t t = 0; t < plan->isa_count; ++t) {
            const xb_load load = loads[l];
            const xpbd_isa isa = plan->isa[t];
            double one_thread = 0; /* this ISA's one-thread rate under this load, once measured */
            for (size_t k = 0; k < nthreads; ++k) {
                double sec = ref_sec;
                uint64_t solves = ref_solves;
                int equal = 1;
                if (load != XB_LOAD_QUIET || isa != XPBD_ISA_SCALAR || threads[k] != 1) {
                    float *xyz = NULL;
                    if (plan->progress)
                        fprintf(stderr,
                                "\rxpbd-bench: cloth %-10s %3dx%-3d %-6s %-6s %u threads%s%s  ",
                                variants[v], side, side, mode->name, xpbd_isa_name(isa),
                                (unsigned)threads[k], load != XB_LOAD_QUIET ? " load " : "",
                                load != XB_LOAD_QUIET ? xb_load_name(load) : "");
                    if (xb_cloth_loaded(load, side, v, isa, threads[k], mode, frames, opt->quick,
                                        &sec, &solves, &xyz) != 0) {
                        free(xyz);
                        free(ref);
                        return -1;
                    }
                    equal = xyz && memcmp(ref, xyz, bytes) == 0;
                    free(xyz);
                }
                const double rate = (double)solves / sec;
                if (threads[k] == 1)
                    one_thread = rate;
                if (!plan->isa_on[isa])
                    continue;
                xb_cloth_row *row = &r[(*n)++];
                row->variant = variants[v];
                row->n = side;
                row->edges = edges;
                row->isa = isa;
                row->threads = threads[k];
                row->load = load;
                row->mode = mode->name;
                row->frames = frames;
                row->seconds = sec;
                row->edge_solves_per_s = rate;
                row->ratio_vs_scalar = rate / ref_rate;
                row->speedup_vs_1thread = one_thread > 0 ? rate / one_thread : 0;
                row->bitwise_equal = equal;
            }
        }
    free(ref);
    return 0;
}

size_t xb_cloth(const xb_options *opt, xb_cloth_row **rows)
{
    if (!opt || !rows)
        return 0;
    *rows = NULL;
    xb_plan plan;
    if (xb_plan_init(&plan, opt, xb_kernel_name, 1) != 0)
        return 0;
    static const uint32_t one = 1;
    const uint32_t *threads = opt->thread_count ? opt->threads : &one;
    const size_t nthreads = opt->thread_count ? opt->thread_count : 1;
    for (size_t k = 0; k < nthreads; ++k)
        if (threads[k] == 0)
            return 0;
    static const xb_load quiet = XB_LOAD_QUIET;
    const xb_load *loads = opt->load_count ? opt->loads : &quiet;
    const size_t nloads = opt->load_count ? opt->load_count : 1;
    static const int full_sides[] = {32, 64, 128, 256}, quick_sides[] = {32, 64};
    const int *sides = opt->quick ? quick_sides : full_sides;
    const int nsides = opt->quick ? 2 : 4;
    const int frames = opt->quick ? 60 : 300;
    const size_t cap =
        XB_VARIANTS * (size_t)nsides * XB_CLOTH_MODES * XPBD_ISA_COUNT * nthreads * nloads;
    xb_cloth_row *r = calloc(cap, sizeof *r);
    if (!r)
        return 0;
    size_t n = 0;
    for (int v = 0; v < XB_VARIANTS; ++v)
        for (int s = 0; s < nsides; ++s)
            for (int m = 0; m < XB_CLOTH_MODES; ++m)
                if (xb_cloth_config(&plan, opt, threads, nthreads, loads, nloads, v, sides[s],
                                    &xb_cloth_modes[m], frames, r, &n) != 0) {
                    free(r);
                    return 0;
                }
    if (plan.progress)
        fprintf(stderr, "\r%70s\r", "");
    if (n == 0) {
        free(r);
        return 0;
    }
    *rows = r;
    return n;
}

/* ---------------------------------------------------------- locality --- */

typedef struct xb_edge {
    uint32_t a, b;
} xb_edge;

static int xb_edge_cmp(const void *p, const void *q)
{
    const xb_edge *x = p, *y = q;
    const uint32_t lx = x->a < x->b ? x->a : x->b, ly = y->a < y->b ? y->a : y->b;
    if (lx != ly)
        return lx < ly ? -1 : 1;
    const uint32_t hx = x->a ^ x->b ^ lx, hy = y->a ^ y->b ^ ly;
    return hx < hy ? -1 : hx > hy;
}

/* The n x n shear cloth of xpbd_mesh_cloth (grid points and pairs,
 * stretch then shear; grid points 0 and n - 1 pinned) in one numbering:
 * particle k is grid point g[k], grid point i is particle pos_of[i]; the
 * pairs sorted by their lower endpoint when
 * sorted != 0. Steps `frames` frames to warm up, then `frames` timed;
 * returns M edge solves/s, or -1. */
static double xb_locality_run(const xpbd_mesh_counts *k, const float *grid, const uint32_t *pairs,
                              uint32_t n, int frames, const uint32_t *g, const uint32_t *pos_of, int sorted)
{
    const size_t np = k->particles, m = k->edges + k->shear;
    float *xyz = malloc(3 * np * sizeof *xyz), *comp = malloc(m * sizeof *comp);
    xb_edge *e = malloc(m * sizeof *e);
    uint32_t *i0 = malloc(m * sizeof *i0), *i1 = malloc(m * sizeof *i1);
    double rate = -1;
    if (xyz && comp && e && i0 && i1) {
        for (size_t p = 0; p < np; ++p)
            memcpy(xyz + 3 * p, grid + 3 * (size_t)g[p], 3 * sizeof *xyz);
        for (size_t c = 0; c < m; ++c)
            e[c] = (xb_edge){pos_of[pairs[2 * c]], pos_of[pairs[2 * c + 1]]};
        if (sorted)
            qsort(e, m, sizeof *e, xb_edge_cmp);
        for (size_t c = 0; c < m; ++c) {
            i0[c] = e[c].a;
            i1[c] = e[c].b;
            comp[c] = 1e-5f;
        }
        xs_world_f32 w;
        if (xs_world_init_f32(&w, np, xyz, m, i0, i1, NULL, comp) == XPBD_OK) {
            w.p.w[pos_of[0]] = 0;
            w.p.w[pos_of[n - 1]] = 0;
            xpbd_step_config cfg = xpbd_step_config_default();
            cfg.substeps = 10;
            cfg.iterations = 1;
            cfg.measure_residual = 0;
            int ok = 1;
            double t0 = 0;
            for (int f = 0; f < 2 * frames && ok; ++f) { /* the first half warms up */
                if (f == frames)
                    t0 = xb_now();
                ok = xpbd_step_f32(&cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes,
                                   NULL) == XPBD_OK;
            }
            const double t = xb_now() - t0;
            if (ok)
                rate = (double)m * 10.0 * frames / t / 1e6;
            xs_world_free_f32(&w);
        }
    }
    free(xyz);
    free(comp);
    free(e);
    free(i0);
    free(i1);
    return rate;
}

int xb_locality(int n, int frames, double rate[3])
{
    const xpbd_cloth_desc desc = {(uint32_t)n, (uint32_t)n, 0.25, {0, 0, 0}, {0}, {0}};
    xpbd_mesh_counts k;
    if (n < 2 || xpbd_mesh_cloth(&desc, &k, NULL) != XPBD_OK)
        return -1;
    const size_t np = k.particles;
    float *grid = malloc(3 * np * sizeof *grid), *xyz = malloc(3 * np * sizeof *xyz);
    uint32_t *pairs = malloc(2 * (k.edges + k.shear) * sizeof *pairs);
    /* zeroed: Debug builds cannot see that the loop below fills them */
    uint32_t *g = calloc(np, sizeof *g), *pos = calloc(np, sizeof *pos);
    uint32_t *order = calloc(np, sizeof *order), *g2 = calloc(np, sizeof *g2);
    int rc = -1;
    xpbd_mesh_out o = {0};
    o.xyz32 = grid;
    o.edges = pairs;
    o.shear = pairs ? pairs + 2 * k.edges : NULL;
    o.capacity = k;
    if (grid && xyz && pairs && g && pos && order && g2 &&
        xpbd_mesh_cloth(&desc, &k, &o) == XPBD_OK) {
        for (uint32_t p = 0; p < (uint32_t)np; ++p)
            g[p] = pos[p] = p;
        rate[0] = xb_locality_run(&k, grid, pairs, (uint32_t)n, frames, g, pos, 0);
        uint64_t s = 0x5eedull;
        for (size_t p = np - 1; p > 0; --p) { /* xorshift Fisher-Yates */
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            const size_t j = (size_t)(s % (p + 1));
            const uint32_t t = g[p];
            g[p] = g[j];
            g[j] = t;
        }
        for (uint32_t p = 0; p < (uint32_t)np; ++p)
            pos[g[p]] = p;
        rate[1] = xb_locality_run(&k, grid, pairs, (uint32_t)n, frames, g, pos, 0);
        for (size_t p = 0; p < np; ++p) /* the shuffled particles' positions */
            memcpy(xyz + 3 * p, grid + 3 * (size_t)g[p], 3 * sizeof *xyz);
        if (xpbd_mesh_locality_order_f32(xyz, np, order, NULL, NULL) == XPBD_OK) {
            for (size_t p = 0; p < np; ++p)
                g2[p] = g[order[p]];
            for (uint32_t p = 0; p < (uint32_t)np; ++p)
                pos[g2[p]] = p;
            rate[2] = xb_locality_run(&k, grid, pairs, (uint32_t)n, frames, g2, pos, 1);
            rc = rate[0] > 0 && rate[1] > 0 && rate[2] > 0 ? 0 : -1;
        }
    }
    free(grid);
    free(xyz);
    free(pairs);
    free(g);
    free(pos);
    free(order);
    free(g2);
    return rc;
}
