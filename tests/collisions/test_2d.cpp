// 2D meshes through the whole contact pipeline: the active set against a
// brute-force check written with 2D formulas, the barrier and friction
// potentials against finite differences, the 3D embedding at z = 0 and a
// direct 2D friction formula, the step size against exact ground truth on
// degenerate motions and random scenes, bad input, and a small implicit-Euler
// drop of a square onto a ground edge.

#include "contact_scenes.hpp"

#include <finite_differences.hpp>

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/friction/friction_mollifier.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Dense>

#include <catch2/catch.hpp>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace test_2d {

using ipc::Index;
using Vec2 = Eigen::Vector2d;

// Rows of V (n x 2) as one vector, x y per vertex, and back.
inline Eigen::VectorXd flat(const Eigen::MatrixXd& V)
{
    Eigen::VectorXd x(V.size());
    for (Index i = 0; i < V.rows(); ++i) {
        for (Index c = 0; c < V.cols(); ++c) {
            x[V.cols() * i + c] = V(i, c);
        }
    }
    return x;
}
inline Eigen::MatrixXd unflat(const Eigen::VectorXd& x, Index cols)
{
    Eigen::MatrixXd V(x.size() / cols, cols);
    for (Index i = 0; i < V.rows(); ++i) {
        for (Index c = 0; c < cols; ++c) {
            V(i, c) = x[cols * i + c];
        }
    }
    return V;
}
inline Eigen::MatrixXd padded(const Eigen::MatrixXd& V2)
{
    Eigen::MatrixXd V3 = Eigen::MatrixXd::Zero(V2.rows(), 3);
    V3.leftCols(2) = V2;
    return V3;
}

// A few-edge scene: a roof (0-1-2) with its peak at vertex 1, a point above
// the peak (3, closest feature the shared endpoint of two edges), a point
// near the interior of edge (0, 1) (vertex 5) and a point near the far end
// of edge (1, 2) (vertex 7), each on a short edge of its own.
struct Scene2 {
    ipc::CollisionMesh mesh;
    Eigen::MatrixXd V;
};
inline Scene2 few_edge_scene(double radius = 0)
{
    Eigen::MatrixXd V(9, 2);
    V << -1, -0.5, 0, 0, 1, -0.5, //
        0.004, 0.05, 0.05, 0.6,    //
        -0.52, -0.19, -0.7, 0.3,   //
        1.06, -0.47, 1.4, -0.1;
    Eigen::MatrixXi E(5, 2);
    E << 0, 1, 1, 2, 3, 4, 5, 6, 7, 8;
    return { ipc::CollisionMesh(V, E, Eigen::MatrixXi(0, 3), Eigen::VectorXd::Constant(9, radius)), V };
}

// Random scene of a few short segments and two particles in the unit square.
inline Scene2 random_scene(unsigned seed, int segments, double length = 0.25, double radius = 0)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1), angle(0, 6.283185307179586);
    Eigen::MatrixXd V(2 * segments + 2, 2);
    Eigen::MatrixXi E(segments, 2);
    for (int s = 0; s < segments; ++s) {
        const Vec2 a(u(rng), u(rng));
        const double t = angle(rng);
        V.row(2 * s) = a.transpose();
        V.row(2 * s + 1) = (a + length * Vec2(std::cos(t), std::sin(t))).transpose();
        E(s, 0) = 2 * s;
        E(s, 1) = 2 * s + 1;
    }
    V.row(2 * segments) = Vec2(u(rng), u(rng)).transpose();
    V.row(2 * segments + 1) = Vec2(u(rng), u(rng)).transpose();
    return { ipc::CollisionMesh(V, E, Eigen::MatrixXi(0, 3), Eigen::VectorXd::Constant(V.rows(), radius)), V };
}

// Every admissible pair of a 2D mesh as candidates (no broad phase).
inline ipc::Candidates all_pairs(const ipc::CollisionMesh& mesh)
{
    ipc::Candidates c;
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_edge_vertex(e, v)) {
                c.edge_vertex.push_back({ e, v });
            }
        }
    }
    for (Index a = 0; a < mesh.num_vertices(); ++a) {
        for (Index b = a + 1; b < mesh.num_vertices(); ++b) {
            if (mesh.can_collide_vertex_vertex(a, b)) {
                c.vertex_vertex.push_back({ a, b });
            }
        }
    }
    return c;
}

// 2D point-segment distance squared and closest-point parameter (clamped).
inline double segment_distance_squared(const Vec2& p, const Vec2& a, const Vec2& b, double& t)
{
    const Vec2 e = b - a;
    t = (p - a).dot(e) / e.squaredNorm();
    const double tc = std::min(1.0, std::max(0.0, t));
    return (p - (a + tc * e)).squaredNorm();
}

