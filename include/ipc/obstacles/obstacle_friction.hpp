#pragma once
/// @file
/// Lagged friction of vertex-obstacle contacts (IPC section 5.3 with a
/// static obstacle as the other body). One frictional contact per contact of
/// an ObstacleCollisions set, evaluated at the lag positions and then held
/// fixed:
///  - normal n = the obstacle's signed-distance gradient at the lag point
///    (normalised), tangent basis T = an orthonormal basis of the plane
///    orthogonal to n (the deterministic one of the mesh contacts);
///  - normal force lambda = kappa * 2 phi |b'(phi^2 - xi^2, 2 xi dhat + dhat^2)|,
///    the barrier's force conjugate to phi, with the dhat, kappa and barrier
///    shape of the barrier potential (normal_force_magnitude, as
///    FrictionCollisions::build does for mesh pairs);
///  - relative displacement = the vertex's displacement (the obstacle does
///    not move): a one-vertex FrictionContact with weight 1.
/// The friction energy is then D(U) = sum_k mu lambda_k f0(|T_k^T U_v|), with
/// U the displacements over the step (m), evaluated by FrictionPotential
/// (overloads taking an ObstacleFrictionCollisions set) or by the functions
/// below.
///
/// Design: a set of its own rather than a fifth list of FrictionCollisions,
/// so that mesh-mesh friction keeps its types and a simulator adds the
/// obstacle term beside it: D = friction(mesh_contacts, mesh, U) +
/// friction(obstacle_contacts, mesh, U) with the same FrictionPotential.

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/friction_mollifier.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/friction/tangent_basis.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <string>
#include <vector>

namespace ipc {

namespace detail {
    /// Orthonormal tangent basis (3 x 2) at p of obstacle k: the complement
    /// of its unit normal grad phi / |grad phi|. Throws
    /// ipc::degenerate_geometry when the gradient is zero or not finite.
    inline Matrix<double, 3, 2> obstacle_tangent_basis(const ObstacleSet& obstacles, Index k, const Eigen::Vector3d& p,
                                                       Index vertex, const char* who)
    {
        const Eigen::Vector3d g = obstacles.gradient(k, p);
        const double length = g.norm();
        require<degenerate_geometry>(length > 0 && std::isfinite(length), who, ": obstacle ", k, " has gradient (",
                                     g[0], ", ", g[1], ", ", g[2], ") at vertex ", vertex, ": no contact normal");
        return orthonormal_complement<double>(Eigen::Vector3d(g / length));
    }
} // namespace detail

/// One lagged vertex-obstacle frictional contact.
struct VertexObstacleFriction {
    Index vertex = 0;                 ///< mesh vertex
    Index obstacle = 0;               ///< obstacle index at build time (informative)
    FrictionContact<double, 1> contact; ///< lagged basis, weight (1), lambda, mu
};

/// The lagged vertex-obstacle friction contacts of one lag configuration;
/// see the file comment.
class ObstacleFrictionCollisions {
public:
    std::vector<VertexObstacleFriction> vertex_obstacle; ///< in the order of the ObstacleCollisions set

