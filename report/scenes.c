/* SPDX-License-Identifier: MIT */
/* Reference scenes (see scenes.h). */
#include "scenes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double xs_chain_stretch_closed(int n, double mass, double alpha)
{
    return mass * XS_G * (double)n * (double)(n - 1) / 2.0 * alpha;
}

/* ------------------------------------------------------------ soft bodies (S3) --- */

void xs_mesh_free(xs_mesh *m)
{
    free(m->xyz);
    free(m->edges);
    free(m->shear);
    free(m->bends);
    free(m->tets);
    free(m->tris);
    memset(m, 0, sizeof *m);
}

int xs_mesh_alloc(xs_mesh *m, xpbd_mesh_out *o)
{
    m->xyz = malloc((3 * m->k.particles + 1) * sizeof *m->xyz);
    m->edges = malloc((2 * m->k.edges + 1) * sizeof *m->edges);
    m->shear = malloc((2 * m->k.shear + 1) * sizeof *m->shear);
    m->bends = malloc((4 * m->k.bends + 1) * sizeof *m->bends);
    m->tets = malloc((4 * m->k.tets + 1) * sizeof *m->tets);
    m->tris = malloc((3 * m->k.triangles + 1) * sizeof *m->tris);
    memset(o, 0, sizeof *o);
    o->xyz64 = m->xyz;
    o->edges = m->edges;
    o->shear = m->k.shear ? m->shear : NULL;
    o->bends = m->k.bends ? m->bends : NULL;
    o->tets = m->k.tets ? m->tets : NULL;
    o->triangles = m->tris;
    o->capacity = m->k;
    return m->xyz && m->edges && m->shear && m->bends && m->tets && m->tris;
}

int xs_mesh_box(xs_mesh *m, uint32_t n, double d, const double o[3], uint32_t tets_per_cube)
{
    memset(m, 0, sizeof *m);
    const xpbd_box_desc desc = {n, n, n, d, {o[0], o[1], o[2]}, tets_per_cube};
    xpbd_mesh_out out;
    return xpbd_mesh_box(&desc, &m->k, NULL) == XPBD_OK && xs_mesh_alloc(m, &out) &&
           xpbd_mesh_box(&desc, NULL, &out) == XPBD_OK;
}

int xs_mesh_cloth(xs_mesh *m, uint32_t nx, uint32_t ny, double d, const double o[3],
                  const double *u, const double *v)
{
    memset(m, 0, sizeof *m);
    xpbd_cloth_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.nx = nx;
    desc.ny = ny;
    desc.spacing = d;
    for (int a = 0; a < 3; ++a) {
        desc.origin[a] = o[a];
        desc.u[a] = u ? u[a] : 0;
        desc.v[a] = v ? v[a] : 0;
    }
    xpbd_mesh_out out;
    return xpbd_mesh_cloth(&desc, &m->k, NULL) == XPBD_OK && xs_mesh_alloc(m, &out) &&
           xpbd_mesh_cloth(&desc, NULL, &out) == XPBD_OK;
}

uint32_t *xs_mesh_all_edges(const xs_mesh *m)
{
    uint32_t *e = malloc((2 * (m->k.edges + m->k.shear) + 1) * sizeof *e);
    if (e) {
        memcpy(e, m->edges, 2 * m->k.edges * sizeof *e);
        memcpy(e + 2 * m->k.edges, m->shear, 2 * m->k.shear * sizeof *e);
    }
    return e;
}

xpbd_scene_f64 xs_cloth_scene(const xs_mesh *m, const double *w, const uint32_t *edges,
                              double edge_alpha, double bend_alpha)
{
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = m->k.particles;
    s.xyz = m->xyz;
    s.inv_mass = w;
    s.edges = m->k.edges + m->k.shear;
    s.edge = edges;
    s.edge_alpha = edge_alpha;
    s.bends = m->k.bends;
    s.bend = m->bends;
    s.bend_alpha = bend_alpha;
    return s;
}

double xs_det3(const double a[3], const double b[3], const double c[3])
{
    return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
}

double xs_norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

