// Stencil points: positions against explicit weighted sums, squared distance,
// and the scattered gradient against central finite differences (2D and 3D,
// shared and repeated vertices, blocks as output).

#include <ipc/distance/point_stencil.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>

#include <limits>
#include <random>

namespace stencil_tests {

using ipc::Index;
using ipc::PointStencil;

/// A random stencil of 1..4 entries over n vertices (entries may repeat).
PointStencil random_stencil(std::mt19937& rng, Index n)
{
    std::uniform_int_distribution<int> kind(0, 3);
    std::uniform_int_distribution<Index> vertex(0, n - 1);
    std::uniform_real_distribution<double> weight(-0.5, 1.5);
    switch (kind(rng)) {
    case 0:
        return PointStencil::vertex(vertex(rng));
    case 1:
        return PointStencil::edge_point(vertex(rng), vertex(rng), weight(rng));
    case 2:
        return PointStencil::triangle_point(vertex(rng), vertex(rng), vertex(rng), weight(rng), weight(rng),
            weight(rng));
    default: {
        PointStencil p;
        p.size = 4;
        for (size_t k = 0; k < 4; ++k) {
            p.vertices[k] = vertex(rng);
            p.weights[k] = weight(rng);
        }
        return p;
    }
    }
}

/// sum_k w_k V.row(v_k), written out independently.
Eigen::VectorXd explicit_position(const PointStencil& p, const Eigen::MatrixXd& V)
{
    Eigen::VectorXd x = Eigen::VectorXd::Zero(V.cols());
    for (int k = 0; k < p.size; ++k) {
        x += p.weights[size_t(k)] * V.row(p.vertices[size_t(k)]).transpose();
    }
    return x;
}

template <int DIM> void check_random_stencils(unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coordinate(-1, 1);
    const Index n = 7;
    for (int trial = 0; trial < 60; ++trial) {
        Eigen::MatrixXd V(n, DIM);
        for (Index i = 0; i < V.size(); ++i) {
            V(i) = coordinate(rng);
        }
        const PointStencil a = random_stencil(rng, n);
        PointStencil b = random_stencil(rng, n);
        if (trial % 3 == 0) {
            b.vertices[0] = a.vertices[0]; // a vertex shared by both stencils
        }
        INFO("trial " << trial << ", sizes " << a.size << ", " << b.size);

        const Eigen::Matrix<double, DIM, 1> pa = ipc::stencil_position<DIM>(a, V);
        CHECK((pa - explicit_position(a, V)).cwiseAbs().maxCoeff() <= 1e-14);
        const double d2 = ipc::stencil_point_point_distance_squared<DIM>(a, b, V);
        CHECK(d2 == Approx((explicit_position(a, V) - explicit_position(b, V)).squaredNorm()).epsilon(1e-13).margin(1e-15));

        // Gradient against finite differences of the flattened positions.
        const double scale = 0.5 + trial % 4;
        Eigen::MatrixXd G = Eigen::MatrixXd::Constant(n, DIM, 0.25); // accumulates onto existing values
        ipc::add_stencil_point_point_distance_squared_gradient<DIM>(a, b, V, scale, G);
        const auto f = [&](const Eigen::VectorXd& x) {
            const Eigen::MatrixXd W = Eigen::Map<const Eigen::MatrixXd>(x.data(), n, DIM);
            return scale * ipc::stencil_point_point_distance_squared<DIM>(a, b, W);
        };
        const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(V.data(), V.size());
        const Eigen::VectorXd fd = ipc::test::fd_gradient(f, x, 1e-6);
        const Eigen::MatrixXd fd_rows = Eigen::Map<const Eigen::MatrixXd>(fd.data(), n, DIM);
        CHECK(ipc::test::fd_close((G.array() - 0.25).matrix(), fd_rows, 1e-7));

        // The same through a writable block of a wider matrix (const-ref overload).
        Eigen::MatrixXd wide = Eigen::MatrixXd::Zero(n + 2, DIM + 1);
        ipc::add_stencil_point_point_distance_squared_gradient<DIM>(a, b, V, scale, wide.block(1, 0, n, DIM));
        CHECK((wide.block(1, 0, n, DIM) - (G.array() - 0.25).matrix()).cwiseAbs().maxCoeff() <= 1e-14);
        CHECK(wide.row(0).isZero(0));
        CHECK(wide.col(DIM).isZero(0));
    }
}

} // namespace stencil_tests

