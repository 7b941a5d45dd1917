// libFuzzer target: the distance kernels (include/ipc/distance/).
//
// Input: 16 numbers (ByteReader::real) for four 3D points p/t0/t1/t2, which
// double as the edge-edge stencil ea0/ea1/eb0/eb1 and, by their first two
// coordinates, as 2D points; then a mollifier threshold, a mollifier argument
// and two bytes that pick typed distance formulas.
//
// Every kernel either returns or throws ipc::error. Checked invariants, all
// stated in the kernels' documentation:
//  - the automatic value overloads throw for NaN/inf input and otherwise
//    return a finite, non-negative value;
//  - for finite input of moderate magnitude they do not throw; the value is
//    at most the distance to any feature of the primitive (vertices, edges),
//    the classified type selects a formula that does not throw and gives the
//    same value, and (on tamer input) gradients and Hessians are finite;
//  - the mollifier rejects a threshold that is not positive and finite, and
//    lies in [0, 1] for a non-negative argument.

#include "fuzz_input.hpp"

#include <ipc/core/error.hpp>
#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

using ipc_fuzz::all_finite;
using ipc_fuzz::all_moderate;

namespace {

// Finite input in [1e-50, 1e50] (or zero): no overflow or underflow in the
// automatic value kernels. Tame input in [1e-7, 1e8]: derivatives finite too.
constexpr double moderate_lo = 1e-50, moderate_hi = 1e50;
constexpr double tame_lo = 1e-7, tame_hi = 1e8;

template <typename F> void expect_ipc_error_or_return(F&& f)
{
    try {
        f();
    } catch (const ipc::error&) {
    }
}

template <typename F> bool throws_ipc_error(F&& f)
{
    try {
        f();
    } catch (const ipc::error&) {
        return true;
    }
    return false;
}

bool finite_points() { return true; }
template <typename P, typename... Rest> bool finite_points(const P& p, const Rest&... rest)
{
    return all_finite(p) && finite_points(rest...);
}

// The squared distance d and a bound b it must not exceed (up to tol).
void check_at_most(double d, double b, double tol)
{
    FUZZ_CHECK(d <= b + tol);
}

template <int DIM>
void fuzz_point_edge(const Eigen::Matrix<double, DIM, 1>& p, const Eigen::Matrix<double, DIM, 1>& e0,
                     const Eigen::Matrix<double, DIM, 1>& e1, std::uint8_t pick)
{
    const bool finite = finite_points(p, e0, e1);
    const bool moderate = finite && all_moderate(moderate_lo, moderate_hi, p, e0, e1);
    const bool tame = finite && all_moderate(tame_lo, tame_hi, p, e0, e1);
    const double scale = ipc_fuzz::max_abs(p, e0, e1);
    const double tol = 1e-6 * scale * scale;

    double d = 0;
    const bool threw = throws_ipc_error([&] { d = ipc::point_edge_distance_squared(p, e0, e1); });
    if (!finite) {
        FUZZ_CHECK(threw);
    }
    if (moderate) {
        FUZZ_CHECK(!threw);
    }
    if (!threw) {
        FUZZ_CHECK(std::isfinite(d) && d >= 0);
    }

    const ipc::PointEdgeDistanceType type = ipc::point_edge_distance_type(p, e0, e1);
    FUZZ_CHECK(int(type) >= 0 && int(type) <= 2);
    if (moderate) {
        check_at_most(d, ipc::point_point_distance_squared(p, e0), tol);
        check_at_most(d, ipc::point_point_distance_squared(p, e1), tol);
        double typed = 0;
        FUZZ_CHECK(!throws_ipc_error([&] { typed = ipc::point_edge_distance_squared(p, e0, e1, type); }));
        FUZZ_CHECK(std::abs(typed - d) <= tol);
        if (!(e0 == e1)) {
            double line = 0;
            FUZZ_CHECK(!throws_ipc_error([&] { line = ipc::point_line_distance_squared(p, e0, e1); }));
            FUZZ_CHECK(line >= 0);
            check_at_most(line, d, tol);
        }
    }

    const auto g = ipc::point_edge_distance_squared_gradient(p, e0, e1);
    const auto H = ipc::point_edge_distance_squared_hessian(p, e0, e1);
    if (tame) {
        FUZZ_CHECK(all_finite(g));
        FUZZ_CHECK(all_finite(H));
    }

    // A typed formula picked by the input, and the point-line kernels.
    const auto forced = ipc::PointEdgeDistanceType(pick % 3);
    expect_ipc_error_or_return([&] {
        const double v = ipc::point_edge_distance_squared(p, e0, e1, forced);
        if (finite && moderate && !std::isnan(v)) {
            FUZZ_CHECK(v >= 0);
        }
        (void)ipc::point_edge_distance_squared_gradient(p, e0, e1, forced);
        (void)ipc::point_edge_distance_squared_hessian(p, e0, e1, forced);
    });
    const bool zero_length = (e1 - e0).squaredNorm() == 0;
    const bool line_threw = throws_ipc_error([&] {
        (void)ipc::point_line_distance_squared(p, e0, e1);
        (void)ipc::point_line_distance_squared_gradient(p, e0, e1);
        (void)ipc::point_line_distance_squared_hessian(p, e0, e1);
    });
    if (zero_length) {
        FUZZ_CHECK(line_threw); // documented: degenerate_geometry
    }
}

void fuzz_point_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                         const Eigen::Vector3d& t2, std::uint8_t pick)
{
    const bool finite = finite_points(p, t0, t1, t2);
    const bool moderate = finite && all_moderate(moderate_lo, moderate_hi, p, t0, t1, t2);
    const bool tame = finite && all_moderate(tame_lo, tame_hi, p, t0, t1, t2);
    const double scale = ipc_fuzz::max_abs(p, t0, t1, t2);
    const double tol = 1e-6 * scale * scale;

    double d = 0;
    const bool threw = throws_ipc_error([&] { d = ipc::point_triangle_distance_squared(p, t0, t1, t2); });
    if (!finite) {
        FUZZ_CHECK(threw);
    }
    if (moderate) {
        FUZZ_CHECK(!threw);
    }
    if (!threw) {
        FUZZ_CHECK(std::isfinite(d) && d >= 0);
    }

    const ipc::PointTriangleDistanceType type = ipc::point_triangle_distance_type(p, t0, t1, t2);
    FUZZ_CHECK(int(type) >= 0 && int(type) <= 6);
    if (moderate) {
        check_at_most(d, ipc::point_edge_distance_squared(p, t0, t1), tol);
        check_at_most(d, ipc::point_edge_distance_squared(p, t1, t2), tol);
        check_at_most(d, ipc::point_edge_distance_squared(p, t2, t0), tol);
        double typed = 0;
        FUZZ_CHECK(!throws_ipc_error([&] { typed = ipc::point_triangle_distance_squared(p, t0, t1, t2, type); }));
        FUZZ_CHECK(std::abs(typed - d) <= tol);
    }

    const auto g = ipc::point_triangle_distance_squared_gradient(p, t0, t1, t2);
    const auto H = ipc::point_triangle_distance_squared_hessian(p, t0, t1, t2);
    if (tame) {
        FUZZ_CHECK(all_finite(g));
        FUZZ_CHECK(all_finite(H));
    }

    const auto forced = ipc::PointTriangleDistanceType(pick % 7);
    expect_ipc_error_or_return([&] {
        (void)ipc::point_triangle_distance_squared(p, t0, t1, t2, forced);
        (void)ipc::point_triangle_distance_squared_gradient(p, t0, t1, t2, forced);
        (void)ipc::point_triangle_distance_squared_hessian(p, t0, t1, t2, forced);
    });
    const bool flat = (t1 - t0).cross(t2 - t0).squaredNorm() == 0;
    const bool plane_threw = throws_ipc_error([&] {
        const double v = ipc::point_plane_distance_squared(p, t0, t1, t2);
        if (finite && !std::isnan(v)) {
            FUZZ_CHECK(v >= 0);
        }
        (void)ipc::point_plane_distance_squared_gradient(p, t0, t1, t2);
        (void)ipc::point_plane_distance_squared_hessian(p, t0, t1, t2);
    });
    if (flat) {
        FUZZ_CHECK(plane_threw); // documented: degenerate_geometry
    }
}

