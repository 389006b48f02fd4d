/* SPDX-License-Identifier: MIT */
/* The step at any thread count: the world scenes (a pinned cloth with
 * bending, tethers and relative damping under XPBD, PBD and springs; a
 * contact pile on a plane with a sleeping half, in the substep and the
 * lesson order; a tetrahedral box; a step that diverges and must roll back)
 * run with threads = 2, 3, 4 and 7 through the default executor and through
 * host executors on plain pthreads (one whose caller helps in finish(), one
 * whose threads are busy elsewhere for 3 ms before they take any range),
 * on every ISA this CPU runs, in both
 * precisions. Particles, lambdas, contact sets, plane impulses, counters and
 * statuses must equal the threads = 1 run bit for bit (memcmp).
 *
 * The scenes are just large enough that every stage forks (colours of more
 * than 1024 constraints, more than 4096 particles); XPBD_TEST_THREADS_FRAMES
 * (default 2) sets how many frames each run steps, XPBD_TEST_THREADS_QUICK
 * a reduced matrix (below). */
#if !defined(XPBD_REAL_F32) && !defined(XPBD_REAL_F64)
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "test.h"
#include "scenes.h"
#include "exec.h" /* xpbd__team_stats: the team's counts in this test build */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* ---- a host executor on plain pthreads -----------------------------------
 * enqueue cuts [0, count) into ranges of min_range items (so more ranges
 * than workers), starts min(workers, ranges) threads that take the ranges
 * in reverse order, strided by the thread index; finish joins them. */
#define TT_HOST_WORKERS 8u

typedef struct tt_job {
    xpbd_range_task *task;
    void *ctx;
    uint32_t count, length, ranges, threads;
    int defer_first;
    long busy_ns;
    pthread_t thread[TT_HOST_WORKERS];
    uint32_t index[TT_HOST_WORKERS];
} tt_job;

typedef struct tt_host {
    tt_job job; /* one job at a time: the step waits for each */
    unsigned long enqueued;
    int defer_first; /* range 0 waits for finish(), run there on the caller */
    long busy_ns;    /* the threads are busy elsewhere this long before any range */
} tt_host;

typedef struct tt_arg {
    tt_job *job;
    uint32_t worker;
} tt_arg;

static tt_arg tt_args[TT_HOST_WORKERS];

static void *tt_worker(void *p)
{
    const tt_arg *a = p;
    tt_job *j = a->job;
    if (j->busy_ns > 0) {
        const struct timespec busy = {0, j->busy_ns};
        nanosleep(&busy, NULL);
    }
    for (uint32_t r = a->worker; r < j->ranges; r += j->threads) {
        const uint32_t k = j->ranges - 1 - r;
        if (k == 0 && j->defer_first)
            continue;
        const uint32_t b = k * j->length;
        const uint32_t e = j->count - b < j->length ? j->count : b + j->length;
        j->task(b, e, a->worker, j->ctx);
    }
    return NULL;
}

static void *tt_enqueue(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                        uint32_t workers, void *task_ctx, void *user_ctx)
{
    tt_host *h = user_ctx;
    tt_job *j = &h->job;
    h->enqueued++;
    j->task = task;
    j->ctx = task_ctx;
    j->defer_first = h->defer_first;
    j->busy_ns = h->busy_ns;
    j->count = count;
    j->length = min_range ? min_range : 1;
    j->ranges = (count + j->length - 1) / j->length;
    j->threads = workers < j->ranges ? workers : j->ranges;
    if (j->threads > TT_HOST_WORKERS)
        j->threads = TT_HOST_WORKERS;
    for (uint32_t t = 0; t < j->threads; ++t) {
        tt_args[t].job = j;
        tt_args[t].worker = t;
        if (pthread_create(&j->thread[t], NULL, tt_worker, &tt_args[t]) != 0) {
            /* no thread: this worker's ranges run here */
            j->thread[t] = pthread_self();
            tt_worker(&tt_args[t]);
        }
    }
    return j;
}

static void tt_finish(void *handle, void *user_ctx)
{
    (void)user_ctx;
    tt_job *j = handle;
    if (j->defer_first) /* a caller that helps with the queue while it waits */
        j->task(0, j->count < j->length ? j->count : j->length, 0, j->ctx);
    for (uint32_t t = 0; t < j->threads; ++t)
        if (!pthread_equal(j->thread[t], pthread_self()))
            pthread_join(j->thread[t], NULL);
}

static tt_host tt_host_state;
static const xpbd_executor tt_host_executor = {tt_enqueue, tt_finish, TT_HOST_WORKERS,
                                               &tt_host_state};
/* the same with range 0 left queued until finish(): the step's caller
 * claims member 0 itself right after enqueue() */
static tt_host tt_deferred_state = {.defer_first = 1};
static const xpbd_executor tt_deferred_executor = {tt_enqueue, tt_finish, TT_HOST_WORKERS,
                                                   &tt_deferred_state};
/* the same, its threads busy elsewhere for 3 ms after each enqueue: the
 * caller drives the step alone until they come (in threads.dismiss's
 * build; the threads build waits for the whole team first) */
static tt_host tt_busy_state = {.defer_first = 1, .busy_ns = 3000000L};
static const xpbd_executor tt_busy_executor = {tt_enqueue, tt_finish, TT_HOST_WORKERS,
                                               &tt_busy_state};

