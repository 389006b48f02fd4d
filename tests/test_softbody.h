/* SPDX-License-Identifier: MIT */
/* The soft-body and engine tests, one file per feature, listed together
 * in the "softbody" table of test_softbody.c:
 *
 *   test_softbody.c          meshes, the S3 scenarios, soft-body kernels per ISA
 *   test_engine_contract.c   create, apply and destroy at the engine's doors
 *   test_engine_tearing.c    the stretch pass and tearing
 *   test_engine_split.c      vertex splitting
 *   test_engine_sleeping.c   sleeping and waking
 *   test_engine_replay.c     replay files
 *   test_engine_replay_fields.c   every field through a replay file; replay_check
 *   test_engine_counters.c   counters
 *   test_engine_order.c      the two-serial-orders check
 *
 * Every tolerance is stated with the value measured when the test was
 * written (f64, this repository's kernels), so a regression shows as a
 * number leaving its band, not as a vague failure. */
#ifndef XPBD_TEST_SOFTBODY_H
#define XPBD_TEST_SOFTBODY_H

#include <xpbd/xpbd.h>

/* The measured values quoted in the comments: compile with -DSB_MEASURE to
 * have every test print them on stderr. */
#ifdef SB_MEASURE
#define SB_NOTE(...) fprintf(stderr, "    measured: " __VA_ARGS__)
#else
#define SB_NOTE(...) ((void)0)
#endif

/* An engine's particles, counters, world and scene view (by value), in
 * either precision. */
#define SB_P(e)                                                                               \
    _Generic((e), xpbd_engine_f32 *: xpbd_engine_particles_f32,                               \
             const xpbd_engine_f32 *: xpbd_engine_particles_f32,                              \
             xpbd_engine_f64 *: xpbd_engine_particles_f64,                                    \
             const xpbd_engine_f64 *: xpbd_engine_particles_f64)(e)
#define SB_C(e)                                                                               \
    _Generic((e), xpbd_engine_f32 *: xpbd_engine_counters_f32,                                \
             const xpbd_engine_f32 *: xpbd_engine_counters_f32,                               \
             xpbd_engine_f64 *: xpbd_engine_counters_f64,                                     \
             const xpbd_engine_f64 *: xpbd_engine_counters_f64)(e)
#define SB_W(e)                                                                               \
    _Generic((e), xpbd_engine_f32 *: xpbd_engine_world_f32,                                   \
             const xpbd_engine_f32 *: xpbd_engine_world_f32,                                  \
             xpbd_engine_f64 *: xpbd_engine_world_f64,                                        \
             const xpbd_engine_f64 *: xpbd_engine_world_f64)(e)
#define SB_V(e)                                                                               \
    _Generic((e), xpbd_engine_f32 *: sb_view_f32, const xpbd_engine_f32 *: sb_view_f32,       \
             xpbd_engine_f64 *: sb_view_f64, const xpbd_engine_f64 *: sb_view_f64)(e)

static inline xpbd_scene_f32 sb_view_f32(const xpbd_engine_f32 *e)
{
    xpbd_scene_f32 s;
    xpbd_engine_scene_f32(e, &s);
    return s;
}

static inline xpbd_scene_f64 sb_view_f64(const xpbd_engine_f64 *e)
{
    xpbd_scene_f64 s;
    xpbd_engine_scene_f64(e, &s);
    return s;
}

/* test_softbody.c: particle arrays of two engines equal bit for bit */
void sb_same_particles_f32(const xpbd_engine_f32 *got, const xpbd_engine_f32 *want, size_t n,
                           const char *what);
void sb_same_particles_f64(const xpbd_engine_f64 *got, const xpbd_engine_f64 *want, size_t n,
                           const char *what);

/* test_engine_contract.c */
void engine_create_zeroed(void);
void engine_create_steppable(void);
void engine_tether_dynamic_anchor(void);
void engine_first_body_later(void);
void engine_apply_overflow(void);
void engine_threads(void);
void softbody_bad_input(void);

/* test_engine_owned.c: the checks of the engine's own world */
void engine_owned_recheck(void);
void engine_owned_same_bits(void);

/* test_engine_tearing.c: total mass and momentum of the moving particles */
void sb_mass_momentum(const xpbd_particles_f64 *p, double out[4]);
void softbody_tearing(void);
void softbody_cross_tearing(void);

/* test_engine_split.c */
/* The "bowtie": hinge vertex 0, fan A = 1, 2, 3 (a unit square with 0),
 * fan B = 4, 5, 6 (the square below right), each square with its four
 * sides and two diagonals as edges, and a bridge 3-4 from A to B whose rest
 * length (0.5) is far below its length (sqrt 2), so the first stretch pass
 * tears it. Optional: a chain 7-8 (8 pinned, 7 tethered to it) as a second
 * body, a tet in each fan, and two bending stencils. */
typedef struct sb_bowtie {
    double xyz[3 * 10], w[10], rest[14], comp[14], tlen[10];
    uint32_t edge[2 * 14], tet[8], bend[8], anchor[10];
    size_t body[3];
    xpbd_scene_f64 s;
} sb_bowtie;

void sb_bowtie_make(sb_bowtie *b, int with_body, int with_tets);
void softbody_vertex_split(void);
void softbody_split_fuzz(void);

/* test_engine_sleeping.c */
void softbody_tear_while_asleep(void);
void softbody_sleeping(void);

/* test_engine_replay.c: saves the recording rec to path (the message on
 * stderr when it cannot) and frees it; 1 when saved */
struct xpbd_replay_file;
int sb_replay_save(struct xpbd_replay_file *rec, const char *path);
void softbody_replay(void);
void softbody_replay_version(void);
void softbody_replay_bounds(void);

/* test_engine_replay_fields.c */
void softbody_replay_fields(void);
void softbody_replay_check(void);
void softbody_replay_format3(void);
void softbody_replay_format4(void);

/* test_engine_counters.c */
void softbody_counters(void);

/* test_engine_order.c */
void softbody_order_check(void);

#endif /* XPBD_TEST_SOFTBODY_H */
