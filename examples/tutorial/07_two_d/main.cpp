// Tutorial 07: the same library in 2D.
//
// Nothing changes but the number of columns. Give CollisionMesh positions
// with two columns (n x 2) and edges (no faces), and every mesh-level call
// works in the plane:
//
//   CollisionMesh(V, E, no faces)   <ipc/mesh/collision_mesh.hpp>
//       pairs: every vertex against every edge (point-edge) and, for free
//       particles, point-point; there are no triangles and no edge-edge pairs
//   Collisions, BarrierPotential    gradients have 2 n entries (x, y per
//                                   vertex), Hessians are 2n x 2n
//   collision_free_step_size        2D CCD of the point-edge pairs
//   has_intersections               exact: do two edges cross or touch?
//
// Scene: a soft hexagon (a mass-spring polygon) falls onto a ground made of
// two segments forming a shallow valley, and slides down into it. Implicit
// Euler with Newton, the barrier's PSD Hessian and the CCD-capped line
// search, as in tutorial 03. The program asserts that every Newton solve
// converges before its iteration cap, that no configuration intersects
// (exact test) or brings a vertex within its offset of an edge, and that
// the hexagon ends above the ground.

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Rows of an n x 2 matrix as one vector (x, y per vertex) and back: the
// layout of the library's 2D gradients and Hessians.
Eigen::VectorXd flatten(const Eigen::MatrixXd& V)
{
    const Eigen::MatrixXd Vt = V.transpose();
    return Eigen::Map<const Eigen::VectorXd>(Vt.data(), Vt.size());
}
Eigen::MatrixXd unflatten(const Eigen::VectorXd& x)
{
    return Eigen::Map<const Eigen::MatrixXd>(x.data(), 2, x.size() / 2).transpose();
}

} // namespace

