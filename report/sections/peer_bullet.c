/* SPDX-License-Identifier: MIT */
/* Section peer_bullet: the bench's cloth in Bullet's btSoftBody beside
 * xpbd, as `xpbd-bench --peer bullet --quick` runs it (bench_peer.c and
 * bench_bullet.cpp, linked here as they are into the bench): the flat
 * 32 x 32 and 64 x 64 cloths (0.25 m spacing, two corners pinned,
 * compliance 1e-5 m/N; structural links, and with both diagonals), 60
 * frames, in the two modes sub10 (10 substeps x 1 iteration) and iter10 (1
 * x 10), Bullet's link stiffness kLST matched to XPBD's first iteration at
 * the mode's substep. Strain (mean |C| / rest over the links at the end)
 * and the time of a frame side by side, both engines in float on one
 * thread, timed in the same run.
 *
 * The bench's set takes Bullet seconds, so it runs in the full report only;
 * --quick runs the smallest cloth (32 x 32, structural) in both modes for
 * 10 frames, enough for the check and the figure. Skipped with a note when
 * this build has no Bullet (CMake looks for libbullet-dev).
 *
 * What is checked is what can be derived: that Bullet ran the steps it was
 * given (its link-solve count, links x iterations x internal steps, equals
 * links x iterations x substeps x frames exactly: stepSimulation did not
 * clamp the substeps). The strains are not compared with a tolerance: the
 * two solvers agree only on their first iteration (XPBD accumulates lambda
 * and Bullet does not, and Bullet solves the squared-length constraint),
 * so no closed form relates them after a frame; they are shown. */
#include "report.h"

#include "bench_peer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pb_state {
    const xb_peer_row *rows;
    size_t n;
} pb_state;

static int pb_row(xr_ctx *ctx, int q, double *row, void *arg)
{
    const pb_state *S = arg;
    const xb_peer_row *r = &S->rows[q];
    (void)ctx;
    const double v[9] = {strcmp(r->variant, "shear") == 0 ? 1.0 : 0.0,
                         (double)r->n,
                         strcmp(r->mode, "iter10") == 0 ? 1.0 : 0.0,
                         (double)r->edges,
                         r->strain_xpbd,
                         r->strain_peer,
                         1e3 * r->seconds_xpbd / r->frames,
                         1e3 * r->seconds / r->frames,
                         (double)r->stiffness};
    memcpy(row, v, sizeof v);
    return 0;
}

/* Internal steps per frame of a mode (xb_cloth_modes). */
static const xb_cloth_mode *pb_mode(const char *name)
{
    for (int m = 0; m < XB_CLOTH_MODES; ++m)
        if (strcmp(xb_cloth_modes[m].name, name) == 0)
            return &xb_cloth_modes[m];
    return NULL;
}

static int peer_bullet_run(xr_ctx *ctx)
{
    if (!xb_peer_available()) {
        xr_skip_figures(ctx, "this build has no Bullet (CMake did not find libbullet-dev; "
                             "Debian: `apt-get install libbullet-dev g++`, then reconfigure). "
                             "`xpbd-bench --peer bullet` needs the same.");
        return 0;
    }
    xb_peer_row *rows = NULL;
    size_t n = 0;
    if (xr_quick(ctx)) {
        /* the smallest cloth, both modes, 10 frames */
        rows = calloc(XB_CLOTH_MODES, sizeof *rows);
        for (int m = 0; rows && m < XB_CLOTH_MODES; ++m)
            if (xb_peer_cloth_row(32, 0, m, 10, 1, &rows[n]) == 0)
                ++n;
        if (n < XB_CLOTH_MODES)
            n = 0;
    } else {
        xb_options opt;
        memset(&opt, 0, sizeof opt);
        opt.quick = 1;
        n = xb_peer_cloth_rows(&opt, &rows);
    }
    if (n == 0) {
        free(rows);
        return -1;
    }
    pb_state S = {rows, n};
    const xr_sweep sweep = {"peer_bullet",
                            "variant\tN\tmode\tlinks\tstrain_xpbd\tstrain_bullet\tms_xpbd\t"
                            "ms_bullet\tkLST",
                            NULL, (int)n, 9, pb_row, &S};
    if (xr_sweep_table(ctx, &sweep) != 0) {
        free(rows);
        return -1;
    }
    xr_md(ctx,
          "**The scenario.** The bench's cloth, as `xpbd-bench --peer bullet --quick` runs it%s: "
          "flat N x N grids of 0.25 m, two corners pinned, compliance 1e-5 m/N, structural "
          "links only or with both diagonals (shear), %d frames of 1/60 s. Bullet's "
          "btSoftBody gets the same particles and links and nothing else (no faces, bending, "
          "clusters or collisions); its link stiffness kLST = 2/(2 + alpha/h_s^2) makes its "
          "link solve equal to XPBD's first iteration. Modes: sub10 = 10 substeps x 1 "
          "iteration, iter10 = 1 substep x 10 iterations. Both in float, one thread, in this "
          "run. **Strain** is the mean |C|/rest over the links at the end. The two solvers "
          "agree only on their first iteration (XPBD accumulates lambda, Bullet does not and "
          "solves the squared length), so their strains are shown side by side, not held to "
          "a tolerance.\n\n"
          "| cloth | N | links | mode | strain xpbd | strain Bullet | ms/frame xpbd | "
          "ms/frame Bullet | Bullet / xpbd time |\n|---|---|---|---|---|---|---|---|---|\n",
          xr_quick(ctx) ? " (under --quick only its smallest, structural cloth)" : "",
          rows[0].frames);
    int wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const xb_peer_row *r = &rows[i];
        xr_md(ctx, "| %s | %d | %zu | %s | %.3g | %.3g | %.3f | %.3f | %.2f |\n", r->variant,
              r->n, r->edges, r->mode, r->strain_xpbd, r->strain_peer,
              1e3 * r->seconds_xpbd / r->frames, 1e3 * r->seconds / r->frames,
              r->seconds / r->seconds_xpbd);
        const xb_cloth_mode *m = pb_mode(r->mode);
        const uint64_t expect =
            m ? (uint64_t)r->edges * m->iterations * m->substeps * (uint64_t)r->frames : 0;
        wrong += r->link_solves != expect;
    }
    xr_md(ctx, "\n");
    xr_check(ctx, "Bullet: runs whose link-solve count differs from links x iterations x "
                  "substeps x frames",
             (double)wrong, 0, xr_exact(),
             "counted exactly: stepSimulation(1/60, substeps, 1/(60 substeps)) takes every "
             "internal step");
    char cap[600];
    snprintf(cap, sizeof cap,
             "The bench's cloth in Bullet's btSoftBody beside xpbd (float, one thread, same "
             "run): (a) mean link strain after %d frames, (b) wall time per frame, against the "
             "grid side N, for sub10 (10 substeps x 1 iteration) and iter10 (1 x 10), "
             "structural and shear cloths.",
             rows[0].frames);
    xr_figure(ctx, "peer_bullet", cap);
    free(rows);
    return 0;
}

const xr_section xr_section_peer_bullet = {
    .name = "peer_bullet",
    .title = "The same cloth in Bullet: strain and frame time side by side",
    .scenario = "",
    .figures = XR_FIGURES("peer_bullet"),
    .tables = XR_TABLES({"peer_bullet", "per cloth and mode: strain and ms/frame, xpbd and "
                                        "Bullet"}),
    .timed = 1,
    .run = peer_bullet_run};
