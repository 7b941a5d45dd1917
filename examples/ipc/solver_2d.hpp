#pragma once
/// @file
/// The 2D reference IPC time stepper: the method of the 3D Simulator
/// (solver.hpp) on a 2D scene (common/model_2d.hpp), built from the
/// library's 2D blocks (CollisionMesh with n x 2 positions, Collisions,
/// BarrierPotential, FrictionCollisions and FrictionPotential,
/// collision_free_step_size, StencilAssembly with dim = 2).
///
/// Per time step (h = dt), with x_hat = x^t + h v^t + h^2 g:
///   E(x) = 1/2 |x - x_hat|_M^2 + h^2 Psi(x) + B(x) + D(x)
/// where Psi is the stable neo-Hookean energy of the soft bodies' triangles
/// plus the rope springs (common/elasticity_2d.hpp), B = kappa sum_k
/// b(d_k^2 - xi_k^2, 2 xi_k dhat + dhat^2) over the active point-edge and
/// point-point pairs, and D the lagged friction potential (mu, eps_v h).
/// kappa adapts per IPC (bounds from the scene's size and masses, per-step
/// initial value balancing the gradients, doubling when a gap keeps
/// shrinking). Projected Newton (per-element PSD projection) with a
/// backtracking line search started at the CCD bound; termination as in
/// the 3D solver (SolverParameters::termination, by default
/// r = (1/h) sqrt(|p|^2 / n_free) < eps_d on converged_iterations
/// consecutive iterations). Every quantity is per metre of depth (plane
/// strain): masses kg/m, energies J/m.
///
/// Differences from the 3D solver: no strain limiting, no scripted
/// vertices (obstacles are fixed). The linear solver is the 3D solver's
/// (common/newton_linear_solver.hpp).

#include <common/model_2d.hpp>

#include "solver.hpp"

#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <memory>
#include <optional>

namespace ipc::examples {

/// Implicit-Euler IPC simulator of a Model2D; see the file comment.
class Simulator2D {
public:
    /// Takes the model and parameters (the 3D solver's; strain_limit must be
    /// unset). Throws ipc::invalid_argument for bad parameters and for a
    /// bad model (wrong sizes, non-finite values, out-of-range indices, a
    /// free vertex without mass, a degenerate triangle, a spring of zero
    /// rest length, non-positive material constants), what the collision
    /// mesh's construction throws (ipc::degenerate_geometry for a zero-length
    /// edge), and ipc::penetration when the initial state intersects or has
    /// a pair at or inside its offset.
    Simulator2D(Model2D model, const SolverParameters& parameters);
    ~Simulator2D();
    Simulator2D(Simulator2D&&) noexcept;
    Simulator2D& operator=(Simulator2D&&) noexcept;

    const Model2D& model() const;
    /// The 2D collision mesh (contact edges, radii, fixed obstacles).
    const CollisionMesh& collision_mesh() const;
    const SolverParameters& parameters() const;
    /// Current positions (n x 2, m).
    const Eigen::MatrixXd& positions() const;
    /// Current velocities (n x 2, m/s).
    const Eigen::MatrixXd& velocities() const;
    /// Simulated time (s).
    double time() const;
    /// Current barrier stiffness.
    double kappa() const;

    /// Smallest gap d - xi over the active pairs at x (m), none when no pair
    /// is within xi + dhat.
    std::optional<double> minimum_gap(const Eigen::MatrixXd& x) const;

    /// Elastic energy Psi(x) of the triangles and springs (J/m) at x (n x 2).
    double elastic_energy(const Eigen::MatrixXd& x) const;
    /// Kinetic energy 1/2 sum m |v|^2 of the current state (J/m).
    double kinetic_energy() const;
    /// Gravitational potential energy -sum m g . x at x (J/m).
    double gravity_energy(const Eigen::MatrixXd& x) const;

    /// Advances one time step.
    StepStats step();

    /// The per-step objective E(x) at positions x (n x 2) with the current
    /// stiffness, predictor and lagged friction (J/m); +infinity when a
    /// pair is at or inside its offset. For tests.
    double incremental_potential(const Eigen::MatrixXd& x) const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ipc::examples
