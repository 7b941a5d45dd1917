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
/// pairs of the collision mesh, and D the lagged friction potential.
/// kappa adapts per IPC (bounds, per-step initial value, doubling);
/// kappa_s per C-IPC (1 kPa doubling to at most 0.1 MPa).
/// Termination (C-IPC eq. 13): r = (1/h) sqrt(|p|^2 / n_free) < eps_d on
/// `converged_iterations` consecutive Newton iterations.

#include <common/model.hpp>
#include <common/sparse_assembly.hpp>

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/strain_limit/isotropic_strain_limit.hpp>
#include <ipc/strain_limit/strain_limit_feasibility.hpp>
#include <ipc/strain_limit/strain_limit_stiffness.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <Eigen/Sparse>
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
#include <Eigen/CholmodSupport>
#else
#include <Eigen/SparseCholesky>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc::examples {

/// Parameters of the solver; defaults follow the papers.
struct SolverParameters {
    double dt = 0.04;         ///< time step h (s)
    double dhat = 1e-3;       ///< barrier activation distance (m)
    double mu = 0;            ///< friction coefficient
    double eps_v = 1e-3;      ///< friction velocity threshold (m/s)
    int friction_iterations = 1; ///< lagged friction passes per step (>= 1)
    std::optional<double> strain_limit; ///< s (stretch factor), none: no strain limiting
    double strain_threshold = 1.0;       ///< s_hat
    double strain_stiffness = 1e3;       ///< initial kappa_s (Pa)
    double strain_stiffness_max = 1e5;   ///< largest kappa_s (Pa)
    double newton_tolerance = 1e-3;      ///< eps_d (m/s)
    int converged_iterations = 3;        ///< consecutive iterations below eps_d
    int max_newton_iterations = 200;     ///< per friction pass
    PSDProjection projection = PSDProjection::clamp;
    bool record_energies = false; ///< keep (before, after) energies of every Newton iteration
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
    std::optional<double> max_strain; ///< largest singular value over shell triangles
    double seconds = 0;
    double kappa = 0;                 ///< barrier stiffness at the end of the step
    double kappa_s = 0;               ///< strain-limit stiffness (Pa)
    bool converged = true;            ///< every pass met the termination rule
    int line_search_halvings = 0;
    int strain_halvings = 0;
    // Where the time went (seconds).
    double time_assembly = 0, time_solve = 0, time_ccd = 0, time_line_search = 0;
    /// (energy before, energy after) of every Newton iteration (with record_energies).
    std::vector<std::pair<double, double>> energies;
};

/// Implicit-Euler C-IPC simulator of a Model; see the file comment.
class Simulator {
public:
    /// Takes the model (validated by the collision mesh) and parameters.
    /// Throws ipc::invalid_argument for bad parameters, ipc::penetration when
    /// the initial state has a pair at or inside its offset, and
    /// ipc::invalid_argument when it violates the strain limit.
    Simulator(Model model, const SolverParameters& parameters)
        : model_(std::move(model))
        , p_(parameters)
        , sl_stiffness_(parameters.strain_stiffness, parameters.strain_stiffness_max)
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

        Eigen::MatrixXi F(Index(model_.contact_faces.size()), 3), E(Index(model_.contact_edges.size()), 2),
            T(Index(model_.tetrahedra.size()), 4);
        for (std::size_t i = 0; i < model_.contact_faces.size(); ++i) {
            F.row(Index(i)) = model_.contact_faces[i].transpose();
        }
        for (std::size_t i = 0; i < model_.contact_edges.size(); ++i) {
            E.row(Index(i)) = model_.contact_edges[i].transpose();
        }
        for (std::size_t i = 0; i < model_.tetrahedra.size(); ++i) {
            T.row(Index(i)) = model_.tetrahedra[i].transpose();
        }
        mesh_ = CollisionMesh::Builder(x_).tetrahedra(T).faces(F).edges(E).vertex_radii(model_.contact_radius).build();

        held_ = model_.held();
        dofs_ = DofMap(held_);
        num_free_vertices_ = Index(std::count(held_.begin(), held_.end(), false));

        // Scene scale and barrier stiffness bounds (IPC reference rule).
        const Eigen::RowVector3d lo = x_.colwise().minCoeff(), hi = x_.colwise().maxCoeff();
        bbox_diagonal_ = std::max((hi - lo).norm(), 1e-9);
        double mass_sum = 0;
        for (Index v = 0; v < n; ++v) {
            if (!held_[std::size_t(v)]) {
                mass_sum += model_.mass[v];
            }
        }
        const double average_mass = num_free_vertices_ > 0 ? mass_sum / double(num_free_vertices_) : 1.0;
        kappa_bounds_ = barrier_stiffness_bounds(bbox_diagonal_, std::max(average_mass, 1e-12), p_.dhat,
            2 * model_.contact_radius.maxCoeff());
        kappa_ = kappa_bounds_.min;

