// Broad-phase benchmark: static and swept candidates of an OBJ mesh pair
// (DIR/t0.obj, DIR/t1.obj with the same faces) for every broad-phase method
// with 1 and 2 threads.
//
//   broad_phase_benchmark --mesh-dir DIR [--repeats N] [--dhat-scale S] [--brute-force] [--bvh-only]
//
// dhat = S x (bounding-box diagonal of t0), S = 1e-3 by default. Brute force
// is O(n^2) and only runs on request or for meshes below 20,000 primitives.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/io/obj.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <string>
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
            fmt::print(stderr, "usage: {} --mesh-dir DIR [--repeats N] [--dhat-scale S] [--brute-force] [--bvh-only]\n",
                       argv[0]);
            return 2;
        }
    }
    if (dir.empty()) {
        fmt::print(stderr, "--mesh-dir is required (a folder with t0.obj and t1.obj)\n");
        return 2;
    }
    try {
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
