/* The step driver, template over R: a world of particles, distance
 * constraints and contacts (see xpbd/step.h). */
#include "real_begin.h"
#include "screen_tmpl.h"

/* Scratch layout: the snapshot x y z px py pz vx vy vz [9n] and lambda
 * [slots] (R units), then a 64-byte aligned region holding either the
 * spring forces fx fy fz [3n] or the packed positions q [4n], then the
 * pre-solve velocities v0 [3n] of the contact velocity pass, then the
 * broad-phase workspace (8-byte aligned). */
static size_t SFX(world_state_bytes)(size_t n, size_t slots)
{
    return (16 * n + slots) * sizeof(R) + 64;
}

size_t SFX(xpbd_world_scratch_bytes)(size_t n, size_t slots, size_t max_contacts)
{
    if (n > SIZE_MAX / (32 * sizeof(R)) || slots > SIZE_MAX / (4 * sizeof(R)))
        return SIZE_MAX;
    size_t bytes = SFX(world_state_bytes)(n, slots);
    if (max_contacts) {
        const size_t wb = xpbd_contacts_work_bytes(n, max_contacts);
        if (wb == SIZE_MAX)
            return SIZE_MAX;
        bytes += 8 + wb + n; /* + the broad phase's still mask */
    }
    return bytes;
}

size_t SFX(xpbd_step_scratch_bytes)(size_t n, size_t slots)
{
    return SFX(xpbd_world_scratch_bytes)(n, slots, 0);
}

/* The multipliers of a world's sets, for the snapshot and the final check. */
typedef struct SFX(lambdas) {
    R *lambda[3];
    uint32_t slots[3];
} SFX(lambdas);

static SFX(lambdas) SFX(world_lambdas)(const SFX(xpbd_world) *w)
{
    SFX(lambdas) l;
    memset(&l, 0, sizeof l);
    if (w->constraints) {
        l.lambda[0] = w->constraints->lambda;
        l.slots[0] = w->constraints->slots;
    }
    if (w->tets) {
        l.lambda[1] = w->tets->lambda;
        l.slots[1] = w->tets->slots;
    }
    if (w->bends) {
        l.lambda[2] = w->bends->lambda;
        l.slots[2] = w->bends->slots;
    }
    return l;
}

static void SFX(snapshot)(const P *p, const SFX(lambdas) *l, R *save, int restore)
{
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    const size_t n = p->count;
    for (int k = 0; n && k < 9; ++k) {
        if (restore)
            memcpy(arrays[k], save + (size_t)k * n, n * sizeof(R));
        else
            memcpy(save + (size_t)k * n, arrays[k], n * sizeof(R));
    }
    R *at = save + 9 * n;
    for (int k = 0; k < 3; ++k) {
        if (!l->slots[k])
            continue;
        if (restore)
            memcpy(l->lambda[k], at, l->slots[k] * sizeof(R));
        else
            memcpy(at, l->lambda[k], l->slots[k] * sizeof(R));
        at += l->slots[k];
    }
}

/* Puts particles [b0, b1) back to the snapshot (a sleeping body). */
static void SFX(restore_range)(const P *p, const R *save, size_t b0, size_t b1)
{
    R *const arrays[9] = {p->x, p->y, p->z, p->px, p->py, p->pz, p->vx, p->vy, p->vz};
    const size_t n = p->count;
    for (int k = 0; b1 > b0 && k < 9; ++k)
        memcpy(arrays[k] + b0, save + (size_t)k * n + b0, (b1 - b0) * sizeof(R));
}

/* Sleeping bodies take part in a substep's solve as static particles at
 * their substep-start positions (inverse mass 0 in the packed copy): what
 * touches them gets the whole correction, and they do not move. */
static void SFX(freeze_sleepers)(const SFX(xpbd_world) *w, R *q)
{
    const P *p = w->particles;
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        if (w->body_asleep[b])
            for (size_t i = w->body_begin[b]; i < w->body_begin[b + 1]; ++i) {
                q[4 * i] = p->px[i];
                q[4 * i + 1] = p->py[i];
                q[4 * i + 2] = p->pz[i];
                q[4 * i + 3] = 0;
            }
}

static void SFX(reset_lambdas)(const SFX(lambdas) *l)
{
    for (int k = 0; k < 3; ++k)
        if (l->slots[k])
            memset(l->lambda[k], 0, l->slots[k] * sizeof(R));
}

