/* SPDX-License-Identifier: MIT */
/* The step as one task of its executor (exec.h): a team of members that
 * stays together for a whole step, with the stages handed out between them
 * through a few atomics instead of one enqueue per stage.
 *
 *   member 0 (the driver)                members 1 .. workers-1
 *   ---------------------                ----------------------
 *   drive(ctx): the step, serial parts   wait for the driver to start, join
 *   stage:  publish task, stage word     see the stage word change
 *           take share 0, then any left  take its own share, then any left
 *           wait until all slices done   done++ per slice
 *   ...                                  ...
 *   stage word = END                     see END -> return
 *
 * The stage word holds the stage number and the members it is cut for:
 * the stage's items are cut into XPBD__TEAM_SLICES equal slices per member
 * named, and member m's own slices are those of the m-th named member
 * (counting from the lowest bit). Every member takes the same share of
 * every stage, so the particles it moves in one colour are, for a mesh
 * numbered in order, mostly the ones it moved in the last: their cache
 * lines stay in its core. A member takes its own slices first, in order,
 * then the slices nobody has taken yet, from the far end of each other
 * member's share: a core that is slower, late or descheduled holds nobody
 * up. A slice is taken by one compare-and-swap. Which member runs which
 * slice does not change the results: every stage is written so that they
 * do not depend on the cut (exec.h).
 *
 * The executor may start the members in any order, late, or one after
 * another on one thread: a member joins only once the driver runs (it
 * leaves after a bounded wait otherwise), and a stage is cut only for the
 * members that have joined. A joined member runs on its own thread until
 * the end, so the driver never waits on work that nobody is running. */
#define _POSIX_C_SOURCE 200809L

#include "exec.h"

#include <stdatomic.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#define XPBD__YIELD() ((void)sched_yield())
#else
#define XPBD__YIELD() ((void)0)
#endif

#define XPBD__TEAM_END UINT32_MAX
/* spins before a waiting member starts yielding its core */
#define XPBD__TEAM_SPINS 2048u
/* a member that has not seen the driver start after this long leaves
 * (10 ms: far longer than an executor takes to start a task's ranges) */
#define XPBD__TEAM_JOIN_NS 10000000L
/* slices per member a stage is cut into: for the balance between cores of
 * unequal speed, at one compare-and-swap per slice (2 measured best of
 * 1, 2, 4, 8 with xpbd-bench --cloth-only --threads 1,2) */
#define XPBD__TEAM_SLICES 2u

struct xpbd__team {
    /* one cache line: what a member reads to start a stage */
    _Alignas(64) _Atomic uint64_t stage; /* stage number << 32 | the members cut for */
    _Atomic(xpbd_range_task *) task;     /* written by the driver before stage */
    _Atomic(void *) task_ctx;
    _Atomic uint32_t count;
    _Atomic uint32_t driving;            /* the driver has started */
    _Alignas(64) _Atomic uint32_t done;  /* slices of the stage finished */
    _Alignas(64) _Atomic uint32_t joined; /* members that have joined (bit 0: driver) */
    /* slice j of member m's share is taken by whoever moves
     * slice_stage[m].at[j] up to the stage number first; a member late for
     * a stage finds every slice of it already taken. One cache line per
     * member: its own slices are taken without traffic. */
    struct {
        _Alignas(64) _Atomic uint32_t at[XPBD__TEAM_SLICES];
    } slice_stage[XPBD__TEAM_MAX];
    /* fixed for the team's life */
    void (*drive)(void *ctx);
    void *drive_ctx;
    uint32_t members;
};

static uint32_t xpbd__team_popcount(uint32_t m)
{
    uint32_t n = 0;
    for (; m; m &= m - 1u)
        ++n;
    return n;
}

static void xpbd__team_pause(unsigned *spins)
{
    if (++*spins < XPBD__TEAM_SPINS) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    } else {
        XPBD__YIELD();
    }
}

/* Runs slice j of share `share` of `shares` of stage `seq` on member
 * `member` if nobody has taken it yet. */
