/* SPDX-License-Identifier: MIT */
/* bench_engine.c: the engine beside the low-level step on the bench's
 * cloth, and the per-stage split of a frame (bench_engine.h). */
#define _POSIX_C_SOURCE 200809L

#include "bench_engine.h"
#include "bench_util.h"
#include "scenes.h"

#ifndef XB_NO_STAGE_CLOCK
#  include "internal.h" /* xpbd__world_step_f32, xpbd__step_how: the stage clock */
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ISA of the rows: the first of opt->isas, else the best path. */
static xpbd_isa xb_engine_isa(const xb_options *opt)
{
    xpbd_isa isa = xpbd_isa_best();
    if (opt->isas) {
        char name[32];
        size_t len = strcspn(opt->isas, ",");
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, opt->isas, len);
        name[len] = '\0';
        xpbd_isa got;
        if (xpbd_isa_from_name(name, &got) == XPBD_OK && xpbd_isa_resolve(got, &got) == XPBD_OK)
            isa = got;
    }
    return isa;
}

/* Frames for side n: 300 at 64, scaled by the particle count. */
static int xb_engine_frames(int n, int quick)
{
    const int f = (int)(300.0 * 64.0 * 64.0 / ((double)n * n));
    const int min = quick ? 10 : 20;
    const int scaled = quick ? f / 5 : f;
    return scaled < min ? min : scaled;
}

/* The bench's step configuration (bench_core.c: xb_cloth_run). */
static xpbd_step_config xb_engine_config(xpbd_isa isa, uint32_t threads)
{
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 10;
    cfg.iterations = 1;
    cfg.gravity[0] = 0;
    cfg.gravity[1] = -9.81;
    cfg.gravity[2] = 0;
    cfg.isa = isa;
    cfg.measure_residual = 0;
    cfg.threads = threads;
    return cfg;
}

/* Final x, y, z of n particles into a malloc'd block (NULL: out of memory). */
static float *xb_engine_keep(const xpbd_particles_f32 *p)
{
    const size_t n = p->count;
    float *xyz = malloc(3 * n * sizeof *xyz + 1);
    if (xyz) {
        memcpy(xyz, p->x, n * sizeof *xyz);
        memcpy(xyz + n, p->y, n * sizeof *xyz);
        memcpy(xyz + 2 * n, p->z, n * sizeof *xyz);
    }
    return xyz;
}

/* One run of `frames` frames, the low-level step (engine = 0) or the
 * engine built from the same cloth: its seconds, and the final positions
 * into *xyz when xyz is not NULL. Returns 0 or -1. */
static int xb_engine_run(int side, const xpbd_step_config *cfg, int engine, int frames,
                         double *seconds, float **xyz)
{
    xs_world_f32 w;
    if (xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, 1, 1) != XPBD_OK)
        return -1;
    xpbd_engine_f32 *e = NULL;
    if (engine) {
        xpbd_scene_f32 sc;
        void *block = NULL;
        xpbd_status st = xs_world_scene_f32(&w, &sc, &block);
        if (st == XPBD_OK)
            st = xpbd_engine_create_f32(&e, &sc, cfg, NULL, NULL);
        free(block);
        if (st != XPBD_OK) {
            xs_world_free_f32(&w);
            return -1;
        }
    }
    int ok = 1;
    const double t0 = xb_now();
    for (int f = 0; ok && f < frames; ++f)
        ok = (engine ? xpbd_engine_step_f32(e, 1.0 / 60.0)
                     : xpbd_step_f32(cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes,
                                     NULL)) == XPBD_OK;
    *seconds = xb_now() - t0;
    if (ok && xyz)
        *xyz = xb_engine_keep(engine ? xpbd_engine_particles_f32(e) : &w.p);
    xpbd_engine_destroy_f32(e);
    xs_world_free_f32(&w);
    return ok ? 0 : -1;
}

/* One row: step and engine interleaved, best of 3 each (or of fewer while
 * a run takes seconds), final positions compared. Returns 0 or -1. */
static int xb_engine_row_measure(int side, xpbd_isa isa, uint32_t threads, int quick,
                                 xb_engine_row *row)
{
    const xpbd_step_config cfg = xb_engine_config(isa, threads);
    const int frames = xb_engine_frames(side, quick);
    float *ref = NULL, *got = NULL;
    double best[2] = {INFINITY, INFINITY}, total = 0;
    int rc = 0;
    for (int rep = 0; rc == 0 && rep < 3; ++rep) {
        for (int engine = 0; rc == 0 && engine < 2; ++engine) {
            double sec = INFINITY;
            rc = xb_engine_run(side, &cfg, engine, frames, &sec,
                               rep == 0 ? (engine ? &got : &ref) : NULL);
            best[engine] = sec < best[engine] ? sec : best[engine];
            total += sec;
        }
        if (total > (quick ? 0.5 : 20))
            break;
    }
    const size_t n = (size_t)side * side;
    row->n = side;
    row->edges = (size_t)2 * side * (side - 1) + (size_t)2 * (side - 1) * (side - 1);
    row->isa = isa;
    row->threads = threads;
    row->frames = frames;
    row->step_seconds = best[0];
    row->engine_seconds = best[1];
    row->bitwise_equal = rc == 0 && ref && got && memcmp(ref, got, 3 * n * sizeof *ref) == 0;
    free(ref);
    free(got);
    return rc;
}

