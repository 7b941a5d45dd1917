#pragma once
/// @file
/// A barrier-free augmented-Lagrangian (AL) time stepper after Zheng, Luo
/// and Li (2025), built from the library's blocks: implicit Euler as the
/// minimisation of the incremental potential
///   E(y) = 1/2 |y - x_tilde|_M^2 + h^2 Psi(y) + D(y)
/// (Psi the model's elasticity, D the lagged friction potential) subject to
/// linearised distance constraints, with no barrier.
///
/// Per time step (Algorithm 1 of the paper):
///  - a proxy y that may penetrate and a feasible point x on a
///    collision-free path from x^t; scripted vertices sit at their targets
///    in the proxy and are eliminated (section 5.3);
///  - the subproblem (Algorithm 2): each constraint i of the persistent set
///    is the distance linearised at the feasible point,
///    c_i(y) = d_i(x) + grad d_i(x) . (y - x) - delta_i (delta_i = the pair's
///    offset xi plus delta), under the augmented Lagrangian with slack in
///    closed form, psi_i = gamma_i [mu/2 min(0, c_i - lambda_i/mu)^2 -
///    lambda_i^2/(2 mu)]; projected Newton steps (Hessian M + h^2 grad^2 Psi
///    projected, plus mu gamma_i g_i g_i^T for every constraint), solved by
///    PCG with a 3 x 3 block-Jacobi preconditioner, until the line search
///    takes a full step; then the multiplier update (binding: lambda <-
///    lambda - mu c, gamma <- 1; slack: lambda <- 0, gamma <- 0.9 gamma);
///  - the active-set update (Algorithm 3): every CCD hit of the tail from
///    x to the previous proxy, filtered to each vertex's earliest new hit,
///    enters with lambda = 0, gamma = 1; constraints with gamma < 0.01 leave;
///  - the step x <- x + alpha (y - x), alpha the collision-free step size;
///  - cumulative-TOI termination (Eq. 9: k_min, eps).
/// mu = 0.1 max diag(M + h^2 grad^2 Psi) at the start of each step (Eq. 20);
/// after 50 iterations in a row with alpha < 1e-4, mu doubles and delta
/// halves (the paper's stall guard).
///
/// The model's analytic obstacles (a ground plane) are constraints of their
/// own: each vertex v facing obstacle k is the pair
/// PairId::vertex_obstacle(v, k), with c(y) = phi(x_v) + grad phi(x_v) .
/// (y_v - x_v) - (r_v + delta) (phi the signed distance, r_v the vertex's
/// contact radius), found, filtered and stepped like the mesh pairs
/// (obstacle_collision_hits, obstacle_collision_free_step_size), with
/// friction against the obstacle's tangent plane.
///
/// This header declares the simulator; al_solver.cpp holds its
/// implementation, compiled once into the al_solver library.

#include <common/model.hpp>
#include <common/newton_observer.hpp>

#include <ipc/friction/friction_energy.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>

