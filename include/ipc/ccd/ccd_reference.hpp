#pragma once
/// @file
/// Reference answer for CCD with a minimum separation: do two linearly moving
/// primitives come within xi of each other at some t in [0, 1]?
///
/// The answer is computed in long double by branch and bound over t, not by a
/// CCD method, so it can score CCD methods (see ipc/benchmark/ccd_benchmark.hpp).
///
/// Definition. Let x_i(t) = x_i(0) + t (x_i(1) - x_i(0)) and d(t) the Euclidean
/// distance between the two primitives at time t. With L the largest absolute
/// coordinate of the stencil (at t = 0 and t = 1) and the threshold
///
///     h = xi (1 + relative_tolerance) + absolute_tolerance * L,
///
/// the answer is
///  - positive when some sampled time has d(t) <= h (the primitives come
///    within xi, up to that tolerance),
///  - negative when every sub-interval of [0, 1] is proven to keep d > h,
///  - undecided when neither could be shown: an interval narrower than
///    min_interval still straddles h, or max_evaluations distances were
///    computed.
///
/// How the intervals are bounded. On [a, b] with midpoint m, let r be the
/// closest-point vector at m (first primitive minus second) and n = r / |r|.
/// The distance is at least min_j n . c_j(t), where the c_j are the vertex
/// differences (a vertex of the first primitive minus one of the second), each
/// affine in t; and at least |r| - v (b - a) / 2, with v the largest relative
/// speed of a vertex pair (a Lipschitz bound of d). The larger of the two lower
/// bounds is compared with h; an interval that cannot be discarded is split in
/// halves (earliest half first).
///
/// Coordinates are converted to long double exactly; the arithmetic then
/// rounds in long double (64-bit significand on x86), far below the default
/// tolerances, which absorb it.

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_queries.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace ipc {

/// The three answers of the reference: within xi at some t, never within xi,
/// or not settled within the options' limits.
enum class CCDReferenceAnswer {
    negative,  ///< proven to stay farther than the threshold on [0, 1]
    positive,  ///< a sampled time has distance at most the threshold
    undecided, ///< neither shown within min_interval and max_evaluations
};

/// Printable name of an answer: "negative", "positive" or "undecided".
/// @param answer the answer to name.
/// @return a static string.
constexpr const char* to_string(CCDReferenceAnswer answer)
{
    switch (answer) {
    case CCDReferenceAnswer::negative:
        return "negative";
    case CCDReferenceAnswer::positive:
        return "positive";
    case CCDReferenceAnswer::undecided:
        return "undecided";
    }
    return "unknown";
}

/// Tolerances and limits of the reference (see the file comment for the
/// definition they enter). The defaults are the ones the CCD benchmark uses.
struct CCDReferenceOptions {
    /// Relative widening of xi in the threshold h (dimensionless, >= 0).
    long double relative_tolerance = 1e-12L;
    /// Widening of the threshold relative to the stencil's largest absolute
    /// coordinate L (dimensionless, >= 0): h gains absolute_tolerance * L.
    long double absolute_tolerance = 1e-15L;
    /// Intervals of t narrower than this that still straddle the threshold
    /// make the answer undecided (> 0).
    long double min_interval = 1e-13L;
    /// Most distance evaluations before giving up as undecided (> 0).
    long max_evaluations = 20000;
};

/// What the reference found for one query.
struct CCDReferenceResult {
    /// positive, negative or undecided.
    CCDReferenceAnswer answer = CCDReferenceAnswer::undecided;
    /// For a positive answer, a time in [0, 1] at which the distance is at
    /// most the threshold; NaN otherwise.
    double time = std::numeric_limits<double>::quiet_NaN();
    /// Distances computed (at most max_evaluations + 1).
    long evaluations = 0;

    /// True for a positive answer.
    /// @return answer == CCDReferenceAnswer::positive.
    constexpr bool positive() const { return answer == CCDReferenceAnswer::positive; }
};

namespace detail::ccd_reference {

    using Vec3L = Eigen::Matrix<long double, 3, 1>;

    /// Number of vertices of the first primitive of a stencil.
    constexpr int first_vertices(CCDStencil stencil)
    {
        return stencil == CCDStencil::edge_edge ? 2 : 1;
    }

    /// The reference for stencil S; points: the V positions at t = 0, then the
    /// same V at t = 1. who names the calling function in error messages.
    template <CCDStencil S>
    CCDReferenceResult reference(
        const std::array<const Eigen::Vector3d*, 2 * ccd_stencil_vertices(S)>& points,
        double min_distance, const CCDReferenceOptions& options, const char* who)
    {
        constexpr int V = ccd_stencil_vertices(S);
        constexpr int A = first_vertices(S);
        require(std::isfinite(min_distance) && min_distance >= 0, who,
                ": min_distance must be finite and >= 0, got ", min_distance);
        require(std::isfinite(options.relative_tolerance) && options.relative_tolerance >= 0, who,
                ": relative_tolerance must be finite and >= 0, got ", options.relative_tolerance);
        require(std::isfinite(options.absolute_tolerance) && options.absolute_tolerance >= 0, who,
                ": absolute_tolerance must be finite and >= 0, got ", options.absolute_tolerance);
        require(std::isfinite(options.min_interval) && options.min_interval > 0, who,
                ": min_interval must be finite and > 0, got ", options.min_interval);
        require(options.max_evaluations > 0, who, ": max_evaluations must be > 0, got ",
                options.max_evaluations);
        for (int i = 0; i < 2 * V; ++i) {
            require(points[std::size_t(i)]->allFinite(), who, ": point argument ", i,
                    " has a NaN or infinite coordinate (", points[std::size_t(i)]->transpose(), ")");
        }

        std::array<Vec3L, V> x0, x1;
        long double size = 0;
        for (int i = 0; i < V; ++i) {
            x0[std::size_t(i)] = points[std::size_t(i)]->template cast<long double>();
            x1[std::size_t(i)] = points[std::size_t(V + i)]->template cast<long double>();
            size = std::max({ size, x0[std::size_t(i)].cwiseAbs().maxCoeff(),
                              x1[std::size_t(i)].cwiseAbs().maxCoeff() });
        }
        // Vertex differences (first primitive minus second) at t = 0 and t = 1,
        // and the largest relative speed among them.
        std::array<std::pair<Vec3L, Vec3L>, std::size_t(A * (V - A))> differences;
        long double rate = 0;
        std::size_t k = 0;
        for (int a = 0; a < A; ++a) {
            for (int b = A; b < V; ++b, ++k) {
                differences[k] = { x0[std::size_t(a)] - x0[std::size_t(b)],
                                   x1[std::size_t(a)] - x1[std::size_t(b)] };
                rate = std::max(rate, (differences[k].second - differences[k].first).norm());
            }
        }
        const long double threshold = (long double)(min_distance) * (1 + options.relative_tolerance)
            + options.absolute_tolerance * size;
        auto closest = [&](long double t) {
            std::array<Vec3L, V> x;
            for (std::size_t i = 0; i < std::size_t(V); ++i) {
                x[i] = x0[i] + t * (x1[i] - x0[i]);
            }
            return detail::accd::closest_vector<S, long double, 3>(x);
        };

        struct Interval {
            long double a, b;
        };
        CCDReferenceResult result;
        std::vector<Interval> stack { { 0.0L, 1.0L } };
        bool undecided = false;
        while (!stack.empty()) {
            const Interval interval = stack.back();
            stack.pop_back();
            const long double mid = 0.5L * (interval.a + interval.b);
            const Vec3L r = closest(mid);
            const long double d = r.norm();
            if (++result.evaluations > options.max_evaluations) {
                result.answer = CCDReferenceAnswer::undecided;
                return result;
            }
            if (d <= threshold) {
                result.answer = CCDReferenceAnswer::positive;
                result.time = double(mid);
                return result;
            }
            long double lower = d - rate * 0.5L * (interval.b - interval.a);
            const Vec3L n = r / d;
            long double plane = std::numeric_limits<long double>::infinity();
            for (const auto& [c0, c1] : differences) {
                const long double at0 = n.dot(c0), at1 = n.dot(c1);
                plane = std::min({ plane, at0 + interval.a * (at1 - at0), at0 + interval.b * (at1 - at0) });
            }
            lower = std::max(lower, plane);
            if (lower > threshold) {
                continue;
            }
            if (interval.b - interval.a < options.min_interval) {
                undecided = true;
                continue;
            }
            stack.push_back({ mid, interval.b });
            stack.push_back({ interval.a, mid });
        }
        result.answer = undecided ? CCDReferenceAnswer::undecided : CCDReferenceAnswer::negative;
        return result;
    }

} // namespace detail::ccd_reference

/// Reference answer for two points p and q moving linearly (positions in
/// metres): do they come within min_distance at some t in [0, 1]?
/// @param p_t0,q_t0 the points at t = 0; @param p_t1,q_t1 at t = 1.
/// @param min_distance the separation xi (m), finite and >= 0.
/// @param options tolerances and limits (see CCDReferenceOptions).
/// @return the answer, a time for a positive one, and the evaluations used.
/// @throws ipc::invalid_argument on NaN or infinite coordinates, a negative or
///         non-finite min_distance, or invalid options.
inline CCDReferenceResult point_point_ccd_reference(
    const Eigen::Vector3d& p_t0, const Eigen::Vector3d& q_t0, const Eigen::Vector3d& p_t1,
    const Eigen::Vector3d& q_t1, double min_distance = 0, const CCDReferenceOptions& options = {})
{
    return detail::ccd_reference::reference<CCDStencil::point_point>(
        { { &p_t0, &q_t0, &p_t1, &q_t1 } }, min_distance, options, "point_point_ccd_reference");
}

/// Reference answer for the point p against the edge (e0, e1).
/// @param p_t0,e0_t0,e1_t0 positions at t = 0 (m); @param p_t1,e0_t1,e1_t1 at t = 1.
/// @param min_distance the separation xi (m), finite and >= 0.
/// @param options tolerances and limits (see CCDReferenceOptions).
/// @return the answer, a time for a positive one, and the evaluations used.
/// @throws ipc::invalid_argument as point_point_ccd_reference.
inline CCDReferenceResult point_edge_ccd_reference(
    const Eigen::Vector3d& p_t0, const Eigen::Vector3d& e0_t0, const Eigen::Vector3d& e1_t0,
    const Eigen::Vector3d& p_t1, const Eigen::Vector3d& e0_t1, const Eigen::Vector3d& e1_t1,
    double min_distance = 0, const CCDReferenceOptions& options = {})
{
    return detail::ccd_reference::reference<CCDStencil::point_edge>(
        { { &p_t0, &e0_t0, &e1_t0, &p_t1, &e0_t1, &e1_t1 } }, min_distance, options,
        "point_edge_ccd_reference");
}

/// Reference answer for the point p against the triangle (t0, t1, t2), the
/// vertex-face queries of the benchmark.
/// @param p_t0,t0_t0,t1_t0,t2_t0 positions at t = 0 (m);
/// @param p_t1,t0_t1,t1_t1,t2_t1 positions at t = 1.
/// @param min_distance the separation xi (m), finite and >= 0.
/// @param options tolerances and limits (see CCDReferenceOptions).
/// @return the answer, a time for a positive one, and the evaluations used.
/// @throws ipc::invalid_argument as point_point_ccd_reference.
inline CCDReferenceResult point_triangle_ccd_reference(
    const Eigen::Vector3d& p_t0, const Eigen::Vector3d& t0_t0, const Eigen::Vector3d& t1_t0,
    const Eigen::Vector3d& t2_t0, const Eigen::Vector3d& p_t1, const Eigen::Vector3d& t0_t1,
    const Eigen::Vector3d& t1_t1, const Eigen::Vector3d& t2_t1, double min_distance = 0,
    const CCDReferenceOptions& options = {})
{
    return detail::ccd_reference::reference<CCDStencil::point_triangle>(
        { { &p_t0, &t0_t0, &t1_t0, &t2_t0, &p_t1, &t0_t1, &t1_t1, &t2_t1 } }, min_distance, options,
        "point_triangle_ccd_reference");
}

/// Reference answer for the edge (ea0, ea1) against the edge (eb0, eb1).
/// @param ea0_t0,ea1_t0,eb0_t0,eb1_t0 positions at t = 0 (m);
/// @param ea0_t1,ea1_t1,eb0_t1,eb1_t1 positions at t = 1.
/// @param min_distance the separation xi (m), finite and >= 0.
/// @param options tolerances and limits (see CCDReferenceOptions).
/// @return the answer, a time for a positive one, and the evaluations used.
/// @throws ipc::invalid_argument as point_point_ccd_reference.
inline CCDReferenceResult edge_edge_ccd_reference(
    const Eigen::Vector3d& ea0_t0, const Eigen::Vector3d& ea1_t0, const Eigen::Vector3d& eb0_t0,
    const Eigen::Vector3d& eb1_t0, const Eigen::Vector3d& ea0_t1, const Eigen::Vector3d& ea1_t1,
    const Eigen::Vector3d& eb0_t1, const Eigen::Vector3d& eb1_t1, double min_distance = 0,
    const CCDReferenceOptions& options = {})
{
    return detail::ccd_reference::reference<CCDStencil::edge_edge>(
        { { &ea0_t0, &ea1_t0, &eb0_t0, &eb1_t0, &ea0_t1, &ea1_t1, &eb0_t1, &eb1_t1 } }, min_distance,
        options, "edge_edge_ccd_reference");
}

} // namespace ipc
