// The constraint-set builder against a brute-force reference over every
// admissible pair, on meshes of every codimension mix, with and without
// offsets; determinism across thread counts; validation.

#include "contact_scenes.hpp"

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <catch2/catch.hpp>

#include <limits>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

using ipc::test::Key;

namespace {

// Checks one build against the brute-force reference.
void check_against_reference(const ipc::test::Scene& scene, double dhat, double dmin = 0)
{
    const ipc::test::Reference ref = ipc::test::brute_force_reference(scene.mesh, scene.V, dhat, dmin);
    ipc::Collisions collisions;
    collisions.build(ipc::test::all_candidates(scene.mesh), scene.mesh, scene.V, dhat, dmin);

    // Same stencils with the same multiplicities.
    const std::map<ipc::test::OffsetKey, int> built = ipc::test::collision_counts(collisions);
    CHECK(built == ref.counts);
    int total_weight = 0;
    for (const auto& entry : built) {
        total_weight += entry.second;
    }
    CHECK(total_weight == ref.active_pairs);
    // Stored once each (no duplicate stencils).
    CHECK(built.size() == collisions.size());

    // Every stencil is active by its own formula and outside its offset.
    const auto check_stencil = [&](const auto& c, const Key& key) {
        CHECK(ref.counts.count({ key, c.offset }) == 1);
        const double d2 = c.distance_squared(ipc::detail::gather_positions(scene.V, c.vertices));
        CHECK(std::sqrt(d2) < c.offset + dhat);
        CHECK(std::sqrt(d2) > c.offset);
    };
    for (const auto& c : collisions.vertex_vertex) {
        check_stencil(c, Key { 0, std::min(c.vertices[0], c.vertices[1]), std::max(c.vertices[0], c.vertices[1]), -1, -1 });
    }
    for (const auto& c : collisions.edge_vertex) {
        check_stencil(c, Key { 1, c.vertices[0], std::min(c.vertices[1], c.vertices[2]),
                               std::max(c.vertices[1], c.vertices[2]), -1 });
    }
    for (const auto& c : collisions.edge_edge) {
        check_stencil(c, Key { 2, c.vertices[0], c.vertices[1], c.vertices[2], c.vertices[3] });
        // The stored type is the pair's region.
        const auto x = ipc::detail::gather_positions(scene.V, c.vertices);
        CHECK(c.type == ipc::edge_edge_distance_type(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9)));
    }
    for (const auto& c : collisions.face_vertex) {
        check_stencil(c, Key { 3, c.vertices[0], c.vertices[1], c.vertices[2], c.vertices[3] });
    }

    // The barrier energy equals the sum over source pairs.
    const ipc::BarrierPotential<> barrier(dhat);
    if (dmin == 0) {
        const double energy = barrier(collisions, scene.mesh, scene.V);
        CHECK(energy == Approx(ref.energy).epsilon(1e-10).margin(1e-300));
    }
}

} // namespace

TEST_CASE("Active set equals the brute-force set on every codimension mix", "[collisions]")
{
    const auto scenes = ipc::test::mixed_scenes();
    for (std::size_t s = 0; s < scenes.size(); ++s) {
        INFO("scene " << s);
        for (const double dhat : { 0.02, 0.05, 0.1 }) {
            INFO("dhat " << dhat);
            check_against_reference(scenes[s], dhat);
        }
    }
}

TEST_CASE("Active set covers every pair type and merges duplicates", "[collisions]")
{
    const auto scenes = ipc::test::mixed_scenes();
    std::size_t vv = 0, ev = 0, ee = 0, fv = 0, merged = 0, mollified = 0;
    for (const auto& scene : scenes) {
        ipc::Collisions collisions;
        collisions.build(ipc::test::all_candidates(scene.mesh), scene.mesh, scene.V, 0.1);
        vv += collisions.vertex_vertex.size();
        ev += collisions.edge_vertex.size();
        ee += collisions.edge_edge.size();
        fv += collisions.face_vertex.size();
        for (const auto& c : collisions.edge_vertex) {
            merged += c.weight > 1;
        }
        for (const auto& c : collisions.vertex_vertex) {
            merged += c.weight > 1;
        }
        for (const auto& c : collisions.edge_edge) {
            mollified += c.type != ipc::EdgeEdgeDistanceType::EA_EB;
        }
    }
    // The scenes are built so that each case occurs; the reference test
    // above would be vacuous otherwise.
    CHECK(vv > 0);
    CHECK(ev > 0);
    CHECK(ee > 0);
    CHECK(fv > 0);
    CHECK(merged > 0);
    CHECK(mollified > 0);
}

