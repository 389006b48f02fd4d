/* SPDX-License-Identifier: MIT */
/* Counters (xpbd/engine.h): the snapshot a frame's statistics overlay
 * reads, taken at step end, and its one-line text form. */
#include "engine/common.h"

#include <stdio.h>

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
                    c->sleeping, c->bodies, c->fell_asleep, c->woke, c->torn, c->split,
                    c->split_dropped, c->distance, c->max_stretch, c->volume_error);
}

#define XPBD_REAL_F32
#include "engine/counters_tmpl.h"
#define XPBD_REAL_F64
#include "engine/counters_tmpl.h"

void xpbd_counters_snapshot_f32(const xpbd_world_f32 *w, const xpbd_step_counters *k,
                                xpbd_engine_counters *out)
{
    if (out)
        xpbd__counters_fill_f32(w, k, NULL, out);
}

void xpbd_counters_snapshot_f64(const xpbd_world_f64 *w, const xpbd_step_counters *k,
                                xpbd_engine_counters *out)
{
    if (out)
        xpbd__counters_fill_f64(w, k, NULL, out);
}
