#pragma once
/// @file
/// The broad phase: candidate pairs of a CollisionMesh from primitive boxes,
/// with a choice of method behind one function.
///
/// - static_candidates(): pairs that may be closer than xi + dhat at one
///   configuration (for building the constraint set);
/// - swept_candidates(): pairs that may come closer than xi + min_distance
///   while moving linearly from V0 to V1 (for CCD and the step size).
///
/// Every method returns the same Candidates (sorted, unique, admissible pairs
/// only, following CollisionMesh's pair rules), with one thread or many.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/broad_phase/brute_force.hpp>
#include <ipc/broad_phase/bvh.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/broad_phase/spatial_hash.hpp>
#include <ipc/broad_phase/sweep_and_prune.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace ipc {

/// Broad-phase algorithm. All give identical candidates; they differ in speed.
enum class BroadPhaseMethod {
    brute_force,     ///< every pair of boxes tested; O(n^2), for testing
    sweep_and_prune, ///< sort along one axis and scan
    spatial_hash,    ///< uniform grid in a robin-hood hash map
    bvh,             ///< bounding volume hierarchy (Morton order); the default
};

/// Name of a method ("brute_force", "bvh", ...).
inline const char* to_string(BroadPhaseMethod method)
{
    switch (method) {
    case BroadPhaseMethod::brute_force:
        return "brute_force";
    case BroadPhaseMethod::sweep_and_prune:
        return "sweep_and_prune";
    case BroadPhaseMethod::spatial_hash:
        return "spatial_hash";
    case BroadPhaseMethod::bvh:
        return "bvh";
    }
    return "unknown";
}

namespace detail {

    /// Number of parallel work units for n items (does not change results).
    inline std::ptrdiff_t work_blocks(std::ptrdiff_t n)
    {
        const std::ptrdiff_t blocks = std::min<std::ptrdiff_t>(n / 256 + 1, 8 * std::ptrdiff_t(max_threads()));
        return std::max<std::ptrdiff_t>(1, blocks);
    }

    /// Concatenates the per-block lists in block order.
    template <typename Candidate>
    void concatenate(std::vector<std::vector<Candidate>>& blocks, std::vector<Candidate>& out)
    {
        size_t total = 0;
        for (const auto& block : blocks) {
            total += block.size();
        }
        out.resize(total);
        std::vector<size_t> offsets(blocks.size() + 1, 0);
        for (size_t b = 0; b < blocks.size(); ++b) {
            offsets[b + 1] = offsets[b] + blocks[b].size();
        }
        parallel_for(0, std::ptrdiff_t(blocks.size()), [&](std::ptrdiff_t b) {
            std::copy(blocks[size_t(b)].begin(), blocks[size_t(b)].end(), out.begin() + std::ptrdiff_t(offsets[size_t(b)]));
            std::vector<Candidate>().swap(blocks[size_t(b)]);
        });
    }

    /// One pair kind: pairs (a, b), a from first_ids (ascending) with boxes
    /// first_boxes, b from second_ids with boxes second_boxes. With self the
    /// two sets are the same and only b > a is kept. admissible(a, b) filters,
    /// make(a, b) builds the candidate.
    struct PairJob {
        const std::vector<AABB>* first_boxes;
        const std::vector<Index>* first_ids;
        const std::vector<AABB>* second_boxes;
        const std::vector<Index>* second_ids;
        bool self;
    };

