// The contact lemmas by exact test: points sampled in random triangles are
// never farther from every corner than the vertex-triangle bound (attained
// at the circumcentre of acute triangles and at the longest edge's midpoint
// of obtuse ones); crossing segments always have a cross vertex pair within
// the edge-edge bound (attained when they bisect each other at right
// angles); monotonicity and the global separation L / sqrt(2).

#include <ipc/distance/separation_bounds.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace bound_tests {

using Vec3 = Eigen::Vector3d;

Vec3 random_unit(std::mt19937& rng)
{
    std::normal_distribution<double> normal;
    Vec3 v;
    do {
        v = Vec3(normal(rng), normal(rng), normal(rng));
    } while (v.norm() < 1e-3);
    return v.normalized();
}

double min_corner_distance(const Vec3& p, const Vec3& x0, const Vec3& x1, const Vec3& x2)
{
    return std::min({ (p - x0).norm(), (p - x1).norm(), (p - x2).norm() });
}

double triangle_bound(const Vec3& x0, const Vec3& x1, const Vec3& x2)
{
    return ipc::point_triangle_separation_bound((x1 - x2).norm(), (x2 - x0).norm(), (x0 - x1).norm());
}

bool is_acute(const Vec3& x0, const Vec3& x1, const Vec3& x2)
{
    return (x1 - x0).dot(x2 - x0) > 0 && (x0 - x1).dot(x2 - x1) > 0 && (x0 - x2).dot(x1 - x2) > 0;
}

/// Random triangle: shape 0 generic, 1 obtuse (apex near the base),
/// 2 near-degenerate sliver, 3 acute (near-equilateral perturbation).
void random_triangle(std::mt19937& rng, int shape, Vec3& x0, Vec3& x1, Vec3& x2)
{
    std::uniform_real_distribution<double> u(-1, 1);
    const double scale = std::pow(10.0, 2 * u(rng));
    const Vec3 origin = scale * Vec3(u(rng), u(rng), u(rng));
    const Vec3 e0 = random_unit(rng);
    Vec3 e1 = random_unit(rng);
    e1 = (e1 - e1.dot(e0) * e0).normalized();
    x0 = origin;
    x1 = origin + scale * e0;
    switch (shape) {
    case 0:
        x2 = origin + scale * Vec3(u(rng), u(rng), u(rng));
        break;
    case 1: // apex close to the base line, between its ends: obtuse at the apex
        x2 = origin + scale * ((0.5 + 0.4 * u(rng)) * e0 + 0.2 * std::abs(u(rng)) * e1);
        break;
    case 2: // sliver
        x2 = origin + scale * ((0.5 + 1.0 * u(rng)) * e0 + 1e-9 * u(rng) * e1);
        break;
    default: // near-equilateral
        x2 = origin + scale * (0.5 * e0 + (std::sqrt(3.0) / 2) * e1 + 0.2 * Vec3(u(rng), u(rng), u(rng)));
        break;
    }
}

Vec3 circumcentre(const Vec3& x0, const Vec3& x1, const Vec3& x2)
{
    const Vec3 a = x1 - x0, b = x2 - x0;
    const Vec3 n = a.cross(b);
    return x0 + (a.squaredNorm() * b.cross(n) + b.squaredNorm() * n.cross(a)) / (2 * n.squaredNorm());
}

} // namespace bound_tests

TEST_CASE("vertex-triangle bound by exact test", "[repulsion][bounds]")
{
    using namespace bound_tests;
    std::mt19937 rng(41);
    std::uniform_real_distribution<double> unit(0, 1);
    int acute = 0, obtuse = 0;
    for (int trial = 0; trial < 400; ++trial) {
        Vec3 x0, x1, x2;
        random_triangle(rng, trial % 4, x0, x1, x2);
        const double bound = triangle_bound(x0, x1, x2);
        INFO("trial " << trial << ", bound " << bound);
        REQUIRE(std::isfinite(bound));
        // Random points by barycentric sampling, plus corners and edge points.
        double farthest = 0.0;
        for (int s = 0; s < 300; ++s) {
            double b1 = unit(rng), b2 = unit(rng);
            if (b1 + b2 > 1) {
                b1 = 1 - b1;
                b2 = 1 - b2;
            }
            if (s % 10 == 0) {
                b2 = 1 - b1; // on edge x1 x2
            }
            const Vec3 p = (1 - b1 - b2) * x0 + b1 * x1 + b2 * x2;
            const double d = min_corner_distance(p, x0, x1, x2);
            farthest = std::max(farthest, d);
            CHECK(d <= bound * (1 + 1e-12));
        }
        if (is_acute(x0, x1, x2)) {
            ++acute;
            // The circumcentre is inside and attains the bound.
            const Vec3 c = circumcentre(x0, x1, x2);
            CHECK(min_corner_distance(c, x0, x1, x2) == Approx(bound).epsilon(1e-9));
        } else {
            ++obtuse;
            // Half the longest edge (an upper bound, attained only when right).
            const double l[3] = { (x1 - x2).norm(), (x2 - x0).norm(), (x0 - x1).norm() };
            CHECK(bound == Approx(0.5 * std::max({ l[0], l[1], l[2] })).epsilon(1e-14));
        }
        CHECK(farthest <= bound * (1 + 1e-12));
    }
    CHECK(acute > 100);
    CHECK(obtuse > 100);
}

