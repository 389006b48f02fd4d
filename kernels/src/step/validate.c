/* SPDX-License-Identifier: MIT */
/* step/validate.c: everything a step reads, checked before anything is
 * written (the step's first stage, see step.h). The configuration and the
 * particles here, every set and piece of world state by its row of the
 * set-kind table (kinds/table.c: xpbd__kind_checks, in the order
 * xpbd/step.h gives); the checks are the validators' own, cut into ranges
 * when the step has workers, with the status and index a serial pass
 * gives. Then the scratch is laid out and the per-step constants set. */
#ifndef XPBD_SELF
#  define XPBD_SELF "step/validate.c"
#  include "each_precision.h"
#else
#include "step/step.h"
#include "screen_tmpl.h"

#define step_world_rows PREC(step_world_rows_f32, step_world_rows_f64)
#define step_world_state_bytes PREC(step_world_state_bytes_f32, step_world_state_bytes_f64)
#define step_scratch_layout PREC(step_scratch_layout_f32, step_scratch_layout_f64)
#define step_particles_scan_task PREC(step_particles_scan_task_f32, step_particles_scan_task_f64)
#define step_check_particles PREC(step_check_particles_f32, step_check_particles_f64)
#define step_check_rows PREC(step_check_rows_f32, step_check_rows_f64)
#define step_set_repeat_task PREC(step_set_repeat_task_f32, step_set_repeat_task_f64)
#define step_quad_slots_task PREC(step_quad_slots_task_f32, step_quad_slots_task_f64)
#define step_constants PREC(step_constants_f32, step_constants_f64)

/* What xpbd__step_validate runs, in its order (defined below it). */
static int step_world_rows(step_run *s);
static step_scratch step_scratch_layout(void *scratch, size_t n, size_t slots,
                                        size_t max_contacts, int find);
static xpbd_status step_check_particles(step_run *s, size_t *bad);
static xpbd_status step_check_rows(step_run *s, xpbd_step_counters *k);
static void step_constants(step_run *s);

/* Validates everything the step reads and fills s: nothing is written to
 * the world before this returns XPBD_OK. */
xpbd_status xpbd__step_validate(step_run *s, const xpbd_step_config *cfg, double h,
                                SFX(xpbd_world) *w, void *scratch, size_t scratch_bytes,
                                xpbd_step_counters *k)
{
    if (!cfg)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_CONFIG, XPBD_FIELD_NONE);
    if (!w || !w->particles)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_PARTICLES, XPBD_FIELD_NONE);
    s->cfg = cfg;
    s->w = w;
    s->p = w->particles;
    const int constrained = step_world_rows(s);
    xpbd_field field;
    xpbd_status st = xpbd__config_check(cfg, &field);
    if (st != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_CONFIG, field);
    s->hs = (R)(h / cfg->substeps);
    if (!isfinite(h) || !(h > 0) || !isfinite(s->hs) || !(s->hs > 0) ||
        !isfinite(1 / (s->hs * s->hs)))
        return XPBD_ERR_TIMESTEP; /* h, an argument: the status says it all */
    if (xpbd__lesson_refused(cfg, constrained))
        return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_CONFIG, XPBD_FIELD_CONTACT_ORDER);
    xpbd_isa isa;
    if (xpbd_isa_resolve(cfg->isa, &isa) != XPBD_OK)
        return xpbd__refuse(k, XPBD_ERR_ISA, XPBD_PART_CONFIG, XPBD_FIELD_ISA);
    k->isa = isa;
    s->kt = SFX(xpbd_kernels_get)(isa);
    s->ckt = SFX(xpbd_contact_kernels_get)(isa);
    s->skt = SFX(xpbd_softbody_kernels_get)(isa);
    s->sk = SFX(xpbd__step_kernels_get)(isa);
    if (!s->kt || !s->ckt || !s->skt || !s->sk)
        return xpbd__refuse(k, XPBD_ERR_ISA, XPBD_PART_CONFIG, XPBD_FIELD_ISA);
    s->n = s->p->count;
    const size_t need = xpbd__step_scratch_bytes(s->n, s->all_slots, s->max_contacts, s->find);
    if (!scratch || need == SIZE_MAX || scratch_bytes < need)
        return xpbd__refuse(k, XPBD_ERR_CAPACITY, XPBD_PART_SCRATCH, XPBD_FIELD_NONE);
    if ((uintptr_t)scratch % _Alignof(R) != 0)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_SCRATCH, XPBD_FIELD_NONE);
    s->sc = step_scratch_layout(scratch, s->n, s->all_slots, s->max_contacts, s->find);
    if ((st = step_check_particles(s, &k->bad_index)) != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_PARTICLES, XPBD_FIELD_NONE);
    if ((st = step_check_rows(s, k)) != XPBD_OK)
        return st;
    step_constants(s);
    return XPBD_OK;
}

