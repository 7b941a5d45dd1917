// Degenerate and nearly degenerate geometry, bad input, and scalar types.

#include "helpers.hpp"
#include "reference.hpp"

#include <ipc/core/error.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <unsupported/Eigen/AutoDiff>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace ipc;
using ipc::test::point;
using Vec3 = Eigen::Vector3d;

namespace {

ipc::test::Vec3L L(const Vec3& v) { return v.cast<long double>(); }

template <typename M> bool finite(const M& m) { return m.allFinite(); }

/// Every automatic kernel of the point-triangle stencil is finite and its
/// value matches the reference.
void check_point_triangle(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, double tol = 1e-12)
{
    const double d = point_triangle_distance_squared(p, t0, t1, t2);
    const long double ref = ipc::test::reference_point_triangle(L(p), L(t0), L(t1), L(t2));
    CHECK(std::abs(d - double(ref)) <= tol * (1 + double(ref)));
    CHECK(finite(point_triangle_distance_squared_gradient(p, t0, t1, t2)));
    CHECK(finite(point_triangle_distance_squared_hessian(p, t0, t1, t2)));
}

/// Same for edge-edge; tol is on the distance (not squared), relative to the
/// edge lengths, since near-parallel edges are resolved to about sin(angle).
void check_edge_edge(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1, double tol = 1e-12)
{
    const double d = edge_edge_distance_squared(a0, a1, b0, b1);
    const long double ref = ipc::test::reference_segment_segment(L(a0), L(a1), L(b0), L(b1));
    const double size = 1 + (a1 - a0).norm() + (b1 - b0).norm();
    CHECK(std::abs(std::sqrt(d) - std::sqrt(double(ref))) <= tol * size);
    CHECK(finite(edge_edge_distance_squared_gradient(a0, a1, b0, b1)));
    CHECK(finite(edge_edge_distance_squared_hessian(a0, a1, b0, b1)));
}

} // namespace

TEST_CASE("zero-length edges use the point-point distance", "[distance][degenerate]")
{
    const Vec3 p(0.3, -0.2, 0.5), e(1, 2, 3);
    CHECK(point_edge_distance_type(p, e, e) == PointEdgeDistanceType::P_E0);
    CHECK(point_edge_distance_squared(p, e, e) == Approx((p - e).squaredNorm()));
    CHECK(finite(point_edge_distance_squared_hessian(p, e, e)));
    CHECK(point_edge_distance_squared(e, e, e) == 0.0);
    CHECK(point_edge_distance_squared_gradient(e, e, e).isZero());
    const Eigen::Vector2d q(1, 1), f(0, 0);
    CHECK(point_edge_distance_squared(q, f, f) == Approx(2.0));
    // The typed point-line formula needs a line.
    CHECK_THROWS_AS(point_line_distance_squared(p, e, e), ipc::degenerate_geometry);
    CHECK_THROWS_AS(point_edge_distance_squared_gradient(p, e, e, PointEdgeDistanceType::P_E), ipc::degenerate_geometry);

    // Edge-edge with one or both edges of zero length.
    check_edge_edge(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(-1, 1, 0.5), Vec3(1, 1, 0.5));
    check_edge_edge(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(1, 1, 1));
    check_edge_edge(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0.2, 0.3, 0), Vec3(0.2, 0.3, 0));
    CHECK(edge_edge_distance_type(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(-1, 1, 0.5), Vec3(1, 1, 0.5)) == EdgeEdgeDistanceType::EA0_EB);
    CHECK_THROWS_AS(line_line_distance_squared(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(-1, 1, 0.5), Vec3(1, 1, 0.5)), ipc::degenerate_geometry);
}

TEST_CASE("degenerate triangles never use the plane formula", "[distance][degenerate]")
{
    std::mt19937_64 rng(600);
    for (int k = 0; k < 2000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Vec3 p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2);
        const double s = x[9];
        const Vec3 collinear = t0 + (2 * s) * (t1 - t0); // on the line, inside or outside the edge
        check_point_triangle(p, t0, t1, collinear);
        CHECK(point_triangle_distance_type(p, t0, t1, collinear) != PointTriangleDistanceType::P_T);
        check_point_triangle(p, t0, t0, t1);  // zero-length edge
        check_point_triangle(p, t1, t1, t1);  // a single point
        // Point in the (degenerate) plane, between the vertices.
        check_point_triangle(t0 + 0.3 * (t1 - t0), t0, t1, collinear);
        // Sliver triangle: third vertex 1e-9 off the line.
        const Vec3 off = collinear + 1e-9 * Vec3(x[10], x[11], x[0]);
        check_point_triangle(p, t0, t1, off, 1e-8);
    }
    CHECK_THROWS_AS(point_plane_distance_squared(Vec3(0, 0, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)), ipc::degenerate_geometry);
    CHECK_THROWS_AS(
        point_triangle_distance_squared_hessian(Vec3(0, 0, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), PointTriangleDistanceType::P_T),
        ipc::degenerate_geometry);
}

