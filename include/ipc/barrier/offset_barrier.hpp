#pragma once
/// @file
/// Barriers on pairs with a thickness offset (C-IPC section 5). A pair at
/// distance d (m) with offset xi (m) and activation distance dhat (m) is
/// evaluated as b(x, x_hat) with
///     x     = d^2 - xi^2            (m^2)
///     x_hat = 2 xi dhat + dhat^2     (m^2) = (xi + dhat)^2 - xi^2,
/// so the force starts at d = xi + dhat and the barrier diverges at d = xi.
/// With xi = 0 this is the plain squared-distance barrier b(d^2, dhat^2).
/// Since xi is constant, derivatives with respect to d^2 equal those with
/// respect to x, and the gradient and Hessian of the squared distance chain
/// unchanged: grad = b' grad(d^2), hess = b'' grad(d^2) grad(d^2)^T + b' hess(d^2).
///
/// Offsets come from per-vertex radii (half thicknesses): a primitive's
/// radius is the largest of its vertices' radii, and a pair's offset is the
/// sum of its two primitives' radii.

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <cmath>
#include <type_traits>
#include <utility>

namespace ipc {

/// Squared activation threshold x_hat = 2 xi dhat + dhat^2 (m^2) for offset
/// xi (m) and activation distance dhat (m).
template <typename Scalar> Scalar offset_barrier_threshold(const Scalar& xi, const Scalar& dhat)
{
    return (Scalar(2) * xi + dhat) * dhat;
}

/// Barrier argument x = d^2 - xi^2 (m^2) from the squared distance (m^2) and
/// the offset xi (m).
template <typename Scalar>
Scalar offset_barrier_argument(const Scalar& distance_squared, const Scalar& xi)
{
    return distance_squared - xi * xi;
}

/// True when the pair is active: d < xi + dhat, tested as
/// d^2 - xi^2 < 2 xi dhat + dhat^2 without a square root.
template <typename Scalar>
bool offset_barrier_active(const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    return offset_barrier_argument(distance_squared, xi) < offset_barrier_threshold(xi, dhat);
}

/// Gap d - xi (m) between the offset surfaces, from the squared distance,
/// computed as (d^2 - xi^2) / (d + xi) with xi^2 subtracted in one rounding
/// (a fused multiply-add for built-in floating-point types), so it keeps its
/// digits when the gap is tiny against xi. Negative inside the offset. Raw
/// kernel, no validation.
template <typename Scalar> Scalar offset_gap(const Scalar& distance_squared, const Scalar& xi)
{
    using std::sqrt;
    const Scalar distance = sqrt(distance_squared);
    const Scalar sum = distance + xi;
    if (sum == Scalar(0)) {
        return Scalar(0);
    }
    if constexpr (std::is_floating_point_v<Scalar>) {
        return std::fma(-xi, xi, distance_squared) / sum;
    } else {
        return offset_barrier_argument(distance_squared, xi) / sum;
    }
}

/// Barrier value b(d^2 - xi^2, 2 xi dhat + dhat^2) of the chosen shape, from
/// the squared distance (m^2), offset xi (m) and activation distance dhat (m).
/// Zero for d >= xi + dhat; +infinity for d <= xi with a diverging shape.
/// Raw kernel, no validation (see checked_offset_barrier).
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar offset_barrier(const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    return Barrier::value(
        offset_barrier_argument(distance_squared, xi), offset_barrier_threshold(xi, dhat));
}

/// d b / d(d^2) of the offset barrier (equal to b'(x)). Raw kernel.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar offset_barrier_first_derivative(
    const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    return Barrier::first_derivative(
        offset_barrier_argument(distance_squared, xi), offset_barrier_threshold(xi, dhat));
}

/// d2 b / d(d^2)^2 of the offset barrier (equal to b''(x)). Raw kernel.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar offset_barrier_second_derivative(
    const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    return Barrier::second_derivative(
        offset_barrier_argument(distance_squared, xi), offset_barrier_threshold(xi, dhat));
}

namespace detail {
    /// True when the shape Barrier offers derivatives(x, x_hat).
    template <typename Barrier, typename Scalar, typename = void> struct has_barrier_derivatives : std::false_type {
    };
    template <typename Barrier, typename Scalar>
    struct has_barrier_derivatives<
        Barrier, Scalar,
        std::void_t<decltype(Barrier::derivatives(std::declval<const Scalar&>(), std::declval<const Scalar&>()))>>
        : std::true_type {
    };
} // namespace detail

