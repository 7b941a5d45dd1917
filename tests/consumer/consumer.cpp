// The README's quick start as a host project would write it: two triangles,
// one falling onto the other.
#include <ipc/ipc.hpp>

#include <cstdio>

int main()
{
    Eigen::MatrixXd V_rest(6, 3);
    V_rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, //
        0.2, 0.2, 0.01, 1.2, 0.2, 0.01, 0.2, 1.2, 0.01;
    Eigen::MatrixXi E(0, 2), F(2, 3);
    F << 0, 1, 2, 3, 4, 5;
    const ipc::CollisionMesh mesh(V_rest, E, F); // adds the faces' edges

    const double dhat = 0.02; // activation distance (m)
    const ipc::BarrierPotential barrier(dhat, /*stiffness=*/1e3);

    ipc::Collisions collisions;
    collisions.build(mesh, V_rest, dhat);
    const double energy = barrier(collisions, mesh, V_rest);
    const Eigen::VectorXd grad = barrier.gradient(collisions, mesh, V_rest);
    const Eigen::SparseMatrix<double> hess =
        barrier.hessian(collisions, mesh, V_rest, ipc::PSDProjection::clamp);

    // Move the upper triangle down through the lower one: the step is cut.
    Eigen::MatrixXd V_next = V_rest;
    V_next.bottomRows(3).col(2).array() -= 0.02;
    const double alpha = ipc::collision_free_step_size(mesh, V_rest, V_next);

    // Stencil level and the drop-in CCD shape.
    const Eigen::Vector3d p(0.2, 0.2, 0.01), t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
    const double d2 = ipc::point_triangle_distance_squared(p, t0, t1, t2);
    double toi = 1;
    const bool hit = ipc::AdditiveCCD().point_triangle_ccd(
        p, t0, t1, t2, Eigen::Vector3d(0.2, 0.2, -0.01), t0, t1, t2, toi);

    std::printf("ipc %s: %zu contacts, energy %g, |grad| %g, nnz %ld, step %g, d2 %g, ccd %d toi %g\n",
                IPC_VERSION_STRING, collisions.size(), energy, grad.norm(), long(hess.nonZeros()),
                alpha, d2, int(hit), toi);
    const bool ok = collisions.size() > 0 && energy > 0 && alpha > 0 && alpha < 0.5 && hit
        && toi > 0 && toi < 0.5;
    return ok ? 0 : 1;
}
