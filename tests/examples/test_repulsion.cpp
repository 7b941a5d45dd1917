// The vertex-repulsion cloth integrator: its uniform remeshing, the
// invariants of every accepted state (checked by brute force, independently
// of the integrator's own predicates), the written frames (exact
// intersection test), and the speed cap that the smoothing initialisation
// removes.

#include <repulsion/repulsion_scenes.hpp>
#include <repulsion/repulsion_solver.hpp>

#include <common/contact_distances.hpp>
#include <common/scene_builders.hpp>
#include <common/scenes.hpp>

#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/squared_gap_potentials.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

using namespace ipc::examples;

namespace {

/// min over t in [0, 1] of |a + t (b - a)|^2, by golden-section search on
/// the convex quadratic (an independent check of the closed form).
double sampled_min_distance_squared(const Eigen::Vector3d& a, const Eigen::Vector3d& b)
{
    double lo = 0, hi = 1;
    const auto f = [&](double t) { return (a + t * (b - a)).squaredNorm(); };
    for (int k = 0; k < 200; ++k) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1) <= f(m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    return std::min({ f(0), f(1), f(0.5 * (lo + hi)) });
}

/// Checks every accepted collision step of sim by brute force over all
/// vertex pairs; counts the steps and the failures.
struct InvariantChecker {
    const RepulsionSimulator* sim = nullptr;
    int steps = 0, separation_failures = 0, continuous_failures = 0, edge_failures = 0, obstacle_failures = 0;

    void operator()(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to, const std::vector<Eigen::MatrixXd>& path)
    {
        ++steps;
        const RepulsionParameters& p = sim->parameters();
        const double sep = p.separation() + p.tightening(), B = p.separation();
        // The certified path: a segment, or the polyline of hard iterates.
        std::vector<const Eigen::MatrixXd*> states { &from };
        for (const auto& s : path) {
            states.push_back(&s);
        }
        if (path.empty() || !(path.back().array() == to.array()).all()) {
            states.push_back(&to);
        }
        const Eigen::Index n = to.rows();
        // How far each vertex travels along the path: a pair farther apart
        // at the start than B plus both travels stays apart all along it.
        Eigen::VectorXd travel = Eigen::VectorXd::Zero(n);
        for (std::size_t k = 0; k + 1 < states.size(); ++k) {
            travel += (*states[k + 1] - *states[k]).rowwise().norm();
        }
        // Pairs whose x coordinates differ at the start by at least
        // max(sep, B) plus the two largest travels pass both tests: sweep
        // the vertices in x order and stop there.
        const double reach = std::max(sep, B) + 2 * travel.maxCoeff();
        std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), Eigen::Index(0));
        std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return from(a, 0) < from(b, 0); });
        for (std::size_t a = 0; a < order.size(); ++a) {
            for (std::size_t b = a + 1; b < order.size() && from(order[b], 0) - from(order[a], 0) < reach; ++b) {
                const Eigen::Index i = order[a], j = order[b];
                if (sim->excluded(i, j)) {
                    continue;
                }
                if ((to.row(i) - to.row(j)).squaredNorm() < sep * sep) {
                    ++separation_failures;
                }
                if ((from.row(i) - from.row(j)).norm() - travel[i] - travel[j] >= B) {
                    continue;
                }
                for (std::size_t k = 0; k + 1 < states.size(); ++k) {
                    const Eigen::Vector3d a = (states[k]->row(i) - states[k]->row(j)).transpose();
                    const Eigen::Vector3d b = (states[k + 1]->row(i) - states[k + 1]->row(j)).transpose();
                    // |a + t (b - a)| >= |a| - |b - a|: far pairs need no search.
                    if (a.norm() - (b - a).norm() >= B) {
                        continue;
                    }
                    if (sampled_min_distance_squared(a, b) < B * B * (1 - 1e-12)) {
                        ++continuous_failures;
                    }
                }
            }
        }
        const Eigen::MatrixXi& E = sim->edges();
        for (Eigen::Index e = 0; e < E.rows(); ++e) {
            if ((to.row(E(e, 0)) - to.row(E(e, 1))).norm() > p.max_edge()) {
                ++edge_failures;
            }
        }
        for (std::size_t o = 0; o < p.obstacles.size(); ++o) {
            for (Eigen::Index v = 0; v < n; ++v) {
                if (ipc::signed_distance(p.obstacles[o], to.row(v).transpose()) < p.obstacle_margin(o)) {
                    ++obstacle_failures;
                }
            }
        }
    }
};

