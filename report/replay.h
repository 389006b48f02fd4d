/* SPDX-License-Identifier: MIT */
/* replay.h: versioned replay files of an xpbd engine and the xpbd-replay
 * tool.
 *
 * A replay file is the minimal repro of a run: the engine's state when the
 * recording began (particles, the topology in input order, rest shape, sleep
 * state), its step configuration and options, the frame length, every host
 * input with the frame it preceded, and at the end the frame count and a
 * hash of the final state. Text, one record per line; every real is written
 * with %a, so it reads back bit for bit:
 *
 *     xpbd-replay 4                      file format (XRP_FORMAT)
 *     protocol 1                         XPBD_PROTOCOL_VERSION of the recorder
 *     real f64                           engine precision (f32 or f64)
 *     h <frame length>
 *     frame <engine frame when the recording began>
 *     config <name> <value> ...          every xpbd_step_config field but the executor
 *     options <name> <value> ...         every xpbd_engine_options field but the executor
 *     colouring <max_colours> <serial> <runs>     xpbd_colouring_options
 *     particles <n> <has radius> <has tethers>
 *     p x y z px py pz vx vy vz w rx ry rz origin [r] [anchor length]   n lines
 *     edges <count>      then  e i0 i1 rest compliance
 *     tets <count>       then  t a b c d compliance
 *     bends <count>      then  b a b c d compliance
 *     bodies <count>     then  body begin end asleep calm signature
 *     planes <count>     then  plane nx ny nz d
 *     contacts <max contacts>            at most INT32_MAX / 2
 *     input <frame> <kind> <begin> <end> v0 v1 v2                  0 or more
 *     end <frames> <final state hash, 16 hex digits>  frames <= XRP_MAX_FRAMES
 *
 * What round-trips: every field of the engine as a scene
 * (xpbd_engine_scene_*, positions, substep-start positions, velocities and
 * inverse masses from its particles), of its xpbd_engine_options and of its
 * step configuration (xpbd_engine_config_*, the options' threads folded in
 * as the engine runs it), so that a replay builds an engine whose scene,
 * options and configuration equal the recorded one's field by field
 * (tests/test_engine_replay.c). Not in the file:
 *   - host pointers: xpbd_step_config.executor and
 *     xpbd_engine_options.executor. A replay steps on
 *     xpbd_executor_default() with the recorded thread counts; the results
 *     are bit-identical for every executor and thread count by contract;
 *   - what the engine's own view never holds: the alphas (edge_alpha,
 *     tet_alpha, bend_alpha; the engine folds them into the per-element
 *     compliances the file carries, its view has them 0) and the NULL
 *     defaults of the scene's arrays (the file always holds the arrays);
 *   - what no frame carries over: the counters, the lambdas (reset at every
 *     substep, or every iteration), the contact pairs (found every step),
 *     the plane impulses.
 *
 * Versions. A file whose protocol differs from this build's is refused with
 * a message saying which and why (its defaults would replay differently),
 * never replayed; so is a format other than 3 or 4. Format 3 (xpbd 0.3.0)
 * had no threads in its config and options lines and no runs in its
 * colouring line ('colouring <max_colours> <serial>'). It is read as the
 * format-3 reader read it, threads 0 (the results do not depend on it),
 * when that is unambiguous: runs orders a distance set only, so a file
 * without edges or with serial set loads with runs = 0. A format-3 file
 * with edges coloured without serial does not say whether its engine had
 * runs = 1 (which orders them otherwise and replays differently): it is
 * refused (XPBD_ERR_VERSION) with a message saying so, unless its
 * colouring line was given the recording's value by hand as a third number
 * ('colouring <max_colours> <serial> <runs>'). Re-recording with this
 * build writes format 4. */
#ifndef XPBD_REPLAY_H
#define XPBD_REPLAY_H

#include <stdio.h>
#include <xpbd/xpbd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Replay file format version (the layout above) and the oldest one read. */
#define XRP_FORMAT 4
#define XRP_FORMAT_OLDEST 3