TEST_CASE("vertex-triangle bound: right triangles attain it at the hypotenuse midpoint", "[repulsion][bounds]")
{
    using namespace bound_tests;
    std::mt19937 rng(46);
    std::uniform_real_distribution<double> unit(0.1, 1);
    for (int trial = 0; trial < 100; ++trial) {
        const Vec3 e0 = random_unit(rng);
        const Vec3 e1 = random_unit(rng).cross(e0).normalized();
        const Vec3 x0(unit(rng), unit(rng), unit(rng));
        const Vec3 x1 = x0 + unit(rng) * e0, x2 = x0 + unit(rng) * e1; // right angle at x0
        const double bound = triangle_bound(x0, x1, x2);
        CHECK(bound == Approx(0.5 * (x1 - x2).norm()).epsilon(1e-12));
        CHECK(min_corner_distance(0.5 * (x1 + x2), x0, x1, x2) == Approx(bound).epsilon(1e-12));
    }
}

TEST_CASE("vertex-triangle bound: special and degenerate triangles", "[repulsion][bounds]")
{
    const double L = 2.5;
    CHECK(ipc::point_triangle_separation_bound(L, L, L) == Approx(L / std::sqrt(3.0)).epsilon(1e-15));
    // Right triangle 3-4-5: half the hypotenuse (also its circumradius).
    CHECK(ipc::point_triangle_separation_bound(3.0, 4.0, 5.0) == 2.5);
    CHECK(ipc::point_triangle_separation_bound(5.0, 3.0, 4.0) == 2.5);
    // Acute 5-5-6: circumradius abc / (4 Area) = 150 / 48.
    CHECK(ipc::point_triangle_separation_bound(5.0, 6.0, 5.0) == Approx(150.0 / 48.0).epsilon(1e-15));
    // Degenerate and zero-area triangles: half the longest edge, no NaN.
    CHECK(ipc::point_triangle_separation_bound(1.0, 1.0, 2.0) == 1.0);
    CHECK(ipc::point_triangle_separation_bound(1.0, 1.0, 0.0) == 0.5);
    CHECK(ipc::point_triangle_separation_bound(0.0, 0.0, 0.0) == 0.0);
    CHECK(ipc::point_triangle_separation_bound(1.0, 1.0, 2.0 + 1e-15) == Approx(1.0));
    // Acute slivers (two angles near 90 degrees) tend to half the longest edge.
    for (const double tiny : { 1e-4, 1e-8, 1e-160, 1e-300, 5e-324 }) {
        const double bound = ipc::point_triangle_separation_bound(1.0, 1.0, tiny);
        INFO("tiny = " << tiny);
        CHECK(std::isfinite(bound));
        CHECK(bound >= 0.5);
        CHECK(bound == Approx(0.5).epsilon(1e-8));
    }
    // Random lengths, valid or not: never NaN, never below half the longest.
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> u(0, 1);
    for (int trial = 0; trial < 1000; ++trial) {
        const double a = u(rng), b = trial % 7 == 0 ? 0.0 : u(rng), c = u(rng);
        const double bound = ipc::point_triangle_separation_bound(a, b, c);
        CHECK(std::isfinite(bound));
        CHECK(bound >= 0.5 * std::max({ a, b, c }));
    }
}

