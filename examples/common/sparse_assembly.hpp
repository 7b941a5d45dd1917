#pragma once
/// @file
/// Small helpers between per-vertex data and global systems (3 coordinates
/// per vertex, global index 3 v + c): gathering a stencil's positions, and
/// holding vertices (fixed or scripted) in a Newton system without
/// renumbering its unknowns.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <cstddef>
#include <vector>

namespace ipc::examples {

/// Gathers the positions of the listed vertices (rows of V) into one vector.
template <std::size_t N>
Vector<double, 3 * int(N)> gather(const Eigen::MatrixXd& V, const std::array<Index, N>& vertices)
{
    Vector<double, 3 * int(N)> x;
    for (std::size_t i = 0; i < N; ++i) {
        x.template segment<3>(3 * Index(i)) = V.row(vertices[i]).transpose();
    }
    return x;
}

/// Zeroes the entries of a 3n vector (gradient, step) that belong to held
/// vertices (held[v] true).
inline void zero_held(Eigen::VectorXd& g, const std::vector<bool>& held)
{
    require(g.size() == 3 * Index(held.size()), "zero_held: vector of size ", g.size(), ", expected ",
        3 * held.size());
    for (std::size_t v = 0; v < held.size(); ++v) {
        if (held[v]) {
            g.segment<3>(3 * Index(v)).setZero();
        }
    }
}

/// Turns the rows and columns of held vertices' coordinates in a 3n x 3n
/// sparse matrix into those of the identity, keeping its sparsity pattern:
/// solving H p = -g with zero_held(g) then gives p = 0 there and leaves the
/// free unknowns' system unchanged. Every held coordinate needs a stored
/// diagonal entry (ipc::invalid_argument otherwise).
inline void hold_dofs(Eigen::SparseMatrix<double>& H, const std::vector<bool>& held)
{
    require(H.rows() == 3 * Index(held.size()) && H.cols() == H.rows(), "hold_dofs: matrix is ", H.rows(), " x ",
        H.cols(), ", expected ", 3 * held.size(), " square");
    H.makeCompressed();
    const auto is_held = [&](Index i) { return bool(held[std::size_t(i / 3)]); };
    for (Index j = 0; j < H.outerSize(); ++j) {
        const bool column_held = is_held(j);
        bool diagonal = false;
        for (Eigen::SparseMatrix<double>::InnerIterator it(H, j); it; ++it) {
            if (column_held || is_held(it.row())) {
                diagonal = diagonal || it.row() == j;
                it.valueRef() = it.row() == j ? 1.0 : 0.0;
            }
        }
        require(!column_held || diagonal, "hold_dofs: held coordinate ", j, " has no stored diagonal entry");
    }
}

} // namespace ipc::examples
