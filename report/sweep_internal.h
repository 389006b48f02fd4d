/* SPDX-License-Identifier: MIT */
/* sweep_internal.h: the pieces of `xpbd-report sweep` and `merge`.
 *
 *   sweep_keys.c    the scenes, keys and metrics by name; values and ranges
 *   sweep_run.c     the scenes as replay files in memory, one point's run
 *                   and its metrics
 *   sweep_out.c     the table, sweep.md, the gnuplot script and the
 *                   temporary-directory-then-rename output
 *   sweep.c         the command lines, points in parallel, shards, merge */
#ifndef XPBD_SWEEP_INTERNAL_H
#define XPBD_SWEEP_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "xpbd/mesh.h"
#include "xpbd/replay.h"

/* --------------------------------------------------------------- names --- */

typedef enum sw_scene_id {
    SW_CHAIN,
    SW_CLOTH,
    SW_TET_BOX,
    SW_BALL_PILE,
    SW_CLOTH_SPHERE,
    SW_REPLAY,
    SW_MESH,                /* mesh:FILE, loaded by xpbd::io */
    SW_NSCENES
} sw_scene_id;

typedef enum sw_key_id {
    SW_K_N,
    SW_K_FRAMES,
    SW_K_DT,
    SW_K_SUBSTEPS,
    SW_K_ITERATIONS,
    SW_K_SOLVER,
    SW_K_LAMBDA_RESET,
    SW_K_COMPLIANCE,
    SW_K_COMPLIANCE_SCALE,
    SW_K_DAMPING,
    SW_K_RELATIVE_DAMPING,
    SW_K_PBD_STIFFNESS,
    SW_K_SPRING_DAMPING,
    SW_K_GRAVITY,
    SW_K_RESTITUTION,
    SW_K_FRICTION,
    SW_K_FRICTION_STATIC,
    SW_K_FRICTION_DYNAMIC,
    SW_K_CONTACT_BETA,
    SW_K_CONTACT_SLOP,
    SW_K_CONTACT_SKIN,
    SW_K_PRECISION,
    SW_K_ISA,
    SW_K_THREADS,
    SW_K_TET_COMPLIANCE,
    SW_K_BEND_COMPLIANCE,
    SW_K_DENSITY,           /* mesh:FILE only (SW_K_DENSITY..SW_K_PIN) */
    SW_K_SCALE,
    SW_K_PIN,
    SW_NKEYS
} sw_key_id;

typedef enum sw_metric_id {
    SW_M_MAX_STRAIN,
    SW_M_MEAN_STRAIN,
    SW_M_RESIDUAL,
    SW_M_ENERGY_DRIFT,
    SW_M_PENETRATION,
    SW_M_MOMENTUM_ERROR,
    SW_M_VOLUME_ERROR,
    SW_M_MS_PER_FRAME,
    SW_M_ERROR_VS_REFERENCE,
    SW_NMETRICS
} sw_metric_id;

/* SW_TEXT: a word checked by the key's own syntax (pin); listed, not ranged */
typedef enum sw_kind { SW_INT, SW_REAL, SW_ENUM, SW_TEXT } sw_kind;

typedef struct sw_key {
    const char *name;
    const char *unit;
    sw_kind kind;
    double lo, hi;          /* allowed range (SW_INT, SW_REAL) */
    int lo_open, hi_open;   /* 1: the bound itself is excluded */
    const char *const *choices; /* SW_ENUM: NULL-terminated */
    const char *doc;
} sw_key;

typedef struct sw_scene_info {
    const char *name;
    const char *doc;
    int n_default, n_lo, n_hi; /* size key n (0, 0, 0: none) */
    const char *n_doc;
} sw_scene_info;

typedef struct sw_metric_info {
    const char *name;
    const char *unit;
    const char *doc;
} sw_metric_info;

extern const sw_key sw_keys[SW_NKEYS];
extern const sw_scene_info sw_scenes[SW_NSCENES];
extern const sw_metric_info sw_metrics[SW_NMETRICS];

/* ------------------------------------------------------------ a value --- */

