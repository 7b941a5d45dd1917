// The lagged friction set matches its definition: one contact per stencil,
// lambda = w kappa 2 d |b'|, the stencil's tangent basis and weights, mu.

#include "contact_scenes.hpp"

#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/normal_force.hpp>

#include <catch2/catch.hpp>

#include <limits>

namespace {

template <int N> void check_contact(const ipc::FrictionContact<double, N>& actual, const ipc::FrictionContact<double, N>& expected)
{
    CHECK(actual.normal_force == Approx(expected.normal_force).epsilon(1e-12));
    CHECK(actual.mu == expected.mu);
    CHECK((actual.tangent_basis - expected.tangent_basis).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((actual.weights - expected.weights).cwiseAbs().maxCoeff() <= 1e-12);
}

} // namespace

TEST_CASE("Friction set matches its definition", "[collisions][friction]")
{
    const double dhat = 0.05, kappa = 4.0, mu = 0.3;
    std::size_t reduced_edge_edge = 0;
    for (const double radius : { 0.0, 0.003 }) {
        for (const auto& scene : ipc::test::mixed_scenes(radius, true)) {
            ipc::Collisions collisions;
            collisions.build(scene.mesh, scene.V, dhat);
            ipc::FrictionCollisions friction;
            friction.build(collisions, scene.mesh, scene.V, dhat, kappa, mu);
            REQUIRE(friction.size() == collisions.size());
            const auto x = [&](ipc::Index i) { return Eigen::Vector3d(scene.V.row(i).transpose()); };
            const auto lambda = [&](const auto& c) {
                const double d2 = c.distance_squared(ipc::detail::gather_positions(scene.V, c.vertices));
                return c.weight * ipc::normal_force_magnitude(d2, c.offset, dhat, kappa);
            };
            // Point-point and point-edge contacts come first from their own
            // stencils, then from reduced edge-edge stencils, in order.
            std::size_t vv = 0, ev = 0, ee = 0;
            for (const auto& c : collisions.vertex_vertex) {
                const auto& f = friction.vertex_vertex[vv++];
                CHECK(f.vertices == c.vertices);
                check_contact(f.contact, ipc::point_point_friction_contact(x(c.vertices[0]), x(c.vertices[1]), lambda(c), mu));
                CHECK(f.contact.normal_force > 0);
            }
            for (const auto& c : collisions.edge_vertex) {
                const auto& f = friction.edge_vertex[ev++];
                CHECK(f.vertices == c.vertices);
                check_contact(f.contact, ipc::point_edge_friction_contact(x(c.vertices[0]), x(c.vertices[1]),
                                                                          x(c.vertices[2]), lambda(c), mu));
            }
            for (const auto& c : collisions.edge_edge) {
                const double force = lambda(c);
                const ipc::Index a0 = c.vertices[0], a1 = c.vertices[1], b0 = c.vertices[2], b1 = c.vertices[3];
                using T = ipc::EdgeEdgeDistanceType;
                if (c.type == T::EA_EB) {
                    const auto& f = friction.edge_edge[ee++];
                    CHECK(f.vertices == c.vertices);
                    check_contact(f.contact, ipc::edge_edge_friction_contact(x(a0), x(a1), x(b0), x(b1), force, mu));
                    continue;
                }
                ++reduced_edge_edge;
                // Closest features of the reduced type.
                std::array<ipc::Index, 3> pe {};
                std::array<ipc::Index, 2> pp {};
                bool is_point_edge = true;
                switch (c.type) {
                case T::EA0_EB: pe = { { a0, b0, b1 } }; break;
                case T::EA1_EB: pe = { { a1, b0, b1 } }; break;
                case T::EA_EB0: pe = { { b0, a0, a1 } }; break;
                case T::EA_EB1: pe = { { b1, a0, a1 } }; break;
                case T::EA0_EB0: pp = { { a0, b0 } }; is_point_edge = false; break;
                case T::EA0_EB1: pp = { { a0, b1 } }; is_point_edge = false; break;
                case T::EA1_EB0: pp = { { a1, b0 } }; is_point_edge = false; break;
                case T::EA1_EB1: pp = { { a1, b1 } }; is_point_edge = false; break;
                case T::EA_EB: break;
                }
                if (is_point_edge) {
                    const auto& f = friction.edge_vertex[ev++];
                    CHECK(f.vertices == pe);
                    check_contact(f.contact, ipc::point_edge_friction_contact(x(pe[0]), x(pe[1]), x(pe[2]), force, mu));
                } else {
                    const auto& f = friction.vertex_vertex[vv++];
                    CHECK(f.vertices == pp);
                    check_contact(f.contact, ipc::point_point_friction_contact(x(pp[0]), x(pp[1]), force, mu));
                }
            }
            CHECK(vv == friction.vertex_vertex.size());
            CHECK(ev == friction.edge_vertex.size());
            CHECK(ee == friction.edge_edge.size());
            REQUIRE(friction.face_vertex.size() == collisions.face_vertex.size());
            for (std::size_t i = 0; i < collisions.face_vertex.size(); ++i) {
                const auto& c = collisions.face_vertex[i];
                const auto& f = friction.face_vertex[i];
                CHECK(f.vertices == c.vertices);
                check_contact(f.contact, ipc::point_triangle_friction_contact(x(c.vertices[0]), x(c.vertices[1]),
                                                                              x(c.vertices[2]), x(c.vertices[3]),
                                                                              lambda(c), mu));
            }
        }
    }
    CHECK(reduced_edge_edge > 0);
}

TEST_CASE("Friction set: merged stencils carry their multiplicity in lambda", "[collisions][friction]")
{
    const auto scenes = ipc::test::mixed_scenes();
    bool found = false;
    for (const auto& scene : scenes) {
        ipc::Collisions collisions;
        collisions.build(scene.mesh, scene.V, 0.1);
        ipc::FrictionCollisions friction;
        friction.build(collisions, scene.mesh, scene.V, 0.1, 1.0, 0.5);
        for (std::size_t i = 0; i < collisions.edge_vertex.size(); ++i) {
            const auto& c = collisions.edge_vertex[i];
            if (c.weight > 1) {
                const double d2 = c.distance_squared(ipc::detail::gather_positions(scene.V, c.vertices));
                CHECK(friction.edge_vertex[i].contact.normal_force
                      == Approx(c.weight * ipc::normal_force_magnitude(d2, c.offset, 0.1, 1.0)).epsilon(1e-12));
                found = true;
            }
        }
    }
    CHECK(found);
}

TEST_CASE("Friction set rejects bad input", "[collisions][friction][validation]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    ipc::FrictionCollisions friction;
    CHECK_THROWS_AS(friction.build(collisions, scene.mesh, scene.V, 0.05, 1.0, -0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(friction.build(collisions, scene.mesh, scene.V, 0.05, 0.0, 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(friction.build(collisions, scene.mesh, scene.V, -0.05, 1.0, 0.1), ipc::invalid_argument);
    Eigen::MatrixXd bad = scene.V;
    bad(1, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(friction.build(collisions, scene.mesh, bad, 0.05, 1.0, 0.1), ipc::invalid_argument);
    // A stencil moved inside its offset has no finite normal force.
    Eigen::MatrixXd flat = scene.V;
    const auto& c = collisions.face_vertex.front();
    flat.row(c.vertices[0]) = scene.V.row(c.vertices[1]);
    CHECK_THROWS_AS(friction.build(collisions, scene.mesh, flat, 0.05, 1.0, 0.1), ipc::penetration);
}
