/* SPDX-License-Identifier: MIT */
/* xpbd-io-alloc-tests: every loader of xpbd/io.h with its k-th allocation
 * failing, for every k up to the number a clean load makes: XPBD_ERR_NOMEM,
 * *out zeroed, a message, and no block left (the hooks of alloc_fail.c
 * count live blocks; under ASan LeakSanitizer checks at exit too). The same
 * of the replays (xpbd/replay.h): a recording begun (*out zeroed), an input
 * logged (neither logged nor applied), a save (no file written) and both
 * loads. The writers too (.vtu, .vtk, .pvd, OBJ, PC2 and the PC2 reader):
 * XPBD_ERR_NOMEM, no block left, the target as it was and no PATH.part
 * left. Linked against xpbd_io_allocfail, xpbd::io's sources built with
 * alloc_fail.h force-included (tests/tests.cmake); the engine's own
 * allocations, in the shipped libxpbd, are not counted.
 *
 *   xpbd-io-alloc-tests DIR   (the path loaders' files are written there) */
#include "io_files.h"
#include "test.h"

#include <xpbd/replay.h>

#include <stdlib.h>

extern unsigned long xt_af_count, xt_af_fail_at;
extern long xt_af_live;

static unsigned long failures, checks;
static const char *dir = ".";

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        ++checks;                                                                             \
        if (!(cond)) {                                                                        \
            ++failures;                                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
        }                                                                                     \
    } while (0)