/// Appends a triangle mesh (its own vertex numbering) to V and F.
void append_mesh(Eigen::MatrixXd& V, Eigen::MatrixXi& F, const Eigen::MatrixXd& vertices, const Eigen::MatrixXi& faces)
{
    const Eigen::Index base = V.rows(), first_face = F.rows();
    V.conservativeResize(base + vertices.rows(), 3);
    V.bottomRows(vertices.rows()) = vertices;
    F.conservativeResize(first_face + faces.rows(), 3);
    F.bottomRows(faces.rows()) = faces.array() + int(base);
}

/// The exact intersection test of a frame: the cloth at x (the overload
/// without x: the simulator's positions) against itself and against the obstacles drawn
/// as meshes inscribed in their shapes. Throws ipc::degenerate_geometry for
/// a triangle squeezed flat.
bool frame_intersects(const RepulsionSimulator& sim, const Eigen::MatrixXd& x)
{
    Eigen::MatrixXd V = x;
    Eigen::MatrixXi F = sim.faces();
    for (const auto& o : sim.parameters().obstacles) {
        const auto mesh = ipc::obstacle_mesh(o, 32, 1.0);
        append_mesh(V, F, mesh.vertices, mesh.faces);
    }
    const ipc::CollisionMesh mesh = ipc::CollisionMesh::Builder(V).faces(F).build();
    return ipc::has_intersections(mesh, V);
}
bool frame_intersects(const RepulsionSimulator& sim) { return frame_intersects(sim, sim.positions()); }

/// Runs `steps` time steps of scene with every invariant checked; returns
/// the fraction of collision steps the soft phase certified.
double check_scene(const Scene& scene, double rest_edge, int steps)
{
    const std::string& name = scene.name;
    CAPTURE(name);
    const RepulsionScene setup = repulsion_scene(scene, false, rest_edge);
    RepulsionSimulator sim(setup.model, setup.parameters);
    InvariantChecker checker;
    checker.sim = &sim;
    sim.set_observer(std::ref(checker));
    REQUIRE_FALSE(frame_intersects(sim));
    int soft = 0, total = 0;
    for (int s = 0; s < steps; ++s) {
        const RepulsionStepStats stats = sim.step();
        soft += stats.soft_successes;
        total += stats.collision_steps;
        CAPTURE(s);
        REQUIRE_FALSE(frame_intersects(sim));
        REQUIRE(stats.min_vertex_distance >= setup.parameters.separation() + setup.parameters.tightening());
        REQUIRE(stats.max_edge_length <= setup.parameters.max_edge());
    }
    CHECK(checker.steps == total);
    CHECK(checker.separation_failures == 0);
    CHECK(checker.continuous_failures == 0);
    CHECK(checker.edge_failures == 0);
    CHECK(checker.obstacle_failures == 0);
    WARN(name << ": soft phase certified " << soft << " of " << total << " collision steps");
    return double(soft) / double(total);
}

} // namespace

TEST_CASE("Repulsion: the lattice cloth is uniform, consistently oriented and covers its rectangle", "[examples][repulsion]")
{
    const Eigen::Vector3d origin(0.1, 0.2, 0.3), u(0.7, 0, 0), v(0, 0, -0.45);
    const TriangleMesh m = lattice_cloth(origin, u, v, 0.05);
    double shortest = 1e9, longest = 0, area = 0;
    for (Eigen::Index f = 0; f < m.faces.rows(); ++f) {
        const Eigen::Vector3d a = m.vertices.row(m.faces(f, 0)).transpose();
        const Eigen::Vector3d b = m.vertices.row(m.faces(f, 1)).transpose();
        const Eigen::Vector3d c = m.vertices.row(m.faces(f, 2)).transpose();
        const Eigen::Vector3d normal = (b - a).cross(c - a);
        REQUIRE(normal.dot(u.cross(v)) > 0);
        area += 0.5 * normal.norm();
        for (const double l : { (b - a).norm(), (c - b).norm(), (a - c).norm() }) {
            shortest = std::min(shortest, l);
            longest = std::max(longest, l);
        }
    }
    CHECK(shortest / longest > 0.9);
    CHECK(longest < 0.06);
    // The zig-zag sides leave out one half triangle per odd row and side.
    CHECK(area <= u.norm() * v.norm() + 1e-12);
    CHECK(area > 0.9 * u.norm() * v.norm());
    // All four corners are vertices.
    for (const Eigen::Vector3d& corner : { origin, Eigen::Vector3d(origin + u), Eigen::Vector3d(origin + v),
             Eigen::Vector3d(origin + u + v) }) {
        CHECK((m.vertices.rowwise() - corner.transpose()).rowwise().norm().minCoeff() < 1e-12);
    }
}

