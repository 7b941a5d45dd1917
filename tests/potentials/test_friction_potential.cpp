// The mesh-level friction potential: sum of contact terms, finite
// differences, PSD Hessian, determinism, validation.

#include <test_vectors.hpp>

#include "../collisions/contact_scenes.hpp"

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <catch2/catch.hpp>
#include <reference_eigen.hpp>
#include <finite_differences.hpp>
#include <vertex_map_reference.hpp>

#include <Eigen/Dense>

#include <limits>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

using ipc::test::rows_of;

struct FrictionScene {
    ipc::test::Scene scene;
    ipc::FrictionCollisions contacts;
    Eigen::MatrixXd U; // displacements over the step
};

std::vector<FrictionScene> friction_scenes(double slip)
{
    std::vector<FrictionScene> out;
    unsigned seed = 20;
    for (const auto& scene : ipc::test::mixed_scenes()) {
        FrictionScene f { scene, {}, scene.V };
        ipc::Collisions collisions;
        collisions.build(scene.mesh, scene.V, 0.05);
        f.contacts.build(collisions, scene.mesh, scene.V, 0.05, 10.0, 0.4);
        f.U.setZero();
        ipc::test::jitter(f.U, slip, seed++);
        out.push_back(f);
    }
    return out;
}

} // namespace

TEST_CASE("Friction potential equals the sum of its contact terms", "[potentials][friction]")
{
    const double eps = 1e-3;
    for (const auto& f : friction_scenes(2e-3)) {
        const ipc::FrictionPotential<> potential(eps);
        double energy = 0;
        Eigen::VectorXd gradient = Eigen::VectorXd::Zero(f.U.size());
        const auto add = [&](const auto& c) {
            const auto dx = ipc::detail::gather_positions(f.U, c.vertices);
            energy += ipc::friction_energy(c.contact, dx, eps);
            const auto g = ipc::friction_gradient(c.contact, dx, eps);
            for (std::size_t a = 0; a < c.vertices.size(); ++a) {
                gradient.segment<3>(3 * c.vertices[a]) += g.template segment<3>(3 * int(a));
            }
        };
        for (const auto& c : f.contacts.vertex_vertex) add(c);
        for (const auto& c : f.contacts.edge_vertex) add(c);
        for (const auto& c : f.contacts.edge_edge) add(c);
        for (const auto& c : f.contacts.face_vertex) add(c);
        REQUIRE(energy > 0);
        CHECK(potential(f.contacts, f.scene.mesh, f.U) == Approx(energy).epsilon(1e-12));
        CHECK(ipc::test::fd_close(potential.gradient(f.contacts, f.scene.mesh, f.U), gradient, 1e-12));
    }
}

TEST_CASE("Friction potential derivatives match finite differences; Hessian is PSD", "[potentials][friction]")
{
    // Slips below and above eps exercise both mollifier branches.
    for (const double slip : { 2e-4, 5e-3 }) {
        for (const auto& f : friction_scenes(slip)) {
            const ipc::FrictionPotential<> potential(1e-3);
            Eigen::VectorXd u(f.U.size());
            for (Eigen::Index i = 0; i < f.U.rows(); ++i) {
                u.segment<3>(3 * i) = f.U.row(i).transpose();
            }
            const auto energy = [&](const Eigen::VectorXd& y) { return potential(f.contacts, f.scene.mesh, rows_of(y)); };
            const auto gradient = [&](const Eigen::VectorXd& y) {
                return potential.gradient(f.contacts, f.scene.mesh, rows_of(y));
            };
            CHECK(ipc::test::fd_close(gradient(u), ipc::test::fd_gradient(energy, u, 1e-8), 1e-5));
            const Eigen::MatrixXd H = Eigen::MatrixXd(potential.hessian(f.contacts, f.scene.mesh, f.U));
            CHECK(ipc::test::fd_close(H, ipc::test::fd_jacobian(gradient, u, 1e-8), 1e-4));
            const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(H);
            CHECK(eigenvalues.minCoeff() >= -1e-10 * std::max(1.0, eigenvalues.cwiseAbs().maxCoeff()));
        }
    }
}

