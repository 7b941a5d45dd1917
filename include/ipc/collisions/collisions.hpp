#pragma once
/// @file
/// The active constraint set (IPC's C-hat): every primitive pair closer than
/// its offset plus dhat, stored by the formula its distance uses.
///
/// Convention (IPC's multiplicity rule). The barrier energy is the sum, over
/// every admissible primitive pair (point-triangle, edge-edge, point-edge,
/// point-point candidates of a CollisionMesh) with d < xi + dhat, of that
/// pair's barrier. A pair whose closest points are two interiors keeps its own
/// stencil: point-triangle (FaceVertexCollision) or edge-edge
/// (EdgeEdgeCollision). A pair whose closest feature is an edge or a vertex
/// reduces to a point-edge or point-point stencil; several pairs can reduce to
/// the same stencil (a vertex near an edge shared by two triangles), and they
/// are then stored once with weight = the number of source pairs (with the
/// same offset). So the energy equals the sum over source pairs exactly and
/// stays continuous when a pair changes region.
///
/// Collision filter (CollisionMesh::set_collision_groups and friends,
/// collision_filter.hpp). Pairs the filter rules out are never in the set
/// (also when they are in the given candidates). Each source pair carries a
/// stiffness scale s (the largest over its vertex group pairs that may
/// collide; 1 without a filter), and a stencil's weight is the sum of the
/// scales of its source pairs (the count of source pairs when every s is
/// 1): the barrier, the lagged friction's normal force and normal adhesion
/// of a pair are all multiplied by its s, and the energy stays continuous
/// across region changes.
///
/// Edge-edge pairs whose edges are nearly parallel, |ea x eb|^2 < eps_x with
/// eps_x = 1e-3 |ea_rest|^2 |eb_rest|^2 (IPC eq. 24), are never reduced: they
/// are kept as EdgeEdgeCollision with their actual distance type so the
/// mollifier can be applied. Every EdgeEdgeCollision carries eps_x; the
/// barrier potential multiplies its term by the mollifier (1 when the edges
/// are far from parallel).
///
/// Offsets: a pair's offset is xi = r_a + r_b + dmin, with r the primitives'
/// radii from the CollisionMesh (largest vertex radius) and dmin an optional
/// extra uniform offset; activity is d < xi + dhat.
///
/// 2D meshes (CollisionMesh::dim() == 2: positions n x 2, edges, no faces).
/// The admissible pairs are point-edge (every collision vertex against
/// every edge) and, for particles, point-point; they reduce to
/// EdgeVertexCollision and VertexVertexCollision stencils by the same rule
/// and multiplicity as above (a vertex near the shared endpoint of two edges
/// gives one point-point stencil of weight 2). The stencils evaluate their
/// distances on the positions padded with z = 0 (detail::padded_row): the
/// 3D point-line and point-point squared distances restricted to the plane
/// z = 0 are exactly the 2D ones, their gradients' z entries vanish there,
/// and the x-y blocks of their Hessians are the 2D Hessians. The mesh-level
/// potentials keep the first dim() entries of each vertex block.

#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>
#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>

#include <tsl/robin_map.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace ipc {

namespace detail {
    /// Row i of V (n x 3, or n x 2 for a 2D mesh) as a 3D point; a 2D row
    /// gets z = 0 (the plane z = 0 of 3D space, where every 3D distance
    /// formula is the 2D one).
    inline Eigen::Vector3d padded_row(const Eigen::Ref<const Eigen::MatrixXd>& V, Index i)
    {
        return Eigen::Vector3d(V(i, 0), V(i, 1), V.cols() > 2 ? V(i, 2) : 0.0);
    }

