// Anisotropic (elliptic) friction: derivatives against finite differences,
// PSD Hessians, the sliding force along and across the material direction,
// exact isotropic reduction, the fallback for a direction normal to the
// plane, validation.

#include <test_vectors.hpp>

#include <ipc/friction/anisotropic_friction.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <reference_eigen.hpp>

#include <cmath>
#include <limits>
#include <random>

using Eigen::Vector3d;

namespace anisotropic_test {

using Eigen::Vector3d;

template <int N> Eigen::Matrix<double, 3 * N, 1> random_displacements(double size, std::mt19937& generator)
{
    Eigen::Matrix<double, 3 * N, 1> dx;
    for (int i = 0; i < N; ++i) {
        dx.template segment<3>(3 * i) = size * ipc::test::random_point(generator);
    }
    return dx;
}

template <int N>
void check_contact(const ipc::FrictionContact<double, N>& contact, double eps, std::mt19937& generator)
{
    for (double size : { 0.0, 0.2, 0.7, 1.5, 4.0 }) {
        INFO("vertices = " << N << ", displacement size / eps = " << size);
        const Eigen::VectorXd dx = random_displacements<N>(size * eps, generator);
        const double h = 1e-7 * eps;
        const Eigen::VectorXd g = ipc::friction_gradient(contact, dx, eps);
        const Eigen::MatrixXd H = ipc::friction_hessian(contact, dx, eps);
        const Eigen::VectorXd fd_g = ipc::test::fd_gradient(
            [&](const Eigen::VectorXd& x) { return ipc::friction_energy(contact, x, eps); }, dx, h);
        const Eigen::MatrixXd fd_H = ipc::test::fd_jacobian(
            [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(ipc::friction_gradient(contact, x, eps)); }, dx,
            h);
        const double scale = contact.normal_force * contact.mu;
        CHECK(ipc::test::fd_close(g / scale, fd_g / scale, 1e-6));
        CHECK(ipc::test::fd_close(H * eps / scale, fd_H * eps / scale, size == 0.0 ? 1e-5 : 1e-6));
        const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(H);
        CHECK(eigenvalues.minCoeff() >= -1e-12 * std::max(1e-300, eigenvalues.cwiseAbs().maxCoeff()));
    }
}

} // namespace anisotropic_test

TEST_CASE("Anisotropic friction matches finite differences and is PSD", "[friction][anisotropic]")
{
    using namespace anisotropic_test;
    std::mt19937 generator(23);
    const Vector3d v0 = ipc::test::random_point(generator), v1 = ipc::test::random_point(generator),
                   v2 = ipc::test::random_point(generator), v3 = ipc::test::random_point(generator);
    const Vector3d direction(0.3, -1.0, 0.5);
    auto pp = ipc::point_point_friction_contact(v0, v1, 3.0, 0.5);
    auto pe = ipc::point_edge_friction_contact(v0, v1, v2, 3.0, 0.5);
    auto pt = ipc::point_triangle_friction_contact(v0, v1, v2, v3, 3.0, 0.5);
    auto ee = ipc::edge_edge_friction_contact(v0, v1, v2, v3, 3.0, 0.5);
    ipc::set_anisotropic_friction(pp, direction, 0.6, 0.2);
    ipc::set_anisotropic_friction(pe, direction, 0.1, 0.4);
    ipc::make_friction_anisotropic(pt, direction, 1.0, 0.3);
    ipc::set_anisotropic_friction(ee, direction, 0.6, 0.0); // "matchstick": frictionless across
    for (double eps : { 1e-3, 1.0 }) {
        check_contact(pp, eps, generator);
        check_contact(pe, eps, generator);
        check_contact(pt, eps, generator);
        check_contact(ee, eps, generator);
    }
    // Anisotropic and static/kinetic together.
    ipc::set_static_kinetic_friction(pt, 0.9, 0.5, 1.0);
    const Eigen::VectorXd dx = random_displacements<4>(1.3e-3, generator);
    const Eigen::VectorXd fd_g = ipc::test::fd_gradient(
        [&](const Eigen::VectorXd& x) { return ipc::friction_energy(pt, x, 1e-3); }, dx, 1e-10);
    CHECK(ipc::test::fd_close(ipc::friction_gradient(pt, dx, 1e-3), fd_g, 1e-6));
}