// Brute force in 2D formulas: stencil -> number of source pairs (the keys of
// ipc::test::collision_counts).
inline std::map<ipc::test::OffsetKey, int> brute_force(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V,
                                                       double dhat, double dmin)
{
    std::map<ipc::test::OffsetKey, int> counts;
    const Eigen::MatrixXi& E = mesh.edges();
    const auto x = [&](Index i) -> Vec2 { return V.row(i).transpose(); };
    const auto pp = [](Index a, Index b) { return ipc::test::Key { 0, std::min(a, b), std::max(a, b), -1, -1 }; };
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (!mesh.can_collide_edge_vertex(e, v)) {
                continue;
            }
            const Index e0 = E(e, 0), e1 = E(e, 1);
            double t;
            const double d2 = segment_distance_squared(x(v), x(e0), x(e1), t);
            const double xi = mesh.edge_vertex_offset(e, v) + dmin;
            if (!(std::sqrt(d2) < xi + dhat)) {
                continue;
            }
            const ipc::test::Key key = t <= 0 ? pp(v, e0)
                : t >= 1                      ? pp(v, e1)
                                              : ipc::test::Key { 1, v, std::min(e0, e1), std::max(e0, e1), -1 };
            counts[{ key, xi }] += 1;
        }
    }
    for (Index a = 0; a < mesh.num_vertices(); ++a) {
        for (Index b = a + 1; b < mesh.num_vertices(); ++b) {
            if (mesh.can_collide_vertex_vertex(a, b)) {
                const double xi = mesh.vertex_vertex_offset(a, b) + dmin;
                if ((x(a) - x(b)).norm() < xi + dhat) {
                    counts[{ pp(a, b), xi }] += 1;
                }
            }
        }
    }
    return counts;
}

// (distance - offset) of every admissible pair of a 2D mesh, in a fixed order.
inline std::vector<double> pair_gaps(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V,
                                     double min_distance = 0)
{
    const Eigen::MatrixXi& E = mesh.edges();
    const auto x = [&](Index i) -> Vec2 { return V.row(i).transpose(); };
    std::vector<double> gaps;
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_edge_vertex(e, v)) {
                double t;
                gaps.push_back(std::sqrt(segment_distance_squared(x(v), x(E(e, 0)), x(E(e, 1)), t))
                               - mesh.edge_vertex_offset(e, v) - min_distance);
            }
        }
    }
    for (Index a = 0; a < mesh.num_vertices(); ++a) {
        for (Index b = a + 1; b < mesh.num_vertices(); ++b) {
            if (mesh.can_collide_vertex_vertex(a, b)) {
                gaps.push_back((x(a) - x(b)).norm() - mesh.vertex_vertex_offset(a, b) - min_distance);
            }
        }
    }
    return gaps;
}

// Smallest (distance - offset) over every admissible pair of a 2D mesh.
inline double smallest_gap(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V, double min_distance = 0)
{
    double gap = std::numeric_limits<double>::infinity();
    for (const double g : pair_gaps(mesh, V, min_distance)) {
        gap = std::min(gap, g);
    }
    return gap;
}

inline Eigen::MatrixXd dense(const Eigen::SparseMatrix<double>& H) { return Eigen::MatrixXd(H); }

// Step sizes of every method and both overloads (candidates and every broad
// phase); all must agree per method.
template <typename CCD>
double step_all_overloads(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V0, const Eigen::MatrixXd& V1,
                          double dmin, const CCD& ccd)
{
    const double alpha = ipc::collision_free_step_size(all_pairs(mesh), mesh, V0, V1, dmin, ccd);
    for (const auto method : { ipc::BroadPhaseMethod::brute_force, ipc::BroadPhaseMethod::sweep_and_prune,
                               ipc::BroadPhaseMethod::spatial_hash, ipc::BroadPhaseMethod::bvh }) {
        CHECK(ipc::collision_free_step_size(mesh, V0, V1, dmin, method, ccd) == alpha);
    }
    return alpha;
}

} // namespace test_2d

