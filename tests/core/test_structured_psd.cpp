// The structured PSD projection of squared-distance barrier Hessians
// (detail::project_distance_hessian_to_psd) against the dense eigenvalue
// projection of the same matrix, and the small eigensolver it uses.

#include <catch2/catch.hpp>

#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace {

template <int N> using Square = Eigen::Matrix<double, N, N>;

/// alpha (2 (w w^T) (x) I - L L^T) + beta g g^T with g = 2 w (x) r, written
/// out densely, with only the first `columns` columns of L.
template <int DIM, int NP, int KMAX>
Square<NP * DIM> dense_matrix(const Eigen::Matrix<double, NP, 1>& w, const Eigen::Matrix<double, DIM, 1>& r,
                              const Eigen::Matrix<double, NP * DIM, KMAX>& L, int columns, double alpha, double beta)
{
    Eigen::Matrix<double, NP * DIM, 1> g;
    for (int j = 0; j < NP; ++j) {
        g.template segment<DIM>(DIM * j) = 2 * w[j] * r;
    }
    Square<NP * DIM> A = beta * g * g.transpose();
    A -= alpha * L.leftCols(columns) * L.leftCols(columns).transpose();
    for (int i = 0; i < NP; ++i) {
        for (int j = 0; j < NP; ++j) {
            A.template block<DIM, DIM>(DIM * i, DIM * j) += 2 * alpha * w[i] * w[j] * Square<DIM>::Identity();
        }
    }
    return A;
}

/// Kinds of near-degenerate input.
enum class Degeneracy { none, tiny_w, zero_w, column_in_w_span, column_near_w_span, parallel_columns,
                        near_parallel_columns, tiny_r, zero_r };

template <int DIM, int NP, int KMAX> void check_family(std::mt19937_64& rng, Degeneracy kind, int& checked)
{
    constexpr int N = NP * DIM;
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::uniform_real_distribution<double> exponent(-3.0, 3.0);
    const auto random_matrix = [&](auto m) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                m(i, j) = uniform(rng);
            }
        }
        return m;
    };
    for (int trial = 0; trial < 60; ++trial) {
        Eigen::Matrix<double, NP, 1> w = random_matrix(Eigen::Matrix<double, NP, 1>());
        Eigen::Matrix<double, DIM, 1> r = random_matrix(Eigen::Matrix<double, DIM, 1>());
        Eigen::Matrix<double, N, KMAX> L = random_matrix(Eigen::Matrix<double, N, KMAX>());
        const int columns = trial % (KMAX + 1);
        const auto in_w_span = [&] {
            const Eigen::Matrix<double, DIM, 1> x = random_matrix(Eigen::Matrix<double, DIM, 1>());
            Eigen::Matrix<double, N, 1> column;
            for (int j = 0; j < NP; ++j) {
                column.template segment<DIM>(DIM * j) = w[j] * x;
            }
            return column;
        };
        switch (kind) {
        case Degeneracy::none: break;
        case Degeneracy::tiny_w: w *= 1e-9; break;
        case Degeneracy::zero_w: w.setZero(); break;
        case Degeneracy::column_in_w_span: L.col(0) = in_w_span(); break;
        case Degeneracy::column_near_w_span:
            L.col(0) = in_w_span() + 1e-9 * random_matrix(Eigen::Matrix<double, N, 1>());
            break;
        case Degeneracy::parallel_columns: L.col(KMAX - 1) = -3 * L.col(0); break;
        case Degeneracy::near_parallel_columns:
            L.col(KMAX - 1) = 0.5 * L.col(0) + 1e-10 * random_matrix(Eigen::Matrix<double, N, 1>());
            break;
        case Degeneracy::tiny_r: r *= 1e-12; break;
        case Degeneracy::zero_r: r.setZero(); break;
        }
        // Barrier-like signs (alpha < 0 < beta) most of the time, any sign
        // otherwise, over several orders of magnitude.
        double alpha = -std::pow(10.0, exponent(rng));
        double beta = std::pow(10.0, exponent(rng));
        if (trial % 4 == 3) {
            alpha = uniform(rng) * std::pow(10.0, exponent(rng));
            beta = uniform(rng) * std::pow(10.0, exponent(rng));
        }
        const Square<N> A = dense_matrix<DIM, NP, KMAX>(w, r, L, columns, alpha, beta);
        const double scale = std::abs(alpha) * (2 * w.squaredNorm() + L.leftCols(columns).squaredNorm())
            + std::abs(beta) * 4 * w.squaredNorm() * r.squaredNorm() + A.norm();
        for (const auto method : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
            const Square<N> expected = ipc::project_to_psd(A, method);
            const Square<N> actual =
                ipc::detail::project_distance_hessian_to_psd<double, DIM, NP, KMAX>(w, r, L, columns, alpha, beta, method);
            INFO("DIM " << DIM << ", NP " << NP << ", columns " << columns << ", degeneracy " << int(kind)
                        << ", method " << int(method) << ", alpha " << alpha << ", beta " << beta);
            CHECK((actual - expected).norm() <= 1e-10 * scale);
            CHECK(actual == actual.transpose());
            const double smallest = Eigen::SelfAdjointEigenSolver<Square<N>>(actual).eigenvalues().minCoeff();
            CHECK(smallest >= -1e-12 * scale);
            ++checked;
        }
        // none gives back the matrix itself.
        const Square<N> same = ipc::detail::project_distance_hessian_to_psd<double, DIM, NP, KMAX>(
            w, r, L, columns, alpha, beta, ipc::PSDProjection::none);
        CHECK((same - A).norm() <= 1e-14 * scale);
    }
}

} // namespace

