#pragma once
/// @file
/// Squared distance between the segments (ea0, ea1) and (eb0, eb1), with
/// gradient and Hessian (3D).
///
/// The automatic overloads give the value/derivatives of the region's
/// formula: point-point between endpoints, point-line between an endpoint and
/// the other edge, or line-line between the interiors. They select no formula
/// with a branch: they are formed from the closest points themselves (the
/// value equals the typed formula's to the last bit; the gradient, by the
/// envelope theorem, and the Hessian, by implicit differentiation of the free
/// parameters, are the same functions up to rounding), so random input costs
/// no branch mispredictions. Parallel or nearly parallel edges and
/// zero-length edges never use the line-line formula: the closest
/// endpoint-edge formula is used, with its own derivatives (zero for the
/// vertices it does not involve).
/// The distance is continuous everywhere but not differentiable across
/// parallel configurations; multiply barrier terms by edge_edge_mollifier
/// (edge_edge_mollifier.hpp) for a C1 potential. The automatic value overload
/// throws ipc::invalid_argument for NaN/inf input; derivative overloads do not
/// validate (hot kernels). The typed overloads use the given formula as is and
/// throw ipc::degenerate_geometry when its denominator is exactly zero.

#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_point.hpp>

namespace ipc {

namespace detail {
    /// Gradient of the squared distance between two segments that are not
    /// nearly parallel, with respect to (ea0, ea1, eb0, eb1), from their
    /// closest points pa = ea0 + s u and pb = eb0 + t v. By the envelope
    /// theorem the minimisation over (s, t) contributes nothing, so with
    /// r = pa - pb it is (2 (1 - s) r, 2 s r, -2 (1 - t) r, -2 t r) in every
    /// region: no formula to select, hence no branch.
    template <typename T>
    inline Vector<T, 12> nonparallel_edge_edge_distance_squared_gradient(const EdgeEdgeGeometry<T>& g)
    {
        const EdgeEdgeClosestParameters<T> p = nonparallel_edge_edge_parameters<T>(g);
        const T weights[4] = { T(2) * (T(1) - p.s), T(2) * p.s, T(-2) * (T(1) - p.t), T(-2) * p.t };
        Vector<T, 12> grad;
        for (int i = 0; i < 3; ++i) {
            const T r = g.w[i] + p.s * g.u[i] - p.t * g.v[i];
            for (int k = 0; k < 4; ++k) {
                grad[3 * k + i] = weights[k] * r;
            }
        }
        return grad;
    }

    /// Squared distance between two segments that are not nearly parallel,
    /// from their closest points (nonparallel_edge_edge_parameters), without
    /// branches. In the interior region it is the line-line formula
    /// (w . m)^2 / |m|^2; elsewhere |r|^2 with r = pa - pb formed from the
    /// endpoints the region involves plus the free parameter's offset, so a
    /// point-point region gives exactly the endpoint distance and a
    /// point-line region the point-line formula's residual.
    template <typename T> inline T nonparallel_edge_edge_distance_squared(const EdgeEdgeGeometry<T>& g)
    {
        const EdgeEdgeClosestParameters<T> p = nonparallel_edge_edge_parameters<T, true>(g);
        // The region's endpoint difference, copied into one array and picked
        // by index (an array of pointers compiles to a mispredicted branch:
        // 31.8 ns instead of 28.0).
        T ends[4][3];
        for (int i = 0; i < 3; ++i) {
            ends[0][i] = g.w[i];
            ends[1][i] = g.w01[i];
            ends[2][i] = g.w10[i];
            ends[3][i] = g.w11[i];
        }
        const T* end = ends[2 * int(p.s_state == 2) + int(p.t_state == 2)];
        // The free part of each parameter (zero at either end).
        const T s_parts[3] = { T(0), p.s, T(0) };
        const T t_parts[3] = { T(0), p.t, T(0) };
        const T s = s_parts[p.s_state];
        const T t = t_parts[p.t_state];
        T rr = T(0);
        for (int i = 0; i < 3; ++i) {
            const T r = end[i] + s * g.u[i] - t * g.v[i];
            rr += r * r;
        }
        const T h = dot3(g.w, g.m);
        const T candidates[2] = { rr, h * h / g.mm };
        return candidates[int(p.s_state == 1) & int(p.t_state == 1)];
    }

