#include "scenes.hpp"

#include <ipc/collisions/intersection.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

using namespace ipc;

namespace {

__extension__ typedef __int128 int128;

int sign(int128 x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

/// Exact orient3d for integer coordinates below 2^30 in magnitude.
int exact_orient3d(const double* a, const double* b, const double* c, const double* d)
{
    int128 m[3][3];
    const double* rows[3] = { a, b, c };
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            m[i][k] = int128(static_cast<long long>(rows[i][k]) - static_cast<long long>(d[k]));
        }
    }
    const int128 det = m[0][2] * (m[1][0] * m[2][1] - m[2][0] * m[1][1])
        + m[1][2] * (m[2][0] * m[0][1] - m[0][0] * m[2][1]) + m[2][2] * (m[0][0] * m[1][1] - m[1][0] * m[0][1]);
    return sign(det);
}

/// Mesh of one triangle (vertices 0-2) and one rod segment (vertices 3-4).
bool triangle_segment(const Eigen::Vector3d& p, const Eigen::Vector3d& q)
{
    Eigen::MatrixXd V(5, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, p.transpose(), q.transpose();
    Eigen::MatrixXi F(1, 3), E(1, 2);
    F << 0, 1, 2;
    E << 3, 4;
    return has_intersections(CollisionMesh(V, E, F), V);
}

bool segments_2d(const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& a, const Eigen::Vector2d& b)
{
    Eigen::MatrixXd V(4, 2);
    V << p.transpose(), q.transpose(), a.transpose(), b.transpose();
    Eigen::MatrixXi E(2, 2);
    E << 0, 1, 2, 3;
    return has_intersections(CollisionMesh(V, E, Eigen::MatrixXi()), V);
}

} // namespace

TEST_CASE("Exact orientation predicates agree with integer arithmetic on near-degenerate input", "[intersection]")
{
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<long long> coordinate(-(1ll << 27), 1ll << 27);
    std::uniform_int_distribution<int> step(-2, 2);
    std::uniform_int_distribution<int> nudge(-1, 1);
    int decided_by_exact_path = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        // d = a + i (b - a) + j (c - a): exactly coplanar integer points (all
        // below 2^30), then moved by at most one unit along each axis.
        double a[3], b[3], c[3], d[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = double(coordinate(rng));
            b[k] = double(coordinate(rng));
            c[k] = double(coordinate(rng));
        }
        const int i = step(rng), j = step(rng);
        const bool coplanar = trial % 2 == 0;
        for (int k = 0; k < 3; ++k) {
            d[k] = a[k] + i * (b[k] - a[k]) + j * (c[k] - a[k]) + (coplanar ? 0 : nudge(rng));
        }
        const int expected = exact_orient3d(a, b, c, d);
        REQUIRE(detail::orient3d(a, b, c, d) == expected);
        // Plain floating point gets many of these wrong or undecided.
        const double naive = (a[0] - d[0]) * ((b[1] - d[1]) * (c[2] - d[2]) - (b[2] - d[2]) * (c[1] - d[1]))
            - (a[1] - d[1]) * ((b[0] - d[0]) * (c[2] - d[2]) - (b[2] - d[2]) * (c[0] - d[0]))
            + (a[2] - d[2]) * ((b[0] - d[0]) * (c[1] - d[1]) - (b[1] - d[1]) * (c[0] - d[0]));
        decided_by_exact_path += (naive > 0) - (naive < 0) != expected ? 1 : 0;
    }
    CHECK(decided_by_exact_path > 0); // the input really is hard

    // orient2d on Shewchuk's classic near-collinear grid.
    const double ulp = std::ldexp(1.0, -53);
    for (int i = 0; i < 32; ++i) {
        for (int j = 0; j < 32; ++j) {
            const double p[2] = { 0.5 + i * ulp, 0.5 + j * ulp }, q[2] = { 12, 12 }, r[2] = { 24, 24 };
            // Exact: scale by 2^53 (all values become integers below 2^58).
            const int128 scale = int128(1) << 53;
            const int128 px = scale / 2 + i, py = scale / 2 + j, qx = 12 * scale, ry = 24 * scale;
            const int128 det = (px - ry) * (qx - ry) - (py - ry) * (qx - ry);
            CHECK(detail::orient2d(p, q, r) == sign(det));
        }
    }
}

