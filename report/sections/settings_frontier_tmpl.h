/* SPDX-License-Identifier: MIT */
/* settings_frontier_tmpl.h: the two scenes of settings_frontier in one
 * precision, written in precision.h's dialect (R, SFX): report_settings_
 * frontier.c opens a precision (XPBD_REAL_F32 or XPBD_REAL_F64), includes
 * this file and closes it. The static helpers get the precision suffix
 * (fr_cloth_f32); the library's names are its own with SFX. */

/* The hanging cloth (12 x 8, 10 cm, 1 kg particles, alpha = 1e-4 m/N)
 * over `frames` frames with 5% velocity damping per frame (springs: their
 * damping along the springs only, so they still swing): its total stretch
 * averaged over the last second, or NAN if the run diverged (a step error,
 * or the stretch past 100 m). ms: the median wall time of a frame. */
static double SFX(fr_cloth)(const xr_ctx *ctx, xpbd_solver solver, uint32_t ns, uint32_t it,
                              int frames, double *ms)
{
    SFX(xs_world) w;
    if (SFX(xs_cloth)(&w, FR_NX, FR_NY, (R)0.1, (R)FR_ALPHA, 0, 0) != XPBD_OK) {
        SFX(xs_world_free)(&w);
        return NAN;
    }
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.solver = solver;
    cfg.substeps = ns;
    cfg.iterations = it;
    cfg.measure_residual = 0;
    cfg.damping = solver == XPBD_SOLVER_SPRINGS ? 0 : 1 - pow(1 - FR_DAMP, 1.0 / ns);
    cfg.spring_damping = solver == XPBD_SOLVER_SPRINGS ? FR_SPRING_DAMP : 0;
    int ok = 1;
    double t[FR_MAX_FRAMES], mean = 0;
    for (int fr = 0; fr < frames && ok; ++fr) {
        const double t0 = fr_now();
        ok = SFX(xpbd_step)(&cfg, FR_H, &w.p, &w.set, w.scratch, w.scratch_bytes, NULL) == XPBD_OK;
        t[fr] = fr_now() - t0;
        if (ok && fr >= frames - 60) {
            double s = 0;
            for (uint32_t k = 0; k < w.set.slots; ++k) {
                if (w.set.source[k] == XPBD_PAD)
                    continue;
                const uint32_t a = w.set.i0[k], b = w.set.i1[k];
                const double dx = (double)w.p.x[b] - w.p.x[a],
                             dy = (double)w.p.y[b] - w.p.y[a],
                             dz = (double)w.p.z[b] - w.p.z[a];
                s += sqrt(dx * dx + dy * dy + dz * dz) - w.set.rest[k];
            }
            ok = fabs(s) < 100;
            mean += s / 60;
        }
    }
    *ms = ok ? 1e3 * fr_median(t, frames) : NAN;
    SFX(xs_world_free)(&w);
    return ok && isfinite(mean) ? mean : NAN;
}

/* The pile: FR_BALLS balls dropped into a box of five planes through the
 * engine; the largest pair penetration over the last half (in units of the
 * radius), the largest energy gain max E/E0 - 1 and E/E0 at the end. */
static int SFX(fr_pile)(const xr_ctx *ctx, uint32_t ns, uint32_t it, int frames, double *pen,
                          double *gain, double *e_end, double *ms)
{
    enum { N = FR_BALLS };
    static R xyz[3 * N], w[N], r[N];
    for (int i = 0; i < N; ++i) {
        const int a = i % 6, b = (i / 6) % 6, c = i / 36;
        xyz[3 * i] = (R)(0.05 + 0.08 * a + 0.004 * (c % 2));
        xyz[3 * i + 1] = (R)(0.05 + 0.085 * c);
        xyz[3 * i + 2] = (R)(0.05 + 0.08 * b + 0.004 * ((c + 1) % 2));
        w[i] = 1;
        r[i] = (R)FR_RADIUS;
    }
    const xpbd_plane box[5] = {{{0, 1, 0}, 0},      {{1, 0, 0}, 0}, {{-1, 0, 0}, -0.5},
                               {{0, 0, 1}, 0},      {{0, 0, -1}, -0.5}};
    SFX(xpbd_scene) sc;
    memset(&sc, 0, sizeof sc);
    sc.particles = N;
    sc.xyz = xyz;
    sc.inv_mass = w;
    sc.radius = r;
    sc.planes = 5;
    sc.plane = box;
    sc.max_contacts = 16 * N;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.isa = xr_isa(ctx);
    cfg.substeps = ns;
    cfg.iterations = it;
    cfg.measure_residual = 0;
    cfg.restitution = 0.1;
    cfg.friction_static = 0.4;
    cfg.friction_dynamic = 0.3;
    SFX(xpbd_engine) *e = NULL;
    if (SFX(xpbd_engine_create)(&e, &sc, &cfg, NULL, NULL) != XPBD_OK)
        return 0;
    const SFX(xpbd_particles) *p = SFX(xpbd_engine_particles)(e);
    double e0 = 0;
    for (int i = 0; i < N; ++i)
        e0 += XS_G * p->y[i];
    *pen = 0;
    *gain = 0;
    int ok = 1;
    double t[FR_MAX_FRAMES];
    for (int fr = 1; fr <= frames && ok; ++fr) {
        const double t0 = fr_now();
        ok = SFX(xpbd_engine_step)(e, FR_H) == XPBD_OK;
        t[fr - 1] = fr_now() - t0;
        double en = 0;
        for (int i = 0; i < N; ++i)
            en += XS_G * p->y[i] +
                  0.5 * ((double)p->vx[i] * p->vx[i] + (double)p->vy[i] * p->vy[i] +
                         (double)p->vz[i] * p->vz[i]);
        *gain = fmax(*gain, en / e0 - 1);
        *e_end = en / e0;
        if (fr > frames / 2)
            for (int i = 0; i < N; ++i)
                for (int j = i + 1; j < N; ++j) {
                    const double dx = (double)p->x[j] - p->x[i], dy = (double)p->y[j] - p->y[i],
                                 dz = (double)p->z[j] - p->z[i];
                    const double d2 = dx * dx + dy * dy + dz * dz;
                    if (d2 < 4 * FR_RADIUS * FR_RADIUS)
                        *pen = fmax(*pen, (2 * FR_RADIUS - sqrt(d2)) / FR_RADIUS);
                }
    }
    *ms = 1e3 * fr_median(t, frames);
    SFX(xpbd_engine_destroy)(e);
    return ok;
}

