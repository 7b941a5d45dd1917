// Lagged friction of vertex-obstacle contacts: contact data, agreement with
// a triangle ground mesh, finite differences through FrictionPotential's
// overloads, PSD Hessians and validation.

#include "finite_differences.hpp"
#include "pipeline_helpers.hpp"

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <vector>

using namespace ipc;
using namespace ipc::test;
using namespace ipc::test::pipeline;

namespace ipc::test::pipeline {

/// Particles near a sphere, a box and a capsule (one obstacle set) with
/// their contacts and lagged friction.
struct FrictionScene {
    Eigen::MatrixXd V;
    CollisionMesh mesh;
    ObstacleCollisions contacts;
    ObstacleFrictionCollisions friction;
};

inline FrictionScene friction_scene(double dhat, double kappa, double mu, std::mt19937_64& rng)
{
    const std::vector<SdfObstacle> shapes = {
        SphereObstacle { Eigen::Vector3d(0, 0, 0), 0.5 },
        BoxObstacle { Eigen::Vector3d(5, 0, 0), Eigen::Vector3d(0.5, 0.3, 0.2), 0.05 },
        CapsuleObstacle { Eigen::Vector3d(10, 0, 0), Eigen::Vector3d(11, 1, 0), 0.2 },
    };
    FrictionScene scene;
    scene.V.resize(6, 3);
    for (int i = 0; i < 6; ++i) {
        scene.V.row(i) = point_at_distance(shapes[std::size_t(i / 2)], uniform(rng, 0.2, 0.8) * dhat, rng).transpose();
    }
    scene.mesh = particle_mesh(scene.V);
    scene.contacts.build(scene.mesh, scene.V, ObstacleSet(shapes), dhat);
    scene.friction.build(scene.contacts, scene.mesh, scene.V, dhat, kappa, mu);
    return scene;
}

} // namespace ipc::test::pipeline

