/* SPDX-License-Identifier: MIT */
/* each_precision.h: reads the file XPBD_SELF names once with float open,
 * then once with double open (precision.h: self-instantiating files). */
#if !defined(XPBD_SELF)
#  error "define XPBD_SELF as the file to instantiate"
#endif

#define XPBD_REAL_F32
#include "precision.h"
#include XPBD_SELF
#define XPBD_PRECISION_END
#include "precision.h"

#define XPBD_REAL_F64
#include "precision.h"
#include XPBD_SELF
#define XPBD_PRECISION_END
#include "precision.h"
