#pragma once
/// @file
/// Internal helpers shared by the distance kernels: argument checks at compile
/// time, the closed-form Hessian of a squared distance to an affine subspace,
/// and scattering of a sub-stencil's derivatives into a larger stencil.

#include <ipc/config.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry> // cross products

#include <array>
#include <type_traits>

namespace ipc::detail {

/// Scalar type and dimension of a stencil given as Eigen column vectors.
template <typename First, typename... Rest> struct stencil_traits {
    using Scalar = typename First::Scalar;
    static constexpr int dim = int(First::RowsAtCompileTime);
    static_assert(First::ColsAtCompileTime == 1, "distance kernels take column vectors");
    static_assert(dim == 2 || dim == 3, "distance kernels take fixed-size 2D or 3D vectors");
    static_assert(
        (std::is_same_v<typename Rest::Scalar, Scalar> && ...),
        "all points of a stencil must share one scalar type");
    static_assert(
        ((int(Rest::RowsAtCompileTime) == dim && Rest::ColsAtCompileTime == 1) && ...),
        "all points of a stencil must be column vectors of the same fixed size");
};

/// True when x is neither NaN nor infinite. Works for any scalar with
/// subtraction and equality (autodiff and interval types included).
template <typename T> inline bool finite_value(const T& x) { return x - x == T(0); }

/// Throws ipc::invalid_argument when the value a kernel produced, or any
/// coordinate of its stencil, is NaN or infinite (a sum of all coordinates is
/// finite exactly when they all are, barring overflow near the largest
/// representable value, where the squared distances overflow anyway).
template <typename T, typename... Points>
inline void check_finite_stencil(const T& value, const char* kernel, const Points&... points)
{
    const T probe = (points.sum() + ...);
    if (!finite_value(value) || !finite_value(probe)) {
        throw invalid_argument(concat(
            kernel, ": non-finite input coordinates (NaN or inf, or values whose square "
                    "overflows)"));
    }
}

/// Gradient and Hessian of d = |r|^2 where r = sum_j w_j x_j is the residual
/// from the point to its closest point on an affine subspace, parametrised by
/// K free parameters gamma that are optimal (E_k . r = 0 with E_k = dr/dgamma_k).
///   w: the NP weights of the points in r; v(j, k) = dw_j / dgamma_k;
///   E: the columns dr/dgamma_k; Ginv: inverse of the Gram matrix E^T E.
/// Gradient: 2 w_j r. Hessian: 2 (w w^T) (x) I - 2 U Ginv U^T with
/// u_{jk} = w_j E_k + v_{jk} r (envelope theorem + implicit differentiation).
template <typename T, int DIM, int NP>
inline Vector<T, NP * DIM> projection_gradient(const Vector<T, NP>& w, const Vector<T, DIM>& r)
{
    Vector<T, NP * DIM> g;
    for (int j = 0; j < NP; ++j) {
        g.template segment<DIM>(j * DIM) = (T(2) * w[j]) * r;
    }
    return g;
}

/// Factored Hessian of a squared distance d = |r|^2 with r = sum_j w_j x_j
/// (the residual to a closest point on an affine subspace; see
/// projection_hessian): gradient 2 w (x) r and Hessian
///   2 (w w^T) (x) I_DIM - L L^T,
/// of which only the first `columns` columns of L are used (0 for a
/// point-point distance, 1 for a line, 2 for a plane or two lines). Rows of
/// L and entries of w are ordered like the stencil's points.
template <typename T, int DIM, int NP, int KMAX> struct DistanceHessianFactors {
    static_assert(KMAX >= 1, "keep at least one (possibly unused) column");
    static constexpr int dim = DIM;          ///< spatial dimension
    static constexpr int num_points = NP;    ///< points of the stencil
    static constexpr int max_columns = KMAX; ///< columns of L
    Vector<T, NP> w;                         ///< point weights of the residual
    Vector<T, DIM> r;                        ///< residual (closest-point difference)
    Matrix<T, NP * DIM, KMAX> L;             ///< factor of the negative part
    int columns = 0;                         ///< columns of L in use
};

/// The factor L = sqrt(2) U C (3NP x K) of the negative part of
/// projection_hessian: U Ginv U^T = (U C)(U C)^T, given a lower-triangular
/// C with C C^T = Ginv; same arguments as projection_hessian.
template <typename T, int DIM, int NP, int K>
IPC_ALWAYS_INLINE Matrix<T, NP * DIM, K> projection_hessian_factor(
    const Vector<T, NP>& w,
    const Matrix<T, NP, K>& v,
    const Matrix<T, DIM, K>& E,
    const Vector<T, DIM>& r,
    const Matrix<T, K, K>& C)
{
    using std::sqrt;
    static_assert(K == 1 || K == 2, "projections onto lines or planes only");
    constexpr int N = NP * DIM;
    const T root2 = sqrt(T(2));
    Matrix<T, N, K> U;
    for (int j = 0; j < NP; ++j) {
        for (int k = 0; k < K; ++k) {
            U.template block<DIM, 1>(j * DIM, k) = w[j] * E.col(k) + v(j, k) * r;
        }
    }
    Matrix<T, N, K> L;
    if constexpr (K == 1) {
        L.col(0) = (root2 * C(0, 0)) * U.col(0);
    } else {
        L.col(0) = (root2 * C(0, 0)) * U.col(0) + (root2 * C(1, 0)) * U.col(1);
        L.col(1) = (root2 * C(1, 1)) * U.col(1);
    }
    return L;
}

/// Assembles 2 (w w^T) (x) I - L L^T from the factors of a squared-distance
/// Hessian (K = 1 or 2 columns of L).
template <typename T, int DIM, int NP, int K>
IPC_ALWAYS_INLINE Matrix<T, NP * DIM, NP * DIM> assemble_projection_hessian(
    const Vector<T, NP>& w, const Matrix<T, NP * DIM, K>& L)
{
    constexpr int N = NP * DIM;
    // H = 2 (w w^T) (x) I - L L^T column by column in plain loops over
    // contiguous columns (no matrix-product kernels). Every entry is a
    // symmetric expression of its row and column (the same products and sums
    // with the factors swapped; 2 w_i w_j is formed as 2 (w_i w_j)), so H is
    // exactly symmetric without a mirroring pass.
    const T* L0 = L.data();
    const T* L1 = L.data() + (K == 2 ? N : 0);
    Matrix<T, N, N> H;
    for (int b = 0; b < N; ++b) {
        const T minus_l0 = -L0[b];
        T* column = H.data() + b * N;
        for (int a = 0; a < N; ++a) {
            if constexpr (K == 1) {
                column[a] = L0[a] * minus_l0;
            } else {
                column[a] = L0[a] * minus_l0 - L1[a] * L1[b];
            }
        }
    }
    for (int i = 0; i < NP; ++i) {
        for (int j = 0; j < NP; ++j) {
            const T ww = T(2) * (w[i] * w[j]);
            for (int d = 0; d < DIM; ++d) {
                H(i * DIM + d, j * DIM + d) += ww;
            }
        }
    }
    return H;
}

/// projection_hessian takes, instead of Ginv, a lower-triangular factor C
/// with C C^T = Ginv, so that U Ginv U^T = L L^T with L = U C is a sum of K
/// outer products (projection_hessian_factor).
template <typename T, int DIM, int NP, int K>
inline Matrix<T, NP * DIM, NP * DIM> projection_hessian(
    const Vector<T, NP>& w,
    const Matrix<T, NP, K>& v,
    const Matrix<T, DIM, K>& E,
    const Vector<T, DIM>& r,
    const Matrix<T, K, K>& C)
{
    return assemble_projection_hessian<T, DIM, NP, K>(w, projection_hessian_factor<T, DIM, NP, K>(w, v, E, r, C));
}

/// Writes the gradient of a sub-stencil (points `blocks` of the big stencil)
/// into a zeroed gradient of the big stencil.
template <int DIM, int NBIG, typename T, int NSMALL>
inline Vector<T, NBIG * DIM>
scatter_gradient(const Vector<T, NSMALL * DIM>& small, const std::array<int, NSMALL>& blocks)
{
    Vector<T, NBIG * DIM> g = Vector<T, NBIG * DIM>::Zero();
    for (int i = 0; i < NSMALL; ++i) {
        g.template segment<DIM>(blocks[i] * DIM) = small.template segment<DIM>(i * DIM);
    }
    return g;
}

/// Same as scatter_gradient for a Hessian.
template <int DIM, int NBIG, typename T, int NSMALL>
inline Matrix<T, NBIG * DIM, NBIG * DIM> scatter_hessian(
    const Matrix<T, NSMALL * DIM, NSMALL * DIM>& small, const std::array<int, NSMALL>& blocks)
{
    Matrix<T, NBIG * DIM, NBIG * DIM> H = Matrix<T, NBIG * DIM, NBIG * DIM>::Zero();
    for (int i = 0; i < NSMALL; ++i) {
        for (int j = 0; j < NSMALL; ++j) {
            H.template block<DIM, DIM>(blocks[i] * DIM, blocks[j] * DIM) =
                small.template block<DIM, DIM>(i * DIM, j * DIM);
        }
    }
    return H;
}

} // namespace ipc::detail
