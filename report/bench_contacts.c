/* bench_contacts.c: the contact kernels and the broad phase under
 * xpbd-bench (see bench_contacts.h for the scene and the method).
 *
 * The per-precision part is written once: this file includes itself with
 * XB_CT_BODY defined, for float and for double. */
#ifdef XB_CT_BODY

/* ===================================================== per precision === */

#define XFN(n) XB_CT_SFX(n)
#define XP XB_CT_SFX(xpbd_particles)
#define XCK XB_CT_SFX(xpbd_contact_kernels)

/* The balls, a saved copy of what a pass changes, the contact set built by
 * the broad phase, and its workspace. */
typedef struct XFN(xbc_scene) {
    XP p;
    XB_CT_R *r, *q, *imp;
    XB_CT_R *q0, *v0, *imp0; /* what a pass restores */
    XB_CT_R *block;
    XB_CT_R plane[4];        /* y >= side/2: about half of the balls reach it */
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
    const size_t stride = (n * sizeof(XB_CT_R) + 63) / 64 * 64 + 3 * 64;
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
    XB_CT_R *a[16];
    for (int k = 0; k < 16; ++k)
        a[k] = (XB_CT_R *)(void *)((char *)s->block + (size_t)k * stride);
    s->p.count = n;
    s->p.x = a[0];
    s->p.y = a[1];
    s->p.z = a[2];
    s->p.px = a[3];
    s->p.py = a[4];
    s->p.pz = a[5];
    s->p.vx = a[6];
    s->p.vy = a[7];
    s->p.vz = a[8];
    s->p.w = a[9];
    s->r = a[10];
    s->imp = a[11];
    s->imp0 = a[12];
    s->v0 = a[13]; /* 3n: a[13..15] */
    s->q = (XB_CT_R *)(void *)((char *)s->block + (size_t)16 * stride);
    s->q0 = (XB_CT_R *)(void *)((char *)s->block + (size_t)20 * stride);
    /* (q and q0 hold 4n each: four strides) */
    uint64_t rng = 0x243f6a8885a308d3ull;
    const double side = cbrt((double)n * 1.2e-3); /* ~3.5 pairs per ball */
    s->plane[0] = s->plane[2] = 0;
    s->plane[1] = 1;
    s->plane[3] = (XB_CT_R)(0.5 * side);
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
            pts[i].x[d] = xb_ct_unit(&rng) * side;
        pts[i].key = (floor(pts[i].x[2] / cell) * cells + floor(pts[i].x[1] / cell)) * cells +
                     floor(pts[i].x[0] / cell);
    }
    qsort(pts, n, sizeof *pts, xbc_point_cmp);
    for (size_t i = 0; i < n; ++i) {
        s->p.x[i] = (XB_CT_R)pts[i].x[0];
        s->p.y[i] = (XB_CT_R)pts[i].x[1];
        s->p.z[i] = (XB_CT_R)pts[i].x[2];
        s->p.px[i] = s->p.x[i] - (XB_CT_R)(0.004 * (xb_ct_unit(&rng) - 0.5));
        s->p.py[i] = s->p.y[i] - (XB_CT_R)(0.004 * (xb_ct_unit(&rng) - 0.5));
        s->p.pz[i] = s->p.z[i] - (XB_CT_R)(0.004 * (xb_ct_unit(&rng) - 0.5));
        s->p.vx[i] = (XB_CT_R)(xb_ct_unit(&rng) - 0.5);
        s->p.vy[i] = (XB_CT_R)(xb_ct_unit(&rng) - 0.5);
        s->p.vz[i] = (XB_CT_R)(xb_ct_unit(&rng) - 0.5);
        s->p.w[i] = i % 64 == 7 ? 0 : (XB_CT_R)(0.5 + xb_ct_unit(&rng));
        s->r[i] = (XB_CT_R)0.05;
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
    const xpbd_broadphase bp = {0, 0.02, 0};
    return XB_CT_SFX(xpbd_contacts_find)(&s->p, s->r, &bp, s->work, s->work_bytes, &s->cs, NULL);
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
        const XB_CT_R mu_s = c->kernel == XBC_POSITION ? 0 : (XB_CT_R)0.5;
        const XB_CT_R mu_k = c->kernel == XBC_POSITION ? 0 : (XB_CT_R)0.3;
        memcpy(s->q, s->q0, 4 * n * sizeof(XB_CT_R));
        for (uint32_t col = 0; col < cs->colours; ++col)
            k->position(s->q, &s->p, s->r, cs, col, 0, xpbd_colour_batches(cs->colour_begin, col),
                        1, 1, mu_s, mu_k);
        XB_CT_SFX(xpbd_serial_contact_position)(s->q, &s->p, s->r, cs, cs->overflow_begin,
                                                 cs->slots, 1, 1, mu_s, mu_k);
        break;
    }
    case XBC_VELOCITY:
        memcpy(s->p.vx, s->v0, n * sizeof(XB_CT_R));
        memcpy(s->p.vy, s->v0 + n, n * sizeof(XB_CT_R));
        memcpy(s->p.vz, s->v0 + 2 * n, n * sizeof(XB_CT_R));
        for (uint32_t col = 0; col < cs->colours; ++col)
            k->velocity(&s->p, s->r, cs, col, 0, xpbd_colour_batches(cs->colour_begin, col),
                        (XB_CT_R)0.3, (XB_CT_R)0.005);
        XB_CT_SFX(xpbd_serial_contact_velocity)(&s->p, s->r, cs, cs->overflow_begin, cs->slots,
                                                 (XB_CT_R)0.3, (XB_CT_R)0.005);
        break;
    case XBC_PLANE_POSITION:
        memcpy(s->q, s->q0, 4 * n * sizeof(XB_CT_R));
        k->plane_position(s->q, &s->p, s->r, 0, n, s->plane, 1, (XB_CT_R)0.5, (XB_CT_R)0.3);
        break;
    case XBC_PLANE_VELOCITY:
        memcpy(s->p.vx, s->v0, n * sizeof(XB_CT_R));
        memcpy(s->p.vy, s->v0 + n, n * sizeof(XB_CT_R));
        memcpy(s->p.vz, s->v0 + 2 * n, n * sizeof(XB_CT_R));
        memcpy(s->imp, s->imp0, n * sizeof(XB_CT_R));
        k->plane_velocity(&s->p, s->r, 0, n, s->plane, (XB_CT_R)0.3, (XB_CT_R)0.005, s->imp);
        break;
    default: /* XBC_BROADPHASE */
        XFN(xbc_find)(s);
        break;
    }
}

