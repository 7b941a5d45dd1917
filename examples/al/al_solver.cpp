// The barrier-free augmented-Lagrangian time stepper (declared and described
// in al_solver.hpp).

#include "al_solver.hpp"

#include <common/contact_distances.hpp>
#include <common/newton_linear_solver.hpp>
#include <common/sparse_assembly.hpp>

#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/collisions/persistent_constraints.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/toi_termination.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ipc::examples {

namespace {
    using Clock = std::chrono::steady_clock;
    double seconds_since(Clock::time_point start)
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    /// What one PCG solve did.
    struct PcgResult {
        long iterations = 0;
        bool converged = false; ///< the relative residual reached the tolerance
    };

    /// Conjugate gradients on H p = b with a 3 x 3 block-Jacobi
    /// preconditioner, relative residual tolerance `tolerance`, at most
    /// max_iterations. H should be symmetric positive definite; a direction
    /// of non-positive curvature ends the solve unconverged.
    PcgResult block_jacobi_pcg(const Eigen::SparseMatrix<double>& H, const Eigen::VectorXd& b, double tolerance,
                               long max_iterations, Eigen::VectorXd& p)
    {
        const Index n = H.rows() / 3;
        std::vector<Eigen::Matrix3d> inverse(static_cast<std::size_t>(n), Eigen::Matrix3d::Zero());
        for (Index j = 0; j < H.outerSize(); ++j) {
            for (Eigen::SparseMatrix<double>::InnerIterator it(H, j); it; ++it) {
                if (it.row() / 3 == j / 3) {
                    inverse[std::size_t(j / 3)](it.row() % 3, j % 3) = it.value();
                }
            }
        }
        for (auto& block : inverse) {
            block = Eigen::Matrix3d(block.inverse());
        }
        const auto precondition = [&](const Eigen::VectorXd& r) {
            Eigen::VectorXd z(r.size());
            for (Index v = 0; v < n; ++v) {
                z.segment<3>(3 * v) = inverse[std::size_t(v)] * r.segment<3>(3 * v);
            }
            return z;
        };
        p.setZero(b.size());
        const double b_norm = b.norm();
        if (b_norm == 0) {
            return { 0, true };
        }
        Eigen::VectorXd r = b, z = precondition(r), d = z;
        double rz = r.dot(z);
        long k = 0;
        for (; k < max_iterations; ++k) {
            if (r.norm() <= tolerance * b_norm) {
                return { k, true };
            }
            const Eigen::VectorXd Hd = H * d;
            const double curvature = d.dot(Hd);
            if (!(curvature > 0)) {
                return { k, false };
            }
            const double a = rz / curvature;
            p += a * d;
            r -= a * Hd;
            z = precondition(r);
            const double rz_next = r.dot(z);
            d = z + (rz_next / rz) * d;
            rz = rz_next;
        }
        return { k, r.norm() <= tolerance * b_norm };
    }
} // namespace

/// The simulator's state and algorithm (see al_solver.hpp).
class AlSimulator::Impl {
public:
    Impl(Model model, const AlParameters& parameters)
        : model_(std::move(model))
        , p_(parameters)
    {
        require(std::isfinite(p_.dt) && p_.dt > 0, "AlSimulator: time step must be positive, got ", p_.dt);
        require(std::isfinite(p_.delta) && p_.delta > 0, "AlSimulator: delta must be positive, got ", p_.delta);
        require(std::isfinite(p_.mu_scale) && p_.mu_scale > 0, "AlSimulator: mu_scale must be positive, got ",
                p_.mu_scale);
        require(p_.decay >= 0 && p_.decay <= 1, "AlSimulator: decay must be in [0, 1], got ", p_.decay);
        require(p_.erase_below >= 0 && p_.erase_below < 1, "AlSimulator: erase_below must be in [0, 1), got ",
                p_.erase_below);
        require(p_.max_outer_iterations >= 1 && p_.max_inner_iterations >= 1,
                "AlSimulator: iteration limits must be >= 1");
        require(std::isfinite(p_.cg_tolerance) && p_.cg_tolerance > 0 && p_.cg_tolerance < 1,
                "AlSimulator: cg_tolerance must be in (0, 1), got ", p_.cg_tolerance);
        require(p_.cg_max_iterations >= 1, "AlSimulator: cg_max_iterations must be >= 1, got ", p_.cg_max_iterations);
        require(std::isfinite(p_.friction) && p_.friction >= 0,
                "AlSimulator: friction coefficient must be >= 0, got ", p_.friction);
        require(std::isfinite(p_.eps_v) && p_.eps_v > 0, "AlSimulator: eps_v must be positive, got ", p_.eps_v);
        termination_ = CumulativeToiTermination(p_.k_min, p_.eps); // validates k_min and eps
        const Index n = model_.num_vertices();
        require(n > 0, "AlSimulator: the model has no vertices");
        x_ = model_.positions;
        v_ = model_.velocities;

        mesh_ = model_.collision_mesh();
        obstacles_ = model_.obstacle_set();
        held_ = model_.held();
        elastic_ = StencilAssembly(n, model_.num_elements(), [&](Index k) { return model_.element_vertices(k); });
        elastic_.build_sparsity_pattern();
        build_mass_matrix();
        check_step_start(mesh_, x_); // ipc::penetration naming the pair
        if (!obstacles_.empty()) {
            (void)obstacle_collision_free_step_size(mesh_, x_, x_, obstacles_); // ... or the vertex inside an obstacle
        }
    }

