/* SPDX-License-Identifier: MIT */
/* Replays per precision (replay.c), template over R: recording an engine,
 * building one from a replay and stepping its frames. The file itself is
 * held in double whatever the engine's precision. */
#include "precision.h"

#define ENG SFX(xpbd_engine)
#define SCENE SFX(xpbd_scene)
#define PARTICLES(e) SFX(xpbd_engine_particles)(e)
#define FRAME(e) SFX(xpbd_engine_counters)(e)->frame

static uint64_t SFX(rp_state_hash)(const ENG *e)
{
    const SFX(xpbd_particles) *p = PARTICLES(e);
    const R *const a[10] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz, p->w};
    uint64_t h = XPBD__FNV_BASIS;
    for (int k = 0; k < 10; ++k)
        h = xpbd__fnv1a(h, a[k], p->count * sizeof(R));
    return h;
}

/* The engine's state, configuration and options into *out (the engine's
 * own view of its scene, with the particle arrays). */
static xpbd_status SFX(rp_record_begin)(xpbd_replay_file *out, const ENG *e, double h)
{
    if (!out)
        return XPBD_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!e)
        return XPBD_ERR_ARGUMENT;
    SCENE s;
    SFX(xpbd_engine_scene)(e, &s);
    const SFX(xpbd_particles) *p = PARTICLES(e);
    xpbd_replay_file *f = out;
    f->f64 = R_F64;
    f->format = XPBD_REPLAY_FORMAT;
    f->protocol = XPBD_PROTOCOL_VERSION;
    f->h = h;
    f->start_frame = s.frame;
    f->config = *SFX(xpbd_engine_config)(e);
    f->config.executor = NULL;
    f->options = *SFX(xpbd_engine_options)(e);
    f->options.executor = NULL;
    f->colouring = s.colouring;
    f->n = s.particles;
    f->edges = s.edges;
    f->tets = s.tets;
    f->bends = s.bends;
    f->bodies = s.bodies;
    f->planes = s.planes;
    f->max_contacts = s.max_contacts;
    f->has_radius = s.radius != NULL;
    f->has_tethers = s.tether_anchor != NULL;
    if (!rp_alloc_arrays(f))
        return rp_nomem(f);
    const size_t n = f->n;
    for (size_t i = 0; i < n; ++i) {
        double *q = f->particle + 13 * i;
        const R v[10] = {p->x[i],  p->y[i],  p->z[i],  p->px[i], p->py[i],
                         p->pz[i], p->vx[i], p->vy[i], p->vz[i], p->w[i]};
        for (int k = 0; k < 10; ++k)
            q[k] = (double)v[k];
        for (int k = 0; k < 3; ++k)
            q[10 + k] = (double)s.rest_xyz[3 * i + (size_t)k];
        f->origin[i] = s.origin ? s.origin[i] : (uint32_t)i;
        if (f->has_radius)
            f->radius[i] = (double)s.radius[i];
        if (f->has_tethers) {
            f->tether_anchor[i] = s.tether_anchor[i];
            f->tether_length[i] = (double)s.tether_length[i];
        }
    }
    if (f->edges)
        memcpy(f->edge, s.edge, 2 * f->edges * sizeof *f->edge);
    for (size_t k = 0; k < f->edges; ++k) {
        f->edge_rest[k] = (double)s.edge_rest[k];
        f->edge_compliance[k] = (double)s.edge_compliance[k];
    }
    if (f->tets)
        memcpy(f->tet, s.tet, 4 * f->tets * sizeof *f->tet);
    for (size_t k = 0; k < f->tets; ++k)
        f->tet_compliance[k] = (double)s.tet_compliance[k];
    if (f->bends)
        memcpy(f->bend, s.bend, 4 * f->bends * sizeof *f->bend);
    for (size_t k = 0; k < f->bends; ++k)
        f->bend_compliance[k] = (double)s.bend_compliance[k];
    f->body_begin[0] = f->bodies ? s.body_begin[0] : 0;
    for (uint32_t b = 0; b < f->bodies; ++b) {
        f->body_begin[b + 1] = s.body_begin[b + 1];
        f->asleep[b] = s.asleep[b] ? 1 : 0;
        f->calm[b] = s.calm[b];
        f->signature[b] = s.signature[b];
    }
    for (uint32_t k = 0; k < f->planes; ++k)
        f->plane[k] = s.plane[k];
    return XPBD_OK;
}

static xpbd_status SFX(rp_record_apply)(xpbd_replay_file *r, ENG *e, const xpbd_input *in)
{
    if (!e || !in || (r && r->f64 != R_F64))
        return XPBD_ERR_ARGUMENT;
    /* room first: an input applied must be logged, or the replay diverges */
    if (r && !rp_grow_inputs(r))
        return XPBD_ERR_NOMEM;
    const xpbd_status st = SFX(xpbd_engine_apply)(e, in);
    if (st == XPBD_OK && r) {
        r->input_frame[r->inputs] = FRAME(e);
        r->input[r->inputs] = *in;
        r->inputs++;
    }
    return st;
}