TEST_CASE("Anisotropic friction force has coefficient mu_a along and mu_b across", "[friction][anisotropic]")
{
    const double lambda = 2.0, eps = 1e-3, mu_a = 0.8, mu_b = 0.2;
    // A point on the plane z = 0; the material direction is tilted out of
    // the plane (its in-plane part is along (1, 1, 0) / sqrt(2)).
    auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 1e-3), Vector3d(0, 0, 0), lambda, 0.5);
    ipc::set_anisotropic_friction(contact, Vector3d(1, 1, 3), mu_a, mu_b);
    CHECK(contact.mu == mu_a);
    const Vector3d along = Vector3d(1, 1, 0).normalized(), across = Vector3d(-1, 1, 0).normalized();
    const auto force = [&](const Vector3d& slip) {
        Eigen::Matrix<double, 6, 1> dx = Eigen::Matrix<double, 6, 1>::Zero();
        dx.head<3>() = slip;
        return Vector3d(-ipc::friction_gradient(contact, dx, eps).head<3>());
    };
    const Vector3d f_along = force(0.5 * along); // far beyond the stick threshold
    CHECK(f_along.norm() == Approx(lambda * mu_a).epsilon(1e-12));
    CHECK(f_along.dot(along) == Approx(-lambda * mu_a).epsilon(1e-12));
    const Vector3d f_across = force(0.5 * across);
    CHECK(f_across.norm() == Approx(lambda * mu_b).epsilon(1e-12));
    CHECK(f_across.dot(across) == Approx(-lambda * mu_b).epsilon(1e-12));
    // In between, the force lies on the ellipse of semi-axes lambda mu_a, lambda mu_b.
    const Vector3d f = force(0.3 * along + 0.4 * across);
    const double fa = f.dot(along) / (lambda * mu_a), fb = f.dot(across) / (lambda * mu_b);
    CHECK(fa * fa + fb * fb == Approx(1.0).epsilon(1e-12));
    CHECK(std::abs(f.z()) < 1e-15);
    // Sliding energy: lambda |diag(mu_a, mu_b) (u_a, u_b)|.
    Eigen::Matrix<double, 6, 1> dx = Eigen::Matrix<double, 6, 1>::Zero();
    dx.head<3>() = 0.3 * along + 0.4 * across;
    CHECK(ipc::friction_energy(contact, dx, eps) == Approx(lambda * std::hypot(0.3 * mu_a, 0.4 * mu_b)).epsilon(1e-12));
}

TEST_CASE("Isotropic anisotropic friction is the isotropic one exactly", "[friction][anisotropic]")
{
    std::mt19937 generator(31);
    const Vector3d v0 = ipc::test::random_point(generator), v1 = ipc::test::random_point(generator),
                   v2 = ipc::test::random_point(generator), v3 = ipc::test::random_point(generator);
    const auto plain = ipc::edge_edge_friction_contact(v0, v1, v2, v3, 1.5, 0.45);
    auto same = plain;
    ipc::set_anisotropic_friction(same, Vector3d(1, 2, 3), 0.45, 0.45);
    for (double size : { 0.0, 0.3, 2.0 }) {
        const auto dx = anisotropic_test::random_displacements<4>(size * 1e-3, generator);
        CHECK(ipc::friction_energy(same, dx, 1e-3) == ipc::friction_energy(plain, dx, 1e-3));
        CHECK(ipc::friction_gradient(same, dx, 1e-3) == ipc::friction_gradient(plain, dx, 1e-3));
        CHECK(ipc::friction_hessian(same, dx, 1e-3) == ipc::friction_hessian(plain, dx, 1e-3));
    }
}

TEST_CASE("Anisotropic friction falls back to the first basis axis for a normal direction",
          "[friction][anisotropic]")
{
    auto contact = ipc::point_triangle_friction_contact(Vector3d(0.2, 0.2, 1e-3), Vector3d(0, 0, 0),
                                                        Vector3d(1, 0, 0), Vector3d(0, 1, 0), 1.0, 0.5);
    const Eigen::Matrix<double, 3, 2> basis = contact.tangent_basis;
    ipc::make_friction_anisotropic(contact, Vector3d(0, 0, -2), 1.0, 0.25);
    CHECK((contact.tangent_basis.col(0) - basis.col(0)).norm() < 1e-15);
    CHECK((contact.tangent_basis.col(1) - 0.25 * basis.col(1)).norm() < 1e-15);
}

TEST_CASE("Anisotropic friction inputs are validated", "[friction][anisotropic]")
{
    auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 0), Vector3d(0, 0, 1), 1.0, 0.5);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(ipc::make_friction_anisotropic(contact, Vector3d(0, 0, 0), 1.0, 0.5),
                      Catch::Contains("make_friction_anisotropic") && Catch::Contains("non-zero"));
    CHECK_THROWS_WITH(ipc::make_friction_anisotropic(contact, Vector3d(nan, 0, 0), 1.0, 0.5),
                      Catch::Contains("direction entry 0"));
    CHECK_THROWS_WITH(ipc::make_friction_anisotropic(contact, Eigen::Vector2d(1, 0), 1.0, 0.5),
                      Catch::Contains("3 entries"));
    CHECK_THROWS_WITH(ipc::make_friction_anisotropic(contact, Vector3d(1, 0, 0), -1.0, 0.5),
                      Catch::Contains("scale_a") && Catch::Contains("-1"));
    CHECK_THROWS_WITH(ipc::set_anisotropic_friction(contact, Vector3d(1, 0, 0), 0.5, nan),
                      Catch::Contains("set_anisotropic_friction") && Catch::Contains("mu_b"));
}
