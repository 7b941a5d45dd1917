// Lagged friction energy, gradient and Hessian per contact type: finite
// differences, PSD Hessians, the sliding force limit mu * lambda, basis
// independence, validation; and the normal-force magnitude.

#include <test_vectors.hpp>

#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/normal_force.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <reference_eigen.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace {

using Eigen::Vector3d;

using ipc::test::random_point;

// The four contact types built from random lag positions.
struct Contacts {
    ipc::FrictionContact<double, 2> point_point;
    ipc::FrictionContact<double, 3> point_edge;
    ipc::FrictionContact<double, 4> point_triangle;
    ipc::FrictionContact<double, 4> edge_edge;
};

Contacts random_contacts(std::mt19937& generator, double normal_force, double mu)
{
    const Vector3d v0 = random_point(generator), v1 = random_point(generator),
                   v2 = random_point(generator), v3 = random_point(generator);
    return { ipc::point_point_friction_contact(v0, v1, normal_force, mu),
        ipc::point_edge_friction_contact(v0, v1, v2, normal_force, mu),
        ipc::point_triangle_friction_contact(v0, v1, v2, v3, normal_force, mu),
        ipc::edge_edge_friction_contact(v0, v1, v2, v3, normal_force, mu) };
}

// Displacements whose tangential slip |u| is `slip` (direction random).
template <int N>
Eigen::Matrix<double, 3 * N, 1> displacements_with_slip(
    const ipc::FrictionContact<double, N>& contact, double slip, std::mt19937& generator)
{
    Eigen::Matrix<double, 3 * N, 1> dx;
    for (int i = 0; i < N; ++i) {
        dx.template segment<3>(3 * i) = random_point(generator);
    }
    const Eigen::Vector2d u = ipc::tangential_displacement(contact.tangent_basis, contact.weights, dx);
    if (u.norm() > 0) {
        dx *= slip / u.norm();
    }
    return dx;
}

template <typename Mollifier, int N>
void check_against_finite_differences(
    const ipc::FrictionContact<double, N>& contact, double eps, std::mt19937& generator)
{
    for (double fraction : { 0.0, 0.05, 0.5, 0.9, 1.2, 5.0 }) {
        const Eigen::VectorXd dx = displacements_with_slip(contact, fraction * eps, generator);
        const double h = 1e-7 * eps;
        INFO("vertices = " << N << ", slip / eps = " << fraction);
        const Eigen::VectorXd gradient = ipc::friction_gradient<Mollifier>(contact, dx, eps);
        const Eigen::MatrixXd hessian = ipc::friction_hessian<Mollifier>(contact, dx, eps);
        const Eigen::VectorXd fd_g = ipc::test::fd_gradient(
            [&](const Eigen::VectorXd& x) { return ipc::friction_energy<Mollifier>(contact, x, eps); },
            dx, h);
        const Eigen::MatrixXd fd_h = ipc::test::fd_jacobian(
            [&](const Eigen::VectorXd& x) {
                return Eigen::VectorXd(ipc::friction_gradient<Mollifier>(contact, x, eps));
            },
            dx, h);
        const double force_scale = contact.mu * contact.normal_force;
        CHECK(ipc::test::fd_close(gradient / force_scale, fd_g / force_scale, 1e-6));
        // At zero slip the gradient is only Lipschitz (|u| has a kink), and the
        // central difference is off by O(h / eps) relative.
        CHECK(ipc::test::fd_close(hessian * eps / force_scale, fd_h * eps / force_scale,
            fraction == 0.0 ? 1e-5 : 1e-6));
        CHECK((hessian - hessian.transpose()).cwiseAbs().maxCoeff() == 0.0);
    }
}

template <int N> double minimum_eigenvalue_ratio(const Eigen::Matrix<double, 3 * N, 3 * N>& hessian)
{
    const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(hessian);
    const double largest = eigenvalues.cwiseAbs().maxCoeff();
    return largest > 0 ? eigenvalues.minCoeff() / largest : 0.0;
}

} // namespace

