/* Scalar reference contact kernels, template over R: one element at a time
 * in slot (or particle) order. Padding slots name one particle twice, so
 * |d| == 0 skips them. */
#include "real_begin.h"
#include "contact_elem_tmpl.h"

uint32_t SFX(xpbd_serial_contact_position)(R *q, const P *p, const R *radius,
                                           const xpbd_contact_set *cs, uint32_t slot_begin,
                                           uint32_t slot_end, R beta, int weighted, R mu_s,
                                           R mu_k)
{
    uint32_t hits = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        hits += SFX(elem_contact_position)(q, p, radius, cs->i0[s], cs->i1[s], beta, weighted,
                                           mu_s, mu_k);
    return hits;
}

uint32_t SFX(xpbd_serial_contact_velocity)(const P *p, const R *radius,
                                           const xpbd_contact_set *cs, uint32_t slot_begin,
                                           uint32_t slot_end, R e, R slop)
{
    const R ope = 1 + e, neg_slop = -slop;
    uint32_t hits = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        hits += SFX(elem_contact_velocity)(p, radius, cs->i0[s], cs->i1[s], ope, neg_slop);
    return hits;
}

uint32_t SFX(xpbd_serial_contact_restitution)(const P *p, const R *radius,
                                              const xpbd_contact_set *cs, const R *v0x,
                                              const R *v0y, const R *v0z, uint32_t slot_begin,
                                              uint32_t slot_end, R e, R slop, R rest_speed)
{
    const R neg_slop = -slop;
    uint32_t hits = 0;
    for (uint32_t s = slot_begin; s < slot_end; ++s)
        hits += SFX(elem_contact_restitution)(p, radius, v0x, v0y, v0z, cs->i0[s], cs->i1[s], e,
                                              neg_slop, rest_speed);
    return hits;
}

static uint32_t SFX(ref_contact_restitution)(const P *p, const R *radius,
                                             const xpbd_contact_set *cs, const R *v0x,
                                             const R *v0y, const R *v0z, uint32_t colour,
                                             uint32_t b0, uint32_t b1, R e, R slop, R rest_speed)
{
    const uint32_t base = cs->colour_begin[colour];
    return SFX(xpbd_serial_contact_restitution)(p, radius, cs, v0x, v0y, v0z,
                                                base + b0 * XPBD_BATCH, base + b1 * XPBD_BATCH, e,
                                                slop, rest_speed);
}

static uint32_t SFX(ref_plane_restitution)(const P *p, const R *radius, const R *v0x,
                                           const R *v0y, const R *v0z, size_t begin, size_t end,
                                           const R plane[4], R e, R slop, R rest_speed, R *impulse)
{
    const R neg_slop = -slop;
    uint32_t hits = 0;
    for (size_t i = begin; i < end; ++i)
        hits += SFX(elem_plane_restitution)(p, radius, v0x, v0y, v0z, i, plane, e, neg_slop,
                                            rest_speed, impulse);
    return hits;
}

static uint32_t SFX(ref_contact_position)(R *q, const P *p, const R *radius,
                                          const xpbd_contact_set *cs, uint32_t colour, uint32_t b0,
                                          uint32_t b1, R beta, int weighted, R mu_s, R mu_k)
{
    const uint32_t base = cs->colour_begin[colour];
    return SFX(xpbd_serial_contact_position)(q, p, radius, cs, base + b0 * XPBD_BATCH,
                                             base + b1 * XPBD_BATCH, beta, weighted, mu_s, mu_k);
}

static uint32_t SFX(ref_contact_velocity)(const P *p, const R *radius,
                                          const xpbd_contact_set *cs, uint32_t colour, uint32_t b0,
                                          uint32_t b1, R e, R slop)
{
    const uint32_t base = cs->colour_begin[colour];
    return SFX(xpbd_serial_contact_velocity)(p, radius, cs, base + b0 * XPBD_BATCH,
                                             base + b1 * XPBD_BATCH, e, slop);
}

static uint32_t SFX(ref_plane_position)(R *q, const P *p, const R *radius, size_t begin,
                                        size_t end, const R plane[4], R beta, R mu_s, R mu_k,
                                        R *impulse, R h)
{
    uint32_t hits = 0;
    for (size_t i = begin; i < end; ++i)
        hits += SFX(elem_plane_position)(q, p, radius, i, plane, beta, mu_s, mu_k, impulse, h);
    return hits;
}

static uint32_t SFX(ref_plane_velocity)(const P *p, const R *radius, size_t begin, size_t end,
                                        const R plane[4], R e, R slop, R *impulse)
{
    const R ope = 1 + e, neg_slop = -slop;
    uint32_t hits = 0;
    for (size_t i = begin; i < end; ++i)
        hits += SFX(elem_plane_velocity)(p, radius, i, plane, ope, neg_slop, impulse);
    return hits;
}

static void SFX(ref_gravity)(const P *p, size_t begin, size_t end, R gxh, R gyh, R gzh)
{
    for (size_t i = begin; i < end; ++i)
        SFX(elem_gravity)(p, i, gxh, gyh, gzh);
}

static void SFX(ref_integrate)(const P *p, size_t begin, size_t end, R h)
{
    for (size_t i = begin; i < end; ++i)
        SFX(elem_integrate)(p, i, h);
}

const SFX(xpbd_contact_kernels) SFX(xpbd__scalar_contact) = {
    XPBD_ISA_SCALAR,
    1,
    SFX(ref_contact_position),
    SFX(ref_contact_velocity),
    SFX(ref_plane_position),
    SFX(ref_plane_velocity),
    SFX(ref_gravity),
    SFX(ref_integrate),
    SFX(ref_contact_restitution),
    SFX(ref_plane_restitution),
};

#include "real_end.h"
