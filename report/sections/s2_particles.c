/* SPDX-License-Identifier: MIT */
/* Section s2_particles: a 3-D scene instead of the lesson's stack: a
 * column of balls poured into a box of five planes through the world step
 * in the usual substep order, the broad phase finding the contacts every
 * frame. */
#include "report.h"
#include "shared/s2_stack.h"
#include <xpbd/reference.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A column of balls (float, as hosts run) poured into an open box of five
 * planes through the world step: substep order, the broad phase every
 * frame, restitution and friction. */
typedef struct s2_pour {
    xpbd_particles_f32 p;
    float *r, *block;
    s2_contacts ct;
} s2_pour;

#define S2_BOX 0.8 /* box side (m) */

static void s2_pour_free(s2_pour *s)
{
    free(s->block);
    s2_contacts_free(&s->ct);
    memset(s, 0, sizeof *s);
}

static int s2_pour_init(s2_pour *s, size_t n, size_t max_contacts)
{
    memset(s, 0, sizeof *s);
    s->block = calloc(11 * n + 1, sizeof(float));
    if (!s->block ||
        s2_contacts_init(&s->ct, n, max_contacts, xpbd_world_scratch_bytes_f32(n, 0, max_contacts),
                         0) != 0) {
        s2_pour_free(s);
        return -1;
    }
    float *b = s->block;
    xpbd_particles_bind_f32(&s->p, n, b, n);
    s->r = b + 10 * n;
    /* a jittered lattice column over the middle of the box, radii 2-3 cm */
    uint64_t rng = 0x5eedf00dull;
    const int across = 11;
    const double pitch = 0.062, x0 = S2_BOX / 2 - pitch * (across - 1) / 2.0;
    for (size_t i = 0; i < n; ++i) {
        const size_t layer = i / (size_t)(across * across), cell = i % (size_t)(across * across);
        double u[4];
        for (int k = 0; k < 4; ++k) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            u[k] = (double)(rng >> 11) * (1.0 / 9007199254740992.0);
        }
        s->p.x[i] = (float)(x0 + pitch * (double)(cell % across) + 0.01 * (u[0] - 0.5));
        s->p.z[i] = (float)(x0 + pitch * (double)(cell / across) + 0.01 * (u[1] - 0.5));
        s->p.y[i] = (float)(0.25 + pitch * (double)layer + 0.01 * u[2]);
        s->r[i] = (float)(0.02 + 0.01 * u[3]);
        s->p.w[i] = (float)(1.0 / (1000.0 * 4.18879 * s->r[i] * s->r[i] * s->r[i])); /* 1 t/m^3 */
        s->p.vy[i] = 0;
    }
    return 0;
}

/* The deepest pair penetration of contact slots [t0, t1), at least pp. */
static double s2_pour_pair_pen(const s2_pour *s, uint32_t t0, uint32_t t1, double pp)
{
    const xpbd_particles_f32 *p = &s->p;
    for (uint32_t t = t0; t < t1; ++t) {
        const uint32_t a = s->ct.cs.i0[t], b = s->ct.cs.i1[t];
        const double dx = (double)p->x[b] - p->x[a], dy = (double)p->y[b] - p->y[a];
        const double dz = (double)p->z[b] - p->z[a];
        pp = fmax(pp, (double)s->r[a] + s->r[b] - sqrt(dx * dx + dy * dy + dz * dz));
    }
    return pp;
}

