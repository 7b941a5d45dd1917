// The potentials check what they are given where it enters: a contact set
// built with another dhat, positions of the wrong size, naming the argument
// and the values involved.

#include "../collisions/contact_scenes.hpp"

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace {

/// The message of the ipc::invalid_argument thrown by f ("" when none is).
template <typename F> std::string invalid_argument_message(F&& f)
{
    try {
        f();
    } catch (const ipc::invalid_argument& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("Barrier potential rejects a contact set built with another dhat", "[potentials][barrier][validation]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    REQUIRE(!collisions.empty());
    REQUIRE(collisions.dhat() == 0.05);

    // A smaller dhat would silently drop every pair between the two
    // activation distances (energy 0 for most of the set).
    const ipc::BarrierPotential<> other(0.01, 2.0);
    const auto& V = scene.V;
    const auto& mesh = scene.mesh;
    const std::string energy = invalid_argument_message([&] { (void)other(collisions, mesh, V); });
    CHECK(contains(energy, "BarrierPotential"));
    CHECK(contains(energy, "dhat = 0.050000000000000003"));
    CHECK(contains(energy, "dhat = 0.01"));
    CHECK(contains(invalid_argument_message([&] { (void)other.gradient(collisions, mesh, V); }),
                   "BarrierPotential::gradient"));
    CHECK(contains(invalid_argument_message([&] { (void)other.hessian(collisions, mesh, V); }),
                   "BarrierPotential::hessian"));
    Eigen::SparseMatrix<double> H;
    CHECK_THROWS_AS(other.hessian(collisions, mesh, V, ipc::PSDProjection::clamp, H), ipc::invalid_argument);
    // A larger dhat too.
    CHECK_THROWS_AS(ipc::BarrierPotential<>(0.1)(collisions, mesh, V), ipc::invalid_argument);

    // The same dhat, up to rounding in how it was computed, is accepted.
    const double same = 0.5 / 10.0 * (1 + 1e-15);
    CHECK_NOTHROW(ipc::BarrierPotential<>(same)(collisions, mesh, V));
    CHECK(ipc::BarrierPotential<>(0.05)(collisions, mesh, V) > 0);

    // A set assembled by hand (or cleared) carries no dhat and is not checked.
    ipc::Collisions by_hand;
    by_hand.face_vertex = collisions.face_vertex;
    CHECK(by_hand.dhat() == 0);
    CHECK_NOTHROW(other(by_hand, mesh, V));
    ipc::Collisions cleared = collisions;
    cleared.clear();
    CHECK(cleared.dhat() == 0);
    cleared.edge_edge = collisions.edge_edge;
    CHECK_NOTHROW(other.gradient(cleared, mesh, V));
}

TEST_CASE("Friction contacts reject a contact set built with another dhat", "[potentials][friction][validation]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    REQUIRE(!collisions.empty());
    ipc::FrictionCollisions contacts;
    const std::string message
        = invalid_argument_message([&] { contacts.build(collisions, scene.mesh, scene.V, 0.02, 10.0, 0.4); });
    CHECK(contains(message, "FrictionCollisions::build"));
    CHECK(contains(message, "dhat = 0.02"));
    CHECK(contains(message, "dhat = 0.050000000000000003"));
    CHECK_NOTHROW(contacts.build(collisions, scene.mesh, scene.V, 0.05, 10.0, 0.4));
    CHECK(!contacts.empty());
}

TEST_CASE("Potentials name the argument whose size is wrong", "[potentials][validation]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    const ipc::BarrierPotential<> barrier(0.05);
    const Eigen::MatrixXd short_V = scene.V.topRows(5);
    const std::string rows = invalid_argument_message([&] { (void)barrier.hessian(collisions, scene.mesh, short_V); });
    CHECK(contains(rows, "BarrierPotential::hessian: positions V has 5 rows"));
    CHECK(contains(rows, std::to_string(scene.mesh.num_vertices()) + " vertices"));
    const Eigen::MatrixXd flat_V = scene.V.leftCols(2);
    CHECK(contains(invalid_argument_message([&] { (void)barrier.gradient(collisions, scene.mesh, flat_V); }),
                   "BarrierPotential::gradient: positions V has 2 columns"));

    ipc::FrictionCollisions contacts;
    contacts.build(collisions, scene.mesh, scene.V, 0.05, 10.0, 0.4);
    const ipc::FrictionPotential<> friction(1e-3);
    CHECK(contains(invalid_argument_message([&] { (void)friction.hessian(contacts, scene.mesh, short_V); }),
                   "FrictionPotential::hessian: displacements U has 5 rows"));

    // A stencil pointing past the mesh names the list, the index and the bound.
    ipc::Collisions wrong = collisions;
    wrong.vertex_vertex.push_back({});
    wrong.vertex_vertex.back().vertices = { { 0, scene.mesh.num_vertices() } };
    const std::string stencil = invalid_argument_message(
        [&] { contacts.build(wrong, scene.mesh, scene.V, 0.05, 10.0, 0.4); });
    CHECK(contains(stencil, "collisions.vertex_vertex[" + std::to_string(wrong.vertex_vertex.size() - 1) + "]"));
    CHECK(contains(stencil, "references vertex " + std::to_string(scene.mesh.num_vertices())));
}
