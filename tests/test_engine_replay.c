/* SPDX-License-Identifier: MIT */
/* Replay files (xpbd/replay.h): a recorded run replays bit for bit in both
 * precisions, from the file and from the recording in memory; a file of
 * another format or protocol version is refused, a failed save leaves no
 * file.
 *
 * The per-precision part is written once, over precision.h: this file
 * includes itself with XPBD_REAL_F32 defined, then with XPBD_REAL_F64. */
#if defined(XPBD_REAL_F32) || defined(XPBD_REAL_F64)
#include "precision.h"

/* Record a run (a cube dropped on a cloth-free ground, poked, with sleeping
 * and a cloth torn by its pins), replay the file, compare bit for bit. */
static void SFX(sb_replay_roundtrip)(void)
{
    xs_mesh cube, cloth;
    REQUIRE(xs_mesh_box(&cube, 2, 0.1, (const double[3]){-0.1, 0.3, -0.1}, 5));
    REQUIRE(xs_mesh_cloth(&cloth, 8, 5, 0.1, (const double[3]){0.5, 1.0, 0},
                          (const double[3]){1, 0, 0}, (const double[3]){0, -1, 0}));
    const size_t nb = cube.k.particles, n = nb + cloth.k.particles;
    R *xyz = malloc(3 * n * sizeof *xyz), *w = malloc(n * sizeof *w), *r = malloc(n * sizeof *r);
    uint32_t *edges = malloc(2 * (cube.k.edges + cloth.k.edges + cloth.k.shear) * sizeof *edges);
    uint32_t *bends = malloc(4 * cloth.k.bends * sizeof *bends);
    REQUIRE(xyz && w && r && edges && bends);
    for (size_t i = 0; i < 3 * nb; ++i)
        xyz[i] = (R)cube.xyz[i];
    for (size_t i = 0; i < 3 * cloth.k.particles; ++i)
        xyz[3 * nb + i] = (R)cloth.xyz[i];
    for (size_t i = 0; i < n; ++i) {
        w[i] = 10;
        r[i] = (R)0.02;
    }
    for (size_t i = nb; i < nb + 8; ++i)
        w[i] = 0; /* the cloth's top row */
    size_t ne = 0;
    for (size_t e = 0; e < 2 * cube.k.edges; ++e)
        edges[ne++] = cube.edges[e];
    for (size_t e = 0; e < 2 * cloth.k.edges; ++e)
        edges[ne++] = cloth.edges[e] + (uint32_t)nb;
    for (size_t e = 0; e < 2 * cloth.k.shear; ++e)
        edges[ne++] = cloth.shear[e] + (uint32_t)nb;
    for (size_t b = 0; b < 4 * cloth.k.bends; ++b)
        bends[b] = cloth.bends[b] + (uint32_t)nb;
    const size_t bodies[3] = {0, nb, n};
    const xpbd_plane ground = {{0, 1, 0}, 0};
    SFX(xpbd_scene) sc;
    memset(&sc, 0, sizeof sc);
    sc.particles = n;
    sc.xyz = xyz;
    sc.inv_mass = w;
    sc.radius = r;
    sc.edges = ne / 2;
    sc.edge = edges;
    sc.edge_alpha = 1e-4;
    sc.tets = cube.k.tets;
    sc.tet = cube.tets;
    sc.bends = cloth.k.bends;
    sc.bend = bends;
    sc.bend_alpha = 1e-2;
    sc.bodies = 2;
    sc.body_begin = bodies;
    sc.planes = 1;
    sc.plane = &ground;
    sc.max_contacts = 2000;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.iterations = 6;
    cfg.substeps = 2;
    /* f32 runs with a particle capacity (arrays never reallocated), f64
     * with arrays that grow: the file carries either */
    const xpbd_engine_options opt = {.tear_stretch = 0.6, .sleep_energy = 1e-3, .sleep_steps = 10,
                                      .max_particles = R_F64 ? 0u : (uint32_t)n + 64};
    SFX(xpbd_engine) *a = NULL;
    REQUIRE_STATUS(SFX(xpbd_engine_create)(&a, &sc, &cfg, &opt, NULL), XPBD_OK);
    /* start the recording mid-run: the file must carry the whole state */
    for (int f = 0; f < 20; ++f)
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
    char path[64];
    xpbd_replay_error err;
    snprintf(path, sizeof path, "softbody_replay_%s_%u.xpbdr", R_F64 ? "f64" : "f32",
             (unsigned)(xt_next(&(xt_rng){(uint64_t)(uintptr_t)a}) % 100000u));
    xpbd_replay_file rec;
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec, a, 1.0 / 60) == XPBD_OK);
    uint32_t torn = 0, slept = 0;
    for (int f = 0; f < 160; ++f) {
        if (f == 10) { /* poke the cube */
            const xpbd_input poke = {XPBD_INPUT_ADD_VELOCITY, 0, 9, {0, -2, 0.5}};
            ENSURE_STATUS(SFX(xpbd_replay_record_apply)(&rec, a, &poke), XPBD_OK);
        }
        if (f >= 30 && f < 70) { /* drag the top row's halves apart: the cloth tears */
            const xpbd_input drag = {XPBD_INPUT_TRANSLATE, (uint32_t)nb + 4, (uint32_t)nb + 8,
                                     {0.02, 0.005, 0}};
            const xpbd_input drag0 = {XPBD_INPUT_TRANSLATE, (uint32_t)nb, (uint32_t)nb + 4,
                                      {-0.02, 0.005, 0}};
            ENSURE_STATUS(SFX(xpbd_replay_record_apply)(&rec, a, &drag), XPBD_OK);
            ENSURE_STATUS(SFX(xpbd_replay_record_apply)(&rec, a, &drag0), XPBD_OK);
        }
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
        torn += SB_C(a)->torn;
        slept += SB_C(a)->fell_asleep;
    }
    REQUIRE_STATUS(SFX(xpbd_replay_record_end)(&rec, a), XPBD_OK);
    /* the recording in memory replays as the file will */
    SFX(xpbd_engine) *m = NULL;
    ENSURE_STATUS(SFX(xpbd_replay_run)(&rec, &m, &err), XPBD_OK);
    ENSURE(m && SFX(xpbd_replay_state_hash)(m) == rec.hash);
    ENSURE(rec.hash == SFX(xpbd_replay_state_hash)(a));
    SFX(xpbd_engine_destroy)(m);
    REQUIRE(sb_replay_save(&rec, path));
    /* the run exercised what the file must reproduce */
    ENSURE(torn > 0);
    ENSURE(slept > 0);
    xpbd_replay_file fl;
    REQUIRE_STATUS(xpbd_replay_load(path, &fl, &err), XPBD_OK);
    ENSURE_INT(fl.frames, 160);
    ENSURE_INT(fl.start_frame, 20);
    ENSURE_INT(fl.inputs, 81);
    SFX(xpbd_engine) *b = NULL;
    ENSURE_STATUS(SFX(xpbd_replay_run)(&fl, &b, &err), XPBD_OK);
    ENSURE_INT(SB_C(b)->frame, SB_C(a)->frame);
    ENSURE_INT(SB_V(b).edges, SB_V(a).edges);
    SFX(sb_same_particles)(b, a, n, "replayed state");
    ENSURE(SFX(xpbd_replay_state_hash)(b) == fl.hash);
    SAME_BYTES(SB_W(b)->body_asleep, SB_W(a)->body_asleep, 2, "sleep flags");
    REQUIRE(SB_P(b)->count == SB_P(a)->count);
    SAME_U32(SB_V(b).origin, SB_V(a).origin, SB_P(a)->count, "origin");
    xpbd_replay_free(&fl);
    SFX(xpbd_engine_destroy)(b);
    /* a second recording starts after the tear split vertices: the file
     * carries the grown particle set and each particle's origin */
    uint32_t split = 0;
    for (size_t i = n; i < SB_P(a)->count; ++i)
        split += SB_V(a).origin[i] >= nb && SB_V(a).origin[i] < n;
    SB_NOTE("replay scene: %u torn, %zu particles added\n", torn, SB_P(a)->count - n);
    ENSURE(SB_P(a)->count > n && split == SB_P(a)->count - n);
    REQUIRE(SFX(xpbd_replay_record_begin)(&rec, a, 1.0 / 60) == XPBD_OK);
    const xpbd_input push = {XPBD_INPUT_ADD_VELOCITY, (uint32_t)nb, (uint32_t)SB_P(a)->count,
                             {0.3, 0, 0.2}};
    ENSURE_STATUS(SFX(xpbd_replay_record_apply)(&rec, a, &push), XPBD_OK);
    for (int f = 0; f < 30; ++f)
        REQUIRE(SFX(xpbd_engine_step)(a, 1.0 / 60) >= 0);
    REQUIRE(SFX(xpbd_replay_record_end)(&rec, a) == XPBD_OK && sb_replay_save(&rec, path));
    REQUIRE_STATUS(xpbd_replay_load(path, &fl, &err), XPBD_OK);
    ENSURE_STATUS(SFX(xpbd_replay_run)(&fl, &b, &err), XPBD_OK);
    REQUIRE(SB_P(b)->count == SB_P(a)->count);
    SAME_U32(SB_V(b).origin, SB_V(a).origin, SB_P(a)->count, "origin after the split");
    ENSURE(SFX(xpbd_replay_state_hash)(b) == fl.hash);
    ENSURE(SFX(xpbd_replay_state_hash)(a) == fl.hash);
    xpbd_replay_free(&fl);
    SFX(xpbd_engine_destroy)(b);
    SFX(xpbd_engine_destroy)(a);
    remove(path);
    free(xyz);
    free(w);
    free(r);
    free(edges);
    free(bends);
    xs_mesh_free(&cube);
    xs_mesh_free(&cloth);
}