static const uint32_t tt_threads[] = {2, 3, 4, 7};

/* XPBD_TEST_THREADS_QUICK=1 (the ThreadSanitizer build): one frame, the
 * best ISA only, threads 2 and 7: every stage still forks on both
 * executors, in a fraction of the time. */
static int tt_quick(void)
{
    const char *s = getenv("XPBD_TEST_THREADS_QUICK");
    return s && atoi(s) > 0;
}

static int tt_frames(void)
{
    const char *s = getenv("XPBD_TEST_THREADS_FRAMES");
    const int f = s ? atoi(s) : 0;
    return f > 0 ? f : tt_quick() ? 1 : 2;
}

/* The ISAs this build and CPU run (quick: the best one). */
static int tt_isa_runs(xpbd_isa isa)
{
    xpbd_isa best;
    if (tt_quick())
        return xpbd_isa_resolve(XPBD_ISA_AUTO, &best) == XPBD_OK && best == isa;
    return xpbd_kernels_get_f32(isa) != NULL;
}

static int tt_threads_run(size_t t)
{
    return !tt_quick() || tt_threads[t] == 2 || tt_threads[t] == 7;
}

static const xpbd_isa tt_isas[] = {XPBD_ISA_SCALAR, XPBD_ISA_SSE4, XPBD_ISA_AVX2,
                                   XPBD_ISA_AVX512, XPBD_ISA_NEON};

typedef enum tt_kind {
    TT_CLOTH_XPBD,
    TT_CLOTH_PBD,
    TT_CLOTH_SPRINGS,
    TT_PILE,
    TT_PILE_LESSON,
    TT_BOX,
    TT_DIVERGE,
    TT_CLOTH_RUNS,
    TT_CLOTH_REGIONS,
    TT_CLOTH_REGIONS_PBD,
    TT_KINDS
} tt_kind;

static const char *const tt_names[TT_KINDS] = {"cloth xpbd", "cloth pbd", "cloth springs",
                                               "pile",       "pile lesson", "tet box",
                                               "diverging cloth", "cloth xpbd, runs",
                                               "cloth xpbd, 4 regions",
                                               "cloth pbd, runs, 7 regions"};

/* A run's outcome as bytes: every array the step writes and the counters. */
typedef struct tt_blob {
    unsigned char *b;
    size_t size, cap;
} tt_blob;

static void tt_put(tt_blob *o, const void *src, size_t bytes)
{
    if (o->size + bytes > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->size + bytes)
            cap *= 2;
        unsigned char *nb = realloc(o->b, cap);
        if (!nb)
            abort();
        o->b = nb;
        o->cap = cap;
    }
    if (bytes)
        memcpy(o->b + o->size, src, bytes);
    o->size += bytes;
}

static void tt_put_counters(tt_blob *o, const xpbd_step_counters *k)
{
    const uint64_t v[] = {k->protocol,   (uint64_t)k->isa, k->substeps,   k->iterations,
                          k->colours,    k->overflow,      k->solves,     k->skipped,
                          (uint64_t)k->status, (uint64_t)k->bad_index, (uint64_t)k->bad_part,
                          (uint64_t)k->bad_field, k->contacts, k->contacts_dropped,
                          k->contact_hits};
    tt_put(o, v, sizeof v);
    tt_put(o, &k->max_residual, sizeof k->max_residual);
}

#define XPBD_REAL_F32
#include "test_threads.c"
#define XPBD_REAL_F64
#include "test_threads.c"

static void tt_all(int f64)
{
    const int frames = tt_frames();
    for (int kind = 0; kind < TT_KINDS; ++kind) {
        if (f64)
            tt_scene_all_f64((tt_kind)kind, frames);
        else
            tt_scene_all_f32((tt_kind)kind, frames);
    }
}

/* Every stage forked: the host executor was handed work. */
static void threads_f32(void)
{
    const unsigned long before = tt_host_state.enqueued;
    tt_all(0);
    ENSURE(tt_host_state.enqueued > before);
}

static void threads_f64(void)
{
    tt_all(1);
}

/* A host executor that cannot run anything is refused before the step
 * touches the world, naming the executor's field at every thread count
 * (threads = 1 uses no executor, but one that cannot run is refused all the
 * same). */
static void threads_bad_executor(void)
{
    const xpbd_executor broken = {NULL, tt_finish, 4, NULL};
    const xpbd_executor unfinished = {tt_enqueue, NULL, 4, &tt_host_state};
    const xpbd_executor none = {tt_enqueue, tt_finish, 0, &tt_host_state};
    float a[10] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1};
    xpbd_particles_f32 p = {1, a, a + 1, a + 2, a + 3, a + 4, a + 5, a + 6, a + 7, a + 8, a + 9};
    float scratch[64];
    xpbd_step_config cfg = xpbd_step_config_default();
    const xpbd_executor *bad[3] = {&broken, &unfinished, &none};
    const xpbd_field field[3] = {XPBD_FIELD_EXECUTOR_ENQUEUE, XPBD_FIELD_EXECUTOR_FINISH,
                                 XPBD_FIELD_EXECUTOR_WORKER_COUNT};
    const uint32_t threads[3] = {1, 4, 0};
    for (int k = 0; k < 3; ++k)
        for (int t = 0; t < 3; ++t) {
            cfg.executor = bad[k];
            cfg.threads = threads[t];
            float before[10];
            memcpy(before, a, sizeof a);
            xpbd_step_counters c;
            ENSURE_STATUS(xpbd_step_f32(&cfg, 0.01, &p, NULL, scratch, sizeof scratch, &c),
                          XPBD_ERR_CONFIG);
            ENSURE_INT(c.bad_part, XPBD_PART_CONFIG);
            ENSURE_INT(c.bad_field, field[k]);
            ENSURE_INT(c.bad_index, SIZE_MAX);
            SAME_BYTES(a, before, sizeof a, "particle after a refused executor");
        }
    cfg.executor = NULL;
    cfg.threads = 0; /* all the default executor has */
    ENSURE_STATUS(xpbd_step_f32(&cfg, 0.01, &p, NULL, scratch, sizeof scratch, NULL), XPBD_OK);
}