TEST_CASE("Friction gradient and Hessian match finite differences", "[friction][energy]")
{
    std::mt19937 generator(11);
    for (int trial = 0; trial < 4; ++trial) {
        const Contacts contacts = random_contacts(generator, 3.5, 0.4);
        for (double eps : { 1e-3, 1.0 }) {
            check_against_finite_differences<ipc::C1FrictionMollifier>(contacts.point_point, eps, generator);
            check_against_finite_differences<ipc::C1FrictionMollifier>(contacts.point_edge, eps, generator);
            check_against_finite_differences<ipc::C1FrictionMollifier>(contacts.point_triangle, eps, generator);
            check_against_finite_differences<ipc::C1FrictionMollifier>(contacts.edge_edge, eps, generator);
            check_against_finite_differences<ipc::C2FrictionMollifier>(contacts.point_triangle, eps, generator);
            check_against_finite_differences<ipc::C2FrictionMollifier>(contacts.edge_edge, eps, generator);
            check_against_finite_differences<ipc::C0FrictionMollifier>(contacts.point_edge, eps, generator);
        }
    }
}

TEST_CASE("Friction Hessian is positive semi-definite", "[friction][energy]")
{
    std::mt19937 generator(5);
    std::uniform_real_distribution<double> log_slip(-4, 2);
    for (int trial = 0; trial < 100; ++trial) {
        const Contacts contacts = random_contacts(generator, 2.0, 0.3);
        const double eps = 1e-3;
        const double slip = eps * std::pow(10.0, log_slip(generator));
        const auto pt = displacements_with_slip(contacts.point_triangle, slip, generator);
        const auto ee = displacements_with_slip(contacts.edge_edge, slip, generator);
        const auto pe = displacements_with_slip(contacts.point_edge, slip, generator);
        const auto pp = displacements_with_slip(contacts.point_point, slip, generator);
        INFO("slip = " << slip);
        CHECK(minimum_eigenvalue_ratio<4>(ipc::friction_hessian(contacts.point_triangle, pt, eps)) >= -1e-12);
        CHECK(minimum_eigenvalue_ratio<4>(ipc::friction_hessian(contacts.edge_edge, ee, eps)) >= -1e-12);
        CHECK(minimum_eigenvalue_ratio<3>(ipc::friction_hessian(contacts.point_edge, pe, eps)) >= -1e-12);
        CHECK(minimum_eigenvalue_ratio<2>(ipc::friction_hessian(contacts.point_point, pp, eps)) >= -1e-12);
        CHECK(minimum_eigenvalue_ratio<4>(
                  ipc::friction_hessian<ipc::C2FrictionMollifier>(contacts.edge_edge, ee, eps))
            >= -1e-12);
    }
}

TEST_CASE("Friction force magnitude tends to mu * lambda beyond eps", "[friction][energy]")
{
    std::mt19937 generator(9);
    const double mu = 0.5, lambda = 8.0, eps = 1e-3;
    const auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 0), Vector3d(0, 0, 1e-4), lambda, mu);
    double previous = 0;
    for (double fraction : { 0.01, 0.1, 0.5, 0.9, 0.999 }) {
        const auto dx = displacements_with_slip(contact, fraction * eps, generator);
        const double force = ipc::friction_gradient(contact, dx, eps).head<3>().norm();
        CHECK(force < mu * lambda);
        CHECK(force > previous);
        previous = force;
    }
    for (double fraction : { 1.0, 1.5, 10.0, 1e4 }) {
        const auto dx = displacements_with_slip(contact, fraction * eps, generator);
        const auto gradient = ipc::friction_gradient(contact, dx, eps);
        CHECK(gradient.head<3>().norm() == Approx(mu * lambda).epsilon(1e-12));
        // Equal and opposite on the two points, and opposing the slip.
        CHECK((gradient.head<3>() + gradient.tail<3>()).norm() < 1e-12);
        CHECK(gradient.head<3>().dot(dx.head<3>() - dx.tail<3>()) > 0);
        // In sliding the energy is mu lambda |u|.
        CHECK(ipc::friction_energy(contact, dx, eps) == Approx(mu * lambda * fraction * eps).epsilon(1e-12));
    }
    // Zero slip: zero force, finite positive stiffness, minimum energy.
    const Eigen::Matrix<double, 6, 1> still = Eigen::Matrix<double, 6, 1>::Zero();
    CHECK(ipc::friction_gradient(contact, still, eps).norm() == 0.0);
    CHECK(ipc::friction_hessian(contact, still, eps).allFinite());
    CHECK(ipc::friction_energy(contact, still, eps) == Approx(mu * lambda * eps / 3));
}