    /// Pairs of a job found by querying an index over the second set with
    /// every box of the first; results come out sorted without a global sort.
    template <typename BoxIndex, typename Candidate, typename Admissible, typename Make>
    void query_pairs(const BoxIndex& index, const PairJob& job, Admissible&& admissible, Make&& make,
                     std::vector<Candidate>& out)
    {
        const std::vector<Index>& first_ids = *job.first_ids;
        const std::vector<AABB>& first_boxes = *job.first_boxes;
        const std::ptrdiff_t n = std::ptrdiff_t(first_ids.size());
        const std::ptrdiff_t num_blocks = work_blocks(n);
        std::vector<std::vector<Candidate>> blocks(static_cast<size_t>(num_blocks));
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            std::vector<Index> found;
            std::vector<Candidate>& local = blocks[size_t(block)];
            const std::ptrdiff_t begin = n * block / num_blocks, end = n * (block + 1) / num_blocks;
            for (std::ptrdiff_t i = begin; i < end; ++i) {
                const Index a = first_ids[size_t(i)];
                found.clear();
                index.query(first_boxes[size_t(a)], [&](Index b) {
                    if ((!job.self || b > a) && admissible(a, b)) {
                        found.push_back(b);
                    }
                });
                std::sort(found.begin(), found.end());
                for (const Index b : found) {
                    local.push_back(make(a, b));
                }
            }
        });
        concatenate(blocks, out);
    }

    /// Sorts unordered (a, b) pairs collected in several buffers into out:
    /// bucketed by a (counting sort over [0, num_first)), sorted by b within
    /// each bucket, duplicates removed.
    template <typename Candidate, typename Make>
    void sorted_from_buffers(std::vector<std::vector<std::pair<Index, Index>>>& buffers, Index num_first,
                             Make&& make, std::vector<Candidate>& out)
    {
        std::vector<size_t> start(size_t(num_first) + 1, 0);
        for (const auto& buffer : buffers) {
            for (const auto& pair : buffer) {
                ++start[size_t(pair.first) + 1];
            }
        }
        for (size_t a = 0; a < size_t(num_first); ++a) {
            start[a + 1] += start[a];
        }
        std::vector<Index> seconds(start.back());
        {
            std::vector<size_t> fill(start.begin(), start.end() - 1);
            for (auto& buffer : buffers) {
                for (const auto& pair : buffer) {
                    seconds[fill[size_t(pair.first)]++] = pair.second;
                }
                std::vector<std::pair<Index, Index>>().swap(buffer);
            }
        }
        // Sort each bucket and count its distinct entries.
        std::vector<size_t> kept(size_t(num_first) + 1, 0);
        parallel_for(0, std::ptrdiff_t(num_first), [&](std::ptrdiff_t a) {
            const auto begin = seconds.begin() + std::ptrdiff_t(start[size_t(a)]);
            const auto end = seconds.begin() + std::ptrdiff_t(start[size_t(a) + 1]);
            std::sort(begin, end);
            kept[size_t(a) + 1] = size_t(std::unique(begin, end) - begin);
        });
        for (size_t a = 0; a < size_t(num_first); ++a) {
            kept[a + 1] += kept[a];
        }
        out.resize(kept.back());
        parallel_for(0, std::ptrdiff_t(num_first), [&](std::ptrdiff_t a) {
            const size_t count = kept[size_t(a) + 1] - kept[size_t(a)];
            for (size_t k = 0; k < count; ++k) {
                out[kept[size_t(a)] + k] = make(Index(a), seconds[start[size_t(a)] + k]);
            }
        });
    }

    /// Pairs of a job by sweep and prune.
    template <typename Candidate, typename Admissible, typename Make>
    void sweep_pairs(const PairJob& job, Index num_first, Admissible&& admissible, Make&& make,
                     std::vector<Candidate>& out)
    {
        const std::ptrdiff_t num_blocks
            = work_blocks(std::ptrdiff_t(job.first_ids->size() + job.second_ids->size()));
        std::vector<std::vector<std::pair<Index, Index>>> blocks(static_cast<size_t>(num_blocks));
        sweep_and_prune(*job.first_boxes, *job.first_ids, *job.second_boxes, *job.second_ids, job.self,
                        num_blocks, [&](std::ptrdiff_t block, Index a, Index b) {
                            if (admissible(a, b)) {
                                blocks[size_t(block)].emplace_back(a, b);
                            }
                        });
        sorted_from_buffers(blocks, num_first, make, out);
    }

    /// Pairs of a job by a simultaneous descent of two BVHs (or one against
    /// itself).
    template <typename Candidate, typename Admissible, typename Make>
    void bvh_pairs(const PairJob& job, Index num_first, Admissible&& admissible, Make&& make,
                   std::vector<Candidate>& out)
    {
        std::vector<std::vector<std::pair<Index, Index>>> buffers(static_cast<size_t>(max_threads()));
        const BVH second(*job.second_boxes, *job.second_ids);
        if (job.self) {
            second.self_overlaps([&](int thread, Index a, Index b) {
                if (a > b) {
                    std::swap(a, b);
                }
                if (admissible(a, b)) {
                    buffers[size_t(thread)].emplace_back(a, b);
                }
            });
        } else {
            const BVH first(*job.first_boxes, *job.first_ids);
            first.overlaps_with(second, [&](int thread, Index a, Index b) {
                if (admissible(a, b)) {
                    buffers[size_t(thread)].emplace_back(a, b);
                }
            });
        }
        sorted_from_buffers(buffers, num_first, make, out);
    }

    template <typename Candidate, typename Admissible, typename Make>
    void find_pairs(BroadPhaseMethod method, const PairJob& job, Index num_first, Admissible&& admissible,
                    Make&& make, std::vector<Candidate>& out)
    {
        out.clear();
        if (job.first_ids->empty() || job.second_ids->empty()) {
            return;
        }
        switch (method) {
        case BroadPhaseMethod::brute_force:
            query_pairs(BruteForce(*job.second_boxes, *job.second_ids), job, admissible, make, out);
            return;
        case BroadPhaseMethod::sweep_and_prune:
            sweep_pairs(job, num_first, admissible, make, out);
            return;
        case BroadPhaseMethod::spatial_hash: {
            // Cell size from both sets, so queries and stored boxes agree.
            double extent_sum = 0.0;
            for (const std::vector<Index>* ids : { job.first_ids, job.second_ids }) {
                const std::vector<AABB>& boxes = ids == job.first_ids ? *job.first_boxes : *job.second_boxes;
                for (const Index id : *ids) {
                    const AABB& box = boxes[size_t(id)];
                    extent_sum += std::max({ box.upper[0] - box.lower[0], box.upper[1] - box.lower[1],
                                             box.upper[2] - box.lower[2] });
                }
            }
            const double cell = extent_sum / double(job.first_ids->size() + job.second_ids->size());
            query_pairs(SpatialHash(*job.second_boxes, *job.second_ids, cell), job, admissible, make, out);
            return;
        }
        case BroadPhaseMethod::bvh:
            bvh_pairs(job, num_first, admissible, make, out);
            return;
        }
        throw invalid_argument("unknown broad-phase method");
    }

    inline std::vector<Index> iota_ids(Index n)
    {
        std::vector<Index> ids(static_cast<size_t>(n));
        for (Index i = 0; i < n; ++i) {
            ids[size_t(i)] = i;
        }
        return ids;
    }

} // namespace detail

