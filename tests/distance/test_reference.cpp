// Agreement with brute-force long double references on many random
// configurations, continuity across region boundaries, and scaling.

#include "helpers.hpp"
#include "reference.hpp"

#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace ipc;
using ipc::test::point;

namespace {

constexpr int reference_count = 100000;

template <int DIM> Eigen::Matrix<long double, DIM, 1> to_long(const Eigen::Matrix<double, DIM, 1>& v)
{
    return v.template cast<long double>();
}

/// Relative agreement of a squared distance with the reference, measured
/// against the squared size of the configuration (the rounding scale).
bool agrees(double value, long double reference, double size_squared, double tol = 1e-12)
{
    return std::abs(static_cast<long double>(value) - reference)
        <= tol * static_cast<long double>(size_squared);
}

} // namespace

TEMPLATE_TEST_CASE_SIG("point-edge agrees with the brute-force reference",
    "[distance][reference]", ((int DIM), DIM), 2, 3)
{
    std::mt19937_64 rng(100 + DIM);
    int failures = 0;
    for (int k = 0; k < reference_count; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 3 * DIM);
        const auto p = point<DIM>(x, 0), e0 = point<DIM>(x, 1), e1 = point<DIM>(x, 2);
        const double d = point_edge_distance_squared(p, e0, e1);
        const long double ref = ipc::test::reference_point_segment<DIM>(to_long<DIM>(p), to_long<DIM>(e0), to_long<DIM>(e1));
        failures += agrees(d, ref, 4.0) ? 0 : 1;
    }
    CHECK(failures == 0);
}

TEST_CASE("point-triangle agrees with the brute-force reference", "[distance][reference]")
{
    std::mt19937_64 rng(200);
    int failures = 0;
    for (int k = 0; k < reference_count; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Eigen::Vector3d p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2), t2 = point<3>(x, 3);
        const double d = point_triangle_distance_squared(p, t0, t1, t2);
        const long double ref = ipc::test::reference_point_triangle(to_long<3>(p), to_long<3>(t0), to_long<3>(t1), to_long<3>(t2));
        if (!agrees(d, ref, 4.0)) {
            ++failures;
            UNSCOPED_INFO("mismatch " << d << " vs " << double(ref) << " at " << x.transpose());
        }
    }
    CHECK(failures == 0);
}

TEST_CASE("edge-edge agrees with the brute-force reference", "[distance][reference]")
{
    std::mt19937_64 rng(300);
    int failures = 0;
    for (int k = 0; k < reference_count; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Eigen::Vector3d a0 = point<3>(x, 0), a1 = point<3>(x, 1), b0 = point<3>(x, 2), b1 = point<3>(x, 3);
        const double d = edge_edge_distance_squared(a0, a1, b0, b1);
        const long double ref = ipc::test::reference_segment_segment(to_long<3>(a0), to_long<3>(a1), to_long<3>(b0), to_long<3>(b1));
        if (!agrees(d, ref, 4.0)) {
            ++failures;
            UNSCOPED_INFO("mismatch " << d << " vs " << double(ref) << " at " << x.transpose());
        }
    }
    CHECK(failures == 0);
}

namespace {

/// Walks along a random straight path through configuration space in small
/// steps; wherever the region changes between two consecutive samples, value
/// and gradient must change by no more than O(step) (C1 across boundaries).
template <typename Classify, typename Value, typename Gradient, typename Hessian>
void check_continuity(std::mt19937_64& rng, int n, int paths, const Classify& classify, const Value& value, const Gradient& gradient, const Hessian& hessian)
{
    const double step = 1e-7;
    int crossings = 0;
    for (int path = 0; path < paths; ++path) {
        const Eigen::VectorXd start = ipc::test::random_coordinates(rng, n);
        const Eigen::VectorXd direction = ipc::test::random_coordinates(rng, n).normalized();
        // Coarse march to find region changes, then a fine check there.
        const int coarse = 400;
        const double coarse_step = 4.0 / coarse; // walks of length 4
        auto previous = classify(start);
        for (int i = 1; i <= coarse; ++i) {
            const Eigen::VectorXd x = start + (i * coarse_step) * direction;
            const auto type = classify(x);
            if (type == previous) {
                continue;
            }
            // Bisect the crossing down to one fine step.
            double lo = (i - 1) * coarse_step, hi = i * coarse_step;
            const auto type_lo = previous;
            while (hi - lo > step) {
                const double mid = 0.5 * (lo + hi);
                (classify(start + mid * direction) == type_lo ? lo : hi) = mid;
            }
            const Eigen::VectorXd xa = start + lo * direction, xb = start + hi * direction;
            const double va = value(xa), vb = value(xb);
            const Eigen::VectorXd ga = gradient(xa), gb = gradient(xb);
            // A jump would be O(1); a C1 function changes by at most
            // (Lipschitz constant of the gradient) * step.
            const double curvature = std::max(hessian(xa).cwiseAbs().maxCoeff(), hessian(xb).cwiseAbs().maxCoeff());
            const double moved = (xb - xa).norm();
            CHECK(std::abs(va - vb) <= 2 * moved * std::max(ga.norm(), gb.norm()) + 1e-12);
            CHECK((ga - gb).cwiseAbs().maxCoeff() <= 2 * n * moved * curvature + 1e-12);
            ++crossings;
            previous = type;
        }
    }
    CHECK(crossings > paths); // the walks did cross boundaries
}

} // namespace

