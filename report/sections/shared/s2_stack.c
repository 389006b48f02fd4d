/* SPDX-License-Identifier: MIT */
/* The lesson's stack of S2 and the small world it runs in (shared/s2_stack.h). */
#include "shared/s2_stack.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void s2_contacts_free(s2_contacts *c)
{
    free(c->i0);
    free(c->i1);
    free(c->work);
    free(c->scratch);
    memset(c, 0, sizeof *c);
}

int s2_contacts_init(s2_contacts *c, size_t n, size_t max_contacts, size_t scratch_bytes,
                     int work)
{
    memset(c, 0, sizeof *c);
    const size_t slots = xpbd_contact_slots(max_contacts);
    c->i0 = malloc(slots * sizeof *c->i0);
    c->i1 = malloc(slots * sizeof *c->i1);
    if (work) {
        c->work_bytes = xpbd_contacts_work_bytes(n, max_contacts);
        c->work = malloc(c->work_bytes);
    }
    c->scratch_bytes = scratch_bytes;
    c->scratch = aligned_alloc(64, (scratch_bytes + 63) / 64 * 64);
    if (!c->i0 || !c->i1 || (work && !c->work) || !c->scratch ||
        xpbd_contact_set_init(&c->cs, c->i0, c->i1, slots, max_contacts) != XPBD_OK) {
        s2_contacts_free(c);
        return -1;
    }
    return 0;
}

void s2_set_free(s2_set *s)
{
    free(s->block);
    s2_contacts_free(&s->ct);
    memset(s, 0, sizeof *s);
}

int s2_set_init(s2_set *s, size_t n, size_t max_contacts)
{
    memset(s, 0, sizeof *s);
    s->block = calloc(16 * n + 1, sizeof(double));
    if (!s->block ||
        s2_contacts_init(&s->ct, n, max_contacts, xpbd_world_scratch_bytes_f64(n, 0, max_contacts),
                         1) != 0) {
        s2_set_free(s);
        return -1;
    }
    double *b = s->block;
    xpbd_particles_bind_f64(&s->p, n, b, n);
    s->r = b + 10 * n;
    s->imp = b + 11 * n;
    s->q = b + 12 * n;
    return 0;
}

int s2_stack(s2_set *s, int balls, const double *heights)
{
    const size_t n = (size_t)balls + 1;
    if (s2_set_init(s, n, (size_t)balls) != 0)
        return -1;
    s->r[0] = S2_PLATE_R;
    uint32_t i0[16], i1[16];
    for (int k = 0; k < balls; ++k) {
        s->r[k + 1] = S2_BALL_R;
        s->p.w[k + 1] = 1;
        s->p.y[k + 1] = heights[k];
        i0[k] = (uint32_t)k;
        i1[k] = (uint32_t)k + 1;
    }
    if (xpbd_contact_set_assign(&s->ct.cs, n, (size_t)balls, i0, i1, 0, 1, s->ct.work,
                                s->ct.work_bytes,
                                NULL) != XPBD_OK) {
        s2_set_free(s);
        return -1;
    }
    return 0;
}

double s2_max_pen(const s2_set *s)
{
    double m = 0;
    for (size_t k = 0; k + 1 < s->p.count; ++k) {
        const double pen = (s->r[k] + s->r[k + 1]) - (s->p.y[k + 1] - s->p.y[k]);
        if (pen > m)
            m = pen;
    }
    return m;
}

double s2_energy(const s2_set *s)
{
    double e = 0;
    for (size_t k = 1; k < s->p.count; ++k) {
        const double m = 1 / s->p.w[k];
        e += m * (S2_G * s->p.y[k] + 0.5 * s->p.vy[k] * s->p.vy[k]);
    }
    return e;
}

xpbd_step_config s2_lesson_cfg(const xr_ctx *ctx, uint32_t iterations, double beta,
                               double e, int velocity_pass)
{
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.iterations = iterations;
    cfg.contact_beta = beta;
    cfg.restitution = e;
    cfg.contact_velocity_pass = velocity_pass;
    cfg.contact_order = XPBD_CONTACTS_LESSON;
    return cfg;
}

xpbd_status s2_stack_step(s2_set *s, const xpbd_step_config *cfg)
{
    xpbd_world_f64 w;
    memset(&w, 0, sizeof w);
    w.particles = &s->p;
    w.radius = s->r;
    w.contacts = &s->ct.cs;
    w.contacts_fixed = 1;
    return xpbd_world_step_f64(cfg, S2_H, &w, s->ct.scratch, s->ct.scratch_bytes, NULL);
}

int s2_get_tables(const xr_ctx *ctx, s2_tables *t)
{
    xpbd_isa isa;
    if (xpbd_isa_resolve(xr_isa(ctx), &isa) != XPBD_OK)
        return -1;
    t->k = xpbd_kernels_get_f64(isa);
    t->c = xpbd_contact_kernels_get_f64(isa);
    return t->k && t->c ? 0 : -1;
}

