/* SPDX-License-Identifier: MIT */
/* Particle and distance-set builders and validators. */
#ifndef XPBD_SELF
#define XPBD_SELF "soa.c"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#  include "each_precision.h"

/* The exported names, written out: each calls its template instance above. */

void xpbd_particles_bind_f32(xpbd_particles_f32 *p, size_t n, float *base, size_t stride)
{
    soa_particles_bind_f32(p, n, base, stride);
}

void xpbd_particles_bind_f64(xpbd_particles_f64 *p, size_t n, double *base, size_t stride)
{
    soa_particles_bind_f64(p, n, base, stride);
}

xpbd_status xpbd_particles_validate_f32(const xpbd_particles_f32 *p, size_t *bad_index)
{
    return soa_particles_validate_f32(p, bad_index);
}

xpbd_status xpbd_particles_validate_f64(const xpbd_particles_f64 *p, size_t *bad_index)
{
    return soa_particles_validate_f64(p, bad_index);
}

xpbd_status xpbd_distance_set_validate_f32(const xpbd_distance_set_f32 *c, size_t particle_count,
                                           uint32_t *stamp, size_t *bad_index)
{
    return soa_distance_set_validate_f32(c, particle_count, stamp, bad_index);
}

xpbd_status xpbd__distance_set_fields_f32(const xpbd_distance_set_f32 *c, const uint32_t *stamp)
{
    return soa_distance_set_fields_f32(c, stamp);
}

xpbd_status xpbd__distance_set_fields_f64(const xpbd_distance_set_f64 *c, const uint32_t *stamp)
{
    return soa_distance_set_fields_f64(c, stamp);
}

int xpbd__distance_set_screen_f32(const xpbd_distance_set_f32 *c, size_t n, uint32_t s0,
                                  uint32_t s1)
{
    return soa_screen_set_f32(c, n, s0, s1);
}

int xpbd__distance_set_screen_f64(const xpbd_distance_set_f64 *c, size_t n, uint32_t s0,
                                  uint32_t s1)
{
    return soa_screen_set_f64(c, n, s0, s1);
}

xpbd_status xpbd_distance_set_validate_f64(const xpbd_distance_set_f64 *c, size_t particle_count,
                                           uint32_t *stamp, size_t *bad_index)
{
    return soa_distance_set_validate_f64(c, particle_count, stamp, bad_index);
}

void xpbd_distance_set_free_f32(xpbd_distance_set_f32 *set)
{
    soa_distance_set_free_f32(set);
}

void xpbd_distance_set_free_f64(xpbd_distance_set_f64 *set)
{
    soa_distance_set_free_f64(set);
}

xpbd_status xpbd_distance_set_build_f32(xpbd_distance_set_f32 *out, size_t particle_count,
                                        size_t count, const uint32_t *i0, const uint32_t *i1,
                                        const float *rest, const float *compliance,
                                        const xpbd_colouring_options *options, size_t *bad_index)
{
    return soa_distance_set_build_f32(out, particle_count, count, i0, i1, rest, compliance, options,
                                  bad_index);
}

xpbd_status xpbd_distance_set_build_f64(xpbd_distance_set_f64 *out, size_t particle_count,
                                        size_t count, const uint32_t *i0, const uint32_t *i1,
                                        const double *rest, const double *compliance,
                                        const xpbd_colouring_options *options, size_t *bad_index)
{
    return soa_distance_set_build_f64(out, particle_count, count, i0, i1, rest, compliance, options,
                                  bad_index);
}

