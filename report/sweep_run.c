/* SPDX-License-Identifier: MIT */
/* One point of a sweep: the scene as a replay recording in memory (the
 * built-in scenes are recordings without inputs), the point's keys applied
 * to a copy of it, the engine built by the replay code and stepped frame by
 * frame, and the metrics from the start and end states. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenes.h"
#include "sweep_internal.h"
#include "xpbd/io.h"

/* ------------------------------------------------------ built-in scenes --- */

/* Grows a file's arrays for n particles, e edges, t tets, b bends (zeroed). */
static int sw_file_alloc(xpbd_replay_file *f, size_t n, size_t e, size_t t, size_t b, int radius)
{
    f->n = n;
    f->edges = e;
    f->tets = t;
    f->bends = b;
    f->has_radius = radius;
    f->particle = calloc(13 * n + 1, sizeof *f->particle);
    f->radius = radius ? calloc(n + 1, sizeof *f->radius) : NULL;
    f->edge = calloc(2 * e + 1, sizeof *f->edge);
    f->edge_rest = calloc(e + 1, sizeof *f->edge_rest);
    f->edge_compliance = calloc(e + 1, sizeof *f->edge_compliance);
    f->tet = calloc(4 * t + 1, sizeof *f->tet);
    f->tet_compliance = calloc(t + 1, sizeof *f->tet_compliance);
    f->bend = calloc(4 * b + 1, sizeof *f->bend);
    f->bend_compliance = calloc(b + 1, sizeof *f->bend_compliance);
    return f->particle && (!radius || f->radius) && f->edge && f->edge_rest &&
           f->edge_compliance && f->tet && f->tet_compliance && f->bend && f->bend_compliance;
}

/* Particle i at x with inverse mass w, at rest, its own rest position. */
static void sw_put(xpbd_replay_file *f, size_t i, double x, double y, double z, double w)
{
    double *q = f->particle + 13 * i;
    q[0] = q[3] = q[10] = x;
    q[1] = q[4] = q[11] = y;
    q[2] = q[5] = q[12] = z;
    q[9] = w;
}

/* Edges' rest lengths from the rest positions, one compliance for all. */
static void sw_edges_rest(xpbd_replay_file *f, double alpha)
{
    for (size_t k = 0; k < f->edges; ++k) {
        const double *a = f->particle + 13 * f->edge[2 * k] + 10;
        const double *b = f->particle + 13 * f->edge[2 * k + 1] + 10;
        const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        f->edge_rest[k] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        f->edge_compliance[k] = alpha;
    }
}

static void sw_plane(xpbd_replay_file *f, double nx, double ny, double nz, double d)
{
    f->plane[f->planes++] = (xpbd_plane){{nx, ny, nz}, d};
}

static int sw_build_chain(xpbd_replay_file *f, int n)
{
    if (!sw_file_alloc(f, (size_t)n, (size_t)n - 1, 0, 0, 0))
        return 0;
    for (int i = 0; i < n; ++i)
        sw_put(f, (size_t)i, 0, -0.1 * i, 0, i == 0 ? 0 : 1);
    for (int i = 0; i + 1 < n; ++i) {
        f->edge[2 * i] = (uint32_t)i;
        f->edge[2 * i + 1] = (uint32_t)i + 1;
    }
    sw_edges_rest(f, 1e-4);
    return 1;
}

/* An n x n cloth of 1 m (0.5 kg) from the mesh generator, plus `extra`
 * particles after it; stretch + shear edges of 1e-6 m/N, bending 1e-3. */
static int sw_build_cloth_mesh(xpbd_replay_file *f, int n, const double o[3], const double *u,
                               const double *v, size_t extra, int radius)
{
    xs_mesh m;
    const double d = 1.0 / (n - 1);
    const double du[3] = {u[0] * d, u[1] * d, u[2] * d}, dv[3] = {v[0] * d, v[1] * d, v[2] * d};
    if (!xs_mesh_cloth(&m, (uint32_t)n, (uint32_t)n, 1.0, o, du, dv)) {
        xs_mesh_free(&m);
        return 0;
    }
    const size_t np = m.k.particles, ne = m.k.edges + m.k.shear, nb = m.k.bends;
    int ok = sw_file_alloc(f, np + extra, ne, 0, nb, radius);
    for (size_t i = 0; ok && i < np; ++i)
        sw_put(f, i, m.xyz[3 * i], m.xyz[3 * i + 1], m.xyz[3 * i + 2], (double)np / 0.5);
    if (ok) {
        memcpy(f->edge, m.edges, 2 * m.k.edges * sizeof *f->edge);
        memcpy(f->edge + 2 * m.k.edges, m.shear, 2 * m.k.shear * sizeof *f->edge);
        memcpy(f->bend, m.bends, 4 * nb * sizeof *f->bend);
        for (size_t k = 0; k < nb; ++k)
            f->bend_compliance[k] = 1e-3;
        sw_edges_rest(f, 1e-6);
    }
    xs_mesh_free(&m);
    return ok;
}

