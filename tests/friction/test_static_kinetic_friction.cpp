// Static and kinetic friction coefficients: the G kernels against finite
// differences, the stencil energy's gradient and Hessian, the PSD
// projection, the coefficient seen by the sliding force, exact reduction to
// the single-coefficient model, validation.

#include <test_vectors.hpp>

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

namespace static_kinetic_test {

using Eigen::Vector3d;

// Displacements of the contact's stencil with tangential slip `slip`.
template <int N>
Eigen::Matrix<double, 3 * N, 1> slip_displacements(
    const ipc::FrictionContact<double, N>& contact, double slip, std::mt19937& generator)
{
    Eigen::Matrix<double, 3 * N, 1> dx;
    for (int i = 0; i < N; ++i) {
        dx.template segment<3>(3 * i) = ipc::test::random_point(generator);
    }
    const Eigen::Vector2d u = ipc::tangential_displacement(contact.tangent_basis, contact.weights, dx);
    if (u.norm() > 0) {
        dx *= slip / u.norm();
    }
    return dx;
}

template <typename Mollifier> void check_kernels(double eps, double c)
{
    const double h = 1e-7 * eps;
    for (double t : { 0.1, 0.5, 0.9, 1.1, 1.3, 1.5 + 0.5 * c, 0.99 + c, 1.2 + c, 3.0 + c }) {
        const double y = t * eps;
        INFO("y / eps = " << t << ", c = " << c);
        const double fd_g = (ipc::static_friction_f0<Mollifier>(y + h, eps, c)
                                - ipc::static_friction_f0<Mollifier>(y - h, eps, c))
            / (2 * h);
        CHECK(fd_g == Approx(ipc::static_friction_f1<Mollifier>(y, eps, c)).margin(1e-7));
        const double fd_dg = (ipc::static_friction_f1<Mollifier>(y + h, eps, c)
                                 - ipc::static_friction_f1<Mollifier>(y - h, eps, c))
            / (2 * h);
        CHECK(fd_dg * eps
            == Approx(ipc::static_friction_f1_derivative<Mollifier>(y, eps, c) * eps).margin(1e-6));
        CHECK(ipc::static_friction_f1_over_y<Mollifier>(y, eps, c) * y
            == Approx(ipc::static_friction_f1<Mollifier>(y, eps, c)).margin(1e-14));
    }
    // Continuity at eps and (1 + c) eps: values and first derivatives.
    for (double knot : { eps, (1 + c) * eps }) {
        const double below = knot * (1 - 1e-12), above = knot * (1 + 1e-12);
        CHECK(ipc::static_friction_f0<Mollifier>(below, eps, c)
            == Approx(ipc::static_friction_f0<Mollifier>(above, eps, c)).epsilon(1e-10));
        CHECK(ipc::static_friction_f1<Mollifier>(below, eps, c)
            == Approx(ipc::static_friction_f1<Mollifier>(above, eps, c)).margin(1e-10));
    }
    // G is constant eps (1 + c / 2) past the transition, g 0.
    CHECK(ipc::static_friction_f0<Mollifier>(10 * (1 + c) * eps, eps, c) == Approx(eps * (1 + c / 2)));
    CHECK(ipc::static_friction_f1<Mollifier>(10 * (1 + c) * eps, eps, c) == 0.0);
}

template <int N>
void check_stencil(const ipc::FrictionContact<double, N>& contact, double eps, std::mt19937& generator)
{
    const double c = contact.static_transition;
    for (double t : { 0.0, 0.3, 0.9, 1.2, 1.0 + 0.5 * c, 1.0 + 0.9 * c, 1.5 + c, 5.0 + c }) {
        INFO("vertices = " << N << ", slip / eps = " << t);
        const Eigen::VectorXd dx = slip_displacements(contact, t * eps, generator);
        const double h = 1e-7 * eps;
        const Eigen::VectorXd g = ipc::friction_gradient(contact, dx, eps);
        const Eigen::MatrixXd H = ipc::friction_hessian(contact, dx, eps);
        const Eigen::VectorXd fd_g = ipc::test::fd_gradient(
            [&](const Eigen::VectorXd& x) { return ipc::friction_energy(contact, x, eps); }, dx, h);
        const Eigen::MatrixXd fd_H = ipc::test::fd_jacobian(
            [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(ipc::friction_gradient(contact, x, eps)); }, dx,
            h);
        const double scale = contact.normal_force * std::max(contact.mu, ipc::static_friction_coefficient(contact));
        CHECK(ipc::test::fd_close(g / scale, fd_g / scale, 1e-6));
        CHECK(ipc::test::fd_close(H * eps / scale, fd_H * eps / scale, t == 0.0 ? 1e-5 : 1e-6));
        // Projected: PSD, and equal to the exact one where that is PSD.
        const Eigen::MatrixXd P = ipc::friction_hessian(contact, dx, eps, ipc::PSDProjection::clamp);
        const Eigen::VectorXd exact_eigenvalues = ipc::test::reference_eigenvalues(H);
        const Eigen::VectorXd projected_eigenvalues = ipc::test::reference_eigenvalues(P);
        const double largest = std::max(1e-300, projected_eigenvalues.cwiseAbs().maxCoeff());
        CHECK(projected_eigenvalues.minCoeff() >= -1e-12 * largest);
        if (exact_eigenvalues.minCoeff() >= 0) {
            CHECK((P - H).cwiseAbs().maxCoeff() == 0.0);
        }
        CHECK((P - P.transpose()).cwiseAbs().maxCoeff() == 0.0);
    }
}

} // namespace static_kinetic_test

