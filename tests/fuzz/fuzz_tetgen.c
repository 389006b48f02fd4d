/* SPDX-License-Identifier: MIT */
/* Fuzz target: xpbd_io_load_tetgen_mem. The input is the .node file, then,
 * after a line "%%", the .ele file and, after another, the .face file; a
 * part that is not there is an absent file. Checked on every input:
 * fuzz_io.h. */
#include "fuzz_io.h"

/* the offset of the next "%%\n" at a line's start in [from, size), or size */
static size_t fz_split(const uint8_t *data, size_t size, size_t from)
{
    for (size_t k = from; k + 3 <= size; ++k)
        if ((k == 0 || data[k - 1] == '\n') && data[k] == '%' && data[k + 1] == '%' &&
            data[k + 2] == '\n')
            return k;
    return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const void *part[3] = {data, NULL, NULL};
    size_t len[3] = {size, 0, 0};
    size_t at = 0;
    for (int k = 0; k < 2; ++k) {
        const size_t cut = fz_split(data, size, at);
        len[k] = cut - at;
        if (cut == size)
            break;
        at = cut + 3;
        part[k + 1] = data + at;
        len[k + 1] = size - at;
    }
    static const uint8_t empty[1];
    if (!part[0])
        part[0] = empty;
    xpbd_mesh_data m;
    xpbd_io_error err;
    memset(&m, 0xab, sizeof m);
    const xpbd_status st =
        xpbd_io_load_tetgen_mem(part[0], len[0], part[1], len[1], part[2], len[2], &m, &err);
    fz_io_check(st, &m, &err);
    return 0;
}