        if (p_.strain_limit) {
            strain_.limit = *p_.strain_limit;
            strain_.threshold = p_.strain_threshold;
            strain_.stiffness = p_.strain_stiffness;
            strain_faces_.resize(Index(model_.membranes.size()), 3);
            for (std::size_t t = 0; t < model_.membranes.size(); ++t) {
                const auto& m = model_.membranes[t];
                strain_faces_.row(Index(t)) << int(m.vertices[0]), int(m.vertices[1]), int(m.vertices[2]);
                const Eigen::Vector3d X0 = model_.positions.row(m.vertices[0]).transpose(),
                                      X1 = model_.positions.row(m.vertices[1]).transpose(),
                                      X2 = model_.positions.row(m.vertices[2]).transpose();
                strain_rest_.push_back(triangle_rest_shape<double>(X0, X1, X2));
                strain_thickness_.push_back(m.material.thickness);
            }
            strain_.validate();
            require(strain_faces_.rows() == 0 || is_strain_feasible(x_, strain_faces_, strain_rest_, strain_.limit),
                "the initial state violates the strain limit ", strain_.limit);
        }
        // The initial state must be strictly separated.
        Collisions c;
        c.build(mesh_, x_, p_.dhat);
        BarrierPotential<> barrier(p_.dhat, 1.0);
        (void)barrier(c, mesh_, x_); // throws ipc::penetration naming the pair
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
    std::optional<double> minimum_gap(const Eigen::MatrixXd& x) const
    {
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        return min_gap(c, x);
    }

    /// Advances one time step.
    StepStats step()
    {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        StepStats stats;
        const double h = p_.dt;
        x_start_ = x_;

        // Predictor and held vertices.
        x_hat_ = x_ + h * v_;
        for (Index v = 0; v < x_.rows(); ++v) {
            if (!held_[std::size_t(v)]) {
                x_hat_.row(v) += h * h * model_.gravity.transpose();
            }
        }
        Eigen::MatrixXd x = x_;
        if (!model_.scripted.empty()) {
            Eigen::MatrixXd target = x_;
            for (const auto& s : model_.scripted) {
                target.row(s.vertex) = s.motion(time_ + h, model_.positions.row(s.vertex).transpose()).transpose();
            }
            const auto t0 = clock::now();
            const double alpha = collision_free_step_size(mesh_, x_, target);
            stats.time_ccd += seconds_since(t0);
            x = x_ + alpha * (target - x_); // a blocked script lags behind
        }

        // Per-step barrier stiffness (IPC): balance barrier and IP gradients.
        {
            Collisions c;
            c.build(mesh_, x, p_.dhat);
            const BarrierPotential<> unit(p_.dhat, 1.0);
            Eigen::VectorXd gb = dofs_.extend_vector(dofs_.restrict_vector(unit.gradient(c, mesh_, x)));
            Eigen::VectorXd ge = Eigen::VectorXd::Zero(3 * x.rows());
            add_incremental_gradient(x, ge);
            ge = dofs_.extend_vector(dofs_.restrict_vector(ge));
            kappa_ = initial_barrier_stiffness(kappa_bounds_, ge, gb);
        }

        for (int pass = 0; pass < p_.friction_iterations; ++pass) {
            update_friction(x);
            const bool ok = newton(x, stats);
            stats.converged = stats.converged && ok;
            if (p_.mu == 0) {
                break;
            }
        }

        if (p_.check_intersections) {
            require<penetration>(!has_intersections(mesh_, x), "time step ending at t = ", time_ + h,
                " produced an intersecting configuration");
        }
        v_ = (x - x_) / h;
        x_ = x;
        time_ += h;
        Collisions c;
        c.build(mesh_, x_, p_.dhat);
        stats.contacts = c.size();
        stats.min_gap = min_gap(c, x_);
        if (!model_.membranes.empty()) {
            stats.max_strain = largest_stretches(x_).maxCoeff();
        }
        stats.kappa = kappa_;
        stats.kappa_s = sl_stiffness_.stiffness();
        stats.seconds = seconds_since(start);
        return stats;
    }

