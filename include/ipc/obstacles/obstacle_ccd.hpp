#pragma once
/// @file
/// Continuous collision detection of moving vertices against static
/// obstacles, and the collision-free step size and every hit of a mesh
/// against an ObstacleSet.
///
/// A vertex moves linearly, p(t) = p0 + t (p1 - p0), t in [0, tmax]. With
/// phi0 = phi(p0) > xi (xi the minimum distance: the vertex's offset), the
/// query keeps, like AdditiveCCD, a fraction of the initial gap: it reports
/// the largest time it can certify before phi falls to
///     T = xi + (1 - s)(phi0 - xi),
/// s the conservative rescaling (0.9 by default, AdditiveCCD's). So the
/// vertex never comes closer than T > xi on [0, toi], and never crosses the
/// surface.
///  - Plane: phi(t) is linear, and the time is the exact closed form
///    t = (phi0 - T) / (phi0 - phi1) (up to rounding), with T raised to at
///    least xi + slack (below).
///  - Sphere, box, capsule (convex, 1-Lipschitz): an exact test that the whole
///    segment stays above T (segment_clear_of_obstacle) answers most queries
///    at once; otherwise conservative advancement from t = 0, each step the
///    longer of the two certified ones: the Lipschitz bound
///    phi(t) >= phi(t_k) - |p1 - p0| (t - t_k), and the tangent bound
///    phi(t) >= phi(t_k) + grad phi(p(t_k)) . (p1 - p0) (t - t_k), valid because
///    phi is convex along the line (a Newton step from the left, which never
///    overshoots). A non-negative slope proves that phi never decreases
///    again: no hit.
///  - Callback obstacles (SignedDistanceObstacle): the same advancement with
///    the Lipschitz bound L |p1 - p0| only (L the caller's bound).
/// The advancement stops with a hit once phi(t_k) is within 1% of
/// (phi0 - T) above T, or after obstacle_ccd_max_iterations steps (a
/// certified time then too), so the reported time is below the exact time
/// at which phi reaches T, and for convex shapes close to it.
///
/// Rounding: every certified bound is lowered by a slack of 1e-12 times the
/// magnitudes involved (coordinates, phi0, xi), and slopes are made steeper
/// by 1e-12 |p1 - p0|. The plane keeps a gap of at least that slack, which
/// exceeds the rounding of the position p0 + t (p1 - p0) and of phi there,
/// and reports a motion toward the plane that starts within it of xi as a
/// hit at t = 0 (a motion away is free). (Without it, a
/// solver that keeps cutting steps toward a proxy inside the plane, each
/// keeping 1 - s of the gap, would end at phi == xi to rounding.)
///
/// Starts within the offset: the pointwise queries follow the drop-in CCD
/// convention (ccd_method.hpp): phi0 <= xi returns true with toi = 0. The
/// mesh-level step size throws ipc::penetration instead (the barrier cannot
/// be evaluated there either).

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/types.hpp>
#include <ipc/collisions/collision_hit.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>
#include <vector>

namespace ipc {

/// Default conservative rescaling s of the obstacle CCD (AdditiveCCD's).
inline constexpr double obstacle_ccd_default_rescaling = 0.9;
/// Iteration cap of the conservative advancement of one query.
inline constexpr long obstacle_ccd_max_iterations = 100000;

namespace detail::obstacle_ccd {

    /// Validates a pointwise query (throws ipc::invalid_argument).
    inline void check_query(const Eigen::Vector3d& p_t0, const Eigen::Vector3d& p_t1, double min_distance,
                            double tmax, double s, const char* who)
    {
        require(all_finite(p_t0), who, ": p_t0 = (", p_t0[0], ", ", p_t0[1], ", ", p_t0[2], ") is not finite");
        require(all_finite(p_t1), who, ": p_t1 = (", p_t1[0], ", ", p_t1[1], ", ", p_t1[2], ") is not finite");
        require(std::isfinite(min_distance) && min_distance >= 0, who,
                ": min_distance must be finite and non-negative, got ", min_distance);
        require(tmax >= 0 && tmax <= 1, who, ": tmax must be in [0, 1], got ", tmax);
        require(s > 0 && s < 1, who, ": conservative_rescaling must be in (0, 1), got ", s);
    }

