/* SPDX-License-Identifier: MIT */
/* xpbd/replay.h: replay files of an xpbd engine, in xpbd::io (libxpbd_io).
 *
 * A replay is the minimal repro of a run: the engine's state when the
 * recording began (particles, the topology in input order, rest shape, sleep
 * state), its step configuration and options, the frame length, every host
 * input with the frame it preceded, and at the end the frame count and a
 * hash of the final state. A host records its own engine, saves the
 * recording, and anyone loads and runs it (`xpbd-replay FILE` does):
 *
 *     xpbd_replay_file rp;
 *     xpbd_replay_record_begin_f32(&rp, eng, 1.0 / 60);   before the first frame wanted
 *     xpbd_replay_record_apply_f32(&rp, eng, &input);     instead of xpbd_engine_apply_f32
 *     xpbd_engine_step_f32(eng, 1.0 / 60);                the frames, as ever
 *     xpbd_replay_record_end_f32(&rp, eng);               after the last one
 *     xpbd_replay_save("level.xrp", &rp, &err);
 *     xpbd_replay_free(&rp);
 *     ...
 *     xpbd_replay_load("level.xrp", &rp, &err);
 *     xpbd_replay_run_f32(&rp, &eng2, &err);              eng2 continues eng bit for bit
 *
 * The file is text, one record per line; every real is written with %a
 * (and '.' whatever the C locale), so it reads back bit for bit:
 *
 *     xpbd-replay 5                      file format (XPBD_REPLAY_FORMAT)
 *     protocol 2                         XPBD_PROTOCOL_VERSION of the recorder
 *     real f64                           engine precision (f32 or f64)
 *     h <frame length>
 *     frame <engine frame when the recording began>
 *     config <name> <value> ...          every xpbd_step_config field but the executor
 *     options <name> <value> ...         every xpbd_engine_options field but the executor
 *     colouring <max_colours> <serial> <runs> <layout> <regions>   xpbd_colouring_options
 *     particles <n> <has radius> <has tethers>
 *     p x y z px py pz vx vy vz w rx ry rz origin [r] [anchor length]   n lines
 *     edges <count>      then  e i0 i1 rest compliance
 *     tets <count>       then  t a b c d compliance
 *     bends <count>      then  b a b c d compliance
 *     bodies <count>     then  body begin end asleep calm signature
 *     planes <count>     then  plane nx ny nz d
 *     contacts <max contacts>            at most INT32_MAX / 2
 *     input <frame> <kind> <begin> <end> v0 v1 v2                  0 or more, frame
 *                                          from the start frame, below start + frames
 *     end <frames> <final state hash, 16 hex digits>  frames <= XPBD_REPLAY_MAX_FRAMES
 *
 * What round-trips: every field of the engine as a scene
 * (xpbd_engine_scene_*, positions, substep-start positions, velocities and
 * inverse masses from its particles), of its xpbd_engine_options and of its
 * step configuration (xpbd_engine_config_*, the options' threads folded in
 * as the engine runs it), so that a replay builds an engine whose scene,
 * options and configuration equal the recorded one's field by field. Not in
 * the file:
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
 * Versions. A file whose protocol differs from this build's is refused
 * (XPBD_ERR_VERSION) with a message saying which and why (its defaults
 * would replay differently), never replayed; so is a format other than 3
 * to 5. Protocol 2 (xpbd_colouring_options.layout, XPBD_LAYOUT_AUTO by
 * default: regular meshes in the runs layout) came with format 5, whose
 * colouring line gives the layout and the regions; every file of formats 3 and 4 was
 * recorded with protocol 1 and is refused for it. Read by hand-edited
 * protocol, such a file's layout is what its recorder did: XPBD_LAYOUT_RUNS
 * with runs = 1, else XPBD_LAYOUT_INPUT. Format 3 (xpbd 0.3.0) had no threads in its config and options
 * lines and no runs in its colouring line ('colouring <max_colours>
 * <serial>'). It is read as the format-3 reader read it, threads 0 (the
 * results do not depend on it), when that is unambiguous: runs orders a
 * distance set only, so a file without edges or with serial set loads with
 * runs = 0. A format-3 file with edges coloured without serial does not
 * say whether its engine had runs = 1 (which orders them otherwise and
 * replays differently): it is refused (XPBD_ERR_VERSION) with a message
 * saying so, unless its colouring line was given the recording's value by
 * hand as a third number ('colouring <max_colours> <serial> <runs>').
 * Saving always writes format 5.
 *
 * Memory: an xpbd_replay_file owns its arrays (malloc'd by the recorder or
 * the loader, or by the caller who fills one in); xpbd_replay_free releases
 * them. Nothing here keeps state: several threads may use several files at
 * once. */