static int sw_build_cloth(xpbd_replay_file *f, int n)
{
    /* hanging in the x-y plane from its top corners */
    if (!sw_build_cloth_mesh(f, n, (const double[3]){-0.5, 0, 0}, (const double[3]){1, 0, 0},
                             (const double[3]){0, -1, 0}, 0, 0))
        return 0;
    f->particle[13 * 0 + 9] = 0;
    f->particle[13 * (size_t)(n - 1) + 9] = 0;
    return 1;
}

static int sw_build_cloth_sphere(xpbd_replay_file *f, int n)
{
    /* flat in the x-z plane 0.2 m above a static particle of radius 0.3 m */
    const size_t np = (size_t)n * (size_t)n;
    if (!sw_build_cloth_mesh(f, n, (const double[3]){-0.5, 0.5, -0.5}, (const double[3]){1, 0, 0},
                             (const double[3]){0, 0, 1}, 1, 1))
        return 0;
    for (size_t i = 0; i < np; ++i)
        f->radius[i] = 0.01;
    sw_put(f, np, 0, 0, 0, 0);
    f->radius[np] = 0.3;
    f->max_contacts = 8 * np + 64;
    f->config.contact_skin = 0.02;
    f->config.damping = 0.005;
    return 1;
}

static int sw_build_tet_box(xpbd_replay_file *f, int n)
{
    xs_mesh m;
    const double half = 0.05 * n;
    if (!xs_mesh_box(&m, (uint32_t)n, 0.1, (const double[3]){-half, 0.1, -half}, 6)) {
        xs_mesh_free(&m);
        return 0;
    }
    const size_t np = m.k.particles, ne = m.k.edges, nt = m.k.tets;
    int ok = sw_file_alloc(f, np, ne, nt, 0, 1);
    for (size_t i = 0; ok && i < np; ++i) {
        sw_put(f, i, m.xyz[3 * i], m.xyz[3 * i + 1], m.xyz[3 * i + 2], 10);
        f->radius[i] = 0.02;
    }
    if (ok) {
        memcpy(f->edge, m.edges, 2 * ne * sizeof *f->edge);
        memcpy(f->tet, m.tets, 4 * nt * sizeof *f->tet);
        sw_edges_rest(f, 1e-4);
        sw_plane(f, 0, 1, 0, 0);
        f->max_contacts = 4 * np + 64;
    }
    xs_mesh_free(&m);
    return ok;
}

static int sw_build_ball_pile(xpbd_replay_file *f, int n)
{
    const size_t np = (size_t)n * (size_t)n * (size_t)n;
    if (!sw_file_alloc(f, np, 0, 0, 0, 1))
        return 0;
    const double gap = 0.12, half = fmax(0.3, 0.5 * gap * n + 0.05);
    uint64_t s = 0x9e3779b97f4a7c15ull; /* fixed jitter so the pile does not stack in columns */
    size_t i = 0;
    for (int y = 0; y < n; ++y)
        for (int z = 0; z < n; ++z)
            for (int x = 0; x < n; ++x, ++i) {
                double j[2];
                for (int a = 0; a < 2; ++a) {
                    s = s * 6364136223846793005ull + 1442695040888963407ull;
                    j[a] = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 0.02;
                }
                sw_put(f, i, gap * (x - 0.5 * (n - 1)) + j[0], 0.1 + gap * y,
                       gap * (z - 0.5 * (n - 1)) + j[1], 10);
                f->radius[i] = 0.05;
            }
    sw_plane(f, 0, 1, 0, 0);
    sw_plane(f, 1, 0, 0, -half);
    sw_plane(f, -1, 0, 0, -half);
    sw_plane(f, 0, 0, 1, -half);
    sw_plane(f, 0, 0, -1, -half);
    f->max_contacts = 8 * np + 64;
    return 1;
}

int sw_base_build(sw_base *b, int scene, int n, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->scene = scene;
    xpbd_replay_file *f = &b->file;
    f->f64 = 1;
    f->format = XPBD_REPLAY_FORMAT;
    f->protocol = XPBD_PROTOCOL_VERSION;
    f->h = 1.0 / 60;
    f->config = xpbd_step_config_default();
    if (n <= 0)
        n = sw_scenes[scene].n_default;
    b->n = n;
    static const int frames[SW_NSCENES] = {120, 60, 90, 90, 90, 0, 120};
    b->default_frames = frames[scene];
    int ok = 0;
    switch (scene) {
    case SW_CHAIN: ok = sw_build_chain(f, n); break;
    case SW_CLOTH: ok = sw_build_cloth(f, n); break;
    case SW_TET_BOX: ok = sw_build_tet_box(f, n); break;
    case SW_BALL_PILE: ok = sw_build_ball_pile(f, n); break;
    case SW_CLOTH_SPHERE: ok = sw_build_cloth_sphere(f, n); break;
    default: break;
    }
    f->frames = (uint64_t)b->default_frames;
    if (!ok) {
        snprintf(err, errlen, "cannot build scene %s at n = %d (out of memory)",
                 sw_scenes[scene].name, n);
        sw_base_free(b);
        return -1;
    }
    return 0;
}