    /// Positions of the listed vertices stacked into one vector (3 per
    /// vertex; the rows of a 2-column V are padded with z = 0, see
    /// padded_row).
    template <std::size_t N>
    inline Vector<double, 3 * int(N)>
    gather_positions(const Eigen::Ref<const Eigen::MatrixXd>& V, const std::array<Index, N>& vertices)
    {
        Vector<double, 3 * int(N)> x;
        if (V.cols() == 2) {
            for (std::size_t i = 0; i < N; ++i) {
                x.template segment<3>(3 * int(i)) = padded_row(V, vertices[i]);
            }
            return x;
        }
        for (std::size_t i = 0; i < N; ++i) {
            x.template segment<3>(3 * int(i)) = V.row(vertices[i]).transpose();
        }
        return x;
    }
} // namespace detail

/// Point-point stencil (vertices v0, v1). Distance formula |v0 - v1|^2.
struct VertexVertexCollision {
    /// Number of vertices of the stencil.
    static constexpr int num_vertices = 2;
    std::array<Index, 2> vertices {}; ///< the two vertices
    double offset = 0;                ///< xi (m)
    double weight = 1;                ///< sum of the stiffness scales of the source pairs merged here (their number without a filter)

    /// Squared distance (m^2) from the stacked positions x = (v0, v1).
    double distance_squared(const Vector<double, 6>& x) const
    {
        return point_point_distance_squared(x.head<3>(), x.tail<3>());
    }
    /// Gradient of the squared distance with respect to x (6).
    Vector<double, 6> distance_squared_gradient(const Vector<double, 6>& x) const
    {
        return point_point_distance_squared_gradient(x.head<3>(), x.tail<3>());
    }
    /// Hessian of the squared distance with respect to x (6 x 6).
    Matrix<double, 6, 6> distance_squared_hessian(const Vector<double, 6>& x) const
    {
        return point_point_distance_squared_hessian(x.head<3>(), x.tail<3>());
    }
};

/// Point-edge stencil (vertices point, e0, e1), closest point in the edge's
/// interior. Distance formula: point to the line through e0, e1.
struct EdgeVertexCollision {
    /// Number of vertices of the stencil.
    static constexpr int num_vertices = 3;
    std::array<Index, 3> vertices {}; ///< point, edge start, edge end
    double offset = 0;                ///< xi (m)
    double weight = 1;                ///< sum of the stiffness scales of the source pairs merged here (their number without a filter)

    /// Squared distance (m^2) from the stacked positions x = (p, e0, e1).
    double distance_squared(const Vector<double, 9>& x) const
    {
        return point_line_distance_squared(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6));
    }
    /// Gradient of the squared distance with respect to x (9).
    Vector<double, 9> distance_squared_gradient(const Vector<double, 9>& x) const
    {
        return point_line_distance_squared_gradient(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6));
    }
    /// Hessian of the squared distance with respect to x (9 x 9).
    Matrix<double, 9, 9> distance_squared_hessian(const Vector<double, 9>& x) const
    {
        return point_line_distance_squared_hessian(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6));
    }
};

/// Edge-edge stencil (ea0, ea1, eb0, eb1) of one edge pair. type is the
/// distance formula (EA_EB unless the edges are nearly parallel, in which
/// case it is whatever region the pair was in when the set was built).
struct EdgeEdgeCollision {
    /// Number of vertices of the stencil.
    static constexpr int num_vertices = 4;
    std::array<Index, 4> vertices {};  ///< ea0, ea1, eb0, eb1
    /// edge0, edge1: the two edges (rows of mesh.edges())
    Index edge0 = 0, edge1 = 0;        ///< the two edges (rows of mesh.edges())
    EdgeEdgeDistanceType type = EdgeEdgeDistanceType::EA_EB; ///< distance formula
    double offset = 0;                 ///< xi (m)
    double mollifier_threshold = 0;    ///< eps_x (m^4) from the rest positions
    double weight = 1;                 ///< the pair's stiffness scale (never merged; 1 without a filter)

