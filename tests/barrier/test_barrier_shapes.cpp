// Barrier shapes: derivatives against finite differences, C2 clamp at x_hat,
// signs, behaviour at and inside the offset, validation, scalar types.

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <limits>
#include <string>

namespace {

// Central difference of a scalar function with a step relative to x_hat.
template <typename F> double central_difference(F&& f, double x, double h)
{
    return (f(x + h) - f(x - h)) / (2 * h);
}

template <typename Barrier> void check_derivatives_by_finite_differences(double x_hat)
{
    const double h = 1e-7 * x_hat;
    for (double fraction : { 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.999 }) {
        const double x = fraction * x_hat;
        const double first = Barrier::first_derivative(x, x_hat);
        const double second = Barrier::second_derivative(x, x_hat);
        const double fd_first
            = central_difference([&](double s) { return Barrier::value(s, x_hat); }, x, h);
        const double fd_second = central_difference(
            [&](double s) { return Barrier::first_derivative(s, x_hat); }, x, h);
        INFO("x_hat = " << x_hat << ", x = " << x);
        CHECK(first == Approx(fd_first).epsilon(1e-6).margin(1e-9 * std::abs(first) + 1e-30));
        CHECK(second == Approx(fd_second).epsilon(1e-6).margin(1e-30));
    }
}

template <typename Barrier> void check_c2_clamp(double x_hat)
{
    // Exactly zero at and beyond x_hat.
    for (double fraction : { 1.0, 1.0 + 1e-12, 1.5, 10.0 }) {
        const double x = fraction * x_hat;
        CHECK(Barrier::value(x, x_hat) == 0.0);
        CHECK(Barrier::first_derivative(x, x_hat) == 0.0);
        CHECK(Barrier::second_derivative(x, x_hat) == 0.0);
    }
    // From below, value, first and second derivatives vanish like delta^3,
    // delta^2 and delta (a C2 clamp, not C3: the second derivative does not
    // vanish faster than linearly).
    const double reference_value = Barrier::value(0.5 * x_hat, x_hat);
    const double reference_first = std::abs(Barrier::first_derivative(0.5 * x_hat, x_hat));
    const double reference_second = Barrier::second_derivative(0.5 * x_hat, x_hat);
    for (double delta : { 1e-3, 1e-4, 1e-5 }) {
        const double x = (1 - delta) * x_hat;
        INFO("x_hat = " << x_hat << ", delta = " << delta);
        CHECK(std::abs(Barrier::value(x, x_hat)) <= 10 * delta * delta * delta * reference_value);
        CHECK(std::abs(Barrier::first_derivative(x, x_hat))
            <= 10 * delta * delta * reference_first);
        CHECK(std::abs(Barrier::second_derivative(x, x_hat)) <= 10 * delta * reference_second);
        CHECK(Barrier::second_derivative(x, x_hat) >= 0.1 * delta * reference_second);
    }
}

template <typename Barrier> void check_signs(double x_hat)
{
    for (double fraction : { 1e-6, 1e-3, 0.1, 0.5, 0.9, 0.99999 }) {
        const double x = fraction * x_hat;
        CHECK(Barrier::value(x, x_hat) > 0);
        CHECK(Barrier::first_derivative(x, x_hat) < 0);
        CHECK(Barrier::second_derivative(x, x_hat) > 0);
    }
}

template <typename Scalar> Scalar reference_log_barrier(Scalar x, Scalar x_hat)
{
    using std::log;
    return x < x_hat ? -(x - x_hat) * (x - x_hat) * log(x / x_hat) : Scalar(0);
}

} // namespace

TEST_CASE("Barrier derivatives match finite differences", "[barrier]")
{
    for (double x_hat : { 1.0, 1e-6, 2.5e-3 }) {
        check_derivatives_by_finite_differences<ipc::ClampedLogBarrier>(x_hat);
        check_derivatives_by_finite_differences<ipc::NormalizedLogBarrier>(x_hat);
        check_derivatives_by_finite_differences<ipc::CubicBarrier>(x_hat);
    }
}