#ifndef XPBD_REPLAY_H
#define XPBD_REPLAY_H

#include "xpbd/io.h"
#include "xpbd/xpbd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The file format written (the layout above) and the oldest one read. */
#define XPBD_REPLAY_FORMAT 5
#define XPBD_REPLAY_FORMAT_OLDEST 3

/* The most frames a replay may hold (about 78 hours at 60 Hz): a larger
 * count is refused as malformed rather than run for ever. */
#define XPBD_REPLAY_MAX_FRAMES (UINT64_C(1) << 24)

/* A replay in memory: recorded, loaded, or filled in by the caller. Reals
 * are held in double (a float written with %a reads back exactly). */
typedef struct xpbd_replay_file {
    int f64;                /* 1: an f64 engine's run, 0: f32 */
    unsigned format;        /* the format it was read in (XPBD_REPLAY_FORMAT when recorded) */
    unsigned protocol;      /* XPBD_PROTOCOL_VERSION of the recorder */
    double h;               /* frame length (s) */
    uint64_t start_frame;   /* the engine's frame count when the recording began */
    uint64_t frames;        /* frames recorded */
    uint64_t hash;          /* xpbd_replay_state_hash_* of the state after the last frame */
    xpbd_step_config config;          /* the engine's configuration; executor NULL */
    xpbd_engine_options options;      /* the engine's options; executor NULL */
    xpbd_colouring_options colouring;
    size_t n;               /* particles */
    size_t edges, tets, bends, inputs, max_contacts;
    uint32_t bodies, planes;
    int has_radius, has_tethers;
    double *particle;       /* [n][13] x y z px py pz vx vy vz w rx ry rz */
    double *radius;         /* [n] with has_radius, else may be NULL */
    double *tether_length;  /* [n] with has_tethers, else may be NULL */
    uint32_t *tether_anchor;/* [n] with has_tethers, else may be NULL */
    uint32_t *origin;       /* [n] the scene particle each descends from (vertex splits);
                               NULL: each its own */
    uint32_t *edge;         /* [2 edges] */
    uint32_t *tet, *bend;   /* [4 tets], [4 bends] */
    double *edge_rest, *edge_compliance;   /* [edges] */
    double *tet_compliance, *bend_compliance;
    size_t *body_begin;     /* [bodies + 1] */
    uint8_t *asleep;        /* [bodies] 0 or 1 */
    uint32_t *calm;         /* [bodies] */
    uint64_t *signature;    /* [bodies] */
    xpbd_plane plane[8];
    uint64_t *input_frame;  /* [inputs] the engine frame each input preceded, not decreasing */
    xpbd_input *input;      /* [inputs] */
    size_t input_capacity;  /* room in input_frame and input (the recorder grows them) */
} xpbd_replay_file;

/* What a replay function reports (err, may be NULL everywhere). After a
 * failure: where the fault is and what it is; after a success the places
 * are cleared (line 0, frame 0, input SIZE_MAX, where none) and what is "". */
typedef struct xpbd_replay_error {
    size_t line;        /* load: the 1-based line of the fault; 0 when none applies (the
                           file cannot be opened or read) */
    uint64_t frame;     /* frame, run: the engine frame whose inputs or step failed */
    size_t input;       /* frame, run: the index of the refused input; SIZE_MAX: none */
    xpbd_where where;   /* create, run: where the engine refused the file's scene
                           (xpbd_engine_create_*'s place) */
    char what[192];     /* what was wrong, one line, NUL-terminated, without the path,
                           e.g. "expected 'edges <count>'" */
} xpbd_replay_error;

