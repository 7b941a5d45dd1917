// Broad-phase benchmark: static and swept candidates of an OBJ mesh pair
// (DIR/t0.obj, DIR/t1.obj with the same faces) for every broad-phase method
// with 1 and 2 threads, after has_intersections on generated grid cloths
// (exactly flat, tilted but exactly coplanar, and perturbed; these rows run
// without --mesh-dir too).
//
//   broad_phase_benchmark [--mesh-dir DIR] [--repeats N] [--dhat-scale S] [--brute-force] [--bvh-only]
//
// dhat = S x (bounding-box diagonal of t0), S = 1e-3 by default. Brute force
// is O(n^2) and only runs on request or for meshes below 20,000 primitives.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/io/obj.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

/// Process CPU time in milliseconds (all threads together).
double cpu_ms()
{
    return 1000.0 * double(std::clock()) / double(CLOCKS_PER_SEC);
}

/// Best wall-clock and best CPU milliseconds over `repeats` runs of f. The
/// CPU figure is the sum over threads; on a shared machine it is the more
/// stable of the two.
struct Timing {
    double wall_ms = 1e300;
    double cpu_ms = 1e300;
};

template <typename F> Timing best_of(int repeats, F&& f)
{
    Timing best;
    for (int r = 0; r < repeats; ++r) {
        const double cpu_start = cpu_ms();
        const auto start = std::chrono::steady_clock::now();
        f();
        const auto stop = std::chrono::steady_clock::now();
        const double cpu = cpu_ms() - cpu_start;
        best.wall_ms = std::min(best.wall_ms, std::chrono::duration<double, std::milli>(stop - start).count());
        best.cpu_ms = std::min(best.cpu_ms, cpu);
    }
    return best;
}

void set_threads(int threads)
{
#if IPC_HAS_OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

/// An n x n vertex grid cloth of spacing 1 / 64 (two triangles per square):
/// in the plane z = 0 (flat), in the plane z = x + y / 2 (tilted; every
/// coordinate exact, so still exactly coplanar), or flat with z jittered by
/// up to 1 % of the spacing (perturbed; a height field, so intersection-free).
enum class GridShape { flat, tilted, perturbed };

struct GridCloth {
    Eigen::MatrixXd V;
    Eigen::MatrixXi F;
};

GridCloth grid_cloth(int n, GridShape shape)
{
    const double spacing = 1.0 / 64.0;
    std::mt19937_64 generator(3);
    std::uniform_real_distribution<double> jitter(-0.01 * spacing, 0.01 * spacing);
    GridCloth cloth { Eigen::MatrixXd(n * n, 3), Eigen::MatrixXi(2 * (n - 1) * (n - 1), 3) };
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const double x = i * spacing, y = j * spacing;
            const double z = shape == GridShape::tilted ? x + y / 2
                : shape == GridShape::perturbed        ? jitter(generator)
                                                       : 0.0;
            cloth.V.row(i * n + j) << x, y, z;
        }
    }
    int f = 0;
    for (int i = 0; i + 1 < n; ++i) {
        for (int j = 0; j + 1 < n; ++j) {
            const int corner = i * n + j;
            cloth.F.row(f++) << corner, corner + n, corner + n + 1;
            cloth.F.row(f++) << corner, corner + n + 1, corner + 1;
        }
    }
    return cloth;
}

