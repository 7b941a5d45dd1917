// Tutorial 06: thickness and codimensional geometry.
//
// Rods (edges on no face) and particles (vertices on no edge) have no volume:
// to collide like real yarns, hairs or grains they need a thickness. In this
// library every vertex carries a radius r (half its contact thickness,
// metres; <ipc/mesh/collision_mesh.hpp>). An edge's radius is the larger of
// its two vertices', and a pair of primitives a, b must stay farther apart
// than its offset
//
//     xi = r_a + r_b.
//
// The same xi is used everywhere a distance appears: the active set
// (d < xi + dhat, <ipc/collisions/collisions.hpp>), the barrier
// b(d^2 - xi^2, ...), the CCD's minimum distance inside the step size
// (<ipc/collisions/collision_free_step_size.hpp>) and the smallest gap
// (<ipc/collisions/minimum_distance.hpp>, which returns min (d - xi)).
//
// Scene: rod A (radius 4 mm) lies still along x; rod B (radius 2 mm, except
// its middle node, 6 mm) crosses above it along y; three particles of radius
// 3 mm hover above the rods. Everything but rod A is pushed down, frame after
// frame, each motion capped by collision_free_step_size. The program checks,
// after every frame, with its own brute-force loop over all admissible pairs,
// that no pair came within its offset xi, and that the library's smallest
// gap agrees; then that the active set carries the offsets r_a + r_b.

#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

/// Smallest d - xi over every admissible pair, by brute force: the
/// independent check of what the step size promises. The pair rules are the
/// mesh's (can_collide_*: rods and particles give edge-edge, point-edge and
/// point-point pairs; pairs sharing a vertex are excluded), the offsets its
/// *_offset functions, the distances the closed-form kernels of distance/.
double brute_force_gap(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& X)
{
    const Eigen::MatrixXi& E = mesh.edges();
    const auto x = [&](ipc::Index v) -> Eigen::Vector3d { return X.row(v).transpose(); };
    double gap = INFINITY;
    for (ipc::Index a = 0; a < mesh.num_edges(); ++a) {
        for (ipc::Index b = a + 1; b < mesh.num_edges(); ++b) {
            if (mesh.can_collide_edge_edge(a, b)) {
                const double d
                    = std::sqrt(ipc::edge_edge_distance_squared(x(E(a, 0)), x(E(a, 1)), x(E(b, 0)), x(E(b, 1))));
                gap = std::min(gap, d - mesh.edge_edge_offset(a, b));
            }
        }
        for (ipc::Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_edge_vertex(a, v)) {
                const double d = std::sqrt(ipc::point_edge_distance_squared(x(v), x(E(a, 0)), x(E(a, 1))));
                gap = std::min(gap, d - mesh.edge_vertex_offset(a, v));
            }
        }
    }
    for (ipc::Index v = 0; v < mesh.num_vertices(); ++v) {
        for (ipc::Index w = v + 1; w < mesh.num_vertices(); ++w) {
            if (mesh.can_collide_vertex_vertex(v, w)) {
                const double d = std::sqrt(ipc::point_point_distance_squared(x(v), x(w)));
                gap = std::min(gap, d - mesh.vertex_vertex_offset(v, w));
            }
        }
    }
    return gap;
}

} // namespace

