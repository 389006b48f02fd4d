/* SPDX-License-Identifier: MIT */
/* Scene builders, template over precision.h (R, SFX). */

xpbd_status SFX(xs_world_init)(XS_W *w, size_t n, const R *xyz, size_t m,
                                  const uint32_t *i0, const uint32_t *i1, const R *rest,
                                  const R *compliance)
{
    memset(w, 0, sizeof *w);
    if (!rest && !xyz)
        return XPBD_ERR_ARGUMENT;
    w->block_ = calloc(10 * (n ? n : 1), sizeof(R));
    if (!w->block_)
        return XPBD_ERR_NOMEM;
    SFX(xpbd_particles_bind)(&w->p, n, w->block_, n);
    for (size_t i = 0; i < n; ++i) {
        w->p.w[i] = 1;
        if (xyz) {
            w->p.x[i] = xyz[3 * i];
            w->p.y[i] = xyz[3 * i + 1];
            w->p.z[i] = xyz[3 * i + 2];
        }
    }
    R *own_rest = NULL;
    if (!rest) {
        own_rest = malloc((m ? m : 1) * sizeof(R));
        if (!own_rest) {
            SFX(xs_world_free)(w);
            return XPBD_ERR_NOMEM;
        }
        for (size_t k = 0; k < m; ++k) {
            const R dx = xyz[3 * i1[k]] - xyz[3 * i0[k]];
            const R dy = xyz[3 * i1[k] + 1] - xyz[3 * i0[k] + 1];
            const R dz = xyz[3 * i1[k] + 2] - xyz[3 * i0[k] + 2];
            own_rest[k] = SQRT(dx * dx + dy * dy + dz * dz);
        }
        rest = own_rest;
    }
    xpbd_status st = XS_BUILD(&w->set, n, m, i0, i1, rest, compliance, NULL, NULL);
    free(own_rest);
    if (st != XPBD_OK) {
        SFX(xs_world_free)(w);
        return st;
    }
    w->scratch_bytes = XS_SCRATCH(n, w->set.slots);
    w->scratch = malloc(w->scratch_bytes ? w->scratch_bytes : 1);
    if (!w->scratch) {
        SFX(xs_world_free)(w);
        return XPBD_ERR_NOMEM;
    }
    return XPBD_OK;
}

xpbd_status SFX(xs_world_recolour)(XS_W *w, const xpbd_colouring_options *opt)
{
    const size_t m = w->set.count;
    uint32_t *i0 = malloc((m ? m : 1) * sizeof *i0), *i1 = malloc((m ? m : 1) * sizeof *i1);
    R *rest = malloc((m ? m : 1) * sizeof *rest), *comp = malloc((m ? m : 1) * sizeof *comp);
    xpbd_status st = XPBD_ERR_NOMEM;
    SFX(xpbd_distance_set) set;
    void *scratch = NULL;
    if (i0 && i1 && rest && comp) {
        for (uint32_t s = 0; s < w->set.slots; ++s) {
            const uint32_t k = w->set.source[s];
            if (k == XPBD_PAD)
                continue;
            i0[k] = w->set.i0[s];
            i1[k] = w->set.i1[s];
            rest[k] = w->set.rest[s];
            comp[k] = w->set.compliance[s];
        }
        st = XS_BUILD(&set, w->p.count, m, i0, i1, rest, comp, opt, NULL);
    }
    free(i0);
    free(i1);
    free(rest);
    free(comp);
    if (st != XPBD_OK)
        return st;
    const size_t bytes = XS_SCRATCH(w->p.count, set.slots);
    scratch = malloc(bytes ? bytes : 1);
    if (!scratch) {
        XS_FREESET(&set);
        return XPBD_ERR_NOMEM;
    }
    XS_FREESET(&w->set);
    free(w->scratch);
    w->set = set;
    w->scratch = scratch;
    w->scratch_bytes = bytes;
    return XPBD_OK;
}

void SFX(xs_world_free)(XS_W *w)
{
    if (!w)
        return;
    XS_FREESET(&w->set);
    free(w->scratch);
    free(w->block_);
    memset(w, 0, sizeof *w);
}