TEST_CASE("Friction potential in majorizer form: stiffer than the exact Hessian, and its model bounds the energy",
          "[potentials][friction]")
{
    // Sliding slips (5 eps) and a step that reverses every slip (-2 U): the
    // exact Hessian's model predicts a decrease there, the majorizer's a
    // value no lower than the energy.
    const double eps = 1e-3;
    for (const auto& f : friction_scenes(5e-3)) {
        const ipc::FrictionPotential<> exact(eps);
        const ipc::FrictionPotential<> majorizer(eps, ipc::FrictionHessianForm::majorizer);
        CHECK(majorizer.hessian_form() == ipc::FrictionHessianForm::majorizer);
        CHECK(exact.hessian_form() == ipc::FrictionHessianForm::exact);
        const Eigen::MatrixXd H_exact = Eigen::MatrixXd(exact.hessian(f.contacts, f.scene.mesh, f.U));
        const Eigen::MatrixXd H_major = Eigen::MatrixXd(majorizer.hessian(f.contacts, f.scene.mesh, f.U));
        const double largest = H_major.cwiseAbs().maxCoeff();
        CHECK((H_major - H_exact).cwiseAbs().maxCoeff() > 1e-3 * largest);
        CHECK(ipc::test::reference_eigenvalues(H_major - H_exact).minCoeff() >= -1e-10 * largest);
        const Eigen::MatrixXd reversal = -2 * f.U;
        Eigen::VectorXd p(f.U.size());
        for (Eigen::Index i = 0; i < f.U.rows(); ++i) {
            p.segment<3>(3 * i) = reversal.row(i).transpose();
        }
        const double energy = exact(f.contacts, f.scene.mesh, f.U);
        const double slope = exact.gradient(f.contacts, f.scene.mesh, f.U).dot(p);
        const double after = exact(f.contacts, f.scene.mesh, Eigen::MatrixXd(f.U + reversal));
        CHECK(energy + slope + 0.5 * p.dot(H_major * p) >= after * (1 - 1e-12));
        CHECK(energy + slope + 0.5 * p.dot(H_exact * p) < after);
    }
}

TEST_CASE("Friction Hessian written into a kept matrix equals the returned one", "[potentials][friction][reuse]")
{
    Eigen::SparseMatrix<double> kept(4, 4);
    kept.insert(1, 1) = 3.0;
    const ipc::FrictionPotential<> potential(1e-3);
    int nonempty = 0;
    for (const FrictionScene& f : friction_scenes(0.01)) {
        for (const ipc::PSDProjection projection : { ipc::PSDProjection::none, ipc::PSDProjection::clamp }) {
            potential.hessian(f.contacts, f.scene.mesh, f.U, projection, kept);
            const Eigen::SparseMatrix<double> fresh = potential.hessian(f.contacts, f.scene.mesh, f.U, projection);
            REQUIRE(kept.rows() == fresh.rows());
            REQUIRE(kept.nonZeros() == fresh.nonZeros());
            CHECK(std::equal(kept.innerIndexPtr(), kept.innerIndexPtr() + kept.nonZeros(), fresh.innerIndexPtr()));
            CHECK(std::equal(kept.valuePtr(), kept.valuePtr() + kept.nonZeros(), fresh.valuePtr()));
            nonempty += kept.nonZeros() > 0 ? 1 : 0;
        }
    }
    CHECK(nonempty > 0);
}

