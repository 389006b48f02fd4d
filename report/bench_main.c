/* SPDX-License-Identifier: MIT */
/* xpbd-bench: every kernel x ISA path x precision over sizes from in-cache
 * to out-of-cache, the machine's streaming bandwidth, and the cloth scene
 * through the step driver. Writes bench.tsv and cloth.tsv and prints
 * readable tables. The measurements themselves are in bench_core.c (the
 * report's simd_speed section makes the same ones). */
#define _POSIX_C_SOURCE 200112L /* isatty */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_core.h"
#include "bench_contacts.h"
#include "bench_engine.h"
#include "bench_peer.h"
#include "bench_sleep.h"

/* The in-cache sizes the summary quotes: 2^10 items, whose f32 particle
 * arrays (10 x 1024 x 4 bytes = 40 KiB for predict) fit L1 of current x86
 * cores (the f64 ones, 80 KiB, and the constraint mesh do not), and 2^12
 * items (160-416 KiB), which fit L2. The out-of-cache size is the largest
 * one measured. */
#define XB_IN_L1 1024u
#define XB_IN_L2 4096u

/* Targets of the issue, measured and reported, never asserted. */
#define XB_TARGET_DISTANCE 3.0
#define XB_TARGET_PARTICLE 6.0
#define XB_TARGET_BANDWIDTH 0.80
/* Cloth targets (sub10, shear): edge solves per second per core, best
 * path, one thread; and two threads against one. */
#define XB_CLOTH_TARGET_64 800e6
#define XB_CLOTH_TARGET_256 600e6
#define XB_CLOTH_TARGET_2T_64 1.5
#define XB_CLOTH_TARGET_2T_256 1.8
/* --threads: at most this many counts */
#define XB_MAX_THREAD_COUNTS 16
/* --load: 0, 1 and all */
#define XB_MAX_LOADS 3

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xpbd-bench [--quick] [--out FILE] [--cloth-out FILE] [--kernels a,b]\n"
            "                  [--isa a,b] [--precision f32,f64] [--max-log2 K]\n"
            "                  [--no-cloth | --cloth-only] [--no-sleep] [--threads LIST]\n"
            "                  [--load LIST] [--peer bullet] [--no-engine]\n"
            "\n"
            "Times every kernel on every ISA path this CPU runs, both precisions, from\n"
            "in-cache (2^10 items) to out-of-cache (2^K items, default K = 23) sizes,\n"
            "as ns per item (particle or constraint) and the ratio to the scalar\n"
            "reference measured in the same run (above 1 is faster); measures the\n"
            "streaming (triad) bandwidth and the memory-access bound of the packed\n"
            "constraint walk (packed_walk); runs the cloth scene (N x N, 10 substeps x\n"
            "1 iteration = sub10, or 1 x 10 = iter10, 300 frames) through xpbd_step_f32\n"
            "per ISA and thread count, optionally in a peer engine too; runs a 512 x 512\n"
            "cloth (128 x 128 with --quick) numbered by rows, shuffled, and shuffled then\n"
            "renumbered by xpbd_mesh_locality_order_f32; times a pile of 16 soft cubes\n"
            "resting on the ground per frame awake and asleep.\n"
            "\n"
            "  --quick            sizes 2^10, 2^12 and 2^20, short timing loops, cloth\n"
            "                     N = 32, 64 and 60 frames: a few seconds\n"
            "  --out FILE         kernel table (default bench.tsv), columns\n"
            "                     kernel precision isa n ns_per_item ratio_vs_scalar\n"
            "  --cloth-out FILE   cloth table (default cloth.tsv), columns variant (structural,\n"
            "                     shear: the default layout, the runs layout on these\n"
            "                     grids; shear_input, structural_input: the sets built\n"
            "                     with XPBD_LAYOUT_INPUT; shear_regions: cut into 4\n"
            "                     regions) n edges\n"
            "                     isa threads mode edge_solves_per_s ratio_vs_scalar\n"
            "                     speedup_vs_1thread frames seconds bitwise_equal (final\n"
            "                     positions == the scalar one-thread run's); with --load\n"
            "                     other than 0, a last column load (0, 1, all)\n"
            "  --kernels a,b      only these kernels:");
    int col = 40;
    for (size_t i = 0; xb_kernel_name(i); ++i) {
        const int len = (int)strlen(xb_kernel_name(i)) + 2;
        if (col + len > 78) {
            fprintf(f, "\n                    ");
            col = 20;
        }
        fprintf(f, " %s,", xb_kernel_name(i));
        col += len;
    }
    for (size_t i = 0; xb_contacts_kernel_name(i); ++i) {
        const int len = (int)strlen(xb_contacts_kernel_name(i)) + 2;
        if (col + len > 78) {
            fprintf(f, "\n                    ");
            col = 20;
        }
        fprintf(f, " %s%s", xb_contacts_kernel_name(i), xb_contacts_kernel_name(i + 1) ? "," : "");
        col += len;
    }
    fprintf(f,
            "\n"
            "  --isa a,b          only these paths (scalar, sse4, avx2, avx512, neon, auto);\n"
            "                     scalar is measured anyway, for the ratios\n"
            "  --precision p,q    f32, f64 or both (default both)\n"
            "  --max-log2 K       largest size 2^K items (4..28)\n"
            "  --no-cloth         skip the cloth scene\n"
            "  --cloth-only       only the cloth scene\n"
            "  --no-sleep         skip the sleeping measurement\n"
            "  --no-engine        cloth: skip the engine rows (xpbd_engine_step_f32 beside\n"
            "                     xpbd_step_f32 on the same shear cloth, sub10, best ISA or\n"
            "                     the first --isa, each --threads; N = 64, 128, 256, quick\n"
            "                     32, 64; state: final positions identical) and the\n"
            "                     per-stage split of a frame (N = 64 and 256, quick 32\n"
            "                     and 64; the public step beside the engine's path)\n"
            "  --threads LIST     cloth: the step's thread counts, e.g. 1,2 (default 1)\n"
            "  --load LIST        cloth: each row also under load, e.g. 0,1,all (default 0):\n"
            "                     0 quiet, 1 one busy thread pinned to the last CPU this\n"
            "                     process may run on, all one pinned to each of its CPUs;\n"
            "                     they spin only while the row is measured (the bench's\n"
            "                     own threads are not pinned); with a load other than 0\n"
            "                     the table, the headline and the TSV get a load column,\n"
            "                     x1t is against one thread under the same load, x and\n"
            "                     state against the quiet scalar one-thread run\n"
            "  --peer bullet      cloth: the same cloth in Bullet's btSoftBody (links only,\n"
            "                     same substeps, frames and pins; stiffness matched to the\n"
            "                     compliance), both rates and their ratio (against the\n"
            "                     first --load's rows); needs a build that found Bullet\n"
            "                     (apt-get install libbullet-dev)\n"
            "  --help             this text\n"
            "\n"
            "Timing: best of 5 loops of >= 20 ms each (quick: 3 of >= 1 ms), CLOCK_MONOTONIC,\n"
            "one thread (the cloth: --threads). Constraint kernels run over every colour of a sheared cloth mesh\n"
            "(grid with both diagonals, ~4 N^2 edges). The XPBD_ISA variable does not\n"
            "affect the bench. Exit status: 0; 2 bad arguments or nothing measured; 1 a\n"
            "file could not be written; 3 a cloth run ended different from scalar's.\n");
}

