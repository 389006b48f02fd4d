/* SPDX-License-Identifier: MIT */
/* Replay files (replay.h) and, compiled with XPBD_REPLAY_MAIN, the tool
 *
 *     xpbd-replay [--quiet] FILE
 *     xpbd-replay --check [--threads N] [--quiet] FILE
 *     xpbd-replay --export DIR [--quiet] FILE
 *
 * The first replays FILE and compares the final state with the recording's
 * hash. Exit status: 0 the replay reproduced the recording bit for bit; 1 it
 * did not (or a step failed); 2 the file was refused (wrong format or
 * protocol version), unreadable or malformed, or the usage was wrong.
 *
 * --check replays FILE on every ISA this build compiled and this CPU
 * supports, scalar first, each at 1 thread and N (xrp_check_paths: the
 * default executor's workers when more than one, else 3), and prints one
 * line a path, "isa threads hash = scalar" (xrp_check_hash_*: the final
 * particle state and lambdas) or where its run first differs from the
 * scalar one-thread run (frame, particle or slot, field), then whether the
 * scalar run reproduces the recording's hash. Exit status: 0 all equal; 1 a
 * path differs, the recording is not reproduced or the reference's steps
 * fail; 2 the file was refused, unreadable or malformed, its scene refused,
 * or the usage was wrong.
 *
 * --export DIR replays FILE writing results into DIR (which must exist,
 * xpbd/io.h's writers): frame_NNNN.vtu after every frame (NNNN from 0000),
 * run.pvd (rewritten after every frame), rest.obj and run.pc2 (the
 * starting particles, one sample a frame, start frame = the first frame
 * replayed + 1, rate 1); exit status as the plain replay, 2 also when an
 * output cannot be written.
 *
 * The per-precision part is written once: this file includes itself with
 * XRP_BODY defined, once for float and once for double. */
#ifdef XRP_BODY

/* ===================================================== per precision === */

#define FN(n) SFX(n)
#define ENG SFX(xpbd_engine)
#define SCENE SFX(xpbd_scene)
#define PARTICLES(e) SFX(xpbd_engine_particles)(e)
#define FRAME(e) SFX(xpbd_engine_counters)(e)->frame

uint64_t FN(xrp_state_hash)(const ENG *e)
{
    const SFX(xpbd_particles) *p = PARTICLES(e);
    const R *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < 10; ++k)
        h = xrp_hash(h, a[k], p->count * sizeof(R));
    return h;
}

/* The particle lines and the topology of scene s (the engine's own view)
 * with the particle arrays p. */
static void FN(xrp_write_state)(FILE *f, const SCENE *s, const SFX(xpbd_particles) *p)
{
    const size_t n = s->particles;
    fprintf(f, "particles %zu %d %d\n", n, s->radius != NULL, s->tether_anchor != NULL);
    for (size_t i = 0; i < n; ++i) {
        const double v[13] = {p->x[i],  p->y[i],  p->z[i],  p->px[i], p->py[i],
                              p->pz[i], p->vx[i], p->vy[i], p->vz[i], p->w[i],
                              s->rest_xyz[3 * i], s->rest_xyz[3 * i + 1], s->rest_xyz[3 * i + 2]};
        fputc('p', f);
        for (int k = 0; k < 13; ++k)
            fprintf(f, " %a", v[k]);
        fprintf(f, " %u", s->origin[i]);
        if (s->radius)
            fprintf(f, " %a", (double)s->radius[i]);
        if (s->tether_anchor)
            fprintf(f, " %u %a", s->tether_anchor[i], (double)s->tether_length[i]);
        fputc('\n', f);
    }
    fprintf(f, "edges %zu\n", s->edges);
    for (size_t k = 0; k < s->edges; ++k)
        fprintf(f, "e %u %u %a %a\n", s->edge[2 * k], s->edge[2 * k + 1], (double)s->edge_rest[k],
                (double)s->edge_compliance[k]);
    fprintf(f, "tets %zu\n", s->tets);
    for (size_t k = 0; k < s->tets; ++k)
        fprintf(f, "t %u %u %u %u %a\n", s->tet[4 * k], s->tet[4 * k + 1], s->tet[4 * k + 2],
                s->tet[4 * k + 3], (double)s->tet_compliance[k]);
    fprintf(f, "bends %zu\n", s->bends);
    for (size_t k = 0; k < s->bends; ++k)
        fprintf(f, "b %u %u %u %u %a\n", s->bend[4 * k], s->bend[4 * k + 1], s->bend[4 * k + 2],
                s->bend[4 * k + 3], (double)s->bend_compliance[k]);
    fprintf(f, "bodies %u\n", s->bodies);
    for (uint32_t b = 0; b < s->bodies; ++b)
        fprintf(f, "body %zu %zu %u %u %016llx\n", s->body_begin[b], s->body_begin[b + 1],
                (unsigned)s->asleep[b], s->calm[b], (unsigned long long)s->signature[b]);
    fprintf(f, "planes %u\n", s->planes);
    for (uint32_t k = 0; k < s->planes; ++k)
        fprintf(f, "plane %a %a %a %a\n", s->plane[k].n[0], s->plane[k].n[1], s->plane[k].n[2],
                s->plane[k].d);
    fprintf(f, "contacts %zu\n", s->max_contacts);
}

int FN(xrp_record_begin)(xrp_recorder *r, const char *path, const ENG *e, double h, char *err,
                         size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->f = fopen(path, "w");
    if (!r->f) {
        snprintf(err, errlen, "%s: cannot open for writing", path);
        return -1;
    }
    FILE *f = r->f;
    SCENE s;
    SFX(xpbd_engine_scene)(e, &s);
    const xpbd_engine_options *o = SFX(xpbd_engine_options)(e);
    r->f64 = R_F64;
    r->start_frame = s.frame;
    fprintf(f, "xpbd-replay %u\nprotocol %u\nreal %s\nh %a\nframe %llu\n", XRP_FORMAT,
            XPBD_PROTOCOL_VERSION, R_F64 ? "f64" : "f32", h, (unsigned long long)s.frame);
    xrp_write_config(f, SFX(xpbd_engine_config)(e));
    fprintf(f, "options tear_stretch %a sleep_energy %a sleep_steps %u keep_hinges %u "
               "max_particles %u threads %u\n",
            o->tear_stretch, o->sleep_energy, o->sleep_steps, o->keep_hinges, o->max_particles,
            o->threads);
    fprintf(f, "colouring %u %d %d\n", s.colouring.max_colours, s.colouring.serial,
            s.colouring.runs);
    FN(xrp_write_state)(f, &s, PARTICLES(e));
    if (ferror(f)) {
        snprintf(err, errlen, "%s: write error", path);
        r->failed = 1;
        return -1;
    }
    return 0;
}

xpbd_status FN(xrp_record_apply)(xrp_recorder *r, ENG *e, const xpbd_input *in)
{
    const xpbd_status st = SFX(xpbd_engine_apply)(e, in);
    if (st == XPBD_OK && r && r->f) {
        fprintf(r->f, "input %llu %u %u %u %a %a %a\n", (unsigned long long)FRAME(e), in->kind,
                in->begin, in->end, in->value[0], in->value[1], in->value[2]);
        r->inputs++;
    }
    return st;
}

int FN(xrp_record_end)(xrp_recorder *r, const ENG *e)
{
    if (!r->f)
        return -1;
    fprintf(r->f, "end %llu %016llx\n", (unsigned long long)(FRAME(e) - r->start_frame),
            (unsigned long long)FN(xrp_state_hash)(e));
    const int bad = ferror(r->f) || r->failed;
    const int closed = fclose(r->f);
    r->f = NULL;
    return bad || closed ? -1 : 0;
}