xpbd_status SFX(xs_chain)(XS_W *w, int n, R L0, R alpha)
{
    if (n < 2)
        return XPBD_ERR_ARGUMENT;
    uint32_t *i0 = malloc((size_t)n * sizeof *i0), *i1 = malloc((size_t)n * sizeof *i1);
    R *rest = malloc((size_t)n * sizeof *rest), *comp = malloc((size_t)n * sizeof *comp);
    xpbd_status st = XPBD_ERR_NOMEM;
    if (i0 && i1 && rest && comp) {
        for (int k = 0; k < n - 1; ++k) {
            i0[k] = (uint32_t)k;
            i1[k] = (uint32_t)k + 1;
            rest[k] = L0;
            comp[k] = alpha;
        }
        st = SFX(xs_world_init)(w, (size_t)n, NULL, (size_t)n - 1, i0, i1, rest, comp);
        if (st == XPBD_OK) {
            for (int i = 0; i < n; ++i)
                w->p.y[i] = -(R)i * L0;
            w->p.w[0] = 0;
        }
    }
    free(i0);
    free(i1);
    free(rest);
    free(comp);
    return st;
}

double SFX(xs_chain_stretch)(const XS_W *w, R L0)
{
    double s = 0;
    for (size_t i = 0; i + 1 < w->p.count; ++i) {
        const double dx = (double)w->p.x[i + 1] - w->p.x[i];
        const double dy = (double)w->p.y[i + 1] - w->p.y[i];
        const double dz = (double)w->p.z[i + 1] - w->p.z[i];
        s += sqrt(dx * dx + dy * dy + dz * dz) - (double)L0;
    }
    return s;
}

xpbd_status SFX(xs_world_scene)(const XS_W *w, SFX(xpbd_scene) *out, void **block)
{
    const size_t n = w->p.count, m = w->set.count;
    memset(out, 0, sizeof *out);
    /* reals: xyz, prev, vel [3n] each, w [n], rest and compliance [m]
     * each; then the edges [2m] */
    const size_t reals = 10 * n + 2 * m;
    *block = malloc(reals * sizeof(R) + 2 * m * sizeof(uint32_t) + 1);
    if (!*block)
        return XPBD_ERR_NOMEM;
    R *xyz = *block, *prev = xyz + 3 * n, *vel = prev + 3 * n, *inv = vel + 3 * n;
    R *rest = inv + n, *comp = rest + m;
    uint32_t *edge = (uint32_t *)(void *)(comp + m);
    const XS_P *p = &w->p;
    for (size_t i = 0; i < n; ++i) {
        const R a[3][3] = {{p->x[i], p->y[i], p->z[i]},
                           {p->px[i], p->py[i], p->pz[i]},
                           {p->vx[i], p->vy[i], p->vz[i]}};
        memcpy(xyz + 3 * i, a[0], sizeof a[0]);
        memcpy(prev + 3 * i, a[1], sizeof a[1]);
        memcpy(vel + 3 * i, a[2], sizeof a[2]);
        inv[i] = p->w[i];
    }
    for (uint32_t s = 0; s < w->set.slots; ++s) {
        const uint32_t k = w->set.source[s];
        if (k == XPBD_PAD)
            continue;
        edge[2 * (size_t)k] = w->set.i0[s];
        edge[2 * (size_t)k + 1] = w->set.i1[s];
        rest[k] = w->set.rest[s];
        comp[k] = w->set.compliance[s];
    }
    out->particles = n;
    out->xyz = xyz;
    out->prev_xyz = prev;
    out->vel = vel;
    out->inv_mass = inv;
    out->edges = m;
    out->edge = edge;
    out->edge_rest = rest;
    out->edge_compliance = comp;
    return XPBD_OK;
}

