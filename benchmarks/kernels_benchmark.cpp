// Nanoseconds per call of the distance kernels (value, gradient, Hessian;
// automatic region choice and fixed formulas) on random configurations with
// coordinates uniform in [-1, 1]. Usage: kernels_benchmark [--n N] [--working-set W]
//
// Each row makes N calls. The inputs are generated beforehand; with
// --working-set W only W configurations are stored and the calls cycle over
// them (W = 2048 keeps the inputs in L2, so the figures measure arithmetic
// rather than memory traffic; the default W = N streams 96 MB of points).

#include "timing.hpp"

#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Core>
#include <Eigen/QR>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#if __has_include("sections/barrier_friction.hpp")
#include "sections/barrier_friction.hpp" // defines ipc::bench::run_barrier_friction_benchmarks(Table&)
#endif
#if __has_include("sections/strain_limit.hpp")
#include "sections/strain_limit.hpp" // defines ipc::bench::run_strain_limit_benchmarks(Table&)
#endif

namespace {

using Vec3 = Eigen::Vector3d;
using Vec2 = Eigen::Vector2d;

struct Stencils {
    std::vector<Vec3> v0, v1, v2, v3;
    std::vector<Vec2> w0, w1, w2;
};

Stencils make_stencils(std::size_t n)
{
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    const auto random3 = [&] { return Vec3(uniform(rng), uniform(rng), uniform(rng)); };
    const auto random2 = [&] { return Vec2(uniform(rng), uniform(rng)); };
    Stencils s;
    for (auto* v : { &s.v0, &s.v1, &s.v2, &s.v3 }) {
        v->resize(n);
    }
    for (auto* w : { &s.w0, &s.w1, &s.w2 }) {
        w->resize(n);
    }
    for (std::size_t i = 0; i < n; ++i) {
        s.v0[i] = random3();
        s.v1[i] = random3();
        s.v2[i] = random3();
        s.v3[i] = random3();
        s.w0[i] = random2();
        s.w1[i] = random2();
        s.w2[i] = random2();
    }
    return s;
}

/// Symmetric 9 x 9 matrices Q diag(lambda) Q^T with random orthogonal Q and
/// `negatives` of the nine eigenvalues negative (magnitudes log-normal).
std::vector<Eigen::Matrix<double, 9, 9>> make_symmetric_9x9(std::size_t n, int negatives)
{
    using Matrix9 = Eigen::Matrix<double, 9, 9>;
    std::mt19937_64 rng(777 + negatives);
    std::normal_distribution<double> normal;
    std::vector<Matrix9> out(n);
    for (Matrix9& A : out) {
        Matrix9 B;
        for (int k = 0; k < 81; ++k) {
            B.data()[k] = normal(rng);
        }
        const Matrix9 Q = Eigen::HouseholderQR<Matrix9>(B).householderQ();
        Eigen::Matrix<double, 9, 1> lambda;
        for (int k = 0; k < 9; ++k) {
            lambda[k] = (k < negatives ? -1.0 : 1.0) * std::exp(normal(rng));
        }
        A = Q * lambda.asDiagonal() * Q.transpose();
        A = (0.5 * (A + A.transpose())).eval();
    }
    return out;
}

/// Best of `repeats` mean nanoseconds per call of f(i), making n calls that
/// cycle over the indices [0, working_set).
template <typename F>
double best_ns_cycled(std::size_t n, std::size_t working_set, int repeats, F&& f)
{
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        std::size_t done = 0;
        while (done < n) {
            const std::size_t count = std::min(working_set, n - done);
            for (std::size_t i = 0; i < count; ++i) {
                f(i);
            }
            done += count;
        }
        const auto stop = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(stop - start).count() / double(n);
        best = ns < best ? ns : best;
    }
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t n = 1000000;
    std::size_t working_set = 0; // 0: one configuration per call
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--n") {
            n = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (std::string(argv[i]) == "--working-set") {
            working_set = std::strtoull(argv[i + 1], nullptr, 10);
        }
    }
    if (n == 0) {
        fmt::print(stderr, "--n must be a positive integer\n");
        return 1;
    }
    if (working_set == 0 || working_set > n) {
        working_set = n;
    }
    const Stencils s = make_stencils(working_set);
    const int repeats = 3;
    using ipc::bench::do_not_optimize;
    ipc::bench::Table table;

    // Pre-classified regions for the fixed-formula rows.
    std::vector<ipc::PointTriangleDistanceType> pt_types(working_set);
    std::vector<ipc::EdgeEdgeDistanceType> ee_types(working_set);
    for (std::size_t i = 0; i < working_set; ++i) {
        pt_types[i] = ipc::point_triangle_distance_type(s.v0[i], s.v1[i], s.v2[i], s.v3[i]);
        ee_types[i] = ipc::edge_edge_distance_type(s.v0[i], s.v1[i], s.v2[i], s.v3[i]);
    }

    const auto row = [&](const char* group, const char* name, auto&& f) {
        table.add(group, name, best_ns_cycled(n, working_set, repeats, f));
    };

    row("distance", "point_point value (3D)", [&](std::size_t i) { do_not_optimize(ipc::point_point_distance_squared(s.v0[i], s.v1[i])); });
    row("distance", "point_point gradient (3D)", [&](std::size_t i) { do_not_optimize(ipc::point_point_distance_squared_gradient(s.v0[i], s.v1[i])); });

    row("distance", "point_edge value (2D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared(s.w0[i], s.w1[i], s.w2[i])); });
    row("distance", "point_edge gradient (2D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared_gradient(s.w0[i], s.w1[i], s.w2[i])); });
    row("distance", "point_edge hessian (2D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared_hessian(s.w0[i], s.w1[i], s.w2[i])); });
    row("distance", "point_edge value (3D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared(s.v0[i], s.v1[i], s.v2[i])); });
    row("distance", "point_edge gradient (3D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i])); });
    row("distance", "point_edge hessian (3D, auto)", [&](std::size_t i) { do_not_optimize(ipc::point_edge_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i])); });

    row("distance", "point_line hessian (3D)", [&](std::size_t i) { do_not_optimize(ipc::point_line_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i])); });
    row("distance", "point_plane value", [&](std::size_t i) { do_not_optimize(ipc::point_plane_distance_squared(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_plane gradient", [&](std::size_t i) { do_not_optimize(ipc::point_plane_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_plane hessian", [&](std::size_t i) { do_not_optimize(ipc::point_plane_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });

    row("distance", "point_triangle type", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_type(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_triangle value (auto)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_triangle gradient (auto)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_triangle hessian (auto)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "point_triangle value (given type)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared(s.v0[i], s.v1[i], s.v2[i], s.v3[i], pt_types[i])); });
    row("distance", "point_triangle gradient (given type)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i], pt_types[i])); });
    row("distance", "point_triangle hessian (given type)", [&](std::size_t i) { do_not_optimize(ipc::point_triangle_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i], pt_types[i])); });

    row("distance", "line_line hessian", [&](std::size_t i) { do_not_optimize(ipc::line_line_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "edge_edge type", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_type(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "edge_edge value (auto)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "edge_edge gradient (auto)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "edge_edge hessian (auto)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i])); });
    row("distance", "edge_edge value (given type)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared(s.v0[i], s.v1[i], s.v2[i], s.v3[i], ee_types[i])); });
    row("distance", "edge_edge gradient (given type)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i], ee_types[i])); });
    row("distance", "edge_edge hessian (given type)", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_distance_squared_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i], ee_types[i])); });

    const double eps_x = 0.05; // mollifier active on part of the random pairs
    row("distance", "edge_edge_mollifier value", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_mollifier(s.v0[i], s.v1[i], s.v2[i], s.v3[i], eps_x)); });
    row("distance", "edge_edge_mollifier gradient", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_mollifier_gradient(s.v0[i], s.v1[i], s.v2[i], s.v3[i], eps_x)); });
    row("distance", "edge_edge_mollifier hessian", [&](std::size_t i) { do_not_optimize(ipc::edge_edge_mollifier_hessian(s.v0[i], s.v1[i], s.v2[i], s.v3[i], eps_x)); });

    // PSD projection of dense 9 x 9 matrices (an elastic element's dP/dF, a
    // 4-point stencil in its translation-free basis) by the number of
    // negative eigenvalues, next to the full eigendecomposition it avoids.
    for (const int negatives : { 0, 1, 4 }) {
        const std::size_t count = std::min<std::size_t>(working_set, 4096);
        const auto matrices = make_symmetric_9x9(count, negatives);
        const std::string name = fmt::format("project_to_psd 9x9, {} negative eigenvalue{}", negatives,
                                             negatives == 1 ? "" : "s");
        table.add("psd", name, best_ns_cycled(std::max<std::size_t>(n / 10, 1), count, repeats, [&](std::size_t i) {
            do_not_optimize(ipc::project_to_psd(matrices[i]));
        }));
        if (negatives == 4) {
            table.add("psd", "symmetric eigendecomposition 9x9 (tridiagonal QR)",
                      best_ns_cycled(std::max<std::size_t>(n / 10, 1), count, repeats, [&](std::size_t i) {
                          Eigen::Matrix<double, 9, 1> values;
                          Eigen::Matrix<double, 9, 9> vectors;
                          ipc::detail::symmetric_tridiagonal_qr_eigen<double, 9>(matrices[i], values, vectors);
                          do_not_optimize(values);
                          do_not_optimize(vectors);
                      }));
        }
    }

#if __has_include("sections/barrier_friction.hpp")
    ipc::bench::run_barrier_friction_benchmarks(table);
#endif
#if __has_include("sections/strain_limit.hpp")
    ipc::bench::run_strain_limit_benchmarks(table);
#endif

    fmt::print(
        "Kernels, {} calls on {} random configurations (coordinates uniform in [-1, 1]), best of {}\n\n",
        n, working_set, repeats);
    table.print();
    return 0;
}
