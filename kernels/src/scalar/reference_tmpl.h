/* Scalar reference kernels: plain C, one element at a time, template over R.
 * The colour kernels walk the colour's slots in order; the SIMD paths must
 * reproduce them bit for bit. */
#include "real_begin.h"
#include "elem_tmpl.h"

static void SFX(ref_predict)(const P *p, size_t begin, size_t end, R h, R gx, R gy, R gz)
{
    const R gxh = gx * h, gyh = gy * h, gzh = gz * h;
    for (size_t i = begin; i < end; ++i)
        SFX(elem_predict)(p, i, h, gxh, gyh, gzh);
}

static void SFX(ref_velocity)(const P *p, size_t begin, size_t end, R h, R keep)
{
    const R ih = 1 / h;
    for (size_t i = begin; i < end; ++i)
        SFX(elem_velocity)(p, i, ih, keep);
}

static void SFX(ref_spring_integrate)(const P *p, R *fx, R *fy, R *fz, size_t begin, size_t end,
                                      R h, R gx, R gy, R gz)
{
    for (size_t i = begin; i < end; ++i)
        SFX(elem_spring_integrate)(p, fx, fy, fz, i, h, gx, gy, gz);
}

uint32_t SFX(xpbd_serial_distance_xpbd)(const P *p, const DS *c, uint32_t slot_begin,
                                        uint32_t slot_end, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_xpbd)(p, c, s, ih2);
    return skipped;
}

uint32_t SFXM(xpbd_serial_distance_xpbd, packed)(R *q, const DS *c, uint32_t slot_begin,
                                                uint32_t slot_end, R h)
{
    const R ih2 = 1 / (h * h);
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_xpbd_packed)(q, c, s, ih2);
    return skipped;
}

uint32_t SFXM(xpbd_serial_distance_pbd, packed)(R *q, const DS *c, uint32_t slot_begin,
                                               uint32_t slot_end, R k)
{
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_pbd_packed)(q, c, s, k);
    return skipped;
}

uint32_t SFX(xpbd_serial_distance_pbd)(const P *p, const DS *c, uint32_t slot_begin,
                                       uint32_t slot_end, R k)
{
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_pbd)(p, c, s, k);
    return skipped;
}

uint32_t SFX(xpbd_serial_spring_forces)(const P *p, const DS *c, R *fx, R *fy, R *fz,
                                        uint32_t slot_begin, uint32_t slot_end, R damping)
{
    uint32_t skipped = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        if (c->source[s] != XPBD_PAD)
            skipped += SFX(elem_spring)(p, c, fx, fy, fz, s, damping);
    return skipped;
}

R SFX(xpbd_serial_residual)(const P *p, const DS *c, uint32_t slot_begin, uint32_t slot_end, R h,
                            R *out)
{
    const R ih2 = 1 / (h * h);
    R max = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s) {
        R r = 0;
        if (c->source[s] != XPBD_PAD)
            r = SFX(elem_residual)(p, c, s, ih2);
        if (out)
            out[s] = r;
        const R a = FABS(r);
        if (a > max)
            max = a;
    }
    return max;
}

static uint32_t SFX(ref_distance_xpbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                       uint32_t b1, R h)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_distance_xpbd)(p, c, base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, h);
}

static uint32_t SFX(ref_distance_pbd)(const P *p, const DS *c, uint32_t colour, uint32_t b0,
                                      uint32_t b1, R k)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_distance_pbd)(p, c, base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, k);
}

static uint32_t SFX(ref_spring_forces)(const P *p, const DS *c, R *fx, R *fy, R *fz,
                                       uint32_t colour, uint32_t b0, uint32_t b1, R damping)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_spring_forces)(p, c, fx, fy, fz, base + b0 * XPBD_BATCH,
                                          base + b1 * XPBD_BATCH, damping);
}

static R SFX(ref_residual)(const P *p, const DS *c, uint32_t colour, uint32_t b0, uint32_t b1,
                           R h, R *out)
{
    const uint32_t base = c->colour_begin[colour];
    return SFX(xpbd_serial_residual)(p, c, base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, h, out);
}

static uint32_t SFX(ref_distance_xpbd_packed)(R *q, const DS *c, uint32_t colour, uint32_t b0,
                                              uint32_t b1, R h)
{
    const uint32_t base = c->colour_begin[colour];
    return SFXM(xpbd_serial_distance_xpbd, packed)(q, c, base + b0 * XPBD_BATCH,
                                                   base + b1 * XPBD_BATCH, h);
}

static uint32_t SFX(ref_distance_pbd_packed)(R *q, const DS *c, uint32_t colour, uint32_t b0,
                                             uint32_t b1, R k)
{
    const uint32_t base = c->colour_begin[colour];
    return SFXM(xpbd_serial_distance_pbd, packed)(q, c, base + b0 * XPBD_BATCH,
                                                  base + b1 * XPBD_BATCH, k);
}

static void SFX(ref_pack)(const P *p, R *q, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; ++i)
        SFX(elem_pack)(p, q, i);
}

static void SFX(ref_unpack)(const R *q, const P *p, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; ++i)
        SFX(elem_unpack)(q, p, i);
}

static void SFX(ref_predict_pack)(const P *p, R *q, size_t begin, size_t end, R h, R gx, R gy,
                                  R gz)
{
    SFX(ref_predict)(p, begin, end, h, gx, gy, gz);
    SFX(ref_pack)(p, q, begin, end);
}

static void SFX(ref_unpack_velocity)(const R *q, const P *p, size_t begin, size_t end, R h, R keep)
{
    SFX(ref_unpack)(q, p, begin, end);
    SFX(ref_velocity)(p, begin, end, h, keep);
}

static R SFX(ref_kinetic_energy)(const P *p, size_t begin, size_t end)
{
    R acc[16] = {0};
    for (size_t i = begin; i < end; ++i) {
        const size_t j = (i - begin) % 16;
        acc[j] = acc[j] + SFX(elem_kinetic)(p, i);
    }
    return SFX(elem_tree16)(acc) * (R)0.5;
}

static void SFX(ref_momentum)(const P *p, size_t begin, size_t end, R out[3])
{
    R ax[16] = {0}, ay[16] = {0}, az[16] = {0};
    for (size_t i = begin; i < end; ++i) {
        const size_t j = (i - begin) % 16;
        const R w = p->w[i];
        if (w > 0) {
            ax[j] = ax[j] + p->vx[i] / w;
            ay[j] = ay[j] + p->vy[i] / w;
            az[j] = az[j] + p->vz[i] / w;
        }
    }
    out[0] = SFX(elem_tree16)(ax);
    out[1] = SFX(elem_tree16)(ay);
    out[2] = SFX(elem_tree16)(az);
}

const SFX(xpbd_kernels) SFX(xpbd__scalar) = {
    XPBD_ISA_SCALAR,
    1,
    SFX(ref_predict),
    SFX(ref_velocity),
    SFX(ref_spring_integrate),
    SFX(ref_distance_pbd),
    SFX(ref_distance_xpbd),
    SFX(ref_spring_forces),
    SFX(ref_residual),
    SFX(ref_kinetic_energy),
    SFX(ref_momentum),
    SFX(ref_pack),
    SFX(ref_unpack),
    SFX(ref_distance_pbd_packed),
    SFX(ref_distance_xpbd_packed),
    SFX(ref_predict_pack),
    SFX(ref_unpack_velocity),
};

#include "real_end.h"
