// Internals of the fast broad phase and step size: single-precision outward
// rounding, the radix sort of pair keys, boxes that only just touch, the
// separation filter of the step size, and order/thread independence of the
// step size.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

using namespace ipc;

namespace {

void use_threads(int threads)
{
#if IPC_HAS_OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

/// A regular n x n grid of triangles in the plane z = height, spacing h.
void add_grid(Eigen::MatrixXd& V, Eigen::MatrixXi& F, int n, double h, double height)
{
    const Index base = V.rows();
    V.conservativeResize(base + n * n, 3);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            V.row(base + i * n + j) << 0.3 + h * i, -0.2 + h * j, height;
        }
    }
    const Index faces = F.rows();
    F.conservativeResize(faces + 2 * (n - 1) * (n - 1), 3);
    Index f = faces;
    for (int i = 0; i + 1 < n; ++i) {
        for (int j = 0; j + 1 < n; ++j) {
            const int a = int(base) + i * n + j, b = a + n, c = a + 1, d = a + n + 1;
            F.row(f++) << a, b, c;
            F.row(f++) << c, b, d;
        }
    }
}

} // namespace

TEST_CASE("Single-precision outward rounding brackets the double", "[broad_phase][aabb]")
{
    constexpr double largest = double(std::numeric_limits<float>::max());
    std::vector<double> values = { 0.0, -0.0, 1e-320, -1e-320, 1e-40, -1e-40, 1.0, -1.0, 0.1, -0.1, largest,
                                   -largest, std::nextafter(largest, 1e300), -std::nextafter(largest, 1e300),
                                   1e300, -1e300, std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity() };
    std::mt19937 generator(3);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-130, 130);
    for (int k = 0; k < 20000; ++k) {
        values.push_back(std::ldexp(mantissa(generator), exponent(generator)));
    }
    for (const double x : values) {
        CAPTURE(x);
        const float low = detail::round_down_to_float(x), high = detail::round_up_to_float(x);
        CHECK(double(low) <= x);
        CHECK(double(high) >= x);
        if (std::abs(x) <= 0.5 * largest && std::abs(x) >= double(std::numeric_limits<float>::min())) {
            // Tight: within a few float ulps.
            const double ulp = std::abs(x) * 0x1p-23;
            CHECK(x - double(low) <= 4 * ulp + 0x1p-139);
            CHECK(double(high) - x <= 4 * ulp + 0x1p-139);
        }
    }
    CHECK(detail::round_down_to_float(-1e300) == -std::numeric_limits<float>::infinity());
    CHECK(detail::round_up_to_float(1e300) == std::numeric_limits<float>::infinity());
    CHECK(detail::round_down_to_float(1e300) == std::numeric_limits<float>::max());
}

TEST_CASE("Radix sort of pair keys equals std::sort for any size, width and thread count", "[broad_phase]")
{
    std::mt19937_64 generator(5);
    for (const std::size_t size : { 0, 1, 2, 100, 511, 512, 5000, 70001 }) {
        for (const int bits : { 1, 10, 23, 38, 52 }) {
            std::vector<std::uint64_t> keys(size);
            for (std::uint64_t& key : keys) {
                key = generator() & ((std::uint64_t(1) << bits) - 1);
            }
            std::vector<std::uint64_t> expected = keys;
            std::sort(expected.begin(), expected.end());
            for (const int threads : { 1, 3 }) {
                CAPTURE(size, bits, threads);
                use_threads(threads);
                std::vector<std::uint64_t> sorted = keys;
                detail::radix_sort_keys(sorted, bits);
                CHECK(sorted == expected);
            }
        }
    }
    use_threads(4);
}

TEST_CASE("Radix sort on a bit field equals a stable sort on that field", "[broad_phase]")
{
    std::mt19937_64 generator(7);
    for (const std::size_t size : { 3, 511, 512, 9000, 70001 }) {
        for (const auto& [bits, low] : { std::pair { 30, 32 }, std::pair { 7, 3 }, std::pair { 20, 40 } }) {
            std::vector<std::uint64_t> keys(size);
            for (std::uint64_t& key : keys) {
                key = generator();
                // Few distinct field values, so that stability matters.
                key &= ~(((std::uint64_t(1) << bits) - 1) << low) | (std::uint64_t(generator() % 97) << low);
            }
            const std::uint64_t field = ((std::uint64_t(1) << bits) - 1) << low;
            std::vector<std::uint64_t> expected = keys;
            std::stable_sort(expected.begin(), expected.end(),
                             [field](std::uint64_t a, std::uint64_t b) { return (a & field) < (b & field); });
            for (const int threads : { 1, 3 }) {
                CAPTURE(size, bits, low, threads);
                use_threads(threads);
                std::vector<std::uint64_t> sorted = keys;
                detail::radix_sort_keys(sorted, bits, low);
                CHECK(sorted == expected);
            }
        }
    }
    use_threads(4);
}

