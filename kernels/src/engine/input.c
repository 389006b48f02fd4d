/* SPDX-License-Identifier: MIT */
/* Host inputs between frames (xpbd/engine.h): what a replay log records. */
#ifndef XPBD_SELF
#define XPBD_SELF "engine/input.c"
#include "engine/common.h"

#  include "each_precision.h"

xpbd_status xpbd_engine_apply_f32(xpbd_engine_f32 *e, const xpbd_input *in)
{
    return engine_apply_f32(e, in);
}

xpbd_status xpbd_engine_apply_f64(xpbd_engine_f64 *e, const xpbd_input *in)
{
    return engine_apply_f64(e, in);
}

#else /* one precision, read through each_precision.h */
/* Host inputs between frames, once per precision. */

/* The names of this file's functions, both precisions (precision.h). */
#define engine_apply_fits PREC(engine_apply_fits_f32, engine_apply_fits_f64)
#define engine_apply_write PREC(engine_apply_write_f32, engine_apply_write_f64)
#define engine_apply_vec PREC(engine_apply_vec_f32, engine_apply_vec_f64)
#define engine_apply PREC(engine_apply_f32, engine_apply_f64)

#define E SFX(xpbd_engine)

/* 1 if every a[i] (+ add[i] when add is not NULL) + v, i in [b, e), is
 * finite in R: the check of an input before anything is written. */
static int engine_apply_fits(const R *a, R v, int add, size_t b, size_t e)
{
    if (!isfinite(v))
        return 0;
    for (size_t i = b; add && i < e; ++i)
        if (!isfinite(a[i] + v))
            return 0;
    return 1;
}

/* a[i] = a[i] + v (add) or v, i in [b, e). */
static void engine_apply_write(R *a, R v, int add, size_t b, size_t e)
{
    for (size_t i = b; i < e; ++i)
        a[i] = add ? a[i] + v : v;
}

/* A value for three arrays (velocity or position): every result checked in
 * R first (a value or a sum that overflows R is refused), then written. */
static xpbd_status engine_apply_vec(R *const a[3], const double v[3], int add, size_t b, size_t e,
                                  xpbd_status refuse)
{
    R c[3];
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(v[k]))
            return refuse;
        c[k] = (R)v[k];
        if (!engine_apply_fits(a[k], c[k], add, b, e))
            return refuse;
    }
    for (int k = 0; k < 3; ++k)
        engine_apply_write(a[k], c[k], add, b, e);
    return XPBD_OK;
}

static xpbd_status engine_apply(E *e, const xpbd_input *in)
{
    if (!e || !in)
        return XPBD_ERR_ARGUMENT;
    P *p = &e->particles;
    if (in->kind == XPBD_INPUT_WAKE) {
        if (in->begin >= e->sleep.body_count)
            return XPBD_ERR_ARGUMENT;
        xpbd_sleep_wake(&e->sleep, in->begin);
        e->checked_ = 0; /* the next step checks what the host changed */
        return XPBD_OK;
    }
    if (in->begin > in->end || in->end > p->count)
        return XPBD_ERR_ARGUMENT;
    const size_t b = in->begin, end = in->end;
    R *const v[3] = {p->vx, p->vy, p->vz}, *const x[3] = {p->x, p->y, p->z};
    xpbd_status st;
    switch (in->kind) {
    case XPBD_INPUT_ADD_VELOCITY:
        st = engine_apply_vec(v, in->value, 1, b, end, XPBD_ERR_VELOCITY);
        break;
    case XPBD_INPUT_SET_VELOCITY:
        st = engine_apply_vec(v, in->value, 0, b, end, XPBD_ERR_VELOCITY);
        break;
    case XPBD_INPUT_TRANSLATE:
        st = engine_apply_vec(x, in->value, 1, b, end, XPBD_ERR_POSITION);
        break;
    case XPBD_INPUT_SET_INV_MASS:
        if (!isfinite(in->value[0]) || in->value[0] < 0 || !isfinite((R)in->value[0]))
            return XPBD_ERR_INVERSE_MASS;
        engine_apply_write(p->w, (R)in->value[0], 0, b, end);
        st = XPBD_OK;
        break;
    default:
        return XPBD_ERR_ARGUMENT;
    }
    if (st == XPBD_OK)
        e->checked_ = 0; /* the next step checks what the host changed */
    return st;
}

#undef E

#endif /* XPBD_SELF */
