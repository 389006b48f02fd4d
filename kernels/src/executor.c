/* SPDX-License-Identifier: MIT */
/* The default executor (xpbd/executor.h): a small pool of the library's
 * own threads, started at the first task that can use them, whose ranges
 * are claimed one at a time by whoever is free: the pool's threads and the
 * caller, in finish().
 *
 *   count = 1000, min_range = 10:   range = max(10, ceil(1000 / 64)) = 16
 *   [0,16) [16,32) ... [992,1000)   63 ranges, the last one 8 items
 *   claimed one at a time from the two ends of what is left: the caller
 *   from the front (range 0 first), the pool's threads from the back, until
 *   none is left
 *
 * The cut never depends on the number of workers, so a task that keeps one
 * partial result per range gets the same partials at any thread count.
 *
 * Why not an OpenMP parallel loop (the default up to 0.3): the loop's end
 * is a barrier, so the caller waits for every thread of the team to have
 * run its share, also a thread that has not been scheduled yet because the
 * host keeps its core busy. On this pool the caller waits only for ranges
 * that have been claimed and are running: a range nobody has started when
 * the caller reaches finish() is the caller's, and a thread that wakes up
 * late finds nothing left and goes back to sleep. Idle threads sleep on a
 * condition variable after a short spin; they never spin between tasks
 * for long (OpenMP's default spins up to ~0.3 s).
 *
 * Threads: XPBD_NUM_THREADS if set (a positive number), otherwise the CPUs
 * the process may run on (its main thread's affinity mask, whichever thread
 * first asks); the pool holds that many minus one (the caller is the other
 * worker), each thread allowed on all of those CPUs. A thread that cannot
 * be created makes the pool smaller, never a task fail: the caller runs
 * what nobody else takes. */
#define _GNU_SOURCE /* sched_getaffinity, pthread_attr_setaffinity_np */

#include "xpbd/executor.h"
#include "exec.h" /* xpbd__cpu_relax */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* the most threads a process gives the pool (the step uses at most 64) */
#define POOL_THREADS_MAX 63u
/* tries for the lock before an enqueue runs its task on the caller */
#define POOL_LOCK_TRIES 256u
/* tasks in flight at once; a task beyond them runs on its caller */
#define POOL_JOBS 16u
/* pause iterations an idle thread spins before it sleeps (some tens of us:
 * enough for a host's back-to-back steps, too little to matter to a busy
 * core) */
#define POOL_SPINS 4096u

typedef struct pool_job {
    xpbd_range_task *task;
    void *task_ctx;
    uint32_t count, length, ranges;
    uint32_t seats;            /* workers other than the caller (pool threads) */
    /* the ranges not claimed yet, [front, back): back << 32 | front */
    _Atomic uint64_t left;
    _Atomic uint32_t done;     /* ranges finished */
    _Atomic uint32_t waiting;  /* the caller sleeps in finish() */
    _Atomic uint32_t inside;   /* pool threads holding the job (taken under the lock) */
    _Atomic uint32_t open;     /* seats may be taken (set under the lock) */
    _Atomic uint32_t owned;    /* the caller has not returned from finish() */
    uint32_t taken;            /* seats handed out, under the lock (worker ids 1..taken) */
} pool_job;

typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work;       /* a job was queued */
    pthread_cond_t finished;   /* a job's last range is done */
    _Atomic uint32_t queued;   /* jobs queued so far: what a spinning thread watches */
    _Atomic uint32_t started;  /* the threads have been started */
    uint32_t threads;          /* pool threads started (under the lock) */
    uint32_t sleeping;         /* of them, waiting on `work` */
    pool_job job[POOL_JOBS];
} pool;

static pool xpbd_executor_pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .finished = PTHREAD_COND_INITIALIZER,
};
static xpbd_executor xpbd_executor_pooled;
static pthread_once_t xpbd_executor_once = PTHREAD_ONCE_INIT;

