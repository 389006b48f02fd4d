/* SPDX-License-Identifier: MIT */
/* TetGen's .node, .ele and .face files (xpbd/io.h). Each file's header
 * gives its counts, so the arrays are allocated once, after the counts are
 * checked against the bytes left in the file. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct tg_in {
    const void *data;
    size_t size;
} tg_in;

/* The header's values: the count, then up to 3 more, each with its
 * default when left out; *line and *offset: where the header is. */
static xpbd_status tg_header(xpbd__io_text *t, int n, const char *const *names,
                             const int64_t *lo, const int64_t *hi, int64_t *v, size_t *line,
                             size_t *offset)
{
    if (!xpbd__io_record(t))
        return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "empty: no header line");
    *line = t->line;
    *offset = (size_t)(t->p - t->begin);
    xpbd_status st;
    for (int k = 0; k < n; ++k) {
        if (k > 0 && xpbd__io_at_eol(t))
            break; /* left out: the default */
        if ((st = xpbd__io_int(t, names[k], lo[k], hi[k], &v[k])) != XPBD_OK)
            return st;
    }
    if ((st = xpbd__io_eol(t, "header")) != XPBD_OK)
        return st;
    xpbd__io_next_line(t);
    return XPBD_OK;
}

/* The record number of record i: the first one of .node sets the base. */
static xpbd_status tg_number(xpbd__io_text *t, const char *what, size_t i, int64_t *base)
{
    xpbd__io_at_eol(t);
    const char *at = t->p;
    int64_t id;
    xpbd_status st = xpbd__io_int(t, what, INT64_MIN, INT64_MAX, &id);
    if (st != XPBD_OK)
        return st;
    if (*base < 0) {
        if (id != 0 && id != 1)
            return xpbd__io_fail_at(t, at, XPBD_ERR_FILE,
                                    "first %s %lld: the numbering starts at 0 or 1", what,
                                    (long long)id);
        *base = id;
    } else if ((uint64_t)id != (uint64_t)*base + i) {
        return xpbd__io_fail_at(t, at, XPBD_ERR_FILE,
                                "%s %lld where %llu is next (numbered consecutively from %lld)",
                                what, (long long)id, (unsigned long long)((uint64_t)*base + i),
                                (long long)*base);
    }
    return XPBD_OK;
}

/* A point number of .ele or .face, as an index of .node. */
static xpbd_status tg_corner(xpbd__io_text *t, int64_t base, size_t points, uint32_t *out)
{
    xpbd__io_at_eol(t);
    const char *at = t->p;
    int64_t id;
    xpbd_status st = xpbd__io_int(t, "corner", INT64_MIN, INT64_MAX, &id);
    if (st != XPBD_OK)
        return st;
    if (id < base || (uint64_t)(id - base) >= points)
        return xpbd__io_fail_at(t, at, XPBD_ERR_INDEX,
                                "point %lld out of range (.node numbers %lld to %lld)",
                                (long long)id, (long long)base,
                                (long long)(base + (int64_t)points - 1));
    *out = (uint32_t)(id - base);
    return XPBD_OK;
}

/* An integer label (region attribute, boundary marker) in int32_t range,
 * written as an integer or as a real with an integral value. */
static xpbd_status tg_label(xpbd__io_text *t, const char *what, int32_t *out)
{
    xpbd__io_at_eol(t);
    const char *at = t->p;
    double v;
    xpbd_status st = xpbd__io_real(t, what, &v);
    if (st != XPBD_OK)
        return st;
    if (!(v >= INT32_MIN && v <= INT32_MAX) || v != floor(v))
        return xpbd__io_fail_at(t, at, XPBD_ERR_FILE, "%s %g is not a 32-bit integer", what, v);
    *out = (int32_t)v;
    return XPBD_OK;
}

static xpbd_status tg_too_many(xpbd__io_text *t, size_t count, const char *what)
{
    if (xpbd__io_record(t))
        return xpbd__io_fail_at(t, t->p, XPBD_ERR_FILE,
                                "more records than the header's %zu %s", count, what);
    return XPBD_OK;
}

static xpbd_status tg_cut(xpbd__io_text *t, size_t i, size_t count, const char *what)
{
    return xpbd__io_fail_eof(t, XPBD_ERR_FILE, "cut short: %zu of the header's %zu %s", i, count,
                             what);
}

