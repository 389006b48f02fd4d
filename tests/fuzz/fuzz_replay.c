/* SPDX-License-Identifier: MIT */
/* Fuzz target: the replay reader (report/replay.c, xrp_load) on fuzzed
 * files, and what it accepts replayed (engine create from the file's scene,
 * its frames and inputs) when the file is small.
 *
 * Checked on every input: no crash, leak or undefined behaviour (ASan,
 * UBSan); a refused file leaves *out empty; an accepted file's sizes are
 * consistent with its arrays. The reader takes a path, so each input is
 * written to one file per process first. */
#include "fuzz.h"

#include <replay.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[96];
    if (!path[0])
        snprintf(path, sizeof path, "%s/xpbd-fuzz-replay-%ld.xpbdr",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
    FILE *f = fopen(path, "wb");
    FZ_CHECK(f != NULL, "cannot write %s", path);
    FZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
    xrp_file rf;
    char err[512];
    const xpbd_status st = xrp_load(path, &rf, err, sizeof err);
    if (st != XPBD_OK) {
        FZ_CHECK(st == XPBD_ERR_ARGUMENT || st == XPBD_ERR_VERSION || st == XPBD_ERR_NOMEM,
                 "xrp_load status %d (%s)", st, err);
        FZ_CHECK(rf.particle == NULL && rf.edge == NULL && rf.input == NULL && rf.n == 0,
                 "refused file left arrays");
        FZ_CHECK(err[0] != 0, "refused without a message");
        xrp_free(&rf);
        return 0;
    }
    FZ_CHECK(rf.n == 0 || rf.particle != NULL, "particles without an array");
    FZ_CHECK(rf.edges == 0 || rf.edge != NULL, "edges without an array");
    FZ_CHECK(rf.inputs == 0 || rf.input != NULL, "inputs without an array");
    /* replay what is small enough to run in a fuzzing budget */
    if (rf.n <= 512 && rf.frames <= 8 && rf.edges <= 4096 && rf.tets <= 1024 &&
        rf.bends <= 1024 && rf.max_contacts <= 4096 && rf.inputs <= 64 &&
        rf.config.substeps <= 8 && rf.config.iterations <= 16) {
        if (rf.f64) {
            xpbd_engine_f64 *e = NULL;
            (void)xrp_run_f64(&rf, &e, err, sizeof err);
            xpbd_engine_destroy_f64(e);
        } else {
            xpbd_engine_f32 *e = NULL;
            (void)xrp_run_f32(&rf, &e, err, sizeof err);
            xpbd_engine_destroy_f32(e);
        }
    }
    xrp_free(&rf);
    return 0;
}