TEST_CASE("Repulsion: scenes carry over their pins, scripts, obstacles and left-out bodies", "[examples][repulsion]")
{
    const RepulsionScene hanging = repulsion_scene(make_scene("hanging_cloth"), false, 0.04);
    CHECK(hanging.model.fixed.size() == std::size_t(hanging.model.num_vertices()));
    CHECK(std::count(hanging.model.fixed.begin(), hanging.model.fixed.end(), true) == 2);

    const Scene twist = make_scene("twist_cloth");
    const RepulsionScene twisted = repulsion_scene(twist, false, 0.1);
    // Every scripted lattice vertex lies on one of the two turning edges,
    // and every even row contributes its two ends.
    REQUIRE(twisted.model.scripted.size() >= 8);
    for (const auto& s : twisted.model.scripted) {
        CHECK(std::abs(std::abs(twisted.model.positions(s.vertex, 0)) - 0.5) <= 0.055);
    }

    const RepulsionScene stack = repulsion_scene(make_scene("cloth_stack"), false);
    CHECK(std::any_of(stack.notes.begin(), stack.notes.end(),
        [](const std::string& n) { return n.find("left out") != std::string::npos; }));
    CHECK(stack.parameters.obstacles.size() == 1);
    // Sheets start 15 mm apart: the lattice must be fine enough for them.
    const auto& p = stack.parameters;
    CHECK(p.separation() + p.tightening() < 0.015);
}

TEST_CASE("Repulsion: every accepted state keeps the separation, edge cap, obstacle margins and frames clean",
    "[examples][repulsion]")
{
    check_scene(make_scene("cloth_on_sphere"), 0.09, 40);
    check_scene(make_scene("pile"), 0.05, 60);
    check_scene(make_scene("twist_cloth"), 0.1, 30);
    check_scene(make_scene("hanging_cloth"), 0.04, 30);
}

TEST_CASE("Repulsion: a sheet hanging from two corners swings on with a local or a Newton hard phase",
    "[examples][repulsion]")
{
    // A very soft sheet held at two corners swings down. Near the corners
    // its edges reach the cap L with the sheet's weight on them, and the
    // soft phase's penalty cannot hold them there (x_init draws every vertex
    // hanging below them D further), so from about step 22 every collision
    // step needs the hard phase. The paper's gradient descent, global (from
    // x[k], every vertex moving), takes one step size for every vertex,
    // which the barrier at the corners keeps tiny: the sheet stops in
    // mid-swing. Two ways out, each enough alone:
    // - local: start from the soft result with the vertices around its
    //   failures reset to x[k], and move only those;
    // - Newton: steps on the same objective, which move the strips of
    //   capped edges as one (here still global).
    Scene s;
    s.name = "soft_sheet";
    const TriangleMesh sheet = grid_cloth({ 0, 0, 0 }, 0.4, 0.4, 1, 1);
    ShellMaterial soft_membrane;
    soft_membrane.membrane_scale = 1e-3;
    const ipc::Index base = s.model.add_shell(sheet.vertices, sheet.faces, soft_membrane, 0);
    s.model.fix(base + 0);
    s.model.fix(base + 1);
    struct Variant {
        const char* name;
        bool local;
        RepulsionHardSolver solver;
        double speed = 0;
        int local_phases = 0, hard_iterations = 0;
    };
    Variant variants[] = { { "global gradient", false, RepulsionHardSolver::gradient },
        { "local gradient", true, RepulsionHardSolver::gradient },
        { "global Newton", false, RepulsionHardSolver::newton } };
    for (Variant& v : variants) {
        CAPTURE(v.name);
        RepulsionScene setup = repulsion_scene(s, false, 0.012, 0.01);
        setup.parameters.local_hard_phase = v.local;
        setup.parameters.hard_solver = v.solver;
        RepulsionSimulator sim(setup.model, setup.parameters);
        InvariantChecker checker;
        checker.sim = &sim;
        const bool checked = v.local || v.solver == RepulsionHardSolver::newton;
        if (checked) { // the global gradient phase's paths are checked by the scene tests
            sim.set_observer(std::ref(checker));
        }
        int soft = 0, total = 0;
        for (int step = 0; step < 30; ++step) {
            const RepulsionStepStats stats = sim.step();
            soft += stats.soft_successes;
            total += stats.collision_steps;
            v.local_phases += stats.local_hard_phases;
            v.hard_iterations += stats.hard_iterations;
            v.speed = stats.mean_speed;
            REQUIRE(stats.max_edge_length <= setup.parameters.max_edge());
        }
        CHECK(checker.steps == (checked ? total : 0));
        CHECK(checker.separation_failures == 0);
        CHECK(checker.continuous_failures == 0);
        CHECK(checker.edge_failures == 0);
        CHECK_FALSE(frame_intersects(sim));
        WARN("hanging soft sheet, " << v.name << " hard phase: soft phase certified " << soft << " of " << total
                                    << " collision steps, " << v.hard_iterations << " hard iterations, "
                                    << v.local_phases << " local hard phases, mean speed at the end " << v.speed
                                    << " m/s");
    }
    CHECK(variants[0].local_phases == 0);
    CHECK(variants[1].local_phases > 100);
    CHECK(variants[2].local_phases == 0);
    CHECK(variants[2].hard_iterations > 100);
    CHECK(variants[0].speed < 0.3);
    CHECK(variants[1].speed > 1.0);
    CHECK(variants[2].speed > 1.0);
}