TEST_CASE("Static friction kernels match finite differences", "[friction][static_kinetic]")
{
    using namespace static_kinetic_test;
    for (double c : { 0.5, 1.0, 3.0 }) {
        check_kernels<ipc::C1FrictionMollifier>(1e-3, c);
        check_kernels<ipc::C2FrictionMollifier>(1e-3, c);
        check_kernels<ipc::C0FrictionMollifier>(1.0, c);
    }
}

TEST_CASE("Static/kinetic friction gradient and Hessian match finite differences", "[friction][static_kinetic]")
{
    using namespace static_kinetic_test;
    std::mt19937 generator(17);
    for (int trial = 0; trial < 2; ++trial) {
        const Vector3d v0 = ipc::test::random_point(generator), v1 = ipc::test::random_point(generator),
                       v2 = ipc::test::random_point(generator), v3 = ipc::test::random_point(generator);
        auto pp = ipc::point_point_friction_contact(v0, v1, 2.5, 0.3);
        auto pe = ipc::point_edge_friction_contact(v0, v1, v2, 2.5, 0.3);
        auto pt = ipc::point_triangle_friction_contact(v0, v1, v2, v3, 2.5, 0.3);
        auto ee = ipc::edge_edge_friction_contact(v0, v1, v2, v3, 2.5, 0.3);
        // mu_s > mu_k (the usual case) and mu_s < mu_k.
        const double mu_s = trial == 0 ? 0.8 : 0.2, mu_k = 0.4, c = trial == 0 ? 1.5 : 0.7;
        ipc::set_static_kinetic_friction(pp, mu_s, mu_k, c);
        ipc::set_static_kinetic_friction(pe, mu_s, mu_k, c);
        ipc::set_static_kinetic_friction(pt, mu_s, mu_k, c);
        ipc::set_static_kinetic_friction(ee, mu_s, mu_k, c);
        for (double eps : { 1e-3, 1.0 }) {
            check_stencil(pp, eps, generator);
            check_stencil(pe, eps, generator);
            check_stencil(pt, eps, generator);
            check_stencil(ee, eps, generator);
        }
    }
}

