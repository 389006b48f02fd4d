/* SPDX-License-Identifier: MIT */
/* Counters (SPEC S3 memo 9): the snapshot at step end against the
 * engine's sets and the direct snapshot. */
#include "test.h"
#include "test_softbody.h"
#include "scenes.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* SPEC S3 memo 9: counters snapshotted at step end, with the numbers of a
 * scene whose every count is known. */
void softbody_counters(void)
{
    xs_cube_desc d = xs_cube_default();
    d.n = 2;
    d.pin_top = 1;
    d.cfg.iterations = 6;
    d.cfg.substeps = 2;
    d.opt.sleep_energy = 1e-9;
    xs_cube c;
    REQUIRE(xs_cube_make(&c, &d));
    REQUIRE_STATUS(xpbd_engine_step_f64(c.e, 1.0 / 60), XPBD_OK);
    const xpbd_engine_counters *k = SB_C(c.e);
    /* 2^3 cubes: 27 particles, 54 + 36 + 8 = 98 edges, 48 tets; the top
     * layer (9 particles) pinned: its 12 axis edges and 4 diagonals join
     * two statics and are skipped on each of the 12 passes */
    ENSURE_INT(SB_V(c.e).edges, 98);
    ENSURE_INT(SB_V(c.e).tets, 48);
    ENSURE_INT(k->frame, 1);
    ENSURE_INT(k->step.substeps, 2);
    ENSURE_INT(k->step.iterations, 12);
    ENSURE_INT(k->step.solves, 12 * (98 + 48));
    ENSURE_INT(k->skipped, 12 * 16);
    ENSURE_INT(k->solved, 12 * (98 + 48) - 12 * 16);
    ENSURE_INT(k->colours, SB_W(c.e)->constraints->colours + SB_W(c.e)->tets->colours);
    ENSURE_INT(k->colours_distance, SB_W(c.e)->constraints->colours);
    ENSURE_INT(k->colours_tets, SB_W(c.e)->tets->colours);
    ENSURE(k->colours_distance >= 10); /* a vertex of the lattice has 14 edges */
    ENSURE_INT(k->degenerate, 0);
    ENSURE_INT(k->bodies, 1);
    ENSURE_INT(k->sleeping, 0);
    ENSURE_INT(k->distance, 98);
    ENSURE(k->max_residual > 0 && k->max_residual < 1e-3);
    ENSURE(k->max_stretch > 0 && k->max_stretch < 0.1);
    ENSURE(k->volume_error > 0 && k->volume_error < 0.05);
    ENSURE_INT(k->step.status, XPBD_OK);
    /* the same numbers from the world directly */
    xpbd_engine_counters direct;
    xpbd_counters_snapshot_f64(SB_W(c.e), &k->step, &direct);
    ENSURE_INT(direct.colours, k->colours);
    ENSURE_BITS_F64(direct.max_stretch, k->max_stretch);
    ENSURE_BITS_F64(direct.volume_error, k->volume_error);
    /* formatting is a separate call, outside the step */
    char line[768];
    const int len = xpbd_counters_format(k, line, sizeof line);
    ENSURE(len > 40 && (size_t)len < sizeof line);
    ENSURE(strstr(line, "skipped 192,") != NULL);
    /* a failed frame is snapshotted too, with its status and the state
     * untouched */
    const double y = SB_P(c.e)->y[0];
    ENSURE_STATUS(xpbd_engine_step_f64(c.e, -1), XPBD_ERR_TIMESTEP);
    ENSURE_INT(SB_C(c.e)->step.status, XPBD_ERR_TIMESTEP);
    ENSURE_INT(SB_C(c.e)->frame, 1);
    ENSURE_BITS_F64(SB_P(c.e)->y[0], y);
    xs_cube_free(&c);
}