TEST_CASE("Repulsion: the hard phase's barrier curvature matches finite differences", "[examples][repulsion]")
{
    for (const double eps : { 1e-6, 1.0, 21.75 }) {
        for (const double fraction : { 1e-3, 0.05, 0.2, 1.0 / 3.0, 0.5, 0.8, 0.99 }) {
            const double c = fraction * eps, h = 1e-6 * c;
            CAPTURE(eps, fraction);
            const double fd = (ipc::clamped_cubic_log_barrier_derivative(c + h, eps)
                                  - ipc::clamped_cubic_log_barrier_derivative(c - h, eps))
                / (2 * h);
            const double second = clamped_cubic_log_barrier_second_derivative(c, eps);
            CHECK(second > 0);
            CHECK(second == Approx(fd).epsilon(1e-6));
        }
        CHECK(clamped_cubic_log_barrier_second_derivative(eps, eps) == 0);
        CHECK(clamped_cubic_log_barrier_second_derivative(2 * eps, eps) == 0);
        CHECK(clamped_cubic_log_barrier_second_derivative(0.0, eps) == std::numeric_limits<double>::infinity());
        // Its jump at the band's edge (the barrier is C1 only there).
        CHECK(clamped_cubic_log_barrier_second_derivative(eps * (1 - 1e-9), eps) == Approx(4 / (eps * eps)).epsilon(1e-6));
    }
}

TEST_CASE("Repulsion: factored dynamics steps reach the implicit Euler state that Jacobi descent approaches",
    "[examples][repulsion]")
{
    // The splitting leaves the dynamics solver open. Jacobi descent with
    // Chebyshev momentum converges towards the exact minimiser of each
    // dynamics step only as its iterations grow; one Newton step with the
    // factorised Hessian gets there at once. Reference: 40 Jacobi iterations
    // per dynamics step.
    const RepulsionScene setup = repulsion_scene(make_scene("hanging_cloth"), false, 0.02);
    const auto run = [&](RepulsionDynamics dynamics, int iterations) {
        RepulsionParameters p = setup.parameters;
        p.dynamics = dynamics;
        p.dynamics_iterations = iterations;
        RepulsionSimulator sim(setup.model, p);
        for (int step = 0; step < 15; ++step) {
            sim.step();
        }
        return sim.positions();
    };
    const Eigen::MatrixXd reference = run(RepulsionDynamics::chebyshev, 40);
    const Eigen::MatrixXd jacobi = run(RepulsionDynamics::chebyshev, 2);
    const Eigen::MatrixXd factored = run(RepulsionDynamics::factored, 1);
    const double moved = (reference - setup.model.positions).rowwise().norm().maxCoeff();
    const double jacobi_error = (jacobi - reference).rowwise().norm().maxCoeff();
    const double factored_error = (factored - reference).rowwise().norm().maxCoeff();
    WARN("hanging cloth after 15 steps: moved " << moved << " m; off the reference by " << jacobi_error
                                                << " m (Jacobi, 2 iterations), " << factored_error << " m (factored, 1)");
    CHECK(moved > 0.05);
    CHECK(factored_error < 0.25 * jacobi_error);
}

TEST_CASE("Repulsion: the soft phase certifies the collision steps of a heap in heavy self-contact",
    "[examples][repulsion]")
{
    // The pile at its default resolution, as it starts to fold onto itself.
    // Pressed folds need more Jacobi iterations than the paper's I_soft, and
    // the penalty pushes pairs out farther than one collision step may move;
    // before the soft phase projected onto the certified ball and iterated
    // to its margin, it certified 1,718 of the first 2,340 steps (all of the
    // first 20 time steps, 158 of the 720 in the next 10). Before runaway
    // dynamics restarted from x[k], time step 34 ran away (y not finite)
    // and its collision steps were lost: 2,815 of 2,886 certified (97.5%).
    const RepulsionScene setup = repulsion_scene(make_scene("pile"), false);
    RepulsionSimulator sim(setup.model, setup.parameters);
    int soft = 0, total = 0;
    for (int s = 0; s < 37; ++s) {
        const RepulsionStepStats stats = sim.step();
        soft += stats.soft_successes;
        total += stats.collision_steps;
    }
    WARN("pile: soft phase certified " << soft << " of " << total << " collision steps");
    CHECK(double(soft) >= 0.99 * double(total));
}

