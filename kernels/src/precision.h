/* SPDX-License-Identifier: MIT */
/* precision.h: one way to write code once for float and double, shared by
 * the library, the tests and the report tools.
 *
 * A file written once for both precisions (a "template", *_tmpl.h) is read
 * twice by the file that instantiates it:
 *
 *     #define XPBD_REAL_F32
 *     #include "thing_tmpl.h"
 *     #define XPBD_REAL_F64
 *     #include "thing_tmpl.h"
 *
 * and the template opens and closes its precision with this header:
 *
 *     #include "precision.h"          -- opens: XPBD_REAL_F32 or XPBD_REAL_F64
 *     ...
 *     #define XPBD_PRECISION_END
 *     #include "precision.h"          -- closes: every name below undefined
 *
 * While open it gives:
 *
 *     R            the real type, float or double
 *     R_F64        0 for float, 1 for double
 *     R_NAME       "f32" or "f64"
 *     SFX(name)    name_f32 or name_f64: the precision suffix always comes
 *                  last (xpbd_engine_step_f32). Use it for internal (static)
 *                  names only: an exported function's full name is written
 *                  where it is defined, so grep finds it.
 *     PREC(a, b)   a (float) or b (double): the two full names of one
 *                  function, for the name lines of self-instantiating files
 *     SQRT, FABS   sqrtf/fabsf or sqrt/fabs
 *     R_EPS, R_MAX FLT_EPSILON/FLT_MAX or DBL_EPSILON/DBL_MAX
 *
 * and, inside the library (XPBD_BUILDING), the short names of the particle
 * and constraint-set types of that precision:
 *
 *     P   xpbd_particles_f32        DS  xpbd_distance_set_f32
 *     QS  xpbd_quad_set_f32
 *
 * A concept file written as one .c for both precisions (the step's files,
 * kernels/src/step/) instantiates itself instead, and keeps its functions'
 * real names in the text, so that grep, ctags and a profile all see
 * step_predict_task_f32 and not SFX:
 *
 *     #ifndef XPBD_SELF
 *     #  define XPBD_SELF "step/stages.c"
 *     #  include "each_precision.h"  -- reads XPBD_SELF once per precision
 *     #else
 *     #define step_predict_task PREC(step_predict_task_f32, step_predict_task_f64)
 *     ...
 *     static void step_predict_task(uint32_t b, ...) { ... }
 *     #endif
 *
 * Each function is named once, on one line that spells both of its full
 * names: PREC(a, b) below is a while float is open, b while double is.
 * The definition and every call use the stem; the symbol (the debugger's,
 * the profile's, nm's) is the full name that line shows. .ctags.d lists
 * both full names of every such line as functions.
 *
 * No include guard: the header is meant to be read once per open and close. */

#if defined(XPBD_PRECISION_END)
/* ------------------------------------------------------------- close --- */
#  undef R
#  undef R_F64
#  undef R_NAME
#  undef SFX
#  undef SFX_
#  undef PREC
#  undef SQRT
#  undef FABS
#  undef R_EPS
#  undef R_MAX
#  undef P
#  undef DS
#  undef QS
#  undef XPBD_REAL_F32
#  undef XPBD_REAL_F64
#  undef XPBD_PRECISION_END
#else
/* -------------------------------------------------------------- open --- */
#  include <float.h>
#  include <math.h>
#  if defined(XPBD_REAL_F32) && defined(XPBD_REAL_F64)
#    error "define only one of XPBD_REAL_F32 and XPBD_REAL_F64"
#  elif defined(XPBD_REAL_F32)
#    define R float
#    define R_F64 0
#    define R_NAME "f32"
#    define SFX_(n) n##_f32
#    define PREC(f32_name, f64_name) f32_name
#    define SQRT sqrtf
#    define FABS fabsf
#    define R_EPS FLT_EPSILON
#    define R_MAX FLT_MAX
#  elif defined(XPBD_REAL_F64)
#    define R double
#    define R_F64 1
#    define R_NAME "f64"
#    define SFX_(n) n##_f64
#    define PREC(f32_name, f64_name) f64_name
#    define SQRT sqrt
#    define FABS fabs
#    define R_EPS DBL_EPSILON
#    define R_MAX DBL_MAX
#  else
#    error "define XPBD_REAL_F32 or XPBD_REAL_F64 before including precision.h"
#  endif
#  define SFX(n) SFX_(n)
#  if defined(XPBD_BUILDING)
#    define P SFX(xpbd_particles)
#    define DS SFX(xpbd_distance_set)
#    define QS SFX(xpbd_quad_set)
#  endif
#endif
