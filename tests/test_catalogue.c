/* SPDX-License-Identifier: MIT */
/* The bad-input catalogue: one row per documented error of the public
 * functions, each an edit of one valid input (the fixture below), the
 * status, bad_index and place (part and field) the header documents, and
 * the check that the call left the caller's state as documented (in/out
 * state bit-identical; a builder's *out zeroed). The functions that name a
 * place (the steps' counters, the engine's create) are held to the row's
 * part and field; a row of any other function names none.
 *
 * A row names the function it calls; its edit is a small function of the
 * fixture. Rows run in double precision: both precisions are one template
 * (the f32 paths are held to the same rules in bad_tmpl.h and the fuzz
 * targets). The README's contract section quotes the table's size. */
#include "fixture.h"

#include <xpbd/reference.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define CN 12u  /* particles of the chain */
#define CM 11u  /* its distance constraints */

/* Everything a row may edit: the inputs of every function in the table. */
typedef struct cat_fx {
    /* particles (the chain), in one block */
    double block[10 * CN];
    xpbd_particles_f64 p;
    /* distance inputs and the set built from them */
    uint32_t i0[CM], i1[CM];
    double rest[CM], comp[CM];
    xpbd_colouring_options opt;
    xpbd_distance_set_f64 set, out;
    uint32_t stamp[CN + 64];
    /* a unit cube split in tets, and a flat 3 x 3 cloth's bending stencils */
    double box_xyz[3 * 8], cloth_xyz[3 * 9];
    uint32_t tet[4 * 6], bend[4 * 16];
    size_t tets, bends;
    double tcomp[16];
    xpbd_quad_set_f64 qset, qout;
    xpbd_quad_set_f64 bset; /* the cloth's two bending stencils, built */
    /* contacts */
    double radius[CN];
    xpbd_contact_set cs;
    uint32_t ci0[2048], ci1[2048], pi0[4], pi1[4];
    size_t slots, max_contacts, npairs;
    uint64_t work[2048];
    size_t work_bytes;
    xpbd_broadphase bp;
    /* step and world */
    xpbd_step_config cfg;
    double h;
    unsigned char scratch[16384] __attribute__((aligned(64)));
    size_t scratch_bytes;
    xpbd_plane plane[2];
    uint32_t anchor[CN];
    double tlen[CN];
    size_t body[3];
    xpbd_rigid_f64 rigid[2];
    xpbd_rigid_impulse rimp[2];
    xpbd_world_f64 w;
    /* the 1-D lab kernel */
    double a, b, wa, wb, lrest, lcomp, dt, lambda;
    /* meshes */
    xpbd_cloth_desc cloth;
    xpbd_box_desc box;
    xpbd_mesh_out mout;
    double mxyz[3 * 64];
    /* tear split */
    uint8_t torn[CM], tet_drop[6], bend_drop[16];
    uint32_t edge[2 * CM], edge_out[2 * CM], split[64];
    size_t copies;
    /* engine create (the chain as a scene) and apply */
    double sxyz[3 * CN], sw[CN];
    uint32_t sedge[2 * CM], stet[8], sbend[8];
    xpbd_scene_f64 scene;
    xpbd_engine_options eopt;
    xpbd_engine_f64 *e;
    xpbd_input input;
    /* mesh topology: the unit cube's tets (box_xyz, tet) and the 3 x 3
     * cloth's eight triangles (cloth_xyz), with room for one more */
    uint32_t ctri[3 * 9];
    size_t ctris;
    uint32_t tpairs[2 * 64], tstencil[4 * 16];
    size_t tcap, tcount, tflipped, tskipped, massless, pinned;
    double tdensity, tmass[9], tw[9];
    int32_t tlabel[6];
    xpbd_mesh_select sel;
    xpbd_mesh_data mesh;
    xpbd_mesh_scene_options mopt;
    /* the ISA parser */
    const char *isa_name;
    xpbd_isa isa_out;
    size_t bad;
    xpbd_part part; /* the place a call names (XPBD_PART_COUNT: it names none) */
    xpbd_field field;
} cat_fx;

/* Executors a configuration may name that cannot run anything (never
 * called: the step and create refuse them first). */
static void *cat_enqueue(xpbd_range_task *task, uint32_t count, uint32_t min_range,
                         uint32_t workers, void *task_ctx, void *user_ctx)
{
    (void)min_range, (void)workers, (void)user_ctx;
    task(0, count, 0, task_ctx);
    return NULL;
}
static void cat_finish(void *handle, void *user_ctx) { (void)handle, (void)user_ctx; }
static const xpbd_executor cat_no_enqueue = {NULL, cat_finish, 4, NULL};
static const xpbd_executor cat_no_finish = {cat_enqueue, NULL, 4, NULL};
static const xpbd_executor cat_no_workers = {cat_enqueue, cat_finish, 0, NULL};