    /// Throws ipc::invalid_argument for a NaN signed distance.
    inline double checked_phi(double phi, const char* who, double t)
    {
        require(!std::isnan(phi), who, ": the obstacle's signed distance is NaN at t = ", t);
        return phi;
    }

    /// Exact query against a plane.
    inline bool plane(const PlaneObstacle& plane, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double& toi,
                      double xi, double tmax, double s)
    {
        const double phi0 = signed_distance(plane, p0);
        if (!(phi0 > xi)) {
            toi = 0;
            return true;
        }
        if (tmax == 0) {
            toi = 0;
            return false;
        }
        const double slack = 1e-12
            * (p0.cwiseAbs().maxCoeff() + p1.cwiseAbs().maxCoeff() + plane.point.cwiseAbs().maxCoeff()
               + std::abs(phi0) + xi);
        const double phi1 = signed_distance(plane, p1);
        const double T = std::max(xi + (1 - s) * (phi0 - xi), xi + slack);
        if (phi1 >= T || phi1 >= phi0) { // linear: phi stays above min(T, phi0) > xi on [0, 1]
            toi = tmax;
            return false;
        }
        if (!(phi0 > T)) { // approaching from within the slack: no step can be certified
            toi = 0;
            return true;
        }
        const double t = (phi0 - T) / (phi0 - phi1);
        if (t >= tmax) {
            toi = tmax;
            return false;
        }
        toi = std::max(0.0, t);
        return true;
    }

    /// Conservative advancement (see the file comment). phi(p) and, when
    /// convex, gradient(p) evaluate the obstacle; clear(p0, p_end, level)
    /// (convex only) is an exact test that the segment stays above level.
    template <typename Phi, typename Gradient, typename Clear>
    bool advance(const Phi& phi_at, const Gradient& gradient_at, const Clear& clear, bool convex, double lipschitz,
                 const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double& toi, double xi, double tmax, double s,
                 const char* who)
    {
        const double phi0 = checked_phi(phi_at(p0), who, 0.0);
        if (!(phi0 > xi)) {
            toi = 0;
            return true;
        }
        if (tmax == 0) {
            toi = 0;
            return false;
        }
        const Eigen::Vector3d dx = p1 - p0;
        const double length = dx.norm();
        if (!(length > 0)) {
            toi = tmax;
            return false;
        }
        const double T = xi + (1 - s) * (phi0 - xi);
        const Eigen::Vector3d p_end = tmax == 1 ? p1 : Eigen::Vector3d(p0 + tmax * dx);
        if (convex && clear(p0, p_end, T)) {
            toi = tmax;
            return false;
        }
        const double slack = 1e-12 * (p0.cwiseAbs().maxCoeff() + p1.cwiseAbs().maxCoeff() + std::abs(phi0) + xi);
        const double stop_gap = 0.01 * (phi0 - T);
        const double lipschitz_rate = lipschitz * length * (1 + 1e-12);
        double t = 0, phi = phi0;
        for (long iteration = 1;; ++iteration) {
            const double available = phi - slack - T;
            if (!(available > 0)) {
                toi = t;
                return true;
            }
            double rate = lipschitz_rate;
            if (convex) {
                const double slope = gradient_at(Eigen::Vector3d(p0 + t * dx)).dot(dx) - 1e-12 * length;
                if (slope >= 0) { // convex along the line: phi never decreases again
                    toi = tmax;
                    return false;
                }
                rate = std::min(rate, -slope);
            }
            const double t_next = t + available / rate;
            if (!(t_next < tmax)) {
                toi = tmax;
                return false;
            }
            t = t_next;
            phi = checked_phi(phi_at(Eigen::Vector3d(p0 + t * dx)), who, t);
            if (phi - T <= stop_gap || iteration >= obstacle_ccd_max_iterations) {
                toi = t;
                return true;
            }
        }
    }

