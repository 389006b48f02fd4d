/* The step driver, template over R. */
#include "real_begin.h"
#include "screen_tmpl.h"

/* Scratch layout (in R units): snapshot x y z px py pz vx vy vz [9n],
 * lambda [slots], then either spring forces fx fy fz [3n] or the packed
 * positions q [4n] (aligned to 64 bytes, hence the slack). */
size_t SFX(xpbd_step_scratch_bytes)(size_t n, size_t slots)
{
    if (n > SIZE_MAX / (32 * sizeof(R)) || slots > SIZE_MAX / (4 * sizeof(R)))
        return SIZE_MAX;
    return (13 * n + slots) * sizeof(R) + 64;
}

static void SFX(snapshot)(const P *p, const DS *c, R *save, int restore)
{
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    const size_t n = p->count;
    for (int k = 0; k < 9; ++k) {
        if (n == 0)
            break;
        if (restore)
            memcpy(arrays[k], save + (size_t)k * n, n * sizeof(R));
        else
            memcpy(save + (size_t)k * n, arrays[k], n * sizeof(R));
    }
    if (c && c->slots) {
        if (restore)
            memcpy(c->lambda, save + 9 * n, c->slots * sizeof(R));
        else
            memcpy(save + 9 * n, c->lambda, c->slots * sizeof(R));
    }
}

/* First non-finite element after a step: particle i, or n + slot. */
static size_t SFX(first_nonfinite)(const P *p, const DS *c)
{
    const size_t n = p->count;
    if (SFX(screen_finite)(p->x, n) && SFX(screen_finite)(p->y, n) &&
        SFX(screen_finite)(p->z, n) && SFX(screen_finite)(p->vx, n) &&
        SFX(screen_finite)(p->vy, n) && SFX(screen_finite)(p->vz, n) &&
        (!c || SFX(screen_finite)(c->lambda, c->slots)))
        return SIZE_MAX;
    for (size_t i = 0; i < p->count; ++i)
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i]) ||
            !isfinite(p->vx[i]) || !isfinite(p->vy[i]) || !isfinite(p->vz[i]))
            return i;
    if (c)
        for (uint32_t s = 0; s < c->slots; ++s)
            if (!isfinite(c->lambda[s]))
                return p->count + s;
    return SIZE_MAX;
}