/* Length of the ranges [0, count) is cut into: at least min_range (>= 1),
 * and long enough that there are at most XPBD_EXECUTOR_DEFAULT_RANGES. */
static uint32_t xpbd_executor_range_length(uint32_t count, uint32_t min_range)
{
    const uint32_t even = count / XPBD_EXECUTOR_DEFAULT_RANGES +
                          (count % XPBD_EXECUTOR_DEFAULT_RANGES != 0u);
    const uint32_t least = min_range > 0u ? min_range : 1u;
    return even > least ? even : least;
}

/* Claims a range of j, from the front (the caller) or the back (the pool's
 * threads: a task whose range 0 is special, as the step's team is, has it
 * run by its caller); UINT32_MAX when none is left. */
static uint32_t xpbd_executor_claim(pool_job *j, int from_back)
{
    uint64_t w = atomic_load_explicit(&j->left, memory_order_relaxed);
    for (;;) {
        const uint32_t front = (uint32_t)w, back = (uint32_t)(w >> 32);
        if (front >= back)
            return UINT32_MAX;
        const uint64_t rest = from_back ? (uint64_t)(back - 1u) << 32 | front
                                        : (uint64_t)back << 32 | (front + 1u);
        if (atomic_compare_exchange_weak_explicit(&j->left, &w, rest, memory_order_relaxed,
                                                  memory_order_relaxed))
            return from_back ? back - 1u : front;
    }
}

/* Claims and runs ranges of j as `worker` (0: the caller) until none is
 * left; wakes the job's caller when it finished the last one. */
