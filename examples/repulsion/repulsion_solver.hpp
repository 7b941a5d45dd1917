#pragma once
/// @file
/// The vertex-repulsion cloth integrator of Wu, Wu, Yang and Wang (2020),
/// "A Safe and Fast Repulsion Method for GPU-based Cloth Self Collisions",
/// on the CPU, built from the library's point-based blocks:
/// ipc::vertex_pairs_within_radius (broad phase), ipc::PointStencil
/// distances, the squared-gap potentials, the linear-motion pair predicates
/// and ipc::SdfObstacle bodies.
///
/// Two states are coupled by a stiff spring sigma/2 |x - y|_M^2: y follows
/// the dynamics (implicit Euler, minimised inexactly by Jacobi-preconditioned
/// gradient descent with Chebyshev acceleration) and x is certified free of
/// intersections. Each time step alternates K dynamics steps and collision
/// steps. A collision step moves every vertex of x at most D towards y and
/// projects the result onto the constraints: every edge at most L long and
/// every vertex pair more than two rings apart at least B + B_t apart
/// (B = L / sqrt 2). A cheap penalty descent (soft phase) is tried first and
/// accepted only when an exact test certifies it; otherwise a log-barrier
/// descent from the last certified state (hard phase) takes safe steps.
/// By the paper's lemmas, a triangle and a vertex, or two edges, can only
/// touch when some pair of their vertices is closer than B, so the two
/// constraint families keep the cloth free of self-intersection along the
/// whole certified path.
///
/// What this implementation adds or decides where the paper is silent (each
/// is derived where it is coded, in repulsion_solver.cpp):
/// - Pair collection with a proof. Pairs are collected at the start of each
///   collision step within r = B + B_t + 2 Delta, and every accepted iterate
///   keeps each vertex within Delta of where the step started. A pair left
///   out is then at least r - 2 Delta = B + B_t apart at every point of the
///   certified path. The paper's radius r0 = sqrt((B + B_t)^2 + eps_slack)
///   would give Delta = 3 D; we use Delta = 5 D (r = 1.2 r0), as
///   projections of stretched cloth move vertices up to about 3.7 D, and
///   widen it for the initialisation pieces, which move farther than D.
/// - Soft phase: a squared hinge 1/2 rho (eps_slack - c)_+^2 minimised by
///   Gauss-Newton-Jacobi steps (per-vertex diagonal scaling, relaxation
///   1/2). The paper's linear hinge needs a step size and succeeds far less
///   often.
/// - Local guard. Pairs within two rings are not repelled (the paper's
///   Sec. 8.3), so the lemmas say nothing about nearby triangles folding
///   through each other. Where a hinge of the cloth bends more than
///   guard_angle, the point-triangle and edge-edge pairs around it that
///   involve an unrepelled vertex pair become constraints of the collision
///   step: each keeps a distance g = guard_gap_factor L (or half its
///   distance when it is already closer), repelled within 2 g by both
///   phases, and a step is accepted only when the library's additive CCD
///   finds none of them closer than that along the step. Without the
///   repulsion a folding pair closed geometrically (the CCD lets it cover
///   most of its gap each step) until it touched, and then every step was
///   rejected. A triangle squeezed in its plane can also turn over with no
///   hinge bent beforehand. Every accepted segment is therefore checked
///   against a height bound (smallest height more than twice the
///   vertices' displacement relative to their mean): a triangle outside the
///   guard that fails the bound rejects the segment. At collection, the
///   triangles that fail it for the motion toward x_init are guarded.
/// - Local hard phase. The paper's GPU code runs the hard phase only on
///   the constraints its failed test flags and leaves the other vertices
///   unstated. Here they keep the soft result: the hard phase starts from it
///   with the vertices around the failures reset to x[k] (a state certified
///   like any hard iterate), and moves only those. A global hard phase
///   from x[k] takes one step size for every vertex, so one stiff spot (a
///   pinned corner whose edges sit at the cap) froze the whole cloth.
/// - Newton hard phase (RepulsionHardSolver::newton, the default). The
///   paper's gradient descent moves a strip of edges at the cap by about
///   one ring per iteration, and at 50K vertices whole strips from a pinned
///   corner sat at the cap; Newton steps on the same barrier objective move
///   the strip as one. The certificate is the same, so only speed changes.
/// - Obstacles are signed-distance shapes. A cloth vertex must keep
///   phi >= m; with edges at most L, m = sqrt(R^2 + L^2/3) - R (R the
///   smallest curvature radius of the shape) keeps every cloth triangle
///   outside the body, not just its vertices (proof in the .cpp). Both
///   phases treat phi - m >= 0 as one more constraint, and each accepted
///   segment is checked with ipc::segment_clear_of_obstacle.
/// - Friction, against obstacles and between cloth vertices, is Coulomb's
///   law at the velocity level (the paper ties vertices to their contacts
///   with springs). A normal force is what makes the certified state an
///   implicit Euler step, M (x - y_bar) / h^2 + grad E(x), split over the
///   vertex pairs and obstacle contacts by non-negative least squares, so
///   that a stack's lower layers, and the body under it, carry the layers
///   above them.
/// - One resolution level (no multigrid), no adaptive embedded samples. For
///   large meshes the dynamics can instead take Newton steps with a Hessian
///   factorised once per time step (RepulsionDynamics::factored), which the
///   paper's splitting allows ("any solver").
///
/// Units: metres, kilograms, seconds. Constraint values c of vertex pairs
/// are squared lengths (m^2); obstacle constraints are lengths (m).