TEST_CASE("2D Collisions::build finds exactly the pairs of a brute-force check", "[collisions][2d]")
{
    using namespace test_2d;
    for (const double radius : { 0.0, 0.01 }) {
        for (const double dmin : { 0.0, 0.005 }) {
            const Scene2 scene = few_edge_scene(radius);
            const double dhat = 0.1;
            ipc::Collisions c;
            c.build(scene.mesh, scene.V, dhat, dmin);
            const auto expected = brute_force(scene.mesh, scene.V, dhat, dmin);
            CHECK(ipc::test::collision_counts(c) == expected);
            CHECK(c.edge_edge.empty());
            CHECK(c.face_vertex.empty());
            // The peak vertex 1 is the closest feature of two edges for
            // vertex 3 (and vertex 1 is closest to the end of edge (3, 4)).
            const double xi = 2 * radius + dmin;
            CHECK(expected.at({ ipc::test::Key { 0, 1, 3, -1, -1 }, xi }) == 3);
            CHECK(expected.count({ ipc::test::Key { 1, 5, 0, 1, -1 }, xi }) == 1);
            CHECK(expected.count({ ipc::test::Key { 0, 2, 7, -1, -1 }, xi }) == 1);
            ipc::Collisions from_candidates;
            from_candidates.build(all_pairs(scene.mesh), scene.mesh, scene.V, dhat, dmin);
            CHECK(ipc::test::collision_counts(from_candidates) == expected);
        }
    }
    for (unsigned seed = 0; seed < 12; ++seed) {
        const Scene2 scene = random_scene(seed, 6);
        ipc::Collisions c;
        for (const auto method : { ipc::BroadPhaseMethod::brute_force, ipc::BroadPhaseMethod::sweep_and_prune,
                                   ipc::BroadPhaseMethod::spatial_hash, ipc::BroadPhaseMethod::bvh }) {
            c.build(scene.mesh, scene.V, 0.08, 0.0, method);
            CHECK(ipc::test::collision_counts(c) == brute_force(scene.mesh, scene.V, 0.08, 0.0));
        }
    }
}

TEST_CASE("2D barrier potential: finite differences, PSD projections", "[potentials][2d]")
{
    using namespace test_2d;
    const Scene2 scene = few_edge_scene();
    const double dhat = 0.1;
    ipc::Collisions c;
    c.build(scene.mesh, scene.V, dhat);
    REQUIRE(c.vertex_vertex.size() >= 2);
    REQUIRE(c.edge_vertex.size() >= 1);
    const ipc::BarrierPotential<> B(dhat, 1e4);
    const Eigen::VectorXd x = flat(scene.V);
    const auto energy = [&](const Eigen::VectorXd& y) { return B(c, scene.mesh, unflat(y, 2)); };
    const Eigen::VectorXd g = B.gradient(c, scene.mesh, scene.V);
    REQUIRE(g.size() == 2 * scene.mesh.num_vertices());
    CHECK(ipc::test::fd_close(g, ipc::test::fd_gradient(energy, x, 1e-7), 1e-5));
    const Eigen::SparseMatrix<double> H = B.hessian(c, scene.mesh, scene.V);
    REQUIRE(H.rows() == 2 * scene.mesh.num_vertices());
    REQUIRE(H.cols() == 2 * scene.mesh.num_vertices());
    const Eigen::MatrixXd H_fd = ipc::test::fd_jacobian(
        [&](const Eigen::VectorXd& y) -> Eigen::VectorXd { return B.gradient(c, scene.mesh, unflat(y, 2)); }, x,
        1e-7);
    CHECK(ipc::test::fd_close(dense(H), H_fd, 1e-5));
    CHECK((dense(H) - dense(H).transpose()).cwiseAbs().maxCoeff() <= 1e-12 * dense(H).cwiseAbs().maxCoeff());
    for (const auto projection : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
        const Eigen::MatrixXd P = dense(B.hessian(c, scene.mesh, scene.V, projection));
        REQUIRE(P.rows() == H.rows());
        const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(P).eigenvalues();
        CHECK(eigenvalues.minCoeff() >= -1e-9 * std::max(1.0, eigenvalues.cwiseAbs().maxCoeff()));
        // Vertices without a stencil keep zero rows.
        CHECK(P.row(2 * 4).cwiseAbs().maxCoeff() == 0.0);
    }
}

