/* SPDX-License-Identifier: MIT */
/* xpbd-io-tests: the mesh loaders of xpbd::io (xpbd/io.h).
 *
 *   xpbd-io-tests [--dir DIR] [--data DATA] [PREFIX...]
 *
 * Every file is written by the test into DIR (default "."), then loaded
 * from memory and from its path; DATA (default "data") is the source
 * tree's tests/data, the committed Gmsh files that io.files.* read
 * (test_io_meshes.c). Groups: io.status (arguments, statuses),
 * io.obj, io.tetgen, io.gmsh (each format's features, exact coordinates,
 * triangles, tets, labels and names), io.catalogue (the malformed-file
 * table of the mesh loaders and of the replay reader, xpbd/replay.h:
 * status, line, byte offset, message, *out zeroed, memory and path
 * loaders alike), io.mesher.box (a box meshed by the `tetgen` program;
 * skipped, exit 77, when it is not on PATH; the other io.mesher tests and
 * io.files are in test_io_meshes.c), io.export (the result writers: .vtu,
 * .vtk, .pvd, PC2 and OBJ read back exactly, failed writes leaving no
 * file). Ends with "N passed, M failed". */
#include "io_files.h"
#include "test_io.h"

#include <xpbd/replay.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

unsigned long xt_failures;
static const char *current_test = "";
static const char *io_dir = ".";
static const char *io_data = "data";
int io_skipped;

int xt_fail_begin(const char *file, int line)
{
    if (++xt_failures > 20)
        return 0;
    fprintf(stderr, "%s:%d: [%s] ", file, line, current_test);
    return 1;
}

void xt_fail_real(const char *file, int line, const char *what, double got, double want,
                  double tol)
{
    if (xt_fail_begin(file, line))
        fprintf(stderr, "%s\n    got  %a = %.17g\n    want %a = %.17g\n    tol  %a = %.17g\n",
                what, got, got, want, want, tol, tol);
}

