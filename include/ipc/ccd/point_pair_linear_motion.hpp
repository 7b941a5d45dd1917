#pragma once
/// @file
/// Continuous separation checks for a point pair under linear motion, the
/// safety certificate of the vertex-repulsion method (Wu et al. 2020, paper
/// section 4.1) in place of a CCD time of impact.
///
/// The pair's relative position is a = x_i^0 - x_j^0 at t = 0 and
/// b = x_i^1 - x_j^1 at t = 1 (embedded points: differences of stencil
/// positions), and moves linearly in between: p(t) = a + t (b - a). Its
/// squared length g(t) = |a + t d|^2, d = b - a, is a convex quadratic in t:
/// - a lower bound g(t) >= r^2 (minimum separation) needs the minimum over
///   [0, 1], attained at the clamped unconstrained minimiser
///   t* = clamp(-a.d / d.d, 0, 1);
/// - an upper bound g(t) <= L^2 (an edge-length cap) holds on [0, 1] exactly
///   when it holds at both endpoints, because a convex function is largest at
///   an endpoint: the discrete check is exact.
///
/// Floating point: linear_motion_separation_holds and linear_motion_safe_step
/// are conservative (they never certify a motion whose exact minimum, for the
/// given double inputs, is below r2); they subtract the rounding margin
/// detail::linear_motion_margin, (16 + n) * 2^-52 * (|a|^2 + |b|^2) for n
/// coordinates (about 4.2e-15 (|a|^2 + |b|^2) in 3D), which bounds the
/// rounding error of the evaluated minimum with room to spare.
///
/// Vectors: a and b are 2D or 3D vectors of the same size (column or row,
/// fixed or dynamic size). Inputs must be finite with squares that do not
/// overflow; NaN makes the predicates false and the safe step 0. Not
/// validated (hot kernels).

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace ipc {

namespace detail {

    /// |a + t d|^2 minimised over t in [0, t_max] (t_max in [0, 1]), with
    /// d = b - a, computed in the scalar T: the clamped minimiser, evaluated
    /// directly (no |a|^2 - (a.d)^2/d.d cancellation), and never above the
    /// value at t = 0 (nor at t = 1 when t_max >= 1). NaN when an input is.
    template <typename T, typename DA, typename DB>
    inline T linear_motion_min_on(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b, T t_max)
    {
        static_assert(std::is_same_v<typename DA::Scalar, typename DB::Scalar>,
            "a and b must share one scalar type");
        const Eigen::Index n = a.size();
        T ad = T(0), dd = T(0), aa = T(0);
        for (Eigen::Index k = 0; k < n; ++k) {
            const T ak = T(a(k));
            const T dk = T(b(k)) - ak;
            ad += ak * dk;
            dd += dk * dk;
            aa += ak * ak;
        }
        T best = aa;
        if (t_max >= T(1)) {
            T bb = T(0);
            for (Eigen::Index k = 0; k < n; ++k) {
                bb += T(b(k)) * T(b(k));
            }
            best = bb < best ? bb : best;
        }
        const T probe = aa + ad + dd + best; // NaN when any input is NaN
        if (!(probe == probe)) {
            return probe;
        }
        if (!(dd > T(0)) || !(ad < T(0))) {
            return best; // no motion, or moving apart from t = 0 on
        }
        const T t_free = -ad / dd;
        const T t = t_free < t_max ? t_free : t_max;
        T value = T(0);
        for (Eigen::Index k = 0; k < n; ++k) {
            const T ak = T(a(k));
            const T pk = ak + t * (T(b(k)) - ak);
            value += pk * pk;
        }
        return value < best ? value : best;
    }

    /// Rounding margin of the conservative predicates: (16 + n) * 2^-52 *
    /// (|a|^2 + |b|^2) plus 16 of the smallest subnormal (for underflow).
    template <typename DA, typename DB>
    inline double linear_motion_margin(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b)
    {
        double scale = 0.0;
        for (Eigen::Index k = 0; k < a.size(); ++k) {
            scale += double(a(k)) * double(a(k)) + double(b(k)) * double(b(k));
        }
        return (16.0 + double(a.size())) * std::numeric_limits<double>::epsilon() * scale
            + 16.0 * std::numeric_limits<double>::denorm_min();
    }

    /// True when |a + t d|^2 >= r2 is certified for every t in [0, t_max]
    /// (t_max in [0, 1]), given the margin of linear_motion_margin.
    template <typename DA, typename DB>
    inline bool linear_motion_certified(
        const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b, double r2, double margin, double t_max)
    {
        const double m = linear_motion_min_on<double>(a, b, t_max);
        // r2 <= 0 holds exactly for any (non-NaN) motion.
        return m >= r2 + margin || (r2 <= 0.0 && m >= 0.0);
    }

} // namespace detail

/// min over t in [0, 1] of |a + t (b - a)|^2 (squared length units): the
/// value at the clamped unconstrained minimiser, evaluated directly, and
/// never above min(|a|^2, |b|^2) as computed. Accurate to a few ulps of
/// |a|^2 + |b|^2 (absolute). Works for any scalar with comparisons.
template <typename DA, typename DB>
inline typename DA::Scalar linear_motion_min_distance_squared(
    const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b)
{
    using T = typename DA::Scalar;
    return detail::linear_motion_min_on<T>(a, b, T(1));
}

/// True when |a + t (b - a)|^2 >= r2 for all t in [0, 1] (the continuous
/// minimum-separation constraint; r2 in squared length units). CONSERVATIVE:
/// the computed minimum must reach r2 + margin with the rounding margin
/// (16 + n) 2^-52 (|a|^2 + |b|^2) (see the file comment), so it is never true
/// when the exact minimum is below r2, and may be false when the exact
/// minimum exceeds r2 by less than the margin (a tangent motion). Always
/// true for r2 <= 0; false for NaN input.
template <typename DA, typename DB>
inline bool linear_motion_separation_holds(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b, double r2)
{
    static_assert(std::is_floating_point_v<typename DA::Scalar>, "the conservative predicates need float or double");
    return detail::linear_motion_certified(a, b, r2, detail::linear_motion_margin(a, b), 1.0);
}

/// Largest alpha in [0, 1] such that |a + t (b - a)|^2 >= r2 for all t in
/// [0, alpha]: the safe fraction of the motion. Returns 1 when the whole
/// motion keeps the separation (as certified by
/// linear_motion_separation_holds), otherwise (a little below) the first
/// crossing, the smaller root of |a + t d|^2 = r2 computed without
/// cancellation (q = -(B + sign(B) sqrt(B^2 - 4AC)) / 2, root C / q).
/// CONSERVATIVE: the returned alpha never exceeds the exact one, since
/// |a + t d|^2 >= r2 on [0, alpha] is certified with the margin of
/// linear_motion_separation_holds; it falls short of the exact crossing by
/// about margin / |g'(alpha)| (typically 1e-13 relative or less for a
/// transversal crossing, more for a grazing one). Returns 0 when |a|^2 < r2 already, and when the
/// start is within the rounding margin of r2 (|a|^2 < r2 + margin) even if
/// the pair moves apart: no positive step can be certified there.
template <typename DA, typename DB>
inline double linear_motion_safe_step(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b, double r2)
{
    static_assert(std::is_floating_point_v<typename DA::Scalar>, "the conservative predicates need float or double");
    const double margin = detail::linear_motion_margin(a, b);
    const double target = r2 + margin;
    const auto certified = [&](double t_max) {
        return detail::linear_motion_certified(a, b, r2, margin, t_max);
    };
    double aa = 0.0, ad = 0.0, dd = 0.0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
        const double ak = double(a(k));
        const double dk = double(b(k)) - ak;
        aa += ak * ak;
        ad += ak * dk;
        dd += dk * dk;
    }
    if (certified(1.0)) {
        return 1.0;
    }
    if (!(aa >= target)) {
        return 0.0; // inside already (or NaN), or too close to certify any step
    }
    // First root of A t^2 + B t + C = 0 with C = |a|^2 - target > 0: the
    // level target is reached while approaching (B < 0). In the stable form
    // q = (-B + sqrt(disc)) / 2 > 0, the smaller root is C / q.
    const double A = dd;
    const double B = 2.0 * ad;
    const double C = aa - target;
    double alpha = 1.0;
    const double disc = B * B - 4.0 * A * C;
    if (B < 0.0 && disc >= 0.0) {
        const double q = 0.5 * (-B + std::sqrt(disc));
        alpha = std::min(1.0, C / q);
        // Shrink by growing relative steps until the certificate holds.
        double shrink = 4.0 * std::numeric_limits<double>::epsilon();
        for (int attempt = 0; attempt < 24; ++attempt) {
            if (certified(alpha)) {
                return alpha;
            }
            alpha *= 1.0 - shrink;
            shrink *= 4.0;
        }
    }
    // Grazing motion (the computed discriminant is not reliable) or the
    // shrinking failed: bisect on the certificate, which holds at 0.
    double lo = 0.0, hi = alpha;
    for (int iteration = 0; iteration < 64 && lo < hi; ++iteration) {
        const double mid = lo + 0.5 * (hi - lo);
        if (mid <= lo || mid >= hi) {
            break;
        }
        if (certified(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/// True when |a + t (b - a)|^2 <= L2 for all t in [0, 1] (an edge-length
/// cap; L2 in squared length units). The squared length is convex in t, so
/// the endpoint check max(|a|^2, |b|^2) <= L2 is exact; it is evaluated in
/// plain floating point, like the discrete constraint L^2 - |x_i - x_j|^2.
template <typename DA, typename DB>
inline bool linear_motion_length_cap_holds(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b, double L2)
{
    return std::max(double(a.squaredNorm()), double(b.squaredNorm())) <= L2;
}

} // namespace ipc
