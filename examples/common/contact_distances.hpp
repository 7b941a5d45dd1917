#pragma once
/// @file
/// What the example programs report about how close their surfaces came:
/// the smallest true distance and the smallest gap (distance - offset xi)
/// over the pairs of a collision set and the vertex-obstacle contacts,
/// measured at the state written out; and the check that no vertex ended a
/// step inside an analytic obstacle.

#include <ipc/collisions/collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace ipc::examples {

struct ContactDistances {
    std::optional<double> min_distance; ///< smallest distance between the pairs' primitives (m); none without pairs
    std::optional<double> min_gap;      ///< smallest distance - offset (m); none without pairs
};

/// The smallest distance and gap over the pairs of c at positions x (n x 3,
/// or n x 2 for a 2D mesh).
inline ContactDistances contact_distances(const Collisions& c, const Eigen::MatrixXd& x)
{
    ContactDistances out;
    const auto visit = [&](const auto& list) {
        for (const auto& k : list) {
            const double d = std::sqrt(k.distance_squared(ipc::detail::gather_positions(x, k.vertices)));
            out.min_distance = out.min_distance ? std::min(*out.min_distance, d) : d;
            out.min_gap = out.min_gap ? std::min(*out.min_gap, d - k.offset) : d - k.offset;
        }
    };
    visit(c.vertex_vertex);
    visit(c.edge_vertex);
    visit(c.edge_edge);
    visit(c.face_vertex);
    return out;
}

/// Adds the vertex-obstacle contacts of c at x to out: the distance is the
/// obstacle's signed distance phi at the vertex, the gap phi - xi.
inline void add_contact_distances(const ObstacleCollisions& c, const Eigen::MatrixXd& x, ContactDistances& out)
{
    for (const VertexObstacleCollision& k : c.vertex_obstacle) {
        const double d = c.obstacles.signed_distance(k.obstacle, x.row(k.vertex).transpose());
        out.min_distance = out.min_distance ? std::min(*out.min_distance, d) : d;
        out.min_gap = out.min_gap ? std::min(*out.min_gap, d - k.offset) : d - k.offset;
    }
}

/// The same over the pairs of mesh at x whose gap is within `within` (m),
/// and the vertices within `within` of their offset from an obstacle.
inline ContactDistances contact_distances(const CollisionMesh& mesh, const Eigen::MatrixXd& x, double within,
    const ObstacleSet& obstacles = {})
{
    Collisions c;
    c.build(mesh, x, within);
    ContactDistances out = contact_distances(c, x);
    if (!obstacles.empty()) {
        ObstacleCollisions o;
        o.build(mesh, x, obstacles, within);
        add_contact_distances(o, x, out);
    }
    return out;
}

/// Throws ipc::penetration when a free (not prescribed) collision vertex
/// of mesh is inside an obstacle at x: has_intersections' counterpart for
/// analytic obstacles. `step` names the step in the message.
inline void check_outside_obstacles(const CollisionMesh& mesh, const ObstacleSet& obstacles, const Eigen::MatrixXd& x,
                                    const std::string& step)
{
    for (const Index v : mesh.collision_vertices()) {
        if (mesh.is_prescribed(v)) {
            continue;
        }
        for (Index k = 0; k < obstacles.size(); ++k) {
            const double phi = obstacles.signed_distance(k, x.row(v).transpose());
            require<penetration>(phi > 0, step, " left vertex ", v, " inside obstacle ", k, " (", obstacles.name(k),
                                 ", signed distance ", phi, ")");
        }
    }
}

} // namespace ipc::examples