static xpbd_status SFX(rp_record_end)(xpbd_replay_file *r, const ENG *e)
{
    if (!r || !e || r->f64 != R_F64)
        return XPBD_ERR_ARGUMENT;
    const uint64_t now = FRAME(e);
    if (now < r->start_frame || now - r->start_frame > XPBD_REPLAY_MAX_FRAMES)
        return XPBD_ERR_ARGUMENT;
    r->frames = now - r->start_frame;
    r->hash = SFX(rp_state_hash)(e);
    return XPBD_OK;
}

/* The engine the file describes: its scene, with the saved state
 * (substep-start positions, velocities, sleep bookkeeping, frame count). */
static xpbd_status SFX(rp_create)(const xpbd_replay_file *fl, ENG **e, xpbd_replay_error *err)
{
    rp_ok(err);
    if (!e)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no engine pointer");
    *e = NULL;
    if (!fl)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no replay");
    if (fl->f64 != R_F64)
        return rp_fail(err, XPBD_ERR_ARGUMENT,
                       "the replay holds a %s run; build it with the %s engine",
                       fl->f64 ? "f64" : "f32", fl->f64 ? "f64" : "f32");
    const xpbd_status chk = rp_check(fl, err);
    if (chk != XPBD_OK)
        return chk;
    const size_t n = fl->n;
    /* xyz prev rest vel [3n each] | w radius tether_length [n each] | edge
     * rest, edge compliance [edges each] | tet compliance | bend compliance */
    R *buf = malloc((15 * n + 2 * fl->edges + fl->tets + fl->bends + 1) * sizeof *buf);
    if (!buf)
        return rp_fail(err, XPBD_ERR_NOMEM, "out of memory");
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
        .bodies = fl->bodies, .body_begin = fl->bodies ? fl->body_begin : NULL,
        .asleep = fl->bodies ? fl->asleep : NULL, .calm = fl->bodies ? fl->calm : NULL,
        .signature = fl->bodies ? fl->signature : NULL, .planes = fl->planes,
        .plane = fl->plane, .max_contacts = fl->max_contacts, .colouring = fl->colouring,
        .frame = fl->start_frame};
    xpbd_where where;
    const xpbd_status st = SFX(xpbd_engine_create)(e, &sc, &fl->config, &fl->options, &where);
    free(buf);
    if (st != XPBD_OK)
        return rp_refused(err, st, &where);
    return XPBD_OK;
}

/* The first input logged before engine frame `frame` (inputs are in frame
 * order): inputs when there is none. */
static size_t SFX(rp_first_input)(const xpbd_replay_file *fl, uint64_t frame)
{
    size_t lo = 0, hi = fl->inputs;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (fl->input_frame[mid] < frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static xpbd_status SFX(rp_frame)(const xpbd_replay_file *fl, ENG *e, xpbd_replay_error *err)
{
    rp_ok(err);
    if (!fl || !e)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no replay or no engine");
    const uint64_t frame = FRAME(e);
    for (size_t k = SFX(rp_first_input)(fl, frame); k < fl->inputs && fl->input_frame[k] == frame;
         ++k) {
        const xpbd_status st = SFX(xpbd_engine_apply)(e, &fl->input[k]);
        if (st != XPBD_OK) {
            rp_fail(err, st, "input %zu (frame %llu) refused: %s", k, (unsigned long long)frame,
                    xpbd_status_str(st));
            if (err) {
                err->frame = frame;
                err->input = k;
            }
            return st;
        }
    }
    const xpbd_status st = SFX(xpbd_engine_step)(e, fl->h);
    if (st < 0) {
        rp_fail(err, st, "frame %llu failed: %s", (unsigned long long)frame, xpbd_status_str(st));
        if (err)
            err->frame = frame;
    }
    return st;
}

static xpbd_status SFX(rp_run)(const xpbd_replay_file *fl, ENG **out, xpbd_replay_error *err)
{
    xpbd_status st = SFX(rp_create)(fl, out, err);
    if (st != XPBD_OK)
        return st;
    xpbd_status result = XPBD_OK;
    for (uint64_t f = 0; f < fl->frames; ++f) {
        st = SFX(rp_frame)(fl, *out, err);
        if (st < 0)
            return st;
        if (st != XPBD_OK)
            result = st;
    }
    rp_ok(err);
    return result;
}

#undef ENG
#undef SCENE
#undef PARTICLES
#undef FRAME

#define XPBD_PRECISION_END
#include "precision.h"
