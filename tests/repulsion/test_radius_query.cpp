// Radius query and k-ring exclusion against brute force: random clouds in 2D
// and 3D with duplicate points, points on cell boundaries and pairs exactly
// at the radius; a folded grid cloth with the 2-ring exclusion checked
// against a breadth-first search; bad input.

#include <ipc/broad_phase/radius_query.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace radius_tests {

using ipc::Index;
using Pairs = std::vector<std::pair<Index, Index>>;

/// Hop distances from every vertex (breadth-first, -1 when unreachable).
std::vector<std::vector<int>> hop_distances(Index n, const Eigen::MatrixXi& E)
{
    std::vector<std::vector<Index>> adjacency(static_cast<size_t>(n));
    for (Index e = 0; e < E.rows(); ++e) {
        adjacency[size_t(E(e, 0))].push_back(E(e, 1));
        adjacency[size_t(E(e, 1))].push_back(E(e, 0));
    }
    std::vector<std::vector<int>> hops(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(n), -1));
    for (Index s = 0; s < n; ++s) {
        std::vector<int>& h = hops[size_t(s)];
        std::queue<Index> queue;
        h[size_t(s)] = 0;
        queue.push(s);
        while (!queue.empty()) {
            const Index v = queue.front();
            queue.pop();
            for (const Index w : adjacency[size_t(v)]) {
                if (h[size_t(w)] < 0) {
                    h[size_t(w)] = h[size_t(v)] + 1;
                    queue.push(w);
                }
            }
        }
    }
    return hops;
}

/// Brute force: every i < j closer than radius (the documented squared sum)
/// with hop distance above k (k < 0: no exclusion but i == j).
Pairs brute_force_pairs(const Eigen::MatrixXd& V, double radius, const std::vector<std::vector<int>>* hops, int k)
{
    Pairs pairs;
    for (Index i = 0; i < V.rows(); ++i) {
        for (Index j = i + 1; j < V.rows(); ++j) {
            double d2 = 0.0;
            for (Index d = 0; d < V.cols(); ++d) {
                d2 += (V(i, d) - V(j, d)) * (V(i, d) - V(j, d));
            }
            if (!(d2 < radius * radius)) {
                continue;
            }
            if (hops) {
                const int h = (*hops)[size_t(i)][size_t(j)];
                if (h >= 0 && h <= k) {
                    continue;
                }
            }
            pairs.emplace_back(i, j);
        }
    }
    return pairs;
}

/// A random cloud with duplicates, lattice points at multiples of the
/// radius (cell boundaries) and pairs exactly one radius apart.
Eigen::MatrixXd random_cloud(std::mt19937& rng, Index n, int dim, double radius)
{
    std::uniform_real_distribution<double> u(-1, 1);
    std::uniform_int_distribution<int> lattice(-4, 4);
    Eigen::MatrixXd V(n, dim);
    for (Index i = 0; i < n; ++i) {
        for (int d = 0; d < dim; ++d) {
            V(i, d) = 0.3 + 4 * radius * u(rng);
        }
        switch (i % 6) {
        case 1: // duplicate of an earlier point
            V.row(i) = V.row(std::uniform_int_distribution<Index>(0, i - 1)(rng));
            break;
        case 2: // lattice point: coordinates on cell boundaries of a radius grid
            for (int d = 0; d < dim; ++d) {
                V(i, d) = radius * lattice(rng);
            }
            break;
        case 3: // exactly one radius (a power of two) from the previous lattice point along an axis
            V.row(i) = V.row(i - 1);
            V(i, i % dim) += radius;
            break;
        case 4: // just inside the radius of an earlier point
            V.row(i) = V.row(i - 1);
            V(i, 0) += radius * (1 - 1e-15);
            break;
        default:
            break;
        }
    }
    return V;
}

} // namespace radius_tests

TEST_CASE("radius query against brute force on random clouds", "[repulsion][radius_query]")
{
    using namespace radius_tests;
    std::mt19937 rng(51);
    for (const int dim : { 2, 3 }) {
        for (const double radius : { 0.25, 0.0625, 1.0 / 1024, 8.0 }) {
            for (int trial = 0; trial < 3; ++trial) {
                const Eigen::MatrixXd V = random_cloud(rng, 240, dim, radius);
                const Pairs expected = brute_force_pairs(V, radius, nullptr, -1);
                const Pairs found = ipc::vertex_pairs_within_radius(V, radius);
                INFO("dim " << dim << ", radius " << radius << ", trial " << trial);
                CHECK(found == expected);
                CHECK(std::is_sorted(found.begin(), found.end()));
            }
        }
        // Widely spread points (the grid coarsens to 2^21 cells per axis) with
        // close clusters.
        Eigen::MatrixXd V = random_cloud(rng, 200, dim, 1e-3);
        V.topRows(20).array() *= 1e7;
        const Pairs expected = brute_force_pairs(V, 1e-3, nullptr, -1);
        CHECK(ipc::vertex_pairs_within_radius(V, 1e-3) == expected);
        CHECK(!expected.empty());
    }
}