TEST_CASE("Repulsion: the resting gap of a stack is each upper vertex's distance to the sheet below",
    "[examples][repulsion]")
{
    // Sheet 1 lies g above sheet 0, shifted so that part of it overhangs
    // (those vertices are farther than g, some farther than `within`);
    // sheet 2 is far above sheet 1 (no vertex rests on it).
    const double g = 0.01, within = 0.015;
    const std::vector<TriangleMesh> sheets { grid_cloth({ 0, 0, 0 }, 0.2, 0.2, 10, 10),
        grid_cloth({ 0.107, g, 0.031 }, 0.2, 0.2, 7, 7), grid_cloth({ 0, 1, 0 }, 0.2, 0.2, 4, 4) };
    Eigen::MatrixXd V(0, 3);
    Eigen::MatrixXi F(0, 3);
    std::vector<std::size_t> sheet;
    for (std::size_t k = 0; k < sheets.size(); ++k) {
        append_mesh(V, F, sheets[k].vertices, sheets[k].faces);
        sheet.resize(std::size_t(V.rows()), k);
    }
    const std::vector<LayerGap> gaps = layer_gaps(V, F, sheet, within);

    // Brute force: each vertex of sheet 1 against every triangle of sheet 0.
    std::vector<double> expected;
    for (Eigen::Index v = 0; v < V.rows(); ++v) {
        if (sheet[std::size_t(v)] != 1) {
            continue;
        }
        double nearest = std::numeric_limits<double>::infinity();
        for (Eigen::Index f = 0; f < F.rows(); ++f) {
            if (sheet[std::size_t(F(f, 0))] == 0) {
                const Eigen::Vector3d p = V.row(v), a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
                nearest = std::min(nearest, std::sqrt(ipc::point_triangle_distance_squared(p, a, b, c)));
            }
        }
        if (nearest < within) {
            expected.push_back(nearest);
        }
    }
    std::sort(expected.begin(), expected.end());
    REQUIRE(expected.size() > 10);
    REQUIRE(expected.size() < std::size_t(sheets[1].vertices.rows())); // some overhang too far

    REQUIRE(gaps.size() == 1);
    CHECK(gaps[0].lower == 0);
    CHECK(gaps[0].upper == 1);
    CHECK(gaps[0].resting == expected.size());
    CHECK(gaps[0].min == expected.front());
    CHECK(gaps[0].min == Approx(g).epsilon(1e-12));
    CHECK(gaps[0].max == expected.back());
    CHECK(gaps[0].max > g);
    const std::size_t m = expected.size() / 2;
    CHECK(gaps[0].median == (expected.size() % 2 == 1 ? expected[m] : 0.5 * (expected[m - 1] + expected[m])));

    sheet.pop_back();
    CHECK_THROWS_AS(layer_gaps(V, F, sheet, within), ipc::invalid_argument);
}

TEST_CASE("Repulsion: without smoothing a falling sheet is held below D K / h, with it it falls freely",
    "[examples][repulsion]")
{
    for (const bool smoothing : { false, true }) {
        CAPTURE(smoothing);
        // h = 0.04 s brings the cap D K / h (5.4 m/s here) within reach of a
        // short fall (the paper's 1.8 m/s comes from its 0.25 mm D at
        // h = 0.01 s).
        RepulsionScene setup = repulsion_scene(make_scene("free_fall"), false, 0.05, 0.04);
        setup.parameters.air_damping = 0;
        if (!smoothing) {
            setup.parameters.init_pieces = 0;
        }
        RepulsionSimulator sim(setup.model, setup.parameters);
        const auto& p = setup.parameters;
        const double cap = p.displacement_cap() * p.collision_steps / p.dt;
        double speed = 0;
        const int steps = 40;
        for (int s = 0; s < steps; ++s) {
            speed = sim.step().mean_speed;
            if (!smoothing) {
                CHECK(speed <= cap * (1 + 1e-9));
            }
        }
        const double free_speed = 9.81 * steps * p.dt;
        REQUIRE(cap < 0.5 * free_speed); // the scene does reach the cap
        if (smoothing) {
            CHECK(speed == Approx(free_speed).epsilon(0.03));
        } else {
            // x[0] = x^t: the stiff coupling holds y near x, and x moves at
            // most D per collision step, so the fall is damped well below
            // free fall (and below the cap).
            CHECK(speed < 0.5 * free_speed);
        }
    }
}