static const char *path(const char *name)
{
    static char buf[4][1024];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

static io_bw bin;

static xpbd_status load(int which, xpbd_mesh_data *m, xpbd_io_error *err)
{
    const xpbd_obj_options z = {2, XPBD_IO_UP_Z};
    switch (which) {
    case 0: return xpbd_io_load_obj_mem(io_obj_forms, sizeof io_obj_forms - 1, &z, m, err);
    case 1: return xpbd_io_load_obj(path("alloc.obj"), NULL, m, err);
    case 2:
        return xpbd_io_load_tetgen_mem(io_tg1_node, sizeof io_tg1_node - 1, io_tg1_ele,
                                       sizeof io_tg1_ele - 1, io_tg1_face,
                                       sizeof io_tg1_face - 1, m, err);
    case 3: return xpbd_io_load_tetgen(path("alloc.node"), m, err);
    case 4: return xpbd_io_load_gmsh_mem(io_msh41, sizeof io_msh41 - 1, m, err);
    case 5: return xpbd_io_load_gmsh_mem(bin.buf, bin.n, m, err);
    case 6: return xpbd_io_load_gmsh(path("alloc22.msh"), m, err);
    default: return xpbd_io_load_gmsh(path("alloc41.msh"), m, err);
    }
}

static const char *const names[8] = {"xpbd_io_load_obj_mem",    "xpbd_io_load_obj",
                                     "xpbd_io_load_tetgen_mem", "xpbd_io_load_tetgen",
                                     "xpbd_io_load_gmsh_mem (4.1 ASCII)",
                                     "xpbd_io_load_gmsh_mem (4.1 binary)",
                                     "xpbd_io_load_gmsh (2.2)", "xpbd_io_load_gmsh (4.1 ASCII)"};

/* ------------------------------------------------------------ replays --- */

/* One replay call with allocation k failing (0: none): 1 when it did what
 * it documents for XPBD_ERR_NOMEM (k > 0) or succeeded (k = 0). */
static int replay_call(int which, xpbd_engine_f64 *e, const xpbd_replay_file *rec,
                       const char *text, size_t size, unsigned long *count)
{
    static const char *const what[5] = {"xpbd_replay_record_begin_f64",
                                        "xpbd_replay_record_apply_f64", "xpbd_replay_save",
                                        "xpbd_replay_load", "xpbd_replay_load_mem"};
    const char *saved = path("alloc_replay_saved.xrp");
    xpbd_replay_file f, log;
    xpbd_replay_error err;
    memset(&log, 0, sizeof log);
    memset(&err, 0, sizeof err);
    const unsigned long k = xt_af_fail_at;
    xt_af_fail_at = 0;
    xpbd_status st = XPBD_OK;
    int ok = 1;
    remove(saved);
    if (which == 1) { /* a log with no room left: the input grows it */
        log.f64 = 1;
        log.start_frame = xpbd_engine_counters_f64(e)->frame;
    }
    const uint64_t before = xpbd_replay_state_hash_f64(e);
    memset(&f, 0xab, sizeof f);
    xt_af_count = 0;
    xt_af_live = 0;
    xt_af_fail_at = k;
    switch (which) {
    case 0: st = xpbd_replay_record_begin_f64(&f, e, 1.0 / 60); break;
    case 1: {
        const xpbd_input in = {XPBD_INPUT_ADD_VELOCITY, 1, 3, {0, 0.5, 0}};
        st = xpbd_replay_record_apply_f64(&log, e, &in);
        break;
    }
    case 2: st = xpbd_replay_save(saved, rec, &err); break;
    case 3: st = xpbd_replay_load(path("alloc_replay.xrp"), &f, &err); break;
    default: st = xpbd_replay_load_mem(text, size, &f, &err); break;
    }
    *count = xt_af_count;
    xt_af_fail_at = 0;
    if (k == 0) {
        CHECK(st == XPBD_OK && *count > 0, "%s: clean run: %d (%s), %lu allocations", what[which],
              st, err.what, *count);
        ok = st == XPBD_OK;
        if (which == 1) {
            /* undo the applied input: the next runs start from the same state */
            const xpbd_input back = {XPBD_INPUT_ADD_VELOCITY, 1, 3, {0, -0.5, 0}};
            xpbd_engine_apply_f64(e, &back);
            CHECK(log.inputs == 1, "%s: clean run logged %zu inputs", what[which], log.inputs);
        }
    } else {
        CHECK(st == XPBD_ERR_NOMEM, "%s, allocation %lu failing: %d (%s)", what[which], k, st,
              err.what);
        ok = st == XPBD_ERR_NOMEM;
        if (which == 0 || which >= 3)
            CHECK(xt_all_zero(&f, sizeof f), "%s, allocation %lu failing: *out not zeroed",
                  what[which], k);
        if (which >= 2)
            CHECK(err.what[0] != '\0', "%s, allocation %lu failing: no message", what[which], k);
        if (which == 1)
            CHECK(log.inputs == 0 && xpbd_replay_state_hash_f64(e) == before,
                  "%s, allocation %lu failing: logged or applied", what[which], k);
        if (which == 2)
            CHECK(!xt_file_exists(saved) && !xt_file_exists(path("alloc_replay_saved.xrp.part")),
                  "%s, allocation %lu failing: a file written", what[which], k);
    }
    if ((which == 0 || which >= 3) && st == XPBD_OK)
        xpbd_replay_free(&f);
    xpbd_replay_free(&log);
    CHECK(xt_af_live == 0, "%s, allocation %lu failing: %ld blocks left", what[which], k,
          xt_af_live);
    remove(saved);
    return ok;
}

/* A chain of 8 particles with radii, bodies and a ground, recorded over a
 * few frames with an input: every array of a replay file is there. */
static void replay_cases(void)
{
    enum { N = 8 };
    double xyz[3 * N], w[N], r[N];
    uint32_t edge[2 * (N - 1)];
    for (int i = 0; i < N; ++i) {
        xyz[3 * i] = 0.05 * i;
        xyz[3 * i + 1] = 0.2;
        xyz[3 * i + 2] = 0;
        w[i] = i == 0 ? 0 : 1;
        r[i] = 0.02;
    }
    for (int i = 0; i + 1 < N; ++i) {
        edge[2 * i] = (uint32_t)i;
        edge[2 * i + 1] = (uint32_t)i + 1;
    }
    const size_t body[3] = {0, 4, N};
    const xpbd_plane ground = {{0, 1, 0}, 0};
    xpbd_scene_f64 s;
    memset(&s, 0, sizeof s);
    s.particles = N;
    s.xyz = xyz;
    s.inv_mass = w;
    s.radius = r;
    s.edges = N - 1;
    s.edge = edge;
    s.edge_alpha = 1e-6;
    s.bodies = 2;
    s.body_begin = body;
    s.planes = 1;
    s.plane = &ground;
    s.max_contacts = 64;
    xpbd_engine_f64 *e = NULL;
    xpbd_replay_file rec;
    memset(&rec, 0, sizeof rec);
    xt_af_fail_at = 0;
    int ok = xpbd_engine_create_f64(&e, &s, NULL, NULL, NULL) == XPBD_OK &&
             xpbd_replay_record_begin_f64(&rec, e, 1.0 / 60) == XPBD_OK;
    const xpbd_input poke = {XPBD_INPUT_ADD_VELOCITY, 2, 6, {0.1, 0.3, 0}};
    for (int f = 0; ok && f < 4; ++f)
        ok = (f != 1 || xpbd_replay_record_apply_f64(&rec, e, &poke) == XPBD_OK) &&
             xpbd_engine_step_f64(e, 1.0 / 60) >= 0;
    ok = ok && xpbd_replay_record_end_f64(&rec, e) == XPBD_OK &&
         xpbd_replay_save(path("alloc_replay.xrp"), &rec, NULL) == XPBD_OK;
    CHECK(ok, "recording the replay case");
    char text[1 << 14];
    size_t size = 0;
    FILE *t = ok ? fopen(path("alloc_replay.xrp"), "rb") : NULL;
    if (t) {
        size = fread(text, 1, sizeof text, t);
        fclose(t);
    }
    CHECK(size > 0 && size < sizeof text, "reading the replay file back: %zu bytes", size);
    for (int which = 0; ok && which < 5; ++which) {
        unsigned long count = 0, k_count = 0;
        xt_af_fail_at = 0;
        if (!replay_call(which, e, &rec, text, size, &count))
            continue;
        for (unsigned long k = 1; k <= count; ++k) {
            xt_af_fail_at = k;
            replay_call(which, e, &rec, text, size, &k_count);
        }
        printf("%-36s %lu allocations, each failing in turn\n",
               which == 0   ? "xpbd_replay_record_begin_f64"
               : which == 1 ? "xpbd_replay_record_apply_f64"
               : which == 2 ? "xpbd_replay_save"
               : which == 3 ? "xpbd_replay_load"
                            : "xpbd_replay_load_mem",
               count);
    }
    xt_af_fail_at = 0;
    xpbd_replay_free(&rec);
    xpbd_engine_destroy_f64(e);
    remove(path("alloc_replay.xrp"));
}

/* ------------------------------------------------------------ writers --- */

/* The file at p is exactly want (NUL-terminated); NULL want: no file. */
static int file_is(const char *p, const char *want)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return want == NULL;
    char got[256];
    const size_t n = fread(got, 1, sizeof got, f);
    fclose(f);
    return want && n == strlen(want) && memcmp(got, want, n) == 0;
}