TEST_CASE("radius query: pairs just inside the radius straddling cells", "[repulsion][radius_query]")
{
    // Isolated pairs r (1 - a few ulps) apart along one axis. Some start just
    // below a multiple of the radius (cell boundaries when the cells are
    // radius wide from the lowest point, which sits at 0), the others
    // anywhere: a pair straddles two cell boundaries whenever the cells are
    // narrower than the pair, so a cell edge below the radius drops pairs.
    std::mt19937 rng(53);
    std::uniform_real_distribution<double> unit(0, 1);
    for (const int dim : { 2, 3 }) {
        for (const double radius : { 0.1, 1.0 / 3, 7.0 }) {
            const int count = 4000;
            Eigen::MatrixXd V = Eigen::MatrixXd::Zero(2 * count + 1, dim);
            radius_tests::Pairs expected;
            for (int p = 0; p < count; ++p) {
                const int axis = p % dim;
                double x = radius * (1 + p % 300);
                for (int down = 0; down < p % 5; ++down) {
                    x = std::nextafter(x, 0.0);
                }
                if (p % 2 == 1) {
                    x = radius * (1 + 600 * unit(rng));
                }
                double y = x + radius;
                while (!((y - x) * (y - x) < radius * radius)) {
                    y = std::nextafter(y, 0.0);
                }
                const ipc::Index i = 1 + 2 * p;
                V(i, axis) = x;
                V(i + 1, axis) = y;
                // Pairs 3 radii apart along another axis: isolated.
                V(i, (axis + 1) % dim) = V(i + 1, (axis + 1) % dim) = 3 * radius * (1 + p);
                expected.emplace_back(i, i + 1);
            }
            INFO("dim " << dim << ", radius " << radius);
            CHECK(ipc::vertex_pairs_within_radius(V, radius) == expected);
        }
    }
}

TEST_CASE("radius query: small cases", "[repulsion][radius_query]")
{
    Eigen::MatrixXd V(4, 2);
    V << 0, 0, 0.5, 0, 1.0, 0, 0, 0; // 0 and 3 coincide; 0-1 exactly at radius 0.5
    using P = std::pair<ipc::Index, ipc::Index>;
    CHECK(ipc::vertex_pairs_within_radius(V, 0.5) == std::vector<P> { { 0, 3 } });
    CHECK(ipc::vertex_pairs_within_radius(V, 0.5000001) == std::vector<P> { { 0, 1 }, { 0, 3 }, { 1, 2 }, { 1, 3 } });
    CHECK(ipc::vertex_pairs_within_radius(V.topRows(1), 1.0).empty());
    CHECK(ipc::vertex_pairs_within_radius(Eigen::MatrixXd(0, 3), 1.0).empty());
    // A default exclusion removes only i == j; an explicit one removes edges.
    Eigen::MatrixXi E(1, 2);
    E << 0, 3;
    const ipc::RingExclusion ring(4, E, 1);
    CHECK(ipc::vertex_pairs_within_radius(V, 0.5, ring).empty());
    // Only the upper-left block of a larger matrix (Ref of a block).
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(6, 3);
    W.topLeftCorner(4, 2) = V;
    CHECK(ipc::vertex_pairs_within_radius(W.topLeftCorner(4, 2), 0.5) == std::vector<P> { { 0, 3 } });
    // The overload that fills a caller's vector (cleared first), and freed buffers.
    std::vector<P> reused { { 7, 8 } };
    ipc::vertex_pairs_within_radius(V, 0.5000001, ipc::RingExclusion {}, reused);
    CHECK(reused == std::vector<P> { { 0, 1 }, { 0, 3 }, { 1, 2 }, { 1, 3 } });
    ipc::release_radius_query_buffers();
    CHECK(ipc::vertex_pairs_within_radius(V, 0.5) == std::vector<P> { { 0, 3 } });
}

