/* SPDX-License-Identifier: MIT */
/* xpbd-scene-hash: a few fixed scenes run for a fixed number of frames, one
 * line per scene, precision and ISA with a hash of the final state, to
 * compare ISAs and machines (.ci/aarch64 compares x86 with arm64):
 *
 *   xpbd-scene-hash [--check] [ISA...]
 *
 *   SCENE PRECISION ISA HASH     e.g.  "cloth f32 avx2 5d0c...": HASH is the
 *                                64-bit FNV-1a of the final particle count,
 *                                x y z px py pz vx vy vz and the multipliers
 *                                (lambda) of every real constraint slot
 *
 * Scenes: cloth (distance constraints, XPBD), cloth_runs (the same cloth
 * coloured with runs), tet_box (tet boxes in the engine: tearing with vertex
 * splits, sleeping, ground contacts with friction), pile (balls with radii in
 * a box of planes, friction and restitution), each in f32 and f64.
 *
 * Without ISA arguments: every ISA this build has and this CPU runs, scalar
 * first. A named ISA that cannot run exits 2 (never a silent skip).
 * --check: exit 1 if a scene's hash differs between the ISAs run, 77 if
 * fewer than two ISAs can run. A scene that fails, or no longer does what it
 * is there for (nothing tore, nothing slept, no contact), exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

#define SH_FRAMES 90
#define SH_FNV_BASIS UINT64_C(0xcbf29ce484222325)

static uint64_t sh_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

#define XPBD_REAL_F32
#include "scene_hash_tmpl.h"
#define XPBD_REAL_F64
#include "scene_hash_tmpl.h"

enum { SH_CLOTH, SH_CLOTH_RUNS, SH_TET_BOX, SH_PILE, SH_SCENES };
static const char *const sh_names[SH_SCENES] = {"cloth", "cloth_runs", "tet_box", "pile"};

static int sh_run(int scene, int f64, xpbd_isa isa, uint64_t *h)
{
    switch (scene) {
    case SH_CLOTH: return f64 ? sh_cloth_f64(isa, 0, h) : sh_cloth_f32(isa, 0, h);
    case SH_CLOTH_RUNS: return f64 ? sh_cloth_f64(isa, 1, h) : sh_cloth_f32(isa, 1, h);
    case SH_TET_BOX: return f64 ? sh_tet_box_f64(isa, h) : sh_tet_box_f32(isa, h);
    default: return f64 ? sh_pile_f64(isa, h) : sh_pile_f32(isa, h);
    }
}

int main(int argc, char **argv)
{
    int check = 0, first = 1;
    if (first < argc && strcmp(argv[first], "--check") == 0) {
        check = 1;
        first++;
    }
    xpbd_isa isas[XPBD_ISA_COUNT];
    int n = 0;
    for (int a = first; a < argc; ++a) {
        xpbd_isa isa;
        if (xpbd_isa_from_name(argv[a], &isa) != XPBD_OK || isa == XPBD_ISA_AUTO ||
            n == XPBD_ISA_COUNT) {
            fprintf(stderr, "usage: xpbd-scene-hash [--check] [scalar|sse4|avx2|avx512|neon...]\n");
            return 2;
        }
        if (!xpbd_isa_supported(isa)) {
            fprintf(stderr, "xpbd-scene-hash: ISA %s is not %s\n", argv[a],
                    xpbd_isa_compiled(isa) ? "supported by this CPU" : "compiled into this build");
            return 2;
        }
        isas[n++] = isa;
    }
    if (n == 0)
        for (int i = XPBD_ISA_SCALAR; i < XPBD_ISA_COUNT; ++i)
            if (xpbd_isa_supported((xpbd_isa)i))
                isas[n++] = (xpbd_isa)i;
    if (check && n < 2) {
        printf("xpbd-scene-hash: one ISA only (%s): nothing to compare, skipped\n",
               xpbd_isa_name(isas[0]));
        return 77;
    }
    int failed = 0, differ = 0;
    for (int s = 0; s < SH_SCENES; ++s)
        for (int f64 = 0; f64 < 2; ++f64) {
            uint64_t first_hash = 0;
            for (int i = 0; i < n; ++i) {
                uint64_t h = 0;
                if (sh_run(s, f64, isas[i], &h)) {
                    failed = 1;
                    continue;
                }
                printf("%s %s %s %016llx\n", sh_names[s], f64 ? "f64" : "f32",
                       xpbd_isa_name(isas[i]), (unsigned long long)h);
                if (i == 0)
                    first_hash = h;
                else if (check && h != first_hash) {
                    fprintf(stderr, "xpbd-scene-hash: %s %s: %s differs from %s\n", sh_names[s],
                            f64 ? "f64" : "f32", xpbd_isa_name(isas[i]),
                            xpbd_isa_name(isas[0]));
                    differ = 1;
                }
            }
            fflush(stdout);
        }
    return failed || differ ? 1 : 0;
}
