#pragma once
/// @file
/// Closest-point coefficients of the contact types, evaluated at the lag
/// configuration and held fixed by the lagged friction model (so no
/// derivatives are needed). They are the unclamped parameters on the
/// supporting line or plane; the distance type of the pair says which
/// contact type applies, and inside its region they lie in [0, 1].
///
/// These functions validate their input: non-finite coordinates throw
/// ipc::invalid_argument; a zero-length edge, a zero-area triangle or
/// parallel edges throw ipc::degenerate_geometry.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/tangent_basis.hpp>

#include <Eigen/Geometry>

namespace ipc {

/// Parameter eta of the point on the line of edge (e0, e1) closest to p:
/// closest point = e0 + eta (e1 - e0), eta = (p - e0).(e1 - e0) / |e1 - e0|^2
/// (dimensionless). Throws ipc::degenerate_geometry for a zero-length edge.
template <typename DerivedP, typename DerivedE0, typename DerivedE1>
typename DerivedP::Scalar point_edge_closest_point(const Eigen::MatrixBase<DerivedP>& p,
    const Eigen::MatrixBase<DerivedE0>& e0, const Eigen::MatrixBase<DerivedE1>& e1)
{
    using Scalar = typename DerivedP::Scalar;
    detail::require_finite_point(p, "point_edge_closest_point", "p");
    detail::require_finite_point(e0, "point_edge_closest_point", "e0");
    detail::require_finite_point(e1, "point_edge_closest_point", "e1");
    const Vector3<Scalar> edge = e1 - e0;
    const Scalar length_squared = edge.squaredNorm();
    require<degenerate_geometry>(length_squared > Scalar(0),
        "point_edge_closest_point: edge (e0, e1) has zero length");
    return edge.dot(Vector3<Scalar>(p - e0)) / length_squared;
}

/// Coordinates (beta1, beta2) of the projection of p onto the plane of
/// triangle (t0, t1, t2): projection = t0 + beta1 (t1 - t0) + beta2 (t2 - t0)
/// (dimensionless; barycentric weights (1 - beta1 - beta2, beta1, beta2)).
/// Throws ipc::degenerate_geometry for a zero-area triangle.
template <typename DerivedP, typename DerivedT0, typename DerivedT1, typename DerivedT2>
Vector2<typename DerivedP::Scalar> point_triangle_closest_point(
    const Eigen::MatrixBase<DerivedP>& p, const Eigen::MatrixBase<DerivedT0>& t0,
    const Eigen::MatrixBase<DerivedT1>& t1, const Eigen::MatrixBase<DerivedT2>& t2)
{
    using Scalar = typename DerivedP::Scalar;
    detail::require_finite_point(p, "point_triangle_closest_point", "p");
    detail::require_finite_point(t0, "point_triangle_closest_point", "t0");
    detail::require_finite_point(t1, "point_triangle_closest_point", "t1");
    detail::require_finite_point(t2, "point_triangle_closest_point", "t2");
    const Vector3<Scalar> edge1 = t1 - t0;
    const Vector3<Scalar> edge2 = t2 - t0;
    const Vector3<Scalar> offset = p - t0;
    const Scalar a = edge1.squaredNorm();
    const Scalar b = edge1.dot(edge2);
    const Scalar c = edge2.squaredNorm();
    const Scalar determinant = edge1.cross(edge2).squaredNorm(); // = a c - b^2
    require<degenerate_geometry>(determinant > detail::parallel_tolerance<Scalar>() * a * c,
        "point_triangle_closest_point: triangle (t0, t1, t2) has zero area");
    const Scalar r1 = edge1.dot(offset);
    const Scalar r2 = edge2.dot(offset);
    return Vector2<Scalar>((c * r1 - b * r2) / determinant, (a * r2 - b * r1) / determinant);
}

/// Parameters (gamma_a, gamma_b) of the closest points of the lines through
/// edges (a0, a1) and (b0, b1): a0 + gamma_a (a1 - a0) and b0 + gamma_b
/// (b1 - b0) (dimensionless). Throws ipc::degenerate_geometry for a
/// zero-length edge or parallel edges.
template <typename DerivedA0, typename DerivedA1, typename DerivedB0, typename DerivedB1>
Vector2<typename DerivedA0::Scalar> edge_edge_closest_point(
    const Eigen::MatrixBase<DerivedA0>& a0, const Eigen::MatrixBase<DerivedA1>& a1,
    const Eigen::MatrixBase<DerivedB0>& b0, const Eigen::MatrixBase<DerivedB1>& b1)
{
    using Scalar = typename DerivedA0::Scalar;
    detail::require_finite_point(a0, "edge_edge_closest_point", "a0");
    detail::require_finite_point(a1, "edge_edge_closest_point", "a1");
    detail::require_finite_point(b0, "edge_edge_closest_point", "b0");
    detail::require_finite_point(b1, "edge_edge_closest_point", "b1");
    const Vector3<Scalar> edge_a = a1 - a0;
    const Vector3<Scalar> edge_b = b1 - b0;
    const Vector3<Scalar> offset = a0 - b0;
    const Scalar a = edge_a.squaredNorm();
    const Scalar b = edge_a.dot(edge_b);
    const Scalar c = edge_b.squaredNorm();
    require<degenerate_geometry>(a > Scalar(0), "edge_edge_closest_point: edge (a0, a1) has zero length");
    require<degenerate_geometry>(c > Scalar(0), "edge_edge_closest_point: edge (b0, b1) has zero length");
    const Scalar determinant = edge_a.cross(edge_b).squaredNorm(); // = a c - b^2
    require<degenerate_geometry>(determinant > detail::parallel_tolerance<Scalar>() * a * c,
        "edge_edge_closest_point: edges are parallel; reduce the pair to point-edge");
    // Normal equations: [a, -b; -b, c] (gamma_a, gamma_b) = (-ea.offset, eb.offset).
    const Scalar r1 = -edge_a.dot(offset);
    const Scalar r2 = edge_b.dot(offset);
    return Vector2<Scalar>((c * r1 + b * r2) / determinant, (b * r1 + a * r2) / determinant);
}

} // namespace ipc
