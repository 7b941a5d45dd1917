#pragma once
/// @file
/// Local-to-global assembly of per-stencil gradients and Hessians (3
/// coordinates per vertex, global index 3 v + c), and the restriction of a
/// system to its free degrees of freedom.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Sparse>

#include <array>
#include <cstddef>
#include <vector>

namespace ipc::examples {

using Triplets = std::vector<Eigen::Triplet<double>>;

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

/// g[3 v_i + c] += local[3 i + c].
template <std::size_t N, typename Derived>
void add_local_gradient(
    Eigen::VectorXd& g, const std::array<Index, N>& vertices, const Eigen::MatrixBase<Derived>& local)
{
    for (std::size_t i = 0; i < N; ++i) {
        g.segment<3>(3 * vertices[i]) += local.template segment<3>(3 * Index(i));
    }
}

/// Appends the entries of a local 3N x 3N Hessian as global triplets.
template <std::size_t N, typename Derived>
void add_local_hessian(
    Triplets& triplets, const std::array<Index, N>& vertices, const Eigen::MatrixBase<Derived>& local)
{
    for (std::size_t i = 0; i < N; ++i) {
        for (std::size_t j = 0; j < N; ++j) {
            for (int a = 0; a < 3; ++a) {
                for (int b = 0; b < 3; ++b) {
                    const double value = local(3 * Index(i) + a, 3 * Index(j) + b);
                    if (value != 0) {
                        triplets.emplace_back(3 * vertices[i] + a, 3 * vertices[j] + b, value);
                    }
                }
            }
        }
    }
}

/// Maps the 3n coordinates of n vertices to the unknowns of a solve in which
/// some vertices are held (fixed or scripted): free coordinates are numbered
/// consecutively, held ones get -1.
class DofMap {
public:
    DofMap() = default;
    /// held[v] true removes vertex v's three coordinates from the unknowns.
    explicit DofMap(const std::vector<bool>& held)
        : full_to_free_(3 * held.size(), -1)
    {
        for (std::size_t v = 0; v < held.size(); ++v) {
            if (held[v]) {
                continue;
            }
            for (int c = 0; c < 3; ++c) {
                full_to_free_[3 * v + std::size_t(c)] = Index(free_to_full_.size());
                free_to_full_.push_back(Index(3 * v) + c);
            }
        }
    }
    /// Number of unknowns.
    Index num_free() const { return Index(free_to_full_.size()); }
    /// Number of coordinates (3n).
    Index num_full() const { return Index(full_to_free_.size()); }
    /// Free index of full coordinate i, or -1.
    Index free_index(Index i) const { return full_to_free_[std::size_t(i)]; }

    /// The free entries of a full vector.
    Eigen::VectorXd restrict_vector(const Eigen::VectorXd& full) const
    {
        require(full.size() == num_full(), "DofMap: vector of size ", full.size(), ", expected ", num_full());
        Eigen::VectorXd r(num_free());
        for (Index k = 0; k < num_free(); ++k) {
            r[k] = full[free_to_full_[std::size_t(k)]];
        }
        return r;
    }
    /// A full vector with the free entries from reduced and zeros elsewhere.
    Eigen::VectorXd extend_vector(const Eigen::VectorXd& reduced) const
    {
        require(reduced.size() == num_free(), "DofMap: vector of size ", reduced.size(), ", expected ",
            num_free());
        Eigen::VectorXd full = Eigen::VectorXd::Zero(num_full());
        for (Index k = 0; k < num_free(); ++k) {
            full[free_to_full_[std::size_t(k)]] = reduced[k];
        }
        return full;
    }
    /// Keeps the free-free triplets, renumbered.
    void restrict_triplets(const Triplets& full, Triplets& out) const
    {
        for (const auto& t : full) {
            const Index r = free_index(t.row()), c = free_index(t.col());
            if (r >= 0 && c >= 0) {
                out.emplace_back(r, c, t.value());
            }
        }
    }
    /// Appends the free-free entries of a full sparse matrix as triplets.
    void restrict_matrix(const Eigen::SparseMatrix<double>& full, Triplets& out) const
    {
        for (Index k = 0; k < full.outerSize(); ++k) {
            for (Eigen::SparseMatrix<double>::InnerIterator it(full, k); it; ++it) {
                const Index r = free_index(it.row()), c = free_index(it.col());
                if (r >= 0 && c >= 0) {
                    out.emplace_back(r, c, it.value());
                }
            }
        }
    }

private:
    std::vector<Index> full_to_free_;
    std::vector<Index> free_to_full_;
};

} // namespace ipc::examples
