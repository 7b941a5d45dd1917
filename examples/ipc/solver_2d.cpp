// The 2D reference IPC time stepper (declared and described in solver_2d.hpp).

#include "solver_2d.hpp"

#include <common/contact_distances.hpp>
#include <common/contact_look_ahead.hpp>
#include <common/elasticity_2d.hpp>
#include <common/newton_linear_solver.hpp>
#include <common/sparse_assembly.hpp>

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/toi_termination.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Sparse>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace ipc::examples {

namespace {

    using Clock = std::chrono::steady_clock;

    double seconds_since(Clock::time_point start)
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    /// Stacked (x, y) positions of N vertices.
    template <int N> Vector<double, 2 * N> gather_2d(const Eigen::MatrixXd& x, const Index* vertices)
    {
        Vector<double, 2 * N> out;
        for (int i = 0; i < N; ++i) {
            out.template segment<2>(2 * i) = x.row(vertices[i]).transpose();
        }
        return out;
    }

} // namespace

class Simulator2D::Impl {
public:
    Impl(Model2D model, const SolverParameters& parameters)
        : model_(std::move(model))
        , p_(parameters)
        , look_ahead_(parameters.look_ahead_approach)
    {
        validate_parameters();
        validate_model();
        const Index n = model_.num_vertices();
        x_ = model_.positions;
        v_ = model_.velocities;
        mesh_ = model_.collision_mesh();
        num_free_ = Index(std::count(model_.fixed.begin(), model_.fixed.end(), false));

        // Elastic stencils: the triangles, then the springs.
        const Index num_triangles = Index(model_.triangles.size());
        for (const auto& t : model_.triangles) {
            rest_.push_back(triangle_rest_2d<double>(model_.positions.row(t.vertices[0]).transpose(),
                model_.positions.row(t.vertices[1]).transpose(), model_.positions.row(t.vertices[2]).transpose()));
        }
        elastic_ = StencilAssembly(
            n, num_triangles + Index(model_.springs.size()),
            [&](Index k) {
                StencilVertices s;
                if (k < num_triangles) {
                    const auto& v = model_.triangles[std::size_t(k)].vertices;
                    s.vertices = { v[0], v[1], v[2], 0 };
                    s.size = 3;
                } else {
                    const auto& v = model_.springs[std::size_t(k - num_triangles)].vertices;
                    s.vertices = { v[0], v[1], 0, 0 };
                    s.size = 2;
                }
                return s;
            },
            2);
        elastic_.build_sparsity_pattern();
        mass_matrix_.resize(2 * n, 2 * n);
        mass_matrix_.reserve(Eigen::VectorXi::Constant(2 * n, 1));
        for (Index i = 0; i < 2 * n; ++i) {
            mass_matrix_.insert(i, i) = model_.fixed[std::size_t(i / 2)] ? 0.0 : model_.mass[i / 2];
        }
        mass_matrix_.makeCompressed();

        // Barrier stiffness bounds (IPC's rule, as in the 3D solver).
        const Eigen::RowVector2d lo = x_.colwise().minCoeff(), hi = x_.colwise().maxCoeff();
        bbox_diagonal_ = std::max((hi - lo).norm(), 1e-9);
        double mass_sum = 0;
        for (Index v = 0; v < n; ++v) {
            mass_sum += model_.fixed[std::size_t(v)] ? 0.0 : model_.mass[v];
        }
        const double average_mass = std::max(num_free_ > 0 ? mass_sum / double(num_free_) : 1.0, 1e-12);
        kappa_bounds_ = barrier_stiffness_bounds(bbox_diagonal_, average_mass, p_.dhat,
            2 * model_.contact_radius.maxCoeff());
        kappa_ = kappa_bounds_.min;

        // The initial state must be intersection-free and strictly separated.
        require<penetration>(!has_intersections(mesh_, x_), "Simulator2D: the initial state intersects");
        Collisions c;
        c.build(mesh_, x_, p_.dhat);
        (void)BarrierPotential<>(p_.dhat, 1.0)(c, mesh_, x_); // throws ipc::penetration naming the pair
    }

    const Model2D& model() const { return model_; }
    const CollisionMesh& collision_mesh() const { return mesh_; }
    const SolverParameters& parameters() const { return p_; }
    const Eigen::MatrixXd& positions() const { return x_; }
    const Eigen::MatrixXd& velocities() const { return v_; }
    double time() const { return time_; }
    double kappa() const { return kappa_; }

    std::optional<double> minimum_gap(const Eigen::MatrixXd& x) const
    {
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        return contact_distances(c, x).min_gap;
    }

    double elastic_energy(const Eigen::MatrixXd& x) const
    {
        mesh_.check_positions(x, "Simulator2D::elastic_energy: x");
        return elastic_.sum([&](Index k) { return element_energy(k, x); });
    }

    double kinetic_energy() const
    {
        return 0.5 * (model_.mass.asDiagonal() * v_.rowwise().squaredNorm()).sum();
    }

    double gravity_energy(const Eigen::MatrixXd& x) const
    {
        mesh_.check_positions(x, "Simulator2D::gravity_energy: x");
        double e = 0;
        for (Index v = 0; v < x.rows(); ++v) {
            e -= model_.mass[v] * model_.gravity.dot(x.row(v).transpose());
        }
        return e;
    }

    StepStats step()
    {
        const auto start = Clock::now();
        StepStats stats;
        linear_solver_.reset_count();
        alpha_sum_ = 0;
        const double h = p_.dt;
        x_start_ = x_;
        x_hat_ = x_ + h * v_;
        for (Index v = 0; v < x_.rows(); ++v) {
            if (!model_.fixed[std::size_t(v)]) {
                x_hat_.row(v) += h * h * model_.gravity.transpose();
            }
        }
        Eigen::MatrixXd x = x_;

        // Per-step barrier stiffness (IPC): balance barrier and IP gradients.
        {
            Collisions c;
            c.build(mesh_, x, p_.dhat);
            Eigen::VectorXd gb = BarrierPotential<>(p_.dhat, 1.0).gradient(c, mesh_, x);
            Eigen::VectorXd ge = incremental_gradient(x);
            zero_held(gb, model_.fixed, 2);
            zero_held(ge, model_.fixed, 2);
            kappa_ = initial_barrier_stiffness(kappa_bounds_, ge, gb);
            if (p_.barrier_stiffness) {
                kappa_ = std::min(*p_.barrier_stiffness, 100 * kappa_);
            }
        }

        for (int pass = 0; pass < p_.friction_iterations; ++pass) {
            update_friction(x);
            ++stats.friction_passes;
            bool lagging_converged = false;
            stats.converged = newton(x, stats, pass > 0 ? &lagging_converged : nullptr) && stats.converged;
            if (p_.mu == 0 || lagging_converged) {
                break;
            }
        }
        if (p_.check_intersections) {
            require<penetration>(!has_intersections(mesh_, x), "Simulator2D: time step ending at t = ", time_ + h,
                " produced an intersecting configuration");
        }
        v_ = (x - x_) / h;
        x_ = x;
        time_ += h;

        // Statistics of the state written out.
        Collisions c;
        c.build(mesh_, x_, p_.dhat);
        stats.contacts = c.size();
        stats.min_gap = contact_distances(c, x_).min_gap;
        stats.min_distance = contact_distances(mesh_, x_, 2 * p_.dhat).min_distance;
        stats.factorizations = linear_solver_.factorizations();
        stats.toi_mean = stats.newton_iterations > 0 ? alpha_sum_ / stats.newton_iterations : 0;
        stats.kappa = kappa_;
        stats.seconds = seconds_since(start);
        return stats;
    }

    double incremental_potential(const Eigen::MatrixXd& x) const
    {
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        return energy(x, c);
    }

private:
    void validate_parameters() const
    {
        require(std::isfinite(p_.dt) && p_.dt > 0, "Simulator2D: time step dt must be positive, got ", p_.dt);
        require(std::isfinite(p_.dhat) && p_.dhat > 0, "Simulator2D: dhat must be positive, got ", p_.dhat);
        require(std::isfinite(p_.mu) && p_.mu >= 0, "Simulator2D: friction coefficient mu must be >= 0, got ", p_.mu);
        require(std::isfinite(p_.eps_v) && p_.eps_v > 0, "Simulator2D: eps_v must be positive, got ", p_.eps_v);
        require(p_.friction_iterations >= 1, "Simulator2D: friction_iterations must be >= 1, got ",
            p_.friction_iterations);
        require(std::isfinite(p_.newton_tolerance) && p_.newton_tolerance > 0,
            "Simulator2D: newton_tolerance must be positive, got ", p_.newton_tolerance);
        require(p_.converged_iterations >= 1 && p_.max_newton_iterations >= 1,
            "Simulator2D: converged_iterations and max_newton_iterations must be >= 1, got ", p_.converged_iterations,
            " and ", p_.max_newton_iterations);
        require(!p_.strain_limit, "Simulator2D: strain limiting applies to 3D shells, got strain_limit ",
            p_.strain_limit.value_or(0.0));
        require(!p_.barrier_stiffness || (std::isfinite(*p_.barrier_stiffness) && *p_.barrier_stiffness > 0),
            "Simulator2D: barrier_stiffness must be positive, got ", p_.barrier_stiffness.value_or(0.0));
    }

    void validate_model() const
    {
        const Model2D& m = model_;
        const Index n = m.num_vertices();
        require(n > 0 && m.positions.cols() == 2, "Simulator2D: positions must be n x 2 with n > 0, got ",
            m.positions.rows(), " x ", m.positions.cols());
        require(all_finite(m.positions), "Simulator2D: positions must be finite");
        require(m.velocities.rows() == n && m.velocities.cols() == 2 && all_finite(m.velocities),
            "Simulator2D: velocities must be finite and ", n, " x 2, got ", m.velocities.rows(), " x ",
            m.velocities.cols());
        require(m.mass.size() == n && m.contact_radius.size() == n && Index(m.fixed.size()) == n
                && Index(m.kind.size()) == n,
            "Simulator2D: mass, contact_radius, fixed and kind need ", n, " entries, got ", m.mass.size(), ", ",
            m.contact_radius.size(), ", ", m.fixed.size(), " and ", m.kind.size());
        require(all_finite(m.gravity), "Simulator2D: gravity must be finite");
        for (Index v = 0; v < n; ++v) {
            require(std::isfinite(m.mass[v]) && (m.fixed[std::size_t(v)] ? m.mass[v] >= 0 : m.mass[v] > 0),
                "Simulator2D: vertex ", v, " has mass ", m.mass[v], " (a free vertex needs a positive mass)");
        }
        const auto in_range = [&](Index v) { return v >= 0 && v < n; };
        for (std::size_t t = 0; t < m.triangles.size(); ++t) {
            const auto& tri = m.triangles[t];
            require(std::all_of(tri.vertices.begin(), tri.vertices.end(), in_range), "Simulator2D: triangle ", t,
                " has a vertex index out of range [0, ", n, ")");
            require(std::isfinite(tri.mu) && tri.mu > 0 && std::isfinite(tri.lambda) && tri.lambda >= 0,
                "Simulator2D: triangle ", t, " has Lame parameters mu = ", tri.mu, ", lambda = ", tri.lambda,
                " (need mu > 0, lambda >= 0)");
            (void)triangle_rest_2d<double>(m.positions.row(tri.vertices[0]).transpose(),
                m.positions.row(tri.vertices[1]).transpose(), m.positions.row(tri.vertices[2]).transpose());
        }
        for (std::size_t s = 0; s < m.springs.size(); ++s) {
            const auto& spring = m.springs[s];
            require(in_range(spring.vertices[0]) && in_range(spring.vertices[1])
                    && spring.vertices[0] != spring.vertices[1],
                "Simulator2D: spring ", s, " has vertices ", spring.vertices[0], ", ", spring.vertices[1],
                " (two distinct indices in [0, ", n, ") needed)");
            require(std::isfinite(spring.rest_length) && spring.rest_length > 0 && std::isfinite(spring.stiffness)
                    && spring.stiffness > 0,
                "Simulator2D: spring ", s, " has rest length ", spring.rest_length, " and stiffness ",
                spring.stiffness, " (both must be positive)");
        }
    }

    // ---------------------------------------------------------- elasticity

    double element_energy(Index k, const Eigen::MatrixXd& x) const
    {
        const Index num_triangles = Index(model_.triangles.size());
        if (k < num_triangles) {
            const auto& t = model_.triangles[std::size_t(k)];
            return neo_hookean_2d_energy<double>(gather_2d<3>(x, t.vertices.data()), rest_[std::size_t(k)], t.mu,
                t.lambda);
        }
        const auto& s = model_.springs[std::size_t(k - num_triangles)];
        return spring_2d_energy<double>(gather_2d<2>(x, s.vertices.data()), s.rest_length, s.stiffness);
    }

    /// Element k's gradient, (x, y) per vertex padded to the assembly's 3.
    void element_gradient(Index k, const Eigen::MatrixXd& x, Vector<double, 12>& out) const
    {
        out.setZero();
        const Index num_triangles = Index(model_.triangles.size());
        if (k < num_triangles) {
            const auto& t = model_.triangles[std::size_t(k)];
            const Vector<double, 6> g = neo_hookean_2d_gradient<double>(gather_2d<3>(x, t.vertices.data()),
                rest_[std::size_t(k)], t.mu, t.lambda);
            for (int a = 0; a < 3; ++a) {
                out.segment<2>(3 * a) = g.segment<2>(2 * a);
            }
            return;
        }
        const auto& s = model_.springs[std::size_t(k - num_triangles)];
        const Vector<double, 4> g = spring_2d_gradient<double>(gather_2d<2>(x, s.vertices.data()), s.rest_length,
            s.stiffness);
        out.segment<2>(0) = g.segment<2>(0);
        out.segment<2>(3) = g.segment<2>(2);
    }

    /// Element k's Hessian, projected to PSD per element, padded likewise.
    void element_hessian(Index k, const Eigen::MatrixXd& x, Matrix<double, 12, 12>& out) const
    {
        out.setZero();
        const auto scatter = [&](const auto& H, int size) {
            for (int a = 0; a < size; ++a) {
                for (int b = 0; b < size; ++b) {
                    out.block<2, 2>(3 * a, 3 * b) = H.template block<2, 2>(2 * a, 2 * b);
                }
            }
        };
        const Index num_triangles = Index(model_.triangles.size());
        if (k < num_triangles) {
            const auto& t = model_.triangles[std::size_t(k)];
            const Matrix<double, 6, 6> H = neo_hookean_2d_hessian<double>(gather_2d<3>(x, t.vertices.data()),
                rest_[std::size_t(k)], t.mu, t.lambda);
            scatter(project_to_psd(H, p_.projection), 3);
            return;
        }
        const auto& s = model_.springs[std::size_t(k - num_triangles)];
        const Matrix<double, 4, 4> H = spring_2d_hessian<double>(gather_2d<2>(x, s.vertices.data()), s.rest_length,
            s.stiffness);
        scatter(project_to_psd(H, p_.projection), 2);
    }

    /// Inertia + h^2 elasticity.
    double incremental_energy(const Eigen::MatrixXd& x) const
    {
        double e = 0;
        for (Index v = 0; v < x.rows(); ++v) {
            if (!model_.fixed[std::size_t(v)]) {
                e += 0.5 * model_.mass[v] * (x.row(v) - x_hat_.row(v)).squaredNorm();
            }
        }
        return e + p_.dt * p_.dt * elastic_.sum([&](Index k) { return element_energy(k, x); });
    }

    Eigen::VectorXd incremental_gradient(const Eigen::MatrixXd& x) const
    {
        Eigen::VectorXd g = p_.dt * p_.dt
            * elastic_.gradient([&](Index k, Vector<double, 12>& out) { element_gradient(k, x, out); });
        for (Index v = 0; v < x.rows(); ++v) {
            if (!model_.fixed[std::size_t(v)]) {
                g.segment<2>(2 * v) += model_.mass[v] * (x.row(v) - x_hat_.row(v)).transpose();
            }
        }
        return g;
    }

    Eigen::SparseMatrix<double> incremental_hessian(const Eigen::MatrixXd& x) const
    {
        Eigen::SparseMatrix<double> H
            = elastic_.hessian([&](Index k, Matrix<double, 12, 12>& out) { element_hessian(k, x, out); });
        H *= p_.dt * p_.dt;
        add_scaled(H, mass_matrix_);
        return H;
    }

    // ---------------------------------------------------- contact, friction

    void update_friction(const Eigen::MatrixXd& x)
    {
        friction_.clear();
        if (p_.mu == 0) {
            return;
        }
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        friction_.build(c, mesh_, x, p_.dhat, kappa_, p_.mu);
    }

    FrictionPotential<> friction_potential() const { return FrictionPotential<>(p_.eps_v * p_.dt); }

    double energy(const Eigen::MatrixXd& x, const Collisions& c) const
    {
        const double e = incremental_energy(x);
        if (!std::isfinite(e)) {
            return e;
        }
        double b = 0;
        try {
            b = BarrierPotential<>(p_.dhat, kappa_)(c, mesh_, x);
        } catch (const penetration&) {
            return std::numeric_limits<double>::infinity();
        }
        const double d = friction_.empty() ? 0.0 : friction_potential()(friction_, mesh_, x - x_start_);
        return e + b + d;
    }

    // -------------------------------------------------------------- Newton

    /// Minimises E from x (collision-free); false when it stopped without
    /// meeting the termination rule. With already_converged, a first iterate
    /// that meets the termination test ends the solve at once and sets
    /// *already_converged (the lagged friction passes' stopping rule).
    bool newton(Eigen::MatrixXd& x, StepStats& stats, bool* already_converged = nullptr)
    {
        if (num_free_ == 0) {
            return true;
        }
        const double h = p_.dt;
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        double e_prev = energy(x, c);
        std::optional<double> gap_prev = contact_distances(c, x).min_gap;
        int below = 0;
        const bool toi_rule = p_.termination == SolverParameters::Termination::toi;
        CumulativeToiTermination toi_termination(p_.toi_k_min, p_.toi_eps);
        look_ahead_.clear();
        for (int it = 0; it < p_.max_newton_iterations; ++it) {
            ++stats.newton_iterations;
            auto t0 = Clock::now();
            const BarrierPotential<> barrier(p_.dhat, kappa_);
            Eigen::VectorXd g = barrier.gradient(c, mesh_, x) + incremental_gradient(x);
            Eigen::SparseMatrix<double> H = incremental_hessian(x);
            const auto add_contact = [&](Eigen::SparseMatrix<double> H_contact) {
                drop_held(H_contact, model_.fixed, 2);
                add_scaled(H, H_contact);
            };
            add_contact(barrier.hessian(c, mesh_, x, p_.projection));
            if (!friction_.empty()) {
                const Eigen::MatrixXd U = x - x_start_;
                g += friction_potential().gradient(friction_, mesh_, U);
                add_contact(friction_potential().hessian(friction_, mesh_, U));
            }
            zero_held(g, model_.fixed, 2);
            stats.time_assembly += seconds_since(t0);
            // The Newton matrix plus the contact look-ahead terms (see solver.cpp).
            const Eigen::SparseMatrix<double> H_potential = std::move(H);
            bool stiffened = false;
            const auto solve = [&] {
                t0 = Clock::now();
                H = H_potential;
                stiffened = !look_ahead_.empty();
                if (stiffened) {
                    add_scaled(H, look_ahead_.hessian(mesh_, no_obstacles_, x));
                    ++stats.look_ahead_solves;
                    stats.look_ahead_pairs = std::max(stats.look_ahead_pairs, look_ahead_.size());
                }
                hold_dofs(H, model_.fixed, 2);
                stats.time_assembly += seconds_since(t0);
                t0 = Clock::now();
                Eigen::VectorXd direction = linear_solver_.solve(H, g);
                stats.time_solve += seconds_since(t0);
                return direction;
            };
            Eigen::VectorXd p = solve();
            Eigen::MatrixXd P = Eigen::Map<const Eigen::MatrixXd>(p.data(), 2, x.rows()).transpose();
            const double residual = std::sqrt(p.squaredNorm() / double(num_free_)) / h;
            const bool max_norm_met = p.lpNorm<Eigen::Infinity>() / h < p_.newton_tolerance;
            if (stiffened) {
                below = 0; // not the incremental potential's Newton step
                if (p_.termination == SolverParameters::Termination::max_norm ? max_norm_met
                                                                               : residual < p_.newton_tolerance) {
                    look_ahead_.clear();
                }
            } else {
                below = residual < p_.newton_tolerance ? below + 1 : 0;
                if (p_.termination == SolverParameters::Termination::max_norm && max_norm_met) {
                    return true;
                }
            }
            if (it == 0 && already_converged
                && (p_.termination == SolverParameters::Termination::max_norm ? max_norm_met
                                                                                : residual < p_.newton_tolerance)) {
                *already_converged = true;
                return true;
            }

            // Line search from the collision-free bound: accept a decrease.
            t0 = Clock::now();
            double alpha = collision_free_bound(x, P);
            stats.time_ccd += seconds_since(t0);
            for (int again = 0; p_.contact_look_ahead && alpha < ContactLookAhead::resolve_below && again < max_resolves; ++again) {
                p = solve();
                P = Eigen::Map<const Eigen::MatrixXd>(p.data(), 2, x.rows()).transpose();
                t0 = Clock::now();
                alpha = collision_free_bound(x, P);
                stats.time_ccd += seconds_since(t0);
            }
            stats.cut_iterations += alpha < 1 ? 1 : 0;
            t0 = Clock::now();
            Eigen::MatrixXd x_new;
            Collisions c_new;
            double e_new = std::numeric_limits<double>::infinity();
            while (alpha > 1e-12) {
                x_new = x + alpha * P;
                c_new.build(mesh_, x_new, p_.dhat);
                e_new = energy(x_new, c_new);
                if (std::isfinite(e_new) && e_new <= e_prev) {
                    break;
                }
                alpha /= 2;
                ++stats.line_search_halvings;
            }
            stats.time_line_search += seconds_since(t0);
            if (!(std::isfinite(e_new) && e_new <= e_prev)) {
                if (stiffened) {
                    look_ahead_.clear(); // try the unstiffened direction
                    continue;
                }
                return toi_rule || below > 0; // no decrease along p: a minimiser to round-off
            }
            if (p_.record_energies) {
                stats.energies.emplace_back(e_prev, e_new);
            }
            x = x_new;
            c = std::move(c_new);
            e_prev = e_new;
            alpha_sum_ += alpha;

            // Barrier stiffness update (the energy changes with it).
            const std::optional<double> gap = contact_distances(c, x).min_gap;
            if (gap_prev && gap) {
                const double k = update_barrier_stiffness(kappa_, kappa_bounds_.max, *gap_prev, *gap, bbox_diagonal_);
                if (k != kappa_) {
                    kappa_ = k;
                    e_prev = energy(x, c);
                }
            }
            gap_prev = gap;
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

    Model2D model_;
    SolverParameters p_;
    CollisionMesh mesh_;
    Index num_free_ = 0;
    std::vector<TriangleRest2D<double>> rest_; ///< of model_.triangles
    StencilAssembly elastic_;                  ///< triangles, then springs (dim 2)
    Eigen::SparseMatrix<double> mass_matrix_;  ///< lumped masses (2n x 2n, zero on fixed vertices, all stored)
    Eigen::MatrixXd x_, v_, x_hat_, x_start_;
    double time_ = 0;
    double bbox_diagonal_ = 1;
    BarrierStiffnessBounds<double> kappa_bounds_ {};
    double kappa_ = 1;
    FrictionCollisions friction_;
    NewtonLinearSolver<> linear_solver_; ///< counts the factorisations of the current step
    ContactLookAhead look_ahead_;        ///< look-ahead pairs of the current Newton solve
    ObstacleSet no_obstacles_;           ///< 2D models have no analytic obstacles

    /// Contact look-ahead re-solves per Newton iteration (see solver.cpp).
    static constexpr int max_resolves = 2;

    /// The collision-free step bound along P from x, at most 1; with contact
    /// look-ahead from every hit of the full step, which update the
    /// look-ahead pairs.
    double collision_free_bound(const Eigen::MatrixXd& x, const Eigen::MatrixXd& P)
    {
        if (!p_.contact_look_ahead) {
            return std::min(1.0, collision_free_step_size(mesh_, x, x + P));
        }
        const std::vector<CollisionHit> hits = collision_hits(mesh_, x, x + P);
        const double bound = earliest_toi(hits);
        look_ahead_.update(hits, bound, mesh_, no_obstacles_, x, model_.mass, model_.fixed);
        return bound;
    }
    double alpha_sum_ = 0;
};

Simulator2D::Simulator2D(Model2D model, const SolverParameters& parameters)
    : impl_(std::make_unique<Impl>(std::move(model), parameters))
{
}
Simulator2D::~Simulator2D() = default;
Simulator2D::Simulator2D(Simulator2D&&) noexcept = default;
Simulator2D& Simulator2D::operator=(Simulator2D&&) noexcept = default;

const Model2D& Simulator2D::model() const { return impl_->model(); }
const CollisionMesh& Simulator2D::collision_mesh() const { return impl_->collision_mesh(); }
const SolverParameters& Simulator2D::parameters() const { return impl_->parameters(); }
const Eigen::MatrixXd& Simulator2D::positions() const { return impl_->positions(); }
const Eigen::MatrixXd& Simulator2D::velocities() const { return impl_->velocities(); }
double Simulator2D::time() const { return impl_->time(); }
double Simulator2D::kappa() const { return impl_->kappa(); }
std::optional<double> Simulator2D::minimum_gap(const Eigen::MatrixXd& x) const { return impl_->minimum_gap(x); }
double Simulator2D::elastic_energy(const Eigen::MatrixXd& x) const { return impl_->elastic_energy(x); }
double Simulator2D::kinetic_energy() const { return impl_->kinetic_energy(); }
double Simulator2D::gravity_energy(const Eigen::MatrixXd& x) const { return impl_->gravity_energy(x); }
StepStats Simulator2D::step() { return impl_->step(); }
double Simulator2D::incremental_potential(const Eigen::MatrixXd& x) const
{
    return impl_->incremental_potential(x);
}

} // namespace ipc::examples