/* First non-finite element after a step: particle i, or n + slot (slots
 * counted across the sets in the order distance, tetrahedra, bending). */
static size_t SFX(first_nonfinite)(const P *p, const SFX(lambdas) *l)
{
    const size_t n = p->count;
    int fine = SFX(screen_finite)(p->x, n) && SFX(screen_finite)(p->y, n) &&
               SFX(screen_finite)(p->z, n) && SFX(screen_finite)(p->vx, n) &&
               SFX(screen_finite)(p->vy, n) && SFX(screen_finite)(p->vz, n);
    for (int k = 0; k < 3; ++k)
        fine = fine && SFX(screen_finite)(l->lambda[k], l->slots[k]);
    if (fine)
        return SIZE_MAX;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(p->x[i]) || !isfinite(p->y[i]) || !isfinite(p->z[i]) ||
            !isfinite(p->vx[i]) || !isfinite(p->vy[i]) || !isfinite(p->vz[i]))
            return i;
    size_t base = n;
    for (int k = 0; k < 3; ++k) {
        for (uint32_t s = 0; s < l->slots[k]; ++s)
            if (!isfinite(l->lambda[k][s]))
                return base + s;
        base += l->slots[k];
    }
    return SIZE_MAX;
}

static xpbd_status SFX(check_config)(const xpbd_step_config *cfg)
{
    if (cfg->version != XPBD_PROTOCOL_VERSION)
        return XPBD_ERR_VERSION;
    if (cfg->substeps == 0 || cfg->iterations == 0 || !isfinite(cfg->damping) ||
        cfg->damping < 0 || cfg->damping >= 1 || !isfinite(cfg->pbd_stiffness) ||
        !(cfg->pbd_stiffness > 0) || cfg->pbd_stiffness > 1 || !isfinite(cfg->gravity[0]) ||
        !isfinite(cfg->gravity[1]) || !isfinite(cfg->gravity[2]) ||
        !isfinite(cfg->spring_damping) || cfg->spring_damping < 0 ||
        (cfg->solver != XPBD_SOLVER_XPBD && cfg->solver != XPBD_SOLVER_PBD &&
         cfg->solver != XPBD_SOLVER_SPRINGS) ||
        (cfg->lambda_reset != XPBD_LAMBDA_PER_SUBSTEP &&
         cfg->lambda_reset != XPBD_LAMBDA_PER_ITERATION) ||
        (cfg->contact_order != XPBD_CONTACTS_SUBSTEP &&
         cfg->contact_order != XPBD_CONTACTS_LESSON))
        return XPBD_ERR_CONFIG;
    if (!isfinite(cfg->contact_beta) || !(cfg->contact_beta > 0) || cfg->contact_beta > 1)
        return XPBD_ERR_BETA;
    if (!isfinite(cfg->restitution) || cfg->restitution < 0 || cfg->restitution > 1)
        return XPBD_ERR_RESTITUTION;
    if (!isfinite(cfg->contact_slop) || cfg->contact_slop < 0)
        return XPBD_ERR_SLOP;
    if (!isfinite(cfg->friction_static) || !isfinite(cfg->friction_dynamic) ||
        cfg->friction_static < 0 || cfg->friction_dynamic < 0 ||
        cfg->friction_dynamic > cfg->friction_static)
        return XPBD_ERR_FRICTION;
    if (!isfinite(cfg->contact_skin) || cfg->contact_skin < 0 ||
        !isfinite(cfg->relative_damping) || cfg->relative_damping < 0 ||
        cfg->relative_damping > 1)
        return XPBD_ERR_CONFIG;
    return XPBD_OK;
}

typedef struct SFX(contact_run) {
    const SFX(xpbd_contact_kernels) *kt;
    const R *radius;
    const xpbd_contact_set *cs;
    R planes[8][4];
    uint32_t planes_n;
    R beta, mu_s, mu_k, e, slop;
    int weighted;
} SFX(contact_run);

/* impulse (may be NULL) receives the planes' position-level impulses over
 * substep length h: NULL in the lesson order, whose position pass moves
 * particles without touching their velocity. */
