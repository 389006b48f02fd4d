/* SPDX-License-Identifier: MIT */
/* Wavefront OBJ: vertices and faces (xpbd/io.h). Two passes over the text:
 * the first checks every line and counts, the second fills arrays of the
 * exact sizes. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct obj_counts {
    size_t v, vt, vn;  /* defined so far (totals after the first pass) */
    size_t triangles;
    size_t skipped;
} obj_counts;

typedef struct obj_cfg {
    double scale;
    xpbd_io_up up;
} obj_cfg;

/* One index of a corner (v, vt or vn): value as written, so_far the
 * elements of its kind defined before this line, total (second pass) all
 * of the file's, or SIZE_MAX (first pass: positive ones not checked). */
static xpbd_status obj_index(xpbd__io_text *t, const char *at, const char *kind, int64_t value,
                             size_t so_far, size_t total, size_t *idx)
{
    if (value == 0)
        return xpbd__io_fail_at(t, at, XPBD_ERR_INDEX, "f: %s index 0 (indices start at 1)",
                                kind);
    if (value < 0) {
        if ((uint64_t)-(value + 1) >= so_far)
            return xpbd__io_fail_at(t, at, XPBD_ERR_INDEX,
                                    "f: %s index %lld out of range (%zu defined before)", kind,
                                    (long long)value, so_far);
        *idx = so_far - (size_t)(-(value + 1)) - 1;
        return XPBD_OK;
    }
    if ((uint64_t)value - 1 >= total)
        return xpbd__io_fail_at(t, at, XPBD_ERR_INDEX,
                                "f: %s index %lld out of range (%zu in the file)", kind,
                                (long long)value, total);
    *idx = (size_t)(value - 1);
    return XPBD_OK;
}

/* A corner "v", "v/vt", "v//vn", "v/vt/vn" (empty vt or vn allowed). */
static xpbd_status obj_corner(xpbd__io_text *t, xpbd__io_tok k, const obj_counts *c,
                              const obj_counts *total, size_t *v)
{
    static const char *const kind[3] = {"v", "vt", "vn"};
    const size_t so_far[3] = {c->v, c->vt, c->vn};
    const size_t all[3] = {total ? total->v : SIZE_MAX, total ? total->vt : SIZE_MAX,
                           total ? total->vn : SIZE_MAX};
    size_t part = 0, begin = 0;
    for (size_t i = 0; i <= k.n; ++i) {
        if (i < k.n && k.s[i] != '/')
            continue;
        if (part == 3)
            return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "f: corner '%.*s' has more than 3 parts",
                                    XPBD__IO_TOK(k));
        const xpbd__io_tok sub = {k.s + begin, i - begin};
        if (sub.n == 0) {
            if (part == 0)
                return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "f: corner '%.*s' has no vertex",
                                        XPBD__IO_TOK(k));
        } else {
            int64_t value;
            if (!xpbd__io_parse_int(sub, &value))
                return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE,
                                        "f: corner '%.*s' is not v[/vt][/vn]", XPBD__IO_TOK(k));
            size_t idx = 0;
            const xpbd_status st =
                obj_index(t, sub.s, kind[part], value, so_far[part], all[part], &idx);
            if (st != XPBD_OK)
                return st;
            if (part == 0)
                *v = idx;
        }
        ++part;
        begin = i + 1;
    }
    return XPBD_OK;
}

/* One pass: m NULL counts into *c (total NULL), else fills m (total: the
 * first pass's counts). */
