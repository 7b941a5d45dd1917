#pragma once
/// @file
/// The lagged data of one frictional contact: tangent basis T, relative
/// displacement weights (the Gamma operator), normal-force magnitude lambda
/// and friction coefficient mu, all evaluated at the lag configuration and
/// held fixed while the friction potential is minimised. The builders below
/// compute basis and weights from the lag positions (m) and validate
/// everything (they run once per lag update).

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/closest_point.hpp>
#include <ipc/friction/relative_displacement.hpp>
#include <ipc/friction/tangent_basis.hpp>

#include <cmath>

namespace ipc {

/// Lagged data of a contact whose stencil has VertexCount vertices (2: point-
/// point, 3: point-edge, 4: point-triangle and edge-edge).
template <typename Scalar, int VertexCount> struct FrictionContact {
    /// Number of vertices of the stencil.
    static constexpr int vertex_count = VertexCount;
    /// Number of degrees of freedom of the stencil (3 per vertex).
    static constexpr int dof_count = 3 * VertexCount;
    /// Orthonormal 3x2 basis of the tangent plane (for anisotropic friction
    /// its columns are rescaled, see anisotropic_friction.hpp).
    Matrix<Scalar, 3, 2> tangent_basis;
    /// Relative displacement weights, one per stencil vertex.
    Vector<Scalar, VertexCount> weights;
    /// Normal-force magnitude lambda >= 0 (see normal_force.hpp; energy per
    /// metre, i.e. newtons when the barrier potential is in joules).
    Scalar normal_force;
    /// Friction coefficient mu >= 0 (dimensionless); the kinetic one when
    /// mu_static_excess is not zero.
    Scalar mu;
    /// Static minus kinetic coefficient mu_s - mu (dimensionless, >= -mu);
    /// 0, the default, is the single-coefficient model. See
    /// static_kinetic_friction.hpp.
    Scalar mu_static_excess = Scalar(0);
    /// Width c > 0 of the static-to-kinetic transition, in multiples of eps
    /// (static_kinetic_friction.hpp); unused when mu_static_excess is 0.
    Scalar static_transition = Scalar(1);
};

namespace detail {
    template <typename Scalar>
    void require_friction_parameters(const Scalar& normal_force, const Scalar& mu, const char* function)
    {
        using std::isfinite;
        require(isfinite(normal_force) && normal_force >= Scalar(0), function,
            ": normal force must be finite and non-negative, got ", normal_force);
        require(isfinite(mu) && mu >= Scalar(0), function,
            ": friction coefficient mu must be finite and non-negative, got ", mu);
    }
} // namespace detail

/// Friction contact between points a and b. Coincident points get the
/// deterministic plane of point_point_tangent_basis.
template <typename DerivedA, typename DerivedB>
FrictionContact<typename DerivedA::Scalar, 2> point_point_friction_contact(
    const Eigen::MatrixBase<DerivedA>& a, const Eigen::MatrixBase<DerivedB>& b,
    const typename DerivedA::Scalar& normal_force, const typename DerivedA::Scalar& mu)
{
    using Scalar = typename DerivedA::Scalar;
    detail::require_friction_parameters(normal_force, mu, "point_point_friction_contact");
    return { point_point_tangent_basis(a, b), point_point_relative_weights<Scalar>(),
        normal_force, mu };
}

/// Friction contact between point p and edge (e0, e1). Throws
/// ipc::degenerate_geometry for a zero-length edge.
template <typename DerivedP, typename DerivedE0, typename DerivedE1>
FrictionContact<typename DerivedP::Scalar, 3> point_edge_friction_contact(
    const Eigen::MatrixBase<DerivedP>& p, const Eigen::MatrixBase<DerivedE0>& e0,
    const Eigen::MatrixBase<DerivedE1>& e1, const typename DerivedP::Scalar& normal_force,
    const typename DerivedP::Scalar& mu)
{
    detail::require_friction_parameters(normal_force, mu, "point_edge_friction_contact");
    return { point_edge_tangent_basis(p, e0, e1),
        point_edge_relative_weights(point_edge_closest_point(p, e0, e1)), normal_force, mu };
}

/// Friction contact between point p and triangle (t0, t1, t2). Throws
/// ipc::degenerate_geometry for a zero-area triangle.
template <typename DerivedP, typename DerivedT0, typename DerivedT1, typename DerivedT2>
FrictionContact<typename DerivedP::Scalar, 4> point_triangle_friction_contact(
    const Eigen::MatrixBase<DerivedP>& p, const Eigen::MatrixBase<DerivedT0>& t0,
    const Eigen::MatrixBase<DerivedT1>& t1, const Eigen::MatrixBase<DerivedT2>& t2,
    const typename DerivedP::Scalar& normal_force, const typename DerivedP::Scalar& mu)
{
    detail::require_friction_parameters(normal_force, mu, "point_triangle_friction_contact");
    return { point_triangle_tangent_basis(p, t0, t1, t2),
        point_triangle_relative_weights(point_triangle_closest_point(p, t0, t1, t2)),
        normal_force, mu };
}

/// Friction contact between edges (a0, a1) and (b0, b1). Throws
/// ipc::degenerate_geometry for a zero-length edge or parallel edges.
template <typename DerivedA0, typename DerivedA1, typename DerivedB0, typename DerivedB1>
FrictionContact<typename DerivedA0::Scalar, 4> edge_edge_friction_contact(
    const Eigen::MatrixBase<DerivedA0>& a0, const Eigen::MatrixBase<DerivedA1>& a1,
    const Eigen::MatrixBase<DerivedB0>& b0, const Eigen::MatrixBase<DerivedB1>& b1,
    const typename DerivedA0::Scalar& normal_force, const typename DerivedA0::Scalar& mu)
{
    detail::require_friction_parameters(normal_force, mu, "edge_edge_friction_contact");
    return { edge_edge_tangent_basis(a0, a1, b0, b1),
        edge_edge_relative_weights(edge_edge_closest_point(a0, a1, b0, b1)), normal_force, mu };
}

} // namespace ipc