size_t xb_engine(const xb_options *opt, xb_engine_row **rows)
{
    static const int full[] = {64, 128, 256}, quick[] = {32, 64};
    static const uint32_t one = 1;
    const int *sides = opt->quick ? quick : full;
    const int nsides = opt->quick ? 2 : 3;
    const uint32_t *threads = opt->thread_count ? opt->threads : &one;
    const size_t nthreads = opt->thread_count ? opt->thread_count : 1;
    const xpbd_isa isa = xb_engine_isa(opt);
    xb_engine_row *r = calloc((size_t)nsides * nthreads, sizeof *r);
    if (!r)
        return 0;
    size_t n = 0;
    for (int s = 0; s < nsides; ++s)
        for (size_t t = 0; t < nthreads; ++t) {
            if (opt->progress)
                fprintf(stderr, "\rxpbd-bench: engine %3dx%-3d %-6s %u threads      ",
                        sides[s], sides[s], xpbd_isa_name(isa), (unsigned)threads[t]);
            if (xb_engine_row_measure(sides[s], isa, threads[t], opt->quick, &r[n]) != 0) {
                free(r);
                return 0;
            }
            n++;
        }
    if (opt->progress)
        fprintf(stderr, "\r%70s\r", "");
    *rows = r;
    return n;
}

/* ------------------------------------------------------------ stages --- */

const char *xb_stage_name(int i)
{
#ifndef XB_NO_STAGE_CLOCK
    _Static_assert(XB_STAGES == XPBD__STAGE_TIMES, "the step's stage slots");
    return i >= 0 ? xpbd__stage_name((unsigned)i) : NULL;
#else
    (void)i;
    return NULL;
#endif
}

int xb_stages_available(void)
{
#ifndef XB_NO_STAGE_CLOCK
    return 1;
#else
    return 0;
#endif
}

#ifndef XB_NO_STAGE_CLOCK
/* One split: frames of the cloth through the internal entry with the
 * stage clock on, after as many unclocked frames to warm up; the best
 * frame time of 3 runs and that run's split. Returns 0 or -1. */
static int xb_stage_measure(int side, xpbd_isa isa, uint32_t threads, int owned, int quick,
                            xb_stage_row *row)
{
    const xpbd_step_config cfg = xb_engine_config(isa, threads);
    const int frames = xb_engine_frames(side, quick);
    memset(row, 0, sizeof *row);
    row->n = side;
    row->isa = isa;
    row->threads = threads;
    row->frames = frames;
    row->owned = owned;
    row->frame_seconds = INFINITY;
    for (int rep = 0; rep < 3; ++rep) {
        xs_world_f32 w;
        if (xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, 1, 1) != XPBD_OK)
            return -1;
        double clock[XB_STAGES] = {0};
        /* the first step checks everything, as the engine's first does */
        xpbd__step_how how = {.owned = 0, .stage_seconds = NULL};
        int ok = 1;
        for (int f = 0; ok && f < frames; ++f) {
            ok = xpbd__world_step_f32(&cfg, 1.0 / 60.0,
                                      &(xpbd_world_f32){.particles = &w.p, .constraints = &w.set},
                                      w.scratch, w.scratch_bytes, NULL, &how) == XPBD_OK;
            how.owned = owned;
        }
        how.stage_seconds = clock;
        const double t0 = xb_now();
        for (int f = 0; ok && f < frames; ++f)
            ok = xpbd__world_step_f32(&cfg, 1.0 / 60.0,
                                      &(xpbd_world_f32){.particles = &w.p, .constraints = &w.set},
                                      w.scratch, w.scratch_bytes, NULL, &how) == XPBD_OK;
        const double sec = (xb_now() - t0) / frames;
        xs_world_free_f32(&w);
        if (!ok)
            return -1;
        if (sec < row->frame_seconds) {
            row->frame_seconds = sec;
            for (int k = 0; k < XB_STAGES; ++k)
                row->stage_seconds[k] = clock[k] / frames;
        }
    }
    return 0;
}
#endif