    /// Builds one contact per contact of `contacts` (built at V) from the lag
    /// positions V (n x 3, m), the barrier's activation distance dhat (m),
    /// stiffness kappa and shape Barrier (those of the BarrierPotential in
    /// use) and the friction coefficient mu >= 0.
    /// Throws ipc::invalid_argument for a 2D mesh, bad positions, dhat,
    /// kappa or mu, out-of-range indices, a dhat other than the one the set
    /// was built with (not checked when contacts.dhat() is 0);
    /// ipc::penetration when a vertex is at or inside its offset; and
    /// ipc::degenerate_geometry when an obstacle's gradient is zero or not
    /// finite at a contact (no normal).
    template <typename Barrier = ClampedLogBarrier>
    void build(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
               const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa, double mu)
    {
        const char* who = "ObstacleFrictionCollisions::build";
        detail::check_obstacle_mesh_positions(mesh, V, who, "positions V");
        require(std::isfinite(dhat) && dhat > 0, who, ": dhat must be finite and positive, got ", dhat);
        detail::check_obstacle_collisions_dhat(contacts.dhat(), dhat, who);
        require(std::isfinite(kappa) && kappa > 0, who, ": kappa must be finite and positive, got ", kappa);
        require(std::isfinite(mu) && mu >= 0, who, ": mu must be finite and non-negative, got ", mu);
        const Index nv = mesh.num_vertices(), no = contacts.obstacles.size();
        clear();
        vertex_obstacle.resize(contacts.size());
        detail::guarded_parallel_for(0, std::ptrdiff_t(contacts.size()), [&](std::ptrdiff_t i) {
            const VertexObstacleCollision& c = contacts.vertex_obstacle[std::size_t(i)];
            require(c.vertex >= 0 && c.vertex < nv, who, ": obstacle contact ", i, " references vertex ", c.vertex,
                    " but the mesh has ", nv, " vertices");
            require(c.obstacle >= 0 && c.obstacle < no, who, ": obstacle contact ", i, " references obstacle ",
                    c.obstacle, " but the set has ", no, " obstacles");
            const Eigen::Vector3d p = detail::obstacle_row3(V, c.vertex);
            const double phi = contacts.obstacles.signed_distance(c.obstacle, p);
            require<penetration>(phi > c.offset, who, ": obstacle contact ", i, " (vertex ", c.vertex,
                                 ", obstacle ", c.obstacle, ") has signed distance ", phi, " <= its offset ",
                                 c.offset);
            VertexObstacleFriction& out = vertex_obstacle[std::size_t(i)];
            out.vertex = c.vertex;
            out.obstacle = c.obstacle;
            out.contact.tangent_basis
                = detail::obstacle_tangent_basis(contacts.obstacles, c.obstacle, p, c.vertex, who);
            out.contact.weights = Vector<double, 1>::Ones();
            // normal_force_magnitude takes the squared distance: phi > xi >= 0 here.
            out.contact.normal_force = normal_force_magnitude<Barrier>(phi * phi, c.offset, dhat, kappa);
            out.contact.mu = mu;
        });
    }

    /// Adds the contact of vertex `vertex` with obstacle `obstacle` of
    /// `obstacles`, with a normal force given by the caller instead of a
    /// barrier (e.g. an augmented-Lagrangian multiplier): the tangent basis
    /// is orthogonal to the obstacle's normal grad phi at the vertex's lag
    /// position (row `vertex` of V, n x 3, m). normal_force >= 0 (N, in the
    /// units of the incremental potential: no 1/h^2), mu >= 0. Throws
    /// ipc::invalid_argument for bad values, positions or indices, and
    /// ipc::degenerate_geometry where the obstacle has no normal.
    void add(Index vertex, Index obstacle, const ObstacleSet& obstacles, const Eigen::Ref<const Eigen::MatrixXd>& V,
             double normal_force, double mu)
    {
        const char* who = "ObstacleFrictionCollisions::add";
        require(V.cols() == 3, who, ": positions must have 3 columns, got ", V.cols());
        require(vertex >= 0 && vertex < V.rows(), who, ": vertex ", vertex, " is out of range (", V.rows(),
                " vertices)");
        require(obstacle >= 0 && obstacle < obstacles.size(), who, ": obstacle ", obstacle, " is out of range (",
                obstacles.size(), " obstacles)");
        require(std::isfinite(normal_force) && normal_force >= 0, who,
                ": normal_force must be finite and non-negative, got ", normal_force);
        require(std::isfinite(mu) && mu >= 0, who, ": mu must be finite and non-negative, got ", mu);
        const Eigen::Vector3d p = detail::obstacle_row3(V, vertex);
        require(p.allFinite(), who, ": vertex ", vertex, " has a non-finite position");
        VertexObstacleFriction out;
        out.vertex = vertex;
        out.obstacle = obstacle;
        out.contact.tangent_basis = detail::obstacle_tangent_basis(obstacles, obstacle, p, vertex, who);
        out.contact.weights = Vector<double, 1>::Ones();
        out.contact.normal_force = normal_force;
        out.contact.mu = mu;
        vertex_obstacle.push_back(out);
    }

