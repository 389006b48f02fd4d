/* SPDX-License-Identifier: MIT */
/* The swinging chain and cloth of s1_order and s1_energy (shared/s1_swing.h). */
#include "shared/s1_swing.h"

#include <math.h>

int sw_world(xs_world_f64 *w, int cloth, double alpha)
{
    if (cloth)
        return xs_cloth_f64(w, SW_NX, SW_NY, SW_L0, alpha, 0, 1) == XPBD_OK ? 0 : -1;
    if (xs_chain_f64(w, SW_N, SW_L0, alpha) != XPBD_OK)
        return -1;
    for (int i = 0; i < SW_N; ++i) {
        w->p.x[i] = SW_L0 * i;
        w->p.y[i] = 0;
        w->p.z[i] = 0;
    }
    return 0;
}

double sw_energy(const xs_world_f64 *w, double alpha)
{
    const xpbd_particles_f64 *p = &w->p;
    double e = 0;
    for (size_t i = 0; i < p->count; ++i) {
        if (p->w[i] == 0)
            continue;
        const double m = 1.0 / p->w[i];
        e += m * (0.5 * (p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + p->vz[i] * p->vz[i]) +
                  XS_G * p->y[i]);
    }
    if (alpha > 0)
        for (uint32_t k = 0; k < w->set.slots; ++k) {
            if (w->set.source[k] == XPBD_PAD)
                continue;
            const uint32_t a = w->set.i0[k], b = w->set.i1[k];
            const double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a], dz = p->z[b] - p->z[a];
            const double c = sqrt(dx * dx + dy * dy + dz * dz) - w->set.rest[k];
            e += c * c / (2 * alpha);
        }
    return e;
}

int sw_run(const xr_ctx *ctx, xs_world_f64 *w, uint32_t substeps, int frames, double alpha,
           double *energy)
{
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.solver = XPBD_SOLVER_XPBD;
    cfg.substeps = substeps;
    cfg.iterations = 1;
    cfg.damping = 0;
    cfg.isa = xr_isa(ctx);
    cfg.measure_residual = 0;
    if (energy)
        energy[0] = sw_energy(w, alpha);
    for (int f = 0; f < frames; ++f) {
        if (xpbd_step_f64(&cfg, SW_H, &w->p, &w->set, w->scratch, w->scratch_bytes, NULL) !=
            XPBD_OK)
            return -1;
        if (energy)
            energy[f + 1] = sw_energy(w, alpha);
    }
    return 0;
}
