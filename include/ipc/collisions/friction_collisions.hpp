#pragma once
/// @file
/// The lagged friction set (IPC section 5.3): one frictional contact per
/// stencil of a Collisions set, with the normal-force magnitude, tangent basis
/// and closest-point weights evaluated at the lag configuration and then held
/// fixed while the friction potential is minimised.
///
/// Per stencil k of the contact set (built at the lag positions):
///  - normal force lambda_k = w_k * kappa * 2 d_k |b'(d_k^2 - xi_k^2, 2 xi_k dhat + dhat^2)|
///    (the barrier's force conjugate to the distance, with the dhat, kappa
///    and barrier shape of the barrier potential; w_k the stencil's multiplicity;
///    the edge-edge mollifier is not applied to the force, so nearly parallel
///    edges still carry friction);
///  - tangent basis and relative-displacement weights of the stencil's
///    closest-point type: point-point, point-edge, point-triangle (plane) or
///    edge-edge (lines). A mollified edge-edge stencil whose distance type is
///    an endpoint case uses the point-edge or point-point contact of its
///    closest features (the lines of parallel edges have no unique closest
///    points);
///  - mu, the friction coefficient.

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/core/error.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <variant>
#include <vector>

namespace ipc {

/// One frictional contact: its stencil's vertices (in the order of the
/// contact's weights) and the lagged contact data.
template <int VertexCount> struct FrictionStencil {
    static constexpr int num_vertices = VertexCount;
    std::array<Index, VertexCount> vertices {};   ///< mesh vertices of the stencil
    FrictionContact<double, VertexCount> contact; ///< lagged basis, weights, lambda, mu
};

/// The lagged friction contacts of one lag configuration.
class FrictionCollisions {
public:
    std::vector<FrictionStencil<2>> vertex_vertex; ///< point-point contacts
    std::vector<FrictionStencil<3>> edge_vertex;   ///< point-edge contacts
    std::vector<FrictionStencil<4>> edge_edge;     ///< edge-edge (line-line) contacts
    std::vector<FrictionStencil<4>> face_vertex;   ///< point-triangle (plane) contacts

    /// Builds the contacts of every stencil of `collisions` (built at V) from
    /// the lag positions V (n x 3, m). The normal forces come from the
    /// barrier potential's activation distance dhat (m), stiffness kappa and
    /// shape Barrier (the same as the BarrierPotential<Barrier> in use); mu >= 0
    /// is the friction coefficient. Throws ipc::invalid_argument for bad
    /// positions, dhat, kappa, mu or stencil indices, for a dhat other than
    /// the one `collisions` was built with (naming both; not checked when
    /// collisions.dhat() is 0, see Collisions::dhat()), ipc::penetration when a
    /// stencil is at or inside its offset, and ipc::degenerate_geometry for
    /// degenerate primitives. Parallel; the result does not depend on the
    /// thread count.
    template <typename Barrier = ClampedLogBarrier>
    void build(const Collisions& collisions, const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
               double dhat, double kappa, double mu);

    /// Adds the contact of one pair with a normal force given by the caller
    /// instead of a barrier (e.g. an augmented-Lagrangian multiplier): the
    /// pair's closest features (pair.type, at the lag positions V the pair
    /// was evaluated at) choose the contact type as build() does, the
    /// tangent basis and weights come from V (n x 3, m). normal_force >= 0
    /// (N, in the units of the incremental potential: no 1/h^2), mu >= 0.
    /// Throws ipc::invalid_argument for bad values or positions.
    void add(const PairDistance& pair, const Eigen::Ref<const Eigen::MatrixXd>& V, double normal_force, double mu);

    /// Total number of contacts.
    std::size_t size() const
    {
        return vertex_vertex.size() + edge_vertex.size() + edge_edge.size() + face_vertex.size();
    }
    /// True when there is no contact.
    bool empty() const { return size() == 0; }
    /// Removes every contact.
    void clear()
    {
        vertex_vertex.clear();
        edge_vertex.clear();
        edge_edge.clear();
        face_vertex.clear();
    }
};

// ===========================================================================
// Implementation

namespace detail {
    /// What one block of stencils produced (in stencil order).
    struct FrictionBlock {
        std::vector<FrictionStencil<2>> vertex_vertex;
        std::vector<FrictionStencil<3>> edge_vertex;
        std::vector<FrictionStencil<4>> edge_edge;
        std::vector<FrictionStencil<4>> face_vertex;
    };