#else /* one precision, read through each_precision.h */
/* Builders and validators of particle and distance sets, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define soa_particles_bind PREC(soa_particles_bind_f32, soa_particles_bind_f64)
#define soa_screen_particles PREC(soa_screen_particles_f32, soa_screen_particles_f64)
#define soa_screen_set PREC(soa_screen_set_f32, soa_screen_set_f64)
#define soa_particles_validate PREC(soa_particles_validate_f32, soa_particles_validate_f64)
#define soa_check_constraint PREC(soa_check_constraint_f32, soa_check_constraint_f64)
#define soa_name_bad_slot PREC(soa_name_bad_slot_f32, soa_name_bad_slot_f64)
#define soa_distance_set_fields PREC(soa_distance_set_fields_f32, soa_distance_set_fields_f64)
#define soa_distance_set_validate PREC(soa_distance_set_validate_f32, soa_distance_set_validate_f64)
#define soa_distance_set_free PREC(soa_distance_set_free_f32, soa_distance_set_free_f64)
#define soa_runs_pack_colours PREC(soa_runs_pack_colours_f32, soa_runs_pack_colours_f64)
#define soa_distance_set_check PREC(soa_distance_set_check_f32, soa_distance_set_check_f64)
#define soa_distance_set_colour PREC(soa_distance_set_colour_f32, soa_distance_set_colour_f64)
#define soa_distance_set_regions PREC(soa_distance_set_regions_f32, soa_distance_set_regions_f64)
#define soa_distance_set_alloc PREC(soa_distance_set_alloc_f32, soa_distance_set_alloc_f64)
#define soa_distance_set_reals PREC(soa_distance_set_reals_f32, soa_distance_set_reals_f64)
#define soa_distance_set_build PREC(soa_distance_set_build_f32, soa_distance_set_build_f64)
#define soa_runs_in PREC(soa_runs_in_f32, soa_runs_in_f64)
#define soa_distance_set_lay PREC(soa_distance_set_lay_f32, soa_distance_set_lay_f64)
#include "screen_tmpl.h"

static void soa_particles_bind(P *p, size_t n, R *base, size_t stride)
{
    R **const arrays[10] = {&p->x,  &p->y,  &p->z,  &p->px, &p->py,
                            &p->pz, &p->vx, &p->vy, &p->vz, &p->w};
    for (size_t k = 0; k < 10; ++k)
        *arrays[k] = base + k * stride;
    p->count = n;
}

static int soa_screen_particles(const P *p)
{
    const size_t n = p->count;
    unsigned bad = 0;
    for (size_t i = 0; i < n; ++i)
        bad |= !(p->w[i] >= 0) | !(p->w[i] - p->w[i] == 0);
    return bad == 0 && screen_finite(p->x, n) && screen_finite(p->y, n) &&
           screen_finite(p->z, n) && screen_finite(p->vx, n) &&
           screen_finite(p->vy, n) && screen_finite(p->vz, n);
}

/* Everything the slow loop of the set validator checks, slot by slot,
 * except the colours' real slots being real pairs (source not XPBD_PAD,
 * i0 != i1): the repeat pass (xpbd__colour_repeat) checks those on its way.
 * On slots [s0, s1) of the set. */
static int soa_screen_set(const DS *c, size_t n, uint32_t s0, uint32_t s1)
{
    unsigned bad = 0;
    for (uint32_t k = 0; k < c->colours; ++k) {
        const uint32_t r = c->colour_begin[k] + c->colour_size[k], e = c->colour_begin[k + 1];
        for (uint32_t s = r > s0 ? r : s0; s < e && s < s1; ++s)
            bad |= (c->source[s] != XPBD_PAD) | (c->i0[s] != c->i1[s]) | !(c->lambda[s] == 0);
    }
    for (uint32_t s = c->overflow_begin > s0 ? c->overflow_begin : s0; s < s1; ++s)
        bad |= (c->source[s] == XPBD_PAD) | (c->i0[s] == c->i1[s]);
    /* indices and reals in separate loops, each of one element type, so
     * both vectorise; with n > UINT32_MAX every index is in range */
    if (n <= UINT32_MAX) {
        const uint32_t n32 = (uint32_t)n;
        for (uint32_t s = s0; s < s1; ++s)
            bad |= (c->i0[s] >= n32) | (c->i1[s] >= n32);
    }
    for (uint32_t s = s0; s < s1; ++s)
        bad |= !(c->rest[s] > 0) | !(c->rest[s] - c->rest[s] == 0) | !(c->compliance[s] >= 0) |
               !(c->compliance[s] - c->compliance[s] == 0) | !(c->lambda[s] - c->lambda[s] == 0);
    return bad == 0;
}

