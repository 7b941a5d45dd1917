#pragma once
/// @file
/// Squared distance from a point to the infinite line through e0 and e1, with
/// gradient and Hessian, in 2D and 3D.
///
/// The line must have e0 != e1: these typed kernels throw
/// ipc::degenerate_geometry when |e1 - e0| is exactly zero (use
/// point_edge_distance_squared for automatic handling of degenerate edges).
/// They do not check for NaN/inf (hot kernels).

#include <ipc/distance/detail/stencil.hpp>

namespace ipc {
namespace detail {
    /// Closest-point data of p on the line e0 + t (e1 - e0).
    template <typename T, int DIM> struct PointLineProjection {
        Vector<T, DIM> e;  ///< e1 - e0
        Vector<T, DIM> r;  ///< p - closest point (perpendicular to e)
        T t;               ///< line parameter of the closest point
        T length_squared;  ///< |e|^2
    };

    template <typename T, int DIM>
    inline PointLineProjection<T, DIM>
    project_point_line(const Vector<T, DIM>& p, const Vector<T, DIM>& e0, const Vector<T, DIM>& e1)
    {
        PointLineProjection<T, DIM> out;
        out.e = e1 - e0;
        const Vector<T, DIM> q = p - e0;
        out.length_squared = out.e.squaredNorm();
        if (!(out.length_squared > T(0))) {
            throw degenerate_geometry("point_line_distance_squared: the line's two points "
                                      "coincide (zero-length edge)");
        }
        out.t = q.dot(out.e) / out.length_squared;
        out.r = q - out.t * out.e;
        return out;
    }

    template <typename T, int DIM>
    inline DistanceHessianFactors<T, DIM, 3, 1> point_line_factors(const PointLineProjection<T, DIM>& pr)
    {
        DistanceHessianFactors<T, DIM, 3, 1> f;
        f.w = Vector<T, 3>(T(1), pr.t - T(1), -pr.t);
        f.r = pr.r;
        const Matrix<T, 3, 1> v(T(0), T(1), T(-1));
        const Matrix<T, DIM, 1> E = -pr.e;
        using std::sqrt;
        const Matrix<T, 1, 1> C = Matrix<T, 1, 1>::Constant(T(1) / sqrt(pr.length_squared));
        f.L = projection_hessian_factor<T, DIM, 3, 1>(f.w, v, E, pr.r, C);
        f.columns = 1;
        return f;
    }

    template <typename T, int DIM>
    inline Matrix<T, 3 * DIM, 3 * DIM> point_line_hessian(const PointLineProjection<T, DIM>& pr)
    {
        const DistanceHessianFactors<T, DIM, 3, 1> f = point_line_factors(pr);
        return assemble_projection_hessian<T, DIM, 3, 1>(f.w, f.L);
    }
} // namespace detail

/// Squared distance (length^2) from p to the infinite line through e0 and e1.
template <typename DP, typename D0, typename D1>
inline typename DP::Scalar point_line_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    const auto pr = detail::project_point_line<T, DIM>(p, e0, e1);
    return pr.r.squaredNorm();
}

/// Gradient with respect to (p, e0, e1): a 3*DIM vector.
template <typename DP, typename D0, typename D1>
inline auto point_line_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    const auto pr = detail::project_point_line<T, DIM>(p, e0, e1);
    return detail::projection_gradient<T, DIM, 3>(Vector<T, 3>(T(1), pr.t - T(1), -pr.t), pr.r);
}

/// Hessian with respect to (p, e0, e1): a 3*DIM x 3*DIM matrix.
template <typename DP, typename D0, typename D1>
inline auto point_line_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    return detail::point_line_hessian<T, DIM>(detail::project_point_line<T, DIM>(p, e0, e1));
}

namespace detail {
    /// Factored Hessian (see DistanceHessianFactors) of the squared
    /// point-line distance with respect to (p, e0, e1): one L column. Throws
    /// like point_line_distance_squared_hessian.
    template <typename DP, typename D0, typename D1>
    inline auto point_line_distance_squared_hessian_factors(
        const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
    {
        using Traits = stencil_traits<DP, D0, D1>;
        using T = typename Traits::Scalar;
        constexpr int DIM = Traits::dim;
        return point_line_factors<T, DIM>(project_point_line<T, DIM>(p, e0, e1));
    }
} // namespace detail

} // namespace ipc