#include <common/model.hpp>

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <vector>

namespace ipc::examples {

/// How a dynamics step minimises the implicit Euler objective
/// E(y) + |y - y_bar|_M^2 / (2 h^2) + sigma/2 |y - x[k]|_M^2.
enum class RepulsionDynamics {
    /// The paper's: I_dyn iterations of Jacobi-preconditioned gradient
    /// descent with Chebyshev acceleration. Cheap per iteration, but the
    /// membrane's response spreads only a few vertices per iteration, so the
    /// error left grows with the resolution.
    chebyshev,
    /// I_dyn Newton iterations with the objective's Hessian taken at x^t
    /// (elasticity projected per element, plus M (1/h^2 + sigma)), factorised
    /// by sparse Cholesky once per time step and reused by every iteration;
    /// a step is halved until the objective decreases. The whole membrane
    /// answers in every iteration, at any resolution.
    factored,
};

/// How the hard phase descends on |x - x_init|^2 + mu sum -log f(c, eps).
enum class RepulsionHardSolver {
    /// The paper's: backtracking gradient descent from alpha_0. Every vertex
    /// shares one step size, and a barrier's curvature reaches one ring per
    /// iteration, so a chain of constraints at their bound (a strip of
    /// capped edges hanging from a pinned corner) barely moves.
    gradient,
    /// Newton steps on the same objective: its Hessian with each
    /// constraint's term made positive semi-definite (the barrier's
    /// curvature along the constraint's gradient, and its first-order term
    /// where that is convex), factorised by sparse Cholesky over the moving
    /// vertices in every iteration. The same backtracking and certificate
    /// accept a step, starting from the full one (shortened to keep every
    /// vertex within Delta). A whole chain answers in one step.
    newton,
};

/// d^2/dc^2 of ipc::clamped_cubic_log_barrier on (0, eps):
/// (f'^2 - f f'') / f^2, positive; 0 for c >= eps and +infinity for c <= 0
/// (1 / squared length units squared). The barrier is only C1 at c = eps
/// (this jumps from 4/eps^2 to 0 there), so this serves the hard phase's
/// Newton direction only, which a line search then checks; it is no C2
/// barrier.
double clamped_cubic_log_barrier_second_derivative(double c, double eps);

/// Parameters of the repulsion integrator. Every length derives from the
/// uniform rest edge length L_ref of the cloth (the paper's 4.2 mm sets
/// L = 6 sqrt 2 mm, B = 6 mm, B_t = 0.5 mm, D = 0.25 mm,
/// eps_slack = 21.75 mm^2 and eps_cond = 0.01 mm^2; the factors below
/// reproduce those values at any scale).
struct RepulsionParameters {
    double dt = 0.01;                 ///< time step h (s)
    double rest_edge = 0;             ///< L_ref: the cloth's uniform rest edge length (m), > 0
    int collision_steps = 72;         ///< K: dynamics + collision steps per time step
    RepulsionDynamics dynamics = RepulsionDynamics::chebyshev; ///< the dynamics steps' solver
    int dynamics_iterations = 0;      ///< I_dyn per dynamics step; 0: the solver's own (2 chebyshev, 1 factored)
    int soft_iterations = 12;         ///< I_soft: soft-phase iterations always run
    int soft_max_iterations = 48;     ///< more while a discrete constraint lacks its success margin
    int hard_block = 8;               ///< I_hard: hard iterations between convergence tests
    int hard_max_blocks = 4;          ///< the hard phase stops after this many blocks
    bool local_hard_phase = true;     ///< move only the vertices around the soft result's failures (false: all, from x[k])
    RepulsionHardSolver hard_solver = RepulsionHardSolver::newton; ///< the hard phase's descent
    int init_pieces = 6;              ///< I_init: smoothing initialisation pieces (0: x[0] = x^t)
    double sigma = 8e4;               ///< coupling stiffness (1/s^2)
    double chebyshev_rho = 0.9;       ///< spectral radius estimate of the Chebyshev acceleration
    double air_damping = 0.1;         ///< velocity decay rate (1/s)
    double friction = 0;              ///< Coulomb coefficient against obstacles
    double self_friction = 0;         ///< Coulomb coefficient between cloth vertices
    double soft_stiffness = 10;       ///< rho L^2 (dimensionless) for vertex pairs and edges
    double obstacle_stiffness = 100;  ///< rho of obstacle penalties (dimensionless; 10 left 5% of soft phases short)
    double barrier_stiffness = 1e-3;  ///< mu / L^2 (dimensionless) of the hard phase
    double hard_initial_step = 0.1;   ///< alpha_0 of the gradient hard phase's backtracking (Newton starts at 1)
    int ring_exclusion = 2;           ///< pairs within this many rings are not repelled
    double guard_angle = 1.0;         ///< hinge bend (radians) above which the local guard runs
    double guard_gap_factor = 0.05;   ///< g / L: the distance local guard pairs keep
    std::vector<ipc::SdfObstacle> obstacles; ///< static bodies the cloth stays outside