/// Candidate pairs whose boxes overlap, for boxes already computed (e.g. by
/// static_boxes or swept_boxes, or the caller's own): box vectors must have
/// one entry per vertex, edge and face of mesh (throws ipc::invalid_argument
/// otherwise). Pair kinds and exclusions follow mesh's pair rules.
inline Candidates candidates_from_boxes(
    const CollisionMesh& mesh, const PrimitiveBoxes& boxes, BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    require(boxes.vertices.size() == size_t(mesh.num_vertices()), "vertex boxes has ", boxes.vertices.size(),
            " entries but the mesh has ", mesh.num_vertices(), " vertices");
    require(boxes.edges.size() == size_t(mesh.num_edges()), "edge boxes has ", boxes.edges.size(),
            " entries but the mesh has ", mesh.num_edges(), " edges");
    require(boxes.faces.size() == size_t(mesh.num_faces()), "face boxes has ", boxes.faces.size(),
            " entries but the mesh has ", mesh.num_faces(), " faces");
    Candidates candidates;
    const std::vector<Index> all_edges = detail::iota_ids(mesh.num_edges());

    if (mesh.dim() == 3) {
        const std::vector<Index> all_faces = detail::iota_ids(mesh.num_faces());
        detail::find_pairs(
            method, { &boxes.faces, &all_faces, &boxes.vertices, &mesh.collision_vertices(), false },
            mesh.num_faces(), [&](Index f, Index v) { return mesh.can_collide_face_vertex(f, v); },
            [](Index f, Index v) { return FaceVertexCandidate { f, v }; }, candidates.face_vertex);
        detail::find_pairs(
            method, { &boxes.edges, &all_edges, &boxes.edges, &all_edges, true }, mesh.num_edges(),
            [&](Index a, Index b) { return mesh.can_collide_edge_edge(a, b); },
            [](Index a, Index b) { return EdgeEdgeCandidate { a, b }; }, candidates.edge_edge);
        detail::find_pairs(
            method, { &boxes.edges, &mesh.rod_edges(), &boxes.vertices, &mesh.codim_vertices(), false },
            mesh.num_edges(), [&](Index e, Index v) { return mesh.can_collide_edge_vertex(e, v); },
            [](Index e, Index v) { return EdgeVertexCandidate { e, v }; }, candidates.edge_vertex);
    } else {
        detail::find_pairs(
            method, { &boxes.edges, &all_edges, &boxes.vertices, &mesh.collision_vertices(), false },
            mesh.num_edges(), [&](Index e, Index v) { return mesh.can_collide_edge_vertex(e, v); },
            [](Index e, Index v) { return EdgeVertexCandidate { e, v }; }, candidates.edge_vertex);
    }
    detail::find_pairs(
        method, { &boxes.vertices, &mesh.particles(), &boxes.vertices, &mesh.particles(), true },
        mesh.num_vertices(), [&](Index a, Index b) { return mesh.can_collide_vertex_vertex(a, b); },
        [](Index a, Index b) { return VertexVertexCandidate { a, b }; }, candidates.vertex_vertex);
    return candidates;
}

/// Candidate pairs at positions V (n x dim, metres) for a contact query with
/// activation distance dhat (metres, >= 0): every admissible pair whose
/// distance is below xi + dhat is included (xi = r_a + r_b from the mesh's
/// radii), plus some farther pairs whose inflated boxes still overlap.
/// Throws ipc::invalid_argument for bad V or dhat.
inline Candidates static_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V,
    double dhat,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    return candidates_from_boxes(mesh, static_boxes(mesh, V, dhat), method);
}

/// Candidate pairs for CCD over the linear motion from V0 to V1 (n x dim,
/// metres): every admissible pair that comes closer than xi + min_distance
/// (metres, >= 0) at some t in [0, 1] is included. Throws
/// ipc::invalid_argument for bad positions or min_distance.
inline Candidates swept_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V0,
    const Eigen::Ref<const Eigen::MatrixXd>& V1,
    double min_distance = 0.0,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    return candidates_from_boxes(mesh, swept_boxes(mesh, V0, V1, min_distance), method);
}

} // namespace ipc
