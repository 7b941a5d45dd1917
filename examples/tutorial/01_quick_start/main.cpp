// Tutorial 01: quick start.
//
// The whole contact pipeline of the library on the smallest scene that shows
// it: a tetrahedron whose lowest corner hovers 5 mm above a ground square.
//
//   1. CollisionMesh           who may touch whom     <ipc/mesh/collision_mesh.hpp>
//   2. Collisions::build       the active pairs       <ipc/collisions/collisions.hpp>
//   3. BarrierPotential        energy, gradient,      <ipc/potentials/barrier_potential.hpp>
//                              PSD Hessian
//   4. collision_free_step_size  how far a motion may  <ipc/collisions/collision_free_step_size.hpp>
//                              go without contact
//
// Then the program checks what it showed: the barrier gradient and Hessian
// against finite differences, the projected Hessian is positive
// semi-definite, and the capped motion stays intersection-free
// (has_intersections, <ipc/collisions/intersection.hpp>) while the uncapped
// one does not. Any failed check prints a message and exits with status 1.
//
// Units throughout: metres. Axis z points up.

#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

int failures = 0;

/// Prints the outcome of one check; a failed check makes main() return 1.
void check(bool ok, const char* what)
{
    std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
    if (!ok) {
        ++failures;
    }
}

} // namespace

int main()
{
    // [quick-start]
    // A ground square (vertices 0-3, two triangles at z = 0) and a
    // tetrahedron (vertices 4-7) whose lowest corner hovers 5 mm above it.
    Eigen::MatrixXd V(8, 3); // one row per vertex, metres
    V << -1.0, -1.0, 0.0,    1.0, -1.0, 0.0,   1.0, 1.0, 0.0,   -1.0, 1.0, 0.0,  // ground
          0.2, -0.3, 0.005,  0.0, -0.3, 0.3,   0.4, -0.3, 0.3,   0.2, -0.1, 0.3;  // tetrahedron
    Eigen::MatrixXi E(0, 2); // no extra edges: every face's edges are added
    Eigen::MatrixXi F(6, 3);
    F << 0, 1, 2,   0, 2, 3,                        // ground
         4, 6, 5,   4, 5, 7,   4, 7, 6,   5, 6, 7;  // tetrahedron surface
    const double dhat = 0.01;  // barrier activation distance (m)
    const double kappa = 1e3;  // barrier stiffness (energy units)

    // Who may touch whom: vertices against faces, edges against edges.
    const ipc::CollisionMesh mesh(V, E, F);

    // The active set: every admissible pair closer than dhat.
    ipc::Collisions collisions;
    collisions.build(mesh, V, dhat);

    // The barrier: energy, gradient (3n) and PSD-projected sparse Hessian.
    const ipc::BarrierPotential<> barrier(dhat, kappa);
    const double energy = barrier(collisions, mesh, V);
    const Eigen::VectorXd grad = barrier.gradient(collisions, mesh, V);
    const Eigen::SparseMatrix<double> hess = barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp);

    // A proposed motion: the tetrahedron 2 cm down, through the ground.
    Eigen::MatrixXd V1 = V;
    V1.bottomRows(4).col(2).array() -= 0.02;
    // The largest fraction of it that keeps every pair apart (broad phase + ACCD).
    const double alpha = ipc::collision_free_step_size(mesh, V, V1);
    const Eigen::MatrixXd V_next = V + alpha * (V1 - V);
    // [quick-start-end]

    std::printf("%zu active pair(s) (%zu point-triangle), barrier energy %.6g, step size %.4f\n",
                collisions.size(), collisions.face_vertex.size(), energy, alpha);

    // ------------------------------------------------------------------
    // What the active set holds. Only the tet's lowest corner is within dhat
    // of the ground, above the interior of ground triangle 0: one
    // point-triangle pair (FaceVertexCollision).
    check(collisions.size() == 1 && collisions.face_vertex.size() == 1, "one active pair, point-triangle");
    check(energy > 0, "the barrier energy is positive inside dhat");

    // The barrier pushes the corner up: the negative gradient (the contact
    // force) on vertex 4 points along +z, and the ground feels the reaction.
    check(-grad[3 * 4 + 2] > 0, "the contact force on the corner points up");
    check(std::abs(grad.sum()) < 1e-9 * grad.norm(), "contact forces balance (they sum to zero)");

    // ------------------------------------------------------------------
    // Derivatives against central finite differences. The active set stays
    // fixed (built at V), as in one Newton iteration; perturbations of 1e-7 m
    // keep every pair inside its current distance formula.
    const double step = 1e-7;
    Eigen::VectorXd grad_fd(V.size());
    Eigen::MatrixXd hess_fd(V.size(), V.size());
    const Eigen::MatrixXd hess_exact = Eigen::MatrixXd(barrier.hessian(collisions, mesh, V, ipc::PSDProjection::none));
    for (Eigen::Index i = 0; i < V.size(); ++i) {
        Eigen::MatrixXd plus = V, minus = V;
        plus(i / 3, i % 3) += step; // entry i of the gradient is vertex i/3, coordinate i%3
        minus(i / 3, i % 3) -= step;
        grad_fd[i] = (barrier(collisions, mesh, plus) - barrier(collisions, mesh, minus)) / (2 * step);
        hess_fd.col(i) = (barrier.gradient(collisions, mesh, plus) - barrier.gradient(collisions, mesh, minus))
            / (2 * step);
    }
    const double grad_error = (grad - grad_fd).norm() / grad.norm();
    const double hess_error = (hess_exact - hess_fd).norm() / hess_exact.norm();
    std::printf("relative error against finite differences: gradient %.2e, Hessian %.2e\n", grad_error,
                hess_error);
    check(grad_error < 1e-5, "gradient matches finite differences");
    check(hess_error < 1e-5, "Hessian matches finite differences");

    // The projected Hessian (what a Newton solver factorises) is symmetric
    // positive semi-definite.
    const Eigen::MatrixXd H = Eigen::MatrixXd(hess);
    const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
    check((H - H.transpose()).norm() <= 1e-12 * H.norm(), "projected Hessian is symmetric");
    check(eigenvalues.minCoeff() >= -1e-9 * eigenvalues.cwiseAbs().maxCoeff(),
          "projected Hessian is positive semi-definite");

    // ------------------------------------------------------------------
    // The step size. The full motion puts the corner 1.5 cm below the
    // ground: the mesh intersects there. The capped motion stops short of
    // contact (ACCD keeps a fraction of the initial 5 mm gap), and the
    // exact intersection test agrees.
    check(ipc::has_intersections(mesh, V1), "the full motion would pass through the ground");
    check(alpha > 0 && alpha < 0.25, "the step size stops before the 5 mm gap closes (alpha < 5/20)");
    check(!ipc::has_intersections(mesh, V_next), "the capped motion is intersection-free");
    const double gap = ipc::minimum_distance(mesh, V_next);
    std::printf("smallest distance after the capped motion: %.3g mm\n", 1e3 * gap);
    check(gap > 0, "every pair is still apart after the capped motion");

    if (failures > 0) {
        std::fprintf(stderr, "01_quick_start: %d check(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    std::printf("01_quick_start: all checks passed\n");
    return EXIT_SUCCESS;
}
