/* Soft-body builders, relative damping and rigid coupling
 * (xpbd/softbody.h). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int xpbd__rigid_ok(const xpbd_rigid_f64 *b)
{
    int ok = (b->shape == XPBD_RIGID_SPHERE || b->shape == XPBD_RIGID_BOX) &&
             isfinite(b->inv_mass) && b->inv_mass >= 0;
    for (int k = 0; k < 3; ++k)
        ok &= isfinite(b->centre[k]) && isfinite(b->half[k]) &&
              (b->half[k] > 0 || (b->shape == XPBD_RIGID_SPHERE && k > 0));
    for (int k = 0; k < 9; ++k)
        ok &= isfinite(b->rot[k]) && isfinite(b->inv_inertia[k]);
    return ok;
}

#define XPBD_REAL_F32
#include "softbody_tmpl.h"
#define XPBD_REAL_F64
#include "softbody_tmpl.h"
