/* SPDX-License-Identifier: MIT */
/* xpbd-tests: the runner.
 *
 *   xpbd-tests [--isa NAME] [--list] [PREFIX...]
 *
 * Runs every test whose name starts with one of the PREFIXes (all tests
 * without one). --isa forces the instruction-set path under test: the kernel
 * tables the cross-checks compare against the scalar reference, and the
 * cfg.isa the step tests pass. An ISA this build or CPU cannot run exits with
 * 77, which CTest reports as skipped (SKIP_RETURN_CODE). Ends with exactly
 * "N passed, M failed" and exits non-zero if M > 0. */
#include "test.h"

#include <stdlib.h>

xpbd_isa xt_isa = XPBD_ISA_SCALAR;
const xpbd_kernels_f32 *xt_k32;
const xpbd_kernels_f64 *xt_k64;
const xpbd_kernels_f32 *xt_ref32;
const xpbd_kernels_f64 *xt_ref64;
unsigned long xt_failures;

static const char *current_test = "";

/* Only the first few failures of a test are detailed: a broken kernel
 * would otherwise print one line per element. */
#define XT_DETAILED 20

int xt_fail_begin(const char *file, int line)
{
    if (++xt_failures > XT_DETAILED)
        return 0;
    fprintf(stderr, "%s:%d: [%s, isa %s] ", file, line, current_test, xpbd_isa_name(xt_isa));
    return 1;
}

void xt_fail_real(const char *file, int line, const char *what, double got, double want,
                  double tol)
{
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s\n    got  %a = %.17g\n    want %a = %.17g\n    tol  %a = %.17g\n",
                what, got, got, want, want, tol, tol);
}

int xt_same_bytes(const void *a, const void *b, size_t bytes, const char *what,
                  const char *file, int line)
{
    if (bytes == 0 || memcmp(a, b, bytes) == 0)
        return 1;
    const unsigned char *x = a, *y = b;
    size_t i = 0;
    while (x[i] == y[i])
        ++i;
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s differs at byte %zu of %zu: %02x vs %02x\n", what, i, bytes, x[i],
                y[i]);
    return 0;
}

/* The first of n elements of size sz at which a and b differ bitwise (a
 * -0.0 against a 0.0, or two NaNs of other bits, count), n if none. */
static size_t xt_first_diff(const void *a, const void *b, size_t n, size_t sz)
{
    const unsigned char *x = a, *y = b;
    if (n == 0 || memcmp(x, y, n * sz) == 0)
        return n;
    size_t i = 0;
    while (memcmp(x + i * sz, y + i * sz, sz) == 0)
        ++i;
    return i;
}

/* Reports element i of n of two real arrays, with `digits` significant
 * digits (enough to read the precision back). */
static void xt_report_real(const char *file, int line, const char *what, size_t i, size_t n,
                           double got, double want, int digits)
{
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s differs at [%zu] of %zu:\n    got  %a = %.*g\n    want %a = %.*g\n",
                what, i, n, got, digits, got, want, digits, want);
}

int xt_same_f32(const float *a, const float *b, size_t n, const char *what, const char *file,
                int line)
{
    const size_t i = xt_first_diff(a, b, n, sizeof *a);
    if (i == n)
        return 1;
    xt_report_real(file, line, what, i, n, (double)a[i], (double)b[i], 9);
    return 0;
}

int xt_same_f64(const double *a, const double *b, size_t n, const char *what, const char *file,
                int line)
{
    const size_t i = xt_first_diff(a, b, n, sizeof *a);
    if (i == n)
        return 1;
    xt_report_real(file, line, what, i, n, a[i], b[i], 17);
    return 0;
}

int xt_same_u32(const uint32_t *a, const uint32_t *b, size_t n, const char *what,
                const char *file, int line)
{
    if (n == 0 || memcmp(a, b, n * sizeof *a) == 0)
        return 1;
    size_t i = 0;
    while (a[i] == b[i])
        ++i;
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s differs at [%zu] of %zu: got %lu, want %lu\n", what, i, n,
                (unsigned long)a[i], (unsigned long)b[i]);
    return 0;
}

