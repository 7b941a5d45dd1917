#include <ipc/strain_limit/isotropic_strain_limit.hpp>
#include <ipc/strain_limit/strain_limit_barrier.hpp>
#include <ipc/strain_limit/svd_3x2.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <catch2/catch.hpp>

#include "finite_differences.hpp"
#include "strain_limit_test_helpers.hpp"
#include <reference_eigen.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <random>

using namespace ipc;
using namespace ipc::test;

namespace {

const StrainLimitParameters<double> default_parameters {};

double energy_at(const Vec9& x, const TriangleRestShape<double>& rest,
    const StrainLimitParameters<double>& p = default_parameters)
{
    return isotropic_strain_limit_energy<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p);
}

Vec9 gradient_at(const Vec9& x, const TriangleRestShape<double>& rest,
    const StrainLimitParameters<double>& p = default_parameters)
{
    return isotropic_strain_limit_gradient<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p);
}

Eigen::Matrix<double, 9, 9> hessian_at(const Vec9& x, const TriangleRestShape<double>& rest,
    PSDProjection projection = PSDProjection::none,
    const StrainLimitParameters<double>& p = default_parameters)
{
    return isotropic_strain_limit_hessian<double>(
        x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), rest, p, projection);
}

void check_derivatives(const StretchedTriangle& t, double gradient_tol, double hessian_tol)
{
    const Vec9 x = t.stacked();
    const Eigen::VectorXd fd_g = fd_gradient(
        [&](const Eigen::VectorXd& y) { return energy_at(y, t.rest); }, x, 1e-6);
    const Vec9 g = gradient_at(x, t.rest);
    CHECK(relative_close(g, fd_g, gradient_tol));
    const Eigen::MatrixXd fd_h = fd_jacobian(
        [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(gradient_at(y, t.rest)); }, x,
        1e-6);
    const Eigen::Matrix<double, 9, 9> h = hessian_at(x, t.rest);
    CHECK(relative_close(h, fd_h, hessian_tol));
    CHECK(relative_close(h, h.transpose(), 1e-12));
}

double width() { return default_parameters.limit - default_parameters.threshold; }
double active_sigma(std::mt19937& rng)
{
    return default_parameters.threshold + width() * uniform(rng, 0.05, 0.95);
}

} // namespace

