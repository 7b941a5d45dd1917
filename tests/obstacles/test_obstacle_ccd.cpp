// CCD of moving vertices against obstacles and the mesh step size against an
// ObstacleSet: exact plane times, conservative times for the other shapes and
// callbacks (checked against dense sampling and exact segment minima), and
// the special motions (grazing, tunnelling, zero, starting inside).

#include "pipeline_helpers.hpp"

#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/core/error.hpp>
#include <ipc/obstacles/obstacle_barrier.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace ipc;
using namespace ipc::test;
using namespace ipc::test::pipeline;

namespace ipc::test::pipeline {

/// First time in [0, 1] at which phi(p0 + t (p1 - p0)) falls below level by
/// dense sampling (4001 samples) refined by bisection; 2 when it never does
/// at the samples.
template <typename Phi>
double sampled_crossing(const Phi& phi, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double level)
{
    const int samples = 4000;
    double previous = 0;
    for (int i = 0; i <= samples; ++i) {
        const double t = double(i) / samples;
        if (phi(Eigen::Vector3d(p0 + t * (p1 - p0))) < level) {
            double lo = previous, hi = t;
            for (int k = 0; k < 60; ++k) {
                const double mid = 0.5 * (lo + hi);
                (phi(Eigen::Vector3d(p0 + mid * (p1 - p0))) < level ? hi : lo) = mid;
            }
            return lo;
        }
        previous = t;
    }
    return 2;
}

/// Largest t such that the exact minimum of the analytic obstacle's signed
/// distance over [p0, p0 + t (p1 - p0)] is at least level (bisection on the
/// exact segment test).
inline double exact_clear_time(const SdfObstacle& obstacle, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                               double level)
{
    if (segment_clear_of_obstacle(obstacle, p0, p1, level)) {
        return 1;
    }
    double lo = 0, hi = 1;
    for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (segment_clear_of_obstacle(obstacle, p0, Eigen::Vector3d(p0 + mid * (p1 - p0)), level) ? lo : hi) = mid;
    }
    return lo;
}

} // namespace ipc::test::pipeline

