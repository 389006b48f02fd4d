/* SPDX-License-Identifier: MIT */
/* xpbd/kernels.h: the per-ISA kernel tables.
 *
 * A host that runs its own job system fetches the table of one path and calls
 * the kernels on ranges: particle ranges [begin, end) and, inside one colour,
 * batch ranges [batch_begin, batch_end) (a batch is XPBD_BATCH slots). Ranges
 * of one colour may run on different threads at once; colours must run one
 * after the other. Kernels never allocate, print, call back or keep state.
 *
 * Per-element maths, in this order in every path (h = the substep length):
 *
 *   predict          w > 0: v += g*h;   always: p = x;  x += v*h
 *   update_velocity  v = ((x - p) * (1/h)) * keep        (keep = 1 - damping)
 *   distance_xpbd    d = x1 - x0;  len = sqrt((dx*dx + dy*dy) + dz*dz)
 *                    skip if len == 0 or w0 + w1 == 0
 *                    C = len - rest;  at = compliance * (1 / (h*h)), clamped
 *                    to the largest finite value (a huge compliance: no
 *                    correction, never inf * 0)
 *                    den = (w0 + w1) + at
 *                    s = (-C - at*lambda) / (den*len)      (= dl/len: one division)
 *                    x0 -= (w0*s)*d;  x1 += (w1*s)*d;  lambda += s*len
 *   distance_pbd     same geometry, s = -(k*C) / ((w0 + w1)*len), no lambda
 *   spring_forces    s = (len - rest) / compliance
 *                        + damping * ((v1 - v0) . n)      (skip len == 0)
 *                    f0 += s*n;  f1 -= s*n
 *   spring_integrate w > 0: v += (f*w + g)*h;  p = x;  x += v*h;  then f = 0
 *   residual         r = C + at*lambda, at as above (0 where skipped or padding);
 *                    returns max |r|
 *   kinetic_energy   sum over w > 0 of ((vx*vx + vy*vy) + vz*vz) / w, times 0.5
 *   momentum         sum over w > 0 of v / w
 *
 * Sums use a canonical order so every path agrees bit for bit: element
 * begin + i goes to accumulator i % 16 (16 accumulators starting at +0), then
 * acc[j] += acc[j + 8] for j < 8, acc[j] += acc[j + 4] for j < 4, then
 * +2, +1; the result is acc[0].
 *
 * Packed kernels: the step driver solves constraints on a packed copy of
 * the positions, q[4*i + 0..3] = x, y, z, w of particle i (pack after
 * predict, unpack before the velocity update): one 16-byte (32-byte for
 * double) load and store per endpoint instead of four gathers and three
 * scattered stores. distance_*_packed compute exactly what distance_* do.
 * pack writes x, y, z, w; unpack writes back x, y, z only.
 *
 * Stability: these tables hold the conceptual kernels a host calls itself
 * (predict, velocity update, the distance solves on particles and on the
 * packed copy, pack and unpack with their predict / velocity fusions,
 * springs, diagnostics). Their fields, order and maths change only with a
 * minor version and a CHANGELOG entry. The step's own fusions are private
 * (it is free to gain or lose them); each computes what these kernels do.
 *
 * Constraint kernels return the number of real constraints they skipped
 * (both endpoints static, w0 + w1 == 0, or coincident endpoints). The
 * serial statement of each kernel, one slot at a time, is in
 * xpbd/reference.h.
 */
#ifndef XPBD_KERNELS_H
#define XPBD_KERNELS_H

