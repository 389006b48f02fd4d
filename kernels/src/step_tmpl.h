/* SPDX-License-Identifier: MIT */
/* The step driver, template over R: a world of particles, distance
 * constraints, soft-body sets and contacts (see xpbd/step.h).
 *
 * A step is a fixed list of stages (xpbd__stage below). Each stage is a
 * function over a range [begin, end) of its items (blocks of particles,
 * blocks of lambda slots, the batches of one colour, bodies), so the same
 * code runs inline or cut into ranges on the executor's workers:
 *
 *     validate     configuration, sets, contacts, bodies; kernel tables once
 *     broad phase  contact pairs from the step-start positions
 *     snapshot     the state a failed step puts back
 *     per substep  predict, iterations of (constraint colours, soft bodies,
 *                  contacts, coupling), velocity update, velocity pass,
 *                  relative damping; the lambda reset rides on the first
 *                  pass over each set, and a velocity update with nothing
 *                  after it shares one pass with the next predict
 *     finalize     sleepers back, finite check (rollback), residual
 *
 * Colours run one after another; a colour's batches touch disjoint
 * particles, so they may run on several workers at once. */
#include "precision.h"
#include "screen_tmpl.h"
#include "world_rules_tmpl.h"

#ifndef XPBD_STEP_STAGES
#define XPBD_STEP_STAGES
/* The stages, in the order a substep of the XPBD / PBD solver runs them
 * (the spring and lesson schemes use a subset, see their substeps). */
typedef enum xpbd__stage {
    STAGE_BROAD_PHASE,        /* once: contact pairs from the step-start positions */
    STAGE_SNAPSHOT,           /* once: copy of the state a failed step restores */
    STAGE_RESET_LAMBDA,       /* lambda = 0 (the solve fuses it into its first pass) */
    STAGE_PREDICT,            /* predict (+ pack, freeze sleepers, save velocities) */
    STAGE_CONSTRAINT_COLOURS, /* distance colours then the serial overflow */
    STAGE_SOFT_BODIES,        /* tetrahedra and bending colours, overflows, tethers */
    STAGE_CONTACTS,           /* contact colours, overflow, planes (position level) */
    STAGE_COUPLING,           /* two-way coupling with each rigid body */
    STAGE_VELOCITY_UPDATE,    /* velocity from positions (and unpack) */
    STAGE_VELOCITY_PREDICT,   /* a velocity update and the next substep's predict in one pass */
    STAGE_VELOCITY_PASS,      /* contact restitution / impulse pass */
    STAGE_RELATIVE_DAMPING,   /* each awake body's relative velocity damped */
    STAGE_FINALIZE            /* sleepers back, finite check or rollback, residual */
} xpbd__stage;

/* Items per range unit and the smallest share worth another worker: a
 * range task over particles works on blocks of XPBD__PBLOCK particles (so
 * no two workers share a vector or a cache line), over lambdas on blocks
 * of XPBD__SBLOCK slots. A stage runs on the team only when each worker
 * gets at least the MIN items, at least twice what a stage's hand-over
 * costs (about 1-2 us between two cores of a virtual machine, where one
 * cache line takes 0.3-1 us from core to core): measured with xpbd-bench
 * --cloth-only --threads 1,2 on the fastest path, 64x64 cloth colours of
 * 2,000 constraints run faster inline, 128x128 ones of 8,000 on two
 * workers. Slower paths do more work per item, so for them these
 * thresholds only err on the side of running inline. A test build lowers
 * them to 1 (tests/tests.cmake) so that every stage forks at any size. */
#  define XPBD__PBLOCK 64u
#  define XPBD__SBLOCK 1024u
#  ifndef XPBD__MIN_PBLOCKS
#    define XPBD__MIN_PBLOCKS 128u /* 8,192 particles */
#  endif
#  ifndef XPBD__MIN_SBLOCKS
#    define XPBD__MIN_SBLOCKS 16u /* 16,384 lambdas */
#  endif
#  ifndef XPBD__MIN_BATCHES
#    define XPBD__MIN_BATCHES 128u /* 2,048 constraints */
#  endif
#  ifndef XPBD__MIN_BODIES
#    define XPBD__MIN_BODIES 4u
#  endif

/* What a pass over a colour's batches does. */
typedef enum xpbd__colour_op {
    OP_DISTANCE_XPBD,
    OP_DISTANCE_PBD,
    OP_SPRING_FORCES,
    OP_TET_VOLUME,
    OP_BENDING,
    OP_CONTACT_POSITION,
    OP_CONTACT_VELOCITY,
    OP_CONTACT_RESTITUTION,
    OP_RESIDUAL
} xpbd__colour_op;

typedef enum xpbd__copy { COPY_SAVE, COPY_RESTORE, COPY_ZERO } xpbd__copy;

/* An error's place into the step's counters (xpbd/step.h): its part and
 * field (bad_index is set where the element is found). Returns st. */
static inline xpbd_status xpbd__refuse(xpbd_step_counters *k, xpbd_status st, xpbd_part part,
                                       xpbd_field field)
{
    if (st < 0) {
        k->bad_part = part;
        k->bad_field = field;
    }
    return st;
}
#endif

/* Scratch layout: the snapshot x y z px py pz vx vy vz [9n] and lambda
 * [slots] (R units), then a 64-byte aligned region holding either the
 * spring forces fx fy fz [3n] or the packed positions q [4n], then the
 * pre-solve velocities v0 [3n] of the contact velocity pass, then the
 * broad-phase workspace (8-byte aligned) and its still mask [n]. */
static size_t SFX(world_state_bytes)(size_t n, size_t slots)
{
    return (16 * n + slots) * sizeof(R) + 64;
}

/* find: the step runs the broad phase (a contact set of max_contacts,
 * possibly 0, that is not fixed). */
static size_t SFX(world_scratch_bytes)(size_t n, size_t slots, size_t max_contacts, int find)
{
    if (n > SIZE_MAX / (32 * sizeof(R)) || slots > SIZE_MAX / (4 * sizeof(R)))
        return SIZE_MAX;
    size_t bytes = SFX(world_state_bytes)(n, slots);
    if (find) {
        const size_t wb = xpbd_contacts_work_bytes(n, max_contacts);
        if (wb == SIZE_MAX)
            return SIZE_MAX;
        bytes += 8 + wb + n; /* + the broad phase's still mask */
    }
    return bytes;
}

/* The pointers into the caller's scratch, set in one place. */
typedef struct SFX(scratch) {
    R *save;         /* [9n + slots] snapshot: particle arrays, then lambdas */
    R *fx, *fy, *fz; /* [n] each: spring forces (springs only) */
    R *q;            /* [4n] packed x y z w, 64-byte aligned (shares fx's room) */
    R *v0;           /* [3n] pre-solve velocities x, y, z blocks */
    void *bp_work;   /* broad-phase workspace, 8-byte aligned */
    size_t bp_bytes;
    uint8_t *still;  /* [n] broad-phase still mask, after the workspace */
} SFX(scratch);

static SFX(scratch) SFX(scratch_layout)(void *scratch, size_t n, size_t slots,
                                        size_t max_contacts, int find)
{
    SFX(scratch) s;
    s.save = scratch;
    s.fx = s.save + 9 * n + slots;
    s.fy = s.fx + n;
    s.fz = s.fy + n;
    s.q = (R *)(void *)(((uintptr_t)s.fx + 63) & ~(uintptr_t)63);
    s.v0 = s.q + 4 * n;
    char *bp = (char *)scratch + SFX(world_state_bytes)(n, slots);
    s.bp_work = (void *)(((uintptr_t)bp + 7) & ~(uintptr_t)7);
    s.bp_bytes = find ? xpbd_contacts_work_bytes(n, max_contacts) : 0;
    s.still = find ? (uint8_t *)s.bp_work + s.bp_bytes : NULL;
    return s;
}

/* The multipliers of a world's sets, for the snapshot and the final check. */
typedef struct SFX(lambdas) {
    R *lambda[3];
    uint32_t slots[3];
} SFX(lambdas);

