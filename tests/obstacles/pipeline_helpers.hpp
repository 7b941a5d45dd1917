#pragma once
// Shared helpers of the tests of obstacles in the contact pipeline (contacts,
// barrier, friction, CCD): particle meshes, callback obstacles written
// independently of the library, and points at a chosen signed distance.

#include "helpers.hpp"

#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace ipc::test::pipeline {

/// A mesh of free particles at rest positions V (n x 3) with the given radii
/// (empty: zero) and prescribed flags (empty: none).
inline CollisionMesh particle_mesh(const Eigen::MatrixXd& V, const Eigen::VectorXd& radii = Eigen::VectorXd(),
                                   const std::vector<bool>& prescribed = {})
{
    CollisionMesh::Builder builder(V);
    if (radii.size() > 0) {
        builder.vertex_radii(radii);
    }
    if (!prescribed.empty()) {
        builder.prescribed_vertices(prescribed);
    }
    return builder.build();
}

/// A sphere described by callbacks (its own formulas), optionally with its
/// Hessian, and with the given Lipschitz bound.
inline SignedDistanceObstacle callback_sphere(const Eigen::Vector3d& centre, double radius, bool with_hessian,
                                              double lipschitz = 1)
{
    SignedDistanceObstacle f;
    f.value = [=](const Eigen::Vector3d& p) { return std::sqrt((p - centre).squaredNorm()) - radius; };
    f.gradient = [=](const Eigen::Vector3d& p) -> Eigen::Vector3d {
        const Eigen::Vector3d d = p - centre;
        const double r = d.norm();
        return r > 0 ? Eigen::Vector3d(d / r) : Eigen::Vector3d::UnitZ();
    };
    if (with_hessian) {
        f.hessian = [=](const Eigen::Vector3d& p) -> Eigen::Matrix3d {
            const Eigen::Vector3d d = p - centre;
            const double r = d.norm();
            if (!(r > 0)) {
                return Eigen::Matrix3d::Zero();
            }
            return (Eigen::Matrix3d::Identity() - d * d.transpose() / (r * r)) / r;
        };
    }
    f.lipschitz = lipschitz;
    return f;
}

/// A wavy floor z = a sin(k x) as a callback: phi = z - a sin(k x) is not a
/// distance but is Lipschitz with bound sqrt(1 + (a k)^2).
inline SignedDistanceObstacle wavy_floor(double a, double k)
{
    SignedDistanceObstacle f;
    f.value = [=](const Eigen::Vector3d& p) { return p.z() - a * std::sin(k * p.x()); };
    f.gradient = [=](const Eigen::Vector3d& p) {
        return Eigen::Vector3d(-a * k * std::cos(k * p.x()), 0, 1);
    };
    f.hessian = [=](const Eigen::Vector3d& p) {
        Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
        H(0, 0) = a * k * k * std::sin(k * p.x());
        return H;
    };
    f.lipschitz = std::sqrt(1 + a * a * k * k);
    return f;
}

/// True when a and b agree to tol relative to the larger of their largest
/// entries (infinity norm); two zero arrays agree.
inline bool relative_close(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) {
        return false;
    }
    const double scale = std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
    return (a - b).cwiseAbs().maxCoeff() <= tol * scale;
}

/// A point at signed distance `target` (> 0) from a convex analytic
/// obstacle: a far point in a random direction moved along the gradient
/// (outside a convex body the signed distance grows at unit rate along it).
inline Eigen::Vector3d point_at_distance(const SdfObstacle& obstacle, double target, std::mt19937_64& rng)
{
    const Eigen::Vector3d q = obstacle_centre(obstacle) + 2 * (obstacle_reach(obstacle) + 1) * random_direction(rng);
    return q + (target - signed_distance(obstacle, q)) * signed_distance_gradient(obstacle, q);
}

} // namespace ipc::test::pipeline