    /// Hessian of the squared distance between two segments that are not
    /// nearly parallel, with respect to (ea0, ea1, eb0, eb1), without
    /// selecting a formula. With weights w = (1 - s, s, t - 1, -t) of
    /// r = w (x) (ea0, ea1, eb0, eb1) and the free parameters among s, t
    /// (those strictly inside [0, 1]), it is 2 (w w^T) (x) I - 2 U Ginv U^T
    /// (projection_hessian) in every region: a parameter at an end
    /// contributes a zero U column and an identity row of the Gram matrix,
    /// so the point-point, point-line and line-line Hessians all come out of
    /// the same arithmetic. Equal to the typed formula's Hessian up to
    /// rounding.
    template <typename T> inline Matrix<T, 12, 12> nonparallel_edge_edge_distance_squared_hessian(const EdgeEdgeGeometry<T>& g)
    {
        using std::sqrt;
        const EdgeEdgeClosestParameters<T> p = nonparallel_edge_edge_parameters<T>(g);
        const T fs = T(p.s_state == 1), ft = T(p.t_state == 1); // 1: free
        const Vector<T, 4> w(T(1) - p.s, p.s, p.t - T(1), -p.t);
        Vector<T, 3> r;
        Matrix<T, 3, 2> E; // dr/ds = u and dr/dt = -v, zero for a fixed parameter
        for (int i = 0; i < 3; ++i) {
            r[i] = g.w[i] + p.s * g.u[i] - p.t * g.v[i];
            E(i, 0) = fs * g.u[i];
            E(i, 1) = -ft * g.v[i];
        }
        Matrix<T, 4, 2> dw; // dw/ds, dw/dt
        dw << -fs, T(0), fs, T(0), T(0), ft, T(0), -ft;
        // Gram matrix [[a', -b'], [-b', c']] of the free directions (a' = 1
        // or c' = 1 for a fixed one); its determinant is |u x v|^2 when both
        // are free (Lagrange's identity, without cancellation). Cholesky
        // factor of its inverse as in line_line_factors.
        const T a1 = fs * g.a + (T(1) - fs);
        const T c1 = ft * g.c + (T(1) - ft);
        const T b1 = fs * ft * dot3(g.u, g.v);
        const T dets[2] = { a1 * c1, g.mm };
        const T det = dets[int(p.s_state == 1) & int(p.t_state == 1)];
        const T c_norm = sqrt(c1);
        const T scale = T(1) / (c_norm * sqrt(det));
        Matrix<T, 2, 2> C;
        C << c1 * scale, T(0), b1 * scale, T(1) / c_norm;
        return assemble_projection_hessian<T, 3, 4, 2>(w, projection_hessian_factor<T, 3, 4, 2>(w, dw, E, r, C));
    }
} // namespace detail

/// Squared distance (length^2) between edges a and b using the formula of
/// the given region.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar edge_edge_distance_squared(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    EdgeEdgeDistanceType type)
{
    using Type = EdgeEdgeDistanceType;
    switch (type) {
    case Type::EA0_EB0: return point_point_distance_squared(ea0, eb0);
    case Type::EA0_EB1: return point_point_distance_squared(ea0, eb1);
    case Type::EA1_EB0: return point_point_distance_squared(ea1, eb0);
    case Type::EA1_EB1: return point_point_distance_squared(ea1, eb1);
    case Type::EA_EB0: return point_line_distance_squared(eb0, ea0, ea1);
    case Type::EA_EB1: return point_line_distance_squared(eb1, ea0, ea1);
    case Type::EA0_EB: return point_line_distance_squared(ea0, eb0, eb1);
    case Type::EA1_EB: return point_line_distance_squared(ea1, eb0, eb1);
    default: return line_line_distance_squared(ea0, ea1, eb0, eb1);
    }
}

/// Squared distance (length^2) between edges a and b (automatic region).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar edge_edge_distance_squared(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    const detail::EdgeEdgeGeometry<T> g = detail::edge_edge_geometry(ea0, ea1, eb0, eb1);
    if (g.parallel()) {
        const T d = detail::classify_edge_edge<T>(ea0, ea1, eb0, eb1).distance_squared;
        detail::check_finite_stencil(d, "edge_edge_distance_squared", ea0, ea1, eb0, eb1);
        return d;
    }
    // A NaN or infinite coordinate makes |u|^2 or |v|^2 non-finite, and then
    // parallel() is true: here only the result itself can be non-finite (its
    // square overflowed), so the coordinates are summed only in that case.
    const T d = detail::nonparallel_edge_edge_distance_squared<T>(g);
    if (!detail::finite_value(d)) {
        detail::check_finite_stencil(d, "edge_edge_distance_squared", ea0, ea1, eb0, eb1); // throws
    }
    return d;
}