TEST_CASE("obstacle friction contacts: normal, basis and normal force", "[obstacles][pipeline][friction]")
{
    std::mt19937_64 rng(11);
    const double dhat = 0.05, kappa = 30, mu = 0.4;
    const FrictionScene scene = friction_scene(dhat, kappa, mu, rng);
    REQUIRE(scene.contacts.size() == 6);
    REQUIRE(scene.friction.size() == 6);
    for (std::size_t k = 0; k < scene.friction.size(); ++k) {
        const VertexObstacleFriction& f = scene.friction.vertex_obstacle[k];
        const VertexObstacleCollision& c = scene.contacts.vertex_obstacle[k];
        CHECK(f.vertex == c.vertex);
        CHECK(f.obstacle == c.obstacle);
        const Eigen::Vector3d p = scene.V.row(c.vertex).transpose();
        const double phi = scene.contacts.obstacles.signed_distance(c.obstacle, p);
        const Eigen::Vector3d n = scene.contacts.obstacles.gradient(c.obstacle, p);
        const Eigen::Matrix<double, 3, 2>& T = f.contact.tangent_basis;
        CHECK((T.transpose() * T - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff() < 1e-14);
        CHECK((T.transpose() * n).cwiseAbs().maxCoeff() < 1e-14);
        CHECK(f.contact.weights(0) == 1);
        CHECK(f.contact.mu == mu);
        CHECK(f.contact.normal_force == Approx(normal_force_magnitude(phi * phi, 0.0, dhat, kappa)).epsilon(1e-14));
        CHECK(f.contact.normal_force > 0);
    }
}

TEST_CASE("obstacle friction matches the friction of a triangle ground mesh", "[obstacles][pipeline][friction]")
{
    const int particles = 3;
    Eigen::MatrixXd V(4 + particles, 3);
    V.topRows(4) << -10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0;
    std::vector<bool> prescribed(4 + particles, false);
    for (int i = 0; i < 4; ++i) {
        prescribed[std::size_t(i)] = true;
    }
    const double dhat = 0.1, kappa = 5, mu = 0.3, eps = 1e-3;
    for (int i = 0; i < particles; ++i) {
        V.row(4 + i) << 3.0 * i - 3, -5, (0.2 + 0.3 * i) * dhat;
    }
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 2, 3;
    const CollisionMesh mesh = CollisionMesh::Builder(V).faces(F).prescribed_vertices(prescribed).build();
    Collisions mesh_contacts;
    mesh_contacts.build(mesh, V, dhat);
    FrictionCollisions mesh_friction;
    mesh_friction.build(mesh_contacts, mesh, V, dhat, kappa, mu);
    ObstacleCollisions obstacle_contacts;
    obstacle_contacts.build(mesh, V, ObstacleSet({ PlaneObstacle() }), dhat);
    ObstacleFrictionCollisions obstacle_friction;
    obstacle_friction.build(obstacle_contacts, mesh, V, dhat, kappa, mu);
    REQUIRE(obstacle_friction.size() == std::size_t(particles));

    std::mt19937_64 rng(3);
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(V.rows(), 3);
    for (int i = 0; i < particles; ++i) {
        U.row(4 + i) = (uniform(rng, 0.2, 3) * eps * random_direction(rng)).transpose();
    }
    const FrictionPotential<> friction(eps);
    CHECK(friction(obstacle_friction, mesh, U) == Approx(friction(mesh_friction, mesh, U)).epsilon(1e-12));
    const Eigen::VectorXd g_mesh = friction.gradient(mesh_friction, mesh, U);
    const Eigen::VectorXd g_obstacle = friction.gradient(obstacle_friction, mesh, U);
    CHECK(relative_close(g_obstacle.tail(3 * particles), g_mesh.tail(3 * particles), 1e-12));
    const Eigen::MatrixXd H_mesh = Eigen::MatrixXd(friction.hessian(mesh_friction, mesh, U));
    const Eigen::MatrixXd H_obstacle = Eigen::MatrixXd(friction.hessian(obstacle_friction, mesh, U));
    CHECK(relative_close(H_obstacle.bottomRightCorner(3 * particles, 3 * particles),
                         H_mesh.bottomRightCorner(3 * particles, 3 * particles), 1e-12));
}

TEST_CASE("obstacle friction gradient and Hessian match finite differences", "[obstacles][pipeline][friction]")
{
    std::mt19937_64 rng(5);
    const double dhat = 0.05, kappa = 10, mu = 0.5, eps = 1e-3;
    const FrictionScene scene = friction_scene(dhat, kappa, mu, rng);
    const FrictionPotential<> friction(eps);
    const Index n = scene.V.rows();
    // Slips below eps (static), around it and well above (sliding), avoiding
    // |u| = eps where the C1 mollifier's Hessian jumps.
    for (const double magnitude : { 0.3, 2.0, 20.0 }) {
        Eigen::VectorXd u(3 * n);
        for (Index i = 0; i < n; ++i) {
            u.segment<3>(3 * i) = magnitude * eps * uniform(rng, 0.5, 0.8) * random_direction(rng);
        }
        const auto displacements = [&](const Eigen::VectorXd& x) {
            Eigen::MatrixXd U(n, 3);
            for (Index i = 0; i < n; ++i) {
                U.row(i) = x.segment<3>(3 * i).transpose();
            }
            return U;
        };
        const Eigen::MatrixXd U = displacements(u);
        const Eigen::VectorXd g = friction.gradient(scene.friction, scene.mesh, U);
        const Eigen::VectorXd fd_g = fd_gradient(
            [&](const Eigen::VectorXd& x) { return friction(scene.friction, scene.mesh, displacements(x)); }, u,
            1e-9);
        INFO("slip " << magnitude << " eps");
        CHECK(relative_close(g, fd_g, 1e-6));
        const Eigen::MatrixXd H = Eigen::MatrixXd(friction.hessian(scene.friction, scene.mesh, U));
        const Eigen::MatrixXd fd_H = fd_jacobian(
            [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
                return friction.gradient(scene.friction, scene.mesh, displacements(x));
            },
            u, 1e-9);
        CHECK(relative_close(H, fd_H, 1e-5));
        const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
        CHECK(eigenvalues.minCoeff() >= -1e-12 * eigenvalues.cwiseAbs().maxCoeff());
        const Eigen::MatrixXd H_projected =
            Eigen::MatrixXd(friction.hessian(scene.friction, scene.mesh, U, PSDProjection::clamp));
        CHECK(relative_close(H_projected, H, 1e-12));
        // The majorizer form reaches the obstacle contacts: stiffer along
        // each slip, the same across it (and at the static slips, nearly so).
        const Eigen::MatrixXd H_major = Eigen::MatrixXd(
            FrictionPotential<>(eps, FrictionHessianForm::majorizer).hessian(scene.friction, scene.mesh, U));
        const Eigen::VectorXd excess = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H_major - H).eigenvalues();
        CHECK(excess.minCoeff() >= -1e-12 * H_major.cwiseAbs().maxCoeff());
        if (magnitude > 1) {
            CHECK(excess.maxCoeff() > 0.1 * H.cwiseAbs().maxCoeff());
        }
    }
}

