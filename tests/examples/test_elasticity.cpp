#include <catch2/catch.hpp>
#include <reference_eigen.hpp>

#include <common/hinge_bending.hpp>
#include <common/mass.hpp>
#include <common/membrane.hpp>
#include <common/rod_elasticity.hpp>
#include <common/tet_elasticity.hpp>

#include <finite_differences.hpp>

#include <Eigen/Dense>

#include <random>

using namespace ipc::examples;
using ipc::PSDProjection;
using ipc::test::fd_close;
using ipc::test::fd_gradient;
using ipc::test::fd_jacobian;

namespace {

Eigen::VectorXd perturbed(const Eigen::VectorXd& x, double amount, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-amount, amount);
    Eigen::VectorXd y = x;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        y[i] += u(rng);
    }
    return y;
}

bool is_psd(const Eigen::MatrixXd& H, double tol)
{
    return ipc::test::smallest_eigenvalue(H) >= -tol * std::max(1.0, H.cwiseAbs().maxCoeff());
}

} // namespace

TEST_CASE("tetrahedron stable neo-Hookean derivatives", "[examples][elasticity]")
{
    using V12 = ipc::Vector<double, 12>;
    V12 X;
    X << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    const auto rest = tet_rest<double>(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6), X.segment<3>(9));
    CHECK(rest.volume == Approx(1.0 / 6));
    const auto material = stable_neo_hookean_from(1e5, 0.4);

    // Rest state: zero energy, zero force.
    CHECK(std::abs(tet_energy<double>(X, rest, material)) < 1e-9);
    CHECK(tet_energy_gradient<double>(X, rest, material).norm() < 1e-9);

    for (unsigned seed = 1; seed <= 6; ++seed) {
        // Large deformations, including (for some seeds) inverted elements.
        const V12 x = perturbed(X, seed < 4 ? 0.3 : 0.9, seed);
        auto f = [&](const Eigen::VectorXd& y) { return tet_energy<double>(V12(y), rest, material); };
        auto g = [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(tet_energy_gradient<double>(V12(y), rest, material));
        };
        const Eigen::VectorXd grad = tet_energy_gradient<double>(x, rest, material);
        CHECK(fd_close(grad, fd_gradient(f, x), 1e-5));
        const Eigen::MatrixXd H = tet_energy_hessian<double>(x, rest, material, PSDProjection::none);
        CHECK(fd_close(H, fd_jacobian(g, x), 1e-5));
        CHECK(is_psd(tet_energy_hessian<double>(x, rest, material, PSDProjection::clamp), 1e-10));
    }
    // A flat rest tetrahedron is rejected.
    CHECK_THROWS_AS(tet_rest<double>(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6),
                        Eigen::Vector3d(1, 1, 0)),
        ipc::degenerate_geometry);
    CHECK_THROWS_AS(stable_neo_hookean_from(1e5, 0.5), ipc::invalid_argument);
}

TEST_CASE("membrane StVK derivatives", "[examples][elasticity]")
{
    using V9 = ipc::Vector<double, 9>;
    V9 X;
    X << 0, 0, 0, 0.1, 0, 0.02, 0.03, 0.09, 0;
    const auto rest = triangle_rest<double>(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6));
    const MembraneMaterial<double> material { 3e4, 1e4, 3e-4 };
    // Rigid motion leaves no energy.
    Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
    V9 moved;
    for (int v = 0; v < 3; ++v) {
        moved.segment<3>(3 * v) = R * X.segment<3>(3 * v) + Eigen::Vector3d(1, -2, 0.5);
    }
    CHECK(std::abs(membrane_energy<double>(moved, rest, material)) < 1e-12);
    CHECK(membrane_energy_gradient<double>(moved, rest, material).norm() < 1e-9);
    // Uniform stretch by s in-plane: E = (s^2 - 1)/2 I, psi = (mu * 2 + lambda * 2) e^2.
    const double s = 1.1, e = (s * s - 1) / 2;
    CHECK(membrane_energy<double>(s * X, rest, material)
        == Approx(rest.area * material.thickness * (2 * material.mu + 2 * material.lambda) * e * e));

    for (unsigned seed = 1; seed <= 6; ++seed) {
        const V9 x = perturbed(X, 0.04, seed);
        auto f = [&](const Eigen::VectorXd& y) { return membrane_energy<double>(V9(y), rest, material); };
        auto g = [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(membrane_energy_gradient<double>(V9(y), rest, material));
        };
        CHECK(fd_close(membrane_energy_gradient<double>(x, rest, material), fd_gradient(f, x), 1e-6));
        CHECK(fd_close(membrane_energy_hessian<double>(x, rest, material, PSDProjection::none),
            fd_jacobian(g, x), 1e-6));
        CHECK(is_psd(membrane_energy_hessian<double>(x, rest, material), 1e-10));
    }
    CHECK_THROWS_AS(triangle_rest<double>(X.segment<3>(0), X.segment<3>(3), 2 * X.segment<3>(3)),
        ipc::degenerate_geometry);
}

