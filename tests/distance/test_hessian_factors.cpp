// The factored squared-distance Hessians (weights w, residual r, factor L)
// reproduce the value, gradient and Hessian of the typed kernels:
// d = |r|^2, gradient 2 w (x) r, Hessian 2 (w w^T) (x) I - L L^T.

#include "helpers.hpp"

#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>

#include <catch2/catch.hpp>

namespace {

using ipc::test::point;

/// Compares the factors with a kernel's value, gradient and Hessian.
template <typename Factors, typename Value, typename Gradient, typename Hessian>
void check_factors(const Factors& f, int expected_columns, const Value& value, const Gradient& gradient,
                   const Hessian& hessian)
{
    constexpr int DIM = Factors::dim;
    constexpr int NP = Factors::num_points;
    constexpr int N = NP * DIM;
    CHECK(f.columns == expected_columns);
    Eigen::Matrix<double, N, 1> g;
    for (int j = 0; j < NP; ++j) {
        g.template segment<DIM>(DIM * j) = 2 * f.w[j] * f.r;
    }
    Eigen::Matrix<double, N, N> H = -f.L.leftCols(f.columns) * f.L.leftCols(f.columns).transpose();
    for (int i = 0; i < NP; ++i) {
        for (int j = 0; j < NP; ++j) {
            H.template block<DIM, DIM>(DIM * i, DIM * j).diagonal().array() += 2 * f.w[i] * f.w[j];
        }
    }
    const double scale = 1 + hessian.norm();
    CHECK(std::abs(f.r.squaredNorm() - value) <= 1e-13 * (1 + std::abs(value)));
    CHECK((g - gradient).norm() <= 1e-13 * (1 + gradient.norm()));
    CHECK((H - hessian).norm() <= 1e-12 * scale);
}

} // namespace

TEST_CASE("Distance Hessian factors reproduce the typed kernels", "[distance][factors]")
{
    std::mt19937_64 rng(31);
    for (int trial = 0; trial < 200; ++trial) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Eigen::VectorXd y = ipc::test::random_coordinates(rng, 6);
        const auto a = point<3>(x, 0), b = point<3>(x, 1), c = point<3>(x, 2), d = point<3>(x, 3);
        const auto a2 = point<2>(y, 0), b2 = point<2>(y, 1), c2 = point<2>(y, 2);

        check_factors(ipc::detail::point_point_distance_squared_hessian_factors(a, b), 0,
                      ipc::point_point_distance_squared(a, b), ipc::point_point_distance_squared_gradient(a, b),
                      ipc::point_point_distance_squared_hessian(a, b));
        check_factors(ipc::detail::point_point_distance_squared_hessian_factors(a2, b2), 0,
                      ipc::point_point_distance_squared(a2, b2), ipc::point_point_distance_squared_gradient(a2, b2),
                      ipc::point_point_distance_squared_hessian(a2, b2));
        check_factors(ipc::detail::point_line_distance_squared_hessian_factors(a, b, c), 1,
                      ipc::point_line_distance_squared(a, b, c), ipc::point_line_distance_squared_gradient(a, b, c),
                      ipc::point_line_distance_squared_hessian(a, b, c));
        check_factors(ipc::detail::point_line_distance_squared_hessian_factors(a2, b2, c2), 1,
                      ipc::point_line_distance_squared(a2, b2, c2),
                      ipc::point_line_distance_squared_gradient(a2, b2, c2),
                      ipc::point_line_distance_squared_hessian(a2, b2, c2));
        check_factors(ipc::detail::point_plane_distance_squared_hessian_factors(a, b, c, d), 2,
                      ipc::point_plane_distance_squared(a, b, c, d),
                      ipc::point_plane_distance_squared_gradient(a, b, c, d),
                      ipc::point_plane_distance_squared_hessian(a, b, c, d));
        check_factors(ipc::detail::line_line_distance_squared_hessian_factors(a, b, c, d), 2,
                      ipc::line_line_distance_squared(a, b, c, d), ipc::line_line_distance_squared_gradient(a, b, c, d),
                      ipc::line_line_distance_squared_hessian(a, b, c, d));
        for (int type = 0; type <= int(ipc::EdgeEdgeDistanceType::EA_EB); ++type) {
            const auto t = ipc::EdgeEdgeDistanceType(type);
            const int columns = type < 4 ? 0 : type < 8 ? 1 : 2;
            INFO("edge-edge type " << ipc::to_string(t));
            check_factors(ipc::detail::edge_edge_distance_squared_hessian_factors(a, b, c, d, t), columns,
                          ipc::edge_edge_distance_squared(a, b, c, d, t),
                          ipc::edge_edge_distance_squared_gradient(a, b, c, d, t),
                          ipc::edge_edge_distance_squared_hessian(a, b, c, d, t));
        }
    }
    // The typed factors reject the degenerate input their formulas cannot take.
    const Eigen::Vector3d o(0, 0, 0), e(1, 0, 0);
    CHECK_THROWS_AS(ipc::detail::point_line_distance_squared_hessian_factors(e, o, o), ipc::degenerate_geometry);
    CHECK_THROWS_AS(ipc::detail::point_plane_distance_squared_hessian_factors(e, o, e, 2 * e), ipc::degenerate_geometry);
    CHECK_THROWS_AS(ipc::detail::line_line_distance_squared_hessian_factors(o, e, o + Eigen::Vector3d(0, 1, 0), e + Eigen::Vector3d(0, 1, 0)),
                    ipc::degenerate_geometry);
}