    inline bool shape(const SdfObstacle& obstacle, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double& toi,
                      double xi, double tmax, double s, const char* who)
    {
        if (const auto* plane_obstacle = std::get_if<PlaneObstacle>(&obstacle)) {
            return plane(*plane_obstacle, p0, p1, toi, xi, tmax, s);
        }
        return advance([&](const Eigen::Vector3d& p) { return signed_distance(obstacle, p); },
                       [&](const Eigen::Vector3d& p) { return signed_distance_gradient(obstacle, p); },
                       [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, double level) {
                           return segment_clear_of_obstacle(obstacle, a, b, level);
                       },
                       true, 1.0, p0, p1, toi, xi, tmax, s, who);
    }

    inline bool function(const SignedDistanceObstacle& obstacle, const Eigen::Vector3d& p0,
                         const Eigen::Vector3d& p1, double& toi, double xi, double tmax, double s, const char* who)
    {
        const auto none = [](const Eigen::Vector3d&) { return Eigen::Vector3d::Zero().eval(); };
        const auto never = [](const Eigen::Vector3d&, const Eigen::Vector3d&, double) { return false; };
        return advance(obstacle.value, none, never, false, obstacle.lipschitz, p0, p1, toi, xi, tmax, s, who);
    }

} // namespace detail::obstacle_ccd

/// Drop-in CCD of a point moving linearly from p_t0 to p_t1 (m) against an
/// analytic obstacle (see the file comment for the method).
/// @param obstacle        the plane, sphere, box or capsule
/// @param p_t0            the point's position at the start of the step (m)
/// @param p_t1            the point's position at the end of the step (m)
/// @param toi             set to the certified time: the point stays at signed
///                        distance >= min_distance + (1 - s)(phi(p_t0) - min_distance)
///                        on [0, toi]; tmax when there is no hit
/// @param min_distance    xi (m), >= 0: the vertex's offset
/// @param tmax            end of the queried interval, in [0, 1]
/// @param conservative_rescaling  s in (0, 1)
/// @return true when the point may come within the kept gap before tmax;
///         true with toi = 0 when it starts at signed distance <= min_distance.
/// Throws ipc::invalid_argument for non-finite points, an invalid obstacle or
/// parameters out of range.
inline bool point_obstacle_ccd(const SdfObstacle& obstacle, const Eigen::Vector3d& p_t0, const Eigen::Vector3d& p_t1,
                               double& toi, double min_distance = 0, double tmax = 1,
                               double conservative_rescaling = obstacle_ccd_default_rescaling)
{
    const char* who = "point_obstacle_ccd";
    detail::obstacle_ccd::check_query(p_t0, p_t1, min_distance, tmax, conservative_rescaling, who);
    check_obstacle(obstacle);
    return detail::obstacle_ccd::shape(obstacle, p_t0, p_t1, toi, min_distance, tmax, conservative_rescaling, who);
}

/// The same against a callback obstacle (conservative advancement with its
/// Lipschitz bound). Also throws ipc::invalid_argument when the callback
/// returns NaN.
inline bool point_obstacle_ccd(const SignedDistanceObstacle& obstacle, const Eigen::Vector3d& p_t0,
                               const Eigen::Vector3d& p_t1, double& toi, double min_distance = 0, double tmax = 1,
                               double conservative_rescaling = obstacle_ccd_default_rescaling)
{
    const char* who = "point_obstacle_ccd";
    detail::obstacle_ccd::check_query(p_t0, p_t1, min_distance, tmax, conservative_rescaling, who);
    check_obstacle(obstacle);
    return detail::obstacle_ccd::function(obstacle, p_t0, p_t1, toi, min_distance, tmax, conservative_rescaling,
                                          who);
}

/// The same against obstacle k of a set. Throws ipc::invalid_argument also
/// for k out of range.
inline bool point_obstacle_ccd(const ObstacleSet& obstacles, Index k, const Eigen::Vector3d& p_t0,
                               const Eigen::Vector3d& p_t1, double& toi, double min_distance = 0, double tmax = 1,
                               double conservative_rescaling = obstacle_ccd_default_rescaling)
{
    require(k >= 0 && k < obstacles.size(), "point_obstacle_ccd: obstacle index ", k, " is out of range (",
            obstacles.size(), " obstacles)");
    return obstacles.is_shape(k)
        ? point_obstacle_ccd(obstacles.shape(k), p_t0, p_t1, toi, min_distance, tmax, conservative_rescaling)
        : point_obstacle_ccd(obstacles.function(k), p_t0, p_t1, toi, min_distance, tmax, conservative_rescaling);
}

namespace detail {
    /// The (vertex, obstacle) queries of the mesh-level functions below:
    /// validates their input, then calls on_hit(i, k, toi) for every
    /// colliding, non-prescribed vertex v = mesh.collision_vertices()[i] and
    /// obstacle k that the CCD reports as a hit over the whole step (xi_v =
    /// the vertex's radius + min_distance). Parallel over vertices: each i
    /// is visited by one thread, its obstacles in order. Throws
    /// ipc::penetration for a vertex that starts at or inside its offset
    /// (the first such vertex in order, naming it, the obstacle and the
    /// values).
    template <typename OnHit>
    void for_each_obstacle_hit(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                               const Eigen::Ref<const Eigen::MatrixXd>& V1, const ObstacleSet& obstacles,
                               double min_distance, double conservative_rescaling, const char* who,
                               const OnHit& on_hit)
    {
        check_obstacle_mesh_positions(mesh, V0, who, "V0");
        check_obstacle_mesh_positions(mesh, V1, who, "V1");
        require(std::isfinite(min_distance) && min_distance >= 0, who,
                ": min_distance must be finite and non-negative, got ", min_distance);
        const double s = conservative_rescaling;
        require(s > 0 && s < 1, who, ": conservative_rescaling must be in (0, 1), got ", s);
        obstacles.check(who);
        const std::vector<Index>& vertices = mesh.collision_vertices();
        const Index num_obstacles = obstacles.size();
        // Per vertex: the first obstacle it starts within (-1: none).
        std::vector<Index> inside(vertices.size(), -1);
        std::vector<double> inside_phi(vertices.size(), 0.0);
        guarded_parallel_for(0, std::ptrdiff_t(vertices.size()), [&](std::ptrdiff_t i) {
            const Index v = vertices[std::size_t(i)];
            if (mesh.is_prescribed(v) || num_obstacles == 0) {
                return;
            }
            const Eigen::Vector3d p0 = obstacle_row3(V0, v), p1 = obstacle_row3(V1, v);
            const double xi = mesh.vertex_radii()[v] + min_distance;
            for (Index k = 0; k < num_obstacles; ++k) {
                const double phi0 = obstacle_ccd::checked_phi(obstacles.signed_distance(k, p0), who, 0.0);
                if (!(phi0 > xi)) {
                    inside[std::size_t(i)] = k;
                    inside_phi[std::size_t(i)] = phi0;
                    return;
                }
                double toi = 1.0;
                const bool hit = obstacles.is_shape(k)
                    ? obstacle_ccd::shape(obstacles.shape(k), p0, p1, toi, xi, 1.0, s, who)
                    : obstacle_ccd::function(obstacles.function(k), p0, p1, toi, xi, 1.0, s, who);
                if (hit) {
                    on_hit(std::size_t(i), k, toi);
                }
            }
        }, 256);
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            if (inside[i] >= 0) {
                const Index v = vertices[i];
                throw penetration(concat(who, ": vertex ", v, " starts at signed distance ", inside_phi[i],
                                         " from obstacle ", inside[i], " (", obstacles.name(inside[i]),
                                         "), at or inside its offset ", mesh.vertex_radii()[v] + min_distance));
            }
        }
    }
} // namespace detail

