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
 *     xpbd-replay 3                      file format (XRP_FORMAT)
 *     protocol 1                         XPBD_PROTOCOL_VERSION of the recorder
 *     real f64                           engine precision (f32 or f64)
 *     h <frame length>
 *     frame <engine frame when the recording began>
 *     config <name> <value> ...          every xpbd_step_config field
 *     options <name> <value> ...         xpbd_engine_options (all fields)
 *     colouring <max_colours> <serial>
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
 * A file whose format or protocol differs from this build's is refused with
 * a message saying which and why (its defaults would replay differently),
 * never replayed. */
#ifndef XPBD_REPLAY_H
#define XPBD_REPLAY_H

#include <stdio.h>
#include <xpbd/xpbd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Replay file format version (the layout above). */
#define XRP_FORMAT 3

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

#ifdef __cplusplus
}
#endif

#endif /* XPBD_REPLAY_H */
