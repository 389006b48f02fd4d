/* SPDX-License-Identifier: MIT */
/* test_io.h: what the files of xpbd-io-tests share (test_io.c holds the
 * runner and the format tests, test_io_meshes.c the meshes made by real
 * meshers: the `tetgen` program's and the committed Gmsh files). */
#ifndef XPBD_TEST_IO_H
#define XPBD_TEST_IO_H

#include "test.h"

#include <xpbd/io.h>

/* 1 when the running test skipped itself (counted as a skip, not a pass) */
extern int io_skipped;
/* DIR/name (--dir: the test's own scratch directory), in one of a few
 * rotating buffers */
const char *io_path(const char *name);
/* DATA/name (--data: the source tree's tests/data), likewise */
const char *io_data_path(const char *name);

/* test_io_meshes.c's tests, {NULL, NULL} at the end */
extern const xt_test io_mesh_tests[];

#endif
