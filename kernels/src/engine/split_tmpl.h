/* SPDX-License-Identifier: MIT */
/* Vertex splitting, the particle side (template over R): where every
 * particle goes when a split adds copies, and the move itself. */
#include "precision.h"

#define E SFX(xpbd_engine)

/* Where every particle goes when copies are added (xpbd/engine.h: at the
 * end of their body's range, or of the array): map[n + copies] (old
 * particles, then the copies) and the new body ranges begin[bodies + 1];
 * pieces[v] counts the copies of v. */
void SFX(xpbd__engine_layout)(const E *e, const uint32_t *src, size_t copies, uint32_t *map,
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

/* Copies the particles of `from` (n of them) to their places map[] in
 * `to`, then each copy from its vertex's new place, the vertex's mass
 * shared equally among its pieces. `to` may be `from` itself (arrays with
 * room for the copies): map only moves particles up, so walking down reads
 * every particle before anything overwrites it. */
void SFX(xpbd__engine_move)(const E *from, E *to, size_t n, const uint32_t *src, size_t copies,
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
        if (from->radius) {
            to->radius[j] = from->radius[i];
            to->plane_impulse[j] = from->plane_impulse[i];
        }
        if (from->tether_anchor) {
            const uint32_t a = from->tether_anchor[i];
            to->tether_anchor[j] = a == i ? (uint32_t)j : map[a]; /* itself: none */
            to->tether_length[j] = from->tether_length[i];
        }
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
        if (from->radius) {
            to->radius[c] = to->radius[i];
            to->plane_impulse[c] = 0;
        }
        if (from->tether_anchor) {
            to->tether_anchor[c] = to->tether_anchor[i] == i ? (uint32_t)c : to->tether_anchor[i];
            to->tether_length[c] = to->tether_length[i];
        }
        to->origin[c] = to->origin[i];
    }
    np->count = n + copies;
}

#undef E
#define XPBD_PRECISION_END
#include "precision.h"