static xpbd_status tg_node(const tg_in *in, xpbd_mesh_data *m, int64_t *base, xpbd_io_error *err)
{
    xpbd__io_text t;
    xpbd__io_text_init(&t, in->data, in->size, ".node: ", err);
    t.comments = 1;
    static const char *const names[4] = {"point count", "dimension", "attribute count",
                                         "boundary marker flag"};
    static const int64_t lo[4] = {0, 3, 0, 0}, hi[4] = {INT64_MAX, 3, INT64_MAX, 1};
    int64_t h[4] = {0, 3, 0, 0};
    size_t hl = 0, ho = 0;
    xpbd_status st = tg_header(&t, 4, names, lo, hi, h, &hl, &ho);
    if (st != XPBD_OK)
        return st;
    const size_t left = (size_t)(t.end - t.p);
    if (h[0] == 0)
        return xpbd__io_fail(err, XPBD_ERR_FILE, hl, ho, t.file, "no points");
    /* every value at least one character and a blank */
    if ((uint64_t)h[0] > left || (uint64_t)h[2] > left || (uint64_t)h[0] > UINT32_MAX ||
        !xpbd__io_fits((size_t)h[0], 2 * (4 + (size_t)h[2] + (size_t)h[3]), left))
        return xpbd__io_fail(err, XPBD_ERR_FILE, hl, ho, t.file,
                             "%lld points of %lld attributes cannot fit in the %zu bytes left",
                             (long long)h[0], (long long)h[2], left);
    const size_t n = (size_t)h[0];
    if (!XPBD__IO_ALLOC(m->xyz, n, 3 * sizeof *m->xyz, 0))
        return xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, 0, t.file, "no memory for %zu points", n);
    m->particles = n;
    static const char *const axis[3] = {"x", "y", "z"};
    for (size_t i = 0; i < n; ++i) {
        if (!xpbd__io_record(&t))
            return tg_cut(&t, i, n, "points");
        if ((st = tg_number(&t, "point number", i, base)) != XPBD_OK)
            return st;
        for (int a = 0; a < 3; ++a) {
            xpbd__io_at_eol(&t);
            const char *at = t.p;
            double v;
            if ((st = xpbd__io_real(&t, axis[a], &v)) != XPBD_OK)
                return st;
            if (!isfinite(v))
                return xpbd__io_fail_at(&t, at, XPBD_ERR_POSITION, "point %zu: %s is not finite",
                                        i, axis[a]);
            m->xyz[3 * i + (size_t)a] = v;
        }
        for (int64_t k = 0; k < h[2]; ++k) {
            double v;
            if ((st = xpbd__io_real(&t, "point attribute", &v)) != XPBD_OK)
                return st;
        }
        int64_t marker;
        if (h[3] && (st = xpbd__io_int(&t, "point marker", INT64_MIN, INT64_MAX, &marker)) !=
                        XPBD_OK)
            return st;
        if ((st = xpbd__io_eol(&t, "point")) != XPBD_OK)
            return st;
        xpbd__io_next_line(&t);
    }
    return tg_too_many(&t, n, "points");
}

static xpbd_status tg_ele(const tg_in *in, xpbd_mesh_data *m, int64_t base, xpbd_io_error *err)
{
    xpbd__io_text t;
    xpbd__io_text_init(&t, in->data, in->size, ".ele: ", err);
    t.comments = 1;
    static const char *const names[3] = {"tet count", "points per tet", "attribute count"};
    static const int64_t lo[3] = {0, 4, 0}, hi[3] = {INT64_MAX, 10, INT64_MAX};
    int64_t h[3] = {0, 4, 0};
    size_t hl = 0, ho = 0;
    xpbd_status st = tg_header(&t, 3, names, lo, hi, h, &hl, &ho);
    if (st != XPBD_OK)
        return st;
    if (h[1] != 4 && h[1] != 10)
        return xpbd__io_fail(err, XPBD_ERR_FILE, hl, ho, t.file,
                             "%lld points per tet: 4 or 10", (long long)h[1]);
    const size_t left = (size_t)(t.end - t.p);
    if ((uint64_t)h[0] > left || (uint64_t)h[2] > left ||
        !xpbd__io_fits((size_t)h[0], 2 * (1 + (size_t)h[1] + (size_t)h[2]), left))
        return xpbd__io_fail(err, XPBD_ERR_FILE, hl, ho, t.file,
                             "%lld tets of %lld attributes cannot fit in the %zu bytes left",
                             (long long)h[0], (long long)h[2], left);
    const size_t n = (size_t)h[0];
    if (!XPBD__IO_ALLOC(m->tet, n, 4 * sizeof *m->tet, 0) ||
        (h[2] > 0 && !XPBD__IO_ALLOC(m->tet_label, n, sizeof *m->tet_label, 0)))
        return xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, 0, t.file, "no memory for %zu tets", n);
    m->tets = n;
    for (size_t i = 0; i < n; ++i) {
        if (!xpbd__io_record(&t))
            return tg_cut(&t, i, n, "tets");
        if ((st = tg_number(&t, "tet number", i, &base)) != XPBD_OK)
            return st;
        for (int64_t c = 0; c < h[1]; ++c) {
            uint32_t idx = 0;
            if ((st = tg_corner(&t, base, m->particles, &idx)) != XPBD_OK)
                return st;
            if (c < 4)
                m->tet[4 * i + (size_t)c] = idx;
        }
        for (int64_t k = 0; k < h[2]; ++k) {
            double v;
            if (k == 0)
                st = tg_label(&t, "region attribute", &m->tet_label[i]);
            else
                st = xpbd__io_real(&t, "tet attribute", &v);
            if (st != XPBD_OK)
                return st;
        }
        if ((st = xpbd__io_eol(&t, "tet")) != XPBD_OK)
            return st;
        xpbd__io_next_line(&t);
    }
    return tg_too_many(&t, n, "tets");
}

