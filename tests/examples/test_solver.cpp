#include <catch2/catch.hpp>

#include "solver_checks.hpp"

#include <ipc/ipc_scenes.hpp>
#include <ipc/solver.hpp>
#include <ipc/state_file.hpp>

#include <al/al_solver.hpp>

#include <common/scene_builders.hpp>

#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/core/math.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>

using namespace ipc::examples;
using namespace ipc::examples::test;

namespace {

/// Smallest d - xi over every admissible pair of the mesh (not only the
/// active ones), so a pair inside its offset anywhere shows up as <= 0.
double global_min_gap(const Simulator& sim)
{
    // Gaps d - xi of the mesh pairs, and of each free vertex against the
    // analytic obstacles (signed distance - the vertex's radius).
    double d = ipc::minimum_distance(sim.collision_mesh(), sim.positions());
    const ipc::ObstacleSet obstacles = sim.model().obstacle_set();
    const ipc::CollisionMesh& mesh = sim.collision_mesh();
    for (const ipc::Index v : mesh.collision_vertices()) {
        for (ipc::Index k = 0; k < obstacles.size() && !mesh.is_prescribed(v); ++k) {
            d = std::min(d, obstacles.signed_distance(k, sim.positions().row(v).transpose()) - mesh.vertex_radii()[v]);
        }
    }
    return d;
}

/// Runs steps and checks the invariants of every step; returns the largest
/// number of active pairs seen.
std::size_t run_checked(Simulator& sim, int steps)
{
    const auto& p = sim.parameters();
    std::size_t most_contacts = 0;
    for (int s = 0; s < steps; ++s) {
        const StepStats stats = sim.step();
        INFO("step " << s);
        CHECK(ipc::all_finite(sim.positions()));
        CHECK(ipc::all_finite(sim.velocities()));
        CHECK(global_min_gap(sim) > 0);
        CHECK_FALSE(ipc::has_intersections(sim.collision_mesh(), sim.positions()));
        if (stats.min_gap) {
            CHECK(*stats.min_gap > 0);
        }
        if (p.strain_limit && stats.max_strain) {
            CHECK(*stats.max_strain < *p.strain_limit);
        }
        for (const auto& [before, after] : stats.energies) {
            CHECK(after <= before);
        }
        CHECK(stats.newton_iterations >= 1);
        most_contacts = std::max(most_contacts, stats.contacts);
    }
    return most_contacts;
}

} // namespace

TEST_CASE("cloth and particles on an obstacle stay separated and strain-limited", "[examples][solver]")
{
    Model model;
    const TriangleMesh cloth = grid_cloth({ 0, 0.06, 0 }, 0.2, 0.2, 5, 5);
    model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 1e-3);
    model.add_particles(particle_lattice({ -0.01, 0.07, -0.01 }, 0.01, 2, 2, 2), ParticleMaterial {}, 1e-3);
    const TriangleMesh sphere = sphere_mesh({ 0, 0, 0 }, 0.05, 5, 8);
    model.add_obstacle(sphere.vertices, sphere.faces);
    SolverParameters p;
    p.dt = 0.02;
    p.mu = 0.3;
    p.strain_limit = 1.0608;
    p.record_energies = true;
    Simulator sim(model, p);
    run_checked(sim, 10);
    // The cloth came down onto the sphere and touches it.
    CHECK(sim.positions().row(18).y() < 0.06);
    CHECK(sim.minimum_gap(sim.positions()).has_value());
}

TEST_CASE("rods and a soft ball dropped on a board stay separated", "[examples][solver]")
{
    Model model;
    RodMaterial rod;
    model.add_rod(rod_polyline({ -0.05, 0.02, 0 }, { 0.05, 0.02, 0 }, 5), rod, 1e-3);
    model.add_rod(rod_polyline({ 0, 0.03, -0.05 }, { 0, 0.03, 0.05 }, 5), rod, 1e-3);
    const TetMesh ball = ball_tet_mesh({ 0, 0.08, 0 }, 0.03, 2);
    model.add_volume(ball.vertices, ball.tets, VolumeMaterial {}, 0);
    const TriangleMesh board = board_mesh({ 0, 0, 0 }, 0.3, 1);
    model.add_obstacle(board.vertices, board.faces);
    SolverParameters p;
    p.dt = 0.02;
    p.mu = 0.2;
    p.record_energies = true;
    Simulator sim(model, p);
    run_checked(sim, 10);
}

