/* SPDX-License-Identifier: MIT */
/* io_files.h: the mesh files of the loader tests (test_io.c,
 * test_io_alloc.c): texts of every format and a writer of Gmsh 4.1 binary
 * files in either byte order. */
#ifndef XPBD_TEST_IO_FILES_H
#define XPBD_TEST_IO_FILES_H

#include <xpbd/io.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* OBJ: every corner form, a quad, n-gons, negative indices, CRLF and LF,
 * comments, a joined line, vertex weights and colours, skipped statements. */
static const char io_obj_forms[] =
    "# a test OBJ\r\n"
    "mtllib test.mtl\r\n"
    "o thing\r\n"
    "v 0 0 0\r\n"
    "v 1 0 0\n"
    "v 1 1 0   # a comment after the values\n"
    "v 0 1 0 1.0\n"
    "v 0.5 0.5 1 0.1 0.2 0.3\n"
    "\n"
    "v 2 0 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\n"
    "vn 0 0 1\n"
    "g group\ns 1\nusemtl mat\n"
    "f 1 2 3\n"
    "f 1/1 3/3 4/2\r\n"
    "f 1//1 2//1 5//1\n"
    "f 1/1/1 2/2/1 3/3/1 4/1/1\n"
    "f -6 -5 -4 -3 -2\n"
    "v 3 0 0\n"
    "f -1 -2 -3\n"
    "f 7/-1 6 5 \\\n 4\n"
    "l 1 2\n"
    "p 3\n";
static const double io_obj_forms_xyz[] = {0, 0, 0, 1, 0, 0, 1,   1,   0, 0, 1, 0,
                                          0.5, 0.5, 1, 2, 0, 0, 3, 0, 0};
static const uint32_t io_obj_forms_tri[] = {0, 1, 2, 0, 2, 3, 0, 1, 4, 0, 1, 2, 0, 2, 3, 0, 1,
                                            2, 0, 2, 3, 0, 3, 4, 6, 5, 4, 6, 5, 4, 6, 4, 3};

/* TetGen, numbered from 1: two point attributes and markers, a region
 * attribute and a second attribute, face markers and a -nn line. */
static const char io_tg1_node[] = "# five points\n"
                                  "5 3 2 1\n"
                                  "1  0 0 0   0.5 7   1\n"
                                  "2  1 0 0   0.5 7   1\n"
                                  "\n"
                                  "3  0 1 0   0.5 7   1\n"
                                  "4  0 0 1   0.5 7   1\n"
                                  "5  1 1 1   0.5 7   0   # last\n";
static const char io_tg1_ele[] = "2 4 2\n"
                                 "1  1 2 3 4   7 0.25\n"
                                 "2  2 3 4 5  -3 0.5\n";
static const char io_tg1_face[] = "3 1\n"
                                  "1  1 2 3  10\n"
                                  "2  1 2 4  -2\n"
                                  "3  2 3 5  0  4 -1\n";
static const double io_tg_xyz[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};

/* TetGen, numbered from 0, header defaults left out, a 10-node .ele. */
static const char io_tg0_node[] = "5 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 1 1 1\n";
static const char io_tg0_ele[] = "2 10\n"
                                 "0  0 1 2 3  1 2 3 0 1 2\n"
                                 "1  1 2 3 4  4 4 4 4 4 4\n";

/* Gmsh 4.1 ASCII: physical names of dimensions 1 to 3, a skipped section,
 * entities with physical groups, two node blocks (one parametric) with
 * tags that are not consecutive, lines and points skipped. */
static const char io_msh41[] = "$MeshFormat\n"
                               "4.1 0 8\n"
                               "$EndMeshFormat\n"
                               "$PhysicalNames\n"
                               "3\n"
                               "1 5 \"edge\"\n"
                               "2 10 \"skin\"\n"
                               "3 20 \"body part\"\n"
                               "$EndPhysicalNames\n"
                               "$Comments\n"
                               "anything here\n"
                               "$EndComments\n"
                               "$Entities\n"
                               "1 1 1 1\n"
                               "1 0 0 0 0\n"
                               "1 0 0 0 1 0 0 1 5 2 1 -1\n"
                               "1 0 0 0 1 1 0 1 10 0\n"
                               "1 0 0 0 1 1 1 2 20 21 1 1\n"
                               "$EndEntities\n"
                               "$Nodes\n"
                               "2 5 10 50\n"
                               "2 1 0 3\n"
                               "10\n20\n30\n"
                               "0 0 0\n1 0 0\n0 1 0\n"
                               "3 1 1 2\n"
                               "40\n50\n"
                               "0 0 1 0.1 0.2 0.3\n"
                               "1 1 1 0.5 0.5 0.5\n"
                               "$EndNodes\n"
                               "$Elements\n"
                               "4 6 1 6\n"
                               "1 1 1 1\n"
                               "1 10 20\n"
                               "2 1 2 2\n"
                               "2 10 20 30\n"
                               "3 20 40 50\n"
                               "3 1 4 2\n"
                               "4 10 20 30 40\n"
                               "5 20 30 40 50\n"
                               "0 1 15 1\n"
                               "6 10\n"
                               "$EndElements\n";
