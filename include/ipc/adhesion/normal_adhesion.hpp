#pragma once
/// @file
/// Normal adhesion of one contact: an attractive potential of the gap
/// s = d - xi (m) between the offset surfaces (d the distance, xi the pair's
/// offset), in the style of the sticky-contact formulation that adds an
/// adhesion range beyond the barrier's. Parameters:
///  - dhat_p > 0 (m): gap of the peak attraction (typically the barrier's
///    activation distance dhat, below which the barrier repels),
///  - dhat_a > dhat_p (m): adhesion range; no attraction beyond it,
///  - Y >= 0 (N): the peak attractive force, reached at s = dhat_p. For an
///    adhesive strength given as a stress sigma (Pa), use Y = sigma * the
///    area a contact stencil stands for (e.g. a vertex's area).
///
/// The attraction force a(s) = A'(s) >= 0 is piecewise linear: it rises from
/// 0 at s = 0 to Y at s = dhat_p and falls back to 0 at s = dhat_a:
///     A(s) = -Y (dhat_a - dhat_p) / 2 - Y (dhat_p^2 - s^2) / (2 dhat_p)   s < dhat_p
///     A(s) = -Y (dhat_a - s)^2 / (2 (dhat_a - dhat_p))                      dhat_p <= s < dhat_a
///     A(s) = 0                                                               s >= dhat_a
/// A is C1 (the force is continuous; A'' jumps at dhat_p and dhat_a), its
/// minimum -Y dhat_a / 2 (J) is at contact (s = 0), and the work to pull a
/// contact apart from s = dhat_p is Y (dhat_a - dhat_p) / 2. The potential is
/// in joules when Y is in newtons; s < 0 (inside the offset) is not
/// physical, the formula just continues there.
///
/// The functions of the squared distance q = d^2 (what the contact stencils
/// provide) follow by the chain rule, d = sqrt(q):
///     dA/dq = a(s) / (2 d),   d2A/dq2 = (A''(s) - a(s) / d) / (4 d^2).
/// Raw kernels (no validation, d > 0 assumed); see
/// check_normal_adhesion_parameters.

#include <ipc/core/error.hpp>

#include <cmath>

namespace ipc {

/// Adhesion potential A(s) (J when Y is in N) at gap s (m).
template <typename Scalar>
Scalar normal_adhesion_potential(
    const Scalar& s, const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y)
{
    if (s >= dhat_a) {
        return Scalar(0);
    }
    if (s >= dhat_p) {
        const Scalar r = dhat_a - s;
        return -Y * r * r / (Scalar(2) * (dhat_a - dhat_p));
    }
    return -Y * (dhat_a - dhat_p) / Scalar(2) - Y * (dhat_p * dhat_p - s * s) / (Scalar(2) * dhat_p);
}

/// Attraction force a(s) = A'(s) >= 0 (N) at gap s (m) (for s >= 0).
template <typename Scalar>
Scalar normal_adhesion_force(
    const Scalar& s, const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y)
{
    if (s >= dhat_a) {
        return Scalar(0);
    }
    if (s >= dhat_p) {
        return Y * (dhat_a - s) / (dhat_a - dhat_p);
    }
    return Y * s / dhat_p;
}

/// A''(s) (N/m) at gap s (m): Y / dhat_p below dhat_p, -Y / (dhat_a - dhat_p)
/// up to dhat_a, 0 beyond.
template <typename Scalar>
Scalar normal_adhesion_force_derivative(
    const Scalar& s, const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y)
{
    if (s >= dhat_a) {
        return Scalar(0);
    }
    if (s >= dhat_p) {
        return -Y / (dhat_a - dhat_p);
    }
    return Y / dhat_p;
}

/// dA/dq (N/m) for squared distance q = d^2 (m^2) and offset xi (m).
template <typename Scalar>
Scalar normal_adhesion_first_derivative(const Scalar& distance_squared, const Scalar& xi,
    const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y)
{
    using std::sqrt;
    const Scalar d = sqrt(distance_squared);
    return normal_adhesion_force(Scalar(d - xi), dhat_p, dhat_a, Y) / (Scalar(2) * d);
}

/// d2A/dq2 (N/m^3) for squared distance q = d^2 (m^2) and offset xi (m).
template <typename Scalar>
Scalar normal_adhesion_second_derivative(const Scalar& distance_squared, const Scalar& xi,
    const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y)
{
    using std::sqrt;
    const Scalar d = sqrt(distance_squared);
    const Scalar s = d - xi;
    return (normal_adhesion_force_derivative(s, dhat_p, dhat_a, Y)
               - normal_adhesion_force(s, dhat_p, dhat_a, Y) / d)
        / (Scalar(4) * distance_squared);
}

/// Throws ipc::invalid_argument, naming `function`, unless
/// 0 < dhat_p < dhat_a and Y >= 0, all finite.
template <typename Scalar>
void check_normal_adhesion_parameters(
    const Scalar& dhat_p, const Scalar& dhat_a, const Scalar& Y, const char* function)
{
    using std::isfinite;
    require(isfinite(dhat_p) && dhat_p > Scalar(0), function,
        ": dhat_p (gap of the peak adhesion force) must be finite and positive, got ", dhat_p);
    require(isfinite(dhat_a) && dhat_a > dhat_p, function,
        ": dhat_a (adhesion range) must be finite and larger than dhat_p = ", dhat_p, ", got ",
        dhat_a);
    require(isfinite(Y) && Y >= Scalar(0), function,
        ": Y (peak adhesion force) must be finite and non-negative, got ", Y);
}

} // namespace ipc