TEST_CASE("parallel and nearly parallel edges", "[distance][degenerate][parallel]")
{
    std::mt19937_64 rng(700);
    for (int k = 0; k < 2000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Vec3 a0 = point<3>(x, 0), a1 = point<3>(x, 1), offset = point<3>(x, 2);
        const Vec3 u = a1 - a0;
        // Exactly parallel (as far as rounding allows), overlapping or not.
        const Vec3 b0 = a0 + offset, b1 = b0 + x[9] * 2 * u;
        check_edge_edge(a0, a1, b0, b1, 1e-10);
        // Collinear and overlapping: zero distance.
        check_edge_edge(a0, a1, a0 + 0.25 * u, a0 + 0.75 * u, 1e-10);
        CHECK(edge_edge_distance_squared(a0, a1, a0 + 0.25 * u, a0 + 0.75 * u) <= 1e-24);
        // Nearly parallel at decreasing angles.
        const Vec3 tilt = u.cross(point<3>(x, 3)).normalized() * u.norm();
        for (double angle : { 1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-14 }) {
            const Vec3 c1 = b0 + x[9] * 2 * (u + angle * tilt);
            check_edge_edge(a0, a1, b0, c1, 1e-7);
            const Vec3 d1 = a0 + 0.1 * offset + x[9] * 2 * (u + angle * tilt);
            check_edge_edge(a0, a1, a0 + 0.1 * offset, d1, 1e-7);
        }
    }
    // The line-line formula itself refuses exactly parallel lines.
    CHECK_THROWS_AS(line_line_distance_squared(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(2, 1, 0)), ipc::degenerate_geometry);
    // Parallel edges are mollified to zero; perpendicular ones not at all.
    const double eps_x = edge_edge_mollifier_threshold(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 1, 1));
    CHECK(eps_x == Approx(1e-3));
    CHECK(edge_edge_mollifier(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(2, 1, 0), eps_x) == 0.0);
    CHECK(edge_edge_mollifier_gradient(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(2, 1, 0), eps_x).isZero());
    CHECK(edge_edge_mollifier(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 1, 1), eps_x) == 1.0);
}