/* ----------------------------------------------------------- recording --- */

/* Starts a recording of engine e, frames of length h (s): *out (its old
 * contents ignored) gets the engine's current state, configuration and
 * options, which the replay starts from. Returns XPBD_OK, XPBD_ERR_ARGUMENT
 * (out or e NULL), XPBD_ERR_NOMEM (*out empty). Allocates *out's arrays
 * (free: xpbd_replay_free). */
XPBD_IO_API xpbd_status xpbd_replay_record_begin_f32(xpbd_replay_file *out,
                                                     const xpbd_engine_f32 *e, double h);
XPBD_IO_API xpbd_status xpbd_replay_record_begin_f64(xpbd_replay_file *out,
                                                     const xpbd_engine_f64 *e, double h);
/* Applies input in to e (xpbd_engine_apply_*) and logs it before the
 * engine's next frame. Returns what xpbd_engine_apply_* returns (an input
 * refused is not logged), XPBD_ERR_ARGUMENT (e or in NULL, r not a
 * recording of this precision), or XPBD_ERR_NOMEM (the log could not grow:
 * neither logged nor applied). r NULL: applied only. Every input of a
 * recorded run must go through here, or the replay diverges. */
XPBD_IO_API xpbd_status xpbd_replay_record_apply_f32(xpbd_replay_file *r, xpbd_engine_f32 *e,
                                                     const xpbd_input *in);
XPBD_IO_API xpbd_status xpbd_replay_record_apply_f64(xpbd_replay_file *r, xpbd_engine_f64 *e,
                                                     const xpbd_input *in);
/* Ends the recording: the frames e stepped since it began and the hash of
 * its state. XPBD_OK; XPBD_ERR_ARGUMENT (NULL, a recording of the other
 * precision, an engine whose frame count is below the start or more than
 * XPBD_REPLAY_MAX_FRAMES past it). Never allocates. */
XPBD_IO_API xpbd_status xpbd_replay_record_end_f32(xpbd_replay_file *r,
                                                   const xpbd_engine_f32 *e);
XPBD_IO_API xpbd_status xpbd_replay_record_end_f64(xpbd_replay_file *r,
                                                   const xpbd_engine_f64 *e);

/* FNV-1a hash of the particle state (x y z px py pz vx vy vz w, bit
 * patterns): equal hashes mean a bit-identical state. */
XPBD_IO_API uint64_t xpbd_replay_state_hash_f32(const xpbd_engine_f32 *e);
XPBD_IO_API uint64_t xpbd_replay_state_hash_f64(const xpbd_engine_f64 *e);

/* ------------------------------------------------------ files in and out --- */

/* Writes f to path in format XPBD_REPLAY_FORMAT: PATH.part beside PATH,
 * renamed onto PATH once it is whole (on any failure PATH is left as it
 * was and no .part file remains). Only what xpbd_replay_load reads back is
 * written: f is checked first. Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT  path or f NULL; an array the counts or flags call for
 *                      NULL; a count, index range or value the loader
 *                      refuses (more than 8 planes, max_contacts above
 *                      INT32_MAX / 2, frames above XPBD_REPLAY_MAX_FRAMES,
 *                      inputs before the start or out of order or on a frame
 *                      after the last one recorded, max_particles below n, an
 *                      asleep flag other than 0 or 1, an index of a particle,
 *                      edge, tet, bend, body or tether not below n, a real NaN
 *                      or infinite, ...)
 *   XPBD_ERR_VERSION   f->protocol or f->config.version not this build's
 *                      XPBD_PROTOCOL_VERSION (the loader would refuse it)
 *   XPBD_ERR_FILE      PATH.part cannot be created or written, or renamed
 *   XPBD_ERR_NOMEM
 * Allocates only the .part file's name (freed before it returns). */
XPBD_IO_API xpbd_status xpbd_replay_save(const char *path, const xpbd_replay_file *f,
                                         xpbd_replay_error *err);

