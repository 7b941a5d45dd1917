#pragma once
/// @file
/// Barrier potential of vertex-obstacle contacts:
///     B(x) = kappa * sum_k b(phi_k(x_v)^2 - xi_k^2, 2 xi_k dhat + dhat^2)
/// over the contacts k = (vertex v, obstacle, offset xi) of an
/// ObstacleCollisions set, with phi the obstacle's signed distance (m) and b
/// the barrier shape (ClampedLogBarrier by default). It is the barrier of
/// BarrierPotential with the signed distance phi in place of the pair
/// distance d (offset_barrier.hpp): a plane obstacle and a triangle ground
/// mesh in the same place give the same energy for vertices above the
/// triangles' interiors. BarrierPotential exposes these functions as
/// overloads taking an ObstacleCollisions set.
///
/// Derivatives with respect to the vertex position x (g = grad phi, H_phi
/// its Hessian, b' and b'' the derivatives in the first argument):
///     grad = kappa b' 2 phi g
///     hess = kappa (4 phi^2 b'' g g^T + 2 b' (g g^T + phi H_phi)),
/// with the exact H_phi of the analytic shapes and the callback's Hessian (or
/// zero, the Gauss-Newton term of the tangent-plane model) for a callback
/// obstacle (see SignedDistanceObstacle).
///
/// Gradients are dense, 3 n entries (x, y, z per vertex); Hessians sparse
/// 3n x 3n, assembled with StencilAssembly (parallel, bit-identical for any
/// thread count).

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ipc {

// ---------------------------------------------------------------------------
// One contact (raw kernels: no validation)

/// Barrier value kappa b(phi^2 - xi^2, 2 xi dhat + dhat^2) of one contact
/// from the signed distance phi (m), offset xi (m), activation distance dhat
/// (m) and stiffness kappa. Zero for phi >= xi + dhat, +infinity for
/// phi <= xi (inside the offset or the obstacle) with a diverging shape.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar obstacle_barrier_value(const Scalar& phi, const Scalar& xi, const Scalar& dhat, const Scalar& kappa)
{
    if (!(phi > xi)) {
        return Scalar(std::numeric_limits<double>::infinity());
    }
    return kappa * offset_barrier<Barrier>(Scalar(phi * phi), xi, dhat);
}

/// Gradient kappa b' 2 phi grad_phi of obstacle_barrier_value with respect
/// to the vertex position, from phi (m) and its gradient grad_phi at the
/// vertex. Requires phi > xi (not checked).
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Vector3<Scalar> obstacle_barrier_gradient(const Scalar& phi, const Vector3<Scalar>& grad_phi, const Scalar& xi,
                                          const Scalar& dhat, const Scalar& kappa)
{
    const Scalar db = offset_barrier_first_derivative<Barrier>(Scalar(phi * phi), xi, dhat);
    return (kappa * db * Scalar(2) * phi) * grad_phi;
}

/// Hessian kappa (4 phi^2 b'' g g^T + 2 b' (g g^T + phi H_phi)) of
/// obstacle_barrier_value with respect to the vertex position, from phi (m),
/// its gradient g and Hessian hess_phi (1/m) at the vertex; projected to the
/// positive semi-definite cone unless projection is none. Requires phi > xi
/// (not checked).
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Matrix<Scalar, 3, 3> obstacle_barrier_hessian(const Scalar& phi, const Vector3<Scalar>& grad_phi,
                                         const Matrix<Scalar, 3, 3>& hess_phi, const Scalar& xi, const Scalar& dhat,
                                         const Scalar& kappa, PSDProjection projection = PSDProjection::none)
{
    const Scalar d2 = phi * phi;
    const Scalar db = offset_barrier_first_derivative<Barrier>(d2, xi, dhat);
    const Scalar d2b = offset_barrier_second_derivative<Barrier>(d2, xi, dhat);
    const Matrix<Scalar, 3, 3> gg = grad_phi * grad_phi.transpose();
    Matrix<Scalar, 3, 3> H = (kappa * (Scalar(4) * d2 * d2b + Scalar(2) * db)) * gg
        + (kappa * Scalar(2) * db * phi) * hess_phi;
    H = Scalar(0.5) * (H + H.transpose()).eval();
    return project_to_psd(H, projection);
}

// ---------------------------------------------------------------------------
// Whole mesh

namespace detail {
    /// Validates a mesh-level obstacle-barrier call, checks that every
    /// contact is outside its offset (ipc::penetration otherwise, naming the
    /// contact) and returns the one-vertex stencils' assembly.
    inline StencilAssembly prepare_obstacle_barrier(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat,
                                                    const char* who)
    {
        check_obstacle_mesh_positions(mesh, V, who, "positions V");
        check_obstacle_collisions_dhat(contacts.dhat(), dhat, who);
        const Index nv = mesh.num_vertices();
        const Index no = contacts.obstacles.size();
        for (std::size_t k = 0; k < contacts.size(); ++k) {
            const VertexObstacleCollision& c = contacts.vertex_obstacle[k];
            require(c.vertex >= 0 && c.vertex < nv, who, ": obstacle contact ", k, " references vertex ", c.vertex,
                    " but the mesh has ", nv, " vertices");
            require(c.obstacle >= 0 && c.obstacle < no, who, ": obstacle contact ", k, " references obstacle ",
                    c.obstacle, " but the set has ", no, " obstacles");
            require(std::isfinite(c.offset) && c.offset >= 0, who, ": obstacle contact ", k,
                    " has offset ", c.offset, " (must be finite and non-negative)");
        }
        std::vector<double> phi(contacts.size());
        guarded_parallel_for(0, std::ptrdiff_t(contacts.size()), [&](std::ptrdiff_t k) {
            const VertexObstacleCollision& c = contacts.vertex_obstacle[std::size_t(k)];
            phi[std::size_t(k)] = contacts.obstacles.signed_distance(c.obstacle, obstacle_row3(V, c.vertex));
        }, min_parallel_stencils);
        for (std::size_t k = 0; k < phi.size(); ++k) {
            const VertexObstacleCollision& c = contacts.vertex_obstacle[k];
            if (!(phi[k] > c.offset)) {
                throw penetration(concat(who, ": obstacle contact ", k, " (vertex ", c.vertex, ", obstacle ",
                                         c.obstacle, " (", contacts.obstacles.name(c.obstacle),
                                         ")) has signed distance ", phi[k], " <= its offset ", c.offset));
            }
        }
        return StencilAssembly(nv, Index(contacts.size()), [&](Index k) {
            StencilVertices s;
            s.size = 1;
            s.vertices[0] = contacts.vertex_obstacle[std::size_t(k)].vertex;
            return s;
        });
    }
} // namespace detail

/// Barrier energy (kappa included) of the obstacle contacts at positions V
/// (mesh.num_vertices() x 3, m), for activation distance dhat (m) and
/// stiffness kappa. Throws ipc::invalid_argument for a 2D mesh, bad
/// positions, contact indices out of range or a set built with another dhat
/// (not checked when contacts.dhat() is 0), and ipc::penetration when a
/// vertex is at or inside its offset (naming the contact).
template <typename Barrier = ClampedLogBarrier>
double obstacle_barrier_potential(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                                  const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_barrier(contacts, mesh, V, dhat, "BarrierPotential (obstacles)");
    return assembly.sum([&](Index k) {
        const VertexObstacleCollision& c = contacts.vertex_obstacle[std::size_t(k)];
        const double phi = contacts.obstacles.signed_distance(c.obstacle, detail::obstacle_row3(V, c.vertex));
        return obstacle_barrier_value<Barrier>(phi, c.offset, dhat, kappa);
    });
}

/// Gradient (3 n entries) of obstacle_barrier_potential. Validates as it.
template <typename Barrier = ClampedLogBarrier>
Eigen::VectorXd obstacle_barrier_potential_gradient(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat,
                                                    double kappa)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_barrier(contacts, mesh, V, dhat, "BarrierPotential::gradient (obstacles)");
    return assembly.gradient([&](Index k, Vector<double, 12>& out) {
        const VertexObstacleCollision& c = contacts.vertex_obstacle[std::size_t(k)];
        const Eigen::Vector3d p = detail::obstacle_row3(V, c.vertex);
        const double phi = contacts.obstacles.signed_distance(c.obstacle, p);
        out.head<3>() = obstacle_barrier_gradient<Barrier>(
            phi, Eigen::Vector3d(contacts.obstacles.gradient(c.obstacle, p)), c.offset, dhat, kappa);
    });
}

