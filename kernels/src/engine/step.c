/* SPDX-License-Identifier: MIT */
/* Stepping (xpbd/engine.h): one frame of the engine, and the coupling with
 * a host rigid body between frames. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/step.c"
#include "engine/common.h"

#  include "each_precision.h"

xpbd_status xpbd_engine_step_f32(xpbd_engine_f32 *e, double h) { return engine_step_f32(e, h); }
xpbd_status xpbd_engine_step_f64(xpbd_engine_f64 *e, double h) { return engine_step_f64(e, h); }

xpbd_status xpbd_engine_couple_rigid_f32(xpbd_engine_f32 *e, const xpbd_rigid_f64 *body, double h,
                                         xpbd_rigid_impulse *out)
{
    return engine_couple_rigid_f32(e, body, h, out);
}

xpbd_status xpbd_engine_couple_rigid_f64(xpbd_engine_f64 *e, const xpbd_rigid_f64 *body, double h,
                                         xpbd_rigid_impulse *out)
{
    return engine_couple_rigid_f64(e, body, h, out);
}

#else /* one precision, read through each_precision.h */
#include "engine/common.h" /* this precision's part */
/* Stepping, once per precision: one frame of the engine, and the coupling
 * with a host rigid body between frames. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_sleep_undo PREC(engine_sleep_undo_f32, engine_sleep_undo_f64)
#define engine_tearing PREC(engine_tearing_f32, engine_tearing_f64)
#define engine_step PREC(engine_step_f32, engine_step_f64)
#define engine_couple_rigid PREC(engine_couple_rigid_f32, engine_couple_rigid_f64)

#define E SFX(xpbd_engine)

/* A failed frame puts back the sleep flags and calm counts that
 * xpbd_sleep_prepare changed (woke bodies woken); the sets, if rebuilt for
 * them, are rebuilt again by the next frame that needs it. */
static void engine_sleep_undo(E *e, uint32_t woke)
{
    if (!woke)
        return;
    memcpy(e->sleep.asleep, e->asleep_undo_, e->sleep.body_count);
    memcpy(e->sleep.calm, e->calm_undo_, e->sleep.body_count * sizeof *e->calm_undo_);
}

/* 1 if a row tears and its set has elements. */
static int engine_tearing(E *e)
{
    const int r = engine_tear_row(XPBD__TEAR_EDGES);
    if (r < 0 || !xpbd__engine_kinds[r]->tear_flag)
        return 0;
    uint32_t slots = 0;
    (void)xpbd__engine_kinds[r]->source(&e->slot[r].set, &slots);
    return slots != 0;
}