int sw_base_load(sw_base *b, const char *path, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->scene = SW_REPLAY;
    xpbd_replay_error e;
    if (xpbd_replay_load(path, &b->file, &e) != XPBD_OK) {
        if (e.line)
            snprintf(err, errlen, "%s:%zu: %s", path, e.line, e.what);
        else
            snprintf(err, errlen, "%s: %s", path, e.what);
        return -1;
    }
    b->default_frames = (int)(b->file.frames < 1000000 ? b->file.frames : 1000000);
    return 0;
}

/* ---------------------------------------------------------- mesh:FILE --- */

static int sw_ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

int sw_base_load_mesh(sw_base *b, const char *path, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->scene = SW_MESH;
    b->mesh_path = path;
    b->default_frames = 120;
    xpbd_io_error e;
    memset(&e, 0, sizeof e);
    xpbd_status st;
    const char *format;
    if (sw_ends_with(path, ".obj")) {
        format = "OBJ";
        st = xpbd_io_load_obj(path, NULL, &b->mesh, &e);
    } else if (sw_ends_with(path, ".msh")) {
        format = "Gmsh";
        st = xpbd_io_load_gmsh(path, &b->mesh, &e);
    } else {
        format = "TetGen";
        st = xpbd_io_load_tetgen(path, &b->mesh, &e);
    }
    if (st != XPBD_OK) {
        char where[48] = "";
        if (e.line > 0)
            snprintf(where, sizeof where, " line %zu:", e.line);
        else if (e.byte_offset > 0)
            snprintf(where, sizeof where, " byte %zu:", e.byte_offset);
        snprintf(err, errlen, "cannot load mesh %s (%s):%s %s (%s)", path, format, where,
                 e.what[0] ? e.what : "unreadable", xpbd_status_str(st));
        memset(&b->mesh, 0, sizeof b->mesh);
        return -1;
    }
    return 0;
}

static const char *const sw_part_names[] = {"mesh",  "particle", "triangle", "tet",
                                             "option", "pin label", "pin"};

