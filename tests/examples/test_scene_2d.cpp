#include <catch2/catch.hpp>

#include <finite_differences.hpp>

#include <ipc/scenes_2d.hpp>
#include <ipc/solver_2d.hpp>

#include <common/elasticity_2d.hpp>
#include <common/frame_output_2d.hpp>
#include <common/model_2d.hpp>

#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using namespace ipc::examples;

namespace scene_2d_test {

/// A one-square model above a floor edge, for the bad-input checks.
Model2D square_on_floor(double height)
{
    Model2D m;
    Eigen::MatrixXd floor(2, 2);
    floor << -1, 0, 1, 0;
    m.add_obstacle(floor, (Eigen::MatrixXi(1, 2) << 0, 1).finished(), 0.001);
    const Mesh2D square = grid_mesh_2d(2, 2, 0.05);
    Eigen::MatrixXd V = square.V;
    V.col(1).array() += height;
    m.add_soft_body(V, square.T, 1e5, 0.3, 1000, 0.001);
    return m;
}

SolverParameters small_parameters()
{
    SolverParameters p;
    p.dt = 0.01;
    p.dhat = 1e-3;
    return p;
}

} // namespace scene_2d_test

TEST_CASE("2D stable neo-Hookean and springs: rest state and central differences", "[examples][2d][elasticity]")
{
    using namespace scene_2d_test;
    const Eigen::Vector2d X0(0.1, -0.2), X1(0.5, 0.0), X2(0.2, 0.35);
    const auto rest = triangle_rest_2d<double>(X0, X1, X2);
    CHECK(rest.area == Approx(0.5 * std::abs((X1 - X0).x() * (X2 - X0).y() - (X1 - X0).y() * (X2 - X0).x())));
    const Eigen::Vector2d lame = lame_parameters_2d(1e5, 0.3);
    const double mu = lame[0], lambda = lame[1];
    ipc::Vector<double, 6> x_rest;
    x_rest << X0, X1, X2;

    // Zero energy and gradient at rest, and after a rigid motion.
    const double angle = 0.7;
    const Eigen::Matrix2d R = (Eigen::Matrix2d() << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle))
                                  .finished();
    ipc::Vector<double, 6> x_rigid;
    for (int a = 0; a < 3; ++a) {
        x_rigid.segment<2>(2 * a) = R * x_rest.segment<2>(2 * a) + Eigen::Vector2d(0.3, -1.0);
    }
    for (const auto& x : { x_rest, x_rigid }) {
        CHECK(std::abs(neo_hookean_2d_energy(x, rest, mu, lambda)) < 1e-9);
        CHECK(neo_hookean_2d_gradient(x, rest, mu, lambda).norm() < 1e-8);
    }

    // Linearisation: a small uniform stretch costs the linear-elastic energy
    // (mu |eps|^2 + lambda/2 tr(eps)^2) * area with Lame (mu, lambda).
    const double e = 1e-5;
    ipc::Vector<double, 6> x_stretched = x_rest;
    for (int a = 0; a < 3; ++a) {
        x_stretched[2 * a] *= 1 + e;
    }
    CHECK(neo_hookean_2d_energy(x_stretched, rest, mu, lambda)
        == Approx((mu * e * e + 0.5 * lambda * e * e) * rest.area).epsilon(1e-3));

    // Random deformations, inverted ones included: central differences.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(-0.15, 0.15);
    for (int trial = 0; trial < 6; ++trial) {
        ipc::Vector<double, 6> x = x_rest;
        for (int i = 0; i < 6; ++i) {
            x[i] += jitter(rng);
        }
        if (trial == 5) { // inverted: the third corner across the first edge
            x.segment<2>(4) = x.segment<2>(0) - 0.6 * (x.segment<2>(4) - x.segment<2>(0));
        }
        const auto E = [&](const Eigen::VectorXd& y) { return neo_hookean_2d_energy<double>(y, rest, mu, lambda); };
        const auto G = [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(neo_hookean_2d_gradient<double>(y, rest, mu, lambda));
        };
        const ipc::Vector<double, 6> g = G(x);
        const ipc::Matrix<double, 6, 6> H = neo_hookean_2d_hessian(x, rest, mu, lambda);
        INFO("trial " << trial);
        CHECK(ipc::test::fd_close(g, ipc::test::fd_gradient(E, x), 1e-6));
        CHECK(ipc::test::fd_close(H, ipc::test::fd_jacobian(G, x), 1e-6));
        CHECK((H - H.transpose()).norm() <= 1e-9 * H.norm());
        CHECK(std::isfinite(E(x)));
    }

    // Springs: stretched and compressed.
    const double L = 0.3, k = 1e4;
    for (const double s : { 1.2, 0.7 }) {
        ipc::Vector<double, 4> x;
        x << 0.1, 0.2, 0.1 + s * L * 0.6, 0.2 + s * L * 0.8;
        const auto E = [&](const Eigen::VectorXd& y) { return spring_2d_energy<double>(y, L, k); };
        const auto G = [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(spring_2d_gradient<double>(y, L, k)); };
        CHECK(E(x) == Approx(k / (2 * L) * (s * L - L) * (s * L - L)));
        const ipc::Vector<double, 4> g = G(x);
        const ipc::Matrix<double, 4, 4> H = spring_2d_hessian(x, L, k);
        CHECK(ipc::test::fd_close(g, ipc::test::fd_gradient(E, x, 1e-7), 1e-6));
        CHECK(ipc::test::fd_close(H, ipc::test::fd_jacobian(G, x, 1e-7), 1e-6));
    }
}

