#pragma once
/// @file
/// Squared distance between two points, with gradient and Hessian.
/// Works in 2D and 3D for any fixed-size Eigen column vectors. Smooth
/// everywhere (including coincident points); no validation (hot kernel).

#include <ipc/distance/detail/stencil.hpp>

namespace ipc {

/// |p0 - p1|^2 (units: length^2).
template <typename D0, typename D1>
inline typename D0::Scalar
point_point_distance_squared(const Eigen::MatrixBase<D0>& p0, const Eigen::MatrixBase<D1>& p1)
{
    (void)sizeof(detail::stencil_traits<D0, D1>);
    return (p0 - p1).squaredNorm();
}

/// Gradient of |p0 - p1|^2 with respect to (p0, p1): a 2*DIM vector.
template <typename D0, typename D1>
inline auto point_point_distance_squared_gradient(
    const Eigen::MatrixBase<D0>& p0, const Eigen::MatrixBase<D1>& p1)
{
    using Traits = detail::stencil_traits<D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    Vector<T, 2 * DIM> g;
    g.template head<DIM>() = T(2) * (p0 - p1);
    g.template tail<DIM>() = -g.template head<DIM>();
    return g;
}

/// Hessian of |p0 - p1|^2 with respect to (p0, p1): [[2I, -2I], [-2I, 2I]],
/// constant (the arguments only fix the scalar type and dimension).
template <typename D0, typename D1>
inline auto point_point_distance_squared_hessian(
    const Eigen::MatrixBase<D0>& /*p0*/, const Eigen::MatrixBase<D1>& /*p1*/)
{
    using Traits = detail::stencil_traits<D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    Matrix<T, 2 * DIM, 2 * DIM> H = Matrix<T, 2 * DIM, 2 * DIM>::Zero();
    for (int d = 0; d < DIM; ++d) {
        H(d, d) = H(DIM + d, DIM + d) = T(2);
        H(d, DIM + d) = H(DIM + d, d) = T(-2);
    }
    return H;
}

namespace detail {
    /// Factored Hessian (see DistanceHessianFactors) of |p0 - p1|^2 with
    /// respect to (p0, p1): weights (1, -1), residual p0 - p1, no L columns.
    template <typename D0, typename D1>
    inline auto point_point_distance_squared_hessian_factors(
        const Eigen::MatrixBase<D0>& p0, const Eigen::MatrixBase<D1>& p1)
    {
        using Traits = stencil_traits<D0, D1>;
        using T = typename Traits::Scalar;
        constexpr int DIM = Traits::dim;
        DistanceHessianFactors<T, DIM, 2, 1> f;
        f.w = Vector<T, 2>(T(1), T(-1));
        f.r = p0 - p1;
        f.L.setZero();
        f.columns = 0;
        return f;
    }
} // namespace detail

} // namespace ipc