TEST_CASE("Offsets from radii and dmin change exactly the activity test", "[collisions]")
{
    SECTION("per-vertex radii")
    {
        for (const auto& scene : ipc::test::mixed_scenes(0.004, true)) {
            check_against_reference(scene, 0.03);
        }
    }
    SECTION("uniform radius")
    {
        for (const auto& scene : ipc::test::mixed_scenes(0.005)) {
            check_against_reference(scene, 0.02);
        }
    }
    SECTION("dmin adds to every offset")
    {
        for (const auto& scene : ipc::test::mixed_scenes()) {
            check_against_reference(scene, 0.02, 0.01);
        }
    }
    SECTION("two flat sheets: inactive without offset, all near pairs active with it")
    {
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        ipc::test::add_sheet(V, F, 4, 4, 1.0, 0.0, 0.0);
        ipc::test::add_sheet(V, F, 4, 4, 1.0, 0.1, 0.0, { 0.1, 0.1 });
        const double dhat = 0.01;
        ipc::Collisions collisions;
        const ipc::CollisionMesh bare(V, E, F);
        collisions.build(bare, V, dhat);
        CHECK(collisions.empty());
        // xi = 2 r = 0.095 < gap 0.1 < xi + dhat: every vertex over the other
        // sheet becomes active, and nothing is inside the offset.
        const ipc::CollisionMesh thick(V, E, F, Eigen::VectorXd::Constant(V.rows(), 0.0475));
        collisions.build(thick, V, dhat);
        CHECK(!collisions.empty());
        check_against_reference({ thick, V }, dhat);
        for (const auto& c : collisions.face_vertex) {
            CHECK(c.offset == Approx(0.095));
        }
    }
}

TEST_CASE("Broad-phase build equals the build from all admissible pairs", "[collisions]")
{
    for (const auto& scene : ipc::test::mixed_scenes(0.003, true)) {
        for (const double dmin : { 0.0, 0.004 }) {
            ipc::Collisions from_all, from_broad_phase;
            from_all.build(ipc::test::all_candidates(scene.mesh), scene.mesh, scene.V, 0.04, dmin);
            for (const auto method : { ipc::BroadPhaseMethod::bvh, ipc::BroadPhaseMethod::spatial_hash,
                                       ipc::BroadPhaseMethod::brute_force }) {
                from_broad_phase.build(scene.mesh, scene.V, 0.04, dmin, method);
                CHECK(ipc::test::collision_counts(from_broad_phase) == ipc::test::collision_counts(from_all));
            }
        }
    }
}

TEST_CASE("Active set is identical for 1 and many threads", "[collisions][threads]")
{
    // Large enough for many parallel blocks of candidates.
    Eigen::MatrixXd V(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V, F, 40, 40, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V, F, 40, 40, 1.0, 0.02, 0.01, { 0.011, 0.007 });
    ipc::test::jitter(V, 0.002, 9);
    const ipc::CollisionMesh mesh(V, E, F);
    const ipc::Candidates candidates = ipc::static_candidates(mesh, V, 0.03);
    REQUIRE(candidates.size() > 4 * 4096);

#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    ipc::Collisions serial;
    serial.build(candidates, mesh, V, 0.03);
#if IPC_HAS_OPENMP
    omp_set_num_threads(4);
#endif
    ipc::Collisions parallel;
    parallel.build(candidates, mesh, V, 0.03);
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    REQUIRE(serial.size() > 1000);
    REQUIRE(serial.vertex_vertex.size() == parallel.vertex_vertex.size());
    REQUIRE(serial.edge_vertex.size() == parallel.edge_vertex.size());
    REQUIRE(serial.edge_edge.size() == parallel.edge_edge.size());
    REQUIRE(serial.face_vertex.size() == parallel.face_vertex.size());
    for (std::size_t i = 0; i < serial.vertex_vertex.size(); ++i) {
        CHECK(serial.vertex_vertex[i].vertices == parallel.vertex_vertex[i].vertices);
        CHECK(serial.vertex_vertex[i].weight == parallel.vertex_vertex[i].weight);
    }
    for (std::size_t i = 0; i < serial.edge_vertex.size(); ++i) {
        CHECK(serial.edge_vertex[i].vertices == parallel.edge_vertex[i].vertices);
        CHECK(serial.edge_vertex[i].weight == parallel.edge_vertex[i].weight);
    }
    for (std::size_t i = 0; i < serial.edge_edge.size(); ++i) {
        CHECK(serial.edge_edge[i].vertices == parallel.edge_edge[i].vertices);
        CHECK(serial.edge_edge[i].type == parallel.edge_edge[i].type);
    }
    for (std::size_t i = 0; i < serial.face_vertex.size(); ++i) {
        CHECK(serial.face_vertex[i].vertices == parallel.face_vertex[i].vertices);
    }
}

