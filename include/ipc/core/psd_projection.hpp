#pragma once
/// @file
/// Projection of a small symmetric matrix to the cone of positive
/// semi-definite matrices, used on per-stencil Hessians before assembly, and
/// a structured variant for barrier Hessians of squared distances that
/// works in the (at most 5-dimensional) subspace where they live.

#include <ipc/core/types.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>

namespace ipc {

/// How negative eigenvalues are treated.
enum class PSDProjection {
    none,  ///< leave the matrix as it is
    clamp, ///< set negative eigenvalues to zero (closest PSD matrix)
    abs,   ///< flip their sign (keeps curvature magnitude)
};

/// Returns H with its eigenvalues clamped at zero (or replaced by their
/// absolute values). H is assumed symmetric; only its lower triangle is read.
template <typename Derived>
Eigen::Matrix<typename Derived::Scalar, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime>
project_to_psd(const Eigen::MatrixBase<Derived>& H, PSDProjection method = PSDProjection::clamp)
{
    using Scalar = typename Derived::Scalar;
    using MatrixType = Eigen::Matrix<Scalar, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime>;
    if (method == PSDProjection::none) {
        return H;
    }
    const Eigen::SelfAdjointEigenSolver<MatrixType> eig(H.eval());
    auto values = eig.eigenvalues().eval();
    bool changed = false;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        if (values[i] < Scalar(0)) {
            values[i] = method == PSDProjection::abs ? Scalar(-values[i]) : Scalar(0);
            changed = true;
        }
    }
    if (!changed) {
        return H;
    }
    return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

namespace detail {
    /// Orthonormal basis (3N x 3(N - 1)) of the motions of N points that are
    /// not rigid translations: Helmert contrasts between the points, times
    /// the 3 x 3 identity.
    template <typename Scalar, int N> Matrix<Scalar, 3 * N, 3 * (N - 1)> translation_free_basis()
    {
        using std::sqrt;
        Matrix<Scalar, 3 * N, 3 * (N - 1)> Q = Matrix<Scalar, 3 * N, 3 * (N - 1)>::Zero();
        for (int k = 1; k < N; ++k) {
            const Scalar scale = Scalar(1) / sqrt(Scalar(k) * Scalar(k + 1));
            for (int j = 0; j <= k; ++j) {
                const Scalar value = j < k ? scale : Scalar(-k) * scale;
                for (int d = 0; d < 3; ++d) {
                    Q(3 * j + d, 3 * (k - 1) + d) = value;
                }
            }
        }
        return Q;
    }
} // namespace detail

/// PSD projection of the 3N x 3N Hessian H of a translation-invariant energy
/// of N points in 3D (elastic elements, contact stencils: H annihilates rigid
/// translations). Projects the 3(N - 1) x 3(N - 1) block Q^T H Q in an
/// orthonormal translation-free basis Q and maps it back: equal to
/// project_to_psd(H, method) up to round-off (the translation part of H,
/// zero in exact arithmetic, is dropped), with an eigendecomposition about
/// (N / (N - 1))^3 times cheaper (2.4x for 4 points).
template <int N, typename Scalar>
Matrix<Scalar, 3 * N, 3 * N>
project_translation_invariant_to_psd(const Matrix<Scalar, 3 * N, 3 * N>& H, PSDProjection method = PSDProjection::clamp)
{
    static_assert(N >= 2, "a translation-invariant stencil has at least two points");
    if (method == PSDProjection::none) {
        return H;
    }
    static const Matrix<Scalar, 3 * N, 3 * (N - 1)> Q = detail::translation_free_basis<Scalar, N>();
    const Matrix<Scalar, 3 * (N - 1), 3 * (N - 1)> reduced = Q.transpose() * H * Q;
    const Matrix<Scalar, 3 * (N - 1), 3 * (N - 1)> projected = project_to_psd(reduced, method);
    return Q * projected * Q.transpose();
}

namespace detail {
    /// The eigenvalue that the projection puts in place of lambda.
    template <typename T> inline T projected_eigenvalue(T lambda, PSDProjection method)
    {
        if (lambda > T(0) || method == PSDProjection::none) {
            return lambda;
        }
        return method == PSDProjection::abs ? T(-lambda) : T(0);
    }

