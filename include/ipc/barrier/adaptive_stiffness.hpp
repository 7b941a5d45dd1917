#pragma once
/// @file
/// Adaptive barrier stiffness kappa (IPC section 4.3; the rule of the
/// authors' reference solver). Per time step: bounds [kappa_min, kappa_max]
/// from the scene scale and mass, then an initial kappa that balances the
/// barrier gradient against the incremental-potential gradient; per Newton
/// iteration: doubling while the closest pair keeps approaching inside a tiny
/// gap. Everything is a pure function of plain numbers and Eigen vectors; the
/// barrier shape is a policy (see clamped_log_barrier.hpp) and offsets follow
/// offset_barrier.hpp. These run once per step or iteration, so they validate
/// their inputs and throw ipc::invalid_argument on bad values.

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <cmath>

namespace ipc {

/// Constants of the adaptive-stiffness rule; the defaults are those of the
/// IPC reference implementation.
struct AdaptiveStiffnessParameters {
    /// kappa_min makes the barrier stiffness at the reference gap equal to
    /// this multiple of the average nodal mass (1e11).
    double min_stiffness_scale = 1e11;
    /// kappa_max / kappa_min (100).
    double max_to_min_ratio = 100;
    /// Reference gap for kappa_min, as a fraction of the bounding-box
    /// diagonal (1e-8).
    double reference_gap_scale = 1e-8;
    /// Gap below which a still-shrinking minimum gap doubles kappa, as a
    /// fraction of the bounding-box diagonal (1e-9).
    double small_gap_scale = 1e-9;
};

/// Lower and upper bound of the barrier stiffness (units of kappa: energy per
/// unit barrier value).
template <typename Scalar> struct BarrierStiffnessBounds {
    /// Smallest stiffness kappa_min.
    Scalar min;
    /// Largest stiffness kappa_max.
    Scalar max;
};

/// Bounds on kappa. With the reference gap g0 = reference_gap_scale *
/// bbox_diagonal and d0 = xi + g0:
///     kappa_min = min_stiffness_scale * average_mass / (4 d0^2 b''(d0^2 - xi^2, x_hat)),
///     kappa_max = max_to_min_ratio * kappa_min,
/// where 4 d^2 b'' is the dominant term of d2 b / dd2 near contact and
/// x_hat = 2 xi dhat + dhat^2.
/// @param bbox_diagonal  bounding-box diagonal of the scene at rest (m), > 0
/// @param average_mass   average nodal mass of the simulated bodies (kg), > 0
/// @param dhat           barrier activation distance (m), > 0
/// @param xi             pair offset (m), >= 0; use the largest offset in the scene
/// @param parameters     the rule's constants
template <typename Barrier = ClampedLogBarrier, typename Scalar>
BarrierStiffnessBounds<Scalar> barrier_stiffness_bounds(const Scalar& bbox_diagonal,
    const Scalar& average_mass, const Scalar& dhat, const Scalar& xi = Scalar(0),
    const AdaptiveStiffnessParameters& parameters = {})
{
    using std::isfinite;
    require(isfinite(bbox_diagonal) && bbox_diagonal > Scalar(0),
        "barrier_stiffness_bounds: bbox_diagonal must be finite and positive, got ",
        bbox_diagonal);
    require(isfinite(average_mass) && average_mass > Scalar(0),
        "barrier_stiffness_bounds: average_mass must be finite and positive, got ", average_mass);
    require(isfinite(dhat) && dhat > Scalar(0),
        "barrier_stiffness_bounds: dhat must be finite and positive, got ", dhat);
    require(isfinite(xi) && xi >= Scalar(0),
        "barrier_stiffness_bounds: offset xi must be finite and non-negative, got ", xi);
    require(parameters.min_stiffness_scale > 0 && parameters.max_to_min_ratio >= 1
            && parameters.reference_gap_scale > 0,
        "barrier_stiffness_bounds: min_stiffness_scale and reference_gap_scale must be "
        "positive and max_to_min_ratio at least 1");

    const Scalar reference_gap = Scalar(parameters.reference_gap_scale) * bbox_diagonal;
    require(reference_gap < dhat, "barrier_stiffness_bounds: the reference gap ", reference_gap,
        " (reference_gap_scale * bbox_diagonal) must be below dhat = ", dhat);
    const Scalar distance = xi + reference_gap;
    const Scalar curvature = Scalar(4) * distance * distance
        * offset_barrier_second_derivative<Barrier>(distance * distance, xi, dhat);
    require(isfinite(curvature) && curvature > Scalar(0),
        "barrier_stiffness_bounds: the barrier curvature at the reference gap is ", curvature,
        " (must be finite and positive)");

    BarrierStiffnessBounds<Scalar> bounds;
    bounds.min = Scalar(parameters.min_stiffness_scale) * average_mass / curvature;
    bounds.max = Scalar(parameters.max_to_min_ratio) * bounds.min;
    return bounds;
}

/// Initial kappa for a time step: the minimiser of |grad_energy + kappa *
/// grad_barrier| clamped to the bounds, i.e.
/// clamp(-(grad_barrier . grad_energy) / |grad_barrier|^2, min, max); kappa_min
/// when grad_barrier is zero (no active pair).
/// @param bounds         from barrier_stiffness_bounds
/// @param grad_energy    gradient of the incremental potential without contact
/// @param grad_barrier   gradient of the unscaled barrier sum (kappa = 1), with
///                       fixed degrees of freedom zeroed; same size as grad_energy
template <typename Scalar, typename DerivedEnergy, typename DerivedBarrier>
Scalar initial_barrier_stiffness(const BarrierStiffnessBounds<Scalar>& bounds,
    const Eigen::MatrixBase<DerivedEnergy>& grad_energy,
    const Eigen::MatrixBase<DerivedBarrier>& grad_barrier)
{
    using std::isfinite;
    require(isfinite(bounds.min) && isfinite(bounds.max) && bounds.min > Scalar(0)
            && bounds.max >= bounds.min,
        "initial_barrier_stiffness: bounds [", bounds.min, ", ", bounds.max,
        "] must be finite, positive and ordered");
    require(grad_energy.size() == grad_barrier.size(),
        "initial_barrier_stiffness: grad_energy has ", grad_energy.size(),
        " entries but grad_barrier has ", grad_barrier.size());
    Scalar barrier_norm_squared(0);
    Scalar dot(0);
    for (Eigen::Index i = 0; i < grad_energy.size(); ++i) {
        const Scalar e = Scalar(grad_energy(i));
        const Scalar b = Scalar(grad_barrier(i));
        require(isfinite(e), "initial_barrier_stiffness: grad_energy(", i, ") = ", e,
            " is not finite");
        require(isfinite(b), "initial_barrier_stiffness: grad_barrier(", i, ") = ", b,
            " is not finite");
        barrier_norm_squared += b * b;
        dot += b * e;
    }
    if (!(barrier_norm_squared > Scalar(0))) {
        return bounds.min;
    }
    const Scalar kappa = -dot / barrier_norm_squared;
    if (!(kappa > bounds.min)) {
        return bounds.min;
    }
    return kappa < bounds.max ? kappa : bounds.max;
}

/// Stiffness after a Newton iteration: 2 kappa (capped at kappa_max) when the
/// smallest gap over all active pairs was already below small_gap_scale *
/// bbox_diagonal before the iteration, still is, and has shrunk; otherwise
/// kappa unchanged. A gap is d - xi (m, see offset_gap), so offsets of
/// different pairs compare fairly; with no offset it is the distance.
/// @param kappa               current stiffness, > 0
/// @param kappa_max           upper bound (barrier_stiffness_bounds), >= kappa
/// @param previous_min_gap    smallest gap at the previous iterate (m)
/// @param current_min_gap     smallest gap at the current iterate (m)
/// @param bbox_diagonal       bounding-box diagonal of the scene at rest (m), > 0
/// @param parameters          small_gap_scale and the other knobs (defaults from the paper)
/// @return the stiffness for the next iteration
template <typename Scalar>
Scalar update_barrier_stiffness(const Scalar& kappa, const Scalar& kappa_max,
    const Scalar& previous_min_gap, const Scalar& current_min_gap, const Scalar& bbox_diagonal,
    const AdaptiveStiffnessParameters& parameters = {})
{
    using std::isfinite;
    require(isfinite(kappa) && kappa > Scalar(0),
        "update_barrier_stiffness: kappa must be finite and positive, got ", kappa);
    require(isfinite(kappa_max) && kappa_max > Scalar(0),
        "update_barrier_stiffness: kappa_max must be finite and positive, got ", kappa_max);
    require(isfinite(bbox_diagonal) && bbox_diagonal > Scalar(0),
        "update_barrier_stiffness: bbox_diagonal must be finite and positive, got ",
        bbox_diagonal);
    require(!(previous_min_gap != previous_min_gap) && !(current_min_gap != current_min_gap),
        "update_barrier_stiffness: minimum gaps must not be NaN (got ", previous_min_gap, " and ",
        current_min_gap, ")");
    const Scalar small_gap = Scalar(parameters.small_gap_scale) * bbox_diagonal;
    if (previous_min_gap < small_gap && current_min_gap < small_gap
        && current_min_gap < previous_min_gap) {
        const Scalar doubled = Scalar(2) * kappa;
        return doubled < kappa_max ? doubled : kappa_max;
    }
    return kappa;
}

} // namespace ipc