static void cat_fixture(cat_fx *f)
{
    memset(f, 0, sizeof *f);
    xpbd_particles_bind_f64(&f->p, CN, f->block, CN);
    for (uint32_t i = 0; i < CN; ++i) {
        f->p.x[i] = f->p.px[i] = 0.5 * i;
        f->p.y[i] = f->p.py[i] = 1;
        f->p.vz[i] = 0.1;
        f->p.w[i] = i == 0 ? 0 : 1;
        f->radius[i] = 0.2;
        f->anchor[i] = i;
        f->tlen[i] = 5;
    }
    for (uint32_t k = 0; k < CM; ++k) {
        f->i0[k] = k;
        f->i1[k] = k + 1;
        f->rest[k] = 0.5;
        f->comp[k] = 1e-6;
        f->edge[2 * k] = k;
        f->edge[2 * k + 1] = k + 1;
    }
    (void)xpbd_distance_set_build_f64(&f->set, CN, CM, f->i0, f->i1, f->rest, f->comp, NULL, NULL);
    memset(&f->out, 0xa5, sizeof f->out);
    memset(&f->qout, 0xa5, sizeof f->qout);
    /* unit cube, Kuhn split: six tets around the 0-7 diagonal */
    for (int v = 0; v < 8; ++v) {
        f->box_xyz[3 * v] = v & 1;
        f->box_xyz[3 * v + 1] = v >> 1 & 1;
        f->box_xyz[3 * v + 2] = v >> 2 & 1;
    }
    static const uint32_t kuhn[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7},
                                        {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};
    memcpy(f->tet, kuhn, sizeof kuhn);
    f->tets = 6;
    for (int k = 0; k < 16; ++k)
        f->tcomp[k] = 1e-5;
    (void)xpbd_tet_set_build_f64(&f->qset, 8, f->box_xyz, 6, f->tet, f->tcomp, NULL, NULL);
    /* 3 x 3 flat cloth, bends of the two triangles of the lower-left quad
     * and its neighbours */
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
            f->cloth_xyz[3 * (3 * j + i)] = i;
            f->cloth_xyz[3 * (3 * j + i) + 2] = j;
        }
    static const uint32_t st[2][4] = {{0, 4, 1, 3}, {4, 8, 5, 7}};
    memcpy(f->bend, st, sizeof st);
    f->bends = 2;
    (void)xpbd_bend_set_build_f64(&f->bset, 9, f->cloth_xyz, 2, f->bend, f->tcomp, NULL, NULL);
    /* contacts: room for 16, two pairs */
    f->max_contacts = 16;
    f->slots = xpbd_contact_slots(f->max_contacts);
    f->work_bytes = xpbd_contacts_work_bytes(CN, f->max_contacts);
    (void)xpbd_contact_set_init(&f->cs, f->ci0, f->ci1, f->slots, f->max_contacts);
    f->pi0[0] = 1, f->pi1[0] = 2, f->pi0[1] = 5, f->pi1[1] = 7;
    f->npairs = 2;
    f->bp.skin = 0.05;
    /* step */
    f->cfg = xpbd_step_config_default();
    f->cfg.isa = XPBD_ISA_SCALAR;
    f->h = 1.0 / 60;
    f->scratch_bytes = sizeof f->scratch;
    f->plane[0] = (xpbd_plane){{0, 1, 0}, 0};
    f->plane[1] = (xpbd_plane){{1, 0, 0}, -10};
    f->body[0] = 0, f->body[1] = 6, f->body[2] = CN;
    for (int b = 0; b < 2; ++b) {
        f->rigid[b].shape = XPBD_RIGID_SPHERE;
        f->rigid[b].centre[0] = 100 + 10 * b; /* far away: touches nothing */
        f->rigid[b].half[0] = 1;
        f->rigid[b].inv_mass = 1;
        f->rigid[b].rot[0] = f->rigid[b].rot[4] = f->rigid[b].rot[8] = 1;
        f->rigid[b].inv_inertia[0] = f->rigid[b].inv_inertia[4] = f->rigid[b].inv_inertia[8] = 1;
    }
    memset(&f->w, 0, sizeof f->w);
    f->w.particles = &f->p;
    f->w.constraints = &f->set;
    f->w.radius = f->radius;
    f->w.planes = f->plane;
    f->w.plane_count = 1;
    /* 1-D lab */
    f->a = 0, f->b = 1.5, f->wa = 1, f->wb = 1, f->lrest = 1, f->lcomp = 0, f->dt = 0.01;
    /* meshes */
    f->cloth = (xpbd_cloth_desc){3, 3, 0.5, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    f->box = (xpbd_box_desc){1, 1, 1, 0.5, {0, 0, 0}, 6};
    f->mout.xyz64 = f->mxyz;
    f->mout.capacity.particles = 64;
    for (uint32_t i = 0; i < CN; ++i) {
        f->sxyz[3 * i] = 0.5 * i;
        f->sxyz[3 * i + 1] = 1;
        f->sw[i] = i == 0 ? 0 : 1;
    }
    memcpy(f->sedge, f->edge, sizeof f->sedge);
    for (uint32_t k = 0; k < 8; ++k) /* two tets and two stencils of the chain, unused */
        f->stet[k] = f->sbend[k] = k;
    f->scene.particles = CN;
    f->scene.xyz = f->sxyz;
    f->scene.inv_mass = f->sw;
    f->scene.radius = f->radius;
    f->scene.edges = CM;
    f->scene.edge = f->sedge;
    f->scene.planes = 1;
    f->scene.plane = f->plane;
    f->scene.max_contacts = 16;
    f->e = (xpbd_engine_f64 *)(uintptr_t)0x3c3c3c3c; /* create must set it */
    f->input = (xpbd_input){XPBD_INPUT_ADD_VELOCITY, 2, 5, {0, 1, 0}};
    for (uint32_t j = 0; j < 2; ++j) /* the cloth's triangles, as xpbd_mesh_cloth's */
        for (uint32_t i = 0; i < 2; ++i) {
            const uint32_t a = 3 * j + i, t[6] = {a, a + 1, a + 4, a, a + 4, a + 3};
            memcpy(f->ctri + 6 * (2 * j + i), t, sizeof t);
        }
    f->ctris = 8;
    f->tcap = 64;
    f->tdensity = 100;
    for (int k = 0; k < 8; ++k)
        f->tmass[k] = 0.5 + k;
    for (int k = 0; k < 9; ++k)
        f->tw[k] = 1;
    for (int k = 0; k < 6; ++k)
        f->tlabel[k] = k < 3 ? 1 : 2;
    f->sel = (xpbd_mesh_select){1, XPBD_MESH_GREATER, 0, 0.5};
    f->mesh.particles = 8;
    f->mesh.xyz = f->box_xyz;
    f->mesh.tets = 6;
    f->mesh.tet = f->tet;
    f->mopt.density = 1000;
    f->isa_name = "scalar";
    f->isa_out = XPBD_ISA_AUTO;
    f->bad = 12345;
    f->part = XPBD_PART_COUNT;
    f->field = XPBD_FIELD_COUNT;
}

static void cat_release(cat_fx *f)
{
    if (f->e != (xpbd_engine_f64 *)(uintptr_t)0x3c3c3c3c)
        xpbd_engine_destroy_f64(f->e);
    xpbd_distance_set_free_f64(&f->set);
    xpbd_quad_set_free_f64(&f->qset);
    xpbd_quad_set_free_f64(&f->bset);
    /* a row whose call wrongly succeeded would leave these built */
    if (f->out.block_ && f->out.count != 0xa5a5a5a5u)
        xpbd_distance_set_free_f64(&f->out);
    if (f->qout.block_ && f->qout.count != 0xa5a5a5a5u)
        xpbd_quad_set_free_f64(&f->qout);
}

/* -------------------------------------------------------- the calls --- */
/* Each returns the status and sets f->bad (SIZE_MAX when the function
 * has no bad_index). */

static xpbd_status call_solve(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_distance1d_solve(&f->a, &f->b, f->wa, f->wb, f->lrest, f->lcomp, f->dt,
                                 &f->lambda);
}
static xpbd_status call_solve_null(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_distance1d_solve(NULL, &f->b, f->wa, f->wb, f->lrest, f->lcomp, f->dt,
                                 &f->lambda);
}
static xpbd_status call_isa_from_name(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_isa_from_name(f->isa_name, &f->isa_out);
}
static xpbd_status call_particles_validate(cat_fx *f)
{
    return xpbd_particles_validate_f64(&f->p, &f->bad);
}
static xpbd_status call_distance_build(cat_fx *f)
{
    return xpbd_distance_set_build_f64(&f->out, CN, CM, f->i0, f->i1, f->rest, f->comp, &f->opt,
                                       &f->bad);
}
static xpbd_status call_distance_build_null(cat_fx *f)
{
    return xpbd_distance_set_build_f64(&f->out, CN, CM, NULL, f->i1, f->rest, f->comp, &f->opt,
                                       &f->bad);
}
static xpbd_status call_distance_validate(cat_fx *f)
{
    return xpbd_distance_set_validate_f64(&f->set, CN, f->stamp, &f->bad);
}
static xpbd_status call_distance_validate_nostamp(cat_fx *f)
{
    return xpbd_distance_set_validate_f64(&f->set, CN, NULL, &f->bad);
}
static xpbd_status call_tet_build(cat_fx *f)
{
    return xpbd_tet_set_build_f64(&f->qout, 8, f->box_xyz, f->tets, f->tet, f->tcomp, &f->opt,
                                  &f->bad);
}
static xpbd_status call_bend_build(cat_fx *f)
{
    return xpbd_bend_set_build_f64(&f->qout, 9, f->cloth_xyz, f->bends, f->bend, f->tcomp,
                                   &f->opt, &f->bad);
}
static xpbd_status call_quad_validate(cat_fx *f)
{
    return xpbd_quad_set_validate_f64(&f->qset, 8, f->stamp, &f->bad);
}
static xpbd_status call_contact_init(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_contact_set_init(&f->cs, f->ci0, f->ci1, f->slots, f->max_contacts);
}
static xpbd_status call_contact_assign(cat_fx *f)
{
    return xpbd_contact_set_assign(&f->cs, CN, f->npairs, f->pi0, f->pi1, f->opt.max_colours,
                                   0, f->work, f->work_bytes, &f->bad);
}
static xpbd_status call_contact_validate(cat_fx *f)
{
    (void)xpbd_contact_set_assign(&f->cs, CN, 2, (const uint32_t[]){1, 5},
                                  (const uint32_t[]){2, 7}, 0, 0, f->work, f->work_bytes, NULL);
    /* the edit is applied to the assigned set: see the rows */
    if (f->npairs == 3)
        f->ci1[1] = 2; /* slot 1 repeats particle 2 of slot 0 */
    else if (f->npairs == 4)
        f->ci1[0] = 1; /* a pair of particle 1 with itself */
    return xpbd_contact_set_validate(&f->cs, CN, f->stamp, &f->bad);
}
static xpbd_status call_contacts_find(cat_fx *f)
{
    return xpbd_contacts_find_f64(&f->p, f->radius, &f->bp, f->work, f->work_bytes, &f->cs,
                                  &f->bad);
}
static xpbd_status call_mesh_cloth(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_mesh_cloth(&f->cloth, NULL, &f->mout);
}
static xpbd_status call_mesh_box(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_mesh_box(&f->box, NULL, &f->mout);
}
static xpbd_status call_mesh_edges(cat_fx *f)
{
    return xpbd_mesh_edges(8, f->tet, f->tets, 4, f->tpairs, f->tcap, &f->tcount, &f->bad);
}
static xpbd_status call_mesh_bends(cat_fx *f)
{
    return xpbd_mesh_bends(9, f->ctri, f->ctris, 0, f->tstencil, 16, &f->tcount, NULL, &f->bad,
                           NULL);
}
static xpbd_status call_dihedral(cat_fx *f)
{
    return xpbd_mesh_dihedral_angles_f64(9, f->cloth_xyz, f->bend, f->bends, f->tmass, &f->bad);
}
static xpbd_status call_clean_tets(cat_fx *f)
{
    return xpbd_mesh_clean_tets_f64(8, f->box_xyz, f->tet, f->tets, f->tlabel, f->opt.serial,
                                    &f->tflipped, &f->tskipped, &f->bad);
}
static xpbd_status call_clean_triangles(cat_fx *f)
{
    return xpbd_mesh_clean_triangles_f64(9, f->cloth_xyz, f->ctri, f->ctris, NULL, 0,
                                         &f->tskipped, &f->bad);
}
static xpbd_status call_mesh_masses(cat_fx *f)
{
    return xpbd_mesh_masses_f64(8, f->box_xyz, f->tet, f->tets, 4, f->tdensity, f->tmass,
                                &f->bad);
}
static xpbd_status call_inverse_masses(cat_fx *f)
{
    return xpbd_mesh_inverse_masses_f64(8, f->tmass, f->tw, &f->massless, &f->bad);
}
static xpbd_status call_pin_where(cat_fx *f)
{
    return xpbd_mesh_pin_where_f64(8, f->box_xyz, &f->sel, f->tw, &f->pinned, &f->bad);
}
static xpbd_status call_pin_label(cat_fx *f)
{
    return xpbd_mesh_pin_label_f64(8, f->tet, f->tets, 4, f->tlabel, 2, f->tw, &f->pinned,
                                   &f->bad);
}
/* the scene's place is its own (xpbd_mesh_part), not an xpbd_part: the row
 * holds the index; a refused build must leave no array behind */