TEST_CASE("plane CCD special motions", "[obstacles][pipeline][ccd]")
{
    const SdfObstacle ground = PlaneObstacle();
    const double s = obstacle_ccd_default_rescaling;
    double toi = -1;

    SECTION("grazing: parallel to the plane just outside the offset")
    {
        const double xi = 0.01;
        CHECK_FALSE(point_obstacle_ccd(ground, Eigen::Vector3d(0, 0, xi + 1e-9), Eigen::Vector3d(5, 3, xi + 1e-9), toi, xi));
        CHECK(toi == 1);
        // At the offset itself: starts within it.
        CHECK(point_obstacle_ccd(ground, Eigen::Vector3d(0, 0, xi), Eigen::Vector3d(5, 3, xi), toi, xi));
        CHECK(toi == 0);
    }
    SECTION("fast motion through a thin plane stops before it")
    {
        const Eigen::Vector3d p0(0.1, 0.2, 1e-3), p1(0.3, -0.1, -1e6);
        REQUIRE(point_obstacle_ccd(ground, p0, p1, toi));
        const double expected = s * 1e-3 / (1e-3 + 1e6);
        CHECK(toi == Approx(expected).epsilon(1e-12));
        const Eigen::Vector3d at = p0 + toi * (p1 - p0);
        CHECK(at.z() >= (1 - s) * 1e-3 * (1 - 1e-9));
        // Through a box as thin as a sheet, too (conservative advancement).
        const SdfObstacle sheet = BoxObstacle { Eigen::Vector3d::Zero(), Eigen::Vector3d(10, 10, 0), 0 };
        REQUIRE(point_obstacle_ccd(sheet, p0, p1, toi));
        CHECK(toi <= expected * (1 + 1e-9));
        CHECK(toi >= 0.98 * expected);
    }
    SECTION("zero motion")
    {
        const Eigen::Vector3d p(0.5, 0.5, 0.01);
        CHECK_FALSE(point_obstacle_ccd(ground, p, p, toi, 0.001));
        CHECK(toi == 1);
        CHECK_FALSE(point_obstacle_ccd(ground, p, p, toi, 0.001, 0.5));
        CHECK(toi == 0.5);
        for (const SdfObstacle& obstacle : test_obstacles()) {
            const Eigen::Vector3d q = obstacle_centre(obstacle) + Eigen::Vector3d(0, 0, obstacle_reach(obstacle) + 0.5);
            if (signed_distance(obstacle, q) > 0) {
                CHECK_FALSE(point_obstacle_ccd(obstacle, q, q, toi));
                CHECK(toi == 1);
            }
        }
    }
    SECTION("starting inside or within the offset")
    {
        CHECK(point_obstacle_ccd(ground, Eigen::Vector3d(0, 0, -0.1), Eigen::Vector3d(0, 0, 1), toi));
        CHECK(toi == 0);
        CHECK(point_obstacle_ccd(ground, Eigen::Vector3d(0, 0, 0.05), Eigen::Vector3d(0, 0, 1), toi, 0.05));
        CHECK(toi == 0);
        const SdfObstacle sphere = SphereObstacle { Eigen::Vector3d::Zero(), 1 };
        CHECK(point_obstacle_ccd(sphere, Eigen::Vector3d(0, 0, 0.5), Eigen::Vector3d(0, 0, 3), toi));
        CHECK(toi == 0);
    }
    SECTION("tmax")
    {
        const Eigen::Vector3d p0(0, 0, 1), p1(0, 0, -1); // hits T = 0.1 at t = 0.45
        CHECK(point_obstacle_ccd(ground, p0, p1, toi, 0, 0.5));
        CHECK(toi == Approx(0.45));
        CHECK_FALSE(point_obstacle_ccd(ground, p0, p1, toi, 0, 0.4));
        CHECK(toi == 0.4);
        CHECK_FALSE(point_obstacle_ccd(ground, p0, p1, toi, 0, 0));
        CHECK(toi == 0);
    }
}

TEST_CASE("plane CCD is the exact closed form", "[obstacles][pipeline][ccd]")
{
    std::mt19937_64 rng(101);
    int hits = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const PlaneObstacle plane(random_point(rng, Eigen::Vector3d::Zero(), 1), random_direction(rng));
        const double xi = trial % 3 == 0 ? 0.0 : uniform(rng, 0, 0.05);
        const double s = trial % 2 == 0 ? 0.9 : uniform(rng, 0.1, 0.99);
        const Eigen::Vector3d p0 = plane.point + random_point(rng, Eigen::Vector3d::Zero(), 1);
        const Eigen::Vector3d p1 = plane.point + random_point(rng, Eigen::Vector3d::Zero(), 2);
        // Exact reference in long double from the projections.
        const long double phi0 = (p0 - plane.point).cast<long double>().dot(plane.normal.cast<long double>());
        const long double phi1 = (p1 - plane.point).cast<long double>().dot(plane.normal.cast<long double>());
        if (!(phi0 > xi + 1e-6)) {
            continue;
        }
        const long double T = xi + (1 - s) * (phi0 - xi);
        const double expected = phi1 >= T ? 1.0 : double((phi0 - T) / (phi0 - phi1));
        double toi = -1;
        const bool hit = point_obstacle_ccd(plane, p0, p1, toi, xi, 1, s);
        CHECK(hit == (phi1 < T));
        hits += hit;
        CHECK(toi == Approx(expected).epsilon(1e-11).margin(1e-14));
    }
    CHECK(hits > 300);
}

