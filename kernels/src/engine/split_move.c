/* SPDX-License-Identifier: MIT */
/* Vertex splitting, the particle side (xpbd/engine.h, "vertex split"):
 * where every particle goes when a split adds copies (split.c makes the
 * plan), and the move itself, with each row's per-particle arrays
 * (engine/common.h: engine_kind.particles). */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/split_move.c"
#include "engine/common.h"

#  include "each_precision.h"

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* Vertex splitting, the particle side (once per precision): where every
 * particle goes when a split adds copies, and the move itself. */

/* The names of this file's functions, both precisions (precision.h). */
#define xpbd__engine_layout PREC(xpbd__engine_layout_f32, xpbd__engine_layout_f64)
#define xpbd__engine_move PREC(xpbd__engine_move_f32, xpbd__engine_move_f64)
#define engine_move_rows PREC(engine_move_rows_f32, engine_move_rows_f64)
#define engine_copy_rows PREC(engine_copy_rows_f32, engine_copy_rows_f64)

#define E SFX(xpbd_engine)

/* Where every particle goes when copies are added (xpbd/engine.h: at the
 * end of their body's range, or of the array): map[n + copies] (old
 * particles, then the copies) and the new body ranges begin[bodies + 1];
 * pieces[v] counts the copies of v. */
void xpbd__engine_layout(const E *e, const uint32_t *src, size_t copies, uint32_t *map,
                              size_t *begin, uint32_t *pieces, size_t *per_body)
{
    const size_t n = e->particles.count;
    const uint32_t nb = e->sleep.body_count;
    memset(pieces, 0, n * sizeof *pieces);
    memset(per_body, 0, ((size_t)nb + 1) * sizeof *per_body); /* [nb]: free copies */
    for (size_t j = 0; j < copies; ++j) {
        const uint32_t b = engine_body_of(e->body_begin, nb, src[j]);
        per_body[b == UINT32_MAX ? nb : b]++;
        pieces[src[j]]++;
    }
    size_t shift = 0; /* copies inserted before the current body's end */
    for (uint32_t b = 0; b < nb; ++b) {
        begin[b] = e->body_begin[b] + shift;
        shift += per_body[b];
    }
    if (nb)
        begin[nb] = e->body_begin[nb] + shift;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t b = engine_body_of(e->body_begin, nb, i);
        map[i] = (uint32_t)(i + (b != UINT32_MAX ? begin[b] - e->body_begin[b]
                                                 : (nb && i >= e->body_begin[nb] ? shift : 0)));
    }
    memset(per_body, 0, ((size_t)nb + 1) * sizeof *per_body); /* now: copies placed so far */
    for (size_t j = 0; j < copies; ++j) {
        const uint32_t b = engine_body_of(e->body_begin, nb, src[j]);
        if (b == UINT32_MAX)
            map[n + j] = (uint32_t)(n + shift + per_body[nb]++);
        else
            map[n + j] =
                (uint32_t)(e->body_begin[b + 1] + (begin[b] - e->body_begin[b]) + per_body[b]++);
    }
}

/* Row r's per-particle arrays of particle i (of `from`) at j (of `to`):
 * a particle index through map (a particle naming itself names none). */
static void engine_move_rows(const E *from, E *to, size_t i, size_t j, const uint32_t *map)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_slot *a = &from->slot[r];
        engine_slot *b = &to->slot[r];
        if (a->preal)
            b->preal[j] = a->preal[i];
        if (a->pindex) {
            const uint32_t k = a->pindex[i];
            b->pindex[j] = k == i ? (uint32_t)j : map[k]; /* itself: none */
        }
    }
}

/* Row r's per-particle arrays of copy c from its vertex's new place i (in
 * `to`): the vertex's values (a row's fresh real: 0). */
static void engine_copy_rows(const E *from, E *to, size_t i, size_t c)
{
    for (unsigned r = 0; xpbd__engine_kinds[r]; ++r) {
        const engine_kind *k = xpbd__engine_kinds[r];
        engine_slot *b = &to->slot[r];
        if (from->slot[r].preal)
            b->preal[c] = k->fresh ? 0 : b->preal[i];
        if (from->slot[r].pindex)
            b->pindex[c] = b->pindex[i] == i ? (uint32_t)c : b->pindex[i];
    }
}

/* Copies the particles of `from` (n of them) to their places map[] in
 * `to`, then each copy from its vertex's new place, the vertex's mass
 * shared equally among its pieces. `to` may be `from` itself (arrays with
 * room for the copies): map only moves particles up, so walking down reads
 * every particle before anything overwrites it. */
void xpbd__engine_move(const E *from, E *to, size_t n, const uint32_t *src, size_t copies,
                       const uint32_t *map, const uint32_t *pieces)
{
    const P *op = &from->particles;
    P *np = &to->particles;
    R *const oa[10] = {op->x, op->y, op->z, op->px, op->py, op->pz, op->vx, op->vy, op->vz, op->w};
    R *const na[10] = {np->x, np->y, np->z, np->px, np->py, np->pz, np->vx, np->vy, np->vz, np->w};
    for (size_t i = n; i-- > 0;) {
        const size_t j = map[i];
        for (int k = 0; k < 10; ++k)
            na[k][j] = oa[k][i];
        memmove(to->rest_xyz + 3 * j, from->rest_xyz + 3 * i, 3 * sizeof(R));
        if (from->radius)
            to->radius[j] = from->radius[i];
        engine_move_rows(from, to, i, j, map);
        to->origin[j] = from->origin[i];
    }
    for (size_t j = 0; j < copies; ++j) /* the split vertices' mass, shared (src ascends) */
        if (j == 0 || src[j] != src[j - 1])
            np->w[map[src[j]]] = np->w[map[src[j]]] * (R)(pieces[src[j]] + 1);
    for (size_t j = 0; j < copies; ++j) {
        const size_t i = map[src[j]], c = map[n + j];
        for (int k = 0; k < 10; ++k)
            na[k][c] = na[k][i];
        memcpy(to->rest_xyz + 3 * c, to->rest_xyz + 3 * i, 3 * sizeof(R));
        if (from->radius)
            to->radius[c] = to->radius[i];
        engine_copy_rows(from, to, i, c);
        to->origin[c] = to->origin[i];
    }
    np->count = n + copies;
}

#undef E

#endif /* XPBD_SELF */
