// The reference C-IPC time stepper (declared and described in solver.hpp).

#include "solver.hpp"

#include <common/contact_distances.hpp>
#include <common/contact_look_ahead.hpp>
#include <common/newton_linear_solver.hpp>
#include <common/sparse_assembly.hpp>

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/toi_termination.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>
#include <ipc/potentials/strain_limit_potential.hpp>
#include <ipc/strain_limit/strain_limit_feasibility.hpp>
#include <ipc/strain_limit/strain_limit_stiffness.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <Eigen/Sparse>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc::examples {

/// The active contacts at one state: pairs of mesh primitives and vertices
/// near the model's analytic obstacles.
struct Contacts {
    Collisions pairs;
    ObstacleCollisions obstacles;
    std::size_t size() const { return pairs.size() + obstacles.size(); }
};

/// The simulator's state and algorithm (see solver.hpp).
class Simulator::Impl {
public:
    /// Takes the model (validated by the collision mesh) and parameters.
    /// Throws ipc::invalid_argument for bad parameters, ipc::penetration when
    /// the initial state has a pair at or inside its offset, and
    /// ipc::invalid_argument when it violates the strain limit.
    Impl(Model model, const SolverParameters& parameters)
        : model_(std::move(model))
        , p_(parameters)
        , sl_stiffness_(parameters.strain_stiffness, parameters.strain_stiffness_max)
        , look_ahead_(parameters.look_ahead_approach)
    {
        require(std::isfinite(p_.dt) && p_.dt > 0, "time step must be positive, got ", p_.dt);
        require(std::isfinite(p_.dhat) && p_.dhat > 0, "dhat must be positive, got ", p_.dhat);
        require(std::isfinite(p_.mu) && p_.mu >= 0, "friction coefficient must be >= 0, got ", p_.mu);
        require(std::isfinite(p_.eps_v) && p_.eps_v > 0, "eps_v must be positive, got ", p_.eps_v);
        require(p_.friction_iterations >= 1, "friction_iterations must be >= 1");
        require(p_.newton_tolerance > 0 && p_.converged_iterations >= 1 && p_.max_newton_iterations >= 1,
            "bad Newton termination parameters");
        const Index n = model_.num_vertices();
        require(n > 0, "the model has no vertices");
        x_ = model_.positions;
        v_ = model_.velocities;

        mesh_ = model_.collision_mesh();
        obstacles_ = model_.obstacle_set();

        held_ = model_.held();
        locked_ = held_;
        const Index num_free_vertices = Index(std::count(held_.begin(), held_.end(), false));

        // The elastic elements never change: colour them for parallel
        // assembly and build their Hessian's sparsity pattern once.
        elastic_ = StencilAssembly(n, model_.num_elements(), [&](Index k) { return model_.element_vertices(k); });
        elastic_.build_sparsity_pattern(SparseTriangle::lower);
        mass_matrix_.resize(3 * n, 3 * n);
        mass_matrix_.reserve(Eigen::VectorXi::Constant(3 * n, 1));
        for (Index i = 0; i < 3 * n; ++i) {
            mass_matrix_.insert(i, i) = model_.mass[i / 3]; // stored even when zero (hold_dofs needs it)
        }
        mass_matrix_.makeCompressed();

        // Scene scale and barrier stiffness bounds (IPC reference rule).
        const Eigen::RowVector3d lo = x_.colwise().minCoeff(), hi = x_.colwise().maxCoeff();
        bbox_diagonal_ = std::max((hi - lo).norm(), 1e-9);
        double mass_sum = 0;
        for (Index v = 0; v < n; ++v) {
            if (!held_[std::size_t(v)]) {
                mass_sum += model_.mass[v];
            }
        }
        average_mass_ = std::max(num_free_vertices > 0 ? mass_sum / double(num_free_vertices) : 1.0, 1e-12);
        kappa_bounds_ = barrier_stiffness_bounds(bbox_diagonal_, average_mass_, p_.dhat,
            2 * model_.contact_radius.maxCoeff());
        kappa_ = kappa_bounds_.min;

        if (p_.strain_limit && !model_.membranes.empty()) {
            // One isotropic strain-limit barrier per shell triangle, integrated
            // over the triangle's rest area times its material thickness.
            StrainLimitParameters<double> strain;
            strain.limit = *p_.strain_limit;
            strain.threshold = p_.strain_threshold;
            strain.stiffness = p_.strain_stiffness;
            Eigen::MatrixXi faces(Index(model_.membranes.size()), 3);
            std::vector<TriangleRestShape<double>> rest;
            std::vector<StrainLimitParameters<double>> parameters;
            for (std::size_t t = 0; t < model_.membranes.size(); ++t) {
                const auto& m = model_.membranes[t];
                faces.row(Index(t)) << int(m.vertices[0]), int(m.vertices[1]), int(m.vertices[2]);
                const Eigen::Vector3d X0 = model_.positions.row(m.vertices[0]).transpose(),
                                      X1 = model_.positions.row(m.vertices[1]).transpose(),
                                      X2 = model_.positions.row(m.vertices[2]).transpose();
                rest.push_back(triangle_rest_shape<double>(X0, X1, X2));
                strain.thickness = m.material.thickness;
                parameters.push_back(strain);
            }
            strain_.emplace(n, faces, std::move(rest), std::move(parameters));
        }
        check_start(x_, "the initial state");
    }

