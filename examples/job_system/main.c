/* SPDX-License-Identifier: MIT */
/* job_system: the step on a host's own threads, through xpbd_executor.
 *
 * A small pthread pool stands in for an engine's job system. The step calls
 * it as xpbd/executor.h says: one enqueue() of a range task per step (range
 * r is member r of a team that stays together for the whole step), then
 * finish(). The pool's threads claim ranges in order, the caller helps in
 * finish(); member 0 is whoever claims it first, the step's own thread
 * included. The same cloth stepped with threads = 1 and threads = 3 (two
 * pool threads and the caller) must be bit-identical (memcmp), or exit 1. */
#include <xpbd/xpbd.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { POOL_THREADS = 2, N = 128, FRAMES = 5 };

/* ---- the pool: one job in flight at a time (the step waits for each) ---- */
typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;      /* a job was posted / the job is done */
    pthread_t thread[POOL_THREADS];
    int quit;
    unsigned long posted;           /* jobs posted so far: the threads' cue */
    xpbd_range_task *task;          /* the job: ranges of `length` items of [0, count) */
    void *task_ctx;
    uint32_t count, length, ranges, workers;
    uint32_t next, joined, done;    /* ranges claimed, workers joined, ranges done */
} pool;

/* Runs ranges of the job until none is left, as worker `joined` (at most
 * `workers` threads join a job). Called with the lock held. */
static void help(pool *pl)
{
    if (pl->joined >= pl->workers)
        return;
    const uint32_t worker = pl->joined++;
    while (pl->next < pl->ranges) {
        const uint32_t begin = pl->next++ * pl->length;
        const uint32_t end = pl->count - begin < pl->length ? pl->count : begin + pl->length;
        xpbd_range_task *task = pl->task;
        void *ctx = pl->task_ctx;
        pthread_mutex_unlock(&pl->lock);
        task(begin, end, worker, ctx); /* a team member: returns at the step's end */
        pthread_mutex_lock(&pl->lock);
        if (++pl->done == pl->ranges)
            pthread_cond_broadcast(&pl->idle);
    }
}

static void *pool_thread(void *arg)
{
    pool *pl = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&pl->lock);
    while (!pl->quit) {
        if (pl->posted == seen) {
            pthread_cond_wait(&pl->wake, &pl->lock);
            continue;
        }
        seen = pl->posted;
        help(pl);
    }
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

/* xpbd_executor.enqueue: post the job, wake the threads, return at once. */
static void *pool_enqueue(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                          uint32_t workers, void *task_ctx, void *user_ctx)
{
    pool *pl = user_ctx;
    if (count == 0)
        return NULL; /* nothing to run: done "inline" */
    pthread_mutex_lock(&pl->lock);
    pl->task = task;
    pl->task_ctx = task_ctx;
    pl->count = count;
    pl->length = min_range ? min_range : 1;
    pl->ranges = (count + pl->length - 1) / pl->length;
    pl->workers = workers;
    pl->next = pl->joined = pl->done = 0;
    pl->posted++;
    pthread_cond_broadcast(&pl->wake);
    pthread_mutex_unlock(&pl->lock);
    return pl;
}

/* xpbd_executor.finish: the caller helps with what is left, then waits. */
static void pool_finish(void *handle, void *user_ctx)
{
    (void)user_ctx;
    pool *pl = handle;
    pthread_mutex_lock(&pl->lock);
    help(pl);
    while (pl->done < pl->ranges)
        pthread_cond_wait(&pl->idle, &pl->lock);
    pthread_mutex_unlock(&pl->lock);
}

/* ---- the cloth: N x N, row 0 pinned ------------------------------------- */
/* Steps a fresh cloth FRAMES frames; out (10 N^2 floats) receives its ten
 * particle arrays (x, y, z, px, ..., w). Returns the last status. */