#define XPBD_PRECISION_END
#include "precision.h"

#else /* no precision open: the shared part */

#include "test.h"
#include "test_softbody.h"
#include <xpbd/replay.h>
#include "scenes.h"

#include <stdlib.h>

int sb_replay_save(xpbd_replay_file *rec, const char *path)
{
    xpbd_replay_error err;
    const xpbd_status st = xpbd_replay_save(path, rec, &err);
    if (st != XPBD_OK)
        fprintf(stderr, "  %s: %s (%s)\n", path, err.what, xpbd_status_str(st));
    xpbd_replay_free(rec);
    return st == XPBD_OK;
}

/* The files at a and b hold the same bytes. */
static void sb_same_file(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    char *x = xt_read_file(a, &na), *y = xt_read_file(b, &nb);
    ENSURE(x != NULL && y != NULL);
    ENSURE_INT(na, nb);
    if (x && y && na == nb)
        SAME_BYTES(x, y, na, a);
    free(x);
    free(y);
}

#define XPBD_REAL_F32
#include "test_engine_replay.c"
#define XPBD_REAL_F64
#include "test_engine_replay.c"

void softbody_replay(void)
{
    sb_replay_roundtrip_f32();
    sb_replay_roundtrip_f64();
}

/* Replaces the first occurrence of `from` in a file by `to`. */
static int sb_file_replace(const char *path, const char *from, const char *to)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char *buf = malloc(1 << 20);
    const size_t len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (!buf)
        return 0;
    buf[len] = 0;
    char *at = strstr(buf, from);
    if (!at) {
        free(buf);
        return 0;
    }
    f = fopen(path, "wb");
    if (!f) {
        free(buf);
        return 0;
    }
    fwrite(buf, 1, (size_t)(at - buf), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(buf);
    return 1;
}