TEST_CASE("2D barrier: equals the 3D scene embedded at z = 0", "[potentials][2d]")
{
    using namespace test_2d;
    const Scene2 scene = few_edge_scene(0.01);
    const Eigen::MatrixXd V3 = padded(scene.V);
    const ipc::CollisionMesh mesh3(padded(scene.mesh.rest_positions()), scene.mesh.edges(), Eigen::MatrixXi(0, 3),
                                   Eigen::VectorXd::Constant(scene.V.rows(), 0.01));
    const double dhat = 0.1;
    const ipc::Candidates candidates = all_pairs(scene.mesh);
    ipc::Collisions c2, c3;
    c2.build(candidates, scene.mesh, scene.V, dhat, 0.002);
    c3.build(candidates, mesh3, V3, dhat, 0.002);
    REQUIRE(ipc::test::collision_counts(c2) == ipc::test::collision_counts(c3));
    const ipc::BarrierPotential<> B(dhat, 5.0);
    CHECK(B(c2, scene.mesh, scene.V) == B(c3, mesh3, V3));
    CHECK(B(c2, scene.mesh, scene.V) > 0);
    const Eigen::VectorXd g2 = B.gradient(c2, scene.mesh, scene.V), g3 = B.gradient(c3, mesh3, V3);
    for (const auto projection : { ipc::PSDProjection::none, ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
        const Eigen::MatrixXd H2 = dense(B.hessian(c2, scene.mesh, scene.V, projection));
        const Eigen::MatrixXd H3 = dense(B.hessian(c3, mesh3, V3, projection));
        for (Index a = 0; a < scene.V.rows(); ++a) {
            for (Index b = 0; b < scene.V.rows(); ++b) {
                CHECK(H2.block<2, 2>(2 * a, 2 * b) == H3.block<2, 2>(3 * a, 3 * b));
            }
        }
    }
    for (Index v = 0; v < scene.V.rows(); ++v) {
        CHECK(g2.segment<2>(2 * v) == g3.segment<2>(3 * v));
        CHECK(g3[3 * v + 2] == 0.0);
    }
}

TEST_CASE("2D friction: finite differences and a direct 2D formula", "[friction][potentials][2d]")
{
    using namespace test_2d;
    const Scene2 scene = few_edge_scene();
    const double dhat = 0.1, kappa = 1e4, mu = 0.4, eps = 1e-3;
    ipc::Collisions c;
    c.build(scene.mesh, scene.V, dhat);
    ipc::FrictionCollisions contacts;
    contacts.build(c, scene.mesh, scene.V, dhat, kappa, mu);
    REQUIRE(contacts.size() == c.size());
    const ipc::FrictionPotential<> D(eps);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (const double amount : { 3e-4, 5e-3 }) { // mostly static, then sliding
        Eigen::MatrixXd U(scene.V.rows(), 2);
        for (Index i = 0; i < U.size(); ++i) {
            U.data()[i] = amount * u(rng);
        }
        // Direct 2D formula: lambda mu f0(|t . (relative displacement)|)
        // with the lagged tangent t (the edge direction, or the normal
        // turned by 90 degrees for a point-point contact).
        const auto x = [&](Index i) -> Vec2 { return scene.V.row(i).transpose(); };
        const auto d = [&](Index i) -> Vec2 { return U.row(i).transpose(); };
        double expected = 0;
        for (const auto& s : c.edge_vertex) {
            const Vec2 p = x(s.vertices[0]), e0 = x(s.vertices[1]), e1 = x(s.vertices[2]);
            double t;
            const double d2 = segment_distance_squared(p, e0, e1, t);
            const double lambda = s.weight * ipc::normal_force_magnitude(d2, s.offset, dhat, kappa);
            const Vec2 tangent = (e1 - e0).normalized();
            const Vec2 rel = d(s.vertices[0]) - (1 - t) * d(s.vertices[1]) - t * d(s.vertices[2]);
            expected += mu * lambda * ipc::C1FrictionMollifier::f0(std::abs(tangent.dot(rel)), eps);
        }
        for (const auto& s : c.vertex_vertex) {
            const Vec2 n = (x(s.vertices[0]) - x(s.vertices[1])).normalized();
            const double lambda = s.weight
                * ipc::normal_force_magnitude((x(s.vertices[0]) - x(s.vertices[1])).squaredNorm(), s.offset, dhat,
                                              kappa);
            const Vec2 rel = d(s.vertices[0]) - d(s.vertices[1]);
            expected += mu * lambda * ipc::C1FrictionMollifier::f0(std::abs(Vec2(-n[1], n[0]).dot(rel)), eps);
        }
        const double value = D(contacts, scene.mesh, U);
        CHECK(value == Approx(expected).epsilon(1e-12));
        const Eigen::VectorXd y = flat(U);
        const auto energy = [&](const Eigen::VectorXd& z) { return D(contacts, scene.mesh, unflat(z, 2)); };
        const Eigen::VectorXd g = D.gradient(contacts, scene.mesh, U);
        REQUIRE(g.size() == 2 * scene.mesh.num_vertices());
        CHECK(ipc::test::fd_close(g, ipc::test::fd_gradient(energy, y, 1e-8), 1e-6));
        const Eigen::MatrixXd H = dense(D.hessian(contacts, scene.mesh, U));
        REQUIRE(H.rows() == 2 * scene.mesh.num_vertices());
        const Eigen::MatrixXd H_fd = ipc::test::fd_jacobian(
            [&](const Eigen::VectorXd& z) -> Eigen::VectorXd { return D.gradient(contacts, scene.mesh, unflat(z, 2)); },
            y, 1e-8);
        CHECK(ipc::test::fd_close(H, H_fd, 1e-4));
        CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff() >= -1e-9 * H.norm());
    }
}

