/* SPDX-License-Identifier: MIT */
/* xpbd/executor.h: how the step hands work to the host's threads.
 *
 * A step with threads != 1 on a world big enough for some stage to pay
 * for a second worker makes ONE enqueue: a task over [0, workers) whose
 * range r is member r of a team that stays together for the whole step.
 * Member 0 runs the step; at each stage (a colour of constraints, the
 * particles' predict, a scan...) it publishes the stage, and the members
 * that have joined each take their share of it, then wait for the next
 * one. Smaller worlds step serially on the caller, with no enqueue.
 *
 *   host                            step                      members
 *   ----                            ----                      -------
 *   cfg.executor = &mine    ->      h = enqueue(team, n)  ->  task(r, r + 1, w, ctx)
 *                                   finish(h) if h != NULL    (all returned)
 *
 * Member 0 is whoever claims it first: range 0, or the calling thread
 * itself right after enqueue() returns (before finish()), so an executor
 * that queues the ranges behind other work, has fewer threads than ranges,
 * or parks the caller in finish() still sees the step driven at once.
 * The other ranges wait on member 0: for the step to use several cores,
 * run them at once on distinct threads (as a parallel loop or a job system
 * does). Any other schedule still gives the same results, only slower:
 * ranges run one after another on one thread leave member 0 to do all the
 * work, and a range run before member 0 starts waits up to 10 ms for it,
 * then leaves. The results do not depend on how the ranges are scheduled
 * or on the number of workers. A worker never calls back into the host,
 * and the step calls only enqueue() and finish().
 *
 * xpbd_executor_default() is an executor on OpenMP (the compiler's runtime,
 * libgomp with gcc) when the library was built with OpenMP (CMake option
 * XPBD_OPENMP, on when the compiler supports OpenMP); NULL otherwise, and the
 * step then runs serially. */
#ifndef XPBD_EXECUTOR_H
#define XPBD_EXECUTOR_H

#include "xpbd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A range task: process items [begin, end) on worker `worker` (0 <= worker < workers). */
typedef void xpbd_range_task(uint32_t begin, uint32_t end, uint32_t worker, void *task_ctx);

typedef struct xpbd_executor {
    /* Start `task` over [0, count), cut into ranges of at least `min_range` items, on at most
     * `workers` workers. Returns a handle for finish(), or NULL if it already ran the whole
     * task inline before returning. */
    void *(*enqueue)(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                     uint32_t workers, void *task_ctx, void *user_ctx);
    /* Wait until the task behind `handle` is done (never called with NULL). */
    void (*finish)(void *handle, void *user_ctx);
    uint32_t worker_count;   /* workers the host offers (>= 1) */
    void *user_ctx;          /* the host's own pointer, passed back */
} xpbd_executor;

/* The default executor on OpenMP (libgomp), or NULL when the library was built without
 * OpenMP (XPBD_OPENMP=OFF).
 *
 * Its enqueue() runs the whole task before it returns (so it returns NULL):
 * the ranges are cut from count and min_range only (at most
 * XPBD_EXECUTOR_DEFAULT_RANGES ranges of equal length, the last one shorter,
 * none shorter than min_range but the last), dealt out in order to the
 * threads of one `omp parallel for schedule(static)`; worker is
 * omp_get_thread_num(). With one worker, or a single range, it runs the
 * ranges in order on the calling thread. worker_count is omp_get_max_threads()
 * at the first call (OMP_NUM_THREADS sets it). Called from inside an OpenMP
 * parallel region, the nested region follows the host's OpenMP settings
 * (one thread unless nesting is enabled): the task still runs whole. */
XPBD_API const xpbd_executor *xpbd_executor_default(void);

/* The most ranges the default executor cuts a task into. */
#define XPBD_EXECUTOR_DEFAULT_RANGES 64u

#ifdef __cplusplus
}
#endif

#endif /* XPBD_EXECUTOR_H */
