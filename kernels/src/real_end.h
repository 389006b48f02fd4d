/* Closes real_begin.h (see precision.h). */
#undef SFXM
#undef SFXM_
#define XPBD_PRECISION_END
#include "precision.h"
