/* SPDX-License-Identifier: MIT */
/* instantiate.h: every kernel of one precision (XPBD_REAL_F32 or
 * XPBD_REAL_F64 defined) for a path's translation unit. The one-lane
 * instantiation always comes first: it is the scalar path, and the wide
 * kernels call it (TAIL) for the elements past their last full vector.
 * With XPBD_PATH_WIDE defined, the wide instantiation follows and the
 * tables are the wide ones; otherwise the tables are the one-lane ones. */
#include "precision.h"

#define XPBD_LANES_ONE
#include "lanes.h"
#if !defined(XPBD_PATH_WIDE)
#  define XPBD_ALL_TABLES
#endif
#include "kernels/all.h"
#undef XPBD_ALL_TABLES
#define XPBD_LANES_END
#include "lanes.h"

#if defined(XPBD_PATH_WIDE)
#  define XPBD_LANES_WIDE
#  include "lanes.h"
#  define XPBD_ALL_TABLES
#  include "kernels/all.h"
#  undef XPBD_ALL_TABLES
#  define XPBD_LANES_END
#  include "lanes.h"
#endif

#define XPBD_PRECISION_END
#include "precision.h"
