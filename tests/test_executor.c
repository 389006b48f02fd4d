/* SPDX-License-Identifier: MIT */
/* The default executor (xpbd/executor.h), the library's thread pool: every
 * item of [0, count) is visited exactly once, worker indices stay below the
 * requested workers (and each worker index is one thread at a time), the
 * ranges follow the documented cut (length max(min_range, ceil(count / 64)),
 * only the last one shorter) at every worker count, and the task is done
 * when finish() returns (or enqueue(), when it returns NULL).
 *
 * CTest runs this group with XPBD_NUM_THREADS=4: then worker_count is 4
 * (checked) and the pool's three threads take ranges beside the caller,
 * so the parallel path is exercised even on a machine with fewer cores. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "test.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define XT_EXEC_MAX_COUNT 100000u
#define XT_EXEC_MAX_CALLS 4096u

typedef struct xt_exec_call {
    uint32_t begin, end, worker;
} xt_exec_call;

typedef struct xt_exec_log {
    atomic_uint visits[XT_EXEC_MAX_COUNT];
    atomic_uint calls;
    atomic_uint busy[64]; /* worker w is inside a range */
    atomic_uint clash;    /* a worker index entered twice at once */
    xt_exec_call call[XT_EXEC_MAX_CALLS]; /* slot taken by an atomic increment */
} xt_exec_log;

static void xt_exec_record(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    xt_exec_log *log = ctx;
    if (worker < 64u && atomic_exchange_explicit(&log->busy[worker], 1u, memory_order_acq_rel))
        atomic_fetch_add_explicit(&log->clash, 1u, memory_order_relaxed);
    for (uint32_t i = begin; i < end && i < XT_EXEC_MAX_COUNT; ++i)
        atomic_fetch_add_explicit(&log->visits[i], 1u, memory_order_relaxed);
    const unsigned slot = atomic_fetch_add_explicit(&log->calls, 1u, memory_order_relaxed);
    if (slot < XT_EXEC_MAX_CALLS)
        log->call[slot] = (xt_exec_call){begin, end, worker};
    if (worker < 64u)
        atomic_store_explicit(&log->busy[worker], 0u, memory_order_release);
}

static int xt_exec_by_begin(const void *a, const void *b)
{
    const xt_exec_call *x = a, *y = b;
    return (x->begin > y->begin) - (x->begin < y->begin);
}

/* XPBD_NUM_THREADS as a positive number, 0 if unset or not one */
static uint32_t xt_exec_env_threads(void)
{
    const char *s = getenv("XPBD_NUM_THREADS");
    char *end = NULL;
    const unsigned long v = s ? strtoul(s, &end, 10) : 0ul;
    return s && end != s && *end == '\0' && v > 0 && v < 1024 ? (uint32_t)v : 0u;
}

static void executor_default_exists(void)
{
    const xpbd_executor *ex = xpbd_executor_default();
    REQUIRE(ex != NULL);
    ENSURE(ex->enqueue != NULL);
    ENSURE(ex->finish != NULL);
    ENSURE(ex->worker_count >= 1u);
    ENSURE(xpbd_executor_default() == ex);
    const uint32_t env = xt_exec_env_threads();
    if (env > 0)
        ENSURE_INT(ex->worker_count, env);
}

