/* SPDX-License-Identifier: MIT */
/* The two-serial-orders check (xpbd/engine.h): the same scene run with
 * its constraints in two orders, final positions compared. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/order.c"
#include "engine/common.h"

/* splitmix64, for the shuffles */
static uint64_t order_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* seed 0: reversed; otherwise a Fisher-Yates shuffle drawn from seed */
static void order_permutation(uint32_t *perm, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)(seed ? i : n - 1 - i);
    if (!seed)
        return;
    uint64_t s = seed;
    for (size_t i = n; i > 1; --i) {
        const size_t j = (size_t)(order_mix(&s) % i);
        const uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

#  include "each_precision.h"

xpbd_status xpbd_order_check_f32(const xpbd_scene_f32 *scene, const xpbd_step_config *cfg,
                                 double h, uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    return engine_order_check_f32(scene, cfg, h, frames, seed, out);
}

xpbd_status xpbd_order_check_f64(const xpbd_scene_f64 *scene, const xpbd_step_config *cfg,
                                 double h, uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    return engine_order_check_f64(scene, cfg, h, frames, seed, out);
}

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* The two-serial-orders check, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_order_permute PREC(engine_order_permute_f32, engine_order_permute_f64)
#define engine_order_check PREC(engine_order_check_f32, engine_order_check_f64)

#define E SFX(xpbd_engine)
#define SC SFX(xpbd_scene)

/* Row k's list of scene b (a copy of scene) permuted by perm into idx
 * (arity indices each) and val (its rest values, if the scene gives them,
 * then its compliances, if given), b pointed at them. */
static void engine_order_permute(const engine_kind *k, const SC *scene, SC *b,
                                 const uint32_t *perm, uint32_t *idx, R *val)
{
    const size_t c = engine_scene_count(scene, k->count_at);
    const uint32_t *from = engine_scene_index(scene, k->idx_at);
    const R *rest = k->rest ? engine_scene_reals(scene, k->rest_at) : NULL;
    const R *comp = engine_scene_reals(scene, k->comp_at);
    for (size_t j = 0; j < c; ++j) {
        memcpy(idx + k->arity * j, from + k->arity * (size_t)perm[j], k->arity * sizeof *idx);
        if (rest)
            val[j] = rest[perm[j]];
        if (comp)
            val[c + j] = comp[perm[j]];
    }
    engine_scene_give(b, k->idx_at, idx);
    if (rest)
        engine_scene_give(b, k->rest_at, val);
    if (comp)
        engine_scene_give(b, k->comp_at, val + c);
}

/* The scene run twice, serially: as given (A), and (B) each row's list
 * permuted, its per-element arrays with it (seed 0: reversed; else the
 * j-th list's shuffle drawn from seed + j). */
static xpbd_status engine_order_check(const SC *scene, const xpbd_step_config *cfg, double h,
                                      uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    if (!scene || !out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    SC a = *scene, b = *scene;
    a.colouring.serial = 1;
    b.colouring.serial = 1;
    size_t most = 0, ni = 0, nv = 0;
    int missing = 0;
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->arity) {
            const engine_kind *k = xpbd__engine_kinds[r];
            const size_t c = engine_scene_count(scene, k->count_at);
            most = c > most ? c : most;
            ni += k->arity * c + 1;
            nv += 2 * c + 1;
            missing |= c && !engine_scene_index(scene, k->idx_at);
        }
    uint32_t *perm = malloc((most + 1) * sizeof *perm);
    uint32_t *idx = malloc((ni + 1) * sizeof *idx);
    R *vals = malloc((nv + 1) * sizeof *vals);
    xpbd_status st = XPBD_ERR_NOMEM;
    E *ea = NULL, *eb = NULL;
    if (!perm || !idx || !vals)
        goto done;
    if (missing) {
        st = XPBD_ERR_ARGUMENT;
        goto done;
    }
    size_t oi = 0, ov = 0;
    for (unsigned r = 0, j = 0; xpbd__engine_kinds[r]; ++r)
        if (xpbd__engine_kinds[r]->arity) {
            const engine_kind *k = xpbd__engine_kinds[r];
            const size_t c = engine_scene_count(scene, k->count_at);
            order_permutation(perm, c, seed ? seed + j : 0);
            engine_order_permute(k, scene, &b, perm, idx + oi, vals + ov);
            oi += k->arity * c + 1;
            ov += 2 * c + 1;
            ++j;
        }

    if ((st = SFX(xpbd_engine_create)(&ea, &a, cfg, NULL, NULL)) != XPBD_OK ||
        (st = SFX(xpbd_engine_create)(&eb, &b, cfg, NULL, NULL)) != XPBD_OK)
        goto done;
    for (uint32_t f = 0; f < frames; ++f) {
        st = SFX(xpbd_engine_step)(ea, h);
        if (st < 0)
            goto done;
        st = SFX(xpbd_engine_step)(eb, h);
        if (st < 0)
            goto done;
    }
    st = XPBD_OK;
    {
        const P *pa = &ea->particles, *pb = &eb->particles;
        double sum = 0, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (size_t i = 0; i < pa->count; ++i) {
            const double d[3] = {(double)pa->x[i] - (double)pb->x[i],
                                 (double)pa->y[i] - (double)pb->y[i],
                                 (double)pa->z[i] - (double)pb->z[i]};
            const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            sum += d2;
            if (sqrt(d2) > out->max_diff)
                out->max_diff = sqrt(d2);
            const double x[3] = {pa->x[i], pa->y[i], pa->z[i]};
            for (int k = 0; k < 3; ++k) {
                if (i == 0 || x[k] < lo[k])
                    lo[k] = x[k];
                if (i == 0 || x[k] > hi[k])
                    hi[k] = x[k];
            }
        }
        out->rms_diff = pa->count ? sqrt(sum / (double)pa->count) : 0;
        for (int k = 0; k < 3; ++k)
            if (hi[k] - lo[k] > out->extent)
                out->extent = hi[k] - lo[k];
        out->relative = out->extent > 0 ? out->max_diff / out->extent : 0;
        out->frames = frames;
    }
done:
    SFX(xpbd_engine_destroy)(ea);
    SFX(xpbd_engine_destroy)(eb);
    free(perm);
    free(idx);
    free(vals);
    return st;
}

#undef E
#undef SC

#endif /* XPBD_SELF */
