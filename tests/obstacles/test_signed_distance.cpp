// Signed distances of the analytic obstacles against independent references
// (other closed forms, golden-section minimisation, dense surface samples),
// and their gradients against central differences, the subgradient
// inequality of a convex function, and the nearest surface point.

#include "helpers.hpp"

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

using namespace ipc;
using namespace ipc::test;

namespace {

std::string describe(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    std::ostringstream s;
    s.precision(17);
    s << obstacle_name(obstacle) << " at p = (" << p[0] << ", " << p[1] << ", " << p[2] << ")";
    return s.str();
}

/// True where the signed distance is smooth enough around p for a central
/// difference of step ~1e-7 reach to be accurate to 1e-6: away from the
/// sphere's centre and the capsule's axis, and for boxes away from the medial
/// axis of the sharp box, its mid-planes and close to its edges and corners.
bool smooth_around(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    const double delta = 1e-2 * obstacle_reach(obstacle);
    if (const auto* sphere = std::get_if<SphereObstacle>(&obstacle)) {
        return (p - sphere->center).norm() > delta;
    }
    if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
        return reference_distance(*capsule, p) + capsule->radius > delta;
    }
    if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
        const Eigen::Vector3d u = p - box->center;
        std::array<double, 3> q;
        int positive = 0;
        double outside = 0;
        for (int i = 0; i < 3; ++i) {
            q[i] = std::abs(u[i]) - box->half_extents[i];
            if (std::abs(u[i]) < delta) {
                return false;
            }
            if (q[i] > 0) {
                ++positive;
                outside += q[i] * q[i];
            }
        }
        std::sort(q.begin(), q.end());
        if (q[2] < delta && q[2] - q[1] < delta) {
            return false;
        }
        return positive < 2 || std::sqrt(outside) > delta;
    }
    return true;
}

} // namespace

TEST_CASE("signed distance matches closed-form references", "[obstacles][signed_distance]")
{
    std::mt19937_64 rng(1);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double scale = obstacle_scale(obstacle);
        int failures = 0;
        int inside = 0, outside = 0;
        for (const Eigen::Vector3d& p : test_points(obstacle, rng, 300)) {
            const double phi = signed_distance(obstacle, p);
            const double reference = reference_distance(obstacle, p);
            if (!(std::abs(phi - reference) <= 1e-12 * (scale + p.norm()))) {
                ++failures;
                UNSCOPED_INFO(describe(obstacle, p) << ": phi = " << phi << ", reference = " << reference);
            }
            (phi < 0 ? inside : outside) += 1;
        }
        CHECK(failures == 0);
        // The points probe both sides of the surface.
        CHECK(inside > 50);
        CHECK(outside > 50);
    }
}

TEST_CASE("signed distance agrees with dense surface samples", "[obstacles][signed_distance]")
{
    // |phi(p)| is the distance to the surface: never more than the distance to
    // any surface sample, and at most the sample spacing less than the
    // nearest one.
    std::mt19937_64 rng(2);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double spacing = 0.03 * obstacle_reach(obstacle);
        const double scale = obstacle_scale(obstacle);
        const std::vector<Eigen::Vector3d> samples = surface_samples(obstacle, spacing);
        for (const Eigen::Vector3d& s : samples) {
            // The samples themselves lie on the surface.
            REQUIRE(std::abs(signed_distance(obstacle, s)) <= 1e-12 * scale);
        }
        int failures = 0;
        std::vector<Eigen::Vector3d> points = test_points(obstacle, rng, 15);
        for (const Eigen::Vector3d& p : points) {
            double nearest = std::numeric_limits<double>::infinity();
            for (const Eigen::Vector3d& s : samples) {
                nearest = std::min(nearest, (p - s).squaredNorm());
            }
            nearest = std::sqrt(nearest);
            const double distance = std::abs(signed_distance(obstacle, p));
            if (!(distance <= nearest + 1e-12 * scale && nearest <= distance + 2 * spacing)) {
                ++failures;
                UNSCOPED_INFO(describe(obstacle, p) << ": |phi| = " << distance << ", nearest sample "
                                                    << nearest << ", spacing " << spacing);
            }
        }
        CHECK(failures == 0);
    }
}