double xs_tets_volume(const xpbd_particles_f64 *p, const uint32_t *tets, size_t nt)
{
    double v = 0;
    for (size_t t = 0; t < nt; ++t) {
        const uint32_t *q = tets + 4 * t;
        double e[3][3];
        for (int a = 0; a < 3; ++a) {
            e[a][0] = p->x[q[a + 1]] - p->x[q[0]];
            e[a][1] = p->y[q[a + 1]] - p->y[q[0]];
            e[a][2] = p->z[q[a + 1]] - p->z[q[0]];
        }
        v += xs_det3(e[0], e[1], e[2]) / 6;
    }
    return v;
}

double xs_min_y(const xpbd_particles_f64 *p, size_t b0, size_t b1)
{
    double m = HUGE_VAL;
    for (size_t i = b0; i < b1; ++i)
        m = p->y[i] < m ? p->y[i] : m;
    return m;
}

double xs_max_y(const xpbd_particles_f64 *p, size_t b0, size_t b1)
{
    double m = -HUGE_VAL;
    for (size_t i = b0; i < b1; ++i)
        m = p->y[i] > m ? p->y[i] : m;
    return m;
}

double xs_com(const xpbd_particles_f64 *p, size_t b0, size_t b1, double c[3], double mom[3])
{
    double m = 0, cc[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
    for (size_t i = b0; i < b1; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double mi = 1 / p->w[i];
        m += mi;
        cc[0] += mi * p->x[i];
        cc[1] += mi * p->y[i];
        cc[2] += mi * p->z[i];
        pp[0] += mi * p->vx[i];
        pp[1] += mi * p->vy[i];
        pp[2] += mi * p->vz[i];
    }
    for (int a = 0; a < 3; ++a) {
        if (c)
            c[a] = m > 0 ? cc[a] / m : 0;
        if (mom)
            mom[a] = pp[a];
    }
    return m;
}

void xs_angular(const xpbd_particles_f64 *p, size_t b0, size_t b1, double L[3])
{
    double c[3], mom[3];
    const double m = xs_com(p, b0, b1, c, mom);
    const double vc[3] = {mom[0] / m, mom[1] / m, mom[2] / m};
    L[0] = L[1] = L[2] = 0;
    for (size_t i = b0; i < b1; ++i) {
        if (!(p->w[i] > 0))
            continue;
        const double mi = 1 / p->w[i];
        const double r[3] = {p->x[i] - c[0], p->y[i] - c[1], p->z[i] - c[2]};
        const double u[3] = {p->vx[i] - vc[0], p->vy[i] - vc[1], p->vz[i] - vc[2]};
        L[0] += mi * (r[1] * u[2] - r[2] * u[1]);
        L[1] += mi * (r[2] * u[0] - r[0] * u[2]);
        L[2] += mi * (r[0] * u[1] - r[1] * u[0]);
    }
}

int xs_run(xpbd_engine_f64 *e, int frames)
{
    for (int f = 0; f < frames; ++f)
        if (xpbd_engine_step_f64(e, 1.0 / 60) < 0)
            return 0;
    return 1;
}

size_t xs_components(const xpbd_engine_f64 *eng)
{
    xpbd_scene_f64 v;
    xpbd_engine_scene_f64(eng, &v);
    const xpbd_scene_f64 *e = &v;
    const size_t n = v.particles;
    uint32_t *parent = malloc((n + 1) * sizeof *parent);
    if (!parent)
        return 0;
    for (size_t i = 0; i < n; ++i)
        parent[i] = (uint32_t)i;
    for (size_t k = 0; k < e->edges; ++k) {
        uint32_t a = e->edge[2 * k], b = e->edge[2 * k + 1];
        while (parent[a] != a)
            a = parent[a] = parent[parent[a]];
        while (parent[b] != b)
            b = parent[b] = parent[parent[b]];
        if (a != b)
            parent[a < b ? b : a] = a < b ? a : b;
    }
    size_t roots = 0;
    for (size_t i = 0; i < n; ++i)
        roots += parent[i] == i;
    free(parent);
    return roots;
}

static uint32_t xs_find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a)
        a = parent[a] = parent[parent[a]];
    return a;
}

