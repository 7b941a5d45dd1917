#pragma once
/// @file
/// Squared distance from a point to a triangle, with gradient and Hessian (3D).
///
/// The automatic overloads pick the region with point_triangle_distance_type
/// and return the value/derivatives of that region's formula: point-point to a
/// vertex, point-line to an edge, or point-plane in the interior. Degenerate
/// triangles (collinear or coincident vertices, zero-length edges) never use
/// the plane formula: the closest edge or vertex formula is used, with its own
/// derivatives (zero for the vertices it does not involve). The distance is
/// C1 across region boundaries; the Hessian jumps there.
/// The automatic value overload throws ipc::invalid_argument for NaN/inf
/// input; derivative overloads do not validate (hot kernels). The typed
/// overloads use the given formula as is and throw ipc::degenerate_geometry
/// when its denominator is exactly zero.

#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>

namespace ipc {

/// Squared distance (length^2) from p to the triangle (t0, t1, t2) using the
/// formula of the given region.
template <typename DP, typename D0, typename D1, typename D2>
inline typename DP::Scalar point_triangle_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2,
    PointTriangleDistanceType type)
{
    using Type = PointTriangleDistanceType;
    switch (type) {
    case Type::P_T0: return point_point_distance_squared(p, t0);
    case Type::P_T1: return point_point_distance_squared(p, t1);
    case Type::P_T2: return point_point_distance_squared(p, t2);
    case Type::P_E0: return point_line_distance_squared(p, t0, t1);
    case Type::P_E1: return point_line_distance_squared(p, t1, t2);
    case Type::P_E2: return point_line_distance_squared(p, t2, t0);
    default: return point_plane_distance_squared(p, t0, t1, t2);
    }
}

/// Squared distance (length^2) from p to the triangle (t0, t1, t2) (automatic).
template <typename DP, typename D0, typename D1, typename D2>
inline typename DP::Scalar point_triangle_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-triangle distance is 3D only");
    using T = typename Traits::Scalar;
    const T d = detail::classify_point_triangle<T>(p, t0, t1, t2).distance_squared;
    detail::check_finite_stencil(d, "point_triangle_distance_squared", p, t0, t1, t2);
    return d;
}

/// Gradient with respect to (p, t0, t1, t2) (12-vector) using the formula of
/// the given region.
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_triangle_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2,
    PointTriangleDistanceType type)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-triangle distance is 3D only");
    using T = typename Traits::Scalar;
    using Type = PointTriangleDistanceType;
    switch (type) {
    case Type::P_T0:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(p, t0), { { 0, 1 } });
    case Type::P_T1:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(p, t1), { { 0, 2 } });
    case Type::P_T2:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(p, t2), { { 0, 3 } });
    case Type::P_E0:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(p, t0, t1), { { 0, 1, 2 } });
    case Type::P_E1:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(p, t1, t2), { { 0, 2, 3 } });
    case Type::P_E2:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(p, t2, t0), { { 0, 3, 1 } });
    default: return Vector<T, 12>(point_plane_distance_squared_gradient(p, t0, t1, t2));
    }
}

/// Gradient with respect to (p, t0, t1, t2) (automatic region).
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_triangle_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    return point_triangle_distance_squared_gradient(
        p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

/// Hessian with respect to (p, t0, t1, t2) (12x12) using the formula of the
/// given region.
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_triangle_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2,
    PointTriangleDistanceType type)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-triangle distance is 3D only");
    using T = typename Traits::Scalar;
    using Type = PointTriangleDistanceType;
    switch (type) {
    case Type::P_T0:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(p, t0), { { 0, 1 } });
    case Type::P_T1:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(p, t1), { { 0, 2 } });
    case Type::P_T2:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(p, t2), { { 0, 3 } });
    case Type::P_E0:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(p, t0, t1), { { 0, 1, 2 } });
    case Type::P_E1:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(p, t1, t2), { { 0, 2, 3 } });
    case Type::P_E2:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(p, t2, t0), { { 0, 3, 1 } });
    default: return Matrix<T, 12, 12>(point_plane_distance_squared_hessian(p, t0, t1, t2));
    }
}

/// Hessian with respect to (p, t0, t1, t2) (automatic region).
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_triangle_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    return point_triangle_distance_squared_hessian(
        p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

} // namespace ipc
