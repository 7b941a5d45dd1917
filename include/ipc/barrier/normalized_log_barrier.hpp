#pragma once
/// @file
/// The clamped log barrier made dimensionless: b_n(x, x_hat) = b(x / x_hat, 1)
/// = -(x / x_hat - 1)^2 ln(x / x_hat) = b(x, x_hat) / x_hat^2. With this shape
/// the stiffness kappa carries the units of energy (joules) whatever the
/// length unit, so one kappa transfers between scenes of different scale.
/// Same conventions as clamped_log_barrier.hpp (x, x_hat in m^2, derivatives
/// in x, raw kernels without validation).

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/core/math.hpp>

namespace ipc {

/// Dimensionless clamped log barrier as a shape policy (drop-in for
/// ClampedLogBarrier).
struct NormalizedLogBarrier {
    /// value(x) -> +infinity as x -> 0+.
    static constexpr bool diverges = true;

    /// Dimensionless value. 0 for x >= x_hat, +infinity for x <= 0.
    template <typename Scalar> static Scalar value(const Scalar& x, const Scalar& x_hat)
    {
        using std::log;
        if (x >= x_hat) {
            return Scalar(0);
        }
        if (x <= Scalar(0)) {
            return detail::positive_infinity<Scalar>();
        }
        const Scalar t = x / x_hat;
        return -square(t - Scalar(1)) * log(t);
    }

    /// d b_n / dx (1/m^2). 0 for x >= x_hat, -infinity for x <= 0.
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
        const Scalar t = x / x_hat;
        return (Scalar(1) - t) * (Scalar(2) * log(t) - Scalar(1) / t + Scalar(1)) / x_hat;
    }

    /// d2 b_n / dx2 (1/m^4). 0 for x >= x_hat, +infinity for x <= 0.
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
        const Scalar t = x / x_hat;
        const Scalar inverse = Scalar(1) / t;
        return (inverse * (inverse + Scalar(2)) - Scalar(2) * log(t) - Scalar(3))
            / (x_hat * x_hat);
    }
};

} // namespace ipc
