#pragma once
/// @file
/// Hessians of the signed distances of the analytic obstacles of
/// sdf_obstacle.hpp (plane, sphere, rounded box, capsule), in 1/m. Together
/// with signed_distance and signed_distance_gradient they give the second
/// derivatives a Newton solver needs for a barrier of the signed distance.
///
/// The signed distance of a convex body is convex, so every Hessian here is
/// positive semi-definite: (I - n n^T) / r for a point at distance r from a
/// centre (sphere, capsule ends), the same with the axis direction removed
/// beside a capsule's axis, the analogue over the axes outside a sharp box
/// for a rounded box, and zero for a plane and inside a box. Where the
/// signed distance is not twice differentiable (the centre of a sphere, the
/// axis of a capsule, the faces and medial axis of a box) the Hessian of the
/// region the point is attributed to by signed_distance_gradient is
/// returned, and zero where that region's Hessian would be infinite (a point
/// exactly on a sphere's centre or a capsule's axis). Non-finite points give
/// NaN.

#include <ipc/core/math.hpp>
#include <ipc/obstacles/detail/sdf_geometry.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Core>

#include <limits>
#include <variant>

namespace ipc {

namespace detail::sdf {
    inline Eigen::Matrix3d nan_matrix()
    {
        return Eigen::Matrix3d::Constant(std::numeric_limits<double>::quiet_NaN());
    }

    /// Hessian (I - n n^T) / |v| of |v| restricted to the space orthogonal to
    /// `removed` (unit, or zero for none); zero when v is zero.
    inline Eigen::Matrix3d distance_hessian(const Eigen::Vector3d& v, const Eigen::Vector3d& removed)
    {
        const double r = v.norm();
        if (!(r > 0)) {
            return Eigen::Matrix3d::Zero();
        }
        const Eigen::Vector3d n = v / r;
        Eigen::Matrix3d H = Eigen::Matrix3d::Identity() - n * n.transpose() - removed * removed.transpose();
        return H / r;
    }
} // namespace detail::sdf

/// Zero: a plane's signed distance is linear. NaN when p is not finite.
inline Eigen::Matrix3d signed_distance_hessian(const PlaneObstacle&, const Eigen::Vector3d& p)
{
    return all_finite(p) ? Eigen::Matrix3d::Zero() : detail::sdf::nan_matrix();
}

/// (I - n n^T) / |p - center| with n = (p - center) / |p - center| (1/m);
/// zero at the centre. NaN when p is not finite.
inline Eigen::Matrix3d signed_distance_hessian(const SphereObstacle& sphere, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return detail::sdf::nan_matrix();
    }
    return detail::sdf::distance_hessian(p - sphere.center, Eigen::Vector3d::Zero());
}

/// Outside the sharp box, with S the axes along which p lies beyond the box
/// and q the excess over the half-extents: (P_S - g g^T) / |q_S| (P_S the
/// projector on the axes of S, g the gradient); zero inside the sharp box
/// (the signed distance is piecewise linear there). The rounding does not
/// change it. NaN when p is not finite.
inline Eigen::Matrix3d signed_distance_hessian(const BoxObstacle& box, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return detail::sdf::nan_matrix();
    }
    const Eigen::Vector3d u = p - box.center;
    const Eigen::Vector3d q = u.cwiseAbs() - box.half_extents;
    const Eigen::Vector3d outside = q.cwiseMax(0.0);
    const double r = outside.norm();
    if (!(r > 0)) {
        return Eigen::Matrix3d::Zero();
    }
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
    Eigen::Vector3d g = Eigen::Vector3d::Zero();
    for (int i = 0; i < 3; ++i) {
        if (q[i] > 0) {
            H(i, i) = 1;
            g[i] = (u[i] < 0 ? -1.0 : 1.0) * q[i] / r;
        }
    }
    H -= g * g.transpose();
    return H / r;
}

/// Beside the axis: (I - w w^T - n n^T) / r with w the axis direction, n the
/// gradient and r the distance to the axis; beyond an end: (I - n n^T) / r
/// around that end. Zero on the axis. NaN when p is not finite.
inline Eigen::Matrix3d signed_distance_hessian(const CapsuleObstacle& capsule, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return detail::sdf::nan_matrix();
    }
    const double t = detail::sdf::segment_closest_parameter(p, capsule.a, capsule.b);
    Eigen::Vector3d offset = p - (capsule.a + t * (capsule.b - capsule.a));
    if (t > 0 && t < 1) {
        const Eigen::Vector3d w = detail::sdf::capsule_axis(capsule);
        offset -= offset.dot(w) * w;
        return detail::sdf::distance_hessian(offset, w);
    }
    return detail::sdf::distance_hessian(offset, Eigen::Vector3d::Zero());
}

/// Hessian of the signed distance of any analytic obstacle (see the
/// overloads above), 3 x 3, 1/m; positive semi-definite.
inline Eigen::Matrix3d signed_distance_hessian(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    return std::visit([&](const auto& shape) { return signed_distance_hessian(shape, p); }, obstacle);
}

} // namespace ipc