TEST_CASE("Static/kinetic friction force follows mu(y)", "[friction][static_kinetic]")
{
    using namespace static_kinetic_test;
    std::mt19937 generator(3);
    const double lambda = 4.0, mu_s = 0.9, mu_k = 0.5, eps = 1e-3, c = 1.0;
    auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 0), Vector3d(0, 0, 1e-4), lambda, mu_k);
    ipc::set_static_kinetic_friction(contact, mu_s, mu_k, c);
    CHECK(ipc::static_friction_coefficient(contact) == Approx(mu_s));
    for (double t : { 0.2, 0.7, 1.0, 1.25, 1.5, 1.75, 2.0, 3.0, 50.0 }) {
        const double y = t * eps;
        const auto dx = slip_displacements(contact, y, generator);
        const double force = ipc::friction_gradient(contact, dx, eps).head<3>().norm();
        const double mu_y = ipc::friction_coefficient_at_slip(contact, y, eps);
        INFO("y / eps = " << t);
        CHECK(force == Approx(lambda * mu_y * ipc::C1FrictionMollifier::f1(y, eps)).epsilon(1e-12));
        if (t <= 1.0) {
            CHECK(mu_y == Approx(mu_s));
        } else if (t >= 2.0) {
            CHECK(mu_y == Approx(mu_k));
        } else {
            CHECK(mu_y < mu_s);
            CHECK(mu_y > mu_k);
        }
    }
    // The peak (breakaway) force is mu_s lambda at y = eps.
    const auto at_eps = slip_displacements(contact, eps, generator);
    CHECK(ipc::friction_gradient(contact, at_eps, eps).head<3>().norm() == Approx(mu_s * lambda).epsilon(1e-12));
    // Sliding energy: lambda (mu_k y + (mu_s - mu_k) eps (1 + c / 2)).
    const double y = 7 * eps;
    CHECK(ipc::friction_energy(contact, slip_displacements(contact, y, generator), eps)
          == Approx(lambda * (mu_k * y + (mu_s - mu_k) * eps * (1 + c / 2))).epsilon(1e-12));
}

TEST_CASE("Equal static and kinetic coefficients reproduce single-coefficient friction exactly",
          "[friction][static_kinetic]")
{
    using namespace static_kinetic_test;
    std::mt19937 generator(8);
    const Vector3d v0 = ipc::test::random_point(generator), v1 = ipc::test::random_point(generator),
                   v2 = ipc::test::random_point(generator), v3 = ipc::test::random_point(generator);
    const auto plain = ipc::point_triangle_friction_contact(v0, v1, v2, v3, 1.7, 0.35);
    auto both = plain;
    ipc::set_static_kinetic_friction(both, 0.35, 0.35, 2.0);
    CHECK(both.mu_static_excess == 0.0);
    for (double t : { 0.0, 0.4, 1.0, 1.6, 2.5, 10.0 }) {
        const double eps = 1e-3;
        const auto dx = slip_displacements(plain, t * eps, generator);
        CHECK(ipc::friction_energy(both, dx, eps) == ipc::friction_energy(plain, dx, eps));
        CHECK(ipc::friction_gradient(both, dx, eps) == ipc::friction_gradient(plain, dx, eps));
        CHECK(ipc::friction_hessian(both, dx, eps) == ipc::friction_hessian(plain, dx, eps));
        // The single-coefficient energy is mu lambda f0(y).
        CHECK(ipc::friction_energy(plain, dx, eps)
              == 0.35 * 1.7 * ipc::C1FrictionMollifier::f0(double(ipc::tangential_displacement(
                                                                        plain.tangent_basis, plain.weights, dx)
                                                                        .norm()),
                                                        eps));
    }
}

TEST_CASE("Static/kinetic friction inputs are validated", "[friction][static_kinetic]")
{
    auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 0), Vector3d(0, 0, 1), 1.0, 0.5);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(ipc::set_static_kinetic_friction(contact, -0.1, 0.5),
                      Catch::Contains("set_static_kinetic_friction") && Catch::Contains("mu_s")
                          && Catch::Contains("-0.1"));
    CHECK_THROWS_WITH(ipc::set_static_kinetic_friction(contact, 0.6, nan), Catch::Contains("mu_k"));
    CHECK_THROWS_WITH(ipc::set_static_kinetic_friction(contact, 0.6, 0.5, 0.0), Catch::Contains("transition"));
    CHECK_THROWS_AS(ipc::set_static_kinetic_friction(contact, 0.6, 0.5, std::numeric_limits<double>::infinity()),
                    ipc::invalid_argument);
    CHECK(contact.mu == 0.5); // unchanged by the failed calls
    const Eigen::Matrix<double, 6, 1> dx = Eigen::Matrix<double, 6, 1>::Constant(1e-4);
    contact.mu_static_excess = -0.7; // mu_s = -0.2
    CHECK_THROWS_WITH(ipc::check_friction_arguments(contact, dx, 1e-3), Catch::Contains("mu_s"));
    contact.mu_static_excess = 0.1;
    contact.static_transition = -1;
    CHECK_THROWS_WITH(ipc::check_friction_arguments(contact, dx, 1e-3), Catch::Contains("transition"));
}