static xpbd_status SFX(step_checked)(const xpbd_step_config *cfg, double h, P *p, DS *c,
                                     void *scratch, size_t scratch_bytes,
                                     xpbd_step_counters *k)
{
    if (!cfg || !p)
        return XPBD_ERR_ARGUMENT;
    if (cfg->version != XPBD_PROTOCOL_VERSION)
        return XPBD_ERR_VERSION;
    if (cfg->substeps == 0 || cfg->iterations == 0 || !isfinite(cfg->damping) ||
        cfg->damping < 0 || cfg->damping >= 1 || !isfinite(cfg->pbd_stiffness) ||
        !(cfg->pbd_stiffness > 0) || cfg->pbd_stiffness > 1 || !isfinite(cfg->gravity[0]) ||
        !isfinite(cfg->gravity[1]) || !isfinite(cfg->gravity[2]) ||
        !isfinite(cfg->spring_damping) || cfg->spring_damping < 0 ||
        (cfg->solver != XPBD_SOLVER_XPBD && cfg->solver != XPBD_SOLVER_PBD &&
         cfg->solver != XPBD_SOLVER_SPRINGS) ||
        (cfg->lambda_reset != XPBD_LAMBDA_PER_SUBSTEP &&
         cfg->lambda_reset != XPBD_LAMBDA_PER_ITERATION))
        return XPBD_ERR_CONFIG;
    const R hs = (R)(h / cfg->substeps);
    if (!isfinite(h) || !(h > 0) || !isfinite(hs) || !(hs > 0) || !isfinite(1 / (hs * hs)))
        return XPBD_ERR_TIMESTEP;
    xpbd_isa isa;
    if (xpbd_isa_resolve(cfg->isa, &isa) != XPBD_OK)
        return XPBD_ERR_ISA;
    k->isa = isa;
    const SFX(xpbd_kernels) *kt = SFXM(xpbd_kernels, get)(isa);
    if (!kt)
        return XPBD_ERR_ISA;
    const size_t n = p->count;
    const uint32_t slots = c ? c->slots : 0;
    const size_t need = SFX(xpbd_step_scratch_bytes)(n, slots);
    if (!scratch || scratch_bytes < need)
        return XPBD_ERR_CAPACITY;
    if ((uintptr_t)scratch % _Alignof(R) != 0)
        return XPBD_ERR_ARGUMENT;
    xpbd_status st = SFXM(xpbd_particles, validate)(p, &k->bad_index);
    if (st != XPBD_OK)
        return st;
    if (c) {
        st = SFXM(xpbd_distance_set, validate)(c, n, &k->bad_index);
        if (st != XPBD_OK)
            return st;
        if (cfg->solver == XPBD_SOLVER_SPRINGS)
            for (uint32_t s = 0; s < slots; ++s)
                if (c->source[s] != XPBD_PAD && !(c->compliance[s] > 0)) {
                    k->bad_index = s;
                    return XPBD_ERR_COMPLIANCE;
                }
        k->colours = c->colours;
        k->overflow = c->slots - c->overflow_begin;
    }

    R *save = scratch;
    SFX(snapshot)(p, c, save, 0);
    R *fx = save + 9 * n + slots, *fy = fx + n, *fz = fy + n;
    R *q = (R *)(void *)(((uintptr_t)fx + 63) & ~(uintptr_t)63);

    const R gx = (R)cfg->gravity[0], gy = (R)cfg->gravity[1], gz = (R)cfg->gravity[2];
    const R keep = (R)(1.0 - cfg->damping);
    const R ks = (R)cfg->pbd_stiffness, sd = (R)cfg->spring_damping;
    const uint32_t real = c ? c->count : 0;
    for (uint32_t sub = 0; sub < cfg->substeps; ++sub) {
        if (c && slots)
            memset(c->lambda, 0, slots * sizeof(R));
        if (cfg->solver == XPBD_SOLVER_SPRINGS) {
            if (sub == 0 && n) {
                memset(fx, 0, 3 * n * sizeof(R));
            }
            if (c) {
                for (uint32_t col = 0; col < c->colours; ++col)
                    k->skipped += kt->spring_forces(p, c, fx, fy, fz, col, 0,
                                                    xpbd_colour_batches(c->colour_begin, col), sd);
                k->skipped += SFX(xpbd_serial_spring_forces)(p, c, fx, fy, fz, c->overflow_begin,
                                                             slots, sd);
                k->solves += real;
            }
            kt->spring_integrate(p, fx, fy, fz, 0, n, hs, gx, gy, gz);
        } else {
            kt->predict(p, 0, n, hs, gx, gy, gz);
            if (c && cfg->iterations)
                kt->pack(p, q, 0, n);
            for (uint32_t it = 0; c && it < cfg->iterations; ++it) {
                if (it > 0 && cfg->lambda_reset == XPBD_LAMBDA_PER_ITERATION && slots)
                    memset(c->lambda, 0, slots * sizeof(R));
                for (uint32_t col = 0; col < c->colours; ++col) {
                    const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
                    k->skipped += cfg->solver == XPBD_SOLVER_XPBD
                                      ? kt->distance_xpbd_packed(q, c, col, 0, nb, hs)
                                      : kt->distance_pbd_packed(q, c, col, 0, nb, ks);
                }
                k->skipped += cfg->solver == XPBD_SOLVER_XPBD
                                  ? SFXM(xpbd_serial_distance_xpbd, packed)(q, c, c->overflow_begin,
                                                                            slots, hs)
                                  : SFXM(xpbd_serial_distance_pbd, packed)(q, c, c->overflow_begin,
                                                                           slots, ks);
                k->solves += real;
                k->iterations++;
            }
            if (c && cfg->iterations)
                kt->unpack(q, p, 0, n);
            kt->update_velocity(p, 0, n, hs, keep);
        }
        k->substeps++;
    }

    const size_t bad = SFX(first_nonfinite)(p, c);
    if (bad != SIZE_MAX) {
        SFX(snapshot)(p, c, save, 1);
        k->bad_index = bad;
        return XPBD_ERR_DIVERGED;
    }
    if (c && cfg->measure_residual) {
        R m = 0;
        for (uint32_t col = 0; col < c->colours; ++col) {
            const R r = kt->residual(p, c, col, 0, xpbd_colour_batches(c->colour_begin, col), hs,
                                     NULL);
            if (r > m)
                m = r;
        }
        const R r = SFX(xpbd_serial_residual)(p, c, c->overflow_begin, slots, hs, NULL);
        k->max_residual = r > m ? r : m;
    }
    return XPBD_OK;
}

xpbd_status SFX(xpbd_step)(const xpbd_step_config *cfg, double h, P *p, DS *c, void *scratch,
                           size_t scratch_bytes, xpbd_step_counters *counters)
{
    xpbd_step_counters k;
    memset(&k, 0, sizeof k);
    k.protocol = XPBD_PROTOCOL_VERSION;
    k.isa = XPBD_ISA_AUTO;
    k.bad_index = SIZE_MAX;
    const xpbd_status st = SFX(step_checked)(cfg, h, p, c, scratch, scratch_bytes, &k);
    if (st != XPBD_OK && st != XPBD_ERR_DIVERGED && st != XPBD_ERR_POSITION &&
        st != XPBD_ERR_VELOCITY && st != XPBD_ERR_INVERSE_MASS && st != XPBD_ERR_INDEX &&
        st != XPBD_ERR_REST && st != XPBD_ERR_COMPLIANCE && st != XPBD_ERR_LAMBDA)
        k.bad_index = SIZE_MAX;
    k.status = st;
    if (counters)
        *counters = k;
    return st;
}

#include "real_end.h"
