#include "scenes.hpp"

#include <ipc/collisions/intersection.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <utility>

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

namespace {

/// Triangle sheets built as exact grids: vertex (i, j) of a sheet is
/// origin + i u + j v, with u, v and origin chosen so that every coordinate
/// is exactly representable (each sheet then lies exactly in one plane).
struct FlatSheets {
    Eigen::MatrixXd V = Eigen::MatrixXd(0, 3);
    Eigen::MatrixXi F = Eigen::MatrixXi(0, 3);

    /// Appends an n x n vertex sheet (two triangles per square) and returns
    /// the index of its vertex (0, 0).
    int add_sheet(int n, const Eigen::RowVector3d& origin, const Eigen::RowVector3d& u, const Eigen::RowVector3d& v)
    {
        const int base = int(V.rows());
        Eigen::MatrixXd sheet_vertices(n * n, 3);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                sheet_vertices.row(i * n + j) = origin + double(i) * u + double(j) * v;
            }
        }
        Eigen::MatrixXi sheet_faces(2 * (n - 1) * (n - 1), 3);
        int f = 0;
        for (int i = 0; i + 1 < n; ++i) {
            for (int j = 0; j + 1 < n; ++j) {
                const int corner = base + i * n + j, right = corner + n, up = corner + 1, diagonal = corner + n + 1;
                sheet_faces.row(f++) << corner, right, diagonal;
                sheet_faces.row(f++) << corner, diagonal, up;
            }
        }
        ipc::test::append(V, sheet_vertices);
        ipc::test::append(F, sheet_faces);
        return base;
    }

    CollisionMesh mesh() const { return CollisionMesh(V, Eigen::MatrixXi(), F); }
};

/// The lowest (edge, face) pair that meets, by testing every edge against
/// every face with the exact pair test of has_intersections; (-1, -1) when
/// none does.
detail::IntersectingPair brute_force_intersecting_pair(const CollisionMesh& mesh, const Eigen::MatrixXd& V)
{
    const detail::CrossingTest test(mesh, V);
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index f = 0; f < mesh.num_faces(); ++f) {
            if (test.crosses(e, f)) {
                return { e, f };
            }
        }
    }
    return {};
}

/// has_intersections on the configuration, checked against the brute-force
/// reference (and the first pair it names against the reference's).
bool intersects_like_brute_force(const CollisionMesh& mesh, const Eigen::MatrixXd& V)
{
    const bool found = has_intersections(mesh, V);
    const detail::IntersectingPair reference = brute_force_intersecting_pair(mesh, V);
    CHECK(found == (reference.edge >= 0));
    const detail::IntersectingPair first = detail::first_intersecting_pair(mesh, V);
    CHECK(first.edge == reference.edge);
    CHECK(first.other == reference.other);
    return found;
}

/// Spacing of the exact grids below (a power of two).
constexpr double grid_step = 1.0 / 16.0;

} // namespace

TEST_CASE("Exact predicates decide coplanar points with inexact differences", "[intersection]")
{
    // All on the plane z = x, with coordinates of very different magnitudes
    // so that the differences to d are not representable (two-term
    // expansions); moving d off the plane by one ulp must give the same sign
    // as moving it by one.
    const double a[3] = { std::ldexp(1.0, 60), 0.0, std::ldexp(1.0, 60) };
    const double b[3] = { -std::ldexp(1.0, -60), 3.0, -std::ldexp(1.0, -60) };
    const double c[3] = { 1.0, 1.0, 1.0 };
    const double on_plane[3] = { -3.0, 5.0, -3.0 };
    CHECK(detail::orient3d(a, b, c, on_plane) == 0);
    const double ulp_above[3] = { -3.0, 5.0, std::nextafter(-3.0, 0.0) };
    const double far_above[3] = { -3.0, 5.0, -2.0 };
    const double ulp_below[3] = { -3.0, 5.0, std::nextafter(-3.0, -4.0) };
    const double far_below[3] = { -3.0, 5.0, -4.0 };
    const int above = detail::orient3d(a, b, c, far_above);
    CHECK(above != 0);
    CHECK(detail::orient3d(a, b, c, ulp_above) == above);
    CHECK(detail::orient3d(a, b, c, far_below) == -above);
    CHECK(detail::orient3d(a, b, c, ulp_below) == -above);

    // orient2d on the line y = x with the same magnitudes.
    const double p[2] = { std::ldexp(1.0, 60), std::ldexp(1.0, 60) };
    const double q[2] = { -std::ldexp(1.0, -60), -std::ldexp(1.0, -60) };
    const double r[2] = { -3.0, -3.0 };
    const double r_up[2] = { -3.0, std::nextafter(-3.0, 0.0) };
    const double r_down[2] = { -3.0, std::nextafter(-3.0, -4.0) };
    CHECK(detail::orient2d(p, q, r) == 0);
    CHECK(detail::orient2d(p, q, r_up) == -detail::orient2d(p, q, r_down));
    CHECK(detail::orient2d(p, q, r_up) != 0);

    // Points sharing one coordinate exactly (the axis-aligned shortcut).
    const double flat_a[3] = { 0.1, 0.7, 0.3 }, flat_b[3] = { 0.9, 0.2, 0.3 }, flat_c[3] = { 0.4, 0.4, 0.3 };
    const double flat_d[3] = { 0.25, 0.6, 0.3 }, lifted_d[3] = { 0.25, 0.6, std::nextafter(0.3, 1.0) };
    CHECK(detail::orient3d(flat_a, flat_b, flat_c, flat_d) == 0);
    CHECK(detail::orient3d(flat_a, flat_b, flat_c, lifted_d) == -detail::orient3d(flat_a, flat_b, lifted_d, flat_c));
    CHECK(detail::orient3d(flat_a, flat_b, flat_c, lifted_d) != 0);
    // Only a and b share d's z (a zero in two rows of the z column, not
    // three): det = c_z (a_x b_y - a_y b_x) = 3 - 3 (1 + 2^-52) < 0, too
    // close to zero for the filter.
    const double near_a[3] = { 1.0, std::nextafter(1.0, 2.0), 0.0 }, near_b[3] = { 3.0, 3.0, 0.0 };
    const double near_c[3] = { 0.5, 0.25, 1.0 }, origin[3] = { 0.0, 0.0, 0.0 };
    CHECK(detail::orient3d(near_a, near_b, near_c, origin) == -1);
}