TEST_CASE("ring exclusion against breadth-first search", "[repulsion][radius_query]")
{
    using namespace radius_tests;
    // A grid cloth of nx x ny vertices, two triangles per quad, folded in 3D.
    const int nx = 24, ny = 20;
    const double spacing = 0.01;
    const Index n = nx * ny;
    Eigen::MatrixXd V(n, 3);
    std::mt19937 rng(52);
    std::uniform_real_distribution<double> jitter(-0.1, 0.1);
    for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
            // Folded over along x so that distant rings come close.
            const double s = x * spacing, angle = 3.0 * s / (nx * spacing);
            V.row(y * nx + x) << 0.05 * std::cos(angle * 3.14159), y * spacing + jitter(rng) * spacing,
                0.05 * std::sin(angle * 3.14159) + jitter(rng) * spacing;
        }
    }
    std::vector<std::pair<int, int>> edge_list;
    for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
            const int v = y * nx + x;
            if (x + 1 < nx) {
                edge_list.emplace_back(v, v + 1);
            }
            if (y + 1 < ny) {
                edge_list.emplace_back(v, v + nx);
            }
            if (x + 1 < nx && y + 1 < ny) {
                edge_list.emplace_back(v, v + nx + 1); // diagonal
            }
        }
    }
    Eigen::MatrixXi E(Index(edge_list.size()) + 2, 2);
    for (size_t e = 0; e < edge_list.size(); ++e) {
        E(Index(e), 0) = edge_list[e].first;
        E(Index(e), 1) = edge_list[e].second;
    }
    // A duplicate edge (reversed) and a self-loop are harmless.
    E.row(E.rows() - 2) << E(0, 1), E(0, 0);
    E.row(E.rows() - 1) << 5, 5;
    const std::vector<std::vector<int>> hops = hop_distances(n, E);

    for (const int k : { 0, 1, 2, 3 }) {
        const ipc::RingExclusion exclusion(n, E, k);
        CHECK(exclusion.rings() == k);
        CHECK(exclusion.num_vertices() == n);
        bool rings_match = true;
        for (Index i = 0; i < n; ++i) {
            std::vector<Index> expected;
            for (Index j = 0; j < n; ++j) {
                const int h = hops[size_t(i)][size_t(j)];
                if (j != i && h >= 0 && h <= k) {
                    expected.push_back(j);
                }
                if (exclusion.excluded(i, j) != (h >= 0 && h <= k)) {
                    rings_match = false;
                }
            }
            if (exclusion.ring(i) != expected) {
                rings_match = false;
            }
        }
        INFO("k = " << k);
        CHECK(rings_match);
        if (k == 2) {
            // Interior vertex of a regular triangulated grid: 6 neighbours, 18 in the 2-ring.
            CHECK(exclusion.ring(5 * nx + 5).size() == 18);
        }
        for (const double radius : { 2.5 * spacing, 4.0 * spacing }) {
            const Pairs expected = brute_force_pairs(V, radius, &hops, k);
            const Pairs found = ipc::vertex_pairs_within_radius(V, radius, exclusion);
            INFO("radius " << radius);
            CHECK(found == expected);
            CHECK(!found.empty());
        }
    }
}

TEST_CASE("radius query and ring exclusion: bad input", "[repulsion][radius_query]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    Eigen::MatrixXd V = Eigen::MatrixXd::Random(5, 3);
    CHECK_NOTHROW(ipc::vertex_pairs_within_radius(V, 0.1));
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(V, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(V, -1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(V, nan), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(V, inf), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(Eigen::MatrixXd::Zero(5, 4), 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(Eigen::MatrixXd::Zero(5, 1), 0.1), ipc::invalid_argument);
    Eigen::MatrixXd bad = V;
    bad(3, 1) = nan;
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(bad, 0.1), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::vertex_pairs_within_radius(bad, 0.1), Catch::Contains("vertex 3"));
    bad(3, 1) = -inf;
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(bad, 0.1), ipc::invalid_argument);

    Eigen::MatrixXi E(2, 2);
    E << 0, 1, 1, 2;
    const ipc::RingExclusion exclusion(4, E, 2); // 4 vertices, V has 5 rows
    CHECK_THROWS_AS(ipc::vertex_pairs_within_radius(V, 0.1, exclusion), ipc::invalid_argument);
    CHECK_NOTHROW(ipc::vertex_pairs_within_radius(V.topRows(4), 0.1, exclusion));

    E(1, 1) = 4;
    CHECK_THROWS_AS(ipc::RingExclusion(4, E, 2), ipc::invalid_argument);
    E(1, 1) = -1;
    CHECK_THROWS_AS(ipc::RingExclusion(4, E, 2), ipc::invalid_argument);
    E(1, 1) = 2;
    CHECK_THROWS_AS(ipc::RingExclusion(4, E, -1), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::RingExclusion(-1, Eigen::MatrixXi(0, 2), 2), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::RingExclusion(4, Eigen::MatrixXi::Zero(2, 3), 2), ipc::invalid_argument);
    CHECK_THROWS_AS(exclusion.ring(4), ipc::invalid_argument);
    CHECK_THROWS_AS(exclusion.ring(-1), ipc::invalid_argument);

    // Default: only i == j is excluded.
    const ipc::RingExclusion none;
    CHECK(none.num_vertices() == 0);
    CHECK(none.rings() == 0);
    CHECK(none.excluded(3, 3));
    CHECK_FALSE(none.excluded(3, 4));
    CHECK(exclusion.excluded(0, 2));
    CHECK(exclusion.excluded(2, 0));
    CHECK_FALSE(exclusion.excluded(0, 3));
    CHECK(exclusion.ring(0) == std::vector<ipc::Index> { 1, 2 });
    CHECK(exclusion.ring(3).empty());
}