TEST_CASE("an analytic ground plane holds bodies as a meshed board does, with one contact per vertex",
    "[examples][solver][obstacles]")
{
    // A soft block 2 mm above the plane y = 0 falls and comes to rest on it.
    const Model model = block_above_plane();
    SolverParameters p;
    p.dt = 0.02;
    p.mu = 0.3;
    p.record_energies = true;
    Simulator plane(model, p);
    CHECK(run_checked(plane, 15) > 0);
    // At rest: the 9 bottom vertices (and no others) are the contacts, each
    // within dhat of the plane and outside it.
    const StepStats last = plane.step();
    CHECK(last.contacts == 9);
    const Eigen::VectorXd y = plane.positions().col(1);
    CHECK(y.minCoeff() > 0);
    CHECK(y.minCoeff() < p.dhat);
    CHECK(plane.velocities().cwiseAbs().maxCoeff() < 0.02);
    REQUIRE(last.min_gap.has_value());
    CHECK(*last.min_gap == Approx(y.minCoeff()).margin(1e-12)); // reported from the state: gap = height

    // The same plane as a meshed board (2 triangles): the block comes to
    // rest at the same place across the plane, and within dhat of it. The
    // heights differ: the board's corners enlarge the scene's bounding box,
    // from which IPC sets the barrier stiffness, so the gap at rest differs.
    Simulator board(model.with_meshed_obstacles(), p);
    run_checked(board, 16);
    const Eigen::Index n = y.size();
    const Eigen::MatrixXd difference = board.positions().topRows(n) - plane.positions();
    const double board_height = board.positions().topRows(n).col(1).minCoeff();
    INFO("largest |difference| per axis " << difference.cwiseAbs().colwise().maxCoeff() << ", heights above "
        << "the plane " << y.minCoeff() << " and the board " << board_height);
    CHECK(difference.col(0).cwiseAbs().maxCoeff() < 0.1 * p.dhat);
    CHECK(difference.col(2).cwiseAbs().maxCoeff() < 0.1 * p.dhat);
    CHECK(board_height > 0);
    CHECK(board_height < p.dhat);
}

TEST_CASE("an analytic plane stops fast particles exactly (no tunnelling)", "[examples][solver][obstacles]")
{
    // Particles thrown at 30 m/s toward a tilted plane cross it many times
    // over in one step if the CCD misses; they must stay outside their
    // radius and bounce or stop.
    const Model model = particles_thrown_at_plane();
    SolverParameters p;
    p.dt = 0.04;
    p.record_energies = true;
    Simulator sim(model, p);
    CHECK(run_checked(sim, 5) > 0);
    CHECK(thrown_particles_clearance(model, sim.positions()) > 0);
    // A particle started inside the plane is refused with a clear error.
    CHECK_THROWS_AS(Simulator(thrown_particles_started_inside(), p), ipc::penetration);
}

TEST_CASE("every scene of the example program keeps its invariants at its small size", "[examples][solver][scenes]")
{
    // The five scenes of ipc_sim, each for its default number of frames:
    // every step intersection-free, every pair outside its offset, strains
    // under the limit, energy decreasing in every Newton iteration.
    for (const std::string name : { "cloth_on_sphere", "cloth_stack", "noodles", "granules", "all_in" }) {
        INFO("scene " << name);
        Scene scene = make_scene(name);
        SolverParameters p = ipc_parameters(scene);
        p.record_energies = true;
        Simulator sim(scene.model, p);
        // Something touched something: the checks were not vacuous.
        CHECK(run_checked(sim, scene.frames) > 0);
    }
}

TEST_CASE("the AL paper's scenes keep their invariants for their first steps", "[examples][solver][scenes]")
{
    // Under the IPC solver (press, momentum and arch have their own tests);
    // each run reaches contact.
    struct Run {
        const char* scene;
        int steps;
    };
    for (const Run run : { Run { "well", 2 }, Run { "chains", 5 }, Run { "compress", 3 }, Run { "twist_cloth", 12 } }) {
        INFO("scene " << run.scene);
        const Scene scene = make_scene(run.scene);
        SolverParameters p = ipc_parameters(scene);
        p.record_energies = true;
        Simulator sim(scene.model, p);
        CHECK(run_checked(sim, run.steps) > 0);
    }
}

