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
 * the end, so the driver never waits on work that nobody is running.
 *
 * What the driver can still wait on is a slice a member has taken and not
 * finished: the member's thread was descheduled in it (the host keeps that
 * core busy) and the driver waits until it runs again, a scheduler's time
 * slice (milliseconds) against stages of microseconds. So the driver times
 * each stage: when its wait for the others' slices exceeds its own work in
 * the stage by XPBD__TEAM_STALL_NS, or when members ran slices of
 * XPBD__TEAM_SAME_CPU stages on the driver's own CPU (the scheduler put
 * both on one core, where they only take turns), or when the stages it
 * times took more than 90% of what the driver alone would have (the
 * members' cores are shared with the host's threads: they help too little
 * to pay for the stages' hand-over), the team is dismissed (the members
 * leave, the rest of the step runs on the driver alone), and the next
 * steps run without a team: 1, 2, 4, ... up to XPBD__TEAM_REST_MAX steps
 * after stalls, then one step tries the team again; a step whose team ran
 * without a stall shortens the next rest by one. This count, kept per
 * executor (xpbd__team_hint), is the one state team.c keeps between steps:
 * it decides only who runs the ranges, never the results. */
#define _POSIX_C_SOURCE 200809L

#include "exec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#define XPBD__YIELD() ((void)sched_yield())
#else
#define XPBD__YIELD() ((void)0)
#endif
#if defined(__linux__)
/* glibc and musl, declared under _GNU_SOURCE: the CPU the thread runs on */
int sched_getcpu(void);
#define XPBD__CPU() sched_getcpu()
#else
#define XPBD__CPU() (-1)
#endif

#define XPBD__TEAM_END UINT32_MAX
/* spins before a waiting member sleeps (a few tens of microseconds: the
 * gap between two stages of a step on running cores is a few) and before
 * the waiting driver starts yielding its core */
#define XPBD__TEAM_SPINS 2048u
/* spins of a member that slept at its last wait, and of one waiting for
 * the driver to start */
#define XPBD__TEAM_SPINS_SHORT 64u
/* a member that has not seen the driver start after this long leaves
 * (10 ms: far longer than an executor takes to start a task's ranges) */
#define XPBD__TEAM_JOIN_NS 10000000L
/* slices per member a stage is cut into: for the balance between cores of
 * unequal speed, at one compare-and-swap per slice (2 measured best of
 * 1, 2, 4, 8 with xpbd-bench --cloth-only --threads 1,2) */
#define XPBD__TEAM_SLICES 2u
/* a wait for the others' slices longer than the driver's own work in the
 * stage by this much is a stall (100 us: a stage's imbalance between
 * running cores is microseconds, a descheduled member's milliseconds) */
#ifndef XPBD__TEAM_STALL_NS
#  define XPBD__TEAM_STALL_NS 100000L
#endif
/* stages in a step whose slices a member ran on the driver's own CPU
 * (the host's other cores are busy and the scheduler put both there:
 * they only take turns) before the team is dismissed */
#define XPBD__TEAM_SAME_CPU 4u
/* one stage in XPBD__TEAM_PAY_EVERY is timed slice by slice; after
 * XPBD__TEAM_PAY_SAMPLES of them, a team whose timed stages took more
 * than 90% of what the driver alone would have (its own time per slice
 * times the slices) is dismissed as not paying */
#define XPBD__TEAM_PAY_EVERY 4u
#define XPBD__TEAM_PAY_SAMPLES 8u
/* the most steps run without a team after consecutive stalls */
#define XPBD__TEAM_REST_MAX 128u

/* What team.c remembers between steps, per executor (its enqueue and
 * user_ctx): the steps still to run without a team, and how many the next
 * stall gives. It is the library's one piece of process-wide mutable
 * state, a scheduling cache: what a stall teaches about an executor's
 * threads holds for every world stepped on it, and it decides only who
 * runs the ranges, never a result. A few executors at once; an executor
 * met when all slots are taken takes the least recently used one (a host
 * that makes an executor per level still rests; the one it replaced
 * starts afresh when it comes back). */
