/* SPDX-License-Identifier: MIT */
/* bench_util.c: the plan and the size sweep of xpbd-bench's measuring files
 * (see bench_util.h). */
#define _POSIX_C_SOURCE 200112L /* clock_gettime under ISO C11 */

#include "bench_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct xb_token_ctx {
    xb_plan *plan;
    const char *(*name)(size_t);
    int strict;
} xb_token_ctx;

/* Calls fn(token, length, arg) for every comma-separated token of list;
 * stops at the first non-zero return and passes it on. */
static int xb_each_token(const char *list, int (*fn)(const char *, size_t, xb_token_ctx *),
                         xb_token_ctx *arg)
{
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        const size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len > 0) {
            const int r = fn(s, len, arg);
            if (r)
                return r;
        }
        s += len;
        if (*s == ',')
            ++s;
    }
    return 0;
}

static int xb_kernel_token(const char *t, size_t len, xb_token_ctx *c)
{
    for (size_t k = 0; k < XB_PLAN_KERNELS && c->name(k); ++k)
        if (strlen(c->name(k)) == len && strncmp(c->name(k), t, len) == 0) {
            c->plan->kernel_on[k] = 1;
            return 0;
        }
    return c->strict ? -1 : 0;
}

static int xb_isa_token(const char *t, size_t len, xb_token_ctx *c)
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
    /* an ISA this machine cannot run is an error, never skipped quietly */
    if (!xpbd_isa_supported(isa))
        return -1;
    c->plan->isa_on[isa] = 1;
    return 0;
}

static int xb_prec_token(const char *t, size_t len, xb_token_ctx *c)
{
    if (len == 3 && strncmp(t, "f32", 3) == 0)
        c->plan->prec_on[0] = 1;
    else if (len == 3 && strncmp(t, "f64", 3) == 0)
        c->plan->prec_on[1] = 1;
    else
        return -1;
    return 0;
}

int xb_plan_init(xb_plan *plan, const xb_options *opt, const char *(*name)(size_t), int strict)
{
    memset(plan, 0, sizeof *plan);
    xb_token_ctx c = {plan, name, strict};
    if (opt->kernels) {
        if (xb_each_token(opt->kernels, xb_kernel_token, &c) != 0)
            return -1;
    } else {
        for (size_t k = 0; k < XB_PLAN_KERNELS && name(k); ++k)
            plan->kernel_on[k] = 1;
    }
    if (opt->isas) {
        if (xb_each_token(opt->isas, xb_isa_token, &c) != 0)
            return -1;
    } else {
        for (int i = 0; i < XPBD_ISA_COUNT; ++i)
            plan->isa_on[i] = xpbd_isa_supported((xpbd_isa)i);
    }
    if (opt->precisions) {
        if (xb_each_token(opt->precisions, xb_prec_token, &c) != 0)
            return -1;
    } else {
        plan->prec_on[0] = plan->prec_on[1] = 1;
    }
    /* scalar is always measured: every ratio is against it */
    plan->isa[plan->isa_count++] = XPBD_ISA_SCALAR;
    for (int i = 1; i < XPBD_ISA_COUNT; ++i)
        if (plan->isa_on[i])
            plan->isa[plan->isa_count++] = (xpbd_isa)i;
    plan->min_seconds = opt->quick ? 0.001 : 0.020;
    plan->repeats = opt->quick ? 3 : 5;
    plan->progress = opt->progress;
    return 0;
}

size_t xb_sweep(const xb_plan *plan, int max, int quick, size_t kernels,
                const xb_measure_fn measure[2], xb_row **rows)
{
    *rows = NULL;
    int sizes[16], nsizes = 0;
    for (int k = 10; k < max && (!quick || k <= 12); k += 2)
        sizes[nsizes++] = k;
    sizes[nsizes++] = max;
    const size_t cap = kernels * XPBD_ISA_COUNT * 2 * (size_t)nsizes;
    xb_row *r = calloc(cap, sizeof *r);
    if (!r)
        return (size_t)-1;
    size_t n = 0;
    for (int prec = 0; prec < 2; ++prec) {
        if (!plan->prec_on[prec])
            continue;
        for (int s = 0; s < nsizes; ++s) {
            n = measure[prec](plan, sizes[s], r, n);
            if (n == (size_t)-1) {
                free(r);
                return (size_t)-1;
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

void xb_row_set(xb_row *r, const char *kernel, const char *precision, xpbd_isa isa, size_t n,
                double ns, double scalar_ns)
{
    r->kernel = kernel;
    r->precision = precision;
    r->isa = isa;
    r->n = n;
    r->ns_per_item = ns;
    r->ratio_vs_scalar = scalar_ns > 0 && ns > 0 ? scalar_ns / ns : 0;
}
