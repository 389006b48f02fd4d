/* SPDX-License-Identifier: MIT */
/* libm_probe.c: an object that calls exp, which tests/libm_check.sh must
 * refuse (the libm.probe test: the check can fail). Compiled, never linked. */
#include <math.h>

double xpbd_libm_probe(double x);

double xpbd_libm_probe(double x)
{
    return exp(x);
}
