/* SPDX-License-Identifier: MIT */
/* Contact sets: colouring without allocation, and the uniform-grid broad
 * phase (xpbd/contacts.h). */
#include "internal.h"

#include <string.h>

size_t xpbd_contact_slots(size_t max_contacts)
{
    /* every colour may end in a partial batch */
    return max_contacts + (size_t)XPBD_MAX_COLOURS * (XPBD_BATCH - 1);
}

xpbd_status xpbd_contact_set_init(xpbd_contact_set *cs, uint32_t *i0, uint32_t *i1, size_t slots,
                                  size_t max_contacts)
{
    if (!cs || !i0 || !i1 || max_contacts > (size_t)INT32_MAX / 2 ||
        slots < xpbd_contact_slots(max_contacts) || slots > UINT32_MAX)
        return XPBD_ERR_ARGUMENT;
    memset(cs, 0, sizeof *cs);
    cs->capacity = (uint32_t)slots;
    cs->max_contacts = (uint32_t)max_contacts;
    cs->i0 = i0;
    cs->i1 = i1;
    return XPBD_OK;
}

/* Table size for the spatial hash: a power of two >= 2n. */
static size_t hash_table_size(size_t n)
{
    size_t t = 16;
    while (t < 2 * n)
        t *= 2;
    return t;
}

/* Workspace layout, as byte offsets from the start of the work buffer:
 *   used [n] u64 | start [T + 1] u32 | sorted [n] u32 | key [n] u32 |
 *   pi0 [max_contacts] u32 | pi1 [max_contacts] u32 | colour_of [max_contacts] u8
 * Offsets are computed without a base pointer, so sizing never does pointer
 * arithmetic (on NULL, that would be undefined behaviour). */
typedef struct work_offsets {
    size_t used, start, sorted, key, pi0, pi1, colour_of, bytes, table;
} work_offsets;

static work_offsets offsets(size_t n, size_t max_contacts)
{
    work_offsets o;
    o.table = hash_table_size(n);
    o.used = 0;
    o.start = o.used + n * sizeof(uint64_t);
    o.sorted = o.start + (o.table + 1) * sizeof(uint32_t);
    o.key = o.sorted + n * sizeof(uint32_t);
    o.pi0 = o.key + n * sizeof(uint32_t);
    o.pi1 = o.pi0 + max_contacts * sizeof(uint32_t);
    o.colour_of = o.pi1 + max_contacts * sizeof(uint32_t);
    o.bytes = o.colour_of + max_contacts;
    return o;
}

typedef struct work_layout {
    uint64_t *used;     /* [n] colour bits per particle */
    uint32_t *start;    /* [T + 1] bucket starts */
    uint32_t *sorted;   /* [n] particles by bucket */
    uint32_t *key;      /* [n] bucket of each particle */
    uint32_t *pi0;      /* [max_contacts] pairs before colouring */
    uint32_t *pi1;
    uint8_t *colour_of; /* [max_contacts] */
    size_t table;
} work_layout;

static work_layout layout(void *work, size_t n, size_t max_contacts)
{
    const work_offsets o = offsets(n, max_contacts);
    char *b = work;
    work_layout w;
    w.table = o.table;
    w.used = (uint64_t *)(void *)(b + o.used);
    w.start = (uint32_t *)(void *)(b + o.start);
    w.sorted = (uint32_t *)(void *)(b + o.sorted);
    w.key = (uint32_t *)(void *)(b + o.key);
    w.pi0 = (uint32_t *)(void *)(b + o.pi0);
    w.pi1 = (uint32_t *)(void *)(b + o.pi1);
    w.colour_of = (uint8_t *)(b + o.colour_of);
    return w;
}

size_t xpbd_contacts_work_bytes(size_t n, size_t max_contacts)
{
    if (n > (size_t)INT32_MAX || max_contacts > (size_t)INT32_MAX)
        return SIZE_MAX;
    return offsets(n, max_contacts).bytes + 8;
}

/* Colours the pairs pi0/pi1 into cs (colour.c), padding every colour to
 * whole batches with a no-op pair (one particle twice). */
