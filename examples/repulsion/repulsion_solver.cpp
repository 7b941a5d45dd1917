// The vertex-repulsion cloth integrator (see repulsion_solver.hpp).

#include "repulsion_solver.hpp"

#include <common/newton_linear_solver.hpp>
#include <common/sparse_assembly.hpp>

#include <ipc/broad_phase/radius_query.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/point_pair_linear_motion.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_stencil.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/distance/separation_bounds.hpp>
#include <ipc/potentials/squared_gap_potentials.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <tsl/robin_map.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace ipc::examples {

namespace {
    using Clock = std::chrono::steady_clock;
    double seconds_since(Clock::time_point start)
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    Eigen::Vector3d row3(const Eigen::MatrixXd& x, Index v) { return x.row(v).transpose(); }

    /// A local pair the guard tests: a point and a triangle, or two edges.
    struct GuardPair {
        bool point_triangle;
        std::array<Index, 4> vertices; // (p, t0, t1, t2) or (a0, a1, b0, b1)
        double floor2 = 0;             // the squared distance it keeps in this collision step (m^2)
        bool operator<(const GuardPair& o) const
        {
            return std::tie(point_triangle, vertices) < std::tie(o.point_triangle, o.vertices);
        }
        bool operator==(const GuardPair& o) const
        {
            return point_triangle == o.point_triangle && vertices == o.vertices;
        }
    };

    /// Everything one collision step constrains, collected once at its start.
    struct ConstraintSet {
        double step_bound = 0; ///< Delta: no vertex may move farther from the start
        std::vector<std::pair<Index, Index>> pairs;         ///< separation pairs
        std::vector<Index> edges;                            ///< capped edges (rows of E)
        std::vector<std::pair<Index, std::size_t>> contacts; ///< (vertex, obstacle)
        std::vector<GuardPair> guard;                        ///< local pairs near folds
        /// Per vertex: flagged by the guard (its local pairs are in `guard`).
        /// Empty when the guard is off; otherwise every accepted segment is
        /// also checked for triangles that could turn over (visit_failures).
        std::vector<char> guarded;
    };

    /// How a candidate state is judged.
    enum class Verdict { accept, reject, reject_by_guard };
} // namespace

double clamped_cubic_log_barrier_second_derivative(double c, double eps)
{
    if (c >= eps) {
        return 0;
    }
    if (c <= 0) {
        return std::numeric_limits<double>::infinity();
    }
    // f = c (1 + s - s^2), f' = (1 - s)(1 + 3 s), f'' = 2 (1 - 3 s) / eps.
    const double s = c / eps;
    const double f = c * (1 + s - s * s);
    const double slope = (1 - s) * (1 + 3 * s) / f;
    return slope * slope - 2 * (1 - 3 * s) / (eps * f);
}

double RepulsionParameters::separation() const { return repulsion_separation(max_edge()); }

double RepulsionParameters::collection_radius() const
{
    const double s = separation() + tightening();
    return std::sqrt(s * s + slack());
}

double RepulsionParameters::step_bound() const
{
    // The paper's collection radius leaves (r0 - B - B_t) / 2 = 3 D. The
    // projection of a stretched or pressed cloth moves vertices a little
    // more than that (3.0-3.7 D measured on cloth_on_sphere), so the bound
    // is 5 D and the collection radius grows to match (1.2 r0).
    return std::max(0.5 * (collection_radius() - separation() - tightening()), 5 * displacement_cap());
}

double RepulsionParameters::obstacle_margin(std::size_t o) const
{
    // Why this margin keeps whole triangles outside, not only vertices.
    // Let the body be K = K' + (ball of radius R), K' convex (a sphere, a
    // capsule, a rounded box; a plane has R = infinity). Take a point q of a
    // cloth triangle T and c its nearest point in K'. Every vertex v of T has
    // |v - c| >= phi_K'(v) = phi_K(v) + R >= R + m: T's vertices lie outside
    // the ball of radius R + m around c. In T's plane they lie outside the
    // circle of radius
    // rho = sqrt((R + m)^2 - h^2) around the foot of c (h: distance from c to
    // the plane), and a point of T farther than rho from all three vertices
    // needs rho <= L / sqrt 3 (the repulsion paper's Eq. 2 bound with all
    // edges <= L; half an edge when the nearest point is on an edge). So
    // |q - c| >= h >= sqrt((R + m)^2 - L^2 / 3) >= R when
    // m >= sqrt(R^2 + L^2 / 3) - R, which gives phi_K(q) = |q - c| - R >= 0.
    // A small floor keeps vertices strictly off flat bodies.
    const double L = max_edge();
    const double R = min_curvature_radius(obstacles[o]);
    const double floor = 0.01 * L;
    if (!std::isfinite(R)) {
        return floor;
    }
    return std::max(floor, std::sqrt(R * R + L * L / 3) - R);
}

void RepulsionParameters::validate() const
{
    require(std::isfinite(dt) && dt > 0, "repulsion: time step ", dt, " must be positive");
    require(std::isfinite(rest_edge) && rest_edge > 0, "repulsion: rest edge length ", rest_edge, " must be positive");
    require(collision_steps >= 1 && dynamics_iterations >= 0 && soft_iterations >= 0 && soft_max_iterations >= 0 && hard_block >= 1
            && hard_max_blocks >= 1 && init_pieces >= 0,
        "repulsion: iteration counts must be positive (soft and init may be 0; dynamics 0 takes the solver's own)");
    require(std::isfinite(sigma) && sigma >= 0, "repulsion: coupling sigma ", sigma, " must be >= 0");
    require(chebyshev_rho >= 0 && chebyshev_rho < 1, "repulsion: Chebyshev rho ", chebyshev_rho, " must lie in [0, 1)");
    require(std::isfinite(air_damping) && air_damping >= 0, "repulsion: air damping must be >= 0");
    require(std::isfinite(friction) && friction >= 0, "repulsion: friction ", friction, " must be >= 0");
    require(std::isfinite(self_friction) && self_friction >= 0, "repulsion: self-friction ", self_friction,
        " must be >= 0");
    require(std::isfinite(soft_stiffness) && soft_stiffness > 0 && std::isfinite(obstacle_stiffness)
            && obstacle_stiffness > 0 && std::isfinite(barrier_stiffness)
            && barrier_stiffness > 0,
        "repulsion: soft and barrier stiffness must be positive");
    require(hard_initial_step > 0 && std::isfinite(hard_initial_step), "repulsion: hard initial step must be positive");
    require(ring_exclusion >= 1, "repulsion: ring exclusion ", ring_exclusion, " must be >= 1");
    require(guard_angle >= 0 && guard_angle <= 3.2, "repulsion: guard angle ", guard_angle, " must lie in [0, pi]");
    require(guard_gap_factor > 0 && guard_gap_factor <= 0.25, "repulsion: guard gap factor ", guard_gap_factor,
        " must lie in (0, 0.25]");
    for (const auto& o : obstacles) {
        check_obstacle(o);
    }
}

struct RepulsionSimulator::Impl {
    Model model;
    RepulsionParameters p;
    Eigen::MatrixXd x, v;
    double t = 0;
    Eigen::MatrixXi F, E;
    std::vector<std::vector<Index>> vertex_faces, vertex_edges;
    RingExclusion rings;
    std::vector<bool> held;
    std::vector<const ScriptedMotion*> motion; // per vertex, null unless scripted
    Eigen::MatrixXd start;                     // initial positions (scripted motions use them)
    std::vector<double> margin;                // per obstacle
    StencilAssembly elastic; // the elements, coloured for the gradient's scatter
    Eigen::SparseMatrix<double> dynamics_hessian;   // RepulsionDynamics::factored: at x^t, lower triangle
    NewtonLinearSolver<Eigen::Lower> dynamics_factor; // its Cholesky factor
    NewtonLinearSolver<Eigen::Lower> hard_factor;     // RepulsionHardSolver::newton's Cholesky solves
    CollisionStepObserver observer;
    RepulsionStepStats* stats = nullptr;

    // Derived constants.
    double L2 = 0, sep2 = 0, cont2 = 0, eps = 0, eps_cond = 0, rho = 0, mu = 0, band = 0;
    double guard_band = 0, guard_rho = 0; // guard pairs: penalty band (m^2) and stiffness (1/m^2)

