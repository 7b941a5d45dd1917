#pragma once
/// @file
/// Projection of a small symmetric matrix to the cone of positive
/// semi-definite matrices, used on per-stencil Hessians before assembly.

#include <Eigen/Eigenvalues>

namespace ipc {

/// How negative eigenvalues are treated.
enum class PSDProjection {
    none,  ///< leave the matrix as it is
    clamp, ///< set negative eigenvalues to zero (closest PSD matrix)
    abs,   ///< flip their sign (keeps curvature magnitude)
};

/// Returns H with its eigenvalues clamped at zero (or replaced by their
/// absolute values). H is assumed symmetric; only its lower triangle is read.
template <typename Derived>
Eigen::Matrix<typename Derived::Scalar, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime>
project_to_psd(const Eigen::MatrixBase<Derived>& H, PSDProjection method = PSDProjection::clamp)
{
    using Scalar = typename Derived::Scalar;
    using MatrixType = Eigen::Matrix<Scalar, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime>;
    if (method == PSDProjection::none) {
        return H;
    }
    const Eigen::SelfAdjointEigenSolver<MatrixType> eig(H.eval());
    auto values = eig.eigenvalues().eval();
    bool changed = false;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        if (values[i] < Scalar(0)) {
            values[i] = method == PSDProjection::abs ? Scalar(-values[i]) : Scalar(0);
            changed = true;
        }
    }
    if (!changed) {
        return H;
    }
    return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

} // namespace ipc
