// Mesh-level contact benchmark: broad phase, active set, barrier gradient and
// Hessian, and the collision-free step size on a pair of OBJ frames.
//
//     collisions_benchmark --mesh-dir DIR [--threads N] [--json FILE] [--repeats R]
//
// DIR holds t0.obj and t1.obj (same faces). Everything is timed at t0 with
// dhat = 1e-3 times the bounding-box diagonal; the step size is t0 -> t1 with
// additive CCD. Each figure is the best of R runs (default 3).

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/io/obj.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

template <typename F> double best_ms(const char* stage, int repeats, F&& f)
{
    fmt::print(stderr, "  timing {}...\n", stage);
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        f();
        const auto stop = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::milli>(stop - start).count());
    }
    return best;
}

[[noreturn]] void usage()
{
    fmt::print(stderr, "usage: collisions_benchmark --mesh-dir DIR [--threads N] [--json FILE] [--repeats R]\n");
    std::exit(2);
}

} // namespace

int main(int argc, char** argv)
{
    std::string mesh_dir, json_path;
    int threads = 0, repeats = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) {
            usage();
        }
        if (arg == "--mesh-dir") {
            mesh_dir = argv[++i];
        } else if (arg == "--threads") {
            threads = std::atoi(argv[++i]);
        } else if (arg == "--json") {
            json_path = argv[++i];
        } else if (arg == "--repeats") {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else {
            usage();
        }
    }
    if (mesh_dir.empty()) {
        usage();
    }
#if IPC_HAS_OPENMP
    if (threads > 0) {
        omp_set_num_threads(threads);
    }
#endif
    threads = ipc::max_threads();

    try {
        const ipc::ObjMesh t0 = ipc::read_obj(mesh_dir + "/t0.obj");
        const ipc::ObjMesh t1 = ipc::read_obj(mesh_dir + "/t1.obj");
        if (t0.vertices.rows() != t1.vertices.rows() || t0.faces != t1.faces) {
            throw ipc::invalid_argument("t0.obj and t1.obj must have the same vertices count and faces");
        }
        const ipc::CollisionMesh mesh(t0.vertices, Eigen::MatrixXi(0, 2), t0.faces);
        const double diagonal = (t0.vertices.colwise().maxCoeff() - t0.vertices.colwise().minCoeff()).norm();
        const double dhat = 1e-3 * diagonal;

        ipc::Candidates candidates;
        const double candidates_ms = best_ms("candidates", repeats, [&] { candidates = ipc::static_candidates(mesh, t0.vertices, dhat); });

        ipc::Collisions collisions;
        const double active_ms = best_ms("active set", repeats, [&] { collisions.build(candidates, mesh, t0.vertices, dhat); });

        const ipc::BarrierPotential<> barrier(dhat);
        Eigen::VectorXd gradient;
        const double gradient_ms = best_ms("barrier gradient", repeats, [&] { gradient = barrier.gradient(collisions, mesh, t0.vertices); });
        Eigen::SparseMatrix<double> hessian;
        const double hessian_ms = best_ms("barrier Hessian", repeats, [&] { hessian = barrier.hessian(collisions, mesh, t0.vertices); });
        const double hessian_psd_ms = best_ms("barrier Hessian (PSD)", repeats, [&] {
            hessian = barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::clamp);
        });

        double step = 0;
        const double step_ms = best_ms("step size", repeats, [&] { step = ipc::collision_free_step_size(mesh, t0.vertices, t1.vertices); });

        fmt::print("collisions_benchmark: {} ({} vertices, {} faces, {} edges), dhat = {:.6g}, {} thread(s), best of {}\n\n",
                   mesh_dir, mesh.num_vertices(), mesh.num_faces(), mesh.num_edges(), dhat, threads, repeats);
        fmt::print("| stage | ms | count |\n|---|---:|---:|\n");
        fmt::print("| candidates (static, bvh) | {:.1f} | {} |\n", candidates_ms, candidates.size());
        fmt::print("| active set | {:.1f} | {} (vv {}, ev {}, ee {}, fv {}) |\n", active_ms, collisions.size(),
                   collisions.vertex_vertex.size(), collisions.edge_vertex.size(), collisions.edge_edge.size(),
                   collisions.face_vertex.size());
        fmt::print("| barrier gradient | {:.1f} | |\n", gradient_ms);
        fmt::print("| barrier Hessian | {:.1f} | {} nonzeros |\n", hessian_ms, hessian.nonZeros());
        fmt::print("| barrier Hessian, PSD projected | {:.1f} | |\n", hessian_psd_ms);
        fmt::print("| step size t0 -> t1 (ACCD) | {:.1f} | alpha = {:.6g} |\n", step_ms, step);

        if (!json_path.empty()) {
            std::ofstream out(json_path);
            out << fmt::format(
                "{{\"threads\": {}, \"vertices\": {}, \"candidates_ms\": {:.3f}, \"active_set_ms\": {:.3f}, "
                "\"active_pairs\": {}, \"barrier_gradient_ms\": {:.3f}, \"barrier_hessian_ms\": {:.3f}, "
                "\"barrier_hessian_psd_ms\": {:.3f}, \"step_size_ms\": {:.3f}, \"step_size\": {:.17g}}}\n",
                threads, mesh.num_vertices(), candidates_ms, active_ms, collisions.size(), gradient_ms, hessian_ms,
                hessian_psd_ms, step_ms, step);
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "collisions_benchmark: {}\n", e.what());
        return 1;
    }
    return 0;
}
