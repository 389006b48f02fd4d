/* SPDX-License-Identifier: MIT */
/* Fuzz target: engine create with fuzzed scenes, configurations and
 * options (both precisions), then a few frames and host inputs.
 *
 * Checked on every input: a refused create leaves *e zeroed; a created
 * engine steps (its first frame may only fail by diverging, never by
 * refusing the scene create accepted; a configuration the input made odd
 * may be refused, as the configuration beyond its version is the step's to
 * check); a refused input leaves the positions bit-identical; destroy
 * releases everything (ASan). */
#include "fuzz.h"

#define FZ_N 48u

#define FZ_ENGINE(R, SFX)                                                                     \
    static void fz_engine_##SFX(fz_in *in)                                                    \
    {                                                                                         \
        const uint32_t n = fz_below(in, FZ_N + 1);                                            \
        R xyz[3 * FZ_N], rest_xyz[3 * FZ_N], vel[3 * FZ_N], w[FZ_N], radius[FZ_N];            \
        R tlen[FZ_N], erest[4 * FZ_N], ecomp[4 * FZ_N], tcomp[FZ_N], bcomp[FZ_N];             \
        uint32_t edge[8 * FZ_N], tet[4 * FZ_N], bend[4 * FZ_N], anchor[FZ_N], origin[FZ_N];   \
        size_t body_begin[5];                                                                 \
        xpbd_plane plane[9];                                                                  \
        for (uint32_t i = 0; i < n; ++i) {                                                    \
            const int odd = fz_u8(in) == 255;                                                 \
            for (int a = 0; a < 3; ++a) {                                                     \
                xyz[3 * i + a] = (R)(odd ? fz_real(in) : (double)fz_below(in, 8) / 4);        \
                rest_xyz[3 * i + a] = (R)(odd ? fz_real(in) : xyz[3 * i + a]);                \
                vel[3 * i + a] = (R)(odd ? fz_real(in) : 0);                                  \
            }                                                                                 \
            w[i] = (R)(odd ? fz_real(in) : fz_u8(in) > 220 ? 0 : 1);                          \
            radius[i] = (R)(odd ? fz_real(in) : 0.1);                                         \
            tlen[i] = (R)(odd ? fz_real(in) : 1);                                             \
            anchor[i] = fz_u8(in) > 240 ? fz_below(in, n + 2) : i;                            \
            origin[i] = fz_u8(in) > 250 ? fz_u32(in) : i;                                     \
        }                                                                                     \
        xpbd_scene_##SFX sc;                                                                  \
        memset(&sc, 0, sizeof sc);                                                            \
        sc.particles = n;                                                                     \
        sc.xyz = xyz;                                                                         \
        const uint8_t opt = fz_u8(in);                                                        \
        sc.rest_xyz = opt & 1 ? rest_xyz : NULL;                                              \
        sc.vel = opt & 2 ? vel : NULL;                                                        \
        sc.inv_mass = w;                                                                      \
        sc.radius = opt & 4 ? radius : NULL;                                                  \
        sc.edges = fz_below(in, 4 * FZ_N + 1);                                                \
        for (size_t k = 0; k < 2 * sc.edges; ++k)                                             \
            edge[k] = fz_below(in, n + 1);                                                    \
        for (size_t k = 0; k < sc.edges; ++k) {                                               \
            erest[k] = (R)(fz_u8(in) == 255 ? fz_real(in) : 0.25);                            \
            ecomp[k] = (R)(fz_u8(in) == 255 ? fz_real(in) : 1e-6);                            \
        }                                                                                     \
        sc.edge = edge;                                                                       \
        sc.edge_rest = opt & 8 ? erest : NULL;                                                \
        sc.edge_compliance = opt & 16 ? ecomp : NULL;                                         \
        sc.edge_alpha = fz_u8(in) == 255 ? fz_real(in) : 0;                                   \
        sc.tets = fz_below(in, FZ_N + 1);                                                     \
        sc.bends = fz_below(in, FZ_N + 1);                                                    \
        for (size_t k = 0; k < 4 * FZ_N; ++k) {                                               \
            tet[k] = fz_below(in, n + 1);                                                     \
            bend[k] = fz_below(in, n + 1);                                                    \
        }                                                                                     \
        for (size_t k = 0; k < FZ_N; ++k) {                                                   \
            tcomp[k] = (R)fz_nonneg(in);                                                      \
            bcomp[k] = (R)fz_nonneg(in);                                                      \
        }                                                                                     \
        sc.tet = tet;                                                                         \
        sc.tet_compliance = opt & 32 ? tcomp : NULL;                                          \
        sc.tet_alpha = fz_u8(in) == 255 ? fz_real(in) : 0;                                    \
        sc.bend = bend;                                                                       \
        sc.bend_compliance = opt & 64 ? bcomp : NULL;                                         \
        sc.bend_alpha = fz_u8(in) == 255 ? fz_real(in) : 0;                                   \
        const uint8_t opt2 = fz_u8(in);                                                       \
        if (opt2 & 1) {                                                                       \
            sc.tether_anchor = anchor;                                                        \
            sc.tether_length = tlen;                                                          \
        }                                                                                     \
        if (opt2 & 2)                                                                         \
            sc.origin = origin;                                                               \
        sc.bodies = fz_below(in, 5);                                                          \
        for (uint32_t b = 0; b <= sc.bodies; ++b)                                             \
            body_begin[b] = fz_u8(in) == 255 ? fz_u32(in) : (size_t)n * b / (sc.bodies ? sc.bodies : 1); \
        sc.body_begin = body_begin;                                                           \
        sc.planes = fz_below(in, 10);                                                         \
        for (uint32_t k = 0; k < 9; ++k) {                                                    \
            memset(&plane[k], 0, sizeof plane[k]);                                            \
            plane[k].n[fz_below(in, 3)] = fz_u8(in) == 255 ? fz_real(in) : 1;                 \
            plane[k].d = fz_real(in);                                                         \
        }                                                                                     \
        sc.plane = plane;                                                                     \
        /* capacities a run can use, or ones create must refuse; not the     \
         * gigabyte ones a host may legitimately ask for (an allocation test) */ \
        sc.max_contacts = fz_u8(in) == 255 ? (fz_u8(in) & 1 ? (size_t)INT32_MAX / 2 + 1 : SIZE_MAX) \
                                           : fz_below(in, 200);                               \
        sc.colouring.max_colours = fz_below(in, 66);                                          \
        sc.colouring.serial = fz_u8(in) > 240;                                                \
        xpbd_step_config cfg = xpbd_step_config_default();                                    \
        if (fz_u8(in) > 230)                                                                  \
            cfg.version = fz_u32(in);                                                         \
        cfg.substeps = 1 + fz_below(in, 3);                                                   \
        cfg.iterations = 1 + fz_below(in, 3);                                                 \
        if (fz_u8(in) > 230) {                                                                \
            cfg.relative_damping = fz_real(in);                                               \
            cfg.measure_residual = (int)fz_u32(in);                                           \
            cfg.contact_skin = fz_real(in);                                                   \
        }                                                                                     \
        xpbd_engine_options o;                                                                \
        memset(&o, 0, sizeof o);                                                              \
        if (fz_u8(in) > 128) {                                                                \
            o.tear_stretch = fz_u8(in) == 255 ? fz_real(in) : fz_nonneg(in) / 4;              \
            o.sleep_energy = fz_u8(in) == 255 ? fz_real(in) : fz_nonneg(in) / 16;             \
            o.sleep_steps = fz_below(in, 4);                                                  \
            o.keep_hinges = fz_below(in, 3);                                                  \
            o.max_particles = fz_u8(in) > 128 ? fz_below(in, 2 * n + 2) : 0;                  \
        }                                                                                     \
        xpbd_engine_##SFX *e = (xpbd_engine_##SFX *)(uintptr_t)0x77777777;                  \
        xpbd_where where;                                                                     \
        const xpbd_status st = xpbd_engine_create_##SFX(&e, &sc, &cfg, &o, &where);           \
        if (st != XPBD_OK) {                                                                  \
            FZ_CHECK(e == NULL, "refused create (%d) left an engine", st);                   \
            FZ_CHECK(where.part < XPBD_PART_COUNT && where.field < XPBD_FIELD_COUNT,          \
                     "refused create (%d) named no valid place", st);                         \
            return;                                                                           \
        }                                                                                     \
        FZ_CHECK(where.part == XPBD_PART_NONE && where.index == SIZE_MAX &&                   \
                     where.field == XPBD_FIELD_NONE,                                          \
                 "created engine named a place");                                             \
        const double h = 1.0 / (30 + fz_below(in, 100));                                      \
        const xpbd_particles_##SFX *ep = xpbd_engine_particles_##SFX(e);                      \
        for (uint32_t f = 0, frames = 1 + fz_below(in, 4); f < frames; ++f) {                 \
            if (f > 0 && fz_u8(in) > 128 && ep->count) {                              \
                xpbd_input inp;                                                               \
                inp.kind = 1 + fz_below(in, 5);                                               \
                inp.begin = fz_below(in, (uint32_t)ep->count + 1);                    \
                inp.end = fz_below(in, (uint32_t)ep->count + 2);                      \
                for (int a = 0; a < 3; ++a)                                                   \
                    inp.value[a] = fz_real(in);                                               \
                const size_t bytes = 10 * ep->count * sizeof(R);                      \
                R *copy = malloc(bytes);                                                      \
                FZ_CHECK(copy != NULL, "out of memory");                                      \
                memcpy(copy, ep->x, ep->count * sizeof(R));                   \
                const xpbd_status ai = xpbd_engine_apply_##SFX(e, &inp);                     \
                if (ai < 0)                                                                   \
                    FZ_CHECK(memcmp(copy, ep->x, ep->count * sizeof(R)) == 0, \
                             "refused input %d changed x", ai);                               \
                free(copy);                                                                   \
            }                                                                                 \
            const xpbd_status ss = xpbd_engine_step_##SFX(e, h);                              \
            /* create checks the scene and the configuration as every step \
             * does (xpbd/engine.h): its first frame is never refused */     \
            FZ_CHECK(ss >= 0 || ss == XPBD_ERR_DIVERGED || f > 0,                             \
                     "first frame of a created engine refused: %d (%s) at %s %zu", ss,        \
                     xpbd_status_str(ss),                                                     \
                     xpbd_part_name(xpbd_engine_counters_##SFX(e)->step.bad_part),            \
                     xpbd_engine_counters_##SFX(e)->step.bad_index);                          \
            if (ss < 0)                                                                       \
                break;                                                                        \
        }                                                                                     \
        xpbd_engine_destroy_##SFX(e);                                                         \
    }

FZ_ENGINE(float, f32)
FZ_ENGINE(double, f64)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    if (fz_u8(&in) & 1)
        fz_engine_f64(&in);
    else
        fz_engine_f32(&in);
    return 0;
}