int sw_mesh_file(const sw_base *b, const sw_point *pt, xpbd_replay_file *f, char *err,
                 size_t errlen)
{
    const xpbd_mesh_data *m0 = &b->mesh;
    const char *pin = pt->has[SW_K_PIN] ? pt->pin : "none";
    const double scale = pt->has[SW_K_SCALE] ? pt->val[SW_K_SCALE] : 1;
    xpbd_mesh_data m = *m0;
    double *xyz = NULL;
    memset(f, 0, sizeof *f);
    if (scale != 1) {
        xyz = malloc((3 * m.particles + 1) * sizeof *xyz);
        if (!xyz) {
            snprintf(err, errlen, "out of memory");
            return XPBD_ERR_NOMEM;
        }
        for (size_t i = 0; i < 3 * m.particles; ++i)
            xyz[i] = m0->xyz[i] * scale;
        m.xyz = xyz;
    }
    xpbd_mesh_scene_options o;
    memset(&o, 0, sizeof o);
    o.density = o.surface_density = pt->has[SW_K_DENSITY] ? pt->val[SW_K_DENSITY]
                                    : m.tets            ? 1000
                                                        : 1;
    o.edge_alpha = 1e-6;
    o.tet_alpha = 1e-9;
    o.bend_alpha = 1e-3;
    xpbd_mesh_select sel;
    int is_label = 0;
    int32_t label = 0;
    const int kind = sw_pin_parse(pin, &sel, &is_label);
    if (kind == 1) {
        o.pin_wheres = 1;
        o.pin_where = &sel;
    } else if (kind == 2) {
        char *end;
        const long n = strtol(pin, &end, 10);
        int found = !*end && end != pin;
        label = (int32_t)n;
        for (size_t k = 0; !found && k < m.labels; ++k)
            if (strcmp(m.label_name[k], pin) == 0) {
                label = m.label_id[k];
                found = 1;
            }
        if (!found) {
            snprintf(err, errlen, "pin=%s: mesh %s has no label named '%s' (%zu named)", pin,
                     b->mesh_path, pin, m.labels);
            free(xyz);
            return XPBD_ERR_CONFIG;
        }
        o.pin_labels = 1;
        o.pin_label = &label;
    }
    xpbd_mesh_scene_f64 sc;
    xpbd_status st = xpbd_mesh_scene_build_f64(&sc, &m, &o);
    free(xyz);
    if (st != XPBD_OK && sc.bad_part == XPBD_MESH_PART_PIN_LABEL) {
        snprintf(err, errlen, "pin=%s: no tet or triangle of mesh %s has label %d", pin,
                 b->mesh_path, (int)label);
        return st;
    }
    if (st != XPBD_OK) {
        const unsigned part = (unsigned)sc.bad_part <= 6 ? (unsigned)sc.bad_part : 0;
        snprintf(err, errlen, "mesh %s%s%s: %s %zu: %s", b->mesh_path, kind ? " with pin=" : "",
                 kind ? pin : "", sw_part_names[part], sc.bad_index, xpbd_status_str(st));
        return st;
    }
    if (kind && sc.pinned == 0) {
        snprintf(err, errlen, "pin=%s pins no particle of mesh %s (scale %g)", pin, b->mesh_path,
                 scale);
        xpbd_mesh_scene_free_f64(&sc);
        return XPBD_ERR_CONFIG;
    }
    const xpbd_scene_f64 *v = &sc.scene;
    f->f64 = 1;
    f->format = XPBD_REPLAY_FORMAT;
    f->protocol = XPBD_PROTOCOL_VERSION;
    f->h = 1.0 / 60;
    f->config = xpbd_step_config_default();
    f->frames = (uint64_t)b->default_frames;
    if (!sw_file_alloc(f, v->particles, v->edges, v->tets, v->bends, 0)) {
        xpbd_mesh_scene_free_f64(&sc);
        xpbd_replay_free(f);
        snprintf(err, errlen, "out of memory");
        return XPBD_ERR_NOMEM;
    }
    for (size_t i = 0; i < v->particles; ++i)
        sw_put(f, i, sc.xyz[3 * i], sc.xyz[3 * i + 1], sc.xyz[3 * i + 2], sc.inv_mass[i]);
    /* an empty array may be NULL: memcpy only what there is */
    if (v->edges)
        memcpy(f->edge, sc.edge, 2 * v->edges * sizeof *f->edge);
    sw_edges_rest(f, v->edge_alpha);
    if (v->tets)
        memcpy(f->tet, sc.tet, 4 * v->tets * sizeof *f->tet);
    for (size_t t = 0; t < v->tets; ++t)
        f->tet_compliance[t] = v->tet_alpha;
    if (v->bends)
        memcpy(f->bend, sc.bend, 4 * v->bends * sizeof *f->bend);
    for (size_t k = 0; k < v->bends; ++k)
        f->bend_compliance[k] = v->bend_alpha;
    xpbd_mesh_scene_free_f64(&sc);
    return XPBD_OK;
}

void sw_base_free(sw_base *b)
{
    xpbd_mesh_data_free(&b->mesh);
    xpbd_replay_free(&b->file);
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------- metrics --- */

/* A state in double: particles, the distance constraints as the engine has
 * them (input order), radii and planes. */
typedef struct sw_state {
    size_t n, ne;
    double *x, *v, *w, *r;          /* x, v: [3n]; r NULL without radii */
    uint32_t *edge;                 /* [2 ne] a copy: a tear frees the engine's */
    double *rest, *alpha;
    xpbd_plane plane[8];
    uint32_t planes;
} sw_state;

static void sw_state_free(sw_state *s)
{
    free(s->x);
    free(s->edge);
    free(s->v);
    free(s->w);
    free(s->r);
    free(s->rest);
    free(s->alpha);
    memset(s, 0, sizeof *s);
}

static int sw_state_alloc(sw_state *s, size_t n, size_t ne, int radius)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->ne = ne;
    s->x = malloc((3 * n + 1) * sizeof *s->x);
    s->v = malloc((3 * n + 1) * sizeof *s->v);
    s->w = malloc((n + 1) * sizeof *s->w);
    s->r = radius ? malloc((n + 1) * sizeof *s->r) : NULL;
    s->edge = malloc((2 * ne + 1) * sizeof *s->edge);
    s->rest = malloc((ne + 1) * sizeof *s->rest);
    s->alpha = malloc((ne + 1) * sizeof *s->alpha);
    return s->x && s->v && s->w && (!radius || s->r) && s->edge && s->rest && s->alpha;
}

/* The snapshot of an engine of either precision (P: its particles, V: the
 * engine as a scene, xpbd_engine_scene_*). */
