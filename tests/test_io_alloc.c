/* SPDX-License-Identifier: MIT */
/* xpbd-io-alloc-tests: every loader of xpbd/io.h with its k-th allocation
 * failing, for every k up to the number a clean load makes: XPBD_ERR_NOMEM,
 * *out zeroed, a message, and no block left (the hooks of alloc_fail.c
 * count live blocks; under ASan LeakSanitizer checks at exit too). Linked
 * against xpbd_io_allocfail, the loaders' sources built with alloc_fail.h
 * force-included (tests/tests.cmake).
 *
 *   xpbd-io-alloc-tests DIR   (the path loaders' files are written there) */
#include "io_files.h"

#include <stdlib.h>

extern unsigned long xt_af_count, xt_af_fail_at;
extern long xt_af_live;

static unsigned long failures, checks;
static const char *dir = ".";

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        ++checks;                                                                             \
        if (!(cond)) {                                                                        \
            ++failures;                                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
        }                                                                                     \
    } while (0)

static const char *path(const char *name)
{
    static char buf[4][1024];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

static io_bw bin;

static xpbd_status load(int which, xpbd_mesh_data *m, xpbd_io_error *err)
{
    const xpbd_obj_options z = {2, XPBD_IO_UP_Z};
    switch (which) {
    case 0: return xpbd_io_load_obj_mem(io_obj_forms, sizeof io_obj_forms - 1, &z, m, err);
    case 1: return xpbd_io_load_obj(path("alloc.obj"), NULL, m, err);
    case 2:
        return xpbd_io_load_tetgen_mem(io_tg1_node, sizeof io_tg1_node - 1, io_tg1_ele,
                                       sizeof io_tg1_ele - 1, io_tg1_face,
                                       sizeof io_tg1_face - 1, m, err);
    case 3: return xpbd_io_load_tetgen(path("alloc.node"), m, err);
    case 4: return xpbd_io_load_gmsh_mem(io_msh41, sizeof io_msh41 - 1, m, err);
    case 5: return xpbd_io_load_gmsh_mem(bin.buf, bin.n, m, err);
    case 6: return xpbd_io_load_gmsh(path("alloc22.msh"), m, err);
    default: return xpbd_io_load_gmsh(path("alloc41.msh"), m, err);
    }
}

static const char *const names[8] = {"xpbd_io_load_obj_mem",    "xpbd_io_load_obj",
                                     "xpbd_io_load_tetgen_mem", "xpbd_io_load_tetgen",
                                     "xpbd_io_load_gmsh_mem (4.1 ASCII)",
                                     "xpbd_io_load_gmsh_mem (4.1 binary)",
                                     "xpbd_io_load_gmsh (2.2)", "xpbd_io_load_gmsh (4.1 ASCII)"};

static int zeroed(const xpbd_mesh_data *m)
{
    const unsigned char *b = (const unsigned char *)m;
    for (size_t k = 0; k < sizeof *m; ++k)
        if (b[k])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        dir = argv[1];
    io_msh41_binary(&bin, 0, 8, IO_BIN_VALID);
    if (!io_write(path("alloc.obj"), io_obj_forms, sizeof io_obj_forms - 1) ||
        !io_write(path("alloc.node"), io_tg1_node, sizeof io_tg1_node - 1) ||
        !io_write(path("alloc.ele"), io_tg1_ele, sizeof io_tg1_ele - 1) ||
        !io_write(path("alloc.face"), io_tg1_face, sizeof io_tg1_face - 1) ||
        !io_write(path("alloc22.msh"), io_msh22, sizeof io_msh22 - 1) ||
        !io_write(path("alloc41.msh"), io_msh41, sizeof io_msh41 - 1)) {
        fprintf(stderr, "xpbd-io-alloc-tests: cannot write the files in %s\n", dir);
        return 1;
    }
    for (int which = 0; which < 8; ++which) {
        xpbd_mesh_data m;
        xpbd_io_error err;
        xt_af_fail_at = 0;
        xt_af_count = 0;
        xpbd_status st = load(which, &m, &err);
        const unsigned long count = xt_af_count;
        CHECK(st == XPBD_OK && count > 0, "%s: clean run: %d (%s), %lu allocations",
              names[which], st, err.what, count);
        xpbd_mesh_data_free(&m);
        for (unsigned long k = 1; k <= count; ++k) {
            xt_af_count = 0;
            xt_af_fail_at = k;
            xt_af_live = 0;
            memset(&m, 0xab, sizeof m);
            st = load(which, &m, &err);
            CHECK(st == XPBD_ERR_NOMEM, "%s, allocation %lu of %lu failing: %d (%s)", names[which],
                  k, count, st, err.what);
            CHECK(zeroed(&m), "%s, allocation %lu failing: *out not zeroed", names[which], k);
            CHECK(err.what[0] != '\0', "%s, allocation %lu failing: no message", names[which], k);
            CHECK(xt_af_live == 0, "%s, allocation %lu failing: %ld blocks left", names[which], k,
                  xt_af_live);
            if (st == XPBD_OK)
                xpbd_mesh_data_free(&m);
        }
        printf("%-36s %lu allocations, each failing in turn\n", names[which], count);
    }
    xt_af_fail_at = 0;
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
