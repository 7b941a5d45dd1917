#pragma once
/// @file
/// Every collision of a linear motion, not only the first: the (pair, toi)
/// hits of all admissible pairs that come within their offset while every
/// vertex moves from V0 to V1, and the per-vertex earliest-hit filter that
/// barrier-free solvers use to grow their constraint sets (Zheng et al.
/// 2025, Algorithm 3).
///
/// collision_hits shares the swept broad phase, the pair offsets and every
/// CCD method of collision_free_step_size. Each pair is queried over the
/// whole step (tmax = 1), after the same conservative separation filter,
/// which only drops pairs that the query would report as no hit. The result
/// does not depend on the thread count. The smallest toi over the hits is
/// the collision-free step size of the same motion (1 without hits), with
/// one exception for AdditiveCCD: the step size filters its second pass over
/// [0, alpha] only, and a pair it filters may still get an earlier toi over
/// the whole step when ACCD's last certified step crosses alpha and the gap
/// past alpha falls below ACCD's threshold. The step size is then larger
/// than the earliest hit; both are collision-free.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hit.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/collisions/pair_id.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc {

namespace detail {
    /// Queries count pairs (make(i) gives the stencil and the id of pair i)
    /// over the whole step, four at a time behind the separation filter, and
    /// appends the hits to `hits` in pair order.
    template <typename Make, typename CCD>
    void collect_hits(std::size_t count, const Make& make, const StepPositions& x, const CCD& ccd, double kept,
                      std::vector<CollisionHit>& hits)
    {
        using Stencil = std::decay_t<decltype(make(std::size_t(0)).first)>;
        constexpr int lanes = 4;
        const std::size_t batches = (count + lanes - 1) / lanes;
        const auto blocks = process_in_blocks<std::vector<CollisionHit>>(
            batches, [&](std::size_t batch, std::vector<CollisionHit>& out) {
                Stencil stencils[lanes];
                PairId ids[lanes];
                int used = 0;
                for (std::size_t i = batch * lanes, end = std::min(count, i + lanes); i < end; ++i, ++used) {
                    const auto made = make(i);
                    stencils[used] = made.first;
                    ids[used] = made.second;
                }
                bool apart[lanes];
                stencils_stay_apart(stencils, used, x, kept, apart);
                for (int l = 0; l < used; ++l) {
                    double toi = 1.0;
                    if (!apart[l] && stencils[l].query(x, ccd, toi, 1.0)) {
                        out.push_back({ ids[l], toi });
                    }
                }
            });
        for (const auto& block : blocks) {
            hits.insert(hits.end(), block.begin(), block.end());
        }
    }
} // namespace detail

/// Every hit of the motion V0 -> V1 over the given swept candidates.
/// candidates must contain every pair that may come within its offset +
/// min_distance during the motion (e.g. swept_candidates(mesh, V0, V1,
/// min_distance)).
/// @param candidates    pairs to query (indices into mesh)
/// @param mesh          2D or 3D collision mesh (radii give the offsets)
/// @param V0, V1        positions at the start and end of the step
///                      (n x mesh.dim(), m; 2D is queried in the plane z = 0)
/// @param min_distance  extra offset added to every pair's offset (m), >= 0
/// @param ccd           the narrow phase (any type with is_ccd_method_v)
/// @return the hits sorted by pair id, one per colliding pair; a pair at or
///         inside its offset at the start has toi 0.
/// Throws ipc::invalid_argument for bad positions, sizes, min_distance or
/// out-of-range candidates (naming the list, the index and the bound), and
/// for edge-edge or point-triangle candidates with a 2D mesh.
template <typename CCD = AdditiveCCD>
std::vector<CollisionHit> collision_hits(const Candidates& candidates, const CollisionMesh& mesh,
                                         const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                         const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                         const CCD& ccd = CCD())
{
    static_assert(is_ccd_method_v<CCD>, "collision_hits: CCD must satisfy ipc::is_ccd_method_v");
    mesh.check_positions(V0, "collision_hits: V0");
    mesh.check_positions(V1, "collision_hits: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_hits: min_distance must be finite and non-negative, got ", min_distance);
    require(mesh.dim() == 3 || (candidates.edge_edge.empty() && candidates.face_vertex.empty()),
            "collision_hits: a 2D mesh has point-edge and point-point pairs only, got ",
            candidates.edge_edge.size(), " edge-edge and ", candidates.face_vertex.size(),
            " point-triangle candidates");
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    const detail::StencilMaker make { mesh, min_distance };
    detail::StepPositions x = detail::pack_positions(V0, V1);
    x.prepare_bound(1.0);
    const double kept = detail::kept_gap_fraction(ccd);
    std::vector<CollisionHit> hits;
    detail::collect_hits(
        candidates.face_vertex.size(),
        [&](std::size_t i) {
            const FaceVertexCandidate& c = candidates.face_vertex[i];
            require(c.face >= 0 && c.face < nf && c.vertex >= 0 && c.vertex < nv, "collision_hits: candidates.face_vertex[",
                    i, "] = (face ", c.face, ", vertex ", c.vertex, ") is out of range (", nf, " faces, ", nv,
                    " vertices)");
            return std::make_pair(make.face_vertex(c.face, c.vertex), PairId::face_vertex(c.face, c.vertex));
        },
        x, ccd, kept, hits);
    detail::collect_hits(
        candidates.edge_edge.size(),
        [&](std::size_t i) {
            const EdgeEdgeCandidate& c = candidates.edge_edge[i];
            require(c.edge0 >= 0 && c.edge0 < ne && c.edge1 >= 0 && c.edge1 < ne, "collision_hits: candidates.edge_edge[",
                    i, "] = (edge ", c.edge0, ", edge ", c.edge1, ") is out of range (", ne, " edges)");
            return std::make_pair(make.edge_edge(c.edge0, c.edge1), PairId::edge_edge(c.edge0, c.edge1));
        },
        x, ccd, kept, hits);
    detail::collect_hits(
        candidates.edge_vertex.size(),
        [&](std::size_t i) {
            const EdgeVertexCandidate& c = candidates.edge_vertex[i];
            require(c.edge >= 0 && c.edge < ne && c.vertex >= 0 && c.vertex < nv, "collision_hits: candidates.edge_vertex[",
                    i, "] = (edge ", c.edge, ", vertex ", c.vertex, ") is out of range (", ne, " edges, ", nv,
                    " vertices)");
            return std::make_pair(make.edge_vertex(c.edge, c.vertex), PairId::edge_vertex(c.edge, c.vertex));
        },
        x, ccd, kept, hits);
    detail::collect_hits(
        candidates.vertex_vertex.size(),
        [&](std::size_t i) {
            const VertexVertexCandidate& c = candidates.vertex_vertex[i];
            require(c.v0 >= 0 && c.v0 < nv && c.v1 >= 0 && c.v1 < nv, "collision_hits: candidates.vertex_vertex[", i,
                    "] = (vertex ", c.v0, ", vertex ", c.v1, ") is out of range (", nv, " vertices)");
            return std::make_pair(make.vertex_vertex(c.v0, c.v1), PairId::vertex_vertex(c.v0, c.v1));
        },
        x, ccd, kept, hits);
    std::sort(hits.begin(), hits.end(), [](const CollisionHit& p, const CollisionHit& q) { return p.pair < q.pair; });
    return hits;
}

