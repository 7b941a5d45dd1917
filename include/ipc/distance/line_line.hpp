#pragma once
/// @file
/// Squared distance between the infinite lines through (ea0, ea1) and
/// (eb0, eb1), with gradient and Hessian (3D).
///
/// The lines must not be parallel: these typed kernels throw
/// ipc::degenerate_geometry when (ea1 - ea0) x (eb1 - eb0) is exactly zero
/// (parallel lines or a zero-length edge). Near-parallel lines are accurate
/// only to about epsilon / sin(angle); edge_edge_distance_squared never uses
/// this formula there. No NaN/inf check (hot kernels).

#include <ipc/distance/detail/stencil.hpp>

namespace ipc {
namespace detail {
    /// Closest-point data of the lines ea0 + a u and eb0 + b v.
    template <typename T> struct LineLineProjection {
        Vector<T, 3> u, v; ///< ea1 - ea0, eb1 - eb0
        Vector<T, 3> m;    ///< u x v
        Vector<T, 3> r;    ///< closest point on a - closest point on b
        T mm;              ///< |m|^2
        T a, b;            ///< line parameters of the closest points
    };

    template <typename T>
    inline LineLineProjection<T> project_line_line(
        const Vector<T, 3>& ea0, const Vector<T, 3>& ea1, const Vector<T, 3>& eb0,
        const Vector<T, 3>& eb1)
    {
        LineLineProjection<T> out;
        out.u = ea1 - ea0;
        out.v = eb1 - eb0;
        const Vector<T, 3> w = ea0 - eb0;
        out.m = out.u.cross(out.v);
        out.mm = out.m.squaredNorm();
        if (!(out.mm > T(0))) {
            throw degenerate_geometry("line_line_distance_squared: the lines are parallel or "
                                      "an edge has zero length");
        }
        const T inv_mm = T(1) / out.mm;
        out.r = (w.dot(out.m) * inv_mm) * out.m;
        out.a = out.m.dot(out.v.cross(w)) * inv_mm;
        out.b = out.m.dot(out.u.cross(w)) * inv_mm;
        return out;
    }

    template <typename T> inline Vector<T, 4> line_line_weights(const LineLineProjection<T>& pr)
    {
        return Vector<T, 4>(T(1) - pr.a, pr.a, pr.b - T(1), -pr.b);
    }

    template <typename T>
    inline DistanceHessianFactors<T, 3, 4, 2> line_line_factors(const LineLineProjection<T>& pr)
    {
        Matrix<T, 4, 2> v;
        v << T(-1), T(0), T(1), T(0), T(0), T(1), T(0), T(-1);
        Matrix<T, 3, 2> E;
        E.col(0) = pr.u;
        E.col(1) = -pr.v;
        // Ginv = [[|v|^2, u.v], [u.v, |u|^2]] / |m|^2 and its Cholesky
        // factor [[|v|^2 / (|v| |m|), 0], [u.v / (|v| |m|), 1 / |v|]].
        using std::sqrt;
        const T v_norm = sqrt(pr.v.squaredNorm());
        const T scale = T(1) / (v_norm * sqrt(pr.mm));
        Matrix<T, 2, 2> C;
        C << pr.v.squaredNorm() * scale, T(0), pr.u.dot(pr.v) * scale, T(1) / v_norm;
        DistanceHessianFactors<T, 3, 4, 2> f;
        f.w = line_line_weights(pr);
        f.r = pr.r;
        f.L = projection_hessian_factor<T, 3, 4, 2>(f.w, v, E, pr.r, C);
        f.columns = 2;
        return f;
    }

    template <typename T>
    inline Matrix<T, 12, 12> line_line_hessian(const LineLineProjection<T>& pr)
    {
        const DistanceHessianFactors<T, 3, 4, 2> f = line_line_factors(pr);
        return assemble_projection_hessian<T, 3, 4, 2>(f.w, f.L);
    }
} // namespace detail

/// Squared distance (length^2) between the lines through (ea0, ea1) and (eb0, eb1).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar line_line_distance_squared(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "line-line distance is 3D only");
    using T = typename Traits::Scalar;
    const Vector<T, 3> m = (ea1 - ea0).cross(eb1 - eb0);
    const T mm = m.squaredNorm();
    if (!(mm > T(0))) {
        throw degenerate_geometry("line_line_distance_squared: the lines are parallel or an "
                                  "edge has zero length");
    }
    const T h = (ea0 - eb0).dot(m);
    return h * h / mm;
}

/// Gradient with respect to (ea0, ea1, eb0, eb1): a 12-vector.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto line_line_distance_squared_gradient(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "line-line distance is 3D only");
    using T = typename Traits::Scalar;
    const auto pr = detail::project_line_line<T>(ea0, ea1, eb0, eb1);
    return detail::projection_gradient<T, 3, 4>(detail::line_line_weights(pr), pr.r);
}

/// Hessian with respect to (ea0, ea1, eb0, eb1): a 12x12 matrix.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto line_line_distance_squared_hessian(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "line-line distance is 3D only");
    using T = typename Traits::Scalar;
    return detail::line_line_hessian<T>(detail::project_line_line<T>(ea0, ea1, eb0, eb1));
}

namespace detail {
    /// Factored Hessian (see DistanceHessianFactors) of the squared
    /// line-line distance with respect to (ea0, ea1, eb0, eb1): two L
    /// columns. Throws like line_line_distance_squared_hessian.
    template <typename DA0, typename DA1, typename DB0, typename DB1>
    inline auto line_line_distance_squared_hessian_factors(
        const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
        const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
    {
        using Traits = stencil_traits<DA0, DA1, DB0, DB1>;
        static_assert(Traits::dim == 3, "line-line distance is 3D only");
        using T = typename Traits::Scalar;
        return line_line_factors<T>(project_line_line<T>(ea0, ea1, eb0, eb1));
    }
} // namespace detail

} // namespace ipc