static int is_contact_kernel(const char *name)
{
    for (size_t i = 0; xb_contacts_kernel_name(i); ++i)
        if (strcmp(name, xb_contacts_kernel_name(i)) == 0)
            return 1;
    return 0;
}

/* Splits a --kernels list into the names of the core (xb_run) and the
 * contact (xb_run_contacts) kernels; an empty part means "none of these". */
static void split_kernels(const char *list, char *core, char *contact, size_t cap)
{
    core[0] = contact[0] = 0;
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        const size_t len = e ? (size_t)(e - s) : strlen(s);
        char name[64];
        if (len < sizeof name) {
            memcpy(name, s, len);
            name[len] = 0;
            char *dst = is_contact_kernel(name) ? contact : core;
            if (strlen(dst) + len + 2 < cap) {
                if (*dst)
                    strcat(dst, ",");
                strcat(dst, name);
            }
        }
        s += len;
        if (*s == ',')
            ++s;
    }
}

/* Checks a comma-separated list of names before anything runs, naming the
 * first bad one. kind: 0 kernels, 1 ISAs, 2 precisions. */
static int check_list(const char *list, int kind)
{
    static const char *const what[3] = {"kernel", "ISA", "precision"};
    const char *s = list;
    if (!*s) {
        fprintf(stderr, "xpbd-bench: empty %s list\n", what[kind]);
        return -1;
    }
    while (*s) {
        const char *e = strchr(s, ',');
        const size_t len = e ? (size_t)(e - s) : strlen(s);
        char name[64];
        int ok = len > 0 && len < sizeof name;
        if (ok) {
            memcpy(name, s, len);
            name[len] = 0;
            if (kind == 0) {
                ok = xb_kernel_is_constraint(name) >= 0 || is_contact_kernel(name);
            } else if (kind == 1) {
                xpbd_isa isa;
                ok = xpbd_isa_from_name(name, &isa) == XPBD_OK;
                if (ok && isa != XPBD_ISA_AUTO && !xpbd_isa_supported(isa)) {
                    fprintf(stderr, "xpbd-bench: ISA '%s' is %s\n", name,
                            xpbd_isa_compiled(isa) ? "not supported by this CPU"
                                                   : "not compiled into this build");
                    return -1;
                }
            } else {
                ok = strcmp(name, "f32") == 0 || strcmp(name, "f64") == 0;
            }
        }
        if (!ok) {
            fprintf(stderr, "xpbd-bench: unknown %s '%.*s' (see --help)\n", what[kind],
                    (int)len, s);
            return -1;
        }
        s += len;
        if (*s == ',')
            ++s;
    }
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Warns when other processes compete for the cores: the timings are then
 * noisy and the ratios unreliable. Reads /proc/loadavg where it exists. */
static void warn_if_busy(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    double load = 0;
    const int got = fscanf(f, "%lf", &load);
    fclose(f);
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (got == 1 && cpus > 0 && load > (double)cpus - 0.5)
        printf("warning: load average %.1f on %ld CPUs: other processes compete for the cores, "
               "timings will be noisy\n",
               load, cpus);
}

/* ------------------------------------------------------------ tables --- */

static int cmp_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static const xb_row *find_row(const xb_row *r, size_t n, const char *kernel, const char *prec,
                              xpbd_isa isa, size_t items)
{
    for (size_t i = 0; i < n; ++i)
        if (r[i].isa == isa && r[i].n == items && strcmp(r[i].kernel, kernel) == 0 &&
            strcmp(r[i].precision, prec) == 0)
            return &r[i];
    return NULL;
}

/* Distinct n of one kernel and precision, ascending. Returns the count. */
static size_t sizes_of(const xb_row *r, size_t n, const char *kernel, const char *prec,
                       size_t *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(r[i].kernel, kernel) != 0 || strcmp(r[i].precision, prec) != 0)
            continue;
        size_t j = 0;
        while (j < k && out[j] != r[i].n)
            ++j;
        if (j == k && k < cap)
            out[k++] = r[i].n;
    }
    qsort(out, k, sizeof *out, cmp_size);
    return k;
}

/* The size closest to `want` (in ratio) among sizes[0..k). */
static size_t closest(const size_t *sizes, size_t k, size_t want)
{
    size_t best = sizes[0];
    double bd = 1e300;
    for (size_t i = 0; i < k; ++i) {
        const double d = sizes[i] > want ? (double)sizes[i] / want : (double)want / sizes[i];
        if (d < bd) {
            bd = d;
            best = sizes[i];
        }
    }
    return best;
}