    const Model& model() const { return model_; }
    const CollisionMesh& collision_mesh() const { return mesh_; }
    const AlParameters& parameters() const { return p_; }
    const Eigen::MatrixXd& positions() const { return x_; }
    const Eigen::MatrixXd& velocities() const { return v_; }
    double time() const { return time_; }

    AlStepStats step()
    {
        const auto start = Clock::now();
        release_scripts_if_due();
        cholesky_.reset_count();
        AlStepStats stats;
        const double h = p_.dt;
        const Index n = x_.rows();
        x_start_ = x_;
        x_tilde_ = x_ + h * v_;
        for (Index v = 0; v < n; ++v) {
            if (!held_[std::size_t(v)]) {
                x_tilde_.row(v) += h * h * model_.gravity.transpose();
            }
        }
        // The proxy starts at x^t with the scripted vertices at their targets.
        Eigen::MatrixXd y = x_;
        std::vector<Eigen::Vector3d> targets;
        double boundary_reach = 0; // the largest distance of a target from x^t (m)
        for (const auto& s : model_.scripted) {
            targets.push_back(s.motion(time_ + h, model_.positions.row(s.vertex).transpose()));
            y.row(s.vertex) = targets.back().transpose();
            boundary_reach = std::max(boundary_reach, (targets.back() - x_.row(s.vertex).transpose()).norm());
        }
        Eigen::MatrixXd x = x_;

        update_friction();
        // Penalty from the incremental potential's Hessian at x^t (Eq. 20).
        {
            const Eigen::VectorXd diagonal = incremental_hessian(x_).diagonal();
            double largest = 0;
            for (Index i = 0; i < diagonal.size(); ++i) {
                if (!held_[std::size_t(i / 3)]) {
                    largest = std::max(largest, diagonal[i]);
                }
            }
            mu_ = p_.mu_scale * std::max(largest, 1e-12);
        }
        delta_ = p_.delta;
        stats.mu = mu_;

        termination_.reset();
        Eigen::MatrixXd y_previous = y; // the proxy whose tail enters the active set
        int stalled = 0;
        double alpha_sum = 0;
        for (int k = 0; k < p_.max_outer_iterations && !termination_.done(); ++k) {
            ++stats.outer_iterations;
            // Algorithm 2: the subproblem at the feasible point x.
            linearise(x);
            solve_subproblem(y, stats);
            // Algorithm 3: pairs colliding on the tail x -> previous proxy.
            auto t0 = Clock::now();
            std::vector<CollisionHit> hits = collision_hits(mesh_, x, y_previous);
            if (!obstacles_.empty()) {
                const std::vector<CollisionHit> obstacle_hits = obstacle_collision_hits(mesh_, x, y_previous, obstacles_);
                hits.insert(hits.end(), obstacle_hits.begin(), obstacle_hits.end());
            }
            if (p_.earliest_hit_filter) {
                hits = earliest_hits_per_vertex(hits, mesh_, constraints_.pairs());
            }
            std::vector<PairId> fresh;
            for (const CollisionHit& hit : hits) {
                fresh.push_back(hit.pair);
            }
            constraints_.insert(std::move(fresh));
            constraints_.erase_decayed(p_.erase_below);
            // The collision-free step toward the new proxy.
            double alpha = collision_free_step_size(mesh_, x, y);
            if (!obstacles_.empty()) {
                alpha = std::min(alpha, obstacle_collision_free_step_size(mesh_, x, y, obstacles_));
            }
            stats.time_ccd += seconds_since(t0);
            x = x + alpha * (y - x);
            y_previous = y;
            termination_.accept(alpha);
            alpha_sum += alpha;
            stalled = alpha < 1e-4 ? stalled + 1 : 0;
            if (stalled >= 50) { // the paper's stall guard
                mu_ *= 2;
                delta_ /= 2;
                stalled = 0;
                ++stats.stall_guards;
            }
        }
        stats.converged = termination_.done();
        stats.factorizations = cholesky_.factorizations();
        if (!targets.empty()) {
            // Each accepted alpha moves a scripted vertex the fraction alpha of
            // the way to its target, so the distance left is the start's
            // weight times the reach (below eps times it once converged);
            // Eq. 21 states it with v_boundary = reach / h.
            double error = 0;
            for (std::size_t i = 0; i < targets.size(); ++i) {
                error = std::max(error, (x.row(model_.scripted[i].vertex).transpose() - targets[i]).norm());
            }
            stats.boundary_error = error;
            stats.boundary_bound = p_.eps < 1 ? p_.eps * boundary_reach / (1 - p_.eps)
                                              : std::numeric_limits<double>::infinity();
        }
        stats.toi_mean = stats.outer_iterations > 0 ? alpha_sum / stats.outer_iterations : 0;
        if (p_.check_intersections) {
            require<penetration>(!has_intersections(mesh_, x), "AL time step ending at t = ", time_ + h,
                                 " produced an intersecting configuration");
            check_outside_obstacles(mesh_, obstacles_, x, ipc::detail::concat("AL time step ending at t = ", time_ + h));
        }
        v_ = (x - x_) / h;
        x_ = x;
        time_ += h;
        stats.constraints = constraints_.size();
        measure_distances(stats);
        stats.seconds = seconds_since(start);
        return stats;
    }

private:
    /// The lumped masses of the free vertices (zero rows for held ones).
    void build_mass_matrix()
    {
        const Index n = model_.num_vertices();
        mass_matrix_.resize(3 * n, 3 * n); // empties it
        mass_matrix_.reserve(Eigen::VectorXi::Constant(3 * n, 1));
        for (Index i = 0; i < 3 * n; ++i) {
            mass_matrix_.insert(i, i) = held_[std::size_t(i / 3)] ? 0.0 : model_.mass[i / 3];
        }
        mass_matrix_.makeCompressed();
    }

