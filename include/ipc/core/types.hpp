#pragma once
/// @file
/// Fixed-size Eigen vocabulary shared by every building block.

#include <Eigen/Core>

namespace ipc {

/// Column vector of N scalars.
template <typename Scalar, int N> using Vector = Eigen::Matrix<Scalar, N, 1>;
/// Column vector of 2 scalars (a 2D point or direction).
template <typename Scalar> using Vector2 = Vector<Scalar, 2>;
/// Column vector of 3 scalars (a 3D point or direction).
template <typename Scalar> using Vector3 = Vector<Scalar, 3>;

/// R x C matrix.
template <typename Scalar, int R, int C = R> using Matrix = Eigen::Matrix<Scalar, R, C>;

/// Vertex positions of a mesh: one row per vertex, DIM columns.
template <typename Scalar, int DIM = Eigen::Dynamic>
using Positions = Eigen::Matrix<Scalar, Eigen::Dynamic, DIM>;

/// Signed integer type of vertex, edge, face and pair indices (Eigen's index type).
using Index = Eigen::Index;

} // namespace ipc