/* The time step rule (xpbd/step.h): h_s = h / substeps in the set's
 * precision must be > 0 with 1/h_s^2 finite. */
static void threads_timestep_rule(void)
{
    const double hs[] = {4.9406564584124654e-324 /* denormal */, 1e-20, 1e-19, 1e-155, 1e-154};
    const xpbd_status want32[] = {XPBD_ERR_TIMESTEP, XPBD_ERR_TIMESTEP, XPBD_OK, XPBD_ERR_TIMESTEP,
                                  XPBD_ERR_TIMESTEP};
    const xpbd_status want64[] = {XPBD_ERR_TIMESTEP, XPBD_OK, XPBD_OK, XPBD_ERR_TIMESTEP, XPBD_OK};
    float a[10] = {0, 1, 0, 0, 1, 0, 0.5f, 0, 0, 1};
    double d[10] = {0, 1, 0, 0, 1, 0, 0.5, 0, 0, 1};
    xpbd_particles_f32 p = {1, a, a + 1, a + 2, a + 3, a + 4, a + 5, a + 6, a + 7, a + 8, a + 9};
    xpbd_particles_f64 q = {1, d, d + 1, d + 2, d + 3, d + 4, d + 5, d + 6, d + 7, d + 8, d + 9};
    double scratch[64];
    xpbd_step_config cfg = xpbd_step_config_default();
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; ++k) {
        float a0[10];
        double d0[10];
        memcpy(a0, a, sizeof a);
        memcpy(d0, d, sizeof d);
        ENSURE_STATUS(xpbd_step_f32(&cfg, hs[k], &p, NULL, scratch, sizeof scratch, NULL),
                      want32[k]);
        ENSURE_STATUS(xpbd_step_f64(&cfg, hs[k], &q, NULL, scratch, sizeof scratch, NULL),
                      want64[k]);
        if (want32[k] != XPBD_OK)
            SAME_BYTES(a, a0, sizeof a, "f32 particle after a refused h");
        if (want64[k] != XPBD_OK)
            SAME_BYTES(d, d0, sizeof d, "f64 particle after a refused h");
    }
    /* two substeps halve h_s: 1e-19 s in f32 becomes too small */
    cfg.substeps = 2;
    ENSURE_STATUS(xpbd_step_f32(&cfg, 1e-19, &p, NULL, scratch, sizeof scratch, NULL),
                  XPBD_ERR_TIMESTEP);
    ENSURE_STATUS(xpbd_step_f32(&cfg, 2e-19, &p, NULL, scratch, sizeof scratch, NULL), XPBD_OK);
}

/* measure_residual is 0 or 1; anything else is a configuration error. */
static void threads_measure_residual(void)
{
    double d[10] = {0, 1, 0, 0, 1, 0, 0.5, 0, 0, 1};
    xpbd_particles_f64 q = {1, d, d + 1, d + 2, d + 3, d + 4, d + 5, d + 6, d + 7, d + 8, d + 9};
    double scratch[64];
    xpbd_step_config cfg = xpbd_step_config_default();
    const int values[] = {0, 1, 7, -1, 2};
    const xpbd_status want[] = {XPBD_OK, XPBD_OK, XPBD_ERR_CONFIG, XPBD_ERR_CONFIG,
                                XPBD_ERR_CONFIG};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; ++k) {
        cfg.measure_residual = values[k];
        double d0[10];
        memcpy(d0, d, sizeof d);
        xpbd_step_counters c;
        ENSURE_STATUS(xpbd_step_f64(&cfg, 0.01, &q, NULL, scratch, sizeof scratch, &c), want[k]);
        ENSURE_STATUS(c.status, want[k]);
        ENSURE_INT(c.bad_part, want[k] == XPBD_OK ? XPBD_PART_NONE : XPBD_PART_CONFIG);
        ENSURE_INT(c.bad_field,
                   want[k] == XPBD_OK ? XPBD_FIELD_NONE : XPBD_FIELD_MEASURE_RESIDUAL);
        if (want[k] != XPBD_OK)
            SAME_BYTES(d, d0, sizeof d, "particle after a refused measure_residual");
    }
}

static void threads_bad_input(void)
{
    tt_bad_input_f32();
    tt_bad_input_f64();
}

/* The team did what these tests are for (the counts of team.c's test
 * builds, XPBD__TEAM_STATS): 16 frames of the cloth at 4 threads on the
 * default executor and on the host's pthreads, in each precision, ran
 * teams whose stages were cut for several members and of which members
 * other than the driver ran slices (a pool that never started a thread, or
 * a team that never shared a stage, fails here: the results alone cannot
 * tell, being the same by design). On the build whose every wait is a
 * stall (threads.dismiss), teams were also dismissed in their step and
 * later steps rested. Counted over the 64 steps, not per step: which step
 * a member of a loaded machine joins in is timing. */