/* SPEC S3 memo 1: a replay with the wrong version header is refused with a
 * clear message, never replayed. */
void softbody_replay_version(void)
{
    xs_cube_desc d = xs_cube_default();
    d.n = 1;
    xs_cube c;
    REQUIRE(xs_cube_make(&c, &d));
    const char *path = "softbody_replay_version.xpbdr";
    xpbd_replay_error err;
    xpbd_replay_file rec;
    REQUIRE(xpbd_replay_record_begin_f64(&rec, c.e, 1.0 / 60) == XPBD_OK);
    REQUIRE(xs_run(c.e, 3));
    REQUIRE(xpbd_replay_record_end_f64(&rec, c.e) == XPBD_OK && sb_replay_save(&rec, path));
    xpbd_replay_file f;
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_OK);
    /* a save that fails writes nothing: a replay the loader would refuse,
     * one of another protocol, a directory that does not exist */
    const char *other = "softbody_replay_version_refused.xpbdr";
    remove(other);
    f.planes = 9;
    ENSURE_STATUS(xpbd_replay_save(other, &f, &err), XPBD_ERR_ARGUMENT);
    ENSURE(strstr(err.what, "planes") != NULL);
    f.planes = 0;
    f.protocol = XPBD_PROTOCOL_VERSION + 1;
    ENSURE_STATUS(xpbd_replay_save(other, &f, &err), XPBD_ERR_VERSION);
    f.protocol = XPBD_PROTOCOL_VERSION;
    ENSURE_STATUS(xpbd_replay_save("no_such_dir/replay.xpbdr", &f, &err), XPBD_ERR_FILE);
    ENSURE(!xt_file_exists(other) && !xt_file_exists("softbody_replay_version_refused.xpbdr.part"));
    /* saved again, it is the recording's file byte for byte, and it loads
     * as it was: saved once more, the same bytes again */
    ENSURE_STATUS(xpbd_replay_save(other, &f, &err), XPBD_OK);
    ENSURE(xt_file_exists(other) && !xt_file_exists("softbody_replay_version_refused.xpbdr.part"));
    sb_same_file(other, path);
    xpbd_replay_file g;
    ENSURE_STATUS(xpbd_replay_load(other, &g, &err), XPBD_OK);
    ENSURE(g.n == f.n && g.hash == f.hash && g.frames == f.frames);
    const char *again = "softbody_replay_version_again.xpbdr";
    ENSURE_STATUS(xpbd_replay_save(again, &g, &err), XPBD_OK);
    sb_same_file(again, other);
    xpbd_replay_free(&g);
    remove(again);
    remove(other);
    xpbd_replay_free(&f);
    char from[32], to[32];
    snprintf(from, sizeof from, "protocol %u\n", (unsigned)XPBD_PROTOCOL_VERSION);
    snprintf(to, sizeof to, "protocol %u\n", (unsigned)XPBD_PROTOCOL_VERSION + 1);
    REQUIRE(sb_file_replace(path, from, to));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_VERSION);
    ENSURE(strstr(err.what, "protocol") != NULL && strstr(err.what, "refused") != NULL);
    ENSURE_INT(err.line, 2);
    ENSURE(f.particle == NULL); /* nothing loaded */
    REQUIRE(sb_file_replace(path, to, from));
    snprintf(from, sizeof from, "xpbd-replay %u\n", (unsigned)XPBD_REPLAY_FORMAT);
    snprintf(to, sizeof to, "xpbd-replay %u\n", (unsigned)XPBD_REPLAY_FORMAT + 1);
    REQUIRE(sb_file_replace(path, from, to));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_VERSION);
    ENSURE(strstr(err.what, "format") != NULL && strstr(err.what, "refused") != NULL);
    ENSURE_INT(err.line, 1);
    REQUIRE(sb_file_replace(path, to, from));
    /* the step configuration's own version field */
    snprintf(from, sizeof from, "config version %u ", (unsigned)XPBD_PROTOCOL_VERSION);
    snprintf(to, sizeof to, "config version %u ", (unsigned)XPBD_PROTOCOL_VERSION + 7);
    REQUIRE(sb_file_replace(path, from, to));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_VERSION);
    REQUIRE(sb_file_replace(path, to, from));
    /* a truncated file: no 'end' line */
    REQUIRE(sb_file_replace(path, "\nend ", "\nfin "));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_FILE);
    ENSURE(err.line > 10 && strstr(err.what, "input") != NULL);
    ENSURE(f.particle == NULL && f.n == 0);
    remove(path);
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_FILE);
    ENSURE(err.line == 0 && strstr(err.what, "cannot open") != NULL);
    ENSURE_STATUS(xpbd_replay_load(NULL, &f, &err), XPBD_ERR_ARGUMENT);
    /* the engine refuses a configuration of another protocol too */
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.version = XPBD_PROTOCOL_VERSION + 1;
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    xpbd_engine_f64 *e = NULL;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, &cfg, NULL, NULL), XPBD_ERR_VERSION);
    xs_cube_free(&c);
}

