/* xpbd/executor.h: how the step hands work to the host's threads.
 *
 * The step cuts its stages into range tasks and gives each to an executor:
 * enqueue() starts `task` over the items [0, count), cut into ranges of at
 * least `min_range` items, on at most `workers` workers; finish() waits for
 * it. The host may run the ranges on its own job system (any worker, any
 * order, at once): the step's results do not depend on how the ranges are
 * scheduled or on the number of workers. A worker never calls back into the
 * host, and the step calls only enqueue() and finish().
 *
 *   host                            step                     workers
 *   ----                            ----                     -------
 *   cfg.executor = &mine    ->      h = enqueue(task, n)  -> task(b, e, w, ctx) ...
 *                                   finish(h) if h != NULL   (all ranges done)
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