/* A key's value: its canonical text (the shortest decimal that reads back
 * as the same double, or the choice's name) and its number (the choice's
 * index for SW_ENUM). */
typedef struct sw_value {
    char text[32];
    double num;
} sw_value;

typedef struct sw_assign {
    int key;
    sw_value v;
} sw_assign;

enum { SW_MAX_VARY = 3, SW_MAX_ASSIGN = 64, SW_MAX_POINTS = 100000 };

typedef struct sw_vary {
    int key;
    int count;
    int log;                /* given as LO:HI:logN (the plot's axis is logarithmic) */
    sw_value *v;            /* [count] */
} sw_vary;

/* Everything a sweep was asked for. The tokens that define the points (not
 * --jobs, --shard or --out) are kept in `args` so a merge can check that
 * its shards belong to one sweep. */
typedef struct sw_spec {
    int scene;              /* sw_scene_id */
    const char *replay;     /* path of replay:FILE */
    const char *mesh;       /* path of mesh:FILE */
    sw_assign set[SW_MAX_ASSIGN];
    int nset;
    sw_vary vary[SW_MAX_VARY];
    int nvary;
    int metric[SW_NMETRICS];
    int nmetric;
    sw_assign ref[SW_MAX_ASSIGN];
    int nref, has_ref;
    int jobs, shard_k, shard_n; /* shard 1..N of N; 0 0: whole */
    const char *out;
    char *out_owned;        /* out without trailing slashes */
    size_t points;          /* product of the varied counts */
    char *args;             /* canonical tokens, one per line */
} sw_spec;

/* Parses text as a value of key k into *v. Returns 0, or -1 with a message
 * (naming the key and the valid range or choices) in err. */
int sw_value_parse(int k, const char *text, sw_value *v, char *err, size_t errlen);
/* Expands K=SPEC (V1,V2,... | LO:HI:logN | LO:HI:linN) into *out (v malloc'd).
 * Returns 0, or -1 with a message in err. */
int sw_vary_parse(const char *arg, sw_vary *out, char *err, size_t errlen);
/* Key, scene, metric by name: the index, or -1. */
int sw_key_find(const char *name);
int sw_metric_find(const char *name);
/* The comma-separated valid names (static buffer per call site kind). */
void sw_key_names(char *buf, size_t size);
void sw_metric_names(char *buf, size_t size);
void sw_scene_names(char *buf, size_t size);
/* Parses a pin value: 0 none, 1 a coordinate predicate into *sel, 2 a
 * label (number or name, *is_label = 1), -1 malformed. */
int sw_pin_parse(const char *text, xpbd_mesh_select *sel, int *is_label);
/* Shortest decimal of v that reads back as v. */
void sw_num(char *buf, size_t size, double v);
/* `xpbd-report sweep --list` */
void sw_list(FILE *f);

/* ---------------------------------------------------------- the runs --- */

/* One point's keys: a value per key that is given (has[k]). */
typedef struct sw_point {
    double val[SW_NKEYS];
    unsigned char has[SW_NKEYS];
    char pin[32];           /* the text of key pin (has[SW_K_PIN]) */
} sw_point;

/* What a run gives. status: the first failing step's status (state kept as
 * before it), else XPBD_OVERFLOW if a step dropped contacts, else XPBD_OK.
 * m[] holds every metric (NaN where it does not apply or the run failed);
 * final (malloc'd, 3n doubles, may be NULL) the final positions. */
typedef struct sw_result {
    int status;
    xpbd_where where;       /* a refused point: create's place of the fault, or the step's */
    int frames_done;
    double m[SW_NMETRICS];
    double *final;
    size_t n;
} sw_result;

/* The base scene of a sweep, as a replay recording (built-in scenes are
 * built at a given n as recordings with no inputs). */
typedef struct sw_base {
    xpbd_replay_file file;
    int scene;
    int n;                  /* the size it was built at (built-in scenes) */
    int default_frames;
    xpbd_mesh_data mesh;    /* mesh:FILE: loaded once, built per point */
    const char *mesh_path;
} sw_base;

/* Builds built-in scene `scene` at size n (<= 0: its default). Returns 0, or
 * -1 (message in err). */