static xpbd_status call_mesh_scene(cat_fx *f)
{
    xpbd_mesh_scene_f64 s;
    memset(&s, 0x5a, sizeof s);
    const xpbd_status st = xpbd_mesh_scene_build_f64(&s, &f->mesh, &f->mopt);
    f->bad = s.bad_index;
    if (st != XPBD_OK && (s.xyz || s.inv_mass || s.edge || s.tet || s.bend || s.rest_angle))
        f->block[0] = -1; /* makes the caller-state comparison fail */
    xpbd_mesh_scene_free_f64(&s);
    return st;
}
static xpbd_status call_step(cat_fx *f)
{
    xpbd_step_counters k;
    const xpbd_status st =
        xpbd_step_f64(&f->cfg, f->h, &f->p, &f->set, f->scratch, f->scratch_bytes, &k);
    f->bad = k.bad_index;
    f->part = k.bad_part;
    f->field = k.bad_field;
    return st;
}
static xpbd_status call_world_step(cat_fx *f)
{
    xpbd_step_counters k;
    const xpbd_status st =
        xpbd_world_step_f64(&f->cfg, f->h, &f->w, f->scratch, f->scratch_bytes, &k);
    f->bad = k.bad_index;
    f->part = k.bad_part;
    f->field = k.bad_field;
    return st;
}
static xpbd_status call_tear_split(cat_fx *f)
{
    f->bad = SIZE_MAX;
    return xpbd_tear_split(CN, f->edge, CM, f->torn, NULL, 0, NULL, 0, (unsigned)f->opt.serial,
                           f->tet_drop, f->bend_drop, f->edge_out, NULL, NULL, f->split, 64,
                           &f->copies);
}

static xpbd_status call_engine_create(cat_fx *f)
{
    xpbd_where where = {XPBD_PART_COUNT, 12345, XPBD_FIELD_COUNT};
    const xpbd_status st = xpbd_engine_create_f64(&f->e, &f->scene, &f->cfg, &f->eopt, &where);
    f->bad = where.index;
    f->part = where.part;
    f->field = where.field;
    return st;
}
/* apply on a created engine: its particles compared before and after (a
 * change spoils the fixture's block, so the row's state check fails) */
static xpbd_status call_engine_apply(cat_fx *f)
{
    f->bad = SIZE_MAX;
    if (xpbd_engine_create_f64(&f->e, &f->scene, NULL, NULL, NULL) != XPBD_OK)
        return XPBD_ERR_ARGUMENT; /* the fixture row check reports it */
    xpbd_engine_f64 *e = f->e;
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(e);
    if (f->input.value[2] == 1.7e308) { /* the second translation overflows */
        const xpbd_input once = {XPBD_INPUT_TRANSLATE, 0, CN, {0, 0, 1.7e308}};
        (void)xpbd_engine_apply_f64(e, &once);
    }
    const size_t bytes = CN * sizeof(double);
    const double *arrays[10] = {p->x,  p->y,  p->z,  p->px, p->py,
                                p->pz, p->vx, p->vy, p->vz, p->w};
    double saved[10 * CN];
    for (int k = 0; k < 10; ++k)
        memcpy(saved + k * CN, arrays[k], bytes);
    const xpbd_status st = xpbd_engine_apply_f64(e, &f->input);
    unsigned changed = 0;
    for (int k = 0; k < 10; ++k)
        changed |= memcmp(saved + k * CN, arrays[k], bytes) != 0;
    if (changed)
        f->block[0] = -1; /* makes the caller-state comparison fail */
    return st;
}

/* ------------------------------------------------------------ edits --- */

static void e_none(cat_fx *f) { (void)f; }
static void e_lambda_nan(cat_fx *f) { f->lambda = NAN; }
static void e_a_inf(cat_fx *f) { f->a = INFINITY; }
static void e_wb_neg(cat_fx *f) { f->wb = -1; }
static void e_lrest_zero(cat_fx *f) { f->lrest = 0; }
static void e_lcomp_neg(cat_fx *f) { f->lcomp = -1e-9; }
static void e_dt_zero(cat_fx *f) { f->dt = 0; }
static void e_dt_nan(cat_fx *f) { f->dt = NAN; }
static void e_order(cat_fx *f) { f->b = f->a; }
static void e_scale(cat_fx *f) { f->lcomp = 1e300, f->dt = 1e-300; }
static void e_isa_bogus(cat_fx *f) { f->isa_name = "avx1024"; }
static void e_isa_case(cat_fx *f) { f->isa_name = "AVX2"; }
static void e_p_x3_nan(cat_fx *f) { f->p.x[3] = NAN; }
static void e_p_z9_inf(cat_fx *f) { f->p.z[9] = -INFINITY; }
static void e_p_vy5_inf(cat_fx *f) { f->p.vy[5] = INFINITY; }
static void e_p_w2_neg(cat_fx *f) { f->p.w[2] = -1; }
static void e_p_w7_nan(cat_fx *f) { f->p.w[7] = NAN; }
static void e_p_w_null(cat_fx *f) { f->p.w = NULL; }
static void e_i0_range(cat_fx *f) { f->i0[2] = CN; }
static void e_i1_same(cat_fx *f) { f->i1[4] = f->i0[4]; }
static void e_rest_zero(cat_fx *f) { f->rest[1] = 0; }
static void e_rest_nan(cat_fx *f) { f->rest[6] = NAN; }
static void e_rest_inf(cat_fx *f) { f->rest[0] = INFINITY; }
static void e_comp_neg(cat_fx *f) { f->comp[3] = -1; }
static void e_comp_inf(cat_fx *f) { f->comp[10] = INFINITY; }
static void e_colours(cat_fx *f) { f->opt.max_colours = XPBD_MAX_COLOURS + 1; }
/* edits of the built chain set: slot 0 holds constraint 0 (0-1) */
static uint32_t slot_of(const xpbd_distance_set_f64 *c, uint32_t source)
{
    for (uint32_t s = 0; s < c->slots; ++s)
        if (c->source[s] == source)
            return s;
    return 0;
}
static void e_set_i0_range(cat_fx *f) { f->set.i0[slot_of(&f->set, 5)] = CN + 3; }
static void e_set_same(cat_fx *f) { f->set.i1[slot_of(&f->set, 2)] = f->set.i0[slot_of(&f->set, 2)]; }
static void e_set_repeat(cat_fx *f)
{
    /* constraints 0 (0-1) and 2 (2-3) share colour 0: 2-3 becomes 2-0 */
    f->set.i1[slot_of(&f->set, 2)] = 0;
}
static void e_set_rest(cat_fx *f) { f->set.rest[slot_of(&f->set, 7)] = -0.5; }
static void e_set_comp(cat_fx *f) { f->set.compliance[slot_of(&f->set, 8)] = NAN; }
static void e_set_lambda(cat_fx *f) { f->set.lambda[slot_of(&f->set, 9)] = INFINITY; }
static void e_set_pad(cat_fx *f) { f->set.lambda[f->set.colour_size[0]] = 1; }
static void e_set_layout(cat_fx *f) { f->set.colour_begin[1] += 1; }
static void e_tet_range(cat_fx *f) { f->tet[4 * 2 + 1] = 8; }
static void e_tet_twice(cat_fx *f) { f->tet[4 * 3 + 2] = f->tet[4 * 3]; }
static void e_tet_flat(cat_fx *f) { f->box_xyz[3 * 7 + 2] = 0, f->box_xyz[3 * 7 + 1] = 0, f->box_xyz[3 * 7] = 0.5; }
static void e_tet_comp(cat_fx *f) { f->tcomp[4] = -1; }
static void e_tet_pos(cat_fx *f) { f->box_xyz[3 * 5 + 1] = NAN; }
static void e_bend_flat(cat_fx *f) { f->cloth_xyz[3 * 1] = 0.5, f->cloth_xyz[3 * 1 + 2] = 0.5; }
/* edits of the built tet set: each tet is alone in its colour (all share
 * the cube's diagonal), so tet k sits at the slot qslot finds */