static uint64_t SFX(contacts_position)(const SFX(contact_run) *r, R *q, const P *p, R *impulse,
                                       R h)
{
    uint64_t hits = 0;
    const xpbd_contact_set *cs = r->cs;
    if (cs) {
        for (uint32_t col = 0; col < cs->colours; ++col)
            hits += r->kt->position(q, p, r->radius, cs, col, 0,
                                    xpbd_colour_batches(cs->colour_begin, col), r->beta,
                                    r->weighted, r->mu_s, r->mu_k);
        hits += SFX(xpbd_serial_contact_position)(q, p, r->radius, cs, cs->overflow_begin,
                                                  cs->slots, r->beta, r->weighted, r->mu_s,
                                                  r->mu_k);
    }
    for (uint32_t k = 0; k < r->planes_n; ++k) {
        hits += r->kt->plane_position(q, p, r->radius, 0, p->count, r->planes[k], r->beta,
                                      r->mu_s, r->mu_k, impulse, h);
    }
    return hits;
}

static void SFX(save_velocities)(const P *p, R *v0)
{
    const size_t n = p->count;
    if (!n)
        return;
    memcpy(v0, p->vx, n * sizeof(R));
    memcpy(v0 + n, p->vy, n * sizeof(R));
    memcpy(v0 + 2 * n, p->vz, n * sizeof(R));
}

/* The velocity pass: against the pre-solve velocities v0 (x, y, z blocks of
 * n) in the substep order, the plain impulse pass otherwise (the lesson). */
static uint64_t SFX(contacts_velocity)(const SFX(contact_run) *r, const P *p, R *impulse,
                                       const R *v0, R rest_speed)
{
    uint64_t hits = 0;
    const xpbd_contact_set *cs = r->cs;
    if (v0) {
        const size_t n = p->count;
        const R *v0x = v0, *v0y = v0 + n, *v0z = v0 + 2 * n;
        if (cs) {
            for (uint32_t col = 0; col < cs->colours; ++col)
                hits += r->kt->restitution(p, r->radius, cs, v0x, v0y, v0z, col, 0,
                                           xpbd_colour_batches(cs->colour_begin, col), r->e,
                                           r->slop, rest_speed);
            hits += SFX(xpbd_serial_contact_restitution)(p, r->radius, cs, v0x, v0y, v0z,
                                                         cs->overflow_begin, cs->slots, r->e,
                                                         r->slop, rest_speed);
        }
        for (uint32_t k = 0; k < r->planes_n; ++k)
            hits += r->kt->plane_restitution(p, r->radius, v0x, v0y, v0z, 0, n, r->planes[k],
                                             r->e, r->slop, rest_speed, impulse);
        return hits;
    }
    if (cs) {
        for (uint32_t col = 0; col < cs->colours; ++col)
            hits += r->kt->velocity(p, r->radius, cs, col, 0,
                                    xpbd_colour_batches(cs->colour_begin, col), r->e, r->slop);
        hits += SFX(xpbd_serial_contact_velocity)(p, r->radius, cs, cs->overflow_begin, cs->slots,
                                                  r->e, r->slop);
    }
    for (uint32_t k = 0; k < r->planes_n; ++k)
        hits += r->kt->plane_velocity(p, r->radius, 0, p->count, r->planes[k], r->e, r->slop,
                                      impulse);
    return hits;
}

static xpbd_status SFX(check_contacts)(const SFX(xpbd_world) *w, size_t n, uint32_t *stamp,
                                       size_t *bad)
{
    if (w->plane_count > 8)
        return XPBD_ERR_ARGUMENT;
    if (w->plane_count && !w->planes)
        return XPBD_ERR_ARGUMENT;
    if ((w->plane_count || w->contacts) && !w->radius)
        return XPBD_ERR_ARGUMENT;
    for (uint32_t k = 0; k < w->plane_count; ++k) {
        const double *nn = w->planes[k].n;
        const double len2 = nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2];
        if (!isfinite(len2) || fabs(len2 - 1) > 2e-6 || !isfinite(w->planes[k].d)) {
            *bad = k;
            return XPBD_ERR_PLANE;
        }
    }
    if (w->radius)
        for (size_t i = 0; i < n; ++i)
            if (!isfinite(w->radius[i]) || w->radius[i] < 0) {
                *bad = i;
                return XPBD_ERR_RADIUS;
            }
    const xpbd_contact_set *cs = w->contacts;
    if (cs) {
        if (!cs->i0 || !cs->i1 || cs->slots > cs->capacity || cs->colours > XPBD_MAX_COLOURS)
            return XPBD_ERR_ARGUMENT;
        if (w->contacts_fixed)
            return xpbd_contact_set_validate(cs, n, stamp, bad);
    }
    return XPBD_OK;
}