TEST_CASE("a block on an incline sticks when mu >= tan(angle) and slides otherwise", "[examples][solver]")
{
    // The AL paper's threshold test (as the AL solver's): tan(angle) = 0.5,
    // 10% margins either side, eps_v = 1e-5 m/s.
    const double angle = std::atan(0.5);
    const double g = 9.81;
    for (const double mu : { 0.55, 0.45 }) {
        Scene scene = incline(angle, mu);
        SolverParameters p = ipc_parameters(scene);
        p.eps_v = 1e-5;
        p.friction_iterations = 3;
        Simulator sim(scene.model, p);
        const InclineMotion m = incline_motion(sim, angle, 16, [](Simulator& s) { s.step(); });
        INFO("mu = " << mu << ": moved " << m.along << " m along the slope, final speed " << m.speed
                     << " m/s, acceleration " << m.acceleration << " m/s^2");
        if (mu >= 0.5) {
            CHECK(std::abs(m.along) < 1e-3);
            CHECK(std::abs(m.speed) < 1e-4);
        } else {
            const double a = g * (std::sin(angle) - mu * std::cos(angle));
            CHECK(m.along > 0);
            CHECK(m.acceleration == Approx(a).epsilon(0.05));
        }
        CHECK(global_min_gap(sim) > 0);
    }
}

TEST_CASE("lagged friction stops updating once a pass starts converged", "[examples][solver]")
{
    // An IPC script's fricIterAmt <= 0 asks for lagged updates until they
    // converge (at most 20). Each pass is a Newton solve that needs
    // converged_iterations (3) iterations below eps_d, so running all 20
    // passes costs at least 60 iterations per step. The lagging stops once a
    // pass's first iterate already meets the termination test: then the
    // re-lagged problem is solved at the current state.
    const double angle = std::atan(0.5);
    Scene scene = incline(angle, 0.55); // sticks: the lagged forces settle
    SolverParameters p = ipc_parameters(scene);
    p.eps_v = 1e-5;
    p.friction_iterations = 20;
    Simulator sim(scene.model, p);
    int steps = 0, iterations = 0, passes = 0;
    const InclineMotion m = incline_motion(sim, angle, 8, [&](Simulator& s) {
        const StepStats stats = s.step();
        CHECK(stats.converged);
        CHECK(stats.friction_passes >= 2); // the first pass's solution is always re-lagged once
        CHECK(stats.friction_passes < p.friction_iterations);
        ++steps;
        iterations += stats.newton_iterations;
        passes += stats.friction_passes;
    });
    INFO(iterations << " Newton iterations and " << passes << " friction passes in " << steps << " steps");
    CHECK(double(iterations) / steps < 20.0); // all 20 passes: at least 60
    // The block still sticks, as in the incline test.
    CHECK(std::abs(m.along) < 1e-3);
    CHECK(std::abs(m.speed) < 1e-4);
    CHECK(global_min_gap(sim) > 0);
}

namespace {

/// A small version of `all_in` made dense: 300 particles (5 x 12 x 5, 1 cm
/// apart) land on a cloth lying over a soft ball and crossed rods, without
/// friction. Once the column lands, most Newton directions of the plain
/// method drive pairs that are not yet within dhat into one another, and
/// CCD cuts the step to the first of them.
Model dense_landing()
{
    Model model;
    const double r = 2.5e-4;
    model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.5);
    const TetMesh ball = ball_tet_mesh({ 0, 0.07, 0 }, 0.06, 4);
    model.add_volume(ball.vertices, ball.tets, VolumeMaterial { 1000, 1e5, 0.4 }, r);
    const TriangleMesh cloth = grid_cloth({ 0, 0.16, 0 }, 0.3, 0.3, 20, 20);
    model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, r);
    RodMaterial rod;
    rod.radius = 1e-3;
    for (int i = 0; i < 4; ++i) {
        const double across = 0.2 * ((i + 0.5) / 4 - 0.5);
        model.add_rod(rod_polyline({ -0.12, 0.19, across }, { 0.12, 0.19, across }, 12), rod, r);
        model.add_rod(rod_polyline({ across, 0.2, -0.12 }, { across, 0.2, 0.12 }, 12), rod, r);
    }
    model.add_particles(particle_lattice({ -0.01, 0.22, -0.01 }, 0.01, 5, 12, 5), ParticleMaterial {}, r);
    return model;
}

} // namespace