TEST_CASE("distances are continuous with continuous gradients across regions", "[distance][continuity]")
{
    std::mt19937_64 rng(400);
    SECTION("point-edge")
    {
        check_continuity(
            rng, 9, 40,
            [](const Eigen::VectorXd& y) { return point_edge_distance_type(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2)); },
            [](const Eigen::VectorXd& y) { return point_edge_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_edge_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_edge_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2)); });
    }
    SECTION("point-triangle")
    {
        check_continuity(
            rng, 12, 40,
            [](const Eigen::VectorXd& y) { return point_triangle_distance_type(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) { return point_triangle_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_triangle_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_triangle_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); });
    }
    SECTION("edge-edge")
    {
        check_continuity(
            rng, 12, 40,
            [](const Eigen::VectorXd& y) { return edge_edge_distance_type(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) { return edge_edge_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return edge_edge_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return edge_edge_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); });
    }
}

TEST_CASE("distances scale with the coordinates from 1e-6 to 1e4", "[distance][scaling]")
{
    std::mt19937_64 rng(500);
    for (int k = 0; k < 200; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Eigen::Vector3d p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2), t2 = point<3>(x, 3);
        const long double ref_pt = ipc::test::reference_point_triangle(to_long<3>(p), to_long<3>(t0), to_long<3>(t1), to_long<3>(t2));
        const long double ref_ee = ipc::test::reference_segment_segment(to_long<3>(p), to_long<3>(t0), to_long<3>(t1), to_long<3>(t2));
        const long double ref_pe = ipc::test::reference_point_segment<3>(to_long<3>(p), to_long<3>(t0), to_long<3>(t1));
        const auto type_pt = point_triangle_distance_type(p, t0, t1, t2);
        const auto type_ee = edge_edge_distance_type(p, t0, t1, t2);
        const Eigen::VectorXd g_pt = point_triangle_distance_squared_gradient(p, t0, t1, t2);
        const Eigen::MatrixXd h_ee = edge_edge_distance_squared_hessian(p, t0, t1, t2);
        for (double s : { 1e-6, 1e-3, 1.0, 1e2, 1e4 }) {
            const double s2 = s * s;
            const Eigen::Vector3d sp = s * p, s0 = s * t0, s1 = s * t1, s2v = s * t2;
            CHECK(agrees(point_triangle_distance_squared(sp, s0, s1, s2v) / s2, ref_pt, 4.0));
            CHECK(agrees(edge_edge_distance_squared(sp, s0, s1, s2v) / s2, ref_ee, 4.0));
            CHECK(agrees(point_edge_distance_squared(sp, s0, s1) / s2, ref_pe, 4.0));
            CHECK(point_triangle_distance_type(sp, s0, s1, s2v) == type_pt);
            CHECK(edge_edge_distance_type(sp, s0, s1, s2v) == type_ee);
            // Gradients scale with s, Hessians are scale free.
            const Eigen::VectorXd g = point_triangle_distance_squared_gradient(sp, s0, s1, s2v) / s;
            CHECK((g - g_pt).cwiseAbs().maxCoeff() <= 1e-10 * (1 + g_pt.cwiseAbs().maxCoeff()));
            const Eigen::MatrixXd h = edge_edge_distance_squared_hessian(sp, s0, s1, s2v);
            CHECK((h - h_ee).cwiseAbs().maxCoeff() <= 1e-9 * (1 + h_ee.cwiseAbs().maxCoeff()));
        }
    }
}
