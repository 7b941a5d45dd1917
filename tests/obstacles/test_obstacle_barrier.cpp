// Barrier of vertex-obstacle contacts through BarrierPotential's overloads:
// agreement with a triangle ground mesh, finite differences of the gradient
// and Hessian for every obstacle kind, PSD projection and validation.

#include "finite_differences.hpp"
#include "pipeline_helpers.hpp"

#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/obstacles/obstacle_barrier.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <catch2/catch.hpp>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ipc;
using namespace ipc::test;
using namespace ipc::test::pipeline;

namespace ipc::test::pipeline {

/// Particles near `obstacle` at signed distances offset + (0.15 .. 0.9) dhat
/// (rows of an n x 3 matrix), `count` of them, with the given radius.
inline Eigen::MatrixXd particles_near(const SdfObstacle& obstacle, int count, double radius, double dhat,
                                      std::mt19937_64& rng)
{
    Eigen::MatrixXd V(count, 3);
    for (int i = 0; i < count; ++i) {
        const double target = radius + uniform(rng, 0.15, 0.9) * dhat;
        V.row(i) = point_at_distance(obstacle, target, rng).transpose();
    }
    return V;
}

/// Checks the gradient and Hessian of barrier(contacts, mesh, .) at V
/// against central differences.
template <typename Potential>
void check_barrier_derivatives(const Potential& barrier, const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                               const Eigen::MatrixXd& V, double h)
{
    const auto positions = [&](const Eigen::VectorXd& x) {
        Eigen::MatrixXd Y = V;
        for (Index i = 0; i < V.rows(); ++i) {
            Y.row(i) = x.segment<3>(3 * i).transpose();
        }
        return Y;
    };
    Eigen::VectorXd x(V.size());
    for (Index i = 0; i < V.rows(); ++i) {
        x.segment<3>(3 * i) = V.row(i).transpose();
    }
    const Eigen::VectorXd g = barrier.gradient(contacts, mesh, V);
    const Eigen::VectorXd fd_g =
        fd_gradient([&](const Eigen::VectorXd& y) { return barrier(contacts, mesh, positions(y)); }, x, h);
    INFO("gradient " << g.transpose() << "\nfd       " << fd_g.transpose());
    CHECK(relative_close(g, fd_g, 1e-6));
    const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(contacts, mesh, V));
    const Eigen::MatrixXd fd_H = fd_jacobian(
        [&](const Eigen::VectorXd& y) -> Eigen::VectorXd { return barrier.gradient(contacts, mesh, positions(y)); },
        x, h);
    INFO("hessian\n" << H << "\nfd\n" << fd_H);
    CHECK(relative_close(H, fd_H, 1e-6));
}

} // namespace ipc::test::pipeline

