/* SPDX-License-Identifier: MIT */
/* bench_contacts.c: the contact kernels and the broad phase under
 * xpbd-bench (see bench_contacts.h for the scene and the method).
 *
 * The per-precision part is written once: this file includes itself with
 * XB_CT_BODY defined, for float and for double. */
#ifdef XB_CT_BODY

/* ===================================================== per precision === */

#define XFN(n) SFX(n)
#define XP SFX(xpbd_particles)
#define XCK SFX(xpbd_contact_kernels)

/* The balls, a saved copy of what a pass changes, the contact set built by
 * the broad phase, and its workspace. */
typedef struct XFN(xbc_scene) {
    XP p;
    R *r, *q, *imp;
    R *q0, *v0, *imp0; /* what a pass restores */
    R *block;
    R plane[4];        /* y >= side/2: about half of the balls reach it */
    xpbd_contact_set cs;
    uint32_t *i0, *i1;
    void *work;
    size_t work_bytes, n;
} XFN(xbc_scene);

static void XFN(xbc_free)(XFN(xbc_scene) *s)
{
    free(s->block);
    free(s->i0);
    free(s->i1);
    free(s->work);
    memset(s, 0, sizeof *s);
}

static int XFN(xbc_init)(XFN(xbc_scene) *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    /* 10 particle arrays, r, imp, imp0, v0 (3n), q and q0 (4n each) */
    const size_t stride = (n * sizeof(R) + 63) / 64 * 64 + 3 * 64;
    s->block = aligned_alloc(64, 24 * stride);
    const size_t max_contacts = 8 * n + 64;
    const size_t slots = xpbd_contact_slots(max_contacts);
    s->i0 = malloc(slots * sizeof *s->i0);
    s->i1 = malloc(slots * sizeof *s->i1);
    s->work_bytes = xpbd_contacts_work_bytes(n, max_contacts);
    s->work = malloc(s->work_bytes);
    if (!s->block || !s->i0 || !s->i1 || !s->work ||
        xpbd_contact_set_init(&s->cs, s->i0, s->i1, slots, max_contacts) != XPBD_OK) {
        XFN(xbc_free)(s);
        return -1;
    }
    R *const base = s->block;
    const size_t step = stride / sizeof(R); /* a multiple of 64 bytes */
    SFX(xpbd_particles_bind)(&s->p, n, base, step);
    s->r = base + 10 * step;
    s->imp = base + 11 * step;
    s->imp0 = base + 12 * step;
    s->v0 = base + 13 * step; /* 3n: strides 13..15 */
    s->q = base + 16 * step;
    s->q0 = base + 20 * step;
    /* (q and q0 hold 4n each: four strides) */
    uint64_t rng = 0x243f6a8885a308d3ull;
    const double side = cbrt((double)n * 1.2e-3); /* ~3.5 pairs per ball */
    s->plane[0] = s->plane[2] = 0;
    s->plane[1] = 1;
    s->plane[3] = (R)(0.5 * side);
    /* positions in grid-cell order (cells of one broad-phase reach, rows of
     * x, then y, then z), as a host keeps its particles for locality: the
     * endpoints of neighbouring contacts are then near in memory, like the
     * cloth mesh of the distance kernels */
    xbc_point *pts = malloc(n * sizeof *pts);
    if (!pts) {
        XFN(xbc_free)(s);
        return -1;
    }
    const double cell = 0.12;
    const double cells = ceil(side / cell);
    for (size_t i = 0; i < n; ++i) {
        for (int d = 0; d < 3; ++d)
            pts[i].x[d] = xb_unit(&rng) * side;
        pts[i].key = (floor(pts[i].x[2] / cell) * cells + floor(pts[i].x[1] / cell)) * cells +
                     floor(pts[i].x[0] / cell);
    }
    qsort(pts, n, sizeof *pts, xbc_point_cmp);
    for (size_t i = 0; i < n; ++i) {
        s->p.x[i] = (R)pts[i].x[0];
        s->p.y[i] = (R)pts[i].x[1];
        s->p.z[i] = (R)pts[i].x[2];
        s->p.px[i] = s->p.x[i] - (R)(0.004 * (xb_unit(&rng) - 0.5));
        s->p.py[i] = s->p.y[i] - (R)(0.004 * (xb_unit(&rng) - 0.5));
        s->p.pz[i] = s->p.z[i] - (R)(0.004 * (xb_unit(&rng) - 0.5));
        s->p.vx[i] = (R)(xb_unit(&rng) - 0.5);
        s->p.vy[i] = (R)(xb_unit(&rng) - 0.5);
        s->p.vz[i] = (R)(xb_unit(&rng) - 0.5);
        s->p.w[i] = i % 64 == 7 ? 0 : (R)(0.5 + xb_unit(&rng));
        s->r[i] = (R)0.05;
        s->imp[i] = s->imp0[i] = 0;
        s->v0[i] = s->p.vx[i];
        s->v0[n + i] = s->p.vy[i];
        s->v0[2 * n + i] = s->p.vz[i];
        s->q[4 * i] = s->q0[4 * i] = s->p.x[i];
        s->q[4 * i + 1] = s->q0[4 * i + 1] = s->p.y[i];
        s->q[4 * i + 2] = s->q0[4 * i + 2] = s->p.z[i];
        s->q[4 * i + 3] = s->q0[4 * i + 3] = s->p.w[i];
    }
    free(pts);
    return 0;
}

