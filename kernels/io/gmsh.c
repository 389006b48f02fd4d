/* SPDX-License-Identifier: MIT */
/* Gmsh .msh files (xpbd/io.h): MSH 4.1 ASCII and binary, MSH 2.2 ASCII.
 *
 * The file is read section by section. MSH 4.1's ASCII and binary
 * encodings share one parser: a field is read as a token of the current
 * line or as bytes in the file's byte order (gm_int, gm_real), a record
 * starts a line or is nothing (gm_record), and ends one or is nothing
 * (gm_end_record). $Elements is read twice: once to count the triangles and
 * tets, once to fill arrays of that size. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gm_entity {
    int32_t tag;
    int32_t phys;   /* the first physical tag, 0: none */
    size_t line;    /* where the entity was read (for a repeated tag) */
    size_t offset;
} gm_entity;

typedef struct gm_key {
    uint64_t tag;
    uint32_t index;
} gm_key;

typedef struct gm {
    xpbd__io_text t;
    xpbd_io_error *err;
    int v41;            /* 1: MSH 4.1, 0: MSH 2.x */
    int binary;
    int le;             /* binary: the file's byte order is little-endian */
    size_t ds;          /* binary: bytes of a size_t field (4 or 8) */
    int have_names, have_entities, have_nodes, have_elements;
    gm_entity *ent[2];  /* surfaces (dimension 2) and volumes (3), sorted by tag */
    size_t nent[2];
    uint64_t *tags;     /* node tags in the file's order, until the map is built */
    gm_key *keys;       /* sorted tags (when they are not consecutive) */
    uint64_t tag0;      /* consecutive tags: node i has tag0 + i */
    size_t skipped;
    xpbd_mesh_data m;
} gm;

static void gm_free(gm *g)
{
    free(g->ent[0]);
    free(g->ent[1]);
    free(g->tags);
    free(g->keys);
    xpbd__io_release(&g->m);
}

static size_t gm_left(const gm *g)
{
    return (size_t)(g->t.end - g->t.p);
}

/* ----------------------------------------------------------- fields --- */

/* n bytes of the file in its byte order, as an unsigned number */
static uint64_t gm_bytes(gm *g, size_t n)
{
    const unsigned char *b = (const unsigned char *)g->t.p;
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k)
        v |= (uint64_t)b[g->le ? k : n - 1 - k] << (8 * k);
    g->t.p += n;
    return v;
}

static xpbd_status gm_cut(gm *g, const char *what)
{
    return xpbd__io_fail_eof(&g->t, XPBD_ERR_FILE, "cut short in %s", what);
}

/* An integer field: size_t-sized (wide) or int-sized in a binary file, a
 * token in ASCII; in [lo, hi]; *at: where it starts. */
static xpbd_status gm_int(gm *g, int wide, const char *what, int64_t lo, int64_t hi, int64_t *v,
                          const char **at)
{
    const char *where = g->t.p;
    if (g->binary) {
        const size_t n = wide ? g->ds : 4;
        if (gm_left(g) < n)
            return gm_cut(g, what);
        const uint64_t u = gm_bytes(g, n);
        if (!wide) {
            *v = (int64_t)(int32_t)(uint32_t)u;
        } else if (u > (uint64_t)INT64_MAX) {
            return xpbd__io_fail_at(&g->t, where, XPBD_ERR_FILE, "%s %llu out of range", what,
                                    (unsigned long long)u);
        } else {
            *v = (int64_t)u;
        }
        if (*v < lo || *v > hi)
            return xpbd__io_fail_at(&g->t, where, XPBD_ERR_FILE,
                                    "%s %lld out of range [%lld, %lld]", what, (long long)*v,
                                    (long long)lo, (long long)hi);
    } else {
        xpbd__io_at_eol(&g->t);
        where = g->t.p;
        xpbd_status st = xpbd__io_int(&g->t, what, lo, hi, v);
        if (st != XPBD_OK)
            return st;
    }
    if (at)
        *at = where;
    return XPBD_OK;
}

static xpbd_status gm_real(gm *g, const char *what, double *v, const char **at)
{
    const char *where = g->t.p;
    if (g->binary) {
        if (gm_left(g) < 8)
            return gm_cut(g, what);
        const uint64_t u = gm_bytes(g, 8);
        memcpy(v, &u, sizeof *v);
    } else {
        xpbd__io_at_eol(&g->t);
        where = g->t.p;
        xpbd_status st = xpbd__io_real(&g->t, what, v);
        if (st != XPBD_OK)
            return st;
    }
    if (at)
        *at = where;
    return XPBD_OK;
}

/* The start of a record: a line in ASCII (cut short at the end), nothing
 * in binary. */
static xpbd_status gm_record(gm *g, const char *what)
{
    if (g->binary || xpbd__io_record(&g->t))
        return XPBD_OK;
    return gm_cut(g, what);
}

static xpbd_status gm_end_record(gm *g, const char *what)
{
    if (g->binary)
        return XPBD_OK;
    xpbd_status st = xpbd__io_eol(&g->t, what);
    if (st == XPBD_OK)
        xpbd__io_next_line(&g->t);
    return st;
}

/* Skips n bytes of binary data. */
static xpbd_status gm_skip(gm *g, uint64_t n, const char *what)
{
    if (gm_left(g) < n)
        return gm_cut(g, what);
    g->t.p += n;
    return XPBD_OK;
}

/* --------------------------------------------------------- sections --- */

/* After a section's name: the rest of its line, then (binary) its data. */
static xpbd_status gm_open(gm *g, const char *name)
{
    xpbd_status st = xpbd__io_eol(&g->t, name);
    if (st != XPBD_OK)
        return st;
    xpbd__io_next_line(&g->t);
    return XPBD_OK;
}