size_t xs_hinges(const xpbd_engine_f64 *eng, uint8_t *flags)
{
    xpbd_scene_f64 v;
    xpbd_engine_scene_f64(eng, &v);
    const xpbd_scene_f64 *e = &v;
    const size_t n = v.particles, ne = v.edges, nt = v.tets;
    size_t *eb = calloc(n + 2, sizeof *eb), *tb = calloc(n + 2, sizeof *tb);
    uint32_t *el = malloc((2 * ne + 1) * sizeof *el), *tl = malloc((4 * nt + 1) * sizeof *tl);
    uint32_t *stamp = calloc(n + 1, sizeof *stamp), *local = malloc((n + 1) * sizeof *local);
    uint32_t *nbr = malloc((n + 1) * sizeof *nbr), *parent = malloc((n + 1) * sizeof *parent);
    uint32_t *size = malloc((n + 1) * sizeof *size);
    size_t hinges = SIZE_MAX;
    if (!eb || !tb || !el || !tl || !stamp || !local || !nbr || !parent || !size)
        goto done;
    /* incidence lists: edges and tets per vertex */
    for (size_t k = 0; k < 2 * ne; ++k)
        eb[e->edge[k] + 2]++;
    for (size_t k = 0; k < 4 * nt; ++k)
        tb[e->tet[k] + 2]++;
    for (size_t v = 0; v < n; ++v) {
        eb[v + 2] += eb[v + 1];
        tb[v + 2] += tb[v + 1];
    }
    for (size_t k = 0; k < 2 * ne; ++k)
        el[eb[e->edge[k] + 1]++] = (uint32_t)(k / 2);
    for (size_t k = 0; k < 4 * nt; ++k)
        tl[tb[e->tet[k] + 1]++] = (uint32_t)(k / 4);
    hinges = 0;
    for (size_t v = 0; v < n; ++v) {
        const uint32_t gen = (uint32_t)v + 1;
        uint32_t d = 0;
        for (size_t q = eb[v]; q < eb[v + 1]; ++q)
            for (int s = 0; s < 2; ++s) {
                const uint32_t a = e->edge[2 * (size_t)el[q] + (size_t)s];
                if (a != v && stamp[a] != gen) {
                    stamp[a] = gen;
                    local[a] = d;
                    nbr[d++] = a;
                }
            }
        for (size_t q = tb[v]; q < tb[v + 1]; ++q)
            for (int j = 0; j < 4; ++j) {
                const uint32_t a = e->tet[4 * (size_t)tl[q] + (size_t)j];
                if (a != v && stamp[a] != gen) {
                    stamp[a] = gen;
                    local[a] = d;
                    nbr[d++] = a;
                }
            }
        for (uint32_t i = 0; i < d; ++i) {
            parent[i] = i;
            size[i] = 0;
        }
        for (uint32_t i = 0; i < d; ++i) {
            const uint32_t a = nbr[i];
            for (size_t q = eb[a]; q < eb[a + 1]; ++q)
                for (int s = 0; s < 2; ++s) {
                    const uint32_t b = e->edge[2 * (size_t)el[q] + (size_t)s];
                    if (b != v && b != a && stamp[b] == gen)
                        parent[xs_find(parent, i)] = xs_find(parent, local[b]);
                }
            for (size_t q = tb[a]; q < tb[a + 1]; ++q)
                for (int j = 0; j < 4; ++j) {
                    const uint32_t b = e->tet[4 * (size_t)tl[q] + (size_t)j];
                    if (b != v && b != a && stamp[b] == gen)
                        parent[xs_find(parent, i)] = xs_find(parent, local[b]);
                }
        }
        uint32_t big = 0;
        for (uint32_t i = 0; i < d; ++i)
            big += ++size[xs_find(parent, i)] == 2;
        hinges += big >= 2;
        if (flags)
            flags[v] = big >= 2;
    }
done:
    free(eb);
    free(tb);
    free(el);
    free(tl);
    free(stamp);
    free(local);
    free(nbr);
    free(parent);
    free(size);
    return hinges;
}