    /// Eigendecomposition of a small symmetric matrix A (M x M, only read on
    /// entry) by cyclic Jacobi rotations: on return A is diagonal up to
    /// round-off (eigenvalues on the diagonal) and the columns of V are the
    /// orthonormal eigenvectors. Rotations stop once every off-diagonal
    /// entry is below epsilon times the Frobenius norm (backward stable, like
    /// Eigen's solvers); fixed-size loops, no allocation.
    template <typename T, int M> inline void symmetric_jacobi_eigen(Matrix<T, M, M>& A, Matrix<T, M, M>& V)
    {
        using std::abs;
        using std::sqrt;
        V.setIdentity();
        const T norm_squared = A.squaredNorm();
        const T eps = std::numeric_limits<T>::epsilon();
        const T small = eps * eps * norm_squared; // per off-diagonal entry, squared
        if (!(norm_squared > T(0))) {
            return;
        }
        for (int sweep = 0; sweep < 32; ++sweep) {
            bool rotated = false;
            for (int p = 0; p < M - 1; ++p) {
                for (int q = p + 1; q < M; ++q) {
                    const T apq = A(p, q);
                    if (!(apq * apq > small)) {
                        continue;
                    }
                    rotated = true;
                    // t = tan of the angle that zeroes A(p, q), the smaller root.
                    const T tau = (A(q, q) - A(p, p)) / (T(2) * apq);
                    const T abs_tau = abs(tau);
                    T t = abs_tau > T(1e150) ? T(0.5) / abs_tau : T(1) / (abs_tau + sqrt(T(1) + tau * tau));
                    if (tau < T(0)) {
                        t = -t;
                    }
                    const T c = T(1) / sqrt(T(1) + t * t);
                    const T s = t * c;
                    const T app = A(p, p) - t * apq;
                    const T aqq = A(q, q) + t * apq;
                    // Columns p and q (contiguous), then mirrored into rows.
                    for (int k = 0; k < M; ++k) {
                        const T akp = A(k, p), akq = A(k, q);
                        A(k, p) = c * akp - s * akq;
                        A(k, q) = s * akp + c * akq;
                    }
                    A(p, p) = app;
                    A(q, q) = aqq;
                    A(p, q) = T(0);
                    A(q, p) = T(0);
                    for (int k = 0; k < M; ++k) {
                        A(p, k) = A(k, p);
                        A(q, k) = A(k, q);
                    }
                    for (int k = 0; k < M; ++k) {
                        const T vkp = V(k, p), vkq = V(k, q);
                        V(k, p) = c * vkp - s * vkq;
                        V(k, q) = s * vkp + c * vkq;
                    }
                }
            }
            if (!rotated) {
                return;
            }
        }
    }