/* The binary data of a section starts here: lines are no longer counted. */
static void gm_binary_data(gm *g)
{
    if (g->binary)
        g->t.lines = 0;
}

/* $End<name> on a line of its own. */
static xpbd_status gm_close(gm *g, const char *name)
{
    if (!xpbd__io_record(&g->t))
        return xpbd__io_fail_eof(&g->t, XPBD_ERR_FILE, "cut short: $%s not closed by $End%s", name,
                                 name);
    xpbd__io_tok k;
    xpbd__io_token(&g->t, &k);
    if (!(k.n == 4 + strlen(name) && memcmp(k.s, "$End", 4) == 0 &&
          memcmp(k.s + 4, name, k.n - 4) == 0))
        return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE, "$End%s expected, found '%.*s'", name,
                                XPBD__IO_TOK(k));
    xpbd_status st = xpbd__io_eol(&g->t, "$End line");
    if (st == XPBD_OK)
        xpbd__io_next_line(&g->t);
    return st;
}

/* An unknown section: skipped up to its $End line. */
static xpbd_status gm_skip_section(gm *g, xpbd__io_tok name)
{
    if (g->binary)
        g->t.lines = 0; /* its data may be binary */
    xpbd__io_next_line(&g->t);
    while (xpbd__io_record(&g->t)) {
        xpbd__io_tok k;
        xpbd__io_token(&g->t, &k);
        if (k.n == name.n + 3 && memcmp(k.s, "$End", 4) == 0 &&
            memcmp(k.s + 4, name.s + 1, name.n - 1) == 0) {
            xpbd__io_next_line(&g->t);
            return XPBD_OK;
        }
        xpbd__io_next_line(&g->t);
    }
    return xpbd__io_fail_eof(&g->t, XPBD_ERR_FILE, "cut short: %.*s not closed by $End%.*s",
                             XPBD__IO_TOK(name), (int)(name.n > 24 ? 23 : name.n - 1),
                             name.s + 1);
}

static xpbd_status gm_format(gm *g)
{
    xpbd__io_text *t = &g->t;
    xpbd__io_tok k;
    if (!xpbd__io_record(t))
        return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "empty: no $MeshFormat");
    xpbd__io_token(t, &k);
    if (!xpbd__io_is(k, "$MeshFormat"))
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE,
                                "not a Gmsh file: '%.*s' where $MeshFormat should be",
                                XPBD__IO_TOK(k));
    xpbd_status st = gm_open(g, "$MeshFormat");
    if (st != XPBD_OK)
        return st;
    if (!xpbd__io_record(t))
        return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "cut short in $MeshFormat");
    xpbd__io_token(t, &k);
    if (xpbd__io_is(k, "4.1"))
        g->v41 = 1;
    else if (xpbd__io_is(k, "2.2") || xpbd__io_is(k, "2.1") || xpbd__io_is(k, "2.0") || xpbd__io_is(k, "2"))
        g->v41 = 0;
    else
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE,
                                "MSH version '%.*s' not supported (4.1 or 2.2)", XPBD__IO_TOK(k));
    int64_t type, size;
    const char *at;
    xpbd__io_at_eol(t);
    at = t->p;
    if ((st = xpbd__io_int(t, "file type", 0, 1, &type)) != XPBD_OK)
        return st;
    g->binary = type == 1;
    if (g->binary && !g->v41)
        return xpbd__io_fail_at(t, at, XPBD_ERR_FILE,
                                "binary MSH 2 not supported (4.1 binary, 2.2 ASCII)");
    xpbd__io_at_eol(t);
    at = t->p;
    if ((st = xpbd__io_int(t, "data size", 1, 64, &size)) != XPBD_OK)
        return st;
    if (g->binary && size != 4 && size != 8)
        return xpbd__io_fail_at(t, at, XPBD_ERR_FILE, "data size %lld: 4 or 8 in a binary file",
                                (long long)size);
    g->ds = (size_t)size;
    if ((st = xpbd__io_eol(t, "$MeshFormat")) != XPBD_OK)
        return st;
    xpbd__io_next_line(t);
    if (g->binary) {
        /* the integer 1, written in the file's byte order: binary data from
         * here on, whose bytes are not counted as lines */
        t->lines = 0;
        if (gm_left(g) < 4)
            return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "cut short: no one-int check");
        const unsigned char *b = (const unsigned char *)t->p;
        if (b[0] == 1 && !b[1] && !b[2] && !b[3]) {
            g->le = 1;
        } else if (!b[0] && !b[1] && !b[2] && b[3] == 1) {
            g->le = 0;
        } else {
            return xpbd__io_fail_at(t, t->p, XPBD_ERR_FILE,
                                    "one-int check %02x %02x %02x %02x is 1 in neither byte order",
                                    b[0], b[1], b[2], b[3]);
        }
        t->p += 4;
    }
    return gm_close(g, "MeshFormat");
}