TEST_CASE("Friction does not depend on the choice of tangent basis", "[friction][energy]")
{
    std::mt19937 generator(21);
    const Contacts contacts = random_contacts(generator, 1.0, 0.7);
    auto rotated = contacts.point_triangle;
    const double angle = 0.7;
    Eigen::Matrix2d rotation;
    rotation << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    rotated.tangent_basis = rotated.tangent_basis * rotation;
    const double eps = 1e-2;
    for (double slip : { 0.0, 3e-3, 5e-2 }) {
        const auto dx = displacements_with_slip(contacts.point_triangle, slip, generator);
        CHECK(ipc::friction_energy(rotated, dx, eps)
            == Approx(ipc::friction_energy(contacts.point_triangle, dx, eps)).epsilon(1e-13));
        CHECK(ipc::friction_gradient(rotated, dx, eps)
                  .isApprox(ipc::friction_gradient(contacts.point_triangle, dx, eps), 1e-12));
        CHECK(ipc::test::fd_close(ipc::friction_hessian(rotated, dx, eps),
            ipc::friction_hessian(contacts.point_triangle, dx, eps), 1e-12));
    }
}

TEST_CASE("Friction inputs are validated where documented", "[friction][energy]")
{
    const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), p(0.2, 0.2, 1e-3);
    CHECK_THROWS_WITH(ipc::point_triangle_friction_contact(p, a, b, c, -1.0, 0.5),
        Catch::Contains("normal force"));
    CHECK_THROWS_WITH(ipc::point_edge_friction_contact(p, a, b, 1.0, std::nan("")),
        Catch::Contains("mu"));
    CHECK_THROWS_AS(ipc::edge_edge_friction_contact(a, b, c, Vector3d(1, 1, 0), 1.0, 0.5),
        ipc::degenerate_geometry); // parallel edges (both along x)
    CHECK_THROWS_AS(ipc::point_triangle_friction_contact(p, a, b, b, 1.0, 0.5),
        ipc::degenerate_geometry);
    const auto contact = ipc::point_triangle_friction_contact(p, a, b, c, 1.0, 0.5);
    Eigen::Matrix<double, 12, 1> dx = Eigen::Matrix<double, 12, 1>::Constant(1e-4);
    CHECK_NOTHROW(ipc::check_friction_arguments(contact, dx, 1e-3));
    CHECK_THROWS_WITH(ipc::check_friction_arguments(contact, dx, 0.0), Catch::Contains("eps"));
    CHECK_THROWS_AS(ipc::check_friction_arguments(contact, Eigen::VectorXd(Eigen::VectorXd::Zero(9)), 1e-3),
        ipc::invalid_argument);
    dx[7] = std::nan("");
    CHECK_THROWS_WITH(ipc::check_friction_arguments(contact, dx, 1e-3), Catch::Contains("entry 7"));
}

