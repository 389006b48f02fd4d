/* SPDX-License-Identifier: MIT */
/* The default executor (xpbd/executor.h): one OpenMP parallel loop over
 * ranges cut from the item count alone.
 *
 *   count = 1000, min_range = 10:   range = max(10, ceil(1000 / 64)) = 16
 *   [0,16) [16,32) ... [992,1000)   63 ranges, the last one 8 items
 *   schedule(static) deals them out in order: with 2 threads, thread 0 takes
 *   ranges 0..31 and thread 1 ranges 32..62
 *
 * The cut never depends on the number of workers, so a task that keeps one
 * partial result per range gets the same partials at any thread count.
 * Built without OpenMP, xpbd_executor_default() is NULL and the step runs
 * serially on the caller. */
#include "xpbd/executor.h"

#ifdef _OPENMP
#include <omp.h>

/* Length of the ranges [0, count) is cut into: at least min_range (>= 1),
 * and long enough that there are at most XPBD_EXECUTOR_DEFAULT_RANGES. */
static uint32_t xpbd_executor_range_length(uint32_t count, uint32_t min_range)
{
    const uint32_t even = count / XPBD_EXECUTOR_DEFAULT_RANGES +
                          (count % XPBD_EXECUTOR_DEFAULT_RANGES != 0u);
    const uint32_t least = min_range > 0u ? min_range : 1u;
    return even > least ? even : least;
}

static void *xpbd_executor_omp_enqueue(xpbd_range_task *task, uint32_t count,
                                       uint32_t min_range, uint32_t workers, void *task_ctx,
                                       void *user_ctx)
{
    (void)user_ctx;
    if (count == 0u)
        return NULL;
    const uint32_t length = xpbd_executor_range_length(count, min_range);
    const uint32_t ranges = count / length + (count % length != 0u);
    uint32_t team = (uint32_t)omp_get_max_threads();
    if (team > workers)
        team = workers;
    if (team > ranges)
        team = ranges;
    if (team <= 1u) {
        for (uint32_t r = 0; r < ranges; ++r) {
            const uint32_t begin = r * length;
            task(begin, count - begin < length ? count : begin + length, 0u, task_ctx);
        }
        return NULL;
    }
    /* signed loop index: OpenMP 3.0 runtimes want one; ranges <= 2^32 - 1 */
    const long long n = (long long)ranges;
#pragma omp parallel for schedule(static) num_threads((int)team)
    for (long long r = 0; r < n; ++r) {
        const uint32_t begin = (uint32_t)r * length;
        task(begin, count - begin < length ? count : begin + length,
             (uint32_t)omp_get_thread_num(), task_ctx);
    }
    return NULL;
}

/* enqueue() never returns a handle, so there is nothing to wait for */
static void xpbd_executor_omp_finish(void *handle, void *user_ctx)
{
    (void)handle;
    (void)user_ctx;
}

const xpbd_executor *xpbd_executor_default(void)
{
    /* filled once, under the lock; never changed afterwards */
    static xpbd_executor omp_executor;
#pragma omp critical(xpbd_executor_default)
    {
        if (omp_executor.enqueue == NULL) {
            const int threads = omp_get_max_threads();
            omp_executor.worker_count = threads > 1 ? (uint32_t)threads : 1u;
            omp_executor.user_ctx = NULL;
            omp_executor.finish = xpbd_executor_omp_finish;
            omp_executor.enqueue = xpbd_executor_omp_enqueue;
        }
    }
    return &omp_executor;
}

#else /* built without OpenMP */

const xpbd_executor *xpbd_executor_default(void)
{
    return NULL;
}

#endif
