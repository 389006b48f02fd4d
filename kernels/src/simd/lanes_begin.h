/* Prologue of a SIMD kernel template (after real_begin.h): the wide type of
 * the precision (V, mask M, L lanes, O(op) -> wf_op / wd_op), SIMD(name) for
 * this ISA's symbol names, and the walk over a colour's slots:
 *
 *   FOR_SLOTS(set, colour, b0, b1) { unsigned n = LIVE_LANES; ... }
 *
 * visits the vectors of batches [b0, b1) of the colour, stopping at the
 * colour's last real slot (whole vectors of padding are not visited); n is
 * the number of real lanes of the vector at slot s. Undone by lanes_end.h. */
#if defined(XPBD_REAL_F32)
#  define V wf
#  define M wfm
#  define L WF_LANES
#  define O(n) wf_##n
#else
#  define V wd
#  define M wdm
#  define L WD_LANES
#  define O(n) wd_##n
#endif
#define SIMD(n) SFX(XPBD_SIMD_CAT(n))

#define FOR_SLOTS(c, colour, b0, b1)                                                        \
    const uint32_t base_ = (c)->colour_begin[colour];                                       \
    const uint32_t real_end_ = base_ + (c)->colour_size[colour];                            \
    const uint32_t stop_ = base_ + (b1) * XPBD_BATCH < real_end_ ? base_ + (b1) * XPBD_BATCH \
                                                                 : real_end_;               \
    for (uint32_t s = base_ + (b0) * XPBD_BATCH; s < stop_; s += L)
#define LIVE_LANES (real_end_ - s >= (uint32_t)L ? (unsigned)L : (unsigned)(real_end_ - s))
