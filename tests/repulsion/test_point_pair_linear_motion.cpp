// Point pair under linear motion: the minimum separation against dense
// sampling and a long-double closed form, conservativeness of the separation
// predicate and of the safe step (never past the first crossing), the
// boundary cases (no motion, through the other point, tangent, start at r2,
// minimiser at either end or inside), and the length cap.

#include <ipc/ccd/point_pair_linear_motion.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace motion_tests {

using Vec3 = Eigen::Vector3d;
using Real = long double;

/// |a + t (b - a)|^2 in long double.
template <typename V> Real g_at(const V& a, const V& b, Real t)
{
    Real sum = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
        const Real p = Real(a(k)) + t * (Real(b(k)) - Real(a(k)));
        sum += p * p;
    }
    return sum;
}

/// Minimum over 10,001 samples of t in [0, 1].
template <typename V> Real sampled_min(const V& a, const V& b)
{
    Real best = std::numeric_limits<Real>::infinity();
    for (int s = 0; s <= 10000; ++s) {
        best = std::min(best, g_at(a, b, Real(s) / 10000));
    }
    return best;
}

/// The exact minimum (long-double closed form).
template <typename V> Real reference_min(const V& a, const V& b)
{
    Real ad = 0, dd = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
        const Real d = Real(b(k)) - Real(a(k));
        ad += Real(a(k)) * d;
        dd += d * d;
    }
    const Real t = dd > 0 ? std::min<Real>(1, std::max<Real>(0, -ad / dd)) : 0;
    return g_at(a, b, t);
}

/// First t in [0, 1] with |a + t d|^2 = r2 (long double, stable root); 1
/// when the motion never goes below r2, 0 when it starts below.
template <typename V> Real reference_first_crossing(const V& a, const V& b, Real r2)
{
    Real aa = 0, ad = 0, dd = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
        const Real d = Real(b(k)) - Real(a(k));
        aa += Real(a(k)) * Real(a(k));
        ad += Real(a(k)) * d;
        dd += d * d;
    }
    if (aa < r2) {
        return 0;
    }
    const Real B = 2 * ad, C = aa - r2, disc = B * B - 4 * dd * C;
    if (B >= 0 || disc < 0) {
        return 1;
    }
    const Real t = C / ((-B + std::sqrt(disc)) / 2);
    return std::min<Real>(1, t);
}

Vec3 random_vector(std::mt19937& rng, double scale)
{
    std::uniform_real_distribution<double> u(-1, 1);
    return scale * Vec3(u(rng), u(rng), u(rng));
}

/// Checks the safe step alpha against the exact first crossing: never past
/// it (g >= r2 at alpha and on samples of [0, alpha]), and close to it.
template <typename V> void check_safe_step(const V& a, const V& b, double r2, double closeness)
{
    const double alpha = ipc::linear_motion_safe_step(a, b, r2);
    const Real exact = reference_first_crossing(a, b, Real(r2));
    const Real scale = Real(a.squaredNorm() + b.squaredNorm());
    INFO("a = " << a.transpose() << ", b = " << b.transpose() << ", r2 = " << r2 << ", alpha = " << alpha
                << ", exact = " << double(exact));
    REQUIRE(alpha >= 0.0);
    REQUIRE(alpha <= 1.0);
    if (g_at(a, b, 0) < Real(r2)) {
        CHECK(alpha == 0.0);
        return;
    }
    CHECK(g_at(a, b, alpha) >= Real(r2) - 1e-17L * scale);
    for (int s = 0; s <= 1000; ++s) {
        CHECK(g_at(a, b, alpha * s / 1000.0) >= Real(r2) - 1e-17L * scale);
    }
    CHECK(Real(alpha) <= exact * (1 + 1e-15L));
    CHECK(Real(alpha) >= exact * (1 - Real(closeness)));
}

} // namespace motion_tests