static void threads_team_counts(void)
{
    xpbd__team_stats a, b;
    xpbd__team_stats_get(&a);
    tt_team_steps_f32(16);
    tt_team_steps_f64(16);
    xpbd__team_stats_get(&b);
    ENSURE(b.teams > a.teams);
    ENSURE(b.shared_stages > a.shared_stages);
    ENSURE(b.member_slices > a.member_slices);
#ifdef XPBD__TEAM_DISMISS_BUILD
    ENSURE(b.dismissed > a.dismissed);
    ENSURE(b.rested > a.rested);
#else
    /* every step starts with its whole team (XPBD__TEAM_WAIT_ALL) */
    ENSURE(b.rested == a.rested);
#endif
}

const xt_test xt_tests_threads[] = {
    {"threads.bad_input", threads_bad_input},
    {"threads.f32", threads_f32},
    {"threads.f64", threads_f64},
    {"threads.bad_executor", threads_bad_executor},
    {"threads.timestep_rule", threads_timestep_rule},
    {"threads.measure_residual", threads_measure_residual},
    {"threads.team_counts", threads_team_counts},
    {NULL, NULL},
};

#else /* XPBD_REAL_F32 or XPBD_REAL_F64: the scenes, once per precision */
#include "precision.h"

typedef struct SFX(tt_scene) {
    size_t n;
    R *a; /* 10 n: x y z px py pz vx vy vz w */
    R *radius, *impulse, *tlen;
    uint32_t *anchor, *ci0, *ci1;
    SFX(xpbd_particles) p;
    SFX(xpbd_distance_set) dist;
    SFX(xpbd_quad_set) tets, bends;
    xpbd_contact_set cs;
    xpbd_plane ground;
    size_t begin[17];
    uint8_t asleep[16];
    SFX(xpbd_world) w;
    void *scratch;
} SFX(tt_scene);

static int SFX(tt_alloc)(SFX(tt_scene) *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->a = calloc(10 * n, sizeof(R));
    if (!s->a)
        return 0;
    R *a = s->a;
    s->p = (SFX(xpbd_particles)){n,         a,         a + n,     a + 2 * n, a + 3 * n, a + 4 * n,
                                 a + 5 * n, a + 6 * n, a + 7 * n, a + 8 * n, a + 9 * n};
    for (size_t i = 0; i < n; ++i)
        s->p.w[i] = 1;
    s->w.particles = &s->p;
    return 1;
}

static void SFX(tt_free)(SFX(tt_scene) *s)
{
    free(s->a);
    free(s->radius);
    free(s->impulse);
    free(s->tlen);
    free(s->anchor);
    free(s->ci0);
    free(s->ci1);
    free(s->scratch);
    SFX(xpbd_distance_set_free)(&s->dist);
    SFX(xpbd_quad_set_free)(&s->tets);
    SFX(xpbd_quad_set_free)(&s->bends);
}

/* A 64 x 64 cloth of 2 cm hanging from two corners: stretch and shear
 * edges (with runs: coloured by xpbd_colouring_options.runs; regions: cut
 * into that many regions), bending, tethers to the nearer pin, one body
 * relative-damped. */
static int SFX(tt_cloth)(SFX(tt_scene) *s, int springs, int runs, uint32_t regions)
{
    const uint32_t N = 64;
    xs_mesh m;
    const double o[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, -1, 0};
    if (!xs_mesh_cloth(&m, N, N, 0.02, o, u, v))
        return 0;
    uint32_t *edges = xs_mesh_all_edges(&m);
    const size_t n = m.k.particles, ne = m.k.edges + m.k.shear;
    int ok = edges && SFX(tt_alloc)(s, n);
    R *xyz = ok ? malloc(3 * n * sizeof *xyz) : NULL;
    R *rest = ok ? malloc((ne + 1) * sizeof *rest) : NULL;
    R *comp = ok ? malloc((ne + m.k.bends + 1) * sizeof *comp) : NULL;
    s->anchor = ok ? malloc(n * sizeof *s->anchor) : NULL;
    s->tlen = ok ? malloc(n * sizeof *s->tlen) : NULL;
    ok = ok && xyz && rest && comp && s->anchor && s->tlen;
    for (size_t i = 0; ok && i < n; ++i) {
        for (int k = 0; k < 3; ++k)
            xyz[3 * i + (size_t)k] = (R)m.xyz[3 * i + (size_t)k];
        s->p.x[i] = xyz[3 * i];
        s->p.y[i] = xyz[3 * i + 1];
        s->p.z[i] = xyz[3 * i + 2] + (R)(0.001 * (double)(i % 7));
        const uint32_t pin = i % N < N / 2 ? 0 : N - 1;
        s->anchor[i] = (uint32_t)i == pin ? (uint32_t)i : pin;
        const double dx = m.xyz[3 * i] - m.xyz[3 * pin], dy = m.xyz[3 * i + 1] - m.xyz[3 * pin + 1];
        s->tlen[i] = (R)(1.02 * sqrt(dx * dx + dy * dy));
    }
    if (ok) {
        s->p.w[0] = s->p.w[N - 1] = 0;
        SFX(xpbd_mesh_rest_lengths)(xyz, ne, edges, rest);
        for (size_t e = 0; e < ne + m.k.bends; ++e)
            comp[e] = (R)(springs ? 1e-2 : e < ne ? 1e-6 : 1e-2);
        uint32_t *i0 = malloc((ne + 1) * sizeof *i0), *i1 = malloc((ne + 1) * sizeof *i1);
        ok = i0 && i1;
        for (size_t e = 0; ok && e < ne; ++e) {
            i0[e] = edges[2 * e];
            i1[e] = edges[2 * e + 1];
        }
        const xpbd_colouring_options opt = {.runs = runs, .regions = regions};
        ok = ok && SFX(xpbd_distance_set_build)(&s->dist, n, ne, i0, i1, rest, comp, &opt,
                                                 NULL) == XPBD_OK;
        free(i0);
        free(i1);
        ok = ok && (springs || SFX(xpbd_bend_set_build)(&s->bends, n, xyz, m.k.bends, m.bends,
                                                         comp + ne, NULL, NULL) == XPBD_OK);
    }
    if (ok) {
        s->w.constraints = &s->dist;
        if (!springs) {
            s->w.bends = &s->bends;
            s->w.tether_anchor = s->anchor;
            s->w.tether_length = s->tlen;
            s->begin[0] = 0;
            s->begin[1] = n;
            s->w.body_begin = s->begin;
            s->w.body_count = 1;
        }
    }
    free(xyz);
    free(rest);
    free(comp);
    free(edges);
    xs_mesh_free(&m);
    return ok;
}