int main()
{
    // ------------------------------------------------------------------
    // Vertices 0-4: rod A along x at z = 0. Vertices 5-9: rod B along y,
    // 5 cm up, its middle node 7 right above rod A. Vertices 10-12: particles.
    Eigen::MatrixXd V(13, 3);
    Eigen::VectorXd radii(13);
    for (int i = 0; i < 5; ++i) {
        V.row(i) << -0.2 + 0.1 * i, 0, 0;      // rod A
        radii[i] = 4e-3;
        V.row(5 + i) << 0.01, -0.2 + 0.1 * i, 0.05; // rod B
        radii[5 + i] = i == 2 ? 6e-3 : 2e-3;
    }
    V.row(10) << -0.15, 0.002, 0.0471; // above rod A, a little farther (d - xi) from it than rod B
    V.row(11) << 0.15, -0.003, 0.1;    // above rod A, far
    V.row(12) << 0.01, 0.2, 0.0555;    // 0.5 mm (d - xi) above rod B's end node 9
    radii.tail(3).setConstant(3e-3);
    // Rod edges: consecutive nodes. No faces.
    Eigen::MatrixXi E(8, 2);
    E << 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9;
    const ipc::CollisionMesh mesh(V, E, Eigen::MatrixXi(0, 3), radii);

    int failures = 0;
    const auto check = [&](bool ok, const char* what) {
        std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
        failures += ok ? 0 : 1;
    };

    // What the mesh made of it: 8 rod edges, 3 particles; edge radii are the
    // larger vertex radius, so rod B's two middle edges are 6 mm thick.
    check(mesh.rod_edges().size() == 8 && mesh.particles().size() == 3, "8 rod edges and 3 particles");
    check(mesh.edge_radii()[5] == 6e-3 && mesh.edge_radii()[4] == 2e-3,
          "an edge's radius is its larger vertex radius (rod B: 2 mm, 6 mm at the middle)");
    check(mesh.edge_edge_offset(2, 5) == 4e-3 + 6e-3, "xi of rod A's edge 2 and rod B's edge 5 is 4 + 6 mm");

    // ------------------------------------------------------------------
    // The motion: rod B and the particles go 2 cm down per frame. Each
    // frame's motion is capped by the collision-free step size, which uses
    // each pair's xi as the CCD's minimum distance (ACCD keeps 10% of the
    // remaining gap, so capped frames approach contact geometrically).
    Eigen::MatrixXd X = V;
    Eigen::MatrixXd displacement = Eigen::MatrixXd::Zero(13, 3);
    displacement.bottomRows(8).col(2).setConstant(-0.02);
    int bad_frames = 0;
    for (int frame = 0; frame < 8; ++frame) {
        const double alpha = ipc::collision_free_step_size(mesh, X, X + displacement);
        X += alpha * displacement;
        const double gap = brute_force_gap(mesh, X);
        const double library_gap = ipc::minimum_distance(mesh, X);
        std::printf("frame %d: step size %.4f, smallest d - xi %.3e m (library: %.3e m)\n", frame, alpha, gap,
                    library_gap);
        if (!(gap > 0) || std::abs(gap - library_gap) > 1e-12) {
            std::fprintf(stderr, "frame %d: a pair came within its offset, or the gaps disagree\n", frame);
            ++bad_frames;
        }
    }
    check(bad_frames == 0, "no pair came within xi = r_a + r_b in any frame; the library's gap agrees");
    // Rod B's thick middle node ends within a tenth of a millimetre of rod
    // A's surface: its centre line is xi = 6 + 4 mm from rod A's.
    const Eigen::Vector3d node = X.row(7).transpose(), a0 = X.row(2).transpose(), a1 = X.row(3).transpose();
    const double rod_distance = std::sqrt(ipc::point_edge_distance_squared(node, a0, a1));
    std::printf("rod B's node 7 is %.6f mm from rod A's centre line (xi = 10 mm)\n", 1e3 * rod_distance);
    check(rod_distance > 10e-3 && rod_distance < 10.1e-3, "the motion went on until the thick rods nearly touch");

    // ------------------------------------------------------------------
    // The active set at the end: rod B's middle is about 10 mm (= xi) from
    // rod A's centre line, far more than dhat = 1 mm, yet its pairs are
    // active, because activity is d < xi + dhat; so are particle 10 (near
    // rod A) and particle 12 (near rod B's end, a point-point stencil).
    // Every stencil carries the offset of its primitives.
    const double dhat = 1e-3;
    ipc::Collisions collisions;
    collisions.build(mesh, X, dhat);
    bool offsets_ok = collisions.edge_vertex.size() >= 2 && collisions.vertex_vertex.size() == 1;
    for (const ipc::EdgeEdgeCollision& c : collisions.edge_edge) {
        offsets_ok = offsets_ok && c.offset == mesh.edge_edge_offset(c.edge0, c.edge1);
    }
    for (const ipc::EdgeVertexCollision& c : collisions.edge_vertex) {
        // A point-edge stencil: vertices (point, e0, e1); the edge's radius
        // is the larger of e0's and e1's.
        const double r_edge = std::max(radii[c.vertices[1]], radii[c.vertices[2]]);
        offsets_ok = offsets_ok && c.offset == radii[c.vertices[0]] + r_edge;
    }
    std::printf("active set: %zu edge-edge, %zu point-edge, %zu point-point stencils\n", collisions.edge_edge.size(),
                collisions.edge_vertex.size(), collisions.vertex_vertex.size());
    check(offsets_ok, "active pairs exist and every stencil's offset is r_a + r_b");

    // The barrier is finite there (every pair is outside its offset) and
    // positive (pairs are within xi + dhat).
    const ipc::BarrierPotential<> barrier(dhat, 1.0);
    const double energy = barrier(collisions, mesh, X);
    check(std::isfinite(energy) && energy > 0, "the barrier is finite and positive at the final configuration");

    if (failures > 0) {
        std::fprintf(stderr, "06_thickness_codim: %d check(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    std::printf("06_thickness_codim: all checks passed\n");
    return EXIT_SUCCESS;
}