TEST_CASE("2D shapes: grids, L shapes and discs cover their areas", "[examples][2d][scenes]")
{
    const auto area = [](const Mesh2D& m) {
        double a = 0;
        for (Eigen::Index t = 0; t < m.T.rows(); ++t) {
            const auto r = triangle_rest_2d<double>(m.V.row(m.T(t, 0)).transpose(), m.V.row(m.T(t, 1)).transpose(),
                m.V.row(m.T(t, 2)).transpose());
            a += r.area;
        }
        return a;
    };
    const Mesh2D square = grid_mesh_2d(4, 3, 0.1);
    CHECK(square.V.rows() == 20);
    CHECK(square.T.rows() == 24);
    CHECK(area(square) == Approx(0.4 * 0.3));
    const Mesh2D l = grid_mesh_2d(4, 4, 0.1, [](int i, int j, int nx, int ny) { return i < nx / 2 || j < ny / 2; });
    CHECK(l.T.rows() == 24);
    CHECK(l.V.rows() == 25 - 4); // the 2 x 2 missing cells leave 4 vertices out
    CHECK(area(l) == Approx(0.12));
    const Mesh2D disc = disc_mesh_2d(0.5, 3, 16);
    CHECK(disc.V.rows() == 1 + 3 * 16);
    const double pi = std::acos(-1.0);
    CHECK(area(disc) == Approx(0.5 * 16 * 0.25 * std::sin(2 * pi / 16)).epsilon(0.02)); // the 16-gon
    CHECK_THROWS_AS(grid_mesh_2d(0, 2, 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(disc_mesh_2d(-1, 2, 8), ipc::invalid_argument);
}

TEST_CASE("boxes_2d: bodies and rope fall into the box, touch it and stay apart", "[examples][2d][solver]")
{
    using namespace scene_2d_test;
    Scene2D scene = make_scene_2d("boxes_2d");
    CHECK(scene.description.find("2D") != std::string::npos);
    SolverParameters p = scene.parameters;
    p.record_energies = true;
    Simulator2D sim(scene.model, p);
    const auto& m = sim.model();
    const Eigen::MatrixXd x0 = sim.positions();
    const double total_mass = m.mass.sum(), g = m.gravity.norm();
    const double energy0 = sim.kinetic_energy() + sim.gravity_energy(x0) + sim.elastic_energy(x0);
    double half_width = 0, wall_height = 0; // of the box, from its fixed vertices
    for (Eigen::Index v = 0; v < x0.rows(); ++v) {
        if (m.fixed[std::size_t(v)]) {
            half_width = std::max(half_width, std::abs(x0(v, 0)));
            wall_height = std::max(wall_height, x0(v, 1));
        }
    }
    REQUIRE(half_width > 0.3);
    const double offset = scene.offset;
    std::size_t contacts = 0;
    for (int step = 0; step < 15; ++step) {
        const StepStats s = sim.step();
        const Eigen::MatrixXd& x = sim.positions();
        INFO("step " << step << ": " << s.newton_iterations << " Newton iterations, " << s.contacts << " contacts");
        REQUIRE(ipc::all_finite(x));
        CHECK(s.converged);
        CHECK_FALSE(ipc::has_intersections(sim.collision_mesh(), x));
        // Every pair, active or not, is clear of its offset.
        CHECK(ipc::minimum_distance(sim.collision_mesh(), x) > 0);
        if (s.min_gap) {
            CHECK(*s.min_gap > 0);
        }
        for (Eigen::Index v = 0; v < x.rows(); ++v) {
            if (m.fixed[std::size_t(v)]) {
                CHECK(x.row(v) == x0.row(v));
                continue;
            }
            CHECK(x(v, 1) > offset); // above the floor
            if (x(v, 1) < wall_height) {
                CHECK(std::abs(x(v, 0)) < half_width - offset); // between the walls
            }
        }
        for (const auto& [before, after] : s.energies) {
            CHECK(after <= before); // the line search accepts decreases only
        }
        CHECK(s.energies.size() <= std::size_t(s.newton_iterations));
        // Implicit Euler, friction and the barrier dissipate or store energy:
        // the mechanical energy never grows (1% of m g * 1 m slack).
        const double energy = sim.kinetic_energy() + sim.gravity_energy(x) + sim.elastic_energy(x);
        CHECK(energy <= energy0 + 0.01 * total_mass * g);
        contacts = s.contacts;
    }
    // By now the lowest bodies have landed on the floor (0.15 s of falling).
    CHECK(contacts > 0);
    double lowest = std::numeric_limits<double>::infinity();
    for (Eigen::Index v = 0; v < sim.positions().rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::volume) {
            lowest = std::min(lowest, sim.positions()(v, 1));
        }
    }
    CHECK(lowest < offset + 2 * p.dhat);
}

TEST_CASE("boxes_2d frames: OBJ with faces and lines at z = 0, and a PNG", "[examples][2d][output]")
{
    const Scene2D scene = make_scene_2d("boxes_2d");
    const auto dir = std::filesystem::temp_directory_path()
        / ("ipc_examples_scene_2d_" + std::to_string(std::random_device {}()));
    std::filesystem::create_directories(dir);
    const std::string obj = (dir / "frame.obj").string(), png = (dir / "frame.png").string();
    write_frame_2d(obj, scene.model, scene.model.positions);
    render_frame_2d(png, scene.model, scene.model.positions, scene.name, scene.view_center, scene.view_height, 0, 0.0, 0);
    std::ifstream in(obj);
    std::string line;
    std::size_t vertices = 0, faces = 0, lines = 0;
    bool flat = true;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string tag;
        words >> tag;
        if (tag == "v") {
            double x, y, z;
            words >> x >> y >> z;
            flat = flat && z == 0;
            ++vertices;
        }
        faces += tag == "f" ? 1 : 0;
        lines += tag == "l" ? 1 : 0;
    }
    CHECK(flat);
    CHECK(vertices == std::size_t(scene.model.num_vertices()));
    CHECK(faces == scene.model.triangles.size());
    CHECK(lines == scene.model.springs.size() + 3); // rope segments and the box's three edges
    std::ifstream picture(png, std::ios::binary);
    char signature[8] = {};
    picture.read(signature, 8);
    CHECK(std::string(signature + 1, 3) == "PNG");
    CHECK_THROWS_AS(write_frame_2d(obj, scene.model, Eigen::MatrixXd::Zero(3, 2)), ipc::invalid_argument);
    std::filesystem::remove_all(dir);
}

