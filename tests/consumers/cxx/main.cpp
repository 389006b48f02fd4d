// SPDX-License-Identifier: MIT
// A C++ translation unit stepping an installed xpbd (install.cxx,
// install.subdir): the headers as C++, one S0 solve checked bit for bit
// against the SPEC's first number, a free fall and a pinned pendulum on
// xpbd_step_f32 checked against their closed forms, and one task on the
// default executor (a static library's OpenMP runtime must be in a C++
// link), and xpbd::io's replay header as C++: an empty f64 replay refused
// by the f32 runner and a NULL engine refused (xpbd::io in the link too). Exits 0 on success.
#include <xpbd/xpbd.h>
#include <xpbd/reference.h>
#include <xpbd/replay.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int fail(const char *what, double got, double want)
{
    std::fprintf(stderr, "xpbd-consumer-cxx: %s: %.17g, want %.17g\n", what, got, want);
    return 1;
}

// Two particles in one block: 0 pinned at the origin, 1 at (x1, 0, 0).
struct Pair {
    std::vector<float> block = std::vector<float>(20, 0.0f);
    xpbd_particles_f32 p{};
    explicit Pair(float x1)
    {
        xpbd_particles_bind_f32(&p, 2, block.data(), 2);
        p.x[1] = x1;
        p.w[1] = 1;
    }
};

} // namespace

int main()
{
    double a = 0, b = 2, lambda = 0;
    const xpbd_status s0 = xpbd_distance1d_solve(&a, &b, 1, 1, 1, 0.01, 0.1, &lambda);
    const double stretch = b - a - 1, want = std::strtod("0.3333333333333335", nullptr);
    if (s0 != XPBD_OK || std::memcmp(&stretch, &want, sizeof want) != 0)
        return fail("S0 stretch", stretch, want);

    // free fall, one step of h = 0.1 s, one substep: v = g h, y = g h^2
    xpbd_step_config cfg = xpbd_step_config_default();
    Pair fall(1);
    std::vector<unsigned char> scratch(xpbd_step_scratch_bytes_f32(2, 0));
    xpbd_status st = xpbd_step_f32(&cfg, 0.1, &fall.p, nullptr, scratch.data(), scratch.size(),
                                   nullptr);
    if (st != XPBD_OK || std::fabs(fall.p.y[1] + 0.0981) > 1e-6 ||
        std::fabs(fall.p.vy[1] + 0.981) > 1e-5 || fall.p.y[0] != 0)
        return fail("free fall y", fall.p.y[1], -0.0981);

    // a rigid pendulum: one distance constraint of rest 1, compliance 0
    Pair swing(1);
    const uint32_t i0 = 0, i1 = 1;
    const float rest = 1, compliance = 0;
    xpbd_distance_set_f32 rod{};
    if (xpbd_distance_set_build_f32(&rod, 2, 1, &i0, &i1, &rest, &compliance, nullptr,
                                    nullptr) != XPBD_OK)
        return fail("build", 0, 0);
    scratch.resize(xpbd_step_scratch_bytes_f32(2, rod.slots));
    cfg.substeps = 8;
    for (int frame = 0; frame < 30 && st == XPBD_OK; ++frame)
        st = xpbd_step_f32(&cfg, 1.0 / 60, &swing.p, &rod, scratch.data(), scratch.size(),
                           nullptr);
    const double len = std::hypot(swing.p.x[1], swing.p.y[1], swing.p.z[1]);
    xpbd_distance_set_free_f32(&rod);
    if (st != XPBD_OK || std::fabs(len - 1) > 1e-5 || !(swing.p.y[1] < -0.5))
        return fail("pendulum length", len, 1);

    const xpbd_executor *ex = xpbd_executor_default();
    if (ex) {
        std::vector<uint32_t> out(1000);
        auto square = [](uint32_t begin, uint32_t end, uint32_t, void *ctx) {
            for (uint32_t i = begin; i < end; ++i)
                static_cast<uint32_t *>(ctx)[i] = i * i;
        };
        if (void *h = ex->enqueue(square, 1000, 10, ex->worker_count, out.data(), ex->user_ctx))
            ex->finish(h, ex->user_ctx);
        for (uint32_t i = 0; i < 1000; ++i)
            if (out[i] != i * i)
                return fail("executor item", out[i], double(i) * i);
    }
    static_assert(XPBD_REPLAY_FORMAT >= XPBD_REPLAY_FORMAT_OLDEST, "replay format versions");
    xpbd_replay_file none{};
    none.f64 = 1;
    xpbd_engine_f32 *replayed = nullptr;
    xpbd_replay_error err{};
    if (xpbd_replay_record_end_f32(&none, nullptr) != XPBD_ERR_ARGUMENT ||
        xpbd_replay_run_f64(&none, nullptr, &err) != XPBD_ERR_ARGUMENT || err.what[0] == 0 ||
        xpbd_replay_create_f32(&none, &replayed, nullptr) != XPBD_ERR_ARGUMENT || replayed)
        return fail("xpbd/replay.h refusals", 0, 0);
    xpbd_replay_free(&none);
    std::printf("xpbd-consumer-cxx: xpbd %u, S0 stretch %.17g ok, fall %.6g m, pendulum %.7g m "
                "after 30 frames, default executor %s\n", xpbd_version(), stretch,
                double(fall.p.y[1]), len, ex ? "ran 1000 items" : "absent");
    return 0;
}