/// Collision-free step size of a mesh against static obstacles: the largest
/// alpha in [0, 1] that the obstacle CCD certifies for every colliding,
/// non-prescribed vertex v moving from V0 to V1 against every obstacle, with
/// minimum distance xi_v = the vertex's radius + min_distance (the offsets of
/// ObstacleCollisions). Each vertex keeps at least the fraction 1 - s of its
/// initial gap phi0 - xi_v: exact for planes, conservative (never past the
/// exact time) for the other obstacles; see the file comment.
/// @param mesh          3D collision mesh
/// @param V0, V1        positions at the start and end of the step (n x 3, m)
/// @param obstacles     the static obstacles
/// @param min_distance  extra offset (m), >= 0 (the dmin of ObstacleCollisions)
/// @param conservative_rescaling  s in (0, 1)
/// @return alpha in [0, 1] (1 when no vertex comes near an obstacle). The
///         result is the minimum of per-(vertex, obstacle) values, the same
///         for any thread count, and the smallest toi of
///         obstacle_collision_hits for the same motion.
/// Throws ipc::invalid_argument for a 2D mesh, bad positions, min_distance,
/// s or obstacles (or a callback returning NaN), and ipc::penetration when a
/// vertex starts at or inside its offset (phi <= xi_v, naming the vertex, the
/// obstacle and the values).
inline double obstacle_collision_free_step_size(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                                const Eigen::Ref<const Eigen::MatrixXd>& V1,
                                                const ObstacleSet& obstacles, double min_distance = 0,
                                                double conservative_rescaling = obstacle_ccd_default_rescaling)
{
    std::vector<double> step(mesh.collision_vertices().size(), 1.0);
    detail::for_each_obstacle_hit(mesh, V0, V1, obstacles, min_distance, conservative_rescaling,
                                  "obstacle_collision_free_step_size",
                                  [&](std::size_t i, Index, double toi) { step[i] = std::min(step[i], toi); });
    double alpha = 1.0;
    for (const double t : step) {
        alpha = std::min(alpha, t);
    }
    return alpha;
}