    Impl(Model m, RepulsionParameters params)
        : model(std::move(m))
        , p(std::move(params))
    {
        p.validate();
        for (std::size_t k = 0; k < model.kind.size(); ++k) {
            require(model.kind[k] == VertexKind::shell, "repulsion: vertex ", k,
                " is not cloth; the integrator simulates cloth only (obstacles are signed-distance shapes)");
        }
        require(!model.shells.empty(), "repulsion: the model has no cloth");
        x = model.positions;
        start = model.positions;
        v = model.velocities;
        const double L = p.max_edge();
        L2 = L * L;
        const double s = p.separation() + p.tightening();
        sep2 = s * s;
        cont2 = p.separation() * p.separation();
        eps = p.slack();
        eps_cond = p.success_margin();
        rho = p.soft_stiffness / L2;
        mu = p.barrier_stiffness * L2;
        band = p.obstacle_band();
        // Guard pairs are repelled within 2 g (c = d^2 - g^2 < 3 g^2); their
        // stiffness is scaled to that band as rho is to L.
        guard_band = 3 * p.guard_gap() * p.guard_gap();
        guard_rho = p.soft_stiffness / (p.guard_gap() * p.guard_gap());

        std::vector<Eigen::Vector3i> faces;
        std::vector<std::pair<Index, Index>> edges;
        for (const auto& shell : model.shells) {
            for (Index f = 0; f < shell.faces.rows(); ++f) {
                faces.emplace_back(shell.faces.row(f).transpose());
                for (int k = 0; k < 3; ++k) {
                    const Index a = shell.faces(f, k), b = shell.faces(f, (k + 1) % 3);
                    edges.emplace_back(std::min(a, b), std::max(a, b));
                }
            }
        }
        std::sort(edges.begin(), edges.end());
        edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
        F.resize(Index(faces.size()), 3);
        for (std::size_t f = 0; f < faces.size(); ++f) {
            F.row(Index(f)) = faces[f].transpose();
        }
        E.resize(Index(edges.size()), 2);
        const Index n = x.rows();
        vertex_faces.assign(std::size_t(n), {});
        vertex_edges.assign(std::size_t(n), {});
        for (std::size_t e = 0; e < edges.size(); ++e) {
            E(Index(e), 0) = int(edges[e].first);
            E(Index(e), 1) = int(edges[e].second);
            vertex_edges[std::size_t(edges[e].first)].push_back(Index(e));
            vertex_edges[std::size_t(edges[e].second)].push_back(Index(e));
        }
        for (Index f = 0; f < F.rows(); ++f) {
            for (int k = 0; k < 3; ++k) {
                vertex_faces[std::size_t(F(f, k))].push_back(f);
            }
        }
        rings = RingExclusion(n, E, p.ring_exclusion);
        elastic = StencilAssembly(n, model.num_elements(), [&](Index k) { return model.element_vertices(k); });
        held = model.held();
        motion.assign(std::size_t(n), nullptr);
        for (const auto& s : model.scripted) {
            motion[std::size_t(s.vertex)] = &s.motion;
        }
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            margin.push_back(p.obstacle_margin(o));
        }
        check_start();
    }

    /// The initial state must meet every constraint: the method only keeps
    /// a certified state certified.
    void check_start() const
    {
        for (Index e = 0; e < E.rows(); ++e) {
            const double d2 = (x.row(E(e, 0)) - x.row(E(e, 1))).squaredNorm();
            require(d2 <= L2, "repulsion: edge ", e, " is ", std::sqrt(d2), " m long at the start, more than L = ",
                std::sqrt(L2), " m; remesh the cloth more finely or raise the rest edge length");
        }
        const auto close = vertex_pairs_within_radius(x, std::sqrt(sep2), rings);
        if (!close.empty()) {
            const auto [i, j] = close.front();
            throw invalid_argument(ipc::detail::concat("repulsion: vertices ", i, " and ", j, " start ",
                (x.row(i) - x.row(j)).norm(), " m apart, closer than B + B_t = ", std::sqrt(sep2),
                " m; the cloth needs a smaller rest edge length or more room"));
        }
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            for (Index v = 0; v < x.rows(); ++v) {
                const double phi = signed_distance(p.obstacles[o], row3(x, v));
                require(phi >= margin[o], "repulsion: cloth vertex ", v, " starts ", phi, " m from the ",
                    obstacle_name(p.obstacles[o]), " (obstacle ", o, "), within its margin ", margin[o], " m");
            }
        }
    }

    Eigen::Vector3d scripted_position(Index vertex, double time) const
    {
        const auto* m = motion[std::size_t(vertex)];
        return m ? (*m)(time, row3(start, vertex)) : row3(start, vertex);
    }

    // -----------------------------------------------------------------
    // Collection

    /// How far triangle f stays from turning over on the segment from
    /// `from` to `to`, widened by `slack` (m; > 0: it cannot). Turning
    /// over passes through a collinear shape. Along the segment each vertex
    /// stays within delta = max_k |d_k - mean d| (d = to - from) of the
    /// triangle at `from` moved by its mean displacement, a congruent copy;
    /// a collinear shape would then put the `from` triangle inside a slab
    /// 2 delta wide, and a triangle's narrowest slab is its smallest
    /// height h. Returns h - 2 (delta + slack): translations do not count,
    /// so a sheet falling or swinging as a whole turns nothing over.
    double turnover_room(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to, Index f, double slack) const
    {
        const Eigen::Vector3d a = row3(from, F(f, 0)), b = row3(from, F(f, 1)), c = row3(from, F(f, 2));
        const Eigen::Vector3d da = row3(to, F(f, 0)) - a, db = row3(to, F(f, 1)) - b, dc = row3(to, F(f, 2)) - c;
        const Eigen::Vector3d mean = (da + db + dc) / 3;
        const double delta
            = std::sqrt(std::max({ (da - mean).squaredNorm(), (db - mean).squaredNorm(), (dc - mean).squaredNorm() }));
        const double longest2 = std::max({ (b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm() });
        const double twice_area = (b - a).cross(c - a).norm();
        if (!(longest2 > 0)) {
            return -1;
        }
        return twice_area / std::sqrt(longest2) - 2 * (delta + slack);
    }

    /// Flags the vertices of every hinge that bends more than guard_angle
    /// and of every triangle that may turn over within the step, and
    /// returns the local pairs the guard must test: point-triangle and
    /// edge-edge pairs around flagged vertices that share no vertex, have
    /// some unrepelled (ring-excluded) vertex pair, and are closer than
    /// 2 Delta (farther pairs cannot meet while every vertex stays within
    /// Delta of its start).
    std::vector<GuardPair> collect_guard(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& x_init, double step_bound,
        std::vector<char>& flagged) const
    {
        std::vector<GuardPair> guard;
        flagged.clear();
        if (p.guard_angle >= 3.14159) {
            return guard;
        }
        const double cos_limit = std::cos(p.guard_angle);
        flagged.assign(std::size_t(x0.rows()), 0);
        bool any = false;
        for (const auto& h : model.hinges) {
            const Eigen::Vector3d e0 = row3(x0, h.vertices[0]), e1 = row3(x0, h.vertices[1]);
            const Eigen::Vector3d n1 = (e1 - e0).cross(row3(x0, h.vertices[2]) - e0);
            const Eigen::Vector3d n2 = (e0 - e1).cross(row3(x0, h.vertices[3]) - e1);
            const double norms = n1.norm() * n2.norm();
            if (!(norms > 0) || n1.dot(n2) < cos_limit * norms) {
                for (const Index u : h.vertices) {
                    flagged[std::size_t(u)] = 1;
                }
                any = true;
            }
        }
        // A thin triangle can turn over within one collision step without
        // any hinge bending first: squeezed in its plane, a vertex crosses
        // the opposite edge and the triangle folds onto its neighbour.
        // Triangles that could degenerate on the way to x_init, with the
        // room of an ordinary step added (turnover_room), flag their
        // vertices like a bent hinge, so that their local pairs are
        // repelled; visit_failures rejects any segment on which an
        // unflagged triangle could degenerate.
        for (Index f = 0; f < F.rows(); ++f) {
            if (turnover_room(x0, x_init, f, p.step_bound()) <= 0) {
                for (int k = 0; k < 3; ++k) {
                    flagged[std::size_t(F(f, k))] = 1;
                }
                any = true;
            }
        }
        if (!any) {
            return guard;
        }
        const double reach2 = 4 * step_bound * step_bound;
        // The floor of a pair: the gap g, or half its distance where it is
        // already closer (it may not close further than that, and the
        // penalties push it back out).
        const double g2 = p.guard_gap() * p.guard_gap();
        const auto floor2 = [&](double d2) { return std::min(g2, 0.25 * d2); };
        // Each pair is generated once: per point (its candidate triangles)
        // and per edge (its candidate edges of higher index), with the
        // duplicates of overlapping rings removed in a short local list.
        // Rings are symmetric (u is within the rings of w exactly when w is
        // within the rings of u), so a point p is tested against the
        // triangles around the rings of p when p is flagged, and against the
        // triangles of every flagged w within its rings.
        const auto near_each = [&](Index w, auto&& visit) {
            visit(w);
            for (const Index u : rings.ring(w)) {
                visit(u);
            }
        };
        std::vector<char> touched(std::size_t(x0.rows()), 0); // flagged, or a flagged vertex within its rings
        for (Index w = 0; w < x0.rows(); ++w) {
            if (flagged[std::size_t(w)]) {
                near_each(w, [&](Index u) { touched[std::size_t(u)] = 1; });
            }
        }
        std::vector<Index> candidates;
        const auto sort_unique = [](std::vector<Index>& v) {
            std::sort(v.begin(), v.end());
            v.erase(std::unique(v.begin(), v.end()), v.end());
        };
        for (Index u = 0; u < x0.rows(); ++u) {
            if (!touched[std::size_t(u)]) {
                continue;
            }
            candidates.clear();
            near_each(u, [&](Index w) {
                if (flagged[std::size_t(u)] || flagged[std::size_t(w)]) {
                    candidates.insert(candidates.end(), vertex_faces[std::size_t(w)].begin(),
                        vertex_faces[std::size_t(w)].end());
                }
            });
            sort_unique(candidates);
            const Eigen::Vector3d q = row3(x0, u);
            for (const Index f : candidates) {
                if (F(f, 0) == u || F(f, 1) == u || F(f, 2) == u) {
                    continue;
                }
                const double d2
                    = point_triangle_distance_squared(q, row3(x0, F(f, 0)), row3(x0, F(f, 1)), row3(x0, F(f, 2)));
                if (d2 < reach2) {
                    guard.push_back({ true, { u, F(f, 0), F(f, 1), F(f, 2) }, floor2(d2) });
                }
            }
        }
        // Edge b is a candidate of edge a when a flagged endpoint w of one
        // has an endpoint of the other within its rings.
        for (Index a = 0; a < E.rows(); ++a) {
            const Index a0 = E(a, 0), a1 = E(a, 1);
            if (!touched[std::size_t(a0)] && !touched[std::size_t(a1)]) {
                continue;
            }
            candidates.clear();
            for (const Index v : { a0, a1 }) {
                near_each(v, [&](Index w) {
                    if (flagged[std::size_t(v)] || flagged[std::size_t(w)]) {
                        candidates.insert(candidates.end(), vertex_edges[std::size_t(w)].begin(),
                            vertex_edges[std::size_t(w)].end());
                    }
                });
            }
            sort_unique(candidates);
            for (const Index b : candidates) {
                const Index b0 = E(b, 0), b1 = E(b, 1);
                if (b <= a || a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) {
                    continue;
                }
                const double d2 = edge_edge_distance_squared(row3(x0, a0), row3(x0, a1), row3(x0, b0), row3(x0, b1));
                if (d2 < reach2) {
                    guard.push_back({ false, { a0, a1, b0, b1 }, floor2(d2) });
                }
            }
        }
        std::sort(guard.begin(), guard.end()); // the order in which the phases sum the pairs
        return guard;
    }

    /// The constraints of a collision step from the certified state x0
    /// towards x_init.
    ///
    /// The collection radius and the step bound Delta. Every iterate the
    /// step accepts keeps each vertex within Delta of x0 (the ball is
    /// convex, so the whole certified polyline does too). A pair not
    /// collected is at least r apart in x0, so it stays at least
    /// r - 2 Delta apart along the path. With r = B + B_t + 2 Delta it keeps
    /// the discrete separation B + B_t, and with it the continuous one B,
    /// without ever being looked at. Delta is the paper's margin
    /// (r0 - B - B_t) / 2, r0 = sqrt((B + B_t)^2 + eps_slack), or, when x_init
    /// itself is farther (initialisation pieces), that distance plus the
    /// room an ordinary step leaves the projection (Delta - D).
    ConstraintSet collect(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& x_init) const
    {
        ConstraintSet c;
        const double reach = (x_init - x0).rowwise().norm().maxCoeff();
        c.step_bound = std::max(p.step_bound(), reach + p.step_bound() - p.displacement_cap());
        const double r = p.separation() + p.tightening() + 2 * c.step_bound;
        c.edges.resize(std::size_t(E.rows()));
        std::iota(c.edges.begin(), c.edges.end(), Index(0));
        c.pairs = vertex_pairs_within_radius(x0, r, rings);
        // Obstacle constraints: a vertex farther than m + band + Delta stays
        // farther than m + band along the path (phi is 1-Lipschitz).
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            for (Index u = 0; u < x0.rows(); ++u) {
                if (!held[std::size_t(u)]
                    && signed_distance(p.obstacles[o], row3(x0, u)) < margin[o] + band + c.step_bound) {
                    c.contacts.emplace_back(u, o);
                }
            }
        }
        c.guard = collect_guard(x0, x_init, c.step_bound, c.guarded);
        return c;
    }

    // -----------------------------------------------------------------
    // Constraint values

    double pair_value(const Eigen::MatrixXd& y, Index i, Index j) const
    {
        return stencil_point_point_distance_squared<3>(PointStencil::vertex(i), PointStencil::vertex(j), y) - sep2;
    }
    double edge_value(const Eigen::MatrixXd& y, Index e) const
    {
        return L2
            - stencil_point_point_distance_squared<3>(PointStencil::vertex(E(e, 0)), PointStencil::vertex(E(e, 1)), y);
    }
    double contact_value(const Eigen::MatrixXd& y, const std::pair<Index, std::size_t>& k) const
    {
        return signed_distance(p.obstacles[k.second], row3(y, k.first)) - margin[k.second];
    }

    /// Squared distance of a guard pair at y (m^2).
    double guard_distance_squared(const Eigen::MatrixXd& y, const GuardPair& g) const
    {
        const auto& q = g.vertices;
        return g.point_triangle
            ? point_triangle_distance_squared(row3(y, q[0]), row3(y, q[1]), row3(y, q[2]), row3(y, q[3]))
            : edge_edge_distance_squared(row3(y, q[0]), row3(y, q[1]), row3(y, q[2]), row3(y, q[3]));
    }
    /// Its gradient, per vertex of the pair (rows 3k..3k+2: vertices[k]).
    Vector<double, 12> guard_distance_squared_gradient(const Eigen::MatrixXd& y, const GuardPair& g) const
    {
        const auto& q = g.vertices;
        return g.point_triangle
            ? point_triangle_distance_squared_gradient(row3(y, q[0]), row3(y, q[1]), row3(y, q[2]), row3(y, q[3]))
            : edge_edge_distance_squared_gradient(row3(y, q[0]), row3(y, q[1]), row3(y, q[2]), row3(y, q[3]));
    }
    /// Adds scale * gradient to G.
    static void scatter(const GuardPair& g, const Vector<double, 12>& gradient, double scale, Eigen::MatrixXd& G)
    {
        for (int k = 0; k < 4; ++k) {
            G.row(g.vertices[std::size_t(k)]) += scale * gradient.segment<3>(3 * k).transpose();
        }
    }

    /// Adds scale * grad c of a pair (edge: sign-flipped) to G.
    void add_pair_gradient(const Eigen::MatrixXd& y, Index i, Index j, double scale, Eigen::MatrixXd& G) const
    {
        add_stencil_point_point_distance_squared_gradient<3>(PointStencil::vertex(i), PointStencil::vertex(j), y,
            scale, G);
    }

    // -----------------------------------------------------------------
    // Certification

    /// Visits the constraints that the step from the certified state `from`
    /// to `to`, within the collision step that started at x0, breaks: a
    /// vertex farther than Delta from x0, a discrete constraint below
    /// `margin` (pairs and edges, in m^2; obstacle constraints use
    /// margin / L, in m) or, for margin == 0, not strictly positive, the
    /// exact continuous pair check (separation B along the segment), an
    /// obstacle segment, and last the guard (its floor and its CCD).
    /// visit(vertices, count, by_guard) gets the constraint's vertices and
    /// returns false to stop.
    template <typename Visit>
    void visit_failures(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& from, const Eigen::MatrixXd& to,
        const ConstraintSet& c, double margin_value, Visit&& visit) const
    {
        const double bound2 = c.step_bound * c.step_bound;
        for (Index u = 0; u < to.rows(); ++u) {
            if ((to.row(u) - x0.row(u)).squaredNorm() > bound2 && !visit(&u, 1, false)) {
                return;
            }
        }
        const auto enough = [&](double value, double needed) {
            return margin_value > 0 ? value >= needed : value > 0;
        };
        for (const auto& [i, j] : c.pairs) {
            const Eigen::Vector3d a = row3(from, i) - row3(from, j), b = row3(to, i) - row3(to, j);
            if (!enough(pair_value(to, i, j), margin_value) || !linear_motion_separation_holds(a, b, cont2)) {
                const Index vertices[2] = { i, j };
                if (!visit(vertices, 2, false)) {
                    return;
                }
            }
        }
        // An upper bound on a length is convex along a segment: the
        // endpoints decide.
        for (const Index e : c.edges) {
            if (!enough(edge_value(to, e), margin_value)) {
                const Index vertices[2] = { E(e, 0), E(e, 1) };
                if (!visit(vertices, 2, false)) {
                    return;
                }
            }
        }
        const double obstacle_margin_value = margin_value / std::sqrt(L2);
        for (const auto& k : c.contacts) {
            if ((!enough(contact_value(to, k), obstacle_margin_value)
                    || !segment_clear_of_obstacle(p.obstacles[k.second], row3(from, k.first), row3(to, k.first),
                        margin[k.second]))
                && !visit(&k.first, 1, false)) {
                return;
            }
        }
        if (!c.guarded.empty()) {
            for (Index f = 0; f < F.rows(); ++f) {
                const Index vertices[3] = { F(f, 0), F(f, 1), F(f, 2) };
                bool guarded = false, moved = false;
                for (const Index u : vertices) {
                    guarded = guarded || c.guarded[std::size_t(u)] != 0;
                    moved = moved || from.row(u) != to.row(u);
                }
                if (!guarded && moved && !(turnover_room(from, to, f, 0) > 0) && !visit(vertices, 3, false)) {
                    return;
                }
            }
        }
        const auto guard_start = Clock::now();
        for (const auto& g : c.guard) {
            if (!guard_holds(from, to, g, margin_value) && !visit(g.vertices.data(), 4, true)) {
                break;
            }
        }
        if (stats) {
            stats->seconds_guard += seconds_since(guard_start);
        }
    }

    /// Judges the step (see visit_failures): accept, or the first failure,
    /// which is the guard's only when everything else holds.
    Verdict certify(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& from, const Eigen::MatrixXd& to,
        const ConstraintSet& c, double margin_value) const
    {
        Verdict verdict = Verdict::accept;
        visit_failures(x0, from, to, c, margin_value, [&](const Index*, int, bool by_guard) {
            verdict = by_guard ? Verdict::reject_by_guard : Verdict::reject;
            return false;
        });
        return verdict;
    }

    /// A guard pair keeps its floor: at `to`, with the margin as for the
    /// other constraints, and along the segment (additive CCD with the floor
    /// as its minimum distance).
    bool guard_holds(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to, const GuardPair& g,
        double margin_value) const
    {
        const double value = guard_distance_squared(to, g) - g.floor2;
        if (!(margin_value > 0 ? value >= margin_value : value > 0)) {
            return false;
        }
        const auto& q = g.vertices;
        const double floor = std::sqrt(g.floor2);
        const CCDResult r = g.point_triangle
            ? additive_point_triangle_ccd<double>(row3(from, q[0]), row3(from, q[1]), row3(from, q[2]), row3(from, q[3]),
                row3(to, q[0]), row3(to, q[1]), row3(to, q[2]), row3(to, q[3]), floor)
            : additive_edge_edge_ccd<double>(row3(from, q[0]), row3(from, q[1]), row3(from, q[2]), row3(from, q[3]),
                row3(to, q[0]), row3(to, q[1]), row3(to, q[2]), row3(to, q[3]), floor);
        return r.status == CCDStatus::no_hit;
    }

    // -----------------------------------------------------------------
    // Soft phase: 1/2 |x - x_init|^2 + rho/2 sum (eps - c)_+^2, by
    // Gauss-Newton-Jacobi steps with relaxation 1/2 (a full Jacobi step
    // lets both vertices of a pair cover the whole violation, which
    // overshoots by a factor two and oscillates).
    //
    // Two additions to the paper's fixed I_soft gradient steps, both about
    // when the result can be certified:
    // - Each iterate is projected onto the ball of radius Delta around x0
    //   that certification allows (per vertex; the set is convex, so this is
    //   projected descent). The penalty pushes pairs out towards the
    //   activation radius, which can be farther than Delta; unprojected,
    //   such a result was always rejected.
    // - The phase runs at least I_soft iterations and goes on, up to
    //   soft_max_iterations, while some discrete constraint lacks its success
    //   margin. Jacobi passes information one ring per iteration, so a stack
    //   of layers pressed onto a body needs more than 12 of them: on
    //   cloth_stack every soft phase failed once the layers rested (they all
    //   pass with 48).

    Eigen::MatrixXd soft_phase(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& x_init, const ConstraintSet& c) const
    {
        Eigen::MatrixXd y = x_init;
        Eigen::MatrixXd G(y.rows(), 3);
        Eigen::VectorXd diagonal(y.rows());
        const double rho_contact = p.obstacle_stiffness;
        const double reach = (1 - 1e-9) * c.step_bound;
        const double contact_margin = eps_cond / std::sqrt(L2);
        for (int it = 0; it < std::max(p.soft_iterations, p.soft_max_iterations); ++it) {
            G = y - x_init;
            diagonal.setOnes();
            bool short_of_margin = false; // at y, before this iteration's update
            const auto pair_term = [&](Index i, Index j, double value, double sign) {
                short_of_margin = short_of_margin || value < eps_cond;
                if (value >= eps) {
                    return;
                }
                const double w = rho * -squared_hinge_penalty_derivative(value, eps); // rho (eps - c)
                add_pair_gradient(y, i, j, -w * sign, G);
                const double g2 = 4 * (y.row(i) - y.row(j)).squaredNorm();
                diagonal[i] += rho * g2;
                diagonal[j] += rho * g2;
            };
            for (const auto& [i, j] : c.pairs) {
                pair_term(i, j, pair_value(y, i, j), 1.0);
            }
            for (const Index e : c.edges) {
                pair_term(E(e, 0), E(e, 1), edge_value(y, e), -1.0);
            }
            for (const auto& g : c.guard) {
                const double value = guard_distance_squared(y, g) - g.floor2;
                short_of_margin = short_of_margin || value < eps_cond;
                if (value < guard_band) {
                    const Vector<double, 12> gradient = guard_distance_squared_gradient(y, g);
                    scatter(g, gradient, guard_rho * squared_hinge_penalty_derivative(value, guard_band), G);
                    for (int k = 0; k < 4; ++k) {
                        diagonal[g.vertices[std::size_t(k)]] += guard_rho * gradient.segment<3>(3 * k).squaredNorm();
                    }
                }
            }
            for (const auto& k : c.contacts) {
                const double value = contact_value(y, k);
                short_of_margin = short_of_margin || value < contact_margin;
                if (value < band) {
                    const double w = rho_contact * -squared_hinge_penalty_derivative(value, band);
                    G.row(k.first) -= w * signed_distance_gradient(p.obstacles[k.second], row3(y, k.first)).transpose();
                    diagonal[k.first] += rho_contact;
                }
            }
            if (it >= p.soft_iterations && !short_of_margin) {
                break;
            }
            for (Index u = 0; u < y.rows(); ++u) {
                if (held[std::size_t(u)]) {
                    continue;
                }
                y.row(u) -= 0.5 * G.row(u) / diagonal[u];
                const Eigen::RowVector3d offset = y.row(u) - x0.row(u);
                const double length = offset.norm();
                if (length > reach) {
                    y.row(u) = x0.row(u) + (reach / length) * offset;
                }
            }
        }
        return y;
    }

    // -----------------------------------------------------------------
    // Hard phase: |x - x_init|^2 - mu sum log f(c, eps_slack) by
    // backtracking gradient descent from the certified state.

    double hard_energy(const Eigen::MatrixXd& y, const Eigen::MatrixXd& x_init, const ConstraintSet& c) const
    {
        double energy = (y - x_init).squaredNorm();
        for (const auto& [i, j] : c.pairs) {
            energy += mu * clamped_cubic_log_barrier(pair_value(y, i, j), eps);
        }
        for (const Index e : c.edges) {
            energy += mu * clamped_cubic_log_barrier(edge_value(y, e), eps);
        }
        for (const auto& k : c.contacts) {
            energy += mu * clamped_cubic_log_barrier(contact_value(y, k), band);
        }
        for (const auto& g : c.guard) {
            energy += mu * clamped_cubic_log_barrier(guard_distance_squared(y, g) - g.floor2, guard_band);
        }
        return energy;
    }

    Eigen::MatrixXd hard_gradient(const Eigen::MatrixXd& y, const Eigen::MatrixXd& x_init, const ConstraintSet& c) const
    {
        Eigen::MatrixXd G = 2 * (y - x_init);
        for (const auto& [i, j] : c.pairs) {
            const double value = pair_value(y, i, j);
            if (value < eps) {
                add_pair_gradient(y, i, j, mu * clamped_cubic_log_barrier_derivative(value, eps), G);
            }
        }
        for (const Index e : c.edges) {
            const double value = edge_value(y, e);
            if (value < eps) {
                add_pair_gradient(y, E(e, 0), E(e, 1), -mu * clamped_cubic_log_barrier_derivative(value, eps), G);
            }
        }
        for (const auto& k : c.contacts) {
            const double value = contact_value(y, k);
            if (value < band) {
                G.row(k.first) += mu * clamped_cubic_log_barrier_derivative(value, band)
                    * signed_distance_gradient(p.obstacles[k.second], row3(y, k.first)).transpose();
            }
        }
        for (const auto& g : c.guard) {
            const double value = guard_distance_squared(y, g) - g.floor2;
            if (value < guard_band) {
                scatter(g, guard_distance_squared_gradient(y, g),
                    mu * clamped_cubic_log_barrier_derivative(value, guard_band), G);
            }
        }
        for (Index u = 0; u < y.rows(); ++u) {
            if (held[std::size_t(u)]) {
                G.row(u).setZero();
            }
        }
        return G;
    }

    /// The Newton direction of the hard objective at y over the vertices
    /// flagged in `moving` (zero elsewhere), given its gradient G (zero at
    /// held and fixed vertices). Each constraint adds mu times the PSD part
    /// of b'' grad c grad c^T + b' hess c:
    /// - a pair or edge with d = y_i - y_j has c = s (|d|^2 - r^2) (s = -1 for
    ///   edges), grad c = 2 s (d, -d) and hess c = 2 s [I -I; -I I], so its
    ///   term is [A -A; -A A] with A = 4 b'' d d^T + 2 s b' I. For an edge
    ///   (s b' >= 0) A is PSD; for a pair only its eigenvalue along d,
    ///   4 b'' |d|^2 + 2 b', can be positive, and A keeps just that part;
    /// - an obstacle contact or a guard pair keeps b'' grad c grad c^T (the
    ///   shapes' and distances' own curvature is left out).
    /// Plus 2 I from |y - x_init|^2, so the matrix is positive definite.
    Eigen::MatrixXd hard_newton_direction(const Eigen::MatrixXd& y, const Eigen::MatrixXd& G,
        const std::vector<char>& moving, const ConstraintSet& c)
    {
        const Index n = y.rows();
        std::vector<Index> local(std::size_t(n), -1);
        Index m = 0;
        for (Index u = 0; u < n; ++u) {
            if (moving[std::size_t(u)] && !held[std::size_t(u)]) {
                local[std::size_t(u)] = m++;
            }
        }
        Eigen::MatrixXd direction = Eigen::MatrixXd::Zero(n, 3);
        if (m == 0) {
            return direction;
        }
        std::vector<Eigen::Triplet<double>> triplets;
        const auto add_block = [&](Index a, Index b, const Eigen::Matrix3d& block) { // lower triangle only
            const Index la = local[std::size_t(a)], lb = local[std::size_t(b)];
            if (la < 0 || lb < 0 || la < lb) {
                return;
            }
            for (int r = 0; r < 3; ++r) {
                for (int k = 0; k < 3; ++k) {
                    if (la > lb || r >= k) {
                        triplets.emplace_back(3 * la + r, 3 * lb + k, block(r, k));
                    }
                }
            }
        };
        for (Index u = 0; u < n; ++u) {
            add_block(u, u, 2 * Eigen::Matrix3d::Identity());
        }
        const auto pair_term = [&](Index i, Index j, double value, double sign) {
            if (!(value < eps) || (local[std::size_t(i)] < 0 && local[std::size_t(j)] < 0)) {
                return;
            }
            const Eigen::Vector3d d = row3(y, i) - row3(y, j);
            const double first = sign * clamped_cubic_log_barrier_derivative(value, eps);
            const double second = clamped_cubic_log_barrier_second_derivative(value, eps);
            Eigen::Matrix3d A;
            if (first >= 0) {
                A = 4 * second * d * d.transpose() + 2 * first * Eigen::Matrix3d::Identity();
            } else {
                const double along = 4 * second * d.squaredNorm() + 2 * first;
                const double d2 = d.squaredNorm();
                if (!(along > 0) || !(d2 > 0)) {
                    return;
                }
                A = (along / d2) * d * d.transpose();
            }
            A *= mu;
            add_block(i, i, A);
            add_block(j, j, A);
            add_block(i, j, -A);
            add_block(j, i, -A);
        };
        for (const auto& [i, j] : c.pairs) {
            pair_term(i, j, pair_value(y, i, j), 1.0);
        }
        for (const Index e : c.edges) {
            pair_term(E(e, 0), E(e, 1), edge_value(y, e), -1.0);
        }
        for (const auto& k : c.contacts) {
            const double value = contact_value(y, k);
            if (value < band && local[std::size_t(k.first)] >= 0) {
                const Eigen::Vector3d normal = signed_distance_gradient(p.obstacles[k.second], row3(y, k.first));
                add_block(k.first, k.first,
                    mu * clamped_cubic_log_barrier_second_derivative(value, band) * normal * normal.transpose());
            }
        }
        for (const auto& g : c.guard) {
            const double value = guard_distance_squared(y, g) - g.floor2;
            if (value < guard_band) {
                const Vector<double, 12> gradient = guard_distance_squared_gradient(y, g);
                const double scale = mu * clamped_cubic_log_barrier_second_derivative(value, guard_band);
                for (int a = 0; a < 4; ++a) {
                    for (int b = 0; b < 4; ++b) {
                        add_block(g.vertices[std::size_t(a)], g.vertices[std::size_t(b)],
                            scale * gradient.segment<3>(3 * a) * gradient.segment<3>(3 * b).transpose());
                    }
                }
            }
        }
        Eigen::SparseMatrix<double> H(3 * m, 3 * m);
        H.setFromTriplets(triplets.begin(), triplets.end());
        Eigen::VectorXd g(3 * m);
        for (Index u = 0; u < n; ++u) {
            if (local[std::size_t(u)] >= 0) {
                g.segment<3>(3 * local[std::size_t(u)]) = G.row(u).transpose();
            }
        }
        const Eigen::VectorXd step = hard_factor.solve(H, g);
        for (Index u = 0; u < n; ++u) {
            if (local[std::size_t(u)] >= 0) {
                direction.row(u) = step.segment<3>(3 * local[std::size_t(u)]).transpose();
            }
        }
        return direction;
    }

    /// Descends from the certified state `start` (reached from x0 along
    /// `path`), moving only the vertices flagged in `moving`, by gradient or
    /// Newton steps (RepulsionHardSolver). Every accepted iterate is
    /// certified, so the phase may stop after any of them; `path` receives
    /// the iterates in order.
    Eigen::MatrixXd hard_phase(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& start, const std::vector<char>& moving,
        const Eigen::MatrixXd& x_init, const ConstraintSet& c, std::vector<Eigen::MatrixXd>& path,
        RepulsionStepStats& s)
    {
        Eigen::MatrixXd z = start;
        double energy = hard_energy(z, x_init, c);
        const double tolerance = 0.01 * p.displacement_cap();
        const bool newton = p.hard_solver == RepulsionHardSolver::newton;
        for (int block = 0; block < p.hard_max_blocks; ++block) {
            double largest = 0;
            for (int it = 0; it < p.hard_block; ++it) {
                Eigen::MatrixXd g = hard_gradient(z, x_init, c);
                for (Index u = 0; u < g.rows(); ++u) {
                    if (!moving[std::size_t(u)]) {
                        g.row(u).setZero();
                    }
                }
                largest = g.rowwise().norm().maxCoeff();
                const double g2 = g.squaredNorm();
                if (!(g2 > 0)) {
                    return z;
                }
                Eigen::MatrixXd direction;
                double slope = -g2, alpha0 = p.hard_initial_step;
                if (newton) {
                    direction = hard_newton_direction(z, g, moving, c);
                    slope = (direction.array() * g.array()).sum();
                    // The full step, shortened so that no vertex moves
                    // farther than Delta (the certificate's bound).
                    const double longest = direction.rowwise().norm().maxCoeff();
                    alpha0 = std::min(1.0, c.step_bound / std::max(longest, 1e-300));
                }
                if (!newton || !(slope < 0)) {
                    direction = -g;
                    slope = -g2;
                    alpha0 = p.hard_initial_step;
                }
                bool accepted = false;
                for (double alpha = alpha0; alpha > 1e-12; alpha *= 0.5) {
                    Eigen::MatrixXd candidate = z + alpha * direction;
                    const double candidate_energy = hard_energy(candidate, x_init, c);
                    if (!(candidate_energy <= energy + 1e-4 * alpha * slope)) {
                        continue;
                    }
                    const Verdict verdict = certify(x0, z, candidate, c, 0.0);
                    if (verdict == Verdict::reject_by_guard) {
                        ++s.guard_rejections;
                    }
                    if (verdict == Verdict::accept) {
                        z = std::move(candidate);
                        energy = candidate_energy;
                        accepted = true;
                        break;
                    }
                }
                if (!accepted) {
                    return z; // no admissible step: stop at the last certified iterate
                }
                ++s.hard_iterations;
                path.push_back(z);
            }
            if (largest <= tolerance) {
                break;
            }
        }
        return z;
    }

    /// Where the hard phase starts after the soft result `soft` failed: the
    /// soft result with the vertices around its failures reset to x0. The
    /// paper's GPU code localises the hard phase to the vertices its failed
    /// test flags but leaves the others unstated; here they keep the soft
    /// result, and the hard phase moves only the flagged ones. Without it,
    /// one stiff spot (a pinned corner whose edges sit at the cap) limits
    /// the hard phase's single step size, and the whole cloth freezes.
    ///
    /// The flagged set F starts with the vertices of the soft result's
    /// failures (with the success margin) and grows by one ring. The mixed
    /// state (F at x0, the rest at the soft result) must be strictly
    /// feasible and continuously safe from x0, like any hard iterate; where
    /// it is not, F takes in the vertices of its failures and grows by 2, 4,
    /// 8, ... rings. Once F holds every vertex the start is x0 itself, the
    /// global hard phase. Returns the start; `moving` receives F.
    Eigen::MatrixXd localised_start(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& soft, const ConstraintSet& c,
        std::vector<char>& moving) const
    {
        const Index n = x0.rows();
        moving.assign(std::size_t(n), 0);
        const auto flag = [&](const Index* vertices, int count, bool) {
            for (int k = 0; k < count; ++k) {
                moving[std::size_t(vertices[k])] = 1;
            }
            return true;
        };
        const auto grow = [&] { // one ring; false when F is closed (whole sheets)
            const std::vector<char> seeds = moving;
            bool grown = false;
            for (Index u = 0; u < n; ++u) {
                if (seeds[std::size_t(u)]) {
                    for (const Index e : vertex_edges[std::size_t(u)]) {
                        for (int k = 0; k < 2; ++k) {
                            char& m = moving[std::size_t(E(e, k))];
                            grown = grown || m == 0;
                            m = 1;
                        }
                    }
                }
            }
            return grown;
        };
        visit_failures(x0, x0, soft, c, eps_cond, flag);
        // Rings added per round: 1, 2, 4, ... A chain of edges at the cap
        // moves its failure one edge along per ring, and doubling reaches
        // any chain (or the whole cloth) in a logarithmic number of rounds.
        // A round that leaves F as it was would repeat the previous check, so
        // it ends the search too (F then closes whole sheets and no failure
        // lies outside it).
        std::ptrdiff_t checked = -1; // size of F at the previous check
        for (int round = 0; round < 16; ++round) {
            for (int ring = 0; ring < (1 << std::min(round, 12)) && grow(); ++ring) {
            }
            const std::ptrdiff_t size = std::count(moving.begin(), moving.end(), char(1));
            if (size == std::ptrdiff_t(n) || size == checked) {
                break;
            }
            checked = size;
            Eigen::MatrixXd mixed = soft;
            for (Index u = 0; u < n; ++u) {
                if (moving[std::size_t(u)]) {
                    mixed.row(u) = x0.row(u);
                }
            }
            bool certified = true;
            visit_failures(x0, x0, mixed, c, 0.0, [&](const Index* vertices, int count, bool by_guard) {
                certified = false;
                return flag(vertices, count, by_guard);
            });
            if (certified) {
                return mixed;
            }
        }
        moving.assign(std::size_t(n), 1);
        return x0;
    }

    /// The constraints of c that touch a vertex flagged in `moving`: the
    /// only ones that a step moving just those vertices can change.
    ConstraintSet restricted(const ConstraintSet& c, const std::vector<char>& moving) const
    {
        const auto moves = [&](Index u) { return moving[std::size_t(u)] != 0; };
        ConstraintSet r;
        r.step_bound = c.step_bound;
        r.guarded = c.guarded;
        for (const auto& pair : c.pairs) {
            if (moves(pair.first) || moves(pair.second)) {
                r.pairs.push_back(pair);
            }
        }
        for (const Index e : c.edges) {
            if (moves(E(e, 0)) || moves(E(e, 1))) {
                r.edges.push_back(e);
            }
        }
        for (const auto& k : c.contacts) {
            if (moves(k.first)) {
                r.contacts.push_back(k);
            }
        }
        for (const auto& g : c.guard) {
            if (std::any_of(g.vertices.begin(), g.vertices.end(), moves)) {
                r.guard.push_back(g);
            }
        }
        return r;
    }

    /// One collision step from the certified state x0 towards x_init.
    Eigen::MatrixXd collision_step(const Eigen::MatrixXd& x0, const Eigen::MatrixXd& x_init, RepulsionStepStats& s)
    {
        ++s.collision_steps;
        auto clock = Clock::now();
        const ConstraintSet c = collect(x0, x_init);
        s.seconds_collect += seconds_since(clock);
        s.pairs = std::max(s.pairs, c.pairs.size());
        s.guard_pairs += c.guard.size();

        clock = Clock::now();
        Eigen::MatrixXd y = soft_phase(x0, x_init, c);
        const Verdict verdict = certify(x0, x0, y, c, eps_cond);
        s.seconds_soft += seconds_since(clock);
        if (verdict == Verdict::accept) {
            ++s.soft_successes;
            if (observer) {
                observer(x0, y, {});
            }
            return y;
        }
        if (verdict == Verdict::reject_by_guard) {
            ++s.guard_rejections;
        }
        clock = Clock::now();
        std::vector<char> moving(std::size_t(x0.rows()), 1);
        const Eigen::MatrixXd start = p.local_hard_phase ? localised_start(x0, y, c, moving) : x0;
        std::vector<Eigen::MatrixXd> path;
        Eigen::MatrixXd z;
        if ((start.array() == x0.array()).all()) {
            z = hard_phase(x0, start, moving, x_init, c, path, s);
        } else {
            // The start is certified against every constraint, and the
            // others cannot change while only the flagged vertices move.
            path.push_back(start);
            ++s.local_hard_phases;
            z = hard_phase(x0, start, moving, x_init, restricted(c, moving), path, s);
        }
        s.seconds_hard += seconds_since(clock);
        if (observer) {
            observer(x0, z, path);
        }
        return z;
    }

    // -----------------------------------------------------------------
    // Dynamics

    /// Elastic gradient at y (n x 3), scattered by the library's coloured
    /// assembly: the same sums in the same order for any number of threads.
    Eigen::MatrixXd elastic_gradient(const Eigen::MatrixXd& y) const
    {
        const Eigen::VectorXd g
            = elastic.gradient([&](Index k, Vector<double, 12>& out) { model.element_gradient(k, y, out); });
        return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>(g.data(), y.rows(), 3);
    }

    /// The dynamics objective E(y) + |y - y_bar|_M^2 / (2 h^2) + sigma/2 |y - xk|_M^2
    /// over the free vertices (J), given the elastic part E(y).
    double dynamics_energy(double elastic_part, const Eigen::MatrixXd& y, const Eigen::MatrixXd& y_bar,
        const Eigen::MatrixXd& xk) const
    {
        double e = elastic_part;
        const double h = p.dt;
        for (Index u = 0; u < y.rows(); ++u) {
            if (!held[std::size_t(u)]) {
                e += 0.5 * model.mass[u]
                    * ((y.row(u) - y_bar.row(u)).squaredNorm() / (h * h) + p.sigma * (y.row(u) - xk.row(u)).squaredNorm());
            }
        }
        return e;
    }

    /// E(y): the elastic energy of the cloth at y (J).
    double elastic_energy(const Eigen::MatrixXd& y) const
    {
        return elastic.sum([&](Index k) { return model.element_energy(k, y); });
    }

    /// Its gradient (n x 3), zero at held vertices.
    Eigen::MatrixXd dynamics_gradient(const Eigen::MatrixXd& y, const Eigen::MatrixXd& y_bar, const Eigen::MatrixXd& xk) const
    {
        Eigen::MatrixXd g = elastic_gradient(y);
        const double h = p.dt;
        for (Index u = 0; u < y.rows(); ++u) {
            if (held[std::size_t(u)]) {
                g.row(u).setZero();
            } else {
                g.row(u) += model.mass[u] * ((y.row(u) - y_bar.row(u)) / (h * h) + p.sigma * (y.row(u) - xk.row(u)));
            }
        }
        return g;
    }

    /// RepulsionDynamics::factored: factorises the objective's Hessian at x
    /// (elasticity projected per element, M (1/h^2 + sigma) on the
    /// diagonal, held vertices' rows and columns those of the identity).
    void factor_dynamics_hessian(const Eigen::MatrixXd& at)
    {
        elastic.hessian([&](Index k, Matrix<double, 12, 12>& out) {
            model.element_hessian(k, at, PSDProjection::clamp, out);
        }, dynamics_hessian, SparseTriangle::lower);
        const double h = p.dt;
        for (Index u = 0; u < at.rows(); ++u) {
            for (int d = 0; d < 3; ++d) {
                dynamics_hessian.coeffRef(3 * u + d, 3 * u + d) += model.mass[u] * (1 / (h * h) + p.sigma);
            }
        }
        hold_dofs(dynamics_hessian, held);
        dynamics_factor.factorize(dynamics_hessian);
    }

    /// One factored Newton iteration of the dynamics from y: the step is
    /// halved (at most 8 times) until the objective decreases; y stays
    /// where no trial decreases it. `y_elastic` is E(y) (NaN: not known
    /// yet), kept up to date.
    void factored_dynamics_iteration(Eigen::MatrixXd& y, double& y_elastic, const Eigen::MatrixXd& y_bar,
        const Eigen::MatrixXd& xk)
    {
        const Eigen::MatrixXd g = dynamics_gradient(y, y_bar, xk);
        Eigen::VectorXd flat(3 * y.rows());
        for (Index u = 0; u < y.rows(); ++u) {
            flat.segment<3>(3 * u) = g.row(u).transpose();
        }
        const Eigen::VectorXd step = dynamics_factor.solve(flat);
        Eigen::MatrixXd direction = Eigen::MatrixXd::Zero(y.rows(), 3);
        for (Index u = 0; u < y.rows(); ++u) {
            if (!held[std::size_t(u)]) {
                direction.row(u) = step.segment<3>(3 * u).transpose();
            }
        }
        if (std::isnan(y_elastic)) {
            y_elastic = elastic_energy(y);
        }
        const double e0 = dynamics_energy(y_elastic, y, y_bar, xk);
        double alpha = 1;
        for (int trial = 0; trial < 9; ++trial, alpha *= 0.5) {
            Eigen::MatrixXd next = y + alpha * direction;
            const double next_elastic = elastic_energy(next);
            if (dynamics_energy(next_elastic, next, y_bar, xk) < e0) {
                y = std::move(next);
                y_elastic = next_elastic;
                return;
            }
        }
    }

    /// Jacobi preconditioner: M / h^2 + sigma M plus, for each degree of
    /// freedom, the absolute row sum of the elastic Hessians (PSD-projected,
    /// at y). With the row sums (Gershgorin) the preconditioned matrix has
    /// its eigenvalues in (0, 1], so the Jacobi iteration cannot diverge
    /// where a stretched membrane makes the plain diagonal too small.
    Eigen::MatrixXd jacobi_diagonal(const Eigen::MatrixXd& y) const
    {
        const double h = p.dt;
        Eigen::MatrixXd P(y.rows(), 3);
        for (Index u = 0; u < y.rows(); ++u) {
            P.row(u).setConstant(model.mass[u] * (1 / (h * h) + p.sigma));
        }
        Matrix<double, 12, 12> local;
        for (Index k = 0; k < model.num_elements(); ++k) {
            const StencilVertices s = model.element_vertices(k);
            model.element_hessian(k, y, PSDProjection::clamp, local);
            const int size = 3 * s.size;
            for (int a = 0; a < s.size; ++a) {
                for (int d = 0; d < 3; ++d) {
                    P(s.vertices[std::size_t(a)], d) += local.row(3 * a + d).head(size).cwiseAbs().sum();
                }
            }
        }
        return P;
    }

    /// Spatially smooth displacement (the paper's Sec. 5.2): d splatted onto
    /// a grid of cell 2 L with trilinear weights and interpolated back.
    Eigen::MatrixXd smooth(const Eigen::MatrixXd& at, const Eigen::MatrixXd& d) const
    {
        const double cell = 2 * p.max_edge();
        struct Cell {
            Eigen::Vector3d sum = Eigen::Vector3d::Zero();
            double weight = 0;
        };
        tsl::robin_map<std::uint64_t, Cell> grid;
        const auto key = [](std::int64_t i, std::int64_t j, std::int64_t k) {
            const auto wrap = [](std::int64_t a) { return std::uint64_t(a + (std::int64_t(1) << 20)) & 0x1fffff; };
            return (wrap(i) << 42) | (wrap(j) << 21) | wrap(k);
        };
        const auto corners = [&](const Eigen::Vector3d& q, auto&& visit) {
            const Eigen::Vector3d s = q / cell;
            const Eigen::Vector3d base = s.array().floor();
            const Eigen::Vector3d f = s - base;
            for (int c = 0; c < 8; ++c) {
                const int ox = c & 1, oy = (c >> 1) & 1, oz = (c >> 2) & 1;
                const double w = (ox ? f.x() : 1 - f.x()) * (oy ? f.y() : 1 - f.y()) * (oz ? f.z() : 1 - f.z());
                visit(key(std::int64_t(base.x()) + ox, std::int64_t(base.y()) + oy, std::int64_t(base.z()) + oz), w);
            }
        };
        for (Index u = 0; u < at.rows(); ++u) {
            if (held[std::size_t(u)]) {
                continue;
            }
            const Eigen::Vector3d du = d.row(u).transpose();
            corners(row3(at, u), [&](std::uint64_t k, double w) {
                Cell& c = grid[k];
                c.sum += w * du;
                c.weight += w;
            });
        }
        Eigen::MatrixXd out = d;
        for (Index u = 0; u < at.rows(); ++u) {
            if (held[std::size_t(u)]) {
                continue;
            }
            Eigen::Vector3d value = Eigen::Vector3d::Zero();
            double total = 0;
            corners(row3(at, u), [&](std::uint64_t k, double w) {
                const Cell& c = grid.at(k);
                if (c.weight > 0 && w > 0) {
                    value += w * c.sum / c.weight;
                    total += w;
                }
            });
            if (total > 0) {
                out.row(u) = (value / total).transpose();
            }
        }
        return out;
    }

    RepulsionStepStats step()
    {
        const auto step_clock = Clock::now();
        RepulsionStepStats s;
        stats = &s;
        const double h = p.dt;
        const Index n = x.rows();
        const Eigen::MatrixXd x_start = x;
        dynamics_factor.reset_count();
        hard_factor.reset_count();

        // Prediction y_bar = x + h v + h^2 g; held vertices at their targets.
        Eigen::MatrixXd y_bar = x + h * v;
        for (Index u = 0; u < n; ++u) {
            if (held[std::size_t(u)]) {
                y_bar.row(u) = scripted_position(u, t + h).transpose();
            } else {
                y_bar.row(u) += h * h * model.gravity.transpose();
            }
        }
        auto clock = Clock::now();
        const bool factored = p.dynamics == RepulsionDynamics::factored;
        Eigen::MatrixXd P;
        if (factored) {
            factor_dynamics_hessian(x);
        } else {
            P = jacobi_diagonal(x);
        }
        s.seconds_dynamics += seconds_since(clock);

        // Initialisation: the predicted displacement, smoothed in space, in
        // I_init certified pieces (not capped by D).
        Eigen::MatrixXd xk = x;
        if (p.init_pieces > 0) {
            const Eigen::MatrixXd piece = smooth(x, y_bar - x) / double(p.init_pieces);
            for (int k = 0; k < p.init_pieces; ++k) {
                xk = collision_step(xk, xk + piece, s);
            }
        }

        // K alternating dynamics and collision steps.
        Eigen::MatrixXd y = y_bar, y_previous = y_bar;
        double y_elastic = std::numeric_limits<double>::quiet_NaN(); // E(y), once known (factored dynamics)
        double omega = 1;
        int chebyshev = 0;
        const double rho2 = p.chebyshev_rho * p.chebyshev_rho;
        const double relaxation = 0.9;
        const double D = p.displacement_cap();
        // P bounds the Hessian at x, not at y. Far from x (StVK stiffens with
        // stretch, a folded hinge turns sharply) a step can overshoot, and
        // with Chebyshev momentum it then grows geometrically: on pile one
        // vertex of y went 1.4 m, 3e4 m, 3e17 m, then NaN, in consecutive
        // collision steps, and every later collision step of that time step
        // was lost. A y with a vertex farther from x[k] than ten times the
        // largest predicted displacement plus L is a runaway: y restarts
        // from x[k] without momentum.
        const double runaway = 10 * ((y_bar - x).rowwise().norm().maxCoeff() + p.max_edge());
        for (int k = 0; k < p.collision_steps; ++k) {
            clock = Clock::now();
            for (int it = 0; it < p.dynamics_iterations_per_step() && factored; ++it) {
                factored_dynamics_iteration(y, y_elastic, y_bar, xk);
            }
            for (int it = 0; it < p.dynamics_iterations_per_step() && !factored; ++it) {
                const Eigen::MatrixXd g = dynamics_gradient(y, y_bar, xk);
                omega = chebyshev == 0 ? 1.0 : chebyshev == 1 ? 2 / (2 - rho2) : 4 / (4 - rho2 * omega);
                ++chebyshev;
                Eigen::MatrixXd next = y;
                for (Index u = 0; u < n; ++u) {
                    if (held[std::size_t(u)]) {
                        continue;
                    }
                    const Eigen::RowVector3d jacobi = -relaxation * g.row(u).cwiseQuotient(P.row(u));
                    next.row(u) = omega * (y.row(u) + jacobi - y_previous.row(u)) + y_previous.row(u);
                }
                y_previous = y;
                y = std::move(next);
            }
            if (!((y - xk).rowwise().norm().maxCoeff() <= runaway)) {
                y = y_previous = xk;
                y_elastic = std::numeric_limits<double>::quiet_NaN();
                chebyshev = 0;
                ++s.dynamics_restarts;
            }
            s.seconds_dynamics += seconds_since(clock);

            // x_init: each vertex moves at most D from x[k] towards y[k+1].
            Eigen::MatrixXd x_init = xk;
            for (Index u = 0; u < n; ++u) {
                const Eigen::RowVector3d d = y.row(u) - xk.row(u);
                const double length = d.norm();
                x_init.row(u) += length > D ? (D / length) * d : d;
            }
            xk = collision_step(xk, x_init, s);
        }

        // Velocity, damping, friction.
        Eigen::MatrixXd velocity = (xk - x_start) / h;
        velocity *= std::max(0.0, 1 - p.air_damping * h);
        for (Index u = 0; u < n; ++u) {
            if (held[std::size_t(u)]) {
                velocity.row(u) = (scripted_position(u, t + h) - scripted_position(u, t)).transpose() / h;
            }
        }
        clock = Clock::now();
        friction(xk, y_bar, velocity, s);
        s.seconds_friction = seconds_since(clock);
        x = xk;
        v = velocity;
        t += h;
        measure(s);
        s.failed_factorizations = dynamics_factor.failed_factorizations() + hard_factor.failed_factorizations();
        s.seconds = seconds_since(step_clock);
        stats = nullptr;
        return s;
    }

    /// Area-weighted vertex normals of the cloth at y (unit, or zero where
    /// every incident triangle is degenerate).
    Eigen::MatrixXd vertex_normals(const Eigen::MatrixXd& y) const
    {
        Eigen::MatrixXd N = Eigen::MatrixXd::Zero(y.rows(), 3);
        for (Index f = 0; f < F.rows(); ++f) {
            const Eigen::Vector3d a = row3(y, F(f, 0));
            const Eigen::RowVector3d area = (row3(y, F(f, 1)) - a).cross(row3(y, F(f, 2)) - a).transpose();
            for (int k = 0; k < 3; ++k) {
                N.row(F(f, k)) += area;
            }
        }
        for (Index u = 0; u < N.rows(); ++u) {
            const double length = N.row(u).norm();
            if (length > 0) {
                N.row(u) /= length;
            }
        }
        return N;
    }

    /// Friction against obstacles and between cloth vertices: Coulomb's law
    /// at the velocity level (the paper's Sec. 7 ties colliding vertices,
    /// and vertices to bodies, with springs instead).
    ///
    /// Normal forces. The contact force on a free vertex u is what makes the
    /// certified end state x an implicit Euler step:
    /// f_u = m_u (x_u - y_bar_u) / h^2 + grad_u E(x), with y_bar the
    /// prediction x^t + h v + h^2 g. (The coupling force sigma m (x - y)
    /// is not it: the inertia of y takes part of the load, and a sheet at
    /// rest would weigh sigma / (sigma + 1/h^2) = 8/9 of its weight.) It is
    /// split over the vertex pairs that can touch (within the collection
    /// radius, more than ring_exclusion rings apart) and the obstacle
    /// contacts as lambda >= 0 minimising sum_u |f_u - sum_k lambda_k n_k(u)|^2
    /// (projected Gauss-Seidel, a fixed number of sweeps in a fixed order).
    /// Solving for all vertices together gives each layer of a stack the
    /// weight of every layer above it, which no per-vertex split can. A
    /// pair's axis n is the mean of its two vertex normals (the paper's cone
    /// axis), oriented from j to i; the pair direction where those normals
    /// are not across the gap.
    ///
    /// Friction. Each contact in a fixed order removes relative tangential
    /// velocity up to the impulse mu lambda h (mu: friction for obstacles,
    /// self_friction for pairs), shared by inverse mass (held vertices and
    /// obstacles do not move), so a pair conserves momentum, and a contact
    /// can stop sliding but never reverse it. An obstacle contact uses the
    /// same lambda: a sheet at the bottom of a stack is held by the weight
    /// of the whole stack, not only its own.
    void friction(const Eigen::MatrixXd& x_end, const Eigen::MatrixXd& y_bar, Eigen::MatrixXd& velocity,
        RepulsionStepStats& s) const
    {
        if (!(p.self_friction > 0) && !(p.friction > 0)) {
            return;
        }
        const double radius = std::sqrt(sep2) + 2 * p.step_bound();
        const auto near = vertex_pairs_within_radius(x_end, radius, rings);
        const Eigen::MatrixXd N = vertex_normals(x_end);
        struct Contact {
            Index i, j; // j < 0: an obstacle contact of vertex i
            Eigen::Vector3d n;
            double lambda = 0;
        };
        std::vector<Contact> contacts;
        contacts.reserve(near.size());
        for (const auto& [i, j] : near) {
            Eigen::Vector3d d = row3(x_end, i) - row3(x_end, j);
            const double distance = d.norm();
            if (!(distance > 0)) {
                continue;
            }
            d /= distance;
            const Eigen::Vector3d ni = N.row(i).transpose(), nj = N.row(j).transpose();
            Eigen::Vector3d axis = ni + (ni.dot(nj) >= 0 ? nj : Eigen::Vector3d(-nj));
            axis = axis.dot(d) >= 0 ? axis : Eigen::Vector3d(-axis);
            const double length = axis.norm();
            contacts.push_back({ i, j, length > 0 && axis.dot(d) >= 0.5 * length ? Eigen::Vector3d(axis / length) : d });
        }
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            for (Index u = 0; u < x_end.rows(); ++u) {
                if (!held[std::size_t(u)] && signed_distance(p.obstacles[o], row3(x_end, u)) < margin[o] + band) {
                    contacts.push_back({ u, -1, signed_distance_gradient(p.obstacles[o], row3(x_end, u)) });
                }
            }
        }
        Eigen::MatrixXd residual = elastic_gradient(x_end);
        for (Index u = 0; u < x_end.rows(); ++u) {
            if (held[std::size_t(u)]) {
                residual.row(u).setZero();
            } else {
                residual.row(u) += model.mass[u] * (x_end.row(u) - y_bar.row(u)) / (p.dt * p.dt);
            }
        }
        const auto is_free = [&](Index u) { return u >= 0 && !held[std::size_t(u)]; };
        for (int sweep = 0; sweep < 40; ++sweep) {
            for (Contact& k : contacts) {
                double numerator = 0, count = 0;
                if (is_free(k.i)) {
                    numerator += residual.row(k.i).dot(k.n.transpose());
                    ++count;
                }
                if (is_free(k.j)) {
                    numerator -= residual.row(k.j).dot(k.n.transpose());
                    ++count;
                }
                if (count == 0) {
                    continue;
                }
                const double lambda = std::max(0.0, k.lambda + numerator / count);
                const Eigen::RowVector3d change = (lambda - k.lambda) * k.n.transpose();
                k.lambda = lambda;
                if (is_free(k.i)) {
                    residual.row(k.i) -= change;
                }
                if (is_free(k.j)) {
                    residual.row(k.j) += change;
                }
            }
        }
        for (const Contact& k : contacts) {
            (k.j < 0 ? s.normal_force_obstacles : s.normal_force_pairs) += k.lambda;
        }
        for (const Contact& k : contacts) {
            const double mu_k = k.j < 0 ? p.friction : p.self_friction;
            if (!(k.lambda > 0) || !(mu_k > 0)) {
                continue;
            }
            const double wi = is_free(k.i) ? 1 / model.mass[k.i] : 0, wj = is_free(k.j) ? 1 / model.mass[k.j] : 0;
            if (!(wi + wj > 0)) {
                continue;
            }
            Eigen::Vector3d relative = velocity.row(k.i).transpose();
            if (k.j >= 0) {
                relative -= velocity.row(k.j).transpose();
            }
            const Eigen::Vector3d tangential = relative - relative.dot(k.n) * k.n;
            const double speed = tangential.norm();
            if (!(speed > 0)) {
                continue;
            }
            const double impulse = std::min(speed / (wi + wj), mu_k * k.lambda * p.dt);
            const Eigen::RowVector3d direction = (tangential / speed).transpose();
            velocity.row(k.i) -= wi * impulse * direction;
            if (k.j >= 0) {
                velocity.row(k.j) += wj * impulse * direction;
                ++s.friction_pairs;
            }
        }
    }

    /// The honest figures of the state x.
    void measure(RepulsionStepStats& s) const
    {
        double largest = 0;
        for (Index e = 0; e < E.rows(); ++e) {
            largest = std::max(largest, (x.row(E(e, 0)) - x.row(E(e, 1))).norm());
        }
        s.max_edge_length = largest;
        s.min_obstacle_distance = std::numeric_limits<double>::infinity();
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            for (Index u = 0; u < x.rows(); ++u) {
                const double phi = signed_distance(p.obstacles[o], row3(x, u));
                s.min_obstacle_distance = std::min(s.min_obstacle_distance, phi);
                if (phi < margin[o] + band) {
                    ++s.contacts;
                }
            }
        }
        // One query serves both the band count and the smallest distance.
        const auto near = vertex_pairs_within_radius(x, p.collection_radius(), rings);
        for (const auto& [i, j] : near) {
            s.contacts += pair_value(x, i, j) < eps ? 1 : 0;
        }
        s.min_vertex_distance = min_vertex_distance(x, near);
        s.kinetic_energy = 0;
        double momentum = 0, mass = 0;
        for (Index u = 0; u < x.rows(); ++u) {
            if (!held[std::size_t(u)]) {
                s.kinetic_energy += 0.5 * model.mass[u] * v.row(u).squaredNorm();
                momentum += model.mass[u] * v.row(u).norm();
                mass += model.mass[u];
            }
        }
        s.mean_speed = mass > 0 ? momentum / mass : 0;
    }

    /// Smallest distance over vertex pairs more than ring_exclusion rings
    /// apart (+infinity when there is none), given the pairs within the
    /// collection radius: when there are none, radius queries of growing
    /// radius until one finds a pair.
    double min_vertex_distance(const Eigen::MatrixXd& y, std::vector<std::pair<Index, Index>> pairs) const
    {
        const double diagonal = (y.colwise().maxCoeff() - y.colwise().minCoeff()).norm();
        for (double r = p.collection_radius(); pairs.empty(); pairs = vertex_pairs_within_radius(y, r, rings)) {
            if (r > 2 * diagonal) {
                return std::numeric_limits<double>::infinity();
            }
            r *= 2;
        }
        double best = std::numeric_limits<double>::infinity();
        for (const auto& [i, j] : pairs) {
            best = std::min(best, (y.row(i) - y.row(j)).norm());
        }
        return best;
    }
};