#include "xpbd/soa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xpbd_kernels_f32 {
    xpbd_isa isa;
    unsigned lanes;
    void (*predict)(const xpbd_particles_f32 *p, size_t begin, size_t end, float h, float gx,
                    float gy, float gz);
    void (*update_velocity)(const xpbd_particles_f32 *p, size_t begin, size_t end, float h,
                            float keep);
    void (*spring_integrate)(const xpbd_particles_f32 *p, float *fx, float *fy, float *fz,
                             size_t begin, size_t end, float h, float gx, float gy, float gz);
    uint32_t (*distance_pbd)(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                             uint32_t colour, uint32_t batch_begin, uint32_t batch_end,
                             float stiffness);
    uint32_t (*distance_xpbd)(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                              uint32_t colour, uint32_t batch_begin, uint32_t batch_end, float h);
    uint32_t (*spring_forces)(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                              float *fx, float *fy, float *fz, uint32_t colour,
                              uint32_t batch_begin, uint32_t batch_end, float damping);
    /* out (may be NULL) is indexed by slot: out[s] = r for every slot s of
     * the range, 0 for padding */
    float (*residual)(const xpbd_particles_f32 *p, const xpbd_distance_set_f32 *c,
                      uint32_t colour, uint32_t batch_begin, uint32_t batch_end, float h,
                      float *out);
    float (*kinetic_energy)(const xpbd_particles_f32 *p, size_t begin, size_t end);
    void (*momentum)(const xpbd_particles_f32 *p, size_t begin, size_t end, float out[3]);
    /* packed copy q[4*i .. 4*i+3] = x, y, z, w (see below) */
    void (*pack)(const xpbd_particles_f32 *p, float *q, size_t begin, size_t end);
    void (*unpack)(const float *q, const xpbd_particles_f32 *p, size_t begin, size_t end);
    uint32_t (*distance_pbd_packed)(float *q, const xpbd_distance_set_f32 *c, uint32_t colour,
                                    uint32_t batch_begin, uint32_t batch_end, float stiffness);
    uint32_t (*distance_xpbd_packed)(float *q, const xpbd_distance_set_f32 *c, uint32_t colour,
                                     uint32_t batch_begin, uint32_t batch_end, float h);
    /* predict then pack, and unpack then update_velocity, each in one pass */
    void (*predict_pack)(const xpbd_particles_f32 *p, float *q, size_t begin, size_t end, float h,
                         float gx, float gy, float gz);
    void (*unpack_velocity)(const float *q, const xpbd_particles_f32 *p, size_t begin, size_t end,
                            float h, float keep);
} xpbd_kernels_f32;

typedef struct xpbd_kernels_f64 {
    xpbd_isa isa;
    unsigned lanes;
    void (*predict)(const xpbd_particles_f64 *p, size_t begin, size_t end, double h, double gx,
                    double gy, double gz);
    void (*update_velocity)(const xpbd_particles_f64 *p, size_t begin, size_t end, double h,
                            double keep);
    void (*spring_integrate)(const xpbd_particles_f64 *p, double *fx, double *fy, double *fz,
                             size_t begin, size_t end, double h, double gx, double gy,
                             double gz);
    uint32_t (*distance_pbd)(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                             uint32_t colour, uint32_t batch_begin, uint32_t batch_end,
                             double stiffness);
    uint32_t (*distance_xpbd)(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                              uint32_t colour, uint32_t batch_begin, uint32_t batch_end, double h);
    uint32_t (*spring_forces)(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                              double *fx, double *fy, double *fz, uint32_t colour,
                              uint32_t batch_begin, uint32_t batch_end, double damping);
    double (*residual)(const xpbd_particles_f64 *p, const xpbd_distance_set_f64 *c,
                       uint32_t colour, uint32_t batch_begin, uint32_t batch_end, double h,
                       double *out);
    double (*kinetic_energy)(const xpbd_particles_f64 *p, size_t begin, size_t end);
    void (*momentum)(const xpbd_particles_f64 *p, size_t begin, size_t end, double out[3]);
    /* packed copy q[4*i .. 4*i+3] = x, y, z, w (see below) */
    void (*pack)(const xpbd_particles_f64 *p, double *q, size_t begin, size_t end);
    void (*unpack)(const double *q, const xpbd_particles_f64 *p, size_t begin, size_t end);
    uint32_t (*distance_pbd_packed)(double *q, const xpbd_distance_set_f64 *c, uint32_t colour,
                                    uint32_t batch_begin, uint32_t batch_end, double stiffness);
    uint32_t (*distance_xpbd_packed)(double *q, const xpbd_distance_set_f64 *c, uint32_t colour,
                                     uint32_t batch_begin, uint32_t batch_end, double h);
    /* predict then pack, and unpack then update_velocity, each in one pass */
    void (*predict_pack)(const xpbd_particles_f64 *p, double *q, size_t begin, size_t end, double h,
                         double gx, double gy, double gz);
    void (*unpack_velocity)(const double *q, const xpbd_particles_f64 *p, size_t begin, size_t end,
                            double h, double keep);
} xpbd_kernels_f64;

/* The table of a path, or NULL if it is not compiled in or not supported by
 * this CPU. XPBD_ISA_AUTO resolves as xpbd_isa_resolve does (NULL on error). */
XPBD_API const xpbd_kernels_f32 *xpbd_kernels_get_f32(xpbd_isa isa);
XPBD_API const xpbd_kernels_f64 *xpbd_kernels_get_f64(xpbd_isa isa);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_KERNELS_H */
