// Mesh-level contact benchmark: broad phase, active set, barrier gradient and
// Hessian, and the collision-free step size on a pair of OBJ frames.
//
//     collisions_benchmark --mesh-dir DIR [--threads N] [--json FILE] [--repeats R]
//
// DIR holds t0.obj and t1.obj (same faces). Everything is timed at t0 with
// dhat = 1e-3 times the bounding-box diagonal; the step size is t0 -> t1 with
// additive CCD. Each figure is the best of R runs (default 3). Repeated
// queries on one mesh refit the broad phase's kept trees (BVH::refit); the
// rows "after small motions" and "whole steps" alternate positions so that
// each call refits, or rebuilds, after a motion. A breakdown of the
// candidates and step-size stages (boxes, BVH builds and refits, traversals,
// sort, output, narrow phase) is printed under the table. The candidates, active
// set and step size are timed again with a collision filter (one group per
// connected piece, the first two pieces never colliding).

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/io/obj.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/SparseCore>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
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

/// Parts of candidates_from_boxes for a 3D triangle mesh, timed one by one
/// with the same internals (best of repeats each).
struct BroadPhaseParts {
    double build_ms = 0, refit_ms = 0, face_vertex_ms = 0, edge_edge_ms = 0, sort_ms = 0, output_ms = 0;
};