static SFX(lambdas) SFX(world_lambdas)(const SFX(xpbd_world) *w)
{
    SFX(lambdas) l;
    memset(&l, 0, sizeof l);
    if (w->constraints) {
        l.lambda[0] = w->constraints->lambda;
        l.slots[0] = w->constraints->slots;
    }
    if (w->tets) {
        l.lambda[1] = w->tets->lambda;
        l.slots[1] = w->tets->slots;
    }
    if (w->bends) {
        l.lambda[2] = w->bends->lambda;
        l.slots[2] = w->bends->slots;
    }
    return l;
}

/* Contact parameters in the step's precision. */
typedef struct SFX(contact_run) {
    const R *radius;
    const xpbd_contact_set *cs;
    R planes[8][4];
    uint32_t planes_n;
    R beta, mu_s, mu_k, e, slop;
    int weighted;
} SFX(contact_run);

/* One worker's partial results, combined by the caller after each join. */
typedef struct SFX(partial) {
    _Alignas(64) uint64_t skipped; /* constraint projections skipped */
    uint64_t hits;                 /* contact projections and impulses that acted */
    R max;                         /* residual maximum */
    size_t bad;                    /* lowest bad item seen */
    xpbd_status status;            /* what is wrong with it */
    int stamped;                   /* the worker's repeat-check stamp is cleared */
} SFX(partial);

/* Everything a step's stages share: validated inputs, kernel tables,
 * scratch, per-step constants and the pass being run. */
typedef struct SFX(step_run) {
    const xpbd_step_config *cfg;
    SFX(xpbd_world) *w;
    P *p;
    DS *c;
    size_t n;
    size_t all_slots, max_contacts;
    const SFX(xpbd_kernels) *kt;
    const SFX(xpbd_contact_kernels) *ckt;
    const SFX(xpbd_softbody_kernels) *skt;
    SFX(scratch) sc;
    SFX(lambdas) lam;
    SFX(contact_run) cr;
    R *impulse;                         /* the planes' impulses (may be NULL) */
    R hs, gx, gy, gz, keep, ks, sd, rest_speed;
    int lesson, find, contacts, soft, solve, springs, vpass;
    uint32_t sub;                       /* current substep */
    xpbd_status status;                 /* the broad phase's, then the step's */
    /* the pass being run by the range tasks */
    xpbd__colour_op op;
    const DS *dset;
    const QS *qset;
    uint32_t colour;
    int zero_lambda;                    /* the pass zeroes its slots' lambdas first */
    int lambda_dead;                    /* ... and nothing reads the distance lambdas it
                                           leaves: the next pass zeroes them again */
    const uint32_t *vidx[4];            /* the coloured set the repeat check runs on: */
    const uint32_t *vsource, *vbegin, *vsize; /* indices, source, colour_begin, colour_size, */
    unsigned vk;                        /* and indices per slot */
    int predicted;                      /* the substep's predict ran with the last update */
    xpbd__copy copy;
    xpbd__exec ex;
    SFX(partial) part[XPBD__MAX_WORKERS];
} SFX(step_run);

/* ---- ranges of particles ---------------------------------------------------- */

static uint32_t SFX(particle_blocks)(size_t n)
{
    return (uint32_t)((n + XPBD__PBLOCK - 1) / XPBD__PBLOCK);
}

/* Particles [*i0, *i1) of blocks [b, e). */
static void SFX(block_particles)(const SFX(step_run) *s, uint32_t b, uint32_t e, size_t *i0,
                                 size_t *i1)
{
    *i0 = (size_t)b * XPBD__PBLOCK;
    *i1 = (size_t)e * XPBD__PBLOCK < s->n ? (size_t)e * XPBD__PBLOCK : s->n;
}

static void SFX(run_particles)(SFX(step_run) *s, xpbd_range_task *task)
{
    xpbd__run(&s->ex, task, SFX(particle_blocks)(s->n), XPBD__MIN_PBLOCKS, s);
}

static void SFX(clear_partials)(SFX(step_run) *s)
{
    for (uint32_t t = 0; t < s->ex.workers; ++t) {
        s->part[t].max = 0;
        s->part[t].bad = SIZE_MAX;
        s->part[t].stamped = 0;
    }
}

/* Lowest bad item over the workers' slots: its index and status. */
static xpbd_status SFX(lowest_bad)(const SFX(step_run) *s, size_t *bad)
{
    xpbd_status st = XPBD_OK;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < *bad) {
            *bad = s->part[t].bad;
            st = s->part[t].status;
        }
    return st;
}

static void SFX(note_bad)(SFX(step_run) *s, uint32_t worker, size_t i, xpbd_status st)
{
    if (i < s->part[worker].bad) {
        s->part[worker].bad = i;
        s->part[worker].status = st;
    }
}

/* The particle checks of xpbd_particles_validate on blocks [b, e): the
 * validator itself over a view of those particles. */
static void SFX(particles_scan_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const P *p = s->p;
    size_t i0, i1, bad;
    SFX(block_particles)(s, b, e, &i0, &i1);
    const P v = {i1 - i0,     p->x + i0,  p->y + i0,  p->z + i0,  p->px + i0,
                 p->py + i0, p->pz + i0, p->vx + i0, p->vy + i0, p->vz + i0, p->w + i0};
    const xpbd_status st = SFX(xpbd_particles_validate)(&v, &bad);
    if (st != XPBD_OK)
        SFX(note_bad)(s, worker, i0 + bad, st);
}

/* Radii finite and >= 0 on blocks [b, e). */
static void SFX(radius_scan_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const R *radius = s->w->radius;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i)
        if (!isfinite(radius[i]) || radius[i] < 0) {
            SFX(note_bad)(s, worker, i, XPBD_ERR_RADIUS);
            return;
        }
}

/* Tether anchors in range and lengths finite and >= 0 on blocks [b, e). */
static void SFX(tether_scan_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const SFX(xpbd_world) *w = s->w;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    for (size_t i = i0; i < i1; ++i) {
        const xpbd_status st =
            SFX(xpbd__check_tether)(w->tether_anchor[i], w->tether_length[i], s->n);
        if (st != XPBD_OK) {
            SFX(note_bad)(s, worker, i, st);
            return;
        }
    }
}

/* Runs a per-particle scan over ranges; the lowest bad particle names the
 * status, as a scan in particle order would. */
static xpbd_status SFX(scan_particles)(SFX(step_run) *s, xpbd_range_task *task, size_t *bad)
{
    SFX(clear_partials)(s);
    SFX(run_particles)(s, task);
    return SFX(lowest_bad)(s, bad);
}

/* The particles: argument checks and the empty set as the validator makes
 * them, the per-particle checks over ranges. */
static xpbd_status SFX(check_particles)(SFX(step_run) *s, size_t *bad)
{
    const P *p = s->p;
    if (p->count == 0 || !p->x || !p->y || !p->z || !p->px || !p->py || !p->pz || !p->vx ||
        !p->vy || !p->vz || !p->w || p->count > (size_t)INT32_MAX)
        return SFX(xpbd_particles_validate)(p, bad);
    return SFX(scan_particles)(s, SFX(particles_scan_task), bad);
}

/* ---- validation ----------------------------------------------------------- */

/* Planes, radii and the contact set, each error with its part. */
static xpbd_status SFX(check_contacts)(SFX(step_run) *s, uint32_t *stamp, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    const size_t n = s->n;
    if (w->plane_count > 8 || (w->plane_count && !w->planes))
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_PLANE, XPBD_FIELD_NONE);
    if ((w->plane_count || w->contacts) && !w->radius)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RADIUS, XPBD_FIELD_NONE);
    xpbd_status st = xpbd__check_planes(w->planes, w->plane_count, &k->bad_index);
    if (st != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_PLANE, XPBD_FIELD_NONE);
    if (w->radius &&
        (st = SFX(scan_particles)(s, SFX(radius_scan_task), &k->bad_index)) != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_RADIUS, XPBD_FIELD_NONE);
    const xpbd_contact_set *cs = w->contacts;
    if (cs) {
        const xpbd_part part = w->contacts_fixed ? XPBD_PART_CONTACT_FIXED
                                                 : XPBD_PART_CONTACT_FOUND;
        if (!cs->i0 || !cs->i1 || cs->slots > cs->capacity || cs->colours > XPBD_MAX_COLOURS)
            return xpbd__refuse(k, XPBD_ERR_ARGUMENT, part, XPBD_FIELD_NONE);
        if (w->contacts_fixed)
            return xpbd__refuse(k, xpbd_contact_set_validate(cs, n, stamp, &k->bad_index), part,
                                XPBD_FIELD_NONE);
    }
    return XPBD_OK;
}

