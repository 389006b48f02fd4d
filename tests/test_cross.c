/* Cross-check: every kernel of the ISA under test (--isa) against the scalar
 * reference, bit for bit, in both precisions (see cross_tmpl.h). */
#include "fixture.h"

#include <float.h>
#include <stdlib.h>

#define XT_R float
#define XT_SFX(n) n##_f32
#define XT_SFXM(a, b) a##_##b##_f32
#define XT_SAME xt_same_f32
#define XT_TAB xt_k32
#define XT_REF xt_ref32
#define XT_EPS FLT_EPSILON
#define XT_F64 0
#include "cross_tmpl.h"
#undef XT_R
#undef XT_SFX
#undef XT_SFXM
#undef XT_SAME
#undef XT_TAB
#undef XT_REF
#undef XT_EPS
#undef XT_F64

#define XT_R double
#define XT_SFX(n) n##_f64
#define XT_SFXM(a, b) a##_##b##_f64
#define XT_SAME xt_same_f64
#define XT_TAB xt_k64
#define XT_REF xt_ref64
#define XT_EPS DBL_EPSILON
#define XT_F64 1
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
    {"cross.ranges_f32", cross_ranges_f32},
    {"cross.ranges_f64", cross_ranges_f64},
    {"cross.step_f32", cross_step_f32},
    {"cross.step_f64", cross_step_f64},
    {NULL, NULL},
};
