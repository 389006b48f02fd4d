/* SPDX-License-Identifier: MIT */
/* lanes.h: opens (or closes) a backend of the wide-op vocabulary for the
 * open precision (precision.h), so that a kernel file written once over
 * V, M, L and O() compiles both as the scalar reference and as a SIMD path.
 *
 *   #define XPBD_LANES_ONE      one lane: V = R, M = a 0/1 mask, L = 1
 *   #define XPBD_LANES_WIDE     the vectors of wide.h (the ISA of this TU)
 *   #include "lanes.h"
 *   ...
 *   #define XPBD_LANES_END
 *   #include "lanes.h"
 *
 * While open:
 *   V, M, L     vector type, mask type, lanes
 *   O(op)       the operation op of the vocabulary (wf_add, od_mul, ...)
 *   K(name)     this backend's static name for a kernel or lane function,
 *               carrying its path, so that a profile or a debugger tells
 *               the paths apart: name_avx2_f32 (the wide backend of the
 *               avx2 translation unit), name_scalar_f32 (the scalar path),
 *               name_avx2_tail_f32 (the one-lane backend a SIMD path uses
 *               for its tails)
 *   TAIL(name)  the one-lane instantiation of a lane function, which the
 *               wide kernels call for the elements past the last full vector
 *               (the one-lane instantiation of a file is read first)
 *   O1(op)      the one-lane operation op of this precision (for tails)
 *   LANE_FN     static inline, always inlined: for lane functions
 *   FOR_SLOTS(set, colour, b0, b1) { unsigned n = LIVE_LANES; ... }
 *               visits the vectors of batches [b0, b1) of a colour, stopping
 *               at the colour's last real slot (padding slots are all at a
 *               colour's end, so whole vectors of padding are not visited);
 *               n is the number of real lanes of the vector at slot s.
 *   LANE_INDEX(idx, i)  idx[l] = i + l for the L lanes (consecutive particles) */

#if defined(XPBD_LANES_END)
#  undef V
#  undef M
#  undef L
#  undef O
#  undef K
#  undef TAIL
#  undef XPBD_ONE_NAME
#  undef XPBD_PATHNAME
#  undef XPBD_PATHNAME_
#  undef O1
#  undef LANES_IS_ONE
#  undef FOR_SLOTS
#  undef LIVE_LANES
#  undef LANE_INDEX
#  undef XPBD_LANES_ONE
#  undef XPBD_LANES_WIDE
#  undef XPBD_LANES_END
#else
#  if !defined(R)
#    error "open a precision (precision.h) before lanes.h"
#  endif
#  define LANE_FN static inline __attribute__((always_inline))
#  define XPBD_PATHNAME_(n, path) n##_##path
#  define XPBD_PATHNAME(n, path) XPBD_PATHNAME_(n, path)
#  if defined(XPBD_SIMD_NAME)
#    define XPBD_ONE_NAME(n) SFX(XPBD_PATHNAME(n, XPBD_PATHNAME(XPBD_SIMD_NAME, tail)))
#  else
#    define XPBD_ONE_NAME(n) SFX(XPBD_PATHNAME(n, scalar))
#  endif
#  if defined(XPBD_LANES_ONE)
#    include "simd/one.h"
#    define LANES_IS_ONE 1
#    define K(n) XPBD_ONE_NAME(n)
#    if R_F64
#      define V od
#      define M odm
#      define L OD_LANES
#      define O(n) od_##n
#    else
#      define V of
#      define M ofm
#      define L OF_LANES
#      define O(n) of_##n
#    endif
#  elif defined(XPBD_LANES_WIDE)
#    include "simd/wide.h"
#    define LANES_IS_ONE 0
#    define K(n) SFX(XPBD_PATHNAME(n, XPBD_SIMD_NAME))
#    if R_F64
#      define V wd
#      define M wdm
#      define L WD_LANES
#      define O(n) wd_##n
#    else
#      define V wf
#      define M wfm
#      define L WF_LANES
#      define O(n) wf_##n
#    endif
#  else
#    error "define XPBD_LANES_ONE or XPBD_LANES_WIDE before lanes.h"
#  endif
#  define TAIL(n) XPBD_ONE_NAME(n)
#  if R_F64
#    define O1(n) od_##n
#  else
#    define O1(n) of_##n
#  endif
#  define FOR_SLOTS(c, colour, b0, b1)                                                        \
    const uint32_t base_ = (c)->colour_begin[colour];                                       \
    const uint32_t real_end_ = base_ + (c)->colour_size[colour];                            \
    const uint32_t stop_ = base_ + (b1) * XPBD_BATCH < real_end_ ? base_ + (b1) * XPBD_BATCH \
                                                                 : real_end_;               \
    for (uint32_t s = base_ + (b0) * XPBD_BATCH; s < stop_; s += L)
#  if LANES_IS_ONE
/* the walk stops at the real end, so the one lane visited is always real */
#    define LIVE_LANES 1u
#  else
#    define LIVE_LANES (real_end_ - s >= (uint32_t)L ? (unsigned)L : (unsigned)(real_end_ - s))
#  endif
#  define LANE_INDEX(idx, i)                                                                  \
    for (int l_ = 0; l_ < L; ++l_) (idx)[l_] = (uint32_t)((i) + (size_t)l_)
#endif