/// has_intersections on flat, tilted and perturbed grid cloths, 1 and 2
/// threads (best of repeats).
void intersection_rows(int repeats)
{
    fmt::print("\n| has_intersections | threads | wall ms | cpu ms | result |\n|---|---:|---:|---:|---|\n");
    const std::pair<GridShape, const char*> shapes[] = { { GridShape::flat, "flat" },
                                                         { GridShape::tilted, "tilted flat" },
                                                         { GridShape::perturbed, "perturbed" } };
    for (const int n : { 17, 41 }) {
        for (const auto& [shape, name] : shapes) {
            const GridCloth cloth = grid_cloth(n, shape);
            const ipc::CollisionMesh mesh(cloth.V, Eigen::MatrixXi(), cloth.F);
            for (const int threads : { 1, 2 }) {
                set_threads(threads);
                bool found = false;
                const Timing time = best_of(repeats, [&] { found = ipc::has_intersections(mesh, cloth.V); });
                fmt::print("| {} {}x{} grid | {} | {:.2f} | {:.2f} | {} |\n", name, n, n, threads, time.wall_ms,
                           time.cpu_ms, found ? "intersecting" : "free");
            }
        }
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string dir;
    int repeats = 5;
    double dhat_scale = 1e-3;
    bool brute_force = false;
    bool bvh_only = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mesh-dir" && i + 1 < argc) {
            dir = argv[++i];
        } else if (arg == "--repeats" && i + 1 < argc) {
            repeats = std::atoi(argv[++i]);
        } else if (arg == "--dhat-scale" && i + 1 < argc) {
            dhat_scale = std::atof(argv[++i]);
        } else if (arg == "--brute-force") {
            brute_force = true;
        } else if (arg == "--bvh-only") {
            bvh_only = true;
        } else {
            fmt::print(stderr,
                       "usage: {} [--mesh-dir DIR] [--repeats N] [--dhat-scale S] [--brute-force] [--bvh-only]\n",
                       argv[0]);
            return 2;
        }
    }
    try {
        intersection_rows(repeats);
        if (dir.empty()) {
            return 0; // the candidate rows need a mesh pair (a folder with t0.obj and t1.obj)
        }
        const ipc::ObjMesh start = ipc::read_obj(dir + "/t0.obj");
        const ipc::ObjMesh end = ipc::read_obj(dir + "/t1.obj");
        const ipc::CollisionMesh mesh(start.vertices, Eigen::MatrixXi(), start.faces);
        const double diagonal
            = (start.vertices.colwise().maxCoeff() - start.vertices.colwise().minCoeff()).norm();
        const double dhat = dhat_scale * diagonal;
        fmt::print("mesh: {} vertices, {} edges, {} faces; bbox diagonal {:.6g}, dhat {:.6g}; threads available {}\n",
                   mesh.num_vertices(), mesh.num_edges(), mesh.num_faces(), diagonal, dhat,
                   ipc::max_threads());
        const bool small = mesh.num_edges() + mesh.num_faces() < 20000;
        std::vector<ipc::BroadPhaseMethod> methods
            = { ipc::BroadPhaseMethod::bvh, ipc::BroadPhaseMethod::spatial_hash,
                ipc::BroadPhaseMethod::sweep_and_prune };
        if (bvh_only) {
            methods = { ipc::BroadPhaseMethod::bvh };
        } else if (brute_force || small) {
            methods.push_back(ipc::BroadPhaseMethod::brute_force);
        }
        fmt::print("\n| method | threads | static wall ms | static cpu ms | static pairs | swept wall ms | swept cpu ms | swept pairs |\n");
        fmt::print("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const ipc::BroadPhaseMethod method : methods) {
            for (const int threads : { 1, 2 }) {
                set_threads(threads);
                ipc::Candidates static_result, swept_result;
                const Timing static_time = best_of(repeats, [&] {
                    static_result = ipc::static_candidates(mesh, start.vertices, dhat, method);
                });
                const Timing swept_time = best_of(repeats, [&] {
                    swept_result = ipc::swept_candidates(mesh, start.vertices, end.vertices, 0.0, method);
                });
                fmt::print("| {} | {} | {:.1f} | {:.1f} | {} | {:.1f} | {:.1f} | {} |\n", ipc::to_string(method),
                           threads, static_time.wall_ms, static_time.cpu_ms, static_result.size(),
                           swept_time.wall_ms, swept_time.cpu_ms, swept_result.size());
                if (method == methods.front() && threads == 1) {
                    fmt::print("|  | static: vv {}, ev {}, ee {}, fv {} | | | | | | |\n",
                               static_result.vertex_vertex.size(), static_result.edge_vertex.size(),
                               static_result.edge_edge.size(), static_result.face_vertex.size());
                }
            }
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 1;
    }
    return 0;
}