RepulsionSimulator::RepulsionSimulator(Model model, RepulsionParameters parameters)
    : impl_(std::make_unique<Impl>(std::move(model), std::move(parameters)))
{
}
RepulsionSimulator::~RepulsionSimulator() = default;
RepulsionSimulator::RepulsionSimulator(RepulsionSimulator&&) noexcept = default;
RepulsionSimulator& RepulsionSimulator::operator=(RepulsionSimulator&&) noexcept = default;

RepulsionStepStats RepulsionSimulator::step() { return impl_->step(); }
const Model& RepulsionSimulator::model() const { return impl_->model; }
const RepulsionParameters& RepulsionSimulator::parameters() const { return impl_->p; }
const Eigen::MatrixXd& RepulsionSimulator::positions() const { return impl_->x; }
const Eigen::MatrixXd& RepulsionSimulator::velocities() const { return impl_->v; }
double RepulsionSimulator::time() const { return impl_->t; }
const Eigen::MatrixXi& RepulsionSimulator::faces() const { return impl_->F; }
const Eigen::MatrixXi& RepulsionSimulator::edges() const { return impl_->E; }
bool RepulsionSimulator::excluded(Index i, Index j) const { return impl_->rings.excluded(i, j); }
void RepulsionSimulator::set_observer(CollisionStepObserver observer) { impl_->observer = std::move(observer); }

} // namespace ipc::examples
