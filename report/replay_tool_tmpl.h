/* SPDX-License-Identifier: MIT */
/* xpbd-replay's check and export per precision (replay_tool.c), template
 * over R, on the installed runner: xpbd_replay_create_* builds a path's
 * engine, xpbd_replay_frame_* steps it a frame at a time. */
#include "precision.h"

#define ENG SFX(xpbd_engine)
#define SCENE SFX(xpbd_scene)
#define PARTICLES(e) SFX(xpbd_engine_particles)(e)

/* The multipliers of a set's real slots (padding holds no constraint). */
static uint64_t SFX(rpl_hash_lambdas)(uint64_t h, uint32_t slots, const R *lambda,
                                     const uint32_t *source)
{
    for (uint32_t s = 0; s < slots; ++s)
        if (source[s] != XPBD_PAD)
            h = xpbd__fnv1a(h, &lambda[s], sizeof lambda[s]);
    return h;
}

static uint64_t SFX(rpl_check_hash)(const ENG *e)
{
    const SFX(xpbd_particles) *p = PARTICLES(e);
    const SFX(xpbd_world) *w = SFX(xpbd_engine_world)(e);
    const uint64_t count = p->count;
    uint64_t h = xpbd__fnv1a(XPBD__FNV_BASIS, &count, sizeof count);
    const R *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 10; ++k)
        h = xpbd__fnv1a(h, a[k], p->count * sizeof(R));
    if (w->constraints)
        h = SFX(rpl_hash_lambdas)(h, w->constraints->slots, w->constraints->lambda,
                                 w->constraints->source);
    if (w->tets)
        h = SFX(rpl_hash_lambdas)(h, w->tets->slots, w->tets->lambda, w->tets->source);
    if (w->bends)
        h = SFX(rpl_hash_lambdas)(h, w->bends->slots, w->bends->lambda, w->bends->source);
    return h;
}

/* The test hook: flips the lowest mantissa bit of one particle's field
 * through an engine input (replay_check_perturb). */
static xpbd_status SFX(rpl_perturb_apply)(ENG *e, const replay_check_perturb *pt)
{
    const SFX(xpbd_particles) *p = PARTICLES(e);
    if (pt->particle >= p->count || pt->field < 0 || pt->field > 9)
        return XPBD_ERR_ARGUMENT;
    const size_t i = pt->particle;
    const R *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    R v = a[pt->field][i];
#if R_F64
    uint64_t bits;
#else
    uint32_t bits;
#endif
    memcpy(&bits, &v, sizeof v);
    bits ^= 1u;
    memcpy(&v, &bits, sizeof v);
    xpbd_input in = {0, (uint32_t)i, (uint32_t)i + 1, {-0.0, -0.0, -0.0}};
    switch (pt->field) {
    case 0: case 1: case 2:
        /* x + d with d the exact difference of two neighbouring values */
        in.kind = XPBD_INPUT_TRANSLATE;
        in.value[pt->field] = (double)v - (double)a[pt->field][i];
        break;
    case 6: case 7: case 8:
        in.kind = XPBD_INPUT_SET_VELOCITY;
        for (int k = 0; k < 3; ++k)
            in.value[k] = (double)a[6 + k][i];
        in.value[pt->field - 6] = (double)v;
        break;
    case 9:
        in.kind = XPBD_INPUT_SET_INV_MASS;
        in.value[0] = (double)v;
        break;
    default:
        return XPBD_ERR_ARGUMENT; /* px py pz: no input sets them */
    }
    return SFX(xpbd_engine_apply)(e, &in);
}

/* What one run of a check did. */
typedef struct SFX(rpl_ran) {
    uint64_t done;          /* frames hashed: the engine as built, then one a step */
    xpbd_status last;       /* the last step's status (create's before any) */
    int bad_perturb;        /* the perturbation could not be applied */
} SFX(rpl_ran);

/* One path's run: fl on isa at `threads`, at most `frames` frames; trace
 * (may be NULL) gets the hash of the state and of the last status after
 * each frame, trace[0] the engine as built. The engine is left in *out
 * (NULL when create refused the file). Returns the first failing status,
 * else XPBD_OVERFLOW if a step returned it, else XPBD_OK. */
