#pragma once
/// @file
/// The CCD concept: what any narrow-phase CCD method must provide so that it
/// plugs into everything in ipc that takes a CCD (step size, benchmarks).
///
/// A method is a class with const member functions of the common "drop-in"
/// shape, positions at t0 then at t1 (3D, Eigen::Vector3d):
///
///     bool point_point_ccd(p0_t0, p1_t0, p0_t1, p1_t1,
///                          double& toi, double min_distance = 0, double tmax = 1) const;
///     bool point_edge_ccd(p_t0, e0_t0, e1_t0, p_t1, e0_t1, e1_t1, toi, ...) const;
///     bool point_triangle_ccd(p_t0, t0_t0, t1_t0, t2_t0,
///                             p_t1, t0_t1, t1_t1, t2_t1, toi, ...) const;
///     bool edge_edge_ccd(ea0_t0, ea1_t0, eb0_t0, eb1_t0,
///                        ea0_t1, ea1_t1, eb0_t1, eb1_t1, toi, ...) const;
///
/// Each returns true when the primitives may come within min_distance before
/// tmax, and then sets toi to a time at which they are still apart; false
/// leaves toi = tmax. Methods of this library also offer the same calls with a
/// `_result` suffix returning an ipc::CCDResult (status and iterations); they
/// get both shapes from ipc::CCDQueries (ccd_queries.hpp), which a new method
/// can derive from too.
///
/// tmax lies in [0, 1]. A start already within min_distance returns true
/// with toi = 0 (for any tmax); tmax = 0 tests t = 0 only (true with toi = 0
/// exactly when the start is within min_distance, else false with toi = 0);
/// a start clear by a tiny gap may still return true with toi = 0
/// (conservative). See ccd_result.hpp for the full shared meaning.

#include <Eigen/Core>

#include <type_traits>
#include <utility>

namespace ipc {

namespace detail {
    template <typename M, typename = void> struct is_ccd_method : std::false_type { };

    template <typename M>
    struct is_ccd_method<
        M,
        std::void_t<
            decltype(bool(std::declval<const M&>().point_point_ccd(
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<double&>(), 0.0, 1.0))),
            decltype(bool(std::declval<const M&>().point_edge_ccd(
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<double&>(), 0.0, 1.0))),
            decltype(bool(std::declval<const M&>().point_triangle_ccd(
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<double&>(), 0.0, 1.0))),
            decltype(bool(std::declval<const M&>().edge_edge_ccd(
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                std::declval<double&>(), 0.0, 1.0)))>> : std::true_type { };
} // namespace detail

/// True when M provides the four drop-in CCD member functions (C++17 trait).
template <typename M> inline constexpr bool is_ccd_method_v = detail::is_ccd_method<M>::value;

#if defined(__cpp_concepts) && __cpp_concepts >= 201907L
/// C++20 spelling of is_ccd_method_v.
template <typename M>
concept CCDMethod = is_ccd_method_v<M>;
#endif

} // namespace ipc