    SimulatorState state() const
    {
        SimulatorState s;
        s.steps = steps_;
        s.time = time_;
        s.positions = x_;
        s.velocities = v_;
        s.strain_stiffness = sl_stiffness_.stiffness();
        s.scripts_released = scripts_released();
        return s;
    }

    void restore(const SimulatorState& s)
    {
        const Index n = model_.num_vertices();
        require(s.positions.rows() == n && s.positions.cols() == 3 && s.velocities.rows() == n
                && s.velocities.cols() == 3,
            "restore: the state has ", s.positions.rows(), " x ", s.positions.cols(), " positions and ",
            s.velocities.rows(), " x ", s.velocities.cols(), " velocities; the model has ", n, " vertices");
        require(s.positions.allFinite() && s.velocities.allFinite(),
            "restore: the state's positions or velocities are not all finite");
        require(s.steps >= 0 && std::isfinite(s.time) && s.time >= 0, "restore: bad step count ", s.steps,
            " or time ", s.time);
        require(std::isfinite(s.strain_stiffness) && s.strain_stiffness > 0
                && s.strain_stiffness <= p_.strain_stiffness_max,
            "restore: strain-limit stiffness ", s.strain_stiffness, " is outside (0, ", p_.strain_stiffness_max, "]");
        require(s.scripts_released || !scripts_released(),
            "restore: the state's scripts are held, this simulator has released them");
        const bool release = s.scripts_released && !scripts_released();
        require(!release || model_.release.has_value(),
            "restore: the state has released scripts, the model has no release rule");
        // Checked before anything changes, so a state refused leaves the
        // simulator as it was; released scripts meet the obstacles again.
        if (release) {
            Model released = model_;
            released.scripted.clear();
            CollisionMesh mesh = released.collision_mesh();
            std::swap(mesh_, mesh);
            try {
                check_start(s.positions, "the restored state");
            } catch (...) {
                std::swap(mesh_, mesh);
                throw;
            }
            model_ = std::move(released);
            held_ = model_.held();
        } else {
            check_start(s.positions, "the restored state");
        }
        x_ = s.positions;
        v_ = s.velocities;
        time_ = s.time;
        steps_ = s.steps;
        sl_stiffness_ = StrainLimitStiffness<double>(s.strain_stiffness, p_.strain_stiffness_max);
        if (strain_) {
            // The near-limit record as the last Newton iteration left it.
            sl_stiffness_.update(largest_stretches(x_), strain_limit(), p_.strain_threshold);
            strain_->set_stiffness(sl_stiffness_.stiffness());
        }
    }

    const Model& model() const { return model_; }
    const CollisionMesh& collision_mesh() const { return mesh_; }
    const SolverParameters& parameters() const { return p_; }
    /// Current positions (n x 3, m).
    const Eigen::MatrixXd& positions() const { return x_; }
    /// Current velocities (n x 3, m/s).
    const Eigen::MatrixXd& velocities() const { return v_; }
    /// Simulated time (s).
    double time() const { return time_; }
    /// Current barrier stiffness.
    double kappa() const { return kappa_; }

    /// Largest singular value of every shell triangle's deformation gradient
    /// at positions x (empty without shells).
    Eigen::VectorXd largest_stretches(const Eigen::MatrixXd& x) const
    {
        Eigen::VectorXd s(Index(model_.membranes.size()));
        for (std::size_t t = 0; t < model_.membranes.size(); ++t) {
            const auto& m = model_.membranes[t];
            const Eigen::Vector3d a = x.row(m.vertices[0]).transpose(), b = x.row(m.vertices[1]).transpose(),
                                  c = x.row(m.vertices[2]).transpose();
            s[Index(t)] = triangle_largest_singular_value<double>(a, b, c, m.rest.rest_inverse);
        }
        return s;
    }

    /// Smallest gap d - xi over the active pairs at x (m), none when no pair
    /// is within xi + dhat.
    std::optional<double> minimum_gap(const Eigen::MatrixXd& x) const { return min_gap(contacts_at(x), x); }