static uint32_t qslot(const xpbd_quad_set_f64 *c, uint32_t source)
{
    for (uint32_t s = 0; s < c->slots; ++s)
        if (c->source[s] == source)
            return s;
    return 0;
}
static void e_q_range(cat_fx *f) { f->qset.i2[qslot(&f->qset, 1)] = 9; }
static void e_q_comp(cat_fx *f) { f->qset.compliance[qslot(&f->qset, 2)] = -INFINITY; }
static void e_q_lambda(cat_fx *f) { f->qset.lambda[qslot(&f->qset, 3)] = NAN; }
static void e_q_rest(cat_fx *f) { f->qset.rest[qslot(&f->qset, 4)] = INFINITY; }
static void e_q_twice(cat_fx *f) { f->qset.i3[qslot(&f->qset, 0)] = f->qset.i1[qslot(&f->qset, 0)]; }
static void e_q_pad(cat_fx *f) { f->qset.i1[qslot(&f->qset, 5) + 1] = 3; }
static void e_cs_small(cat_fx *f) { f->slots = f->max_contacts; }
static void e_pair_range(cat_fx *f) { f->pi1[1] = CN; }
static void e_pair_same(cat_fx *f) { f->pi1[0] = f->pi0[0]; }
static void e_work_small(cat_fx *f) { f->work_bytes -= 1; }
static void e_cs_repeat(cat_fx *f) { f->npairs = 3; }
static void e_cs_self(cat_fx *f) { f->npairs = 4; }
static void e_radius_neg(cat_fx *f) { f->radius[6] = -0.1; }
static void e_radius_nan(cat_fx *f) { f->radius[2] = NAN; }
static void e_skin_neg(cat_fx *f) { f->bp.skin = -1; }
static void e_cell_small(cat_fx *f) { f->bp.cell = 0.1; }
static void e_bp_colours(cat_fx *f) { f->bp.max_colours = 65; }
static void e_cloth_nx(cat_fx *f) { f->cloth.nx = 1; }
static void e_cloth_spacing(cat_fx *f) { f->cloth.spacing = 0; }
static void e_cloth_cap(cat_fx *f) { f->mout.capacity.particles = 8; }
static void e_box_tpc(cat_fx *f) { f->box.tets_per_cube = 4; }
static void e_tcap(cat_fx *f) { f->tcap = 18; } /* the cube has 19 edges */
static void e_ctri_range(cat_fx *f) { f->ctri[3 * 5 + 1] = 9; }
static void e_ctri_twice(cat_fx *f) { memcpy(f->ctri + 3 * 8, f->ctri + 3 * 2, 3 * sizeof *f->ctri), f->ctris = 9; }
static void e_ctri_flat(cat_fx *f) { f->cloth_xyz[3 * 4] = 0.5, f->cloth_xyz[3 * 4 + 2] = 0; }
static void e_density(cat_fx *f) { f->tdensity = -1, f->mopt.density = 0; }
static void e_tmass(cat_fx *f) { f->tmass[3] = -2; }
static void e_sel_axis(cat_fx *f) { f->sel.axis = 3; }
static void e_bend_range(cat_fx *f) { f->bend[4 * 1 + 2] = 9; }
static void e_box_origin(cat_fx *f) { f->box.origin[1] = NAN; }
static void e_version(cat_fx *f) { f->cfg.version = XPBD_PROTOCOL_VERSION + 1; }
static void e_substeps(cat_fx *f) { f->cfg.substeps = 0; }
static void e_iterations(cat_fx *f) { f->cfg.iterations = 0; }
static void e_damping(cat_fx *f) { f->cfg.damping = 1; }
static void e_h_zero(cat_fx *f) { f->h = 0; }
static void e_h_neg(cat_fx *f) { f->h = -1.0 / 60; }
static void e_h_inf(cat_fx *f) { f->h = INFINITY; }
static void e_isa_enum(cat_fx *f) { f->cfg.isa = (xpbd_isa)77; }
static void e_scratch(cat_fx *f) { f->scratch_bytes = 64; }
static void e_springs_rigid(cat_fx *f) { f->cfg.solver = XPBD_SOLVER_SPRINGS, f->set.compliance[slot_of(&f->set, 4)] = 0; }
static void e_beta(cat_fx *f) { f->cfg.contact_beta = 0; }
static void e_restitution(cat_fx *f) { f->cfg.restitution = 1.5; }
static void e_slop(cat_fx *f) { f->cfg.contact_slop = -0.01; }
static void e_friction(cat_fx *f) { f->cfg.friction_static = 0.2, f->cfg.friction_dynamic = 0.3; }
static void e_plane(cat_fx *f) { f->plane[0].n[1] = 3; }
static void e_plane_d(cat_fx *f) { f->plane[0].d = NAN; }
static void e_w_radius(cat_fx *f) { f->radius[11] = -1; }
static void e_tether(cat_fx *f) { f->w.tether_anchor = f->anchor, f->w.tether_length = f->tlen, f->anchor[4] = CN; }
static void e_tether_len(cat_fx *f) { f->w.tether_anchor = f->anchor, f->w.tether_length = f->tlen, f->tlen[8] = -1; }
static void e_fixed_repeat(cat_fx *f)
{
    (void)xpbd_contact_set_assign(&f->cs, CN, 2, f->pi0, f->pi1, 0, 0, f->work, f->work_bytes,
                                  NULL);
    f->w.contacts = &f->cs;
    f->w.contacts_fixed = 1;
    f->ci0[1] = 2; /* slot 1 (5-7) becomes 2-7: particle 2 is in slot 0 */
}
static void e_lesson(cat_fx *f) { f->cfg.contact_order = XPBD_CONTACTS_LESSON; }
static void e_sc_version(cat_fx *f) { f->cfg.version = 7; }
static void e_sc_tear(cat_fx *f) { f->eopt.tear_stretch = -0.5; }
static void e_sc_sleep(cat_fx *f) { f->eopt.sleep_energy = NAN; }
static void e_sc_hinges(cat_fx *f) { f->eopt.keep_hinges = 2; }
static void e_sc_maxp(cat_fx *f) { f->eopt.max_particles = CN - 1; }
static void e_sc_alpha(cat_fx *f) { f->scene.edge_alpha = -1; }
static void e_sc_plane(cat_fx *f) { f->plane[0].n[1] = 3; }
static void e_sc_tether(cat_fx *f) { f->scene.tether_anchor = f->anchor, f->scene.tether_length = f->tlen, f->anchor[5] = 99; }
static void e_sc_pos(cat_fx *f) { f->sxyz[3 * 2 + 1] = NAN; }
static void e_sc_w(cat_fx *f) { f->sw[4] = -2; }
static void e_sc_radius(cat_fx *f) { f->radius[9] = INFINITY; }
static void e_sc_edge(cat_fx *f) { f->sedge[2 * 6 + 1] = CN; }
static void e_sc_null(cat_fx *f) { f->scene.xyz = NULL; }
static void e_in_kind(cat_fx *f) { f->input.kind = 99; }
static void e_in_range(cat_fx *f) { f->input.end = CN + 1; }
static void e_in_translate(cat_fx *f) { f->input = (xpbd_input){XPBD_INPUT_TRANSLATE, 0, CN, {0, 0, 1.7e308}}; }
static void e_in_velocity(cat_fx *f) { f->input = (xpbd_input){XPBD_INPUT_SET_VELOCITY, 1, 3, {NAN, 0, 0}}; }
static void e_in_mass(cat_fx *f) { f->input = (xpbd_input){XPBD_INPUT_SET_INV_MASS, 1, 3, {-1, 0, 0}}; }
static void e_in_wake(cat_fx *f) { f->input = (xpbd_input){XPBD_INPUT_WAKE, 3, 0, {0, 0, 0}}; }
static void e_tear_range(cat_fx *f) { f->edge[2 * 3 + 1] = CN; }
static void e_tear_self(cat_fx *f) { f->edge[2 * 5 + 1] = f->edge[2 * 5]; }
static void e_tear_flag(cat_fx *f) { f->opt.serial = 4; }
/* configuration fields, each refused with its field named (the step and
 * create check them alike) */
