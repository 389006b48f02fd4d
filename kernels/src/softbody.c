/* Soft-body builders, relative damping and rigid coupling
 * (xpbd/softbody.h). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define XPBD_REAL_F32
#include "softbody_tmpl.h"
#define XPBD_REAL_F64
#include "softbody_tmpl.h"
