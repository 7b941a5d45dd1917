// Thickness offsets: the shifted barrier, its chain rule in d^2 and d,
// activation and divergence distances, gaps, radii and pair offsets.

#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>
#include <ipc/core/types.hpp>
#include <ipc/barrier/offset_barrier.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

namespace {

// The C-IPC written-out form: -(d^2 - (xi + dhat)^2)^2 ln((d^2 - xi^2) / ((xi + dhat)^2 - xi^2)).
double written_out_offset_barrier(double d, double xi, double dhat)
{
    if (d >= xi + dhat) {
        return 0;
    }
    const double outer = d * d - (xi + dhat) * (xi + dhat);
    return -outer * outer * std::log((d * d - xi * xi) / ((xi + dhat) * (xi + dhat) - xi * xi));
}

} // namespace

TEST_CASE("Offset barrier is the barrier shifted as stated", "[barrier][offset]")
{
    const double dhat = 1e-3;
    for (double xi : { 0.0, 1e-4, 2e-3 }) {
        for (double fraction : { 0.001, 0.3, 0.6, 0.99 }) {
            const double d = xi + fraction * dhat;
            INFO("xi = " << xi << ", d = " << d);
            CHECK(ipc::offset_barrier(d * d, xi, dhat)
                == Approx(written_out_offset_barrier(d, xi, dhat)).epsilon(1e-9));
            CHECK(ipc::offset_barrier_active(d * d, xi, dhat));
        }
    }
    // No offset: the plain squared-distance barrier b(d^2, dhat^2).
    CHECK(ipc::offset_barrier(2.5e-7, 0.0, dhat) == ipc::barrier(2.5e-7, dhat * dhat));
    CHECK(ipc::offset_barrier_threshold(0.0, dhat) == dhat * dhat);
    CHECK(ipc::offset_barrier_threshold(2e-3, dhat) == Approx((2e-3 + dhat) * (2e-3 + dhat) - 4e-6));
}