TEST_CASE("plane CCD: steps cut again and again toward a target inside never reach the offset",
          "[obstacles][pipeline][ccd]")
{
    // A solver that keeps proposing a target inside the plane and takes the
    // certified step each time closes the gap geometrically (it keeps 1 - s
    // of it); rounding must never let the point reach its offset.
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        const PlaneObstacle plane(random_point(rng, Eigen::Vector3d::Zero(), 1), random_direction(rng));
        const double xi = trial % 2 == 0 ? 0.0 : 1e-3;
        Eigen::Vector3d p = plane.point + (xi + 0.01) * plane.normal + 0.3 * random_direction(rng).cross(plane.normal);
        const Eigen::Vector3d target = p - 0.05 * plane.normal + 0.01 * random_direction(rng);
        for (int step = 0; step < 60; ++step) {
            double toi = -1;
            REQUIRE(point_obstacle_ccd(plane, p, target, toi, xi));
            p = Eigen::Vector3d(p + toi * (target - p));
            REQUIRE(ipc::signed_distance(plane, p) > xi);
        }
        // The gap has reached the floor that rounding allows (the regime
        // under test), and never crossed it.
        CHECK(ipc::signed_distance(plane, p) - xi < 1e-9);
        // From there a motion away from the plane is free.
        double toi = -1;
        CHECK_FALSE(point_obstacle_ccd(plane, p, Eigen::Vector3d(p + 0.01 * plane.normal), toi, xi));
        CHECK(toi == 1);
    }
}

TEST_CASE("sphere, box and capsule CCD never cross and are nearly exact", "[obstacles][pipeline][ccd]")
{
    std::mt19937_64 rng(202);
    const double s = obstacle_ccd_default_rescaling;
    int hits = 0, queries = 0;
    for (const SdfObstacle& obstacle : test_obstacles()) {
        if (std::holds_alternative<PlaneObstacle>(obstacle)) {
            continue;
        }
        const double reach = obstacle_reach(obstacle);
        const auto phi = [&](const Eigen::Vector3d& p) { return signed_distance(obstacle, p); };
        for (int trial = 0; trial < 25; ++trial) {
            // Start outside, end anywhere around (often through) the obstacle.
            const double xi = trial % 2 == 0 ? 0.0 : 0.02 * reach;
            const Eigen::Vector3d p0 = point_at_distance(obstacle, xi + uniform(rng, 0.01, 1.5) * reach, rng);
            const Eigen::Vector3d p1 = obstacle_centre(obstacle) + random_point(rng, Eigen::Vector3d::Zero(), 2 * reach);
            const double phi0 = phi(p0);
            const double T = xi + (1 - s) * (phi0 - xi);
            double toi = -1;
            const bool hit = point_obstacle_ccd(obstacle, p0, p1, toi, xi);
            ++queries;
            hits += hit;
            INFO(obstacle_name(obstacle) << " p0 " << p0.transpose() << " p1 " << p1.transpose() << " toi " << toi);
            REQUIRE(toi >= 0);
            REQUIRE(toi <= 1);
            // Never below T on [0, toi] (dense samples and the exact minimum).
            const Eigen::Vector3d end = p0 + toi * (p1 - p0);
            CHECK(sampled_crossing(phi, p0, end, T - 1e-12) == 2);
            CHECK(segment_clear_of_obstacle(obstacle, p0, end, xi));
            const double crossing = sampled_crossing(phi, p0, p1, T);
            if (!hit) {
                CHECK(crossing == 2);
                CHECK(toi == 1);
                continue;
            }
            // Not far before the exact time: at least where phi reaches T
            // plus 1% of the gap the method leaves to stop.
            CHECK(toi <= crossing + 1e-12);
            CHECK(toi >= exact_clear_time(obstacle, p0, p1, T + 0.011 * (phi0 - T)) - 1e-9);
        }
    }
    CHECK(hits > queries / 3);
}