TEST_CASE("contact look-ahead: a dense landing converges within a cap the plain method reaches",
    "[examples][solver][look_ahead]")
{
    // Measured (g++ -O2, 2 threads): the plain method needs 85 and 97
    // Newton iterations in steps 9 and 10; with look-ahead no step of the
    // first 12 needs more than 50 (307 in all).
    SolverParameters p;
    p.dt = 0.02;
    p.dhat = 1e-3;
    p.strain_limit = 1.0608;
    p.max_newton_iterations = 75;
    const int steps = 12;

    p.contact_look_ahead = true;
    Simulator sim(dense_landing(), p);
    int iterations = 0, most = 0, cut = 0, stiffened = 0;
    for (int s = 0; s < steps; ++s) {
        const StepStats stats = sim.step();
        INFO("step " << s << ": " << stats.newton_iterations << " Newton iterations");
        CHECK(stats.converged);
        CHECK(stats.min_gap.value_or(1) > 0);
        CHECK(*stats.max_strain < *p.strain_limit);
        iterations += stats.newton_iterations;
        most = std::max(most, stats.newton_iterations);
        cut += stats.cut_iterations;
        stiffened += stats.look_ahead_solves;
    }
    INFO(iterations << " Newton iterations, at most " << most << " in a step");
    CHECK(global_min_gap(sim) > 0);
    CHECK_FALSE(ipc::has_intersections(sim.collision_mesh(), sim.positions()));
    CHECK(stiffened > 0); // the look-ahead did act
    CHECK(cut > 0);

    // The plain method on the same scene reaches the cap: the bound above
    // fails for it.
    p.contact_look_ahead = false;
    Simulator plain(dense_landing(), p);
    bool capped = false;
    for (int s = 0; s < steps && !capped; ++s) {
        const StepStats stats = plain.step();
        CHECK(stats.look_ahead_solves == 0);
        capped = !stats.converged;
    }
    CHECK(capped);
}

TEST_CASE("a cloth pinned at two corners keeps its strain limit while hanging", "[examples][solver]")
{
    auto run = [](std::optional<double> limit) {
        Scene scene = hanging_cloth(false);
        SolverParameters p = ipc_parameters(scene);
        p.strain_limit = limit;
        Simulator sim(scene.model, p);
        double worst = 0;
        for (int s = 0; s < 8; ++s) {
            const StepStats stats = sim.step();
            REQUIRE(stats.max_strain.has_value());
            worst = std::max(worst, *stats.max_strain);
            if (limit) {
                CHECK(*stats.max_strain < *limit);
            }
        }
        return worst;
    };
    const double limited = run(1.0608);
    const double free = run(std::nullopt);
    // Without the limit the soft membrane overstretches, so the limit is doing work.
    CHECK(free > 1.0608);
    CHECK(limited < 1.0608);
    CHECK(limited > 1.0);
}

TEST_CASE("solver rejects bad parameters and infeasible starts", "[examples][solver]")
{
    Model model;
    model.add_particles(particle_lattice({ 0, 0, 0 }, 1e-3, 2, 1, 1), ParticleMaterial {}, 1e-3); // overlapping offsets
    SolverParameters p;
    CHECK_THROWS_AS(Simulator(model, p), ipc::penetration);
    Model ok;
    ok.add_particles(particle_lattice({ 0, 0, 0 }, 1e-2, 2, 1, 1), ParticleMaterial {}, 1e-3);
    p.dt = -1;
    CHECK_THROWS_AS(Simulator(ok, p), ipc::invalid_argument);
    p.dt = 0.01;
    p.dhat = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(Simulator(ok, p), ipc::invalid_argument);
    CHECK_THROWS_AS(make_scene("no_such_scene"), ipc::invalid_argument);
    Model bad;
    Eigen::MatrixXd V(1, 3);
    V << 0, std::numeric_limits<double>::infinity(), 0;
    CHECK_THROWS_AS(bad.add_particles(V, ParticleMaterial {}, 0), ipc::invalid_argument);
}

TEST_CASE("cumulative-TOI termination: k_min iterations without contact, invariants with contact",
          "[examples][solver][termination]")
{
    Scene scene = make_scene("granules");
    SolverParameters p = ipc_parameters(scene);
    p.termination = SolverParameters::Termination::toi;
    p.toi_k_min = 2;
    Simulator sim(scene.model, p);
    // The particles start in free fall above the cloth: full steps only.
    const StepStats first = sim.step();
    CHECK(first.contacts == 0);
    CHECK(first.newton_iterations == 2);
    CHECK(first.converged);
    // Into contact: still separated and intersection-free.
    const std::size_t most = run_checked(sim, 25);
    CHECK(most > 0);
}