TEST_CASE("Repulsion: a sheet sliding on the ground slows at mu g", "[examples][repulsion]")
{
    // Coulomb's law: resting on the ground, the sheet's normal impulse per
    // step is m g h, so friction takes mu g h off its speed each step until
    // it stops. The sheet starts inside the obstacle band, so friction acts
    // from the first step.
    for (const double mu : { 0.0, 0.3 }) {
        CAPTURE(mu);
        Scene s;
        s.name = "slide";
        const TriangleMesh cloth = grid_cloth({ 0, 0.003, 0 }, 0.2, 0.2, 4, 4);
        const ipc::Index base = s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 0);
        s.model.velocities.middleRows(base, cloth.vertices.rows()).rowwise() = Eigen::RowVector3d(1, 0, 0);
        s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 1.0);
        s.physics.friction = mu;
        RepulsionScene setup = repulsion_scene(s, false, 0.04, 0.01);
        setup.parameters.air_damping = 0;
        REQUIRE(setup.parameters.friction == mu);
        RepulsionSimulator sim(setup.model, setup.parameters);
        const int steps = 20;
        for (int k = 0; k < steps; ++k) {
            sim.step();
        }
        const Eigen::MatrixXd& v = sim.velocities();
        const double slide = v.col(0).mean(), expected = std::max(0.0, 1 - mu * 9.81 * steps * 0.01);
        CHECK(slide == Approx(expected).epsilon(0.05));
        CHECK(v.col(1).cwiseAbs().maxCoeff() < 0.05); // resting, not bouncing
        CHECK(sim.positions().col(1).minCoeff() > 0);
    }
}

TEST_CASE("Repulsion: a sheet sliding on a held sheet slows by at least mu g, and drags a free one along",
    "[examples][repulsion]")
{
    // A small sheet rests on a wide one (on the edge of the repulsion band,
    // where a stack settles) and slides at 1 m/s. Held below, its normal
    // force is its weight, so self-friction takes mu g h off its speed each
    // step (the rough vertex lattice takes some more); mu = 0 leaves it
    // sliding. On a free lower sheet lying on a
    // frictionless ground, friction moves momentum between the sheets: what
    // the upper sheet loses, the lower one gains.
    const double edge = 0.04, ground = 0.003;
    for (const bool held_below : { true, false }) {
        for (const double mu : { 0.0, 0.3 }) {
            CAPTURE(held_below, mu);
            Scene s;
            s.name = "slide_on_sheet";
            const TriangleMesh lower = grid_cloth({ 0, ground, 0 }, 0.8, 0.4, 4, 2);
            s.model.add_shell(lower.vertices, lower.faces, ShellMaterial {}, 0);
            const double gap = 0.98 * repulsion_scene(s, false, edge, 0.01).parameters.collection_radius();
            const TriangleMesh upper = grid_cloth({ -0.2, ground + gap, 0 }, 0.2, 0.2, 2, 2);
            s.model.add_shell(upper.vertices, upper.faces, ShellMaterial {}, 0);
            if (!held_below) {
                s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 1.0);
            }
            s.physics.friction = mu;
            RepulsionScene setup = repulsion_scene(s, false, edge, 0.01);
            REQUIRE(setup.parameters.self_friction == mu);
            setup.parameters.friction = 0; // a frictionless ground
            setup.parameters.air_damping = 0;
            Model& model = setup.model;
            std::vector<ipc::Index> top, bottom;
            for (ipc::Index v = 0; v < model.num_vertices(); ++v) {
                (model.positions(v, 1) > ground + 0.5 * gap ? top : bottom).push_back(v);
            }
            REQUIRE(top.size() > 20);
            REQUIRE(bottom.size() > 100);
            for (const ipc::Index v : top) {
                model.velocities(v, 0) = 1;
            }
            for (const ipc::Index v : bottom) {
                if (held_below) {
                    model.fix(v);
                }
            }
            const auto momentum = [&](const RepulsionSimulator& sim, const std::vector<ipc::Index>& vertices) {
                double sum = 0;
                for (const ipc::Index v : vertices) {
                    sum += sim.model().mass[v] * sim.velocities()(v, 0);
                }
                return sum;
            };
            const auto mass = [&](const std::vector<ipc::Index>& vertices) {
                double sum = 0;
                for (const ipc::Index v : vertices) {
                    sum += model.mass[v];
                }
                return sum;
            };
            RepulsionSimulator sim(model, setup.parameters);
            const double initial = momentum(sim, top);
            const int steps = 20;
            for (int k = 0; k < steps; ++k) {
                sim.step();
            }
            const double slide = momentum(sim, top) / mass(top), dragged = momentum(sim, bottom) / mass(bottom);
            WARN((held_below ? "held" : "free") << " sheet below, mu " << mu << ": the upper sheet slides at " << slide
                                                << " m/s, the lower one at " << dragged << " m/s");
            if (held_below) {
                CHECK(dragged == 0);
                if (mu > 0) {
                    // Friction takes mu g t; the lattice below takes a little
                    // more (0.31 m/s is left where friction alone leaves 0.41).
                    CHECK(slide < 1 - mu * 9.81 * steps * 0.01 + 0.05);
                    CHECK(slide > 0);
                } else {
                    // The sheet hops over the vertex lattice below (pairs
                    // enter and leave the band), and each landing costs some
                    // speed: 0.78 m/s is left after 0.2 s.
                    CHECK(slide > 0.7);
                }
            } else {
                const double lost = initial - momentum(sim, top), gained = momentum(sim, bottom);
                if (mu > 0) {
                    CHECK(slide < 0.6);
                    CHECK(gained > 0.7 * lost); // the rest is lost as on the held sheet
                } else {
                    CHECK(slide > 0.9);
                    CHECK(std::abs(dragged) < 0.01);
                }
            }
            double lowest_top = std::numeric_limits<double>::infinity();
            for (const ipc::Index v : top) {
                lowest_top = std::min(lowest_top, sim.positions()(v, 1));
            }
            CHECK(lowest_top > ground);
        }
    }
}