/* The distance set's per-slot screen on slot blocks [b, e): a failure is
 * only flagged (the validator names the slot). */
static void SFX(set_screen_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const uint32_t slots = s->c->slots;
    const uint32_t s0 = b * XPBD__SBLOCK;
    const uint32_t s1 = (uint64_t)e * XPBD__SBLOCK < slots ? e * XPBD__SBLOCK : slots;
    if (!SFX(xpbd__distance_set_screen)(s->c, s->n, s0, s1))
        SFX(note_bad)(s, worker, 0, XPBD_ERR_INDEX);
}

/* The repeat check of the set in s->vidx... on colours [c0, c1), on the
 * worker's own stamp (n entries after the other workers'): tags are colour
 * numbers, so one clearing per worker serves all its colours. */
static void SFX(set_repeat_task)(uint32_t c0, uint32_t c1, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    uint32_t *stamp = (uint32_t *)(void *)s->sc.save + (size_t)worker * s->n;
    if (!s->part[worker].stamped) {
        memset(stamp, 0xff, s->n * sizeof *stamp);
        s->part[worker].stamped = 1;
    }
    const uint32_t r =
        xpbd__colour_repeat_range(c0, c1, s->vbegin, s->vsize, s->vidx, s->vk, s->vsource, stamp);
    if (r != UINT32_MAX)
        SFX(note_bad)(s, worker, r, XPBD_ERR_INDEX);
}

/* The repeat check of a coloured set over its colours: the lowest slot. */
static xpbd_status SFX(check_repeats)(SFX(step_run) *s, const uint32_t *const idx[4],
                                      unsigned k, const uint32_t *source, uint32_t colours,
                                      const uint32_t *colour_begin,
                                      const uint32_t *colour_size, size_t *bad)
{
    for (int a = 0; a < 4; ++a)
        s->vidx[a] = idx[a];
    s->vk = k;
    s->vsource = source;
    s->vbegin = colour_begin;
    s->vsize = colour_size;
    SFX(clear_partials)(s);
    xpbd__run(&s->ex, SFX(set_repeat_task), colours, 1, s);
    return SFX(lowest_bad)(s, bad);
}

/* Whether the set checks run over ranges: workers, and scratch room for a
 * stamp each (the scratch holds 16n reals before the step uses it). */
static int SFX(checks_on_ranges)(const SFX(step_run) *s)
{
    return s->ex.workers > 1 && (size_t)s->ex.workers * sizeof(uint32_t) <= 16 * sizeof(R);
}

/* The per-slot checks of the tetrahedron / bending set s->qset on slot
 * blocks [b, e): the first bad slot there. */
static void SFX(quad_slots_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const uint32_t slots = s->qset->slots;
    const uint32_t s0 = b * XPBD__SBLOCK;
    const uint32_t s1 = (uint64_t)e * XPBD__SBLOCK < slots ? e * XPBD__SBLOCK : slots;
    size_t bad;
    const xpbd_status st = SFX(xpbd__quad_set_slots)(s->qset, s->n, s0, s1, &bad);
    if (st != XPBD_OK)
        SFX(note_bad)(s, worker, bad, st);
}

/* xpbd_quad_set_validate over ranges (see check_distance_set). */
static xpbd_status SFX(check_quad_set)(SFX(step_run) *s, const QS *q, uint32_t *stamp,
                                       size_t *bad)
{
    if (!SFX(checks_on_ranges)(s))
        return SFX(xpbd_quad_set_validate)(q, s->n, stamp, bad);
    xpbd_status st = SFX(xpbd__quad_set_fields)(q, stamp);
    if (st != XPBD_OK || q->slots == 0)
        return st;
    s->qset = q;
    SFX(clear_partials)(s);
    xpbd__run(&s->ex, SFX(quad_slots_task), (q->slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK,
              XPBD__MIN_SBLOCKS, s);
    if ((st = SFX(lowest_bad)(s, bad)) != XPBD_OK)
        return st;
    const uint32_t *const idx[4] = {q->i0, q->i1, q->i2, q->i3};
    return SFX(check_repeats)(s, idx, 4, NULL, q->colours, q->colour_begin, q->colour_size, bad);
}

/* xpbd_distance_set_validate over ranges when the run has workers and the
 * scratch room for a stamp each: the set's fields, the screen over slot
 * blocks (a failure: the validator itself names the slot), the repeat
 * check over colours, with the status and index the validator gives. */
static xpbd_status SFX(check_distance_set)(SFX(step_run) *s, uint32_t *stamp, size_t *bad)
{
    const DS *c = s->c;
    const size_t n = s->n;
    if (!SFX(checks_on_ranges)(s))
        return SFX(xpbd_distance_set_validate)(c, n, stamp, bad);
    xpbd_status st = SFX(xpbd__distance_set_fields)(c, stamp);
    if (st != XPBD_OK || c->slots == 0)
        return st;
    SFX(clear_partials)(s);
    xpbd__run(&s->ex, SFX(set_screen_task), (c->slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK,
              XPBD__MIN_SBLOCKS, s);
    size_t first = SIZE_MAX;
    if (SFX(lowest_bad)(s, &first) != XPBD_OK)
        return SFX(xpbd_distance_set_validate)(c, n, stamp, bad);
    const uint32_t *const idx[4] = {c->i0, c->i1, NULL, NULL};
    return SFX(check_repeats)(s, idx, 2, c->source, c->colours, c->colour_begin, c->colour_size,
                              bad);
}

/* Distance constraints, tetrahedra, bending and tethers. */
static xpbd_status SFX(check_sets)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    const SFX(xpbd_world) *w = s->w;
    const DS *c = w->constraints;
    /* the set validators' repeat check stamps particles: the scratch is not
     * in use yet and holds at least 16n reals */
    uint32_t *stamp = (uint32_t *)(void *)s->sc.save;
    xpbd_status st;
    if (c) {
        st = SFX(check_distance_set)(s, stamp, &k->bad_index);
        if (st != XPBD_OK)
            return xpbd__refuse(k, st, XPBD_PART_DISTANCE, XPBD_FIELD_NONE);
        if (cfg->solver == XPBD_SOLVER_SPRINGS)
            for (uint32_t s = 0; s < c->slots; ++s)
                if (c->source[s] != XPBD_PAD && !(c->compliance[s] > 0)) {
                    k->bad_index = s;
                    return xpbd__refuse(k, XPBD_ERR_COMPLIANCE, XPBD_PART_DISTANCE,
                                        XPBD_FIELD_NONE);
                }
        k->colours = c->colours;
        k->overflow = c->slots - c->overflow_begin;
    }
    st = SFX(check_contacts)(s, stamp, k);
    if (st != XPBD_OK)
        return st;
    if (w->tets && (st = SFX(check_quad_set)(s, w->tets, stamp, &k->bad_index)) != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_TET, XPBD_FIELD_NONE);
    if (w->bends && (st = SFX(check_quad_set)(s, w->bends, stamp, &k->bad_index)) != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_BEND, XPBD_FIELD_NONE);
    if (w->tether_anchor) {
        if (!w->tether_length)
            return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_TETHER, XPBD_FIELD_NONE);
        return xpbd__refuse(k, SFX(scan_particles)(s, SFX(tether_scan_task), &k->bad_index),
                            XPBD_PART_TETHER, XPBD_FIELD_NONE);
    }
    return XPBD_OK;
}

/* Host rigid bodies and the body ranges: the first bad body names its
 * index (and a rigid body its first bad field). */
static xpbd_status SFX(check_bodies)(const SFX(xpbd_world) *w, size_t n, xpbd_step_counters *k)
{
    if (w->rigid_count) {
        if (!w->rigids || !w->rigid_impulse)
            return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RIGID, XPBD_FIELD_NONE);
        if (!w->radius)
            return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_RADIUS, XPBD_FIELD_NONE);
        for (uint32_t b = 0; b < w->rigid_count; ++b) {
            const xpbd_field f = xpbd__rigid_field(&w->rigids[b]);
            if (f != XPBD_FIELD_NONE) {
                k->bad_index = b;
                return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_RIGID, f);
            }
        }
    }
    if (w->body_count) {
        if (!w->body_begin)
            return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_BODY, XPBD_FIELD_NONE);
        for (uint32_t b = 0; b < w->body_count; ++b)
            if (w->body_begin[b] > w->body_begin[b + 1] || w->body_begin[b + 1] > n) {
                k->bad_index = b;
                return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_BODY, XPBD_FIELD_BODY_BEGIN);
            }
    }
    return XPBD_OK;
}