/* One enqueue of `count` items; checks the visits and the cut. */
static void xt_exec_check(const xpbd_executor *ex, xt_exec_log *log, uint32_t count,
                          uint32_t min_range, uint32_t workers)
{
    for (uint32_t i = 0; i < count; ++i)
        atomic_store_explicit(&log->visits[i], 0u, memory_order_relaxed);
    atomic_store_explicit(&log->calls, 0u, memory_order_relaxed);
    atomic_store_explicit(&log->clash, 0u, memory_order_relaxed);
    void *h = ex->enqueue(xt_exec_record, count, min_range, workers, log, ex->user_ctx);
    if (h)
        ex->finish(h, ex->user_ctx);

    unsigned missed = 0, repeated = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const unsigned v = atomic_load_explicit(&log->visits[i], memory_order_relaxed);
        missed += v == 0u;
        repeated += v > 1u;
    }
    if (missed || repeated) {
        ENSURE_INT(missed, 0);
        ENSURE_INT(repeated, 0);
        fprintf(stderr, "    count %u, min_range %u, workers %u\n", count, min_range, workers);
    }

    /* the cut, computed independently from the documented rule */
    const uint32_t least = min_range ? min_range : 1u;
    const uint32_t even = (uint32_t)(((uint64_t)count + 63u) / 64u);
    const uint32_t length = even > least ? even : least;
    const uint32_t ranges = count ? (uint32_t)(((uint64_t)count + length - 1u) / length) : 0u;
    const unsigned calls = atomic_load_explicit(&log->calls, memory_order_relaxed);
    ENSURE_INT(calls, ranges);
    REQUIRE(calls <= XT_EXEC_MAX_CALLS);
    qsort(log->call, calls, sizeof log->call[0], xt_exec_by_begin);
    ENSURE_INT(atomic_load_explicit(&log->clash, memory_order_relaxed), 0);
    const uint32_t team_cap = workers < ex->worker_count ? workers : ex->worker_count;
    uint32_t used = 0;  /* bit w: worker w ran a range (workers < 32 here) */
    unsigned bad = 0;
    for (unsigned r = 0; r < calls; ++r) {
        const xt_exec_call c = log->call[r];
        const uint32_t want_end = r + 1u == ranges ? count : (r + 1u) * length;
        bad += c.begin != r * length || c.end != want_end;
        bad += c.end - c.begin < least && r + 1u != ranges;
        bad += c.worker >= (team_cap ? team_cap : 1u);
        if (c.worker < 32u)
            used |= 1u << c.worker;
    }
    if (bad) {
        ENSURE_INT(bad, 0);
        fprintf(stderr, "    count %u, min_range %u, workers %u: ranges of %u wanted\n", count,
                min_range, workers, length);
    }
    /* the workers that ran ranges: at most min(workers, worker_count,
     * ranges) of them */
    uint32_t team = team_cap < ranges ? team_cap : ranges;
    if (team == 0u)
        team = count ? 1u : 0u;
    unsigned distinct = 0;
    for (uint32_t w = 0; w < 32u; ++w)
        distinct += (used >> w) & 1u;
    ENSURE(distinct <= team);
}

static void executor_default_cover(void)
{
    const xpbd_executor *ex = xpbd_executor_default();
    REQUIRE(ex != NULL);
    xt_exec_log *log = calloc(1, sizeof *log);
    REQUIRE(log != NULL);
    static const uint32_t counts[] = {0, 1, 2, 3, 63, 64, 65, 100, 1000, 4097, 65537, 100000};
    static const uint32_t mins[] = {0, 1, 2, 7, 16, 64, 1000, 70000};
    const uint32_t workers[] = {1, 2, 3, 4, 7, ex->worker_count};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        for (size_t m = 0; m < sizeof mins / sizeof mins[0]; ++m)
            for (size_t w = 0; w < sizeof workers / sizeof workers[0]; ++w)
                xt_exec_check(ex, log, counts[c], mins[m], workers[w]);
    free(log);
}

/* A task whose ranges each keep a partial sum, reduced in range order by the
 * caller: the same bits at every worker count (a float sum depends on the
 * order, so a cut that followed the worker count would show here). */
typedef struct xt_exec_sum {
    const float *x;
    uint32_t length;
    float partial[XPBD_EXECUTOR_DEFAULT_RANGES];
} xt_exec_sum;

static void xt_exec_sum_range(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    xt_exec_sum *s = ctx;
    float acc = 0.0f;
    for (uint32_t i = begin; i < end; ++i)
        acc += s->x[i];
    s->partial[begin / s->length] = acc;
}