/* The most frames a replay file may ask for (about 78 hours at 60 Hz): a
 * larger count is refused as malformed rather than run for ever. */
#define XRP_MAX_FRAMES (UINT64_C(1) << 24)

/* A recording in progress. */
typedef struct xrp_recorder {
    FILE *f;
    int f64;
    uint64_t start_frame;
    uint64_t inputs;
    int failed;             /* an I/O error happened */
} xrp_recorder;

/* Opens path and writes the header and engine e's current state (the
 * replay starts from it) for frames of length h. Returns 0, or -1 on I/O
 * error (message in err). */
int xrp_record_begin_f32(xrp_recorder *r, const char *path, const xpbd_engine_f32 *e, double h,
                         char *err, size_t errlen);
int xrp_record_begin_f64(xrp_recorder *r, const char *path, const xpbd_engine_f64 *e, double h,
                         char *err, size_t errlen);
/* Logs an input before the engine's next frame and applies it (returns what
 * xpbd_engine_*_apply returns; a rejected input is not logged). */
xpbd_status xrp_record_apply_f32(xrp_recorder *r, xpbd_engine_f32 *e, const xpbd_input *in);
xpbd_status xrp_record_apply_f64(xrp_recorder *r, xpbd_engine_f64 *e, const xpbd_input *in);
/* Writes the frame count and the final state hash and closes the file.
 * Returns 0, or -1 on I/O error. */
int xrp_record_end_f32(xrp_recorder *r, const xpbd_engine_f32 *e);
int xrp_record_end_f64(xrp_recorder *r, const xpbd_engine_f64 *e);

/* FNV-1a hash of the particle state (x y z px py pz vx vy vz w, bit
 * patterns): equal hashes mean a bit-identical state. */
uint64_t xrp_state_hash_f32(const xpbd_engine_f32 *e);
uint64_t xrp_state_hash_f64(const xpbd_engine_f64 *e);

/* A loaded replay file. Reals are held in double (a float written with %a
 * reads back exactly). */
typedef struct xrp_file {
    int f64;
    unsigned format, protocol;
    double h;
    uint64_t start_frame, frames, hash;
    xpbd_step_config config;
    xpbd_engine_options options;
    xpbd_colouring_options colouring;
    size_t n, edges, tets, bends, inputs, max_contacts;
    uint32_t bodies, planes;
    int has_radius, has_tethers;
    double *particle;       /* [n][13] x y z px py pz vx vy vz w rx ry rz */
    double *radius, *tether_length;
    uint32_t *tether_anchor;
    uint32_t *origin;       /* [n] scene particle each descends from (vertex splits) */
    uint32_t *edge, *tet, *bend;
    double *edge_rest, *edge_compliance, *tet_compliance, *bend_compliance;
    size_t *body_begin;
    uint8_t *asleep;
    uint32_t *calm;
    uint64_t *signature;
    xpbd_plane plane[8];
    uint64_t *input_frame;
    xpbd_input *input;
} xrp_file;

/* Reads a replay file. Returns XPBD_OK; XPBD_ERR_VERSION when the file's
 * format or protocol is not this build's (the message says which);
 * XPBD_ERR_ARGUMENT for an unreadable or malformed file; XPBD_ERR_NOMEM.
 * err receives a one-line message naming the file (and line). On error
 * *out is empty (xrp_free is still safe). */
xpbd_status xrp_load(const char *path, xrp_file *out, char *err, size_t errlen);
void xrp_free(xrp_file *f);

/* Builds the engine the file describes, sets *e to it (the caller destroys
 * it; NULL when it could not be built) and replays every frame with its
 * inputs. Returns XPBD_OK (or XPBD_OVERFLOW, as
 * a step may), the first failing status otherwise (message in err). The
 * precision must match the file's (f->f64). */