/* Builds the engine the file describes: its scene, with the saved state
 * (substep-start positions, velocities, sleep bookkeeping, frame count). */
static xpbd_status FN(xrp_create)(const xrp_file *fl, ENG **e, char *err, size_t errlen)
{
    const size_t n = fl->n;
    /* xyz prev rest vel [3n each] | w radius tether_length [n each] | edge rest,
     * edge compliance [edges each] | tet compliance | bend compliance */
    R *buf = malloc((15 * n + 2 * fl->edges + fl->tets + fl->bends + 1) * sizeof *buf);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return XPBD_ERR_NOMEM;
    }
    R *xyz = buf, *prev = buf + 3 * n, *rest = buf + 6 * n, *vel = buf + 9 * n;
    R *w = buf + 12 * n, *rad = buf + 13 * n, *tlen = buf + 14 * n, *erest = buf + 15 * n;
    R *ecomp = erest + fl->edges, *tcomp = ecomp + fl->edges, *bcomp = tcomp + fl->tets;
    for (size_t i = 0; i < n; ++i) {
        const double *q = fl->particle + 13 * i;
        for (int k = 0; k < 3; ++k) {
            xyz[3 * i + (size_t)k] = (R)q[k];
            prev[3 * i + (size_t)k] = (R)q[3 + k];
            vel[3 * i + (size_t)k] = (R)q[6 + k];
            rest[3 * i + (size_t)k] = (R)q[10 + k];
        }
        w[i] = (R)q[9];
        rad[i] = fl->has_radius ? (R)fl->radius[i] : 0;
        tlen[i] = fl->has_tethers ? (R)fl->tether_length[i] : 0;
    }
    for (size_t k = 0; k < fl->edges; ++k) {
        erest[k] = (R)fl->edge_rest[k];
        ecomp[k] = (R)fl->edge_compliance[k];
    }
    for (size_t k = 0; k < fl->tets; ++k)
        tcomp[k] = (R)fl->tet_compliance[k];
    for (size_t k = 0; k < fl->bends; ++k)
        bcomp[k] = (R)fl->bend_compliance[k];
    const SCENE sc = {
        .particles = n, .xyz = xyz, .prev_xyz = prev, .rest_xyz = rest, .vel = vel,
        .inv_mass = w, .radius = fl->has_radius ? rad : NULL,
        .edges = fl->edges, .edge = fl->edge, .edge_rest = erest, .edge_compliance = ecomp,
        .tets = fl->tets, .tet = fl->tet, .tet_compliance = tcomp,
        .bends = fl->bends, .bend = fl->bend, .bend_compliance = bcomp,
        .tether_anchor = fl->has_tethers ? fl->tether_anchor : NULL,
        .tether_length = fl->has_tethers ? tlen : NULL, .origin = fl->origin,
        .bodies = fl->bodies, .body_begin = fl->body_begin, .asleep = fl->asleep,
        .calm = fl->calm, .signature = fl->signature, .planes = fl->planes,
        .plane = fl->plane, .max_contacts = fl->max_contacts, .colouring = fl->colouring,
        .frame = fl->start_frame};
    xpbd_where where;
    const xpbd_status st = SFX(xpbd_engine_create)(e, &sc, &fl->config, &fl->options, &where);
    free(buf);
    if (st != XPBD_OK) {
        char at[96] = "";
        if (where.part != XPBD_PART_NONE || where.field != XPBD_FIELD_NONE)
            snprintf(at, sizeof at, " (%s", xpbd_part_name(where.part));
        if (at[0] && where.index != SIZE_MAX)
            snprintf(at + strlen(at), sizeof at - strlen(at), " %zu", where.index);
        if (at[0] && where.field != XPBD_FIELD_NONE)
            snprintf(at + strlen(at), sizeof at - strlen(at), ", %s",
                     xpbd_field_name(where.field));
        if (at[0])
            snprintf(at + strlen(at), sizeof at - strlen(at), ")");
        snprintf(err, errlen, "the scene was refused: %s%s", xpbd_status_str(st), at);
    }
    return st;
}

/* Applies the inputs logged before engine frame `frame` (from *next on)
 * and steps one frame: the step's status, or the first refusal. */
static xpbd_status FN(xrp_frame)(const xrp_file *fl, ENG *e, uint64_t frame, size_t *next,
                                 char *err, size_t errlen)
{
    for (; *next < fl->inputs && fl->input_frame[*next] == frame; ++*next) {
        const xpbd_status st = SFX(xpbd_engine_apply)(e, &fl->input[*next]);
        if (st != XPBD_OK) {
            snprintf(err, errlen, "input %zu (frame %llu) refused: %s", *next,
                     (unsigned long long)frame, xpbd_status_str(st));
            return st;
        }
    }
    const xpbd_status st = SFX(xpbd_engine_step)(e, fl->h);
    if (st < 0)
        snprintf(err, errlen, "frame %llu failed: %s", (unsigned long long)frame,
                 xpbd_status_str(st));
    return st;
}

xpbd_status FN(xrp_run)(const xrp_file *fl, ENG **out, char *err, size_t errlen)
{
    *out = NULL;
    if (fl->f64 != R_F64) {
        snprintf(err, errlen, "the file holds a %s run; replay it with the %s engine",
                 fl->f64 ? "f64" : "f32", fl->f64 ? "f64" : "f32");
        return XPBD_ERR_ARGUMENT;
    }
    xpbd_status st = FN(xrp_create)(fl, out, err, errlen);
    if (st != XPBD_OK)
        return st;
    ENG *e = *out;
    size_t next = 0;
    xpbd_status result = XPBD_OK;
    for (uint64_t f = 0; f < fl->frames; ++f) {
        st = FN(xrp_frame)(fl, e, fl->start_frame + f, &next, err, errlen);
        if (st < 0)
            return st;
        if (st != XPBD_OK)
            result = st;
    }
    return result;
}

/* ------------------------------------------------------------- check --- */

/* The multipliers of a set's real slots (padding holds no constraint). */
static uint64_t FN(xrp_hash_lambdas)(uint64_t h, uint32_t slots, const R *lambda,
                                     const uint32_t *source)
{
    for (uint32_t s = 0; s < slots; ++s)
        if (source[s] != XPBD_PAD)
            h = xrp_hash(h, &lambda[s], sizeof lambda[s]);
    return h;
}

uint64_t FN(xrp_check_hash)(const ENG *e)
{
    const SFX(xpbd_particles) *p = PARTICLES(e);
    const SFX(xpbd_world) *w = SFX(xpbd_engine_world)(e);
    const uint64_t count = p->count;
    uint64_t h = xrp_hash(0xcbf29ce484222325ull, &count, sizeof count);
    const R *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    for (int k = 0; k < 10; ++k)
        h = xrp_hash(h, a[k], p->count * sizeof(R));
    if (w->constraints)
        h = FN(xrp_hash_lambdas)(h, w->constraints->slots, w->constraints->lambda,
                                 w->constraints->source);
    if (w->tets)
        h = FN(xrp_hash_lambdas)(h, w->tets->slots, w->tets->lambda, w->tets->source);
    if (w->bends)
        h = FN(xrp_hash_lambdas)(h, w->bends->slots, w->bends->lambda, w->bends->source);
    return h;
}

/* The test hook: flips the lowest mantissa bit of one particle's field
 * through an engine input (xrp_perturb). */
