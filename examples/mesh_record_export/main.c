/* SPDX-License-Identifier: MIT */
/* mesh_record_export: a mesh file in, a recording and a ParaView series out.
 *
 *   mesh_record_export MESH [--out DIR] [--frames N] [--pin GROUP] [--pin-top F]
 *
 * MESH is an OBJ (.obj), a Gmsh file (.msh) or a TetGen mesh (NAME.node, or
 * NAME for NAME.node, NAME.ele, NAME.face), read by xpbd::io (xpbd/io.h).
 * xpbd_mesh_scene_build_f32 makes the engine's scene of it in one call: a
 * soft body (edges and volumes) of a mesh with tets, a cloth (edges and
 * bending) of one with triangles only. --pin GROUP pins every corner of the
 * elements of a label (a Gmsh physical group, by name or number); --pin-top F
 * pins the particles whose y is at least a fraction F of the way up (1: the
 * top layer). The engine runs N frames (default 60) of 1/60 s, recorded by
 * xpbd/replay.h, into DIR (default "out"): the recording DIR/mesh.xrp
 * (`xpbd-replay --check DIR/mesh.xrp`), each frame DIR/frame_NNNN.vtu and
 * their index DIR/mesh.pvd (open it in ParaView).
 * Exits 1, saying why, on a bad file or a failed step. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <xpbd/io.h>
#include <xpbd/replay.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(const char *what, xpbd_status st)
{
    fprintf(stderr, "mesh_record_export: %s: %s\n", what, xpbd_status_str(st));
    return 1;
}

int main(int argc, char **argv)
{
    const char *mesh_path = NULL, *dir = "out", *group = NULL;
    int frames = 60, bad = 0;
    double top = -1;
    for (int i = 1; i < argc && !bad; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--pin") == 0 && i + 1 < argc)
            group = argv[++i];
        else if (strcmp(argv[i], "--pin-top") == 0 && i + 1 < argc)
            top = atof(argv[++i]);
        else if (argv[i][0] != '-' && !mesh_path)
            mesh_path = argv[i];
        else
            bad = 1;
    }
    if (bad || !mesh_path || frames < 1 || frames > 9999) {
        fprintf(stderr, "usage: mesh_record_export MESH [--out DIR] [--frames N (1-9999)] "
                        "[--pin GROUP] [--pin-top F]\n");
        return 1;
    }

    /* 1. the mesh: the loader names the line and what is wrong with a bad file */
    xpbd_mesh_data mesh;
    xpbd_io_error ioerr;
    const char *ext = strrchr(mesh_path, '.') ? strrchr(mesh_path, '.') : "";
    xpbd_status st = strcmp(ext, ".obj") == 0   ? xpbd_io_load_obj(mesh_path, NULL, &mesh, &ioerr)
                     : strcmp(ext, ".msh") == 0 ? xpbd_io_load_gmsh(mesh_path, &mesh, &ioerr)
                                                : xpbd_io_load_tetgen(mesh_path, &mesh, &ioerr);
    if (st != XPBD_OK) {
        fprintf(stderr, "mesh_record_export: %s:%zu: %s (%s)\n", mesh_path, ioerr.line,
                ioerr.what, xpbd_status_str(st));
        return 1;
    }

    /* 2. the engine's scene in one call, pinned by a label and/or by height */
    int32_t label = 0;
    int found = 0;
    for (size_t k = 0; group && k < mesh.labels; ++k) /* a group's name, or its number */
        if (strcmp(mesh.label_name[k], group) == 0)
            label = mesh.label_id[k], found = 1;
    if (group && !found) {
        char *end;
        label = (int32_t)strtol(group, &end, 10);
        found = end != group && *end == 0;
    }
    if (group && !found) {
        fprintf(stderr, "mesh_record_export: %s has no group named '%s'\n", mesh_path, group);
        xpbd_mesh_data_free(&mesh);
        return 1;
    }
    const xpbd_mesh_select up = {1, XPBD_MESH_GREATER_EQUAL, 1, top};
    xpbd_mesh_scene_options o = {.density = 1000, .surface_density = 0.2, .edge_alpha = 1e-6,
                                 .tet_alpha = 1e-6, .bend_alpha = 1e-2};
    if (group)
        o.pin_labels = 1, o.pin_label = &label;
    if (top >= 0)
        o.pin_wheres = 1, o.pin_where = &up;
    xpbd_mesh_scene_f32 s;
    if ((st = xpbd_mesh_scene_build_f32(&s, &mesh, &o)) != XPBD_OK) {
        fprintf(stderr, "mesh_record_export: %s: scene refused: %s (part %d, index %zu)\n",
                mesh_path, xpbd_status_str(st), (int)s.bad_part, s.bad_index);
        xpbd_mesh_data_free(&mesh);
        return 1;
    }
    printf("mesh_record_export: %s: %zu particles, %zu tets, %zu triangles, %zu edges, %zu "
           "pinned\n", mesh_path, mesh.particles, mesh.tets, mesh.triangles, s.scene.edges,
           s.pinned);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 8;
    xpbd_engine_f32 *eng;
    xpbd_where where;
    st = xpbd_engine_create_f32(&eng, &s.scene, &cfg, NULL, &where);
    if (st != XPBD_OK)
        return fail("engine create", st);

    /* 3. record while stepping; each frame as .vtu, the index as .pvd */
    const double h = 1.0 / 60;
    const size_t n = mesh.particles;
    double *xyz = malloc(6 * n * sizeof *xyz), *time = malloc((size_t)frames * sizeof *time);
    char(*name)[32] = malloc((size_t)frames * sizeof *name), path[1024];
    const char **names = malloc((size_t)frames * sizeof *names);
    if (!xyz || !time || !name || !names)
        return fail("memory", XPBD_ERR_NOMEM);
    double *vel = xyz + 3 * n;
    mkdir(dir, 0777); /* may exist; a writer fails if it cannot be written */
    xpbd_replay_file rec;
    if ((st = xpbd_replay_record_begin_f32(&rec, eng, h)) != XPBD_OK)
        return fail("record", st);
    for (int f = 0; f < frames; ++f) {
        if ((st = xpbd_engine_step_f32(eng, h)) < 0)
            return fail("step", st);
        const xpbd_particles_f32 *p = xpbd_engine_particles_f32(eng);
        xpbd_io_interleave_f32(n, p->x, p->y, p->z, xyz);
        xpbd_io_interleave_f32(n, p->vx, p->vy, p->vz, vel);
        const xpbd_io_frame frame = {.points = n, .xyz = xyz, .vel = vel,
                                     .tets = s.scene.tets, .tet = s.tet,
                                     .triangles = mesh.triangles, .triangle = mesh.triangle};
        snprintf(name[f], sizeof name[f], "frame_%04d.vtu", f + 1);
        names[f] = name[f];
        time[f] = (f + 1) * h;
        snprintf(path, sizeof path, "%s/%s", dir, name[f]);
        if ((st = xpbd_io_write_vtu(path, &frame)) != XPBD_OK)
            return fail(path, st);
    }
    snprintf(path, sizeof path, "%s/mesh.pvd", dir);
    if ((st = xpbd_io_write_pvd(path, (size_t)frames, names, time)) != XPBD_OK)
        return fail(path, st);
    printf("mesh_record_export: wrote %d frames: %s/frame_0001.vtu .. %s, index %s\n", frames,
           dir, name[frames - 1], path);

    xpbd_replay_error err;
    snprintf(path, sizeof path, "%s/mesh.xrp", dir);
    if ((st = xpbd_replay_record_end_f32(&rec, eng)) != XPBD_OK ||
        (st = xpbd_replay_save(path, &rec, &err)) != XPBD_OK)
        return fail(path, st);
    printf("mesh_record_export: wrote the recording %s (%llu frames, state hash %016llx)\n",
           path, (unsigned long long)rec.frames, (unsigned long long)rec.hash);
    xpbd_replay_free(&rec);
    xpbd_engine_destroy_f32(eng);
    xpbd_mesh_scene_free_f32(&s);
    xpbd_mesh_data_free(&mesh);
    free(xyz), free(time), free(name), free(names);
    return 0;
}