static xpbd_status soa_particles_validate(const P *p, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!p)
        return XPBD_ERR_ARGUMENT;
    if (p->count == 0)
        return XPBD_OK;
    if (!p->x || !p->y || !p->z || !p->px || !p->py || !p->pz || !p->vx || !p->vy || !p->vz ||
        !p->w)
        return XPBD_ERR_ARGUMENT;
    if (p->count > (size_t)INT32_MAX)
        return XPBD_ERR_ARGUMENT;
    if (soa_screen_particles(p))
        return XPBD_OK;
    for (size_t i = 0; i < p->count; ++i) {
        xpbd_status st = XPBD_OK;
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i]))
            st = XPBD_ERR_POSITION;
        else if (!isfinite(p->vx[i]) || !isfinite(p->vy[i]) || !isfinite(p->vz[i]))
            st = XPBD_ERR_VELOCITY;
        else if (!isfinite(p->w[i]) || p->w[i] < 0)
            st = XPBD_ERR_INVERSE_MASS;
        if (st != XPBD_OK) {
            if (bad_index)
                *bad_index = i;
            return st;
        }
    }
    return XPBD_OK;
}

static xpbd_status soa_check_constraint(size_t n, uint32_t a, uint32_t b, R rest, R compliance)
{
    if (a >= n || b >= n || a == b)
        return XPBD_ERR_INDEX;
    if (!isfinite(rest) || !(rest > 0))
        return XPBD_ERR_REST;
    if (!isfinite(compliance) || compliance < 0)
        return XPBD_ERR_COMPLIANCE;
    return XPBD_OK;
}

/* The slow loop behind a failed screen: the first bad slot and its status. */
static xpbd_status soa_name_bad_slot(const DS *c, size_t n, size_t *bad_index)
{
    for (uint32_t k = 0, s = 0; s < c->slots; ++s) {
        while (k < c->colours && s >= c->colour_begin[k + 1])
            ++k;
        const int pad = k < c->colours && s >= c->colour_begin[k] + c->colour_size[k];
        xpbd_status st = XPBD_OK;
        if (pad) {
            /* a padding slot must stay a no-op: same valid particle twice */
            if (c->source[s] != XPBD_PAD || c->i0[s] != c->i1[s] || c->i0[s] >= n ||
                c->lambda[s] != 0)
                st = XPBD_ERR_INDEX;
        } else if (c->source[s] == XPBD_PAD) {
            st = XPBD_ERR_INDEX;
        } else {
            st = soa_check_constraint(n, c->i0[s], c->i1[s], c->rest[s], c->compliance[s]);
            if (st == XPBD_OK && !isfinite(c->lambda[s]))
                st = XPBD_ERR_LAMBDA;
        }
        if (st != XPBD_OK) {
            if (bad_index)
                *bad_index = s;
            return st;
        }
    }
    return XPBD_OK;
}

/* The set's own fields: pointers and layout (XPBD_OK for an empty set). */
static xpbd_status soa_distance_set_fields(const DS *c, const uint32_t *stamp)
{
    if (!c)
        return XPBD_ERR_ARGUMENT;
    if (c->slots == 0)
        return c->count == 0 ? XPBD_OK : XPBD_ERR_ARGUMENT;
    if (!c->i0 || !c->i1 || !c->rest || !c->compliance || !c->lambda || !c->source ||
        (c->colours && !stamp) ||
        !xpbd__layout_ok(c->count, c->slots, c->colours, c->colour_begin, c->colour_size,
                         c->overflow_begin) ||
        !xpbd__regions_ok(c->regions, c->region_colour, c->colours))
        return XPBD_ERR_ARGUMENT;
    return XPBD_OK;
}

static xpbd_status soa_distance_set_validate(const DS *c, size_t n, uint32_t *stamp,
                                              size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    const xpbd_status fields = soa_distance_set_fields(c, stamp);
    if (fields != XPBD_OK || c->slots == 0)
        return fields;
    if (!soa_screen_set(c, n, 0, c->slots)) {
        const xpbd_status st = soa_name_bad_slot(c, n, bad_index);
        if (st != XPBD_OK)
            return st;
    }
    const uint32_t *const idx[4] = {c->i0, c->i1, NULL, NULL};
    uint32_t r = xpbd__colour_repeat(c->colours, c->colour_begin, c->colour_size, idx, 2,
                                     c->source, n, stamp);
    if (r == UINT32_MAX)
        r = xpbd__region_overlap(c->regions, c->region_colour, c->colour_begin, c->colour_size,
                                 c->i0, c->i1, n, stamp);
    if (r != UINT32_MAX) {
        if (bad_index)
            *bad_index = r;
        return XPBD_ERR_INDEX;
    }
    return XPBD_OK;
}