static xpbd_status FN(xrp_perturb_apply)(ENG *e, const xrp_perturb *pt)
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
typedef struct FN(xrp_ran) {
    uint64_t done;          /* frames hashed: the engine as built, then one a step */
    xpbd_status last;       /* the last step's status (create's before any) */
    int bad_perturb;        /* the perturbation could not be applied */
} FN(xrp_ran);

/* One path's run: fl on isa at `threads`, at most `frames` frames; trace
 * (may be NULL) gets the hash of the state and of the last status after
 * each frame, trace[0] the engine as built. The engine is left in *out
 * (NULL when create refused the file). Returns the first failing status,
 * else XPBD_OVERFLOW if a step returned it, else XPBD_OK. */
static xpbd_status FN(xrp_check_run)(const xrp_file *fl, xpbd_isa isa, uint32_t threads,
                                     const xrp_perturb *pt, uint64_t frames, uint64_t *trace,
                                     FN(xrp_ran) *ran, ENG **out, char *err, size_t errlen)
{
    xrp_file g = *fl;
    g.config.isa = isa;
    g.config.threads = threads;
    g.options.threads = threads;
    memset(ran, 0, sizeof *ran);
    xpbd_status st = FN(xrp_create)(&g, out, err, errlen);
    ran->last = st;
    if (st != XPBD_OK)
        return st;
    ENG *e = *out;
    xpbd_status result = XPBD_OK;
    size_t next = 0;
    for (uint64_t f = 0;; ++f) {
        const uint64_t frame = g.start_frame + f;
        if (pt && pt->frame == frame && st >= 0 && FN(xrp_perturb_apply)(e, pt) != XPBD_OK) {
            snprintf(err, errlen, "the perturbation of particle %u at frame %llu cannot be applied",
                     pt->particle, (unsigned long long)frame);
            ran->bad_perturb = 1;
            return XPBD_ERR_ARGUMENT;
        }
        if (trace) {
            const int32_t status = (int32_t)st;
            trace[f] = xrp_hash(FN(xrp_check_hash)(e), &status, sizeof status);
        }
        ran->done = f + 1;
        if (f == frames || st < 0)
            break;
        st = FN(xrp_frame)(&g, e, frame, &next, err, errlen);
        ran->last = st;
        if (st != XPBD_OK && result >= 0)
            result = st;
    }
    return result;
}

/* Where two engines' states first differ (xrp_path's fields); 0 if nowhere. */
static int FN(xrp_first_diff)(const ENG *a, const ENG *b, xrp_path *out)
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

