/* The host-loop helpers of xpbd/engine.h: tearing passes, sleeping,
 * counters, the engine and the two-serial-orders check. Precision-specific
 * code is in engine_tmpl.h. */
#include "internal.h"
#include "xpbd/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xpbd_sleep_wake(xpbd_sleep_state *s, uint32_t b)
{
    if (!s || b >= s->body_count || !s->asleep)
        return;
    s->asleep[b] = 0;
    if (s->calm)
        s->calm[b] = 0;
}

int xpbd_counters_format(const xpbd_engine_counters *c, char *buf, size_t size)
{
    if (!c)
        return snprintf(buf, size, "(no counters)");
    return snprintf(buf, size,
                    "frame %llu: %s, isa %s, %u substeps, %u iterations, solved %llu, skipped "
                    "%llu, degenerate %u, residual %.3g, colours %u (distance %u, tets %u, "
                    "bends %u), contacts %u, sleeping %u/%u (fell %u, woke %u), torn %u, "
                    "split %u (dropped %u), distance %u, max stretch %.3g, volume error %.3g",
                    (unsigned long long)c->frame, xpbd_status_str(c->step.status),
                    xpbd_isa_name(c->step.isa) ? xpbd_isa_name(c->step.isa) : "?",
                    c->step.substeps, c->step.iterations, (unsigned long long)c->solved,
                    (unsigned long long)c->skipped, c->degenerate, c->max_residual, c->colours,
                    c->colours_distance, c->colours_tets, c->colours_bends, c->step.contacts,
                    c->sleeping, c->bodies, c->fell_asleep, c->woke, c->torn, c->split, c->split_dropped,
                    c->distance,
                    c->max_stretch, c->volume_error);
}

/* FNV-1a over bytes: the sleep signature (bit patterns, so any change the
 * host makes to a sleeping body is seen, -0 and NaN payloads included). */