TEST_CASE("linear motion minimum against sampling and closed form", "[repulsion][motion]")
{
    using namespace motion_tests;
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> log_scale(-3, 3);
    for (int trial = 0; trial < 150; ++trial) {
        const double s = std::pow(10.0, log_scale(rng));
        const Vec3 a = random_vector(rng, s);
        const Vec3 b = trial % 5 == 0 ? Vec3(-a + random_vector(rng, 0.05 * s)) : random_vector(rng, s);
        const double m = ipc::linear_motion_min_distance_squared(a, b);
        const Real scale = Real(a.squaredNorm() + b.squaredNorm());
        INFO("trial " << trial);
        CHECK(std::abs(Real(m) - reference_min(a, b)) <= 1e-15L * scale);
        // Sampling only overestimates the minimum, by at most |d|^2 (dt/2)^2.
        const Real sampled = sampled_min(a, b);
        CHECK(Real(m) <= sampled + 1e-15L * scale);
        CHECK(Real(m) >= sampled - Real((b - a).squaredNorm()) * 0.25e-8L - 1e-15L * scale);

        // 2D, and row-vector expressions.
        const Eigen::Vector2d a2 = a.head<2>(), b2 = b.head<2>();
        CHECK(std::abs(Real(ipc::linear_motion_min_distance_squared(a2, b2)) - reference_min(a2, b2))
            <= 1e-15L * scale);
        Eigen::MatrixXd X(2, 3);
        X.row(0) = a.transpose();
        X.row(1) = b.transpose();
        CHECK(ipc::linear_motion_min_distance_squared(X.row(0), X.row(1)) == m);
    }
}

TEST_CASE("separation predicate is conservative", "[repulsion][motion]")
{
    using namespace motion_tests;
    std::mt19937 rng(32);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 300; ++trial) {
        const Vec3 a = random_vector(rng, 1.0);
        const Vec3 b = random_vector(rng, 1.0);
        const Real exact = reference_min(a, b);
        const double scale = a.squaredNorm() + b.squaredNorm();
        INFO("trial " << trial << ", exact min " << double(exact));
        // Just below the exact minimum (beyond the margin): certified.
        CHECK(ipc::linear_motion_separation_holds(a, b, double(exact) - 1e-13 * scale));
        // Any threshold above the exact minimum: never certified.
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, double(exact * (1 + 1e-15L)) + 1e-300));
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, double(exact) + 1e-12 * scale));
        // The smallest double above the exact minimum: never certified.
        double just_above = double(exact);
        if (Real(just_above) <= exact) {
            just_above = std::nextafter(just_above, 2 * just_above + 1);
        }
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, just_above));
        CHECK(ipc::linear_motion_safe_step(a, b, just_above) < 1.0);
        // Against dense sampling: a sample below r2 forbids certification.
        const double r2 = scale * unit(rng);
        if (ipc::linear_motion_separation_holds(a, b, r2)) {
            CHECK(sampled_min(a, b) >= r2);
            CHECK(ipc::linear_motion_safe_step(a, b, r2) == 1.0);
        }
    }
}

