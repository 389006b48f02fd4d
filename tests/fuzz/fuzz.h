/* SPDX-License-Identifier: MIT */
/* fuzz.h: what the libFuzzer targets of tests/fuzz share.
 *
 * The input is read as a stream of choices (fz_take_*): each choice eats a
 * few bytes and, when the input runs out, returns zeros, so every input is
 * valid and short inputs mean small, simple scenes. Reals come from a
 * palette that mixes ordinary values with the edges a validator must catch
 * (0, -0, denormals, NaN, infinities, the largest finite values), or raw
 * bit patterns.
 *
 * FZ_CHECK aborts with a message: libFuzzer reports the abort as a finding
 * and saves the input. */
#ifndef XPBD_FUZZ_H
#define XPBD_FUZZ_H

#include <xpbd/xpbd.h>

#include "../test.h" /* xt_all_zero, xt_read_file */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_in {
    const uint8_t *p;
    size_t left;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (!in->left)
        return 0;
    --in->left;
    return *in->p++;
}

static inline uint32_t fz_u32(fz_in *in)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
        v = v << 8 | fz_u8(in);
    return v;
}

/* A value in [0, n) (0 when n == 0). */
static inline uint32_t fz_below(fz_in *in, uint32_t n)
{
    if (n == 0)
        return 0;
    if (n <= 256)
        return fz_u8(in) % n;
    return fz_u32(in) % n;
}

/* A real: mostly in [-4, 4) on a 1/64 grid, sometimes an edge case. */
static inline double fz_real(fz_in *in)
{
    const uint8_t tag = fz_u8(in);
    if (tag < 224)
        return ((double)fz_u8(in) - 128) / 32;
    static const double edge[] = {0.0, -0.0, 1e-310, -1e-310, DBL_MIN, 1e-45, FLT_MAX, 3e38,
                                  1e39, DBL_MAX, -DBL_MAX, 1e300, -1e300, 1e-30};
    if (tag < 224 + sizeof edge / sizeof edge[0])
        return edge[tag - 224];
    if (tag == 250)
        return NAN;
    if (tag == 251)
        return INFINITY;
    if (tag == 252)
        return -INFINITY;
    uint64_t bits = (uint64_t)fz_u32(in) << 32 | fz_u32(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A real that is usually valid where the contract wants >= 0 (compliance,
 * inverse mass, radius), and now and then one of fz_real's edge cases. */
static inline double fz_nonneg(fz_in *in)
{
    const uint8_t tag = fz_u8(in);
    if (tag < 240)
        return (double)tag / 64;
    return fz_real(in);
}

#define FZ_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: FZ_CHECK(%s) failed: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
            abort();                                                                          \
        }                                                                                     \
    } while (0)


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