TEST_CASE("strain-limit barrier: values, derivatives and C2 clamp", "[strain_limit][barrier]")
{
    for (double y : { -0.9, -0.5, -0.1, -1e-3 }) {
        const double h = 1e-6;
        const double fd1 = (strain_limit_barrier(y + h) - strain_limit_barrier(y - h)) / (2 * h);
        const double fd2 = (strain_limit_barrier_first_derivative(y + h)
                               - strain_limit_barrier_first_derivative(y - h))
            / (2 * h);
        CHECK(strain_limit_barrier_first_derivative(y) == Approx(fd1).epsilon(1e-6));
        CHECK(strain_limit_barrier_second_derivative(y) == Approx(fd2).epsilon(1e-6));
        // Energy grows with stretch (y decreasing) and is convex.
        CHECK(strain_limit_barrier(y) > 0);
        CHECK(strain_limit_barrier_first_derivative(y) < 0);
        CHECK(strain_limit_barrier_second_derivative(y) > 0);
    }
    // Independent check of the formula at one point: -y^2 ln(1+y).
    CHECK(strain_limit_barrier(-0.5) == Approx(-0.25 * std::log(0.5)));
    // Exactly zero at and beyond the threshold.
    for (double y : { 0.0, 1e-12, 0.5, 10.0 }) {
        CHECK(strain_limit_barrier(y) == 0.0);
        CHECK(strain_limit_barrier_first_derivative(y) == 0.0);
        CHECK(strain_limit_barrier_second_derivative(y) == 0.0);
    }
    // C2 from the active side: b ~ -y^3, b' ~ -3 y^2, b'' ~ -6 y.
    for (double y : { -1e-3, -1e-5 }) {
        CHECK(strain_limit_barrier(y) == Approx(-y * y * y).epsilon(1e-2));
        CHECK(strain_limit_barrier_first_derivative(y) == Approx(-3 * y * y).epsilon(1e-2));
        CHECK(strain_limit_barrier_second_derivative(y) == Approx(-6 * y).epsilon(1e-2));
    }
    // Divergence at the limit, rejection past it.
    CHECK(strain_limit_barrier(-1 + 1e-12) > 10);
    CHECK_THROWS_AS(strain_limit_barrier(-1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(strain_limit_barrier(-1.5), ipc::error);
    CHECK_THROWS_AS(strain_limit_barrier(std::nan("")), ipc::invalid_argument);
}

TEST_CASE("strain-limit barrier: divided difference of b'", "[strain_limit][barrier]")
{
    const double pairs[][2] = { { -0.8, -0.3 }, { -0.5, -0.49 }, { -0.3, 0.2 }, { -0.01, -0.001 } };
    for (const auto& pair : pairs) {
        const double y1 = pair[0], y2 = pair[1];
        const double direct = (strain_limit_barrier_first_derivative(y1)
                                  - strain_limit_barrier_first_derivative(y2))
            / (y1 - y2);
        CHECK(detail::strain_limit_barrier_first_derivative_divided_difference(y1, y2)
            == Approx(direct).epsilon(1e-9));
    }
    for (double y : { -0.7, -0.2, -1e-4 }) {
        CHECK(detail::strain_limit_barrier_first_derivative_divided_difference(y, y)
            == Approx(strain_limit_barrier_second_derivative(y)).epsilon(1e-12));
        // Nearly equal arguments: no cancellation blow-up.
        CHECK(detail::strain_limit_barrier_first_derivative_divided_difference(y, y + 1e-13)
            == Approx(strain_limit_barrier_second_derivative(y)).epsilon(1e-9));
    }
}

TEST_CASE("closed-form 3x2 SVD", "[strain_limit][svd]")
{
    std::mt19937 rng(7);
    auto check = [](const Mat32& F) {
        const auto svd = singular_value_decomposition_3x2(F);
        REQUIRE(all_finite(svd.U));
        REQUIRE(all_finite(svd.V));
        REQUIRE(all_finite(svd.normal));
        const double scale = std::max(1e-300, F.norm());
        CHECK((svd.U * svd.singular_values.asDiagonal() * svd.V.transpose() - F).norm()
            <= 1e-13 * std::max(scale, 1.0));
        CHECK((svd.U.transpose() * svd.U - Eigen::Matrix2d::Identity()).norm() <= 1e-13);
        CHECK((svd.V.transpose() * svd.V - Eigen::Matrix2d::Identity()).norm() <= 1e-13);
        CHECK(svd.V.determinant() == Approx(1.0));
        CHECK((svd.U.transpose() * svd.normal).norm() <= 1e-13);
        CHECK(svd.normal.norm() == Approx(1.0));
        CHECK(svd.U.col(0).cross(svd.U.col(1)).dot(svd.normal) == Approx(1.0));
        CHECK(svd.singular_values[0] >= svd.singular_values[1]);
        CHECK(svd.singular_values[1] >= 0);
        CHECK(largest_singular_value(F) == Approx(svd.singular_values[0]).margin(1e-300));
        // Against Eigen's iterative SVD.
        Eigen::JacobiSVD<Mat32> reference(F);
        CHECK(svd.singular_values[0]
            == Approx(reference.singularValues()[0]).epsilon(1e-12).margin(1e-300));
        CHECK(svd.singular_values[1]
            == Approx(reference.singularValues()[1]).epsilon(1e-9).margin(1e-14 * scale));
    };
    for (int i = 0; i < 50; ++i) {
        check(random_F(rng, uniform(rng, 0.5, 2), uniform(rng, 0.1, 0.5)));
    }
    // Repeated singular values (isotropic stretch), thin and collapsed matrices.
    check(random_F(rng, 1.03, 1.03));
    check(1.03 * random_F(rng, 1, 1));
    check(random_F(rng, 1.0, 1e-9));
    check(random_F(rng, 1.0, 0.0));
    Mat32 parallel;
    parallel << 1, 2, 2, 4, 3, 6;
    check(parallel);
    check(Mat32::Zero());
}

TEST_CASE("isotropic strain limit: rest shape helper", "[strain_limit][rest]")
{
    const Vec3 X0(0, 0, 0), X1(2, 0, 0), X2(0, 1, 0);
    const auto rest = triangle_rest_shape(X0, X1, X2);
    CHECK(rest.area == Approx(1.0));
    // At rest F has orthonormal columns.
    const Mat32 F = triangle_deformation_gradient(X0, X1, X2, rest.inverse_rest_matrix);
    CHECK((F.transpose() * F - Eigen::Matrix2d::Identity()).norm() <= 1e-14);
    const auto rest2d = triangle_rest_shape<double>(
        Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 1), Eigen::Vector2d(2, 0));
    CHECK(rest2d.area == Approx(1.0));

    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(triangle_rest_shape(X0, X1, Vec3(4, 0, 0)), ipc::degenerate_geometry);
    CHECK_THROWS_AS(triangle_rest_shape(X0, X0, X0), ipc::degenerate_geometry);
    CHECK_THROWS_AS(triangle_rest_shape(X0, X1, Vec3(nan, 0, 0)), ipc::invalid_argument);
    CHECK_THROWS_AS(triangle_rest_shape(X0, X1, Vec3(0, INFINITY, 0)), ipc::invalid_argument);
    CHECK_THROWS_AS(triangle_rest_shape<double>(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1),
                        Eigen::Vector2d(2, 2)),
        ipc::degenerate_geometry);
    CHECK_THROWS_AS(triangle_rest_shape(X0, X1, X2, Vec3(0, 0, 1)), ipc::invalid_argument);
    CHECK_THROWS_AS(triangle_rest_shape(X0, X1, X2, Vec3(0, 0, 0)), ipc::invalid_argument);

    // pull-back helpers agree with the explicit Jacobian.
    std::mt19937 rng(3);
    const auto t = random_stretched_triangle(rng, 1.03, 1.01);
    const Eigen::Matrix<double, 6, 9> J = deformation_gradient_jacobian(t.rest.inverse_rest_matrix);
    const Mat32 Fx = triangle_deformation_gradient(t.x0, t.x1, t.x2, t.rest.inverse_rest_matrix);
    Eigen::Matrix<double, 6, 1> vecF;
    vecF << Fx.col(0), Fx.col(1);
    CHECK(relative_close(J * t.stacked(), vecF, 1e-13));
    Mat32 P;
    P << 1, 2, 3, 4, 5, 6;
    Eigen::Matrix<double, 6, 1> vecP;
    vecP << P.col(0), P.col(1);
    CHECK(relative_close(pull_back_gradient(P, t.rest.inverse_rest_matrix), J.transpose() * vecP, 1e-13));
    Eigen::Matrix<double, 6, 6> H = Eigen::Matrix<double, 6, 6>::Random();
    H = (H + H.transpose()).eval();
    CHECK(relative_close(
        pull_back_hessian(H, t.rest.inverse_rest_matrix), J.transpose() * H * J, 1e-13));
}

