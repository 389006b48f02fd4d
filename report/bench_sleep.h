/* SPDX-License-Identifier: MIT */
/* bench_sleep.h: xpbd-bench's sleeping measurement. A grid of soft cubes
 * (tetrahedral boxes with edges and volume constraints, f32, contacts and a
 * ground plane) rests on the ground; the same scene is timed per frame with
 * sleeping off (every body awake) and with every body asleep, in the same
 * run, and the frame that wakes them all (sets rebuilt) is timed too. */
#ifndef XPBD_BENCH_SLEEP_H
#define XPBD_BENCH_SLEEP_H

#include <stddef.h>
#include <stdint.h>

typedef struct xb_sleep_result {
    uint32_t bodies;        /* cubes */
    size_t particles;       /* in all */
    size_t constraints;     /* edges + tets in all */
    uint32_t settle_frames; /* frames until every body slept */
    double awake_s;         /* best frame time, every body awake and resting */
    double asleep_s;        /* best frame time, every body asleep */
    double wake_s;          /* the frame that wakes every body (sets rebuilt) */
} xb_sleep_result;

/* Runs the measurement (quick: fewer timed frames). Returns 0, or -1 if a
 * step failed, the bodies never all slept or memory ran out. */
int xb_sleep(int quick, xb_sleep_result *out);

#endif
