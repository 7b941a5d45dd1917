// Constructed CCD queries with known answers, run through both comparison
// methods: InclusionCCD (conservative) and RootFindingCCD (floating point).

#include <catch2/catch.hpp>

#include <ipc/ccd/ccd_method.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <string>

using Eigen::Vector3d;

static_assert(ipc::is_ccd_method_v<ipc::InclusionCCD>);
static_assert(ipc::is_ccd_method_v<ipc::RootFindingCCD>);

namespace {

// InclusionCCD: toi never exceeds the exact contact time and, for these
// transversal contacts with unit-order speeds, is within a few tolerances.
constexpr double inclusion_slack = 1e-5;
// RootFindingCCD (rescaling 1): the contact time to rounding accuracy.
constexpr double root_finding_accuracy = 1e-9;

const ipc::InclusionCCD inclusion;
const ipc::RootFindingCCD root_finding(1.0);

void check_inclusion_toi(const ipc::CCDResult& result, double exact)
{
    CHECK(result.status == ipc::CCDStatus::hit);
    CHECK(result.toi <= exact);
    CHECK(result.toi >= exact - inclusion_slack);
}

void check_root_finding_toi(const ipc::CCDResult& result, double exact)
{
    CHECK(result.status == ipc::CCDStatus::hit);
    CHECK(result.toi == Approx(exact).epsilon(0).margin(root_finding_accuracy));
}

// Triangle in the plane z = 0 with a right angle at the origin.
const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);

} // namespace

TEST_CASE("point falls straight into a triangle's interior", "[ccd_comparison]")
{
    const Vector3d p0(0.25, 0.25, 1), p1(0.25, 0.25, -1);
    check_inclusion_toi(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);
    check_root_finding_toi(root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);

    // Triangle moving up by 1 while the point moves down by 2: 1 - 2t = t.
    const Vector3d up(0, 0, 1);
    check_inclusion_toi(
        inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a + up, b + up, c + up), 1.0 / 3);
    check_root_finding_toi(
        root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a + up, b + up, c + up),
        1.0 / 3);

    // Default RootFindingCCD reports 0.8 of the contact time (IPC's slackness).
    double toi = -1;
    CHECK(ipc::RootFindingCCD().point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi));
    CHECK(toi == Approx(0.4).epsilon(0).margin(root_finding_accuracy));
    CHECK(inclusion.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi));
    CHECK(toi <= 0.5);
    CHECK(toi >= 0.5 - inclusion_slack);
}

TEST_CASE("point hits a triangle's edge and vertex", "[ccd_comparison]")
{
    // Onto the midpoint of edge (a, b).
    const Vector3d p0(0.5, 0, 1), p1(0.5, 0, -1);
    check_inclusion_toi(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);
    check_root_finding_toi(root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);
    // Onto vertex c.
    const Vector3d q0(0, 1, 1), q1(0, 1, -3);
    check_inclusion_toi(inclusion.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c), 0.25);
    check_root_finding_toi(
        root_finding.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c), 0.25);
}

TEST_CASE("point misses a triangle by a known margin", "[ccd_comparison]")
{
    // Crosses the plane at (-0.1, 0.25, 0): 0.1 from edge (c, a) in both norms.
    const Vector3d p0(-0.1, 0.25, 1), p1(-0.1, 0.25, -1);
    CHECK(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c).status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c).status
          == ipc::CCDStatus::no_hit);
    CHECK(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0.09).status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0.09).status
          == ipc::CCDStatus::no_hit);

    double toi = -1;
    CHECK_FALSE(inclusion.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi));
    CHECK(toi == 1);

    // With min_distance 0.2: Euclidean sqrt(0.01 + (1 - 2t)^2) = 0.2 for the
    // root finder, infinity norm max(0.1, |1 - 2t|) = 0.2 for inclusion.
    check_root_finding_toi(
        root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0.2),
        (1 - std::sqrt(0.03)) / 2);
    check_inclusion_toi(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0.2), 0.4);
}

TEST_CASE("edges crossing at a known time", "[ccd_comparison]")
{
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0);
    const Vector3d eb0_t0(0.3, -1, 1), eb1_t0(0.3, 1, 1);
    const Vector3d eb0_t1(0.3, -1, -1), eb1_t1(0.3, 1, -1);
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1), 0.5);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1),
        0.5);
    // With min_distance 0.1 the gap 1 - 2t reaches 0.1 at t = 0.45 (both norms).
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, 0.1),
        0.45);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(
            ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, 0.1),
        0.45);
    // Both edges moving: a goes up by 0.5, b down by 1.5: 1 - 1.5 t = 0.5 t.
    const Vector3d up(0, 0, 0.5);
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(
            ea0, ea1, eb0_t0, eb1_t0, ea0 + up, ea1 + up, eb0_t1 + up, eb1_t1 + up),
        0.5);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(
            ea0, ea1, eb0_t0, eb1_t0, ea0 + up, ea1 + up, eb0_t1 + up, eb1_t1 + up),
        0.5);
}

