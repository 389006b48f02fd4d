/* SPDX-License-Identifier: MIT */
/* The scenes of xpbd-scene-hash (scene_hash.c), template over precision.h
 * (R, SFX). Each runs one scene on one ISA and returns 0 with its final
 * state hash in *out, or 1 after printing why to stderr (a refused build, a
 * failed step, or a scene that no longer exercises what it is there for). */
#include "precision.h"

static uint64_t SFX(sh_particles)(uint64_t h, const SFX(xpbd_particles) *p)
{
    h = sh_bytes(h, &p->count, sizeof p->count);
    const R *const a[] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    for (size_t k = 0; k < sizeof a / sizeof a[0]; ++k)
        h = sh_bytes(h, a[k], p->count * sizeof(R));
    return h;
}

/* The multipliers of the real slots (padding holds no constraint). */
static uint64_t SFX(sh_lambdas)(uint64_t h, uint32_t slots, const R *lambda,
                                const uint32_t *source, int *nonzero)
{
    for (uint32_t s = 0; s < slots; ++s)
        if (source[s] != XPBD_PAD) {
            h = sh_bytes(h, &lambda[s], sizeof lambda[s]);
            *nonzero |= lambda[s] != 0;
        }
    return h;
}

static uint64_t SFX(sh_world)(const SFX(xpbd_world) *w, int *nonzero)
{
    uint64_t h = SFX(sh_particles)(SH_FNV_BASIS, w->particles);
    if (w->constraints)
        h = SFX(sh_lambdas)(h, w->constraints->slots, w->constraints->lambda,
                            w->constraints->source, nonzero);
    if (w->tets)
        h = SFX(sh_lambdas)(h, w->tets->slots, w->tets->lambda, w->tets->source, nonzero);
    if (w->bends)
        h = SFX(sh_lambdas)(h, w->bends->slots, w->bends->lambda, w->bends->source, nonzero);
    return h;
}

/* A cloth hanging from its top row's two corners (xs_cloth_*, structural and
 * shear links), XPBD, 4 substeps x 2 iterations; runs != 0 colours it by
 * index offset (xpbd_colouring_options.runs: the row loads of the AVX-512
 * float path). */
static int SFX(sh_cloth)(xpbd_isa isa, int runs, uint64_t *out)
{
    SFX(xs_world) w;
    memset(&w, 0, sizeof w);
    xpbd_status st = SFX(xs_cloth)(&w, 12, 10, (R)0.05, (R)1e-6, 1, 0);
    if (st == XPBD_OK && runs) {
        const xpbd_colouring_options opt = {.runs = 1};
        st = SFX(xs_world_recolour)(&w, &opt);
    }
    if (st != XPBD_OK) {
        fprintf(stderr, "cloth " R_NAME ": build: %s\n", xpbd_status_str(st));
        SFX(xs_world_free)(&w);
        return 1;
    }
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = isa;
    cfg.substeps = 4;
    cfg.iterations = 2;
    cfg.damping = 0.002;
    int nonzero = 0;
    const uint64_t h0 = SFX(sh_particles)(SH_FNV_BASIS, &w.p);
    for (int f = 0; f < SH_FRAMES && st == XPBD_OK; ++f)
        st = SFX(xpbd_step)(&cfg, 1.0 / 60, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL);
    uint64_t h = SFX(sh_particles)(SH_FNV_BASIS, &w.p);
    const int moved = h != h0; /* the particles alone, as h0 */
    h = SFX(sh_lambdas)(h, w.set.slots, w.set.lambda, w.set.source, &nonzero);
    SFX(xs_world_free)(&w);
    if (st != XPBD_OK) {
        fprintf(stderr, "cloth " R_NAME " %s: step: %s\n", xpbd_isa_name(isa),
                xpbd_status_str(st));
        return 1;
    }
    if (!moved || !nonzero) {
        fprintf(stderr, "cloth " R_NAME " %s: the cloth did not move or no link acted\n",
                xpbd_isa_name(isa));
        return 1;
    }
    *out = h;
    return 0;
}