TEST_CASE("IPC: the masonry arch stands with mu = 0.5 and falls without friction", "[examples][solver][arch]")
{
    double drop[2] = { 0, 0 };
    for (const int frictional : { 1, 0 }) {
        const Scene scene = arch(false, frictional ? 0.5 : 0.0);
        Simulator sim(scene.model, ipc_parameters(scene));
        run_checked(sim, 15); // the joints close
        const Eigen::MatrixXd settled = sim.positions();
        run_checked(sim, 15);
        drop[frictional] = largest_drop(settled, sim.positions());
    }
    INFO("arch drop over 0.15 s after settling: mu = 0.5: " << drop[1] << " m, mu = 0: " << drop[0] << " m");
    CHECK(drop[1] < 1e-3);
    CHECK(drop[0] > 1e-2);
}

TEST_CASE("IPC: two soft blocks colliding keep their linear momentum", "[examples][solver]")
{
    for (const double friction : { 0.0, 0.5 }) {
        INFO("friction " << friction);
        Scene scene = make_scene("momentum");
        scene.physics.friction = friction;
        Simulator sim(scene.model, ipc_parameters(scene));
        const Eigen::Vector3d before = linear_momentum(sim);
        CHECK(run_checked(sim, 8) > 0); // they collide
        const Eigen::Vector3d after = linear_momentum(sim);
        INFO("momentum before " << before.transpose() << ", after " << after.transpose());
        CHECK((after - before).norm() <= 1e-4 * before.norm());
    }
}

TEST_CASE("IPC: a scripted press that meets resistance is pulled to its targets", "[examples][solver][scripted]")
{
    // The press plate reaches the balls at about step 3 and must then push
    // them: CCD alone would stop it where it first touches. The last 9
    // vertices of the scene are the plate's (a 2 x 2 grid).
    const Scene scene = make_scene("press");
    SolverParameters p = ipc_parameters(scene);
    SECTION("residual termination (the default)") { }
    SECTION("max-norm termination (imported IPC scripts)")
    {
        // Newton stops once |p|_inf / h < eps_d, before the step: a pull
        // whose remaining distance is below eps_d h must still be taken.
        // The plate moves about 2.6 mm a step; eps_d h = 5 mm.
        p.termination = SolverParameters::Termination::max_norm;
        p.newton_tolerance = 0.5;
    }
    Simulator sim(scene.model, p);
    const ipc::Index plate = sim.positions().rows() - 9;
    const double top_start = sim.positions()(plate, 1);
    double least_progress = 1;
    const int steps = int(std::lround(0.24 / p.dt));
    for (int s = 0; s < steps; ++s) {
        const StepStats stats = sim.step();
        least_progress = std::min(least_progress, stats.script_progress);
        INFO("step " << s);
        CHECK(stats.converged);
        CHECK_FALSE(ipc::has_intersections(sim.collision_mesh(), sim.positions()));
        CHECK(global_min_gap(sim) > 0);
    }
    CHECK(least_progress >= 0.999);
    // At t = 0.24 s the plate is 80% of the way from 11.2 cm down to a third
    // of the balls' 10 cm height.
    const double expected_drop = 0.8 * (top_start - 2 * 0.05 / 3);
    CHECK(top_start - sim.positions()(plate, 1) == Approx(expected_drop).margin(1e-3 * expected_drop));
}

