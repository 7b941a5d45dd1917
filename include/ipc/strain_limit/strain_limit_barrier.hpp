#pragma once
/// @file
/// The C-IPC C2 clamped strain-limit barrier in its normalised variable
/// y = (threshold - sigma) / (limit - threshold):
///     b(y) = -y^2 ln(1 + y)  for -1 < y < 0,   0 for y >= 0,
/// with its first and second derivatives. b, b' and b'' all vanish at y = 0,
/// so the barrier is C2 where it switches on (sigma = threshold) and it
/// diverges as sigma reaches the limit (y -> -1).

#include <ipc/core/error.hpp>

#include <cmath>
#include <limits>

namespace ipc {

/// b(y) = -y^2 ln(1 + y) for y < 0, 0 for y >= 0 (dimensionless).
/// Throws ipc::invalid_argument for y <= -1 (at or past the strain limit) or NaN.
template <typename Scalar> Scalar strain_limit_barrier(const Scalar& y)
{
    using std::log1p;
    require(y > Scalar(-1), "strain_limit_barrier: normalised strain y = ", y,
        " is at or past the strain limit (y must be > -1)");
    if (y >= Scalar(0)) {
        return Scalar(0);
    }
    return -y * y * log1p(y);
}

/// b'(y) = -2 y ln(1 + y) - y^2 / (1 + y) for y < 0, 0 for y >= 0.
/// Every term has the same sign, so there is no cancellation near y = 0.
/// Throws ipc::invalid_argument for y <= -1 or NaN.
template <typename Scalar> Scalar strain_limit_barrier_first_derivative(const Scalar& y)
{
    using std::log1p;
    require(y > Scalar(-1), "strain_limit_barrier_first_derivative: normalised strain y = ", y,
        " is at or past the strain limit (y must be > -1)");
    if (y >= Scalar(0)) {
        return Scalar(0);
    }
    return Scalar(-2) * y * log1p(y) - y * y / (Scalar(1) + y);
}

/// b''(y) = -2 ln(1 + y) - 4 y / (1 + y) + y^2 / (1 + y)^2 for y < 0, 0 for
/// y >= 0. Positive on (-1, 0): the barrier is convex.
/// Throws ipc::invalid_argument for y <= -1 or NaN.
template <typename Scalar> Scalar strain_limit_barrier_second_derivative(const Scalar& y)
{
    using std::log1p;
    require(y > Scalar(-1), "strain_limit_barrier_second_derivative: normalised strain y = ", y,
        " is at or past the strain limit (y must be > -1)");
    if (y >= Scalar(0)) {
        return Scalar(0);
    }
    const Scalar inverse = Scalar(1) / (Scalar(1) + y);
    return Scalar(-2) * log1p(y) - Scalar(4) * y * inverse + y * y * inverse * inverse;
}

namespace detail {
    /// log1p(x) / x, accurate near x = 0 (x > -1).
    template <typename Scalar> Scalar log1p_over_x(const Scalar& x)
    {
        using std::abs;
        using std::log1p;
        using std::sqrt;
        const Scalar series_bound = sqrt(sqrt(std::numeric_limits<Scalar>::epsilon()));
        if (abs(x) < series_bound) {
            return Scalar(1) - x * (Scalar(1) / Scalar(2) - x * (Scalar(1) / Scalar(3) - x / Scalar(4)));
        }
        return log1p(x) / x;
    }

    /// Divided difference (b'(y1) - b'(y2)) / (y1 - y2) for -1 < y1 < 0 and
    /// y1 <= y2, exact when y1 == y2 (it is then b''(y1)). Written without
    /// subtracting nearly equal quantities, so it stays accurate for
    /// repeated singular values.
    template <typename Scalar>
    Scalar strain_limit_barrier_first_derivative_divided_difference(
        const Scalar& y1, const Scalar& y2)
    {
        using std::log1p;
        if (y2 >= Scalar(0)) {
            // b'(y2) = 0 and y1 - y2 <= y1 < 0.
            return strain_limit_barrier_first_derivative(y1) / (y1 - y2);
        }
        const Scalar one_plus_y1 = Scalar(1) + y1;
        const Scalar one_plus_y2 = Scalar(1) + y2;
        const Scalar x = (y1 - y2) / one_plus_y2;
        // DD[y ln(1+y)] = ln(1+y1) + y2 (ln(1+y1) - ln(1+y2)) / (y1 - y2)
        const Scalar log_term = log1p(y1) + y2 * log1p_over_x(x) / one_plus_y2;
        // DD[y^2/(1+y)] = 1 - 1/((1+y1)(1+y2)) = (y1 + y2 + y1 y2)/((1+y1)(1+y2))
        const Scalar rational_term = (y1 + y2 + y1 * y2) / (one_plus_y1 * one_plus_y2);
        return Scalar(-2) * log_term - rational_term;
    }
} // namespace detail

} // namespace ipc