static xpbd_status gm_names(gm *g)
{
    xpbd__io_text *t = &g->t;
    xpbd_status st;
    const char *at;
    int64_t n;
    if ((st = gm_open(g, "$PhysicalNames")) != XPBD_OK)
        return st;
    /* ASCII in binary files too */
    if (!xpbd__io_record(t))
        return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "cut short in $PhysicalNames");
    xpbd__io_at_eol(t);
    at = t->p;
    if ((st = xpbd__io_int(t, "physical name count", 0, INT64_MAX, &n)) != XPBD_OK ||
        (st = xpbd__io_eol(t, "physical name count")) != XPBD_OK)
        return st;
    xpbd__io_next_line(t);
    /* "2 1 \"\"\n" at least */
    if ((uint64_t)n > gm_left(g) || !xpbd__io_fits((size_t)n, 7, gm_left(g)))
        return xpbd__io_fail_at(t, at, XPBD_ERR_FILE,
                                "%lld physical names cannot fit in the %zu bytes left",
                                (long long)n, gm_left(g));
    xpbd_mesh_data *m = &g->m;
    if (!XPBD__IO_ALLOC(m->label_id, (size_t)n, sizeof *m->label_id, 0) ||
        !XPBD__IO_ALLOC(m->label_name, (size_t)n, sizeof *m->label_name, 1))
        return xpbd__io_fail_at(t, at, XPBD_ERR_NOMEM, "no memory for %lld physical names",
                                (long long)n);
    for (int64_t i = 0; i < n; ++i) {
        int64_t dim, tag;
        if (!xpbd__io_record(t))
            return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "cut short: %lld of %lld physical names",
                                     (long long)i, (long long)n);
        if ((st = xpbd__io_int(t, "physical name dimension", 0, 3, &dim)) != XPBD_OK ||
            (st = xpbd__io_int(t, "physical tag", INT32_MIN, INT32_MAX, &tag)) != XPBD_OK)
            return st;
        xpbd__io_at_eol(t);
        at = t->p;
        const char *nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
        const char *line_end = nl ? nl : t->end;
        const char *close = NULL;
        if (t->p < line_end && *t->p == '"')
            close = memchr(t->p + 1, '"', (size_t)(line_end - t->p - 1));
        if (!close)
            return xpbd__io_fail_at(t, at, XPBD_ERR_FILE,
                                    "physical name missing or not closed by '\"' on its line");
        const size_t len = (size_t)(close - t->p - 1);
        if (dim >= 2) {
            char *s = malloc(len + 1);
            if (!s)
                return xpbd__io_fail_at(t, at, XPBD_ERR_NOMEM, "no memory for a physical name");
            memcpy(s, t->p + 1, len);
            s[len] = '\0';
            m->label_id[m->labels] = (int32_t)tag;
            m->label_name[m->labels++] = s;
        }
        t->p = close + 1;
        if ((st = xpbd__io_eol(t, "physical name")) != XPBD_OK)
            return st;
        xpbd__io_next_line(t);
    }
    if (m->labels == 0) {
        free(m->label_id);
        free(m->label_name);
        m->label_id = NULL;
        m->label_name = NULL;
    }
    return gm_close(g, "PhysicalNames");
}

static int gm_entity_cmp(const void *a, const void *b)
{
    const int32_t x = ((const gm_entity *)a)->tag, y = ((const gm_entity *)b)->tag;
    return (x > y) - (x < y);
}

/* A list of int tags after its size_t count (physical tags, bounding
 * entities); *first: the first one, 0 when the list is empty. */
static xpbd_status gm_tag_list(gm *g, const char *what, int32_t *first)
{
    int64_t n;
    const char *at;
    xpbd_status st = gm_int(g, 1, what, 0, INT64_MAX, &n, &at);
    if (st != XPBD_OK)
        return st;
    if ((uint64_t)n > gm_left(g) / (g->binary ? 4 : 2))
        return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE, "%s %lld: more than the file holds",
                                what, (long long)n);
    if (first)
        *first = 0;
    for (int64_t k = 0; k < n; ++k) {
        int64_t v;
        if ((st = gm_int(g, 0, "tag", INT32_MIN, INT32_MAX, &v, NULL)) != XPBD_OK)
            return st;
        if (k == 0 && first)
            *first = (int32_t)v;
    }
    return XPBD_OK;
}

