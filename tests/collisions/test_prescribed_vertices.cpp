// Prescribed vertices (CollisionMesh::Builder::prescribed_vertices): pairs
// made only of prescribed vertices are never contact pairs, so overlapping
// obstacles are legal, while a free vertex still meets every obstacle.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <catch2/catch.hpp>

#include <vector>

namespace {

/// Two unit triangles in the plane y = 0 crossing each other (obstacles
/// 0-2 and 3-5) and a free point 6 just above them.
Eigen::MatrixXd crossing_obstacles_and_point()
{
    Eigen::MatrixXd V(7, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 0, 1, // triangle A
        0.2, -0.5, 0.2, 0.2, 0.5, 0.2, 0.9, 0, 0.9, // triangle B, through A
        0.1, 1e-4, 0.1; // a free point above A
    return V;
}

ipc::CollisionMesh obstacles_mesh(bool prescribed)
{
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 3, 4, 5;
    ipc::CollisionMesh::Builder builder(crossing_obstacles_and_point());
    builder.faces(F);
    if (prescribed) {
        builder.prescribed_vertices({ true, true, true, true, true, true, false });
    }
    return builder.build();
}

} // namespace

TEST_CASE("pairs of prescribed vertices only are not contact pairs", "[collisions][prescribed]")
{
    const Eigen::MatrixXd V = crossing_obstacles_and_point();
    const ipc::CollisionMesh plain = obstacles_mesh(false), held = obstacles_mesh(true);
    CHECK_FALSE(plain.has_prescribed_vertices());
    CHECK(held.has_prescribed_vertices());
    CHECK(held.is_prescribed(0));
    CHECK_FALSE(held.is_prescribed(6));

    // The crossing obstacles intersect as plain triangles, not as obstacles.
    CHECK(ipc::has_intersections(plain, V));
    CHECK_FALSE(ipc::has_intersections(held, V));

    // Admissibility: obstacle against obstacle never, the free point always.
    for (ipc::Index v = 3; v < 6; ++v) {
        CHECK(plain.can_collide_face_vertex(0, v));
        CHECK_FALSE(held.can_collide_face_vertex(0, v));
    }
    CHECK(held.can_collide_face_vertex(0, 6));
    CHECK(held.can_collide_face_vertex(1, 6));
    for (ipc::Index a = 0; a < held.num_edges(); ++a) {
        for (ipc::Index b = 0; b < held.num_edges(); ++b) {
            CHECK_FALSE(held.can_collide_edge_edge(a, b));
        }
    }

    // The contact set holds the free point's pair with A and nothing else.
    ipc::Collisions c;
    c.build(held, V, 1e-3);
    REQUIRE(c.size() == 1);
    REQUIRE(c.face_vertex.size() == 1);
    CHECK(c.face_vertex[0].vertices[0] == 6);

    // Every broad phase leaves the obstacle pairs out.
    for (const auto method : { ipc::BroadPhaseMethod::brute_force, ipc::BroadPhaseMethod::sweep_and_prune,
             ipc::BroadPhaseMethod::spatial_hash, ipc::BroadPhaseMethod::bvh }) {
        INFO(ipc::to_string(method));
        const ipc::Candidates plain_candidates = ipc::static_candidates(plain, V, 0.1, method);
        const ipc::Candidates held_candidates = ipc::static_candidates(held, V, 0.1, method);
        CHECK(plain_candidates.edge_edge.size() > 0);
        CHECK(held_candidates.edge_edge.empty());
        CHECK_FALSE(held_candidates.face_vertex.empty());
        for (const auto& c : held_candidates.face_vertex) {
            CHECK(c.vertex == 6); // only the free point meets the obstacles
        }
        CHECK(plain_candidates.face_vertex.size() > held_candidates.face_vertex.size());
    }

    // A free vertex is still stopped by an obstacle: the point moving down
    // through A gets a step below 1.
    Eigen::MatrixXd V1 = V;
    V1(6, 1) = -0.5;
    CHECK(ipc::collision_free_step_size(held, V, V1) < 1);

    // The flags must match the vertex count.
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    CHECK_THROWS_AS(ipc::CollisionMesh::Builder(V).faces(F).prescribed_vertices({ true, false }).build(),
        ipc::invalid_argument);
}