xpbd_status SFX(xs_cloth)(XS_W *w, int nx, int ny, R d, R alpha, int shear, int flat)
{
    if (nx < 2 || ny < 2)
        return XPBD_ERR_ARGUMENT;
    const size_t n = (size_t)nx * (size_t)ny;
    const size_t cap = 4 * n;
    uint32_t *i0 = malloc(cap * sizeof *i0), *i1 = malloc(cap * sizeof *i1);
    R *comp = malloc(cap * sizeof *comp), *xyz = malloc(3 * n * sizeof *xyz);
    xpbd_status st = XPBD_ERR_NOMEM;
    if (i0 && i1 && comp && xyz) {
        size_t m = 0;
#define XS_ID(i, j) ((uint32_t)((size_t)(j) * (size_t)nx + (size_t)(i)))
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const size_t id = XS_ID(i, j);
                xyz[3 * id] = (R)i * d;
                xyz[3 * id + 1] = flat ? 0 : -(R)j * d;
                xyz[3 * id + 2] = flat ? (R)j * d : 0;
                if (i + 1 < nx) { i0[m] = XS_ID(i, j); i1[m] = XS_ID(i + 1, j); m++; }
                if (j + 1 < ny) { i0[m] = XS_ID(i, j); i1[m] = XS_ID(i, j + 1); m++; }
                if (shear && i + 1 < nx && j + 1 < ny) {
                    i0[m] = XS_ID(i, j); i1[m] = XS_ID(i + 1, j + 1); m++;
                    i0[m] = XS_ID(i + 1, j); i1[m] = XS_ID(i, j + 1); m++;
                }
            }
#undef XS_ID
        for (size_t k = 0; k < m; ++k)
            comp[k] = alpha;
        st = SFX(xs_world_init)(w, n, xyz, m, i0, i1, NULL, comp);
        if (st == XPBD_OK) {
            w->p.w[0] = 0;
            w->p.w[nx - 1] = 0;
        }
    }
    free(i0);
    free(i1);
    free(comp);
    free(xyz);
    return st;
}

int SFX(xs_pile_make)(SFX(xs_pile) *p, const xs_mesh *m, uint32_t bodies, const double *off,
                        const double *w, double r, double edge_alpha, double tet_alpha)
{
    memset(p, 0, sizeof *p);
    const size_t nb = m->k.particles, n = bodies * nb;
    p->xyz = malloc((3 * n + 1) * sizeof *p->xyz);
    p->w = malloc((n + 1) * sizeof *p->w);
    p->r = malloc((n + 1) * sizeof *p->r);
    p->edge = malloc((2 * bodies * m->k.edges + 1) * sizeof *p->edge);
    p->tet = malloc((4 * bodies * m->k.tets + 1) * sizeof *p->tet);
    p->begin = malloc(((size_t)bodies + 1) * sizeof *p->begin);
    if (!p->xyz || !p->w || !p->r || !p->edge || !p->tet || !p->begin)
        return 0;
    for (uint32_t b = 0; b < bodies; ++b) {
        for (size_t i = 0; i < nb; ++i) {
            for (int k = 0; k < 3; ++k)
                p->xyz[3 * (b * nb + i) + (size_t)k] =
                    (R)(m->xyz[3 * i + (size_t)k] + off[3 * b + (size_t)k]);
            p->w[b * nb + i] = (R)w[b];
            p->r[b * nb + i] = (R)r;
        }
        for (size_t k = 0; k < 2 * m->k.edges; ++k)
            p->edge[2 * b * m->k.edges + k] = m->edges[k] + (uint32_t)(b * nb);
        for (size_t k = 0; k < 4 * m->k.tets; ++k)
            p->tet[4 * b * m->k.tets + k] = m->tets[k] + (uint32_t)(b * nb);
        p->begin[b] = b * nb;
    }
    p->begin[bodies] = n;
    p->ground = (xpbd_plane){{0, 1, 0}, 0};
    p->s.particles = n;
    p->s.xyz = p->xyz;
    p->s.inv_mass = p->w;
    p->s.radius = p->r;
    p->s.edges = bodies * m->k.edges;
    p->s.edge = p->edge;
    p->s.edge_alpha = edge_alpha;
    p->s.tets = bodies * m->k.tets;
    p->s.tet = p->tet;
    p->s.tet_alpha = tet_alpha;
    p->s.bodies = bodies;
    p->s.body_begin = p->begin;
    p->s.planes = 1;
    p->s.plane = &p->ground;
    p->s.max_contacts = 4 * n;
    return 1;
}

void SFX(xs_pile_free)(SFX(xs_pile) *p)
{
    free(p->xyz);
    free(p->w);
    free(p->r);
    free(p->edge);
    free(p->tet);
    free(p->begin);
    memset(p, 0, sizeof *p);
}
