#pragma once
/// @file
/// The reference C-IPC time stepper: implicit Euler incremental potential
/// plus barrier contact, lagged friction and isotropic strain limiting,
/// minimised by projected Newton with a collision-free, strain-feasible
/// backtracking line search (IPC Alg. 1, C-IPC sections 3-4).
///
/// Per time step (h = dt), with x_hat = x^t + h v^t + h^2 g:
///   E(x) = 1/2 |x - x_hat|_M^2 + h^2 Psi(x) + h^2 Psi_SL(x) + B(x) + D(x)
/// where Psi is the model's elasticity, Psi_SL = kappa_s sum_t A_t xi_t psi_SL,
/// B = kappa sum_k b(d_k^2 - xi_k^2, 2 xi_k dhat + dhat^2) over the active
/// pairs of the collision mesh and the vertices within dhat of the model's
/// analytic obstacles (Model::analytic_obstacles: d = the signed distance,
/// with exact CCD against planes), and D the lagged friction potential.
/// kappa adapts per IPC (bounds, per-step initial value, doubling);
/// kappa_s per C-IPC (1 kPa doubling to at most 0.1 MPa).
/// Scripted vertices move toward their targets as far as CCD allows; when
/// that falls short they join the Newton unknowns with an augmented-
/// Lagrangian pull to their targets until 99.9% of the motion is taken (the
/// IPC reference code's moving boundary conditions).
/// Termination (C-IPC eq. 13): r = (1/h) sqrt(|p|^2 / n_free) < eps_d on
/// `converged_iterations` consecutive Newton iterations (other rules in
/// SolverParameters::termination).
/// When the model has a release rule (Model::release), the scripted vertices
/// become free for good at the start of the first step that meets it.

//
// This header declares the simulator; solver.cpp holds its implementation,
// compiled once into the ipc_solver library that ipc_sim and the tests link.

#include <common/model.hpp>
#include <common/newton_observer.hpp>

#include <ipc/core/psd_projection.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <cstdio>
#include <memory>
#include <string>
#include <optional>
#include <utility>
#include <vector>

