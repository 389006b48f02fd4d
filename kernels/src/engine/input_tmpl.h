/* Host inputs between frames, template over R. */
#include "real_begin.h"

#define E SFX(xpbd_engine)

static xpbd_status SFX(engine_apply)(E *e, const xpbd_input *in)
{
    if (!e || !in)
        return XPBD_ERR_ARGUMENT;
    P *p = &e->particles;
    if (in->kind == XPBD_INPUT_WAKE) {
        if (in->begin >= e->sleep.body_count)
            return XPBD_ERR_ARGUMENT;
        xpbd_sleep_wake(&e->sleep, in->begin);
        return XPBD_OK;
    }
    if (in->begin > in->end || in->end > p->count)
        return XPBD_ERR_ARGUMENT;
    const double *v = in->value;
    const int finite = isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
    const R a = (R)v[0], b = (R)v[1], c = (R)v[2];
    switch (in->kind) {
    case XPBD_INPUT_ADD_VELOCITY:
    case XPBD_INPUT_SET_VELOCITY:
        if (!finite)
            return XPBD_ERR_VELOCITY;
        for (size_t i = in->begin; i < in->end; ++i) {
            const int add = in->kind == XPBD_INPUT_ADD_VELOCITY;
            p->vx[i] = add ? p->vx[i] + a : a;
            p->vy[i] = add ? p->vy[i] + b : b;
            p->vz[i] = add ? p->vz[i] + c : c;
        }
        return XPBD_OK;
    case XPBD_INPUT_TRANSLATE:
        if (!finite)
            return XPBD_ERR_POSITION;
        for (size_t i = in->begin; i < in->end; ++i) {
            p->x[i] = p->x[i] + a;
            p->y[i] = p->y[i] + b;
            p->z[i] = p->z[i] + c;
        }
        return XPBD_OK;
    case XPBD_INPUT_SET_INV_MASS:
        if (!isfinite(v[0]) || v[0] < 0)
            return XPBD_ERR_INVERSE_MASS;
        for (size_t i = in->begin; i < in->end; ++i)
            p->w[i] = a;
        return XPBD_OK;
    default:
        return XPBD_ERR_ARGUMENT;
    }
}

#undef E
#include "real_end.h"