int main()
{
    // ------------------------------------------------------------------
    // Vertices 0-2: the ground, a valley from (-1, 0.1) down to (0, 0) and up
    // to (1, 0.1); it does not move. Vertices 3-8: a hexagon of radius 0.1 m
    // centred at (0.4, 0.3), a little off the valley's bottom.
    const int num_ground = 3, num_hex = 6, n = num_ground + num_hex;
    Eigen::MatrixXd V(n, 2);
    V.topRows(num_ground) << -1, 0.1, 0, 0, 1, 0.1;
    for (int i = 0; i < num_hex; ++i) {
        const double angle = 2 * std::acos(-1.0) * i / num_hex + 0.2; // 2 pi i / 6, turned a little
        V.row(num_ground + i) << 0.4 + 0.1 * std::cos(angle), 0.3 + 0.1 * std::sin(angle);
    }
    // Edges: the two ground segments and the hexagon's six sides.
    Eigen::MatrixXi E(2 + num_hex, 2);
    E.row(0) << 0, 1;
    E.row(1) << 1, 2;
    for (int i = 0; i < num_hex; ++i) {
        E.row(2 + i) << num_ground + i, num_ground + (i + 1) % num_hex;
    }
    std::vector<bool> prescribed(n, false);
    prescribed[0] = prescribed[1] = prescribed[2] = true; // ground-ground pairs are never tested
    const ipc::CollisionMesh mesh = ipc::CollisionMesh::Builder(V).edges(E).prescribed_vertices(prescribed).build();
    if (mesh.dim() != 2) {
        std::fprintf(stderr, "07_two_d: expected a 2D mesh\n");
        return EXIT_FAILURE;
    }

    // Springs between every two hexagon vertices: stiff and nearly rigid.
    std::vector<std::array<int, 2>> springs;
    std::vector<double> rest;
    for (int i = num_ground; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            springs.push_back({ i, j });
            rest.push_back((V.row(i) - V.row(j)).norm());
        }
    }
    const double k = 1e4;                  // spring stiffness (N/m)
    const double h = 0.01, mass = 0.05;    // time step (s), mass per vertex (kg)
    const double dhat = 1e-3;              // barrier activation distance (m)
    const Eigen::Vector2d gravity(0, -9.81);
    const double bbox = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
    const ipc::BarrierPotential<> barrier(dhat, 10 * ipc::barrier_stiffness_bounds(bbox, mass, dhat).min);

    // Free degrees of freedom: the hexagon's, the last 2 * num_hex.
    const int free_begin = 2 * num_ground, num_free = 2 * num_hex;

    Eigen::MatrixXd velocity = Eigen::MatrixXd::Zero(n, 2);
    int failures = 0, total_iterations = 0;
    const int steps = 80, max_iterations = 50;
    for (int step = 0; step < steps; ++step) {
        Eigen::MatrixXd predicted = V + h * velocity;
        predicted.bottomRows(num_hex).rowwise() += h * h * gravity.transpose();
        const auto energy = [&](const Eigen::MatrixXd& X, const ipc::Collisions& c) {
            double e = 0.5 * mass * (X - predicted).squaredNorm();
            for (std::size_t s = 0; s < springs.size(); ++s) {
                const double stretch = (X.row(springs[s][0]) - X.row(springs[s][1])).norm() - rest[s];
                e += 0.5 * h * h * k * stretch * stretch;
            }
            return e + barrier(c, mesh, X);
        };

        Eigen::MatrixXd X = V;
        ipc::Collisions collisions;
        bool converged = false;
        for (int it = 0; it < max_iterations && !converged; ++it) {
            collisions.build(mesh, X, dhat);
            // Gradient (2n) and Hessian (2n x 2n): inertia, springs with a
            // Gauss-Newton (PSD) block, and the barrier's projected Hessian.
            Eigen::VectorXd g = mass * flatten(X - predicted) + barrier.gradient(collisions, mesh, X);
            std::vector<Eigen::Triplet<double>> triplets;
            for (int i = free_begin; i < 2 * n; ++i) {
                triplets.emplace_back(i, i, mass);
            }
            for (std::size_t s = 0; s < springs.size(); ++s) {
                const Eigen::Vector2d d = (X.row(springs[s][0]) - X.row(springs[s][1])).transpose();
                const Eigen::Vector2d f = h * h * k * (d.norm() - rest[s]) / d.norm() * d;
                const Eigen::Matrix2d block = h * h * k * d * d.transpose() / d.squaredNorm();
                for (int a = 0; a < 2; ++a) {
                    g.segment<2>(2 * springs[s][a]) += (a == 0 ? 1.0 : -1.0) * f;
                    for (int b = 0; b < 2; ++b) {
                        for (int r = 0; r < 2; ++r) {
                            for (int c = 0; c < 2; ++c) {
                                triplets.emplace_back(2 * springs[s][a] + r, 2 * springs[s][b] + c,
                                                      (a == b ? 1.0 : -1.0) * block(r, c));
                            }
                        }
                    }
                }
            }
            Eigen::SparseMatrix<double> H(2 * n, 2 * n);
            H.setFromTriplets(triplets.begin(), triplets.end());
            H += barrier.hessian(collisions, mesh, X, ipc::PSDProjection::clamp);

            // Solve on the hexagon's block (the ground does not move).
            const Eigen::SparseMatrix<double> H_free = H.bottomRightCorner(num_free, num_free);
            Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(H_free);
            Eigen::VectorXd dx = Eigen::VectorXd::Zero(2 * n);
            dx.tail(num_free) = solver.solve(-g.tail(num_free));
            ++total_iterations;
            if (solver.info() != Eigen::Success) {
                break;
            }
            if (dx.cwiseAbs().maxCoeff() < 1e-6) {
                converged = true;
                break;
            }
            // CCD-capped backtracking line search, in 2D.
            const Eigen::MatrixXd target = X + unflatten(dx);
            double alpha = ipc::collision_free_step_size(mesh, X, target);
            const double e0 = energy(X, collisions);
            Eigen::MatrixXd trial;
            ipc::Collisions trial_collisions;
            do {
                trial = X + alpha * (target - X);
                trial_collisions.build(mesh, trial, dhat);
                if (energy(trial, trial_collisions) <= e0) {
                    break;
                }
                alpha *= 0.5;
            } while (alpha > 1e-12);
            X = trial;
        }

        // The step's checks: converged; no two edges cross or touch (exact
        // 2D test); every vertex-edge pair still apart.
        const bool intersects = ipc::has_intersections(mesh, X);
        const double gap = ipc::minimum_distance(mesh, X);
        if (!converged || intersects || !(gap > 0)) {
            std::fprintf(stderr, "step %d: %s%s (smallest gap %.3g m)\n", step,
                         converged ? "" : "Newton did not converge; ", intersects ? "edges intersect" : "", gap);
            ++failures;
        }
        velocity = (X - V) / h;
        V = X;
        if (step % 10 == 9) {
            const Eigen::RowVector2d centre = V.bottomRows(num_hex).colwise().mean();
            std::printf("step %2d: centre (%.4f, %.4f) m, smallest gap %.3g mm, %zu contacts\n", step + 1,
                        centre.x(), centre.y(), 1e3 * gap, collisions.size());
        }
    }

    // Above the ground at the end: each hexagon vertex is above the valley
    // line beneath it (y > 0.1 |x|), and the hexagon went down into it.
    bool above = true;
    for (int i = num_ground; i < n; ++i) {
        above = above && V(i, 1) > 0.1 * std::abs(V(i, 0));
    }
    const double centre_x = V.bottomRows(num_hex).col(0).mean();
    std::printf("%d steps, %d Newton iterations; hexagon centre ends at x = %.4f m\n", steps, total_iterations,
                centre_x);
    if (failures > 0) {
        std::fprintf(stderr, "07_two_d: %d step(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    if (!above || !(centre_x < 0.4)) {
        std::fprintf(stderr, "07_two_d: the hexagon should end above the ground, slid toward the valley\n");
        return EXIT_FAILURE;
    }
    std::printf("07_two_d: every step converged and stayed intersection-free\n");
    return EXIT_SUCCESS;
}