TEST_CASE("isotropic strain limit: gradient and Hessian match finite differences",
    "[strain_limit][isotropic]")
{
    std::mt19937 rng(11);
    SECTION("both singular values active")
    {
        for (int i = 0; i < 15; ++i) {
            double s1 = active_sigma(rng), s2 = active_sigma(rng);
            if (s1 < s2) {
                std::swap(s1, s2);
            }
            check_derivatives(random_stretched_triangle(rng, s1, s2), 1e-6, 1e-5);
        }
    }
    SECTION("one singular value active")
    {
        for (int i = 0; i < 15; ++i) {
            check_derivatives(
                random_stretched_triangle(rng, active_sigma(rng), uniform(rng, 0.3, 0.99)), 1e-6,
                1e-5);
        }
    }
    SECTION("repeated and nearly repeated singular values")
    {
        for (double gap : { 0.0, 1e-10, 1e-4 }) {
            const double s = active_sigma(rng);
            const auto t = random_stretched_triangle(rng, s + gap, s);
            check_derivatives(t, 1e-6, 1e-5);
            const auto h = hessian_at(t.stacked(), t.rest);
            CHECK(all_finite(h));
        }
        // Pure isotropic stretch of an axis-aligned triangle: V is exactly
        // undetermined; nothing may become NaN.
        const auto rest = triangle_rest_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0));
        const double s = 1.03;
        Vec9 x;
        x << 0, 0, 0, s, 0, 0, 0, s, 0;
        CHECK(std::isfinite(energy_at(x, rest)));
        CHECK(all_finite(gradient_at(x, rest)));
        CHECK(all_finite(hessian_at(x, rest)));
        CHECK(all_finite(hessian_at(x, rest, PSDProjection::clamp)));
        const Eigen::MatrixXd fd_h = fd_jacobian(
            [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(gradient_at(y, rest)); }, x,
            1e-6);
        CHECK(relative_close(hessian_at(x, rest), fd_h, 1e-5));
    }
    SECTION("collapsed current triangle (rank-one F)")
    {
        const auto t = random_stretched_triangle(rng, active_sigma(rng), 0.0);
        check_derivatives(t, 1e-6, 1e-5);
    }
}

