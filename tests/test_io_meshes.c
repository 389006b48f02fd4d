/* SPDX-License-Identifier: MIT */
/* test_io_meshes.c (xpbd-io-tests): meshes made by real meshers.
 *
 * io.mesher.sphere, .torus, .holed_box: closed surfaces the test writes as
 * TetGen piecewise linear complexes (.poly) -- a sphere (an icosahedron
 * subdivided twice), a torus and a box with a square hole through it (both
 * genus 1) -- tetrahedralised by the `tetgen` program (skipped when it is
 * not on PATH), read by xpbd_io_load_tetgen, oriented by
 * xpbd_mesh_clean_tets_f64 and weighed by xpbd_mesh_masses_f64: every tet
 * positive and their total the polyhedron's volume (divergence theorem
 * over the written facets, computed here) to rounding. Then the soft body
 * xpbd_mesh_scene_build_* makes of each rests on a ground plane for 2 s
 * and keeps its volume to the bound derived at io_settle (both
 * precisions).
 *
 * io.files.cube, .sphere, .sheet: the Gmsh files committed in
 * tests/data/gmsh (each .geo says how they were made), in MSH 4.1 ASCII,
 * 4.1 binary and 2.2 ASCII: node and element counts as the files' headers
 * say, physical groups as labels and names, the three files of one
 * geometry the same mesh, and volumes and areas against closed forms. */
#include "test_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IO_PI 3.14159265358979323846
#define IO_U 0x1p-53 /* unit roundoff of double */

/* gamma_n = n u / (1 - n u): the bound on the relative error of n
 * roundings in a row (Higham, Accuracy and Stability, 2nd ed., 3.1) */
static double io_gamma(double n)
{
    return n * IO_U / (1 - n * IO_U);
}

/* 6V of tet t (corners into xyz) and, in *p, its absolute triple product */
static double io_tet6(const double *xyz, const uint32_t *t, double *p)
{
    const double *x0 = xyz + 3 * (size_t)t[0];
    double e[3][3];
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
            e[k][c] = xyz[3 * (size_t)t[k + 1] + (size_t)c] - x0[c];
    return io_triple(e[0], e[1], e[2], p);
}

/* ------------------------------------------------------- TetGen PLCs --- */

/* A closed polyhedral surface: facets of `corners` vertices (3, or 4 for
 * planar quads), counter-clockwise seen from outside. */
typedef struct io_surface {
    size_t points, facets;
    unsigned corners;
    double xyz[3 * 256];
    uint32_t facet[4 * 512];
} io_surface;

static io_surface io_surf;

static uint32_t io_add_point(io_surface *s, double x, double y, double z)
{
    s->xyz[3 * s->points] = x;
    s->xyz[3 * s->points + 1] = y;
    s->xyz[3 * s->points + 2] = z;
    return (uint32_t)s->points++;
}

static void io_add_facet(io_surface *s, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t *f = s->facet + (size_t)s->corners * s->facets++;
    f[0] = a, f[1] = b, f[2] = c;
    if (s->corners == 4)
        f[3] = d;
}

/* the midpoint of a and b pushed out onto the unit sphere, found again
 * when the neighbouring face asks for it (a + b is commutative, so both
 * faces compute the same bits) */
static uint32_t io_sphere_mid(io_surface *s, uint32_t a, uint32_t b)
{
    double m[3];
    for (int k = 0; k < 3; ++k)
        m[k] = s->xyz[3 * a + (size_t)k] + s->xyz[3 * b + (size_t)k];
    const double r = sqrt(io_dot3(m, m));
    for (int k = 0; k < 3; ++k)
        m[k] /= r;
    for (size_t i = 0; i < s->points; ++i)
        if (memcmp(s->xyz + 3 * i, m, sizeof m) == 0)
            return (uint32_t)i;
    return io_add_point(s, m[0], m[1], m[2]);
}

/* an icosahedron in the unit sphere, each triangle cut in four twice:
 * 162 points, 320 triangles */