static xpbd_status gm_entities(gm *g, const char *section)
{
    xpbd_status st;
    if (g->have_nodes || g->have_elements)
        return xpbd__io_fail_at(&g->t, section, XPBD_ERR_FILE, "$Entities after $%s",
                                g->have_nodes ? "Nodes" : "Elements");
    if ((st = gm_open(g, "$Entities")) != XPBD_OK)
        return st;
    gm_binary_data(g);
    if ((st = gm_record(g, "$Entities")) != XPBD_OK)
        return st;
    int64_t count[4];
    const char *at[4];
    static const char *const what[4] = {"point entity count", "curve entity count",
                                        "surface entity count", "volume entity count"};
    for (int d = 0; d < 4; ++d)
        if ((st = gm_int(g, 1, what[d], 0, INT64_MAX, &count[d], &at[d])) != XPBD_OK)
            return st;
    if ((st = gm_end_record(g, "entity counts")) != XPBD_OK)
        return st;
    for (int d = 0; d < 4; ++d) {
        /* a point: tag x y z, a count; the others: tag, 6 reals, 2 counts */
        const size_t min = g->binary ? (d ? 4 + 48 + 2 * g->ds : 4 + 24 + g->ds) : d ? 18 : 10;
        if ((uint64_t)count[d] > gm_left(g) || !xpbd__io_fits((size_t)count[d], min, gm_left(g)))
            return xpbd__io_fail_at(&g->t, at[d], XPBD_ERR_FILE,
                                    "%s %lld: more than the file holds", what[d],
                                    (long long)count[d]);
    }
    for (int d = 2; d < 4; ++d) {
        if (!XPBD__IO_ALLOC(g->ent[d - 2], (size_t)count[d], sizeof *g->ent[0], 0))
            return xpbd__io_fail_at(&g->t, at[d], XPBD_ERR_NOMEM, "no memory for %lld entities",
                                    (long long)count[d]);
        g->nent[d - 2] = (size_t)count[d];
    }
    for (int d = 0; d < 4; ++d) {
        for (int64_t i = 0; i < count[d]; ++i) {
            int64_t tag;
            const char *tat;
            double v;
            if ((st = gm_record(g, "$Entities")) != XPBD_OK)
                return st;
            const size_t line = g->t.lines ? g->t.line : 0;
            if ((st = gm_int(g, 0, "entity tag", INT32_MIN, INT32_MAX, &tag, &tat)) != XPBD_OK)
                return st;
            for (int k = 0; k < (d ? 6 : 3); ++k)
                if ((st = gm_real(g, d ? "bounding box" : "point coordinate", &v, NULL)) !=
                    XPBD_OK)
                    return st;
            int32_t phys;
            if ((st = gm_tag_list(g, "physical tag count", &phys)) != XPBD_OK)
                return st;
            if (d > 0 && (st = gm_tag_list(g, "bounding entity count", NULL)) != XPBD_OK)
                return st;
            if ((st = gm_end_record(g, "entity")) != XPBD_OK)
                return st;
            if (d >= 2) {
                gm_entity *e = &g->ent[d - 2][i];
                e->tag = (int32_t)tag;
                e->phys = phys;
                e->line = line;
                e->offset = (size_t)(tat - g->t.begin);
            }
        }
    }
    for (int d = 0; d < 2; ++d) {
        if (g->nent[d] > 1)
            qsort(g->ent[d], g->nent[d], sizeof *g->ent[d], gm_entity_cmp);
        for (size_t i = 1; i < g->nent[d]; ++i)
            if (g->ent[d][i].tag == g->ent[d][i - 1].tag) {
                const gm_entity *e = g->ent[d][i].offset > g->ent[d][i - 1].offset
                                         ? &g->ent[d][i]
                                         : &g->ent[d][i - 1];
                return xpbd__io_fail(g->err, XPBD_ERR_FILE, e->line, e->offset, "",
                                     "%s entity %d repeated in $Entities",
                                     d ? "volume" : "surface", (int)e->tag);
            }
    }
    g->have_entities = 1;
    return gm_close(g, "Entities");
}

static int gm_key_cmp(const void *a, const void *b)
{
    const uint64_t x = ((const gm_key *)a)->tag, y = ((const gm_key *)b)->tag;
    return (x > y) - (x < y);
}

/* Node tags to indices: consecutive tags need no table; others are
 * sorted, a repeated one refused (named at the $Nodes line). */
static xpbd_status gm_map(gm *g, size_t line, const char *section)
{
    const size_t n = g->m.particles;
    size_t i = 1;
    while (i < n && g->tags[i] == g->tags[0] + i)
        ++i;
    if (i == n) {
        g->tag0 = g->tags[0];
    } else {
        if (!XPBD__IO_ALLOC(g->keys, n, sizeof *g->keys, 0))
            return xpbd__io_fail(g->err, XPBD_ERR_NOMEM, 0, 0, "",
                                 "no memory for the map of %zu node tags", n);
        for (i = 0; i < n; ++i) {
            g->keys[i].tag = g->tags[i];
            g->keys[i].index = (uint32_t)i;
        }
        qsort(g->keys, n, sizeof *g->keys, gm_key_cmp);
        for (i = 1; i < n; ++i)
            if (g->keys[i].tag == g->keys[i - 1].tag)
                return xpbd__io_fail(g->err, XPBD_ERR_FILE, line,
                                     (size_t)(section - g->t.begin), "",
                                     "$Nodes: node tag %llu repeated",
                                     (unsigned long long)g->keys[i].tag);
    }
    free(g->tags);
    g->tags = NULL;
    return XPBD_OK;
}

static int gm_lookup(const gm *g, uint64_t tag, uint32_t *index)
{
    const size_t n = g->m.particles;
    if (!g->keys) {
        if (tag < g->tag0 || tag - g->tag0 >= n)
            return 0;
        *index = (uint32_t)(tag - g->tag0);
        return 1;
    }
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (g->keys[mid].tag < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n || g->keys[lo].tag != tag)
        return 0;
    *index = g->keys[lo].index;
    return 1;
}

/* One node's coordinates, then (4.1, parametric) extra reals to skip. */
static xpbd_status gm_coords(gm *g, size_t i, int64_t extra)
{
    static const char *const axis[3] = {"x", "y", "z"};
    xpbd_status st;
    for (int a = 0; a < 3; ++a) {
        double v;
        const char *at = NULL;
        if ((st = gm_real(g, axis[a], &v, &at)) != XPBD_OK)
            return st;
        if (!isfinite(v))
            return xpbd__io_fail_at(&g->t, at, XPBD_ERR_POSITION, "node %zu: %s is not finite",
                                    i, axis[a]);
        g->m.xyz[3 * i + (size_t)a] = v;
    }
    for (int64_t k = 0; k < extra; ++k) {
        double v;
        if ((st = gm_real(g, "parametric coordinate", &v, NULL)) != XPBD_OK)
            return st;
    }
    return XPBD_OK;
}

/* The $Nodes header: (4.1) the block count and the tag range, the node
 * count; the arrays for the nodes allocated. *at: the node count's text. */