/* Fastest non-scalar path of one kernel/precision/size (NULL if none). */
static const xb_row *best_row(const xb_row *r, size_t n, const char *kernel, const char *prec,
                              size_t items)
{
    const xb_row *b = NULL;
    for (int i = 1; i < XPBD_ISA_COUNT; ++i) {
        const xb_row *x = find_row(r, n, kernel, prec, (xpbd_isa)i, items);
        if (x && (!b || x->ratio_vs_scalar > b->ratio_vs_scalar))
            b = x;
    }
    return b;
}

static void print_table(const xb_row *r, size_t n, const int *isa_present)
{
    static const char *const precs[2] = {"f32", "f64"};
    printf("Kernel time, ns per item (lower is better); (x) = scalar time / this path's time\n\n");
    printf("%-20s %-4s %9s", "kernel", "prec", "n");
    for (int i = 0; i < XPBD_ISA_COUNT; ++i)
        if (isa_present[i])
            printf(" | %-16s", xpbd_isa_name((xpbd_isa)i));
    printf("\n");
    for (int p = 0; p < 2; ++p)
        for (size_t k = 0; xb_kernel_name(k); ++k) {
            size_t sizes[32];
            const size_t ns = sizes_of(r, n, xb_kernel_name(k), precs[p], sizes, 32);
            for (size_t s = 0; s < ns; ++s) {
                printf("%-20s %-4s %9zu", xb_kernel_name(k), precs[p], sizes[s]);
                for (int i = 0; i < XPBD_ISA_COUNT; ++i) {
                    if (!isa_present[i])
                        continue;
                    const xb_row *x =
                        find_row(r, n, xb_kernel_name(k), precs[p], (xpbd_isa)i, sizes[s]);
                    if (!x)
                        printf(" | %-16s", "-");
                    else if (i == XPBD_ISA_SCALAR)
                        printf(" | %8.3f         ", x->ns_per_item);
                    else
                        printf(" | %8.3f (%5.2fx)", x->ns_per_item, x->ratio_vs_scalar);
                }
                printf("\n");
            }
        }
}

static void print_summary(const xb_row *r, size_t n)
{
    static const char *const precs[2] = {"f32", "f64"};
    printf("\nBest path vs scalar at n ~ %u (f32 particle arrays in L1), n ~ %u (in L2) and\n"
           "the largest n (out of cache)\n\n",
           XB_IN_L1, XB_IN_L2);
    printf("%-20s %-4s | %8s %-6s %6s | %8s %-6s %6s | %9s %-6s %6s\n", "kernel", "prec", "n",
           "best", "x", "n", "best", "x", "n", "best", "x");
    for (int p = 0; p < 2; ++p)
        for (size_t k = 0; xb_kernel_name(k); ++k) {
            size_t sizes[32];
            const char *kn = xb_kernel_name(k);
            const size_t ns = sizes_of(r, n, kn, precs[p], sizes, 32);
            if (ns == 0 || strcmp(kn, "packed_walk") == 0) /* no SIMD path: the bound */
                continue;
            const size_t at[3] = {closest(sizes, ns, XB_IN_L1), closest(sizes, ns, XB_IN_L2),
                                  sizes[ns - 1]};
            printf("%-20s %-4s", kn, precs[p]);
            for (int c = 0; c < 3; ++c) {
                const xb_row *b = best_row(r, n, kn, precs[p], at[c]);
                printf(c == 2 ? " | %9zu %-6s %5.2fx" : " | %8zu %-6s %5.2fx", at[c],
                       b ? xpbd_isa_name(b->isa) : "-", b ? b->ratio_vs_scalar : 0);
            }
            printf("\n");
        }
}

/* Bandwidth of the streaming particle kernels at the largest size, against
 * the triad over the same working set (same cache level) and over 384 MiB. */
static void print_bandwidth(const xb_row *r, size_t n, int quick, const int *isa_present,
                            double fraction[2][2])
{
    static const char *const precs[2] = {"f32", "f64"};
    const xb_stream dram = xb_stream_measure(0, quick);
    printf("\nStreaming bandwidth, one thread, counted like STREAM (bytes read + bytes\n"
           "written, no write-allocate traffic): copy %.1f GB/s, triad %.1f GB/s over %zu MiB\n",
           dram.copy / 1e9, dram.triad / 1e9, dram.bytes >> 20);
    for (int p = 0; p < 2; ++p) {
        size_t sizes[32];
        const size_t ns = sizes_of(r, n, "predict", precs[p], sizes, 32);
        if (ns == 0)
            continue;
        const size_t big = sizes[ns - 1];
        const size_t ws = (size_t)(xb_footprint_per_item("predict", precs[p]) * (double)big);
        const xb_stream same = ws >= dram.bytes ? dram : xb_stream_measure(ws, quick);
        const double triad = ws >= dram.bytes ? dram.triad : same.triad;
        printf("\n%s, n = %zu (predict's arrays: %.1f MiB); triad over that working set "
               "%.1f GB/s\n",
               precs[p], big, (double)ws / (1 << 20), triad / 1e9);
        printf("%-17s %6s", "kernel", "B/item");
        for (int i = 0; i < XPBD_ISA_COUNT; ++i)
            if (isa_present[i])
                printf(" %7s", xpbd_isa_name((xpbd_isa)i));
        printf("   GB/s; best as %% of the triad\n");
        for (size_t k = 0; xb_kernel_name(k); ++k) {
            const char *kn = xb_kernel_name(k);
            const double bytes = xb_bytes_per_item(kn, precs[p]);
            if (bytes <= 0 || !find_row(r, n, kn, precs[p], XPBD_ISA_SCALAR, big))
                continue;
            printf("%-17s %6.0f", kn, bytes);
            double best = 0;
            for (int i = 0; i < XPBD_ISA_COUNT; ++i) {
                if (!isa_present[i])
                    continue;
                const xb_row *x = find_row(r, n, kn, precs[p], (xpbd_isa)i, big);
                const double gbs = x ? bytes / x->ns_per_item : 0;
                if (gbs > best)
                    best = gbs;
                if (x)
                    printf(" %7.1f", gbs);
                else
                    printf(" %7s", "-");
            }
            const double f = best * 1e9 / triad;
            printf("   %5.0f%%\n", 100 * f);
            if (strcmp(kn, "predict") == 0)
                fraction[p][0] = f;
            if (strcmp(kn, "update_velocity") == 0)
                fraction[p][1] = f;
        }
    }
}

