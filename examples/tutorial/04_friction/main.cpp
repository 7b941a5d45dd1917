// Tutorial 04: lagged friction.
//
// A small block (here a point mass: a free particle, the simplest body that
// touches a triangle) rests on, or slides over, a ground square. Friction in
// IPC is a potential added to the incremental potential of each time step:
//
//     E(x) = 1/2 m |x - x_pred|^2 + kappa B(x) + D(x - x_n)
//
// D(U) = sum_k mu lambda_k f0(|T_k^T U_k|) is the lagged friction potential
// (IPC section 5.3): the normal force lambda_k, the tangent basis T_k and the
// closest points of each contact are evaluated at the start of the step x_n
// and held fixed while E is minimised; f0 smooths the slip magnitude below
// eps = eps_v h, so that sticking is a smooth minimum of E rather than a
// kink. The blocks:
//
//   FrictionCollisions::build   <ipc/collisions/friction_collisions.hpp>
//       lambda_k from the barrier (same dhat and kappa), T_k, weights, mu
//   FrictionPotential(eps)      <ipc/potentials/friction_potential.hpp>
//       D, its gradient and its Hessian (PSD by construction)
//
// Instead of tilting the ground, the scenes tilt gravity by an angle theta;
// the physics is the same. The program asserts the Coulomb laws:
//   - tan(theta) < mu: the block sticks (its speed stays below eps_v);
//   - tan(theta) > mu: it slides, accelerating at g (sin - mu cos);
//   - flat ground, thrown at v0: it decelerates at mu g, stops, and has slid
//     v0^2 / (2 mu g) (less half a step, the implicit-Euler lag).

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const double g = 9.81;     // m/s^2
const double h = 0.01;     // time step (s)
const double mass = 0.1;   // kg
const double dhat = 1e-3;  // barrier activation distance (m)
const double eps_v = 1e-3; // friction's static velocity threshold (m/s)

/// Tangential (x) velocity of the block after every time step.
struct Run {
    std::vector<double> velocity; // m/s, one entry per step
    double distance = 0;          // distance slid (m)
    bool ok = true;               // every step converged and stayed intersection-free
};

/// Simulates the block on the ground with gravity tilted by theta (rad)
/// toward +x, friction coefficient mu and initial speed v0 (m/s, along +x)
/// for `steps` time steps.
Run simulate(double theta, double mu, double v0, int steps)
{
    // Ground: vertices 0-3 at z = 0, prescribed. Block: vertex 4, a free
    // particle resting at 0.9 dhat, inside the barrier's range.
    Eigen::MatrixXd V(5, 3);
    V << -5, -5, 0, 5, -5, 0, 5, 5, 0, -5, 5, 0, 0.1, 0.2, 0.9 * dhat;
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 2, 3;
    const ipc::CollisionMesh mesh
        = ipc::CollisionMesh::Builder(V).faces(F).prescribed_vertices({ true, true, true, true, false }).build();

    const Eigen::Vector3d gravity(g * std::sin(theta), 0, -g * std::cos(theta));
    const ipc::BarrierPotential<> barrier(dhat, ipc::barrier_stiffness_bounds(10.0, mass, dhat).min);
    const ipc::FrictionPotential<> friction(eps_v * h); // the slip threshold eps is a length: eps_v h

    Eigen::Vector3d velocity(v0, 0, 0);
    Run run;
    // Settle first: a few steps with only the normal part of gravity and no
    // tangential motion, so that the lagged normal force has reached its
    // equilibrium value m g cos(theta) when the measurement starts.
    const int settle = 20;
    for (int step = 0; step < settle + steps; ++step) {
        const bool settling = step < settle;
        const Eigen::Vector3d x_n = V.row(4).transpose();
        const Eigen::Vector3d a = settling ? Eigen::Vector3d(0, 0, gravity.z()) : gravity;
        const Eigen::Vector3d v = settling ? Eigen::Vector3d::Zero() : velocity;
        const Eigen::Vector3d x_pred = x_n + h * v + h * h * a;

        // Lagged friction: contacts built once per step, at x_n.
        ipc::Collisions collisions;
        collisions.build(mesh, V, dhat);
        ipc::FrictionCollisions friction_contacts;
        friction_contacts.build(collisions, mesh, V, dhat, barrier.stiffness(), mu);
        const Eigen::MatrixXd V_n = V;

        const auto energy = [&](const Eigen::MatrixXd& X, const ipc::Collisions& c) {
            return 0.5 * mass * (X.row(4).transpose() - x_pred).squaredNorm() + barrier(c, mesh, X)
                + friction(friction_contacts, mesh, X - V_n);
        };

        Eigen::MatrixXd X = V;
        bool converged = false;
        for (int it = 0; it < 100 && !converged; ++it) {
            collisions.build(mesh, X, dhat);
            // Gradient and Hessian; the block's three coordinates are rows
            // 12-14 of the 15 (x, y, z per vertex, the ground first).
            const Eigen::VectorXd grad = barrier.gradient(collisions, mesh, X)
                + friction.gradient(friction_contacts, mesh, X - V_n);
            const Eigen::MatrixXd hess = Eigen::MatrixXd(barrier.hessian(collisions, mesh, X, ipc::PSDProjection::clamp)
                                                         + friction.hessian(friction_contacts, mesh, X - V_n));
            const Eigen::Vector3d g_block = mass * (X.row(4).transpose() - x_pred) + grad.tail<3>();
            const Eigen::Matrix3d H_block = mass * Eigen::Matrix3d::Identity() + hess.bottomRightCorner<3, 3>();
            const Eigen::Vector3d dx = -H_block.ldlt().solve(g_block);
            if (dx.cwiseAbs().maxCoeff() < 1e-9) {
                converged = true;
                break;
            }
            // CCD-capped backtracking line search.
            Eigen::MatrixXd target = X;
            target.row(4) += dx.transpose();
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
        run.ok = run.ok && converged && !ipc::has_intersections(mesh, X) && X(4, 2) > 0;
        if (!settling) {
            velocity = (X.row(4) - V.row(4)).transpose() / h;
            run.velocity.push_back(velocity.x());
            run.distance += X(4, 0) - V(4, 0);
        }
        V = X;
    }
    return run;
}

int failures = 0;

void check(bool ok, const char* what)
{
    std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
    failures += ok ? 0 : 1;
}

} // namespace

