/* SPDX-License-Identifier: MIT */
/* step/step.h: what the step's files share (see xpbd/step.h for the step
 * itself). Read them top-down in this order:
 *
 *     driver.c    the entry points, the team, a step's outline and the
 *                 substep schemes (XPBD / PBD, springs)
 *     stages.c    each stage of a substep, a loop over ranges of its items
 *     validate.c  everything a step reads, checked before anything is
 *                 written; the scratch layout
 *     snapshot.c  the state a failed step puts back, the finite check,
 *                 the residual and the end of a step
 *
 * and ../reference_step.c, the teaching modes (the lesson contact order
 * and the per-iteration lambda reset) beside the serial references: the
 * driver hands a step in those modes to it.
 *
 * From the entry point to a kernel, top-down: xpbd_step_f32 ->
 * step_world_step -> step_drive -> step_world_checked -> step_substep_solve
 * (driver.c) -> xpbd__step_stage(STAGE_SOLVE) -> step_stage_rows (stages.c)
 * -> the row's solve, distance_solve (kinds/distance.c) ->
 * xpbd__step_run_colours (stages.c) -> distance_xpbd_task -> the path's
 * kernel, distance_xpbd_packed_avx2_f32 (kernels/distance.h).
 *
 * No file of the step names a constraint kind: each kind is one row of the
 * set-kind table (step_kind below, ../kinds/table.c), in its own file
 * ../kinds/<kind>.c, and the stages, the validators and the reference side
 * loop over the world's rows.
 *
 * A step is a fixed list of stages (xpbd__stage). Each stage is a function
 * over a range [begin, end) of its items (blocks of particles, blocks of
 * lambda slots, the batches of one colour, bodies), so the same code runs
 * inline or cut into ranges on the executor's workers:
 *
 *     validate     configuration, sets, contacts, bodies; kernel tables once
 *     prepare      the rows' preparation (the found contacts' broad phase)
 *     snapshot     the state a failed step puts back
 *     per substep  predict, iterations of every row's pass (constraints,
 *                  contacts, coupling), velocity update, velocity pass,
 *                  relative damping; the lambda reset rides on the first
 *                  pass over each set, and a velocity update with nothing
 *                  after it shares one pass with the next predict
 *     finalize     sleepers back, finite check (rollback), residual
 *
 * Colours run one after another; a colour's batches touch disjoint
 * particles, so they may run on several workers at once.
 *
 * Read inside an open precision (precision.h): the part that does not
 * depend on it once, the rest once per precision. Every file of the step
 * instantiates itself (precision.h, each_precision.h). */
#include "internal.h"
#include "exec.h"
#include "step_kernels.h"
#include "xpbd/engine.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef XPBD_STEP_STEP_H
#define XPBD_STEP_STEP_H
/* The stages, in the order a substep of the XPBD / PBD solver runs them
 * (the spring scheme uses a subset, see driver.c). A stage that works on
 * constraints runs the rows of the set-kind table (kinds/table.c) that
 * take part in it, in the table's order. */
typedef enum xpbd__stage {
    STAGE_PREPARE,            /* once: each row's preparation (the broad phase) */
    STAGE_SNAPSHOT,           /* once: copy of the state a failed step restores */
    STAGE_RESET_LAMBDA,       /* lambda = 0 (the solve fuses it into its first pass) */
    STAGE_PREDICT,            /* predict (+ pack, freeze sleepers, save velocities) */
    STAGE_SOLVE,              /* one iteration: every row's position-level pass */
    STAGE_SPRING_FORCES,      /* the springs' forces (the spring scheme) */
    STAGE_CONTACTS,           /* the contact rows' position-level pass alone */
    STAGE_VELOCITY_UPDATE,    /* velocity from positions (and unpack) */
    STAGE_VELOCITY_PREDICT,   /* a velocity update and the next substep's predict in one pass */
    STAGE_VELOCITY_PASS,      /* every row's velocity pass (contact restitution) */
    STAGE_RELATIVE_DAMPING,   /* each awake body's relative velocity damped */
    STAGE_FINALIZE            /* sleepers back, finite check or rollback, residual */
} xpbd__stage;

/* Where a row's position-level pass runs in an iteration: the
 * constraints (whose lambdas the first pass resets), the contacts (which
 * the spring scheme also runs), the coupling with rigid bodies; world
 * state that is only checked has no pass. */
typedef enum xpbd__row_class {
    ROW_CONSTRAINT,
    ROW_CONTACT,
    ROW_COUPLING,
    ROW_STATE
} xpbd__row_class;