static void print_target(const xb_row *r, size_t n, const char *kernel, const char *prec,
                         size_t want, const char *where, double target)
{
    size_t sizes[32];
    const size_t ns = sizes_of(r, n, kernel, prec, sizes, 32);
    if (ns == 0)
        return;
    const size_t at = closest(sizes, ns, want);
    const xb_row *b = best_row(r, n, kernel, prec, at);
    if (!b)
        return;
    printf("  %-20s %s %s (n = %7zu), best %-6s: %5.2fx scalar  (target >= %.0fx)  %s\n", kernel,
           prec, where, at, xpbd_isa_name(b->isa), b->ratio_vs_scalar, target,
           b->ratio_vs_scalar >= target ? "met" : "BELOW");
}

static void print_targets(const xb_row *r, size_t n, double fraction[2][2])
{
    static const char *const precs[2] = {"f32", "f64"};
    printf("\nTargets (measured here, not asserted; n~1k: f32 particle arrays in L1, n~4k: "
           "in L2)\n");
    print_target(r, n, "distance_xpbd", "f32", XB_IN_L1, "n~1k ", XB_TARGET_DISTANCE);
    print_target(r, n, "distance_xpbd", "f32", XB_IN_L2, "n~4k ", XB_TARGET_DISTANCE);
    print_target(r, n, "distance_xpbd_packed", "f32", XB_IN_L1, "n~1k ", XB_TARGET_DISTANCE);
    print_target(r, n, "distance_xpbd_packed", "f32", XB_IN_L2, "n~4k ", XB_TARGET_DISTANCE);
    /* what the step driver runs (packed SIMD) against the scalar reference
     * kernel on the caller's arrays */
    for (int c = 0; c < 2; ++c) {
        size_t sizes[32];
        const size_t ns = sizes_of(r, n, "distance_xpbd_packed", "f32", sizes, 32);
        if (ns == 0)
            break;
        const size_t at = closest(sizes, ns, c ? XB_IN_L2 : XB_IN_L1);
        const xb_row *b = best_row(r, n, "distance_xpbd_packed", "f32", at);
        const xb_row *s = find_row(r, n, "distance_xpbd", "f32", XPBD_ISA_SCALAR, at);
        if (b && s)
            printf("  %-20s f32 %s (n = %7zu), packed %-6s vs scalar distance_xpbd: %5.2fx\n",
                   "(step driver path)", c ? "n~4k " : "n~1k ", at, xpbd_isa_name(b->isa),
                   s->ns_per_item / b->ns_per_item);
    }
    for (int p = 0; p < 2; ++p) {
        print_target(r, n, "predict", precs[p], XB_IN_L1, "n~1k ", XB_TARGET_PARTICLE);
        print_target(r, n, "predict", precs[p], XB_IN_L2, "n~4k ", XB_TARGET_PARTICLE);
        print_target(r, n, "update_velocity", precs[p], XB_IN_L1, "n~1k ", XB_TARGET_PARTICLE);
        print_target(r, n, "update_velocity", precs[p], XB_IN_L2, "n~4k ", XB_TARGET_PARTICLE);
    }
    for (int p = 0; p < 2; ++p)
        for (int k = 0; k < 2; ++k)
            if (fraction[p][k] > 0)
                printf("  %-20s %s out of cache: best path at %4.0f%% of the triad's bandwidth "
                       "(target >= %.0f%%)  %s\n",
                       k ? "update_velocity" : "predict", precs[p], 100 * fraction[p][k],
                       100 * XB_TARGET_BANDWIDTH,
                       fraction[p][k] >= XB_TARGET_BANDWIDTH ? "met" : "BELOW");
}

/* How far the packed constraint kernels are from the memory-access bound
 * measured in the same run: packed_walk, the same colour walk with only the
 * packed loads and stores. */
static void print_bound(const xb_row *r, size_t n, const int *isa_present)
{
    static const char *const precs[2] = {"f32", "f64"};
    static const char *const kernels[2] = {"distance_xpbd_packed", "distance_pbd_packed"};
    int any = 0;
    for (int p = 0; p < 2; ++p) {
        size_t sizes[32];
        const size_t ns = sizes_of(r, n, "packed_walk", precs[p], sizes, 32);
        for (size_t s = 0; s < ns; ++s) {
            const xb_row *b = find_row(r, n, "packed_walk", precs[p], XPBD_ISA_SCALAR, sizes[s]);
            if (!b)
                continue;
            if (!any) {
                printf("\nMemory-access bound: packed_walk walks the colours like the packed "
                       "kernels, with\ntheir loads and stores only (no maths); kernel time / "
                       "bound time, 1.00 = at the bound\n\n%-20s %-4s %9s %9s", "kernel", "prec",
                       "n", "bound ns");
                for (int i = 0; i < XPBD_ISA_COUNT; ++i)
                    if (isa_present[i])
                        printf(" %8s", xpbd_isa_name((xpbd_isa)i));
                printf("\n");
                any = 1;
            }
            for (int k = 0; k < 2; ++k) {
                printf("%-20s %-4s %9zu %9.3f", kernels[k], precs[p], sizes[s], b->ns_per_item);
                for (int i = 0; i < XPBD_ISA_COUNT; ++i) {
                    if (!isa_present[i])
                        continue;
                    const xb_row *x = find_row(r, n, kernels[k], precs[p], (xpbd_isa)i, sizes[s]);
                    if (x)
                        printf(" %7.2fx", x->ns_per_item / b->ns_per_item);
                    else
                        printf(" %8s", "-");
                }
                printf("\n");
            }
        }
    }
}