/* 16^3 particles of radius 5 cm on a jittered lattice of 9.5 cm above the
 * plane y = 0, moving; each layer a body, the lower eight asleep. */
static int SFX(tt_pile)(SFX(tt_scene) *s)
{
    const size_t N = 16, n = N * N * N, maxc = 8 * n;
    if (!SFX(tt_alloc)(s, n))
        return 0;
    const size_t slots = xpbd_contact_slots(maxc);
    s->radius = malloc(n * sizeof *s->radius);
    s->impulse = malloc(n * sizeof *s->impulse);
    s->ci0 = malloc(slots * sizeof *s->ci0);
    s->ci1 = malloc(slots * sizeof *s->ci1);
    if (!s->radius || !s->impulse || !s->ci0 || !s->ci1 ||
        xpbd_contact_set_init(&s->cs, s->ci0, s->ci1, slots, maxc) != XPBD_OK)
        return 0;
    xt_rng rng = {0x7417ead5ull};
    for (size_t i = 0; i < n; ++i) {
        const size_t ix = i % N, iy = (i / N) % N, iz = i / (N * N);
        s->p.x[i] = (R)(0.095 * (double)ix + xt_range(&rng, -0.005, 0.005));
        s->p.y[i] = (R)(0.04 + 0.095 * (double)iz + xt_range(&rng, -0.005, 0.005));
        s->p.z[i] = (R)(0.095 * (double)iy + xt_range(&rng, -0.005, 0.005));
        s->p.vx[i] = (R)xt_range(&rng, -0.5, 0.5);
        s->p.vy[i] = (R)xt_range(&rng, -2, 0.5);
        s->p.w[i] = (R)xt_range(&rng, 0.5, 2);
        s->radius[i] = (R)0.05;
    }
    s->ground.n[0] = 0, s->ground.n[1] = 1, s->ground.n[2] = 0, s->ground.d = 0;
    s->w.radius = s->radius;
    s->w.contacts = &s->cs;
    s->w.planes = &s->ground;
    s->w.plane_count = 1;
    s->w.plane_impulse = s->impulse;
    for (size_t b = 0; b <= N; ++b)
        s->begin[b] = b * N * N; /* one body per layer */
    for (size_t b = 0; b < N; ++b)
        s->asleep[b] = b < N / 2;
    s->w.body_begin = s->begin;
    s->w.body_count = (uint32_t)N;
    s->w.body_asleep = s->asleep;
    return 1;
}

/* A 20^3-cube tetrahedral box (5 tets per cube), squashed 5% and spinning. */
static int SFX(tt_box)(SFX(tt_scene) *s)
{
    xs_mesh m;
    const double o[3] = {0, 0, 0};
    if (!xs_mesh_box(&m, 20, 0.05, o, 5))
        return 0;
    const size_t n = m.k.particles;
    int ok = SFX(tt_alloc)(s, n);
    R *xyz = ok ? malloc(3 * n * sizeof *xyz) : NULL;
    R *comp = ok ? malloc((m.k.tets + 1) * sizeof *comp) : NULL;
    ok = ok && xyz && comp;
    for (size_t i = 0; ok && i < n; ++i) {
        for (int k = 0; k < 3; ++k)
            xyz[3 * i + (size_t)k] = (R)m.xyz[3 * i + (size_t)k];
        s->p.x[i] = xyz[3 * i];
        s->p.y[i] = (R)(0.95 * m.xyz[3 * i + 1]);
        s->p.z[i] = xyz[3 * i + 2];
        s->p.vx[i] = (R)(-(m.xyz[3 * i + 2] - 0.5));
        s->p.vz[i] = (R)(m.xyz[3 * i] - 0.5);
    }
    for (size_t t = 0; ok && t < m.k.tets; ++t)
        comp[t] = (R)1e-7;
    ok = ok && SFX(xpbd_tet_set_build)(&s->tets, n, xyz, m.k.tets, m.tets, comp, NULL, NULL) ==
                   XPBD_OK;
    if (ok)
        s->w.tets = &s->tets;
    free(xyz);
    free(comp);
    xs_mesh_free(&m);
    return ok;
}