TEST_CASE("has_intersections: exactly flat grids do not intersect themselves", "[intersection]")
{
    const double h = grid_step;
    struct Plane {
        const char* name;
        Eigen::RowVector3d origin, u, v;
    };
    const Plane planes[] = {
        { "xy plane", { 0.25, -0.5, 0.3 }, { h, 0, 0 }, { 0, h, 0 } },
        { "xz plane", { 0.25, 0.3, -0.5 }, { h, 0, 0 }, { 0, 0, h } },
        { "yz plane", { 0.3, 0.25, -0.5 }, { 0, h, 0 }, { 0, 0, h } },
        // z = x + y / 2 + 1/4: no coordinate shared, still exactly coplanar.
        { "tilted plane", { 0, 0, 0.25 }, { h, 0, h }, { 0, h, h / 2 } },
    };
    for (const Plane& plane : planes) {
        SECTION(plane.name)
        {
            FlatSheets sheets;
            sheets.add_sheet(12, plane.origin, plane.u, plane.v);
            // The grid really is flat: three corners and an inner vertex are
            // coplanar (row-major copy: each point three contiguous doubles).
            const Eigen::MatrixXd& V = sheets.V;
            Eigen::Matrix<double, 4, 3, Eigen::RowMajor> corners;
            corners << V.row(0), V.row(11), V.row(12 * 11), V.row(12 * 5 + 7);
            REQUIRE(detail::orient3d(corners.row(0).data(), corners.row(1).data(), corners.row(2).data(),
                                     corners.row(3).data())
                    == 0);
            CHECK_FALSE(intersects_like_brute_force(sheets.mesh(), sheets.V));

            // A second coplanar sheet overlapping part of the first.
            FlatSheets overlapping = sheets;
            overlapping.add_sheet(6, plane.origin + 4.5 * plane.u + 3.25 * plane.v, plane.u, plane.v);
            CHECK(intersects_like_brute_force(overlapping.mesh(), overlapping.V));

            // A vertex moved within the plane onto a non-adjacent triangle
            // (the sheet folds over itself without leaving the plane).
            FlatSheets folded = sheets;
            const int moved = 12 * 3 + 3;
            folded.V.row(moved) = plane.origin + 7.25 * plane.u + 6.5 * plane.v;
            CHECK(intersects_like_brute_force(folded.mesh(), folded.V));
        }
    }
}

