#pragma once
// Measurements the example solvers' tests take of either solver's state.

#include <common/model.hpp>
#include <common/scene_builders.hpp>

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace ipc::examples::test {

/// Total linear momentum (kg m/s) of a simulator's vertices.
template <typename Simulator> Eigen::Vector3d linear_momentum(const Simulator& sim)
{
    return (sim.velocities().array().colwise() * sim.model().mass.array()).colwise().sum().transpose();
}

/// What the soft block of the incline scene did once it had landed.
struct InclineMotion {
    double along = 0;        ///< mean displacement along the slope over the measured steps (m)
    double speed = 0;        ///< mean velocity along the slope at the end (m/s)
    double acceleration = 0; ///< mean velocity change along the slope per second over the second half (m/s^2)
};

/// Runs the incline scene (board tilted by angle about +z) in sim: five
/// steps to land, then `steps` measured ones; step(sim) advances one step
/// (and may check invariants). The block's vertices come first in the
/// model (the slope is an analytic plane).
template <typename Simulator, typename Step>
InclineMotion incline_motion(Simulator& sim, double angle, int steps, const Step& step)
{
    const Eigen::Vector3d down_slope(-std::cos(angle), -std::sin(angle), 0);
    const Eigen::Index n
        = Eigen::Index(std::count(sim.model().kind.begin(), sim.model().kind.end(), VertexKind::volume));
    require(n > 0, "incline_motion: the model has no volume vertices");
    const auto mean_speed = [&] { return sim.velocities().topRows(n).colwise().mean().dot(down_slope); };
    for (int s = 0; s < 5; ++s) {
        step(sim);
    }
    const Eigen::MatrixXd landed = sim.positions();
    const int half = steps / 2;
    double speed_at_half = 0;
    for (int s = 1; s <= steps; ++s) {
        step(sim);
        if (s == half) {
            speed_at_half = mean_speed();
        }
    }
    InclineMotion m;
    m.along = (sim.positions().topRows(n) - landed.topRows(n)).colwise().mean().dot(down_slope);
    m.speed = mean_speed();
    m.acceleration = (m.speed - speed_at_half) / ((steps - half) * sim.parameters().dt);
    return m;
}

/// Largest downward displacement (m) of any vertex between two states.
inline double largest_drop(const Eigen::MatrixXd& before, const Eigen::MatrixXd& after)
{
    return (before.col(1) - after.col(1)).maxCoeff();
}

/// A soft block (box_tet_mesh, 10 x 5 x 10 cm) 2 mm above the analytic
/// plane y = 0, which holds it once it has fallen.
inline Model block_above_plane()
{
    Model model;
    const TetMesh block = box_tet_mesh({ -0.05, 0.002, -0.05 }, { 0.05, 0.052, 0.05 }, 2, 1, 2);
    model.add_volume(block.vertices, block.tets, VolumeMaterial {}, 0);
    model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.3);
    return model;
}

/// The unit normal of the tilted plane of particles_thrown_at_plane.
inline Eigen::Vector3d thrown_particles_plane_normal() { return Eigen::Vector3d(0.2, 1, -0.1).normalized(); }

/// Nine particles (radius 1 mm) 5 cm above a tilted plane through the
/// origin, thrown at it at 30 m/s without gravity: a solver whose CCD
/// misses crosses the plane many times over in one step of 0.04 s.
inline Model particles_thrown_at_plane()
{
    Model model;
    model.add_particles(particle_lattice({ -0.02, 0.05, -0.02 }, 0.02, 3, 1, 3), ParticleMaterial {}, 1e-3);
    model.velocities.col(1).setConstant(-30);
    model.gravity.setZero();
    model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, thrown_particles_plane_normal() }, 0.2);
    return model;
}

/// Smallest clearance (m) of the particles of particles_thrown_at_plane at
/// positions: height above the plane minus contact radius, over every
/// particle (positive when all are outside their radius).
inline double thrown_particles_clearance(const Model& model, const Eigen::MatrixXd& positions)
{
    const Eigen::VectorXd heights = positions * thrown_particles_plane_normal();
    return (heights - model.contact_radius).minCoeff();
}

/// particles_thrown_at_plane with particle 0 started inside the plane.
inline Model thrown_particles_started_inside()
{
    Model model = particles_thrown_at_plane();
    model.positions(0, 1) = -0.01;
    return model;
}

} // namespace ipc::examples::test