    /// Frees the scripted vertices for good once the model's release rule
    /// holds at the current positions (as ipc_sim does).
    void release_scripts_if_due()
    {
        if (model_.release_scripts_if_due(x_)) {
            held_ = model_.held();
            mesh_ = model_.collision_mesh(); // the released vertices meet the obstacles again
            build_mass_matrix();
        }
    }

    /// One constraint linearised at the feasible point.
    struct Linearised {
        PairVertices stencil;
        Vector<double, 12> gradient; ///< grad d at x (zero past the stencil)
        Vector<double, 12> at;       ///< stencil positions at x
        double distance = 0;         ///< d(x)
        double offset = 0;           ///< delta_i = xi + delta
    };

    double pair_offset(const PairId& id) const
    {
        switch (id.kind) {
        case PairKind::vertex_vertex: return mesh_.vertex_vertex_offset(id.a, id.b);
        case PairKind::edge_vertex: return mesh_.edge_vertex_offset(id.a, id.b);
        case PairKind::edge_edge: return mesh_.edge_edge_offset(id.a, id.b);
        case PairKind::face_vertex: return mesh_.face_vertex_offset(id.a, id.b);
        case PairKind::vertex_obstacle: return mesh_.vertex_radii()[id.b];
        }
        return 0;
    }