/* xrp_check in this precision (the arguments checked by it). */
static xpbd_status FN(xrp_check)(const xrp_file *ref, const xrp_file *run, xrp_path *paths,
                                 size_t npaths, const xrp_perturb *pt, xrp_path *reference,
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
    FN(xrp_ran) rr;
    xpbd_status st = FN(xrp_check_run)(ref, XPBD_ISA_SCALAR, 1, NULL, ref->frames, rt, &rr, &e,
                                       err, errlen);
    const uint64_t rdone = rr.done;
    reference->status = st;
    if (!e) {
        free(rt);
        free(ct);
        return st;
    }
    reference->frame = ref->start_frame + rdone - 1;
    reference->hash = FN(xrp_check_hash)(e);
    reference->state_hash = FN(xrp_state_hash)(e);
    SFX(xpbd_engine_destroy)(e);
    for (size_t j = 0; j < npaths; ++j) {
        xrp_path *o = &paths[j];
        const xrp_perturb *pj = pt && pt->path == j ? pt : NULL;
        char perr[256] = "";
        FN(xrp_ran) cr;
        ENG *c = NULL;
        o->status = FN(xrp_check_run)(run, o->isa, o->threads, pj, run->frames, ct, &cr, &c,
                                      perr, sizeof perr);
        const uint64_t cdone = cr.done;
        o->hash = c ? FN(xrp_check_hash)(c) : 0;
        o->state_hash = c ? FN(xrp_state_hash)(c) : 0;
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
        FN(xrp_ran) r0, r1;
        char e0[256], e1[256];
        (void)FN(xrp_check_run)(ref, XPBD_ISA_SCALAR, 1, NULL, k, NULL, &r0, &a, e0, sizeof e0);
        (void)FN(xrp_check_run)(run, o->isa, o->threads, pj, k, NULL, &r1, &b, e1, sizeof e1);
        if (!a || !b || !FN(xrp_first_diff)(a, b, o)) {
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

#ifdef XPBD_REPLAY_MAIN
/* ------------------------------------------------------------ export --- */

/* xpbd-replay --export: replays fl, writing DIR/frame_NNNN.vtu after every
 * frame (the particles, velocity as point data, the engine's tets and the
 * triangles of its bending stencils), DIR/run.pvd rewritten after every
 * frame, DIR/rest.obj (the starting particles' rest shape, the stencils'
 * triangles and the tets' boundary faces) and DIR/run.pc2 (the starting
 * particles, a sample a frame). 0; 1 a step failed or the end state is not
 * the recorded one; 2 the scene was refused or an output could not be
 * written, 3 a step failed (message in err for 2 and 3). */
static int FN(xrp_export)(const xrp_file *fl, const char *dir, uint64_t *hash, char *err,
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
    xpbd_status st = FN(xrp_create)(fl, &e, err, errlen);
    if (st != XPBD_OK) {
        rc = 2;
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
    if (xrp_triangles(sc.bend, sc.bends, sc.tet, sc.tets, xyz, 1, &tri, &ntri) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    snprintf(path, dlen + 40, "%s/rest.obj", dir);
    st = xpbd_io_write_obj(path, n0, xyz, ntri, tri);
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s: %s", path, xrp_write_what(st));
        goto done;
    }
    snprintf(path, dlen + 40, "%s/run.pc2", dir);
    st = xpbd_io_pc2_open(&pc, path, n0, (float)(fl->start_frame + 1), 1.0f);
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s: %s", path, xrp_write_what(st));
        goto done;
    }
    size_t next = 0;
    for (size_t k = 0; k < frames; ++k) {
        st = FN(xrp_frame)(fl, e, fl->start_frame + k, &next, err, errlen);
        if (st < 0) {
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
        if (xrp_triangles(sc.bend, sc.bends, NULL, 0, NULL, 0, &tri, &ntri) != 0) {
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
            snprintf(err, errlen, "%s: %s", path, xrp_write_what(st));
            goto done;
        }
    }
    st = xpbd_io_pc2_close(pc);
    pc = NULL;
    if (st != XPBD_OK) {
        snprintf(err, errlen, "%s/run.pc2: %s", dir, xrp_write_what(st));
        goto done;
    }
    *hash = FN(xrp_state_hash)(e);
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
#endif /* XPBD_REPLAY_MAIN */

#undef FN
#undef ENG
#undef SCENE
#undef PARTICLES
#undef FRAME

#else /* !XRP_BODY */

/* ============================================================= shared === */

#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t xrp_hash(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < bytes; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void xrp_write_config(FILE *f, const xpbd_step_config *c)
{
    fprintf(f,
            "config version %u substeps %u iterations %u gravity %a %a %a damping %a "
            "pbd_stiffness %a spring_damping %a solver %d lambda_reset %d isa %d "
            "measure_residual %d contact_beta %a restitution %a contact_slop %a "
            "friction_static %a friction_dynamic %a contact_skin %a contact_weighted %d "
            "contact_velocity_pass %d contact_order %d relative_damping %a threads %u\n",
            c->version, c->substeps, c->iterations, c->gravity[0], c->gravity[1], c->gravity[2],
            c->damping, c->pbd_stiffness, c->spring_damping, (int)c->solver,
            (int)c->lambda_reset, (int)c->isa, c->measure_residual, c->contact_beta,
            c->restitution, c->contact_slop, c->friction_static, c->friction_dynamic,
            c->contact_skin, c->contact_weighted, c->contact_velocity_pass,
            (int)c->contact_order, c->relative_damping, c->threads);
}

#ifdef XPBD_REPLAY_MAIN
/* ------------------------------------------- --export: mesh helpers --- */

#include <xpbd/io.h>

/* what a writer's status means for the export */
static const char *xrp_write_what(xpbd_status st)
{
    return st == XPBD_ERR_FILE ? "cannot be written (does the directory exist, is it writable?)"
                               : xpbd_status_str(st);
}

typedef struct xrp_face {
    uint32_t key[3]; /* sorted corners */
    uint32_t v[3];   /* as the face runs */
} xrp_face;

static int xrp_face_cmp(const void *a, const void *b)
{
    const xrp_face *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x->key[k] != y->key[k])
            return x->key[k] < y->key[k] ? -1 : 1;
    return 0;
}

static void xrp_face_set(xrp_face *f, uint32_t a, uint32_t b, uint32_t c)
{
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    uint32_t t;
    if (a > b) { t = a; a = b; b = t; }
    if (b > c) { t = b; b = c; c = t; }
    if (a > b) { t = a; a = b; b = t; }
    f->key[0] = a;
    f->key[1] = b;
    f->key[2] = c;
}

/* Sorts the n faces and writes to tri [3 * n] the faces that occur once
 * (once = 1: a tet mesh's boundary) or every distinct face once (once = 0),
 * in key order; returns their count. */
static size_t xrp_faces_pick(xrp_face *face, size_t n, int once, uint32_t *tri)
{
    qsort(face, n, sizeof *face, xrp_face_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && xrp_face_cmp(&face[i], &face[j]) == 0)
            ++j;
        if (!once || j == i + 1) {
            memcpy(tri + 3 * m, face[i].v, sizeof face[i].v);
            ++m;
        }
        i = j;
    }
    return m;
}

/* The triangles the export shows: the triangles of the bending stencils
 * (a b c and b a d, each once) and, with boundary, the boundary faces of
 * the tets (outward for a tet of positive volume at rest [3n]). *tri is
 * malloc'd [3 * count] (NULL when there is none). 0, or -1: no memory. */
static int xrp_triangles(const uint32_t *bend, size_t bends, const uint32_t *tet, size_t tets,
                         const double *rest, int boundary, uint32_t **tri, size_t *count)
{
    *tri = NULL;
    *count = 0;
    const size_t nb = 2 * bends, nt = boundary ? 4 * tets : 0;
    if (nb + nt == 0)
        return 0;
    xrp_face *face = malloc((nb > nt ? nb : nt) * sizeof *face);
    uint32_t *out = malloc(3 * (nb + nt) * sizeof *out);
    if (!face || !out) {
        free(face);
        free(out);
        return -1;
    }
    for (size_t s = 0; s < bends; ++s) {
        const uint32_t *q = bend + 4 * s;
        xrp_face_set(&face[2 * s], q[0], q[1], q[2]);
        xrp_face_set(&face[2 * s + 1], q[1], q[0], q[3]);
    }
    size_t m = nb ? xrp_faces_pick(face, nb, 0, out) : 0;
    for (size_t t = 0; t < (boundary ? tets : 0); ++t) {
        uint32_t a = tet[4 * t], b = tet[4 * t + 1];
        const uint32_t c = tet[4 * t + 2], d = tet[4 * t + 3];
        double e[3][3];
        for (int k = 0; k < 3; ++k) {
            e[0][k] = rest[3 * b + (size_t)k] - rest[3 * a + (size_t)k];
            e[1][k] = rest[3 * c + (size_t)k] - rest[3 * a + (size_t)k];
            e[2][k] = rest[3 * d + (size_t)k] - rest[3 * a + (size_t)k];
        }
        const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                           e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
        if (det < 0) {
            const uint32_t x = a;
            a = b;
            b = x;
        }
        xrp_face_set(&face[4 * t], b, c, d);
        xrp_face_set(&face[4 * t + 1], a, d, c);
        xrp_face_set(&face[4 * t + 2], a, b, d);
        xrp_face_set(&face[4 * t + 3], a, c, b);
    }
    if (nt)
        m += xrp_faces_pick(face, nt, 1, out + 3 * m);
    free(face);
    *tri = out;
    *count = m;
    return 0;
}
#endif /* XPBD_REPLAY_MAIN */

#define XRP_BODY
#define XPBD_REAL_F32
#include "precision.h"
#include "replay.c"
#define XPBD_PRECISION_END
#include "precision.h"

#define XPBD_REAL_F64
#include "precision.h"
#include "replay.c"
#define XPBD_PRECISION_END
#include "precision.h"
#undef XRP_BODY

/* -------------------------------------------------------------- check --- */

size_t xrp_check_paths(xrp_path *paths, size_t max, uint32_t threads)
{
    if (threads == 0) {
        const xpbd_executor *x = xpbd_executor_default();
        threads = x && x->worker_count > 1 ? x->worker_count : 3;
    }
    static const xpbd_isa isa[] = {XPBD_ISA_SCALAR, XPBD_ISA_SSE4, XPBD_ISA_AVX2,
                                   XPBD_ISA_AVX512, XPBD_ISA_NEON};
    size_t n = 0;
    for (size_t k = 0; k < sizeof isa / sizeof isa[0]; ++k) {
        if (!xpbd_isa_compiled(isa[k]) || !xpbd_isa_supported(isa[k]))
            continue;
        for (int t = 0; t < (threads == 1 ? 1 : 2) && n < max; ++t) {
            memset(&paths[n], 0, sizeof paths[n]);
            paths[n].isa = isa[k];
            paths[n].threads = t ? threads : 1;
            paths[n].index = SIZE_MAX;
            paths[n].field = paths[n].set = "";
            ++n;
        }
    }
    return n;
}

xpbd_status xrp_check(const xrp_file *ref, const xrp_file *run, xrp_path *paths, size_t npaths,
                      const xrp_perturb *perturb, xrp_path *reference, char *err, size_t errlen)
{
    if (errlen)
        err[0] = 0;
    if (!ref || !run || !reference || (npaths && !paths)) {
        snprintf(err, errlen, "xrp_check: NULL argument");
        return XPBD_ERR_ARGUMENT;
    }
    if (ref->f64 != run->f64 || ref->start_frame != run->start_frame) {
        snprintf(err, errlen, "the two recordings differ in precision or start frame");
        return XPBD_ERR_ARGUMENT;
    }
    if (perturb && (perturb->path >= npaths || perturb->field < 0 || perturb->field > 9 ||
                    (perturb->field >= 3 && perturb->field <= 5))) {
        snprintf(err, errlen, "the perturbation names no path, or a field no input sets");
        return XPBD_ERR_ARGUMENT;
    }
    return ref->f64 ? xrp_check_f64(ref, run, paths, npaths, perturb, reference, err, errlen)
                    : xrp_check_f32(ref, run, paths, npaths, perturb, reference, err, errlen);
}

/* ------------------------------------------------------------ reading --- */

#define XRP_MAX_TOKENS 64

typedef struct xrp_reader {
    const char *path;
    char *text;
    char *at;
    size_t line;
    char *tok[XRP_MAX_TOKENS];
    int ntok;
    char *err;
    size_t errlen;
} xrp_reader;

/* Next non-empty line, split at blanks. Returns 0 at end of file. */
static int xrp_next(xrp_reader *r)
{
    while (*r->at) {
        char *s = r->at;
        char *e = strchr(s, '\n');
        if (e) {
            *e = 0;
            r->at = e + 1;
        } else {
            r->at = s + strlen(s);
        }
        r->line++;
        r->ntok = 0;
        for (char *c = s; *c;) {
            while (*c == ' ' || *c == '\t' || *c == '\r')
                *c++ = 0;
            if (!*c)
                break;
            if (r->ntok == XRP_MAX_TOKENS) {
                r->ntok = -1;
                return 1;
            }
            r->tok[r->ntok++] = c;
            while (*c && *c != ' ' && *c != '\t' && *c != '\r')
                ++c;
        }
        if (r->ntok != 0)
            return 1;
    }
    r->ntok = 0;
    return 0;
}

static xpbd_status xrp_bad(xrp_reader *r, const char *what)
{
    snprintf(r->err, r->errlen, "%s:%zu: %s", r->path, r->line, what);
    return XPBD_ERR_ARGUMENT;
}

static int xrp_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == 0;
}

static int xrp_u64(const char *s, uint64_t *out, int base)
{
    char *end;
    if (*s == '-' || *s == '+')
        return 0;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, base);
    *out = v;
    return end != s && *end == 0 && errno == 0;
}

static int xrp_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (!xrp_u64(s, &v, 10) || v > UINT32_MAX)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

static int xrp_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1000000 || v > 1000000)
        return 0;
    *out = (int)v;
    return 1;
}