    /// I_dyn as used: dynamics_iterations, or the solver's own count.
    int dynamics_iterations_per_step() const
    {
        return dynamics_iterations > 0 ? dynamics_iterations : dynamics == RepulsionDynamics::factored ? 1 : 2;
    }
    /// L: the largest edge length allowed (m).
    double max_edge() const { return 2.02 * rest_edge; }
    /// B = L / sqrt 2: the continuous separation of unrepelled-excluded pairs (m).
    double separation() const;
    /// B_t: the extra separation required at discrete states (m).
    double tightening() const { return 0.0589 * max_edge(); }
    /// D: how far a collision step moves a vertex towards y (m).
    double displacement_cap() const { return 0.0295 * max_edge(); }
    /// eps_slack: the band of the penalties, in c units (m^2).
    double slack() const { return 0.302 * max_edge() * max_edge(); }
    /// eps_cond: the soft phase's success margin, in c units (m^2).
    double success_margin() const { return 1.39e-4 * max_edge() * max_edge(); }
    /// The paper's collection radius sqrt((B + B_t)^2 + eps_slack) (m).
    double collection_radius() const;
    /// Delta: how far an accepted iterate may move a vertex in one ordinary
    /// collision step (m): 5 D, more than the paper's radius leaves
    /// ((collection_radius - B - B_t) / 2 = 3 D); pairs are collected within
    /// B + B_t + 2 Delta.
    double step_bound() const;
    /// m: the distance a cloth vertex keeps from obstacle o (m).
    double obstacle_margin(std::size_t o) const;
    /// g: the distance the guard's point-triangle and edge-edge pairs keep (m).
    double guard_gap() const { return guard_gap_factor * max_edge(); }
    /// The band of obstacle penalties, in metres.
    double obstacle_band() const { return 2 * displacement_cap(); }