static void e_gravity(cat_fx *f) { f->cfg.gravity[2] = NAN; }
static void e_stiffness(cat_fx *f) { f->cfg.pbd_stiffness = 0; }
static void e_spring_damping(cat_fx *f) { f->cfg.spring_damping = -1; }
static void e_solver(cat_fx *f) { f->cfg.solver = (xpbd_solver)7; }
static void e_lambda_reset(cat_fx *f) { f->cfg.lambda_reset = (xpbd_lambda_reset)5; }
static void e_measure(cat_fx *f) { f->cfg.measure_residual = 2; }
static void e_order_enum(cat_fx *f) { f->cfg.contact_order = (xpbd_contact_order)9; }
static void e_ex_enqueue(cat_fx *f) { f->cfg.executor = &cat_no_enqueue; }
static void e_ex_finish(cat_fx *f) { f->cfg.executor = &cat_no_finish; }
static void e_ex_workers(cat_fx *f) { f->cfg.executor = &cat_no_workers; }
static void e_two_bad(cat_fx *f) { f->cfg.damping = 2, f->cfg.substeps = 0; } /* the first named */
static void e_fs_neg(cat_fx *f) { f->cfg.friction_static = -1; }
static void e_skin(cat_fx *f) { f->cfg.contact_skin = -0.5; }
static void e_reldamp(cat_fx *f) { f->cfg.relative_damping = 1.5; }
/* the same index error (a particle past the world's) in the element with
 * source 1 of each set: four parts */
static void e_w_dist_range(cat_fx *f) { f->set.i1[slot_of(&f->set, 1)] = CN + 3; }
static void e_w_tet_range(cat_fx *f) { f->w.tets = &f->qset, f->qset.i2[qslot(&f->qset, 1)] = CN + 3; }
static void e_w_bend_range(cat_fx *f) { f->w.bends = &f->bset, f->bset.i2[qslot(&f->bset, 1)] = CN + 3; }
static void e_w_contact_range(cat_fx *f)
{
    (void)xpbd_contact_set_assign(&f->cs, CN, 2, f->pi0, f->pi1, 0, 0, f->work, f->work_bytes,
                                  NULL);
    f->w.contacts = &f->cs;
    f->w.contacts_fixed = 1;
    f->ci1[1] = CN + 3; /* slot 1 (5-7) becomes 5-15 */
}
static void e_w_sets_valid(cat_fx *f) { f->w.tets = &f->qset, f->w.bends = &f->bset; }
static void e_w_bodies_valid(cat_fx *f) { f->w.body_begin = f->body, f->w.body_count = 2, f->w.plane_count = 2; }
static void e_sc_bodies_valid(cat_fx *f) { f->scene.bodies = 2, f->scene.body_begin = f->body, f->scene.planes = 2; }
static void e_plane1(cat_fx *f) { f->w.plane_count = 2, f->plane[1].n[1] = 1; }
static void e_radius_null(cat_fx *f) { f->w.radius = NULL; }
static void e_body1(cat_fx *f) { f->w.body_begin = f->body, f->w.body_count = 2, f->body[2] = CN + 1; }
static void e_rigids(cat_fx *f) { f->w.rigids = f->rigid, f->w.rigid_impulse = f->rimp, f->w.rigid_count = 2; }
static void e_rigid1_mass(cat_fx *f) { e_rigids(f), f->rigid[1].inv_mass = -1; }
static void e_rigid0_rot(cat_fx *f) { e_rigids(f), f->rigid[0].rot[5] = INFINITY; }
static void e_rigid_null(cat_fx *f) { e_rigids(f), f->w.rigid_impulse = NULL; }
/* create: the scene's places */
static void e_sc_opt_ex(cat_fx *f) { f->eopt.executor = &cat_no_workers; }
static void e_sc_springs(cat_fx *f)
{
    f->cfg.solver = XPBD_SOLVER_SPRINGS;
    f->scene.edge_compliance = f->comp;
    f->comp[7] = 0, f->comp[3] = 0; /* springs need compliance > 0: the lowest edge named */
}
static void e_sc_plane1(cat_fx *f) { f->scene.planes = 2, f->plane[1].d = INFINITY; }
static void e_sc_body1(cat_fx *f) { f->scene.bodies = 2, f->scene.body_begin = f->body, f->body[1] = 7, f->body[2] = 5; }
static void e_sc_origin(cat_fx *f) { f->scene.origin = f->anchor, f->anchor[4] = CN; }
static void e_sc_contacts(cat_fx *f) { f->scene.max_contacts = (size_t)INT32_MAX; }
static void e_sc_tet_alpha(cat_fx *f) { f->scene.tet_alpha = NAN; }
static void e_sc_bend_alpha(cat_fx *f) { f->scene.bend_alpha = -1; }
static void e_sc_tet(cat_fx *f) { f->scene.tets = 2, f->scene.tet = f->stet, f->stet[4 + 2] = CN; }
static void e_sc_bend(cat_fx *f) { f->scene.bends = 2, f->scene.bend = f->sbend, f->sbend[4 + 2] = CN; }
static void e_sc_colours(cat_fx *f) { f->scene.colouring.max_colours = XPBD_MAX_COLOURS + 1; }

/* ------------------------------------------------------------- table --- */

typedef struct cat_row {
    const char *function;
    xpbd_status (*call)(cat_fx *);
    void (*edit)(cat_fx *);
    xpbd_status want;
    size_t bad;       /* SIZE_MAX: none named */
    xpbd_part part;   /* the place named: XPBD_PART_NONE for a function that names none */
    xpbd_field field;
    int builds; /* the call fills an *out that must be zeroed on error: 1 a set, 2 an engine */
} cat_row;

