#pragma once
/// @file
/// The eight public query functions of a 3D CCD method, written once.
///
/// A method class derives from CCDQueries<Method> (CRTP) and supplies, for
/// each stencil S, two private functions that CCDQueries calls as a friend:
///
///     CCDResult stencil_ccd<S>(const CCDStencilPoints<S>& points,
///                              double min_distance, double tmax) const;
///     const char* input_problem<S>(const CCDStencilPoints<S>& points,
///                                  double min_distance, double tmax) const;
///
/// and a `static constexpr const char* name`. `points` holds the stencil's
/// positions at t = 0, then the same positions at t = 1. stencil_ccd never
/// throws (invalid input gives CCDStatus::invalid_input); input_problem
/// returns null for valid input, else a description of the first problem.
/// CCDQueries turns these into the `*_ccd_result` calls and the drop-in
/// `*_ccd` calls of ccd_method.hpp, whose invalid input throws
/// ipc::invalid_argument naming the method, the call and the problem.

#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <array>

namespace ipc {

/// The four primitive pairs a CCD query can take.
enum class CCDStencil { point_point, point_edge, point_triangle, edge_edge };

/// Number of vertices of a stencil: 2, 3, 4 and 4.
constexpr int ccd_stencil_vertices(CCDStencil stencil)
{
    return stencil == CCDStencil::point_point ? 2 : stencil == CCDStencil::point_edge ? 3 : 4;
}

/// A stencil's positions: every vertex at t = 0, then every vertex at t = 1.
template <CCDStencil S>
using CCDStencilPoints = std::array<const Eigen::Vector3d*, 2 * ccd_stencil_vertices(S)>;

/// Throws the ipc::invalid_argument of a drop-in `*_ccd` call with invalid
/// input: "Method::function: problem (min_distance = .., tmax = ..)"; a null
/// problem reads "invalid input".
[[noreturn]] inline void throw_invalid_ccd_input(const char* method, const char* function,
    const char* problem, double min_distance, double tmax)
{
    throw invalid_argument(detail::concat(method, "::", function, ": ",
        problem ? problem : "invalid input", " (min_distance = ", min_distance, ", tmax = ", tmax,
        ")"));
}

/// CRTP base giving a method the `*_ccd_result` and `*_ccd` calls (see the
/// file comment for what Method supplies).
template <typename Method> class CCDQueries {
public:
    /// Point p against point q moving linearly from *_t0 to *_t1.
    CCDResult point_point_ccd_result(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& q_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& q_t1,
        double min_distance = 0,
        double tmax = 1) const
    {
        return method().template stencil_ccd<CCDStencil::point_point>(
            { { &p_t0, &q_t0, &p_t1, &q_t1 } }, min_distance, tmax);
    }

    /// Point p against the edge (e0, e1).
    CCDResult point_edge_ccd_result(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& e0_t0,
        const Eigen::Vector3d& e1_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& e0_t1,
        const Eigen::Vector3d& e1_t1,
        double min_distance = 0,
        double tmax = 1) const
    {
        return method().template stencil_ccd<CCDStencil::point_edge>(
            { { &p_t0, &e0_t0, &e1_t0, &p_t1, &e0_t1, &e1_t1 } }, min_distance, tmax);
    }

    /// Point p against the triangle (t0, t1, t2).
    CCDResult point_triangle_ccd_result(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& t0_t0,
        const Eigen::Vector3d& t1_t0,
        const Eigen::Vector3d& t2_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& t0_t1,
        const Eigen::Vector3d& t1_t1,
        const Eigen::Vector3d& t2_t1,
        double min_distance = 0,
        double tmax = 1) const
    {
        return method().template stencil_ccd<CCDStencil::point_triangle>(
            { { &p_t0, &t0_t0, &t1_t0, &t2_t0, &p_t1, &t0_t1, &t1_t1, &t2_t1 } }, min_distance,
            tmax);
    }

    /// Edge (ea0, ea1) against edge (eb0, eb1).
    CCDResult edge_edge_ccd_result(
        const Eigen::Vector3d& ea0_t0,
        const Eigen::Vector3d& ea1_t0,
        const Eigen::Vector3d& eb0_t0,
        const Eigen::Vector3d& eb1_t0,
        const Eigen::Vector3d& ea0_t1,
        const Eigen::Vector3d& ea1_t1,
        const Eigen::Vector3d& eb0_t1,
        const Eigen::Vector3d& eb1_t1,
        double min_distance = 0,
        double tmax = 1) const
    {
        return method().template stencil_ccd<CCDStencil::edge_edge>(
            { { &ea0_t0, &ea1_t0, &eb0_t0, &eb1_t0, &ea0_t1, &ea1_t1, &eb0_t1, &eb1_t1 } },
            min_distance, tmax);
    }

    /// Drop-in shape of point_point_ccd_result: returns collides(), sets toi
    /// (tmax when false). Throws ipc::invalid_argument on invalid input.
    bool point_point_ccd(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& q_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& q_t1,
        double& toi,
        double min_distance = 0,
        double tmax = 1) const
    {
        return checked<CCDStencil::point_point>(
            "point_point_ccd", { { &p_t0, &q_t0, &p_t1, &q_t1 } }, toi, min_distance, tmax);
    }

    /// Drop-in shape of point_edge_ccd_result (see point_point_ccd).
    bool point_edge_ccd(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& e0_t0,
        const Eigen::Vector3d& e1_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& e0_t1,
        const Eigen::Vector3d& e1_t1,
        double& toi,
        double min_distance = 0,
        double tmax = 1) const
    {
        return checked<CCDStencil::point_edge>("point_edge_ccd",
            { { &p_t0, &e0_t0, &e1_t0, &p_t1, &e0_t1, &e1_t1 } }, toi, min_distance, tmax);
    }

    /// Drop-in shape of point_triangle_ccd_result (see point_point_ccd).
    bool point_triangle_ccd(
        const Eigen::Vector3d& p_t0,
        const Eigen::Vector3d& t0_t0,
        const Eigen::Vector3d& t1_t0,
        const Eigen::Vector3d& t2_t0,
        const Eigen::Vector3d& p_t1,
        const Eigen::Vector3d& t0_t1,
        const Eigen::Vector3d& t1_t1,
        const Eigen::Vector3d& t2_t1,
        double& toi,
        double min_distance = 0,
        double tmax = 1) const
    {
        return checked<CCDStencil::point_triangle>("point_triangle_ccd",
            { { &p_t0, &t0_t0, &t1_t0, &t2_t0, &p_t1, &t0_t1, &t1_t1, &t2_t1 } }, toi,
            min_distance, tmax);
    }

    /// Drop-in shape of edge_edge_ccd_result (see point_point_ccd).
    bool edge_edge_ccd(
        const Eigen::Vector3d& ea0_t0,
        const Eigen::Vector3d& ea1_t0,
        const Eigen::Vector3d& eb0_t0,
        const Eigen::Vector3d& eb1_t0,
        const Eigen::Vector3d& ea0_t1,
        const Eigen::Vector3d& ea1_t1,
        const Eigen::Vector3d& eb0_t1,
        const Eigen::Vector3d& eb1_t1,
        double& toi,
        double min_distance = 0,
        double tmax = 1) const
    {
        return checked<CCDStencil::edge_edge>("edge_edge_ccd",
            { { &ea0_t0, &ea1_t0, &eb0_t0, &eb1_t0, &ea0_t1, &ea1_t1, &eb0_t1, &eb1_t1 } }, toi,
            min_distance, tmax);
    }

protected:
    CCDQueries() = default;

private:
    const Method& method() const { return static_cast<const Method&>(*this); }

    template <CCDStencil S>
    bool checked(const char* function, const CCDStencilPoints<S>& points, double& toi,
        double min_distance, double tmax) const
    {
        const CCDResult result = method().template stencil_ccd<S>(points, min_distance, tmax);
        if (result.status == CCDStatus::invalid_input) {
            throw_invalid_ccd_input(Method::name, function,
                method().template input_problem<S>(points, min_distance, tmax), min_distance, tmax);
        }
        toi = result.toi;
        return result.collides();
    }
};

} // namespace ipc
