/* SPDX-License-Identifier: MIT */
/* xpbd-replay: replays a replay file (xpbd/replay.h, the installed reader)
 *
 *     xpbd-replay [--quiet] FILE
 *     xpbd-replay --check [--threads N] [--quiet] FILE
 *     xpbd-replay --export DIR [--quiet] FILE
 *
 * The first replays FILE and compares the final state with the recording's
 * hash. Exit status: 0 the replay reproduced the recording bit for bit; 1 it
 * did not (or a step failed); 2 the file was refused (wrong format or
 * protocol version), unreadable or malformed, or the usage was wrong.
 *
 * --check replays FILE on every ISA this build compiled and this CPU
 * supports, scalar first, each at 1 thread and N (replay_check_paths: the
 * default executor's workers when more than one, else 3), and prints one
 * line a path, "isa threads hash = scalar" (replay_check_hash_*: the final
 * particle state and lambdas) or where its run first differs from the
 * scalar one-thread run (frame, particle or slot, field), then whether the
 * scalar run reproduces the recording's hash. Exit status: 0 all equal; 1 a
 * path differs, the recording is not reproduced or the reference's steps
 * fail; 2 the file was refused, unreadable or malformed, its scene refused,
 * or the usage was wrong.
 *
 * --export DIR replays FILE writing results into DIR (which must exist,
 * xpbd/io.h's writers): frame_NNNN.vtu after every frame (NNNN from 0000),
 * run.pvd (rewritten after every frame), rest.obj and run.pc2 (the
 * starting particles, one sample a frame, start frame = the first frame
 * replayed + 1, rate 1); exit status as the plain replay, 2 also when an
 * output cannot be written. */
#include "replay_tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double rm_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void rm_usage(FILE *f)
{
    fprintf(f, "usage: xpbd-replay [--quiet] FILE\n"
               "       xpbd-replay --check [--threads N] [--quiet] FILE\n"
               "       xpbd-replay --export DIR [--quiet] FILE\n");
}

/* "avx2 3 <hash> = scalar" or where the path first differs. */
static void rm_print_path(const replay_check_path *p)
{
    printf("%s %u %016llx ", xpbd_isa_name(p->isa), p->threads, (unsigned long long)p->hash);
    if (!p->differs) {
        printf("= scalar\n");
        return;
    }
    printf("differs from scalar 1: frame %llu, ", (unsigned long long)p->frame);
    if (p->index != SIZE_MAX && strcmp(p->field, "lambda") == 0)
        printf("%s slot %zu, field lambda\n", p->set, p->index);
    else if (p->index != SIZE_MAX)
        printf("particle %zu, field %s\n", p->index, p->field);
    else if (strcmp(p->field, "slots") == 0)
        printf("the %s set's layout\n", p->set);
    else if (strcmp(p->field, "status") == 0)
        printf("status (this path's run: %s)\n", xpbd_status_str(p->status));
    else if (strcmp(p->field, "particles") == 0)
        printf("the particle count\n");
    else if (strcmp(p->field, "frames") == 0)
        printf("the runs' lengths\n");
    else
        printf("the state hash only (the runs are not deterministic)\n");
}

