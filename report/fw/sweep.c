/* SPDX-License-Identifier: MIT */
/* sweep.c: the sweep table (report.h). A section's sweep is points run in
 * order, each giving one row of DIR/data/NAME.tsv; this is the loop every
 * sweep shares: open the table, run the points, write their rows, show the
 * progress, close the table, whether or not a point failed. */
#include "fw.h"

int xr_sweep_table(xr_ctx *ctx, const xr_sweep *s)
{
    if (s->cols > XR_SWEEP_MAX_COLS)
        return -1;
    FILE *f = NULL;
    if (s->table && !(f = xr_table_open(ctx, s->table, s->columns)))
        return -1;
    double row[XR_SWEEP_MAX_COLS];
    int rc = 0;
    for (int i = 0; i < s->points && rc == 0; ++i) {
        const int st = s->point(ctx, i, row, s->arg);
        if (st < 0)
            rc = -1;
        else if (st == 0)
            xr_row(f, s->cols, row);
        if (s->progress)
            xr_progress(ctx, s->progress, i + 1, s->points);
    }
    if (xr_table_close(f) != 0)
        rc = -1;
    return rc;
}