TEST_CASE("obstacle friction validation", "[obstacles][pipeline][friction]")
{
    const double dhat = 0.1;
    Eigen::MatrixXd V(2, 3);
    V << 0, 0, 0.05, 1, 0, 0.08;
    const CollisionMesh mesh = particle_mesh(V);
    ObstacleCollisions contacts;
    contacts.build(mesh, V, ObstacleSet({ PlaneObstacle() }), dhat);
    ObstacleFrictionCollisions friction;
    CHECK_THROWS_WITH(friction.build(contacts, mesh, V, dhat, 1, -0.1), Catch::Contains("mu") && Catch::Contains("-0.1"));
    CHECK_THROWS_WITH(friction.build(contacts, mesh, V, dhat, 0, 0.1), Catch::Contains("kappa"));
    CHECK_THROWS_WITH(friction.build(contacts, mesh, V, 0.3, 1, 0.1), Catch::Contains("dhat = 0.1"));
    Eigen::MatrixXd W = V;
    W(0, 2) = -0.01;
    CHECK_THROWS_AS(friction.build(contacts, mesh, W, dhat, 1, 0.1), ipc::penetration);
    // A callback with a zero gradient has no normal.
    SignedDistanceObstacle flat = callback_sphere(Eigen::Vector3d::Zero(), 1, false);
    flat.value = [](const Eigen::Vector3d& p) { return p.z(); };
    flat.gradient = [](const Eigen::Vector3d&) { return Eigen::Vector3d::Zero().eval(); };
    contacts.build(mesh, V, ObstacleSet({}, { flat }), dhat);
    CHECK_THROWS_AS(friction.build(contacts, mesh, V, dhat, 1, 0.1), ipc::degenerate_geometry);

    contacts.build(mesh, V, ObstacleSet({ PlaneObstacle() }), dhat);
    friction.build(contacts, mesh, V, dhat, 1, 0.1);
    const FrictionPotential<> potential(1e-3);
    CHECK_THROWS_AS(potential(friction, mesh, V.topRows(1)), ipc::invalid_argument);
    ObstacleFrictionCollisions by_hand = friction;
    by_hand.vertex_obstacle[1].vertex = 9;
    CHECK_THROWS_WITH(potential.gradient(by_hand, mesh, V), Catch::Contains("vertex 9"));
    // Zero displacement: the mollifier's value at rest f0(0) per contact, no force.
    const Eigen::MatrixXd U = Eigen::MatrixXd::Zero(2, 3);
    double expected = 0;
    for (const VertexObstacleFriction& c : friction.vertex_obstacle) {
        expected += c.contact.mu * c.contact.normal_force * C1FrictionMollifier::f0(0.0, 1e-3);
    }
    CHECK(potential(friction, mesh, U) == Approx(expected).epsilon(1e-14));
    CHECK(potential.gradient(friction, mesh, U).isZero(0));
}
