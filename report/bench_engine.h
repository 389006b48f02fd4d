/* SPDX-License-Identifier: MIT */
/* bench_engine.h: the engine beside the low-level step on the bench's
 * cloth, and the per-stage split of a frame (xpbd-bench, bench_engine.c).
 *
 * Both use the shear cloth of xb_cloth (bench_core.h: N x N, spacing
 * 0.25 m, compliance 1e-5, two pinned corners, gravity -9.81, 1/60 s
 * frames, sub10 = 10 substeps x 1 iteration, f32, measure_residual 0).
 * The engine is built from the same world (xs_world_scene_f32: the same
 * set, the same particles), so its final positions must equal the
 * low-level step's bit for bit; a row says whether they do. */
#ifndef XPBD_BENCH_ENGINE_H
#define XPBD_BENCH_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <xpbd/xpbd.h>

#include "bench_core.h"

/* One engine row: xpbd_step_f32 and xpbd_engine_step_f32 on the same
 * cloth, same ISA, threads and frames, best of interleaved runs. */
typedef struct xb_engine_row {
    int n;                  /* grid side N */
    size_t edges;
    xpbd_isa isa;
    uint32_t threads;
    int frames;
    double step_seconds;    /* best wall time of the frames, xpbd_step_f32 */
    double engine_seconds;  /* the same, xpbd_engine_step_f32 */
    int bitwise_equal;      /* both runs' final positions identical */
} xb_engine_row;

/* The engine rows: sides 64, 128, 256 (quick: 32, 64), frames 300 at 64
 * scaled by (64 / N)^2 (at least 20; quick: a fifth, at least 10), the
 * best ISA (opt->isas: the first one named), each of opt->threads.
 * *rows receives a malloc'd array; returns the row count, 0 on failure. */
size_t xb_engine(const xb_options *opt, xb_engine_row **rows);

/* The per-stage split: the seconds per frame of each stage of the step
 * (the validation, then the driver's stages as step/step.h names them),
 * measured by the step's internal clock (internal.h: xpbd__step_how; a
 * clock read before and after each stage, about 90 per sub10 frame, on
 * the calling thread, so a threaded stage includes its team's waits), for
 * the public step (every element checked) and the engine's path (owned:
 * the per-element checks skipped). */
#define XB_STAGES 13
typedef struct xb_stage_row {
    int n;
    xpbd_isa isa;
    uint32_t threads;
    int frames;
    int owned;                      /* 0: as xpbd_step_f32; 1: as the engine steps */
    double frame_seconds;           /* wall time per frame */
    double stage_seconds[XB_STAGES]; /* per frame, by stage */
} xb_stage_row;

/* The name of stage slot i (< XB_STAGES), as the step names its stages. */
const char *xb_stage_name(int i);
/* 1 if this build can read the step's stage clock (a static library: the
 * clock is an internal entry of libxpbd). */
int xb_stages_available(void);
/* The split for sides 64 and 256 (quick: 32 and 64), the best ISA (as
 * xb_engine), each of opt->threads, public step then engine path; frames
 * as xb_engine. Returns the row count, 0 on failure or when unavailable. */
size_t xb_stages(const xb_options *opt, xb_stage_row **rows);

/* Runs both and prints them (xpbd-bench's "Engine vs step" and
 * "Per-stage split" sections). Returns 0, 2 if a run failed, 3 if an
 * engine row ended in a state different from the step's. */
int xb_engine_report(const xb_options *opt);

#endif
