/* SPDX-License-Identifier: MIT */
/* Fuzz target: xpbd_io_load_obj_mem. The first byte picks the options (a
 * scale from a palette, y or z up), the rest is the file. Checked on every
 * input: fuzz_io.h. */
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const double scale[8] = {0, 1, 0.5, 3, 1e-3, 0.1, 1e300, 1e-300};
    const uint8_t pick = size ? data[0] : 0;
    const xpbd_obj_options opt = {scale[pick & 7], (pick >> 3) & 1 ? XPBD_IO_UP_Z : XPBD_IO_UP_Y};
    xpbd_mesh_data m;
    xpbd_io_error err;
    memset(&m, 0xab, sizeof m);
    const xpbd_status st =
        xpbd_io_load_obj_mem(size ? data + 1 : data, size ? size - 1 : 0, &opt, &m, &err);
    FZ_CHECK(st != XPBD_ERR_ARGUMENT, "valid options refused: %s", err.what);
    fz_io_check(st, &m, &err);
    return 0;
}