/* Two tet boxes (2 x 2 x 2 cubes of 0.1 m, 6 tets each, xs_pile_make_*) in
 * the engine on the ground, with tearing and sleeping, friction on: box 0
 * rests on the ground with its first z slab pinned, and the top row of its
 * last slab is pinned, pulled 0.12 m away (it tears off at the first frame)
 * and let go; box 1 drops from 0.25 m. Both settle and fall asleep. Checks
 * that edges tore, that a body fell asleep and that contacts acted. */
static int SFX(sh_tet_box)(xpbd_isa isa, uint64_t *out)
{
    xs_mesh m;
    SFX(xs_pile) pile;
    memset(&pile, 0, sizeof pile);
    const double off[6] = {-0.3, 0.02, -0.1, 0.2, 0.25, -0.1};
    const double w[2] = {10, 10};
    SFX(xpbd_engine) *e = NULL;
    int ok = xs_mesh_box(&m, 2, 0.1, (const double[3]){0, 0, 0}, 6) &&
             SFX(xs_pile_make)(&pile, &m, 2, off, w, 0.02, 1e-5, 1e-6);
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = isa;
    cfg.substeps = 4;
    cfg.iterations = 4;
    cfg.friction_static = 0.5;
    cfg.friction_dynamic = 0.4;
    cfg.restitution = 0.1;
    cfg.damping = 0.01;
    const xpbd_engine_options opt = {.tear_stretch = 0.3, .sleep_energy = 2e-3,
                                     .sleep_steps = 15};
    xpbd_status st = XPBD_ERR_NOMEM;
    if (ok)
        st = SFX(xpbd_engine_create)(&e, &pile.s, &cfg, &opt, NULL);
    uint64_t h0 = 0;
    unsigned long torn = 0, fell = 0, hits = 0;
    if (st == XPBD_OK) {
        h0 = SFX(sh_particles)(SH_FNV_BASIS, SFX(xpbd_engine_particles)(e));
        /* box 0's z slabs are (nx + 1)(ny + 1) particles, its last row the last 3 */
        const uint32_t nb = (uint32_t)m.k.particles, slab = 3 * 3;
        const xpbd_input pin0 = {XPBD_INPUT_SET_INV_MASS, 0, slab, {0, 0, 0}};
        const xpbd_input pin1 = {XPBD_INPUT_SET_INV_MASS, nb - 3, nb, {0, 0, 0}};
        const xpbd_input pull = {XPBD_INPUT_TRANSLATE, nb - 3, nb, {0, 0.02, 0.12}};
        st = SFX(xpbd_engine_apply)(e, &pin0);
        if (st == XPBD_OK)
            st = SFX(xpbd_engine_apply)(e, &pin1);
        if (st == XPBD_OK)
            st = SFX(xpbd_engine_apply)(e, &pull);
    }
    for (int f = 0; f < SH_FRAMES && st == XPBD_OK; ++f) {
        if (f == 1) { /* the torn slab let go */
            const xpbd_input release = {XPBD_INPUT_SET_INV_MASS, (uint32_t)m.k.particles - 3,
                                        (uint32_t)m.k.particles, {10, 0, 0}};
            st = SFX(xpbd_engine_apply)(e, &release);
        }
        st = st == XPBD_OK ? SFX(xpbd_engine_step)(e, 1.0 / 60) : st;
        const xpbd_engine_counters *c = SFX(xpbd_engine_counters)(e);
        torn += c->torn;
        fell += c->fell_asleep;
        hits += (unsigned long)c->step.contact_hits;
    }
    int nonzero = 0;
    const uint64_t h = st == XPBD_OK ? SFX(sh_world)(SFX(xpbd_engine_world)(e), &nonzero) : 0;
    /* moved: the particles alone, as h0 */
    const int moved =
        st == XPBD_OK && SFX(sh_particles)(SH_FNV_BASIS, SFX(xpbd_engine_particles)(e)) != h0;
    SFX(xpbd_engine_destroy)(e);
    SFX(xs_pile_free)(&pile);
    xs_mesh_free(&m);
    if (st != XPBD_OK) {
        fprintf(stderr, "tet_box " R_NAME " %s: %s\n", xpbd_isa_name(isa), xpbd_status_str(st));
        return 1;
    }
    /* no lambda check: the box ends asleep, its constraints out of the sets */
    if (!moved || torn == 0 || fell == 0 || hits == 0) {
        fprintf(stderr,
                "tet_box " R_NAME " %s: the scene no longer exercises what it is for: "
                "moved %d, torn %lu, fell asleep %lu, contact hits %lu\n",
                xpbd_isa_name(isa), moved, torn, fell, hits);
        return 1;
    }
    *out = h;
    return 0;
}