#define XPBD__TEAM_HINTS 8u
typedef struct xpbd__team_hint {
    _Atomic(void *) enqueue;  /* the key: NULL while the slot is free */
    _Atomic(void *) user_ctx;
    _Atomic uint32_t ready;   /* the key is written */
    _Atomic uint32_t rest_left;
    _Atomic uint32_t rest_next;
    _Atomic uint64_t used;    /* xpbd__team_hint_clock at the last step on it */
} xpbd__team_hint;
static xpbd__team_hint xpbd__team_hints[XPBD__TEAM_HINTS];
static _Atomic uint64_t xpbd__team_hint_clock;

#ifdef XPBD__TEAM_STATS
static struct {
    _Atomic uint64_t teams, shared_stages, member_slices, dismissed, rested;
} xpbd__team_counts;
#  define XPBD__TEAM_COUNT(what) \
      atomic_fetch_add_explicit(&xpbd__team_counts.what, 1u, memory_order_relaxed)

void xpbd__team_stats_get(xpbd__team_stats *out)
{
    out->teams = atomic_load(&xpbd__team_counts.teams);
    out->shared_stages = atomic_load(&xpbd__team_counts.shared_stages);
    out->member_slices = atomic_load(&xpbd__team_counts.member_slices);
    out->dismissed = atomic_load(&xpbd__team_counts.dismissed);
    out->rested = atomic_load(&xpbd__team_counts.rested);
}
#else
#  define XPBD__TEAM_COUNT(what) ((void)0)
#endif

struct xpbd__team {
    /* one cache line: what a member reads to start a stage */
    _Alignas(64) _Atomic uint64_t stage; /* stage number << 32 | the members cut for */
    _Atomic(xpbd_range_task *) task;     /* written by the driver before stage */
    _Atomic(void *) task_ctx;
    _Atomic uint32_t count;
    _Atomic uint32_t driving;            /* the driver has started */
    _Atomic uint32_t dismissed;          /* the driver stalled: members leave */
    _Atomic uint32_t sleepers;           /* members asleep on `wake` */
    _Atomic uint32_t late;               /* a member gave up waiting for the driver */
    pthread_mutex_t lock;                /* for `wake` only */
    pthread_cond_t wake;                 /* a stage, the start or the end, or dismissal */
    _Alignas(64) _Atomic uint32_t done;  /* slices of the stage finished */
    _Alignas(64) _Atomic uint32_t joined; /* members that have joined (bit 0: driver) */
    /* slice j of member m's share is taken by whoever moves
     * slice_stage[m].at[j] up to the stage number first; a member late for
     * a stage finds every slice of it already taken. One cache line per
     * member: its own slices are taken without traffic. */
    struct {
        _Alignas(64) _Atomic uint32_t at[XPBD__TEAM_SLICES];
    } slice_stage[XPBD__TEAM_MAX];
    /* the CPU each member last ran a slice on (-1: unknown) */
    _Atomic int cpu[XPBD__TEAM_MAX];
    /* the driver's own */
    int stalled;      /* a stage waited too long on the others: run alone */
    uint32_t same_cpu; /* stages a member ran on the driver's CPU */
    int sampling;      /* this stage is timed slice by slice */
    long long own_ns;  /* of it: the driver's slices' time, and their count */
    uint32_t own_slices;
    long long pay_team_ns, pay_alone_ns; /* the timed stages: as run, and alone */
    uint32_t pay_samples;
    uint32_t shared;  /* stages cut for more than the driver */
    /* fixed for the team's life */
    void (*drive)(void *ctx);
    void *drive_ctx;
    uint32_t members;
};

/* The team's clock (monotonic: a change of the wall clock neither stretches
 * a wait nor turns a stage's time negative). 0: no clock. */