TEST_CASE("separation predicate: boundary cases", "[repulsion][motion]")
{
    using namespace motion_tests;
    const double next_above_one = std::nextafter(1.0, 2.0);
    SECTION("zero motion")
    {
        const Vec3 a(0.3, -0.4, 1.2);
        CHECK(ipc::linear_motion_min_distance_squared(a, a) == a.squaredNorm());
        CHECK(ipc::linear_motion_separation_holds(a, a, 0.99 * a.squaredNorm()));
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, a, 1.01 * a.squaredNorm()));
        CHECK(ipc::linear_motion_safe_step(a, a, 0.99 * a.squaredNorm()) == 1.0);
        CHECK(ipc::linear_motion_safe_step(a, a, 1.01 * a.squaredNorm()) == 0.0);
        const Vec3 zero = Vec3::Zero();
        CHECK(ipc::linear_motion_min_distance_squared(zero, zero) == 0.0);
        CHECK(ipc::linear_motion_separation_holds(zero, zero, 0.0));
        CHECK(ipc::linear_motion_safe_step(zero, zero, 0.0) == 1.0);
        CHECK(ipc::linear_motion_separation_holds(a, -a, -1.0));
        CHECK_FALSE(ipc::linear_motion_separation_holds(zero, zero, 1e-300));
        CHECK(ipc::linear_motion_safe_step(zero, zero, 1e-300) == 0.0);
    }
    SECTION("motion through the other point")
    {
        const Vec3 a(1, 2, -3), b(-1, -2, 3);
        CHECK(ipc::linear_motion_min_distance_squared(a, b) == 0.0);
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, 1e-20));
        // |a (1 - 2t)|^2 = 14 (1 - 2t)^2 = 14/4 at t = 1/4.
        check_safe_step(a, b, 3.5, 1e-12);
        CHECK(ipc::linear_motion_safe_step(a, b, 3.5) == Approx(0.25).epsilon(1e-13));
    }
    SECTION("tangent motion: the minimum equals r2")
    {
        const Vec3 a(-1, 1, 0), b(1, 1, 0); // minimum 1 at t = 1/2
        CHECK(ipc::linear_motion_min_distance_squared(a, b) == 1.0);
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, next_above_one));
        CHECK(ipc::linear_motion_separation_holds(a, b, 1.0 - 1e-12));
        CHECK(ipc::linear_motion_safe_step(a, b, 1.0 - 1e-12) == 1.0);
        check_safe_step(a, b, next_above_one, 1e-6);
        check_safe_step(a, b, 1.0 + 1e-9, 1e-9);
        check_safe_step(a, b, 1.0 + 1e-6, 1e-9);
    }
    SECTION("random tangent motions")
    {
        std::mt19937 rng(33);
        std::uniform_real_distribution<double> unit(0.05, 0.95);
        for (int trial = 0; trial < 100; ++trial) {
            const Vec3 p = random_vector(rng, 1.0);
            Vec3 u = random_vector(rng, 2.0);
            u -= (u.dot(p) / p.squaredNorm()) * p; // u perpendicular to p
            const double t = unit(rng);
            const Vec3 a = p - t * u, b = p + (1 - t) * u;
            const Real exact = reference_min(a, b); // |p|^2 up to the rounding of a and b
            INFO("trial " << trial);
            CHECK(std::abs(exact - Real(p.squaredNorm())) <= 1e-15L * Real(a.squaredNorm() + b.squaredNorm()));
            CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, double(exact * (1 + 1e-15L))));
            CHECK(ipc::linear_motion_separation_holds(a, b, double(exact) * (1 - 1e-9)));
            check_safe_step(a, b, double(exact * (1 + 1e-15L)), 1e-5);
            check_safe_step(a, b, double(exact * (1 + 1e-6L)), 1e-9);
        }
    }
    SECTION("start exactly at r2")
    {
        const Vec3 a(3, 4, 0); // |a|^2 = 25 exactly
        // Moving inwards: no step is safe.
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, Vec3(0, 0, 0), 25.0));
        CHECK(ipc::linear_motion_safe_step(a, Vec3(0, 0, 0), 25.0) == 0.0);
        // Moving outwards: exactly safe, but within the rounding margin of r2,
        // so the conservative answers are "not certified" and 0.
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, Vec3(6, 8, 0), 25.0));
        CHECK(ipc::linear_motion_safe_step(a, Vec3(6, 8, 0), 25.0) == 0.0);
        // Starting inside.
        CHECK(ipc::linear_motion_safe_step(a, Vec3(6, 8, 0), 25.0001) == 0.0);
    }
    SECTION("minimiser at t = 0, t = 1 and inside")
    {
        const Vec3 near(1, 0, 0), far(2, 0, 0);
        CHECK(ipc::linear_motion_min_distance_squared(near, far) == 1.0); // t = 0
        CHECK(ipc::linear_motion_min_distance_squared(far, near) == 1.0); // t = 1
        CHECK(ipc::linear_motion_min_distance_squared(Vec3(-1, 2, 0), Vec3(3, 2, 0)) == 4.0); // t = 1/4
        CHECK(ipc::linear_motion_separation_holds(near, far, 0.999));
        CHECK(ipc::linear_motion_separation_holds(far, near, 0.999));
        CHECK_FALSE(ipc::linear_motion_separation_holds(far, near, 1.001));
        CHECK(ipc::linear_motion_safe_step(near, far, 0.999) == 1.0);
        CHECK(ipc::linear_motion_safe_step(far, near, 0.999) == 1.0);
        // far -> near crosses r2 = 2.25 (distance 1.5) at t = 1/2.
        check_safe_step(far, near, 2.25, 1e-12);
        // Entering and leaving again inside the motion: the first crossing.
        check_safe_step(Vec3(-1, 2, 0), Vec3(3, 2, 0), 4.5, 1e-12);
    }
    SECTION("NaN")
    {
        const Vec3 a(std::numeric_limits<double>::quiet_NaN(), 0, 0), b(1, 1, 1);
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, 0.0));
        CHECK_FALSE(ipc::linear_motion_separation_holds(a, b, -1.0));
        CHECK(ipc::linear_motion_safe_step(a, b, 0.0) == 0.0);
        CHECK(std::isnan(ipc::linear_motion_min_distance_squared(a, b)));
        // NaN at the end only.
        CHECK_FALSE(ipc::linear_motion_separation_holds(b, a, 0.5));
        CHECK(ipc::linear_motion_safe_step(b, a, 0.5) == 0.0);
        CHECK(std::isnan(ipc::linear_motion_min_distance_squared(b, a)));
    }
}

