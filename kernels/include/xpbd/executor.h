/* SPDX-License-Identifier: MIT */
/* xpbd/executor.h: how the step hands work to the host's threads.
 *
 * A step with threads != 1 on a world big enough for some stage to pay
 * for a second worker makes ONE enqueue: a task over [0, members)
 * (members = min(workers, 32)) whose range r is member r of a team that
 * stays together for the whole step.
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
 * work, and a range run before member 0 starts waits up to 10 ms for it
 * (asleep after a short spin), then leaves. The results do not depend on
 * how the ranges are scheduled or on the number of workers. A worker never
 * calls back into the host, and the step calls only enqueue() and finish().
 *
 * A member waiting for the next stage spins briefly, then sleeps until
 * member 0 publishes it. When the members do not pay (a stage waited long
 * on a member descheduled inside its share, members ran on member 0's own
 * CPU, or the stages took more than 90% of what member 0 alone would
 * have: the host keeps the other cores busy), member 0 dismisses them and
 * finishes the step alone, and the next steps on the same executor make no
 * enqueue (1, 2, 4, ... up to 128 steps, then one tries again), so a
 * threaded step on a loaded machine costs about what a serial one does.
 *
 * xpbd_executor_default() is the library's own pool of POSIX threads:
 * see its comment below. */
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

/* The default executor: the library's own pool of threads (started at the
 * first task that can use them). Never NULL.
 *
 * Its ranges are cut from count and min_range only (at most
 * XPBD_EXECUTOR_DEFAULT_RANGES ranges of equal length, the last one shorter,
 * none shorter than min_range but the last) and claimed one at a time: by
 * the pool's threads from the last range down, by the caller from range 0
 * up in finish(). A range nobody has started when the caller reaches
 * finish() is the caller's, so finish() waits only for ranges running on a
 * thread, never for a thread the host keeps off its core. worker is 0 on
 * the caller and 1 .. workers-1 on the pool's threads, one index per
 * thread within one task (a range that enqueues a task of its own is
 * worker 0 of that one). enqueue() returns NULL after running the task
 * itself when it cannot use the pool: one worker, one range, 16 tasks in
 * flight, no pool thread, or the pool's lock held by a thread the host
 * has descheduled. worker_count is XPBD_NUM_THREADS if set (decimal
 * digits, at least 1; any other value gives 0, which a threaded step
 * refuses with XPBD_FIELD_EXECUTOR_WORKER_COUNT), otherwise the CPUs the
 * process may run on (its main thread's affinity mask, read once, by
 * whichever thread asks first), at most 64; the pool starts
 * worker_count - 1 threads at its first task (fewer if the system refuses
 * some: their ranges then run on the caller), each allowed on all of those
 * CPUs whatever the mask of the thread that starts them, which sleep when
 * there is nothing to do. */
XPBD_API const xpbd_executor *xpbd_executor_default(void);

/* The most ranges the default executor cuts a task into. */
#define XPBD_EXECUTOR_DEFAULT_RANGES 64u

#ifdef __cplusplus
}
#endif

#endif /* XPBD_EXECUTOR_H */
