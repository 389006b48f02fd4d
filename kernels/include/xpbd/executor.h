/* xpbd/executor.h: how the step runs its stages on the host's workers.
 *
 * The step cuts each stage into a range task over [0, count) and hands it to
 * an executor: enqueue starts it, finish waits for it. The host may run the
 * ranges on its own job system; the library's default runs them on OpenMP
 * (or serially when built without it). */
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
    uint32_t worker_count; /* workers the host offers (>= 1) */
    void *user_ctx;        /* the host's own pointer, passed back */
} xpbd_executor;

/* The default executor on OpenMP (libgomp), or NULL when the library was built without
 * OpenMP (XPBD_OPENMP=OFF). */
XPBD_API const xpbd_executor *xpbd_executor_default(void);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_EXECUTOR_H */