void fuzz_edge_edge(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                    const Eigen::Vector3d& eb1, std::uint8_t pick)
{
    const bool finite = finite_points(ea0, ea1, eb0, eb1);
    const bool moderate = finite && all_moderate(moderate_lo, moderate_hi, ea0, ea1, eb0, eb1);
    const bool tame = finite && all_moderate(tame_lo, tame_hi, ea0, ea1, eb0, eb1);
    const double scale = ipc_fuzz::max_abs(ea0, ea1, eb0, eb1);
    const double tol = 1e-6 * scale * scale;

    double d = 0;
    const bool threw = throws_ipc_error([&] { d = ipc::edge_edge_distance_squared(ea0, ea1, eb0, eb1); });
    if (!finite) {
        FUZZ_CHECK(threw);
    }
    if (moderate) {
        FUZZ_CHECK(!threw);
    }
    if (!threw) {
        FUZZ_CHECK(std::isfinite(d) && d >= 0);
    }

    const ipc::EdgeEdgeDistanceType type = ipc::edge_edge_distance_type(ea0, ea1, eb0, eb1);
    FUZZ_CHECK(int(type) >= 0 && int(type) <= 8);
    if (moderate) {
        check_at_most(d, ipc::point_edge_distance_squared(ea0, eb0, eb1), tol);
        check_at_most(d, ipc::point_edge_distance_squared(ea1, eb0, eb1), tol);
        check_at_most(d, ipc::point_edge_distance_squared(eb0, ea0, ea1), tol);
        check_at_most(d, ipc::point_edge_distance_squared(eb1, ea0, ea1), tol);
        double typed = 0;
        FUZZ_CHECK(!throws_ipc_error([&] { typed = ipc::edge_edge_distance_squared(ea0, ea1, eb0, eb1, type); }));
        FUZZ_CHECK(std::abs(typed - d) <= tol);
    }

    const auto g = ipc::edge_edge_distance_squared_gradient(ea0, ea1, eb0, eb1);
    const auto H = ipc::edge_edge_distance_squared_hessian(ea0, ea1, eb0, eb1);
    if (tame) {
        FUZZ_CHECK(all_finite(g));
        FUZZ_CHECK(all_finite(H));
    }

    const auto forced = ipc::EdgeEdgeDistanceType(pick % 9);
    expect_ipc_error_or_return([&] {
        (void)ipc::edge_edge_distance_squared(ea0, ea1, eb0, eb1, forced);
        (void)ipc::edge_edge_distance_squared_gradient(ea0, ea1, eb0, eb1, forced);
        (void)ipc::edge_edge_distance_squared_hessian(ea0, ea1, eb0, eb1, forced);
    });
    const bool parallel = (ea1 - ea0).cross(eb1 - eb0).squaredNorm() == 0;
    const bool line_threw = throws_ipc_error([&] {
        const double v = ipc::line_line_distance_squared(ea0, ea1, eb0, eb1);
        if (finite && !std::isnan(v)) {
            FUZZ_CHECK(v >= 0);
        }
        (void)ipc::line_line_distance_squared_gradient(ea0, ea1, eb0, eb1);
        (void)ipc::line_line_distance_squared_hessian(ea0, ea1, eb0, eb1);
    });
    if (parallel) {
        FUZZ_CHECK(line_threw); // documented: degenerate_geometry
    }
}