TEST_CASE("callback obstacle CCD is conservative with its Lipschitz bound", "[obstacles][pipeline][ccd]")
{
    std::mt19937_64 rng(303);
    const double s = obstacle_ccd_default_rescaling;
    const SignedDistanceObstacle sphere = callback_sphere(Eigen::Vector3d(0, 0, 0), 0.5, false);
    const SignedDistanceObstacle floor = wavy_floor(0.2, 4);
    int hits = 0;
    for (const SignedDistanceObstacle* obstacle : { &sphere, &floor }) {
        for (int trial = 0; trial < 40; ++trial) {
            Eigen::Vector3d p0 = random_point(rng, Eigen::Vector3d(0, 0, 1), 1);
            if (!(obstacle->value(p0) > 0.05)) {
                continue;
            }
            const Eigen::Vector3d p1 = random_point(rng, Eigen::Vector3d::Zero(), 1.5);
            const double xi = 0.01;
            const double phi0 = obstacle->value(p0);
            const double T = xi + (1 - s) * (phi0 - xi);
            double toi = -1;
            const bool hit = point_obstacle_ccd(*obstacle, p0, p1, toi, xi);
            hits += hit;
            const Eigen::Vector3d end = p0 + toi * (p1 - p0);
            INFO("p0 " << p0.transpose() << " p1 " << p1.transpose() << " toi " << toi);
            CHECK(sampled_crossing(obstacle->value, p0, end, T - 1e-12) == 2);
            const double crossing = sampled_crossing(obstacle->value, p0, p1, T);
            CHECK(toi <= std::min(1.0, crossing) + 1e-12);
            if (!hit) {
                CHECK(toi == 1);
            }
        }
    }
    CHECK(hits > 10);
    // A larger Lipschitz bound only makes the time earlier (or equal).
    double toi_tight = -1, toi_loose = -1;
    const Eigen::Vector3d p0(0.3, 0, 1), p1(-0.2, 0, -1);
    point_obstacle_ccd(sphere, p0, p1, toi_tight);
    point_obstacle_ccd(callback_sphere(Eigen::Vector3d::Zero(), 0.5, false, 3.0), p0, p1, toi_loose);
    CHECK(toi_loose <= toi_tight);
    CHECK(toi_loose > 0);
    // NaN from the callback is reported.
    SignedDistanceObstacle broken = sphere;
    broken.value = [](const Eigen::Vector3d& p) { return p.z() > 0.5 ? p.z() : std::nan(""); };
    double toi = -1;
    CHECK_THROWS_WITH(point_obstacle_ccd(broken, Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, -1), toi),
                      Catch::Contains("NaN"));
}

TEST_CASE("point_obstacle_ccd rejects bad input", "[obstacles][pipeline][ccd]")
{
    const SdfObstacle ground = PlaneObstacle();
    const Eigen::Vector3d p(0, 0, 1), q(0, 0, -1);
    double toi = -1;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(point_obstacle_ccd(ground, Eigen::Vector3d(nan, 0, 0), q, toi), Catch::Contains("p_t0"));
    CHECK_THROWS_WITH(point_obstacle_ccd(ground, p, Eigen::Vector3d(0, 0, nan), toi), Catch::Contains("p_t1"));
    CHECK_THROWS_WITH(point_obstacle_ccd(ground, p, q, toi, -1), Catch::Contains("min_distance") && Catch::Contains("-1"));
    CHECK_THROWS_WITH(point_obstacle_ccd(ground, p, q, toi, 0, 1.5), Catch::Contains("tmax") && Catch::Contains("1.5"));
    CHECK_THROWS_WITH(point_obstacle_ccd(ground, p, q, toi, 0, 1, 1.0), Catch::Contains("conservative_rescaling"));
    CHECK_THROWS_AS(point_obstacle_ccd(SdfObstacle(SphereObstacle { p, 0 }), p, q, toi), ipc::invalid_argument);
    CHECK_THROWS_AS(point_obstacle_ccd(SignedDistanceObstacle(), p, q, toi), ipc::invalid_argument);
    const ObstacleSet set({ PlaneObstacle() });
    CHECK_THROWS_WITH(point_obstacle_ccd(set, 1, p, q, toi), Catch::Contains("obstacle index 1"));
    CHECK(point_obstacle_ccd(set, 0, p, q, toi));
}