/// b, db/d(d^2) and d2b/d(d^2)^2 of the offset barrier at once, equal to
/// offset_barrier, offset_barrier_first_derivative and
/// offset_barrier_second_derivative: through the shape's derivatives() when
/// it has one (one logarithm instead of three for ClampedLogBarrier),
/// otherwise its three functions. Raw kernel.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
BarrierDerivatives<Scalar> offset_barrier_derivatives(const Scalar& distance_squared, const Scalar& xi,
                                                      const Scalar& dhat)
{
    const Scalar x = offset_barrier_argument(distance_squared, xi);
    const Scalar x_hat = offset_barrier_threshold(xi, dhat);
    if constexpr (detail::has_barrier_derivatives<Barrier, Scalar>::value) {
        return Barrier::derivatives(x, x_hat);
    } else {
        return { Barrier::value(x, x_hat), Barrier::first_derivative(x, x_hat),
                 Barrier::second_derivative(x, x_hat) };
    }
}

/// d b / dd of the offset barrier with respect to the unsquared distance
/// d (m): 2 d b'(d^2 - xi^2). Raw kernel.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar offset_barrier_distance_derivative(const Scalar& distance, const Scalar& xi, const Scalar& dhat)
{
    return Scalar(2) * distance
        * offset_barrier_first_derivative<Barrier>(distance * distance, xi, dhat);
}

/// d2 b / dd2 of the offset barrier with respect to the unsquared distance
/// d (m): 4 d^2 b''(d^2 - xi^2) + 2 b'(d^2 - xi^2). Raw kernel.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar offset_barrier_distance_second_derivative(
    const Scalar& distance, const Scalar& xi, const Scalar& dhat)
{
    const Scalar distance_squared = distance * distance;
    return Scalar(4) * distance_squared
        * offset_barrier_second_derivative<Barrier>(distance_squared, xi, dhat)
        + Scalar(2) * offset_barrier_first_derivative<Barrier>(distance_squared, xi, dhat);
}

/// Validates an offset-barrier evaluation: throws ipc::invalid_argument when
/// any input is not finite, the squared distance or xi is negative, or
/// dhat <= 0; throws ipc::penetration when d <= xi. Scalar must be printable.
template <typename Scalar>
void check_offset_barrier_arguments(
    const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    using std::isfinite;
    using std::sqrt;
    require(isfinite(dhat) && dhat > Scalar(0),
        "offset barrier: activation distance dhat must be finite and positive, got ", dhat);
    require(isfinite(xi) && xi >= Scalar(0),
        "offset barrier: offset xi must be finite and non-negative, got ", xi);
    require(isfinite(distance_squared) && distance_squared >= Scalar(0),
        "offset barrier: squared distance must be finite and non-negative, got ",
        distance_squared);
    require<penetration>(offset_barrier_argument(distance_squared, xi) > Scalar(0),
        "offset barrier: distance ", sqrt(distance_squared), " is at or inside the offset xi = ",
        xi);
}

/// Offset barrier value after check_offset_barrier_arguments: throws instead
/// of returning +infinity or NaN.
template <typename Barrier = ClampedLogBarrier, typename Scalar>
Scalar checked_offset_barrier(const Scalar& distance_squared, const Scalar& xi, const Scalar& dhat)
{
    check_offset_barrier_arguments(distance_squared, xi, dhat);
    return offset_barrier<Barrier>(distance_squared, xi, dhat);
}

/// Radius (m) of a primitive: the largest of its vertices' radii (half
/// thicknesses). Throws ipc::invalid_argument on an empty list or a negative
/// or non-finite radius.
template <typename Derived>
typename Derived::Scalar primitive_radius(const Eigen::MatrixBase<Derived>& vertex_radii)
{
    using Scalar = typename Derived::Scalar;
    using std::isfinite;
    require(vertex_radii.size() > 0, "primitive_radius: no vertex radii given");
    Scalar radius(0);
    for (Eigen::Index i = 0; i < vertex_radii.size(); ++i) {
        const Scalar r = vertex_radii(i);
        require(isfinite(r) && r >= Scalar(0), "primitive_radius: vertex radius ", i,
            " must be finite and non-negative, got ", r);
        radius = r > radius ? r : radius;
    }
    return radius;
}

/// Offset xi = radius_a + radius_b (m) of a pair of primitives with the given
/// radii (m). Throws ipc::invalid_argument on a negative or non-finite radius.
template <typename Scalar> Scalar pair_offset(const Scalar& radius_a, const Scalar& radius_b)
{
    using std::isfinite;
    require(isfinite(radius_a) && radius_a >= Scalar(0),
        "pair_offset: radius_a must be finite and non-negative, got ", radius_a);
    require(isfinite(radius_b) && radius_b >= Scalar(0),
        "pair_offset: radius_b must be finite and non-negative, got ", radius_b);
    return radius_a + radius_b;
}

} // namespace ipc
