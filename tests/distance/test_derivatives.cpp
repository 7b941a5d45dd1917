// Finite-difference checks of every gradient and Hessian, in every region.

#include "helpers.hpp"

#include <finite_differences.hpp>

#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <map>

using namespace ipc;
using ipc::test::point;

namespace {

constexpr double fd_tolerance = 1e-5;
constexpr double fd_step = 1e-7; // small enough for the 1e-2 features of the degenerate cases

/// Checks gradient and Hessian of f against finite differences at x.
template <typename F, typename G, typename H>
void check_derivatives(const F& f, const G& g, const H& h, const Eigen::VectorXd& x)
{
    INFO("x = " << x.transpose());
    const Eigen::VectorXd grad = g(x);
    const Eigen::VectorXd fd_grad = ipc::test::fd_gradient(f, x, fd_step);
    CHECK(ipc::test::fd_close(grad, fd_grad, fd_tolerance));
    const Eigen::MatrixXd hess = h(x);
    const Eigen::MatrixXd fd_hess =
        ipc::test::fd_jacobian([&](const Eigen::VectorXd& y) -> Eigen::VectorXd { return g(y); }, x, fd_step);
    CHECK(ipc::test::fd_close(hess, fd_hess, fd_tolerance));
    CHECK((hess - hess.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * (1 + hess.cwiseAbs().maxCoeff()));
}

/// Squeezes a random configuration towards a degenerate one by a factor.
Eigen::VectorXd random_configuration(std::mt19937_64& rng, int n, int variant)
{
    Eigen::VectorXd x = ipc::test::random_coordinates(rng, n);
    if (variant == 1) { // short second primitive edge / sliver
        x.segment<3>(n - 3) = x.segment<3>(n - 6) + 1e-2 * ipc::test::random_coordinates(rng, 3);
    } else if (variant == 2) { // nearly parallel / nearly collinear
        const Eigen::Vector3d a = x.segment<3>(n - 9), b = x.segment<3>(n - 6);
        x.segment<3>(n - 3) = a + 1.7 * (b - a) + 2e-2 * ipc::test::random_coordinates(rng, 3);
    }
    return x;
}

} // namespace

TEST_CASE("point-point derivatives", "[distance][derivatives]")
{
    std::mt19937_64 rng(1);
    for (int k = 0; k < 20; ++k) {
        const Eigen::VectorXd x3 = ipc::test::random_coordinates(rng, 6);
        check_derivatives(
            [](const Eigen::VectorXd& y) { return point_point_distance_squared(point<3>(y, 0), point<3>(y, 1)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_point_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_point_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1)); },
            x3);
        const Eigen::VectorXd x2 = ipc::test::random_coordinates(rng, 4);
        check_derivatives(
            [](const Eigen::VectorXd& y) { return point_point_distance_squared(point<2>(y, 0), point<2>(y, 1)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_point_distance_squared_gradient(point<2>(y, 0), point<2>(y, 1)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_point_distance_squared_hessian(point<2>(y, 0), point<2>(y, 1)); },
            x2);
    }
}

TEMPLATE_TEST_CASE_SIG("point-line and point-edge derivatives in every region",
    "[distance][derivatives]", ((int DIM), DIM), 2, 3)
{
    std::mt19937_64 rng(2 + DIM);
    std::map<PointEdgeDistanceType, int> seen;
    for (int k = 0; k < 120; ++k) {
        Eigen::VectorXd x = ipc::test::random_coordinates(rng, 3 * DIM);
        if (k % 3 == 1) { // short edge
            x.template segment<DIM>(2 * DIM) = x.template segment<DIM>(DIM)
                + 1e-2 * ipc::test::random_coordinates(rng, DIM);
        }
        check_derivatives(
            [](const Eigen::VectorXd& y) { return point_line_distance_squared(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_line_distance_squared_gradient(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_line_distance_squared_hessian(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2)); },
            x);
        const PointEdgeDistanceType type = point_edge_distance_type(point<DIM>(x, 0), point<DIM>(x, 1), point<DIM>(x, 2));
        ++seen[type];
        check_derivatives(
            [type](const Eigen::VectorXd& y) { return point_edge_distance_squared(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_edge_distance_squared_gradient(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_edge_distance_squared_hessian(point<DIM>(y, 0), point<DIM>(y, 1), point<DIM>(y, 2), type); },
            x);
        // The automatic overloads use the classified region's formula.
        const auto a = point<DIM>(x, 0), b = point<DIM>(x, 1), c = point<DIM>(x, 2);
        CHECK(point_edge_distance_squared(a, b, c) == Approx(point_edge_distance_squared(a, b, c, type)).epsilon(1e-12).margin(1e-15));
        CHECK(point_edge_distance_squared_gradient(a, b, c) == point_edge_distance_squared_gradient(a, b, c, type));
        CHECK(point_edge_distance_squared_hessian(a, b, c) == point_edge_distance_squared_hessian(a, b, c, type));
    }
    CHECK(seen.size() == 3);
}

TEST_CASE("point-plane and point-triangle derivatives in every region", "[distance][derivatives]")
{
    std::mt19937_64 rng(5);
    std::map<PointTriangleDistanceType, int> seen;
    for (int k = 0; k < 300; ++k) {
        Eigen::VectorXd x = random_configuration(rng, 12, k % 3);
        if (k % 4 == 3) { // point close to the plane: more edge and interior cases
            const Eigen::Vector3d n = (point<3>(x, 2) - point<3>(x, 1)).cross(point<3>(x, 3) - point<3>(x, 1)).normalized();
            x.segment<3>(0) -= (n.dot(point<3>(x, 0) - point<3>(x, 1)) - 1e-3) * n;
        }
        check_derivatives(
            [](const Eigen::VectorXd& y) { return point_plane_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_plane_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_plane_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            x);
        const auto type = point_triangle_distance_type(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3));
        ++seen[type];
        check_derivatives(
            [type](const Eigen::VectorXd& y) { return point_triangle_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::VectorXd { return point_triangle_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return point_triangle_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            x);
        const Eigen::Vector3d p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2), t2 = point<3>(x, 3);
        CHECK(point_triangle_distance_squared(p, t0, t1, t2) == Approx(point_triangle_distance_squared(p, t0, t1, t2, type)).epsilon(1e-10).margin(1e-14));
        CHECK(point_triangle_distance_squared_gradient(p, t0, t1, t2) == point_triangle_distance_squared_gradient(p, t0, t1, t2, type));
        CHECK(point_triangle_distance_squared_hessian(p, t0, t1, t2) == point_triangle_distance_squared_hessian(p, t0, t1, t2, type));
    }
    CHECK(seen.size() == 7);
}

TEST_CASE("line-line and edge-edge derivatives in every region", "[distance][derivatives]")
{
    std::mt19937_64 rng(7);
    std::map<EdgeEdgeDistanceType, int> seen;
    for (int k = 0; k < 400; ++k) {
        Eigen::VectorXd x = random_configuration(rng, 12, k % 3);
        if (k % 5 == 4) { // overlapping edges: more interior cases
            const Eigen::Vector3d mid = 0.5 * (point<3>(x, 0) + point<3>(x, 1));
            const Eigen::Vector3d shift = mid - 0.5 * (point<3>(x, 2) + point<3>(x, 3)) + 0.05 * ipc::test::random_coordinates(rng, 3);
            x.segment<3>(6) += shift;
            x.segment<3>(9) += shift;
        }
        check_derivatives(
            [](const Eigen::VectorXd& y) { return line_line_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return line_line_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return line_line_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            x);
        const auto type = edge_edge_distance_type(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3));
        ++seen[type];
        check_derivatives(
            [type](const Eigen::VectorXd& y) { return edge_edge_distance_squared(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::VectorXd { return edge_edge_distance_squared_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            [type](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return edge_edge_distance_squared_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), type); },
            x);
        const Eigen::Vector3d a0 = point<3>(x, 0), a1 = point<3>(x, 1), b0 = point<3>(x, 2), b1 = point<3>(x, 3);
        CHECK(edge_edge_distance_squared(a0, a1, b0, b1) == Approx(edge_edge_distance_squared(a0, a1, b0, b1, type)).epsilon(1e-10).margin(1e-14));
        // The automatic gradient is formed from the closest points
        // (envelope theorem): the region formula's gradient up to rounding.
        const Eigen::VectorXd g_typed = edge_edge_distance_squared_gradient(a0, a1, b0, b1, type);
        const Eigen::VectorXd g_auto = edge_edge_distance_squared_gradient(a0, a1, b0, b1);
        CHECK((g_auto - g_typed).lpNorm<Eigen::Infinity>() <= 1e-13 * (1 + g_typed.lpNorm<Eigen::Infinity>()));
        // So is the automatic Hessian (implicit differentiation of the free
        // parameters at the same closest points).
        const Eigen::MatrixXd h_typed = edge_edge_distance_squared_hessian(a0, a1, b0, b1, type);
        const Eigen::MatrixXd h_auto = edge_edge_distance_squared_hessian(a0, a1, b0, b1);
        CHECK((h_auto - h_typed).lpNorm<Eigen::Infinity>() <= 1e-12 * (1 + h_typed.lpNorm<Eigen::Infinity>()));
    }
    CHECK(seen.size() == 9);
}

TEST_CASE("edge-edge mollifier derivatives", "[distance][derivatives][mollifier]")
{
    std::mt19937_64 rng(11);
    // Scalar mollifier: derivatives by finite differences, C1 join at eps_x.
    const double eps_x = 0.3;
    for (double c : { 0.0, 0.01, 0.1, 0.2, 0.29, 0.5 }) {
        const double h = 1e-6;
        const double fd1 = (edge_edge_mollifier(c + h, eps_x) - edge_edge_mollifier(c - h, eps_x)) / (2 * h);
        CHECK(edge_edge_mollifier_gradient(c, eps_x) == Approx(fd1).margin(1e-6));
        const double fd2 = (edge_edge_mollifier_gradient(c + h, eps_x) - edge_edge_mollifier_gradient(c - h, eps_x)) / (2 * h);
        CHECK(edge_edge_mollifier_hessian(c, eps_x) == Approx(fd2).margin(1e-5));
    }
    CHECK(edge_edge_mollifier(0.0, eps_x) == 0.0);
    CHECK(edge_edge_mollifier(eps_x * (1 - 1e-12), eps_x) == Approx(1.0));
    CHECK(edge_edge_mollifier_gradient(eps_x * (1 - 1e-9), eps_x) == Approx(0.0).margin(1e-7));
    CHECK(edge_edge_mollifier(2 * eps_x, eps_x) == 1.0);
    for (int k = 0; k < 60; ++k) {
        Eigen::VectorXd x = random_configuration(rng, 12, 2);
        check_derivatives(
            [](const Eigen::VectorXd& y) { return edge_edge_cross_squarednorm(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::VectorXd { return edge_edge_cross_squarednorm_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            [](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return edge_edge_cross_squarednorm_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3)); },
            x);
        // A threshold above c so that the mollifier is active.
        const double c = edge_edge_cross_squarednorm(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3));
        const double eps = c * (1.5 + k % 3);
        CHECK(edge_edge_mollifier(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3), eps) < 1.0);
        check_derivatives(
            [eps](const Eigen::VectorXd& y) { return edge_edge_mollifier(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), eps); },
            [eps](const Eigen::VectorXd& y) -> Eigen::VectorXd { return edge_edge_mollifier_gradient(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), eps); },
            [eps](const Eigen::VectorXd& y) -> Eigen::MatrixXd { return edge_edge_mollifier_hessian(point<3>(y, 0), point<3>(y, 1), point<3>(y, 2), point<3>(y, 3), eps); },
            x);
        // Inactive: exactly one and flat.
        const double small = c * 0.5;
        CHECK(edge_edge_mollifier(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3), small) == 1.0);
        CHECK(edge_edge_mollifier_gradient(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3), small).isZero());
        CHECK(edge_edge_mollifier_hessian(point<3>(x, 0), point<3>(x, 1), point<3>(x, 2), point<3>(x, 3), small).isZero());
    }
}
