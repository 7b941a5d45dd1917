#pragma once
/// @file
/// What the example programs report about how close their surfaces came:
/// the smallest true distance and the smallest gap (distance - offset xi)
/// over the pairs of a collision set, measured at the state written out.

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
            Eigen::Matrix<double, Eigen::Dynamic, 1> q(3 * Index(k.vertices.size()));
            for (std::size_t i = 0; i < k.vertices.size(); ++i) {
                q.segment<3>(3 * Index(i)) = x.row(k.vertices[i]).transpose();
            }
            const double d = std::sqrt(k.distance_squared(q));
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

} // namespace ipc::examples
