/* SPDX-License-Identifier: MIT */
/* Vertex splitting (xpbd/engine.h, "vertex split"): the split plan on
 * indices only, and xpbd_tear_split, which applies it to a host's own
 * topology. The engine moves its particles by the plan in split_move.c.
 * Its lists are the three roles of a tear (engine/common.h:
 * xpbd__tear_role), named as the public function names them. */
#include "engine/common.h"

/* ------------------------------------------------------ small helpers --- */

/* Incidence lists (CSR): for each vertex, the elements of `arity` vertices
 * (count of them, row-major in idx) that contain it. begin [n + 1]. */
static int split_csr(size_t n, const uint32_t *idx, unsigned arity, size_t count, size_t **begin,
                     uint32_t **list)
{
    size_t *b = calloc(n + 1, sizeof *b);
    uint32_t *l = malloc((arity * count + 1) * sizeof *l);
    if (!b || !l) {
        free(b);
        free(l);
        return -1;
    }
    for (size_t k = 0; k < arity * count; ++k)
        b[idx[k] + 1]++;
    for (size_t v = 0; v < n; ++v)
        b[v + 1] += b[v];
    size_t *fill = b; /* fill with begin[v] ... then shift back */
    for (size_t k = 0; k < count; ++k)
        for (unsigned j = 0; j < arity; ++j)
            l[fill[idx[arity * k + j]]++] = (uint32_t)k;
    for (size_t v = n; v > 0; --v)
        b[v] = b[v - 1];
    b[0] = 0;
    *begin = b;
    *list = l;
    return 0;
}

static uint32_t split_find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a)
        a = parent[a] = parent[parent[a]];
    return a;
}

static void split_union(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = split_find(parent, a);
    b = split_find(parent, b);
    if (a != b)
        parent[a < b ? b : a] = a < b ? a : b;
}

static uint32_t split_other(const uint32_t *edge, uint32_t k, uint32_t v)
{
    return edge[2 * (size_t)k] == v ? edge[2 * (size_t)k + 1] : edge[2 * (size_t)k];
}

static int split_pair_in(const uint64_t *keys, size_t n, uint32_t a, uint32_t b)
{
    const uint64_t k = engine_pair_key(a, b);
    return n && bsearch(&k, keys, n, sizeof *keys, engine_pair_cmp) != NULL;
}

/* Every pair of corners of every tet, sorted: the tets that hold a pair
 * are a range (key = the pair's engine_pair_key, then the tet). */
typedef struct split_tpair {
    uint64_t key;
    uint32_t tet;
    uint32_t kept; /* some tet of this pair's range stays (not dropped) */
} split_tpair;

static int split_tpair_cmp(const void *a, const void *b)
{
    const split_tpair *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->tet < y->tet ? -1 : x->tet > y->tet;
}

static const int split_corner[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

/* ------------------------------------------------------- the plan state --- */

/* The frame's topology, its sorted look-up structures and the per-vertex
 * work arrays of one split plan. */
typedef struct split_plan {
    /* in: the frame's topology before the tear */
    size_t n, ne, nt, nb;
    const uint32_t *edge, *tet, *bend;
    const uint8_t *torn, *drop_t;
    uint8_t *drop_b;
    /* out: rewired copies, the vertex each copy splits from */
    uint32_t *ev, *tv, *bv;
    uint32_t *out;
    size_t out_cap, copies;
    /* incidence: edges (el: each vertex's edges sorted by other end), tets, bends */
    size_t *eb, *tb, *bb;
    uint32_t *e0, *el, *tl, *bl;
    split_tpair *tp;
    size_t ntp;
    uint64_t *cut;
    size_t nc;
    size_t most; /* the largest neighbour count bound */
    /* per vertex */
    uint8_t *cand;
    uint32_t *stamp, *local;
    size_t *fill;
    uint32_t *work;
    uint64_t *order;
    uint32_t *nbr, *in_a, *pa, *pb, *lo, *id, *size, *min_b;
} split_plan;

static void split_plan_free(split_plan *s)
{
    void *const blocks[] = {s->out, s->work, s->order, s->cut, s->tp, s->cand, s->stamp,
                            s->local, s->fill, s->eb, s->e0, s->el, s->tb, s->tl, s->bb, s->bl};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k)
        free(blocks[k]);
}

