#pragma once
/// @file
/// Rest shape of a triangle (inverse rest matrix and rest area), its 3x2
/// deformation gradient F = [x1 - x0, x2 - x0] * Dm^{-1}, and the constant
/// linear map dF/dx that carries F-space derivatives to the nine nodal
/// coordinates [x0; x1; x2].

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ipc {

/// What the strain-limit kernels need to know about a rest triangle.
template <typename Scalar> struct TriangleRestShape {
    /// Dm^{-1}: inverse of the 2x2 matrix whose columns are the rest edges
    /// X1 - X0 and X2 - X0 written in a 2D rest frame (1/metres).
    Matrix<Scalar, 2, 2> inverse_rest_matrix = Matrix<Scalar, 2, 2>::Identity();
    /// Rest area (square metres).
    Scalar area = Scalar(0);
};

namespace detail {
    /// Builds the rest shape from the 2x2 rest matrix Dm; checks that the
    /// triangle has area (relative to its longest edge squared).
    template <typename Scalar>
    TriangleRestShape<Scalar> rest_shape_from_matrix(const Matrix<Scalar, 2, 2>& rest_matrix)
    {
        using std::abs;
        const Vector2<Scalar> edge0 = rest_matrix.col(0);
        const Vector2<Scalar> edge1 = rest_matrix.col(1);
        const Vector2<Scalar> edge2 = edge1 - edge0;
        const Scalar longest_squared = std::max(
            { edge0.squaredNorm(), edge1.squaredNorm(), edge2.squaredNorm() });
        const Scalar determinant = rest_matrix(0, 0) * rest_matrix(1, 1)
            - rest_matrix(0, 1) * rest_matrix(1, 0);
        require<degenerate_geometry>(longest_squared > Scalar(0)
                && abs(determinant) > Scalar(16) * std::numeric_limits<Scalar>::epsilon()
                        * longest_squared,
            "triangle_rest_shape: rest triangle has (near) zero area: twice its area is ",
            abs(determinant), ", its longest edge squared is ", longest_squared);
        TriangleRestShape<Scalar> shape;
        shape.inverse_rest_matrix << rest_matrix(1, 1), -rest_matrix(0, 1), -rest_matrix(1, 0),
            rest_matrix(0, 0);
        shape.inverse_rest_matrix /= determinant;
        shape.area = abs(determinant) / Scalar(2);
        return shape;
    }

    /// Rest matrix of a 3D triangle in the in-plane orthonormal frame
    /// (first_axis, normal x first_axis).
    template <typename Scalar>
    Matrix<Scalar, 2, 2> rest_matrix_in_frame(const Vector3<Scalar>& edge1,
        const Vector3<Scalar>& edge2, const Vector3<Scalar>& first_axis,
        const Vector3<Scalar>& second_axis)
    {
        Matrix<Scalar, 2, 2> rest_matrix;
        rest_matrix << first_axis.dot(edge1), first_axis.dot(edge2), second_axis.dot(edge1),
            second_axis.dot(edge2);
        return rest_matrix;
    }
} // namespace detail

/// Rest shape of a triangle given by its 2D material coordinates (metres),
/// e.g. positions on the cloth pattern with warp along the first axis.
/// Throws ipc::invalid_argument on NaN/inf coordinates and
/// ipc::degenerate_geometry on a zero-area triangle. Either orientation is
/// accepted.
template <typename Scalar>
TriangleRestShape<Scalar> triangle_rest_shape(
    const Vector2<Scalar>& X0, const Vector2<Scalar>& X1, const Vector2<Scalar>& X2)
{
    require(all_finite(X0) && all_finite(X1) && all_finite(X2),
        "triangle_rest_shape: rest positions must be finite, got (", X0.transpose(), "), (",
        X1.transpose(), "), (", X2.transpose(), ")");
    Matrix<Scalar, 2, 2> rest_matrix;
    rest_matrix.col(0) = X1 - X0;
    rest_matrix.col(1) = X2 - X0;
    return detail::rest_shape_from_matrix(rest_matrix);
}

/// Rest shape of a triangle given by its 3D rest positions (metres). The rest
/// frame has its first axis along X1 - X0 (for isotropic models the frame
/// does not matter). Throws ipc::invalid_argument on NaN/inf and
/// ipc::degenerate_geometry on a zero-area triangle.
template <typename Scalar>
TriangleRestShape<Scalar> triangle_rest_shape(
    const Vector3<Scalar>& X0, const Vector3<Scalar>& X1, const Vector3<Scalar>& X2)
{
    require(all_finite(X0) && all_finite(X1) && all_finite(X2),
        "triangle_rest_shape: rest positions must be finite, got (", X0.transpose(), "), (",
        X1.transpose(), "), (", X2.transpose(), ")");
    const Vector3<Scalar> edge1 = X1 - X0;
    const Vector3<Scalar> edge2 = X2 - X0;
    const Vector3<Scalar> normal = edge1.cross(edge2);
    const Scalar edge1_length = edge1.norm();
    const Scalar normal_length = normal.norm();
    const Scalar longest_squared
        = std::max({ edge1.squaredNorm(), edge2.squaredNorm(), (X2 - X1).squaredNorm() });
    require<degenerate_geometry>(longest_squared > Scalar(0) && edge1_length > Scalar(0)
            && normal_length
                > Scalar(16) * std::numeric_limits<Scalar>::epsilon() * longest_squared,
        "triangle_rest_shape: rest triangle has (near) zero area: twice its area is ",
        normal_length, ", its longest edge squared is ", longest_squared);
    const Vector3<Scalar> first_axis = edge1 / edge1_length;
    const Vector3<Scalar> second_axis = (normal / normal_length).cross(first_axis);
    return detail::rest_shape_from_matrix(
        detail::rest_matrix_in_frame(edge1, edge2, first_axis, second_axis));
}

/// Rest shape of a 3D rest triangle whose rest frame's first axis is the
/// given material direction (e.g. the warp direction of a woven cloth)
/// projected into the triangle's plane; needed by the anisotropic model.
/// Throws ipc::invalid_argument on NaN/inf or a direction (nearly) normal to
/// the triangle, ipc::degenerate_geometry on a zero-area triangle.
template <typename Scalar>
TriangleRestShape<Scalar> triangle_rest_shape(const Vector3<Scalar>& X0,
    const Vector3<Scalar>& X1, const Vector3<Scalar>& X2, const Vector3<Scalar>& first_direction)
{
    require(all_finite(X0) && all_finite(X1) && all_finite(X2) && all_finite(first_direction),
        "triangle_rest_shape: rest positions and material direction must be finite");
    const Vector3<Scalar> edge1 = X1 - X0;
    const Vector3<Scalar> edge2 = X2 - X0;
    const Vector3<Scalar> normal = edge1.cross(edge2);
    const Scalar normal_length = normal.norm();
    const Scalar longest_squared
        = std::max({ edge1.squaredNorm(), edge2.squaredNorm(), (X2 - X1).squaredNorm() });
    require<degenerate_geometry>(longest_squared > Scalar(0)
            && normal_length
                > Scalar(16) * std::numeric_limits<Scalar>::epsilon() * longest_squared,
        "triangle_rest_shape: rest triangle has (near) zero area: twice its area is ",
        normal_length, ", its longest edge squared is ", longest_squared);
    const Vector3<Scalar> unit_normal = normal / normal_length;
    const Vector3<Scalar> in_plane
        = first_direction - first_direction.dot(unit_normal) * unit_normal;
    const Scalar in_plane_length = in_plane.norm();
    using std::sqrt;
    require(in_plane_length > sqrt(std::numeric_limits<Scalar>::epsilon()) * first_direction.norm()
            && in_plane_length > Scalar(0),
        "triangle_rest_shape: material direction (", first_direction.transpose(),
        ") is zero or (nearly) normal to the triangle");
    const Vector3<Scalar> first_axis = in_plane / in_plane_length;
    const Vector3<Scalar> second_axis = unit_normal.cross(first_axis);
    return detail::rest_shape_from_matrix(
        detail::rest_matrix_in_frame(edge1, edge2, first_axis, second_axis));
}

/// Deformation gradient F = [x1 - x0, x2 - x0] * Dm^{-1} (3x2, dimensionless)
/// of a triangle with current positions x0, x1, x2 (metres). Does not
/// validate.
template <typename Scalar>
Matrix<Scalar, 3, 2> triangle_deformation_gradient(const Vector3<Scalar>& x0,
    const Vector3<Scalar>& x1, const Vector3<Scalar>& x2,
    const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
{
    Matrix<Scalar, 3, 2> edges;
    edges.col(0) = x1 - x0;
    edges.col(1) = x2 - x0;
    return edges * inverse_rest_matrix;
}

/// The constant 6x9 Jacobian dvec(F)/dx, with vec(F) = [F.col(0); F.col(1)]
/// and x = [x0; x1; x2]. Each entry is a 3x3 multiple of the identity.
template <typename Scalar>
Matrix<Scalar, 6, 9> deformation_gradient_jacobian(const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
{
    Matrix<Scalar, 6, 9> jacobian = Matrix<Scalar, 6, 9>::Zero();
    const Matrix<Scalar, 3, 3> identity = Matrix<Scalar, 3, 3>::Identity();
    for (int column = 0; column < 2; ++column) {
        const Scalar weight1 = inverse_rest_matrix(0, column);
        const Scalar weight2 = inverse_rest_matrix(1, column);
        jacobian.template block<3, 3>(3 * column, 0) = -(weight1 + weight2) * identity;
        jacobian.template block<3, 3>(3 * column, 3) = weight1 * identity;
        jacobian.template block<3, 3>(3 * column, 6) = weight2 * identity;
    }
    return jacobian;
}

namespace detail {
    /// Weight of vertex `vertex` (0..2) in column `column` of F.
    template <typename Scalar>
    Matrix<Scalar, 2, 3> vertex_weights(const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
    {
        Matrix<Scalar, 2, 3> weights;
        for (int column = 0; column < 2; ++column) {
            weights(column, 1) = inverse_rest_matrix(0, column);
            weights(column, 2) = inverse_rest_matrix(1, column);
            weights(column, 0) = -(weights(column, 1) + weights(column, 2));
        }
        return weights;
    }
} // namespace detail

/// Carries an F-space gradient dE/dF (3x2) to the nodal gradient dE/dx (9):
/// (dF/dx)^T vec(dE/dF), without forming dF/dx.
template <typename Scalar>
Vector<Scalar, 9> pull_back_gradient(
    const Matrix<Scalar, 3, 2>& gradient_in_F, const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
{
    const Matrix<Scalar, 3, 2> rows = gradient_in_F * inverse_rest_matrix.transpose();
    Vector<Scalar, 9> gradient;
    gradient.template segment<3>(3) = rows.col(0);
    gradient.template segment<3>(6) = rows.col(1);
    gradient.template segment<3>(0) = -(rows.col(0) + rows.col(1));
    return gradient;
}

/// Carries an F-space Hessian d2E/dvec(F)^2 (6x6) to the nodal Hessian
/// (dF/dx)^T H (dF/dx) (9x9), without forming dF/dx. PSD in, PSD out.
template <typename Scalar>
Matrix<Scalar, 9, 9> pull_back_hessian(
    const Matrix<Scalar, 6, 6>& hessian_in_F, const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
{
    const Matrix<Scalar, 2, 3> weights = detail::vertex_weights(inverse_rest_matrix);
    // First contract the row index: (6x6) -> (9x6).
    Matrix<Scalar, 9, 6> half;
    for (int vertex = 0; vertex < 3; ++vertex) {
        half.template middleRows<3>(3 * vertex) = weights(0, vertex) * hessian_in_F.template topRows<3>()
            + weights(1, vertex) * hessian_in_F.template bottomRows<3>();
    }
    Matrix<Scalar, 9, 9> hessian;
    for (int vertex = 0; vertex < 3; ++vertex) {
        hessian.template middleCols<3>(3 * vertex) = weights(0, vertex) * half.template leftCols<3>()
            + weights(1, vertex) * half.template rightCols<3>();
    }
    return hessian;
}

} // namespace ipc