/* Measures the selected kernels at 2^log2n balls, appending rows. Returns
 * the new row count, or (size_t)-1 on allocation failure. */
static size_t XFN(xbc_measure_size)(const xbc_plan *plan, int log2n, xb_row *rows, size_t nrows)
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
            pass.k = XB_CT_SFXM(xpbd_contact_kernels, get)(isa);
            if (!pass.k)
                continue;
            if (plan->progress)
                fprintf(stderr, "xpbd-bench: %s %s %s n=%zu\n", xbc_names[kern], XB_CT_PREC,
                        xpbd_isa_name(isa), n);
            const double sec =
                xbc_measure(XFN(xbc_pass_run), &pass, plan->min_seconds, plan->repeats);
            const double ns = items ? sec * 1e9 / (double)items : 0;
            if (isa == XPBD_ISA_SCALAR)
                scalar_ns = ns;
            if (!plan->isa_on[isa] && kern != XBC_BROADPHASE)
                continue;
            xb_row *r = &rows[out++];
            r->kernel = xbc_names[kern];
            r->precision = XB_CT_PREC;
            r->isa = isa;
            r->n = kern == XBC_BROADPHASE ? n : items;
            r->ns_per_item = ns;
            r->ratio_vs_scalar = scalar_ns > 0 && ns > 0 ? scalar_ns / ns : 0;
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

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* splitmix64 -> [0, 1): the same scene on every run */
static double xb_ct_unit(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
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

static double xbc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double xbc_time(void (*pass)(void *), void *ctx, size_t iters)
{
    const double t0 = xbc_now();
    for (size_t i = 0; i < iters; ++i)
        pass(ctx);
    return xbc_now() - t0;
}

/* Seconds per pass, as bench_core.c measures: one untimed pass, one timed
 * pass to size the loop, then `repeats` loops of at least min_s each, the
 * best kept (the run least disturbed by the rest of the machine). */
static double xbc_measure(void (*pass)(void *), void *ctx, double min_s, int repeats)
{
    pass(ctx);
    const double t1 = xbc_time(pass, ctx, 1);
    size_t iters = 1;
    double best = INFINITY;
    int r = 0;
    if (t1 < min_s) {
        const double f = t1 > 1e-7 ? 1.05 * min_s / t1 : 1.05 * min_s / 1e-7;
        iters = (size_t)ceil(f);
    } else {
        best = t1;
        r = 1;
    }
    for (; r < repeats; ++r) {
        const double t = xbc_time(pass, ctx, iters) / (double)iters;
        if (t < best)
            best = t;
    }
    return best;
}

typedef struct xbc_plan {
    int kernel_on[XBC_KERNELS];
    xpbd_isa isa[XPBD_ISA_COUNT]; /* measured, scalar first */
    size_t isa_count;
    int isa_on[XPBD_ISA_COUNT];   /* reported */
    int prec_on[2];
    double min_seconds;
    int repeats;
    int progress;
} xbc_plan;

/* Calls fn(token, length, plan) for every comma-separated token; stops at
 * the first non-zero return and passes it on. */
static int xbc_each(const char *list, int (*fn)(const char *, size_t, xbc_plan *),
                    xbc_plan *plan)
{
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        const size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len > 0) {
            const int r = fn(s, len, plan);
            if (r)
                return r;
        }
        s += len;
        if (*s == ',')
            ++s;
    }
    return 0;
}

