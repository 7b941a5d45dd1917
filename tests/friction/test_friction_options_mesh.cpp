// The friction options at mesh level: FrictionCollisions::build with static
// and kinetic coefficients, per-vertex coefficients (and the blend rule),
// make_anisotropic; FrictionPotential energy, gradient and Hessian against
// finite differences on a small scene of a few triangles.

#include <test_vectors.hpp>

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/friction/friction_blend.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <reference_eigen.hpp>

#include <cmath>
#include <limits>
#include <random>

namespace friction_options_test {

// A ground square (two triangles, vertices 0-3, z = 0) and a small triangle
// (vertices 4-6) hovering about 0.01 above it across the ground's diagonal:
// point-triangle and edge-edge contacts for dhat = 0.02.
struct Scene {
    ipc::CollisionMesh mesh;
    Eigen::MatrixXd V;
};

inline Scene scene()
{
    Eigen::MatrixXd V(7, 3);
    V << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, //
        0.3, 0.25, 0.01, 0.7, 0.35, 0.012, 0.35, 0.7, 0.009;
    Eigen::MatrixXi F(3, 3);
    F << 0, 1, 2, 0, 2, 3, 4, 5, 6;
    return { ipc::CollisionMesh(V, Eigen::MatrixXi(0, 2), F), V };
}

constexpr double dhat = 0.02, kappa = 10.0;

template <typename F> void for_each_contact(const ipc::FrictionCollisions& contacts, const F& f)
{
    for (const auto& s : contacts.vertex_vertex) {
        f(s, 1);
    }
    for (const auto& s : contacts.edge_vertex) {
        f(s, 1);
    }
    for (const auto& s : contacts.edge_edge) {
        f(s, 2);
    }
    for (const auto& s : contacts.face_vertex) {
        f(s, 1);
    }
}

} // namespace friction_options_test

TEST_CASE("Friction options through FrictionPotential match finite differences", "[friction][mesh_options]")
{
    using namespace friction_options_test;
    const Scene s = scene();
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat);
    REQUIRE(collisions.face_vertex.size() >= 3);
    REQUIRE(collisions.edge_edge.size() >= 2);
    Eigen::VectorXd mu_s(7), mu_k(7);
    mu_s << 0.9, 0.8, 0.7, 0.6, 1.0, 0.9, 0.8;
    mu_k << 0.5, 0.4, 0.45, 0.3, 0.6, 0.5, 0.55;
    ipc::FrictionCollisions contacts;
    contacts.build(collisions, s.mesh, s.V, dhat, kappa, mu_s, mu_k, ipc::FrictionBlend::geometric_mean, 1.5);
    REQUIRE(contacts.size() == collisions.size());
    contacts.make_anisotropic(Eigen::Vector3d(1, 0.3, 0.2), 1.0, 0.4);
    const double eps = 1e-3;
    const ipc::FrictionPotential<> potential(eps);
    std::mt19937 generator(4);
    for (double size : { 0.3, 1.2, 2.0, 6.0 }) {
        INFO("displacement size / eps = " << size);
        Eigen::VectorXd u(21);
        for (int i = 0; i < 7; ++i) {
            u.segment<3>(3 * i) = size * eps * ipc::test::random_point(generator);
        }
        const auto energy = [&](const Eigen::VectorXd& x) { return potential(contacts, s.mesh, ipc::test::rows_of(x)); };
        const Eigen::VectorXd g = potential.gradient(contacts, s.mesh, ipc::test::rows_of(u));
        const Eigen::MatrixXd H = Eigen::MatrixXd(potential.hessian(contacts, s.mesh, ipc::test::rows_of(u)));
        const double h = 1e-7 * eps;
        const Eigen::VectorXd fd_g = ipc::test::fd_gradient(energy, u, h);
        const Eigen::MatrixXd fd_H = ipc::test::fd_jacobian(
            [&](const Eigen::VectorXd& x) { return potential.gradient(contacts, s.mesh, ipc::test::rows_of(x)); }, u,
            h);
        const double scale = g.cwiseAbs().maxCoeff();
        REQUIRE(scale > 0);
        CHECK(ipc::test::fd_close(g / scale, fd_g / scale, 1e-6));
        CHECK(ipc::test::fd_close(H * eps / scale, fd_H * eps / scale, 1e-5));
        // The projected Hessian is PSD.
        const Eigen::MatrixXd P
            = Eigen::MatrixXd(potential.hessian(contacts, s.mesh, ipc::test::rows_of(u), ipc::PSDProjection::clamp));
        const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(P);
        CHECK(eigenvalues.minCoeff() >= -1e-10 * eigenvalues.cwiseAbs().maxCoeff());
    }
}

