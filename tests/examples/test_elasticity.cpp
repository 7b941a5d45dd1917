#include <catch2/catch.hpp>
#include <reference_eigen.hpp>

#include <common/hinge_bending.hpp>
#include <common/mass.hpp>
#include <common/membrane.hpp>
#include <common/model.hpp>
#include <common/rod_elasticity.hpp>
#include <common/tet_elasticity.hpp>

#include <finite_differences.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

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

TEST_CASE("StVK membrane: the analytic projection equals a numerical one", "[examples][elasticity]")
{
    // Reference: the unprojected 6x6 stress derivative, eigendecomposed by
    // the tests' Jacobi solver, negative eigenvalues clamped or flipped.
    const auto reference = [](const Eigen::Matrix<double, 3, 2>& F, double mu, double lambda,
                               PSDProjection projection) {
        const Eigen::MatrixXd H = stvk_stress_derivative<double>(F, mu, lambda);
        const auto eigen = ipc::test::reference_eigen(H);
        Eigen::VectorXd values = eigen.values;
        for (Eigen::Index k = 0; k < values.size(); ++k) {
            if (values[k] < 0) {
                values[k] = projection == PSDProjection::abs ? -values[k] : 0.0;
            }
        }
        return Eigen::MatrixXd(eigen.vectors * values.asDiagonal() * eigen.vectors.transpose());
    };
    std::vector<Eigen::Matrix<double, 3, 2>> cases;
    std::mt19937 random(7);
    std::uniform_real_distribution<double> entry(-1.5, 1.5);
    for (int k = 0; k < 40; ++k) { // general, mostly with compressed directions
        Eigen::Matrix<double, 3, 2> F;
        for (int i = 0; i < 6; ++i) {
            F.data()[i] = entry(random);
        }
        cases.push_back(F);
    }
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, -2, 0.5).normalized()).toRotationMatrix();
    const Eigen::Matrix2d Q = Eigen::Rotation2Dd(1.1).toRotationMatrix();
    for (const double s : { 0.5, 0.9, 1.0, 1.2 }) { // equal singular values
        cases.push_back(R.leftCols<2>() * (s * Q));
    }
    for (const double s : { 0.3, 1.0, 1.4 }) { // a collapsed triangle: s2 = 0
        Eigen::Matrix<double, 3, 2> F = Eigen::Matrix<double, 3, 2>::Zero();
        F(0, 0) = s;
        cases.push_back(R * F * Q);
    }
    cases.push_back(Eigen::Matrix<double, 3, 2>::Zero());
    for (const auto& [mu, lambda] : { std::pair { 3e4, 1e4 }, std::pair { 1e3, 0.0 }, std::pair { 2.0, 50.0 } }) {
        for (const auto& F : cases) {
            for (const PSDProjection projection : { PSDProjection::clamp, PSDProjection::abs }) {
                const Eigen::MatrixXd expected = reference(F, mu, lambda, projection);
                const Eigen::MatrixXd analytic = stvk_stress_derivative_projected<double>(F, mu, lambda, projection);
                CHECK((analytic - expected).norm() <= 1e-12 * std::max(1.0, expected.norm()));
            }
            CHECK(stvk_stress_derivative_projected<double>(F, mu, lambda, PSDProjection::none)
                == stvk_stress_derivative<double>(F, mu, lambda));
        }
    }
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

// ------------------------------------------------------- volumetric models

namespace {

using VolumeV12 = ipc::Vector<double, 12>;

/// A skewed rest tetrahedron (so the rest inverse is not the identity).
VolumeV12 volume_rest_vertices()
{
    VolumeV12 X;
    X << 0.1, -0.2, 0.05, 1.2, 0.1, -0.1, 0.3, 0.9, 0.2, -0.1, 0.25, 1.1;
    return X;
}

TetRest<double> volume_rest(const VolumeV12& X)
{
    return tet_rest<double>(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6), X.segment<3>(9));
}

