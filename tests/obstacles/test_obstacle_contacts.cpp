// Vertex-obstacle contacts (ObstacleCollisions, ObstacleSet, callback
// obstacles) and the Hessians of the analytic signed distances.

#include "finite_differences.hpp"
#include "pipeline_helpers.hpp"

#include <ipc/core/error.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/obstacles/sdf_hessian.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <string>

using namespace ipc;
using namespace ipc::test;
using namespace ipc::test::pipeline;

TEST_CASE("signed_distance_hessian matches central differences of the gradient", "[obstacles][pipeline][hessian]")
{
    std::mt19937_64 rng(20261126);
    int tested = 0;
    for (const SdfObstacle& obstacle : test_obstacles()) {
        for (const Eigen::Vector3d& p : test_points(obstacle, rng, 40)) {
            const Eigen::Matrix3d H = signed_distance_hessian(obstacle, p);
            REQUIRE(H.allFinite());
            // Symmetric and PSD (convex signed distance).
            CHECK((H - H.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * (1 + H.cwiseAbs().maxCoeff()));
            const Eigen::Vector3d eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(H).eigenvalues();
            CHECK(eigenvalues.minCoeff() >= -1e-9 * (1 + H.cwiseAbs().maxCoeff()));
            // Compare with differences of the gradient where it is smooth at
            // two step sizes (the two differences agree).
            const auto gradient = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
                return signed_distance_gradient(obstacle, Eigen::Vector3d(x));
            };
            const double scale = obstacle_scale(obstacle);
            const Eigen::MatrixXd fd1 = fd_jacobian(gradient, p, 1e-6 * scale);
            const Eigen::MatrixXd fd2 = fd_jacobian(gradient, p, 2e-6 * scale);
            if (!fd_close(fd1, fd2, 1e-4)) {
                continue; // within a few steps of a crease or the medial axis
            }
            ++tested;
            INFO(obstacle_name(obstacle) << " at " << p.transpose());
            CHECK(fd_close(H, fd1, 1e-4));
        }
    }
    CHECK(tested > 300);
}

TEST_CASE("signed_distance_hessian closed forms", "[obstacles][pipeline][hessian]")
{
    const Eigen::Vector3d p(0.3, -2, 0.7);
    CHECK(signed_distance_hessian(SdfObstacle(PlaneObstacle()), p).isZero(0));
    // Sphere: (I - n n^T) / r.
    const SphereObstacle sphere { Eigen::Vector3d(1, 0, 0), 0.5 };
    const Eigen::Vector3d d = p - sphere.center;
    const Eigen::Matrix3d expected = (Eigen::Matrix3d::Identity() - d * d.transpose() / d.squaredNorm()) / d.norm();
    CHECK((signed_distance_hessian(sphere, p) - expected).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(signed_distance_hessian(sphere, sphere.center).isZero(0));
    // Inside a box and beside a box face: zero (linear).
    const BoxObstacle box { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 2, 3), 0.1 };
    CHECK(signed_distance_hessian(box, Eigen::Vector3d(0.1, 0.2, 0.3)).isZero(0));
    CHECK(signed_distance_hessian(box, Eigen::Vector3d(1.5, 0.2, 0.3)).isZero(0));
    // Beyond an edge of the box (x and y outside): curvature in the xy-plane only.
    const Eigen::Matrix3d edge = signed_distance_hessian(box, Eigen::Vector3d(2, 3, 0));
    CHECK(edge.row(2).isZero(0));
    CHECK(edge(0, 0) == Approx(0.5 / std::sqrt(2.0)));
    // On a capsule's axis: zero; beside it: (I - w w^T - n n^T) / r.
    const CapsuleObstacle capsule { Eigen::Vector3d(0, 0, -1), Eigen::Vector3d(0, 0, 1), 0.2 };
    CHECK(signed_distance_hessian(capsule, Eigen::Vector3d(0, 0, 0.5)).isZero(0));
    const Eigen::Matrix3d side = signed_distance_hessian(capsule, Eigen::Vector3d(0.5, 0, 0.3));
    CHECK(side(1, 1) == Approx(2.0));
    CHECK(side(0, 0) == Approx(0.0).margin(1e-15));
    CHECK(side(2, 2) == Approx(0.0).margin(1e-15));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(signed_distance_hessian(SdfObstacle(sphere), Eigen::Vector3d(nan, 0, 0)).hasNaN());
}

TEST_CASE("ObstacleSet indexing and validation", "[obstacles][pipeline][set]")
{
    ObstacleSet set({ PlaneObstacle(), SphereObstacle { Eigen::Vector3d(0, 0, 2), 0.5 } },
                    { callback_sphere(Eigen::Vector3d(3, 0, 0), 1, false, 1.5) });
    REQUIRE(set.size() == 3);
    CHECK(set.is_shape(1));
    CHECK_FALSE(set.is_shape(2));
    CHECK(std::string(set.name(0)) == "plane");
    CHECK(std::string(set.name(2)) == "function");
    const Eigen::Vector3d p(3, 0, 2);
    CHECK(set.signed_distance(0, p) == 2);
    CHECK(set.signed_distance(1, p) == Approx(std::sqrt(9.0) - 0.5));
    CHECK(set.signed_distance(2, p) == Approx(1.0));
    CHECK(set.gradient(2, p).isApprox(Eigen::Vector3d::UnitZ()));
    CHECK(set.hessian(2, p).isZero(0)); // no Hessian callback: zero
    CHECK(set.lipschitz(0) == 1);
    CHECK(set.lipschitz(2) == 1.5);
    CHECK_NOTHROW(set.check("test"));

    ObstacleSet bad_shape({ SphereObstacle { Eigen::Vector3d::Zero(), -1 } });
    CHECK_THROWS_AS(bad_shape.check("test"), ipc::invalid_argument);
    CHECK_THROWS_WITH(bad_shape.check("test"), Catch::Contains("obstacle 0") && Catch::Contains("radius"));

    SignedDistanceObstacle empty;
    CHECK_THROWS_WITH(check_obstacle(empty), Catch::Contains("value callback"));
    SignedDistanceObstacle small_bound = callback_sphere(Eigen::Vector3d::Zero(), 1, false, 0.5);
    CHECK_THROWS_WITH(check_obstacle(small_bound), Catch::Contains("lipschitz") && Catch::Contains("0.5"));
    ObstacleSet bad_function({ PlaneObstacle() }, { small_bound });
    CHECK_THROWS_WITH(bad_function.check("who"), Catch::Contains("who: obstacle 1"));
}