TEMPLATE_TEST_CASE("2D step size: degenerate motions against exact ground truth", "[collisions][step_size][2d]",
                   ipc::AdditiveCCD, ipc::InclusionCCD, ipc::RootFindingCCD)
{
    using namespace test_2d;
    const TestType ccd;
    // Edge (0, 1) on the x axis, a point (2) on an edge of its own (2, 3).
    Eigen::MatrixXd V0(4, 2);
    V0 << -1, 0, 1, 0, 0.2, 0.5, 0.2, 1.5;
    Eigen::MatrixXi E(2, 2);
    E << 0, 1, 2, 3;
    const ipc::CollisionMesh mesh(V0, E, Eigen::MatrixXi(0, 3));
    const auto shifted = [&](const Eigen::MatrixXd& V, const Vec2& by) {
        Eigen::MatrixXd W = V;
        W.bottomRows(2).rowwise() += by.transpose();
        return W;
    };
    const auto moved_to = [&](const Eigen::MatrixXd& V1, double t) { return Eigen::MatrixXd(V0 + t * (V1 - V0)); };

    SECTION("zero motion")
    {
        CHECK(step_all_overloads(mesh, V0, V0, 0.0, ccd) == 1.0);
    }
    SECTION("parallel motion")
    {
        CHECK(step_all_overloads(mesh, V0, shifted(V0, Vec2(3.0, 0.0)), 0.0, ccd) == 1.0);
        CHECK(step_all_overloads(mesh, V0, shifted(V0, Vec2(-0.7, 0.0)), 0.1, ccd) == 1.0);
    }
    SECTION("touching at the end")
    {
        // The point reaches the edge exactly at t = 1.
        const Eigen::MatrixXd V1 = shifted(V0, Vec2(0.0, -0.5));
        const double alpha = step_all_overloads(mesh, V0, V1, 0.0, ccd);
        CHECK(alpha < 1.0);
        CHECK(alpha > 0.5);
        CHECK(smallest_gap(mesh, moved_to(V1, alpha)) > 0);
        // With an offset 0.1 the contact is at t = 0.8.
        const double beta = step_all_overloads(mesh, V0, V1, 0.1, ccd);
        CHECK(beta < 0.8);
        CHECK(beta > 0.4);
        CHECK(smallest_gap(mesh, moved_to(V1, beta), 0.1) > 0);
    }
    SECTION("a vertex passing exactly through an endpoint")
    {
        // Point 2 at (1, 0.5) moves straight down through endpoint (1, 0) at t = 0.5.
        Eigen::MatrixXd W0 = V0;
        W0.row(2) << 1, 0.5;
        W0.row(3) << 1, 1.5;
        Eigen::MatrixXd W1 = W0;
        W1.col(1).tail(2).array() -= 1.0;
        const double alpha = step_all_overloads(mesh, W0, W1, 0.0, ccd);
        CHECK(alpha < 0.5);
        CHECK(alpha > 0.25);
        CHECK(smallest_gap(mesh, Eigen::MatrixXd(W0 + alpha * (W1 - W0))) > 0);
    }
    SECTION("fast motion through a thin edge")
    {
        // Toi 0.5 / 1000.5: the point would tunnel through in one step.
        const Eigen::MatrixXd V1 = shifted(V0, Vec2(0.0, -1000.5));
        const double toi = 0.5 / 1000.5;
        const double alpha = step_all_overloads(mesh, V0, V1, 0.0, ccd);
        CHECK(alpha < toi);
        CHECK(alpha > 0.5 * toi);
        const Eigen::MatrixXd Va = moved_to(V1, alpha);
        CHECK(smallest_gap(mesh, Va) > 0);
        CHECK_FALSE(ipc::has_intersections(mesh, Va));
        // collision_hits reports the crossing; its earliest toi is the step.
        const auto hits = ipc::collision_hits(mesh, V0, V1, 0.0, ipc::BroadPhaseMethod::bvh, ccd);
        REQUIRE(!hits.empty());
        CHECK(ipc::earliest_toi(hits) == alpha);
    }
}

