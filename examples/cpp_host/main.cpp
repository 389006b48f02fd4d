// SPDX-License-Identifier: MIT
// cpp_host: the engine from C++17. xpbd's headers are C with extern "C"
// guards: a C++ host includes them as they are. Here a small RAII class
// owns the engine (created in the constructor, destroyed in the
// destructor, movable, not copyable), the scene lives in std::vectors that
// the engine copies at create, and errors become exceptions.
//
// The scene: a banner pinned along its top edge; the host pulls its bottom
// edge down a little every frame until it tears. A tear removes the
// stretched constraints and splits the vertices it cut, so the particle
// count grows and the particle arrays may move: the host re-reads them
// after every frame. Exits 1 unless it tore, split and stayed finite.
#include <xpbd/xpbd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

class Engine {
public:
    Engine(const xpbd_scene_f32 &scene, const xpbd_step_config &cfg,
           const xpbd_engine_options &opt)
    {
        xpbd_where where;
        const xpbd_status st = xpbd_engine_create_f32(&e_, &scene, &cfg, &opt, &where);
        if (st != XPBD_OK)
            // e.g. "engine create: rest length is <= 0 or not finite (distance 7)"
            throw std::runtime_error(std::string("engine create: ") + xpbd_status_str(st) +
                                     " (" + xpbd_part_name(where.part) + " " +
                                     (where.index == SIZE_MAX ? std::string("-")
                                                              : std::to_string(where.index)) +
                                     (where.field != XPBD_FIELD_NONE
                                          ? std::string(", ") + xpbd_field_name(where.field)
                                          : std::string()) +
                                     ")");
    }
    ~Engine() { xpbd_engine_destroy_f32(e_); }
    Engine(Engine &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
    Engine &operator=(Engine &&o) noexcept
    {
        std::swap(e_, o.e_);
        return *this;
    }
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    void apply(const xpbd_input &in) { check(xpbd_engine_apply_f32(e_, &in), "apply"); }
    // One frame; a refused one leaves the engine as it was.
    void step(double h) { check(xpbd_engine_step_f32(e_, h), "step"); }
    // Valid until the next step or apply (a split may move the arrays).
    const xpbd_particles_f32 &particles() const { return *xpbd_engine_particles_f32(e_); }
    const xpbd_engine_counters &counters() const { return *xpbd_engine_counters_f32(e_); }

private:
    static void check(xpbd_status st, const char *what)
    {
        if (st < 0) // XPBD_OVERFLOW (> 0) is a warning: the frame was stepped
            throw std::runtime_error(std::string(what) + ": " + xpbd_status_str(st));
    }
    xpbd_engine_f32 *e_ = nullptr;
};

constexpr uint32_t NX = 20, NY = 12;

} // namespace

int main()
try {
    // a vertical banner in the x-y plane, row 0 at the top, 5 cm spacing
    xpbd_cloth_desc desc{};
    desc.nx = NX;
    desc.ny = NY;
    desc.spacing = 0.05;
    desc.origin[1] = 1;
    desc.u[0] = 1;
    desc.v[1] = -1;
    xpbd_mesh_counts k{};
    if (xpbd_mesh_cloth(&desc, &k, nullptr) != XPBD_OK)
        return 1;
    std::vector<float> xyz(3 * k.particles);
    std::vector<uint32_t> pairs(2 * (k.edges + k.shear));
    xpbd_mesh_out out{};
    out.xyz32 = xyz.data();
    out.edges = pairs.data();
    out.shear = pairs.data() + 2 * k.edges; // stretch and shear pairs in one array
    out.capacity = k;
    if (xpbd_mesh_cloth(&desc, nullptr, &out) != XPBD_OK)
        return 1;
    std::vector<float> w(k.particles, 1 / 0.02f); // 20 g per particle
    for (uint32_t i = 0; i < NX; ++i)
        w[i] = 0; // the top row is pinned

    xpbd_scene_f32 scene{}; // zeroed: no contacts, bodies, tets or bends
    scene.particles = k.particles;
    scene.xyz = xyz.data();
    scene.inv_mass = w.data();
    scene.edges = pairs.size() / 2;
    scene.edge = pairs.data();
    scene.edge_alpha = 1e-6;
    xpbd_step_config cfg = xpbd_step_config_default();
    cfg.substeps = 4;
    xpbd_engine_options opt{};
    opt.tear_stretch = 0.25; // a constraint stretched by 25% tears
    Engine engine(scene, cfg, opt);

    // the host grabs the bottom row (w = 0: it moves only when the host
    // moves it) and drags it down 1 cm per frame; its indices stay put
    // (without bodies a scene particle keeps its index for good)
    const uint32_t bottom = (NY - 1) * NX; // particles [bottom, bottom + NX)
    engine.apply({XPBD_INPUT_SET_INV_MASS, bottom, bottom + NX, {0, 0, 0}});
    uint32_t torn = 0, split = 0;
    int frame = 0;
    for (; frame < 240 && split == 0; ++frame) {
        engine.apply({XPBD_INPUT_TRANSLATE, bottom, bottom + NX, {0, -0.01, 0}});
        engine.step(1.0 / 60);
        torn += engine.counters().torn;
        split += engine.counters().split;
    }
    const xpbd_particles_f32 &p = engine.particles(); // re-read: the split grew them
    bool finite = true;
    for (size_t i = 0; i < p.count; ++i)
        finite = finite && std::isfinite(p.x[i]) && std::isfinite(p.y[i]) && std::isfinite(p.z[i]);
    std::printf("cpp_host: torn at frame %d: %u constraints torn, %u particles split off, "
                "%zu particles now (%zu at create)\n", frame, torn, split, p.count, k.particles);
    return torn > 0 && split > 0 && p.count == k.particles + split && finite ? 0 : 1;
} catch (const std::exception &e) {
    std::fprintf(stderr, "cpp_host: %s\n", e.what());
    return 1;
}