static int write_tsv(const char *path, const xb_row *r, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "kernel\tprecision\tisa\tn\tns_per_item\tratio_vs_scalar\n");
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%s\t%s\t%s\t%zu\t%.6g\t%.6g\n", r[i].kernel, r[i].precision,
                xpbd_isa_name(r[i].isa), r[i].n, r[i].ns_per_item, r[i].ratio_vs_scalar);
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* The fastest row of one variant, side, mode, thread count and load (NULL
 * if none). */
static const xb_cloth_row *cloth_best(const xb_cloth_row *r, size_t n, const char *variant,
                                      int side, const char *mode, uint32_t threads, xb_load load)
{
    const xb_cloth_row *b = NULL;
    for (size_t i = 0; i < n; ++i)
        if (r[i].n == side && r[i].threads == threads && r[i].load == load &&
            strcmp(r[i].variant, variant) == 0 &&
            strcmp(r[i].mode, mode) == 0 && (!b || r[i].edge_solves_per_s > b->edge_solves_per_s))
            b = &r[i];
    return b;
}

/* 1 unless the loads are the quiet one alone: the tables then have no load
 * column, as before there were loads. */
static int show_loads(const xb_load *loads, size_t nloads)
{
    return !(nloads == 1 && loads[0] == XB_LOAD_QUIET);
}

/* The headline: sub10 (the like-for-like mode), shear in the default
 * layout and in input order, best path, per load and thread count, against
 * the targets (those of a quiet machine: loaded rows give their ratio to
 * one thread under the same load, and a loaded thread its ratio to the
 * quiet one). */
static void cloth_headline(const xb_cloth_row *r, size_t n, const uint32_t *threads,
                           size_t nthreads, const xb_load *loads, size_t nloads)
{
    printf("\nHeadline: sub10 (10 substeps x 1 iteration), shear (the default layout: runs on\n"
           "this grid; shear_input: the set built with XPBD_LAYOUT_INPUT), best path\n");
    static const int sides[2] = {64, 256};
    static const char *const variants[2] = {"shear", "shear_input"};
    const int with_load = show_loads(loads, nloads);
    for (int vs = 0; vs < 4; ++vs) {
        const int v = vs / 2, s = vs % 2;
        const xb_cloth_row *quiet =
            cloth_best(r, n, variants[v], sides[s], "sub10", 1, XB_LOAD_QUIET);
        for (size_t l = 0; l < nloads; ++l) {
            const xb_load load = loads[l];
            const xb_cloth_row *one = cloth_best(r, n, variants[v], sides[s], "sub10", 1, load);
            for (size_t k = 0; k < nthreads; ++k) {
                const xb_cloth_row *b =
                    cloth_best(r, n, variants[v], sides[s], "sub10", threads[k], load);
                if (!b)
                    continue;
                printf("  %-11s %3dx%-3d %u thread%s ", variants[v], sides[s], sides[s],
                       (unsigned)threads[k], threads[k] == 1 ? " " : "s");
                if (with_load)
                    printf("load %-3s ", xb_load_name(load));
                printf("%-6s %7.0f M edge solves/s", xpbd_isa_name(b->isa),
                       b->edge_solves_per_s / 1e6);
                if (threads[k] == 1 && load != XB_LOAD_QUIET) {
                    if (quiet)
                        printf("   %.2fx quiet", b->edge_solves_per_s / quiet->edge_solves_per_s);
                } else if (threads[k] == 1) {
                    const double target = s ? XB_CLOTH_TARGET_256 : XB_CLOTH_TARGET_64;
                    printf("   (target per core >= %.0f M/s: %s)", target / 1e6,
                           b->edge_solves_per_s >= target ? "met" : "BELOW");
                } else if (one && threads[k] == 2 && load == XB_LOAD_QUIET) {
                    const double x = b->edge_solves_per_s / one->edge_solves_per_s;
                    const double target = s ? XB_CLOTH_TARGET_2T_256 : XB_CLOTH_TARGET_2T_64;
                    printf("   %.2fx one thread (target >= %.1fx: %s)", x, target,
                           x >= target ? "met" : "BELOW");
                } else if (one) {
                    printf("   %.2fx one thread", b->edge_solves_per_s / one->edge_solves_per_s);
                    if (load != XB_LOAD_QUIET)
                        printf(" under load %s", xb_load_name(load));
                }
                printf("\n");
            }
        }
    }
}

/* Returns the number of rows whose final state differs from the scalar
 * one-thread run's, or -1 on I/O error. */