TEST_CASE("Every barrier shape is C2 at x_hat", "[barrier]")
{
    for (double x_hat : { 1.0, 1e-6 }) {
        check_c2_clamp<ipc::ClampedLogBarrier>(x_hat);
        check_c2_clamp<ipc::NormalizedLogBarrier>(x_hat);
        check_c2_clamp<ipc::CubicBarrier>(x_hat);
    }
}

TEST_CASE("Barrier shapes are positive, decreasing and convex below x_hat", "[barrier]")
{
    check_signs<ipc::ClampedLogBarrier>(1e-6);
    check_signs<ipc::NormalizedLogBarrier>(1e-6);
    check_signs<ipc::CubicBarrier>(1e-6);
}

TEST_CASE("Log barrier matches its defining formula and the free functions", "[barrier]")
{
    const double x_hat = 4e-6;
    for (double fraction : { 1e-4, 0.3, 0.7 }) {
        const double x = fraction * x_hat;
        CHECK(ipc::barrier(x, x_hat) == Approx(reference_log_barrier(x, x_hat)).epsilon(1e-14));
        CHECK(ipc::barrier_first_derivative(x, x_hat)
            == ipc::ClampedLogBarrier::first_derivative(x, x_hat));
        CHECK(ipc::barrier_second_derivative(x, x_hat)
            == ipc::ClampedLogBarrier::second_derivative(x, x_hat));
    }
}

TEST_CASE("Normalized and cubic shapes relate to the log barrier as documented", "[barrier]")
{
    const double x_hat = 3e-6;
    for (double fraction : { 0.01, 0.4, 0.9 }) {
        const double x = fraction * x_hat;
        const double scale = x_hat * x_hat;
        CHECK(ipc::NormalizedLogBarrier::value(x, x_hat) * scale
            == Approx(ipc::barrier(x, x_hat)).epsilon(1e-12));
        CHECK(ipc::NormalizedLogBarrier::first_derivative(x, x_hat) * scale
            == Approx(ipc::barrier_first_derivative(x, x_hat)).epsilon(1e-12));
        CHECK(ipc::NormalizedLogBarrier::second_derivative(x, x_hat) * scale
            == Approx(ipc::barrier_second_derivative(x, x_hat)).epsilon(1e-12));
    }
    // The cubic is the leading term of the log barrier at x_hat: the relative
    // difference shrinks linearly with the distance to the threshold.
    double previous = 1;
    for (double delta : { 1e-1, 1e-2, 1e-3 }) {
        const double x = (1 - delta) * x_hat;
        const double relative = std::abs(ipc::barrier(x, x_hat) - ipc::CubicBarrier::value(x, x_hat))
            / ipc::CubicBarrier::value(x, x_hat);
        CHECK(relative < previous);
        CHECK(relative < delta);
        previous = relative;
    }
}

TEST_CASE("At or inside the offset: infinities, never NaN", "[barrier]")
{
    const double inf = std::numeric_limits<double>::infinity();
    for (double x : { 0.0, -1e-12, -1.0 }) {
        CHECK(ipc::barrier(x, 1e-6) == inf);
        CHECK(ipc::barrier_first_derivative(x, 1e-6) == -inf);
        CHECK(ipc::barrier_second_derivative(x, 1e-6) == inf);
        CHECK(ipc::NormalizedLogBarrier::value(x, 1e-6) == inf);
        CHECK(ipc::NormalizedLogBarrier::first_derivative(x, 1e-6) == -inf);
        CHECK(ipc::NormalizedLogBarrier::second_derivative(x, 1e-6) == inf);
        // The cubic penalty stays finite and keeps growing.
        CHECK(std::isfinite(ipc::CubicBarrier::value(x, 1e-6)));
        CHECK(ipc::CubicBarrier::value(x, 1e-6) >= ipc::CubicBarrier::value(1e-9, 1e-6));
    }
    // Large and growing as x -> 0+.
    CHECK(ipc::barrier(1e-30, 1e-6) > ipc::barrier(1e-20, 1e-6));
    CHECK(ipc::barrier(1e-20, 1e-6) > ipc::barrier(1e-10, 1e-6));
    STATIC_REQUIRE(ipc::ClampedLogBarrier::diverges);
    STATIC_REQUIRE(ipc::NormalizedLogBarrier::diverges);
    STATIC_REQUIRE(!ipc::CubicBarrier::diverges);
}

