#pragma once
/// @file
/// The IPC edge-edge mollifier (Li et al. 2020, eq. 24) that makes the
/// edge-edge barrier C1 across parallel configurations.
///
/// With c = |(ea1 - ea0) x (eb1 - eb0)|^2 (length^4) and the threshold
/// eps_x = 1e-3 |ea_rest|^2 |eb_rest|^2 (length^4, from rest positions):
///   m(c) = (2 - c / eps_x) c / eps_x  for c < eps_x,   m(c) = 1 otherwise.
/// m is 0 at parallel edges, monotone, and joins 1 with zero slope (C1).
/// The stencil functions differentiate with respect to the current positions
/// (ea0, ea1, eb0, eb1) only; eps_x is a constant. They throw
/// ipc::invalid_argument when eps_x is not positive and finite.

#include <ipc/distance/detail/stencil.hpp>

namespace ipc {

/// Mollifier threshold eps_x = 1e-3 |ea1 - ea0|^2 |eb1 - eb0|^2 at rest
/// (length^4). Validates: throws ipc::invalid_argument for NaN/inf and
/// ipc::degenerate_geometry for a zero-length rest edge.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar edge_edge_mollifier_threshold(
    const Eigen::MatrixBase<DA0>& ea0_rest, const Eigen::MatrixBase<DA1>& ea1_rest,
    const Eigen::MatrixBase<DB0>& eb0_rest, const Eigen::MatrixBase<DB1>& eb1_rest)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge mollifier is 3D only");
    using T = typename Traits::Scalar;
    const T la = (ea1_rest - ea0_rest).squaredNorm();
    const T lb = (eb1_rest - eb0_rest).squaredNorm();
    const T eps_x = T(1e-3) * la * lb;
    if (!detail::finite_value(eps_x)) {
        throw invalid_argument("edge_edge_mollifier_threshold: non-finite rest positions");
    }
    if (!(eps_x > T(0))) {
        throw degenerate_geometry("edge_edge_mollifier_threshold: a rest edge has zero length");
    }
    return eps_x;
}

/// c = |(ea1 - ea0) x (eb1 - eb0)|^2 (length^4). No validation (hot kernel).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar edge_edge_cross_squarednorm(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge mollifier is 3D only");
    return (ea1 - ea0).cross(eb1 - eb0).squaredNorm();
}

/// Gradient of c with respect to (ea0, ea1, eb0, eb1): a 12-vector.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_cross_squarednorm_gradient(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge mollifier is 3D only");
    using T = typename Traits::Scalar;
    const Vector<T, 3> u = ea1 - ea0;
    const Vector<T, 3> v = eb1 - eb0;
    const Vector<T, 3> m = u.cross(v);
    // c = |u|^2 |v|^2 - (u.v)^2: dc/du = 2 v x m, dc/dv = 2 m x u.
    const Vector<T, 3> gu = T(2) * v.cross(m);
    const Vector<T, 3> gv = T(2) * m.cross(u);
    Vector<T, 12> g;
    g.template segment<3>(0) = -gu;
    g.template segment<3>(3) = gu;
    g.template segment<3>(6) = -gv;
    g.template segment<3>(9) = gv;
    return g;
}

namespace detail {
    /// Second derivatives of c = |u x v|^2 = |u|^2 |v|^2 - (u.v)^2 with
    /// respect to the edge vectors u = ea1 - ea0 and v = eb1 - eb0: the 3 x 3
    /// blocks uu, vv and uv (d^2 c / du dv^T; the vu block is its transpose).
    template <typename T> struct CrossSquarednormSecondDerivatives {
        Matrix<T, 3, 3> uu, vv, uv;
    };
    template <typename T>
    inline CrossSquarednormSecondDerivatives<T> cross_squarednorm_second_derivatives(const Vector<T, 3>& u,
                                                                                    const Vector<T, 3>& v)
    {
        const T uu = u.squaredNorm(), vv = v.squaredNorm(), uv = u.dot(v);
        CrossSquarednormSecondDerivatives<T> out;
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 3; ++i) {
                const T diagonal = i == j ? T(1) : T(0);
                out.uu(i, j) = T(2) * (vv * diagonal - v[i] * v[j]);
                out.vv(i, j) = T(2) * (uu * diagonal - u[i] * u[j]);
                out.uv(i, j) = T(4) * u[i] * v[j] - T(2) * v[i] * u[j] - T(2) * uv * diagonal;
            }
        }
        return out;
    }
} // namespace detail