TEST_CASE("Serial radix sort of a range on a bit field equals a stable sort on that field", "[broad_phase]")
{
    // The in-cache sort of one bucket of pair keys: any length, field width
    // (one to six digits) and position, few distinct field values (so
    // stability matters) or all equal (the pass-skipping shortcut).
    std::mt19937_64 generator(13);
    for (const std::size_t size : { 0, 1, 2, 33, 4096, 20001 }) {
        for (const auto& [bits, low] : { std::pair { 1, 0 }, std::pair { 9, 19 }, std::pair { 28, 0 },
                                         std::pair { 38, 0 }, std::pair { 60, 2 } }) {
            for (const bool constant : { false, true }) {
                const std::uint64_t field = (bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1) << low;
                std::vector<std::uint64_t> keys(size);
                const std::uint64_t shared = generator();
                for (std::uint64_t& key : keys) {
                    key = generator();
                    const std::uint64_t value = constant ? shared : generator() % 1013 * 0x9e3779b97f4a7c15ull;
                    key = (key & ~field) | ((value << low) & field);
                }
                std::vector<std::uint64_t> expected = keys;
                std::stable_sort(expected.begin(), expected.end(),
                                 [field](std::uint64_t a, std::uint64_t b) { return (a & field) < (b & field); });
                std::vector<std::uint64_t> buffer(size);
                CAPTURE(size, bits, low, constant);
                detail::radix_sort_range(keys.data(), keys.size(), bits, low, buffer.data());
                CHECK(keys == expected);
            }
        }
    }
}

TEST_CASE("BVH keeps pairs whose inflated boxes only just touch", "[broad_phase][bvh]")
{
    // Two parallel grids exactly dhat apart: the inflated boxes of a vertex
    // and the face right below it meet in a plane (up to the one-ulp outward
    // rounding), at heights that single precision cannot represent.
    const double dhat = 1e-3;
    for (const double height : { 0.1, 1000.3, -77.7 }) {
        CAPTURE(height);
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi F(0, 3);
        add_grid(V, F, 12, 0.01, height);
        const Index top = V.rows();
        add_grid(V, F, 12, 0.01, height + dhat);
        const CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
        const Candidates reference = static_candidates(mesh, V, dhat, BroadPhaseMethod::brute_force);
        for (const int threads : { 1, 4 }) {
            use_threads(threads);
            CHECK(static_candidates(mesh, V, dhat, BroadPhaseMethod::bvh) == reference);
        }
        // Every top vertex has faces of the bottom grid at distance dhat up
        // to the rounding of the heights (checked: the scene sits on the
        // boundary); those at or below dhat must be candidates.
        int checked = 0;
        for (Index v = top; v < V.rows(); ++v) {
            for (Index f = 0; f < F.rows() / 2; ++f) {
                const double d = std::sqrt(point_triangle_distance_squared(
                    Eigen::Vector3d(V.row(v)), Eigen::Vector3d(V.row(F(f, 0))), Eigen::Vector3d(V.row(F(f, 1))),
                    Eigen::Vector3d(V.row(F(f, 2)))));
                if (d <= dhat) {
                    CHECK(std::binary_search(reference.face_vertex.begin(), reference.face_vertex.end(),
                                             FaceVertexCandidate { f, v }));
                }
                checked += std::abs(d - dhat) <= 1e-9 * dhat;
            }
        }
        CHECK(checked > 100);
    }
    use_threads(4);
}