/* Line "key <count>" */
static int xrp_count(xrp_reader *r, const char *key, uint64_t *out, uint64_t max)
{
    return xrp_next(r) && r->ntok == 2 && strcmp(r->tok[0], key) == 0 &&
           xrp_u64(r->tok[1], out, 10) && *out <= max;
}

/* The 'config' line. Format 3 had no threads: 0 then, as its reader left
 * it (the results do not depend on it). */
static xpbd_status xrp_read_config(xrp_reader *r, xpbd_step_config *c, unsigned format)
{
    if (!xrp_next(r) || r->ntok < 1 || strcmp(r->tok[0], "config") != 0)
        return xrp_bad(r, "expected the 'config' line");
    memset(c, 0, sizeof *c);
    enum { NKEYS = 23, THREADS = 21 };
    static const char *const keys[NKEYS] = {
        "version",         "substeps",         "iterations",       "gravity",
        "damping",         "pbd_stiffness",    "spring_damping",   "solver",
        "lambda_reset",    "isa",              "measure_residual", "contact_beta",
        "restitution",     "contact_slop",     "friction_static",  "friction_dynamic",
        "contact_skin",    "contact_weighted", "contact_velocity_pass", "contact_order",
        "relative_damping", "threads",      NULL};
    int seen[NKEYS] = {0};
    int t = 1;
    while (t < r->ntok) {
        const char *k = r->tok[t++];
        int key = -1;
        for (int j = 0; keys[j]; ++j)
            if (strcmp(k, keys[j]) == 0)
                key = j;
        const int need = key == 3 ? 3 : 1;
        if (key < 0 || t + need > r->ntok)
            return xrp_bad(r, "unknown or incomplete field in the 'config' line");
        int ok = 1, iv = 0;
        double d[3] = {0, 0, 0};
        switch (key) {
        case 0: ok = xrp_u32(r->tok[t], &c->version); break;
        case 1: ok = xrp_u32(r->tok[t], &c->substeps); break;
        case 2: ok = xrp_u32(r->tok[t], &c->iterations); break;
        case 3:
            for (int a = 0; a < 3; ++a)
                ok &= xrp_real(r->tok[t + a], &d[a]);
            memcpy(c->gravity, d, sizeof d);
            break;
        case 4: ok = xrp_real(r->tok[t], &c->damping); break;
        case 5: ok = xrp_real(r->tok[t], &c->pbd_stiffness); break;
        case 6: ok = xrp_real(r->tok[t], &c->spring_damping); break;
        case 7: ok = xrp_int(r->tok[t], &iv); c->solver = (xpbd_solver)iv; break;
        case 8: ok = xrp_int(r->tok[t], &iv); c->lambda_reset = (xpbd_lambda_reset)iv; break;
        case 9: ok = xrp_int(r->tok[t], &iv); c->isa = (xpbd_isa)iv; break;
        case 10: ok = xrp_int(r->tok[t], &c->measure_residual); break;
        case 11: ok = xrp_real(r->tok[t], &c->contact_beta); break;
        case 12: ok = xrp_real(r->tok[t], &c->restitution); break;
        case 13: ok = xrp_real(r->tok[t], &c->contact_slop); break;
        case 14: ok = xrp_real(r->tok[t], &c->friction_static); break;
        case 15: ok = xrp_real(r->tok[t], &c->friction_dynamic); break;
        case 16: ok = xrp_real(r->tok[t], &c->contact_skin); break;
        case 17: ok = xrp_int(r->tok[t], &c->contact_weighted); break;
        case 18: ok = xrp_int(r->tok[t], &c->contact_velocity_pass); break;
        case 19: ok = xrp_int(r->tok[t], &iv); c->contact_order = (xpbd_contact_order)iv; break;
        case 20: ok = xrp_real(r->tok[t], &c->relative_damping); break;
        case THREADS: ok = xrp_u32(r->tok[t], &c->threads); break;
        default: ok = 0;
        }
        if (!ok)
            return xrp_bad(r, "malformed value in the 'config' line");
        seen[key] = 1;
        t += need;
    }
    for (int j = 0; keys[j]; ++j)
        if (!seen[j] && !(j == THREADS && format == 3))
            return xrp_bad(r, "the 'config' line misses a field");
    return XPBD_OK;
}

void xrp_free(xrp_file *f)
{
    if (!f)
        return;
    void *const p[] = {f->particle,       f->radius,          f->tether_length, f->tether_anchor,
                       f->origin,
                       f->edge,           f->tet,             f->bend,          f->edge_rest,
                       f->edge_compliance, f->tet_compliance, f->bend_compliance,
                       f->body_begin,     f->asleep,          f->calm,          f->signature,
                       f->input_frame,    f->input};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; ++k)
        free(p[k]);
    memset(f, 0, sizeof *f);
}