/* dir/name in one of a few rotating buffers (a call may use several) */
static const char *io_join(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

const char *io_path(const char *name)
{
    return io_join(io_dir, name);
}

const char *io_data_path(const char *name)
{
    return io_join(io_data, name);
}

/* exact comparisons, the first difference printed */
#define IO_SAME(got, want, n, fmt)                                                            \
    do {                                                                                      \
        for (size_t io_k_ = 0; io_k_ < (size_t)(n); ++io_k_)                                  \
            if (memcmp(&(got)[io_k_], &(want)[io_k_], sizeof (got)[0]) != 0) {                \
                if (xt_fail_begin(__FILE__, __LINE__))                                        \
                    fprintf(stderr, "%s[%zu]: got " fmt ", want " fmt "\n", #got, io_k_,      \
                            (got)[io_k_], (want)[io_k_]);                                     \
                break;                                                                        \
            }                                                                                 \
    } while (0)

/* *m holds exactly these arrays (labels NULL: none expected) */
static void io_expect(const xpbd_mesh_data *m, const double *xyz, size_t n, const uint32_t *tri,
                      size_t nt, const int32_t *tri_label, const uint32_t *tet, size_t ntet,
                      const int32_t *tet_label)
{
    ENSURE_INT(m->particles, n);
    ENSURE_INT(m->triangles, nt);
    ENSURE_INT(m->tets, ntet);
    if (m->particles != n || m->triangles != nt || m->tets != ntet)
        return;
    IO_SAME(m->xyz, xyz, 3 * n, "%.17g");
    if (nt)
        IO_SAME(m->triangle, tri, 3 * nt, "%u");
    if (ntet)
        IO_SAME(m->tet, tet, 4 * ntet, "%u");
    ENSURE((m->triangle_label != NULL) == (tri_label != NULL));
    if (m->triangle_label && tri_label)
        IO_SAME(m->triangle_label, tri_label, nt, "%d");
    ENSURE((m->tet_label != NULL) == (tet_label != NULL));
    if (m->tet_label && tet_label)
        IO_SAME(m->tet_label, tet_label, ntet, "%d");
}

/* every field of two meshes equal */
static void io_expect_same(const xpbd_mesh_data *a, const xpbd_mesh_data *b)
{
    io_expect(a, b->xyz, b->particles, b->triangle, b->triangles, b->triangle_label, b->tet,
              b->tets, b->tet_label);
    ENSURE_INT(a->labels, b->labels);
    for (size_t k = 0; k < a->labels && k < b->labels; ++k) {
        ENSURE_INT(a->label_id[k], b->label_id[k]);
        ENSURE(strcmp(a->label_name[k], b->label_name[k]) == 0);
    }
}

static void io_expect_ok(const xpbd_io_error *err, size_t skipped)
{
    ENSURE_INT(err->line, 0);
    ENSURE_INT(err->byte_offset, 0);
    ENSURE(err->what[0] == '\0');
    ENSURE_INT(err->skipped, skipped);
}

/* ------------------------------------------------------------ status --- */

static void io_status(void)
{
    ENSURE_INT(XPBD_ERR_FILE, -26);
    ENSURE(strcmp(xpbd_status_str(XPBD_ERR_FILE), xpbd_status_str((xpbd_status)1000)) != 0);
    xpbd_mesh_data m;
    xpbd_io_error err;
    memset(&m, 0xab, sizeof m);
    ENSURE_STATUS(xpbd_io_load_obj(NULL, NULL, &m, &err), XPBD_ERR_ARGUMENT);
    ENSURE(xt_all_zero(&m, sizeof m));
    ENSURE(strstr(err.what, "path") != NULL);
    ENSURE_STATUS(xpbd_io_load_obj("x.obj", NULL, NULL, &err), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_obj_mem(NULL, 4, NULL, &m, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_tetgen(NULL, &m, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_tetgen_mem(NULL, 0, NULL, 0, NULL, 0, &m, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_tetgen_mem("1 3\n1 0 0 0\n", 12, NULL, 5, NULL, 0, &m, NULL),
                  XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_gmsh(NULL, &m, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_load_gmsh_mem(NULL, 3, &m, NULL), XPBD_ERR_ARGUMENT);
    ENSURE(xt_all_zero(&m, sizeof m));

    /* options */
    const char tri[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    const double bad_scale[] = {-1, (double)NAN, (double)INFINITY, -0.0 - 1e-300};
    for (size_t k = 0; k < sizeof bad_scale / sizeof bad_scale[0]; ++k) {
        const xpbd_obj_options opt = {bad_scale[k], XPBD_IO_UP_Y};
        memset(&m, 0xab, sizeof m);
        ENSURE_STATUS(xpbd_io_load_obj_mem(tri, sizeof tri - 1, &opt, &m, &err),
                      XPBD_ERR_ARGUMENT);
        ENSURE(xt_all_zero(&m, sizeof m));
        ENSURE(strstr(err.what, "scale") != NULL);
    }
    const xpbd_obj_options up7 = {1, (xpbd_io_up)7};
    ENSURE_STATUS(xpbd_io_load_obj_mem(tri, sizeof tri - 1, &up7, &m, &err), XPBD_ERR_ARGUMENT);
    ENSURE(strstr(err.what, "up") != NULL);

    /* files that are not there; err may be NULL */
    memset(&m, 0xab, sizeof m);
    memset(&err, 0xcd, sizeof err);
    ENSURE_STATUS(xpbd_io_load_obj(io_path("no-such.obj"), NULL, &m, &err), XPBD_ERR_FILE);
    ENSURE(xt_all_zero(&m, sizeof m));
    ENSURE_INT(err.line, 0);
    ENSURE(strstr(err.what, "cannot open") != NULL);
    ENSURE_STATUS(xpbd_io_load_gmsh(io_path("no-such.msh"), &m, NULL), XPBD_ERR_FILE);
    ENSURE_STATUS(xpbd_io_load_tetgen(io_path("no-such"), &m, &err), XPBD_ERR_FILE);
    ENSURE(strncmp(err.what, ".node: cannot open", 18) == 0);
    /* a directory opens (on POSIX) but does not read */
    ENSURE_STATUS(xpbd_io_load_gmsh(io_dir, &m, &err), XPBD_ERR_FILE);
    ENSURE(xt_all_zero(&m, sizeof m));

    /* no bytes at all */
    ENSURE_STATUS(xpbd_io_load_obj_mem(NULL, 0, NULL, &m, &err), XPBD_ERR_FILE);
    ENSURE(strstr(err.what, "no vertices") != NULL);
    ENSURE_STATUS(xpbd_io_load_gmsh_mem(NULL, 0, &m, &err), XPBD_ERR_FILE);
    ENSURE_STATUS(xpbd_io_load_tetgen_mem("", 0, NULL, 0, NULL, 0, &m, &err), XPBD_ERR_FILE);
    ENSURE(xt_all_zero(&m, sizeof m));
    /* a success needs no err, and a mesh freed twice is fine */
    REQUIRE_STATUS(xpbd_io_load_obj_mem(tri, sizeof tri - 1, NULL, &m, NULL), XPBD_OK);
    ENSURE_INT(m.particles, 3);
    xpbd_mesh_data_free(&m);
    xpbd_mesh_data_free(&m);
    ENSURE(xt_all_zero(&m, sizeof m));
}

/* --------------------------------------------------------------- OBJ --- */

static void io_obj_features(void)
{
    xpbd_mesh_data m, p;
    xpbd_io_error err;
    memset(&err, 0xcd, sizeof err);
    REQUIRE_STATUS(xpbd_io_load_obj_mem(io_obj_forms, sizeof io_obj_forms - 1, NULL, &m, &err),
                   XPBD_OK);
    io_expect_ok(&err, 2); /* l and p */
    io_expect(&m, io_obj_forms_xyz, 7, io_obj_forms_tri, 11, NULL, NULL, 0, NULL);
    ENSURE_INT(m.labels, 0);
    ENSURE(m.label_id == NULL && m.label_name == NULL && m.tet == NULL);
    /* the same from the file */
    REQUIRE(io_write(io_path("forms.obj"), io_obj_forms, sizeof io_obj_forms - 1));
    REQUIRE_STATUS(xpbd_io_load_obj(io_path("forms.obj"), NULL, &p, &err), XPBD_OK);
    io_expect_same(&p, &m);
    xpbd_mesh_data_free(&p);
    xpbd_mesh_data_free(&m);

    /* a point cloud: vertices alone */
    const char cloud[] = "v 1 2 3\nv 4 5 6";
    static const double cloud_xyz[] = {1, 2, 3, 4, 5, 6};
    REQUIRE_STATUS(xpbd_io_load_obj_mem(cloud, sizeof cloud - 1, NULL, &m, &err), XPBD_OK);
    io_expect(&m, cloud_xyz, 2, NULL, 0, NULL, NULL, 0, NULL);
    ENSURE(m.triangle == NULL);
    xpbd_mesh_data_free(&m);
}

static void io_obj_options(void)
{
    const char text[] = "v 1 2 3\nv -0.5 0.25 4\nv 0 0 0\nv 3 -7 0.1\nf 1 2 3 4\n";
    static const uint32_t tri[] = {0, 1, 2, 0, 2, 3};
    xpbd_mesh_data m;
    xpbd_io_error err;
    /* scale 2, z up: (x, y, z) -> 2 (x, z, -y) */
    const xpbd_obj_options z2 = {2, XPBD_IO_UP_Z};
    static const double want_z2[] = {2, 6, -4, -1, 8, -0.5, 0, 0, 0, 6, 0.2, 14};
    REQUIRE_STATUS(xpbd_io_load_obj_mem(text, sizeof text - 1, &z2, &m, &err), XPBD_OK);
    io_expect(&m, want_z2, 4, tri, 2, NULL, NULL, 0, NULL);
    ENSURE(!signbit(m.xyz[8])); /* -0 not made of a 0 */
    xpbd_mesh_data_free(&m);
    /* the defaults, three ways */
    static const double want[] = {1, 2, 3, -0.5, 0.25, 4, 0, 0, 0, 3, -7, 0.1};
    const xpbd_obj_options zero = {0, XPBD_IO_UP_Y}, one = {1, XPBD_IO_UP_Y};
    const xpbd_obj_options *opts[3] = {NULL, &zero, &one};
    for (int k = 0; k < 3; ++k) {
        REQUIRE_STATUS(xpbd_io_load_obj_mem(text, sizeof text - 1, opts[k], &m, &err), XPBD_OK);
        io_expect(&m, want, 4, tri, 2, NULL, NULL, 0, NULL);
        xpbd_mesh_data_free(&m);
    }
    /* a scale that is not a power of two: each coordinate times it, once */
    const xpbd_obj_options tenth = {0.1, XPBD_IO_UP_Y};
    double want_tenth[12];
    for (int k = 0; k < 12; ++k)
        want_tenth[k] = want[k] * 0.1;
    REQUIRE_STATUS(xpbd_io_load_obj_mem(text, sizeof text - 1, &tenth, &m, &err), XPBD_OK);
    io_expect(&m, want_tenth, 4, tri, 2, NULL, NULL, 0, NULL);
    xpbd_mesh_data_free(&m);
    /* y up with the scale through the path loader */
    REQUIRE(io_write(io_path("options.obj"), text, sizeof text - 1));
    REQUIRE_STATUS(xpbd_io_load_obj(io_path("options.obj"), &z2, &m, &err), XPBD_OK);
    io_expect(&m, want_z2, 4, tri, 2, NULL, NULL, 0, NULL);
    xpbd_mesh_data_free(&m);

    /* a decimal comma locale: the file's '.' still reads, a ',' does not */
    static const char *const comma[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"};
    const char *found = NULL;
    for (size_t k = 0; k < sizeof comma / sizeof comma[0] && !found; ++k)
        found = setlocale(LC_NUMERIC, comma[k]);
    if (found) {
        REQUIRE_STATUS(xpbd_io_load_obj_mem(text, sizeof text - 1, NULL, &m, &err), XPBD_OK);
        io_expect(&m, want, 4, tri, 2, NULL, NULL, 0, NULL);
        xpbd_mesh_data_free(&m);
        ENSURE_STATUS(xpbd_io_load_obj_mem("v 0,5 0 0\n", 10, NULL, &m, &err), XPBD_ERR_FILE);
        setlocale(LC_NUMERIC, "C");
        printf("      (decimal comma locale %s checked)\n", found);
    }
}

/* ------------------------------------------------------------ TetGen --- */

static void io_tetgen_one_based(void)
{
    static const uint32_t tet[] = {0, 1, 2, 3, 1, 2, 3, 4};
    static const int32_t tet_label[] = {7, -3};
    static const uint32_t tri[] = {0, 1, 2, 0, 1, 3, 1, 2, 4};
    static const int32_t tri_label[] = {10, -2, 0};
    xpbd_mesh_data m, p;
    xpbd_io_error err;
    memset(&err, 0xcd, sizeof err);
    REQUIRE_STATUS(xpbd_io_load_tetgen_mem(io_tg1_node, sizeof io_tg1_node - 1, io_tg1_ele,
                                           sizeof io_tg1_ele - 1, io_tg1_face,
                                           sizeof io_tg1_face - 1, &m, &err),
                   XPBD_OK);
    io_expect_ok(&err, 0);
    io_expect(&m, io_tg_xyz, 5, tri, 3, tri_label, tet, 2, tet_label);
    ENSURE_INT(m.labels, 0);
    /* from files: the .node path and the common name */
    REQUIRE(io_write(io_path("tg1.node"), io_tg1_node, sizeof io_tg1_node - 1));
    REQUIRE(io_write(io_path("tg1.ele"), io_tg1_ele, sizeof io_tg1_ele - 1));
    REQUIRE(io_write(io_path("tg1.face"), io_tg1_face, sizeof io_tg1_face - 1));
    const char *paths[2] = {io_path("tg1.node"), io_path("tg1")};
    for (int k = 0; k < 2; ++k) {
        REQUIRE_STATUS(xpbd_io_load_tetgen(paths[k], &p, &err), XPBD_OK);
        io_expect_same(&p, &m);
        xpbd_mesh_data_free(&p);
    }
    xpbd_mesh_data_free(&m);
    /* .node alone: the points, no elements */
    REQUIRE(io_write(io_path("tg1only.node"), io_tg1_node, sizeof io_tg1_node - 1));
    REQUIRE_STATUS(xpbd_io_load_tetgen(io_path("tg1only"), &p, &err), XPBD_OK);
    io_expect(&p, io_tg_xyz, 5, NULL, 0, NULL, NULL, 0, NULL);
    xpbd_mesh_data_free(&p);
    /* .node and .face */
    REQUIRE(io_write(io_path("tg1face.node"), io_tg1_node, sizeof io_tg1_node - 1));
    REQUIRE(io_write(io_path("tg1face.face"), io_tg1_face, sizeof io_tg1_face - 1));
    REQUIRE_STATUS(xpbd_io_load_tetgen(io_path("tg1face.node"), &p, &err), XPBD_OK);
    io_expect(&p, io_tg_xyz, 5, tri, 3, tri_label, NULL, 0, NULL);
    xpbd_mesh_data_free(&p);
}

static void io_tetgen_zero_based(void)
{
    static const uint32_t tet[] = {0, 1, 2, 3, 1, 2, 3, 4};
    xpbd_mesh_data m, p;
    xpbd_io_error err;
    /* header defaults, a 10-node .ele (its corners kept), no attributes, no .face */
    REQUIRE_STATUS(xpbd_io_load_tetgen_mem(io_tg0_node, sizeof io_tg0_node - 1, io_tg0_ele,
                                           sizeof io_tg0_ele - 1, NULL, 0, &m, &err),
                   XPBD_OK);
    io_expect(&m, io_tg_xyz, 5, NULL, 0, NULL, tet, 2, NULL);
    REQUIRE(io_write(io_path("tg0.node"), io_tg0_node, sizeof io_tg0_node - 1));
    REQUIRE(io_write(io_path("tg0.ele"), io_tg0_ele, sizeof io_tg0_ele - 1));
    REQUIRE_STATUS(xpbd_io_load_tetgen(io_path("tg0"), &p, &err), XPBD_OK);
    io_expect_same(&p, &m);
    xpbd_mesh_data_free(&p);
    xpbd_mesh_data_free(&m);
    /* 0-based with a face file with markers and an .ele with real-valued
     * integer region attributes, CRLF line ends */
    const char node[] = "4 3 0 0\r\n0 0 0 0\r\n1 1 0 0\r\n2 0 1 0\r\n3 0 0 1\r\n";
    const char ele[] = "1 4 1\r\n0 0 1 2 3 -2.0e0\r\n";
    const char face[] = "2 1\r\n0 0 1 2 5\r\n1 0 1 3 6\r\n";
    static const uint32_t tri[] = {0, 1, 2, 0, 1, 3};
    static const int32_t tri_label[] = {5, 6}, tet_label[] = {-2};
    REQUIRE_STATUS(xpbd_io_load_tetgen_mem(node, sizeof node - 1, ele, sizeof ele - 1, face,
                                           sizeof face - 1, &m, &err),
                   XPBD_OK);
    io_expect(&m, io_tg_xyz, 4, tri, 2, tri_label, tet, 1, tet_label);
    xpbd_mesh_data_free(&m);
}

/* -------------------------------------------------------------- Gmsh --- */

static void io_expect_msh41(const xpbd_mesh_data *m)
{
    static const int32_t tri_label[] = {10, 10}, tet_label[] = {20, 20};
    io_expect(m, io_tg_xyz, 5, io_msh_tri, 2, tri_label, io_msh_tet, 2, tet_label);
    ENSURE_INT(m->labels, 2);
    if (m->labels == 2) {
        ENSURE_INT(m->label_id[0], 10);
        ENSURE(strcmp(m->label_name[0], "skin") == 0);
        ENSURE_INT(m->label_id[1], 20);
        ENSURE(strcmp(m->label_name[1], "body part") == 0);
    }
}

static void io_gmsh_41(void)
{
    xpbd_mesh_data m, p;
    xpbd_io_error err;
    memset(&err, 0xcd, sizeof err);
    REQUIRE_STATUS(xpbd_io_load_gmsh_mem(io_msh41, sizeof io_msh41 - 1, &m, &err), XPBD_OK);
    io_expect_ok(&err, 2); /* a line and a point */
    io_expect_msh41(&m);
    REQUIRE(io_write(io_path("ascii41.msh"), io_msh41, sizeof io_msh41 - 1));
    REQUIRE_STATUS(xpbd_io_load_gmsh(io_path("ascii41.msh"), &p, &err), XPBD_OK);
    io_expect_same(&p, &m);
    xpbd_mesh_data_free(&p);
    /* binary, both byte orders, size_t fields of 8 and 4 bytes: the same mesh */
    static io_bw w;
    for (int le = 0; le < 2; ++le)
        for (size_t ds = 4; ds <= 8; ds += 4) {
            io_msh41_binary(&w, le, ds, IO_BIN_VALID);
            memset(&err, 0xcd, sizeof err);
            const xpbd_status st = xpbd_io_load_gmsh_mem(w.buf, w.n, &p, &err);
            if (st != XPBD_OK)
                fprintf(stderr, "binary %s ds %zu: %s at offset %zu\n", le ? "LE" : "BE", ds,
                        err.what, err.byte_offset);
            REQUIRE_STATUS(st, XPBD_OK);
            io_expect_ok(&err, 2);
            io_expect_same(&p, &m);
            xpbd_mesh_data_free(&p);
        }
    io_msh41_binary(&w, 0, 8, IO_BIN_VALID);
    REQUIRE(io_write(io_path("binary41be.msh"), w.buf, w.n));
    REQUIRE_STATUS(xpbd_io_load_gmsh(io_path("binary41be.msh"), &p, &err), XPBD_OK);
    io_expect_same(&p, &m);
    xpbd_mesh_data_free(&p);
    xpbd_mesh_data_free(&m);

    /* no $Entities: no labels; consecutive tags; an empty $PhysicalNames */
    const char plain[] = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                         "$PhysicalNames\n0\n$EndPhysicalNames\n"
                         "$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n"
                         "0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n"
                         "$Elements\n1 1 1 1\n3 1 4 1\n1 4 3 2 1\n$EndElements\n"
                         "$NodeData\n1\n\"x\"\n$EndNodeData\n";
    static const uint32_t tet[] = {3, 2, 1, 0};
    REQUIRE_STATUS(xpbd_io_load_gmsh_mem(plain, sizeof plain - 1, &m, &err), XPBD_OK);
    io_expect(&m, io_tg_xyz, 4, NULL, 0, NULL, tet, 1, NULL);
    ENSURE(m.labels == 0 && m.label_id == NULL && m.label_name == NULL);
    io_expect_ok(&err, 0);
    xpbd_mesh_data_free(&m);
}

static void io_gmsh_22(void)
{
    static const uint32_t tri[] = {0, 1, 2};
    static const int32_t tri_label[] = {3}, tet_label[] = {4, 0};
    xpbd_mesh_data m, p;
    xpbd_io_error err;
    REQUIRE_STATUS(xpbd_io_load_gmsh_mem(io_msh22, sizeof io_msh22 - 1, &m, &err), XPBD_OK);
    io_expect_ok(&err, 2);
    io_expect(&m, io_tg_xyz, 5, tri, 1, tri_label, io_msh_tet, 2, tet_label);
    ENSURE_INT(m.labels, 2);
    if (m.labels == 2) {
        ENSURE(m.label_id[0] == 3 && strcmp(m.label_name[0], "top") == 0);
        ENSURE(m.label_id[1] == 4 && strcmp(m.label_name[1], "solid") == 0);
    }
    REQUIRE(io_write(io_path("ascii22.msh"), io_msh22, sizeof io_msh22 - 1));
    REQUIRE_STATUS(xpbd_io_load_gmsh(io_path("ascii22.msh"), &p, &err), XPBD_OK);
    io_expect_same(&p, &m);
    xpbd_mesh_data_free(&p);
    xpbd_mesh_data_free(&m);
    /* tags not in order: dense indices in the order of $Nodes */
    const char shuffled[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                            "$Nodes\n4\n40 0 0 1\n7 1 0 0\n100 0 1 0\n8 0 0 0\n$EndNodes\n"
                            "$Elements\n1\n9 4 2 1 1 8 7 100 40\n$EndElements\n";
    static const double xyz[] = {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    static const uint32_t tet[] = {3, 1, 2, 0};
    static const int32_t one[] = {1};
    REQUIRE_STATUS(xpbd_io_load_gmsh_mem(shuffled, sizeof shuffled - 1, &m, &err), XPBD_OK);
    io_expect(&m, xyz, 4, NULL, 0, NULL, tet, 1, one);
    xpbd_mesh_data_free(&m);
}

/* --------------------------------------------------------- catalogue --- */

/* One malformed file. '@' in a text marks the fault: the expected byte
 * offset, and the line it is on (a '@' at the very end, after the last
 * line end: the last line, where a file cut short is named). Binary rows
 * are io_msh41_binary's variants (its mark the offset, line 0). Replay rows
 * (xpbd_replay_load, xpbd_replay_load_mem: xpbd/replay.h) report a line
 * only: their '@' marks it. */
typedef struct io_row {
    char format;         /* 'o' OBJ, 't' TetGen, 'g' Gmsh text, 'b' Gmsh binary, 'r' replay */
    const char *text[3]; /* OBJ, Gmsh, replay: [0]; TetGen: .node, .ele, .face (NULL: absent) */
    xpbd_status want;
    const char *what;    /* a part of the message */
    double scale;        /* OBJ */
    int variant, le;     /* binary */
    size_t ds;
} io_row;

#define TGN "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
#define M41 "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
#define M22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
#define N41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n"
#define E41 "$Elements\n1 1 1 1\n2 1 2 1\n1 1 2 3\n$EndElements\n"
#define N22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n"
/* A replay file that loads (io_catalogue checks it): its parts by line,
 * RPH 1-5, RPC 6, RPO 7, RPK 8, RPP 9-11, RPE 12-13, RPT 14-18 (tets,
 * bends, bodies, planes, contacts), RPI 19, RPN 20. Two particles, one
 * edge, one input, two frames. */
#define RPH "xpbd-replay 5\nprotocol 2\nreal f64\nh 0x1p-6\nframe 0\n"
#define RPC_FIELDS                                                                                \
    " substeps 1 iterations 1 gravity 0 -9.8 0 damping 0 pbd_stiffness 1 spring_damping 0"       \
    " solver 0 lambda_reset 0 isa -1 measure_residual 0 contact_beta 1 restitution 0"           \
    " contact_slop 0 friction_static 0 friction_dynamic 0 contact_skin 0 contact_weighted 0"    \
    " contact_velocity_pass 0 contact_order 0 relative_damping 0"
#define RPC "config version 2" RPC_FIELDS " threads 1\n"
#define RPO_FIELDS "options tear_stretch 0 sleep_energy 0 sleep_steps 0 keep_hinges 0"
#define RPO RPO_FIELDS " max_particles 0 threads 0\n"
#define RPK "colouring 0 0 0 0 0\n"
#define RPP0 "p 0 0 0 0 0 0 0 0 0 1 0 0 0 0\n"
#define RPP1 "p 1 0 0 1 0 0 0 0 0 1 1 0 0 1\n"
#define RPP "particles 2 0 0\n" RPP0 RPP1
#define RPE "edges 1\ne 0 1 1 0\n"
#define RPT "tets 0\nbends 0\nbodies 0\nplanes 0\ncontacts 0\n"
#define RPI "input 0 1 0 2 0 1 0\n"
#define RPN "end 2 0123456789abcdef\n"
#define RP_TOP RPH RPC RPO RPK /* lines 1-8 */
#define RP_BASE RP_TOP RPP RPE RPT RPI RPN

static const io_row io_rows[] = {
    /* OBJ */
    {'o', {"v 0 0 0\nv 1 0 0\nf 1 2 @3\n"},
     XPBD_ERR_INDEX, "f: v index 3 out of range", 0, 0, 0, 0},
    {'o', {"v 0 0 0\nf @0 1 1\n"}, XPBD_ERR_INDEX, "v index 0", 0, 0, 0, 0},
    {'o', {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf @-4 1 2\n"},
     XPBD_ERR_INDEX, "index -4 out of range", 0, 0, 0, 0},
    {'o', {"v 0 0 @nan\n"}, XPBD_ERR_POSITION, "v: z is not finite", 0, 0, 0, 0},
    {'o', {"v 0 0@\n"}, XPBD_ERR_FILE, "v: z missing", 0, 0, 0, 0},
    {'o', {"v 0 0 @1x\n"}, XPBD_ERR_FILE, "not a number", 0, 0, 0, 0},
    {'o', {"v 1 2 3\r\nv 1 2 3\r\n@f 1 2\r\n"}, XPBD_ERR_FILE, "2 corners, at least 3", 0, 0, 0, 0},
    {'o', {"v 1 2 3\nf 1/@2 1 1\n"}, XPBD_ERR_INDEX, "vt index 2 out of range", 0, 0, 0, 0},
    {'o', {"# nothing\nmtllib a.mtl\n@"}, XPBD_ERR_FILE, "no vertices", 0, 0, 0, 0},
    {'o', {"v @1e999 0 0\n"}, XPBD_ERR_POSITION, "x is not finite", 0, 0, 0, 0},
    {'o', {"v 1 2 3 4 5 6 7 @8\n"}, XPBD_ERR_FILE, "unexpected '8'", 0, 0, 0, 0},
    {'o', {"v 1 2 3\nf @1/1/1/1 1 1\n"}, XPBD_ERR_FILE, "more than 3 parts", 0, 0, 0, 0},
    {'o', {"v @1,5 2 3\n"}, XPBD_ERR_FILE, "'1,5' is not a number", 0, 0, 0, 0},
    {'o', {"v @1e10 0 0\n"}, XPBD_ERR_POSITION, "(scaled)", 1e300, 0, 0, 0},
    {'o', {"v 1 2 3\nvn 0 0 1\nf 1//@-2 1//1 1//1\n"}, XPBD_ERR_INDEX, "vn index -2", 0, 0, 0, 0},
    {'o', {"v 1 2 3\nf @1/x 1 1\n"}, XPBD_ERR_FILE, "is not v[/vt][/vn]", 0, 0, 0, 0},
    /* TetGen */
    {'t', {"3 3 0 0\n1 0.5 0.5 0.5\n2 1.5 0.25 0.125\n@"},
     XPBD_ERR_FILE, ".node: cut short: 2 of the header's 3", 0, 0, 0, 0},
    {'t', {"2 3 0 0\n1 0 0 0\n2 1 0 0\n@3 0 1 0\n"},
     XPBD_ERR_FILE, ".node: more records", 0, 0, 0, 0},
    {'t', {"2 3 0 0\n1 0.5 0.5@\n2 1.5 0.25 0.125\n"},
     XPBD_ERR_FILE, ".node: z missing", 0, 0, 0, 0},
    {'t', {"2 3 0 0\n@2 0 0 0\n3 1 0 0\n"}, XPBD_ERR_FILE, "starts at 0 or 1", 0, 0, 0, 0},
    {'t', {"2 3 0 0\n1 0 0 0\n@3 1 0 0\n"},
     XPBD_ERR_FILE, "point number 3 where 2 is next", 0, 0, 0, 0},
    {'t', {"1 @2 0 0\n1 0 0\n"}, XPBD_ERR_FILE, ".node: dimension 2 out of range", 0, 0, 0, 0},
    {'t', {"1 3 0 0\n1 @nan 0 0\n"},
     XPBD_ERR_POSITION, ".node: point 0: x is not finite", 0, 0, 0, 0},
    {'t', {"@999999999999 3 0 0\n1 0 0 0\n"}, XPBD_ERR_FILE, "cannot fit", 0, 0, 0, 0},
    {'t', {TGN, "1 4 0\n1 1 2 3 @5\n"}, XPBD_ERR_INDEX, ".ele: point 5 out of range", 0, 0, 0, 0},
    {'t', {TGN, "2 4 0\n1    1    2    3    4\n@"},
     XPBD_ERR_FILE, ".ele: cut short: 1 of the header's 2", 0, 0, 0, 0},
    {'t', {TGN, "1 4 1\n1 1 2 3 4 @1.5\n"},
     XPBD_ERR_FILE, "region attribute 1.5 is not", 0, 0, 0, 0},
    {'t', {TGN, "@1 5 0\n1 1 2 3 4 4\n"}, XPBD_ERR_FILE, ".ele: 5 points per tet", 0, 0, 0, 0},
    {'t', {TGN, NULL, "1 1\n1 1 2 @9 3\n"},
     XPBD_ERR_INDEX, ".face: point 9 out of range", 0, 0, 0, 0},
    {'t', {TGN, NULL, "1 1\n1  1 2 3@\n"},
     XPBD_ERR_FILE, ".face: boundary marker missing", 0, 0, 0, 0},
    {'t', {"@"}, XPBD_ERR_FILE, ".node: empty", 0, 0, 0, 0},
    {'t', {TGN, "1 4 0\n@0 1 2 3 4\n"},
     XPBD_ERR_FILE, ".ele: tet number 0 where 1 is next", 0, 0, 0, 0},
    {'t', {"@1 3 99999999999 0\n1 0 0 0\n"}, XPBD_ERR_FILE, "cannot fit", 0, 0, 0, 0},
    {'t', {"@0 3 0 0\n"}, XPBD_ERR_FILE, ".node: no points", 0, 0, 0, 0},
    {'t', {"# only a comment\n\n@"}, XPBD_ERR_FILE, ".node: empty", 0, 0, 0, 0},
    {'t', {"2 3 0 1\n1 0 0 0 1\n2 1.5 0.25 0.125@\n"},
     XPBD_ERR_FILE, "point marker missing", 0, 0, 0, 0},
    {'t', {TGN, "1 4 0\n1 1 2 3 4 @9\n"}, XPBD_ERR_FILE, ".ele: tet: unexpected '9'", 0, 0, 0, 0},
    /* Gmsh, text */
    {'g', {"@"}, XPBD_ERR_FILE, "empty: no $MeshFormat", 0, 0, 0, 0},
    {'g', {"@solid box\nfacet\n"}, XPBD_ERR_FILE, "not a Gmsh file", 0, 0, 0, 0},
    {'g', {"$MeshFormat\n@3.0 0 8\n$EndMeshFormat\n"},
     XPBD_ERR_FILE, "'3.0' not supported", 0, 0, 0, 0},
    {'g', {"$MeshFormat\n2.2 @1 8\n$EndMeshFormat\n"}, XPBD_ERR_FILE, "binary MSH 2", 0, 0, 0, 0},
    {'g', {"$MeshFormat\n4.1 1 @6\n"}, XPBD_ERR_FILE, "data size 6", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n@"}, XPBD_ERR_FILE,
     "cut short in $Nodes", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 2\n1\n2\n0 0 0\n1 0 0\n@$EndNodes\n" E41}, XPBD_ERR_FILE,
     "hold 2 nodes, the header says 3", 0, 0, 0, 0},
    {'g', {M41 N41 "$Elements\n1 1 1 1\n2 1 2 1\n1 1 2 @9\n$EndElements\n"}, XPBD_ERR_INDEX,
     "node tag 9 not in $Nodes", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 @nan 0\n0 1 0\n$EndNodes\n" E41},
     XPBD_ERR_POSITION, "node 1: y is not finite", 0, 0, 0, 0},
    {'g', {M41 N41 "@"}, XPBD_ERR_FILE, "no $Elements section", 0, 0, 0, 0},
    {'g', {M41 "@" E41}, XPBD_ERR_FILE, "$Elements before $Nodes", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n@$Elements\n"},
     XPBD_ERR_FILE, "$EndNodes expected", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 @99999999999 1 3\n"}, XPBD_ERR_FILE, "cannot fit", 0, 0, 0, 0},
    {'g', {M22 "@$Nodes\n2\n1 0 0 0\n1 1 0 0\n$EndNodes\n$Elements\n0\n$EndElements\n"},
     XPBD_ERR_FILE, "node tag 1 repeated", 0, 0, 0, 0},
    {'g', {M22 N22 "$Elements\n1\n1 4 0 1 2 3@\n$EndElements\n"}, XPBD_ERR_FILE,
     "node number missing", 0, 0, 0, 0},
    {'g', {M22 N22 "$Elements\n2\n1 2 0 1 2 3\n@$EndElements\n"}, XPBD_ERR_FILE,
     "element number: '$EndElements' is not an integer", 0, 0, 0, 0},
    {'g', {M41 "$Foo\nbar\n@"}, XPBD_ERR_FILE, "$Foo not closed by $EndFoo", 0, 0, 0, 0},
    {'g', {M41 "$PhysicalNames\n1\n2 1 @skin\n$EndPhysicalNames\n"}, XPBD_ERR_FILE,
     "not closed by '\"'", 0, 0, 0, 0},
    {'g', {M41 N41 "$Elements\n1 1 1 1\n@3 1 2 1\n1 1 2 3\n$EndElements\n"}, XPBD_ERR_FILE,
     "triangles in an entity of dimension 3", 0, 0, 0, 0},
    {'g', {M41 "$Entities\n0 0 1 0\n1 0 0 0 1 1 0 0 0\n$EndEntities\n" N41
               "$Elements\n1 1 1 1\n@2 7 2 1\n1 1 2 3\n$EndElements\n"},
     XPBD_ERR_FILE, "entity (2, 7) not in $Entities", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0 @5\n1 0 0\n0 1 0\n$EndNodes\n" E41},
     XPBD_ERR_FILE, "unexpected '5'", 0, 0, 0, 0},
    {'g', {M41 N41 "$Elements\n1 2 1 2\n2 1 2 1\n1 1 2 3\n@$EndElements\n"}, XPBD_ERR_FILE,
     "hold 1 elements, the header says 2", 0, 0, 0, 0},
    {'g', {M41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n@7\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n" E41},
     XPBD_ERR_FILE, "node tag 7 outside", 0, 0, 0, 0},
    {'g', {M41 "$Entities\n0 0 2 0\n1 0 0 0 1 1 0 0 0\n@1 0 0 0 1 1 0 0 0\n$EndEntities\n" N41 E41},
     XPBD_ERR_FILE, "surface entity 1 repeated", 0, 0, 0, 0},
    {'g', {M41 N41 E41 "@$EndNodes\n"}, XPBD_ERR_FILE, "closes no section", 0, 0, 0, 0},
    {'g', {M41 N41 E41 "@$Nodes\n"}, XPBD_ERR_FILE, "second $Nodes", 0, 0, 0, 0},
    /* Gmsh 4.1 binary */
    {'b', {NULL}, XPBD_ERR_FILE, "1 in neither byte order", 0, IO_BIN_ENDIAN, 1, 8},
    {'b', {NULL}, XPBD_ERR_FILE, "cut short in parametric coordinate", 0, IO_BIN_TRUNCATED, 0, 8},
    {'b', {NULL}, XPBD_ERR_FILE, "nodes cannot fit", 0, IO_BIN_HUGE_NODES, 1, 8},
    {'b', {NULL}, XPBD_ERR_INDEX, "node tag 99 not in $Nodes", 0, IO_BIN_BAD_NODE, 0, 8},
    {'b', {NULL}, XPBD_ERR_POSITION, "node 1: z is not finite", 0, IO_BIN_NAN, 1, 4},
    {'b', {NULL}, XPBD_ERR_FILE, "element type 99: node count not known", 0, IO_BIN_TYPE, 0, 4},
    {'b', {NULL}, XPBD_ERR_FILE, "hold 4 nodes, the header says 5", 0, IO_BIN_BLOCKS, 1, 8},
    /* replay (xpbd/replay.h): cut short, versions, counts, reals, indices, keywords, inputs */
    {'r', {"@xpbd-replay 6\nprotocol 2\n"}, XPBD_ERR_VERSION, "replay file format 6", 0, 0, 0, 0},
    {'r', {"@xpbd-replay 2\nprotocol 1\n"}, XPBD_ERR_VERSION, "reads formats 3 to 5", 0, 0, 0, 0},
    {'r', {"xpbd-replay 5\n@protocol 1\nreal f64\n"}, XPBD_ERR_VERSION,
     "recorded with step protocol 1, but this build of xpbd speaks protocol 2", 0, 0, 0, 0},
    {'r', {RPH "@config version 1" RPC_FIELDS " threads 1\n" RPO}, XPBD_ERR_VERSION,
     "step configuration of protocol 1, this build speaks 2", 0, 0, 0, 0},
    {'r', {"xpbd-replay 3\nprotocol 2\nreal f64\nh 0x1p-6\nframe 0\nconfig version 2" RPC_FIELDS
           "\n" RPO_FIELDS " max_particles 0\n@colouring 0 0\n" RPP RPE RPT RPN},
     XPBD_ERR_VERSION, "format 3 does not record colouring.runs", 0, 0, 0, 0},
    {'r', {"@solid box\nfacet\n"}, XPBD_ERR_FILE, "not an xpbd replay file", 0, 0, 0, 0},
    {'r', {"\n\n@"}, XPBD_ERR_FILE, "not an xpbd replay file", 0, 0, 0, 0},
    {'r', {"xpbd-replay 5\nprotocol 2\n@"}, XPBD_ERR_FILE, "expected 'real f32' or 'real f64'",
     0, 0, 0, 0},
    {'r', {"xpbd-replay 5\nprotocol 2\n@real f16\n"}, XPBD_ERR_FILE,
     "expected 'real f32' or 'real f64'", 0, 0, 0, 0},
    {'r', {RP_TOP "particles 2 0 0\n" RPP0 "@"}, XPBD_ERR_FILE, "expected a particle line", 0,
     0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT RPI "@"}, XPBD_ERR_FILE, "no 'end' line", 0, 0, 0, 0},
    {'r', {RPH "@config version 2" RPC_FIELDS "\n" RPO}, XPBD_ERR_FILE,
     "the 'config' line misses a field", 0, 0, 0, 0},
    {'r', {RPH "@config version 2" RPC_FIELDS " threads 1 colour 2\n" RPO}, XPBD_ERR_FILE,
     "unknown or incomplete field in the 'config' line", 0, 0, 0, 0},
    {'r', {RP_TOP "@particles 99999 0 0\n" RPP0 RPP1 RPE RPT RPN}, XPBD_ERR_FILE,
     "more particles than the file's lines", 0, 0, 0, 0},
    {'r', {RP_TOP RPP "@edges 99999\ne 0 1 1 0\n" RPT RPN}, XPBD_ERR_FILE,
     "more edges than the file's lines", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "@tets 99999\nbends 0\n"}, XPBD_ERR_FILE,
     "more tets than the file's lines", 0, 0, 0, 0},
    {'r', {RPH RPC RPO_FIELDS " max_particles 1 threads 0\n" RPK "@" RPP RPE RPT RPN},
     XPBD_ERR_FILE, "more particles than the options' max_particles", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 0\nbends 0\nbodies 0\n@planes 9\ncontacts 0\n" RPN},
     XPBD_ERR_FILE, "expected 'planes <count, at most 8>'", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 0\nbends 0\nbodies 0\nplanes 0\n@contacts 1073741824\n" RPN},
     XPBD_ERR_FILE, "contacts beyond the contact set's range", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT RPI "@end 16777217 0123456789abcdef\n"}, XPBD_ERR_FILE,
     "more frames than a replay may hold", 0, 0, 0, 0},
    {'r', {RP_TOP "particles 2 0 0\n@p nan 0 0 0 0 0 0 0 0 1 0 0 0 0\n" RPP1 RPE RPT RPN},
     XPBD_ERR_FILE, "'nan' is not a finite real", 0, 0, 0, 0},
    {'r', {"xpbd-replay 5\nprotocol 2\nreal f64\n@h inf\nframe 0\n" RPC}, XPBD_ERR_FILE,
     "'inf' is not a finite real", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT "@input 0 1 0 2 0 -nan 0\n" RPN}, XPBD_ERR_FILE,
     "'-nan' is not a finite real", 0, 0, 0, 0},
    {'r', {RP_TOP "particles 2 0 0\n@p 0,5 0 0 0 0 0 0 0 0 1 0 0 0 0\n" RPP1 RPE RPT RPN},
     XPBD_ERR_FILE, "malformed particle line", 0, 0, 0, 0},
    {'r', {RP_TOP "particles 2 0 0\n" RPP0 "@p 1 0 0 1 0 0 0 0 0 1 1 0 0 5\n" RPE RPT RPN},
     XPBD_ERR_FILE, "particle 1: origin 5 out of range (2 particles)", 0, 0, 0, 0},
    {'r', {RP_TOP "particles 2 0 1\np 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0\n"
           "@p 1 0 0 1 0 0 0 0 0 1 1 0 0 1 9 1\n" RPE RPT RPN},
     XPBD_ERR_FILE, "particle 1: tether anchor 9 out of range", 0, 0, 0, 0},
    {'r', {RP_TOP RPP "edges 1\n@e 0 2 1 0\n" RPT RPN}, XPBD_ERR_FILE,
     "edge 0: particle 2 out of range (2 particles)", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 1\n@t 0 1 0 7 0\nbends 0\n"}, XPBD_ERR_FILE,
     "tet 0: particle 7 out of range", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 0\nbends 1\n@b 0 1 4 0 0\nbodies 0\n"}, XPBD_ERR_FILE,
     "bend 0: particle 4 out of range", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 0\nbends 0\nbodies 1\n@body 0 3 0 0 0\nplanes 0\n"},
     XPBD_ERR_FILE, "body 0: particles [0, 3) not a range of the 2 particles", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE "tets 0\nbends 0\nbodies 1\n@body 0 2 2 0 0\nplanes 0\n"},
     XPBD_ERR_FILE, "expected a body line", 0, 0, 0, 0},
    {'r', {RP_TOP RPP "@edgez 1\ne 0 1 1 0\n" RPT RPN}, XPBD_ERR_FILE, "expected 'edges <count>'",
     0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT "@impulse 0 1 0 2 0 1 0\n" RPN}, XPBD_ERR_FILE,
     "expected 'input frame kind begin end v0 v1 v2' or 'end'", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT RPI "@input 2 1 0 2 0 1 0\n" RPN}, XPBD_ERR_FILE,
     "input 1 on frame 2, but the file steps frames 0 to 1 only", 0, 0, 0, 0},
    {'r', {RP_TOP RPP RPE RPT "input 1 1 0 2 0 1 0\n@input 0 1 0 2 0 1 0\n" RPN}, XPBD_ERR_FILE,
     "frames must not go backwards", 0, 0, 0, 0},
    {'r', {RP_BASE "@end 2 0123456789abcdef\n"}, XPBD_ERR_FILE, "text after the 'end' line", 0, 0,
     0, 0},
};

/* text without its '@'; *offset and *line: where it was */
static size_t io_unmark(const char *text, char *out, size_t room, size_t *offset, size_t *line)
{
    size_t n = 0, lines = 1;
    *offset = SIZE_MAX;
    for (const char *s = text; *s && n + 1 < room; ++s) {
        if (*s == '@') {
            *offset = n;
            *line = lines;
            continue;
        }
        lines += *s == '\n';
        out[n++] = *s;
    }
    out[n] = '\0';
    if (*offset == n && n > 0 && out[n - 1] == '\n' && *line > 1)
        --*line; /* at the end: the last line */
    return n;
}

static xpbd_status io_row_load(const io_row *r, int from_path, const char *const *text,
                               const size_t *size, xpbd_mesh_data *m, xpbd_io_error *err,
                               int index)
{
    char name[64];
    const xpbd_obj_options opt = {r->scale, XPBD_IO_UP_Y};
    switch (r->format) {
    case 'o':
        if (!from_path)
            return xpbd_io_load_obj_mem(text[0], size[0], &opt, m, err);
        snprintf(name, sizeof name, "row%02d.obj", index);
        if (!io_write(io_path(name), text[0], size[0]))
            return XPBD_SKIPPED;
        return xpbd_io_load_obj(io_path(name), &opt, m, err);
    case 't': {
        if (!from_path)
            return xpbd_io_load_tetgen_mem(text[0], size[0], text[1], size[1], text[2], size[2],
                                           m, err);
        static const char *const ext[3] = {"node", "ele", "face"};
        for (int k = 0; k < 3; ++k) {
            snprintf(name, sizeof name, "row%02d.%s", index, ext[k]);
            remove(io_path(name));
            if (text[k] && !io_write(io_path(name), text[k], size[k]))
                return XPBD_SKIPPED;
        }
        snprintf(name, sizeof name, "row%02d", index);
        return xpbd_io_load_tetgen(io_path(name), m, err);
    }
    default:
        if (!from_path)
            return xpbd_io_load_gmsh_mem(text[0], size[0], m, err);
        snprintf(name, sizeof name, "row%02d.msh", index);
        if (!io_write(io_path(name), text[0], size[0]))
            return XPBD_SKIPPED;
        return xpbd_io_load_gmsh(io_path(name), m, err);
    }
}

/* A replay row: refused alike from memory and from its path, with its
 * status, its line and a part of the message, *out zeroed (so nothing is
 * left allocated: ASan's leak check on the sanitized builds). */
static void io_replay_row(const io_row *r, size_t index, const char *text, size_t size,
                          size_t want_line, xpbd_replay_error *first)
{
    char name[64];
    snprintf(name, sizeof name, "row%02zu.xrp", index);
    if (!io_write(io_path(name), text, size)) {
        ENSURE(!"row file written");
        return;
    }
    static const xpbd_replay_file zero;
    for (int from_path = 0; from_path < 2; ++from_path) {
        xpbd_replay_file f;
        xpbd_replay_error err;
        memset(&f, 0xab, sizeof f);
        memset(&err, 0xcd, sizeof err);
        const xpbd_status st = from_path ? xpbd_replay_load(io_path(name), &f, &err)
                                         : xpbd_replay_load_mem(text, size, &f, &err);
        ENSURE_STATUS(st, r->want);
        ENSURE(memcmp(&f, &zero, sizeof f) == 0);
        ENSURE(memchr(err.what, '\0', sizeof err.what) != NULL);
        ENSURE(strstr(err.what, r->what) != NULL);
        ENSURE_INT(err.line, want_line);
        if (from_path == 0)
            *first = err;
        else
            ENSURE(memcmp(first, &err, sizeof err) == 0); /* the same report */
        if (st == XPBD_OK)
            xpbd_replay_free(&f);
    }
}

static void io_catalogue(void)
{
    const size_t rows = sizeof io_rows / sizeof io_rows[0];
    ENSURE(rows >= 30);
    static char buf[3][4096];
    static io_bw w;
    size_t failed_rows = 0, per_format[5] = {0, 0, 0, 0, 0};
    /* the replay rows' base file loads: each row fails for its own fault */
    xpbd_replay_file base;
    xpbd_replay_error base_err;
    ENSURE_STATUS(xpbd_replay_load_mem(RP_BASE, strlen(RP_BASE), &base, &base_err), XPBD_OK);
    ENSURE(base.n == 2 && base.edges == 1 && base.inputs == 1 && base.frames == 2);
    xpbd_replay_free(&base);
    for (size_t i = 0; i < rows; ++i) {
        const io_row *r = &io_rows[i];
        const unsigned long before = xt_failures;
        ++per_format[strchr("otgbr", r->format) - "otgbr"];
        if (r->format == 'r') {
            size_t off, line = 0;
            const size_t size = io_unmark(r->text[0], buf[0], sizeof buf[0], &off, &line);
            ENSURE(off != SIZE_MAX); /* every row marks its fault */
            xpbd_replay_error first;
            memset(&first, 0, sizeof first);
            io_replay_row(r, i, buf[0], size, line, &first);
            if (xt_failures != before) {
                ++failed_rows;
                fprintf(stderr, "      row %zu (r): what '%s', line %zu\n", i, first.what,
                        first.line);
            }
            continue;
        }
        const char *text[3] = {NULL, NULL, NULL};
        size_t size[3] = {0, 0, 0}, want_offset = SIZE_MAX, want_line = 0;
        if (r->format == 'b') {
            io_msh41_binary(&w, r->le, r->ds, r->variant);
            text[0] = (const char *)w.buf;
            size[0] = w.n;
            want_offset = w.mark;
        } else {
            for (int k = 0; k < 3; ++k) {
                if (!r->text[k])
                    continue;
                size_t off, line = 0;
                size[k] = io_unmark(r->text[k], buf[k], sizeof buf[k], &off, &line);
                text[k] = buf[k];
                if (off != SIZE_MAX) {
                    want_offset = off;
                    want_line = line;
                }
            }
            ENSURE(want_offset != SIZE_MAX); /* every text row marks its fault */
        }
        xpbd_io_error first;
        for (int from_path = 0; from_path < 2; ++from_path) {
            xpbd_mesh_data m;
            xpbd_io_error err;
            memset(&m, 0xab, sizeof m);
            memset(&err, 0xcd, sizeof err);
            const xpbd_status st = io_row_load(r, from_path, text, size, &m, &err, (int)i);
            if (st == XPBD_SKIPPED) {
                ENSURE(!"row file written");
                continue;
            }
            ENSURE_STATUS(st, r->want);
            ENSURE(xt_all_zero(&m, sizeof m));
            ENSURE(memchr(err.what, '\0', sizeof err.what) != NULL);
            ENSURE(strstr(err.what, r->what) != NULL);
            ENSURE_INT(err.line, want_line);
            ENSURE_INT(err.byte_offset, want_offset);
            ENSURE_INT(err.skipped, 0);
            if (from_path == 0)
                first = err;
            else
                ENSURE(memcmp(&first, &err, sizeof err) == 0); /* the same report */
            if (st == XPBD_OK)
                xpbd_mesh_data_free(&m);
        }
        if (xt_failures != before) {
            ++failed_rows;
            fprintf(stderr, "      row %zu (%c): what '%s', line %zu, offset %zu\n", i,
                    r->format, first.what, first.line, first.byte_offset);
        }
    }
    printf("      %zu rows (OBJ %zu, TetGen %zu, Gmsh %zu text + %zu binary, replay %zu), "
           "%zu failed\n",
           rows, per_format[0], per_format[1], per_format[2], per_format[3], per_format[4],
           failed_rows);
}

/* ---------------------------------------------------- a real mesher --- */

/* 2 x 1 x 0.5 box as a piecewise linear complex, one region */
static const char io_box_poly[] = "# box 2 x 1 x 0.5\n"
                                  "8 3 0 0\n"
                                  "1 0 0 0\n2 2 0 0\n3 2 1 0\n4 0 1 0\n"
                                  "5 0 0 0.5\n6 2 0 0.5\n7 2 1 0.5\n8 0 1 0.5\n"
                                  "6 1\n"
                                  "1 0 1\n4 1 2 3 4\n"
                                  "1 0 2\n4 5 6 7 8\n"
                                  "1 0 3\n4 1 2 6 5\n"
                                  "1 0 4\n4 2 3 7 6\n"
                                  "1 0 5\n4 3 4 8 7\n"
                                  "1 0 6\n4 4 1 5 8\n"
                                  "0\n"
                                  "1\n1 1 1 0.25 7 0\n";

static void io_check_box(const xpbd_mesh_data *m, int labels)
{
    REQUIRE(m->tets > 0);
    REQUIRE(m->triangles > 0);
    for (size_t k = 0; k < 4 * m->tets; ++k)
        ENSURE(m->tet[k] < m->particles);
    for (size_t k = 0; k < 3 * m->triangles; ++k)
        ENSURE(m->triangle[k] < m->particles);
    double volume = 0, area = 0;
    for (size_t t = 0; t < m->tets; ++t) {
        const double *x0 = m->xyz + 3 * m->tet[4 * t], *x1 = m->xyz + 3 * m->tet[4 * t + 1];
        const double *x2 = m->xyz + 3 * m->tet[4 * t + 2], *x3 = m->xyz + 3 * m->tet[4 * t + 3];
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = x1[k] - x0[k];
            b[k] = x2[k] - x0[k];
            c[k] = x3[k] - x0[k];
        }
        volume += fabs(io_triple(a, b, c, NULL)) / 6;
        if (labels)
            ENSURE_INT(m->tet_label ? m->tet_label[t] : -1, 7);
    }
    for (size_t f = 0; f < m->triangles; ++f) {
        const double *x0 = m->xyz + 3 * m->triangle[3 * f];
        const double *x1 = m->xyz + 3 * m->triangle[3 * f + 1];
        const double *x2 = m->xyz + 3 * m->triangle[3 * f + 2];
        double a[3], b[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = x1[k] - x0[k];
            b[k] = x2[k] - x0[k];
        }
        double n[3];
        io_cross3(a, b, n);
        area += sqrt(io_dot3(n, n)) / 2;
        ENSURE(m->triangle_label && m->triangle_label[f] >= 1 && m->triangle_label[f] <= 6);
    }
    ENSURE_NEAR(volume, 1.0, 1e-12);
    ENSURE_NEAR(area, 7.0, 7e-12);
    ENSURE((m->tet_label != NULL) == (labels != 0));
    printf("      %zu points, %zu tets, %zu boundary triangles: volume %.17g, area %.17g\n",
           m->particles, m->tets, m->triangles, volume, area);
}

static void io_mesher(void)
{
    if (system("command -v tetgen >/dev/null 2>&1") != 0) {
        printf("      tetgen is not on PATH (Debian: apt-get install tetgen): skipped\n");
        io_skipped = 1;
        return;
    }
    REQUIRE(io_write(io_path("box.poly"), io_box_poly, sizeof io_box_poly - 1));
    REQUIRE(io_write(io_path("box0.poly"), io_box_poly, sizeof io_box_poly - 1));
    char cmd[4096];
    /* quality 1.5, tets of at most 0.005 (a few hundred), numbered from 1;
     * then from 0 (-z) with the region attribute (-A) */
    snprintf(cmd, sizeof cmd, "tetgen -pq1.5a0.005 '%s' >'%s' 2>&1", io_path("box.poly"),
             io_path("tetgen.log"));
    REQUIRE(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "tetgen -pq1.5a0.005zA '%s' >'%s' 2>&1", io_path("box0.poly"),
             io_path("tetgen0.log"));
    REQUIRE(system(cmd) == 0);
    xpbd_mesh_data one, zero;
    xpbd_io_error err;
    const xpbd_status st = xpbd_io_load_tetgen(io_path("box.1.node"), &one, &err);
    if (st != XPBD_OK)
        fprintf(stderr, "box.1: %s, line %zu\n", err.what, err.line);
    REQUIRE_STATUS(st, XPBD_OK);
    io_check_box(&one, 0);
    REQUIRE_STATUS(xpbd_io_load_tetgen(io_path("box0.1"), &zero, &err), XPBD_OK);
    io_check_box(&zero, 1);
    /* the same mesh, numbered from 0 */
    ENSURE_INT(zero.particles, one.particles);
    ENSURE_INT(zero.tets, one.tets);
    if (zero.particles == one.particles && zero.tets == one.tets) {
        IO_SAME(zero.xyz, one.xyz, 3 * one.particles, "%.17g");
        IO_SAME(zero.tet, one.tet, 4 * one.tets, "%u");
    }
    xpbd_mesh_data_free(&one);
    xpbd_mesh_data_free(&zero);
}

/* ------------------------------------------------------- results out --- */

static int io_same_bits(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n) == 0;
}

/* after `key` in s, the text from the next '>' on (XML: the element's
 * content) or right after key (xml = 0); NULL if key is not there */
static const char *io_after(const char *s, const char *key, int xml)
{
    const char *p = s ? strstr(s, key) : NULL;
    if (!p)
        return NULL;
    p += strlen(key);
    if (xml) {
        p = strchr(p, '>');
        if (p)
            ++p;
    }
    return p;
}

/* n reals (doubles) parsed from *p on; 0 if one does not parse */
static int io_reals(const char *p, double *out, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        char *end;
        if (!p)
            return 0;
        out[k] = strtod(p, &end);
        if (end == p)
            return 0;
        p = end;
    }
    return 1;
}

static int io_uints(const char *p, unsigned long *out, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        char *end;
        if (!p)
            return 0;
        out[k] = strtoul(p, &end, 10);
        if (end == p)
            return 0;
        p = end;
    }
    return 1;
}

/* two tets sharing face 1 2 3, and a triangle; reals that need all 17 digits */
static const double io_ex_xyz[15] = {0.1, 1.0 / 3.0, -2.5e-300, 1e300, 2.0 / 3.0, -0.7,
                                     0.2, 1.1,  7.0,       -1.0 / 7.0, 0.3, 0.9,
                                     5e-324, -0.0, 123456789.123456789};
static const double io_ex_vel[15] = {1, 2, 3, -4.25, 0.1, 0, 0, 0, 1e-17, 9, 8, 7, 0.5, 0.25,
                                     -1.0 / 3.0};
static const double io_ex_strain[5] = {0, 0.125, 1.0 / 9.0, 3, -2};
static const uint32_t io_ex_tet[8] = {0, 1, 2, 3, 1, 2, 3, 4};
static const uint32_t io_ex_tri[3] = {0, 1, 4};

static xpbd_io_frame io_ex_frame(xpbd_io_point_array *arr)
{
    arr->name = "max_strain";
    arr->values = io_ex_strain;
    const xpbd_io_frame fr = {.points = 5, .xyz = io_ex_xyz, .vel = io_ex_vel, .tets = 2,
                              .tet = io_ex_tet, .triangles = 1, .triangle = io_ex_tri,
                              .arrays = 1, .array = arr};
    return fr;
}

static void io_export_vtu(void)
{
    xpbd_io_point_array arr;
    const xpbd_io_frame fr = io_ex_frame(&arr);
    const char *path = io_path("frame.vtu");
    remove(path);
    REQUIRE_STATUS(xpbd_io_write_vtu(path, &fr), XPBD_OK);
    char *s = xt_read_file(path, NULL);
    REQUIRE(s != NULL);
    ENSURE(strstr(s, "<VTKFile type=\"UnstructuredGrid\"") != NULL);
    ENSURE(strstr(s, "NumberOfPoints=\"5\" NumberOfCells=\"3\"") != NULL);
    double xyz[15], vel[15], strain[5];
    ENSURE(io_reals(io_after(io_after(s, "<Points>", 0), "<DataArray", 1), xyz, 15));
    IO_SAME(xyz, io_ex_xyz, 15, "%.17g");
    ENSURE(io_reals(io_after(s, "Name=\"velocity\" NumberOfComponents=\"3\"", 1), vel, 15));
    IO_SAME(vel, io_ex_vel, 15, "%.17g");
    ENSURE(io_reals(io_after(s, "Name=\"max_strain\"", 1), strain, 5));
    IO_SAME(strain, io_ex_strain, 5, "%.17g");
    unsigned long conn[11], off[3], type[3];
    static const unsigned long want_conn[11] = {0, 1, 2, 3, 1, 2, 3, 4, 0, 1, 4};
    static const unsigned long want_off[3] = {4, 8, 11}, want_type[3] = {10, 10, 5};
    ENSURE(io_uints(io_after(s, "Name=\"connectivity\"", 1), conn, 11));
    ENSURE(io_uints(io_after(s, "Name=\"offsets\"", 1), off, 3));
    ENSURE(io_uints(io_after(s, "Name=\"types\"", 1), type, 3));
    IO_SAME(conn, want_conn, 11, "%lu");
    IO_SAME(off, want_off, 3, "%lu");
    IO_SAME(type, want_type, 3, "%lu");
    ENSURE(strstr(s, "</VTKFile>\n") != NULL);
    free(s);
    ENSURE(!xt_file_exists(io_path("frame.vtu.part")));
}

static void io_export_vtk(void)
{
    xpbd_io_point_array arr;
    const xpbd_io_frame fr = io_ex_frame(&arr);
    const char *path = io_path("frame.vtk");
    remove(path);
    REQUIRE_STATUS(xpbd_io_write_vtk(path, &fr), XPBD_OK);
    char *s = xt_read_file(path, NULL);
    REQUIRE(s != NULL);
    ENSURE(strncmp(s, "# vtk DataFile Version 3.0\n", 27) == 0);
    ENSURE(strstr(s, "\nASCII\nDATASET UNSTRUCTURED_GRID\n") != NULL);
    double xyz[15], vel[15], strain[5];
    ENSURE(io_reals(io_after(s, "\nPOINTS 5 double\n", 0), xyz, 15));
    IO_SAME(xyz, io_ex_xyz, 15, "%.17g");
    unsigned long cells[14], types[3];
    static const unsigned long want_cells[14] = {4, 0, 1, 2, 3, 4, 1, 2, 3, 4, 3, 0, 1, 4};
    static const unsigned long want_types[3] = {10, 10, 5};
    ENSURE(io_uints(io_after(s, "\nCELLS 3 14\n", 0), cells, 14));
    IO_SAME(cells, want_cells, 14, "%lu");
    ENSURE(io_uints(io_after(s, "\nCELL_TYPES 3\n", 0), types, 3));
    IO_SAME(types, want_types, 3, "%lu");
    ENSURE(strstr(s, "\nPOINT_DATA 5\n") != NULL);
    ENSURE(io_reals(io_after(s, "\nVECTORS velocity double\n", 0), vel, 15));
    IO_SAME(vel, io_ex_vel, 15, "%.17g");
    ENSURE(io_reals(io_after(s, "\nSCALARS max_strain double 1\nLOOKUP_TABLE default\n", 0),
                    strain, 5));
    IO_SAME(strain, io_ex_strain, 5, "%.17g");
    free(s);
}

static void io_export_pvd(void)
{
    const char *files[4] = {"frame_0000.vtu", "frame_0001.vtu", "sub/frame_0002.vtu",
                            "frame_0003.vtu"};
    const double times[4] = {1.0 / 60.0, 2.0 / 60.0, 0.05, 1e-3};
    const char *path = io_path("run.pvd");
    for (size_t count = 1; count <= 4; ++count) {
        REQUIRE_STATUS(xpbd_io_write_pvd(path, count, files, times), XPBD_OK);
        char *s = xt_read_file(path, NULL);
        REQUIRE(s != NULL);
        ENSURE(strstr(s, "<VTKFile type=\"Collection\"") != NULL);
        ENSURE(strstr(s, "</Collection>\n</VTKFile>\n") != NULL);
        const char *p = s;
        size_t k = 0;
        while ((p = strstr(p, "<DataSet timestep=\"")) != NULL) {
            p += strlen("<DataSet timestep=\"");
            double t;
            ENSURE(io_reals(p, &t, 1));
            const char *q = strstr(p, "file=\"");
            REQUIRE(q != NULL);
            q += 6;
            const char *e = strchr(q, '"');
            REQUIRE(e != NULL);
            if (k < count) {
                ENSURE(io_same_bits(&t, &(double){times[k]}, sizeof(t)));
                ENSURE((size_t)(e - q) == strlen(files[k]) && strncmp(q, files[k], strlen(files[k])) == 0);
            }
            ++k;
        }
        ENSURE_INT(k, count);
        free(s);
    }
    const char *bad[1] = {"a\"b.vtu"};
    ENSURE_STATUS(xpbd_io_write_pvd(path, 1, bad, times), XPBD_ERR_ARGUMENT);
    const double inf[1] = {HUGE_VAL};
    ENSURE_STATUS(xpbd_io_write_pvd(path, 1, files, inf), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_write_pvd(NULL, 1, files, times), XPBD_ERR_ARGUMENT);
}

static uint32_t io_le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void io_export_pc2(void)
{
    enum { P = 5, S = 4 };
    double xyz[S][3 * P];
    for (size_t s = 0; s < S; ++s)
        for (size_t k = 0; k < 3 * P; ++k)
            xyz[s][k] = io_ex_xyz[k] * (double)(s + 1) * 1e-3 + 0.1 * (double)k + (double)s / 3.0;
    xyz[1][0] = 1e300; /* rounds to +inf in float */
    char path[1100];
    snprintf(path, sizeof path, "%s", io_path("run.pc2"));
    remove(path);
    xpbd_io_pc2_writer *w = NULL;
    REQUIRE_STATUS(xpbd_io_pc2_open(&w, path, P, 1.5f, 0.25f), XPBD_OK);
    for (size_t s = 0; s < S; ++s)
        REQUIRE_STATUS(xpbd_io_pc2_append(w, xyz[s]), XPBD_OK);
    ENSURE(!xt_file_exists(path)); /* not in place before close */
    REQUIRE_STATUS(xpbd_io_pc2_close(w), XPBD_OK);
    ENSURE(!xt_file_exists(io_path("run.pc2.part")));
    size_t size;
    unsigned char *b = (unsigned char *)xt_read_file(path, &size);
    REQUIRE(b != NULL);
    ENSURE_INT(size, 32 + (size_t)S * P * 12);
    ENSURE(memcmp(b, "POINTCACHE2\0", 12) == 0);
    ENSURE_INT(io_le32(b + 12), 1);
    ENSURE_INT(io_le32(b + 16), P);
    float start, rate;
    uint32_t u = io_le32(b + 20);
    memcpy(&start, &u, 4);
    u = io_le32(b + 24);
    memcpy(&rate, &u, 4);
    ENSURE(io_same_bits(&start, &(float){1.5f}, sizeof(start)));
    ENSURE(io_same_bits(&rate, &(float){0.25f}, sizeof(rate)));
    ENSURE_INT(io_le32(b + 28), S);
    for (size_t k = 0; k < (size_t)S * P * 3 && size == 32 + (size_t)S * P * 12; ++k) {
        const float want = (float)xyz[k / (3 * P)][k % (3 * P)];
        uint32_t wb;
        memcpy(&wb, &want, 4);
        if (io_le32(b + 32 + 4 * k) != wb) {
            ENSURE_INT(io_le32(b + 32 + 4 * k), wb);
            break;
        }
    }
    free(b);
    xpbd_io_pc2 pc;
    REQUIRE_STATUS(xpbd_io_read_pc2(path, &pc), XPBD_OK);
    ENSURE_INT(pc.points, P);
    ENSURE_INT(pc.samples, S);
    ENSURE(io_same_bits(&pc.start_frame, &(float){1.5f}, sizeof(pc.start_frame)));
    ENSURE(io_same_bits(&pc.sample_rate, &(float){0.25f}, sizeof(pc.sample_rate)));
    float want[S * P * 3];
    for (size_t k = 0; k < (size_t)S * P * 3; ++k)
        want[k] = (float)xyz[k / (3 * P)][k % (3 * P)];
    ENSURE(pc.xyz && memcmp(pc.xyz, want, sizeof want) == 0);
    xpbd_io_pc2_free(&pc);
    ENSURE(pc.xyz == NULL);
    /* no sample: a valid, empty cache */
    REQUIRE_STATUS(xpbd_io_pc2_open(&w, path, 2, 0.0f, 1.0f), XPBD_OK);
    REQUIRE_STATUS(xpbd_io_pc2_close(w), XPBD_OK);
    REQUIRE_STATUS(xpbd_io_read_pc2(path, &pc), XPBD_OK);
    ENSURE_INT(pc.points, 2);
    ENSURE_INT(pc.samples, 0);
    xpbd_io_pc2_free(&pc);
    /* a cut file is refused, *out zeroed */
    static const unsigned char cut[36] = "POINTCACHE2\0\1\0\0\0\1\0\0\0\0\0\0\0\0\0\200\77\1\0\0\0";
    REQUIRE(io_write(io_path("cut.pc2"), cut, sizeof cut));
    ENSURE_STATUS(xpbd_io_read_pc2(io_path("cut.pc2"), &pc), XPBD_ERR_FILE);
    ENSURE(pc.xyz == NULL && pc.points == 0);
    ENSURE_STATUS(xpbd_io_pc2_open(&w, path, 0, 0.0f, 1.0f), XPBD_ERR_ARGUMENT);
    ENSURE(w == NULL);
    ENSURE_STATUS(xpbd_io_pc2_append(NULL, xyz[0]), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_pc2_close(NULL), XPBD_ERR_ARGUMENT);
    /* discard: nothing written, the old file kept */
    REQUIRE_STATUS(xpbd_io_pc2_open(&w, path, P, 1.0f, 1.0f), XPBD_OK);
    REQUIRE_STATUS(xpbd_io_pc2_append(w, xyz[0]), XPBD_OK);
    xpbd_io_pc2_discard(w);
    ENSURE(!xt_file_exists(io_path("run.pc2.part")));
    REQUIRE_STATUS(xpbd_io_read_pc2(path, &pc), XPBD_OK);
    ENSURE_INT(pc.points, 2);
    xpbd_io_pc2_free(&pc);
}

static void io_export_obj(void)
{
    static const uint32_t tri[12] = {0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3};
    const char *path = io_path("rest.obj");
    REQUIRE_STATUS(xpbd_io_write_obj(path, 5, io_ex_xyz, 4, tri), XPBD_OK);
    xpbd_mesh_data m;
    xpbd_io_error err;
    REQUIRE_STATUS(xpbd_io_load_obj(path, NULL, &m, &err), XPBD_OK);
    io_expect(&m, io_ex_xyz, 5, tri, 4, NULL, NULL, 0, NULL);
    xpbd_mesh_data_free(&m);
    ENSURE_STATUS(xpbd_io_write_obj(path, 0, io_ex_xyz, 0, NULL), XPBD_ERR_ARGUMENT);
    static const uint32_t far[3] = {0, 1, 5};
    ENSURE_STATUS(xpbd_io_write_obj(path, 5, io_ex_xyz, 1, far), XPBD_ERR_INDEX);
}

/* refusals and failed writes: no file left behind, a previous one kept */
static void io_export_fail(void)
{
    xpbd_io_point_array arr;
    xpbd_io_frame fr = io_ex_frame(&arr);
    char missing[1100];
    snprintf(missing, sizeof missing, "%s", io_path("no_such_dir/frame.vtu"));
    ENSURE_STATUS(xpbd_io_write_vtu(missing, &fr), XPBD_ERR_FILE);
    ENSURE_STATUS(xpbd_io_write_vtk(missing, &fr), XPBD_ERR_FILE);
    ENSURE_STATUS(xpbd_io_write_pvd(io_path("no_such_dir/run.pvd"), 0, NULL, NULL), XPBD_ERR_FILE);
    ENSURE_STATUS(xpbd_io_write_obj(io_path("no_such_dir/rest.obj"), 5, io_ex_xyz, 0, NULL),
                  XPBD_ERR_FILE);
    xpbd_io_pc2_writer *w = (xpbd_io_pc2_writer *)&fr;
    ENSURE_STATUS(xpbd_io_pc2_open(&w, io_path("no_such_dir/run.pc2"), 5, 0.0f, 1.0f),
                  XPBD_ERR_FILE);
    ENSURE(w == NULL);
    ENSURE(!xt_file_exists(missing) && !xt_file_exists(io_path("no_such_dir/frame.vtu.part")));
    /* the target is a directory (the work directory itself): the .part file
     * beside it is written, the rename fails, the .part file is removed */
    char part[1100];
    snprintf(part, sizeof part, "%s.part", io_dir);
    ENSURE_STATUS(xpbd_io_write_vtu(io_dir, &fr), XPBD_ERR_FILE);
    ENSURE(!xt_file_exists(part));
    ENSURE_STATUS(xpbd_io_write_vtk(io_dir, &fr), XPBD_ERR_FILE);
    ENSURE(!xt_file_exists(part));
    REQUIRE_STATUS(xpbd_io_pc2_open(&w, io_dir, 5, 0.0f, 1.0f), XPBD_OK);
    REQUIRE_STATUS(xpbd_io_pc2_append(w, io_ex_xyz), XPBD_OK);
    ENSURE_STATUS(xpbd_io_pc2_close(w), XPBD_ERR_FILE);
    ENSURE(!xt_file_exists(part));
    /* bad frames are refused before anything is opened; the old file kept */
    char path[1100];
    snprintf(path, sizeof path, "%s", io_path("kept.vtu"));
    REQUIRE_STATUS(xpbd_io_write_vtu(path, &fr), XPBD_OK);
    size_t before, after;
    char *a = xt_read_file(path, &before);
    xpbd_io_frame bad = fr;
    static const uint32_t far[8] = {0, 1, 2, 3, 1, 2, 3, 5};
    bad.tet = far;
    ENSURE_STATUS(xpbd_io_write_vtu(path, &bad), XPBD_ERR_INDEX);
    double nan_xyz[15];
    memcpy(nan_xyz, io_ex_xyz, sizeof nan_xyz);
    nan_xyz[4] = NAN;
    bad = fr;
    bad.xyz = nan_xyz;
    ENSURE_STATUS(xpbd_io_write_vtk(path, &bad), XPBD_ERR_POSITION);
    xpbd_io_point_array two[2] = {{"a", io_ex_strain}, {"a", io_ex_strain}};
    bad = fr;
    bad.array = two;
    bad.arrays = 2;
    ENSURE_STATUS(xpbd_io_write_vtu(path, &bad), XPBD_ERR_ARGUMENT);
    two[1].name = "has space";
    ENSURE_STATUS(xpbd_io_write_vtu(path, &bad), XPBD_ERR_ARGUMENT);
    bad = fr;
    bad.xyz = NULL;
    ENSURE_STATUS(xpbd_io_write_vtu(path, &bad), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_write_vtu(path, NULL), XPBD_ERR_ARGUMENT);
    ENSURE_STATUS(xpbd_io_write_vtk(NULL, &fr), XPBD_ERR_ARGUMENT);
    char *b = xt_read_file(path, &after);
    ENSURE(a && b && before == after && memcmp(a, b, before) == 0);
    free(a);
    free(b);
    /* the interleaving helpers */
    const float xf[2] = {1.5f, 0.1f}, yf[2] = {2, -3}, zf[2] = {0.25f, 7};
    double out[6];
    xpbd_io_interleave_f32(2, xf, yf, zf, out);
    const double want[6] = {1.5, 2, 0.25, (double)0.1f, -3, 7};
    IO_SAME(out, want, 6, "%.17g");
    const double xd[1] = {0.1}, yd[1] = {0.2}, zd[1] = {0.3};
    xpbd_io_interleave_f64(1, xd, yd, zd, out);
    const double wantd[3] = {0.1, 0.2, 0.3};
    IO_SAME(out, wantd, 3, "%.17g");
}

/* ------------------------------------------------------------ runner --- */

static const xt_test io_tests[] = {
    {"io.status", io_status},
    {"io.obj.features", io_obj_features},
    {"io.obj.options", io_obj_options},
    {"io.tetgen.one_based", io_tetgen_one_based},
    {"io.tetgen.zero_based", io_tetgen_zero_based},
    {"io.gmsh.v41", io_gmsh_41},
    {"io.gmsh.v22", io_gmsh_22},
    {"io.catalogue", io_catalogue},
    {"io.mesher.box", io_mesher},
    {"io.export.vtu", io_export_vtu},
    {"io.export.vtk", io_export_vtk},
    {"io.export.pvd", io_export_pvd},
    {"io.export.pc2", io_export_pc2},
    {"io.export.obj", io_export_obj},
    {"io.export.fail", io_export_fail},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    int first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--dir") == 0 && first + 1 < argc) {
            io_dir = argv[first + 1];
            first += 2;
        } else if (strcmp(argv[first], "--data") == 0 && first + 1 < argc) {
            io_data = argv[first + 1];
            first += 2;
        } else {
            fprintf(stderr, "usage: xpbd-io-tests [--dir DIR] [--data DATA] [PREFIX...]\n");
            return 2;
        }
    }
    unsigned passed = 0, failed = 0, skipped = 0;
    const xt_test *tables[2] = {io_tests, io_mesh_tests};
    for (int table = 0; table < 2; ++table) {
        for (const xt_test *x = tables[table]; x->name; ++x) {
            int chosen = first >= argc;
            for (int i = first; i < argc; ++i)
                chosen |= strncmp(x->name, argv[i], strlen(argv[i])) == 0;
            if (!chosen)
                continue;
            current_test = x->name;
            xt_failures = 0;
            io_skipped = 0;
            x->fn();
            if (xt_failures) {
                ++failed;
                printf("FAIL  %s (%lu failed checks)\n", x->name, xt_failures);
            } else if (io_skipped) {
                ++skipped;
                printf("skip  %s\n", x->name);
            } else {
                ++passed;
                printf("ok    %s\n", x->name);
            }
            fflush(stdout);
        }
    }
    if (passed + failed + skipped == 0) {
        fprintf(stderr, "xpbd-io-tests: no test matches the given prefix\n");
        return 2;
    }
    printf("%u passed, %u failed%s\n", passed, failed, skipped ? ", some skipped" : "");
    if (failed)
        return 1;
    return passed == 0 ? 77 : 0;
}
