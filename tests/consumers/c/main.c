/* SPDX-License-Identifier: MIT */
/* Consumer of an installed xpbd: one S0 solve, checked against the SPEC's
 * first number (0.3333333333333335, bit for bit), and one task on the
 * default executor (so a static library links its OpenMP runtime in);
 * with XPBD_CONSUMER_IO (the CMake consumer, linking xpbd::io) one OBJ
 * triangle loaded from memory and a missing file refused. Prints the
 * library version and exits 0 on success. */
#include <xpbd/xpbd.h>
#include <xpbd/reference.h>
#ifdef XPBD_CONSUMER_IO
#include <xpbd/io.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void square(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    uint32_t *out = ctx;
    for (uint32_t i = begin; i < end; ++i)
        out[i] = i * i;
}

int main(void)
{
    double a = 0, b = 2, lambda = 0;
    const xpbd_status st = xpbd_distance1d_solve(&a, &b, 1, 1, 1, 0.01, 0.1, &lambda);
    const double stretch = b - a - 1;
    const double want = strtod("0.3333333333333335", NULL);
    if (st != XPBD_OK || memcmp(&stretch, &want, sizeof want) != 0) {
        fprintf(stderr, "xpbd-consumer: status %s, stretch %.17g (%a), want %.17g\n",
                xpbd_status_str(st), stretch, stretch, want);
        return 1;
    }
    if (xpbd_version() != XPBD_VERSION_MAJOR * 10000u + XPBD_VERSION_MINOR * 100u +
                              XPBD_VERSION_PATCH) {
        fprintf(stderr, "xpbd-consumer: header and library versions differ\n");
        return 1;
    }
    const xpbd_executor *ex = xpbd_executor_default();
    if (ex) {
        static uint32_t out[1000];
        void *h = ex->enqueue(square, 1000, 10, ex->worker_count, out, ex->user_ctx);
        if (h)
            ex->finish(h, ex->user_ctx);
        for (uint32_t i = 0; i < 1000; ++i)
            if (out[i] != i * i) {
                fprintf(stderr, "xpbd-consumer: executor missed item %u\n", (unsigned)i);
                return 1;
            }
    }
#ifdef XPBD_CONSUMER_IO
    static const char obj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    xpbd_mesh_data mesh, none;
    xpbd_io_error err;
    if (xpbd_io_load_obj_mem(obj, sizeof obj - 1, NULL, &mesh, &err) != XPBD_OK) {
        fprintf(stderr, "xpbd-consumer: xpbd::io: %s\n", err.what);
        return 1;
    }
    const int loaded = mesh.particles == 3 && mesh.triangles == 1 && mesh.triangle[2] == 2;
    xpbd_mesh_data_free(&mesh);
    if (!loaded || xpbd_io_load_obj("no-such-file.obj", NULL, &none, &err) != XPBD_ERR_FILE) {
        fprintf(stderr, "xpbd-consumer: xpbd::io: a wrong triangle or no refusal (%s)\n", err.what);
        return 1;
    }
    printf("xpbd-consumer: xpbd::io loaded an OBJ triangle\n");
#endif
    printf("xpbd-consumer: xpbd %u, S0 stretch %.17g ok, default executor %s\n", xpbd_version(),
           stretch, ex ? "ran 1000 items" : "absent (built without OpenMP)");
    return 0;
}
