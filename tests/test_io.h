/* SPDX-License-Identifier: MIT */
/* test_io.h: what the files of xpbd-io-tests share (test_io.c holds the
 * runner and the format tests, test_io_meshes.c the meshes made by real
 * meshers: the `tetgen` program's and the committed Gmsh files). */
#ifndef XPBD_TEST_IO_H
#define XPBD_TEST_IO_H

#include "test.h"

#include <xpbd/io.h>

#include <math.h>

/* 1 when the running test skipped itself (counted as a skip, not a pass) */
extern int io_skipped;
/* DIR/name (--dir: the test's own scratch directory), in one of a few
 * rotating buffers */
const char *io_path(const char *name);
/* DATA/name (--data: the source tree's tests/data), likewise */
const char *io_data_path(const char *name);

/* test_io_meshes.c's tests, {NULL, NULL} at the end */
extern const xt_test io_mesh_tests[];

/* ----------------------------------------------------------- vectors --- */

static inline double io_dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void io_cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* a . (b x c) (6V of the tet with edges a, b, c) and, in *p when p is not
 * NULL, the same sum with every product's absolute value */
static inline double io_triple(const double *a, const double *b, const double *c, double *p)
{
    double bc[3];
    io_cross3(b, c, bc);
    if (p)
        *p = fabs(a[0]) * (fabs(b[1] * c[2]) + fabs(b[2] * c[1])) +
             fabs(a[1]) * (fabs(b[2] * c[0]) + fabs(b[0] * c[2])) +
             fabs(a[2]) * (fabs(b[0] * c[1]) + fabs(b[1] * c[0]));
    return io_dot3(a, bc);
}

#endif