/* Energy (J, potential from the floor), max pair and plane penetration. */
static void s2_pour_measure(const s2_pour *s, double *energy, double *kinetic, double *pair_pen,
                            double *plane_pen)
{
    double e = 0, k = 0, pp = 0, wp = 0;
    const xpbd_particles_f32 *p = &s->p;
    for (size_t i = 0; i < p->count; ++i) {
        const double m = 1.0 / p->w[i];
        const double v2 = (double)p->vx[i] * p->vx[i] + (double)p->vy[i] * p->vy[i] +
                          (double)p->vz[i] * p->vz[i];
        k += 0.5 * m * v2;
        e += m * S2_G * p->y[i];
        const double walls[5] = {p->y[i], p->x[i], S2_BOX - p->x[i], p->z[i], S2_BOX - p->z[i]};
        for (int w = 0; w < 5; ++w)
            wp = fmax(wp, s->r[i] - walls[w]);
    }
    const xpbd_contact_set *cs = &s->ct.cs;
    for (uint32_t c = 0; c < cs->colours; ++c)
        pp = s2_pour_pair_pen(s, cs->colour_begin[c], cs->colour_begin[c] + cs->colour_size[c], pp);
    pp = s2_pour_pair_pen(s, cs->overflow_begin, cs->slots, pp);
    *energy = e + k;
    *kinetic = k;
    *pair_pen = pp;
    *plane_pen = wp;
}

typedef struct s2_depth {
    float z;
    size_t i;
} s2_depth;

static int s2_depth_cmp(const void *a, const void *b)
{
    const s2_depth *x = a, *y = b;
    return x->z > y->z ? -1 : x->z < y->z ? 1 : (x->i > y->i) - (x->i < y->i);
}

/* The s2_particles table: the pile's final state, one ball a row, far balls
 * (large z) first; the smallest radius, the highest centre and how far the
 * farthest centre lies outside the box. Returns 0 or -1. */
static int pp_final_table(xr_ctx *ctx, const s2_pour *s, float *rmin_out, float *ymax_out,
                          double *outside_out)
{
    FILE *f = xr_table_open(ctx, "s2_particles", "x\ty\tz\tr\tspeed");
    if (!f)
        return -1;
    float rmin = 1, ymax = 0;
    double outside = 0;
    const size_t n = s->p.count;
    /* far balls (large z) first, so the side view from -z draws the near
     * ones over them */
    s2_depth *order = malloc(n * sizeof *order);
    if (!order) {
        xr_table_close(f);
        return -1;
    }
    for (size_t i = 0; i < n; ++i) {
        order[i].z = s->p.z[i];
        order[i].i = i;
    }
    qsort(order, n, sizeof *order, s2_depth_cmp);
    for (size_t k = 0; k < n; ++k) {
        const size_t i = order[k].i;
        const double v = sqrt((double)s->p.vx[i] * s->p.vx[i] + (double)s->p.vy[i] * s->p.vy[i] +
                              (double)s->p.vz[i] * s->p.vz[i]);
        const double row[5] = {s->p.x[i], s->p.y[i], s->p.z[i], s->r[i], v};
        xr_row(f, 5, row);
        rmin = s->r[i] < rmin ? s->r[i] : rmin;
        ymax = s->p.y[i] > ymax ? s->p.y[i] : ymax;
        const double lo = fmin(fmin(s->p.x[i], s->p.z[i]), fmin(S2_BOX - s->p.x[i],
                                                              S2_BOX - s->p.z[i]));
        outside = fmax(outside, -fmin(lo, (double)s->p.y[i]));
    }
    xr_table_close(f);
    free(order);
    *rmin_out = rmin;
    *ymax_out = ymax;
    *outside_out = outside;
    return 0;
}

