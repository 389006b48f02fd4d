/* SPDX-License-Identifier: MIT */
/* The counting allocation hooks behind alloc_fail.h (compiled without it). */
#include <stdlib.h>

/* Test-side state of the hooks (this binary only): allocations counted
 * since the last reset, the one to fail (0: none), and the blocks live. */
unsigned long xt_af_count, xt_af_fail_at;
long xt_af_live;

static int xt_af_fails(void)
{
    ++xt_af_count;
    return xt_af_fail_at != 0 && xt_af_count == xt_af_fail_at;
}

void *xt_af_malloc(size_t n)
{
    if (xt_af_fails())
        return NULL;
    void *p = malloc(n);
    xt_af_live += p != NULL;
    return p;
}

void *xt_af_calloc(size_t n, size_t size)
{
    if (xt_af_fails())
        return NULL;
    void *p = calloc(n, size);
    xt_af_live += p != NULL;
    return p;
}

void *xt_af_realloc(void *p, size_t n)
{
    if (xt_af_fails())
        return NULL;
    void *q = realloc(p, n);
    xt_af_live += q != NULL && p == NULL;
    return q;
}

void *xt_af_aligned_alloc(size_t align, size_t n)
{
    if (xt_af_fails())
        return NULL;
    void *p = aligned_alloc(align, n);
    xt_af_live += p != NULL;
    return p;
}

void xt_af_free(void *p)
{
    xt_af_live -= p != NULL;
    free(p);
}