/* The per-step constants and contact parameters, once validated. */
static void SFX(step_constants)(SFX(step_run) *s)
{
    const xpbd_step_config *cfg = s->cfg;
    const SFX(xpbd_world) *w = s->w;
    SFX(contact_run) *cr = &s->cr;
    memset(cr, 0, sizeof *cr);
    cr->radius = w->radius;
    cr->cs = w->radius ? w->contacts : NULL;
    cr->planes_n = w->radius ? w->plane_count : 0;
    for (uint32_t i = 0; i < cr->planes_n; ++i) {
        for (int j = 0; j < 3; ++j)
            cr->planes[i][j] = (R)w->planes[i].n[j];
        cr->planes[i][3] = (R)w->planes[i].d;
    }
    cr->beta = (R)cfg->contact_beta;
    cr->mu_s = (R)cfg->friction_static;
    cr->mu_k = (R)cfg->friction_dynamic;
    cr->e = (R)cfg->restitution;
    cr->slop = (R)cfg->contact_slop;
    cr->weighted = cfg->contact_weighted != 0;
    s->contacts = cr->cs || cr->planes_n;
    s->soft = w->tets || w->bends || w->tether_anchor;
    s->solve = s->c || s->contacts || s->soft || w->rigid_count;
    s->springs = cfg->solver == XPBD_SOLVER_SPRINGS;
    s->vpass = s->contacts && cfg->contact_velocity_pass;
    s->impulse = w->plane_impulse;
    s->lam = SFX(world_lambdas)(w);
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

/* Validates everything the step reads and fills s: nothing is written to
 * the world before this returns XPBD_OK. */
static xpbd_status SFX(step_validate)(SFX(step_run) *s, const xpbd_step_config *cfg, double h,
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
    s->c = w->constraints;
    xpbd_field field;
    xpbd_status st = xpbd__config_check(cfg, &field);
    if (st != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_CONFIG, field);
    s->hs = (R)(h / cfg->substeps);
    if (!isfinite(h) || !(h > 0) || !isfinite(s->hs) || !(s->hs > 0) ||
        !isfinite(1 / (s->hs * s->hs)))
        return XPBD_ERR_TIMESTEP; /* h, an argument: the status says it all */
    s->lesson = cfg->contact_order == XPBD_CONTACTS_LESSON;
    if (xpbd__lesson_refused(cfg, s->c || w->tets || w->bends || w->tether_anchor))
        return xpbd__refuse(k, XPBD_ERR_CONFIG, XPBD_PART_CONFIG, XPBD_FIELD_CONTACT_ORDER);
    xpbd_isa isa;
    if (xpbd_isa_resolve(cfg->isa, &isa) != XPBD_OK)
        return xpbd__refuse(k, XPBD_ERR_ISA, XPBD_PART_CONFIG, XPBD_FIELD_ISA);
    k->isa = isa;
    s->kt = SFX(xpbd_kernels_get)(isa);
    s->ckt = SFX(xpbd_contact_kernels_get)(isa);
    s->skt = SFX(xpbd_softbody_kernels_get)(isa);
    if (!s->kt || !s->ckt || !s->skt)
        return xpbd__refuse(k, XPBD_ERR_ISA, XPBD_PART_CONFIG, XPBD_FIELD_ISA);
    s->n = s->p->count;
    s->all_slots = (size_t)(s->c ? s->c->slots : 0) + (w->tets ? w->tets->slots : 0) +
                   (w->bends ? w->bends->slots : 0);
    /* a found set of capacity 0 can keep nothing: no broad phase (nor its
     * workspace, which xpbd_world_scratch_bytes leaves out for 0) */
    s->find = w->radius && w->contacts && !w->contacts_fixed && w->contacts->max_contacts;
    s->max_contacts = s->find ? w->contacts->max_contacts : 0;
    const size_t need = SFX(world_scratch_bytes)(s->n, s->all_slots, s->max_contacts, s->find);
    if (!scratch || need == SIZE_MAX || scratch_bytes < need)
        return xpbd__refuse(k, XPBD_ERR_CAPACITY, XPBD_PART_SCRATCH, XPBD_FIELD_NONE);
    if ((uintptr_t)scratch % _Alignof(R) != 0)
        return xpbd__refuse(k, XPBD_ERR_ARGUMENT, XPBD_PART_SCRATCH, XPBD_FIELD_NONE);
    s->sc = SFX(scratch_layout)(scratch, s->n, s->all_slots, s->max_contacts, s->find);
    if ((st = SFX(check_particles)(s, &k->bad_index)) != XPBD_OK)
        return xpbd__refuse(k, st, XPBD_PART_PARTICLES, XPBD_FIELD_NONE);
    if ((st = SFX(check_sets)(s, k)) != XPBD_OK)
        return st;
    if ((st = SFX(check_bodies)(w, s->n, k)) != XPBD_OK)
        return st;
    SFX(step_constants)(s);
    return XPBD_OK;
}

/* ---- running a stage over ranges ------------------------------------------- */

/* Sums the workers' counters into k and clears them. */
static void SFX(collect_counters)(SFX(step_run) *s, xpbd_step_counters *k)
{
    for (uint32_t t = 0; t < s->ex.workers; ++t) {
        k->skipped += s->part[t].skipped;
        k->contact_hits += s->part[t].hits;
        s->part[t].skipped = s->part[t].hits = 0;
    }
}

/* One pass (s->op) over batches [b0, b1) of colour s->colour. */
static void SFX(colour_task)(uint32_t b0, uint32_t b1, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const SFX(contact_run) *r = &s->cr;
    const uint32_t col = s->colour;
    const size_t n = s->n;
    const R *v0 = s->sc.v0;
    SFX(partial) *pt = &s->part[worker];
    if (s->zero_lambda && s->op == OP_DISTANCE_XPBD) {
        /* the reset of the lambdas, in the first pass over them; lambdas
         * that the next pass resets again are not written at all */
        pt->skipped +=
            s->lambda_dead
                ? s->kt->distance_xpbd_packed_once(s->sc.q, s->dset, col, b0, b1, s->hs)
                : s->kt->distance_xpbd_packed_first(s->sc.q, s->dset, col, b0, b1, s->hs);
        return;
    }
    if (s->zero_lambda && s->op <= OP_BENDING && s->op != OP_SPRING_FORCES) {
        /* the other sets' reset of the lambdas, fused into the first pass
         * over them (XPBD distance returned above) */
        const int dist = s->op == OP_DISTANCE_PBD;
        R *l = dist ? s->dset->lambda : s->qset->lambda;
        const uint32_t first = (dist ? s->dset->colour_begin : s->qset->colour_begin)[col];
        memset(l + first + (size_t)b0 * XPBD_BATCH, 0, (size_t)(b1 - b0) * XPBD_BATCH * sizeof(R));
    }
    switch (s->op) {
    case OP_DISTANCE_XPBD:
        pt->skipped += s->kt->distance_xpbd_packed(s->sc.q, s->dset, col, b0, b1, s->hs);
        break;
    case OP_DISTANCE_PBD:
        pt->skipped += s->kt->distance_pbd_packed(s->sc.q, s->dset, col, b0, b1, s->ks);
        break;
    case OP_SPRING_FORCES:
        pt->skipped += s->kt->spring_forces(s->p, s->dset, s->sc.fx, s->sc.fy, s->sc.fz, col, b0,
                                            b1, s->sd);
        break;
    case OP_TET_VOLUME:
        pt->skipped += s->skt->tet_volume(s->sc.q, s->qset, col, b0, b1, s->hs);
        break;
    case OP_BENDING:
        pt->skipped += s->skt->bending(s->sc.q, s->qset, col, b0, b1, s->hs);
        break;
    case OP_CONTACT_POSITION:
        pt->hits += s->ckt->position(s->sc.q, s->p, r->radius, r->cs, col, b0, b1, r->beta,
                                     r->weighted, r->mu_s, r->mu_k);
        break;
    case OP_CONTACT_VELOCITY:
        pt->hits += s->ckt->velocity(s->p, r->radius, r->cs, col, b0, b1, r->e, r->slop);
        break;
    case OP_CONTACT_RESTITUTION:
        pt->hits += s->ckt->restitution(s->p, r->radius, r->cs, v0, v0 + n, v0 + 2 * n, col, b0,
                                        b1, r->e, r->slop, s->rest_speed);
        break;
    case OP_RESIDUAL: {
        const R m = s->kt->residual(s->p, s->dset, col, b0, b1, s->hs, NULL);
        if (m > pt->max)
            pt->max = m;
        break;
    }
    }
}

/* Runs op over every colour of a set, one colour after another. A colour's
 * last batch may hold padding that reads the colour's first particle; it
 * runs on the caller after the join, so no worker reads a particle another
 * one writes. */
static void SFX(run_colours)(SFX(step_run) *s, xpbd__colour_op op, uint32_t colours,
                             const uint32_t *colour_begin)
{
    s->op = op;
    for (uint32_t col = 0; col < colours; ++col) {
        const uint32_t nb = xpbd_colour_batches(colour_begin, col);
        s->colour = col;
        if (nb < 2 * XPBD__MIN_BATCHES || s->ex.workers < 2) {
            SFX(colour_task)(0, nb, 0, s);
        } else {
            xpbd__run(&s->ex, SFX(colour_task), nb - 1, XPBD__MIN_BATCHES, s);
            SFX(colour_task)(nb - 1, nb, 0, s);
        }
    }
}

/* ---- the stages -------------------------------------------------------------- */

/* Lambda slots [b, e) of all sets (distance, tetrahedra, bending in turn):
 * saved to, restored from the snapshot, or zeroed. */
static void SFX(lambda_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    const size_t g0 = (size_t)b * XPBD__SBLOCK;
    const size_t g1 = (size_t)e * XPBD__SBLOCK < s->all_slots ? (size_t)e * XPBD__SBLOCK
                                                              : s->all_slots;
    size_t base = 0;
    R *save = s->sc.save + 9 * s->n;
    for (int k = 0; k < 3; ++k) {
        const size_t lo = g0 > base ? g0 - base : 0;
        const size_t hi = g1 - base < s->lam.slots[k] ? g1 - base : s->lam.slots[k];
        if (g1 > base && hi > lo) {
            R *l = s->lam.lambda[k] + lo, *v = save + base + lo;
            if (s->copy == COPY_SAVE)
                memcpy(v, l, (hi - lo) * sizeof(R));
            else if (s->copy == COPY_RESTORE)
                memcpy(l, v, (hi - lo) * sizeof(R));
            else
                memset(l, 0, (hi - lo) * sizeof(R));
        }
        base += s->lam.slots[k];
    }
}

static void SFX(run_lambdas)(SFX(step_run) *s, xpbd__copy copy)
{
    s->copy = copy;
    const uint32_t blocks = (uint32_t)((s->all_slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK);
    xpbd__run(&s->ex, SFX(lambda_task), blocks, XPBD__MIN_SBLOCKS, s);
}

/* Particles' nine arrays saved or restored; the plane impulses zeroed. */
static void SFX(snapshot_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    for (int k = 0; k < 9; ++k) {
        R *v = s->sc.save + (size_t)k * s->n + i0;
        if (s->copy == COPY_RESTORE)
            memcpy(arrays[k] + i0, v, (i1 - i0) * sizeof(R));
        else
            memcpy(v, arrays[k] + i0, (i1 - i0) * sizeof(R));
    }
    if (s->impulse)
        memset(s->impulse + i0, 0, (i1 - i0) * sizeof(R));
}

static void SFX(stage_snapshot)(SFX(step_run) *s, xpbd__copy copy)
{
    s->copy = copy;
    SFX(run_particles)(s, SFX(snapshot_task));
    SFX(run_lambdas)(s, copy);
    if (s->w->rigid_count)
        memset(s->w->rigid_impulse, 0, s->w->rigid_count * sizeof *s->w->rigid_impulse);
}

/* Contact pairs from the positions at step start (world space). Sleeping
 * bodies' particles are still: no pairs among them. */
static xpbd_status SFX(stage_broad_phase)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    uint8_t *still = NULL;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        if (w->body_asleep[b]) {
            if (!still) {
                still = s->sc.still;
                memset(still, 0, s->n);
            }
            memset(still + w->body_begin[b], 1, w->body_begin[b + 1] - w->body_begin[b]);
        }
    const xpbd_broadphase bp = {0, s->cfg->contact_skin, 0, still};
    const xpbd_status st = SFX(xpbd__contacts_find_run)(s->p, w->radius, &bp, s->sc.bp_work,
                                                  s->sc.bp_bytes, w->contacts, &k->bad_index,
                                                  &s->ex);
    if (st >= 0)
        k->contacts_dropped = w->contacts->dropped;
    /* a particle or radius the broad phase refuses was validated already:
     * what it can refuse here is the found set itself (its capacity) */
    return xpbd__refuse(k, st,
                        st == XPBD_ERR_POSITION ? XPBD_PART_PARTICLES
                        : st == XPBD_ERR_RADIUS ? XPBD_PART_RADIUS
                                                : XPBD_PART_CONTACT_FOUND,
                        XPBD_FIELD_NONE);
}

/* Puts the sleeping bodies' particles of [i0, i1) to their substep-start
 * positions with inverse mass 0 in the packed copy: in the solve they act
 * as static particles (what touches them gets the whole correction). */
static void SFX(freeze_sleepers)(const SFX(step_run) *s, size_t i0, size_t i1)
{
    const SFX(xpbd_world) *w = s->w;
    const P *p = s->p;
    R *q = s->sc.q;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b) {
        if (!w->body_asleep[b])
            continue;
        const size_t lo = w->body_begin[b] > i0 ? w->body_begin[b] : i0;
        const size_t hi = w->body_begin[b + 1] < i1 ? w->body_begin[b + 1] : i1;
        for (size_t i = lo; i < hi; ++i) {
            q[4 * i] = p->px[i];
            q[4 * i + 1] = p->py[i];
            q[4 * i + 2] = p->pz[i];
            q[4 * i + 3] = 0;
        }
    }
}

