#pragma once
/// @file
/// A cubic clamped barrier: b_c(x, x_hat) = (x_hat - x)^3 / x_hat for
/// x < x_hat and 0 beyond. It is the leading term of the clamped log barrier's
/// expansion about x_hat (b = (x_hat - x)^3 / x_hat + O((x_hat - x)^4)), so
/// both shapes agree near the threshold, and it is C2 there. It stays finite
/// as x -> 0 (it is a penalty, not a true barrier), which keeps the energy
/// polynomial and far better conditioned; the caller must keep pairs outside
/// their offset by other means (CCD with the offset as minimum distance).
/// Same conventions as clamped_log_barrier.hpp (x, x_hat in m^2, derivatives
/// in x, raw kernels without validation).

#include <ipc/barrier/clamped_log_barrier.hpp>

namespace ipc {

/// Cubic clamped penalty as a shape policy (drop-in for ClampedLogBarrier).
struct CubicBarrier {
    /// The value stays finite at x = 0: not a true barrier.
    static constexpr bool diverges = false;

    /// (x_hat - x)^3 / x_hat for x < x_hat, else 0 (m^4). Defined for every
    /// x, including x <= 0.
    template <typename Scalar> static Scalar value(const Scalar& x, const Scalar& x_hat)
    {
        if (x >= x_hat) {
            return Scalar(0);
        }
        const Scalar gap = x_hat - x;
        return gap * gap * gap / x_hat;
    }

    /// -3 (x_hat - x)^2 / x_hat for x < x_hat, else 0 (m^2).
    template <typename Scalar>
    static Scalar first_derivative(const Scalar& x, const Scalar& x_hat)
    {
        if (x >= x_hat) {
            return Scalar(0);
        }
        const Scalar gap = x_hat - x;
        return Scalar(-3) * gap * gap / x_hat;
    }

    /// 6 (x_hat - x) / x_hat for x < x_hat, else 0 (dimensionless).
    template <typename Scalar>
    static Scalar second_derivative(const Scalar& x, const Scalar& x_hat)
    {
        if (x >= x_hat) {
            return Scalar(0);
        }
        return Scalar(6) * (x_hat - x) / x_hat;
    }
};

} // namespace ipc
