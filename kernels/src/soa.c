/* Particle and distance-set builders and validators. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define XPBD_REAL_F32
#include "soa_tmpl.h"
#define XPBD_REAL_F64
#include "soa_tmpl.h"