    void linearise(const Eigen::MatrixXd& x)
    {
        linearised_.clear();
        linearised_.reserve(constraints_.size());
        for (const PersistentConstraint& c : constraints_.constraints()) {
            const PairDistance pd = pair_distance(mesh_, x, c.pair, obstacles_);
            Linearised l;
            l.stencil = pd.stencil;
            l.gradient = pd.gradient;
            l.at.setZero();
            for (int k = 0; k < pd.stencil.count; ++k) {
                l.at.segment<3>(3 * k) = x.row(pd.stencil.vertices[std::size_t(k)]).transpose();
            }
            l.distance = pd.distance;
            l.offset = pair_offset(c.pair) + delta_;
            linearised_.push_back(l);
        }
        // The constraints' Hessian pattern, kept for the subproblem's Newton
        // steps (the set changes only between subproblems).
        constraint_assembly_ = StencilAssembly(x.rows(), Index(linearised_.size()), [&](Index k) {
            const PairVertices& pv = linearised_[std::size_t(k)].stencil;
            StencilVertices sv;
            sv.size = pv.count;
            std::copy(pv.vertices.begin(), pv.vertices.begin() + pv.count, sv.vertices.begin());
            return sv;
        });
    }

    /// c_i(y) for constraint i.
    double constraint_value(std::size_t i, const Eigen::MatrixXd& y) const
    {
        const Linearised& l = linearised_[i];
        double c = l.distance - l.offset;
        for (int k = 0; k < l.stencil.count; ++k) {
            c += l.gradient.segment<3>(3 * k).dot(
                y.row(l.stencil.vertices[std::size_t(k)]).transpose() - l.at.segment<3>(3 * k));
        }
        return c;
    }

    /// Inertia + h^2 elasticity.
    double incremental_energy(const Eigen::MatrixXd& y) const
    {
        double e = 0;
        for (Index v = 0; v < y.rows(); ++v) {
            if (!held_[std::size_t(v)]) {
                e += 0.5 * model_.mass[v] * (y.row(v) - x_tilde_.row(v)).squaredNorm();
            }
        }
        return e + p_.dt * p_.dt * elastic_.sum([&](Index k) { return model_.element_energy(k, y); });
    }

    Eigen::SparseMatrix<double> incremental_hessian(const Eigen::MatrixXd& y) const
    {
        Eigen::SparseMatrix<double> H = elastic_.hessian([&](Index k, Matrix<double, 12, 12>& out) {
            model_.element_hessian(k, y, PSDProjection::clamp, out);
        });
        H *= p_.dt * p_.dt;
        add_scaled(H, mass_matrix_);
        return H;
    }

    FrictionPotential<> friction_potential() const { return FrictionPotential<>(p_.eps_v * p_.dt); }

    /// The augmented Lagrangian of the subproblem at y (slack eliminated).
    double lagrangian(const Eigen::MatrixXd& y) const
    {
        double e = incremental_energy(y);
        if (!std::isfinite(e)) {
            return e;
        }
        if (!friction_.empty()) {
            e += friction_potential()(friction_, mesh_, y - x_start_);
        }
        if (!obstacle_friction_.empty()) {
            e += friction_potential()(obstacle_friction_, mesh_, y - x_start_);
        }
        const auto& cs = constraints_.constraints();
        for (std::size_t i = 0; i < cs.size(); ++i) {
            const double r = std::min(0.0, constraint_value(i, y) - cs[i].lambda / mu_);
            e += cs[i].gamma * (0.5 * mu_ * r * r - cs[i].lambda * cs[i].lambda / (2 * mu_));
        }
        return e;
    }