/* The rows of the world's kinds in table order, their lambdas (slots
 * counted across them in that order) and the broad phase's pairs, from
 * the world's pointers and counts alone. Returns 1 if the world has a
 * constraint (the lesson order's rule). */
static int step_world_rows(step_run *s)
{
    const SFX(xpbd_world) *w = s->w;
    int constrained = 0;
    s->row_count = 0;
    s->all_slots = 0;
    s->find = 0;
    s->max_contacts = 0;
    memset(&s->lam, 0, sizeof s->lam);
    for (const step_kind *const *r = xpbd__kind_table; *r; ++r) {
        const step_kind *row = *r;
        if (!row->present(w))
            continue;
        s->rows[s->row_count++] = row;
        constrained |= row->class == ROW_CONSTRAINT;
        if (row->lambda) {
            step_lambdas *l = &s->lam;
            l->lambda[l->count] = row->lambda(w, &l->slots[l->count]);
            l->part[l->count] = row->part;
            s->all_slots += l->slots[l->count++];
        }
        const size_t pairs = row->found_pairs ? row->found_pairs(w) : 0;
        if (pairs) {
            s->find = 1;
            s->max_contacts = pairs;
        }
    }
    return constrained;
}

/* ---- the scratch ---------------------------------------------------------- */

/* Scratch layout: the snapshot x y z px py pz vx vy vz [9n] and lambda
 * [slots] (R units), then a 64-byte aligned region holding either the
 * spring forces fx fy fz [3n] or the packed positions q [4n], then the
 * pre-solve velocities v0 [3n] of the contact velocity pass, then the
 * broad-phase workspace (8-byte aligned) and its still mask [n]. */
static size_t step_world_state_bytes(size_t n, size_t slots)
{
    return (16 * n + slots) * sizeof(R) + 64;
}

size_t xpbd__step_scratch_bytes(size_t n, size_t slots, size_t max_contacts, int find)
{
    if (n > SIZE_MAX / (32 * sizeof(R)) || slots > SIZE_MAX / (4 * sizeof(R)))
        return SIZE_MAX;
    size_t bytes = step_world_state_bytes(n, slots);
    if (find) {
        const size_t wb = xpbd_contacts_work_bytes(n, max_contacts);
        if (wb == SIZE_MAX)
            return SIZE_MAX;
        bytes += 8 + wb + n; /* + the broad phase's still mask */
    }
    return bytes;
}


/* The pointers into a scratch of xpbd__step_scratch_bytes. */
static step_scratch step_scratch_layout(void *scratch, size_t n, size_t slots,
                                        size_t max_contacts, int find)
{
    step_scratch s;
    s.save = scratch;
    s.fx = s.save + 9 * n + slots;
    s.fy = s.fx + n;
    s.fz = s.fy + n;
    s.q = (R *)(void *)(((uintptr_t)s.fx + 63) & ~(uintptr_t)63);
    s.v0 = s.q + 4 * n;
    char *bp = (char *)scratch + step_world_state_bytes(n, slots);
    s.bp_work = (void *)(((uintptr_t)bp + 7) & ~(uintptr_t)7);
    s.bp_bytes = find ? xpbd_contacts_work_bytes(n, max_contacts) : 0;
    s.still = find ? (uint8_t *)s.bp_work + s.bp_bytes : NULL;
    return s;
}