static void soa_distance_set_free(DS *set)
{
    if (!set)
        return;
    free(set->block_);
    memset(set, 0, sizeof *set);
}

/* The runs layout (xpbd__runs_pack) of every colour of a set whose i0, i1
 * and source are filled in the runs order: those three reordered (the
 * order within a colour changes nothing the solve computes). Returns 0
 * when out of memory. */
static int soa_runs_pack_colours(DS *c)
{
    uint32_t most = 0;
    for (uint32_t k = 0; k < c->colours; ++k)
        if (c->colour_size[k] > most)
            most = c->colour_size[k];
    uint32_t *perm = malloc((most ? most : 1) * sizeof *perm);
    uint32_t *u = malloc((most ? most : 1) * sizeof *u);
    if (!perm || !u) {
        free(perm);
        free(u);
        return 0;
    }
    for (uint32_t k = 0; k < c->colours; ++k) {
        const uint32_t b = c->colour_begin[k], n = c->colour_size[k];
        xpbd__runs_pack(n, c->i0 + b, c->i1 + b, perm);
        uint32_t *const ua[3] = {c->i0 + b, c->i1 + b, c->source + b};
        for (int a = 0; a < 3; ++a) {
            for (uint32_t t = 0; t < n; ++t)
                u[t] = ua[a][perm[t]];
            memcpy(ua[a], u, n * sizeof *u);
        }
    }
    free(perm);
    free(u);
    return 1;
}

/* The arguments, the colouring options and every constraint (the first
 * bad one in *bad_index). */