    template <typename T> void append(std::vector<T>& to, const std::vector<T>& from)
    {
        to.insert(to.end(), from.begin(), from.end());
    }
} // namespace detail

template <typename Barrier>
void FrictionCollisions::build(const Collisions& collisions, const CollisionMesh& mesh,
                               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa, double mu)
{
    require(mesh.dim() == 3, "FrictionCollisions::build: only 3D meshes are supported");
    mesh.check_positions(V, "FrictionCollisions::build: positions");
    require(std::isfinite(mu) && mu >= 0, "FrictionCollisions::build: mu must be finite and non-negative, got ", mu);
    const Index nv = mesh.num_vertices();
    const auto check = [&](const auto& vertices, const char* list, std::size_t index) {
        for (const Index v : vertices) {
            require(v >= 0 && v < nv, "FrictionCollisions::build: collisions.", list, "[", index,
                    "] references vertex ", v, " but the mesh has ", nv, " vertices");
        }
    };
    require(std::isfinite(dhat) && dhat > 0, "FrictionCollisions::build: dhat must be finite and positive, got ", dhat);
    detail::check_collisions_dhat(collisions.dhat(), dhat, "FrictionCollisions::build");
    require(std::isfinite(kappa) && kappa > 0, "FrictionCollisions::build: kappa must be finite and positive, got ",
            kappa);
    const auto at = [&](Index i) { return Eigen::Vector3d(V(i, 0), V(i, 1), V(i, 2)); };
    const auto force = [&](double distance_squared, double offset, double weight) {
        return weight * normal_force_magnitude<Barrier>(distance_squared, offset, dhat, kappa);
    };

    clear();
    const auto vv = detail::process_in_blocks<detail::FrictionBlock>(
        collisions.vertex_vertex.size(), [&](std::size_t i, detail::FrictionBlock& out) {
            const VertexVertexCollision& c = collisions.vertex_vertex[i];
            check(c.vertices, "vertex_vertex", i);
            const Eigen::Vector3d a = at(c.vertices[0]), b = at(c.vertices[1]);
            const double lambda = force((a - b).squaredNorm(), c.offset, c.weight);
            out.vertex_vertex.push_back({ c.vertices, point_point_friction_contact(a, b, lambda, mu) });
        });
    const auto ev = detail::process_in_blocks<detail::FrictionBlock>(
        collisions.edge_vertex.size(), [&](std::size_t i, detail::FrictionBlock& out) {
            const EdgeVertexCollision& c = collisions.edge_vertex[i];
            check(c.vertices, "edge_vertex", i);
            const Eigen::Vector3d p = at(c.vertices[0]), e0 = at(c.vertices[1]), e1 = at(c.vertices[2]);
            const double lambda = force(point_line_distance_squared(p, e0, e1), c.offset, c.weight);
            out.edge_vertex.push_back({ c.vertices, point_edge_friction_contact(p, e0, e1, lambda, mu) });
        });
    const auto ee = detail::process_in_blocks<detail::FrictionBlock>(
        collisions.edge_edge.size(), [&](std::size_t i, detail::FrictionBlock& out) {
            const EdgeEdgeCollision& c = collisions.edge_edge[i];
            check(c.vertices, "edge_edge", i);
            const Index a0 = c.vertices[0], a1 = c.vertices[1], b0 = c.vertices[2], b1 = c.vertices[3];
            const double distance_squared = c.distance_squared(detail::gather_positions(V, c.vertices));
            const double lambda = force(distance_squared, c.offset, c.weight);
            const auto point_edge = [&](Index p, Index e0, Index e1) {
                out.edge_vertex.push_back(
                    { { { p, e0, e1 } }, point_edge_friction_contact(at(p), at(e0), at(e1), lambda, mu) });
            };
            const auto point_point = [&](Index p, Index q) {
                out.vertex_vertex.push_back({ { { p, q } }, point_point_friction_contact(at(p), at(q), lambda, mu) });
            };
            using Type = EdgeEdgeDistanceType;
            switch (c.type) {
            case Type::EA_EB:
                out.edge_edge.push_back(
                    { c.vertices, edge_edge_friction_contact(at(a0), at(a1), at(b0), at(b1), lambda, mu) });
                break;
            case Type::EA0_EB: point_edge(a0, b0, b1); break;
            case Type::EA1_EB: point_edge(a1, b0, b1); break;
            case Type::EA_EB0: point_edge(b0, a0, a1); break;
            case Type::EA_EB1: point_edge(b1, a0, a1); break;
            case Type::EA0_EB0: point_point(a0, b0); break;
            case Type::EA0_EB1: point_point(a0, b1); break;
            case Type::EA1_EB0: point_point(a1, b0); break;
            case Type::EA1_EB1: point_point(a1, b1); break;
            }
        });
    const auto fv = detail::process_in_blocks<detail::FrictionBlock>(
        collisions.face_vertex.size(), [&](std::size_t i, detail::FrictionBlock& out) {
            const FaceVertexCollision& c = collisions.face_vertex[i];
            check(c.vertices, "face_vertex", i);
            const Eigen::Vector3d p = at(c.vertices[0]), t0 = at(c.vertices[1]), t1 = at(c.vertices[2]),
                                  t2 = at(c.vertices[3]);
            const double lambda = force(point_plane_distance_squared(p, t0, t1, t2), c.offset, c.weight);
            out.face_vertex.push_back({ c.vertices, point_triangle_friction_contact(p, t0, t1, t2, lambda, mu) });
        });
    for (const auto* blocks : { &vv, &ev, &ee, &fv }) {
        for (const detail::FrictionBlock& block : *blocks) {
            detail::append(vertex_vertex, block.vertex_vertex);
            detail::append(edge_vertex, block.edge_vertex);
            detail::append(edge_edge, block.edge_edge);
            detail::append(face_vertex, block.face_vertex);
        }
    }
}

inline void FrictionCollisions::add(const PairDistance& pair, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                    double normal_force, double mu)
{
    require(V.cols() == 3, "FrictionCollisions::add: positions must have 3 columns, got ", V.cols());
    require(std::isfinite(normal_force) && normal_force >= 0,
            "FrictionCollisions::add: normal_force must be finite and non-negative, got ", normal_force);
    require(std::isfinite(mu) && mu >= 0, "FrictionCollisions::add: mu must be finite and non-negative, got ", mu);
    const auto& s = pair.stencil.vertices;
    for (int k = 0; k < pair.stencil.count; ++k) {
        require(s[std::size_t(k)] >= 0 && s[std::size_t(k)] < V.rows(), "FrictionCollisions::add: stencil vertex ",
                s[std::size_t(k)], " is out of range (", V.rows(), " vertices)");
    }
    const auto at = [&](Index i) { return Eigen::Vector3d(V(i, 0), V(i, 1), V(i, 2)); };
    const auto point_point = [&](Index p, Index q) {
        vertex_vertex.push_back({ { { p, q } }, point_point_friction_contact(at(p), at(q), normal_force, mu) });
    };
    const auto point_edge = [&](Index p, Index e0, Index e1) {
        edge_vertex.push_back(
            { { { p, e0, e1 } }, point_edge_friction_contact(at(p), at(e0), at(e1), normal_force, mu) });
    };
    if (const auto* type = std::get_if<PointEdgeDistanceType>(&pair.type)) {
        switch (*type) {
        case PointEdgeDistanceType::P_E0: point_point(s[0], s[1]); break;
        case PointEdgeDistanceType::P_E1: point_point(s[0], s[2]); break;
        default: point_edge(s[0], s[1], s[2]); break;
        }
    } else if (const auto* type = std::get_if<PointTriangleDistanceType>(&pair.type)) {
        using Type = PointTriangleDistanceType;
        switch (*type) {
        case Type::P_T0: point_point(s[0], s[1]); break;
        case Type::P_T1: point_point(s[0], s[2]); break;
        case Type::P_T2: point_point(s[0], s[3]); break;
        case Type::P_E0: point_edge(s[0], s[1], s[2]); break;
        case Type::P_E1: point_edge(s[0], s[2], s[3]); break;
        case Type::P_E2: point_edge(s[0], s[3], s[1]); break;
        default:
            face_vertex.push_back({ { { s[0], s[1], s[2], s[3] } },
                                    point_triangle_friction_contact(at(s[0]), at(s[1]), at(s[2]), at(s[3]),
                                                                    normal_force, mu) });
            break;
        }
    } else if (const auto* type = std::get_if<EdgeEdgeDistanceType>(&pair.type)) {
        using Type = EdgeEdgeDistanceType;
        switch (*type) {
        case Type::EA0_EB0: point_point(s[0], s[2]); break;
        case Type::EA0_EB1: point_point(s[0], s[3]); break;
        case Type::EA1_EB0: point_point(s[1], s[2]); break;
        case Type::EA1_EB1: point_point(s[1], s[3]); break;
        case Type::EA_EB0: point_edge(s[2], s[0], s[1]); break;
        case Type::EA_EB1: point_edge(s[3], s[0], s[1]); break;
        case Type::EA0_EB: point_edge(s[0], s[2], s[3]); break;
        case Type::EA1_EB: point_edge(s[1], s[2], s[3]); break;
        default:
            edge_edge.push_back({ { { s[0], s[1], s[2], s[3] } },
                                  edge_edge_friction_contact(at(s[0]), at(s[1]), at(s[2]), at(s[3]), normal_force,
                                                             mu) });
            break;
        }
    } else {
        point_point(s[0], s[1]);
    }
}

} // namespace ipc
