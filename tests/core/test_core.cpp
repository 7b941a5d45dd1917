#include <catch2/catch.hpp>
#include <reference_eigen.hpp>

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

TEST_CASE("require throws ipc errors with the message", "[core]")
{
    CHECK_NOTHROW(ipc::require(true, "never"));
    try {
        ipc::require(false, "value ", 3.5, " is out of range");
        FAIL("require(false) did not throw");
    } catch (const ipc::invalid_argument& e) {
        CHECK(std::string(e.what()) == "ipc: value 3.5 is out of range");
    }
    CHECK_THROWS_AS(
        ipc::require<ipc::degenerate_geometry>(false, "edge 3 has zero length"), ipc::error);
}

TEST_CASE("all_finite detects NaN and infinity", "[core]")
{
    Eigen::Vector3d v(1, 2, 3);
    CHECK(ipc::all_finite(v));
    v[1] = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(ipc::all_finite(v));
    v[1] = std::numeric_limits<double>::infinity();
    CHECK_FALSE(ipc::all_finite(v));
}

TEST_CASE("project_to_psd", "[core]")
{
    Eigen::Matrix3d A = Eigen::Matrix3d::Random();
    A = (A + A.transpose()).eval();
    const Eigen::Matrix3d P = ipc::project_to_psd(A);
    const Eigen::VectorXd eig = ipc::test::reference_eigenvalues(P);
    CHECK(eig.minCoeff() >= -1e-12);

    // Clamping keeps the nonnegative part of the spectrum unchanged.
    const Eigen::VectorXd eigA = ipc::test::reference_eigenvalues(A);
    const Eigen::VectorXd clamped = eigA.cwiseMax(0.0);
    CHECK((eig - clamped).cwiseAbs().maxCoeff() < 1e-12);

    // abs flips negative eigenvalues.
    const Eigen::Matrix3d Q = ipc::project_to_psd(A, ipc::PSDProjection::abs);
    Eigen::VectorXd expected = eigA.cwiseAbs();
    std::sort(expected.data(), expected.data() + 3);
    CHECK((ipc::test::reference_eigenvalues(Q) - expected).cwiseAbs().maxCoeff() < 1e-12);

    // A PSD matrix comes back unchanged.
    const Eigen::Matrix3d S = A * A.transpose();
    CHECK(ipc::project_to_psd(S) == S);
}

namespace {
/// Symmetric matrix U diag(lambda) U^T with a random orthogonal U and
/// `negatives` of its n eigenvalues negative (magnitudes 1e-3 to 10).
template <typename M> M with_spectrum(std::mt19937_64& rng, int n, int negatives)
{
    std::uniform_real_distribution<double> magnitude(-3.0, 1.0);
    const Eigen::MatrixXd U = ipc::test::random_orthogonal<double>(n, rng);
    Eigen::VectorXd lambda(n);
    for (int i = 0; i < n; ++i) {
        lambda[i] = (i < negatives ? -1.0 : 1.0) * std::pow(10.0, magnitude(rng));
    }
    const Eigen::MatrixXd A = U * lambda.asDiagonal() * U.transpose();
    return M(0.5 * (A + A.transpose()));
}

/// project_to_psd against the reconstruction from Eigen's eigensolver, for
/// every count of negative eigenvalues.
template <typename M> void check_projection_against_reconstruction(int n)
{
    std::mt19937_64 rng(4100 + n);
    for (int negatives = 0; negatives <= n; ++negatives) {
        for (int trial = 0; trial < 5; ++trial) {
            const M A = with_spectrum<M>(rng, n, negatives);
            const Eigen::MatrixXd dense = A;
            const auto eig = ipc::test::reference_eigen(dense);
            for (const auto method : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
                const Eigen::VectorXd projected = method == ipc::PSDProjection::clamp
                    ? Eigen::VectorXd(eig.values.cwiseMax(0.0))
                    : Eigen::VectorXd(eig.values.cwiseAbs());
                const Eigen::MatrixXd expected = eig.vectors * projected.asDiagonal() * eig.vectors.transpose();
                const M P = ipc::project_to_psd(A, method);
                CHECK((Eigen::MatrixXd(P) - expected).norm() <= 1e-12 * (1 + dense.norm()));
                CHECK(P == P.transpose());
            }
        }
    }
}
} // namespace

TEST_CASE("project_to_psd matches the eigen-reconstruction for any number of negative eigenvalues", "[core]")
{
    check_projection_against_reconstruction<Eigen::Matrix<double, 5, 5>>(5);
    check_projection_against_reconstruction<Eigen::Matrix<double, 9, 9>>(9);
    check_projection_against_reconstruction<Eigen::Matrix<double, 12, 12>>(12);
    check_projection_against_reconstruction<Eigen::MatrixXd>(7);
}