/* One writer call (which: 0 .vtu, 1 .vtk, 2 .pvd, 3 OBJ, 4 PC2 open,
 * append, close, 5 PC2 read back) with allocation k failing (0: none), onto
 * a target that already holds "before\n". Returns the status; *count the
 * allocations it made. */
static xpbd_status writer_call(int which, unsigned long k, unsigned long *count)
{
    static const char *const file[6] = {"alloc_out.vtu", "alloc_out.vtk", "alloc_out.pvd",
                                        "alloc_out.obj", "alloc_out.pc2", "alloc_in.pc2"};
    static const double xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const double vel[12] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
    static const double strain[4] = {0, 0.5, 0.25, 1};
    static const uint32_t tet[4] = {0, 1, 2, 3}, tri[3] = {0, 1, 2};
    const xpbd_io_point_array arr = {"max_strain", strain};
    const xpbd_io_frame fr = {4, xyz, vel, 1, tet, 1, tri, 1, &arr};
    const char *const pvd_file[2] = {"f0.vtu", "f1.vtu"};
    const double pvd_time[2] = {0, 1.0 / 60};
    xpbd_io_pc2_writer *w = NULL;
    xpbd_io_pc2 pc;
    xpbd_status st, opened = XPBD_OK;
    char part[1100];
    snprintf(part, sizeof part, "%s.part", path(file[which]));
    size_t in_size = 0; /* the PC2 reader's input, to be left as it was */
    char *in = which == 5 ? xt_read_file(path(file[5]), &in_size) : NULL;
    xt_af_count = 0;
    xt_af_live = 0;
    xt_af_fail_at = k;
    switch (which) {
    case 0: st = xpbd_io_write_vtu(path(file[0]), &fr); break;
    case 1: st = xpbd_io_write_vtk(path(file[1]), &fr); break;
    case 2: st = xpbd_io_write_pvd(path(file[2]), 2, pvd_file, pvd_time); break;
    case 3: st = xpbd_io_write_obj(path(file[3]), 4, xyz, 1, tri); break;
    case 4:
        st = opened = xpbd_io_pc2_open(&w, path(file[4]), 4, 1, 1);
        if (st == XPBD_OK)
            st = xpbd_io_pc2_append(w, xyz);
        if (st == XPBD_OK)
            st = xpbd_io_pc2_close(w);
        else
            xpbd_io_pc2_discard(w);
        if (k > 0) {
            /* out of memory, *out NULL when open failed, nothing allocated,
             * the target as it was and no PATH.part */
            const int kept = file_is(path(file[4]), "before\n"), part_left = xt_file_exists(part);
            CHECK(st == XPBD_ERR_NOMEM && (opened == XPBD_OK || w == NULL) && xt_af_live == 0 &&
                      kept && !part_left,
                  "xpbd_io_pc2_open/append/close, allocation %lu failing: status %d, open %d, "
                  "*out %s, %ld blocks left, target %s, %s.part %s",
                  k, st, opened, w ? "set" : "NULL", xt_af_live, kept ? "as it was" : "changed",
                  file[4], part_left ? "left" : "absent");
        }
        break;
    default:
        memset(&pc, 0xab, sizeof pc);
        st = xpbd_io_read_pc2(path(file[5]), &pc);
        if (st == XPBD_OK)
            xpbd_io_pc2_free(&pc);
        if (k > 0) {
            /* out of memory, *out zeroed, nothing allocated, the input as
             * it was and nothing written beside it */
            size_t now_size = 0;
            char *now = xt_read_file(path(file[5]), &now_size);
            const int kept = in && now && now_size == in_size &&
                             memcmp(now, in, in_size) == 0,
                      part_left = xt_file_exists(part);
            CHECK(st == XPBD_ERR_NOMEM && xt_all_zero(&pc, sizeof pc) && xt_af_live == 0 &&
                      kept && !part_left,
                  "xpbd_io_read_pc2, allocation %lu failing: status %d, *out %s, %ld blocks "
                  "left, input %s, %s.part %s",
                  k, st, xt_all_zero(&pc, sizeof pc) ? "zeroed" : "not zeroed", xt_af_live,
                  kept ? "as it was" : "changed", file[5], part_left ? "left" : "absent");
            free(now);
        }
        break;
    }
    *count = xt_af_count;
    xt_af_fail_at = 0;
    free(in);
    return st;
}