static xpbd_status gm_nodes_header(gm *g, int64_t *blocks, int64_t *n, int64_t *lo_tag,
                                   int64_t *hi_tag, const char **at)
{
    xpbd_status st;
    if (g->v41) {
        if ((st = gm_int(g, 1, "node block count", 0, INT64_MAX, blocks, at)) != XPBD_OK)
            return st;
        const size_t min = g->binary ? 12 + g->ds : 8;
        if ((uint64_t)*blocks > gm_left(g) || !xpbd__io_fits((size_t)*blocks, min, gm_left(g)))
            return xpbd__io_fail_at(&g->t, *at, XPBD_ERR_FILE,
                                    "%lld node blocks: more than the file holds",
                                    (long long)*blocks);
    }
    if ((st = gm_int(g, 1, "node count", 0, INT64_MAX, n, at)) != XPBD_OK)
        return st;
    if (g->v41 &&
        ((st = gm_int(g, 1, "minimum node tag", 0, INT64_MAX, lo_tag, NULL)) != XPBD_OK ||
         (st = gm_int(g, 1, "maximum node tag", 0, INT64_MAX, hi_tag, NULL)) != XPBD_OK))
        return st;
    if ((st = gm_end_record(g, "$Nodes header")) != XPBD_OK)
        return st;
    if (*n == 0)
        return xpbd__io_fail_at(&g->t, *at, XPBD_ERR_FILE, "no nodes");
    /* a tag and three coordinates: 8 bytes in ASCII at least */
    const size_t min = g->binary ? g->ds + 24 : 8;
    if ((uint64_t)*n > gm_left(g) || !xpbd__io_fits((size_t)*n, min, gm_left(g)))
        return xpbd__io_fail_at(&g->t, *at, XPBD_ERR_FILE,
                                "%lld nodes cannot fit in the %zu bytes left", (long long)*n,
                                gm_left(g));
    if ((uint64_t)*n > UINT32_MAX)
        return xpbd__io_fail_at(&g->t, *at, XPBD_ERR_FILE,
                                "%lld nodes: more than 32-bit indices number", (long long)*n);
    xpbd_mesh_data *m = &g->m;
    if (!XPBD__IO_ALLOC(m->xyz, (size_t)*n, 3 * sizeof *m->xyz, 0) ||
        !XPBD__IO_ALLOC(g->tags, (size_t)*n, sizeof *g->tags, 0))
        return xpbd__io_fail_at(&g->t, *at, XPBD_ERR_NOMEM, "no memory for %lld nodes",
                                (long long)*n);
    m->particles = (size_t)*n;
    return XPBD_OK;
}

/* One node block of 4.1 (n nodes in all, filled before it, tags in [lo_tag,
 * hi_tag]): its header, its tags, then their coordinates. *nb: its nodes. */
static xpbd_status gm_node_block_v41(gm *g, int64_t n, size_t filled, int64_t lo_tag,
                                     int64_t hi_tag, int64_t *nb)
{
    xpbd_status st;
    int64_t dim, tag, param;
    const char *at;
    if ((st = gm_record(g, "$Nodes")) != XPBD_OK ||
        (st = gm_int(g, 0, "entity dimension", 0, 3, &dim, NULL)) != XPBD_OK ||
        (st = gm_int(g, 0, "entity tag", INT32_MIN, INT32_MAX, &tag, NULL)) != XPBD_OK ||
        (st = gm_int(g, 0, "parametric flag", 0, 1, &param, NULL)) != XPBD_OK ||
        (st = gm_int(g, 1, "nodes in block", 0, INT64_MAX, nb, &at)) != XPBD_OK ||
        (st = gm_end_record(g, "node block header")) != XPBD_OK)
        return st;
    if ((uint64_t)*nb > (uint64_t)n - filled)
        return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE,
                                "node blocks hold more than the header's %lld nodes",
                                (long long)n);
    const int64_t extra = param ? dim : 0;
    for (int64_t j = 0; j < *nb; ++j) {
        int64_t tag_j;
        if ((st = gm_record(g, "$Nodes")) != XPBD_OK ||
            (st = gm_int(g, 1, "node tag", 1, INT64_MAX, &tag_j, &at)) != XPBD_OK)
            return st;
        if (tag_j < lo_tag || tag_j > hi_tag)
            return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE,
                                    "node tag %lld outside the header's [%lld, %lld]",
                                    (long long)tag_j, (long long)lo_tag, (long long)hi_tag);
        g->tags[filled + (size_t)j] = (uint64_t)tag_j;
        if ((st = gm_end_record(g, "node tag")) != XPBD_OK)
            return st;
    }
    for (int64_t j = 0; j < *nb; ++j)
        if ((st = gm_record(g, "$Nodes")) != XPBD_OK ||
            (st = gm_coords(g, filled + (size_t)j, extra)) != XPBD_OK ||
            (st = gm_end_record(g, "node coordinates")) != XPBD_OK)
            return st;
    return XPBD_OK;
}

/* The n nodes of 2.x, one record each: tag and coordinates. */
static xpbd_status gm_nodes_v2(gm *g, int64_t n)
{
    xpbd_status st;
    for (int64_t j = 0; j < n; ++j) {
        int64_t tag_j;
        if ((st = gm_record(g, "$Nodes")) != XPBD_OK)
            return st;
        if ((st = gm_int(g, 1, "node tag", 1, INT64_MAX, &tag_j, NULL)) != XPBD_OK ||
            (st = gm_coords(g, (size_t)j, 0)) != XPBD_OK ||
            (st = gm_end_record(g, "node")) != XPBD_OK)
            return st;
        g->tags[j] = (uint64_t)tag_j;
    }
    return XPBD_OK;
}