TEST_CASE("ObstacleCollisions finds every vertex within its offset plus dhat", "[obstacles][pipeline][contacts]")
{
    // Particles at heights z over the ground plane z = 0 and below a sphere.
    Eigen::MatrixXd V(6, 3);
    V << 0, 0, 0.05, //
        1, 0, 0.12,  // radius 0.05: offset 0.05 + dmin, active below 0.15 + dmin
        2, 0, 0.5,   //
        3, 0, 0.04,  // prescribed: skipped
        0, 0, 1.45,  // 0.05 below the sphere (centre z = 2, radius 0.5)
        5, 0, -0.2;  // below the ground: inside, active
    Eigen::VectorXd radii = Eigen::VectorXd::Zero(6);
    radii[1] = 0.05;
    const CollisionMesh mesh = particle_mesh(V, radii, { false, false, false, true, false, false });
    const ObstacleSet obstacles({ PlaneObstacle(), SphereObstacle { Eigen::Vector3d(0, 0, 2), 0.5 } },
                                { callback_sphere(Eigen::Vector3d(2, 0, 0.8), 0.25, true) });
    const double dhat = 0.1;

    ObstacleCollisions contacts;
    contacts.build(mesh, V, obstacles, dhat);
    CHECK(contacts.dhat() == dhat);
    CHECK(contacts.obstacles.size() == 3);
    REQUIRE(contacts.size() == 5);
    const auto expect = [&](std::size_t k, Index vertex, Index obstacle, double offset) {
        INFO("contact " << k);
        CHECK(contacts.vertex_obstacle[k].vertex == vertex);
        CHECK(contacts.vertex_obstacle[k].obstacle == obstacle);
        CHECK(contacts.vertex_obstacle[k].offset == offset);
    };
    expect(0, 0, 0, 0.0);
    expect(1, 1, 0, 0.05);
    expect(2, 2, 2, 0.0); // 0.05 from the callback sphere
    expect(3, 4, 1, 0.0);
    expect(4, 5, 0, 0.0);

    // dmin widens the activation and adds to every offset.
    contacts.build(mesh, V, obstacles, dhat, 0.1);
    CHECK(contacts.dmin() == 0.1);
    CHECK(contacts.size() == 5);
    CHECK(contacts.vertex_obstacle[1].offset == Approx(0.15));
    contacts.build(mesh, V, obstacles, 0.01);
    CHECK(contacts.size() == 1); // only the vertex inside the ground

    // No obstacles: no contacts.
    contacts.build(mesh, V, ObstacleSet(), dhat);
    CHECK(contacts.empty());
    contacts.clear();
    CHECK(contacts.dhat() == 0);
}

TEST_CASE("ObstacleCollisions rejects bad input", "[obstacles][pipeline][contacts]")
{
    Eigen::MatrixXd V(2, 3);
    V << 0, 0, 0.05, 1, 0, 1;
    const CollisionMesh mesh = particle_mesh(V);
    const ObstacleSet obstacles({ PlaneObstacle() });
    ObstacleCollisions contacts;
    CHECK_THROWS_WITH(contacts.build(mesh, V, obstacles, 0), Catch::Contains("dhat") && Catch::Contains("0"));
    CHECK_THROWS_AS(contacts.build(mesh, V, obstacles, std::nan("")), ipc::invalid_argument);
    CHECK_THROWS_WITH(contacts.build(mesh, V, obstacles, 0.1, -1), Catch::Contains("dmin") && Catch::Contains("-1"));
    Eigen::MatrixXd bad = V;
    bad(1, 2) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH(contacts.build(mesh, bad, obstacles, 0.1),
                      Catch::Contains("ObstacleCollisions::build") && Catch::Contains("vertex 1"));
    CHECK_THROWS_AS(contacts.build(mesh, V.topRows(1), obstacles, 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(contacts.build(mesh, V, ObstacleSet({ PlaneObstacle(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) }), 0.1),
                    ipc::invalid_argument);
    SignedDistanceObstacle nan_callback = callback_sphere(Eigen::Vector3d::Zero(), 1, false);
    nan_callback.value = [](const Eigen::Vector3d&) { return std::nan(""); };
    CHECK_THROWS_WITH(contacts.build(mesh, V, ObstacleSet({}, { nan_callback }), 0.1), Catch::Contains("NaN"));
    // 2D meshes are rejected clearly.
    Eigen::MatrixXd V2(2, 2);
    V2 << 0, 0.05, 1, 1;
    const CollisionMesh mesh2 = particle_mesh(V2);
    CHECK_THROWS_WITH(contacts.build(mesh2, V2, obstacles, 0.1), Catch::Contains("only 3D meshes"));
}
