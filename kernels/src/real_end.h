/* Template epilogue: undoes real_begin.h. */
#undef R
#undef SFX
#undef SFX_
#undef SFXM
#undef SFXM_
#undef SQRT
#undef FABS
#undef P
#undef DS
#undef QS
#undef XPBD_REAL_F32
#undef XPBD_REAL_F64