static xpbd_status xrp_parse(xrp_reader *r, xrp_file *f)
{
    uint64_t v;
    /* the version header first: a file of another format or protocol is
     * refused before anything else is read */
    if (!xrp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "xpbd-replay") != 0 ||
        !xrp_u64(r->tok[1], &v, 10) || v > UINT32_MAX)
        return xrp_bad(r, "not an xpbd replay file (the first line must be 'xpbd-replay <format>')");
    f->format = (unsigned)v;
    if (f->format < XRP_FORMAT_OLDEST || f->format > XRP_FORMAT) {
        snprintf(r->err, r->errlen,
                 "%s: replay file format %u, but this build of xpbd reads formats %u to %u: "
                 "refused",
                 r->path, f->format, XRP_FORMAT_OLDEST, XRP_FORMAT);
        return XPBD_ERR_VERSION;
    }
    const int old = f->format == 3; /* no threads, no colouring runs (replay.h) */
    if (!xrp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "protocol") != 0 ||
        !xrp_u64(r->tok[1], &v, 10) || v > UINT32_MAX)
        return xrp_bad(r, "expected 'protocol <version>'");
    f->protocol = (unsigned)v;
    if (f->protocol != XPBD_PROTOCOL_VERSION) {
        snprintf(r->err, r->errlen,
                 "%s: recorded with step protocol %u, but this build of xpbd speaks protocol %u "
                 "(the defaults and meaning of the step configuration differ, so the replay "
                 "would silently diverge): refused",
                 r->path, f->protocol, (unsigned)XPBD_PROTOCOL_VERSION);
        return XPBD_ERR_VERSION;
    }
    if (!xrp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "real") != 0 ||
        (strcmp(r->tok[1], "f32") != 0 && strcmp(r->tok[1], "f64") != 0))
        return xrp_bad(r, "expected 'real f32' or 'real f64'");
    f->f64 = strcmp(r->tok[1], "f64") == 0;
    if (!xrp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "h") != 0 || !xrp_real(r->tok[1], &f->h))
        return xrp_bad(r, "expected 'h <frame length>'");
    if (!xrp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "frame") != 0 ||
        !xrp_u64(r->tok[1], &f->start_frame, 10))
        return xrp_bad(r, "expected 'frame <start frame>'");
    xpbd_status st = xrp_read_config(r, &f->config, f->format);
    if (st != XPBD_OK)
        return st;
    if (f->config.version != XPBD_PROTOCOL_VERSION) {
        snprintf(r->err, r->errlen,
                 "%s:%zu: step configuration of protocol %u, this build speaks %u: refused",
                 r->path, r->line, f->config.version, (unsigned)XPBD_PROTOCOL_VERSION);
        return XPBD_ERR_VERSION;
    }
    uint32_t u;
    if (!xrp_next(r) || r->ntok != (old ? 11 : 13) || strcmp(r->tok[0], "options") != 0 ||
        strcmp(r->tok[1], "tear_stretch") != 0 || !xrp_real(r->tok[2], &f->options.tear_stretch) ||
        strcmp(r->tok[3], "sleep_energy") != 0 || !xrp_real(r->tok[4], &f->options.sleep_energy) ||
        strcmp(r->tok[5], "sleep_steps") != 0 || !xrp_u32(r->tok[6], &f->options.sleep_steps) ||
        strcmp(r->tok[7], "keep_hinges") != 0 || !xrp_u32(r->tok[8], &f->options.keep_hinges) ||
        strcmp(r->tok[9], "max_particles") != 0 || !xrp_u32(r->tok[10], &f->options.max_particles) ||
        (!old && (strcmp(r->tok[11], "threads") != 0 || !xrp_u32(r->tok[12], &f->options.threads))))
        return xrp_bad(r, old ? "expected 'options tear_stretch <x> sleep_energy <x> sleep_steps "
                                "<n> keep_hinges <0|1> max_particles <n>'"
                              : "expected 'options tear_stretch <x> sleep_energy <x> sleep_steps "
                                "<n> keep_hinges <0|1> max_particles <n> threads <n>'");
    if (f->options.max_particles > (uint32_t)INT32_MAX)
        return xrp_bad(r, "max_particles beyond the index range");
    int serial, runs = 0;
    /* format 3 wrote no runs; a third number there is the recording's value
     * given by hand (replay.h) */
    const int line = xrp_next(r), has_runs = line && r->ntok == 4;
    if (!line || (!has_runs && !(old && r->ntok == 3)) || strcmp(r->tok[0], "colouring") != 0 ||
        !xrp_u32(r->tok[1], &u) || !xrp_int(r->tok[2], &serial) ||
        (has_runs && !xrp_int(r->tok[3], &runs)))
        return xrp_bad(r, "expected 'colouring <max colours> <serial> <runs>'");
    const size_t colouring_line = r->line;
    f->colouring.max_colours = u;
    f->colouring.serial = serial;
    f->colouring.runs = runs;
    int hr, ht;
    if (!xrp_next(r) || r->ntok != 4 || strcmp(r->tok[0], "particles") != 0 ||
        !xrp_u64(r->tok[1], &v, 10) || v > (uint64_t)INT32_MAX || !xrp_int(r->tok[2], &hr) ||
        !xrp_int(r->tok[3], &ht))
        return xrp_bad(r, "expected 'particles <n> <radius 0|1> <tethers 0|1>'");
    const size_t n = (size_t)v;
    if (f->options.max_particles && f->options.max_particles < n)
        return xrp_bad(r, "more particles than the options' max_particles");
    f->n = n;
    f->has_radius = hr != 0;
    f->has_tethers = ht != 0;
    f->particle = malloc((13 * n + 1) * sizeof *f->particle);
    f->radius = malloc((n + 1) * sizeof *f->radius);
    f->tether_length = malloc((n + 1) * sizeof *f->tether_length);
    f->tether_anchor = malloc((n + 1) * sizeof *f->tether_anchor);
    f->origin = malloc((n + 1) * sizeof *f->origin);
    if (!f->particle || !f->radius || !f->tether_length || !f->tether_anchor || !f->origin)
        return XPBD_ERR_NOMEM;
    const int width = 15 + f->has_radius + 2 * f->has_tethers;
    for (size_t i = 0; i < n; ++i) {
        if (!xrp_next(r) || r->ntok != width || strcmp(r->tok[0], "p") != 0)
            return xrp_bad(r, "expected a particle line 'p x y z px py pz vx vy vz w rx ry rz "
                              "origin ...'");
        int ok = 1;
        for (int k = 0; k < 13; ++k)
            ok &= xrp_real(r->tok[1 + k], &f->particle[13 * i + (size_t)k]);
        ok &= xrp_u32(r->tok[14], &f->origin[i]);
        int t = 15;
        if (f->has_radius)
            ok &= xrp_real(r->tok[t++], &f->radius[i]);
        if (f->has_tethers) {
            ok &= xrp_u32(r->tok[t], &f->tether_anchor[i]);
            ok &= xrp_real(r->tok[t + 1], &f->tether_length[i]);
        }
        if (!ok)
            return xrp_bad(r, "malformed particle line");
    }
    if (!xrp_count(r, "edges", &v, (uint64_t)INT32_MAX))
        return xrp_bad(r, "expected 'edges <count>'");
    f->edges = (size_t)v;
    if (old && !has_runs && f->edges > 0 && !f->colouring.serial) {
        snprintf(r->err, r->errlen,
                 "%s:%zu: replay file format 3 does not record colouring.runs, which orders "
                 "this file's %zu distance constraints (a recording made with runs = 1 would "
                 "replay differently with 0): refused; record it again with this build "
                 "(format %u), or write the recording's runs (0 or 1) as the third number of "
                 "its 'colouring' line",
                 r->path, colouring_line, f->edges, XRP_FORMAT);
        return XPBD_ERR_VERSION;
    }
    f->edge = malloc((2 * f->edges + 1) * sizeof *f->edge);
    f->edge_rest = malloc((f->edges + 1) * sizeof *f->edge_rest);
    f->edge_compliance = malloc((f->edges + 1) * sizeof *f->edge_compliance);
    if (!f->edge || !f->edge_rest || !f->edge_compliance)
        return XPBD_ERR_NOMEM;
    for (size_t k = 0; k < f->edges; ++k)
        if (!xrp_next(r) || r->ntok != 5 || strcmp(r->tok[0], "e") != 0 ||
            !xrp_u32(r->tok[1], &f->edge[2 * k]) || !xrp_u32(r->tok[2], &f->edge[2 * k + 1]) ||
            !xrp_real(r->tok[3], &f->edge_rest[k]) || !xrp_real(r->tok[4], &f->edge_compliance[k]))
            return xrp_bad(r, "expected an edge line 'e i0 i1 rest compliance'");
    const char *const qname[2] = {"tets", "bends"};
    const char *const qtag[2] = {"t", "b"};
    for (int kind = 0; kind < 2; ++kind) {
        if (!xrp_count(r, qname[kind], &v, (uint64_t)INT32_MAX / 8))
            return xrp_bad(r, kind ? "expected 'bends <count>'" : "expected 'tets <count>'");
        uint32_t *idx = malloc((4 * (size_t)v + 1) * sizeof *idx);
        double *comp = malloc(((size_t)v + 1) * sizeof *comp);
        if (kind) {
            f->bends = (size_t)v;
            f->bend = idx;
            f->bend_compliance = comp;
        } else {
            f->tets = (size_t)v;
            f->tet = idx;
            f->tet_compliance = comp;
        }
        if (!idx || !comp)
            return XPBD_ERR_NOMEM;
        for (size_t k = 0; k < (size_t)v; ++k) {
            int ok = xrp_next(r) && r->ntok == 6 && strcmp(r->tok[0], qtag[kind]) == 0;
            for (int a = 0; ok && a < 4; ++a)
                ok = xrp_u32(r->tok[1 + a], &idx[4 * k + (size_t)a]);
            if (!ok || !xrp_real(r->tok[5], &comp[k]))
                return xrp_bad(r, "expected a line 't|b a b c d compliance'");
        }
    }
    if (!xrp_count(r, "bodies", &v, UINT32_MAX - 1))
        return xrp_bad(r, "expected 'bodies <count>'");
    f->bodies = (uint32_t)v;
    f->body_begin = malloc((f->bodies + 1) * sizeof *f->body_begin);
    f->asleep = malloc(f->bodies + 1);
    f->calm = malloc((f->bodies + 1) * sizeof *f->calm);
    f->signature = malloc((f->bodies + 1) * sizeof *f->signature);
    if (!f->body_begin || !f->asleep || !f->calm || !f->signature)
        return XPBD_ERR_NOMEM;
    f->body_begin[0] = 0;
    for (uint32_t b = 0; b < f->bodies; ++b) {
        uint64_t b0, b1, sl, sig;
        if (!xrp_next(r) || r->ntok != 6 || strcmp(r->tok[0], "body") != 0 ||
            !xrp_u64(r->tok[1], &b0, 10) || !xrp_u64(r->tok[2], &b1, 10) ||
            !xrp_u64(r->tok[3], &sl, 10) || sl > 1 || !xrp_u32(r->tok[4], &f->calm[b]) ||
            !xrp_u64(r->tok[5], &sig, 16) || (b > 0 && b0 != f->body_begin[b]))
            return xrp_bad(r, "expected a body line 'body begin end asleep calm signature'");
        f->body_begin[b] = (size_t)b0;
        f->body_begin[b + 1] = (size_t)b1;
        f->asleep[b] = (uint8_t)sl;
        f->signature[b] = sig;
    }
    if (!xrp_count(r, "planes", &v, 8))
        return xrp_bad(r, "expected 'planes <count, at most 8>'");
    f->planes = (uint32_t)v;
    for (uint32_t k = 0; k < f->planes; ++k)
        if (!xrp_next(r) || r->ntok != 5 || strcmp(r->tok[0], "plane") != 0 ||
            !xrp_real(r->tok[1], &f->plane[k].n[0]) || !xrp_real(r->tok[2], &f->plane[k].n[1]) ||
            !xrp_real(r->tok[3], &f->plane[k].n[2]) || !xrp_real(r->tok[4], &f->plane[k].d))
            return xrp_bad(r, "expected a plane line 'plane nx ny nz d'");
    if (!xrp_count(r, "contacts", &v, (uint64_t)INT32_MAX))
        return xrp_bad(r, "expected 'contacts <max contacts>'");
    if (v > (uint64_t)INT32_MAX / 2)
        return xrp_bad(r, "contacts beyond the contact set's range (INT32_MAX / 2)");
    f->max_contacts = (size_t)v;
    /* inputs until 'end' */
    size_t cap = 0;
    for (;;) {
        if (!xrp_next(r))
            return xrp_bad(r, "unexpected end of file: no 'end' line (was the recording finished?)");
        if (r->ntok == 3 && strcmp(r->tok[0], "end") == 0) {
            if (!xrp_u64(r->tok[1], &f->frames, 10) || !xrp_u64(r->tok[2], &f->hash, 16))
                return xrp_bad(r, "expected 'end <frames> <hash>'");
            if (f->frames > XRP_MAX_FRAMES)
                return xrp_bad(r, "more frames than a replay may hold (XRP_MAX_FRAMES)");
            break;
        }
        if (r->ntok != 8 || strcmp(r->tok[0], "input") != 0)
            return xrp_bad(r, "expected 'input frame kind begin end v0 v1 v2' or 'end'");
        if (f->inputs == cap) {
            cap = cap ? 2 * cap : 64;
            uint64_t *fr = realloc(f->input_frame, cap * sizeof *fr);
            if (fr)
                f->input_frame = fr;
            xpbd_input *in = realloc(f->input, cap * sizeof *in);
            if (in)
                f->input = in;
            if (!fr || !in)
                return XPBD_ERR_NOMEM;
        }
        xpbd_input *in = &f->input[f->inputs];
        memset(in, 0, sizeof *in);
        uint64_t fr;
        int ok = xrp_u64(r->tok[1], &fr, 10) && xrp_u32(r->tok[2], &in->kind) &&
                 xrp_u32(r->tok[3], &in->begin) && xrp_u32(r->tok[4], &in->end);
        for (int a = 0; ok && a < 3; ++a)
            ok = xrp_real(r->tok[5 + a], &in->value[a]);
        if (!ok || fr < f->start_frame || (f->inputs && fr < f->input_frame[f->inputs - 1]))
            return xrp_bad(r, "malformed input line (frames must not go backwards)");
        f->input_frame[f->inputs++] = fr;
    }
    if (xrp_next(r))
        return xrp_bad(r, "text after the 'end' line");
    return XPBD_OK;
}