    void solve_subproblem(Eigen::MatrixXd& y, AlStepStats& stats)
    {
        const Index n = y.rows();
        const auto& cs = constraints_.constraints();
        for (int it = 0; it < p_.max_inner_iterations; ++it) {
            ++stats.newton_iterations;
            auto t0 = Clock::now();
            Eigen::VectorXd g = Eigen::VectorXd::Zero(3 * n);
            for (Index v = 0; v < n; ++v) {
                if (!held_[std::size_t(v)]) {
                    g.segment<3>(3 * v) = model_.mass[v] * (y.row(v) - x_tilde_.row(v)).transpose();
                }
            }
            const double h2 = p_.dt * p_.dt;
            g += h2 * elastic_.gradient([&](Index k, Vector<double, 12>& out) { model_.element_gradient(k, y, out); });
            Eigen::SparseMatrix<double> H = incremental_hessian(y);
            const Eigen::MatrixXd U = y - x_start_;
            const bool has_friction = !friction_.empty() || !obstacle_friction_.empty();
            if (!friction_.empty()) {
                g += friction_potential().gradient(friction_, mesh_, U);
            }
            if (!obstacle_friction_.empty()) {
                g += friction_potential().gradient(obstacle_friction_, mesh_, U);
            }
            // Constraint terms: gradient mu gamma min(0, c - lambda/mu) g_i,
            // Hessian mu gamma g_i g_i^T for every constraint (held rows
            // and columns are dropped by hold_dofs below).
            for (std::size_t i = 0; i < cs.size(); ++i) {
                const Linearised& l = linearised_[i];
                const double r = std::min(0.0, constraint_value(i, y) - cs[i].lambda / mu_);
                for (int a = 0; a < l.stencil.count; ++a) {
                    g.segment<3>(3 * l.stencil.vertices[std::size_t(a)])
                        += mu_ * cs[i].gamma * r * l.gradient.segment<3>(3 * a);
                }
            }
            if (!cs.empty()) {
                constraint_assembly_.hessian(
                    [&](Index k, Matrix<double, 12, 12>& out) {
                        const Linearised& l = linearised_[std::size_t(k)];
                        out.noalias() = (mu_ * cs[std::size_t(k)].gamma) * l.gradient * l.gradient.transpose();
                    },
                    constraint_hessian_);
                add_scaled(H, constraint_hessian_);
            }
            hold_dofs(H, held_);
            zero_held(g, held_);
            stats.time_assembly += seconds_since(t0);

            // The Newton direction with the friction Hessian in the given form.
            const auto direction = [&](FrictionHessianForm form) {
                auto t1 = Clock::now();
                Eigen::SparseMatrix<double> Hs = H;
                if (has_friction) {
                    const FrictionPotential<> friction(p_.eps_v * p_.dt, form);
                    for (const Eigen::SparseMatrix<double>& Hf :
                         { friction.hessian(friction_, mesh_, U), friction.hessian(obstacle_friction_, mesh_, U) }) {
                        if (Hf.nonZeros() > 0) {
                            Eigen::SparseMatrix<double> free = Hf;
                            drop_held(free, held_);
                            add_scaled(Hs, free);
                        }
                    }
                }
                stats.time_assembly += seconds_since(t1);
                if (p_.newton_matrix_observer) {
                    p_.newton_matrix_observer(Hs, held_);
                }
                t1 = Clock::now();
                Eigen::VectorXd p;
                const bool pcg = p_.linear_solver == AlLinearSolver::pcg;
                bool solved = false;
                if (pcg && stats.cg_fallbacks == 0) {
                    const PcgResult cg = block_jacobi_pcg(Hs, -g, p_.cg_tolerance, p_.cg_max_iterations, p);
                    stats.cg_iterations += cg.iterations;
                    solved = cg.converged;
                }
                if (!solved) {
                    // Cholesky by choice, or after a PCG solve of this step
                    // ran out of budget or met negative curvature (the
                    // systems of one step are alike, so the rest of the step
                    // goes to Cholesky too; shifted if H is not definite).
                    stats.cg_fallbacks += pcg ? 1 : 0;
                    p = cholesky_.solve(Hs, g);
                }
                stats.time_solve += seconds_since(t1);
                return Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(p.data(), 3, n).transpose());
            };
            // Backtracking: the largest r = 2^-j with L(y + r P) < L(y), or 0
            // when none down to 1e-10 decreases L; value gets L there.
            const double current = lagrangian(y);
            const auto line_search = [&](const Eigen::MatrixXd& P, double& value) {
                const auto t1 = Clock::now();
                double r = 1;
                for (; r > 1e-10; r /= 2) {
                    value = lagrangian(y + r * P);
                    if (value < current) {
                        break;
                    }
                }
                stats.time_line_search += seconds_since(t1);
                return r > 1e-10 ? r : 0.0;
            };

            const bool majorizer_only = p_.friction_hessian == AlFrictionHessian::majorizer;
            Eigen::MatrixXd P
                = direction(majorizer_only ? FrictionHessianForm::majorizer : FrictionHessianForm::exact);
            double value = current;
            double r = line_search(P, value);
            if (it > 0 && r < 1 && has_friction && p_.friction_hessian == AlFrictionHessian::exact_then_majorizer) {
                // A second cut step in one subproblem: the exact steps
                // overshoot (slips that stop or reverse, most often). Retry
                // with the majorizer, whose full step cannot overshoot the
                // friction term. A second linear solve.
                ++stats.newton_iterations;
                const Eigen::MatrixXd P_major = direction(FrictionHessianForm::majorizer);
                double value_major = current;
                const double r_major = line_search(P_major, value_major);
                if (r_major == 1 || (r_major > 0 && value_major < value)) {
                    P = P_major;
                    r = r_major;
                }
            }
            if (r == 0) {
                break; // y minimises L along p to round-off
            }
            y += r * P;
            if (r == 1) {
                break;
            }
        }
        // Dual update and decay.
        for (std::size_t i = 0; i < cs.size(); ++i) {
            PersistentConstraint& c = constraints_.constraints()[i];
            update_multiplier(c, constraint_value(i, y), mu_, p_.decay);
            if (!p_.multipliers) {
                c.lambda = 0;
            }
        }
    }

    /// Lagged friction from the constraint set at the start of the step:
    /// normal force mu |min(0, c_i(x^t) - lambda_i / mu)| (Eq. 23 without its
    /// h^-2: our friction potential enters the incremental potential
    /// unscaled), from the previous step's mu.
    void update_friction()
    {
        friction_.clear();
        obstacle_friction_.clear();
        if (p_.friction == 0 || mu_ == 0) {
            return;
        }
        for (const PersistentConstraint& c : constraints_.constraints()) {
            if (c.lambda <= 0) {
                continue;
            }
            const PairDistance pd = pair_distance(mesh_, x_, c.pair, obstacles_);
            const double value = pd.distance - (pair_offset(c.pair) + delta_);
            const double force = mu_ * std::abs(std::min(0.0, value - c.lambda / mu_));
            if (!(force > 0)) {
                continue;
            }
            if (c.pair.kind == PairKind::vertex_obstacle) {
                obstacle_friction_.add(c.pair.b, c.pair.a, obstacles_, x_, force, p_.friction);
            } else {
                friction_.add(pd, x_, force, p_.friction);
            }
        }
    }

    void measure_distances(AlStepStats& stats) const
    {
        const ContactDistances d = contact_distances(mesh_, x_, 2 * p_.delta, obstacles_);
        stats.min_distance = d.min_distance;
        stats.min_gap = d.min_gap;
    }

    Model model_;
    AlParameters p_;
    CollisionMesh mesh_;
    ObstacleSet obstacles_; ///< the model's analytic obstacles
    std::vector<bool> held_;
    StencilAssembly elastic_;
    Eigen::SparseMatrix<double> mass_matrix_; ///< lumped masses of the free vertices (3n x 3n)
    Eigen::MatrixXd x_, v_, x_tilde_, x_start_;
    double time_ = 0;
    double mu_ = 0;
    double delta_ = 0;
    PersistentConstraintSet constraints_;
    std::vector<Linearised> linearised_;
    StencilAssembly constraint_assembly_;      ///< the linearised constraints' stencils and Hessian pattern
    Eigen::SparseMatrix<double> constraint_hessian_; ///< kept between Newton steps (its storage is reused)
    FrictionCollisions friction_;
    ObstacleFrictionCollisions obstacle_friction_;
    CumulativeToiTermination termination_;
    NewtonLinearSolver<Eigen::Lower> cholesky_; ///< AlLinearSolver::cholesky and PCG fallbacks; counts the step's factorisations
};

