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
#include <ipc/friction/anisotropic_friction.hpp>
#include <ipc/friction/friction_blend.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>
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
    /// Number of vertices of the stencil (VertexCount).
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
    /// the lag positions V (n x 3, m; n x 2 for a 2D mesh, whose contacts are
    /// those of the plane z = 0). The normal forces come from the
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
    /// tangent basis and weights come from V (n x 3, m; n x 2 for 2D, padded
    /// with z = 0). normal_force >= 0
    /// (N, in the units of the incremental potential: no 1/h^2), mu >= 0.
    /// Throws ipc::invalid_argument for bad values or positions.
    void add(const PairDistance& pair, const Eigen::Ref<const Eigen::MatrixXd>& V, double normal_force, double mu);

    /// Static and kinetic coefficients (static_kinetic_friction.hpp): as the
    /// scalar build() with mu = mu_k, then every contact gets the static
    /// coefficient mu_s >= 0 and the transition width `transition` (> 0,
    /// multiples of the friction potential's eps). mu_s == mu_k gives the
    /// scalar build exactly. Throws as build(), and ipc::invalid_argument for
    /// a bad mu_s, mu_k or transition.
    template <typename Barrier = ClampedLogBarrier>
    void build(const Collisions& collisions, const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
               double dhat, double kappa, double mu_s, double mu_k, double transition = 1.0);

    /// Per-vertex coefficients: mu holds one coefficient per mesh vertex
    /// (finite, >= 0); each contact's mu is blended from its vertices'
    /// (friction_blend.hpp: the closest-point average on each side, the two
    /// sides combined by `blend`). A uniform vector gives the scalar build
    /// exactly. Throws as build(), and ipc::invalid_argument for a wrongly
    /// sized, negative or non-finite mu (naming the entry).
    template <typename Barrier = ClampedLogBarrier>
    void build(const Collisions& collisions, const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
               double dhat, double kappa, const Eigen::Ref<const Eigen::VectorXd>& mu,
               FrictionBlend blend = FrictionBlend::geometric_mean);

    /// Per-vertex static and kinetic coefficients (one each per mesh vertex,
    /// finite, >= 0), each blended per contact as above, with transition
    /// width `transition` (> 0, multiples of eps). Throws as the overloads
    /// above.
    template <typename Barrier = ClampedLogBarrier>
    void build(const Collisions& collisions, const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
               double dhat, double kappa, const Eigen::Ref<const Eigen::VectorXd>& mu_s,
               const Eigen::Ref<const Eigen::VectorXd>& mu_k, FrictionBlend blend = FrictionBlend::geometric_mean,
               double transition = 1.0);

    /// Makes every contact anisotropic (anisotropic_friction.hpp): the world
    /// material direction (m, any non-zero length) is projected into each
    /// contact's plane, and the coefficients (static and kinetic) are scaled
    /// by scale_a >= 0 along it and scale_b >= 0 across it. Call once, right
    /// after a build. Throws ipc::invalid_argument for a zero or non-finite
    /// direction or a negative or non-finite scale.
    void make_anisotropic(const Eigen::Vector3d& direction, double scale_a, double scale_b);

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
    const auto at = [&](Index i) { return detail::padded_row(V, i); }; // z = 0 in 2D
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
    require(V.cols() == 3 || V.cols() == 2, "FrictionCollisions::add: positions must have 3 (or, 2D, 2) columns, got ",
            V.cols());
    require(std::isfinite(normal_force) && normal_force >= 0,
            "FrictionCollisions::add: normal_force must be finite and non-negative, got ", normal_force);
    require(std::isfinite(mu) && mu >= 0, "FrictionCollisions::add: mu must be finite and non-negative, got ", mu);
    const auto& s = pair.stencil.vertices;
    for (int k = 0; k < pair.stencil.count; ++k) {
        require(s[std::size_t(k)] >= 0 && s[std::size_t(k)] < V.rows(), "FrictionCollisions::add: stencil vertex ",
                s[std::size_t(k)], " is out of range (", V.rows(), " vertices)");
    }
    const auto at = [&](Index i) { return detail::padded_row(V, i); }; // z = 0 in 2D
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