TEST_CASE("plane obstacle barrier equals the barrier of a triangle ground mesh", "[obstacles][pipeline][barrier]")
{
    // Ground: a square of two triangles at z = 0, prescribed; particles above
    // the triangles' interiors (away from the diagonal y = x) within dhat.
    const int particles = 5;
    Eigen::MatrixXd V(4 + particles, 3);
    V.topRows(4) << -10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0;
    Eigen::VectorXd radii = Eigen::VectorXd::Zero(4 + particles);
    std::vector<bool> prescribed(4 + particles, false);
    for (int i = 0; i < 4; ++i) {
        prescribed[std::size_t(i)] = true;
    }
    const double dhat = 0.1;
    for (int i = 0; i < particles; ++i) {
        radii[4 + i] = 0.01 * i;
        V.row(4 + i) << 2.0 * i - 4, i % 2 == 0 ? -6 : 6, radii[4 + i] + (0.1 + 0.2 * i) * dhat;
    }
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 2, 3;
    const CollisionMesh mesh = CollisionMesh::Builder(V).faces(F).vertex_radii(radii).prescribed_vertices(prescribed).build();

    Collisions mesh_contacts;
    mesh_contacts.build(mesh, V, dhat);
    REQUIRE(mesh_contacts.face_vertex.size() == std::size_t(particles));
    ObstacleCollisions obstacle_contacts;
    obstacle_contacts.build(mesh, V, ObstacleSet({ PlaneObstacle() }), dhat);
    REQUIRE(obstacle_contacts.size() == std::size_t(particles)); // the prescribed ground is skipped

    const auto compare = [&](const auto& barrier) {
        const double mesh_energy = barrier(mesh_contacts, mesh, V);
        const double obstacle_energy = barrier(obstacle_contacts, mesh, V);
        REQUIRE(mesh_energy > 0);
        CHECK(obstacle_energy == Approx(mesh_energy).epsilon(1e-12));
        const Eigen::VectorXd mesh_gradient = barrier.gradient(mesh_contacts, mesh, V);
        const Eigen::VectorXd obstacle_gradient = barrier.gradient(obstacle_contacts, mesh, V);
        const Eigen::VectorXd particle_part = mesh_gradient.tail(3 * particles);
        CHECK(relative_close(obstacle_gradient.tail(3 * particles), particle_part, 1e-12));
        CHECK(obstacle_gradient.head(12).isZero(0));
        const Eigen::MatrixXd mesh_hessian = Eigen::MatrixXd(barrier.hessian(mesh_contacts, mesh, V));
        const Eigen::MatrixXd obstacle_hessian = Eigen::MatrixXd(barrier.hessian(obstacle_contacts, mesh, V));
        CHECK(relative_close(obstacle_hessian.bottomRightCorner(3 * particles, 3 * particles),
                       mesh_hessian.bottomRightCorner(3 * particles, 3 * particles), 1e-12));
    };
    compare(BarrierPotential<>(dhat, 3.0));
    compare(BarrierPotential<CubicBarrier>(dhat, 0.5));
}

TEST_CASE("obstacle barrier gradient and Hessian match finite differences", "[obstacles][pipeline][barrier]")
{
    std::mt19937_64 rng(7);
    const double dhat = 0.05, radius = 0.01;
    const BarrierPotential<> barrier(dhat, 2.0);
    // Every analytic shape: the test list's planes, spheres, boxes, capsules.
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const Eigen::MatrixXd V = particles_near(obstacle, 3, radius, dhat, rng);
        const CollisionMesh mesh = particle_mesh(V, Eigen::VectorXd::Constant(3, radius));
        ObstacleCollisions contacts;
        contacts.build(mesh, V, ObstacleSet({ obstacle }), dhat);
        REQUIRE(contacts.size() == 3);
        INFO(obstacle_name(obstacle));
        check_barrier_derivatives(barrier, contacts, mesh, V, 1e-7);
    }
    // Callback obstacles with a Hessian: a sphere and a wavy floor
    // (not a distance, Lipschitz bound > 1).
    const SphereObstacle sphere { Eigen::Vector3d(0.2, -0.1, 0.3), 0.4 };
    Eigen::MatrixXd V = particles_near(sphere, 3, radius, dhat, rng);
    CollisionMesh mesh = particle_mesh(V, Eigen::VectorXd::Constant(3, radius));
    ObstacleCollisions contacts;
    contacts.build(mesh, V, ObstacleSet({}, { callback_sphere(sphere.center, sphere.radius, true) }), dhat);
    REQUIRE(contacts.size() == 3);
    check_barrier_derivatives(barrier, contacts, mesh, V, 1e-7);

    V.resize(2, 3);
    V << 0.1, 0, 0.02 + 0.3 * std::sin(0.5), 0.7, 0.3, 0.03 + 0.3 * std::sin(3.5);
    const SignedDistanceObstacle floor = wavy_floor(0.3, 5);
    mesh = particle_mesh(V);
    contacts.build(mesh, V, ObstacleSet({}, { floor }), dhat);
    REQUIRE(contacts.size() == 2);
    check_barrier_derivatives(barrier, contacts, mesh, V, 1e-7);
}