TEST_CASE("Repulsion: in a resting stack each layer carries the layers above it", "[examples][repulsion]")
{
    // Three equal sheets rest on the ground, each on the edge of the
    // repulsion band of the one below. The friction's normal forces must
    // add up to the whole stack's weight on the ground (3 w), and to 2 w +
    // w over the two interfaces between sheets (a split of each vertex's
    // own force among its pairs would give w + w).
    Scene s;
    s.name = "stack_forces";
    const double edge = 0.04, ground = 0.003;
    s.model.add_shell(grid_cloth({ 0, ground, 0 }, 0.3, 0.3, 2, 2).vertices, grid_cloth({ 0, 0, 0 }, 0.3, 0.3, 2, 2).faces,
        ShellMaterial {}, 0);
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 1.0);
    s.physics.friction = 0.2;
    const double gap = 0.98 * repulsion_scene(s, false, edge, 0.01).parameters.collection_radius();
    for (int layer = 1; layer < 3; ++layer) {
        const TriangleMesh sheet = grid_cloth({ 0, ground + layer * gap, 0 }, 0.3, 0.3, 2, 2);
        s.model.add_shell(sheet.vertices, sheet.faces, ShellMaterial {}, 0);
    }
    const RepulsionScene setup = repulsion_scene(s, false, edge, 0.01);
    RepulsionSimulator sim(setup.model, setup.parameters);
    const double weight = 9.81 * sim.model().mass.sum();
    RepulsionStepStats stats;
    for (int k = 0; k < 30; ++k) {
        stats = sim.step();
    }
    WARN("stack of weight " << weight << " N: ground " << stats.normal_force_obstacles << " N, interfaces "
                            << stats.normal_force_pairs << " N");
    CHECK(stats.mean_speed < 0.01);
    CHECK(stats.normal_force_obstacles == Approx(weight).epsilon(0.03));
    CHECK(stats.normal_force_pairs == Approx(weight).epsilon(0.05)); // (2 w + w) = 3 w = the stack's weight
}

TEST_CASE("Repulsion: the result does not depend on the number of threads", "[examples][repulsion]")
{
    // About 7,000 cloth vertices, so that the elastic gradient takes its
    // parallel path (element groups of more than 1,000).
    const RepulsionScene setup = repulsion_scene(make_scene("hanging_cloth"), false, 0.005);
    REQUIRE(setup.model.num_vertices() > 5000);
    const auto run = [&](int threads, RepulsionDynamics dynamics) {
#if IPC_HAS_OPENMP
        omp_set_num_threads(threads);
#endif
        (void)threads;
        RepulsionParameters p = setup.parameters;
        p.dynamics = dynamics;
        RepulsionSimulator sim(setup.model, p);
        sim.step();
        sim.step();
        return sim.positions();
    };
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
#endif
    for (const RepulsionDynamics dynamics : { RepulsionDynamics::chebyshev, RepulsionDynamics::factored }) {
        CAPTURE(int(dynamics));
        const Eigen::MatrixXd serial = run(1, dynamics), parallel = run(4, dynamics);
        CHECK((serial - setup.model.positions).cwiseAbs().maxCoeff() > 1e-4); // it moved
        CHECK(serial == parallel);
    }
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
}

