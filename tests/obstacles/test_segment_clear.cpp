// segment_clear_of_obstacle against the minimum of the signed distance along
// the segment, found by dense sampling and by golden-section search (the
// signed distance of a convex body is convex along a line).

#include "helpers.hpp"

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>

using namespace ipc;
using namespace ipc::test;

namespace {

struct Segment {
    Eigen::Vector3d p0, p1;
};

/// Random segments around the obstacle: from the test points in random
/// directions with lengths from zero to three times the obstacle's reach,
/// chords through near-surface points (grazing the surface), and segments
/// parallel to a box face or a capsule axis.
std::vector<Segment> test_segments(const SdfObstacle& obstacle, std::mt19937_64& rng, int count)
{
    const double reach = obstacle_reach(obstacle);
    std::vector<Segment> segments;
    const std::vector<Eigen::Vector3d> points = test_points(obstacle, rng, count);
    for (std::size_t k = 0; k < points.size(); ++k) {
        const Eigen::Vector3d& p = points[k];
        const Eigen::Vector3d d = random_direction(rng);
        switch (k % 5) {
        case 0: segments.push_back({ p, p }); break;
        case 1: segments.push_back({ p, p + uniform(rng, 0, 0.05) * reach * d }); break;
        case 2: segments.push_back({ p, p + uniform(rng, 0, 3) * reach * d }); break;
        case 3: {
            // A chord centred on p, perpendicular to the gradient there (tangent-like).
            Eigen::Vector3d g = signed_distance_gradient(obstacle, p);
            Eigen::Vector3d t = d - d.dot(g) * g;
            t = ipc::detail::sdf::safe_unit(t, Eigen::Vector3d::UnitX());
            const double half = uniform(rng, 0, 1) * reach;
            segments.push_back({ p - half * t, p + half * t });
            break;
        }
        default: {
            // Along a coordinate axis (parallel to box faces) or the capsule's axis.
            Eigen::Vector3d axis = Eigen::Vector3d::Unit(int(k / 5) % 3);
            if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
                axis = ipc::detail::sdf::safe_unit(capsule->b - capsule->a, axis);
            }
            const double half = uniform(rng, 0, 2) * reach;
            segments.push_back({ p - half * axis, p + uniform(rng, 0, 2) * reach * axis });
            break;
        }
        }
    }
    return segments;
}

std::string describe(const SdfObstacle& obstacle, const Segment& s, double margin)
{
    std::ostringstream out;
    out.precision(17);
    out << obstacle_name(obstacle) << ": p0 = (" << s.p0.transpose() << "), p1 = (" << s.p1.transpose()
        << "), margin " << margin;
    return out.str();
}

} // namespace

TEST_CASE("segment_clear_of_obstacle is exact and never optimistic", "[obstacles][segment]")
{
    std::mt19937_64 rng(11);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double scale = obstacle_scale(obstacle);
        const double reach = obstacle_reach(obstacle);
        int failures = 0, clear = 0, blocked = 0, decided = 0;
        for (const Segment& s : test_segments(obstacle, rng, 60)) {
            const auto phi = [&](double t) {
                return signed_distance(obstacle, Eigen::Vector3d(s.p0 + t * (s.p1 - s.p0)));
            };
            const double minimum = convex_minimum(phi);
            double sampled = std::numeric_limits<double>::infinity();
            for (int i = 0; i <= 400; ++i) {
                sampled = std::min(sampled, phi(i / 400.0));
            }
            for (const double margin : { minimum - 1e-6 * scale, minimum + 1e-6 * scale, 0.0,
                     uniform(rng, -0.5, 0.5) * reach, minimum - 1e-3 * reach }) {
                const bool answer = segment_clear_of_obstacle(obstacle, s.p0, s.p1, margin);
                bool ok = true;
                if (answer) {
                    // Never true when some point of the segment is below the margin.
                    ok = sampled >= margin && minimum >= margin - 1e-12 * scale;
                    ++clear;
                } else {
                    ++blocked;
                }
                if (std::abs(minimum - margin) > 1e-9 * scale) {
                    // Away from ties the answer is exact, for every shape.
                    ok = ok && answer == (minimum > margin);
                    ++decided;
                }
                if (!ok) {
                    ++failures;
                    UNSCOPED_INFO(describe(obstacle, s, margin) << ": answer " << answer << ", minimum "
                                                                << minimum << ", sampled " << sampled);
                }
            }
        }
        CHECK(failures == 0);
        CHECK(clear > 50);
        CHECK(blocked > 50);
        CHECK(decided > 200);
    }
}

TEST_CASE("exact minima along segments for boxes and capsules", "[obstacles][segment]")
{
    // The closed forms behind the box and capsule tests agree with golden-
    // section minimisation of the reference distances to rounding.
    std::mt19937_64 rng(12);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        const double scale = obstacle_scale(obstacle);
        int failures = 0;
        // (The capsule's reference is a nested golden-section search: fewer segments.)
        const int count = std::holds_alternative<CapsuleObstacle>(obstacle) ? 15 : 40;
        for (const Segment& s : test_segments(obstacle, rng, count)) {
            double exact = 0;
            if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
                exact = ipc::detail::sdf::segment_min_sharp_box_distance(
                            s.p0 - box->center, s.p1 - box->center, box->half_extents)
                    - box->rounding;
            } else if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
                exact = ipc::detail::sdf::segment_segment_distance(s.p0, s.p1, capsule->a, capsule->b)
                    - capsule->radius;
            } else {
                continue;
            }
            const double reference = convex_minimum([&](double t) {
                return reference_distance(obstacle, Eigen::Vector3d(s.p0 + t * (s.p1 - s.p0)));
            });
            if (!(std::abs(exact - reference) <= 1e-10 * scale)) {
                ++failures;
                UNSCOPED_INFO(describe(obstacle, s, 0) << ": closed form " << exact << ", reference " << reference);
            }
        }
        CHECK(failures == 0);
    }
}

