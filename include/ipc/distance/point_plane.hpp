#pragma once
/// @file
/// Squared distance from a point to the plane through t0, t1, t2, with
/// gradient and Hessian (3D).
///
/// The plane must be well defined: these typed kernels throw
/// ipc::degenerate_geometry when (t1 - t0) x (t2 - t0) is exactly zero
/// (collinear or coincident vertices). Use point_triangle_distance_squared for
/// automatic handling of degenerate triangles. No NaN/inf check (hot kernels).

#include <ipc/distance/detail/stencil.hpp>

namespace ipc {
namespace detail {
    /// Closest-point data of p on the plane t0 + b1 (t1 - t0) + b2 (t2 - t0).
    template <typename T> struct PointPlaneProjection {
        Vector<T, 3> e1, e2; ///< t1 - t0, t2 - t0
        Vector<T, 3> n;      ///< e1 x e2
        Vector<T, 3> r;      ///< p - closest point (along n)
        T nn;                ///< |n|^2
        T b1, b2;            ///< barycentric weights of t1, t2
    };

    template <typename T>
    inline PointPlaneProjection<T> project_point_plane(
        const Vector<T, 3>& p, const Vector<T, 3>& t0, const Vector<T, 3>& t1, const Vector<T, 3>& t2,
        bool need_barycentric)
    {
        PointPlaneProjection<T> out;
        out.e1 = t1 - t0;
        out.e2 = t2 - t0;
        const Vector<T, 3> q = p - t0;
        out.n = out.e1.cross(out.e2);
        out.nn = out.n.squaredNorm();
        if (!(out.nn > T(0))) {
            throw degenerate_geometry("point_plane_distance_squared: the plane's three points "
                                      "are collinear or coincide (zero-area triangle)");
        }
        const T inv_nn = T(1) / out.nn;
        out.r = (q.dot(out.n) * inv_nn) * out.n;
        if (need_barycentric) {
            out.b1 = out.n.dot(q.cross(out.e2)) * inv_nn;
            out.b2 = out.n.dot(out.e1.cross(q)) * inv_nn;
        } else {
            out.b1 = out.b2 = T(0);
        }
        return out;
    }

    template <typename T> inline Vector<T, 4> point_plane_weights(const PointPlaneProjection<T>& pr)
    {
        return Vector<T, 4>(T(1), pr.b1 + pr.b2 - T(1), -pr.b1, -pr.b2);
    }

    template <typename T>
    inline DistanceHessianFactors<T, 3, 4, 2> point_plane_factors(const PointPlaneProjection<T>& pr)
    {
        Matrix<T, 4, 2> v;
        v << T(0), T(0), T(1), T(1), T(-1), T(0), T(0), T(-1);
        Matrix<T, 3, 2> E;
        E.col(0) = -pr.e1;
        E.col(1) = -pr.e2;
        // Ginv = [[|e2|^2, -e1.e2], [-e1.e2, |e1|^2]] / |n|^2 and its
        // Cholesky factor [[|e2|^2, 0], [-e1.e2, |n|]] / (|e2| |n|).
        using std::sqrt;
        const T e2_norm = sqrt(pr.e2.squaredNorm());
        const T n_norm = sqrt(pr.nn);
        const T scale = T(1) / (e2_norm * n_norm);
        Matrix<T, 2, 2> C;
        C << pr.e2.squaredNorm() * scale, T(0), -pr.e1.dot(pr.e2) * scale, T(1) / e2_norm;
        DistanceHessianFactors<T, 3, 4, 2> f;
        f.w = point_plane_weights(pr);
        f.r = pr.r;
        f.L = projection_hessian_factor<T, 3, 4, 2>(f.w, v, E, pr.r, C);
        f.columns = 2;
        return f;
    }

    template <typename T>
    inline Matrix<T, 12, 12> point_plane_hessian(const PointPlaneProjection<T>& pr)
    {
        const DistanceHessianFactors<T, 3, 4, 2> f = point_plane_factors(pr);
        return assemble_projection_hessian<T, 3, 4, 2>(f.w, f.L);
    }
} // namespace detail

/// Squared distance (length^2) from p to the plane through t0, t1, t2.
template <typename DP, typename D0, typename D1, typename D2>
inline typename DP::Scalar point_plane_distance_squared(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-plane distance is 3D only");
    using T = typename Traits::Scalar;
    const Vector<T, 3> n = (t1 - t0).cross(t2 - t0);
    const T nn = n.squaredNorm();
    if (!(nn > T(0))) {
        throw degenerate_geometry("point_plane_distance_squared: the plane's three points "
                                  "are collinear or coincide (zero-area triangle)");
    }
    const T h = (p - t0).dot(n);
    return h * h / nn;
}

/// Gradient with respect to (p, t0, t1, t2): a 12-vector.
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_plane_distance_squared_gradient(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-plane distance is 3D only");
    using T = typename Traits::Scalar;
    const auto pr = detail::project_point_plane<T>(p, t0, t1, t2, true);
    return detail::projection_gradient<T, 3, 4>(detail::point_plane_weights(pr), pr.r);
}

/// Hessian with respect to (p, t0, t1, t2): a 12x12 matrix.
template <typename DP, typename D0, typename D1, typename D2>
inline auto point_plane_distance_squared_hessian(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-plane distance is 3D only");
    using T = typename Traits::Scalar;
    return detail::point_plane_hessian<T>(detail::project_point_plane<T>(p, t0, t1, t2, true));
}

namespace detail {
    /// Factored Hessian (see DistanceHessianFactors) of the squared
    /// point-plane distance with respect to (p, t0, t1, t2): two L columns.
    /// Throws like point_plane_distance_squared_hessian.
    template <typename DP, typename D0, typename D1, typename D2>
    inline auto point_plane_distance_squared_hessian_factors(
        const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
        const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
    {
        using Traits = stencil_traits<DP, D0, D1, D2>;
        static_assert(Traits::dim == 3, "point-plane distance is 3D only");
        using T = typename Traits::Scalar;
        return point_plane_factors<T>(project_point_plane<T>(p, t0, t1, t2, true));
    }
} // namespace detail

} // namespace ipc
