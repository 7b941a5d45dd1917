#include <ipc/strain_limit/anisotropic_strain_limit.hpp>

#include <catch2/catch.hpp>

#include "finite_differences.hpp"
#include "strain_limit_test_helpers.hpp"
#include <reference_eigen.hpp>


#include <cmath>
#include <limits>
#include <random>

using namespace ipc;
using namespace ipc::test;

namespace {

using Parameters = AnisotropicStrainLimitParameters<double>;

Parameters anisotropic_parameters()
{
    Parameters p;
    p.warp_modulus = 3.0e6;
    p.weft_modulus = 1.2e6;
    p.coupling_modulus = 0.4e6;
    p.shear_modulus = 0.25e6;
    p.warp_limit = 0.14;
    p.weft_limit = 0.10;
    p.shear_limit = 0.063;
    return p;
}

double energy_at(const Vec9& x, const TriangleRestShape<double>& rest, const Parameters& p)
{
    return anisotropic_strain_limit_energy<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p);
}
Vec9 gradient_at(const Vec9& x, const TriangleRestShape<double>& rest, const Parameters& p)
{
    return anisotropic_strain_limit_gradient<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p);
}
Eigen::Matrix<double, 9, 9> hessian_at(const Vec9& x, const TriangleRestShape<double>& rest,
    const Parameters& p, PSDProjection projection = PSDProjection::none)
{
    return anisotropic_strain_limit_hessian<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p, projection);
}

/// A random rest triangle (with a random warp direction) deformed by a
/// random F whose Green strain is a random feasible fraction of the limits.
StretchedTriangle random_strained_triangle(std::mt19937& rng, const Parameters& p, double fraction)
{
    StretchedTriangle t;
    Vec3 X0, X1, X2;
    do {
        X0 = random_vector(rng);
        X1 = random_vector(rng);
        X2 = random_vector(rng);
    } while ((X1 - X0).cross(X2 - X0).norm() < 0.3);
    t.rest = triangle_rest_shape(X0, X1, X2, random_vector(rng));
    // F = R * sqrt(I + 2E) realises the Green strain E exactly.
    Eigen::Matrix2d E;
    E(0, 0) = fraction * p.warp_limit * uniform(rng, -1, 1);
    E(1, 1) = fraction * p.weft_limit * uniform(rng, -1, 1);
    E(0, 1) = E(1, 0) = fraction * p.shear_limit * uniform(rng, -1, 1);
    const Eigen::Matrix2d C = Eigen::Matrix2d::Identity() + 2 * E;
    const auto eig = reference_eigen(C);
    const Eigen::Matrix2d stretch = eig.vectors * eig.values.cwiseSqrt().asDiagonal() * eig.vectors.transpose();
    Mat32 embed = Mat32::Zero();
    embed(0, 0) = embed(1, 1) = 1;
    const Mat32 F = random_rotation(rng) * embed * stretch;
    const Mat32 edges = F * t.rest.inverse_rest_matrix.inverse();
    t.x0 = random_vector(rng);
    t.x1 = t.x0 + edges.col(0);
    t.x2 = t.x0 + edges.col(1);
    return t;
}

} // namespace