static xpbd_status XFN(xbc_find)(XFN(xbc_scene) *s)
{
    const xpbd_broadphase bp = {0, 0.02, 0, NULL};
    return SFX(xpbd_contacts_find)(&s->p, s->r, &bp, s->work, s->work_bytes, &s->cs, NULL);
}

typedef struct XFN(xbc_pass) {
    int kernel;
    const XCK *k;
    XFN(xbc_scene) *s;
} XFN(xbc_pass);

static void XFN(xbc_pass_run)(void *arg)
{
    XFN(xbc_pass) *c = arg;
    XFN(xbc_scene) *s = c->s;
    const XCK *k = c->k;
    const xpbd_contact_set *cs = &s->cs;
    const size_t n = s->n;
    switch (c->kernel) {
    case XBC_POSITION:
    case XBC_POSITION_FRICTION: {
        const R mu_s = c->kernel == XBC_POSITION ? 0 : (R)0.5;
        const R mu_k = c->kernel == XBC_POSITION ? 0 : (R)0.3;
        memcpy(s->q, s->q0, 4 * n * sizeof(R));
        for (uint32_t col = 0; col < cs->colours; ++col)
            k->position(s->q, &s->p, s->r, cs, col, 0, xpbd_colour_batches(cs->colour_begin, col),
                        1, 1, mu_s, mu_k);
        SFX(xpbd_serial_contact_position)(s->q, &s->p, s->r, cs, cs->overflow_begin,
                                                 cs->slots, 1, 1, mu_s, mu_k);
        break;
    }
    case XBC_VELOCITY:
        memcpy(s->p.vx, s->v0, n * sizeof(R));
        memcpy(s->p.vy, s->v0 + n, n * sizeof(R));
        memcpy(s->p.vz, s->v0 + 2 * n, n * sizeof(R));
        for (uint32_t col = 0; col < cs->colours; ++col)
            k->velocity(&s->p, s->r, cs, col, 0, xpbd_colour_batches(cs->colour_begin, col),
                        (R)0.3, (R)0.005);
        SFX(xpbd_serial_contact_velocity)(&s->p, s->r, cs, cs->overflow_begin, cs->slots,
                                                 (R)0.3, (R)0.005);
        break;
    case XBC_PLANE_POSITION:
        memcpy(s->q, s->q0, 4 * n * sizeof(R));
        k->plane_position(s->q, &s->p, s->r, 0, n, s->plane, 1, (R)0.5, (R)0.3,
                          NULL, 0);
        break;
    case XBC_PLANE_VELOCITY:
        memcpy(s->p.vx, s->v0, n * sizeof(R));
        memcpy(s->p.vy, s->v0 + n, n * sizeof(R));
        memcpy(s->p.vz, s->v0 + 2 * n, n * sizeof(R));
        memcpy(s->imp, s->imp0, n * sizeof(R));
        k->plane_velocity(&s->p, s->r, 0, n, s->plane, (R)0.3, (R)0.005, s->imp);
        break;
    default: /* XBC_BROADPHASE */
        XFN(xbc_find)(s);
        break;
    }
}

/* Measures the selected kernels at 2^log2n balls, appending rows. Returns
 * the new row count, or (size_t)-1 on allocation failure. */