xpbd_status xrp_run_f32(const xrp_file *f, xpbd_engine_f32 **e, char *err, size_t errlen);
xpbd_status xrp_run_f64(const xrp_file *f, xpbd_engine_f64 **e, char *err, size_t errlen);

/* ------------------------------------------------- xpbd-replay --check --- */

/* FNV-1a hash of the particle count, the particle state (as
 * xrp_state_hash_*) and the multipliers of every real slot of the world's
 * distance, tet and bend sets in slot order: equal hashes mean a
 * bit-identical state and lambdas. */
uint64_t xrp_check_hash_f32(const xpbd_engine_f32 *e);
uint64_t xrp_check_hash_f64(const xpbd_engine_f64 *e);

/* One path of a check: an ISA and a thread count (in), what its run gave
 * and where it first left the reference run (out). */
typedef struct xrp_path {
    xpbd_isa isa;
    uint32_t threads;           /* xpbd_step_config.threads and xpbd_engine_options.threads */
    xpbd_status status;         /* what the replay returned (as xrp_run_*) */
    uint64_t hash;              /* xrp_check_hash_* of the final state */
    uint64_t state_hash;        /* xrp_state_hash_* of it (what a file's 'end' line holds) */
    int differs;                /* 1: not bit for bit the reference run */
    /* where it first differs (differs = 1): after the step that completed
     * engine frame `frame` (the file's start frame: the engine as built),
     * `field` one of "x" "y" "z" "px" "py" "pz" "vx" "vy" "vz" "w" of particle
     * `index`; "lambda" of slot `index` of `set` ("distance", "tet", "bend");
     * "particles" (the counts differ), "slots" (a set's layout differs, `set`
     * named), "status" (a step or create returned another status), "frames"
     * (one run is longer) or "hash" (the two runs' states were equal when
     * run again: a run that is not deterministic); index SIZE_MAX when it
     * names no element */
    uint64_t frame;
    size_t index;
    const char *field;
    const char *set;            /* "" unless a set is named */
} xrp_path;

/* A perturbation (the test hook of xrp_check): after the step that
 * completes engine frame `frame` of the run of paths[path], the lowest
 * mantissa bit of `field` (0..9: x y z px py pz vx vy vz w, through an
 * engine input: x y z vx vy vz w only) of particle `particle` is flipped. */
typedef struct xrp_perturb {
    size_t path;
    uint64_t frame;
    uint32_t particle;
    int field;
} xrp_perturb;

/* The paths `xpbd-replay --check` runs into paths[0..max): every ISA this
 * build compiled and this CPU supports, scalar first, each at 1 thread and
 * at `threads` (0: the default executor's worker count when it has more
 * than one, else 3). Returns how many it wrote. */
size_t xrp_check_paths(xrp_path *paths, size_t max, uint32_t threads);

/* Replays `ref` on the scalar path at 1 thread (the reference, results in
 * *reference: isa, threads, status, hashes), then `run` (the same file, or
 * another recording of the same precision and start frame) on each of the
 * paths, and fills each path's results: differs = 0 when every frame's
 * state, lambdas and status equal the reference's bit for bit, otherwise the
 * first frame, element and field where they differ. perturb (may be NULL;
 * a test hook) perturbs one path's run. Every run's state is hashed after
 * each frame (xrp_check_hash_*); where a path's hash first differs, the
 * reference and the path are run again to that frame and compared element by
 * element. Returns XPBD_OK when the reference ran (the paths say how each
 * went); otherwise its status (the file's scene refused, a step failing on
 * the reference, XPBD_ERR_ARGUMENT for files of another precision or start
 * frame or a bad perturbation, XPBD_ERR_NOMEM), message in err. Allocates
 * the engines and a hash per frame, all freed before it returns. */
xpbd_status xrp_check(const xrp_file *ref, const xrp_file *run, xrp_path *paths, size_t npaths,
                      const xrp_perturb *perturb, xrp_path *reference, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_REPLAY_H */