#define NB SIZE_MAX
#define PT(name) XPBD_PART_##name
#define FD(name) XPBD_FIELD_##name
static const cat_row rows[] = {
    {"xpbd_distance1d_solve", call_solve_null, e_none, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_lambda_nan, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_a_inf, XPBD_ERR_POSITION, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_wb_neg, XPBD_ERR_INVERSE_MASS, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_lrest_zero, XPBD_ERR_REST, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_lcomp_neg, XPBD_ERR_COMPLIANCE, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_dt_zero, XPBD_ERR_TIMESTEP, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_dt_nan, XPBD_ERR_TIMESTEP, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_order, XPBD_ERR_ORDER, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance1d_solve", call_solve, e_scale, XPBD_ERR_SCALE, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_isa_from_name", call_isa_from_name, e_isa_bogus, XPBD_ERR_ISA, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_isa_from_name", call_isa_from_name, e_isa_case, XPBD_ERR_ISA, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_x3_nan, XPBD_ERR_POSITION, 3, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_z9_inf, XPBD_ERR_POSITION, 9, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_vy5_inf, XPBD_ERR_VELOCITY, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_w2_neg, XPBD_ERR_INVERSE_MASS, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_w7_nan, XPBD_ERR_INVERSE_MASS, 7, PT(NONE), FD(NONE), 0},
    {"xpbd_particles_validate_f64", call_particles_validate, e_p_w_null, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_build_f64", call_distance_build_null, e_none, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_i0_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_i1_same, XPBD_ERR_INDEX, 4, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_rest_zero, XPBD_ERR_REST, 1, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_rest_nan, XPBD_ERR_REST, 6, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_rest_inf, XPBD_ERR_REST, 0, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_comp_neg, XPBD_ERR_COMPLIANCE, 3, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_comp_inf, XPBD_ERR_COMPLIANCE, 10, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_build_f64", call_distance_build, e_colours, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 1},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_i0_range, XPBD_ERR_INDEX, 0xfff0, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_same, XPBD_ERR_INDEX, 0xfff1, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_repeat, XPBD_ERR_INDEX, 0xfff1, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_rest, XPBD_ERR_REST, 0xfff3, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_comp, XPBD_ERR_COMPLIANCE, 0xfff4, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_lambda, XPBD_ERR_LAMBDA, 0xfff5, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_pad, XPBD_ERR_INDEX, 0xfff6, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate, e_set_layout, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_distance_set_validate_f64", call_distance_validate_nostamp, e_none, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_tet_set_build_f64", call_tet_build, e_tet_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 1},
    {"xpbd_tet_set_build_f64", call_tet_build, e_tet_twice, XPBD_ERR_INDEX, 3, PT(NONE), FD(NONE), 1},
    {"xpbd_tet_set_build_f64", call_tet_build, e_tet_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 1},
    {"xpbd_tet_set_build_f64", call_tet_build, e_tet_comp, XPBD_ERR_COMPLIANCE, 4, PT(NONE), FD(NONE), 1},
    {"xpbd_tet_set_build_f64", call_tet_build, e_tet_pos, XPBD_ERR_POSITION, 5, PT(NONE), FD(NONE), 1},
    {"xpbd_tet_set_build_f64", call_tet_build, e_colours, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 1},
    {"xpbd_bend_set_build_f64", call_bend_build, e_bend_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 1},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_range, XPBD_ERR_INDEX, 0xffe1, PT(NONE), FD(NONE), 0},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_twice, XPBD_ERR_INDEX, 0xffe0, PT(NONE), FD(NONE), 0},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_comp, XPBD_ERR_COMPLIANCE, 0xffe2, PT(NONE), FD(NONE), 0},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_lambda, XPBD_ERR_LAMBDA, 0xffe3, PT(NONE), FD(NONE), 0},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_rest, XPBD_ERR_REST, 0xffe4, PT(NONE), FD(NONE), 0},
    {"xpbd_quad_set_validate_f64", call_quad_validate, e_q_pad, XPBD_ERR_INDEX, 0xffe8, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_init", call_contact_init, e_cs_small, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_assign", call_contact_assign, e_pair_range, XPBD_ERR_INDEX, 1, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_assign", call_contact_assign, e_pair_same, XPBD_ERR_INDEX, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_assign", call_contact_assign, e_colours, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_assign", call_contact_assign, e_work_small, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_validate", call_contact_validate, e_cs_repeat, XPBD_ERR_INDEX, 1, PT(NONE), FD(NONE), 0},
    {"xpbd_contact_set_validate", call_contact_validate, e_cs_self, XPBD_ERR_INDEX, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_p_x3_nan, XPBD_ERR_POSITION, 3, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_radius_neg, XPBD_ERR_RADIUS, 6, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_radius_nan, XPBD_ERR_RADIUS, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_skin_neg, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_cell_small, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_bp_colours, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_contacts_find_f64", call_contacts_find, e_work_small, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_cloth", call_mesh_cloth, e_cloth_nx, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_cloth", call_mesh_cloth, e_cloth_spacing, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_cloth", call_mesh_cloth, e_cloth_cap, XPBD_ERR_CAPACITY, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_box", call_mesh_box, e_box_tpc, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_box", call_mesh_box, e_box_origin, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_edges", call_mesh_edges, e_tet_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_edges", call_mesh_edges, e_tet_twice, XPBD_ERR_INDEX, 3, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_edges", call_mesh_edges, e_tcap, XPBD_ERR_CAPACITY, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_bends", call_mesh_bends, e_ctri_range, XPBD_ERR_INDEX, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_bends", call_mesh_bends, e_ctri_twice, XPBD_ERR_TOPOLOGY, 8, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_dihedral_angles_f64", call_dihedral, e_bend_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_dihedral_angles_f64", call_dihedral, e_bend_range, XPBD_ERR_INDEX, 1, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_tets_f64", call_clean_tets, e_tet_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_tets_f64", call_clean_tets, e_tet_twice, XPBD_ERR_INDEX, 3, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_tets_f64", call_clean_tets, e_tet_pos, XPBD_ERR_POSITION, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_tets_f64", call_clean_tets, e_tear_flag, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_triangles_f64", call_clean_triangles, e_ctri_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_clean_triangles_f64", call_clean_triangles, e_ctri_range, XPBD_ERR_INDEX, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_masses_f64", call_mesh_masses, e_tet_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_masses_f64", call_mesh_masses, e_density, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_inverse_masses_f64", call_inverse_masses, e_tmass, XPBD_ERR_INVERSE_MASS, 3, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_pin_where_f64", call_pin_where, e_sel_axis, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_pin_where_f64", call_pin_where, e_tet_pos, XPBD_ERR_POSITION, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_pin_label_f64", call_pin_label, e_tet_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_scene_build_f64", call_mesh_scene, e_tet_flat, XPBD_ERR_DEGENERATE, 0, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_scene_build_f64", call_mesh_scene, e_tet_range, XPBD_ERR_INDEX, 2, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_scene_build_f64", call_mesh_scene, e_tet_pos, XPBD_ERR_POSITION, 5, PT(NONE), FD(NONE), 0},
    {"xpbd_mesh_scene_build_f64", call_mesh_scene, e_density, XPBD_ERR_CONFIG, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_version, XPBD_ERR_VERSION, NB, PT(CONFIG), FD(VERSION), 0},
    {"xpbd_step_f64", call_step, e_substeps, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SUBSTEPS), 0},
    {"xpbd_step_f64", call_step, e_iterations, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(ITERATIONS), 0},
    {"xpbd_step_f64", call_step, e_damping, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(DAMPING), 0},
    {"xpbd_step_f64", call_step, e_gravity, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(GRAVITY), 0},
    {"xpbd_step_f64", call_step, e_stiffness, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(PBD_STIFFNESS), 0},
    {"xpbd_step_f64", call_step, e_spring_damping, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SPRING_DAMPING), 0},
    {"xpbd_step_f64", call_step, e_solver, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SOLVER), 0},
    {"xpbd_step_f64", call_step, e_lambda_reset, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(LAMBDA_RESET), 0},
    {"xpbd_step_f64", call_step, e_measure, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(MEASURE_RESIDUAL), 0},
    {"xpbd_step_f64", call_step, e_order_enum, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(CONTACT_ORDER), 0},
    {"xpbd_step_f64", call_step, e_ex_enqueue, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(EXECUTOR_ENQUEUE), 0},
    {"xpbd_step_f64", call_step, e_ex_finish, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(EXECUTOR_FINISH), 0},
    {"xpbd_step_f64", call_step, e_ex_workers, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(EXECUTOR_WORKER_COUNT), 0},
    {"xpbd_step_f64", call_step, e_two_bad, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SUBSTEPS), 0},
    {"xpbd_step_f64", call_step, e_h_zero, XPBD_ERR_TIMESTEP, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_h_neg, XPBD_ERR_TIMESTEP, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_h_inf, XPBD_ERR_TIMESTEP, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_isa_enum, XPBD_ERR_ISA, NB, PT(CONFIG), FD(ISA), 0},
    {"xpbd_step_f64", call_step, e_scratch, XPBD_ERR_CAPACITY, NB, PT(SCRATCH), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_p_x3_nan, XPBD_ERR_POSITION, 3, PT(PARTICLES), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_p_vy5_inf, XPBD_ERR_VELOCITY, 5, PT(PARTICLES), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_p_w2_neg, XPBD_ERR_INVERSE_MASS, 2, PT(PARTICLES), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_set_i0_range, XPBD_ERR_INDEX, 0xfff0, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_set_repeat, XPBD_ERR_INDEX, 0xfff1, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_set_rest, XPBD_ERR_REST, 0xfff3, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_set_comp, XPBD_ERR_COMPLIANCE, 0xfff4, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_set_lambda, XPBD_ERR_LAMBDA, 0xfff5, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_step_f64", call_step, e_springs_rigid, XPBD_ERR_COMPLIANCE, 0xfff7, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_beta, XPBD_ERR_BETA, NB, PT(CONFIG), FD(CONTACT_BETA), 0},
    {"xpbd_world_step_f64", call_world_step, e_restitution, XPBD_ERR_RESTITUTION, NB, PT(CONFIG), FD(RESTITUTION), 0},
    {"xpbd_world_step_f64", call_world_step, e_slop, XPBD_ERR_SLOP, NB, PT(CONFIG), FD(CONTACT_SLOP), 0},
    {"xpbd_world_step_f64", call_world_step, e_friction, XPBD_ERR_FRICTION, NB, PT(CONFIG), FD(FRICTION_DYNAMIC), 0},
    {"xpbd_world_step_f64", call_world_step, e_plane, XPBD_ERR_PLANE, 0, PT(PLANE), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_plane_d, XPBD_ERR_PLANE, 0, PT(PLANE), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_w_radius, XPBD_ERR_RADIUS, 11, PT(RADIUS), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_tether, XPBD_ERR_INDEX, 4, PT(TETHER), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_tether_len, XPBD_ERR_REST, 8, PT(TETHER), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_fixed_repeat, XPBD_ERR_INDEX, 1, PT(CONTACT_FIXED), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_lesson, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(CONTACT_ORDER), 0},
    {"xpbd_world_step_f64", call_world_step, e_fs_neg, XPBD_ERR_FRICTION, NB, PT(CONFIG), FD(FRICTION_STATIC), 0},
    {"xpbd_world_step_f64", call_world_step, e_skin, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(CONTACT_SKIN), 0},
    {"xpbd_world_step_f64", call_world_step, e_reldamp, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(RELATIVE_DAMPING), 0},
    {"xpbd_world_step_f64", call_world_step, e_w_dist_range, XPBD_ERR_INDEX, 0xfff8, PT(DISTANCE), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_w_tet_range, XPBD_ERR_INDEX, 0xffe1, PT(TET), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_w_bend_range, XPBD_ERR_INDEX, 0xffd1, PT(BEND), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_w_contact_range, XPBD_ERR_INDEX, 1, PT(CONTACT_FIXED), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_plane1, XPBD_ERR_PLANE, 1, PT(PLANE), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_radius_null, XPBD_ERR_ARGUMENT, NB, PT(RADIUS), FD(NONE), 0},
    {"xpbd_world_step_f64", call_world_step, e_body1, XPBD_ERR_CONFIG, 1, PT(BODY), FD(BODY_BEGIN), 0},
    {"xpbd_world_step_f64", call_world_step, e_rigid1_mass, XPBD_ERR_CONFIG, 1, PT(RIGID), FD(INV_MASS), 0},
    {"xpbd_world_step_f64", call_world_step, e_rigid0_rot, XPBD_ERR_CONFIG, 0, PT(RIGID), FD(ROT), 0},
    {"xpbd_world_step_f64", call_world_step, e_rigid_null, XPBD_ERR_ARGUMENT, NB, PT(RIGID), FD(NONE), 0},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_null, XPBD_ERR_ARGUMENT, NB, PT(PARTICLES), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_version, XPBD_ERR_VERSION, NB, PT(CONFIG), FD(VERSION), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_tear, XPBD_ERR_CONFIG, NB, PT(OPTIONS), FD(TEAR_STRETCH), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_sleep, XPBD_ERR_CONFIG, NB, PT(OPTIONS), FD(SLEEP_ENERGY), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_hinges, XPBD_ERR_CONFIG, NB, PT(OPTIONS), FD(KEEP_HINGES), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_maxp, XPBD_ERR_CONFIG, NB, PT(OPTIONS), FD(MAX_PARTICLES), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_alpha, XPBD_ERR_COMPLIANCE, NB, PT(DISTANCE), FD(EDGE_ALPHA), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_plane, XPBD_ERR_PLANE, 0, PT(PLANE), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_tether, XPBD_ERR_INDEX, 5, PT(TETHER), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_pos, XPBD_ERR_POSITION, 2, PT(PARTICLES), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_w, XPBD_ERR_INVERSE_MASS, 4, PT(PARTICLES), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_radius, XPBD_ERR_RADIUS, 9, PT(RADIUS), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_edge, XPBD_ERR_INDEX, 6, PT(DISTANCE), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_substeps, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SUBSTEPS), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_iterations, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(ITERATIONS), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_damping, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(DAMPING), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_isa_enum, XPBD_ERR_ISA, NB, PT(CONFIG), FD(ISA), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_ex_enqueue, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(EXECUTOR_ENQUEUE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_ex_workers, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(EXECUTOR_WORKER_COUNT), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_two_bad, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(SUBSTEPS), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_beta, XPBD_ERR_BETA, NB, PT(CONFIG), FD(CONTACT_BETA), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_reldamp, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(RELATIVE_DAMPING), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_lesson, XPBD_ERR_CONFIG, NB, PT(CONFIG), FD(CONTACT_ORDER), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_opt_ex, XPBD_ERR_CONFIG, NB, PT(OPTIONS), FD(EXECUTOR_WORKER_COUNT), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_contacts, XPBD_ERR_ARGUMENT, NB, PT(CONTACT_FOUND), FD(MAX_CONTACTS), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_body1, XPBD_ERR_CONFIG, 1, PT(BODY), FD(BODY_BEGIN), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_tet_alpha, XPBD_ERR_COMPLIANCE, NB, PT(TET), FD(TET_ALPHA), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_bend_alpha, XPBD_ERR_COMPLIANCE, NB, PT(BEND), FD(BEND_ALPHA), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_plane1, XPBD_ERR_PLANE, 1, PT(PLANE), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_origin, XPBD_ERR_INDEX, 4, PT(SCENE), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_tet, XPBD_ERR_INDEX, 1, PT(TET), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_bend, XPBD_ERR_INDEX, 1, PT(BEND), FD(NONE), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_colours, XPBD_ERR_CONFIG, NB, PT(DISTANCE), FD(MAX_COLOURS), 2},
    {"xpbd_engine_create_f64", call_engine_create, e_sc_springs, XPBD_ERR_COMPLIANCE, 3, PT(DISTANCE), FD(NONE), 2},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_kind, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_range, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_translate, XPBD_ERR_POSITION, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_velocity, XPBD_ERR_VELOCITY, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_mass, XPBD_ERR_INVERSE_MASS, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_engine_apply_f64", call_engine_apply, e_in_wake, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_tear_split", call_tear_split, e_tear_range, XPBD_ERR_INDEX, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_tear_split", call_tear_split, e_tear_self, XPBD_ERR_INDEX, NB, PT(NONE), FD(NONE), 0},
    {"xpbd_tear_split", call_tear_split, e_tear_flag, XPBD_ERR_ARGUMENT, NB, PT(NONE), FD(NONE), 0},
};

