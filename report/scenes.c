/* Reference scenes (see scenes.h). */
#include "scenes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double xs_chain_stretch_closed(int n, double mass, double alpha)
{
    return mass * XS_G * (double)n * (double)(n - 1) / 2.0 * alpha;
}

#define XS_R double
#define XS_W xs_world_f64
#define XS_SFX(n) n##_f64
#define XS_M(a, b) a##_f64_##b
#define XS_SQRT sqrt
#define XS_BUILD xpbd_distance_set_f64_build
#define XS_FREESET xpbd_distance_set_f64_free
#define XS_SCRATCH xpbd_step_scratch_bytes_f64
#include "scenes_tmpl.h"
#undef XS_R
#undef XS_W
#undef XS_SFX
#undef XS_M
#undef XS_SQRT
#undef XS_BUILD
#undef XS_FREESET
#undef XS_SCRATCH

#define XS_R float
#define XS_W xs_world_f32
#define XS_SFX(n) n##_f32
#define XS_M(a, b) a##_f32_##b
#define XS_SQRT sqrtf
#define XS_BUILD xpbd_distance_set_f32_build
#define XS_FREESET xpbd_distance_set_f32_free
#define XS_SCRATCH xpbd_step_scratch_bytes_f32
#include "scenes_tmpl.h"
