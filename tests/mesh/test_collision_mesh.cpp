#include <ipc/mesh/collision_mesh.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using namespace ipc;

namespace {

/// Unit cube corners (index = x + 2y + 4z) plus its centre (index 8).
Eigen::MatrixXd cube_with_centre()
{
    Eigen::MatrixXd V(9, 3);
    for (int k = 0; k < 8; ++k) {
        V.row(k) << (k & 1), ((k >> 1) & 1), ((k >> 2) & 1);
    }
    V.row(8) << 0.5, 0.5, 0.5;
    return V;
}

/// 12 tetrahedra joining each boundary triangle of the cube to its centre.
Eigen::MatrixXi cube_tets_around_centre()
{
    const int quads[6][4] = { { 0, 1, 3, 2 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
                              { 2, 3, 7, 6 }, { 0, 2, 6, 4 }, { 1, 3, 7, 5 } };
    Eigen::MatrixXi T(12, 4);
    for (int q = 0; q < 6; ++q) {
        T.row(2 * q) << quads[q][0], quads[q][1], quads[q][2], 8;
        T.row(2 * q + 1) << quads[q][0], quads[q][2], quads[q][3], 8;
    }
    return T;
}

std::set<std::pair<int, int>> undirected_edges(const Eigen::MatrixXi& E)
{
    std::set<std::pair<int, int>> result;
    for (Eigen::Index e = 0; e < E.rows(); ++e) {
        result.insert({ std::min(E(e, 0), E(e, 1)), std::max(E(e, 0), E(e, 1)) });
    }
    return result;
}

} // namespace

TEST_CASE("Face edges are added when only faces are given", "[mesh]")
{
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0;
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 1, 3, 2;
    const CollisionMesh mesh(V, Eigen::MatrixXi(), F);
    CHECK(mesh.dim() == 3);
    CHECK(mesh.num_edges() == 5);
    CHECK(undirected_edges(mesh.edges())
          == std::set<std::pair<int, int>> { { 0, 1 }, { 1, 2 }, { 0, 2 }, { 1, 3 }, { 2, 3 } });
    CHECK(mesh.rod_edges().empty());
    CHECK(mesh.particles().empty());
    CHECK(mesh.codim_vertices().empty());
    CHECK(mesh.collision_vertices().size() == 4);

    // Edges the user lists keep their index; the rest follow.
    Eigen::MatrixXi E(2, 2);
    E << 3, 2, 0, 1;
    const CollisionMesh with_edges(V, E, F);
    CHECK(with_edges.num_edges() == 5);
    CHECK(with_edges.edges().row(0) == E.row(0));
    CHECK(with_edges.edges().row(1) == E.row(1));
    CHECK(undirected_edges(with_edges.edges()) == undirected_edges(mesh.edges()));
}

TEST_CASE("Tetrahedra: boundary extraction, outward orientation, interior vertices", "[mesh]")
{
    const Eigen::MatrixXd V = cube_with_centre();
    Eigen::MatrixXi T = cube_tets_around_centre();
    // Flip half of the tetrahedra: orientation must not depend on the input's.
    for (Eigen::Index t = 0; t < T.rows(); t += 2) {
        std::swap(T(t, 0), T(t, 1));
    }
    const CollisionMesh mesh = CollisionMesh::from_tetrahedra(V, T, 0.01);
    CHECK(mesh.num_faces() == 12);
    CHECK(mesh.num_edges() == 18); // 12 cube edges + 6 face diagonals
    CHECK_FALSE(mesh.is_collision_vertex(8));
    CHECK(mesh.collision_vertices().size() == 8);
    CHECK(mesh.particles().empty());
    for (Eigen::Index f = 0; f < mesh.num_faces(); ++f) {
        const Eigen::Vector3d a = V.row(mesh.faces()(f, 0)), b = V.row(mesh.faces()(f, 1)), c = V.row(mesh.faces()(f, 2));
        const Eigen::Vector3d normal = (b - a).cross(c - a);
        const Eigen::Vector3d outward = (a + b + c) / 3 - Eigen::Vector3d(0.5, 0.5, 0.5);
        CHECK(normal.dot(outward) > 0);
        // No interior face survives.
        CHECK(mesh.faces()(f, 0) != 8);
        CHECK(mesh.faces()(f, 1) != 8);
        CHECK(mesh.faces()(f, 2) != 8);
    }
    CHECK(mesh.vertex_radii().size() == 9);
    CHECK(mesh.max_radius() == 0.01);
    CHECK(mesh.has_thickness());

    // A vertex on no tetrahedron becomes a particle.
    Eigen::MatrixXd V2(10, 3);
    V2.topRows(9) = V;
    V2.row(9) << 3, 3, 3;
    const CollisionMesh with_particle = CollisionMesh::from_tetrahedra(V2, T);
    CHECK(with_particle.particles() == std::vector<Index> { 9 });
    CHECK_FALSE(with_particle.has_thickness());
}

TEST_CASE("Rods, particles and shells: roles and pair rules", "[mesh]")
{
    // Triangle 0-1-2, a rod 3-4-5 attached at vertex 2 by edge 2-3, particles 6, 7.
    Eigen::MatrixXd V(8, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 5, 5, 5, 6, 6, 6;
    Eigen::MatrixXi F(1, 3), E(3, 2);
    F << 0, 1, 2;
    E << 2, 3, 3, 4, 4, 5;
    const CollisionMesh mesh(V, E, F);
    CHECK(mesh.num_edges() == 6);
    CHECK(mesh.rod_edges() == std::vector<Index> { 0, 1, 2 });
    CHECK(mesh.codim_vertices() == std::vector<Index> { 3, 4, 5, 6, 7 });
    CHECK(mesh.particles() == std::vector<Index> { 6, 7 });
    CHECK(mesh.is_on_face(2));
    CHECK_FALSE(mesh.is_on_face(3));

    // Point-triangle: any colliding vertex not on the face.
    CHECK(mesh.can_collide_face_vertex(0, 4));
    CHECK(mesh.can_collide_face_vertex(0, 6));
    CHECK_FALSE(mesh.can_collide_face_vertex(0, 2));
    // Edge-edge: no shared vertex.
    CHECK(mesh.can_collide_edge_edge(0, 2));  // 2-3 vs 4-5
    CHECK_FALSE(mesh.can_collide_edge_edge(0, 1)); // share 3
    CHECK_FALSE(mesh.can_collide_edge_edge(1, 1));
    // Point-edge: rod edges against vertices on no face, non-incident.
    CHECK(mesh.can_collide_edge_vertex(2, 3));      // rod node vs rod segment 4-5
    CHECK(mesh.can_collide_edge_vertex(0, 6));      // particle vs rod
    CHECK_FALSE(mesh.can_collide_edge_vertex(2, 4)); // endpoint
    CHECK_FALSE(mesh.can_collide_edge_vertex(1, 0)); // vertex on a face
    Index face_edge = -1;
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        if (!mesh.is_rod_edge(e)) {
            face_edge = e;
            break;
        }
    }
    REQUIRE(face_edge >= 0);
    CHECK_FALSE(mesh.can_collide_edge_vertex(face_edge, 6)); // covered by point-triangle
    // Point-point: particles only.
    CHECK(mesh.can_collide_vertex_vertex(6, 7));
    CHECK_FALSE(mesh.can_collide_vertex_vertex(6, 6));
    CHECK_FALSE(mesh.can_collide_vertex_vertex(5, 6));

    // Isolated vertices can be switched off.
    const CollisionMesh no_particles = CollisionMesh::Builder(V).faces(F).edges(E).isolated_vertices_are_particles(false).build();
    CHECK(no_particles.particles().empty());
    CHECK_FALSE(no_particles.is_collision_vertex(6));
}

TEST_CASE("Radii: per vertex, per primitive as the max, pair offsets as sums", "[mesh]")
{
    Eigen::MatrixXd V(5, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 2, 2, 3, 3, 3;
    Eigen::MatrixXi F(1, 3), E(1, 2);
    F << 0, 1, 2;
    E << 3, 4;
    Eigen::VectorXd r(5);
    r << 0.1, 0.3, 0.2, 0.05, 0.0;
    const CollisionMesh mesh(V, E, F, r);
    CHECK(mesh.face_radii()[0] == 0.3);
    CHECK(mesh.edge_radii()[0] == 0.05);
    CHECK(mesh.face_vertex_offset(0, 3) == 0.3 + 0.05);
    CHECK(mesh.edge_edge_offset(0, 1) == mesh.edge_radii()[0] + mesh.edge_radii()[1]);
    CHECK(mesh.edge_vertex_offset(0, 2) == 0.05 + 0.2);
    CHECK(mesh.vertex_vertex_offset(3, 4) == 0.05);
    // Uniform radius r = T/2 gives xi = T for every pair.
    const CollisionMesh uniform = CollisionMesh::Builder(V).faces(F).edges(E).radius(0.25).build();
    CHECK(uniform.face_vertex_offset(0, 4) == 0.5);
    CHECK(uniform.edge_edge_offset(0, 1) == 0.5);
}

TEST_CASE("2D meshes: edges and particles", "[mesh]")
{
    Eigen::MatrixXd V(5, 2);
    V << 0, 0, 1, 0, 1, 1, 0, 1, 3, 3;
    Eigen::MatrixXi E(4, 2);
    E << 0, 1, 1, 2, 2, 3, 3, 0;
    const CollisionMesh mesh(V, E, Eigen::MatrixXi());
    CHECK(mesh.dim() == 2);
    CHECK(mesh.particles() == std::vector<Index> { 4 });
    CHECK(mesh.can_collide_edge_vertex(0, 2)); // any edge, any non-incident vertex
    CHECK(mesh.can_collide_edge_vertex(0, 4));
    CHECK_FALSE(mesh.can_collide_edge_vertex(0, 1));
    CHECK_FALSE(mesh.can_collide_edge_edge(0, 2)); // no edge-edge pairs in 2D
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    CHECK_THROWS_WITH(CollisionMesh(V, E, F), Catch::Contains("only supported in 3D"));
}

TEST_CASE("Mesh input validation names the problem", "[mesh]")
{
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    const Eigen::MatrixXi none;
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 2, 7;
    CHECK_THROWS_AS(CollisionMesh(V, none, F), invalid_argument);
    CHECK_THROWS_WITH(CollisionMesh(V, none, F), Catch::Contains("face 1 references vertex 7 but there are 4 vertices"));
    F.row(1) << 0, -1, 2;
    CHECK_THROWS_WITH(CollisionMesh(V, none, F), Catch::Contains("face 1 references vertex -1"));

    F.row(1) << 3, 1, 3;
    CHECK_THROWS_AS(CollisionMesh(V, none, F), degenerate_geometry);
    CHECK_THROWS_WITH(CollisionMesh(V, none, F), Catch::Contains("face 1 repeats vertex 3"));

    F.row(1) << 2, 0, 1; // same triangle as face 0
    CHECK_THROWS_WITH(CollisionMesh(V, none, F), Catch::Contains("face 1 repeats face 0"));

    Eigen::MatrixXi E(2, 2);
    E << 0, 3, 3, 0;
    CHECK_THROWS_WITH(CollisionMesh(V, E, none), Catch::Contains("edge 1 repeats edge 0"));
    E.row(1) << 2, 2;
    CHECK_THROWS_AS(CollisionMesh(V, E, none), degenerate_geometry);

    Eigen::MatrixXd bad = V;
    bad(2, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(CollisionMesh(bad, none, none), Catch::Contains("vertex 2"));

    CHECK_THROWS_WITH(CollisionMesh(V, none, none, Eigen::VectorXd::Constant(3, 0.1)),
                      Catch::Contains("vertex radii has 3 entries but there are 4 vertices"));
    Eigen::VectorXd r = Eigen::VectorXd::Zero(4);
    r[1] = -0.5;
    CHECK_THROWS_WITH(CollisionMesh(V, none, none, r), Catch::Contains("radius of vertex 1"));
    CHECK_THROWS_AS(CollisionMesh::Builder(V).radius(-1.0).build(), invalid_argument);

    CHECK_THROWS_WITH(CollisionMesh(Eigen::MatrixXd::Zero(3, 4), none, none), Catch::Contains("2 or 3 columns"));
    CHECK_THROWS_WITH(CollisionMesh(V, Eigen::MatrixXi::Zero(1, 3), none), Catch::Contains("edges must have 2 columns"));

    Eigen::MatrixXi T(1, 4);
    T << 0, 1, 2, 3;
    Eigen::MatrixXd flat = V;
    flat(3, 2) = 0.0; // all four in the plane z = 0
    CHECK_THROWS_AS(CollisionMesh::from_tetrahedra(flat, T), degenerate_geometry);
    CHECK_THROWS_WITH(CollisionMesh::from_tetrahedra(flat, T), Catch::Contains("tetrahedron 0 has zero rest volume"));
    T << 0, 1, 2, 9;
    CHECK_THROWS_WITH(CollisionMesh::from_tetrahedra(V, T), Catch::Contains("tetrahedron 0 references vertex 9"));

    // Positions checked against the mesh.
    const CollisionMesh mesh(V, none, (Eigen::MatrixXi(1, 3) << 0, 1, 2).finished());
    CHECK_NOTHROW(mesh.check_positions(V));
    CHECK_THROWS_WITH(mesh.check_positions(V.leftCols(2)), Catch::Contains("columns"));
    CHECK_THROWS_WITH(mesh.check_positions(bad), Catch::Contains("vertex 2"));
}

TEST_CASE("Empty mesh", "[mesh]")
{
    const CollisionMesh empty;
    CHECK(empty.num_vertices() == 0);
    CHECK(empty.num_edges() == 0);
    CHECK(empty.num_faces() == 0);
    const CollisionMesh from_arrays(Eigen::MatrixXd(0, 3), Eigen::MatrixXi(), Eigen::MatrixXi());
    CHECK(from_arrays.collision_vertices().empty());
    CHECK(from_arrays.max_radius() == 0.0);
}