/* bad values 0xfff0 + k name the slot the edit touched in the chain set
 * (source_of[k]: its constraint; 6: colour 0's first padding slot),
 * 0xffe0 + k the slot of tet k (0xffe8: the padding after tet 5) and
 * 0xffd0 + k the slot of bending stencil k, resolved against the built
 * sets. */
static size_t cat_want_bad(const cat_fx *f, const cat_row *r)
{
    static const uint32_t source_of[9] = {5, 2, 2, 7, 8, 9, 0, 4, 1};
    if (r->bad >= 0xffd0 && r->bad <= 0xffd1)
        return qslot(&f->bset, (uint32_t)(r->bad - 0xffd0));
    if (r->bad >= 0xffe0 && r->bad <= 0xffe7)
        return qslot(&f->qset, (uint32_t)(r->bad - 0xffe0));
    if (r->bad == 0xffe8) /* the padding slot after tet 5 */
        return qslot(&f->qset, 5) + 1;
    if (r->bad < 0xfff0 || r->bad > 0xfff8)
        return r->bad;
    const uint32_t k = (uint32_t)(r->bad - 0xfff0);
    if (k == 6) /* the first padding slot of colour 0 */
        return f->set.colour_size[0];
    return slot_of(&f->set, source_of[k]);
}

/* The caller-owned state every row compares: particles, the sets' per-slot
 * arrays and lambda, the contact set, the 1-D lab's values, the parser's
 * output, the mesh output and the tear outputs. */