int xs_curtain_make(xs_curtain *c, int keep_hinges)
{
    memset(c, 0, sizeof *c);
    if (!xs_mesh_cloth(&c->m, XS_CURTAIN_NX, XS_CURTAIN_NY, 0.05, (const double[3]){0, 1, 0},
                       (const double[3]){1, 0, 0}, (const double[3]){0, -1, 0}))
        return 0;
    const size_t n = c->m.k.particles;
    c->w = malloc(n * sizeof *c->w);
    c->edges = xs_mesh_all_edges(&c->m);
    if (!c->w || !c->edges)
        return 0;
    for (size_t i = 0; i < n; ++i)
        c->w[i] = i < XS_CURTAIN_NX ? 0 : 50;
    const xpbd_scene_f64 s = xs_cloth_scene(&c->m, c->w, c->edges, 1e-5, 1e-3);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = 8;
    const xpbd_engine_options opt = {.tear_stretch = 0.3, .keep_hinges = keep_hinges ? 1u : 0u};
    return xpbd_engine_create_f64(&c->e, &s, &cfg, &opt, NULL) == XPBD_OK;
}

xpbd_status xs_curtain_frame(xs_curtain *c)
{
    const uint32_t half = XS_CURTAIN_NX / 2;
    const xpbd_input left = {XPBD_INPUT_TRANSLATE, 0, half, {-0.01, 0, 0}};
    const xpbd_input right = {XPBD_INPUT_TRANSLATE, half, XS_CURTAIN_NX, {0.01, 0, 0}};
    if (xpbd_engine_apply_f64(c->e, &left) != XPBD_OK ||
        xpbd_engine_apply_f64(c->e, &right) != XPBD_OK)
        return XPBD_ERR_ARGUMENT;
    return xpbd_engine_step_f64(c->e, 1.0 / 60);
}

void xs_curtain_free(xs_curtain *c)
{
    xpbd_engine_destroy_f64(c->e);
    free(c->w);
    free(c->edges);
    xs_mesh_free(&c->m);
    memset(c, 0, sizeof *c);
}

xs_cube_desc xs_cube_default(void)
{
    xs_cube_desc d;
    memset(&d, 0, sizeof d);
    d.n = 3;
    d.alpha_e = 1e-2;
    d.alpha_t = 0;
    d.volume = 1;
    d.cfg = xpbd_step_config_default();
    return d;
}

void xs_cube_free(xs_cube *c)
{
    xpbd_engine_destroy_f64(c->e);
    xs_mesh_free(&c->m);
    free(c->w);
    free(c->r);
    memset(c, 0, sizeof *c);
}

xpbd_scene_f64 xs_cube_scene(const xs_cube *c, double edge_alpha, int volume, double tet_alpha)
{
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = c->m.k.particles;
    s.xyz = c->m.xyz;
    s.inv_mass = c->w;
    s.edges = c->m.k.edges;
    s.edge = c->m.edges;
    s.edge_alpha = edge_alpha;
    if (volume) {
        s.tets = c->m.k.tets;
        s.tet = c->m.tets;
        s.tet_alpha = tet_alpha;
    }
    return s;
}

int xs_cube_make(xs_cube *c, const xs_cube_desc *d)
{
    memset(c, 0, sizeof *c);
    if (!xs_mesh_box(&c->m, d->n, 0.1, d->origin, 6))
        return 0;
    const size_t n = c->m.k.particles;
    c->w = malloc(n * sizeof *c->w);
    c->r = malloc(n * sizeof *c->r);
    if (!c->w || !c->r)
        return 0;
    const double top = d->origin[1] + 0.1 * d->n;
    for (size_t i = 0; i < n; ++i) {
        c->w[i] = d->pin_top && c->m.xyz[3 * i + 1] == top ? 0 : 10;
        c->r[i] = d->radius;
    }
    const xpbd_plane ground = {{0, 1, 0}, 0};
    const size_t body[2] = {0, n};
    xpbd_scene_f64 s = xs_cube_scene(c, d->alpha_e, d->volume, d->alpha_t);
    s.radius = d->ground ? c->r : NULL;
    s.bodies = 1;
    s.body_begin = body;
    s.planes = d->ground ? 1 : 0;
    s.plane = &ground;
    if (xpbd_engine_create_f64(&c->e, &s, &d->cfg, &d->opt, NULL) != XPBD_OK)
        return 0;
    c->V0 = xs_tets_volume(xpbd_engine_particles_f64(c->e), c->m.tets, c->m.k.tets);
    return 1;
}