namespace ipc::examples {

/// Parameters of the AL solver; defaults follow the paper (section 14 of the
/// design digest).
/// The friction Hessian of the inner Newton steps (friction_energy.hpp).
/// The inner loop ends only at a full step (r = 1). The exact Hessian has no
/// curvature along a sliding slip, so where the solution has the slip reverse
/// or stop, its full step overshoots, the line search halves it, and the next
/// step does the same: the inner loop can run to max_inner_iterations. The
/// majorizer's full step cannot overshoot the friction term, but it also
/// lets a slip grow only by about the ratio of driving force to friction
/// per step, so a block that starts to slide barely past the friction limit
/// takes a hundred steps to reach its speed.
enum class AlFrictionHessian {
    exact,
    majorizer,
    /// The exact step first; from the second step of a subproblem on, when
    /// its line search backtracks (r < 1), a second solve with the
    /// majorizer, whose step is taken when its full step is accepted or it
    /// lowers L more. (Retrying from the first step on, the masonry arch's
    /// joints closed later and 1.5 mm lower than with either form alone.)
    exact_then_majorizer,
};

/// The linear solver of the inner Newton steps.
enum class AlLinearSolver {
    /// Conjugate gradients with a 3 x 3 block-Jacobi preconditioner to the
    /// relative residual cg_tolerance (the paper's choice, and the default).
    pcg,
    /// The sparse Cholesky factorisation of ipc_sim
    /// (common/newton_linear_solver.hpp): an exact solve per Newton step,
    /// for comparisons that take the linear solver out of the picture.
    cholesky,
};

struct AlParameters {
    double dt = 0.04;          ///< time step h (s)
    double delta = 1e-3;       ///< contact offset delta (m), added to each pair's offset xi
    double mu_scale = 0.1;     ///< C_mu in mu = C_mu max diag(M + h^2 grad^2 Psi)
    double decay = 0.9;        ///< Gamma, decay of slack constraints' weights
    double erase_below = 0.01; ///< constraints leave when gamma falls below this
    /// true (the paper's): of the pairs a proxy's tail hits, each vertex's
    /// earliest new hit enters the set; false: every hit pair enters (the
    /// ablation of the paper's Fig. 18, left).
    bool earliest_hit_filter = true;
    int k_min = 2;             ///< termination: at least k_min outer iterations (6 with friction or cloth)
    double eps = 1e-3;         ///< termination: stop once the weight left on the start is below eps
    int max_outer_iterations = 1000;
    int max_inner_iterations = 50; ///< Newton steps per subproblem
    double cg_tolerance = 1e-4;    ///< PCG relative residual
    /// PCG iterations per solve, at most; a solve that does not reach
    /// cg_tolerance within them (or meets negative curvature) is done again
    /// with the sparse Cholesky factorisation, and so are the remaining
    /// solves of that time step (counted in AlStepStats::cg_fallbacks).
    long cg_max_iterations = 2000;
    AlLinearSolver linear_solver = AlLinearSolver::pcg;
    double friction = 0;       ///< friction coefficient mu_f
    double eps_v = 1e-3;       ///< friction velocity threshold (m/s)
    /// The friction Hessian of each Newton step (see AlFrictionHessian).
    AlFrictionHessian friction_hessian = AlFrictionHessian::exact_then_majorizer;
    /// false: a plain quadratic penalty (every lambda stays 0), the ablation
    /// that shows what the multipliers do.
    bool multipliers = true;
    NewtonMatrixObserver newton_matrix_observer; ///< optional: sees every Newton matrix
    /// After every step, throw ipc::penetration if ipc::has_intersections
    /// finds a crossing (on by default in debug builds).
#ifdef NDEBUG
    bool check_intersections = false;
#else
    bool check_intersections = true;
#endif
};

/// What one AL time step did.
struct AlStepStats {
    int newton_iterations = 0; ///< linear solves, inner steps included
    int outer_iterations = 0;  ///< proxies (Algorithm 1 iterations)
    double toi_mean = 0;       ///< mean accepted alpha per outer iteration
    std::size_t constraints = 0; ///< size of the constraint set at the end of the step
    long cg_iterations = 0;      ///< with AlLinearSolver::pcg
    int factorizations = 0;      ///< numeric factorisations (AlLinearSolver::cholesky, and PCG fallbacks)
    int cg_fallbacks = 0;        ///< solves done by Cholesky after a PCG failure (see AlParameters::cg_max_iterations)
    std::optional<double> min_distance; ///< smallest distance over pairs within 2 delta + xi (m)
    std::optional<double> min_gap;      ///< smallest d - xi over the same pairs (m)
    double mu = 0;             ///< penalty of the step
    double seconds = 0;
    bool converged = true;     ///< the termination rule was met within max_outer_iterations
    int stall_guards = 0;      ///< times the stall guard doubled mu
    /// Scripted vertices (none: both empty). Their targets at the step's end
    /// are met only up to the weight the feasible point keeps on the start:
    /// boundary_error is the largest distance (m) from a scripted vertex to
    /// its target, boundary_bound the paper's bound (Eq. 21)
    /// eps h v_boundary / (1 - eps), v_boundary the largest target distance
    /// from the step's start divided by h. The bound holds when the step
    /// converged.
    std::optional<double> boundary_error, boundary_bound;
    double time_assembly = 0, time_solve = 0, time_ccd = 0, time_line_search = 0;
};

/// What the linear solver of these parameters is, for reports: the PCG's
/// preconditioner and tolerance, or the Cholesky factorisation in use.
std::string al_linear_solver_description(const AlParameters& parameters);

/// Implicit-Euler AL simulator of a Model; see the file comment.
class AlSimulator {
public:
    /// Throws ipc::invalid_argument for bad parameters and ipc::penetration
    /// when the initial state is not a valid start (a pair at or inside its
    /// offset, or an intersection).
    AlSimulator(Model model, const AlParameters& parameters);
    ~AlSimulator();
    AlSimulator(AlSimulator&&) noexcept;
    AlSimulator& operator=(AlSimulator&&) noexcept;

    const Model& model() const;
    const CollisionMesh& collision_mesh() const;
    const AlParameters& parameters() const;
    /// Current positions (n x 3, m).
    const Eigen::MatrixXd& positions() const;
    /// Current velocities (n x 3, m/s).
    const Eigen::MatrixXd& velocities() const;
    /// Simulated time (s).
    double time() const;

    /// Advances one time step.
    AlStepStats step();

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ipc::examples