/// Gradient with respect to (ea0, ea1, eb0, eb1) (12-vector) using the
/// formula of the given region.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_distance_squared_gradient(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    EdgeEdgeDistanceType type)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    using Type = EdgeEdgeDistanceType;
    switch (type) {
    case Type::EA0_EB0:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(ea0, eb0), { { 0, 2 } });
    case Type::EA0_EB1:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(ea0, eb1), { { 0, 3 } });
    case Type::EA1_EB0:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(ea1, eb0), { { 1, 2 } });
    case Type::EA1_EB1:
        return detail::scatter_gradient<3, 4, T, 2>(
            point_point_distance_squared_gradient(ea1, eb1), { { 1, 3 } });
    case Type::EA_EB0:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(eb0, ea0, ea1), { { 2, 0, 1 } });
    case Type::EA_EB1:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(eb1, ea0, ea1), { { 3, 0, 1 } });
    case Type::EA0_EB:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(ea0, eb0, eb1), { { 0, 2, 3 } });
    case Type::EA1_EB:
        return detail::scatter_gradient<3, 4, T, 3>(
            point_line_distance_squared_gradient(ea1, eb0, eb1), { { 1, 2, 3 } });
    default: return Vector<T, 12>(line_line_distance_squared_gradient(ea0, ea1, eb0, eb1));
    }
}

/// Gradient with respect to (ea0, ea1, eb0, eb1) (automatic region).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_distance_squared_gradient(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    const detail::EdgeEdgeGeometry<T> g = detail::edge_edge_geometry(ea0, ea1, eb0, eb1);
    if (!g.parallel()) {
        return detail::nonparallel_edge_edge_distance_squared_gradient<T>(g);
    }
    return edge_edge_distance_squared_gradient(
        ea0, ea1, eb0, eb1, detail::classify_edge_edge<T>(ea0, ea1, eb0, eb1).type);
}

/// Hessian with respect to (ea0, ea1, eb0, eb1) (12x12) using the formula of
/// the given region.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_distance_squared_hessian(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    EdgeEdgeDistanceType type)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    using Type = EdgeEdgeDistanceType;
    switch (type) {
    case Type::EA0_EB0:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(ea0, eb0), { { 0, 2 } });
    case Type::EA0_EB1:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(ea0, eb1), { { 0, 3 } });
    case Type::EA1_EB0:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(ea1, eb0), { { 1, 2 } });
    case Type::EA1_EB1:
        return detail::scatter_hessian<3, 4, T, 2>(
            point_point_distance_squared_hessian(ea1, eb1), { { 1, 3 } });
    case Type::EA_EB0:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(eb0, ea0, ea1), { { 2, 0, 1 } });
    case Type::EA_EB1:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(eb1, ea0, ea1), { { 3, 0, 1 } });
    case Type::EA0_EB:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(ea0, eb0, eb1), { { 0, 2, 3 } });
    case Type::EA1_EB:
        return detail::scatter_hessian<3, 4, T, 3>(
            point_line_distance_squared_hessian(ea1, eb0, eb1), { { 1, 2, 3 } });
    default: return Matrix<T, 12, 12>(line_line_distance_squared_hessian(ea0, ea1, eb0, eb1));
    }
}

