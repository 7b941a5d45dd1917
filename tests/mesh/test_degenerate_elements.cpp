// CollisionMesh rejects zero-length edges and zero-area faces at construction
// (relative to the mesh's scale), names them, and keeps them on request.

#include <ipc/mesh/collision_mesh.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace ipc;

namespace {

/// The message of the degenerate_geometry thrown by f ("" when none is).
template <typename F> std::string degenerate_message(F&& f)
{
    try {
        f();
    } catch (const degenerate_geometry& e) {
        return e.what();
    }
    return "";
}

/// Two triangles of a unit square plus vertex 4 placed by the caller.
Eigen::MatrixXd square_plus(const Eigen::RowVector3d& extra)
{
    Eigen::MatrixXd V(5, 3);
    V << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, extra;
    return V;
}

} // namespace

TEST_CASE("CollisionMesh rejects a face of zero rest area and names it", "[mesh][degenerate]")
{
    // Face 1 has three distinct vertices on one line (vertex 4 between 0 and 1).
    const Eigen::MatrixXd V = square_plus(Eigen::RowVector3d(0.5, 0, 0));
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 1, 4;
    const std::string message = degenerate_message([&] { CollisionMesh(V, Eigen::MatrixXi(0, 2), F); });
    CHECK(message.find("face 1") != std::string::npos);
    CHECK(message.find("vertices 0, 1, 4") != std::string::npos);
    CHECK(message.find("zero rest area") != std::string::npos);
    CHECK(message.find("allow_degenerate_elements") != std::string::npos);

    // Two distinct vertex indices at the same position.
    Eigen::MatrixXd coincident = square_plus(Eigen::RowVector3d(1, 1, 0));
    F << 0, 1, 2, 0, 4, 2;
    CHECK(degenerate_message([&] { CollisionMesh(coincident, Eigen::MatrixXi(0, 2), F); }).find("face 1 (vertices 0, 4, 2)")
          != std::string::npos);

    // Nearly collinear only by rounding: still zero area.
    Eigen::MatrixXd rounding = square_plus(Eigen::RowVector3d(0.5, 1e-14, 0));
    F << 0, 1, 2, 0, 1, 4;
    CHECK_THROWS_AS(CollisionMesh(rounding, Eigen::MatrixXi(0, 2), F), degenerate_geometry);

    // The option keeps it.
    const CollisionMesh kept = CollisionMesh::Builder(V).faces(F).allow_degenerate_elements(true).build();
    CHECK(kept.num_faces() == 2);
}

TEST_CASE("CollisionMesh rejects an edge of zero rest length and names it", "[mesh][degenerate]")
{
    // A rod 0-1-2 whose second segment has zero length (vertex 2 on vertex 1).
    Eigen::MatrixXd V(3, 3);
    V << 0, 0, 0, 1, 0, 0, 1, 0, 0;
    Eigen::MatrixXi E(2, 2);
    E << 0, 1, 1, 2;
    const std::string message = degenerate_message([&] { CollisionMesh(V, E, Eigen::MatrixXi(0, 3)); });
    CHECK(message.find("edge 1 (vertices 1, 2)") != std::string::npos);
    CHECK(message.find("zero rest length") != std::string::npos);
    CHECK_THROWS_AS(CollisionMesh::Builder(V).edges(E).build(), degenerate_geometry);
    CHECK(CollisionMesh::Builder(V).edges(E).allow_degenerate_elements(true).build().num_edges() == 2);

    // 2D as well.
    Eigen::MatrixXd V2(3, 2);
    V2 << 0, 0, 1, 0, 1, 0;
    CHECK_THROWS_AS(CollisionMesh(V2, E, Eigen::MatrixXi(0, 3)), degenerate_geometry);

    // Every vertex at one point: no scale at all, every edge is degenerate.
    const Eigen::MatrixXd point = Eigen::MatrixXd::Zero(2, 3);
    CHECK_THROWS_AS(CollisionMesh(point, E.topRows(1), Eigen::MatrixXi(0, 3)), degenerate_geometry);
}

TEST_CASE("CollisionMesh's degeneracy test is relative to the mesh's scale", "[mesh][degenerate]")
{
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 0, 2, 3;
    const Eigen::MatrixXd unit = square_plus(Eigen::RowVector3d(0, 0, 1)).topRows(4);
    for (const double scale : { 1e-9, 1.0, 1e9 }) {
        // A small mesh or a large one is fine at any absolute size.
        CHECK_NOTHROW(CollisionMesh(scale * unit, Eigen::MatrixXi(0, 2), F));
        // A thin but real sliver (height 1e-6 of its length) is fine.
        Eigen::MatrixXd sliver = scale * square_plus(Eigen::RowVector3d(0.5, 1e-6, 0));
        Eigen::MatrixXi G(2, 3);
        G << 0, 1, 2, 0, 4, 1;
        CHECK_NOTHROW(CollisionMesh(sliver, Eigen::MatrixXi(0, 2), G));
    }
    // A tiny edge next to a large part of the mesh: degenerate at that scale
    // (length 1e-13 against a diagonal of about 1e3)...
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1e-13, 0, 0, 1000, 0, 0, 1001, 0, 0;
    Eigen::MatrixXi E(2, 2);
    E << 0, 1, 2, 3;
    CHECK_THROWS_AS(CollisionMesh(V, E, Eigen::MatrixXi(0, 3)), degenerate_geometry);
    // ... but the same edge alone is a mesh of its own size.
    CHECK_NOTHROW(CollisionMesh(V.topRows(2), E.topRows(1), Eigen::MatrixXi(0, 3)));
    // Tetrahedral meshes are checked on their boundary faces too.
    Eigen::MatrixXd T0(4, 3);
    T0 << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    Eigen::MatrixXi T(1, 4);
    T << 0, 1, 2, 3;
    CHECK_NOTHROW(CollisionMesh::from_tetrahedra(T0, T));
}
