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
/* The two-serial-orders check, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_order_permute_quads PREC(engine_order_permute_quads_f32, engine_order_permute_quads_f64)
#define engine_order_check PREC(engine_order_check_f32, engine_order_check_f64)

#define E SFX(xpbd_engine)
#define SC SFX(xpbd_scene)

/* out[k] = idx[perm[k]] (4 indices each), with their compliance if given;
 * returns out_comp, or NULL without compliance. */
static const R *engine_order_permute_quads(const uint32_t *perm, size_t count,
                                          const uint32_t *idx, const R *comp, uint32_t *out,
                                          R *out_comp)
{
    for (size_t k = 0; k < count; ++k) {
        memcpy(out + 4 * k, idx + 4 * (size_t)perm[k], 4 * sizeof *out);
        if (comp)
            out_comp[k] = comp[perm[k]];
    }
    return comp ? out_comp : NULL;
}

static xpbd_status engine_order_check(const SC *scene, const xpbd_step_config *cfg, double h,
                                  uint32_t frames, uint64_t seed, xpbd_order_report *out)
{
    if (!scene || !out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    SC a = *scene, b = *scene;
    a.colouring.serial = 1;
    b.colouring.serial = 1;
    const size_t ne = scene->edges, nt = scene->tets, nb = scene->bends;
    const size_t most = ne > nt ? (ne > nb ? ne : nb) : (nt > nb ? nt : nb);
    uint32_t *perm = malloc((most + 1) * sizeof *perm);
    uint32_t *edge = malloc((2 * ne + 1) * sizeof *edge);
    uint32_t *tet = malloc((4 * nt + 1) * sizeof *tet);
    uint32_t *bend = malloc((4 * nb + 1) * sizeof *bend);
    R *vals = malloc((2 * ne + nt + nb + 1) * sizeof *vals);
    xpbd_status st = XPBD_ERR_NOMEM;
    E *ea = NULL, *eb = NULL;
    if (!perm || !edge || !tet || !bend || !vals)
        goto done;
    if ((ne && !scene->edge) || (nt && !scene->tet) || (nb && !scene->bend)) {
        st = XPBD_ERR_ARGUMENT;
        goto done;
    }
    /* B: each list permuted, its per-element arrays with it */
    order_permutation(perm, ne, seed);
    R *erest = vals, *ecomp = vals + ne, *tcomp = vals + 2 * ne, *bcomp = tcomp + nt;
    for (size_t k = 0; k < ne; ++k) {
        edge[2 * k] = scene->edge[2 * (size_t)perm[k]];
        edge[2 * k + 1] = scene->edge[2 * (size_t)perm[k] + 1];
        if (scene->edge_rest)
            erest[k] = scene->edge_rest[perm[k]];
        if (scene->edge_compliance)
            ecomp[k] = scene->edge_compliance[perm[k]];
    }
    b.edge = edge;
    b.edge_rest = scene->edge_rest ? erest : NULL;
    b.edge_compliance = scene->edge_compliance ? ecomp : NULL;
    order_permutation(perm, nt, seed ? seed + 1 : 0);
    b.tet = tet;
    b.tet_compliance = engine_order_permute_quads(perm, nt, scene->tet, scene->tet_compliance, tet,
                                                 tcomp);
    order_permutation(perm, nb, seed ? seed + 2 : 0);
    b.bend = bend;
    b.bend_compliance = engine_order_permute_quads(perm, nb, scene->bend, scene->bend_compliance,
                                                  bend, bcomp);

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
    free(edge);
    free(tet);
    free(bend);
    free(vals);
    return st;
}

#undef E
#undef SC

#endif /* XPBD_SELF */
