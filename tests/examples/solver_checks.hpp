#pragma once
// Measurements the example solvers' tests take of either solver's state.

#include <Eigen/Core>

namespace ipc::examples::test {

/// Total linear momentum (kg m/s) of a simulator's vertices.
template <typename Simulator> Eigen::Vector3d linear_momentum(const Simulator& sim)
{
    return (sim.velocities().array().colwise() * sim.model().mass.array()).colwise().sum().transpose();
}

/// Largest downward displacement (m) of any vertex between two states.
inline double largest_drop(const Eigen::MatrixXd& before, const Eigen::MatrixXd& after)
{
    return (before.col(1) - after.col(1)).maxCoeff();
}

} // namespace ipc::examples::test
