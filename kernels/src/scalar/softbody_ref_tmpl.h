/* Scalar reference soft-body kernels, template over R. */
#include "real_begin.h"
#include "softbody_elem_tmpl.h"

uint32_t SFX(xpbd_serial_tet_volume)(R *q, const QS *c, uint32_t slot_begin, uint32_t slot_end,
                                     R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_tet)(q, c, s, ih2);
    return skipped;
}

uint32_t SFX(xpbd_serial_bending)(R *q, const QS *c, uint32_t slot_begin, uint32_t slot_end, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_bend)(q, c, s, ih2);
    return skipped;
}

static uint32_t SFX(ref_tet_volume)(R *q, const QS *c, uint32_t colour, uint32_t b0, uint32_t b1,
                                    R h)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_tet_volume)(q, c, base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, h);
}

static uint32_t SFX(ref_bending)(R *q, const QS *c, uint32_t colour, uint32_t b0, uint32_t b1, R h)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_bending)(q, c, base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, h);
}

static uint32_t SFX(ref_tethers)(R *q, const uint32_t *anchor, const R *length, size_t begin,
                                 size_t end)
{
    uint32_t taut = 0;
    for (size_t i = begin; i < end; ++i)
        taut += SFX(elem_tether)(q, anchor, length, i);
    return taut;
}

const SFX(xpbd_softbody_kernels) SFX(xpbd__scalar_softbody) = {
    XPBD_ISA_SCALAR, 1, SFX(ref_tet_volume), SFX(ref_bending), SFX(ref_tethers),
};

#include "real_end.h"
