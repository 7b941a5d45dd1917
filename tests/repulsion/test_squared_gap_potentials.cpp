// Squared-gap potentials: derivatives against finite differences in every
// regime, the cubic clamp's interpolation conditions and continuity, the
// barrier's divergence and its C1 (not C2) junction, band conversions.

#include <ipc/potentials/squared_gap_potentials.hpp>

#include <catch2/catch.hpp>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace potential_tests {

using Scalar1D = std::function<double(double, double)>;

struct Potential {
    const char* name;
    Scalar1D value;
    Scalar1D derivative;
    bool finite_below_zero; // defined (finite) for c <= 0
};

const Potential potentials[] = {
    { "hinge", ipc::hinge_penalty<double>, ipc::hinge_penalty_derivative<double>, true },
    { "squared hinge", ipc::squared_hinge_penalty<double>, ipc::squared_hinge_penalty_derivative<double>, true },
    { "cubic clamp", ipc::cubic_clamp<double>, ipc::cubic_clamp_derivative<double>, true },
    { "clamped cubic log barrier", ipc::clamped_cubic_log_barrier<double>,
        ipc::clamped_cubic_log_barrier_derivative<double>, false },
};

double central_difference(const Scalar1D& f, double c, double eps, double h)
{
    return (f(c + h, eps) - f(c - h, eps)) / (2 * h);
}

} // namespace potential_tests

TEST_CASE("squared-gap potential derivatives against finite differences", "[repulsion][potentials]")
{
    using namespace potential_tests;
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> log_band(-4, 2);
    std::uniform_real_distribution<double> unit(0.02, 0.98);
    for (const Potential& p : potentials) {
        for (int trial = 0; trial < 50; ++trial) {
            const double eps = std::pow(10.0, log_band(rng));
            const double h = 1e-6 * eps;
            // Regimes: below zero, inside the band, beyond the band.
            const double cs[] = { -eps * (0.02 + 3 * unit(rng)), eps * unit(rng), eps * (1.02 + 3 * unit(rng)) };
            for (int regime = 0; regime < 3; ++regime) {
                const double c = cs[regime];
                if (regime == 0 && !p.finite_below_zero) {
                    continue;
                }
                INFO(p.name << ": eps = " << eps << ", c = " << c);
                const double analytic = p.derivative(c, eps);
                const double fd = central_difference(p.value, c, eps, h);
                CHECK(analytic == Approx(fd).epsilon(1e-6).margin(1e-8 * std::abs(p.value(c, eps) / eps) + 1e-12));
            }
        }
    }
}

TEST_CASE("hinge penalties: values", "[repulsion][potentials]")
{
    CHECK(ipc::hinge_penalty(0.5, 2.0) == 1.5);
    CHECK(ipc::hinge_penalty(-1.0, 2.0) == 3.0);
    CHECK(ipc::hinge_penalty(2.0, 2.0) == 0.0);
    CHECK(ipc::hinge_penalty(3.0, 2.0) == 0.0);
    CHECK(ipc::hinge_penalty_derivative(1.999, 2.0) == -1.0);
    CHECK(ipc::hinge_penalty_derivative(2.0, 2.0) == 0.0);
    CHECK(ipc::squared_hinge_penalty(0.5, 2.0) == 0.5 * 1.5 * 1.5);
    CHECK(ipc::squared_hinge_penalty(5.0, 2.0) == 0.0);
    CHECK(ipc::squared_hinge_penalty_derivative(0.5, 2.0) == -1.5);
    CHECK(ipc::squared_hinge_penalty_derivative(2.5, 2.0) == 0.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(ipc::hinge_penalty(nan, 1.0)));
    CHECK(std::isnan(ipc::hinge_penalty_derivative(nan, 1.0)));
    CHECK(std::isnan(ipc::squared_hinge_penalty(nan, 1.0)));
    CHECK(std::isnan(ipc::cubic_clamp(nan, 1.0)));
    CHECK(std::isnan(ipc::clamped_cubic_log_barrier(nan, 1.0)));
    CHECK(std::isnan(ipc::clamped_cubic_log_barrier_derivative(nan, 1.0)));
}