/// Current positions whose deformation gradient is F (plus a translation).
VolumeV12 volume_deformed(const VolumeV12& X, const Eigen::Matrix3d& F)
{
    VolumeV12 x;
    for (int i = 0; i < 4; ++i) {
        x.segment<3>(3 * i) = F * X.segment<3>(3 * i) + Eigen::Vector3d(0.3, -0.7, 0.2);
    }
    return x;
}

Eigen::Matrix3d volume_random_matrix(std::mt19937& rng, double amount)
{
    std::uniform_real_distribution<double> u(-amount, amount);
    Eigen::Matrix3d M;
    for (int k = 0; k < 9; ++k) {
        M.data()[k] = u(rng);
    }
    return M;
}

Eigen::Matrix3d volume_rotation(double angle, const Eigen::Vector3d& axis)
{
    return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Smallest eigenvalue >= -tol * largest (in magnitude).
bool volume_psd(const Eigen::MatrixXd& H, double tol)
{
    const Eigen::VectorXd values = ipc::test::reference_eigenvalues(H);
    return values.minCoeff() >= -tol * values.cwiseAbs().maxCoeff();
}

/// Checks the gradient and the unprojected Hessian of tet_energy against
/// central differences, and that the clamped Hessian is PSD.
void check_volume_derivatives(const TetMaterial<double>& m, const VolumeV12& X, const Eigen::Matrix3d& F)
{
    const auto rest = volume_rest(X);
    const VolumeV12 x = volume_deformed(X, F);
    INFO("model " << volume_model_name(m.model) << ", F =\n" << F << "\ndet F = " << F.determinant());
    auto f = [&](const Eigen::VectorXd& y) { return tet_energy<double>(VolumeV12(y), rest, m); };
    auto g = [&](const Eigen::VectorXd& y) {
        return Eigen::VectorXd(tet_energy_gradient<double>(VolumeV12(y), rest, m));
    };
    const Eigen::VectorXd grad = tet_energy_gradient<double>(x, rest, m);
    const Eigen::VectorXd grad_fd = fd_gradient(f, x);
    INFO("gradient error " << (grad - grad_fd).cwiseAbs().maxCoeff() << " of " << grad.cwiseAbs().maxCoeff());
    CHECK(fd_close(grad, grad_fd, 1e-5));
    const Eigen::MatrixXd H = tet_energy_hessian<double>(x, rest, m, PSDProjection::none);
    const Eigen::MatrixXd H_fd = fd_jacobian(g, x);
    INFO("Hessian error " << (H - H_fd).cwiseAbs().maxCoeff() << " of " << H.cwiseAbs().maxCoeff());
    CHECK(fd_close(H, H_fd, 1e-5));
    CHECK((H - H.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * H.cwiseAbs().maxCoeff());
    CHECK(volume_psd(tet_energy_hessian<double>(x, rest, m, PSDProjection::clamp), 1e-8));
}

} // namespace

TEST_CASE("neo-Hookean and fixed corotated: rest state and material", "[examples][elasticity]")
{
    const auto [mu, lambda] = lame_parameters(1e5, 0.4);
    for (const VolumeModel model : { VolumeModel::neo_hookean, VolumeModel::fixed_corotated }) {
        const auto m = tet_material_from(model, 1e5, 0.4);
        CHECK(m.model == model);
        CHECK(m.mu == mu);
        CHECK(m.lambda == lambda);
    }
    const auto stable = tet_material_from(VolumeModel::stable_neo_hookean, 1e5, 0.4);
    const auto reference = stable_neo_hookean_from(1e5, 0.4);
    CHECK(stable.model == VolumeModel::stable_neo_hookean);
    CHECK(stable.mu == reference.mu);
    CHECK(stable.lambda == reference.lambda);
    CHECK_THROWS_AS(tet_material_from(VolumeModel::fixed_corotated, 1e5, 0.5), ipc::invalid_argument);

    const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
    CHECK(neo_hookean_density(I, mu, lambda) == 0);
    CHECK(fixed_corotated_density(I, mu, lambda) == 0);
    CHECK(neo_hookean_stress(I, mu, lambda).cwiseAbs().maxCoeff() == 0);
    CHECK(fixed_corotated_stress(I, mu, lambda).cwiseAbs().maxCoeff() <= 1e-10 * mu);
    // A pure rotation is stress free too.
    const Eigen::Matrix3d R = volume_rotation(0.7, Eigen::Vector3d(1, 2, -0.5));
    CHECK(std::abs(neo_hookean_density(R, mu, lambda)) <= 1e-10 * mu);
    CHECK(std::abs(fixed_corotated_density(R, mu, lambda)) <= 1e-10 * mu);
    CHECK(neo_hookean_stress(R, mu, lambda).cwiseAbs().maxCoeff() <= 1e-10 * mu);
    CHECK(fixed_corotated_stress(R, mu, lambda).cwiseAbs().maxCoeff() <= 1e-10 * mu);
    // At rest the Hessian is that of linear elasticity for both models.
    const Eigen::Matrix<double, 9, 9> H_nh = neo_hookean_stress_derivative(I, mu, lambda);
    const Eigen::Matrix<double, 9, 9> H_fcr = fixed_corotated_stress_derivative(I, mu, lambda);
    CHECK((H_nh - H_fcr).cwiseAbs().maxCoeff() <= 1e-10 * mu);

    const VolumeV12 X = volume_rest_vertices();
    const auto rest = volume_rest(X);
    for (const VolumeModel model : { VolumeModel::neo_hookean, VolumeModel::fixed_corotated }) {
        const auto m = tet_material_from(model, 1e5, 0.4);
        CHECK(std::abs(tet_energy<double>(X, rest, m)) <= 1e-10 * mu);
        CHECK(tet_energy_gradient<double>(X, rest, m).cwiseAbs().maxCoeff() <= 1e-10 * mu);
    }
}

TEST_CASE("neo-Hookean and fixed corotated derivatives", "[examples][elasticity]")
{
    const VolumeV12 X = volume_rest_vertices();
    std::mt19937 rng(17);
    std::vector<Eigen::Matrix3d> states;
    for (int k = 0; k < 6; ++k) {
        // Large, non-inverted deformations.
        const Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + volume_random_matrix(rng, k < 3 ? 0.3 : 0.5);
        REQUIRE(F.determinant() > 0.1);
        states.push_back(F);
    }
    // A rotation with a little strain, and a large rotation with much.
    states.push_back(volume_rotation(2.5, Eigen::Vector3d(0.3, -1, 0.2))
        * (Eigen::Matrix3d::Identity() + 1e-3 * volume_random_matrix(rng, 1)));
    states.push_back(volume_rotation(-1.2, Eigen::Vector3d(1, 1, 1)) * Eigen::Vector3d(1.6, 0.7, 1.2).asDiagonal());
    for (const auto& F : states) {
        check_volume_derivatives(tet_material_from(VolumeModel::neo_hookean, 1e5, 0.4), X, F);
        check_volume_derivatives(tet_material_from(VolumeModel::fixed_corotated, 1e5, 0.4), X, F);
    }

    // Fixed corotated only: near and at rest, two (nearly) equal singular
    // values, and inverted elements (finite energy, smooth while
    // sigma_2 + sigma_3 > 0).
    const auto fcr = tet_material_from(VolumeModel::fixed_corotated, 1e5, 0.4);
    const Eigen::Matrix3d U = volume_rotation(0.8, Eigen::Vector3d(1, -2, 0.5));
    const Eigen::Matrix3d V = volume_rotation(-1.9, Eigen::Vector3d(0.2, 0.4, 1));
    check_volume_derivatives(fcr, X, Eigen::Matrix3d::Identity());
    check_volume_derivatives(fcr, X, U);
    check_volume_derivatives(fcr, X, U * Eigen::Vector3d(1.3, 1.3 + 1e-9, 0.8).asDiagonal() * V.transpose());
    check_volume_derivatives(fcr, X, U * Eigen::Vector3d(1.3, 1.3, 0.8).asDiagonal() * V.transpose());
    check_volume_derivatives(fcr, X, U * Eigen::Vector3d(1.1, 0.7, 0.7).asDiagonal() * V.transpose());
    check_volume_derivatives(fcr, X, U * Eigen::Vector3d(1.2, 0.9, -0.5).asDiagonal() * V.transpose());
    check_volume_derivatives(fcr, X, U * Eigen::Vector3d(0.9, 0.8, -0.2).asDiagonal());
}

TEST_CASE("neo-Hookean and fixed corotated inverted elements", "[examples][elasticity]")
{
    const VolumeV12 X = volume_rest_vertices();
    const auto rest = volume_rest(X);
    const auto nh = tet_material_from(VolumeModel::neo_hookean, 1e5, 0.4);
    const auto fcr = tet_material_from(VolumeModel::fixed_corotated, 1e5, 0.4);
    const Eigen::Matrix3d inverted = Eigen::Vector3d(1.1, 0.9, -0.3).asDiagonal();
    const Eigen::Matrix3d flat = Eigen::Vector3d(1.1, 0.9, 0).asDiagonal();
    for (const Eigen::Matrix3d& F : { inverted, flat }) {
        const VolumeV12 x = volume_deformed(X, F);
        INFO("det F = " << F.determinant());
        CHECK(tet_energy<double>(x, rest, nh) == std::numeric_limits<double>::infinity());
        // The derivatives stay finite and push toward larger volume.
        const VolumeV12 g = tet_energy_gradient<double>(x, rest, nh);
        CHECK(g.allFinite());
        const double step = 1e-6 / g.norm();
        const VolumeV12 y = x - step * g;
        const Eigen::Matrix3d Fy = detail::tet_deformation_gradient(y, rest.rest_inverse);
        CHECK(Fy.determinant() > F.determinant());
        CHECK(tet_energy_hessian<double>(x, rest, nh, PSDProjection::none).allFinite());
        CHECK(tet_energy_hessian<double>(x, rest, nh, PSDProjection::clamp).allFinite());

        const double e = tet_energy<double>(x, rest, fcr);
        CHECK(std::isfinite(e));
        CHECK(e > 0);
        CHECK(tet_energy_gradient<double>(x, rest, fcr).allFinite());
        CHECK(tet_energy_hessian<double>(x, rest, fcr, PSDProjection::clamp).allFinite());
    }
    // Two opposite singular values: R is not differentiable, the Hessian is
    // floored but finite.
    const Eigen::Matrix3d opposite = Eigen::Vector3d(1.0, 0.5, -0.5).asDiagonal();
    const VolumeV12 x = volume_deformed(X, opposite);
    CHECK(std::isfinite(tet_energy<double>(x, rest, fcr)));
    CHECK(tet_energy_hessian<double>(x, rest, fcr, PSDProjection::none).allFinite());
    CHECK(volume_psd(tet_energy_hessian<double>(x, rest, fcr, PSDProjection::clamp), 1e-8));
}

TEST_CASE("stable neo-Hookean through TetMaterial is bit-identical", "[examples][elasticity]")
{
    const VolumeV12 X = volume_rest_vertices();
    const auto rest = volume_rest(X);
    const auto m = tet_material_from(VolumeModel::stable_neo_hookean, 1e5, 0.4);
    const auto s = stable_neo_hookean_from(1e5, 0.4);
    for (int k = 0; k < 6; ++k) {
        // Includes inverted elements for the larger perturbations.
        const VolumeV12 x = perturbed(X, k < 3 ? 0.3 : 0.9, unsigned(100 + k));
        CHECK(tet_energy<double>(x, rest, m) == tet_energy<double>(x, rest, s));
        CHECK(tet_energy_gradient<double>(x, rest, m) == tet_energy_gradient<double>(x, rest, s));
        for (const PSDProjection p : { PSDProjection::none, PSDProjection::clamp, PSDProjection::abs }) {
            CHECK(tet_energy_hessian<double>(x, rest, m, p) == tet_energy_hessian<double>(x, rest, s, p));
        }
        CHECK(tet_energy_hessian<double>(x, rest, m) == tet_energy_hessian<double>(x, rest, s));
    }
}

TEST_CASE("neo-Hookean and fixed corotated agree at small strain", "[examples][elasticity]")
{
    const auto [mu, lambda] = lame_parameters(1e5, 0.4);
    const auto stable = stable_neo_hookean_from(1e5, 0.4);
    std::mt19937 rng(23);
    for (int k = 0; k < 4; ++k) {
        const Eigen::Matrix3d G = volume_random_matrix(rng, 1);
        // The two densities share their second-order term (linear
        // elasticity), so they differ at third order: relative difference
        // O(eps), about eps / 2 here.
        for (const double eps : { 1e-4, 1e-5 }) {
            const Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + eps * G;
            const Eigen::Matrix3d strain = eps * (G + G.transpose()) / 2;
            const double linear = mu * strain.squaredNorm() + lambda / 2 * strain.trace() * strain.trace();
            const double nh = neo_hookean_density(F, mu, lambda);
            const double fcr = fixed_corotated_density(F, mu, lambda);
            const double snh = stable_neo_hookean_density(F, stable);
            INFO("eps " << eps << ": linear " << linear << ", NH " << nh << ", FCR " << fcr << ", SNH " << snh);
            CHECK(std::abs(nh - fcr) <= 2 * eps * linear);
            CHECK(std::abs(nh - linear) <= 2 * eps * linear);
            CHECK(std::abs(fcr - linear) <= 2 * eps * linear);
            CHECK(std::abs(snh - linear) <= 2 * eps * linear);
        }
    }
}

TEST_CASE("volume model names", "[examples][elasticity]")
{
    for (const VolumeModel model :
        { VolumeModel::stable_neo_hookean, VolumeModel::neo_hookean, VolumeModel::fixed_corotated }) {
        CHECK(volume_model_from_name(volume_model_name(model)) == model);
    }
    CHECK(std::string(volume_model_name(VolumeModel::neo_hookean)) == "neo_hookean");
    CHECK(std::string(volume_model_name(VolumeModel::fixed_corotated)) == "fixed_corotated");
    CHECK(std::string(volume_model_name(VolumeModel::stable_neo_hookean)) == "stable_neo_hookean");
    CHECK_THROWS_AS(volume_model_from_name("foo"), ipc::invalid_argument);
    CHECK_THROWS_WITH(volume_model_from_name("foo"), Catch::Contains("foo") && Catch::Contains("fixed_corotated"));
    CHECK_THROWS_AS(volume_model_from_name("Neo_Hookean"), ipc::invalid_argument);
}

TEST_CASE("Model volumes take the volume model", "[examples][elasticity]")
{
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    Eigen::MatrixXi T(1, 4);
    T << 0, 1, 2, 3;
    for (const VolumeModel model :
        { VolumeModel::stable_neo_hookean, VolumeModel::neo_hookean, VolumeModel::fixed_corotated }) {
        Model m;
        m.add_volume(V, T, VolumeMaterial { 1000, 2e5, 0.3, model }, 0);
        REQUIRE(m.tets.size() == 1);
        const auto expected = tet_material_from(model, 2e5, 0.3);
        CHECK(m.tets[0].material.model == model);
        CHECK(m.tets[0].material.mu == expected.mu);
        CHECK(m.tets[0].material.lambda == expected.lambda);
        Eigen::MatrixXd x = V;
        x(3, 2) = 1.2;
        x(1, 1) = 0.1;
        VolumeV12 local;
        for (int i = 0; i < 4; ++i) {
            local.segment<3>(3 * i) = x.row(m.tets[0].vertices[std::size_t(i)]).transpose();
        }
        CHECK(m.element_energy(0, x) == tet_energy<double>(local, m.tets[0].rest, expected));
        CHECK(m.element_energy(0, x) > 0);
        // Inverting the tetrahedron: +infinity for neo-Hookean only.
        x(3, 2) = -0.5;
        CHECK(std::isinf(m.element_energy(0, x)) == (model == VolumeModel::neo_hookean));
    }
    // The default stays stable neo-Hookean.
    CHECK(VolumeMaterial {}.model == VolumeModel::stable_neo_hookean);
    CHECK(VolumeMaterial { 1000, 2e5, 0.4 }.model == VolumeModel::stable_neo_hookean);
}
