/* SPDX-License-Identifier: MIT */
/* Branch-free screens that the compiler vectorises: the common all-good case
 * costs one streaming pass; only a failed screen runs the slow loops that
 * name the status and the index. x - x == 0 is false exactly for NaN and
 * infinities. Template over R. */
#ifndef XPBD_SCREEN_NAMES
#define XPBD_SCREEN_NAMES
/* the name line (precision.h): read once, it holds for both precisions */
#define screen_finite PREC(screen_finite_f32, screen_finite_f64)
#endif
static inline int screen_finite(const R *a, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; ++i)
        bad |= !(a[i] - a[i] == 0);
    return bad == 0;
}