namespace ipc::examples {

/// Parameters of the solver; defaults follow the papers.
struct SolverParameters {
    double dt = 0.04;         ///< time step h (s)
    double dhat = 1e-3;       ///< barrier activation distance (m)
    double mu = 0;            ///< friction coefficient
    double eps_v = 1e-3;      ///< friction velocity threshold (m/s)
    /// Lagged friction passes per step, at most (>= 1). Each pass updates
    /// the lagged normal forces and tangent bases and solves again; a pass
    /// after the first whose first Newton iterate already meets the
    /// termination test ends the lagging (the lagged problem has converged),
    /// as in the IPC reference code.
    int friction_iterations = 1;
    std::optional<double> strain_limit; ///< s (stretch factor), none: no strain limiting
    double strain_threshold = 1.0;       ///< s_hat
    double strain_stiffness = 1e3;       ///< initial kappa_s (Pa)
    double strain_stiffness_max = 1e5;   ///< largest kappa_s (Pa)
    double newton_tolerance = 1e-3;      ///< eps_d (m/s)
    int converged_iterations = 3;        ///< consecutive iterations below eps_d
    /// Newton iterations per friction pass, at most. A pass that reaches it
    /// ends with the last accepted iterate (intersection-free and, with a
    /// strain limit, strain-feasible, but not a minimiser of the incremental
    /// potential) and the step is reported as not converged.
    int max_newton_iterations = 1000;
    PSDProjection projection = PSDProjection::clamp;
    /// Newton termination: the residual rule above (C-IPC eq. 13), or the
    /// cumulative-TOI rule of Zheng et al. (2025, Eq. 9: at least toi_k_min
    /// iterations, then stop once the product of (1 - alpha) over the
    /// accepted step fractions falls below toi_eps).
    /// Or the IPC 2020 rule (max_norm): stop as soon as the Newton
    /// direction's largest coordinate, divided by h, is below
    /// newton_tolerance (checked before the line search, one iteration).
    enum class Termination { residual, toi, max_norm } termination = Termination::residual;
    int toi_k_min = 2;
    double toi_eps = 1e-3;
    /// Initial barrier stiffness per step; none: automatic (IPC's rule). A
    /// given value is capped at 100 times the automatic one, as in the IPC
    /// reference code, and adapts like the automatic one.
    std::optional<double> barrier_stiffness;
    bool record_energies = false; ///< keep (before, after) energies of every Newton iteration
    /// When set, one line per accepted Newton iteration is written here:
    /// residual r (m/s), the CCD bound and the accepted alpha, the energy,
    /// and the ratio of the actual decrease to the quadratic model's (near 1
    /// when the projected Hessian describes the energy well; near 2 when the
    /// energy is almost linear along the step, e.g. a buckling membrane
    /// whose negative curvature the PSD projection removed); then the
    /// active pairs, the pairs the full step would bring into contact
    /// (hits), the contact look-ahead pairs (and whether this direction was
    /// solved with them) and the step's strain-limit and energy halvings.
    std::FILE* newton_trace = nullptr;
    NewtonMatrixObserver newton_matrix_observer; ///< optional: sees every Newton matrix
    /// Contact look-ahead (examples/common/contact_look_ahead.hpp): after a
    /// Newton step that CCD cut below a fifth of its length, the pairs the
    /// full step would have brought into contact stiffen the next Newton
    /// matrices along their normals, so that dense contact does not creep
    /// one pair at a time.
    /// The energy, the gradient and the line search are unchanged; only
    /// directions solved without such terms count toward termination.
    bool contact_look_ahead = true;
    /// Share of its gap that a look-ahead pair may close in one direction.
    double look_ahead_approach = 0.5;
    /// After every step, throw ipc::penetration if ipc::has_intersections
    /// finds a crossing (on by default in debug builds).
#ifdef NDEBUG
    bool check_intersections = false;
#else
    bool check_intersections = true;
#endif
};

/// What one time step did.
struct StepStats {
    int newton_iterations = 0;
    std::size_t contacts = 0;         ///< active pairs at the end of the step
    std::optional<double> min_gap;    ///< smallest d - xi over active pairs (m)
    std::optional<double> min_distance; ///< smallest distance over the pairs within 2 dhat + xi (m)
    int factorizations = 0;           ///< sparse Cholesky factorisations (the linear solves' cost)
    double toi_mean = 0;              ///< mean accepted step fraction alpha per Newton iteration
    double script_progress = 1;       ///< fraction of the prescribed (scripted) motion taken this step
    std::optional<double> max_strain; ///< largest singular value over shell triangles
    double seconds = 0;
    double kappa = 0;                 ///< barrier stiffness at the end of the step
    double kappa_s = 0;               ///< strain-limit stiffness (Pa)
    bool converged = true;            ///< every pass met the termination rule
    int friction_passes = 0;          ///< lagged friction passes run (Newton solves, scripted pulls aside)
    int line_search_halvings = 0;
    int strain_halvings = 0;
    int cut_iterations = 0;           ///< Newton iterations whose step CCD cut short (alpha < 1)
    int look_ahead_solves = 0;        ///< linear solves whose matrix had contact look-ahead terms
    std::size_t look_ahead_pairs = 0; ///< largest number of look-ahead pairs in one Newton matrix
    // Where the time went (seconds).
    double time_assembly = 0, time_solve = 0, time_ccd = 0, time_line_search = 0;
    /// (energy before, energy after) of every Newton iteration (with record_energies).
    std::vector<std::pair<double, double>> energies;
};

/// What a time step reads that earlier steps wrote. A Simulator restored
/// from the state another Simulator of the same model and parameters had
/// after step N continues exactly as that one would (bit for bit): the
/// barrier stiffness is set afresh at every step, and the strain-limit
/// stiffness's record of which triangles were near the limit is taken from
/// the positions, as the last Newton iteration left it.
struct SimulatorState {
    int steps = 0;                 ///< time steps taken
    double time = 0;               ///< simulated time (s)
    Eigen::MatrixXd positions;     ///< n x 3 (m)
    Eigen::MatrixXd velocities;    ///< n x 3 (m/s)
    double strain_stiffness = 0;   ///< kappa_s (Pa)
    bool scripts_released = false; ///< the model's release rule has freed its scripted vertices
};

/// Implicit-Euler C-IPC simulator of a Model; see the file comment.
class Simulator {
public:
    /// Takes the model (validated by the collision mesh) and parameters.
    /// Throws ipc::invalid_argument for bad parameters, ipc::penetration when
    /// the initial state has a pair at or inside its offset, and
    /// ipc::invalid_argument when it violates the strain limit.
    Simulator(Model model, const SolverParameters& parameters);
    ~Simulator();
    Simulator(Simulator&&) noexcept;
    Simulator& operator=(Simulator&&) noexcept;

    const Model& model() const;
    const CollisionMesh& collision_mesh() const;
    const SolverParameters& parameters() const;
    /// Current positions (n x 3, m).
    const Eigen::MatrixXd& positions() const;
    /// Current velocities (n x 3, m/s).
    const Eigen::MatrixXd& velocities() const;
    /// Simulated time (s).
    double time() const;
    /// Current barrier stiffness.
    double kappa() const;

    /// Largest singular value of every shell triangle's deformation gradient
    /// at positions x (empty without shells).
    Eigen::VectorXd largest_stretches(const Eigen::MatrixXd& x) const;

    /// Smallest gap d - xi over the active pairs at x (m), none when no pair
    /// is within xi + dhat.
    std::optional<double> minimum_gap(const Eigen::MatrixXd& x) const;

    /// Advances one time step.
    StepStats step();

    /// The state after the steps taken so far (see SimulatorState).
    SimulatorState state() const;
    /// Continues from a state saved from a Simulator of the same model and
    /// parameters. Throws ipc::invalid_argument when its arrays do not match
    /// the model (size, non-finite entries), its time or step count is
    /// negative, or its positions violate the strain limit; and
    /// ipc::penetration when a pair is at or inside its offset; a state
    /// refused leaves the simulator as it was.
    void restore(const SimulatorState& state);

    /// The full per-step objective E(x) at positions x (J), with the current
    /// stiffnesses and lagged friction; +infinity when a pair is at or inside
    /// its offset or a triangle at or past the strain limit. For tests.
    double incremental_potential(const Eigen::MatrixXd& x) const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ipc::examples