double xs_cube_hanging_sag(const xs_cube_desc *base, xpbd_solver solver, double ks,
                           uint32_t iterations, int frames, double *volume_ratio)
{
    xs_cube_desc d = *base;
    d.pin_top = 1;
    d.cfg.iterations = iterations;
    d.cfg.solver = solver;
    d.cfg.pbd_stiffness = ks;
    d.cfg.damping = 0.01; /* settle: the sag asked for is the static one */
    xs_cube c;
    double sag = NAN;
    if (xs_cube_make(&c, &d) && xs_run(c.e, frames)) {
        sag = -xs_min_y(xpbd_engine_particles_f64(c.e), 0, c.m.k.particles);
        if (volume_ratio)
            *volume_ratio = xs_tets_volume(xpbd_engine_particles_f64(c.e), c.m.tets, c.m.k.tets) / c.V0;
    }
    xs_cube_free(&c);
    return sag;
}

void xs_box_body_init(xs_box_body *b, double mass, const double centre[3], double half)
{
    memset(b, 0, sizeof *b);
    b->rb.shape = XPBD_RIGID_BOX;
    b->rb.rot[0] = b->rb.rot[4] = b->rb.rot[8] = 1;
    for (int k = 0; k < 3; ++k) {
        b->rb.centre[k] = centre[k];
        b->rb.half[k] = half;
    }
    b->mass = mass;
    b->rb.inv_mass = 1 / mass;
    const double I = mass * (2 * half) * (2 * half) / 6; /* cube: m a^2 / 6 */
    b->rb.inv_inertia[0] = b->rb.inv_inertia[4] = b->rb.inv_inertia[8] = 1 / I;
}

uint32_t xs_couple_frame(xpbd_engine_f64 *e, xs_box_body *b, xpbd_rigid_impulse *sum)
{
    const double h = 1.0 / 60;
    if (xpbd_engine_step_f64(e, h) < 0)
        return UINT32_MAX;
    xpbd_rigid_impulse j;
    if (xpbd_engine_couple_rigid_f64(e, &b->rb, h, &j) != XPBD_OK)
        return UINT32_MAX;
    for (int k = 0; k < 3; ++k) {
        b->v[k] += b->rb.inv_mass * j.linear[k];
        b->w[k] += b->rb.inv_inertia[4 * k] * j.angular[k];
        b->rb.centre[k] += b->v[k] * h;
        if (sum) {
            sum->linear[k] += j.linear[k];
            sum->angular[k] += j.angular[k];
        }
    }
    if (sum)
        sum->contacts += j.contacts;
    return j.contacts;
}

#define XPBD_REAL_F64
#include "precision.h"
#define XS_W xs_world_f64
#define XS_P xpbd_particles_f64
#define XS_BUILD xpbd_distance_set_build_f64
#define XS_FREESET xpbd_distance_set_free_f64
#define XS_SCRATCH xpbd_step_scratch_bytes_f64
#include "scenes_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"
#undef XS_W
#undef XS_P
#undef XS_BUILD
#undef XS_FREESET
#undef XS_SCRATCH

#define XPBD_REAL_F32
#include "precision.h"
#define XS_W xs_world_f32
#define XS_P xpbd_particles_f32
#define XS_BUILD xpbd_distance_set_build_f32
#define XS_FREESET xpbd_distance_set_free_f32
#define XS_SCRATCH xpbd_step_scratch_bytes_f32
#include "scenes_tmpl.h"