TEST_CASE("Uniform options reproduce the scalar friction build exactly", "[friction][mesh_options]")
{
    using namespace friction_options_test;
    const Scene s = scene();
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat);
    const double mu = 0.4;
    ipc::FrictionCollisions scalar, per_vertex, static_kinetic, per_vertex_static_kinetic, isotropic;
    scalar.build(collisions, s.mesh, s.V, dhat, kappa, mu);
    const Eigen::VectorXd uniform = Eigen::VectorXd::Constant(7, mu);
    for (const auto blend : { ipc::FrictionBlend::geometric_mean, ipc::FrictionBlend::mean, ipc::FrictionBlend::min,
                              ipc::FrictionBlend::max }) {
        per_vertex.build(collisions, s.mesh, s.V, dhat, kappa, uniform, blend);
        REQUIRE(per_vertex.size() == scalar.size());
        std::vector<double> mus;
        for_each_contact(per_vertex, [&](const auto& c, int) { mus.push_back(c.contact.mu); });
        for (const double value : mus) {
            CHECK(value == mu);
        }
    }
    static_kinetic.build(collisions, s.mesh, s.V, dhat, kappa, mu, mu, 2.0);
    per_vertex_static_kinetic.build(collisions, s.mesh, s.V, dhat, kappa, uniform, uniform);
    isotropic.build(collisions, s.mesh, s.V, dhat, kappa, mu);
    isotropic.make_anisotropic(Eigen::Vector3d(0, 1, 0), 1.0, 1.0);
    const ipc::FrictionPotential<> potential(1e-3);
    std::mt19937 generator(12);
    Eigen::MatrixXd U(7, 3);
    for (int i = 0; i < 7; ++i) {
        U.row(i) = 2e-3 * ipc::test::random_point(generator).transpose();
    }
    const double reference = potential(scalar, s.mesh, U);
    const Eigen::VectorXd reference_gradient = potential.gradient(scalar, s.mesh, U);
    for (const auto* other : { &per_vertex, &static_kinetic, &per_vertex_static_kinetic, &isotropic }) {
        CHECK(potential(*other, s.mesh, U) == reference);
        CHECK(potential.gradient(*other, s.mesh, U) == reference_gradient);
    }
}

TEST_CASE("A contact's per-vertex coefficient follows the blend rule", "[friction][mesh_options]")
{
    using namespace friction_options_test;
    const Scene s = scene();
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat);
    Eigen::VectorXd mu(7);
    mu << 0.1, 0.2, 0.3, 0.4, 0.9, 0.5, 0.7;
    for (const auto blend : { ipc::FrictionBlend::geometric_mean, ipc::FrictionBlend::mean, ipc::FrictionBlend::min,
                              ipc::FrictionBlend::max }) {
        ipc::FrictionCollisions contacts;
        contacts.build(collisions, s.mesh, s.V, dhat, kappa, mu, blend);
        const auto combine = [&](double a, double b) {
            switch (blend) {
            case ipc::FrictionBlend::mean: return (a + b) / 2;
            case ipc::FrictionBlend::min: return std::min(a, b);
            case ipc::FrictionBlend::max: return std::max(a, b);
            default: return std::sqrt(a * b);
            }
        };
        REQUIRE(!contacts.face_vertex.empty());
        for (const auto& c : contacts.face_vertex) {
            // Barycentric coordinates of the point's projection, solved here.
            const Eigen::Vector3d p = s.V.row(c.vertices[0]), t0 = s.V.row(c.vertices[1]),
                                  t1 = s.V.row(c.vertices[2]), t2 = s.V.row(c.vertices[3]);
            Eigen::Matrix<double, 3, 2> A;
            A << t1 - t0, t2 - t0;
            const Eigen::Vector2d beta = (A.transpose() * A).ldlt().solve(A.transpose() * (p - t0));
            const double side = (1 - beta.sum()) * mu(c.vertices[1]) + beta(0) * mu(c.vertices[2])
                + beta(1) * mu(c.vertices[3]);
            CHECK(c.contact.mu == Approx(combine(mu(c.vertices[0]), side)).epsilon(1e-12));
        }
        REQUIRE(!contacts.edge_edge.empty());
        for (const auto& c : contacts.edge_edge) {
            const Eigen::Vector4d w = c.contact.weights;
            const double side_a = w(0) * mu(c.vertices[0]) + w(1) * mu(c.vertices[1]);
            const double side_b = -w(2) * mu(c.vertices[2]) - w(3) * mu(c.vertices[3]);
            CHECK(c.contact.mu == Approx(combine(side_a, side_b)).epsilon(1e-12));
            CHECK(c.contact.mu > 0);
        }
    }
}

TEST_CASE("Friction option inputs are validated at mesh level", "[friction][mesh_options]")
{
    using namespace friction_options_test;
    const Scene s = scene();
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat);
    ipc::FrictionCollisions contacts;
    Eigen::VectorXd mu = Eigen::VectorXd::Constant(7, 0.3);
    CHECK_THROWS_WITH(contacts.build(collisions, s.mesh, s.V, dhat, kappa, Eigen::VectorXd::Constant(6, 0.3)),
                      Catch::Contains("FrictionCollisions::build") && Catch::Contains("per-vertex mu")
                          && Catch::Contains("(7)"));
    mu(5) = -0.2;
    CHECK_THROWS_WITH(contacts.build(collisions, s.mesh, s.V, dhat, kappa, mu),
                      Catch::Contains("per-vertex mu[5]") && Catch::Contains("-0.2"));
    mu(5) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(contacts.build(collisions, s.mesh, s.V, dhat, kappa, Eigen::VectorXd::Constant(7, 0.3), mu),
                      Catch::Contains("per-vertex mu_k[5]"));
    CHECK_THROWS_WITH(contacts.build(collisions, s.mesh, s.V, dhat, kappa, 0.5, -0.1),
                      Catch::Contains("mu_k") && Catch::Contains("-0.1"));
    CHECK_THROWS_WITH(contacts.build(collisions, s.mesh, s.V, dhat, kappa, 0.5, 0.4, 0.0),
                      Catch::Contains("transition"));
    contacts.build(collisions, s.mesh, s.V, dhat, kappa, 0.5);
    CHECK_THROWS_WITH(contacts.make_anisotropic(Eigen::Vector3d::Zero(), 1.0, 0.5), Catch::Contains("non-zero"));
    CHECK_THROWS_WITH(contacts.make_anisotropic(Eigen::Vector3d(1, 0, 0), 1.0, -0.5),
                      Catch::Contains("make_anisotropic") && Catch::Contains("scale_b"));
}