TEST_CASE("anisotropic strain limit: strain-space derivatives and rest matching",
    "[strain_limit][anisotropic]")
{
    const Parameters p = anisotropic_parameters();
    // At rest: zero energy and stress; the Hessian equals the fitted moduli.
    const Eigen::Matrix2d zero = Eigen::Matrix2d::Zero();
    CHECK(anisotropic_strain_limit_density(zero, p) == 0.0);
    CHECK(anisotropic_strain_limit_density_strain_gradient(zero, p).isZero(0.0));
    Eigen::Matrix3d expected;
    expected << p.warp_modulus, p.coupling_modulus, 0, p.coupling_modulus, p.weft_modulus, 0, 0,
        0, 2 * p.shear_modulus;
    CHECK(relative_close(anisotropic_strain_limit_density_strain_hessian(zero, p), expected, 1e-15));

    // Small strains: the barrier model agrees with the quadratic orthotropic
    // model 1/2 a11 E11^2 + 1/2 a22 E22^2 + a12 E11 E22 + G12 E12^2 to
    // relative order strain^2 / limit^2.
    Eigen::Matrix2d small;
    small << 1e-4, -2e-5, -2e-5, -5e-5;
    const double quadratic = 0.5 * p.warp_modulus * small(0, 0) * small(0, 0)
        + 0.5 * p.weft_modulus * small(1, 1) * small(1, 1)
        + p.coupling_modulus * small(0, 0) * small(1, 1)
        + p.shear_modulus * small(0, 1) * small(0, 1);
    CHECK(anisotropic_strain_limit_density(small, p) == Approx(quadratic).epsilon(1e-5));

    // Finite differences in (E11, E22, E12).
    std::mt19937 rng(31);
    for (int i = 0; i < 10; ++i) {
        Eigen::Vector3d e(uniform(rng, -0.9, 0.9) * p.warp_limit,
            uniform(rng, -0.9, 0.9) * p.weft_limit, uniform(rng, -0.9, 0.9) * p.shear_limit);
        auto to_matrix = [](const Eigen::VectorXd& v) {
            Eigen::Matrix2d E;
            E << v[0], v[2], v[2], v[1];
            return E;
        };
        const Eigen::VectorXd fd_g = fd_gradient(
            [&](const Eigen::VectorXd& v) { return anisotropic_strain_limit_density(to_matrix(v), p); },
            e, 1e-8);
        CHECK(relative_close(anisotropic_strain_limit_density_strain_gradient(to_matrix(e), p), fd_g, 1e-6));
        const Eigen::MatrixXd fd_h = fd_jacobian(
            [&](const Eigen::VectorXd& v) {
                return Eigen::VectorXd(anisotropic_strain_limit_density_strain_gradient(to_matrix(v), p));
            },
            e, 1e-8);
        CHECK(relative_close(anisotropic_strain_limit_density_strain_hessian(to_matrix(e), p), fd_h, 1e-6));
    }

    // The barrier diverges as a component approaches its limit.
    Eigen::Matrix2d near = Eigen::Matrix2d::Zero();
    near(1, 1) = p.weft_limit * (1 - 1e-9);
    CHECK(anisotropic_strain_limit_density(near, p)
        > 10 * 0.5 * p.weft_modulus * p.weft_limit * p.weft_limit);
    near(1, 1) = -p.weft_limit * (1 - 1e-9); // symmetric in stretch and compression
    CHECK(anisotropic_strain_limit_density(near, p)
        > 10 * 0.5 * p.weft_modulus * p.weft_limit * p.weft_limit);
}

TEST_CASE("anisotropic strain limit: nodal gradient and Hessian match finite differences",
    "[strain_limit][anisotropic]")
{
    const Parameters p = anisotropic_parameters();
    std::mt19937 rng(37);
    for (double fraction : { 0.2, 0.6, 0.9 }) {
        for (int i = 0; i < 6; ++i) {
            const auto t = random_strained_triangle(rng, p, fraction);
            const Vec9 x = t.stacked();
            const Eigen::VectorXd fd_g = fd_gradient(
                [&](const Eigen::VectorXd& y) { return energy_at(y, t.rest, p); }, x, 1e-7);
            CHECK(relative_close(gradient_at(x, t.rest, p), fd_g, 1e-5));
            const Eigen::MatrixXd fd_h = fd_jacobian(
                [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(gradient_at(y, t.rest, p)); },
                x, 1e-7);
            const auto h = hessian_at(x, t.rest, p);
            CHECK(relative_close(h, fd_h, 1e-5));
            CHECK(relative_close(h, h.transpose(), 1e-12));
        }
    }
}