static xpbd_status soa_distance_set_check(size_t n, size_t count, const uint32_t *i0,
                                          const uint32_t *i1, const R *rest, const R *compliance,
                                          const xpbd_colouring_options *options,
                                          uint32_t *max_colours, size_t *bad_index)
{
    if (count > 0 && (!i0 || !i1 || !rest || !compliance))
        return XPBD_ERR_ARGUMENT;
    /* indices travel as signed 32-bit gather offsets */
    if (n > (size_t)INT32_MAX || count > (size_t)INT32_MAX / 2)
        return XPBD_ERR_ARGUMENT;
    *max_colours = options && options->max_colours ? options->max_colours : 32u;
    if (*max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    if (options && (options->layout < XPBD_LAYOUT_AUTO || options->layout > XPBD_LAYOUT_RUNS ||
                    (options->runs && options->layout == XPBD_LAYOUT_INPUT)))
        return XPBD_ERR_CONFIG;
    if (options && (options->regions == 1 || options->regions > XPBD_MAX_REGIONS))
        return XPBD_ERR_CONFIG;
    for (size_t k = 0; k < count; ++k) {
        const xpbd_status st = soa_check_constraint(n, i0[k], i1[k], rest[k], compliance[k]);
        if (st != XPBD_OK) {
            if (bad_index)
                *bad_index = k;
            return st;
        }
    }
    return XPBD_OK;
}

/* The regions colouring (xpbd__colour_regions) for soa_distance_set_colour,
 * which allocated used and *colour_of: *order is the sequence it gives,
 * region_colour is left in *order's room after count entries. */
static xpbd_status soa_distance_set_regions(size_t n, size_t count, const uint32_t *i0,
                                            const uint32_t *i1, int runs, uint32_t regions,
                                            uint32_t max_colours, xpbd__layout *lay,
                                            uint8_t **colour_of, uint32_t **order, uint64_t *used)
{
    free(used);
    *order = malloc((count + XPBD_MAX_REGIONS + 1) * sizeof **order);
    if (!*order || !xpbd__colour_regions(n, count, i0, i1, regions, max_colours, runs, lay,
                                         *colour_of, *order, *order + count)) {
        free(*colour_of);
        free(*order);
        *order = NULL;
        return XPBD_ERR_NOMEM;
    }
    return XPBD_OK;
}

/* The colouring: the layout, each constraint's colour (*colour_of, in the
 * order they were coloured in) and that order (*order: order[j] is the
 * input index of the j-th, by offset then first particle with runs,
 * coloured by xpbd__colour_runs, or the regions colouring's sequence
 * followed by its region_colour; NULL: input order). max_colours 0: all
 * in the overflow (regions then ignored). The caller frees both. */
static xpbd_status soa_distance_set_colour(size_t n, size_t count, const uint32_t *i0,
                                           const uint32_t *i1, int runs, uint32_t regions,
                                           uint32_t max_colours, xpbd__layout *lay,
                                           uint8_t **colour_of, uint32_t **order)
{
    *order = NULL;
    uint64_t *used = malloc((n ? n : 1) * sizeof *used);
    *colour_of = malloc(count ? count : 1);
    if (!used || !*colour_of) {
        free(used);
        free(*colour_of);
        return XPBD_ERR_NOMEM;
    }
    if (regions && max_colours > 0 && count > 0)
        return soa_distance_set_regions(n, count, i0, i1, runs, regions, max_colours, lay,
                                        colour_of, order, used);
    uint32_t *oi = NULL;
    if (runs && max_colours > 0 && count > 0) {
        *order = malloc(count * sizeof **order);
        oi = malloc(2 * count * sizeof *oi);
        if (!*order || !oi || !xpbd__runs_order(count, i0, i1, *order)) {
            free(used);
            free(*colour_of);
            free(*order);
            free(oi);
            return XPBD_ERR_NOMEM;
        }
        for (size_t j = 0; j < count; ++j) {
            oi[j] = i0[(*order)[j]];
            oi[count + j] = i1[(*order)[j]];
        }
    }
    if (oi) {
        xpbd__colour_runs(n, count, oi, oi + count, max_colours, used, *colour_of, lay);
    } else {
        const uint32_t *const idx[4] = {i0, i1, i0, i1};
        xpbd__colour(n, count, 2, idx, 1, max_colours, used, *colour_of, lay);
    }
    free(used);
    free(oi);
    return XPBD_OK;
}

/* The set's arrays in one block (reals first, 64-byte aligned, then the
 * index arrays) and its layout fields. Returns 0 when out of memory. */
static int soa_distance_set_alloc(DS *out, const xpbd__layout *lay, size_t count,
                                  uint32_t regions)
{
    const uint32_t colours = lay->colours, slots = lay->slots;
    const size_t nreal = 3 * (size_t)slots;
    const size_t nu32 = 3 * (size_t)slots + 2 * (size_t)colours + 1 + (regions ? regions + 1 : 0);
    char *block = aligned_alloc(64, (nreal * sizeof(R) + nu32 * sizeof(uint32_t) + 63) / 64 * 64);
    if (!block)
        return 0;
    R *reals = (R *)(void *)block;
    uint32_t *u32 = (uint32_t *)(void *)(block + nreal * sizeof(R));
    out->rest = reals;
    out->compliance = reals + slots;
    out->lambda = reals + 2 * (size_t)slots;
    out->i0 = u32;
    out->i1 = u32 + slots;
    out->source = u32 + 2 * (size_t)slots;
    out->colour_begin = u32 + 3 * (size_t)slots;
    out->colour_size = out->colour_begin + colours + 1;
    out->regions = regions;
    out->region_colour = regions ? out->colour_size + colours : NULL;
    out->block_ = block;
    out->count = (uint32_t)count;
    out->slots = slots;
    out->colours = colours;
    out->overflow_begin = lay->begin[colours];
    for (uint32_t k = 0; k <= colours; ++k)
        out->colour_begin[k] = lay->begin[k];
    for (uint32_t k = 0; k < colours; ++k)
        out->colour_size[k] = lay->size[k];
    return 1;
}

/* The slots' reals from their source, lambdas 0; padding: the colour's
 * first particle twice, a no-op for every kernel. */
static void soa_distance_set_reals(DS *out, const R *rest, const R *compliance)
{
    const uint32_t colours = out->colours, *begin = out->colour_begin, *size = out->colour_size;
    for (uint32_t k = 0; k <= colours; ++k) {
        /* colour k's real slots; k == colours: the overflow */
        const uint32_t s1 = k < colours ? begin[k] + size[k] : out->slots;
        for (uint32_t s = begin[k]; s < s1; ++s) {
            out->rest[s] = rest[out->source[s]];
            out->compliance[s] = compliance[out->source[s]];
            out->lambda[s] = 0;
        }
    }
    for (uint32_t k = 0; k < colours; ++k)
        for (uint32_t s = begin[k] + size[k]; s < begin[k + 1]; ++s) {
            out->i0[s] = out->i1[s] = out->i0[begin[k]];
            out->rest[s] = 1;
            out->compliance[s] = 0;
            out->lambda[s] = 0;
            out->source[s] = XPBD_PAD;
        }
}

/* The real slots of a set's colours that sit in runs (xpbd__runs_share). */
static uint32_t soa_runs_in(const DS *c)
{
    uint32_t in = 0;
    for (uint32_t k = 0; k < c->colours; ++k) {
        const uint32_t b = c->colour_begin[k];
        in += xpbd__runs_share(c->colour_size[k], c->i0 + b, c->i1 + b);
    }
    return in;
}

/* The set in the runs layout (runs 1) or in input order (runs 0), cut
 * into `regions` regions (0: none), max_colours 0: all in the overflow
 * (no regions). On error *out is zeroed. */
static xpbd_status soa_distance_set_lay(DS *out, size_t n, size_t count, const uint32_t *i0,
                                        const uint32_t *i1, const R *rest, const R *compliance,
                                        uint32_t max_colours, int runs, uint32_t regions)
{
    xpbd__layout lay;
    uint8_t *colour_of;
    uint32_t *order;
    if (max_colours == 0 || count == 0)
        regions = 0;
    xpbd_status st = soa_distance_set_colour(n, count, i0, i1, runs, regions, max_colours, &lay,
                                             &colour_of, &order);
    if (st != XPBD_OK)
        return st;
    if (!soa_distance_set_alloc(out, &lay, count, regions)) {
        free(colour_of);
        free(order);
        return XPBD_ERR_NOMEM;
    }
    /* stable fill: the colouring's order within each colour (the runs
     * layout then reorders each colour), the slots' data from their source */
    for (size_t j = 0; j < count; ++j) {
        const size_t k = order ? order[j] : j;
        const uint32_t s = lay.fill[colour_of[j]]++;
        out->i0[s] = i0[k];
        out->i1[s] = i1[k];
        out->source[s] = (uint32_t)k;
    }
    free(colour_of);
    if (regions)
        memcpy(out->region_colour, order + count, (regions + 1) * sizeof *order);
    const int ok = !order || (regions && !runs) || soa_runs_pack_colours(out);
    free(order);
    if (!ok) {
        soa_distance_set_free(out);
        return XPBD_ERR_NOMEM;
    }
    soa_distance_set_reals(out, rest, compliance);
    return XPBD_OK;
}

static xpbd_status soa_distance_set_build(DS *out, size_t n, size_t count, const uint32_t *i0,
                                         const uint32_t *i1, const R *rest, const R *compliance,
                                         const xpbd_colouring_options *options, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    uint32_t max_colours;
    xpbd_status st = soa_distance_set_check(n, count, i0, i1, rest, compliance, options,
                                            &max_colours, bad_index);
    if (st != XPBD_OK)
        return st;
    if (options && options->serial)
        return soa_distance_set_lay(out, n, count, i0, i1, rest, compliance, 0, 0, 0);
    const int layout = !options ? XPBD_LAYOUT_AUTO
                       : options->runs ? XPBD_LAYOUT_RUNS
                                       : options->layout;
    const uint32_t regions = options ? options->regions : 0u;
    if (layout == XPBD_LAYOUT_INPUT)
        return soa_distance_set_lay(out, n, count, i0, i1, rest, compliance, max_colours, 0,
                                    regions);
    st = soa_distance_set_lay(out, n, count, i0, i1, rest, compliance, max_colours, 1, regions);
    if (st != XPBD_OK || layout == XPBD_LAYOUT_RUNS ||
        (count > 0 && soa_runs_in(out) >= XPBD_LAYOUT_RUNS_SHARE * count))
        return st;
    /* XPBD_LAYOUT_AUTO, too few runs: input order */
    soa_distance_set_free(out);
    return soa_distance_set_lay(out, n, count, i0, i1, rest, compliance, max_colours, 0,
                                regions);
}

#endif /* XPBD_SELF */
