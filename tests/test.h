/* SPDX-License-Identifier: MIT */
/* test.h: the tiny framework of xpbd-tests.
 *
 * A test is a named void function. ENSURE-style macros record a failure,
 * print what was compared (reals as %a and %.17g, so a one-ulp difference is
 * visible) and carry on; REQUIRE-style macros also return from the test when
 * what follows cannot run without the condition. Bitwise comparisons go
 * through memcmp, never through ==, so -0/+0 and NaN payloads count.
 *
 * Every area file defines a table of tests terminated by {NULL, NULL}; the
 * runner (test_main.c) walks the tables, filters by name prefix and prints
 * "N passed, M failed" at the end. */
#ifndef XPBD_TEST_H
#define XPBD_TEST_H

#include <xpbd/xpbd.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct xt_test {
    const char *name;
    void (*fn)(void);
} xt_test;

/* The ISA under test (--isa NAME, else the AUTO resolution) and its tables. */
extern xpbd_isa xt_isa;
extern const xpbd_kernels_f32 *xt_k32;
extern const xpbd_kernels_f64 *xt_k64;
/* The scalar reference tables. */
extern const xpbd_kernels_f32 *xt_ref32;
extern const xpbd_kernels_f64 *xt_ref64;

/* Failures recorded in the running test. */
extern unsigned long xt_failures;

/* Records a failure; returns 1 if its details should be printed (the first
 * few of a test), after printing the location. */
int xt_fail_begin(const char *file, int line);
void xt_fail_real(const char *file, int line, const char *what, double got, double want,
                  double tol);
int xt_same_bytes(const void *a, const void *b, size_t bytes, const char *what,
                  const char *file, int line);
int xt_same_f32(const float *a, const float *b, size_t n, const char *what, const char *file,
                int line);
int xt_same_f64(const double *a, const double *b, size_t n, const char *what, const char *file,
                int line);
int xt_same_u32(const uint32_t *a, const uint32_t *b, size_t n, const char *what,
                const char *file, int line);

#define ENSURE(cond)                                                                          \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            if (xt_fail_begin(__FILE__, __LINE__))                                            \
                fprintf(stderr, "ENSURE(%s)\n", #cond);                                       \
        }                                                                                     \
    } while (0)

#define REQUIRE(cond)                                                                         \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            if (xt_fail_begin(__FILE__, __LINE__))                                            \
                fprintf(stderr, "REQUIRE(%s): test stopped\n", #cond);                        \
            return;                                                                           \
        }                                                                                     \
    } while (0)

#define ENSURE_INT(got, want)                                                                 \
    do {                                                                                      \
        const long long xt_g_ = (long long)(got), xt_w_ = (long long)(want);                  \
        if (xt_g_ != xt_w_) {                                                                 \
            if (xt_fail_begin(__FILE__, __LINE__))                                            \
                fprintf(stderr, "ENSURE_INT(%s, %s): got %lld, want %lld\n", #got, #want,     \
                        xt_g_, xt_w_);                                                        \
        }                                                                                     \
    } while (0)

#define ENSURE_STATUS(got, want)                                                              \
    do {                                                                                      \
        const xpbd_status xt_g_ = (got), xt_w_ = (want);                                      \
        if (xt_g_ != xt_w_) {                                                                 \
            if (xt_fail_begin(__FILE__, __LINE__))                                            \
                fprintf(stderr, "ENSURE_STATUS(%s): got %d (%s), want %d (%s)\n", #got,       \
                        (int)xt_g_, xpbd_status_str(xt_g_), (int)xt_w_,                       \
                        xpbd_status_str(xt_w_));                                              \
        }                                                                                     \
    } while (0)

#define REQUIRE_STATUS(got, want)                                                             \
    do {                                                                                      \
        const xpbd_status xt_g_ = (got), xt_w_ = (want);                                      \
        if (xt_g_ != xt_w_) {                                                                 \
            if (xt_fail_begin(__FILE__, __LINE__))                                            \
                fprintf(stderr, "REQUIRE_STATUS(%s): got %d (%s), want %d (%s): stopped\n",   \
                        #got, (int)xt_g_, xpbd_status_str(xt_g_), (int)xt_w_,                 \
                        xpbd_status_str(xt_w_));                                              \
            return;                                                                           \
        }                                                                                     \
    } while (0)