static int s2_particles_run(xr_ctx *ctx)
{
    const size_t n = xr_quick(ctx) ? 1089 : 1936; /* 9 / 16 layers of 11 x 11 */
    const int frames = xr_quick(ctx) ? 90 : 240;
    const size_t max_contacts = 40 * n;
    s2_pour s;
    if (s2_pour_init(&s, n, max_contacts) != 0)
        return -1;
    const xpbd_plane box[5] = {{{0, 1, 0}, 0},
                               {{1, 0, 0}, 0},
                               {{-1, 0, 0}, -S2_BOX},
                               {{0, 0, 1}, 0},
                               {{0, 0, -1}, -S2_BOX}};
    xpbd_world_f32 w;
    memset(&w, 0, sizeof w);
    w.particles = &s.p;
    w.radius = s.r;
    w.contacts = &s.ct.cs;
    w.planes = box;
    w.plane_count = 5;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.substeps = 16; /* substeps settle a deep pile better than iterations */
    cfg.iterations = 1;
    cfg.restitution = 0.1;
    cfg.friction_static = 0.4;
    cfg.friction_dynamic = 0.3;
    cfg.contact_skin = 0.05; /* about the relative motion of a frame at the pour's speeds */
    FILE *f = xr_table_open(ctx, "s2_particles_time",
                            "frame\tt\tenergy\tkinetic\tenergy_ratio\tmax_pair_pen\t"
                            "max_plane_pen\tcontacts\tdropped\thits");
    if (!f) {
        s2_pour_free(&s);
        return -1;
    }
    double e0, k0, pp0, wp0;
    s2_pour_measure(&s, &e0, &k0, &pp0, &wp0);
    double pp_run = pp0, emax = e0, pp_end = 0, wp_end = 0, k_end = 0, e_end = 0, pp_late = 0, wp_late = 0;
    uint32_t max_contacts_seen = 0, dropped = 0;
    int ok = 1;
    for (int fr = 1; fr <= frames && ok; ++fr) {
        xpbd_step_counters kc;
        const xpbd_status st = xpbd_world_step_f32(&cfg, S2_H, &w, s.ct.scratch, s.ct.scratch_bytes,
                                                   &kc);
        if (st != XPBD_OK) {
            ok = 0;
            dropped = kc.contacts_dropped;
        }
        double e, k, pp, wp;
        s2_pour_measure(&s, &e, &k, &pp, &wp);
        emax = fmax(emax, e);
        pp_run = fmax(pp_run, pp);
        if (fr > frames / 2) {
            pp_late = fmax(pp_late, pp);
            wp_late = fmax(wp_late, wp);
        }
        pp_end = pp;
        wp_end = wp;
        k_end = k;
        e_end = e;
        if (kc.contacts > max_contacts_seen)
            max_contacts_seen = kc.contacts;
        const double row[10] = {fr, fr * S2_H, e, k, e / e0, pp, wp, kc.contacts,
                                kc.contacts_dropped, (double)kc.contact_hits};
        xr_row(f, 10, row);
        xr_progress(ctx, "s2_particles", fr, frames);
    }
    xr_table_close(f);
    float rmin = 1, ymax = 0;
    double outside = 0;
    if (pp_final_table(ctx, &s, &rmin, &ymax, &outside) != 0) {
        s2_pour_free(&s);
        return -1;
    }
    double mass = 0;
    for (size_t i = 0; i < n; ++i)
        mass += s.p.w[i] > 0 ? 1.0 / (double)s.p.w[i] : 0;
    s2_pour_free(&s);

    xr_md(ctx,
          "%zu balls (radius 2-3 cm, density 1000 kg/m^3, float) start as a jittered 11 x 11 "
          "column above an open box of five planes (%.1f m square) and fall into it: the world "
          "step in the substep order (%u substeps x %u iteration%s per 1/60 s frame), the grid "
          "broad phase every frame (skin %.2f m), e = %.1f, mu_s = %.1f, mu_k = %.1f, %d frames "
          "(%.1f s).\n\n"
          "| quantity | value |\n|---|---|\n"
          "| contacts per frame (max) | %u |\n"
          "| energy at the start (J, potential from the floor) | %.3f |\n"
          "| max energy over the run / start | %.4f |\n"
          "| energy at the end / start | %.4f |\n"
          "| kinetic energy at the end (J) | %.3g |\n"
          "| max pair penetration, last half of the run (m) | %.3g (%.1f%% of the smallest "
          "radius) |\n"
          "| max plane penetration, last half of the run (m) | %.3g |\n"
          "| pile height (highest centre, m) | %.3f |\n\n",
          n, S2_BOX, (unsigned)cfg.substeps, (unsigned)cfg.iterations,
          cfg.iterations == 1 ? "" : "s", cfg.contact_skin,
          cfg.restitution, cfg.friction_static, cfg.friction_dynamic, frames, frames * S2_H,
          (unsigned)max_contacts_seen, e0, emax / e0, e_end / e0, k_end, pp_late,
          100 * pp_late / rmin, wp_late, (double)ymax);
    xr_tolerance_source(ctx, "exact: the contact set holds 40 contacts per ball");
    xr_check(ctx, "steps not XPBD_OK (a contact overflow stops the run)", !ok, 0, xr_exact(),
             NULL);
    xr_check(ctx, "contacts dropped", (double)dropped, 0, xr_exact(), NULL);
    if (!ok)
        xr_md(ctx, "A step failed; contacts dropped: %u.\n\n", (unsigned)dropped);
    /* The contact position pass moves balls without touching v, so it may
     * add potential energy: lifting every ball by the deepest overlap of the
     * run bounds the gain by M g pp_run, i.e. pp_run / y_c0 of E0 (E0 is all
     * potential at the start: E0 = M g y_c0). */
    const double lift = mass * XS_G * pp_run / e0;
    xr_tolerance_source(ctx, "physics: the position pass lifts no ball by more than the "
                             "deepest overlap of the run: gain <= M g max_pen / E0");
    xr_check(ctx, "energy gain over the start bounded by the pass's lift (max E/E0 - 1)",
             emax / e0 - 1, lift, xr_at_most(lift), NULL);
    xr_tolerance_source(ctx, "physics: e = 0.1 and friction dissipate; 1% of E0 left moving");
    xr_check(ctx, "the pile comes to rest: kinetic energy at the end / E0", k_end / e0, 0,
             xr_abs(0.01), NULL);
    xr_tolerance_source(ctx, "engineering: an overlap under a quarter radius is not visible "
                             "(16 substeps of one iteration on a 16-layer pile)");
    xr_check(ctx, "max pair penetration in the last half / smallest radius", pp_late / rmin, 0,
             xr_abs(0.25), NULL);
    xr_tolerance_source(ctx, "physics: planes are projected last in every iteration, so only "
                             "float rounding of the coordinates is left: 1e-6 m (~16 ulp of 1 m)");
    xr_check(ctx, "max plane penetration in the last half (m)", wp_late, 0, xr_abs(1e-6), NULL);
    xr_check(ctx, "no centre outside the box: largest distance outside (m)", outside, 0,
             xr_at_most(0), NULL);
    (void)pp_end;
    (void)wp_end;

    char cap[1600];
    snprintf(cap, sizeof cap,
             "Contacts in 3-D (S2): %zu balls poured into a %.1f m box of five planes through the "
             "world step (substep order, %u x %u, broad phase every frame, float). Left: final "
             "positions seen from the side, coloured by depth. Middle: energy / start (potential "
             "from the floor) and kinetic energy. Right: max pair and plane penetration vs time "
             "(last half: %.2g m and %.2g m, radii >= 2 cm).",
             n, S2_BOX, (unsigned)cfg.substeps, (unsigned)cfg.iterations, pp_late, wp_late);
    xr_figure(ctx, "s2_particles", cap);
    return 0;
}

const xr_section xr_section_s2_particles = {
    .name = "s2_particles",
    .title = "A few thousand balls poured into a box of planes; energy and penetration vs time",
    .scenario = "S2: contacts in 3-D",
    .figures = XR_FIGURES("s2_particles"),
    .tables = XR_TABLES({"s2_particles", "final ball positions"},
                        {"s2_particles_time", "energy and max penetration vs time"}),
    .run = s2_particles_run};
