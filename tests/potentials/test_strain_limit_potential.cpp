// The mesh-level strain-limit potential: sum of triangle terms, finite
// differences, PSD projection, zero at rest, validation.

#include <test_vectors.hpp>

#include "../collisions/contact_scenes.hpp"

#include <ipc/potentials/strain_limit_potential.hpp>
#include <ipc/strain_limit/isotropic_strain_limit.hpp>

#include <catch2/catch.hpp>
#include <reference_eigen.hpp>
#include <finite_differences.hpp>

#include <Eigen/Dense>

#include <limits>

namespace {

using ipc::test::rows_of;

Eigen::VectorXd flat(const Eigen::MatrixXd& V)
{
    Eigen::VectorXd x(V.size());
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        x.segment<3>(3 * i) = V.row(i).transpose();
    }
    return x;
}

struct Cloth {
    Eigen::MatrixXd rest, V;
    Eigen::MatrixXi F;
};

// A 4 x 4 sheet stretched by 3 % along x (between threshold 1 and limit
// 1.0608) with a small random perturbation.
Cloth stretched_cloth()
{
    Cloth c;
    c.rest.resize(0, 3);
    c.F.resize(0, 3);
    ipc::test::add_sheet(c.rest, c.F, 4, 4, 1.0, 0.0, 0.0);
    c.V = c.rest;
    c.V.col(0) *= 1.03;
    ipc::test::jitter(c.V, 2e-3, 17);
    return c;
}

} // namespace

TEST_CASE("Strain-limit potential equals the sum of triangle terms and matches finite differences", "[potentials][strain_limit]")
{
    const Cloth c = stretched_cloth();
    ipc::StrainLimitParameters<double> parameters;
    parameters.stiffness = 1e4;
    const ipc::StrainLimitPotential potential(c.rest, c.F, parameters);
    REQUIRE(potential.num_triangles() == c.F.rows());

    double energy = 0;
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(c.V.size());
    for (Eigen::Index t = 0; t < c.F.rows(); ++t) {
        const Eigen::Vector3d x0 = c.V.row(c.F(t, 0)), x1 = c.V.row(c.F(t, 1)), x2 = c.V.row(c.F(t, 2));
        const auto& rest = potential.rest_shapes()[std::size_t(t)];
        energy += ipc::isotropic_strain_limit_energy(x0, x1, x2, rest, parameters);
        const Eigen::Matrix<double, 9, 1> g = ipc::isotropic_strain_limit_gradient(x0, x1, x2, rest, parameters);
        for (int a = 0; a < 3; ++a) {
            gradient.segment<3>(3 * c.F(t, a)) += g.segment<3>(3 * a);
        }
    }
    REQUIRE(energy > 0);
    CHECK(potential(c.V) == Approx(energy).epsilon(1e-12));
    CHECK(ipc::test::fd_close(potential.gradient(c.V), gradient, 1e-12));

    const Eigen::VectorXd x = flat(c.V);
    const auto f = [&](const Eigen::VectorXd& y) { return potential(rows_of(y)); };
    const auto grad = [&](const Eigen::VectorXd& y) { return potential.gradient(rows_of(y)); };
    CHECK(ipc::test::fd_close(grad(x), ipc::test::fd_gradient(f, x, 1e-7), 1e-5));
    const Eigen::MatrixXd H = Eigen::MatrixXd(potential.hessian(c.V));
    CHECK(ipc::test::fd_close(H, ipc::test::fd_jacobian(grad, x, 1e-7), 1e-5));

    const Eigen::MatrixXd P = Eigen::MatrixXd(potential.hessian(c.V, ipc::PSDProjection::clamp));
    const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(P);
    CHECK(eigenvalues.minCoeff() >= -1e-9 * eigenvalues.cwiseAbs().maxCoeff());

    // Written into a kept matrix of another size: the same entries.
    Eigen::SparseMatrix<double> kept(3, 3);
    kept.insert(0, 2) = 1.0;
    potential.hessian(c.V, ipc::PSDProjection::none, kept);
    CHECK((Eigen::MatrixXd(kept).array() == H.array()).all());
    potential.hessian(c.V, ipc::PSDProjection::clamp, kept);
    CHECK((Eigen::MatrixXd(kept).array() == P.array()).all());
}

TEST_CASE("Strain-limit potential is zero at rest and scales with stiffness", "[potentials][strain_limit]")
{
    const Cloth c = stretched_cloth();
    ipc::StrainLimitPotential potential(c.rest, c.F);
    CHECK(potential(c.rest) == 0.0);
    CHECK(potential.gradient(c.rest).isZero(0));
    const double e1 = potential(c.V);
    potential.set_stiffness(2 * potential.parameters().front().stiffness);
    CHECK(potential(c.V) == Approx(2 * e1).epsilon(1e-14));
}

TEST_CASE("Strain-limit potential rejects bad input", "[potentials][strain_limit][validation]")
{
    const Cloth c = stretched_cloth();
    const ipc::StrainLimitPotential potential(c.rest, c.F);
    Eigen::MatrixXd beyond = c.rest;
    beyond.col(0) *= 1.2; // past the limit 1.0608
    CHECK_THROWS_AS(potential(beyond), ipc::invalid_argument);
    CHECK_THROWS_AS(potential.hessian(beyond), ipc::invalid_argument);
    Eigen::MatrixXd bad = c.V;
    bad(0, 0) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(potential.gradient(bad), ipc::invalid_argument);
    CHECK_THROWS_AS(potential(c.V.topRows(3)), ipc::invalid_argument);
    Eigen::MatrixXi wrong = c.F;
    wrong(0, 0) = int(c.rest.rows());
    CHECK_THROWS_AS(ipc::StrainLimitPotential(c.rest, wrong), ipc::invalid_argument);
    ipc::StrainLimitParameters<double> p;
    p.limit = 0.9; // below the threshold
    CHECK_THROWS_AS(ipc::StrainLimitPotential(c.rest, c.F, p), ipc::invalid_argument);
    Eigen::MatrixXd degenerate = c.rest;
    degenerate.row(c.F(0, 1)) = degenerate.row(c.F(0, 0));
    CHECK_THROWS_AS(ipc::StrainLimitPotential(degenerate, c.F), ipc::error);
}
