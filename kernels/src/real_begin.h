/* Older spelling of precision.h's open, kept while templates move to it:
 * precision.h plus SFXM(a, b) = a_b_f32 / a_b_f64. Closed by real_end.h. */
#include "precision.h"
#define SFXM_(a, b) SFX(a##_##b)
#define SFXM(a, b) SFXM_(a, b)