static size_t SFX(tt_make)(SFX(tt_scene) *s, tt_kind kind, xpbd_step_config *cfg)
{
    memset(s, 0, sizeof *s);
    *cfg = xpbd_step_config_default();
    cfg->substeps = 2;
    cfg->iterations = 2;
    int ok = 0;
    switch (kind) {
    case TT_CLOTH_XPBD:
    case TT_DIVERGE:
    case TT_CLOTH_RUNS:
        ok = SFX(tt_cloth)(s, 0, kind == TT_CLOTH_RUNS, 0);
        cfg->relative_damping = 0.05;
        cfg->damping = 0.01;
        if (ok && kind == TT_DIVERGE) /* a particle far out: the stretch overflows */
            s->p.x[2100] = (R)(R_F64 ? 1e200 : 1e30);
        break;
    case TT_CLOTH_REGIONS:
        ok = SFX(tt_cloth)(s, 0, 0, 4);
        cfg->relative_damping = 0.05;
        ok = ok && s->dist.regions == 4;
        cfg->substeps = 3; /* one iteration: the lambdas nobody reads are not written */
        cfg->iterations = 1;
        break;
    case TT_CLOTH_PBD:
    case TT_CLOTH_REGIONS_PBD:
        ok = SFX(tt_cloth)(s, 0, kind == TT_CLOTH_REGIONS_PBD, kind == TT_CLOTH_PBD ? 0 : 7);
        cfg->solver = XPBD_SOLVER_PBD;
        cfg->pbd_stiffness = 0.9;
        break;
    case TT_CLOTH_SPRINGS:
        ok = SFX(tt_cloth)(s, 1, 0, 0);
        cfg->solver = XPBD_SOLVER_SPRINGS;
        cfg->spring_damping = 0.01;
        break;
    case TT_PILE:
    case TT_PILE_LESSON:
        ok = SFX(tt_pile)(s);
        cfg->restitution = 0.3;
        cfg->friction_static = 0.4;
        cfg->friction_dynamic = 0.3;
        cfg->relative_damping = 0.1;
        if (kind == TT_PILE_LESSON) {
            cfg->contact_order = XPBD_CONTACTS_LESSON;
            cfg->relative_damping = 0;
        }
        break;
    case TT_BOX:
        ok = SFX(tt_box)(s);
        cfg->gravity[1] = 0;
        break;
    case TT_KINDS: break;
    }
    if (!ok)
        return 0;
    const size_t slots = s->dist.slots + s->tets.slots + s->bends.slots;
    const size_t bytes =
        SFX(xpbd_world_scratch_bytes)(s->n, slots, s->w.contacts ? s->cs.max_contacts : 0);
    s->scratch = malloc(bytes);
    return s->scratch ? bytes : 0;
}

/* Puts scene s back to its built state (a0: the particle arrays then),
 * steps it `frames` times on isa with threads and executor ex, and appends
 * everything the step wrote to *out. */
static void SFX(tt_run)(SFX(tt_scene) *s, const R *a0, xpbd_step_config cfg, size_t bytes,
                        tt_kind kind, xpbd_isa isa, int frames, uint32_t threads,
                        const xpbd_executor *ex, tt_blob *out)
{
    memcpy(s->a, a0, 10 * s->n * sizeof(R));
    if (s->dist.slots)
        memset(s->dist.lambda, 0, s->dist.slots * sizeof(R));
    if (s->tets.slots)
        memset(s->tets.lambda, 0, s->tets.slots * sizeof(R));
    if (s->bends.slots)
        memset(s->bends.lambda, 0, s->bends.slots * sizeof(R));
    cfg.isa = isa;
    cfg.threads = threads;
    cfg.executor = ex;
    for (int f = 0; f < frames; ++f) {
        xpbd_step_counters k;
        const xpbd_status st =
            SFX(xpbd_world_step)(&cfg, 1.0 / 60, &s->w, s->scratch, bytes, &k);
        tt_put_counters(out, &k);
        if (kind == TT_DIVERGE && threads == 1)
            ENSURE_STATUS(st, XPBD_ERR_DIVERGED);
        else if (kind != TT_DIVERGE && threads == 1 && st != XPBD_OK)
            ENSURE_STATUS(st, XPBD_OK);
    }
    tt_put(out, s->a, 10 * s->n * sizeof(R));
    if (kind == TT_DIVERGE) /* rolled back: exactly the state before */
        SAME_BYTES(s->a, a0, 10 * s->n * sizeof(R), "particles after a diverged step");
    if (s->dist.slots)
        tt_put(out, s->dist.lambda, s->dist.slots * sizeof(R));
    if (s->tets.slots)
        tt_put(out, s->tets.lambda, s->tets.slots * sizeof(R));
    if (s->bends.slots)
        tt_put(out, s->bends.lambda, s->bends.slots * sizeof(R));
    if (s->w.contacts) {
        tt_put(out, s->ci0, s->cs.slots * sizeof *s->ci0);
        tt_put(out, s->ci1, s->cs.slots * sizeof *s->ci1);
        tt_put(out, s->cs.colour_begin, (s->cs.colours + 1) * sizeof *s->cs.colour_begin);
        tt_put(out, s->impulse, s->n * sizeof *s->impulse);
    }
}

