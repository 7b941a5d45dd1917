// The blocks of the barrier-free (augmented-Lagrangian) solver: every CCD
// hit of a motion against a brute-force query of every pair, the per-vertex
// earliest-hit filter on hand-made ties, the per-pair distance and gradient
// against the squared kernels and finite differences, the persistent
// constraint set, the multiplier update and the cumulative-TOI termination;
// and the same blocks for vertices facing static analytic obstacles.

#include "contact_scenes.hpp"

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/collisions/persistent_constraints.hpp>
#include <ipc/core/toi_termination.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>

#include <limits>
#include <map>
#include <random>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {


// Every hit by querying every admissible pair with tmax = 1 (no broad phase,
// no filter).
template <typename CCD>
std::map<ipc::PairId, double> brute_force_hits(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V0,
                                               const Eigen::MatrixXd& V1, double min_distance, const CCD& ccd)
{
    const ipc::Candidates all = ipc::test::all_candidates(mesh);
    std::map<ipc::PairId, double> hits;
    const auto p = [](const Eigen::MatrixXd& V, ipc::Index i) { return Eigen::Vector3d(V.row(i).transpose()); };
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    for (const auto& c : all.face_vertex) {
        double toi = 1;
        const ipc::Index v = c.vertex, a = F(c.face, 0), b = F(c.face, 1), d = F(c.face, 2);
        if (ccd.point_triangle_ccd(p(V0, v), p(V0, a), p(V0, b), p(V0, d), p(V1, v), p(V1, a), p(V1, b), p(V1, d),
                                   toi, mesh.face_vertex_offset(c.face, c.vertex) + min_distance, 1.0)) {
            hits[ipc::PairId::face_vertex(c.face, c.vertex)] = toi;
        }
    }
    for (const auto& c : all.edge_edge) {
        double toi = 1;
        const ipc::Index a0 = E(c.edge0, 0), a1 = E(c.edge0, 1), b0 = E(c.edge1, 0), b1 = E(c.edge1, 1);
        if (ccd.edge_edge_ccd(p(V0, a0), p(V0, a1), p(V0, b0), p(V0, b1), p(V1, a0), p(V1, a1), p(V1, b0),
                              p(V1, b1), toi, mesh.edge_edge_offset(c.edge0, c.edge1) + min_distance, 1.0)) {
            hits[ipc::PairId::edge_edge(c.edge0, c.edge1)] = toi;
        }
    }
    for (const auto& c : all.edge_vertex) {
        double toi = 1;
        const ipc::Index v = c.vertex, e0 = E(c.edge, 0), e1 = E(c.edge, 1);
        if (ccd.point_edge_ccd(p(V0, v), p(V0, e0), p(V0, e1), p(V1, v), p(V1, e0), p(V1, e1), toi,
                               mesh.edge_vertex_offset(c.edge, c.vertex) + min_distance, 1.0)) {
            hits[ipc::PairId::edge_vertex(c.edge, c.vertex)] = toi;
        }
    }
    for (const auto& c : all.vertex_vertex) {
        double toi = 1;
        if (ccd.point_point_ccd(p(V0, c.v0), p(V0, c.v1), p(V1, c.v0), p(V1, c.v1), toi,
                                mesh.vertex_vertex_offset(c.v0, c.v1) + min_distance, 1.0)) {
            hits[ipc::PairId::vertex_vertex(c.v0, c.v1)] = toi;
        }
    }
    return hits;
}

template <typename CCD> void check_hits_against_brute_force(const CCD& ccd, int& with_hits, const char* name)
{
    INFO(name);
    for (const double radius : { 0.0, 0.004 }) {
        const auto scenes = ipc::test::mixed_scenes(radius, radius > 0);
        for (std::size_t s = 0; s < scenes.size(); ++s) {
            for (unsigned seed = 0; seed < 2; ++seed) {
                INFO("radius " << radius << " scene " << s << " seed " << seed);
                const ipc::CollisionMesh& mesh = scenes[s].mesh;
                const Eigen::MatrixXd& V0 = scenes[s].V;
                const Eigen::MatrixXd V1 = ipc::test::random_motion(V0, 0.08, 100 * unsigned(s) + seed + 7);
                const double min_distance = seed % 2 ? 0.002 : 0.0;
                const auto hits = ipc::collision_hits(mesh, V0, V1, min_distance, ipc::BroadPhaseMethod::bvh, ccd);
                const auto expected = brute_force_hits(mesh, V0, V1, min_distance, ccd);
                REQUIRE(hits.size() == expected.size());
                for (std::size_t h = 0; h < hits.size(); ++h) {
                    const auto it = expected.find(hits[h].pair);
                    REQUIRE(it != expected.end());
                    CHECK(hits[h].toi == it->second);
                    if (h > 0) {
                        CHECK(hits[h - 1].pair < hits[h].pair);
                    }
                }
                // The earliest hit is the step size of the same motion.
                CHECK(ipc::earliest_toi(hits)
                      == ipc::collision_free_step_size(mesh, V0, V1, min_distance, ipc::BroadPhaseMethod::bvh, ccd));
                with_hits += !hits.empty();
            }
        }
    }
}

} // namespace

