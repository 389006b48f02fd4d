/* SPDX-License-Identifier: MIT */
/* bench_peer.h: the cloth scene of xpbd-bench run by another engine in the
 * same process, for a rate measured side by side rather than quoted.
 *
 * The peer is Bullet's btSoftBody (report/bench_bullet.cpp), built only when
 * CMake finds Bullet (Debian: `apt-get install libbullet-dev`); the bench
 * then defines XPBD_BENCH_BULLET. The caller hands over the very cloth the
 * xpbd run steps: particle positions and inverse masses (w = 0: pinned) and
 * the links; the peer adds nothing else (no faces, bending, clusters or
 * other bodies). */
#ifndef XPBD_BENCH_PEER_H
#define XPBD_BENCH_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "bench_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xb_peer_cloth {
    size_t particles;
    const float *x, *y, *z, *w; /* [particles] start positions (at rest), inverse masses */
    size_t links;
    const uint32_t *i0, *i1;    /* [links] endpoints; rest length = start distance */
    float stiffness;            /* Bullet's linear stiffness kLST in (0, 1] */
    float gravity_y;            /* m/s^2 along y */
    int substeps;               /* internal steps per frame (fixed step frame / substeps) */
    int iterations;             /* position iterations per internal step */
    int frames;                 /* frames of 1/60 s */
} xb_peer_cloth;

typedef struct xb_peer_result {
    double seconds;             /* wall time of all frames (the steps only) */
    uint64_t link_solves;       /* links x iterations x internal steps taken */
    float *x, *y, *z;           /* final positions, malloc'd (free() them), or NULL */
} xb_peer_result;

/* Builds the cloth in a btSoftRigidDynamicsWorld and steps it `frames`
 * times. Returns 0, or -1 (no peer in this build, bad input, out of memory). */
int xb_peer_bullet_cloth(const xb_peer_cloth *cloth, xb_peer_result *out);

/* ------------------------------------------------ the bench's side (C) --- */

/* One peer measurement of the bench's cloth (bench_peer.c). */
typedef struct xb_peer_row {
    const char *variant;       /* "structural" or "shear" */
    int n;                     /* grid side N */
    size_t edges;              /* links */
    const char *mode;          /* "sub10" or "iter10" (xb_cloth_modes) */
    int frames;
    float stiffness;           /* kLST matched to compliance 1e-5 at the mode's substep */
    double seconds;            /* best wall time for all frames */
    double edge_solves_per_s;  /* link solves / seconds */
    double mean_y_peer;        /* mean particle height after the frames (m) */
    double mean_y_xpbd;        /* the same for xpbd (best ISA, one thread) */
    double strain_peer;        /* mean |C| / rest over the links after the frames */
    double strain_xpbd;        /* the same for xpbd */
    double seconds_xpbd;       /* xpbd's best wall time for all frames, same repetitions */
    uint64_t link_solves;      /* the peer's count: links x iterations x internal steps */
} xb_peer_row;

/* One row of xb_peer_cloth_rows: the bench's cloth of side N (shear 0:
 * structural links, 1: with both diagonals) in mode xb_cloth_modes[mode]
 * for `frames` frames, timed as the bench times it (quick: fewer
 * repetitions). Returns 0, or -1 (no peer in this build, a run failed). */
int xb_peer_cloth_row(int side, int shear, int mode, int frames, int quick, xb_peer_row *row);

/* 1 if this xpbd-bench was built with a peer (XPBD_BENCH_BULLET), else 0. */
int xb_peer_available(void);
/* The bench's cloth (same sides, variants, modes and frames as xb_cloth under
 * opt->quick) in the peer. *rows receives a malloc'd array; returns the row
 * count, 0 when there is no peer or a run failed. */
size_t xb_peer_cloth_rows(const xb_options *opt, xb_peer_row **rows);

#ifdef __cplusplus
}
#endif

#endif
