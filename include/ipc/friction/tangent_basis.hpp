#pragma once
/// @file
/// Tangent bases of the four contact types: a 3x2 matrix T with orthonormal
/// columns spanning the plane orthogonal to the contact normal. The lagged
/// friction model evaluates them once per lag update and holds them fixed, so
/// no derivatives are needed. Any orthonormal basis of the same plane gives
/// the same friction energy, so only the plane matters.
///
/// These functions validate their input (they run once per lag update, not
/// per Newton iteration): non-finite coordinates throw ipc::invalid_argument,
/// a zero-length edge, a zero-area triangle or parallel edges (edge-edge; such
/// a pair should be reduced to point-edge by its distance type) throw
/// ipc::degenerate_geometry. Where the normal is undefined but the contact is
/// not degenerate (coincident points in point-point, a point on the line of
/// its edge in point-edge) a deterministic plane is chosen, as documented per
/// function.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Geometry>

#include <cmath>
#include <limits>

namespace ipc {

namespace detail {
    /// Relative tolerance on sin^2 of the angle between two directions below
    /// which they count as parallel: 1e-20, or the squared machine epsilon of
    /// Scalar when that is larger.
    template <typename Scalar> Scalar parallel_tolerance()
    {
        Scalar tolerance(1e-20);
        if constexpr (std::numeric_limits<Scalar>::is_specialized) {
            const Scalar epsilon = std::numeric_limits<Scalar>::epsilon();
            if (epsilon * epsilon > tolerance) {
                tolerance = epsilon * epsilon;
            }
        }
        return tolerance;
    }

    /// Throws ipc::invalid_argument when a 3-vector has a non-finite entry.
    template <typename Derived>
    void require_finite_point(const Eigen::MatrixBase<Derived>& point, const char* function,
        const char* name)
    {
        static_assert(Derived::SizeAtCompileTime == 3 || Derived::SizeAtCompileTime == Eigen::Dynamic,
            "a point must be a 3-vector");
        using std::isfinite;
        require(point.size() == 3, function, ": ", name, " has ", point.size(),
            " coordinates, expected 3");
        require(isfinite(point(0)) && isfinite(point(1)) && isfinite(point(2)), function, ": ",
            name, " = (", point(0), ", ", point(1), ", ", point(2), ") is not finite");
    }

