/* SPDX-License-Identifier: MIT */
/* step_cost: the cloth scene of xpbd-bench (N x N flat grid, both shear
 * diagonals, compliance 1e-5, 1/60 s frames, f32, measure_residual 0) for a
 * few frames, to count instructions under callgrind: how much of
 * xpbd_step_f32 its validators take.
 *
 *   step_cost [N] [frames] [isa] [substeps] [iterations] [threads] [runs|regionsK|runs+regionsK]
 * (runs: the set built with xpbd_colouring_options.runs; regionsK: with
 * K regions, xpbd_colouring_options.regions)
 *   valgrind --tool=callgrind step_cost 64 20 avx2 10 1
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
    const char *layout = argc > 7 ? argv[7] : "";
    if (strncmp(layout, "runs", 4) == 0) {
        opt.runs = 1;
        layout += layout[4] == '+' ? 5 : 4;
    }
    if (strncmp(layout, "regions", 7) == 0)
        opt.regions = (uint32_t)atoi(layout + 7);
    if ((opt.runs || opt.regions) && xs_world_recolour_f32(&w, &opt) != XPBD_OK) {
        fprintf(stderr, "step_cost: the set cannot be built as '%s'\n", argv[7]);
        xs_world_free_f32(&w);
        return 2;
    }
    int rc = 0;
    for (int f = 0; f < frames && rc == 0; ++f)
        if (xpbd_step_f32(&cfg, 1.0 / 60.0, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) !=
            XPBD_OK)
            rc = 1;
    printf("%d x %d cloth, %u constraints in %u colours (%u regions), %d frames: %s\n", side,
           side, w.set.count, w.set.colours, w.set.regions, frames,
           rc ? "step failed" : "ok");
    xs_world_free_f32(&w);
    return rc;
}