TEMPLATE_TEST_CASE("2D step size: random small scenes stay intersection-free", "[collisions][step_size][2d]",
                   ipc::AdditiveCCD, ipc::InclusionCCD, ipc::RootFindingCCD)
{
    using namespace test_2d;
    const TestType ccd;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    int with_contact = 0, clear = 0;
    for (unsigned seed = 0; seed < 24; ++seed) {
        // Radii 0.005: a crossing keeps a pair inside its offset for a
        // while, which the sampling below sees.
        const Scene2 scene = random_scene(100 + seed, 4, 0.2, 0.005);
        if (ipc::has_intersections(scene.mesh, scene.V) || smallest_gap(scene.mesh, scene.V) < 0.01) {
            continue;
        }
        Eigen::MatrixXd V1 = scene.V;
        for (Index i = 0; i < V1.size(); ++i) {
            V1.data()[i] += (seed % 3 == 0 ? 0.02 : 0.4) * u(rng);
        }
        const double alpha = step_all_overloads(scene.mesh, scene.V, V1, 0.0, ccd);
        const Eigen::MatrixXd Va = scene.V + alpha * (V1 - scene.V);
        CHECK_FALSE(ipc::has_intersections(scene.mesh, Va));
        CHECK(smallest_gap(scene.mesh, Va) > 0);
        // Ground truth by sampling the motion (1000 steps): contact is the
        // first sample with a pair at or inside its offset (an upper bound
        // on the contact time); `near` the last sample before some pair has
        // lost half of its initial gap (a lower bound on that time). Every
        // method goes at least about that far: no pair that keeps half its
        // gap over the whole motion means the full step.
        const std::vector<double> gaps0 = pair_gaps(scene.mesh, scene.V);
        double contact = 2.0, near = 1.0;
        for (int k = 1; k <= 1000; ++k) {
            const double t = k / 1000.0;
            const std::vector<double> gaps = pair_gaps(scene.mesh, Eigen::MatrixXd(scene.V + t * (V1 - scene.V)));
            bool halved = false, touching = false;
            for (std::size_t i = 0; i < gaps.size(); ++i) {
                halved |= gaps[i] <= 0.5 * gaps0[i];
                touching |= gaps[i] <= 0;
            }
            if (halved && near == 1.0) {
                near = (k - 1) / 1000.0;
            }
            if (touching) {
                contact = t;
                break;
            }
        }
        if (contact <= 1.0) {
            ++with_contact;
            CHECK(alpha < contact);
        } else if (near == 1.0) {
            ++clear;
            CHECK(alpha == 1.0);
        }
        CHECK(alpha >= 0.5 * near);
    }
    INFO(with_contact << " scenes with contact, " << clear << " clear");
    CHECK(with_contact >= 3);
    CHECK(clear >= 3);
}

TEST_CASE("2D minimum_distance, pair_distance and step_start_state", "[collisions][2d]")
{
    using namespace test_2d;
    const Scene2 scene = few_edge_scene(0.002);
    CHECK(ipc::minimum_distance(scene.mesh, scene.V) == Approx(smallest_gap(scene.mesh, scene.V)).epsilon(1e-12));
    // Point 5 against edge (0, 1): interior, distance to the line y = x / 2.
    const ipc::PairDistance d = ipc::pair_distance(scene.mesh, scene.V, ipc::PairId::edge_vertex(0, 5));
    const double expected = std::abs(-0.19 - 0.5 * -0.52) / std::sqrt(1.25);
    CHECK(d.distance == Approx(expected).epsilon(1e-12));
    CHECK(d.gradient[2] == 0.0);
    CHECK(d.gradient.segment<2>(0).norm() == Approx(1.0).epsilon(1e-12));
    CHECK(ipc::step_start_state(scene.mesh, scene.V).valid());
    CHECK(ipc::step_start_state(scene.mesh, scene.V, 0.06).status == ipc::StepStartStatus::within_offset);
    Eigen::MatrixXd crossing = scene.V;
    crossing.row(5) << -0.5, -0.4; // edge (5, 6) now crosses edge (0, 1)
    const ipc::StepStartState state = ipc::step_start_state(scene.mesh, crossing, 0.0);
    CHECK(state.status != ipc::StepStartStatus::valid);
    CHECK_THROWS_AS(ipc::check_step_start(scene.mesh, crossing), ipc::penetration);
}