TEST_CASE("edges missing by a known margin", "[ccd_comparison]")
{
    // Edge b passes 0.1 beyond the end of edge a.
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0);
    const Vector3d eb0_t0(1.1, -1, 1), eb1_t0(1.1, 1, 1);
    const Vector3d eb0_t1(1.1, -1, -1), eb1_t1(1.1, 1, -1);
    for (const double eta : { 0.0, 0.09 }) {
        CHECK(inclusion.edge_edge_ccd_result(
                  ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, eta)
                  .status
              == ipc::CCDStatus::no_hit);
        CHECK(root_finding
                  .edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, eta)
                  .status
              == ipc::CCDStatus::no_hit);
    }
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, 0.2),
        0.4);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(
            ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1, 0.2),
        (1 - std::sqrt(0.03)) / 2);
}

TEST_CASE("grazing contacts", "[ccd_comparison]")
{
    // Edge b comes down onto edge a and touches it exactly at t = 1.
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0);
    const Vector3d eb0_t0(0, -1, 1), eb1_t0(0, 1, 1), eb0_t1(0, -1, 0), eb1_t1(0, 1, 0);
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1), 1);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1), 1);

    // Point sliding within the triangle's plane along the line of edge (c, a)
    // onto vertex a (coplanar and collinear motion: the cubic vanishes).
    const Vector3d p0(0, -0.5, 0), p1(0, 0.5, 0);
    check_inclusion_toi(inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);
    check_root_finding_toi(root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c), 0.5);

    // Point sliding in the plane past the triangle, staying 0.25 away.
    const Vector3d q0(-0.25, -1, 0), q1(-0.25, 2, 0);
    CHECK(inclusion.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c).status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c).status
          == ipc::CCDStatus::no_hit);
}

TEST_CASE("parallel edges", "[ccd_comparison]")
{
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0);
    // Parallel edge coming down onto edge a, overlapping it: contact at 0.5.
    const Vector3d eb0_t0(0, 0, 1), eb1_t0(2, 0, 1), eb0_t1(0, 0, -1), eb1_t1(2, 0, -1);
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1), 0.5);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(ea0, ea1, eb0_t0, eb1_t0, ea0, ea1, eb0_t1, eb1_t1),
        0.5);

    // Same, offset by 0.5 in y: a miss, unless min_distance exceeds 0.5.
    const Vector3d dy(0, 0.5, 0);
    CHECK(inclusion
              .edge_edge_ccd_result(
                  ea0, ea1, eb0_t0 + dy, eb1_t0 + dy, ea0, ea1, eb0_t1 + dy, eb1_t1 + dy)
              .status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding
              .edge_edge_ccd_result(
                  ea0, ea1, eb0_t0 + dy, eb1_t0 + dy, ea0, ea1, eb0_t1 + dy, eb1_t1 + dy)
              .status
          == ipc::CCDStatus::no_hit);
    check_inclusion_toi(
        inclusion.edge_edge_ccd_result(
            ea0, ea1, eb0_t0 + dy, eb1_t0 + dy, ea0, ea1, eb0_t1 + dy, eb1_t1 + dy, 0.6),
        0.2);
    check_root_finding_toi(
        root_finding.edge_edge_ccd_result(
            ea0, ea1, eb0_t0 + dy, eb1_t0 + dy, ea0, ea1, eb0_t1 + dy, eb1_t1 + dy, 0.6),
        (1 - std::sqrt(0.11)) / 2);
}