/* ---- the particles --------------------------------------------------------- */

/* The particle checks of xpbd_particles_validate on blocks [b, e): the
 * validator itself over a view of those particles. */
static void step_particles_scan_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const P *p = s->p;
    size_t i0, i1, bad;
    step_block_particles(s, b, e, &i0, &i1);
    const P v = {i1 - i0,     p->x + i0,  p->y + i0,  p->z + i0,  p->px + i0,
                 p->py + i0, p->pz + i0, p->vx + i0, p->vy + i0, p->vz + i0, p->w + i0};
    const xpbd_status st = SFX(xpbd_particles_validate)(&v, &bad);
    if (st != XPBD_OK)
        step_note_bad(s, worker, i0 + bad, st);
}

/* Runs a per-particle scan over ranges; the lowest bad particle names the
 * status, as a scan in particle order would. */
xpbd_status xpbd__step_scan_particles(step_run *s, xpbd_range_task *task, size_t *bad)
{
    step_clear_partials(s);
    step_run_particles(s, task);
    return step_lowest_bad(s, bad);
}

/* The particles: argument checks and the empty set as the validator makes
 * them, the per-particle checks over ranges. */
static xpbd_status step_check_particles(step_run *s, size_t *bad)
{
    const P *p = s->p;
    if (p->count == 0 || !p->x || !p->y || !p->z || !p->px || !p->py || !p->pz || !p->vx ||
        !p->vy || !p->vz || !p->w || p->count > (size_t)INT32_MAX)
        return SFX(xpbd_particles_validate)(p, bad);
    if (s->owned) /* the caller's own, checked by an earlier step (xpbd__step_how) */
        return XPBD_OK;
    return xpbd__step_scan_particles(s, step_particles_scan_task, bad);
}

/* ---- the rows ----------------------------------------------------------------- */

/* Each row the world has, in the checks' order, then what it reports of
 * its set (the caller's own sets, s->owned, are not checked again: their
 * reports only); the set validators' repeat check stamps particles: the
 * scratch is not in use yet and holds at least 16n reals. */
static xpbd_status step_check_rows(step_run *s, xpbd_step_counters *k)
{
    uint32_t *stamp = (uint32_t *)(void *)s->sc.save;
    for (const step_kind *const *r = xpbd__kind_checks; *r; ++r)
        if ((*r)->present(s->w)) {
            const xpbd_status st = s->owned ? XPBD_OK : (*r)->check(s, stamp, k);
            if (st != XPBD_OK)
                return st;
            if ((*r)->report)
                (*r)->report(s, k);
        }
    return XPBD_OK;
}

/* ---- what the rows' checks share ------------------------------------------ */

/* The repeat check of the set in s->vidx... on colours [c0, c1), on the
 * worker's own stamp (n entries after the other workers'): tags are colour
 * numbers, so one clearing per worker serves all its colours. */
static void step_set_repeat_task(uint32_t c0, uint32_t c1, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    uint32_t *stamp = (uint32_t *)(void *)s->sc.save + (size_t)worker * s->n;
    if (!s->part[worker].stamped) {
        memset(stamp, 0xff, s->n * sizeof *stamp);
        s->part[worker].stamped = 1;
    }
    const uint32_t r =
        xpbd__colour_repeat_range(c0, c1, s->vbegin, s->vsize, s->vidx, s->vk, s->vsource, stamp);
    if (r != UINT32_MAX)
        step_note_bad(s, worker, r, XPBD_ERR_INDEX);
}

/* The repeat check of a coloured set over its colours: the lowest slot. */
xpbd_status xpbd__step_check_repeats(step_run *s, const uint32_t *const idx[4], unsigned k,
                                     const uint32_t *source, uint32_t colours,
                                     const uint32_t *colour_begin, const uint32_t *colour_size,
                                     size_t *bad)
{
    for (int a = 0; a < 4; ++a)
        s->vidx[a] = idx[a];
    s->vk = k;
    s->vsource = source;
    s->vbegin = colour_begin;
    s->vsize = colour_size;
    step_clear_partials(s);
    xpbd__run(&s->ex, step_set_repeat_task, colours, 1, s);
    return step_lowest_bad(s, bad);
}