static void xpbd_executor_run_ranges(pool *p, pool_job *j, uint32_t worker)
{
    for (;;) {
        const uint32_t r = xpbd_executor_claim(j, worker != 0u);
        if (r == UINT32_MAX)
            return;
        const uint32_t begin = r * j->length;
        const uint32_t end = j->count - begin < j->length ? j->count : begin + j->length;
        j->task(begin, end, worker, j->task_ctx);
        /* seq_cst with `waiting`: either the caller sees every range done,
         * or this sees the caller asleep and wakes it */
        if (atomic_fetch_add(&j->done, 1u) + 1u == j->ranges && atomic_load(&j->waiting)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_broadcast(&p->finished);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

/* An open job with a seat left, or NULL (lock held). */
static pool_job *xpbd_executor_open_job(pool *p)
{
    for (uint32_t k = 0; k < POOL_JOBS; ++k) {
        pool_job *j = &p->job[k];
        const uint64_t left = atomic_load_explicit(&j->left, memory_order_relaxed);
        if (atomic_load_explicit(&j->open, memory_order_relaxed) && j->taken < j->seats &&
            (uint32_t)left < (uint32_t)(left >> 32))
            return j;
    }
    return NULL;
}

/* A pool thread: takes a seat on an open job, runs ranges, and sleeps
 * (after a short spin) when there is none. */
static void *xpbd_executor_thread(void *arg)
{
    pool *p = arg;
    uint32_t seen = atomic_load_explicit(&p->queued, memory_order_acquire);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        pool_job *j = xpbd_executor_open_job(p);
        if (!j) {
            pthread_mutex_unlock(&p->lock);
            for (unsigned s = 0;
                 s < POOL_SPINS && atomic_load_explicit(&p->queued, memory_order_acquire) == seen;
                 ++s) {
                xpbd__cpu_relax();
            }
            pthread_mutex_lock(&p->lock);
            seen = atomic_load_explicit(&p->queued, memory_order_acquire);
            if (!(j = xpbd_executor_open_job(p))) {
                ++p->sleeping;
                pthread_cond_wait(&p->work, &p->lock);
                --p->sleeping;
                continue;
            }
        }
        const uint32_t worker = ++j->taken;
        atomic_fetch_add_explicit(&j->inside, 1u, memory_order_relaxed);
        if (j->taken == j->seats)
            atomic_store_explicit(&j->open, 0u, memory_order_relaxed);
        pthread_mutex_unlock(&p->lock);
        xpbd_executor_run_ranges(p, j, worker);
        /* the last touch of j: a job is reused only once nobody is inside */
        atomic_fetch_sub_explicit(&j->inside, 1u, memory_order_release);
        pthread_mutex_lock(&p->lock);
    }
    return NULL;
}

/* The CPUs the process may run on: its main thread's mask (the mask of
 * whichever thread asks would do for a thread the host pinned). 0: none
 * known. */
#ifdef CPU_COUNT /* _GNU_SOURCE took effect (a build that includes a header first may not) */
static int xpbd_executor_process_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    return sched_getaffinity(getpid(), sizeof *set, set) == 0 && CPU_COUNT(set) > 0;
}
#endif

/* Starts the pool's threads (once, under the lock), each allowed on every
 * CPU of the process, not only on those of the thread that starts them. */
static void xpbd_executor_start(pool *p, uint32_t threads)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return;
    (void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
#ifdef CPU_COUNT
    cpu_set_t cpus;
    if (xpbd_executor_process_cpus(&cpus))
        (void)pthread_attr_setaffinity_np(&attr, sizeof cpus, &cpus);
#endif
    for (uint32_t k = 0; k < threads; ++k) {
        pthread_t t;
        if (pthread_create(&t, &attr, xpbd_executor_thread, p) != 0)
            break;
        ++p->threads;
    }
    (void)pthread_attr_destroy(&attr);
}

/* Takes the pool's lock for an enqueue: blocking until the threads have
 * started, then by a bounded number of tries (a thread holds it only for a
 * few instructions, unless the host has descheduled it there). 0: not
 * taken. */
static int xpbd_executor_lock(pool *p)
{
    if (!atomic_load_explicit(&p->started, memory_order_acquire))
        return pthread_mutex_lock(&p->lock) == 0;
    for (unsigned k = 0; k < POOL_LOCK_TRIES; ++k) {
        if (pthread_mutex_trylock(&p->lock) == 0)
            return 1;
        xpbd__cpu_relax();
    }
    return 0;
}

static void *xpbd_executor_enqueue(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                                   uint32_t workers, void *task_ctx, void *user_ctx)
{
    pool *p = user_ctx;
    if (count == 0u)
        return NULL;
    const uint32_t length = xpbd_executor_range_length(count, min_range);
    const uint32_t ranges = count / length + (count % length != 0u);
    uint32_t seats = workers < xpbd_executor_pooled.worker_count
                         ? workers : xpbd_executor_pooled.worker_count;
    seats = seats > 0u ? seats - 1u : 0u;
    if (seats > ranges - 1u)
        seats = ranges - 1u;
    pool_job *j = NULL;
    uint32_t wake = 0;
    /* a pool thread holding the lock may have been descheduled in it (the
     * host keeps its core busy): then the caller runs the task itself
     * rather than wait for that thread (only the first task waits, while
     * the threads start) */
    if (seats > 0u && xpbd_executor_lock(p)) {
        if (!atomic_load_explicit(&p->started, memory_order_relaxed)) {
            xpbd_executor_start(p, xpbd_executor_pooled.worker_count - 1u);
            atomic_store_explicit(&p->started, 1u, memory_order_release);
        }
        for (uint32_t k = 0; k < POOL_JOBS && !j && p->threads > 0u; ++k)
            if (!atomic_load_explicit(&p->job[k].owned, memory_order_acquire) &&
                atomic_load_explicit(&p->job[k].inside, memory_order_acquire) == 0u)
                j = &p->job[k];
        if (j) {
            j->task = task;
            j->task_ctx = task_ctx;
            j->count = count;
            j->length = length;
            j->ranges = ranges;
            j->seats = seats < p->threads ? seats : p->threads;
            atomic_store_explicit(&j->left, (uint64_t)ranges << 32, memory_order_relaxed);
            atomic_store_explicit(&j->done, 0u, memory_order_relaxed);
            atomic_store_explicit(&j->waiting, 0u, memory_order_relaxed);
            j->taken = 0u;
            atomic_store_explicit(&j->owned, 1u, memory_order_relaxed);
            atomic_store_explicit(&j->open, 1u, memory_order_relaxed);
            atomic_fetch_add_explicit(&p->queued, 1u, memory_order_release);
            wake = j->seats < p->sleeping ? j->seats : p->sleeping;
        }
        pthread_mutex_unlock(&p->lock);
        /* after the unlock: a thread woken under the lock would block on it
         * at once, and wake again when it is released */
        for (uint32_t k = 0; k < wake; ++k)
            pthread_cond_signal(&p->work);
    }
    if (!j) {
        /* one worker, one range, no thread or no free job: the caller runs it */
        for (uint32_t r = 0; r < ranges; ++r) {
            const uint32_t begin = r * length;
            task(begin, count - begin < length ? count : begin + length, 0u, task_ctx);
        }
        return NULL;
    }
    return j;
}

/* The caller runs every range nobody has claimed, then waits for the ranges
 * others are running (a short spin, then the condition variable). */
static void xpbd_executor_finish(void *handle, void *user_ctx)
{
    pool *p = user_ctx;
    pool_job *j = handle;
    xpbd_executor_run_ranges(p, j, 0u);
    for (unsigned s = 0; s < POOL_SPINS &&
                         atomic_load_explicit(&j->done, memory_order_acquire) != j->ranges;
         ++s) {
        xpbd__cpu_relax();
    }
    if (atomic_load(&j->done) != j->ranges) {
        /* a range is still running on a thread: sleep until it is done */
        pthread_mutex_lock(&p->lock);
        atomic_store(&j->waiting, 1u);
        while (atomic_load(&j->done) != j->ranges)
            pthread_cond_wait(&p->finished, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    /* a thread that takes a seat now only finds no range left; the job is
     * reused once nobody is inside */
    atomic_store_explicit(&j->open, 0u, memory_order_relaxed);
    atomic_store_explicit(&j->owned, 0u, memory_order_release);
}

/* XPBD_NUM_THREADS (decimal digits only, at least 1; larger than the pool
 * can hold: its most), or the CPUs the process may run on. Any other value
 * of XPBD_NUM_THREADS gives 0: the default executor then has no workers,
 * and a threaded step refuses it (XPBD_FIELD_EXECUTOR_WORKER_COUNT) rather
 * than run on some other count. */
static uint32_t xpbd_executor_threads(void)
{
    const char *s = getenv("XPBD_NUM_THREADS");
    if (s) {
        unsigned long v = 0;
        const char *c = s;
        for (; *c >= '0' && *c <= '9'; ++c)
            if (v <= POOL_THREADS_MAX)
                v = v * 10u + (unsigned long)(*c - '0');
        if (c == s || *c != '\0' || v == 0u)
            return 0u;
        return v > POOL_THREADS_MAX + 1ul ? POOL_THREADS_MAX + 1u : (uint32_t)v;
    }
    long n = 0;
#ifdef CPU_COUNT
    cpu_set_t set;
    if (xpbd_executor_process_cpus(&set))
        n = CPU_COUNT(&set);
#endif
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > (long)POOL_THREADS_MAX + 1 ? POOL_THREADS_MAX + 1u : (uint32_t)n;
}

static void xpbd_executor_init(void)
{
    xpbd_executor_pooled.worker_count = xpbd_executor_threads();
    xpbd_executor_pooled.user_ctx = &xpbd_executor_pool;
    xpbd_executor_pooled.finish = xpbd_executor_finish;
    xpbd_executor_pooled.enqueue = xpbd_executor_enqueue;
}

const xpbd_executor *xpbd_executor_default(void)
{
    if (pthread_once(&xpbd_executor_once, xpbd_executor_init) != 0)
        return NULL;
    return &xpbd_executor_pooled;
}