TEST_CASE("point-point and point-edge queries", "[ccd_comparison]")
{
    const Vector3d q(0, 0, 0);
    const Vector3d p0(-1, 0, 0), p1(1, 0, 0);
    check_inclusion_toi(inclusion.point_point_ccd_result(p0, q, p1, q), 0.5);
    check_root_finding_toi(root_finding.point_point_ccd_result(p0, q, p1, q), 0.5);
    // min_distance 0.5: |1 - 2t| = 0.5 at t = 0.25 (both norms on this axis).
    check_inclusion_toi(inclusion.point_point_ccd_result(p0, q, p1, q, 0.5), 0.25);
    check_root_finding_toi(root_finding.point_point_ccd_result(p0, q, p1, q, 0.5), 0.25);
    // Passing 0.3 to the side.
    const Vector3d side(0, 0.3, 0);
    CHECK(inclusion.point_point_ccd_result(p0 + side, q, p1 + side, q).status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding.point_point_ccd_result(p0 + side, q, p1 + side, q).status
          == ipc::CCDStatus::no_hit);

    const Vector3d e0(0, 0, 0), e1(1, 0, 0);
    const Vector3d r0(0.5, 1, 0), r1(0.5, -1, 0);
    check_inclusion_toi(inclusion.point_edge_ccd_result(r0, e0, e1, r1, e0, e1), 0.5);
    check_root_finding_toi(root_finding.point_edge_ccd_result(r0, e0, e1, r1, e0, e1), 0.5);
    check_inclusion_toi(inclusion.point_edge_ccd_result(r0, e0, e1, r1, e0, e1, 0.25), 0.375);
    check_root_finding_toi(
        root_finding.point_edge_ccd_result(r0, e0, e1, r1, e0, e1, 0.25), 0.375);
    // Passing 0.2 beyond the end of the edge, in the edge's plane.
    const Vector3d beyond(0.7, 0, 0);
    CHECK(inclusion.point_edge_ccd_result(r0 + beyond, e0, e1, r1 + beyond, e0, e1).status
          == ipc::CCDStatus::no_hit);
    CHECK(root_finding.point_edge_ccd_result(r0 + beyond, e0, e1, r1 + beyond, e0, e1).status
          == ipc::CCDStatus::no_hit);
    // Collinear motion onto the edge's end.
    const Vector3d s0(3, 0, 0), s1(-1, 0, 0);
    check_inclusion_toi(inclusion.point_edge_ccd_result(s0, e0, e1, s1, e0, e1), 0.5);
    check_root_finding_toi(root_finding.point_edge_ccd_result(s0, e0, e1, s1, e0, e1), 0.5);
}

TEST_CASE("zero motion and initial contact", "[ccd_comparison]")
{
    // Static and apart: no hit. Static and touching: initially within.
    const Vector3d above(0.25, 0.25, 0.05), on(0.25, 0.25, 0);
    for (const auto& result :
         { inclusion.point_triangle_ccd_result(above, a, b, c, above, a, b, c),
           root_finding.point_triangle_ccd_result(above, a, b, c, above, a, b, c) }) {
        CHECK(result.status == ipc::CCDStatus::no_hit);
        CHECK(result.toi == 1);
    }
    for (const auto& result :
         { inclusion.point_triangle_ccd_result(on, a, b, c, on, a, b, c),
           root_finding.point_triangle_ccd_result(on, a, b, c, on, a, b, c),
           // 0.05 away but min_distance 0.1.
           inclusion.point_triangle_ccd_result(above, a, b, c, above, a, b, c, 0.1),
           root_finding.point_triangle_ccd_result(above, a, b, c, above, a, b, c, 0.1),
           // Touching at t = 0 and moving away.
           inclusion.point_triangle_ccd_result(on, a, b, c, Vector3d(0.25, 0.25, 1), a, b, c),
           root_finding.point_triangle_ccd_result(
               on, a, b, c, Vector3d(0.25, 0.25, 1), a, b, c) }) {
        CHECK(result.status == ipc::CCDStatus::initially_within_offset);
        CHECK(result.toi == 0);
    }
    // Everything at one point.
    CHECK(inclusion.point_point_ccd_result(a, a, a, a).status
          == ipc::CCDStatus::initially_within_offset);
    CHECK(root_finding.point_point_ccd_result(a, a, a, a).status
          == ipc::CCDStatus::initially_within_offset);
    // Edges crossing at t = 0, moving apart.
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0), eb0(0, -1, 0), eb1(0, 1, 0), up(0, 0, 1);
    CHECK(inclusion.edge_edge_ccd_result(ea0, ea1, eb0, eb1, ea0, ea1, eb0 + up, eb1 + up).status
          == ipc::CCDStatus::initially_within_offset);
    CHECK(root_finding.edge_edge_ccd_result(ea0, ea1, eb0, eb1, ea0, ea1, eb0 + up, eb1 + up)
              .status
          == ipc::CCDStatus::initially_within_offset);
}

TEST_CASE("tmax below one", "[ccd_comparison]")
{
    const Vector3d p0(0.25, 0.25, 1), p1(0.25, 0.25, -1);
    double toi = -1;
    CHECK_FALSE(inclusion.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi, 0, 0.4));
    CHECK(toi == 0.4);
    CHECK_FALSE(root_finding.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi, 0, 0.4));
    CHECK(toi == 0.4);
    check_inclusion_toi(
        inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0, 0.6), 0.5);
    check_root_finding_toi(
        root_finding.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0, 0.6), 0.5);
    // Exactly at tmax.
    check_inclusion_toi(
        inclusion.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c, 0, 0.5), 0.5);
}