static const uint32_t io_msh_tri[] = {0, 1, 2, 1, 3, 4};
static const uint32_t io_msh_tet[] = {0, 1, 2, 3, 1, 2, 3, 4};

/* Gmsh 2.2 ASCII: consecutive node numbers, elements with and without
 * tags, a point and a line skipped. */
static const char io_msh22[] = "$MeshFormat\n"
                               "2.2 0 8\n"
                               "$EndMeshFormat\n"
                               "$PhysicalNames\n"
                               "2\n"
                               "2 3 \"top\"\n"
                               "3 4 \"solid\"\n"
                               "$EndPhysicalNames\n"
                               "$Nodes\n"
                               "5\n"
                               "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n"
                               "$EndNodes\n"
                               "$Elements\n"
                               "5\n"
                               "1 15 2 0 1 1\n"
                               "2 1 2 0 1 1 2\n"
                               "3 2 2 3 1 1 2 3\n"
                               "4 4 2 4 1 1 2 3 4\n"
                               "5 4 0 2 3 4 5\n"
                               "$EndElements\n";

/* ------------------------------------------------ Gmsh 4.1 binary --- */

typedef struct io_bw {
    unsigned char buf[8192];
    size_t n;
    int le;       /* byte order of the numbers */
    size_t ds;    /* bytes of a size_t field */
    size_t mark;  /* where the variant's fault is written */
} io_bw;

static void io_bw_raw(io_bw *w, const void *p, size_t n)
{
    if (w->n + n <= sizeof w->buf) {
        memcpy(w->buf + w->n, p, n);
        w->n += n;
    }
}

static void io_bw_text(io_bw *w, const char *s)
{
    io_bw_raw(w, s, strlen(s));
}

static void io_bw_uint(io_bw *w, uint64_t v, size_t n)
{
    unsigned char b[8];
    for (size_t k = 0; k < n; ++k)
        b[w->le ? k : n - 1 - k] = (unsigned char)(v >> (8 * k));
    io_bw_raw(w, b, n);
}

static void io_bw_int(io_bw *w, int32_t v)
{
    io_bw_uint(w, (uint32_t)v, 4);
}

static void io_bw_size(io_bw *w, uint64_t v)
{
    io_bw_uint(w, v, w->ds);
}

static void io_bw_f64(io_bw *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    io_bw_uint(w, u, 8);
}

/* The variants of the binary file: the valid one and its faults. */
enum {
    IO_BIN_VALID = 0,
    IO_BIN_ENDIAN,      /* the one-int check is 2 */
    IO_BIN_TRUNCATED,   /* the file ends inside the coordinates */
    IO_BIN_HUGE_NODES,  /* a node count no file of this size holds */
    IO_BIN_BAD_NODE,    /* a tet names node tag 99 */
    IO_BIN_NAN,         /* a coordinate is NaN */
    IO_BIN_TYPE,        /* an element block of type 99 */
    IO_BIN_BLOCKS       /* the node blocks hold fewer nodes than the header */
};

/* The mesh of io_msh41 as a binary file (le: little-endian; ds: 4 or 8),
 * with the fault of variant written at w->mark. */
