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

/// Zeroes the entries of a dim n vector (gradient, step; dim = 3, or 2 for
/// 2D models) that belong to held vertices (held[v] true).
inline void zero_held(Eigen::VectorXd& g, const std::vector<bool>& held, int dim = 3)
{
    require(g.size() == dim * Index(held.size()), "zero_held: vector of size ", g.size(), ", expected ",
        dim * Index(held.size()));
    for (std::size_t v = 0; v < held.size(); ++v) {
        if (held[v]) {
            g.segment(dim * Index(v), dim).setZero();
        }
    }
}

/// A += scale * B for sparse matrices of the same size. When B's pattern is
/// contained in A's (an elastic Hessian plus contact, friction or strain
/// terms on the same stencils) the sum is formed in place, column by column,
/// without allocating; otherwise Eigen's general sum builds the union.
inline void add_scaled(Eigen::SparseMatrix<double>& A, const Eigen::SparseMatrix<double>& B, double scale = 1.0)
{
    require(A.rows() == B.rows() && A.cols() == B.cols(), "add_scaled: sizes ", A.rows(), " x ", A.cols(), " and ",
        B.rows(), " x ", B.cols(), " differ");
    A.makeCompressed();
    const auto contained = [&] {
        if (!B.isCompressed()) {
            return false;
        }
        for (Index j = 0; j < A.outerSize(); ++j) {
            Index a = A.outerIndexPtr()[j];
            const Index a_end = A.outerIndexPtr()[j + 1];
            for (Index b = B.outerIndexPtr()[j]; b < B.outerIndexPtr()[j + 1]; ++b) {
                while (a < a_end && A.innerIndexPtr()[a] < B.innerIndexPtr()[b]) {
                    ++a;
                }
                if (a == a_end || A.innerIndexPtr()[a] != B.innerIndexPtr()[b]) {
                    return false;
                }
            }
        }
        return true;
    };
    if (!contained()) {
        A += scale * B;
        return;
    }
    for (Index j = 0; j < A.outerSize(); ++j) {
        Index a = A.outerIndexPtr()[j];
        for (Index b = B.outerIndexPtr()[j]; b < B.outerIndexPtr()[j + 1]; ++b) {
            while (A.innerIndexPtr()[a] < B.innerIndexPtr()[b]) {
                ++a;
            }
            A.valuePtr()[a] += scale * B.valuePtr()[b];
        }
    }
}

namespace detail {
    /// Removes the entries of a dim n x dim n sparse matrix in the rows and
    /// columns of held vertices' coordinates, their diagonal kept or not.
    inline void prune_held(Eigen::SparseMatrix<double>& H, const std::vector<bool>& held, int dim,
        bool keep_diagonal, const char* where)
    {
        require(dim == 2 || dim == 3, where, ": dim must be 2 or 3, got ", dim);
        require(H.rows() == dim * Index(held.size()) && H.cols() == H.rows(), where, ": matrix is ", H.rows(), " x ",
            H.cols(), ", expected ", dim * Index(held.size()), " square");
        H.prune([&](Index row, Index col, double) {
            return (keep_diagonal && row == col) || !(held[std::size_t(row / dim)] || held[std::size_t(col / dim)]);
        });
    }
} // namespace detail

/// Removes from a dim n x dim n sparse matrix (dim = 3, or 2 for 2D models)
/// every entry in a row or column of a held vertex's coordinates (held[v]
/// true), so that a contact or friction Hessian touching obstacles adds
/// nothing outside the free unknowns.
inline void drop_held(Eigen::SparseMatrix<double>& H, const std::vector<bool>& held, int dim = 3)
{
    detail::prune_held(H, held, dim, false, "drop_held");
}

/// Turns the rows and columns of held vertices' coordinates in a dim n x
/// dim n sparse matrix (dim = 3, or 2 for 2D models) into those of the
/// identity: their off-diagonal entries are
/// removed from the pattern and their diagonal set to one. Solving H p = -g
/// with zero_held(g) then gives p = 0 there and leaves the free unknowns'
/// system unchanged. Removing the entries (rather than storing zeros) keeps
/// the pattern independent of contacts with held (obstacle) vertices, so a
/// factorisation's symbolic analysis can be reused across them. Every held
/// coordinate needs a stored diagonal entry (ipc::invalid_argument
/// otherwise).
inline void hold_dofs(Eigen::SparseMatrix<double>& H, const std::vector<bool>& held, int dim = 3)
{
    detail::prune_held(H, held, dim, true, "hold_dofs");
    for (Index j = 0; j < H.outerSize(); ++j) {
        if (!held[std::size_t(j / dim)]) {
            continue;
        }
        Eigen::SparseMatrix<double>::InnerIterator it(H, j);
        require(it && it.row() == j, "hold_dofs: held coordinate ", j, " has no stored diagonal entry");
        it.valueRef() = 1.0;
    }
}

} // namespace ipc::examples
