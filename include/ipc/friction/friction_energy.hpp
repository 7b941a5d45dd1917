#pragma once
/// @file
/// Lagged friction potential of one contact (IPC section 5.4) and its exact
/// gradient and Hessian over the stencil's 3n coordinates. With the lagged
/// basis T, weights w (Gamma), lambda and mu of a FrictionContact, the
/// stacked displacements dx (x minus x at the start of the step, m) and the
/// slip threshold eps = eps_v h (m):
///     u = T^T sum_i w_i dx_i,  y = |u|
///     D = mu lambda f0(y)
///     grad_i D = w_i mu lambda (f1(y)/y) T u
///     hess_ij D = w_i w_j mu lambda T M T^T,
///     M = f1'(y) uhat uhat^T + (f1(y)/y) uperp uperp^T,
/// with uhat = u / y and uperp its 90-degree rotation. M is the exact Hessian
/// of f0(|u|) split into its eigenpairs; both eigenvalues are >= 0 for the
/// monotone mollifiers of friction_mollifier.hpp, so the Hessian is PSD by
/// construction and needs no projection. At y = 0 (where f1'(0) = f1(y)/y
/// for those shapes) M = f1'(0) I. No allocation, no division by y.
/// Raw kernels: displacements and eps > 0 are not validated (see
/// check_friction_arguments).
///
/// Static and kinetic coefficients (static_kinetic_friction.hpp): a contact
/// with mu_static_excess = mu_s - mu_k != 0 adds (mu_s - mu_k) lambda G(y) to
/// D, and the matching terms to the gradient and Hessian (f1 -> g); its
/// Hessian eigenvalue along the slip can then be negative (see
/// friction_hessian's projection). With the default excess 0 the added terms
/// are exactly zero.

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_mollifier.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>

#include <Eigen/Core>

#include <cmath>