/* Rows a table holds at most. */
#define XPBD__ROWS_MAX 16u

/* Items per range unit and the smallest share worth another worker: a
 * range task over particles works on blocks of XPBD__PBLOCK particles (so
 * no two workers share a vector or a cache line), over lambdas on blocks
 * of XPBD__SBLOCK slots. A stage runs on the team only when each worker
 * gets at least the MIN items, at least twice what a stage's hand-over
 * costs (one cache line between two cores of a virtual machine takes
 * about as long as a few hundred constraint solves). The thresholds were
 * set with `xpbd-bench --cloth-only --threads 1,2` on the fastest path
 * (run it again to re-measure them on a machine): below them a colour runs
 * faster inline. Slower paths do more work per item, so for them these
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

typedef enum xpbd__copy { COPY_SAVE, COPY_RESTORE, COPY_ZERO } xpbd__copy;

/* The slots a colour walk visits, as the serial references walk them:
 * each colour's real slots [s0, s1) in colour order, then the overflow
 * (any coloured set: distance, quad, contact). */
#define XPBD__EACH_COLOUR_RANGE(set, s0, s1)                                                  \
    for (uint32_t col_ = 0, s0 = 0, s1 = 0; col_ <= (set)->colours; ++col_)                   \
        if ((col_ < (set)->colours                                                            \
                 ? (s0 = (set)->colour_begin[col_], s1 = s0 + (set)->colour_size[col_])       \
                 : (s0 = (set)->overflow_begin, s1 = (set)->slots)),                          \
            s1 > s0)

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

/* Seconds on the clock the per-stage split reads (internal.h:
 * xpbd__step_how.stage_seconds); read only when the caller asked for it. */