/* Reads the replay file at path (or the size bytes at data) into *out.
 * Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT  path (data with size > 0) or out NULL
 *   XPBD_ERR_VERSION   the format or protocol is not one this build reads
 *                      (the message says which, and what to do)
 *   XPBD_ERR_FILE      cannot be opened or read; malformed (err->line: the line):
 *                      a line missing, cut short or of another keyword, a
 *                      number that does not parse, a count beyond the lines
 *                      left, a real NaN or infinite, a particle index (edge,
 *                      tet, bend, origin, tether anchor, body range) not
 *                      below the particle count, an input on a frame the
 *                      file does not step (named by the input's line)
 *   XPBD_ERR_NOMEM
 * Allocates *out's arrays on success (free: xpbd_replay_free); on failure
 * nothing is left allocated and *out is zeroed (out not NULL). The path
 * variant reads the whole file into a buffer first; both copy the text once
 * to split it (freed before they return). */
XPBD_IO_API xpbd_status xpbd_replay_load(const char *path, xpbd_replay_file *out,
                                         xpbd_replay_error *err);
XPBD_IO_API xpbd_status xpbd_replay_load_mem(const void *data, size_t size,
                                             xpbd_replay_file *out, xpbd_replay_error *err);

/* Frees f's arrays and zeroes it (NULL, or a zeroed file, is fine). */
XPBD_IO_API void xpbd_replay_free(xpbd_replay_file *f);

/* ------------------------------------------------------------- running --- */

/* Builds the engine f describes, at its start: its scene with the saved
 * state (substep-start positions, velocities, sleep bookkeeping, frame
 * count), configuration, options and colouring, on xpbd_executor_default().
 * *e is set to it (the caller destroys it), NULL when it was not built.
 * Returns XPBD_OK, XPBD_ERR_ARGUMENT (NULL, or f->f64 not this precision),
 * XPBD_ERR_NOMEM, or what xpbd_engine_create_* refuses the scene with
 * (err->where: its place). */
XPBD_IO_API xpbd_status xpbd_replay_create_f32(const xpbd_replay_file *f, xpbd_engine_f32 **e,
                                               xpbd_replay_error *err);
XPBD_IO_API xpbd_status xpbd_replay_create_f64(const xpbd_replay_file *f, xpbd_engine_f64 **e,
                                               xpbd_replay_error *err);
/* One frame of a replay: applies the inputs f logged before e's current
 * frame (xpbd_engine_counters_*(e)->frame), then steps e one frame of
 * f->h. Returns the step's status (XPBD_OK, XPBD_OVERFLOW, or its error,
 * err->frame the frame), or the status of the first input refused
 * (err->input its index; nothing stepped). XPBD_ERR_ARGUMENT for NULL.
 * Allocates as xpbd_engine_step_* does. */
XPBD_IO_API xpbd_status xpbd_replay_frame_f32(const xpbd_replay_file *f, xpbd_engine_f32 *e,
                                              xpbd_replay_error *err);
XPBD_IO_API xpbd_status xpbd_replay_frame_f64(const xpbd_replay_file *f, xpbd_engine_f64 *e,
                                              xpbd_replay_error *err);
/* Builds the engine (xpbd_replay_create_*) and replays every frame of f
 * with its inputs (xpbd_replay_frame_*). *e is set to the engine (the
 * caller destroys it; NULL when it could not be built): after XPBD_OK its
 * state hashes to f->hash if the run reproduced the recording. Returns
 * XPBD_OK (or XPBD_OVERFLOW, as a step may), else the first failing status
 * (create's, a refused input's or a step's: err says which). */
XPBD_IO_API xpbd_status xpbd_replay_run_f32(const xpbd_replay_file *f, xpbd_engine_f32 **e,
                                            xpbd_replay_error *err);
XPBD_IO_API xpbd_status xpbd_replay_run_f64(const xpbd_replay_file *f, xpbd_engine_f64 **e,
                                            xpbd_replay_error *err);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_REPLAY_H */