/* One iteration over the soft-body parts of a world on q: tetrahedra,
 * bending (colours, then the serial overflow), tethers. Returns the
 * skipped count; adds the projections to *solves. */
static uint64_t SFX(soft_iteration)(const SFX(xpbd_world) *w,
                                    const SFX(xpbd_softbody_kernels) *skt, R *q, R hs,
                                    uint64_t *solves)
{
    uint64_t skipped = 0;
    const QS *t = w->tets, *b = w->bends;
    if (t) {
        for (uint32_t col = 0; col < t->colours; ++col)
            skipped += skt->tet_volume(q, t, col, 0, xpbd_colour_batches(t->colour_begin, col), hs);
        skipped += SFX(xpbd_serial_tet_volume)(q, t, t->overflow_begin, t->slots, hs);
        *solves += t->count;
    }
    if (b) {
        for (uint32_t col = 0; col < b->colours; ++col)
            skipped += skt->bending(q, b, col, 0, xpbd_colour_batches(b->colour_begin, col), hs);
        skipped += SFX(xpbd_serial_bending)(q, b, b->overflow_begin, b->slots, hs);
        *solves += b->count;
    }
    if (w->tether_anchor)
        (void)skt->tethers(q, w->tether_anchor, w->tether_length, 0, w->particles->count);
    return skipped;
}

/* Couples the particles with rigid body b on q for one iteration and adds
 * the impulse to the world's rigid_impulse[b]. Returns the contacts. */
static uint32_t SFX(couple_accumulate)(const SFX(xpbd_world) *w, uint32_t b, R *q, R hs)
{
    xpbd_rigid_impulse j;
    if (SFX(xpbd_couple_rigid)(q, w->particles, w->radius, 0, w->particles->count, &w->rigids[b],
                               (double)hs, &j) != XPBD_OK)
        return 0; /* validated at step start: cannot happen */
    xpbd_rigid_impulse *acc = &w->rigid_impulse[b];
    for (int a = 0; a < 3; ++a) {
        acc->linear[a] += j.linear[a];
        acc->angular[a] += j.angular[a];
    }
    acc->contacts += j.contacts;
    return j.contacts;
}