    /// An orthonormal 3x2 basis of the plane orthogonal to the unit vector
    /// normal, chosen deterministically: the first column is x-axis x normal
    /// or y-axis x normal (the longer one, the x axis on a tie), normalised;
    /// the second is normal x first column.
    template <typename Scalar>
    Matrix<Scalar, 3, 2> orthonormal_complement(const Vector3<Scalar>& normal)
    {
        using std::sqrt;
        const Vector3<Scalar> x_cross(Scalar(0), -normal.z(), normal.y());
        const Vector3<Scalar> y_cross(normal.z(), Scalar(0), -normal.x());
        const Vector3<Scalar> first
            = x_cross.squaredNorm() >= y_cross.squaredNorm() ? x_cross : y_cross;
        Matrix<Scalar, 3, 2> basis;
        basis.col(0) = first / sqrt(first.squaredNorm());
        basis.col(1) = normal.cross(Vector3<Scalar>(basis.col(0)));
        return basis;
    }
} // namespace detail

/// Tangent basis of a point-point contact between a and b (m): the plane
/// orthogonal to b - a. For coincident points the plane orthogonal to the z
/// axis is used (the xy-plane).
template <typename DerivedA, typename DerivedB>
Matrix<typename DerivedA::Scalar, 3, 2> point_point_tangent_basis(
    const Eigen::MatrixBase<DerivedA>& a, const Eigen::MatrixBase<DerivedB>& b)
{
    using Scalar = typename DerivedA::Scalar;
    using std::sqrt;
    detail::require_finite_point(a, "point_point_tangent_basis", "a");
    detail::require_finite_point(b, "point_point_tangent_basis", "b");
    const Vector3<Scalar> w = b - a;
    const Scalar length_squared = w.squaredNorm();
    if (!(length_squared > Scalar(0))) {
        return detail::orthonormal_complement<Scalar>(Vector3<Scalar>::UnitZ());
    }
    return detail::orthonormal_complement<Scalar>(Vector3<Scalar>(w / sqrt(length_squared)));
}

/// Tangent basis of a point-edge contact between point p and edge (e0, e1)
/// (m): first column along the edge, second orthogonal to the edge and to
/// p - e0. When p lies on the edge's line, the second column is a
/// deterministic unit vector orthogonal to the edge. Throws
/// ipc::degenerate_geometry for a zero-length edge.
template <typename DerivedP, typename DerivedE0, typename DerivedE1>
Matrix<typename DerivedP::Scalar, 3, 2> point_edge_tangent_basis(
    const Eigen::MatrixBase<DerivedP>& p, const Eigen::MatrixBase<DerivedE0>& e0,
    const Eigen::MatrixBase<DerivedE1>& e1)
{
    using Scalar = typename DerivedP::Scalar;
    using std::sqrt;
    detail::require_finite_point(p, "point_edge_tangent_basis", "p");
    detail::require_finite_point(e0, "point_edge_tangent_basis", "e0");
    detail::require_finite_point(e1, "point_edge_tangent_basis", "e1");
    const Vector3<Scalar> edge = e1 - e0;
    const Scalar edge_length_squared = edge.squaredNorm();
    require<degenerate_geometry>(edge_length_squared > Scalar(0),
        "point_edge_tangent_basis: edge (e0, e1) has zero length");
    const Vector3<Scalar> along = edge / sqrt(edge_length_squared);
    const Vector3<Scalar> to_point = p - e0;
    const Vector3<Scalar> across = along.cross(to_point);
    const Scalar across_squared = across.squaredNorm();
    Matrix<Scalar, 3, 2> basis;
    basis.col(0) = along;
    if (across_squared > detail::parallel_tolerance<Scalar>() * to_point.squaredNorm()) {
        basis.col(1) = across / sqrt(across_squared);
    } else {
        basis.col(1) = detail::orthonormal_complement<Scalar>(along).col(0);
    }
    return basis;
}

/// Tangent basis of a point-triangle contact with triangle (t0, t1, t2) (m):
/// the triangle's plane, first column along t1 - t0. The point does not
/// enter (the normal is the triangle's). Throws ipc::degenerate_geometry for
/// a zero-area triangle.
template <typename DerivedP, typename DerivedT0, typename DerivedT1, typename DerivedT2>
Matrix<typename DerivedP::Scalar, 3, 2> point_triangle_tangent_basis(
    const Eigen::MatrixBase<DerivedP>& p, const Eigen::MatrixBase<DerivedT0>& t0,
    const Eigen::MatrixBase<DerivedT1>& t1, const Eigen::MatrixBase<DerivedT2>& t2)
{
    using Scalar = typename DerivedP::Scalar;
    using std::sqrt;
    detail::require_finite_point(p, "point_triangle_tangent_basis", "p");
    detail::require_finite_point(t0, "point_triangle_tangent_basis", "t0");
    detail::require_finite_point(t1, "point_triangle_tangent_basis", "t1");
    detail::require_finite_point(t2, "point_triangle_tangent_basis", "t2");
    const Vector3<Scalar> edge1 = t1 - t0;
    const Vector3<Scalar> edge2 = t2 - t0;
    const Vector3<Scalar> normal = edge1.cross(edge2);
    const Scalar normal_squared = normal.squaredNorm();
    require<degenerate_geometry>(normal_squared
            > detail::parallel_tolerance<Scalar>() * edge1.squaredNorm() * edge2.squaredNorm(),
        "point_triangle_tangent_basis: triangle (t0, t1, t2) has zero area");
    Matrix<Scalar, 3, 2> basis;
    basis.col(0) = edge1 / sqrt(edge1.squaredNorm());
    const Vector3<Scalar> second = normal.cross(edge1);
    basis.col(1) = second / sqrt(second.squaredNorm());
    return basis;
}

/// Tangent basis of an edge-edge contact between edges (a0, a1) and (b0, b1)
/// (m): the plane spanned by both edge directions, first column along
/// a1 - a0. Throws ipc::degenerate_geometry for a zero-length edge or
/// parallel edges (sin^2 of their angle below 1e-20).
template <typename DerivedA0, typename DerivedA1, typename DerivedB0, typename DerivedB1>
Matrix<typename DerivedA0::Scalar, 3, 2> edge_edge_tangent_basis(
    const Eigen::MatrixBase<DerivedA0>& a0, const Eigen::MatrixBase<DerivedA1>& a1,
    const Eigen::MatrixBase<DerivedB0>& b0, const Eigen::MatrixBase<DerivedB1>& b1)
{
    using Scalar = typename DerivedA0::Scalar;
    using std::sqrt;
    detail::require_finite_point(a0, "edge_edge_tangent_basis", "a0");
    detail::require_finite_point(a1, "edge_edge_tangent_basis", "a1");
    detail::require_finite_point(b0, "edge_edge_tangent_basis", "b0");
    detail::require_finite_point(b1, "edge_edge_tangent_basis", "b1");
    const Vector3<Scalar> edge_a = a1 - a0;
    const Vector3<Scalar> edge_b = b1 - b0;
    const Scalar length_a = edge_a.squaredNorm();
    const Scalar length_b = edge_b.squaredNorm();
    require<degenerate_geometry>(length_a > Scalar(0),
        "edge_edge_tangent_basis: edge (a0, a1) has zero length");
    require<degenerate_geometry>(length_b > Scalar(0),
        "edge_edge_tangent_basis: edge (b0, b1) has zero length");
    const Vector3<Scalar> normal = edge_a.cross(edge_b);
    require<degenerate_geometry>(
        normal.squaredNorm() > detail::parallel_tolerance<Scalar>() * length_a * length_b,
        "edge_edge_tangent_basis: edges are parallel; reduce the pair to point-edge");
    Matrix<Scalar, 3, 2> basis;
    basis.col(0) = edge_a / sqrt(length_a);
    const Vector3<Scalar> second = normal.cross(edge_a);
    basis.col(1) = second / sqrt(second.squaredNorm());
    return basis;
}

} // namespace ipc