TEST_CASE("isotropic strain limit: exactly zero below the threshold", "[strain_limit][isotropic]")
{
    std::mt19937 rng(5);
    for (int i = 0; i < 20; ++i) {
        const double s1 = uniform(rng, 0.2, 1.0);
        const auto t = random_stretched_triangle(rng, s1, uniform(rng, 0.0, s1));
        const Vec9 x = t.stacked();
        CHECK(energy_at(x, t.rest) == 0.0);
        CHECK(gradient_at(x, t.rest).isZero(0.0));
        CHECK(hessian_at(x, t.rest).isZero(0.0));
        CHECK(hessian_at(x, t.rest, PSDProjection::clamp).isZero(0.0));
    }
    // The rest configuration itself (sigma = 1 = threshold).
    const Vec3 X0(0.1, 0.2, 0.3), X1(1.2, 0.1, -0.3), X2(0.3, 0.9, 0.5);
    const auto rest = triangle_rest_shape(X0, X1, X2);
    Vec9 x;
    x << X0, X1, X2;
    CHECK(energy_at(x, rest) == 0.0);
    CHECK(gradient_at(x, rest).isZero(0.0));
    CHECK(hessian_at(x, rest).isZero(0.0));
}

TEST_CASE("isotropic strain limit: C2 continuity at the threshold", "[strain_limit][isotropic]")
{
    // Along a path crossing sigma_1 = s_hat, energy ~ delta^3, gradient ~
    // delta^2 and Hessian ~ delta: halving delta divides them by 8, 4, 2.
    std::mt19937 rng(9);
    const Mat32 direction = random_F(rng, 1.0, 0.8);
    const auto rest = triangle_rest_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 0.8, 0));
    const Eigen::Matrix2d rest_matrix = rest.inverse_rest_matrix.inverse();
    auto configuration = [&](double delta) {
        const Mat32 edges = (1.0 + delta) * direction * rest_matrix;
        Vec9 x;
        x << Vec3::Zero(), edges.col(0), edges.col(1);
        return x;
    };
    const double d = 1e-4;
    const double e1 = energy_at(configuration(d), rest), e2 = energy_at(configuration(d / 2), rest);
    const double g1 = gradient_at(configuration(d), rest).norm();
    const double g2 = gradient_at(configuration(d / 2), rest).norm();
    const double h1 = hessian_at(configuration(d), rest).norm();
    const double h2 = hessian_at(configuration(d / 2), rest).norm();
    REQUIRE(e1 > 0);
    CHECK(e1 / e2 == Approx(8).epsilon(1e-2));
    CHECK(g1 / g2 == Approx(4).epsilon(1e-2));
    CHECK(h1 / h2 == Approx(2).epsilon(1e-2));
    CHECK(energy_at(configuration(0.0), rest) == 0.0);
    CHECK(hessian_at(configuration(-1e-12), rest).isZero(0.0));
}

