// Tutorial 03: an implicit-Euler solver with contact.
//
// A soft cube (a mass-spring network) falls onto a ground square and comes to
// rest on it. Each time step minimises the incremental potential
//
//     E(x) = 1/2 |x - x_pred|_M^2 + h^2 Psi(x) + kappa B(x),
//     x_pred = x_n + h v_n + h^2 g,
//
// (M the lumped mass, Psi the spring energy, B the barrier sum) by projected
// Newton: solve H dx = -grad E with PSD-projected spring and barrier blocks,
// cap the step with the collision-free step size, then backtrack until E
// decreases. This is the scheme of IPC (and of the Python example in
// python/examples), written out in C++ with the library's blocks:
//
//   CollisionMesh::Builder         the ground's vertices are prescribed
//       <ipc/mesh/collision_mesh.hpp>
//   Collisions, BarrierPotential   the active pairs and their barrier
//       <ipc/collisions/collisions.hpp>, <ipc/potentials/barrier_potential.hpp>
//   barrier_stiffness_bounds, initial_barrier_stiffness,
//   update_barrier_stiffness       choosing kappa (IPC section 4.3)
//       <ipc/barrier/adaptive_stiffness.hpp>
//   collision_free_step_size       the line search's cap
//       <ipc/collisions/collision_free_step_size.hpp>
//   has_intersections, minimum_distance   exact checks after each step
//       <ipc/collisions/intersection.hpp>, <ipc/collisions/minimum_distance.hpp>
//
// The program asserts: no step intersects (exact test), every Newton solve
// converges before its iteration cap, and the cube ends at rest above the
// ground, inside the barrier's activation distance.

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

// Positions are n x 3 matrices (one row per vertex, as the library takes
// them); gradients and Hessians are ordered x, y, z per vertex. These two
// helpers convert between the two layouts.
Eigen::VectorXd flatten(const Eigen::MatrixXd& V)
{
    const Eigen::MatrixXd Vt = V.transpose();
    return Eigen::Map<const Eigen::VectorXd>(Vt.data(), Vt.size());
}
Eigen::MatrixXd unflatten(const Eigen::VectorXd& x)
{
    return Eigen::Map<const Eigen::MatrixXd>(x.data(), 3, x.size() / 3).transpose();
}

/// The elastic model: Psi(x) = sum 1/2 k (|x_i - x_j| - L_ij)^2 over springs.
struct Springs {
    std::vector<std::array<int, 2>> edges;
    std::vector<double> rest;
    double k = 2e4; // N/m

    double energy(const Eigen::MatrixXd& V) const
    {
        double e = 0;
        for (std::size_t s = 0; s < edges.size(); ++s) {
            const double stretch = (V.row(edges[s][0]) - V.row(edges[s][1])).norm() - rest[s];
            e += 0.5 * k * stretch * stretch;
        }
        return e;
    }
    void add_gradient(const Eigen::MatrixXd& V, double scale, Eigen::VectorXd& g) const
    {
        for (std::size_t s = 0; s < edges.size(); ++s) {
            const Eigen::Vector3d d = (V.row(edges[s][0]) - V.row(edges[s][1])).transpose();
            const Eigen::Vector3d f = scale * k * (d.norm() - rest[s]) / d.norm() * d;
            g.segment<3>(3 * edges[s][0]) += f;
            g.segment<3>(3 * edges[s][1]) -= f;
        }
    }
    /// PSD-projected Hessian blocks k (n n^T + max(0, 1 - L/d) (I - n n^T)).
    void add_hessian(const Eigen::MatrixXd& V, double scale, Triplets& H) const
    {
        for (std::size_t s = 0; s < edges.size(); ++s) {
            const Eigen::Vector3d d = (V.row(edges[s][0]) - V.row(edges[s][1])).transpose();
            const Eigen::Vector3d n = d.normalized();
            const Eigen::Matrix3d nn = n * n.transpose();
            const Eigen::Matrix3d block
                = scale * k * (nn + std::max(0.0, 1 - rest[s] / d.norm()) * (Eigen::Matrix3d::Identity() - nn));
            for (int a = 0; a < 2; ++a) {
                for (int b = 0; b < 2; ++b) {
                    for (int r = 0; r < 3; ++r) {
                        for (int c = 0; c < 3; ++c) {
                            H.emplace_back(3 * edges[s][a] + r, 3 * edges[s][b] + c, (a == b ? 1 : -1) * block(r, c));
                        }
                    }
                }
            }
        }
    }
};

} // namespace

