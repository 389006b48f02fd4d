/* SPDX-License-Identifier: MIT */
/* Fuzz target: the replay reader (xpbd/replay.h, xpbd_replay_load_mem) on
 * fuzzed files, and what it accepts saved and replayed (engine create from
 * the file's scene, its frames and inputs) when the file is small.
 *
 * Checked on every input: no crash, leak or undefined behaviour (ASan,
 * UBSan); a refused file leaves *out empty, with a message; an accepted
 * file's sizes are consistent with its arrays, and what the writer makes
 * of it reads back as the same file, which the writer saves again byte for
 * byte. */
#include "fuzz.h"

#include <xpbd/replay.h>
#include <unistd.h>

/* Bit for bit, but any NaN for a NaN (%a writes no payload). */
static int same_reals(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0 && !(isnan(a[i]) && isnan(b[i])))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[96], again[104];
    if (!path[0]) {
        snprintf(path, sizeof path, "%s/xpbd-fuzz-replay-%ld.xpbdr",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
        snprintf(again, sizeof again, "%s.again", path);
    }
    xpbd_replay_file rf;
    xpbd_replay_error err;
    const xpbd_status st = xpbd_replay_load_mem(data, size, &rf, &err);
    if (st != XPBD_OK) {
        FZ_CHECK(st == XPBD_ERR_FILE || st == XPBD_ERR_VERSION || st == XPBD_ERR_NOMEM,
                 "xpbd_replay_load_mem status %d (%s)", st, err.what);
        FZ_CHECK(rf.particle == NULL && rf.edge == NULL && rf.input == NULL && rf.n == 0,
                 "refused file left arrays");
        FZ_CHECK(err.what[0] != 0, "refused without a message");
        xpbd_replay_free(&rf);
        return 0;
    }
    FZ_CHECK(rf.n == 0 || rf.particle != NULL, "particles without an array");
    FZ_CHECK(rf.edges == 0 || rf.edge != NULL, "edges without an array");
    FZ_CHECK(rf.inputs == 0 || rf.input != NULL, "inputs without an array");
    /* small files: saved, read back the same, replayed */
    if (rf.n <= 512 && rf.frames <= 8 && rf.edges <= 4096 && rf.tets <= 1024 &&
        rf.bends <= 1024 && rf.max_contacts <= 4096 && rf.inputs <= 64 &&
        rf.config.substeps <= 8 && rf.config.iterations <= 16) {
        FZ_CHECK(xpbd_replay_save(path, &rf, &err) == XPBD_OK, "an accepted file not saved: %s",
                 err.what);
        xpbd_replay_file back;
        FZ_CHECK(xpbd_replay_load(path, &back, &err) == XPBD_OK, "a saved file refused: %s",
                 err.what);
        FZ_CHECK(back.n == rf.n && back.edges == rf.edges && back.inputs == rf.inputs &&
                     back.frames == rf.frames && back.hash == rf.hash &&
                     same_reals(back.particle, rf.particle, 13 * rf.n),
                 "a saved file read back otherwise");
        /* what was read back, saved again: the first save's bytes, all of them */
        FZ_CHECK(xpbd_replay_save(again, &back, &err) == XPBD_OK,
                 "a file read back not saved again: %s", err.what);
        size_t n1 = 0, n2 = 0;
        char *first = xt_read_file(path, &n1), *second = xt_read_file(again, &n2);
        FZ_CHECK(first && second, "a saved file cannot be read");
        FZ_CHECK(n1 == n2 && memcmp(first, second, n1) == 0,
                 "a file read back and saved again differs from the first save (%zu, %zu bytes)",
                 n1, n2);
        free(first);
        free(second);
        remove(path);
        remove(again);
        xpbd_replay_free(&back);
        if (rf.f64) {
            xpbd_engine_f64 *e = NULL;
            (void)xpbd_replay_run_f64(&rf, &e, &err);
            xpbd_engine_destroy_f64(e);
        } else {
            xpbd_engine_f32 *e = NULL;
            (void)xpbd_replay_run_f32(&rf, &e, &err);
            xpbd_engine_destroy_f32(e);
        }
    }
    xpbd_replay_free(&rf);
    return 0;
}