std::string al_linear_solver_description(const AlParameters& parameters)
{
    if (parameters.linear_solver == AlLinearSolver::cholesky) {
        return linear_solver_description();
    }
    return fmt::format("PCG with 3x3 block-Jacobi preconditioner, relative tolerance {}, at most {} iterations "
                       "(then {})",
                       parameters.cg_tolerance, parameters.cg_max_iterations, linear_solver_description());
}

AlSimulator::AlSimulator(Model model, const AlParameters& parameters)
    : impl_(std::make_unique<Impl>(std::move(model), parameters))
{
}
AlSimulator::~AlSimulator() = default;
AlSimulator::AlSimulator(AlSimulator&&) noexcept = default;
AlSimulator& AlSimulator::operator=(AlSimulator&&) noexcept = default;

const Model& AlSimulator::model() const { return impl_->model(); }
const CollisionMesh& AlSimulator::collision_mesh() const { return impl_->collision_mesh(); }
const AlParameters& AlSimulator::parameters() const { return impl_->parameters(); }
const Eigen::MatrixXd& AlSimulator::positions() const { return impl_->positions(); }
const Eigen::MatrixXd& AlSimulator::velocities() const { return impl_->velocities(); }
double AlSimulator::time() const { return impl_->time(); }
AlStepStats AlSimulator::step() { return impl_->step(); }

} // namespace ipc::examples
