// The small fixed-size symmetric eigensolver behind the PSD projections
// (detail::symmetric_tridiagonal_qr_eigen, and detail::negative_eigenpairs
// on top of it) against its definition and against the tests' reference
// solver (cyclic Jacobi, reference_eigen.hpp).

#include <catch2/catch.hpp>

#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {
// Checks detail::symmetric_tridiagonal_qr_eigen on one matrix against the
// definition (orthonormal V, A V = V diag(values)) and against the Jacobi
// reference (sorted eigenvalues), all relative to the norm of A. Only the
// solver under test runs in fixed size M; the input and the checks use
// dynamic sizes, so the checks compile once per scalar type.
template <typename T> using DynamicMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T> using DynamicVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <typename T> void check_eigen_decomposition(const DynamicMatrix<T>& A, const DynamicVector<T>& values,
                                                     const DynamicMatrix<T>& V)
{
    const Eigen::Index M = A.rows();
    const T eps = std::numeric_limits<T>::epsilon();
    const T tolerance = T(8 * M) * eps;
    const T scale = A.norm();
    REQUIRE(ipc::all_finite(values));
    REQUIRE(ipc::all_finite(V));
    CHECK((V.transpose() * V - DynamicMatrix<T>::Identity(M, M)).norm() <= tolerance);
    CHECK((A * V - V * values.asDiagonal()).norm() <= tolerance * scale);
    DynamicVector<T> sorted = values;
    std::sort(sorted.data(), sorted.data() + M);
    const DynamicVector<T> expected = ipc::test::reference_eigenvalues(A);
    CHECK((sorted - expected).norm() <= tolerance * scale);
}

/// X in dynamic size, copied entry by entry: Eigen's packet copy of a 1 x 1
/// fixed-size matrix trips a false array-bounds warning of GCC 12.
template <typename T, int R, int C> DynamicMatrix<T> dynamic_copy(const Eigen::Matrix<T, R, C>& X)
{
    DynamicMatrix<T> out(R, C);
    for (int j = 0; j < C; ++j) {
        for (int i = 0; i < R; ++i) {
            out(i, j) = X(i, j);
        }
    }
    return out;
}

template <typename T, int M> void check_eigen(const DynamicMatrix<T>& A)
{
    Eigen::Matrix<T, M, 1> values;
    Eigen::Matrix<T, M, M> V;
    ipc::detail::symmetric_tridiagonal_qr_eigen<T, M>(Eigen::Matrix<T, M, M>(A), values, V);
    check_eigen_decomposition<T>(A, dynamic_copy(values), dynamic_copy(V));
}

/// 60 symmetric M x M matrices of eight kinds (random, clustered, diagonal,
/// zero block, graded, rank one, tiny, huge), in dynamic size.
template <typename T> std::vector<DynamicMatrix<T>> eigen_test_matrices(std::mt19937_64& rng, int M)
{
    using Mat = DynamicMatrix<T>;
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    const auto random_matrix = [&] {
        Mat B(M, M);
        for (int k = 0; k < M * M; ++k) {
            B.data()[k] = T(uniform(rng));
        }
        return B;
    };
    const auto random_orthogonal = [&] { return ipc::test::random_orthogonal<T>(M, rng); };
    std::vector<Mat> matrices;
    for (int trial = 0; trial < 60; ++trial) {
        Mat A = random_matrix();
        A = (A + A.transpose()).eval();
        DynamicVector<T> d(M);
        switch (trial % 8) {
        case 1: // eigenvalues repeated in clusters, some zero
            for (int k = 0; k < M; ++k) {
                d[k] = T(k % 3 - 1);
            }
            A = random_orthogonal() * d.asDiagonal() * random_orthogonal().transpose();
            A = ((A + A.transpose()) / T(2)).eval();
            break;
        case 2: // already diagonal
            A = Mat(A.diagonal().asDiagonal());
            break;
        case 3: // a zero block
            A.bottomRows(M / 2).setZero();
            A.rightCols(M / 2).setZero();
            break;
        case 4: { // graded spectrum over many orders of magnitude
            const Mat Q = random_orthogonal();
            for (int k = 0; k < M; ++k) {
                d[k] = T((k % 2 ? -1 : 1) * std::pow(10.0, -2.0 * k));
            }
            A = Q * d.asDiagonal() * Q.transpose();
            A = ((A + A.transpose()) / T(2)).eval();
            break;
        }
        case 5: { // rank one
            const DynamicVector<T> v = random_orthogonal().col(0);
            A = v * v.transpose();
            break;
        }
        case 6: // tiny and huge scales (no under- or overflow inside)
            A *= T(std::numeric_limits<T>::min_exponent10 < -300 ? 1e-200 : 1e-25);
            break;
        case 7:
            A *= T(std::numeric_limits<T>::max_exponent10 > 300 ? 1e200 : 1e25);
            break;
        default:
            break;
        }
        matrices.push_back(A);
    }
    return matrices;
}