TEST_CASE("anisotropic strain limit: PSD projection", "[strain_limit][anisotropic][psd]")
{
    const Parameters p = anisotropic_parameters();
    std::mt19937 rng(41);
    int indefinite = 0;
    for (int i = 0; i < 30; ++i) {
        const auto t = random_strained_triangle(rng, p, 0.9);
        const Vec9 x = t.stacked();
        const auto h = hessian_at(x, t.rest, p);
        const auto projected = hessian_at(x, t.rest, p, PSDProjection::clamp);
        CHECK(ipc::test::smallest_eigenvalue(projected) >= -1e-10 * projected.norm());
        // The projection acts on the 6x6 density Hessian in F; the nodal
        // Hessian is its pull-back J^T H J. Classify definiteness where the
        // projection works: in x, round-off amplified by J can show slightly
        // negative eigenvalues even when H is PSD.
        const Mat32 F = triangle_deformation_gradient(
            Vec3(x.segment<3>(0)), Vec3(x.segment<3>(3)), Vec3(x.segment<3>(6)),
            t.rest.inverse_rest_matrix);
        const Eigen::Matrix<double, 6, 6> density = anisotropic_strain_limit_density_hessian(F, p);
        if (ipc::test::smallest_eigenvalue(density) >= 0) {
            CHECK(relative_close(projected, h, 1e-10));
        } else {
            ++indefinite;
            // Clamping only adds curvature: projected - h is PSD and nonzero.
            const Eigen::VectorXd added = ipc::test::reference_eigenvalues(projected - h);
            CHECK(added.minCoeff() >= -1e-10 * h.norm());
            CHECK(added.maxCoeff() > 0);
        }
    }
    // Compressed membranes buckle: some of these states must be indefinite,
    // otherwise the projection was never exercised.
    CHECK(indefinite > 0);

    // At rest the Hessian is PSD of rank 3: nine coordinates minus six rigid
    // motions leave the three strain components, all with positive stiffness.
    const auto rest = triangle_rest_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0));
    Vec9 x;
    x << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    CHECK(energy_at(x, rest, p) == 0.0);
    CHECK(gradient_at(x, rest, p).isZero(1e-12));
    const auto h = hessian_at(x, rest, p);
    const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(h);
    CHECK(eigenvalues.minCoeff() >= -1e-9 * h.norm());
    int positive = 0;
    for (int k = 0; k < 9; ++k) {
        positive += eigenvalues[k] > 1e-9 * h.norm();
    }
    CHECK(positive == 3);
}

TEST_CASE("anisotropic strain limit: material frame and limits per direction",
    "[strain_limit][anisotropic]")
{
    const Parameters p = anisotropic_parameters(); // warp limit 0.14 > weft limit 0.10
    // Unit right triangle with warp along x. Stretch by factor lambda along
    // x or along y: E = (lambda^2 - 1) / 2 = 0.12 is feasible for warp only.
    const double lambda = std::sqrt(1 + 2 * 0.12);
    const auto rest_x = triangle_rest_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0));
    const auto rest_y = triangle_rest_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 1, 0));
    const Vec3 x0(0, 0, 0), x1(lambda, 0, 0), x2(0, 1, 0);
    CHECK(is_anisotropic_strain_feasible(x0, x1, x2, rest_x.inverse_rest_matrix, p));
    CHECK(!is_anisotropic_strain_feasible(x0, x1, x2, rest_y.inverse_rest_matrix, p));
    Vec9 x;
    x << x0, x1, x2;
    CHECK(std::isfinite(energy_at(x, rest_x, p)));
    CHECK_THROWS_AS(energy_at(x, rest_y, p), ipc::invalid_argument);
    CHECK_THROWS_AS(gradient_at(x, rest_y, p), ipc::invalid_argument);
    CHECK_THROWS_AS(hessian_at(x, rest_y, p), ipc::invalid_argument);
    // Green strain read off the same configuration.
    const Mat32 F = triangle_deformation_gradient(x0, x1, x2, rest_x.inverse_rest_matrix);
    CHECK(green_strain(F)(0, 0) == Approx(0.12));
    CHECK(green_strain(F)(1, 1) == Approx(0.0).margin(1e-15));
}