static xpbd_status obj_pass(xpbd__io_text *t, const obj_cfg *cfg, const obj_counts *total,
                            xpbd_mesh_data *m, obj_counts *c)
{
    memset(c, 0, sizeof *c);
    xpbd_status st;
    while (xpbd__io_record(t)) {
        xpbd__io_tok kw;
        xpbd__io_token(t, &kw);
        if (xpbd__io_is(kw, "v")) {
            double x[3];
            static const char *const axis[3] = {"v: x", "v: y", "v: z"};
            const char *at[3];
            for (int a = 0; a < 3; ++a) {
                xpbd__io_at_eol(t);
                at[a] = t->p;
                if ((st = xpbd__io_real(t, axis[a], &x[a])) != XPBD_OK)
                    return st;
                x[a] *= cfg->scale;
                if (!isfinite(x[a]))
                    return xpbd__io_fail_at(t, at[a], XPBD_ERR_POSITION,
                                            "%s is not finite%s", axis[a],
                                            cfg->scale != 1 ? " (scaled)" : "");
            }
            for (int extra = 0; extra < 4 && !xpbd__io_at_eol(t); ++extra) {
                double w;
                if ((st = xpbd__io_real(t, "v: value after x y z", &w)) != XPBD_OK)
                    return st;
            }
            if ((st = xpbd__io_eol(t, "v: x y z and at most 4 more")) != XPBD_OK)
                return st;
            if (m) {
                double *o = m->xyz + 3 * c->v;
                o[0] = x[0];
                if (cfg->up == XPBD_IO_UP_Z) {
                    o[1] = x[2];
                    o[2] = 0.0 - x[1];
                } else {
                    o[1] = x[1];
                    o[2] = x[2];
                }
            }
            if (++c->v > UINT32_MAX)
                return xpbd__io_fail_at(t, kw.s, XPBD_ERR_FILE,
                                        "v: more than %lu vertices (32-bit indices)",
                                        (unsigned long)UINT32_MAX);
        } else if (xpbd__io_is(kw, "vt")) {
            ++c->vt;
        } else if (xpbd__io_is(kw, "vn")) {
            ++c->vn;
        } else if (xpbd__io_is(kw, "f")) {
            xpbd__io_tok k;
            size_t corners = 0, first = 0, prev = 0;
            while (xpbd__io_token(t, &k)) {
                size_t v = 0;
                if ((st = obj_corner(t, k, c, total, &v)) != XPBD_OK)
                    return st;
                if (corners >= 2 && m) {
                    uint32_t *tri = m->triangle + 3 * (c->triangles + corners - 2);
                    tri[0] = (uint32_t)first;
                    tri[1] = (uint32_t)prev;
                    tri[2] = (uint32_t)v;
                }
                if (corners == 0)
                    first = v;
                prev = v;
                ++corners;
            }
            if (corners < 3)
                return xpbd__io_fail_at(t, kw.s, XPBD_ERR_FILE, "f: %zu corners, at least 3 needed",
                                        corners);
            c->triangles += corners - 2;
        } else if (xpbd__io_is(kw, "l") || xpbd__io_is(kw, "p")) {
            ++c->skipped;
        }
        /* everything else (o, g, s, usemtl, mtllib, vp, curves, ...): skipped */
        xpbd__io_next_line(t);
    }
    return XPBD_OK;
}

xpbd_status xpbd_io_load_obj_mem(const void *data, size_t size, const xpbd_obj_options *opt,
                                 xpbd_mesh_data *out, xpbd_io_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || (!data && size > 0))
        return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "", "%s is NULL",
                             out ? "data" : "out");
    obj_cfg cfg = {1.0, XPBD_IO_UP_Y};
    if (opt) {
        if (opt->scale != 0)
            cfg.scale = opt->scale;
        cfg.up = opt->up;
        if (!(isfinite(cfg.scale) && cfg.scale > 0))
            return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "",
                                 "options: scale %g is not finite and > 0", cfg.scale);
        if (cfg.up != XPBD_IO_UP_Y && cfg.up != XPBD_IO_UP_Z)
            return xpbd__io_fail(err, XPBD_ERR_ARGUMENT, 0, 0, "",
                                 "options: up %d is not XPBD_IO_UP_Y or XPBD_IO_UP_Z",
                                 (int)cfg.up);
    }
    xpbd__io_text t;
    xpbd__io_text_init(&t, data, size, "", err);
    t.comments = 1;
    t.joins = 1;
    obj_counts total;
    xpbd_status st = obj_pass(&t, &cfg, NULL, NULL, &total);
    if (st != XPBD_OK)
        return st;
    if (total.v == 0)
        return xpbd__io_fail_eof(&t, XPBD_ERR_FILE, "no vertices (v)");

    xpbd_mesh_data m = {0};
    if (!XPBD__IO_ALLOC(m.xyz, total.v, 3 * sizeof *m.xyz, 0) ||
        !XPBD__IO_ALLOC(m.triangle, total.triangles, 3 * sizeof *m.triangle, 0)) {
        xpbd__io_release(&m);
        return xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, 0, "",
                             "no memory for %zu vertices, %zu triangles", total.v,
                             total.triangles);
    }
    m.particles = total.v;
    m.triangles = total.triangles;
    xpbd__io_text_init(&t, data, size, "", err);
    t.comments = 1;
    t.joins = 1;
    obj_counts c;
    if ((st = obj_pass(&t, &cfg, &total, &m, &c)) != XPBD_OK) {
        xpbd__io_release(&m);
        return st;
    }
    *out = m;
    xpbd__io_ok(err, c.skipped);
    return XPBD_OK;
}

xpbd_status xpbd_io_load_obj(const char *path, const xpbd_obj_options *opt, xpbd_mesh_data *out,
                             xpbd_io_error *err)
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
    st = xpbd_io_load_obj_mem(data, size, opt, out, err);
    free(data);
    return st;
}