/* Scene `kind` on every ISA: threads 2, 3, 4, 7 through the three executors
 * against threads = 1, bit for bit. */
static void SFX(tt_scene_all)(tt_kind kind, int frames)
{
    SFX(tt_scene) s;
    xpbd_step_config cfg;
    const size_t bytes = SFX(tt_make)(&s, kind, &cfg);
    R *a0 = bytes ? malloc(10 * s.n * sizeof *a0) : NULL;
    if (!a0) {
        SFX(tt_free)(&s);
        REQUIRE(a0 != NULL);
    }
    memcpy(a0, s.a, 10 * s.n * sizeof *a0);
    for (size_t i = 0; i < sizeof tt_isas / sizeof tt_isas[0]; ++i) {
        if (!tt_isa_runs(tt_isas[i]))
            continue;
        tt_blob ref = {0};
        SFX(tt_run)(&s, a0, cfg, bytes, kind, tt_isas[i], frames, 1, NULL, &ref);
        for (int ex = 0; ex < 4; ++ex)
            for (size_t t = 0; t < sizeof tt_threads / sizeof tt_threads[0]; ++t) {
                if (!tt_threads_run(t))
                    continue;
                tt_blob got = {0};
                const xpbd_executor *const exs[4] = {NULL, &tt_host_executor,
                                                     &tt_deferred_executor, &tt_busy_executor};
                static const char *const ex_names[4] = {"default", "host", "deferred host",
                                                        "busy host"};
                SFX(tt_run)(&s, a0, cfg, bytes, kind, tt_isas[i], frames, tt_threads[t],
                            exs[ex], &got);
                char what[160];
                snprintf(what, sizeof what, "%s %s %s threads %u %s executor", R_NAME,
                         tt_names[kind], xpbd_isa_name(tt_isas[i]), tt_threads[t],
                         ex_names[ex]);
                ENSURE_INT(got.size, ref.size);
                if (got.size == ref.size)
                    SAME_BYTES(got.b, ref.b, ref.size, what);
                free(got.b);
            }
        free(ref.b);
    }
    free(a0);
    SFX(tt_free)(&s);
}

/* A step of scene s refused with status want naming want_bad in part
 * want_part (no field), on one thread and on four through the default and
 * the host executors: the same counters on all three. */
static void SFX(tt_refused)(SFX(tt_scene) *s, xpbd_step_config cfg, size_t bytes,
                            xpbd_status want, size_t want_bad, xpbd_part want_part)
{
    tt_blob ref = {0};
    for (int e = 0; e < 3; ++e) {
        cfg.threads = e == 0 ? 1 : 4;
        cfg.executor = e == 2 ? &tt_host_executor : NULL;
        xpbd_step_counters cn;
        ENSURE_STATUS(SFX(xpbd_world_step)(&cfg, 1.0 / 60, &s->w, s->scratch, bytes, &cn), want);
        ENSURE_INT(cn.bad_index, want_bad);
        ENSURE_INT(cn.bad_part, want_part);
        ENSURE_INT(cn.bad_field, XPBD_FIELD_NONE);
        tt_blob got = {0};
        tt_put_counters(e ? &got : &ref, &cn);
        if (e) {
            ENSURE_INT(got.size, ref.size);
            if (got.size == ref.size)
                SAME_BYTES(got.b, ref.b, ref.size, "counters of a refused step");
        }
        free(got.b);
    }
    free(ref.b);
}

/* Bad input found by the scans over ranges: the same status and index as
 * the scan in particle order, and nothing written. */
