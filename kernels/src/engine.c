/* The host-loop helpers of xpbd/engine.h: tearing passes, sleeping,
 * counters, the engine and the two-serial-orders check. Precision-specific
 * code is in engine_tmpl.h. */
#include "internal.h"
#include "xpbd/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xpbd_sleep_wake(xpbd_sleep_state *s, uint32_t b)
{
    if (!s || b >= s->body_count || !s->asleep)
        return;
    s->asleep[b] = 0;
    if (s->calm)
        s->calm[b] = 0;
}

int xpbd_counters_format(const xpbd_engine_counters *c, char *buf, size_t size)
{
    if (!c)
        return snprintf(buf, size, "(no counters)");
    return snprintf(buf, size,
                    "frame %llu: %s, isa %s, %u substeps, %u iterations, solved %llu, skipped "
                    "%llu, degenerate %u, residual %.3g, colours %u (distance %u, tets %u, "
                    "bends %u), contacts %u, sleeping %u/%u (fell %u, woke %u), torn %u, "
                    "distance %u, max stretch %.3g, volume error %.3g",
                    (unsigned long long)c->frame, xpbd_status_str(c->step.status),
                    xpbd_isa_name(c->step.isa) ? xpbd_isa_name(c->step.isa) : "?",
                    c->step.substeps, c->step.iterations, (unsigned long long)c->solved,
                    (unsigned long long)c->skipped, c->degenerate, c->max_residual, c->colours,
                    c->colours_distance, c->colours_tets, c->colours_bends, c->step.contacts,
                    c->sleeping, c->bodies, c->fell_asleep, c->woke, c->torn, c->distance,
                    c->max_stretch, c->volume_error);
}

/* FNV-1a over bytes: the sleep signature (bit patterns, so any change the
 * host makes to a sleeping body is seen, -0 and NaN payloads included). */
static uint64_t engine_hash(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < bytes; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* splitmix64, for the order check's shuffles */
static uint64_t engine_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The body holding particle i (body_begin sorted), or UINT32_MAX. */
static uint32_t engine_body_of(const size_t *begin, uint32_t bodies, size_t i)
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

/* Sorted (min, max) pairs, for "is this pair torn" look-ups. */
static int engine_pair_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t engine_pair_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static int engine_pair_in(const uint64_t *keys, size_t n, uint32_t a, uint32_t b)
{
    const uint64_t k = engine_pair_key(a, b);
    return n && bsearch(&k, keys, n, sizeof *keys, engine_pair_cmp) != NULL;
}

static void engine_permutation(uint32_t *perm, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)(seed ? i : n - 1 - i);
    if (!seed)
        return;
    uint64_t s = seed;
    for (size_t i = n; i > 1; --i) {
        const size_t j = (size_t)(engine_mix(&s) % i);
        const uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

#define XPBD_REAL_F32
#include "engine_tmpl.h"
#define XPBD_REAL_F64
#include "engine_tmpl.h"