static xpbd_status SFX(world_checked)(const xpbd_step_config *cfg, double h, SFX(xpbd_world) *w,
                                      void *scratch, size_t scratch_bytes,
                                      xpbd_step_counters *k)
{
    if (!cfg || !w || !w->particles)
        return XPBD_ERR_ARGUMENT;
    P *p = w->particles;
    DS *c = w->constraints;
    xpbd_status st = SFX(check_config)(cfg);
    if (st != XPBD_OK)
        return st;
    const R hs = (R)(h / cfg->substeps);
    if (!isfinite(h) || !(h > 0) || !isfinite(hs) || !(hs > 0) || !isfinite(1 / (hs * hs)))
        return XPBD_ERR_TIMESTEP;
    const int lesson = cfg->contact_order == XPBD_CONTACTS_LESSON;
    if (lesson && (c || w->tets || w->bends || w->tether_anchor || cfg->solver != XPBD_SOLVER_XPBD))
        return XPBD_ERR_CONFIG;
    xpbd_isa isa;
    if (xpbd_isa_resolve(cfg->isa, &isa) != XPBD_OK)
        return XPBD_ERR_ISA;
    k->isa = isa;
    const SFX(xpbd_kernels) *kt = SFXM(xpbd_kernels, get)(isa);
    const SFX(xpbd_contact_kernels) *ckt = SFXM(xpbd_contact_kernels, get)(isa);
    if (!kt || !ckt)
        return XPBD_ERR_ISA;
    const size_t n = p->count;
    const uint32_t slots = c ? c->slots : 0;
    const size_t all_slots = (size_t)slots + (w->tets ? w->tets->slots : 0) +
                             (w->bends ? w->bends->slots : 0);
    const int find = w->radius && w->contacts && !w->contacts_fixed;
    const size_t max_contacts = find ? w->contacts->max_contacts : 0;
    const size_t need = SFX(xpbd_world_scratch_bytes)(n, all_slots, max_contacts);
    if (!scratch || need == SIZE_MAX || scratch_bytes < need)
        return XPBD_ERR_CAPACITY;
    if ((uintptr_t)scratch % _Alignof(R) != 0)
        return XPBD_ERR_ARGUMENT;
    st = SFXM(xpbd_particles, validate)(p, &k->bad_index);
    if (st != XPBD_OK)
        return st;
    /* the set validators' repeat check stamps particles: the scratch is not
     * in use yet and holds at least 16n reals */
    uint32_t *stamp = scratch;
    if (c) {
        st = SFXM(xpbd_distance_set, validate)(c, n, stamp, &k->bad_index);
        if (st != XPBD_OK)
            return st;
        if (cfg->solver == XPBD_SOLVER_SPRINGS)
            for (uint32_t s = 0; s < slots; ++s)
                if (c->source[s] != XPBD_PAD && !(c->compliance[s] > 0)) {
                    k->bad_index = s;
                    return XPBD_ERR_COMPLIANCE;
                }
        k->colours = c->colours;
        k->overflow = c->slots - c->overflow_begin;
    }
    st = SFX(check_contacts)(w, n, stamp, &k->bad_index);
    if (st != XPBD_OK)
        return st;
    if (w->tets &&
        (st = SFXM(xpbd_quad_set, validate)(w->tets, n, stamp, &k->bad_index)) != XPBD_OK)
        return st;
    if (w->bends &&
        (st = SFXM(xpbd_quad_set, validate)(w->bends, n, stamp, &k->bad_index)) != XPBD_OK)
        return st;
    if (w->tether_anchor) {
        if (!w->tether_length)
            return XPBD_ERR_ARGUMENT;
        for (size_t i = 0; i < n; ++i) {
            if (w->tether_anchor[i] >= n) {
                k->bad_index = i;
                return XPBD_ERR_INDEX;
            }
            if (!isfinite(w->tether_length[i]) || w->tether_length[i] < 0) {
                k->bad_index = i;
                return XPBD_ERR_REST;
            }
        }
    }
    if (w->rigid_count) {
        if (!w->rigids || !w->rigid_impulse || !w->radius)
            return XPBD_ERR_ARGUMENT;
        for (uint32_t b = 0; b < w->rigid_count; ++b)
            if (!xpbd__rigid_ok(&w->rigids[b])) {
                k->bad_index = b;
                return XPBD_ERR_CONFIG;
            }
    }
    if (w->body_count) {
        if (!w->body_begin)
            return XPBD_ERR_ARGUMENT;
        for (uint32_t b = 0; b < w->body_count; ++b)
            if (w->body_begin[b] > w->body_begin[b + 1] || w->body_begin[b + 1] > n)
                return XPBD_ERR_CONFIG;
    }

    R *save = scratch;
    R *fx = save + 9 * n + all_slots, *fy = fx + n, *fz = fy + n;
    R *q = (R *)(void *)(((uintptr_t)fx + 63) & ~(uintptr_t)63);
    R *v0 = q + 4 * n;
    char *bp_work = (char *)scratch + SFX(world_state_bytes)(n, all_slots);
    bp_work = (char *)(((uintptr_t)bp_work + 7) & ~(uintptr_t)7);

    /* contacts at step start: found from the positions now (world space) */
    xpbd_status result = XPBD_OK;
    if (find) {
        /* sleeping bodies' particles are still: no pairs among them */
        const size_t wb = xpbd_contacts_work_bytes(n, max_contacts);
        uint8_t *still = NULL;
        for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
            if (w->body_asleep[b]) {
                if (!still) {
                    still = (uint8_t *)bp_work + wb;
                    memset(still, 0, n);
                }
                memset(still + w->body_begin[b], 1, w->body_begin[b + 1] - w->body_begin[b]);
            }
        const xpbd_broadphase bp = {0, cfg->contact_skin, 0, still};
        st = SFX(xpbd_contacts_find)(p, w->radius, &bp, bp_work,
                                     xpbd_contacts_work_bytes(n, max_contacts), w->contacts,
                                     &k->bad_index);
        if (st < 0)
            return st;
        result = st;
        k->contacts_dropped = w->contacts->dropped;
    }
    SFX(contact_run) cr;
    memset(&cr, 0, sizeof cr);
    cr.kt = ckt;
    cr.radius = w->radius;
    cr.cs = w->radius ? w->contacts : NULL;
    cr.planes_n = w->radius ? w->plane_count : 0;
    for (uint32_t i = 0; i < cr.planes_n; ++i) {
        for (int j = 0; j < 3; ++j)
            cr.planes[i][j] = (R)w->planes[i].n[j];
        cr.planes[i][3] = (R)w->planes[i].d;
    }
    cr.beta = (R)cfg->contact_beta;
    cr.mu_s = (R)cfg->friction_static;
    cr.mu_k = (R)cfg->friction_dynamic;
    cr.e = (R)cfg->restitution;
    cr.slop = (R)cfg->contact_slop;
    cr.weighted = cfg->contact_weighted != 0;
    const int contacts = cr.cs || cr.planes_n;
    k->contacts = cr.cs ? cr.cs->count : 0;
    R *impulse = w->plane_impulse;
    if (impulse && n)
        memset(impulse, 0, n * sizeof(R));
    if (w->rigid_count)
        memset(w->rigid_impulse, 0, w->rigid_count * sizeof *w->rigid_impulse);

    const SFX(lambdas) lam = SFX(world_lambdas)(w);
    const SFX(xpbd_softbody_kernels) *skt = SFXM(xpbd_softbody_kernels, get)(isa);
    if (!skt)
        return XPBD_ERR_ISA;
    const int soft = w->tets || w->bends || w->tether_anchor;
    SFX(snapshot)(p, &lam, save, 0);
    const R gx = (R)cfg->gravity[0], gy = (R)cfg->gravity[1], gz = (R)cfg->gravity[2];
    const R keep = (R)(1.0 - cfg->damping);
    const R ks = (R)cfg->pbd_stiffness, sd = (R)cfg->spring_damping;
    /* contacts approaching slower than gravity can make in two substeps are
     * resting: they do not bounce */
    const R rest_speed = (R)(2 * sqrt(cfg->gravity[0] * cfg->gravity[0] +
                                      cfg->gravity[1] * cfg->gravity[1] +
                                      cfg->gravity[2] * cfg->gravity[2]) *
                             (double)hs);
    const uint32_t real = c ? c->count : 0;
    const int solve = c || contacts || soft || w->rigid_count;
    for (uint32_t sub = 0; sub < cfg->substeps; ++sub) {
        SFX(reset_lambdas)(&lam);
        if (lesson) {
            /* SPEC S2 stepWorld */
            ckt->gravity(p, 0, n, gx * hs, gy * hs, gz * hs);
            for (uint32_t it = 0; cfg->contact_velocity_pass && it < cfg->iterations; ++it)
                k->contact_hits += SFX(contacts_velocity)(&cr, p, impulse, NULL, 0);
            ckt->integrate(p, 0, n, hs);
            kt->pack(p, q, 0, n);
            for (uint32_t it = 0; it < cfg->iterations; ++it) {
                k->contact_hits += SFX(contacts_position)(&cr, q, p, NULL, hs);
                k->iterations++;
            }
            kt->unpack(q, p, 0, n);
        } else if (cfg->solver == XPBD_SOLVER_SPRINGS) {
            if (sub == 0 && n)
                memset(fx, 0, 3 * n * sizeof(R));
            if (c) {
                for (uint32_t col = 0; col < c->colours; ++col)
                    k->skipped += kt->spring_forces(p, c, fx, fy, fz, col, 0,
                                                    xpbd_colour_batches(c->colour_begin, col), sd);
                k->skipped += SFX(xpbd_serial_spring_forces)(p, c, fx, fy, fz, c->overflow_begin,
                                                             slots, sd);
                k->solves += real;
            }
            kt->spring_integrate(p, fx, fy, fz, 0, n, hs, gx, gy, gz);
            if (contacts) {
                if (cfg->contact_velocity_pass)
                    SFX(save_velocities)(p, v0);
                kt->pack(p, q, 0, n);
                k->contact_hits += SFX(contacts_position)(&cr, q, p, impulse, hs);
                kt->unpack(q, p, 0, n);
                kt->update_velocity(p, 0, n, hs, 1);
                if (cfg->contact_velocity_pass)
                    k->contact_hits +=
                        SFX(contacts_velocity)(&cr, p, impulse, v0, rest_speed);
            }
        } else {
            if (solve) {
                kt->predict_pack(p, q, 0, n, hs, gx, gy, gz);
                SFX(freeze_sleepers)(w, q);
            } else {
                kt->predict(p, 0, n, hs, gx, gy, gz);
            }
            if (contacts && cfg->contact_velocity_pass)
                SFX(save_velocities)(p, v0);
            for (uint32_t it = 0; solve && it < cfg->iterations; ++it) {
                if (it > 0 && cfg->lambda_reset == XPBD_LAMBDA_PER_ITERATION)
                    SFX(reset_lambdas)(&lam);
                if (c) {
                    for (uint32_t col = 0; col < c->colours; ++col) {
                        const uint32_t nb = xpbd_colour_batches(c->colour_begin, col);
                        k->skipped += cfg->solver == XPBD_SOLVER_XPBD
                                          ? kt->distance_xpbd_packed(q, c, col, 0, nb, hs)
                                          : kt->distance_pbd_packed(q, c, col, 0, nb, ks);
                    }
                    k->skipped +=
                        cfg->solver == XPBD_SOLVER_XPBD
                            ? SFXM(xpbd_serial_distance_xpbd, packed)(q, c, c->overflow_begin,
                                                                      slots, hs)
                            : SFXM(xpbd_serial_distance_pbd, packed)(q, c, c->overflow_begin,
                                                                     slots, ks);
                    k->solves += real;
                }
                if (soft)
                    k->skipped += SFX(soft_iteration)(w, skt, q, hs, &k->solves);
                if (contacts)
                    k->contact_hits += SFX(contacts_position)(&cr, q, p, impulse, hs);
                for (uint32_t b = 0; b < w->rigid_count; ++b)
                    k->contact_hits += SFX(couple_accumulate)(w, b, q, hs);
                k->iterations++;
            }
            if (solve)
                kt->unpack_velocity(q, p, 0, n, hs, keep);
            else
                kt->update_velocity(p, 0, n, hs, keep);
            if (contacts && cfg->contact_velocity_pass)
                k->contact_hits += SFX(contacts_velocity)(&cr, p, impulse, v0, rest_speed);
            if (cfg->relative_damping > 0)
                for (uint32_t b = 0; b < w->body_count; ++b)
                    if (!(w->body_asleep && w->body_asleep[b]))
                        (void)SFX(xpbd_damp_relative)(p, w->body_begin[b], w->body_begin[b + 1],
                                                      cfg->relative_damping);
        }
        k->substeps++;
    }

    /* sleeping bodies end the step as they began it: whole, never half */
    for (uint32_t b = 0; w->body_asleep && b < w->body_count; ++b)
        if (w->body_asleep[b])
            SFX(restore_range)(p, save, w->body_begin[b], w->body_begin[b + 1]);

    const size_t bad = SFX(first_nonfinite)(p, &lam);
    if (bad != SIZE_MAX) {
        SFX(snapshot)(p, &lam, save, 1);
        if (impulse && n)
            memset(impulse, 0, n * sizeof(R));
        if (w->rigid_count)
            memset(w->rigid_impulse, 0, w->rigid_count * sizeof *w->rigid_impulse);
        k->bad_index = bad;
        return XPBD_ERR_DIVERGED;
    }
    if (c && cfg->measure_residual) {
        R m = 0;
        for (uint32_t col = 0; col < c->colours; ++col) {
            const R r = kt->residual(p, c, col, 0, xpbd_colour_batches(c->colour_begin, col), hs,
                                     NULL);
            if (r > m)
                m = r;
        }
        const R r = SFX(xpbd_serial_residual)(p, c, c->overflow_begin, slots, hs, NULL);
        k->max_residual = r > m ? r : m;
    }
    return result;
}

xpbd_status SFX(xpbd_world_step)(const xpbd_step_config *cfg, double h, SFX(xpbd_world) *w,
                                 void *scratch, size_t scratch_bytes,
                                 xpbd_step_counters *counters)
{
    xpbd_step_counters k;
    memset(&k, 0, sizeof k);
    k.protocol = XPBD_PROTOCOL_VERSION;
    k.isa = XPBD_ISA_AUTO;
    k.bad_index = SIZE_MAX;
    const xpbd_status st = SFX(world_checked)(cfg, h, w, scratch, scratch_bytes, &k);
    k.status = st;
    if (counters)
        *counters = k;
    return st;
}

xpbd_status SFX(xpbd_step)(const xpbd_step_config *cfg, double h, P *p, DS *c, void *scratch,
                           size_t scratch_bytes, xpbd_step_counters *counters)
{
    SFX(xpbd_world) w;
    memset(&w, 0, sizeof w);
    w.particles = p;
    w.constraints = c;
    return SFX(xpbd_world_step)(cfg, h, &w, scratch, scratch_bytes, counters);
}

#include "real_end.h"