TEST_CASE("callback without a Hessian uses the Gauss-Newton term", "[obstacles][pipeline][barrier]")
{
    const double dhat = 0.1;
    const Eigen::Vector3d centre(0, 0, 0);
    Eigen::MatrixXd V(1, 3);
    V << 0.3, 0.4, 1.05;
    V.row(0) = V.row(0).normalized() * 1.05; // 0.05 outside the unit sphere
    const CollisionMesh mesh = particle_mesh(V);
    const BarrierPotential<> barrier(dhat, 1.0);
    ObstacleCollisions exact, gauss_newton;
    exact.build(mesh, V, ObstacleSet({}, { callback_sphere(centre, 1, true) }), dhat);
    gauss_newton.build(mesh, V, ObstacleSet({}, { callback_sphere(centre, 1, false) }), dhat);
    const double phi = 0.05;
    const Eigen::Vector3d g = V.row(0).transpose().normalized();
    const double db = offset_barrier_first_derivative(phi * phi, 0.0, dhat);
    const double d2b = offset_barrier_second_derivative(phi * phi, 0.0, dhat);
    const Eigen::Matrix3d expected = (4 * phi * phi * d2b + 2 * db) * g * g.transpose();
    const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(gauss_newton, mesh, V));
    CHECK(relative_close(H, expected, 1e-12));
    // Energy and gradient do not depend on the Hessian callback.
    CHECK(barrier(gauss_newton, mesh, V) == barrier(exact, mesh, V));
    CHECK(barrier.gradient(gauss_newton, mesh, V) == barrier.gradient(exact, mesh, V));
    // The exact Hessian adds the curvature term 2 b' phi (I - g g^T) / r.
    const Eigen::MatrixXd H_exact = Eigen::MatrixXd(barrier.hessian(exact, mesh, V));
    const Eigen::Matrix3d curvature = 2 * db * phi * (Eigen::Matrix3d::Identity() - g * g.transpose()) / 1.05;
    CHECK(relative_close(H_exact, expected + curvature, 1e-12));
}

TEST_CASE("obstacle barrier PSD projection", "[obstacles][pipeline][barrier]")
{
    // A vertex near a small sphere: the curvature term 2 b' phi H_phi is
    // negative definite (b' < 0), so the raw Hessian is indefinite.
    const double dhat = 0.5;
    const SphereObstacle sphere { Eigen::Vector3d::Zero(), 0.05 };
    Eigen::MatrixXd V(1, 3);
    V << 0, 0, 0.05 + 0.45;
    const CollisionMesh mesh = particle_mesh(V);
    ObstacleCollisions contacts;
    contacts.build(mesh, V, ObstacleSet({ sphere }), dhat);
    const BarrierPotential<> barrier(dhat, 1.0);
    const Eigen::MatrixXd raw = Eigen::MatrixXd(barrier.hessian(contacts, mesh, V));
    REQUIRE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(raw).eigenvalues().minCoeff() < 0);
    for (const PSDProjection projection : { PSDProjection::clamp, PSDProjection::abs }) {
        const Eigen::MatrixXd projected = Eigen::MatrixXd(barrier.hessian(contacts, mesh, V, projection));
        const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(projected).eigenvalues();
        CHECK(eigenvalues.minCoeff() >= -1e-12 * eigenvalues.cwiseAbs().maxCoeff());
        // The direction along the normal keeps its (positive) curvature.
        CHECK(projected(2, 2) == Approx(raw(2, 2)));
    }
    // Writing into an existing matrix gives the same result.
    Eigen::SparseMatrix<double> H(7, 7);
    barrier.hessian(contacts, mesh, V, PSDProjection::none, H);
    CHECK(Eigen::MatrixXd(H) == raw);
}