    /// The full per-step objective E(x) at positions x (J), with the current
    /// stiffnesses and lagged friction; +infinity when a pair is at or inside
    /// its offset or a triangle at or past the strain limit. For tests.
    double incremental_potential(const Eigen::MatrixXd& x) const
    {
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        return energy(x, c);
    }

private:
    template <typename T> static double seconds_since(T start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    StrainLimitParameters<double> strain_parameters(std::size_t t) const
    {
        StrainLimitParameters<double> s = strain_;
        s.stiffness = sl_stiffness_.stiffness();
        s.thickness = strain_thickness_[t];
        return s;
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
        e += h2 * model_.elastic_energy(x);
        if (p_.strain_limit) {
            for (Index t = 0; t < strain_faces_.rows(); ++t) {
                const Eigen::Vector3d a = x.row(strain_faces_(t, 0)).transpose(), b = x.row(strain_faces_(t, 1)).transpose(),
                                      c = x.row(strain_faces_(t, 2)).transpose();
                if (!is_strain_feasible(a, b, c, strain_rest_[std::size_t(t)].inverse_rest_matrix, strain_.limit)) {
                    return std::numeric_limits<double>::infinity();
                }
                e += h2 * isotropic_strain_limit_energy(a, b, c, strain_rest_[std::size_t(t)], strain_parameters(std::size_t(t)));
            }
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
        model_.add_elastic_gradient(x, h2, g);
        if (p_.strain_limit) {
            for (Index t = 0; t < strain_faces_.rows(); ++t) {
                const std::array<Index, 3> f { strain_faces_(t, 0), strain_faces_(t, 1), strain_faces_(t, 2) };
                const Eigen::Vector3d a = x.row(f[0]).transpose(), b = x.row(f[1]).transpose(), c = x.row(f[2]).transpose();
                add_local_gradient(g, f,
                    h2 * isotropic_strain_limit_gradient<double>(a, b, c, strain_rest_[std::size_t(t)], strain_parameters(std::size_t(t))));
            }
        }
    }

    void add_incremental_hessian(const Eigen::MatrixXd& x, Triplets& triplets) const
    {
        for (Index v = 0; v < x.rows(); ++v) {
            for (int c = 0; c < 3; ++c) {
                triplets.emplace_back(3 * v + c, 3 * v + c, model_.mass[v]);
            }
        }
        const double h2 = p_.dt * p_.dt;
        model_.add_elastic_hessian(x, h2, triplets, p_.projection);
        if (p_.strain_limit) {
            for (Index t = 0; t < strain_faces_.rows(); ++t) {
                const std::array<Index, 3> f { strain_faces_(t, 0), strain_faces_(t, 1), strain_faces_(t, 2) };
                const Eigen::Vector3d a = x.row(f[0]).transpose(), b = x.row(f[1]).transpose(), c = x.row(f[2]).transpose();
                add_local_hessian(triplets, f,
                    h2 * isotropic_strain_limit_hessian<double>(a, b, c, strain_rest_[std::size_t(t)], strain_parameters(std::size_t(t)),
                             p_.projection));
            }
        }
    }

    // ---------------------------------------------------------------- friction

    template <int N> struct Lagged {
        FrictionContact<double, N> contact;
        std::array<Index, std::size_t(N)> vertices;
    };

    template <int N> Vector<double, 3 * N> displacement(const Eigen::MatrixXd& x, const std::array<Index, std::size_t(N)>& vs) const
    {
        Vector<double, 3 * N> d;
        for (int i = 0; i < N; ++i) {
            d.template segment<3>(3 * i) = (x.row(vs[std::size_t(i)]) - x_start_.row(vs[std::size_t(i)])).transpose();
        }
        return d;
    }

    /// Lagged friction data (normal forces, bases, weights) at x.
    void update_friction(const Eigen::MatrixXd& x)
    {
        friction2_.clear();
        friction3_.clear();
        friction4_.clear();
        if (p_.mu == 0) {
            return;
        }
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        auto row = [&](Index v) { return Eigen::Vector3d(x.row(v).transpose()); };
        auto force = [&](const auto& collision) {
            const double d2 = collision.distance_squared(gather(x, collision.vertices));
            return collision.weight * normal_force_magnitude(d2, collision.offset, p_.dhat, kappa_);
        };
        for (const auto& k : c.vertex_vertex) {
            const double lambda = force(k);
            if (lambda > 0) {
                friction2_.push_back({ point_point_friction_contact(row(k.vertices[0]), row(k.vertices[1]), lambda, p_.mu), k.vertices });
            }
        }
        for (const auto& k : c.edge_vertex) {
            const double lambda = force(k);
            if (lambda > 0) {
                friction3_.push_back({ point_edge_friction_contact(row(k.vertices[0]), row(k.vertices[1]), row(k.vertices[2]), lambda, p_.mu),
                    k.vertices });
            }
        }
        for (const auto& k : c.face_vertex) {
            const double lambda = force(k);
            if (lambda > 0) {
                friction4_.push_back({ point_triangle_friction_contact(row(k.vertices[0]), row(k.vertices[1]), row(k.vertices[2]),
                                           row(k.vertices[3]), lambda, p_.mu),
                    k.vertices });
            }
        }
        for (const auto& k : c.edge_edge) {
            const double lambda = force(k);
            if (lambda > 0) {
                try {
                    friction4_.push_back({ edge_edge_friction_contact(row(k.vertices[0]), row(k.vertices[1]), row(k.vertices[2]),
                                               row(k.vertices[3]), lambda, p_.mu),
                        k.vertices });
                } catch (const degenerate_geometry&) {
                    // Parallel edges: no well-defined tangent plane; the
                    // neighbouring point-edge/point-triangle pairs carry friction.
                }
            }
        }
    }

    double friction_energy_total(const Eigen::MatrixXd& x) const
    {
        const double eps = p_.eps_v * p_.dt;
        double e = 0;
        for (const auto& f : friction2_) {
            e += friction_energy(f.contact, displacement<2>(x, f.vertices), eps);
        }
        for (const auto& f : friction3_) {
            e += friction_energy(f.contact, displacement<3>(x, f.vertices), eps);
        }
        for (const auto& f : friction4_) {
            e += friction_energy(f.contact, displacement<4>(x, f.vertices), eps);
        }
        return e;
    }

    void add_friction_derivatives(const Eigen::MatrixXd& x, Eigen::VectorXd& g, Triplets& triplets) const
    {
        const double eps = p_.eps_v * p_.dt;
        auto add = [&](const auto& list, auto tag) {
            constexpr int N = decltype(tag)::value;
            for (const auto& f : list) {
                const auto d = displacement<N>(x, f.vertices);
                add_local_gradient(g, f.vertices, friction_gradient(f.contact, d, eps));
                add_local_hessian(triplets, f.vertices, friction_hessian(f.contact, d, eps));
            }
        };
        add(friction2_, std::integral_constant<int, 2>());
        add(friction3_, std::integral_constant<int, 3>());
        add(friction4_, std::integral_constant<int, 4>());
    }

    // ------------------------------------------------------------------ energy

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
        return e + b + friction_energy_total(x);
    }

    std::optional<double> min_gap(const Collisions& c, const Eigen::MatrixXd& x) const
    {
        std::optional<double> gap;
        auto visit = [&](const auto& list) {
            for (const auto& k : list) {
                const double d = std::sqrt(k.distance_squared(gather(x, k.vertices))) - k.offset;
                gap = gap ? std::min(*gap, d) : d;
            }
        };
        visit(c.vertex_vertex);
        visit(c.edge_vertex);
        visit(c.edge_edge);
        visit(c.face_vertex);
        return gap;
    }

    // ------------------------------------------------------------------ Newton

    /// Minimises E from x (collision-free); returns false when it stopped
    /// without meeting the termination rule.
    bool newton(Eigen::MatrixXd& x, StepStats& stats)
    {
        using clock = std::chrono::steady_clock;
        const double h = p_.dt;
        Collisions c;
        c.build(mesh_, x, p_.dhat);
        double e_prev = energy(x, c);
        std::optional<double> gap_prev = min_gap(c, x);
        int below = 0;
        if (dofs_.num_free() == 0) {
            return true;
        }
        for (int it = 0; it < p_.max_newton_iterations; ++it) {
            ++stats.newton_iterations;
            // Gradient and projected Hessian.
            auto t0 = clock::now();
            const BarrierPotential<> barrier(p_.dhat, kappa_);
            Eigen::VectorXd g = barrier.gradient(c, mesh_, x);
            add_incremental_gradient(x, g);
            Triplets full;
            add_incremental_hessian(x, full);
            add_friction_derivatives(x, g, full);
            Triplets reduced;
            dofs_.restrict_triplets(full, reduced);
            dofs_.restrict_matrix(barrier.hessian(c, mesh_, x, p_.projection), reduced);
            Eigen::SparseMatrix<double> H(dofs_.num_free(), dofs_.num_free());
            H.setFromTriplets(reduced.begin(), reduced.end());
            const Eigen::VectorXd gr = dofs_.restrict_vector(g);
            stats.time_assembly += seconds_since(t0);

            t0 = clock::now();
            Eigen::VectorXd pr = solve(H, gr);
            stats.time_solve += seconds_since(t0);

            const Eigen::VectorXd pf = dofs_.extend_vector(pr);
            const Eigen::MatrixXd P = Eigen::Map<const Eigen::MatrixXd>(pf.data(), 3, x.rows()).transpose();
            const double residual = std::sqrt(pr.squaredNorm() / double(std::max<Index>(num_free_vertices_, 1))) / h;
            below = residual < p_.newton_tolerance ? below + 1 : 0;

            // Line search: collision-free bound, strain feasibility, decrease.
            t0 = clock::now();
            double alpha = std::min(1.0, collision_free_step_size(mesh_, x, x + P));
            stats.time_ccd += seconds_since(t0);
            t0 = clock::now();
            if (p_.strain_limit && strain_faces_.rows() > 0) {
                while (alpha > 1e-12 && !is_step_strain_feasible(x, P, alpha, strain_faces_, strain_rest_, strain_.limit)) {
                    alpha /= 2;
                    ++stats.strain_halvings;
                }
            }
            Eigen::MatrixXd x_new;
            Collisions c_new;
            double e_new = std::numeric_limits<double>::infinity();
            while (alpha > 1e-12) {
                x_new = x + alpha * P;
                c_new.build(mesh_, x_new, p_.dhat);
                e_new = energy(x_new, c_new);
                if (e_new <= e_prev) {
                    break;
                }
                alpha /= 2;
                ++stats.line_search_halvings;
            }
            stats.time_line_search += seconds_since(t0);
            if (!(e_new <= e_prev)) {
                // No decrease along p: x is a minimiser to round-off.
                return below > 0;
            }
            if (p_.record_energies) {
                stats.energies.emplace_back(e_prev, e_new);
            }
            x = x_new;
            c = std::move(c_new);
            e_prev = e_new;

            // Stiffness updates (energy changes with them).
            bool changed = false;
            const std::optional<double> gap = min_gap(c, x);
            if (gap_prev && gap) {
                const double k = update_barrier_stiffness(kappa_, kappa_bounds_.max, *gap_prev, *gap, bbox_diagonal_);
                changed = changed || k != kappa_;
                kappa_ = k;
            }
            gap_prev = gap;
            if (p_.strain_limit && strain_faces_.rows() > 0) {
                changed = sl_stiffness_.update(largest_stretches(x), strain_.limit, strain_.threshold) || changed;
            }
            if (changed) {
                e_prev = energy(x, c);
            }
            if (below >= p_.converged_iterations) {
                return true;
            }
        }
        return false;
    }

    /// Solves H p = -g; regularises the diagonal if the factorisation fails
    /// and falls back to a scaled gradient step as a last resort.
    Eigen::VectorXd solve(Eigen::SparseMatrix<double>& H, const Eigen::VectorXd& g)
    {
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
        Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>> solver;
#else
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver;
#endif
        for (int attempt = 0; attempt < 4; ++attempt) {
            solver.compute(H);
            if (solver.info() == Eigen::Success) {
                Eigen::VectorXd p = solver.solve(-g);
                if (solver.info() == Eigen::Success && all_finite(p)) {
                    return p;
                }
            }
            const double shift = 1e-8 * std::max(1.0, H.diagonal().cwiseAbs().maxCoeff()) * std::pow(100.0, attempt);
            for (Index i = 0; i < H.rows(); ++i) {
                H.coeffRef(i, i) += shift;
            }
        }
        const Eigen::VectorXd d = H.diagonal().cwiseAbs().cwiseMax(1e-12);
        return -g.cwiseQuotient(d);
    }

    Model model_;
    SolverParameters p_;
    CollisionMesh mesh_;
    std::vector<bool> held_;
    DofMap dofs_;
    Index num_free_vertices_ = 0;
    Eigen::MatrixXd x_, v_, x_hat_, x_start_;
    double time_ = 0;
    double bbox_diagonal_ = 1;
    BarrierStiffnessBounds<double> kappa_bounds_ {};
    double kappa_ = 1;
    StrainLimitParameters<double> strain_;
    Eigen::MatrixXi strain_faces_;
    std::vector<TriangleRestShape<double>> strain_rest_;
    std::vector<double> strain_thickness_;
    StrainLimitStiffness<double> sl_stiffness_;
    std::vector<Lagged<2>> friction2_;
    std::vector<Lagged<3>> friction3_;
    std::vector<Lagged<4>> friction4_;
};

} // namespace ipc::examples