static void SFX(save_velocities)(const SFX(step_run) *s, size_t i0, size_t i1)
{
    const size_t n = s->n;
    memcpy(s->sc.v0 + i0, s->p->vx + i0, (i1 - i0) * sizeof(R));
    memcpy(s->sc.v0 + n + i0, s->p->vy + i0, (i1 - i0) * sizeof(R));
    memcpy(s->sc.v0 + 2 * n + i0, s->p->vz + i0, (i1 - i0) * sizeof(R));
}

/* The start of a substep on particles [i0, i1) for each scheme: XPBD / PBD
 * predict (and pack); springs integrate (and pack for the contacts); the
 * lesson's gravity only (its integrate waits for the velocity pass). */
static void SFX(predict_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    if (s->lesson) {
        s->ckt->gravity(p, i0, i1, s->gx * s->hs, s->gy * s->hs, s->gz * s->hs);
        return;
    }
    if (s->springs) {
        s->kt->spring_integrate(p, s->sc.fx, s->sc.fy, s->sc.fz, i0, i1, s->hs, s->gx, s->gy,
                                s->gz);
        if (!s->contacts)
            return;
        if (s->vpass)
            SFX(save_velocities)(s, i0, i1);
        s->kt->pack(p, s->sc.q, i0, i1);
        return;
    }
    if (s->solve) {
        s->kt->predict_pack(p, s->sc.q, i0, i1, s->hs, s->gx, s->gy, s->gz);
        SFX(freeze_sleepers)(s, i0, i1);
    } else {
        s->kt->predict(p, i0, i1, s->hs, s->gx, s->gy, s->gz);
    }
    if (s->vpass)
        SFX(save_velocities)(s, i0, i1);
}

/* The fused lambda reset of a set's serial overflow [begin, end). */
static void SFX(zero_overflow)(const SFX(step_run) *s, R *lambda, uint32_t begin, uint32_t end)
{
    if (s->zero_lambda && end > begin)
        memset(lambda + begin, 0, (size_t)(end - begin) * sizeof(R));
}

