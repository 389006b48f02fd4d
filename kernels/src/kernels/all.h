/* SPDX-License-Identifier: MIT */
/* all.h: every kernel concept, in dependency order, for the open precision
 * and backend (lanes.h). */
#include "kernels/common.h"
#include "kernels/integrate.h"
#include "kernels/distance.h"
#include "kernels/spring.h"
#include "kernels/diagnostics.h"
#include "kernels/contact.h"
#include "kernels/plane.h"
#include "kernels/volume.h"
#include "kernels/bend.h"
#include "kernels/tether.h"
