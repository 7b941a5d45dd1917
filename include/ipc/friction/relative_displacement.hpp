#pragma once
/// @file
/// Relative displacement at a contact (the Gamma operator). The relative
/// displacement of the two closest points is a weighted sum of the stencil's
/// vertex displacements, Delta = sum_i w_i dx_i (m), with weights fixed by the
/// closest-point coefficients (closest_point.hpp); its tangential part is
/// u = T^T Delta (m) with T the tangent basis (tangent_basis.hpp). Stencil
/// orders: point-point (a, b), point-edge (p, e0, e1), point-triangle
/// (p, t0, t1, t2), edge-edge (a0, a1, b0, b1). Raw kernels, no validation.

#include <ipc/core/types.hpp>

#include <Eigen/Core>

namespace ipc {

/// Weights (1, -1) of a point-point contact: Delta = dx_a - dx_b.
template <typename Scalar> Vector2<Scalar> point_point_relative_weights()
{
    return Vector2<Scalar>(Scalar(1), Scalar(-1));
}

/// Weights (1, -(1 - eta), -eta) of a point-edge contact with closest-point
/// parameter eta (point_edge_closest_point).
template <typename Scalar> Vector3<Scalar> point_edge_relative_weights(const Scalar& eta)
{
    return Vector3<Scalar>(Scalar(1), eta - Scalar(1), -eta);
}

/// Weights (1, -(1 - beta1 - beta2), -beta1, -beta2) of a point-triangle
/// contact with closest-point coordinates beta (point_triangle_closest_point).
template <typename Derived>
Vector<typename Derived::Scalar, 4> point_triangle_relative_weights(
    const Eigen::MatrixBase<Derived>& beta)
{
    using Scalar = typename Derived::Scalar;
    return Vector<Scalar, 4>(
        Scalar(1), beta(0) + beta(1) - Scalar(1), -beta(0), -beta(1));
}

/// Weights (1 - gamma_a, gamma_a, -(1 - gamma_b), -gamma_b) of an edge-edge
/// contact with closest-point parameters gamma (edge_edge_closest_point).
template <typename Derived>
Vector<typename Derived::Scalar, 4> edge_edge_relative_weights(
    const Eigen::MatrixBase<Derived>& gamma)
{
    using Scalar = typename Derived::Scalar;
    return Vector<Scalar, 4>(
        Scalar(1) - gamma(0), gamma(0), gamma(1) - Scalar(1), -gamma(1));
}

/// Relative displacement Delta = sum_i weights(i) * displacements.segment<3>(3 i)
/// (m), from the stacked displacements (3 per stencil vertex, m) over the
/// step (x - x at the start of the step).
template <typename DerivedWeights, typename DerivedDisplacements>
Vector3<typename DerivedWeights::Scalar> relative_displacement(
    const Eigen::MatrixBase<DerivedWeights>& weights,
    const Eigen::MatrixBase<DerivedDisplacements>& displacements)
{
    using Scalar = typename DerivedWeights::Scalar;
    Vector3<Scalar> delta = Vector3<Scalar>::Zero();
    for (Eigen::Index i = 0; i < weights.size(); ++i) {
        delta += weights(i) * displacements.template segment<3>(3 * i);
    }
    return delta;
}

/// Tangential relative displacement u = T^T Delta (m, a 2-vector) with T the
/// 3x2 tangent basis.
template <typename DerivedBasis, typename DerivedWeights, typename DerivedDisplacements>
Vector2<typename DerivedBasis::Scalar> tangential_displacement(
    const Eigen::MatrixBase<DerivedBasis>& basis, const Eigen::MatrixBase<DerivedWeights>& weights,
    const Eigen::MatrixBase<DerivedDisplacements>& displacements)
{
    return basis.transpose() * relative_displacement(weights, displacements);
}

} // namespace ipc