static void io_msh41_binary(io_bw *w, int le, size_t ds, int variant)
{
    memset(w, 0, sizeof *w);
    w->le = le;
    w->ds = ds;
    char head[64];
    snprintf(head, sizeof head, "$MeshFormat\n4.1 1 %zu\n", ds);
    io_bw_text(w, head);
    w->mark = w->n;
    io_bw_int(w, variant == IO_BIN_ENDIAN ? 2 : 1);
    io_bw_text(w, "\n$EndMeshFormat\n"
                  "$PhysicalNames\n3\n1 5 \"edge\"\n2 10 \"skin\"\n3 20 \"body part\"\n"
                  "$EndPhysicalNames\n$Entities\n");
    io_bw_size(w, 1);
    io_bw_size(w, 1);
    io_bw_size(w, 1);
    io_bw_size(w, 1);
    /* point 1 */
    io_bw_int(w, 1);
    for (int k = 0; k < 3; ++k)
        io_bw_f64(w, 0);
    io_bw_size(w, 0);
    /* curve 1 (physical 5, bounded by points 1 and -1), surface 1 (10),
     * volume 1 (20 and 21, bounded by surface 1) */
    static const double box[3][6] = {{0, 0, 0, 1, 0, 0}, {0, 0, 0, 1, 1, 0}, {0, 0, 0, 1, 1, 1}};
    io_bw_int(w, 1);
    for (int k = 0; k < 6; ++k)
        io_bw_f64(w, box[0][k]);
    io_bw_size(w, 1);
    io_bw_int(w, 5);
    io_bw_size(w, 2);
    io_bw_int(w, 1);
    io_bw_int(w, -1);
    io_bw_int(w, 1);
    for (int k = 0; k < 6; ++k)
        io_bw_f64(w, box[1][k]);
    io_bw_size(w, 1);
    io_bw_int(w, 10);
    io_bw_size(w, 0);
    io_bw_int(w, 1);
    for (int k = 0; k < 6; ++k)
        io_bw_f64(w, box[2][k]);
    io_bw_size(w, 2);
    io_bw_int(w, 20);
    io_bw_int(w, 21);
    io_bw_size(w, 1);
    io_bw_int(w, 1);
    io_bw_text(w, "\n$EndEntities\n$Nodes\n");
    io_bw_size(w, 2);
    if (variant == IO_BIN_HUGE_NODES)
        w->mark = w->n;
    io_bw_size(w, variant == IO_BIN_HUGE_NODES ? (uint64_t)1 << 40 : 5);
    io_bw_size(w, 10);
    io_bw_size(w, 50);
    io_bw_int(w, 2);
    io_bw_int(w, 1);
    io_bw_int(w, 0);
    io_bw_size(w, variant == IO_BIN_BLOCKS ? 2 : 3);
    io_bw_size(w, 10);
    io_bw_size(w, 20);
    if (variant != IO_BIN_BLOCKS)
        io_bw_size(w, 30);
    static const double xyz[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    for (int i = 0; i < (variant == IO_BIN_BLOCKS ? 2 : 3); ++i)
        for (int k = 0; k < 3; ++k) {
            if (variant == IO_BIN_NAN && i == 1 && k == 2) {
                w->mark = w->n;
                io_bw_f64(w, (double)NAN);
            } else {
                io_bw_f64(w, xyz[i][k]);
            }
        }
    io_bw_int(w, 3);
    io_bw_int(w, 1);
    io_bw_int(w, 1);
    io_bw_size(w, 2);
    io_bw_size(w, 40);
    io_bw_size(w, 50);
    static const double uvw[2][3] = {{0.1, 0.2, 0.3}, {0.5, 0.5, 0.5}};
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 3; ++k)
            io_bw_f64(w, xyz[3 + i][k]);
        for (int k = 0; k < 3; ++k)
            io_bw_f64(w, uvw[i][k]);
        if (variant == IO_BIN_TRUNCATED && i == 0) {
            w->n -= 5;
            w->mark = w->n;
            return;
        }
    }
    if (variant == IO_BIN_BLOCKS)
        w->mark = w->n;
    io_bw_text(w, "\n$EndNodes\n$Elements\n");
    io_bw_size(w, variant == IO_BIN_TYPE ? 5 : 4);
    io_bw_size(w, variant == IO_BIN_TYPE ? 7 : 6);
    io_bw_size(w, 1);
    io_bw_size(w, 7);
    /* lines: one */
    io_bw_int(w, 1);
    io_bw_int(w, 1);
    io_bw_int(w, 1);
    io_bw_size(w, 1);
    io_bw_size(w, 1);
    io_bw_size(w, 10);
    io_bw_size(w, 20);
    /* triangles */
    io_bw_int(w, 2);
    io_bw_int(w, 1);
    io_bw_int(w, 2);
    io_bw_size(w, 2);
    static const uint64_t tri[2][3] = {{10, 20, 30}, {20, 40, 50}};
    for (int e = 0; e < 2; ++e) {
        io_bw_size(w, 2 + (uint64_t)e);
        for (int k = 0; k < 3; ++k)
            io_bw_size(w, tri[e][k]);
    }
    if (variant == IO_BIN_TYPE) {
        io_bw_int(w, 3);
        io_bw_int(w, 1);
        w->mark = w->n;
        io_bw_int(w, 99);
        io_bw_size(w, 1);
        io_bw_size(w, 7);
        io_bw_size(w, 10);
    }
    /* tetrahedra */
    io_bw_int(w, 3);
    io_bw_int(w, 1);
    io_bw_int(w, 4);
    io_bw_size(w, 2);
    static const uint64_t tet[2][4] = {{10, 20, 30, 40}, {20, 30, 40, 50}};
    for (int e = 0; e < 2; ++e) {
        io_bw_size(w, 4 + (uint64_t)e);
        for (int k = 0; k < 4; ++k) {
            if (variant == IO_BIN_BAD_NODE && e == 1 && k == 3) {
                w->mark = w->n;
                io_bw_size(w, 99);
            } else {
                io_bw_size(w, tet[e][k]);
            }
        }
    }
    /* points: one */
    io_bw_int(w, 0);
    io_bw_int(w, 1);
    io_bw_int(w, 15);
    io_bw_size(w, 1);
    io_bw_size(w, 6);
    io_bw_size(w, 10);
    io_bw_text(w, "\n$EndElements\n");
}

/* Writes n bytes to path; 1 on success. */
static int io_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    const int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

#endif