TEST_CASE("Structured PSD projection equals the dense projection", "[core][psd]")
{
    std::mt19937_64 rng(2024);
    int checked = 0;
    for (const Degeneracy kind :
         { Degeneracy::none, Degeneracy::tiny_w, Degeneracy::zero_w, Degeneracy::column_in_w_span,
           Degeneracy::column_near_w_span, Degeneracy::parallel_columns, Degeneracy::near_parallel_columns,
           Degeneracy::tiny_r, Degeneracy::zero_r }) {
        check_family<3, 2, 1>(rng, kind, checked); // point-point
        check_family<3, 3, 1>(rng, kind, checked); // point-line
        check_family<3, 4, 2>(rng, kind, checked); // point-plane, line-line
        check_family<2, 3, 1>(rng, kind, checked); // point-line in 2D
    }
    CHECK(checked == 9 * 4 * 60 * 2);
}

namespace {
// Checks detail::symmetric_tridiagonal_qr_eigen on one matrix against the
// definition (orthonormal V, A V = V diag(values)) and against Eigen's
// solver (sorted eigenvalues), all relative to the norm of A.
template <typename T, int M> void check_eigen(const Eigen::Matrix<T, M, M>& A)
{
    using Mat = Eigen::Matrix<T, M, M>;
    Eigen::Matrix<T, M, 1> values;
    Mat V;
    ipc::detail::symmetric_tridiagonal_qr_eigen<T, M>(A, values, V);
    const T eps = std::numeric_limits<T>::epsilon();
    const T tolerance = T(8 * M) * eps;
    const T scale = A.norm();
    REQUIRE(ipc::all_finite(values));
    REQUIRE(ipc::all_finite(V));
    CHECK((V.transpose() * V - Mat::Identity()).norm() <= tolerance);
    CHECK((A * V - V * values.asDiagonal()).norm() <= tolerance * scale);
    Eigen::Matrix<T, M, 1> sorted = values;
    std::sort(sorted.data(), sorted.data() + M);
    const Eigen::Matrix<T, M, 1> expected = Eigen::SelfAdjointEigenSolver<Mat>(A).eigenvalues();
    CHECK((sorted - expected).norm() <= tolerance * scale);
}

template <typename T, int M> void check_eigen_family(std::mt19937_64& rng)
{
    using Mat = Eigen::Matrix<T, M, M>;
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    const auto random_orthogonal = [&] {
        Mat B;
        for (int k = 0; k < M * M; ++k) {
            B.data()[k] = T(uniform(rng));
        }
        return Mat(Eigen::HouseholderQR<Mat>(B).householderQ());
    };
    for (int trial = 0; trial < 60; ++trial) {
        Mat A;
        for (int k = 0; k < M * M; ++k) {
            A.data()[k] = T(uniform(rng));
        }
        A = (A + A.transpose()).eval();
        Eigen::Matrix<T, M, 1> d;
        switch (trial % 8) {
        case 1: // eigenvalues repeated in clusters, some zero
            for (int k = 0; k < M; ++k) {
                d[k] = T(k % 3 - 1);
            }
            A = random_orthogonal() * d.asDiagonal() * random_orthogonal().transpose();
            A = ((A + A.transpose()) / T(2)).eval();
            break;
        case 2: // already diagonal
            A = A.diagonal().asDiagonal();
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
            const Eigen::Matrix<T, M, 1> v = random_orthogonal().col(0);
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
        check_eigen<T, M>(A);
    }
    Mat V;
    Eigen::Matrix<T, M, 1> values;
    ipc::detail::symmetric_tridiagonal_qr_eigen<T, M>(Mat::Zero(), values, V);
    CHECK(values == Eigen::Matrix<T, M, 1>::Zero());
    CHECK(V == Mat::Identity());
}
} // namespace

TEST_CASE("Small symmetric eigensolver (tridiagonal QR) against Eigen", "[core][psd]")
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