/// Every hit of the motion V0 -> V1 over the whole mesh: swept broad phase
/// (the given method) plus the narrow phase; see the overload above.
template <typename CCD = AdditiveCCD>
std::vector<CollisionHit> collision_hits(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                         const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                         BroadPhaseMethod method = BroadPhaseMethod::bvh, const CCD& ccd = CCD())
{
    mesh.check_positions(V0, "collision_hits: V0");
    mesh.check_positions(V1, "collision_hits: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_hits: min_distance must be finite and non-negative, got ", min_distance);
    return collision_hits(swept_candidates(mesh, V0, V1, min_distance, method), mesh, V0, V1, min_distance, ccd);
}

/// The smallest toi over hits, 1 when there is none: the collision-free step
/// size of the motion the hits came from.
inline double earliest_toi(const std::vector<CollisionHit>& hits)
{
    double toi = 1.0;
    for (const CollisionHit& hit : hits) {
        toi = std::min(toi, hit.toi);
    }
    return toi;
}

/// The per-vertex earliest-hit filter (Zheng et al. 2025, Algorithm 3):
/// drops the hits whose pair is in `known` (a sorted list of pair ids, e.g.
/// the constraints already held), then keeps a hit when its toi equals the
/// earliest toi over the remaining hits of at least one of its stencil's
/// vertices. The toi values are compared exactly as stored, so every hit
/// tied at a vertex's earliest time is kept. Keeps the order of `hits`.
/// Vertex-obstacle hits (obstacle_collision_hits) may be mixed in: their
/// stencil is their vertex, so a vertex's earliest time counts both kinds.
/// Throws ipc::invalid_argument when `known` is not sorted or a hit names
/// a primitive outside the mesh.
inline std::vector<CollisionHit> earliest_hits_per_vertex(const std::vector<CollisionHit>& hits,
                                                          const CollisionMesh& mesh,
                                                          const std::vector<PairId>& known = {})
{
    require(std::is_sorted(known.begin(), known.end()),
            "earliest_hits_per_vertex: the known pairs must be sorted by pair id");
    const auto is_known = [&](const PairId& id) { return std::binary_search(known.begin(), known.end(), id); };
    std::vector<double> earliest(static_cast<std::size_t>(mesh.num_vertices()),
                                 std::numeric_limits<double>::infinity());
    std::vector<PairVertices> stencils(hits.size());
    std::vector<bool> fresh(hits.size(), false);
    for (std::size_t h = 0; h < hits.size(); ++h) {
        stencils[h] = pair_vertices(mesh, hits[h].pair);
        fresh[h] = !is_known(hits[h].pair);
        if (!fresh[h]) {
            continue;
        }
        for (int k = 0; k < stencils[h].count; ++k) {
            double& t = earliest[std::size_t(stencils[h].vertices[std::size_t(k)])];
            t = std::min(t, hits[h].toi);
        }
    }
    std::vector<CollisionHit> kept;
    for (std::size_t h = 0; h < hits.size(); ++h) {
        if (!fresh[h]) {
            continue;
        }
        for (int k = 0; k < stencils[h].count; ++k) {
            if (earliest[std::size_t(stencils[h].vertices[std::size_t(k)])] == hits[h].toi) {
                kept.push_back(hits[h]);
                break;
            }
        }
    }
    return kept;
}

} // namespace ipc
