/* Epilogue of a SIMD kernel template: undoes lanes_begin.h. */
#undef FOR_SLOTS
#undef LIVE_LANES
#undef SIMD
#undef V
#undef M
#undef L
#undef O