static void SFX(tt_bad_input)(void)
{
    SFX(tt_scene) s;
    xpbd_step_config cfg;
    size_t bytes = SFX(tt_make)(&s, TT_PILE, &cfg);
    if (!bytes) {
        SFX(tt_free)(&s);
        REQUIRE(bytes != 0);
    }
    s.radius[3000] = -1;
    s.p.vy[3500] = (R)NAN;
    s.p.y[3600] = (R)INFINITY;
    const xpbd_status want[3] = {XPBD_ERR_VELOCITY, XPBD_ERR_POSITION, XPBD_ERR_RADIUS};
    const size_t where[3] = {3500, 3600, 3000};
    const xpbd_part part[3] = {XPBD_PART_PARTICLES, XPBD_PART_PARTICLES, XPBD_PART_RADIUS};
    for (int k = 0; k < 3; ++k) {
        for (int e = 0; e < 3; ++e) {
            cfg.threads = e == 0 ? 1 : 4;
            cfg.executor = e == 2 ? &tt_host_executor : NULL;
            xpbd_step_counters c;
            const size_t na = 10 * s.n * sizeof(R);
            unsigned char *before = malloc(na);
            if (before)
                memcpy(before, s.a, na);
            ENSURE_STATUS(SFX(xpbd_world_step)(&cfg, 1.0 / 60, &s.w, s.scratch, bytes, &c),
                          want[k]);
            ENSURE_INT(c.bad_index, where[k]);
            ENSURE_INT(c.bad_part, part[k]);
            ENSURE_INT(c.bad_field, XPBD_FIELD_NONE);
            if (before)
                SAME_BYTES(s.a, before, na, "particles after refused input");
            free(before);
        }
        if (k == 0)
            s.p.vy[3500] = 0;
        if (k == 1)
            s.p.y[3600] = 1;
    }
    SFX(tt_free)(&s);
    bytes = SFX(tt_make)(&s, TT_CLOTH_XPBD, &cfg);
    if (!bytes) {
        SFX(tt_free)(&s);
        REQUIRE(bytes != 0);
    }
    s.tlen[2000] = (R)NAN;
    s.anchor[3000] = (uint32_t)s.n;
    for (int k = 0; k < 2; ++k) {
        SFX(tt_refused)(&s, cfg, bytes, k == 0 ? XPBD_ERR_REST : XPBD_ERR_INDEX,
                        k == 0 ? 2000 : 3000, XPBD_PART_TETHER);
        s.tlen[2000] = 1;
    }
    /* the distance set, validated over slot blocks and colours: a repeat in
     * colour 3 and a bad rest length in colour 5 give the rest (the
     * per-slot checks come first, as in xpbd_distance_set_validate); the
     * repeat alone gives its slot; with a second repeat in colour 6, the
     * lower slot; each on the serial validator's status and slot */
    SFX(xpbd_distance_set) *c = &s.dist;
    REQUIRE(c->colours > 6 && c->colour_size[3] > 5 && c->colour_size[5] > 7 &&
            c->colour_size[6] > 9);
    const uint32_t ra = c->colour_begin[3], rb = ra + 5, bad_rest = c->colour_begin[5] + 7;
    const uint32_t rc = c->colour_begin[6], rd = rc + 9;
    const uint32_t keep_b = c->i1[rb], keep_d = c->i1[rd];
    const R keep_rest = c->rest[bad_rest];
    c->i1[rb] = c->i0[ra];
    c->rest[bad_rest] = -1;
    for (int k = 0; k < 4; ++k) {
        if (k == 1)
            c->rest[bad_rest] = keep_rest;
        if (k == 2)
            c->i1[rd] = c->i0[rc];
        if (k == 3)
            c->i1[rb] = keep_b;
        size_t want_bad = SIZE_MAX;
        const xpbd_status want = SFX(xpbd_distance_set_validate)(c, s.n, (uint32_t *)s.scratch,
                                                                &want_bad);
        ENSURE_STATUS(want, k == 0 ? XPBD_ERR_REST : XPBD_ERR_INDEX);
        ENSURE_INT(want_bad, k == 0 ? bad_rest : k == 3 ? rd : rb);
        SFX(tt_refused)(&s, cfg, bytes, want, want_bad, XPBD_PART_DISTANCE);
    }
    c->i1[rd] = keep_d;
    SFX(tt_free)(&s);
    /* the tetrahedra likewise (per-slot checks over slot blocks, then the
     * repeat check over colours): a repeat in the last colour but one and
     * a non-finite rest volume in the last (far from the first worker's
     * share), then the repeat alone */
    bytes = SFX(tt_make)(&s, TT_BOX, &cfg);
    if (!bytes) {
        SFX(tt_free)(&s);
        REQUIRE(bytes != 0);
    }
    SFX(xpbd_quad_set) *q = &s.tets;
    REQUIRE(q->colours > 4 && q->colour_size[q->colours - 2] > 3 &&
            q->colour_size[q->colours - 1] > 6);
    const uint32_t qa = q->colour_begin[q->colours - 2], qb = qa + 3;
    const uint32_t qbad = q->colour_begin[q->colours - 1] + 6;
    const uint32_t keep_q = q->i3[qb];
    const R keep_qrest = q->rest[qbad];
    q->i3[qb] = q->i0[qa];
    q->rest[qbad] = (R)NAN;
    for (int k = 0; k < 2; ++k) {
        if (k == 1)
            q->rest[qbad] = keep_qrest;
        size_t want_bad = SIZE_MAX;
        const xpbd_status want =
            SFX(xpbd_quad_set_validate)(q, s.n, (uint32_t *)s.scratch, &want_bad);
        ENSURE_STATUS(want, k == 0 ? XPBD_ERR_REST : XPBD_ERR_INDEX);
        ENSURE_INT(want_bad, k == 0 ? qbad : qb);
        SFX(tt_refused)(&s, cfg, bytes, want, want_bad, XPBD_PART_TET);
    }
    q->i3[qb] = keep_q;
    SFX(tt_free)(&s);
}

/* The xpbd cloth stepped `frames` times at 4 threads on the default
 * executor, then on the host's pthreads (threads_team_counts). */
static void SFX(tt_team_steps)(int frames)
{
    SFX(tt_scene) s;
    xpbd_step_config cfg;
    const size_t bytes = SFX(tt_make)(&s, TT_CLOTH_XPBD, &cfg);
    REQUIRE(bytes > 0);
    const xpbd_executor *const exs[2] = {NULL, &tt_host_executor};
    for (int e = 0; e < 2; ++e) {
        cfg.threads = 4;
        cfg.executor = exs[e];
        for (int f = 0; f < frames; ++f) {
            xpbd_step_counters k;
            ENSURE_STATUS(SFX(xpbd_world_step)(&cfg, 1.0 / 60, &s.w, s.scratch, bytes, &k),
                          XPBD_OK);
        }
    }
    SFX(tt_free)(&s);
}

#define XPBD_PRECISION_END
#include "precision.h"
#endif /* XPBD_REAL_F32 or XPBD_REAL_F64 */