/// Every collision of the same motion against the obstacles, not only the
/// first: one hit (PairId::vertex_obstacle(v, k), toi) per vertex v and
/// obstacle k that the CCD of obstacle_collision_free_step_size reports,
/// with the same offsets, over the whole step. For barrier-free solvers
/// that grow a constraint set from the hits (collision_hits.hpp gives the
/// mesh pairs' hits; earliest_hits_per_vertex filters both together).
/// @return the hits, ordered by vertex (as in mesh.collision_vertices()) and
///         then obstacle, the same for any thread count; their smallest toi
///         is obstacle_collision_free_step_size's alpha (1 without hits).
/// Throws as obstacle_collision_free_step_size.
inline std::vector<CollisionHit> obstacle_collision_hits(const CollisionMesh& mesh,
                                                         const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                                         const Eigen::Ref<const Eigen::MatrixXd>& V1,
                                                         const ObstacleSet& obstacles, double min_distance = 0,
                                                         double conservative_rescaling = obstacle_ccd_default_rescaling)
{
    const std::vector<Index>& vertices = mesh.collision_vertices();
    const std::size_t num_obstacles = std::size_t(obstacles.size());
    // One slot per (vertex, obstacle), NaN when no hit: filled in parallel,
    // gathered in order.
    std::vector<double> toi(vertices.size() * num_obstacles, std::numeric_limits<double>::quiet_NaN());
    detail::for_each_obstacle_hit(mesh, V0, V1, obstacles, min_distance, conservative_rescaling,
                                  "obstacle_collision_hits", [&](std::size_t i, Index k, double t) {
                                      toi[i * num_obstacles + std::size_t(k)] = t;
                                  });
    std::vector<CollisionHit> hits;
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        for (std::size_t k = 0; k < num_obstacles; ++k) {
            const double t = toi[i * num_obstacles + k];
            if (!std::isnan(t)) {
                hits.push_back({ PairId::vertex_obstacle(vertices[i], Index(k)), t });
            }
        }
    }
    return hits;
}

} // namespace ipc
