// The classifiers test only the candidate edges that the unconstrained
// closest point points to, and the Hessians are assembled from outer
// products; these tests compare them with exhaustive candidate search and
// check exact symmetry.

#include "helpers.hpp"

#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

using ipc::test::point;
using Vec3 = Eigen::Vector3d;

namespace {

/// Smallest squared distance over the three edges (as segments) and, when
/// the projection lies inside the triangle, the plane.
double exhaustive_point_triangle(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2)
{
    double best = std::min(
        { ipc::point_edge_distance_squared(p, t0, t1), ipc::point_edge_distance_squared(p, t1, t2),
          ipc::point_edge_distance_squared(p, t2, t0) });
    const Vec3 n = (t1 - t0).cross(t2 - t0);
    const double b1 = n.dot((p - t0).cross(t2 - t0)), b2 = n.dot((t1 - t0).cross(p - t0));
    if (b1 >= 0 && b2 >= 0 && b1 + b2 <= n.squaredNorm()) {
        best = std::min(best, ipc::point_plane_distance_squared(p, t0, t1, t2));
    }
    return best;
}

template <typename M> bool exactly_symmetric(const M& H) { return H == H.transpose(); }

} // namespace

TEST_CASE("region classifiers match an exhaustive search over candidates", "[distance][classify]")
{
    std::mt19937_64 rng(800);
    int interior_pt = 0, interior_ee = 0;
    for (int k = 0; k < 20000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Vec3 p = point<3>(x, 0), t0 = point<3>(x, 1), t1 = point<3>(x, 2), t2 = point<3>(x, 3);

        const auto type_pt = ipc::point_triangle_distance_type(p, t0, t1, t2);
        const double d_pt = ipc::point_triangle_distance_squared(p, t0, t1, t2);
        CHECK(ipc::point_triangle_distance_squared(p, t0, t1, t2, type_pt) == d_pt);
        const double ref_pt = exhaustive_point_triangle(p, t0, t1, t2);
        CHECK(std::abs(d_pt - ref_pt) <= 1e-12 * (1 + ref_pt));
        interior_pt += type_pt == ipc::PointTriangleDistanceType::P_T;

        // Edges (p, t0) and (t1, t2): the smallest of the four endpoint-segment
        // distances bounds the distance from above; when the closest points
        // are interior the line-line value is attained.
        const auto type_ee = ipc::edge_edge_distance_type(p, t0, t1, t2);
        const double d_ee = ipc::edge_edge_distance_squared(p, t0, t1, t2);
        CHECK(ipc::edge_edge_distance_squared(p, t0, t1, t2, type_ee) == d_ee);
        const double segments = std::min(
            { ipc::point_edge_distance_squared(p, t1, t2), ipc::point_edge_distance_squared(t0, t1, t2),
              ipc::point_edge_distance_squared(t1, p, t0), ipc::point_edge_distance_squared(t2, p, t0) });
        CHECK(d_ee <= segments + 1e-12 * (1 + segments));
        if (type_ee != ipc::EdgeEdgeDistanceType::EA_EB) {
            CHECK(std::abs(d_ee - segments) <= 1e-12 * (1 + segments));
        }
        interior_ee += type_ee == ipc::EdgeEdgeDistanceType::EA_EB;
        // The automatic Hessian is formed without selecting a formula: the
        // typed one up to rounding.
        const Eigen::Matrix<double, 12, 12> h_typed = ipc::edge_edge_distance_squared_hessian(p, t0, t1, t2, type_ee);
        const Eigen::Matrix<double, 12, 12> h_auto = ipc::edge_edge_distance_squared_hessian(p, t0, t1, t2);
        CHECK((h_auto - h_typed).lpNorm<Eigen::Infinity>() <= 1e-12 * (1 + h_typed.lpNorm<Eigen::Infinity>()));
    }
    // Both the interior and the boundary branches were exercised.
    CHECK(interior_pt > 1000);
    CHECK(interior_pt < 19000);
    CHECK(interior_ee > 1000);
    CHECK(interior_ee < 19000);
}

TEST_CASE("distance Hessians are exactly symmetric", "[distance][hessian]")
{
    std::mt19937_64 rng(801);
    for (int k = 0; k < 2000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        const Vec3 a = point<3>(x, 0), b = point<3>(x, 1), c = point<3>(x, 2), d = point<3>(x, 3);
        CHECK(exactly_symmetric(ipc::point_plane_distance_squared_hessian(a, b, c, d)));
        CHECK(exactly_symmetric(ipc::line_line_distance_squared_hessian(a, b, c, d)));
        CHECK(exactly_symmetric(ipc::point_line_distance_squared_hessian(a, b, c)));
        CHECK(exactly_symmetric(ipc::point_triangle_distance_squared_hessian(a, b, c, d)));
        CHECK(exactly_symmetric(ipc::edge_edge_distance_squared_hessian(a, b, c, d)));
    }
}
