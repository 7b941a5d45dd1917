#pragma once
/// @file
/// Squared distance from a point to the segment (edge) e0-e1, with gradient
/// and Hessian, in 2D and 3D.
///
/// The automatic overloads pick the region with point_edge_distance_type and
/// return the value/derivatives of that region's formula: point-point to e0 or
/// e1, or point-line in the interior. A zero-length edge is handled as the
/// point-point distance to e0 (derivatives of that formula; zero for e1). The
/// distance is C1 across region boundaries; the Hessian jumps there.
/// The automatic value overload throws ipc::invalid_argument when the input
/// holds NaN/inf; derivative overloads do not validate (hot kernels).
/// The typed overloads use the given type's formula as is; P_E with a
/// zero-length edge throws ipc::degenerate_geometry.

#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_point.hpp>

namespace ipc {

/// Squared distance (length^2) from p to the segment e0-e1 using the formula
/// of the given region.
template <typename DP, typename D0, typename D1>
inline typename DP::Scalar point_edge_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0,
    const Eigen::MatrixBase<D1>& e1, PointEdgeDistanceType type)
{
    switch (type) {
    case PointEdgeDistanceType::P_E0: return point_point_distance_squared(p, e0);
    case PointEdgeDistanceType::P_E1: return point_point_distance_squared(p, e1);
    default: return point_line_distance_squared(p, e0, e1);
    }
}

/// Squared distance (length^2) from p to the segment e0-e1 (automatic region).
template <typename DP, typename D0, typename D1>
inline typename DP::Scalar point_edge_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    const T d = detail::classify_point_edge<T, DIM>(p, e0, e1).distance_squared;
    detail::check_finite_stencil(d, "point_edge_distance_squared", p, e0, e1);
    return d;
}

/// Gradient with respect to (p, e0, e1) (3*DIM vector) using the formula of
/// the given region.
template <typename DP, typename D0, typename D1>
inline auto point_edge_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0,
    const Eigen::MatrixBase<D1>& e1, PointEdgeDistanceType type)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    switch (type) {
    case PointEdgeDistanceType::P_E0:
        return detail::scatter_gradient<DIM, 3, T, 2>(
            point_point_distance_squared_gradient(p, e0), { { 0, 1 } });
    case PointEdgeDistanceType::P_E1:
        return detail::scatter_gradient<DIM, 3, T, 2>(
            point_point_distance_squared_gradient(p, e1), { { 0, 2 } });
    default: return Vector<T, 3 * DIM>(point_line_distance_squared_gradient(p, e0, e1));
    }
}

/// Gradient with respect to (p, e0, e1) (automatic region).
template <typename DP, typename D0, typename D1>
inline auto point_edge_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    return point_edge_distance_squared_gradient(p, e0, e1, point_edge_distance_type(p, e0, e1));
}

/// Hessian with respect to (p, e0, e1) (3*DIM x 3*DIM) using the formula of
/// the given region.
template <typename DP, typename D0, typename D1>
inline auto point_edge_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0,
    const Eigen::MatrixBase<D1>& e1, PointEdgeDistanceType type)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    switch (type) {
    case PointEdgeDistanceType::P_E0:
        return detail::scatter_hessian<DIM, 3, T, 2>(
            point_point_distance_squared_hessian(p, e0), { { 0, 1 } });
    case PointEdgeDistanceType::P_E1:
        return detail::scatter_hessian<DIM, 3, T, 2>(
            point_point_distance_squared_hessian(p, e1), { { 0, 2 } });
    default: return Matrix<T, 3 * DIM, 3 * DIM>(point_line_distance_squared_hessian(p, e0, e1));
    }
}

/// Hessian with respect to (p, e0, e1) (automatic region).
template <typename DP, typename D0, typename D1>
inline auto point_edge_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    return point_edge_distance_squared_hessian(p, e0, e1, point_edge_distance_type(p, e0, e1));
}

} // namespace ipc
