/* SPDX-License-Identifier: MIT */
/* Section s3_rigid_coupling (S3, soft bodies): a soft cube against a free
 * rigid box: the two momenta over the collision, light against heavy. */
#include "report.h"
#include "shared/s3_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A soft cube (2.7 kg, radii 0.02 m) at 2 m/s (+x, no gravity) against a
 * free box of box_mass at rest; writes t, p_soft, p_box, p_total (x) per
 * frame into rows[frames + 1][4]. */
static int s3_collide(const xr_ctx *ctx, double box_mass, int frames, double (*rows)[5],
                      double *v_soft, double *v_box, double *worst, double *worst_j,
                      double *sum_j)
{
    xs_cube_desc d = s3_cube_default(ctx);
    d.n = 2;
    d.alpha_e = 1e-4;
    d.origin[0] = -0.5;
    d.origin[1] = 4.9;
    d.origin[2] = -0.1;
    d.ground = 1;
    d.radius = 0.02;
    d.cfg.gravity[1] = 0;
    xs_cube c;
    if (!xs_cube_make(&c, &d)) {
        xs_cube_free(&c);
        return 0;
    }
    const xpbd_particles_f64 *p = xpbd_engine_particles_f64(c.e);
    for (size_t i = 0; i < p->count; ++i) {
        const xpbd_input v = {XPBD_INPUT_SET_VELOCITY, (uint32_t)i, (uint32_t)i + 1,
                              {2, p->vy[i], p->vz[i]}};
        (void)xpbd_engine_apply_f64(c.e, &v);
    }
    xs_box_body b;
    xs_box_body_init(&b, box_mass, (const double[3]){0.25, 5.0, 0}, 0.15);
    double p0[3];
    xs_com(p, 0, p->count, NULL, p0);
    *worst = 0;
    *worst_j = 0;
    *sum_j = 0;
    int ok = 1;
    uint32_t contacts = 0;
    for (int fr = 0; fr <= frames && ok; ++fr) {
        double mom[3];
        const double m = xs_com(p, 0, p->count, NULL, mom);
        rows[fr][0] = fr * S3_H;
        rows[fr][1] = mom[0];
        rows[fr][2] = box_mass * b.v[0];
        rows[fr][3] = mom[0] + box_mass * b.v[0];
        rows[fr][4] = contacts;
        *worst = fmax(*worst, fabs(rows[fr][3] - p0[0]));
        *v_soft = mom[0] / m;
        *v_box = b.v[0];
        if (fr == frames)
            break;
        /* the frame of xs_couple_frame, with the soft body's momentum read
         * around the coupling call: the impulse the call returns must be
         * minus the momentum it gave the particles, j = -sum m dv, which
         * does not involve the host applying j to the box */
        ok = xpbd_engine_step_f64(c.e, S3_H) >= 0;
        double before[3], after[3];
        xs_com(p, 0, p->count, NULL, before);
        xpbd_rigid_impulse j;
        ok = ok && xpbd_engine_couple_rigid_f64(c.e, &b.rb, S3_H, &j) == XPBD_OK;
        if (!ok)
            break;
        xs_com(p, 0, p->count, NULL, after);
        contacts = j.contacts;
        for (int k = 0; k < 3; ++k) {
            *worst_j = fmax(*worst_j, fabs((after[k] - before[k]) + j.linear[k]));
            b.v[k] += b.rb.inv_mass * j.linear[k];
            b.w[k] += b.rb.inv_inertia[4 * k] * j.angular[k];
            b.rb.centre[k] += b.v[k] * S3_H;
        }
        *sum_j += fabs(j.linear[0]);
    }
    xs_cube_free(&c);
    return ok;
}