TEST_CASE("stencil factories", "[repulsion][stencil]")
{
    using ipc::PointStencil;
    const PointStencil v = PointStencil::vertex(4);
    CHECK(v.size == 1);
    CHECK(v.vertices[0] == 4);
    CHECK(v.weights[0] == 1.0);
    const PointStencil e = PointStencil::edge_point(2, 5, 0.25);
    CHECK(e.size == 2);
    CHECK(e.vertices[0] == 2);
    CHECK(e.vertices[1] == 5);
    CHECK(e.weights[0] == 0.75);
    CHECK(e.weights[1] == 0.25);
    const PointStencil t = PointStencil::triangle_point(1, 2, 3, 0.5, 0.25, 0.25);
    CHECK(t.size == 3);
    CHECK(t.vertices[2] == 3);
    CHECK(t.weights[0] == 0.5);
    CHECK(t.weights[2] == 0.25);

    Eigen::MatrixXd V(6, 3);
    V.setZero();
    V.row(2) << 1, 0, 0;
    V.row(5) << 0, 4, 0;
    const Eigen::Vector3d p = ipc::stencil_position<3>(e, V);
    CHECK(p.isApprox(Eigen::Vector3d(0.75, 1.0, 0.0)));
    // Fixed-width positions work as well.
    const Eigen::Matrix<double, Eigen::Dynamic, 3> V3 = V;
    CHECK(ipc::stencil_point_point_distance_squared<3>(e, PointStencil::vertex(0), V3) == Approx(0.5625 + 1.0));
}

TEST_CASE("stencil distance and gradient against finite differences", "[repulsion][stencil]")
{
    SECTION("2D") { stencil_tests::check_random_stencils<2>(11); }
    SECTION("3D") { stencil_tests::check_random_stencils<3>(12); }
}

TEST_CASE("stencil gradient of a shared vertex accumulates both sides", "[repulsion][stencil]")
{
    using ipc::PointStencil;
    // a = x0, b = 0.5 x0 + 0.5 x1: a - b = 0.5 (x0 - x1); d^2 = 0.25 |x0 - x1|^2,
    // so the gradient on x0 is 0.5 (x0 - x1), on x1 its negative.
    Eigen::MatrixXd V(2, 2);
    V << 1, 2, 3, 5;
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(2, 2);
    ipc::add_stencil_point_point_distance_squared_gradient<2>(
        PointStencil::vertex(0), PointStencil::edge_point(0, 1, 0.5), V, 1.0, G);
    const Eigen::RowVector2d expected = 0.5 * (V.row(0) - V.row(1));
    CHECK((G.row(0) - expected).norm() <= 1e-15);
    CHECK((G.row(1) + expected).norm() <= 1e-15);
}

TEST_CASE("check_point_stencil", "[repulsion][stencil]")
{
    using ipc::PointStencil;
    CHECK_NOTHROW(ipc::check_point_stencil(PointStencil::triangle_point(0, 1, 2, 0.2, 0.3, 0.5), 3));
    CHECK_THROWS_AS(ipc::check_point_stencil(PointStencil {}, 3), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::check_point_stencil(PointStencil::vertex(3), 3), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::check_point_stencil(PointStencil::vertex(-1), 3), ipc::invalid_argument);
    CHECK_THROWS_AS(
        ipc::check_point_stencil(PointStencil::edge_point(0, 1, std::numeric_limits<double>::quiet_NaN()), 3),
        ipc::invalid_argument);
}
