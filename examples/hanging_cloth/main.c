/* SPDX-License-Identifier: MIT */
/* hanging_cloth: a cloth hung by two corners, on the low-level step.
 *
 * The host owns every array: the mesh generator (xpbd/mesh.h) writes the
 * grid, the host lays the particles out as structure-of-arrays, builds the
 * coloured distance set once at load time and calls xpbd_step_f32 once per
 * frame with scratch it allocated once. Two seconds of frames later it
 * prints how far the middle of the cloth hangs below the pins and exits 1
 * if that is not finite and positive, or if a pin moved. */
#include <xpbd/xpbd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { NX = 24, NY = 24, FRAMES = 120 };

/* Builds the set, steps FRAMES frames, checks the sag; 0 on success. */
static int simulate(size_t n, float *x, float *y, float *z, float *px, float *py, float *pz,
                    float *vx, float *vy, float *vz, float *w, size_t m, const uint32_t *i0,
                    const uint32_t *i1, const float *rest, const float *compliance)
{
    const float pin[3] = {x[0], y[0], z[0]};

    /* Your arrays, your memory: x y z, previous position, velocity, inverse mass. */
    xpbd_particles_f32 p = {n, x, y, z, px, py, pz, vx, vy, vz, w};
    xpbd_distance_set_f32 links;            /* coloured + batched once, at load time */
    size_t bad;
    if (xpbd_distance_set_build_f32(&links, n, m, i0, i1, rest, compliance, NULL, &bad) != XPBD_OK)
        return 1;                           /* bad names the offending constraint */

    size_t bytes = xpbd_step_scratch_bytes_f32(n, links.slots);
    void *scratch = malloc(bytes);          /* once; the step never allocates */
    xpbd_step_config cfg = xpbd_step_config_default();  /* protocol-versioned defaults */
    cfg.substeps = 4;
    cfg.damping = 0.01;                     /* lets the swing die down */
    xpbd_step_counters counters;
    int ok = scratch != NULL;
    for (int frame = 0; frame < FRAMES && ok; ++frame) {
        xpbd_status st = xpbd_step_f32(&cfg, 1.0 / 60, &p, &links, scratch, bytes, &counters);
        if (st < 0)                             /* state is exactly as before the call */
            fprintf(stderr, "step: %s (element %zu)\n", xpbd_status_str(st), counters.bad_index);
        ok = st >= 0;
    }

    /* the sag: how far the middle particle hangs below the pins */
    const size_t mid = (size_t)(NY / 2) * NX + NX / 2;
    const double sag = (double)y[0] - (double)y[mid];
    const int pinned = x[0] == pin[0] && y[0] == pin[1] && z[0] == pin[2] && y[NX - 1] == pin[1];
    if (ok) {
        printf("hanging_cloth: %zu particles, %zu constraints in %u colours, %s path\n", n, m,
               links.colours, xpbd_isa_name(counters.isa));
        printf("hanging_cloth: after %d frames the middle hangs %.4f m below the pins "
               "(residual %.3g)\n", FRAMES, sag, counters.max_residual);
        ok = isfinite(sag) && sag > 0 && pinned;
        if (!ok)
            fprintf(stderr, "hanging_cloth: sag %g, pins %s\n", sag, pinned ? "kept" : "moved");
    }
    xpbd_distance_set_free_f32(&links);
    free(scratch);
    return ok ? 0 : 1;
}

int main(void)
{
    /* a horizontal NX x NY sheet (the x-z plane) at 1 m, 4 cm between particles:
     * ask for the sizes, allocate, generate */
    const xpbd_cloth_desc desc = {.nx = NX, .ny = NY, .spacing = 0.04, .origin = {0, 1, 0}};
    xpbd_mesh_counts k;
    if (xpbd_mesh_cloth(&desc, &k, NULL) != XPBD_OK)
        return 1;
    const size_t n = k.particles, m = k.edges + k.shear; /* stretch and shear pairs */
    xpbd_mesh_out out = {.capacity = k};
    out.xyz32 = malloc(3 * n * sizeof *out.xyz32);
    out.edges = malloc(2 * m * sizeof *out.edges);
    float *block = calloc(10 * n + 2 * m, sizeof *block); /* particles, rest, compliance */
    uint32_t *i0 = malloc(2 * m * sizeof *i0), *i1 = i0 ? i0 + m : NULL;
    int rc = 1;
    if (out.xyz32 && out.edges && block && i0) {
        out.shear = out.edges + 2 * k.edges;
        rc = xpbd_mesh_cloth(&desc, NULL, &out) != XPBD_OK;
    }
    if (rc == 0) {
        /* structure of arrays: ten arrays of n floats, at rest */
        float *x = block, *y = x + n, *z = y + n, *px = z + n, *py = px + n, *pz = py + n;
        float *vx = pz + n, *vy = vx + n, *vz = vy + n, *w = vz + n;
        float *rest = w + n, *compliance = rest + m;
        for (size_t i = 0; i < n; ++i) {
            x[i] = out.xyz32[3 * i];
            y[i] = out.xyz32[3 * i + 1];
            z[i] = out.xyz32[3 * i + 2];
            w[i] = 1 / 0.01f; /* 10 g per particle */
        }
        w[0] = w[NX - 1] = 0; /* the two corners of row 0 pinned: w = 0 is static */
        xpbd_mesh_rest_lengths_f32(out.xyz32, m, out.edges, rest);
        for (size_t e = 0; e < m; ++e) {
            i0[e] = out.edges[2 * e];
            i1[e] = out.edges[2 * e + 1];
            compliance[e] = 1e-7f; /* m/N: a nearly inextensible cloth */
        }
        rc = simulate(n, x, y, z, px, py, pz, vx, vy, vz, w, m, i0, i1, rest, compliance);
    }
    free(i0);
    free(block);
    free(out.edges);
    free(out.xyz32);
    return rc;
}