static void xpbd__team_take(struct xpbd__team *t, uint32_t seq, uint32_t share, uint32_t j,
                            uint32_t shares, uint32_t member)
{
    _Atomic uint32_t *at = &t->slice_stage[share].at[j];
    uint32_t had = atomic_load_explicit(at, memory_order_relaxed);
    do {
        if (had >= seq)
            return; /* taken (or the stage is over) */
    } while (!atomic_compare_exchange_weak_explicit(at, &had, seq, memory_order_relaxed,
                                                    memory_order_relaxed));
    /* taken: the stage stays open until this slice is done, so its task is
     * the one published with seq */
    xpbd_range_task *task = atomic_load_explicit(&t->task, memory_order_relaxed);
    void *ctx = atomic_load_explicit(&t->task_ctx, memory_order_relaxed);
    const uint64_t count = atomic_load_explicit(&t->count, memory_order_relaxed);
    const uint64_t slices = (uint64_t)shares * XPBD__TEAM_SLICES;
    const uint64_t k = (uint64_t)share * XPBD__TEAM_SLICES + j;
    const uint32_t begin = (uint32_t)(count * k / slices);
    const uint32_t end = (uint32_t)(count * (k + 1u) / slices);
    if (end > begin)
        task(begin, end, member, ctx);
    atomic_fetch_add_explicit(&t->done, 1u, memory_order_release);
}

/* Member `member` (share `own`) on stage `seq`: its own slices in order,
 * then every other share's from its far end. */
static void xpbd__team_work(struct xpbd__team *t, uint32_t seq, uint32_t own, uint32_t shares,
                            uint32_t member)
{
    for (uint32_t j = 0; j < XPBD__TEAM_SLICES; ++j)
        xpbd__team_take(t, seq, own, j, shares, member);
    for (uint32_t d = 1; d < shares; ++d)
        for (uint32_t j = XPBD__TEAM_SLICES; j-- > 0;)
            xpbd__team_take(t, seq, (own + d) % shares, j, shares, member);
}

/* A member other than the driver: joins if the driver runs, then runs its
 * part of every stage that names it until the end. */
static void xpbd__team_member(struct xpbd__team *t, uint32_t member)
{
    unsigned spins = 0;
    struct timespec t0;
    if (!timespec_get(&t0, TIME_UTC))
        return;
    while (!atomic_load_explicit(&t->driving, memory_order_acquire)) {
        xpbd__team_pause(&spins);
        struct timespec now;
        if (spins % 256u == 0 &&
            (!timespec_get(&now, TIME_UTC) ||
             (now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) >
                 XPBD__TEAM_JOIN_NS))
            return; /* not started: maybe queued behind this member */
    }
    const uint32_t bit = 1u << member;
    atomic_fetch_or_explicit(&t->joined, bit, memory_order_acq_rel);
    uint64_t seen = 0;
    for (;;) {
        uint64_t w;
        spins = 0;
        while ((w = atomic_load_explicit(&t->stage, memory_order_acquire)) == seen)
            xpbd__team_pause(&spins);
        seen = w;
        if ((uint32_t)(w >> 32) == XPBD__TEAM_END)
            return;
        const uint32_t mask = (uint32_t)w;
        if (!(mask & bit))
            continue; /* cut without this member */
        xpbd__team_work(t, (uint32_t)(w >> 32), xpbd__team_popcount(mask & (bit - 1u)),
                        xpbd__team_popcount(mask), member);
    }
}

#ifdef XPBD__TEAM_WAIT_ALL
/* Waits until every member has joined, at most XPBD__TEAM_JOIN_NS. */
static void xpbd__team_wait_all(struct xpbd__team *t)
{
    const uint32_t all = t->members >= 32u ? UINT32_MAX : (1u << t->members) - 1u;
    struct timespec t0, now;
    unsigned spins = 0;
    if (!timespec_get(&t0, TIME_UTC))
        return;
    while (atomic_load_explicit(&t->joined, memory_order_acquire) != all) {
        xpbd__team_pause(&spins);
        if (!timespec_get(&now, TIME_UTC) ||
            (now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) >
                XPBD__TEAM_JOIN_NS)
            return;
    }
}
#endif