    /// PSD projection (method clamp or abs; none returns the matrix itself)
    /// of the NP*DIM x NP*DIM stencil matrix
    ///   A = alpha (2 (w w^T) (x) I_DIM - L L^T) + beta g g^T,  g = 2 w (x) r,
    /// with only the first `columns` (<= KMAX) columns of L used. This is the
    /// Hessian of f(d) for a squared distance d = |r|^2 with residual
    /// r = sum_j w_j x_j, gradient g and Hessian 2 (w w^T) (x) I - L L^T
    /// (alpha = f'(d), beta = f''(d)). A vanishes outside the span of the DIM
    /// orthonormal columns (w / |w|) (x) I_DIM and the columns of L, so it is
    /// eigendecomposed in an orthonormal basis of that span (L
    /// orthogonalised by Gram-Schmidt, a column whose remainder is negligible
    /// against its norm dropped): closed form when L has no columns (the
    /// eigenvectors are r and its complement), a (DIM + KMAX)-sized
    /// symmetric eigensolver otherwise. Equals project_to_psd(A, method) up to
    /// round-off, with far less work. No validation (hot kernel); no heap
    /// allocation.
    template <typename T, int DIM, int NP, int KMAX>
    inline Matrix<T, NP * DIM, NP * DIM> project_distance_hessian_to_psd(
        const Vector<T, NP>& w, const Vector<T, DIM>& r, const Matrix<T, NP * DIM, KMAX>& L, int columns,
        T alpha, T beta, PSDProjection method)
    {
        using std::sqrt;
        constexpr int N = NP * DIM;
        constexpr int M = DIM + KMAX;
        using Dense = Matrix<T, N, N>;
        const T ww = w.squaredNorm();

        Dense H;
        if (method == PSDProjection::none) {
            Vector<T, N> g;
            for (int j = 0; j < NP; ++j) {
                g.template segment<DIM>(j * DIM) = (T(2) * w[j]) * r;
            }
            H = (beta * g) * g.transpose();
            for (int k = 0; k < columns; ++k) {
                H.noalias() -= (alpha * L.col(k)) * L.col(k).transpose();
            }
            for (int i = 0; i < NP; ++i) {
                for (int j = 0; j < NP; ++j) {
                    H.template block<DIM, DIM>(i * DIM, j * DIM).diagonal().array() += T(2) * alpha * w[i] * w[j];
                }
            }
            return H;
        }

        if (columns == 0) {
            // A = (w w^T) (x) (2 alpha I + 4 beta r r^T): eigenvectors r and
            // its orthogonal complement, scaled by |w|^2.
            H.setZero();
            if (!(ww > T(0))) {
                return H;
            }
            const T rr = r.squaredNorm();
            const T across = projected_eigenvalue(T(2) * alpha * ww, method);
            const T along = projected_eigenvalue(T(2) * alpha * ww + T(4) * beta * ww * rr, method);
            Matrix<T, DIM, DIM> P = Matrix<T, DIM, DIM>::Identity() * across;
            if (rr > T(0)) {
                const Vector<T, DIM> unit = r / sqrt(rr);
                for (int b = 0; b < DIM; ++b) {
                    for (int a = 0; a < DIM; ++a) {
                        P(a, b) += (along - across) * (unit[a] * unit[b]); // exactly symmetric
                    }
                }
            }
            const T inv_ww = T(1) / ww;
            for (int j = 0; j < NP; ++j) {
                for (int i = 0; i < NP; ++i) {
                    H.template block<DIM, DIM>(i * DIM, j * DIM) = ((w[i] * w[j]) * inv_ww) * P;
                }
            }
            return H;
        }

        // Orthonormal basis Q of the span: (w / |w|) (x) I, then the columns of
        // L orthogonalised against it (two Gram-Schmidt passes).
        Matrix<T, N, M> Q = Matrix<T, N, M>::Zero();
        if (ww > T(0)) {
            const T inv_norm = T(1) / sqrt(ww);
            for (int j = 0; j < NP; ++j) {
                for (int d = 0; d < DIM; ++d) {
                    Q(j * DIM + d, d) = w[j] * inv_norm;
                }
            }
        }
        const T negligible = T(1024) * std::numeric_limits<T>::epsilon();
        int used = DIM;
        for (int k = 0; k < columns; ++k) {
            Vector<T, N> q = L.col(k);
            const T norm0 = q.norm();
            for (int pass = 0; pass < 2; ++pass) {
                for (int c = 0; c < used; ++c) {
                    q -= Q.col(c).dot(q) * Q.col(c);
                }
            }
            const T norm = q.norm();
            if (norm > negligible * norm0) {
                Q.col(used++) = q / norm;
            }
        }

        // The reduced matrix Q^T A Q: Q^T g = (2 |w| r, 0) and
        // Q^T (2 (w w^T) (x) I) Q = 2 |w|^2 on the first DIM coordinates.
        Matrix<T, M, KMAX> reduced_L = Q.transpose() * L;
        Matrix<T, M, M> reduced = Matrix<T, M, M>::Zero();
        for (int k = 0; k < columns; ++k) {
            reduced.noalias() -= (alpha * reduced_L.col(k)) * reduced_L.col(k).transpose();
        }
        const Vector<T, DIM> reduced_g = (T(2) * sqrt(ww)) * r;
        reduced.template topLeftCorner<DIM, DIM>().noalias() += (beta * reduced_g) * reduced_g.transpose();
        reduced.template topLeftCorner<DIM, DIM>().diagonal().array() += T(2) * alpha * ww;

        Matrix<T, M, M> vectors;
        symmetric_jacobi_eigen<T, M>(reduced, vectors);
        const Matrix<T, N, M> Z = Q * vectors;
        const auto values = reduced.diagonal();
        // H = sum_k c_k z_k z_k^T = Y Y^T with y_k = sqrt(c_k) z_k (c_k >= 0):
        // every entry sums the same products in the same order as its mirror,
        // so H is exactly symmetric.
        Matrix<T, N, M> Y;
        int terms = 0;
        for (int k = 0; k < M; ++k) {
            const T c = projected_eigenvalue(values[k], method);
            if (c > T(0)) {
                Y.col(terms++) = sqrt(c) * Z.col(k);
            }
        }
        for (int b = 0; b < N; ++b) {
            T* column = H.data() + b * N;
            for (int a = 0; a < N; ++a) {
                column[a] = T(0);
            }
            for (int t = 0; t < terms; ++t) {
                const T* y = Y.data() + t * N;
                const T yb = y[b];
                for (int a = 0; a < N; ++a) {
                    column[a] += y[a] * yb;
                }
            }
        }
        return H;
    }
} // namespace detail

} // namespace ipc