namespace {
// A random symmetric, indefinite 3N x 3N matrix that annihilates rigid
// translations (the Hessian shape of any translation-invariant energy).
template <int N> ipc::Matrix<double, 3 * N, 3 * N> random_translation_invariant(double scale)
{
    using M = ipc::Matrix<double, 3 * N, 3 * N>;
    M A = M::Random();
    A = (scale * (A + A.transpose())).eval();
    M T = M::Identity(); // I - projector onto the three translations
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) {
            T.template block<3, 3>(3 * i, 3 * j) -= Eigen::Matrix3d::Identity() / N;
        }
    }
    return T * A * T;
}

template <int N> void check_translation_invariant_projection()
{
    for (int trial = 0; trial < 200; ++trial) {
        const double scale = std::pow(10.0, trial % 9 - 4);
        const auto H = random_translation_invariant<N>(scale);
        for (const auto method : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
            const auto expected = ipc::project_to_psd(H, method);
            const auto reduced = ipc::project_translation_invariant_to_psd<N>(H, method);
            CHECK((reduced - expected).norm() <= 1e-12 * H.norm());
            CHECK((reduced - reduced.transpose()).norm() <= 1e-14 * H.norm());
        }
        CHECK(ipc::project_translation_invariant_to_psd<N>(H, ipc::PSDProjection::none) == H);
    }
}
} // namespace

TEST_CASE("projection of translation-invariant Hessians equals the dense projection", "[core]")
{
    check_translation_invariant_projection<2>();
    check_translation_invariant_projection<3>();
    check_translation_invariant_projection<4>();
    // A PSD input comes back unchanged up to round-off; float works too.
    Eigen::Matrix<float, 6, 6> S = Eigen::Matrix<float, 6, 6>::Zero();
    S.block<3, 3>(0, 0) = S.block<3, 3>(3, 3) = Eigen::Matrix3f::Identity();
    S.block<3, 3>(0, 3) = S.block<3, 3>(3, 0) = -Eigen::Matrix3f::Identity();
    CHECK((ipc::project_translation_invariant_to_psd<2>(S) - S).norm() <= 1e-6f);
}

TEST_CASE("parallel_for visits every index once", "[core]")
{
    std::vector<int> hits(1000, 0);
    ipc::parallel_for(0, 1000, [&](std::ptrdiff_t i) { hits[size_t(i)] += 1; });
    for (int h : hits) {
        CHECK(h == 1);
    }
}

TEST_CASE("The tests' reference eigensolver recovers a known spectrum", "[core][reference]")
{
    // reference_eigen (cyclic Jacobi) is the ground truth of the PSD tests:
    // check it on U diag(lambda) U^T with known lambda, repeated and
    // widely scaled eigenvalues included.
    std::mt19937_64 rng(77);
    for (const int n : { 1, 2, 5, 12, 30 }) {
        for (const double scale : { 1e-20, 1.0, 1e20 }) {
            Eigen::VectorXd lambda(n);
            for (int i = 0; i < n; ++i) {
                lambda[i] = scale * (i % 3 == 0 ? 0.0 : (i % 2 ? 1.0 : -1.0) * std::pow(10.0, i % 5 - 2));
            }
            const Eigen::MatrixXd U = ipc::test::random_orthogonal<double>(n, rng);
            CHECK((U.transpose() * U - Eigen::MatrixXd::Identity(n, n)).norm() <= 1e-14 * n);
            const Eigen::MatrixXd A = U * lambda.asDiagonal() * U.transpose();
            const auto eig = ipc::test::reference_eigen(A);
            Eigen::VectorXd sorted = lambda;
            std::sort(sorted.data(), sorted.data() + n);
            CHECK((eig.values - sorted).norm() <= 1e-13 * (1 + n) * lambda.cwiseAbs().maxCoeff());
            CHECK((eig.vectors.transpose() * eig.vectors - Eigen::MatrixXd::Identity(n, n)).norm() <= 1e-13 * n);
            CHECK((A * eig.vectors - eig.vectors * eig.values.asDiagonal()).norm() <= 1e-13 * n * A.norm());
        }
    }
    // Only the lower triangle is read.
    Eigen::Matrix2d B;
    B << 2, 99, 1, 2;
    const Eigen::VectorXd values = ipc::test::reference_eigenvalues(B);
    CHECK(values[0] == Approx(1.0));
    CHECK(values[1] == Approx(3.0));
}