TEST_CASE("signed distance gradient matches central differences", "[obstacles][gradient]")
{
    std::mt19937_64 rng(3);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double h = 1e-7 * obstacle_reach(obstacle);
        int failures = 0, tested = 0;
        for (const Eigen::Vector3d& p : test_points(obstacle, rng, 300)) {
            if (!smooth_around(obstacle, p)) {
                continue;
            }
            ++tested;
            Eigen::Vector3d fd;
            for (int i = 0; i < 3; ++i) {
                Eigen::Vector3d plus = p, minus = p;
                plus[i] += h;
                minus[i] -= h;
                fd[i] = (signed_distance(obstacle, plus) - signed_distance(obstacle, minus)) / (2 * h);
            }
            const Eigen::Vector3d g = signed_distance_gradient(obstacle, p);
            if (!((g - fd).norm() <= 1e-6)) {
                ++failures;
                UNSCOPED_INFO(describe(obstacle, p) << ": gradient (" << g.transpose() << "), differences ("
                                                    << fd.transpose() << ")");
            }
        }
        CHECK(failures == 0);
        CHECK(tested > 200);
    }
}

TEST_CASE("signed distance gradient is a unit subgradient pointing at the nearest surface point",
    "[obstacles][gradient]")
{
    // phi is convex, so a valid (sub)gradient g at p satisfies
    // phi(y) >= phi(p) + g . (y - p) for every y; moving from p by -phi(p) g
    // reaches the surface. Both hold also where the nearest point is not
    // unique: the sphere's centre, the capsule's axis, the box's medial axis.
    std::mt19937_64 rng(4);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double scale = obstacle_scale(obstacle);
        const Eigen::Vector3d c = obstacle_centre(obstacle);
        const double reach = obstacle_reach(obstacle);
        int failures = 0;
        for (const Eigen::Vector3d& p : test_points(obstacle, rng, 100)) {
            const Eigen::Vector3d g = signed_distance_gradient(obstacle, p);
            const double phi = signed_distance(obstacle, p);
            bool ok = all_finite(g) && std::abs(g.norm() - 1) <= 1e-14;
            ok = ok && std::abs(signed_distance(obstacle, Eigen::Vector3d(p - phi * g))) <= 1e-12 * scale;
            for (int k = 0; k < 20 && ok; ++k) {
                const Eigen::Vector3d y = random_point(rng, c, 2 * reach);
                ok = signed_distance(obstacle, y) >= phi + g.dot(y - p) - 1e-12 * scale;
            }
            if (!ok) {
                ++failures;
                UNSCOPED_INFO(describe(obstacle, p) << ": gradient (" << g.transpose() << ")");
            }
        }
        CHECK(failures == 0);
    }
}

TEST_CASE("signed distance gradient at the singular points", "[obstacles][gradient]")
{
    const auto unit_and_finite = [](const SdfObstacle& obstacle, const Eigen::Vector3d& p) {
        const Eigen::Vector3d g = signed_distance_gradient(obstacle, p);
        INFO(describe(obstacle, p) << ": gradient (" << g.transpose() << ")");
        CHECK(all_finite(g));
        CHECK(g.norm() == Approx(1).margin(1e-15));
    };
    const SphereObstacle sphere { Eigen::Vector3d(1, 2, 3), 0.5 };
    unit_and_finite(sphere, sphere.center);
    CHECK(signed_distance(sphere, sphere.center) == Approx(-0.5));
    // Tiny offsets are normalised without underflow.
    unit_and_finite(sphere, sphere.center + Eigen::Vector3d(1e-300, 0, 0));
    CHECK(signed_distance_gradient(SphereObstacle { Eigen::Vector3d::Zero(), 1 }, Eigen::Vector3d(1e-310, 0, 0))
            .isApprox(Eigen::Vector3d::UnitX()));

    const CapsuleObstacle capsule { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 0), 0.2 };
    for (const double t : { 0.0, 0.3, 1.0 }) {
        const Eigen::Vector3d p = capsule.a + t * (capsule.b - capsule.a);
        unit_and_finite(capsule, p);
        // On the axis the gradient is perpendicular to it.
        CHECK(std::abs(signed_distance_gradient(capsule, p).dot(capsule.b - capsule.a)) < 1e-15);
    }
    const CapsuleObstacle point_capsule { Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(1, 0, 0), 0.2 };
    unit_and_finite(point_capsule, point_capsule.a);

    const BoxObstacle box { Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0.5, 0.5, 0.5), 0.1 };
    unit_and_finite(box, box.center);
    unit_and_finite(box, box.center + Eigen::Vector3d(0.2, 0.2, 0));
    unit_and_finite(box, box.center + box.half_extents);
    const BoxObstacle point_box { Eigen::Vector3d(0, 1, 0), Eigen::Vector3d::Zero(), 0.1 };
    unit_and_finite(point_box, point_box.center);
    CHECK(signed_distance(point_box, point_box.center) == Approx(-0.1));
    const BoxObstacle sharp_point_box { Eigen::Vector3d(0, 1, 0), Eigen::Vector3d::Zero(), 0 };
    unit_and_finite(sharp_point_box, sharp_point_box.center);

    const PlaneObstacle plane { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 0, 3) };
    unit_and_finite(plane, Eigen::Vector3d(1, 2, 0));

    // NaN in, NaN out (never a made-up direction).
    const Eigen::Vector3d nan = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
    for (const SdfObstacle& obstacle : test_obstacles()) {
        CHECK(std::isnan(signed_distance(obstacle, nan)));
        CHECK(!all_finite(signed_distance_gradient(obstacle, nan)));
    }
}

