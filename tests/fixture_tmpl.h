/* SPDX-License-Identifier: MIT */
/* Clouds, set building and snapshots, template over precision.h (R, SFX). */

#define XT_CLOUD SFX(xt_cloud)
#define XT_P SFX(xpbd_particles)
#define XT_DS SFX(xpbd_distance_set)
#define XT_ARRAYS 13

static R **SFX(cloud_arrays)(const XT_CLOUD *c, R *a[XT_ARRAYS])
{
    R *const list[XT_ARRAYS] = {c->p.x,  c->p.y,  c->p.z,  c->p.px, c->p.py,
                                   c->p.pz, c->p.vx, c->p.vy, c->p.vz, c->p.w,
                                   c->fx,   c->fy,   c->fz};
    memcpy(a, list, sizeof list);
    return a;
}

int SFX(xt_cloud_alloc)(XT_CLOUD *c, size_t n)
{
    memset(c, 0, sizeof *c);
    c->block = calloc(XT_ARRAYS * n + 1, sizeof(R));
    if (!c->block)
        return 0;
    R *b = c->block;
    SFX(xpbd_particles_bind)(&c->p, n, b, n);
    c->fx = b + 10 * n;
    c->fy = b + 11 * n;
    c->fz = b + 12 * n;
    return 1;
}

void SFX(xt_cloud_free)(XT_CLOUD *c)
{
    free(c->block);
    memset(c, 0, sizeof *c);
}

void SFX(xt_cloud_copy)(XT_CLOUD *dst, const XT_CLOUD *src)
{
    memcpy(dst->block, src->block, (XT_ARRAYS * src->p.count + 1) * sizeof(R));
}

void SFX(xt_cloud_random)(XT_CLOUD *c, xt_rng *rng, double static_fraction,
                             const xt_graph *g)
{
    XT_P *p = &c->p;
    for (size_t i = 0; i < p->count; ++i) {
        p->x[i] = (R)xt_range(rng, -1, 1);
        p->y[i] = (R)xt_range(rng, -1, 1);
        p->z[i] = (R)xt_range(rng, -1, 1);
        p->vx[i] = (R)xt_range(rng, -1, 1);
        p->vy[i] = (R)xt_range(rng, -1, 1);
        p->vz[i] = (R)xt_range(rng, -1, 1);
        p->px[i] = p->x[i] - (R)xt_range(rng, -0.01, 0.01);
        p->py[i] = p->y[i] - (R)xt_range(rng, -0.01, 0.01);
        p->pz[i] = p->z[i] - (R)xt_range(rng, -0.01, 0.01);
        p->w[i] = xt_unit(rng) < static_fraction ? 0 : (R)xt_range(rng, 0.1, 3);
        c->fx[i] = (R)xt_range(rng, -5, 5);
        c->fy[i] = (R)xt_range(rng, -5, 5);
        c->fz[i] = (R)xt_range(rng, -5, 5);
    }
    if (!g)
        return;
    const size_t first = g->count - g->coincident - g->static_pairs;
    for (size_t e = 0; e < g->coincident; ++e) {
        const uint32_t a = g->i0[first + e], b = g->i1[first + e];
        p->x[b] = p->x[a];
        p->y[b] = p->y[a];
        p->z[b] = p->z[a];
        p->vx[b] = p->vx[a];
        p->vy[b] = p->vy[a];
        p->vz[b] = p->vz[a];
        if (!(p->w[a] > 0))
            p->w[a] = 1;
        if (!(p->w[b] > 0))
            p->w[b] = 2;
    }
    for (size_t e = 0; e < g->static_pairs; ++e) {
        const size_t k = first + g->coincident + e;
        p->w[g->i0[k]] = 0;
        p->w[g->i1[k]] = 0;
    }
}

int SFX(xt_cloud_same)(const XT_CLOUD *a, const XT_CLOUD *b, const char *what,
                          const char *file, int line)
{
    R *la[XT_ARRAYS], *lb[XT_ARRAYS];
    SFX(cloud_arrays)(a, la);
    SFX(cloud_arrays)(b, lb);
    int same = 1;
    char label[160];
    for (int k = 0; k < XT_ARRAYS; ++k) {
        snprintf(label, sizeof label, "%s: %s", what, xt_array_names[k]);
        same &= XT_SAME(la[k], lb[k], a->p.count, label, file, line);
    }
    return same;
}

xpbd_status SFX(xt_graph_build)(const xt_graph *g, const xpbd_colouring_options *opt,
                                   XT_DS *out)
{
    const size_t m = g->count ? g->count : 1;
    R *rest = malloc(m * sizeof *rest), *comp = malloc(m * sizeof *comp);
    xpbd_status st = XPBD_ERR_NOMEM;
    if (rest && comp) {
        for (size_t k = 0; k < g->count; ++k) {
            rest[k] = (R)g->rest[k];
            comp[k] = (R)g->compliance[k];
        }
        st = SFX(xpbd_distance_set_build)(out, g->particles, g->count, g->i0, g->i1, rest,
                                             comp, opt, NULL);
    }
    free(rest);
    free(comp);
    return st;
}

void SFX(xt_snap)(xt_snap *s, const XT_P *p, const XT_DS *c)
{
    const size_t n = p->count, slots = c ? c->slots : 0;
    s->size = (10 * n + slots) * sizeof(R);
    s->bytes = malloc(s->size + 1);
    if (!s->bytes) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    R *const arrays[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 10; ++k)
        if (n)
            memcpy(s->bytes + (size_t)k * n * sizeof(R), arrays[k], n * sizeof(R));
    if (slots)
        memcpy(s->bytes + 10 * n * sizeof(R), c->lambda, slots * sizeof(R));
}

int SFX(xt_snap_same)(const xt_snap *s, const XT_P *p, const XT_DS *c, const char *what,
                         const char *file, int line)
{
    const size_t n = p->count, slots = c ? c->slots : 0;
    if (s->size != (10 * n + slots) * sizeof(R)) {
        if (xt_fail_begin(file, line))
            fprintf(stderr, "%s: snapshot size changed\n", what);
        return 0;
    }
    R *const arrays[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    int same = 1;
    char label[160];
    for (int k = 0; k < 10; ++k) {
        snprintf(label, sizeof label, "%s: %s", what, xt_array_names[k]);
        same &= XT_SAME(arrays[k], (const R *)(const void *)(s->bytes + (size_t)k * n * sizeof(R)),
                        n, label, file, line);
    }
    snprintf(label, sizeof label, "%s: lambda", what);
    if (slots)
        same &= XT_SAME(c->lambda, (const R *)(const void *)(s->bytes + 10 * n * sizeof(R)),
                        slots, label, file, line);
    return same;
}

#undef XT_CLOUD
#undef XT_P
#undef XT_DS
#undef XT_ARRAYS