static int s3_rigid_coupling_run(xr_ctx *ctx)
{
    enum { FR = 90 };
    static double a[FR + 1][5], b[FR + 1][5];
    double vs_a, vb_a, wa, vs_b, vb_b, wb, ja, jb, sa, sb;
    if (!s3_collide(ctx, 5, FR, a, &vs_a, &vb_a, &wa, &ja, &sa) ||
        !s3_collide(ctx, 1000, FR, b, &vs_b, &vb_b, &wb, &jb, &sb))
        return -1;
    FILE *f = xr_table_open(ctx, "s3_rigid_coupling",
                            "t\tsoft_5kg\tbox_5kg\ttotal_5kg\tsoft_1000kg\tbox_1000kg\ttotal_1000kg"
                            "\tcontacts_5kg\tcontacts_1000kg");
    if (!f)
        return -1;
    for (int fr = 0; fr <= FR; ++fr) {
        const double row[9] = {a[fr][0], a[fr][1], a[fr][2], a[fr][3], b[fr][1],
                               b[fr][2], b[fr][3], a[fr][4], b[fr][4]};
        xr_row(f, 9, row);
    }
    xr_table_close(f);
    const double bound = 2 * 2.7 * 2 / (2.7 + 1000);
    xr_md(ctx,
          "A 2 x 2 x 2-cell tet cube (27 particles, 2.7 kg, radii 0.02 m, edge compliance "
          "1e-4 m/N) at 2 m/s against a free rigid box (0.3 m, at rest, no gravity), coupled "
          "after every frame by `xpbd_engine_couple_rigid_f64` (each penetrating particle moved "
          "out by its share w/(w + w_box), its velocity given dx/h, the impulse j = dx/((w + "
          "w_box) h) returned and applied to the box by the host).\n\n"
          "| box | soft p before -> after (N s) | box p after (N s) | max \\|p_total - p0\\| (N s) "
          "| soft v after (m/s) | box v after (m/s) |\n|---|---|---|---|---|---|\n"
          "| 5 kg | %.4f -> %.4f | %.4f | %.2g | %.4f | %.4f |\n"
          "| 1000 kg | %.4f -> %.4f | %.4f | %.2g | %.4f | %.5f (elastic bound %.5f) |\n\n",
          a[0][1], a[FR][1], a[FR][2], wa, vs_a, vb_a, b[0][1], b[FR][1], b[FR][2], wb, vs_b, vb_b,
          bound);
    xr_md(ctx,
          "The impulse itself: around every coupling call the soft body's momentum changes by "
          "exactly minus the impulse the call returns (j = sum m dv over the pushed particles; "
          "worst mismatch %.2g N s against %.3g N s of impulse in all with the 5 kg box, %.2g "
          "against %.3g with the 1000 kg box). The total momentum then stays constant because "
          "the host applies that same j to the box (%.2g and %.2g N s at most).\n\n",
          ja, sa, jb, sb, wa, wb);
    xr_tolerance_source(ctx, "closed form: j = -sum m dv, f64 rounding of momenta ~3 N s: "
                             "1e-12 N s");
    xr_check(ctx, "5 kg box: |dp_soft + j| around each coupling call, max (N s)", ja, 0,
             xr_abs(1e-12), NULL);
    xr_check(ctx, "1000 kg box: |dp_soft + j| around each coupling call, max (N s)", jb, 0,
             xr_abs(1e-12), NULL);
    /* momentum is conserved (checked above through j); the box ends no
     * faster than an elastic collision leaves it (the coupling makes no
     * energy) and no slower than a perfectly inelastic one (the cube does
     * not pass through it: v_soft <= v_box), so with m v = m v_s + M v_b:
     *     m v/(m + M) <= v_box <= 2 m v/(m + M) */
    xr_tolerance_source(ctx, "closed form: momentum m v = m v_s + M v_b with v_s <= v_b "
                             "(no pass-through: m v/(m + M)) and no energy made (elastic: "
                             "2 m v/(m + M)), m = 2.7 kg, v = 2 m/s");
    xr_check(ctx, "5 kg box: v_box between the inelastic and the elastic bound (m/s)", vb_a,
             2.7 * 2 / (2.7 + 5), xr_bracket(2.7 * 2 / (2.7 + 5), 2 * 2.7 * 2 / (2.7 + 5)), NULL);
    xr_check(ctx, "1000 kg box: v_box between the inelastic and the elastic bound (m/s)", vb_b,
             2.7 * 2 / (2.7 + 1000), xr_bracket(2.7 * 2 / (2.7 + 1000), bound), NULL);
    char cap[1600];
    snprintf(cap, sizeof cap,
             "Soft bodies (S3), two-way coupling: momentum (x) of a 2.7 kg soft cube at 2 m/s and of a "
             "free rigid box over the collision. 5 kg box: the soft body gives %.3f N s, the box "
             "takes it (total constant to %.1g N s). 1000 kg box: the box reaches %.4f m/s "
             "(elastic bound %.4f) and the soft cube bounces back at %.2f m/s: momentum changes "
             "equal and opposite, and the light body does not push the heavy one as if it were "
             "heavy.",
             a[0][1] - a[FR][1], wa, vb_b, bound, vs_b);
    xr_figure(ctx, "s3_rigid_coupling", cap);
    return 0;
}

const xr_section xr_section_s3_rigid_coupling = {
    S3_SECTION(s3_rigid_coupling),
    .title = "Soft cube against a free rigid box: both momenta over the collision, light vs heavy",
    .tables = XR_TABLES({"s3_rigid_coupling", "momenta vs time per box mass"})};