    /// Advances one time step.
    StepStats step()
    {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        StepStats stats;
        linear_solver_.reset_count();
        alpha_sum_ = 0;
        const double h = p_.dt;
        x_start_ = x_;

        release_scripts_if_due();

        // Predictor and held vertices.
        x_hat_ = x_ + h * v_;
        for (Index v = 0; v < x_.rows(); ++v) {
            if (!held_[std::size_t(v)]) {
                x_hat_.row(v) += h * h * model_.gravity.transpose();
            }
        }
        Eigen::MatrixXd x = x_;
        pulling_ = false;
        locked_ = held_;
        if (!model_.scripted.empty()) {
            // Scripted vertices move toward their targets as far as CCD
            // allows; what is left is pulled in by the Newton solve (below).
            script_target_ = x_;
            for (const auto& s : model_.scripted) {
                script_target_.row(s.vertex)
                    = s.motion(time_ + h, model_.positions.row(s.vertex).transpose()).transpose();
            }
            const auto t0 = clock::now();
            double alpha = collision_free_step_size(mesh_, x_, script_target_); // obstacles do not stop scripts
            stats.time_ccd += seconds_since(t0);
            x = x_ + alpha * (script_target_ - x_);
            // CCD keeps the move free of intersections (the barrier stays
            // finite), not the elements the scripted vertices drag with them:
            // shorten it while the elastic part of the energy is infinite (an
            // inverted tet, a strain limit exceeded), or Newton would start
            // where no direction can decrease it.
            for (int halving = 0; alpha > 0 && !std::isfinite(incremental_energy(x)); ++halving) {
                alpha = halving < 40 ? alpha / 2 : 0;
                x = x_ + alpha * (script_target_ - x_);
            }
            script_distance_ = script_remaining(x_);
            pulling_ = alpha < 1 && script_distance_ > 0;
            if (pulling_) {
                for (const auto& s : model_.scripted) {
                    locked_[std::size_t(s.vertex)] = false;
                }
                pull_stiffness_ = pull_stiffness_min;
                pull_multiplier_ = Eigen::MatrixXd::Zero(x.rows(), 3);
            }
        }
        num_unlocked_ = Index(std::count(locked_.begin(), locked_.end(), false));

        // Per-step barrier stiffness (IPC): balance barrier and IP gradients.
        {
            const Contacts c = contacts_at(x);
            const BarrierPotential<> unit(p_.dhat, 1.0);
            Eigen::VectorXd gb = unit.gradient(c.pairs, mesh_, x) + unit.gradient(c.obstacles, mesh_, x);
            Eigen::VectorXd ge = Eigen::VectorXd::Zero(3 * x.rows());
            add_incremental_gradient(x, ge);
            zero_held(gb, held_);
            zero_held(ge, held_);
            kappa_ = initial_barrier_stiffness(kappa_bounds_, ge, gb);
            if (p_.barrier_stiffness) {
                kappa_ = std::min(*p_.barrier_stiffness, 100 * kappa_);
            }
        }

        for (int pass = 0; pass < p_.friction_iterations; ++pass) {
            update_friction(x);
            ++stats.friction_passes;
            bool lagging_converged = false;
            bool ok = newton(x, stats, pass > 0 ? &lagging_converged : nullptr);
            if (lagging_converged) {
                break;
            }
            ok = pull_scripts(x, stats) && ok;
            stats.converged = stats.converged && ok;
            if (p_.mu == 0) {
                break;
            }
        }

        if (p_.check_intersections) {
            require<penetration>(!has_intersections(mesh_, x), "time step ending at t = ", time_ + h,
                " produced an intersecting configuration");
            check_outside_obstacles(mesh_, obstacles_, x, ipc::detail::concat("time step ending at t = ", time_ + h));
        }
        v_ = (x - x_) / h;
        x_ = x;
        time_ += h;
        ++steps_;
        const Contacts c = contacts_at(x_);
        stats.contacts = c.size();
        stats.min_gap = min_gap(c, x_);
        stats.min_distance = contact_distances(mesh_, x_, 2 * p_.dhat, obstacles_).min_distance;
        stats.factorizations = linear_solver_.factorizations();
        stats.toi_mean = stats.newton_iterations > 0 ? alpha_sum_ / stats.newton_iterations : 0;
        if (!model_.membranes.empty()) {
            stats.max_strain = largest_stretches(x_).maxCoeff();
        }
        stats.kappa = kappa_;
        stats.kappa_s = sl_stiffness_.stiffness();
        if (pulling_) {
            stats.script_progress = script_progress(x_);
        }
        stats.seconds = seconds_since(start);
        return stats;
    }