TEST_CASE("collision_hits finds every pair a brute-force CCD query finds, with the same toi", "[hits]")
{
    int with_hits = 0;
    check_hits_against_brute_force(ipc::AdditiveCCD(), with_hits, "additive");
    check_hits_against_brute_force(ipc::RootFindingCCD(), with_hits, "root finding");
    check_hits_against_brute_force(ipc::InclusionCCD(), with_hits, "inclusion");
    CHECK(with_hits > 12); // the motions collide
}

TEST_CASE("collision_hits is identical for 1 and many threads", "[hits][threads]")
{
    Eigen::MatrixXd V0(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V0, F, 30, 30, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V0, F, 30, 30, 1.0, 0.03, 0.01, { 0.013, 0.006 });
    const ipc::CollisionMesh mesh(V0, E, F);
    const Eigen::MatrixXd V1 = ipc::test::random_motion(V0, 0.03, 11);
    const ipc::Candidates candidates = ipc::swept_candidates(mesh, V0, V1);
    REQUIRE(candidates.size() > 4 * 4096);
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    const auto serial = ipc::collision_hits(candidates, mesh, V0, V1);
#if IPC_HAS_OPENMP
    omp_set_num_threads(4);
#endif
    const auto parallel = ipc::collision_hits(candidates, mesh, V0, V1);
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    REQUIRE(serial.size() > 10);
    REQUIRE(serial.size() == parallel.size());
    for (std::size_t h = 0; h < serial.size(); ++h) {
        CHECK(serial[h].pair == parallel[h].pair);
        CHECK(serial[h].toi == parallel[h].toi);
    }
    CHECK(ipc::earliest_toi(serial) == ipc::collision_free_step_size(candidates, mesh, V0, V1));
}

TEST_CASE("collision_hits validates its input", "[hits][input]")
{
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 1;
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
    Eigen::MatrixXd V1 = V;
    V1(3, 2) = -1;
    const auto hits = ipc::collision_hits(mesh, V, V1);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].pair == ipc::PairId::face_vertex(0, 3));
    CHECK(hits[0].toi == Approx(0.45)); // ACCD: 90% of the gap, reached at t = 0.5
    CHECK_THROWS_AS(ipc::collision_hits(mesh, V, V1, -1.0), ipc::invalid_argument);
    Eigen::MatrixXd bad = V1;
    bad(1, 1) = std::nan("");
    CHECK_THROWS_AS(ipc::collision_hits(mesh, V, bad), ipc::invalid_argument);
    ipc::Candidates out_of_range;
    out_of_range.face_vertex.push_back({ 0, 9 });
    CHECK_THROWS_WITH(ipc::collision_hits(out_of_range, mesh, V, V1),
                      Catch::Contains("candidates.face_vertex[0]") && Catch::Contains("out of range"));
}

