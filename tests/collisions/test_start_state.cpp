// The step size's start state: what collision_free_step_size does on an
// invalid start, and the check that says so (step_start_state,
// check_step_start). Also the candidate range errors of the step size and the
// contact-set builder.

#include <ipc/broad_phase/candidates.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Triangle 0 (vertices 0, 1, 2) in z = 0 and a rod edge 0 (vertices 3, 4)
/// through x = y = 0.25 from z = bottom to z = top.
ipc::CollisionMesh triangle_and_rod(Eigen::MatrixXd& V, double bottom, double top)
{
    V.resize(5, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, bottom, 0.25, 0.25, top;
    Eigen::MatrixXi E(1, 2), F(1, 3);
    E << 3, 4;
    F << 0, 1, 2;
    return ipc::CollisionMesh(V, E, F);
}

/// Triangle 0 (vertices 0, 1, 2) in z = 0 and particle 3 at height h.
ipc::CollisionMesh triangle_and_particle(Eigen::MatrixXd& V, double h, double radius)
{
    V.resize(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, h;
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    return ipc::CollisionMesh(V, Eigen::MatrixXi(0, 2), F, Eigen::VectorXd::Constant(4, radius));
}

} // namespace

TEST_CASE("Step size on an intersecting start: returns 1 unchecked, the start check says so", "[step_size][start]")
{
    // The rod pierces the triangle; every pair is 0.25 or more apart.
    Eigen::MatrixXd V0;
    const ipc::CollisionMesh mesh = triangle_and_rod(V0, -0.5, 0.5);
    Eigen::MatrixXd V1 = V0;
    V1.col(0).tail(2).array() += 0.1; // the rod slides along x
    // Documented: the CCD sees no pair approaching its offset.
    CHECK(ipc::collision_free_step_size(mesh, V0, V1) == 1.0);

    const ipc::StepStartState state = ipc::step_start_state(mesh, V0);
    CHECK(state.status == ipc::StepStartStatus::intersects);
    CHECK_FALSE(state.valid());
    CHECK(contains(state.message, "start state intersects"));
    CHECK(contains(state.message, "edge 0 (vertices 3, 4) crosses face 0 (vertices 0, 1, 2)"));
    CHECK_THROWS_AS(ipc::check_step_start(mesh, V0), ipc::penetration);
    CHECK_THROWS_WITH(ipc::check_step_start(mesh, V0), Catch::Contains("start state intersects"));
    for (const auto method : { ipc::BroadPhaseMethod::brute_force, ipc::BroadPhaseMethod::spatial_hash }) {
        CHECK(ipc::step_start_state(mesh, V0, 0, method).status == ipc::StepStartStatus::intersects);
    }

    // The rod above the triangle: a valid start.
    Eigen::MatrixXd above;
    const ipc::CollisionMesh clear = triangle_and_rod(above, 0.1, 0.5);
    CHECK(ipc::step_start_state(clear, above).valid());
    CHECK(ipc::step_start_state(clear, above).message.empty());
    CHECK_NOTHROW(ipc::check_step_start(clear, above, 0.05));
}

TEST_CASE("Start check reports a pair within its offset", "[step_size][start]")
{
    // Particle 0.01 above the triangle, radius 0.004 on every vertex: xi = 0.008.
    Eigen::MatrixXd V0;
    const ipc::CollisionMesh mesh = triangle_and_particle(V0, 0.01, 0.004);
    CHECK(ipc::step_start_state(mesh, V0).valid());
    CHECK(ipc::step_start_state(mesh, V0, 0.001).valid());

    // With min_distance 0.003 the pair's offset is 0.011 > 0.01.
    const ipc::StepStartState state = ipc::step_start_state(mesh, V0, 0.003);
    CHECK(state.status == ipc::StepStartStatus::within_offset);
    CHECK(contains(state.message, "point-triangle pair (face 0, vertex 3)"));
    CHECK(contains(state.message, "distance 0.01"));
    CHECK_THROWS_AS(ipc::check_step_start(mesh, V0, 0.003), ipc::penetration);
    // What the step size does then (documented): 0.
    CHECK(ipc::collision_free_step_size(mesh, V0, V0, 0.003) == 0.0);

    // Exactly at the offset counts as within (as in the CCD).
    Eigen::MatrixXd touching;
    const ipc::CollisionMesh at_offset = triangle_and_particle(touching, 0.25, 0.125);
    CHECK(ipc::step_start_state(at_offset, touching).status == ipc::StepStartStatus::within_offset);

    // Bad arguments are errors, not a verdict.
    CHECK_THROWS_AS(ipc::step_start_state(mesh, V0, -1.0), ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::step_start_state(mesh, V0.topRows(3)), Catch::Contains("positions V0 has 3 rows"));
}

TEST_CASE("Out-of-range candidates name the list, the index and the bound", "[step_size][collisions][validation]")
{
    Eigen::MatrixXd V;
    const ipc::CollisionMesh mesh = triangle_and_rod(V, 0.1, 0.5);
    ipc::Candidates candidates;
    candidates.face_vertex.push_back({ 0, 3 });
    candidates.face_vertex.push_back({ 0, 7 });
    CHECK_THROWS_WITH(ipc::collision_free_step_size(candidates, mesh, V, V),
                      Catch::Contains("candidates.face_vertex[1] = (face 0, vertex 7) is out of range (1 faces, 5 vertices)"));
    ipc::Collisions collisions;
    CHECK_THROWS_WITH(collisions.build(candidates, mesh, V, 0.1),
                      Catch::Contains("candidates.face_vertex[1] = (face 0, vertex 7) is out of range"));

    ipc::Candidates edges;
    edges.edge_edge.push_back({ 0, 4 });
    CHECK_THROWS_WITH(ipc::collision_free_step_size(edges, mesh, V, V),
                      Catch::Contains("candidates.edge_edge[0] = (edge 0, edge 4) is out of range (4 edges)"));
    CHECK_THROWS_WITH(collisions.build(edges, mesh, V, 0.1), Catch::Contains("candidates.edge_edge[0]"));
}