TEST_CASE("IPC: a run restored from its saved state goes on bit for bit", "[examples][solver][state]")
{
    // cloth_on_sphere: friction, obstacles and the strain limit; press: a
    // scripted plate pulled into the balls. Each runs 2 x split steps in one
    // go, and split + split through a state file read into a fresh simulator.
    struct Case {
        std::string scene;
        int split;
    };
    for (const Case& c : { Case { "cloth_on_sphere", 4 }, Case { "press", 4 } }) {
        INFO("scene " << c.scene);
        const Scene scene = make_scene(c.scene);
        const SolverParameters p = ipc_parameters(scene);
        Simulator whole(scene.model, p), first(scene.model, p);
        for (int s = 0; s < 2 * c.split; ++s) {
            whole.step();
        }
        for (int s = 0; s < c.split; ++s) {
            first.step();
        }
        const StateFileRun run { scene.name, scene.model.num_vertices(), p.dt, p.dhat };
        const std::filesystem::path path = std::filesystem::temp_directory_path()
            / ("ipc_state_" + std::to_string(std::random_device {}()) + ".json");
        write_state_file(path.string(), run, first.state());
        const SimulatorState saved = read_state_file(path.string(), run);
        std::filesystem::remove(path);
        CHECK(saved.steps == c.split);
        CHECK(saved.time == first.time());
        CHECK(saved.positions == first.positions());
        CHECK(saved.velocities == first.velocities());
        CHECK(saved.strain_stiffness == first.state().strain_stiffness);

        Simulator second(scene.model, p);
        second.restore(saved);
        for (int s = 0; s < c.split; ++s) {
            second.step();
        }
        CHECK(second.state().steps == 2 * c.split);
        CHECK(second.time() == whole.time());
        CHECK(second.positions() == whole.positions());
        CHECK(second.velocities() == whole.velocities());
        CHECK(second.state().strain_stiffness == whole.state().strain_stiffness);
    }

    // The strain-limit stiffness is part of the state: a restored one is
    // kept, not reset to the initial value.
    const Scene cloth = make_scene("cloth_on_sphere");
    const SolverParameters p = ipc_parameters(cloth);
    Simulator sim(cloth.model, p);
    sim.step();
    SimulatorState s = sim.state();
    s.strain_stiffness = 4 * p.strain_stiffness;
    Simulator restored(cloth.model, p);
    restored.restore(s);
    CHECK(restored.state().strain_stiffness == 4 * p.strain_stiffness);
    restored.step();
    CHECK(restored.state().strain_stiffness >= 4 * p.strain_stiffness);
}

TEST_CASE("IPC: a state that does not fit the run is refused, naming why", "[examples][solver][state]")
{
    const Scene scene = make_scene("press");
    const SolverParameters p = ipc_parameters(scene);
    Simulator sim(scene.model, p);
    sim.step();
    const SimulatorState good = sim.state();
    const auto refused = [&](SimulatorState s, const std::string& part) {
        Simulator fresh(scene.model, p);
        CHECK_THROWS_WITH(fresh.restore(s), Catch::Contains(part));
    };
    SimulatorState s = good;
    s.positions.conservativeResize(s.positions.rows() - 1, 3);
    refused(s, "the model has");
    s = good;
    s.velocities(3, 1) = std::numeric_limits<double>::quiet_NaN();
    refused(s, "not all finite");
    s = good;
    s.time = -1;
    refused(s, "time");
    s = good;
    s.strain_stiffness = 0;
    refused(s, "strain-limit stiffness");
    s = good;
    s.scripts_released = true; // press has no release rule
    refused(s, "no release rule");
    s = good;
    s.positions.row(0) = s.positions.row(s.positions.rows() - 1); // a ball vertex onto the plate
    Simulator fresh(scene.model, p);
    CHECK_THROWS_AS(fresh.restore(s), ipc::penetration);
    // The refused state left nothing behind: the simulator steps as a new one.
    Simulator untouched(scene.model, p);
    fresh.step();
    untouched.step();
    CHECK(fresh.positions() == untouched.positions());
    CHECK(fresh.state().steps == 1);

    // Files of another run, and files that are not state files.
    const std::filesystem::path path = std::filesystem::temp_directory_path()
        / ("ipc_state_" + std::to_string(std::random_device {}()) + ".json");
    const StateFileRun run { scene.name, scene.model.num_vertices(), p.dt, p.dhat };
    write_state_file(path.string(), run, good);
    CHECK_THROWS_WITH(read_state_file(path.string(), { "well", run.vertices, run.dt, run.dhat }),
        Catch::Contains("scene 'press'"));
    CHECK_THROWS_WITH(read_state_file(path.string(), { run.scene, run.vertices + 1, run.dt, run.dhat }),
        Catch::Contains("vertices"));
    CHECK_THROWS_WITH(read_state_file(path.string(), { run.scene, run.vertices, 2 * run.dt, run.dhat }),
        Catch::Contains("time step"));
    {
        std::ofstream(path) << "{\"format\": \"something else\"}";
    }
    CHECK_THROWS_WITH(read_state_file(path.string(), run), Catch::Contains("not an ipc_sim state file"));
    {
        std::ofstream(path) << "{ not json";
    }
    CHECK_THROWS_WITH(read_state_file(path.string(), run), Catch::Contains("not a valid JSON document"));
    std::filesystem::remove(path);
    CHECK_THROWS_WITH(read_state_file(path.string(), run), Catch::Contains("cannot open"));
}

