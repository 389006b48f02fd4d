/* SPDX-License-Identifier: MIT */
/* The step's side of the executor (xpbd/executor.h): which executor and how
 * many workers a step uses, and the one place that forks a range task.
 *
 * Everything a stage adds up across ranges is exact and order-free (integer
 * counters, maxima of finite values, the lowest bad index), kept in one
 * slot per worker and combined by the caller after the join, so results do
 * not depend on the worker count or on how the executor cuts the ranges. */
#ifndef XPBD_EXEC_H
#define XPBD_EXEC_H

#include "xpbd/contacts.h"
#include "xpbd/executor.h"

#include <stddef.h>
#include <stdint.h>

/* Workers a step uses at most (the per-worker slots live on the stack). */
#define XPBD__MAX_WORKERS 64u

/* A step run as one task of the executor (team.c). */
struct xpbd__team;

typedef struct xpbd__exec {
    const xpbd_executor *ex;  /* NULL: serial */
    uint32_t workers;         /* >= 1 */
    struct xpbd__team *team;  /* set while a step runs as a team */
} xpbd__exec;

/* One iteration of a spin-wait: the CPU's pause hint (x86 pause, arm64
 * yield), nothing elsewhere. */
static inline void xpbd__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* The executor rule (a NULL executor passes): XPBD_ERR_CONFIG with its
 * field when enqueue or finish is NULL or worker_count is 0 (step/driver.c). */
xpbd_status xpbd__executor_check(const xpbd_executor *ex, xpbd_field *field);

/* The serial executor: every task runs inline on the caller. */
static inline xpbd__exec xpbd__exec_serial(void)
{
    xpbd__exec x = {NULL, 1, NULL};
    return x;
}

/* Runs drive(ctx) as member 0 of a team of x->workers members started by
 * one enqueue on x's executor (x->ex != NULL, x->workers >= 2): while it
 * runs, xpbd__run hands each stage to the team (xpbd__team_stage) instead
 * of enqueueing it. Member 0 is the executor's range 0 or the caller,
 * whichever claims it first. Returns when drive has returned and the team
 * has left. */
void xpbd__team_go(xpbd__exec *x, void (*drive)(void *ctx), void *ctx);

/* Members a team has at most (one bit each in its stage word). */
#define XPBD__TEAM_MAX 32u

/* One stage on the team, from its driver: task over [0, count) cut into
 * equal shares of at least min_range items, one per member that has joined
 * (the driver's is share 0), each in slices that the other members take
 * when they are done with their own; returns when every slice is done. */
void xpbd__team_stage(struct xpbd__team *t, xpbd_range_task *task, uint32_t count,
                      uint32_t min_range, void *ctx);

#ifdef XPBD__TEAM_STATS
/* Test builds only (tests/tests.cmake): what the teams of the process did,
 * counted since the start, so that the threaded tests can require that
 * stages did run on several members, that teams were dismissed and that
 * steps rested. */
typedef struct xpbd__team_stats {
    uint64_t teams;         /* steps run as a team */
    uint64_t shared_stages; /* stages cut for more than the driver */
    uint64_t member_slices; /* slices run by a member other than the driver */
    uint64_t dismissed;     /* teams dismissed in their step */
    uint64_t rested;        /* threaded steps run without a team (resting) */
} xpbd__team_stats;
void xpbd__team_stats_get(xpbd__team_stats *out);
#endif

/* Resolves a step's executor and thread count (xpbd_step_config.threads and
 * .executor). Returns 0 if the host's executor is unusable. */
static inline int xpbd__exec_resolve(const xpbd_executor *ex, uint32_t threads, xpbd__exec *out)
{
    *out = xpbd__exec_serial();
    if (threads == 1)
        return 1; /* serial: the executor is not even looked at */
    if (!ex)
        ex = xpbd_executor_default();
    if (!ex)
        return 1; /* no executor at all: serial */
    xpbd_field field;
    if (xpbd__executor_check(ex, &field) != XPBD_OK)
        return 0;
    uint32_t n = threads == 0 || threads > ex->worker_count ? ex->worker_count : threads;
    if (n > XPBD__MAX_WORKERS)
        n = XPBD__MAX_WORKERS;
    out->ex = n > 1 ? ex : NULL;
    out->workers = n;
    return 1;
}

/* Runs task over [0, count): inline on the caller (worker 0) when the run is
 * serial or count is below twice min_range, on the team while a step runs
 * as one, through the executor otherwise. */
static inline void xpbd__run(const xpbd__exec *x, xpbd_range_task *task, uint32_t count,
                             uint32_t min_range, void *ctx)
{
    if (count == 0)
        return;
    if (!x->ex || x->workers < 2 || count < 2 * (uint64_t)min_range) {
        task(0, count, 0, ctx);
        return;
    }
    if (x->team) {
        xpbd__team_stage(x->team, task, count, min_range, ctx);
        return;
    }
    void *h = x->ex->enqueue(task, count, min_range, x->workers, ctx, x->ex->user_ctx);
    if (h)
        x->ex->finish(h, x->ex->user_ctx);
}

/* The broad phase of xpbd_contacts_find_* with its scans and pair search
 * cut into ranges on x (contacts.c); the step calls it directly. */
xpbd_status xpbd__contacts_find_run_f32(const xpbd_particles_f32 *p, const float *radius,
                                        const xpbd_broadphase *bp, void *work, size_t work_bytes,
                                        xpbd_contact_set *cs, size_t *bad_index,
                                        const xpbd__exec *x);
xpbd_status xpbd__contacts_find_run_f64(const xpbd_particles_f64 *p, const double *radius,
                                        const xpbd_broadphase *bp, void *work, size_t work_bytes,
                                        xpbd_contact_set *cs, size_t *bad_index,
                                        const xpbd__exec *x);

#endif /* XPBD_EXEC_H */
