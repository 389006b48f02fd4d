/* SPDX-License-Identifier: MIT */
/* Cross-check: every kernel of the ISA under test (--isa) against the scalar
 * reference, bit for bit, in both precisions (see cross_tmpl.h). */
#include "fixture.h"
#include <xpbd/reference.h>
#include "step_kernels.h" /* the step's private rows */

#include <float.h>
#include <math.h>
#include <scenes.h>
#include <stdlib.h>

#define XPBD_REAL_F32
#include "cross_tmpl.h"
#define XPBD_REAL_F64
#include "cross_tmpl.h"

const xt_test xt_tests_cross[] = {
    {"cross.particles_f32", cross_particles_f32},
    {"cross.particles_f64", cross_particles_f64},
    {"cross.xpbd_f32", cross_xpbd_f32},
    {"cross.xpbd_f64", cross_xpbd_f64},
    {"cross.pbd_f32", cross_pbd_f32},
    {"cross.pbd_f64", cross_pbd_f64},
    {"cross.springs_f32", cross_springs_f32},
    {"cross.springs_f64", cross_springs_f64},
    {"cross.xpbd_packed_f32", cross_xpbd_packed_f32},
    {"cross.xpbd_packed_f64", cross_xpbd_packed_f64},
    {"cross.pbd_packed_f32", cross_pbd_packed_f32},
    {"cross.pbd_packed_f64", cross_pbd_packed_f64},
    {"cross.relaunch_f32", cross_relaunch_f32},
    {"cross.relaunch_f64", cross_relaunch_f64},
    {"cross.ranges_f32", cross_ranges_f32},
    {"cross.ranges_f64", cross_ranges_f64},
    {"cross.step_f32", cross_step_f32},
    {"cross.step_f64", cross_step_f64},
    {"cross.step_kernels_f32", cross_step_kernels_f32},
    {"cross.step_kernels_f64", cross_step_kernels_f64},
    {"cross.regions_f32", cross_regions_f32},
    {"cross.regions_f64", cross_regions_f64},
    {"cross.plain_f32", cross_plain_f32},
    {"cross.plain_f64", cross_plain_f64},
    {"cross.huge_compliance_f32", cross_huge_compliance_f32},
    {"cross.huge_compliance_f64", cross_huge_compliance_f64},
    {NULL, NULL},
};