void fuzz_mollifier(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                    const Eigen::Vector3d& eb1, double eps_x, double x)
{
    // Threshold from the stencil taken as its rest shape.
    double rest_eps = 0;
    if (!throws_ipc_error([&] { rest_eps = ipc::edge_edge_mollifier_threshold(ea0, ea1, eb0, eb1); })) {
        FUZZ_CHECK(std::isfinite(rest_eps) && rest_eps > 0);
    }

    const bool valid_eps = std::isfinite(eps_x) && eps_x > 0;
    double m = 0;
    const bool threw = throws_ipc_error([&] { m = ipc::edge_edge_mollifier(x, eps_x); });
    FUZZ_CHECK(threw == !valid_eps);
    if (!threw && !(x < 0)) {
        FUZZ_CHECK(m >= 0 && m <= 1);
    }
    expect_ipc_error_or_return([&] {
        (void)ipc::edge_edge_mollifier_gradient(x, eps_x);
        (void)ipc::edge_edge_mollifier_hessian(x, eps_x);
    });

    for (const double eps : { eps_x, rest_eps }) {
        const bool ok = std::isfinite(eps) && eps > 0;
        const bool stencil_threw = throws_ipc_error([&] {
            const double ms = ipc::edge_edge_mollifier(ea0, ea1, eb0, eb1, eps);
            FUZZ_CHECK(ms >= 0 && ms <= 1);
            (void)ipc::edge_edge_mollifier_gradient(ea0, ea1, eb0, eb1, eps);
            (void)ipc::edge_edge_mollifier_hessian(ea0, ea1, eb0, eb1, eps);
        });
        FUZZ_CHECK(stencil_threw == !ok);
    }
    (void)ipc::edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1);
    (void)ipc::edge_edge_cross_squarednorm_gradient(ea0, ea1, eb0, eb1);
    (void)ipc::edge_edge_cross_squarednorm_hessian(ea0, ea1, eb0, eb1);
}

