#pragma once
/// @file
/// Small fixed-size helpers shared by the elasticity stencils: the cross
/// product matrix and the scatter of a bilinear form's second derivative onto
/// vertex blocks.

#include <ipc/core/types.hpp>

#include <array>

namespace ipc::examples {

/// Cross-product matrix: cross_matrix(a) * b == a.cross(b).
template <typename Scalar> Matrix<Scalar, 3> cross_matrix(const Vector3<Scalar>& a)
{
    Matrix<Scalar, 3> m;
    m << Scalar(0), -a.z(), a.y(), a.z(), Scalar(0), -a.x(), -a.y(), a.x(), Scalar(0);
    return m;
}

/// For a term p^T M q where p = sum_i cp[i] x_i and q = sum_j cq[j] x_j are
/// fixed linear combinations of the stencil's N vertices (3 coordinates
/// each), adds its (constant) Hessian with respect to the 3N coordinates to H.
template <typename Scalar, int N>
void add_bilinear_hessian(
    Matrix<Scalar, 3 * N>& H, const std::array<Scalar, N>& cp, const std::array<Scalar, N>& cq,
    const Matrix<Scalar, 3>& M)
{
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) {
            const Scalar a = cp[i] * cq[j];
            const Scalar b = cq[i] * cp[j];
            if (a != Scalar(0)) {
                H.template block<3, 3>(3 * i, 3 * j) += a * M;
            }
            if (b != Scalar(0)) {
                H.template block<3, 3>(3 * i, 3 * j) += b * M.transpose();
            }
        }
    }
}

} // namespace ipc::examples