/* In the edge list of a (sorted by other end), the range of edges to b. */
static void split_edges_to(const split_plan *s, uint32_t a, uint32_t b, size_t *first,
                           size_t *last)
{
    size_t lo = s->eb[a], hi = s->eb[a + 1];
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (split_other(s->edge, s->el[mid], a) < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    hi = s->eb[a + 1];
    while (lo < hi && split_other(s->edge, s->el[lo], a) == b)
        ++lo;
    *last = lo;
}

/* Whether a tet holds the pair (a, b): NULL if none, else one entry of the
 * pair's range (whose `kept` says whether one of them stays). */
static const split_tpair *split_tets_of(const split_plan *s, uint32_t a, uint32_t b)
{
    const uint64_t k = engine_pair_key(a, b);
    size_t lo = 0, hi = s->ntp;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->tp[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->ntp && s->tp[lo].key == k ? s->tp + lo : NULL;
}

/* 1 if a and b share an edge or a tet. */
static int split_adjacent(const split_plan *s, uint32_t a, uint32_t b)
{
    size_t f, l;
    split_edges_to(s, a, b, &f, &l);
    if (l > f)
        return 1;
    return split_tets_of(s, a, b) != NULL;
}

/* The incidence lists, each vertex's edges sorted by their other end (the
 * transpose of the incidence lists, walked in vertex order), and the bound
 * on any vertex's neighbour count. 0, or -1 when out of memory. */
static int split_index(split_plan *s)
{
    const size_t n = s->n;
    s->cand = calloc(n + 1, 1);
    s->stamp = calloc(n + 1, sizeof *s->stamp);
    s->local = malloc((n + 1) * sizeof *s->local);
    s->fill = malloc((n + 1) * sizeof *s->fill);
    if (!s->cand || !s->stamp || !s->local || !s->fill ||
        split_csr(n, s->edge, 2, s->ne, &s->eb, &s->e0) ||
        split_csr(n, s->tet, 4, s->nt, &s->tb, &s->tl) ||
        split_csr(n, s->bend, 4, s->nb, &s->bb, &s->bl))
        return -1;
    s->el = malloc((2 * s->ne + 1) * sizeof *s->el);
    if (!s->el)
        return -1;
    memcpy(s->fill, s->eb, n * sizeof *s->fill);
    for (size_t o = 0; o < n; ++o)
        for (size_t q = s->eb[o]; q < s->eb[o + 1]; ++q) {
            const uint32_t v = split_other(s->edge, s->e0[q], (uint32_t)o);
            s->el[s->fill[v]++] = s->e0[q];
        }
    s->most = 1;
    for (size_t v = 0; v < n; ++v) {
        const size_t d = (s->eb[v + 1] - s->eb[v]) + 3 * (s->tb[v + 1] - s->tb[v]);
        s->most = d > s->most ? d : s->most;
    }
    return 0;
}

/* The pairs the tear cuts: torn edges, and every corner pair of a dropped
 * tet (a tet joins the neighbours of a vertex that are its corners); and
 * every tet corner pair sorted, each knowing whether a tet of it stays. */
static int split_cuts(split_plan *s)
{
    size_t ncut = 0;
    for (size_t k = 0; k < s->ne; ++k)
        ncut += s->torn[k] != 0;
    for (size_t k = 0; k < s->nt; ++k)
        ncut += s->drop_t[k] ? 6 : 0;
    s->tp = malloc((6 * s->nt + 1) * sizeof *s->tp);
    s->cut = malloc((ncut + 1) * sizeof *s->cut);
    if (!s->tp || !s->cut)
        return -1;
    const uint32_t *tet = s->tet;
    for (size_t k = 0; k < s->nt; ++k)
        for (int q = 0; q < 6; ++q) {
            const uint32_t a = tet[4 * k + (size_t)split_corner[q][0]];
            const uint32_t b = tet[4 * k + (size_t)split_corner[q][1]];
            s->tp[6 * k + (size_t)q].key = engine_pair_key(a, b);
            s->tp[6 * k + (size_t)q].tet = (uint32_t)k;
        }
    qsort(s->tp, 6 * s->nt, sizeof *s->tp, split_tpair_cmp);
    s->ntp = 6 * s->nt;
    for (size_t i = 0, j; i < s->ntp; i = j) { /* per pair: does a tet of it stay? */
        uint32_t kept = 0;
        for (j = i; j < s->ntp && s->tp[j].key == s->tp[i].key; ++j)
            kept |= !s->drop_t[s->tp[j].tet];
        for (size_t q = i; q < j; ++q)
            s->tp[q].kept = kept;
    }
    s->nc = 0;
    for (size_t k = 0; k < s->ne; ++k)
        if (s->torn[k])
            s->cut[s->nc++] = engine_pair_key(s->edge[2 * k], s->edge[2 * k + 1]);
    for (size_t k = 0; k < s->nt; ++k)
        for (int q = 0; q < 6 && s->drop_t[k]; ++q)
            s->cut[s->nc++] = engine_pair_key(tet[4 * k + (size_t)split_corner[q][0]],
                                              tet[4 * k + (size_t)split_corner[q][1]]);
    qsort(s->cut, s->nc, sizeof *s->cut, engine_pair_cmp);
    return 0;
}

/* Candidates: the ends of each cut pair and their common neighbours (whose
 * links lose that pair's joint). */
static void split_candidates(split_plan *s)
{
    const size_t *eb = s->eb, *tb = s->tb;
    for (size_t k = 0; k < s->nc; ++k) {
        if (k && s->cut[k] == s->cut[k - 1])
            continue;
        uint32_t a = (uint32_t)(s->cut[k] >> 32), l = (uint32_t)s->cut[k];
        if (a == l)
            continue;
        if ((eb[a + 1] - eb[a]) + (tb[a + 1] - tb[a]) > (eb[l + 1] - eb[l]) + (tb[l + 1] - tb[l])) {
            const uint32_t x = a;
            a = l;
            l = x;
        }
        s->cand[a] = s->cand[l] = 1;
        for (size_t q = eb[a]; q < eb[a + 1]; ++q) {
            const uint32_t c = split_other(s->edge, s->el[q], a);
            if (!s->cand[c] && c != l && split_adjacent(s, c, l))
                s->cand[c] = 1;
        }
        for (size_t q = tb[a]; q < tb[a + 1]; ++q)
            for (int j = 0; j < 4; ++j) {
                const uint32_t c = s->tet[4 * (size_t)s->tl[q] + j];
                if (!s->cand[c] && c != a && c != l && split_adjacent(s, c, l))
                    s->cand[c] = 1;
            }
    }
}

/* Per vertex: neighbours (global index, reached through a kept element),
 * union-find before (B) and after (A) the tear, fan minima and sizes, the
 * smallest substantial fan minimum of each B component, new ids. */
static int split_work(split_plan *s)
{
    const size_t most = s->most;
    s->work = malloc(8 * most * sizeof *s->work);
    s->order = malloc(most * sizeof *s->order);
    if (!s->work || !s->order)
        return -1;
    s->nbr = s->work;
    s->in_a = s->work + most;
    s->pa = s->work + 2 * most;
    s->pb = s->work + 3 * most;
    s->lo = s->work + 4 * most;
    s->id = s->work + 5 * most;
    s->size = s->work + 6 * most;
    s->min_b = s->work + 7 * most;
    return 0;
}

/* Adds neighbour a of v (stamp gen) if new; marks it as reached after the
 * tear when the element through which it is reached is kept. */
static void split_add_neighbour(split_plan *s, uint32_t v, uint32_t gen, uint32_t *d, uint32_t a,
                                int kept)
{
    if (a == v)
        return;
    if (s->stamp[a] != gen) {
        s->stamp[a] = gen;
        s->local[a] = *d;
        s->nbr[*d] = a;
        s->in_a[*d] = 0;
        s->pa[*d] = s->pb[*d] = *d;
        ++*d;
    }
    s->in_a[s->local[a]] |= (uint32_t)kept;
}

/* v's neighbours through edges and tets; returns their count. */
static uint32_t split_neighbours(split_plan *s, uint32_t v, uint32_t gen)
{
    uint32_t d = 0;
    for (size_t q = s->eb[v]; q < s->eb[v + 1]; ++q)
        split_add_neighbour(s, v, gen, &d, split_other(s->edge, s->el[q], v), !s->torn[s->el[q]]);
    for (size_t q = s->tb[v]; q < s->tb[v + 1]; ++q) {
        const uint32_t k = s->tl[q];
        for (int j = 0; j < 4; ++j)
            split_add_neighbour(s, v, gen, &d, s->tet[4 * (size_t)k + j], !s->drop_t[k]);
    }
    return d;
}

/* Link edges of v: an edge or a tet joining two neighbours joins them in B
 * (before) and, when it is kept, in A (after); a neighbour with more edges
 * than v has neighbours is searched, not scanned. */
static void split_link(split_plan *s, uint32_t v, uint32_t gen, uint32_t d)
{
    uint32_t *const pa = s->pa, *const pb = s->pb, *const in_a = s->in_a;
    for (uint32_t i = 0; i < d; ++i) {
        const uint32_t a = s->nbr[i];
        const int scan = s->eb[a + 1] - s->eb[a] <= d;
        for (uint32_t j = 0; j < (scan ? 1u : d); ++j) {
            size_t f = s->eb[a], l = s->eb[a + 1];
            if (!scan) {
                if (j == i)
                    continue;
                split_edges_to(s, a, s->nbr[j], &f, &l);
            }
            for (size_t q = f; q < l; ++q) {
                const uint32_t k = s->el[q], b = split_other(s->edge, k, a);
                if (b == v || s->stamp[b] != gen)
                    continue;
                split_union(pb, i, s->local[b]);
                if (!s->torn[k] && in_a[i] && in_a[s->local[b]])
                    split_union(pa, i, s->local[b]);
            }
        }
        if (3 * (s->tb[a + 1] - s->tb[a]) <= d) {
            for (size_t q = s->tb[a]; q < s->tb[a + 1]; ++q) {
                const uint32_t k = s->tl[q];
                for (int j = 0; j < 4; ++j) {
                    const uint32_t b = s->tet[4 * (size_t)k + j];
                    if (b == v || b == a || s->stamp[b] != gen)
                        continue;
                    split_union(pb, i, s->local[b]);
                    if (!s->drop_t[k] && in_a[i] && in_a[s->local[b]])
                        split_union(pa, i, s->local[b]);
                }
            }
        } else {
            for (uint32_t j = 0; j < d; ++j) {
                const split_tpair *hit = j == i ? NULL : split_tets_of(s, a, s->nbr[j]);
                if (!hit)
                    continue;
                split_union(pb, i, j);
                if (hit->kept && in_a[i] && in_a[j])
                    split_union(pa, i, j);
            }
        }
    }
}

/* The fans that move (A roots, listed in order[] by ascending minimum):
 * fans get their lowest neighbour index and size; a wire (a fan of one
 * neighbour: the edge v-a is all that is left around it) separates nothing
 * and stays on v. A substantial fan gets a new particle when a substantial
 * fan of the same B component has a lower minimum. Returns their count. */
static uint32_t split_fans(split_plan *s, uint32_t d)
{
    for (uint32_t i = 0; i < d; ++i) {
        s->lo[i] = s->min_b[i] = UINT32_MAX;
        s->size[i] = 0;
        s->id[i] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < d; ++i)
        if (s->in_a[i]) {
            const uint32_t r = split_find(s->pa, i);
            s->lo[r] = s->nbr[i] < s->lo[r] ? s->nbr[i] : s->lo[r];
            s->size[r]++;
        }
    for (uint32_t r = 0; r < d; ++r)
        if (s->size[r] >= 2) {
            const uint32_t rb = split_find(s->pb, r);
            s->min_b[rb] = s->lo[r] < s->min_b[rb] ? s->lo[r] : s->min_b[rb];
        }
    uint32_t need = 0;
    for (uint32_t r = 0; r < d; ++r)
        if (s->size[r] >= 2 && s->lo[r] > s->min_b[split_find(s->pb, r)])
            s->order[need++] = (uint64_t)s->lo[r] << 32 | r;
    return need;
}

/* Gives each of the `need` moving fans of v its new particle: 0, -1 when
 * out of memory, -2 past the index range. */
static int split_assign(split_plan *s, uint32_t v, uint32_t need)
{
    if (s->n + s->copies + need > (size_t)INT32_MAX)
        return -2;
    if (s->copies + need > s->out_cap) {
        s->out_cap = 2 * (s->copies + need) + 16;
        uint32_t *grown = realloc(s->out, s->out_cap * sizeof *grown);
        if (!grown)
            return -1;
        s->out = grown;
    }
    qsort(s->order, need, sizeof *s->order, engine_pair_cmp); /* ascending minimum */
    for (uint32_t t = 0; t < need; ++t) {
        s->id[(uint32_t)s->order[t]] = (uint32_t)(s->n + s->copies);
        s->out[s->copies++] = v;
    }
    return 0;
}

/* Rewires v's kept elements on the moved fans; a bending stencil whose
 * vertices are on two fans is dropped. */
static void split_rewire(split_plan *s, uint32_t v, uint32_t gen)
{
    const uint32_t *edge = s->edge, *tet = s->tet, *bend = s->bend;
    for (size_t q = s->eb[v]; q < s->eb[v + 1]; ++q) {
        const uint32_t k = s->el[q];
        if (s->torn[k])
            continue;
        const int a = edge[2 * (size_t)k] == v ? 0 : 1;
        const uint32_t r = split_find(s->pa, s->local[edge[2 * (size_t)k + 1 - a]]);
        if (s->id[r] != UINT32_MAX)
            s->ev[2 * (size_t)k + a] = s->id[r];
    }
    for (size_t q = s->tb[v]; q < s->tb[v + 1]; ++q) {
        const uint32_t k = s->tl[q];
        if (s->drop_t[k])
            continue;
        uint32_t r = UINT32_MAX;
        for (int j = 0; j < 4 && r == UINT32_MAX; ++j)
            if (tet[4 * (size_t)k + j] != v)
                r = split_find(s->pa, s->local[tet[4 * (size_t)k + j]]);
        for (int j = 0; j < 4 && r != UINT32_MAX && s->id[r] != UINT32_MAX; ++j)
            if (tet[4 * (size_t)k + j] == v)
                s->tv[4 * (size_t)k + j] = s->id[r];
    }
    for (size_t q = s->bb[v]; q < s->bb[v + 1]; ++q) {
        const uint32_t k = s->bl[q];
        if (s->drop_b[k])
            continue;
        uint32_t r = UINT32_MAX;
        int conflict = 0;
        for (int j = 0; j < 4; ++j) {
            const uint32_t a = bend[4 * (size_t)k + j];
            if (a == v || s->stamp[a] != gen || !s->in_a[s->local[a]])
                continue;
            const uint32_t ra = split_find(s->pa, s->local[a]);
            conflict |= r != UINT32_MAX && ra != r;
            r = ra;
        }
        if (conflict)
            s->drop_b[k] = 1;
        else
            for (int j = 0; j < 4 && r != UINT32_MAX && s->id[r] != UINT32_MAX; ++j)
                if (bend[4 * (size_t)k + j] == v)
                    s->bv[4 * (size_t)k + j] = s->id[r];
    }
}

/* The split plan (xpbd/engine.h, "vertex split"), on indices only. In: the
 * frame's topology before the tear (s->edge with torn[] flags, tets with
 * drop_t[], bends with drop_b[]). Out: ev, tv, bv (copies of edge, tet,
 * bend, same order) with every endpoint that moves to a new particle
 * rewritten to n + j for the j-th new particle; more drop_b[] flags
 * (stencils across two fans); s->out [s->copies] the vertex each new
 * particle splits from, ascending. 0; -1 when out of memory, -2 when the
 * particles would pass INT32_MAX (the outputs are then unusable).
 *
 * Cost: O(topology log topology) for the sorted lists, then per vertex
 * near the tear (d neighbours) the elements among its neighbours: each
 * neighbour's edges and tets are scanned when there are at most about d of
 * them and searched pair by pair otherwise, so a hub next to the tear costs
 * O(d log) per neighbour, not its whole degree: O(d^2 log) per vertex at
 * worst (dense graphs), O(d log) for meshes. */
static int split_plan_run(split_plan *s)
{
    if (split_index(s) || split_cuts(s))
        return -1;
    split_candidates(s);
    if (split_work(s))
        return -1;
    for (size_t v = 0; v < s->n; ++v) {
        if (!s->cand[v])
            continue;
        const uint32_t gen = (uint32_t)v + 1;
        const uint32_t d = split_neighbours(s, (uint32_t)v, gen);
        if (d < 2)
            continue;
        split_link(s, (uint32_t)v, gen, d);
        const uint32_t need = split_fans(s, d);
        if (!need)
            continue;
        const int rc = split_assign(s, (uint32_t)v, need);
        if (rc)
            return rc;
        split_rewire(s, (uint32_t)v, gen);
    }
    return 0;
}

/* ------------------------------------------------------ xpbd_tear_split --- */

/* 1 if a-b is a torn edge: a search of the sorted keys when there are some,
 * else (their allocation failed) a scan of the edges. */
static int split_pair_torn(const uint64_t *keys, size_t nt, const uint32_t *edge, size_t edges,
                           const uint8_t *torn, uint32_t a, uint32_t b)
{
    if (keys)
        return split_pair_in(keys, nt, a, b);
    const uint64_t k = engine_pair_key(a, b);
    for (size_t e = 0; e < edges; ++e)
        if (torn[e] && engine_pair_key(edge[2 * e], edge[2 * e + 1]) == k)
            return 1;
    return 0;
}

/* The tets and bending stencils a tear removes: those with a torn edge
 * among their mesh edges (all six pairs of a tet; the shared edge and the
 * four sides, not 2-3, of a bending stencil). The flags are always written
 * (what KEEP_HINGES returns and what NOMEM leaves); returns 0, or -1 when
 * the sorted keys could not be allocated (the flags then come from a scan). */
static int split_drops(const uint32_t *edge, size_t edges, const uint8_t *torn, size_t nt,
                       const uint32_t *tet, size_t tets, const uint32_t *bend, size_t bends,
                       uint8_t *tet_drop, uint8_t *bend_drop)
{
    uint64_t *keys = malloc((nt + 1) * sizeof *keys);
    for (size_t k = 0, j = 0; keys && k < edges; ++k)
        if (torn[k])
            keys[j++] = engine_pair_key(edge[2 * k], edge[2 * k + 1]);
    if (keys)
        qsort(keys, nt, sizeof *keys, engine_pair_cmp);
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}};
    for (size_t k = 0; k < tets; ++k) {
        const uint32_t *v = tet + 4 * k;
        tet_drop[k] = 0;
        for (int q = 0; q < 6 && !tet_drop[k]; ++q)
            tet_drop[k] = (uint8_t)split_pair_torn(keys, nt, edge, edges, torn, v[pairs[q][0]],
                                                   v[pairs[q][1]]);
    }
    for (size_t k = 0; k < bends; ++k) {
        const uint32_t *v = bend + 4 * k;
        bend_drop[k] = 0;
        for (int q = 0; q < 5 && !bend_drop[k]; ++q)
            bend_drop[k] = (uint8_t)split_pair_torn(keys, nt, edge, edges, torn, v[pairs[q][0]],
                                                    v[pairs[q][1]]);
    }
    const int rc = keys ? 0 : -1;
    free(keys);
    return rc;
}