static int cloth_report(const char *path, const xb_cloth_row *r, size_t n,
                        const uint32_t *threads, size_t nthreads, const xb_load *loads,
                        size_t nloads)
{
    const int with_load = show_loads(loads, nloads);
    printf("\nCloth: N x N grid flat in the horizontal plane, 0.25 m spacing, two corners\n"
           "pinned, compliance 1e-5, g = -9.81, 1/60 s frames, xpbd_step_f32\n"
           "(measure_residual = 0). sub10 = 10 substeps x 1 iteration (what engines that\n"
           "substep call \"10 iterations\"), iter10 = 1 substep x 10 iterations. Rate = edges\n"
           "x 10 x frames / wall time of all frames; x = rate / scalar's with one thread;\n"
           "x1t = rate / the same path's with one thread. state: final positions against\n"
           "the scalar one-thread run's, bit for bit.\n");
    if (with_load)
        printf("load: busy threads next to the row (0 none, 1 one pinned to the last CPU,\n"
               "all one pinned to each CPU); x and state against the quiet scalar run, x1t\n"
               "against one thread under the same load.\n");
    printf("\n%-16s %4s %7s %-6s %-6s %3s", "variant", "N", "edges", "mode", "isa", "thr");
    if (with_load)
        printf(" %-4s", "load");
    printf(" %6s %9s %11s %7s %6s %s\n", "frames", "seconds", "M solves/s", "x", "x1t",
           "state");
    int mismatches = 0;
    for (size_t i = 0; i < n; ++i) {
        printf("%-16s %4d %7zu %-6s %-6s %3u", r[i].variant, r[i].n, r[i].edges, r[i].mode,
               xpbd_isa_name(r[i].isa), (unsigned)r[i].threads);
        if (with_load)
            printf(" %-4s", xb_load_name(r[i].load));
        printf(" %6d %9.4f %11.1f %6.2fx", r[i].frames, r[i].seconds,
               r[i].edge_solves_per_s / 1e6, r[i].ratio_vs_scalar);
        if (r[i].speedup_vs_1thread > 0)
            printf(" %5.2fx", r[i].speedup_vs_1thread);
        else
            printf(" %6s", "-");
        printf(" %s\n", r[i].bitwise_equal ? "= scalar" : "DIFFERS FROM SCALAR");
        mismatches += !r[i].bitwise_equal;
    }
    cloth_headline(r, n, threads, nthreads, loads, nloads);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "variant\tn\tedges\tisa\tthreads\tmode\tedge_solves_per_s\tratio_vs_scalar"
               "\tspeedup_vs_1thread\tframes\tseconds\tbitwise_equal%s\n",
            with_load ? "\tload" : "");
    for (size_t i = 0; i < n; ++i) {
        fprintf(f, "%s\t%d\t%zu\t%s\t%u\t%s\t%.6g\t%.6g\t%.6g\t%d\t%.6g\t%d", r[i].variant,
                r[i].n, r[i].edges, xpbd_isa_name(r[i].isa), (unsigned)r[i].threads, r[i].mode,
                r[i].edge_solves_per_s, r[i].ratio_vs_scalar, r[i].speedup_vs_1thread,
                r[i].frames, r[i].seconds, r[i].bitwise_equal);
        if (with_load)
            fprintf(f, "\t%s", xb_load_name(r[i].load));
        fprintf(f, "\n");
    }
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return mismatches;
}

/* The peer's rates next to xpbd's (best path, one thread, and the most
 * threads measured) on the same cloth. */
static void peer_report(const xb_peer_row *p, size_t np, const xb_cloth_row *r, size_t n,
                        uint32_t most_threads, xb_load load)
{
    printf("\nPeer: the same cloth in Bullet's btSoftBody (links only; an internal step per\n"
           "substep, piterations = iterations; link stiffness kLST matched to compliance\n"
           "1e-5 at the substep, see bench_peer.c). xpbd = best path; x = xpbd / Bullet.\n"
           "mean y = mean particle height after the frames, xpbd / Bullet (m): the two\n"
           "solvers differ, the sheets should hang alike.\n\n");
    printf("%-10s %4s %7s %-6s %5s %11s | %11s %7s", "variant", "N", "edges", "mode", "kLST",
           "Bullet M/s", "xpbd 1t M/s", "x");
    if (most_threads > 1)
        printf(" | %8s%3u thr M/s %7s", "xpbd", (unsigned)most_threads, "x");
    printf(" | %s\n", "mean y xpbd / Bullet");
    for (size_t i = 0; i < np; ++i) {
        const xb_cloth_row *one = cloth_best(r, n, p[i].variant, p[i].n, p[i].mode, 1, load);
        const xb_cloth_row *most =
            most_threads > 1 ? cloth_best(r, n, p[i].variant, p[i].n, p[i].mode, most_threads, load)
                             : NULL;
        printf("%-10s %4d %7zu %-6s %5.3f %11.1f | ", p[i].variant, p[i].n, p[i].edges,
               p[i].mode, (double)p[i].stiffness, p[i].edge_solves_per_s / 1e6);
        if (one)
            printf("%11.1f %6.2fx", one->edge_solves_per_s / 1e6,
                   one->edge_solves_per_s / p[i].edge_solves_per_s);
        else
            printf("%11s %7s", "-", "-");
        if (most_threads > 1) {
            if (most)
                printf(" | %19.1f %6.2fx", most->edge_solves_per_s / 1e6,
                       most->edge_solves_per_s / p[i].edge_solves_per_s);
            else
                printf(" | %19s %7s", "-", "-");
        }
        printf(" | %.3f / %.3f\n", p[i].mean_y_xpbd, p[i].mean_y_peer);
    }
}

/* Parses --threads: comma-separated counts in 1..1024, at most
 * XB_MAX_THREAD_COUNTS, no repeats, into ascending order. Returns the count,
 * 0 on a bad list. */
