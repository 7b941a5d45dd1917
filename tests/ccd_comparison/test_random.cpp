// Random queries cross-checked between InclusionCCD, RootFindingCCD and a
// dense long-double sampling of the distance along the step.

#include <catch2/catch.hpp>

#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace {

using Vector3l = Eigen::Matrix<long double, 3, 1>;
using Eigen::Vector3d;

Vector3l to_long(const Vector3d& x) { return x.cast<long double>(); }

long double point_segment_distance(const Vector3l& p, const Vector3l& a, const Vector3l& b)
{
    const Vector3l e = b - a;
    const long double l2 = e.squaredNorm();
    long double s = l2 > 0 ? (p - a).dot(e) / l2 : 0;
    s = std::clamp<long double>(s, 0, 1);
    return (p - (a + s * e)).norm();
}

long double point_triangle_distance(
    const Vector3l& p, const Vector3l& a, const Vector3l& b, const Vector3l& c)
{
    const Vector3l n = (b - a).cross(c - a);
    const long double n2 = n.squaredNorm();
    if (n2 > 0) {
        const long double v = (p - a).cross(c - a).dot(n) / n2;
        const long double w = (b - a).cross(p - a).dot(n) / n2;
        if (v >= 0 && w >= 0 && v + w <= 1) {
            return std::abs((p - a).dot(n)) / std::sqrt(n2);
        }
    }
    return std::min(
        { point_segment_distance(p, a, b), point_segment_distance(p, b, c),
          point_segment_distance(p, c, a) });
}

long double segment_segment_distance(
    const Vector3l& a0, const Vector3l& a1, const Vector3l& b0, const Vector3l& b1)
{
    const Vector3l ea = a1 - a0, eb = b1 - b0, r = b0 - a0;
    const long double aa = ea.squaredNorm(), bb = eb.squaredNorm(), ab = ea.dot(eb);
    const long double den = aa * bb - ab * ab;
    if (den > 1e-20L * aa * bb) {
        const long double s = (r.dot(ea) * bb - r.dot(eb) * ab) / den;
        const long double u = (r.dot(ea) * ab - r.dot(eb) * aa) / den;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            return (a0 + s * ea - (b0 + u * eb)).norm();
        }
    }
    return std::min(
        { point_segment_distance(a0, b0, b1), point_segment_distance(a1, b0, b1),
          point_segment_distance(b0, a0, a1), point_segment_distance(b1, a0, a1) });
}

/// A query: 4 points at t0, then 4 at t1.
struct Query {
    std::array<Vector3d, 8> x;
    bool edge_edge;

    long double distance(long double t) const
    {
        std::array<Vector3l, 4> y;
        for (int i = 0; i < 4; ++i) {
            y[i] = to_long(x[i]) + t * (to_long(x[4 + i]) - to_long(x[i]));
        }
        return edge_edge ? segment_segment_distance(y[0], y[1], y[2], y[3])
                         : point_triangle_distance(y[0], y[1], y[2], y[3]);
    }

    /// Largest speed of any point, which bounds |d distance / dt| by twice it.
    double max_speed() const
    {
        double v = 0;
        for (int i = 0; i < 4; ++i) {
            v = std::max(v, (x[4 + i] - x[i]).norm());
        }
        return v;
    }

    ipc::CCDResult run(const ipc::InclusionCCD& m, double eta) const
    {
        return edge_edge ? m.edge_edge_ccd_result(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], eta)
                         : m.point_triangle_ccd_result(
                             x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], eta);
    }
    ipc::CCDResult run(const ipc::RootFindingCCD& m, double eta) const
    {
        return edge_edge ? m.edge_edge_ccd_result(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], eta)
                         : m.point_triangle_ccd_result(
                             x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], eta);
    }
};

Vector3d random_vector(std::mt19937& rng, double scale)
{
    std::uniform_real_distribution<double> u(-scale, scale);
    return Vector3d(u(rng), u(rng), u(rng));
}

} // namespace