TEST_CASE("cubic clamp: interpolation conditions, continuity, monotonicity", "[repulsion][potentials]")
{
    for (const double eps : { 1e-6, 0.01, 1.0, 21.75, 1e4 }) {
        INFO("eps = " << eps);
        CHECK(ipc::cubic_clamp(0.0, eps) == 0.0);
        CHECK(ipc::cubic_clamp(eps, eps) == eps);
        CHECK(ipc::cubic_clamp(-0.5 * eps, eps) == -0.5 * eps);
        CHECK(ipc::cubic_clamp(2 * eps, eps) == eps);
        // f'(0) = 1 and f'(eps) = 0 from inside the band.
        CHECK(ipc::cubic_clamp_derivative(1e-12 * eps, eps) == Approx(1.0).epsilon(1e-10));
        CHECK(ipc::cubic_clamp_derivative(0.0, eps) == 1.0);
        CHECK(std::abs(ipc::cubic_clamp_derivative(eps * (1 - 1e-12), eps)) <= 1e-10);
        CHECK(ipc::cubic_clamp_derivative(eps, eps) == 0.0);
        // Continuity from inside at both ends.
        CHECK(ipc::cubic_clamp(1e-12 * eps, eps) == Approx(1e-12 * eps).epsilon(1e-10));
        CHECK(ipc::cubic_clamp(eps * (1 - 1e-9), eps) == Approx(eps).epsilon(1e-15));
        // The closed form of the paper: c + c^2/eps - c^3/eps^2.
        const double c = 0.3 * eps;
        CHECK(ipc::cubic_clamp(c, eps) == Approx(c + c * c / eps - c * c * c / (eps * eps)).epsilon(1e-14));
        // Strictly increasing and positive on (0, eps).
        double previous = 0.0;
        for (int k = 1; k <= 1000; ++k) {
            const double value = ipc::cubic_clamp(eps * k / 1000.0, eps);
            CHECK(value > previous);
            previous = value;
        }
    }
}

TEST_CASE("clamped cubic log barrier: divergence, zero band, C1 junction", "[repulsion][potentials]")
{
    const double inf = std::numeric_limits<double>::infinity();
    for (const double eps : { 1e-6, 1.0, 21.75 }) {
        INFO("eps = " << eps);
        CHECK(ipc::clamped_cubic_log_barrier(0.0, eps) == inf);
        CHECK(ipc::clamped_cubic_log_barrier(-eps, eps) == inf);
        CHECK(ipc::clamped_cubic_log_barrier_derivative(0.0, eps) == -inf);
        CHECK(ipc::clamped_cubic_log_barrier_derivative(-1.0, eps) == -inf);
        CHECK(ipc::clamped_cubic_log_barrier(eps, eps) == 0.0);
        CHECK(ipc::clamped_cubic_log_barrier(3 * eps, eps) == 0.0);
        CHECK(ipc::clamped_cubic_log_barrier_derivative(eps, eps) == 0.0);
        // Goes to +infinity as c -> 0+, monotonically.
        double previous = 0.0;
        for (int k = 1; k <= 300; ++k) {
            const double c = eps * std::pow(10.0, -k);
            const double value = ipc::clamped_cubic_log_barrier(c, eps);
            CHECK(value > previous);
            previous = value;
        }
        CHECK(previous > 600.0);
        // -log(f / eps) ~ -log(c / eps) near 0, and -log(f / eps) in the band.
        const double small = 1e-9 * eps;
        CHECK(ipc::clamped_cubic_log_barrier(small, eps) == Approx(-std::log(small / eps)).epsilon(1e-6));
        for (const double fraction : { 0.1, 0.4, 0.6, 0.9 }) {
            const double c = fraction * eps;
            CHECK(ipc::clamped_cubic_log_barrier(c, eps)
                == Approx(-std::log(ipc::cubic_clamp(c, eps) / eps)).epsilon(1e-13));
        }
        // Accurate near eps, where it behaves like 2 (1 - c/eps)^2.
        CHECK(ipc::clamped_cubic_log_barrier(eps * (1 - 1e-6), eps) == Approx(2e-12).epsilon(1e-5));
        // Value and derivative continuous at eps (C1) ...
        const double below = eps * (1 - 1e-9);
        CHECK(std::abs(ipc::clamped_cubic_log_barrier(below, eps)) <= 1e-16);
        CHECK(std::abs(ipc::clamped_cubic_log_barrier_derivative(below, eps)) <= 1e-8 / eps);
        // ... but the second derivative jumps from 4/eps^2 to 0 (not C2).
        const double h = 1e-6 * eps;
        const double c = eps - 2 * h;
        const double second = (ipc::clamped_cubic_log_barrier_derivative(c + h, eps)
                                  - ipc::clamped_cubic_log_barrier_derivative(c - h, eps))
            / (2 * h);
        CHECK(second == Approx(4 / (eps * eps)).epsilon(1e-4));
    }
}