// The inertia test of the solver (positive_semidefinite) must agree with the
// Jacobi reference on whether any eigenvalue is negative, wherever no
// eigenvalue is within rounding of zero, and leave the full decomposition
// when one is negative; detail::negative_eigenpairs must find exactly the
// negative ones.
template <typename T, int M> void check_inertia(const DynamicMatrix<T>& A)
{
    const T eps = std::numeric_limits<T>::epsilon();
    const ipc::test::ReferenceEigen<T> reference = ipc::test::reference_eigen(A);
    const T norm = A.norm();
    if (!(norm > T(0)) || !(reference.values.cwiseAbs().minCoeff() > T(64 * M) * eps * norm)) {
        return;
    }
    Eigen::Matrix<T, M, 1> values;
    Eigen::Matrix<T, M, M> V;
    bool positive_semidefinite = false;
    ipc::detail::symmetric_tridiagonal_qr_eigen<T, M>(Eigen::Matrix<T, M, M>(A), values, V, &positive_semidefinite);
    CHECK(positive_semidefinite == (reference.values.minCoeff() > T(0)));
    if (!positive_semidefinite) {
        check_eigen_decomposition<T>(A, dynamic_copy(values), dynamic_copy(V));
    }

    // detail::negative_eigenpairs (eigenvectors kept in the tridiagonal
    // basis, only the negative ones carried back through the reflectors):
    // as many pairs as the reference has negative eigenvalues, each a unit
    // eigenvector orthogonal to the others, with eigenvalues matching the
    // reference's most negative ones.
    const int count = ipc::detail::negative_eigenpairs<T, M>(Eigen::Matrix<T, M, M>(A), values, V);
    const T tolerance = T(8 * M) * eps;
    DynamicVector<T> expected = reference.values;
    std::sort(expected.data(), expected.data() + M);
    const int expected_count = int((expected.array() < T(0)).count());
    REQUIRE(count == expected_count);
    if (count == 0) {
        return;
    }
    const DynamicMatrix<T> vectors = dynamic_copy(V).leftCols(count);
    DynamicVector<T> found = dynamic_copy(values).col(0).head(count);
    CHECK((vectors.transpose() * vectors - DynamicMatrix<T>::Identity(count, count)).norm() <= tolerance);
    CHECK((A * vectors - vectors * found.asDiagonal()).norm() <= tolerance * norm);
    std::sort(found.data(), found.data() + count);
    CHECK((found - expected.head(count)).norm() <= tolerance * norm);

    // project_to_psd built on them against the reference's own projections
    // (clamp: negative eigenvalues to zero; abs: their magnitudes).
    for (const ipc::PSDProjection method : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
        DynamicVector<T> projected = reference.values;
        for (int i = 0; i < M; ++i) {
            projected[i] = ipc::projected_eigenvalue(projected[i], method);
        }
        const DynamicMatrix<T> reference_projection
            = reference.vectors * projected.asDiagonal() * reference.vectors.transpose();
        const DynamicMatrix<T> projection = dynamic_copy(ipc::project_to_psd(Eigen::Matrix<T, M, M>(A), method));
        CHECK((projection - reference_projection).norm() <= tolerance * norm);
    }
}

template <typename T, int M> void check_eigen_family(std::mt19937_64& rng)
{
    for (const DynamicMatrix<T>& A : eigen_test_matrices<T>(rng, M)) {
        check_eigen<T, M>(A);
        check_inertia<T, M>(A);
    }
    using Mat = Eigen::Matrix<T, M, M>;
    Mat V;
    Eigen::Matrix<T, M, 1> values;
    ipc::detail::symmetric_tridiagonal_qr_eigen<T, M>(Mat::Zero(), values, V);
    CHECK(values == Eigen::Matrix<T, M, 1>::Zero());
    CHECK(V == Mat::Identity());
}
} // namespace

TEST_CASE("Small symmetric eigensolver (tridiagonal QR) against its definition and the Jacobi reference", "[core][psd]")
{
    std::mt19937_64 rng(7);
    check_eigen_family<double, 1>(rng);
    check_eigen_family<double, 2>(rng);
    check_eigen_family<double, 3>(rng);
    check_eigen_family<double, 5>(rng);
    check_eigen_family<double, 6>(rng);
    check_eigen_family<double, 9>(rng);
    check_eigen_family<double, 12>(rng);
    check_eigen_family<float, 5>(rng);
    check_eigen_family<float, 9>(rng);
    check_eigen_family<long double, 9>(rng);
}

TEST_CASE("project_to_psd returns positive definite input unchanged and still projects a small negative eigenvalue", "[core][psd]")
{
    // Positive definite input comes back bit for bit (the inertia test stops
    // the solver before any QR step); a single negative eigenvalue of
    // relative size 1e-6 is still projected away.
    std::mt19937_64 rng(11);
    using Mat9 = Eigen::Matrix<double, 9, 9>;
    for (int trial = 0; trial < 20; ++trial) {
        const Mat9 Q = ipc::test::random_orthogonal<double>(9, rng);
        Eigen::Matrix<double, 9, 1> lambda;
        for (int k = 0; k < 9; ++k) {
            lambda[k] = std::pow(10.0, -0.5 * k);
        }
        Mat9 A = Q * lambda.asDiagonal() * Q.transpose();
        A = (0.5 * (A + A.transpose())).eval();
        CHECK(ipc::project_to_psd(A) == A);
        lambda[trial % 9] = -1e-6;
        Mat9 B = Q * lambda.asDiagonal() * Q.transpose();
        B = (0.5 * (B + B.transpose())).eval();
        const Mat9 P = ipc::project_to_psd(B);
        lambda[trial % 9] = 0;
        const Mat9 expected = Q * lambda.asDiagonal() * Q.transpose();
        CHECK((P - expected).norm() <= 1e-13);
        CHECK((P - B).norm() >= 0.5e-6);
    }
}