#define SW_SNAPSHOT_BODY(P, V, s)                                                               \
    {                                                                                           \
        if (!sw_state_alloc(s, (P)->count, (V)->edges, (V)->radius != NULL))                    \
            return 0;                                                                           \
        for (size_t i = 0; i < (s)->n; ++i) {                                                   \
            (s)->x[3 * i] = (P)->x[i];                                                          \
            (s)->x[3 * i + 1] = (P)->y[i];                                                      \
            (s)->x[3 * i + 2] = (P)->z[i];                                                      \
            (s)->v[3 * i] = (P)->vx[i];                                                         \
            (s)->v[3 * i + 1] = (P)->vy[i];                                                     \
            (s)->v[3 * i + 2] = (P)->vz[i];                                                     \
            (s)->w[i] = (P)->w[i];                                                              \
            if ((s)->r)                                                                         \
                (s)->r[i] = (V)->radius[i];                                                     \
        }                                                                                       \
        for (size_t k = 0; k < (s)->ne; ++k) {                                                  \
            (s)->edge[2 * k] = (V)->edge[2 * k];                                                \
            (s)->edge[2 * k + 1] = (V)->edge[2 * k + 1];                                        \
            (s)->rest[k] = (V)->edge_rest[k];                                                   \
            (s)->alpha[k] = (V)->edge_compliance[k];                                            \
        }                                                                                       \
        (s)->planes = (V)->planes;                                                              \
        memset((s)->plane, 0, sizeof (s)->plane);                                               \
        if ((V)->planes)                                                                        \
            memcpy((s)->plane, (V)->plane, (V)->planes * sizeof (s)->plane[0]);                 \
        return 1;                                                                               \
    }

static int sw_snapshot_f32(const xpbd_engine_f32 *e, sw_state *s)
{
    const xpbd_particles_f32 *p = xpbd_engine_particles_f32(e);
    xpbd_scene_f32 v;
    xpbd_engine_scene_f32(e, &v);
    SW_SNAPSHOT_BODY(p, &v, s);
}

static int sw_snapshot_f64(const xpbd_engine_f64 *e, sw_state *s)
{
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(e);
    xpbd_scene_f64 v;
    xpbd_engine_scene_f64(e, &v);
    SW_SNAPSHOT_BODY(p, &v, s);
}

static double sw_link_length(const sw_state *s, size_t k)
{
    const double *a = s->x + 3 * s->edge[2 * k], *b = s->x + 3 * s->edge[2 * k + 1];
    const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Kinetic + gravity potential + distance springs (alpha > 0), J. */
static double sw_energy(const sw_state *s, const double g[3])
{
    double e = 0;
    for (size_t i = 0; i < s->n; ++i) {
        if (!(s->w[i] > 0))
            continue;
        const double m = 1 / s->w[i], *x = s->x + 3 * i, *v = s->v + 3 * i;
        e += m * (0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) -
                  (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]));
    }
    for (size_t k = 0; k < s->ne; ++k)
        if (s->alpha[k] > 0) {
            const double c = sw_link_length(s, k) - s->rest[k];
            e += c * c / (2 * s->alpha[k]);
        }
    return e;
}

/* Mass and momentum of the particles with w > 0. */
static double sw_momentum(const sw_state *s, double p[3])
{
    double mass = 0;
    p[0] = p[1] = p[2] = 0;
    for (size_t i = 0; i < s->n; ++i) {
        if (!(s->w[i] > 0))
            continue;
        const double m = 1 / s->w[i];
        mass += m;
        for (int a = 0; a < 3; ++a)
            p[a] += m * s->v[3 * i + (size_t)a];
    }
    return mass;
}

/* Particles ordered by x for the sweep over pairs (qsort has no context
 * argument; the keys are copied next to the indices). */
typedef struct sw_key_x {
    double x;
    size_t i;
} sw_key_x;

static int sw_by_x(const void *a, const void *b)
{
    const sw_key_x *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : (p->i > q->i) - (p->i < q->i);
}

/* Deepest overlap: planes, then pairs found by sorting along x and
 * sweeping (a pair can overlap only if their x differ by less than the
 * largest reach). NaN if out of memory. */
static double sw_penetration(const sw_state *s)
{
    if (!s->r)
        return 0;
    double deepest = 0, rmax = 0;
    sw_key_x *k = malloc((s->n + 1) * sizeof *k);
    if (!k)
        return NAN;
    for (size_t i = 0; i < s->n; ++i) {
        const double *x = s->x + 3 * i;
        for (uint32_t p = 0; p < s->planes; ++p) {
            const xpbd_plane *pl = &s->plane[p];
            const double dist = pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2] - pl->d;
            deepest = fmax(deepest, s->r[i] - dist);
        }
        rmax = fmax(rmax, s->r[i]);
        k[i] = (sw_key_x){x[0], i};
    }
    qsort(k, s->n, sizeof *k, sw_by_x);
    for (size_t a = 0; a < s->n; ++a) {
        const size_t i = k[a].i;
        const double *x = s->x + 3 * i;
        for (size_t b = a + 1; b < s->n && k[b].x - k[a].x < s->r[i] + rmax; ++b) {
            const size_t j = k[b].i;
            const double *y = s->x + 3 * j;
            const double reach = s->r[i] + s->r[j];
            const double d[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
            const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (d2 < reach * reach)
                deepest = fmax(deepest, reach - sqrt(d2));
        }
    }
    free(k);
    return deepest;
}