    /// Number of contacts.
    std::size_t size() const { return vertex_obstacle.size(); }
    /// True when there is no contact.
    bool empty() const { return vertex_obstacle.empty(); }
    /// Removes every contact.
    void clear() { vertex_obstacle.clear(); }
};

namespace detail {
    /// Validates a mesh-level obstacle-friction call and returns the
    /// one-vertex stencils' assembly.
    inline StencilAssembly prepare_obstacle_friction(const ObstacleFrictionCollisions& contacts,
                                                     const CollisionMesh& mesh,
                                                     const Eigen::Ref<const Eigen::MatrixXd>& U, double eps,
                                                     const char* who)
    {
        check_obstacle_mesh_positions(mesh, U, who, "displacements U");
        require(std::isfinite(eps) && eps > 0, who, ": eps must be finite and positive, got ", eps);
        const Index nv = mesh.num_vertices();
        for (std::size_t k = 0; k < contacts.size(); ++k) {
            const VertexObstacleFriction& c = contacts.vertex_obstacle[k];
            require(c.vertex >= 0 && c.vertex < nv, who, ": obstacle friction contact ", k, " references vertex ",
                    c.vertex, " but the mesh has ", nv, " vertices");
        }
        return StencilAssembly(nv, Index(contacts.size()), [&](Index k) {
            StencilVertices s;
            s.size = 1;
            s.vertices[0] = contacts.vertex_obstacle[std::size_t(k)].vertex;
            return s;
        });
    }
} // namespace detail

/// Friction energy sum_k mu lambda_k f0(|T_k^T U_v|) of the obstacle
/// contacts for displacements U (n x 3, m) and slip threshold eps = eps_v h
/// (m). Throws ipc::invalid_argument for a 2D mesh, bad displacements, eps
/// or out-of-range vertices.
template <typename Mollifier = C1FrictionMollifier>
double obstacle_friction_potential(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                                   const Eigen::Ref<const Eigen::MatrixXd>& U, double eps)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_friction(contacts, mesh, U, eps, "FrictionPotential (obstacles)");
    return assembly.sum([&](Index k) {
        const VertexObstacleFriction& c = contacts.vertex_obstacle[std::size_t(k)];
        return friction_energy<Mollifier>(c.contact, detail::obstacle_row3(U, c.vertex), eps);
    });
}

/// Gradient (3 n entries) of obstacle_friction_potential: the negated
/// friction forces. Validates as it.
template <typename Mollifier = C1FrictionMollifier>
Eigen::VectorXd obstacle_friction_potential_gradient(const ObstacleFrictionCollisions& contacts,
                                                     const CollisionMesh& mesh,
                                                     const Eigen::Ref<const Eigen::MatrixXd>& U, double eps)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_friction(contacts, mesh, U, eps, "FrictionPotential::gradient (obstacles)");
    return assembly.gradient([&](Index k, Vector<double, 12>& out) {
        const VertexObstacleFriction& c = contacts.vertex_obstacle[std::size_t(k)];
        out.head<3>() = friction_gradient<Mollifier>(c.contact, detail::obstacle_row3(U, c.vertex), eps);
    });
}

/// Sparse Hessian (3n x 3n) of obstacle_friction_potential written into H
/// (storage reused when large enough), in the given form (friction_energy.hpp);
/// PSD by construction, projection (other than none) only removes round-off.
/// Validates as obstacle_friction_potential.
template <typename Mollifier = C1FrictionMollifier>
void obstacle_friction_potential_hessian(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                                         const Eigen::Ref<const Eigen::MatrixXd>& U, double eps,
                                         PSDProjection projection, Eigen::SparseMatrix<double>& H,
                                         FrictionHessianForm form = FrictionHessianForm::exact)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_friction(contacts, mesh, U, eps, "FrictionPotential::hessian (obstacles)");
    assembly.hessian(
        [&](Index k, Matrix<double, 12, 12>& out) {
            const VertexObstacleFriction& c = contacts.vertex_obstacle[std::size_t(k)];
            const Matrix<double, 3, 3> local =
                friction_hessian<Mollifier>(c.contact, detail::obstacle_row3(U, c.vertex), eps,
                                            PSDProjection::none, form);
            out.topLeftCorner<3, 3>() = projection == PSDProjection::none ? local : project_to_psd(local, projection);
        },
        H);
}

} // namespace ipc
