/* SPDX-License-Identifier: MIT */
/* bench_load.c: the busy threads of xpbd-bench --load (bench_load.h). */
#define _GNU_SOURCE /* sched_getaffinity, pthread_attr_setaffinity_np, CPU_* */

#include "bench_load.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

struct xb_load_state {
    atomic_int stop;
    atomic_int running;
    size_t count;
    pthread_t thread[];
};

const char *xb_load_name(xb_load load)
{
    return load == XB_LOAD_ONE ? "1" : load == XB_LOAD_ALL ? "all" : "0";
}

static void *xb_busy(void *arg)
{
    xb_load_state *s = arg;
    atomic_fetch_add(&s->running, 1);
    volatile unsigned sink = 0;
    unsigned x = 1;
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        for (int i = 0; i < 1024; ++i)
            x = x * 1664525u + 1013904223u;
        sink = x;
    }
    (void)sink;
    return NULL;
}

void xb_load_stop(xb_load_state *s)
{
    if (!s)
        return;
    atomic_store(&s->stop, 1);
    for (size_t i = 0; i < s->count; ++i)
        pthread_join(s->thread[i], NULL);
    free(s);
}

#ifdef __linux__
xb_load_state *xb_load_start(xb_load load, int *failed)
{
    *failed = 0;
    if (load == XB_LOAD_QUIET)
        return NULL;
    *failed = 1;
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0 || CPU_COUNT(&mask) == 0)
        return NULL;
    int cpus[CPU_SETSIZE];
    size_t ncpus = 0;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &mask))
            cpus[ncpus++] = c;
    const size_t first = load == XB_LOAD_ONE ? ncpus - 1 : 0; /* 1: the last CPU */
    xb_load_state *s = malloc(sizeof *s + (ncpus - first) * sizeof(pthread_t));
    if (!s)
        return NULL;
    atomic_init(&s->stop, 0);
    atomic_init(&s->running, 0);
    s->count = 0;
    for (size_t k = first; k < ncpus; ++k) {
        pthread_attr_t attr;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[k], &one);
        int ok = pthread_attr_init(&attr) == 0;
        if (ok) {
            ok = pthread_attr_setaffinity_np(&attr, sizeof one, &one) == 0 &&
                 pthread_create(&s->thread[s->count], &attr, xb_busy, s) == 0;
            pthread_attr_destroy(&attr);
        }
        if (!ok) {
            xb_load_stop(s);
            return NULL;
        }
        ++s->count;
    }
    while (atomic_load(&s->running) < (int)s->count)
        sched_yield();
    *failed = 0;
    return s;
}
#else
xb_load_state *xb_load_start(xb_load load, int *failed)
{
    *failed = load != XB_LOAD_QUIET; /* no CPU affinity to pin to */
    return NULL;
}
#endif
