// Tutorial 05: analytic obstacles.
//
// Static obstacles (floors, walls, rollers, tools) need not be meshed: the
// library takes them as exact signed-distance shapes, phi(p) < 0 inside,
// phi = 0 on the surface, grad phi the outward normal:
//
//   PlaneObstacle, SphereObstacle,     <ipc/obstacles/sdf_obstacle.hpp>
//   BoxObstacle, CapsuleObstacle
//   ObstacleSet                         <ipc/obstacles/obstacle_set.hpp>
//       a list of them (and of your own callback shapes)
//   ObstacleCollisions::build           <ipc/obstacles/obstacle_collisions.hpp>
//       the active (vertex, obstacle) contacts: phi < r + dhat
//   BarrierPotential overloads          <ipc/potentials/barrier_potential.hpp>
//       the same barrier as for mesh pairs, with phi in place of the distance
//   obstacle_collision_free_step_size   <ipc/obstacles/obstacle_ccd.hpp>
//       exact for planes, conservative for curved shapes
//
// Scene: sixteen small balls (free particles of radius r = 1 cm, a
// CollisionMesh with no edges or faces) rain onto a sphere lying on a floor
// plane. They also collide with each other, through the ordinary mesh-mesh
// pipeline (Collisions): the two sets simply add up in the incremental
// potential, and the step size is the smaller of the two.
//
// The program asserts, after every time step, that every ball is outside
// every obstacle by more than its radius (phi > r, the exact signed
// distance), that the balls never overlap, and that each Newton solve
// converged; and that the sphere was hit and all balls end on the floor.

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main()
{
    // ------------------------------------------------------------------
    // The obstacles: the floor z = 0 (outward normal +z) and a sphere of
    // radius 0.2 m lying on it.
    ipc::SphereObstacle sphere;
    sphere.center = Eigen::Vector3d(0, 0, 0.2);
    sphere.radius = 0.2;
    const ipc::ObstacleSet obstacles({ ipc::PlaneObstacle(Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()), sphere });
    obstacles.check("05_obstacles"); // validates the shapes once (throws with a message otherwise)

    // ------------------------------------------------------------------
    // The balls: a 4 x 4 grid, 8 cm apart, 0.2 m above the sphere's top.
    // With no edges or faces every vertex is a free particle; its radius
    // (half its contact thickness) is the offset it keeps from obstacles.
    const int n = 16;
    const double r = 0.01;
    Eigen::MatrixXd V(n, 3);
    for (int i = 0; i < n; ++i) {
        V.row(i) << -0.12 + 0.08 * (i % 4), -0.13 + 0.08 * (i / 4), 0.6;
    }
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), Eigen::MatrixXi(0, 3), Eigen::VectorXd::Constant(n, r));

    const double h = 0.01, mass = 0.01, dhat = 2e-3; // s, kg per ball, m
    const Eigen::Vector3d gravity(0, 0, -9.81);
    const double bbox = 1.0; // the scene's size (m), for the stiffness bounds
    const ipc::BarrierPotential<> barrier(dhat, ipc::barrier_stiffness_bounds(bbox, mass, dhat, 2 * r).min);

    Eigen::MatrixXd velocity = Eigen::MatrixXd::Zero(n, 3);
    int failures = 0, sphere_contacts = 0, capped_steps = 0;
    double closest = 1e30; // smallest phi - r over the run (m)
    const int steps = 100;
    for (int step = 0; step < steps; ++step) {
        Eigen::MatrixXd predicted = V + h * velocity;
        predicted.rowwise() += h * h * gravity.transpose();

        // E(X) = 1/2 m |X - predicted|^2 + B(mesh pairs) + B(obstacle contacts).
        ipc::Collisions pairs;
        ipc::ObstacleCollisions contacts;
        const auto build = [&](const Eigen::MatrixXd& X) {
            pairs.build(mesh, X, dhat);
            contacts.build(mesh, X, obstacles, dhat);
        };
        const auto energy = [&](const Eigen::MatrixXd& X) {
            return 0.5 * mass * (X - predicted).squaredNorm() + barrier(pairs, mesh, X) + barrier(contacts, mesh, X);
        };

        Eigen::MatrixXd X = V;
        bool converged = false;
        for (int it = 0; it < 50 && !converged; ++it) {
            build(X);
            for (const ipc::VertexObstacleCollision& c : contacts.vertex_obstacle) {
                sphere_contacts += c.obstacle == 1; // obstacle 1 of the set: the sphere
            }
            // Gradient (x, y, z per ball) and PSD-projected Hessian; both
            // barrier sets contribute in the same layout.
            const Eigen::MatrixXd Xt = (X - predicted).transpose();
            Eigen::VectorXd g = mass * Eigen::Map<const Eigen::VectorXd>(Xt.data(), Xt.size());
            g += barrier.gradient(pairs, mesh, X) + barrier.gradient(contacts, mesh, X);
            Eigen::SparseMatrix<double> H = barrier.hessian(pairs, mesh, X, ipc::PSDProjection::clamp)
                + barrier.hessian(contacts, mesh, X, ipc::PSDProjection::clamp);
            for (int i = 0; i < 3 * n; ++i) {
                H.coeffRef(i, i) += mass;
            }
            const Eigen::VectorXd dx = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>(H).solve(-g);
            if (dx.cwiseAbs().maxCoeff() < 1e-7) {
                converged = true;
                break;
            }
            // The step size: the smaller of the mesh's (particles against
            // each other) and the obstacles'.
            const Eigen::MatrixXd target
                = X + Eigen::Map<const Eigen::MatrixXd>(dx.data(), 3, n).transpose();
            double alpha = std::min(ipc::collision_free_step_size(mesh, X, target),
                                    ipc::obstacle_collision_free_step_size(mesh, X, target, obstacles));
            capped_steps += alpha < 1;
            const double e0 = energy(X);
            Eigen::MatrixXd trial;
            do {
                trial = X + alpha * (target - X);
                build(trial);
                if (energy(trial) <= e0) {
                    break;
                }
                alpha *= 0.5;
            } while (alpha > 1e-12);
            X = trial;
        }

        // The exact check: every ball's signed distance to every obstacle
        // exceeds its radius, and no two balls overlap (distance > 2 r).
        double step_closest = 1e30;
        for (int i = 0; i < n; ++i) {
            for (ipc::Index k = 0; k < obstacles.size(); ++k) {
                step_closest = std::min(step_closest, obstacles.signed_distance(k, X.row(i).transpose()) - r);
            }
        }
        closest = std::min(closest, step_closest);
        const double ball_gap = ipc::minimum_distance(mesh, X); // distance - 2 r over ball pairs
        if (!converged || !(step_closest > 0) || !(ball_gap > 0)) {
            std::fprintf(stderr, "step %d: %s, smallest phi - r = %.3g m, smallest ball gap %.3g m\n", step,
                         converged ? "converged" : "Newton did not converge", step_closest, ball_gap);
            ++failures;
        }
        velocity = (X - V) / h;
        V = X;
    }

    const double lowest = V.col(2).minCoeff(), highest = V.col(2).maxCoeff();
    std::printf("%d steps: %d sphere contacts seen, %d capped line searches; smallest phi - r over the run "
                "%.3g mm; balls end between z = %.4f and %.4f m\n",
                steps, sphere_contacts, capped_steps, 1e3 * closest, lowest, highest);
    if (failures > 0) {
        std::fprintf(stderr, "05_obstacles: %d step(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    if (sphere_contacts == 0 || !(lowest > r && highest < r + dhat)) {
        std::fprintf(stderr, "05_obstacles: expected the balls to hit the sphere and end on the floor\n");
        return EXIT_FAILURE;
    }
    std::printf("05_obstacles: every ball stayed outside both obstacles by more than its radius\n");
    return EXIT_SUCCESS;
}
