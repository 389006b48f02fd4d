/* SPDX-License-Identifier: MIT */
// bench_bullet.cpp: the peer of xpbd-bench's cloth scene in Bullet's
// btSoftBody (see bench_peer.h). Built only when CMake finds Bullet.
//
// What Bullet does per internal step of a soft body with links only:
// predict (v += g dt, x += v dt, plus its node tree refit), prepare every
// link, `piterations` Gauss-Seidel sweeps of PSolve_Links in link order (a
// PBD solve of the squared-length constraint with stiffness kLST), then
// v = (x - x_previous) / dt. One world step of 1/60 s with maxSubSteps =
// substeps and a fixed step of 1/(60 substeps) runs `substeps` of them.
#include "bench_peer.h"

#include <chrono>
#include <cstdlib>
#include <new>
#include <vector>

#include <BulletSoftBody/btSoftBody.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>

namespace {

// The world and its parts, owned together and released in reverse order.
struct BulletWorld {
    btSoftBodyRigidBodyCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btSoftRigidDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btSoftBodyWorldInfo info;
    btSoftBody *body = nullptr;

    ~BulletWorld()
    {
        if (body) {
            world.removeSoftBody(body);
            delete body;
        }
    }
};

int run(const xb_peer_cloth &c, xb_peer_result &out)
{
    BulletWorld bw;
    const btVector3 g(0, c.gravity_y, 0);
    bw.world.setGravity(g);
    bw.info.m_broadphase = &bw.broadphase;
    bw.info.m_dispatcher = &bw.dispatcher;
    bw.info.m_gravity = g;
    bw.info.air_density = 0;
    bw.info.m_sparsesdf.Initialize();

    std::vector<btVector3> x(c.particles);
    std::vector<btScalar> mass(c.particles);
    for (size_t i = 0; i < c.particles; ++i) {
        x[i] = btVector3(c.x[i], c.y[i], c.z[i]);
        mass[i] = c.w[i] > 0 ? 1 / c.w[i] : 0; // Bullet: mass 0 pins a node
    }
    bw.body = new btSoftBody(&bw.info, static_cast<int>(c.particles), x.data(), mass.data());
    btSoftBody::Material *m = bw.body->appendMaterial();
    m->m_kLST = c.stiffness;
    m->m_kAST = 0;
    m->m_kVST = 0;
    for (size_t k = 0; k < c.links; ++k)
        bw.body->appendLink(static_cast<int>(c.i0[k]), static_cast<int>(c.i1[k]), m);
    btSoftBody::Config &cfg = bw.body->m_cfg;
    cfg.piterations = c.iterations;
    cfg.viterations = 0;
    cfg.diterations = 0;
    cfg.citerations = 0;
    cfg.kDP = 0;
    cfg.kDG = 0;
    cfg.kLF = 0;
    cfg.collisions = 0; // nothing to collide with; no self collision
    bw.body->updateConstants(); // rest lengths = start distances, link constants
    bw.world.addSoftBody(bw.body);

    const btScalar frame = btScalar(1) / 60;
    const btScalar fixed = frame / c.substeps;
    uint64_t steps = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int f = 0; f < c.frames; ++f)
        steps += static_cast<uint64_t>(bw.world.stepSimulation(frame, c.substeps, fixed));
    const auto t1 = std::chrono::steady_clock::now();
    out.seconds = std::chrono::duration<double>(t1 - t0).count();
    out.link_solves = steps * static_cast<uint64_t>(c.iterations) * c.links;

    const size_t bytes = c.particles * sizeof(float);
    out.x = static_cast<float *>(std::malloc(bytes));
    out.y = static_cast<float *>(std::malloc(bytes));
    out.z = static_cast<float *>(std::malloc(bytes));
    if (out.x && out.y && out.z)
        for (size_t i = 0; i < c.particles; ++i) {
            const btVector3 &p = bw.body->m_nodes[static_cast<int>(i)].m_x;
            out.x[i] = p.x();
            out.y[i] = p.y();
            out.z[i] = p.z();
        }
    return 0;
}

} // namespace

extern "C" int xb_peer_bullet_cloth(const xb_peer_cloth *cloth, xb_peer_result *out)
{
    if (!cloth || !out || cloth->particles == 0 || cloth->particles > 0x7fffffff ||
        cloth->links > 0x7fffffff || cloth->substeps < 1 || cloth->iterations < 1 ||
        cloth->frames < 0 || !(cloth->stiffness > 0 && cloth->stiffness <= 1))
        return -1;
    for (size_t k = 0; k < cloth->links; ++k)
        if (cloth->i0[k] >= cloth->particles || cloth->i1[k] >= cloth->particles)
            return -1;
    out->seconds = 0;
    out->link_solves = 0;
    out->x = out->y = out->z = nullptr;
    try {
        return run(*cloth, *out);
    } catch (const std::bad_alloc &) {
        std::free(out->x);
        std::free(out->y);
        std::free(out->z);
        out->x = out->y = out->z = nullptr;
        return -1;
    }
}