static void executor_default_partials(void)
{
    const xpbd_executor *ex = xpbd_executor_default();
    REQUIRE(ex != NULL);
    enum { n = 10007 };
    static float x[n];
    uint32_t seed = 12345u;
    for (uint32_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)(seed >> 8) * 0x1p-24f * (float)(1u << (i % 20u));
    }
    float want = 0.0f;
    for (uint32_t w = 1; w <= 8u; ++w) {
        xt_exec_sum s = {x, 0, {0}};
        s.length = (n + XPBD_EXECUTOR_DEFAULT_RANGES - 1u) / XPBD_EXECUTOR_DEFAULT_RANGES;
        void *h = ex->enqueue(xt_exec_sum_range, n, 1u, w, &s, ex->user_ctx);
        if (h)
            ex->finish(h, ex->user_ctx);
        float total = 0.0f;
        for (uint32_t r = 0; r < XPBD_EXECUTOR_DEFAULT_RANGES; ++r)
            total += s.partial[r];
        if (w == 1u)
            want = total;
        ENSURE(memcmp(&total, &want, sizeof want) == 0);
    }
}

/* The pool's threads do run ranges: a task whose first range on the
 * caller (worker 0) waits, for at most 10 s, until a range has run on
 * another worker (a pool that never started a thread leaves every range to
 * the caller: the cover and partials checks above would still pass). */
typedef struct xt_exec_seen {
    atomic_uint other;  /* a range ran on a worker other than 0 */
    atomic_uint waited; /* a range on worker 0 has waited (only one does) */
} xt_exec_seen;

static void xt_exec_wait_other(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)begin;
    (void)end;
    xt_exec_seen *s = ctx;
    if (worker != 0u) {
        atomic_store(&s->other, 1u);
        return;
    }
    if (atomic_exchange(&s->waited, 1u))
        return;
    const struct timespec tick = {0, 1000000L}; /* 1 ms */
    for (int k = 0; k < 10000 && !atomic_load(&s->other); ++k)
        nanosleep(&tick, NULL);
}

static void executor_default_threads(void)
{
    const xpbd_executor *ex = xpbd_executor_default();
    REQUIRE(ex != NULL);
    REQUIRE(ex->worker_count >= 2u); /* CTest sets XPBD_NUM_THREADS=4 */
    xt_exec_seen s;
    atomic_init(&s.other, 0u);
    atomic_init(&s.waited, 0u);
    void *h = ex->enqueue(xt_exec_wait_other, 64u, 1u, ex->worker_count, &s, ex->user_ctx);
    if (h)
        ex->finish(h, ex->user_ctx);
    ENSURE_INT(atomic_load(&s.other), 1);
}

/* Run alone with XPBD_NUM_THREADS malformed (CTest: executor_env.malformed
 * sets "-1"): the default executor has no workers, a threaded step is
 * refused naming the executor's worker_count, and a serial one runs. */
static void executor_env_malformed(void)
{
    const char *env = getenv("XPBD_NUM_THREADS");
    REQUIRE(env != NULL && xt_exec_env_threads() == 0u);
    const xpbd_executor *ex = xpbd_executor_default();
    REQUIRE(ex != NULL);
    ENSURE_INT(ex->worker_count, 0);
    float block[10 * 2] = {0};
    xpbd_particles_f32 p;
    xpbd_particles_bind_f32(&p, 2, block, 2);
    p.w[0] = p.w[1] = 1.0f;
    p.x[1] = 1.0f;
    static _Alignas(64) unsigned char scratch[4096];
    REQUIRE(xpbd_step_scratch_bytes_f32(2, 0) <= sizeof scratch);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.threads = 2;
    xpbd_step_counters k;
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &p, NULL, scratch, sizeof scratch, &k),
                  XPBD_ERR_CONFIG);
    ENSURE_INT(k.bad_field, XPBD_FIELD_EXECUTOR_WORKER_COUNT);
    cfg.threads = 1;
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1.0 / 60, &p, NULL, scratch, sizeof scratch, &k), XPBD_OK);
}

const xt_test xt_tests_executor[] = {
    {"executor.default_exists", executor_default_exists},
    {"executor.default_cover", executor_default_cover},
    {"executor.default_partials", executor_default_partials},
    {"executor.default_threads", executor_default_threads},
    {"executor_env.malformed", executor_env_malformed},
    {NULL, NULL},
};
