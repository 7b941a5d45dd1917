// Friction mollifiers: derivative chain f0 -> f1 -> f1', the division-free
// forms at zero slip, continuity at eps, and the paper's C1 formula.

#include <ipc/friction/friction_mollifier.hpp>

#include <catch2/catch.hpp>

#include <cmath>

namespace {

template <typename Mollifier> void check_mollifier(double eps)
{
    const double h = 1e-7 * eps;
    for (double fraction : { 0.01, 0.2, 0.5, 0.9, 1.5, 4.0 }) {
        const double y = fraction * eps;
        INFO("eps = " << eps << ", y = " << y);
        const double fd_f1 = (Mollifier::f0(y + h, eps) - Mollifier::f0(y - h, eps)) / (2 * h);
        const double fd_f1_derivative
            = (Mollifier::f1(y + h, eps) - Mollifier::f1(y - h, eps)) / (2 * h);
        const double fd_ratio_derivative
            = (Mollifier::f1_over_y(y + h, eps) - Mollifier::f1_over_y(y - h, eps)) / (2 * h);
        CHECK(Mollifier::f1(y, eps) == Approx(fd_f1).epsilon(1e-6));
        CHECK(Mollifier::f1_derivative(y, eps) == Approx(fd_f1_derivative).epsilon(1e-6).margin(1e-9 / eps));
        CHECK(Mollifier::f1_over_y(y, eps) == Approx(Mollifier::f1(y, eps) / y).epsilon(1e-12));
        CHECK(Mollifier::f1_over_y_derivative(y, eps)
            == Approx(fd_ratio_derivative).epsilon(1e-6).margin(1e-9 / (eps * eps)));
        // Monotone, in [0, 1], and f0 >= y (the potential never undercuts sliding).
        CHECK(Mollifier::f1_derivative(y, eps) >= 0);
        CHECK(Mollifier::f1(y, eps) >= 0);
        CHECK(Mollifier::f1(y, eps) <= 1);
        CHECK(Mollifier::f0(y, eps) >= y);
    }
    // Sliding: f0(y) = y, f1 = 1.
    CHECK(Mollifier::f0(eps, eps) == Approx(eps).epsilon(1e-15));
    CHECK(Mollifier::f1(eps, eps) == 1.0);
    CHECK(Mollifier::f1(eps * (1 - 1e-9), eps) == Approx(1.0).epsilon(1e-8));
    CHECK(Mollifier::f0(eps * (1 - 1e-9), eps) == Approx(eps).epsilon(1e-8));
    // Zero slip: finite, no division by zero, and f1(y)/y -> f1'(0).
    CHECK(Mollifier::f1(0.0, eps) == 0.0);
    CHECK(std::isfinite(Mollifier::f1_over_y(0.0, eps)));
    CHECK(std::isfinite(Mollifier::f1_over_y_derivative(0.0, eps)));
    CHECK(Mollifier::f1_over_y(0.0, eps) == Approx(Mollifier::f1_derivative(0.0, eps)).epsilon(1e-14));
    CHECK(Mollifier::f1_over_y(0.0, eps) > 0);
}

} // namespace

TEST_CASE("Friction mollifier derivatives match finite differences", "[friction][mollifier]")
{
    for (double eps : { 1.0, 1e-5, 3e-3 }) {
        check_mollifier<ipc::C0FrictionMollifier>(eps);
        check_mollifier<ipc::C1FrictionMollifier>(eps);
        check_mollifier<ipc::C2FrictionMollifier>(eps);
    }
}

TEST_CASE("C1 mollifier is the IPC polynomial", "[friction][mollifier]")
{
    const double eps = 2e-4;
    for (double y : { 1e-6, 5e-5, 1.9e-4 }) {
        CHECK(ipc::C1FrictionMollifier::f1(y, eps)
            == Approx(-y * y / (eps * eps) + 2 * y / eps).epsilon(1e-13));
        CHECK(ipc::C1FrictionMollifier::f0(y, eps)
            == Approx(-y * y * y / (3 * eps * eps) + y * y / eps + eps / 3).epsilon(1e-13));
    }
}

TEST_CASE("Mollifier smoothness at eps: C1 and C2 shapes", "[friction][mollifier]")
{
    const double eps = 1e-3;
    const double below = eps * (1 - 1e-7);
    // C1 and C2: f1' is continuous at eps (tends to 0 from below).
    CHECK(std::abs(ipc::C1FrictionMollifier::f1_derivative(below, eps)) < 1e-3 / eps);
    CHECK(std::abs(ipc::C2FrictionMollifier::f1_derivative(below, eps)) < 1e-3 / eps);
    // C2: f1'' -> 0 as well: f1' vanishes quadratically.
    CHECK(ipc::C2FrictionMollifier::f1_derivative(eps * (1 - 1e-3), eps)
        == Approx(3e-6 / eps).epsilon(1e-6));
    // C0: f1' jumps from 1/eps to 0.
    CHECK(ipc::C0FrictionMollifier::f1_derivative(below, eps) == Approx(1 / eps));
}

TEMPLATE_TEST_CASE("Mollifiers instantiate for float, double and long double",
    "[friction][mollifier]", float, double, long double)
{
    using Scalar = TestType;
    const Scalar eps = Scalar(1e-2);
    const Scalar y = Scalar(4e-3);
    CHECK(double(ipc::C1FrictionMollifier::f0(y, eps))
        == Approx(-4e-3 * 4e-3 * 4e-3 / (3e-4) + 16e-6 / 1e-2 + 1e-2 / 3).epsilon(1e-5));
    CHECK(ipc::C2FrictionMollifier::f1(y, eps) > Scalar(0));
    CHECK(ipc::C0FrictionMollifier::f1_over_y(Scalar(0), eps) == Scalar(1) / eps);
    CHECK(ipc::C1FrictionMollifier::f1_over_y_derivative(Scalar(0), eps) < Scalar(0));
}