TEST_CASE("Simulator2D and the 2D builders reject bad input", "[examples][2d][errors]")
{
    using namespace scene_2d_test;
    using Catch::Matchers::Contains;
    const SolverParameters p = small_parameters();
    CHECK_NOTHROW(Simulator2D(square_on_floor(0.01), p));

    // Initially intersecting: the square straddles the floor.
    CHECK_THROWS_AS(Simulator2D(square_on_floor(-0.02), p), ipc::penetration);
    // Inside the offset (radii 1 mm each, 1 mm apart).
    CHECK_THROWS_AS(Simulator2D(square_on_floor(0.001), p), ipc::penetration);

    Model2D nan = square_on_floor(0.01);
    nan.positions(3, 0) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(Simulator2D(nan, p), Contains("Simulator2D") && Contains("positions"));

    Model2D degenerate = square_on_floor(0.01);
    degenerate.positions.row(degenerate.triangles[0].vertices[2]) = degenerate.positions.row(degenerate.triangles[0].vertices[1]);
    CHECK_THROWS_AS(Simulator2D(degenerate, p), ipc::invalid_argument);

    Model2D index = square_on_floor(0.01);
    index.triangles[1].vertices[0] = 99;
    CHECK_THROWS_WITH(Simulator2D(index, p), Contains("triangle 1") && Contains("out of range"));

    Model2D massless = square_on_floor(0.01);
    massless.mass[4] = 0;
    CHECK_THROWS_WITH(Simulator2D(massless, p), Contains("vertex 4") && Contains("mass"));

    Model2D sizes = square_on_floor(0.01);
    sizes.velocities.resize(2, 2);
    CHECK_THROWS_WITH(Simulator2D(sizes, p), Contains("velocities"));

    Model2D material = square_on_floor(0.01);
    material.triangles[0].mu = -1;
    CHECK_THROWS_WITH(Simulator2D(material, p), Contains("Lame"));

    SolverParameters bad = p;
    bad.dt = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(Simulator2D(square_on_floor(0.01), bad), Contains("dt") && Contains("nan"));
    bad = p;
    bad.strain_limit = 1.1;
    CHECK_THROWS_WITH(Simulator2D(square_on_floor(0.01), bad), Contains("strain_limit"));
    bad = p;
    bad.mu = -0.1;
    CHECK_THROWS_WITH(Simulator2D(square_on_floor(0.01), bad), Contains("mu") && Contains("-0.1"));

    // The builders.
    Model2D m;
    CHECK_THROWS_WITH(m.add_rope((Eigen::MatrixXd(2, 2) << 0, 0, 0, 0).finished(), 1e4, 1, 0),
        Contains("add_rope") && Contains("zero length"));
    CHECK_THROWS_WITH(m.add_rope((Eigen::MatrixXd(2, 2) << 0, 0, 1, 0).finished(), -1, 1, 0),
        Contains("add_rope") && Contains("stiffness"));
    CHECK_THROWS_WITH(m.add_soft_body(Eigen::MatrixXd::Zero(3, 2), (Eigen::MatrixXi(1, 3) << 0, 1, 2).finished(), 1e5,
                          0.3, 1000, 0),
        Contains("degenerate"));
    CHECK_THROWS_WITH(m.add_obstacle(Eigen::MatrixXd::Zero(2, 2), (Eigen::MatrixXi(1, 2) << 0, 5).finished(), 0),
        Contains("add_obstacle") && Contains("out of range"));
    CHECK_THROWS_WITH(lame_parameters_2d(1e5, 0.5), Contains("lame_parameters_2d") && Contains("nu"));
    CHECK_THROWS_WITH(make_scene_2d("boxes_3d"), Contains("make_scene_2d") && Contains("boxes_3d"));
    CHECK(is_scene_2d("boxes_2d"));
    CHECK_FALSE(is_scene_2d("all_in"));
}