TEST_CASE("obstacle_collision_free_step_size", "[obstacles][pipeline][ccd][step]")
{
    std::mt19937_64 rng(404);
    const ObstacleSet obstacles({ PlaneObstacle(), SphereObstacle { Eigen::Vector3d(0, 0, 1), 0.3 },
                                  CapsuleObstacle { Eigen::Vector3d(2, -1, 0.5), Eigen::Vector3d(2, 1, 0.5), 0.1 } },
                                { callback_sphere(Eigen::Vector3d(-2, 0, 1), 0.4, true) });
    const int n = 30;
    Eigen::MatrixXd V0(n, 3), V1(n, 3);
    Eigen::VectorXd radii(n);
    std::vector<bool> prescribed(n, false);
    for (int i = 0; i < n; ++i) {
        radii[i] = i % 3 == 0 ? 0.01 : 0.0;
        do {
            V0.row(i) = random_point(rng, Eigen::Vector3d(0, 0, 1.5), 3).transpose();
            V0(i, 2) = std::abs(V0(i, 2)) + 0.05;
        } while (!(obstacles.signed_distance(1, V0.row(i).transpose()) > 0.05
                   && obstacles.signed_distance(2, V0.row(i).transpose()) > 0.05
                   && obstacles.signed_distance(3, V0.row(i).transpose()) > 0.05));
        V1.row(i) = V0.row(i) + 2 * random_direction(rng).transpose();
    }
    prescribed[5] = true;
    const CollisionMesh mesh = particle_mesh(V0, radii, prescribed);
    const double dmin = 0.002;
    const double alpha = obstacle_collision_free_step_size(mesh, V0, V1, obstacles, dmin);
    REQUIRE(alpha > 0);
    REQUIRE(alpha < 1);
    // The minimum of the pointwise queries over the non-prescribed vertices.
    double expected = 1;
    for (int i = 0; i < n; ++i) {
        if (i == 5) {
            continue;
        }
        for (Index k = 0; k < obstacles.size(); ++k) {
            double toi = 1;
            if (point_obstacle_ccd(obstacles, k, V0.row(i).transpose(), V1.row(i).transpose(), toi, radii[i] + dmin)) {
                expected = std::min(expected, toi);
            }
        }
    }
    CHECK(alpha == expected);
    // The configuration at alpha is valid: a finite barrier for any dhat.
    const Eigen::MatrixXd V = V0 + alpha * (V1 - V0);
    ObstacleCollisions contacts;
    contacts.build(mesh, V, obstacles, 10.0, dmin);
    CHECK(std::isfinite(obstacle_barrier_potential(contacts, mesh, V, 10.0, 1.0)));

    // Zero motion: 1. No obstacles: 1.
    CHECK(obstacle_collision_free_step_size(mesh, V0, V0, obstacles) == 1);
    CHECK(obstacle_collision_free_step_size(mesh, V0, V1, ObstacleSet()) == 1);
    // Only the prescribed vertex would hit: it is skipped.
    Eigen::MatrixXd W1 = V0;
    W1(5, 2) = -10;
    CHECK(obstacle_collision_free_step_size(mesh, V0, W1, obstacles) == 1);

    // Starting inside: ipc::penetration naming the vertex.
    Eigen::MatrixXd inside = V0;
    inside(7, 2) = -0.5;
    CHECK_THROWS_AS(obstacle_collision_free_step_size(mesh, inside, V1, obstacles), ipc::penetration);
    CHECK_THROWS_WITH(obstacle_collision_free_step_size(mesh, inside, V1, obstacles),
                      Catch::Contains("vertex 7") && Catch::Contains("plane"));
    // Bad input.
    CHECK_THROWS_AS(obstacle_collision_free_step_size(mesh, V0, V1.topRows(3), obstacles), ipc::invalid_argument);
    CHECK_THROWS_WITH(obstacle_collision_free_step_size(mesh, V0, V1, obstacles, -1), Catch::Contains("min_distance"));
    CHECK_THROWS_WITH(obstacle_collision_free_step_size(mesh, V0, V1, obstacles, 0, 0),
                      Catch::Contains("conservative_rescaling"));
    Eigen::MatrixXd V2(2, 2);
    V2 << 0, 1, 1, 1;
    CHECK_THROWS_WITH(obstacle_collision_free_step_size(particle_mesh(V2), V2, V2, obstacles),
                      Catch::Contains("only 3D"));
}