TEST_CASE("safe step against the exact first crossing", "[repulsion][motion]")
{
    using namespace motion_tests;
    std::mt19937 rng(34);
    std::uniform_real_distribution<double> unit(0.05, 0.95);
    std::uniform_real_distribution<double> log_scale(-3, 3);
    int crossings = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const double s = std::pow(10.0, log_scale(rng));
        const Vec3 a = random_vector(rng, s);
        const Vec3 b = trial % 4 == 0 ? Vec3(-0.5 * a + random_vector(rng, 0.1 * s)) : random_vector(rng, s);
        const double m = double(reference_min(a, b));
        const double aa = a.squaredNorm();
        if (m >= 0.999 * aa) {
            continue; // moving apart: no crossing to bracket
        }
        // r2 strictly between the minimum and the start: a transversal crossing.
        const double r2 = m + unit(rng) * (aa - m);
        check_safe_step(a, b, r2, 1e-9);
        ++crossings;
        // Thresholds the motion never reaches: the whole step.
        CHECK(ipc::linear_motion_safe_step(a, b, 0.5 * m - 1e-13 * (aa + b.squaredNorm())) == 1.0);
        // Start inside: zero.
        CHECK(ipc::linear_motion_safe_step(a, b, 1.5 * aa) == 0.0);
        // 2D and float inputs follow the same contract.
        const Eigen::Vector2d a2 = a.head<2>(), b2 = b.head<2>();
        if (a2.squaredNorm() >= r2) {
            check_safe_step(a2, b2, r2, 1e-5);
        }
        const Eigen::Vector3f af = a.cast<float>(), bf = b.cast<float>();
        check_safe_step(af, bf, r2, 1e-5);
    }
    CHECK(crossings > 150);
}

TEST_CASE("length cap under linear motion is an endpoint check", "[repulsion][motion]")
{
    using namespace motion_tests;
    std::mt19937 rng(35);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 100; ++trial) {
        const Vec3 a = random_vector(rng, 1.0);
        const Vec3 b = random_vector(rng, 1.0);
        const double L2 = 3.0 * unit(rng);
        const bool holds = ipc::linear_motion_length_cap_holds(a, b, L2);
        CHECK(holds == (std::max(a.squaredNorm(), b.squaredNorm()) <= L2));
        Real sampled_max = 0;
        for (int s = 0; s <= 10000; ++s) {
            sampled_max = std::max(sampled_max, g_at(a, b, Real(s) / 10000));
        }
        if (holds) {
            CHECK(sampled_max <= Real(L2) * (1 + 1e-15L));
        } else {
            CHECK(sampled_max > Real(L2));
        }
    }
    CHECK(ipc::linear_motion_length_cap_holds(Vec3(1, 0, 0), Vec3(0, 1, 0), 1.0));
    CHECK_FALSE(ipc::linear_motion_length_cap_holds(Vec3(1, 0, 0), Vec3(0, 1.001, 0), 1.0));
}
