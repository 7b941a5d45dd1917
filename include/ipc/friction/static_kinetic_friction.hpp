#pragma once
/// @file
/// Static and kinetic friction coefficients with a smooth transition, in the
/// lagged smoothed friction model (IPC section 5.3).
///
/// Model. The coefficient is a smooth function of the slip y = |u| (m):
///     mu(y) = mu_s                                  for y <= eps,
///     mu(y) = mu_k + (mu_s - mu_k) s(z),            z = (y - eps) / (c eps),
///     s(z)  = 1 - 3 z^2 + 2 z^3 on [0, 1], 0 beyond,
/// i.e. the static coefficient mu_s holds while the contact sticks (y below
/// the slip threshold eps = eps_v h), and it falls smoothly (C1) to the
/// kinetic mu_k between eps and (1 + c) eps. c > 0 (dimensionless, default
/// 1) is the transition width in multiples of eps; mu_s may be larger or
/// smaller than mu_k.
///
/// The energy is the exact antiderivative of the force,
///     D(y) = lambda (mu_s f0(0) + integral_0^y mu(t) f1(t) dt)
///          = lambda (mu_k f0(y) + (mu_s - mu_k) G(y)),
/// with f0, f1 the friction mollifier (friction_mollifier.hpp; the constant
/// mu_s f0(0) only makes D equal mu lambda f0(y) when mu_s = mu_k) and
///     G(y) = f0(y)                               for y <= eps,
///     G(y) = eps + c eps (z - z^3 + z^4 / 2)     for eps < y < (1 + c) eps,
///     G(y) = eps + c eps / 2                     beyond,
/// a piecewise polynomial with G' = g = f1 below eps and s(z) above it.
///
/// Storage: a FrictionContact keeps mu_k in `mu`, mu_s - mu_k in
/// `mu_static_excess` and c in `static_transition`; friction_energy,
/// friction_gradient and friction_hessian (friction_energy.hpp) add the
/// (mu_s - mu_k) G term, which is exactly zero for the default excess 0, so a
/// single-coefficient contact keeps its energy bit for bit. The slip Hessian's
/// eigenvalue along the slip, lambda (mu_k f1' + (mu_s - mu_k) g'), is
/// negative in the transition when mu_s > mu_k; friction_hessian can clamp it
/// (PSD projection through the 2x2 slip Hessian).
///
/// The G kernels below are raw (y >= 0, eps > 0, c > 0 assumed).

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_mollifier.hpp>

#include <cmath>

