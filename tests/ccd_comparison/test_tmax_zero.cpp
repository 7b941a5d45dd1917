// Every CCD method means the same by tmax = 0, by a start already within
// min_distance and by an invalid tmax (see ccd_result.hpp): AdditiveCCD,
// InclusionCCD and RootFindingCCD, on point-triangle, edge-edge, point-edge
// and point-point queries (and additive's 2D queries).

#include <catch2/catch.hpp>

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>

#include <Eigen/Core>

#include <array>
#include <limits>
#include <string>
#include <vector>

using Eigen::Vector2d;
using Eigen::Vector3d;

namespace {

enum class Kind { point_triangle, edge_edge, point_edge, point_point };

const char* name(Kind kind)
{
    switch (kind) {
    case Kind::point_triangle: return "point-triangle";
    case Kind::edge_edge: return "edge-edge";
    case Kind::point_edge: return "point-edge";
    case Kind::point_point: return "point-point";
    }
    return "";
}

/// A query whose primitives are separated along z only (so the infinity-norm
/// distance of InclusionCCD equals the Euclidean one): at t = 0 the moving
/// primitive is at height start, at t = 1 at height end, above the fixed one.
struct StartQuery {
    Kind kind;
    std::array<Vector3d, 4> x0, x1;
};

StartQuery make(Kind kind, double start, double end)
{
    StartQuery q { kind, {}, {} };
    switch (kind) {
    case Kind::point_triangle: // point over the triangle's interior
        q.x0 = { Vector3d(0.25, 0.25, start), Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0) };
        q.x1 = { Vector3d(0.25, 0.25, end), q.x0[1], q.x0[2], q.x0[3] };
        break;
    case Kind::edge_edge: // crossing edges, the second one above the first
        q.x0 = { Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(0, -1, start), Vector3d(0, 1, start) };
        q.x1 = { q.x0[0], q.x0[1], Vector3d(0, -1, end), Vector3d(0, 1, end) };
        break;
    case Kind::point_edge: // point over the edge's middle
        q.x0 = { Vector3d(0, 0, start), Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d::Zero() };
        q.x1 = { Vector3d(0, 0, end), q.x0[1], q.x0[2], Vector3d::Zero() };
        break;
    case Kind::point_point:
        q.x0 = { Vector3d(0, 0, start), Vector3d(0, 0, 0), Vector3d::Zero(), Vector3d::Zero() };
        q.x1 = { Vector3d(0, 0, end), q.x0[1], Vector3d::Zero(), Vector3d::Zero() };
        break;
    }
    return q;
}

template <typename Method> ipc::CCDResult run(const Method& m, const StartQuery& q, double min_distance, double tmax)
{
    const auto& a = q.x0;
    const auto& b = q.x1;
    switch (q.kind) {
    case Kind::point_triangle:
        return m.point_triangle_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], min_distance, tmax);
    case Kind::edge_edge:
        return m.edge_edge_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], min_distance, tmax);
    case Kind::point_edge:
        return m.point_edge_ccd_result(a[0], a[1], a[2], b[0], b[1], b[2], min_distance, tmax);
    case Kind::point_point:
        return m.point_point_ccd_result(a[0], a[1], b[0], b[1], min_distance, tmax);
    }
    return {};
}

template <typename Method> bool run_bool(const Method& m, const StartQuery& q, double& toi, double min_distance, double tmax)
{
    const auto& a = q.x0;
    const auto& b = q.x1;
    switch (q.kind) {
    case Kind::point_triangle:
        return m.point_triangle_ccd(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], toi, min_distance, tmax);
    case Kind::edge_edge:
        return m.edge_edge_ccd(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], toi, min_distance, tmax);
    case Kind::point_edge:
        return m.point_edge_ccd(a[0], a[1], a[2], b[0], b[1], b[2], toi, min_distance, tmax);
    case Kind::point_point:
        return m.point_point_ccd(a[0], a[1], b[0], b[1], toi, min_distance, tmax);
    }
    return false;
}

const std::array<Kind, 4> kinds = { { Kind::point_triangle, Kind::edge_edge, Kind::point_edge, Kind::point_point } };

/// Runs check(method, method name) for each of the three methods.
template <typename Check> void for_each_method(const Check& check)
{
    check(ipc::AdditiveCCD(), "AdditiveCCD");
    check(ipc::InclusionCCD(), "InclusionCCD");
    check(ipc::RootFindingCCD(), "RootFindingCCD");
}

} // namespace

