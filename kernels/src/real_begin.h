/* Template prologue: include after defining XPBD_REAL_F32 or XPBD_REAL_F64.
 * Gives R (the real type), SFX(name) (name_f32 / name_f64), SFXM(a, b)
 * (a_b_f32 / a_b_f64), SQRT, FABS and the particle/set type names P and DS.
 * Undone by real_end.h. */
#if defined(XPBD_REAL_F32)
#  define R float
#  define SFX_(n) n##_f32
#  define SFXM_(a, b) a##_##b##_f32
#  define SQRT sqrtf
#  define FABS fabsf
#elif defined(XPBD_REAL_F64)
#  define R double
#  define SFX_(n) n##_f64
#  define SFXM_(a, b) a##_##b##_f64
#  define SQRT sqrt
#  define FABS fabs
#else
#  error "define XPBD_REAL_F32 or XPBD_REAL_F64"
#endif
#define SFX(n) SFX_(n)
#define SFXM(a, b) SFXM_(a, b)
#define P SFX(xpbd_particles)
#define DS SFX(xpbd_distance_set)
#define QS SFX(xpbd_quad_set)