static uint64_t engine_hash(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < bytes; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* splitmix64, for the order check's shuffles */
static uint64_t engine_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The body holding particle i (body_begin sorted), or UINT32_MAX. */
static uint32_t engine_body_of(const size_t *begin, uint32_t bodies, size_t i)
{
    if (!bodies || i < begin[0] || i >= begin[bodies])
        return UINT32_MAX;
    uint32_t lo = 0, hi = bodies; /* begin[lo] <= i < begin[hi] */
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (begin[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Sorted (min, max) pairs, for "is this pair torn" look-ups. */
static int engine_pair_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t engine_pair_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static int engine_pair_in(const uint64_t *keys, size_t n, uint32_t a, uint32_t b)
{
    const uint64_t k = engine_pair_key(a, b);
    return n && bsearch(&k, keys, n, sizeof *keys, engine_pair_cmp) != NULL;
}

/* 1 if a-b is a torn edge: the sorted keys when there are some (keys may
 * be NULL when their allocation failed: then a scan of the edges). */
static int engine_pair_torn(const uint64_t *keys, size_t nt, const uint32_t *edge, size_t edges,
                            const uint8_t *torn, uint32_t a, uint32_t b)
{
    if (keys)
        return engine_pair_in(keys, nt, a, b);
    const uint64_t k = engine_pair_key(a, b);
    for (size_t e = 0; e < edges; ++e)
        if (torn[e] && engine_pair_key(edge[2 * e], edge[2 * e + 1]) == k)
            return 1;
    return 0;
}

static void engine_permutation(uint32_t *perm, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)(seed ? i : n - 1 - i);
    if (!seed)
        return;
    uint64_t s = seed;
    for (size_t i = n; i > 1; --i) {
        const size_t j = (size_t)(engine_mix(&s) % i);
        const uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

/* ------------------------------------------------------- vertex split --- */

/* Incidence lists (CSR): for each vertex, the elements of `arity` vertices
 * (count of them, row-major in idx) that contain it. begin [n + 1]. */
static int engine_csr(size_t n, const uint32_t *idx, unsigned arity, size_t count, size_t **begin,
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

static uint32_t engine_find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a)
        a = parent[a] = parent[parent[a]];
    return a;
}

static void engine_union(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = engine_find(parent, a);
    b = engine_find(parent, b);
    if (a != b)
        parent[a < b ? b : a] = a < b ? a : b;
}

static uint32_t engine_other(const uint32_t *edge, uint32_t k, uint32_t v)
{
    return edge[2 * (size_t)k] == v ? edge[2 * (size_t)k + 1] : edge[2 * (size_t)k];
}

/* In the edge list of a (sorted by other end), the range of edges to b. */
static void engine_edges_to(const uint32_t *edge, const size_t *eb, const uint32_t *el, uint32_t a,
                            uint32_t b, size_t *first, size_t *last)
{
    size_t lo = eb[a], hi = eb[a + 1];
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (engine_other(edge, el[mid], a) < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    hi = eb[a + 1];
    while (lo < hi && engine_other(edge, el[lo], a) == b)
        ++lo;
    *last = lo;
}

/* Every pair of corners of every tet, sorted: the tets that hold a pair
 * are a range (key = the pair's engine_pair_key, then the tet). */
typedef struct engine_tpair {
    uint64_t key;
    uint32_t tet;
    uint32_t kept; /* some tet of this pair's range stays (not dropped) */
} engine_tpair;

static int engine_tpair_cmp(const void *a, const void *b)
{
    const engine_tpair *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->tet < y->tet ? -1 : x->tet > y->tet;
}

/* Whether a tet holds the pair (a, b): NULL if none, else one entry of the
 * pair's range (whose `kept` says whether one of them stays). */
static const engine_tpair *engine_tets_of(const engine_tpair *tp, size_t ntp, uint32_t a,
                                          uint32_t b)
{
    const uint64_t k = engine_pair_key(a, b);
    size_t lo = 0, hi = ntp;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (tp[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ntp && tp[lo].key == k ? tp + lo : NULL;
}

/* 1 if a and b share an edge or a tet. */
static int engine_adjacent(const uint32_t *edge, const size_t *eb, const uint32_t *el,
                           const engine_tpair *tp, size_t ntp, uint32_t a, uint32_t b)
{
    size_t f, l;
    engine_edges_to(edge, eb, el, a, b, &f, &l);
    if (l > f)
        return 1;
    return engine_tets_of(tp, ntp, a, b) != NULL;
}

/* The split plan (xpbd/engine.h, "vertex split"), on indices only. In: the
 * frame's topology before the tear (edges with torn[] flags, tets with
 * drop_t[], bends with drop_b[]). Out: ev, tv, bv (copies of edge, tet,
 * bend, same order) with every endpoint that moves to a new particle
 * rewritten to n + j for the j-th new particle; more drop_b[] flags (stencils
 * across two fans); *src [copies] the vertex each new particle splits from,
 * ascending. 0; -1 when out of memory, -2 when the particles would pass
 * INT32_MAX (the outputs are then unusable).
 *
 * Cost: O(topology log topology) for the sorted lists, then per vertex
 * near the tear (d neighbours) the elements among its neighbours: each
 * neighbour's edges and tets are scanned when there are at most about d of
 * them and searched pair by pair otherwise, so a hub next to the tear costs
 * O(d log) per neighbour, not its whole degree: O(d^2 log) per vertex at
 * worst (dense graphs), O(d log) for meshes. */
static int engine_split_plan(size_t n, const uint32_t *edge, size_t ne, const uint8_t *torn,
                             const uint32_t *tet, size_t nt, const uint8_t *drop_t,
                             const uint32_t *bend, size_t nb, uint8_t *drop_b, uint32_t *ev,
                             uint32_t *tv, uint32_t *bv, uint32_t **src, size_t *copies)
{
    *src = NULL;
    *copies = 0;
    size_t *eb = NULL, *tb = NULL, *bb = NULL;
    uint32_t *e0 = NULL, *el = NULL, *tl = NULL, *bl = NULL;
    uint8_t *cand = calloc(n + 1, 1);
    uint32_t *stamp = calloc(n + 1, sizeof *stamp), *local = malloc((n + 1) * sizeof *local);
    size_t *fill = malloc((n + 1) * sizeof *fill);
    uint32_t *work = NULL, *out = NULL;
    uint64_t *order = NULL, *cut = NULL;
    engine_tpair *tp = NULL;
    size_t out_cap = 0;
    int rc = -1;
    if (!cand || !stamp || !local || !fill || engine_csr(n, edge, 2, ne, &eb, &e0) ||
        engine_csr(n, tet, 4, nt, &tb, &tl) || engine_csr(n, bend, 4, nb, &bb, &bl))
        goto done;
    /* each vertex's edges sorted by their other end: the transpose of the
     * incidence lists, walked in vertex order */
    el = malloc((2 * ne + 1) * sizeof *el);
    if (!el)
        goto done;
    memcpy(fill, eb, n * sizeof *fill);
    for (size_t o = 0; o < n; ++o)
        for (size_t q = eb[o]; q < eb[o + 1]; ++q) {
            const uint32_t v = engine_other(edge, e0[q], (uint32_t)o);
            el[fill[v]++] = e0[q];
        }
    size_t most = 1;
    for (size_t v = 0; v < n; ++v) {
        const size_t d = (eb[v + 1] - eb[v]) + 3 * (tb[v + 1] - tb[v]);
        most = d > most ? d : most;
    }
    /* the pairs the tear cuts: torn edges, and every corner pair of a dropped
     * tet (a tet joins the neighbours of a vertex that are its corners) */
    size_t ncut = 0;
    for (size_t k = 0; k < ne; ++k)
        ncut += torn[k] != 0;
    for (size_t k = 0; k < nt; ++k)
        ncut += drop_t[k] ? 6 : 0;
    tp = malloc((6 * nt + 1) * sizeof *tp);
    cut = malloc((ncut + 1) * sizeof *cut);
    if (!tp || !cut)
        goto done;
    static const int corner[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (size_t k = 0; k < nt; ++k)
        for (int q = 0; q < 6; ++q) {
            const uint32_t a = tet[4 * k + (size_t)corner[q][0]], b = tet[4 * k + (size_t)corner[q][1]];
            tp[6 * k + (size_t)q].key = engine_pair_key(a, b);
            tp[6 * k + (size_t)q].tet = (uint32_t)k;
        }
    qsort(tp, 6 * nt, sizeof *tp, engine_tpair_cmp);
    const size_t ntp = 6 * nt;
    for (size_t i = 0, j; i < ntp; i = j) { /* per pair: does a tet of it stay? */
        uint32_t kept = 0;
        for (j = i; j < ntp && tp[j].key == tp[i].key; ++j)
            kept |= !drop_t[tp[j].tet];
        for (size_t q = i; q < j; ++q)
            tp[q].kept = kept;
    }
    size_t nc = 0;
    for (size_t k = 0; k < ne; ++k)
        if (torn[k])
            cut[nc++] = engine_pair_key(edge[2 * k], edge[2 * k + 1]);
    for (size_t k = 0; k < nt; ++k)
        for (int q = 0; q < 6 && drop_t[k]; ++q)
            cut[nc++] = engine_pair_key(tet[4 * k + (size_t)corner[q][0]],
                                        tet[4 * k + (size_t)corner[q][1]]);
    qsort(cut, nc, sizeof *cut, engine_pair_cmp);
    /* candidates: the ends of each cut pair and their common neighbours
     * (whose links lose that pair's joint) */
    for (size_t k = 0; k < nc; ++k) {
        if (k && cut[k] == cut[k - 1])
            continue;
        uint32_t s = (uint32_t)(cut[k] >> 32), l = (uint32_t)cut[k];
        if (s == l)
            continue;
        if ((eb[s + 1] - eb[s]) + (tb[s + 1] - tb[s]) > (eb[l + 1] - eb[l]) + (tb[l + 1] - tb[l])) {
            const uint32_t x = s;
            s = l;
            l = x;
        }
        cand[s] = cand[l] = 1;
        for (size_t q = eb[s]; q < eb[s + 1]; ++q) {
            const uint32_t c = engine_other(edge, el[q], s);
            if (!cand[c] && c != l && engine_adjacent(edge, eb, el, tp, ntp, c, l))
                cand[c] = 1;
        }
        for (size_t q = tb[s]; q < tb[s + 1]; ++q)
            for (int j = 0; j < 4; ++j) {
                const uint32_t c = tet[4 * (size_t)tl[q] + j];
                if (!cand[c] && c != s && c != l && engine_adjacent(edge, eb, el, tp, ntp, c, l))
                    cand[c] = 1;
            }
    }
    /* per vertex: neighbours (global index, reached through a kept element),
     * union-find before (B) and after (A) the tear, fan minima and sizes,
     * the smallest substantial fan minimum of each B component, new ids */
    work = malloc(8 * most * sizeof *work);
    order = malloc(most * sizeof *order);
    if (!work || !order)
        goto done;
    uint32_t *nbr = work, *in_a = work + most, *pa = work + 2 * most, *pb = work + 3 * most;
    uint32_t *lo = work + 4 * most, *id = work + 5 * most, *size = work + 6 * most;
    uint32_t *min_b = work + 7 * most;
    for (size_t v = 0; v < n; ++v) {
        if (!cand[v])
            continue;
        const uint32_t gen = (uint32_t)v + 1;
        uint32_t d = 0;
#define ADD_NBR(a_, kept_)                                                                         \
    do {                                                                                           \
        const uint32_t a__ = (a_);                                                                 \
        if (a__ == v)                                                                              \
            break;                                                                                 \
        if (stamp[a__] != gen) {                                                                   \
            stamp[a__] = gen;                                                                      \
            local[a__] = d;                                                                        \
            nbr[d] = a__;                                                                          \
            in_a[d] = 0;                                                                           \
            pa[d] = pb[d] = d;                                                                     \
            ++d;                                                                                   \
        }                                                                                          \
        in_a[local[a__]] |= (kept_);                                                               \
    } while (0)
        for (size_t q = eb[v]; q < eb[v + 1]; ++q)
            ADD_NBR(engine_other(edge, el[q], (uint32_t)v), !torn[el[q]]);
        for (size_t q = tb[v]; q < tb[v + 1]; ++q) {
            const uint32_t k = tl[q];
            for (int j = 0; j < 4; ++j)
                ADD_NBR(tet[4 * (size_t)k + j], !drop_t[k]);
        }
#undef ADD_NBR
        if (d < 2)
            continue;
        /* link edges: an edge or a tet joining two neighbours; a neighbour
         * with more edges than v has neighbours is searched, not scanned */
        for (uint32_t i = 0; i < d; ++i) {
            const uint32_t a = nbr[i];
            const int scan = eb[a + 1] - eb[a] <= d;
            for (uint32_t j = 0; j < (scan ? 1u : d); ++j) {
                size_t f = eb[a], l = eb[a + 1];
                if (!scan) {
                    if (j == i)
                        continue;
                    engine_edges_to(edge, eb, el, a, nbr[j], &f, &l);
                }
                for (size_t q = f; q < l; ++q) {
                    const uint32_t k = el[q], b = engine_other(edge, k, a);
                    if (b == v || stamp[b] != gen)
                        continue;
                    engine_union(pb, i, local[b]);
                    if (!torn[k] && in_a[i] && in_a[local[b]])
                        engine_union(pa, i, local[b]);
                }
            }
            if (3 * (tb[a + 1] - tb[a]) <= d) {
                for (size_t q = tb[a]; q < tb[a + 1]; ++q) {
                    const uint32_t k = tl[q];
                    for (int j = 0; j < 4; ++j) {
                        const uint32_t b = tet[4 * (size_t)k + j];
                        if (b == v || b == a || stamp[b] != gen)
                            continue;
                        engine_union(pb, i, local[b]);
                        if (!drop_t[k] && in_a[i] && in_a[local[b]])
                            engine_union(pa, i, local[b]);
                    }
                }
            } else {
                for (uint32_t j = 0; j < d; ++j) {
                    const engine_tpair *hit = j == i ? NULL : engine_tets_of(tp, ntp, a, nbr[j]);
                    if (!hit)
                        continue;
                    engine_union(pb, i, j);
                    if (hit->kept && in_a[i] && in_a[j])
                        engine_union(pa, i, j);
                }
            }
        }
        /* fans (A roots): lowest neighbour index and size */
        for (uint32_t i = 0; i < d; ++i) {
            lo[i] = min_b[i] = UINT32_MAX;
            size[i] = 0;
            id[i] = UINT32_MAX;
        }
        for (uint32_t i = 0; i < d; ++i)
            if (in_a[i]) {
                const uint32_t r = engine_find(pa, i);
                lo[r] = nbr[i] < lo[r] ? nbr[i] : lo[r];
                size[r]++;
            }
        /* a wire (a fan of one neighbour: the edge v-a is all that is left
         * around it) separates nothing: it stays on v. A substantial fan
         * gets a new particle when a substantial fan of the same B
         * component has a lower minimum. */
        for (uint32_t r = 0; r < d; ++r)
            if (size[r] >= 2) {
                const uint32_t rb = engine_find(pb, r);
                min_b[rb] = lo[r] < min_b[rb] ? lo[r] : min_b[rb];
            }
        uint32_t need = 0;
        for (uint32_t r = 0; r < d; ++r)
            if (size[r] >= 2 && lo[r] > min_b[engine_find(pb, r)])
                order[need++] = (uint64_t)lo[r] << 32 | r;
        if (!need)
            continue;
        if (n + *copies + need > (size_t)INT32_MAX) {
            rc = -2; /* past the index range */
            goto done;
        }
        if (*copies + need > out_cap) {
            out_cap = 2 * (*copies + need) + 16;
            uint32_t *grown = realloc(out, out_cap * sizeof *grown);
            if (!grown)
                goto done;
            out = grown;
        }
        qsort(order, need, sizeof *order, engine_pair_cmp); /* ascending minimum */
        for (uint32_t t = 0; t < need; ++t) {
            id[(uint32_t)order[t]] = (uint32_t)(n + *copies);
            out[(*copies)++] = (uint32_t)v;
        }
        /* rewire v's kept elements on the moved fans */
        for (size_t q = eb[v]; q < eb[v + 1]; ++q) {
            const uint32_t k = el[q];
            if (torn[k])
                continue;
            const int s = edge[2 * (size_t)k] == v ? 0 : 1;
            const uint32_t r = engine_find(pa, local[edge[2 * (size_t)k + 1 - s]]);
            if (id[r] != UINT32_MAX)
                ev[2 * (size_t)k + s] = id[r];
        }
        for (size_t q = tb[v]; q < tb[v + 1]; ++q) {
            const uint32_t k = tl[q];
            if (drop_t[k])
                continue;
            uint32_t r = UINT32_MAX;
            for (int j = 0; j < 4 && r == UINT32_MAX; ++j)
                if (tet[4 * (size_t)k + j] != v)
                    r = engine_find(pa, local[tet[4 * (size_t)k + j]]);
            for (int j = 0; j < 4 && r != UINT32_MAX && id[r] != UINT32_MAX; ++j)
                if (tet[4 * (size_t)k + j] == v)
                    tv[4 * (size_t)k + j] = id[r];
        }
        for (size_t q = bb[v]; q < bb[v + 1]; ++q) {
            const uint32_t k = bl[q];
            if (drop_b[k])
                continue;
            uint32_t r = UINT32_MAX;
            int conflict = 0;
            for (int j = 0; j < 4; ++j) {
                const uint32_t a = bend[4 * (size_t)k + j];
                if (a == v || stamp[a] != gen || !in_a[local[a]])
                    continue;
                const uint32_t ra = engine_find(pa, local[a]);
                conflict |= r != UINT32_MAX && ra != r;
                r = ra;
            }
            if (conflict)
                drop_b[k] = 1;
            else
                for (int j = 0; j < 4 && r != UINT32_MAX && id[r] != UINT32_MAX; ++j)
                    if (bend[4 * (size_t)k + j] == v)
                        bv[4 * (size_t)k + j] = id[r];
        }
    }
    rc = 0;
done:
    if (rc == 0) {
        *src = out;
        out = NULL;
    } else {
        *copies = 0;
    }
    free(out);
    free(work);
    free(order);
    free(cut);
    free(tp);
    free(cand);
    free(stamp);
    free(local);
    free(fill);
    free(eb);
    free(e0);
    free(el);
    free(tb);
    free(tl);
    free(bb);
    free(bl);
    return rc;
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
    if (!copies || (edges && (!edge || !torn || !edge_out)) || (tets && (!tet || !tet_drop || !tet_out)) ||
        (bends && (!bend || !bend_drop || !bend_out)) || (max_copies && !split) ||
        particles > (size_t)INT32_MAX || (flags & ~(unsigned)XPBD_TEAR_KEEP_HINGES))
        return XPBD_ERR_ARGUMENT;
    for (size_t k = 0; k < 2 * edges; ++k)
        if (edge[k] >= particles || (k % 2 && edge[k] == edge[k - 1]))
            return XPBD_ERR_INDEX;
    for (size_t k = 0; k < 4 * tets; ++k)
        if (tet[k] >= particles)
            return XPBD_ERR_INDEX;
    for (size_t k = 0; k < 4 * bends; ++k)
        if (bend[k] >= particles)
            return XPBD_ERR_INDEX;
    size_t nt = 0;
    for (size_t k = 0; k < edges; ++k)
        nt += torn[k] != 0;
    /* sorted torn pairs; without memory for them the drop flags (what
     * KEEP_HINGES returns, and what NOMEM leaves) come from a scan */
    uint64_t *keys = malloc((nt + 1) * sizeof *keys);
    const int have_keys = keys != NULL;
    for (size_t k = 0, j = 0; keys && k < edges; ++k)
        if (torn[k])
            keys[j++] = engine_pair_key(edge[2 * k], edge[2 * k + 1]);
    if (keys)
        qsort(keys, nt, sizeof *keys, engine_pair_cmp);
    /* pairs of a stencil that are mesh edges: all six of a tet; the shared
     * edge and the four sides (not 2-3) of a bending stencil */
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}};
    for (size_t k = 0; k < tets; ++k) {
        const uint32_t *v = tet + 4 * k;
        tet_drop[k] = 0;
        for (int q = 0; q < 6 && !tet_drop[k]; ++q)
            tet_drop[k] = (uint8_t)engine_pair_torn(keys, nt, edge, edges, torn, v[pairs[q][0]],
                                                    v[pairs[q][1]]);
    }
    for (size_t k = 0; k < bends; ++k) {
        const uint32_t *v = bend + 4 * k;
        bend_drop[k] = 0;
        for (int q = 0; q < 5 && !bend_drop[k]; ++q)
            bend_drop[k] = (uint8_t)engine_pair_torn(keys, nt, edge, edges, torn, v[pairs[q][0]],
                                                     v[pairs[q][1]]);
    }
    free(keys);
    if (edges)
        memcpy(edge_out, edge, 2 * edges * sizeof *edge_out);
    if (tets)
        memcpy(tet_out, tet, 4 * tets * sizeof *tet_out);
    if (bends)
        memcpy(bend_out, bend, 4 * bends * sizeof *bend_out);
    if (flags & XPBD_TEAR_KEEP_HINGES || !nt)
        return XPBD_OK;
    if (!have_keys)
        return XPBD_ERR_NOMEM;
    /* the plan writes into the outputs: on failure they go back to the input */
    uint32_t *src = NULL;
    size_t m = 0;
    uint8_t *drops = malloc(bends + 1);
    if (!drops)
        return XPBD_ERR_NOMEM;
    if (bends)
        memcpy(drops, bend_drop, bends);
    const int rc = engine_split_plan(particles, edge, edges, torn, tet, tets, tet_drop, bend,
                                     bends, bend_drop, edge_out, tet_out, bend_out, &src, &m);
    if (rc) {
        if (edges)
            memcpy(edge_out, edge, 2 * edges * sizeof *edge_out);
        if (tets)
            memcpy(tet_out, tet, 4 * tets * sizeof *tet_out);
        if (bends) {
            memcpy(bend_out, bend, 4 * bends * sizeof *bend_out);
            memcpy(bend_drop, drops, bends);
        }
        free(drops);
        return rc == -2 ? XPBD_ERR_CAPACITY : XPBD_ERR_NOMEM;
    }
    free(drops);
    *copies = m;
    if (m > max_copies) {
        free(src);
        return XPBD_ERR_CAPACITY;
    }
    if (m)
        memcpy(split, src, m * sizeof *split);
    free(src);
    return XPBD_OK;
}

#define XPBD_REAL_F32
#include "engine_tmpl.h"
#define XPBD_REAL_F64
#include "engine_tmpl.h"