/* contacts (test_contacts.c) and soft bodies (test_softbody.c) */
extern const xt_test xt_tests_contacts[];
extern const xt_test xt_tests_softbody[];
extern const xt_test xt_tests_world[];
extern const xt_test xt_tests_executor[];
extern const xt_test xt_tests_threads[];
extern const xt_test xt_tests_contract[];
extern const xt_test xt_tests_catalogue[];
extern const xt_test xt_tests_mesh_topology[];

#ifdef XT_THREADS_RUNNER
/* xpbd-threads-tests: the threaded groups, on the library built with the
 * smallest shares (tests/tests.cmake) */
static const xt_test *const tables[] = {xt_tests_executor, xt_tests_threads};
#else
static const xt_test *const tables[] = {
    xt_tests_s0,    xt_tests_cross, xt_tests_isa,      xt_tests_colour,
    xt_tests_chain, xt_tests_bad,   xt_tests_contacts, xt_tests_softbody,
    xt_tests_world, xt_tests_contract,
    xt_tests_catalogue, xt_tests_mesh_topology,
};
#endif

static int selected(const char *name, int argc, char **argv, int first)
{
    if (first >= argc)
        return 1;
    for (int i = first; i < argc; ++i)
        if (strncmp(name, argv[i], strlen(argv[i])) == 0)
            return 1;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: xpbd-tests [--isa scalar|sse4|avx2|avx512|neon] [--list] [PREFIX...]\n");
}

int main(int argc, char **argv)
{
    const char *isa_name = NULL;
    int list = 0;
    int first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--isa") == 0 && first + 1 < argc) {
            isa_name = argv[first + 1];
            first += 2;
        } else if (strcmp(argv[first], "--list") == 0) {
            list = 1;
            first += 1;
        } else if (strcmp(argv[first], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }

    if (isa_name) {
        xpbd_isa isa;
        if (xpbd_isa_from_name(isa_name, &isa) != XPBD_OK || isa == XPBD_ISA_AUTO) {
            fprintf(stderr, "xpbd-tests: unknown ISA '%s'\n", isa_name);
            return 2;
        }
        if (!xpbd_isa_supported(isa)) {
            printf("ISA %s is not %s: skipped\n", isa_name,
                   xpbd_isa_compiled(isa) ? "supported by this CPU" : "compiled into this build");
            return 77;
        }
        xt_isa = isa;
    } else if (xpbd_isa_resolve(XPBD_ISA_AUTO, &xt_isa) != XPBD_OK) {
        fprintf(stderr, "xpbd-tests: XPBD_ISA names an unknown or unsupported ISA\n");
        return 2;
    }
    xt_k32 = xpbd_kernels_get_f32(xt_isa);
    xt_k64 = xpbd_kernels_get_f64(xt_isa);
    xt_ref32 = xpbd_kernels_get_f32(XPBD_ISA_SCALAR);
    xt_ref64 = xpbd_kernels_get_f64(XPBD_ISA_SCALAR);
    if (!xt_k32 || !xt_k64 || !xt_ref32 || !xt_ref64) {
        fprintf(stderr, "xpbd-tests: no kernel table for ISA %s\n", xpbd_isa_name(xt_isa));
        return 1;
    }

    unsigned passed = 0, failed = 0, matched = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t)
        for (const xt_test *x = tables[t]; x->name; ++x) {
            if (!selected(x->name, argc, argv, first))
                continue;
            matched++;
            if (list) {
                printf("%s\n", x->name);
                continue;
            }
            current_test = x->name;
            xt_failures = 0;
            x->fn();
            if (xt_failures == 0) {
                passed++;
                printf("ok    %s\n", x->name);
            } else {
                failed++;
                printf("FAIL  %s (%lu failed checks)\n", x->name, xt_failures);
            }
            fflush(stdout);
        }
    if (list)
        return 0;
    if (matched == 0) {
        fprintf(stderr, "xpbd-tests: no test matches the given prefix\n");
        return 2;
    }
    printf("isa %s (lanes f32 %u, f64 %u)%s\n", xpbd_isa_name(xt_isa), xt_k32->lanes,
           xt_k64->lanes, xpbd_isa_emulated() ? ", SIMD paths emulated" : "");
    printf("%u passed, %u failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
