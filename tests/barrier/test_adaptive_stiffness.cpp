// Adaptive barrier stiffness: bounds, gradient-balance initial value and the
// doubling update.

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>
#include <ipc/core/types.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

namespace {

// Second derivative of -(x - x_hat)^2 ln(x / x_hat) in x, written from the
// expanded product rule -2 ln(x/x_hat) - 4 (x - x_hat)/x + (x - x_hat)^2/x^2.
double log_barrier_curvature(double x, double x_hat)
{
    const double g = x - x_hat;
    return -2 * std::log(x / x_hat) - 4 * g / x + g * g / (x * x);
}

} // namespace

TEST_CASE("Stiffness bounds follow the reference rule", "[barrier][stiffness]")
{
    // Unit scene, dhat = 1e-3, unit mass: kappa_min is close to 2.5e6.
    const auto bounds = ipc::barrier_stiffness_bounds(1.0, 1.0, 1e-3);
    CHECK(bounds.min == Approx(2.5e6).epsilon(1e-6));
    CHECK(bounds.max == Approx(100 * bounds.min).epsilon(1e-14));

    // Linear in the average mass.
    CHECK(ipc::barrier_stiffness_bounds(1.0, 3.0, 1e-3).min == Approx(3 * bounds.min).epsilon(1e-12));

    // With an offset the reference gap is measured from xi.
    const double l = 2.0, mass = 0.1, dhat = 1e-3, xi = 5e-3;
    const double d0 = xi + 1e-8 * l;
    const double x_hat = 2 * xi * dhat + dhat * dhat;
    const double expected = 1e11 * mass / (4 * d0 * d0 * log_barrier_curvature(d0 * d0 - xi * xi, x_hat));
    const auto offset_bounds = ipc::barrier_stiffness_bounds(l, mass, dhat, xi);
    CHECK(offset_bounds.min == Approx(expected).epsilon(1e-6));

    // Custom constants.
    ipc::AdaptiveStiffnessParameters parameters;
    parameters.min_stiffness_scale = 1e10;
    parameters.max_to_min_ratio = 10;
    const auto custom = ipc::barrier_stiffness_bounds(1.0, 1.0, 1e-3, 0.0, parameters);
    CHECK(custom.min == Approx(2.5e5).epsilon(1e-6));
    CHECK(custom.max == Approx(2.5e6).epsilon(1e-6));

    // Another shape changes the curvature and hence the bounds.
    const auto normalized = ipc::barrier_stiffness_bounds<ipc::NormalizedLogBarrier>(1.0, 1.0, 1e-3);
    CHECK(normalized.min == Approx(bounds.min * 1e-12).epsilon(1e-6));
}

TEST_CASE("Stiffness bounds reject bad inputs", "[barrier][stiffness]")
{
    CHECK_THROWS_AS(ipc::barrier_stiffness_bounds(0.0, 1.0, 1e-3), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::barrier_stiffness_bounds(1.0, -1.0, 1e-3), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::barrier_stiffness_bounds(1.0, 1.0, std::nan("")), Catch::Contains("dhat"));
    CHECK_THROWS_AS(ipc::barrier_stiffness_bounds(1.0, 1.0, 1e-3, -1e-3), ipc::invalid_argument);
    // A reference gap (1e-8 l) not below dhat makes no sense.
    CHECK_THROWS_AS(ipc::barrier_stiffness_bounds(1e6, 1.0, 1e-3), ipc::invalid_argument);
}

