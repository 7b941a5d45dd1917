// Tangent bases, closest-point coefficients and relative displacements for
// the four contact types, including degenerate input.

#include <test_vectors.hpp>

#include <ipc/friction/closest_point.hpp>
#include <ipc/friction/relative_displacement.hpp>
#include <ipc/friction/tangent_basis.hpp>

#include <catch2/catch.hpp>
#include <Eigen/Geometry>

#include <cmath>
#include <random>

namespace {

using Eigen::Vector3d;

using ipc::test::random_point;

// Orthonormal columns, and both orthogonal to the given normal direction.
void check_basis(const Eigen::Matrix<double, 3, 2>& basis, const Vector3d& normal)
{
    CHECK((basis.transpose() * basis - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff() < 1e-12);
    const Vector3d unit = normal.normalized();
    CHECK(std::abs(basis.col(0).dot(unit)) < 1e-10);
    CHECK(std::abs(basis.col(1).dot(unit)) < 1e-10);
}

} // namespace

TEST_CASE("Tangent bases are orthonormal and orthogonal to the contact normal",
    "[friction][tangent]")
{
    std::mt19937 generator(42);
    for (int trial = 0; trial < 50; ++trial) {
        const Vector3d p = random_point(generator), a = random_point(generator),
                       b = random_point(generator), c = random_point(generator);
        // Point-point: normal along b - a.
        check_basis(ipc::point_point_tangent_basis(p, a), a - p);
        // Point-edge: normal from the closest point on the line to p.
        const double eta = ipc::point_edge_closest_point(p, a, b);
        const Vector3d on_edge = a + eta * (b - a);
        CHECK(std::abs((p - on_edge).dot(b - a)) < 1e-12);
        const auto pe_basis = ipc::point_edge_tangent_basis(p, a, b);
        check_basis(pe_basis, p - on_edge);
        CHECK(pe_basis.col(0).dot((b - a).normalized()) == Approx(1.0));
        // Point-triangle: normal of the triangle; the projection residual is
        // orthogonal to both edges.
        const Eigen::Vector2d beta = ipc::point_triangle_closest_point(p, a, b, c);
        const Vector3d projection = a + beta[0] * (b - a) + beta[1] * (c - a);
        CHECK(std::abs((p - projection).dot(b - a)) < 1e-11);
        CHECK(std::abs((p - projection).dot(c - a)) < 1e-11);
        check_basis(ipc::point_triangle_tangent_basis(p, a, b, c), (b - a).cross(c - a));
        // Edge-edge: normal along ea x eb; the connecting vector of the
        // closest points is orthogonal to both edges.
        const Eigen::Vector2d gamma = ipc::edge_edge_closest_point(p, a, b, c);
        const Vector3d connecting = (p + gamma[0] * (a - p)) - (b + gamma[1] * (c - b));
        CHECK(std::abs(connecting.dot(a - p)) < 1e-11);
        CHECK(std::abs(connecting.dot(c - b)) < 1e-11);
        check_basis(ipc::edge_edge_tangent_basis(p, a, b, c), (a - p).cross(c - b));
    }
}

TEST_CASE("Closest-point coefficients on known configurations", "[friction][tangent]")
{
    const Vector3d origin = Vector3d::Zero();
    CHECK(ipc::point_edge_closest_point(Vector3d(0.25, 1, 0), origin, Vector3d(1, 0, 0)) == Approx(0.25));
    const Eigen::Vector2d beta = ipc::point_triangle_closest_point(
        Vector3d(0.2, 0.3, 5), origin, Vector3d(1, 0, 0), Vector3d(0, 1, 0));
    CHECK(beta[0] == Approx(0.2));
    CHECK(beta[1] == Approx(0.3));
    // Crossing edges: a along x at z = 1, b along y at z = 0, crossing over (0.5, 0.25).
    const Eigen::Vector2d gamma = ipc::edge_edge_closest_point(Vector3d(0, 0.25, 1),
        Vector3d(1, 0.25, 1), Vector3d(0.5, -1, 0), Vector3d(0.5, 1, 0));
    CHECK(gamma[0] == Approx(0.5));
    CHECK(gamma[1] == Approx(0.625));
}

TEST_CASE("Degenerate contacts: deterministic planes or clear errors", "[friction][tangent]")
{
    const Vector3d p(0.1, 0.2, 0.3);
    // Coincident points: the xy-plane, every time.
    const auto coincident = ipc::point_point_tangent_basis(p, p);
    check_basis(coincident, Vector3d::UnitZ());
    CHECK(coincident == ipc::point_point_tangent_basis(Vector3d(5, 5, 5), Vector3d(5, 5, 5)));
    // A point on the line of its edge: a valid basis along the edge.
    const auto on_line = ipc::point_edge_tangent_basis(Vector3d(2, 0, 0), Vector3d::Zero().eval(),
        Vector3d(1, 0, 0));
    CHECK((on_line.transpose() * on_line - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff() < 1e-14);
    CHECK(on_line.col(0).isApprox(Vector3d(1, 0, 0)));
    CHECK(on_line.allFinite());

    // Zero-length edges.
    CHECK_THROWS_AS(ipc::point_edge_tangent_basis(p, Vector3d(1, 1, 1), Vector3d(1, 1, 1)),
        ipc::degenerate_geometry);
    CHECK_THROWS_WITH(ipc::point_edge_closest_point(p, Vector3d(1, 1, 1), Vector3d(1, 1, 1)),
        Catch::Contains("zero length"));
    CHECK_THROWS_WITH(
        ipc::edge_edge_tangent_basis(p, p, Vector3d(0, 0, 0), Vector3d(1, 0, 0)),
        Catch::Contains("(a0, a1) has zero length"));
    CHECK_THROWS_AS(ipc::edge_edge_closest_point(Vector3d(0, 0, 0), Vector3d(1, 0, 0), p, p),
        ipc::degenerate_geometry);
    // Zero-area triangles (coincident vertices and collinear vertices).
    CHECK_THROWS_WITH(ipc::point_triangle_tangent_basis(p, Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                          Vector3d(2, 0, 0)),
        Catch::Contains("zero area"));
    CHECK_THROWS_AS(ipc::point_triangle_closest_point(p, Vector3d(0, 0, 0), Vector3d(0, 0, 0),
                        Vector3d(0, 1, 0)),
        ipc::degenerate_geometry);
    // Parallel edges.
    CHECK_THROWS_WITH(ipc::edge_edge_tangent_basis(Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                          Vector3d(0, 1, 0), Vector3d(3, 1, 0)),
        Catch::Contains("parallel"));
    CHECK_THROWS_AS(ipc::edge_edge_closest_point(Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                        Vector3d(0, 1, 0), Vector3d(-3, 1, 0)),
        ipc::degenerate_geometry);
    // NaN and infinity.
    const Vector3d bad(0, std::nan(""), 0);
    CHECK_THROWS_AS(ipc::point_point_tangent_basis(bad, p), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::point_edge_tangent_basis(p, bad, Vector3d(1, 0, 0)),
        Catch::Contains("e0") && Catch::Contains("not finite"));
    CHECK_THROWS_AS(ipc::point_triangle_closest_point(p, Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                        Vector3d(0, std::numeric_limits<double>::infinity(), 0)),
        ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::edge_edge_tangent_basis(p, Vector3d(1, 0, 0), Vector3d(0, 1, 0), bad),
        ipc::invalid_argument);
    // Every one derives from ipc::error.
    CHECK_THROWS_AS(ipc::point_edge_tangent_basis(p, p, p), ipc::error);
}

TEST_CASE("Relative displacement is the motion of the closest points", "[friction][tangent]")
{
    std::mt19937 generator(3);
    for (int trial = 0; trial < 20; ++trial) {
        const Vector3d p = random_point(generator), t0 = random_point(generator),
                       t1 = random_point(generator), t2 = random_point(generator);
        Eigen::Matrix<double, 12, 1> displacement;
        for (int i = 0; i < 4; ++i) {
            displacement.segment<3>(3 * i) = 0.1 * random_point(generator);
        }
        const Vector3d dp = displacement.segment<3>(0), d0 = displacement.segment<3>(3),
                       d1 = displacement.segment<3>(6), d2 = displacement.segment<3>(9);

        // Point-triangle: the point's motion minus that of its projection
        // (held at the same coordinates beta).
        const Eigen::Vector2d beta = ipc::point_triangle_closest_point(p, t0, t1, t2);
        const Vector3d pt_expected = dp - ((1 - beta[0] - beta[1]) * d0 + beta[0] * d1 + beta[1] * d2);
        CHECK(ipc::relative_displacement(ipc::point_triangle_relative_weights(beta), displacement)
                  .isApprox(pt_expected, 1e-12));

        // Edge-edge (a0, a1) = (p, t0), (b0, b1) = (t1, t2).
        const Eigen::Vector2d gamma = ipc::edge_edge_closest_point(p, t0, t1, t2);
        const Vector3d ee_expected = ((1 - gamma[0]) * dp + gamma[0] * d0)
            - ((1 - gamma[1]) * d1 + gamma[1] * d2);
        CHECK(ipc::relative_displacement(ipc::edge_edge_relative_weights(gamma), displacement)
                  .isApprox(ee_expected, 1e-12));

        // Point-edge and point-point on the leading vertices.
        const double eta = ipc::point_edge_closest_point(p, t0, t1);
        const Vector3d pe_expected = dp - ((1 - eta) * d0 + eta * d1);
        CHECK(ipc::relative_displacement(ipc::point_edge_relative_weights(eta),
                  displacement.head<9>())
                  .isApprox(pe_expected, 1e-12));
        CHECK(ipc::relative_displacement(ipc::point_point_relative_weights<double>(),
                  displacement.head<6>())
                  .isApprox(dp - d0, 1e-12));

        // A rigid translation of the whole stencil gives no relative motion.
        Eigen::Matrix<double, 12, 1> translation;
        const Vector3d shift = random_point(generator);
        for (int i = 0; i < 4; ++i) {
            translation.segment<3>(3 * i) = shift;
        }
        CHECK(ipc::relative_displacement(ipc::point_triangle_relative_weights(beta), translation)
                  .norm()
            < 1e-12);
        CHECK(ipc::tangential_displacement(ipc::edge_edge_tangent_basis(p, t0, t1, t2),
                  ipc::edge_edge_relative_weights(gamma), translation)
                  .norm()
            < 1e-12);
    }
}

TEMPLATE_TEST_CASE("Tangent helpers instantiate for float, double and long double",
    "[friction][tangent]", float, double, long double)
{
    using Scalar = TestType;
    using V = ipc::Vector3<Scalar>;
    const V p(Scalar(0.2), Scalar(0.3), Scalar(1)), t0(Scalar(0), Scalar(0), Scalar(0)),
        t1(Scalar(1), Scalar(0), Scalar(0)), t2(Scalar(0), Scalar(1), Scalar(0));
    const auto basis = ipc::point_triangle_tangent_basis(p, t0, t1, t2);
    CHECK(std::abs(double(basis.col(0).dot(basis.col(1)))) < 1e-6);
    const auto beta = ipc::point_triangle_closest_point(p, t0, t1, t2);
    CHECK(double(beta[0]) == Approx(0.2).epsilon(1e-5));
    CHECK(double(ipc::point_edge_closest_point(p, t0, t1)) == Approx(0.2).epsilon(1e-5));
    CHECK(ipc::point_point_tangent_basis(p, t0).allFinite());
    CHECK(ipc::edge_edge_tangent_basis(p, t0, t1, t2).allFinite());
    CHECK(ipc::edge_edge_closest_point(t0, t1, p, t2).allFinite());
}
