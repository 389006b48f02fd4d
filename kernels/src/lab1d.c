/* SPDX-License-Identifier: MIT */
/* The one-dimensional XPBD solve of two particles on a line
 * (xpbd/reference.h): validate everything, compute the candidate, validate
 * it, then commit all of it. */
#include "internal.h"

xpbd_status xpbd_distance1d_solve(double *a, double *b, double wa, double wb, double rest,
                                  double compliance, double dt, double *lambda)
{
    if (!a || !b || !lambda || !isfinite(*lambda))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(*a) || !isfinite(*b))
        return XPBD_ERR_POSITION;
    if (!isfinite(wa) || !isfinite(wb) || wa < 0 || wb < 0)
        return XPBD_ERR_INVERSE_MASS;
    if (!isfinite(rest) || !(rest > 0))
        return XPBD_ERR_REST;
    if (!isfinite(compliance) || compliance < 0)
        return XPBD_ERR_COMPLIANCE;
    if (!isfinite(dt) || !(dt > 0))
        return XPBD_ERR_TIMESTEP;
    if (!(*b > *a))
        return XPBD_ERR_ORDER;
    if (wa == 0 && wb == 0)
        return XPBD_SKIPPED;

    const double at = compliance / (dt * dt);
    const double den = wa + wb + at;
    if (!isfinite(at) || !isfinite(den) || !(den > 0))
        return XPBD_ERR_SCALE;

    const double C = *b - *a - rest;
    const double dl = (-C - at * *lambda) / den;
    const double na = *a - wa * dl;
    const double nb = *b + wb * dl;
    const double nl = *lambda + dl;
    if (!isfinite(na) || !isfinite(nb) || !isfinite(nl) || !(nb > na))
        return XPBD_ERR_RESULT;

    *a = na;
    *b = nb;
    *lambda = nl;
    return XPBD_OK;
}
