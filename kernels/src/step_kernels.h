/* SPDX-License-Identifier: MIT */
/* step_kernels.h: the step's private kernel rows, one per path and
 * precision (kernels/all.h fills them, isa.c hands them out).
 *
 * The public tables (xpbd/kernels.h) hold the conceptual kernels a host
 * calls itself and change only with a CHANGELOG entry. The fusions that
 * only the step's substep loop needs live here instead, free to be added,
 * changed or dropped with the step: each computes, bit for bit, what the
 * public kernels it fuses compute (the cross-checks hold every path's row
 * to the reference's and to those kernels). Exported for the tests only;
 * no host code should call it. */
#ifndef XPBD_STEP_KERNELS_H
#define XPBD_STEP_KERNELS_H

#include "xpbd/soa.h"

typedef struct xpbd__step_kernels_f32 {
    xpbd_isa isa;
    unsigned lanes;
    /* distance_xpbd_packed with the lambdas of the batch range taken as 0, not read (a
     * substep's first pass, with its reset): the same results as zeroing them, then
     * distance_xpbd_packed */
    uint32_t (*distance_xpbd_packed_first)(float *q, const xpbd_distance_set_f32 *c,
                                           uint32_t colour, uint32_t batch_begin,
                                           uint32_t batch_end, float h);
    /* distance_xpbd_packed_first writing no lambda: the same positions, the lambdas of the
     * range left as they were. For a pass whose lambdas nothing reads (one iteration per
     * substep: the next substep's first pass takes them as 0 again) */
    uint32_t (*distance_xpbd_packed_once)(float *q, const xpbd_distance_set_f32 *c,
                                          uint32_t colour, uint32_t batch_begin,
                                          uint32_t batch_end, float h);
    /* unpack_velocity(h, keep) then predict_pack(h, g), writing only q and the
     * substep-start positions (px, py, pz), with those calls' bits there; x and v are
     * left as they were. For a substep loop that reads neither until its last
     * unpack_velocity, which computes both from q and px alone */
    void (*relaunch_packed)(float *q, const xpbd_particles_f32 *p, size_t begin, size_t end,
                            float h, float keep, float gx, float gy, float gz);
} xpbd__step_kernels_f32;

typedef struct xpbd__step_kernels_f64 {
    xpbd_isa isa;
    unsigned lanes;
    uint32_t (*distance_xpbd_packed_first)(double *q, const xpbd_distance_set_f64 *c,
                                           uint32_t colour, uint32_t batch_begin,
                                           uint32_t batch_end, double h);
    uint32_t (*distance_xpbd_packed_once)(double *q, const xpbd_distance_set_f64 *c,
                                          uint32_t colour, uint32_t batch_begin,
                                          uint32_t batch_end, double h);
    void (*relaunch_packed)(double *q, const xpbd_particles_f64 *p, size_t begin, size_t end,
                            double h, double keep, double gx, double gy, double gz);
} xpbd__step_kernels_f64;

/* The row of a path (XPBD_ISA_AUTO resolved as xpbd_isa_resolve does), or
 * NULL where xpbd_kernels_get_* gives NULL. */
XPBD_API const xpbd__step_kernels_f32 *xpbd__step_kernels_get_f32(xpbd_isa isa);
XPBD_API const xpbd__step_kernels_f64 *xpbd__step_kernels_get_f64(xpbd_isa isa);

#endif /* XPBD_STEP_KERNELS_H */
