#pragma once
/// @file
/// The active vertex-obstacle contacts: every colliding vertex of a
/// CollisionMesh whose signed distance to an obstacle of an ObstacleSet is
/// below its offset plus dhat. They are the analogue, for static analytic or
/// callback obstacles, of the mesh-mesh stencils of Collisions, and are used
/// by the barrier (BarrierPotential overloads, obstacle_barrier.hpp), the
/// lagged friction (ObstacleFrictionCollisions) and the step size
/// (obstacle_ccd.hpp).
///
/// Offsets, as for mesh-mesh pairs: a vertex of radius r (the CollisionMesh's
/// vertex radius, half its contact thickness) has offset xi = r + dmin
/// against an obstacle (obstacles have no thickness of their own), must keep
/// phi > xi and is active when phi < xi + dhat. With phi in place of the
/// pair distance d, the barrier is b(phi^2 - xi^2, 2 xi dhat + dhat^2): the
/// same value as for a mesh pair at distance phi.
///
/// Only colliding vertices (CollisionMesh::collision_vertices(): vertices of
/// faces and edges and free particles) take part; vertices whose motion is
/// prescribed (CollisionMesh::is_prescribed) are skipped, since nothing in a
/// contact of a prescribed vertex with a static obstacle can respond.
///
/// Only 3D meshes are supported (positions with 3 columns); a 2D mesh is
/// rejected with ipc::invalid_argument.

#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_set.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ipc {

/// One active vertex-obstacle contact.
struct VertexObstacleCollision {
    /// Number of mesh vertices of the stencil (the obstacle has none).
    static constexpr int num_vertices = 1;
    Index vertex = 0;   ///< mesh vertex
    Index obstacle = 0; ///< index into the ObstacleSet
    double offset = 0;  ///< xi = vertex radius + dmin (m)
};

namespace detail {
    /// Throws ipc::invalid_argument when a contact set built with set_dhat
    /// (> 0) is used with another dhat (equal up to 1e-12 relative counts as
    /// the same); set_dhat == 0 (a set filled by hand) is not checked.
    inline void check_obstacle_collisions_dhat(double set_dhat, double dhat, const char* who)
    {
        if (set_dhat == 0) {
            return;
        }
        require(std::abs(set_dhat - dhat) <= 1e-12 * std::max(set_dhat, dhat), who,
                ": the ObstacleCollisions set was built with dhat = ", set_dhat, " but dhat = ", dhat,
                " was given (build the set with the same dhat)");
    }

    /// Position of vertex v as a 3-vector.
    inline Eigen::Vector3d obstacle_row3(const Eigen::Ref<const Eigen::MatrixXd>& V, Index v)
    {
        return Eigen::Vector3d(V(v, 0), V(v, 1), V(v, 2));
    }

    /// Common validation of the mesh-level obstacle functions: 3D mesh,
    /// positions of the right shape and finite.
    inline void check_obstacle_mesh_positions(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                              const char* who, const char* what)
    {
        require(mesh.dim() == 3, who, ": only 3D meshes are supported (positions with 3 columns), got a ",
                mesh.dim(), "D mesh");
        mesh.check_positions(V, detail::concat(who, ": ", what).c_str());
    }
} // namespace detail

/// The active vertex-obstacle contacts at one configuration, and a copy of
/// the obstacles they refer to (so that the potentials evaluate them without
/// being given the obstacles again).
class ObstacleCollisions {
public:
    /// Contacts, in increasing vertex order and, per vertex, increasing
    /// obstacle order.
    std::vector<VertexObstacleCollision> vertex_obstacle;
    /// The obstacles the contacts' `obstacle` indices refer to.
    ObstacleSet obstacles;

    /// Builds the contacts at positions V.
    /// @param mesh       3D collision mesh (vertex radii give the offsets)
    /// @param V          positions, mesh.num_vertices() x 3 (m)
    /// @param obstacles_ the obstacles (copied into `obstacles`)
    /// @param dhat       activation distance (m), > 0
    /// @param dmin       extra offset added to every vertex's xi (m), >= 0
    /// A vertex at or inside its offset (phi <= xi, including inside the
    /// obstacle) is active and kept: the barrier then throws
    /// ipc::penetration. Throws ipc::invalid_argument for a 2D mesh, bad
    /// positions, bad dhat or dmin, and an invalid obstacle (naming its
    /// index), and ipc::invalid_argument when a callback returns a NaN signed
    /// distance. Parallel; the result does not depend on the thread count.
    void build(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V, const ObstacleSet& obstacles_,
               double dhat, double dmin = 0)
    {
        const char* who = "ObstacleCollisions::build";
        detail::check_obstacle_mesh_positions(mesh, V, who, "positions V");
        require(std::isfinite(dhat) && dhat > 0, who, ": dhat must be finite and positive, got ", dhat);
        require(std::isfinite(dmin) && dmin >= 0, who, ": dmin must be finite and non-negative, got ", dmin);
        obstacles_.check(who);
        clear();
        obstacles = obstacles_;
        dhat_ = dhat;
        dmin_ = dmin;
        const std::vector<Index>& candidates = mesh.collision_vertices();
        const Index num_obstacles = obstacles.size();
        const auto blocks = detail::process_in_blocks<std::vector<VertexObstacleCollision>>(
            candidates.size(), [&](std::size_t i, std::vector<VertexObstacleCollision>& out) {
                const Index v = candidates[i];
                if (mesh.is_prescribed(v)) {
                    return;
                }
                const Eigen::Vector3d p = detail::obstacle_row3(V, v);
                const double xi = mesh.vertex_radii()[v] + dmin;
                for (Index k = 0; k < num_obstacles; ++k) {
                    const double phi = obstacles.signed_distance(k, p);
                    require(!std::isnan(phi), who, ": obstacle ", k, " (", obstacles.name(k),
                            ") returned a NaN signed distance at vertex ", v);
                    if (phi < xi + dhat) {
                        out.push_back({ v, k, xi });
                    }
                }
            });
        for (const auto& block : blocks) {
            vertex_obstacle.insert(vertex_obstacle.end(), block.begin(), block.end());
        }
    }

    /// Number of contacts.
    std::size_t size() const { return vertex_obstacle.size(); }
    /// True when no vertex is near an obstacle.
    bool empty() const { return vertex_obstacle.empty(); }
    /// Removes every contact and the obstacles, and forgets dhat and dmin.
    void clear()
    {
        vertex_obstacle.clear();
        obstacles = ObstacleSet();
        dhat_ = 0;
        dmin_ = 0;
    }

    /// Activation distance (m) of the last build, 0 when the set was not
    /// built by build() (then the potentials do not check their dhat).
    double dhat() const { return dhat_; }
    /// Extra offset (m) of the last build.
    double dmin() const { return dmin_; }

private:
    double dhat_ = 0;
    double dmin_ = 0;
};

} // namespace ipc