/* The sizes a replay file asks for are bounded: a contact capacity past the
 * contact set's range is refused as malformed before anything is
 * allocated; one within it but past what the particles can use is kept at
 * the ordered pairs they can form; a frame count past XPBD_REPLAY_MAX_FRAMES is
 * refused rather than run for ever. */
void softbody_replay_bounds(void)
{
    const double xyz[6] = {0, 0, 0, 0.05, 0, 0}, w[2] = {1, 1}, r[2] = {0.04, 0.04};
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = 2;
    s.xyz = xyz;
    s.inv_mass = w;
    s.radius = r;
    s.max_contacts = 1;
    xpbd_engine_f64 *e = NULL;
    REQUIRE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, NULL), XPBD_OK);
    const char *path = "softbody_replay_bounds.xpbdr";
    xpbd_replay_error err;
    xpbd_replay_file rec;
    REQUIRE(xpbd_replay_record_begin_f64(&rec, e, 1.0 / 60) == XPBD_OK);
    REQUIRE(xs_run(e, 3));
    REQUIRE(xpbd_replay_record_end_f64(&rec, e) == XPBD_OK && sb_replay_save(&rec, path));
    xpbd_engine_destroy_f64(e);
    xpbd_replay_file f;
    REQUIRE(sb_file_replace(path, "\ncontacts 1\n", "\ncontacts 2147483647\n"));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_FILE);
    ENSURE(strstr(err.what, "contacts") != NULL);
    ENSURE(f.particle == NULL);
    /* within the range: loaded, and the engine keeps 2 ordered pairs */
    REQUIRE(sb_file_replace(path, "\ncontacts 2147483647\n", "\ncontacts 1073741823\n"));
    REQUIRE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_OK);
    ENSURE_STATUS(xpbd_replay_run_f64(&f, &e, &err), XPBD_OK);
    xpbd_scene_f64 view;
    xpbd_engine_scene_f64(e, &view);
    ENSURE_INT(view.max_contacts, 2);
    ENSURE(xpbd_replay_state_hash_f64(e) == f.hash); /* the capacity changes nothing */
    xpbd_engine_destroy_f64(e);
    xpbd_replay_free(&f);
    REQUIRE(sb_file_replace(path, "\nend 3 ", "\nend 16777217 "));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_FILE);
    ENSURE(strstr(err.what, "frames") != NULL);
    REQUIRE(sb_file_replace(path, "\nend 16777217 ", "\nend 18446744073709551615 "));
    ENSURE_STATUS(xpbd_replay_load(path, &f, &err), XPBD_ERR_FILE);
    remove(path);
    /* the engine refuses the out-of-range capacity itself, holding nothing */
    s.max_contacts = (size_t)INT32_MAX;
    xpbd_where bad;
    ENSURE_STATUS(xpbd_engine_create_f64(&e, &s, NULL, NULL, &bad), XPBD_ERR_ARGUMENT);
    ENSURE(e == NULL);
    ENSURE_INT(bad.part, XPBD_PART_CONTACT_FOUND);
    ENSURE_INT(bad.field, XPBD_FIELD_MAX_CONTACTS);
}

#endif /* XPBD_REAL_F32 or XPBD_REAL_F64 */
