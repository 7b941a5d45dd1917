#pragma once
/// @file
/// Anisotropic (elliptic) friction in the lagged smoothed friction model.
///
/// Model. A material direction m (a world vector, any length) is projected
/// into a contact's tangent plane, giving the unit in-plane axis a and the
/// axis b = a rotated by 90 degrees in the plane (the rotation R maps the
/// contact's basis coordinates to (a, b) coordinates). The slip is measured
/// in that frame and scaled per axis:
///     u_s = diag(s_a, s_b) R^T T^T sum_i w_i dx_i,   y = |u_s|,
///     D   = mu lambda f0(y)
/// (plus the static term of static_kinetic_friction.hpp when the contact has
/// one). In the sliding limit (f0(y) = y) the friction force is
/// lambda mu diag-scaled: pure slip along a meets the coefficient mu s_a,
/// along b mu s_b, and in between the force lies on the ellipse with those
/// semi-axes (the force is the gradient of the convex norm |diag(s) v|, so
/// energy and force are consistent by construction). The stick threshold is
/// eps / s_a along a and eps / s_b along b.
///
/// Implementation: u_s = T'^T dx-sum with T' = T R diag(s_a, s_b), so the
/// anisotropy lives entirely in the contact's (rescaled) tangent basis and
/// friction_energy / friction_gradient / friction_hessian and
/// FrictionPotential apply unchanged (their formulas hold for any 3x2
/// basis; the Hessian stays T' M T'^T with the same 2x2 slip eigenvalues, so
/// it is PSD exactly when the isotropic one is).
///
/// Fallback: when m has no in-plane part (|T^T m| <= 1e-12 |m|, m normal to
/// the contact plane), a is the contact's first basis column (the
/// deterministic basis of tangent_basis.hpp). When s_a == s_b the frame is
/// irrelevant and the basis is only scaled (by 1: left bit for bit as it is,
/// so the isotropic energy is reproduced exactly).

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/friction_contact.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace ipc {

/// Rescales a contact's tangent basis for anisotropic friction (see the file
/// comment): the coefficients become mu * scale_a along the material
/// direction's in-plane axis and mu * scale_b across it (static and kinetic
/// alike). direction: world vector (3 entries, any non-zero length; m);
/// scale_a, scale_b >= 0 (dimensionless). Apply once to a contact fresh from
/// a builder (the basis must be orthonormal). Throws ipc::invalid_argument for
/// a zero, non-finite or wrongly sized direction, or a negative or non-finite
/// scale.
template <typename Scalar, int VertexCount, typename Derived>
void make_friction_anisotropic(FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& direction, const Scalar& scale_a, const Scalar& scale_b)
{
    using std::isfinite;
    using std::sqrt;
    require(direction.size() == 3, "make_friction_anisotropic: direction must have 3 entries, got ",
        direction.size());
    for (Eigen::Index i = 0; i < 3; ++i) {
        require(isfinite(direction(i)), "make_friction_anisotropic: direction entry ", i, " = ",
            direction(i), " is not finite");
    }
    const Vector3<Scalar> m(direction(0), direction(1), direction(2));
    const Scalar m_norm = sqrt(m.squaredNorm());
    require(m_norm > Scalar(0), "make_friction_anisotropic: direction must be non-zero");
    require(isfinite(scale_a) && scale_a >= Scalar(0),
        "make_friction_anisotropic: scale_a must be finite and non-negative, got ", scale_a);
    require(isfinite(scale_b) && scale_b >= Scalar(0),
        "make_friction_anisotropic: scale_b must be finite and non-negative, got ", scale_b);
    if (scale_a == scale_b) {
        if (scale_a != Scalar(1)) {
            contact.tangent_basis *= scale_a;
        }
        return;
    }
    const Vector2<Scalar> c = contact.tangent_basis.transpose() * m;
    const Scalar c_norm = sqrt(c.squaredNorm());
    Vector2<Scalar> a(Scalar(1), Scalar(0));
    if (c_norm > Scalar(1e-12) * m_norm) {
        a = c / c_norm;
    }
    const Vector3<Scalar> axis_a = contact.tangent_basis * a;
    const Vector3<Scalar> axis_b = contact.tangent_basis * Vector2<Scalar>(-a(1), a(0));
    contact.tangent_basis.col(0) = scale_a * axis_a;
    contact.tangent_basis.col(1) = scale_b * axis_b;
}

/// Anisotropic friction with coefficients mu_a along the material direction's
/// in-plane axis and mu_b across it (dimensionless, >= 0): sets contact.mu =
/// max(mu_a, mu_b), clears any static excess (call set_static_kinetic_friction
/// afterwards for the major axis' mu_s and mu_k) and rescales the basis by
/// mu_a / mu and mu_b / mu (make_friction_anisotropic), so the stick
/// threshold along the major axis stays eps. mu_a == mu_b gives the
/// isotropic contact with mu = mu_a bit for bit. Throws as
/// make_friction_anisotropic, naming mu_a or mu_b.
template <typename Scalar, int VertexCount, typename Derived>
void set_anisotropic_friction(FrictionContact<Scalar, VertexCount>& contact,
    const Eigen::MatrixBase<Derived>& direction, const Scalar& mu_a, const Scalar& mu_b)
{
    using std::isfinite;
    require(isfinite(mu_a) && mu_a >= Scalar(0),
        "set_anisotropic_friction: mu_a must be finite and non-negative, got ", mu_a);
    require(isfinite(mu_b) && mu_b >= Scalar(0),
        "set_anisotropic_friction: mu_b must be finite and non-negative, got ", mu_b);
    const Scalar mu = mu_a < mu_b ? mu_b : mu_a;
    contact.mu = mu;
    contact.mu_static_excess = Scalar(0);
    if (mu == Scalar(0)) {
        make_friction_anisotropic(contact, direction, Scalar(1), Scalar(1));
        return;
    }
    make_friction_anisotropic(contact, direction, mu_a / mu, mu_b / mu);
}

} // namespace ipc