TEST_CASE("Collisions::build rejects bad input", "[collisions][validation]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    const ipc::Candidates candidates = ipc::test::all_candidates(scene.mesh);
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, scene.V, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, scene.V, -1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, scene.V, std::numeric_limits<double>::quiet_NaN()),
                    ipc::invalid_argument);
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, scene.V, 0.1, -0.1), ipc::invalid_argument);
    Eigen::MatrixXd bad = scene.V;
    bad(3, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, bad, 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(collisions.build(scene.mesh, bad, 0.1), ipc::invalid_argument);
    CHECK_THROWS_AS(collisions.build(candidates, scene.mesh, scene.V.topRows(3), 0.1), ipc::invalid_argument);
    ipc::Candidates out_of_range;
    out_of_range.face_vertex.push_back({ scene.mesh.num_faces(), 0 });
    CHECK_THROWS_AS(collisions.build(out_of_range, scene.mesh, scene.V, 0.1), ipc::invalid_argument);
    out_of_range.face_vertex.clear();
    out_of_range.edge_edge.push_back({ 0, scene.mesh.num_edges() + 5 });
    CHECK_THROWS_AS(collisions.build(out_of_range, scene.mesh, scene.V, 0.1), ipc::invalid_argument);
    // A 2D mesh takes 2-column positions only (2D itself: tests/collisions/test_2d.cpp).
    Eigen::MatrixXd V2(3, 2);
    V2 << 0, 0, 1, 0, 0, 1;
    Eigen::MatrixXi E2(1, 2);
    E2 << 0, 1;
    const ipc::CollisionMesh mesh2(V2, E2, Eigen::MatrixXi(0, 3));
    CHECK_THROWS_AS(collisions.build(mesh2, Eigen::MatrixXd::Zero(3, 3), 0.1), ipc::invalid_argument);
    // Pairs sharing a vertex are skipped, not evaluated.
    ipc::Candidates incident;
    incident.face_vertex.push_back({ 0, scene.mesh.faces()(0, 0) });
    collisions.build(incident, scene.mesh, scene.V, 0.1);
    CHECK(collisions.empty());
}

TEST_CASE("Offsets that overflow are rejected, not turned into infinite offsets", "[collisions]")
{
    // Two particles with the largest finite radius: r_a + r_b is +infinity.
    // A fuzzer found that build() used to accept them and give the pair an
    // infinite offset.
    Eigen::MatrixXd V(2, 3);
    V << 0, 0, 0, 1, 0, 0;
    const Eigen::MatrixXi E(0, 2), F(0, 3);
    const double huge = std::numeric_limits<double>::max();
    const ipc::CollisionMesh mesh(V, E, F, Eigen::VectorXd::Constant(2, huge));
    ipc::Collisions collisions;
    CHECK_THROWS_AS(collisions.build(mesh, V, 1e-3), ipc::invalid_argument);
    CHECK_THROWS_WITH(collisions.build(mesh, V, 1e-3), Catch::Contains("overflows"));
    // dmin and dhat can overflow the sum too.
    const ipc::CollisionMesh plain(V, E, F, Eigen::VectorXd::Constant(2, 0.5));
    CHECK_THROWS_AS(collisions.build(plain, V, huge, huge), ipc::invalid_argument);
    CHECK_NOTHROW(collisions.build(plain, V, 1e-3, 1e-3));
}