TEST_CASE("squared-gap band and dhat conversions", "[repulsion][potentials]")
{
    // The paper's numbers: B + B_tight = 6.5 mm, eps_slack = 21.75 mm^2,
    // activation radius 8 mm, so dhat = 1.5 mm.
    CHECK(ipc::dhat_from_squared_gap_band(6.5, 21.75) == Approx(1.5).epsilon(1e-15));
    CHECK(ipc::squared_gap_band_from_dhat(6.5, 1.5) == Approx(21.75).epsilon(1e-15));
    CHECK(ipc::squared_gap_band_from_dhat(0.0, 0.5) == 0.25);
    CHECK(ipc::dhat_from_squared_gap_band(0.0, 0.25) == 0.5);
    CHECK(ipc::dhat_from_squared_gap_band(0.0, 0.0) == 0.0);

    std::mt19937 rng(22);
    std::uniform_real_distribution<double> exponent(-12, 3);
    for (int trial = 0; trial < 500; ++trial) {
        const double xi = trial % 10 == 0 ? 0.0 : std::pow(10.0, exponent(rng));
        const double dhat = std::pow(10.0, exponent(rng));
        INFO("xi = " << xi << ", dhat = " << dhat);
        const double eps = ipc::squared_gap_band_from_dhat(xi, dhat);
        CHECK(eps > 0.0);
        // Round trip, including dhat << xi where sqrt(xi^2 + eps) - xi cancels.
        CHECK(ipc::dhat_from_squared_gap_band(xi, eps) == Approx(dhat).epsilon(1e-14));
        // The band in distance terms: a pair at distance xi + dhat has c = eps
        // (checked where d^2 - xi^2 does not cancel in long double).
        if (dhat > 1e-3 * xi) {
            const long double d = (long double)xi + dhat;
            const long double c = d * d - (long double)xi * xi;
            CHECK(double(c) == Approx(eps).epsilon(1e-12));
        }
    }
}

TEST_CASE("check_squared_gap_band", "[repulsion][potentials]")
{
    CHECK_NOTHROW(ipc::check_squared_gap_band(1e-12));
    CHECK_NOTHROW(ipc::check_squared_gap_band(21.75, "eps_slack"));
    CHECK_THROWS_AS(ipc::check_squared_gap_band(0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::check_squared_gap_band(-1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::check_squared_gap_band(std::numeric_limits<double>::quiet_NaN()), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::check_squared_gap_band(std::numeric_limits<double>::infinity()), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::check_squared_gap_band(-2.0, "eps_slack"), Catch::Contains("eps_slack"));
}

TEST_CASE("squared-gap potentials with other scalar types", "[repulsion][potentials]")
{
    // float
    CHECK(ipc::clamped_cubic_log_barrier(0.75f, 1.0f) == Approx(-std::log(ipc::cubic_clamp(0.75, 1.0))).epsilon(1e-6));
    CHECK(ipc::clamped_cubic_log_barrier(0.0f, 1.0f) == std::numeric_limits<float>::infinity());
    CHECK(ipc::hinge_penalty(0.25f, 1.0f) == 0.75f);
    // Forward-mode autodiff: the derivative of each value matches the
    // closed-form derivative, in both evaluation branches of the barrier.
    using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
    const double eps = 2.0;
    for (const double c : { 0.1, 0.7, 1.2, 1.9 }) {
        const AD x(c, 1, 0);
        const AD e(eps);
        INFO("c = " << c);
        CHECK(ipc::clamped_cubic_log_barrier(x, e).value()
            == Approx(ipc::clamped_cubic_log_barrier(c, eps)).epsilon(1e-14));
        CHECK(ipc::clamped_cubic_log_barrier(x, e).derivatives()[0]
            == Approx(ipc::clamped_cubic_log_barrier_derivative(c, eps)).epsilon(1e-12));
        CHECK(ipc::cubic_clamp(x, e).derivatives()[0] == Approx(ipc::cubic_clamp_derivative(c, eps)).epsilon(1e-12));
        CHECK(ipc::squared_hinge_penalty(x, e).derivatives()[0]
            == Approx(ipc::squared_hinge_penalty_derivative(c, eps)).epsilon(1e-12));
    }
}
