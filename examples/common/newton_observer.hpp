#pragma once
/// @file
/// A hook for studies of the linear systems an example solver solves (for
/// instance their condition numbers, examples/al/conditioning.cpp).

#include <Eigen/SparseCore>

#include <functional>
#include <vector>

namespace ipc::examples {

/// Called with each Newton matrix H (3n x 3n, symmetric) just before it is
/// solved, and the per-vertex mask of the coordinates that are out of the
/// system this iteration (held: identity rows and columns in H).
using NewtonMatrixObserver = std::function<void(const Eigen::SparseMatrix<double>& H, const std::vector<bool>& held)>;

} // namespace ipc::examples