static void io_make_sphere(io_surface *s)
{
    static const uint32_t ico[20][3] = {
        {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
        {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    const double t = (1 + sqrt(5.0)) / 2;
    const double v[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                             {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                             {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    memset(s, 0, sizeof *s);
    s->corners = 3;
    for (int i = 0; i < 12; ++i) {
        const double r = sqrt(io_dot3(v[i], v[i]));
        io_add_point(s, v[i][0] / r, v[i][1] / r, v[i][2] / r);
    }
    static uint32_t tri[2][320 * 3];
    size_t n = 20;
    memcpy(tri[0], ico, sizeof ico);
    for (int level = 0; level < 2; ++level) {
        const uint32_t *in = tri[level & 1];
        uint32_t *out = tri[(level + 1) & 1];
        for (size_t f = 0; f < n; ++f) {
            const uint32_t a = in[3 * f], b = in[3 * f + 1], c = in[3 * f + 2];
            const uint32_t ab = io_sphere_mid(s, a, b), bc = io_sphere_mid(s, b, c),
                           ca = io_sphere_mid(s, c, a);
            const uint32_t four[12] = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
            memcpy(out + 12 * f, four, sizeof four);
        }
        n *= 4;
    }
    for (size_t f = 0; f < n; ++f)
        io_add_facet(s, tri[0][3 * f], tri[0][3 * f + 1], tri[0][3 * f + 2], 0);
}

/* a torus about the y axis: tube radius r = 0.4 about the circle of radius
 * R = 1, 16 x 8 points, each quad of the grid cut into two triangles */
static void io_make_torus(io_surface *s)
{
    enum { NU = 16, NV = 8 };
    const double R = 1, r = 0.4;
    memset(s, 0, sizeof *s);
    s->corners = 3;
    for (int i = 0; i < NU; ++i)
        for (int j = 0; j < NV; ++j) {
            const double u = 2 * IO_PI * i / NU, v = 2 * IO_PI * j / NV;
            io_add_point(s, (R + r * cos(v)) * cos(u), r * sin(v), (R + r * cos(v)) * sin(u));
        }
    /* (i, j) -> (i, j + 1) runs along the tube, (i, j) -> (i + 1, j) around
     * the axis: d/dv x d/du points out of the tube */
    for (uint32_t i = 0; i < NU; ++i)
        for (uint32_t j = 0; j < NV; ++j) {
            const uint32_t a = i * NV + j, b = i * NV + (j + 1) % NV;
            const uint32_t c = ((i + 1) % NU) * NV + (j + 1) % NV, d = ((i + 1) % NU) * NV + j;
            io_add_facet(s, a, b, c, 0);
            io_add_facet(s, a, c, d, 0);
        }
}

/* the box |x| <= 1, 0 <= y <= 1, |z| <= 1 less the square prism |x|, |z|
 * <= h = 0.4 through it along y: 16 points, 16 planar quads (4 outer
 * sides, 4 inner, 4 trapezoids at y = 0 and 4 at y = 1) */
static const double io_hole = 0.4;

static void io_make_holed_box(io_surface *s)
{
    const double h = io_hole, sx[4] = {-1, 1, 1, -1}, sz[4] = {-1, -1, 1, 1};
    memset(s, 0, sizeof *s);
    s->corners = 4;
    /* outer ring o_k = k, inner ring i_k = 4 + k at y = 0; the same + 8 at y = 1 */
    for (int y = 0; y < 2; ++y) {
        for (int k = 0; k < 4; ++k)
            io_add_point(s, sx[k], y, sz[k]);
        for (int k = 0; k < 4; ++k)
            io_add_point(s, sx[k] * h, y, sz[k] * h);
    }
    for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t n = (k + 1) % 4;
        io_add_facet(s, k, n, 4 + n, 4 + k);          /* y = 0, facing -y */
        io_add_facet(s, 8 + k, 12 + k, 12 + n, 8 + n); /* y = 1, facing +y */
        io_add_facet(s, k, 8 + k, 8 + n, n);          /* outer side, facing out */
        io_add_facet(s, 4 + k, 4 + n, 12 + n, 12 + k); /* inner side, facing the hole */
    }
}

/* The polyhedron's volume by the divergence theorem, V = (1/6) sum over
 * its triangles (a quad a b c d: a b c and a c d) of x0 . (x1 x2); *bound
 * its rounding and *area the surface's area. Each term goes through at
 * most 5 roundings (two products, their difference, the product with x0,
 * two additions), the sum over F terms through F - 1 more and the / 6
 * through one: |error| <= gamma_{F + 6} sum |terms| / 6 (the terms'
 * absolute triple products). */
static double io_surface_volume(const io_surface *s, double *bound, double *area)
{
    double v6 = 0, abs6 = 0, a2 = 0;
    size_t terms = 0;
    for (size_t f = 0; f < s->facets; ++f) {
        const uint32_t *c = s->facet + (size_t)s->corners * f;
        for (unsigned k = 2; k < s->corners + 0u; ++k) {
            const double *x0 = s->xyz + 3 * (size_t)c[0], *x1 = s->xyz + 3 * (size_t)c[k - 1],
                         *x2 = s->xyz + 3 * (size_t)c[k];
            double p, e1[3], e2[3], n[3];
            v6 += io_triple(x0, x1, x2, &p);
            abs6 += p;
            ++terms;
            for (int q = 0; q < 3; ++q) {
                e1[q] = x1[q] - x0[q];
                e2[q] = x2[q] - x0[q];
            }
            io_cross3(e1, e2, n);
            a2 += sqrt(io_dot3(n, n));
        }
    }
    *bound = io_gamma((double)terms + 6) * abs6 / 6;
    *area = a2 / 2;
    return v6 / 6;
}

/* s as NAME.poly: points numbered from 1, each facet one polygon with
 * boundary marker 1, no holes, no regions */
static int io_write_poly(const char *path, const io_surface *s)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fprintf(f, "# written by xpbd-io-tests\n%zu 3 0 0\n", s->points);
    for (size_t i = 0; i < s->points; ++i)
        fprintf(f, "%zu %.17g %.17g %.17g\n", i + 1, s->xyz[3 * i], s->xyz[3 * i + 1],
                s->xyz[3 * i + 2]);
    fprintf(f, "%zu 1\n", s->facets);
    for (size_t k = 0; k < s->facets; ++k) {
        const uint32_t *c = s->facet + (size_t)s->corners * k;
        fprintf(f, "1 0 1\n%u", s->corners);
        for (unsigned q = 0; q < s->corners; ++q)
            fprintf(f, " %lu", (unsigned long)c[q] + 1ul);
        fputc('\n', f);
    }
    fprintf(f, "0\n0\n");
    return fclose(f) == 0;
}

/* Total volume of m's tets after xpbd_mesh_clean_tets_f64 oriented them
 * (in place), weighed by xpbd_mesh_masses_f64 at density 1 (kg = m^3),
 * every tet checked positive here; *bound its rounding: a tet's 6V is a
 * triple product of coordinate differences, each elementary product
 * through at most 9 roundings (3 differences, 2 products, a difference, a
 * product, 2 additions), then / 6 and / 4 corners: gamma_10 of its
 * absolute triple product P / 6; the quarters are summed into the
 * particles' masses and those here, at most 4 T + N additions in a row
 * over positive terms: gamma_{4T + N} of the total. */
static double io_tets_volume(xpbd_mesh_data *m, double *bound)
{
    size_t flipped = 9, skipped = 9, bad = 0;
    ENSURE_STATUS(xpbd_mesh_clean_tets_f64(m->particles, m->xyz, m->tet, m->tets, m->tet_label, 0,
                                           &flipped, &skipped, &bad),
                  XPBD_OK);
    ENSURE_INT(skipped, 0);
    double abs6 = 0;
    size_t positive = 0;
    for (size_t t = 0; t < m->tets; ++t) {
        double p;
        positive += io_tet6(m->xyz, m->tet + 4 * t, &p) > 0;
        abs6 += p;
    }
    ENSURE_INT(positive, m->tets);
    double *mass = calloc(m->particles, sizeof *mass);
    if (!mass) {
        ENSURE(mass != NULL);
        return NAN;
    }
    ENSURE_STATUS(xpbd_mesh_masses_f64(m->particles, m->xyz, m->tet, m->tets, 4, 1.0, mass, &bad),
                  XPBD_OK);
    double v = 0;
    for (size_t i = 0; i < m->particles; ++i)
        v += mass[i];
    free(mass);
    *bound = io_gamma(10) * abs6 / 6 + io_gamma(4.0 * (double)m->tets + (double)m->particles) * v;
    printf("      %zu points, %zu tets (%zu flipped by clean_tets)\n", m->particles, m->tets,
           flipped);
    return v;
}

/* ---------------------------------------------------- the soft body --- */

#define IO_RHO 1000.0 /* kg/m^3 */
#define IO_BULK 1e7   /* Pa, the bulk modulus the volume constraints give */
#define IO_G 9.81     /* m/s^2, xpbd_step_config_default()'s gravity */

/* The volume of the tets (oriented: 6V > 0 at rest) at positions x, y, z */
#define IO_VOLUME_OF(T, p, tet, tets, out)                                                    \
    do {                                                                                      \
        double io_v6_ = 0;                                                                    \
        for (size_t io_t_ = 0; io_t_ < (tets); ++io_t_) {                                     \
            const uint32_t *io_c_ = (tet) + 4 * io_t_;                                        \
            double io_e_[3][3], io_p_;                                                        \
            for (int io_k_ = 0; io_k_ < 3; ++io_k_) {                                         \
                io_e_[io_k_][0] = (double)(p)->x[io_c_[io_k_ + 1]] - (double)(p)->x[io_c_[0]]; \
                io_e_[io_k_][1] = (double)(p)->y[io_c_[io_k_ + 1]] - (double)(p)->y[io_c_[0]]; \
                io_e_[io_k_][2] = (double)(p)->z[io_c_[io_k_ + 1]] - (double)(p)->z[io_c_[0]]; \
            }                                                                                 \
            io_v6_ += io_triple(io_e_[0], io_e_[1], io_e_[2], &io_p_);                        \
        }                                                                                     \
        (out) = io_v6_ / 6;                                                                   \
    } while (0)

/* One precision of io_settle: the scene of m (density IO_RHO, edges of
 * 1e-6 m/N, per-tet volume compliance 36 V_t / IO_BULK, one body) on the
 * ground plane y = y0 (its lowest point; particles of radius 0), 120
 * frames of 1/60 s at 20 substeps of 4 iterations, gravity on from rest.
 * Prints and checks |V / V0 - 1| <= tol and that it did not sink. */
#define IO_SETTLE(T, m, tol, y0)                                                              \
    do {                                                                                      \
        xpbd_mesh_scene_options o_;                                                           \
        memset(&o_, 0, sizeof o_);                                                            \
        o_.density = IO_RHO;                                                                  \
        o_.edge_alpha = 1e-6;                                                                 \
        o_.one_body = 1;                                                                      \
        xpbd_mesh_scene_##T s_;                                                               \
        REQUIRE_STATUS(xpbd_mesh_scene_build_##T(&s_, (m), &o_), XPBD_OK);                    \
        const size_t n_ = s_.scene.particles, nt_ = s_.scene.tets;                           \
        io_real_##T *alpha_ = malloc((nt_ + 1) * sizeof *alpha_);                               \
        io_real_##T *radius_ = calloc(n_ + 1, sizeof *radius_);                                  \
        if (!alpha_ || !radius_) {                                                            \
            free(alpha_);                                                                     \
            free(radius_);                                                                    \
            xpbd_mesh_scene_free_##T(&s_);                                                    \
            REQUIRE(alpha_ && radius_);                                                       \
        }                                                                                     \
        for (size_t t_ = 0; t_ < nt_; ++t_) {                                                 \
            double xyz_[12], p_;                                                              \
            const uint32_t idx_[4] = {0, 1, 2, 3};                                            \
            for (int k_ = 0; k_ < 12; ++k_)                                                   \
                xyz_[k_] = (double)s_.xyz[3 * (size_t)s_.tet[4 * t_ + (size_t)(k_ / 3)] +     \
                                          (size_t)(k_ % 3)];                                  \
            alpha_[t_] = (io_real_##T)(36 * (io_tet6(xyz_, idx_, &p_) / 6) / IO_BULK);           \
        }                                                                                     \
        const xpbd_plane ground_ = {{0, 1, 0}, (y0)};                                         \
        s_.scene.tet_compliance = alpha_;                                                     \
        s_.scene.radius = radius_;                                                            \
        s_.scene.planes = 1;                                                                  \
        s_.scene.plane = &ground_;                                                            \
        xpbd_step_config cfg_ = xpbd_step_config_default();                                   \
        cfg_.substeps = 20;                                                                   \
        cfg_.iterations = 4;                                                                  \
        xpbd_engine_##T *e_ = NULL;                                                           \
        xpbd_status st_ = xpbd_engine_create_##T(&e_, &s_.scene, &cfg_, NULL, NULL);          \
        ENSURE_STATUS(st_, XPBD_OK);                                                          \
        double v0_ = 0, v1_ = 0, low_ = HUGE_VAL;                                             \
        if (st_ == XPBD_OK) {                                                                 \
            IO_VOLUME_OF(T, xpbd_engine_particles_##T(e_), s_.tet, nt_, v0_);                 \
            for (int f_ = 0; f_ < 120 && st_ >= 0; ++f_)                                      \
                st_ = xpbd_engine_step_##T(e_, 1.0 / 60);                                     \
            ENSURE(st_ >= 0);                                                                 \
            const xpbd_particles_##T *q_ = xpbd_engine_particles_##T(e_);                     \
            IO_VOLUME_OF(T, q_, s_.tet, nt_, v1_);                                            \
            for (size_t i_ = 0; i_ < n_; ++i_)                                                \
                low_ = fmin(low_, (double)q_->y[i_]);                                         \
            xpbd_engine_destroy_##T(e_);                                                      \
        }                                                                                     \
        const double err_ = fabs(v1_ / v0_ - 1);                                              \
        printf("      " #T ": V0 %.9g, after 2 s on the ground %.9g: |V/V0 - 1| = %.3g "      \
               "(tol %.3g); lowest y %.3g above the plane\n",                                 \
               v0_, v1_, err_, (tol), low_ - (y0));                                           \
        ENSURE_LE(err_, (tol));                                                               \
        /* under its weight an elastic body loses volume (the tolerance's   \
         * model: between 0 and twice the static compression): one that    \
         * kept it exactly had no working volume response */                \
        ENSURE(v1_ < v0_);                                                                    \
        ENSURE(low_ > (y0) - 0.01); /* held by the plane: did not fall through */             \
        free(alpha_);                                                                         \
        free(radius_);                                                                        \
        xpbd_mesh_scene_free_##T(&s_);                                                        \
    } while (0)

typedef float io_real_f32;
typedef double io_real_f64;

/* The mesh as a soft body on the ground, both precisions.
 *
 * Tolerance, set before the run. The volume constraints' compliance
 * 36 V_t / K makes a tet's energy K (dV_t)^2 / (2 V_t), a material of bulk
 * modulus K (C = 6 dV_t). At rest on the ground a linear elastic body's
 * volume change follows from the virial of its loads alone: the integral
 * of the stress trace is -M g H (gravity at the centre of mass, height H
 * above the plane; the ground's reaction acts at height 0), and equals
 * 3 K_total dV, so dV / V = -rho g H / (3 K_total). The edges can only add
 * to the bulk stiffness (K_total >= K), so |dV / V| <= rho g H / (3 K) in
 * the static state. Gravity is switched on at t = 0: a step load on an
 * undamped linear system never takes it beyond twice its static response,
 * which bounds whatever oscillation is left at 2 s. The solve is converged
 * enough for that: at h = 1/1200 s the constraints' at = alpha / h^2
 * (0.03 to 0.05 for these tets, 1.4 for an edge) outweighs their S (about
 * 1e-3 and 0.1 to 0.4 at particle masses of 5 to 30 kg), so each
 * projection is nearly the converged one and 4 iterations settle it. tol = 2 rho g H / (3 K), with
 * H from the masses; float positions (~1 m) round at 6e-8, far below. */
static void io_settle(const xpbd_mesh_data *m)
{
    double y0 = HUGE_VAL, my = 0, mass = 0;
    for (size_t i = 0; i < m->particles; ++i)
        y0 = fmin(y0, m->xyz[3 * i + 1]);
    /* the centre of mass of the tets at density IO_RHO (corners' quarters) */
    double *w = calloc(m->particles + 1, sizeof *w);
    size_t bad;
    REQUIRE(w != NULL);
    ENSURE_STATUS(xpbd_mesh_masses_f64(m->particles, m->xyz, m->tet, m->tets, 4, IO_RHO, w, &bad),
                  XPBD_OK);
    for (size_t i = 0; i < m->particles; ++i) {
        my += w[i] * m->xyz[3 * i + 1];
        mass += w[i];
    }
    free(w);
    const double H = my / mass - y0;
    const double tol = 2 * IO_RHO * IO_G * H / (3 * IO_BULK);
    IO_SETTLE(f64, m, tol, y0);
    IO_SETTLE(f32, m, tol, y0);
}

/* ------------------------------------------------- TetGen, the tests --- */

/* 1 if the tetgen program is on PATH, else a skip */
static int io_have_tetgen(void)
{
    if (system("command -v tetgen >/dev/null 2>&1") == 0)
        return 1;
    printf("      tetgen is not on PATH (Debian: apt-get install tetgen): skipped\n");
    io_skipped = 1;
    return 0;
}

/* s written as NAME.poly, meshed by `tetgen -pq1.4aMAXV` (a PLC, radius-
 * edge ratio at most 1.4, tets of at most max_volume; Steiner points may
 * go on the facets, which keeps them in the facets' planes) and loaded.
 * closed_form: the polyhedron's volume by a formula of its own (NAN: none);
 * rounded: s's points are the formula's to libm's rounding only. */
static void io_tetgen_body(const char *name, const io_surface *s, double max_volume,
                           double closed_form, int rounded)
{
    char file[256], cmd[4096];
    snprintf(file, sizeof file, "%s.poly", name);
    REQUIRE(io_write_poly(io_path(file), s));
    snprintf(file, sizeof file, "%s.log", name);
    const char *log = io_path(file);
    snprintf(file, sizeof file, "%s.poly", name);
    snprintf(cmd, sizeof cmd, "tetgen -pq1.4a%g '%s' >'%s' 2>&1", max_volume, io_path(file), log);
    const int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "      %s: tetgen exited %d, see %s\n", name, rc, log);
    REQUIRE(rc == 0);
    double poly_bound, area, r = 0;
    const double poly = io_surface_volume(s, &poly_bound, &area);
    REQUIRE(poly > 0); /* the facets face outwards */
    for (size_t i = 0; i < 3 * s->points; ++i)
        r = fmax(r, fabs(s->xyz[i]));
    if (closed_form == closed_form) {
        /* the formula's own few roundings (8 u of it) and, for points made
         * with sin and cos (io_make_torus: tube radius 0.4 about radius 1,
         * R = max |x| = 1.4), their distance from the formula's exact
         * points, which moves the volume by at most that times the area.
         * Per coordinate (u = IO_U = 2^-53): the angle 2 IO_PI i / N is
         * within gamma_3 2 pi < 19 u of its value (IO_PI, the product, the
         * quotient), so its cos and sin within 19 u + libm's ulp (2 u) =
         * 21 u; 1 + 0.4 cos v within 0.4 (21 u + u) + 1.4 u = 10.2 u; times
         * cos u within 1.4 (21 u) + 10.2 u + 1.4 u = 41 u; 0.4 sin v within
         * 9 u. Every coordinate within 41 u < 30 u R: a point within
         * 30 sqrt(3) u R of the formula's. */
        ENSURE_NEAR(poly, closed_form,
                    poly_bound + 8 * IO_U * closed_form +
                        (rounded ? 30 * sqrt(3.0) * IO_U * r * area : 0));
        printf("      polyhedron %.17g by the divergence theorem, %.17g by its formula\n", poly,
               closed_form);
    }
    xpbd_mesh_data m;
    xpbd_io_error err;
    snprintf(file, sizeof file, "%s.1.node", name);
    const xpbd_status st = xpbd_io_load_tetgen(io_path(file), &m, &err);
    if (st != XPBD_OK)
        fprintf(stderr, "      %s: %s, line %zu\n", file, err.what, err.line);
    REQUIRE_STATUS(st, XPBD_OK);
    REQUIRE(m.tets > 0);
    double bound;
    const double v = io_tets_volume(&m, &bound);
    /* Tolerance, set before the run: the two sums' rounding (bound,
     * poly_bound: see io_tets_volume and io_surface_volume) and the
     * boundary's. TetGen writes its points with %.17g (read back exactly),
     * so a Steiner point it puts on a facet (a segment's midpoint, a
     * subface's circumcentre) is off the facet's plane by the rounding of
     * its coordinates only: a point a + s (b - a) + t (c - a) of the plane
     * (s, t in [0, 1]; errors in s and t keep it in the plane), each
     * coordinate through at most 4 roundings (a difference, a product, two
     * sums), so within gamma_4 (|a| + |b - a| + |c - a|) <= gamma_4 5 R of
     * the plane's point, R = max |x|: at most 5 gamma_4 sqrt(3) R off the
     * plane. Moving boundary points off their facets by at most d changes
     * the enclosed volume by at most d times the surface's area. */
    const double geometry = 5 * io_gamma(4) * sqrt(3.0) * r * area;
    const double tol = bound + poly_bound + geometry;
    printf("      tets %.17g, polyhedron %.17g: error %.3g, tol %.3g (sums %.2g + %.2g, "
           "boundary %.2g)\n",
           v, poly, fabs(v - poly), tol, bound, poly_bound, geometry);
    ENSURE_NEAR(v, poly, tol);
    io_settle(&m);
    xpbd_mesh_data_free(&m);
}

static void io_mesher_sphere(void)
{
    if (!io_have_tetgen())
        return;
    io_make_sphere(&io_surf);
    ENSURE_INT(io_surf.points, 162);
    ENSURE_INT(io_surf.facets, 320);
    double b, a;
    /* inscribed in the unit ball, and close to it */
    const double v = io_surface_volume(&io_surf, &b, &a);
    ENSURE(v < 4 * IO_PI / 3 && v > 0.95 * 4 * IO_PI / 3);
    io_tetgen_body("sphere", &io_surf, 0.05, NAN, 0);
}

static void io_mesher_torus(void)
{
    if (!io_have_tetgen())
        return;
    io_make_torus(&io_surf);
    /* The polyhedron's closed form: between the meridian planes u_i and
     * u_i+1 it is the octagons there joined by straight lines (each face a
     * planar trapezoid), x = rho (t e_i + (1 - t) e_i+1), whose Jacobian
     * is rho sin(du): V = NU sin(2 pi / NU) A R, A = (NV / 2) r^2 sin(2 pi
     * / NV) the octagon's area and R its centroid's distance from the axis
     * (Pappus for the polygonal torus). */
    const double closed = 16 * sin(2 * IO_PI / 16) * (8.0 / 2 * 0.4 * 0.4 * sin(2 * IO_PI / 8)) * 1;
    io_tetgen_body("torus", &io_surf, 0.05, closed, 1);
}

static void io_mesher_holed_box(void)
{
    if (!io_have_tetgen())
        return;
    io_make_holed_box(&io_surf);
    /* (2 x 2 - (2h)^2) x 1 */
    io_tetgen_body("holed_box", &io_surf, 0.05, 2.0 * 2.0 - (2 * io_hole) * (2 * io_hole), 0);
}

/* ------------------------------------------- the committed Gmsh files --- */

/* What a .msh file's own headers say, read here without the library:
 * the node and element counts of $Nodes and $Elements and, in an ASCII
 * file, its elements by type (triangles: 2, tets: 4, others). */
typedef struct io_msh_info {
    int binary;
    unsigned long nodes, elements;
    unsigned long triangles, tets, others; /* ASCII files only */
} io_msh_info;

static const char *io_find(const char *b, size_t n, const char *key)
{
    const size_t k = strlen(key);
    for (size_t i = 0; i + k <= n; ++i)
        if (memcmp(b + i, key, k) == 0)
            return b + i + k;
    return NULL;
}

static void io_count_type(io_msh_info *in, unsigned long type, unsigned long n)
{
    if (type == 2)
        in->triangles += n;
    else if (type == 4)
        in->tets += n;
    else
        in->others += n;
}

static int io_msh_info_of(const char *path, io_msh_info *in)
{
    memset(in, 0, sizeof *in);
    size_t n;
    char *b = xt_read_file(path, &n);
    if (!b)
        return 0;
    int ok = 0;
    const char *fmt = io_find(b, n, "$MeshFormat\n");
    const char *nodes = io_find(b, n, "$Nodes\n"), *elements = io_find(b, n, "$Elements\n");
    double version = 0;
    int type = -1, size = 0;
    if (fmt && nodes && elements && sscanf(fmt, "%lf %d %d", &version, &type, &size) == 3) {
        in->binary = type == 1;
        if (in->binary && version == 4.1 && size == 8) {
            uint64_t v[2][2];
            memcpy(v[0], nodes, sizeof v[0]);
            memcpy(v[1], elements, sizeof v[1]);
            in->nodes = (unsigned long)v[0][1];
            in->elements = (unsigned long)v[1][1];
            ok = 1;
        } else if (!in->binary && version == 4.1) {
            unsigned long blocks;
            char *p;
            unsigned long node_blocks;
            ok = sscanf(nodes, "%lu %lu", &node_blocks, &in->nodes) == 2;
            blocks = strtoul(elements, &p, 10);
            in->elements = strtoul(p, &p, 10);
            p = strchr(p, '\n');
            for (unsigned long k = 0; ok && p && k < blocks; ++k) {
                unsigned long dim = 0, tag = 0, t = 0, m = 0;
                ok = sscanf(p + 1, "%lu %lu %lu %lu", &dim, &tag, &t, &m) == 4;
                if (ok)
                    io_count_type(in, t, m);
                for (unsigned long e = 0; ok && e <= m; ++e)
                    ok = (p = strchr(p + 1, '\n')) != NULL;
            }
        } else if (!in->binary && version == 2.2) {
            char *p;
            ok = sscanf(nodes, "%lu", &in->nodes) == 1;
            in->elements = strtoul(elements, &p, 10);
            for (unsigned long e = 0; ok && e < in->elements; ++e) {
                unsigned long id = 0, t = 0;
                ok = (p = strchr(p, '\n')) != NULL && sscanf(p + 1, "%lu %lu", &id, &t) == 2;
                if (!ok)
                    break;
                io_count_type(in, t, 1);
                ++p;
            }
        }
    }
    free(b);
    return ok;
}

/* Loads tests/data/gmsh/NAME and checks it against its headers. */
static int io_load_msh(const char *name, xpbd_mesh_data *m, io_msh_info *in)
{
    char file[128];
    snprintf(file, sizeof file, "gmsh/%s", name);
    xpbd_io_error err;
    const xpbd_status st = xpbd_io_load_gmsh(io_data_path(file), m, &err);
    if (st != XPBD_OK)
        fprintf(stderr, "      %s: %s (line %zu, byte %zu)\n", name, err.what, err.line,
                err.byte_offset);
    ENSURE_STATUS(st, XPBD_OK);
    if (st != XPBD_OK)
        return 0;
    ENSURE(io_msh_info_of(io_data_path(file), in));
    ENSURE_INT(m->particles, in->nodes);
    /* every element is a triangle, a tet or skipped and counted */
    ENSURE_INT(m->triangles + m->tets + err.skipped, in->elements);
    if (!in->binary) {
        ENSURE_INT(m->triangles, in->triangles);
        ENSURE_INT(m->tets, in->tets);
        ENSURE_INT(err.skipped, in->others);
    }
    printf("      %-18s %zu nodes, %lu elements: %zu triangles, %zu tets, %zu skipped\n", name,
           m->particles, in->elements, m->triangles, m->tets, err.skipped);
    return 1;
}

/* b the same mesh as a: elements, labels and names equal; positions equal
 * bit for bit (exact = 1) or, a being an ASCII file Gmsh printed with 16
 * significant digits and b the binary file's doubles, within half a unit
 * of the 16th digit plus strtod's rounding: |a - b| <= (5e-16 + u) |b|. */
static void io_same_mesh(const xpbd_mesh_data *a, const xpbd_mesh_data *b, int exact)
{
    ENSURE_INT(a->particles, b->particles);
    ENSURE_INT(a->triangles, b->triangles);
    ENSURE_INT(a->tets, b->tets);
    ENSURE_INT(a->labels, b->labels);
    if (a->particles != b->particles || a->triangles != b->triangles || a->tets != b->tets ||
        a->labels != b->labels)
        return;
    /* (an empty array may be NULL) */
    ENSURE(!a->triangles ||
           memcmp(a->triangle, b->triangle, 3 * a->triangles * sizeof *a->triangle) == 0);
    ENSURE(!a->tets || memcmp(a->tet, b->tet, 4 * a->tets * sizeof *a->tet) == 0);
    ENSURE((a->triangle_label == NULL) == (b->triangle_label == NULL));
    ENSURE((a->tet_label == NULL) == (b->tet_label == NULL));
    if (a->triangles && a->triangle_label && b->triangle_label)
        ENSURE(memcmp(a->triangle_label, b->triangle_label,
                      a->triangles * sizeof *a->triangle_label) == 0);
    if (a->tets && a->tet_label && b->tet_label)
        ENSURE(memcmp(a->tet_label, b->tet_label, a->tets * sizeof *a->tet_label) == 0);
    for (size_t k = 0; k < a->labels; ++k) {
        ENSURE_INT(a->label_id[k], b->label_id[k]);
        ENSURE(strcmp(a->label_name[k], b->label_name[k]) == 0);
    }
    size_t differ = 0;
    double worst = 0;
    for (size_t i = 0; i < 3 * a->particles; ++i) {
        const double d = fabs(a->xyz[i] - b->xyz[i]);
        differ += d != 0;
        worst = fmax(worst, d / fabs(b->xyz[i]));
        if (exact)
            ENSURE(d == 0);
        else
            ENSURE_LE(d, (5e-16 + IO_U) * fabs(b->xyz[i]));
    }
    if (!exact)
        printf("      ASCII and binary: %zu of %zu coordinates differ, by at most %.3g of "
               "themselves (bound %.3g)\n",
               differ, 3 * a->particles, worst, 5e-16 + IO_U);
}

/* the label of the group named name (-1: none) */
static int32_t io_group(const xpbd_mesh_data *m, const char *name)
{
    for (size_t k = 0; k < m->labels; ++k)
        if (strcmp(m->label_name[k], name) == 0)
            return m->label_id[k];
    return -1;
}

/* every entry of label[n] is want */
static int io_all_label(const int32_t *label, size_t n, int32_t want)
{
    if (!label)
        return 0;
    for (size_t k = 0; k < n; ++k)
        if (label[k] != want)
            return 0;
    return 1;
}

/* the three files of one geometry: loaded, checked, compared; m[0] 4.1
 * ASCII, m[1] 4.1 binary, m[2] 2.2 ASCII */
static int io_load_three(const char *geometry, xpbd_mesh_data m[3])
{
    static const char *const suffix[3] = {"_v41.msh", "_v41_bin.msh", "_v22.msh"};
    io_msh_info in;
    int ok = 1;
    for (int k = 0; k < 3; ++k) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", geometry, suffix[k]);
        memset(&m[k], 0, sizeof m[k]);
        ok &= io_load_msh(name, &m[k], &in);
    }
    if (ok) {
        io_same_mesh(&m[2], &m[0], 1);
        io_same_mesh(&m[0], &m[1], 0);
    }
    return ok;
}

static void io_free_three(xpbd_mesh_data m[3])
{
    for (int k = 0; k < 3; ++k)
        xpbd_mesh_data_free(&m[k]);
}

/* The unit cube: groups "top" (1, the face y = 1) and "body" (2); every
 * node within 1e-9 of a face is on it exactly, so the tets fill the cube
 * and their volume is 1 to the sums' rounding (io_tets_volume), in every
 * file (the binary one's doubles too). */
static void io_files_cube(void)
{
    xpbd_mesh_data m[3];
    if (io_load_three("cube", m)) {
        for (int k = 0; k < 3; ++k) {
            xpbd_mesh_data *c = &m[k];
            ENSURE_INT(c->labels, 2);
            ENSURE_INT(io_group(c, "top"), 1);
            ENSURE_INT(io_group(c, "body"), 2);
            ENSURE(io_all_label(c->tet_label, c->tets, 2));
            ENSURE(io_all_label(c->triangle_label, c->triangles, 1));
            size_t near = 0, off = 0, outside = 0;
            for (size_t i = 0; i < 3 * c->particles; ++i) {
                const double x = c->xyz[i];
                outside += !(x >= 0 && x <= 1);
                if (fabs(x) < 1e-9 || fabs(x - 1) < 1e-9) {
                    ++near;
                    off += x != 0 && x != 1;
                }
            }
            ENSURE_INT(outside, 0);
            ENSURE_INT(off, 0);
            for (size_t f = 0; f < 3 * c->triangles; ++f)
                ENSURE(c->xyz[3 * (size_t)c->triangle[f] + 1] == 1); /* "top" is y = 1 */
            double bound;
            const double v = io_tets_volume(c, &bound);
            printf("      volume %.17g: error %.3g, tol %.3g (%zu coordinates on a face)\n", v,
                   fabs(v - 1), bound, near);
            ENSURE_NEAR(v, 1, bound);
        }
    }
    io_free_three(m);
}

/* The unit ball: groups "skin" (3, every boundary triangle) and "ball"
 * (4). The mesh is a polyhedron with its vertices on the sphere, so
 * (bounds set before the run)
 *   V <= (4 pi / 3) r^3, r the largest |x| of a node (1 to rounding), and
 *   V >= (4 pi / 3) d^3, d the least distance of a boundary triangle's
 *        plane from the centre: when every such plane passes the centre on
 *        the same side (checked), the triangles' solid angles Omega_f
 *        tile the sphere of directions once and V = sum A_f d_f / 3 >=
 *        (d / 3) sum A_f >= (d / 3) sum Omega_f d_f^2 >= (4 pi / 3) d^3
 *        (A_f >= Omega_f d_f^2: a triangle at distance d_f subtends at
 *        most its area over d_f^2);
 * and the tets' total equals the volume the skin encloses (divergence
 * theorem over it) to both sums' rounding. */
static void io_files_sphere(void)
{
    xpbd_mesh_data m[3];
    if (io_load_three("sphere", m)) {
        for (int k = 0; k < 3; ++k) {
            xpbd_mesh_data *c = &m[k];
            ENSURE_INT(c->labels, 2);
            ENSURE_INT(io_group(c, "skin"), 3);
            ENSURE_INT(io_group(c, "ball"), 4);
            ENSURE(io_all_label(c->tet_label, c->tets, 4));
            ENSURE(io_all_label(c->triangle_label, c->triangles, 3));
            double r = 0, d = HUGE_VAL, skin6 = 0, skin_abs = 0;
            size_t positive = 0;
            for (size_t i = 0; i < c->particles; ++i)
                r = fmax(r, sqrt(io_dot3(c->xyz + 3 * i, c->xyz + 3 * i)));
            for (size_t f = 0; f < c->triangles; ++f) {
                const double *x0 = c->xyz + 3 * (size_t)c->triangle[3 * f];
                const double *x1 = c->xyz + 3 * (size_t)c->triangle[3 * f + 1];
                const double *x2 = c->xyz + 3 * (size_t)c->triangle[3 * f + 2];
                double e1[3], e2[3], n[3], p;
                for (int q = 0; q < 3; ++q) {
                    e1[q] = x1[q] - x0[q];
                    e2[q] = x2[q] - x0[q];
                }
                io_cross3(e1, e2, n);
                const double df = io_dot3(n, x0) / sqrt(io_dot3(n, n));
                positive += df > 0;
                d = fmin(d, fabs(df));
                skin6 += io_triple(x0, x1, x2, &p);
                skin_abs += p;
            }
            ENSURE(positive == 0 || positive == c->triangles); /* one side */
            double bound;
            const double v = io_tets_volume(c, &bound);
            const double skin = fabs(skin6) / 6;
            const double skin_bound = io_gamma((double)c->triangles + 6) * skin_abs / 6;
            const double lo = 4 * IO_PI / 3 * d * d * d, hi = 4 * IO_PI / 3 * r * r * r;
            printf("      volume %.17g in [%.17g, %.17g] (d %.6g, r %.17g); skin encloses "
                   "%.17g: error %.3g, tol %.3g\n",
                   v, lo, hi, d, r, skin, fabs(v - skin), bound + skin_bound);
            /* the bounds' own few roundings: 16 u of them */
            ENSURE(v >= lo * (1 - 16 * IO_U) - bound);
            ENSURE(v <= hi * (1 + 16 * IO_U) + bound);
            ENSURE_NEAR(v, skin, bound + skin_bound);
        }
    }
    io_free_three(m);
}

/* The sheet: groups "cloth" (5, y <= 0.9) and "top" (6, the strip above
 * it); the curve "top_edge" (7) is of lines, skipped (no name listed).
 * Every node has z = 0 exactly and those within 1e-9 of the square's
 * edges or of the line y = 0.9 lie on them exactly, so with the triangles
 * all turning one way (checked) their areas are the closed forms to
 * rounding: 1 in all, 0.9 (the double nearest, y of that line) "cloth",
 * 1 - 0.9 (exact, Sterbenz) "top". Area of a triangle: |n_z| / 2, n_z =
 * ax by - ay bx of coordinate differences (3 roundings per product, one
 * more for / 2), summed over F: gamma_{F + 4} of the total. */
static void io_files_sheet(void)
{
    xpbd_mesh_data m[3];
    if (io_load_three("sheet", m)) {
        for (int k = 0; k < 3; ++k) {
            xpbd_mesh_data *c = &m[k];
            ENSURE_INT(c->tets, 0);
            ENSURE_INT(c->labels, 2);
            ENSURE_INT(io_group(c, "cloth"), 5);
            ENSURE_INT(io_group(c, "top"), 6);
            ENSURE_INT(io_group(c, "top_edge"), -1);
            REQUIRE(c->triangle_label != NULL);
            size_t off = 0;
            for (size_t i = 0; i < c->particles; ++i) {
                const double *x = c->xyz + 3 * i;
                off += x[2] != 0 || !(x[0] >= 0 && x[0] <= 1 && x[1] >= 0 && x[1] <= 1);
                const double line[4] = {0, 1, 0.9, 1};
                for (int q = 0; q < 4; ++q) {
                    const double v = q < 2 ? x[0] : x[1];
                    off += fabs(v - line[q]) < 1e-9 && v != line[q];
                }
            }
            ENSURE_INT(off, 0);
            double area[2] = {0, 0};
            size_t counter = 0, wrong = 0;
            for (size_t f = 0; f < c->triangles; ++f) {
                const double *x0 = c->xyz + 3 * (size_t)c->triangle[3 * f];
                const double *x1 = c->xyz + 3 * (size_t)c->triangle[3 * f + 1];
                const double *x2 = c->xyz + 3 * (size_t)c->triangle[3 * f + 2];
                const double nz = (x1[0] - x0[0]) * (x2[1] - x0[1]) -
                                  (x1[1] - x0[1]) * (x2[0] - x0[0]);
                counter += nz > 0;
                const int top = c->triangle_label[f] == 6;
                ENSURE(top || c->triangle_label[f] == 5);
                const double ylo = fmin(x0[1], fmin(x1[1], x2[1]));
                const double yhi = fmax(x0[1], fmax(x1[1], x2[1]));
                wrong += top ? ylo < 0.9 : yhi > 0.9;
                area[top] += fabs(nz) / 2;
            }
            ENSURE(counter == 0 || counter == c->triangles);
            ENSURE_INT(wrong, 0);
            const double tol = io_gamma((double)c->triangles + 4) * 1;
            printf("      areas: cloth %.17g, top %.17g, all %.17g (tol %.3g)\n", area[0],
                   area[1], area[0] + area[1], tol);
            ENSURE_NEAR(area[0], 0.9, tol);
            ENSURE_NEAR(area[1], 1 - 0.9, tol);
            ENSURE_NEAR(area[0] + area[1], 1, tol);
        }
    }
    io_free_three(m);
}

const xt_test io_mesh_tests[] = {
    {"io.mesher.sphere", io_mesher_sphere},
    {"io.mesher.torus", io_mesher_torus},
    {"io.mesher.holed_box", io_mesher_holed_box},
    {"io.files.cube", io_files_cube},
    {"io.files.sphere", io_files_sphere},
    {"io.files.sheet", io_files_sheet},
    {NULL, NULL},
};
