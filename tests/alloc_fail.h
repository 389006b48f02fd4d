/* SPDX-License-Identifier: MIT */
/* alloc_fail.h: force-included (-include) into a test-only build of the
 * library's sources (tests.cmake, target xpbd_allocfail) so that every
 * allocation and release of the library goes through the counting hooks of
 * alloc_fail.c, where a test makes the k-th allocation fail.
 *
 * Why this way: the shipped library keeps no global mutable state and no
 * allocator hook in its API; the hooks exist only in this second build of
 * the same sources, linked into test_alloc.c's binary alone. Unlike linker
 * --wrap it works the same in the static and shared presets (and under
 * ASan, which still checks the real allocations behind the hooks for
 * leaks). */
#ifndef XPBD_TEST_ALLOC_FAIL_H
#define XPBD_TEST_ALLOC_FAIL_H

#include <stdlib.h>

void *xt_af_malloc(size_t n);
void *xt_af_calloc(size_t n, size_t size);
void *xt_af_realloc(void *p, size_t n);
void *xt_af_aligned_alloc(size_t align, size_t n);
void xt_af_free(void *p);

#define malloc(n) xt_af_malloc(n)
#define calloc(n, s) xt_af_calloc(n, s)
#define realloc(p, n) xt_af_realloc(p, n)
#define aligned_alloc(a, n) xt_af_aligned_alloc(a, n)
#define free(p) xt_af_free(p)

#endif