static xpbd_status gm_nodes(gm *g, const char *section)
{
    xpbd_status st;
    const size_t section_line = g->t.lines ? g->t.line : 0;
    if (g->have_nodes)
        return xpbd__io_fail_at(&g->t, section, XPBD_ERR_FILE, "second $Nodes section");
    if (g->have_elements)
        return xpbd__io_fail_at(&g->t, section, XPBD_ERR_FILE, "$Nodes after $Elements");
    if ((st = gm_open(g, "$Nodes")) != XPBD_OK)
        return st;
    gm_binary_data(g);
    if ((st = gm_record(g, "$Nodes")) != XPBD_OK)
        return st;
    int64_t blocks = 1, n, lo_tag = 1, hi_tag = INT64_MAX;
    const char *at;
    if ((st = gm_nodes_header(g, &blocks, &n, &lo_tag, &hi_tag, &at)) != XPBD_OK)
        return st;
    size_t filled = 0;
    if (g->v41) {
        for (int64_t b = 0; b < blocks; ++b) {
            int64_t nb;
            if ((st = gm_node_block_v41(g, n, filled, lo_tag, hi_tag, &nb)) != XPBD_OK)
                return st;
            filled += (size_t)nb;
        }
    } else {
        if ((st = gm_nodes_v2(g, n)) != XPBD_OK)
            return st;
        filled = (size_t)n;
    }
    if (filled != (size_t)n)
        return xpbd__io_fail_at(&g->t, g->t.p, XPBD_ERR_FILE,
                                "node blocks hold %zu nodes, the header says %lld", filled,
                                (long long)n);
    if ((st = gm_close(g, "Nodes")) != XPBD_OK ||
        (st = gm_map(g, section_line, section)) != XPBD_OK)
        return st;
    g->have_nodes = 1;
    return XPBD_OK;
}

/* Nodes of an element type (0: not known here). */
static int64_t gm_type_nodes(int64_t type)
{
    static const unsigned char nodes[32] = {0,  2,  3,  4,  4,  8,  6,  5,  3,  6,  9,
                                            10, 27, 18, 14, 1,  8,  20, 15, 13, 9,  10,
                                            12, 15, 15, 21, 4,  5,  6,  20, 35, 56};
    if (type >= 0 && type < 32)
        return nodes[type];
    if (type == 92)
        return 64;
    if (type == 93)
        return 125;
    return 0;
}

/* The physical tag of an element block's entity (4.1). */
static xpbd_status gm_block_label(gm *g, int64_t dim, int64_t tag, const char *at, int32_t *label)
{
    *label = 0;
    if (!g->have_entities)
        return XPBD_OK;
    const gm_entity key = {(int32_t)tag, 0, 0, 0};
    const gm_entity *e = g->nent[dim - 2] ? bsearch(&key, g->ent[dim - 2], g->nent[dim - 2],
                                                    sizeof key, gm_entity_cmp)
                                          : NULL;
    if (!e)
        return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE, "entity (%lld, %lld) not in $Entities",
                                (long long)dim, (long long)tag);
    *label = e->phys;
    return XPBD_OK;
}

typedef struct gm_count {
    size_t tri, tet, skipped;
} gm_count;

/* One element of a kept type: its tag, k node tags; fill: resolved and
 * written to the mesh at slot (triangle or tet), with its label. */
static xpbd_status gm_element(gm *g, int64_t k, int fill, size_t slot, int32_t label)
{
    int64_t tag, node;
    const char *at;
    xpbd_status st = gm_int(g, 1, "element tag", 0, INT64_MAX, &tag, NULL);
    if (st != XPBD_OK)
        return st;
    xpbd_mesh_data *m = &g->m;
    uint32_t *out = !fill ? NULL : k == 3 ? m->triangle + 3 * slot : m->tet + 4 * slot;
    for (int64_t c = 0; c < k; ++c) {
        if ((st = gm_int(g, 1, "node tag", 0, INT64_MAX, &node, &at)) != XPBD_OK)
            return st;
        if (fill && !gm_lookup(g, (uint64_t)node, &out[c]))
            return xpbd__io_fail_at(&g->t, at, XPBD_ERR_INDEX,
                                    "element %lld: node tag %lld not in $Nodes", (long long)tag,
                                    (long long)node);
    }
    if (fill) {
        int32_t *labels = k == 3 ? m->triangle_label : m->tet_label;
        labels[slot] = label;
    }
    return XPBD_OK;
}

