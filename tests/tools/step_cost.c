/* SPDX-License-Identifier: MIT */
/* step_cost: the cloth scene of xpbd-bench (N x N flat grid, both shear
 * diagonals, compliance 1e-5, 1/60 s frames, f32, measure_residual 0) for a
 * few frames, to count instructions under callgrind: how much of
 * xpbd_step_f32 its validators take.
 *
 *   step_cost [N] [frames] [isa] [substeps] [iterations] [threads] [how]
 * (how, words joined by ',' or '+': runs, the set built with
 * xpbd_colouring_options.runs; regionsK, with K regions,
 * xpbd_colouring_options.regions; engine, the frames through
 * xpbd_engine_step_f32 on an engine built from the same world)
 *   valgrind --tool=callgrind step_cost 64 20 avx2 10 1
 *   valgrind --tool=callgrind step_cost 64 20 avx2 10 1 1 engine
 *   callgrind_annotate --inclusive=yes callgrind.out.* | grep -E 'xpbd_step_f32|validate'
 */
#include <scenes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const int side = argc > 1 ? atoi(argv[1]) : 64;
    const int frames = argc > 2 ? atoi(argv[2]) : 20;
    xpbd_step_config cfg = xpbd_step_config_default();
    if (argc > 3 && xpbd_isa_from_name(argv[3], &cfg.isa) != XPBD_OK) {
        fprintf(stderr, "step_cost: unknown ISA '%s'\n", argv[3]);
        return 2;
    }
    cfg.substeps = argc > 4 ? (uint32_t)atoi(argv[4]) : 10;
    cfg.iterations = argc > 5 ? (uint32_t)atoi(argv[5]) : 1;
    cfg.threads = argc > 6 ? (uint32_t)atoi(argv[6]) : 1;
    cfg.measure_residual = 0;
    xs_world_f32 w;
    if (side < 2 || frames < 1 || xs_cloth_f32(&w, side, side, 0.25f, 1e-5f, 1, 1) != XPBD_OK) {
        fprintf(stderr, "usage: step_cost [N >= 2] [frames >= 1] [isa] [substeps] [iterations] "
                        "[threads]\n");
        return 2;
    }
    xpbd_colouring_options opt = {0};
    int engine = 0;
    if (argc > 7) {
        char how[64];
        snprintf(how, sizeof how, "%s", argv[7]);
        for (char *word = strtok(how, ",+"); word; word = strtok(NULL, ",+")) {
            if (strcmp(word, "runs") == 0)
                opt.runs = 1;
            else if (strncmp(word, "regions", 7) == 0)
                opt.regions = (uint32_t)atoi(word + 7);
            else if (strcmp(word, "engine") == 0)
                engine = 1;
            else {
                fprintf(stderr, "step_cost: unknown '%s' in '%s'\n", word, argv[7]);
                xs_world_free_f32(&w);
                return 2;
            }
        }
    }
    if ((opt.runs || opt.regions) && xs_world_recolour_f32(&w, &opt) != XPBD_OK) {
        fprintf(stderr, "step_cost: the set cannot be built as '%s'\n", argv[7]);
        xs_world_free_f32(&w);
        return 2;
    }
    xpbd_engine_f32 *e = NULL;
    if (engine) {
        xpbd_scene_f32 sc;
        void *block = NULL;
        xpbd_status st = xs_world_scene_f32(&w, &sc, &block);
        sc.colouring = opt;
        if (st == XPBD_OK)
            st = xpbd_engine_create_f32(&e, &sc, &cfg, NULL, NULL);
        free(block);
        if (st != XPBD_OK) {
            xs_world_free_f32(&w);
            return 2;
        }
    }
    int rc = 0;
    for (int f = 0; f < frames && rc == 0; ++f)
        if ((e ? xpbd_engine_step_f32(e, 1.0 / 60.0)
               : xpbd_step_f32(&cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes,
                               NULL)) != XPBD_OK)
            rc = 1;
    xpbd_engine_destroy_f32(e);
    printf("%d x %d cloth, %u constraints in %u colours (%u regions), %d frames%s: %s\n", side,
           side, w.set.count, w.set.colours, w.set.regions, frames, engine ? " (engine)" : "",
           rc ? "step failed" : "ok");
    xs_world_free_f32(&w);
    return rc;
}