TEST_CASE("bad input raises ipc errors", "[distance][errors]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const Vec3 ok(0.1, 0.2, 0.3), a(1, 0, 0), b(0, 1, 0), c(0, 0, 1);
    for (double bad : { nan, inf, -inf }) {
        const Vec3 v(bad, 0, 0);
        CHECK_THROWS_AS(point_edge_distance_squared(v, a, b), ipc::invalid_argument);
        CHECK_THROWS_AS(point_edge_distance_squared(ok, v, b), ipc::invalid_argument);
        CHECK_THROWS_AS(point_triangle_distance_squared(v, a, b, c), ipc::invalid_argument);
        CHECK_THROWS_AS(point_triangle_distance_squared(ok, a, b, v), ipc::invalid_argument);
        CHECK_THROWS_AS(edge_edge_distance_squared(v, a, b, c), ipc::invalid_argument);
        CHECK_THROWS_AS(edge_edge_distance_squared(ok, a, b, v), ipc::invalid_argument);
        CHECK_THROWS_AS(edge_edge_mollifier_threshold(v, a, b, c), ipc::invalid_argument);
        CHECK_THROWS_AS(edge_edge_mollifier(0.1, bad), ipc::invalid_argument);
    }
    // Every coordinate of an edge-edge stencil, crossing and parallel pairs
    // alike (the automatic value sums the coordinates only on the parallel
    // path and when the result is not finite).
    const std::array<Vec3, 4> crossing = { Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 0.3), Vec3(0.5, 1, 0.3) };
    const std::array<Vec3, 4> parallel = { Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0) };
    for (const auto& stencil : { crossing, parallel }) {
        for (int k = 0; k < 12; ++k) {
            for (double bad : { nan, inf, -inf }) {
                std::array<Vec3, 4> x = stencil;
                x[size_t(k / 3)][k % 3] = bad;
                CHECK_THROWS_AS(edge_edge_distance_squared(x[0], x[1], x[2], x[3]), ipc::invalid_argument);
            }
        }
    }
    // Finite coordinates whose squared distance overflows: unit edges
    // 1e200 apart, crossing (non-parallel path) and parallel.
    for (const auto& stencil : { crossing, parallel }) {
        const Vec3 far(0, 0, 1e200);
        CHECK_THROWS_AS(edge_edge_distance_squared(stencil[0], stencil[1], Vec3(stencil[2] + far), Vec3(stencil[3] + far)),
                        ipc::invalid_argument);
    }
    CHECK_THROWS_AS(edge_edge_mollifier_threshold(a, a, b, c), ipc::degenerate_geometry);
    CHECK_THROWS_AS(edge_edge_mollifier(0.1, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(edge_edge_mollifier_gradient(0.1, -1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(edge_edge_mollifier_hessian(ok, a, b, c, 0.0), ipc::invalid_argument);
    try {
        point_triangle_distance_squared(Vec3(nan, 0, 0), a, b, c);
    } catch (const ipc::error& e) {
        CHECK(std::string(e.what()).find("point_triangle_distance_squared") != std::string::npos);
    }
}

TEMPLATE_TEST_CASE("float, double and long double agree with the reference", "[distance][scalar]", float, double, long double)
{
    using T = TestType;
    using V3 = Eigen::Matrix<T, 3, 1>;
    using V2 = Eigen::Matrix<T, 2, 1>;
    const long double eps = std::numeric_limits<T>::epsilon();
    std::mt19937_64 rng(800);
    int failures = 0;
    for (int k = 0; k < 2000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const V3 p = point<3>(x, 0).cast<T>(), q0 = point<3>(x, 1).cast<T>(), q1 = point<3>(x, 2).cast<T>(), q2 = point<3>(x, 3).cast<T>();
        const auto Lv = [](const V3& v) { return ipc::test::Vec3L(v.template cast<long double>()); };
        // Relative to the configuration size; the conditioning of random
        // triangles and edge pairs costs a few digits at most.
        const long double tol = 1e4L * eps * 4;
        const long double pt = ipc::test::reference_point_triangle(Lv(p), Lv(q0), Lv(q1), Lv(q2));
        failures += std::abs((long double)point_triangle_distance_squared(p, q0, q1, q2) - pt) <= tol ? 0 : 1;
        const long double ee = ipc::test::reference_segment_segment(Lv(p), Lv(q0), Lv(q1), Lv(q2));
        failures += std::abs((long double)edge_edge_distance_squared(p, q0, q1, q2) - ee) <= tol ? 0 : 1;
        const V2 p2 = p.template head<2>(), e0 = q0.template head<2>(), e1 = q1.template head<2>();
        const long double pe = ipc::test::reference_point_segment<2>(
            p2.template cast<long double>(), e0.template cast<long double>(), e1.template cast<long double>());
        failures += std::abs((long double)point_edge_distance_squared(p2, e0, e1) - pe) <= tol ? 0 : 1;
        // Derivatives instantiate and are finite.
        failures += point_triangle_distance_squared_hessian(p, q0, q1, q2).allFinite() ? 0 : 1;
        failures += edge_edge_distance_squared_hessian(p, q0, q1, q2).allFinite() ? 0 : 1;
        failures += edge_edge_mollifier_hessian(p, q0, q1, q2, T(0.5)).allFinite() ? 0 : 1;
    }
    CHECK(failures == 0);
}

TEST_CASE("Eigen AutoDiffScalar instantiates and matches the closed-form gradients", "[distance][autodiff]")
{
    using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 12, 1>>;
    using V3 = Eigen::Matrix<AD, 3, 1>;
    std::mt19937_64 rng(900);
    for (int k = 0; k < 200; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        std::array<V3, 4> v;
        for (int i = 0; i < 4; ++i) {
            for (int d = 0; d < 3; ++d) {
                v[i][d] = AD(x[3 * i + d], 12, 3 * i + d);
            }
        }
        const Vec3 p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2), t2 = point<3>(x, 3);
        const AD pt = point_triangle_distance_squared(v[0], v[1], v[2], v[3]);
        CHECK(pt.value() == Approx(point_triangle_distance_squared(p, t0, t1, t2)).epsilon(1e-12));
        const Eigen::VectorXd g_pt = point_triangle_distance_squared_gradient(p, t0, t1, t2);
        CHECK((pt.derivatives() - g_pt).cwiseAbs().maxCoeff() <= 1e-10 * (1 + g_pt.cwiseAbs().maxCoeff()));
        const AD ee = edge_edge_distance_squared(v[0], v[1], v[2], v[3]);
        const Eigen::VectorXd g_ee = edge_edge_distance_squared_gradient(p, t0, t1, t2);
        CHECK((ee.derivatives() - g_ee).cwiseAbs().maxCoeff() <= 1e-10 * (1 + g_ee.cwiseAbs().maxCoeff()));
        const AD pe = point_edge_distance_squared(v[0], v[1], v[2]);
        const Eigen::VectorXd g_pe = point_edge_distance_squared_gradient(p, t0, t1);
        CHECK((pe.derivatives().head<9>() - g_pe).cwiseAbs().maxCoeff() <= 1e-10 * (1 + g_pe.cwiseAbs().maxCoeff()));
        const AD c = edge_edge_cross_squarednorm(v[0], v[1], v[2], v[3]);
        const Eigen::VectorXd g_c = edge_edge_cross_squarednorm_gradient(p, t0, t1, t2);
        CHECK((c.derivatives() - g_c).cwiseAbs().maxCoeff() <= 1e-10 * (1 + g_c.cwiseAbs().maxCoeff()));
        // Autodiff gradients of the typed formulas too (AD through the closed forms).
        const Eigen::Matrix<AD, 12, 1> g_ad = point_triangle_distance_squared_gradient(v[0], v[1], v[2], v[3]);
        CHECK(std::abs(g_ad[0].value() - g_pt[0]) <= 1e-12 * (1 + std::abs(g_pt[0])));
    }
}