TEST_CASE("Repulsion: impossible parameters and infeasible starts are rejected", "[examples][repulsion]")
{
    RepulsionScene setup = repulsion_scene(make_scene("hanging_cloth"), false, 0.04);
    RepulsionParameters bad = setup.parameters;
    bad.rest_edge = -1;
    CHECK_THROWS_AS(RepulsionSimulator(setup.model, bad), ipc::invalid_argument);
    bad = setup.parameters;
    bad.chebyshev_rho = 1;
    CHECK_THROWS_AS(RepulsionSimulator(setup.model, bad), ipc::invalid_argument);
    bad = setup.parameters;
    bad.dt = std::nan("");
    CHECK_THROWS_AS(RepulsionSimulator(setup.model, bad), ipc::invalid_argument);
    bad = setup.parameters;
    bad.self_friction = -0.1;
    CHECK_THROWS_WITH(RepulsionSimulator(setup.model, bad), Catch::Contains("self-friction"));
    // A rest edge too short for the mesh: edges start longer than L.
    bad = setup.parameters;
    bad.rest_edge = 0.01;
    CHECK_THROWS_WITH(RepulsionSimulator(setup.model, bad), Catch::Contains("longer than L") || Catch::Contains("long at the start"));
    // Two sheets closer than B + B_t.
    Model two;
    const TriangleMesh a = lattice_cloth({ 0, 0, 0 }, { 0.4, 0, 0 }, { 0, 0, 0.4 }, 0.04);
    two.add_shell(a.vertices, a.faces, ShellMaterial {}, 0);
    Eigen::MatrixXd lifted = a.vertices;
    lifted.col(1).array() += 0.03;
    two.add_shell(lifted, a.faces, ShellMaterial {}, 0);
    CHECK_THROWS_WITH(RepulsionSimulator(two, setup.parameters), Catch::Contains("closer than B + B_t"));
    // A sheet within an obstacle's margin.
    RepulsionParameters with_ground = setup.parameters;
    with_ground.obstacles = { ipc::PlaneObstacle { { 0, -1e-4, 0 }, { 0, 1, 0 } } };
    Model one;
    one.add_shell(a.vertices, a.faces, ShellMaterial {}, 0);
    CHECK_THROWS_WITH(RepulsionSimulator(one, with_ground), Catch::Contains("margin"));
    // Scenes without shapes for their obstacle meshes, and non-cloth bodies.
    CHECK_THROWS_AS(repulsion_scene(make_scene("noodles"), false), ipc::invalid_argument);
    Model rods;
    rods.add_rod(rod_polyline({ 0, 0, 0 }, { 0.1, 0, 0 }, 4), RodMaterial {}, 0);
    CHECK_THROWS_AS(RepulsionSimulator(rods, setup.parameters), ipc::invalid_argument);
}

TEST_CASE("Repulsion: a sheet dragged in its plane keeps every triangle from turning over", "[examples][repulsion]")
{
    // A flat sheet with no gravity, dragged by one scripted vertex at its
    // centre: ahead of it, triangles are squeezed in the sheet's plane.
    // Their vertices are within two rings, so no repelled pair covers them
    // and no hinge is bent; without the turnover bound a thin triangle
    // turned over within a collision step, and its neighbour then crossed a
    // triangle next to it (here from the first step at 0.5 m/s). Every
    // accepted state is checked: the invariants of the other tests, and the
    // exact intersection test of the triangles (a triangle squeezed flat
    // counts as a failure too).
    for (const double speed : { 0.5, 1.0 }) {
        CAPTURE(speed);
        const double edge = 0.01;
        const TriangleMesh sheet = lattice_cloth({ 0, 0, 0 }, { 0.1, 0, 0 }, { 0, 0, 0.1 }, edge);
        Model model;
        model.gravity.setZero();
        const ipc::Index base = model.add_shell(sheet.vertices, sheet.faces, ShellMaterial {}, 0);
        Eigen::Index centre = 0;
        (sheet.vertices.rowwise() - Eigen::RowVector3d(0.05, 0, 0.05)).rowwise().squaredNorm().minCoeff(&centre);
        model.script(base + centre, translation({ speed, 0, 0 }, 0, 0.03 / speed)); // three edges
        RepulsionParameters p;
        p.rest_edge = edge;
        RepulsionSimulator sim(model, p);
        InvariantChecker checker;
        checker.sim = &sim;
        int states = 0, bad_states = 0;
        sim.set_observer([&](const Eigen::MatrixXd& from, const Eigen::MatrixXd& to,
                             const std::vector<Eigen::MatrixXd>& path) {
            checker(from, to, path);
            ++states;
            try {
                bad_states += frame_intersects(sim, to) ? 1 : 0;
            } catch (const ipc::degenerate_geometry&) { // a triangle squeezed flat
                ++bad_states;
            }
        });
        for (int step = 0; step < 10; ++step) {
            sim.step();
        }
        CHECK(states > 0);
        CHECK(bad_states == 0);
        CHECK(checker.separation_failures == 0);
        CHECK(checker.continuous_failures == 0);
        CHECK(checker.edge_failures == 0);
        // The scripted vertex went the whole way: the sheet made room.
        CHECK((sim.positions().row(base + centre) - sheet.vertices.row(centre)).norm()
            == Approx(0.03).epsilon(1e-9));
    }
}
