/* SPDX-License-Identifier: MIT */
/* replay_tool.h: what xpbd-replay does beyond the installed reader and
 * runner (xpbd/replay.h), for the tool and the tests: --check, a
 * recording replayed on every ISA and thread count against the scalar
 * one-thread run, and --export, a replay's frames written as VTK, OBJ and
 * PC2 (xpbd/io.h). Internal: not installed. */
#ifndef XPBD_REPLAY_TOOL_H
#define XPBD_REPLAY_TOOL_H

#include <xpbd/replay.h>

#include <stddef.h>
#include <stdint.h>

/* FNV-1a hash of the particle count, the particle state (as
 * xpbd_replay_state_hash_*) and the multipliers of every real slot of the
 * world's distance, tet and bend sets in slot order: equal hashes mean a
 * bit-identical state and lambdas. */
uint64_t replay_check_hash_f32(const xpbd_engine_f32 *e);
uint64_t replay_check_hash_f64(const xpbd_engine_f64 *e);

/* One path of a check: an ISA and a thread count (in), what its run gave
 * and where it first left the reference run (out). */
typedef struct replay_check_path {
    xpbd_isa isa;
    uint32_t threads;           /* xpbd_step_config.threads and xpbd_engine_options.threads */
    xpbd_status status;         /* what the replay returned (as xpbd_replay_run_*) */
    uint64_t hash;              /* replay_check_hash_* of the final state */
    uint64_t state_hash;        /* xpbd_replay_state_hash_* of it (what a file's 'end' holds) */
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
} replay_check_path;

/* A perturbation (the test hook of replay_check): after the step that
 * completes engine frame `frame` of the run of paths[path], the lowest
 * mantissa bit of `field` (0..9: x y z px py pz vx vy vz w, through an
 * engine input: x y z vx vy vz w only) of particle `particle` is flipped. */
typedef struct replay_check_perturb {
    size_t path;
    uint64_t frame;
    uint32_t particle;
    int field;
} replay_check_perturb;

/* The paths `xpbd-replay --check` runs into paths[0..max): every ISA this
 * build compiled and this CPU supports, scalar first, each at 1 thread and
 * at `threads` (0: the default executor's worker count when it has more
 * than one, else 3). Returns how many it wrote. */
size_t replay_check_paths(replay_check_path *paths, size_t max, uint32_t threads);

/* Replays `ref` on the scalar path at 1 thread (the reference, results in
 * *reference: isa, threads, status, hashes), then `run` (the same file, or
 * another recording of the same precision and start frame) on each of the
 * paths, and fills each path's results: differs = 0 when every frame's
 * state, lambdas and status equal the reference's bit for bit, otherwise the
 * first frame, element and field where they differ. perturb (may be NULL;
 * a test hook) perturbs one path's run. Every run's state is hashed after
 * each frame (replay_check_hash_*); where a path's hash first differs, the
 * reference and the path are run again to that frame and compared element
 * by element. Returns XPBD_OK when the reference ran (the paths say how
 * each went); otherwise its status (the file's scene refused, a step
 * failing on the reference, XPBD_ERR_ARGUMENT for files of another
 * precision or start frame or a bad perturbation, XPBD_ERR_NOMEM), message
 * in err. Allocates the engines and a hash per frame, all freed before it
 * returns. */
xpbd_status replay_check(const xpbd_replay_file *ref, const xpbd_replay_file *run,
                         replay_check_path *paths, size_t npaths,
                         const replay_check_perturb *perturb, replay_check_path *reference,
                         char *err, size_t errlen);

/* xpbd-replay --export: replays fl, writing DIR/frame_NNNN.vtu after every
 * frame (the particles, velocity as point data, the engine's tets and the
 * triangles of its bending stencils), DIR/run.pvd rewritten after every
 * frame, DIR/rest.obj (the starting particles' rest shape, the stencils'
 * triangles and the tets' boundary faces) and DIR/run.pc2 (the starting
 * particles, a sample a frame). Returns 0; 1 the end state is not the
 * recorded one; 2 the scene was refused or an output could not be written,
 * 3 a step failed (message in err for 2 and 3). *hash: the end state's
 * xpbd_replay_state_hash_*. */
int replay_export_f32(const xpbd_replay_file *fl, const char *dir, uint64_t *hash, char *err,
                      size_t errlen);
int replay_export_f64(const xpbd_replay_file *fl, const char *dir, uint64_t *hash, char *err,
                      size_t errlen);

#endif