namespace ipc {

/// Friction energy D = mu lambda f0(|u|) of one contact (units of lambda
/// times metres, joules when lambda is in newtons).
template <typename Mollifier = C1FrictionMollifier, typename Scalar, int VertexCount,
    typename Derived>
Scalar friction_energy(const FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& displacements, const Scalar& eps)
{
    using std::sqrt;
    const Vector2<Scalar> u
        = tangential_displacement(contact.tangent_basis, contact.weights, displacements);
    const Scalar y = sqrt(u.squaredNorm());
    Scalar energy = contact.mu * contact.normal_force * Mollifier::f0(y, eps);
    if (contact.mu_static_excess != Scalar(0)) {
        energy += contact.mu_static_excess * contact.normal_force
            * static_friction_f0<Mollifier>(y, eps, contact.static_transition);
    }
    return energy;
}

/// Gradient of friction_energy over the 3 * VertexCount stencil coordinates
/// (the negated friction force on each vertex).
template <typename Mollifier = C1FrictionMollifier, typename Scalar, int VertexCount,
    typename Derived>
Vector<Scalar, 3 * VertexCount> friction_gradient(
    const FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& displacements, const Scalar& eps)
{
    using std::sqrt;
    const Vector2<Scalar> u
        = tangential_displacement(contact.tangent_basis, contact.weights, displacements);
    const Scalar y = sqrt(u.squaredNorm());
    Scalar magnitude = contact.mu * contact.normal_force * Mollifier::f1_over_y(y, eps);
    if (contact.mu_static_excess != Scalar(0)) {
        magnitude += contact.mu_static_excess * contact.normal_force
            * static_friction_f1_over_y<Mollifier>(y, eps, contact.static_transition);
    }
    const Vector3<Scalar> force = magnitude * (contact.tangent_basis * u);
    Vector<Scalar, 3 * VertexCount> gradient;
    for (int i = 0; i < VertexCount; ++i) {
        gradient.template segment<3>(3 * i) = contact.weights(i) * force;
    }
    return gradient;
}

/// Which matrix friction_hessian returns.
enum class FrictionHessianForm {
    /// The exact Hessian: f1'(y) along the slip, f1(y)/y across it.
    exact,
    /// f1(y)/y along the slip too: the Hessian of the quadratic
    ///     q(v) = f0(y) + f1(y) / (2 y) (|v|^2 - y^2)
    /// of the slip v, which equals f0(|v|) with its gradient at v = u and lies
    /// above it everywhere when f1(y)/y does not increase with y (true for
    /// every mollifier of friction_mollifier.hpp: f0(sqrt t) is concave in
    /// t). A Newton step on this model cannot raise the friction energy above
    /// what the model predicts (majorize-minimize), so where the slip reverses
    /// within a step, a line search keeps the full step that the exact
    /// Hessian (no curvature along a sliding slip) overshoots. The model is
    /// stiffer along the slip, so a residual-driven solve needs more
    /// iterations near convergence. With static/kinetic coefficients
    /// (mu_static_excess != 0) the bound holds only where the combined
    /// f1(y)/y + excess g(y)/y does not increase.
    majorizer,
};

/// Hessian of friction_energy over the 3 * VertexCount stencil coordinates,
/// in the given form (exact by default). Both forms are positive
/// semi-definite by construction for a single-coefficient contact
/// (mu_static_excess == 0). With static/kinetic coefficients the eigenvalue
/// along the slip can be negative: projection (other than none) clamps (or
/// flips) the two eigenvalues of the 2x2 slip Hessian, which makes the
/// result PSD; none returns the unprojected matrix.
template <typename Mollifier = C1FrictionMollifier, typename Scalar, int VertexCount,
    typename Derived>
Matrix<Scalar, 3 * VertexCount, 3 * VertexCount> friction_hessian(
    const FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& displacements, const Scalar& eps,
    PSDProjection projection = PSDProjection::none,
    FrictionHessianForm form = FrictionHessianForm::exact)
{
    using std::sqrt;
    const Vector2<Scalar> u
        = tangential_displacement(contact.tangent_basis, contact.weights, displacements);
    const Scalar y = sqrt(u.squaredNorm());
    const Scalar scale = contact.mu * contact.normal_force;
    Vector2<Scalar> direction(Scalar(1), Scalar(0));
    if (y > Scalar(0)) {
        direction = u / y;
    }
    // Tangent-plane directions in 3D of uhat and uperp.
    const Vector3<Scalar> along = contact.tangent_basis * direction;
    const Vector3<Scalar> across
        = contact.tangent_basis * Vector2<Scalar>(-direction(1), direction(0));
    // Outer products first, then scaled, so the block is exactly symmetric.
    const Matrix<Scalar, 3, 3> along_outer = along * along.transpose();
    const Matrix<Scalar, 3, 3> across_outer = across * across.transpose();
    Scalar along_value = scale * Mollifier::f1_derivative(y, eps);
    Scalar across_value = scale * Mollifier::f1_over_y(y, eps);
    if (contact.mu_static_excess != Scalar(0)) {
        const Scalar excess = contact.mu_static_excess * contact.normal_force;
        along_value += excess
            * static_friction_f1_derivative<Mollifier>(y, eps, contact.static_transition);
        across_value
            += excess * static_friction_f1_over_y<Mollifier>(y, eps, contact.static_transition);
    }
    if (form == FrictionHessianForm::majorizer) {
        along_value = across_value;
    }
    if (projection == PSDProjection::clamp) {
        along_value = along_value < Scalar(0) ? Scalar(0) : along_value;
        across_value = across_value < Scalar(0) ? Scalar(0) : across_value;
    } else if (projection == PSDProjection::abs) {
        along_value = along_value < Scalar(0) ? -along_value : along_value;
        across_value = across_value < Scalar(0) ? -across_value : across_value;
    }
    const Matrix<Scalar, 3, 3> block = along_outer * along_value + across_outer * across_value;
    Matrix<Scalar, 3 * VertexCount, 3 * VertexCount> hessian;
    for (int i = 0; i < VertexCount; ++i) {
        for (int j = 0; j < VertexCount; ++j) {
            hessian.template block<3, 3>(3 * i, 3 * j)
                = (contact.weights(i) * contact.weights(j)) * block;
        }
    }
    return hessian;
}

/// Validates a friction evaluation: throws ipc::invalid_argument when eps is
/// not finite and positive, a displacement is not finite, the displacement
/// vector does not have 3 * VertexCount entries, the contact's lambda or
/// mu is negative or not finite, its static coefficient mu + mu_static_excess
/// is negative or not finite, or its static_transition is not finite and
/// positive.
template <typename Scalar, int VertexCount, typename Derived>
void check_friction_arguments(const FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& displacements, const Scalar& eps)
{
    using std::isfinite;
    require(isfinite(eps) && eps > Scalar(0),
        "friction: slip threshold eps (eps_v * h) must be finite and positive, got ", eps);
    require(displacements.size() == 3 * VertexCount, "friction: expected ", 3 * VertexCount,
        " displacement entries, got ", displacements.size());
    for (Eigen::Index i = 0; i < displacements.size(); ++i) {
        require(isfinite(displacements(i)), "friction: displacement entry ", i, " = ",
            displacements(i), " is not finite");
    }
    detail::require_friction_parameters(contact.normal_force, contact.mu, "friction");
    detail::require_static_kinetic_parameters(Scalar(contact.mu + contact.mu_static_excess),
        contact.mu, contact.static_transition, "friction");
}

} // namespace ipc