static xpbd_status step_cloth(uint32_t threads, const xpbd_executor *ex, float *out)
{
    const xpbd_cloth_desc desc = {.nx = N, .ny = N, .spacing = 0.02, .origin = {0, 1, 0}};
    xpbd_mesh_counts k = {0};
    xpbd_status st = xpbd_mesh_cloth(&desc, &k, NULL);
    const size_t n = k.particles, m = k.edges + k.shear;
    float *f = calloc(13 * n + 2 * m, sizeof *f); /* particles, mesh xyz, rest, compliance */
    uint32_t *pairs = calloc(4 * m, sizeof *pairs); /* mesh pairs, then i0 and i1 */
    if (st == XPBD_OK && (!f || !pairs))
        st = XPBD_ERR_NOMEM;
    xpbd_particles_f32 p;
    xpbd_distance_set_f32 set = {0};
    if (st == XPBD_OK) {
        float *xyz = f + 10 * n, *rest = xyz + 3 * n, *compliance = rest + m;
        uint32_t *i0 = pairs + 2 * m, *i1 = i0 + m;
        const xpbd_mesh_out mesh = {.xyz32 = xyz, .edges = pairs, .shear = pairs + 2 * k.edges,
                                    .capacity = k};
        xpbd_mesh_cloth(&desc, NULL, &mesh);
        xpbd_particles_bind_f32(&p, n, f, n); /* x at f, y at f + n, ... w at f + 9n */
        for (size_t i = 0; i < n; ++i) {
            p.x[i] = xyz[3 * i], p.y[i] = xyz[3 * i + 1], p.z[i] = xyz[3 * i + 2];
            p.w[i] = i < N ? 0 : 100; /* row 0 pinned, 10 g elsewhere */
        }
        xpbd_mesh_rest_lengths_f32(xyz, m, pairs, rest);
        for (size_t e = 0; e < m; ++e)
            i0[e] = pairs[2 * e], i1[e] = pairs[2 * e + 1], compliance[e] = 1e-6f;
        st = xpbd_distance_set_build_f32(&set, n, m, i0, i1, rest, compliance, NULL, NULL);
    }
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    cfg.threads = threads; /* 1: serial on this thread, no enqueue */
    cfg.executor = ex;
    const size_t bytes = xpbd_step_scratch_bytes_f32(n, set.slots);
    void *scratch = st == XPBD_OK ? malloc(bytes) : NULL;
    if (st == XPBD_OK && !scratch)
        st = XPBD_ERR_NOMEM;
    for (int frame = 0; frame < FRAMES && st == XPBD_OK; ++frame)
        st = xpbd_step_f32(&cfg, 1.0 / 60, &p, &set, scratch, bytes, NULL);
    if (st == XPBD_OK)
        memcpy(out, f, 10 * n * sizeof *f);
    free(scratch);
    xpbd_distance_set_free_f32(&set);
    free(pairs);
    free(f);
    return st;
}

int main(void)
{
    static pool pl = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
                      .idle = PTHREAD_COND_INITIALIZER};
    for (int t = 0; t < POOL_THREADS; ++t)
        if (pthread_create(&pl.thread[t], NULL, pool_thread, &pl) != 0)
            return 1;
    /* the pool's threads and the caller, who helps in finish() */
    const xpbd_executor ex = {pool_enqueue, pool_finish, POOL_THREADS + 1, &pl};

    static float serial[10 * N * N], team[10 * N * N];
    const xpbd_status s1 = step_cloth(1, &ex, serial);
    const unsigned long jobs1 = pl.posted;
    const xpbd_status s3 = step_cloth(POOL_THREADS + 1, &ex, team);
    const unsigned long jobs3 = pl.posted - jobs1;

    pthread_mutex_lock(&pl.lock);
    pl.quit = 1;
    pthread_cond_broadcast(&pl.wake);
    pthread_mutex_unlock(&pl.lock);
    for (int t = 0; t < POOL_THREADS; ++t)
        pthread_join(pl.thread[t], NULL);

    const int same = s1 == XPBD_OK && s3 == XPBD_OK && memcmp(serial, team, sizeof team) == 0;
    printf("job_system: %d x %d cloth, %d frames: threads 1 %s (%lu jobs), threads %d %s "
           "(%lu jobs on the pool)\n", N, N, FRAMES, xpbd_status_str(s1), jobs1,
           POOL_THREADS + 1, xpbd_status_str(s3), jobs3);
    printf("job_system: particles %s\n", same ? "bit-identical" : "DIFFER");
    /* a world this size is at most one job per step on the pool; after a
     * step whose team stalled the next 1, 2, 4, ... up to 128 steps make
     * none (xpbd/executor.h), so even a pool whose every step stalls gets
     * the first step and one after each rest */
    unsigned long least = 0;
    for (unsigned long step = 1, rest = 1; step <= FRAMES; step += 1 + rest) {
        ++least;
        if (step > 1)
            rest = rest < 128 ? 2 * rest : 128;
    }
    printf("job_system: %lu to %d jobs allowed on the pool\n", least, FRAMES);
    return same && jobs1 == 0 && jobs3 >= least && jobs3 <= FRAMES ? 0 : 1;
}