TEST_CASE("has_intersections: coplanar sheets touching at one point intersect, one ulp apart do not", "[intersection]")
{
    const double h = grid_step;
    // Sheet A over [0, 11 h]^2 in z = 0.5; sheet B, turned 45 degrees, lies in
    // x >= 11 h with only its corner on x = 11 h, in the middle of an edge
    // of A's boundary.
    const Eigen::RowVector3d u(h, h, 0), v(h, -h, 0);
    const double boundary_x = 11 * h, touching_y = 4.5 * h;
    for (const double corner_x : { boundary_x, std::nextafter(boundary_x, 1.0) }) {
        FlatSheets sheets;
        sheets.add_sheet(12, { 0, 0, 0.5 }, { h, 0, 0 }, { 0, h, 0 });
        const int corner = sheets.add_sheet(5, { corner_x, touching_y, 0.5 }, u, v);
        REQUIRE(sheets.V(corner, 0) == corner_x);
        CHECK(intersects_like_brute_force(sheets.mesh(), sheets.V) == (corner_x == boundary_x));
    }

    // The same corner exactly on a vertex of A's boundary.
    FlatSheets on_vertex;
    on_vertex.add_sheet(12, { 0, 0, 0.5 }, { h, 0, 0 }, { 0, h, 0 });
    on_vertex.add_sheet(5, { boundary_x, 4 * h, 0.5 }, u, v);
    CHECK(intersects_like_brute_force(on_vertex.mesh(), on_vertex.V));
}

TEST_CASE("has_intersections: a vertex pushed exactly into a flat sheet's plane touches it", "[intersection]")
{
    const double h = grid_step;
    // A flat grid in z = 0 and, above it, a small tent (one triangle fan)
    // whose apex is pushed down onto the grid: into a triangle's interior,
    // onto an edge, onto a vertex (touching counts), or stopped 1e-30 short.
    const Eigen::RowVector3d apex_targets[] = { { 5.25 * h, 3.5 * h, 0 }, { 5 * h, 3.5 * h, 0 }, { 5 * h, 3 * h, 0 } };
    for (const Eigen::RowVector3d& target : apex_targets) {
        for (const bool touching : { true, false }) {
            FlatSheets sheets;
            sheets.add_sheet(12, { 0, 0, 0 }, { h, 0, 0 }, { 0, h, 0 });
            const int apex = int(sheets.V.rows());
            Eigen::MatrixXd tent(4, 3);
            tent << target(0), target(1), touching ? 0.0 : 1e-30, //
                target(0) - h, target(1) - h, h, //
                target(0) + h, target(1) - h, h, //
                target(0), target(1) + h, h;
            ipc::test::append(sheets.V, tent);
            Eigen::MatrixXi fan(3, 3);
            fan << apex, apex + 1, apex + 2, apex, apex + 2, apex + 3, apex, apex + 3, apex + 1;
            ipc::test::append(sheets.F, fan);
            CHECK(intersects_like_brute_force(sheets.mesh(), sheets.V) == touching);
        }
    }
}

TEST_CASE("has_intersections: parallel flat sheets 1e-12 apart do not intersect", "[intersection]")
{
    const double h = grid_step;
    // Same grid twice, the copy shifted by half a cell within the plane so
    // that its triangles overlap the first one's in projection.
    for (const double gap : { 1e-12, 0.0 }) {
        FlatSheets xy;
        xy.add_sheet(10, { 0, 0, 0.125 }, { h, 0, 0 }, { 0, h, 0 });
        xy.add_sheet(10, { h / 2, h / 4, 0.125 + gap }, { h, 0, 0 }, { 0, h, 0 });
        CHECK(intersects_like_brute_force(xy.mesh(), xy.V) == (gap == 0.0));

        FlatSheets xz;
        xz.add_sheet(10, { 0, -0.75, 0 }, { h, 0, 0 }, { 0, 0, h });
        xz.add_sheet(10, { h / 2, -0.75 - gap, h / 4 }, { h, 0, 0 }, { 0, 0, h });
        CHECK(intersects_like_brute_force(xz.mesh(), xz.V) == (gap == 0.0));
    }
}

TEST_CASE("has_intersections in 2D: collinear polylines", "[intersection]")
{
    // Two polylines on the line y = 1/4 (all points share y exactly).
    const auto polylines = [](double second_start) {
        Eigen::MatrixXd V(12, 2);
        Eigen::MatrixXi E(10, 2);
        for (int k = 0; k < 6; ++k) {
            V.row(k) << k * grid_step, 0.25;
            V.row(6 + k) << second_start + k * grid_step, 0.25;
        }
        for (int k = 0; k < 5; ++k) {
            E.row(k) << k, k + 1;
            E.row(5 + k) << 6 + k, 7 + k;
        }
        return std::make_pair(V, E);
    };
    const double end_of_first = 5 * grid_step;
    const std::pair<double, bool> cases[] = {
        { 3.5 * grid_step, true },                              // overlapping
        { end_of_first, true },                                 // touching end to end
        { std::nextafter(end_of_first, 1.0), false },           // one ulp apart
    };
    for (const auto& [start, expected] : cases) {
        const auto [V, E] = polylines(start);
        CHECK(has_intersections(CollisionMesh(V, E, Eigen::MatrixXi()), V) == expected);
    }
}