static void sw_metrics_of(const sw_state *s0, const sw_state *s1, const double g[3], double time,
                          double residual, sw_result *r)
{
    if (s1->ne > 0) {
        double mx = 0, sum = 0;
        for (size_t k = 0; k < s1->ne; ++k) {
            const double strain = fabs(sw_link_length(s1, k) / s1->rest[k] - 1);
            mx = fmax(mx, strain);
            sum += strain;
        }
        r->m[SW_M_MAX_STRAIN] = mx;
        r->m[SW_M_MEAN_STRAIN] = sum / (double)s1->ne;
        r->m[SW_M_RESIDUAL] = residual;
    }
    double p0[3], p1[3];
    const double mass = sw_momentum(s0, p0);
    sw_momentum(s1, p1);
    if (mass > 0) {
        r->m[SW_M_ENERGY_DRIFT] = (sw_energy(s1, g) - sw_energy(s0, g)) / mass;
        double d2 = 0;
        for (int a = 0; a < 3; ++a) {
            const double d = p1[a] - p0[a] - mass * g[a] * time;
            d2 += d * d;
        }
        r->m[SW_M_MOMENTUM_ERROR] = sqrt(d2) / mass;
    }
    r->m[SW_M_PENETRATION] = sw_penetration(s1);
}

/* Total signed volume of the file's tets at positions x (3 per particle). */
static double sw_tet_volume(const xpbd_replay_file *f, const double *x)
{
    double v = 0;
    for (size_t t = 0; t < f->tets; ++t) {
        const double *p[4];
        for (int c = 0; c < 4; ++c)
            p[c] = x + 3 * (size_t)f->tet[4 * t + (size_t)c];
        double a[3], b[3], d[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = p[1][k] - p[0][k];
            b[k] = p[2][k] - p[0][k];
            d[k] = p[3][k] - p[0][k];
        }
        v += (a[0] * (b[1] * d[2] - b[2] * d[1]) - a[1] * (b[0] * d[2] - b[2] * d[0]) +
              a[2] * (b[0] * d[1] - b[1] * d[0])) /
             6;
    }
    return v;
}

/* |V_end / V_start - 1|; NaN without tets or when the particles changed. */
static double sw_volume_error(const xpbd_replay_file *f, const sw_state *s0, const sw_state *s1)
{
    if (f->tets == 0 || s0->n != f->n || s1->n != f->n)
        return NAN;
    const double v0 = sw_tet_volume(f, s0->x);
    return v0 != 0 ? fabs(sw_tet_volume(f, s1->x) / v0 - 1) : NAN;
}

static double sw_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---------------------------------------------------------------- runs --- */

/* Builds the engine the file describes (xpbd_replay_create_*), steps
 * `frames` frames of f->h with the file's inputs, fills r. */
#define SW_RUN_BODY(ENG, CREATE, STEP, APPLY, DESTROY, SNAP, COUNTERS)                         \
    do {                                                                                        \
        ENG *e = NULL;                                                                          \
        xpbd_replay_error rerr;                                                                 \
        r->status = CREATE(f, &e, &rerr);                                                       \
        if (r->status != XPBD_OK) {                                                             \
            r->where = rerr.where;                                                              \
            DESTROY(e);                                                                        \
            return;                                                                             \
        }                                                                                       \
        sw_state s0, s1;                                                                        \
        if (!SNAP(e, &s0)) {                                                                   \
            sw_state_free(&s0);                                                                 \
            DESTROY(e);                                                                        \
            r->status = XPBD_ERR_NOMEM;                                                         \
            return;                                                                             \
        }                                                                                       \
        double time = 0;                                                                        \
        size_t next = 0;                                                                        \
        xpbd_status worst = XPBD_OK;                                                            \
        for (uint32_t fr = 0; fr < frames && worst >= 0; ++fr) {                                \
            const uint64_t abs_frame = f->start_frame + fr;                                     \
            for (; next < f->inputs && f->input_frame[next] < abs_frame; ++next)                \
                ;                                                                               \
            for (; next < f->inputs && f->input_frame[next] == abs_frame; ++next) {             \
                const xpbd_status st = APPLY(e, &f->input[next]);                              \
                if (st != XPBD_OK)                                                              \
                    worst = st;                                                                 \
            }                                                                                   \
            if (worst < 0)                                                                      \
                break;                                                                          \
            const double t0 = sw_now();                                                         \
            const xpbd_status st = STEP(e, f->h);                                              \
            time += sw_now() - t0;                                                              \
            if (st < 0 || (st != XPBD_OK && worst == XPBD_OK))                                  \
                worst = st;                                                                     \
            if (st < 0) {                                                                       \
                r->where.part = COUNTERS(e)->step.bad_part;                                     \
                r->where.index = COUNTERS(e)->step.bad_index;                                   \
                r->where.field = COUNTERS(e)->step.bad_field;                                   \
            }                                                                                   \
            if (st >= 0)                                                                        \
                ++r->frames_done;                                                               \
        }                                                                                       \
        r->status = worst;                                                                      \
        if (worst >= 0) {                                                                       \
            if (!SNAP(e, &s1)) {                                                               \
                r->status = XPBD_ERR_NOMEM;                                                     \
            } else {                                                                            \
                sw_metrics_of(&s0, &s1, f->config.gravity, f->h * frames, COUNTERS(e)->max_residual, \
                              r);                                                               \
                r->m[SW_M_MS_PER_FRAME] = 1e3 * time / frames;                                  \
                r->m[SW_M_VOLUME_ERROR] = sw_volume_error(f, &s0, &s1);                         \
                if (keep_final) {                                                               \
                    r->final = s1.x;                                                            \
                    r->n = s1.n;                                                                \
                    s1.x = NULL;                                                                \
                }                                                                               \
            }                                                                                   \
            sw_state_free(&s1);                                                                 \
        }                                                                                       \
        sw_state_free(&s0);                                                                     \
        DESTROY(e);                                                                            \
    } while (0)