TEST_CASE("random queries with a minimum distance agree with dense sampling", "[ccd_comparison]")
{
    std::mt19937 rng(20210701);
    const ipc::InclusionCCD inclusion;
    const ipc::RootFindingCCD root_finding(1.0);
    constexpr int samples = 2000;
    int hits = 0, misses = 0;

    for (int q = 0; q < 400; ++q) {
        Query query;
        query.edge_edge = q % 2 == 1;
        for (int i = 0; i < 4; ++i) {
            query.x[i] = random_vector(rng, 1);
            query.x[4 + i] = query.x[i] + random_vector(rng, 1);
        }
        const double eta = std::uniform_real_distribution<double>(0.01, 0.2)(rng);

        // Sampled distance: first sample below eta, and the smallest value.
        long double smallest = 1e30L;
        long double first_below = -1;
        for (int s = 0; s <= samples; ++s) {
            const long double t = (long double)s / samples;
            const long double d = query.distance(t);
            smallest = std::min(smallest, d);
            if (first_below < 0 && d < eta) {
                first_below = t;
            }
        }
        // Between samples the distance changes by at most this much.
        const long double sampling_error = 2 * query.max_speed() / samples;

        const ipc::CCDResult inc = query.run(inclusion, eta);
        const ipc::CCDResult rf = query.run(root_finding, eta);
        INFO("query " << q << (query.edge_edge ? " edge-edge" : " point-triangle")
                      << " eta " << eta << " sampled min distance " << (double)smallest);
        REQUIRE(inc.status != ipc::CCDStatus::iteration_cap);

        if (first_below >= 0) {
            ++hits;
            // A definite contact within eta: both find it, no later than the
            // sample that shows it.
            CHECK(inc.collides());
            CHECK(rf.collides());
            CHECK(inc.toi <= first_below);
            CHECK(rf.toi <= first_below);
            // The infinity-norm distance reaches eta no later than the
            // Euclidean one.
            CHECK(inc.toi <= rf.toi + 1e-9);
        }
        if (smallest - sampling_error > std::sqrt(3.0) * eta + 1e-4) {
            ++misses;
            // Definitely farther than eta in every norm: neither reports a hit.
            CHECK_FALSE(inc.collides());
            CHECK_FALSE(rf.collides());
        }
        // No method reports a time after which the sampling shows contact,
        // and the root finder's contact time is where the distance is eta.
        for (const ipc::CCDResult& r : { inc, rf }) {
            if (r.collides() && r.toi > 0) {
                for (int s = 0; s <= samples && (long double)s / samples < r.toi; ++s) {
                    CHECK(query.distance((long double)s / samples) >= eta - 1e-9);
                }
            }
        }
        if (rf.status == ipc::CCDStatus::hit) {
            CHECK(std::abs((double)query.distance(rf.toi) - eta) <= 1e-7);
        }
    }
    // The generator gives both kinds of cases in useful numbers.
    CHECK(hits >= 40);
    CHECK(misses >= 40);
}

TEST_CASE("random exact contacts are found", "[ccd_comparison]")
{
    // Build queries that touch exactly (up to the rounding of the
    // construction) at a chosen time: the point on the triangle, or a point
    // shared by both edges, at t = tc.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    const ipc::InclusionCCD inclusion;
    const ipc::RootFindingCCD root_finding(1.0);
    int root_finding_found = 0;
    constexpr int n = 300;
    for (int q = 0; q < n; ++q) {
        Query query;
        query.edge_edge = q % 2 == 1;
        const double tc = unit(rng);
        std::array<Vector3d, 4> at_contact;
        for (auto& x : at_contact) {
            x = random_vector(rng, 1);
        }
        if (query.edge_edge) {
            // Move b0 so that the edges meet at a(u) = b(v).
            const double u = unit(rng), v = unit(rng);
            const Vector3d meet = at_contact[0] + u * (at_contact[1] - at_contact[0]);
            const Vector3d dir = at_contact[3] - at_contact[2];
            at_contact[2] = meet - v * dir;
            at_contact[3] = at_contact[2] + dir;
        } else {
            double u = unit(rng), v = unit(rng);
            if (u + v > 1) {
                u = 1 - u;
                v = 1 - v;
            }
            at_contact[0] = at_contact[1] + u * (at_contact[2] - at_contact[1])
                + v * (at_contact[3] - at_contact[1]);
        }
        for (int i = 0; i < 4; ++i) {
            const Vector3d velocity = random_vector(rng, 1);
            query.x[i] = at_contact[i] - tc * velocity;
            query.x[4 + i] = query.x[i] + velocity;
        }
        INFO("query " << q << " tc " << tc);
        const ipc::CCDResult inc = query.run(inclusion, 0);
        CHECK(inc.collides());
        // The construction is exact only up to rounding (about 1e-15).
        CHECK(inc.toi <= tc + 1e-9);
        const ipc::CCDResult rf = query.run(root_finding, 0);
        if (rf.collides()) {
            ++root_finding_found;
            CHECK(rf.toi <= tc + 1e-9);
        }
    }
    // The root finder is not exact, but transversal contacts like these are
    // what it is built for.
    CHECK(root_finding_found >= 0.95 * n);
}