int main()
{
    const double mu = 0.5;

    // 1. Below the friction angle: static friction holds the block.
    {
        const Run run = simulate(std::atan(0.3), mu, 0.0, 30);
        const double speed = std::abs(run.velocity.back());
        std::printf("incline tan(theta) = 0.3 < mu = %.1f: final speed %.2e m/s, crept %.2e m\n", mu, speed,
                    run.distance);
        check(run.ok, "every step converged and stayed intersection-free");
        check(speed < eps_v, "the block sticks (speed below eps_v)");
    }

    // 2. Above the friction angle: kinetic friction slows the slide but
    // cannot stop it; after T seconds the speed is g (sin - mu cos) T.
    {
        const double theta = std::atan(0.8);
        const int steps = 30;
        const Run run = simulate(theta, mu, 0.0, steps);
        const double expected = g * (std::sin(theta) - mu * std::cos(theta)) * steps * h;
        const double speed = run.velocity.back();
        std::printf("incline tan(theta) = 0.8 > mu: speed %.4f m/s after %.2f s, Coulomb predicts %.4f m/s\n", speed,
                    steps * h, expected);
        check(run.ok, "every step converged and stayed intersection-free");
        check(std::abs(speed - expected) < 0.03 * expected, "the block slides at g (sin - mu cos) within 3%");
    }

    // 3. Flat ground, thrown at v0: it decelerates at mu g and stops after
    // v0 / (mu g) seconds. It slides v0^2 / (2 mu g) metres in continuous
    // time; implicit Euler moves each step with the step's end velocity,
    // which shortens that by v0 h / 2.
    {
        const double v0 = 1.0, mu_flat = 0.3;
        const Run run = simulate(0.0, mu_flat, v0, 60);
        const int n = 20; // measure the deceleration over the first n steps
        const double deceleration = (v0 - run.velocity[n - 1]) / (n * h);
        const double stop_distance = v0 * v0 / (2 * mu_flat * g) - v0 * h / 2;
        std::printf("flat, v0 = %.1f m/s, mu = %.1f: deceleration %.4f m/s^2 (mu g = %.4f), slid %.4f m "
                    "(v0^2 / (2 mu g) - v0 h / 2 = %.4f), final speed %.2e m/s\n",
                    v0, mu_flat, deceleration, mu_flat * g, run.distance, stop_distance, run.velocity.back());
        check(run.ok, "every step converged and stayed intersection-free");
        check(std::abs(deceleration - mu_flat * g) < 0.03 * mu_flat * g, "deceleration matches mu g within 3%");
        check(std::abs(run.velocity.back()) < eps_v, "the block has stopped");
        check(std::abs(run.distance - stop_distance) < 0.01 * stop_distance,
              "stopping distance matches v0^2 / (2 mu g) - v0 h / 2 within 1%");
    }

    if (failures > 0) {
        std::fprintf(stderr, "04_friction: %d check(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    std::printf("04_friction: all checks passed\n");
    return EXIT_SUCCESS;
}
