#pragma once
/// @file
/// Fixed-size Eigen vocabulary shared by every building block.

#include <Eigen/Core>

namespace ipc {

/// Column vector of N scalars.
template <typename Scalar, int N> using Vector = Eigen::Matrix<Scalar, N, 1>;
template <typename Scalar> using Vector2 = Vector<Scalar, 2>;
template <typename Scalar> using Vector3 = Vector<Scalar, 3>;

/// R x C matrix.
template <typename Scalar, int R, int C = R> using Matrix = Eigen::Matrix<Scalar, R, C>;

/// Vertex positions of a mesh: one row per vertex, DIM columns.
template <typename Scalar, int DIM = Eigen::Dynamic>
using Positions = Eigen::Matrix<Scalar, Eigen::Dynamic, DIM>;

using Index = Eigen::Index;

} // namespace ipc