TEST_CASE("2D bad input: positions with the wrong number of columns", "[collisions][potentials][2d]")
{
    using namespace test_2d;
    const Scene2 scene = few_edge_scene();
    const Eigen::MatrixXd V3 = padded(scene.V);
    const auto names_both = [](const std::function<void()>& call) {
        try {
            call();
        } catch (const ipc::invalid_argument& e) {
            const std::string message = e.what();
            return message.find("3 columns") != std::string::npos && message.find("2D") != std::string::npos;
        }
        return false;
    };
    const double dhat = 0.1;
    ipc::Collisions c;
    c.build(scene.mesh, scene.V, dhat);
    ipc::FrictionCollisions contacts;
    contacts.build(c, scene.mesh, scene.V, dhat, 1.0, 0.5);
    const ipc::BarrierPotential<> B(dhat);
    const ipc::FrictionPotential<> D(1e-3);
    ipc::Collisions scratch;
    ipc::FrictionCollisions scratch_contacts;
    CHECK(names_both([&] { scratch.build(scene.mesh, V3, dhat); }));
    CHECK(names_both([&] { scratch.build(all_pairs(scene.mesh), scene.mesh, V3, dhat); }));
    CHECK(names_both([&] { B(c, scene.mesh, V3); }));
    CHECK(names_both([&] { B.gradient(c, scene.mesh, V3); }));
    CHECK(names_both([&] { B.hessian(c, scene.mesh, V3); }));
    CHECK(names_both([&] { scratch_contacts.build(c, scene.mesh, V3, dhat, 1.0, 0.5); }));
    CHECK(names_both([&] { D(contacts, scene.mesh, V3); }));
    CHECK(names_both([&] { D.gradient(contacts, scene.mesh, V3); }));
    CHECK(names_both([&] { D.hessian(contacts, scene.mesh, V3); }));
    CHECK(names_both([&] { ipc::collision_free_step_size(scene.mesh, scene.V, V3); }));
    CHECK(names_both([&] { ipc::collision_free_step_size(scene.mesh, V3, scene.V); }));
    CHECK(names_both([&] { ipc::collision_free_step_size(all_pairs(scene.mesh), scene.mesh, scene.V, V3); }));
    CHECK(names_both([&] { ipc::collision_hits(scene.mesh, scene.V, V3); }));
    CHECK(names_both([&] { ipc::minimum_distance(scene.mesh, V3); }));
    CHECK(names_both([&] { ipc::pair_distance(scene.mesh, V3, ipc::PairId::edge_vertex(0, 5)); }));
    CHECK(names_both([&] { ipc::step_start_state(scene.mesh, V3); }));
    // And 2 columns on a 3D mesh.
    const ipc::CollisionMesh mesh3(padded(scene.V), scene.mesh.edges(), Eigen::MatrixXi(0, 3));
    CHECK_THROWS_WITH(scratch.build(mesh3, scene.V, dhat), Catch::Contains("2 columns") && Catch::Contains("3D"));
    CHECK_THROWS_WITH(B(c, mesh3, scene.V), Catch::Contains("2 columns") && Catch::Contains("3D"));
    // Edge-edge candidates have no meaning in 2D.
    ipc::Candidates edge_edge;
    edge_edge.edge_edge.push_back({ 0, 2 });
    CHECK_THROWS_WITH(scratch.build(edge_edge, scene.mesh, scene.V, dhat), Catch::Contains("2D mesh"));
    CHECK_THROWS_WITH(ipc::collision_free_step_size(edge_edge, scene.mesh, scene.V, scene.V),
                      Catch::Contains("2D mesh"));
    CHECK_THROWS_WITH(ipc::collision_hits(edge_edge, scene.mesh, scene.V, scene.V), Catch::Contains("2D mesh"));
    CHECK_THROWS_AS(ipc::pair_distance(scene.mesh, scene.V, ipc::PairId::edge_edge(0, 2)), ipc::invalid_argument);
    // StencilAssembly takes dimension 2 or 3 only.
    const auto one = [](Index) { return ipc::StencilVertices { { { 0, 1, 0, 0 } }, 2 }; };
    CHECK_THROWS_WITH(ipc::StencilAssembly(2, 1, one, 4), Catch::Contains("StencilAssembly") && Catch::Contains("4"));
    CHECK(ipc::StencilAssembly(2, 1, one, 2).dim() == 2);
}

TEST_CASE("2D StencilAssembly: bit-identical for any thread count", "[potentials][2d]")
{
    using namespace test_2d;
    // Many stencils (above the parallel threshold) on a random 2D scene.
    const Scene2 scene = random_scene(7, 80, 0.15);
    const double dhat = 0.08;
    ipc::Collisions c;
    c.build(scene.mesh, scene.V, dhat);
    const ipc::BarrierPotential<> B(dhat);
    REQUIRE(c.size() > std::size_t(ipc::min_parallel_stencils));
    const Eigen::VectorXd g = B.gradient(c, scene.mesh, scene.V);
    const Eigen::MatrixXd H = dense(B.hessian(c, scene.mesh, scene.V, ipc::PSDProjection::clamp));
#if IPC_HAS_OPENMP
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    const Eigen::VectorXd g1 = B.gradient(c, scene.mesh, scene.V);
    const Eigen::MatrixXd H1 = dense(B.hessian(c, scene.mesh, scene.V, ipc::PSDProjection::clamp));
#if IPC_HAS_OPENMP
    omp_set_num_threads(threads);
#endif
    CHECK(g1 == g);
    CHECK(H1 == H);
}

