// Additive CCD: constructed queries with exact answers, invalid input,
// scales, termination, and random queries against dense long double sampling.

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>

using Eigen::Vector2d;
using Eigen::Vector3d;
using ipc::AdditiveCCD;
using ipc::CCDResult;
using ipc::CCDStatus;

static_assert(ipc::is_ccd_method_v<AdditiveCCD>, "AdditiveCCD must satisfy the CCD concept");

namespace {

enum class Stencil { point_point, point_edge, point_triangle, edge_edge };

/// A 3D query: vertices at t = 0 and t = 1 (first primitive first).
struct Query {
    Stencil stencil;
    std::array<Vector3d, 4> x0, x1;
};

CCDResult run(const AdditiveCCD& ccd, const Query& q, double xi, double tmax = 1)
{
    const auto& a = q.x0;
    const auto& b = q.x1;
    switch (q.stencil) {
    case Stencil::point_point: return ccd.point_point_ccd_result(a[0], a[1], b[0], b[1], xi, tmax);
    case Stencil::point_edge:
        return ccd.point_edge_ccd_result(a[0], a[1], a[2], b[0], b[1], b[2], xi, tmax);
    case Stencil::point_triangle:
        return ccd.point_triangle_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], xi, tmax);
    default:
        return ccd.edge_edge_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], xi, tmax);
    }
}

/// Distance at time t in long double, from the library's distance kernels.
long double distance_at(const Query& q, long double t)
{
    using V = Eigen::Matrix<long double, 3, 1>;
    std::array<V, 4> x;
    for (int i = 0; i < 4; ++i) {
        const V a = q.x0[i].cast<long double>(), b = q.x1[i].cast<long double>();
        x[i] = a + t * (b - a);
    }
    long double d2 = 0;
    switch (q.stencil) {
    case Stencil::point_point: d2 = ipc::point_point_distance_squared(x[0], x[1]); break;
    case Stencil::point_edge: d2 = ipc::point_edge_distance_squared(x[0], x[1], x[2]); break;
    case Stencil::point_triangle:
        d2 = ipc::point_triangle_distance_squared(x[0], x[1], x[2], x[3]);
        break;
    default: d2 = ipc::edge_edge_distance_squared(x[0], x[1], x[2], x[3]); break;
    }
    return std::sqrt(d2);
}

Query point_triangle_head_on(double scale = 1)
{
    // Point falls straight through the interior of a static triangle in z = 0;
    // touches at t = 0.5.
    Query q { Stencil::point_triangle, {}, {} };
    q.x0 = { Vector3d(0.2, 0.2, 1), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
    q.x1 = { Vector3d(0.2, 0.2, -1), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
    for (int i = 0; i < 4; ++i) {
        q.x0[i] *= scale;
        q.x1[i] *= scale;
    }
    return q;
}

Query edge_edge_crossing()
{
    // Edge a (along x) drops from z = 1 to z = -1 onto edge b (along y);
    // touches at t = 0.5.
    Query q { Stencil::edge_edge, {}, {} };
    q.x0 = { Vector3d(-1, 0.1, 1), Vector3d(1, 0.1, 1), Vector3d(0.2, -1, 0), Vector3d(0.2, 1, 0) };
    q.x1 = { Vector3d(-1, 0.1, -1), Vector3d(1, 0.1, -1), Vector3d(0.2, -1, 0), Vector3d(0.2, 1, 0) };
    return q;
}

/// The guarantee of a hit: distance at toi (long double) at least
/// xi + (1 - s)(d0 - xi), up to rounding.
void check_hit_margin(const Query& q, const CCDResult& r, double xi, double s = 0.9)
{
    const long double d0 = distance_at(q, 0);
    const long double at_toi = distance_at(q, r.toi);
    CHECK(at_toi >= xi + (1 - s) * (d0 - xi) * (1 - 1e-9L));
}

} // namespace

TEST_CASE("ACCD: point falling onto a triangle interior", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const Query q = point_triangle_head_on();
    for (const double xi : { 0.0, 0.1, 0.5 }) {
        // Contact with the offset surface at t* = (1 - xi) / 2.
        const double contact = (1 - xi) / 2;
        const CCDResult r = run(ccd, q, xi);
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi <= contact);
        // At toi the gap is at least 10% of the initial gap: toi <= (1 - xi)(1 - 0.1) / 2.
        CHECK(r.toi <= 0.9 * contact * (1 + 1e-12));
        CHECK(r.toi > 0.5 * contact); // a head-on approach is not over-conservative
        check_hit_margin(q, r, xi);
        double toi = -1;
        CHECK(ccd.point_triangle_ccd(
            q.x0[0], q.x0[1], q.x0[2], q.x0[3], q.x1[0], q.x1[1], q.x1[2], q.x1[3], toi, xi));
        CHECK(toi == r.toi);
    }
}