TEST_CASE("vertex-triangle bound is monotone in each edge", "[repulsion][bounds]")
{
    using namespace bound_tests;
    std::mt19937 rng(43);
    std::uniform_real_distribution<double> unit(0, 1);
    int acute = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const double l[3] = { 0.5 + unit(rng), 0.5 + unit(rng), 0.5 + unit(rng) };
        const double m = std::max({ l[0], l[1], l[2] });
        if (!(m * m < l[0] * l[0] + l[1] * l[1] + l[2] * l[2] - m * m)) {
            continue; // acute triangles only
        }
        ++acute;
        const double before = ipc::point_triangle_separation_bound(l[0], l[1], l[2]);
        for (int edge = 0; edge < 3; ++edge) {
            double grown[3] = { l[0], l[1], l[2] };
            grown[edge] *= 1 + (trial % 2 == 0 ? 1e-6 : 0.5) * unit(rng);
            const double after = ipc::point_triangle_separation_bound(grown[0], grown[1], grown[2]);
            INFO("trial " << trial << ", edge " << edge);
            CHECK(after >= before * (1 - 1e-14));
        }
    }
    CHECK(acute > 500);
}

TEST_CASE("edge-edge bound by exact test", "[repulsion][bounds]")
{
    using namespace bound_tests;
    std::mt19937 rng(44);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 2000; ++trial) {
        const Vec3 p = 10 * Vec3(unit(rng), unit(rng), unit(rng));
        const Vec3 u0 = random_unit(rng), u1 = random_unit(rng);
        const double l0 = std::pow(10.0, 2 * unit(rng) - 1), l1 = std::pow(10.0, 2 * unit(rng) - 1);
        const double s0 = unit(rng), s1 = unit(rng);
        // Segments [xi, xj] and [xk, xl] share the point p.
        const Vec3 xi = p - s0 * l0 * u0, xj = p + (1 - s0) * l0 * u0;
        const Vec3 xk = p - s1 * l1 * u1, xl = p + (1 - s1) * l1 * u1;
        const double shortest
            = std::min({ (xi - xk).norm(), (xi - xl).norm(), (xj - xk).norm(), (xj - xl).norm() });
        const double bound = ipc::edge_edge_separation_bound((xj - xi).norm(), (xl - xk).norm());
        INFO("trial " << trial);
        CHECK(shortest <= bound * (1 + 1e-12));
    }
    // Perpendicular segments bisecting each other attain the bound.
    for (int trial = 0; trial < 100; ++trial) {
        const Vec3 u0 = random_unit(rng);
        const Vec3 u1 = (random_unit(rng).cross(u0)).normalized();
        const double l0 = 0.1 + unit(rng), l1 = 0.1 + unit(rng);
        const Vec3 p(unit(rng), unit(rng), unit(rng));
        const Vec3 xi = p - 0.5 * l0 * u0, xj = p + 0.5 * l0 * u0;
        const Vec3 xk = p - 0.5 * l1 * u1, xl = p + 0.5 * l1 * u1;
        const double shortest
            = std::min({ (xi - xk).norm(), (xi - xl).norm(), (xj - xk).norm(), (xj - xl).norm() });
        CHECK(shortest == Approx(ipc::edge_edge_separation_bound(l0, l1)).epsilon(1e-12));
    }
    CHECK(ipc::edge_edge_separation_bound(3.0, 4.0) == 2.5);
    CHECK(ipc::edge_edge_separation_bound(0.0, 0.0) == 0.0);
}

TEST_CASE("repulsion separation", "[repulsion][bounds]")
{
    std::mt19937 rng(45);
    std::uniform_real_distribution<double> unit(0, 1);
    // The paper's numbers: L = 6 sqrt(2) mm gives B = 6 mm.
    CHECK(ipc::repulsion_separation(6 * std::sqrt(2.0)) == Approx(6.0).epsilon(1e-15));
    for (int trial = 0; trial < 200; ++trial) {
        const double L = std::pow(10.0, 6 * unit(rng) - 3);
        const double B = ipc::repulsion_separation(L);
        CHECK(B == Approx(L / std::sqrt(2.0)).epsilon(2e-16));
        CHECK(B >= ipc::point_triangle_separation_bound(L, L, L));
        // Never below either lemma bound for edges of length at most L.
        const double a = L * unit(rng), b = L * unit(rng), c = L * unit(rng);
        CHECK(ipc::point_triangle_separation_bound(a, b, c) <= B);
        CHECK(ipc::edge_edge_separation_bound(a, b) <= B);
        CHECK(ipc::edge_edge_separation_bound(L, L) <= B);
    }
    CHECK(ipc::repulsion_separation(0.0) == 0.0);
}