static xpbd_status gm_elements_v41(gm *g, int fill, gm_count *c)
{
    xpbd_status st;
    int64_t blocks, n, lo, hi;
    const char *at, *nat;
    memset(c, 0, sizeof *c);
    if ((st = gm_record(g, "$Elements")) != XPBD_OK ||
        (st = gm_int(g, 1, "element block count", 0, INT64_MAX, &blocks, &at)) != XPBD_OK ||
        (st = gm_int(g, 1, "element count", 0, INT64_MAX, &n, &nat)) != XPBD_OK ||
        (st = gm_int(g, 1, "minimum element tag", 0, INT64_MAX, &lo, NULL)) != XPBD_OK ||
        (st = gm_int(g, 1, "maximum element tag", 0, INT64_MAX, &hi, NULL)) != XPBD_OK ||
        (st = gm_end_record(g, "$Elements header")) != XPBD_OK)
        return st;
    const size_t bmin = g->binary ? 12 + g->ds : 8;
    if ((uint64_t)blocks > gm_left(g) || !xpbd__io_fits((size_t)blocks, bmin, gm_left(g)))
        return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE,
                                "%lld element blocks: more than the file holds", (long long)blocks);
    const size_t emin = g->binary ? 2 * g->ds : 4;
    if ((uint64_t)n > gm_left(g) || !xpbd__io_fits((size_t)n, emin, gm_left(g)))
        return xpbd__io_fail_at(&g->t, nat, XPBD_ERR_FILE,
                                "%lld elements cannot fit in the %zu bytes left", (long long)n,
                                gm_left(g));
    uint64_t total = 0;
    for (int64_t b = 0; b < blocks; ++b) {
        int64_t dim, etag, type, nb;
        const char *dat, *tat;
        if ((st = gm_record(g, "$Elements")) != XPBD_OK ||
            (st = gm_int(g, 0, "entity dimension", 0, 3, &dim, &dat)) != XPBD_OK ||
            (st = gm_int(g, 0, "entity tag", INT32_MIN, INT32_MAX, &etag, NULL)) != XPBD_OK ||
            (st = gm_int(g, 0, "element type", INT32_MIN, INT32_MAX, &type, &tat)) != XPBD_OK ||
            (st = gm_int(g, 1, "elements in block", 0, INT64_MAX, &nb, &at)) != XPBD_OK ||
            (st = gm_end_record(g, "element block header")) != XPBD_OK)
            return st;
        if ((uint64_t)nb > (uint64_t)n - total)
            return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE,
                                    "element blocks hold more than the header's %lld elements",
                                    (long long)n);
        total += (uint64_t)nb;
        const int64_t k = gm_type_nodes(type);
        const int kept = type == 2 || type == 4;
        int32_t label = 0;
        if (kept) {
            const int64_t want = type == 2 ? 2 : 3;
            if (dim != want)
                return xpbd__io_fail_at(&g->t, dat, XPBD_ERR_FILE,
                                        "%s in an entity of dimension %lld",
                                        type == 2 ? "triangles" : "tetrahedra", (long long)dim);
            if (fill && (st = gm_block_label(g, dim, etag, dat, &label)) != XPBD_OK)
                return st;
        }
        if (g->binary && k == 0)
            return xpbd__io_fail_at(&g->t, tat, XPBD_ERR_FILE,
                                    "element type %lld: node count not known", (long long)type);
        if (g->binary && (uint64_t)nb > gm_left(g) / ((uint64_t)(1 + k) * g->ds))
            return gm_cut(g, "an element block");
        for (int64_t j = 0; j < nb; ++j) {
            if (!kept) {
                if (g->binary) {
                    if ((st = gm_skip(g, (uint64_t)(1 + k) * g->ds, "an element")) != XPBD_OK)
                        return st;
                } else {
                    if ((st = gm_record(g, "$Elements")) != XPBD_OK)
                        return st;
                    xpbd__io_next_line(&g->t);
                }
                ++c->skipped;
                continue;
            }
            size_t *slot = type == 2 ? &c->tri : &c->tet;
            if ((st = gm_record(g, "$Elements")) != XPBD_OK ||
                (st = gm_element(g, type == 2 ? 3 : 4, fill, *slot, label)) != XPBD_OK ||
                (st = gm_end_record(g, "element")) != XPBD_OK)
                return st;
            ++*slot;
        }
    }
    if (total != (uint64_t)n)
        return xpbd__io_fail_at(&g->t, g->t.p, XPBD_ERR_FILE,
                                "element blocks hold %llu elements, the header says %lld",
                                (unsigned long long)total, (long long)n);
    return XPBD_OK;
}

static xpbd_status gm_elements_v2(gm *g, int fill, gm_count *c)
{
    xpbd_status st;
    int64_t n;
    const char *at;
    memset(c, 0, sizeof *c);
    if ((st = gm_record(g, "$Elements")) != XPBD_OK ||
        (st = gm_int(g, 1, "element count", 0, INT64_MAX, &n, &at)) != XPBD_OK ||
        (st = gm_end_record(g, "$Elements header")) != XPBD_OK)
        return st;
    /* "1 15 0 1\n" at least */
    if ((uint64_t)n > gm_left(g) || !xpbd__io_fits((size_t)n, 8, gm_left(g)))
        return xpbd__io_fail_at(&g->t, at, XPBD_ERR_FILE,
                                "%lld elements cannot fit in the %zu bytes left", (long long)n,
                                gm_left(g));
    for (int64_t j = 0; j < n; ++j) {
        int64_t tag, type, ntags, v;
        if ((st = gm_record(g, "$Elements")) != XPBD_OK ||
            (st = gm_int(g, 1, "element number", 0, INT64_MAX, &tag, NULL)) != XPBD_OK ||
            (st = gm_int(g, 0, "element type", INT32_MIN, INT32_MAX, &type, NULL)) != XPBD_OK)
            return st;
        if (type != 2 && type != 4) {
            xpbd__io_next_line(&g->t);
            ++c->skipped;
            continue;
        }
        if ((st = gm_int(g, 0, "tag count", 0, INT32_MAX, &ntags, NULL)) != XPBD_OK)
            return st;
        int32_t label = 0;
        for (int64_t k = 0; k < ntags; ++k) {
            if ((st = gm_int(g, 0, "element tag", INT32_MIN, INT32_MAX, &v, NULL)) != XPBD_OK)
                return st;
            if (k == 0)
                label = (int32_t)v;
        }
        const int64_t k = type == 2 ? 3 : 4;
        size_t *slot = type == 2 ? &c->tri : &c->tet;
        xpbd_mesh_data *m = &g->m;
        uint32_t *out = !fill ? NULL : k == 3 ? m->triangle + 3 * *slot : m->tet + 4 * *slot;
        for (int64_t q = 0; q < k; ++q) {
            const char *nat;
            if ((st = gm_int(g, 1, "node number", 0, INT64_MAX, &v, &nat)) != XPBD_OK)
                return st;
            if (fill && !gm_lookup(g, (uint64_t)v, &out[q]))
                return xpbd__io_fail_at(&g->t, nat, XPBD_ERR_INDEX,
                                        "element %lld: node %lld not in $Nodes", (long long)tag,
                                        (long long)v);
        }
        if (fill)
            (k == 3 ? m->triangle_label : m->tet_label)[*slot] = label;
        if ((st = gm_end_record(g, "element")) != XPBD_OK)
            return st;
        ++*slot;
    }
    return XPBD_OK;
}

