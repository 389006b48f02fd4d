/* SPDX-License-Identifier: MIT */
/* FNV-1a over bytes, the one hash of the library and its tools: the
 * engine's sleep signatures, the replay file's state hash and the replay
 * check's per-path hashes. Over bit patterns, so -0 and NaN payloads count. */
#ifndef XPBD_FNV_H
#define XPBD_FNV_H

#include <stddef.h>
#include <stdint.h>

#define XPBD__FNV_BASIS 0xcbf29ce484222325ull

static inline uint64_t xpbd__fnv1a(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < bytes; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#endif