TEST_CASE("Checked barrier rejects penetration and bad thresholds", "[barrier]")
{
    CHECK(ipc::checked_barrier(5e-7, 1e-6) == ipc::barrier(5e-7, 1e-6));
    CHECK(ipc::checked_barrier<ipc::CubicBarrier>(5e-7, 1e-6)
        == ipc::CubicBarrier::value(5e-7, 1e-6));
    CHECK_THROWS_AS(ipc::checked_barrier(0.0, 1e-6), ipc::penetration);
    CHECK_THROWS_WITH(ipc::checked_barrier(-2.5, 1e-6), Catch::Contains("-2.5"));
    CHECK_THROWS_AS(ipc::checked_barrier<ipc::CubicBarrier>(-1.0, 1e-6), ipc::penetration);
    CHECK_THROWS_AS(ipc::checked_barrier(std::nan(""), 1e-6), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::checked_barrier(1e-7, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::checked_barrier(1e-7, -1e-6), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::checked_barrier(1e-7, std::numeric_limits<double>::infinity()),
        Catch::Contains("x_hat"));
    // Every ipc exception derives from ipc::error.
    CHECK_THROWS_AS(ipc::checked_barrier(0.0, 1e-6), ipc::error);
}

TEMPLATE_TEST_CASE("Barrier instantiates for float, double and long double", "[barrier]", float,
    double, long double)
{
    using Scalar = TestType;
    const Scalar x_hat = Scalar(1e-2);
    const Scalar x = Scalar(3e-3);
    const long double reference
        = reference_log_barrier<long double>(static_cast<long double>(x), static_cast<long double>(x_hat));
    const double tolerance = std::is_same_v<Scalar, float> ? 1e-5 : 1e-12;
    CHECK(double(ipc::barrier(x, x_hat)) == Approx(double(reference)).epsilon(tolerance));
    CHECK(std::isfinite(double(ipc::barrier_first_derivative(x, x_hat))));
    CHECK(std::isfinite(double(ipc::barrier_second_derivative(x, x_hat))));
    CHECK(std::isfinite(double(ipc::NormalizedLogBarrier::value(x, x_hat))));
    CHECK(std::isfinite(double(ipc::CubicBarrier::second_derivative(x, x_hat))));
    CHECK(ipc::barrier(Scalar(0), x_hat) == std::numeric_limits<Scalar>::infinity());
    CHECK_THROWS_AS(ipc::checked_barrier(Scalar(-1), x_hat), ipc::penetration);
}

TEST_CASE("Barrier accepts a forward-mode autodiff scalar", "[barrier]")
{
    using Dual = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
    const double x_hat = 1e-4;
    for (double value : { 1e-6, 3e-5, 9e-5 }) {
        const Dual x(value, 1, 0); // seed dx/dx = 1
        const Dual h(x_hat);
        const Dual b = ipc::barrier(x, h);
        const Dual first = ipc::barrier_first_derivative(x, h);
        CHECK(b.value() == Approx(ipc::barrier(value, x_hat)).epsilon(1e-14));
        CHECK(b.derivatives()(0)
            == Approx(ipc::barrier_first_derivative(value, x_hat)).epsilon(1e-12));
        CHECK(first.derivatives()(0)
            == Approx(ipc::barrier_second_derivative(value, x_hat)).epsilon(1e-12));
        const Dual cubic = ipc::CubicBarrier::value(x, h);
        CHECK(cubic.derivatives()(0)
            == Approx(ipc::CubicBarrier::first_derivative(value, x_hat)).epsilon(1e-12));
        const Dual normalized = ipc::NormalizedLogBarrier::first_derivative(x, h);
        CHECK(normalized.derivatives()(0)
            == Approx(ipc::NormalizedLogBarrier::second_derivative(value, x_hat)).epsilon(1e-12));
    }
}
