/* SPDX-License-Identifier: MIT */
/* Mesh topology per precision (mesh_topology.c), template over R: what
 * reads positions or writes reals. Geometry is computed in double from the
 * positions of the precision, so a float mesh is judged on the positions a
 * float engine will have. */
#include "precision.h"

#define MS SFX(xpbd_mesh_scene)

/* XPBD_OK, or XPBD_ERR_POSITION with *bad the first particle with a
 * coordinate that is not finite. */
static xpbd_status SFX(topo_positions)(const R *xyz, size_t particles, size_t *bad)
{
    for (size_t i = 0; xyz && i < 3 * particles; ++i)
        if (!isfinite(xyz[i])) {
            *bad = i / 3;
            return XPBD_ERR_POSITION;
        }
    return XPBD_OK;
}

static void SFX(topo_sub)(const R *xyz, uint32_t a, uint32_t b, double out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = (double)xyz[3 * (size_t)b + (size_t)k] - (double)xyz[3 * (size_t)a + (size_t)k];
}

static double SFX(topo_len)(const double e[3])
{
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

/* the larger of a and b (no libm fmax: libm_check.sh) */
static double SFX(topo_max)(double a, double b)
{
    return b > a ? b : a;
}

/* The element's measure and whether it is not degenerate: a tet's 6V
 * (signed), with the tet builder's own rule (|6V| > 1e-12 (longest edge
 * from vertex 0)^3, finite and not 0 in R); a triangle's |(x1 - x0) x
 * (x2 - x0)| (twice its area), > 1e-12 (longest edge)^2 and finite. */
static int SFX(topo_measure)(const R *xyz, const uint32_t *v, uint32_t corners, double *measure)
{
    double e1[3], e2[3], e3[3];
    SFX(topo_sub)(xyz, v[0], v[1], e1);
    SFX(topo_sub)(xyz, v[0], v[2], e2);
    if (corners == 4) {
        SFX(topo_sub)(xyz, v[0], v[3], e3);
        const double g[3] = {e2[1] * e3[2] - e2[2] * e3[1], e2[2] * e3[0] - e2[0] * e3[2],
                             e2[0] * e3[1] - e2[1] * e3[0]};
        const double vol6 = e1[0] * g[0] + e1[1] * g[1] + e1[2] * g[2];
        double lmax = SFX(topo_len)(e1);
        lmax = SFX(topo_max)(lmax, SFX(topo_len)(e2));
        lmax = SFX(topo_max)(lmax, SFX(topo_len)(e3));
        *measure = vol6;
        return fabs(vol6) > 1e-12 * lmax * lmax * lmax && isfinite(vol6) &&
               isfinite((double)(R)vol6) && (R)vol6 != 0;
    }
    SFX(topo_sub)(xyz, v[1], v[2], e3);
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
    const double a2 = SFX(topo_len)(n);
    double lmax = SFX(topo_len)(e1);
    lmax = SFX(topo_max)(lmax, SFX(topo_len)(e2));
    lmax = SFX(topo_max)(lmax, SFX(topo_len)(e3));
    *measure = a2;
    return isfinite(a2) && a2 > 1e-12 * lmax * lmax;
}

/* xpbd_mesh_clean_tets_* (corners 4: flipped required) and
 * xpbd_mesh_clean_triangles_* (corners 3: flipped NULL); orig (may be
 * NULL, [n]) receives each kept element's input index. */
static xpbd_status SFX(topo_clean)(size_t particles, const R *xyz, uint32_t *elem, size_t n,
                                   uint32_t corners, int32_t *label, unsigned flags,
                                   size_t *flipped, size_t *skipped, uint32_t *orig,
                                   size_t *bad_index)
{
    const int tets = corners == 4;
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (flipped)
        *flipped = 0;
    if (skipped)
        *skipped = 0;
    if ((tets && !flipped) || !skipped || (flags & ~XPBD_MESH_SKIP_DEGENERATE) ||
        particles > TOPO_MAX_PARTICLES || n > TOPO_MAX_ELEMENTS || (particles && !xyz) ||
        (n && !elem))
        return XPBD_ERR_ARGUMENT;
    const int skip = (flags & XPBD_MESH_SKIP_DEGENERATE) != 0;
    xpbd_status st = SFX(topo_positions)(xyz, particles, &bad);
    for (size_t t = 0; st == XPBD_OK && t < n; ++t) {
        const uint32_t *v = elem + (size_t)corners * t;
        const int f = topo_fault(particles, v, corners);
        double q;
        if (f == 1 || (f == 2 && !skip))
            st = XPBD_ERR_INDEX;
        else if (f == 0 && !skip && !SFX(topo_measure)(xyz, v, corners, &q))
            st = XPBD_ERR_DEGENERATE;
        if (st != XPBD_OK)
            bad = t;
    }
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    size_t kept = 0, flips = 0;
    for (size_t t = 0; t < n; ++t) {
        uint32_t v[4];
        memcpy(v, elem + (size_t)corners * t, corners * sizeof *v);
        double q = 0;
        if (topo_fault(particles, v, corners) != 0 || !SFX(topo_measure)(xyz, v, corners, &q))
            continue; /* degenerate (skip: checked above) */
        if (tets && q < 0) {
            const uint32_t s = v[2];
            v[2] = v[3];
            v[3] = s;
            ++flips;
        }
        memcpy(elem + (size_t)corners * kept, v, corners * sizeof *v);
        if (label)
            label[kept] = label[t];
        if (orig)
            orig[kept] = (uint32_t)t;
        ++kept;
    }
    if (flipped)
        *flipped = flips;
    *skipped = n - kept;
    return XPBD_OK;
}

/* The four corners of stencil s in double. */
static void SFX(topo_corners)(const R *xyz, const uint32_t *v, double p[4][3])
{
    for (int a = 0; a < 4; ++a)
        for (int k = 0; k < 3; ++k)
            p[a][k] = (double)xyz[3 * (size_t)v[a] + (size_t)k];
}

static xpbd_status SFX(topo_dihedral)(size_t particles, const R *xyz, const uint32_t *st,
                                      size_t count, R *angle, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (particles > TOPO_MAX_PARTICLES || count > TOPO_MAX_ELEMENTS ||
        (count && (!xyz || !st || !angle)))
        return XPBD_ERR_ARGUMENT;
    xpbd_status s = SFX(topo_positions)(xyz, particles, &bad);
    for (size_t b = 0; s == XPBD_OK && b < count; ++b) {
        double p[4][3], a;
        if (topo_fault(particles, st + 4 * b, 4) != 0)
            s = XPBD_ERR_INDEX;
        else {
            SFX(topo_corners)(xyz, st + 4 * b, p);
            if (!topo_hinge_angle(p[0], p[1], p[2], p[3], &a))
                s = XPBD_ERR_DEGENERATE;
        }
        if (s != XPBD_OK)
            bad = b;
    }
    if (s != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return s;
    }
    for (size_t b = 0; b < count; ++b) {
        double p[4][3], a = 0;
        SFX(topo_corners)(xyz, st + 4 * b, p);
        (void)topo_hinge_angle(p[0], p[1], p[2], p[3], &a);
        angle[b] = (R)a;
    }
    return XPBD_OK;
}

static xpbd_status SFX(topo_masses)(size_t particles, const R *xyz, const uint32_t *elem,
                                    size_t n, uint32_t corners, double density, double *mass,
                                    size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if ((corners != 3 && corners != 4) || particles > TOPO_MAX_PARTICLES ||
        n > TOPO_MAX_ELEMENTS || (n && (!elem || !xyz || !mass)))
        return XPBD_ERR_ARGUMENT;
    if (!isfinite(density) || density < 0)
        return XPBD_ERR_CONFIG;
    xpbd_status st = SFX(topo_positions)(xyz, particles, &bad);
    if (st == XPBD_OK)
        st = topo_indices(particles, elem, n, corners, 0, &bad);
    if (st != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return st;
    }
    for (size_t t = 0; t < n; ++t) {
        const uint32_t *v = elem + (size_t)corners * t;
        double q;
        (void)SFX(topo_measure)(xyz, v, corners, &q);
        const double share = density * (fabs(q) / (corners == 4 ? 6 : 2)) / corners;
        for (uint32_t a = 0; a < corners; ++a)
            mass[v[a]] += share;
    }
    return XPBD_OK;
}

static xpbd_status SFX(topo_inverse)(size_t particles, const double *mass, R *w,
                                     size_t *massless, size_t *bad_index)
{
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (massless)
        *massless = 0;
    if (particles && (!mass || !w))
        return XPBD_ERR_ARGUMENT;
    for (size_t i = 0; i < particles; ++i) {
        const double m = mass[i];
        const R v = m > 0 ? (R)(1.0 / m) : 0;
        if (!isfinite(m) || m < 0 || (m > 0 && !(isfinite(v) && v > 0))) {
            if (bad_index)
                *bad_index = i;
            return XPBD_ERR_INVERSE_MASS;
        }
    }
    size_t none = 0;
    for (size_t i = 0; i < particles; ++i) {
        w[i] = mass[i] > 0 ? (R)(1.0 / mass[i]) : 0;
        none += mass[i] == 0;
    }
    if (massless)
        *massless = none;
    return XPBD_OK;
}

/* 1 when particle i (coordinate x) is selected with threshold t. */
static int SFX(topo_selected)(const xpbd_mesh_select *s, double x, double t)
{
    switch (s->compare) {
    case XPBD_MESH_LESS: return x < t;
    case XPBD_MESH_LESS_EQUAL: return x <= t;
    case XPBD_MESH_GREATER: return x > t;
    default: return x >= t;
    }
}

static xpbd_status SFX(topo_pin_where)(size_t particles, const R *xyz, const xpbd_mesh_select *s,
                                       R *w, size_t *pinned, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (pinned)
        *pinned = 0;
    if (!s || particles > TOPO_MAX_PARTICLES || (particles && (!xyz || !w)))
        return XPBD_ERR_ARGUMENT;
    if (!topo_select_ok(s))
        return XPBD_ERR_CONFIG;
    if (SFX(topo_positions)(xyz, particles, &bad) != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return XPBD_ERR_POSITION;
    }
    double t = s->value;
    if (s->relative && particles) {
        double lo = (double)xyz[s->axis], hi = lo;
        for (size_t i = 1; i < particles; ++i) {
            const double x = (double)xyz[3 * i + s->axis];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        t = (1 - s->value) * lo + s->value * hi;
    }
    size_t matched = 0, changed = 0;
    for (size_t i = 0; i < particles; ++i)
        if (SFX(topo_selected)(s, (double)xyz[3 * i + s->axis], t)) {
            ++matched;
            changed += w[i] != 0;
            w[i] = 0;
        }
    if (pinned)
        *pinned = changed;
    return matched ? XPBD_OK : XPBD_SKIPPED;
}

static xpbd_status SFX(topo_pin_label)(size_t particles, const uint32_t *elem, size_t n,
                                       uint32_t corners, const int32_t *label, int32_t which,
                                       R *w, size_t *pinned, size_t *bad_index)
{
    size_t bad = SIZE_MAX;
    if (bad_index)
        *bad_index = SIZE_MAX;
    if (pinned)
        *pinned = 0;
    if ((corners != 3 && corners != 4) || particles > TOPO_MAX_PARTICLES ||
        n > TOPO_MAX_ELEMENTS || (n && (!elem || !label || !w)))
        return XPBD_ERR_ARGUMENT;
    if (topo_indices(particles, elem, n, corners, 0, &bad) != XPBD_OK) {
        if (bad_index)
            *bad_index = bad;
        return XPBD_ERR_INDEX;
    }
    size_t matched = 0, changed = 0;
    for (size_t t = 0; t < n; ++t) {
        if (label[t] != which)
            continue;
        ++matched;
        for (uint32_t a = 0; a < corners; ++a) {
            const uint32_t v = elem[(size_t)corners * t + a];
            changed += w[v] != 0;
            w[v] = 0;
        }
    }
    if (pinned)
        *pinned = changed;
    return matched ? XPBD_OK : XPBD_SKIPPED;
}

/* ------------------------------------------------------------ scene --- */

static void SFX(topo_scene_free)(MS *s)
{
    if (!s)
        return;
    free(s->xyz);
    free(s->inv_mass);
    free(s->edge);
    free(s->tet);
    free(s->bend);
    free(s->rest_angle);
    memset(s, 0, sizeof *s);
}

/* A copy of n entries of size sz into a new array (at least one entry). */
static void *SFX(topo_copy)(const void *src, size_t n, size_t sz)
{
    void *p = malloc((n ? n : 1) * sz);
    if (p && n)
        memcpy(p, src, n * sz);
    return p;
}

static xpbd_status SFX(topo_scene_build)(MS *out, const xpbd_mesh_data *m,
                                         const xpbd_mesh_scene_options *o)
{
    if (!out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    xpbd_status st = XPBD_OK;
    xpbd_mesh_part part = XPBD_MESH_PART_NONE;
    size_t index = SIZE_MAX, b = SIZE_MAX;
    uint32_t edge[2] = {0, 0};
    uint32_t *tri = NULL, *tri_orig = NULL;
    int32_t *tri_label = NULL, *tet_label = NULL;
    double *mass = NULL;
    uint64_t *keys = NULL;
#define FAIL(s_, p_, i_)                                                                      \
    do {                                                                                      \
        st = (s_);                                                                            \
        part = (p_);                                                                          \
        index = (i_);                                                                         \
        goto done;                                                                            \
    } while (0)
    if (!m || !o)
        FAIL(XPBD_ERR_ARGUMENT, XPBD_MESH_PART_NONE, SIZE_MAX);
    const size_t n = m->particles;
    if (n == 0 || n > TOPO_MAX_PARTICLES || !m->xyz || m->triangles > TOPO_MAX_ELEMENTS ||
        m->tets > TOPO_MAX_ELEMENTS || (m->triangles && !m->triangle) || (m->tets && !m->tet))
        FAIL(XPBD_ERR_ARGUMENT, XPBD_MESH_PART_NONE, SIZE_MAX);
    if ((o->pin_labels && !o->pin_label) || (o->pin_wheres && !o->pin_where))
        FAIL(XPBD_ERR_ARGUMENT, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    const uint32_t known = XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_EDGES_FROM_TRIANGLES |
                           XPBD_MESH_VOLUME | XPBD_MESH_BENDING;
    const int has_tets = m->tets > 0;
    if ((o->build & ~known) ||
        (o->flags & ~(XPBD_MESH_SKIP_DEGENERATE | XPBD_MESH_SKIP_NONMANIFOLD)) ||
        o->one_body > 1 || (has_tets && !(isfinite(o->density) && o->density > 0)) ||
        (!has_tets && m->triangles &&
         !(isfinite(o->surface_density) && o->surface_density > 0)))
        FAIL(XPBD_ERR_CONFIG, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    if (!isfinite(o->edge_alpha) || o->edge_alpha < 0 || !isfinite(o->tet_alpha) ||
        o->tet_alpha < 0 || !isfinite(o->bend_alpha) || o->bend_alpha < 0)
        FAIL(XPBD_ERR_COMPLIANCE, XPBD_MESH_PART_OPTIONS, SIZE_MAX);
    for (size_t k = 0; k < o->pin_wheres; ++k)
        if (!topo_select_ok(&o->pin_where[k]))
            FAIL(XPBD_ERR_CONFIG, XPBD_MESH_PART_PIN_WHERE, k);
    const uint32_t build = o->build ? o->build
                           : has_tets ? XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_VOLUME
                                      : XPBD_MESH_EDGES_FROM_TRIANGLES | XPBD_MESH_BENDING;
    const int tri_used =
        (build & (XPBD_MESH_EDGES_FROM_TRIANGLES | XPBD_MESH_BENDING)) || !has_tets;
    const unsigned skip_degenerate = o->flags & XPBD_MESH_SKIP_DEGENERATE;

    /* 1. positions, in R */
    for (size_t i = 0; i < 3 * n; ++i)
        if (!isfinite(m->xyz[i]) || !isfinite((double)(R)m->xyz[i]))
            FAIL(XPBD_ERR_POSITION, XPBD_MESH_PART_PARTICLE, i / 3);
    out->xyz = malloc(3 * n * sizeof *out->xyz);
    if (!out->xyz)
        FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    for (size_t i = 0; i < 3 * n; ++i)
        out->xyz[i] = (R)m->xyz[i];

    /* 2. tets oriented, triangles cleaned (or their indices checked) */
    size_t tets = m->tets, tris = m->triangles;
    if (has_tets) {
        out->tet = SFX(topo_copy)(m->tet, 4 * tets, sizeof *out->tet);
        if (!out->tet || (m->tet_label && !(tet_label = SFX(topo_copy)(m->tet_label, tets,
                                                                      sizeof *tet_label))))
            FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
        st = SFX(topo_clean)(n, out->xyz, out->tet, tets, 4, tet_label, skip_degenerate,
                             &out->flipped, &out->skipped_tets, NULL, &b);
        if (st != XPBD_OK)
            FAIL(st, XPBD_MESH_PART_TET, b);
        tets -= out->skipped_tets;
    }
    if (tris) {
        tri = SFX(topo_copy)(m->triangle, 3 * tris, sizeof *tri);
        if (!tri || (m->triangle_label &&
                     !(tri_label = SFX(topo_copy)(m->triangle_label, tris, sizeof *tri_label))))
            FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
        if (tri_used) {
            tri_orig = malloc(tris * sizeof *tri_orig);
            if (!tri_orig)
                FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
            st = SFX(topo_clean)(n, out->xyz, tri, tris, 3, tri_label, skip_degenerate, NULL,
                                 &out->skipped_triangles, tri_orig, &b);
            if (st != XPBD_OK)
                FAIL(st, XPBD_MESH_PART_TRIANGLE, b);
            tris -= out->skipped_triangles;
        } else if ((st = topo_indices(n, tri, tris, 3, 0, &b)) != XPBD_OK)
            FAIL(st, XPBD_MESH_PART_TRIANGLE, b);
    }

    /* 3. edges, bending stencils and their rest angles */
    if (build & (XPBD_MESH_EDGES_FROM_TETS | XPBD_MESH_EDGES_FROM_TRIANGLES)) {
        const int ft = (build & XPBD_MESH_EDGES_FROM_TETS) != 0;
        const int fr = (build & XPBD_MESH_EDGES_FROM_TRIANGLES) != 0;
        size_t ne;
        if (!topo_edge_keys(ft ? out->tet : NULL, ft ? tets : 0, fr ? tri : NULL, fr ? tris : 0,
                            &keys, &ne))
            FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
        out->edge = malloc((ne ? ne : 1) * 2 * sizeof *out->edge);
        if (!out->edge)
            FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
        topo_keys_to_pairs(keys, ne, out->edge);
        out->scene.edges = ne;
    }
    if ((build & XPBD_MESH_BENDING) && tris) {
        size_t nb, skipped;
        st = topo_hinges(tri, tris, (o->flags & XPBD_MESH_SKIP_NONMANIFOLD) != 0, &out->bend, &nb,
                         &skipped, &b, edge);
        if (st == XPBD_ERR_TOPOLOGY)
            FAIL(st, XPBD_MESH_PART_TRIANGLE, tri_orig[b]);
        if (st != XPBD_OK)
            FAIL(st, XPBD_MESH_PART_NONE, SIZE_MAX);
        out->skipped_hinges = skipped;
        out->rest_angle = malloc((nb ? nb : 1) * sizeof *out->rest_angle);
        if (!out->rest_angle)
            FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
        for (size_t s = 0; s < nb; ++s) {
            double p[4][3], a;
            SFX(topo_corners)(out->xyz, out->bend + 4 * s, p);
            if (!topo_hinge_angle(p[0], p[1], p[2], p[3], &a)) {
                /* coordinates beyond what a normal's square holds: name the
                 * stencil's first triangle */
                size_t t = 0;
                while (t + 1 < tris &&
                       !(topo_has(tri + 3 * t, out->bend[4 * s]) &&
                         topo_has(tri + 3 * t, out->bend[4 * s + 1]) &&
                         topo_has(tri + 3 * t, out->bend[4 * s + 2])))
                    ++t;
                FAIL(XPBD_ERR_DEGENERATE, XPBD_MESH_PART_TRIANGLE, tri_orig[t]);
            }
            out->rest_angle[s] = (R)a;
            out->max_rest_angle = SFX(topo_max)(out->max_rest_angle, fabs(a));
        }
        out->scene.bends = nb;
    }

    /* 4. masses, inverse masses, pins */
    mass = calloc(n, sizeof *mass);
    out->inv_mass = malloc(n * sizeof *out->inv_mass);
    if (!mass || !out->inv_mass)
        FAIL(XPBD_ERR_NOMEM, XPBD_MESH_PART_NONE, SIZE_MAX);
    if (has_tets)
        st = SFX(topo_masses)(n, out->xyz, out->tet, tets, 4, o->density, mass, &b);
    else
        st = SFX(topo_masses)(n, out->xyz, tri, tris, 3, o->surface_density, mass, &b);
    if (st == XPBD_OK)
        st = SFX(topo_inverse)(n, mass, out->inv_mass, &out->massless, &b);
    if (st != XPBD_OK)
        FAIL(st, XPBD_MESH_PART_PARTICLE, b);
    for (size_t k = 0; k < o->pin_labels; ++k) {
        size_t p = 0;
        int found = 0;
        if (tet_label) {
            found |= SFX(topo_pin_label)(n, out->tet, tets, 4, tet_label, o->pin_label[k],
                                         out->inv_mass, &p, NULL) == XPBD_OK;
            out->pinned += p;
        }
        if (tri_label) {
            found |= SFX(topo_pin_label)(n, tri, tris, 3, tri_label, o->pin_label[k],
                                         out->inv_mass, &p, NULL) == XPBD_OK;
            out->pinned += p;
        }
        if (!found)
            FAIL(XPBD_ERR_CONFIG, XPBD_MESH_PART_PIN_LABEL, k);
    }
    for (size_t k = 0; k < o->pin_wheres; ++k) {
        size_t p = 0;
        (void)SFX(topo_pin_where)(n, out->xyz, &o->pin_where[k], out->inv_mass, &p, NULL);
        out->pinned += p;
    }

    /* 5. the scene */
    if (!(build & XPBD_MESH_VOLUME)) {
        free(out->tet);
        out->tet = NULL;
        tets = 0;
    }
    SFX(xpbd_scene) *sc = &out->scene;
    sc->particles = n;
    sc->xyz = out->xyz;
    sc->inv_mass = out->inv_mass;
    sc->edge = out->edge;
    sc->edge_alpha = o->edge_alpha;
    sc->tets = tets;
    sc->tet = out->tet;
    sc->tet_alpha = o->tet_alpha;
    sc->bend = out->bend;
    sc->bend_alpha = o->bend_alpha;
    if (o->one_body) {
        out->body_begin[0] = 0;
        out->body_begin[1] = n;
        sc->bodies = 1;
        sc->body_begin = out->body_begin;
    }
    part = XPBD_MESH_PART_NONE;
    index = SIZE_MAX;
#undef FAIL
done:
    free(keys);
    free(tri);
    free(tri_orig);
    free(tri_label);
    free(tet_label);
    free(mass);
    if (st != XPBD_OK)
        SFX(topo_scene_free)(out);
    out->bad_part = part;
    out->bad_index = index;
    if (st == XPBD_ERR_TOPOLOGY) {
        out->bad_edge[0] = edge[0];
        out->bad_edge[1] = edge[1];
    }
    return st;
}

#undef MS
#define XPBD_PRECISION_END
#include "precision.h"