    /// The full per-step objective E(x) at positions x (J), with the current
    /// stiffnesses and lagged friction; +infinity when a pair is at or inside
    /// its offset or a triangle at or past the strain limit. For tests.
    double incremental_potential(const Eigen::MatrixXd& x) const { return energy(x, contacts_at(x)); }

private:
    template <typename T> static double seconds_since(T start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    double strain_limit() const { return *p_.strain_limit; }

    /// The contacts at x: mesh pairs and vertex-obstacle pairs within dhat.
    Contacts contacts_at(const Eigen::MatrixXd& x) const
    {
        Contacts c;
        contacts_at(x, c);
        return c;
    }

    /// The same, rebuilt in place in c: the set keeps the colouring and
    /// Hessian pattern of its stencils while they stay the same (see
    /// Collisions::stencil_assembly_cache), which they mostly do from one
    /// Newton iteration to the next.
    void contacts_at(const Eigen::MatrixXd& x, Contacts& c) const
    {
        c.pairs.build(mesh_, x, p_.dhat);
        c.obstacles = ObstacleCollisions();
        if (!obstacles_.empty()) {
            c.obstacles.build(mesh_, x, obstacles_, p_.dhat);
        }
    }

    /// Inertia + h^2 (elasticity + strain limit); +inf past the strain limit.
    double incremental_energy(const Eigen::MatrixXd& x) const
    {
        double e = 0;
        for (Index v = 0; v < x.rows(); ++v) {
            if (!held_[std::size_t(v)]) {
                e += 0.5 * model_.mass[v] * (x.row(v) - x_hat_.row(v)).squaredNorm();
            }
        }
        const double h2 = p_.dt * p_.dt;
        e += h2 * elastic_.sum([&](Index k) { return model_.element_energy(k, x); });
        if (strain_) {
            if (!is_strain_feasible(x, strain_->faces(), strain_->rest_shapes(), strain_limit())) {
                return std::numeric_limits<double>::infinity();
            }
            e += h2 * (*strain_)(x);
        }
        return e;
    }

    void add_incremental_gradient(const Eigen::MatrixXd& x, Eigen::VectorXd& g) const
    {
        for (Index v = 0; v < x.rows(); ++v) {
            if (!held_[std::size_t(v)]) {
                g.segment<3>(3 * v) += model_.mass[v] * (x.row(v) - x_hat_.row(v)).transpose();
            }
        }
        const double h2 = p_.dt * p_.dt;
        g += h2 * elastic_.gradient([&](Index k, Vector<double, 12>& out) { model_.element_gradient(k, x, out); });
        if (strain_) {
            g += h2 * strain_->gradient(x);
        }
    }

    /// Hessian of inertia + h^2 (elasticity + strain limit), per-element
    /// projected, over all 3n coordinates. Like every matrix of the Newton
    /// system, it stores the lower triangle only (SparseTriangle::lower):
    /// half the entries to sum, and what the Cholesky factorisation reads
    /// (CHOLMOD's symbolic analysis takes about half the time on a lower
    /// triangle than on an upper one, which it transposes first).
    Eigen::SparseMatrix<double> incremental_hessian(const Eigen::MatrixXd& x) const
    {
        const double h2 = p_.dt * p_.dt;
        Eigen::SparseMatrix<double> H = elastic_.hessian([&](Index k, Matrix<double, 12, 12>& out) {
            model_.element_hessian(k, x, p_.projection, out);
        }, SparseTriangle::lower);
        H *= h2;
        add_scaled(H, mass_matrix_);
        if (strain_) {
            add_scaled(H, strain_->hessian(x, p_.projection, SparseTriangle::lower), h2);
        }
        return H;
    }

    // ---------------------------------------------------------------- friction

    /// Lagged friction contacts (normal forces, bases, weights) at x.
    void update_friction(const Eigen::MatrixXd& x)
    {
        friction_.clear();
        obstacle_friction_.clear();
        if (p_.mu == 0) {
            return;
        }
        const Contacts c = contacts_at(x);
        friction_.build(c.pairs, mesh_, x, p_.dhat, kappa_, p_.mu);
        if (!c.obstacles.empty()) {
            obstacle_friction_.build(c.obstacles, mesh_, x, p_.dhat, kappa_, p_.mu);
        }
    }

    FrictionPotential<> friction_potential() const { return FrictionPotential<>(p_.eps_v * p_.dt); }

    // ------------------------------------------- moving boundary conditions
    //
    // When CCD stops scripted vertices short of their targets (a press
    // touching what it presses), they become unknowns of the Newton solve
    // with an augmented-Lagrangian pull toward the targets (the IPC
    // reference code's treatment): energy sum_v k/2 |x_v - t_v|^2 -
    // lambda_v . (x_v - t_v) with k = pull_stiffness_ times the average
    // free vertex mass. After each solve, lambda_v -= k (x_v - t_v), and k
    // doubles (up to pull_stiffness_max) while the progress stalls; the
    // step is done once 99.9% of the prescribed motion is taken.

    static constexpr double pull_stiffness_min = 1e6, pull_stiffness_max = 1e8;

    double pull_weight() const { return pull_stiffness_ * average_mass_; }

    /// Distance (m, over all scripted coordinates) from x to the targets.
    double script_remaining(const Eigen::MatrixXd& x) const
    {
        double sum = 0;
        for (const auto& s : model_.scripted) {
            sum += (x.row(s.vertex) - script_target_.row(s.vertex)).squaredNorm();
        }
        return std::sqrt(sum);
    }

    /// Fraction of this step's prescribed motion taken at x.
    double script_progress(const Eigen::MatrixXd& x) const { return 1 - script_remaining(x) / script_distance_; }

    double pull_energy(const Eigen::MatrixXd& x) const
    {
        double e = 0;
        if (pulling_) {
            for (const auto& s : model_.scripted) {
                const Eigen::RowVector3d d = x.row(s.vertex) - script_target_.row(s.vertex);
                e += 0.5 * pull_weight() * d.squaredNorm() - pull_multiplier_.row(s.vertex).dot(d);
            }
        }
        return e;
    }

    void add_pull_derivatives(const Eigen::MatrixXd& x, Eigen::VectorXd& g, Eigen::SparseMatrix<double>& H) const
    {
        if (!pulling_) {
            return;
        }
        for (const auto& s : model_.scripted) {
            const Eigen::RowVector3d d = x.row(s.vertex) - script_target_.row(s.vertex);
            g.segment<3>(3 * s.vertex) += (pull_weight() * d - pull_multiplier_.row(s.vertex)).transpose();
            for (int k = 0; k < 3; ++k) {
                H.coeffRef(3 * s.vertex + k, 3 * s.vertex + k) += pull_weight();
            }
        }
    }

    /// The augmented-Lagrangian rounds after a Newton solve while pulling;
    /// false when the prescribed motion is not reached.
    bool pull_scripts(Eigen::MatrixXd& x, StepStats& stats)
    {
        if (!pulling_) {
            return true;
        }
        double progress = script_progress(x);
        for (int round = 0; round < 30 && progress < script_done; ++round) {
            for (const auto& s : model_.scripted) {
                pull_multiplier_.row(s.vertex)
                    -= pull_weight() * (x.row(s.vertex) - script_target_.row(s.vertex));
            }
            if (!newton(x, stats)) {
                return false;
            }
            const double previous = progress;
            progress = script_progress(x);
            if (progress - previous < 0.01 * (1 - previous) && pull_stiffness_ < pull_stiffness_max) {
                pull_stiffness_ *= 2;
            }
        }
        return progress >= script_done;
    }

    /// The fraction of a step's prescribed motion at which pulled scripted
    /// vertices count as arrived.
    static constexpr double script_done = 0.999;

    // ------------------------------------------------------------------ energy

    double energy(const Eigen::MatrixXd& x, const Contacts& c) const
    {
        const double e = incremental_energy(x) + pull_energy(x);
        if (!std::isfinite(e)) {
            return e;
        }
        double b = 0;
        try {
            const BarrierPotential<> barrier(p_.dhat, kappa_);
            b = barrier(c.pairs, mesh_, x) + barrier(c.obstacles, mesh_, x);
        } catch (const penetration&) {
            return std::numeric_limits<double>::infinity();
        }
        double d = 0;
        if (!friction_.empty()) {
            d += friction_potential()(friction_, mesh_, x - x_start_);
        }
        if (!obstacle_friction_.empty()) {
            d += friction_potential()(obstacle_friction_, mesh_, x - x_start_);
        }
        return e + b + d;
    }

    /// Whether the model's release rule has freed its scripted vertices
    /// (release_scripts_if_due clears them for good).
    bool scripts_released() const { return model_.release.has_value() && model_.scripted.empty(); }

    /// Throws when positions x are no valid start: past the strain limit
    /// (ipc::invalid_argument) or a pair at or inside its offset
    /// (ipc::penetration, naming the pair). what names the state.
    void check_start(const Eigen::MatrixXd& x, const char* what) const
    {
        if (strain_) {
            require(is_strain_feasible(x, strain_->faces(), strain_->rest_shapes(), strain_limit()), what,
                " violates the strain limit ", strain_limit());
        }
        const Contacts c = contacts_at(x);
        BarrierPotential<> barrier(p_.dhat, 1.0);
        (void)barrier(c.pairs, mesh_, x); // these throw ipc::penetration naming the pair
        (void)barrier(c.obstacles, mesh_, x);
    }

    /// Frees the scripted vertices for good once the model's release rule
    /// holds at the current positions (every non-obstacle vertex beyond it).
    void release_scripts_if_due()
    {
        if (model_.release_scripts_if_due(x_)) {
            held_ = model_.held();
            mesh_ = model_.collision_mesh(); // the released vertices meet the obstacles again
        }
    }

    std::optional<double> min_gap(const Contacts& c, const Eigen::MatrixXd& x) const
    {
        ContactDistances d = contact_distances(c.pairs, x);
        add_contact_distances(c.obstacles, x, d);
        return d.min_gap;
    }

    // ------------------------------------------------------------------ Newton

    /// Minimises E from x (collision-free); returns false when it stopped
    /// without meeting the termination rule. With already_converged, a first
    /// iterate that meets the termination test ends the solve at once
    /// (without a step) and sets *already_converged: the lagged friction
    /// passes use it to stop once their update changes nothing.
    bool newton(Eigen::MatrixXd& x, StepStats& stats, bool* already_converged = nullptr)
    {
        using clock = std::chrono::steady_clock;
        const double h = p_.dt;
        Contacts c = contacts_at(x);
        double e_prev = energy(x, c);
        std::optional<double> gap_prev = min_gap(c, x);
        int below = 0;
        const bool toi_rule = p_.termination == SolverParameters::Termination::toi;
        CumulativeToiTermination toi_termination(p_.toi_k_min, p_.toi_eps);
        if (num_unlocked_ == 0) {
            return true;
        }
        Contacts c_new; // the line search's contacts, rebuilt in place and swapped with c
        look_ahead_.clear();
        bool last_step = false; // converged by the max-norm rule: take this step, then stop
        for (int it = 0; it < p_.max_newton_iterations; ++it) {
            ++stats.newton_iterations;
            // Gradient and projected Hessian.
            auto t0 = clock::now();
            const BarrierPotential<> barrier(p_.dhat, kappa_);
            Eigen::VectorXd g = barrier.gradient(c.pairs, mesh_, x);
            if (!c.obstacles.empty()) {
                g += barrier.gradient(c.obstacles, mesh_, x);
            }
            add_incremental_gradient(x, g);
            // Contact terms on held (obstacle) coordinates are dropped before
            // the sums, so they land in place in the elastic pattern.
            Eigen::SparseMatrix<double> H = incremental_hessian(x);
            add_pull_derivatives(x, g, H);
            const auto add_contact = [&](Eigen::SparseMatrix<double> H_contact) {
                drop_held(H_contact, locked_);
                add_scaled(H, H_contact);
            };
            AssemblyLayout lower;
            lower.triangle = SparseTriangle::lower;
            add_contact(barrier.hessian(c.pairs, mesh_, x, p_.projection, lower));
            // Obstacle contacts have one vertex each: their blocks are
            // diagonal, and few.
            const auto lower_part = [](const Eigen::SparseMatrix<double>& A) {
                return Eigen::SparseMatrix<double>(A.triangularView<Eigen::Lower>());
            };
            if (!c.obstacles.empty()) {
                add_contact(lower_part(barrier.hessian(c.obstacles, mesh_, x, p_.projection)));
            }
            if (!friction_.empty()) {
                const Eigen::MatrixXd U = x - x_start_;
                g += friction_potential().gradient(friction_, mesh_, U);
                add_contact(friction_potential().hessian(friction_, mesh_, U, PSDProjection::none, lower));
            }
            if (!obstacle_friction_.empty()) {
                const Eigen::MatrixXd U = x - x_start_;
                g += friction_potential().gradient(obstacle_friction_, mesh_, U);
                add_contact(lower_part(friction_potential().hessian(obstacle_friction_, mesh_, U)));
            }
            zero_held(g, locked_);
            stats.time_assembly += seconds_since(t0);
            // The Newton matrix: the incremental potential's, plus the
            // contact look-ahead terms of the pairs that cut steps hit.
            const Eigen::SparseMatrix<double> H_potential = std::move(H);
            bool stiffened = false;
            const auto solve = [&] {
                t0 = clock::now();
                H = H_potential;
                stiffened = !look_ahead_.empty();
                if (stiffened) {
                    add_scaled(H, look_ahead_.hessian(mesh_, obstacles_, x));
                    ++stats.look_ahead_solves;
                    stats.look_ahead_pairs = std::max(stats.look_ahead_pairs, look_ahead_.size());
                }
                // Held vertices: identity rows and columns, zero gradient, so
                // their step is zero and the unknowns keep their numbering.
                hold_dofs(H, locked_);
                stats.time_assembly += seconds_since(t0);
                if (p_.newton_matrix_observer) {
                    p_.newton_matrix_observer(Eigen::SparseMatrix<double>(H.selfadjointView<Eigen::Lower>()), locked_);
                }
                t0 = clock::now();
                Eigen::VectorXd direction = linear_solver_.solve(H, g);
                stats.time_solve += seconds_since(t0);
                return direction;
            };
            Eigen::VectorXd p = solve();
            Eigen::MatrixXd P = Eigen::Map<const Eigen::MatrixXd>(p.data(), 3, x.rows()).transpose();
            const double residual = std::sqrt(p.squaredNorm() / double(std::max<Index>(num_unlocked_, 1))) / h;
            if (stiffened) {
                // Not the incremental potential's Newton step: it cannot
                // count toward termination. Once it is small, drop the
                // terms so that the next direction can.
                below = 0;
                if (first_iterate_converged(p, residual)) {
                    look_ahead_.clear();
                }
            } else {
                below = residual < p_.newton_tolerance ? below + 1 : 0;
                if (p_.termination == SolverParameters::Termination::max_norm
                    && p.lpNorm<Eigen::Infinity>() / h < p_.newton_tolerance) {
                    // The max-norm rule stops before the step, except while
                    // scripted vertices are pulled short of their targets:
                    // there the step is what moves them (a remaining pull
                    // below the tolerance would otherwise never be taken,
                    // and every pull round would end where it began).
                    if (!pulling_ || script_progress(x) >= script_done) {
                        return std::isfinite(e_prev); // never accept a state of infinite energy
                    }
                    last_step = true;
                }
            }
            if (it == 0 && already_converged && first_iterate_converged(p, residual)) {
                *already_converged = true;
                return true;
            }

            // Line search: collision-free bound, strain feasibility, decrease.
            t0 = clock::now();
            double alpha = collision_free_bound(x, P);
            stats.time_ccd += seconds_since(t0);
            // A direction that CCD cuts to a small fraction is solved again
            // at once with the look-ahead terms of the pairs it hit (one
            // more factorisation instead of a short step).
            for (int again = 0; p_.contact_look_ahead && alpha < ContactLookAhead::resolve_below && again < max_resolves; ++again) {
                p = solve();
                P = Eigen::Map<const Eigen::MatrixXd>(p.data(), 3, x.rows()).transpose();
                t0 = clock::now();
                alpha = collision_free_bound(x, P);
                stats.time_ccd += seconds_since(t0);
            }
            const double ccd_bound = alpha;
            stats.cut_iterations += ccd_bound < 1 ? 1 : 0;
            // Slope and curvature of the quadratic model along p, for the
            // trace (actual / model decrease near 1: an accurate model).
            const double e_before = e_prev;
            const double slope = p_.newton_trace ? g.dot(p) : 0.0;
            const double curvature = p_.newton_trace ? p.dot(H.selfadjointView<Eigen::Lower>() * p) : 0.0;
            t0 = clock::now();
            const int strain_halvings_before = stats.strain_halvings;
            const int line_search_halvings_before = stats.line_search_halvings;
            if (strain_) {
                while (alpha > 1e-12 && !is_step_strain_feasible(x, P, alpha, strain_->faces(), strain_->rest_shapes(), strain_limit())) {
                    alpha /= 2;
                    ++stats.strain_halvings;
                }
            }
            Eigen::MatrixXd x_new;
            double e_new = std::numeric_limits<double>::infinity();
            while (alpha > 1e-12) {
                x_new = x + alpha * P;
                contacts_at(x_new, c_new);
                e_new = energy(x_new, c_new);
                // A trial must have finite energy (an inverted neo-Hookean
                // tet gives +inf; NaN never compares true): with e_prev
                // infinite, inf <= inf would otherwise accept it.
                if (std::isfinite(e_new) && e_new <= e_prev) {
                    break;
                }
                alpha /= 2;
                ++stats.line_search_halvings;
            }
            stats.time_line_search += seconds_since(t0);
            if (!(std::isfinite(e_new) && e_new <= e_prev)) {
                if (p_.newton_trace) {
                    std::fprintf(p_.newton_trace,
                        "  it %3d  r %.3e  ccd %.3e  no decrease down to alpha %.1e: E %.9e, slope %.3e, curvature "
                        "%.3e, last trial E %.9e  contacts %zu  hits %zu%s\n",
                        it, residual, ccd_bound, alpha, e_prev, slope, curvature, e_new, c.size(), last_hits_,
                        stiffened ? "  (look-ahead matrix)" : "");
                }
                if (stiffened) {
                    look_ahead_.clear(); // try the unstiffened direction
                    continue;
                }
                // No decrease along p: x is a minimiser to round-off.
                return toi_rule || below > 0 || last_step;
            }
            if (p_.record_energies) {
                stats.energies.emplace_back(e_prev, e_new);
            }
            x = x_new;
            std::swap(c, c_new);
            e_prev = e_new;
            alpha_sum_ += alpha;
            if (p_.newton_trace) {
                const double model = alpha * slope + 0.5 * alpha * alpha * curvature;
                std::fprintf(p_.newton_trace,
                    "  it %3d  r %.3e  ccd %.3e  alpha %.3e  E %.9e  actual/model %.3f  contacts %zu  hits %zu  "
                    "look-ahead %zu%s  halvings %d + %d  factor %.3g entries %.3g flops\n",
                    it, residual, ccd_bound, alpha, e_new, (e_new - e_before) / model, c.size(), last_hits_,
                    look_ahead_.size(), stiffened ? " (in this matrix)" : "", stats.strain_halvings - strain_halvings_before,
                    stats.line_search_halvings - line_search_halvings_before, linear_solver_.factor_nonzeros(),
                    linear_solver_.factor_flops());
            }

            // Stiffness updates (energy changes with them).
            bool changed = false;
            const std::optional<double> gap = min_gap(c, x);
            if (gap_prev && gap) {
                const double k = update_barrier_stiffness(kappa_, kappa_bounds_.max, *gap_prev, *gap, bbox_diagonal_);
                changed = changed || k != kappa_;
                kappa_ = k;
            }
            gap_prev = gap;
            if (strain_) {
                changed = sl_stiffness_.update(largest_stretches(x), strain_limit(), p_.strain_threshold) || changed;
                strain_->set_stiffness(sl_stiffness_.stiffness());
            }
            if (changed) {
                e_prev = energy(x, c);
            }
            if (last_step) {
                return true;
            }
            if (toi_rule) {
                toi_termination.accept(std::clamp(alpha, 0.0, 1.0));
                if (toi_termination.done()) {
                    return true;
                }
            } else if (below >= p_.converged_iterations) {
                return true;
            }
        }
        return false;
    }

    /// Contact look-ahead: a direction cut below
    /// ContactLookAhead::resolve_below is solved again, at most this many
    /// times per Newton iteration.
    static constexpr int max_resolves = 2;

    /// The collision-free step bound along P from x (mesh pairs and analytic
    /// obstacles), at most 1. With contact look-ahead it comes from every
    /// hit of the full step, which also update the look-ahead pairs.
    double collision_free_bound(const Eigen::MatrixXd& x, const Eigen::MatrixXd& P)
    {
        if (!p_.contact_look_ahead) {
            double alpha = std::min(1.0, collision_free_step_size(mesh_, x, x + P));
            if (!obstacles_.empty()) {
                alpha = std::min(alpha, obstacle_collision_free_step_size(mesh_, x, x + P, obstacles_));
            }
            return alpha;
        }
        std::vector<CollisionHit> hits = collision_hits(mesh_, x, x + P);
        if (!obstacles_.empty()) {
            const std::vector<CollisionHit> more = obstacle_collision_hits(mesh_, x, x + P, obstacles_);
            // Vertex-obstacle ids sort after the mesh pairs' (collision_hits
            // returns those sorted); obstacle hits come vertex by vertex.
            const auto first_obstacle_hit = hits.insert(hits.end(), more.begin(), more.end());
            std::sort(first_obstacle_hit, hits.end(),
                      [](const CollisionHit& a, const CollisionHit& b) { return a.pair < b.pair; });
        }
        last_hits_ = hits.size();
        const double bound = earliest_toi(hits);
        look_ahead_.update(hits, bound, mesh_, obstacles_, x, model_.mass, locked_);
        return bound;
    }

    /// Whether a Newton direction p (with its residual r) meets the
    /// termination test on its own: the max-norm rule's test, or r below
    /// eps_d for the others.
    bool first_iterate_converged(const Eigen::VectorXd& p, double residual) const
    {
        if (p_.termination == SolverParameters::Termination::max_norm) {
            return p.lpNorm<Eigen::Infinity>() / p_.dt < p_.newton_tolerance;
        }
        return residual < p_.newton_tolerance;
    }

    Model model_;
    SolverParameters p_;
    CollisionMesh mesh_;
    ObstacleSet obstacles_;     ///< the model's analytic obstacles
    std::vector<bool> held_;   ///< fixed or scripted: no inertia, no gravity
    std::vector<bool> locked_; ///< coordinates out of the current Newton system (held, less pulled scripts)
    Index num_unlocked_ = 0;
    double average_mass_ = 1;  ///< of the free vertices (kg)
    bool pulling_ = false;     ///< scripted vertices are pulled to their targets this step
    Eigen::MatrixXd script_target_, pull_multiplier_;
    double script_distance_ = 0; ///< from the step's start to the targets (m)
    double pull_stiffness_ = pull_stiffness_min;
    StencilAssembly elastic_;                 ///< the model's elastic elements
    Eigen::SparseMatrix<double> mass_matrix_; ///< lumped masses on the diagonal (3n x 3n)
    Eigen::MatrixXd x_, v_, x_hat_, x_start_;
    double time_ = 0;
    int steps_ = 0;
    double bbox_diagonal_ = 1;
    BarrierStiffnessBounds<double> kappa_bounds_ {};
    double kappa_ = 1;
    std::optional<StrainLimitPotential> strain_; ///< shells' strain limit, when enabled
    StrainLimitStiffness<double> sl_stiffness_;
    FrictionCollisions friction_; ///< lagged friction contacts of the current pass
    ObstacleFrictionCollisions obstacle_friction_; ///< the same against the analytic obstacles
    NewtonLinearSolver<Eigen::Lower> linear_solver_; ///< counts the factorisations of the current step
    double alpha_sum_ = 0;   ///< accepted step fractions in the current step
    ContactLookAhead look_ahead_; ///< look-ahead pairs of the current Newton solve
    std::size_t last_hits_ = 0;   ///< hits of the last CCD query (for the trace)
};

Simulator::Simulator(Model model, const SolverParameters& parameters)
    : impl_(std::make_unique<Impl>(std::move(model), parameters))
{
}
Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

const Model& Simulator::model() const { return impl_->model(); }
const CollisionMesh& Simulator::collision_mesh() const { return impl_->collision_mesh(); }
const SolverParameters& Simulator::parameters() const { return impl_->parameters(); }
const Eigen::MatrixXd& Simulator::positions() const { return impl_->positions(); }
const Eigen::MatrixXd& Simulator::velocities() const { return impl_->velocities(); }
double Simulator::time() const { return impl_->time(); }
double Simulator::kappa() const { return impl_->kappa(); }
Eigen::VectorXd Simulator::largest_stretches(const Eigen::MatrixXd& x) const { return impl_->largest_stretches(x); }
std::optional<double> Simulator::minimum_gap(const Eigen::MatrixXd& x) const { return impl_->minimum_gap(x); }
StepStats Simulator::step() { return impl_->step(); }
SimulatorState Simulator::state() const { return impl_->state(); }
void Simulator::restore(const SimulatorState& state) { impl_->restore(state); }
double Simulator::incremental_potential(const Eigen::MatrixXd& x) const { return impl_->incremental_potential(x); }

} // namespace ipc::examples