xpbd_status xrp_load(const char *path, xrp_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (errlen)
        err[0] = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return XPBD_ERR_ARGUMENT;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - 1 - len, fp);
        if (len < cap - 1)
            break;
        char *t = realloc(text, 2 * cap);
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t;
        cap *= 2;
    }
    const int read_error = ferror(fp);
    fclose(fp);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return XPBD_ERR_NOMEM;
    }
    if (read_error) {
        free(text);
        snprintf(err, errlen, "%s: read error", path);
        return XPBD_ERR_ARGUMENT;
    }
    text[len] = 0;
    xrp_reader r = {path, text, text, 0, {0}, 0, err, errlen};
    xpbd_status st = xrp_parse(&r, out);
    free(text);
    if (st == XPBD_ERR_NOMEM)
        snprintf(err, errlen, "%s: out of memory", path);
    if (st != XPBD_OK)
        xrp_free(out);
    return st;
}

/* --------------------------------------------------------------- tool --- */

#ifdef XPBD_REPLAY_MAIN

#include <time.h>

static double xrp_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void xrp_usage(FILE *f)
{
    fprintf(f, "usage: xpbd-replay [--quiet] FILE\n"
               "       xpbd-replay --check [--threads N] [--quiet] FILE\n"
               "       xpbd-replay --export DIR [--quiet] FILE\n");
}

/* "avx2 3 <hash> = scalar" or where the path first differs. */
static void xrp_print_path(const xrp_path *p)
{
    printf("%s %u %016llx ", xpbd_isa_name(p->isa), p->threads, (unsigned long long)p->hash);
    if (!p->differs) {
        printf("= scalar\n");
        return;
    }
    printf("differs from scalar 1: frame %llu, ", (unsigned long long)p->frame);
    if (p->index != SIZE_MAX && strcmp(p->field, "lambda") == 0)
        printf("%s slot %zu, field lambda\n", p->set, p->index);
    else if (p->index != SIZE_MAX)
        printf("particle %zu, field %s\n", p->index, p->field);
    else if (strcmp(p->field, "slots") == 0)
        printf("the %s set's layout\n", p->set);
    else if (strcmp(p->field, "status") == 0)
        printf("status (this path's run: %s)\n", xpbd_status_str(p->status));
    else if (strcmp(p->field, "particles") == 0)
        printf("the particle count\n");
    else if (strcmp(p->field, "frames") == 0)
        printf("the runs' lengths\n");
    else
        printf("the state hash only (the runs are not deterministic)\n");
}