/// Sparse Hessian (3n x 3n) of obstacle_barrier_potential written into H
/// (storage reused when large enough), each contact's 3 x 3 block projected
/// to PSD first unless projection is none. Validates as
/// obstacle_barrier_potential.
template <typename Barrier = ClampedLogBarrier>
void obstacle_barrier_potential_hessian(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, double kappa,
                                        PSDProjection projection, Eigen::SparseMatrix<double>& H)
{
    const StencilAssembly assembly =
        detail::prepare_obstacle_barrier(contacts, mesh, V, dhat, "BarrierPotential::hessian (obstacles)");
    assembly.hessian(
        [&](Index k, Matrix<double, 12, 12>& out) {
            const VertexObstacleCollision& c = contacts.vertex_obstacle[std::size_t(k)];
            const Eigen::Vector3d p = detail::obstacle_row3(V, c.vertex);
            const double phi = contacts.obstacles.signed_distance(c.obstacle, p);
            out.topLeftCorner<3, 3>() = obstacle_barrier_hessian<Barrier>(
                phi, Eigen::Vector3d(contacts.obstacles.gradient(c.obstacle, p)),
                Eigen::Matrix3d(contacts.obstacles.hessian(c.obstacle, p)), c.offset, dhat, kappa, projection);
        },
        H);
}

} // namespace ipc