static void sw_run_engine_f32(const xpbd_replay_file *f, uint32_t frames, int keep_final,
                              sw_result *r)
{
    SW_RUN_BODY(xpbd_engine_f32, xpbd_replay_create_f32, xpbd_engine_step_f32,
                xpbd_engine_apply_f32, xpbd_engine_destroy_f32, sw_snapshot_f32,
                xpbd_engine_counters_f32);
}

static void sw_run_engine_f64(const xpbd_replay_file *f, uint32_t frames, int keep_final,
                              sw_result *r)
{
    SW_RUN_BODY(xpbd_engine_f64, xpbd_replay_create_f64, xpbd_engine_step_f64,
                xpbd_engine_apply_f64, xpbd_engine_destroy_f64, sw_snapshot_f64,
                xpbd_engine_counters_f64);
}

/* The point's step configuration keys on top of cfg. */
static void sw_apply_config(const sw_point *pt, xpbd_step_config *c)
{
    const double *v = pt->val;
    const unsigned char *has = pt->has;
    if (has[SW_K_SUBSTEPS])
        c->substeps = (uint32_t)v[SW_K_SUBSTEPS];
    if (has[SW_K_ITERATIONS])
        c->iterations = (uint32_t)v[SW_K_ITERATIONS];
    if (has[SW_K_SOLVER])
        c->solver = (xpbd_solver)(int)v[SW_K_SOLVER];
    if (has[SW_K_LAMBDA_RESET])
        c->lambda_reset = (xpbd_lambda_reset)(int)v[SW_K_LAMBDA_RESET];
    if (has[SW_K_DAMPING])
        c->damping = v[SW_K_DAMPING];
    if (has[SW_K_RELATIVE_DAMPING])
        c->relative_damping = v[SW_K_RELATIVE_DAMPING];
    if (has[SW_K_PBD_STIFFNESS])
        c->pbd_stiffness = v[SW_K_PBD_STIFFNESS];
    if (has[SW_K_SPRING_DAMPING])
        c->spring_damping = v[SW_K_SPRING_DAMPING];
    if (has[SW_K_GRAVITY]) {
        c->gravity[0] = c->gravity[2] = 0;
        c->gravity[1] = -v[SW_K_GRAVITY];
    }
    if (has[SW_K_RESTITUTION])
        c->restitution = v[SW_K_RESTITUTION];
    if (has[SW_K_FRICTION])
        c->friction_static = c->friction_dynamic = v[SW_K_FRICTION];
    if (has[SW_K_FRICTION_STATIC])
        c->friction_static = v[SW_K_FRICTION_STATIC];
    if (has[SW_K_FRICTION_DYNAMIC])
        c->friction_dynamic = v[SW_K_FRICTION_DYNAMIC];
    if (has[SW_K_CONTACT_BETA])
        c->contact_beta = v[SW_K_CONTACT_BETA];
    if (has[SW_K_CONTACT_SLOP])
        c->contact_slop = v[SW_K_CONTACT_SLOP];
    if (has[SW_K_CONTACT_SKIN])
        c->contact_skin = v[SW_K_CONTACT_SKIN];
    if (has[SW_K_ISA]) {
        xpbd_isa isa = XPBD_ISA_AUTO;
        xpbd_isa_from_name(sw_keys[SW_K_ISA].choices[(int)v[SW_K_ISA]], &isa);
        c->isa = isa;
    }
    if (has[SW_K_THREADS])
        c->threads = (uint32_t)v[SW_K_THREADS];
}

/* Copies of the compliance arrays with `compliance` and `compliance_scale`
 * applied (NULL when the file's own arrays serve). */
static double *sw_scaled(const double *a, size_t n, int replace, double value, int scale,
                         double factor)
{
    if (!replace && !scale)
        return NULL;
    double *c = malloc((n + 1) * sizeof *c);
    if (!c)
        return NULL;
    for (size_t k = 0; k < n; ++k)
        c[k] = (replace ? value : a[k]) * (scale ? factor : 1);
    return c;
}