static xpbd_status tg_face(const tg_in *in, xpbd_mesh_data *m, int64_t base, xpbd_io_error *err)
{
    xpbd__io_text t;
    xpbd__io_text_init(&t, in->data, in->size, ".face: ", err);
    t.comments = 1;
    static const char *const names[2] = {"face count", "boundary marker flag"};
    static const int64_t lo[2] = {0, 0}, hi[2] = {INT64_MAX, 1};
    int64_t h[2] = {0, 0};
    size_t hl = 0, ho = 0;
    xpbd_status st = tg_header(&t, 2, names, lo, hi, h, &hl, &ho);
    if (st != XPBD_OK)
        return st;
    const size_t left = (size_t)(t.end - t.p);
    if ((uint64_t)h[0] > left || !xpbd__io_fits((size_t)h[0], 2 * (4 + (size_t)h[1]), left))
        return xpbd__io_fail(err, XPBD_ERR_FILE, hl, ho, t.file,
                             "%lld faces cannot fit in the %zu bytes left", (long long)h[0], left);
    const size_t n = (size_t)h[0];
    if (!XPBD__IO_ALLOC(m->triangle, n, 3 * sizeof *m->triangle, 0) ||
        (h[1] && !XPBD__IO_ALLOC(m->triangle_label, n, sizeof *m->triangle_label, 0)))
        return xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, 0, t.file, "no memory for %zu faces", n);
    m->triangles = n;
    for (size_t i = 0; i < n; ++i) {
        if (!xpbd__io_record(&t))
            return tg_cut(&t, i, n, "faces");
        if ((st = tg_number(&t, "face number", i, &base)) != XPBD_OK)
            return st;
        for (int c = 0; c < 3; ++c)
            if ((st = tg_corner(&t, base, m->particles, &m->triangle[3 * i + (size_t)c])) !=
                XPBD_OK)
                return st;
        if (h[1] && (st = tg_label(&t, "boundary marker", &m->triangle_label[i])) != XPBD_OK)
            return st;
        /* -nn: the two tets beside the face, skipped */
        if (!xpbd__io_at_eol(&t)) {
            for (int k = 0; k < 2; ++k) {
                int64_t adj;
                if ((st = xpbd__io_int(&t, "adjacent tet", -1, INT64_MAX, &adj)) != XPBD_OK)
                    return st;
            }
        }
        if ((st = xpbd__io_eol(&t, "face")) != XPBD_OK)
            return st;
        xpbd__io_next_line(&t);
    }
    return tg_too_many(&t, n, "faces");
}

xpbd_status xpbd_io_load_tetgen_mem(const void *node, size_t node_size, const void *ele,
                                    size_t ele_size, const void *face, size_t face_size,
                                    xpbd_mesh_data *out, xpbd_io_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || !node || (!ele && ele_size) || (!face && face_size))
        return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "", "%s is NULL",
                             !out ? "out" : !node ? "node" : !ele ? "ele" : "face");
    xpbd_mesh_data m = {0};
    int64_t base = -1;
    const tg_in in_node = {node, node_size}, in_ele = {ele, ele_size}, in_face = {face, face_size};
    xpbd_status st = tg_node(&in_node, &m, &base, err);
    if (st == XPBD_OK && ele)
        st = tg_ele(&in_ele, &m, base, err);
    if (st == XPBD_OK && face)
        st = tg_face(&in_face, &m, base, err);
    if (st != XPBD_OK) {
        xpbd__io_release(&m);
        return st;
    }
    *out = m;
    xpbd__io_ok(err, 0);
    return XPBD_OK;
}

xpbd_status xpbd_io_load_tetgen(const char *path, xpbd_mesh_data *out, xpbd_io_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out)
        return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "", "%s is NULL",
                             out ? "path" : "out");
    size_t n = strlen(path);
    if (n >= 5 && strcmp(path + n - 5, ".node") == 0)
        n -= 5;
    char *name = malloc(n + 6);
    if (!name)
        return xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, 0, "", "no memory for the file names");
    memcpy(name, path, n);
    static const char *const ext[3] = {".node", ".ele", ".face"};
    static const char *const file[3] = {".node: ", ".ele: ", ".face: "};
    char *data[3] = {NULL, NULL, NULL};
    size_t size[3] = {0, 0, 0};
    xpbd_status st = XPBD_OK;
    for (int k = 0; k < 3 && st == XPBD_OK; ++k) {
        memcpy(name + n, ext[k], strlen(ext[k]) + 1);
        int absent = 0;
        st = xpbd__io_read_file(name, file[k], &data[k], &size[k], k ? &absent : NULL, err);
    }
    free(name);
    if (st == XPBD_OK)
        st = xpbd_io_load_tetgen_mem(data[0], size[0], data[1], size[1], data[2], size[2], out,
                                     err);
    for (int k = 0; k < 3; ++k)
        free(data[k]);
    return st;
}
