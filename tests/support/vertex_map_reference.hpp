#pragma once
// Reference for potentials laid out through a VertexMap: the collision-mesh
// gradient and Hessian moved, entry by entry, to the rows of the full mesh
// (the product with the selection matrix S, g -> S g and H -> S H S^T,
// written as plain loops), and random maps to test with.

#include <ipc/core/types.hpp>
#include <ipc/potentials/assembly_layout.hpp>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace ipc::test {

/// A map of n collision vertices into a mesh of n + extra vertices: in
/// increasing order (monotone) or shuffled, with the extra vertices spread
/// between them.
inline VertexMap spread_vertex_map(Index n, Index extra, bool monotone, unsigned seed)
{
    std::mt19937 generator(seed);
    std::vector<Index> slots(static_cast<std::size_t>(n + extra));
    std::iota(slots.begin(), slots.end(), Index(0));
    std::shuffle(slots.begin(), slots.end(), generator);
    slots.resize(static_cast<std::size_t>(n));
    if (monotone) {
        std::sort(slots.begin(), slots.end());
    }
    return VertexMap(slots, n + extra);
}

/// S g for a gradient of dim entries per collision vertex.
inline Eigen::VectorXd mapped_gradient(const Eigen::VectorXd& g, const VertexMap& map, int dim)
{
    Eigen::VectorXd out = Eigen::VectorXd::Zero(dim * map.num_full_vertices());
    for (Index v = 0; v < Index(g.size() / dim); ++v) {
        out.segment(dim * map(v), dim) += g.segment(dim * v, dim);
    }
    return out;
}

/// S H S^T, dense.
inline Eigen::MatrixXd mapped_hessian(const Eigen::SparseMatrix<double>& H, const VertexMap& map, int dim)
{
    const Index n = dim * map.num_full_vertices();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(n, n);
    for (int col = 0; col < H.outerSize(); ++col) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(H, col); it; ++it) {
            const Index row = dim * map(it.row() / dim) + it.row() % dim;
            out(row, dim * map(col / dim) + col % dim) += it.value();
        }
    }
    return out;
}

} // namespace ipc::test