TEST_CASE("segment_clear_of_obstacle special cases", "[obstacles][segment]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const Eigen::Vector3d far(10, 10, 10), farther(11, 10, 10);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        INFO(obstacle_name(obstacle));
        const bool planar = std::holds_alternative<PlaneObstacle>(obstacle);
        const Eigen::Vector3d c = obstacle_centre(obstacle);
        const Eigen::Vector3d out = planar ? Eigen::Vector3d(c + std::get<PlaneObstacle>(obstacle).normal) : far;
        const Eigen::Vector3d out2 = planar ? Eigen::Vector3d(out + Eigen::Vector3d(0.001, 0, 0)) : farther;
        // NaN anywhere: never clear.
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, Eigen::Vector3d(nan, 0, 0), out, 0));
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, out, Eigen::Vector3d(0, 0, nan), 0));
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, out, out2, nan));
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, out, out2, inf));
        CHECK(segment_clear_of_obstacle(obstacle, out, out2, -inf));
        // A segment through the centre is never clear at margin 0.
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, c, out, 0));
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, c, c, 0));
        // Negative margins (allowed penetration) work too.
        const double depth = signed_distance(obstacle, c);
        CHECK(segment_clear_of_obstacle(obstacle, c, c, depth - 1e-9));
        CHECK_FALSE(segment_clear_of_obstacle(obstacle, c, c, depth + 1e-9));
    }
    // A segment exactly at the margin is not clear (the slack is conservative).
    const SphereObstacle sphere { Eigen::Vector3d::Zero(), 1 };
    CHECK_FALSE(segment_clear_of_obstacle(sphere, Eigen::Vector3d(-1, 1.5, 0), Eigen::Vector3d(1, 1.5, 0), 0.5));
    CHECK(segment_clear_of_obstacle(sphere, Eigen::Vector3d(-1, 1.5, 0), Eigen::Vector3d(1, 1.5, 0), 0.5 - 1e-9));
    // A long segment grazing a box face: the Lipschitz bound would reject it,
    // the exact minimum accepts it.
    const BoxObstacle box { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 1, 1), 0.1 };
    CHECK(segment_clear_of_obstacle(box, Eigen::Vector3d(-5, 1.2, 0), Eigen::Vector3d(5, 1.2, 0.5), 0.099));
    CHECK_FALSE(segment_clear_of_obstacle(box, Eigen::Vector3d(-5, 1.2, 0), Eigen::Vector3d(5, 1.2, 0.5), 0.101));
    // Past a rounded edge: nearest approach sqrt(2) * 1.2 - 1 - 0.1 from the edge.
    const double edge_gap = std::sqrt(2.0) * 1.2 - std::sqrt(2.0) * 1 - 0.1;
    const Eigen::Vector3d p0(2.4, 0, -3), p1(0, 2.4, 3);
    CHECK(segment_clear_of_obstacle(box, p0, p1, edge_gap - 1e-9));
    CHECK_FALSE(segment_clear_of_obstacle(box, p0, p1, edge_gap + 1e-9));
    // A capsule parallel to the segment.
    const CapsuleObstacle capsule { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 0, 1), 0.1 };
    CHECK(segment_clear_of_obstacle(capsule, Eigen::Vector3d(0.3, 0, -5), Eigen::Vector3d(0.3, 0, 5), 0.2 - 1e-9));
    CHECK_FALSE(segment_clear_of_obstacle(capsule, Eigen::Vector3d(0.3, 0, -5), Eigen::Vector3d(0.3, 0, 5), 0.2 + 1e-9));
    CHECK(segment_clear_of_obstacle(capsule, Eigen::Vector3d(0, 0, 1.5), Eigen::Vector3d(0, 0, 5), 0.4 - 1e-9));
    CHECK_FALSE(segment_clear_of_obstacle(capsule, Eigen::Vector3d(0, 0, 1.5), Eigen::Vector3d(0, 0, 5), 0.4 + 1e-9));
    // A plane: the lower end decides.
    const PlaneObstacle plane { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 0, 1) };
    CHECK(segment_clear_of_obstacle(plane, Eigen::Vector3d(0, 0, 0.3), Eigen::Vector3d(9, 9, 2), 0.3 - 1e-9));
    CHECK_FALSE(segment_clear_of_obstacle(plane, Eigen::Vector3d(0, 0, 0.3), Eigen::Vector3d(9, 9, 2), 0.3 + 1e-9));
    // Variant dispatch.
    CHECK(segment_clear_of_obstacle(SdfObstacle(capsule), Eigen::Vector3d(0.3, 0, -5), Eigen::Vector3d(0.3, 0, 5), 0.19));
}
