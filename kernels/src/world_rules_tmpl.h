/* SPDX-License-Identifier: MIT */
/* The rules a world's planes and tethers meet, stated once for the two
 * places that hold a world to them: the step's validate stage (step/validate.c:
 * step_check_contacts, step_tether_scan_task) and the engine's create
 * (engine/lifecycle.c: engine_scene_check), so both refuse the same input
 * with the same status and index (xpbd/step.h, xpbd/engine.h).
 *
 * Read inside an open precision (precision.h): the plane rule does not
 * depend on it and is defined once; the tether rule is a template over R. */

#ifndef XPBD_WORLD_RULES_PLANES
#define XPBD_WORLD_RULES_PLANES
/* Planes [0, count): a unit normal (its squared length within 2e-6 of 1)
 * and a finite offset; the first plane that breaks the rule names the
 * status, XPBD_ERR_PLANE, and *bad. */
static inline xpbd_status xpbd__check_planes(const xpbd_plane *plane, uint32_t count,
                                             size_t *bad)
{
    for (uint32_t k = 0; k < count; ++k) {
        const double *nn = plane[k].n;
        const double len2 = nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2];
        if (!isfinite(len2) || fabs(len2 - 1) > 2e-6 || !isfinite(plane[k].d)) {
            *bad = k;
            return XPBD_ERR_PLANE;
        }
    }
    return XPBD_OK;
}
#endif

/* One particle's tether in a world of n particles: its anchor in range
 * (else XPBD_ERR_INDEX), then its length finite and >= 0 (else
 * XPBD_ERR_REST). */
#ifndef XPBD_WORLD_RULES_NAMES
#define XPBD_WORLD_RULES_NAMES
/* the name line (precision.h): read once, it holds for both precisions */
#define xpbd__check_tether PREC(xpbd__check_tether_f32, xpbd__check_tether_f64)
#endif
static inline xpbd_status xpbd__check_tether(uint32_t anchor, R length, size_t n)
{
    if (anchor >= n)
        return XPBD_ERR_INDEX;
    if (!isfinite(length) || length < 0)
        return XPBD_ERR_REST;
    return XPBD_OK;
}