/* names of xb_run's kernels are not ours: ignored */
static int xbc_kernel_token(const char *t, size_t len, xbc_plan *plan)
{
    for (int k = 0; k < XBC_KERNELS; ++k)
        if (strlen(xbc_names[k]) == len && strncmp(xbc_names[k], t, len) == 0)
            plan->kernel_on[k] = 1;
    return 0;
}

static int xbc_isa_token(const char *t, size_t len, xbc_plan *plan)
{
    char name[16];
    if (len >= sizeof name)
        return -1;
    memcpy(name, t, len);
    name[len] = 0;
    xpbd_isa isa;
    if (xpbd_isa_from_name(name, &isa) != XPBD_OK)
        return -1;
    if (isa == XPBD_ISA_AUTO)
        isa = xpbd_isa_best();
    if (!xpbd_isa_supported(isa)) /* never skipped quietly */
        return -1;
    plan->isa_on[isa] = 1;
    return 0;
}

static int xbc_prec_token(const char *t, size_t len, xbc_plan *plan)
{
    if (len == 3 && strncmp(t, "f32", 3) == 0)
        plan->prec_on[0] = 1;
    else if (len == 3 && strncmp(t, "f64", 3) == 0)
        plan->prec_on[1] = 1;
    else
        return -1;
    return 0;
}

static int xbc_plan_init(xbc_plan *plan, const xb_options *opt)
{
    memset(plan, 0, sizeof *plan);
    if (opt->kernels)
        xbc_each(opt->kernels, xbc_kernel_token, plan);
    else
        for (int k = 0; k < XBC_KERNELS; ++k)
            plan->kernel_on[k] = 1;
    if (opt->isas) {
        if (xbc_each(opt->isas, xbc_isa_token, plan) != 0)
            return -1;
    } else {
        for (int i = 0; i < XPBD_ISA_COUNT; ++i)
            plan->isa_on[i] = xpbd_isa_supported((xpbd_isa)i);
    }
    if (opt->precisions) {
        if (xbc_each(opt->precisions, xbc_prec_token, plan) != 0)
            return -1;
    } else {
        plan->prec_on[0] = plan->prec_on[1] = 1;
    }
    plan->isa[plan->isa_count++] = XPBD_ISA_SCALAR; /* every ratio is against it */
    for (int i = 1; i < XPBD_ISA_COUNT; ++i)
        if (plan->isa_on[i])
            plan->isa[plan->isa_count++] = (xpbd_isa)i;
    plan->min_seconds = opt->quick ? 0.001 : 0.020;
    plan->repeats = opt->quick ? 3 : 5;
    plan->progress = opt->progress;
    return 0;
}

#define XB_CT_BODY
#define XB_CT_R float
#define XB_CT_SFX(n) n##_f32
#define XB_CT_SFXM(a, b) a##_f32_##b
#define XB_CT_PREC "f32"
#include "bench_contacts.c"
#undef XB_CT_R
#undef XB_CT_SFX
#undef XB_CT_SFXM
#undef XB_CT_PREC

#define XB_CT_R double
#define XB_CT_SFX(n) n##_f64
#define XB_CT_SFXM(a, b) a##_f64_##b
#define XB_CT_PREC "f64"
#include "bench_contacts.c"
#undef XB_CT_BODY

size_t xb_run_contacts(const xb_options *opt, xb_row **rows)
{
    if (!opt || !rows)
        return 0;
    *rows = NULL;
    xbc_plan plan;
    if (xbc_plan_init(&plan, opt) != 0)
        return 0;
    int any = 0;
    for (int k = 0; k < XBC_KERNELS; ++k)
        any |= plan.kernel_on[k];
    if (!any)
        return 0;
    const int max = opt->max_log2_n ? opt->max_log2_n : opt->quick ? 16 : 18;
    if (max < 4 || max > 22)
        return 0;
    int sizes[16], nsizes = 0;
    for (int k = 10; k < max && (!opt->quick || k <= 12); k += 2)
        sizes[nsizes++] = k;
    sizes[nsizes++] = max;
    const size_t cap = (size_t)XBC_KERNELS * XPBD_ISA_COUNT * 2 * (size_t)nsizes;
    xb_row *r = calloc(cap, sizeof *r);
    if (!r)
        return 0;
    size_t n = 0;
    for (int prec = 0; prec < 2; ++prec) {
        if (!plan.prec_on[prec])
            continue;
        for (int s = 0; s < nsizes; ++s) {
            n = prec == 0 ? xbc_measure_size_f32(&plan, sizes[s], r, n)
                          : xbc_measure_size_f64(&plan, sizes[s], r, n);
            if (n == (size_t)-1) {
                free(r);
                return 0;
            }
        }
    }
    if (n == 0) {
        free(r);
        return 0;
    }
    *rows = r;
    return n;
}

#endif /* XB_CT_BODY */