TEST_CASE("2D implicit Euler: a square dropped on a ground edge comes to rest above it", "[collisions][2d][solver]")
{
    using namespace test_2d;
    // Ground edge (0, 1), fixed; a square (2..5) of side 0.2, 0.05 above it.
    const double radius = 0.004, dhat = 0.01, h = 0.01, gravity = 9.8, k_spring = 1e4, kappa = 1e6;
    Eigen::MatrixXd V(6, 2);
    V << -1, 0, 1, 0, -0.1, 0.05, 0.1, 0.05, 0.1, 0.25, -0.1, 0.25;
    Eigen::MatrixXi E(5, 2);
    E << 0, 1, 2, 3, 3, 4, 4, 5, 5, 2;
    const ipc::CollisionMesh mesh(V, E, Eigen::MatrixXi(0, 3), Eigen::VectorXd::Constant(6, radius));
    const double offset = 2 * radius;
    // Springs: the square's sides and diagonals (rest lengths from V).
    std::vector<std::array<Index, 2>> springs = { { { 2, 3 } }, { { 3, 4 } }, { { 4, 5 } },
                                                  { { 5, 2 } }, { { 2, 4 } }, { { 3, 5 } } };
    std::vector<double> rest;
    for (const auto& s : springs) {
        rest.push_back((V.row(s[0]) - V.row(s[1])).norm());
    }
    const int n = 12, free_begin = 4; // DOFs 0..3 are the fixed ground
    const ipc::BarrierPotential<> B(dhat, kappa);
    Eigen::MatrixXd velocity = Eigen::MatrixXd::Zero(6, 2);
    int newton_iterations = 0;
    for (int step = 0; step < 60; ++step) {
        Eigen::MatrixXd predicted = V + h * velocity;
        predicted.bottomRows(4).col(1).array() -= h * h * gravity;
        predicted.topRows(2) = V.topRows(2);
        const auto energy = [&](const Eigen::MatrixXd& X, ipc::Collisions& c) {
            double e = 0.5 * (X - predicted).squaredNorm() / (h * h);
            for (std::size_t k = 0; k < springs.size(); ++k) {
                const double stretch = (X.row(springs[k][0]) - X.row(springs[k][1])).norm() - rest[k];
                e += 0.5 * k_spring * stretch * stretch;
            }
            c.build(mesh, X, dhat);
            return e + B(c, mesh, X);
        };
        Eigen::MatrixXd X = V;
        for (int iteration = 0; iteration < 30; ++iteration) {
            ipc::Collisions c;
            const double e0 = energy(X, c);
            Eigen::VectorXd g = flat(Eigen::MatrixXd((X - predicted) / (h * h))) + B.gradient(c, mesh, X);
            Eigen::MatrixXd H = Eigen::MatrixXd::Identity(n, n) / (h * h)
                + dense(B.hessian(c, mesh, X, ipc::PSDProjection::clamp));
            for (std::size_t k = 0; k < springs.size(); ++k) {
                const Vec2 d = (X.row(springs[k][0]) - X.row(springs[k][1])).transpose();
                const double length = d.norm();
                const Vec2 force = k_spring * (length - rest[k]) * d / length;
                const Eigen::Matrix2d block = k_spring * d * d.transpose() / (length * length); // Gauss-Newton
                for (int a = 0; a < 2; ++a) {
                    const Index va = springs[k][std::size_t(a)];
                    g.segment<2>(2 * va) += (a == 0 ? 1.0 : -1.0) * force;
                    for (int b = 0; b < 2; ++b) {
                        H.block<2, 2>(2 * va, 2 * springs[k][std::size_t(b)]) += (a == b ? 1.0 : -1.0) * block;
                    }
                }
            }
            const int m = n - free_begin;
            Eigen::VectorXd dx = Eigen::VectorXd::Zero(n);
            dx.tail(m) = H.bottomRightCorner(m, m).ldlt().solve(-g.tail(m));
            if (dx.cwiseAbs().maxCoeff() < 1e-6 * h) {
                break;
            }
            ++newton_iterations;
            const Eigen::MatrixXd target = X + unflat(dx, 2);
            double alpha = ipc::collision_free_step_size(mesh, X, target);
            REQUIRE(alpha > 0);
            Eigen::MatrixXd trial = X + alpha * (target - X);
            ipc::Collisions trial_set;
            while (energy(trial, trial_set) > e0 && alpha > 1e-10) {
                alpha *= 0.5;
                trial = X + alpha * (target - X);
            }
            X = trial;
            REQUIRE_FALSE(ipc::has_intersections(mesh, X));
            REQUIRE(smallest_gap(mesh, X) > 0);
        }
        velocity = (X - V) / h;
        V = X;
    }
    // At rest: above the ground by more than the offset, barely moving.
    INFO("lowest " << V.bottomRows(4).col(1).minCoeff() << ", speed " << velocity.cwiseAbs().maxCoeff() << ", "
                   << newton_iterations << " Newton iterations");
    const double lowest = V.bottomRows(4).col(1).minCoeff();
    CHECK(lowest > offset);
    CHECK(lowest < offset + dhat);
    CHECK(velocity.cwiseAbs().maxCoeff() < 1e-2);
    CHECK(newton_iterations < 5 * 60); // a handful per time step
}