/* |got - want| <= tol, NaN fails. */
#define ENSURE_NEAR(got, want, tol)                                                           \
    do {                                                                                      \
        const double xt_g_ = (double)(got), xt_w_ = (double)(want), xt_t_ = (double)(tol);    \
        const double xt_d_ = xt_g_ > xt_w_ ? xt_g_ - xt_w_ : xt_w_ - xt_g_;                   \
        if (!(xt_d_ <= xt_t_))                                                                \
            xt_fail_real(__FILE__, __LINE__, "ENSURE_NEAR(" #got ", " #want ")", xt_g_, xt_w_, \
                         xt_t_);                                                              \
    } while (0)

/* got <= bound, NaN fails. */
#define ENSURE_LE(got, bound)                                                                 \
    do {                                                                                      \
        const double xt_g_ = (double)(got), xt_w_ = (double)(bound);                          \
        if (!(xt_g_ <= xt_w_))                                                                \
            xt_fail_real(__FILE__, __LINE__, "ENSURE_LE(" #got ", " #bound ")", xt_g_, xt_w_, \
                         0.0);                                                                \
    } while (0)

/* Bit-for-bit equality of two doubles / floats (memcmp). */
#define ENSURE_BITS_F64(got, want)                                                            \
    do {                                                                                      \
        const double xt_g_ = (got), xt_w_ = (want);                                           \
        xt_same_f64(&xt_g_, &xt_w_, 1, #got " vs " #want, __FILE__, __LINE__);                \
    } while (0)
#define ENSURE_BITS_F32(got, want)                                                            \
    do {                                                                                      \
        const float xt_g_ = (got), xt_w_ = (want);                                            \
        xt_same_f32(&xt_g_, &xt_w_, 1, #got " vs " #want, __FILE__, __LINE__);                \
    } while (0)

/* memcmp of n elements; on a difference prints the first differing index
 * and both values. Returns 1 when equal. */
#define SAME_F32(a, b, n, what) xt_same_f32((a), (b), (n), (what), __FILE__, __LINE__)
#define SAME_F64(a, b, n, what) xt_same_f64((a), (b), (n), (what), __FILE__, __LINE__)
#define SAME_U32(a, b, n, what) xt_same_u32((a), (b), (n), (what), __FILE__, __LINE__)
#define SAME_BYTES(a, b, n, what) xt_same_bytes((a), (b), (n), (what), __FILE__, __LINE__)

/* ------------------------------------------------------------ random --- */

/* splitmix64: small, fast, and the same sequence on every platform, so every
 * test case is reproducible from its seed. */
typedef struct xt_rng {
    uint64_t s;
} xt_rng;

static inline uint64_t xt_next(xt_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double xt_unit(xt_rng *r)
{
    return (double)(xt_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [lo, hi). */
static inline double xt_range(xt_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * xt_unit(r);
}

/* Uniform integer in [0, n), n > 0. */
static inline uint32_t xt_below(xt_rng *r, uint32_t n)
{
    return (uint32_t)(xt_next(r) % n);
}

/* ----------------------------------------------------- files, bytes --- */

/* 1 if a file is at path. */
static inline int xt_file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* The whole file at path, NUL after it (malloc'd; NULL: cannot be read or
 * no memory); *size its bytes (0 when not read) when size is not NULL. */
static inline char *xt_read_file(const char *path, size_t *size)
{
    if (size)
        *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *g = realloc(b, 2 * cap + 1);
            if (!g) {
                free(b);
                b = NULL;
                break;
            }
            b = g;
            cap *= 2;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    if (size)
        *size = n;
    return b;
}

/* 1 if the n bytes at p are all 0 (a struct a function zeroed). */
static inline int xt_all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; ++k)
        if (b[k])
            return 0;
    return 1;
}

/* ------------------------------------------------------------ tables --- */

extern const xt_test xt_tests_s0[];
extern const xt_test xt_tests_cross[];
extern const xt_test xt_tests_isa[];
extern const xt_test xt_tests_colour[];
extern const xt_test xt_tests_chain[];
extern const xt_test xt_tests_bad[];

#endif /* XPBD_TEST_H */