static size_t parse_threads(const char *list, uint32_t *out)
{
    size_t k = 0;
    const char *s = list;
    while (*s) {
        char *end;
        const long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 1024 || (*end && *end != ',') || k == XB_MAX_THREAD_COUNTS)
            return 0;
        for (size_t j = 0; j < k; ++j)
            if (out[j] == (uint32_t)v)
                return 0;
        out[k++] = (uint32_t)v;
        s = *end ? end + 1 : end;
        if (*end && !*s)
            return 0; /* trailing comma */
    }
    /* ascending: one thread, when asked for, runs before the rows it scales */
    for (size_t i = 1; i < k; ++i)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; --j) {
            const uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

/* Parses --load: comma-separated 0, 1 and all, no repeats, into that
 * order. Returns the count, 0 on a bad list. */
static size_t parse_loads(const char *list, xb_load *out)
{
    int on[XB_MAX_LOADS] = {0, 0, 0};
    const char *s = list;
    if (!*s)
        return 0;
    while (*s) {
        const char *e = strchr(s, ',');
        const size_t len = e ? (size_t)(e - s) : strlen(s);
        int which = -1;
        for (int l = 0; l < XB_MAX_LOADS; ++l)
            if (strlen(xb_load_name((xb_load)l)) == len &&
                strncmp(s, xb_load_name((xb_load)l), len) == 0)
                which = l;
        if (which < 0 || on[which])
            return 0;
        on[which] = 1;
        s += len;
        if (*s == ',' && !*++s)
            return 0; /* trailing comma */
    }
    size_t k = 0;
    for (int l = 0; l < XB_MAX_LOADS; ++l)
        if (on[l])
            out[k++] = (xb_load)l;
    return k;
}

/* --------------------------------------------------------------- main --- */

/* The kernel measurements (xb_run, xb_run_contacts) printed and written to
 * out. Returns 0, 1 if out could not be written, 2 if nothing was
 * measured. */
static int bench_kernels(const xb_options *opt, const char *out)
{
    /* the core kernels (xb_run), then the contact kernels and the broad
     * phase (xb_run_contacts), in one table */
    static char core[1024], contact[1024];
    xb_options copt = *opt, kopt = *opt;
    int run_core = 1, run_contacts = 1;
    if (opt->kernels) {
        split_kernels(opt->kernels, core, contact, sizeof core);
        run_core = core[0] != 0;
        run_contacts = contact[0] != 0;
        copt.kernels = core;
        kopt.kernels = contact;
    }
    xb_row *rows = NULL, *crows = NULL;
    const double t0 = now();
    size_t n = run_core ? xb_run(&copt, &rows) : 0;
    const size_t cn = run_contacts ? xb_run_contacts(&kopt, &crows) : 0;
    if (cn) {
        xb_row *all = realloc(rows, (n + cn) * sizeof *all);
        if (all) {
            memcpy(all + n, crows, cn * sizeof *all);
            rows = all;
            n += cn;
        }
    }
    free(crows);
    const double t_run = now() - t0;
    if (n == 0) {
        fprintf(stderr, "xpbd-bench: nothing measured (out of memory?)\n");
        return 2;
    }
    int isa_present[XPBD_ISA_COUNT] = {0};
    for (size_t i = 0; i < n; ++i)
        isa_present[rows[i].isa] = 1;
    printf("\n");
    print_table(rows, n, isa_present);
    print_summary(rows, n);
    double fraction[2][2] = {{0, 0}, {0, 0}};
    const double t1 = now();
    print_bandwidth(rows, n, opt->quick, isa_present, fraction);
    const double t_bw = now() - t1;
    print_targets(rows, n, fraction);
    print_bound(rows, n, isa_present);
    int status = 0;
    if (write_tsv(out, rows, n) != 0)
        status = 1;
    else
        printf("\nwrote %s (%zu rows; kernels %.1f s, bandwidth %.1f s)\n", out, n, t_run,
               t_bw);
    free(rows);
    return status;
}

/* The cloth scene at each thread count (written to cloth_out), the
 * locality runs and, with peer, the same cloth in Bullet; *status takes a
 * failure's exit status as main's does. Returns 0, or 2 if the cloth scene
 * failed. */
static int bench_cloth(const xb_options *opt, const char *cloth_out, const uint32_t *threads,
                       size_t nthreads, int peer, int *status)
{
    static const xb_load quiet = XB_LOAD_QUIET;
    xb_cloth_row *rows = NULL;
    const double t0 = now();
    const size_t n = xb_cloth(opt, &rows);
    const double t_cloth = now() - t0;
    if (n == 0) {
        fprintf(stderr, "xpbd-bench: the cloth scene failed (a step error or out of "
                        "memory)\n");
        return 2;
    }
    const int bad = cloth_report(cloth_out, rows, n, threads, nthreads,
                                 opt->load_count ? opt->loads : &quiet, opt->load_count ? opt->load_count : 1);
    if (bad < 0) {
        *status = 1;
    } else {
        printf("wrote %s (%zu rows; %.1f s)\n", cloth_out, n, t_cloth);
        if (bad > 0) {
            fprintf(stderr, "xpbd-bench: %d cloth runs ended in a state different from "
                            "the scalar reference's\n", bad);
            *status = 3;
        }
    }
    {
        const int side = opt->quick ? 128 : 512, frames = opt->quick ? 10 : 30;
        double lr[3];
        if (xb_locality(side, frames, lr) != 0) {
            fprintf(stderr, "xpbd-bench: the locality runs failed\n");
            *status = *status ? *status : 2;
        } else {
            printf("\nLocality: %dx%d shear cloth, sub10, 1 thread, best path, %d frames, "
                   "M edge solves/s\n"
                   "  numbered by rows (as generated)              %8.1f\n"
                   "  shuffled (a mesh in an arbitrary order)      %8.1f   %.2fx\n"
                   "  shuffled, then xpbd_mesh_locality_order_f32  %8.1f   %.2fx\n",
                   side, side, frames, lr[0], lr[1], lr[1] / lr[0], lr[2], lr[2] / lr[0]);
        }
    }
    if (peer && !xb_peer_available()) {
        printf("\nPeer: this xpbd-bench was built without Bullet; install it (Debian: "
               "`apt-get install libbullet-dev`), reconfigure and rebuild to run the same "
               "cloth in btSoftBody.\n");
    } else if (peer) {
        /* like with like: the peer runs next to the same busy threads as
         * the xpbd rows it is compared with (quiet when --load has 0) */
        xb_load load = XB_LOAD_QUIET;
        int quiet_listed = opt->load_count == 0;
        for (size_t k = 0; k < opt->load_count; ++k)
            quiet_listed |= opt->loads[k] == XB_LOAD_QUIET;
        if (!quiet_listed)
            load = opt->loads[0];
        xb_peer_row *prow = NULL;
        const double tp = now();
        int load_failed = 0;
        xb_load_state *busy = load != XB_LOAD_QUIET ? xb_load_start(load, &load_failed) : NULL;
        const size_t np = load_failed ? 0 : xb_peer_cloth_rows(opt, &prow);
        xb_load_stop(busy);
        if (np == 0) {
            fprintf(stderr, "xpbd-bench: the peer's cloth failed (out of memory, or its "
                            "busy threads could not start)\n");
            *status = *status ? *status : 2;
        } else {
            uint32_t most = 1;
            for (size_t k = 0; k < nthreads; ++k)
                if (threads[k] > most)
                    most = threads[k];
            peer_report(prow, np, rows, n, most, load);
            printf("peer: %zu runs, %.1f s\n", np, now() - tp);
        }
        free(prow);
    }
    free(rows);
    return 0;
}

int main(int argc, char **argv)
{
    xb_options opt;
    memset(&opt, 0, sizeof opt);
    const char *out = "bench.tsv", *cloth_out = "cloth.tsv";
    int do_kernels = 1, do_cloth = 1, do_sleep = 1, peer = 0, do_engine = 1;
    uint32_t threads[XB_MAX_THREAD_COUNTS] = {1};
    size_t nthreads = 1;
    xb_load loads[XB_MAX_LOADS] = {XB_LOAD_QUIET};
    size_t nloads = 1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            opt.quick = 1;
        } else if (strcmp(a, "--no-cloth") == 0) {
            do_cloth = 0;
        } else if (strcmp(a, "--no-sleep") == 0) {
            do_sleep = 0;
        } else if (strcmp(a, "--no-engine") == 0) {
            do_engine = 0;
        } else if (strcmp(a, "--cloth-only") == 0) {
            do_kernels = 0;
        } else if (strcmp(a, "--out") == 0 && has_value) {
            out = argv[++i];
        } else if (strcmp(a, "--cloth-out") == 0 && has_value) {
            cloth_out = argv[++i];
        } else if (strcmp(a, "--kernels") == 0 && has_value) {
            opt.kernels = argv[++i];
        } else if (strcmp(a, "--isa") == 0 && has_value) {
            opt.isas = argv[++i];
        } else if (strcmp(a, "--precision") == 0 && has_value) {
            opt.precisions = argv[++i];
        } else if (strcmp(a, "--threads") == 0 && has_value) {
            nthreads = parse_threads(argv[++i], threads);
            if (nthreads == 0) {
                fprintf(stderr, "xpbd-bench: --threads wants distinct counts in 1..1024, "
                                "comma-separated, at most %d (e.g. 1,2)\n",
                        XB_MAX_THREAD_COUNTS);
                return 2;
            }
        } else if (strcmp(a, "--load") == 0 && has_value) {
            nloads = parse_loads(argv[++i], loads);
            if (nloads == 0) {
                fprintf(stderr, "xpbd-bench: --load wants 0, 1 and/or all, comma-separated, "
                                "each once (e.g. 0,1,all)\n");
                return 2;
            }
        } else if (strcmp(a, "--peer") == 0 && has_value) {
            if (strcmp(argv[++i], "bullet") != 0) {
                fprintf(stderr, "xpbd-bench: unknown peer '%s' (known: bullet)\n", argv[i]);
                return 2;
            }
            peer = 1;
        } else if (strcmp(a, "--max-log2") == 0 && has_value) {
            char *end;
            const long k = strtol(argv[++i], &end, 10);
            if (*end || k < 4 || k > 28) {
                fprintf(stderr, "xpbd-bench: --max-log2 wants an integer in 4..28\n");
                return 2;
            }
            opt.max_log2_n = (int)k;
        } else {
            fprintf(stderr, "xpbd-bench: unknown or incomplete option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
    }
    if ((opt.kernels && check_list(opt.kernels, 0) != 0) ||
        (opt.isas && check_list(opt.isas, 1) != 0) ||
        (opt.precisions && check_list(opt.precisions, 2) != 0))
        return 2;
    if (!do_kernels && !do_cloth) {
        fprintf(stderr, "xpbd-bench: --no-cloth and --cloth-only leave nothing to do\n");
        return 2;
    }
    opt.progress = isatty(STDERR_FILENO);
    opt.threads = threads;
    opt.thread_count = nthreads;
    opt.loads = loads;
    opt.load_count = nloads;

    printf("xpbd-bench%s: xpbd %u, best path %s%s\n", opt.quick ? " --quick" : "",
           xpbd_version(), xpbd_isa_name(xpbd_isa_best()),
           xpbd_isa_emulated() ? " (SIMDe emulation: timings say nothing about the ISA)" : "");
    warn_if_busy();
    int status = 0;
    if (do_kernels) {
        status = bench_kernels(&opt, out);
        if (status == 2)
            return 2;
    }
    if (do_cloth && bench_cloth(&opt, cloth_out, threads, nthreads, peer, &status) != 0)
        return 2;
    if (do_cloth && do_engine) {
        const int es = xb_engine_report(&opt);
        if (es == 2)
            return 2;
        status = status ? status : es;
    }
    if (do_sleep && do_kernels) {
        xb_sleep_result sr;
        if (xb_sleep(opt.quick, &sr) != 0) {
            fprintf(stderr, "xpbd-bench: the sleeping scene failed (a step error, the bodies "
                            "never all slept, or out of memory)\n");
            return 2;
        }
        printf("\nsleeping: %u soft cubes (%zu particles, %zu constraints) resting on the "
               "ground, all asleep after %u frames\n"
               "  frame with every body awake %8.3f ms\n"
               "  frame with every body asleep %7.3f ms   (%.1fx less)\n"
               "  frame that wakes them all   %7.3f ms   (sets rebuilt)\n",
               sr.bodies, sr.particles, sr.constraints, sr.settle_frames, 1e3 * sr.awake_s,
               1e3 * sr.asleep_s, sr.awake_s / sr.asleep_s, 1e3 * sr.wake_s);
    }
    return status;
}
