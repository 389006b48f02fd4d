/* SPDX-License-Identifier: MIT */
/* xpbd-replay's --check and --export (replay_tool.h) over the installed
 * replay runner; what touches an engine is written once for float and
 * double in replay_tool_tmpl.h. */
#include "replay_tool.h"

#include <xpbd/io.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"

/* ----------------------------------------------- --export: the meshes --- */

/* what a writer's status means for the export */
static const char *rpl_write_what(xpbd_status st)
{
    return st == XPBD_ERR_FILE ? "cannot be written (does the directory exist, is it writable?)"
                               : xpbd_status_str(st);
}

typedef struct rpl_face {
    uint32_t key[3]; /* sorted corners */
    uint32_t v[3];   /* as the face runs */
} rpl_face;

static int rpl_face_cmp(const void *a, const void *b)
{
    const rpl_face *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x->key[k] != y->key[k])
            return x->key[k] < y->key[k] ? -1 : 1;
    return 0;
}

static void rpl_face_set(rpl_face *f, uint32_t a, uint32_t b, uint32_t c)
{
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    uint32_t t;
    if (a > b) { t = a; a = b; b = t; }
    if (b > c) { t = b; b = c; c = t; }
    if (a > b) { t = a; a = b; b = t; }
    f->key[0] = a;
    f->key[1] = b;
    f->key[2] = c;
}

/* Sorts the n faces and writes to tri [3 * n] the faces that occur once
 * (once = 1: a tet mesh's boundary) or every distinct face once (once = 0),
 * in key order; returns their count. */
static size_t rpl_faces_pick(rpl_face *face, size_t n, int once, uint32_t *tri)
{
    qsort(face, n, sizeof *face, rpl_face_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && rpl_face_cmp(&face[i], &face[j]) == 0)
            ++j;
        if (!once || j == i + 1) {
            memcpy(tri + 3 * m, face[i].v, sizeof face[i].v);
            ++m;
        }
        i = j;
    }
    return m;
}

/* The triangles the export shows: the triangles of the bending stencils
 * (a b c and b a d, each once) and, with boundary, the boundary faces of
 * the tets (outward for a tet of positive volume at rest [3n]). *tri is
 * malloc'd [3 * count] (NULL when there is none). 0, or -1: no memory. */
static int rpl_triangles(const uint32_t *bend, size_t bends, const uint32_t *tet, size_t tets,
                        const double *rest, int boundary, uint32_t **tri, size_t *count)
{
    *tri = NULL;
    *count = 0;
    const size_t nb = 2 * bends, nt = boundary ? 4 * tets : 0;
    if (nb + nt == 0)
        return 0;
    rpl_face *face = malloc((nb > nt ? nb : nt) * sizeof *face);
    uint32_t *out = malloc(3 * (nb + nt) * sizeof *out);
    if (!face || !out) {
        free(face);
        free(out);
        return -1;
    }
    for (size_t s = 0; s < bends; ++s) {
        const uint32_t *q = bend + 4 * s;
        rpl_face_set(&face[2 * s], q[0], q[1], q[2]);
        rpl_face_set(&face[2 * s + 1], q[1], q[0], q[3]);
    }
    size_t m = nb ? rpl_faces_pick(face, nb, 0, out) : 0;
    for (size_t t = 0; t < (boundary ? tets : 0); ++t) {
        uint32_t a = tet[4 * t], b = tet[4 * t + 1];
        const uint32_t c = tet[4 * t + 2], d = tet[4 * t + 3];
        double e[3][3];
        for (int k = 0; k < 3; ++k) {
            e[0][k] = rest[3 * b + (size_t)k] - rest[3 * a + (size_t)k];
            e[1][k] = rest[3 * c + (size_t)k] - rest[3 * a + (size_t)k];
            e[2][k] = rest[3 * d + (size_t)k] - rest[3 * a + (size_t)k];
        }
        const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                           e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
        if (det < 0) {
            const uint32_t x = a;
            a = b;
            b = x;
        }
        rpl_face_set(&face[4 * t], b, c, d);
        rpl_face_set(&face[4 * t + 1], a, d, c);
        rpl_face_set(&face[4 * t + 2], a, b, d);
        rpl_face_set(&face[4 * t + 3], a, c, b);
    }
    if (nt)
        m += rpl_faces_pick(face, nt, 1, out + 3 * m);
    free(face);
    *tri = out;
    *count = m;
    return 0;
}

/* ------------------------------------------------------ per precision --- */

#define XPBD_REAL_F32
#include "replay_tool_tmpl.h"
#define XPBD_REAL_F64
#include "replay_tool_tmpl.h"

uint64_t replay_check_hash_f32(const xpbd_engine_f32 *e)
{
    return rpl_check_hash_f32(e);
}

uint64_t replay_check_hash_f64(const xpbd_engine_f64 *e)
{
    return rpl_check_hash_f64(e);
}

int replay_export_f32(const xpbd_replay_file *fl, const char *dir, uint64_t *hash, char *err,
                      size_t errlen)
{
    return rpl_export_f32(fl, dir, hash, err, errlen);
}

int replay_export_f64(const xpbd_replay_file *fl, const char *dir, uint64_t *hash, char *err,
                      size_t errlen)
{
    return rpl_export_f64(fl, dir, hash, err, errlen);
}

/* -------------------------------------------------------------- check --- */

size_t replay_check_paths(replay_check_path *paths, size_t max, uint32_t threads)
{
    if (threads == 0) {
        const xpbd_executor *x = xpbd_executor_default();
        threads = x && x->worker_count > 1 ? x->worker_count : 3;
    }
    static const xpbd_isa isa[] = {XPBD_ISA_SCALAR, XPBD_ISA_SSE4, XPBD_ISA_AVX2,
                                   XPBD_ISA_AVX512, XPBD_ISA_NEON};
    size_t n = 0;
    for (size_t k = 0; k < sizeof isa / sizeof isa[0]; ++k) {
        if (!xpbd_isa_compiled(isa[k]) || !xpbd_isa_supported(isa[k]))
            continue;
        for (int t = 0; t < (threads == 1 ? 1 : 2) && n < max; ++t) {
            memset(&paths[n], 0, sizeof paths[n]);
            paths[n].isa = isa[k];
            paths[n].threads = t ? threads : 1;
            paths[n].index = SIZE_MAX;
            paths[n].field = paths[n].set = "";
            ++n;
        }
    }
    return n;
}

xpbd_status replay_check(const xpbd_replay_file *ref, const xpbd_replay_file *run,
                         replay_check_path *paths, size_t npaths,
                         const replay_check_perturb *perturb, replay_check_path *reference,
                         char *err, size_t errlen)
{
    if (errlen)
        err[0] = 0;
    if (!ref || !run || !reference || (npaths && !paths)) {
        snprintf(err, errlen, "replay_check: NULL argument");
        return XPBD_ERR_ARGUMENT;
    }
    if (ref->f64 != run->f64 || ref->start_frame != run->start_frame) {
        snprintf(err, errlen, "the two recordings differ in precision or start frame");
        return XPBD_ERR_ARGUMENT;
    }
    if (perturb && (perturb->path >= npaths || perturb->field < 0 || perturb->field > 9 ||
                    (perturb->field >= 3 && perturb->field <= 5))) {
        snprintf(err, errlen, "the perturbation names no path, or a field no input sets");
        return XPBD_ERR_ARGUMENT;
    }
    return ref->f64 ? rpl_check_f64(ref, run, paths, npaths, perturb, reference, err, errlen)
                    : rpl_check_f32(ref, run, paths, npaths, perturb, reference, err, errlen);
}