TEST_CASE("Friction potential is identical for 1 and many threads", "[potentials][friction][threads]")
{
    Eigen::MatrixXd V(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V, F, 25, 25, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V, F, 25, 25, 1.0, 0.02, 0.01, { 0.011, 0.007 });
    const ipc::CollisionMesh mesh(V, E, F);
    ipc::Collisions collisions;
    collisions.build(mesh, V, 0.03);
    ipc::FrictionCollisions contacts;
    contacts.build(collisions, mesh, V, 0.03, 1.0, 0.5);
    REQUIRE(contacts.size() > 500);
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(V.rows(), 3);
    ipc::test::jitter(U, 1e-3, 5);
    const ipc::FrictionPotential<> potential(5e-4);
    const auto evaluate = [&](int threads) {
#if IPC_HAS_OPENMP
        omp_set_num_threads(threads);
#else
        (void)threads;
#endif
        return std::make_tuple(potential(contacts, mesh, U), potential.gradient(contacts, mesh, U),
                               potential.hessian(contacts, mesh, U));
    };
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
#endif
    const auto serial = evaluate(1);
    const auto parallel = evaluate(4);
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    CHECK(std::get<0>(serial) == std::get<0>(parallel));
    CHECK((std::get<1>(serial).array() == std::get<1>(parallel).array()).all());
    const auto& A = std::get<2>(serial);
    const auto& B = std::get<2>(parallel);
    REQUIRE(A.nonZeros() == B.nonZeros());
    CHECK(std::equal(A.valuePtr(), A.valuePtr() + A.nonZeros(), B.valuePtr()));
}

TEST_CASE("Friction potential rejects bad input", "[potentials][friction][validation]")
{
    CHECK_THROWS_AS(ipc::FrictionPotential<>(0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::FrictionPotential<>(std::numeric_limits<double>::quiet_NaN()), ipc::invalid_argument);
    const auto f = friction_scenes(1e-3).front();
    const ipc::FrictionPotential<> potential(1e-3);
    Eigen::MatrixXd bad = f.U;
    bad(2, 0) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(potential(f.contacts, f.scene.mesh, bad), ipc::invalid_argument);
    CHECK_THROWS_AS(potential.hessian(f.contacts, f.scene.mesh, f.U.topRows(3)), ipc::invalid_argument);
}

TEST_CASE("Friction gradient and Hessian land in the rows of a larger mesh through a vertex map",
          "[potentials][friction][layout]")
{
    const ipc::FrictionPotential<> potential(1e-3);
    int checked = 0;
    for (const FrictionScene& f : friction_scenes(0.01)) {
        if (f.contacts.empty()) {
            continue;
        }
        ++checked;
        const ipc::Index n = f.scene.mesh.num_vertices();
        const Eigen::VectorXd g = potential.gradient(f.contacts, f.scene.mesh, f.U);
        const Eigen::SparseMatrix<double> H = potential.hessian(f.contacts, f.scene.mesh, f.U);
        ipc::AssemblyLayout layout;
        layout.vertices = ipc::test::spread_vertex_map(n, 4, false, unsigned(checked));
        const Eigen::VectorXd g_mapped = potential.gradient(f.contacts, f.scene.mesh, f.U, layout);
        CHECK((g_mapped - ipc::test::mapped_gradient(g, layout.vertices, 3)).cwiseAbs().maxCoeff()
              <= 1e-13 * g.cwiseAbs().maxCoeff());
        layout.triangle = ipc::SparseTriangle::lower;
        const Eigen::SparseMatrix<double> L = potential.hessian(f.contacts, f.scene.mesh, f.U, ipc::PSDProjection::none, layout);
        const Eigen::MatrixXd H_expected = ipc::test::mapped_hessian(H, layout.vertices, 3);
        CHECK((Eigen::MatrixXd(L) - Eigen::MatrixXd(H_expected.triangularView<Eigen::Lower>())).cwiseAbs().maxCoeff()
              <= 1e-13 * H.coeffs().cwiseAbs().maxCoeff());
        CHECK(Eigen::MatrixXd(L).triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0.0));
        layout.vertices = ipc::test::spread_vertex_map(n + 1, 4, false, 0);
        CHECK_THROWS_AS(potential.gradient(f.contacts, f.scene.mesh, f.U, layout), ipc::invalid_argument);
    }
    CHECK(checked > 0);
}
