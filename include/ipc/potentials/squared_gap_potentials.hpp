#pragma once
/// @file
/// Scalar potentials on a squared-gap argument, for the vertex-repulsion
/// cloth method (Wu, Wu, Yang, Wang 2020, "A Safe and Fast Repulsion Method
/// for GPU-based Cloth Self Collisions").
///
/// Conventions:
/// - The argument is a squared gap c = d^2 - r^2 (squared length units, e.g.
///   m^2): d is the distance of a point pair and r the separation it must
///   keep (the constraint is c >= 0). An edge-length cap uses the
///   sign-flipped c = L^2 - d^2 with the same potentials.
/// - The band eps > 0 is in the same squared units: a potential acts when
///   c < eps and is exactly zero (with zero derivative) for c >= eps. The
///   conversions at the end relate eps to an IPC-style distance band dhat.
/// - Derivatives are taken with respect to c; multiply by the gradient of c
///   (see distance/point_stencil.hpp) for forces.
/// - The functions do not validate their arguments (they run once per active
///   pair per iteration); eps must be finite and > 0 (see
///   check_squared_gap_band). A NaN argument gives NaN.
///
/// Penalties (the soft phase, paper eq. 13): the linear hinge max(eps - c, 0)
/// as extracted from the paper, and the squared hinge 0.5 max(eps - c, 0)^2
/// (the paper's text cannot confirm which one it uses).
///
/// Barrier (the hard phase, paper eqs. 15-17): -log f(c, eps) with the cubic
/// clamp f(c) = c + c^2/eps - c^3/eps^2 on (0, eps], f = eps beyond, shifted
/// by the constant log eps (-log(f / eps), same gradient) so that it is
/// exactly 0 for c >= eps. It diverges as c -> 0+.
///
/// WARNING: the cubic-clamped barrier is only C1 at c = eps: f'' jumps from
/// -4/eps to 0 there, and so does the barrier's second derivative (from
/// 4/eps^2 to 0). It is meant for gradient descent (the repulsion hard phase)
/// and must NOT be used with the C2 Newton barrier interface of
/// include/ipc/barrier/ (ClampedLogBarrier and the other shape policies),
/// whose Hessians assume two continuous derivatives. This file therefore
/// offers no second derivative and no barrier shape policy.

#include <ipc/core/error.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace ipc {

// ---------------------------------------------------------------------------
// Hinge penalties (soft phase)

/// Linear hinge max(eps - c, 0) (squared length units). Not validated.
template <typename T> T hinge_penalty(T c, T eps)
{
    if (c >= eps) {
        return T(0);
    }
    return eps - c;
}

/// d/dc of the linear hinge: -1 for c < eps, 0 for c >= eps (the one-sided
/// value at the kink c = eps is 0). Not validated.
template <typename T> T hinge_penalty_derivative(T c, T eps)
{
    if (c >= eps) {
        return T(0);
    }
    if (c < eps) {
        return T(-1);
    }
    return c; // NaN
}

/// Squared hinge 0.5 max(eps - c, 0)^2 (squared length units squared). C1
/// everywhere. Not validated.
template <typename T> T squared_hinge_penalty(T c, T eps)
{
    if (c >= eps) {
        return T(0);
    }
    const T gap = eps - c;
    return T(0.5) * gap * gap;
}

/// d/dc of the squared hinge: -max(eps - c, 0) (squared length units). Not
/// validated.
template <typename T> T squared_hinge_penalty_derivative(T c, T eps)
{
    if (c >= eps) {
        return T(0);
    }
    return c - eps;
}

// ---------------------------------------------------------------------------
// Cubic clamp and clamped log barrier (hard phase)

/// The paper's clamp f (eq. 16-17): c for c <= 0; c + c^2/eps - c^3/eps^2 on
/// (0, eps]; eps for c >= eps. C1 with f(0) = 0, f'(0) = 1, f(eps) = eps,
/// f'(eps) = 0, strictly increasing on (-inf, eps) and positive on (0, eps]
/// (squared length units). Not validated.
template <typename T> T cubic_clamp(T c, T eps)
{
    if (c <= T(0)) {
        return c;
    }
    if (c >= eps) {
        return eps;
    }
    const T s = c / eps;
    return c * (T(1) + s - s * s);
}

