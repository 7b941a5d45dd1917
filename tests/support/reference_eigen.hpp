#pragma once
// Reference symmetric eigensolver of the tests: the cyclic Jacobi method on
// dynamic-size matrices. It shares no code with the library's solvers (a
// tridiagonal QR iteration), reaches full working accuracy on the small
// matrices of the tests, and compiles in a fraction of the time of Eigen's
// SelfAdjointEigenSolver, which costs seconds per scalar type and size in
// every test executable that names it.

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace ipc::test {

template <typename T> struct ReferenceEigen {
    Eigen::Matrix<T, Eigen::Dynamic, 1> values;               ///< ascending
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> vectors; ///< orthonormal columns, in the order of values
};

/// Eigen-decomposition of the symmetric matrix A (only its lower triangle is
/// read) by cyclic Jacobi rotations.
template <typename Derived> ReferenceEigen<typename Derived::Scalar> reference_eigen(const Eigen::MatrixBase<Derived>& A)
{
    using T = typename Derived::Scalar;
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    using std::abs;
    using std::sqrt;
    const Eigen::Index n = A.rows();
    // Work on A / max|a_ij| so that squares neither overflow nor underflow.
    Matrix S = A.template selfadjointView<Eigen::Lower>();
    const T scale = n > 0 ? S.cwiseAbs().maxCoeff() : T(0);
    Matrix V = Matrix::Identity(n, n);
    if (scale > T(0)) {
        S /= scale;
        const T eps = std::numeric_limits<T>::epsilon();
        for (int sweep = 0; sweep < 100; ++sweep) {
            T off = 0;
            for (Eigen::Index q = 1; q < n; ++q) {
                for (Eigen::Index p = 0; p < q; ++p) {
                    off += S(p, q) * S(p, q);
                }
            }
            if (off <= eps * eps * S.squaredNorm() * T(1e-6)) {
                break;
            }
            for (Eigen::Index p = 0; p + 1 < n; ++p) {
                for (Eigen::Index q = p + 1; q < n; ++q) {
                    if (abs(S(p, q)) < std::numeric_limits<T>::min()) {
                        continue;
                    }
                    // Rotation in the (p, q) plane that zeroes S(p, q):
                    // t = tan(angle), the smaller root of t^2 + 2 theta t - 1.
                    const T theta = (S(q, q) - S(p, p)) / (T(2) * S(p, q));
                    const T t = abs(theta) > T(1) / eps
                        ? T(1) / (T(2) * theta)
                        : (theta >= T(0) ? T(1) : T(-1)) / (abs(theta) + sqrt(theta * theta + T(1)));
                    const T c = T(1) / sqrt(t * t + T(1)), s = t * c;
                    // S <- J^T S J on columns p and q (contiguous), mirrored to
                    // rows p and q; the 2 x 2 block in closed form.
                    T* const sp = S.data() + p * n;
                    T* const sq = S.data() + q * n;
                    const T apq = sp[q];
                    for (Eigen::Index k = 0; k < n; ++k) {
                        if (k == p || k == q) {
                            continue;
                        }
                        const T kp = sp[k], kq = sq[k];
                        sp[k] = c * kp - s * kq;
                        sq[k] = s * kp + c * kq;
                        S(p, k) = sp[k];
                        S(q, k) = sq[k];
                    }
                    sp[p] -= t * apq;
                    sq[q] += t * apq;
                    sp[q] = sq[p] = T(0); // zero by construction, exactly
                    T* const vp = V.data() + p * n;
                    T* const vq = V.data() + q * n;
                    for (Eigen::Index k = 0; k < n; ++k) {
                        const T kp = vp[k], kq = vq[k];
                        vp[k] = c * kp - s * kq;
                        vq[k] = s * kp + c * kq;
                    }
                }
            }
        }
    }
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return S(a, a) < S(b, b); });
    ReferenceEigen<T> result;
    result.values.resize(n);
    result.vectors.resize(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index k = order[static_cast<std::size_t>(i)];
        result.values[i] = S(k, k) * scale;
        result.vectors.col(i) = V.col(k);
    }
    return result;
}

/// Eigenvalues (ascending) of the symmetric matrix A (lower triangle read).
template <typename Derived>
Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, 1> reference_eigenvalues(const Eigen::MatrixBase<Derived>& A)
{
    return reference_eigen(A).values;
}

/// Smallest eigenvalue of the symmetric matrix A.
template <typename Derived> typename Derived::Scalar smallest_eigenvalue(const Eigen::MatrixBase<Derived>& A)
{
    return reference_eigenvalues(A).minCoeff();
}

/// A random n x n orthogonal matrix: Gram-Schmidt (twice, for full
/// orthogonality) on a matrix with entries uniform in [-1, 1].
template <typename T, typename Generator>
Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> random_orthogonal(Eigen::Index n, Generator& rng)
{
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> Q(n, n);
    for (Eigen::Index k = 0; k < n * n; ++k) {
        Q.data()[k] = T(uniform(rng));
    }
    for (Eigen::Index j = 0; j < n; ++j) {
        for (int pass = 0; pass < 2; ++pass) {
            for (Eigen::Index i = 0; i < j; ++i) {
                Q.col(j) -= Q.col(i).dot(Q.col(j)) * Q.col(i);
            }
        }
        Q.col(j).normalize();
    }
    return Q;
}

} // namespace ipc::test