/* The distance set's colours, then its serial overflow; the springs'
 * forces (zeroed at the first substep) the same way. */
static void SFX(stage_constraint_colours)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const DS *c = s->c;
    /* the forces start at 0 (spring_integrate leaves them 0 for the next
     * substep, unless the contact pass packed positions over them) */
    if (s->springs && s->n && (s->sub == 0 || s->contacts))
        memset(s->sc.fx, 0, 3 * s->n * sizeof(R));
    if (!c)
        return;
    s->dset = c;
    SFX(partial) *pt = &s->part[0];
    if (s->springs) {
        SFX(run_colours)(s, OP_SPRING_FORCES, c->colours, c->colour_begin);
        pt->skipped += SFX(xpbd_serial_spring_forces)(s->p, c, s->sc.fx, s->sc.fy, s->sc.fz,
                                                      c->overflow_begin, c->slots, s->sd);
    } else if (s->cfg->solver == XPBD_SOLVER_XPBD) {
        SFX(run_colours)(s, OP_DISTANCE_XPBD, c->colours, c->colour_begin);
        SFX(zero_overflow)(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_xpbd_packed)(s->sc.q, c, c->overflow_begin,
                                                               c->slots, s->hs);
    } else {
        SFX(run_colours)(s, OP_DISTANCE_PBD, c->colours, c->colour_begin);
        SFX(zero_overflow)(s, c->lambda, c->overflow_begin, c->slots);
        pt->skipped += SFX(xpbd_serial_distance_pbd_packed)(s->sc.q, c, c->overflow_begin,
                                                              c->slots, s->ks);
    }
    k->solves += c->count;
}

/* Tetrahedra, bending (colours, then the serial overflow), tethers (in
 * particle order on the caller: a tether reads its anchor). */
static void SFX(stage_soft_bodies)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const SFX(xpbd_world) *w = s->w;
    SFX(partial) *pt = &s->part[0];
    const QS *t = w->tets, *b = w->bends;
    if (t) {
        s->qset = t;
        SFX(run_colours)(s, OP_TET_VOLUME, t->colours, t->colour_begin);
        SFX(zero_overflow)(s, t->lambda, t->overflow_begin, t->slots);
        pt->skipped += SFX(xpbd_serial_tet_volume)(s->sc.q, t, t->overflow_begin, t->slots, s->hs);
        k->solves += t->count;
    }
    if (b) {
        s->qset = b;
        SFX(run_colours)(s, OP_BENDING, b->colours, b->colour_begin);
        SFX(zero_overflow)(s, b->lambda, b->overflow_begin, b->slots);
        pt->skipped += SFX(xpbd_serial_bending)(s->sc.q, b, b->overflow_begin, b->slots, s->hs);
        k->solves += b->count;
    }
    if (w->tether_anchor)
        (void)s->skt->tethers(s->sc.q, w->tether_anchor, w->tether_length, 0, s->n);
}

/* Every plane on particles [i0, i1) at position level (a plane moves only
 * the particle it holds). The lesson order passes no impulse: its position
 * pass moves particles without touching their velocity. */
static void SFX(planes_position_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const SFX(contact_run) *r = &s->cr;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    R *impulse = s->lesson ? NULL : s->impulse;
    for (uint32_t k = 0; k < r->planes_n; ++k)
        s->part[worker].hits += s->ckt->plane_position(s->sc.q, s->p, r->radius, i0, i1,
                                                       r->planes[k], r->beta, r->mu_s, r->mu_k,
                                                       impulse, s->hs);
}

static void SFX(stage_contacts)(SFX(step_run) *s)
{
    const SFX(contact_run) *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    if (cs) {
        SFX(run_colours)(s, OP_CONTACT_POSITION, cs->colours, cs->colour_begin);
        s->part[0].hits += SFX(xpbd_serial_contact_position)(
            s->sc.q, s->p, r->radius, cs, cs->overflow_begin, cs->slots, r->beta, r->weighted,
            r->mu_s, r->mu_k);
    }
    if (r->planes_n)
        SFX(run_particles)(s, SFX(planes_position_task));
}

/* Couples the particles with rigid body b on q for one iteration and adds
 * the impulse to the world's rigid_impulse[b]. Returns the contacts. */
static uint32_t SFX(couple_accumulate)(const SFX(step_run) *s, uint32_t b)
{
    const SFX(xpbd_world) *w = s->w;
    xpbd_rigid_impulse j;
    if (SFX(xpbd_couple_rigid)(s->sc.q, s->p, w->radius, 0, s->n, &w->rigids[b], (double)s->hs,
                               &j) != XPBD_OK)
        return 0; /* validated at step start: cannot happen */
    xpbd_rigid_impulse *acc = &w->rigid_impulse[b];
    for (int a = 0; a < 3; ++a) {
        acc->linear[a] += j.linear[a];
        acc->angular[a] += j.angular[a];
    }
    acc->contacts += j.contacts;
    return j.contacts;
}

/* The coupling sums each body's impulse over the particles in order: it
 * runs on the caller, so the sums do not depend on the worker count. */
static void SFX(stage_coupling)(SFX(step_run) *s)
{
    for (uint32_t b = 0; b < s->w->rigid_count; ++b)
        s->part[0].hits += SFX(couple_accumulate)(s, b);
}

/* Velocities from positions on particles [i0, i1): XPBD / PBD unpack with
 * damping; springs with contacts unpack and update undamped; the lesson
 * unpacks only (its velocities changed at impulse level). */
static void SFX(velocity_update_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    if (s->lesson) {
        s->kt->unpack(s->sc.q, p, i0, i1);
    } else if (s->springs) {
        s->kt->unpack(s->sc.q, p, i0, i1);
        s->kt->update_velocity(p, i0, i1, s->hs, 1);
    } else if (s->solve) {
        s->kt->unpack_velocity(s->sc.q, p, i0, i1, s->hs, s->keep);
    } else {
        s->kt->update_velocity(p, i0, i1, s->hs, s->keep);
    }
}

/* A substep's velocity update and the next one's predict on particles
 * [i0, i1), in one pass (XPBD / PBD with nothing between the two). What
 * runs between two substeps on this path reads q and p only (the
 * constraints, soft bodies, coupling and position-level contacts: the
 * velocity pass and relative damping take the other path), and the step's
 * last velocity update computes x and v from q and p: the pass writes p
 * and q only. */
static void SFX(velocity_predict_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    s->kt->relaunch_packed(s->sc.q, s->p, i0, i1, s->hs, s->keep, s->gx, s->gy, s->gz);
    SFX(freeze_sleepers)(s, i0, i1);
}

/* The lesson's integrate (after its velocity passes) and pack. */
static void SFX(integrate_pack_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    s->ckt->integrate(s->p, i0, i1, s->hs);
    s->kt->pack(s->p, s->sc.q, i0, i1);
}

/* Every plane's velocity pass on particles [i0, i1). */
static void SFX(planes_velocity_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const SFX(contact_run) *r = &s->cr;
    const R *v0 = s->sc.v0;
    const size_t n = s->n;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    uint64_t hits = 0;
    for (uint32_t k = 0; k < r->planes_n; ++k)
        hits += s->lesson ? s->ckt->plane_velocity(s->p, r->radius, i0, i1, r->planes[k], r->e,
                                                   r->slop, s->impulse)
                          : s->ckt->plane_restitution(s->p, r->radius, v0, v0 + n, v0 + 2 * n,
                                                      i0, i1, r->planes[k], r->e, r->slop,
                                                      s->rest_speed, s->impulse);
    s->part[worker].hits += hits;
}

/* The velocity pass: against the pre-solve velocities v0 in the substep
 * order, the plain impulse pass in the lesson order. */
static void SFX(stage_velocity_pass)(SFX(step_run) *s)
{
    const SFX(contact_run) *r = &s->cr;
    const xpbd_contact_set *cs = r->cs;
    const R *v0 = s->sc.v0;
    const size_t n = s->n;
    if (cs) {
        SFX(run_colours)(s, s->lesson ? OP_CONTACT_VELOCITY : OP_CONTACT_RESTITUTION, cs->colours,
                         cs->colour_begin);
        s->part[0].hits +=
            s->lesson ? SFX(xpbd_serial_contact_velocity)(s->p, r->radius, cs, cs->overflow_begin,
                                                          cs->slots, r->e, r->slop)
                      : SFX(xpbd_serial_contact_restitution)(
                            s->p, r->radius, cs, v0, v0 + n, v0 + 2 * n, cs->overflow_begin,
                            cs->slots, r->e, r->slop, s->rest_speed);
    }
    if (r->planes_n)
        SFX(run_particles)(s, SFX(planes_velocity_task));
}