/// f'(c) of cubic_clamp (dimensionless): 1 for c <= 0,
/// 1 + 2c/eps - 3c^2/eps^2 = (1 - c/eps)(1 + 3c/eps) on (0, eps) (evaluated
/// in the factored form, accurate near eps), 0 for c >= eps. Not validated.
template <typename T> T cubic_clamp_derivative(T c, T eps)
{
    if (c <= T(0)) {
        return T(1);
    }
    if (c >= eps) {
        return T(0);
    }
    const T s = c / eps;
    return (T(1) - s) * (T(1) + T(3) * s);
}

/// The clamped cubic log barrier (dimensionless; multiply by a stiffness
/// mu): -log(f(c, eps) / eps), the paper's -log f(c, eps) shifted by the
/// constant log eps so that it vanishes beyond the band (the shift changes
/// no gradient). +infinity for c <= 0, positive and decreasing on (0, eps),
/// 0 for c >= eps. Only C1 at c = eps (see the file comment): for gradient
/// descent, not Newton. With s = c/eps, f/eps = s (1 + s - s^2)
/// = 1 - (1 - s)^2 (1 + s); the first form is used for s < 1/2 and the
/// second (with log1p) above, so the value is accurate at both ends. Not
/// validated.
template <typename T> T clamped_cubic_log_barrier(T c, T eps)
{
    using std::log;
    if (c >= eps) {
        return T(0);
    }
    if (c <= T(0)) {
        if constexpr (std::numeric_limits<T>::is_specialized && std::numeric_limits<T>::has_infinity) {
            return std::numeric_limits<T>::infinity();
        } else {
            return T(std::numeric_limits<double>::infinity());
        }
    }
    const T s = c / eps;
    if (s < T(0.5)) {
        return -log(s) - log(T(1) + s - s * s);
    }
    const T w = (T(1) - s) * (T(1) - s) * (T(1) + s); // 1 - f/eps, in [0, 3/8]
    if constexpr (std::is_floating_point_v<T>) {
        return -std::log1p(-w);
    } else {
        return -log(T(1) - w);
    }
}

/// d/dc of the clamped cubic log barrier: -f'(c)/f(c)
/// = -(1 - s)(1 + 3s) / (c (1 + s - s^2)) with s = c/eps (1 / squared length
/// units): 0 for c >= eps, negative on (0, eps), and -infinity (the limit as
/// c -> 0+) for c <= 0, where the barrier is infinite. Not validated.
template <typename T> T clamped_cubic_log_barrier_derivative(T c, T eps)
{
    if (c >= eps) {
        return T(0);
    }
    if (c <= T(0)) {
        if constexpr (std::numeric_limits<T>::is_specialized && std::numeric_limits<T>::has_infinity) {
            return -std::numeric_limits<T>::infinity();
        } else {
            return -T(std::numeric_limits<double>::infinity());
        }
    }
    const T s = c / eps;
    return -((T(1) - s) * (T(1) + T(3) * s)) / (c * (T(1) + s - s * s));
}

// ---------------------------------------------------------------------------
// Bands

/// Squared-gap band eps equivalent to an IPC-style distance band dhat for a
/// constraint of radius xi (offset, length units): a pair is active when
/// d < xi + dhat, i.e. c = d^2 - xi^2 < (xi + dhat)^2 - xi^2
/// = 2 xi dhat + dhat^2 (evaluated as dhat (2 xi + dhat)). Not validated.
template <typename T> T squared_gap_band_from_dhat(T xi, T dhat) { return dhat * (T(2) * xi + dhat); }

/// Inverse of squared_gap_band_from_dhat: dhat = sqrt(xi^2 + eps) - xi,
/// evaluated without cancellation as eps / (sqrt(xi^2 + eps) + xi) (length
/// units). Returns 0 when xi = eps = 0. Not validated (xi >= 0, eps >= 0).
template <typename T> T dhat_from_squared_gap_band(T xi, T eps)
{
    using std::sqrt;
    const T denominator = sqrt(xi * xi + eps) + xi;
    if (denominator == T(0)) {
        return T(0);
    }
    return eps / denominator;
}

/// Throws ipc::invalid_argument unless eps is finite and > 0; the message
/// starts with `what` (for example "soft-phase band eps_slack").
inline void check_squared_gap_band(double eps, const char* what = "squared-gap band eps")
{
    require(std::isfinite(eps) && eps > 0.0, what, " must be finite and positive (squared length units), got ", eps);
}

} // namespace ipc