TEST_CASE("IPC: a scripted vertex does not drag its tets into inversion", "[examples][solver][scripted]")
{
    // A tet split at an interior vertex into four neo-Hookean tets (infinite
    // energy when inverted); the interior vertex is scripted out through a
    // face in one step. No contact pair involves it, so CCD does not shorten
    // the move: the scripted move itself must be shortened. With the
    // max-norm rule the solver used to start Newton from the inverted state,
    // find no direction and accept it.
    Model model;
    Eigen::MatrixXd V(5, 3);
    V << 0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1, 0.025, 0.025, 0.025;
    Eigen::MatrixXi T(4, 4);
    T << 4, 1, 2, 3, 0, 4, 2, 3, 0, 1, 4, 3, 0, 1, 2, 4;
    VolumeMaterial material;
    material.model = VolumeModel::neo_hookean;
    model.add_volume(V, T, material, 0);
    model.gravity.setZero();
    model.script(4, translation(Eigen::Vector3d(0, 0, -5))); // 10 cm a step, through the face z = 0
    SolverParameters p;
    p.dt = 0.02;
    p.termination = SolverParameters::Termination::max_norm;
    p.newton_tolerance = 1e-2 * 0.1;
    Simulator sim(model, p);
    const auto volume = [&](int t) {
        const Eigen::MatrixXd& x = sim.positions();
        const Eigen::Vector3d a = x.row(T(t, 0)).transpose(), b = x.row(T(t, 1)).transpose(),
                              c = x.row(T(t, 2)).transpose(), d = x.row(T(t, 3)).transpose();
        return (b - a).cross(c - a).dot(d - a) / 6;
    };
    for (int t = 0; t < 4; ++t) {
        REQUIRE(volume(t) > 0);
    }
    for (int s = 0; s < 3; ++s) {
        sim.step();
        INFO("step " << s << ", positions\n" << sim.positions());
        for (int t = 0; t < 4; ++t) {
            CHECK(volume(t) > 0);
        }
    }
}

TEST_CASE("both solvers free scripted vertices for good once the release rule holds", "[examples][solver][al]")
{
    // Two particles lifted at 1 m/s, released once both are above 4.5 cm:
    // at the start of the step after t = 0.05 s (dt = 0.01 s). Then they
    // fly freely from 1 m/s upward, and without the rule they stay on the
    // path.
    const double dt = 0.01, g = 9.81;
    const auto lifted = [](bool release) {
        Model model;
        model.add_particles(particle_lattice({ 0, 0, 0 }, 0.5, 2, 1, 1), ParticleMaterial {}, 1e-3);
        MotionSegment up;
        up.velocity = Eigen::Vector3d(0, 1, 0);
        for (ipc::Index v = 0; v < 2; ++v) {
            model.script(v, ScriptedMotion { { up } });
        }
        if (release) {
            model.release = Model::Release { 1, 0.045 };
        }
        return model;
    };
    const auto check = [&](auto& sim, bool release) {
        for (int s = 0; s < 25; ++s) {
            sim.step();
        }
        const double t = sim.time();
        if (release) {
            // Free from t = 0.05 s at 1 m/s: implicit Euler loses g dt per step.
            CHECK(sim.model().scripted.empty());
            CHECK(sim.velocities()(0, 1) == Approx(1 - g * (t - 0.05)).margin(1e-9));
            CHECK(sim.velocities()(1, 1) == Approx(1 - g * (t - 0.05)).margin(1e-9));
        } else {
            CHECK(sim.positions()(0, 1) == Approx(t).margin(1e-12));
            CHECK(sim.velocities()(1, 1) == Approx(1).margin(1e-9));
        }
    };
    for (const bool release : { true, false }) {
        INFO("release rule " << release);
        SolverParameters p;
        p.dt = dt;
        Simulator ipc_sim(lifted(release), p);
        check(ipc_sim, release);
        AlParameters q;
        q.dt = dt;
        AlSimulator al_sim(lifted(release), q);
        check(al_sim, release);
    }
}