int sw_base_build(sw_base *b, int scene, int n, char *err, size_t errlen);
/* Loads replay:FILE. Returns 0, or -1 with the loader's message. */
int sw_base_load(sw_base *b, const char *path, char *err, size_t errlen);
void sw_base_free(sw_base *b);
/* Loads mesh:FILE (format by extension: .obj OBJ, .msh Gmsh, else TetGen
 * .node or basename). Returns 0, or -1 with one line naming the file, the
 * line and what was wrong. */
int sw_base_load_mesh(sw_base *b, const char *path, char *err, size_t errlen);
/* Builds the point's scene of a mesh base into *f (density, scale, pin);
 * returns XPBD_OK or the build's status with a message in err. */
int sw_mesh_file(const sw_base *b, const sw_point *pt, xpbd_replay_file *f, char *err,
                 size_t errlen);

/* Runs the point (the built-in scene is rebuilt when the point sets n). */
void sw_run_point(const sw_base *b, const sw_point *pt, int keep_final, sw_result *r);
/* Largest distance between two final states (m); NaN if either is missing
 * or their particle counts differ. */
double sw_state_distance(const sw_result *a, const sw_result *b);
/* Short name of a run status for the table ("ok", "diverged", ...). */
const char *sw_status_name(int status);
/* Whether a run status is a refusal of the point's values by the library
 * (a bad friction, time step, ISA, ...): negative, but neither a divergence
 * (a diverged point is data) nor an allocation failure. The _name form
 * takes the table's status text (what a merge reads back). */
int sw_status_refused(int status);
int sw_status_name_refused(const char *name);

/* ------------------------------------------------------------ output --- */

/* A table of rows: per point, the varied keys' texts, status and metrics. */
typedef struct sw_row {
    int present;
    char status[32];
    double m[SW_NMETRICS];  /* indexed by metric id */
    char *line;             /* the TSV line (no newline), malloc'd */
} sw_row;

/* Writes DIR's contents into tmpdir (data/sweep.tsv, data/sweep.args,
 * plots/sweep.gp, sweep.md) and renders the figure. provenance is markdown
 * lines for sweep.md. Returns 0, 3 if only the figure failed, 1 on I/O error. */
int sw_write_output(const sw_spec *s, const sw_row *rows, const char *tmpdir,
                    const char *command, const char *provenance);
/* The TSV header line (no newline) into a malloc'd string. */
char *sw_header(const sw_spec *s);
/* A row's line from its values. */
char *sw_row_line(const sw_spec *s, size_t point, const char *status, const double *m);
/* The index of point `i`'s value of varied key j (the first varied key
 * varies fastest). */
int sw_point_index(const sw_spec *s, size_t i, int j);

/* Makes a sibling temporary directory of out, "OUT.tmp-PID@HOST-XXXXXX"
 * (the owner's process id and host name), malloc'd path, or NULL (message
 * on stderr). First removes the stale ones of the same out: those of this
 * host whose process is gone (never a live run's), and restores or removes
 * a stale "OUT.old-PID@HOST-XXXXXX" (an earlier output moved aside by a
 * commit that was killed: put back when out is missing, else removed). */
char *sw_tmpdir_make(const char *out);
/* Whether the last component of path is a sweep's or merge's temporary or
 * moved-aside directory (contains ".tmp-" or ".old-"): merge skips these. */
int sw_is_tmp_name(const char *path);
/* Removes a directory tree (best effort). */
void sw_tree_remove(const char *path);
/* Puts tmp in place of out: out must not exist, be empty, or hold an
 * earlier sweep output (sweep.md and data/sweep.args), which is replaced.
 * Returns 0, or -1 (message on stderr; tmp removed). Test hook: with
 * XPBD_SWEEP_TEST_HOLD=SECONDS in the environment it first says so on
 * stderr and sleeps that long, the output complete in tmp and not yet
 * renamed (tests/sweep_check.sh stale kills it there). */
int sw_commit(const char *tmp, const char *out);
/* 0 if out may be replaced by a sweep output (see sw_commit), else -1 with
 * a message in err. */
int sw_out_check(const char *out, char *err, size_t errlen);

#endif