TEST_CASE("plane normal is normalised", "[obstacles][signed_distance]")
{
    const PlaneObstacle plane { Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, 4) };
    CHECK(plane.normal == Eigen::Vector3d::UnitZ());
    CHECK(signed_distance(plane, Eigen::Vector3d(3, -2, 3.5)) == Approx(2.5));
    // A normal assigned afterwards need not be unit.
    PlaneObstacle assigned;
    CHECK(assigned.normal == Eigen::Vector3d::UnitZ());
    CHECK(signed_distance(assigned, Eigen::Vector3d(1, 1, -2)) == -2);
    assigned.normal = Eigen::Vector3d(0, -2, 0);
    CHECK(signed_distance(assigned, Eigen::Vector3d(5, -3, 7)) == Approx(3));
    CHECK(signed_distance_gradient(assigned, Eigen::Vector3d(5, -3, 7)) == -Eigen::Vector3d::UnitY());
    // The constructor keeps a zero normal for check_obstacle to report.
    const PlaneObstacle zero { Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero() };
    CHECK(zero.normal == Eigen::Vector3d::Zero());
}

TEST_CASE("variant functions dispatch to the shape", "[obstacles][signed_distance]")
{
    std::mt19937_64 rng(5);
    const SphereObstacle sphere { Eigen::Vector3d(0.1, 0, 0), 0.3 };
    const BoxObstacle box { Eigen::Vector3d(0, 0.2, 0), Eigen::Vector3d(0.1, 0.2, 0.3), 0.05 };
    const CapsuleObstacle capsule { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 1, 0), 0.1 };
    const PlaneObstacle plane { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 1) };
    for (int k = 0; k < 20; ++k) {
        const Eigen::Vector3d p = random_point(rng, Eigen::Vector3d::Zero(), 1);
        CHECK(signed_distance(SdfObstacle(sphere), p) == signed_distance(sphere, p));
        CHECK(signed_distance(SdfObstacle(box), p) == signed_distance(box, p));
        CHECK(signed_distance(SdfObstacle(capsule), p) == signed_distance(capsule, p));
        CHECK(signed_distance(SdfObstacle(plane), p) == signed_distance(plane, p));
        CHECK(signed_distance_gradient(SdfObstacle(box), p) == signed_distance_gradient(box, p));
    }
    // Spot values.
    CHECK(signed_distance(box, Eigen::Vector3d(0, 0.2, 0)) == Approx(-0.15));
    CHECK(signed_distance(box, Eigen::Vector3d(0.2, 0.5, 0)) == Approx(std::sqrt(0.02) - 0.05));
    CHECK(signed_distance(capsule, Eigen::Vector3d(0, 1.5, 0)) == Approx(0.4));
    CHECK(signed_distance(capsule, Eigen::Vector3d(0.5, 0.5, 0)) == Approx(0.4));
}
