/* SPDX-License-Identifier: MIT */
/* Counters (xpbd/engine.h): the snapshot a frame's statistics overlay
 * reads, taken at step end, and its one-line text form. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/counters.c"
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

#  include "each_precision.h"

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

#else /* one precision, read through each_precision.h */
/* Counters, once per precision. */
#include "step/step.h" /* the set-kind table */

/* The names of this file's functions, both precisions (precision.h). */
#define xpbd__counters_fill PREC(xpbd__counters_fill_f32, xpbd__counters_fill_f64)

#define W SFX(xpbd_world)

/* The snapshot; max_stretch (may be NULL) is the distance set's when the
 * caller's stretch pass already measured it (the engine's tear pass). */
void xpbd__counters_fill(const W *w, const xpbd_step_counters *k, const double *max_stretch,
                              xpbd_engine_counters *out)
{
    memset(out, 0, sizeof *out);
    if (k) {
        out->step = *k;
        out->skipped = k->skipped;
        out->solved = k->solves >= k->skipped ? k->solves - k->skipped : 0;
        out->max_residual = k->max_residual;
    } else {
        out->step.bad_index = SIZE_MAX;
    }
    if (!w || !w->particles)
        return;
    /* each row's own counters (kinds/<kind>.c) */
    for (const step_kind *const *r = xpbd__kind_table; *r; ++r)
        if ((*r)->counters && (*r)->present(w))
            (*r)->counters(w, max_stretch, out);
    out->colours = out->colours_distance + out->colours_tets + out->colours_bends;
    out->bodies = w->body_count;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        out->sleeping += w->body_asleep[b] != 0;
}

#undef W

#endif /* XPBD_SELF */