// Static/kinetic, per-vertex and anisotropic friction.

namespace detail {
    /// Calls f(stencil, first_side_count) for every contact (1: a point
    /// against a primitive, 2: edge against edge).
    template <typename F> void for_each_friction_stencil(FrictionCollisions& contacts, const F& f)
    {
        for (auto& s : contacts.vertex_vertex) {
            f(s, 1);
        }
        for (auto& s : contacts.edge_vertex) {
            f(s, 1);
        }
        for (auto& s : contacts.edge_edge) {
            f(s, 2);
        }
        for (auto& s : contacts.face_vertex) {
            f(s, 1);
        }
    }
} // namespace detail

template <typename Barrier>
void FrictionCollisions::build(const Collisions& collisions, const CollisionMesh& mesh,
                               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa, double mu_s,
                               double mu_k, double transition)
{
    detail::require_static_kinetic_parameters(mu_s, mu_k, transition, "FrictionCollisions::build");
    build<Barrier>(collisions, mesh, V, dhat, kappa, mu_k);
    detail::for_each_friction_stencil(
        *this, [&](auto& s, int) { set_static_kinetic_friction(s.contact, mu_s, mu_k, transition); });
}

template <typename Barrier>
void FrictionCollisions::build(const Collisions& collisions, const CollisionMesh& mesh,
                               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa,
                               const Eigen::Ref<const Eigen::VectorXd>& mu, FrictionBlend blend)
{
    check_per_vertex_friction(mu, mesh.num_vertices(), "FrictionCollisions::build", "per-vertex mu");
    build<Barrier>(collisions, mesh, V, dhat, kappa, 0.0);
    detail::for_each_friction_stencil(*this, [&](auto& s, int side) {
        s.contact.mu = contact_friction_coefficient(s.vertices, s.contact.weights, side, mu, blend);
    });
}

template <typename Barrier>
void FrictionCollisions::build(const Collisions& collisions, const CollisionMesh& mesh,
                               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa,
                               const Eigen::Ref<const Eigen::VectorXd>& mu_s,
                               const Eigen::Ref<const Eigen::VectorXd>& mu_k, FrictionBlend blend, double transition)
{
    check_per_vertex_friction(mu_s, mesh.num_vertices(), "FrictionCollisions::build", "per-vertex mu_s");
    check_per_vertex_friction(mu_k, mesh.num_vertices(), "FrictionCollisions::build", "per-vertex mu_k");
    detail::require_static_kinetic_parameters(0.0, 0.0, transition, "FrictionCollisions::build");
    build<Barrier>(collisions, mesh, V, dhat, kappa, 0.0);
    detail::for_each_friction_stencil(*this, [&](auto& s, int side) {
        const double s_mu = contact_friction_coefficient(s.vertices, s.contact.weights, side, mu_s, blend);
        const double k_mu = contact_friction_coefficient(s.vertices, s.contact.weights, side, mu_k, blend);
        set_static_kinetic_friction(s.contact, s_mu, k_mu, transition);
    });
}

inline void FrictionCollisions::make_anisotropic(const Eigen::Vector3d& direction, double scale_a, double scale_b)
{
    for (int i = 0; i < 3; ++i) {
        require(std::isfinite(direction(i)), "FrictionCollisions::make_anisotropic: direction entry ", i, " = ",
                direction(i), " is not finite");
    }
    require(direction.squaredNorm() > 0, "FrictionCollisions::make_anisotropic: direction must be non-zero");
    require(std::isfinite(scale_a) && scale_a >= 0,
            "FrictionCollisions::make_anisotropic: scale_a must be finite and non-negative, got ", scale_a);
    require(std::isfinite(scale_b) && scale_b >= 0,
            "FrictionCollisions::make_anisotropic: scale_b must be finite and non-negative, got ", scale_b);
    detail::for_each_friction_stencil(
        *this, [&](auto& s, int) { make_friction_anisotropic(s.contact, direction, scale_a, scale_b); });
}

} // namespace ipc