/* Every writer with its k-th allocation failing, for every k a clean write
 * makes: XPBD_ERR_NOMEM, no block left, the target as it was ("before")
 * and no PATH.part beside it; and the PC2 reader: XPBD_ERR_NOMEM, *out
 * zeroed, no block left, its input as it was and no PATH.part. */
static void writer_cases(void)
{
    static const char *const names[6] = {"xpbd_io_write_vtu", "xpbd_io_write_vtk",
                                         "xpbd_io_write_pvd", "xpbd_io_write_obj",
                                         "xpbd_io_pc2_open/append/close", "xpbd_io_read_pc2"};
    static const char *const file[6] = {"alloc_out.vtu", "alloc_out.vtk", "alloc_out.pvd",
                                        "alloc_out.obj", "alloc_out.pc2", "alloc_in.pc2"};
    static const double xyz[3] = {1, 2, 3};
    xpbd_io_pc2_writer *w = NULL;
    const int made = xpbd_io_pc2_open(&w, path(file[5]), 1, 1, 1) == XPBD_OK &&
                     xpbd_io_pc2_append(w, xyz) == XPBD_OK && xpbd_io_pc2_close(w) == XPBD_OK;
    CHECK(made, "writing %s to read back", file[5]);
    for (int which = 0; which < 6; ++which) {
        char part[1100];
        snprintf(part, sizeof part, "%s.part", path(file[which]));
        const char *before = which < 5 ? "before\n" : NULL;
        if (before)
            CHECK(io_write(path(file[which]), before, strlen(before)), "writing %s",
                  file[which]);
        unsigned long count = 0, k_count = 0;
        xpbd_status st = writer_call(which, 0, &count);
        CHECK(st == XPBD_OK && count > 0, "%s: clean run: %d, %lu allocations", names[which], st,
              count);
        CHECK(before == NULL || !file_is(path(file[which]), before),
              "%s: clean run left the target as it was", names[which]);
        for (unsigned long k = 1; k <= count; ++k) {
            if (before)
                io_write(path(file[which]), before, strlen(before));
            st = writer_call(which, k, &k_count);
            CHECK(st == XPBD_ERR_NOMEM, "%s, allocation %lu of %lu failing: %d", names[which], k,
                  count, st);
            CHECK(xt_af_live == 0, "%s, allocation %lu failing: %ld blocks left", names[which],
                  k, xt_af_live);
            if (before) {
                CHECK(file_is(path(file[which]), before),
                      "%s, allocation %lu failing: the target changed", names[which], k);
                CHECK(file_is(part, NULL), "%s, allocation %lu failing: %s left", names[which],
                      k, part);
            }
        }
        printf("%-36s %lu allocations, each failing in turn\n", names[which], count);
        remove(path(file[which]));
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        dir = argv[1];
    io_msh41_binary(&bin, 0, 8, IO_BIN_VALID);
    if (!io_write(path("alloc.obj"), io_obj_forms, sizeof io_obj_forms - 1) ||
        !io_write(path("alloc.node"), io_tg1_node, sizeof io_tg1_node - 1) ||
        !io_write(path("alloc.ele"), io_tg1_ele, sizeof io_tg1_ele - 1) ||
        !io_write(path("alloc.face"), io_tg1_face, sizeof io_tg1_face - 1) ||
        !io_write(path("alloc22.msh"), io_msh22, sizeof io_msh22 - 1) ||
        !io_write(path("alloc41.msh"), io_msh41, sizeof io_msh41 - 1)) {
        fprintf(stderr, "xpbd-io-alloc-tests: cannot write the files in %s\n", dir);
        return 1;
    }
    for (int which = 0; which < 8; ++which) {
        xpbd_mesh_data m;
        xpbd_io_error err;
        xt_af_fail_at = 0;
        xt_af_count = 0;
        xpbd_status st = load(which, &m, &err);
        const unsigned long count = xt_af_count;
        CHECK(st == XPBD_OK && count > 0, "%s: clean run: %d (%s), %lu allocations",
              names[which], st, err.what, count);
        xpbd_mesh_data_free(&m);
        for (unsigned long k = 1; k <= count; ++k) {
            xt_af_count = 0;
            xt_af_fail_at = k;
            xt_af_live = 0;
            memset(&m, 0xab, sizeof m);
            st = load(which, &m, &err);
            CHECK(st == XPBD_ERR_NOMEM, "%s, allocation %lu of %lu failing: %d (%s)", names[which],
                  k, count, st, err.what);
            CHECK(xt_all_zero(&m, sizeof m), "%s, allocation %lu failing: *out not zeroed",
                  names[which], k);
            CHECK(err.what[0] != '\0', "%s, allocation %lu failing: no message", names[which], k);
            CHECK(xt_af_live == 0, "%s, allocation %lu failing: %ld blocks left", names[which], k,
                  xt_af_live);
            if (st == XPBD_OK)
                xpbd_mesh_data_free(&m);
        }
        printf("%-36s %lu allocations, each failing in turn\n", names[which], count);
    }
    xt_af_fail_at = 0;
    replay_cases();
    writer_cases();
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