TEST_CASE("anisotropic strain limit: rigid-motion invariance and bad input",
    "[strain_limit][anisotropic]")
{
    const Parameters p = anisotropic_parameters();
    std::mt19937 rng(43);
    const auto t = random_strained_triangle(rng, p, 0.7);
    const Eigen::Matrix3d R = random_rotation(rng);
    Vec9 moved;
    Eigen::Matrix<double, 9, 9> block_rotation = Eigen::Matrix<double, 9, 9>::Zero();
    for (int v = 0; v < 3; ++v) {
        moved.segment<3>(3 * v) = R * t.stacked().segment<3>(3 * v) + Vec3(1, 2, 3);
        block_rotation.block<3, 3>(3 * v, 3 * v) = R;
    }
    CHECK(energy_at(moved, t.rest, p) == Approx(energy_at(t.stacked(), t.rest, p)).epsilon(1e-10));
    CHECK(relative_close(
        gradient_at(moved, t.rest, p), block_rotation * gradient_at(t.stacked(), t.rest, p), 1e-9));

    Vec9 bad = t.stacked();
    bad[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(energy_at(bad, t.rest, p), ipc::invalid_argument);
    CHECK_THROWS_AS(hessian_at(bad, t.rest, p), ipc::invalid_argument);
    Parameters q = p;
    q.coupling_modulus = 2e6; // a12^2 > a11 a22: no positive-definite rest stiffness
    CHECK_THROWS_AS(energy_at(t.stacked(), t.rest, q), ipc::invalid_argument);
    q = p;
    q.shear_limit = 0;
    CHECK_THROWS_AS(gradient_at(t.stacked(), t.rest, q), ipc::error);
    q = p;
    q.thickness = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(energy_at(t.stacked(), t.rest, q), ipc::invalid_argument);
}

TEST_CASE("anisotropic strain limit: isotropic factory", "[strain_limit][anisotropic]")
{
    // from_isotropic reproduces plane-stress St. Venant-Kirchhoff at small strain:
    // psi = mu E:E + lambda/2 tr(E)^2.
    const double young = 1e6, poisson = 0.3;
    const auto p = Parameters::from_isotropic(young, poisson);
    const double mu = young / (2 * (1 + poisson));
    const double lambda = young * poisson / (1 - poisson * poisson);
    Eigen::Matrix2d E;
    E << 2e-5, 1e-5, 1e-5, -3e-5;
    const double stvk = mu * (E.array() * E.array()).sum() + 0.5 * lambda * E.trace() * E.trace();
    CHECK(anisotropic_strain_limit_density(E, p) == Approx(stvk).epsilon(1e-5));
    CHECK_NOTHROW(Parameters {}.validate());
}

TEMPLATE_TEST_CASE("anisotropic strain limit: float and long double agree with double",
    "[strain_limit][anisotropic][types]", float, long double)
{
    using T = TestType;
    const double tol = std::is_same<T, float>::value ? 5e-3 : 1e-11;
    const Parameters p = anisotropic_parameters();
    AnisotropicStrainLimitParameters<T> pt;
    pt.warp_modulus = T(p.warp_modulus);
    pt.weft_modulus = T(p.weft_modulus);
    pt.coupling_modulus = T(p.coupling_modulus);
    pt.shear_modulus = T(p.shear_modulus);
    pt.warp_limit = T(p.warp_limit);
    pt.weft_limit = T(p.weft_limit);
    pt.shear_limit = T(p.shear_limit);
    std::mt19937 rng(47);
    for (int i = 0; i < 4; ++i) {
        const auto t = random_strained_triangle(rng, p, 0.5);
        TriangleRestShape<T> rest;
        rest.inverse_rest_matrix = t.rest.inverse_rest_matrix.cast<T>();
        rest.area = T(t.rest.area);
        const Vector3<T> x0 = t.x0.cast<T>(), x1 = t.x1.cast<T>(), x2 = t.x2.cast<T>();
        CHECK(double(anisotropic_strain_limit_energy(x0, x1, x2, rest, pt))
            == Approx(energy_at(t.stacked(), t.rest, p)).epsilon(tol));
        CHECK(relative_close(anisotropic_strain_limit_gradient(x0, x1, x2, rest, pt).template cast<double>(),
            gradient_at(t.stacked(), t.rest, p), tol));
        CHECK(relative_close(
            anisotropic_strain_limit_hessian(x0, x1, x2, rest, pt, PSDProjection::clamp)
                .template cast<double>(),
            hessian_at(t.stacked(), t.rest, p, PSDProjection::clamp), tol));
    }
}