/* Member 0: whoever claims it first drives the step, then ends the team;
 * the loser has nothing to do. */
static void xpbd__team_drive(struct xpbd__team *t)
{
    uint32_t idle = 0;
    if (!atomic_compare_exchange_strong_explicit(&t->driving, &idle, 1u, memory_order_acq_rel,
                                                 memory_order_acquire))
        return;
#ifdef XPBD__TEAM_WAIT_ALL
    /* test builds: the whole team joins before the first stage, so that
     * every stage, the first ones too, runs on all members */
    xpbd__team_wait_all(t);
#endif
    t->drive(t->drive_ctx);
    atomic_store_explicit(&t->stage, (uint64_t)XPBD__TEAM_END << 32, memory_order_release);
}

/* The executor's task: range r is member r; range 0 tries to drive. */
static void xpbd__team_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker; /* members are numbered by their range */
    struct xpbd__team *t = ctx;
    for (uint32_t r = begin; r < end; ++r) {
        if (r == 0)
            xpbd__team_drive(t);
        else
            xpbd__team_member(t, r);
    }
}

void xpbd__team_go(xpbd__exec *x, void (*drive)(void *ctx), void *ctx)
{
    struct xpbd__team t;
    const uint32_t members = x->workers < XPBD__TEAM_MAX ? x->workers : XPBD__TEAM_MAX;
    atomic_init(&t.stage, 0);
    atomic_init(&t.done, 0u);
    atomic_init(&t.joined, 1u);
    atomic_init(&t.driving, 0u);
    atomic_init(&t.task, NULL);
    atomic_init(&t.task_ctx, NULL);
    atomic_init(&t.count, 0u);
    for (uint32_t m = 0; m < XPBD__TEAM_MAX; ++m)
        for (uint32_t j = 0; j < XPBD__TEAM_SLICES; ++j)
            atomic_init(&t.slice_stage[m].at[j], 0u);
    t.drive = drive;
    t.drive_ctx = ctx;
    t.members = members;
    x->team = &t;
    void *h = x->ex->enqueue(xpbd__team_task, members, 1u, members, &t, x->ex->user_ctx);
    /* the caller claims member 0 if the executor has not run it yet: a
     * job system may queue range 0 behind other work, have fewer threads
     * than ranges, or park this thread in finish() (an executor that runs
     * the whole task in enqueue(), as the default one does, has run it) */
    xpbd__team_drive(&t);
    if (h)
        x->ex->finish(h, x->ex->user_ctx);
    x->team = NULL;
}

void xpbd__team_stage(struct xpbd__team *t, xpbd_range_task *task, uint32_t count,
                      uint32_t min_range, void *ctx)
{
    /* at most count / min_range shares, so none is shorter than min_range
     * (its slices may be) */
    const uint32_t most = count / (min_range ? min_range : 1u);
    const uint32_t joined = atomic_load_explicit(&t->joined, memory_order_acquire);
    uint32_t mask = 0, shares = 0;
    for (uint32_t m = 0; m < t->members && shares < most; ++m)
        if (joined & (1u << m)) {
            mask |= 1u << m;
            ++shares;
        }
    if (shares < 2) {
        task(0, count, 0, ctx);
        return;
    }
    const uint32_t seq =
        (uint32_t)(atomic_load_explicit(&t->stage, memory_order_relaxed) >> 32) + 1u;
    atomic_store_explicit(&t->task, task, memory_order_relaxed);
    atomic_store_explicit(&t->task_ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&t->count, count, memory_order_relaxed);
    atomic_store_explicit(&t->done, 0u, memory_order_relaxed);
    atomic_store_explicit(&t->stage, (uint64_t)seq << 32 | mask, memory_order_release);
    xpbd__team_work(t, seq, 0, shares, 0);
    unsigned spins = 0;
    while (atomic_load_explicit(&t->done, memory_order_acquire) != shares * XPBD__TEAM_SLICES)
        xpbd__team_pause(&spins);
}