static size_t cat_state(const cat_fx *f, unsigned char *out)
{
    size_t at = 0;
#define PUT(ptr, bytes)                                                                       \
    do {                                                                                      \
        memcpy(out + at, (ptr), (bytes));                                                     \
        at += (bytes);                                                                        \
    } while (0)
    PUT(f->block, sizeof f->block);
    const size_t s = f->set.slots, q = f->qset.slots, bq = f->bset.slots;
    PUT(f->set.lambda, s * sizeof(double));
    PUT(f->qset.lambda, q * sizeof(double));
    PUT(f->bset.lambda, bq * sizeof(double));
    PUT(&f->cs, sizeof f->cs);
    PUT(f->ci0, sizeof f->ci0);
    PUT(f->ci1, sizeof f->ci1);
    PUT(&f->a, sizeof f->a);
    PUT(&f->b, sizeof f->b);
    PUT(&f->lambda, sizeof f->lambda);
    PUT(&f->isa_out, sizeof f->isa_out);
    PUT(f->mxyz, sizeof f->mxyz);
    PUT(f->edge_out, sizeof f->edge_out);
    PUT(f->split, sizeof f->split);
    PUT(f->tet, sizeof f->tet);
    PUT(f->tlabel, sizeof f->tlabel);
    PUT(f->ctri, sizeof f->ctri);
    PUT(f->tpairs, sizeof f->tpairs);
    PUT(f->tstencil, sizeof f->tstencil);
    PUT(f->tmass, sizeof f->tmass);
    PUT(f->tw, sizeof f->tw);
#undef PUT
    return at;
}

/* The calls whose function names the place of its errors. */
static int cat_names_place(xpbd_status (*call)(cat_fx *))
{
    return call == call_step || call == call_world_step || call == call_engine_create;
}

static void catalogue_rows(void)
{
    static cat_fx f;
    static unsigned char before[sizeof f], after[sizeof f];
    size_t functions = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r) {
        const cat_row *row = &rows[r];
        if (r == 0 || strcmp(row->function, rows[r - 1].function) != 0)
            ++functions;
        cat_fixture(&f);
        row->edit(&f);
        const size_t want_bad = cat_want_bad(&f, row);
        const size_t sz = cat_state(&f, before);
        const xpbd_status st = row->call(&f);
        ENSURE_STATUS(st, row->want);
        if (f.bad != want_bad || st != row->want)
            fprintf(stderr, "      row %zu: %s, got %d bad %zu, want %d bad %zu\n", r,
                    row->function, (int)st, f.bad, (int)row->want, want_bad);
        ENSURE_INT(f.bad, want_bad);
        if (cat_names_place(row->call)) {
            if (f.part != row->part || f.field != row->field)
                fprintf(stderr, "      row %zu: %s, got place %s/%s, want %s/%s\n", r,
                        row->function, xpbd_part_name(f.part), xpbd_field_name(f.field),
                        xpbd_part_name(row->part), xpbd_field_name(row->field));
            ENSURE_INT(f.part, row->part);
            ENSURE_INT(f.field, row->field);
        } else {
            /* a function that names no place: the row claims none */
            ENSURE_INT(row->part, XPBD_PART_NONE);
            ENSURE_INT(row->field, XPBD_FIELD_NONE);
        }
        if (row->builds == 2) {
            ENSURE(f.e == NULL); /* no engine made */
        } else if (row->builds) {
            const int zeroed = row->call == call_tet_build || row->call == call_bend_build
                                   ? xt_same_bytes(&f.qout, &(xpbd_quad_set_f64){0},
                                                   sizeof f.qout, row->function, __FILE__,
                                                   __LINE__)
                                   : xt_same_bytes(&f.out, &(xpbd_distance_set_f64){0},
                                                   sizeof f.out, row->function, __FILE__,
                                                   __LINE__);
            ENSURE(zeroed);
        }
        if (row->call != call_contact_validate && row->call != call_contacts_find &&
            row->call != call_contact_assign) {
            ENSURE(cat_state(&f, after) == sz);
            if (!xt_same_bytes(after, before, sz, "caller state", __FILE__, __LINE__))
                fprintf(stderr, "      row %zu: %s changed the caller's state\n", r,
                        row->function);
        } else {
            /* contact calls: documented to leave the set empty on error */
            ENSURE_INT(f.cs.count, row->call == call_contact_validate ? 2 : 0);
            ENSURE(xt_same_bytes(f.block, before, sizeof f.block, "particles", __FILE__,
                                 __LINE__));
        }
        cat_release(&f);
    }
    printf("catalogue: %zu rows over %zu functions\n", sizeof rows / sizeof rows[0], functions);
}

/* The fixture itself is valid: every call above succeeds unedited (a row
 * proves the edit, not a broken fixture). */
static void catalogue_fixture_valid(void)
{
    static cat_fx f;
    xpbd_status (*const calls[])(cat_fx *) = {
        call_solve,      call_isa_from_name,   call_particles_validate, call_distance_build,
        call_distance_validate, call_tet_build, call_bend_build,       call_quad_validate,
        call_contact_init, call_contact_assign, call_contacts_find,    call_mesh_cloth,
        call_mesh_box,   call_step,            call_world_step,         call_tear_split,
        call_contact_validate, call_engine_create, call_engine_apply,
        call_mesh_edges, call_mesh_bends, call_dihedral, call_clean_tets, call_clean_triangles,
        call_mesh_masses, call_inverse_masses, call_pin_where, call_pin_label, call_mesh_scene,
    };
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; ++k) {
        cat_fixture(&f);
        const xpbd_status st = calls[k](&f);
        if (st < 0)
            fprintf(stderr, "      unedited call %zu failed: %d (%s)\n", k, (int)st,
                    xpbd_status_str(st));
        ENSURE(st >= 0);
        if (cat_names_place(calls[k])) { /* a success names no place */
            ENSURE_INT(f.part, XPBD_PART_NONE);
            ENSURE_INT(f.bad, SIZE_MAX);
            ENSURE_INT(f.field, XPBD_FIELD_NONE);
        }
        cat_release(&f);
    }
    /* the parts of the fixture the rows edit, whole: accepted */
    const struct {
        xpbd_status (*call)(cat_fx *);
        void (*edit)(cat_fx *);
    } whole[] = {
        {call_world_step, e_w_sets_valid},    {call_world_step, e_rigids},
        {call_world_step, e_w_bodies_valid},  {call_engine_create, e_sc_bodies_valid},
    };
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; ++k) {
        cat_fixture(&f);
        whole[k].edit(&f);
        const xpbd_status st = whole[k].call(&f);
        if (st < 0)
            fprintf(stderr, "      whole fixture part %zu refused: %d (%s) at %s %zu\n", k,
                    (int)st, xpbd_status_str(st), xpbd_part_name(f.part), f.bad);
        ENSURE(st >= 0);
        ENSURE_INT(f.part, XPBD_PART_NONE);
        cat_release(&f);
    }
}

const xt_test xt_tests_catalogue[] = {
    {"catalogue.fixture_valid", catalogue_fixture_valid},
    {"catalogue.rows", catalogue_rows},
    {NULL, NULL},
};