TEST_CASE("invalid input", "[ccd_comparison]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const Vector3d p0(0.25, 0.25, 1), p1(0.25, 0.25, -1);
    double toi = -1;

    auto check_both = [&](const Vector3d& q0, const Vector3d& q1, double eta, double tmax,
                          const std::string& word) {
        CHECK(inclusion.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c, eta, tmax).status
              == ipc::CCDStatus::invalid_input);
        CHECK(root_finding.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c, eta, tmax).status
              == ipc::CCDStatus::invalid_input);
        CHECK(inclusion.point_triangle_ccd_result(q0, a, b, c, q1, a, b, c, eta, tmax).collides());
        CHECK_THROWS_WITH(
            inclusion.point_triangle_ccd(q0, a, b, c, q1, a, b, c, toi, eta, tmax),
            Catch::Contains(word));
        CHECK_THROWS_AS(
            root_finding.point_triangle_ccd(q0, a, b, c, q1, a, b, c, toi, eta, tmax),
            ipc::invalid_argument);
        CHECK_THROWS_WITH(
            root_finding.point_triangle_ccd(q0, a, b, c, q1, a, b, c, toi, eta, tmax),
            Catch::Contains(word));
    };
    check_both(Vector3d(nan, 0, 0), p1, 0, 1, "NaN");
    check_both(p0, Vector3d(0, inf, 0), 0, 1, "infinite");
    check_both(p0, p1, 0, -0.25, "tmax");
    check_both(p0, p1, 0, 1.5, "tmax");
    check_both(p0, p1, 0, nan, "tmax");
    check_both(p0, p1, -1e-3, 1, "min_distance");
    check_both(p0, p1, inf, 1, "min_distance");

    CHECK_THROWS_AS(
        inclusion.edge_edge_ccd(a, b, c, Vector3d(nan, 0, 0), a, b, c, c, toi),
        ipc::invalid_argument);
    CHECK_THROWS_AS(inclusion.point_point_ccd(a, b, a, b, toi, 0, -1), ipc::invalid_argument);
    CHECK_THROWS_AS(
        root_finding.point_edge_ccd(a, b, c, a, b, c, toi, nan), ipc::invalid_argument);

    // Bad method parameters.
    const ipc::InclusionCCD bad_tolerance(0, 100);
    CHECK(bad_tolerance.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c).status
          == ipc::CCDStatus::invalid_input);
    CHECK_THROWS_WITH(
        bad_tolerance.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi),
        Catch::Contains("tolerance"));
    const ipc::RootFindingCCD bad_rescaling(1.5);
    CHECK_THROWS_WITH(
        bad_rescaling.point_triangle_ccd(p0, a, b, c, p1, a, b, c, toi),
        Catch::Contains("conservative_rescaling"));
}

TEST_CASE("inclusion CCD stops at its iteration cap with a safe toi", "[ccd_comparison]")
{
    const Vector3d p0(0.25, 0.25, 1), p1(0.25, 0.25, -1);
    for (const long cap : { 1L, 5L, 50L }) {
        const ipc::InclusionCCD capped(1e-6, cap);
        const ipc::CCDResult result = capped.point_triangle_ccd_result(p0, a, b, c, p1, a, b, c);
        CHECK(result.status == ipc::CCDStatus::iteration_cap);
        CHECK(result.iterations == cap);
        CHECK(result.toi <= 0.5);
        CHECK(result.collides());
    }
    // Parallel edges sliding along each other in contact during the whole
    // step, a case where every box touches the contact set: terminates and
    // reports a contact at t = 0.
    const Vector3d ea0(-1, 0, 0), ea1(1, 0, 0), eb0(0, 0, 0), eb1(2, 0, 0), dx(0.5, 0, 0);
    const ipc::InclusionCCD capped(1e-6, 20000);
    const ipc::CCDResult sliding
        = capped.edge_edge_ccd_result(ea0, ea1, eb0, eb1, ea0, ea1, eb0 + dx, eb1 + dx);
    CHECK(sliding.collides());
    CHECK(sliding.toi == 0);
    CHECK(sliding.iterations <= 2 * 20000);
}

TEST_CASE("inclusion CCD at extreme coordinate scales", "[ccd_comparison]")
{
    // The first query scaled by powers of two (exactly): same answer.
    for (const double scale : { 0x1p-900, 0x1p-300, 0x1p300, 0x1p1015 }) {
        const Vector3d p0 = scale * Vector3d(0.25, 0.25, 1), p1 = scale * Vector3d(0.25, 0.25, -1);
        const Vector3d sa = scale * a, sb = scale * b, sc = scale * c;
        check_inclusion_toi(inclusion.point_triangle_ccd_result(p0, sa, sb, sc, p1, sa, sb, sc), 0.5);
        CHECK(inclusion
                  .point_triangle_ccd_result(
                      p0 + scale * Vector3d(2, 0, 0), sa, sb, sc, p1 + scale * Vector3d(2, 0, 0),
                      sa, sb, sc)
                  .status
              == ipc::CCDStatus::no_hit);
        check_root_finding_toi(
            root_finding.point_triangle_ccd_result(p0, sa, sb, sc, p1, sa, sb, sc), 0.5);
    }
}