static int rm_check(const char *path, const xpbd_replay_file *f, uint32_t threads, int quiet)
{
    replay_check_path paths[2 * XPBD_ISA_COUNT], ref;
    const size_t n = replay_check_paths(paths, sizeof paths / sizeof paths[0], threads);
    char err[512];
    const xpbd_status st = replay_check(f, f, paths, n, NULL, &ref, err, sizeof err);
    if (st != XPBD_OK) {
        fprintf(stderr, "xpbd-replay: %s: %s\n", path, err);
        return 2;
    }
    if (!quiet)
        printf("%s: %s, %zu particles, %zu edges, %zu tets, %zu bends, %zu inputs, %llu frames; "
               "%zu paths\n",
               path, f->f64 ? "f64" : "f32", f->n, f->edges, f->tets, f->bends, f->inputs,
               (unsigned long long)f->frames, n);
    int bad = 0;
    for (size_t k = 0; k < n; ++k) {
        rm_print_path(&paths[k]);
        bad |= paths[k].differs;
    }
    if (ref.status < 0) {
        printf("the scalar one-thread replay failed: %s\n", err);
        bad = 1;
    }
    if (ref.state_hash == f->hash) {
        printf("recording %016llx = scalar\n", (unsigned long long)f->hash);
    } else {
        printf("recording %016llx differs from scalar 1 (%016llx): the replay does not "
               "reproduce the recording\n",
               (unsigned long long)f->hash, (unsigned long long)ref.state_hash);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int quiet = 0, check = 0, a = 1;
    uint32_t threads = 0;
    const char *export_dir = NULL;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; ++a) {
        if (strcmp(argv[a], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[a], "--check") == 0) {
            check = 1;
        } else if (strcmp(argv[a], "--export") == 0 && a + 1 < argc && argv[a + 1][0]) {
            export_dir = argv[++a];
        } else if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc) {
            char *end;
            errno = 0;
            const unsigned long t = strtoul(argv[++a], &end, 10);
            if (end == argv[a] || *end || errno || t < 1 || t > 1024 || argv[a][0] == '-') {
                fprintf(stderr, "xpbd-replay: --threads wants a count from 1 to 1024\n");
                return 2;
            }
            threads = (uint32_t)t;
        } else if (strcmp(argv[a], "--help") == 0) {
            rm_usage(stdout);
            printf("Replays an xpbd replay file (format %u, or %u where it reads unambiguously;\n"
                   "step protocol %u) and checks that the final state is bit for bit the\n"
                   "recorded one. --check replays it on every compiled and supported ISA at 1\n"
                   "thread and N (--threads, default: the default executor's workers when more\n"
                   "than one, else 3) and prints, a path a line, 'isa threads hash = scalar' or\n"
                   "where the run first differs from the scalar one-thread run.\n"
                   "--export DIR replays it writing DIR/frame_NNNN.vtu a frame (particles,\n"
                   "velocity, tets, the bending stencils' triangles), DIR/run.pvd (rewritten\n"
                   "a frame), DIR/rest.obj (rest shape; the stencils' triangles and the tets'\n"
                   "boundary) and DIR/run.pc2 (the starting particles, a sample a frame);\n"
                   "DIR must exist.\n"
                   "Exit status: 0 reproduced (--check: all equal); 1 not reproduced, a path\n"
                   "differs or a step failed; 2 refused (wrong format or protocol version),\n"
                   "unreadable, or bad usage.\n",
                   XPBD_REPLAY_FORMAT, XPBD_REPLAY_FORMAT_OLDEST, (unsigned)XPBD_PROTOCOL_VERSION);
            return 0;
        } else {
            rm_usage(stderr);
            return 2;
        }
    }
    if (a < argc && strcmp(argv[a], "-h") == 0) {
        rm_usage(stdout);
        return 0;
    }
    if (a + 1 != argc || (threads && !check) || (export_dir && check)) {
        rm_usage(stderr);
        return 2;
    }
    const char *path = argv[a];
    char err[512];
    xpbd_replay_file f;
    xpbd_replay_error le;
    const xpbd_status st = xpbd_replay_load(path, &f, &le);
    if (st != XPBD_OK) {
        if (le.line)
            fprintf(stderr, "xpbd-replay: %s:%zu: %s\n", path, le.line, le.what);
        else
            fprintf(stderr, "xpbd-replay: %s: %s\n", path, le.what);
        return 2;
    }
    if (check) {
        const int rc = rm_check(path, &f, threads, quiet);
        xpbd_replay_free(&f);
        return rc;
    }
    if (export_dir) {
        uint64_t hash = 0;
        const int rc = f.f64 ? replay_export_f64(&f, export_dir, &hash, err, sizeof err)
                             : replay_export_f32(&f, export_dir, &hash, err, sizeof err);
        if (rc >= 2) {
            fprintf(stderr, "xpbd-replay: %s: %s\n", path, err);
        } else {
            if (!quiet)
                printf("%s: exported %llu frames to %s (frame_NNNN.vtu, run.pvd, rest.obj, "
                       "run.pc2)\n",
                       path, (unsigned long long)f.frames, export_dir);
            printf("final state %016llx, recorded %016llx: %s\n", (unsigned long long)hash,
                   (unsigned long long)f.hash,
                   rc == 0 ? "reproduced bit for bit" : "NOT reproduced (the replay diverged)");
        }
        xpbd_replay_free(&f);
        return rc == 3 ? 1 : rc;
    }
    const double t0 = rm_now();
    uint64_t hash = 0;
    xpbd_engine_counters counters;
    xpbd_replay_error re;
    xpbd_status rs;
    memset(&counters, 0, sizeof counters);
    if (f.f64) {
        xpbd_engine_f64 *e = NULL;
        rs = xpbd_replay_run_f64(&f, &e, &re);
        if (e) {
            hash = xpbd_replay_state_hash_f64(e);
            counters = *xpbd_engine_counters_f64(e);
        }
        xpbd_engine_destroy_f64(e);
    } else {
        xpbd_engine_f32 *e = NULL;
        rs = xpbd_replay_run_f32(&f, &e, &re);
        if (e) {
            hash = xpbd_replay_state_hash_f32(e);
            counters = *xpbd_engine_counters_f32(e);
        }
        xpbd_engine_destroy_f32(e);
    }
    const double secs = rm_now() - t0;
    if (rs < 0) {
        fprintf(stderr, "xpbd-replay: %s: %s\n", path, re.what);
        xpbd_replay_free(&f);
        return 1;
    }
    const int same = hash == f.hash;
    if (!quiet) {
        char line[768];
        xpbd_counters_format(&counters, line, sizeof line);
        printf("%s: %s, %zu particles, %zu edges, %zu tets, %zu bends, %zu inputs\n", path,
               f.f64 ? "f64" : "f32", f.n, f.edges, f.tets, f.bends, f.inputs);
        printf("replayed frames %llu..%llu in %.3f s\n", (unsigned long long)f.start_frame,
               (unsigned long long)(f.start_frame + f.frames), secs);
        printf("last frame: %s\n", line);
    }
    printf("final state %016llx, recorded %016llx: %s\n", (unsigned long long)hash,
           (unsigned long long)f.hash,
           same ? "reproduced bit for bit" : "NOT reproduced (the replay diverged)");
    xpbd_replay_free(&f);
    return same ? 0 : 1;
}