TEST_CASE("ACCD: edges crossing at a known time", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const Query q = edge_edge_crossing();
    for (const double xi : { 0.0, 0.01, 0.3 }) {
        const double contact = (1 - xi) / 2;
        const CCDResult r = run(ccd, q, xi);
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi <= contact);
        CHECK(r.toi > 0.5 * contact);
        check_hit_margin(q, r, xi);
    }
    // Shifted sideways so that the edges pass beside each other (closest 0.7
    // at t = 0.5, d(0) = sqrt(1.49)). A hit is reported below
    // xi + 0.1 (d(0) - xi); with xi = 0.6 that is 0.662 < 0.7: no hit.
    Query beside = q;
    for (int i = 2; i < 4; ++i) {
        beside.x0[i].x() += 1.5; // edge b at x = 1.7, edge a ends at x = 1
        beside.x1[i].x() += 1.5;
    }
    CHECK(distance_at(beside, 0.5L) == Approx(0.7));
    CHECK(run(ccd, beside, 0.6).status == CCDStatus::no_hit);
    CHECK(run(ccd, beside, 0.71).status == CCDStatus::hit);
}

TEST_CASE("ACCD: point-edge and point-point, 2D and 3D", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    double toi = -1;
    // 2D point moving down through an edge on the x-axis: touches at t = 0.25.
    CHECK(ccd.point_edge_ccd(
        Vector2d(0.5, 1), Vector2d(0, 0), Vector2d(1, 0), Vector2d(0.5, -3), Vector2d(0, 0),
        Vector2d(1, 0), toi));
    CHECK(toi <= 0.25);
    CHECK(toi >= 0.2);
    // 2D point passing beside the edge's end (closest 0.5 away, d(0) =
    // sqrt(1.25)); the hit threshold for xi = 0.4 is 0.4 + 0.1 (d(0) - 0.4) < 0.5.
    CHECK_FALSE(ccd.point_edge_ccd(
        Vector2d(1.5, 1), Vector2d(0, 0), Vector2d(1, 0), Vector2d(1.5, -1), Vector2d(0, 0),
        Vector2d(1, 0), toi, 0.4));
    CHECK(toi == 1);
    CHECK(ccd.point_edge_ccd(
        Vector2d(1.5, 1), Vector2d(0, 0), Vector2d(1, 0), Vector2d(1.5, -1), Vector2d(0, 0),
        Vector2d(1, 0), toi, 0.51));
    // Point-point head on, 3D and 2D: meet at t = 0.5.
    CHECK(ccd.point_point_ccd(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(1, 0, 0),
                              Vector3d(-1, 0, 0), toi));
    CHECK(toi <= 0.5);
    CHECK(toi >= 0.4);
    CHECK(ccd.point_point_ccd(Vector2d(-1, 0), Vector2d(1, 0), Vector2d(1, 0), Vector2d(-1, 0), toi));
    CHECK(toi <= 0.5);
    // Point-point passing at distance 0.2 (y offset), d(0) = sqrt(0.2):
    // threshold for xi = 0.15 is 0.15 + 0.1 (d(0) - 0.15) < 0.2.
    CHECK_FALSE(ccd.point_point_ccd(Vector3d(-0.2, 0.2, 0), Vector3d(0.2, 0, 0), Vector3d(0.2, 0.2, 0),
                                    Vector3d(-0.2, 0, 0), toi, 0.15));
    CHECK(ccd.point_point_ccd(Vector3d(-0.2, 0.2, 0), Vector3d(0.2, 0, 0), Vector3d(0.2, 0.2, 0),
                              Vector3d(-0.2, 0, 0), toi, 0.21));
    // 3D point-edge through the edge's interior at t = 0.5.
    CHECK(ccd.point_edge_ccd(Vector3d(0.3, 1, 1), Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                             Vector3d(0.3, -1, -1), Vector3d(0, 0, 0), Vector3d(1, 0, 0), toi));
    CHECK(toi <= 0.5);
}