/* A pile of 4 x 4 x 4 balls of radius 0.05 m (the vertices of a tet box
 * lattice of 0.12 m, xs_mesh_box; every other layer shifted by 0.03 m so
 * that the columns topple) dropped into a box of five planes, with
 * friction and restitution, no constraints: contacts only. */
static int SFX(sh_pile)(xpbd_isa isa, uint64_t *out)
{
    xs_mesh m;
    int ok = xs_mesh_box(&m, 3, 0.12, (const double[3]){-0.18, 0.06, -0.18}, 6);
    const size_t n = m.k.particles;
    R *xyz = malloc((3 * n + 1) * sizeof *xyz), *w = malloc((n + 1) * sizeof *w),
      *r = malloc((n + 1) * sizeof *r);
    ok = ok && xyz && w && r;
    for (size_t i = 0; ok && i < n; ++i) {
        const int odd = (int)((m.xyz[3 * i + 1] - 0.06) / 0.12 + 0.5) & 1;
        xyz[3 * i] = (R)(m.xyz[3 * i] + 0.03 * odd);
        xyz[3 * i + 1] = (R)m.xyz[3 * i + 1];
        xyz[3 * i + 2] = (R)(m.xyz[3 * i + 2] + 0.03 * odd);
        w[i] = 10;
        r[i] = (R)0.05;
    }
    const xpbd_plane planes[5] = {{{0, 1, 0}, 0},   {{1, 0, 0}, -0.3}, {{-1, 0, 0}, -0.3},
                                  {{0, 0, 1}, -0.3}, {{0, 0, -1}, -0.3}};
    SFX(xpbd_scene) s;
    memset(&s, 0, sizeof s);
    s.particles = n;
    s.xyz = xyz;
    s.inv_mass = w;
    s.radius = r;
    s.planes = 5;
    s.plane = planes;
    s.max_contacts = 8 * n;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = isa;
    cfg.substeps = 4;
    cfg.iterations = 4;
    cfg.friction_static = 0.5;
    cfg.friction_dynamic = 0.3;
    cfg.restitution = 0.3;
    SFX(xpbd_engine) *e = NULL;
    xpbd_status st = ok ? SFX(xpbd_engine_create)(&e, &s, &cfg, NULL, NULL) : XPBD_ERR_NOMEM;
    uint64_t h0 = 0;
    unsigned long hits = 0, pairs = 0;
    if (st == XPBD_OK)
        h0 = SFX(sh_particles)(SH_FNV_BASIS, SFX(xpbd_engine_particles)(e));
    for (int f = 0; f < SH_FRAMES && st == XPBD_OK; ++f) {
        st = SFX(xpbd_engine_step)(e, 1.0 / 60);
        const xpbd_engine_counters *c = SFX(xpbd_engine_counters)(e);
        hits += (unsigned long)c->step.contact_hits;
        pairs += c->step.contacts;
    }
    int nonzero = 0;
    const uint64_t h = st == XPBD_OK ? SFX(sh_world)(SFX(xpbd_engine_world)(e), &nonzero) : 0;
    /* moved: the particles alone, as h0 */
    const int moved =
        st == XPBD_OK && SFX(sh_particles)(SH_FNV_BASIS, SFX(xpbd_engine_particles)(e)) != h0;
    SFX(xpbd_engine_destroy)(e);
    free(xyz);
    free(w);
    free(r);
    xs_mesh_free(&m);
    if (st != XPBD_OK) {
        fprintf(stderr, "pile " R_NAME " %s: %s\n", xpbd_isa_name(isa), xpbd_status_str(st));
        return 1;
    }
    /* a contact scene: what it is for is contacts acting (its bodies may
     * end asleep, their constraints out of the sets) */
    if (!moved || hits == 0 || pairs == 0) {
        fprintf(stderr, "pile " R_NAME " %s: moved %d, contact hits %lu, pairs %lu\n",
                xpbd_isa_name(isa), moved, hits, pairs);
        return 1;
    }
    *out = h;
    return 0;
}

#define XPBD_PRECISION_END
#include "precision.h"