TEST_CASE("isotropic strain limit: analytic eigensystem and PSD projection",
    "[strain_limit][isotropic][psd]")
{
    std::mt19937 rng(13);
    for (int i = 0; i < 20; ++i) {
        const double s1 = active_sigma(rng);
        const double s2 = i % 2 == 0 ? active_sigma(rng) : uniform(rng, 0.2, 1.0);
        const Mat32 F = random_F(rng, std::max(s1, s2), std::min(s1, s2));
        const double limit = default_parameters.limit, threshold = default_parameters.threshold;
        const auto system = isotropic_strain_limit_density_eigensystem(F, limit, threshold);
        const Eigen::Matrix<double, 6, 6> H = isotropic_strain_limit_density_hessian(F, limit, threshold);
        // Orthonormal eigenvectors that really are eigenvectors of H.
        CHECK((system.eigenvectors.transpose() * system.eigenvectors
                  - Eigen::Matrix<double, 6, 6>::Identity())
                  .norm()
            <= 1e-12);
        for (int k = 0; k < 6; ++k) {
            CHECK(relative_close(H * system.eigenvectors.col(k),
                system.eigenvalues[k] * system.eigenvectors.col(k), 1e-10, H.norm()));
        }
        // Same spectrum as a dense solver.
        const Eigen::VectorXd dense = ipc::test::reference_eigenvalues(H);
        Eigen::VectorXd sorted = system.eigenvalues;
        std::sort(sorted.data(), sorted.data() + 6);
        CHECK(relative_close(sorted, dense, 1e-10));
        // Hessian in F is checked against finite differences of the F-gradient.
        Eigen::Matrix<double, 6, 1> vecF;
        vecF << F.col(0), F.col(1);
        const Eigen::MatrixXd fd = fd_jacobian(
            [&](const Eigen::VectorXd& y) {
                Mat32 G;
                G << y.segment<3>(0), y.segment<3>(3);
                const Mat32 P = isotropic_strain_limit_density_gradient(G, limit, threshold);
                Eigen::VectorXd out(6);
                out << P.col(0), P.col(1);
                return out;
            },
            vecF, 1e-7);
        CHECK(relative_close(H, fd, 1e-5));

        // The barrier is convex and non-decreasing in sigma, so the Hessian is
        // PSD and the projection must leave it unchanged (clamp and abs).
        CHECK(dense.minCoeff() >= -1e-12 * H.norm());
        const auto clamped = isotropic_strain_limit_density_hessian(
            F, limit, threshold, PSDProjection::clamp);
        CHECK(relative_close(clamped, H, 1e-14));
        CHECK(relative_close(
            isotropic_strain_limit_density_hessian(F, limit, threshold, PSDProjection::abs), H,
            1e-14));
        CHECK(relative_close(project_to_psd(H), clamped, 1e-10));

        // Nodal projected Hessian is PSD.
        const auto t = random_stretched_triangle(rng, std::max(s1, s2), std::min(s1, s2));
        const auto projected = hessian_at(t.stacked(), t.rest, PSDProjection::clamp);
        CHECK(ipc::test::smallest_eigenvalue(projected) >= -1e-12 * projected.norm());
        CHECK(relative_close(projected, hessian_at(t.stacked(), t.rest), 1e-14));
    }
}

TEST_CASE("isotropic strain limit: invariance under rigid motion", "[strain_limit][isotropic]")
{
    std::mt19937 rng(17);
    for (int i = 0; i < 10; ++i) {
        const auto t = random_stretched_triangle(rng, active_sigma(rng), active_sigma(rng));
        const Eigen::Matrix3d R = random_rotation(rng);
        const Vec3 shift = random_vector(rng, 10);
        Eigen::Matrix<double, 9, 9> block_rotation = Eigen::Matrix<double, 9, 9>::Zero();
        Vec9 moved;
        for (int v = 0; v < 3; ++v) {
            block_rotation.block<3, 3>(3 * v, 3 * v) = R;
            moved.segment<3>(3 * v) = R * t.stacked().segment<3>(3 * v) + shift;
        }
        const Vec9 x = t.stacked();
        CHECK(energy_at(moved, t.rest) == Approx(energy_at(x, t.rest)).epsilon(1e-10));
        CHECK(relative_close(gradient_at(moved, t.rest), block_rotation * gradient_at(x, t.rest), 1e-9));
        CHECK(relative_close(hessian_at(moved, t.rest),
            block_rotation * hessian_at(x, t.rest) * block_rotation.transpose(), 1e-9));
        // Translation invariance: gradient sums to zero over the vertices.
        const Vec9 g = gradient_at(x, t.rest);
        CHECK((g.segment<3>(0) + g.segment<3>(3) + g.segment<3>(6)).norm() <= 1e-12 * g.norm());
    }
}

TEST_CASE("isotropic strain limit: energy scales with stiffness, area and thickness",
    "[strain_limit][isotropic]")
{
    std::mt19937 rng(19);
    const auto t = random_stretched_triangle(rng, 1.04, 1.02);
    const Mat32 F = triangle_deformation_gradient(t.x0, t.x1, t.x2, t.rest.inverse_rest_matrix);
    StrainLimitParameters<double> p;
    p.stiffness = 2500;
    p.thickness = 1e-3;
    const double density = isotropic_strain_limit_density(F, p.limit, p.threshold);
    // Independent evaluation of Eq. 5 with Eigen's SVD.
    Eigen::JacobiSVD<Mat32> svd(F);
    double expected = 0;
    for (int i = 0; i < 2; ++i) {
        const double sigma = svd.singularValues()[i];
        if (sigma > p.threshold) {
            const double ratio = (p.threshold - sigma) / (p.limit - p.threshold);
            expected += -ratio * ratio * std::log((p.limit - sigma) / (p.limit - p.threshold));
        }
    }
    CHECK(density == Approx(expected).epsilon(1e-10));
    CHECK(energy_at(t.stacked(), t.rest, p)
        == Approx(p.stiffness * t.rest.area * p.thickness * expected).epsilon(1e-10));
}

