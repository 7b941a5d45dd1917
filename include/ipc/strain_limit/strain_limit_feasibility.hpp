#pragma once
/// @file
/// Strain-limit feasibility for the line-search filter (C-IPC Section 4.3):
/// no polynomial gives the largest feasible step for the isotropic limit, so
/// a line search halves its step until every triangle's largest singular
/// value stays below the limit. These predicates answer that question for a
/// triangle, a whole configuration, or a trial step x + alpha p.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/strain_limit/svd_3x2.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <Eigen/Core>

#include <cmath>
#include <vector>

namespace ipc {

/// Largest singular value sigma_1 of the triangle's deformation gradient
/// (dimensionless stretch). Does not validate.
template <typename Scalar>
Scalar triangle_largest_singular_value(const Vector3<Scalar>& x0, const Vector3<Scalar>& x1,
    const Vector3<Scalar>& x2, const Matrix<Scalar, 2, 2>& inverse_rest_matrix)
{
    return largest_singular_value(triangle_deformation_gradient(x0, x1, x2, inverse_rest_matrix));
}

/// True when the triangle's sigma_1 < limit. NaN positions give false.
template <typename Scalar>
bool is_strain_feasible(const Vector3<Scalar>& x0, const Vector3<Scalar>& x1,
    const Vector3<Scalar>& x2, const Matrix<Scalar, 2, 2>& inverse_rest_matrix,
    const Scalar& limit)
{
    return triangle_largest_singular_value(x0, x1, x2, inverse_rest_matrix) < limit;
}

namespace detail {
    template <typename DerivedPositions, typename DerivedFaces, typename Scalar>
    void check_feasibility_inputs(const Eigen::MatrixBase<DerivedPositions>& positions,
        const Eigen::MatrixBase<DerivedFaces>& faces,
        const std::vector<TriangleRestShape<Scalar>>& rest_shapes, const char* where)
    {
        require(positions.cols() == 3, where, ": positions must have 3 columns, got ",
            positions.cols());
        require(faces.cols() == 3, where, ": faces must have 3 columns, got ", faces.cols());
        require(static_cast<std::size_t>(faces.rows()) == rest_shapes.size(), where, ": ",
            faces.rows(), " faces but ", rest_shapes.size(), " rest shapes");
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (Eigen::Index k = 0; k < 3; ++k) {
                const auto vertex = faces(f, k);
                require(vertex >= 0 && Eigen::Index(vertex) < positions.rows(), where,
                    ": face ", f, " refers to vertex ", vertex, " but there are ",
                    positions.rows(), " vertices");
            }
        }
    }
} // namespace detail

/// True when every face (rows of `faces`, vertex indices into the rows of
/// `positions`, n x 3 in metres) has sigma_1 < limit. rest_shapes[f] belongs
/// to face f. Validates sizes and indices (ipc::invalid_argument); NaN
/// positions make the configuration infeasible.
template <typename DerivedPositions, typename DerivedFaces, typename Scalar>
bool is_strain_feasible(const Eigen::MatrixBase<DerivedPositions>& positions,
    const Eigen::MatrixBase<DerivedFaces>& faces,
    const std::vector<TriangleRestShape<Scalar>>& rest_shapes, const Scalar& limit)
{
    detail::check_feasibility_inputs(positions, faces, rest_shapes, "is_strain_feasible");
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        const Vector3<Scalar> x0 = positions.row(Eigen::Index(faces(f, 0))).transpose();
        const Vector3<Scalar> x1 = positions.row(Eigen::Index(faces(f, 1))).transpose();
        const Vector3<Scalar> x2 = positions.row(Eigen::Index(faces(f, 2))).transpose();
        if (!is_strain_feasible(x0, x1, x2, rest_shapes[std::size_t(f)].inverse_rest_matrix, limit)) {
            return false;
        }
    }
    return true;
}

/// True when the trial configuration positions + step_size * direction keeps
/// every face's sigma_1 < limit (the line-search filter). `direction` has the
/// shape of `positions` (metres). Validates shapes and indices.
template <typename DerivedPositions, typename DerivedDirection, typename DerivedFaces,
    typename Scalar>
bool is_step_strain_feasible(const Eigen::MatrixBase<DerivedPositions>& positions,
    const Eigen::MatrixBase<DerivedDirection>& direction, const Scalar& step_size,
    const Eigen::MatrixBase<DerivedFaces>& faces,
    const std::vector<TriangleRestShape<Scalar>>& rest_shapes, const Scalar& limit)
{
    detail::check_feasibility_inputs(positions, faces, rest_shapes, "is_step_strain_feasible");
    require(direction.rows() == positions.rows() && direction.cols() == positions.cols(),
        "is_step_strain_feasible: direction is ", direction.rows(), " x ", direction.cols(),
        ", positions are ", positions.rows(), " x ", positions.cols());
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        Vector3<Scalar> x[3];
        for (int k = 0; k < 3; ++k) {
            const Eigen::Index vertex = Eigen::Index(faces(f, k));
            x[k] = (positions.row(vertex) + step_size * direction.row(vertex)).transpose();
        }
        if (!is_strain_feasible(x[0], x[1], x[2], rest_shapes[std::size_t(f)].inverse_rest_matrix, limit)) {
            return false;
        }
    }
    return true;
}

} // namespace ipc