static xpbd_status SFX(rpl_check_run)(const xpbd_replay_file *fl, xpbd_isa isa, uint32_t threads,
                                     const replay_check_perturb *pt, uint64_t frames,
                                     uint64_t *trace, SFX(rpl_ran) *ran, ENG **out, char *err,
                                     size_t errlen)
{
    xpbd_replay_file g = *fl;
    g.config.isa = isa;
    g.config.threads = threads;
    g.options.threads = threads;
    memset(ran, 0, sizeof *ran);
    xpbd_replay_error re;
    xpbd_status st = SFX(xpbd_replay_create)(&g, out, &re);
    ran->last = st;
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s", re.what);
        return st;
    }
    ENG *e = *out;
    xpbd_status result = XPBD_OK;
    for (uint64_t f = 0;; ++f) {
        const uint64_t frame = g.start_frame + f;
        if (pt && pt->frame == frame && st >= 0 && SFX(rpl_perturb_apply)(e, pt) != XPBD_OK) {
            snprintf(err, errlen, "the perturbation of particle %u at frame %llu cannot be applied",
                     pt->particle, (unsigned long long)frame);
            ran->bad_perturb = 1;
            return XPBD_ERR_ARGUMENT;
        }
        if (trace) {
            const int32_t status = (int32_t)st;
            trace[f] = xpbd__fnv1a(SFX(rpl_check_hash)(e), &status, sizeof status);
        }
        ran->done = f + 1;
        if (f == frames || st < 0)
            break;
        st = SFX(xpbd_replay_frame)(&g, e, &re);
        if (st < 0)
            snprintf(err, errlen, "%s", re.what);
        ran->last = st;
        if (st != XPBD_OK && result >= 0)
            result = st;
    }
    return result;
}

/* Where two engines' states first differ (replay_check_path's fields); 0
 * if nowhere. */