/* The outputs as for KEEP_HINGES: the inputs, unchanged. */
static void split_copy_inputs(const uint32_t *edge, size_t edges, const uint32_t *tet, size_t tets,
                              const uint32_t *bend, size_t bends, uint32_t *edge_out,
                              uint32_t *tet_out, uint32_t *bend_out)
{
    if (edges)
        memcpy(edge_out, edge, 2 * edges * sizeof *edge_out);
    if (tets)
        memcpy(tet_out, tet, 4 * tets * sizeof *tet_out);
    if (bends)
        memcpy(bend_out, bend, 4 * bends * sizeof *bend_out);
}

static xpbd_status split_check(size_t particles, const uint32_t *edge, size_t edges,
                               const uint32_t *tet, size_t tets, const uint32_t *bend,
                               size_t bends)
{
    for (size_t k = 0; k < 2 * edges; ++k)
        if (edge[k] >= particles || (k % 2 && edge[k] == edge[k - 1]))
            return XPBD_ERR_INDEX;
    for (size_t k = 0; k < 4 * tets; ++k)
        if (tet[k] >= particles)
            return XPBD_ERR_INDEX;
    for (size_t k = 0; k < 4 * bends; ++k)
        if (bend[k] >= particles)
            return XPBD_ERR_INDEX;
    return XPBD_OK;
}

