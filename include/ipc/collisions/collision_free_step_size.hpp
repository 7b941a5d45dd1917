#pragma once
/// @file
/// The collision-free step size: the largest alpha in [0, 1] such that moving
/// every vertex linearly from V0 toward V1, x(t) = V0 + t (V1 - V0) for
/// t in [0, alpha], keeps every admissible primitive pair of the mesh farther
/// apart than its offset xi (r_a + r_b from the mesh's radii, plus an optional
/// uniform min_distance), up to the CCD method's conservative margin.
///
/// Swept broad phase, then one narrow-phase CCD query per candidate pair with
/// the pair's offset as its minimum distance. Queries run in parallel over
/// fixed blocks of candidates; each block passes its running minimum as the
/// query's tmax (so far pairs stop early) and the block minima are reduced at
/// the end. The result is identical for any thread count.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ipc {

/// Collision-free step size over the given swept candidates (see the file
/// comment). candidates must contain every pair that may come within its
/// offset + min_distance during the motion (e.g. swept_candidates(mesh, V0,
/// V1, min_distance)).
/// @param candidates    pairs to query (indices into mesh)
/// @param mesh          3D collision mesh (radii give the offsets)
/// @param V0, V1        positions at the start and end of the step (n x 3, m)
/// @param min_distance  extra offset added to every pair's xi (m), >= 0
/// @param ccd           the narrow phase (any type with is_ccd_method_v)
/// @return alpha in [0, 1]; 1 when no pair comes within its offset, 0 when a
///         pair starts at or inside its offset.
/// Throws ipc::invalid_argument for bad positions, sizes, min_distance or
/// out-of-range candidates, and whatever the CCD method throws on its input.
template <typename CCD = AdditiveCCD>
double collision_free_step_size(const Candidates& candidates, const CollisionMesh& mesh,
                                const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                const CCD& ccd = CCD())
{
    static_assert(is_ccd_method_v<CCD>, "collision_free_step_size: CCD must satisfy ipc::is_ccd_method_v");
    require(mesh.dim() == 3, "collision_free_step_size: only 3D meshes are supported, got a ", mesh.dim(),
            "D mesh");
    mesh.check_positions(V0, "collision_free_step_size: V0");
    mesh.check_positions(V1, "collision_free_step_size: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_free_step_size: min_distance must be finite and non-negative, got ", min_distance);
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    const auto at = [](const Eigen::Ref<const Eigen::MatrixXd>& V, Index i) {
        return Eigen::Vector3d(V(i, 0), V(i, 1), V(i, 2));
    };

    // One block = one running minimum.
    struct Minimum {
        double value = 1.0;
    };
    const auto reduce = [](const std::vector<Minimum>& blocks, double alpha) {
        for (const Minimum& m : blocks) {
            alpha = std::min(alpha, m.value);
        }
        return alpha;
    };
    double alpha = 1.0;

    alpha = reduce(detail::process_in_blocks<Minimum>(
                       candidates.vertex_vertex.size(),
                       [&](std::size_t i, Minimum& m) {
                           const auto& c = candidates.vertex_vertex[i];
                           require(c.v0 >= 0 && c.v0 < nv && c.v1 >= 0 && c.v1 < nv,
                                   "collision_free_step_size: vertex-vertex candidate out of range");
                           double toi = m.value;
                           if (ccd.point_point_ccd(at(V0, c.v0), at(V0, c.v1), at(V1, c.v0), at(V1, c.v1), toi,
                                                   mesh.vertex_vertex_offset(c.v0, c.v1) + min_distance,
                                                   m.value)) {
                               m.value = std::min(m.value, toi);
                           }
                       }),
                   alpha);

    alpha = reduce(detail::process_in_blocks<Minimum>(
                       candidates.edge_vertex.size(),
                       [&](std::size_t i, Minimum& m) {
                           const auto& c = candidates.edge_vertex[i];
                           require(c.edge >= 0 && c.edge < ne && c.vertex >= 0 && c.vertex < nv,
                                   "collision_free_step_size: edge-vertex candidate out of range");
                           const Index p = c.vertex, e0 = E(c.edge, 0), e1 = E(c.edge, 1);
                           double toi = m.value;
                           if (ccd.point_edge_ccd(at(V0, p), at(V0, e0), at(V0, e1), at(V1, p), at(V1, e0),
                                                  at(V1, e1), toi,
                                                  mesh.edge_vertex_offset(c.edge, p) + min_distance, m.value)) {
                               m.value = std::min(m.value, toi);
                           }
                       }),
                   alpha);

    alpha = reduce(detail::process_in_blocks<Minimum>(
                       candidates.edge_edge.size(),
                       [&](std::size_t i, Minimum& m) {
                           const auto& c = candidates.edge_edge[i];
                           require(c.edge0 >= 0 && c.edge0 < ne && c.edge1 >= 0 && c.edge1 < ne,
                                   "collision_free_step_size: edge-edge candidate out of range");
                           const Index a0 = E(c.edge0, 0), a1 = E(c.edge0, 1), b0 = E(c.edge1, 0),
                                       b1 = E(c.edge1, 1);
                           double toi = m.value;
                           if (ccd.edge_edge_ccd(at(V0, a0), at(V0, a1), at(V0, b0), at(V0, b1), at(V1, a0),
                                                 at(V1, a1), at(V1, b0), at(V1, b1), toi,
                                                 mesh.edge_edge_offset(c.edge0, c.edge1) + min_distance,
                                                 m.value)) {
                               m.value = std::min(m.value, toi);
                           }
                       }),
                   alpha);

    alpha = reduce(detail::process_in_blocks<Minimum>(
                       candidates.face_vertex.size(),
                       [&](std::size_t i, Minimum& m) {
                           const auto& c = candidates.face_vertex[i];
                           require(c.face >= 0 && c.face < nf && c.vertex >= 0 && c.vertex < nv,
                                   "collision_free_step_size: face-vertex candidate out of range");
                           const Index p = c.vertex, t0 = F(c.face, 0), t1 = F(c.face, 1), t2 = F(c.face, 2);
                           double toi = m.value;
                           if (ccd.point_triangle_ccd(at(V0, p), at(V0, t0), at(V0, t1), at(V0, t2), at(V1, p),
                                                      at(V1, t0), at(V1, t1), at(V1, t2), toi,
                                                      mesh.face_vertex_offset(c.face, p) + min_distance,
                                                      m.value)) {
                               m.value = std::min(m.value, toi);
                           }
                       }),
                   alpha);

    return std::clamp(alpha, 0.0, 1.0);
}

/// Collision-free step size from V0 to V1 over the whole mesh: swept broad
/// phase (the given method) plus narrow-phase CCD; see the overload above
/// for the parameters, the result and the exceptions.
template <typename CCD = AdditiveCCD>
double collision_free_step_size(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                BroadPhaseMethod method = BroadPhaseMethod::bvh, const CCD& ccd = CCD())
{
    require(mesh.dim() == 3, "collision_free_step_size: only 3D meshes are supported, got a ", mesh.dim(),
            "D mesh");
    mesh.check_positions(V0, "collision_free_step_size: V0");
    mesh.check_positions(V1, "collision_free_step_size: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_free_step_size: min_distance must be finite and non-negative, got ", min_distance);
    return collision_free_step_size(swept_candidates(mesh, V0, V1, min_distance, method), mesh, V0, V1,
                                    min_distance, ccd);
}

} // namespace ipc