/* Whether the set checks run over ranges: workers, and scratch room for a
 * stamp each (the scratch holds 16n reals before the step uses it). */
int xpbd__step_checks_on_ranges(const step_run *s)
{
    return s->ex.workers > 1 && (size_t)s->ex.workers * sizeof(uint32_t) <= 16 * sizeof(R);
}

/* The per-slot checks of the tetrahedron / bending set s->set on slot
 * blocks [b, e): the first bad slot there. */
static void step_quad_slots_task(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    step_run *s = ctx;
    const uint32_t slots = ((const QS *)s->set)->slots;
    const uint32_t s0 = b * XPBD__SBLOCK;
    const uint32_t s1 = (uint64_t)e * XPBD__SBLOCK < slots ? e * XPBD__SBLOCK : slots;
    size_t bad;
    const xpbd_status st = SFX(xpbd__quad_set_slots)(s->set, s->n, s0, s1, &bad);
    if (st != XPBD_OK)
        step_note_bad(s, worker, bad, st);
}

/* xpbd_quad_set_validate over ranges (as kinds/distance.c checks its set). */
xpbd_status xpbd__step_check_quad_set(step_run *s, const QS *q, uint32_t *stamp, size_t *bad)
{
    if (!xpbd__step_checks_on_ranges(s))
        return SFX(xpbd_quad_set_validate)(q, s->n, stamp, bad);
    xpbd_status st = SFX(xpbd__quad_set_fields)(q, stamp);
    if (st != XPBD_OK || q->slots == 0)
        return st;
    s->set = q;
    step_clear_partials(s);
    xpbd__run(&s->ex, step_quad_slots_task, (q->slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK,
              XPBD__MIN_SBLOCKS, s);
    if ((st = step_lowest_bad(s, bad)) != XPBD_OK)
        return st;
    const uint32_t *const idx[4] = {q->i0, q->i1, q->i2, q->i3};
    return xpbd__step_check_repeats(s, idx, 4, NULL, q->colours, q->colour_begin, q->colour_size, bad);
}

/* The per-step constants and contact parameters, once validated; then
 * each row's own (its setup). */
static void step_constants(step_run *s)
{
    const xpbd_step_config *cfg = s->cfg;
    const SFX(xpbd_world) *w = s->w;
    step_contact_run *cr = &s->cr;
    memset(cr, 0, sizeof *cr);
    cr->radius = w->radius;
    cr->beta = (R)cfg->contact_beta;
    cr->mu_s = (R)cfg->friction_static;
    cr->mu_k = (R)cfg->friction_dynamic;
    cr->e = (R)cfg->restitution;
    cr->slop = (R)cfg->contact_slop;
    cr->weighted = cfg->contact_weighted != 0;
    s->contacts = s->solve = 0;
    for (uint32_t r = 0; r < s->row_count; ++r) {
        const step_kind *row = s->rows[r];
        if (row->setup)
            row->setup(s);
        s->contacts |= row->class == ROW_CONTACT;
        s->solve |= row->solve != NULL;
    }
    s->springs = cfg->solver == XPBD_SOLVER_SPRINGS;
    s->vpass = s->contacts && cfg->contact_velocity_pass;
    s->impulse = w->plane_impulse;
    s->gx = (R)cfg->gravity[0];
    s->gy = (R)cfg->gravity[1];
    s->gz = (R)cfg->gravity[2];
    s->keep = (R)(1.0 - cfg->damping);
    s->ks = (R)cfg->pbd_stiffness;
    s->sd = (R)cfg->spring_damping;
    /* contacts approaching slower than gravity can make in two substeps are
     * resting: they do not bounce */
    s->rest_speed = (R)(2 * sqrt(cfg->gravity[0] * cfg->gravity[0] +
                                 cfg->gravity[1] * cfg->gravity[1] +
                                 cfg->gravity[2] * cfg->gravity[2]) *
                        (double)s->hs);
}

#endif /* XPBD_SELF */