/// Hessian of c with respect to (ea0, ea1, eb0, eb1): a 12x12 matrix.
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_cross_squarednorm_hessian(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge mollifier is 3D only");
    using T = typename Traits::Scalar;
    const Vector<T, 3> u = ea1 - ea0;
    const Vector<T, 3> v = eb1 - eb0;
    const detail::CrossSquarednormSecondDerivatives<T> d = detail::cross_squarednorm_second_derivatives(u, v);
    const Matrix<T, 3, 3> Huu = d.uu, Hvv = d.vv, Huv = d.uv;
    // Chain rule through u = ea1 - ea0, v = eb1 - eb0.
    Matrix<T, 12, 12> H;
    H.template block<3, 3>(0, 0) = Huu;
    H.template block<3, 3>(0, 3) = -Huu;
    H.template block<3, 3>(3, 0) = -Huu;
    H.template block<3, 3>(3, 3) = Huu;
    H.template block<3, 3>(6, 6) = Hvv;
    H.template block<3, 3>(6, 9) = -Hvv;
    H.template block<3, 3>(9, 6) = -Hvv;
    H.template block<3, 3>(9, 9) = Hvv;
    const Matrix<T, 3, 3> Hvu = Huv.transpose();
    H.template block<3, 3>(0, 6) = Huv;
    H.template block<3, 3>(0, 9) = -Huv;
    H.template block<3, 3>(3, 6) = -Huv;
    H.template block<3, 3>(3, 9) = Huv;
    H.template block<3, 3>(6, 0) = Hvu;
    H.template block<3, 3>(9, 0) = -Hvu;
    H.template block<3, 3>(6, 3) = -Hvu;
    H.template block<3, 3>(9, 3) = Hvu;
    return H;
}

namespace detail {
    template <typename T> inline void check_mollifier_threshold(const T& eps_x, const char* where)
    {
        if (!(eps_x > T(0)) || !finite_value(eps_x)) {
            throw invalid_argument(concat(where, ": the threshold eps_x must be positive and finite"));
        }
    }
} // namespace detail

/// Scalar mollifier m(x) for x = c (length^4) and threshold eps_x (length^4).
template <typename T> inline T edge_edge_mollifier(const T& x, const T& eps_x)
{
    detail::check_mollifier_threshold(eps_x, "edge_edge_mollifier");
    if (x < eps_x) {
        const T s = x / eps_x;
        return (T(2) - s) * s;
    }
    return T(1);
}

/// dm/dx of the scalar mollifier (1 / length^4).
template <typename T> inline T edge_edge_mollifier_gradient(const T& x, const T& eps_x)
{
    detail::check_mollifier_threshold(eps_x, "edge_edge_mollifier_gradient");
    if (x < eps_x) {
        return T(2) / eps_x * (T(1) - x / eps_x);
    }
    return T(0);
}

/// d2m/dx2 of the scalar mollifier (1 / length^8).
template <typename T> inline T edge_edge_mollifier_hessian(const T& x, const T& eps_x)
{
    detail::check_mollifier_threshold(eps_x, "edge_edge_mollifier_hessian");
    if (x < eps_x) {
        return T(-2) / (eps_x * eps_x);
    }
    return T(0);
}

/// Mollifier of the edge pair: m(c(ea0, ea1, eb0, eb1)) (dimensionless).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline typename DA0::Scalar edge_edge_mollifier(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    const typename DA0::Scalar& eps_x)
{
    return edge_edge_mollifier(edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1), eps_x);
}

/// Gradient of the edge pair's mollifier with respect to (ea0, ea1, eb0, eb1).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_mollifier_gradient(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    const typename DA0::Scalar& eps_x)
{
    using T = typename DA0::Scalar;
    const T c = edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1);
    const T dm = edge_edge_mollifier_gradient(c, eps_x);
    if (!(c < eps_x)) {
        return Vector<T, 12>(Vector<T, 12>::Zero());
    }
    return Vector<T, 12>(dm * edge_edge_cross_squarednorm_gradient(ea0, ea1, eb0, eb1));
}

/// Hessian of the edge pair's mollifier with respect to (ea0, ea1, eb0, eb1).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline auto edge_edge_mollifier_hessian(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1,
    const typename DA0::Scalar& eps_x)
{
    using T = typename DA0::Scalar;
    const T c = edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1);
    const T dm = edge_edge_mollifier_gradient(c, eps_x);
    if (!(c < eps_x)) {
        return Matrix<T, 12, 12>(Matrix<T, 12, 12>::Zero());
    }
    const T d2m = edge_edge_mollifier_hessian(c, eps_x);
    const Vector<T, 12> g = edge_edge_cross_squarednorm_gradient(ea0, ea1, eb0, eb1);
    Matrix<T, 12, 12> H = dm * edge_edge_cross_squarednorm_hessian(ea0, ea1, eb0, eb1);
    H.noalias() += (d2m * g) * g.transpose();
    detail::mirror_lower_to_upper(H);
    return H;
}

} // namespace ipc