namespace ipc {

/// G(y) (m) of the file comment: the potential factor of the static excess
/// mu_s - mu_k, with slip y >= 0 (m), threshold eps > 0 (m) and transition
/// width c > 0 (multiples of eps).
template <typename Mollifier = C1FrictionMollifier, typename Scalar>
Scalar static_friction_f0(const Scalar& y, const Scalar& eps, const Scalar& c)
{
    if (y <= eps) {
        return Mollifier::f0(y, eps);
    }
    const Scalar width = c * eps;
    const Scalar z = (y - eps) / width;
    if (z >= Scalar(1)) {
        return eps + width / Scalar(2);
    }
    return eps + width * (z * (Scalar(1) - z * z * (Scalar(1) - z / Scalar(2))));
}

/// g(y) = G'(y) (dimensionless, in [0, 1]): f1(y) below eps, the smooth step
/// s((y - eps) / (c eps)) above.
template <typename Mollifier = C1FrictionMollifier, typename Scalar>
Scalar static_friction_f1(const Scalar& y, const Scalar& eps, const Scalar& c)
{
    if (y <= eps) {
        return Mollifier::f1(y, eps);
    }
    const Scalar z = (y - eps) / (c * eps);
    if (z >= Scalar(1)) {
        return Scalar(0);
    }
    return Scalar(1) + z * z * (Scalar(2) * z - Scalar(3));
}

/// g'(y) (1/m): f1'(y) below eps, s'(z) / (c eps) <= 0 in the transition, 0
/// beyond.
template <typename Mollifier = C1FrictionMollifier, typename Scalar>
Scalar static_friction_f1_derivative(const Scalar& y, const Scalar& eps, const Scalar& c)
{
    if (y < eps) {
        return Mollifier::f1_derivative(y, eps);
    }
    const Scalar width = c * eps;
    const Scalar z = (y - eps) / width;
    if (z >= Scalar(1)) {
        return Scalar(0);
    }
    return Scalar(6) * z * (z - Scalar(1)) / width;
}

/// g(y) / y (1/m), division-free (and finite) at y = 0.
template <typename Mollifier = C1FrictionMollifier, typename Scalar>
Scalar static_friction_f1_over_y(const Scalar& y, const Scalar& eps, const Scalar& c)
{
    if (y <= eps) {
        return Mollifier::f1_over_y(y, eps);
    }
    return static_friction_f1<Mollifier>(y, eps, c) / y;
}

/// The slip-dependent coefficient mu(y) = (mu_k f1(y) + (mu_s - mu_k) g(y)) /
/// f1(y) of a contact for slip y > 0 (m) and threshold eps > 0 (m): mu_s for
/// y <= eps, mu_k for y >= (1 + c) eps (dimensionless). The sliding force is
/// lambda mu(y) f1(y).
template <typename Mollifier = C1FrictionMollifier, typename Scalar, int VertexCount>
Scalar friction_coefficient_at_slip(
    const FrictionContact<Scalar, VertexCount>& contact, const Scalar& y, const Scalar& eps)
{
    if (y <= eps) {
        return contact.mu + contact.mu_static_excess;
    }
    return contact.mu
        + contact.mu_static_excess * static_friction_f1<Mollifier>(y, eps, contact.static_transition);
}

/// Static coefficient mu_s = mu + mu_static_excess of a contact.
template <typename Scalar, int VertexCount>
Scalar static_friction_coefficient(const FrictionContact<Scalar, VertexCount>& contact)
{
    return contact.mu + contact.mu_static_excess;
}

namespace detail {
    template <typename Scalar>
    void require_static_kinetic_parameters(
        const Scalar& mu_s, const Scalar& mu_k, const Scalar& transition, const char* function)
    {
        using std::isfinite;
        require(isfinite(mu_s) && mu_s >= Scalar(0), function,
            ": static friction coefficient mu_s must be finite and non-negative, got ", mu_s);
        require(isfinite(mu_k) && mu_k >= Scalar(0), function,
            ": kinetic friction coefficient mu_k must be finite and non-negative, got ", mu_k);
        require(isfinite(transition) && transition > Scalar(0), function,
            ": static-to-kinetic transition width (multiples of eps) must be finite and "
            "positive, got ",
            transition);
    }
} // namespace detail

/// Gives a contact static coefficient mu_s and kinetic coefficient mu_k
/// (dimensionless, >= 0) with transition width `transition` (multiples of
/// eps, > 0): sets contact.mu = mu_k, contact.mu_static_excess = mu_s - mu_k
/// and contact.static_transition = transition. The tangent basis (and so an
/// anisotropic scaling, anisotropic_friction.hpp) is kept: for an anisotropic
/// contact mu_s and mu_k are the coefficients of its major axis. Throws
/// ipc::invalid_argument for a negative or non-finite coefficient or a
/// non-positive or non-finite transition width.
template <typename Scalar, int VertexCount>
void set_static_kinetic_friction(FrictionContact<Scalar, VertexCount>& contact,
    const Scalar& mu_s, const Scalar& mu_k, const Scalar& transition = Scalar(1))
{
    detail::require_static_kinetic_parameters(
        mu_s, mu_k, transition, "set_static_kinetic_friction");
    contact.mu = mu_k;
    contact.mu_static_excess = mu_s - mu_k;
    contact.static_transition = transition;
}

} // namespace ipc