TEST_CASE("The per-vertex earliest-hit filter keeps ties and drops known pairs", "[hits][filter]")
{
    // Two triangles and three free points: vertices 0-2 face 0, 3-5 face 1,
    // points 6, 7, 8.
    Eigen::MatrixXd V(9, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 3, 0, 0, 2, 1, 0, 0.2, 0.2, 1, 2.2, 0.2, 1, 5, 5, 5;
    Eigen::MatrixXi F(2, 3);
    F << 0, 1, 2, 3, 4, 5;
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
    using ipc::PairId;
    const std::vector<ipc::CollisionHit> hits = {
        { PairId::face_vertex(0, 6), 0.5 },  // earliest for 6 (tied with the next) and for 0, 1, 2
        { PairId::face_vertex(1, 6), 0.5 },  // tied at vertex 6: kept
        { PairId::face_vertex(1, 7), 0.25 }, // earliest for 7 and for 3, 4, 5
        { PairId::face_vertex(0, 7), 0.75 }, // later than 7's and face 0's earliest: dropped
        { PairId::face_vertex(0, 8), 0.1 },  // known: dropped, and does not count for the minima
    };
    const std::vector<PairId> known = { PairId::face_vertex(0, 8) };
    const auto kept = ipc::earliest_hits_per_vertex(hits, mesh, known);
    REQUIRE(kept.size() == 3);
    CHECK(kept[0].pair == PairId::face_vertex(0, 6));
    CHECK(kept[1].pair == PairId::face_vertex(1, 6));
    CHECK(kept[2].pair == PairId::face_vertex(1, 7));
    // Without the known list, the 0.1 hit is earliest at face 0's vertices and
    // at 8, which then also drops (0, 6) at vertices 0-2 but not at 6.
    const auto all = ipc::earliest_hits_per_vertex(hits, mesh);
    REQUIRE(all.size() == 4);
    CHECK(all[3].pair == PairId::face_vertex(0, 8));
    CHECK_THROWS_AS(ipc::earliest_hits_per_vertex(hits, mesh, { PairId::face_vertex(1, 0), PairId::face_vertex(0, 0) }),
                    ipc::invalid_argument);
}

TEST_CASE("pair_distance: the distance, its gradient and the closest-point weights", "[pair_distance]")
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    int checked = 0;
    for (int trial = 0; trial < 200; ++trial) {
        // A triangle, an edge and two points, randomly placed.
        Eigen::MatrixXd V(8, 3);
        for (int i = 0; i < 8; ++i) {
            V.row(i) << u(rng), u(rng), u(rng);
        }
        Eigen::MatrixXi F(1, 3), E(4, 2);
        F << 0, 1, 2;
        E << 0, 1, 1, 2, 2, 0, 4, 5;
        const ipc::CollisionMesh mesh(V, E, F);
        const std::vector<ipc::PairId> pairs = { ipc::PairId::face_vertex(0, 3), ipc::PairId::edge_edge(3, 0),
                                                 ipc::PairId::edge_edge(1, 3), ipc::PairId::edge_vertex(3, 6),
                                                 ipc::PairId::vertex_vertex(7, 6) };
        for (const auto& id : pairs) {
            const ipc::PairDistance pd = ipc::pair_distance(mesh, V, id);
            const int n = pd.stencil.count;
            Eigen::VectorXd x(3 * n);
            for (int k = 0; k < n; ++k) {
                x.segment<3>(3 * k) = V.row(pd.stencil.vertices[std::size_t(k)]).transpose();
            }
            // |sum w_i x_i| = d, and grad_i d = w_i r / d.
            Eigen::Vector3d r = Eigen::Vector3d::Zero();
            for (int k = 0; k < n; ++k) {
                r += pd.weights[std::size_t(k)] * x.segment<3>(3 * k);
            }
            CHECK(r.norm() == Approx(pd.distance).epsilon(1e-9));
            for (int k = 0; k < n; ++k) {
                CHECK((pd.gradient.segment<3>(3 * k) - pd.weights[std::size_t(k)] * r / pd.distance).norm()
                      <= 1e-9);
            }
            CHECK(pd.gradient.tail(12 - 3 * n).isZero());
            // Gradient against finite differences of the distance.
            const auto distance = [&](const Eigen::VectorXd& y) {
                Eigen::MatrixXd W = V;
                for (int k = 0; k < n; ++k) {
                    W.row(pd.stencil.vertices[std::size_t(k)]) = y.segment<3>(3 * k).transpose();
                }
                return ipc::pair_distance(mesh, W, id).distance;
            };
            CHECK(ipc::test::fd_close(Eigen::VectorXd(pd.gradient.head(3 * n)), ipc::test::fd_gradient(distance, x, 1e-7),
                                      1e-5));
            ++checked;
        }
    }
    CHECK(checked == 1000);

    // A point on the triangle has no distance to linearise.
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, 0;
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
    CHECK_THROWS_AS(ipc::pair_distance(mesh, V, ipc::PairId::face_vertex(0, 3)), ipc::penetration);
    CHECK_THROWS_WITH(ipc::pair_distance(mesh, V, ipc::PairId::face_vertex(1, 3)),
                      Catch::Contains("face 1") && Catch::Contains("has 1"));

    // Only the pair's rows are read (a solver linearises many pairs per
    // state): a non-finite coordinate of the pair throws naming its vertex,
    // one elsewhere does not concern the pair, and the shape is checked.
    Eigen::MatrixXd W(5, 3);
    W << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, 0.5, 7, 7, 7;
    const ipc::CollisionMesh mesh5(W, Eigen::MatrixXi(0, 2), F);
    const double clean = ipc::pair_distance(mesh5, W, ipc::PairId::face_vertex(0, 3)).distance;
    CHECK(clean == Approx(0.5));
    W(4, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK(ipc::pair_distance(mesh5, W, ipc::PairId::face_vertex(0, 3)).distance == clean);
    W(3, 2) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH(ipc::pair_distance(mesh5, W, ipc::PairId::face_vertex(0, 3)),
                      Catch::Contains("vertex 3") && Catch::Contains("non-finite"));
    CHECK_THROWS_WITH(ipc::pair_distance(mesh5, Eigen::MatrixXd::Zero(4, 3), ipc::PairId::face_vertex(0, 3)),
                      Catch::Contains("4 rows") && Catch::Contains("5 vertices"));
}

TEST_CASE("FrictionCollisions::add with the barrier's force equals build", "[pair_distance][friction]")
{
    // A point above a triangle's interior, and two crossing edges.
    Eigen::MatrixXd V(8, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.3, 0.004, 3, 0, 0, 4, 0, 0.001, 3.5, -0.5, 0.004, 3.6, 0.5, 0.0045;
    Eigen::MatrixXi F(1, 3), E(2, 2);
    F << 0, 1, 2;
    E << 4, 5, 6, 7;
    const ipc::CollisionMesh mesh(V, E, F);
    const double dhat = 0.01, kappa = 10, mu = 0.3;
    ipc::Collisions collisions;
    collisions.build(mesh, V, dhat);
    ipc::FrictionCollisions built;
    built.build(collisions, mesh, V, dhat, kappa, mu);
    REQUIRE(built.face_vertex.size() == 1);
    REQUIRE(built.edge_edge.size() == 1);
    ipc::FrictionCollisions added;
    const auto fv = ipc::pair_distance(mesh, V, ipc::PairId::face_vertex(0, 3));
    const auto ee = ipc::pair_distance(mesh, V, ipc::PairId::edge_edge(0, 1));
    added.add(fv, V, built.face_vertex[0].contact.normal_force, mu);
    added.add(ee, V, built.edge_edge[0].contact.normal_force, mu);
    REQUIRE(added.face_vertex.size() == 1);
    REQUIRE(added.edge_edge.size() == 1);
    CHECK(added.face_vertex[0].vertices == built.face_vertex[0].vertices);
    CHECK(added.edge_edge[0].vertices == built.edge_edge[0].vertices);
    CHECK((added.face_vertex[0].contact.tangent_basis - built.face_vertex[0].contact.tangent_basis).norm() == 0);
    CHECK((added.edge_edge[0].contact.weights - built.edge_edge[0].contact.weights).norm() == 0);
    CHECK_THROWS_AS(added.add(fv, V, -1.0, mu), ipc::invalid_argument);
}

TEST_CASE("obstacle_collision_hits: every (vertex, obstacle) hit of the point CCD, the step size as their minimum",
          "[hits][obstacles]")
{
    // 400 particles with random motions among a plane, a sphere and a box.
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(-1, 1);
    const int n = 400;
    Eigen::MatrixXd V0(n, 3), V1(n, 3);
    ipc::ObstacleSet obstacles;
    obstacles.shapes.push_back(ipc::PlaneObstacle({ 0, -1.2, 0 }, { 0.1, 1, 0 }));
    obstacles.shapes.push_back(ipc::SphereObstacle { { 0.3, 0, 0 }, 0.25 });
    obstacles.shapes.push_back(ipc::BoxObstacle { { -0.5, 0.4, 0 }, { 0.2, 0.1, 0.3 }, 0.02 });
    for (int i = 0; i < n; ++i) {
        Eigen::Vector3d p;
        bool outside = false;
        while (!outside) { // start outside every obstacle by more than the offset
            p = Eigen::Vector3d(u(rng), u(rng), u(rng));
            outside = true;
            for (ipc::Index k = 0; k < obstacles.size(); ++k) {
                outside = outside && obstacles.signed_distance(k, p) > 0.01;
            }
        }
        V0.row(i) = p.transpose();
        V1.row(i) = (p + 0.8 * Eigen::Vector3d(u(rng), u(rng), u(rng))).transpose();
    }
    const ipc::CollisionMesh mesh(V0, Eigen::MatrixXi(0, 2), Eigen::MatrixXi(0, 3));
    const double min_distance = 0.005;
    const auto hits = ipc::obstacle_collision_hits(mesh, V0, V1, obstacles, min_distance);
    // Brute force: the pointwise query for every (vertex, obstacle), in order.
    std::vector<ipc::CollisionHit> expected;
    for (int i = 0; i < n; ++i) {
        for (ipc::Index k = 0; k < obstacles.size(); ++k) {
            double toi = 1;
            if (ipc::point_obstacle_ccd(obstacles, k, V0.row(i).transpose(), V1.row(i).transpose(), toi,
                                        min_distance)) {
                expected.push_back({ ipc::PairId::vertex_obstacle(i, k), toi });
            }
        }
    }
    REQUIRE(expected.size() > 40);
    REQUIRE(hits.size() == expected.size());
    for (std::size_t h = 0; h < hits.size(); ++h) {
        CHECK(hits[h].pair == expected[h].pair);
        CHECK(hits[h].toi == expected[h].toi);
    }
    CHECK(ipc::earliest_toi(hits) == ipc::obstacle_collision_free_step_size(mesh, V0, V1, obstacles, min_distance));
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    const auto serial = ipc::obstacle_collision_hits(mesh, V0, V1, obstacles, min_distance);
    omp_set_num_threads(saved);
    REQUIRE(serial.size() == hits.size());
    for (std::size_t h = 0; h < hits.size(); ++h) {
        CHECK((serial[h].pair == hits[h].pair && serial[h].toi == hits[h].toi));
    }
#endif
    // No obstacles: no hits. A start within the offset: ipc::penetration.
    CHECK(ipc::obstacle_collision_hits(mesh, V0, V1, ipc::ObstacleSet {}).empty());
    Eigen::MatrixXd inside = V0;
    inside.row(7) << 0.3, 0, 0;
    CHECK_THROWS_AS(ipc::obstacle_collision_hits(mesh, inside, V1, obstacles), ipc::penetration);
    CHECK_THROWS_AS(ipc::obstacle_collision_hits(mesh, V0, V1, obstacles, -1.0), ipc::invalid_argument);
}

TEST_CASE("Vertex-obstacle pairs: stencil, per-vertex filter, distance and friction", "[hits][obstacles]")
{
    using ipc::PairId;
    // A triangle (0-2), a point 3 above it and a plane below everything.
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.3, 0.5;
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
    ipc::ObstacleSet obstacles;
    obstacles.shapes.push_back(ipc::PlaneObstacle({ 0, 0, -0.3 }, { 0.2, -0.1, 1 }));
    obstacles.shapes.push_back(ipc::SphereObstacle { { 0.2, 0.3, 1.5 }, 0.5 });

    const ipc::PairVertices s = ipc::pair_vertices(mesh, PairId::vertex_obstacle(3, 1));
    CHECK(s.count == 1);
    CHECK(s.vertices[0] == 3);
    CHECK(PairId::face_vertex(0, 3) < PairId::vertex_obstacle(3, 0)); // a kind of its own, ordered last
    CHECK_THROWS_AS(ipc::pair_vertices(mesh, PairId::vertex_obstacle(4, 0)), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::pair_vertices(mesh, PairId::vertex_obstacle(0, -1)), ipc::invalid_argument);

    // The filter counts obstacle hits at their vertex: vertex 3 meets the
    // sphere before the face, so the face hit is kept only because it is
    // the earliest at the triangle's vertices; with a later face-side hit
    // too, the later one drops.
    const std::vector<ipc::CollisionHit> hits = {
        { PairId::face_vertex(0, 3), 0.5 },
        { PairId::vertex_obstacle(3, 1), 0.25 }, // earliest at 3
        { PairId::vertex_obstacle(0, 0), 0.75 }, // later than vertex 0's face hit: dropped
        { PairId::vertex_obstacle(1, 0), 0.5 },  // tied with the face hit at vertex 1: kept
    };
    const auto kept = ipc::earliest_hits_per_vertex(hits, mesh);
    REQUIRE(kept.size() == 3);
    CHECK(kept[0].pair == PairId::face_vertex(0, 3));
    CHECK(kept[1].pair == PairId::vertex_obstacle(3, 1));
    CHECK(kept[2].pair == PairId::vertex_obstacle(1, 0));
    const auto without_known = ipc::earliest_hits_per_vertex(hits, mesh, { PairId::vertex_obstacle(3, 1) });
    REQUIRE(without_known.size() == 2); // the known pair is dropped and no longer counts at 3
    CHECK(without_known[0].pair == PairId::face_vertex(0, 3));

    // Distance: the signed distance and its gradient, against finite
    // differences; other pairs as without obstacles.
    for (ipc::Index v = 0; v < 4; ++v) {
        for (ipc::Index k = 0; k < 2; ++k) {
            const PairId id = PairId::vertex_obstacle(v, k);
            const ipc::PairDistance pd = ipc::pair_distance(mesh, V, id, obstacles);
            CHECK(pd.stencil.count == 1);
            CHECK(pd.distance == obstacles.signed_distance(k, V.row(v).transpose()));
            CHECK(pd.gradient.tail<9>().isZero());
            const auto distance = [&](const Eigen::VectorXd& y) {
                Eigen::MatrixXd W = V;
                W.row(v) = y.transpose();
                return ipc::pair_distance(mesh, W, id, obstacles).distance;
            };
            CHECK(ipc::test::fd_close(Eigen::VectorXd(pd.gradient.head<3>()),
                                      ipc::test::fd_gradient(distance, Eigen::VectorXd(V.row(v).transpose()), 1e-7),
                                      1e-6));
        }
    }
    const ipc::PairDistance fv = ipc::pair_distance(mesh, V, PairId::face_vertex(0, 3), obstacles);
    CHECK(fv.distance == ipc::pair_distance(mesh, V, PairId::face_vertex(0, 3)).distance);
    CHECK_THROWS_WITH(ipc::pair_distance(mesh, V, PairId::vertex_obstacle(3, 0)), Catch::Contains("needs the obstacles"));
    CHECK_THROWS_WITH(ipc::pair_distance(mesh, V, PairId::vertex_obstacle(3, 2), obstacles),
                      Catch::Contains("obstacle 2") && Catch::Contains("has 2"));
    Eigen::MatrixXd below = V;
    below(3, 2) = -0.5;
    CHECK_THROWS_AS(ipc::pair_distance(mesh, below, PairId::vertex_obstacle(3, 0), obstacles), ipc::penetration);

    // Friction with a given normal force equals the barrier-built contact
    // given the barrier's force.
    Eigen::MatrixXd near = V;
    near.row(3) << 0.2, 0.3, 1.5 - 0.504; // 4 mm below the sphere
    const double dhat = 0.01, kappa = 10, mu = 0.4;
    ipc::ObstacleCollisions contacts;
    contacts.build(mesh, near, obstacles, dhat);
    REQUIRE(contacts.size() == 1);
    ipc::ObstacleFrictionCollisions built;
    built.build(contacts, mesh, near, dhat, kappa, mu);
    REQUIRE(built.size() == 1);
    ipc::ObstacleFrictionCollisions added;
    added.add(3, 1, obstacles, near, built.vertex_obstacle[0].contact.normal_force, mu);
    REQUIRE(added.size() == 1);
    CHECK(added.vertex_obstacle[0].vertex == 3);
    CHECK(added.vertex_obstacle[0].obstacle == 1);
    CHECK((added.vertex_obstacle[0].contact.tangent_basis - built.vertex_obstacle[0].contact.tangent_basis).norm()
          == 0);
    CHECK(added.vertex_obstacle[0].contact.normal_force == built.vertex_obstacle[0].contact.normal_force);
    CHECK(added.vertex_obstacle[0].contact.mu == mu);
    CHECK_THROWS_AS(added.add(3, 1, obstacles, near, -1.0, mu), ipc::invalid_argument);
    CHECK_THROWS_AS(added.add(4, 1, obstacles, near, 1.0, mu), ipc::invalid_argument);
    CHECK_THROWS_AS(added.add(3, 2, obstacles, near, 1.0, mu), ipc::invalid_argument);
}

TEST_CASE("PersistentConstraintSet: merge, decay and erase", "[constraints]")
{
    using ipc::PairId;
    ipc::PersistentConstraintSet set;
    CHECK(set.insert({ PairId::edge_edge(7, 2), PairId::face_vertex(1, 4), PairId::edge_edge(2, 7) }) == 2);
    REQUIRE(set.size() == 2);
    CHECK(set.constraints()[0].pair == PairId::edge_edge(2, 7)); // canonical and sorted
    set.constraints()[0].lambda = 5;
    set.constraints()[0].gamma = 0.5;
    // Held pairs keep their state; new ones enter with lambda 0, gamma 1.
    CHECK(set.insert({ PairId::face_vertex(0, 9), PairId::edge_edge(2, 7), PairId::vertex_vertex(3, 1) }) == 2);
    REQUIRE(set.size() == 4);
    const auto pairs = set.pairs();
    CHECK(std::is_sorted(pairs.begin(), pairs.end()));
    REQUIRE(set.find(PairId::edge_edge(7, 2)) != nullptr);
    CHECK(set.find(PairId::edge_edge(7, 2))->lambda == 5);
    CHECK(set.find(PairId::edge_edge(7, 2))->gamma == 0.5);
    CHECK(set.find(PairId::vertex_vertex(1, 3))->lambda == 0);
    CHECK(set.find(PairId::vertex_vertex(1, 3))->gamma == 1);
    CHECK_FALSE(set.contains(PairId::face_vertex(4, 1)));

    // A constraint that stays slack decays by 0.9 and leaves after 44 decays.
    ipc::PersistentConstraint c { PairId::face_vertex(0, 9), 3.0, 1.0 };
    int decays = 0;
    ipc::PersistentConstraintSet one;
    one.insert({ c.pair });
    while (!one.empty()) {
        CHECK_FALSE(ipc::update_multiplier(one.constraints()[0], 1.0, 10.0)); // c = 1 > lambda / mu: slack
        CHECK(one.constraints()[0].lambda == 0);
        ++decays;
        one.erase_decayed();
        REQUIRE(decays < 100);
    }
    CHECK(decays == 44);

    // Binding: lambda <- lambda - mu c (c < 0 pushes it up), gamma back to 1.
    c.gamma = 0.2;
    CHECK(ipc::update_multiplier(c, -0.5, 10.0));
    CHECK(c.lambda == 8.0);
    CHECK(c.gamma == 1.0);
    // c between 0 and lambda / mu: still binding, lambda shrinks.
    CHECK(ipc::update_multiplier(c, 0.3, 10.0));
    CHECK(c.lambda == Approx(5.0));
    CHECK_THROWS_AS(ipc::update_multiplier(c, 0.3, 0.0), ipc::invalid_argument);
}

TEST_CASE("Cumulative-TOI termination", "[termination]")
{
    // Full steps: exactly k_min iterations.
    for (const int k_min : { 1, 2, 6 }) {
        ipc::CumulativeToiTermination t(k_min, 1e-3);
        int iterations = 0;
        while (!t.done()) {
            t.accept(1.0);
            ++iterations;
        }
        CHECK(iterations == k_min);
    }
    // beta = prod over k >= k_min of (1 - alpha_k).
    ipc::CumulativeToiTermination t(2, 1e-3);
    t.accept(0.1); // k = 1 < k_min: not counted
    CHECK(t.beta() == 1.0);
    t.accept(0.5);
    t.accept(0.9);
    CHECK(t.beta() == Approx(0.05));
    CHECK_FALSE(t.done());
    t.accept(0.99);
    CHECK(t.beta() == Approx(0.0005));
    CHECK(t.done());
    // Zero steps never finish it.
    t.reset();
    for (int k = 0; k < 100; ++k) {
        t.accept(0.0);
    }
    CHECK_FALSE(t.done());
    CHECK_THROWS_AS(ipc::CumulativeToiTermination(0, 1e-3), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::CumulativeToiTermination(2, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(t.accept(1.5), ipc::invalid_argument);
}