    /// Squared distance (m^2) from the stacked positions x = (ea0, ea1, eb0, eb1).
    double distance_squared(const Vector<double, 12>& x) const
    {
        return edge_edge_distance_squared(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), type);
    }
    /// Gradient of the squared distance with respect to x (12).
    Vector<double, 12> distance_squared_gradient(const Vector<double, 12>& x) const
    {
        return edge_edge_distance_squared_gradient(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), type);
    }
    /// Hessian of the squared distance with respect to x (12 x 12).
    Matrix<double, 12, 12> distance_squared_hessian(const Vector<double, 12>& x) const
    {
        return edge_edge_distance_squared_hessian(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), type);
    }
};

/// Point-triangle stencil (p, t0, t1, t2), closest point in the triangle's
/// interior. Distance formula: point to the triangle's plane.
struct FaceVertexCollision {
    /// Number of vertices of the stencil.
    static constexpr int num_vertices = 4;
    std::array<Index, 4> vertices {}; ///< point, t0, t1, t2
    Index face = 0;                   ///< row of mesh.faces()
    double offset = 0;                ///< xi (m)
    double weight = 1;                ///< the pair's stiffness scale (never merged; 1 without a filter)

    /// Squared distance (m^2) from the stacked positions x = (p, t0, t1, t2).
    double distance_squared(const Vector<double, 12>& x) const
    {
        return point_plane_distance_squared(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
    }
    /// Gradient of the squared distance with respect to x (12).
    Vector<double, 12> distance_squared_gradient(const Vector<double, 12>& x) const
    {
        return point_plane_distance_squared_gradient(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
    }
    /// Hessian of the squared distance with respect to x (12 x 12).
    Matrix<double, 12, 12> distance_squared_hessian(const Vector<double, 12>& x) const
    {
        return point_plane_distance_squared_hessian(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
    }
};

/// The active set of contact stencils at one configuration (2D or 3D meshes).
class Collisions {
public:
    std::vector<VertexVertexCollision> vertex_vertex; ///< merged point-point stencils
    std::vector<EdgeVertexCollision> edge_vertex;     ///< merged point-edge stencils
    std::vector<EdgeEdgeCollision> edge_edge;         ///< edge-edge pairs (interior or mollified)
    std::vector<FaceVertexCollision> face_vertex;     ///< point-triangle pairs (interior)

    /// Builds the set from precomputed candidate pairs (any superset of the
    /// pairs within xi + dhat, e.g. from a broad phase with inflation
    /// dhat + dmin).
    /// @param candidates  pairs to test (pairs sharing a vertex and pairs the
    ///                    mesh's collision filter rules out are skipped)
    /// @param mesh        the collision mesh (2D or 3D), radii give the offsets
    /// @param V           positions, mesh.num_vertices() x mesh.dim() (m)
    /// @param dhat        activation distance (m), > 0
    /// @param dmin        extra offset added to every pair's xi (m), >= 0
    /// Throws ipc::invalid_argument for non-finite positions, wrong sizes
    /// (a column count other than mesh.dim() names both), bad dhat/dmin
    /// (also radii, dmin and dhat whose sum overflows),
    /// out-of-range candidate indices or, for a 2D mesh, edge-edge or
    /// point-triangle candidates (2D has point-edge and point-point pairs
    /// only), and
    /// ipc::degenerate_geometry for an edge-edge pair with a zero-length rest
    /// edge. Runs in parallel; the result does not depend on the thread count.
    void build(const Candidates& candidates, const CollisionMesh& mesh,
               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double dmin = 0);

    /// Builds the set at positions V: static broad phase (boxes inflated by
    /// the radii and dhat + dmin, with the given method) then build() from the
    /// candidates. Parameters and exceptions as above.
    void build(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat,
               double dmin = 0, BroadPhaseMethod method = BroadPhaseMethod::bvh)
    {
        require(std::isfinite(dhat) && dhat > 0, "Collisions::build: dhat must be finite and positive, got ", dhat);
        require(std::isfinite(dmin) && dmin >= 0, "Collisions::build: dmin must be finite and non-negative, got ",
                dmin);
        mesh.check_positions(V, "Collisions::build: positions");
        // The candidates go into the thread's broad-phase scratch (reused
        // from call to call; see release_broad_phase_memory).
        Candidates& candidates = detail::broad_phase_scratch().candidates;
        static_candidates(mesh, V, dhat + dmin, candidates, method);
        build(candidates, mesh, V, dhat, dmin);
    }

    /// Total number of stencils.
    std::size_t size() const
    {
        return vertex_vertex.size() + edge_vertex.size() + edge_edge.size() + face_vertex.size();
    }
    /// True when no pair is active.
    bool empty() const { return size() == 0; }
    /// Removes every stencil and forgets the dhat and dmin of the last build
    /// (the set then counts as assembled by hand, see dhat()).
    /// Also drops the kept assembly (see stencil_assembly_cache()).
    void clear()
    {
        clear_stencils();
        assembly_cache_.clear();
    }

    /// Activation distance (m) the set was built with, or 0 when it was not
    /// built by build() (default-constructed, cleared, or filled by hand).
    /// BarrierPotential and FrictionCollisions::build compare their own dhat
    /// against it and throw ipc::invalid_argument on a mismatch; a set with
    /// dhat() == 0 carries no dhat and is taken as it is (the caller vouches
    /// that its stencils match the potential's dhat).
    double dhat() const { return dhat_; }
    /// Extra offset (m) of the last build (0 when dhat() is 0).
    double dmin() const { return dmin_; }

    /// The colouring and Hessian pattern of this set's stencils, kept for
    /// the mesh-level potentials (BarrierPotential): built on their first
    /// call and reused while the stencils stay the same, which they check on
    /// every call. build() into the same object keeps it, so a Newton loop
    /// that rebuilds its set in place pays for the pattern only when the
    /// active pairs change. clear() drops it.
    const StencilAssemblyCache& stencil_assembly_cache() const { return assembly_cache_; }

private:
    /// clear() without dropping the kept assembly (build() starts with it).
    void clear_stencils()
    {
        vertex_vertex.clear();
        edge_vertex.clear();
        edge_edge.clear();
        face_vertex.clear();
        dhat_ = 0;
        dmin_ = 0;
    }

    double dhat_ = 0;
    double dmin_ = 0;
    StencilAssemblyCache assembly_cache_;
};

// ===========================================================================
// Implementation

namespace detail {

    /// A reduced point-point (vertices[2] < 0) or point-edge stencil waiting
    /// to be merged with its duplicates.
    struct ReducedPair {
        std::array<Index, 3> vertices;
        double offset;
        double scale; ///< stiffness scale of the source pair (not part of the key)
    };

    struct ReducedPairHash {
        std::size_t operator()(const ReducedPair& r) const
        {
            std::uint64_t offset_bits;
            std::memcpy(&offset_bits, &r.offset, sizeof offset_bits);
            std::uint64_t h = 0x9E3779B97F4A7C15ull;
            for (const Index v : r.vertices) {
                h ^= std::uint64_t(v) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
            }
            h ^= offset_bits + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
            return std::size_t(h);
        }
    };
    struct ReducedPairEqual {
        bool operator()(const ReducedPair& a, const ReducedPair& b) const
        {
            return a.vertices == b.vertices && a.offset == b.offset;
        }
    };

    inline ReducedPair reduced_point_point(Index a, Index b, double offset, double scale)
    {
        return { { { std::min(a, b), std::max(a, b), Index(-1) } }, offset, scale };
    }
    inline ReducedPair reduced_point_edge(Index p, Index e0, Index e1, double offset, double scale)
    {
        return { { { p, std::min(e0, e1), std::max(e0, e1) } }, offset, scale };
    }

    /// What one block of candidates produced.
    struct CollisionBlock {
        std::vector<EdgeEdgeCollision> edge_edge;
        std::vector<FaceVertexCollision> face_vertex;
        std::vector<ReducedPair> reduced;
    };

    inline Eigen::Vector3d row3(const Eigen::Ref<const Eigen::MatrixXd>& V, Index i) { return padded_row(V, i); }

    /// Relative slack on the cheap lower-bound rejections so that rounding
    /// never rejects a pair the exact activity test would keep.
    inline constexpr double rejection_slack = 1 + 1e-9;

    /// Throws ipc::invalid_argument when a Collisions set built with
    /// set_dhat (> 0) is used with a different dhat. The two count as equal
    /// when they differ by at most 1e-12 relative (rounding in how the caller
    /// computed them); set_dhat == 0 (a set not built by build()) is not
    /// checked. who names the caller in the message.
    inline void check_collisions_dhat(double set_dhat, double dhat, const char* who)
    {
        if (set_dhat == 0) {
            return;
        }
        require(std::abs(set_dhat - dhat) <= 1e-12 * std::max(set_dhat, dhat), who,
                ": the Collisions set was built with dhat = ", set_dhat, " but dhat = ", dhat,
                " was given (build the set with the same dhat)");
    }

} // namespace detail

inline void Collisions::build(const Candidates& candidates, const CollisionMesh& mesh,
                              const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double dmin)
{
    mesh.check_positions(V, "Collisions::build: positions");
    require(std::isfinite(dhat) && dhat > 0, "Collisions::build: dhat must be finite and positive, got ", dhat);
    require(std::isfinite(dmin) && dmin >= 0, "Collisions::build: dmin must be finite and non-negative, got ", dmin);
    // Every pair's xi = r_a + r_b + dmin, and xi + dhat, must be numbers.
    require(std::isfinite(2 * mesh.max_radius() + dmin + dhat),
            "Collisions::build: the largest pair offset plus dhat overflows (largest radius ", mesh.max_radius(),
            ", dmin ", dmin, ", dhat ", dhat, ")");
    require(mesh.dim() == 3 || (candidates.edge_edge.empty() && candidates.face_vertex.empty()),
            "Collisions::build: a 2D mesh has point-edge and point-point pairs only, got ",
            candidates.edge_edge.size(), " edge-edge and ", candidates.face_vertex.size(),
            " point-triangle candidates");
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    for (std::size_t i = 0; i < candidates.vertex_vertex.size(); ++i) {
        const auto& c = candidates.vertex_vertex[i];
        require(c.v0 >= 0 && c.v0 < nv && c.v1 >= 0 && c.v1 < nv, "Collisions::build: candidates.vertex_vertex[", i,
                "] = (vertex ", c.v0, ", vertex ", c.v1, ") is out of range (", nv, " vertices)");
    }
    for (std::size_t i = 0; i < candidates.edge_vertex.size(); ++i) {
        const auto& c = candidates.edge_vertex[i];
        require(c.edge >= 0 && c.edge < ne && c.vertex >= 0 && c.vertex < nv,
                "Collisions::build: candidates.edge_vertex[", i, "] = (edge ", c.edge, ", vertex ", c.vertex,
                ") is out of range (", ne, " edges, ", nv, " vertices)");
    }
    for (std::size_t i = 0; i < candidates.edge_edge.size(); ++i) {
        const auto& c = candidates.edge_edge[i];
        require(c.edge0 >= 0 && c.edge0 < ne && c.edge1 >= 0 && c.edge1 < ne, "Collisions::build: candidates.edge_edge[",
                i, "] = (edge ", c.edge0, ", edge ", c.edge1, ") is out of range (", ne, " edges)");
    }
    for (std::size_t i = 0; i < candidates.face_vertex.size(); ++i) {
        const auto& c = candidates.face_vertex[i];
        require(c.face >= 0 && c.face < nf && c.vertex >= 0 && c.vertex < nv,
                "Collisions::build: candidates.face_vertex[", i, "] = (face ", c.face, ", vertex ", c.vertex,
                ") is out of range (", nf, " faces, ", nv, " vertices)");
    }

    clear_stencils();
    dhat_ = dhat;
    dmin_ = dmin;
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    const Eigen::MatrixXd& rest = mesh.rest_positions();
    using detail::row3;
    // Collision filter (collision_filter.hpp): each active source pair's
    // stiffness scale s goes into the weight of its stencil (a pair the
    // filter rules out, s = 0, is skipped). Without a filter s = 1 and the
    // weights count the merged source pairs.
    const bool filtered = mesh.has_collision_filter();

    // Point-point candidates.
    const auto vv_blocks = detail::process_in_blocks<detail::CollisionBlock>(
        candidates.vertex_vertex.size(), [&](std::size_t i, detail::CollisionBlock& out) {
            const auto& c = candidates.vertex_vertex[i];
            if (c.v0 == c.v1) {
                return;
            }
            const double xi = mesh.vertex_vertex_offset(c.v0, c.v1) + dmin;
            const double d2 = (row3(V, c.v0) - row3(V, c.v1)).squaredNorm();
            if (offset_barrier_active(d2, xi, dhat)) {
                const double s = filtered ? mesh.vertex_vertex_stiffness_scale(c.v0, c.v1) : 1.0;
                if (s != 0) {
                    out.reduced.push_back(detail::reduced_point_point(c.v0, c.v1, xi, s));
                }
            }
        });

    // Point-edge candidates.
    const auto ev_blocks = detail::process_in_blocks<detail::CollisionBlock>(
        candidates.edge_vertex.size(), [&](std::size_t i, detail::CollisionBlock& out) {
            const auto& c = candidates.edge_vertex[i];
            const Index p = c.vertex, e0 = E(c.edge, 0), e1 = E(c.edge, 1);
            if (p == e0 || p == e1) {
                return;
            }
            const double xi = mesh.edge_vertex_offset(c.edge, p) + dmin;
            const auto cl = detail::classify_point_edge<double, 3>(row3(V, p), row3(V, e0), row3(V, e1));
            if (!offset_barrier_active(cl.distance_squared, xi, dhat)) {
                return;
            }
            const double s = filtered ? mesh.edge_vertex_stiffness_scale(c.edge, p) : 1.0;
            if (s == 0) {
                return;
            }
            switch (cl.type) {
            case PointEdgeDistanceType::P_E0: out.reduced.push_back(detail::reduced_point_point(p, e0, xi, s)); break;
            case PointEdgeDistanceType::P_E1: out.reduced.push_back(detail::reduced_point_point(p, e1, xi, s)); break;
            case PointEdgeDistanceType::P_E: out.reduced.push_back(detail::reduced_point_edge(p, e0, e1, xi, s)); break;
            }
        });

    // Edge-edge candidates.
    const auto ee_blocks = detail::process_in_blocks<detail::CollisionBlock>(
        candidates.edge_edge.size(), [&](std::size_t i, detail::CollisionBlock& out) {
            const auto& c = candidates.edge_edge[i];
            const Index a0 = E(c.edge0, 0), a1 = E(c.edge0, 1), b0 = E(c.edge1, 0), b1 = E(c.edge1, 1);
            if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) {
                return;
            }
            const double xi = mesh.edge_edge_offset(c.edge0, c.edge1) + dmin;
            const double reach = xi + dhat;
            const Eigen::Vector3d pa0 = row3(V, a0), pa1 = row3(V, a1), pb0 = row3(V, b0), pb1 = row3(V, b1);
            const Eigen::Vector3d u = pa1 - pa0, v = pb1 - pb0;
            const Eigen::Vector3d m = u.cross(v);
            const double mm = m.squaredNorm();
            // The distance between the two lines bounds the segment distance
            // from below (only trusted away from parallel).
            if (mm > 1e-6 * u.squaredNorm() * v.squaredNorm()) {
                const double h = (pa0 - pb0).dot(m);
                if (h * h > detail::rejection_slack * reach * reach * mm) {
                    return;
                }
            }
            const auto cl = detail::classify_edge_edge<double>(pa0, pa1, pb0, pb1);
            if (!offset_barrier_active(cl.distance_squared, xi, dhat)) {
                return;
            }
            const double s = filtered ? mesh.edge_edge_stiffness_scale(c.edge0, c.edge1) : 1.0;
            if (s == 0) {
                return;
            }
            const double eps_x = edge_edge_mollifier_threshold(row3(rest, a0), row3(rest, a1), row3(rest, b0), row3(rest, b1));
            using Type = EdgeEdgeDistanceType;
            if (cl.type == Type::EA_EB || mm < eps_x) {
                EdgeEdgeCollision ee;
                ee.vertices = { { a0, a1, b0, b1 } };
                ee.edge0 = c.edge0;
                ee.edge1 = c.edge1;
                ee.type = cl.type;
                ee.offset = xi;
                ee.mollifier_threshold = eps_x;
                ee.weight = s;
                out.edge_edge.push_back(ee);
                return;
            }
            switch (cl.type) {
            case Type::EA0_EB0: out.reduced.push_back(detail::reduced_point_point(a0, b0, xi, s)); break;
            case Type::EA0_EB1: out.reduced.push_back(detail::reduced_point_point(a0, b1, xi, s)); break;
            case Type::EA1_EB0: out.reduced.push_back(detail::reduced_point_point(a1, b0, xi, s)); break;
            case Type::EA1_EB1: out.reduced.push_back(detail::reduced_point_point(a1, b1, xi, s)); break;
            case Type::EA_EB0: out.reduced.push_back(detail::reduced_point_edge(b0, a0, a1, xi, s)); break;
            case Type::EA_EB1: out.reduced.push_back(detail::reduced_point_edge(b1, a0, a1, xi, s)); break;
            case Type::EA0_EB: out.reduced.push_back(detail::reduced_point_edge(a0, b0, b1, xi, s)); break;
            case Type::EA1_EB: out.reduced.push_back(detail::reduced_point_edge(a1, b0, b1, xi, s)); break;
            case Type::EA_EB: break;
            }
        });

    // Point-triangle candidates.
    const auto fv_blocks = detail::process_in_blocks<detail::CollisionBlock>(
        candidates.face_vertex.size(), [&](std::size_t i, detail::CollisionBlock& out) {
            const auto& c = candidates.face_vertex[i];
            const Index p = c.vertex, t0 = F(c.face, 0), t1 = F(c.face, 1), t2 = F(c.face, 2);
            if (p == t0 || p == t1 || p == t2) {
                return;
            }
            const double xi = mesh.face_vertex_offset(c.face, p) + dmin;
            const double reach = xi + dhat;
            const Eigen::Vector3d pp = row3(V, p), pt0 = row3(V, t0), pt1 = row3(V, t1), pt2 = row3(V, t2);
            const Eigen::Vector3d n = (pt1 - pt0).cross(pt2 - pt0);
            const double nn = n.squaredNorm();
            // The distance to the plane bounds the distance from below.
            if (nn > 0) {
                const double h = (pp - pt0).dot(n);
                if (h * h > detail::rejection_slack * reach * reach * nn) {
                    return;
                }
            }
            const auto cl = detail::classify_point_triangle<double>(pp, pt0, pt1, pt2);
            if (!offset_barrier_active(cl.distance_squared, xi, dhat)) {
                return;
            }
            const double s = filtered ? mesh.face_vertex_stiffness_scale(c.face, p) : 1.0;
            if (s == 0) {
                return;
            }
            using Type = PointTriangleDistanceType;
            switch (cl.type) {
            case Type::P_T: {
                FaceVertexCollision fv;
                fv.vertices = { { p, t0, t1, t2 } };
                fv.face = c.face;
                fv.offset = xi;
                fv.weight = s;
                out.face_vertex.push_back(fv);
                break;
            }
            case Type::P_T0: out.reduced.push_back(detail::reduced_point_point(p, t0, xi, s)); break;
            case Type::P_T1: out.reduced.push_back(detail::reduced_point_point(p, t1, xi, s)); break;
            case Type::P_T2: out.reduced.push_back(detail::reduced_point_point(p, t2, xi, s)); break;
            case Type::P_E0: out.reduced.push_back(detail::reduced_point_edge(p, t0, t1, xi, s)); break;
            case Type::P_E1: out.reduced.push_back(detail::reduced_point_edge(p, t1, t2, xi, s)); break;
            case Type::P_E2: out.reduced.push_back(detail::reduced_point_edge(p, t2, t0, xi, s)); break;
            }
        });

    // Concatenate in candidate order and merge the reduced stencils.
    tsl::robin_map<detail::ReducedPair, std::size_t, detail::ReducedPairHash, detail::ReducedPairEqual> index;
    const auto merge = [&](const std::vector<detail::CollisionBlock>& blocks) {
        for (const auto& block : blocks) {
            edge_edge.insert(edge_edge.end(), block.edge_edge.begin(), block.edge_edge.end());
            face_vertex.insert(face_vertex.end(), block.face_vertex.begin(), block.face_vertex.end());
            for (const detail::ReducedPair& r : block.reduced) {
                const bool is_point_point = r.vertices[2] < 0;
                const auto found = index.find(r);
                if (found != index.end()) {
                    if (is_point_point) {
                        vertex_vertex[found->second].weight += r.scale;
                    } else {
                        edge_vertex[found->second].weight += r.scale;
                    }
                    continue;
                }
                if (is_point_point) {
                    index.emplace(r, vertex_vertex.size());
                    VertexVertexCollision vv;
                    vv.vertices = { { r.vertices[0], r.vertices[1] } };
                    vv.offset = r.offset;
                    vv.weight = r.scale;
                    vertex_vertex.push_back(vv);
                } else {
                    index.emplace(r, edge_vertex.size());
                    EdgeVertexCollision ev;
                    ev.vertices = r.vertices;
                    ev.offset = r.offset;
                    ev.weight = r.scale;
                    edge_vertex.push_back(ev);
                }
            }
        }
    };
    merge(vv_blocks);
    merge(ev_blocks);
    merge(ee_blocks);
    merge(fv_blocks);
}

namespace detail {
    /// Calls f(collision, stacked positions) for stencil k of the
    /// concatenation (vertex_vertex, edge_vertex, edge_edge, face_vertex) of
    /// a set and returns its result (the potentials' per-stencil dispatch).
    /// No validation: k must be below collisions.size().
    template <typename F>
    double visit_collision(const Collisions& collisions, const Eigen::Ref<const Eigen::MatrixXd>& V, Index k, const F& f)
    {
        std::size_t i = std::size_t(k);
        if (i < collisions.vertex_vertex.size()) {
            const auto& c = collisions.vertex_vertex[i];
            return f(c, gather_positions(V, c.vertices));
        }
        i -= collisions.vertex_vertex.size();
        if (i < collisions.edge_vertex.size()) {
            const auto& c = collisions.edge_vertex[i];
            return f(c, gather_positions(V, c.vertices));
        }
        i -= collisions.edge_vertex.size();
        if (i < collisions.edge_edge.size()) {
            const auto& c = collisions.edge_edge[i];
            return f(c, gather_positions(V, c.vertices));
        }
        i -= collisions.edge_edge.size();
        const auto& c = collisions.face_vertex[i];
        return f(c, gather_positions(V, c.vertices));
    }
} // namespace detail

} // namespace ipc