void sw_run_point(const sw_base *b, const sw_point *pt, int keep_final, sw_result *r)
{
    memset(r, 0, sizeof *r);
    for (int m = 0; m < SW_NMETRICS; ++m)
        r->m[m] = NAN;
    sw_base sized;
    const sw_base *base = b;
    char err[256];
    if (b->scene == SW_MESH) {
        memset(&sized, 0, sizeof sized);
        sized.scene = SW_MESH;
        sized.default_frames = b->default_frames;
        r->status = sw_mesh_file(b, pt, &sized.file, err, sizeof err);
        if (r->status != XPBD_OK)
            return;
        base = &sized;
    } else if (b->scene != SW_REPLAY && pt->has[SW_K_N] && (int)pt->val[SW_K_N] != b->n) {
        if (sw_base_build(&sized, b->scene, (int)pt->val[SW_K_N], err, sizeof err) != 0) {
            r->status = XPBD_ERR_NOMEM;
            return;
        }
        base = &sized;
    }
    xpbd_replay_file f = base->file;
    sw_apply_config(pt, &f.config);
    if (pt->has[SW_K_THREADS]) /* a recording's own options.threads would override the key */
        f.options.threads = 0;
    if (pt->has[SW_K_DT])
        f.h = pt->val[SW_K_DT];
    if (pt->has[SW_K_PRECISION])
        f.f64 = (int)pt->val[SW_K_PRECISION] == 1;
    const uint32_t frames =
        (uint32_t)(pt->has[SW_K_FRAMES] ? pt->val[SW_K_FRAMES] : base->default_frames);
    const int rep = pt->has[SW_K_COMPLIANCE], sc = pt->has[SW_K_COMPLIANCE_SCALE];
    const double cv = pt->val[SW_K_COMPLIANCE], cs = pt->val[SW_K_COMPLIANCE_SCALE];
    double *ec = sw_scaled(f.edge_compliance, f.edges, rep, cv, sc, cs);
    const int rt = pt->has[SW_K_TET_COMPLIANCE], rb = pt->has[SW_K_BEND_COMPLIANCE];
    double *tc = sw_scaled(f.tet_compliance, f.tets, rt, pt->val[SW_K_TET_COMPLIANCE], sc, cs);
    double *bc = sw_scaled(f.bend_compliance, f.bends, rb, pt->val[SW_K_BEND_COMPLIANCE], sc, cs);
    if (((rep || sc) && !ec) || ((sc || rt) && !tc) || ((sc || rb) && !bc)) {
        r->status = XPBD_ERR_NOMEM;
    } else {
        f.edge_compliance = ec ? ec : f.edge_compliance;
        f.tet_compliance = tc ? tc : f.tet_compliance;
        f.bend_compliance = bc ? bc : f.bend_compliance;
        if (frames == 0)
            r->status = XPBD_ERR_ARGUMENT;
        else if (f.f64)
            sw_run_engine_f64(&f, frames, keep_final, r);
        else
            sw_run_engine_f32(&f, frames, keep_final, r);
    }
    free(ec);
    free(tc);
    free(bc);
    if (base == &sized)
        sw_base_free(&sized);
}

double sw_state_distance(const sw_result *a, const sw_result *b)
{
    if (!a->final || !b->final || a->n != b->n)
        return NAN;
    double d2 = 0;
    for (size_t i = 0; i < a->n; ++i) {
        double s = 0;
        for (int k = 0; k < 3; ++k) {
            const double d = a->final[3 * i + (size_t)k] - b->final[3 * i + (size_t)k];
            s += d * d;
        }
        d2 = fmax(d2, s);
    }
    return sqrt(d2);
}

int sw_status_refused(int status)
{
    return status < 0 && status != XPBD_ERR_DIVERGED && status != XPBD_ERR_NOMEM;
}

int sw_status_name_refused(const char *name)
{
    static const char *const refused[] = {"bad_config",     "isa", "bad_timestep", "bad_friction",
                                          "bad_compliance", "failed"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i)
        if (strcmp(name, refused[i]) == 0)
            return 1;
    return 0;
}

const char *sw_status_name(int status)
{
    switch (status) {
    case XPBD_OK: return "ok";
    case XPBD_OVERFLOW: return "overflow";
    case XPBD_ERR_DIVERGED: return "diverged";
    case XPBD_ERR_CONFIG: return "bad_config";
    case XPBD_ERR_NOMEM: return "out_of_memory";
    case XPBD_ERR_ISA: return "isa";
    case XPBD_ERR_TIMESTEP: return "bad_timestep";
    case XPBD_ERR_FRICTION: return "bad_friction";
    case XPBD_ERR_COMPLIANCE: return "bad_compliance";
    default: return "failed";
    }
}