/* Bodies [b, e): relative damping of the awake ones (body_op 0), or the
 * sleeping ones put back to their step-start state (body_op 1). */
static void SFX(body_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    (void)worker;
    SFX(step_run) *s = ctx;
    const SFX(xpbd_world) *w = s->w;
    const P *p = s->p;
    for (uint32_t k = b; k < e; ++k) {
        const int asleep = w->body_asleep && w->body_asleep[k];
        const size_t b0 = w->body_begin[k], b1 = w->body_begin[k + 1];
        if (s->copy != COPY_RESTORE && !asleep) {
            (void)SFX(xpbd_damp_relative)(p, b0, b1, s->cfg->relative_damping);
        } else if (s->copy == COPY_RESTORE && asleep) {
            R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
            for (int a = 0; b1 > b0 && a < 9; ++a)
                memcpy(arrays[a] + b0, s->sc.save + (size_t)a * s->n + b0,
                       (b1 - b0) * sizeof(R));
        }
    }
}

static void SFX(run_bodies)(SFX(step_run) *s, xpbd__copy what)
{
    s->copy = what;
    xpbd__run(&s->ex, SFX(body_task), s->w->body_count, XPBD__MIN_BODIES, s);
}

/* First non-finite particle of blocks [b, e) (position or velocity) into
 * the worker's slot. */
static void SFX(finite_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const P *p = s->p;
    size_t i0, i1;
    SFX(block_particles)(s, b, e, &i0, &i1);
    const size_t m = i1 - i0;
    if (SFX(screen_finite)(p->x + i0, m) && SFX(screen_finite)(p->y + i0, m) &&
        SFX(screen_finite)(p->z + i0, m) && SFX(screen_finite)(p->vx + i0, m) &&
        SFX(screen_finite)(p->vy + i0, m) && SFX(screen_finite)(p->vz + i0, m))
        return;
    for (size_t i = i0; i < i1; ++i)
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i]) ||
            !isfinite(p->vx[i]) || !isfinite(p->vy[i]) || !isfinite(p->vz[i])) {
            if (i < s->part[worker].bad)
                s->part[worker].bad = i;
            return;
        }
}

/* First non-finite lambda of slot blocks [b, e) (slots counted across the
 * sets) into the worker's slot. */
static void SFX(lambda_finite_task)(uint32_t b, uint32_t e, uint32_t worker, void *ctx)
{
    SFX(step_run) *s = ctx;
    const size_t g0 = (size_t)b * XPBD__SBLOCK;
    const size_t g1 = (size_t)e * XPBD__SBLOCK < s->all_slots ? (size_t)e * XPBD__SBLOCK
                                                              : s->all_slots;
    size_t base = 0;
    for (int k = 0; k < 3; ++k) {
        const size_t lo = g0 > base ? g0 - base : 0;
        const size_t hi = g1 - base < s->lam.slots[k] ? g1 - base : s->lam.slots[k];
        if (g1 > base && hi > lo && !SFX(screen_finite)(s->lam.lambda[k] + lo, hi - lo))
            for (size_t i = lo; i < hi; ++i)
                if (!isfinite(s->lam.lambda[k][i])) {
                    if (base + i < s->part[worker].bad)
                        s->part[worker].bad = base + i;
                    return;
                }
        base += s->lam.slots[k];
    }
}

/* First non-finite element after a step: particle i, or n + slot (slots
 * counted across the sets in the order distance, tetrahedra, bending). */
static size_t SFX(first_nonfinite)(SFX(step_run) *s)
{
    SFX(clear_partials)(s);
    SFX(run_particles)(s, SFX(finite_task));
    size_t bad = SIZE_MAX;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < bad)
            bad = s->part[t].bad;
    if (bad != SIZE_MAX)
        return bad;
    SFX(clear_partials)(s);
    const uint32_t blocks = (uint32_t)((s->all_slots + XPBD__SBLOCK - 1) / XPBD__SBLOCK);
    xpbd__run(&s->ex, SFX(lambda_finite_task), blocks, XPBD__MIN_SBLOCKS, s);
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < bad)
            bad = s->part[t].bad;
    return bad == SIZE_MAX ? SIZE_MAX : s->n + bad;
}

/* Max |C + at*lambda| over the distance set at step end. */
static R SFX(residual)(SFX(step_run) *s)
{
    const DS *c = s->c;
    s->dset = c;
    SFX(clear_partials)(s);
    SFX(run_colours)(s, OP_RESIDUAL, c->colours, c->colour_begin);
    R m = 0;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].max > m)
            m = s->part[t].max;
    const R r = SFX(xpbd_serial_residual)(s->p, c, c->overflow_begin, c->slots, s->hs, NULL);
    return r > m ? r : m;
}

/* Sleeping bodies end the step as they began it; a non-finite result puts
 * the whole step back (XPBD_ERR_DIVERGED); else the residual. */
static xpbd_status SFX(stage_finalize)(SFX(step_run) *s, xpbd_status result,
                                       xpbd_step_counters *k)
{
    SFX(collect_counters)(s, k);
    if (s->w->body_asleep)
        SFX(run_bodies)(s, COPY_RESTORE);
    const size_t bad = SFX(first_nonfinite)(s);
    if (bad != SIZE_MAX) {
        SFX(stage_snapshot)(s, COPY_RESTORE);
        k->bad_index = bad;
        /* a particle, or the set whose lambda it is (slots counted across
         * the sets: distance, tetrahedra, bending) */
        const size_t g = bad < s->n ? 0 : bad - s->n;
        const xpbd_part part = bad < s->n                  ? XPBD_PART_PARTICLES
                               : g < s->lam.slots[0]       ? XPBD_PART_DISTANCE
                               : g - s->lam.slots[0] < s->lam.slots[1] ? XPBD_PART_TET
                                                                       : XPBD_PART_BEND;
        return xpbd__refuse(k, XPBD_ERR_DIVERGED, part, XPBD_FIELD_NONE);
    }
    if (s->c && s->cfg->measure_residual)
        k->max_residual = SFX(residual)(s);
    return result;
}

/* Runs one stage (the serial parts on the caller, the rest on ranges); the
 * broad phase and the finalize stage leave their status in s->status. */
static void SFX(stage)(SFX(step_run) *s, xpbd__stage stage, xpbd_step_counters *k)
{
    switch (stage) {
    case STAGE_RESET_LAMBDA: SFX(run_lambdas)(s, COPY_ZERO); break;
    case STAGE_PREDICT: SFX(run_particles)(s, SFX(predict_task)); break;
    case STAGE_CONSTRAINT_COLOURS: SFX(stage_constraint_colours)(s, k); break;
    case STAGE_SOFT_BODIES: SFX(stage_soft_bodies)(s, k); break;
    case STAGE_CONTACTS: SFX(stage_contacts)(s); break;
    case STAGE_COUPLING: SFX(stage_coupling)(s); break;
    case STAGE_VELOCITY_UPDATE: SFX(run_particles)(s, SFX(velocity_update_task)); break;
    case STAGE_VELOCITY_PREDICT: SFX(run_particles)(s, SFX(velocity_predict_task)); break;
    case STAGE_VELOCITY_PASS: SFX(stage_velocity_pass)(s); break;
    case STAGE_RELATIVE_DAMPING: SFX(run_bodies)(s, COPY_SAVE); break;
    case STAGE_BROAD_PHASE: s->status = SFX(stage_broad_phase)(s, k); break;
    case STAGE_SNAPSHOT: SFX(stage_snapshot)(s, COPY_SAVE); break;
    case STAGE_FINALIZE: s->status = SFX(stage_finalize)(s, s->status, k); break;
    }
}

/* ---- the substep schemes and the driver ------------------------------------- */

/* XPBD and PBD: the usual XPBD substep. The lambdas are reset by the
 * first pass over each set in the substep (and in each iteration when they
 * are reset per iteration): a slot's lambda is read by its own solve only,
 * so that is the reset at the substep's start without a pass of its own. */