TEST_CASE("ACCD: grazing contact at a single instant", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    // The point's straight path touches the triangle's vertex (1, 0, 0) at
    // t = 0.5 exactly and is farther away at every other time.
    Query q { Stencil::point_triangle, {}, {} };
    q.x0 = { Vector3d(1, -1, 1), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
    q.x1 = { Vector3d(1, 1, -1), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
    CHECK(distance_at(q, 0.5L) == 0);
    CHECK(distance_at(q, 0.4L) > 0);
    CCDResult r = run(ccd, q, 0);
    CHECK(r.collides());
    CHECK(r.toi <= 0.5);
    // Edge-edge: the edges' lines touch at one instant only, at an endpoint.
    Query e { Stencil::edge_edge, {}, {} };
    e.x0 = { Vector3d(0, 0, 1), Vector3d(1, 0, 1), Vector3d(0, -1, 0), Vector3d(0, 0, 0) };
    e.x1 = { Vector3d(0, 0, -1), Vector3d(1, 0, -1), Vector3d(0, -1, 0), Vector3d(0, 0, 0) };
    r = run(ccd, e, 0);
    CHECK(r.collides());
    CHECK(r.toi <= 0.5);
    // With an offset: grazing the offset surface at one instant (point passes
    // at closest distance exactly 0.1 above the vertex).
    Query g = q;
    g.x0[0].z() += 0.1;
    g.x1[0].z() += 0.1;
    long double minimum = 1;
    for (int i = 0; i <= 20000; ++i) {
        minimum = std::min(minimum, distance_at(g, i / 20000.0L));
    }
    CHECK(run(ccd, g, double(minimum) * (1 + 1e-9)).collides());
}

TEST_CASE("ACCD: parallel sliding just above and below the offset", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const double xi = 1e-3;
    for (const double h : { xi * (1 + 1e-3), xi * (1 + 1e-9) }) {
        // Parallel edges sliding along their common direction at height h.
        Query q { Stencil::edge_edge, {}, {} };
        q.x0 = { Vector3d(0, 0, h), Vector3d(1, 0, h), Vector3d(0.5, 0, 0), Vector3d(1.5, 0, 0) };
        q.x1 = { Vector3d(0.7, 0, h), Vector3d(1.7, 0, h), Vector3d(0.5, 0, 0), Vector3d(1.5, 0, 0) };
        CCDResult r = run(ccd, q, xi);
        CHECK(r.status == CCDStatus::no_hit);
        CHECK(r.toi == 1);
        CHECK(r.iterations <= 3);
        // A point sliding over a triangle at height h.
        Query p { Stencil::point_triangle, {}, {} };
        p.x0 = { Vector3d(0.1, 0.1, h), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
        p.x1 = { Vector3d(0.6, 0.3, h), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
        r = run(ccd, p, xi);
        CHECK(r.status == CCDStatus::no_hit);
        CHECK(r.iterations <= 3);
    }
    // Sliding while sinking from 2 xi to just below xi at t = 1: must hit.
    Query q { Stencil::edge_edge, {}, {} };
    const double below = xi * (1 - 1e-9);
    q.x0 = { Vector3d(0, 0, 2 * xi), Vector3d(1, 0, 2 * xi), Vector3d(0.5, 0, 0), Vector3d(1.5, 0, 0) };
    q.x1 = { Vector3d(0.7, 0, below), Vector3d(1.7, 0, below), Vector3d(0.5, 0, 0), Vector3d(1.5, 0, 0) };
    CCDResult r = run(ccd, q, xi);
    CHECK(r.status == CCDStatus::hit);
    check_hit_margin(q, r, xi);
    // Starting just below xi: initially within.
    Query inside = q;
    for (int i = 0; i < 2; ++i) {
        inside.x0[i].z() = below;
    }
    r = run(ccd, inside, xi);
    CHECK(r.status == CCDStatus::initially_within_offset);
    CHECK(r.toi == 0);
}

TEST_CASE("ACCD: zero relative motion and initial contact", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    Query q = point_triangle_head_on();
    const Vector3d shift(0.3, -2, 5);
    for (int i = 0; i < 4; ++i) {
        q.x1[i] = q.x0[i] + shift;
    }
    CCDResult r = run(ccd, q, 0.5);
    CHECK(r.status == CCDStatus::no_hit);
    CHECK(r.toi == 1);
    CHECK(r.iterations == 1);
    // Initial distance 1 within xi = 1 (at) and xi = 2 (inside).
    for (const double xi : { 1.0, 2.0 }) {
        r = run(ccd, point_triangle_head_on(), xi);
        CHECK(r.status == CCDStatus::initially_within_offset);
        CHECK(r.toi == 0);
        CHECK(r.collides());
    }
    // Touching at t = 0 with xi = 0.
    Query touching = edge_edge_crossing();
    for (int i = 0; i < 2; ++i) {
        touching.x0[i].z() = 0;
    }
    CHECK(run(ccd, touching, 0).status == CCDStatus::initially_within_offset);
}

TEST_CASE("ACCD: tmax below 1", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const Query q = point_triangle_head_on(); // contact at 0.5
    CCDResult r = run(ccd, q, 0, 0.4);
    CHECK(r.status == CCDStatus::no_hit);
    CHECK(r.toi == 0.4);
    r = run(ccd, q, 0, 0.6);
    CHECK(r.status == CCDStatus::hit);
    CHECK(r.toi <= 0.5);
    r = run(ccd, q, 0, 0);
    CHECK(r.status == CCDStatus::no_hit);
    CHECK(r.toi == 0);
}

TEST_CASE("ACCD: invalid input", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    Query q = point_triangle_head_on();
    for (const double bad : { nan, inf, -inf }) {
        Query broken = q;
        broken.x1[2].y() = bad;
        const CCDResult r = run(ccd, broken, 0);
        CHECK(r.status == CCDStatus::invalid_input);
        CHECK(r.collides());
        double toi = 0;
        try {
            ccd.point_triangle_ccd(broken.x0[0], broken.x0[1], broken.x0[2], broken.x0[3],
                                   broken.x1[0], broken.x1[1], broken.x1[2], broken.x1[3], toi);
            FAIL("no exception");
        } catch (const ipc::invalid_argument& e) {
            CHECK(std::string(e.what()).find("point_triangle_ccd") != std::string::npos);
            CHECK(std::string(e.what()).find("NaN or infinite") != std::string::npos);
        }
    }
    CHECK(run(ccd, q, -1).status == CCDStatus::invalid_input);
    CHECK(run(ccd, q, nan).status == CCDStatus::invalid_input);
    CHECK(run(ccd, q, inf).status == CCDStatus::invalid_input);
    CHECK(run(ccd, q, 0, -0.1).status == CCDStatus::invalid_input);
    CHECK(run(ccd, q, 0, 1.5).status == CCDStatus::invalid_input);
    CHECK(run(ccd, q, 0, nan).status == CCDStatus::invalid_input);
    double toi = 0;
    CHECK_THROWS_AS(ccd.edge_edge_ccd(q.x0[0], q.x0[1], q.x0[2], q.x0[3], q.x1[0], q.x1[1],
                                      q.x1[2], q.x1[3], toi, -1.0),
                    ipc::invalid_argument);
    CHECK_THROWS_WITH(
        ccd.point_point_ccd(Vector2d(0, 0), Vector2d(1, 0), Vector2d(0, 0), Vector2d(1, 0), toi, 0, 2),
        Catch::Contains("tmax"));
    CHECK_THROWS_AS(AdditiveCCD(100, 1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(AdditiveCCD(100, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(AdditiveCCD(100, nan), ipc::invalid_argument);
    CHECK_THROWS_AS(AdditiveCCD(0), ipc::invalid_argument);
    // Degenerate primitives are valid input: a zero-length edge is a point, a
    // collinear triangle is its edges.
    Query degenerate = edge_edge_crossing();
    degenerate.x0[1] = degenerate.x0[0];
    degenerate.x1[1] = degenerate.x1[0];
    CHECK(run(ccd, degenerate, 0).status == CCDStatus::no_hit); // a's point at x = -1 misses b (x = 0.2)
    degenerate.x0[0].x() = degenerate.x0[1].x() = 0.2;
    degenerate.x1[0].x() = degenerate.x1[1].x() = 0.2;
    CHECK(run(ccd, degenerate, 0).status == CCDStatus::hit);
    Query flat = point_triangle_head_on();
    flat.x0[3] = flat.x1[3] = Vector3d(2, 0, 0); // collinear with t0, t1
    const CCDResult r = run(ccd, flat, 0);
    CHECK(r.status == CCDStatus::no_hit); // the point (0.2, 0.2) never meets the x-axis segment
}

TEST_CASE("ACCD: huge and tiny coordinate scales", "[ccd][accd]")
{
    const AdditiveCCD ccd;
    const CCDResult reference = run(ccd, point_triangle_head_on(), 0.1);
    for (const double scale : { 0x1p-1000, 1e-300, 1e-12, 1e12, 1e300, 0x1p1000 }) {
        const CCDResult r = run(ccd, point_triangle_head_on(scale), 0.1 * scale);
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi == Approx(reference.toi).epsilon(1e-9));
        CHECK(r.toi <= 0.45);
        // A miss at the same scale stays a miss.
        Query miss = point_triangle_head_on(scale);
        for (int i = 0; i < 2; ++i) {
            (i == 0 ? miss.x0 : miss.x1)[0].x() += 2 * scale; // point at x = 2.2, outside
        }
        CHECK(run(ccd, miss, 0.1 * scale).status == CCDStatus::no_hit);
    }
    // Subnormal coordinates.
    const double tiny = std::numeric_limits<double>::denorm_min();
    const CCDResult r = ccd.point_point_ccd_result(
        Vector3d(-64 * tiny, 0, 0), Vector3d(64 * tiny, 0, 0), Vector3d(64 * tiny, 0, 0),
        Vector3d(-64 * tiny, 0, 0));
    CHECK(r.status == CCDStatus::hit);
    CHECK(r.toi <= 0.5);
}

TEST_CASE("ACCD: termination on adversarial inputs", "[ccd][accd]")
{
    // A long edge turning about a point close to its near end while passing a
    // static edge at 1e-9: the classic bound takes ~1e7 steps.
    Query q { Stencil::edge_edge, {}, {} };
    q.x0 = { Vector3d(0, 0, 1e-9), Vector3d(1, 0, 1e-9), Vector3d(0.01, -1, 0), Vector3d(0.01, 1, 0) };
    q.x1 = { Vector3d(0, 0.3, 1e-9), Vector3d(1, -0.3, 0.05), Vector3d(0.01, -1, 0), Vector3d(0.01, 1, 0) };
    for (const double s : { 0.01, 0.5, 0.9, 0.999 }) {
        const AdditiveCCD ccd(AdditiveCCD::default_max_iterations, s);
        const CCDResult r = run(ccd, q, 0);
        const double rate = 0.6 + 0.05; // generous: max relative displacement
        CHECK(r.iterations <= ccd.iteration_bound(1, 2 * rate, 1e-9 * 0.5));
        CHECK(r.iterations <= ccd.max_iterations());
        if (r.status != CCDStatus::no_hit) {
            CHECK(distance_at(q, r.toi) > 0);
        }
    }
    // A small iteration cap is honoured and reported, with a safe toi.
    Query slow { Stencil::point_triangle, {}, {} };
    slow.x0 = { Vector3d(0.5, 0.5, 1e-12), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
    slow.x1 = { Vector3d(0.5, 0.5, 1e-12), Vector3d(0, 0, 0.3), Vector3d(1, 0, -0.3), Vector3d(0, 1, 0.1) };
    const AdditiveCCD capped(3);
    const CCDResult r = run(capped, slow, 0);
    CHECK(r.iterations <= 3);
    CHECK(r.collides());
    CHECK(distance_at(slow, r.toi) > 0);
}

TEST_CASE("ACCD: random queries against dense long double sampling", "[ccd][accd]")
{
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::uniform_real_distribution<double> fraction(0, 1);
    auto random_vector = [&]() { return Vector3d(unit(rng), unit(rng), unit(rng)); };
    const AdditiveCCD ccd;
    const int samples = 400;
    int hits = 0, misses = 0;
    for (const Stencil stencil : { Stencil::point_point, Stencil::point_edge,
                                   Stencil::point_triangle, Stencil::edge_edge }) {
        for (int trial = 0; trial < 150; ++trial) {
            // Build the stencil around a near-contact at a random time t*.
            Query q { stencil, {}, {} };
            const double contact_time = fraction(rng);
            const double gap = std::pow(10.0, -4 * fraction(rng)) * 0.2;
            const Vector3d normal = random_vector().normalized();
            std::array<Vector3d, 4> at_contact, velocity;
            for (int i = 0; i < 4; ++i) {
                at_contact[i] = 0.5 * random_vector();
                velocity[i] = random_vector();
            }
            if (stencil == Stencil::point_point || stencil == Stencil::point_edge
                || stencil == Stencil::point_triangle) {
                // Place the point near a random point of the other primitive.
                Vector3d target = at_contact[1];
                if (stencil != Stencil::point_point) {
                    const double w = fraction(rng);
                    target = (1 - w) * at_contact[1] + w * at_contact[2];
                }
                at_contact[0] = target + gap * normal;
            }
            for (int i = 0; i < 4; ++i) {
                q.x0[i] = at_contact[i] - contact_time * velocity[i];
                q.x1[i] = at_contact[i] + (1 - contact_time) * velocity[i];
            }
            const double xi = fraction(rng) < 0.3 ? 0.0 : gap * 2 * fraction(rng);
            const CCDResult r = run(ccd, q, xi);
            long double first_within = 2;
            for (int i = 0; i <= samples; ++i) {
                const long double t = (long double)(i) / samples;
                if (distance_at(q, t) <= xi) {
                    first_within = t;
                    break;
                }
            }
            const long double d0 = distance_at(q, 0);
            INFO("stencil " << int(stencil) << " trial " << trial << " xi " << xi);
            if (d0 <= xi) {
                CHECK(r.status == CCDStatus::initially_within_offset);
                continue;
            }
            // Lower bound on the true minimum: sampled minimum minus the
            // largest change between samples.
            long double sampled_minimum = d0;
            for (int i = 1; i <= samples; ++i) {
                sampled_minimum = std::min(sampled_minimum, distance_at(q, (long double)(i) / samples));
            }
            long double rate = 0;
            for (int a = 0; a < (stencil == Stencil::edge_edge ? 2 : 1); ++a) {
                for (int b = (stencil == Stencil::edge_edge ? 2 : 1);
                     b < (stencil == Stencil::point_point ? 2 : (stencil == Stencil::point_edge ? 3 : 4)); ++b) {
                    rate = std::max<long double>(rate, ((q.x1[a] - q.x0[a]) - (q.x1[b] - q.x0[b])).norm());
                }
            }
            const long double threshold = xi + 0.1L * (d0 - xi);
            if (sampled_minimum - rate / samples > threshold * (1 + 1e-9L)) {
                // The distance never drops below ACCD's hit threshold: no hit.
                CHECK(r.status == CCDStatus::no_hit);
            }
            if (first_within <= 1) {
                CHECK(r.collides());
                CHECK(r.toi <= first_within);
            }
            if (r.status == CCDStatus::hit) {
                ++hits;
                check_hit_margin(q, r, xi);
                // Distance stays above xi on [0, toi] (dense check).
                for (int i = 0; i <= 50; ++i) {
                    CHECK(distance_at(q, r.toi * i / 50.0L) > xi);
                }
            } else {
                CHECK(r.status == CCDStatus::no_hit);
                ++misses;
            }
        }
    }
    CHECK(hits > 50);   // the generator produces both kinds
    CHECK(misses > 50);
}

TEMPLATE_TEST_CASE("ACCD for float, double and long double", "[ccd][accd]", float, double, long double)
{
    using S = TestType;
    using V3 = Eigen::Matrix<S, 3, 1>;
    using V2 = Eigen::Matrix<S, 2, 1>;
    for (const S scale : { S(1), S(1e-20), S(1e20) }) {
        // Point through a triangle's interior at t = 0.5.
        const V3 p0 = V3(S(0.2), S(0.2), S(1)) * scale, p1 = V3(S(0.2), S(0.2), S(-1)) * scale;
        const V3 a = V3(0, 0, 0), b = V3(1, 0, 0) * scale, c = V3(0, 1, 0) * scale;
        CCDResult r = ipc::additive_point_triangle_ccd<S>(p0, a, b, c, p1, a, b, c);
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi <= 0.5);
        CHECK(r.toi > 0.25);
        // Beside the triangle: miss.
        const V3 shift = V3(2, 0, 0) * scale;
        r = ipc::additive_point_triangle_ccd<S>(
            V3(p0 + shift), a, b, c, V3(p1 + shift), a, b, c, S(0.1) * scale);
        CHECK(r.status == CCDStatus::no_hit);
        // Edge-edge crossing at t = 0.5.
        const V3 ea0(S(-1), S(0.1), S(1)), ea1(S(1), S(0.1), S(1)), eb0(S(0.2), S(-1), 0),
            eb1(S(0.2), S(1), 0);
        const V3 down(0, 0, -2);
        r = ipc::additive_edge_edge_ccd<S>(
            V3(ea0 * scale), V3(ea1 * scale), V3(eb0 * scale), V3(eb1 * scale),
            V3((ea0 + down) * scale), V3((ea1 + down) * scale), V3(eb0 * scale), V3(eb1 * scale));
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi <= 0.5);
        // 2D point-edge and point-point.
        r = ipc::additive_point_edge_ccd<S, 2>(
            V2(S(0.5), S(1)) * scale, V2(0, 0), V2(S(1), 0) * scale, V2(S(0.5), S(-1)) * scale,
            V2(0, 0), V2(S(1), 0) * scale);
        CHECK(r.status == CCDStatus::hit);
        CHECK(r.toi <= 0.5);
        r = ipc::additive_point_point_ccd<S, 3>(
            V3(-1, 0, 0) * scale, V3(1, 0, 0) * scale, V3(1, 0, 0) * scale, V3(-1, 0, 0) * scale,
            S(0), S(0.3));
        CHECK(r.status == CCDStatus::no_hit);
        CHECK(r.toi == Approx(0.3));
    }
    const V3 bad(std::numeric_limits<S>::quiet_NaN(), 0, 0);
    CHECK(ipc::additive_point_point_ccd<S, 3>(bad, V3(1, 0, 0), V3(0, 0, 0), V3(1, 0, 0)).status
          == CCDStatus::invalid_input);
}

TEST_CASE("ACCD in long double beyond the range of double", "[ccd][accd]")
{
    using V3 = Eigen::Matrix<long double, 3, 1>;
    const long double huge = 1e1000L;
    const V3 p0 = V3(0.2L, 0.2L, 1) * huge, p1 = V3(0.2L, 0.2L, -1) * huge;
    const V3 a = V3(0, 0, 0), b = V3(1, 0, 0) * huge, c = V3(0, 1, 0) * huge;
    const CCDResult r = ipc::additive_point_triangle_ccd<long double>(p0, a, b, c, p1, a, b, c, 0.1L * huge);
    CHECK(r.status == CCDStatus::hit);
    CHECK(r.toi <= 0.45);
    CHECK(r.toi > 0.3);
}