void fuzz_point_point(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1)
{
    const double d = ipc::point_point_distance_squared(p0, p1);
    if (finite_points(p0, p1) && all_moderate(moderate_lo, moderate_hi, p0, p1)) {
        FUZZ_CHECK(std::isfinite(d) && d >= 0);
    }
    (void)ipc::point_point_distance_squared_gradient(p0, p1);
    (void)ipc::point_point_distance_squared_hessian(p0, p1);
    const Eigen::Vector2d q0 = p0.head<2>(), q1 = p1.head<2>();
    const double d2 = ipc::point_point_distance_squared(q0, q1);
    if (finite_points(q0, q1) && all_moderate(moderate_lo, moderate_hi, q0, q1)) {
        FUZZ_CHECK(std::isfinite(d2) && d2 >= 0);
    }
    (void)ipc::point_point_distance_squared_gradient(q0, q1);
    (void)ipc::point_point_distance_squared_hessian(q0, q1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ipc_fuzz::ByteReader in(data, size);
    const Eigen::Vector3d a = in.point<3>();
    const Eigen::Vector3d b = in.point<3>();
    const Eigen::Vector3d c = in.point<3>();
    const Eigen::Vector3d d = in.point<3>();
    const double eps_x = in.real();
    const double x = in.real();
    const std::uint8_t pick0 = in.u8();
    const std::uint8_t pick1 = in.u8();

    fuzz_point_point(a, b);
    fuzz_point_edge<3>(a, b, c, pick0);
    fuzz_point_edge<2>(a.head<2>(), b.head<2>(), c.head<2>(), pick1);
    fuzz_point_triangle(a, b, c, d, pick0);
    fuzz_edge_edge(a, b, c, d, pick1);
    fuzz_mollifier(a, b, c, d, eps_x, x);
    return 0;
}