int main()
{
    // ------------------------------------------------------------------
    // Scene. Vertices 0-3: a 2 m ground square at z = 0 (two triangles,
    // prescribed: they never move). Vertices 4-11: a 0.2 m cube, its bottom
    // 5 cm above the ground, turned 20 degrees about z; 12 surface triangles.
    const int num_ground = 4, num_cube = 8, n = num_ground + num_cube;
    Eigen::MatrixXd V(n, 3);
    V.topRows(num_ground) << -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0;
    const Eigen::Matrix3d turn = Eigen::AngleAxisd(0.35, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    for (int i = 0; i < num_cube; ++i) {
        const Eigen::Vector3d corner(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.25 : 0.05);
        V.row(num_ground + i) = (turn * corner).transpose();
    }
    Eigen::MatrixXi F(14, 3);
    F << 0, 1, 2, 0, 2, 3,                                            // ground
        4, 6, 5, 5, 6, 7, 8, 9, 10, 9, 11, 10, 4, 5, 8, 5, 9, 8,     // cube: bottom, top, front
        6, 10, 7, 7, 10, 11, 4, 8, 6, 6, 8, 10, 5, 7, 9, 7, 11, 9;   // back, left, right
    std::vector<bool> prescribed(n, false);
    std::fill(prescribed.begin(), prescribed.begin() + num_ground, true);
    const ipc::CollisionMesh mesh = ipc::CollisionMesh::Builder(V).faces(F).prescribed_vertices(prescribed).build();

    // Every pair of cube vertices is a spring: a stiff, nearly rigid cube.
    Springs springs;
    for (int i = num_ground; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            springs.edges.push_back({ i, j });
            springs.rest.push_back((V.row(i) - V.row(j)).norm());
        }
    }

    // Physics and solver parameters (SI units).
    const double h = 0.01;            // time step (s)
    const double mass = 1.0 / num_cube; // 1 kg cube, lumped on its vertices (kg)
    const double dhat = 1e-3;         // barrier activation distance (m)
    const double newton_tolerance = 1e-6; // largest Newton step at convergence (m)
    const int max_newton_iterations = 50, steps = 60;
    const Eigen::Vector3d gravity(0, 0, -9.81);

    // Free degrees of freedom: the cube's. The ground's rows and columns are
    // dropped from the linear system with a selection matrix S.
    const int num_free = 3 * num_cube;
    Eigen::SparseMatrix<double> S(num_free, 3 * n);
    for (int i = 0; i < num_free; ++i) {
        S.insert(i, 3 * num_ground + i) = 1;
    }

    // Barrier stiffness (IPC section 4.3): bounds from the scene's size and
    // mass, a starting value per step that balances the barrier against the
    // other forces, and doubling while the gap keeps shrinking.
    const double bbox = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
    const auto bounds = ipc::barrier_stiffness_bounds(bbox, mass, dhat);
    ipc::BarrierPotential<> barrier(dhat, bounds.min);

    Eigen::MatrixXd velocity = Eigen::MatrixXd::Zero(n, 3);
    int failures = 0, total_iterations = 0;
    for (int step = 0; step < steps; ++step) {
        // The inertial target; the ground stays where it is.
        Eigen::MatrixXd predicted = V + h * velocity;
        predicted.bottomRows(num_cube).rowwise() += h * h * gravity.transpose();
        const Eigen::VectorXd x_pred = flatten(predicted);
        const auto energy = [&](const Eigen::MatrixXd& X, const ipc::Collisions& c) {
            const Eigen::VectorXd dx = flatten(X) - x_pred;
            return 0.5 * mass * dx.squaredNorm() + h * h * springs.energy(X) + barrier(c, mesh, X);
        };

        Eigen::MatrixXd X = V;
        ipc::Collisions collisions;
        bool converged = false;
        double previous_gap = ipc::minimum_distance(mesh, X);
        for (int it = 0; it < max_newton_iterations && !converged; ++it) {
            collisions.build(mesh, X, dhat);
            // Gradient of the elastic and inertial part, then of the barrier.
            Eigen::VectorXd g = mass * (flatten(X) - x_pred);
            g.head(3 * num_ground).setZero();
            springs.add_gradient(X, h * h, g);
            if (it == 0) {
                const ipc::BarrierPotential<> unit(dhat, 1.0);
                const Eigen::VectorXd g_barrier = S.transpose() * (S * unit.gradient(collisions, mesh, X));
                barrier.set_stiffness(ipc::initial_barrier_stiffness(bounds, g, g_barrier));
            }
            g += barrier.gradient(collisions, mesh, X);

            // Hessian: mass + springs (projected) + barrier (projected).
            Triplets triplets;
            for (int i = 3 * num_ground; i < 3 * n; ++i) {
                triplets.emplace_back(i, i, mass);
            }
            springs.add_hessian(X, h * h, triplets);
            Eigen::SparseMatrix<double> H(3 * n, 3 * n);
            H.setFromTriplets(triplets.begin(), triplets.end());
            H += barrier.hessian(collisions, mesh, X, ipc::PSDProjection::clamp);

            // Newton direction on the free degrees of freedom.
            const Eigen::SparseMatrix<double> H_free = S * H * S.transpose();
            Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(H_free);
            const Eigen::VectorXd dx = S.transpose() * solver.solve(-(S * g));
            ++total_iterations;
            if (solver.info() != Eigen::Success) {
                break;
            }
            if (dx.cwiseAbs().maxCoeff() < newton_tolerance) {
                converged = true; // the step is below the tolerance: X minimises E
                break;
            }

            // Line search: start at the largest collision-free step, halve
            // until the energy decreases.
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

            // Adaptive stiffness: double kappa while the smallest gap keeps
            // shrinking below a tiny fraction of the scene size.
            const double gap = ipc::minimum_distance(mesh, X);
            barrier.set_stiffness(
                ipc::update_barrier_stiffness(barrier.stiffness(), bounds.max, previous_gap, gap, bbox));
            previous_gap = gap;
        }

        // The checks of the step: converged, and intersection-free (exact).
        const bool intersects = ipc::has_intersections(mesh, X);
        const double gap = ipc::minimum_distance(mesh, X);
        if (!converged || intersects || !(gap > 0)) {
            std::fprintf(stderr, "step %d: %s%s (smallest gap %.3g m)\n", step,
                         converged ? "" : "Newton did not converge; ", intersects ? "the mesh intersects" : "", gap);
            ++failures;
        }
        velocity = (X - V) / h;
        V = X;
        if (step % 10 == 9) {
            std::printf("step %2d: lowest cube vertex at %.4f mm, speed %.2e m/s, kappa %.3g, %zu contacts\n", step + 1,
                        1e3 * V.bottomRows(num_cube).col(2).minCoeff(), velocity.rowwise().norm().maxCoeff(),
                        barrier.stiffness(), collisions.size());
        }
    }

    // At rest on the ground: above it, within dhat (the barrier carries the
    // weight), and no longer moving.
    const double lowest = V.bottomRows(num_cube).col(2).minCoeff();
    const double speed = velocity.rowwise().norm().maxCoeff();
    std::printf("%d time steps, %d Newton iterations; lowest cube vertex %.4f mm, final speed %.2e m/s\n", steps,
                total_iterations, 1e3 * lowest, speed);
    if (failures > 0) {
        std::fprintf(stderr, "03_implicit_euler: %d step(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    if (!(lowest > 0 && lowest < dhat && speed < 1e-2)) {
        std::fprintf(stderr, "03_implicit_euler: the cube did not come to rest on the ground\n");
        return EXIT_FAILURE;
    }
    std::printf("03_implicit_euler: every step converged and stayed intersection-free; the cube rests on the ground\n");
    return EXIT_SUCCESS;
}