static int xrp_check_main(const char *path, const xrp_file *f, uint32_t threads, int quiet)
{
    xrp_path paths[2 * XPBD_ISA_COUNT], ref;
    const size_t n = xrp_check_paths(paths, sizeof paths / sizeof paths[0], threads);
    char err[512];
    const xpbd_status st = xrp_check(f, f, paths, n, NULL, &ref, err, sizeof err);
    if (st != XPBD_OK) {
        fprintf(stderr, "xpbd-replay: %s: %s\n", path, err);
        return 2;
    }
    if (!quiet)
        printf("%s: %s, %zu particles, %zu edges, %zu tets, %zu bends, %zu inputs, %llu frames; "
               "%zu paths\n",
               path, f->f64 ? "f64" : "f32", f->n, f->edges, f->tets, f->bends, f->inputs,
               (unsigned long long)f->frames, n);
    int bad = 0;
    for (size_t k = 0; k < n; ++k) {
        xrp_print_path(&paths[k]);
        bad |= paths[k].differs;
    }
    if (ref.status < 0) {
        printf("the scalar one-thread replay failed: %s\n", err);
        bad = 1;
    }
    if (ref.state_hash == f->hash) {
        printf("recording %016llx = scalar\n", (unsigned long long)f->hash);
    } else {
        printf("recording %016llx differs from scalar 1 (%016llx): the replay does not "
               "reproduce the recording\n",
               (unsigned long long)f->hash, (unsigned long long)ref.state_hash);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int quiet = 0, check = 0, a = 1;
    uint32_t threads = 0;
    const char *export_dir = NULL;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; ++a) {
        if (strcmp(argv[a], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[a], "--check") == 0) {
            check = 1;
        } else if (strcmp(argv[a], "--export") == 0 && a + 1 < argc && argv[a + 1][0]) {
            export_dir = argv[++a];
        } else if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc) {
            char *end;
            errno = 0;
            const unsigned long t = strtoul(argv[++a], &end, 10);
            if (end == argv[a] || *end || errno || t < 1 || t > 1024 || argv[a][0] == '-') {
                fprintf(stderr, "xpbd-replay: --threads wants a count from 1 to 1024\n");
                return 2;
            }
            threads = (uint32_t)t;
        } else if (strcmp(argv[a], "--help") == 0) {
            xrp_usage(stdout);
            printf("Replays an xpbd replay file (format %u, or %u where it reads unambiguously;\n"
                   "step protocol %u) and checks that the final state is bit for bit the\n"
                   "recorded one. --check replays it on every compiled and supported ISA at 1\n"
                   "thread and N (--threads, default: the default executor's workers when more\n"
                   "than one, else 3) and prints, a path a line, 'isa threads hash = scalar' or\n"
                   "where the run first differs from the scalar one-thread run.\n"
                   "--export DIR replays it writing DIR/frame_NNNN.vtu a frame (particles,\n"
                   "velocity, tets, the bending stencils' triangles), DIR/run.pvd (rewritten\n"
                   "a frame), DIR/rest.obj (rest shape; the stencils' triangles and the tets'\n"
                   "boundary) and DIR/run.pc2 (the starting particles, a sample a frame);\n"
                   "DIR must exist.\n"
                   "Exit status: 0 reproduced (--check: all equal); 1 not reproduced, a path\n"
                   "differs or a step failed; 2 refused (wrong format or protocol version),\n"
                   "unreadable, or bad usage.\n",
                   XRP_FORMAT, XRP_FORMAT_OLDEST, (unsigned)XPBD_PROTOCOL_VERSION);
            return 0;
        } else {
            xrp_usage(stderr);
            return 2;
        }
    }
    if (a < argc && strcmp(argv[a], "-h") == 0) {
        xrp_usage(stdout);
        return 0;
    }
    if (a + 1 != argc || (threads && !check) || (export_dir && check)) {
        xrp_usage(stderr);
        return 2;
    }
    const char *path = argv[a];
    char err[512];
    xrp_file f;
    const xpbd_status st = xrp_load(path, &f, err, sizeof err);
    if (st != XPBD_OK) {
        fprintf(stderr, "xpbd-replay: %s\n", err);
        return 2;
    }
    if (check) {
        const int rc = xrp_check_main(path, &f, threads, quiet);
        xrp_free(&f);
        return rc;
    }
    if (export_dir) {
        uint64_t hash = 0;
        const int rc = f.f64 ? xrp_export_f64(&f, export_dir, &hash, err, sizeof err)
                             : xrp_export_f32(&f, export_dir, &hash, err, sizeof err);
        if (rc >= 2) {
            fprintf(stderr, "xpbd-replay: %s: %s\n", path, err);
        } else {
            if (!quiet)
                printf("%s: exported %llu frames to %s (frame_NNNN.vtu, run.pvd, rest.obj, "
                       "run.pc2)\n",
                       path, (unsigned long long)f.frames, export_dir);
            printf("final state %016llx, recorded %016llx: %s\n", (unsigned long long)hash,
                   (unsigned long long)f.hash,
                   rc == 0 ? "reproduced bit for bit" : "NOT reproduced (the replay diverged)");
        }
        xrp_free(&f);
        return rc == 3 ? 1 : rc;
    }
    const double t0 = xrp_now();
    uint64_t hash = 0;
    xpbd_engine_counters counters;
    xpbd_status rs;
    memset(&counters, 0, sizeof counters);
    if (f.f64) {
        xpbd_engine_f64 *e = NULL;
        rs = xrp_run_f64(&f, &e, err, sizeof err);
        if (e) {
            hash = xrp_state_hash_f64(e);
            counters = *xpbd_engine_counters_f64(e);
        }
        xpbd_engine_destroy_f64(e);
    } else {
        xpbd_engine_f32 *e = NULL;
        rs = xrp_run_f32(&f, &e, err, sizeof err);
        if (e) {
            hash = xrp_state_hash_f32(e);
            counters = *xpbd_engine_counters_f32(e);
        }
        xpbd_engine_destroy_f32(e);
    }
    const double secs = xrp_now() - t0;
    if (rs < 0) {
        fprintf(stderr, "xpbd-replay: %s: %s\n", path, err);
        xrp_free(&f);
        return 1;
    }
    const int same = hash == f.hash;
    if (!quiet) {
        char line[768];
        xpbd_counters_format(&counters, line, sizeof line);
        printf("%s: %s, %zu particles, %zu edges, %zu tets, %zu bends, %zu inputs\n", path,
               f.f64 ? "f64" : "f32", f.n, f.edges, f.tets, f.bends, f.inputs);
        printf("replayed frames %llu..%llu in %.3f s\n", (unsigned long long)f.start_frame,
               (unsigned long long)(f.start_frame + f.frames), secs);
        printf("last frame: %s\n", line);
    }
    printf("final state %016llx, recorded %016llx: %s\n", (unsigned long long)hash,
           (unsigned long long)f.hash,
           same ? "reproduced bit for bit" : "NOT reproduced (the replay diverged)");
    xrp_free(&f);
    return same ? 0 : 1;
}

#endif /* XPBD_REPLAY_MAIN */

#endif /* XRP_BODY */
