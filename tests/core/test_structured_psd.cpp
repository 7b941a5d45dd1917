// The structured PSD projection of squared-distance barrier Hessians
// (detail::project_distance_hessian_to_psd) against the dense eigenvalue
// projection of the same matrix. The small eigensolver it uses is tested in
// test_small_eigensolver.cpp.

#include <catch2/catch.hpp>
#include <reference_eigen.hpp>

#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Dense>

#include <cmath>
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
            // The reference in dynamic size: one instantiation for every N.
            const Square<N> expected = ipc::project_to_psd(Eigen::MatrixXd(A), method);
            const Square<N> actual =
                ipc::detail::project_distance_hessian_to_psd<double, DIM, NP, KMAX>(w, r, L, columns, alpha, beta, method);
            INFO("DIM " << DIM << ", NP " << NP << ", columns " << columns << ", degeneracy " << int(kind)
                        << ", method " << int(method) << ", alpha " << alpha << ", beta " << beta);
            CHECK((actual - expected).norm() <= 1e-10 * scale);
            CHECK(actual == actual.transpose());
            const double smallest = ipc::test::smallest_eigenvalue(actual);
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
