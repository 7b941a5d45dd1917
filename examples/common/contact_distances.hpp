#pragma once
/// @file
/// What the example programs report about how close their surfaces came:
/// the smallest true distance and the smallest gap (distance - offset xi)
/// over the pairs of a collision set and the vertex-obstacle contacts,
/// measured at the state written out; the gap at which stacked sheets rest
/// on each other; and the check that no vertex ended a step inside an
/// analytic obstacle.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

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

/// How one sheet of a stack rests on the sheet below it.
struct LayerGap {
    std::size_t lower = 0, upper = 0; ///< sheet numbers (upper = lower + 1)
    std::size_t resting = 0;          ///< vertices of the upper sheet closer than `within` to the lower one
    double min = 0, median = 0, max = 0; ///< their distances to the lower sheet's surface (m)
};

/// For every two consecutive sheets (sheet k + 1 laid on sheet k), the
/// distance from each vertex of the upper sheet to the lower sheet's
/// surface (its nearest triangle), over the vertices closer than `within`
/// (m): those resting on it. x: positions (n x 3); faces: every sheet's
/// triangles; sheet_of_vertex: each vertex's sheet (0, 1, ...). Sheets with
/// no resting vertex on the one below are left out.
inline std::vector<LayerGap> layer_gaps(const Eigen::MatrixXd& x, const Eigen::MatrixXi& faces,
                                        const std::vector<std::size_t>& sheet_of_vertex, double within)
{
    require(sheet_of_vertex.size() == std::size_t(x.rows()), "layer_gaps: ", sheet_of_vertex.size(),
            " sheet numbers for ", x.rows(), " vertices");
    const CollisionMesh mesh = CollisionMesh::Builder(x).faces(faces).build();
    const Candidates candidates = static_candidates(mesh, x, within);
    std::vector<double> nearest(std::size_t(x.rows()), std::numeric_limits<double>::infinity());
    for (const FaceVertexCandidate& c : candidates.face_vertex) {
        const std::size_t v = std::size_t(c.vertex);
        if (sheet_of_vertex[v] != sheet_of_vertex[std::size_t(faces(c.face, 0))] + 1) {
            continue;
        }
        const auto point = [&](Index i) -> Eigen::Vector3d { return x.row(i).transpose(); };
        nearest[v] = std::min(nearest[v], std::sqrt(point_triangle_distance_squared(point(c.vertex),
                                              point(faces(c.face, 0)), point(faces(c.face, 1)), point(faces(c.face, 2)))));
    }
    const std::size_t sheets = sheet_of_vertex.empty()
        ? 0 : *std::max_element(sheet_of_vertex.begin(), sheet_of_vertex.end()) + 1;
    std::vector<std::vector<double>> resting(sheets);
    for (std::size_t v = 0; v < nearest.size(); ++v) {
        if (nearest[v] < within) {
            resting[sheet_of_vertex[v]].push_back(nearest[v]);
        }
    }
    std::vector<LayerGap> gaps;
    for (std::size_t upper = 1; upper < sheets; ++upper) {
        std::vector<double>& d = resting[upper];
        if (d.empty()) {
            continue;
        }
        std::sort(d.begin(), d.end());
        const std::size_t m = d.size() / 2;
        const double median = d.size() % 2 == 1 ? d[m] : 0.5 * (d[m - 1] + d[m]);
        gaps.push_back({ upper - 1, upper, d.size(), d.front(), median, d.back() });
    }
    return gaps;
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