static int xpbd__team_now(struct timespec *ts)
{
#ifdef CLOCK_MONOTONIC
    return clock_gettime(CLOCK_MONOTONIC, ts) == 0;
#else /* POSIX not declared (a build that includes a header first): C11's */
    return timespec_get(ts, TIME_UTC) != 0;
#endif
}

/* b - a in nanoseconds */
static long long xpbd__team_ns(const struct timespec *a, const struct timespec *b)
{
    return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

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
        xpbd__cpu_relax();
    } else {
        XPBD__YIELD();
    }
}

/* Wakes the members asleep on t->wake, after the driver changed what they
 * wait on (seq_cst, against xpbd__team_sleep's count: either a member sees
 * the change, or this sees the member asleep). */
static void xpbd__team_wake(struct xpbd__team *t)
{
    if (atomic_load(&t->sleepers) == 0u)
        return;
    pthread_mutex_lock(&t->lock);
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

/* The stage word once it differs from `seen` or the team is dismissed
 * (then `seen`): a spin of *budget pauses, then asleep on t->wake, so a
 * member whose core the host wants gives it back instead of spinning. A
 * member that had to sleep spins only XPBD__TEAM_SPINS_SHORT the next
 * time (its core is shared: spinning there may keep the driver off it);
 * one that saw the stage while spinning, XPBD__TEAM_SPINS again. */
static uint64_t xpbd__team_next(struct xpbd__team *t, uint64_t seen, unsigned *budget)
{
    uint64_t w;
    for (unsigned spins = 0; spins < *budget; ++spins) {
        if ((w = atomic_load_explicit(&t->stage, memory_order_acquire)) != seen ||
            atomic_load_explicit(&t->dismissed, memory_order_relaxed)) {
            *budget = XPBD__TEAM_SPINS;
            return w;
        }
        xpbd__cpu_relax();
    }
    *budget = XPBD__TEAM_SPINS_SHORT;
    pthread_mutex_lock(&t->lock);
    atomic_fetch_add(&t->sleepers, 1u);
    while ((w = atomic_load(&t->stage)) == seen && !atomic_load(&t->dismissed))
        pthread_cond_wait(&t->wake, &t->lock);
    atomic_fetch_sub(&t->sleepers, 1u);
    pthread_mutex_unlock(&t->lock);
    return w;
}

/* 1 once the driver has started; 0 if it has not within
 * XPBD__TEAM_JOIN_NS (a short spin, then asleep on t->wake: the caller
 * starts the driver right after enqueue(), and a member spinning on the
 * caller's own core would keep it from doing so). */
static int xpbd__team_started(struct xpbd__team *t)
{
    if (atomic_load(&t->late) && !atomic_load(&t->driving))
        return 0; /* the executor runs this team's ranges before its driver's */
    for (unsigned spins = 0; spins < XPBD__TEAM_SPINS_SHORT; ++spins) {
        if (atomic_load_explicit(&t->driving, memory_order_acquire))
            return 1;
        xpbd__cpu_relax();
    }
    struct timespec until;
    if (!xpbd__team_now(&until))
        return 0;
    until.tv_nsec += XPBD__TEAM_JOIN_NS;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    int started, timed_out = 0;
    pthread_mutex_lock(&t->lock);
    atomic_fetch_add(&t->sleepers, 1u);
    while (!(started = (int)atomic_load(&t->driving)) && !timed_out)
        timed_out = pthread_cond_timedwait(&t->wake, &t->lock, &until) != 0;
    atomic_fetch_sub(&t->sleepers, 1u);
    pthread_mutex_unlock(&t->lock);
    if (!started) /* maybe queued behind this member: the others need not wait */
        atomic_store(&t->late, 1u);
    return started;
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
    struct timespec a, b;
    const int timed = member == 0u && t->sampling && xpbd__team_now(&a);
    if (end > begin)
        task(begin, end, member, ctx);
    if (timed && xpbd__team_now(&b)) {
        t->own_ns += xpbd__team_ns(&a, &b);
        ++t->own_slices;
    }
    if (member != 0u) {
        atomic_store_explicit(&t->cpu[member], XPBD__CPU(), memory_order_relaxed);
        XPBD__TEAM_COUNT(member_slices);
    }
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
    if (!xpbd__team_started(t))
        return;
    const uint32_t bit = 1u << member;
    atomic_fetch_or_explicit(&t->joined, bit, memory_order_acq_rel);
    uint64_t seen = 0;
    unsigned budget = XPBD__TEAM_SPINS;
    for (;;) {
        const uint64_t w = xpbd__team_next(t, seen, &budget);
        if (w == seen) {
            /* dismissed: no stage is cut for this member any more */
            atomic_fetch_and_explicit(&t->joined, ~bit, memory_order_acq_rel);
            return;
        }
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
    if (!xpbd__team_now(&t0))
        return;
    while (atomic_load_explicit(&t->joined, memory_order_acquire) != all) {
        xpbd__team_pause(&spins);
        if (!xpbd__team_now(&now) ||
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
    if (!atomic_compare_exchange_strong(&t->driving, &idle, 1u))
        return;
    xpbd__team_wake(t);
#ifdef XPBD__TEAM_WAIT_ALL
    /* test builds: the whole team joins before the first stage, so that
     * every stage, the first ones too, runs on all members */
    xpbd__team_wait_all(t);
#endif
    t->drive(t->drive_ctx);
    atomic_store(&t->stage, (uint64_t)XPBD__TEAM_END << 32);
    xpbd__team_wake(t);
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

/* Writes ex's key into slot h, whose ready flag this thread has taken. */
static xpbd__team_hint *xpbd__team_hint_claim(xpbd__team_hint *h, void *fn, void *user,
                                              uint64_t now)
{
    atomic_store_explicit(&h->enqueue, fn, memory_order_relaxed);
    atomic_store_explicit(&h->user_ctx, user, memory_order_relaxed);
    atomic_store_explicit(&h->rest_left, 0u, memory_order_relaxed);
    atomic_store_explicit(&h->rest_next, 1u, memory_order_relaxed);
    atomic_store_explicit(&h->used, now, memory_order_relaxed);
    atomic_store(&h->ready, 1u);
    return h;
}

/* The hint slot of executor ex: its own, a free one claimed on first use,
 * or else the least recently used one, taken over; NULL only when another
 * thread is taking that one over at the same time. */
static xpbd__team_hint *xpbd__team_hint_of(const xpbd_executor *ex)
{
    void *const fn = (void *)(uintptr_t)ex->enqueue, *const user = ex->user_ctx;
    const uint64_t now = atomic_fetch_add_explicit(&xpbd__team_hint_clock, 1u,
                                                   memory_order_relaxed) + 1u;
    xpbd__team_hint *oldest = NULL;
    uint64_t oldest_used = UINT64_MAX;
    for (uint32_t k = 0; k < XPBD__TEAM_HINTS; ++k) {
        xpbd__team_hint *h = &xpbd__team_hints[k];
        void *had = atomic_load_explicit(&h->enqueue, memory_order_acquire);
        if (had == NULL) {
            if (atomic_compare_exchange_strong(&h->enqueue, &had, fn))
                return xpbd__team_hint_claim(h, fn, user, now);
        }
        while (!atomic_load(&h->ready)) /* claimed, its key being written */
            XPBD__YIELD();
        if (atomic_load_explicit(&h->enqueue, memory_order_relaxed) == fn &&
            atomic_load_explicit(&h->user_ctx, memory_order_relaxed) == user) {
            atomic_store_explicit(&h->used, now, memory_order_relaxed);
            return h;
        }
        const uint64_t used = atomic_load_explicit(&h->used, memory_order_relaxed);
        if (used < oldest_used) {
            oldest_used = used;
            oldest = h;
        }
    }
    uint32_t ready = 1u;
    if (oldest && atomic_compare_exchange_strong(&oldest->ready, &ready, 0u))
        return xpbd__team_hint_claim(oldest, fn, user, now);
    return NULL;
}

#ifndef XPBD__TEAM_WAIT_ALL
/* 1 if this step runs without a team (a recent step on h stalled). */
static int xpbd__team_resting(xpbd__team_hint *h)
{
    if (!h)
        return 0;
    uint32_t left = atomic_load_explicit(&h->rest_left, memory_order_relaxed);
    while (left > 0u)
        if (atomic_compare_exchange_weak_explicit(&h->rest_left, &left, left - 1u,
                                                  memory_order_relaxed, memory_order_relaxed))
            return 1;
    return 0;
}
#endif

/* After a team's step: a stall, or a member that waited in vain for the
 * driver, rests the next steps (twice as many as the last time, at most
 * XPBD__TEAM_REST_MAX); a step shared without one shortens the next rest
 * by one. */
static void xpbd__team_learn(xpbd__team_hint *h, const struct xpbd__team *t)
{
    if (!h)
        return;
    const uint32_t n = atomic_load_explicit(&h->rest_next, memory_order_relaxed);
    if (t->stalled || atomic_load_explicit(&t->late, memory_order_relaxed)) {
        atomic_store_explicit(&h->rest_left, n, memory_order_relaxed);
        atomic_store_explicit(&h->rest_next,
                              n < XPBD__TEAM_REST_MAX / 2u ? 2u * n : XPBD__TEAM_REST_MAX,
                              memory_order_relaxed);
    } else if (t->shared > 0u) {
        atomic_store_explicit(&h->rest_next, n > 1u ? n - 1u : 1u, memory_order_relaxed);
    }
}

void xpbd__team_go(xpbd__exec *x, void (*drive)(void *ctx), void *ctx)
{
    xpbd__team_hint *hint = xpbd__team_hint_of(x->ex);
#ifndef XPBD__TEAM_WAIT_ALL /* test builds: every step starts with its team */
    if (xpbd__team_resting(hint)) {
        XPBD__TEAM_COUNT(rested);
        /* every stage on the caller, with no enqueue */
        const xpbd__exec team = *x;
        *x = xpbd__exec_serial();
        drive(ctx);
        *x = team;
        return;
    }
#endif
    struct xpbd__team t;
    const uint32_t members = x->workers < XPBD__TEAM_MAX ? x->workers : XPBD__TEAM_MAX;
    atomic_init(&t.stage, 0);
    atomic_init(&t.done, 0u);
    atomic_init(&t.joined, 1u);
    atomic_init(&t.driving, 0u);
    atomic_init(&t.dismissed, 0u);
    atomic_init(&t.sleepers, 0u);
    atomic_init(&t.late, 0u);
    if (pthread_mutex_init(&t.lock, NULL) != 0) {
        drive(ctx);
        return;
    }
    /* the join's timed wait counts on the team's clock */
    pthread_condattr_t wake_attr;
    int wake_ok = pthread_condattr_init(&wake_attr) == 0;
    if (wake_ok) {
#ifdef CLOCK_MONOTONIC
        wake_ok = pthread_condattr_setclock(&wake_attr, CLOCK_MONOTONIC) == 0;
#endif
        wake_ok = wake_ok && pthread_cond_init(&t.wake, &wake_attr) == 0;
        pthread_condattr_destroy(&wake_attr);
    }
    if (!wake_ok) {
        pthread_mutex_destroy(&t.lock);
        drive(ctx);
        return;
    }
    t.stalled = 0;
    t.same_cpu = 0;
    t.sampling = 0;
    t.own_ns = 0;
    t.own_slices = 0;
    t.pay_team_ns = 0;
    t.pay_alone_ns = 0;
    t.pay_samples = 0;
    for (uint32_t m = 0; m < XPBD__TEAM_MAX; ++m)
        atomic_init(&t.cpu[m], -1);
    t.shared = 0;
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
    XPBD__TEAM_COUNT(teams);
    void *h = x->ex->enqueue(xpbd__team_task, members, 1u, members, &t, x->ex->user_ctx);
    /* the caller claims member 0 if the executor has not run it yet: a
     * job system may queue range 0 behind other work, have fewer threads
     * than ranges, or park this thread in finish() (an executor that runs
     * the whole task in enqueue(), as the default one does, has run it) */
    xpbd__team_drive(&t);
    if (h)
        x->ex->finish(h, x->ex->user_ctx);
    x->team = NULL;
    /* every member has returned (finish), none waits on them any more */
    pthread_cond_destroy(&t.wake);
    pthread_mutex_destroy(&t.lock);
    xpbd__team_learn(hint, &t);
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
    if (shares < 2 || t->stalled) {
        task(0, count, 0, ctx);
        return;
    }
    ++t->shared;
    XPBD__TEAM_COUNT(shared_stages);
    const uint32_t seq =
        (uint32_t)(atomic_load_explicit(&t->stage, memory_order_relaxed) >> 32) + 1u;
    atomic_store_explicit(&t->task, task, memory_order_relaxed);
    atomic_store_explicit(&t->task_ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&t->count, count, memory_order_relaxed);
    atomic_store_explicit(&t->done, 0u, memory_order_relaxed);
    /* a member's CPU counts only for the stage it ran a slice of: a CPU
     * left from an earlier stage, before the member migrated, does not */
    for (uint32_t m = 1; m < t->members; ++m)
        if (mask >> m & 1u)
            atomic_store_explicit(&t->cpu[m], -1, memory_order_relaxed);
    atomic_store(&t->stage, (uint64_t)seq << 32 | mask);
    xpbd__team_wake(t);
    struct timespec t0, t1, t2;
    const int timed = xpbd__team_now(&t0);
    t->sampling = timed && seq % XPBD__TEAM_PAY_EVERY == 0u;
    t->own_ns = 0;
    t->own_slices = 0;
    xpbd__team_work(t, seq, 0, shares, 0);
    const uint32_t all = shares * XPBD__TEAM_SLICES;
    int stall = 0, waited = 0;
    if (atomic_load_explicit(&t->done, memory_order_acquire) != all) {
        const int timed_wait = timed && xpbd__team_now(&t1);
        unsigned spins = 0;
        while (atomic_load_explicit(&t->done, memory_order_acquire) != all)
            xpbd__team_pause(&spins);
        waited = timed_wait && xpbd__team_now(&t2);
        stall = waited &&
                xpbd__team_ns(&t1, &t2) > xpbd__team_ns(&t0, &t1) + XPBD__TEAM_STALL_NS;
    }
    if (t->sampling && t->own_slices > 0u && (waited || xpbd__team_now(&t2))) {
        /* the stage's time against what the driver alone would have taken,
         * at its own pace per slice */
        t->pay_team_ns += xpbd__team_ns(&t0, &t2);
        t->pay_alone_ns += t->own_ns * all / t->own_slices;
        stall |= ++t->pay_samples >= XPBD__TEAM_PAY_SAMPLES &&
                 10 * t->pay_team_ns > 9 * t->pay_alone_ns;
    }
    t->sampling = 0;
    const int here = XPBD__CPU();
    for (uint32_t m = 1; here >= 0 && m < t->members; ++m)
        if ((mask >> m & 1u) && atomic_load_explicit(&t->cpu[m], memory_order_relaxed) == here) {
            stall |= ++t->same_cpu >= XPBD__TEAM_SAME_CPU;
            break;
        }
    if (stall) {
        XPBD__TEAM_COUNT(dismissed);
        t->stalled = 1;
        atomic_store(&t->dismissed, 1u);
        xpbd__team_wake(t);
    }
}