static xpbd_status engine_step(E *e, double h)
{
    if (!e || !e->particles.w)
        return XPBD_ERR_ARGUMENT;
    SFX(xpbd__engine_point)(e);
    const int sleeping = e->options.sleep_energy > 0 && e->sleep.body_count > 0;
    uint32_t woke = 0, fell = 0, woke2 = 0;
    if (sleeping) {
        /* a body the host moved wakes before the frame; a frame that fails
         * puts the flags back, so a refused frame changes nothing and the
         * wake is counted by the frame that takes it */
        memcpy(e->asleep_undo_, e->sleep.asleep, e->sleep.body_count);
        memcpy(e->calm_undo_, e->sleep.calm, e->sleep.body_count * sizeof *e->calm_undo_);
        woke = SFX(xpbd_sleep_prepare)(&e->sleep, &e->world);
    }
    /* the sets follow the sleep flags: rebuilt (between frames) when a body
     * fell asleep or woke since they were built */
    if (e->sleep.body_count &&
        memcmp(e->active_, e->sleep.asleep, e->sleep.body_count) != 0) {
        const xpbd_status as = SFX(xpbd__engine_activate)(e);
        SFX(xpbd__engine_point)(e);
        if (as != XPBD_OK) {
            engine_sleep_undo(e, woke);
            return as;
        }
    }
    /* the engine's own world: every element checked by the first step after
     * create and after each path that changes it (e->checked_), the steps
     * between them check the configuration and arguments only */
    xpbd_step_counters k;
    const xpbd__step_how how = {.owned = e->checked_, .stage_seconds = NULL};
    const xpbd_status st = SFX(xpbd__world_step)(&e->config, h, &e->world, e->scratch,
                                                 e->scratch_bytes, &k, &how);
    if (st < 0) {
        engine_sleep_undo(e, woke);
        SFX(xpbd__counters_fill)(&e->world, &k, NULL, &e->counters);
        e->counters.frame = e->frame;
        return st;
    }
    e->checked_ = 1; /* until a tear, an input or a rebuild changes it */
    if (sleeping)
        (void)SFX(xpbd_sleep_update)(&e->sleep, &e->world, &fell, &woke2);
    e->frame++;
    uint32_t torn = 0;
    double stretch = 0;
    const int tearing = e->options.tear_stretch > 0 && engine_tearing(e);
    if (tearing) { /* one stretch pass: the flags and the counters' max stretch */
        const int r = engine_tear_row(XPBD__TEAR_EDGES);
        /* elements of sleeping bodies are not in the set */
        memset(e->torn, 0, e->slot[r].count);
        torn = xpbd__engine_kinds[r]->tear_flag(&e->particles, &e->slot[r].set,
                                                e->options.tear_stretch, e->torn, &stretch);
    }
    SFX(xpbd__counters_fill)(&e->world, &k, tearing ? &stretch : NULL, &e->counters);
    e->counters.frame = e->frame;
    e->counters.fell_asleep = fell;
    e->counters.woke = woke + woke2;
    e->counters.torn = torn;
    if (torn) {
        uint32_t split = 0, woke3 = 0, dropped = 0;
        const xpbd_status ts = SFX(xpbd__engine_tear)(e, &split, &woke3, &dropped);
        e->counters.split_dropped = dropped;
        if (woke3) { /* a body that grew woke: the snapshot's count is recounted */
            e->counters.sleeping = 0;
            for (uint32_t b = 0; b < e->sleep.body_count; ++b)
                e->counters.sleeping += e->sleep.asleep[b] != 0;
        }
        for (unsigned r = 0; split && xpbd__engine_kinds[r]; ++r)
            if (xpbd__engine_kinds[r]->renumbered) /* what names the old particles */
                xpbd__engine_kinds[r]->renumbered(&e->slot[r]);
        SFX(xpbd__engine_point)(e);
        const int r = engine_tear_row(XPBD__TEAR_EDGES);
        if (xpbd__engine_kinds[r]->torn)
            xpbd__engine_kinds[r]->torn(&e->slot[r].set, &e->counters);
        e->counters.split = split;
        e->counters.woke += woke3;
        if (ts != XPBD_OK)
            return ts;
    }
    return st;
}

static xpbd_status engine_couple_rigid(E *e, const xpbd_rigid_f64 *body, double h,
                                            xpbd_rigid_impulse *out)
{
    if (!e || !body || !out || !e->radius || !e->scratch)
        return XPBD_ERR_ARGUMENT;
    P *p = &e->particles;
    const size_t n = p->count;
    /* the step's scratch holds at least 13n reals: room for q (4n) */
    R *q = e->scratch;
    for (size_t i = 0; i < n; ++i) {
        q[4 * i] = p->x[i];
        q[4 * i + 1] = p->y[i];
        q[4 * i + 2] = p->z[i];
        q[4 * i + 3] = p->w[i];
    }
    const xpbd_status st = SFX(xpbd_couple_rigid)(q, p, e->radius, 0, n, body, h, out);
    if (st != XPBD_OK || out->contacts == 0)
        return st;
    e->checked_ = 0; /* the next step checks the particles moved here */
    const R ih = (R)(1.0 / h);
    for (size_t i = 0; i < n; ++i) {
        const R dx = q[4 * i] - p->x[i], dy = q[4 * i + 1] - p->y[i], dz = q[4 * i + 2] - p->z[i];
        if (dx == 0 && dy == 0 && dz == 0)
            continue;
        p->x[i] = q[4 * i];
        p->y[i] = q[4 * i + 1];
        p->z[i] = q[4 * i + 2];
        p->vx[i] = p->vx[i] + dx * ih;
        p->vy[i] = p->vy[i] + dy * ih;
        p->vz[i] = p->vz[i] + dz * ih;
    }
    return XPBD_OK;
}

#undef E

#endif /* XPBD_SELF */