static void colour_pairs(xpbd_contact_set *cs, size_t n, uint32_t count, const uint32_t *pi0,
                         const uint32_t *pi1, uint32_t max_colours, uint64_t *used,
                         uint8_t *colour_of)
{
    xpbd__layout lay;
    const uint32_t *const idx[4] = {pi0, pi1, pi0, pi1};
    xpbd__colour(n, count, 2, idx, 1, max_colours, used, colour_of, &lay);
    for (uint32_t k = 0; k < lay.colours; ++k) {
        cs->colour_begin[k] = lay.begin[k];
        cs->colour_size[k] = lay.size[k];
    }
    cs->colour_begin[lay.colours] = lay.overflow_begin;
    cs->overflow_begin = lay.overflow_begin;
    cs->colours = lay.colours;
    cs->slots = lay.slots;
    cs->count = count;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t s = lay.fill[colour_of[k]]++;
        cs->i0[s] = pi0[k];
        cs->i1[s] = pi1[k];
    }
    for (uint32_t k = 0; k < lay.colours; ++k)
        for (uint32_t s = lay.begin[k] + lay.size[k]; s < lay.begin[k + 1]; ++s)
            cs->i0[s] = cs->i1[s] = cs->i0[lay.begin[k]];
}

static void empty(xpbd_contact_set *cs)
{
    cs->count = cs->dropped = cs->slots = cs->colours = cs->overflow_begin = 0;
    cs->colour_begin[0] = 0;
}

static int set_usable(const xpbd_contact_set *cs)
{
    return cs && cs->i0 && cs->i1 && cs->capacity >= xpbd_contact_slots(cs->max_contacts);
}

xpbd_status xpbd_contact_set_assign(xpbd_contact_set *cs, size_t n, size_t count,
                                    const uint32_t *i0, const uint32_t *i1, uint32_t max_colours,
                                    int serial, void *work, size_t work_bytes, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!set_usable(cs) || (count && (!i0 || !i1)) || !work || (uintptr_t)work % 8 ||
        n > (size_t)INT32_MAX)
        return XPBD_ERR_ARGUMENT;
    empty(cs);
    if (max_colours > XPBD_MAX_COLOURS)
        return XPBD_ERR_CONFIG;
    if (max_colours == 0)
        max_colours = 32;
    if (serial)
        max_colours = 0;
    const size_t kept = count < cs->max_contacts ? count : cs->max_contacts;
    if (work_bytes < xpbd_contacts_work_bytes(n, cs->max_contacts))
        return XPBD_ERR_ARGUMENT;
    for (size_t k = 0; k < count; ++k)
        if (i0[k] >= n || i1[k] >= n || i0[k] == i1[k]) {
            if (bad_index)
                *bad_index = k;
            return XPBD_ERR_INDEX;
        }
    work_layout w = layout(work, n, cs->max_contacts);
    colour_pairs(cs, n, (uint32_t)kept, i0, i1, max_colours, w.used, w.colour_of);
    cs->dropped = (uint32_t)(count - kept);
    return cs->dropped ? XPBD_OVERFLOW : XPBD_OK;
}

xpbd_status xpbd_contact_set_validate(const xpbd_contact_set *cs, size_t n, uint32_t *stamp,
                                      size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (!cs || !cs->i0 || !cs->i1 || cs->slots > cs->capacity || n > (size_t)INT32_MAX ||
        cs->colours > XPBD_MAX_COLOURS || (cs->colours && !stamp) ||
        !xpbd__layout_ok(cs->count, cs->slots, cs->colours, cs->colour_begin, cs->colour_size,
                         cs->overflow_begin))
        return XPBD_ERR_ARGUMENT;
    /* every slot: indices in range; a real pair of two particles, a padding
     * pair of one particle twice (a no-op) */
    for (uint32_t k = 0, s = 0; s < cs->slots; ++s) {
        while (k < cs->colours && s >= cs->colour_begin[k + 1])
            ++k;
        const int pad = k < cs->colours && s >= cs->colour_begin[k] + cs->colour_size[k];
        if (cs->i0[s] >= n || cs->i1[s] >= n || (cs->i0[s] == cs->i1[s]) != pad) {
            if (bad_index)
                *bad_index = s;
            return XPBD_ERR_INDEX;
        }
    }
    /* no particle twice in a colour */
    const uint32_t *const idx[4] = {cs->i0, cs->i1, NULL, NULL};
    const uint32_t r = xpbd__colour_repeat(cs->colours, cs->colour_begin, cs->colour_size, idx, 2,
                                           NULL, n, stamp);
    if (r != UINT32_MAX) {
        if (bad_index)
            *bad_index = r;
        return XPBD_ERR_INDEX;
    }
    return XPBD_OK;
}

#define XPBD_REAL_F32
#include "contacts_tmpl.h"
#define XPBD_REAL_F64
#include "contacts_tmpl.h"