static inline double xpbd__step_now(void)
{
    struct timespec t;
    if (!timespec_get(&t, TIME_UTC))
        return 0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 if cfg asks for a teaching mode (the lesson contact order, the
 * per-iteration lambda reset): the driver hands such a step to the
 * reference side (reference_step.c). */
static inline int xpbd__step_teaching(const xpbd_step_config *cfg)
{
    return cfg->contact_order == XPBD_CONTACTS_LESSON ||
           cfg->lambda_reset == XPBD_LAMBDA_PER_ITERATION;
}
#endif /* XPBD_STEP_STEP_H */

#if !defined(R)
/* outside a precision: the shared part only */
#elif R_F64 && !defined(XPBD_STEP_H_F64)
#  define XPBD_STEP_H_F64
#  define XPBD_STEP_H_OPEN
#elif !R_F64 && !defined(XPBD_STEP_H_F32)
#  define XPBD_STEP_H_F32
#  define XPBD_STEP_H_OPEN
#endif

#ifdef XPBD_STEP_H_OPEN
#undef XPBD_STEP_H_OPEN

/* The names of this header's types and functions, both precisions. */
#define step_scratch PREC(step_scratch_f32, step_scratch_f64)
#define step_lambdas PREC(step_lambdas_f32, step_lambdas_f64)
#define step_contact_run PREC(step_contact_run_f32, step_contact_run_f64)
#define step_partial PREC(step_partial_f32, step_partial_f64)
#define step_run PREC(step_run_f32, step_run_f64)
#define step_kind PREC(step_kind_f32, step_kind_f64)
#define xpbd__kind_table PREC(xpbd__kind_table_f32, xpbd__kind_table_f64)
#define xpbd__kind_checks PREC(xpbd__kind_checks_f32, xpbd__kind_checks_f64)
#define step_particle_blocks PREC(step_particle_blocks_f32, step_particle_blocks_f64)
#define step_block_particles PREC(step_block_particles_f32, step_block_particles_f64)
#define step_run_particles PREC(step_run_particles_f32, step_run_particles_f64)
#define step_clear_partials PREC(step_clear_partials_f32, step_clear_partials_f64)
#define step_lowest_bad PREC(step_lowest_bad_f32, step_lowest_bad_f64)
#define step_note_bad PREC(step_note_bad_f32, step_note_bad_f64)
#define xpbd__step_scratch_bytes PREC(xpbd__step_scratch_bytes_f32, xpbd__step_scratch_bytes_f64)
#define xpbd__step_validate PREC(xpbd__step_validate_f32, xpbd__step_validate_f64)
#define xpbd__step_stage PREC(xpbd__step_stage_f32, xpbd__step_stage_f64)
#define xpbd__step_run_colours PREC(xpbd__step_run_colours_f32, xpbd__step_run_colours_f64)
#define xpbd__step_run_colour_range PREC(xpbd__step_run_colour_range_f32, xpbd__step_run_colour_range_f64)
#define xpbd__step_zero_batches PREC(xpbd__step_zero_batches_f32, xpbd__step_zero_batches_f64)
#define xpbd__step_zero_overflow PREC(xpbd__step_zero_overflow_f32, xpbd__step_zero_overflow_f64)
#define xpbd__step_checks_on_ranges PREC(xpbd__step_checks_on_ranges_f32, xpbd__step_checks_on_ranges_f64)
#define xpbd__step_check_repeats PREC(xpbd__step_check_repeats_f32, xpbd__step_check_repeats_f64)
#define xpbd__step_check_quad_set PREC(xpbd__step_check_quad_set_f32, xpbd__step_check_quad_set_f64)
#define xpbd__step_scan_particles PREC(xpbd__step_scan_particles_f32, xpbd__step_scan_particles_f64)
#define xpbd__step_lambdas PREC(xpbd__step_lambdas_f32, xpbd__step_lambdas_f64)
#define xpbd__step_snapshot PREC(xpbd__step_snapshot_f32, xpbd__step_snapshot_f64)
#define xpbd__step_finalize PREC(xpbd__step_finalize_f32, xpbd__step_finalize_f64)
#define xpbd__reference_substep PREC(xpbd__reference_substep_f32, xpbd__reference_substep_f64)

/* The pointers into the caller's scratch, set in one place (validate.c:
 * step_scratch_layout). */
typedef struct step_scratch {
    R *save;         /* [9n + slots] snapshot: particle arrays, then lambdas */
    R *fx, *fy, *fz; /* [n] each: spring forces (springs only) */
    R *q;            /* [4n] packed x y z w, 64-byte aligned (shares fx's room) */
    R *v0;           /* [3n] pre-solve velocities x, y, z blocks */
    void *bp_work;   /* broad-phase workspace, 8-byte aligned */
    size_t bp_bytes;
    uint8_t *still;  /* [n] broad-phase still mask, after the workspace */
} step_scratch;

/* The multipliers of a world's sets, for the snapshot and the final check. */
/* The multipliers of the world's rows that have them, in table order
 * (slots are counted across them in this order). */
typedef struct step_lambdas {
    R *lambda[XPBD__ROWS_MAX];
    uint32_t slots[XPBD__ROWS_MAX];
    xpbd_part part[XPBD__ROWS_MAX];
    uint32_t count;
} step_lambdas;

/* Contact parameters in the step's precision. */
typedef struct step_contact_run {
    const R *radius;
    const xpbd_contact_set *cs;
    R planes[8][4];
    uint32_t planes_n;
    R beta, mu_s, mu_k, e, slop;
    int weighted;
} step_contact_run;

/* One worker's partial results, combined by the caller after each join. */
typedef struct step_partial {
    _Alignas(64) uint64_t skipped; /* constraint projections skipped */
    uint64_t hits;                 /* contact projections and impulses that acted */
    R max;                         /* residual maximum */
    size_t bad;                    /* lowest bad item seen */
    xpbd_status status;            /* what is wrong with it */
    int stamped;                   /* the worker's repeat-check stamp is cleared */
} step_partial;

struct step_run;

/* A row of the set-kind table: one constraint set kind (or a piece of
 * world state the step checks), everything the step, its validators and
 * the reference side need of it. A NULL hook: the kind takes no part in
 * that stage. Each row lives in its kind's file, kinds/<kind>.c. */
typedef struct step_kind {
    const char *name;       /* the kind, as docs/glossary.md and errors name it */
    xpbd_part part;         /* what its refusals name */
    xpbd__row_class class;  /* where its pass runs in an iteration */
    int needs_radius;       /* its particles need radii (the radius row checks) */
    /* 1 if the world has this kind's set */
    int (*present)(const SFX(xpbd_world) *w);
    /* its multipliers and their slots, or NULL (none) */
    R *(*lambda)(const SFX(xpbd_world) *w, uint32_t *slots);
    /* its checks, refusing with its part (xpbd__refuse); stamp: n entries
     * of scratch for the repeat check */
    xpbd_status (*check)(struct step_run *s, uint32_t *stamp, xpbd_step_counters *k);
    /* what the step's counters say of its set once it passed (or needs no)
     * check: its colours and overflow; NULL: nothing */
    void (*report)(const struct step_run *s, xpbd_step_counters *k);
    /* the pairs its broad phase may keep, or NULL / 0: none runs (the
     * scratch then holds no broad-phase workspace) */
    size_t (*found_pairs)(const SFX(xpbd_world) *w);
    /* 1 if its colours are big enough for a team (before validation) */
    int (*pays)(const SFX(xpbd_world) *w);
    /* after validation: what its passes read from the world and config */
    void (*setup)(struct step_run *s);
    /* once, before the snapshot (the broad phase): a status < 0 ends the step */
    xpbd_status (*prepare)(struct step_run *s, xpbd_step_counters *k);
    /* one iteration at position level (s->zero_lambda: its first pass) */
    void (*solve)(struct step_run *s, xpbd_step_counters *k);
    /* the spring scheme's forces */
    void (*forces)(struct step_run *s, xpbd_step_counters *k);
    /* zero what it reports of a step (impulses): at the snapshot, and
     * again when a failed step is put back */
    void (*clear)(struct step_run *s);
    /* the velocity pass after the substep's velocity update */
    void (*velocity)(struct step_run *s);
    /* solve as the serial references state it (reference_step.c); with
     * s->lesson, the lesson's position pass */
    void (*reference)(struct step_run *s, xpbd_step_counters *k);
    /* the lesson's velocity pass (plain impulses) */
    void (*lesson_velocity)(struct step_run *s);
    /* max |C + a~ lambda| over its set at step end (counters.max_residual) */
    R (*residual)(struct step_run *s);
    /* the engine's counters of its set after a step (xpbd_engine_counters:
     * its colours and what it measures); max_stretch: the distance set's,
     * when the caller's stretch pass measured it already (may be NULL) */
    void (*counters)(const SFX(xpbd_world) *w, const double *max_stretch,
                     xpbd_engine_counters *out);
} step_kind;

/* The set-kind table (kinds/table.c): every row in the order an iteration
 * solves them, NULL-terminated; and the order the validators check them
 * in (xpbd/step.h lists it), with the world state between the kinds. */
extern const step_kind *const xpbd__kind_table[];
extern const step_kind *const xpbd__kind_checks[];

/* Everything a step's stages share: validated inputs, kernel tables,
 * scratch, per-step constants and the pass being run. */
typedef struct step_run {
    const xpbd_step_config *cfg;
    SFX(xpbd_world) *w;
    P *p;
    size_t n;
    const step_kind *rows[XPBD__ROWS_MAX]; /* the world's rows, in table order */
    uint32_t row_count;
    size_t all_slots, max_contacts;
    const SFX(xpbd_kernels) *kt;
    const SFX(xpbd_contact_kernels) *ckt;
    const SFX(xpbd_softbody_kernels) *skt;
    const SFX(xpbd__step_kernels) *sk; /* the step's private row of the path */
    step_scratch sc;
    step_lambdas lam;
    step_contact_run cr;
    R *impulse;                         /* the planes' impulses (may be NULL) */
    R hs, gx, gy, gz, keep, ks, sd, rest_speed;
    int find, contacts, solve, springs, vpass;
    int lesson;                         /* the lesson order (reference side only) */
    uint32_t sub;                       /* current substep */
    xpbd_status status;                 /* the broad phase's, then the step's */
    /* the pass being run by the range tasks: its set and colour */
    const void *set;
    uint32_t colour;
    int zero_lambda;                    /* the pass zeroes its slots' lambdas first */
    int lambda_dead;                    /* ... and nothing reads the distance lambdas it
                                           leaves: the next pass zeroes them again */
    const uint32_t *vidx[4];            /* the coloured set the repeat check runs on: */
    const uint32_t *vsource, *vbegin, *vsize; /* indices, source, colour_begin, colour_size, */
    unsigned vk;                        /* and indices per slot */
    int predicted;                      /* the substep's predict ran with the last update */
    int owned;                          /* the caller's own checked arrays (xpbd__step_how):
                                           no per-element checks */
    double *clock;                      /* per-stage seconds (xpbd__step_how), or NULL */
    xpbd__copy copy;
    xpbd__exec ex;
    step_partial part[XPBD__MAX_WORKERS];
} step_run;

/* ---- ranges of particles, per-worker results --------------------------- */

static inline uint32_t step_particle_blocks(size_t n)
{
    return (uint32_t)((n + XPBD__PBLOCK - 1) / XPBD__PBLOCK);
}

/* Particles [*i0, *i1) of blocks [b, e). */
static inline void step_block_particles(const step_run *s, uint32_t b, uint32_t e, size_t *i0,
                                        size_t *i1)
{
    *i0 = (size_t)b * XPBD__PBLOCK;
    *i1 = (size_t)e * XPBD__PBLOCK < s->n ? (size_t)e * XPBD__PBLOCK : s->n;
}

static inline void step_run_particles(step_run *s, xpbd_range_task *task)
{
    xpbd__run(&s->ex, task, step_particle_blocks(s->n), XPBD__MIN_PBLOCKS, s);
}

static inline void step_clear_partials(step_run *s)
{
    for (uint32_t t = 0; t < s->ex.workers; ++t) {
        s->part[t].max = 0;
        s->part[t].bad = SIZE_MAX;
        s->part[t].stamped = 0;
    }
}

/* Lowest bad item over the workers' slots: its index and status. */
static inline xpbd_status step_lowest_bad(const step_run *s, size_t *bad)
{
    xpbd_status st = XPBD_OK;
    for (uint32_t t = 0; t < s->ex.workers; ++t)
        if (s->part[t].bad < *bad) {
            *bad = s->part[t].bad;
            st = s->part[t].status;
        }
    return st;
}

static inline void step_note_bad(step_run *s, uint32_t worker, size_t i, xpbd_status st)
{
    if (i < s->part[worker].bad) {
        s->part[worker].bad = i;
        s->part[worker].status = st;
    }
}

/* ---- what each file gives the others ----------------------------------- */

/* validate.c: the scratch a step needs (find: it runs the broad phase on
 * a found set of max_contacts, possibly 0); the checks that fill s. */
size_t xpbd__step_scratch_bytes(size_t n, size_t slots, size_t max_contacts, int find);
xpbd_status xpbd__step_validate(step_run *s, const xpbd_step_config *cfg, double h,
                                SFX(xpbd_world) *w, void *scratch, size_t scratch_bytes,
                                xpbd_step_counters *k);

/* validate.c, for the rows' checks: whether set checks run over ranges
 * (workers, and scratch room for a stamp each); the repeat check of a
 * coloured set over its colours on those ranges (the lowest slot); a quad
 * set (tetrahedra, bending) validated as xpbd_quad_set_validate does; a
 * per-particle scan over ranges (the lowest bad particle). */
int xpbd__step_checks_on_ranges(const step_run *s);
xpbd_status xpbd__step_check_repeats(step_run *s, const uint32_t *const idx[4], unsigned k,
                                     const uint32_t *source, uint32_t colours,
                                     const uint32_t *colour_begin, const uint32_t *colour_size,
                                     size_t *bad);
xpbd_status xpbd__step_check_quad_set(step_run *s, const QS *q, uint32_t *stamp, size_t *bad);
xpbd_status xpbd__step_scan_particles(step_run *s, xpbd_range_task *task, size_t *bad);

/* stages.c: one stage (the prepare and finalize stages leave their status
 * in s->status); task over every colour of a set (s->set, s->colour set
 * for it), one colour after another; a colour pass's fused lambda reset
 * (s->zero_lambda) on batches [b0, b1) and on the serial overflow. */
void xpbd__step_stage(step_run *s, xpbd__stage stage, xpbd_step_counters *k);
void xpbd__step_run_colours(step_run *s, const void *set, xpbd_range_task *task,
                            uint32_t colours, const uint32_t *colour_begin);
void xpbd__step_run_colour_range(step_run *s, const void *set, xpbd_range_task *task,
                                 uint32_t c0, uint32_t c1, const uint32_t *colour_begin);
void xpbd__step_zero_batches(const step_run *s, R *lambda, const uint32_t *colour_begin,
                             uint32_t b0, uint32_t b1);
void xpbd__step_zero_overflow(const step_run *s, R *lambda, uint32_t begin, uint32_t end);

/* snapshot.c: every set's lambdas saved, restored or zeroed; the state (the
 * particles, the lambdas) saved or restored; the end of a step (returns
 * result, or XPBD_ERR_DIVERGED after a rollback). */
void xpbd__step_lambdas(step_run *s, xpbd__copy copy);
void xpbd__step_snapshot(step_run *s, xpbd__copy copy);
xpbd_status xpbd__step_finalize(step_run *s, xpbd_status result, xpbd_step_counters *k);

/* reference_step.c: one substep of a teaching mode (xpbd__step_teaching),
 * serial, on the reference statement of each pass. */
void xpbd__reference_substep(step_run *s, xpbd_step_counters *k);

#endif /* XPBD_STEP_H_OPEN */