    /// Throws ipc::invalid_argument naming the first impossible value.
    void validate() const;
};

/// What one time step did.
struct RepulsionStepStats {
    double seconds = 0;
    double seconds_dynamics = 0, seconds_collect = 0, seconds_soft = 0, seconds_hard = 0, seconds_guard = 0,
           seconds_friction = 0;
    int collision_steps = 0;      ///< including the initialisation pieces
    int soft_successes = 0;       ///< collision steps the soft phase certified
    int hard_iterations = 0;      ///< accepted hard-phase iterations
    int local_hard_phases = 0;    ///< hard phases that kept the soft result away from its failures
    int dynamics_restarts = 0;    ///< runaway dynamics iterates restarted from x[k]
    int failed_factorizations = 0; ///< Cholesky attempts (dynamics, Newton hard phase) that failed and were shifted
    std::size_t pairs = 0;        ///< collected vertex pairs, largest over the collision steps
    std::size_t contacts = 0;     ///< pairs and obstacle constraints inside their band at the end
    std::size_t guard_pairs = 0;  ///< local pairs the guard tested, summed over collision steps
    int guard_rejections = 0;     ///< candidate steps the guard alone rejected
    std::size_t friction_pairs = 0; ///< vertex pairs whose self-friction impulse acted
    double normal_force_pairs = 0;     ///< sum of the vertex pairs' normal forces lambda (N; 0 without friction)
    double normal_force_obstacles = 0; ///< sum of the obstacle contacts' normal forces (N; 0 without friction)
    double min_vertex_distance = 0;   ///< over pairs more than ring_exclusion rings apart (m)
    double max_edge_length = 0;       ///< (m)
    double min_obstacle_distance = 0; ///< smallest signed distance of a cloth vertex (m); +inf without obstacles
    double kinetic_energy = 0;        ///< (J)
    double mean_speed = 0;            ///< mass-weighted mean |v| (m/s)

    double soft_success() const { return collision_steps > 0 ? double(soft_successes) / collision_steps : 1.0; }
};

/// Called after every accepted collision step with the certified path from
/// `from` to `to`: a straight segment, or for a hard phase the polyline
/// through `hard_path` (its states in order, ending at `to`).
using CollisionStepObserver = std::function<void(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to,
    const std::vector<Eigen::MatrixXd>& hard_path)>;

/// The integrator on a cloth-only model (shells, fixed and scripted
/// vertices; see repulsion_scenes.hpp for turning a scene into one).
class RepulsionSimulator {
public:
    /// Throws ipc::invalid_argument for bad parameters, a model with
    /// anything but cloth, or an initial state that breaks a constraint
    /// (pairs closer than B + B_t, edges longer than L, vertices within an
    /// obstacle's margin).
    RepulsionSimulator(Model model, RepulsionParameters parameters);
    ~RepulsionSimulator();
    RepulsionSimulator(RepulsionSimulator&&) noexcept;
    RepulsionSimulator& operator=(RepulsionSimulator&&) noexcept;

    /// Advances one time step.
    RepulsionStepStats step();

    const Model& model() const;
    const RepulsionParameters& parameters() const;
    const Eigen::MatrixXd& positions() const;  ///< x, n x 3 (m)
    const Eigen::MatrixXd& velocities() const; ///< n x 3 (m/s)
    double time() const;
    /// Triangles of the cloth (model indices).
    const Eigen::MatrixXi& faces() const;
    /// Unique edges of the cloth.
    const Eigen::MatrixXi& edges() const;
    /// True when vertices i and j are within ring_exclusion rings.
    bool excluded(Index i, Index j) const;

    /// Observes every accepted collision step (for tests and diagnostics).
    void set_observer(CollisionStepObserver observer);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ipc::examples