static size_t XFN(xbc_measure_size)(const xb_plan *plan, int log2n, xb_row *rows, size_t nrows)
{
    const size_t n = (size_t)1 << log2n;
    XFN(xbc_scene) s;
    if (XFN(xbc_init)(&s, n) != 0)
        return (size_t)-1;
    if (XFN(xbc_find)(&s) != XPBD_OK) {
        XFN(xbc_free)(&s);
        return (size_t)-1;
    }
    const size_t pairs = s.cs.count;
    size_t out = nrows;
    for (int kern = 0; kern < XBC_KERNELS; ++kern) {
        if (!plan->kernel_on[kern])
            continue;
        const int pair_kernel = kern <= XBC_VELOCITY;
        const size_t items = kern == XBC_BROADPHASE ? pairs : pair_kernel ? pairs : n;
        double scalar_ns = 0;
        for (size_t t = 0; t < plan->isa_count; ++t) {
            const xpbd_isa isa = plan->isa[t];
            /* the broad phase has one path: measured once, as scalar */
            if (kern == XBC_BROADPHASE && isa != XPBD_ISA_SCALAR)
                continue;
            XFN(xbc_pass) pass;
            pass.kernel = kern;
            pass.s = &s;
            pass.k = SFX(xpbd_contact_kernels_get)(isa);
            if (!pass.k)
                continue;
            if (plan->progress)
                fprintf(stderr, "xpbd-bench: %s %s %s n=%zu\n", xbc_names[kern], R_NAME,
                        xpbd_isa_name(isa), n);
            const double sec =
                xb_measure(XFN(xbc_pass_run), &pass, plan->min_seconds, plan->repeats);
            const double ns = items ? sec * 1e9 / (double)items : 0;
            if (isa == XPBD_ISA_SCALAR)
                scalar_ns = ns;
            if (!plan->isa_on[isa] && kern != XBC_BROADPHASE)
                continue;
            xb_row_set(&rows[out++], xbc_names[kern], R_NAME, isa,
                       kern == XBC_BROADPHASE ? n : items, ns, scalar_ns);
        }
    }
    XFN(xbc_free)(&s);
    return out;
}

#undef XFN
#undef XP
#undef XCK

#else /* !XB_CT_BODY */

/* ========================================================== shared === */

#define _POSIX_C_SOURCE 200112L /* clock_gettime under ISO C11 */

#include "bench_contacts.h"
#include <xpbd/reference.h>
#include "bench_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

enum {
    XBC_POSITION,
    XBC_POSITION_FRICTION,
    XBC_VELOCITY,
    XBC_PLANE_POSITION,
    XBC_PLANE_VELOCITY,
    XBC_BROADPHASE,
    XBC_KERNELS
};

static const char *const xbc_names[XBC_KERNELS] = {
    "contact_position", "contact_position_friction", "contact_velocity",
    "plane_position",   "plane_velocity",            "broadphase"};

const char *xb_contacts_kernel_name(size_t i)
{
    return i < XBC_KERNELS ? xbc_names[i] : NULL;
}

/* A ball position and its grid-cell key, for the spatial order. */
typedef struct xbc_point {
    double key, x[3];
} xbc_point;

static int xbc_point_cmp(const void *a, const void *b)
{
    const double x = ((const xbc_point *)a)->key, y = ((const xbc_point *)b)->key;
    return x < y ? -1 : x > y;
}

#define XB_CT_BODY
#define XPBD_REAL_F32
#include "precision.h"
#include "bench_contacts.c"
#define XPBD_PRECISION_END
#include "precision.h"

#define XPBD_REAL_F64
#include "precision.h"
#include "bench_contacts.c"
#define XPBD_PRECISION_END
#include "precision.h"
#undef XB_CT_BODY

size_t xb_run_contacts(const xb_options *opt, xb_row **rows)
{
    if (!opt || !rows)
        return 0;
    *rows = NULL;
    xb_plan plan;
    /* names of xb_run's kernels are not ours: left to it */
    if (xb_plan_init(&plan, opt, xb_contacts_kernel_name, 0) != 0)
        return 0;
    int any = 0;
    for (int k = 0; k < XBC_KERNELS; ++k)
        any |= plan.kernel_on[k];
    if (!any)
        return 0;
    const int max = opt->max_log2_n ? opt->max_log2_n : opt->quick ? 16 : 18;
    if (max < 4 || max > 22)
        return 0;
    static const xb_measure_fn measure[2] = {xbc_measure_size_f32, xbc_measure_size_f64};
    const size_t n = xb_sweep(&plan, max, opt->quick, XBC_KERNELS, measure, rows);
    return n == (size_t)-1 ? 0 : n;
}

#endif /* XB_CT_BODY */