/* NULL for an all-zero label array: no element has a physical group. */
static void gm_drop_zero_labels(int32_t **labels, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if ((*labels)[i] != 0)
            return;
    free(*labels);
    *labels = NULL;
}

static xpbd_status gm_elements(gm *g, const char *section)
{
    xpbd_status st;
    if (g->have_elements)
        return xpbd__io_fail_at(&g->t, section, XPBD_ERR_FILE, "second $Elements section");
    if (!g->have_nodes)
        return xpbd__io_fail_at(&g->t, section, XPBD_ERR_FILE, "$Elements before $Nodes");
    if ((st = gm_open(g, "$Elements")) != XPBD_OK)
        return st;
    gm_binary_data(g);
    const xpbd__io_text start = g->t;
    gm_count c;
    st = g->v41 ? gm_elements_v41(g, 0, &c) : gm_elements_v2(g, 0, &c);
    if (st != XPBD_OK)
        return st;
    xpbd_mesh_data *m = &g->m;
    if (!XPBD__IO_ALLOC(m->triangle, c.tri, 3 * sizeof *m->triangle, 0) ||
        !XPBD__IO_ALLOC(m->triangle_label, c.tri, sizeof *m->triangle_label, 0) ||
        !XPBD__IO_ALLOC(m->tet, c.tet, 4 * sizeof *m->tet, 0) ||
        !XPBD__IO_ALLOC(m->tet_label, c.tet, sizeof *m->tet_label, 0))
        return xpbd__io_fail_at(&g->t, start.p, XPBD_ERR_NOMEM,
                                "no memory for %zu triangles, %zu tets", c.tri, c.tet);
    m->triangles = c.tri;
    m->tets = c.tet;
    g->t = start;
    st = g->v41 ? gm_elements_v41(g, 1, &c) : gm_elements_v2(g, 1, &c);
    if (st != XPBD_OK)
        return st;
    gm_drop_zero_labels(&m->triangle_label, m->triangles);
    gm_drop_zero_labels(&m->tet_label, m->tets);
    g->skipped = c.skipped;
    g->have_elements = 1;
    return gm_close(g, "Elements");
}

static xpbd_status gm_sections(gm *g)
{
    xpbd_status st = gm_format(g);
    if (st != XPBD_OK)
        return st;
    while (xpbd__io_record(&g->t)) {
        xpbd__io_tok k;
        xpbd__io_token(&g->t, &k);
        if (k.n < 2 || k.s[0] != '$')
            return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE,
                                    "'%.*s' where a section ($Name) should start",
                                    XPBD__IO_TOK(k));
        if (xpbd__io_is(k, "$PhysicalNames")) {
            if (g->have_names)
                return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE,
                                        "second $PhysicalNames section");
            g->have_names = 1;
            st = gm_names(g);
        } else if (xpbd__io_is(k, "$Entities") && g->v41) {
            if (g->have_entities)
                return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE, "second $Entities section");
            st = gm_entities(g, k.s);
        } else if (xpbd__io_is(k, "$Nodes")) {
            st = gm_nodes(g, k.s);
        } else if (xpbd__io_is(k, "$Elements")) {
            st = gm_elements(g, k.s);
        } else if (xpbd__io_is(k, "$MeshFormat")) {
            return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE, "second $MeshFormat section");
        } else if (k.n > 4 && memcmp(k.s, "$End", 4) == 0) {
            return xpbd__io_fail_at(&g->t, k.s, XPBD_ERR_FILE, "'%.*s' closes no section",
                                    XPBD__IO_TOK(k));
        } else {
            st = gm_skip_section(g, k);
        }
        if (st != XPBD_OK)
            return st;
    }
    if (!g->have_nodes)
        return xpbd__io_fail_eof(&g->t, XPBD_ERR_FILE, "no $Nodes section");
    if (!g->have_elements)
        return xpbd__io_fail_eof(&g->t, XPBD_ERR_FILE, "no $Elements section");
    return XPBD_OK;
}

xpbd_status xpbd_io_load_gmsh_mem(const void *data, size_t size, xpbd_mesh_data *out,
                                  xpbd_io_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || (!data && size > 0))
        return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "", "%s is NULL",
                             out ? "data" : "out");
    gm g;
    memset(&g, 0, sizeof g);
    xpbd__io_text_init(&g.t, data, size, "", err);
    g.err = err;
    const xpbd_status st = gm_sections(&g);
    if (st != XPBD_OK) {
        gm_free(&g);
        return st;
    }
    *out = g.m;
    memset(&g.m, 0, sizeof g.m);
    const size_t skipped = g.skipped;
    gm_free(&g);
    xpbd__io_ok(err, skipped);
    return XPBD_OK;
}

xpbd_status xpbd_io_load_gmsh(const char *path, xpbd_mesh_data *out, xpbd_io_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out)
        return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "", "%s is NULL",
                             out ? "path" : "out");
    char *data;
    size_t size;
    xpbd_status st = xpbd__io_read_file(path, "", &data, &size, NULL, err);
    if (st != XPBD_OK)
        return st;
    st = xpbd_io_load_gmsh_mem(data, size, out, err);
    free(data);
    return st;
}
