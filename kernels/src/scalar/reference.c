/* Scalar reference kernels in float and double. */
#include "internal.h"

#define XPBD_REAL_F32
#include "scalar/reference_tmpl.h"
#define XPBD_REAL_F64
#include "scalar/reference_tmpl.h"

#define XPBD_REAL_F32
#include "scalar/contact_ref_tmpl.h"
#define XPBD_REAL_F64
#include "scalar/contact_ref_tmpl.h"

#define XPBD_REAL_F32
#include "scalar/softbody_ref_tmpl.h"
#define XPBD_REAL_F64
#include "scalar/softbody_ref_tmpl.h"
