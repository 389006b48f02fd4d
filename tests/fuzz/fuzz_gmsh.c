/* SPDX-License-Identifier: MIT */
/* Fuzz target: xpbd_io_load_gmsh_mem on fuzzed .msh files (4.1 ASCII and
 * binary, 2.2). Checked on every input: fuzz_io.h. */
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xpbd_mesh_data m;
    xpbd_io_error err;
    memset(&m, 0xab, sizeof m);
    const xpbd_status st = xpbd_io_load_gmsh_mem(data, size, &m, &err);
    fz_io_check(st, &m, &err);
    return 0;
}