TEST_CASE("Normal force is the offset barrier's force on the distance", "[friction][normal]")
{
    const double kappa = 1e4, dhat = 1e-3;
    for (double xi : { 0.0, 2e-3 }) {
        for (double fraction : { 0.01, 0.3, 0.8 }) {
            const double d = xi + fraction * dhat;
            const double h = 1e-7 * dhat;
            const double fd = -kappa
                * (ipc::offset_barrier((d + h) * (d + h), xi, dhat)
                    - ipc::offset_barrier((d - h) * (d - h), xi, dhat))
                / (2 * h);
            const double lambda = ipc::normal_force_magnitude(d * d, xi, dhat, kappa);
            INFO("xi = " << xi << ", d = " << d);
            CHECK(lambda == Approx(fd).epsilon(1e-6));
            CHECK(lambda > 0);
        }
        const double far = xi + 1.5 * dhat;
        CHECK(ipc::normal_force_magnitude(far * far, xi, dhat, kappa) == 0.0);
    }
    CHECK_THROWS_AS(ipc::normal_force_magnitude(1e-6, 1e-3, dhat, kappa), ipc::penetration);
    CHECK_THROWS_AS(ipc::normal_force_magnitude(4e-6, 1e-3, dhat, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::normal_force_magnitude(std::nan(""), 1e-3, dhat, kappa), ipc::invalid_argument);
}

TEMPLATE_TEST_CASE("Friction kernels instantiate for float, double and long double",
    "[friction][energy]", float, double, long double)
{
    using Scalar = TestType;
    using V = ipc::Vector3<Scalar>;
    const V p(Scalar(0.2), Scalar(0.3), Scalar(0.01)), a(Scalar(0), Scalar(0), Scalar(0)),
        b(Scalar(1), Scalar(0), Scalar(0)), c(Scalar(0), Scalar(1), Scalar(0));
    const auto contact = ipc::point_triangle_friction_contact(p, a, b, c, Scalar(2), Scalar(0.5));
    ipc::Vector<Scalar, 12> dx = ipc::Vector<Scalar, 12>::Zero();
    dx[0] = Scalar(3e-3); // the point slides along x by 3 mm
    const Scalar eps = Scalar(1e-3);
    CHECK(double(ipc::friction_energy(contact, dx, eps)) == Approx(2 * 0.5 * 3e-3).epsilon(1e-5));
    const auto gradient = ipc::friction_gradient<ipc::C2FrictionMollifier>(contact, dx, eps);
    CHECK(double(gradient[0]) == Approx(1.0).epsilon(1e-5));
    CHECK(ipc::friction_hessian(contact, dx, eps).allFinite());
    CHECK(ipc::normal_force_magnitude(Scalar(2.25e-4), Scalar(1e-2), Scalar(1e-2), Scalar(1))
        > Scalar(0));
    // Plain double literals for lambda and mu convert to the positions' scalar.
    const auto pp = ipc::point_point_friction_contact(a, p, 1.0, 1.0);
    const auto pe = ipc::point_edge_friction_contact(p, a, b, Scalar(1), Scalar(1));
    const auto ee = ipc::edge_edge_friction_contact(a, b, p, c, Scalar(1), Scalar(1));
    CHECK(ipc::friction_hessian(pp, ipc::Vector<Scalar, 6>::Zero().eval(), eps).allFinite());
    CHECK(ipc::friction_gradient(pe, ipc::Vector<Scalar, 9>::Ones().eval(), eps).allFinite());
    CHECK(ipc::friction_energy(ee, ipc::Vector<Scalar, 12>::Ones().eval(), eps) > Scalar(0));
}

namespace {

// The quadratic model of friction_energy at dx along the step p, with H the
// given Hessian: E(dx) + g . p + p^T H p / 2.
template <typename Mollifier, int N>
double friction_model(const ipc::FrictionContact<double, N>& contact, const Eigen::Matrix<double, 3 * N, 1>& dx,
                      const Eigen::Matrix<double, 3 * N, 1>& p, double eps, ipc::FrictionHessianForm form)
{
    const auto g = ipc::friction_gradient<Mollifier>(contact, dx, eps);
    const auto H = ipc::friction_hessian<Mollifier>(contact, dx, eps, ipc::PSDProjection::none, form);
    return ipc::friction_energy<Mollifier>(contact, dx, eps) + g.dot(p) + 0.5 * p.dot(H * p);
}

// Over slips below, at and past eps and steps of many sizes (reversals
// among them), the majorizer's model is never below the energy; the exact
// Hessian's model is, on the reversals of a sliding slip. Returns the most
// the exact model fell short, relative to mu lambda eps.
template <typename Mollifier, int N>
double check_majorizer(const ipc::FrictionContact<double, N>& contact, double eps, std::mt19937& generator)
{
    using Stencil = Eigen::Matrix<double, 3 * N, 1>;
    const double scale = contact.mu * contact.normal_force * eps;
    double exact_shortfall = 0;
    for (double fraction : { 0.0, 0.05, 0.5, 0.9, 1.2, 5.0, 40.0 }) {
        const Stencil dx = displacements_with_slip(contact, fraction * eps, generator);
        std::vector<Stencil> steps = { -2 * dx, -dx, -0.5 * dx, 3 * dx };
        for (double size : { 0.01, 0.3, 1.0, 2.0, 10.0, 100.0 }) {
            steps.push_back(displacements_with_slip(contact, size * eps, generator));
        }
        for (const Stencil& p : steps) {
            const double energy = ipc::friction_energy<Mollifier>(contact, Stencil(dx + p), eps);
            const double majorizer = friction_model<Mollifier>(contact, dx, p, eps, ipc::FrictionHessianForm::majorizer);
            const double exact = friction_model<Mollifier>(contact, dx, p, eps, ipc::FrictionHessianForm::exact);
            INFO("vertices = " << N << ", slip / eps = " << fraction << ", step / eps = " << p.norm() / eps);
            CHECK(majorizer >= energy - 1e-12 * (scale + std::abs(energy)));
            exact_shortfall = std::max(exact_shortfall, (energy - exact) / scale);
        }
        // Across the slip both forms agree; along it the majorizer is stiffer.
        const auto H_exact = ipc::friction_hessian<Mollifier>(contact, dx, eps);
        const auto H_major = ipc::friction_hessian<Mollifier>(contact, dx, eps, ipc::PSDProjection::none,
                                                              ipc::FrictionHessianForm::majorizer);
        CHECK(minimum_eigenvalue_ratio<N>(H_major - H_exact) >= -1e-12);
        CHECK(minimum_eigenvalue_ratio<N>(H_major) >= -1e-12);
        if (fraction == 0.0) {
            CHECK((H_major - H_exact).cwiseAbs().maxCoeff() <= 1e-12 * H_exact.cwiseAbs().maxCoeff());
        }
    }
    return exact_shortfall;
}

} // namespace

TEST_CASE("Friction majorizer Hessian: its quadratic model bounds the energy from above", "[friction][energy]")
{
    std::mt19937 generator(23);
    for (int trial = 0; trial < 6; ++trial) {
        const Contacts contacts = random_contacts(generator, 2.5, 0.35);
        for (double eps : { 1e-4, 1.0 }) {
            double shortfall = 0;
            shortfall = std::max(shortfall, check_majorizer<ipc::C1FrictionMollifier>(contacts.point_triangle, eps, generator));
            shortfall = std::max(shortfall, check_majorizer<ipc::C1FrictionMollifier>(contacts.edge_edge, eps, generator));
            shortfall = std::max(shortfall, check_majorizer<ipc::C1FrictionMollifier>(contacts.point_edge, eps, generator));
            shortfall = std::max(shortfall, check_majorizer<ipc::C1FrictionMollifier>(contacts.point_point, eps, generator));
            shortfall = std::max(shortfall, check_majorizer<ipc::C2FrictionMollifier>(contacts.point_triangle, eps, generator));
            shortfall = std::max(shortfall, check_majorizer<ipc::C0FrictionMollifier>(contacts.edge_edge, eps, generator));
            // The exact Hessian has no curvature along a sliding slip, so its
            // model misses a reversal by about the energy itself.
            CHECK(shortfall > 1.0);
        }
    }
}