TEST_CASE("isotropic strain limit: bad input raises ipc errors", "[strain_limit][isotropic]")
{
    std::mt19937 rng(23);
    const auto t = random_stretched_triangle(rng, 1.03, 1.0);
    const Vec9 x = t.stacked();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Vec9 bad = x;
    bad[4] = nan;
    CHECK_THROWS_AS(energy_at(bad, t.rest), ipc::invalid_argument);
    CHECK_THROWS_AS(gradient_at(bad, t.rest), ipc::invalid_argument);
    CHECK_THROWS_AS(hessian_at(bad, t.rest), ipc::invalid_argument);
    bad[4] = INFINITY;
    CHECK_THROWS_AS(energy_at(bad, t.rest), ipc::invalid_argument);

    // Past the limit.
    const auto over = random_stretched_triangle(rng, 1.07, 1.0);
    CHECK_THROWS_AS(energy_at(over.stacked(), over.rest), ipc::invalid_argument);
    CHECK_THROWS_AS(gradient_at(over.stacked(), over.rest), ipc::invalid_argument);
    CHECK_THROWS_AS(hessian_at(over.stacked(), over.rest), ipc::invalid_argument);

    StrainLimitParameters<double> p;
    p.threshold = 1.1; // above the limit
    CHECK_THROWS_AS(energy_at(x, t.rest, p), ipc::invalid_argument);
    p = StrainLimitParameters<double> {};
    p.threshold = 0;
    CHECK_THROWS_AS(gradient_at(x, t.rest, p), ipc::invalid_argument);
    p = StrainLimitParameters<double> {};
    p.thickness = -1;
    CHECK_THROWS_AS(hessian_at(x, t.rest, PSDProjection::clamp, p), ipc::invalid_argument);
    p = StrainLimitParameters<double> {};
    p.stiffness = nan;
    CHECK_THROWS_AS(energy_at(x, t.rest, p), ipc::error);
}

TEMPLATE_TEST_CASE("isotropic strain limit: float and long double agree with double",
    "[strain_limit][isotropic][types]", float, long double)
{
    using T = TestType;
    std::mt19937 rng(29);
    const double tol = std::is_same<T, float>::value ? 2e-3 : 1e-12;
    for (int i = 0; i < 5; ++i) {
        const auto t = random_stretched_triangle(rng, 1.045, i % 2 ? 1.02 : 0.9);
        const Vector3<T> x0 = t.x0.cast<T>(), x1 = t.x1.cast<T>(), x2 = t.x2.cast<T>();
        TriangleRestShape<T> rest;
        rest.inverse_rest_matrix = t.rest.inverse_rest_matrix.cast<T>();
        rest.area = T(t.rest.area);
        const StrainLimitParameters<T> p {};
        const T energy = isotropic_strain_limit_energy(x0, x1, x2, rest, p);
        CHECK(double(energy) == Approx(energy_at(t.stacked(), t.rest)).epsilon(tol));
        const Vector<T, 9> g = isotropic_strain_limit_gradient(x0, x1, x2, rest, p);
        CHECK(relative_close(g.template cast<double>(), gradient_at(t.stacked(), t.rest), tol));
        const Matrix<T, 9, 9> h
            = isotropic_strain_limit_hessian(x0, x1, x2, rest, p, PSDProjection::clamp);
        CHECK(relative_close(h.template cast<double>(),
            hessian_at(t.stacked(), t.rest, PSDProjection::clamp), tol));
        // Rest shape helper in T.
        const auto rest_t = triangle_rest_shape<T>(Vector3<T>(0, 0, 0), Vector3<T>(1, 0, 0),
            Vector3<T>(0, 1, 0));
        CHECK(double(rest_t.area) == Approx(0.5));
    }
}
