#pragma once
/// @file
/// What the example programs report about how close their surfaces came:
/// the smallest true distance and the smallest gap (distance - offset xi)
/// over the pairs of a collision set, measured at the state written out.

#include <common/sparse_assembly.hpp>

#include <ipc/collisions/collisions.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ipc::examples {

struct ContactDistances {
    std::optional<double> min_distance; ///< smallest distance between the pairs' primitives (m); none without pairs
    std::optional<double> min_gap;      ///< smallest distance - offset (m); none without pairs
};

/// The smallest distance and gap over the pairs of c at positions x (n x 3).
inline ContactDistances contact_distances(const Collisions& c, const Eigen::MatrixXd& x)
{
    ContactDistances out;
    const auto visit = [&](const auto& list) {
        for (const auto& k : list) {
            const double d = std::sqrt(k.distance_squared(gather(x, k.vertices)));
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

/// The same over the pairs of mesh at x whose gap is within `within` (m).
inline ContactDistances contact_distances(const CollisionMesh& mesh, const Eigen::MatrixXd& x, double within)
{
    Collisions c;
    c.build(mesh, x, within);
    return contact_distances(c, x);
}

} // namespace ipc::examples