TEST_CASE("Initial stiffness balances the gradients within the bounds", "[barrier][stiffness]")
{
    std::mt19937 generator(7);
    std::normal_distribution<double> normal;
    const ipc::BarrierStiffnessBounds<double> bounds { 10.0, 1000.0 };
    const Eigen::Index n = 30;
    Eigen::VectorXd grad_barrier(n), orthogonal(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        grad_barrier[i] = normal(generator);
        orthogonal[i] = normal(generator);
    }
    orthogonal -= orthogonal.dot(grad_barrier) / grad_barrier.squaredNorm() * grad_barrier;

    // grad_energy = -k grad_barrier + (part orthogonal to it): the balance is k.
    for (double k : { 25.0, 400.0 }) {
        const Eigen::VectorXd grad_energy = -k * grad_barrier + orthogonal;
        const double kappa = ipc::initial_barrier_stiffness(bounds, grad_energy, grad_barrier);
        CHECK(kappa == Approx(k).epsilon(1e-10));
        // It minimises |grad_energy + kappa grad_barrier|.
        const double best = (grad_energy + kappa * grad_barrier).norm();
        CHECK(best <= (grad_energy + 1.01 * kappa * grad_barrier).norm());
        CHECK(best <= (grad_energy + 0.99 * kappa * grad_barrier).norm());
    }
    // Clamped to the bounds.
    CHECK(ipc::initial_barrier_stiffness(bounds, Eigen::VectorXd(-5.0 * grad_barrier), grad_barrier)
        == 10.0);
    CHECK(ipc::initial_barrier_stiffness(bounds, Eigen::VectorXd(3.0 * grad_barrier), grad_barrier)
        == 10.0);
    CHECK(ipc::initial_barrier_stiffness(bounds, Eigen::VectorXd(-1e5 * grad_barrier), grad_barrier)
        == 1000.0);
    // No active pair: kappa_min.
    CHECK(ipc::initial_barrier_stiffness(bounds, grad_barrier, Eigen::VectorXd::Zero(n)) == 10.0);
    // Bad inputs.
    CHECK_THROWS_AS(ipc::initial_barrier_stiffness(bounds, Eigen::VectorXd::Zero(n - 1), grad_barrier),
        ipc::invalid_argument);
    Eigen::VectorXd with_nan = grad_barrier;
    with_nan[3] = std::nan("");
    CHECK_THROWS_WITH(ipc::initial_barrier_stiffness(bounds, grad_barrier, with_nan),
        Catch::Contains("grad_barrier(3)"));
    CHECK_THROWS_AS(ipc::initial_barrier_stiffness(
                        ipc::BarrierStiffnessBounds<double> { 10.0, 1.0 }, grad_barrier, grad_barrier),
        ipc::invalid_argument);
}

TEST_CASE("Stiffness doubles only while the smallest gap keeps shrinking", "[barrier][stiffness]")
{
    const double l = 1.0; // small gap threshold 1e-9
    const double kappa = 100.0, kappa_max = 1000.0;
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 5e-10, 4e-10, l) == 200.0);
    // Separating, or not yet below the threshold: unchanged.
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 4e-10, 5e-10, l) == kappa);
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 4e-10, 4e-10, l) == kappa);
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 2e-9, 5e-10, l) == kappa);
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 5e-9, 4e-9, l) == kappa);
    // Capped at kappa_max.
    CHECK(ipc::update_barrier_stiffness(700.0, kappa_max, 5e-10, 4e-10, l) == kappa_max);
    // The threshold scales with the scene.
    CHECK(ipc::update_barrier_stiffness(kappa, kappa_max, 5e-9, 4e-9, 10.0) == 200.0);
    CHECK_THROWS_AS(ipc::update_barrier_stiffness(-1.0, kappa_max, 5e-10, 4e-10, l),
        ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::update_barrier_stiffness(kappa, kappa_max, std::nan(""), 4e-10, l),
        ipc::invalid_argument);
}

TEMPLATE_TEST_CASE("Adaptive stiffness instantiates for float, double and long double",
    "[barrier][stiffness]", float, double, long double)
{
    using Scalar = TestType;
    const auto bounds = ipc::barrier_stiffness_bounds(Scalar(1), Scalar(1), Scalar(1e-2));
    CHECK(bounds.min > Scalar(0));
    CHECK(bounds.max > bounds.min);
    const ipc::Vector<Scalar, 3> g_b(Scalar(1), Scalar(0), Scalar(0));
    const ipc::Vector<Scalar, 3> g_e(-bounds.min * Scalar(2), Scalar(1), Scalar(0));
    CHECK(double(ipc::initial_barrier_stiffness(bounds, g_e, g_b))
        == Approx(double(2 * bounds.min)).epsilon(1e-5));
    CHECK(ipc::update_barrier_stiffness(Scalar(1), Scalar(10), Scalar(1e-10), Scalar(1e-11), Scalar(1))
        == Scalar(2));
}