TEST_CASE("Offset barrier starts at xi + dhat and diverges at xi", "[barrier][offset]")
{
    const double xi = 5e-3;
    const double dhat = 1e-3;
    // Zero from xi + dhat on.
    for (double d : { xi + dhat, xi + dhat * (1 + 1e-9), xi + 2 * dhat }) {
        CHECK(ipc::offset_barrier(d * d, xi, dhat) == 0.0);
        CHECK(ipc::offset_barrier_first_derivative(d * d, xi, dhat) == 0.0);
        CHECK_FALSE(ipc::offset_barrier_active(d * d, xi, dhat));
    }
    // Positive just inside, and growing without bound as the gap closes.
    double previous = 0;
    for (double gap : { 0.999 * dhat, 0.5 * dhat, 1e-2 * dhat, 1e-5 * dhat, 1e-9 * dhat }) {
        const double d = xi + gap;
        const double value = ipc::offset_barrier(d * d, xi, dhat);
        CHECK(value > previous);
        previous = value;
    }
    CHECK(previous > 10 * ipc::offset_barrier((xi + 0.5 * dhat) * (xi + 0.5 * dhat), xi, dhat));
    CHECK(ipc::offset_barrier(xi * xi, xi, dhat) == std::numeric_limits<double>::infinity());
    CHECK(ipc::offset_barrier(0.9 * xi * xi, xi, dhat) == std::numeric_limits<double>::infinity());
    // The checked entry point refuses d <= xi, naming the distance.
    CHECK_THROWS_AS(ipc::checked_offset_barrier(xi * xi, xi, dhat), ipc::penetration);
    CHECK_THROWS_WITH(ipc::checked_offset_barrier(0.25 * xi * xi, xi, dhat),
        Catch::Contains("0.0025") && Catch::Contains("offset"));
    CHECK(ipc::checked_offset_barrier((xi + 0.5 * dhat) * (xi + 0.5 * dhat), xi, dhat)
        == ipc::offset_barrier((xi + 0.5 * dhat) * (xi + 0.5 * dhat), xi, dhat));
    CHECK_THROWS_AS(ipc::checked_offset_barrier(1.0, -1e-3, dhat), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::checked_offset_barrier(1.0, xi, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::checked_offset_barrier(std::nan(""), xi, dhat), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::checked_offset_barrier(-1.0, xi, dhat), ipc::invalid_argument);
}

TEST_CASE("Offset barrier derivatives in d^2 and d match finite differences", "[barrier][offset]")
{
    const double dhat = 1e-3;
    for (double xi : { 0.0, 3e-4 }) {
        for (double fraction : { 0.05, 0.4, 0.9 }) {
            const double d = xi + fraction * dhat;
            const double s = d * d;
            const double hs = 1e-9 * s;
            const double hd = 1e-7 * dhat;
            INFO("xi = " << xi << ", d = " << d);
            const double fd_first_s = (ipc::offset_barrier(s + hs, xi, dhat)
                                          - ipc::offset_barrier(s - hs, xi, dhat))
                / (2 * hs);
            const double fd_second_s = (ipc::offset_barrier_first_derivative(s + hs, xi, dhat)
                                           - ipc::offset_barrier_first_derivative(s - hs, xi, dhat))
                / (2 * hs);
            CHECK(ipc::offset_barrier_first_derivative(s, xi, dhat) == Approx(fd_first_s).epsilon(1e-5));
            CHECK(ipc::offset_barrier_second_derivative(s, xi, dhat)
                == Approx(fd_second_s).epsilon(1e-5));

            auto value_in_d = [&](double t) { return ipc::offset_barrier(t * t, xi, dhat); };
            auto first_in_d
                = [&](double t) { return ipc::offset_barrier_distance_derivative(t, xi, dhat); };
            const double fd_first_d = (value_in_d(d + hd) - value_in_d(d - hd)) / (2 * hd);
            const double fd_second_d = (first_in_d(d + hd) - first_in_d(d - hd)) / (2 * hd);
            CHECK(ipc::offset_barrier_distance_derivative(d, xi, dhat)
                == Approx(fd_first_d).epsilon(1e-5));
            CHECK(ipc::offset_barrier_distance_second_derivative(d, xi, dhat)
                == Approx(fd_second_d).epsilon(1e-5));
            // The same chain rule with another shape.
            const double cubic_fd
                = (ipc::offset_barrier<ipc::CubicBarrier>((d + hd) * (d + hd), xi, dhat)
                      - ipc::offset_barrier<ipc::CubicBarrier>((d - hd) * (d - hd), xi, dhat))
                / (2 * hd);
            CHECK(ipc::offset_barrier_distance_derivative<ipc::CubicBarrier>(d, xi, dhat)
                == Approx(cubic_fd).epsilon(1e-5));
        }
    }
}

TEMPLATE_TEST_CASE("Offset barrier value and derivatives at once equal the three functions bit for bit",
                   "[barrier][offset]", ipc::ClampedLogBarrier, ipc::NormalizedLogBarrier, ipc::CubicBarrier)
{
    // ClampedLogBarrier computes the three with one logarithm; the others go
    // through their three functions. Either way the values must be exactly
    // those of the separate calls, inside the band, at and beyond its ends,
    // and at or inside the offset (infinities).
    const double dhat = 1e-3;
    const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    int checked = 0;
    for (const double xi : { 0.0, 2e-3 }) {
        for (int i = -5; i <= 1005; ++i) {
            const double d = xi + dhat * (double(i) / 1000.0);
            const double d2 = d * d;
            const ipc::BarrierDerivatives<double> all = ipc::offset_barrier_derivatives<TestType>(d2, xi, dhat);
            INFO("xi " << xi << ", d " << d);
            CHECK(same(all.value, ipc::offset_barrier<TestType>(d2, xi, dhat)));
            CHECK(same(all.first, ipc::offset_barrier_first_derivative<TestType>(d2, xi, dhat)));
            CHECK(same(all.second, ipc::offset_barrier_second_derivative<TestType>(d2, xi, dhat)));
            ++checked;
        }
    }
    CHECK(checked == 2022);
}

TEST_CASE("Offset gap keeps its digits for tiny gaps", "[barrier][offset]")
{
    const double xi = 1e-4;
    for (double gap : { 1e-8, 1e-12, 3e-15 }) {
        const long double d = static_cast<long double>(xi) + static_cast<long double>(gap);
        const double distance_squared = static_cast<double>(d * d);
        // Reference from the same rounded d^2, evaluated in long double.
        const long double reference
            = std::sqrt(static_cast<long double>(distance_squared)) - static_cast<long double>(xi);
        INFO("gap = " << gap);
        CHECK(ipc::offset_gap(distance_squared, xi)
            == Approx(static_cast<double>(reference)).epsilon(1e-6));
    }
    CHECK(ipc::offset_gap(0.0, 0.0) == 0.0);
    CHECK(ipc::offset_gap(0.25, 0.0) == 0.5);
    CHECK(ipc::offset_gap(0.25, 1.0) < 0.0);
}

TEST_CASE("Primitive radius and pair offset from vertex radii", "[barrier][offset]")
{
    const Eigen::Vector3d triangle_radii(1e-3, 4e-3, 2e-3);
    const Eigen::Vector2d edge_radii(5e-4, 0.0);
    CHECK(ipc::primitive_radius(triangle_radii) == 4e-3);
    CHECK(ipc::primitive_radius(edge_radii) == 5e-4);
    CHECK(ipc::pair_offset(ipc::primitive_radius(triangle_radii), ipc::primitive_radius(edge_radii))
        == Approx(4.5e-3));
    // Uniform thickness T: r = T / 2 on every vertex gives xi = T.
    CHECK(ipc::pair_offset(0.5 * 2e-3, 0.5 * 2e-3) == 2e-3);
    CHECK_THROWS_AS(ipc::primitive_radius(Eigen::Vector3d(1e-3, -1e-3, 0.0)), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::primitive_radius(Eigen::Vector3d(1e-3, std::nan(""), 0.0)),
        Catch::Contains("vertex radius 1"));
    CHECK_THROWS_AS(ipc::primitive_radius(Eigen::VectorXd()), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::pair_offset(-1.0, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::pair_offset(0.0, std::numeric_limits<double>::infinity()),
        ipc::invalid_argument);
}

TEMPLATE_TEST_CASE("Offset helpers instantiate for float, double and long double",
    "[barrier][offset]", float, double, long double)
{
    using Scalar = TestType;
    const Scalar xi = Scalar(1e-2);
    const Scalar dhat = Scalar(1e-2);
    const Scalar d = Scalar(1.5e-2);
    CHECK(ipc::offset_barrier(d * d, xi, dhat) > Scalar(0));
    CHECK(ipc::offset_barrier_first_derivative(d * d, xi, dhat) < Scalar(0));
    CHECK(ipc::offset_barrier_second_derivative<ipc::NormalizedLogBarrier>(d * d, xi, dhat)
        > Scalar(0));
    CHECK(ipc::offset_barrier_distance_second_derivative(d, xi, dhat) > Scalar(0));
    CHECK(double(ipc::offset_gap(d * d, xi)) == Approx(5e-3).epsilon(1e-5));
    CHECK(ipc::primitive_radius(ipc::Vector<Scalar, 2>(Scalar(1), Scalar(2))) == Scalar(2));
    CHECK_THROWS_AS(ipc::checked_offset_barrier(xi * xi, xi, dhat), ipc::penetration);
}
