#pragma once
/// @file
/// Smallest gap of a mesh configuration: min over admissible pairs of
/// (distance - xi), where xi = r_a + r_b is the pair's offset. Positive when
/// every pair is clear of its offset; the number a step size or an initial
/// configuration check compares against.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ipc {
namespace detail {

    /// Smallest (distance - offset) over the given candidates (+inf if none).
    template <int DIM>
    double smallest_gap(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V, const Candidates& candidates)
    {
        using Point = Eigen::Matrix<double, DIM, 1>;
        const Eigen::MatrixXi& E = mesh.edges();
        const Eigen::MatrixXi& F = mesh.faces();
        const auto x = [&](Index v) -> Point { return V.row(v).transpose(); };
        const auto gap = [](double distance_squared, double offset) {
            return std::sqrt(std::max(distance_squared, 0.0)) - offset;
        };
        const std::ptrdiff_t sizes[4] = { std::ptrdiff_t(candidates.vertex_vertex.size()),
                                          std::ptrdiff_t(candidates.edge_vertex.size()),
                                          std::ptrdiff_t(candidates.edge_edge.size()),
                                          std::ptrdiff_t(candidates.face_vertex.size()) };
        const std::ptrdiff_t total = sizes[0] + sizes[1] + sizes[2] + sizes[3];
        const std::ptrdiff_t num_blocks = work_blocks(total);
        std::vector<double> block_min(size_t(num_blocks), std::numeric_limits<double>::infinity());
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            double best = std::numeric_limits<double>::infinity();
            for (std::ptrdiff_t i = total * block / num_blocks; i < total * (block + 1) / num_blocks; ++i) {
                std::ptrdiff_t k = i;
                double value;
                if (k < sizes[0]) {
                    const VertexVertexCandidate& c = candidates.vertex_vertex[size_t(k)];
                    value = gap(point_point_distance_squared(x(c.v0), x(c.v1)), mesh.vertex_vertex_offset(c.v0, c.v1));
                } else if ((k -= sizes[0]) < sizes[1]) {
                    const EdgeVertexCandidate& c = candidates.edge_vertex[size_t(k)];
                    value = gap(point_edge_distance_squared(x(c.vertex), x(E(c.edge, 0)), x(E(c.edge, 1))),
                                mesh.edge_vertex_offset(c.edge, c.vertex));
                } else if ((k -= sizes[1]) < sizes[2]) {
                    if constexpr (DIM == 3) {
                        const EdgeEdgeCandidate& c = candidates.edge_edge[size_t(k)];
                        value = gap(edge_edge_distance_squared(x(E(c.edge0, 0)), x(E(c.edge0, 1)), x(E(c.edge1, 0)),
                                                               x(E(c.edge1, 1))),
                                    mesh.edge_edge_offset(c.edge0, c.edge1));
                    } else {
                        value = std::numeric_limits<double>::infinity();
                    }
                } else {
                    k -= sizes[2];
                    if constexpr (DIM == 3) {
                        const FaceVertexCandidate& c = candidates.face_vertex[size_t(k)];
                        value = gap(point_triangle_distance_squared(x(c.vertex), x(F(c.face, 0)), x(F(c.face, 1)),
                                                                    x(F(c.face, 2))),
                                    mesh.face_vertex_offset(c.face, c.vertex));
                    } else {
                        value = std::numeric_limits<double>::infinity();
                    }
                }
                best = std::min(best, value);
            }
            block_min[size_t(block)] = best;
        });
        return *std::min_element(block_min.begin(), block_min.end());
    }

} // namespace detail

/// Smallest (distance - xi) over all admissible pairs of the mesh at
/// positions V (n x dim, metres), following the mesh's pair rules; +inf when
/// the mesh has no admissible pair. Negative when some pair is inside its
/// offset. Searches with static candidates of a growing activation distance
/// (starting at 1e-3 of the bounding-box diagonal, times 4 each round) until
/// a pair closer than that distance is found or every pair is a candidate, so
/// the result is the exact minimum over all pairs (up to the distance
/// kernels' rounding). Validates V (throws ipc::invalid_argument).
inline double minimum_distance(
    const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    mesh.check_positions(V, "minimum_distance: positions V");
    if (mesh.num_vertices() == 0) {
        return std::numeric_limits<double>::infinity();
    }
    const double diagonal = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
    double search = diagonal > 0.0 ? 1e-3 * diagonal : 1.0;
    for (;;) {
        const Candidates candidates = static_candidates(mesh, V, search, method);
        const double gap = mesh.dim() == 3 ? detail::smallest_gap<3>(mesh, V, candidates)
                                           : detail::smallest_gap<2>(mesh, V, candidates);
        // Pairs that are not candidates are at least `search` beyond their offset.
        if (gap < search || search > diagonal) {
            return gap;
        }
        search *= 4.0;
    }
}

} // namespace ipc