/// Hessian with respect to (ea0, ea1, eb0, eb1) (automatic region).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_distance_squared_hessian(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    const detail::EdgeEdgeGeometry<T> g = detail::edge_edge_geometry(ea0, ea1, eb0, eb1);
    if (!g.parallel()) {
        return detail::nonparallel_edge_edge_distance_squared_hessian<T>(g);
    }
    return edge_edge_distance_squared_hessian(
        ea0, ea1, eb0, eb1, detail::classify_edge_edge<T>(ea0, ea1, eb0, eb1).type);
}

namespace detail {
    /// Places the factors of a sub-stencil (points `blocks` of the four
    /// edge-edge points) into edge-edge factors (zero weight and zero L rows
    /// for the points it does not involve).
    template <typename T, int NSMALL, int KSMALL>
    inline DistanceHessianFactors<T, 3, 4, 2>
    scatter_factors(const DistanceHessianFactors<T, 3, NSMALL, KSMALL>& small, const std::array<int, NSMALL>& blocks)
    {
        DistanceHessianFactors<T, 3, 4, 2> f;
        f.w.setZero();
        f.L.setZero();
        f.r = small.r;
        f.columns = small.columns;
        for (int i = 0; i < NSMALL; ++i) {
            f.w[blocks[i]] = small.w[i];
            f.L.template block<3, KSMALL>(3 * blocks[i], 0) = small.L.template middleRows<3>(3 * i);
        }
        return f;
    }

    /// Factored Hessian (see DistanceHessianFactors) of the squared distance
    /// between edges a and b using the formula of the given region, with
    /// respect to (ea0, ea1, eb0, eb1): 0 L columns for a point-point region,
    /// 1 for point-line, 2 for line-line. Throws like the typed Hessian.
    template <typename DA0, typename DA1, typename DB0, typename DB1>
    inline DistanceHessianFactors<typename DA0::Scalar, 3, 4, 2> edge_edge_distance_squared_hessian_factors(
        const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
        const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
        EdgeEdgeDistanceType type)
    {
        using Traits = stencil_traits<DA0, DA1, DB0, DB1>;
        static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
        using T = typename Traits::Scalar;
        using Type = EdgeEdgeDistanceType;
        switch (type) {
        case Type::EA0_EB0: return scatter_factors<T, 2, 1>(point_point_distance_squared_hessian_factors(ea0, eb0), { { 0, 2 } });
        case Type::EA0_EB1: return scatter_factors<T, 2, 1>(point_point_distance_squared_hessian_factors(ea0, eb1), { { 0, 3 } });
        case Type::EA1_EB0: return scatter_factors<T, 2, 1>(point_point_distance_squared_hessian_factors(ea1, eb0), { { 1, 2 } });
        case Type::EA1_EB1: return scatter_factors<T, 2, 1>(point_point_distance_squared_hessian_factors(ea1, eb1), { { 1, 3 } });
        case Type::EA_EB0: return scatter_factors<T, 3, 1>(point_line_distance_squared_hessian_factors(eb0, ea0, ea1), { { 2, 0, 1 } });
        case Type::EA_EB1: return scatter_factors<T, 3, 1>(point_line_distance_squared_hessian_factors(eb1, ea0, ea1), { { 3, 0, 1 } });
        case Type::EA0_EB: return scatter_factors<T, 3, 1>(point_line_distance_squared_hessian_factors(ea0, eb0, eb1), { { 0, 2, 3 } });
        case Type::EA1_EB: return scatter_factors<T, 3, 1>(point_line_distance_squared_hessian_factors(ea1, eb0, eb1), { { 1, 2, 3 } });
        default: return line_line_distance_squared_hessian_factors(ea0, ea1, eb0, eb1);
        }
    }
} // namespace detail

} // namespace ipc