TEST_CASE("hinge dihedral angle and bending derivatives", "[examples][elasticity]")
{
    using V12 = ipc::Vector<double, 12>;
    // Flat hinge along the x axis: x2 on +y, x3 on -y.
    V12 X;
    X << 0, 0, 0, 1, 0, 0, 0.4, 0.8, 0, 0.5, -0.9, 0;
    CHECK(std::abs(dihedral_angle<double>(X)) < 1e-14);
    // Folding x3 up by angle phi about the edge gives |theta| = phi.
    for (double phi : { 0.3, 1.2, 2.5 }) {
        V12 Y = X;
        Y.segment<3>(9) = Eigen::Vector3d(0.5, -0.9 * std::cos(phi), 0.9 * std::sin(phi));
        CHECK(std::abs(dihedral_angle<double>(Y)) == Approx(phi));
    }
    const auto rest = hinge_rest<double>(X, hinge_stiffness(0.8e6, 0.243, 3.18e-4) * 1e6);
    for (unsigned seed = 1; seed <= 8; ++seed) {
        const V12 x = perturbed(X, 0.3, seed);
        auto angle = [&](const Eigen::VectorXd& y) { return dihedral_angle<double>(V12(y)); };
        auto angle_gradient = [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(dihedral_angle_gradient<double>(V12(y)));
        };
        CHECK(fd_close(dihedral_angle_gradient<double>(x), fd_gradient(angle, x), 1e-6));
        CHECK(fd_close(dihedral_angle_hessian<double>(x), fd_jacobian(angle_gradient, x), 1e-5));

        auto f = [&](const Eigen::VectorXd& y) { return hinge_energy<double>(V12(y), rest); };
        auto g = [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(hinge_energy_gradient<double>(V12(y), rest));
        };
        CHECK(fd_close(hinge_energy_gradient<double>(x, rest), fd_gradient(f, x), 1e-6));
        CHECK(fd_close(hinge_energy_hessian<double>(x, rest, PSDProjection::none), fd_jacobian(g, x), 1e-5));
        CHECK(is_psd(hinge_energy_hessian<double>(x, rest), 1e-10));
    }
    // Degenerate hinge: finite zero derivatives, no NaN.
    V12 flat = X;
    flat.segment<3>(6) = Eigen::Vector3d(0.5, 0, 0);
    CHECK(hinge_energy_gradient<double>(flat, rest).isZero());
    CHECK_THROWS_AS(hinge_rest<double>(flat, 1.0), ipc::degenerate_geometry);
}

TEST_CASE("discrete rod stretch and bending derivatives", "[examples][elasticity]")
{
    using V6 = ipc::Vector<double, 6>;
    using V9 = ipc::Vector<double, 9>;
    const RodSegmentRest<double> segment { 0.1, 2.0e3 };
    V6 s;
    s << 0, 0, 0, 0.12, 0.01, 0;
    CHECK(rod_stretch_energy<double>(s, segment)
        == Approx(segment.stiffness / 2 * segment.length * std::pow(std::hypot(0.12, 0.01) / 0.1 - 1, 2)));
    for (unsigned seed = 1; seed <= 4; ++seed) {
        const V6 x = perturbed(s, 0.05, seed);
        auto f = [&](const Eigen::VectorXd& y) { return rod_stretch_energy<double>(V6(y), segment); };
        auto g = [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(rod_stretch_gradient<double>(V6(y), segment)); };
        CHECK(fd_close(rod_stretch_gradient<double>(x, segment), fd_gradient(f, x), 1e-6));
        CHECK(fd_close(rod_stretch_hessian<double>(x, segment, PSDProjection::none), fd_jacobian(g, x), 1e-5));
        CHECK(is_psd(rod_stretch_hessian<double>(x, segment), 1e-10));
    }

    const RodJointRest<double> joint { 0.1, 0.12, 1e-4 };
    V9 r;
    r << 0, 0, 0, 0.1, 0, 0, 0.22, 0, 0;
    CHECK(rod_bending_energy<double>(r, joint) == Approx(0.0).margin(1e-16));
    // A right angle between the segments of rest length: |kb| = 2 tan(45 deg) = 2.
    V9 bent;
    bent << 0, 0, 0, 0.1, 0, 0, 0.1, 0.12, 0;
    CHECK(rod_bending_energy<double>(bent, joint) == Approx(joint.modulus * 4 / 0.22));
    for (unsigned seed = 1; seed <= 6; ++seed) {
        const V9 x = perturbed(r, 0.04, seed);
        auto f = [&](const Eigen::VectorXd& y) { return rod_bending_energy<double>(V9(y), joint); };
        auto g = [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(rod_bending_gradient<double>(V9(y), joint)); };
        CHECK(fd_close(rod_bending_gradient<double>(x, joint), fd_gradient(f, x), 1e-6));
        CHECK(fd_close(rod_bending_hessian<double>(x, joint, PSDProjection::none), fd_jacobian(g, x), 1e-5));
        CHECK(is_psd(rod_bending_hessian<double>(x, joint), 1e-10));
    }
}

TEST_CASE("lumped masses", "[examples][elasticity]")
{
    CHECK(tet_vertex_mass(1000, 1e-3) * 4 == Approx(1.0));
    CHECK(triangle_vertex_mass(472.6, 1.0, 3.18e-4) * 3 == Approx(472.6 * 3.18e-4));
    CHECK(rod_segment_vertex_mass(1000, 0.01, 2.0) * 2 == Approx(1000 * pi * 1e-4 * 2));
    CHECK(particle_mass(1600, 1e-3) == Approx(1600 * 4.0 / 3.0 * pi * 1e-9));
    CHECK_THROWS_AS(particle_mass(1600, 0), ipc::invalid_argument);
}

TEST_CASE("elasticity stencils compile for float and long double", "[examples][elasticity]")
{
    ipc::Vector<float, 12> xf;
    xf << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1.1f;
    const auto restf = tet_rest<float>(xf.segment<3>(0), xf.segment<3>(3), xf.segment<3>(6),
        ipc::Vector3<float>(0, 0, 1));
    const StableNeoHookean<float> mf { 1.0f, 2.0f };
    CHECK(std::isfinite(tet_energy_hessian<float>(xf, restf, mf).sum()));
    ipc::Vector<long double, 12> xl = xf.cast<long double>();
    CHECK(std::isfinite(static_cast<double>(dihedral_angle_hessian<long double>(xl).sum())));
}