TEST_CASE("Step-size separation filter is conservative", "[step_size][filter]")
{
    // Random moving pairs, eight per filter call (a point-triangle,
    // edge-edge or point-edge batch): whenever the filter says a pair stays
    // apart over [0, T], the sampled distance stays above xi + kept (d(0) - xi).
    std::mt19937 generator(11);
    std::uniform_real_distribution<double> coordinate(-1.0, 1.0), unit(0.0, 1.0);
    const auto random_point = [&] { return Eigen::Vector3d(coordinate(generator), coordinate(generator), coordinate(generator)); };
    constexpr int lanes = 8;
    int passed[3] = { 0, 0, 0 }, close = 0;
    for (int call = 0; call < 600; ++call) {
        const int kind = call % 3; // 0: point-triangle, 1: edge-edge, 2: point-edge
        const int num_a = kind == 0 ? 3 : 2, num_b = kind == 1 ? 2 : 1;
        const double kept = call % 4 == 0 ? 0.0 : 0.1;
        detail::SeparationBatch<3, 1, lanes> triangles {};
        detail::SeparationBatch<2, 2, lanes> edges {};
        detail::SeparationBatch<2, 1, lanes> point_edges {};
        // Points 0..num_a-1 are a, then b; at t = 0, 1 and T.
        Eigen::Vector3d x0[lanes][4], x1[lanes][4];
        double T[lanes], xi[lanes];
        for (int l = 0; l < lanes; ++l) {
            T[l] = unit(generator);
            xi[l] = 0.05 * unit(generator);
            const double motion = 0.6 * unit(generator);
            const Eigen::Vector3d shift = 0.7 * random_point();
            for (int q = 0; q < num_a + num_b; ++q) {
                x0[l][q] = (q < num_a ? Eigen::Vector3d::Zero() : shift) + 0.5 * random_point();
                x1[l][q] = x0[l][q] + motion * random_point();
                const Eigen::Vector3d xT = x0[l][q] + T[l] * (x1[l][q] - x0[l][q]);
                for (int k = 0; k < 3; ++k) {
                    (kind == 0 ? triangles.start[q][k][l] : kind == 1 ? edges.start[q][k][l] : point_edges.start[q][k][l]) = x0[l][q][k];
                    (kind == 0 ? triangles.end[q][k][l] : kind == 1 ? edges.end[q][k][l] : point_edges.end[q][k][l]) = xT[k];
                }
            }
            triangles.xi[l] = edges.xi[l] = point_edges.xi[l] = xi[l];
        }
        bool apart[lanes];
        if (kind == 0) {
            detail::stays_apart<detail::FilterAxis::face_normal>(triangles, kept, 1e-14, apart);
        } else if (kind == 1) {
            detail::stays_apart<detail::FilterAxis::edge_cross>(edges, kept, 1e-14, apart);
        } else {
            detail::stays_apart<detail::FilterAxis::none>(point_edges, kept, 1e-14, apart);
        }
        for (int l = 0; l < lanes; ++l) {
            const auto distance = [&](double t) {
                Eigen::Vector3d x[4];
                for (int q = 0; q < num_a + num_b; ++q) {
                    x[q] = x0[l][q] + t * (x1[l][q] - x0[l][q]);
                }
                if (kind == 0) {
                    return std::sqrt(point_triangle_distance_squared(x[3], x[0], x[1], x[2]));
                }
                if (kind == 1) {
                    return std::sqrt(edge_edge_distance_squared(x[0], x[1], x[2], x[3]));
                }
                return std::sqrt(point_edge_distance_squared(x[2], x[0], x[1]));
            };
            const double level = xi[l] + kept * (distance(0) - xi[l]);
            double lowest = distance(0);
            for (int k = 1; k <= 64; ++k) {
                lowest = std::min(lowest, distance(T[l] * k / 64));
            }
            close += lowest <= level;
            if (apart[l]) {
                ++passed[kind];
                CAPTURE(call, l, kind, lowest, level);
                CHECK(lowest > level);
            }
        }
    }
    INFO("passed " << passed[0] << " / " << passed[1] << " / " << passed[2] << ", close " << close);
    for (const int count : passed) {
        CHECK(count > 300); // the filter does pass many pairs of each kind
    }
    CHECK(close > 40); // and the close ones, which it must reject, occur
}

TEST_CASE("Step size is the same for every broad phase, candidate order and thread count", "[step_size][threads]")
{
    Eigen::MatrixXd V0(0, 3);
    Eigen::MatrixXi F(0, 3);
    add_grid(V0, F, 24, 0.02, 0.0);
    add_grid(V0, F, 24, 0.02, 0.01);
    const CollisionMesh mesh(V0, Eigen::MatrixXi(0, 2), F);
    Eigen::MatrixXd V1 = V0;
    std::mt19937 generator(2);
    std::uniform_real_distribution<double> jitter(-0.004, 0.004);
    for (Index v = 0; v < V1.rows(); ++v) {
        V1(v, 2) += (v < V0.rows() / 2 ? 0.008 : -0.008) + jitter(generator); // the grids pass through
        V1(v, 0) += jitter(generator);
    }
    use_threads(1);
    const double reference = collision_free_step_size(mesh, V0, V1);
    CHECK(reference > 0);
    CHECK(reference < 1);
    Candidates candidates = swept_candidates(mesh, V0, V1, 0.0, BroadPhaseMethod::brute_force);
    for (const int threads : { 1, 4 }) {
        use_threads(threads);
        for (const BroadPhaseMethod method : { BroadPhaseMethod::brute_force, BroadPhaseMethod::sweep_and_prune,
                                               BroadPhaseMethod::spatial_hash, BroadPhaseMethod::bvh }) {
            CAPTURE(threads, to_string(method));
            CHECK(collision_free_step_size(mesh, V0, V1, 0.0, method) == reference);
        }
        CHECK(collision_free_step_size(candidates, mesh, V0, V1) == reference);
        // Any order of the candidates gives the same result.
        std::reverse(candidates.edge_edge.begin(), candidates.edge_edge.end());
        std::shuffle(candidates.face_vertex.begin(), candidates.face_vertex.end(), generator);
        CHECK(collision_free_step_size(candidates, mesh, V0, V1) == reference);
    }
    use_threads(4);
}