TEST_CASE("has_intersections: segment against triangle, crossing / touching / separated", "[intersection]")
{
    using V3 = Eigen::Vector3d;
    CHECK(triangle_segment(V3(0.2, 0.2, -1), V3(0.2, 0.2, 1)));        // crosses the interior
    CHECK(triangle_segment(V3(0.2, 0.2, 0), V3(0.3, 0.1, 2)));         // endpoint on the face
    CHECK(triangle_segment(V3(0.5, 0.5, -1), V3(0.5, 0.5, 1)));        // through the hypotenuse
    CHECK(triangle_segment(V3(0, 0, -1), V3(0, 0, 1)));                // through a vertex
    CHECK(triangle_segment(V3(-1, 0.25, 0), V3(2, 0.25, 0)));          // coplanar, across
    CHECK(triangle_segment(V3(0.1, 0.1, 0), V3(0.2, 0.1, 0)));         // coplanar, inside
    CHECK(triangle_segment(V3(1, 1, 0), V3(0, 2, 0)) == false);        // coplanar, outside
    CHECK(triangle_segment(V3(0.5, 0.5, 0), V3(1, 1, 0)));             // coplanar, touching hypotenuse
    CHECK(triangle_segment(V3(0.2, 0.2, 1e-300), V3(0.2, 0.2, 1)) == false); // just above
    CHECK(triangle_segment(V3(0.2, 0.2, -1), V3(0.2, 0.2, -1e-300)) == false); // just below
    CHECK(triangle_segment(V3(0.6, 0.6, -1), V3(0.6, 0.6, 1)) == false); // beside the hypotenuse
    CHECK(triangle_segment(V3(2, 2, 2), V3(3, 3, 3)) == false);

    // Tilted plane x + y + z = 1 with a point exactly on it and one ulp off it.
    Eigen::MatrixXd V(5, 3);
    V << 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.25, 0.25, 0.5, 1, 1, 1;
    Eigen::MatrixXi F(1, 3), E(1, 2);
    F << 0, 1, 2;
    E << 3, 4;
    const CollisionMesh mesh(V, E, F);
    CHECK(has_intersections(mesh, V));
    V(3, 2) = std::nextafter(0.5, 1.0);
    CHECK_FALSE(has_intersections(mesh, V));
    V(3, 2) = std::nextafter(0.5, 0.0);
    CHECK(has_intersections(mesh, V));
}

TEST_CASE("has_intersections on whole meshes", "[intersection]")
{
    // Rest configurations of the test scenes are intersection-free except
    // where sheets were placed through each other; check the volumes.
    ipc::test::SceneMaker maker(3, 9);
    maker.tet_cube({ 0, 0, 0 }, 1.0);
    maker.tet_cube({ 2, 0, 0 }, 1.0, true);
    const ipc::test::Scene scene = maker.finish("cubes", 0.0, 0.0);
    const CollisionMesh mesh = scene.mesh();
    CHECK_FALSE(has_intersections(mesh, scene.V0));
    // Push the second cube into the first.
    Eigen::MatrixXd moved = scene.V0;
    for (Eigen::Index v = 8; v < moved.rows(); ++v) {
        moved(v, 0) -= 1.5;
    }
    CHECK(has_intersections(mesh, moved));
    CHECK_THROWS_AS(has_intersections(mesh, scene.V0.topRows(4)), invalid_argument);
}

TEST_CASE("has_intersections in 2D: crossing / touching / separated segments", "[intersection]")
{
    using V2 = Eigen::Vector2d;
    CHECK(segments_2d(V2(0, 0), V2(1, 1), V2(0, 1), V2(1, 0)));            // X crossing
    CHECK(segments_2d(V2(0, 0), V2(1, 0), V2(0.5, 0), V2(0.5, 1)));        // T junction
    CHECK(segments_2d(V2(0, 0), V2(1, 0), V2(1, 0.0), V2(2, 1)) == true);  // touching ends
    CHECK(segments_2d(V2(0, 0), V2(2, 0), V2(1, 0), V2(3, 0)));            // collinear overlap
    CHECK_FALSE(segments_2d(V2(0, 0), V2(1, 0), V2(2, 0), V2(3, 0)));      // collinear apart
    CHECK_FALSE(segments_2d(V2(0, 0), V2(1, 0), V2(0, 1e-300), V2(1, 1))); // just above
    CHECK_FALSE(segments_2d(V2(0, 0), V2(1, 1), V2(0, 1), V2(0.49, 0.51)));
    // A closed polygon alone does not intersect itself (adjacent edges share a vertex).
    Eigen::MatrixXd V(4, 2);
    V << 0, 0, 1, 0, 1, 1, 0, 1;
    Eigen::MatrixXi E(4, 2);
    E << 0, 1, 1, 2, 2, 3, 3, 0;
    const CollisionMesh square(V, E, Eigen::MatrixXi());
    CHECK_FALSE(has_intersections(square, V));
    V.row(2) << 0.5, -1; // edge 2-3 now crosses edge 0-1
    CHECK(has_intersections(square, V));
}
