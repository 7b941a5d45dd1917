#pragma once
/// @file
/// Stencil points: a point that is a fixed weighted combination of up to four
/// mesh vertices, p = sum_k w_k x_{v_k}. A mesh vertex is the stencil {v}
/// with weight 1; a point embedded in an edge or a triangle (a sample of the
/// vertex-repulsion method, Wu et al. 2020) is the stencil of the primitive's
/// vertices with its barycentric weights. The weights are constants, so the
/// point is linear in the vertex positions and the squared distance between
/// two stencil points is a quadratic in them: its gradient with respect to a
/// vertex v is 2 w_v (p_a - p_b) for a vertex of the first stencil and
/// -2 w_v (p_a - p_b) for one of the second.
///
/// Positions are rows of an n x DIM matrix V (metres); the distance is in
/// squared length units. The hot functions do not validate (they run once per
/// constraint per iteration): vertex indices must be rows of V, V must have
/// at least DIM columns. check_point_stencil validates a stencil built from
/// untrusted data.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>

namespace ipc {

/// A point that is a fixed weighted combination of up to four mesh vertices:
/// sum_k weights[k] * V.row(vertices[k]) over the first `size` entries.
/// Unused entries are ignored. Weights need not sum to one (any linear
/// combination works), but barycentric weights do.
struct PointStencil {
    /// Mesh vertices combined (the first `size` are used).
    std::array<Index, 4> vertices {};
    /// Weight of each vertex (dimensionless).
    std::array<double, 4> weights {};
    int size = 0; ///< number of used entries, 1..4

    /// The mesh vertex v itself: {v}, weight 1.
    static PointStencil vertex(Index v)
    {
        PointStencil p;
        p.vertices[0] = v;
        p.weights[0] = 1.0;
        p.size = 1;
        return p;
    }

    /// The point (1 - t) x_{v0} + t x_{v1} of edge (v0, v1) (t in [0, 1] for
    /// a point on the edge; not checked).
    static PointStencil edge_point(Index v0, Index v1, double t)
    {
        PointStencil p;
        p.vertices[0] = v0;
        p.vertices[1] = v1;
        p.weights[0] = 1.0 - t;
        p.weights[1] = t;
        p.size = 2;
        return p;
    }

    /// The point b0 x_{v0} + b1 x_{v1} + b2 x_{v2} of triangle (v0, v1, v2)
    /// (barycentric coordinates summing to one for a point on the triangle's
    /// plane; not checked).
    static PointStencil triangle_point(Index v0, Index v1, Index v2, double b0, double b1, double b2)
    {
        PointStencil p;
        p.vertices[0] = v0;
        p.vertices[1] = v1;
        p.vertices[2] = v2;
        p.weights[0] = b0;
        p.weights[1] = b1;
        p.weights[2] = b2;
        p.size = 3;
        return p;
    }
};

/// Validates a stencil against a mesh of num_vertices vertices: throws
/// ipc::invalid_argument (message prefixed by `what`) when size is not in
/// 1..4, a used vertex index is not in [0, num_vertices), or a used weight is
/// not finite.
inline void check_point_stencil(const PointStencil& p, Index num_vertices, const char* what = "point stencil")
{
    require(p.size >= 1 && p.size <= 4, what, ": size must be in 1..4, got ", p.size);
    for (int k = 0; k < p.size; ++k) {
        const Index v = p.vertices[size_t(k)];
        require(v >= 0 && v < num_vertices, what, ": entry ", k, " references vertex ", v, " but the mesh has ",
            num_vertices, " vertices");
        require(std::isfinite(p.weights[size_t(k)]), what, ": entry ", k, " has a non-finite weight (",
            p.weights[size_t(k)], ")");
    }
}

/// Position sum_k w_k V.row(v_k) of the stencil point (metres). V is n x DIM
/// (or wider: only the first DIM columns are read). Not validated.
template <int DIM, typename Derived>
inline Eigen::Matrix<typename Derived::Scalar, DIM, 1>
stencil_position(const PointStencil& p, const Eigen::MatrixBase<Derived>& V)
{
    static_assert(DIM == 2 || DIM == 3, "stencil points are 2D or 3D");
    using T = typename Derived::Scalar;
    Eigen::Matrix<T, DIM, 1> x = Eigen::Matrix<T, DIM, 1>::Zero();
    for (int k = 0; k < p.size; ++k) {
        const Index v = p.vertices[size_t(k)];
        const T w = T(p.weights[size_t(k)]);
        for (int d = 0; d < DIM; ++d) {
            x[d] += w * V(v, d);
        }
    }
    return x;
}

/// |p_a - p_b|^2 for two stencil points (squared length units, m^2). Not
/// validated.
template <int DIM, typename Derived>
inline typename Derived::Scalar stencil_point_point_distance_squared(
    const PointStencil& a, const PointStencil& b, const Eigen::MatrixBase<Derived>& V)
{
    return (stencil_position<DIM>(a, V) - stencil_position<DIM>(b, V)).squaredNorm();
}

/// Adds scale * d(|p_a - p_b|^2)/dx_v to G.row(v) for every vertex v of both
/// stencils: 2 scale w (p_a - p_b) for an entry (v, w) of a, and
/// -2 scale w (p_a - p_b) for an entry of b. A vertex listed in both stencils
/// (or twice in one) accumulates every contribution. G is n x DIM (or wider;
/// the first DIM columns are written) with the rows of V; units of G are
/// those of scale times metres. This overload takes a writable expression
/// (a block, a Ref) by const reference, as Eigen recommends, and writes
/// through it. Not validated.
template <int DIM, typename Derived, typename GradientDerived>
inline void add_stencil_point_point_distance_squared_gradient(const PointStencil& a, const PointStencil& b,
    const Eigen::MatrixBase<Derived>& V, typename Derived::Scalar scale, const Eigen::MatrixBase<GradientDerived>& G)
{
    using T = typename Derived::Scalar;
    GradientDerived& out = const_cast<GradientDerived&>(G.derived());
    const Eigen::Matrix<T, DIM, 1> r = stencil_position<DIM>(a, V) - stencil_position<DIM>(b, V);
    const Eigen::Matrix<T, DIM, 1> g = (T(2) * scale) * r;
    for (int k = 0; k < a.size; ++k) {
        const Index v = a.vertices[size_t(k)];
        const T w = T(a.weights[size_t(k)]);
        for (int d = 0; d < DIM; ++d) {
            out(v, d) += w * g[d];
        }
    }
    for (int k = 0; k < b.size; ++k) {
        const Index v = b.vertices[size_t(k)];
        const T w = T(b.weights[size_t(k)]);
        for (int d = 0; d < DIM; ++d) {
            out(v, d) -= w * g[d];
        }
    }
}

/// Same as above for a writable matrix (MatrixXd, Matrix<double, -1, 3>, an
/// lvalue Ref or Block).
template <int DIM, typename Derived, typename GradientDerived>
inline void add_stencil_point_point_distance_squared_gradient(const PointStencil& a, const PointStencil& b,
    const Eigen::MatrixBase<Derived>& V, typename Derived::Scalar scale, Eigen::MatrixBase<GradientDerived>& G)
{
    add_stencil_point_point_distance_squared_gradient<DIM>(
        a, b, V, scale, static_cast<const Eigen::MatrixBase<GradientDerived>&>(G));
}

} // namespace ipc