size_t xb_stages(const xb_options *opt, xb_stage_row **rows)
{
#ifndef XB_NO_STAGE_CLOCK
    static const int full[] = {64, 256}, quick[] = {32, 64};
    static const uint32_t one = 1;
    const int *sides = opt->quick ? quick : full;
    const uint32_t *threads = opt->thread_count ? opt->threads : &one;
    const size_t nthreads = opt->thread_count ? opt->thread_count : 1;
    const xpbd_isa isa = xb_engine_isa(opt);
    xb_stage_row *r = calloc(2 * nthreads * 2, sizeof *r);
    if (!r)
        return 0;
    size_t n = 0;
    for (int s = 0; s < 2; ++s)
        for (size_t t = 0; t < nthreads; ++t)
            for (int owned = 0; owned < 2; ++owned) {
                if (opt->progress)
                    fprintf(stderr, "\rxpbd-bench: stages %3dx%-3d %-6s %u threads %s     ",
                            sides[s], sides[s], xpbd_isa_name(isa), (unsigned)threads[t],
                            owned ? "engine" : "step");
                if (xb_stage_measure(sides[s], isa, threads[t], owned, opt->quick, &r[n]) !=
                    0) {
                    free(r);
                    return 0;
                }
                n++;
            }
    if (opt->progress)
        fprintf(stderr, "\r%70s\r", "");
    *rows = r;
    return n;
#else
    (void)opt;
    *rows = NULL;
    return 0;
#endif
}

/* ------------------------------------------------------------ report --- */

/* The engine rows on stdout. Returns the rows whose state differs, -1 if
 * the runs failed. */
static int xb_engine_print(const xb_options *opt)
{
    xb_engine_row *r = NULL;
    const size_t n = xb_engine(opt, &r);
    if (n == 0)
        return -1;
    int differ = 0;
    printf("\nEngine vs step: the shear cloth, sub10, %s, xpbd_engine_step_f32 beside "
           "xpbd_step_f32\non the same set and particles, best of 3 interleaved runs\n"
           "     N  edges  threads frames   step ms/frame  engine ms/frame  engine faster  "
           "state\n",
           xpbd_isa_name(r[0].isa));
    for (size_t k = 0; k < n; ++k) {
        const xb_engine_row *e = &r[k];
        differ += !e->bitwise_equal;
        printf("  %4d %6zu  %7u %6d   %13.3f  %15.3f  %12.3fx  %s\n", e->n, e->edges,
               (unsigned)e->threads, e->frames, 1e3 * e->step_seconds / e->frames,
               1e3 * e->engine_seconds / e->frames, e->step_seconds / e->engine_seconds,
               e->bitwise_equal ? "same" : "DIFFERS");
    }
    free(r);
    return differ;
}

/* The per-stage split on stdout: one block per side and thread count,
 * the public step beside the engine's path. Returns 0, -1 on failure. */
static int xb_stages_print(const xb_options *opt)
{
    if (!xb_stages_available()) {
        printf("\nPer-stage split: not in this build (the step's stage clock is an "
               "internal entry of a static libxpbd; this one is shared)\n");
        return 0;
    }
    xb_stage_row *r = NULL;
    const size_t n = xb_stages(opt, &r);
    if (n == 0)
        return -1;
    printf("\nPer-stage split of a frame: the shear cloth, sub10, %s; ms per frame and "
           "share of\nthe frame (the step's clock around each stage, on the caller: "
           "a threaded stage\nincludes its waits; \"other\": the frame outside the "
           "stages)\n",
           xpbd_isa_name(r[0].isa));
    for (size_t k = 0; k + 1 < n; k += 2) {
        const xb_stage_row *a = &r[k], *b = &r[k + 1]; /* step, engine path */
        printf("  %dx%d, %u thread%s, %d frames     step (all checked)    engine path\n",
               a->n, a->n, (unsigned)a->threads, a->threads == 1 ? "" : "s", a->frames);
        double sa = 0, sb = 0;
        for (int s = 0; s < XB_STAGES; ++s) {
            sa += a->stage_seconds[s];
            sb += b->stage_seconds[s];
            if (a->stage_seconds[s] == 0 && b->stage_seconds[s] == 0)
                continue;
            printf("    %-18s %9.4f %5.1f%%   %9.4f %5.1f%%\n", xb_stage_name(s),
                   1e3 * a->stage_seconds[s], 100 * a->stage_seconds[s] / a->frame_seconds,
                   1e3 * b->stage_seconds[s], 100 * b->stage_seconds[s] / b->frame_seconds);
        }
        printf("    %-18s %9.4f %5.1f%%   %9.4f %5.1f%%\n", "other",
               1e3 * (a->frame_seconds - sa), 100 * (a->frame_seconds - sa) / a->frame_seconds,
               1e3 * (b->frame_seconds - sb), 100 * (b->frame_seconds - sb) / b->frame_seconds);
        printf("    %-18s %9.4f          %9.4f         (engine path %.3fx faster)\n",
               "frame", 1e3 * a->frame_seconds, 1e3 * b->frame_seconds,
               a->frame_seconds / b->frame_seconds);
    }
    free(r);
    return 0;
}

int xb_engine_report(const xb_options *opt)
{
    const int differ = xb_engine_print(opt);
    if (differ < 0) {
        fprintf(stderr, "xpbd-bench: the engine rows failed (a step error or out of memory)\n");
        return 2;
    }
    if (xb_stages_print(opt) != 0) {
        fprintf(stderr, "xpbd-bench: the per-stage split failed\n");
        return 2;
    }
    if (differ > 0) {
        fprintf(stderr, "xpbd-bench: %d engine rows ended in a state different from the "
                        "step's\n", differ);
        return 3;
    }
    return 0;
}
