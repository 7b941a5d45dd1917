#pragma once
/// @file
/// The smoothly clamped log barrier of IPC (Li et al. 2020, eq. 6), evaluated
/// on squared distances: b(x, x_hat) = -(x - x_hat)^2 ln(x / x_hat) for
/// 0 < x < x_hat and 0 for x >= x_hat. It is C2 at x_hat (value, first and
/// second derivatives vanish there), convex and decreasing on (0, x_hat), and
/// diverges as x -> 0+.
///
/// Conventions shared by every barrier shape in this folder:
/// - x is a squared distance minus the squared offset, x = d^2 - xi^2 (m^2);
///   with no offset it is the squared distance itself.
/// - x_hat > 0 is the squared activation threshold (m^2); with an offset it is
///   2 xi dhat + dhat^2 (see offset_barrier.hpp).
/// - Derivatives are taken with respect to x.
/// - The raw functions do not validate their arguments (they run once per
///   active pair per Newton iteration). NaN arguments give NaN. Use
///   checked_barrier / check_barrier_argument where the input is untrusted.

#include <ipc/core/error.hpp>

#include <cmath>
#include <limits>

namespace ipc {

namespace detail {
    /// +infinity in Scalar. User scalar types without a numeric_limits
    /// specialisation get it converted from double.
    template <typename Scalar> Scalar positive_infinity()
    {
        if constexpr (std::numeric_limits<Scalar>::is_specialized
                      && std::numeric_limits<Scalar>::has_infinity) {
            return std::numeric_limits<Scalar>::infinity();
        } else {
            return Scalar(std::numeric_limits<double>::infinity());
        }
    }
} // namespace detail

/// A barrier's value and first two derivatives at one argument.
template <typename Scalar> struct BarrierDerivatives {
    Scalar value;  ///< b
    Scalar first;  ///< db/dx
    Scalar second; ///< d2b/dx2
};

/// The clamped log barrier as a shape policy. Every barrier shape offers the
/// same three static functions, so a potential written against a policy type
/// swaps shapes by changing that one type.
struct ClampedLogBarrier {
    /// True when value(x) -> +infinity as x -> 0+ (a true barrier).
    static constexpr bool diverges = true;

    /// Barrier value (m^4 when x is in m^2). Returns 0 for x >= x_hat and
    /// +infinity for x <= 0 (at or inside the offset).
    template <typename Scalar> static Scalar value(const Scalar& x, const Scalar& x_hat)
    {
        using std::log;
        if (x >= x_hat) {
            return Scalar(0);
        }
        if (x <= Scalar(0)) {
            return detail::positive_infinity<Scalar>();
        }
        const Scalar gap = x - x_hat;
        return -(gap * gap) * log(x / x_hat);
    }

    /// db/dx = (x_hat - x)(2 ln(x / x_hat) - x_hat / x + 1) (m^2). Returns 0
    /// for x >= x_hat and -infinity (the limit as x -> 0+) for x <= 0.
    template <typename Scalar>
    static Scalar first_derivative(const Scalar& x, const Scalar& x_hat)
    {
        using std::log;
        if (x >= x_hat) {
            return Scalar(0);
        }
        if (x <= Scalar(0)) {
            return -detail::positive_infinity<Scalar>();
        }
        return (x_hat - x) * (Scalar(2) * log(x / x_hat) - x_hat / x + Scalar(1));
    }

    /// d2b/dx2 = (x_hat / x)(x_hat / x + 2) - 2 ln(x / x_hat) - 3
    /// (dimensionless). Returns 0 for x >= x_hat and +infinity (the limit as
    /// x -> 0+) for x <= 0.
    template <typename Scalar>
    static Scalar second_derivative(const Scalar& x, const Scalar& x_hat)
    {
        using std::log;
        if (x >= x_hat) {
            return Scalar(0);
        }
        if (x <= Scalar(0)) {
            return detail::positive_infinity<Scalar>();
        }
        const Scalar ratio = x_hat / x;
        return ratio * (ratio + Scalar(2)) - Scalar(2) * log(x / x_hat) - Scalar(3);
    }

    /// value, first_derivative and second_derivative at once, with one
    /// logarithm (the same values, bit for bit). A shape may offer this
    /// optionally; offset_barrier_derivatives uses it when present.
    template <typename Scalar>
    static BarrierDerivatives<Scalar> derivatives(const Scalar& x, const Scalar& x_hat)
    {
        using std::log;
        if (x >= x_hat) {
            return { Scalar(0), Scalar(0), Scalar(0) };
        }
        if (x <= Scalar(0)) {
            const Scalar infinity = detail::positive_infinity<Scalar>();
            return { infinity, -infinity, infinity };
        }
        const Scalar log_ratio = log(x / x_hat);
        const Scalar gap = x - x_hat;
        const Scalar ratio = x_hat / x;
        return { -(gap * gap) * log_ratio, (x_hat - x) * (Scalar(2) * log_ratio - ratio + Scalar(1)),
                 ratio * (ratio + Scalar(2)) - Scalar(2) * log_ratio - Scalar(3) };
    }
};

/// Clamped log barrier b(x, x_hat); see ClampedLogBarrier::value. Raw kernel,
/// no validation.
template <typename Scalar> Scalar barrier(const Scalar& x, const Scalar& x_hat)
{
    return ClampedLogBarrier::value(x, x_hat);
}

/// db/dx of the clamped log barrier; see ClampedLogBarrier::first_derivative.
/// Raw kernel, no validation.
template <typename Scalar> Scalar barrier_first_derivative(const Scalar& x, const Scalar& x_hat)
{
    return ClampedLogBarrier::first_derivative(x, x_hat);
}

/// d2b/dx2 of the clamped log barrier; see
/// ClampedLogBarrier::second_derivative. Raw kernel, no validation.
template <typename Scalar> Scalar barrier_second_derivative(const Scalar& x, const Scalar& x_hat)
{
    return ClampedLogBarrier::second_derivative(x, x_hat);
}

/// Validates the arguments of any barrier shape: throws ipc::invalid_argument
/// when x or x_hat is not finite or x_hat <= 0, and ipc::penetration when
/// x <= 0 (the pair is at or inside its offset). The scalar must be
/// printable with operator<<.
template <typename Scalar> void check_barrier_argument(const Scalar& x, const Scalar& x_hat)
{
    using std::isfinite;
    require(isfinite(x_hat) && x_hat > Scalar(0),
        "barrier: threshold x_hat must be finite and positive, got ", x_hat);
    require(isfinite(x), "barrier: argument x must be finite, got ", x);
    require<penetration>(x > Scalar(0), "barrier: argument x = ", x,
        " is not positive (squared distance at or inside the offset)");
}

/// Barrier value of the given shape after check_barrier_argument; throws
/// instead of returning +infinity or NaN.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar checked_barrier(const Scalar& x, const Scalar& x_hat)
{
    check_barrier_argument(x, x_hat);
    return Barrier::value(x, x_hat);
}

} // namespace ipc
