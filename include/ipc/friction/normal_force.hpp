#pragma once
/// @file
/// Normal-force magnitude of a contact for the lagged friction model, from
/// the barrier with the thickness offset included:
///     lambda = -kappa d b(d^2 - xi^2, x_hat) / dd = -kappa 2 d b'(d^2 - xi^2, x_hat),
/// x_hat = 2 xi dhat + dhat^2, b' the derivative in its first argument. This
/// is the force conjugate to the distance of the barrier term kappa b as it
/// appears in the minimised potential (if that potential is scaled by h^2, as
/// in IPC's time-scaled form, so is lambda). Units: those of kappa b per
/// metre (newtons when kappa b is in joules).

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/core/error.hpp>

#include <cmath>

namespace ipc {

/// lambda = -2 kappa d b'(d^2 - xi^2, 2 xi dhat + dhat^2) >= 0 for a pair at
/// squared distance distance_squared (m^2) with offset xi (m), activation
/// distance dhat (m) and barrier stiffness kappa > 0; zero beyond xi + dhat.
/// Validates (runs once per lag update): throws ipc::invalid_argument on
/// non-finite or out-of-range parameters and ipc::penetration when d <= xi.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar normal_force_magnitude(const Scalar& distance_squared, const Scalar& xi,
    const Scalar& dhat, const Scalar& kappa)
{
    using std::isfinite;
    using std::sqrt;
    check_offset_barrier_arguments(distance_squared, xi, dhat);
    require(isfinite(kappa) && kappa > Scalar(0),
        "normal_force_magnitude: barrier stiffness kappa must be finite and positive, got ",
        kappa);
    return Scalar(-2) * kappa * sqrt(distance_squared)
        * offset_barrier_first_derivative<Barrier>(distance_squared, xi, dhat);
}

} // namespace ipc