TEST_CASE("All CCD methods: tmax = 0 tests t = 0 only", "[ccd_comparison][tmax]")
{
    for (const Kind kind : kinds) {
        for_each_method([&](const auto& method, const std::string& method_name) {
            INFO(method_name << " " << name(kind));
            // Clear at t = 0 (gap 0.5 against min_distance 0.1), contact later.
            const StartQuery clear = make(kind, 0.5, -0.5);
            ipc::CCDResult r = run(method, clear, 0.1, 0.0);
            CHECK(r.status == ipc::CCDStatus::no_hit);
            CHECK(r.toi == 0);
            CHECK(run(method, clear, 0.1, 1.0).collides()); // the contact is real
            double toi = -1;
            CHECK_FALSE(run_bool(method, clear, toi, 0.1, 0.0));
            CHECK(toi == 0);

            // Within min_distance at t = 0 (0.05 < 0.1), moving apart.
            const StartQuery inside = make(kind, 0.05, 0.5);
            for (const double tmax : { 0.0, 0.5, 1.0 }) {
                INFO("tmax " << tmax);
                r = run(method, inside, 0.1, tmax);
                CHECK(r.status == ipc::CCDStatus::initially_within_offset);
                CHECK(r.toi == 0);
                toi = -1;
                CHECK(run_bool(method, inside, toi, 0.1, tmax));
                CHECK(toi == 0);
            }

            // Touching at t = 0 with min_distance 0.
            const StartQuery touching = make(kind, 0.0, 0.5);
            for (const double tmax : { 0.0, 1.0 }) {
                r = run(method, touching, 0.0, tmax);
                CHECK(r.status == ipc::CCDStatus::initially_within_offset);
                CHECK(r.toi == 0);
            }

            // A start clear by a tiny gap: tmax = 0 never reports hit, and
            // a report of toi = 0 (conservative) is allowed.
            const StartQuery tiny = make(kind, 0.1 + 1e-12, -0.5);
            r = run(method, tiny, 0.1, 0.0);
            CHECK((r.status == ipc::CCDStatus::no_hit || r.status == ipc::CCDStatus::initially_within_offset));
            CHECK(r.toi == 0);
            r = run(method, tiny, 0.1, 1.0);
            CHECK(r.collides());
            CHECK(r.toi >= 0);
            CHECK(r.toi <= 1e-9);
        });
    }
}

TEST_CASE("All CCD methods reject a negative, NaN or too large tmax", "[ccd_comparison][tmax]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Kind kind : kinds) {
        for_each_method([&](const auto& method, const std::string& method_name) {
            INFO(method_name << " " << name(kind));
            const StartQuery q = make(kind, 0.5, -0.5);
            for (const double tmax : { -0.25, nan, 1.5, std::numeric_limits<double>::infinity() }) {
                INFO("tmax " << tmax);
                CHECK(run(method, q, 0.1, tmax).status == ipc::CCDStatus::invalid_input);
                double toi = -1;
                CHECK_THROWS_AS(run_bool(method, q, toi, 0.1, tmax), ipc::invalid_argument);
                CHECK_THROWS_WITH(run_bool(method, q, toi, 0.1, tmax), Catch::Contains("tmax"));
            }
        });
    }
}

TEST_CASE("Additive CCD in 2D: tmax = 0 and a start within min_distance", "[ccd_comparison][tmax]")
{
    const ipc::AdditiveCCD ccd;
    const Vector2d origin(0, 0), e0(-1, 0), e1(1, 0);
    // Clear start, contact later.
    CHECK(ccd.point_point_ccd_result(Vector2d(0, 0.5), origin, Vector2d(0, -0.5), origin, 0.1, 0.0).status
          == ipc::CCDStatus::no_hit);
    CHECK(ccd.point_edge_ccd_result(Vector2d(0, 0.5), e0, e1, Vector2d(0, -0.5), e0, e1, 0.1, 0.0).status
          == ipc::CCDStatus::no_hit);
    // Within min_distance at t = 0, any tmax.
    for (const double tmax : { 0.0, 1.0 }) {
        const ipc::CCDResult pp
            = ccd.point_point_ccd_result(Vector2d(0, 0.05), origin, Vector2d(0, 0.5), origin, 0.1, tmax);
        CHECK(pp.status == ipc::CCDStatus::initially_within_offset);
        CHECK(pp.toi == 0);
        const ipc::CCDResult pe
            = ccd.point_edge_ccd_result(Vector2d(0, 0.05), e0, e1, Vector2d(0, 0.5), e0, e1, 0.1, tmax);
        CHECK(pe.status == ipc::CCDStatus::initially_within_offset);
        CHECK(pe.toi == 0);
    }
}