BroadPhaseParts broad_phase_parts(const ipc::CollisionMesh& mesh, const ipc::PrimitiveBoxes& boxes, int repeats)
{
    namespace d = ipc::detail;
    BroadPhaseParts parts;
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    const std::vector<ipc::Index> all_edges = d::iota_ids(mesh.num_edges()), all_faces = d::iota_ids(mesh.num_faces());
    d::PrimitiveTree<2> edges;
    d::PrimitiveTree<3> faces;
    d::PrimitiveTree<1> vertices;
    parts.build_ms = best_ms("  builds", repeats, [&] {
        edges.build(boxes.edges, all_edges, [&](ipc::Index e, int k) { return E(e, k); });
        faces.build(boxes.faces, all_faces, [&](ipc::Index f, int k) { return F(f, k); });
        vertices.build(boxes.vertices, mesh.collision_vertices(), [](ipc::Index v, int) { return v; });
    });
    // Refitting the same trees to the same boxes (a refit's cost does not
    // depend on how far the boxes moved, once it accepts them).
    parts.refit_ms = best_ms("  refits", repeats, [&] {
        edges.tree.refit(boxes.edges);
        faces.tree.refit(boxes.faces);
        vertices.tree.refit(boxes.vertices);
    });
    const int vertex_shift = d::bits_for(std::size_t(mesh.num_vertices()));
    const int edge_shift = d::bits_for(std::size_t(mesh.num_edges()));
    std::vector<std::uint64_t> keys;
    parts.face_vertex_ms = best_ms("  face-vertex pairs", repeats, [&] { d::tree_pair_keys(faces, &vertices, vertex_shift, true, keys); });
    parts.edge_edge_ms = best_ms("  edge-edge pairs", repeats, [&] { d::tree_pair_keys<2, 2>(edges, nullptr, edge_shift, true, keys); });
    // The sort's share: the same traversal with the keys left in the order
    // found (bucket counts, scatter and bucket sorts are the difference).
    std::vector<std::uint64_t> unsorted;
    parts.sort_ms = parts.edge_edge_ms - best_ms("  edge-edge pairs, unsorted", repeats, [&] {
        d::tree_pair_keys<2, 2>(edges, nullptr, edge_shift, false, unsorted);
    });
    std::vector<ipc::EdgeEdgeCandidate> out;
    parts.output_ms = best_ms("  output", repeats, [&] {
        d::candidates_from_keys(keys, edge_shift, [](ipc::Index a, ipc::Index b) { return ipc::EdgeEdgeCandidate { a, b }; }, out);
    });
    return parts;
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
        // The same into one Candidates kept across calls (its memory reused),
        // as a simulator querying every iteration would do.
        ipc::Candidates kept;
        const double candidates_kept_ms = best_ms("candidates (output kept)", repeats, [&] { ipc::static_candidates(mesh, t0.vertices, dhat, kept); });

        // Kept across calls that move: the broad phase keeps its trees
        // between queries on one mesh and refits them when the motion is
        // small (here a tenth of t0 -> t1, as late Newton iterations), or
        // rebuilds them when it is not (the whole of t0 -> t1). Each call
        // comes after a call at other positions.
        const Eigen::MatrixXd tenth = 0.9 * t0.vertices + 0.1 * t1.vertices;
        int call = 0;
        const double candidates_refit_ms = best_ms("candidates (small motions: trees refitted)", repeats, [&] {
            ipc::static_candidates(mesh, call++ % 2 ? tenth : t0.vertices, dhat, kept);
        });
        call = 0;
        const double candidates_rebuilt_ms = best_ms("candidates (whole steps: trees rebuilt)", repeats, [&] {
            ipc::static_candidates(mesh, call++ % 2 ? t1.vertices : t0.vertices, dhat, kept);
        });
        ipc::static_candidates(mesh, t0.vertices, dhat, kept);

        ipc::Collisions collisions;
        const double active_ms = best_ms("active set", repeats, [&] { collisions.build(candidates, mesh, t0.vertices, dhat); });

        const ipc::BarrierPotential<> barrier(dhat);
        Eigen::VectorXd gradient;
        const double gradient_ms = best_ms("barrier gradient", repeats, [&] { gradient = barrier.gradient(collisions, mesh, t0.vertices); });
        Eigen::SparseMatrix<double> hessian;
        // As for a new collision set each call: the set's kept colouring and
        // Hessian pattern are dropped first (Collisions::stencil_assembly_cache).
        const double hessian_ms = best_ms("barrier Hessian", repeats, [&] {
            collisions.stencil_assembly_cache().clear();
            hessian = barrier.hessian(collisions, mesh, t0.vertices);
        });
        const double hessian_psd_ms = best_ms("barrier Hessian (PSD)", repeats, [&] {
            collisions.stencil_assembly_cache().clear();
            hessian = barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::clamp);
        });
        // The same into one matrix kept across calls (its storage reused), for
        // the same set (its pattern kept), as in the Newton iterations of a
        // step whose active pairs do not change.
        Eigen::SparseMatrix<double> kept_hessian;
        const double hessian_kept_ms = best_ms("barrier Hessian (output kept)", repeats, [&] {
            barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::none, kept_hessian);
        });
        const double hessian_psd_kept_ms = best_ms("barrier Hessian (PSD, output kept)", repeats, [&] {
            barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::clamp, kept_hessian);
        });
        // Its lower triangle only, as a sparse Cholesky factorization reads it.
        ipc::AssemblyLayout lower;
        lower.triangle = ipc::SparseTriangle::lower;
        Eigen::SparseMatrix<double> kept_lower;
        const double hessian_kept_lower_ms = best_ms("barrier Hessian (lower, output kept)", repeats, [&] {
            barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::none, kept_lower, lower);
        });
        const double hessian_psd_kept_lower_ms = best_ms("barrier Hessian (PSD, lower, output kept)", repeats, [&] {
            barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::clamp, kept_lower, lower);
        });
        // The collision mesh as part of a simulation mesh of twice as many
        // vertices (vertex v is vertex 2 v there): the map folded into the
        // scatter, against the Hessian moved there afterwards by the product
        // with the selection matrix S (S H S^T).
        const ipc::Index nv = mesh.num_vertices();
        std::vector<ipc::Index> full_vertex(static_cast<std::size_t>(nv));
        Eigen::SparseMatrix<double> selection(3 * 2 * nv, 3 * nv);
        {
            std::vector<Eigen::Triplet<double>> ones;
            for (ipc::Index v = 0; v < nv; ++v) {
                full_vertex[std::size_t(v)] = 2 * v;
                for (int c = 0; c < 3; ++c) {
                    ones.emplace_back(int(3 * 2 * v + c), int(3 * v + c), 1.0);
                }
            }
            selection.setFromTriplets(ones.begin(), ones.end());
        }
        ipc::Collisions mapped_collisions = collisions; // its own kept assembly
        ipc::AssemblyLayout mapped;
        mapped.vertices = ipc::VertexMap(full_vertex, 2 * nv);
        Eigen::SparseMatrix<double> kept_mapped, kept_selected;
        const double hessian_kept_mapped_ms = best_ms("barrier Hessian (vertex map, output kept)", repeats, [&] {
            barrier.hessian(mapped_collisions, mesh, t0.vertices, ipc::PSDProjection::none, kept_mapped, mapped);
        });
        const double hessian_kept_selection_ms = best_ms("barrier Hessian (then S H S^T)", repeats, [&] {
            barrier.hessian(collisions, mesh, t0.vertices, ipc::PSDProjection::none, kept_hessian);
            kept_selected = selection * kept_hessian * selection.transpose();
        });

        double step = 0;
        const double step_ms = best_ms("step size", repeats, [&] { step = ipc::collision_free_step_size(mesh, t0.vertices, t1.vertices); });
        // The same step from a start a tenth of the way on, alternating with
        // t0 -> t1 (small motions of the swept boxes: trees refitted).
        const Eigen::MatrixXd tenth_end = tenth + (t1.vertices - t0.vertices);
        call = 0;
        const double step_refit_ms = best_ms("step size (small motions: trees refitted)", repeats, [&] {
            const bool moved = call++ % 2 != 0;
            ipc::collision_free_step_size(mesh, moved ? tenth : t0.vertices, moved ? tenth_end : t1.vertices);
        });

        // The same stages with a collision filter: one group per connected
        // piece (sheet), the first two pieces never collide.
        ipc::CollisionMesh filtered = mesh;
        std::vector<int> parent(std::size_t(mesh.num_vertices()));
        for (std::size_t v = 0; v < parent.size(); ++v) {
            parent[v] = int(v);
        }
        const auto root = [&](int v) {
            while (parent[std::size_t(v)] != v) {
                v = parent[std::size_t(v)] = parent[std::size_t(parent[std::size_t(v)])];
            }
            return v;
        };
        for (ipc::Index e = 0; e < mesh.num_edges(); ++e) {
            parent[std::size_t(root(mesh.edges()(e, 0)))] = root(mesh.edges()(e, 1));
        }
        Eigen::VectorXi groups(mesh.num_vertices());
        std::vector<int> group_of_root(parent.size(), -1);
        int num_groups = 0;
        for (ipc::Index v = 0; v < mesh.num_vertices(); ++v) {
            int& g = group_of_root[std::size_t(root(int(v)))];
            if (g < 0) {
                g = num_groups++;
            }
            groups[v] = g;
        }
        filtered.set_collision_groups(groups);
        if (num_groups > 1) {
            filtered.disable_collisions(0, 1);
        } else {
            filtered.set_can_collide([](ipc::Index, ipc::Index) { return true; });
        }
        ipc::Candidates filtered_candidates;
        const double filtered_candidates_ms = best_ms("candidates (filter)", repeats, [&] { ipc::static_candidates(filtered, t0.vertices, dhat, filtered_candidates); });
        ipc::Collisions filtered_collisions;
        const double filtered_active_ms = best_ms("active set (filter)", repeats, [&] { filtered_collisions.build(filtered_candidates, filtered, t0.vertices, dhat); });
        // The filter's own cost in the build: the same unfiltered candidates.
        const double filtered_active_all_ms = best_ms("active set (filter, unfiltered candidates)", repeats, [&] { filtered_collisions.build(kept, filtered, t0.vertices, dhat); });
        double filtered_step = 0;
        const double filtered_step_ms = best_ms("step size (filter)", repeats, [&] { filtered_step = ipc::collision_free_step_size(filtered, t0.vertices, t1.vertices); });

        // Breakdown of the two broad-phase-heavy stages (each part timed on
        // its own, best of R; the parts add up to about the stage).
        ipc::PrimitiveBoxes boxes;
        const double static_boxes_ms = best_ms("  static boxes", repeats, [&] { boxes = ipc::static_boxes(mesh, t0.vertices, dhat); });
        const BroadPhaseParts static_parts = broad_phase_parts(mesh, boxes, repeats);
        ipc::PrimitiveBoxes swept;
        const double swept_boxes_ms = best_ms("  swept boxes", repeats, [&] { swept = ipc::swept_boxes(mesh, t0.vertices, t1.vertices); });
        ipc::Candidates swept_candidates;
        const double swept_candidates_ms = best_ms("  swept candidates", repeats, [&] { swept_candidates = ipc::candidates_from_boxes(mesh, swept); });
        const BroadPhaseParts swept_parts = broad_phase_parts(mesh, swept, repeats);
        const double narrow_ms = best_ms("  narrow phase", repeats, [&] { ipc::collision_free_step_size(swept_candidates, mesh, t0.vertices, t1.vertices); });

        fmt::print("collisions_benchmark: {} ({} vertices, {} faces, {} edges), dhat = {:.6g}, {} thread(s), best of {}\n\n",
                   mesh_dir, mesh.num_vertices(), mesh.num_faces(), mesh.num_edges(), dhat, threads, repeats);
        fmt::print("| stage | ms | count |\n|---|---:|---:|\n");
        fmt::print("| candidates (static, bvh) | {:.1f} | {} |\n", candidates_ms, candidates.size());
        fmt::print("| candidates, into a kept Candidates | {:.1f} | {} |\n", candidates_kept_ms, kept.size());
        fmt::print("| the same after small motions (trees refitted) / whole steps (rebuilt) | {:.1f} / {:.1f} | |\n",
                   candidates_refit_ms, candidates_rebuilt_ms);
        fmt::print("| active set | {:.1f} | {} (vv {}, ev {}, ee {}, fv {}) |\n", active_ms, collisions.size(),
                   collisions.vertex_vertex.size(), collisions.edge_vertex.size(), collisions.edge_edge.size(),
                   collisions.face_vertex.size());
        fmt::print("| barrier gradient | {:.1f} | |\n", gradient_ms);
        fmt::print("| barrier Hessian, new set | {:.1f} | {} nonzeros |\n", hessian_ms, hessian.nonZeros());
        fmt::print("| barrier Hessian, PSD projected, new set | {:.1f} | |\n", hessian_psd_ms);
        fmt::print("| barrier Hessian, same set, into a kept matrix | {:.1f} | |\n", hessian_kept_ms);
        fmt::print("| barrier Hessian, PSD projected, same set, into a kept matrix | {:.1f} | |\n", hessian_psd_kept_ms);
        fmt::print("| the same, lower triangle only (none / PSD projected) | {:.1f} / {:.1f} | {} nonzeros |\n",
                   hessian_kept_lower_ms, hessian_psd_kept_lower_ms, kept_lower.nonZeros());
        fmt::print("| barrier Hessian into a mesh of 2n vertices: vertex map / S H S^T after | {:.1f} / {:.1f} | |\n",
                   hessian_kept_mapped_ms, hessian_kept_selection_ms);
        fmt::print("| step size t0 -> t1 (ACCD) | {:.1f} | alpha = {:.6g} |\n", step_ms, step);
        fmt::print("| the same after small motions (trees refitted) | {:.1f} | |\n", step_refit_ms);
        fmt::print("| candidates, kept, collision filter ({} groups, pieces 0-1 never collide) | {:.1f} | {} |\n", num_groups,
                   filtered_candidates_ms, filtered_candidates.size());
        fmt::print("| active set, collision filter | {:.1f} | {} |\n", filtered_active_ms, filtered_collisions.size());
        fmt::print("| active set, collision filter, from the unfiltered candidates | {:.1f} | |\n", filtered_active_all_ms);
        fmt::print("| step size, collision filter | {:.1f} | alpha = {:.6g} |\n", filtered_step_ms, filtered_step);

        fmt::print("\nBreakdown (ms, each part timed separately):\n\n| part | candidates | step size |\n|---|---:|---:|\n");
        fmt::print("| primitive boxes (static / swept) | {:.1f} | {:.1f} |\n", static_boxes_ms, swept_boxes_ms);
        fmt::print("| BVH builds (edges, faces, vertices) | {:.1f} | {:.1f} |\n", static_parts.build_ms, swept_parts.build_ms);
        fmt::print("| BVH refits instead | {:.1f} | {:.1f} |\n", static_parts.refit_ms, swept_parts.refit_ms);
        fmt::print("| face-vertex traversal + sort | {:.1f} | {:.1f} |\n", static_parts.face_vertex_ms, swept_parts.face_vertex_ms);
        fmt::print("| edge-edge self traversal + sort | {:.1f} | {:.1f} |\n", static_parts.edge_edge_ms, swept_parts.edge_edge_ms);
        fmt::print("|   of which the sort (against unsorted keys) | {:.1f} | {:.1f} |\n", static_parts.sort_ms, swept_parts.sort_ms);
        fmt::print("| candidate output | {:.1f} | {:.1f} |\n", static_parts.output_ms, swept_parts.output_ms);
        fmt::print("| swept candidates (whole) | | {:.1f} ({} pairs) |\n", swept_candidates_ms, swept_candidates.size());
        fmt::print("| narrow phase (sampled bound, filter, ACCD, reductions) | | {:.1f} |\n", narrow_ms);

        if (!json_path.empty()) {
            std::ofstream out(json_path);
            out << fmt::format(
                "{{\"threads\": {}, \"vertices\": {}, \"candidates_ms\": {:.3f}, \"active_set_ms\": {:.3f}, "
                "\"active_pairs\": {}, \"barrier_gradient_ms\": {:.3f}, \"barrier_hessian_ms\": {:.3f}, "
                "\"barrier_hessian_psd_ms\": {:.3f}, \"step_size_ms\": {:.3f}, \"step_size\": {:.17g}, \"candidates_kept_ms\": {:.3f}, "
                "\"barrier_hessian_kept_ms\": {:.3f}, \"barrier_hessian_psd_kept_ms\": {:.3f}, "
                "\"barrier_hessian_kept_lower_ms\": {:.3f}, \"barrier_hessian_psd_kept_lower_ms\": {:.3f}, "
                "\"barrier_hessian_kept_mapped_ms\": {:.3f}, \"barrier_hessian_kept_selection_ms\": {:.3f}, "
                "\"candidates_refit_ms\": {:.3f}, \"candidates_rebuilt_ms\": {:.3f}, \"step_size_refit_ms\": {:.3f}}}\n",
                threads, mesh.num_vertices(), candidates_ms, active_ms, collisions.size(), gradient_ms, hessian_ms,
                hessian_psd_ms, step_ms, step, candidates_kept_ms, hessian_kept_ms, hessian_psd_kept_ms,
                hessian_kept_lower_ms, hessian_psd_kept_lower_ms, hessian_kept_mapped_ms, hessian_kept_selection_ms,
                candidates_refit_ms, candidates_rebuilt_ms, step_refit_ms);
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "collisions_benchmark: {}\n", e.what());
        return 1;
    }
    return 0;
}