static int SFX(rpl_first_diff)(const ENG *a, const ENG *b, replay_check_path *out)
{
    static const char *const name[10] = {"x", "y", "z", "px", "py", "pz", "vx", "vy", "vz", "w"};
    const SFX(xpbd_particles) *p = PARTICLES(a), *q = PARTICLES(b);
    out->index = SIZE_MAX;
    out->set = "";
    if (p->count != q->count) {
        out->field = "particles";
        return 1;
    }
    const R *const pa[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    const R *const qa[10] = {q->x, q->y, q->z, q->px, q->py, q->pz, q->vx, q->vy, q->vz, q->w};
    for (size_t i = 0; i < p->count; ++i)
        for (int k = 0; k < 10; ++k)
            if (memcmp(&pa[k][i], &qa[k][i], sizeof(R)) != 0) {
                out->index = i;
                out->field = name[k];
                return 1;
            }
    const SFX(xpbd_world) *wa = SFX(xpbd_engine_world)(a), *wb = SFX(xpbd_engine_world)(b);
    struct {
        const char *name;
        uint32_t slots[2];
        const R *lambda[2];
        const uint32_t *source[2];
    } set[3] = {{"distance", {0, 0}, {NULL, NULL}, {NULL, NULL}},
                {"tet", {0, 0}, {NULL, NULL}, {NULL, NULL}},
                {"bend", {0, 0}, {NULL, NULL}, {NULL, NULL}}};
    const SFX(xpbd_world) *const w[2] = {wa, wb};
    for (int k = 0; k < 2; ++k) {
        if (w[k]->constraints) {
            set[0].slots[k] = w[k]->constraints->slots;
            set[0].lambda[k] = w[k]->constraints->lambda;
            set[0].source[k] = w[k]->constraints->source;
        }
        const SFX(xpbd_quad_set) *const qs[2] = {w[k]->tets, w[k]->bends};
        for (int j = 0; j < 2; ++j)
            if (qs[j]) {
                set[1 + j].slots[k] = qs[j]->slots;
                set[1 + j].lambda[k] = qs[j]->lambda;
                set[1 + j].source[k] = qs[j]->source;
            }
    }
    for (int j = 0; j < 3; ++j) {
        out->set = set[j].name;
        const uint32_t slots = set[j].slots[0];
        if (slots != set[j].slots[1] ||
            (slots && memcmp(set[j].source[0], set[j].source[1], slots * sizeof(uint32_t)) != 0)) {
            out->field = "slots";
            return 1;
        }
        for (uint32_t s = 0; s < slots; ++s)
            if (set[j].source[0][s] != XPBD_PAD &&
                memcmp(&set[j].lambda[0][s], &set[j].lambda[1][s], sizeof(R)) != 0) {
                out->index = s;
                out->field = "lambda";
                return 1;
            }
    }
    out->set = "";
    return 0;
}

/* replay_check in this precision (the arguments checked by it). */
static xpbd_status SFX(rpl_check)(const xpbd_replay_file *ref, const xpbd_replay_file *run,
                                 replay_check_path *paths, size_t npaths,
                                 const replay_check_perturb *pt, replay_check_path *reference,
                                 char *err, size_t errlen)
{
    uint64_t *rt = malloc((ref->frames + 1) * sizeof *rt);
    uint64_t *ct = malloc((run->frames + 1) * sizeof *ct);
    if (!rt || !ct) {
        free(rt);
        free(ct);
        snprintf(err, errlen, "out of memory");
        return XPBD_ERR_NOMEM;
    }
    memset(reference, 0, sizeof *reference);
    reference->isa = XPBD_ISA_SCALAR;
    reference->threads = 1;
    reference->field = reference->set = "";
    reference->index = SIZE_MAX;
    ENG *e = NULL;
    SFX(rpl_ran) rr;
    xpbd_status st = SFX(rpl_check_run)(ref, XPBD_ISA_SCALAR, 1, NULL, ref->frames, rt, &rr, &e,
                                       err, errlen);
    const uint64_t rdone = rr.done;
    reference->status = st;
    if (!e) {
        free(rt);
        free(ct);
        return st;
    }
    reference->frame = ref->start_frame + rdone - 1;
    reference->hash = SFX(rpl_check_hash)(e);
    reference->state_hash = SFX(xpbd_replay_state_hash)(e);
    SFX(xpbd_engine_destroy)(e);
    for (size_t j = 0; j < npaths; ++j) {
        replay_check_path *o = &paths[j];
        const replay_check_perturb *pj = pt && pt->path == j ? pt : NULL;
        char perr[256] = "";
        SFX(rpl_ran) cr;
        ENG *c = NULL;
        o->status = SFX(rpl_check_run)(run, o->isa, o->threads, pj, run->frames, ct, &cr, &c,
                                      perr, sizeof perr);
        const uint64_t cdone = cr.done;
        o->hash = c ? SFX(rpl_check_hash)(c) : 0;
        o->state_hash = c ? SFX(xpbd_replay_state_hash)(c) : 0;
        SFX(xpbd_engine_destroy)(c);
        o->differs = 0;
        o->frame = run->start_frame;
        o->index = SIZE_MAX;
        o->field = o->set = "";
        if (cr.bad_perturb) {
            snprintf(err, errlen, "%s", perr);
            free(rt);
            free(ct);
            return XPBD_ERR_ARGUMENT;
        }
        if (!c) { /* create refused what the reference built */
            o->differs = 1;
            o->field = "status";
            continue;
        }
        const uint64_t both = rdone < cdone ? rdone : cdone;
        uint64_t k = 0;
        while (k < both && rt[k] == ct[k])
            ++k;
        if (k == both && rdone == cdone)
            continue;
        o->differs = 1;
        o->frame = run->start_frame + k;
        if (k == both) {
            o->field = "frames";
            continue;
        }
        /* both runs again to frame k, compared element by element */
        ENG *a = NULL, *b = NULL;
        SFX(rpl_ran) r0, r1;
        char e0[256], e1[256];
        (void)SFX(rpl_check_run)(ref, XPBD_ISA_SCALAR, 1, NULL, k, NULL, &r0, &a, e0, sizeof e0);
        (void)SFX(rpl_check_run)(run, o->isa, o->threads, pj, k, NULL, &r1, &b, e1, sizeof e1);
        if (!a || !b || !SFX(rpl_first_diff)(a, b, o)) {
            o->index = SIZE_MAX;
            o->set = "";
            o->field = !a || !b || r0.last != r1.last || r0.done != r1.done ? "status" : "hash";
        }
        SFX(xpbd_engine_destroy)(a);
        SFX(xpbd_engine_destroy)(b);
    }
    free(rt);
    free(ct);
    return XPBD_OK;
}

/* ------------------------------------------------------------ export --- */

static int SFX(rpl_export)(const xpbd_replay_file *fl, const char *dir, uint64_t *hash, char *err,
                          size_t errlen)
{
    ENG *e = NULL;
    xpbd_io_pc2_writer *pc = NULL;
    double *xyz = NULL, *vel = NULL;
    uint32_t *tri = NULL;
    char *names = NULL;
    const char **file = NULL;
    double *time = NULL;
    size_t cap = 0, ntri = 0;
    int rc = 2;
    const size_t dlen = strlen(dir);
    char *path = malloc(dlen + 40);
    xpbd_replay_error re;
    xpbd_status st = SFX(xpbd_replay_create)(fl, &e, &re);
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s", re.what);
        goto done;
    }
    const size_t n0 = PARTICLES(e)->count, frames = (size_t)fl->frames;
    names = malloc((frames ? frames : 1) * 32);
    file = malloc((frames ? frames : 1) * sizeof *file);
    time = malloc((frames ? frames : 1) * sizeof *time);
    if (!path || !names || !file || !time) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    SCENE sc;
    SFX(xpbd_engine_scene)(e, &sc);
    cap = sc.particles;
    xyz = malloc(3 * (cap ? cap : 1) * sizeof *xyz);
    vel = malloc(3 * (cap ? cap : 1) * sizeof *vel);
    if (!xyz || !vel) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < 3 * n0; ++i)
        xyz[i] = (double)sc.rest_xyz[i];
    if (rpl_triangles(sc.bend, sc.bends, sc.tet, sc.tets, xyz, 1, &tri, &ntri) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    snprintf(path, dlen + 40, "%s/rest.obj", dir);
    st = xpbd_io_write_obj(path, n0, xyz, ntri, tri);
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s: %s", path, rpl_write_what(st));
        goto done;
    }
    snprintf(path, dlen + 40, "%s/run.pc2", dir);
    st = xpbd_io_pc2_open(&pc, path, n0, (float)(fl->start_frame + 1), 1.0f);
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s: %s", path, rpl_write_what(st));
        goto done;
    }
    for (size_t k = 0; k < frames; ++k) {
        st = SFX(xpbd_replay_frame)(fl, e, &re);
        if (st < 0) {
            snprintf(err, errlen, "%s", re.what);
            rc = 3;
            goto done;
        }
        const SFX(xpbd_particles) *p = PARTICLES(e);
        const size_t n = p->count;
        if (n < n0) {
            snprintf(err, errlen, "frame %zu: fewer particles than at the start", k);
            rc = 3;
            goto done;
        }
        if (n > cap) {
            double *x2 = realloc(xyz, 3 * n * sizeof *xyz);
            if (x2)
                xyz = x2;
            double *v2 = realloc(vel, 3 * n * sizeof *vel);
            if (v2)
                vel = v2;
            if (!x2 || !v2) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            cap = n;
        }
        SFX(xpbd_io_interleave)(n, p->x, p->y, p->z, xyz);
        SFX(xpbd_io_interleave)(n, p->vx, p->vy, p->vz, vel);
        SFX(xpbd_engine_scene)(e, &sc);
        free(tri);
        if (rpl_triangles(sc.bend, sc.bends, NULL, 0, NULL, 0, &tri, &ntri) != 0) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        const xpbd_io_frame fr = {.points = n, .xyz = xyz, .vel = vel, .tets = sc.tets,
                                  .tet = sc.tet, .triangles = ntri, .triangle = tri};
        char *name = names + 32 * k;
        snprintf(name, 32, "frame_%04zu.vtu", k);
        file[k] = name;
        time[k] = (double)(fl->start_frame + k + 1) * fl->h;
        snprintf(path, dlen + 40, "%s/%s", dir, name);
        st = xpbd_io_write_vtu(path, &fr);
        if (st == XPBD_OK) {
            snprintf(path, dlen + 40, "%s/run.pvd", dir);
            st = xpbd_io_write_pvd(path, k + 1, file, time);
        }
        if (st == XPBD_OK) {
            snprintf(path, dlen + 40, "%s/run.pc2", dir);
            st = xpbd_io_pc2_append(pc, xyz);
        }
        if (st != XPBD_OK) {
            snprintf(err, errlen, "%s: %s", path, rpl_write_what(st));
            goto done;
        }
    }
    st = xpbd_io_pc2_close(pc);
    pc = NULL;
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s/run.pc2: %s", dir, rpl_write_what(st));
        goto done;
    }
    *hash = SFX(xpbd_replay_state_hash)(e);
    rc = *hash == fl->hash ? 0 : 1;
done:
    xpbd_io_pc2_discard(pc);
    SFX(xpbd_engine_destroy)(e);
    free(xyz);
    free(vel);
    free(tri);
    free(names);
    free(file);
    free(time);
    free(path);
    return rc;
}

#undef ENG
#undef SCENE
#undef PARTICLES

#define XPBD_PRECISION_END
#include "precision.h"
