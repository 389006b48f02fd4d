/* SPDX-License-Identifier: MIT */
/* Fuzz target: the world step on the scalar path against the best path
 * this CPU runs, bit for bit, and the state after an error.
 *
 * A fuzzed world (particles, a distance set whose per-slot arrays the input
 * may then edit as a host may, radii with a broad-phase or a fixed contact
 * set, planes, a fuzzed configuration) is stepped a few frames twice, once
 * per path. Checked on every input: both paths return the same status,
 * bad_index, bad_part and bad_field; a step that succeeds leaves particles
 * and lambda bit-identical on both; a step that fails leaves them
 * bit-identical to before it. */
#include "fuzz.h"

#define FZ_N 96u
#define FZ_M 256u

#define FZ_STEP(R, SFX)                                                                       \
    typedef struct fz_copy_##SFX {                                                            \
        R block[10 * FZ_N];                                                                   \
        xpbd_particles_##SFX p;                                                               \
        xpbd_distance_set_##SFX c;                                                            \
        xpbd_contact_set cs;                                                                  \
        uint32_t ci0[FZ_M + 64 * 16], ci1[FZ_M + 64 * 16];                                    \
        void *scratch;                                                                        \
        size_t scratch_bytes;                                                                 \
        xpbd_world_##SFX w;                                                                   \
    } fz_copy_##SFX;                                                                          \
                                                                                              \
    /* The state a failed step must not touch. */                                            \
    static size_t fz_state_##SFX(const fz_copy_##SFX *k, unsigned char *out)                  \
    {                                                                                         \
        size_t at = 0;                                                                        \
        memcpy(out, k->block, sizeof k->block);                                               \
        at += sizeof k->block;                                                                \
        if (k->c.slots) {                                                                     \
            memcpy(out + at, k->c.lambda, k->c.slots * sizeof(R));                            \
            at += k->c.slots * sizeof(R);                                                     \
        }                                                                                     \
        return at;                                                                            \
    }                                                                                         \
                                                                                              \
    static void fz_world_##SFX(const uint8_t *data, size_t size)                              \
    {                                                                                         \
        fz_in in = {data, size};                                                              \
        const uint32_t n = 1 + fz_below(&in, FZ_N), m = fz_below(&in, FZ_M + 1);              \
        R init[10 * FZ_N];                                                                    \
        for (uint32_t i = 0; i < n; ++i) {                                                    \
            const int odd = fz_u8(&in) == 255;                                                \
            for (int a = 0; a < 3; ++a) {                                                     \
                init[a * n + i] = (R)(odd ? fz_real(&in) : (double)fz_below(&in, 16) / 8);    \
                init[(3 + a) * n + i] = init[a * n + i];                                      \
                init[(6 + a) * n + i] = (R)(odd ? fz_real(&in) : fz_real(&in) / 4);           \
            }                                                                                 \
            init[9 * n + i] = (R)(odd ? fz_real(&in) : fz_u8(&in) > 200 ? 0 : 1 + fz_nonneg(&in)); \
        }                                                                                     \
        uint32_t i0[FZ_M], i1[FZ_M];                                                          \
        R rest[FZ_M], comp[FZ_M];                                                             \
        for (uint32_t k = 0; k < m; ++k) {                                                    \
            i0[k] = fz_below(&in, n);                                                         \
            i1[k] = (i0[k] + 1 + fz_below(&in, n > 1 ? n - 1 : 1)) % n;                       \
            rest[k] = (R)(0.125 + fz_nonneg(&in));                                            \
            comp[k] = (R)(fz_u8(&in) > 128 ? 0 : fz_nonneg(&in) * 1e-3);                      \
        }                                                                                     \
        const uint32_t opt_colours = fz_below(&in, 65);                                       \
        const uint8_t opt_flags = fz_u8(&in);                                                 \
        const xpbd_colouring_options opt = {                                                  \
            .max_colours = opt_colours, .serial = opt_flags > 240, .runs = opt_flags & 1};    \
        const int radii = fz_u8(&in) & 1, fixed = radii && (fz_u8(&in) & 1);                  \
        R radius[FZ_N];                                                                       \
        for (uint32_t i = 0; i < n; ++i)                                                      \
            radius[i] = (R)(fz_u8(&in) == 255 ? fz_real(&in) : 0.05 + fz_nonneg(&in) / 8);    \
        const uint32_t max_contacts = fz_below(&in, FZ_M + 1);                                \
        uint32_t pi0[FZ_M], pi1[FZ_M], pairs = fixed && n > 1 ? fz_below(&in, FZ_M + 1) : 0;           \
        for (uint32_t k = 0; k < pairs; ++k) {                                                \
            pi0[k] = fz_below(&in, n);                                                        \
            pi1[k] = (pi0[k] + 1 + fz_below(&in, n > 1 ? n - 1 : 1)) % n;                     \
        }                                                                                     \
        xpbd_plane planes[3];                                                                 \
        const uint32_t nplanes = radii ? fz_below(&in, 4) : 0;                                \
        for (uint32_t k = 0; k < nplanes; ++k) {                                              \
            const uint32_t axis = fz_below(&in, 3);                                           \
            memset(&planes[k], 0, sizeof planes[k]);                                          \
            planes[k].n[axis] = fz_u8(&in) & 1 ? 1 : -1;                                      \
            if (fz_u8(&in) == 255)                                                            \
                planes[k].n[(axis + 1) % 3] = fz_real(&in);                                   \
            planes[k].d = fz_real(&in);                                                       \
        }                                                                                     \
        xpbd_step_config cfg = xpbd_step_config_default();                                    \
        cfg.substeps = 1 + fz_below(&in, 4);                                                  \
        cfg.iterations = 1 + fz_below(&in, 4);                                                \
        cfg.solver = (xpbd_solver)fz_below(&in, 3);                                           \
        cfg.lambda_reset = (xpbd_lambda_reset)fz_below(&in, 2);                               \
        cfg.measure_residual = fz_below(&in, 2);                                              \
        if (fz_u8(&in) > 200) {                                                               \
            cfg.damping = fz_real(&in);                                                       \
            cfg.pbd_stiffness = fz_real(&in);                                                 \
            cfg.spring_damping = fz_real(&in);                                                \
            cfg.contact_beta = fz_real(&in);                                                  \
            cfg.restitution = fz_real(&in);                                                   \
            cfg.friction_static = fz_nonneg(&in);                                             \
            cfg.friction_dynamic = fz_nonneg(&in);                                            \
            cfg.contact_skin = fz_nonneg(&in);                                                \
            cfg.relative_damping = fz_real(&in);                                              \
            cfg.contact_order = (xpbd_contact_order)fz_below(&in, 3);                         \
            for (int a = 0; a < 3; ++a)                                                       \
                cfg.gravity[a] = fz_real(&in);                                                \
        }                                                                                     \
        const double h = fz_u8(&in) == 255 ? fz_real(&in) : 1.0 / (30 + fz_below(&in, 200));  \
        const uint32_t frames = 1 + fz_below(&in, 3);                                         \
        /* host edits of the built set's per-slot arrays, replayed on both */                 \
        uint8_t edits[64];                                                                    \
        const size_t nedit = fz_below(&in, 9) * 7;                                            \
        for (size_t k = 0; k < nedit; ++k)                                                    \
            edits[k] = fz_u8(&in);                                                            \
        const xpbd_isa isas[2] = {XPBD_ISA_SCALAR, xpbd_isa_best()};                          \
        static fz_copy_##SFX copy[2];                                                         \
        static unsigned char before[2][sizeof copy[0].block + 4 * FZ_M * sizeof(R) + 64 * 16 * sizeof(R)]; \
        xpbd_status got[2][4];                                                                \
        size_t bad[2][4];                                                                     \
        unsigned place[2][4]; /* bad_part, bad_field */                                       \
        for (int v = 0; v < 2; ++v) {                                                         \
            fz_copy_##SFX *k = &copy[v];                                                      \
            memset(k, 0, sizeof *k);                                                          \
            memcpy(k->block, init, 10 * n * sizeof(R));                                       \
            xpbd_particles_bind_##SFX(&k->p, n, k->block, n);                                 \
            if (xpbd_distance_set_build_##SFX(&k->c, n, m, i0, i1, rest, comp, &opt, NULL) !=  \
                XPBD_OK)                                                                      \
                return;                                                                       \
            for (size_t e = 0; e + 7 <= nedit && k->c.slots; e += 7) {                        \
                const uint32_t s = (uint32_t)(edits[e] | edits[e + 1] << 8) % k->c.slots;     \
                fz_in ev = {edits + e + 3, 4};                                                \
                switch (edits[e + 2] % 5) {                                                   \
                case 0: k->c.i0[s] = fz_below(&ev, n + 1); break;                             \
                case 1: k->c.i1[s] = fz_below(&ev, n + 1); break;                             \
                case 2: k->c.rest[s] = (R)fz_real(&ev); break;                                \
                case 3: k->c.compliance[s] = (R)fz_real(&ev); break;                          \
                default: k->c.lambda[s] = (R)fz_real(&ev); break;                             \
                }                                                                             \
            }                                                                                 \
            memset(&k->w, 0, sizeof k->w);                                                    \
            k->w.particles = &k->p;                                                           \
            k->w.constraints = &k->c;                                                         \
            size_t find = 0;                                                                  \
            if (radii) {                                                                      \
                k->w.radius = radius;                                                         \
                FZ_CHECK(xpbd_contact_set_init(&k->cs, k->ci0, k->ci1,                        \
                                               xpbd_contact_slots(max_contacts),              \
                                               max_contacts) == XPBD_OK, "contact init");     \
                k->w.contacts = &k->cs;                                                       \
                k->w.planes = planes;                                                         \
                k->w.plane_count = nplanes;                                                   \
                if (fixed) {                                                                  \
                    const size_t wb = xpbd_contacts_work_bytes(n, max_contacts);              \
                    void *work = malloc(wb);                                                  \
                    FZ_CHECK(work != NULL, "out of memory");                                  \
                    const xpbd_status st = xpbd_contact_set_assign(                           \
                        &k->cs, n, pairs, pi0, pi1, 0, 0, work, wb, NULL);                    \
                    free(work);                                                               \
                    FZ_CHECK(st == XPBD_OK || st == XPBD_OVERFLOW, "assign %d", st);          \
                    k->w.contacts_fixed = 1;                                                  \
                } else {                                                                      \
                    find = max_contacts;                                                      \
                }                                                                             \
            }                                                                                 \
            k->scratch_bytes = xpbd_world_scratch_bytes_##SFX(n, k->c.slots, find);           \
            k->scratch = malloc(k->scratch_bytes ? k->scratch_bytes : 1);                     \
            FZ_CHECK(k->scratch != NULL, "out of memory");                                    \
        }                                                                                     \
        for (uint32_t f = 0; f < frames; ++f) {                                               \
            for (int v = 0; v < 2; ++v) {                                                     \
                fz_copy_##SFX *k = &copy[v];                                                  \
                const size_t sz = fz_state_##SFX(k, before[v]);                               \
                xpbd_step_config c = cfg;                                                     \
                c.isa = isas[v];                                                              \
                xpbd_step_counters kc;                                                        \
                got[v][f] = xpbd_world_step_##SFX(&c, h, &k->w, k->scratch, k->scratch_bytes,  \
                                                  &kc);                                       \
                bad[v][f] = kc.bad_index;                                                     \
                place[v][f] = (unsigned)kc.bad_part << 8 | (unsigned)kc.bad_field;            \
                if (got[v][f] < 0) {                                                          \
                    static unsigned char after[sizeof before[0]];                             \
                    FZ_CHECK(fz_state_##SFX(k, after) == sz && memcmp(after, before[v], sz) == 0, \
                             "failed step (%d, isa %s) changed the state", got[v][f],         \
                             xpbd_isa_name(isas[v]));                                         \
                }                                                                             \
            }                                                                                 \
            FZ_CHECK(got[0][f] == got[1][f] && bad[0][f] == bad[1][f] &&                      \
                         place[0][f] == place[1][f],                                          \
                     "frame %u: scalar %d at %zu (%#x), %s %d at %zu (%#x)", f, got[0][f],    \
                     bad[0][f], place[0][f], xpbd_isa_name(isas[1]), got[1][f], bad[1][f],    \
                     place[1][f]);                                                            \
            FZ_CHECK(memcmp(copy[0].block, copy[1].block, 10 * n * sizeof(R)) == 0,           \
                     "frame %u: particles differ between scalar and %s", f,                   \
                     xpbd_isa_name(isas[1]));                                                 \
            FZ_CHECK(copy[0].c.slots == 0 ||                                                  \
                         memcmp(copy[0].c.lambda, copy[1].c.lambda,                           \
                                copy[0].c.slots * sizeof(R)) == 0,                            \
                     "frame %u: lambda differs between scalar and %s", f,                     \
                     xpbd_isa_name(isas[1]));                                                 \
            if (got[0][f] < 0)                                                                \
                break;                                                                        \
        }                                                                                     \
        for (int v = 0; v < 2; ++v) {                                                         \
            xpbd_distance_set_free_##SFX(&copy[v].c);                                         \
            free(copy[v].scratch);                                                            \
        }                                                                                     \
    }

FZ_STEP(float, f32)
FZ_STEP(double, f64)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (data[0] & 1)
        fz_world_f64(data + 1, size - 1);
    else
        fz_world_f32(data + 1, size - 1);
    return 0;
}