xpbd_status xpbd_tear_split(size_t particles, const uint32_t *edge, size_t edges,
                            const uint8_t *torn, const uint32_t *tet, size_t tets,
                            const uint32_t *bend, size_t bends, unsigned flags,
                            uint8_t *tet_drop, uint8_t *bend_drop, uint32_t *edge_out,
                            uint32_t *tet_out, uint32_t *bend_out, uint32_t *split,
                            size_t max_copies, size_t *copies)
{
    if (copies)
        *copies = 0;
    if (!copies || (edges && (!edge || !torn || !edge_out)) ||
        (tets && (!tet || !tet_drop || !tet_out)) || (bends && (!bend || !bend_drop || !bend_out)) ||
        (max_copies && !split) || particles > (size_t)INT32_MAX ||
        (flags & ~(unsigned)XPBD_TEAR_KEEP_HINGES))
        return XPBD_ERR_ARGUMENT;
    const xpbd_status bad = split_check(particles, edge, edges, tet, tets, bend, bends);
    if (bad != XPBD_OK)
        return bad;
    size_t nt = 0;
    for (size_t k = 0; k < edges; ++k)
        nt += torn[k] != 0;
    const int no_keys = split_drops(edge, edges, torn, nt, tet, tets, bend, bends, tet_drop,
                                    bend_drop);
    split_copy_inputs(edge, edges, tet, tets, bend, bends, edge_out, tet_out, bend_out);
    if (flags & XPBD_TEAR_KEEP_HINGES || !nt)
        return XPBD_OK;
    if (no_keys)
        return XPBD_ERR_NOMEM;
    /* the plan writes into the outputs: on failure they go back to the input */
    uint8_t *drops = malloc(bends + 1);
    if (!drops)
        return XPBD_ERR_NOMEM;
    if (bends)
        memcpy(drops, bend_drop, bends);
    split_plan s = {.n = particles, .ne = edges, .nt = tets, .nb = bends, .edge = edge,
                    .tet = tet, .bend = bend, .torn = torn, .drop_t = tet_drop,
                    .drop_b = bend_drop, .ev = edge_out, .tv = tet_out, .bv = bend_out};
    const int rc = split_plan_run(&s);
    if (rc) {
        split_copy_inputs(edge, edges, tet, tets, bend, bends, edge_out, tet_out, bend_out);
        if (bends)
            memcpy(bend_drop, drops, bends);
        free(drops);
        split_plan_free(&s);
        return rc == -2 ? XPBD_ERR_CAPACITY : XPBD_ERR_NOMEM;
    }
    free(drops);
    *copies = s.copies;
    xpbd_status st = XPBD_OK;
    if (s.copies > max_copies)
        st = XPBD_ERR_CAPACITY;
    else if (s.copies)
        memcpy(split, s.out, s.copies * sizeof *split);
    split_plan_free(&s);
    return st;
}
