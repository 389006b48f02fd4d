/* SPDX-License-Identifier: MIT */
/* fuzz_io.h: what the loader targets (fuzz_obj.c, fuzz_tetgen.c,
 * fuzz_gmsh.c) check on every input: a success is a consistent mesh (every
 * index below particles, every coordinate finite, every count with its
 * array, names NUL-terminated) and a cleared report; a failure is one of
 * the statuses xpbd/io.h lists for a file, *out zeroed and a message. */
#ifndef XPBD_FUZZ_IO_H
#define XPBD_FUZZ_IO_H

#include "fuzz.h"

#include <xpbd/io.h>

static inline void fz_io_check(xpbd_status st, xpbd_mesh_data *m, const xpbd_io_error *err)
{
    FZ_CHECK(memchr(err->what, '\0', sizeof err->what) != NULL, "message not terminated");
    if (st != XPBD_OK) {
        FZ_CHECK(st == XPBD_ERR_FILE || st == XPBD_ERR_INDEX || st == XPBD_ERR_POSITION ||
                     st == XPBD_ERR_NOMEM,
                 "status %d (%s): %s", st, xpbd_status_str(st), err->what);
        FZ_CHECK(xt_all_zero(m, sizeof *m), "refused load (%s) left *out", err->what);
        FZ_CHECK(err->what[0] != '\0', "refused without a message");
        FZ_CHECK(err->skipped == 0, "refused load counted skipped elements");
        return;
    }
    FZ_CHECK(err->line == 0 && err->byte_offset == 0 && err->what[0] == '\0',
             "success with a report: %s", err->what);
    FZ_CHECK(m->particles > 0 && m->particles <= UINT32_MAX && m->xyz != NULL,
             "%zu particles", m->particles);
    for (size_t k = 0; k < 3 * m->particles; ++k)
        FZ_CHECK(isfinite(m->xyz[k]), "coordinate %zu not finite", k);
    FZ_CHECK((m->triangles == 0) == (m->triangle == NULL), "%zu triangles", m->triangles);
    FZ_CHECK(m->triangles > 0 || m->triangle_label == NULL, "labels without triangles");
    for (size_t k = 0; k < 3 * m->triangles; ++k)
        FZ_CHECK(m->triangle[k] < m->particles, "triangle corner %u of %zu particles",
                 m->triangle[k], m->particles);
    FZ_CHECK((m->tets == 0) == (m->tet == NULL), "%zu tets", m->tets);
    FZ_CHECK(m->tets > 0 || m->tet_label == NULL, "labels without tets");
    for (size_t k = 0; k < 4 * m->tets; ++k)
        FZ_CHECK(m->tet[k] < m->particles, "tet corner %u of %zu particles", m->tet[k],
                 m->particles);
    FZ_CHECK((m->labels == 0) == (m->label_id == NULL && m->label_name == NULL),
             "%zu label names", m->labels);
    for (size_t k = 0; k < m->labels; ++k)
        FZ_CHECK(m->label_name[k] != NULL, "label name %zu NULL", k);
    xpbd_mesh_data_free(m);
    FZ_CHECK(xt_all_zero(m, sizeof *m), "xpbd_mesh_data_free left fields");
}

#endif