static void SFX(substep_solve)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    if (!s->predicted)
        SFX(stage)(s, STAGE_PREDICT, k);
    s->predicted = 0;
    for (uint32_t it = 0; s->solve && it < cfg->iterations; ++it) {
        s->zero_lambda = it == 0 || cfg->lambda_reset == XPBD_LAMBDA_PER_ITERATION;
        /* the step leaves the lambdas of its last pass; before that, a
         * reset pass's lambdas are read by the next iteration of the
         * substep only (reset again per iteration, or kept) */
        const int last_pass = it + 1 == cfg->iterations && s->sub + 1 == cfg->substeps;
        s->lambda_dead =
            s->zero_lambda && !last_pass &&
            (cfg->lambda_reset == XPBD_LAMBDA_PER_ITERATION || it + 1 == cfg->iterations);
        SFX(stage)(s, STAGE_CONSTRAINT_COLOURS, k);
        if (s->soft)
            SFX(stage)(s, STAGE_SOFT_BODIES, k);
        s->zero_lambda = 0;
        s->lambda_dead = 0;
        if (s->contacts)
            SFX(stage)(s, STAGE_CONTACTS, k);
        SFX(stage)(s, STAGE_COUPLING, k);
        k->iterations++;
    }
    /* nothing between this update and the next predict: one pass */
    if (s->solve && !s->vpass && !(cfg->relative_damping > 0) && s->sub + 1 < cfg->substeps) {
        SFX(stage)(s, STAGE_VELOCITY_PREDICT, k);
        s->predicted = 1;
        return;
    }
    SFX(stage)(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        SFX(stage)(s, STAGE_VELOCITY_PASS, k);
    if (cfg->relative_damping > 0)
        SFX(stage)(s, STAGE_RELATIVE_DAMPING, k);
}

/* Springs: forces over the colours, semi-implicit Euler, then the contacts
 * once at position level and the velocity pass. */
static void SFX(substep_springs)(SFX(step_run) *s, xpbd_step_counters *k)
{
    SFX(stage)(s, STAGE_RESET_LAMBDA, k);
    SFX(stage)(s, STAGE_CONSTRAINT_COLOURS, k);
    SFX(stage)(s, STAGE_PREDICT, k); /* integrate, save velocities, pack */
    if (!s->contacts)
        return;
    SFX(stage)(s, STAGE_CONTACTS, k);
    SFX(stage)(s, STAGE_VELOCITY_UPDATE, k);
    if (s->vpass)
        SFX(stage)(s, STAGE_VELOCITY_PASS, k);
}

/* The lesson order: v += g*h; velocity pass (iterations times); x += v*h;
 * position pass (iterations times); no velocity update from positions. */
static void SFX(substep_lesson)(SFX(step_run) *s, xpbd_step_counters *k)
{
    const xpbd_step_config *cfg = s->cfg;
    SFX(stage)(s, STAGE_RESET_LAMBDA, k);
    SFX(stage)(s, STAGE_PREDICT, k); /* gravity only */
    for (uint32_t it = 0; cfg->contact_velocity_pass && it < cfg->iterations; ++it)
        SFX(stage)(s, STAGE_VELOCITY_PASS, k);
    SFX(run_particles)(s, SFX(integrate_pack_task));
    for (uint32_t it = 0; it < cfg->iterations; ++it) {
        SFX(stage)(s, STAGE_CONTACTS, k);
        k->iterations++;
    }
    SFX(stage)(s, STAGE_VELOCITY_UPDATE, k); /* unpack only */
}

static xpbd_status SFX(world_checked)(SFX(step_run) *s, const xpbd_step_config *cfg, double h,
                                      SFX(xpbd_world) *w, void *scratch, size_t scratch_bytes,
                                      xpbd_step_counters *k)
{
    xpbd_status st = SFX(step_validate)(s, cfg, h, w, scratch, scratch_bytes, k);
    if (st != XPBD_OK)
        return st;
    s->status = XPBD_OK;
    if (s->find) {
        SFX(stage)(s, STAGE_BROAD_PHASE, k); /* XPBD_OVERFLOW carries on */
        if (s->status < 0)
            return s->status;
    }
    k->contacts = s->cr.cs ? s->cr.cs->count : 0;
    memset(s->part, 0, sizeof s->part);
    SFX(stage)(s, STAGE_SNAPSHOT, k);
    for (s->sub = 0; s->sub < cfg->substeps; ++s->sub) {
        if (s->lesson)
            SFX(substep_lesson)(s, k);
        else if (s->springs)
            SFX(substep_springs)(s, k);
        else
            SFX(substep_solve)(s, k);
        k->substeps++;
    }
    SFX(stage)(s, STAGE_FINALIZE, k);
    return s->status;
}

/* A step's arguments, for the team's driver. */
typedef struct SFX(step_call) {
    SFX(step_run) *s;
    const xpbd_step_config *cfg;
    double h;
    SFX(xpbd_world) *w;
    void *scratch;
    size_t scratch_bytes;
    xpbd_step_counters *k;
    xpbd_status status;
} SFX(step_call);

static void SFX(step_drive)(void *ctx)
{
    SFX(step_call) *c = ctx;
    c->status = SFX(world_checked)(c->s, c->cfg, c->h, c->w, c->scratch, c->scratch_bytes, c->k);
}

/* Whether some stage of a step on w may run on several workers (a guess
 * from the counts alone, before validation: no array is read): the team is
 * started only then, so a world too small for any stage to fork pays no
 * enqueue. */
static int SFX(team_pays)(const SFX(xpbd_world) *w)
{
    const size_t colour = 2 * (size_t)XPBD__MIN_BATCHES * XPBD_BATCH;
    if (w->particles->count >= 2 * (size_t)XPBD__MIN_PBLOCKS * XPBD__PBLOCK)
        return 1;
    if (w->constraints && w->constraints->slots >= colour * (w->constraints->colours + 1u))
        return 1;
    if (w->tets && w->tets->slots >= colour * (w->tets->colours + 1u))
        return 1;
    if (w->bends && w->bends->slots >= colour * (w->bends->colours + 1u))
        return 1;
    return w->contacts && w->contacts->capacity >= colour;
}

static xpbd_status SFX(world_step)(const xpbd_step_config *cfg, double h, SFX(xpbd_world) *w,
                                   void *scratch, size_t scratch_bytes,
                                   xpbd_step_counters *counters)
{
    xpbd_step_counters k;
    memset(&k, 0, sizeof k);
    k.protocol = XPBD_PROTOCOL_VERSION;
    k.isa = XPBD_ISA_AUTO;
    k.bad_index = SIZE_MAX;
    k.bad_part = XPBD_PART_NONE;
    k.bad_field = XPBD_FIELD_NONE;
    SFX(step_run) s;
    memset(&s, 0, sizeof s);
    SFX(step_call) call = {&s, cfg, h, w, scratch, scratch_bytes, &k, XPBD_OK};
    /* an unusable executor leaves the run serial; xpbd__config_check names it */
    s.ex = xpbd__exec_serial();
    if (cfg && cfg->version == XPBD_PROTOCOL_VERSION &&
        !xpbd__exec_resolve(cfg->executor, cfg->threads, &s.ex))
        s.ex = xpbd__exec_serial();
    if (s.ex.workers > 1 && w && w->particles && SFX(team_pays)(w)) {
        xpbd__team_go(&s.ex, SFX(step_drive), &call);
    } else {
        /* no team: every stage on the caller, no enqueue (xpbd/executor.h) */
        s.ex = xpbd__exec_serial();
        SFX(step_drive)(&call);
    }
    const xpbd_status st = call.status;
    k.status = st;
    if (counters)
        *counters = k;
    return st;
}

static xpbd_status SFX(step)(const xpbd_step_config *cfg, double h, P *p, DS *c, void *scratch,
                             size_t scratch_bytes, xpbd_step_counters *counters)
{
    SFX(xpbd_world) w;
    memset(&w, 0, sizeof w);
    w.particles = p;
    w.constraints = c;
    return SFX(world_step)(cfg, h, &w, scratch, scratch_bytes, counters);
}

#define XPBD_PRECISION_END
#include "precision.h"
