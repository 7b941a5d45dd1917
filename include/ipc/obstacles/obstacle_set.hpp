#pragma once
/// @file
/// The static obstacles of a simulation as one indexed list: any number of
/// analytic obstacles (SdfObstacle: exact plane, sphere, rounded box, capsule)
/// followed by any number of general signed-distance obstacles that the
/// caller describes by callbacks (SignedDistanceObstacle). Obstacle k of the
/// set is shapes[k] for k < shapes.size(), else functions[k - shapes.size()].
///
/// Conventions (those of sdf_obstacle.hpp): the signed distance phi (m) is
/// negative inside, zero on the surface and positive outside; its gradient is
/// the outward normal. Obstacles do not move and have no thickness of their
/// own: a vertex of radius r keeps phi > r (see obstacle_collisions.hpp).

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/types.hpp>
#include <ipc/obstacles/sdf_hessian.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Core>

#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace ipc {

/// A general signed-distance obstacle given by callbacks (lengths in m).
///
/// value(p) must return the signed distance (negative inside) and
/// gradient(p) its gradient; the gradient should be the unit outward normal
/// where phi is a true distance, and only its direction is used for friction.
/// hessian(p) is optional: when it is empty the barrier uses a zero Hessian
/// of phi, i.e. the Gauss-Newton term 2 grad(phi) grad(phi)^T of phi^2 (exact
/// for a plane; for a curved surface it is the Hessian of the tangent-plane
/// model at the current point and omits the curvature term).
/// lipschitz >= 1 bounds |phi(p) - phi(q)| <= lipschitz |p - q| (1 for an
/// exact signed distance); the CCD relies on it to stay conservative, so an
/// underestimated bound can let a vertex cross the surface.
/// The callbacks may be called from several threads at once and must not
/// throw (an exception inside a parallel loop is rethrown after it).
struct SignedDistanceObstacle {
    std::function<double(const Eigen::Vector3d&)> value;             ///< phi(p) (m)
    std::function<Eigen::Vector3d(const Eigen::Vector3d&)> gradient; ///< grad phi(p)
    std::function<Eigen::Matrix3d(const Eigen::Vector3d&)> hessian;  ///< optional, 1/m
    double lipschitz = 1;                                           ///< >= 1
};

/// Throws ipc::invalid_argument unless value and gradient are set and
/// lipschitz is finite and >= 1.
inline void check_obstacle(const SignedDistanceObstacle& obstacle)
{
    require(bool(obstacle.value), "signed-distance obstacle: the value callback is empty");
    require(bool(obstacle.gradient), "signed-distance obstacle: the gradient callback is empty");
    require(std::isfinite(obstacle.lipschitz) && obstacle.lipschitz >= 1,
            "signed-distance obstacle: lipschitz must be finite and >= 1, got ", obstacle.lipschitz);
}

/// The obstacles of a scene; see the file comment for the indexing.
class ObstacleSet {
public:
    std::vector<SdfObstacle> shapes;                ///< analytic obstacles, indices [0, shapes.size())
    std::vector<SignedDistanceObstacle> functions; ///< callback obstacles, the indices after them

    /// An empty set.
    ObstacleSet() = default;

    /// A set of analytic obstacles and (optionally) callback obstacles. Not
    /// validated here; call check().
    ObstacleSet(std::vector<SdfObstacle> shapes_, std::vector<SignedDistanceObstacle> functions_ = {})
        : shapes(std::move(shapes_))
        , functions(std::move(functions_))
    {
    }

    /// Number of obstacles.
    Index size() const { return Index(shapes.size() + functions.size()); }
    /// True when there is no obstacle.
    bool empty() const { return size() == 0; }
    /// True when obstacle k is an analytic shape (convex, exact distance).
    bool is_shape(Index k) const { return std::size_t(k) < shapes.size(); }

    /// Throws ipc::invalid_argument naming `who` and the first invalid
    /// obstacle (see check_obstacle).
    void check(const char* who) const
    {
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            try {
                check_obstacle(shapes[k]);
            } catch (const invalid_argument& e) {
                throw invalid_argument(detail::concat(who, ": obstacle ", k, ": ", e.what()));
            }
        }
        for (std::size_t k = 0; k < functions.size(); ++k) {
            try {
                check_obstacle(functions[k]);
            } catch (const invalid_argument& e) {
                throw invalid_argument(detail::concat(who, ": obstacle ", shapes.size() + k, ": ", e.what()));
            }
        }
    }

    /// "plane", "sphere", "box", "capsule" or "function" for obstacle k.
    const char* name(Index k) const { return is_shape(k) ? obstacle_name(shape(k)) : "function"; }

    /// Signed distance (m) of obstacle k at p. k must be in [0, size()).
    double signed_distance(Index k, const Eigen::Vector3d& p) const
    {
        return is_shape(k) ? ipc::signed_distance(shape(k), p) : function(k).value(p);
    }

    /// Gradient of the signed distance of obstacle k at p.
    Eigen::Vector3d gradient(Index k, const Eigen::Vector3d& p) const
    {
        return is_shape(k) ? signed_distance_gradient(shape(k), p) : function(k).gradient(p);
    }

    /// Hessian of the signed distance of obstacle k at p (1/m): exact for
    /// the analytic shapes (signed_distance_hessian), the callback's for a
    /// function obstacle, zero when it has none (see SignedDistanceObstacle).
    Eigen::Matrix3d hessian(Index k, const Eigen::Vector3d& p) const
    {
        if (is_shape(k)) {
            return signed_distance_hessian(shape(k), p);
        }
        const SignedDistanceObstacle& f = function(k);
        return f.hessian ? f.hessian(p) : Eigen::Matrix3d::Zero();
    }

    /// Lipschitz bound of obstacle k's signed distance: 1 for a shape.
    double lipschitz(Index k) const { return is_shape(k) ? 1.0 : function(k).lipschitz; }

    /// Analytic obstacle k (k < shapes.size()).
    const SdfObstacle& shape(Index k) const { return shapes[std::size_t(k)]; }
    /// Callback obstacle k (k >= shapes.size()).
    const SignedDistanceObstacle& function(Index k) const { return functions[std::size_t(k) - shapes.size()]; }
};

} // namespace ipc