TEST_CASE("obstacle barrier validation and penetration", "[obstacles][pipeline][barrier]")
{
    const double dhat = 0.1;
    Eigen::MatrixXd V(2, 3);
    V << 0, 0, 0.05, 1, 0, 0.08;
    Eigen::VectorXd radii(2);
    radii << 0, 0.02;
    const CollisionMesh mesh = particle_mesh(V, radii);
    ObstacleCollisions contacts;
    contacts.build(mesh, V, ObstacleSet({ PlaneObstacle() }), dhat);
    REQUIRE(contacts.size() == 2);
    const BarrierPotential<> barrier(dhat);
    CHECK(std::isfinite(barrier(contacts, mesh, V)));

    // Vertex 1 moved to its offset, then below the plane.
    Eigen::MatrixXd W = V;
    W(1, 2) = 0.02;
    CHECK_THROWS_AS(barrier(contacts, mesh, W), ipc::penetration);
    W(1, 2) = -0.3;
    CHECK_THROWS_AS(barrier.gradient(contacts, mesh, W), ipc::penetration);
    CHECK_THROWS_WITH(barrier.hessian(contacts, mesh, W),
                      Catch::Contains("obstacle contact 1") && Catch::Contains("vertex 1") && Catch::Contains("plane"));

    // Another dhat than the set's.
    const BarrierPotential<> other(0.2);
    CHECK_THROWS_WITH(other(contacts, mesh, V), Catch::Contains("dhat = 0.1") && Catch::Contains("0.2"));
    // Wrong shapes and indices.
    CHECK_THROWS_AS(barrier(contacts, mesh, V.topRows(1)), ipc::invalid_argument);
    ObstacleCollisions by_hand = contacts;
    by_hand.vertex_obstacle[0].vertex = 5;
    CHECK_THROWS_WITH(barrier(by_hand, mesh, V), Catch::Contains("vertex 5"));
    by_hand = contacts;
    by_hand.vertex_obstacle[0].obstacle = 3;
    CHECK_THROWS_WITH(barrier(by_hand, mesh, V), Catch::Contains("obstacle 3"));
    // Empty set: zero energy, zero gradient, empty Hessian of the right size.
    const ObstacleCollisions empty;
    CHECK(barrier(empty, mesh, V) == 0);
    CHECK(barrier.gradient(empty, mesh, V).size() == 6);
    CHECK(barrier.hessian(empty, mesh, V).nonZeros() == 0);
}

TEST_CASE("obstacle contacts, barrier and step size do not depend on the thread count",
          "[obstacles][pipeline][barrier][threads]")
{
    // More vertices than one parallel block (4096) of the contact build.
    std::mt19937_64 rng(99);
    const int n = 5000;
    const double dhat = 0.05;
    Eigen::MatrixXd V(n, 3), V1(n, 3);
    for (int i = 0; i < n; ++i) {
        V.row(i) << uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, 0.005, 0.045);
        V1.row(i) = V.row(i) + Eigen::RowVector3d(uniform(rng, -1, 1), uniform(rng, -1, 1), -0.2);
    }
    const CollisionMesh mesh = particle_mesh(V);
    const ObstacleSet obstacles({ PlaneObstacle(), SphereObstacle { Eigen::Vector3d(0, 0, 1.12), 1 } });
    const BarrierPotential<> barrier(dhat, 1.0);
    struct Result {
        std::vector<VertexObstacleCollision> contacts;
        double energy, step;
        Eigen::VectorXd gradient;
        Eigen::SparseMatrix<double> hessian;
    };
    const auto run = [&]() {
        Result r;
        ObstacleCollisions contacts;
        contacts.build(mesh, V, obstacles, dhat);
        r.contacts = contacts.vertex_obstacle;
        r.energy = barrier(contacts, mesh, V);
        r.gradient = barrier.gradient(contacts, mesh, V);
        r.hessian = barrier.hessian(contacts, mesh, V, PSDProjection::clamp);
        r.step = obstacle_collision_free_step_size(mesh, V, V1, obstacles);
        return r;
    };
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    const Result serial = run();
#if IPC_HAS_OPENMP
    omp_set_num_threads(4);
#endif
    const Result parallel = run();
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    REQUIRE(serial.contacts.size() > 4000);
    REQUIRE(serial.contacts.size() == parallel.contacts.size());
    for (std::size_t k = 0; k < serial.contacts.size(); ++k) {
        REQUIRE(serial.contacts[k].vertex == parallel.contacts[k].vertex);
        REQUIRE(serial.contacts[k].obstacle == parallel.contacts[k].obstacle);
    }
    CHECK(serial.energy == parallel.energy);
    CHECK(serial.gradient == parallel.gradient);
    REQUIRE(serial.hessian.nonZeros() == parallel.hessian.nonZeros());
    CHECK(std::equal(serial.hessian.valuePtr(), serial.hessian.valuePtr() + serial.hessian.nonZeros(),
                     parallel.hessian.valuePtr()));
    CHECK(serial.step == parallel.step);
    CHECK(serial.step < 1);
}
